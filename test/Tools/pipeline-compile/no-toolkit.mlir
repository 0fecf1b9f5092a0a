// PTX needs no CUDA toolkit: LLVM's NVPTX backend writes it. Only a kernel
// that calls libdevice (math.exp becomes __nv_expf) needs the toolkit's
// nvvm/libdevice/libdevice.10.bc, and without it the error names the call
// and the file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT pipeline-compile %s --chip=sm_90a --emit=ptx --cuda-path=%t/none -o %t/k.ptx
// RUN: FileCheck %s --input-file=%t/k.ptx
// CHECK: .entry plain(
// The same through the pass pipeline.
// RUN: env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT pipeline-opt %s -pipeline-lower-to-binary="chip=sm_100a format=isa cuda-path=%t/none" | FileCheck %s --check-prefix=BINARY
// BINARY: gpu.binary @m
// BINARY-SAME: .entry plain(

// RUN: env -u CUDA_HOME -u CUDA_PATH -u CUDA_ROOT not pipeline-compile %S/Inputs/libdevice-call.mlir --chip=sm_90a --emit=ptx --cuda-path=%t/none -o %t/math.ptx 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: libdevice-call.mlir:7:10: error: calls __nv_expf of libdevice, which needs the CUDA toolkit's {{.*}}none/nvvm/libdevice/libdevice.10.bc (toolkit from cuda-path): no such file; pass the toolkit with --cuda-path, CUDA_HOME or CUDA_PATH
// RUN: not test -e %t/math.ptx

// With the toolkit, libdevice is linked in: no call to __nv_expf is left.
// RUN: %if ptxas %{ pipeline-compile %S/Inputs/libdevice-call.mlir --chip=sm_90a --emit=ptx --cuda-path=%cuda_path -o %t/linked.ptx %}
// RUN: %if ptxas %{ FileCheck %s --check-prefix=LINKED --input-file=%t/linked.ptx %}
// LINKED: .entry k(
// LINKED-NOT: __nv_expf

module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @plain(%o: memref<4xf32>) kernel {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    memref.store %one, %o[%c0] : memref<4xf32>
    gpu.return
  }
}
}
