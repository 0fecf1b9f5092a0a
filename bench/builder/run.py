#!/usr/bin/env python3
"""The kernels written with the builder against the text-template kernels
they replaced, side by side in one process on one GPU: every pm.gemm and
pm.attention variant, the same random inputs, interleaved launches of the
two prepared launches (pm.testing.compare: batches of back-to-back calls,
the order alternating), median and min-max of the repetitions, and the
outputs of the two compared.

    /usr/bin/python3 bench/builder/baseline.py --rev REV --out DIR   # here
    (the files may be gzipped: FILE.mlir.gz is read as FILE.mlir)
    PIPELINE_MLIR_CACHE=KERNELS /usr/bin/python3 bench/builder/run.py --baseline DIR --compile-only
    # then, on a machine with an H100 (the same DIR and KERNELS):
    PIPELINE_MLIR_CACHE=KERNELS python3 bench/builder/run.py --baseline DIR --out results.jsonl

Prints one row per variant and shape: TFLOP/s of the template kernel and of
the builder kernel, their ratio (builder / template, > 1 is faster), and
whether the outputs are bitwise equal (split-K adds its slices with atomics
in any order: there the largest difference is given).
"""
import argparse
import gzip
import json
import math
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir import attention_fwd, matmul  # noqa: E402
from pipeline_mlir.ir import Module  # noqa: E402

#: Shapes per GEMM variant family (M, N, K), from Llama-3-8B/70B projections.
GEMM_SHAPES = {
    "tile": [(4096, 4096, 4096), (1024, 14336, 4096)],
    "m64": [(128, 8192, 8192), (64, 14336, 4096)],
    "split": [(16, 4096, 14336), (64, 1024, 8192)],
}
#: (batch, seqlen, heads) per head_dim: 16k tokens.
ATTENTION_SHAPES = {64: (4, 4096, 32), 128: (4, 4096, 16)}


def gemm_family(label):
    cfg = matmul.CONFIGS[label]
    if cfg.get("split_k"):
        return "split"
    return "m64" if cfg.get("consumers", 2) == 1 else "tile"


def _text(path):
    """A baseline kernel's text, from FILE.mlir or FILE.mlir.gz."""
    if path.exists():
        return path.read_text()
    return gzip.decompress(path.with_name(path.name + ".gz").read_bytes()).decode()


def baseline_gemm(directory, label):
    text = _text(pathlib.Path(directory) / "gemm" / f"{label}.mlir")
    smem = matmul._kernel(label)[1]
    module = Module.from_mlir(text, name=f"template_gemm_{label}")
    return pm.compile(module, chip="sm_90a").kernel("gemm_bf16_sm90"), smem


def baseline_attention(directory, key):
    d, causal, variant = key
    name = f"d{d}{'_causal' if causal else ''}_{variant}"
    text = _text(pathlib.Path(directory) / "attention" / f"{name}.mlir")
    smem = attention_fwd._kernel(key)[1]
    module = Module.from_mlir(text, name=f"template_attention_{name}")
    return pm.compile(module, chip="sm_90a").kernel("attention_fwd_sm90"), smem


