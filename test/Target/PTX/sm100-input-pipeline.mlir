// REQUIRES: ptxas
// The rolled lowering (--unroll-stages=false), so that the checks below see
// one copy of each loop body (unroll-stages.mlir checks the default,
// stage-unrolled form).
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: test -s %t.cubin
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a 2>&1 | FileCheck %s --check-prefix=SM90

// The SM100 input (TMA -> MMA) and accumulator (MMA -> epilogue) pipelines
// against the reference's source. What each kernel's PTX must show:
//
// - The input pipeline's consumer is the MMA: it frees a stage with
//   tcgen05.commit on the stage's empty barrier (CUTLASS
//   PipelineTmaUmmaAsync::consumer_release: umma_arrive, or with a 2-SM MMA
//   umma_arrive_multicast_2x1SM to both CTAs of the pair), and its release
//   only steps (Mojo InputConsumerStage.release / ConsumerTiles.__exit__ =
//   consumer_step): no mbarrier.arrive on an empty barrier, or each phase of
//   the count-1 barrier would get two arrivals and the TMA would overwrite
//   tiles the MMA still reads.
// - With cta_group = 2 every consumer signal of the input pipeline reaches
//   BOTH CTAs of the pair: each CTA's TMA producer waits on its own empty
//   barrier, and only the leader's MMA releases.
// - The accumulator pipeline with cta_group = 2: the MMA's commit reaches
//   both CTAs' full barriers (PipelineUmmaAsync::producer_commit, multicast),
//   the epilogues of both CTAs arrive on the LEADER's empty barrier
//   (consumer_release_2x1SM = umma_arrive_2x1SM_sm0, Mojo
//   umma_arrive_leader_cta).
// - expect_tx of a pair is armed by the leader only, for both CTAs' bytes
//   (CUTLASS arms when is_leader).
// - RolePipeline.commit arrives on producer_mbar() (sub-stage 0) only.
// - drain_producer waits `stages` times on empty(stage, 0) only
//   (InputTilePipeline.drain_producer: wait_consumer + producer_step).
//
// Barrier layout: full(s, j) at 8 * (s * P + j), empty(s, j) at
// 8 * (S * P + s * C + j) bytes from the barrier array.

// sm_90a has no CTA pair: every cta_group = 2 pipeline is a diagnostic.
// SM90: error: 'pipeline.create' op expects cta_group = 1 on sm_90a, which has no CTA-pair (tcgen05 cta_group::2) MMA

#WG = #gpu.address_space<workgroup>
!P1 = !pipeline.pipeline<stages = 2>
!P2 = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP1 = !pipeline.tile_pipeline<pipeline = !P1, k_group_size = 2, payload = [memref<2x2x64x64xbf16, #WG>]>
!TP2 = !pipeline.tile_pipeline<pipeline = !P2, k_group_size = 2, payload = [memref<2x2x64x64xbf16, #WG>]>
!R = !pipeline.pipeline<stages = 2, producer_sub_stages = 2>
!D = !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>
module attributes {gpu.container_module} {
gpu.module @sm100 {
  gpu.func @pair_mma_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x2x64x64xbf16, #WG>
    %p = pipeline.create -> !P2
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x2x64x64xbf16, #WG>) : !P2 -> !TP2
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP2
    // The consumer (the pair's MMA) runs in the leader CTA only: the
    // pair's TMA and expect_tx complete the leader's full barrier.
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %r1 = arith.constant 1 : i32
    %r0 = arith.constant 0 : i32
    %odd = arith.andi %rank, %r1 : i32
    %in_leader = arith.cmpi eq, %odd, %r0 : i32
    scf.if %in_leader {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP2
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP2>
        pipeline.release %s : !pipeline.stage<consumer, !TP2>
      }
    }
    gpu.return
  }
  gpu.func @pair_thread_arrive(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x2x64x64xbf16, #WG>
    %p = pipeline.create -> !P2
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x2x64x64xbf16, #WG>) : !P2 -> !TP2
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP2
    // The consumer (the pair's MMA) runs in the leader CTA only: the
    // pair's TMA and expect_tx complete the leader's full barrier.
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %r1 = arith.constant 1 : i32
    %r0 = arith.constant 0 : i32
    %odd = arith.andi %rank, %r1 : i32
    %in_leader = arith.cmpi eq, %odd, %r0 : i32
    scf.if %in_leader {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %tp as %s : !TP2 {
          pipeline.arrive %s : !pipeline.stage<consumer, !TP2>
        }
      }
    }
    gpu.return
  }
  gpu.func @one_cta_mma_release(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x2x64x64xbf16, #WG>
    %p = pipeline.create -> !P1
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x2x64x64xbf16, #WG>) : !P1 -> !TP1
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP1
    scf.for %i = %c0 to %n step %c1 {
      pipeline.consume %tp as %s : !TP1 {
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP1>
      }
    }
    gpu.return
  }
  gpu.func @pair_expect_tx(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = memref.alloca() : memref<2x2x64x64xbf16, #WG>
    %p = pipeline.create -> !P2
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x2x64x64xbf16, #WG>) : !P2 -> !TP2
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP2
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP2
      pipeline.expect_tx %s : !pipeline.stage<producer, !TP2>
      pipeline.release %s : !pipeline.stage<producer, !TP2>
    }
    pipeline.drain_producer %tp : !TP2
    gpu.return
  }
  gpu.func @role_commit(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !R
    pipeline.init_mbars %p producer 1 consumer 1 : !R
    %prod = pipeline.role %p : !R -> !pipeline.role<producer, !R>
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire %prod : !pipeline.role<producer, !R>
      pipeline.commit %s : !pipeline.stage<producer, !R>
    }
    gpu.return
  }
  gpu.func @drain_sub_stages() kernel {
    %p = pipeline.create -> !D
    pipeline.init_mbars %p producer 1 consumer 1 : !D
    pipeline.drain_producer %p : !D
    gpu.return
  }
  gpu.func @accumulator_pair(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %is_mma = arith.cmpi eq, %warp, %c0 : index
    %acc = pipeline.create -> !P2
    pipeline.init_mbars %acc producer 1 consumer 256 cluster : !P2
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    scf.if %is_mma {
      // The leader's MMA warp produces: the epilogues' arrivals reach the
      // leader's empty barriers only.
      scf.if %leader {
        scf.for %i = %c0 to %n step %c1 {
          %a = pipeline.acquire_producer %acc : !P2
          pipeline.commit_mma %a : !pipeline.stage<producer, !P2>
          pipeline.release %a : !pipeline.stage<producer, !P2>
        }
        // The pair's epilogues arrive here remotely: no exit before they
        // did (pipeline-verify-protocol, drain at exit).
        pipeline.drain_producer %acc : !P2
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %acc as %e : !P2 {
        }
      }
    }
    gpu.return
  }
}
}

