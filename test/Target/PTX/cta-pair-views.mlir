// REQUIRES: ptxas
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: test -s %t.cubin

// The same barriers reached through two views behave the same way. A
// cta_group = 2 input tile pipeline frees a stage for the producers of both
// CTAs of the pair (CUTLASS PipelineTmaUmmaAsync consumer_release): a
// consumer arrive on its empty barrier reaches the empty barrier of the
// leader CTA (%cluster_ctarank & -2) and of the peer (| 1). Through the
// base !pipeline.pipeline value of the same barriers (@through_base) it
// must reach both too: only the leader would leave the peer's producer
// waiting forever after `stages` items. (An accumulator pipeline, with no
// tile view, signals the leader only: cta-pair.mlir.)

!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!A = memref<2x1x64xf16, #gpu.address_space<workgroup>>
!T = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
module attributes {gpu.container_module} {
gpu.module @pair {
  gpu.func @through_tile(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloca() : !A
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 2 cluster : !P
    %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !T
    %tid = gpu.thread_id x
    %leader = arith.cmpi eq, %tid, %c0 : index
    // The consumer (the pair's MMA) runs in the leader CTA only: the
    // pair's TMA and expect_tx complete the leader's full barrier.
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %r1 = arith.constant 1 : i32
    %r0 = arith.constant 0 : i32
    %odd = arith.andi %rank, %r1 : i32
    %in_leader = arith.cmpi eq, %odd, %r0 : i32
    scf.if %in_leader {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume_explicit %tp as %s : !T {
          scf.if %leader {
            pipeline.arrive %s : !pipeline.stage<consumer, !T>
          }
        }
      }
    }
    gpu.return
  }
  gpu.func @through_base(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = memref.alloca() : !A
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 2 cluster : !P
    %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !T
    %tid = gpu.thread_id x
    %leader = arith.cmpi eq, %tid, %c0 : index
    // The consumer (the pair's MMA) runs in the leader CTA only: the
    // pair's TMA and expect_tx complete the leader's full barrier.
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %r1 = arith.constant 1 : i32
    %r0 = arith.constant 0 : i32
    %odd = arith.andi %rank, %r1 : i32
    %in_leader = arith.cmpi eq, %odd, %r0 : i32
    scf.if %in_leader {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume_explicit %p as %s : !P {
          scf.if %leader {
            pipeline.arrive %s : !pipeline.stage<consumer, !P>
          }
        }
      }
    }
    gpu.return
  }
}
}

// The consumer runs in the leader CTA only, so LLVM folds the leader rank
// (%cluster_ctarank & -2) to %cluster_ctarank itself: the two targets are
// the executing (leader) CTA and rank | 1.
// CHECK-LABEL: .entry through_tile(
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-DAG:   or.b32 [[PEER:%r[0-9]+]], [[RANK]], 1;
// CHECK-DAG:   mapa.shared::cluster.u64 [[TOPEER:%rd[0-9]+]], [[BAR:%rd[0-9]+]], [[PEER]];
// CHECK-DAG:   mapa.shared::cluster.u64 [[TOLEADER:%rd[0-9]+]], [[BAR]], [[RANK]];
// CHECK-DAG:   mbarrier.arrive.shared::cluster.b64 _, [[[TOLEADER]]], %r{{[0-9]+}};
// CHECK-DAG:   mbarrier.arrive.shared::cluster.b64 _, [[[TOPEER]]], %r{{[0-9]+}};
// CHECK-LABEL: .entry through_base(
// CHECK:       mov.u32 [[RANK2:%r[0-9]+]], %cluster_ctarank;
// CHECK-DAG:   or.b32 [[PEER2:%r[0-9]+]], [[RANK2]], 1;
// CHECK-DAG:   mapa.shared::cluster.u64 [[TOPEER2:%rd[0-9]+]], [[BAR2:%rd[0-9]+]], [[PEER2]];
// CHECK-DAG:   mapa.shared::cluster.u64 [[TOLEADER2:%rd[0-9]+]], [[BAR2]], [[RANK2]];
// CHECK-DAG:   mbarrier.arrive.shared::cluster.b64 _, [[[TOLEADER2]]], %r{{[0-9]+}};
// CHECK-DAG:   mbarrier.arrive.shared::cluster.b64 _, [[[TOPEER2]]], %r{{[0-9]+}};
