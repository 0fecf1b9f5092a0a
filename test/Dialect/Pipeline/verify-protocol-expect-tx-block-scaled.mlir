// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// A block-scaled stage (the reference's BlockScaledTilePayload: A, B and
// their scale factors SFA, SFB; the MXFP8 GEMM's k-block: 128 x 128 e4m3
// each, 512 bytes of UE8M0 factors each) armed with the bytes of A and B
// only: the scale factors' 1024 bytes still land on the full barrier after
// its transaction count completed, so the MMA may read stale factors.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x128x128xf8E4M3FN, #WG>
!SF = memref<4x1x1x1x32x16xf8E8M0FNU, #WG>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A, !A, !SF, !SF]>
!PS = !pipeline.stage<producer, !TP>
!ATile = memref<1x128x128xf8E4M3FN, strided<[16384, 128, 1], offset: ?>, #WG>
!SFTile = memref<1x1x1x32x16xf8E8M0FNU, strided<[512, 512, 512, 16, 1], offset: ?>, #WG>
gpu.module @m {
  gpu.func @scales_not_armed(%a_map: !llvm.ptr, %b_map: !llvm.ptr, %sfa_map: !llvm.ptr,
                             %sfb_map: !llvm.ptr, %a: !A, %b: !A, %sfa: !SF, %sfb: !SF,
                             %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %ab_bytes = arith.constant 32768 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%a, %b, %sfa, %sfb : !A, !A, !SF, !SF) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %tp : !TP
      // expected-error @+1 {{expects the TMA loads that complete on this stage's full barrier to deliver the 32768 bytes that expect_tx arms, got 33792: 2 loads of 512 bytes (box 1x1x1x32x16xf8E8M0FNU) + 2 loads of 16384 bytes (box 1x128x128xf8E4M3FN)}}
      pipeline.expect_tx %s bytes(%ab_bytes) : !PS
      %ta = pipeline.payload %s[0] : !PS -> !ATile
      %tb = pipeline.payload %s[1] : !PS -> !ATile
      %tsfa = pipeline.payload %s[2] : !PS -> !SFTile
      %tsfb = pipeline.payload %s[3] : !PS -> !SFTile
      // expected-note @+1 {{load completing on the barrier}}
      pipeline.tma_load %s, %a_map[%i0, %i0] -> %ta : !PS, !llvm.ptr, !ATile
      // expected-note @+1 {{load completing on the barrier}}
      pipeline.tma_load %s, %b_map[%i0, %i0] -> %tb : !PS, !llvm.ptr, !ATile
      // expected-note @+1 {{load completing on the barrier}}
      pipeline.tma_load %s, %sfa_map[%i0, %i0, %i0] -> %tsfa : !PS, !llvm.ptr, !SFTile
      // expected-note @+1 {{load completing on the barrier}}
      pipeline.tma_load %s, %sfb_map[%i0, %i0, %i0] -> %tsfb : !PS, !llvm.ptr, !SFTile
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %tp : !TP
    gpu.return
  }
}