// 1. MMA release of a cta_group = 2 input stage: one commit, multicast to
//    both CTAs of the pair (mask 0b11 << (ctarank & ~1)), on the empty
//    barrier of the stage the consumer waited on (full + 16 bytes: S = 2,
//    P = C = 1). Empty barriers count 1: one commit per CTA per phase.
// CHECK-LABEL: .entry pair_mma_release(
// CHECK:       mbarrier.init.shared.b64 [__mbarrier+16], [[ONE:%r[0-9]+]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+24], [[ONE]];
// CHECK:       barrier.cluster.arrive.relaxed;
// CHECK-NOT:   mbarrier
// CHECK:       barrier.cluster.wait;
// The MMA runs in the leader only (rank & 1 == 0), so LLVM may fold the
// & ~1 of the leader rank into the truncation to 16 bits (65535).
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK:       and.b32 [[LEADER:%r[0-9]+]], [[RANK]], {{65534|65535}};
// CHECK-NEXT:  mov.b16 [[PAIR:%rs[0-9]+]], 3;
// CHECK-NEXT:  shl.b16 [[MASK:%rs[0-9]+]], [[PAIR]], [[LEADER]];
// CHECK:       add.s64 [[FULL:%rd[0-9]+]], %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK:       mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}]
// CHECK:       elect.sync
// CHECK:       add.s64 [[EMPTY:%rd[0-9]+]], [[FULL]], 16;
// CHECK-NEXT:  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [[[EMPTY]]], [[MASK]];
// CHECK-NOT:   mbarrier.arrive
// CHECK:       ret;

// 2. A thread arrival of a cta_group = 2 input stage reaches the empty
//    barrier in both CTAs of the pair (ranks ctarank & ~1 and ctarank | 1;
//    the consumer runs in the leader, so LLVM folds ctarank & ~1 to
//    ctarank), and the consume exit adds no arrival of its own.
// CHECK-LABEL: .entry pair_thread_arrive(
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-DAG:   or.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
//    The lanes that arrive together on the same barrier (activemask,
//    match.any.sync on the barrier's address, bar.warp.sync) spread the
//    two CTAs: one arrival each, with count = those lanes (popc).
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK:       add.s64 [[EMPTY:%rd[0-9]+]], %rd{{[0-9]+}}, 16;
// CHECK-NEXT:  activemask.b32 [[ACTIVEMASK:%r[0-9]+]];
// CHECK-NEXT:  match.any.sync.b64 [[MASK:%r[0-9]+]], [[EMPTY]], [[ACTIVEMASK]];
// CHECK-NEXT:  bar.warp.sync [[MASK]];
// CHECK-NEXT:  popc.b32 [[ACTIVE:%r[0-9]+]], [[MASK]];
// CHECK:       mapa.shared::cluster.u64 [[R0:%rd[0-9]+]], [[EMPTY]], [[RANK]];
// CHECK-NEXT:  mbarrier.arrive.shared::cluster.b64 _, [[[R0]]], [[ACTIVE]];
// CHECK:       mapa.shared::cluster.u64 [[R1:%rd[0-9]+]], [[EMPTY]], [[ODD]];
// CHECK-NEXT:  mbarrier.arrive.shared::cluster.b64 _, [[[R1]]], [[ACTIVE]];
// CHECK-NOT:   mbarrier.arrive
// CHECK:       ret;

