// RUN: pipeline-opt %s -pipeline-test-protocol-effects -verify-diagnostics -o /dev/null

// What each op declares in ODS (Pipeline_Effects, Pipeline_Requires and the
// structural traits, PipelineProtocol.h), the table the checkers,
// pipeline-unroll-stages and the lowering read. The producer waits on
// `empty` and signals `full`, the consumer waits on `full` and signals
// `empty` (the reference's ProducerConsumerPipeline); a handle op acts for
// the role of its stage. Chips: every op that waits on or signals an
// mbarrier needs sm_90 (try_wait.parity, expect_tx); the tcgen05.commit
// ops sm_100a.

!P = !pipeline.pipeline<stages = 4>
!P2 = !pipeline.pipeline<stages = 4, consumer_sub_stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
!A = memref<4x2x64x32xf16, #gpu.address_space<workgroup>>
!T = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [!A]>
!Prod = !pipeline.role<producer, !P2>
!Cons = !pipeline.role<consumer, !P2>

func.func @table(%smem: !Smem, %a: !A, %c0: index, %c1: index, %ready: i1) {
  // expected-remark @below {{role none, step none, wait none, signal none, chip none}}
  %p = pipeline.create in %smem[%c0] : !Smem -> !P
  // expected-remark @below {{role none, step none, wait none, signal none, chip none}}
  %q = pipeline.create -> !P2
  // expected-remark @below {{role none, step none, wait none, signal none, chip mbarrier-tx}}
  pipeline.init_mbars %p producer 1 consumer 1 : !P
  // expected-remark @below {{role none, step none, wait none, signal none, chip none, view}}
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !T
  // expected-remark @below {{role none, step none, wait none, signal none, chip none, view}}
  %prod = pipeline.role %q : !P2 -> !Prod
  // expected-remark @below {{role none, step none, wait none, signal none, chip none, view}}
  %cons = pipeline.role %q : !P2 -> !Cons

  // The direct API.
  // expected-remark @below {{role consumer, step reads, wait blocks, signal none, chip mbarrier-tx}}
  pipeline.wait_producer %p : !P
  // expected-remark @below {{role producer, step reads, wait blocks, signal none, chip mbarrier-tx}}
  pipeline.wait_consumer %p : !P
  // expected-remark @below {{role producer, step always, wait none, signal none, chip none}}
  pipeline.producer_step %p : !P
  // expected-remark @below {{role consumer, step always, wait none, signal none, chip none}}
  pipeline.consumer_step %p : !P
  // expected-remark @below {{role producer, step always, wait blocks, signal arrive, chip mbarrier-tx}}
  pipeline.producer_signal_and_step %p : !P
  // expected-remark @below {{role consumer, step always, wait blocks, signal arrive, chip mbarrier-tx}}
  pipeline.consumer_signal_and_step %p : !P
  // expected-remark @below {{role consumer, step reads, wait tries, signal none, chip mbarrier-tx}}
  %t0 = pipeline.try_wait_producer %p : !P
  // expected-remark @below {{role producer, step reads, wait tries, signal none, chip mbarrier-tx}}
  %t1 = pipeline.try_wait_consumer %p : !P
  // expected-remark @below {{role producer, step reads, wait tries, signal none, chip mbarrier-tx}}
  %t2 = pipeline.try_acquire_producer %p : !P
  // expected-remark @below {{role consumer, step reads, wait tries, signal none, chip mbarrier-tx}}
  %t3 = pipeline.try_acquire_consumer %p : !P
  // expected-remark @below {{role consumer, step reads, wait blocks, signal none, chip mbarrier-tx}}
  pipeline.wait_producer_if_needed %p, %ready : !P
  // expected-remark @below {{role producer, step reads, wait blocks, signal none, chip mbarrier-tx}}
  pipeline.wait_consumer_if_needed %p, %ready : !P
  // expected-remark @below {{role producer, step none, wait none, signal address, chip none}}
  %fb, %fi = pipeline.producer_mbar %p[%c1] : !P
  // expected-remark @below {{role consumer, step none, wait none, signal address, chip none}}
  %eb, %ei = pipeline.consumer_mbar %p[%c1] : !P
  // expected-remark @below {{role producer, step reads, wait none, signal none, chip none}}
  %ps = pipeline.producer_stage %p : !P
  // expected-remark @below {{role consumer, step reads, wait none, signal none, chip none}}
  %cs = pipeline.consumer_stage %p : !P

  // Handles.
  // expected-remark @below {{role producer, step at-acquire, wait blocks, signal none, chip mbarrier-tx, acquires a stage}}
  %s = pipeline.acquire_producer %p : !P
  // expected-remark @below {{role of-stage, step none, wait none, signal none, chip none}}
  %i = pipeline.index %s : !pipeline.stage<producer, !P>
  // expected-remark @below {{role of-stage, step none, wait none, signal address, chip none}}
  %mb, %mi = pipeline.mbar %s : !pipeline.stage<producer, !P>
  // expected-remark @below {{role of-stage, step none, wait none, signal arrive, chip mbarrier-tx}}
  pipeline.arrive %s : !pipeline.stage<producer, !P>
  // expected-remark @below {{role of-stage, step at-release, wait none, signal release, chip mbarrier-tx}}
  pipeline.release %s : !pipeline.stage<producer, !P>
  // expected-remark @below {{role producer, step at-acquire, wait blocks, signal none, chip mbarrier-tx, acquires a stage}}
  %ts = pipeline.acquire_producer %tp : !T
  // expected-remark @below {{role of-stage, step none, wait none, signal expect-tx, chip mbarrier-tx}}
  pipeline.expect_tx %ts : !pipeline.stage<producer, !T>
  // expected-remark @below {{role of-stage, step none, wait none, signal none, chip none}}
  %pay = pipeline.payload %ts[0] : !pipeline.stage<producer, !T> -> memref<2x64x32xf16, strided<[2048, 32, 1], offset: ?>, #gpu.address_space<workgroup>>
  // expected-remark @below {{role of-stage, step none, wait none, signal mma-commit, chip tcgen05}}
  pipeline.commit_mma %ts : !pipeline.stage<producer, !T>
  // expected-remark @below {{role of-stage, step at-release, wait none, signal none, chip none}}
  pipeline.step %ts : !pipeline.stage<producer, !T>
  // expected-remark @below {{role consumer, step at-acquire, wait blocks, signal none, chip mbarrier-tx, acquires a stage}}
  %c = pipeline.acquire_consumer %tp : !T
  // expected-remark @below {{role of-stage, step none, wait none, signal mma-commit, chip tcgen05}}
  pipeline.release_mma %c : !pipeline.stage<consumer, !T>
  // expected-remark @below {{role of-stage, step at-release, wait none, signal release, chip mbarrier-tx}}
  pipeline.release %c : !pipeline.stage<consumer, !T>
  // expected-remark @below {{role consumer, step at-acquire, wait blocks, signal none, chip mbarrier-tx, acquires a stage}}
  %c2 = pipeline.acquire_consumer %p : !P
  // expected-remark @below {{role of-stage, step at-release, wait none, signal none, chip none}}
  pipeline.release_without_signal %c2 : !pipeline.stage<consumer, !P>

  // Role pipelines.
  // expected-remark @below {{role producer, step at-acquire, wait blocks, signal none, chip mbarrier-tx, acquires a stage}}
  %rs = pipeline.acquire %prod : !Prod
  // expected-remark @below {{role of-stage, step always, wait none, signal commit, chip mbarrier-tx}}
  pipeline.commit %rs : !pipeline.stage<producer, !P2>
  // expected-remark @below {{role consumer, step at-acquire, wait blocks, signal none, chip mbarrier-tx, acquires a stage}}
  %w = pipeline.wait %cons : !Cons
  // expected-remark @below {{role of-stage, step none, wait none, signal arrive, chip mbarrier-tx}}
  pipeline.release_no_step %w sub_stage 1 : !pipeline.stage<consumer, !P2>
  // expected-remark @below {{role of-stage, step at-release, wait none, signal release, chip mbarrier-tx}}
  pipeline.release %w : !pipeline.stage<consumer, !P2>

  // Scoped regions: the stage is acquired on entry and released on exit;
  // only pipeline.consume's exit arrives. The implicit pipeline.yield (at
  // the region op's location) declares nothing.
  // expected-remark @below {{role producer, step always, wait blocks, signal none, chip mbarrier-tx, scoped stage}}
  // expected-remark @below {{role none, step none, wait none, signal none, chip none}}
  pipeline.produce %p as %x : !P {
    // expected-remark @below {{role of-stage, step none, wait none, signal arrive, chip mbarrier-tx}}
    pipeline.arrive %x : !pipeline.stage<producer, !P>
  }
  // expected-remark @below {{role consumer, step always, wait blocks, signal region-exit, chip mbarrier-tx, scoped stage}}
  // expected-remark @below {{role none, step none, wait none, signal none, chip none}}
  pipeline.consume %p as %y : !P {
  }
  // expected-remark @below {{role consumer, step always, wait blocks, signal none, chip mbarrier-tx, scoped stage}}
  // expected-remark @below {{role none, step none, wait none, signal none, chip none}}
  pipeline.consume_explicit %p as %z : !P {
    // expected-remark @below {{role of-stage, step none, wait none, signal arrive, chip mbarrier-tx}}
    pipeline.arrive %z : !pipeline.stage<consumer, !P>
  }
  // expected-remark @below {{role producer, step drain, wait blocks, signal none, chip mbarrier-tx}}
  pipeline.drain_producer %p : !P
  return
}

