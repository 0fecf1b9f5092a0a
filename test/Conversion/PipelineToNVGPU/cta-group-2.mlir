// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// cta_group = 2 on a plain pipeline (the accumulator pipeline, CUTLASS
// PipelineUmmaAsync, Mojo umma_arrive_leader_cta): every consumer arrival on
// an `empty` barrier goes to the same barrier in the leader CTA of the pair
// (%cluster_ctarank & ~1): mapa to the shared::cluster address, then a
// CTA-scope arrive on it. A thread's producer arrival goes to the leader
// too, on its FULL barrier: the pair's MMA in the leader consumes (CUTLASS
// PipelineUmmaConsumerAsync::producer_commit_2x1SM -> umma_arrive_2x1SM_sm0);
// arriving locally left the leader's MMA not waiting for the peer's half.

!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consumer_arrivals
  gpu.func @consumer_arrivals() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_consumer %p : !P
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[IDX]], %[[C2]]
    // CHECK-NEXT: %[[A:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[E]]] {{.*}} -> i64
    // CHECK-NEXT: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<3>
    // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT: %[[MASK:.*]] = arith.constant -2 : i32
    // CHECK-NEXT: %[[LEADER:.*]] = arith.andi %[[RANK]], %[[MASK]] : i32
    // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[PTR]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] : !llvm.ptr<7>
    pipeline.arrive %s : !pipeline.stage<consumer, !P>
    // release / release_no_step / consume exit / consumer_signal_and_step
    // arrive the same way.
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
    pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
    %s2 = pipeline.acquire_consumer %p : !P
    pipeline.release %s2 : !pipeline.stage<consumer, !P>
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
    pipeline.consume %p as %t : !P {
    }
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
    pipeline.consumer_signal_and_step %p : !P
    %cons = pipeline.role %p : !P -> !pipeline.role<consumer, !P>
    %w = pipeline.wait %cons : !pipeline.role<consumer, !P>
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<7>
    pipeline.release_no_step %w : !pipeline.stage<consumer, !P>
    pipeline.step %w : !pipeline.stage<consumer, !P>
    // The producer's arrival: full barrier `stage` (no +2: not an empty
    // one), mapped to the leader, never a local arrive.
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[FIDX:.*]] = arith.index_castui %[[PSTAGE:.*]] : i32 to index
    // CHECK-NEXT: %[[FA:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[FIDX]]] {{.*}} -> i64
    // CHECK-NEXT: %[[FPTR:.*]] = llvm.inttoptr %[[FA]] : i64 to !llvm.ptr<3>
    // CHECK-NEXT: %[[FRANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT: %[[FMASK:.*]] = arith.constant -2 : i32
    // CHECK-NEXT: %[[FLEAD:.*]] = arith.andi %[[FRANK]], %[[FMASK]] : i32
    // CHECK-NEXT: %[[FREM:.*]] = nvvm.mapa %[[FPTR]], %[[FLEAD]] : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NEXT: nvvm.mbarrier.arrive %[[FREM]] : !llvm.ptr<7>
    // CHECK-NOT:  nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    %ps = pipeline.acquire_producer %p : !P
    pipeline.arrive %ps : !pipeline.stage<producer, !P>
    pipeline.release %ps : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

