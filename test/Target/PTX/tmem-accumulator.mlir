// REQUIRES: ptxas
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: test -s %t.cubin

// A tensor-memory accumulator pipeline (tmem = true) of a CTA pair: the
// MMA warp of the leader produces, the epilogue of both CTAs consumes.
// What the hardware must see (PTX memory model, tcgen05 section): every
// wait of the pipeline is followed by tcgen05.fence::after_thread_sync
// before the thread's next tcgen05 access, every thread signal is preceded
// by tcgen05.fence::before_thread_sync (so the epilogue's tcgen05.ld of the
// stage is ordered before the MMA warp learns it may overwrite it), and
// the drain is followed by after_thread_sync (TMEM may then be freed).
// SM90: error: 'pipeline.create' op expects tmem = false on sm_90a

!Acc = !pipeline.pipeline<stages = 2, cta_group = 2, tmem = true>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @accumulate(%tiles: i32) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %acc = pipeline.create -> !Acc
    pipeline.init_mbars %acc producer 1 consumer 64 cluster : !Acc
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %mma = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    scf.if %mma {
      scf.if %leader {
        scf.for %t = %i0 to %tiles step %i1 : i32 {
          %s = pipeline.acquire_producer %acc : !Acc
          pipeline.commit_mma %s : !pipeline.stage<producer, !Acc>
          pipeline.release %s : !pipeline.stage<producer, !Acc>
        }
        pipeline.drain_producer %acc : !Acc
      }
    } else {
      scf.for %t = %i0 to %tiles step %i1 : i32 {
        pipeline.consume %acc as %e : !Acc {
          pipeline.yield
        }
      }
    }
    gpu.return
  }
}
}

// In block order: the producer's loop, the consumer's loop, the drain.
// The producer (MMA warp): wait on empty, fence after, commit (no fence:
// the commit tracks the MMAs).
// CHECK-LABEL: .entry accumulate(
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK:       tcgen05.fence::after_thread_sync;
// CHECK-NOT:   tcgen05.fence
// CHECK:       tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64
// The consumer (epilogue): wait on full, fence after; fence before, then
// the arrival on the leader's empty barrier.
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK-NOT:   tcgen05.fence
// CHECK:       tcgen05.fence::after_thread_sync;
// CHECK-NEXT:  tcgen05.fence::before_thread_sync;
// CHECK-NOT:   tcgen05.fence
// CHECK:       mapa.shared::cluster.u64
// CHECK:       mbarrier.arrive.shared::cluster.b64
// The drain: a wait per stage, then one fence after.
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK-NOT:   tcgen05.fence
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK-NOT:   tcgen05.fence
// CHECK:       tcgen05.fence::after_thread_sync;