// The SM100 constructs: the TMA load (borrows a producer handle; its bytes
// are what expect_tx arms), the tensor-memory ops and the cluster launch
// control ops.
!In2 = !pipeline.pipeline<stages = 2>
!TP2 = !pipeline.tile_pipeline<pipeline = !In2, k_group_size = 1, payload = [memref<2x1x32x64xbf16, #gpu.address_space<workgroup>>]>
!Tiles2 = memref<1x32x64xbf16, strided<[2048, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!Tm = !pipeline.tmem<columns = 256, cta_group = 2>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [memref<2x1x16xi8, #gpu.address_space<workgroup>>]>
func.func @sm100(%smem: !Smem, %s: !pipeline.stage<producer, !TP2>, %dst: !Tiles2, %map: !llvm.ptr,
                 %cp: !pipeline.stage<producer, !CLC>, %cc: !pipeline.stage<consumer, !CLC>, %c0: index) {
  %k = arith.constant 0 : i32
  // expected-remark @below {{role of-stage, step none, wait none, signal none, chip mbarrier-tx}}
  pipeline.tma_load %s, %map[%k, %k] -> %dst : !pipeline.stage<producer, !TP2>, !llvm.ptr, !Tiles2
  // expected-remark @below {{role none, step none, wait none, signal none, chip none}}
  %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !Tm
  // expected-remark @below {{role none, step none, wait none, signal none, chip tcgen05}}
  %a = pipeline.tmem_alloc %t readers 128 : !Tm -> i32
  // expected-remark @below {{role none, step none, wait none, signal none, chip tcgen05}}
  pipeline.tmem_release %t : !Tm
  // expected-remark @below {{role none, step none, wait none, signal none, chip tcgen05}}
  pipeline.tmem_dealloc %t, %a : !Tm
  // expected-remark @below {{role of-stage, step none, wait none, signal expect-tx, chip cluster-launch-control}}
  pipeline.clc_try_cancel %cp : !pipeline.stage<producer, !CLC>
  // expected-remark @below {{role of-stage, step none, wait none, signal none, chip cluster-launch-control}}
  %ok, %x, %y, %z = pipeline.clc_response %cc : !pipeline.stage<consumer, !CLC>
  return
}
