"""`pipeline_mlir.gemm` (this module: matmul): C = A B^T in bf16 with the dialect's sm_90a GEMM
(examples/gemm_sm90.mlir and its tile-width variants), the variant chosen
by the shape, launched on the caller's stream. See docs/python.md.
"""

from __future__ import annotations

import ctypes
import functools
import math

from typing import Any, Dict, Optional, Tuple

from .compiler import compile as _compile
from .driver import TensorMapCache, driver
from .errors import LaunchError
from .ir import Module
from . import torch_args

#: The variants (generator options): consumer warpgroups (64 tile rows
#: each), tile N width, stages, epilogue sub-tiles.
CONFIGS = {
    "bn256": dict(bn=256, stages=3, epi_subtiles=4),   # the shipped kernel
    "bn192": dict(bn=192, stages=4, epi_subtiles=3),
    "bn128": dict(bn=128, stages=5, epi_subtiles=2),
    "bn64": dict(bn=64, stages=8, epi_subtiles=1),
    # One consumer warpgroup: 64-row tiles, for small M.
    "m64n256": dict(consumers=1, bn=256, stages=4, epi_subtiles=4),
    "m64n128": dict(consumers=1, bn=128, stages=8, epi_subtiles=2),
    "m64n64": dict(consumers=1, bn=64, stages=12, epi_subtiles=1),
    # Split-K: the K range of a tile is cut into slices that run on
    # separate SMs and reduce-add bf16 partial tiles into a zeroed C; for
    # shapes with fewer tiles than SMs and a long K.
    "m64n64k": dict(consumers=1, bn=64, stages=12, epi_subtiles=1, split_k=True),
    "m64n128k": dict(consumers=1, bn=128, stages=8, epi_subtiles=2, split_k=True),
    # Without the release lag (consumer_depth 1: each k-block's wgmma
    # group is waited for before its stage is freed): measured 3-4 % faster
    # than the lagged twins at large sizes on an H200 (docs/gemm.md).
    "bn256n": dict(bn=256, stages=3, epi_subtiles=4, lag=False),
    "bn128n": dict(bn=128, stages=5, epi_subtiles=2, lag=False),
    "m64n256n": dict(consumers=1, bn=256, stages=4, epi_subtiles=4, lag=False),
    "m64n128n": dict(consumers=1, bn=128, stages=8, epi_subtiles=2, lag=False),
    # Stream-K: one CTA per M-tile in each group of CTAs, the (N-tile,
    # k-block) iterations cut evenly among the groups; the unit that starts
    # a tile's K adds the other units' f32 partials (from a workspace) and
    # stores C. For shapes whose tiles leave SMs idle and whose M-tiles fit
    # the SMs (else the tile without stream-K).
    "bn256s": dict(bn=256, stages=3, epi_subtiles=4, stream_k=True),
    "bn128s": dict(bn=128, stages=5, epi_subtiles=2, stream_k=True),
    "m64n256s": dict(consumers=1, bn=256, stages=4, epi_subtiles=4, stream_k=True),
    # Ping-pong: each of the two consumer warpgroups computes whole 128 x
    # 128 tiles (every other tile of the CTA, from one 6-stage ring; the
    # mainloops take turns), so that one's epilogue overlaps the other's
    # mainloop.
    "bn128pp": dict(bn=128, stages=6, epi_subtiles=2, pingpong=True),
}

#: A split-K slice has at least this many k-blocks of 64.
MIN_SLICE_BLOCKS = 8

#: The fastest variant per shape of the grid of docs/gemm.md on an H200:
#: every variant on every grid shape, interleaved with torch, 5
#: repetitions (run M: `bench/gemm/bench_pm_gemm.py --tune --reps 5`,
#: which prints this table; bench/gemm/results/run-m-tune.log), except
#: 256 x 14336 x 4096, where the tile variants lie within 0.04 of each
#: other: the best of 15 repetitions (`--tune --variants ... --min-m 256
#: --max-m 256 --reps 15`, run-m-tune-m256.log). A shape off the grid
#: takes its nearest grid point (in log2 of M, N and K).
TUNED = {
    (16, 4096, 4096): "m64n128k",
    (64, 4096, 4096): "m64n64",
    (128, 4096, 4096): "m64n64",
    (256, 4096, 4096): "m64n128",
    (1024, 4096, 4096): "bn256n",
    (4096, 4096, 4096): "bn256n",
    (16384, 4096, 4096): "bn256n",
    (16, 14336, 4096): "m64n128",
    (64, 14336, 4096): "m64n128",
    (128, 14336, 4096): "bn128n",
    (256, 14336, 4096): "bn128n",
    (1024, 14336, 4096): "bn128n",
    (4096, 14336, 4096): "bn256n",
    (16384, 14336, 4096): "bn128n",
    (16, 4096, 14336): "m64n128k",
    (64, 4096, 14336): "m64n128k",
    (128, 4096, 14336): "m64n128k",
    (256, 4096, 14336): "m64n128",
    (1024, 4096, 14336): "bn256n",
    (4096, 4096, 14336): "bn256n",
    (16384, 4096, 14336): "bn128n",
    (16, 1024, 8192): "m64n128k",
    (64, 1024, 8192): "m64n64k",
    (128, 1024, 8192): "m64n128k",
    (256, 1024, 8192): "m64n128k",
    (1024, 1024, 8192): "m64n128",
    (4096, 1024, 8192): "bn256n",
    (16384, 1024, 8192): "bn256n",
    (16, 8192, 8192): "m64n128k",
    (64, 8192, 8192): "m64n128",
    (128, 8192, 8192): "m64n128",
    (256, 8192, 8192): "bn128n",
    (1024, 8192, 8192): "bn256n",
    (4096, 8192, 8192): "bn256n",
    (16384, 8192, 8192): "bn128n",
}

