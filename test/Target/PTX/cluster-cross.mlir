// REQUIRES: ptxas
// RUN: pipeline-opt %s -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: pipeline-compile --unroll-stages=false %s --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: test -s %t.cubin
// RUN: pipeline-sim %t.ptx --kernel=cross_2x2 --grid=8 --cluster=4 --block=64 --arg=tmap:4096 --arg=tmap:8192 --arg=5 --schedules=3 | FileCheck %s --check-prefix=SIM22
// RUN: pipeline-sim %t.ptx --kernel=cross_4x1 --grid=8 --cluster=4 --block=64 --arg=tmap:8192 --arg=tmap:4096 --arg=5 --schedules=3 | FileCheck %s --check-prefix=SIM41
// RUN: pipeline-sim %t.ptx --kernel=cross_4x4 --grid=16 --cluster=16 --block=64 --arg=tmap:2048 --arg=tmap:4096 --arg=5 --schedules=3 | FileCheck %s --check-prefix=SIM44
// A cluster of 8 holding two aligned 2 x 2 multicast clusters: each block
// of 4 CTAs keeps its own cross (the masks shifted to the block).
// RUN: sed 's/nvvm.cluster_dim = array<i32: 4, 1, 1>} {/nvvm.cluster_dim = array<i32: 8, 1, 1>} {/' %s > %t.c8.mlir
// RUN: pipeline-compile --verify-protocol=true %t.c8.mlir --chip=sm_100a --emit=ptx -o %t.c8.ptx
// RUN: pipeline-sim %t.c8.ptx --kernel=cross_2x2 --grid=16 --cluster=8 --block=64 --arg=tmap:4096 --arg=tmap:8192 --arg=5 --schedules=3 | FileCheck %s --check-prefix=SIM22
// A count one short of the cross (4 instead of 5 leaders): the fifth
// commit of every phase lands in the next one.
// RUN: sed 's/consumer 5 cluster/consumer 4 cluster/' %s > %t.short.mlir
// RUN: not pipeline-opt %t.short.mlir -pipeline-verify-protocol -o /dev/null 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: pipeline-compile --verify-protocol=false %t.short.mlir --chip=sm_100a --emit=ptx -o %t.short.ptx
// RUN: not pipeline-sim %t.short.ptx --kernel=cross_4x4 --grid=16 --cluster=16 --block=64 --arg=tmap:2048 --arg=tmap:4096 --arg=5 | FileCheck %s --check-prefix=SHORT

// The 2-SM input pipeline in a multicast cluster of cluster_m x cluster_n
// CTAs (CUTLASS's fastest SM100 GEMM shapes 2x2, 4x1, 4x4; 2x1 is the
// plain pair, test cta-pair.mlir). Cluster rank = m + n * cluster_m. Each
// CTA's TMA producer loads a slice of its A tile multicast along N (to the
// CTAs of its m) and a slice of its half of the pair's B tile multicast
// along M (to the CTAs of its n at the same place in their pair); every
// load completes on the leader's full barrier of its destination
// (.cta_group::2), where the leader arms both CTAs' whole stage (2 x 16
// KiB). A stage of CTA (m, n) is therefore written by the CTAs of its rows
// and columns, and the leader's MMA must free it in every one of them: its
// tcgen05.commit multicasts to the row-and-column cross (CUTLASS
// PipelineTmaUmmaAsync::consumer_release with
// calculate_multicast_mask<kRowCol>): the CTAs of every n whose m is in the
// pair, and the CTAs of this n. Each CTA's empty barrier then counts
// cluster_m / 2 + cluster_n - 1 commits per phase (CUTLASS
// multicast_consumer_arrival_count), the init_mbars consumer counts below.
//
// What the hardware must see, per kernel: the commit's mask is
// (P << (rank % cluster_m & -2)) | (((1 << cluster_m) - 1) << (rank - rank %
// cluster_m)), with P the pair's CTAs at m = 0, 1 of every n (each kernel
// declares its cluster, nvvm.cluster_dim: .reqnctapercluster, so LLVM knows
// the rank's range and folds what it can): 2x2 and 4x1: the whole cluster,
// 15 (2x2: the pair's two rows are all 4 CTAs; 4x1: the one row is); 4x4:
// P = 0x3333 shifted by rank & 2, row 0xF shifted by rank & -4 (& 12). The loads: the leader arms 32768 bytes (both CTAs'
// 16 KiB stage); A goes to the CTAs of this m (2x2: 0b0101 << m, 4x4:
// 0x1111 << m), B to the CTAs of this n at this place in their pair (4x1,
// 4x4: 0b0101 << (n * cluster_m + m % 2)), both completing on the mapped
// leader barrier with .cta_group::2.
// The simulator runs each kernel on its cluster and finds every phase of
// every barrier exact (no deadlock, no partial phase, no excess bytes).

