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
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/cluster --cubin %t.cubin | FileCheck %s
// CHECK: cluster: {{[1-9][0-9]*}} passed, 0 failed

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
}
