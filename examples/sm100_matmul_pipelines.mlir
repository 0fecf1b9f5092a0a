// The canonical Blackwell (sm_100a) warp-specialized matmul structure,
// written with the pipeline dialect: C[M, N] (f32) = A[M, K] * B[N, K]^T
// (bf16, both K-major), in two variants:
//
//   @matmul_cta1  cta_group = 1: one CTA issues tcgen05.mma.cta_group::1,
//                 M = 128, N = 64 per tile.
//   @matmul_cta2  cta_group = 2: a CTA pair (cluster of 2). The leader CTA
//                 (even cluster rank) issues tcgen05.mma.cta_group::2 for
//                 M = 256 (128 rows in each CTA's TMEM), N = 128 (each CTA
//                 holds 64 rows of B).
//
// The structure, as in Mojo's SM100 structured kernels and CUTLASS's
// sm100 warp-specialized GEMM:
//
//   warp 0 (TMA, lane 0)    input tile pipeline (k_group_size = 2)
//     acquire_producer -> expect_tx -> TMA loads into the stage payload
//     -> release (steps); drain_producer after the last stage.
//   warp 1 (MMA)            consumer of the input tile pipeline and producer
//                           of the accumulator pipeline
//     acquire_producer (accumulator stage in TMEM)
//       acquire_consumer (input stage) -> tcgen05.mma x 8 -> release_mma
//       (tcgen05.commit on the stage's empty barrier) -> release (steps)
//     commit_mma (tcgen05.commit on the accumulator's full barrier)
//     -> release (steps); drain_producer after the last tile.
//   warps 2..5 (epilogue)   consumers of the accumulator pipeline
//     consume: tcgen05.ld from TMEM -> stores to global; the exit of
//     `consume` arrives on the accumulator stage's empty barrier.
//
// Barrier protocol (CUTLASS PipelineTmaUmmaAsync / PipelineUmmaAsync):
//   input full:  count 1, the TMA lane's arrive.expect_tx (cta_group = 2:
//                the leader's, for both CTAs' bytes); the TMA loads
//                complete the transaction.
//   input empty: count 1, one tcgen05.commit per phase (cta_group = 2:
//                multicast to both CTAs of the pair).
//   acc full:    count 1, one tcgen05.commit (cta_group = 2: multicast).
//   acc empty:   count 128, every epilogue thread arrives (cta_group = 2:
//                count 256, both CTAs' epilogue threads arrive on the
//                leader's barrier).
//
// Upstream ops do what the dialect does not model: TMEM allocation
// (nvvm.tcgen05.alloc/dealloc), the MMAs and their shared-memory
// descriptors, tcgen05.ld, the tcgen05 fences around the accumulator
// pipeline's waits and arrivals, and in @matmul_cta2 the TMA loads with
// .cta_group::2 and the leader CTA's full barrier they complete on
// (nvvm.mapa of pipeline.mbar's barrier: no pipeline op names it).
//
// Launch: block (192, 1, 1), one CTA per SM (`nvvm.minctasm = 1`: without
// it ptxas caps a 192-thread kernel at 64 registers and spills); dynamic
// shared memory 197632 bytes: barriers and the TMEM address in the first
// 1 KiB, then 4 stages of A tiles (2 x 128 x 64 bf16 each) and of B tiles
// (2 x 64 x 64 bf16 each), 1 KiB aligned for the 128-byte swizzle.
//   @matmul_cta1: grid (M / 128, 1, 1).
//   @matmul_cta2: grid (M / 128, 1, 1) in clusters of (2, 1, 1) (any
//                 (2k, 1, 1) works: the pairs are cluster ranks 2p, 2p + 1).
// Arguments: the TMA descriptors of A (box 64 x 128) and B (box 64 x 64),
// both bf16 with 128-byte swizzle; C (4096 x 4096 f32, row-major); the
// number of N tiles each CTA computes; the number of K groups (K = 128
// per group: 2 k-blocks of 64).
//
// Chip: sm_100a only (tcgen05, and tcgen05.mma.cta_group::2); sm_90a has
// neither (test/Target/PTX/examples.mlir reads the next line).
// chips: sm_100a
// This file is compiled and its PTX checked
// (test/Target/PTX/sm100-example.mlir), never run: there is no Blackwell
// GPU in this workplace.
//
// Check and compile:
//   pipeline-opt --pipeline-verify-linearity examples/sm100_matmul_pipelines.mlir
//   pipeline-compile examples/sm100_matmul_pipelines.mlir --chip=sm_100a -o out

