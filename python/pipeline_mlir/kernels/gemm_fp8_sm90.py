"""The warp-specialized, persistent FP8 GEMM for Hopper (sm_90a), as a
builder program: C[M, N] = scale (A[M, K] B[N, K]^T), e4m3 A and B
(K-major), f32 accumulation, bf16 C (what `pipeline_mlir.scaled_mm`
launches). It is the bf16 GEMM of kernels/gemm_sm90.py (its tile schedule,
shared-memory layout and epilogue) with 128-element (128-byte) k-blocks and
wgmma m64nNk32, and one of two scalings:

  outer   C[m, n] = sa[m] sb[n] acc[m, n], applied in the epilogue: the
          per-tensor scales (sa, sb one value each: strides 0) and the
          rowwise ones (sa per row of A, sb per column of B) of
          torch._scaled_mm;
  block   the 1x128 (A) x 128x128 (B) block scaling of DeepSeek-V3: each
          k-block's wgmma partial sum is scaled by
          sa[m, kb] sb[n / 128, kb] and added into the f32 accumulator
          (the promotion of CUTLASS's FP8BlockScaledAccum and DeepGEMM).

    python3 -m pipeline_mlir.kernels.gemm_fp8_sm90 -o out.mlir    # bn 256, outer
    python3 -m pipeline_mlir.kernels.gemm_fp8_sm90 --scaling block --bn 128 -o k.mlir

Options (defaults: outer --bn 256 --stages 3 --epi-subtiles 4, block
--bn 128 --stages 5 --epi-subtiles 2; pipeline_mlir.fp8_gemm.CONFIGS
lists the variants scaled_mm runs):
  --scaling       outer (default) or block
  --bn            CTA tile N: 256, 192, 128 or 64 (block: 128)
  --stages        pipeline stages (one BM x 128 A and one BN x 128 B tile each)
  --epi-subtiles  64 x 64 bf16 output sub-tiles per epilogue round
  --consumers     consumer warpgroups of 64 rows: 2, or 1 for small M
  --no-lag        wait_group 0 per k-block (block scaling always waits:
                  its promotion reads the k-block's partial sums)
  --promote       outer scaling with the promotion of block scaling (BN
                  <= 128): the wgmma accumulate one k-block of 128 (their
                  reduced-precision accumulation; what cuBLAS's fast
                  accumulation keeps over all of K), each added into an
                  f32 accumulator
  --producer-regs, --consumer-regs   the setmaxnreg values

Kernel arguments: the TMA descriptors of A (e4m3, box 128 x BM), B (e4m3,
box 128 x BN) and C (bf16, box 64 x 64), all 128-byte swizzled; the global
addresses of the f32 scales sa and sb (i64); M, N, K, group_m; then the
element strides of the scales as i32: sa_row, sa_k, sb_col, sb_k. Outer
scaling reads sa[m sa_row] and sb[n sb_col] (per-tensor: both strides 0);
block scaling reads sa[m sa_row + kb sa_k] and sb[(n / 128) sb_col +
kb sb_k] for the k-block kb of 128. K is a multiple of 16 and N of 8 (TMA
rows of 16 bytes: K e4m3, N bf16); M, N, K need not be multiples of the
tile (TMA zero-fills and clips; the scales' indices are clamped to the
last row and column, so ragged tiles read inside the scales).
"""

import pipeline_mlir as pm
from . import _command
from . import gemm_sm90
from .. import types as T
from ..nvidia import common, hopper

BK = 128   # 128 e4m3 = 128 bytes = one 128-byte swizzle row
MODULE = "gemm_fp8_sm90"  # the gpu.module's name
SCALINGS = ("outer", "block")
SCALE_BLOCK = 128   # block scaling: 1 x 128 (A) and 128 x 128 (B) blocks


