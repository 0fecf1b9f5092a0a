// A bf16 GEMM for Blackwell (sm_100a), written with the pipeline dialect:
//
//   C[M, N] = A[M, K] * B[N, K]^T     bf16 in, fp32 accumulation in tensor
//                                     memory (TMEM), bf16 out
//
// A is row-major M x K, B is given as N x K (K-major, i.e. the weight of
// `x @ W^T`, what a row-major torch.matmul(A, B^T) hands cuBLAS), C is
// row-major M x N. The Blackwell twin of the Hopper GEMM (docs/gemm.md);
// docs/gemm.md ("Blackwell twin") maps it to the reference's structured kernel.
//
// CTA pairs, 2-CTA MMA (cta_group = 2), two pairs per cluster (the
// structure of CUTLASS's fastest SM100 GEMMs: a 4x1 cluster, 2SM MMA, B
// multicast). A CTA pair (an even cluster rank and the next) computes one
// 256 x 256 tile of C: the leader (even rank) issues tcgen05.mma.cta_group::2
// with M = 256, N = 256, K = 16. Each CTA loads its own 128 rows of A and
// holds 128 rows x 256 fp32 columns of the accumulator in its own TMEM,
// which its epilogue writes out. The cluster's two pairs (q = rank / 2)
// compute the two 256-row halves of a 512 x 256 cluster tile, so they need
// the same 256 rows of B (the leader the tile's first 128 columns of C,
// the peer the last 128): each CTA loads half of its 128 rows of B and
// multicasts it to the CTA at its place in the other pair. A stage is then
// written by both pairs, and the MMA's release must reach all 4 CTAs
// (cluster_m = 4 on the input pipeline: the row-and-column cross).
//
// Persistent through cluster launch control (CUTLASS's SM100 tile
// scheduler): the grid has one cluster per tile of the ceil(M/512) x
// ceil(N/256) cluster tiles; cluster c starts with cluster tile c, tile t
// at (m, n) = (t mod ceil(M/512), t div ceil(M/512)) (M-fastest; no grouped
// rasterization). Its scheduler warp asks the hardware to cancel a cluster
// that has not started yet (at most one CTA per SM: 230400 bytes of shared
// memory, 512 TMEM columns) and the cluster computes that cluster's tile
// instead, until nothing is left to cancel; a throttle pipeline (CUTLASS's
// CLCThrottlePipeline) keeps the scheduler at most 2 requests ahead of the
// loads. With two accumulator stages the epilogue of one tile overlaps the
// MMAs of the pair's next.
//
// Roles (224 threads, seven warps, in every CTA of the cluster):
//
//   warp 0, lane 0 (TMA)     producer of the input tile pipeline (6 stages,
//                            k_group_size = 1: one 64-wide k-block of A and
//                            B per stage): acquire_producer (this CTA's
//                            empty barrier) -> expect_tx (leader only, both
//                            CTAs' bytes) -> 2 tma_loads (.cta_group::2,
//                            completing on the LEADER's full barrier; B's
//                            half multicast to the other pair) -> release
//                            (steps); drain_producer at the end. In rank 0
//                            also the throttle's producer (one produce per
//                            tile it starts).
//   warp 1, leader CTA (MMA) consumer of the input pipeline, producer of the
//                            accumulator pipeline (2 stages of 256 TMEM
//                            columns, tmem = true: its waits and signals
//                            carry the tcgen05 fences): per tile
//                            acquire_producer; per
//                            k-block acquire_consumer -> 4 x tcgen05.mma
//                            (K = 64) -> release_mma (tcgen05.commit
//                            multicast to all 4 CTAs' empty barriers) ->
//                            release (steps); commit_mma (multicast to both
//                            CTAs' accumulator full barriers) -> release;
//                            drain_producer at the end. Warp 1 of the peer
//                            only allocates and frees TMEM.
//   warp 6, rank 0 (CLC)     the scheduler: consumer of the throttle, then
//                            producer of the cluster launch control
//                            pipeline (2 stages of 16-byte answers, clc =
//                            true): clc_try_cancel, then reads the answer
//                            like every reader; stops after "nothing
//                            canceled"; drain_producer. Readers of each
//                            answer: the scheduler, and in every CTA the
//                            TMA lane, warp 1 and the epilogue (676
//                            arrivals on rank 0's empty barrier); each
//                            reader's next tile is the canceled cluster's
//                            (x of its first CTA / 4).
//   warps 2..5 (epilogue)    consumers of the accumulator pipeline, in both
//                            CTAs: consume (waits on this CTA's full barrier;
//                            the exit arrives on the LEADER's empty barrier):
//                            tcgen05.ld 32x32b.x32 -> bf16 -> swizzled
//                            shared-memory staging -> fence.proxy.async ->
//                            TMA store (per warp: its 32 rows, 64 columns).
//
// Barrier protocol (CUTLASS PipelineTmaUmmaAsync / PipelineUmmaAsync, 2SM,
// 4x1 cluster):
//   input full   count 1: the leader's arrive.expect_tx of 2 x 32 KiB; the
//                pair's A loads and the four B halves that land in the
//                pair complete the transaction.
//   input empty  count 2 (4/2 + 1 - 1): one tcgen05.commit.cta_group::2
//                multicast per phase from each pair's leader, reaching all
//                4 CTAs.
//   acc full     count 1: one tcgen05.commit.cta_group::2 multicast.
//   acc empty    count 256: 128 epilogue threads x 2 CTAs, on the leader's.
//   answers      full 1 (rank 0's request), empty 676 on rank 0.
//   throttle     full 1 (rank 0's TMA lane), empty 32 (the scheduler).
//
// Edges: A, B and C are addressed only through TMA. Loads out of bounds are
// zero-filled (the descriptors' OOB fill is zero), so a partial M, N or K
// tile contributes zeros to the MMA; stores are clipped at the tensor's
// bounds. Host-side preconditions: M, N, K >= 1 (K = 0 would leave the
// accumulator unwritten); K and N multiples of 8 (TMA's 16-byte row pitch),
// 16-byte aligned base pointers; M, N, K < 2^31 and ceil(M/512) *
// ceil(N/256) < 2^31 (the loops count in i32).
//
// Launch: grid (4 * ceil(M/512) * ceil(N/256), 1, 1), in clusters of
// (4, 1, 1) (cuLaunchKernelEx; the kernel declares it: .reqnctapercluster),
// block (224, 1, 1), dynamic shared memory 230400 bytes
// (raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). Arguments:
// pointers to three CUtensorMaps in global memory (the project's
// !nvgpu.tensormap.descriptor ABI), all bf16, 128-byte swizzle, OOB fill
// zero, from cuTensorMapEncodeTiled:
//   A: dims {K, M}, strides {2K}, box {64, 128}
//   B: dims {K, N}, strides {2K}, box {64, 64}
//   C: dims {N, M}, strides {2N}, box {64, 32}
// then M, N, K (i32).
//
// Shared memory (dynamic, 1 KiB aligned):
//   0       input barriers: 6 full, 6 empty (96 B)
//   96      accumulator barriers: 2 full, 2 empty (32 B)
//   128     the TMEM deallocation barrier and address (16 B): 512
//           columns in each CTA, 2 accumulator stages of 128 lanes x 256
//           fp32 columns (the CTA's 128 rows of the 256 x 256 tile)
//   144     the scheduler's barriers: 2 full, 2 empty (32 B)
//   176     the scheduler's answers: 2 x 16 B
//   208     the throttle's barriers: 2 full, 2 empty (32 B)
//   1024    A stages: 6 x 128 x 64 bf16 (96 KiB), 128-byte swizzled by TMA
//   99328   B stages: 6 x 128 x 64 bf16 (96 KiB)
//   197632  C staging: 4 epilogue warps x 2 buffers x 32 x 64 bf16 (32 KiB)
//   230400  end
//
// Chip: sm_100a only (tcgen05, tcgen05.mma.cta_group::2); sm_90a has
// neither (test/Target/PTX/examples.mlir reads the next line).
// chips: sm_100a
// Assembled by ptxas and its PTX checked (test/Target/PTX/gemm-sm100.mlir);
// never executed: there is no Blackwell GPU in this workplace.
//
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/gemm_sm100.mlir
//   pipeline-compile examples/gemm_sm100.mlir --chip=sm_100a -o gemm