!Smem = memref<?xi8, #gpu.address_space<workgroup>>
!Slot = memref<2xi32, #gpu.address_space<workgroup>>
!ATiles = memref<4x2x128x64xbf16, #gpu.address_space<workgroup>>
!BTiles = memref<4x2x64x64xbf16, #gpu.address_space<workgroup>>
!AStage = memref<2x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!BStage = memref<2x64x64xbf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!ATile = memref<128x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!BTile = memref<64x64xbf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
!C = memref<4096x4096xf32>

// cta_group = 1
!In1 = !pipeline.pipeline<stages = 4>
!InTP1 = !pipeline.tile_pipeline<pipeline = !In1, k_group_size = 2, payload = [!ATiles, !BTiles]>
!Acc1 = !pipeline.pipeline<stages = 2>
!G1 = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
!DescA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!DescB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

// cta_group = 2
!In2 = !pipeline.pipeline<stages = 4, cta_group = 2>
!InTP2 = !pipeline.tile_pipeline<pipeline = !In2, k_group_size = 2, payload = [!ATiles, !BTiles]>
!Acc2 = !pipeline.pipeline<stages = 2, cta_group = 2>
!G2 = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>

module attributes {gpu.container_module} {

// One gpu.module, so one PTX file and one cubin: tcgen05 instructions must
// agree on .cta_group within a kernel, not across kernels.
gpu.module @sm100_matmul {
  //===--------------------------------------------------------------------===//
  // cta_group = 1
  //===--------------------------------------------------------------------===//

  gpu.func @matmul_cta1(%a_map: !DescA, %b_map: !DescB, %c: !C,
                        %num_n_tiles: index, %num_k_groups: index) kernel
      attributes {nvvm.reqntid = array<i32: 192, 1, 1>, nvvm.minctasm = 1 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c132096 = arith.constant 132096 : index
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i4 = arith.constant 4 : i32
    %i64 = arith.constant 64 : i32
    %i0_i8 = arith.constant 0 : i8
    %swizzle128 = arith.constant 2 : i8
    %false = arith.constant false
    %true = arith.constant true
    // 128 TMEM columns: 2 accumulator stages of 128 lanes x 64 f32.
    %tmem_cols = arith.constant 128 : i32
    // Instruction descriptor of kind::f16: D f32 (bit 4), A and B bf16
    // (bits 7, 10), both K-major, N >> 3 = 8 at bit 17, M >> 4 = 8 at bit 24.
    %idesc = arith.constant 135267472 : i32
    // One k-block further on: 16 KiB of A, 8 KiB of B (in 16-byte units).
    %a_kblock16 = arith.constant 1024 : i32
    %b_kblock16 = arith.constant 512 : i32

    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %bid = gpu.block_id x
    %m0 = arith.muli %bid, %c128 : index

    // Shared memory: input barriers at 0 (64 B), accumulator barriers at 64
    // (32 B), the TMEM address at 96, the A tiles at 1024, the B tiles at
    // 1024 + 128 KiB.
    %smem = gpu.dynamic_shared_memory : !Smem
    %in = pipeline.create in %smem[%c0] : !Smem -> !In1
    %acc_off = pipeline.smem_bytes !In1
    %accp = pipeline.create in %smem[%acc_off] : !Smem -> !Acc1
    %acc_bytes = pipeline.smem_bytes !Acc1
    %slot_off = arith.addi %acc_off, %acc_bytes : index
    %slot = memref.view %smem[%slot_off][] : !Smem to !Slot
    %a_tiles = memref.view %smem[%c1024][] : !Smem to !ATiles
    %b_tiles = memref.view %smem[%c132096][] : !Smem to !BTiles
    %tp = pipeline.input_tile_pipeline %in payload(%a_tiles, %b_tiles : !ATiles, !BTiles)
        : !In1 -> !InTP1

    // Every thread: init, fence, CTA barrier. Input full: the TMA lane's
    // expect_tx; input empty: one tcgen05.commit; accumulator full: one
    // tcgen05.commit; accumulator empty: the 128 epilogue threads.
    pipeline.init_mbars %tp producer 1 consumer 1 : !InTP1
    pipeline.init_mbars %accp producer 1 consumer 128 : !Acc1

    // The MMA warp allocates the accumulators in tensor memory; the
    // address reaches the other warps through shared memory.
    %slot_base = memref.extract_aligned_pointer_as_index %slot : !Slot -> index
    %slot_i64 = arith.index_cast %slot_base : index to i64
    %slot_ptr = llvm.inttoptr %slot_i64 : i64 to !llvm.ptr<3>
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_mma_warp {
      nvvm.tcgen05.alloc %slot_ptr, %tmem_cols : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit
    }
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %tmem_base = llvm.load %slot_ptr : !llvm.ptr<3> -> i32

    %is_tma_warp = arith.cmpi eq, %warp, %c0 : index
    %is_epilogue = arith.cmpi uge, %warp, %c2 : index
    scf.if %is_tma_warp {
      //===------------------------------------------------------------===//
      // TMA producer: one lane loads A (128 x 64) and B (64 x 64) k-blocks,
      // two per stage.
      //===------------------------------------------------------------===//
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        scf.for %t = %c0 to %num_n_tiles step %c1 {
          %n0 = arith.muli %t, %c64 : index
          scf.for %g = %c0 to %num_k_groups step %c1 {
            %s = pipeline.acquire_producer %tp : !InTP1
            // Arrive on full expecting one stage's bytes (2 x (16 + 8) KiB).
            pipeline.expect_tx %s : !pipeline.stage<producer, !InTP1>
            %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !InTP1>
            %a = pipeline.payload %s[0] : !pipeline.stage<producer, !InTP1> -> !AStage
            %b = pipeline.payload %s[1] : !pipeline.stage<producer, !InTP1> -> !BStage
            scf.for %j = %c0 to %c2 step %c1 {
              %g2 = arith.muli %g, %c2 : index
              %kb = arith.addi %g2, %j : index
              %k0 = arith.muli %kb, %c64 : index
              %a_dst = memref.subview %a[%j, 0, 0] [1, 128, 64] [1, 1, 1] : !AStage to !ATile
              %b_dst = memref.subview %b[%j, 0, 0] [1, 64, 64] [1, 1, 1] : !BStage to !BTile
              nvgpu.tma.async.load %a_map[%k0, %m0], %bars[%id] to %a_dst : !DescA, !G1 -> !ATile
              nvgpu.tma.async.load %b_map[%k0, %n0], %bars[%id] to %b_dst : !DescB, !G1 -> !BTile
            }
            // The producer handle only steps: the TMA completes the stage.
            pipeline.release %s : !pipeline.stage<producer, !InTP1>
          }
        }
        // No exit while an MMA still reads the stages or commits to them.
        pipeline.drain_producer %tp : !InTP1
      }
    } else {
      scf.if %is_mma_warp {
        //===----------------------------------------------------------===//
        // MMA warp: the whole warp waits, one elected lane issues the MMAs
        // and the commits (tcgen05.commit tracks the MMAs of its thread).
        //===----------------------------------------------------------===//
        %elect = nvvm.elect.sync -> i1
        scf.for %t = %c0 to %num_n_tiles step %c1 {
          %acc = pipeline.acquire_producer %accp : !Acc1
          // Order the MMAs after the epilogue's tcgen05.ld of this stage.
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
          %acc_stage = pipeline.index %acc : !pipeline.stage<producer, !Acc1>
          %acc_stage_i32 = arith.index_cast %acc_stage : index to i32
          %acc_col = arith.muli %acc_stage_i32, %i64 : i32
          %d_addr = arith.addi %tmem_base, %acc_col : i32
          %d = llvm.inttoptr %d_addr : i32 to !llvm.ptr<6>
          scf.for %g = %c0 to %num_k_groups step %c1 {
            %s = pipeline.acquire_consumer %tp : !InTP1
            %a = pipeline.payload %s[0] : !pipeline.stage<consumer, !InTP1> -> !AStage
            %b = pipeline.payload %s[1] : !pipeline.stage<consumer, !InTP1> -> !BStage
            %a_base, %a_off, %a_sz:3, %a_st:3 = memref.extract_strided_metadata %a
                : !AStage -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index
            %b_base, %b_off, %b_sz:3, %b_st:3 = memref.extract_strided_metadata %b
                : !BStage -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index
            %a_ptr = memref.extract_aligned_pointer_as_index %a_base : memref<bf16, #gpu.address_space<workgroup>> -> index
            %b_ptr = memref.extract_aligned_pointer_as_index %b_base : memref<bf16, #gpu.address_space<workgroup>> -> index
            %a_eoff = arith.muli %a_off, %c2 : index
            %b_eoff = arith.muli %b_off, %c2 : index
            %a_addr = arith.addi %a_ptr, %a_eoff : index
            %b_addr = arith.addi %b_ptr, %b_eoff : index
            %a_addr_i32 = arith.index_cast %a_addr : index to i32
            %b_addr_i32 = arith.index_cast %b_addr : index to i32
            %a16 = arith.shrui %a_addr_i32, %i4 : i32
            %b16 = arith.shrui %b_addr_i32, %i4 : i32
            scf.if %elect {
              // 2 k-blocks x 4 K-steps of 16: advance 32 bytes (2 x 16 B)
              // per step inside the 128-byte swizzle atom, one k-block
              // further on is 16 KiB (A) / 8 KiB (B).
              scf.for %j = %c0 to %c2 step %c1 {
                scf.for %kk = %c0 to %c4 step %c1 {
                  %j_i32 = arith.index_cast %j : index to i32
                  %kk_i32 = arith.index_cast %kk : index to i32
                  %a_kb = arith.muli %j_i32, %a_kblock16 : i32
                  %b_kb = arith.muli %j_i32, %b_kblock16 : i32
                  %k_step = arith.muli %kk_i32, %i2 : i32
                  %a_j = arith.addi %a16, %a_kb : i32
                  %b_j = arith.addi %b16, %b_kb : i32
                  %a_start = arith.addi %a_j, %k_step : i32
                  %b_start = arith.addi %b_j, %k_step : i32
                  %a_desc = nvvm.tcgen05.mma_smem_desc (%a_start, %i1, %i64, %i0_i8, %false, %swizzle128)
                      : (i32, i32, i32, i8, i1, i8) -> i64
                  %b_desc = nvvm.tcgen05.mma_smem_desc (%b_start, %i1, %i64, %i0_i8, %false, %swizzle128)
                      : (i32, i32, i32, i8, i1, i8) -> i64
                  // The first MMA of a tile overwrites the accumulator.
                  %g0 = arith.cmpi eq, %g, %c0 : index
                  %j0 = arith.cmpi eq, %j, %c0 : index
                  %kk0 = arith.cmpi eq, %kk, %c0 : index
                  %gj0 = arith.andi %g0, %j0 : i1
                  %first = arith.andi %gj0, %kk0 : i1
                  %accumulate = arith.xori %first, %true : i1
                  nvvm.tcgen05.mma %d, %a_desc, %b_desc, %idesc, %accumulate
                      {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>}
                      : (!llvm.ptr<6>, i64, i64, i32, i1)
                }
              }
            }
            // The stage is free once these MMAs have read it: the elected
            // lane's tcgen05.commit arrives on its empty barrier.
            pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !InTP1>
            pipeline.release %s : !pipeline.stage<consumer, !InTP1>
          }
          // The accumulator is full once every MMA of the tile completed.
          pipeline.commit_mma %acc elect(%elect) : !pipeline.stage<producer, !Acc1>
          pipeline.release %acc : !pipeline.stage<producer, !Acc1>
        }
        // No TMEM dealloc while the epilogue still reads an accumulator.
        pipeline.drain_producer %accp : !Acc1
      } else {
        scf.if %is_epilogue {
          //===--------------------------------------------------------===//
          // Epilogue warps 2..5: warp w reads TMEM lanes 32 * (w % 4) ..
          // + 31, i.e. rows of the tile; each thread one row, 64 columns.
          //===--------------------------------------------------------===//
          %quarter = arith.remui %warp, %c4 : index
          %q32 = arith.muli %quarter, %c32 : index
          %row_in_tile = arith.addi %q32, %lane : index
          %row = arith.addi %m0, %row_in_tile : index
          %q_i32 = arith.index_cast %q32 : index to i32
          %i16 = arith.constant 16 : i32
          %lane_field = arith.shli %q_i32, %i16 : i32
          %t_lane_base = arith.addi %tmem_base, %lane_field : i32
          scf.for %t = %c0 to %num_n_tiles step %c1 {
            %n0 = arith.muli %t, %c64 : index
            pipeline.consume %accp as %e : !Acc1 {
              nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
              %acc_stage = pipeline.index %e : !pipeline.stage<consumer, !Acc1>
              %acc_stage_i32 = arith.index_cast %acc_stage : index to i32
              %acc_col = arith.muli %acc_stage_i32, %i64 : i32
              %t_stage = arith.addi %t_lane_base, %acc_col : i32
              scf.for %cc = %c0 to %c64 step %c32 {
                %cc_i32 = arith.index_cast %cc : index to i32
                %t_addr = arith.addi %t_stage, %cc_i32 : i32
                %t_ptr = llvm.inttoptr %t_addr : i32 to !llvm.ptr<6>
                %bits = nvvm.tcgen05.ld %t_ptr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
                nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
                %vals = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
                %col = arith.addi %n0, %cc : index
                vector.store %vals, %c[%row, %col] {alignment = 16} : !C, vector<32xf32>
              }
              // Order the TMEM reads before the release (the exit of
              // consume arrives on the accumulator stage's empty barrier).
              nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
            }
          }
        }
      }
    }

    // Teardown: every TMEM access has finished (the epilogue waited for
    // every commit, the MMA warp drained), then the allocating warp frees
    // the columns.
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    scf.if %is_mma_warp {
      %tmem = llvm.inttoptr %tmem_base : i32 to !llvm.ptr<6>
      nvvm.tcgen05.dealloc %tmem, %tmem_cols : !llvm.ptr<6>, i32
    }
    gpu.return
  }