class _Variant(gemm_sm90._Variant):
    """The bf16 GEMM's variant (its checks, shared-memory plan and epilogue
    rounds) with e4m3 stages: a BM x 128 e4m3 stage takes the bytes of a
    BM x 64 bf16 one, so the plan is the same."""

    def __init__(self, bn=None, stages=None, epi_subtiles=None, producer_regs=40,
                 consumer_regs=232, name=None, lag=True, consumers=2, scaling="outer",
                 promote=False, element=T.f8E4M3FN):
        if scaling not in SCALINGS:
            raise ValueError(f"--scaling must be one of {', '.join(SCALINGS)}")
        block = scaling == "block"
        bn = bn or (128 if block else 256)
        stages = stages or (5 if block else 3)
        epi_subtiles = epi_subtiles or (2 if block else 4)
        if scaling == "block" and bn != SCALE_BLOCK:
            raise ValueError("--scaling block needs --bn 128 (one B scale block per tile)")
        if promote and bn > 128:
            raise ValueError("--promote needs --bn 128 or less (two accumulators)")
        if scaling == "block" or promote:
            lag = False   # the promotion waits for each k-block's wgmma
        name = name or ("gemm_fp8_block_sm90" if scaling == "block" else "gemm_fp8_sm90")
        super().__init__(bn=bn, stages=stages, epi_subtiles=epi_subtiles,
                         producer_regs=producer_regs, consumer_regs=consumer_regs, name=name,
                         lag=lag, consumers=consumers)
        self.scaling, self.element, self.promote = scaling, element, promote
        self.a_tiles = pm.memref((stages, 1, self.bm, BK), element, pm.smem)
        self.b_tiles = pm.memref((stages, 1, bn, BK), element, pm.smem)
        self.a_layout = hopper.SmemLayout.of(self.a_tiles)
        self.b_layout = hopper.SmemLayout.of(self.b_tiles)
        assert (self.a_layout.nbytes, self.b_layout.nbytes) == (self.a_stage_bytes,
                                                                 self.b_stage_bytes)

    def gen_args(self):
        args = (f"--scaling {self.scaling} --bn {self.bn} --stages {self.stages} "
                f"--epi-subtiles {self.epi_subtiles}")
        if self.consumers != 2:
            args += f" --consumers {self.consumers}"
        if self.promote:
            args += " --promote"
        elif not self.lag and self.scaling == "outer":
            args += " --no-lag"
        return args


class _Schedule(gemm_sm90._Schedule):
    """The bf16 GEMM's tile schedule, with k-blocks of 128 elements."""

    def __init__(self, v, m, n, k, group_m, bid, nbid):
        super().__init__(v, m, n, k, group_m, bid, nbid)
        self.num_k_blocks = common.ceildivui(k, BK)


