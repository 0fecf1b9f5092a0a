#!/usr/bin/env python3
"""pipeline_mlir.attention against torch SDPA (cuDNN and flash-attention-2
backends) in one process, the same random tensors, interleaved launches
(pm.testing.compare), bf16 forward. By default batch x seqlen = 16k tokens
and heads x head_dim = 2048; `--shapes short` runs SHORT instead: cells of
real models with short sequences and many heads and batches. Prints one
row per cell: TFLOP/s of each and the ratio to cuDNN (median of the
repetitions, with min-max spread). Checks every cell's output (and with
--variants every variant's) against the cuDNN output first (bf16
tolerance).

  PIPELINE_MLIR_CACHE=<compiled kernels> python3 bench/attention/bench_attention.py
  PIPELINE_MLIR_CACHE=<compiled kernels> python3 bench/attention/bench_attention.py \\
      --shapes short --variants

Options: --reps, --batch (calls per timed batch), --head-dims 64,128,
--seqlens 1024,4096,16384 (the default cells), --shapes default|short,
--causal both|yes|no, --variants (every variant that fits; or a list,
--variants 2wg-pingpong,2wg-pingpong-p), --builder. `--compile-only` (no
GPU, no torch) compiles the kernels the same options time into the kernel
cache and exits.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

try:
    import torch
except ImportError:  # --compile-only runs without torch
    torch = None

import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir import attention_fwd, testing  # noqa: E402
from pipeline_mlir.attention_fwd import VARIANTS, fits  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python",
                                "examples"))
import attention_builder  # noqa: E402

#: `--shapes short`: (batch, seqlen, heads, head_dim) of models with short
#: sequences, each run without and with the causal mask (--causal).
SHORT = [
    (16, 512, 16, 64),     # BERT-large, T5-large encoder at 512 tokens
    (32, 256, 16, 64),     # ViT-L/16-sized (256 patches), 16 heads of 64
    (8, 1024, 16, 64),     # GPT-2 medium at its full 1024-token context
    (16, 448, 20, 64),     # Whisper large decoder (448 tokens, 20 heads of 64)
    (8, 1024, 32, 128),    # Llama-2-7B, Mistral-7B at 1k tokens
    (16, 512, 32, 128),    # the same at 512
    (32, 256, 32, 128),    # the same at 256
    (8, 1024, 28, 128),    # Qwen2.5-7B (28 query heads of 128) at 1k
]


def flops(batch, seqlen, heads, d, causal):
    f = 4 * batch * heads * seqlen * seqlen * d
    return f / 2 if causal else f


def cells(args):
    """(batch, seqlen, heads, head_dim, causals) of every cell to run."""
    causals = {"both": (False, True), "yes": (True,), "no": (False,)}[args.causal]
    if args.shapes == "short":
        return [(b, s, h, d, causals) for b, s, h, d in SHORT]
    out = []
    for d in (int(x) for x in args.head_dims.split(",")):
        for seqlen in (int(x) for x in args.seqlens.split(",")):
            out.append((max(1, 16384 // seqlen), seqlen, 2048 // d, d, causals))
    return out


def variants_of(args, d):
    """The variants timed beside the default at head_dim d (--variants)."""
    if not args.variants:
        return []
    names = list(VARIANTS) if args.variants == "all" else args.variants.split(",")
    for name in names:
        if name not in VARIANTS:
            raise SystemExit(f"unknown variant {name!r}: one of {', '.join(VARIANTS)}")
    return [v for v in names if fits(d, v)]


def compile_only(args):
    """Compiles every kernel the run would launch into the kernel cache."""
    keys = set()
    for _, seqlen, _, d, causals in cells(args):
        for causal in causals:
            keys.add((d, causal, attention_fwd.choose(d, causal, seqlen)))
            keys.update((d, causal, v) for v in variants_of(args, d))
    for key in sorted(keys):
        attention_fwd._kernel(key)
    print(f"compiled {len(keys)} kernels: "
          + ", ".join(f"d{d}{' causal' if c else ''} {v}" for d, c, v in sorted(keys)))
    if args.builder:
        for d in (64, 128):
            for c in (False, True):
                pm.compile(attention_builder.make_kernel(d, c)[0], chip="sm_90a")
        print("compiled the builder's 4 kernels")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--head-dims", default="128,64")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--shapes", default="default", choices=("default", "short"),
                    help="the 16k-token cells of --head-dims x --seqlens, or SHORT")
    ap.add_argument("--causal", default="both", choices=("both", "yes", "no"))
    ap.add_argument("--variants", nargs="?", const="all", default=None,
                    help="also time every variant (pm: the default one), or those listed "
                         "(comma-separated)")
    ap.add_argument("--builder", action="store_true",
                    help="also time python/examples/attention_builder.py (the plain "
                         "schedule written with the Python builder)")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile the kernels this run needs into the kernel cache and exit "
                         "(no GPU, no torch)")
    args = ap.parse_args()
    if args.compile_only:
        return compile_only(args)
    from torch.nn.attention import SDPBackend, sdpa_kernel
    torch.manual_seed(0)
    dev = torch.cuda.get_device_name()
    print(f"# device: {dev} ({torch.cuda.get_device_properties(0).multi_processor_count} SMs); "
          f"torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    cell_cols = "batch seqlen heads d causal" if args.shapes == "short" else "d seqlen causal"
    print(f"# {cell_cols} | TFLOP/s pm cudnn fa2 | pm/cudnn (min-max) | pm/fa2 | "
          "max err [| variant/cudnn ...]")
    builders = {}
    if args.builder:
        for d_ in (64, 128):
            for c_ in (False, True):
                kern, smem_ = attention_builder.make_kernel(d_, c_)
                builders[(d_, c_)] = (pm.compile(kern, chip="sm_90a"), smem_)
    for batch, seqlen, heads, d, causals in cells(args):
        q, k, v = (torch.randn(batch, seqlen, heads, d, device="cuda",
                               dtype=torch.bfloat16) for _ in range(3))
        qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
        for causal in causals:
            name = (f"{batch} {seqlen} {heads} {d} {'yes' if causal else 'no'}"
                    if args.shapes == "short" else f"{d} {seqlen} {'yes' if causal else 'no'}")
            out = torch.empty_like(q)

            def run_pm():
                pm.attention(q, k, v, causal=causal, out=out)

            def variant(label):
                return lambda: pm.attention(q, k, v, causal=causal, out=out, variant=label)

            def run_cudnn():
                with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                    return torch.nn.functional.scaled_dot_product_attention(
                        qt, kt, vt, is_causal=causal)

            def run_fa2():
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    return torch.nn.functional.scaled_dot_product_attention(
                        qt, kt, vt, is_causal=causal)
            ref = run_cudnn().transpose(1, 2)

            def error(fn):
                out.fill_(float("nan"))
                fn()
                torch.cuda.synchronize()
                return (out.float() - ref.float()).abs().max().item()
            err = error(run_pm)
            if not err < 0.05:
                print(f"{name}: WRONG, max error {err}")
                continue
            fns = {"pm": run_pm, "cudnn": run_cudnn, "fa2": run_fa2}
            for v_ in variants_of(args, d):
                e = error(variant(v_))
                if not e < 0.05:
                    print(f"{name}: {v_} WRONG, max error {e}")
                    continue
                fns[v_] = variant(v_)
            if args.builder:
                bk, bsmem = builders[(d, causal)]
                fns["builder"], _, _ = attention_builder.prepare(bk, bsmem, q, k, v, causal)
            res = testing.compare(fns, reps=args.reps, batch=args.batch)
            f = flops(batch, seqlen, heads, d, causal)
            tf = {k_: f / (r["median"] * 1e-3) / 1e12 for k_, r in res.items()}
            lo = res["cudnn"]["median"] / res["pm"]["max"]
            hi = res["cudnn"]["median"] / res["pm"]["min"]
            print(f"{name} | {tf['pm']:.0f} {tf['cudnn']:.0f} {tf['fa2']:.0f} | "
                  f"{tf['pm'] / tf['cudnn']:.3f} ({lo:.3f}-{hi:.3f}) | "
                  f"{tf['pm'] / tf['fa2']:.3f} | {err:.4f}"
                  + "".join(f" | {v_} {tf[v_] / tf['cudnn']:.3f}" for v_ in fns
                            if v_ in VARIANTS or v_ == "builder"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