  //===--------------------------------------------------------------------===//
  // cta_group = 2: a CTA pair, the leader (even cluster rank) issues the MMAs
  //===--------------------------------------------------------------------===//

  // %a_map / %b_map: pointers to the CUtensorMaps in global memory (the
  // ABI of !nvgpu.tensormap.descriptor; nvgpu.tma.async.load has no
  // cta_group, so the loads use nvvm.cp.async.bulk.tensor directly).
  gpu.func @matmul_cta2(%a_map: !llvm.ptr, %b_map: !llvm.ptr, %c: !C,
                        %num_n_tiles: index, %num_k_groups: index) kernel
      attributes {nvvm.reqntid = array<i32: 192, 1, 1>, nvvm.minctasm = 1 : i32} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c132096 = arith.constant 132096 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i4 = arith.constant 4 : i32
    %i64 = arith.constant 64 : i32
    %i128 = arith.constant 128 : i32
    %i0_i8 = arith.constant 0 : i8
    %swizzle128 = arith.constant 2 : i8
    %false = arith.constant false
    %true = arith.constant true
    // 256 TMEM columns in each CTA: 2 accumulator stages of 128 lanes x
    // 128 f32 (the CTA's 128 rows of the 256 x 128 tile).
    %tmem_cols = arith.constant 256 : i32
    // kind::f16 descriptor: D f32, A and B bf16, K-major, N >> 3 = 16 at
    // bit 17, M >> 4 = 16 at bit 24 (M = 256 across the pair).
    %idesc = arith.constant 270533776 : i32
    %a_kblock16 = arith.constant 1024 : i32
    %b_kblock16 = arith.constant 512 : i32

    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %bid = gpu.block_id x
    // This CTA's 128 rows of A and C: CTA 2p holds rows 256p .. 256p + 127,
    // CTA 2p + 1 the next 128.
    %m0 = arith.muli %bid, %c128 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %i0 : i32
    // The leader of this CTA's pair: %rank & ~1.
    %leader_rank = arith.subi %rank, %odd : i32
    %pair_pos = arith.index_cast %odd : i32 to index

