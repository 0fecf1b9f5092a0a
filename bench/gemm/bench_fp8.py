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

--scaling: tensor, rowwise (default) or block (1x128 x 128x128; torch is
timed only where its _scaled_mm takes block scales, else ours alone).
torch runs with use_fast_accum=True for tensor and rowwise scales (the
accumulation ours does: f32 wgmma accumulators, no promotion), unless
--no-fast-accum.
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))
import torch  # noqa: E402
import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir import fp8_gemm  # noqa: E402

#: (model, projection, N, K): Llama-3-8B (hidden 4096, 32 heads / 8 KV
#: heads of 128, MLP 14336) and Llama-3-70B (hidden 8192, 64 / 8 heads,
#: MLP 28672); gate and up fused.
SHAPES = (
    ("8B", "qkv", 6144, 4096), ("8B", "o", 4096, 4096),
    ("8B", "gate_up", 28672, 4096), ("8B", "down", 4096, 14336),
    ("70B", "qkv", 10240, 8192), ("70B", "o", 8192, 8192),
    ("70B", "gate_up", 57344, 8192), ("70B", "down", 8192, 28672),
)
MS = (16, 128, 1024, 4096, 8192)


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


def promoted(args, m, n, k):
    """Whether the variant run adds each k-block's sums into f32 (block
    scaling, the promote variants)."""
    if args.scaling == "block":
        return True
    label = args.variant or fp8_gemm.choose(m, n, k, "outer", torch.cuda.get_device_properties(
        0).multi_processor_count)
    return bool(fp8_gemm.CONFIGS[label].get("promote"))


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
    ap.add_argument("--m", default=",".join(map(str, MS)))
    ap.add_argument("--variant", default=None, help="force one of fp8_gemm.CONFIGS")
    ap.add_argument("--no-fast-accum", action="store_true",
                    help="torch without use_fast_accum (cuBLAS then promotes the "
                         "accumulator; ours does so in the promote variants, --variant "
                         "bn128p or m64n128p, else it accumulates in the wgmma's "
                         "registers over all of K, as fast accumulation does)")
    args = ap.parse_args(argv)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, scaling {args.scaling}")
    print(f"{'shape':>28} {'variant':>9} {'ours TFLOP/s':>20} {'torch TFLOP/s':>20} "
          f"{'ratio':>6}")
    ratios = []
    for m in map(int, args.m.split(",")):
        for model, proj, n, k in SHAPES:
            a, b, sa, sb = operands(m, n, k, args.scaling)
            ours_out = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
            theirs_out = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
            fns = {"ours": lambda: pm.scaled_mm(a, b, sa, sb, ours_out, variant=args.variant)}
            fns["ours"]()
            torch.cuda.synchronize()
            ref = reference(a, b, sa, sb, args.scaling)
            err = ((ours_out[:ref.shape[0]].float() - ref).abs().max() /
                   ref.abs().max()).item()
            # The wgmma's FP8 accumulation keeps fewer bits than f32 (the
            # reason for promotion): without it the error grows with K.
            tol = 1e-2 + (0 if promoted(args, m, n, k) else k * 2.0 ** -20)
            if err > tol:
                print(f"MISMATCH ours {m}x{n}x{k}: {err:.2e} of max |C| (dequantized f32)")
                return 1
            theirs = torch_fn(a, b, sa, sb, theirs_out,
                              not args.no_fast_accum and args.scaling != "block")
            if theirs is not None:
                diff = ((ours_out.float() - theirs_out.float()).abs().max() /
                        theirs_out.float().abs().max()).item()
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
                r = res[label]
                return (f"{flop / r['median'] / 1e9:7.1f} ({flop / r['max'] / 1e9:5.0f}-"
                        f"{flop / r['min'] / 1e9:4.0f})")
            label = args.variant or fp8_gemm.choose(
                m, n, k, "block" if args.scaling == "block" else "outer",
                torch.cuda.get_device_properties(0).multi_processor_count)
            line = f"{model:>3} {proj:>7} {m:>5}x{n:>5}x{k:>5} {label:>9} {tflops('ours'):>20}"
            if "torch" in res:
                ratio = res["torch"]["median"] / res["ours"]["median"]
                ratios.append(ratio)
                line += f" {tflops('torch'):>20} {ratio:6.3f}"
            print(line, flush=True)
            del a, b, sa, sb, ours_out, theirs_out
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"geometric mean of torch time / ours over {len(ratios)} shapes: {geo:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
