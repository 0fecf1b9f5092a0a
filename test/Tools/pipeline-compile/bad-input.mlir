// Bad input to the compile driver: a clear diagnostic, a non-zero exit, and
// no output file.
// RUN: rm -rf %t && mkdir -p %t

// A gpu.module with a non-NVVM target: its assembly would have been
// written as the .ptx.
// RUN: not pipeline-compile %S/Inputs/rocdl-target.mlir --chip=sm_90a --emit=ptx -o %t/rocdl.ptx 2>&1 | FileCheck %s --check-prefix=ROCDL
// RUN: not test -e %t/rocdl.ptx
// ROCDL: rocdl-target.mlir:3:3: error: 'gpu.module' op expects only #nvvm.target targets (the compile driver produces PTX for NVIDIA GPUs), got #rocdl.target<chip = "gfx90a">

// Module symbols become file names with several gpu.modules: one that
// leaves the -o prefix is an error before anything is compiled.
// RUN: mkdir -p %t/out %t/sub
// RUN: not pipeline-compile %S/Inputs/escaping-names.mlir --chip=sm_90a --emit=ptx -o %t/out/k 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: ls %t/out %t | FileCheck %s --check-prefix=NOFILES
// NAME: escaping-names.mlir:8:3: error: 'gpu.module' op expects a symbol usable in a file name (letters, digits, '_', '-', '.', '$'; not starting with '.' or '-') when the input may have several gpu.modules, got "sub/../x"
// NOFILES-NOT: .ptx

// A CUDA toolkit without nvvm/libdevice: a kernel that calls no libdevice
// function compiles to PTX (no-toolkit.mlir has the kernel that does).
// RUN: mkdir -p %t/nolibdevice/bin
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx --cuda-path=%t/nolibdevice -o %t/lib.ptx
// RUN: FileCheck %s --check-prefix=LIBDEVICE --input-file=%t/lib.ptx
// LIBDEVICE: .entry only(

// An error diagnostic from the parser fails the compile even when the
// parser goes on.
// RUN: not pipeline-compile %S/Inputs/unterminated-string.mlir --chip=sm_90a --emit=ptx -o %t/str.ptx 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: not test -e %t/str.ptx
// STRING: unterminated-string.mlir:3:40: error: expected '"' in string literal

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only() kernel {
      gpu.return
    }
  }
}
