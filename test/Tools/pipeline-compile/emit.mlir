// REQUIRES: ptxas
// --emit, -o as nvcc's, -Xptxas, and ptxas's messages on success.
// RUN: rm -rf %t && mkdir -p %t/noptxas

// PTX alone needs no ptxas (only libdevice, for kernels that call it): a toolkit
// without bin/ is fine, and -o names the one output file.
// RUN: ln -s %cuda_path/nvvm %t/noptxas/nvvm
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx --cuda-path=%t/noptxas -o %t/k.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/k.ptx
// RUN: ls %t | FileCheck %s --check-prefix=ONLYPTX --implicit-check-not=k.
// PTX: .target sm_90a
// PTX: .entry only(
// ONLYPTX: k.ptx

// One output of another kind: -o is the file, whatever its name.
// RUN: %if ptxas %{ pipeline-compile %s --chip=sm_90a --emit=cubin --cuda-path=%cuda_path -o %t/kernel.bin %}
// RUN: %if ptxas %{ head -c 4 %t/kernel.bin | od -c | FileCheck %s --check-prefix=ELF %}
// ELF: 177   E   L   F

// A fatbin holds the cubin and the PTX; with ptx,fatbin -o is a prefix.
// RUN: %if ptxas %{ pipeline-compile %s --chip=sm_90a --emit=ptx,fatbin --cuda-path=%cuda_path -o %t/fat %}
// RUN: %if ptxas %{ test -s %t/fat.ptx && test -s %t/fat.fatbin && not test -e %t/fat.cubin %}
// RUN: %if ptxas %{ od -A n -t x1 -N 4 %t/fat.fatbin | FileCheck %s --check-prefix=FATBIN %}
// FATBIN: 50 ed 55 ba

// -Xptxas reaches ptxas, and what ptxas prints on success is shown.
// RUN: %if ptxas %{ pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -Xptxas -v -Xptxas=-warn-spills,-warn-lmem-usage -o %t/v 2>&1 | FileCheck %s --check-prefix=VERBOSE %}
// VERBOSE: ptxas info    : Compiling entry function 'only' for 'sm_90a'
// VERBOSE: ptxas info    : Used {{[0-9]+}} registers

// A ptxas warning is shown on success.
// RUN: %if ptxas %{ pipeline-compile %S/Inputs/double.mlir --chip=sm_90a --cuda-path=%cuda_path -Xptxas --warn-on-double-precision-use -o %t/w 2>&1 | FileCheck %s --check-prefix=WARN %}
// RUN: %if ptxas %{ test -s %t/w.cubin %}
// WARN: warning : Program is doing double precision computations

// Bad values.
// RUN: not pipeline-compile %s --emit=sass -o %t/x 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: pipeline-compile: error: expects --emit to list ptx, cubin or fatbin, got 'sass'
// RUN: not pipeline-compile %s --emit=ptx -Xptxas -v -o %t/x 2>&1 | FileCheck %s --check-prefix=XPTXAS
// XPTXAS: pipeline-compile: error: expects -Xptxas with --emit=cubin or --emit=fatbin (PTX alone runs no ptxas)

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      memref.store %v, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
