"""Block-scaled GEMMs for Blackwell (sm_100a): C (bf16) = (A sfa) (B sfb)^T,
A and B in MXFP8 (e4m3 or e5m2, one UE8M0 scale per 32 elements of K;
tcgen05.mma.kind::mxf8f6f4.block_scale.scale_vec::1X) or NVFP4 (e2m1, one
UE4M3 scale per 16 elements of K and a global f32 scale applied in the
epilogue; kind::mxf4nvf4.block_scale.scale_vec::4X, PTX ISA 8.7: compile
with --features=+ptx87), the f32 accumulator in tensor memory.

The structure of the bf16 sm_100a GEMM (kernels/gemm_sm100.py) with
cta_group 1: one CTA computes a 128 x 128 tile at a time (no CTA pairs,
no clusters, no multicast), persistent through cluster launch control
(a scheduler warp and its throttle, kernels/_sm100_schedule.py, which both
programs share), 2 accumulator stages in tensor
memory so that a tile's epilogue overlaps the next tile's MMAs. Its input
stages hold A, B and their scale factors (`blackwell.BlockScaledPayload`);
the MMA warp copies a stage's scale factors to the stage's own tensor
memory columns with tcgen05.cp, then issues the stage's 4 MMAs reading
them there.

With `cta_group=2` (`--cta-group 2`) CTA pairs (clusters of 2) compute
256 x 128 tiles with tcgen05.mma.cta_group::2 issued by the leader: each
CTA loads its 128 rows of A, half of B's 128 rows and the scale factors of
its rows of A and of all of B's (the pair's MMA reads scale_B for every
column in each CTA's tensor memory; tcgen05.cp.cta_group::2 copies each
CTA's own), completing on the leader's full barrier.

With `cluster=4` (`--cluster 4`, cta_group 2) two CTA pairs per 4x1
cluster compute the two 256-row halves of a 512 x 128 cluster tile, the
bf16 GEMM's cluster structure: both pairs need the same B and SFB, which
each cluster loads once. Each CTA loads 32 rows of B (its 64 rows' half q
= rank / 2) and multicasts them to the CTA at its place in the other pair
(mask 0b0101 << (rank & 1)), and a quarter of the stage's SFB (cluster
rank r: rows r atoms .. of the 128-byte rows) multicast to all four; A
and SFA stay per CTA. The leader's expect_tx is unchanged (both CTAs'
stage bytes; the multicast copies complete them), the input pipeline has
cluster_m = 4: each pair's MMA releases a stage in all 4 CTAs (its empty
barriers count the 2 leaders' commits).

Kernels `gemm_mxfp8_sm100(a_map, b_map, sfa_map, sfb_map, c_map, M, N, K)`
and `gemm_nvfp4_sm100(..., K, global_scale)`: block 224, grid
ceil(M / 128) * ceil(N / 128), 168960 (MXFP8) / 181248 (NVFP4) bytes of
dynamic shared memory with 4 stages; `gemm_mxfp8_cta2_sm100` /
`gemm_nvfp4_cta2_sm100`: cluster (2, 1, 1), grid 2 ceil(M / 256)
ceil(N / 128), B's box 64 rows, 136192 / 148480 bytes; `gemm_mxfp8_c4_sm100` /
`gemm_nvfp4_c4_sm100`: cluster (4, 1, 1), grid 4 ceil(M / 512) ceil(N / 128),
B's box 32 rows, SFB's box a quarter (128 x 1 / 128 x 4 x 1), the same
shared memory. The shipped example is
examples/gemm_mxfp8_sm100.mlir (`example()`); `python3 -m
pipeline_mlir.kernels.gemm_block_scaled_sm100 --format nvfp4 -o out.mlir`
writes a module.
"""

from __future__ import annotations

from . import _command
from ._sm100_schedule import ClcSchedule, cta_readers, first_tile, pair_multicast_mask
from .. import ir as pm
from .. import types as T
from ..errors import BuildError
from ..nvidia import blackwell as bw
from ..nvidia import common
from ..nvidia.common import divui

