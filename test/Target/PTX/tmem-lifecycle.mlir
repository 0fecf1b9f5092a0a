// REQUIRES: ptxas
// RUN: pipeline-opt %s -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: pipeline-compile %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: test -s %t.cubin
// RUN: pipeline-sim %t.ptx --grid=4 --cluster=2 --block=192 --smem=64 --schedules=3 | FileCheck %s --check-prefix=SIM

// The TMEM lifecycle of a CTA pair (the reference's TmemAllocation and
// TmemDeallocBarrier): warp 1 of each CTA allocates 512 columns with
// cta_group::2 and relinquishes the permit; the 128 readers (warps 2..5)
// of each CTA release on their own deallocation barrier and the peer's;
// warp 1 frees once all 256 arrivals of its barrier are in.
// SM90: error: 'pipeline.tmem_alloc' op needs

!T = !pipeline.tmem<columns = 512, cta_group = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @lifecycle() kernel attributes {nvvm.reqntid = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %t = pipeline.tmem_create in %smem[%c0] : !Smem -> !T
    %base = pipeline.tmem_alloc %t readers 128 warp 1 : !T -> i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %reader = arith.cmpi uge, %warp, %c2 : index
    scf.if %reader {
      pipeline.tmem_release %t : !T
    }
    %owner = arith.cmpi eq, %warp, %c1 : index
    scf.if %owner {
      pipeline.tmem_dealloc %t, %base : !T
    }
    gpu.return
  }
}
}

// Thread 0 inits the deallocation barrier (+0) for 128 readers x 2 CTAs;
// warp 1 allocates into the address word (+8) and relinquishes; the
// fenced cluster barrier; every thread loads the address.
// CHECK-LABEL: .entry lifecycle(
// CHECK:       mov.b32 [[COUNT:%r[0-9]+]], 256;
// CHECK-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0], [[COUNT]];
// CHECK-NEXT:  fence.mbarrier_init.release.cluster;
// CHECK:       mov.b32 [[COLS:%r[0-9]+]], 512;
// CHECK-NEXT:  tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [__dynamic_shmem__0+8], [[COLS]];
// CHECK-NEXT:  tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CHECK:       tcgen05.fence::before_thread_sync;
// CHECK-NEXT:  barrier.cluster.arrive;
// CHECK-NEXT:  barrier.cluster.wait;
// CHECK-NEXT:  tcgen05.fence::after_thread_sync;
// CHECK-NEXT:  ld.shared.b32 [[BASE:%r[0-9]+]], [__dynamic_shmem__0+8];
// A reader: fence before, an arrival on the peer's barrier (rank ^ 1),
// then on its own.
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-NEXT:  xor.b32 [[PEER:%r[0-9]+]], [[RANK]], 1;
// CHECK-NEXT:  mapa.shared::cluster.u64 [[REMOTE:%rd[0-9]+]], {{%rd[0-9]+}}, [[PEER]];
// CHECK-NEXT:  tcgen05.fence::before_thread_sync;
// CHECK:       mbarrier.arrive.shared::cluster.b64 _, [[[REMOTE]]], {{%r[0-9]+}};
// CHECK-NEXT:  mbarrier.arrive.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0];
// The owner: wait for phase 0 of the barrier, fence after, free.
// CHECK:       mov.b32 [[ZERO:%r[0-9]+]], 0;
// CHECK-NEXT:  mbarrier.try_wait.parity.shared.b64 {{%p[0-9]+}}, [__dynamic_shmem__0], [[ZERO]];
// CHECK:       tcgen05.fence::after_thread_sync;
// CHECK:       mov.b32 [[COLS2:%r[0-9]+]], 512;
// CHECK-NEXT:  tcgen05.dealloc.cta_group::2.sync.aligned.b32 [[BASE]], [[COLS2]];

// SIM-COUNT-4: lifecycle ({{.*}}): completed
