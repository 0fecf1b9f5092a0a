// Options of the named pipelines are checked before anything runs.
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_42" 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="chip=volta" 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="opt-level=4" 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_100a features=+ptx80" 2>&1 | FileCheck %s --check-prefix=OLDPTX
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="features=+ptx95" 2>&1 | FileCheck %s --check-prefix=NEWPTX
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="features=+sm_90" 2>&1 | FileCheck %s --check-prefix=NOPTX
// RUN: not pipeline-opt %s -pipeline-lower-to-binary="format=elf" 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not pipeline-opt %s -pipeline-lower-to-binary="format=bin cuda-path=%t.missing" 2>&1 | FileCheck %s --check-prefix=NOPTXAS
// hang-keep-waiting without the hang report: the same error from every
// entry point (pipeline-compile: hang-report.mlir; the C API: capi.c).
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a hang-keep-waiting=1" 2>&1 | FileCheck %s --check-prefix=KEEP
// The isa format needs no ptxas.
// RUN: pipeline-opt %s -pipeline-lower-to-binary="format=isa cuda-path=%t.missing" | FileCheck %s --check-prefix=ISA

// CHIP: error: pipeline-lower-to-nvvm: expects chip to be one of sm_90, sm_90a, sm_100, sm_100a, sm_101a, sm_103, sm_103a, sm_110, sm_110a, sm_120, sm_120a, got 'sm_42'
// NAME: error: pipeline-lower-to-nvvm: expects chip to be one of {{.*}}, got 'volta'
// OPT: error: pipeline-lower-to-nvvm: expects opt-level 0 to 3, got 4
// OLDPTX: error: pipeline-lower-to-nvvm: expects PTX ISA 8.6 or newer for sm_100a, got '+ptx80' (PTX ISA 8.0)
// NEWPTX: error: pipeline-lower-to-nvvm: expects PTX ISA 9.0 or older (the newest LLVM 22 emits), got '+ptx95'
// NOPTX: error: pipeline-lower-to-nvvm: expects features with a PTX ISA version such as '+ptx86', got '+sm_90'
// KEEP: error: pipeline-lower-to-nvvm: expects hang-keep-waiting with the hang report (hang-report)
// FORMAT: error: pipeline-lower-to-binary: expects format isa, bin or fatbin, got 'elf'
// NOPTXAS: error: pipeline-lower-to-binary: ptxas not found: no executable {{.*}}.missing/bin/ptxas (CUDA toolkit from cuda-path); give the CUDA toolkit directory with cuda-path (--cuda-path), CUDA_HOME or CUDA_PATH
// ISA: gpu.binary @empty [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">, {{.*}}assembly = "{{.*}}.target sm_100a

module attributes {gpu.container_module} {
  gpu.module @empty {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
