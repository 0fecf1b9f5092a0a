"""The canonical Blackwell (sm_100a) warp-specialized matmul structure:
C[M, N] (f32) = A[M, K] B[N, K]^T (bf16, both K-major), in two kernels of
one module, `@matmul_cta1` (tcgen05.mma.cta_group::1, a 128 x 64 tile per
CTA) and `@matmul_cta2` (a CTA pair, tcgen05.mma.cta_group::2, a 256 x 128
tile per pair): an input tile pipeline (k_group_size 2) from a TMA warp to
an MMA warp, an accumulator pipeline in tensor memory from the MMA warp to
4 epilogue warps.

Both kernels: `(a_map, b_map, c, num_n_tiles, num_k_groups)`, block 192,
grid M / 128, 197632 bytes of dynamic shared memory; `@matmul_cta2` in
clusters of (2k, 1, 1). The shipped example is
examples/sm100_matmul_pipelines.mlir (`example()`);
`python3 -m pipeline_mlir.kernels.sm100_matmul_pipelines -o out.mlir`
writes the module.
"""


from . import _command
from .. import ir as pm
from .. import types as T
from ..nvidia import blackwell as bw
from ..nvidia import common
from ..nvidia.hopper import SmemLayout

MODULE = "sm100_matmul"

STAGES = 4           # input stages, each a group of K_GROUP k-blocks
K_GROUP = 2          # k-blocks per stage (k_group_size)
ACC_STAGES = 2       # accumulator stages in TMEM
BLOCK_M = 128        # rows of A and C per CTA
BLOCK_N = 64         # rows of B per CTA
BLOCK_K = 64         # a k-block: 64 bf16 = one 128-byte swizzle atom row
THREADS = 192        # warp 0 TMA, 1 MMA, 2..5 epilogue
EPILOGUE_THREADS = 128
C_SIZE = 4096        # C is 4096 x 4096 f32

#: Shared-memory layout (bytes): barriers and the TMEM address in the
#: first KiB, then the A and B stages, 1 KiB aligned for the swizzle.
A_OFFSET = 1024
B_OFFSET = A_OFFSET + STAGES * K_GROUP * BLOCK_M * BLOCK_K * 2      # 132096
SMEM_BYTES = B_OFFSET + STAGES * K_GROUP * BLOCK_N * BLOCK_K * 2     # 197632

PTR = T.OpaqueType("!llvm.ptr")
C_TYPE = T.MemRefType((C_SIZE, C_SIZE), T.f32)

# A k-block of A (128 x 64) and of B (64 x 64) as TMA writes it and the MMA
# reads it: K-major, one 128-byte swizzle atom row wide (4 K steps of 16).
# A stage holds K_GROUP k-blocks of each, one after the other.
A_LAYOUT = SmemLayout(BLOCK_M, BLOCK_K, T.bf16, swizzle=128, major="K")
B_LAYOUT = SmemLayout(BLOCK_N, BLOCK_K, T.bf16, swizzle=128, major="K")
#: The TMA boxes: one k-block of A (64 x 128) and of B (64 x 64).
A_BOX = A_LAYOUT.tensormap()
B_BOX = B_LAYOUT.tensormap()


