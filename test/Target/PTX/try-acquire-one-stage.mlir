// REQUIRES: ptxas
// The rolled lowering (--unroll-stages=false): its waits are the inline-asm
// loop checked below; the default marks one-stage loops with stage 0 and
// waits with the convergent loop (unroll-stages.mlir).
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a
// RUN: FileCheck %s --input-file=%t.sm_90a.ptx
// RUN: test -s %t.sm_90a.cubin
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t.sm_100a
// RUN: FileCheck %s --input-file=%t.sm_100a.ptx
// RUN: test -s %t.sm_100a.cubin

// Try-acquire: one try_wait.parity without suspend hint, and the blocking
// loop only when it failed. One stage: every step flips the phase.

!P = !pipeline.pipeline<stages = 1>
module attributes {gpu.container_module} {
gpu.module @try_one {
  gpu.func @try_acquire_one_stage(%out: memref<32xi32>, %n: index)
      workgroup(%slot : memref<32xi32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %ready = pipeline.try_acquire_producer %p : !P
        %s = pipeline.acquire_producer %p ready(%ready) : !P
        %ii = arith.index_cast %i : index to i32
        memref.store %ii, %slot[%lane] : memref<32xi32, #gpu.address_space<workgroup>>
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
    } else {
      %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
        %v = pipeline.consume %p as %s : !P -> i32 {
          %x = memref.load %slot[%lane] : memref<32xi32, #gpu.address_space<workgroup>>
          pipeline.yield %x : i32
        }
        %vi = arith.index_cast %v : i32 to index
        %acc2 = arith.addi %acc, %vi : index
        scf.yield %acc2 : index
      }
      %r = arith.index_cast %sum : index to i32
      memref.store %r, %out[%lane] : memref<32xi32>
    }
    gpu.return
  }
}
}

// Producer (phase starts at 1): one try_wait.parity on empty (barrier 1,
// base + 8) without suspend hint; the blocking loop runs only when it
// failed; then arrive on full (barrier 0). With one stage the stage stays 0
// and every step flips the phase.
// CHECK:      mov.pred [[PHASE:%p[0-9]+]], -1;
// CHECK:      mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier];
// CHECK-NEXT: not.pred [[PHASE]], [[PHASE]];
// CHECK:      selp.b32 [[PAR:%r[0-9]+]], 1, 0, [[PHASE]];
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 [[READY:%p[0-9]+]], [__mbarrier+8], [[PAR]];
// CHECK-NEXT: @[[READY]] bra
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], [[PAR]], %r{{[0-9]+}};
// Consumer (phase starts at 0): wait on full, arrive on empty at the end of
// the consume region, flip.
// CHECK:      mov.pred [[CPHASE:%p[0-9]+]], 0;
// CHECK:      selp.b32 [[CPAR:%r[0-9]+]], 1, 0, [[CPHASE]];
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1, [%r{{[0-9]+}}], [[CPAR]], %r{{[0-9]+}};
// CHECK:      mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier+8];
// CHECK-NEXT: not.pred [[CPHASE]], [[CPHASE]];
// CHECK-NOT:  .local