MODULE = "gemm_block_scaled_sm100"
FORMATS = ("mxfp8", "nvfp4")

BLOCK_M = 128       # rows of C per CTA (tcgen05.mma cta_group::1, M = 128)
BLOCK_N = 128       # columns of C per CTA (N = 128)
ACC_STAGES = 2      # accumulator stages of 128 TMEM columns
EPILOGUE_THREADS = 128
THREADS = 224       # warp 0 TMA, 1 MMA, 2..5 epilogue, 6 scheduler
A_OFFSET = 1024     # the stages, after the barriers and the TMEM slot
C_STAGING_BYTES = 4 * 2 * 32 * 64 * 2
#: The CTAs of a 4x1 cluster (two CTA pairs) that each load a quarter of
#: the scale factors of B and multicast it to all four.
CLUSTER_ALL = 0b1111

PTR = T.OpaqueType("!llvm.ptr")


def shape(cta_group=None, cluster=None):
    """(cta_group, cluster) of a variant: 1 and 1 (no cluster), 2 and 2 (a
    CTA pair per cluster), 2 and 4 (two pairs per 4x1 cluster, B and SFB
    multicast); either one given alone implies the other."""
    if cta_group is None:
        cta_group = 2 if cluster in (2, 4) else 1
    if cluster is None:
        cluster = cta_group
    if cta_group not in (1, 2):
        raise ValueError(f"cta_group is 1 or 2, got {cta_group}")
    if (cta_group, cluster) not in ((1, 1), (2, 2), (2, 4)):
        raise ValueError(f"cta_group {cta_group} runs in clusters of {cta_group}"
                         + (" or 4" if cta_group == 2 else "") + f", got {cluster}")
    return cta_group, cluster


def kernel_name(fmt: str, cta_group=None, cluster=None) -> str:
    _cg, cl = shape(cta_group, cluster)
    return {1: f"gemm_{fmt}_sm100", 2: f"gemm_{fmt}_cta2_sm100", 4: f"gemm_{fmt}_c4_sm100"}[cl]


def _payload(fmt, a, b, stages, cta_group=1):
    if fmt not in FORMATS:
        raise ValueError(f"format is one of {', '.join(FORMATS)}, got {fmt!r}")
    if not 2 <= stages <= 6:
        raise ValueError(f"stages is 2..6, got {stages}")
    try:
        return bw.BlockScaledPayload(fmt, a, b, block_m=BLOCK_M, block_n=BLOCK_N,
                                     stages=stages, cta_group=cta_group)
    except BuildError as e:  # an invalid data type for the format
        raise ValueError(str(e)) from None


def smem_bytes(fmt="mxfp8", a=None, b=None, stages=4, cta_group=None, cluster=None) -> int:
    pay = _payload(fmt, a, b, stages, shape(cta_group, cluster)[0])
    return pay.offsets(A_OFFSET)[-1] + C_STAGING_BYTES


