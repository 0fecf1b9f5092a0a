#!/usr/bin/env python3
"""pipeline_mlir.scaled_mm (the sm_90a FP8 GEMM) against torch._scaled_mm
(cuBLASLt), in one process: random e4m3 data, C = scale(a @ b) with bf16
C, both kernels interleaved by pm.testing.compare (each repetition times
a batch of back-to-back calls of each, the order alternating, CUDA events
on torch's current stream). Shapes: the projections of Llama-3-8B and
Llama-3-70B (N x K of the QKV, O, gate+up and down projections) at decode
and prefill token counts M. Prints, per shape, both kernels' median
TFLOP/s, their min-max spread over the repetitions, the ratio of the
medians (torch time / ours: above 1 is faster than torch) and the variant
run; then the geometric mean of the ratios. The outputs are compared to
each other (and to a dequantized f32 product) before timing.

    PIPELINE_MLIR_CACHE=... python3 bench/gemm/bench_fp8.py [--scaling rowwise]
        [--reps 10] [--batch 20] [--m 16,128,1024,4096,8192] [--variant LABEL]
        [--shapes all|tune|held-out] [--tune [--variants A,B]] [--compile-only]

Shapes: SHAPES (Llama-3-8B and -70B at M 16 .. 8192), the set the variant
choice was tuned on (`--shapes tune`), and HELD_OUT (Qwen2.5-7B and
DeepSeek-V3 at M 1 .. 6000, none a multiple of 64 but 1), which it never
saw (`--shapes held-out`). `--compile-only` (no GPU, no torch) fills the
kernel cache for the run.

--scaling: tensor, rowwise (default) or block (1x128 x 128x128; torch is
timed only where its _scaled_mm takes block scales, else ours alone).
torch runs with use_fast_accum=True for tensor and rowwise scales (the
accumulation ours does: f32 wgmma accumulators, no promotion), unless
--no-fast-accum.
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
from pipeline_mlir import fp8_gemm  # noqa: E402
from shapes import select, summary, tflops as cell_tflops  # noqa: E402


def operands(m, n, k, scaling):
    g = torch.Generator(device="cuda").manual_seed(m + n + k)
    a = (torch.randn((m, k), generator=g, device="cuda") * 4).to(torch.float8_e4m3fn)
    w = (torch.randn((n, k), generator=g, device="cuda") * 4).to(torch.float8_e4m3fn)
    if scaling == "tensor":
        sa = torch.tensor(0.5, device="cuda")
        sb = torch.tensor(0.25, device="cuda")
    elif scaling == "rowwise":
        sa = torch.rand((m, 1), generator=g, device="cuda") + 0.5
        sb = torch.rand((1, n), generator=g, device="cuda") + 0.5
    else:
        kb, nb = -(-k // 128), -(-n // 128)
        # A's scales M-major (strides (1, M)), as torch's blockwise
        # _scaled_mm and DeepGEMM keep them.
        sa = (torch.rand((kb, m), generator=g, device="cuda") + 0.5).t()
        sb = torch.rand((nb, kb), generator=g, device="cuda") + 0.5
    return a, w.t(), sa, sb


def reference(a, b, sa, sb, scaling, rows=256):
    """The dequantized f32 product of the first `rows` rows."""
    x, y, sa = a[:rows].float(), b.float(), sa[:rows] if sa.dim() else sa
    if scaling != "block":
        return (x @ y) * sa.reshape(-1, 1) * sb.reshape(1, -1)
    out = 0
    for kb in range(sa.shape[1]):
        ks = slice(128 * kb, 128 * kb + 128)
        col = sb[:, kb].repeat_interleave(128)[:y.shape[1]]
        out = out + (x[:, ks] @ y[ks]) * sa[:, kb:kb + 1] * col[None, :]
    return out


def promoted(label):
    """Whether a variant adds each k-block's sums into f32 (block scaling,
    the promote variants)."""
    return fp8_gemm._scaling(label) == "block" or bool(fp8_gemm.CONFIGS[label].get("promote"))


def variants_for(args, m, n, k, scaling):
    """The variants a shape runs: the chosen one, or with --tune every
    variant of the scaling (or --variants)."""
    sm = 132 if args.compile_only else torch.cuda.get_device_properties(0).multi_processor_count
    chosen = args.variant or fp8_gemm.choose(m, n, k, scaling, sm)
    if not args.tune:
        return [chosen]
    labels = (args.variants.split(",") if args.variants else
              [lab for lab in fp8_gemm.CONFIGS if fp8_gemm._scaling(lab) == scaling
               and not fp8_gemm.CONFIGS[lab].get("promote")])
    return list(dict.fromkeys([chosen] + labels))


def torch_fn(a, b, sa, sb, out, fast_accum):
    """torch._scaled_mm on these scales, or None where torch refuses them."""
    def fn():
        return torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                                use_fast_accum=fast_accum, out=out)
    try:
        fn()
        torch.cuda.synchronize()
    except (RuntimeError, TypeError) as e:
        print(f"  (torch._scaled_mm refuses: {str(e).splitlines()[0][:100]})")
        return None
    return fn


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scaling", choices=("tensor", "rowwise", "block"), default="rowwise")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--m", default=None, help="token counts (default: each set's own)")
    ap.add_argument("--variant", default=None, help="force one of fp8_gemm.CONFIGS")
    ap.add_argument("--shapes", default="all", choices=("all", "tune", "held-out"),
                    help="the tuning half of SHAPES (TUNE_SET), the other half, or all")
    ap.add_argument("--tune", action="store_true",
                    help="time every variant of the scaling (or --variants) on each shape, "
                         "interleaved with torch, and print the fastest")
    ap.add_argument("--variants", default=None, help="with --tune: these variants only")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile the variants this run needs into the kernel cache and "
                         "exit (no GPU needed)")
    ap.add_argument("--no-fast-accum", action="store_true",
                    help="torch without use_fast_accum (cuBLAS then promotes the "
                         "accumulator; ours does so in the promote variants, --variant "
                         "bn128p or m64n128p, else it accumulates in the wgmma's "
                         "registers over all of K, as fast accumulation does)")
    args = ap.parse_args(argv)
    scaling = "block" if args.scaling == "block" else "outer"
    shapes = select(args.shapes, list(map(int, args.m.split(","))) if args.m else None)
    if args.compile_only:
        labels = set()
        for _, _, m, n, k in shapes:
            labels.update(variants_for(args, m, n, k, scaling))
        for label in sorted(labels):
            fp8_gemm._kernel(label)
        print(f"compiled {len(labels)} variants: {', '.join(sorted(labels))}")
        return 0
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, scaling {args.scaling}")
    print(f"{'shape':>28} {'variant':>9} {'ours TFLOP/s':>20} {'torch TFLOP/s':>20} "
          f"{'ratio':>6}")
    ratios, best = [], []
    for model, proj, m, n, k in shapes:
        a, b, sa, sb = operands(m, n, k, args.scaling)
        outs = {}
        fns = {}
        for label in variants_for(args, m, n, k, scaling):
            out = outs[label] = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
            fns[label] = (lambda lab, o, args: lambda: pm.scaled_mm(*args, o, variant=lab))(
                label, out, (a, b, sa, sb))
            fns[label]()
        torch.cuda.synchronize()
        ref = reference(a, b, sa, sb, args.scaling)
        for label, out in outs.items():
            err = ((out[:ref.shape[0]].float() - ref).abs().max() / ref.abs().max()).item()
            # The wgmma's FP8 accumulation keeps fewer bits than f32 (the
            # reason for promotion): without it the error grows with K.
            tol = 1e-2 + (0 if promoted(label) else k * 2.0 ** -20)
            if err > tol:
                print(f"MISMATCH {label} {m}x{n}x{k}: {err:.2e} of max |C| (dequantized f32)")
                return 1
        chosen = fp8_gemm.choose(m, n, k, scaling, torch.cuda.get_device_properties(
            0).multi_processor_count) if not args.variant else args.variant
        theirs_out = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
        theirs = torch_fn(a, b, sa, sb, theirs_out,
                          not args.no_fast_accum and args.scaling != "block")
        if theirs is not None:
            ours_out = outs[chosen]
            diff = ((ours_out.float() - theirs_out.float()).abs().max() /
                    theirs_out.float().abs().max()).item()
            tol = 1e-2 + (0 if promoted(chosen) else k * 2.0 ** -20)
            if diff <= tol:
                fns["torch"] = theirs
            elif args.scaling == "block":
                # Ours matches the dequantized product: torch reads
                # these block scales otherwise (its layout rules).
                print(f"  (torch._scaled_mm differs by {diff:.2e} on these block "
                      "scales: ours timed alone)")
            else:
                print(f"MISMATCH ours vs torch {m}x{n}x{k}: {diff:.2e}")
                return 1
        res = pm.testing.compare(fns, reps=args.reps, batch=args.batch)
        flop = 2.0 * m * n * k

        def tflops(label):
            return cell_tflops(flop, res[label])
        shown = [chosen] if not args.tune else sorted(
            (lab for lab in res if lab != "torch"), key=lambda lab: res[lab]["median"])
        for label in shown:
            line = (f"{model:>3} {proj:>7} {m:>5}x{n:>5}x{k:>5} {label:>9} "
                    f"{tflops(label):>20}")
            if "torch" in res:
                ratio = res["torch"]["median"] / res[label]["median"]
                if label == chosen:
                    ratios.append(ratio)
                line += f" {tflops('torch'):>20} {ratio:6.3f}"
            if args.tune and label == chosen:
                line += "  (chosen)"
            print(line, flush=True)
        if args.tune:
            best.append(((m, n, k), shown[0]))
        del a, b, sa, sb, outs, theirs_out
    if ratios:
        print(summary(ratios))
    for shape, label in best:
        print(f"    {shape}: {label!r},")
    return 0


if __name__ == "__main__":
    sys.exit(main())
