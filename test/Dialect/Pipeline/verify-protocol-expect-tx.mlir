// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// expect_tx: the bytes a producer stage arms on its full barrier must be
// the bytes its TMA loads deliver there. Too few armed: the barrier's
// transaction count completes before the last load landed and the consumer
// reads a partly written tile (silent corruption). Too many: it never
// completes (hang).

// Explicit bytes: one box armed, two loaded.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x16x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x16x32xi32, strided<[512, 32, 1], offset: ?>, #WG>
!Half = memref<8x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<8x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @short_by_a_box(%desc: !Desc, %buf: memref<2x1x16x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %half = arith.constant 1024 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x16x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{expects the TMA loads that complete on this stage's full barrier to deliver the 1024 bytes that expect_tx arms, got 2048: 2 loads of 1024 bytes (box 8x32xi32)}}
      pipeline.expect_tx %s bytes(%half) : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %top = memref.subview %tiles[0, 0, 0] [1, 8, 32] [1, 1, 1] : !Tiles to !Half
      %bottom = memref.subview %tiles[0, 8, 0] [1, 8, 32] [1, 1, 1] : !Tiles to !Half
      // expected-note @+1 {{load completing on the barrier}}
      nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %top : !Desc, !Bars -> !Half
      // expected-note @+1 {{load completing on the barrier}}
      nvgpu.tma.async.load %desc[%c0, %c8], %bars[%id] to %bottom : !Desc, !Bars -> !Half
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// The default of a tile pipeline: the whole stage's payload (k_group_size
// = 2 tiles). The loop loads one tile of the two.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 3>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [memref<3x2x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 6>
gpu.module @m {
  gpu.func @one_tile_of_two(%desc: !Desc, %buf: memref<3x2x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<3x2x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{expects the TMA loads that complete on this stage's full barrier to deliver the 8192 bytes that expect_tx arms (the stage's payload: 8192 bytes), got 4096: 1 load of 4096 bytes (box 32x32xi32)}}
      pipeline.expect_tx %s : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      scf.for %k = %c0 to %c1 step %c1 {
        %dst = memref.subview %tiles[%k, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
        // expected-note @+1 {{load completing on the barrier}}
        nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %dst : !Desc, !Bars -> !Tile
      }
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// Cluster multicast (release_ctas = 2): each CTA loads half of the tile
// into both CTAs (mask 0b11), so each CTA's barrier receives both halves.
// Arming one half is short.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Half = memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @multicast_half(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %half_bytes = arith.constant 2048 : index
    %both = arith.constant 3 : i16
    %rank_i32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank_i32 : i32 to index
    %row = arith.muli %rank, %c16 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{expects the TMA loads that complete on this stage's full barrier to deliver the 2048 bytes that expect_tx arms, got 4096: 1 load of 2048 bytes (box 16x32xi32) from each of the 2 CTAs of its multicast mask}}
      pipeline.expect_tx %s bytes(%half_bytes) : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %dst = memref.subview %tiles[0, %row, 0] [1, 16, 32] [1, 1, 1] : !Tiles to !Half
      // expected-note @+1 {{load completing on the barrier}}
      nvgpu.tma.async.load %desc[%c0, %row], %bars[%id] to %dst multicast_mask = %both : !Desc, !Bars -> !Half
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// A mask computed from the cluster rank: the aligned pair of this CTA,
// 0b11 << (rank & ~1), in a cluster of any even size.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @multicast_whole_tile(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i3 = arith.constant 3 : i32
    %not1 = arith.constant -2 : i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %pair = arith.andi %rank, %not1 : i32
    %mask32 = arith.shli %i3, %pair : i32
    %mask = arith.trunci %mask32 : i32 to i16
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{got 8192: 1 load of 4096 bytes (box 32x32xi32) from each of the 2 CTAs of its multicast mask}}
      pipeline.expect_tx %s : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %dst = memref.subview %tiles[0, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
      // expected-note @+1 {{load completing on the barrier}}
      nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %dst multicast_mask = %mask : !Desc, !Bars -> !Tile
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// A mask that names the CTA at this CTA's place in each pair of a 4x1
// cluster, 0b0101 << (rank & 1): it holds the issuing CTA only for ranks
// below 4, so the check reads it for the ranks the kernel declares
// (nvvm.cluster_dim), not for every rank a cluster may have.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @pair_places_of_four(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i5 = arith.constant 5 : i32
    %one = arith.constant 1 : i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %one : i32
    %mask32 = arith.shli %i5, %odd : i32
    %mask = arith.trunci %mask32 : i32 to i16
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{got 8192: 1 load of 4096 bytes (box 32x32xi32) from each of the 2 CTAs of its multicast mask}}
      pipeline.expect_tx %s : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %dst = memref.subview %tiles[0, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
      // expected-note @+1 {{load completing on the barrier}}
      nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %dst multicast_mask = %mask : !Desc, !Bars -> !Tile
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// A CTA pair (cta_group = 2): the leader arms both CTAs' bytes, but an
// nvgpu.tma.async.load completes on the barrier of its own CTA, so the
// peer's half never reaches the leader (use nvvm.cp.async.bulk.tensor with
// cta_group::2 on the leader's barrier, as examples/gemm_sm100.mlir does).
#WG = #gpu.address_space<workgroup>
!In = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !In, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @pair_local_loads(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %in = pipeline.create -> !In
    %tp = pipeline.input_tile_pipeline %in payload(%buf : memref<2x1x32x32xi32, #WG>) : !In -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{expects the TMA loads that complete on this stage's full barrier to deliver the 8192 bytes that expect_tx arms (the stage's payload: 4096 bytes x 2 CTAs of the pair), got 4096: 1 load of 4096 bytes (box 32x32xi32); the loads of the peer CTA complete on the peer's barrier}}
      pipeline.expect_tx %s : !PS
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %dst = memref.subview %tiles[0, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
      // expected-note @+1 {{load completing on the barrier}}
      nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %dst : !Desc, !Bars -> !Tile
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}

// -----

// pipeline.tma_load on a CTA pair: both CTAs' loads complete on the
// leader's barrier, so each load counts twice; a stage of two payload
// arrays where only the A half is loaded arms twice what arrives.
#WG = #gpu.address_space<workgroup>
!In = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !In, k_group_size = 1, payload = [memref<2x1x32x64xbf16, #WG>, memref<2x1x32x64xbf16, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x64xbf16, strided<[2048, 64, 1], offset: ?>, #WG>
gpu.module @m {
  gpu.func @pair_forgets_b(%map: !llvm.ptr, %a: memref<2x1x32x64xbf16, #WG>, %b: memref<2x1x32x64xbf16, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %in = pipeline.create -> !In
    %tp = pipeline.input_tile_pipeline %in payload(%a, %b : memref<2x1x32x64xbf16, #WG>, memref<2x1x32x64xbf16, #WG>) : !In -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{expects the TMA loads that complete on this stage's full barrier to deliver the 16384 bytes that expect_tx arms (the stage's payload: 8192 bytes x 2 CTAs of the pair), got 8192: 1 load of 4096 bytes (box 1x32x64xbf16) from each CTA of the pair}}
      pipeline.expect_tx %s : !PS
      %ta = pipeline.payload %s[0] : !PS -> !Tiles
      // expected-note @+1 {{load completing on the barrier}}
      pipeline.tma_load %s, %map[%i0, %i0] -> %ta : !PS, !llvm.ptr, !Tiles
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}

// -----

// The most common Hopper mistake, written with the dialect's load: the
// producer issues its TMA loads and never arms their bytes.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x64xbf16, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x64xbf16, strided<[2048, 64, 1], offset: ?>, #WG>
gpu.module @m {
  gpu.func @never_armed(%map: !llvm.ptr, %a: memref<2x1x32x64xbf16, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a : memref<2x1x32x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+1 {{the stage handle}}
      %s = pipeline.acquire_producer %tp : !TP
      %ta = pipeline.payload %s[0] : !PS -> !Tiles
      // expected-error @+1 {{completes TMA bytes on the stage's full barrier, but no pipeline.expect_tx on this stage handle arms them: the consumers of the stage wait forever}}
      pipeline.tma_load %s, %map[%i0, %i0] -> %ta : !PS, !llvm.ptr, !Tiles
      pipeline.release %s : !PS
    }
    gpu.return
  }
}

// -----

// TMA loads (nvgpu.tma.async.load through pipeline.mbar) with no expect_tx:
// the loads only complete transaction bytes. With an arrive the phase
// completes at the arrive, before the tiles landed, and the bytes then
// count against the next phase; without one nothing arrives and every
// consumer hangs (the arrival count reports that too).
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
  gpu.func @arrive_without_arm(%da: !Desc, %db: !Desc, %a: memref<4x1x64x64xf16, #WG>, %b: memref<4x1x64x64xf16, #WG>, %k: index) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
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
          // expected-note @+1 {{the stage handle}}
          %s = pipeline.acquire_producer %tp : !TP
          %bars, %id = pipeline.mbar %s : !PS
          %ta = pipeline.payload %s[0] : !PS -> !Tile
          %tb = pipeline.payload %s[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %kx = arith.muli %kb, %c64 : index
          // expected-error @+1 {{completes TMA bytes on the stage's full barrier, but no pipeline.expect_tx on this stage handle arms them: the consumers of the stage wait forever}}
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
          pipeline.arrive %s : !PS
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
  gpu.func @neither_arm_nor_arrive(%da: !Desc, %db: !Desc, %a: memref<4x1x64x64xf16, #WG>, %b: memref<4x1x64x64xf16, #WG>, %k: index) kernel attributes {nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b : memref<4x1x64x64xf16, #WG>, memref<4x1x64x64xf16, #WG>) : !P -> !TP
    // expected-note @+1 {{arrival count set here (producer 1)}}
    pipeline.init_mbars %tp producer 1 consumer 128 : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %wg1 = arith.cmpi uge, %warp, %c4 : index
    scf.if %w0 {
      %e = nvvm.elect.sync -> i1
      scf.if %e {
        scf.for %kb = %c0 to %k step %c1 {
          // expected-note @+1 {{the stage handle}}
          %s = pipeline.acquire_producer %tp : !TP
          %bars, %id = pipeline.mbar %s : !PS
          %ta = pipeline.payload %s[0] : !PS -> !Tile
          %tb = pipeline.payload %s[1] : !PS -> !Tile
          %ba = memref.subview %ta[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %bb = memref.subview %tb[0, 0, 0] [1, 64, 64] [1, 1, 1] : !Tile to !Box
          %kx = arith.muli %kb, %c64 : index
          // expected-error @+1 {{completes TMA bytes on the stage's full barrier, but no pipeline.expect_tx on this stage handle arms them}}
          nvgpu.tma.async.load %da[%kx, %c0], %bars[%id] to %ba : !Desc, !Bars -> !Box
          nvgpu.tma.async.load %db[%kx, %c0], %bars[%id] to %bb : !Desc, !Bars -> !Box
          // expected-error @+1 {{expects 1 arrivals per phase on the full barriers of this pipeline (init_mbars producer 1), got 0: no producer visit of a stage arrives (a TMA load only completes transaction bytes; pipeline.expect_tx arms them and arrives)}}
          pipeline.release %s : !PS
        }
      }
    }
    scf.if %wg1 {
      scf.for %kb = %c0 to %k step %c1 {
        // expected-note @+1 {{waits here forever}}
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !CS
        pipeline.release %s : !CS
      }
    }
    gpu.return
  }
}
