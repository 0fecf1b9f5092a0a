// Kernel family 3: a TMA-fed tile pipeline.
//
// A 256 x 128 i32 matrix in global memory is cut into 32 tiles of 32 x 32
// (row-major tile order t = tile_row * 4 + tile_col). Lane 0 of warp 0 is the
// producer: per item it acquires a stage, `expect_tx`s the stage's payload
// bytes (k_group_size tiles) and issues one `nvgpu.tma.async.load` per tile
// into the stage's payload, completing on the stage's full barrier. Warp 1
// consumes in a `pipeline.consume` region: it copies each tile of the stage
// to its place in `out`, then each of its 32 lanes frees the stage with
// `pipeline.arrive` (empty count 32; on a tile pipeline the region's exit
// only steps the consumer). The host compares `out` with the
// source matrix. 3 stages; k_group_size 1 (32 items) and 2 (16 items).
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/tma_tile --cubin %t.cubin | FileCheck %s
// CHECK: tma_tile: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 3>
!TP1 = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<3x1x32x32xi32, #WG>]>
!TP2 = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [memref<3x2x32x32xi32, #WG>]>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 6>

gpu.module @tma_tile {
  // k_group_size = 1: 32 items of 1 tiles each.
  gpu.func @tma_tile_k1(%desc: !Desc, %out: memref<256x128xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %not127 = arith.constant -128 : index
    %ck = arith.constant 1 : index
    %items = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    // Barriers at byte 0; payload at the first 128-byte aligned shared
    // address at or after byte 64 (TMA destinations must be 128-byte aligned).
    %base = memref.extract_aligned_pointer_as_index %smem : memref<?xi8, #WG> -> index
    %a0 = arith.addi %base, %c64 : index
    %a1 = arith.addi %a0, %c127 : index
    %aligned = arith.andi %a1, %not127 : index
    %off = arith.subi %aligned, %base : index
    %buf = memref.view %smem[%off][] : memref<?xi8, #WG> to memref<3x1x32x32xi32, #WG>
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<3x1x32x32xi32, #WG>) : !P -> !TP1
    pipeline.init_mbars %tp producer 1 consumer 32 : !TP1
    %is_producer_warp = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer_warp {
      %is_leader = arith.cmpi eq, %lane, %c0 : index
      scf.if %is_leader {
        nvgpu.tma.prefetch.descriptor %desc : !Desc
        scf.for %j = %c0 to %items step %c1 {
          %s = pipeline.acquire_producer %tp : !TP1
          // Expect the bytes of the whole stage (1 tiles), then load them.
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP1>
          %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !TP1>
          %tiles = pipeline.payload %s[0] : !pipeline.stage<producer, !TP1> -> memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
          %t0 = arith.muli %j, %ck : index
          scf.for %k = %c0 to %ck step %c1 {
            %t = arith.addi %t0, %k : index
            %tr = arith.divui %t, %c4 : index
            %tc = arith.remui %t, %c4 : index
            %row0 = arith.muli %tr, %c32 : index
            %col0 = arith.muli %tc, %c32 : index
            %dst = memref.subview %tiles[%k, 0, 0] [1, 32, 32] [1, 1, 1] : memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG> to memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
            // Coordinates are innermost first: column, then row.
            nvgpu.tma.async.load %desc[%col0, %row0], %bars[%id] to %dst : !Desc, !Bars -> memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
          }
          pipeline.release %s : !pipeline.stage<producer, !TP1>
        }
        pipeline.drain_producer %tp : !TP1
      }
    } else {
      scf.for %j = %c0 to %items step %c1 {
        pipeline.consume %tp as %s : !TP1 {
          %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP1> -> memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
          %t0 = arith.muli %j, %ck : index
          scf.for %k = %c0 to %ck step %c1 {
            %t = arith.addi %t0, %k : index
            %tr = arith.divui %t, %c4 : index
            %tc = arith.remui %t, %c4 : index
            %row0 = arith.muli %tr, %c32 : index
            %col0 = arith.muli %tc, %c32 : index
            %col = arith.addi %col0, %lane : index
            scf.for %r = %c0 to %c32 step %c1 {
              %v = memref.load %tiles[%k, %r, %lane] : memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
              %row = arith.addi %row0, %r : index
              memref.store %v, %out[%row, %col] : memref<256x128xi32>
            }
          }
          // Every lane frees the stage (empty count 32): on a tile pipeline
          // the exit of pipeline.consume only steps.
          pipeline.arrive %s : !pipeline.stage<consumer, !TP1>
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  // k_group_size = 2: 16 items of 2 tiles each.
  gpu.func @tma_tile_k2(%desc: !Desc, %out: memref<256x128xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %not127 = arith.constant -128 : index
    %ck = arith.constant 2 : index
    %items = arith.constant 16 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    // Barriers at byte 0; payload at the first 128-byte aligned shared
    // address at or after byte 64 (TMA destinations must be 128-byte aligned).
    %base = memref.extract_aligned_pointer_as_index %smem : memref<?xi8, #WG> -> index
    %a0 = arith.addi %base, %c64 : index
    %a1 = arith.addi %a0, %c127 : index
    %aligned = arith.andi %a1, %not127 : index
    %off = arith.subi %aligned, %base : index
    %buf = memref.view %smem[%off][] : memref<?xi8, #WG> to memref<3x2x32x32xi32, #WG>
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<3x2x32x32xi32, #WG>) : !P -> !TP2
    pipeline.init_mbars %tp producer 1 consumer 32 : !TP2
    %is_producer_warp = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer_warp {
      %is_leader = arith.cmpi eq, %lane, %c0 : index
      scf.if %is_leader {
        nvgpu.tma.prefetch.descriptor %desc : !Desc
        scf.for %j = %c0 to %items step %c1 {
          %s = pipeline.acquire_producer %tp : !TP2
          // Expect the bytes of the whole stage (2 tiles), then load them.
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP2>
          %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !TP2>
          %tiles = pipeline.payload %s[0] : !pipeline.stage<producer, !TP2> -> memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
          %t0 = arith.muli %j, %ck : index
          scf.for %k = %c0 to %ck step %c1 {
            %t = arith.addi %t0, %k : index
            %tr = arith.divui %t, %c4 : index
            %tc = arith.remui %t, %c4 : index
            %row0 = arith.muli %tr, %c32 : index
            %col0 = arith.muli %tc, %c32 : index
            %dst = memref.subview %tiles[%k, 0, 0] [1, 32, 32] [1, 1, 1] : memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG> to memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
            // Coordinates are innermost first: column, then row.
            nvgpu.tma.async.load %desc[%col0, %row0], %bars[%id] to %dst : !Desc, !Bars -> memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
          }
          pipeline.release %s : !pipeline.stage<producer, !TP2>
        }
        pipeline.drain_producer %tp : !TP2
      }
    } else {
      scf.for %j = %c0 to %items step %c1 {
        pipeline.consume %tp as %s : !TP2 {
          %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP2> -> memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
          %t0 = arith.muli %j, %ck : index
          scf.for %k = %c0 to %ck step %c1 {
            %t = arith.addi %t0, %k : index
            %tr = arith.divui %t, %c4 : index
            %tc = arith.remui %t, %c4 : index
            %row0 = arith.muli %tr, %c32 : index
            %col0 = arith.muli %tc, %c32 : index
            %col = arith.addi %col0, %lane : index
            scf.for %r = %c0 to %c32 step %c1 {
              %v = memref.load %tiles[%k, %r, %lane] : memref<2x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
              %row = arith.addi %row0, %r : index
              memref.store %v, %out[%row, %col] : memref<256x128xi32>
            }
          }
          // Every lane frees the stage (empty count 32): on a tile pipeline
          // the exit of pipeline.consume only steps.
          pipeline.arrive %s : !pipeline.stage<consumer, !TP2>
          pipeline.yield
        }
      }
    }
    gpu.return
  }
}
