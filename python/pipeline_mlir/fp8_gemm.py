"""`pipeline_mlir.scaled_mm` (this module: fp8_gemm): FP8 GEMMs on Hopper
with the dialect's sm_90a kernel (pipeline_mlir/kernels/gemm_fp8_sm90.py),
the drop-in of
`torch._scaled_mm(a, b, scale_a, scale_b, out_dtype=torch.bfloat16)`:

    C[M, N] = scale(a[M, K] @ b[K, N])      e4m3 a and b, f32 accumulation, bf16 C

`a` is row-major M x K, `b` column-major K x N (the `.t()` of a contiguous
N x K weight `w`: `scaled_mm(x, w.t(), ...)`), both torch.float8_e4m3fn.
The scales (f32 CUDA tensors) choose the scaling, as torch._scaled_mm's do:

  per-tensor   scale_a and scale_b of one element each: C = sa sb (a @ b);
  rowwise      scale_a (M, 1), scale_b (1, N): C[m, n] = sa[m] sb[n] (a @ b)[m, n];
  block        scale_a (M, ceil(K / 128)), scale_b (ceil(N / 128), ceil(K / 128)):
               the 1 x 128 (a) and 128 x 128 (b) blocks of DeepSeek-V3, any
               strides (row- or column-major scales):
               C[m, n] = sum_kb sa[m, kb] sb[n / 128, kb] sum_{k in kb} a[m, k] b[k, n].

A function of its own rather than pm.gemm with scales: its operands,
layouts and scales are torch._scaled_mm's, so that one call replaces the
other. Accumulation: the tensor and rowwise variants chosen by default
accumulate in the wgmma's registers over all of K (torch's
use_fast_accum=True; the tensor cores' FP8 accumulation keeps fewer bits
than f32); the promote variants ("bn128p", "m64n128p") and block scaling
add each k-block's sums into an f32 accumulator.

Emulation (`emulate=True`, no GPU): numpy uint8 arrays of e4m3 bits
(`to_e4m3`), `b` the transpose of a C-contiguous N x K array, float32
scales; returns uint16 bf16 bits (pm.from_bf16 reads them).
"""

from __future__ import annotations

import functools

from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import matmul
from .errors import LaunchError

#: The variants (kernel program options). "outer": per-tensor and rowwise
#: scales in the epilogue; "block": the per-k-block promotion (BN 128).
CONFIGS = {
    "bn256": dict(bn=256, stages=3, epi_subtiles=4),
    "bn256n": dict(bn=256, stages=3, epi_subtiles=4, lag=False),
    "bn128": dict(bn=128, stages=5, epi_subtiles=2),
    "bn128n": dict(bn=128, stages=5, epi_subtiles=2, lag=False),
    # One consumer warpgroup: 64-row tiles, for small M (decode).
    "m64n128": dict(consumers=1, bn=128, stages=8, epi_subtiles=2),
    "m64n256": dict(consumers=1, bn=256, stages=4, epi_subtiles=4),
    # 64 x 64 tiles: more CTAs for decode shapes whose N is short.
    "m64n64": dict(consumers=1, bn=64, stages=12, epi_subtiles=1),
    # Promotion: each k-block's wgmma sums added into a second f32
    # accumulator (the accuracy of torch._scaled_mm without use_fast_accum).
    "bn128p": dict(bn=128, stages=5, epi_subtiles=2, promote=True),
    "m64n128p": dict(consumers=1, bn=128, stages=8, epi_subtiles=2, promote=True),
    "block": dict(scaling="block", bn=128, stages=5, epi_subtiles=2),
    "block_m64": dict(scaling="block", consumers=1, bn=128, stages=8, epi_subtiles=2),
    # Four stages of 128 x 256 tiles: the epilogue in two rounds of two
    # sub-tiles leaves the shared memory for the fourth.
    "bn256n4": dict(bn=256, stages=4, epi_subtiles=2, lag=False),
    # Split-K (pm.gemm's): the K range of a tile cut into slices on
    # separate SMs, each scaling its partial tile and reduce-adding it in
    # bf16 into a zeroed C; for shapes with fewer tiles than SMs and a long K.
    "m64n64k": dict(consumers=1, bn=64, stages=12, epi_subtiles=1, split_k=True),
    "m64n128k": dict(consumers=1, bn=128, stages=8, epi_subtiles=2, split_k=True),
    "bn128k": dict(bn=128, stages=5, epi_subtiles=2, split_k=True),
    # Stream-K (pm.gemm's): one CTA per M-tile in each group of CTAs, the
    # (N-tile, k-block) iterations cut evenly among the groups; the unit
    # that starts a tile's K adds the others' f32 partials, scales the sum
    # and stores C.
    "bn256s": dict(bn=256, stages=3, epi_subtiles=4, stream_k=True),
    "bn128s": dict(bn=128, stages=5, epi_subtiles=2, stream_k=True),
    "m64n128s": dict(consumers=1, bn=128, stages=8, epi_subtiles=2, stream_k=True),
    # Clusters of 2 CTAs (M-tiles 2i and 2i + 1 of one N-tile) that
    # multicast the B tile, each loading half of it.
    "bn256c2": dict(bn=256, stages=3, epi_subtiles=4, cluster=2, lag=False),
    "bn128c2": dict(bn=128, stages=5, epi_subtiles=2, cluster=2, lag=False),
    # Ping-pong: each consumer warpgroup computes whole 128 x 128 tiles
    # (every other tile of the CTA, from one 6-stage ring; the mainloops
    # take turns), so that one's epilogue overlaps the other's mainloop.
    "bn128pp": dict(bn=128, stages=6, epi_subtiles=2, pingpong=True),
}

