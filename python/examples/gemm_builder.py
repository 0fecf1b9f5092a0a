"""A warp-specialized bf16 GEMM written with the Python builder (no MLIR
text): C[M, N] = A[M, K] * B[N, K]^T, the layout of torch.matmul(x, w.t()).

The structure of examples/gemm_sm90.mlir, without its tuning:
  - warpgroup 0, the producer: thread 0 walks the persistent tile schedule
    and loads an A (128 x 64) and a B (BN x 64) tile per k-block into a
    stage of a tile pipeline with TMA;
  - warpgroups 1 and 2, the consumers, 64 rows each: 4 wgmma m64nBNk16 per
    stage into a register accumulator carried through the k-loop
    (pm.range(carry=)), one elected thread frees the stage, and the
    epilogue stores bf16 C from registers, clipped at M and N.
The NVIDIA layer (pipeline_mlir.nvidia) gives the typed pieces: the tiles'
shared-memory layout (`hopper.SmemLayout`), from which the wgmma
descriptors and the TMA descriptor types follow, the accumulator as a value
(`hopper.Accumulator`: its elements, and the row and column each one holds)
and the wgmma calls (`hopper.mma_tile`, `hopper.wait_group`). The full
kernel, with the release lag, the stmatrix + TMA store epilogue and its
variants, is python/pipeline_mlir/kernels/gemm_sm90.py. Checked against a
float32 matmul of the same inputs:

    /usr/bin/python3 python/examples/gemm_builder.py [--m 1000 --n 1000 --k 520] [--torch]
"""

import argparse
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/examples/", 1)[0])
import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir.nvidia import common, hopper  # noqa: E402

BM, BN, BK, STAGES = 128, 128, 64, 4
# The A and B tiles of a stage: K-major (K contiguous), 128-byte swizzle,
# what a TMA box of 64 bf16 (128 B) rows with SWIZZLE_128B writes.
A_LAYOUT = hopper.SmemLayout(BM, BK)
B_LAYOUT = hopper.SmemLayout(BN, BK)
A_OFF = 1024                            # barriers in the first KiB
B_OFF = A_OFF + STAGES * A_LAYOUT.nbytes  # 1 KiB aligned: the swizzle repeats
SMEM = B_OFF + STAGES * B_LAYOUT.nbytes   # every 1024 B
WARPGROUP_A_BYTES = 64 * BK * 2         # a consumer's 64 rows of the A tile


