// REQUIRES: ptxas
// The rolled lowering (--unroll-stages=false), so that the CHECK-NEXT
// sequences below see one copy of each loop body (unroll-stages.mlir
// checks the default, stage-unrolled form).
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not test -e %t.sm_90a.ptx
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t.sm_100a
// RUN: FileCheck %s --input-file=%t.sm_100a.ptx
// RUN: FileCheck %s --check-prefix=NOSCOPE --input-file=%t.sm_100a.ptx
// RUN: test -s %t.sm_100a.cubin

// A cta_group = 2 pipeline shared by the two CTAs of a cluster pair: the
// barriers are initialized once per CTA and the whole cluster synchronizes;
// consumer arrivals (both CTAs' epilogue warps) go to the leader CTA's
// empty barrier (an accumulator pipeline: a plain pipeline, not a tile
// pipeline). Hopper has no CTA pair: on sm_90a it is a diagnostic.
// SM90: error: 'pipeline.create' op expects cta_group = 1 on sm_90a

!P = !pipeline.pipeline<stages = 2, cta_group = 2>
module attributes {gpu.container_module} {
gpu.module @pair {
  gpu.func @consumer_to_leader(%out: memref<32xi32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 2 cluster : !P
    %tid = gpu.thread_id x
    %leader = arith.cmpi eq, %tid, %c0 : index
    scf.for %i = %c0 to %n step %c1 {
      pipeline.consume_explicit %p as %s : !P {
        scf.if %leader {
          pipeline.arrive %s : !pipeline.stage<consumer, !P>
        }
      }
    }
    gpu.return
  }
}
}

// CHECK:      fence.mbarrier_init.release.cluster;
// CHECK:      barrier.cluster.arrive.relaxed;
// CHECK-NOT:  mbarrier
// CHECK:      barrier.cluster.wait;
// The consumer waits locally on full, then the leader lane maps its empty
// barrier (base + 16) to the leader CTA (%cluster_ctarank & ~1) and
// arrives there with the default semantics (.release.cta), as CUTLASS's
// ClusterBarrier::arrive(cta_id): a .release.cluster arrive costs a
// MEMBAR.ALL.GPU each (no .release.cluster arrive anywhere).
// CHECK:      mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-NEXT: and.b32 [[LEADER:%r[0-9]+]], [[RANK]], -2;
// CHECK:      mbarrier.try_wait.parity.shared.b64
// CHECK:      mapa.shared::cluster.u64 [[REMOTE:%rd[0-9]+]], %rd{{[0-9]+}}, [[LEADER]];
// CHECK:      mbarrier.arrive.shared::cluster.b64 _, [[[REMOTE]]], %r{{[0-9]+}};
// CHECK-NOT:  .local
// NOSCOPE-NOT: mbarrier.arrive.release.cluster
