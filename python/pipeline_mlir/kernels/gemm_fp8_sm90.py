"""The warp-specialized, persistent FP8 GEMM for Hopper (sm_90a), as a
builder program: C[M, N] = scale (A[M, K] B[N, K]^T), e4m3 A and B
(K-major), f32 accumulation, bf16 C (what `pipeline_mlir.scaled_mm`
launches). It is the bf16 GEMM of kernels/gemm_sm90.py (its shared-memory
plan, producer, tile schedules, epilogue, split-K, stream-K and 2-CTA
clusters) with e4m3 A and B: 128-element (128-byte) k-blocks and wgmma
m64nNk32; this program adds one of two scalings:

  outer   C[m, n] = sa[m] sb[n] acc[m, n], applied before the epilogue:
          the per-tensor scales (sa, sb one value each: strides 0) and the
          rowwise ones (sa per row of A, sb per column of B) of
          torch._scaled_mm;
  block   the 1x128 (A) x 128x128 (B) block scaling of DeepSeek-V3: each
          k-block's wgmma partial sum is scaled by
          sa[m, kb] sb[n / 128, kb] and added into the f32 accumulator
          (the promotion of CUTLASS's FP8BlockScaledAccum and DeepGEMM).

Scaling is linear, so it commutes with the K splits: with split-K each K
slice scales its partial tile before the bf16 reduce-add into C; with
stream-K the owner of a tile scales the sum of the units' partials (outer)
or every unit scales its own k-blocks (block).

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
  --split-k       take a split count S: the K slices of a tile reduce-add
                  bf16 partial tiles into a zeroed C
  --stream-k      take a workspace and flags (stream-K, as the bf16 GEMM's)
  --cluster 2     CTA pairs multicast the B tile; cluster dims (2, 1, 1)
  --pingpong      each consumer warpgroup computes whole 128-row tiles, the
                  two alternating (the bf16 GEMM's); outer scaling only,
                  without --promote
  --producer-regs, --consumer-regs   the setmaxnreg values

Kernel arguments: the TMA descriptors of A (e4m3, box 128 x BM), B (e4m3,
box 128 x BN, or BN / 2 with --cluster 2) and C (bf16, box 64 x 64), all
128-byte swizzled; the global addresses of the f32 scales sa and sb (i64);
M, N, K, group_m; then the element strides of the scales as i32: sa_row,
sa_k, sb_col, sb_k; then, as the bf16 GEMM's, the split count S (i32,
--split-k) or the addresses of the stream-K workspace and flags (i64,
--stream-k). Outer scaling reads sa[m sa_row] and sb[n sb_col]
(per-tensor: both strides 0); block scaling reads sa[m sa_row + kb sa_k]
and sb[(n / 128) sb_col + kb sb_k] for the k-block kb of 128. K is a
multiple of 16 and N of 8 (TMA rows of 16 bytes: K e4m3, N bf16); M, N, K
need not be multiples of the tile (TMA zero-fills and clips; the scales'
indices are clamped to the last row and column, so ragged tiles read
inside the scales).
"""

import pipeline_mlir as pm
from . import _command
from . import gemm_sm90
from ..nvidia import common, hopper

ELEMENT = pm.f8E4M3FN
BK = gemm_sm90.K_BLOCK_BYTES // ELEMENT.nbytes   # 128 e4m3: one 128-byte swizzle row
MODULE = "gemm_fp8_sm90"  # the gpu.module's name
SCALINGS = ("outer", "block")
SCALE_BLOCK = 128   # block scaling: 1 x 128 (A) and 128 x 128 (B) blocks


class _Variant(gemm_sm90._Variant):
    """The bf16 GEMM's variant (its checks, shared-memory plan and epilogue
    rounds) with e4m3 A and B, and the scaling: a BM x 128 e4m3 stage takes
    the bytes of a BM x 64 bf16 one, so the plan is the same."""

    def __init__(self, bn=None, stages=None, epi_subtiles=None, producer_regs=40,
                 consumer_regs=232, name=None, lag=True, consumers=2, scaling="outer",
                 promote=False, cluster=1, split_k=False, stream_k=False, pingpong=False):
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
        if pingpong and (scaling == "block" or promote):
            # Two partial accumulators besides the two of the tile: 256
            # registers a thread at BN 128, more than setmaxnreg gives.
            raise ValueError("--pingpong runs outer scaling without --promote")
        if scaling == "block" or promote:
            lag = False   # the promotion waits for each k-block's wgmma
        name = name or ("gemm_fp8_block_sm90" if scaling == "block" else "gemm_fp8_sm90")
        super().__init__(bn=bn, stages=stages, epi_subtiles=epi_subtiles,
                         producer_regs=producer_regs, consumer_regs=consumer_regs, name=name,
                         lag=lag, consumers=consumers, cluster=cluster, split_k=split_k,
                         stream_k=stream_k, element=ELEMENT, pingpong=pingpong)
        self.scaling, self.promote = scaling, promote

    def gen_args(self):
        args = (f"--scaling {self.scaling} --bn {self.bn} --stages {self.stages} "
                f"--epi-subtiles {self.epi_subtiles}")
        if self.consumers != 2:
            args += f" --consumers {self.consumers}"
        if self.promote:
            args += " --promote"
        elif not self.lag and self.scaling == "outer":
            args += " --no-lag"
        args += self.work_args()
        if self.pingpong:
            args += " --pingpong"
        return args


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