// 3. One CTA: the MMA release is a plain tcgen05.commit.cta_group::1 on the
//    local empty barrier, and the consume exit does not arrive.
// CHECK-LABEL: .entry one_cta_mma_release(
// CHECK:       bar.sync 0;
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK:       elect.sync
// CHECK:       add.s64 [[EMPTY:%rd[0-9]+]], %rd{{[0-9]+}}, 16;
// CHECK-NEXT:  tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [[[EMPTY]]];
// CHECK-NOT:   mbarrier.arrive
// CHECK:       ret;

// 4. expect_tx of a pair: predicated on the leader CTA (ctarank even), for
//    both CTAs' bytes (2 x 2 x 64 x 64 bf16 = 16384 per CTA -> 32768), on
//    the full barrier of the stage the producer waited for (empty - 16).
//    The drain waits on the empty barriers only.
// CHECK-LABEL: .entry pair_expect_tx(
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-NEXT:  and.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
// CHECK:       setp.eq.b32 [[LEAD:%p[0-9]+]], [[ODD]], 0;
// CHECK:       cvt.u32.u64 [[FULL:%r[0-9]+]], %rd{{[0-9]+}};
// CHECK-NEXT:  add.s32 [[EMPTY:%r[0-9]+]], [[FULL]], 16;
// CHECK:       mbarrier.try_wait.parity.shared.b64 P1, [[[EMPTY]]]
// CHECK:       mov.b32 [[BYTES:%r[0-9]+]], 32768;
// CHECK:       @[[LEAD]] mbarrier.arrive.expect_tx.shared.b64 _, [[[FULL]]], [[BYTES]];
// No unpredicated expect_tx and no other arrival in the kernel (the loop
// may be unrolled: every copy is predicated the same way).
// CHECK-NOT:   {{^[[:space:]]*}}mbarrier.arrive
// CHECK-NOT:   @{{.*}}mbarrier.arrive.shared
// CHECK:       ret;

// 5. RolePipeline.commit with producer_sub_stages = 2: one arrival, on
//    full(s, 0) at 16 * s (not also on full(s, 1) at 16 * s + 8).
// CHECK-LABEL: .entry role_commit(
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK:       mul.wide.u32 [[OFF:%rd[0-9]+]], %r{{[0-9]+}}, 16;
// CHECK-NEXT:  add.s64 [[F0:%rd[0-9]+]], %rd{{[0-9]+}}, [[OFF]];
// CHECK-NEXT:  mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [[[F0]]];
// CHECK-NOT:   mbarrier.arrive
// CHECK:       ret;

// 6. drain_producer with consumer_sub_stages = 2: S = 2 waits, on empty(0, 0)
//    at +16 and empty(1, 0) at +32, with the producer's parity 1; none on
//    the sub-stage 1 barriers (+24, +40).
// CHECK-LABEL: .entry drain_sub_stages(
// CHECK:       bar.sync 0;
// CHECK:       cvt.u32.u64 [[BASE:%r[0-9]+]], %rd{{[0-9]+}};
// CHECK-NEXT:  add.s32 [[E0:%r[0-9]+]], [[BASE]], 16;
// CHECK-NEXT:  mov.b32 [[PAR:%r[0-9]+]], 1;
// CHECK:       mbarrier.try_wait.parity.shared.b64 P1, [[[E0]]], [[PAR]],
// CHECK:       add.s32 [[E1:%r[0-9]+]], [[BASE]], 32;
// CHECK:       mbarrier.try_wait.parity.shared.b64 P1, [[[E1]]], [[PAR]],
// CHECK-NOT:   mbarrier.try_wait
// CHECK:       ret;

// 7. The accumulator pipeline of a pair: the leader's MMA warp's commit
//    reaches both CTAs' full barriers (mask 0b11 << leader); each epilogue
//    thread arrives once, on the leader CTA's empty barrier. The rank is
//    read once, for the leader test and the epilogue's arrival.
// CHECK-LABEL: .entry accumulator_pair(
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK:       tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
// CHECK:       and.b32 [[LEADER:%r[0-9]+]], [[RANK]], -2;
// CHECK:       mapa.shared::cluster.u64 [[R:%rd[0-9]+]], %rd{{[0-9]+}}, [[LEADER]];
// CHECK:       mbarrier.arrive.shared::cluster.b64 _, [[[R]]]
// CHECK-NOT:   mapa
// CHECK:       ret;
