// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics | FileCheck %s

// expect_tx that matches its loads, and stages whose delivered bytes the
// check cannot know (it stays silent).

// The whole payload (k_group_size = 2) in a loop of constant trip count,
// the loads and the expect_tx in the same lane-guarded region; and the
// multicast form where each CTA of a pair loads half of the tile into
// both.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 3>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [memref<3x2x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 6>
!MP = !pipeline.pipeline<stages = 2, release_ctas = 2>
!MTP = !pipeline.tile_pipeline<pipeline = !MP, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!MPS = !pipeline.stage<producer, !MTP>
!MTiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Half = memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
!HDesc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!MBars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @whole_payload
  gpu.func @whole_payload(%desc: !Desc, %buf: memref<3x2x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %tid = gpu.thread_id x
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<3x2x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %tp as %s : !TP {
        scf.if %lane0 {
          pipeline.expect_tx %s : !PS
          %bars, %id = pipeline.mbar %s : !PS
          %tiles = pipeline.payload %s[0] : !PS -> !Tiles
          scf.for %k = %c0 to %c2 step %c1 {
            %dst = memref.subview %tiles[%k, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
            nvgpu.tma.async.load %desc[%c0, %k], %bars[%id] to %dst : !Desc, !Bars -> !Tile
          }
        }
      }
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }

  // CHECK-LABEL: gpu.func @multicast_halves
  gpu.func @multicast_halves(%desc: !HDesc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %both = arith.constant 3 : i16
    %rank_i32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank_i32 : i32 to index
    %row = arith.muli %rank, %c16 : index
    %p = pipeline.create -> !MP
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !MP -> !MTP
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !MTP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !MTP
      pipeline.expect_tx %s : !MPS
      %bars, %id = pipeline.mbar %s : !MPS
      %tiles = pipeline.payload %s[0] : !MPS -> !MTiles
      %dst = memref.subview %tiles[0, %row, 0] [1, 16, 32] [1, 1, 1] : !MTiles to !Half
      nvgpu.tma.async.load %desc[%c0, %row], %bars[%id] to %dst multicast_mask = %both : !HDesc, !MBars -> !Half
      pipeline.release %s : !MPS
    }
    pipeline.drain_producer %tp : !MTP
    gpu.return
  }
}

// -----