def kernel(cta_group):
    """@matmul_cta1 (cta_group 1) or @matmul_cta2 (cta_group 2)."""
    if cta_group not in (1, 2):
        raise ValueError(f"cta_group is 1 or 2, got {cta_group}")
    pair = cta_group == 2
    # cta_group 2: the leader issues M = 256 (128 rows in each CTA's TMEM),
    # N = 128 (each CTA holds 64 rows of B).
    tile_n = BLOCK_N * cta_group
    mma = bw.Mma.of(BLOCK_M * cta_group, tile_n, A_LAYOUT, B_LAYOUT, T.f32,
                    cta_group=cta_group)
    # Accumulator stages of 128 lanes x tile_n f32 columns.
    tmem_columns = ACC_STAGES * tile_n
    smem_t = T.smem
    a_tiles_t = T.MemRefType((STAGES, K_GROUP, BLOCK_M, BLOCK_K), T.bf16, smem_t)
    b_tiles_t = T.MemRefType((STAGES, K_GROUP, BLOCK_N, BLOCK_K), T.bf16, smem_t)
    # cta_group 2 takes the CUtensorMaps' addresses (the ABI of
    # !nvgpu.tensormap.descriptor): its loads carry .cta_group::2, which
    # nvgpu.tma.async.load has not.
    a_map_t = PTR if pair else A_BOX
    b_map_t = PTR if pair else B_BOX

    @pm.kernel(name=f"matmul_cta{cta_group}", block=THREADS, min_ctas=1)
    def matmul(a_map: a_map_t, b_map: b_map_t, c: C_TYPE, num_n_tiles: T.index,
               num_k_groups: T.index):
        tid = pm.thread_id()
        warp = common.divui(tid, 32)
        lane = common.remui(tid, 32)
        # This CTA's 128 rows of A and C (cta_group 2: CTA 2p holds rows
        # 256p .. 256p + 127, CTA 2p + 1 the next 128).
        m0 = pm.block_id() * BLOCK_M
        if pair:
            rank = common.cluster_ctarank_i32()
            odd = rank & 1
            is_leader_cta = odd == 0
            # The leader of this CTA's pair: rank & ~1.
            leader_rank = rank - odd
            pair_pos = odd.cast(T.index)

        # Shared memory: input barriers at 0 (64 B), accumulator barriers
        # at 64 (32 B), the TMEM address at 96, the A tiles at 1024, the B
        # tiles at 1024 + 128 KiB.
        smem = pm.dynamic_shared_memory()
        inp = pm.pipeline(smem, 0, stages=STAGES, cta_group=cta_group)
        acc_off = inp.smem_bytes
        accp = pm.pipeline(smem, acc_off, stages=ACC_STAGES, cta_group=cta_group)
        slot = pm.view(smem, acc_off + accp.smem_bytes, (2,), T.i32)
        a_tiles = pm.view(smem, A_OFFSET, a_tiles_t.shape, T.bf16)
        b_tiles = pm.view(smem, B_OFFSET, b_tiles_t.shape, T.bf16)
        tp = pm.tile_pipeline(inp, [a_tiles, b_tiles], k_group_size=K_GROUP)

        # Input full: the TMA lane's expect_tx (cta_group 2: the leader's,
        # for both CTAs' bytes); input empty: one tcgen05.commit
        # (multicast to both CTAs); accumulator full: one tcgen05.commit
        # (multicast); accumulator empty: the 128 epilogue threads (x 2
        # CTAs on the leader's). cta_group 2: cluster-wide, the CTAs signal
        # each other's barriers.
        tp.init(1, 1, cluster=pair)
        accp.init(1, EPILOGUE_THREADS * cta_group, cluster=pair)

        # The MMA warp (cta_group 2: of each CTA, collectively) allocates
        # the accumulators in tensor memory; the address reaches the other
        # warps through shared memory.
        slot_ptr = common.smem_ptr(common.smem_address(slot))
        is_mma_warp = warp == 1
        with pm.if_(is_mma_warp):
            bw.alloc(slot_ptr, tmem_columns, cta_group)
            bw.relinquish_alloc_permit(cta_group)
        bw.fence_before_thread_sync()
        pm.barrier()
        bw.fence_after_thread_sync()
        tmem = bw.TmemTile(common.load(slot_ptr, T.i32), tmem_columns)

        is_tma_warp = warp == 0
        is_epilogue = warp >= 2
        with pm.if_(is_tma_warp) as roles:
            with pm.if_(lane == 0):
                if pair:
                    tma_producer_pair(tp, a_map, b_map, m0, pair_pos, leader_rank,
                                      num_n_tiles, num_k_groups)
                else:
                    tma_producer(tp, a_map, b_map, m0, num_n_tiles, num_k_groups)
        with roles.else_():
            # cta_group 2: the MMA warp of the leader CTA only.
            mma_here = (is_mma_warp & is_leader_cta) if pair else is_mma_warp
            with pm.if_(mma_here) as mma_role:
                mma_warp(tp, accp, tmem, mma, tile_n, num_n_tiles, num_k_groups)
            with mma_role.else_():
                with pm.if_(is_epilogue):
                    epilogue(accp, tmem, c, warp, lane, m0, tile_n, num_n_tiles)

        # Teardown: every TMEM access has finished (the epilogue waited for
        # every commit, the MMA warp drained), then the allocating warp
        # frees the columns. cta_group 2: the cluster barrier keeps each
        # CTA (its barriers, shared memory and TMEM) alive until the other
        # is done with it, then both CTAs free the TMEM collectively.
        bw.fence_before_thread_sync()
        if pair:
            bw.cluster_arrive()
            bw.cluster_wait()
        else:
            pm.barrier()
        bw.fence_after_thread_sync()
        with pm.if_(is_mma_warp):
            bw.dealloc(tmem, tmem_columns, cta_group)

    return matmul


