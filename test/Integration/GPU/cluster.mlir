// Kernel family 6: the sm_90a analogue of the Blackwell 2-CTA input
// pipeline. A tile pipeline shared by the 2 CTAs of a cluster through
// `release_ctas = 2` (cta_group stays 1: sm_90a has no CTA pair), fed by
// both CTAs' multicast TMA loads.
//
// Launched with cluster dims (2, 1, 1), 64 threads per CTA. The source is a
// 256 x 128 i32 matrix, cut into 32 tiles of 32 x 32 (row-major tile order
// t = tile_row * 4 + tile_col); one tile per stage, 2 stages.
//
// Producer: lane 0 of warp 0 of EACH CTA. Per tile it acquires a stage (its
// own empty barrier), arms its own full barrier with `expect_tx` for the
// whole stage (the default: 4096 bytes, since the stage receives both
// halves), and loads its HALF of the tile (CTA rank r: rows 16 r .. 16 r + 15)
// with ONE `nvgpu.tma.async.load ... multicast_mask = 3`: the half lands at
// the same shared-memory offset in both CTAs and completes the full barrier
// at the same offset in both CTAs. So each CTA's full barrier completes when
// its producer armed it and both halves landed.
//
// Consumer: warp 1 of each CTA. It acquires the stage (own full barrier),
// copies the whole tile from its own shared memory to out[block_id], then
// every lane frees the stage with `pipeline.arrive` and ends the handle with
// `pipeline.release` (on a tile pipeline it only steps). With
// `release_ctas = 2` each arrival reaches the empty barrier of the stage in
// BOTH CTAs of the cluster (mapa + mbarrier.arrive.shared::cluster, twice),
// so every empty barrier counts 2 x 32 = 64 arrivals. This is what makes the
// multicast safe: a producer's load writes into the peer's stage too, so it
// may only overwrite a stage after the consumers of both CTAs released it.
//
// Both producers end with `drain_producer` (each waits until both CTAs'
// consumers released every stage, so no peer still arrives on this CTA's
// barriers after it exits). Barriers are initialized with `cluster`
// (cluster-wide sync: the CTAs arrive on and load into each other).
//
// The host checks that every CTA of every cluster copied the whole source
// matrix (random data), and reports leader and peer CTAs separately.
//
// Kernel cluster_cross: a 2 x 2 multicast cluster (cluster_m = cluster_n =
// 2, cluster rank r = m + 2 n, launched with cluster dims (4, 1, 1)), the
// Hopper form of CUTLASS PipelineTmaAsync with a 2-D cluster. Each stage
// holds an A tile and a B tile (32 x 32 i32 each). CTA (m, n) needs the A
// tiles of plane m of matrix A (512 x 128: plane m is rows 256 m ..) and
// the B tiles of plane n of matrix B: its producer loads half of the A
// tile (rows 16 n ..) multicast to the CTAs of its m (mask 0b0101 << m)
// and half of the B tile (rows 16 m ..) multicast to the CTAs of its n
// (mask 0b11 << 2 n), and arms its full barrier for the whole stage (8192
// bytes: 2 A halves + 2 B halves land in it). A stage of CTA (m, n) is
// written by the CTAs of its row and its column, so each consumer arrival
// must reach the row-and-column cross: 3 CTAs (the 2 of its m and the 2 of
// its n, itself once), and every empty barrier counts 3 x 32 = 96. A
// cross that missed a CTA lets a producer overwrite a stage that CTA still
// copies (wrong data) or leaves a phase short (a hang the watchdog ends).
// The host checks every CTA's copy of its A plane and its B plane.
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/cluster --cubin %t.cubin | FileCheck %s
// CHECK: cluster: {{[1-9][0-9]*}} passed, 0 failed
// CHECK-NOT: FAIL

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Half = memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
// The TMA box is half a tile: 16 rows x 32 columns.
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
!PX = !pipeline.pipeline<stages = 2, cluster_m = 2, cluster_n = 2>
!XTiles = memref<2x1x32x32xi32, #WG>
!TPX = !pipeline.tile_pipeline<pipeline = !PX, k_group_size = 1, payload = [!XTiles, !XTiles]>
!PSX = !pipeline.stage<producer, !TPX>
!CSX = !pipeline.stage<consumer, !TPX>
!XHalf = memref<1x16x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>

