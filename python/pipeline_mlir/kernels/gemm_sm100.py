"""The bf16 GEMM for Blackwell (sm_100a): C = A B^T with CTA pairs
(tcgen05.mma.cta_group::2, M = 256, N = 256 per pair), 4x1 clusters with B
multicast, a cluster-launch-control persistent scheduler, the accumulator
in tensor memory (2 stages of 256 columns) and 4 epilogue warps per CTA
(tcgen05.ld -> bf16 -> swizzled staging -> TMA store).

Kernel `gemm_bf16_cta2(a_map, b_map, c_map, M, N, K)`: block 224, cluster
(4, 1, 1), grid 4 * ceil(M / 512) * ceil(N / 256), 230400 bytes of dynamic
shared memory. The shipped example is examples/gemm_sm100.mlir
(`example()`); `python3 -m pipeline_mlir.kernels.gemm_sm100 -o out.mlir`
writes the module.
"""

from __future__ import annotations


from . import _command
from ._sm100_schedule import ClcSchedule, cta_readers, first_tile, pair_multicast_mask
from .. import ir as pm
from .. import types as T
from ..nvidia import blackwell as bw
from ..nvidia import common
from ..nvidia.common import divui
from ..nvidia.hopper import SmemLayout

KERNEL = "gemm_bf16_cta2"
MODULE = "gemm_sm100"

STAGES = 6          # input stages (one 64-wide k-block of A and B each)
ACC_STAGES = 2      # accumulator stages of 256 TMEM columns
TILE_M = 256        # rows of C per CTA pair (128 per CTA)
TILE_N = 256        # columns of C per CTA pair
CLUSTER_M = 512     # rows of C per cluster (two pairs)
BLOCK_K = 64
THREADS = 224       # warp 0 TMA, 1 MMA, 2..5 epilogue, 6 scheduler
CLUSTER = 4

#: Shared-memory layout (bytes).
A_OFFSET = 1024
B_OFFSET = A_OFFSET + STAGES * 128 * BLOCK_K * 2           # 99328
C_OFFSET = B_OFFSET + STAGES * 128 * BLOCK_K * 2           # 197632
SMEM_BYTES = C_OFFSET + 4 * 2 * 32 * 64 * 2                # 230400

PTR = T.OpaqueType("!llvm.ptr")