def prepared(module, kernel, call):
    """The prepared launch `call` makes with `kernel` in place of the
    package's kernel (module._kernel patched for the call)."""
    original = module._kernel
    module._kernel = lambda key: kernel
    try:
        before = set(module._launches)
        call()
        new = [k for k in module._launches if k not in before]
        return module._launches[new[0]]
    finally:
        module._kernel = original


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", required=True, help="the directory baseline.py wrote")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile both kernels of every variant (fills the cache) and stop")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--only", choices=("gemm", "attention"))
    ap.add_argument("--out", help="append one JSON line per row")
    args = ap.parse_args()

    # The variants the baseline has (baseline.py skips those with options
    # its revision's generator lacks).
    gemm_cases = [] if args.only == "attention" else [
        label for label in matmul.CONFIGS
        if any((pathlib.Path(args.baseline) / "gemm" / f"{label}.mlir{ext}").exists()
               for ext in ("", ".gz"))]
    att_cases = [] if args.only == "gemm" else attention_fwd.configs()
    if args.compile_only:
        for label in gemm_cases:
            baseline_gemm(args.baseline, label)
            matmul._kernel(label)
        for key in att_cases:
            baseline_attention(args.baseline, key)
            attention_fwd._kernel(key)
        print(f"compiled {len(gemm_cases)} gemm and {len(att_cases)} attention variants, "
              "template and builder")
        return

    import torch
    device = torch.cuda.get_device_name()
    out = open(args.out, "a") if args.out else None
    print(f"# {device}; builder / template, median of {args.reps} reps x {args.batch} calls")
    print(f"{'kernel':44s} {'template TF/s':>16s} {'builder TF/s':>16s} {'ratio':>6s}  outputs")
    ratios = []

    def report(row):
        ratios.append(row["ratio"])
        t, b = row["template"], row["builder"]
        print(f"{row['kernel']:44s} {t['tflops']:7.1f} ({t['spread']:5.1%}) "
              f"{b['tflops']:7.1f} ({b['spread']:5.1%}) {row['ratio']:6.3f}  {row['outputs']}")
        if out:
            out.write(json.dumps(dict(row, device=device)) + "\n")
            out.flush()

    def timed(flop, fns):
        res = pm.testing.compare(fns, reps=args.reps, batch=args.batch)
        stats = {}
        for label, r in res.items():
            stats[label] = dict(tflops=flop / r["median"] / 1e9, ms=r["median"],
                                spread=(r["max"] - r["min"]) / r["median"])
        return stats

    for label in gemm_cases:
        template = baseline_gemm(args.baseline, label)
        for m, n, k in GEMM_SHAPES[gemm_family(label)]:
            g = torch.Generator(device="cuda").manual_seed(m + n + k)
            a = torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16)
            b = torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16)
            c_t, c_b = (torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
                        for _ in range(2))
            run_t = prepared(matmul, template,
                             lambda: pm.gemm(a, b, out=c_t, variant=label))
            pm.gemm(a, b, out=c_b, variant=label)
            run_b = matmul._launches[[k_ for k_ in matmul._launches
                                      if k_[3] == c_b.data_ptr() and k_[0] == label][0]]
            stats = timed(2.0 * m * n * k, {"template": run_t, "builder": run_b})
            run_t()
            run_b()
            torch.cuda.synchronize()
            diff = (c_t.float() - c_b.float()).abs().max().item()
            equal = torch.equal(c_t, c_b)
            report(dict(kernel=f"gemm {label} {m}x{n}x{k}", template=stats["template"],
                        builder=stats["builder"],
                        ratio=stats["builder"]["tflops"] / stats["template"]["tflops"],
                        outputs="bitwise equal" if equal else f"max diff {diff:.3g}",
                        equal=equal))
    for key in att_cases:
        d, causal, variant = key
        template = baseline_attention(args.baseline, key)
        batch, seqlen, heads = ATTENTION_SHAPES[d]
        g = torch.Generator(device="cuda").manual_seed(d + seqlen)
        q, k_, v = (torch.randn((batch, seqlen, heads, d), generator=g, device="cuda")
                    .to(torch.bfloat16) for _ in range(3))
        o_t, o_b = torch.empty_like(q), torch.empty_like(q)
        run_t = prepared(attention_fwd, template,
                         lambda: pm.attention(q, k_, v, causal=causal, out=o_t, variant=variant))
        pm.attention(q, k_, v, causal=causal, out=o_b, variant=variant)
        run_b = [la for kk, la in attention_fwd._launches.items()
                 if kk[0] == key and kk[4] == o_b.data_ptr()][0]
        flop = 4.0 * batch * heads * seqlen * seqlen * d / (2 if causal else 1)
        stats = timed(flop, {"template": run_t, "builder": run_b})
        run_t()
        run_b()
        torch.cuda.synchronize()
        equal = torch.equal(o_t, o_b)
        diff = (o_t.float() - o_b.float()).abs().max().item()
        report(dict(kernel=f"attention d{d} {'causal' if causal else 'full'} {variant} "
                           f"{batch}x{seqlen}x{heads}",
                    template=stats["template"], builder=stats["builder"],
                    ratio=stats["builder"]["tflops"] / stats["template"]["tflops"],
                    outputs="bitwise equal" if equal else f"max diff {diff:.3g}", equal=equal))
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"# {len(ratios)} rows: geometric mean ratio {geo:.3f}, lowest {min(ratios):.3f}")


if __name__ == "__main__":
    main()
