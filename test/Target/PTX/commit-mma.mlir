// REQUIRES: ptxas
// The rolled lowering (--unroll-stages=false), so that the CHECK-NEXT
// sequences below see one copy of each loop body (unroll-stages.mlir
// checks the default, stage-unrolled form).
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t.sm_100a
// RUN: FileCheck %s --input-file=%t.sm_100a.ptx
// RUN: test -s %t.sm_100a.cubin
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not test -e %t.sm_90a.ptx

// commit_mma (tcgen05.commit) exists on sm_100a only: on sm_90a it is a
// diagnostic naming the op and the chip, before LLVM or ptxas run.
// SM90: error: 'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from --chip)

!P = !pipeline.pipeline<stages = 2>
!Q = !pipeline.pipeline<stages = 2, cta_group = 2>
module attributes {gpu.container_module} {
gpu.module @mma {
  // The MMA warp produces accumulators: elect.sync picks the lane that
  // commits to the stage's full barrier.
  gpu.func @commit_one_cta(%n: index, %e: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %prod = pipeline.role %p : !P -> !pipeline.role<producer, !P>
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire %prod : !pipeline.role<producer, !P>
      pipeline.commit_mma %s : !pipeline.stage<producer, !P>
      pipeline.step %s : !pipeline.stage<producer, !P>
    }
    gpu.return
  }
  // 2-CTA MMA: the leader multicasts the commit to both CTAs of the pair.
  gpu.func @commit_cta_pair(%n: index, %e: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %q = pipeline.create -> !Q
    pipeline.init_mbars %q producer 1 consumer 1 cluster : !Q
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %q : !Q
      pipeline.commit_mma %s elect(%e) : !pipeline.stage<producer, !Q>
      pipeline.release %s : !pipeline.stage<producer, !Q>
    }
    // The peer CTA's commits reach this CTA: no exit before they landed
    // (pipeline-verify-protocol, drain at exit).
    pipeline.drain_producer %q : !Q
    gpu.return
  }
}
}

// CHECK-LABEL: .entry commit_one_cta(
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK:       elect.sync %r{{[0-9]+}}|[[ELECTED:%p[0-9]+]], -1;
// CHECK:       tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd{{[0-9]+}}];
// CHECK-NOT:   .local
// CHECK-LABEL: .entry commit_cta_pair(
// CHECK:       barrier.cluster.arrive.relaxed;
// CHECK-NOT:   mbarrier
// CHECK:       barrier.cluster.wait;
// Mask 0b11 << (%cluster_ctarank & ~1).
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-NEXT:  and.b32 [[LEADER:%r[0-9]+]], [[RANK]], 65534;
// CHECK-NEXT:  mov.b16 [[THREE:%rs[0-9]+]], 3;
// CHECK-NEXT:  shl.b16 [[MASK:%rs[0-9]+]], [[THREE]], [[LEADER]];
// CHECK:       tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [%rd{{[0-9]+}}], [[MASK]];
// CHECK-NOT:   .local
