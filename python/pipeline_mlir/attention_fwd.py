"""`pipeline_mlir.attention` (this module: attention_fwd): bf16 forward
attention with the dialect's sm_90a kernel (examples/attention_sm90.mlir and
its variants, the builder program kernels/attention_sm90.py), launched on
the caller's stream. See docs/attention.md.
"""

from __future__ import annotations

import math

from typing import Any, List, Optional, Tuple

from .compiler import compile as _compile
from .driver import TensorMapCache
from .errors import LaunchError
from .ir import Module
from . import torch_args

#: The variants: consumer warpgroups (64 query rows each) and schedule.
#: "overlap": the softmax of key block j runs while the tensor cores compute
#: P V of block j - 1 (P double-buffered); "serial": S, softmax and P V of a
#: block in turn (the two or three warpgroups still overlap each other).
#: Three consumer warpgroups only for head_dim 64 (head_dim 128 would
#: spill at 160 registers per thread). One consumer warpgroup: 64-row query
#: blocks, and two CTAs per SM where shared memory allows.
VARIANTS = {
    "2wg-pingpong": dict(consumers=2, overlap=True, pingpong=True),
    "2wg-overlap": dict(consumers=2, overlap=True),
    "2wg-serial": dict(consumers=2, overlap=False),
    "3wg-overlap": dict(consumers=3, overlap=True),
    "3wg-serial": dict(consumers=3, overlap=False),
    # One consumer warpgroup (64-row query blocks), two CTAs per SM.
    "1wg-overlap": dict(consumers=1, overlap=True),
    "1wg-serial": dict(consumers=1, overlap=False),
    # Persistent ("-p"): a grid of the CTAs the GPU holds at once (`grid`),
    # each looping over query blocks, the producer loading the next one's
    # Q, K and V while the consumers finish the current one (for short
    # sequences, where a CTA's start and end are much of its time).
    "2wg-pingpong-p": dict(consumers=2, overlap=True, pingpong=True, persistent=True),
    "2wg-overlap-p": dict(consumers=2, overlap=True, persistent=True),
    "2wg-serial-p": dict(consumers=2, overlap=False, persistent=True),
    "1wg-overlap-p": dict(consumers=1, overlap=True, persistent=True),
    "1wg-serial-p": dict(consumers=1, overlap=False, persistent=True),
}
# A variant may also set "stages" (K and V stages, 2 by default): at head_dim
# 64, 3 and 4 stages measured no faster on an H100 (docs/attention.md).

#: Sequences up to this long run a persistent variant (`-p`): there a
#: CTA per query block spends a large part of its time in its prologue
#: and its last store, which the persistent loop overlaps with the next
#: block's loads (docs/attention.md, "Short sequences").
PERSISTENT_MAX_SEQLEN = 1024


def choose(head_dim: int, causal: bool, seqlen: int) -> str:
    """The variant `attention` runs by default, from the measurements on
    an H100 in docs/attention.md. Short sequences (up to
    PERSISTENT_MAX_SEQLEN): the persistent twins, ping-pong at head_dim
    128 (overlap when causal: the paired causal tiles keep both
    warpgroups busy) and one warpgroup per 64-row block at 64. Longer,
    head_dim 128: the ping-pong of two warpgroups, best in every cell.
    head_dim 64, limited by the softmax: one warpgroup per 64-row query
    block and two CTAs per SM for sequences and causal ones up to 4k (the
    diagonal blocks waste least and the SMs stay busy as the causal CTAs
    finish unevenly); three warpgroups per 192-row block (K and V shared
    by more rows) for long ones."""
    if seqlen <= PERSISTENT_MAX_SEQLEN:
        if head_dim == 128:
            return "2wg-overlap-p" if causal else "2wg-pingpong-p"
        return "1wg-overlap-p"
    if head_dim == 128:
        return "2wg-pingpong"
    if seqlen < (8192 if causal else 2048):
        return "1wg-overlap"
    return "3wg-serial"


def fits(head_dim: int, variant: str) -> bool:
    """Whether a variant exists for head_dim: its registers and shared
    memory fit (three warpgroups and more than two stages only at 64)."""
    v = VARIANTS[variant]
    return head_dim == 64 or (v["consumers"] in (1, 2) and v.get("stages", 2) == 2)


