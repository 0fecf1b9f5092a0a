// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// Scoped regions are inlined between the acquire and the exit: produce
// steps, consume arrives on empty then steps, consume_explicit steps.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @produce
  gpu.func @produce(%out: memref<2xindex>) kernel {
    %c0 = arith.constant 0 : index
    %p = pipeline.create -> !P
    // CHECK:      %[[S:.*]] = memref.load
    // CHECK:      arith.constant 2 : index
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[IDX]]]
    // CHECK-NEXT: memref.store %[[IDX]]
    // CHECK-NEXT: memref.load
    // CHECK:      arith.cmpi eq
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.produce %p as %s : !P {
      pipeline.arrive %s : !pipeline.stage<producer, !P>
      %i = pipeline.index %s : !pipeline.stage<producer, !P>
      memref.store %i, %out[%c0] : memref<2xindex>
    }
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consume
  gpu.func @consume(%out: memref<2xindex>) kernel {
    %c0 = arith.constant 0 : index
    %p = pipeline.create -> !P
    // CHECK:      %[[S:.*]] = memref.load
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: %[[V:.*]] = arith.addi %[[IDX]], %[[IDX]]
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[IDX]], %[[C2]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[E]]]
    // CHECK:      arith.cmpi eq
    // CHECK:      memref.store %[[V]]
    %v = pipeline.consume %p as %s : !P -> index {
      %i = pipeline.index %s : !pipeline.stage<consumer, !P>
      %d = arith.addi %i, %i : index
      pipeline.yield %d : index
    }
    memref.store %v, %out[%c0] : memref<2xindex>
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consume_explicit
  gpu.func @consume_explicit(%leader: i1) kernel {
    %p = pipeline.create -> !P
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK:      scf.if %{{.*}} {
    // CHECK:        nvgpu.mbarrier.arrive
    // CHECK-NEXT: }
    // CHECK-NEXT: memref.load
    // CHECK:      arith.cmpi eq
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.consume_explicit %p as %s : !P {
      scf.if %leader {
        pipeline.arrive %s : !pipeline.stage<consumer, !P>
      }
    }
    gpu.return
  }
}