class _Consumer(gemm_sm90._Consumer):
    """The bf16 GEMM's consumer warpgroup with the scalings: block scaling
    and promote run their own k-loop (per k-block partial sums added into
    f32 accumulators), outer scaling multiplies the accumulators by the
    scales before the epilogue."""

    def __init__(self, v, tp, me, m, n, scale_args):
        super().__init__(v, tp, me, m, n)
        self.scales = _Scales(*scale_args, m, n)
        # This thread's first accumulator row in the tile (Accumulator.half
        # 0 of the warpgroup's first 64-row half; element half 1 is 8 rows
        # below, the tile's half h 64 h rows) and its first column.
        if v.pingpong:
            self.thread_row = me.warp * 16 + me.lane // 4
        else:
            self.thread_row = self.c_rows + me.warp * 16 + me.lane // 4
        self.thread_col = (me.lane % 4) * 2

    def k_loop(self, m0, n0, kb_lo, kb_end):
        v = self.v
        # The rows of C this thread's accumulator rows 0 and 1 of each
        # 64-row half hold (the scales' rows, here and in `finish`).
        self.tile_rows = [[m0 + self.thread_row + 64 * h if h else m0 + self.thread_row,
                           m0 + self.thread_row + (64 * h + 8)] for h in range(v.halves)]
        if v.scaling != "block" and not v.promote:
            return super().k_loop(m0, n0, kb_lo, kb_end)
        # Per k-block: the wgmma into partial accumulators (scale-d 0),
        # the block scales loaded while they run, wait, free the stage,
        # then acc += partial x sa[row, kb] sb[n0 / 128, kb] (block) or
        # acc += partial (promote: the wgmma's own accumulation spans one
        # k-block only).
        zero = [hopper.Accumulator.fill(v.bn).value for _ in range(v.halves)]
        with pm.range(kb_lo if kb_lo is not None else 0, kb_end, carry=zero) as loop:
            kb = loop.iv
            cur = self.tp.acquire_consumer()
            parts = self.mma_stage(cur, self.undef(), True)
            if v.scaling == "block":
                sb = self.scales.b(n0, kb)
                s = [[self.scales.a(r, kb) * sb for r in rows] for rows in self.tile_rows]
            hopper.wait_group(0)
            self.free(cur)
            accs = []
            for h, (part, acc_in) in enumerate(zip(parts, self.of(loop.carried))):
                if v.scaling == "block":
                    acc = part.map(lambda i, x: common.fma(x, s[h][part.half(i)], acc_in[i]))
                else:
                    acc = part.map(lambda i, x: x + acc_in[i])
                accs.append(acc)
            loop.next(*[x.value for x in accs])
        self.mainloop_issued()
        return self.of(loop.results)

    def finish(self, m0, n0, accs):
        """Outer scaling: acc[m, n] sa[m] sb[n] (the columns' sb shared by
        the halves)."""
        if self.v.scaling != "outer":
            return accs
        sa = [[self.scales.a(r) for r in rows] for rows in self.tile_rows]
        sb = {}
        for i in range(accs[0].size):
            c = accs[0].column(i)
            if c not in sb:
                sb[c] = self.scales.b(n0 + self.thread_col + c)
        return [acc.map(lambda i, x: x * (sa[h][acc.half(i)] * sb[acc.column(i)]))
                for h, acc in enumerate(accs)]