#: The split-K variants' tiles without split-K, for chosen shapes that do
#: not split; the stream-K variants' without stream-K, for shapes with
#: more M-tiles than SMs (pm.gemm's rules, matmul.UNSPLIT and UNSTREAMED).
UNSPLIT = {"m64n64k": "m64n64", "m64n128k": "m64n128", "bn128k": "bn128"}
UNSTREAMED = {"bn256s": "bn256", "bn128s": "bn128", "m64n128s": "m64n128"}

#: k-block of every variant (gemm_fp8_sm90.BK), M-tiles per group, the
#: block scaling's block.
BK, GROUP_M, SCALE_BLOCK = 128, 8, 128


def _rows(label: str) -> int:
    """Tile rows of a variant: 64 per consumer warpgroup, 128 with ping-pong."""
    return matmul.tile_rows(CONFIGS[label])


def _scaling(label: str) -> str:
    return CONFIGS[label].get("scaling", "outer")


#: The variants `choose` weighs for tensor and rowwise scaling, and the
#: rate of each tile when every SM has work, relative to 128 x 256 (the
#: medians over the M = 8192 shapes of bench/gemm/bench_fp8.py --tune on
#: an H100: bench/gemm/results/h100-fp8-tune.txt; ping-pong's from
#: h100-fp8-tune-pingpong.txt).
TILE_RATES = {"bn128pp": 1.05, "bn256n4": 1.03, "bn256n": 1.0, "bn128n": 0.96,
              "m64n256": 0.93, "m64n128": 0.74}
#: k-blocks from which bn256n4 is weighed (K >= 12288), and up to which
#: ping-pong is (K <= 8192).
LONG_K_BLOCKS = 96
PINGPONG_K_BLOCKS = 64
#: Ping-pong is weighed up to this N: its warpgroups run two tiles that lie
#: a grid apart, and on the widest projections that costs it (M >= 4096:
#: N 57344 0.78-0.80 of cuBLASLt against 1.00-1.02 for 128 x 256; N 28672
#: one shape won, one lost).
PINGPONG_MAX_N = 16384