class _Scales:
    """The kernel's scale arguments: f32 pointers and element strides."""

    def __init__(self, sa_i64, sb_i64, sa_row, sa_k, sb_col, sb_k, m, n):
        self.sa, self.sb = common.global_ptr(sa_i64), common.global_ptr(sb_i64)
        self.sa_row, self.sa_k = sa_row.cast(pm.index), sa_k.cast(pm.index)
        self.sb_col, self.sb_k = sb_col.cast(pm.index), sb_k.cast(pm.index)
        self.last_row, self.last_col = m - 1, n - 1

    def a(self, row, kb=None):
        """sa at row `row` (clamped to M - 1) and k-block `kb`."""
        idx = common.minui(row, self.last_row) * self.sa_row
        if kb is not None:
            idx = idx + kb * self.sa_k
        return common.load(common.gep(self.sa, idx, pm.f32), pm.f32)

    def b(self, col, kb=None):
        """Outer: sb at column `col` (clamped); block: sb of the 128-column
        block holding `col` at k-block `kb`."""
        col = common.minui(col, self.last_col)
        if kb is None:
            idx = col * self.sb_col
        else:
            idx = (col // SCALE_BLOCK) * self.sb_col + kb * self.sb_k
        return common.load(common.gep(self.sb, idx, pm.f32), pm.f32)


def _body(v, a_map, b_map, c_map, m_i32, n_i32, k_i32, group_m_i32, scales_args):
    tid, bid, nbid = pm.thread_id(), pm.block_id(), pm.grid_dim()
    m, n, k = m_i32.cast(pm.index), n_i32.cast(pm.index), k_i32.cast(pm.index)
    group_m = group_m_i32.cast(pm.index)

    # Dynamic shared memory: the barriers at 0, then A and B stages, then
    # the C staging sub-tiles (the bf16 GEMM's plan).
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, 0, v.stages, **v.pipeline_params)
    a_tiles = pm.view(smem, v.a_off, v.a_tiles.shape, v.element)
    b_tiles = pm.view(smem, v.b_off, v.b_tiles.shape, v.element)
    c_staging = pm.view(smem, v.c_off, (v.consumers * v.epi_buffers * v.epi_subtiles, 64, 64),
                        pm.bf16)
    tp = pm.tile_pipeline(p, [a_tiles, b_tiles])
    # full: the TMA thread's arrive.expect_tx; empty: one thread per
    # consumer warpgroup.
    tp.init(producer=1, consumer=v.consumers)
    sched = _Schedule(v, m, n, k, group_m, bid, nbid)

    wg = tid // 128
    with pm.if_(wg == 0) as role:
        # Producer warpgroup: thread 0 issues every TMA load.
        common.setmaxnreg("decrease", v.producer_regs)
        with pm.if_(tid == 0):
            pm.tma_prefetch(a_map)
            pm.tma_prefetch(b_map)
            with pm.range(sched.first, sched.num_tiles, sched.step) as t:
                m0, n0, _, _ = sched.tile(t)
                with pm.range(0, sched.num_k_blocks) as kb:
                    k0 = kb * BK
                    s = tp.acquire_producer()
                    s.expect_tx()
                    bars = s.mbar()
                    a, b = s.payload(0), s.payload(1)
                    pm.tma_load(a_map, [k0, m0], bars, pm.subview(a, [0, 0, 0], [1, v.bm, BK]))
                    pm.tma_load(b_map, [k0, n0], bars, pm.subview(b, [0, 0, 0], [1, v.bn, BK]))
                    s.release()
            tp.drain_producer()
    with role.else_():
        scales = _Scales(*scales_args, m, n)
        _consumer(v, tp, sched, tid, wg, c_map, c_staging, scales)