@pm.kernel(block=384)
def gemm_bf16(a_map: A_LAYOUT.tensormap(), b_map: B_LAYOUT.tensormap(),
              c: pm.memref((None, None), pm.bf16), m: pm.i32, n: pm.i32, k: pm.i32):
    tid, bid, nbid = pm.thread_id(), pm.block_id(), pm.grid_dim()
    rows, cols, depth = m.cast(pm.index), n.cast(pm.index), k.cast(pm.index)
    m_tiles = (rows + (BM - 1)) // BM
    tiles = m_tiles * ((cols + (BN - 1)) // BN)
    k_blocks = (depth + (BK - 1)) // BK

    smem = pm.dynamic_shared_memory()
    a_tiles = pm.view(smem, A_OFF, (STAGES, 1, BM, BK), pm.bf16)
    b_tiles = pm.view(smem, B_OFF, (STAGES, 1, BN, BK), pm.bf16)
    tp = pm.tile_pipeline(pm.pipeline(smem, stages=STAGES), [a_tiles, b_tiles])
    # full: the TMA thread's expect_tx; empty: one thread per consumer warpgroup.
    tp.init(producer=1, consumer=2)
    wg = tid // 128
    with pm.if_(wg == 0) as producer:
        common.setmaxnreg("decrease", 40)
        with pm.if_(tid == 0):
            pm.tma_prefetch(a_map)
            pm.tma_prefetch(b_map)
            with pm.range(bid, tiles, nbid) as t:
                m0, n0 = (t % m_tiles) * BM, (t // m_tiles) * BN
                with pm.range(k_blocks) as kb:
                    s = tp.acquire_producer()
                    s.expect_tx()  # the payload's bytes: both tiles
                    a_dst = pm.subview(s.payload(0), [0, 0, 0], [1, BM, BK])
                    b_dst = pm.subview(s.payload(1), [0, 0, 0], [1, BN, BK])
                    pm.tma_load(a_map, [kb * BK, m0], s.mbar(), a_dst)
                    pm.tma_load(b_map, [kb * BK, n0], s.mbar(), b_dst)
                    s.release()  # the TMA completes the stage
            tp.drain_producer()
    with producer.else_():
        common.setmaxnreg("increase", 232)
        cw = wg - 1
        ltid = tid % 128
        warp, lane = ltid // 32, tid % 32
        leader = ltid == 0
        with pm.range(bid, tiles, nbid) as t:
            m0, n0 = (t % m_tiles) * BM, (t // m_tiles) * BN
            # The 64 x BN f32 accumulator, zero, carried through the k-loop
            # as its LLVM struct (acc.value).
            zero = hopper.Accumulator.fill(BN, 0.0)
            with pm.range(k_blocks, carry=[zero.value]) as loop:
                acc = hopper.Accumulator.of(BN, loop.carried[0])
                s = tp.acquire_consumer()
                # The stage's tiles: this warpgroup's 64 rows of A, all of B;
                # one descriptor per k16 step (BK / 16 = 4).
                a_descs = A_LAYOUT.descriptors(common.smem_address(s.payload(0))
                                               + cw * WARPGROUP_A_BYTES)
                b_descs = B_LAYOUT.descriptors(common.smem_address(s.payload(1)))
                acc = hopper.mma_tile(acc, a_descs, b_descs)  # fence, 4 wgmma, commit
                hopper.wait_group(0)
                with pm.if_(leader):
                    s.arrive()  # the wgmma read the stage: free it
                s.release()  # a tile pipeline's release only steps
                loop.next(acc.value)
            acc = hopper.Accumulator.of(BN, loop.results[0])
            # Epilogue: element i of the thread's fragment lies in row
            # 16 warp + lane / 4 (+ 8 in its second half), column
            # 2 (lane % 4) + Accumulator.column(i) of the warpgroup's block.
            row0 = m0 + cw * 64 + warp * 16 + lane // 4
            col0 = n0 + (lane % 4) * 2
            for i in range(acc.size):
                row = row0 + 8 * acc.half(i)
                col = col0 + acc.column(i)
                v = acc[i]
                with pm.if_((row < rows) & (col < cols)):
                    c[row, col] = v.cast(pm.bf16)


def run(kernel, a, b, c, m, n, k):
    """Launches on device arrays a (M x K), b (N x K), c (M x N), bf16."""
    if k % 8:
        raise ValueError(f"K ({k}) must be a multiple of 8 (TMA row pitch)")
    maps = [pm.TensorMap(a, (BM, BK), "bf16", "swizzle_128b"),
            pm.TensorMap(b, (BN, BK), "bf16", "swizzle_128b")]
    tiles = -(-m // BM) * -(-n // BN)
    kernel(*maps, c, pm.i32(m), pm.i32(n), pm.i32(k),
           grid=min(pm.device_info()["sm_count"], tiles), block=384, smem=SMEM)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--m", type=int, default=1000)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--k", type=int, default=520)
    ap.add_argument("--torch", action="store_true", help="torch bf16 tensors (zero copy)")
    args = ap.parse_args()
    m, n, k = args.m, args.n, args.k
    kernel = pm.compile(gemm_bf16, chip="sm_90a")
    rng = np.random.default_rng(3)
    a32 = rng.standard_normal((m, k), dtype=np.float32)
    b32 = rng.standard_normal((n, k), dtype=np.float32)
    a16, b16 = pm.to_bf16(a32), pm.to_bf16(b32)
    ref = pm.from_bf16(a16) @ pm.from_bf16(b16).T
    if args.torch:
        import torch
        a, b = (torch.from_numpy(x.view(np.int16)).cuda().view(torch.bfloat16) for x in (a16, b16))
        c = torch.zeros((m, n), dtype=torch.bfloat16, device="cuda")
        run(kernel, a, b, c, m, n, k)
        torch.cuda.synchronize()
        out = c.float().cpu().numpy()
    else:
        a, b = pm.DeviceArray.from_numpy(a16), pm.DeviceArray.from_numpy(b16)
        c = pm.zeros((m, n), np.uint16)
        run(kernel, a, b, c, m, n, k)
        out = pm.from_bf16(c.numpy())
    err = np.abs(out - ref).max() / np.abs(ref).max()
    ok = err < 2e-2
    print(f"gemm_builder {m}x{n}x{k} ({'torch' if args.torch else 'numpy'}): "
          f"{'ok' if ok else 'MISMATCH'} (max error {err:.2e} of max |C|)")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
