// REQUIRES: ptxas
// The op-by-op PTX of the rolled lowering (--unroll-stages=false); the
// default, stage-unrolled form is checked in unroll-stages.mlir.
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a
// RUN: FileCheck %s --check-prefixes=CHECK,SM90 --input-file=%t.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=STATE --input-file=%t.sm_90a.ptx
// RUN: test -s %t.sm_90a.cubin
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t.sm_100a
// RUN: FileCheck %s --check-prefixes=CHECK,SM100 --input-file=%t.sm_100a.ptx
// RUN: FileCheck %s --check-prefix=STATE --input-file=%t.sm_100a.ptx
// RUN: test -s %t.sm_100a.cubin
// At -O0 the role state is still promoted (MLIR's mem2reg runs in the
// pipeline), so no local memory either.
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_90a -O0 --cuda-path=%cuda_path -o %t.O0
// RUN: FileCheck %s --check-prefix=STATE --input-file=%t.O0.ptx

// A warp-specialized kernel: warp 0 produces 32-value slots into a 4-stage
// pipeline (every lane writes and arrives: full counts 32), warps 1 and 2
// consume them (one elected lane per warp arrives: empty counts 2).

!P = !pipeline.pipeline<stages = 4>
!slots = memref<4x32xi32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
gpu.module @warp_specialized {
  gpu.func @ws_sum(%out: memref<64xi32>, %n: index)
      workgroup(%slots : !slots) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32i = arith.constant 32 : i32
    %all = arith.constant -1 : i32
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 2 : !P
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lanei = arith.index_cast %lane : index to i32
    %leader = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        %idx = pipeline.index %s : !pipeline.stage<producer, !P>
        %ii = arith.index_cast %i : index to i32
        %v0 = arith.muli %ii, %c32i : i32
        %v = arith.addi %v0, %lanei : i32
        memref.store %v, %slots[%idx, %lane] : !slots
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    } else {
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
        %s = pipeline.acquire_consumer %p : !P
        %idx = pipeline.index %s : !pipeline.stage<consumer, !P>
        %v = memref.load %slots[%idx, %lane] : !slots
        nvvm.bar.warp.sync %all : i32
        scf.if %leader {
          pipeline.arrive %s : !pipeline.stage<consumer, !P>
        }
        pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
        %vi = arith.index_cast %v : i32 to index
        %acc2 = arith.addi %acc, %vi : index
        scf.yield %acc2 : index
      }
      %r = arith.index_cast %sum : index to i32
      %t = arith.subi %tid, %c32 : index
      memref.store %r, %out[%t] : memref<64xi32>
    }
    gpu.return
  }
}
}

// CHECK:       .version 8.6
// SM90:        .target sm_90a
// SM100:       .target sm_100a
// CHECK:       .entry ws_sum(
// CHECK-NEXT:    .param .u64 .ptr .align 1 ws_sum_param_0,
// CHECK-NEXT:    .param .u64 ws_sum_param_1
// Barriers: full[0..4) counted 32, empty[4..8) counted 2, initialized by
// one thread, which then fences; then the CTA barrier.
// CHECK:       mov.u32 %r{{[0-9]+}}, %tid.x;
// CHECK:       mov.b32 [[P:%r[0-9]+]], 32;
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier], [[P]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+8], [[P]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+16], [[P]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+24], [[P]];
// CHECK-NEXT:  mov.b32 [[C:%r[0-9]+]], 2;
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+32], [[C]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+40], [[C]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+48], [[C]];
// CHECK-NEXT:  mbarrier.init.shared.b64 [__mbarrier+56], [[C]];
// CHECK-NEXT:  fence.mbarrier_init.release.cluster;
// CHECK:       bar.sync 0;
// Producer loop: wait on empty (base + 32) with the producer phase, the
// 10 ms suspend hint, arrive on full.
// CHECK:       mov.b32 [[TICKS:%r[0-9]+]], 10000000;
// CHECK:       mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], %r{{[0-9]+}}, [[TICKS]];
// CHECK-NEXT:  @P1 bra.uni DONE;
// CHECK-NEXT:  bra.uni LAB_WAIT;
// CHECK:       mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}];
// The step, on loop-carried registers: stage + 1, wrap at 4, flip phase.
// CHECK-NEXT:  add.s32 [[NEXT:%r[0-9]+]], [[STAGE:%r[0-9]+]], 1;
// CHECK-NEXT:  setp.eq.b32 [[WRAP:%p[0-9]+]], [[NEXT]], 4;
// CHECK-NEXT:  selp.b32 [[STAGE]], 0, [[NEXT]], [[WRAP]];
// CHECK-NEXT:  xor.pred [[PHASE:%p[0-9]+]], [[PHASE]], [[WRAP]];

// The role state lives in registers: no local memory anywhere, and the only
// CTA barrier is the one after init (none in the steady-state loops).
// STATE-NOT:   .local
// STATE-NOT:   local_depot
// STATE-COUNT-1: bar.sync
// STATE-NOT:   bar.sync
// STATE-NOT:   .local
