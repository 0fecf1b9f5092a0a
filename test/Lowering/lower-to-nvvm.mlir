// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a" | FileCheck %s
// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_100a features=+ptx88 opt-level=1" | FileCheck %s --check-prefix=SM100

// pipeline-lower-to-nvvm: the gpu.module gets one #nvvm.target for the chip
// (replacing the one written here, keeping its flags), kernels become
// llvm.func with the bare-pointer ABI, the role state is in registers
// (no alloca left) and the kernel name is kept.

!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  // CHECK:      gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86", flags = {ftz}>]
  // SM100:      gpu.module @kernels [#nvvm.target<O = 1, chip = "sm_100a", features = "+ptx88", flags = {ftz}>]
  gpu.module @kernels [#nvvm.target<chip = "sm_80", flags = {ftz}>] {
    // CHECK:      llvm.func @producer(%{{.*}}: !llvm.ptr, %{{.*}}: i64) attributes {gpu.kernel, nvvm.kernel, pipeline.min_block_size = 32 : i64}
    // CHECK-NOT:  llvm.alloca
    // CHECK:      nvvm.mbarrier.init
    // CHECK:      nvvm.fence.mbarrier.init
    // CHECK:      nvvm.barrier0
    // CHECK:      llvm.inline_asm {{.*}}mbarrier.try_wait.parity.shared.b64
    // CHECK:      nvvm.mbarrier.arrive
    // CHECK-NOT:  llvm.alloca
    // CHECK:      llvm.return
    gpu.func @producer(%out: memref<4xi32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %p = pipeline.create -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      gpu.return
    }
  }
}