def tma_producer(tp, a_map, b_map, m0, num_n_tiles, num_k_groups):
    """cta_group 1, one lane: A (128 x 64) and B (64 x 64) k-blocks, two per
    stage."""
    with pm.range(0, num_n_tiles) as t:
        n0 = t * BLOCK_N
        with pm.range(0, num_k_groups) as g:
            s = tp.acquire_producer()
            # Arrive on full expecting one stage's bytes (2 x (16 + 8) KiB).
            s.expect_tx()
            bars = s.mbar()
            a = s.payload(0)
            b = s.payload(1)
            with pm.range(0, K_GROUP) as j:
                k0 = (g * K_GROUP + j) * BLOCK_K
                a_dst = pm.subview(a, [j, 0, 0], [1, BLOCK_M, BLOCK_K])
                b_dst = pm.subview(b, [j, 0, 0], [1, BLOCK_N, BLOCK_K])
                pm.tma_load(a_map, [k0, m0], bars, a_dst)
                pm.tma_load(b_map, [k0, n0], bars, b_dst)
            # The producer handle only steps: the TMA completes the stage.
            s.release()
    # No exit while an MMA still reads the stages or commits to them.
    tp.drain_producer()


def tma_producer_pair(tp, a_map, b_map, m0, pair_pos, leader_rank, num_n_tiles,
                      num_k_groups):
    """cta_group 2, one lane in each CTA: each loads its half (its 128 rows
    of A, its 64 rows of B) into its own shared memory and completes the
    transaction on the LEADER's full barrier, where the MMA waits."""
    m0_i32 = m0.cast(T.i32)
    b_half = pair_pos * BLOCK_N
    with pm.range(0, num_n_tiles) as t:
        n0_i32 = (t * (2 * BLOCK_N) + b_half).cast(T.i32)
        with pm.range(0, num_k_groups) as g:
            # Waits on this CTA's empty barrier (the MMA's commit reaches
            # both CTAs).
            s = tp.acquire_producer()
            # The leader arms its full barrier for 2 x 48 KiB; the peer
            # does nothing here.
            s.expect_tx()
            # The same barrier in the leader CTA.
            leader_full = bw.mapa(bw.stage_barrier(s.mbar()), leader_rank)
            a = s.payload(0)
            b = s.payload(1)
            with pm.range(0, K_GROUP) as j:
                k0_i32 = ((g * K_GROUP + j) * BLOCK_K).cast(T.i32)
                a_dst = pm.subview(a, [j, 0, 0], [1, BLOCK_M, BLOCK_K])
                b_dst = pm.subview(b, [j, 0, 0], [1, BLOCK_N, BLOCK_K])
                bw.tma_load_pair(a_map, [k0_i32, m0_i32], a_dst, leader_full)
                bw.tma_load_pair(b_map, [k0_i32, n0_i32], b_dst, leader_full)
            s.release()
    # Both CTAs: wait for the last commits on this CTA's empty barriers.
    tp.drain_producer()


def mma_warp(tp, accp, tmem, mma, tile_n, num_n_tiles, num_k_groups):
    """The MMA warp (cta_group 2: of the leader CTA only): the whole warp
    waits, one elected lane issues the MMAs and the commits
    (tcgen05.commit tracks the MMAs of its thread). With cta_group 2,
    tcgen05.mma.cta_group::2 reads A and B at the same shared-memory
    offsets in both CTAs and writes both CTAs' TMEM."""
    elect = common.elect_sync()
    with pm.range(0, num_n_tiles):
        # cta_group 2: waits until both CTAs' epilogues released the stage
        # (their arrivals land on the leader's empty barrier).
        acc = accp.acquire_producer()
        # Order the MMAs after the epilogue's tcgen05.ld of this stage.
        bw.fence_after_thread_sync()
        d = tmem.at(column=acc.index.cast(T.i32) * tile_n, columns=tile_n).ptr()
        with pm.range(0, num_k_groups) as g:
            # cta_group 2: waits on the leader's full barrier, both CTAs'
            # bytes landed.
            s = tp.acquire_consumer()
            a_desc = bw.SmemDescriptor(A_LAYOUT, common.smem_address(s.payload(0)))
            b_desc = bw.SmemDescriptor(B_LAYOUT, common.smem_address(s.payload(1)))
            with pm.if_(elect):
                # 2 k-blocks x 4 K steps of 16: 32 bytes further per step
                # inside the 128-byte swizzle atom, one k-block further on
                # is 16 KiB (A) / 8 KiB (B).
                with pm.range(0, K_GROUP) as j:
                    with pm.range(0, A_LAYOUT.k_steps) as kk:
                        a_j = bw.tile_after(a_desc, j)
                        b_j = bw.tile_after(b_desc, j)
                        # The first MMA of a tile overwrites the accumulator.
                        first = (g == 0) & (j == 0) & (kk == 0)
                        mma.issue(d, a_j.step(kk), b_j.step(kk), first ^ True)
            # The stage is free once these MMAs have read it: the elected
            # lane's tcgen05.commit arrives on its empty barrier
            # (cta_group 2: multicast to both CTAs, where each TMA
            # producer waits).
            pm.pipeline_op("pipeline.release_mma", stage=s, elect=elect)
            s.release()
        # The accumulator is full once every MMA of the tile completed
        # (cta_group 2: multicast to both CTAs' accumulator full barriers,
        # both epilogues read their half of the tile).
        pm.pipeline_op("pipeline.commit_mma", stage=acc, elect=elect)
        acc.release()
    # No TMEM dealloc while the epilogue still reads an accumulator.
    accp.drain_producer()