gpu.module @cluster {
  gpu.func @cluster_multicast(%desc: !Desc, %out: memref<16x256x128xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %not127 = arith.constant -128 : index
    %both_ctas = arith.constant 3 : i16
    %c_tiles = arith.constant 32 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %rank_i32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank_i32 : i32 to index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    // Barriers at byte 0; payload at the first 128-byte aligned shared
    // address at or after byte 64 (TMA destinations must be 128-byte
    // aligned). The offset is the same in both CTAs.
    %base = memref.extract_aligned_pointer_as_index %smem : memref<?xi8, #WG> -> index
    %a0 = arith.addi %base, %c64 : index
    %a1 = arith.addi %a0, %c127 : index
    %aligned = arith.andi %a1, %not127 : index
    %off = arith.subi %aligned, %base : index
    %buf = memref.view %smem[%off][] : memref<?xi8, #WG> to memref<2x1x32x32xi32, #WG>
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    // full: 1 arrival (this CTA's producer) + 4096 transaction bytes (both
    // halves); empty: 32 lanes x 2 CTAs.
    pipeline.init_mbars %tp producer 1 consumer 64 cluster : !TP
    %is_warp0 = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.andi %is_warp0, %is_lane0 : i1
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    // This CTA's half of every tile: rows 16 * rank .. 16 * rank + 15.
    %half_row = arith.muli %rank, %c16 : index
    scf.if %is_producer {
      nvgpu.tma.prefetch.descriptor %desc : !Desc
      scf.for %t = %c0 to %c_tiles step %c1 {
        %s = pipeline.acquire_producer %tp : !TP
        // The whole stage: this CTA's half and the peer's multicast half.
        pipeline.expect_tx %s : !PS
        %bars, %id = pipeline.mbar %s : !PS
        %tiles = pipeline.payload %s[0] : !PS -> !Tiles
        %dst = memref.subview %tiles[0, %half_row, 0] [1, 16, 32] [1, 1, 1] : !Tiles to !Half
        %tr = arith.divui %t, %c4 : index
        %tc = arith.remui %t, %c4 : index
        %tile_row0 = arith.muli %tr, %c32 : index
        %row0 = arith.addi %tile_row0, %half_row : index
        %col0 = arith.muli %tc, %c32 : index
        // Coordinates are innermost first: column, then row.
        nvgpu.tma.async.load %desc[%col0, %row0], %bars[%id] to %dst multicast_mask = %both_ctas : !Desc, !Bars -> !Half
        pipeline.release %s : !PS
      }
      pipeline.drain_producer %tp : !TP
    }
    scf.if %is_consumer {
      scf.for %t = %c0 to %c_tiles step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        %tiles = pipeline.payload %s[0] : !CS -> !Tiles
        %tr = arith.divui %t, %c4 : index
        %tc = arith.remui %t, %c4 : index
        %row0 = arith.muli %tr, %c32 : index
        %col0 = arith.muli %tc, %c32 : index
        %col = arith.addi %col0, %lane : index
        scf.for %r = %c0 to %c32 step %c1 {
          %v = memref.load %tiles[%c0, %r, %lane] : !Tiles
          %row = arith.addi %row0, %r : index
          memref.store %v, %out[%bid, %row, %col] : memref<16x256x128xi32>
        }
        // Free the stage in both CTAs (release_ctas = 2), then step.
        pipeline.arrive %s : !CS
        pipeline.release %s : !CS
      }
    }
    gpu.return
  }

  gpu.func @cluster_cross(%map_a: !llvm.ptr, %map_b: !llvm.ptr, %out: memref<16x2x256x128xi32>) kernel
      attributes {nvvm.reqntid = array<i32: 64, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %c8192 = arith.constant 8192 : index
    %not127 = arith.constant -128 : index
    %c_tiles = arith.constant 32 : index
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i3 = arith.constant 3 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %i16 = arith.constant 16 : i32
    %i32 = arith.constant 32 : i32
    %i256 = arith.constant 256 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // (m, n) of this CTA in the 2 x 2 cluster.
    %m = arith.andi %rank, %i1 : i32
    %n = arith.shrui %rank, %i1 : i32
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    // Barriers at byte 0; the A stages at the first 128-byte aligned
    // address at or after byte 64, the B stages 8 KiB after them.
    %base = memref.extract_aligned_pointer_as_index %smem : memref<?xi8, #WG> -> index
    %a0 = arith.addi %base, %c64 : index
    %a1 = arith.addi %a0, %c127 : index
    %aligned = arith.andi %a1, %not127 : index
    %a_off = arith.subi %aligned, %base : index
    %b_off = arith.addi %a_off, %c8192 : index
    %a_buf = memref.view %smem[%a_off][] : memref<?xi8, #WG> to !XTiles
    %b_buf = memref.view %smem[%b_off][] : memref<?xi8, #WG> to !XTiles
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !PX
    %tp = pipeline.input_tile_pipeline %p payload(%a_buf, %b_buf : !XTiles, !XTiles) : !PX -> !TPX
    // full: this CTA's producer + 8192 bytes; empty: 32 lanes x the 3 CTAs
    // of the cross.
    pipeline.init_mbars %tp producer 1 consumer 96 cluster : !TPX
    // A goes to the CTAs of this m (ranks m, m + 2), B to those of this n
    // (ranks 2 n, 2 n + 1).
    %mask_a32 = arith.shli %i5, %m : i32
    %mask_a = arith.trunci %mask_a32 : i32 to i16
    %n2 = arith.muli %n, %i2 : i32
    %mask_b32 = arith.shli %i3, %n2 : i32
    %mask_b = arith.trunci %mask_b32 : i32 to i16
    // This CTA loads rows 16 n .. of each A tile and 16 m .. of each B tile.
    %a_half_row = arith.muli %n, %i16 : i32
    %b_half_row = arith.muli %m, %i16 : i32
    %a_half = arith.index_cast %a_half_row : i32 to index
    %b_half = arith.index_cast %b_half_row : i32 to index
    %a_plane = arith.muli %m, %i256 : i32
    %b_plane = arith.muli %n, %i256 : i32
    %is_warp0 = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.andi %is_warp0, %is_lane0 : i1
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_producer {
      scf.for %t = %c0 to %c_tiles step %c1 {
        %s = pipeline.acquire_producer %tp : !TPX
        // The whole stage: 2 A halves and 2 B halves land here.
        pipeline.expect_tx %s : !PSX
        %a = pipeline.payload %s[0] : !PSX -> !Tiles
        %b = pipeline.payload %s[1] : !PSX -> !Tiles
        %a_dst = memref.subview %a[0, %a_half, 0] [1, 16, 32] [1, 1, 1] : !Tiles to !XHalf
        %b_dst = memref.subview %b[0, %b_half, 0] [1, 16, 32] [1, 1, 1] : !Tiles to !XHalf
        %t_i32 = arith.index_cast %t : index to i32
        %tr = arith.divui %t_i32, %i4 : i32
        %tc = arith.remui %t_i32, %i4 : i32
        %tile_row0 = arith.muli %tr, %i32 : i32
        %col0 = arith.muli %tc, %i32 : i32
        %a_r0 = arith.addi %a_plane, %tile_row0 : i32
        %a_row = arith.addi %a_r0, %a_half_row : i32
        %b_r0 = arith.addi %b_plane, %tile_row0 : i32
        %b_row = arith.addi %b_r0, %b_half_row : i32
        // Coordinates are innermost first: column, then row.
        pipeline.tma_load %s, %map_a[%col0, %a_row] -> %a_dst multicast(%mask_a) : !PSX, !llvm.ptr, !XHalf
        pipeline.tma_load %s, %map_b[%col0, %b_row] -> %b_dst multicast(%mask_b) : !PSX, !llvm.ptr, !XHalf
        pipeline.release %s : !PSX
      }
      pipeline.drain_producer %tp : !TPX
    }
    scf.if %is_consumer {
      scf.for %t = %c0 to %c_tiles step %c1 {
        %s = pipeline.acquire_consumer %tp : !TPX
        %a = pipeline.payload %s[0] : !CSX -> !Tiles
        %b = pipeline.payload %s[1] : !CSX -> !Tiles
        %tr = arith.divui %t, %c4 : index
        %tc = arith.remui %t, %c4 : index
        %row0 = arith.muli %tr, %c32 : index
        %col0 = arith.muli %tc, %c32 : index
        %col = arith.addi %col0, %lane : index
        scf.for %r = %c0 to %c32 step %c1 {
          %va = memref.load %a[%c0, %r, %lane] : !Tiles
          %vb = memref.load %b[%c0, %r, %lane] : !Tiles
          %row = arith.addi %row0, %r : index
          memref.store %va, %out[%bid, %c0, %row, %col] : memref<16x2x256x128xi32>
          memref.store %vb, %out[%bid, %c1, %row, %col] : memref<16x2x256x128xi32>
        }
        // Free the stage in the 3 CTAs of the cross, then step.
        pipeline.arrive %s : !CSX
        pipeline.release %s : !CSX
      }
    }
    gpu.return
  }
}
