#!/usr/bin/env python3
"""pipeline_mlir.attention against torch SDPA (cuDNN and flash-attention-2
backends) in one process, the same random tensors, interleaved launches
(pm.testing.compare), bf16 forward, batch x seqlen = 16k tokens, heads x
head_dim = 2048. Prints one row per cell: TFLOP/s of each and the ratio to
cuDNN (median of the repetitions, with min-max spread). Checks every
cell's output against the cuDNN output first (bf16 tolerance).

  PIPELINE_MLIR_CACHE=<compiled kernels> python3 bench/attention/bench_attention.py

Options: --reps, --batch (calls per timed batch), --head-dims 64,128,
--seqlens 1024,4096,16384, --causal both|yes|no, --variants, --builder.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

import torch  # noqa: E402
from torch.nn.attention import SDPBackend, sdpa_kernel  # noqa: E402

import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir import testing  # noqa: E402
from pipeline_mlir.attention_fwd import VARIANTS, fits  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python",
                                "examples"))
import attention_builder  # noqa: E402


def flops(batch, seqlen, heads, d, causal):
    f = 4 * batch * heads * seqlen * seqlen * d
    return f / 2 if causal else f


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--batch", type=int, default=10)
    ap.add_argument("--head-dims", default="128,64")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--causal", default="both", choices=("both", "yes", "no"))
    ap.add_argument("--variants", action="store_true",
                    help="also time every variant (pm: the default one)")
    ap.add_argument("--builder", action="store_true",
                    help="also time python/examples/attention_builder.py (the plain "
                         "schedule written with the Python builder)")
    args = ap.parse_args()
    torch.manual_seed(0)
    dev = torch.cuda.get_device_name()
    print(f"# device: {dev}; torch {torch.__version__}, cuDNN {torch.backends.cudnn.version()}")
    print("# d seqlen causal | TFLOP/s pm cudnn fa2 | pm/cudnn (min-max) | pm/fa2 | "
          "max err [| variant/cudnn ...]")
    causals = {"both": (False, True), "yes": (True,), "no": (False,)}[args.causal]
    builders = {}
    if args.builder:
        for d_ in (64, 128):
            for c_ in (False, True):
                kern, smem_ = attention_builder.make_kernel(d_, c_)
                builders[(d_, c_)] = (pm.compile(kern, chip="sm_90a"), smem_)
    for d in (int(x) for x in args.head_dims.split(",")):
        heads = 2048 // d
        for seqlen in (int(x) for x in args.seqlens.split(",")):
            batch = max(1, 16384 // seqlen)
            q, k, v = (torch.randn(batch, seqlen, heads, d, device="cuda",
                                   dtype=torch.bfloat16) for _ in range(3))
            qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
            for causal in causals:
                out = torch.empty_like(q)

                def run_pm():
                    pm.attention(q, k, v, causal=causal, out=out)

                def variant(name):
                    return lambda: pm.attention(q, k, v, causal=causal, out=out, variant=name)

                def run_cudnn():
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        return torch.nn.functional.scaled_dot_product_attention(
                            qt, kt, vt, is_causal=causal)

                def run_fa2():
                    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                        return torch.nn.functional.scaled_dot_product_attention(
                            qt, kt, vt, is_causal=causal)
                run_pm()
                ref = run_cudnn().transpose(1, 2)
                torch.cuda.synchronize()
                err = (out.float() - ref.float()).abs().max().item()
                if not err < 0.05:
                    print(f"{d} {seqlen} {causal}: WRONG, max error {err}")
                    continue
                fns = {"pm": run_pm, "cudnn": run_cudnn, "fa2": run_fa2}
                if args.variants:
                    fns.update({v_: variant(v_) for v_ in VARIANTS if fits(d, v_)})
                if args.builder:
                    bk, bsmem = builders[(d, causal)]
                    fns["builder"], _, _ = attention_builder.prepare(bk, bsmem, q, k, v, causal)
                res = testing.compare(fns,
                                      reps=args.reps, batch=args.batch)
                f = flops(batch, seqlen, heads, d, causal)
                tf = {k_: f / (r["median"] * 1e-3) / 1e12 for k_, r in res.items()}
                lo = res["cudnn"]["median"] / res["pm"]["max"]
                hi = res["cudnn"]["median"] / res["pm"]["min"]
                print(f"{d} {seqlen} {'yes' if causal else 'no'} | {tf['pm']:.0f} "
                      f"{tf['cudnn']:.0f} {tf['fa2']:.0f} | "
                      f"{tf['pm'] / tf['cudnn']:.3f} ({lo:.3f}-{hi:.3f}) | "
                      f"{tf['pm'] / tf['fa2']:.3f} | {err:.4f}"
                      + "".join(f" | {v_} {tf[v_] / tf['cudnn']:.3f}" for v_ in fns
                                if v_ in VARIANTS or v_ == "builder"), flush=True)


if __name__ == "__main__":
    main()