def build(fmt="mxfp8", a=None, b=None, stages=4, cta_group=None, cluster=None):
    """The kernel of one format (data types `a`, `b`: e4m3 or e5m2 for
    MXFP8, e2m1 for NVFP4) and its dynamic shared memory in bytes.
    cta_group 2: CTA pairs (clusters of 2) compute 256 x 128 tiles with
    tcgen05.mma.cta_group::2; cluster 4: two pairs per 4x1 cluster compute
    the two 256-row halves of a 512 x 128 cluster tile and share B and its
    scale factors (TMA multicast)."""
    cg, cl = shape(cta_group, cluster)
    pay = _payload(fmt, a, b, stages, cg)
    pair = cg == 2
    c_offset = pay.offsets(A_OFFSET)[-1]
    total = c_offset + C_STAGING_BYTES
    tmem_columns = pay.tmem_columns(ACC_STAGES * BLOCK_N)

    def body(a_map, b_map, sfa_map, sfb_map, c_map, m_size, n_size, k_size, global_scale):
        true = pm.constant(1, T.i1)
        tid = pm.thread_id()
        warp = tid // 32
        lane = tid % 32
        # A cluster tile: `cl` x 128 rows of C (one CTA's 128 rows per
        # cluster rank), 128 columns.
        m_tiles = divui(m_size + (cl * BLOCK_M - 1), cl * BLOCK_M)
        k_blocks = divui(k_size + (pay.block_k - 1), pay.block_k)
        # cta_group 2: the pair's leader (even cluster rank) issues the
        # MMAs; each CTA holds 128 rows of the pair's 256 and half of B's
        # 128 rows.
        rank = common.cluster_ctarank_i32()
        odd = rank & 1
        place = Place(cl, rank, odd if pair else None, pay)

        smem = pm.dynamic_shared_memory()
        # Two pairs per cluster: B and SFB land in both pairs, and the
        # MMA's release reaches all 4 CTAs (the row-and-column cross).
        cross = {"cluster_m": cl} if cl > cg else {}
        inp = pm.pipeline(smem, 0, stages=stages, cta_group=cg, **cross)
        acc_off = inp.smem_bytes
        accp = pm.pipeline(smem, acc_off, stages=ACC_STAGES, cta_group=cg, tmem=True)
        tmem_off = acc_off + accp.smem_bytes
        tmem = bw.TensorMemory(smem, tmem_off, columns=tmem_columns, cta_group=cg)
        # Persistent through cluster launch control (kernels/_sm100_schedule.py):
        # cluster c starts with tile c, then takes the tile of a cluster
        # that had not started (every role reads every answer).
        sched = ClcSchedule(smem, tmem_off + tmem.smem_bytes, first_tile(cl), m_tiles, cl, true)
        a_tiles, b_tiles, sfa_tiles, sfb_tiles = pay.buffers(smem, A_OFFSET)
        c_staging = pm.view(smem, c_offset, (4, 2, 32, 64), T.bf16)
        tp = pm.tile_pipeline(inp, [a_tiles, b_tiles, sfa_tiles, sfb_tiles])

        # Input full: the TMA lane's expect_tx (the four buffers' bytes;
        # cta_group 2: the leader's, for both CTAs); empty: one
        # tcgen05.commit from each pair that reads the stage (cluster 4:
        # both pairs' leaders, multicast to all 4 CTAs). Accumulator full:
        # one commit; empty: the 128 epilogue threads of each CTA of the
        # pair.
        tp.init(1, cl // cg, cluster=pair)
        accp.init(1, EPILOGUE_THREADS * cg, cluster=pair)
        # The scheduler's answers: full 1 (its request), empty: every
        # reader of every CTA. The throttle: the TMA lane signals each tile
        # it starts, the scheduler waits for one before each request (at
        # most 2 requests ahead of the loads).
        sched.init(cta_readers(cl), cluster=pair)
        # Warp 1 allocates the 2 accumulator stages (128 columns each) and
        # every input stage's scale-factor columns; the 128 epilogue threads
        # release them.
        columns = tmem.alloc(readers=EPILOGUE_THREADS, warp=1)

        rank0 = rank == 0
        with pm.if_(warp == 0) as roles:
            with pm.if_(lane == 0):
                tma_producer(pay, tp, sched, a_map, b_map, sfa_map, sfb_map, k_blocks, place,
                             rank0)
        with roles.else_():
            mma_here = (warp == 1) & (odd == 0) if pair else warp == 1
            with pm.if_(mma_here) as mma_role:
                mma_warp(pay, tp, accp, columns, sched, k_blocks)
            with mma_role.else_():
                with pm.if_(warp == 1) as peer_role:
                    # Warp 1 of the peer CTA (cta_group 2): no MMAs, but it
                    # reads every answer like its leader twin.
                    with sched.loop():
                        pass
                with peer_role.else_():
                    with pm.if_(warp < 6) as epi_role:
                        epilogue(warp, lane, sched, columns, accp, c_staging, c_map, tmem,
                                 global_scale, place)
                    with epi_role.else_():
                        # The scheduler: in cluster rank 0 (without
                        # clusters, every CTA).
                        sched.run_scheduler(rank0)

        # Teardown: warp 1 frees the TMEM once the epilogue released it.
        with pm.if_(warp == 1):
            tmem.dealloc()

    name = kernel_name(fmt, cg, cl)
    cluster_dims = (cl, 1, 1) if cl > 1 else None
    if pay.global_scale:
        @pm.kernel(name=name, block=THREADS, cluster=cluster_dims, min_ctas=1)
        def gemm(a_map: PTR, b_map: PTR, sfa_map: PTR, sfb_map: PTR, c_map: PTR,
                 m_size: T.i32, n_size: T.i32, k_size: T.i32, global_scale: T.f32):
            body(a_map, b_map, sfa_map, sfb_map, c_map, m_size, n_size, k_size, global_scale)
    else:
        @pm.kernel(name=name, block=THREADS, cluster=cluster_dims, min_ctas=1)
        def gemm(a_map: PTR, b_map: PTR, sfa_map: PTR, sfb_map: PTR, c_map: PTR,
                 m_size: T.i32, n_size: T.i32, k_size: T.i32):
            body(a_map, b_map, sfa_map, sfb_map, c_map, m_size, n_size, k_size, None)
    return gemm, total


class Place:
    """This CTA's part of a cluster tile (`ctas` x 128 rows, 128 columns):
    cta_group 1 the whole 128 x 128 tile; cta_group 2 (`odd` = cluster rank
    & 1) rows 128 rank .. of the cluster tile and rows 64 odd .. of B's 128,
    of which it loads all (a pair per cluster) or, with two pairs per
    cluster (`multicast`), the 32 rows 32 q .. (q = rank / 2, its pair),
    multicast to the CTA at its place in the other pair, and quarter
    `rank` of the scale factors of B's 128 rows, multicast to all four
    CTAs."""

    def __init__(self, ctas, rank, odd, pay):
        self.ctas, self.rank, self.odd = ctas, rank, odd
        self.multicast = ctas == 4
        if not self.multicast:
            return
        # B: rows 32 q .. of the CTA's 64, here and in the CTA at this
        # place in the other pair.
        pair_q = divui(rank, 2)
        self.b_slot = (pair_q * (BLOCK_N // 4)).cast(T.index)
        self.b_first = pair_q * (BLOCK_N // 4)
        self.b_mask = pair_multicast_mask(rank)
        # SFB (one 128-row group: `atoms` atoms of 4 rows of 128 bytes):
        # rows `atoms` rank .. + atoms - 1, i.e. one atom's 8 rows of 16
        # bytes (MXFP8, one atom) or whole atoms (NVFP4, 4).
        if pay.atoms not in (1, 4):
            raise BuildError(f"SFB in quarters: 1 or 4 atoms a stage, got {pay.atoms}")
        self.sf_first = rank * pay.atoms
        quarter = rank.cast(T.index)
        if pay.atoms == 4:
            self.sf_offsets, self.sf_sizes = [0, 0, quarter, 0, 0], [1, 1, 1, 32, 16]
        else:
            self.sf_offsets, self.sf_sizes = [0, 0, 0, quarter * 8, 0], [1, 1, 1, 8, 16]

    def a_rows(self, m_blk):
        """(first row of A / C, its 128-row group) of this CTA."""
        if self.odd is None:
            return m_blk * BLOCK_M, m_blk
        group = m_blk * self.ctas + (self.odd if self.ctas == 2 else self.rank)
        return group * BLOCK_M, group

    def b_row(self, n_blk):
        """First row of B this CTA loads."""
        first = n_blk * BLOCK_N
        if self.odd is None:
            return first
        first = first + self.odd * (BLOCK_N // 2)
        return first + self.b_first if self.multicast else first


def tma_producer(pay, tp, sched, a_map, b_map, sfa_map, sfb_map, k_blocks, place, rank0):
    """One lane: per tile and k-block, A (128 rows x 128 bytes) and B (128
    x 128 bytes), 128-byte swizzled, and their scale-factor atoms (boxes of
    the 3-D u8 tensors: 128 bytes x 4 atoms' rows x 1 row group)."""
    with sched.loop() as t:
        m_blk, n_blk = sched.origin(t)
        m0, a_group = place.a_rows(m_blk)
        b0 = place.b_row(n_blk)
        # The throttle (the scheduling CTA's): one more request per tile
        # started.
        sched.tile_started(rank0)
        # Each CTA loads its rows of A and B and the scale factors of its
        # rows of A and of all of B's (cta_group 2: completing on the
        # leader's full barrier).
        load_tile(pay, tp, a_map, b_map, sfa_map, sfb_map, m0, b0, a_group, n_blk, k_blocks,
                  place)
    # No exit while an MMA may still read the stages.
    tp.drain_producer()


def load_tile(pay, tp, a_map, b_map, sfa_map, sfb_map, m0, n0, m_blk, n_blk, k_blocks, place):
    """The k-blocks of one tile. Two pairs per cluster (`place.multicast`):
    this CTA's 32 rows of B land in rows 32 q .. of its B buffer and of
    the buffer of the CTA at its place in the other pair; its quarter of
    the stage's SFB lands in all four CTAs."""
    sf_rows = 4 * pay.atoms
    multicast = place.multicast
    with pm.range(0, k_blocks) as kb:
        kb32 = kb.cast(T.i32)
        k_byte = kb32 * pay.row_bytes
        k_sf = kb32 * sf_rows
        s = tp.acquire_producer()
        # Arrive on full expecting the stage's bytes: A, B, SFA and SFB
        # (cta_group 2: the leader, for both CTAs of the pair).
        s.expect_tx()
        a, b, sfa, sfb = (s.payload(i) for i in range(4))
        pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=a_map,
                       coordinates=[k_byte, m0], dst=a)
        if multicast:
            b_part = pm.subview(b, [0, place.b_slot, 0], [1, BLOCK_N // 4, pay.row_elements],
                                rank=3)
            pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=b_map,
                           coordinates=[k_byte, n0], dst=b_part, multicast_mask=place.b_mask)
        else:
            pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=b_map,
                           coordinates=[k_byte, n0], dst=b)
        pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=sfa_map,
                       coordinates=[pm.constant(0, T.i32), k_sf, m_blk], dst=sfa)
        if multicast:
            pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=sfb_map,
                           coordinates=[pm.constant(0, T.i32), k_sf + place.sf_first, n_blk],
                           dst=pm.subview(sfb, place.sf_offsets, place.sf_sizes),
                           multicast_mask=pm.constant(CLUSTER_ALL, T.i16))
        else:
            pm.pipeline_op("pipeline.tma_load", stage=s, descriptor=sfb_map,
                           coordinates=[pm.constant(0, T.i32), k_sf, n_blk], dst=sfb)
        # The producer handle only steps: the TMA completes the stage.
        s.release()


def mma_warp(pay, tp, accp, columns, sched, k_blocks):
    """Warp 1: the whole warp waits, one elected lane copies the scale
    factors and issues the MMAs and the commits. The scale factors of
    stage s live in their own TMEM columns (after the accumulator), so a
    stage's copy never overwrites factors an earlier MMA still reads; a
    tcgen05.cp and the MMAs the same thread issues after it execute in
    order."""
    elect = common.elect_sync()
    sfa_cols = pay.sf_tmem_columns(BLOCK_M)
    with sched.loop():
        # Waits until the epilogue read this accumulator stage (tmem =
        # true: fenced).
        acc = accp.acquire_producer()
        d = columns.at(column=acc.index.cast(T.i32) * BLOCK_N, columns=BLOCK_N)
        mma_tile(pay, tp, columns, d, elect, sfa_cols, k_blocks)
        # The accumulator stage is full once every MMA of the tile completed.
        pm.pipeline_op("pipeline.commit_mma", stage=acc, elect=elect)
        acc.release()
    # No TMEM dealloc while the epilogue still reads an accumulator.
    accp.drain_producer()


def mma_tile(pay, tp, columns, d, elect, sfa_cols, k_blocks):
    """The k-blocks of one tile into the accumulator `d`; stage s's scale
    factors in the columns after the accumulator stages."""
    with pm.range(0, k_blocks) as kb:
        s = tp.acquire_consumer()
        a_desc = bw.SmemDescriptor(pay.a_layout, common.smem_address(s.payload(0)))
        b_desc = bw.SmemDescriptor(pay.b_layout, common.smem_address(s.payload(1)))
        sfa_t = columns.at(column=s.index.cast(T.i32) * pay.sf_columns + ACC_STAGES * BLOCK_N)
        sfb_t = sfa_t.at(column=sfa_cols)
        first_block = kb == 0
        with pm.if_(elect):
            pay.copy_scales(s.payload(2), BLOCK_M, sfa_t)
            pay.copy_scales(s.payload(3), BLOCK_N, sfb_t)
            for kk in range(pay.k_steps):
                # The tile's first MMA overwrites the accumulator.
                accumulate = first_block ^ True if kk == 0 else True
                bw.mma_block_scale_vec(d, a_desc.step(kk), b_desc.step(kk), pay.idesc(kk),
                                       accumulate, sfa_t.at(column=pay.sf_column(kk, BLOCK_M)),
                                       sfb_t.at(column=pay.sf_column(kk, BLOCK_N)),
                                       kind=pay.kind, vec=pay.vec, cta_group=pay.cta_group)
        # The stage is free once these MMAs (and copies) have read it.
        pm.pipeline_op("pipeline.release_mma", stage=s, elect=elect)
        s.release()


def epilogue(warp, lane, sched, columns, accp, c_staging, c_map, tmem, global_scale, place):
    """Warps 2..5, per tile: warp w reads TMEM lanes 32 (w mod 4) .. + 31
    (its 32 rows of the tile), each thread one row, 128 columns in 2
    sub-tiles of 64: tcgen05.ld -> (x global scale) -> bf16 -> 128-byte
    swizzled staging -> TMA store of the warp's 32 x 64 box (clipped at M,
    N)."""
    quarter = warp % 4
    q32_i32 = (quarter * 32).cast(T.i32)
    rows = columns.at(lane=q32_i32, lanes=32)
    lane0 = lane == 0
    lane_mod8 = lane & 7
    warp_staging = common.smem_address(c_staging) + quarter * 8192
    scale = common.splat(global_scale, 32) if global_scale is not None else None
    with sched.loop() as t:
        m_blk, n_blk = sched.origin(t)
        n0 = n_blk * BLOCK_N
        m_warp = place.a_rows(m_blk)[0] + q32_i32
        # Waits on the accumulator stage's full barrier; the exit arrives on
        # its empty barrier (tmem = true: fenced).
        with accp.consume() as e:
            stage = rows.at(column=e.index.cast(T.i32) * BLOCK_N, columns=BLOCK_N)
            with pm.range(0, BLOCK_N // 64) as sub:
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
                    if scale is not None:
                        vals = common.as_vector(vals) * scale
                    packed = common.vector_truncf(vals, T.bf16)
                    h4 = h * 4
                    pieces = [common.vector_slice(packed, 8 * j, 8) for j in range(4)]
                    chunks = [h4] + [h4 + j for j in range(1, 4)]
                    swizzled = [c ^ lane_mod8 for c in chunks]
                    for piece, c in zip(pieces, swizzled):
                        common.vector_store(piece, c_staging, [quarter, buf, lane, c * 8])
                common.fence_proxy_async_shared()
                common.warp_sync()
                with pm.if_(lane0):
                    src = common.smem_ptr(warp_staging + buf * 4096)
                    common.tma_store_box(c_map, src, [n0 + sub_col, m_warp])
                    common.bulk_commit_group()
    with pm.if_(lane0):
        common.bulk_wait_group(0, read=True)
    tmem.release()


def generate(fmt="mxfp8", a=None, b=None, stages=4, cta_group=None, cluster=None,
             locations=True):
    """The module's MLIR text (one kernel) and its dynamic shared memory."""
    kernel, smem = build(fmt, a, b, stages, cta_group, cluster)
    return pm.Module([kernel], name=MODULE).mlir(locations=locations), smem


HEADER = """\
// A block-scaled MXFP8 GEMM for Blackwell (sm_100a), written with the
// pipeline dialect:
//
//   C[M, N] = sum_k (A[m, k] sfa[m, k / 32]) (B[n, k] sfb[n, k / 32])
//
// A (M x K) and B (N x K, K-major) in e4m3, one UE8M0 scale factor per 32
// elements of K of each row of A and of B, fp32 accumulation in tensor
// memory, bf16 out: tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale,
// M = 128, N = 128, K = 32, the scale factors in tensor memory. The NVFP4
// twin (e2m1, UE4M3 per 16, a global f32 scale; kind::mxf4nvf4
// .block_scale.scale_vec::4X, PTX ISA 8.7: --features=+ptx87) is the same
// program with --format nvfp4, --cta-group 2 its 2-SM variant (CTA
// pairs in clusters of 2, 256 x 128 tiles, tcgen05.mma.cta_group::2), and
// --cluster 4 the bf16 GEMM's cluster structure (two pairs per 4x1
// cluster, 512 x 128 cluster tiles, B and its scale factors loaded once
// per cluster and multicast to both pairs).
//
// GENERATED by scripts/gen-examples.py from
// python/pipeline_mlir/kernels/gemm_block_scaled_sm100.py: edit the
// program, not this file.
//
// The structure of the bf16 Blackwell GEMM (examples/gemm_sm100.mlir) with
// cta_group 1: a CTA computes one 128 x 128 tile of C at a time (no CTA
// pairs, clusters or multicast), persistent through cluster launch control
// (CUTLASS's SM100 tile scheduler): the grid has one CTA per tile, CTA b
// starts with tile b (tile t at rows 128 (t mod ceil(M/128)), columns
// 128 (t div ceil(M/128))); its scheduler warp asks the hardware to cancel
// a CTA that has not started and every role then computes the canceled
// CTA's tile, until nothing is left to cancel; a throttle keeps the
// scheduler at most 2 requests ahead of the loads. Two accumulator stages:
// the epilogue of one tile overlaps the MMAs of the next.
//
// Roles (224 threads, seven warps):
//
//   warp 0, lane 0 (TMA)   producer of the input tile pipeline (4 stages):
//                          per tile one produce on the throttle; per
//                          k-block of 128 elements (one 128-byte row),
//                          acquire_producer -> expect_tx (the stage's
//                          payload: A 16 KiB, B 16 KiB, SFA 512 B, SFB
//                          512 B) -> 4 tma_loads -> release;
//                          drain_producer at the end.
//   warp 1 (MMA)           per tile acquire_producer of an accumulator
//                          stage (tmem = true: fenced); per k-block
//                          acquire_consumer, then one elected lane:
//                          tcgen05.cp .32x128b.warpx4 of SFA and SFB to the
//                          input stage's TMEM columns (each factor
//                          duplicated to the four 32-lane sub-partitions),
//                          4 x tcgen05.mma.kind::mxf8f6f4.block_scale
//                          .scale_vec::1X (K = 32; MMA j reads byte j of
//                          each scale cell, the instruction descriptor's
//                          SF ID) -> release_mma (tcgen05.commit) ->
//                          release; commit_mma on the accumulator stage;
//                          drain_producer at the end.
//   warps 2..5 (epilogue)  consumers of the accumulator pipeline: tcgen05.ld
//                          32x32b.x32 -> bf16 -> swizzled staging -> TMA
//                          store (per warp: its 32 rows, 64 columns).
//   warp 6 (CLC)           the scheduler: consumer of the throttle, then
//                          producer of the cluster launch control pipeline
//                          (2 stages of 16-byte answers): clc_try_cancel,
//                          then reads the answer like every reader; stops
//                          after "nothing canceled". Readers of each answer:
//                          the scheduler, the TMA lane, warp 1 and the
//                          epilogue (193 arrivals on the empty barrier).
//
// Tensor memory (512 columns): 2 accumulator stages in columns 0..255, then
// per input stage 4 columns of SFA and 4 of SFB.
//
// Launch: grid (ceil(M/128) * ceil(N/128), 1, 1), block (224, 1, 1),
// dynamic shared memory 168960 bytes. Arguments: pointers to five
// CUtensorMaps (the project's !nvgpu.tensormap.descriptor ABI):
//   A:   u8, dims {K, M}, strides {K}, box {128, 128}, 128-byte swizzle
//   B:   u8, dims {K, N}, strides {K}, box {128, 128}, 128-byte swizzle
//   SFA: u8, dims {128, 4 ceil(K/128), ceil(M/128)}, box {128, 4, 1}, no
//        swizzle: the scale factors in 512-byte atoms (128 rows x 4
//        factors, row r0 + 32 r1's 4 factors at bytes 16 r0 + 4 r1 ..),
//        K-blocks first (CUTLASS's Sm1xxBlkScaledConfig layout)
//   SFB: the same for B, {128, 4 ceil(K/128), ceil(N/128)}
//   C:   bf16, dims {N, M}, strides {2N}, box {64, 32}, 128-byte swizzle
// all with OOB fill zero, then M, N, K (i32). Host-side preconditions: K
// a multiple of 16 (TMA's row pitch), N a multiple of 8.
//
// Shared memory (dynamic, 1 KiB aligned):
//   0       input barriers: 4 full, 4 empty (64 B)
//   64      accumulator barriers: 2 full, 2 empty (32 B)
//   96      the TMEM deallocation barrier and address (16 B)
//   112     the scheduler's barriers (32 B), 144 its answers (2 x 16 B),
//           176 the throttle's barriers (32 B)
//   1024    A stages: 4 x 128 x 128 e4m3 (64 KiB), 128-byte swizzled by TMA
//   66560   B stages (64 KiB)
//   132096  SFA stages: 4 x 512 B
//   134144  SFB stages: 4 x 512 B
//   136192  C staging: 4 epilogue warps x 2 buffers x 32 x 64 bf16 (32 KiB)
//   168960  end
//
// Chip: sm_100a only (tcgen05); sm_90a has none (test/Target/PTX/examples.mlir
// reads the next line).
// chips: sm_100a
// Assembled by ptxas and run with data in the simulator
// (test/Sim/data-block-scaled.test); never executed on a GPU.
//
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/gemm_mxfp8_sm100.mlir
//   pipeline-compile examples/gemm_mxfp8_sm100.mlir --chip=sm_100a -o gemm
"""


def example() -> str:
    """The text of examples/gemm_mxfp8_sm100.mlir."""
    text, _ = generate("mxfp8", "e4m3", locations=False)
    return HEADER + "\n" + text


def main(argv=None):
    ap = _command.parser(__doc__)
    ap.add_argument("--format", default="mxfp8", choices=FORMATS)
    ap.add_argument("--a", help="A's data type (mxfp8: e4m3 or e5m2; nvfp4: e2m1)")
    ap.add_argument("--b", help="B's data type (default: A's)")
    ap.add_argument("--stages", type=int, default=4)
    ap.add_argument("--cta-group", type=int, choices=(1, 2),
                    help="2: CTA pairs (clusters of 2), tcgen05.mma.cta_group::2, 256 x 128 "
                         "tiles (default: 1, or 2 with --cluster 2 or 4)")
    ap.add_argument("--cluster", type=int, choices=(1, 2, 4),
                    help="4: two CTA pairs per 4x1 cluster, 512 x 128 cluster tiles, B and "
                         "its scale factors multicast to both pairs (default: the CTA group)")
    args = ap.parse_args(argv)
    try:
        shape(args.cta_group, args.cluster)
    except ValueError as e:
        ap.error(str(e))
    _command.run(args, lambda a: (example(), smem_bytes()) if a.example
                 else generate(a.format, a.a, a.b, a.stages, a.cta_group, a.cluster,
                               locations=not a.no_locations))


if __name__ == "__main__":
    main()