// SIM22-COUNT-4: cross_2x2 ({{.*}}): completed
// SIM41-COUNT-4: cross_4x1 ({{.*}}): completed
// SIM44-COUNT-4: cross_4x4 ({{.*}}): completed
// COUNT: error: expects 4 arrivals per phase on the empty barriers of CTA (m 0, n 0) of the cluster of this pipeline (init_mbars consumer 4), got 5: 1 warp commits (tcgen05.commit) in each of 5 CTAs
// SHORT: cross_4x4 (round-robin): FAILED
// SHORT: partial-phase: mbarrier {{.*}} ended with 3 of the 4 arrivals of its phase

// CHECK-LABEL: .entry cross_2x2(
// CHECK:       .reqnctapercluster 4, 1, 1
// CHECK:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CHECK:       mov.b16 [[A5:%rs[0-9]+]], 5;
// CHECK-NEXT:  shl.b16 [[AMASK:%rs[0-9]+]], [[A5]], {{%r[0-9]+}};
// CHECK:       mov.b32 [[BYTES:%r[0-9]+]], 32768;
// CHECK:       @{{%p[0-9]+}} mbarrier.arrive.expect_tx.shared.b64 _, [{{%r[0-9]+}}], [[BYTES]];
// CHECK:       mapa.shared::cluster.u64 [[LFULL:%rd[0-9]+]], {{%rd[0-9]+}}, {{%r[0-9]+}};
// CHECK:       cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[LFULL]]], [[AMASK]];
// CHECK:       cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [{{%rd[0-9]+}}], [{{%rd[0-9]+}}, {{{%r[0-9]+}}, {{%r[0-9]+}}}], [[[LFULL]]], {{%rs[0-9]+}};
// CHECK:       mov.b16 [[MASK22:%rs[0-9]+]], 15;
// CHECK-NEXT:  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%rd[0-9]+}}], [[MASK22]];
// CHECK-NOT:   mbarrier.arrive{{.*}}shared::cluster

// CHECK-LABEL: .entry cross_4x1(
// CHECK:       .reqnctapercluster 4, 1, 1
// CHECK:       mov.b16 [[B5:%rs[0-9]+]], 5;
// CHECK-NEXT:  shl.b16 {{%rs[0-9]+}}, [[B5]], {{%r[0-9]+}};
// CHECK:       mov.b32 {{%r[0-9]+}}, 32768;
// CHECK:       mov.b16 [[MASK41:%rs[0-9]+]], 15;
// CHECK-NEXT:  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%rd[0-9]+}}], [[MASK41]];

// CHECK-LABEL: .entry cross_4x4(
// CHECK:       .reqnctapercluster 16, 1, 1
// CHECK:       mov.u32 [[RANK44:%r[0-9]+]], %cluster_ctarank;
// CHECK:       mov.b16 [[A1111:%rs[0-9]+]], 4369;
// CHECK-NEXT:  shl.b16 {{%rs[0-9]+}}, [[A1111]], {{%r[0-9]+}};
// CHECK:       mov.b32 {{%r[0-9]+}}, 32768;
// CHECK:       and.b32 [[PB44:%r[0-9]+]], [[RANK44]], 2;
// CHECK-NEXT:  mov.b32 [[P3333:%r[0-9]+]], 13107;
// CHECK-NEXT:  shl.b32 [[PAIR44:%r[0-9]+]], [[P3333]], [[PB44]];
// CHECK-NEXT:  and.b32 [[RB44:%r[0-9]+]], [[RANK44]], {{12|-4}};
// CHECK-NEXT:  mov.b32 [[R15B:%r[0-9]+]], 15;
// CHECK-NEXT:  shl.b32 [[ROW44:%r[0-9]+]], [[R15B]], [[RB44]];
// CHECK-NEXT:  or.b32 [[M44:%r[0-9]+]], [[PAIR44]], [[ROW44]];
// CHECK-NEXT:  cvt.u16.u32 [[MASK44:%rs[0-9]+]], [[M44]];
// CHECK:       tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [{{%rd[0-9]+}}], [[MASK44]];

