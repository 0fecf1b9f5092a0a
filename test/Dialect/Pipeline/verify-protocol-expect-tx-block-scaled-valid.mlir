// RUN: pipeline-opt %s -pipeline-verify-protocol -verify-diagnostics
// RUN: pipeline-opt %s -convert-pipeline-to-nvgpu | FileCheck %s

// The default expect_tx of a block-scaled stage (A, B, SFA, SFB: the MXFP8
// GEMM's k-block) arms the whole payload, the scale factors included:
// 2 x 16384 + 2 x 512 = 33792 bytes, what the four TMA loads deliver (the
// protocol check accepts it). With NVFP4 (A, B as packed e2m1 bytes, 4
// atoms of UE4M3 factors) it is 2 x 16384 + 2 x 2048.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x128x128xf8E4M3FN, #WG>
!SF = memref<4x1x1x1x32x16xf8E8M0FNU, #WG>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A, !A, !SF, !SF]>
!PS = !pipeline.stage<producer, !TP>
!ATile = memref<1x128x128xf8E4M3FN, strided<[16384, 128, 1], offset: ?>, #WG>
!SFTile = memref<1x1x1x32x16xf8E8M0FNU, strided<[512, 512, 512, 16, 1], offset: ?>, #WG>
gpu.module @m {
  // CHECK-LABEL: gpu.func @scales_armed
  gpu.func @scales_armed(%a_map: !llvm.ptr, %b_map: !llvm.ptr, %sfa_map: !llvm.ptr,
                         %sfb_map: !llvm.ptr, %a: !A, %b: !A, %sfa: !SF, %sfb: !SF,
                         %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b, %sfa, %sfb : !A, !A, !SF, !SF) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // CHECK: %[[BYTES:.*]] = arith.constant 33792 : index
      // CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
      pipeline.expect_tx %s : !PS
      %ta = pipeline.payload %s[0] : !PS -> !ATile
      %tb = pipeline.payload %s[1] : !PS -> !ATile
      %tsfa = pipeline.payload %s[2] : !PS -> !SFTile
      %tsfb = pipeline.payload %s[3] : !PS -> !SFTile
      pipeline.tma_load %s, %a_map[%i0, %i0] -> %ta : !PS, !llvm.ptr, !ATile
      pipeline.tma_load %s, %b_map[%i0, %i0] -> %tb : !PS, !llvm.ptr, !ATile
      pipeline.tma_load %s, %sfa_map[%i0, %i0, %i0] -> %tsfa : !PS, !llvm.ptr, !SFTile
      pipeline.tma_load %s, %sfb_map[%i0, %i0, %i0] -> %tsfb : !PS, !llvm.ptr, !SFTile
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}