!Smem = memref<?xi8, #gpu.address_space<workgroup>>
!Tmem = !pipeline.tmem<columns = 512, cta_group = 2>
!Resp = memref<2x1x16xi8, #gpu.address_space<workgroup>>
!Clc = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !Clc, k_group_size = 1, payload = [!Resp]>
!ATiles = memref<6x1x128x64xbf16, #gpu.address_space<workgroup>>
!BTiles = memref<6x1x128x64xbf16, #gpu.address_space<workgroup>>
!AStage = memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!BStage = memref<1x128x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!BSlice = memref<1x64x64xbf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!CStaging = memref<4x2x32x64xbf16, #gpu.address_space<workgroup>>
!Bf16Ptr = memref<bf16, #gpu.address_space<workgroup>>

!In = !pipeline.pipeline<stages = 6, cta_group = 2, cluster_m = 4>
!InTP = !pipeline.tile_pipeline<pipeline = !In, k_group_size = 1, payload = [!ATiles, !BTiles]>
!Acc = !pipeline.pipeline<stages = 2, cta_group = 2, tmem = true>
!Thr = !pipeline.pipeline<stages = 2>

module attributes {gpu.container_module} {

gpu.module @gemm_sm100 {
  gpu.func @gemm_bf16_cta2(%a_map: !llvm.ptr, %b_map: !llvm.ptr, %c_map: !llvm.ptr,
                           %m_size: i32, %n_size: i32, %k_size: i32) kernel
      attributes {nvvm.reqntid = array<i32: 224, 1, 1>, nvvm.minctasm = 1 : i32,
                  nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c1024 = arith.constant 1024 : index
    %c4096 = arith.constant 4096 : index
    %c8192 = arith.constant 8192 : index
    %c99328 = arith.constant 99328 : index
    %c197632 = arith.constant 197632 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i4 = arith.constant 4 : i32
    %i5 = arith.constant 5 : i32
    %i16 = arith.constant 16 : i32
    %i32 = arith.constant 32 : i32
    %i63 = arith.constant 63 : i32
    %i64 = arith.constant 64 : i32
    %i128 = arith.constant 128 : i32
    %i255 = arith.constant 255 : i32
    %i511 = arith.constant 511 : i32
    %i512 = arith.constant 512 : i32
    %all_lanes = arith.constant -1 : i32
    %i256 = arith.constant 256 : i32
    %i0_i8 = arith.constant 0 : i8
    %swizzle128 = arith.constant 2 : i8
    %false = arith.constant false
    %true = arith.constant true
    // Instruction descriptor, kind::f16: D fp32 (bit 4), A and B bf16 (bits
    // 7, 10), both K-major (bits 15, 16 clear), N >> 3 = 32 at bit 17,
    // M >> 4 = 16 at bit 24 (M = 256 across the pair).
    %idesc = arith.constant 272630928 : i32

    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %i0 : i32
    // This CTA's 128-row half of the tile: the leader the first, the peer the
    // second (rows of A and C, and rows of B = columns of C).
    %half = arith.muli %odd, %i128 : i32

    // The tile schedule, identical in every role of every CTA.
    %m_plus = arith.addi %m_size, %i511 : i32
    %n_plus = arith.addi %n_size, %i255 : i32
    %k_plus = arith.addi %k_size, %i63 : i32
    %m_tiles = arith.divui %m_plus, %i512 : i32
    %n_tiles = arith.divui %n_plus, %i256 : i32
    %k_blocks = arith.divui %k_plus, %i64 : i32
    %num_tiles = arith.muli %m_tiles, %n_tiles : i32
    // Cluster c = blocks 4c .. 4c + 3 (cluster ranks 0 .. 3) starts with
    // cluster tile c; a cluster tile is 512 x 256, pair q = rank / 2 (ranks
    // 2q, 2q + 1) computes its rows 256 q .. 256 q + 255.
    %bid = gpu.block_id x
    %bid_i32 = arith.index_cast %bid : index to i32
    %cluster_id = arith.divui %bid_i32, %i4 : i32
    %pair_q = arith.divui %rank, %i2 : i32
    %pair_rows = arith.muli %pair_q, %i256 : i32
    %rank0 = arith.cmpi eq, %rank, %i0 : i32
    // B is the same for both pairs (the same 256 columns of C): each CTA
    // loads half of its 128 rows of B (the half q) and multicasts it to
    // itself and to the CTA at the same place in the other pair (cluster
    // ranks of its parity: mask 0b0101 << (rank & 1)), as CUTLASS's 2SM
    // kernels multicast B along the cluster's M mode.
    %b_first = arith.muli %pair_q, %i64 : i32
    %b_half_off = arith.index_cast %b_first : i32 to index
    %b_mask32 = arith.shli %i5, %odd : i32
    %b_mask = arith.trunci %b_mask32 : i32 to i16

    %smem = gpu.dynamic_shared_memory : !Smem
    %in = pipeline.create in %smem[%c0] : !Smem -> !In
    %acc_off = pipeline.smem_bytes !In
    %accp = pipeline.create in %smem[%acc_off] : !Smem -> !Acc
    %acc_bytes = pipeline.smem_bytes !Acc
    %tmem_off = arith.addi %acc_off, %acc_bytes : index
    %tmem = pipeline.tmem_create in %smem[%tmem_off] : !Smem -> !Tmem
    %tmem_bytes = pipeline.smem_bytes !Tmem
    %clc_off = arith.addi %tmem_off, %tmem_bytes : index
    %clcp = pipeline.create in %smem[%clc_off] : !Smem -> !Clc
    %clc_bytes = pipeline.smem_bytes !Clc
    %resp_off = arith.addi %clc_off, %clc_bytes : index
    %resp = memref.view %smem[%resp_off][] : !Smem to !Resp
    %thr_off = arith.addi %resp_off, %c32 : index
    %thr = pipeline.create in %smem[%thr_off] : !Smem -> !Thr
    %clc = pipeline.input_tile_pipeline %clcp payload(%resp : !Resp) : !Clc -> !CLC
    %a_tiles = memref.view %smem[%c1024][] : !Smem to !ATiles
    %b_tiles = memref.view %smem[%c99328][] : !Smem to !BTiles
    %c_staging = memref.view %smem[%c197632][] : !Smem to !CStaging
    %tp = pipeline.input_tile_pipeline %in payload(%a_tiles, %b_tiles : !ATiles, !BTiles)
        : !In -> !InTP

    // Cluster-wide init (the CTAs signal each other's barriers). Input full
    // (used in the leaders): the leader's expect_tx; input empty (every
    // CTA): the multicast tcgen05.commits of the 2 pairs' leaders (the
    // cross of the 4x1 cluster: all 4 CTAs); accumulator full (both CTAs of
    // a pair): one
    // multicast tcgen05.commit; accumulator empty (used in the leader): 128
    // epilogue threads x 2 CTAs.
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !InTP
    pipeline.init_mbars %accp producer 1 consumer 256 cluster : !Acc
    // The scheduler's answers (CUTLASS PipelineCLCFetchAsync, Mojo
    // compute_clc_barrier_counts): full 1 (rank 0's request arms each CTA),
    // empty 676 on rank 0: its scheduler warp (32) + 4 CTAs x (TMA lane 1
    // + warp 1 32 + epilogue 128).
    pipeline.init_mbars %clc producer 1 consumer 676 cluster : !CLC
    // The throttle (CUTLASS CLCThrottlePipeline), used in rank 0 only: the
    // TMA lane signals each tile it starts (producer 1), the scheduler warp
    // waits for one before each request (consumer 32), so the scheduler
    // stays at most 2 requests ahead of the loads.
    pipeline.init_mbars %thr producer 1 consumer 32 : !Thr

    // Warp 1 of each CTA allocates the 512 columns (cta_group::2: the pair
    // gets the same address) and every thread gets the address. Its readers
    // are the 128 epilogue threads of each CTA: the deallocation barrier
    // counts 128 x 2 (each releases on both CTAs').
    %tmem_base = pipeline.tmem_alloc %tmem readers 128 warp 1 : !Tmem -> i32
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index

    %is_tma_warp = arith.cmpi eq, %warp, %c0 : index
    %from_warp2 = arith.cmpi uge, %warp, %c2 : index
    %below_warp6 = arith.cmpi ult, %warp, %c6 : index
    %is_epilogue = arith.andi %from_warp2, %below_warp6 : i1
    scf.if %is_tma_warp {
      //===------------------------------------------------------------===//
      // TMA producer, one lane in each CTA: this CTA's 128 rows of A and 128
      // rows of B into its own shared memory, completing on the leader's
      // full barrier, where the MMA waits for both halves.
      //===------------------------------------------------------------===//
      // The TMA lane also reads the scheduler's answers (one arrival per
      // CTA on rank 0's empty barrier: the reference's whole load warp
      // arrives, 32).
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        %tiles_loaded = scf.while (%t0 = %cluster_id, %more = %true) : (i32, i1) -> i32 {
          scf.condition(%more) %t0 : i32
        } do {
        ^bb0(%t: i32):
          %m_blk = arith.remui %t, %m_tiles : i32
          %n_blk = arith.divui %t, %m_tiles : i32
          %m_cluster0 = arith.muli %m_blk, %i512 : i32
          %m_tile0 = arith.addi %m_cluster0, %pair_rows : i32
          %n_tile0 = arith.muli %n_blk, %i256 : i32
          %m_row = arith.addi %m_tile0, %half : i32
          %n_row = arith.addi %n_tile0, %half : i32
          %b_row = arith.addi %n_row, %b_first : i32
          // The throttle: rank 0's TMA lane lets the scheduler request one
          // more tile each time it starts one.
          scf.if %rank0 {
            pipeline.produce %thr as %ts : !Thr {
              pipeline.arrive %ts : !pipeline.stage<producer, !Thr>
            }
          }
          scf.for %kb = %i0 to %k_blocks step %i1 : i32 {
            %k0 = arith.muli %kb, %i64 : i32
            // Waits on this CTA's empty barrier (both leaders' MMA commits
            // reach all 4 CTAs).
            %s = pipeline.acquire_producer %tp : !InTP
            // The leader arms its full barrier for both CTAs' 2 x 32 KiB;
            // the peer does nothing here.
            pipeline.expect_tx %s : !pipeline.stage<producer, !InTP>
            %a = pipeline.payload %s[0] : !pipeline.stage<producer, !InTP> -> !AStage
            %b = pipeline.payload %s[1] : !pipeline.stage<producer, !InTP> -> !BStage
            // The 2-SM loads (.cta_group::2): into this CTA's own stage,
            // completing on the LEADER's full barrier, where the MMA waits
            // for both halves; this CTA's half of its B rows also into the
            // same place of the other pair's CTA (completing on that
            // pair's leader). Boxes past M, N or K are zero-filled and
            // still count their full bytes toward the transaction.
            pipeline.tma_load %s, %a_map[%k0, %m_row] -> %a
                : !pipeline.stage<producer, !InTP>, !llvm.ptr, !AStage
            %b_half = memref.subview %b[0, %b_half_off, 0] [1, 64, 64] [1, 1, 1] : !BStage to !BSlice
            pipeline.tma_load %s, %b_map[%k0, %b_row] -> %b_half multicast(%b_mask)
                : !pipeline.stage<producer, !InTP>, !llvm.ptr, !BSlice
            // The producer handle only steps: the TMA completes the stage.
            pipeline.release %s : !pipeline.stage<producer, !InTP>
          }
          // The next tile: the answer of the scheduler (every
          // participating warp of every CTA reads each answer once).
          %cs = pipeline.acquire_consumer %clc : !CLC
          %ok, %cx, %cy, %cz = pipeline.clc_response %cs : !pipeline.stage<consumer, !CLC>
          pipeline.arrive %cs : !pipeline.stage<consumer, !CLC>
          pipeline.release %cs : !pipeline.stage<consumer, !CLC>
          %next = arith.divui %cx, %i4 : i32
          scf.yield %next, %ok : i32, i1
        }
        // No exit while the leader's MMA may still read this CTA's stages:
        // wait for the last commits on this CTA's empty barriers.
        pipeline.drain_producer %tp : !InTP
      }
    } else {
      %is_mma_warp_leader = arith.andi %is_mma_warp, %is_leader_cta : i1
      scf.if %is_mma_warp_leader {
        //===----------------------------------------------------------===//
        // MMA warp, leader CTA only. The whole warp waits; one elected lane
        // issues the MMAs and the commits (tcgen05.commit tracks the MMAs
        // of its own thread).
        //===----------------------------------------------------------===//
        %elect = nvvm.elect.sync -> i1
        %tiles_issued = scf.while (%t0 = %cluster_id, %more = %true) : (i32, i1) -> i32 {
          scf.condition(%more) %t0 : i32
        } do {
        ^bb0(%t: i32):
          // Waits until both CTAs' epilogues have read this accumulator
          // stage (their arrivals land on the leader's empty barrier).
          // (tmem = true: the acquire ends in tcgen05.fence::after_thread_sync,
          // which orders these MMAs after the epilogues' tcgen05.ld of the
          // stage.)
          %acc = pipeline.acquire_producer %accp : !Acc
          %acc_stage = pipeline.index %acc : !pipeline.stage<producer, !Acc>
          %acc_stage_i32 = arith.index_cast %acc_stage : index to i32
          %acc_col = arith.muli %acc_stage_i32, %i256 : i32
          %d_addr = arith.addi %tmem_base, %acc_col : i32
          %d = llvm.inttoptr %d_addr : i32 to !llvm.ptr<6>
          scf.for %kb = %i0 to %k_blocks step %i1 : i32 {
            // Waits on the leader's full barrier: both CTAs' bytes landed.
            %s = pipeline.acquire_consumer %tp : !InTP
            %a = pipeline.payload %s[0] : !pipeline.stage<consumer, !InTP> -> !AStage
            %b = pipeline.payload %s[1] : !pipeline.stage<consumer, !InTP> -> !BStage
            %a_base, %a_off, %a_sz:3, %a_st:3 = memref.extract_strided_metadata %a
                : !AStage -> !Bf16Ptr, index, index, index, index, index, index, index
            %b_base, %b_off, %b_sz:3, %b_st:3 = memref.extract_strided_metadata %b
                : !BStage -> !Bf16Ptr, index, index, index, index, index, index, index
            %a_ptr = memref.extract_aligned_pointer_as_index %a_base : !Bf16Ptr -> index
            %b_ptr = memref.extract_aligned_pointer_as_index %b_base : !Bf16Ptr -> index
            %a_eoff = arith.muli %a_off, %c2 : index
            %b_eoff = arith.muli %b_off, %c2 : index
            %a_addr = arith.addi %a_ptr, %a_eoff : index
            %b_addr = arith.addi %b_ptr, %b_eoff : index
            %a_addr_i32 = arith.index_cast %a_addr : index to i32
            %b_addr_i32 = arith.index_cast %b_addr : index to i32
            %a16 = arith.shrui %a_addr_i32, %i4 : i32
            %b16 = arith.shrui %b_addr_i32, %i4 : i32
            %kb0 = arith.cmpi eq, %kb, %i0 : i32
            scf.if %elect {
              // 4 K-steps of 16 inside the 128-byte swizzle atom: +32 bytes
              // (2 x 16 B) per step. Descriptors: K-major, 128-byte
              // swizzle, 8-row groups 1024 B apart (SBO 64 x 16 B). The
              // same offsets address the peer's halves of A and B.
              scf.for %kk = %c0 to %c4 step %c1 {
                %kk_i32 = arith.index_cast %kk : index to i32
                %k_step = arith.muli %kk_i32, %i2 : i32
                %a_start = arith.addi %a16, %k_step : i32
                %b_start = arith.addi %b16, %k_step : i32
                %a_desc = nvvm.tcgen05.mma_smem_desc (%a_start, %i1, %i64, %i0_i8, %false, %swizzle128)
                    : (i32, i32, i32, i8, i1, i8) -> i64
                %b_desc = nvvm.tcgen05.mma_smem_desc (%b_start, %i1, %i64, %i0_i8, %false, %swizzle128)
                    : (i32, i32, i32, i8, i1, i8) -> i64
                // The first MMA of a tile overwrites the accumulator.
                %kk0 = arith.cmpi eq, %kk, %c0 : index
                %first = arith.andi %kb0, %kk0 : i1
                %accumulate = arith.xori %first, %true : i1
                nvvm.tcgen05.mma %d, %a_desc, %b_desc, %idesc, %accumulate
                    {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>}
                    : (!llvm.ptr<6>, i64, i64, i32, i1)
              }
            }
            // tcgen05.commit.cta_group::2 multicast to this stage's empty
            // barrier in all 4 CTAs (both pairs' B halves are in it), once
            // these MMAs have read the stage.
            pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !InTP>
            pipeline.release %s : !pipeline.stage<consumer, !InTP>
          }
          // Multicast to both CTAs' accumulator full barriers, once every
          // MMA of the tile completed.
          pipeline.commit_mma %acc elect(%elect) : !pipeline.stage<producer, !Acc>
          pipeline.release %acc : !pipeline.stage<producer, !Acc>
          // The next tile: this warp's read of the scheduler's answer (every
          // participating warp of every CTA reads each answer once).
          %cs = pipeline.acquire_consumer %clc : !CLC
          %ok, %cx, %cy, %cz = pipeline.clc_response %cs : !pipeline.stage<consumer, !CLC>
          pipeline.arrive %cs : !pipeline.stage<consumer, !CLC>
          pipeline.release %cs : !pipeline.stage<consumer, !CLC>
          %next = arith.divui %cx, %i4 : i32
          scf.yield %next, %ok : i32, i1
        }
        // No TMEM dealloc while an epilogue still reads an accumulator.
        pipeline.drain_producer %accp : !Acc
      } else {
        scf.if %is_epilogue {
          //===--------------------------------------------------------===//
          // Epilogue warps 2..5 of both CTAs. Warp w may only access TMEM
          // lanes 32 (w mod 4) .. + 31: its 32 rows of the CTA's 128; each
          // thread one row, 256 columns per tile, in 4 sub-tiles of 64.
          //===--------------------------------------------------------===//
          %quarter = arith.remui %warp, %c4 : index
          %q32 = arith.muli %quarter, %c32 : index
          %q32_i32 = arith.index_cast %q32 : index to i32
          %lane_field = arith.shli %q32_i32, %i16 : i32
          %t_lane_base = arith.addi %tmem_base, %lane_field : i32
          %lane0 = arith.cmpi eq, %lane, %c0 : index
          // 128-byte swizzle of the staging rows (as the C descriptor's):
          // 16-byte chunk j of row r sits at chunk j ^ (r mod 8).
          %lane_mod8 = arith.andi %lane, %c7 : index
          %staging_base = memref.extract_aligned_pointer_as_index %c_staging : !CStaging -> index
          %warp_off = arith.muli %quarter, %c8192 : index
          %warp_staging = arith.addi %staging_base, %warp_off : index
          %tiles_done = scf.while (%t0 = %cluster_id, %more = %true) : (i32, i1) -> i32 {
            scf.condition(%more) %t0 : i32
          } do {
          ^bb0(%t: i32):
            %m_blk = arith.remui %t, %m_tiles : i32
            %n_blk = arith.divui %t, %m_tiles : i32
            %m_cluster0 = arith.muli %m_blk, %i512 : i32
            %m_tile0 = arith.addi %m_cluster0, %pair_rows : i32
            %n_tile0 = arith.muli %n_blk, %i256 : i32
            %m_cta = arith.addi %m_tile0, %half : i32
            %m_warp = arith.addi %m_cta, %q32_i32 : i32
            // Waits on this CTA's accumulator full barrier; the exit
            // arrives on the leader CTA's empty barrier.
            // (tmem = true: entering the region fences after the wait,
            // leaving it fences before the arrival.)
            pipeline.consume %accp as %e : !Acc {
              %acc_stage = pipeline.index %e : !pipeline.stage<consumer, !Acc>
              %acc_stage_i32 = arith.index_cast %acc_stage : index to i32
              %acc_col = arith.muli %acc_stage_i32, %i256 : i32
              %t_stage = arith.addi %t_lane_base, %acc_col : i32
              scf.for %sub = %c0 to %c4 step %c1 {
                // Double-buffered staging: the store issued from this
                // buffer two sub-tiles ago must have read it.
                %buf = arith.remui %sub, %c2 : index
                scf.if %lane0 {
                  nvvm.cp.async.bulk.wait_group 1 {read}
                }
                nvvm.bar.warp.sync %all_lanes : i32
                %sub_i32 = arith.index_cast %sub : index to i32
                %sub_col = arith.muli %sub_i32, %i64 : i32
                scf.for %h = %c0 to %c2 step %c1 {
                  %h_i32 = arith.index_cast %h : index to i32
                  %h_col = arith.muli %h_i32, %i32 : i32
                  %col = arith.addi %sub_col, %h_col : i32
                  %t_addr = arith.addi %t_stage, %col : i32
                  %t_ptr = llvm.inttoptr %t_addr : i32 to !llvm.ptr<6>
                  %bits = nvvm.tcgen05.ld %t_ptr {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
                  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
                  %vals = arith.bitcast %bits : vector<32xi32> to vector<32xf32>
                  %bf = arith.truncf %vals : vector<32xf32> to vector<32xbf16>
                  %h4 = arith.muli %h, %c4 : index
                  %v0 = vector.shuffle %bf, %bf [0, 1, 2, 3, 4, 5, 6, 7] : vector<32xbf16>, vector<32xbf16>
                  %v1 = vector.shuffle %bf, %bf [8, 9, 10, 11, 12, 13, 14, 15] : vector<32xbf16>, vector<32xbf16>
                  %v2 = vector.shuffle %bf, %bf [16, 17, 18, 19, 20, 21, 22, 23] : vector<32xbf16>, vector<32xbf16>
                  %v3 = vector.shuffle %bf, %bf [24, 25, 26, 27, 28, 29, 30, 31] : vector<32xbf16>, vector<32xbf16>
                  // Chunks 4h .. 4h + 3 of the row's 8 (16 bytes each).
                  %j1 = arith.addi %h4, %c1 : index
                  %j2 = arith.addi %h4, %c2 : index
                  %j3 = arith.addi %h4, %c3 : index
                  %p0 = arith.xori %h4, %lane_mod8 : index
                  %p1 = arith.xori %j1, %lane_mod8 : index
                  %p2 = arith.xori %j2, %lane_mod8 : index
                  %p3 = arith.xori %j3, %lane_mod8 : index
                  %e0 = arith.muli %p0, %c8 : index
                  %e1 = arith.muli %p1, %c8 : index
                  %e2 = arith.muli %p2, %c8 : index
                  %e3 = arith.muli %p3, %c8 : index
                  vector.store %v0, %c_staging[%quarter, %buf, %lane, %e0] {alignment = 16} : !CStaging, vector<8xbf16>
                  vector.store %v1, %c_staging[%quarter, %buf, %lane, %e1] {alignment = 16} : !CStaging, vector<8xbf16>
                  vector.store %v2, %c_staging[%quarter, %buf, %lane, %e2] {alignment = 16} : !CStaging, vector<8xbf16>
                  vector.store %v3, %c_staging[%quarter, %buf, %lane, %e3] {alignment = 16} : !CStaging, vector<8xbf16>
                }
                // Make the generic-proxy writes visible to the TMA (async
                // proxy), then one lane stores the warp's 32 x 64 box;
                // rows past M and columns past N are clipped.
                nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
                nvvm.bar.warp.sync %all_lanes : i32
                scf.if %lane0 {
                  %buf_off = arith.muli %buf, %c4096 : index
                  %src = arith.addi %warp_staging, %buf_off : index
                  %src_i64 = arith.index_cast %src : index to i64
                  %src_ptr = llvm.inttoptr %src_i64 : i64 to !llvm.ptr<3>
                  %n_col = arith.addi %n_tile0, %sub_col : i32
                  nvvm.cp.async.bulk.tensor.global.shared.cta %c_map, %src_ptr, box[%n_col, %m_warp]
                      : !llvm.ptr, !llvm.ptr<3>
                  nvvm.cp.async.bulk.commit.group
                }
              }
            }
            // The next tile: this warp's read of the scheduler's answer (every
            // participating warp of every CTA reads each answer once).
            %cs = pipeline.acquire_consumer %clc : !CLC
            %ok, %cx, %cy, %cz = pipeline.clc_response %cs : !pipeline.stage<consumer, !CLC>
            pipeline.arrive %cs : !pipeline.stage<consumer, !CLC>
            pipeline.release %cs : !pipeline.stage<consumer, !CLC>
            %next = arith.divui %cx, %i4 : i32
            scf.yield %next, %ok : i32, i1
          }
          // The staging buffers stay allocated until the TMA has read them.
          scf.if %lane0 {
            nvvm.cp.async.bulk.wait_group 0 {read}
          }
          // Done with TMEM: on this CTA's deallocation barrier and the
          // peer's.
          pipeline.tmem_release %tmem : !Tmem
        } else {
          scf.if %is_mma_warp {
            //===------------------------------------------------------===//
            // Warp 1 of the peer CTA: no MMAs (the leader's cover both
            // CTAs), but it follows the schedule like its leader twin, so
            // every CTA brings the same 161 readers to every answer.
            //===------------------------------------------------------===//
            %tiles_followed = scf.while (%t0 = %cluster_id, %more = %true) : (i32, i1) -> i32 {
              scf.condition(%more) %t0 : i32
            } do {
            ^bb0(%t: i32):
              // The next tile: this warp's read of the scheduler's answer (every
              // participating warp of every CTA reads each answer once).
              %cs = pipeline.acquire_consumer %clc : !CLC
              %ok, %cx, %cy, %cz = pipeline.clc_response %cs : !pipeline.stage<consumer, !CLC>
              pipeline.arrive %cs : !pipeline.stage<consumer, !CLC>
              pipeline.release %cs : !pipeline.stage<consumer, !CLC>
              %next = arith.divui %cx, %i4 : i32
              scf.yield %next, %ok : i32, i1
            }
          } else {
            //===------------------------------------------------------===//
            // Warp 6: the scheduler, in cluster rank 0 only (the leader of
            // the cluster's one pair). Asks to cancel a cluster that has
            // not started yet and reads the answer like every worker; stops
            // after the first "nothing canceled" (the grid is done).
            //===------------------------------------------------------===//
            scf.if %rank0 {
              scf.while (%more = %true) : (i1) -> () {
                scf.condition(%more)
              } do {
                // The throttle: wait until the TMA lane started the tile
                // of the last answer.
                pipeline.consume %thr as %ts : !Thr {
                }
                %p = pipeline.acquire_producer %clc : !CLC
                pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
                pipeline.release %p : !pipeline.stage<producer, !CLC>
                %cs = pipeline.acquire_consumer %clc : !CLC
                %ok, %cx, %cy, %cz = pipeline.clc_response %cs : !pipeline.stage<consumer, !CLC>
                pipeline.arrive %cs : !pipeline.stage<consumer, !CLC>
                pipeline.release %cs : !pipeline.stage<consumer, !CLC>
                scf.yield %ok : i1
              }
              // The other CTAs' readers still arrive on rank 0's empty
              // barriers.
              pipeline.drain_producer %clc : !CLC
            }
          }
        }
      }
    }

    // Teardown: warp 1 of each CTA frees the TMEM once both CTAs'
    // epilogues released it, which also keeps each CTA alive until the
    // peer's last signal to it has landed (the input and accumulator
    // pipelines' own drains cover the rest). No cluster barrier.
    scf.if %is_mma_warp {
      pipeline.tmem_dealloc %tmem, %tmem_base : !Tmem
    }
    gpu.return
  }
}

}
