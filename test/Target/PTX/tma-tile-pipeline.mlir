// REQUIRES: ptxas
// RUN: pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t.sm_90a
// RUN: FileCheck %s --input-file=%t.sm_90a.ptx
// RUN: test -s %t.sm_90a.cubin
// RUN: pipeline-compile %s --chip=sm_100a --cuda-path=%cuda_path -o %t.sm_100a
// RUN: FileCheck %s --input-file=%t.sm_100a.ptx
// RUN: test -s %t.sm_100a.cubin

// A TMA-fed tile pipeline in dynamic shared memory: barriers at offset 0,
// 3 stages of two 64x64 f16 tiles at offset 1024. Lane 0 of warp 0 waits
// for a free stage, expects the stage's bytes and issues one TMA load per
// tile on the stage's full barrier (pipeline.mbar passed straight to
// nvgpu.tma.async.load); warp 1 consumes.

!P = !pipeline.pipeline<stages = 3>
!smem = memref<3x2x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [!smem]>
!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!tiles = memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!tile = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
module attributes {gpu.container_module} {
gpu.module @tma {
  gpu.func @tma_sum(%a: !desc, %out: memref<32xf32>, %num_k: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c1024 = arith.constant 1024 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #gpu.address_space<workgroup>> -> !P
    %buf = memref.view %smem[%c1024][] : memref<?xi8, #gpu.address_space<workgroup>> to !smem
    %tp = pipeline.input_tile_pipeline %p payload(%buf : !smem) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %leader = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.if %leader {
        scf.for %k = %c0 to %num_k step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !TP>
          %tiles = pipeline.payload %s[0] : !pipeline.stage<producer, !TP> -> !tiles
          scf.for %j = %c0 to %c2 step %c1 {
            %dst = memref.subview %tiles[%j, 0, 0] [1, 64, 64] [1, 1, 1] : !tiles to !tile
            %kk = arith.muli %k, %c2 : index
            %kj = arith.addi %kk, %j : index
            %row = arith.muli %kj, %c64 : index
            nvgpu.tma.async.load %a[%c0, %row], %bars[%id] to %dst : !desc, !G -> !tile
          }
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        pipeline.drain_producer %tp : !TP
      }
    } else {
      %acc = scf.for %k = %c0 to %num_k step %c1 iter_args(%sum = %c0) -> index {
        %s = pipeline.acquire_consumer %tp : !TP
        %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP> -> !tiles
        %v = memref.load %tiles[%c1, %lane, %c0] : !tiles
        %i = arith.fptoui %v : f16 to i32
        %ii = arith.index_cast %i : i32 to index
        %sum2 = arith.addi %sum, %ii : index
        %all = arith.constant -1 : i32
        nvvm.bar.warp.sync %all : i32
        scf.if %leader {
          pipeline.arrive %s : !pipeline.stage<consumer, !TP>
        }
        pipeline.release_without_signal %s : !pipeline.stage<consumer, !TP>
        scf.yield %sum2 : index
      }
      %r = arith.index_cast %acc : index to i32
      %f = arith.sitofp %r : i32 to f32
      memref.store %f, %out[%lane] : memref<32xf32>
    }
    gpu.return
  }
}
}

// Dynamic shared memory is an .extern array placed after all static shared
// memory, 1024-byte aligned.
// CHECK:      .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// The descriptor is the first parameter, a pointer to the CUtensorMap.
// CHECK:      .entry tma_sum(
// CHECK-NEXT:   .param .u64 .ptr .align 1 tma_sum_param_0,
// CHECK-NEXT:   .param .u64 .ptr .align 1 tma_sum_param_1,
// CHECK-NEXT:   .param .u64 tma_sum_param_2
// CHECK-COUNT-6: mbarrier.init.shared.b64 [__dynamic_shmem__0{{(\+[0-9]+)?}}], %r{{[0-9]+}};
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK:      ld.param.b64 [[DESC:%rd[0-9]+]], [tma_sum_param_0];
// Producer: wait on empty (+24), then arrive.expect_tx on full with the
// bytes of one stage (2 tiles * 64 * 64 * 2 bytes), then two TMA loads that
// complete the transaction on the same barrier.
// CHECK:      add.s32 [[EMPTY:%r[0-9]+]], %r{{[0-9]+}}, 24;
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1, [[[EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CHECK:      mov.b32 [[BYTES:%r[0-9]+]], 16384;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [[[FULL:%rd[0-9]+]]], [[BYTES]];
// CHECK:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DESC]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// CHECK:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DESC]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// CHECK-NOT:  .local