#: The same for an H100 (80GB HBM3): every variant on every grid shape,
#: 5 repetitions, on an H100 (run M: `bench/gemm/tune_and_bench.py`, which
#: runs `bench_pm_gemm.py --tune --reps 5` and then the benchmark with the
#: table it printed; bench/gemm/results/run-m-tune-h100.log).
TUNED_H100 = {
    (16, 4096, 4096): "m64n128k",
    (64, 4096, 4096): "m64n64",
    (128, 4096, 4096): "m64n64",
    (256, 4096, 4096): "m64n128",
    (1024, 4096, 4096): "bn256n",
    (4096, 4096, 4096): "bn256n",
    (16384, 4096, 4096): "bn128n",
    (16, 14336, 4096): "m64n128",
    (64, 14336, 4096): "m64n128",
    (128, 14336, 4096): "bn128n",
    (256, 14336, 4096): "bn256n",
    (1024, 14336, 4096): "bn128n",
    (4096, 14336, 4096): "bn256n",
    (16384, 14336, 4096): "bn256n",
    (16, 4096, 14336): "m64n128k",
    (64, 4096, 14336): "m64n64",
    (128, 4096, 14336): "m64n64",
    (256, 4096, 14336): "m64n128",
    (1024, 4096, 14336): "bn128n",
    (4096, 4096, 14336): "bn256n",
    (16384, 4096, 14336): "bn256n",
    (16, 1024, 8192): "m64n128k",
    (64, 1024, 8192): "m64n128k",
    (128, 1024, 8192): "m64n64k",
    (256, 1024, 8192): "m64n64k",
    (1024, 1024, 8192): "m64n128",
    (4096, 1024, 8192): "bn128n",
    (16384, 1024, 8192): "bn256n",
    (16, 8192, 8192): "m64n128",
    (64, 8192, 8192): "m64n128",
    (128, 8192, 8192): "m64n128",
    (256, 8192, 8192): "bn128n",
    (1024, 8192, 8192): "bn128n",
    (4096, 8192, 8192): "bn256n",
    (16384, 8192, 8192): "m64n256",
}

#: The k-block of every variant (the program's gemm_sm90.BK) and M-tiles per group.
BK, GROUP_M = 64, 8


def tile_rows(config):
    """Tile rows of a variant's options (bf16 or FP8): 64 per consumer
    warpgroup, or 128 with ping-pong (each warpgroup a whole tile)."""
    return 128 if config.get("pingpong") else 64 * config.get("consumers", 2)


def block_threads(config):
    """Threads of a variant's block: the producer warpgroup and the consumers."""
    return 128 * (1 + config.get("consumers", 2))


def _rows(label):
    """Tile rows of a variant."""
    return tile_rows(CONFIGS[label])


def table(device_name: Optional[str] = None) -> Dict[Tuple[int, int, int], str]:
    """The tuned table for a device: TUNED_H100 on an H100, TUNED (tuned on
    an H200) elsewhere. By default the device `gemm` launches on."""
    if device_name is None:
        device_name = driver().name
    return TUNED_H100 if "H100" in device_name else TUNED


@functools.lru_cache(maxsize=4096)
def choose(m: int, n: int, k: int, device_name: Optional[str] = None) -> str:
    """The variant `gemm` runs for an M x N x K product on a device (by
    default the one `gemm` launches on)."""
    tuned = table(device_name)

    def distance(shape):
        return sum((math.log2(a) - math.log2(b)) ** 2 for a, b in zip(shape, (m, n, k)))
    return tuned[min(tuned, key=distance)]


_kernels = {}
_maps = TensorMapCache("bf16", "swizzle_128b", "l2_256b")
_launches = {}


