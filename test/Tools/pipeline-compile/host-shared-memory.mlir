// A host function with a workgroup memref (which upstream's conversion only
// reports without failing) fails the compile, and nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not pipeline-compile %s --chip=sm_90a -o %t/out 2>&1 | FileCheck %s
// RUN: not ls %t/out.ptx

// CHECK: error: 'func.func' op expects host code to use no memref in a GPU address space
func.func @host(%a: memref<4xf16, #gpu.address_space<workgroup>>) {
  return
}
gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
