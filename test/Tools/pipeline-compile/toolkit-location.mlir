// REQUIRES: ptxas
// The CUDA toolkit is --cuda-path, else $CUDA_HOME, else $CUDA_PATH, else
// /usr/local/cuda. %t/cuda is the toolkit reached only through links in a
// temporary directory; %t/broken is a fake toolkit whose ptxas reports
// CUDA 13.0 and then fails, so a compile that reaches it says so.
// RUN: rm -rf %t && mkdir -p %t/cuda/bin %t/broken/bin
// RUN: ln -s %cuda_path/bin/ptxas %cuda_path/bin/fatbinary %t/cuda/bin/
// RUN: ln -s %cuda_path/nvvm %t/cuda/nvvm
// RUN: ln -s %cuda_path/nvvm %t/broken/nvvm
// RUN: printf '#!/bin/sh\nif [ "$1" = --version ]; then echo "Cuda compilation tools, release 13.0, V13.0.0"; exit 0; fi\necho "broken ptxas: this toolkit is off limits" >&2\nexit 1\n' > %t/broken/bin/ptxas
// RUN: chmod +x %t/broken/bin/ptxas

// CUDA_PATH alone.
// RUN: env -u CUDA_HOME CUDA_PATH=%t/cuda pipeline-compile %s --chip=sm_90a -o %t/path
// RUN: test -s %t/path.cubin
// CUDA_HOME before CUDA_PATH.
// RUN: env CUDA_HOME=%t/cuda CUDA_PATH=%t/broken pipeline-compile %s --chip=sm_90a -o %t/home
// RUN: test -s %t/home.cubin
// RUN: env CUDA_HOME=%t/broken CUDA_PATH=%t/cuda not pipeline-compile %s --chip=sm_90a -o %t/x 2>&1 | FileCheck %s --check-prefix=BROKEN
// --cuda-path before both.
// RUN: env CUDA_HOME=%t/broken CUDA_PATH=%t/broken pipeline-compile %s --chip=sm_90a --cuda-path=%t/cuda -o %t/flag
// RUN: test -s %t/flag.cubin
// RUN: env CUDA_HOME=%t/cuda CUDA_PATH=%t/cuda not pipeline-compile %s --chip=sm_90a --cuda-path=%t/broken -o %t/x 2>&1 | FileCheck %s --check-prefix=BROKEN
// BROKEN: pipeline-compile: error: gpu.module @only: ptxas failed for sm_90a:
// BROKEN-NEXT: broken ptxas: this toolkit is off limits
// Empty variables are skipped; the error names where the toolkit came from.
// RUN: env CUDA_HOME= CUDA_PATH=%t/none not pipeline-compile %s --chip=sm_90a -o %t/x 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: pipeline-compile: error: ptxas not found: no executable {{.*}}none/bin/ptxas (CUDA toolkit from CUDA_PATH); give the CUDA toolkit directory with cuda-path (--cuda-path), CUDA_HOME or CUDA_PATH
// The named pipelines follow the same rule.
// RUN: env -u CUDA_HOME CUDA_PATH=%t/cuda pipeline-opt %s -pipeline-lower-to-binary="chip=sm_90a format=bin" | FileCheck %s --check-prefix=BIN
// RUN: env CUDA_HOME=%t/cuda CUDA_PATH=%t/cuda not pipeline-opt %s -pipeline-lower-to-binary="chip=sm_90a format=bin cuda-path=%t/broken" 2>&1 | FileCheck %s --check-prefix=PIPEBROKEN
// BIN: gpu.binary @only [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">, {{.*}}bin = "\7FELF
// PIPEBROKEN: broken ptxas: this toolkit is off limits

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only() kernel {
      gpu.return
    }
  }
}
