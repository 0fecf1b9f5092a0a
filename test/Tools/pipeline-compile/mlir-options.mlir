// MLIR's pass-manager and debugging options are pipeline-compile's too,
// and --help lists them next to the tool's own.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pipeline-compile --help | FileCheck %s --check-prefix=HELP
// HELP: MLIR options (pass manager, timing, statistics, IR printing):
// HELP-DAG: --mlir-print-ir-after-all
// HELP-DAG: --mlir-timing
// HELP-DAG: --mlir-pass-statistics
// HELP-DAG: --mlir-pass-pipeline-crash-reproducer=<string>
// HELP: pipeline-compile options:
// HELP-DAG: -O <uint> - alias for --opt-level
// HELP-DAG: --Xptxas=<arg>
// HELP-DAG: --emit=<kinds>
// HELP-DAG: --lineinfo
// HELP-DAG: --opt-level=<uint>
// HELP-DAG: target chip: sm_90, sm_90a, sm_100, sm_100a, sm_101a, sm_103, sm_103a, sm_110, sm_110a, sm_120, sm_120a
// HELP-DAG: default: PTX ISA 8.6, or the chip's minimum if higher
// HELP-DAG: (default: $CUDA_HOME, else $CUDA_PATH, else /usr/local/cuda)
// The named pipelines' help comes from the same table and texts.
// RUN: pipeline-opt --help | FileCheck %s --check-prefix=PIPEHELP
// PIPEHELP: --pipeline-lower-to-binary
// PIPEHELP: --chip=<string> {{.*}}target chip: sm_90, sm_90a, sm_100, sm_100a, sm_101a,
// PIPEHELP: --cuda-path=<string> {{.*}}(default: $CUDA_HOME, else $CUDA_PATH, else /usr/local/cuda)
// PIPEHELP: --features=<string> {{.*}}default: PTX ISA 8.6, or the chip's minimum if higher

// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/k.ptx -mlir-print-ir-after-all 2>&1 | FileCheck %s --check-prefix=IR
// IR: IR Dump After PipelineVerifyLinearity
// IR: IR Dump After GpuModuleToBinaryPass
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/k.ptx -mlir-timing 2>&1 | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: GpuModuleToBinaryPass
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/k.ptx -mlir-pass-statistics 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: Pass statistics report
// A crash reproducer is written where asked (here for a failing run).
// RUN: not pipeline-compile %S/Inputs/second-fails.mlir --chip=sm_90a --emit=ptx -o %t/r.ptx --mlir-pass-pipeline-crash-reproducer=%t/repro.mlir 2>&1 | FileCheck %s --check-prefix=REPRO
// RUN: FileCheck %s --check-prefix=REPROFILE --input-file=%t/repro.mlir
// REPRO: error: 'pipeline.commit_mma' op needs tcgen05.commit
// REPROFILE: pipeline: "builtin.module(

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only() kernel {
      gpu.return
    }
  }
}
