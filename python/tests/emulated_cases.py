"""The kernels run both on the GPU and in the emulator from the same random
inputs (test_gpu.py::test_gpu_matches_emulator): every pm.gemm variant and
every pm.attention variant at small shapes, and the example kernels.

    # here (no GPU): compile, emulate, store inputs and emulated outputs
    PIPELINE_MLIR_TEST_CACHE=/tmp/kernels /usr/bin/python3 python/tests/emulated_cases.py
    # on a machine with an H100, with the same cache:
    PIPELINE_MLIR_TEST_CACHE=/tmp/kernels python3 -m pytest python/tests/test_gpu.py -k emulator

Each case stores `<cache>/emulated/<name>.npz`: the inputs and the emulated
outputs. The comparison allows, element by element, what the MMA summation
order justifies (`tolerance`; docs/simulator.md, "The MMA tolerance"), and
reports the largest difference in units in the last place and the share of
elements that are bitwise equal.
"""

import math
import os
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]

# pm.gemm: every variant at a shape with partial tiles in M and N and
# several k-blocks, and one with one M row block.
GEMM_SHAPES = [(200, 136, 192), (64, 256, 512)]
# pm.attention: every variant, head_dim 64 and 128, causal or not, a
# partial last block.
ATTENTION_SHAPE = (1, 136, 2)


def _bf16(rng, shape):
    import pipeline_mlir as pm
    return pm.to_bf16(rng.standard_normal(shape).astype(np.float32))


def cases():
    """(name, kind, parameters) of every case."""
    from pipeline_mlir import attention_fwd, matmul
    out = []
    for variant in matmul.CONFIGS:
        for m, n, k in GEMM_SHAPES:
            out.append((f"gemm-{variant}-{m}x{n}x{k}", "gemm",
                        dict(variant=variant, m=m, n=n, k=k)))
    for d in (64, 128):
        for causal in (False, True):
            for variant in attention_fwd.VARIANTS:
                if not attention_fwd.fits(d, variant):
                    continue
                out.append((f"attention-{variant}-d{d}-{'causal' if causal else 'full'}",
                            "attention", dict(variant=variant, d=d, causal=causal)))
    return out


def inputs(name, kind, p):
    rng = np.random.default_rng(sum(map(ord, name)) * 7919)
    if kind == "gemm":
        return dict(a=_bf16(rng, (p["m"], p["k"])), b=_bf16(rng, (p["n"], p["k"])))
    batch, seqlen, heads = ATTENTION_SHAPE
    shape = (batch, seqlen, heads, p["d"])
    return dict(q=_bf16(rng, shape), k=_bf16(rng, shape), v=_bf16(rng, shape))


def scale_of(p):
    return 1.0 / math.sqrt(p["d"]) * (1.5 if p["causal"] else 1.0)


def emulate(kind, p, x):
    import pipeline_mlir as pm
    if kind == "gemm":
        c = np.zeros((p["m"], p["n"]), np.uint16)
        pm.emulator.gemm(x["a"], x["b"], c, variant=p["variant"])
        return dict(c=c)
    o, lse = pm.emulator.attention(x["q"], x["k"], x["v"], causal=p["causal"],
                                   scale=scale_of(p), return_lse=True, variant=p["variant"])
    return dict(o=o, lse=lse)


def _ulp_bf16(x):
    """One unit in the last place of bf16 at |x| (2^-133 below the normals)."""
    e = np.floor(np.log2(np.maximum(np.abs(x), 2.0 ** -126)))
    return 2.0 ** (e - 7)


def tolerance(kind, p, x, y):
    """The largest difference, element by element, that the hardware's MMA
    summation order allows between the GPU's output and the emulator's `y`.
    The ISA does not say in which order, or with how many guard bits, the
    tensor cores add the K products of one MMA into the f32 accumulator:
    each of a K-step's additions may be off by one f32 rounding of the
    running sum, at most 2^-23 of sum |a b| over the products added so far.
    The emulator adds them exactly and rounds once. GEMM: so the f32
    results differ by at most K 2^-23 sum_k |a_ik b_jk|, and the bf16
    outputs by that plus one bf16 ulp (a value near a rounding boundary;
    two for split-K, which adds bf16-rounded partial sums). Where the sum
    cancels, that absolute bound is many ulps of the small result.
    Attention: the scores differ as above; the hardware's ex2.approx is
    within 2 f32 ulps of the correctly rounded exponential; P is rounded to
    bf16 for P V, so each P element may differ by one bf16 ulp (2^-8 of
    itself), which moves an output element by at most 2^-8 of the largest
    |V| of its head (a convex combination), plus two bf16 ulps of the
    output's own roundings."""
    import pipeline_mlir as pm
    if kind == "gemm":
        a = np.abs(pm.from_bf16(x["a"]).astype(np.float64))
        b = np.abs(pm.from_bf16(x["b"]).astype(np.float64))
        c = pm.from_bf16(y["c"]).astype(np.float64)
        k = a.shape[1]
        ulps = 2 if p["variant"].endswith("k") else 1
        return {"c": k * 2.0 ** -23 * (a @ b.T) + ulps * _ulp_bf16(c)}
    v = np.abs(pm.from_bf16(x["v"]).astype(np.float64))
    o = pm.from_bf16(y["o"]).astype(np.float64)
    vmax = v.max(axis=1, keepdims=True)  # per batch, head and column
    return {"o": 2.0 ** -8 * vmax + 2 * _ulp_bf16(o),
            # the log-sum-exp: a score moved by 2^-8 of itself moves it by
            # at most that much (a log-sum-exp is 1-Lipschitz in the max norm)
            "lse": 2.0 ** -8 * np.abs(y["lse"].astype(np.float64)) + 1e-5}


def ulps(x, y, bits=16):
    """Distance in units in the last place between arrays of float bits
    (bf16 as uint16, f32 as uint32): the difference of their positions on
    the ordered line of floats."""
    dtype = np.int32 if bits == 16 else np.int64
    def ordered(u):
        u = u.astype(dtype)
        sign = 1 << (bits - 1)
        return np.where(u & sign, -(u & (sign - 1)), u)
    return np.abs(ordered(x) - ordered(y))


def store(directory):
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name, kind, p in cases():
        x = inputs(name, kind, p)
        y = emulate(kind, p, x)
        np.savez(directory / f"{name}.npz", **{f"in_{k}": v for k, v in x.items()},
                 **{f"out_{k}": v for k, v in y.items()})
        print(f"{name}: emulated", flush=True)


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "python")]
    os.environ["PIPELINE_MLIR_CACHE"] = os.environ["PIPELINE_MLIR_TEST_CACHE"]
    store(pathlib.Path(os.environ["PIPELINE_MLIR_TEST_CACHE"]) / "emulated")
