// REQUIRES: ptxas
// RUN: pipeline-opt %s -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=PROD --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=CONS --input-file=%t.ptx
// RUN: test -s %t.cubin
// RUN: pipeline-sim %t.ptx --grid=8 --cluster=2 --block=96 --smem=128 --arg=buf:64 --arg=buf:64 --arg=0 --arg=16 --schedules=2 --resident-clusters=1 | FileCheck %s --check-prefix=SIM1
// RUN: pipeline-sim %t.ptx --grid=8 --cluster=2 --block=96 --smem=128 --arg=buf:64 --arg=buf:64 --arg=0 --arg=16 --schedules=2 --resident-clusters=2 | FileCheck %s --check-prefix=SIM2
// RUN: sed 's/consumer 160/consumer 128/' %s > %t.short.mlir
// RUN: pipeline-compile --verify-protocol=false %t.short.mlir --chip=sm_100a --emit=ptx -o %t.short.ptx
// RUN: not pipeline-sim %t.short.ptx --grid=8 --cluster=2 --block=96 --smem=128 --arg=buf:64 --arg=buf:64 --arg=0 --arg=16 --resident-clusters=1 | FileCheck %s --check-prefix=SHORT

// The cluster launch control scheduler pipeline (CUTLASS
// PipelineCLCFetchAsync, the reference's TileScheduler): the scheduler warp
// of cluster rank 0 requests the next cluster and reads the answer, the
// worker warps of every CTA read it; 2 stages, clusters of 2.
// Consumers: the scheduler warp (32) + 2 worker warps x 2 CTAs = 160
// arrivals on rank 0's empty barrier per phase.
// SM90: error: 'pipeline.clc_try_cancel' op needs

#WG = #gpu.address_space<workgroup>
!Smem = memref<?xi8, #WG>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @clc_loop(%out: memref<?xi32>) kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i32
    %true = arith.constant true
    %smem = gpu.dynamic_shared_memory : !Smem
    %c = pipeline.create in %smem[%c0] : !Smem -> !C
    %resp = memref.view %smem[%c64][] : !Smem to !Resp
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 160 cluster : !CLC
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %sched = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    scf.if %sched {
      scf.if %first {
        // The scheduler: request, then read the answer like every worker;
        // stop when nothing was canceled (the grid is done).
        scf.while (%go = %true) : (i1) -> () {
          scf.condition(%go)
        } do {
          %p = pipeline.acquire_producer %clc : !CLC
          pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
          pipeline.release %p : !pipeline.stage<producer, !CLC>
          %s = pipeline.acquire_consumer %clc : !CLC
          %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
          pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
          pipeline.release %s : !pipeline.stage<consumer, !CLC>
          scf.yield %ok : i1
        }
        pipeline.drain_producer %clc : !CLC
      }
    } else {
      // Workers: one tile per answer until the grid is done.
      scf.while (%go = %true) : (i1) -> () {
        scf.condition(%go)
      } do {
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
        scf.if %ok {
          %xi = arith.index_cast %x : i32 to index
          %one = arith.constant 1 : i32
          memref.store %one, %out[%xi] : memref<?xi32>
        }
        scf.yield %ok : i1
      }
    }
    gpu.return
  }
}
}

// Init: the full barriers count 1, the empty barriers 160, in every CTA,
// with the cluster synchronized (the consumers of rank 1 arrive on rank 0).
// CHECK-LABEL: .entry clc_loop(
// CHECK:       mov.b32 [[ONE:%r[0-9]+]], 1;
// CHECK-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0], [[ONE]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+8], [[ONE]];
// CHECK-NEXT:  mov.b32 [[CONSUMERS:%r[0-9]+]], 160;
// CHECK-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+16], [[CONSUMERS]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+24], [[CONSUMERS]];
// CHECK-NEXT:  fence.mbarrier_init.release.cluster;

// The producer: lanes below %cluster_nctarank arm 16 bytes on the stage's
// full barrier of CTA `lane` (mapa + remote arrive.expect_tx), then one
// elected lane asks to cancel, the response and its bytes multicast to the
// whole cluster, completing on the stage's full barrier.
// PROD-LABEL: .entry clc_loop(
// PROD:       mov.u32 [[LANE:%r[0-9]+]], %laneid;
// PROD-NEXT:  mov.u32 [[NCTA:%r[0-9]+]], %cluster_nctarank;
// PROD:       setp.ge.u32 {{%p[0-9]+}}, [[LANE]], [[NCTA]];
// PROD:       mapa.shared::cluster.u64 [[REMOTE_FULL:%rd[0-9]+]], [[FULL:%rd[0-9]+]], [[LANE]];
// PROD-NEXT:  mov.b32 [[BYTES:%r[0-9]+]], 16;
// PROD-NEXT:  mbarrier.arrive.expect_tx.shared::cluster.b64 _, [[[REMOTE_FULL]]], [[BYTES]];
// PROD:       elect.sync
// PROD:       clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [{{%rd[0-9]+}}], [[[FULL]]];

// A consumer reads the 16-byte response at +64 + 16 s, fences the generic
// read against the next asynchronous response, and the lowest of the
// active lanes that name the same stage's barrier (match.any.sync on its
// address) arrives on cluster rank 0's empty barrier for all of them.
// CONS-LABEL: .entry clc_loop(
// CONS:       ld.shared.v2.b64 {{{%rd[0-9]+}}, {{%rd[0-9]+}}}, [{{%rd[0-9]+}}+64];
// CONS-NEXT:  fence.proxy.async.shared::cta;
// CONS-NEXT:  add.s64 [[EMPTY:%rd[0-9]+]], {{%rd[0-9]+}}, 16;
// CONS-NEXT:  activemask.b32 [[ACTIVEMASK:%r[0-9]+]];
// CONS-NEXT:  match.any.sync.b64 [[MASK:%r[0-9]+]], [[EMPTY]], [[ACTIVEMASK]];
// CONS-NEXT:  bar.warp.sync [[MASK]];
// CONS:       mapa.shared::cluster.u64 [[REMOTE_EMPTY:%rd[0-9]+]], [[EMPTY]], 0;
// CONS-NEXT:  popc.b32 [[ACTIVE:%r[0-9]+]], [[MASK]];
// CONS-NEXT:  mbarrier.arrive.shared::cluster.b64 _, [[[REMOTE_EMPTY]]], [[ACTIVE]];
// CONS:       clusterlaunchcontrol.query_cancel.is_canceled.pred.b128
// CONS:       clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128

// Run with one or two clusters resident of four: the resident ones cancel
// the rest and do their work, every phase exact.
// SIM1-COUNT-3: clc_loop ({{.*}}): completed, {{.*}}, 3 cluster(s) canceled by try_cancel
// SIM2-COUNT-3: clc_loop ({{.*}}): completed, {{.*}}, 2 cluster(s) canceled by try_cancel
// A consumer count that leaves out the scheduler warp (128 instead of 160):
// each phase completes early and the extra arrivals pile up.
// SHORT: partial-phase: mbarrier {{.*}} of CTA (0,0,0) ended with
