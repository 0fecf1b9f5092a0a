// Kernel family 6: a pipeline shared by the 2 CTAs of a cluster
// (cta_group = 2), fed by a multicast TMA load.
//
// Launched with cluster dims (2, 1, 1); CTA rank 0 is the leader. Only the
// leader has a producer (lane 0 of warp 0). Per tile it acquires a stage on
// its own empty barrier, `expect_tx`s one tile (4096 bytes) on its own full
// barrier and, through `nvvm.mapa`, on the peer CTA's full barrier, then
// issues ONE `nvgpu.tma.async.load` with multicast mask 0b11: the tile lands
// at the same shared-memory offset in both CTAs and completes both CTAs' full
// barriers. Warp 1 of each CTA consumes the tile from its own shared memory,
// writes it to out[block_id] and releases the stage: with cta_group = 2 the
// release arrives on the LEADER's empty barrier (a remote arrive from CTA 1),
// so the leader's empty barriers count 64 arrivals (2 warps of 32 lanes).
// Before exiting, the leader's producer waits with `drain_producer` until
// both CTAs released every stage. Barriers are initialized with `cluster`
// (cluster-wide sync) since CTAs arrive on each other's barriers.
//
// The host checks that each CTA of each cluster copied the whole 256 x 128
// source matrix (32 tiles of 32 x 32, row-major tile order).
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/cluster --cubin %t.cubin | FileCheck %s
// CHECK: cluster: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Tile = memref<32x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<32x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>

gpu.module @cluster {
  gpu.func @cluster_multicast(%desc: !Desc, %out: memref<16x256x128xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c127 = arith.constant 127 : index
    %not127 = arith.constant -128 : index
    %c4096 = arith.constant 4096 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c4096_i32 = arith.constant 4096 : i32
    %both_ctas = arith.constant 3 : i16
    %c_tiles = arith.constant 32 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %base = memref.extract_aligned_pointer_as_index %smem : memref<?xi8, #WG> -> index
    %a0 = arith.addi %base, %c64 : index
    %a1 = arith.addi %a0, %c127 : index
    %aligned = arith.andi %a1, %not127 : index
    %off = arith.subi %aligned, %base : index
    %buf = memref.view %smem[%off][] : memref<?xi8, #WG> to memref<2x1x32x32xi32, #WG>
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 64 cluster : !TP
    %is_leader_cta = arith.cmpi eq, %rank, %c0_i32 : i32
    %is_warp0 = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    %w0l0 = arith.andi %is_warp0, %is_lane0 : i1
    %is_producer = arith.andi %w0l0, %is_leader_cta : i1
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_producer {
      scf.for %t = %c0 to %c_tiles step %c1 {
        %s = pipeline.acquire_producer %tp : !TP
        // This CTA receives one tile per stage.
        pipeline.expect_tx %s bytes(%c4096) : !PS
        %bars, %id = pipeline.mbar %s : !PS
        // So does the peer CTA: arrive.expect_tx on its full barrier, which
        // sits at the same shared-memory offset as ours.
        %addr = nvgpu.mbarrier.get %bars[%id] : !Bars -> i32
        %local = llvm.inttoptr %addr : i32 to !llvm.ptr<3>
        %remote = nvvm.mapa %local, %c1_i32 : !llvm.ptr<3> -> !llvm.ptr<7>
        nvvm.mbarrier.arrive.expect_tx %remote, %c4096_i32 {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>, i32
        %tiles = pipeline.payload %s[0] : !PS -> !Tiles
        %dst = memref.subview %tiles[0, 0, 0] [1, 32, 32] [1, 1, 1] : !Tiles to !Tile
        %tr = arith.divui %t, %c4 : index
        %tc = arith.remui %t, %c4 : index
        %row0 = arith.muli %tr, %c32 : index
        %col0 = arith.muli %tc, %c32 : index
        nvgpu.tma.async.load %desc[%col0, %row0], %bars[%id] to %dst multicast_mask = %both_ctas : !Desc, !Bars -> !Tile
        pipeline.release %s : !PS
      }
      pipeline.drain_producer %tp : !TP
    }
    scf.if %is_consumer {
      scf.for %t = %c0 to %c_tiles step %c1 {
        pipeline.consume %tp as %s : !TP {
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
          pipeline.yield
        }
      }
    }
    gpu.return
  }
}
