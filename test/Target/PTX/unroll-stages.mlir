// REQUIRES: ptxas
// The steady state of a one-item ring (the shape of bench/handoff) at
// pipeline-compile's default options (pipeline-unroll-stages on, with
// rotate-wait): the item loops run two rounds of the ring per iteration,
// every barrier and slot address is an immediate offset, every wait's
// parity is fixed per copy (here a constant: the loops start right after
// the init), the first wait of each round pair runs at the end of the
// previous iteration (and once before the loop), so that the loop starts
// with a store or a load, and the waits are the convergent try_wait loop
// (no inline asm, one wait per item and per warp: LLVM does not duplicate
// it into the two paths of the lane-0 branch). With --unroll-stages=false:
// upstream's inline-asm wait and the select-based step in every iteration.
// RUN: pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=NOLOCAL
// RUN: test -s %t.cubin
// RUN: pipeline-compile %s --chip=sm_100a --cuda-path=%cuda_path -o %t.sm_100a
// RUN: FileCheck %s --input-file=%t.sm_100a.ptx
// RUN: pipeline-compile %s --chip=sm_90a --unroll-stages=false --cuda-path=%cuda_path -o %t.rolled
// RUN: FileCheck %s --input-file=%t.rolled.ptx --check-prefix=ROLLED

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>

gpu.module @ring {
  gpu.func @ring(%out: memref<1048576xi32>, %n: i32)
      workgroup(%slots: memref<4xi32, #WG>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_leader = arith.cmpi eq, %lane, %c0 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P {
          %st = pipeline.index %s : !pipeline.stage<producer, !P>
          scf.if %is_leader {
            %v = arith.index_cast %i : index to i32
            memref.store %v, %slots[%st] : memref<4xi32, #WG>
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume_explicit %p as %s : !P {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P>
          scf.if %is_leader {
            %v = memref.load %slots[%st] : memref<4xi32, #WG>
            pipeline.arrive %s : !pipeline.stage<consumer, !P>
            memref.store %v, %out[%i] : memref<1048576xi32>
          }
        }
      }
    }
    gpu.return
  }
}

// Producer (starts at parity 1: a fresh empty barrier's phase of parity 1
// counts as complete). Before the loop: round 0's wait on empty(0) =
// barrier 4.
// CHECK-LABEL: .entry ring(
// CHECK:      bar.sync 0;
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+32], [[W]],
// The loop: stage 0's store and arrive on full(0) with no wait before
// them, then empty(1..3) with parity 1, the second round's empty(0..3)
// with parity 0, and the next iteration's empty(0) with parity 1 right
// before the latch.
// CHECK:      [[LOOP:\$L__BB[0-9_]+]]:
// CHECK-NEXT: @%p{{[0-9]+}} bra
// CHECK-NEXT: st.shared.b32 [__wg_ring_0], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier];
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+40], [[W]],
// CHECK:      st.shared.b32 [__wg_ring_0+4], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier+8];
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+48], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+56], [[W]],
// CHECK:      st.shared.b32 [__wg_ring_0+12], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier+24];
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+32], [[W]],
// CHECK:      st.shared.b32 [__wg_ring_0], %r{{[0-9]+}};
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+40], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+48], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+56], [[W]],
// CHECK:      st.shared.b32 [__wg_ring_0+12], %r{{[0-9]+}};
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier+24];
// CHECK-NEXT: [[AHEAD:\$L__BB[0-9_]+]]:
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+32], [[W]],
// CHECK-NEXT: not.pred
// CHECK-NEXT: @%p{{[0-9]+}} bra [[AHEAD]];
// CHECK-NEXT: add.s32 [[I:%r[0-9]+]], [[I]], 8;
// CHECK-NEXT: setp.lt.s32 [[MORE:%p[0-9]+]], [[I]],
// CHECK-NEXT: @[[MORE]] bra [[LOOP]];
// After the producer's peeled last round pair and rolled epilogue
// (upstream's inline-asm wait), the consumer: the same on full(0..3) =
// barriers 0..3 (parity 0, then 1, then the next iteration's full(0) with
// parity 0), arriving on empty(0..3).
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1,
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier], [[W]],
// CHECK:      [[CLOOP:\$L__BB[0-9_]+]]:
// CHECK:      ld.shared.b32 %r{{[0-9]+}}, [__wg_ring_0];
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier+32];
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+8], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+8], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+16], [[W]],
// CHECK:      mov.b32 [[W:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier+24], [[W]],
// CHECK:      ld.shared.b32 %r{{[0-9]+}}, [__wg_ring_0+12];
// CHECK-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [__mbarrier+56];
// CHECK:      mov.b32 [[W:%r[0-9]+]], 0;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 %p{{[0-9]+}}, [__mbarrier], [[W]],
// CHECK:      @%p{{[0-9]+}} bra [[CLOOP]];
// Then the rolled epilogue (upstream's wait, select-based step).
// CHECK:      selp.b32 %r{{[0-9]+}}, 0, %r{{[0-9]+}}, %p{{[0-9]+}};
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1,

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: ld.local
// NOLOCAL-NOT: st.local

// The rolled lowering: the inline-asm wait and, every iteration, the step.
// ROLLED-LABEL: .entry ring(
// ROLLED:       mbarrier.try_wait.parity.shared.b64 P1,
// ROLLED:       selp.b32 %r{{[0-9]+}}, 0, %r{{[0-9]+}}, %p{{[0-9]+}};
// ROLLED-NOT:   mbarrier.try_wait.parity.shared.b64 %p
