// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// The role API on S = 2, P = 2, C = 2: full(s, j) = 2 s + j,
// empty(s, j) = 4 + 2 s + j.

!P = !pipeline.pipeline<stages = 2, producer_sub_stages = 2, consumer_sub_stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @producer_role
  gpu.func @producer_role() kernel {
    %p = pipeline.create -> !P
    %prod = pipeline.role %p : !P -> !pipeline.role<producer, !P>
    // acquire sub_stage 1: wait empty(s, 1) = 2 s + 5 with the producer phase.
    // CHECK:      %[[S:.*]] = memref.load
    // CHECK-NEXT: %[[PH:.*]] = memref.load
    // CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[M:.*]] = arith.muli %[[I]], %[[C2]]
    // CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[M]], %[[C5]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G:.*]][%[[E]]], %[[PH]]
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    %s = pipeline.acquire %prod sub_stage 1 : !pipeline.role<producer, !P>
    // commit: one arrival on full(s, 0) only (the reference RolePipeline.commit
    // arrives on producer_mbar(), sub-stage 0), then step: no arrival on
    // full(s, 1), which another producer signals by hand.
    // CHECK:      %[[F0:.*]] = arith.muli %[[IDX]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %[[G]][%[[F0]]]
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      memref.load
    // CHECK:      arith.cmpi eq
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.commit %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2, producer_sub_stages = 2, consumer_sub_stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consumer_role
  gpu.func @consumer_role() kernel {
    %p = pipeline.create -> !P
    %cons = pipeline.role %p : !P -> !pipeline.role<consumer, !P>
    // wait: full(s, 0) = 2 s with the consumer phase.
    // CHECK:      %[[S:.*]] = memref.load
    // CHECK-NEXT: %[[PH:.*]] = memref.load
    // CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[F:.*]] = arith.muli %[[I]], %[[C2]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G:.*]][%[[F]]], %[[PH]]
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    %s = pipeline.wait %cons : !pipeline.role<consumer, !P>
    // release_no_step 0 and 1: arrive on empty(s, 0) and empty(s, 1), no step.
    // CHECK:      arith.muli %[[IDX]]
    // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
    // CHECK-NEXT: %[[E0:.*]] = arith.addi %{{.*}}, %[[C4]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %[[G]][%[[E0]]]
    // CHECK-NEXT: arith.constant 2 : index
    // CHECK-NEXT: arith.muli %[[IDX]]
    // CHECK-NEXT: %[[C5:.*]] = arith.constant 5 : index
    // CHECK-NEXT: %[[E1:.*]] = arith.addi %{{.*}}, %[[C5]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %[[G]][%[[E1]]]
    // step: no further arrive.
    // CHECK-NEXT: memref.load
    // CHECK:      arith.cmpi eq
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.release_no_step %s sub_stage 0 : !pipeline.stage<consumer, !P>
    pipeline.release_no_step %s sub_stage 1 : !pipeline.stage<consumer, !P>
    pipeline.step %s : !pipeline.stage<consumer, !P>
    gpu.return
  }
}
