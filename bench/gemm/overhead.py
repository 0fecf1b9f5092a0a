#!/usr/bin/env python3
"""Where the time of a small GEMM goes: per call, the host's cost of
launching it (the Python entry point's checks and the driver call) and the
GPU's time in the kernel, for pm.scaled_mm against torch._scaled_mm
(rowwise FP8) and pm.gemm against torch.mm (bf16), on decode shapes of
Llama-3 (M tokens x the projections' N x K).

Host: wall time of `--calls` back-to-back calls (no synchronization in
between; the queue is deep enough) divided by the count, median over
`--reps`. GPU: the kernels' mean duration in a torch.profiler trace of the
same calls (CUPTI), the sum of every kernel one call launches (a split-K
memset included). A call whose host time exceeds its GPU time is bound by
the host: back-to-back launches leave the GPU idle between kernels.

    PIPELINE_MLIR_CACHE=... python3 bench/gemm/overhead.py [--m 1,16,128]
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "python"))
import torch  # noqa: E402
import pipeline_mlir as pm  # noqa: E402

SHAPES = (("8B qkv", 6144, 4096), ("8B o", 4096, 4096), ("8B down", 4096, 14336),
          ("70B o", 8192, 8192))


def host_us(fn, calls, reps):
    times = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        times.append((time.perf_counter() - t0) / calls * 1e6)
        torch.cuda.synchronize()
    return statistics.median(times)


def gpu_us(fn, calls):
    """Mean GPU microseconds per call: the kernels' durations in a profile
    of `calls` calls."""
    from torch.profiler import ProfilerActivity, profile
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    total = 0.0
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            total += e.device_time
    return total / calls


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--m", default="1,16,128")
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
    print(f"{'shape':>22} {'op':>17} {'host us/call':>13} {'GPU us/call':>12}")
    g = torch.Generator(device="cuda").manual_seed(0)
    for m in map(int, args.m.split(",")):
        for name, n, k in SHAPES:
            x = torch.randn((m, k), generator=g, device="cuda")
            w = torch.randn((n, k), generator=g, device="cuda")
            a8, w8 = x.to(torch.float8_e4m3fn), w.to(torch.float8_e4m3fn)
            sa = torch.rand((m, 1), generator=g, device="cuda") + 0.5
            sb = torch.rand((1, n), generator=g, device="cuda") + 0.5
            xb, wb = x.to(torch.bfloat16), w.to(torch.bfloat16)
            o1 = torch.empty((m, n), device="cuda", dtype=torch.bfloat16)
            o2 = torch.empty_like(o1)
            fns = {
                "pm.scaled_mm": lambda: pm.scaled_mm(a8, w8.t(), sa, sb, o1),
                "torch._scaled_mm": lambda: torch._scaled_mm(
                    a8, w8.t(), scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16,
                    use_fast_accum=True, out=o2),
                "pm.gemm": lambda: pm.gemm(xb, wb, o1),
                "torch.mm": lambda: torch.mm(xb, wb.t(), out=o2),
            }
            for label, fn in fns.items():
                for _ in range(3):
                    fn()
                h = host_us(fn, args.calls, args.reps)
                d = gpu_us(fn, args.calls)
                print(f"{name:>8} {m:>5}x{n:>5}x{k:>5} {label:>17} {h:13.1f} {d:12.1f}",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