def _consumer(v, tp, sched, tid, wg, c_map, c_staging, scales):
    """Consumer warpgroup cw owns rows 64 cw .. 64 cw + 63 of the tile."""
    common.setmaxnreg("increase", v.consumer_regs)
    me = hopper.WarpgroupThread(tid, wg)
    cw, leader, warp, lane, bar_id = me.index, me.leader, me.warp, me.lane, me.bar_id
    a_wg_off = cw * (64 * BK * v.element.nbytes)   # the warpgroup's 64 rows of the A stage
    c_rows = cw * 64
    cw_sub0 = cw * (v.epi_buffers * v.epi_subtiles)
    frag = hopper.FragmentStore(common.smem_address(c_staging) + cw * v.c_wg_bytes, warp,
                                lane)
    # This thread's two accumulator rows in the tile (Accumulator.half 0, 1)
    # and its first column.
    thread_row = c_rows + warp * 16 + lane // 4
    thread_col = (lane % 4) * 2

    def mma_stage(stage, acc, first):
        """The 4 wgmma m64nBNk32 of a k-block on `stage`, one group."""
        a, b = stage.payload(0), stage.payload(1)
        a_descs = v.a_layout.descriptors(common.smem_address(a) + a_wg_off)
        b_descs = v.b_layout.descriptors(common.smem_address(b))
        return hopper.mma_tile(acc, a_descs, b_descs, a_layout=v.a_layout,
                               b_layout=v.b_layout, overwrite=first)

    def free(stage):
        with pm.if_(leader):
            stage.arrive()
        # Tile pipeline: release only steps; the arrive frees the stage.
        stage.release()

    with pm.range(sched.first, sched.num_tiles, sched.step) as t:
        m0, n0, _, _ = sched.tile(t)
        rows = [m0 + thread_row, m0 + thread_row + 8]
        if v.scaling == "block" or v.promote:
            # Per k-block: the wgmma into a partial accumulator (scale-d 0),
            # the block scales loaded while it runs, wait, free the stage,
            # then acc += partial x sa[row, kb] sb[n0 / 128, kb] (block) or
            # acc += partial (promote: the wgmma's own accumulation spans
            # one k-block only).
            with pm.range(0, sched.num_k_blocks,
                          carry=[hopper.Accumulator.fill(v.bn).value]) as loop:
                kb = loop.iv
                cur = tp.acquire_consumer()
                part = mma_stage(cur, hopper.Accumulator.undef(v.bn), True)
                if v.scaling == "block":
                    sb = scales.b(n0, kb)
                    s = [scales.a(r, kb) * sb for r in rows]
                hopper.wait_group(0)
                free(cur)
                acc_in = hopper.Accumulator.of(v.bn, loop.carried[0])
                if v.scaling == "block":
                    acc = part.map(lambda i, x: common.fma(x, s[part.half(i)], acc_in[i]))
                else:
                    acc = part.map(lambda i, x: x + acc_in[i])
                loop.next(acc.value)
            acc_main = hopper.Accumulator.of(v.bn, loop.results[0])
        else:
            acc_main = _outer_mainloop(v, tp, sched, mma_stage, free)
        if v.scaling == "outer":
            sa = [scales.a(r) for r in rows]
            sb = {}
            for i in range(acc_main.size):
                c = acc_main.column(i)
                if c not in sb:
                    sb[c] = scales.b(n0 + thread_col + c)
            acc_main = acc_main.map(
                lambda i, x: x * (sa[acc_main.half(i)] * sb[acc_main.column(i)]))
        gemm_sm90._epilogue(v, acc_main, m0 + c_rows, n0, cw_sub0, leader, bar_id, frag,
                            c_map, c_staging)
    # Every TMA store has completed before the warpgroup exits.
    with pm.if_(leader):
        common.bulk_wait_group(0)


def _outer_mainloop(v, tp, sched, mma_stage, free):
    """The k-loop of one tile into one accumulator (the bf16 GEMM's): with
    the release lag, stage k-1 is freed once the wgmma of stage k were
    issued and only they are in flight; without, each stage once its own
    wgmma are done."""
    first = tp.acquire_consumer()
    acc = mma_stage(first, hopper.Accumulator.undef(v.bn), True)
    if not v.lag:
        hopper.wait_group(0)
        free(first)
    with pm.range(1, sched.num_k_blocks,
                  carry=[first, acc.value] if v.lag else [acc.value]) as loop:
        cur = tp.acquire_consumer()
        acc = mma_stage(cur, hopper.Accumulator.of(v.bn, loop.carried[-1]), False)
        hopper.wait_group(1 if v.lag else 0)
        free(loop.carried[0] if v.lag else cur)
        loop.next(*([cur, acc.value] if v.lag else [acc.value]))
    if v.lag:
        last, acc_main = loop.results
        hopper.wait_group(0)
        free(last)
    else:
        (acc_main,) = loop.results
    return hopper.Accumulator.of(v.bn, acc_main)


def build(**options):
    """The kernel of one variant (options: see the module's docstring) and
    its dynamic shared memory in bytes. ValueError for options that do not
    make a kernel."""
    v = _Variant(**options)
    desc_a = v.a_layout.tensormap()
    desc_b = v.b_layout.tensormap()
    desc_c = v.c_layout.tensormap()

    @pm.kernel(name=v.name, block=v.threads, min_ctas=1)
    def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, sa_i64: pm.i64, sb_i64: pm.i64,
             m_i32: pm.i32, n_i32: pm.i32, k_i32: pm.i32, group_m_i32: pm.i32,
             sa_row: pm.i32, sa_k: pm.i32, sb_col: pm.i32, sb_k: pm.i32):
        _body(v, a_map, b_map, c_map, m_i32, n_i32, k_i32, group_m_i32,
              (sa_i64, sb_i64, sa_row, sa_k, sb_col, sb_k))
    return gemm, v.smem_bytes


