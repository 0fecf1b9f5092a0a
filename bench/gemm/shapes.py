"""The GEMM shapes the Python benchmarks time: projections of real models
(N x K from their configs) at token counts M, split into the set the
variant choices were tuned on and a set they never saw.

Tuning: Llama-3-8B (hidden 4096, 32 heads / 8 KV heads of 128, MLP 14336;
Mistral-7B and Mixtral-8x7B's experts have the same projections) and
Llama-3-70B (hidden 8192, 64 / 8 heads, MLP 28672); gate and up fused.
Held out: Qwen2.5-7B (hidden 3584, 28 / 4 heads of 128, MLP 18944) and
DeepSeek-V3 (hidden 7168: the MLA query down-projection, the attention
output from 128 heads of 128, one routed expert of 2048) at token counts
that are not multiples of 64 (but 1)."""

import math

#: (model, projection, N, K) of the tuning set.
SHAPES = (
    ("8B", "qkv", 6144, 4096), ("8B", "o", 4096, 4096),
    ("8B", "gate_up", 28672, 4096), ("8B", "down", 4096, 14336),
    ("70B", "qkv", 10240, 8192), ("70B", "o", 8192, 8192),
    ("70B", "gate_up", 57344, 8192), ("70B", "down", 8192, 28672),
)
#: Token counts of the tuning set: decode batches to prefill.
MS = (16, 128, 1024, 4096, 8192)
#: (model, projection, N, K) held out of the tuning.
HELD_OUT = (
    ("Q7B", "qkv", 4608, 3584), ("Q7B", "o", 3584, 3584),
    ("Q7B", "gate_up", 37888, 3584), ("Q7B", "down", 3584, 18944),
    ("DS3", "q_a", 1536, 7168), ("DS3", "o", 7168, 16384),
    ("DS3", "exp_gu", 4096, 7168), ("DS3", "exp_dn", 7168, 2048),
)
HELD_OUT_MS = (1, 100, 777, 3000, 6000)


def select(which, ms=None, tune_ms=MS):
    """(model, projection, M, N, K) of a set: "tune", "held-out" or "all";
    `ms` (token counts) replaces each set's own."""
    sets = []
    if which in ("tune", "all"):
        sets.append((SHAPES, tune_ms))
    if which in ("held-out", "all"):
        sets.append((HELD_OUT, HELD_OUT_MS))
    return [(model, proj, m, n, k) for shapes, own in sets for m in (ms or own)
            for model, proj, n, k in shapes]


def tflops(flop, timing):
    """A cell's median TFLOP/s with its min-max over the repetitions, from
    a pm.testing.compare entry (ms per call)."""
    return (f"{flop / timing['median'] / 1e9:7.1f} ({flop / timing['max'] / 1e9:5.0f}-"
            f"{flop / timing['min'] / 1e9:4.0f})")


def summary(ratios):
    """The closing line of a run: the geometric mean of the ratios, the
    lowest and the cells at 0.90 or more."""
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    return (f"geometric mean of torch time / ours over {len(ratios)} shapes: {geo:.3f}; "
            f"lowest {min(ratios):.3f}; cells >= 0.90: "
            f"{sum(r >= 0.90 for r in ratios)} of {len(ratios)}")
