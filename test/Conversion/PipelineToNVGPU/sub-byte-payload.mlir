// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// A stage of sub-byte elements (the block-scaled formats SM100 is built
// for) is counted in bits: TMA packs a 64x128 FP4 tile into 4096 bytes and
// signals 4096 transaction bytes, so the default expect_tx arms 4096, not
// 8192 (one byte per element would leave every stage waiting for 4096
// bytes that never come). FP6 packs 64x128 into 6144 bytes; an FP8 scale
// tile of 64x4 adds its 256 bytes.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x128xf4E2M1FN, #WG>]>
gpu.module @m {
  // CHECK-LABEL: gpu.func @fp4_expect_tx
  gpu.func @fp4_expect_tx(%buf: memref<2x1x64x128xf4E2M1FN, #WG>) kernel {
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x128xf4E2M1FN, #WG>) : !P -> !TP
    %s = pipeline.acquire_producer %tp : !TP
    // CHECK:      %[[BYTES:.*]] = arith.constant 4096 : index
    // CHECK:      nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
    pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
    pipeline.release %s : !pipeline.stage<producer, !TP>
    gpu.return
  }
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x128xf6E2M3FN, #WG>, memref<2x1x64x4xf8E4M3FN, #WG>]>
gpu.module @m {
  // CHECK-LABEL: gpu.func @fp6_and_scales
  gpu.func @fp6_and_scales(%a: memref<2x1x64x128xf6E2M3FN, #WG>, %sf: memref<2x1x64x4xf8E4M3FN, #WG>) kernel {
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %sf : memref<2x1x64x128xf6E2M3FN, #WG>, memref<2x1x64x4xf8E4M3FN, #WG>) : !P -> !TP
    %s = pipeline.acquire_producer %tp : !TP
    // CHECK:      %[[BYTES:.*]] = arith.constant 6400 : index
    // CHECK:      nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
    pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
    pipeline.release %s : !pipeline.stage<producer, !TP>
    gpu.return
  }
}