def build():
    """The kernel and its dynamic shared memory in bytes."""
    smem_t = T.smem
    a_tiles_t = T.MemRefType((STAGES, 1, 128, BLOCK_K), T.bf16, smem_t)
    # The MMA reads both operands K-major, 128-byte swizzled (as TMA wrote them).
    a_layout = SmemLayout(128, BLOCK_K, T.bf16, swizzle=128, major="K")
    b_layout = SmemLayout(128, BLOCK_K, T.bf16, swizzle=128, major="K")
    # M = 256 across the pair, N = 256, K = 16 per instruction.
    mma = bw.Mma.of(TILE_M, TILE_N, a_layout, b_layout, T.f32, cta_group=2)

    @pm.kernel(name=KERNEL, block=THREADS, cluster=(CLUSTER, 1, 1), min_ctas=1)
    def gemm_bf16_cta2(a_map: PTR, b_map: PTR, c_map: PTR, m_size: T.i32, n_size: T.i32,
                       k_size: T.i32):
        true = pm.constant(1, T.i1)
        tid = pm.thread_id()
        warp = tid // 32
        lane = tid % 32
        rank = common.cluster_ctarank_i32()
        odd = rank & 1
        is_leader_cta = odd == 0
        # This CTA's 128-row half of the tile: the leader the first, the
        # peer the second (rows of A and C, and rows of B = columns of C).
        half = odd * 128

        # The tile schedule, identical in every role of every CTA.
        m_tiles = divui(m_size + (CLUSTER_M - 1), CLUSTER_M)
        k_blocks = divui(k_size + (BLOCK_K - 1), BLOCK_K)
        # Cluster c = blocks 4c .. 4c + 3 starts with cluster tile c; a
        # cluster tile is 512 x 256, pair q = rank / 2 computes its rows
        # 256 q .. 256 q + 255.
        cluster_id = first_tile(CLUSTER)
        pair_q = divui(rank, 2)
        pair_rows = pair_q * TILE_M
        rank0 = rank == 0
        # B is the same for both pairs: each CTA loads half of its 128 rows
        # of B (the half q) and multicasts it to itself and to the CTA at
        # the same place in the other pair (mask 0b0101 << (rank & 1)).
        b_first = pair_q * 64
        b_half_off = b_first.cast(T.index)
        b_mask = pair_multicast_mask(rank)

        smem = pm.dynamic_shared_memory()
        inp = pm.pipeline(smem, 0, stages=STAGES, cta_group=2, cluster_m=CLUSTER)
        acc_off = inp.smem_bytes
        accp = pm.pipeline(smem, acc_off, stages=ACC_STAGES, cta_group=2, tmem=True)
        tmem_off = acc_off + accp.smem_bytes
        tmem = bw.TensorMemory(smem, tmem_off, columns=512, cta_group=2)
        # The scheduler's answers and its throttle (kernels/_sm100_schedule.py).
        sched = ClcSchedule(smem, tmem_off + tmem.smem_bytes, cluster_id, m_tiles, CLUSTER,
                            true)
        a_tiles = pm.view(smem, A_OFFSET, a_tiles_t.shape, T.bf16)
        b_tiles = pm.view(smem, B_OFFSET, a_tiles_t.shape, T.bf16)
        c_staging = pm.view(smem, C_OFFSET, (4, 2, 32, 64), T.bf16)
        tp = pm.tile_pipeline(inp, [a_tiles, b_tiles])

        # Cluster-wide init. Input full: the leader's expect_tx; input
        # empty (every CTA): the multicast commits of the 2 pairs' leaders.
        # Accumulator full: one multicast commit; empty: 128 epilogue
        # threads x 2 CTAs, on the leader's.
        tp.init(1, 2, cluster=True)
        accp.init(1, 256, cluster=True)
        # The scheduler's answers: full 1 (rank 0's request), empty 676 on
        # rank 0: its scheduler warp (32) + 4 CTAs x (TMA lane 1 + warp 1
        # 32 + epilogue 128). The throttle, used in rank 0 only: the TMA
        # lane signals each tile it starts, the scheduler warp waits for
        # one before each request (at most 2 requests ahead of the loads).
        sched.init(cta_readers(CLUSTER), cluster=True)

        # Warp 1 of each CTA allocates the 512 columns (cta_group 2: the
        # pair gets the same address); 128 epilogue threads per CTA read
        # them.
        columns = tmem.alloc(readers=128, warp=1)
        is_mma_warp = warp == 1
        is_tma_warp = warp == 0
        is_epilogue = (warp >= 2) & (warp < 6)

        def tile_origin(t):
            """(first row of the pair's 256 rows, first column) of cluster tile t."""
            m_blk, n_blk = sched.origin(t)
            return m_blk * CLUSTER_M + pair_rows, n_blk * TILE_N

        with pm.if_(is_tma_warp) as roles:
            # TMA producer, one lane in each CTA: this CTA's 128 rows of A
            # and its half of 128 rows of B, completing on the leader's full
            # barrier, where the MMA waits for both CTAs' bytes.
            with pm.if_(lane == 0):
                with sched.loop() as t:
                    m_tile0, n_tile0 = tile_origin(t)
                    m_row = m_tile0 + half
                    b_row = n_tile0 + half + b_first
                    # The throttle: one more request per tile started.
                    sched.tile_started(rank0)
                    with pm.range(0, k_blocks) as kb:
                        k0 = kb * BLOCK_K
                        s = tp.acquire_producer()
                        # The leader arms its full barrier for both CTAs' bytes.
                        s.expect_tx()
                        a = s.payload(0)
                        b = s.payload(1)
                        pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=a_map,
                                       coordinates=[k0, m_row], dst=a)
                        b_half = pm.subview(b, [0, b_half_off, 0], [1, 64, 64], rank=3)
                        pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=b_map,
                                       coordinates=[k0, b_row], dst=b_half,
                                       multicast_mask=b_mask)
                        # The producer handle only steps: the TMA completes the stage.
                        s.release()
                # No exit while the leader's MMA may still read this CTA's stages.
                tp.drain_producer()
        with roles.else_():
            with pm.if_(is_mma_warp & is_leader_cta) as mma_role:
                # MMA warp, leader CTA only: the whole warp waits, one
                # elected lane issues the MMAs and the commits.
                elect = common.elect_sync()
                with sched.loop():
                    # Waits until both CTAs' epilogues read this stage
                    # (tmem = true: the acquire ends in
                    # tcgen05.fence::after_thread_sync).
                    acc = accp.acquire_producer()
                    d = columns.at(column=acc.index.cast(T.i32) * TILE_N, columns=TILE_N).ptr()
                    with pm.range(0, k_blocks) as kb:
                        # Waits on the leader's full barrier: both CTAs' bytes landed.
                        s = tp.acquire_consumer()
                        a_desc = bw.SmemDescriptor(a_layout, common.smem_address(s.payload(0)))
                        b_desc = bw.SmemDescriptor(b_layout, common.smem_address(s.payload(1)))
                        first_block = kb == 0
                        with pm.if_(elect):
                            # 4 K steps of 16 inside the 128-byte swizzle
                            # atom; the same offsets address the peer's
                            # halves of A and B. The tile's first MMA
                            # overwrites the accumulator.
                            for kk in range(a_layout.k_steps):
                                accumulate = first_block ^ True if kk == 0 else True
                                mma.issue(d, a_desc.step(kk), b_desc.step(kk), accumulate)
                        # tcgen05.commit multicast to this stage's empty
                        # barrier in all 4 CTAs, once these MMAs read it.
                        pm.pipeline_op("pipeline.release_mma", stage=s, elect=elect)
                        s.release()
                    # Multicast to both CTAs' accumulator full barriers.
                    pm.pipeline_op("pipeline.commit_mma", stage=acc, elect=elect)
                    acc.release()
                # No TMEM dealloc while an epilogue still reads an accumulator.
                accp.drain_producer()
            with mma_role.else_():
                with pm.if_(is_epilogue) as epi_role:
                    epilogue(warp, lane, half, sched, tile_origin, columns, accp, c_staging,
                             c_map, tmem)
                with epi_role.else_():
                    with pm.if_(is_mma_warp) as peer_role:
                        # Warp 1 of the peer CTA: no MMAs, but it follows
                        # the schedule like its leader twin, so every CTA
                        # brings the same readers to every answer.
                        with sched.loop():
                            pass
                    with peer_role.else_():
                        # Warp 6: the scheduler, in cluster rank 0 only.
                        sched.run_scheduler(rank0)

        # Teardown: warp 1 of each CTA frees the TMEM once both CTAs'
        # epilogues released it.
        with pm.if_(is_mma_warp):
            tmem.dealloc()

    return gemm_bf16_cta2, SMEM_BYTES