// A cta_group = 2 TILE pipeline is the input pipeline of a 2-SM MMA: each
// CTA's TMA producer waits on its own empty barrier, so a consumer arrival
// reaches the empty barrier in both CTAs of the pair: ranks
// (%cluster_ctarank & -2) and (%cluster_ctarank & -2) | 1. The lanes that
// arrive together spread the targets (CUTLASS spreads a warpgroup's
// arrivals over its lanes): the active lanes that name the same barrier
// (match.any.sync on its address: lanes of one warp may run the release of
// different stages converged) synchronize with bar.warp.sync, and the lane
// of rank k % n among those n arrives on CTA k with count = n, so each CTA
// still gets one arrival per executing thread, on the right stage. The tile
// consumer's release and the consume exit only step.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m {
  // CHECK-LABEL: gpu.func @tile_pair_arrivals
  gpu.func @tile_pair_arrivals(%buf: memref<2x1x8xf32, #WG>) kernel {
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    %s = pipeline.acquire_consumer %tp : !TP
    // CHECK:      %[[PTR:.*]] = llvm.inttoptr
    // CHECK-NEXT: %[[ACTIVEMASK:.*]] = llvm.call_intrinsic "llvm.nvvm.activemask"() : () -> i32
    // CHECK-NEXT: %[[ADDR:.*]] = llvm.ptrtoint %[[PTR]] : !llvm.ptr<3> to i64
    // CHECK-NEXT: %[[MASK:.*]] = nvvm.match.sync any %[[ACTIVEMASK]], %[[ADDR]] : i64 -> i32
    // CHECK-NEXT: nvvm.bar.warp.sync %[[MASK]] : i32
    // CHECK-NEXT: %[[ACTIVE:.*]] = llvm.intr.ctpop(%[[MASK]])
    // CHECK-NEXT: %[[LT:.*]] = nvvm.read.ptx.sreg.lanemask.lt : i32
    // CHECK-NEXT: %[[BELOW:.*]] = arith.andi %[[MASK]], %[[LT]] : i32
    // CHECK-NEXT: %[[LANE:.*]] = llvm.intr.ctpop(%[[BELOW]])
    // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT: %[[M2:.*]] = arith.constant -2 : i32
    // CHECK-NEXT: %[[BASE:.*]] = arith.andi %[[RANK]], %[[M2]] : i32
    // CHECK-NEXT: %[[K0:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[J0:.*]] = arith.remui %[[K0]], %[[ACTIVE]] : i32
    // CHECK-NEXT: %[[MINE0:.*]] = arith.cmpi eq, %[[J0]], %[[LANE]] : i32
    // CHECK-NEXT: scf.if %[[MINE0]] {
    // CHECK-NEXT:   %[[R0:.*]] = nvvm.mapa %[[PTR]], %[[BASE]]
    // CHECK-NEXT:   nvvm.mbarrier.arrive %[[R0]], %[[ACTIVE]]
    // CHECK-NEXT: }
    // CHECK-NEXT: %[[K1:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[J1:.*]] = arith.remui %[[K1]], %[[ACTIVE]] : i32
    // CHECK-NEXT: %[[MINE1:.*]] = arith.cmpi eq, %[[J1]], %[[LANE]] : i32
    // CHECK-NEXT: scf.if %[[MINE1]] {
    // CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
    // CHECK-NEXT:   %[[PEER:.*]] = arith.ori %[[BASE]], %[[ONE]] : i32
    // CHECK-NEXT:   %[[R1:.*]] = nvvm.mapa %[[PTR]], %[[PEER]]
    // CHECK-NEXT:   nvvm.mbarrier.arrive %[[R1]], %[[ACTIVE]]
    // CHECK-NEXT: }
    pipeline.arrive %s : !pipeline.stage<consumer, !TP>
    // The release steps only: no arrival before the next wait.
    // CHECK-NOT:  mbarrier.arrive
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    pipeline.release %s : !pipeline.stage<consumer, !TP>
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive
    // CHECK-NOT:  mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.consume %tp as %t : !TP {
      pipeline.arrive %t : !pipeline.stage<consumer, !TP>
    }
    gpu.return
  }
}

// -----

// release_mma: the elected thread's tcgen05.commit on empty(stage, 0). With
// cta_group = 2 it is multicast to both CTAs of the pair (mask 3 << the
// pair's first rank) on a tile pipeline and on a plain one alike: the MMA
// runs in the leader only, and both CTAs' producers wait for it.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: gpu.func @release_mma_pair
  gpu.func @release_mma_pair(%buf: memref<2x1x8xf32, #WG>) kernel {
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    %s = pipeline.acquire_consumer %tp : !TP
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[IDX]], %[[C2]]
    // CHECK-NEXT: %[[EL:.*]] = nvvm.elect.sync -> i1
    // CHECK-NEXT: scf.if %[[EL]] {
    // CHECK-NEXT:   %[[A:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[E]]]
    // CHECK-NEXT:   %[[PTR:.*]] = llvm.inttoptr %[[A]]
    // CHECK-NEXT:   %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
    // CHECK-NEXT:   %[[M2:.*]] = arith.constant -2 : i32
    // CHECK-NEXT:   %[[BASE:.*]] = arith.andi %[[RANK]], %[[M2]]
    // CHECK-NEXT:   %[[B16:.*]] = arith.trunci %[[BASE]] : i32 to i16
    // CHECK-NEXT:   %[[THREE:.*]] = arith.constant 3 : i16
    // CHECK-NEXT:   %[[MASK:.*]] = arith.shli %[[THREE]], %[[B16]] : i16
    // CHECK-NEXT:   nvvm.tcgen05.commit %[[PTR]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>}
    pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
    // CHECK:      }
    // CHECK-NOT:  mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.release %s : !pipeline.stage<consumer, !TP>
    gpu.return
  }
}

