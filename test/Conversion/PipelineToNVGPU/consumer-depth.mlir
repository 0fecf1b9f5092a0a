// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// consumer_depth = 2 (the wgmma release lag): the consumer's acquire waits on
// full(c) with the consumer phase and then steps (its read position moves
// on, so the next acquire waits on the next stage); the release arrives on
// empty(s) of the stage its handle names and does not step again. The state
// is the same two registers as with depth 1: no cost.

!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @lag
  gpu.func @lag() kernel {
    // Producer (stage, phase), then consumer (stage, phase).
    // CHECK:      memref.alloca() : memref<i32>
    // CHECK-NEXT: memref.alloca() : memref<i1>
    // CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.alloca() : memref<i1>
    %p = pipeline.create -> !P
    // First acquire: wait on full(c) = c with the consumer phase, keep c as
    // the handle's stage, then step.
    // CHECK:      %[[S0:.*]] = memref.load %[[CS]][]
    // CHECK-NEXT: %[[P0:.*]] = memref.load %[[CP]][]
    // CHECK-NEXT: %[[I0:.*]] = arith.index_castui %[[S0]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G:.*]][%[[I0]]], %[[P0]]
    // CHECK-NEXT: %[[H0:.*]] = arith.index_castui %[[S0]]
    // CHECK-NEXT: memref.load %[[CS]][]
    // CHECK-NEXT: memref.load %[[CP]][]
    // CHECK:      arith.addi
    // CHECK:      memref.store %{{.*}}, %[[CS]][]
    // CHECK-NEXT: memref.store %{{.*}}, %[[CP]][]
    %a = pipeline.acquire_consumer %p : !P
    // Second acquire: the stepped position.
    // CHECK:      %[[S1:.*]] = memref.load %[[CS]][]
    // CHECK-NEXT: %[[P1:.*]] = memref.load %[[CP]][]
    // CHECK-NEXT: %[[I1:.*]] = arith.index_castui %[[S1]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G]][%[[I1]]], %[[P1]]
    // CHECK:      memref.store %{{.*}}, %[[CS]][]
    %b = pipeline.acquire_consumer %p : !P
    // Release of the first: arrive on empty(H0) = H0 + 4, no step.
    // CHECK:      %[[C4:.*]] = arith.constant 4 : index
    // CHECK-NEXT: %[[E0:.*]] = arith.addi %[[H0]], %[[C4]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %[[G]][%[[E0]]]
    // CHECK-NOT:  memref.store
    // CHECK:      nvgpu.mbarrier.arrive
    // CHECK-NOT:  memref.store
    // CHECK:      gpu.return
    pipeline.release %a : !pipeline.stage<consumer, !P>
    pipeline.release %b : !pipeline.stage<consumer, !P>
    gpu.return
  }
}

// -----

// The producer of such a pipeline is unchanged: it steps at its release.
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @producer_unchanged
  gpu.func @producer_unchanged() kernel {
    %p = pipeline.create -> !P
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NOT:  memref.store
    // CHECK:      nvgpu.mbarrier.arrive
    // CHECK:      memref.store
    // CHECK-NEXT: memref.store
    // CHECK-NEXT: gpu.return
    %s = pipeline.acquire_producer %p : !P
    pipeline.arrive %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}