def epilogue(warp, lane, half, sched, tile_origin, columns, accp, c_staging, c_map, tmem):
    """Epilogue warps 2..5 of both CTAs. Warp w may only access TMEM lanes
    32 (w mod 4) .. + 31: its 32 rows of the CTA's 128; each thread one
    row, 256 columns per tile, in 4 sub-tiles of 64 columns."""
    quarter = warp % 4
    q32 = quarter * 32
    q32_i32 = q32.cast(T.i32)
    rows = columns.at(lane=q32_i32, lanes=32)
    lane0 = lane == 0
    # 128-byte swizzle of the staging rows (as C's tensor map): 16-byte
    # chunk j of row r sits at chunk j ^ (r mod 8).
    lane_mod8 = lane & 7
    warp_staging = common.smem_address(c_staging) + quarter * 8192
    with sched.loop() as t:
        m_tile0, n_tile0 = tile_origin(t)
        m_warp = m_tile0 + half + q32_i32
        # Waits on this CTA's accumulator full barrier; the exit arrives
        # on the leader CTA's empty barrier (tmem = true: fenced).
        with accp.consume() as e:
            stage = rows.at(column=e.index.cast(T.i32) * TILE_N, columns=TILE_N)
            with pm.range(0, 4) as sub:
                # Double-buffered staging: the store issued from this
                # buffer two sub-tiles ago must have read it.
                buf = sub % 2
                with pm.if_(lane0):
                    common.bulk_wait_group(1, read=True)
                common.warp_sync()
                sub_col = sub.cast(T.i32) * 64
                with pm.range(0, 2) as h:
                    col = sub_col + h.cast(T.i32) * 32
                    bits = stage.load(32, "32x32b", column=col)
                    bw.wait_ld()
                    vals = common.vector_bitcast(bits, T.f32)
                    packed = common.vector_truncf(vals, T.bf16)
                    h4 = h * 4
                    pieces = [common.vector_slice(packed, 8 * j, 8) for j in range(4)]
                    # Chunks 4h .. 4h + 3 of the row's 8 (16 bytes each),
                    # swizzled; all four addresses, then the four stores.
                    chunks = [h4] + [h4 + j for j in range(1, 4)]
                    swizzled = [c ^ lane_mod8 for c in chunks]
                    columns8 = [c * 8 for c in swizzled]
                    for piece, col8 in zip(pieces, columns8):
                        common.vector_store(piece, c_staging, [quarter, buf, lane, col8])
                # The generic-proxy writes become visible to the TMA, then
                # one lane stores the warp's 32 x 64 box (clipped at M, N).
                common.fence_proxy_async_shared()
                common.warp_sync()
                with pm.if_(lane0):
                    src = common.smem_ptr(warp_staging + buf * 4096)
                    common.tma_store_box(c_map, src, [n_tile0 + sub_col, m_warp])
                    common.bulk_commit_group()
    # The staging buffers stay allocated until the TMA has read them.
    with pm.if_(lane0):
        common.bulk_wait_group(0, read=True)
    # Done with TMEM: on this CTA's deallocation barrier and the peer's.
    tmem.release()


def generate(locations=True):
    """The whole module's MLIR text and the kernel's dynamic shared memory
    in bytes."""
    kernel, smem = build()
    return pm.Module([kernel], name=MODULE).mlir(locations=locations), smem


HEADER = """\
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
// GENERATED by scripts/gen-examples.py from python/pipeline_mlir/kernels/gemm_sm100.py:
// edit the program, not this file.
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
"""


def example() -> str:
    """The text of examples/gemm_sm100.mlir."""
    text, _ = generate(locations=False)
    return HEADER + "\n" + text


def main(argv=None):
    args = _command.parser(__doc__).parse_args(argv)
    _command.run(args, lambda a: (example(), SMEM_BYTES) if a.example
                 else generate(locations=not a.no_locations))

if __name__ == "__main__":
    main()
