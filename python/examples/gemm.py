"""The warp-specialized bf16 GEMM of examples/gemm_sm90.mlir, compiled and
launched from Python: C[M, N] = A[M, K] * B[N, K]^T (the TN call of
torch.matmul(x, w.t())), bf16 inputs, f32 accumulation, bf16 output. The
TMA descriptors (128-byte swizzle) are built here; the result is checked
against a float32 matmul of the same bf16 inputs (numpy, or torch).

    /usr/bin/python3 python/examples/gemm.py [--m 1024 --n 1024 --k 1024] [--torch]
"""

import argparse
import pathlib
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/examples/", 1)[0])
import pipeline_mlir as pm  # noqa: E402

KERNEL = pathlib.Path(__file__).resolve().parents[2] / "examples" / "gemm_sm90.mlir"
BM, BN, THREADS, SMEM, GROUP_M = 128, 256, 384, 214016, 8


def load():
    return pm.Module.from_mlir(KERNEL.read_text(), name="gemm_sm90")


def gemm(kernel, a, b, c, m, n, k):
    """Launches the persistent GEMM on device arrays a (M x K), b (N x K),
    c (M x N), all bf16 (uint16 bit patterns or torch.bfloat16)."""
    if k % 8 or n % 8:
        raise ValueError(f"K ({k}) and N ({n}) must be multiples of 8 (TMA row pitch)")
    maps = [pm.TensorMap(a, (BM, 64), "bf16", "swizzle_128b", l2promo="l2_256b"),
            pm.TensorMap(b, (BN, 64), "bf16", "swizzle_128b", l2promo="l2_256b"),
            pm.TensorMap(c, (64, 64), "bf16", "swizzle_128b")]
    tiles = -(-m // BM) * -(-n // BN)
    grid = min(pm.device_info()["sm_count"], tiles)
    kernel(*maps, pm.i32(m), pm.i32(n), pm.i32(k), pm.i32(GROUP_M),
           grid=grid, block=THREADS, smem=SMEM)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--m", type=int, default=1024)
    ap.add_argument("--n", type=int, default=1024)
    ap.add_argument("--k", type=int, default=1024)
    ap.add_argument("--torch", action="store_true", help="torch bf16 tensors (zero copy)")
    args = ap.parse_args()
    m, n, k = args.m, args.n, args.k
    kernel = pm.compile(load(), chip="sm_90a").kernel("gemm_bf16_sm90")
    rng = np.random.default_rng(2)
    a16 = pm.to_bf16(rng.standard_normal((m, k), dtype=np.float32))
    b16 = pm.to_bf16(rng.standard_normal((n, k), dtype=np.float32))
    if args.torch:
        import torch
        a = torch.from_numpy(a16.view(np.int16)).view(torch.bfloat16).cuda()
        b = torch.from_numpy(b16.view(np.int16)).view(torch.bfloat16).cuda()
        c = torch.zeros((m, n), dtype=torch.bfloat16, device="cuda")
        gemm(kernel, a, b, c, m, n, k)
        got = c.float().cpu().numpy()
        ref = (a.float() @ b.float().t()).cpu().numpy()
    else:
        a, b = pm.DeviceArray.from_numpy(a16), pm.DeviceArray.from_numpy(b16)
        c = pm.zeros((m, n), np.uint16)
        gemm(kernel, a, b, c, m, n, k)
        got = pm.from_bf16(c.numpy())
        ref = pm.from_bf16(a16) @ pm.from_bf16(b16).T
    # bf16 output: 8 bits of mantissa, relative to the row's scale.
    err = np.abs(got - ref).max() / max(np.abs(ref).max(), 1e-30)
    ok = err < 2e-2 and np.isfinite(got).all()
    print(f"gemm ({'torch' if args.torch else 'numpy'}) {m}x{n}x{k}: "
          f"{'ok' if ok else 'MISMATCH'} (max error {err:.2e} of max |C|)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