#WG = #gpu.address_space<workgroup>
!A = memref<2x1x64x64xbf16, #WG>
!B = memref<2x1x64x64xbf16, #WG>
!St = memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
!P22 = !pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 2, cluster_n = 2>
!TP22 = !pipeline.tile_pipeline<pipeline = !P22, k_group_size = 1, payload = [!A, !B]>
!P41 = !pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 4, cluster_n = 1>
!TP41 = !pipeline.tile_pipeline<pipeline = !P41, k_group_size = 1, payload = [!A, !B]>
!P44 = !pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 4, cluster_n = 4>
!TP44 = !pipeline.tile_pipeline<pipeline = !P44, k_group_size = 1, payload = [!A, !B]>
module attributes {gpu.container_module} {
gpu.module @cross {
  // 2 x 2: A slices of 32 rows (one per n), B slices of 64
  // rows (one per pair along M); each CTA's empty barrier counts the
  // commits of 1 + 2 - 1 = 2 leaders.
  gpu.func @cross_2x2(%map_a: !llvm.ptr, %map_b: !llvm.ptr, %iters: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i32 = arith.constant 32 : i32
    %i64 = arith.constant 64 : i32
    %cm = arith.constant 2 : i32
    %ctas = arith.constant 4 : i32
    %a_rows = arith.constant 32 : i32
    %b_rows = arith.constant 64 : i32
    %col = arith.constant 5 : i32
    %pairs = arith.constant 1 : i32
    %a_buf = memref.alloca() : !A
    %b_buf = memref.alloca() : !B
    %p = pipeline.create -> !P22
    %tp = pipeline.input_tile_pipeline %p payload(%a_buf, %b_buf : !A, !B) : !P22 -> !TP22
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP22
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // (m, n) within the aligned block of cluster_m x cluster_n CTAs that
    // holds this CTA (the whole cluster when it has that size).
    %local = arith.remui %rank, %ctas : i32
    %block = arith.subi %rank, %local : i32
    %m = arith.remui %local, %cm : i32
    %n = arith.divui %local, %cm : i32
    // A (this CTA's M rows) is multicast along N: to the CTAs of this m.
    %mask_a_local = arith.shli %col, %m : i32
    %mask_a32 = arith.shli %mask_a_local, %block : i32
    %mask_a = arith.trunci %mask_a32 : i32 to i16
    // B (this CTA's half of the pair's N columns) is multicast along M: to
    // the CTAs of this n at the same place in their pair.
    %half = arith.andi %m, %i1 : i32
    %n_base = arith.muli %n, %cm : i32
    %b_base = arith.addi %n_base, %half : i32
    %mask_b_local = arith.shli %pairs, %b_base : i32
    %mask_b32 = arith.shli %mask_b_local, %block : i32
    %mask_b = arith.trunci %mask_b32 : i32 to i16
    // This CTA loads slice n of A and slice m / 2 of B.
    %a_first = arith.muli %n, %a_rows : i32
    %pair = arith.divui %m, %i2 : i32
    %b_first = arith.muli %pair, %b_rows : i32
    %a_off = arith.index_cast %a_first : i32 to index
    %b_off = arith.index_cast %b_first : i32 to index
    %tid = gpu.thread_id x
    %tid32 = arith.index_cast %tid : index to i32
    %producer = arith.cmpi eq, %tid32, %i0 : i32
    scf.if %producer {
      scf.for %k = %i0 to %iters step %i1 : i32 {
        %s = pipeline.acquire_producer %tp : !TP22
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP22>
        %a = pipeline.payload %s[0] : !pipeline.stage<producer, !TP22> -> !St
        %b = pipeline.payload %s[1] : !pipeline.stage<producer, !TP22> -> !St
        %a_slice = memref.subview %a[0, %a_off, 0] [1, 32, 64] [1, 1, 1] : !St to memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        %b_slice = memref.subview %b[0, %b_off, 0] [1, 64, 64] [1, 1, 1] : !St to memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        %kx = arith.muli %k, %i64 : i32
        pipeline.tma_load %s, %map_a[%kx, %a_first] -> %a_slice multicast(%mask_a) : !pipeline.stage<producer, !TP22>, !llvm.ptr, memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.tma_load %s, %map_b[%kx, %b_first] -> %b_slice multicast(%mask_b) : !pipeline.stage<producer, !TP22>, !llvm.ptr, memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.release %s : !pipeline.stage<producer, !TP22>
      }
      pipeline.drain_producer %tp : !TP22
    }
    // The pair's MMA: warp 1 of the leader CTA.
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %warp = arith.divui %tid32, %i32 : i32
    %mma_warp = arith.cmpi eq, %warp, %i1 : i32
    %mma = arith.andi %leader, %mma_warp : i1
    scf.if %mma {
      scf.for %k = %i0 to %iters step %i1 : i32 {
        %s = pipeline.acquire_consumer %tp : !TP22
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP22>
        pipeline.release %s : !pipeline.stage<consumer, !TP22>
      }
    }
    gpu.return
  }

  // 4 x 1: A slices of 64 rows (one per n), B slices of 32
  // rows (one per pair along M); each CTA's empty barrier counts the
  // commits of 2 + 1 - 1 = 2 leaders.
  gpu.func @cross_4x1(%map_a: !llvm.ptr, %map_b: !llvm.ptr, %iters: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i32 = arith.constant 32 : i32
    %i64 = arith.constant 64 : i32
    %cm = arith.constant 4 : i32
    %ctas = arith.constant 4 : i32
    %a_rows = arith.constant 64 : i32
    %b_rows = arith.constant 32 : i32
    %col = arith.constant 1 : i32
    %pairs = arith.constant 5 : i32
    %a_buf = memref.alloca() : !A
    %b_buf = memref.alloca() : !B
    %p = pipeline.create -> !P41
    %tp = pipeline.input_tile_pipeline %p payload(%a_buf, %b_buf : !A, !B) : !P41 -> !TP41
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP41
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // (m, n) within the aligned block of cluster_m x cluster_n CTAs that
    // holds this CTA (the whole cluster when it has that size).
    %local = arith.remui %rank, %ctas : i32
    %block = arith.subi %rank, %local : i32
    %m = arith.remui %local, %cm : i32
    %n = arith.divui %local, %cm : i32
    // A (this CTA's M rows) is multicast along N: to the CTAs of this m.
    %mask_a_local = arith.shli %col, %m : i32
    %mask_a32 = arith.shli %mask_a_local, %block : i32
    %mask_a = arith.trunci %mask_a32 : i32 to i16
    // B (this CTA's half of the pair's N columns) is multicast along M: to
    // the CTAs of this n at the same place in their pair.
    %half = arith.andi %m, %i1 : i32
    %n_base = arith.muli %n, %cm : i32
    %b_base = arith.addi %n_base, %half : i32
    %mask_b_local = arith.shli %pairs, %b_base : i32
    %mask_b32 = arith.shli %mask_b_local, %block : i32
    %mask_b = arith.trunci %mask_b32 : i32 to i16
    // This CTA loads slice n of A and slice m / 2 of B.
    %a_first = arith.muli %n, %a_rows : i32
    %pair = arith.divui %m, %i2 : i32
    %b_first = arith.muli %pair, %b_rows : i32
    %a_off = arith.index_cast %a_first : i32 to index
    %b_off = arith.index_cast %b_first : i32 to index
    %tid = gpu.thread_id x
    %tid32 = arith.index_cast %tid : index to i32
    %producer = arith.cmpi eq, %tid32, %i0 : i32
    scf.if %producer {
      scf.for %k = %i0 to %iters step %i1 : i32 {
        %s = pipeline.acquire_producer %tp : !TP41
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP41>
        %a = pipeline.payload %s[0] : !pipeline.stage<producer, !TP41> -> !St
        %b = pipeline.payload %s[1] : !pipeline.stage<producer, !TP41> -> !St
        %a_slice = memref.subview %a[0, %a_off, 0] [1, 64, 64] [1, 1, 1] : !St to memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        %b_slice = memref.subview %b[0, %b_off, 0] [1, 32, 64] [1, 1, 1] : !St to memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        %kx = arith.muli %k, %i64 : i32
        pipeline.tma_load %s, %map_a[%kx, %a_first] -> %a_slice multicast(%mask_a) : !pipeline.stage<producer, !TP41>, !llvm.ptr, memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.tma_load %s, %map_b[%kx, %b_first] -> %b_slice multicast(%mask_b) : !pipeline.stage<producer, !TP41>, !llvm.ptr, memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.release %s : !pipeline.stage<producer, !TP41>
      }
      pipeline.drain_producer %tp : !TP41
    }
    // The pair's MMA: warp 1 of the leader CTA.
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %warp = arith.divui %tid32, %i32 : i32
    %mma_warp = arith.cmpi eq, %warp, %i1 : i32
    %mma = arith.andi %leader, %mma_warp : i1
    scf.if %mma {
      scf.for %k = %i0 to %iters step %i1 : i32 {
        %s = pipeline.acquire_consumer %tp : !TP41
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP41>
        pipeline.release %s : !pipeline.stage<consumer, !TP41>
      }
    }
    gpu.return
  }

  // 4 x 4: A slices of 16 rows (one per n), B slices of 32
  // rows (one per pair along M); each CTA's empty barrier counts the
  // commits of 2 + 4 - 1 = 5 leaders.
  gpu.func @cross_4x4(%map_a: !llvm.ptr, %map_b: !llvm.ptr, %iters: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>, nvvm.cluster_dim = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i32 = arith.constant 32 : i32
    %i64 = arith.constant 64 : i32
    %cm = arith.constant 4 : i32
    %ctas = arith.constant 16 : i32
    %a_rows = arith.constant 16 : i32
    %b_rows = arith.constant 32 : i32
    %col = arith.constant 4369 : i32
    %pairs = arith.constant 5 : i32
    %a_buf = memref.alloca() : !A
    %b_buf = memref.alloca() : !B
    %p = pipeline.create -> !P44
    %tp = pipeline.input_tile_pipeline %p payload(%a_buf, %b_buf : !A, !B) : !P44 -> !TP44
    pipeline.init_mbars %tp producer 1 consumer 5 cluster : !TP44
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // (m, n) within the aligned block of cluster_m x cluster_n CTAs that
    // holds this CTA (the whole cluster when it has that size).
    %local = arith.remui %rank, %ctas : i32
    %block = arith.subi %rank, %local : i32
    %m = arith.remui %local, %cm : i32
    %n = arith.divui %local, %cm : i32
    // A (this CTA's M rows) is multicast along N: to the CTAs of this m.
    %mask_a_local = arith.shli %col, %m : i32
    %mask_a32 = arith.shli %mask_a_local, %block : i32
    %mask_a = arith.trunci %mask_a32 : i32 to i16
    // B (this CTA's half of the pair's N columns) is multicast along M: to
    // the CTAs of this n at the same place in their pair.
    %half = arith.andi %m, %i1 : i32
    %n_base = arith.muli %n, %cm : i32
    %b_base = arith.addi %n_base, %half : i32
    %mask_b_local = arith.shli %pairs, %b_base : i32
    %mask_b32 = arith.shli %mask_b_local, %block : i32
    %mask_b = arith.trunci %mask_b32 : i32 to i16
    // This CTA loads slice n of A and slice m / 2 of B.
    %a_first = arith.muli %n, %a_rows : i32
    %pair = arith.divui %m, %i2 : i32
    %b_first = arith.muli %pair, %b_rows : i32
    %a_off = arith.index_cast %a_first : i32 to index
    %b_off = arith.index_cast %b_first : i32 to index
    %tid = gpu.thread_id x
    %tid32 = arith.index_cast %tid : index to i32
    %producer = arith.cmpi eq, %tid32, %i0 : i32
    scf.if %producer {
      scf.for %k = %i0 to %iters step %i1 : i32 {
        %s = pipeline.acquire_producer %tp : !TP44
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP44>
        %a = pipeline.payload %s[0] : !pipeline.stage<producer, !TP44> -> !St
        %b = pipeline.payload %s[1] : !pipeline.stage<producer, !TP44> -> !St
        %a_slice = memref.subview %a[0, %a_off, 0] [1, 16, 64] [1, 1, 1] : !St to memref<1x16x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        %b_slice = memref.subview %b[0, %b_off, 0] [1, 32, 64] [1, 1, 1] : !St to memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        %kx = arith.muli %k, %i64 : i32
        pipeline.tma_load %s, %map_a[%kx, %a_first] -> %a_slice multicast(%mask_a) : !pipeline.stage<producer, !TP44>, !llvm.ptr, memref<1x16x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.tma_load %s, %map_b[%kx, %b_first] -> %b_slice multicast(%mask_b) : !pipeline.stage<producer, !TP44>, !llvm.ptr, memref<1x32x64xbf16, strided<[4096, 64, 1], offset: ?>, #WG>
        pipeline.release %s : !pipeline.stage<producer, !TP44>
      }
      pipeline.drain_producer %tp : !TP44
    }
    // The pair's MMA: warp 1 of the leader CTA.
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %warp = arith.divui %tid32, %i32 : i32
    %mma_warp = arith.cmpi eq, %warp, %i1 : i32
    %mma = arith.andi %leader, %mma_warp : i1
    scf.if %mma {
      scf.for %k = %i0 to %iters step %i1 : i32 {
        %s = pipeline.acquire_consumer %tp : !TP44
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP44>
        pipeline.release %s : !pipeline.stage<consumer, !TP44>
      }
    }
    gpu.return
  }
}
}

