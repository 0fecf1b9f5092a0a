// REQUIRES: ptxas
// pipeline.tma_load: the pipeline's own TMA traffic without raw NVVM.
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: test -s %t.cubin

// A cta_group = 2 tile pipeline (the 2-SM input pipeline): each CTA of the
// pair loads its own half into its own shared memory; the loads complete on
// the stage's full barrier in the LEADER CTA (cluster rank & ~1), where the
// leader armed 2 x 8 KiB (both CTAs' payload). The hardware must see
// `.cta_group::2` and, as the barrier operand, the leader's barrier
// (mapa to rank & ~1), never this CTA's own.
#WG = #gpu.address_space<workgroup>
!In = !pipeline.pipeline<stages = 2, cta_group = 2>
!Tiles = memref<2x1x64x64xbf16, #WG>
!TP = !pipeline.tile_pipeline<pipeline = !In, k_group_size = 1, payload = [!Tiles]>
!Stage = memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
!Smem = memref<?xi8, #WG>
module attributes {gpu.container_module} {
gpu.module @m {
  gpu.func @pair_load(%map: !llvm.ptr, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1024 = arith.constant 1024 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i64 = arith.constant 64 : i32
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !In
    %tiles = memref.view %smem[%c1024][] : !Smem to !Tiles
    %tp = pipeline.input_tile_pipeline %p payload(%tiles : !Tiles) : !In -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %lane0 {
      scf.for %k = %i0 to %n step %i1 : i32 {
        %s = pipeline.acquire_producer %tp : !TP
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
        %a = pipeline.payload %s[0] : !pipeline.stage<producer, !TP> -> !Stage
        %k0 = arith.muli %k, %i64 : i32
        pipeline.tma_load %s, %map[%k0, %i0] -> %a : !pipeline.stage<producer, !TP>, !llvm.ptr, !Stage
        pipeline.release %s : !pipeline.stage<producer, !TP>
      }
      pipeline.drain_producer %tp : !TP
    }
    gpu.return
  }

  // Cluster multicast (cta_group = 1, 2 CTAs): each CTA loads half of the
  // shared 64 x 64 tile and multicasts it to both (mask 0b11); each CTA's
  // own full barrier receives both halves (2 x 4 KiB = the 8 KiB its
  // expect_tx arms).
  gpu.func @multicast_load(%map: !llvm.ptr, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c1024 = arith.constant 1024 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i32 = arith.constant 32 : i32
    %mask = arith.constant 3 : i16
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !pipeline.pipeline<stages = 2, release_ctas = 2>
    %tiles = memref.view %smem[%c1024][] : !Smem to !Tiles
    %tp = pipeline.input_tile_pipeline %p payload(%tiles : !Tiles)
        : !pipeline.pipeline<stages = 2, release_ctas = 2> -> !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>
    %tid = gpu.thread_id x
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %row = arith.muli %rank, %i32 : i32
    %row_idx = arith.index_cast %rank : i32 to index
    %half_off = arith.muli %row_idx, %c32 : index
    scf.if %lane0 {
      scf.for %k = %i0 to %n step %i1 : i32 {
        %s = pipeline.acquire_producer %tp : !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>
        pipeline.expect_tx %s : !pipeline.stage<producer, !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>>
        %a = pipeline.payload %s[0] : !pipeline.stage<producer, !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>> -> !Stage
        %half = memref.subview %a[0, %half_off, 0] [1, 32, 64] [1, 1, 1] : !Stage to memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.tma_load %s, %map[%i0, %row] -> %half multicast(%mask)
            : !pipeline.stage<producer, !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>>, !llvm.ptr, memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.release %s : !pipeline.stage<producer, !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>>
      }
      pipeline.drain_producer %tp : !pipeline.tile_pipeline<pipeline = <stages = 2, release_ctas = 2>, k_group_size = 1, payload = [!Tiles]>
    }
    gpu.return
  }
}
}

// pair_load: the leader (rank & 1 == 0) arms 16384 bytes (2 x 64 x 64
// bf16: both CTAs' halves) on its own full barrier; every CTA maps the
// stage's full barrier to the leader (rank & -2) and its load completes
// there, with .cta_group::2, into its own stage buffer (1024 + stage x
// 8192).
// CHECK-LABEL: .entry pair_load(
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK-DAG:   and.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
// CHECK-DAG:   and.b32 [[LEADER:%r[0-9]+]], [[RANK]], -2;
// CHECK:       setp.eq.b32 [[ISLEADER:%p[0-9]+]], [[ODD]], 0;
// CHECK:       mbarrier.try_wait.parity.shared.b64
// CHECK:       mov.b32 [[BYTES:%r[0-9]+]], 16384;
// CHECK:       @[[ISLEADER]] mbarrier.arrive.expect_tx.shared.b64 _, [{{%r[0-9]+}}], [[BYTES]];
// CHECK:       mapa.shared::cluster.u64 [[LFULL:%rd[0-9]+]], [[FULL:%rd[0-9]+]], [[LEADER]];
// CHECK:       mul.wide.u32 {{%rd[0-9]+}}, {{%r[0-9]+}}, 8192;
// CHECK:       cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[LFULL]]];
// CHECK-NOT:   cp.async.bulk.tensor
// CHECK-LABEL: .entry multicast_load(

// multicast_load: each CTA arms 8192 bytes on its own full barrier (its
// whole stage: both CTAs' halves land there) and its load of 32 rows at
// row rank x 32 goes to both CTAs (mask 3), completing on each CTA's own
// full barrier at the same offset: no mapa, no .cta_group.
// CHECK-NOT:   mapa
// CHECK:       mov.b32 [[MBYTES:%r[0-9]+]], 8192;
// CHECK-NEXT:  mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [[[MFULL:%rd[0-9]+]]], [[MBYTES]];
// CHECK:       mov.b16 [[MASK:%rs[0-9]+]], 3;
// CHECK-NEXT:  cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[MFULL]]], [[MASK]];
