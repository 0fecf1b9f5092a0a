#!/usr/bin/env python3
"""pipeline_mlir.gemm against torch (cuBLAS) in one process: random bf16
data, C = A B^T both ways (torch.nn.functional.linear), interleaved by
pm.testing.compare (each repetition times a batch of back-to-back calls
of each, the order alternating, CUDA events on torch's current stream).
Prints per shape both kernels' median TFLOP/s with their min-max spread
over the repetitions, the ratio of the medians (torch time / ours: above
1 is faster than torch) and the variant run; then the geometric mean, the
lowest ratio and the cells >= 0.90. The Python call's own cost is in the
time (it is what a user pays); the outputs are compared first.

    PIPELINE_MLIR_CACHE=... python3 bench/gemm/bench_pm_gemm.py [--shapes all|tune|held-out|grid]
        [--reps 10] [--batch 20] [--m 16,128] [--variant LABEL]
        [--tune [--variants A,B]] [--compile-only]

Shapes (bench/gemm/shapes.py): projections of Llama-3-8B and -70B at M 16
.. 8192, the set the variant choice was tuned on (`--shapes tune`), and of
Qwen2.5-7B and DeepSeek-V3 at M 1 .. 6000, none a multiple of 64 but 1,
which it never saw (`--shapes held-out`); `--shapes grid` is the 35-cell
grid of docs/gemm.md's first tables. `--tune` times every variant (or
--variants) on each shape and prints each one's ratio on one line per
shape (`tune M N K | label ratio ...`, what the choice's rates were read
from). `--compile-only` (no GPU, no torch) fills the kernel cache.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))
try:
    import torch
except ImportError:  # --compile-only runs without torch
    torch = None
import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir import matmul  # noqa: E402

from shapes import select, summary, tflops as cell_tflops  # noqa: E402

#: The grid of docs/gemm.md's first tables.
GRID_MS = (16, 64, 128, 256, 1024, 4096, 16384)
GRID_NKS = ((4096, 4096), (14336, 4096), (4096, 14336), (1024, 8192), (8192, 8192))


def operands(m, n, k):
    """Random bf16 A (M x K) and B (N x K), seeded by the shape."""
    g = torch.Generator(device="cuda").manual_seed(m + n + k)
    a = torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16)
    b = torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16)
    return a, b


def sm_count(args):
    return 132 if args.compile_only else torch.cuda.get_device_properties(
        0).multi_processor_count


def variants_for(args, m, n, k):
    """The variants a shape runs: the chosen one, or with --tune every
    variant (or --variants) after it."""
    chosen = args.variant or matmul.choose(m, n, k, sm_count(args))
    if not args.tune:
        return [chosen]
    labels = args.variants.split(",") if args.variants else list(matmul.CONFIGS)
    return list(dict.fromkeys([chosen] + labels))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", default="all", choices=("all", "tune", "held-out", "grid"))
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--m", default=None, help="token counts (default: each set's own)")
    ap.add_argument("--variant", default=None, help="force one of matmul.CONFIGS")
    ap.add_argument("--tune", action="store_true",
                    help="time every variant (or --variants) on each shape, interleaved "
                         "with torch")
    ap.add_argument("--variants", default=None, help="with --tune: these variants only")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile the variants this run needs into the kernel cache and "
                         "exit (no GPU needed)")
    args = ap.parse_args(argv)
    ms = list(map(int, args.m.split(","))) if args.m else None
    if args.shapes == "grid":
        shapes = [("grid", "", m, n, k) for n, k in GRID_NKS for m in (ms or GRID_MS)]
    else:
        shapes = select(args.shapes, ms)
    if args.compile_only:
        labels = set()
        for _, _, m, n, k in shapes:
            labels.update(variants_for(args, m, n, k))
        for label in sorted(labels):
            matmul._kernel(label)
        print(f"compiled {len(labels)} variants: {', '.join(sorted(labels))}")
        return 0
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"{sm_count(args)} SMs")
    print(f"{'shape':>28} {'variant':>9} {'ours TFLOP/s':>20} {'torch TFLOP/s':>20} "
          f"{'ratio':>6}")
    ratios = []
    for model, proj, m, n, k in shapes:
        a, b = operands(m, n, k)
        ref = torch.nn.functional.linear(a, b).float()
        fns = {}
        for label in variants_for(args, m, n, k):
            out = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
            pm.gemm(a, b, out, variant=label)
            torch.cuda.synchronize()
            err = (out.float() - ref).abs().max().item() / max(ref.abs().max().item(), 1e-30)
            if err > 2e-2:
                print(f"MISMATCH {label} {m}x{n}x{k}: {err:.2e} of max |C|")
                return 1
            fns[label] = (lambda lab, o: lambda: pm.gemm(a, b, o, variant=lab))(label, out)
        fns["torch"] = lambda: torch.nn.functional.linear(a, b)
        res = pm.testing.compare(fns, reps=args.reps, batch=args.batch)
        flop = 2.0 * m * n * k

        def tflops(label):
            return cell_tflops(flop, res[label])
        chosen = variants_for(args, m, n, k)[0]
        ratio = {lab: res["torch"]["median"] / res[lab]["median"] for lab in res}
        ratios.append(ratio[chosen])
        print(f"{model:>4} {proj:>7} {m:>5}x{n:>5}x{k:>5} {chosen:>9} {tflops(chosen):>20} "
              f"{tflops('torch'):>20} {ratio[chosen]:6.3f}", flush=True)
        if args.tune:
            ranked = sorted((lab for lab in res if lab != "torch"), key=lambda lab: -ratio[lab])
            print(f"tune {m} {n} {k} | " + " ".join(f"{lab} {ratio[lab]:.3f}" for lab in ranked),
                  flush=True)
    if ratios:
        print(summary(ratios))
    return 0


if __name__ == "__main__":
    sys.exit(main())