def build(**options):
    """The kernel of one variant (options: see the module's docstring) and
    its dynamic shared memory in bytes. ValueError for options that do not
    make a kernel."""
    v = _Variant(**options)
    desc_a = v.a_layout.tensormap()
    desc_b = v.b_layout.tensormap(rows=v.b_box)
    desc_c = v.c_layout.tensormap()
    kw = v.kernel_options

    def body(maps, sizes, scale_args, **k_split):
        def consumer(v, tp, me, m, n):
            return _Consumer(v, tp, me, m, n, scale_args)
        gemm_sm90._body(v, *maps, *sizes, consumer=consumer, **k_split)

    if v.split_k:
        @pm.kernel(**kw)
        def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, sa_i64: pm.i64, sb_i64: pm.i64,
                 m_i32: pm.i32, n_i32: pm.i32, k_i32: pm.i32, group_m_i32: pm.i32,
                 sa_row: pm.i32, sa_k: pm.i32, sb_col: pm.i32, sb_k: pm.i32,
                 splits_i32: pm.i32):
            body((a_map, b_map, c_map), (m_i32, n_i32, k_i32, group_m_i32),
                 (sa_i64, sb_i64, sa_row, sa_k, sb_col, sb_k), splits_i32=splits_i32)
    elif v.stream_k:
        @pm.kernel(**kw)
        def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, sa_i64: pm.i64, sb_i64: pm.i64,
                 m_i32: pm.i32, n_i32: pm.i32, k_i32: pm.i32, group_m_i32: pm.i32,
                 sa_row: pm.i32, sa_k: pm.i32, sb_col: pm.i32, sb_k: pm.i32,
                 ws_i64: pm.i64, flags_i64: pm.i64):
            body((a_map, b_map, c_map), (m_i32, n_i32, k_i32, group_m_i32),
                 (sa_i64, sb_i64, sa_row, sa_k, sb_col, sb_k), ws_i64=ws_i64,
                 flags_i64=flags_i64)
    else:
        @pm.kernel(**kw)
        def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, sa_i64: pm.i64, sb_i64: pm.i64,
                 m_i32: pm.i32, n_i32: pm.i32, k_i32: pm.i32, group_m_i32: pm.i32,
                 sa_row: pm.i32, sa_k: pm.i32, sb_col: pm.i32, sb_k: pm.i32):
            body((a_map, b_map, c_map), (m_i32, n_i32, k_i32, group_m_i32),
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
    grid, extra = "min(SMs, tiles)", ""
    if v.split_k:
        grid = "min(SMs, tiles x S work units)"
        extra = ("\n// Then the split count S (i32): the K slices reduce-add bf16 partial "
                 "tiles,\n// C must be zero before the launch.")
    if v.stream_k:
        grid = "M-tiles x min(SMs / M-tiles, N-tiles x k-blocks)"
        extra = ("\n// Then the addresses of the stream-K workspace and flags (i64), laid "
                 "out as\n// the bf16 GEMM's (examples/gemm_sm90.mlir's header).")
    if v.cluster == 2:
        grid = "2 min(SMs / 2, ceil(M-tiles / 2) x N-tiles)"
        extra = ("\n// Cluster dims (2, 1, 1): the CTAs of a pair each load and multicast "
                 f"{v.b_box} rows\n// of the B tile.")
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
// Launch: block ({v.threads}, 1, 1); grid ({grid}, 1, 1);
// dynamic shared memory {v.smem_bytes} B. Arguments: TMA descriptors of A (e4m3, box
// 128 x {v.bm}), B (e4m3, box 128 x {v.b_box}) and C (bf16, box 64 x 64), SWIZZLE_128B;
// the addresses of the f32 scales sa and sb (i64); M, N, K, group_m, sa_row,
// sa_k, sb_col, sb_k (i32).{extra}

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
    ap.add_argument("--split-k", action="store_true",
                    help="take a split count S: K slices of a tile run as separate work "
                         "units and reduce-add bf16 partials into a zeroed C")
    ap.add_argument("--stream-k", action="store_true",
                    help="stream-K: take a workspace and flags; the CTA that starts a "
                         "tile's K adds the others' f32 partials and stores C")
    ap.add_argument("--cluster", type=int, default=1,
                    help="2: CTA pairs share (multicast) the B tile; launch with cluster "
                         "dims (2, 1, 1)")
    ap.add_argument("--producer-regs", type=int, default=40)
    ap.add_argument("--consumer-regs", type=int, default=232)
    ap.add_argument("--pingpong", action="store_true",
                    help="each of the 2 consumer warpgroups computes whole 128-row tiles "
                         "(every other tile of the CTA, from its own pipeline) so that one's "
                         "epilogue overlaps the other's mainloop")
    ap.add_argument("--name", default=None)
    args = ap.parse_args(argv)
    options = dict(scaling=args.scaling, bn=args.bn, stages=args.stages,
                   epi_subtiles=args.epi_subtiles, consumers=args.consumers,
                   lag=not args.no_lag, promote=args.promote,
                   producer_regs=args.producer_regs,
                   consumer_regs=args.consumer_regs, name=args.name,
                   split_k=args.split_k, stream_k=args.stream_k, cluster=args.cluster,
                   pingpong=args.pingpong)

    def make(a):
        v = _Variant(**options)
        if a.example:
            return example(**options), v.smem_bytes
        return generate(locations=not a.no_locations, **options)[0], v.smem_bytes
    _command.run(args, make)


if __name__ == "__main__":
    main()