@functools.lru_cache(maxsize=4096)
def choose(m: int, n: int, k: int, scaling: str = "outer", sm_count: int = 132) -> str:
    """The variant for an M x N x K product, reasoned from the shape rather
    than looked up: each tile of TILE_RATES runs ceil(T / SMs) waves of its
    T tiles, so its time is proportional to that count times its area over
    its rate; the variant with the least wins (ties: the first listed). Where even 64 x
    128 tiles fill no more than half the SMs and K is long enough for two
    slices, split-K (m64n128k) cuts each tile's K among the idle SMs. Block
    scaling has 128-column tiles only."""
    if scaling == "block":
        return "block_m64" if m <= 64 else "block"
    k_blocks = -(-k // BK)
    if -(-m // 64) * -(-n // 128) * 2 <= sm_count and k_blocks >= LONG_K_BLOCKS:
        return "m64n128k"

    def cost(label):
        bm, bn = _rows(label), CONFIGS[label]["bn"]
        tiles = -(-m // bm) * -(-n // bn)
        return -(-tiles // sm_count) * bm * bn / TILE_RATES[label]
    # The fourth stage of bn256n4 takes the staging of half the epilogue
    # (two rounds per tile instead of one): it pays only where a tile's K
    # is long enough to hide that. Ping-pong hides the epilogue under the
    # other warpgroup's mainloop: it pays where K is short.
    # Ping-pong's rate needs both warpgroups of every CTA busy: at least
    # two tiles per SM (with one, a lone warpgroup computes it).
    pp_tiles = -(-m // 128) * -(-n // 128)
    labels = [lab for lab in TILE_RATES
              if (lab != "bn256n4" or k_blocks >= LONG_K_BLOCKS)
              and (lab != "bn128pp" or (k_blocks <= PINGPONG_K_BLOCKS and n <= PINGPONG_MAX_N
                                        and pp_tiles >= 2 * sm_count))]
    return min(labels, key=cost)


_kernels: Dict[str, Any] = {}


def _kernel(label: str) -> Tuple[Any, int]:
    """The compiled kernel of a variant and its dynamic shared memory."""
    if label not in _kernels:
        from .compiler import compile as _compile
        from .ir import Module
        from .kernels import gemm_fp8_sm90
        kernel, smem = gemm_fp8_sm90.build(**CONFIGS[label])
        module = Module([kernel], name=gemm_fp8_sm90.MODULE)
        _kernels[label] = (_compile(module, chip="sm_90a").kernel(kernel.name), smem)
    return _kernels[label]


def plan_scales(fn: str, m: int, n: int, k: int, sa_shape, sa_strides, sb_shape,
                sb_strides) -> Tuple[str, Tuple[int, int, int, int]]:
    """The scaling the scales' shapes ask for and the kernel's element
    strides (sa_row, sa_k, sb_col, sb_k); LaunchError for other shapes."""
    sa_shape, sb_shape = tuple(sa_shape), tuple(sb_shape)
    numel = lambda s: int(np.prod(s)) if s else 1   # noqa: E731
    kb, nb = -(-k // SCALE_BLOCK), -(-n // SCALE_BLOCK)

    def two_d(shape, strides):
        if len(shape) == 2:
            return tuple(strides)
        return None
    if numel(sa_shape) == 1 and numel(sb_shape) == 1 and len(sa_shape) <= 2 \
            and len(sb_shape) <= 2:
        return "outer", (0, 0, 0, 0)
    sa_s, sb_s = two_d(sa_shape, sa_strides), two_d(sb_shape, sb_strides)
    if sa_s is not None and sb_s is not None:
        if sa_shape == (m, 1) and sb_shape == (1, n):
            return "outer", (sa_s[0] if m > 1 else 0, 0, sb_s[1] if n > 1 else 0, 0)
        if sa_shape == (m, kb) and sb_shape == (nb, kb):
            return "block", (sa_s[0], sa_s[1], sb_s[0], sb_s[1])
    raise LaunchError(f"{fn}: scale_a {sa_shape} and scale_b {sb_shape} are no scaling of a "
                      f"{m} x {k} by {k} x {n} product: per-tensor (one element each), "
                      f"rowwise ({(m, 1)} and {(1, n)}) or 1x128 x 128x128 blocks "
                      f"({(m, kb)} and {(nb, kb)})")


def _check_shape(fn: str, m: int, n: int, k: int, kb: int) -> None:
    if kb != k:
        raise LaunchError(f"{fn}: a is {m} x {k} and b is {kb} x {n}: C = a @ b needs "
                          "b with K rows")
    if m == 0 or n == 0 or k == 0:
        raise LaunchError(f"{fn}: M, N, K must be at least 1, got {m}, {n}, {k}")
    if k % 16 or n % 8:
        raise LaunchError(f"{fn}: K ({k}) must be a multiple of 16 and N ({n}) of 8 (TMA "
                          "needs 16-byte rows)")


def resolve(fn: str, m: int, n: int, k: int, scaling: str, variant: Optional[str],
            sm_count: int) -> str:
    """The variant to run: `variant` (checked against the scaling) or
    `choose`; as pm.gemm, a chosen split-K variant whose shape does not
    split runs its tile without split-K (UNSPLIT), and a stream-K variant
    with more M-tiles than SMs its tile without stream-K (UNSTREAMED)."""
    label = variant or choose(m, n, k, scaling, sm_count)
    if label not in CONFIGS:
        raise LaunchError(f"{fn}: variant is one of {sorted(CONFIGS)}, got {label!r}")
    if _scaling(label) != scaling:
        raise LaunchError(f"{fn}: variant {label!r} does {_scaling(label)} scaling, the "
                          f"scales ask for {scaling}")
    if variant is None and splits_for(label, m, n, k, sm_count) == 1:
        label = UNSPLIT.get(label, label)
    if CONFIGS[label].get("stream_k") and -(-m // _rows(label)) > sm_count:
        label = UNSTREAMED[label]
    return label


def splits_for(label: str, m: int, n: int, k: int, sm_count: int) -> int:
    """The split count of a split-K variant (pm.gemm's rule, with k-blocks
    of 128); 1 for the others."""
    if not CONFIGS[label].get("split_k"):
        return 1
    tiles = -(-m // _rows(label)) * -(-n // CONFIGS[label]["bn"])
    return matmul.split_count(tiles, k, sm_count, BK)


def cluster_dims(label: str) -> Optional[Tuple[int, int, int]]:
    """The cluster dims a variant launches with (None: no cluster)."""
    return (2, 1, 1) if CONFIGS[label].get("cluster", 1) == 2 else None


def launch_shape(label: str, m: int, n: int, k: int, sm_count: int) -> Tuple[int, int, int]:
    """(grid, block, smem) of a variant for an M x N x K product on
    `sm_count` SMs (the grid: matmul.persistent_grid)."""
    config = CONFIGS[label]
    bm, bn = _rows(label), config["bn"]
    grid = matmul.persistent_grid(m, n, k, bm, bn, sm_count, BK,
                                  splits_for(label, m, n, k, sm_count),
                                  bool(config.get("stream_k")), config.get("cluster", 1))
    return grid, matmul.block_threads(config), _kernel(label)[1]


# --- e4m3 bits on the host ------------------------------------------------------

def _e4m3_table() -> np.ndarray:
    c = np.arange(256)
    e, f = (c >> 3) & 15, (c & 7).astype(np.float64)
    mag = np.where(e == 0, f / 8 * 2.0 ** -6, (1 + f / 8) * 2.0 ** (e - 7))
    mag = np.where((c & 0x7F) == 0x7F, np.nan, mag)
    return np.where(c & 0x80, -mag, mag)


_E4M3 = _e4m3_table()


def from_e4m3(bits: np.ndarray) -> np.ndarray:
    """The float64 values of e4m3 bits (a uint8 array), exactly (0x7F and
    0xFF are NaN; e4m3 has no infinities)."""
    return _E4M3[np.asarray(bits, np.uint8)]


def to_e4m3(x: Any) -> np.ndarray:
    """Values rounded to the nearest e4m3 (ties to even), saturated to
    +-448 (cvt.rn.satfinite), as a uint8 array of bits; NaN -> 0x7F."""
    x = np.asarray(x, np.float64)
    pos = _E4M3[:127]                       # codes 0 .. 126: 0 .. 448, ascending
    ax = np.minimum(np.abs(x), 448.0)
    hi = np.clip(np.searchsorted(pos, ax), 0, 126)
    lo = np.maximum(hi - 1, 0)
    dl, dh = ax - pos[lo], pos[hi] - ax
    code = np.where((dh < dl) | ((dh == dl) & (hi % 2 == 0)), hi, lo)
    bits = (code | np.where(np.signbit(x), 0x80, 0)).astype(np.uint8)
    return np.where(np.isnan(x), np.uint8(0x7F), bits).astype(np.uint8)


# --- torch ------------------------------------------------------------------------

_maps: Dict[str, Any] = {}
_launches: Dict[Any, Any] = {}


def _tensor_map(element: str, array: Any, box: Tuple[int, int], stream: Any) -> Any:
    from .driver import TensorMapCache
    if element not in _maps:
        _maps[element] = TensorMapCache(element, "swizzle_128b", "l2_256b")
    return _maps[element].get(array, box, stream, "scaled_mm")


def scaled_mm(a: Any, b: Any, scale_a: Any, scale_b: Any, out: Any = None, *,
              out_dtype: Any = None, variant: Optional[str] = None, stream: Any = None,
              emulate: bool = False) -> Any:
    """C = scale(a @ b) as torch._scaled_mm(a, b, scale_a, scale_b,
    out_dtype=torch.bfloat16) computes it (see the module's docstring for
    layouts and scalings): `a` M x K row-major, `b` K x N column-major,
    both torch.float8_e4m3fn CUDA tensors, K a multiple of 16 and N of 8;
    f32 scales. Returns `out` (or a new M x N bf16 tensor). Runs on
    `stream`, by default torch's current stream, without waiting for it.
    `variant` forces one of CONFIGS; by default `choose(M, N, K, scaling)`.

    `emulate=True`: the same kernel in the emulator on numpy arrays
    (pipeline_mlir.emulator.scaled_mm)."""
    fn = "scaled_mm"
    if emulate:
        if stream is not None:
            raise LaunchError(f"{fn}: an emulated scaled_mm runs on the CPU: it takes no "
                              "stream")
        from .emulator import scaled_mm as _emulated
        return _emulated(a, b, scale_a, scale_b, out, variant=variant)
    from . import torch_args
    from .driver import driver
    torch = torch_args.import_torch(fn)
    if out is None and isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) \
            and a.dim() == 2 and b.dim() == 2:
        # C first: its address is part of the launch's key (checked below).
        out = torch.empty((a.shape[0], b.shape[1]), dtype=torch.bfloat16, device=a.device)
    # A call like an earlier one (the same tensors, stream and options)
    # launches what that one prepared, after the same checks passed.
    key = torch_args.launch_key((a, b, scale_a, scale_b, out), stream, variant, out_dtype)
    launch = _launches.get(key) if key is not None else None
    if launch is not None:
        launch()
        return out
    if out_dtype not in (None, torch.bfloat16):
        raise LaunchError(f"{fn}: out_dtype is torch.bfloat16, got {out_dtype}")
    e4m3 = torch.float8_e4m3fn
    if isinstance(b, torch.Tensor) and b.dim() == 2 and not b.t().is_contiguous():
        raise LaunchError(f"{fn}: b must be column-major (K x N, the .t() of a contiguous "
                          "N x K tensor), as torch._scaled_mm takes it")
    bt = b.t() if isinstance(b, torch.Tensor) and b.dim() == 2 else b
    torch_args.inputs(fn, (("a", a), ("b.t()", bt)), rank=2, dtype=e4m3)
    torch_args.inputs(fn, (("scale_a", scale_a), ("scale_b", scale_b)), rank=None,
                      dtype=torch.float32)
    if scale_a.device != a.device or scale_b.device != a.device:
        raise LaunchError(f"{fn}: a, b, scale_a and scale_b must be on one device")
    m, k = a.shape
    kb, n = b.shape
    _check_shape(fn, m, n, k, kb)
    scaling, strides = plan_scales(fn, m, n, k, scale_a.shape, scale_a.stride(),
                                   scale_b.shape, scale_b.stride())
    out = torch_args.output(fn, "out", out, (m, n), torch.bfloat16, like=("a", a))
    torch_args.disjoint(fn, (("out", out),), (("a", a), ("b", b), ("scale_a", scale_a),
                                              ("scale_b", scale_b)),
                        why="C is written while a, b and the scales are read")
    sm_count = driver().sm_count
    label = resolve(fn, m, n, k, scaling, variant, sm_count)
    if stream is None:
        stream = torch.cuda.current_stream(a.device)
    elif isinstance(stream, int):
        stream = torch.cuda.ExternalStream(stream)
    launch = _prepare_launch(label, a, b, out, scale_a, scale_b, m, n, k, strides, stream,
                             sm_count)
    if key is not None:
        if len(_launches) > 4096:
            _launches.clear()
        _launches[key] = launch
    launch()
    return out


def _prepare_launch(label: str, a: Any, b: Any, out: Any, scale_a: Any, scale_b: Any,
                    m: int, n: int, k: int, strides: Tuple[int, int, int, int], stream: Any,
                    sm_count: int) -> Any:
    """The prepared launch of variant `label` on checked torch tensors (`b`
    the K x N column-major operand, `strides` plan_scales's) on `stream`
    (a torch stream): its TMA descriptors, grid and cluster, then the split
    count (split-K, with C zeroed in the stream's order before each launch)
    or the stream-K workspace and flags (pm.gemm's, one pair per stream).
    Calling it launches."""
    import torch
    kernel, _ = _kernel(label)
    config = CONFIGS[label]
    grid, block, smem = launch_shape(label, m, n, k, sm_count)
    bm, bn = _rows(label), config["bn"]
    b_rows = bn // config.get("cluster", 1)   # a cluster's CTAs load half of B each
    maps = (_tensor_map("u8", a.view(torch.uint8), (bm, BK), stream),
            _tensor_map("u8", b.t().view(torch.uint8), (b_rows, BK), stream),
            _tensor_map("bf16", out, (64, 64), stream))
    extra: Tuple[Any, ...] = ()
    if config.get("split_k"):
        extra = (splits_for(label, m, n, k, sm_count),)
    if config.get("stream_k"):
        ws, flags = matmul._stream_k_buffers_for(a.device, stream, sm_count)
        extra = (ws.data_ptr(), flags.data_ptr())
    launch = kernel.prepare(*maps, scale_a.data_ptr(), scale_b.data_ptr(), m, n, k, GROUP_M,
                            *strides, *extra, grid=grid, block=block, smem=smem,
                            cluster=cluster_dims(label), stream=stream)
    if config.get("split_k"):
        launch = matmul._zero_first(launch, out, stream)
    return launch