    %smem = gpu.dynamic_shared_memory : !Smem
    %in = pipeline.create in %smem[%c0] : !Smem -> !In2
    %acc_off = pipeline.smem_bytes !In2
    %accp = pipeline.create in %smem[%acc_off] : !Smem -> !Acc2
    %acc_bytes = pipeline.smem_bytes !Acc2
    %slot_off = arith.addi %acc_off, %acc_bytes : index
    %slot = memref.view %smem[%slot_off][] : !Smem to !Slot
    %a_tiles = memref.view %smem[%c1024][] : !Smem to !ATiles
    %b_tiles = memref.view %smem[%c132096][] : !Smem to !BTiles
    %tp = pipeline.input_tile_pipeline %in payload(%a_tiles, %b_tiles : !ATiles, !BTiles)
        : !In2 -> !InTP2

    // Cluster-wide init: the CTAs signal each other's barriers. Input full
    // (used in the leader): its TMA lane's expect_tx for both CTAs' bytes;
    // input empty (both CTAs): one multicast tcgen05.commit; accumulator
    // full (both CTAs): one multicast tcgen05.commit; accumulator empty
    // (used in the leader): 128 epilogue threads x 2 CTAs.
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !InTP2
    pipeline.init_mbars %accp producer 1 consumer 256 cluster : !Acc2

