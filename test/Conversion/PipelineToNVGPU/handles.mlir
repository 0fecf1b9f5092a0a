// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// Stage handles on a 2-stage pipeline: full[s] = s, empty[s] = 2 + s. A
// handle is the stage index read at acquire time (plus the pipeline's
// barriers and state).

!P = !pipeline.pipeline<stages = 2>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @producer_handle
  gpu.func @producer_handle(%out: memref<2xindex>) kernel {
    %c0 = arith.constant 0 : index
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[PP:.*]] = memref.alloca() : memref<i1>
    %p = pipeline.create -> !P
    // acquire_producer: wait empty[stage] with the producer phase.
    // CHECK:      %[[S:.*]] = memref.load %[[PS]][]
    // CHECK-NEXT: %[[PH:.*]] = memref.load %[[PP]][]
    // CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[I]], %[[C2]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G:.*]][%[[E]]], %[[PH]]
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    %s = pipeline.acquire_producer %p : !P
    // index: the stage index of the handle.
    // CHECK:      memref.store %[[IDX]], %{{.*}}[%{{.*}}] : memref<2xindex>
    %i = pipeline.index %s : !pipeline.stage<producer, !P>
    memref.store %i, %out[%c0] : memref<2xindex>
    // mbar of a producer handle: full[stage].
    // CHECK:      nvgpu.mbarrier.get %[[G]][%[[IDX]]]
    %b, %id = pipeline.mbar %s : !pipeline.stage<producer, !P>
    %a = nvgpu.mbarrier.get %b[%id] : !G -> i64
    // arrive of a producer handle: full[stage].
    // CHECK:      nvgpu.mbarrier.arrive %[[G]][%[[IDX]]]
    pipeline.arrive %s : !pipeline.stage<producer, !P>
    // expect_tx with explicit bytes: arrive.expect_tx on full[stage].
    // CHECK:      nvgpu.mbarrier.arrive.expect_tx %[[G]][%[[IDX]]], %[[BYTES:.*]] :
    %n = arith.constant 512 : index
    pipeline.expect_tx %s bytes(%n) : !pipeline.stage<producer, !P>
    // release of a producer handle: step only, no arrive.
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      memref.load %[[PS]][]
    // CHECK:      arith.cmpi eq
    // CHECK:      memref.store %{{.*}}, %[[PS]][]
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consumer_handle
  gpu.func @consumer_handle(%out: memref<1xi64>) kernel {
    %c0 = arith.constant 0 : index
    // CHECK-NEXT: memref.alloca() : memref<i32>
    // CHECK-NEXT: memref.alloca() : memref<i1>
    // CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.alloca() : memref<i1>
    %p = pipeline.create -> !P
    // acquire_consumer: wait full[stage] with the consumer phase.
    // CHECK:      %[[S:.*]] = memref.load %[[CS]][]
    // CHECK-NEXT: %[[PH:.*]] = memref.load %[[CP]][]
    // CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[S]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G:.*]][%[[I]]], %[[PH]]
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    %s = pipeline.acquire_consumer %p : !P
    // mbar of a consumer handle, sub-stage 1: empty(s, 1) = 2 + 2 s + 1.
    // CHECK:      %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[M:.*]] = arith.muli %[[IDX]], %[[C2]]
    // CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
    // CHECK-NEXT: %[[E1:.*]] = arith.addi %[[M]], %[[C3]]
    // CHECK-NEXT: nvgpu.mbarrier.get %[[G]][%[[E1]]]
    %b, %id = pipeline.mbar %s sub_stage 1 : !pipeline.stage<consumer, !P>
    %a = nvgpu.mbarrier.get %b[%id] : !G -> i64
    memref.store %a, %out[%c0] : memref<1xi64>
    // release sub_stage 1: arrive on empty(s, 1), then step the consumer.
    // CHECK:      %[[M2:.*]] = arith.muli %[[IDX]]
    // CHECK-NEXT: %[[C3B:.*]] = arith.constant 3 : index
    // CHECK-NEXT: %[[E2:.*]] = arith.addi %[[M2]], %[[C3B]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %[[G]][%[[E2]]]
    // CHECK-NEXT: memref.load %[[CS]][]
    // CHECK:      memref.store %{{.*}}, %[[CS]][]
    // CHECK-NEXT: memref.store %{{.*}}, %[[CP]][]
    pipeline.release %s sub_stage 1 : !pipeline.stage<consumer, !P>
    gpu.return
  }
}

// -----

// acquire ready(%r): the wait only runs when %r is false.
// release_without_signal: step only.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @ready_and_without_signal
  gpu.func @ready_and_without_signal() kernel {
    %p = pipeline.create -> !P
    // CHECK:      %[[R:.*]] = nvvm.mbarrier.try_wait
    %r = pipeline.try_wait_producer %p : !P
    // CHECK:      %[[S:.*]] = memref.load
    // CHECK-NEXT: %[[PH:.*]] = memref.load
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: %[[TRUE:.*]] = arith.constant true
    // CHECK-NEXT: %[[NOT:.*]] = arith.xori %[[R]], %[[TRUE]]
    // CHECK-NEXT: scf.if %[[NOT]] {
    // CHECK-NEXT:   arith.constant 10000000
    // CHECK-NEXT:   nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[IDX]]], %[[PH]]
    // CHECK-NEXT: }
    %s = pipeline.acquire_consumer %p ready(%r) : !P
    // The explicit arrive, then release_without_signal only steps.
    // CHECK:      nvgpu.mbarrier.arrive
    pipeline.arrive %s : !pipeline.stage<consumer, !P>
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      arith.cmpi eq
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
    gpu.return
  }
}

// -----

// Tile pipeline: expect_tx defaults to the bytes of one stage (k_group_size
// tiles of every payload array) times cta_group; payload is the stage's
// subview.

!P = !pipeline.pipeline<stages = 3>
!a = memref<3x2x64x32xf16, #gpu.address_space<workgroup>>
!b = memref<3x2x32x16xf32, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [!a, !b]>
!tiles = memref<2x32x16xf32, strided<[512, 16, 1], offset: ?>, #gpu.address_space<workgroup>>
gpu.module @m {
  // CHECK-LABEL: gpu.func @tile_pipeline
  gpu.func @tile_pipeline(%out: memref<1xf32>) workgroup(%ta : !a, %tb : !b) kernel {
    %c0 = arith.constant 0 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%ta, %tb : !a, !b) : !P -> !TP
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui
    %s = pipeline.acquire_producer %tp : !TP
    // 2 * 64 * 32 * 2 bytes + 2 * 32 * 16 * 4 bytes = 8192 + 4096.
    // CHECK:      %[[BYTES:.*]] = arith.constant 12288 : index
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%[[IDX]]], %[[BYTES]]
    pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
    // CHECK:      memref.subview %{{.*}}[%[[IDX]], 0, 0, 0] [1, 2, 32, 16] [1, 1, 1, 1] : memref<3x2x32x16xf32, #gpu.address_space<workgroup>> to memref<2x32x16xf32, strided<[512, 16, 1], offset: ?>, #gpu.address_space<workgroup>>
    %t = pipeline.payload %s[1] : !pipeline.stage<producer, !TP> -> !tiles
    %v = memref.load %t[%c0, %c0, %c0] : !tiles
    memref.store %v, %out[%c0] : memref<1xf32>
    pipeline.release %s : !pipeline.stage<producer, !TP>
    gpu.return
  }
}
