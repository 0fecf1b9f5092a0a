// Host code with a memref outside the default memory space, in its
// signature or its body (which upstream's host conversion only reports
// without failing), fails the compile with the function or op named, and
// nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/out 2>&1 | FileCheck %s
// RUN: not ls %t/out.ptx

// CHECK: host-shared-memory.mlir:[[@LINE+1]]:1: error: 'func.func' op expects host code to use memrefs in the default memory space only (GPU memory spaces are for kernels in a gpu.module), got 'memref<4xf16, #gpu.address_space<workgroup>>' for argument #0
func.func @host(%a: memref<4xf16, #gpu.address_space<workgroup>>) {
  return
}
// CHECK: host-shared-memory.mlir:[[@LINE+1]]:1: error: 'func.func' op expects host code to use memrefs in the default memory space only (GPU memory spaces are for kernels in a gpu.module), got 'memref<4xf32, 3>' for result #0
func.func private @integer_space() -> memref<4xf32, 3>
func.func @body() {
  // CHECK: host-shared-memory.mlir:[[@LINE+1]]:8: error: 'memref.alloca' op expects host code to use memrefs in the default memory space only (GPU memory spaces are for kernels in a gpu.module), got 'memref<4xf32, #gpu.address_space<private>>' for result #0
  %m = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
  return
}
// The default space, also written as 0, is fine.
// CHECK-NOT: error
func.func @fine(%a: memref<4xf32>, %b: memref<4xf32, 0>) {
  return
}
gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
