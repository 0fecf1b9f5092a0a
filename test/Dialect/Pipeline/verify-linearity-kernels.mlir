// RUN: pipeline-opt %s -pipeline-verify-linearity -split-input-file -verify-diagnostics | FileCheck %s

// Whole warp-specialized kernels, written the way the reference Mojo
// structured kernels use their pipelines: they verify cleanly.

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!V = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
!D = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>

// TMA producer warp / math consumer warps over an input tile pipeline. The
// producer's leader lane expects the bytes and issues the copy; the
// consumers read the tiles, arrive on the stage's empty barrier and release
// it (which only steps on a tile pipeline); the producer drains.
// CHECK-LABEL: gpu.func @tma_gemm_mainloop
// CHECK: nvgpu.tma.async.load
// CHECK: pipeline.drain_producer
gpu.module @kernels {
  gpu.func @tma_gemm_mainloop(%desc: !D, %k_iters: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %acc0 = arith.constant 0.0 : f16
    %a = memref.alloc() : !A
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 4 : !P
    %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_leader = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_producer {
      scf.for %k = %c0 to %k_iters step %c1 {
        %ready = pipeline.try_acquire_producer %tp : !TP
        %s = pipeline.acquire_producer %tp ready(%ready) : !TP
        scf.if %is_leader {
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !TP>
          %tiles = pipeline.payload %s[0] : !pipeline.stage<producer, !TP> -> !T
          %tile = memref.subview %tiles[0, 0, 0] [1, 64, 64] [1, 1, 1] : !T to !V
          nvgpu.tma.async.load %desc[%c0, %k], %bars[%id] to %tile : !D, !G -> !V
        }
        pipeline.release %s : !pipeline.stage<producer, !TP>
      }
      pipeline.drain_producer %tp : !TP
    } else {
      %acc = scf.for %k = %c0 to %k_iters step %c1 iter_args(%sum = %acc0) -> (f16) {
        %s = pipeline.acquire_consumer %tp : !TP
        %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP> -> !T
        %v = memref.load %tiles[%c0, %lane, %c0] : !T
        %next = arith.addf %sum, %v : f16
        // Every consumer thread frees the stage (a tile pipeline's release
        // only steps).
        pipeline.arrive %s : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
        scf.yield %next : f16
      }
    }
    gpu.return
  }
}

// -----

!P2 = !pipeline.pipeline<stages = 2, cta_group = 1>
!PR = !pipeline.role<producer, !P2>
!CR = !pipeline.role<consumer, !P2>
!G2 = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>

// MMA warp producing accumulators for the epilogue warps through a role
// pipeline (acquire / commit_mma / step), the epilogue consuming with a
// lane-guarded explicit arrive (consume_explicit), and a scheduler loop
// that prefetches the next stage before releasing the current one through
// iter_args.
// CHECK-LABEL: func.func @mma_epilogue
// CHECK: pipeline.commit_mma
// CHECK: pipeline.consume_explicit
func.func @mma_epilogue(%tiles: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %p = pipeline.create -> !P2
  pipeline.init_mbars %p producer 1 consumer 4 : !P2
  %prod = pipeline.role %p : !P2 -> !PR
  %tid = gpu.thread_id x
  %warp = arith.divui %tid, %c32 : index
  %lane = arith.remui %tid, %c32 : index
  %is_mma = arith.cmpi eq, %warp, %c0 : index
  scf.if %is_mma {
    scf.for %t = %c0 to %tiles step %c1 {
      %s = pipeline.acquire %prod : !PR
      pipeline.commit_mma %s : !pipeline.stage<producer, !P2>
      pipeline.step %s : !pipeline.stage<producer, !P2>
    }
  } else {
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.for %t = %c0 to %tiles step %c1 {
      pipeline.consume_explicit %p as %s : !P2 {
        %i = pipeline.index %s : !pipeline.stage<consumer, !P2>
        scf.if %is_lane0 {
          pipeline.arrive %s : !pipeline.stage<consumer, !P2>
        }
      }
    }
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>

// Software-pipelined consumer: the handle of the current stage is carried
// through iter_args, a stage is released early when a tile is skipped, and
// the handle that leaves the loop is released after it.
// CHECK-LABEL: func.func @carried_consumer
// CHECK: scf.for
func.func @carried_consumer(%n: index, %skip: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %first = pipeline.acquire_consumer %p : !P
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%cur = %first) -> (!CS) {
    %is_skip = arith.cmpi eq, %i, %skip : index
    %kept = scf.if %is_skip -> !CS {
      pipeline.release %cur : !CS
      %fresh = pipeline.acquire_consumer %p : !P
      scf.yield %fresh : !CS
    } else {
      %idx = pipeline.index %cur : !CS
      scf.yield %cur : !CS
    }
    pipeline.release %kept : !CS
    %next = pipeline.acquire_consumer %p : !P
    scf.yield %next : !CS
  }
  pipeline.release %last : !CS
  return
}

// The same producer loop in a gpu.launch body.
// CHECK-LABEL: func.func @launch
// CHECK: gpu.launch
func.func @launch(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !PS
      }
      pipeline.consume %p as %s : !P {
        %x = pipeline.index %s : !CS
      }
    }
    gpu.terminator
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4, cta_group = 2>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!B = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A, !B]>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!V = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
!D = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>

// The SM100 2-CTA input pipeline: a TMA warp per CTA loads its half of
// both operands (the loads stand for the 2-CTA TMA that completes the
// leader's full barrier, which only the leader's expect_tx arms), the
// leader CTA's MMA warp consumes the stage (the MMAs read the payload) and
// frees it in both CTAs with release_mma inside the consume region, whose
// exit only steps (the reference MMA warp's `with
// input_pipeline.consumer() as tiles: ... mma_arrive`).
// CHECK-LABEL: gpu.func @mma_warp_mainloop
// CHECK: pipeline.consume
// CHECK: pipeline.release_mma
gpu.module @kernels {
  gpu.func @mma_warp_mainloop(%da: !D, %db: !D, %k_iters: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : !A
    %b = memref.alloc() : !B
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 cluster : !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b : !A, !B) : !P -> !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_tma = arith.cmpi eq, %warp, %c0 : index
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %c1_i32 = arith.constant 1 : i32
    %c0_i32 = arith.constant 0 : i32
    %odd = arith.andi %rank, %c1_i32 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %c0_i32 : i32
    %is_mma = arith.andi %is_mma_warp, %is_leader_cta : i1
    scf.if %is_tma {
      scf.if %is_lane0 {
        scf.for %k = %c0 to %k_iters step %c1 {
          pipeline.produce %tp as %s : !TP {
            pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
            %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !TP>
            %ta = pipeline.payload %s[0] : !pipeline.stage<producer, !TP> -> !T
            %tb = pipeline.payload %s[1] : !pipeline.stage<producer, !TP> -> !T
            %va = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !T to !V
            %vb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !T to !V
            nvgpu.tma.async.load %da[%k, %c0], %bars[%id] to %va : !D, !G -> !V
            nvgpu.tma.async.load %db[%k, %c0], %bars[%id] to %vb : !D, !G -> !V
          }
        }
        pipeline.drain_producer %tp : !TP
      }
    }
    scf.if %is_mma {
      scf.for %k = %c0 to %k_iters step %c1 {
        pipeline.consume %tp as %s : !TP {
          %ta = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP> -> !T
          %tb = pipeline.payload %s[1] : !pipeline.stage<consumer, !TP> -> !T
          // ... tcgen05.mma reading %ta and %tb ...
          pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
        }
      }
    }
    gpu.return
  }
}