// Not decided, so not reported (each of these arms a wrong count): bytes
// that are not a constant; loads in a loop without constant trip count;
// a load under a condition the expect_tx is not under; the barrier taken
// as a pointer (nvgpu.mbarrier.get) for another kind of copy; an
// expect_tx without any load in sight.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [memref<2x2x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @undecided
  gpu.func @undecided(%desc: !Desc, %buf: memref<2x2x32x32xi32, #WG>, %n: index, %bytes: index, %k: index, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x2x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      pipeline.expect_tx %s bytes(%bytes) : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %dst = memref.subview %tiles[0, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
      nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %dst : !Desc, !Bars -> !Tile
      pipeline.release %s : !PS

      %t = pipeline.acquire_producer %tp : !TP
      pipeline.expect_tx %t : !PS
      %tbars, %tid = pipeline.mbar %t : !PS
      %ttiles = pipeline.payload %t[0] : !PS -> !Tiles
      scf.for %j = %c0 to %k step %c1 {
        %tdst = memref.subview %ttiles[%j, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
        nvgpu.tma.async.load %desc[%c0, %j], %tbars[%tid] to %tdst : !Desc, !Bars -> !Tile
      }
      pipeline.release %t : !PS

      %u = pipeline.acquire_producer %tp : !TP
      pipeline.expect_tx %u : !PS
      %ubars, %uid = pipeline.mbar %u : !PS
      %utiles = pipeline.payload %u[0] : !PS -> !Tiles
      %udst = memref.subview %utiles[0, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
      scf.if %c {
        nvgpu.tma.async.load %desc[%c0, %c0], %ubars[%uid] to %udst : !Desc, !Bars -> !Tile
      }
      pipeline.release %u : !PS

      %v = pipeline.acquire_producer %tp : !TP
      pipeline.expect_tx %v : !PS
      %vbars, %vid = pipeline.mbar %v : !PS
      %ptr = nvgpu.mbarrier.get %vbars[%vid] : !Bars -> i64
      pipeline.release %v : !PS

      %w = pipeline.acquire_producer %tp : !TP
      pipeline.expect_tx %w : !PS
      pipeline.release %w : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @raw_arm
// The bytes armed by a raw nvgpu.mbarrier.arrive.expect_tx on the stage's
// barrier: another way to arm (not judged), no "nothing arms them".
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!Tile = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #WG>
!Box = memref<64x64xf16, strided<[64, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #WG>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 8>
gpu.module @m {
  // A warpgroup-style kernel: warp 0's elected lane loads A and B, warps
  // 4..7 (a consumer warpgroup) read.
  gpu.func @raw_arm(%da: !Desc, %db: !Desc, %a: memref<4x1x64x64xf16, #WG>, %b: memref<4x1x64x64xf16, #WG>, %k: index) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b : memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 128 : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %wg1 = arith.cmpi uge, %warp, %c4 : index
    scf.if %w0 {
      %e = nvvm.elect.sync -> i1
      scf.if %e {
        scf.for %kb = %c0 to %k step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          %bars, %id = pipeline.mbar %s : !PS
          %ta = pipeline.payload %s[0] : !PS -> !Tile
          %tb = pipeline.payload %s[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %kx = arith.muli %kb, %c64 : index
          %bytes = arith.constant 16384 : index
          nvgpu.mbarrier.arrive.expect_tx %bars[%id], %bytes : !Bars
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
          pipeline.release %s : !PS
        }
      }
    }
    scf.if %wg1 {
      scf.for %kb = %c0 to %k step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !CS
        pipeline.release %s : !CS
      }
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @armed
// The same loads armed with expect_tx (default: both 8 KiB tiles).
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!Tile = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #WG>
!Box = memref<64x64xf16, strided<[64, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #WG>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 8>
gpu.module @m {
  // A warpgroup-style kernel: warp 0's elected lane loads A and B, warps
  // 4..7 (a consumer warpgroup) read.
  gpu.func @armed(%da: !Desc, %db: !Desc, %a: memref<4x1x64x64xf16, #WG>, %b: memref<4x1x64x64xf16, #WG>, %k: index) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b : memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 128 : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %wg1 = arith.cmpi uge, %warp, %c4 : index
    scf.if %w0 {
      %e = nvvm.elect.sync -> i1
      scf.if %e {
        scf.for %kb = %c0 to %k step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !PS
          %bars, %id = pipeline.mbar %s : !PS
          %ta = pipeline.payload %s[0] : !PS -> !Tile
          %tb = pipeline.payload %s[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %kx = arith.muli %kb, %c64 : index
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
          pipeline.release %s : !PS
        }
      }
    }
    scf.if %wg1 {
      scf.for %kb = %c0 to %k step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !CS
        pipeline.release %s : !CS
      }
    }
    gpu.return
  }
}

// -----

// The elected lane arms with a raw arrive.expect_tx through one
// pipeline.mbar and loads through another on the same stage: another
// way to arm, not judged.
// CHECK-LABEL: gpu.func @raw_arm_two_mbars
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!Tile = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #WG>
!Box = memref<64x64xf16, strided<[64, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #WG>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 8>
gpu.module @m {
  gpu.func @raw_arm_two_mbars(%da: !Desc, %db: !Desc, %a: memref<4x1x64x64xf16, #WG>, %b: memref<4x1x64x64xf16, #WG>, %k: index) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b : memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 128 : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %wg1 = arith.cmpi uge, %warp, %c4 : index
    scf.if %w0 {
      %e = nvvm.elect.sync -> i1
      scf.if %e {
        scf.for %kb = %c0 to %k step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          %abars, %aid = pipeline.mbar %s : !PS
          %bytes = arith.constant 16384 : index
          nvgpu.mbarrier.arrive.expect_tx %abars[%aid], %bytes : !Bars
          %bars, %id = pipeline.mbar %s : !PS
          %ta = pipeline.payload %s[0] : !PS -> !Tile
          %tb = pipeline.payload %s[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %kx = arith.muli %kb, %c64 : index
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
          pipeline.release %s : !PS
        }
      }
    }
    scf.if %wg1 {
      scf.for %kb = %c0 to %k step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !CS
        pipeline.release %s : !CS
      }
    }
    gpu.return
  }
}


// -----

// An arm-ahead producer: the stage armed in one iteration is loaded
// through the carried handle in the next (not judged).
// CHECK-LABEL: gpu.func @arm_early
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!Tile = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #WG>
!Box = memref<64x64xf16, strided<[64, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #WG>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 8>
gpu.module @m {
  gpu.func @arm_early(%da: !Desc, %db: !Desc, %a: memref<4x1x64x64xf16, #WG>, %b: memref<4x1x64x64xf16, #WG>, %k: index) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b : memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 128 : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %wg1 = arith.cmpi uge, %warp, %c4 : index
    %km1 = arith.subi %k, %c1 : index
    scf.if %w0 {
      %e = nvvm.elect.sync -> i1
      scf.if %e {
        // Stage 0 acquired and armed ahead; each iteration loads the armed
        // stage, then acquires and arms the next one.
        %s0 = pipeline.acquire_producer %tp : !TP
        pipeline.expect_tx %s0 : !PS
        %last = scf.for %kb = %c0 to %km1 step %c1 iter_args(%s = %s0) -> (!PS) {
          %kx = arith.muli %kb, %c64 : index
          %bars, %id = pipeline.mbar %s : !PS
          %ta = pipeline.payload %s[0] : !PS -> !Tile
          %tb = pipeline.payload %s[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
          pipeline.release %s : !PS
          %next = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %next : !PS
          scf.yield %next : !PS
        }
        %bars, %id = pipeline.mbar %last : !PS
        %kx = arith.muli %km1, %c64 : index
          %ta = pipeline.payload %last[0] : !PS -> !Tile
          %tb = pipeline.payload %last[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
        pipeline.release %last : !PS
      }
    }
    scf.if %wg1 {
      scf.for %kb = %c0 to %k step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !CS
        pipeline.release %s : !CS
      }
    }
    gpu.return
  }
}