// -----

// expect_tx of a pair: only the leader CTA ((%cluster_ctarank & 1) == 0)
// arms its full barrier, for both CTAs' bytes (2 x 32 bytes).

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m {
  // CHECK-LABEL: gpu.func @pair_expect_tx
  gpu.func @pair_expect_tx(%buf: memref<2x1x8xf32, #WG>) kernel {
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    %s = pipeline.acquire_producer %tp : !TP
    // CHECK:      %[[BYTES:.*]] = arith.constant 64 : index
    // CHECK:      %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank
    // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[ODD:.*]] = arith.andi %[[RANK]], %[[ONE]]
    // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[LEAD:.*]] = arith.cmpi eq, %[[ODD]], %[[ZERO]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]], predicate = %[[LEAD]]
    pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
    pipeline.release %s : !pipeline.stage<producer, !TP>
    gpu.return
  }
}

// -----

// release_ctas = 4 (Hopper cluster multicast): a consumer arrival reaches
// the empty barrier in each CTA of the aligned group of 4: ranks base,
// base | 1, base | 2, base | 3 with base = %cluster_ctarank & -4, spread
// over the lanes that arrive together (count = active lanes). Producer
// arrivals stay local.

!P = !pipeline.pipeline<stages = 2, release_ctas = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @release_group
  gpu.func @release_group() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_consumer %p : !P
    // CHECK:      %[[ACTIVE:.*]] = llvm.intr.ctpop
    // CHECK:      %[[LANE:.*]] = llvm.intr.ctpop
    // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT: %[[M4:.*]] = arith.constant -4 : i32
    // CHECK-NEXT: %[[BASE:.*]] = arith.andi %[[RANK]], %[[M4]] : i32
    // CHECK:      arith.remui %{{.*}}, %[[ACTIVE]]
    // CHECK:      nvvm.mapa %{{.*}}, %[[BASE]]
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}}, %[[ACTIVE]]
    // CHECK:      %[[C1:.*]] = arith.constant 1 : i32
    // CHECK:      %[[R1:.*]] = arith.ori %[[BASE]], %{{.*}}
    // CHECK-NEXT: nvvm.mapa %{{.*}}, %[[R1]]
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}}, %[[ACTIVE]]
    // CHECK:      %[[R2:.*]] = arith.ori %[[BASE]], %{{.*}}
    // CHECK-NEXT: nvvm.mapa %{{.*}}, %[[R2]]
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}}, %[[ACTIVE]]
    // CHECK:      %[[R3:.*]] = arith.ori %[[BASE]], %{{.*}}
    // CHECK-NEXT: nvvm.mapa %{{.*}}, %[[R3]]
    // CHECK-NEXT: nvvm.mbarrier.arrive %{{.*}}, %[[ACTIVE]]
    // CHECK-NOT:  nvvm.mapa
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    pipeline.release %s : !pipeline.stage<consumer, !P>
    // CHECK-NOT:  nvvm.mapa
    // CHECK:      nvgpu.mbarrier.arrive
    // CHECK-NOT:  nvvm.mapa
    // CHECK:      gpu.return
    %t = pipeline.acquire_producer %p : !P
    pipeline.arrive %t : !pipeline.stage<producer, !P>
    pipeline.release %t : !pipeline.stage<producer, !P>
    gpu.return
  }
}
