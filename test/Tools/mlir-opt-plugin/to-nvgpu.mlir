// convert-pipeline-to-nvgpu and the named pipeline pipeline-lower-to-nvvm
// run in upstream mlir-opt from the plugin.
// UNSUPPORTED: sanitizer
// RUN: mlir-opt %s --load-dialect-plugin=%pipeline_plugin \
// RUN:   --load-pass-plugin=%pipeline_plugin \
// RUN:   --pass-pipeline='builtin.module(convert-pipeline-to-nvgpu)' \
// RUN:   | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%pipeline_plugin \
// RUN:   --load-pass-plugin=%pipeline_plugin \
// RUN:   --pass-pipeline='builtin.module(pipeline-lower-to-nvvm{chip=sm_90a})' \
// RUN:   | FileCheck %s --check-prefix=NVVM

!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>
module attributes {gpu.container_module} {
  // NVVM: gpu.module @kernels [#nvvm.target<O = 3, chip = "sm_90a"
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @copy
    // CHECK-NOT:   pipeline.
    // CHECK:       nvgpu.mbarrier.create
    // CHECK:       nvgpu.mbarrier.init
    // CHECK:       nvgpu.mbarrier.try_wait.parity
    // CHECK:       nvgpu.mbarrier.arrive
    // NVVM:        llvm.func @copy
    // NVVM:        nvvm.mbarrier.init
    gpu.func @copy(%out: memref<4xi32>, %n: index) kernel attributes {known_block_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %p = pipeline.create -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !PS
        pipeline.release %s : !PS
        %c = pipeline.acquire_consumer %p : !P
        pipeline.release %c : !CS
      }
      gpu.return
    }
  }
}
