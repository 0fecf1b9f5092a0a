#!/usr/bin/env python3
"""pipeline_mlir.gemm against torch (cuBLAS) over the grid of docs/gemm.md
("Across shapes"), in one process: random bf16 data, C = A B^T both ways,
interleaved (each repetition times a batch of back-to-back calls of each,
the order alternating), CUDA events on torch's current stream; median and
min/max TFLOP/s over the repetitions, the ratio of medians, and the
geometric mean. The Python call's own cost is in the time (it is what a
user pays); the outputs are compared.

    PIPELINE_MLIR_CACHE=... python3 bench/gemm/bench_pm_gemm.py [--reps 10] [--batch 20]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))
import torch  # noqa: E402
import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir import matmul  # noqa: E402

MS = (16, 64, 128, 256, 1024, 4096, 16384)
NKS = ((4096, 4096), (14336, 4096), (4096, 14336), (1024, 8192), (8192, 8192))


def timed(fn, batch):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(batch):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) / batch  # ms per call


def operands(m, n, k):
    """Random bf16 A (M x K) and B (N x K), seeded by the shape, and C."""
    g = torch.Generator(device="cuda").manual_seed(m + n + k)
    a = torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16)
    b = torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16)
    return a, b, torch.empty((m, n), device="cuda", dtype=torch.bfloat16)


def tune(args):
    """Every variant on every grid shape, interleaved with torch; the
    fastest variant per shape as TUNED entries."""
    entries = []
    for n, k in NKS:
        for m in MS:
            if m > args.max_m or m < args.min_m:
                continue
            a, b, c = operands(m, n, k)
            ref = torch.nn.functional.linear(a, b).float()
            fns = {"torch": lambda: torch.nn.functional.linear(a, b)}
            labels = list(args.variants.split(",")) if args.variants else list(matmul.CONFIGS)
            if matmul.choose(m, n, k) not in labels:
                labels.append(matmul.choose(m, n, k))
            for label in labels:
                fns[label] = (lambda lab: lambda: pm.gemm(a, b, c, variant=lab))(label)
            for label, fn in fns.items():
                fn()
                if label != "torch":
                    torch.cuda.synchronize()
                    err = (c.float() - ref).abs().max().item() / ref.abs().max().item()
                    if err > 2e-2:
                        print(f"MISMATCH {label} {m}x{n}x{k}: {err:.2e}")
                        return 1
            t = {label: [] for label in fns}
            order = list(fns)
            for r in range(args.reps):
                for label in (order if r % 2 == 0 else order[::-1]):
                    t[label].append(timed(fns[label], args.batch))
            med = {label: sorted(v)[len(v) // 2] for label, v in t.items()}
            best = min(labels, key=lambda lab: med[lab])
            ratios = " ".join(f"{lab} {med['torch'] / med[lab]:.3f}" for lab in labels)
            print(f"{m}x{n}x{k}: best {best} {med['torch'] / med[best]:.3f} | {ratios}")
            entries.append(f"    ({m}, {n}, {k}): \"{best}\",")
    print("TUNED = {")
    print("\n".join(entries))
    print("}")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--tune", action="store_true",
                    help="time every variant of pipeline_mlir.matmul.CONFIGS per shape "
                         "and print the fastest (the TUNED table)")
    ap.add_argument("--variants", default="",
                    help="with --tune: only these variants (comma-separated) and the "
                         "current choice")
    ap.add_argument("--max-m", type=int, default=1 << 30,
                    help="with --tune: only shapes with M up to this")
    ap.add_argument("--min-m", type=int, default=1,
                    help="with --tune: only shapes with M at least this")
    args = ap.parse_args()
    if args.tune:
        return tune(args)
    print(f"device: {torch.cuda.get_device_name()}, torch {torch.__version__}")
    print("| M x N x K | variant | pm.gemm TFLOP/s median [min-max] | torch TFLOP/s median "
          "[min-max] | ratio |")
    print("|---|---|---|---|---|")
    logs = []
    for n, k in NKS:
        for m in MS:
            a, b, c = operands(m, n, k)
            ours = lambda: pm.gemm(a, b, c)  # noqa: E731
            theirs = lambda: torch.nn.functional.linear(a, b)  # noqa: E731
            ours(), theirs()
            torch.cuda.synchronize()
            ref = theirs().float()
            err = (c.float() - ref).abs().max().item() / max(ref.abs().max().item(), 1e-30)
            if err > 2e-2:
                print(f"MISMATCH {m}x{n}x{k}: {err:.2e}")
                return 1
            t = {"ours": [], "theirs": []}
            for r in range(args.reps):
                order = ("ours", "theirs") if r % 2 == 0 else ("theirs", "ours")
                for which in order:
                    t[which].append(timed(ours if which == "ours" else theirs, args.batch))
            flops = 2.0 * m * n * k
            tf = {w: sorted(flops / (ms * 1e-3) / 1e12 for ms in v) for w, v in t.items()}
            med = {w: v[len(v) // 2] for w, v in tf.items()}
            ratio = med["ours"] / med["theirs"]
            logs.append(math.log(ratio))
            print(f"| {m}x{n}x{k} | {matmul.choose(m, n, k)} | {med['ours']:.1f} "
                  f"[{tf['ours'][0]:.1f}-{tf['ours'][-1]:.1f}] | {med['theirs']:.1f} "
                  f"[{tf['theirs'][0]:.1f}-{tf['theirs'][-1]:.1f}] | {ratio:.3f} |")
    print(f"geometric mean of the ratios over {len(logs)} shapes: "
          f"{math.exp(sum(logs) / len(logs)):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