def epilogue(accp, tmem, c, warp, lane, m0, tile_n, num_n_tiles):
    """Epilogue warps 2..5 (cta_group 2: of both CTAs): warp w reads TMEM
    lanes 32 (w mod 4) .. + 31, i.e. rows of the tile; each thread one
    row, tile_n columns."""
    q32 = common.remui(warp, 4) * 32
    row = m0 + (q32 + lane)
    rows = tmem.at(lane=q32.cast(T.i32), lanes=32)
    with pm.range(0, num_n_tiles) as t:
        n0 = t * tile_n
        # cta_group 2: waits on this CTA's full barrier; the exit arrives
        # on the leader CTA's empty barrier.
        with accp.consume() as e:
            bw.fence_after_thread_sync()
            stage = rows.at(column=e.index.cast(T.i32) * tile_n, columns=tile_n)
            with pm.range(0, tile_n, 32) as cc:
                bits = stage.load(32, "32x32b", column=cc)
                bw.wait_ld()
                vals = common.vector_bitcast(bits, T.f32)
                common.vector_store(vals, c, [row, n0 + cc], alignment=16)
            # Order the TMEM reads before the release (the exit of consume
            # arrives on the accumulator stage's empty barrier).
            bw.fence_before_thread_sync()


def build():
    """The module of both kernels and their dynamic shared memory in bytes."""
    return pm.Module([kernel(1), kernel(2)], name=MODULE), SMEM_BYTES


def generate(locations=True):
    """The whole module's MLIR text and the kernels' dynamic shared memory
    in bytes."""
    module, smem = build()
    return module.mlir(locations=locations), smem


HEADER = """\
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
// GENERATED by scripts/gen-examples.py from
// python/pipeline_mlir/kernels/sm100_matmul_pipelines.py: edit the program,
// not this file.
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
// The typed NVIDIA layer (python/pipeline_mlir/nvidia/) emits what the
// dialect does not model: TMEM allocation (tcgen05.alloc/dealloc, the
// address handed over in shared memory), the MMAs and their shared-memory
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
// both bf16 with 128-byte swizzle (@matmul_cta2: pointers to the
// CUtensorMaps in global memory, the ABI of !nvgpu.tensormap.descriptor);
// C (4096 x 4096 f32, row-major); the number of N tiles each CTA computes;
// the number of K groups (K = 128 per group: 2 k-blocks of 64).
//
// Chip: sm_100a only (tcgen05, and tcgen05.mma.cta_group::2); sm_90a has
// neither (test/Target/PTX/examples.mlir reads the next line).
// chips: sm_100a
// This file is compiled and its PTX checked
// (test/Target/PTX/sm100-example.mlir), never run: there is no Blackwell
// GPU in this workplace. One gpu.module, so one PTX file and one cubin:
// tcgen05 instructions must agree on .cta_group within a kernel, not
// across kernels.
//
// Check and compile:
//   pipeline-opt --pipeline-verify-linearity examples/sm100_matmul_pipelines.mlir
//   pipeline-compile examples/sm100_matmul_pipelines.mlir --chip=sm_100a -o out
"""


def example() -> str:
    """The text of examples/sm100_matmul_pipelines.mlir."""
    text, _ = generate(locations=False)
    return HEADER + "\n" + text


def main(argv=None):
    args = _command.parser(__doc__).parse_args(argv)
    _command.run(args, lambda a: (example(), SMEM_BYTES) if a.example
                 else generate(locations=not a.no_locations))

if __name__ == "__main__":
    main()