def _plan(head_dim: int, variant: str) -> Any:
    """The variant's attention_sm90.Plan (its tile and shared memory)."""
    from .kernels import attention_sm90
    v = VARIANTS[variant]
    return attention_sm90.Plan(head_dim, v.get("stages", 2), overlap=v["overlap"],
                               consumers=v["consumers"], pingpong=v.get("pingpong", False))


def grid(head_dim: int, causal: bool, variant: str, batch: int, seqlen: int, heads: int,
         sm_count: int) -> Tuple[int, int, int]:
    """The launch grid of `variant`: one CTA per query block, (query blocks,
    heads, batch); persistent, the CTAs resident at once on `sm_count` SMs
    (two per SM for one consumer warpgroup where shared memory allows) or
    fewer, one per unit of work (kernels/attention_sm90.py, _Schedule: a
    query block, or causal a pair of them)."""
    bm = 64 * VARIANTS[variant]["consumers"]
    m_blocks = -(-seqlen // bm)
    if not VARIANTS[variant].get("persistent"):
        return (m_blocks, heads, batch)
    units = (-(-m_blocks // 2) if causal else m_blocks) * heads * batch
    return (min(units, sm_count * _plan(head_dim, variant).resident_ctas), 1, 1)


def extra_args(variant: str, batch: int) -> Tuple[int, ...]:
    """The kernel's arguments after the scale: a persistent one takes the
    batch count."""
    return (batch,) if VARIANTS[variant].get("persistent") else ()


def configs() -> List[Tuple[int, bool, str]]:
    """Every (head_dim, causal, variant) the package compiles."""
    return [(d, causal, v) for d in (64, 128) for causal in (False, True) for v in VARIANTS
            if fits(d, v)]


_kernels = {}
_maps = TensorMapCache("bf16", "swizzle_128b", "l2_128b")
_launches = {}
_sm_counts = {}


def _sm_count(torch, device):
    if device.index not in _sm_counts:
        _sm_counts[device.index] = torch.cuda.get_device_properties(
            device).multi_processor_count
    return _sm_counts[device.index]


def _kernel(key):
    if key not in _kernels:
        d, causal, variant = key
        options = dict(VARIANTS[variant])
        options.setdefault("stages", 2)
        # Imported here, not with the package: `python3 -m
        # pipeline_mlir.kernels.attention_sm90` runs that module as a script.
        from .kernels import attention_sm90
        kernel, smem = attention_sm90.build(head_dim=d, causal=causal, **options)
        module = Module([kernel], name=attention_sm90.MODULE)
        _kernels[key] = (_compile(module, chip="sm_90a").kernel(kernel.name), smem)
    return _kernels[key]


def _tensor_map(view, box, stream):
    return _maps.get(view, box, stream, "attention")


def attention(q: Any, k: Any, v: Any, *, causal: bool = False, scale: Optional[float] = None,
              out: Any = None, lse: Any = None, stream: Any = None, return_lse: bool = False,
              variant: Optional[str] = None, emulate: bool = False) -> Any:
    """softmax(scale Q K^T) V for CUDA bf16 torch tensors q, k, v of shape
    (batch, seqlen, heads, head_dim), contiguous, head_dim 64 or 128 (the
    layout of flash attention; torch's SDPA takes (batch, heads, seqlen,
    head_dim): pass q.transpose(1, 2) of a contiguous one). `causal`: key j
    is seen by query i iff j <= i (top-left, as SDPA's is_causal). `scale`:
    by default 1 / sqrt(head_dim). Returns the output (batch, seqlen, heads,
    head_dim) bf16, and with `return_lse` also the log-sum-exp of the scaled
    scores, f32 (batch, heads, seqlen). Runs on `stream`, by default torch's
    current stream, without waiting for it. `variant`: one of VARIANTS (by
    default `choose(head_dim, causal, seqlen)`).

    `emulate=True`: the same kernel on the CPU, in the emulator, without a
    GPU: q, k, v (and out) are numpy uint16 arrays of bf16 bits
    (pm.to_bf16), lse a float32 array (pipeline_mlir.emulator.attention,
    which also takes the sm_100a kernel)."""
    if emulate:
        if stream is not None:
            raise LaunchError("attention: an emulated attention runs on the CPU: it takes "
                              "no stream")
        from .emulator import attention as _emulated
        return _emulated(q, k, v, causal=causal, scale=scale, out=out, lse=lse,
                         return_lse=return_lse, variant=variant)
    torch = torch_args.import_torch("attention")
    if isinstance(q, torch.Tensor) and q.dim() == 4:
        # The outputs first: their addresses are part of the launch's key
        # (checked below).
        if out is None:
            out = torch.empty(q.shape, dtype=torch.bfloat16, device=q.device)
        if lse is None:
            lse = torch.empty((q.shape[0], q.shape[2], q.shape[1]), dtype=torch.float32,
                              device=q.device)
    # A call like an earlier one (the same tensors, stream and options)
    # launches what that one prepared, after the same checks passed.
    lkey = torch_args.launch_key((q, k, v, out, lse), stream, causal, scale, variant)
    launch = _launches.get(lkey) if lkey is not None else None
    if launch is not None:
        launch()
        return (out, lse) if return_lse else out
    qkv = (("q", q), ("k", k), ("v", v))
    torch_args.inputs("attention", qkv, rank=4, layout="(batch, seqlen, heads, head_dim)")
    if not (q.shape == k.shape == v.shape):
        raise LaunchError(f"attention: q, k and v must have one shape, got {tuple(q.shape)}, "
                          f"{tuple(k.shape)}, {tuple(v.shape)}")
    batch, seqlen, heads, d = q.shape
    if d not in (64, 128):
        raise LaunchError(f"attention: head_dim must be 64 or 128, got {d}")
    if batch < 1 or seqlen < 1 or heads < 1:
        raise LaunchError(f"attention: batch, seqlen and heads must be at least 1, got "
                          f"{batch}, {seqlen}, {heads}")
    if batch > 65535 or heads > 65535:
        raise LaunchError("attention: batch and heads are at most 65535 (the grid's y and z)")
    if seqlen >= 2 ** 31 // 2:
        raise LaunchError(f"attention: seqlen {seqlen} is too long")
    if scale is None:
        scale = 1.0 / math.sqrt(d)
    scale = float(scale)
    if not math.isfinite(scale) or scale <= 0:
        raise LaunchError(f"attention: scale must be a positive finite number, got {scale}")
    out = torch_args.output("attention", "out", out, tuple(q.shape), torch.bfloat16,
                            like=("q", q))
    lse = torch_args.output("attention", "lse", lse, (batch, heads, seqlen), torch.float32,
                            like=("q", q))
    torch_args.disjoint("attention", (("out", out), ("lse", lse)), qkv)
    causal = bool(causal)
    if variant is None:
        variant = choose(d, causal, seqlen)
    if variant not in VARIANTS:
        raise LaunchError(f"attention: variant is one of {sorted(VARIANTS)}, got {variant!r}")
    if not fits(d, variant):
        raise LaunchError(f"attention: variant {variant} is for head_dim 64 only")
    key = (d, causal, variant)
    bm = 64 * VARIANTS[variant]["consumers"]
    kernel, smem = _kernel(key)
    if stream is None:
        stream = torch.cuda.current_stream(q.device)
    elif isinstance(stream, int):
        stream = torch.cuda.ExternalStream(stream)
    rows = (batch, seqlen, heads * d)
    maps = [_tensor_map(q.view(rows), (1, bm, 64), stream)]
    maps += [_tensor_map(t.view(rows), (1, 128, 64), stream) for t in (k, v)]
    maps.append(_tensor_map(out.view(rows), (1, 64, 64), stream))
    sm_count = _sm_count(torch, q.device) if VARIANTS[variant].get("persistent") else 0
    launch = kernel.prepare(*maps, lse.data_ptr(), seqlen, heads,
                            scale * 1.4426950408889634, *extra_args(variant, batch),
                            grid=grid(d, causal, variant, batch, seqlen, heads, sm_count),
                            block=128 + 2 * bm, smem=smem, stream=stream)
    if lkey is not None:
        if len(_launches) > 4096:
            _launches.clear()
        _launches[lkey] = launch
    launch()
    return (out, lse) if return_lse else out