def generate(locations=False, **options):
    """The module text of one variant and its dynamic shared memory in bytes."""
    kernel, smem = build(**options)
    return pm.Module([kernel], name=MODULE).mlir(locations=locations), smem


def _header(v):
    scaling = ("the epilogue multiplies C[m, n] by sa[m sa_row] sb[n sb_col]"
               if v.scaling == "outer" else
               "each k-block's partial sums are scaled by sa[m, kb] sb[n / 128, kb]\n"
               "// and added into the f32 accumulator")
    return f"""\
// A warp-specialized, persistent FP8 GEMM for Hopper (sm_90a), written with
// the pipeline dialect and upstream NVGPU/NVVM ops:
//
//   C[M, N] = scale(A[M, K] * B[N, K]^T)   e4m3 A and B (K-major), f32
//                                          accumulation, bf16 C
//
// Scaling "{v.scaling}": {scaling}.
//
// GENERATED by scripts/gen-examples.py from the builder program
// python/pipeline_mlir/kernels/gemm_fp8_sm90.py, options
//   {v.gen_args()}
// Edit the program, not this file.
//
// chips: sm_90a
//
// CTA tile {v.bm} x {v.bn} x {BK}, {v.stages} stages, {v.threads} threads: warpgroup 0 the TMA
// producer, then {v.consumers} consumer warpgroup(s) of 64 rows issuing 4 wgmma.m64n{v.bn}k32
// per k-block.
//
// Launch: block ({v.threads}, 1, 1); grid (min(SMs, tiles), 1, 1); dynamic shared
// memory {v.smem_bytes} B. Arguments: TMA descriptors of A (e4m3, box 128 x {v.bm}), B
// (e4m3, box 128 x {v.bn}) and C (bf16, box 64 x 64), SWIZZLE_128B; the addresses of
// the f32 scales sa and sb (i64); M, N, K, group_m, sa_row, sa_k, sb_col, sb_k (i32).

"""


def example(**options):
    """The module text of a variant with its comment header, without
    source locations."""
    v = _Variant(**options)
    text, _ = generate(locations=False, **options)
    return _header(v) + text


def main(argv=None):
    ap = _command.parser(__doc__)
    ap.add_argument("--scaling", default="outer", choices=SCALINGS)
    ap.add_argument("--bn", type=int, default=None, help="256 (outer), 128 (block)")
    ap.add_argument("--stages", type=int, default=None, help="3 (outer), 5 (block)")
    ap.add_argument("--epi-subtiles", type=int, default=None, help="4 (outer), 2 (block)")
    ap.add_argument("--consumers", type=int, default=2)
    ap.add_argument("--no-lag", action="store_true")
    ap.add_argument("--promote", action="store_true",
                    help="outer scaling: add each k-block's wgmma sums into a separate f32 "
                         "accumulator (cuBLAS without fast accumulation)")
    ap.add_argument("--producer-regs", type=int, default=40)
    ap.add_argument("--consumer-regs", type=int, default=232)
    ap.add_argument("--name", default=None)
    args = ap.parse_args(argv)
    options = dict(scaling=args.scaling, bn=args.bn, stages=args.stages,
                   epi_subtiles=args.epi_subtiles, consumers=args.consumers,
                   lag=not args.no_lag, promote=args.promote,
                   producer_regs=args.producer_regs,
                   consumer_regs=args.consumer_regs, name=args.name)

    def make(a):
        v = _Variant(**options)
        if a.example:
            return example(**options), v.smem_bytes
        return generate(locations=not a.no_locations, **options)[0], v.smem_bytes
    _command.run(args, make)


if __name__ == "__main__":
    main()