def split_count(tiles, k, sm_count, bk=BK):
    """The split count of a split-K launch of `tiles` output tiles: as many
    K slices as fill the SMs with one work unit each, none shorter than
    MIN_SLICE_BLOCKS k-blocks of `bk` elements (64 bf16; pm.scaled_mm's
    kernels take 128 e4m3, the same bytes and wgmma time per k-block)."""
    return max(1, min(sm_count // tiles, -(-k // bk) // MIN_SLICE_BLOCKS))


def splits_for(label, m, n, k, sm_count):
    """The split count of a split-K variant (split_count); 1 for others."""
    if not CONFIGS[label].get("split_k"):
        return 1
    tiles = -(-m // _rows(label)) * -(-n // CONFIGS[label]["bn"])
    return split_count(tiles, k, sm_count)


def persistent_grid(m, n, k, bm, bn, sm_count, bk=BK, splits=1, stream_k=False, cluster=1):
    """The grid of a launch of the sm_90a GEMM's program (kernels/gemm_sm90.py,
    also pm.scaled_mm's): one CTA per work unit up to the SM count; with
    split-K the units are the tiles' non-empty K slices; with stream-K
    whole groups of one CTA per M-tile, each group with at least one
    (N-tile, k-block) iteration; with clusters of 2, pairs of CTAs per
    pair of M-tiles."""
    m_tiles, n_tiles, k_blocks = -(-m // bm), -(-n // bn), -(-k // bk)
    if stream_k:
        return m_tiles * min(sm_count // m_tiles, n_tiles * k_blocks)
    if cluster == 2:
        return 2 * min(sm_count // 2, -(-m_tiles // 2) * n_tiles)
    slice_blocks = -(-k_blocks // splits)
    return min(sm_count, m_tiles * n_tiles * -(-k_blocks // slice_blocks))


#: The split-K variants' tiles without split-K, for shapes that do not split.
UNSPLIT = {"m64n64k": "m64n64", "m64n128k": "m64n128"}
#: The stream-K variants' tiles without stream-K, for shapes with more
#: M-tiles than SMs.
UNSTREAMED = {"bn256s": "bn256", "bn128s": "bn128", "m64n256s": "m64n256"}


def _kernel(label):
    if label not in _kernels:
        # Imported here: `python3 -m pipeline_mlir.kernels.gemm_sm90` runs
        # the program as a command after importing this package.
        from .kernels import gemm_sm90
        kernel, smem = gemm_sm90.build(**CONFIGS[label])
        module = Module([kernel], name=gemm_sm90.MODULE)
        _kernels[label] = (_compile(module, chip="sm_90a").kernel(kernel.name), smem)
    return _kernels[label]


def _tensor_map(array, box, stream):
    """One TMA descriptor per (address, shape, box, stream), uploaded in the
    stream's order: no wait, and the kernel on that stream reads it after
    it landed. The cache does not keep the tensor alive (a descriptor only
    names an address and a shape, right for any tensor that lives there):
    a fresh output or activation per call is freed as usual, and the next
    one at the same address reuses the descriptor. Under CUDA-graph capture
    the descriptor of an earlier call is reused (TensorMapCache)."""
    return _maps.get(array, box, stream, "gemm")


def _zero_first(launch, out, stream):
    """`launch` after zeroing `out` in the stream's order (the split-K
    slices add into C): one driver memset, no Python stream switch."""
    d = driver()
    memset = d.lib.cuMemsetD32Async
    args = (ctypes.c_uint64(out.data_ptr()), ctypes.c_uint(0),
            ctypes.c_size_t(out.numel() * out.element_size() // 4),
            ctypes.c_void_p(stream.cuda_stream))

    def run():
        d.check(memset(*args), "zeroing C for split-K (cuMemsetD32Async)")
        launch()
    return run


_stream_k_buffers = {}


def _stream_k_buffers_for(device, stream, sm_count):
    """The stream-K workspace (f32, one 64 x 256 slot per consumer
    warpgroup of every CTA) and flags (i32, zero; the kernel leaves them
    zero), one pair per stream: launches on one stream run in order, and
    launches on two streams do not share slots. The kernel needs all its
    CTAs resident at once (an owner spins on later CTAs): the grid is at
    most the SM count, one CTA per SM."""
    key = (device.index, stream.cuda_stream)
    if key not in _stream_k_buffers:
        import torch
        slots = sm_count * 2
        ws = torch.empty(slots * 64 * 256, dtype=torch.float32, device=device)
        flags = torch.empty(slots, dtype=torch.int32, device=device)
        # Zeroed in `stream`'s order, before the kernel that reads them
        # (a torch.zeros would run on torch's current stream).
        d = driver()
        d.check(d.lib.cuMemsetD32Async(ctypes.c_uint64(flags.data_ptr()), ctypes.c_uint(0),
                                       ctypes.c_size_t(slots),
                                       ctypes.c_void_p(stream.cuda_stream)),
                "zeroing the stream-K flags (cuMemsetD32Async)")
        _stream_k_buffers[key] = (ws, flags)
    return _stream_k_buffers[key]


def gemm(a: Any, b: Any, out: Any = None, *, variant: Optional[str] = None,
         stream: Any = None, emulate: bool = False) -> Any:
    """C = A @ B.T (torch.nn.functional.linear without bias): `a` M x K and
    `b` N x K bf16 CUDA tensors (torch, row-major, contiguous), K and N
    multiples of 8; returns `out` (or a new M x N bf16 tensor). Runs on
    `stream`, by default torch's current stream, without waiting for it.
    `variant` forces one of CONFIGS; by default `choose(M, N, K)`.

    `emulate=True`: the same kernel on the CPU, in the emulator, without a
    GPU: `a`, `b` (and `out`) are numpy uint16 arrays of bf16 bits
    (pm.to_bf16), the result one too (pipeline_mlir.emulator.gemm, which
    also takes the sm_100a GEMM)."""
    if emulate:
        if stream is not None:
            raise LaunchError("gemm: an emulated gemm runs on the CPU: it takes no stream")
        from .emulator import gemm as _emulated
        return _emulated(a, b, out, variant=variant)
    torch = torch_args.import_torch("gemm")
    if out is None and isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor) \
            and a.dim() == 2 and b.dim() == 2:
        # C first: its address is part of the launch's key (checked below).
        out = torch.empty((a.shape[0], b.shape[0]), dtype=torch.bfloat16, device=a.device)
    # A call like an earlier one (the same tensors, stream and variant)
    # launches what that one prepared, after the same checks passed.
    key = torch_args.launch_key((a, b, out), stream, variant)
    launch = _launches.get(key) if key is not None else None
    if launch is not None:
        launch()
        return out
    torch_args.inputs("gemm", (("a", a), ("b", b)), rank=2)
    m, k = a.shape
    n, kb = b.shape
    if kb != k:
        raise LaunchError(f"gemm: a is {m} x {k} and b is {n} x {kb}: both need K columns "
                          "(C = A B^T)")
    if m == 0 or n == 0 or k == 0:
        raise LaunchError(f"gemm: M, N, K must be at least 1, got {m}, {n}, {k}")
    if k % 8 or n % 8:
        raise LaunchError(f"gemm: K ({k}) and N ({n}) must be multiples of 8 (TMA needs "
                          "16-byte rows)")
    out = torch_args.output("gemm", "out", out, (m, n), torch.bfloat16, like=("a", a))
    torch_args.disjoint("gemm", (("out", out),), (("a", a), ("b", b)),
                        why="C is written while A and B are read")
    label = variant or choose(m, n, k)
    if label not in CONFIGS:
        raise LaunchError(f"gemm: variant is one of {sorted(CONFIGS)}, got {label!r}")
    if variant is None and splits_for(label, m, n, k, driver().sm_count) == 1:
        # A shape near a split-K grid point that has tiles enough (or K too
        # short) to split: the same tile without the zeroing and reduce.
        label = UNSPLIT.get(label, label)
    if CONFIGS[label].get("stream_k") and -(-m // _rows(label)) > driver().sm_count:
        # A group holds one CTA per M-tile: more M-tiles than SMs run the
        # same tile without stream-K (forced or chosen).
        label = UNSTREAMED[label]
    kernel, smem = _kernel(label)
    bn, bm = CONFIGS[label]["bn"], _rows(label)
    if stream is None:
        stream = torch.cuda.current_stream(a.device)
    elif isinstance(stream, int):
        stream = torch.cuda.ExternalStream(stream)
    # One prepared launch per (operands, stream, variant): the next call
    # on the same tensors only launches (the key above).
    maps = (_tensor_map(a, (bm, BK), stream), _tensor_map(b, (bn, BK), stream),
            _tensor_map(out, (64, 64), stream))
    sm_count = driver().sm_count
    splits = splits_for(label, m, n, k, sm_count)
    grid = persistent_grid(m, n, k, bm, bn, sm_count, splits=splits,
                           stream_k=bool(CONFIGS[label].get("stream_k")))
    threads = block_threads(CONFIGS[label])
    extra = (splits,) if CONFIGS[label].get("split_k") else ()
    if CONFIGS[label].get("stream_k"):
        ws, flags = _stream_k_buffers_for(a.device, stream, sm_count)
        extra = (ws.data_ptr(), flags.data_ptr())
    launch = kernel.prepare(*maps, m, n, k, GROUP_M, *extra, grid=grid, block=threads,
                            smem=smem, stream=stream)
    if CONFIGS[label].get("split_k"):
        launch = _zero_first(launch, out, stream)
    if key is not None:
        if len(_launches) > 4096:
            _launches.clear()
        _launches[key] = launch
    launch()
    return out