    // One warp of each CTA of the pair allocates the TMEM collectively.
    %slot_base = memref.extract_aligned_pointer_as_index %slot : !Slot -> index
    %slot_i64 = arith.index_cast %slot_base : index to i64
    %slot_ptr = llvm.inttoptr %slot_i64 : i64 to !llvm.ptr<3>
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_mma_warp {
      nvvm.tcgen05.alloc %slot_ptr, %tmem_cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
      nvvm.tcgen05.relinquish_alloc_permit {group = #nvvm.cta_group<cta_2>}
    }
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    gpu.barrier
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %tmem_base = llvm.load %slot_ptr : !llvm.ptr<3> -> i32

    %is_tma_warp = arith.cmpi eq, %warp, %c0 : index
    %is_epilogue = arith.cmpi uge, %warp, %c2 : index
    scf.if %is_tma_warp {
      //===------------------------------------------------------------===//
      // TMA producer, in both CTAs: each loads its half (its 128 rows of A,
      // its 64 rows of B) into its own shared memory and completes the
      // transaction on the LEADER's full barrier, where the MMA waits.
      //===------------------------------------------------------------===//
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        %m0_i32 = arith.index_cast %m0 : index to i32
        %b_half = arith.muli %pair_pos, %c64 : index
        scf.for %t = %c0 to %num_n_tiles step %c1 {
          %n_tile = arith.muli %t, %c128 : index
          %n0 = arith.addi %n_tile, %b_half : index
          %n0_i32 = arith.index_cast %n0 : index to i32
          scf.for %g = %c0 to %num_k_groups step %c1 {
            // Waits on this CTA's empty barrier (the MMA's commit reaches
            // both CTAs).
            %s = pipeline.acquire_producer %tp : !InTP2
            // The leader arms its full barrier for 2 x 48 KiB; the peer
            // does nothing here.
            pipeline.expect_tx %s : !pipeline.stage<producer, !InTP2>
            %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !InTP2>
            %full = nvgpu.mbarrier.get %bars[%id] : !G2 -> i64
            %full_ptr = llvm.inttoptr %full : i64 to !llvm.ptr<3>
            // The same barrier in the leader CTA, as a shared::cluster
            // address. The TMA op types its barrier operand as a
            // shared::cta pointer; with .cta_group::2 the hardware takes a
            // barrier of either CTA of the pair there (CUTLASS passes the
            // address with the peer bit cleared).
            %leader_full = nvvm.mapa %full_ptr, %leader_rank : !llvm.ptr<3> -> !llvm.ptr<7>
            %leader_full_int = llvm.ptrtoint %leader_full : !llvm.ptr<7> to i64
            %leader_full_ptr = llvm.inttoptr %leader_full_int : i64 to !llvm.ptr<3>
            %a = pipeline.payload %s[0] : !pipeline.stage<producer, !InTP2> -> !AStage
            %b = pipeline.payload %s[1] : !pipeline.stage<producer, !InTP2> -> !BStage
            scf.for %j = %c0 to %c2 step %c1 {
              %g2 = arith.muli %g, %c2 : index
              %kb = arith.addi %g2, %j : index
              %k0 = arith.muli %kb, %c64 : index
              %k0_i32 = arith.index_cast %k0 : index to i32
              %a_dst = memref.subview %a[%j, 0, 0] [1, 128, 64] [1, 1, 1] : !AStage to !ATile
              %b_dst = memref.subview %b[%j, 0, 0] [1, 64, 64] [1, 1, 1] : !BStage to !BTile
              %a_base, %a_off, %a_sz:2, %a_st:2 = memref.extract_strided_metadata %a_dst
                  : !ATile -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index
              %b_base, %b_off, %b_sz:2, %b_st:2 = memref.extract_strided_metadata %b_dst
                  : !BTile -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index
              %a_ptr = memref.extract_aligned_pointer_as_index %a_base : memref<bf16, #gpu.address_space<workgroup>> -> index
              %b_ptr = memref.extract_aligned_pointer_as_index %b_base : memref<bf16, #gpu.address_space<workgroup>> -> index
              %a_eoff = arith.muli %a_off, %c2 : index
              %b_eoff = arith.muli %b_off, %c2 : index
              %a_addr = arith.addi %a_ptr, %a_eoff : index
              %b_addr = arith.addi %b_ptr, %b_eoff : index
              %a_addr_i64 = arith.index_cast %a_addr : index to i64
              %b_addr_i64 = arith.index_cast %b_addr : index to i64
              %a_local = llvm.inttoptr %a_addr_i64 : i64 to !llvm.ptr<3>
              %b_local = llvm.inttoptr %b_addr_i64 : i64 to !llvm.ptr<3>
              // The destination is this CTA's own shared memory, named in
              // the shared::cluster window.
              %a_dst_ptr = llvm.addrspacecast %a_local : !llvm.ptr<3> to !llvm.ptr<7>
              %b_dst_ptr = llvm.addrspacecast %b_local : !llvm.ptr<3> to !llvm.ptr<7>
              nvvm.cp.async.bulk.tensor.shared.cluster.global %a_dst_ptr, %a_map, %leader_full_ptr, box[%k0_i32, %m0_i32]
                  {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
              nvvm.cp.async.bulk.tensor.shared.cluster.global %b_dst_ptr, %b_map, %leader_full_ptr, box[%k0_i32, %n0_i32]
                  {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<7>, !llvm.ptr
            }
            pipeline.release %s : !pipeline.stage<producer, !InTP2>
          }
        }
        // Both CTAs: wait for the last commits on this CTA's empty barriers.
        pipeline.drain_producer %tp : !InTP2
      }
    } else {
      %is_mma_warp_leader = arith.andi %is_mma_warp, %is_leader_cta : i1
      scf.if %is_mma_warp_leader {
        //===----------------------------------------------------------===//
        // MMA warp, leader CTA only: tcgen05.mma.cta_group::2 reads A and B
        // at the same shared-memory offsets in both CTAs and writes both
        // CTAs' TMEM.
        //===----------------------------------------------------------===//
        %elect = nvvm.elect.sync -> i1
        scf.for %t = %c0 to %num_n_tiles step %c1 {
          // Waits until both CTAs' epilogues released the stage (their
          // arrivals land on the leader's empty barrier).
          %acc = pipeline.acquire_producer %accp : !Acc2
          nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
          %acc_stage = pipeline.index %acc : !pipeline.stage<producer, !Acc2>
          %acc_stage_i32 = arith.index_cast %acc_stage : index to i32
          %acc_col = arith.muli %acc_stage_i32, %i128 : i32
          %d_addr = arith.addi %tmem_base, %acc_col : i32
          %d = llvm.inttoptr %d_addr : i32 to !llvm.ptr<6>
          scf.for %g = %c0 to %num_k_groups step %c1 {
            // Waits on the leader's full barrier: both CTAs' bytes landed.
            %s = pipeline.acquire_consumer %tp : !InTP2
            %a = pipeline.payload %s[0] : !pipeline.stage<consumer, !InTP2> -> !AStage
            %b = pipeline.payload %s[1] : !pipeline.stage<consumer, !InTP2> -> !BStage
            %a_base, %a_off, %a_sz:3, %a_st:3 = memref.extract_strided_metadata %a
                : !AStage -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index
            %b_base, %b_off, %b_sz:3, %b_st:3 = memref.extract_strided_metadata %b
                : !BStage -> memref<bf16, #gpu.address_space<workgroup>>, index, index, index, index, index, index, index
            %a_ptr = memref.extract_aligned_pointer_as_index %a_base : memref<bf16, #gpu.address_space<workgroup>> -> index
            %b_ptr = memref.extract_aligned_pointer_as_index %b_base : memref<bf16, #gpu.address_space<workgroup>> -> index
            %a_eoff = arith.muli %a_off, %c2 : index
            %b_eoff = arith.muli %b_off, %c2 : index
            %a_addr = arith.addi %a_ptr, %a_eoff : index
            %b_addr = arith.addi %b_ptr, %b_eoff : index
            %a_addr_i32 = arith.index_cast %a_addr : index to i32
            %b_addr_i32 = arith.index_cast %b_addr : index to i32
            %a16 = arith.shrui %a_addr_i32, %i4 : i32
            %b16 = arith.shrui %b_addr_i32, %i4 : i32
            scf.if %elect {
              scf.for %j = %c0 to %c2 step %c1 {
                scf.for %kk = %c0 to %c4 step %c1 {
                  %j_i32 = arith.index_cast %j : index to i32
                  %kk_i32 = arith.index_cast %kk : index to i32
                  %a_kb = arith.muli %j_i32, %a_kblock16 : i32
                  %b_kb = arith.muli %j_i32, %b_kblock16 : i32
                  %k_step = arith.muli %kk_i32, %i2 : i32
                  %a_j = arith.addi %a16, %a_kb : i32
                  %b_j = arith.addi %b16, %b_kb : i32
                  %a_start = arith.addi %a_j, %k_step : i32
                  %b_start = arith.addi %b_j, %k_step : i32
                  %a_desc = nvvm.tcgen05.mma_smem_desc (%a_start, %i1, %i64, %i0_i8, %false, %swizzle128)
                      : (i32, i32, i32, i8, i1, i8) -> i64
                  %b_desc = nvvm.tcgen05.mma_smem_desc (%b_start, %i1, %i64, %i0_i8, %false, %swizzle128)
                      : (i32, i32, i32, i8, i1, i8) -> i64
                  %g0 = arith.cmpi eq, %g, %c0 : index
                  %j0 = arith.cmpi eq, %j, %c0 : index
                  %kk0 = arith.cmpi eq, %kk, %c0 : index
                  %gj0 = arith.andi %g0, %j0 : i1
                  %first = arith.andi %gj0, %kk0 : i1
                  %accumulate = arith.xori %first, %true : i1
                  nvvm.tcgen05.mma %d, %a_desc, %b_desc, %idesc, %accumulate
                      {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>}
                      : (!llvm.ptr<6>, i64, i64, i32, i1)
                }
              }
            }
            // tcgen05.commit.cta_group::2 multicast to the stage's empty
            // barrier in both CTAs: each CTA's TMA producer waits there.
            pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !InTP2>
            pipeline.release %s : !pipeline.stage<consumer, !InTP2>
          }
          // Multicast to both CTAs' accumulator full barriers: both
          // epilogues read their half of the tile.
          pipeline.commit_mma %acc elect(%elect) : !pipeline.stage<producer, !Acc2>
          pipeline.release %acc : !pipeline.stage<producer, !Acc2>
        }
        pipeline.drain_producer %accp : !Acc2
      } else {
        scf.if %is_epilogue {
          //===--------------------------------------------------------===//
          // Epilogue warps 2..5 of both CTAs: 128 columns per row.
          //===--------------------------------------------------------===//
          %quarter = arith.remui %warp, %c4 : index
          %q32 = arith.muli %quarter, %c32 : index
          %row_in_tile = arith.addi %q32, %lane : index
          %row = arith.addi %m0, %row_in_tile : index
          %q_i32 = arith.index_cast %q32 : index to i32
          %i16 = arith.constant 16 : i32
          %lane_field = arith.shli %q_i32, %i16 : i32
          %t_lane_base = arith.addi %tmem_base, %lane_field : i32
          scf.for %t = %c0 to %num_n_tiles step %c1 {
            %n0 = arith.muli %t, %c128 : index
            // Waits on this CTA's full barrier; the exit arrives on the
            // leader CTA's empty barrier.
            pipeline.consume %accp as %e : !Acc2 {
              nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
              %acc_stage = pipeline.index %e : !pipeline.stage<consumer, !Acc2>
              %acc_stage_i32 = arith.index_cast %acc_stage : index to i32
              %acc_col = arith.muli %acc_stage_i32, %i128 : i32
              %t_stage = arith.addi %t_lane_base, %acc_col : i32
              scf.for %cc = %c0 to %c128 step %c32 {
                %cc_i32 = arith.index_cast %cc : index to i32
                %t_addr = arith.addi %t_stage, %cc_i32 : i32
                %t_ptr = llvm.inttoptr %t_addr : i32 to !llvm.ptr<6>
                %bits = nvvm.tcgen05.ld %t_ptr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
                nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
                %vals = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
                %col = arith.addi %n0, %cc : index
                vector.store %vals, %c[%row, %col] {alignment = 16} : !C, vector<32xf32>
              }
              nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
            }
          }
        }
      }
    }

    // Teardown: the cluster barrier keeps each CTA (its barriers, shared
    // memory and TMEM) alive until the other is done with it, then both
    // CTAs free the TMEM collectively.
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<before>
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    scf.if %is_mma_warp {
      %tmem = llvm.inttoptr %tmem_base : i32 to !llvm.ptr<6>
      nvvm.tcgen05.dealloc %tmem, %tmem_cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    }
    gpu.return
  }
}

}
