"""A TMA-fed tile pipeline in Python: a ROWS x COLS matrix is cut into 32 x 32
tiles; lane 0 of warp 0 loads each tile with TMA into a stage of a 3-stage
tile pipeline (expect_tx arms the stage's payload bytes), warp 1 copies the
tile out of shared memory to its place in `dst`. Checks its result.

    /usr/bin/python3 python/examples/tma_copy.py [--chip sm_90a] [--torch]
"""

import argparse
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/examples/", 1)[0])
import pipeline_mlir as pm  # noqa: E402

ROWS, COLS, TILE, STAGES = 256, 128, 32, 3
TILES_PER_ROW = COLS // TILE
ITEMS = (ROWS // TILE) * TILES_PER_ROW

Tile = pm.memref((TILE, TILE), pm.i32, pm.smem)
Payload = pm.memref((STAGES, 1, TILE, TILE), pm.i32, pm.smem)


@pm.kernel
def tma_copy(desc: pm.tensormap(Tile), dst: pm.memref((ROWS, COLS), pm.i32)):
    tid = pm.thread_id()
    warp, lane = tid // 32, tid % 32
    smem = pm.dynamic_shared_memory()
    # Barriers at byte 0; the payload at the first 128-byte aligned address
    # after them (TMA destinations must be 128-byte aligned).
    buf = pm.view(smem, pm.aligned_offset(smem, 64, 128), Payload.shape, pm.i32)
    p = pm.pipeline(smem, stages=STAGES)
    tp = pm.tile_pipeline(p, [buf], k_group_size=1)
    tp.init(producer=1, consumer=32)
    with pm.if_(warp == 0) as producer_warp:
        with pm.if_(lane == 0):
            pm.tma_prefetch(desc)
            with pm.range(ITEMS) as t:
                stage = tp.acquire_producer()
                stage.expect_tx()
                tile = pm.subview(stage.payload(0), [0, 0, 0], [1, TILE, TILE])
                row0, col0 = (t // TILES_PER_ROW) * TILE, (t % TILES_PER_ROW) * TILE
                pm.tma_load(desc, [col0, row0], stage.mbar(), tile)  # innermost first
                stage.release()
            tp.drain_producer()
    with producer_warp.else_():
        with pm.range(ITEMS) as t:
            with tp.consume() as stage:
                tiles = stage.payload(0)
                row0, col0 = (t // TILES_PER_ROW) * TILE, (t % TILES_PER_ROW) * TILE
                with pm.range(TILE) as r:
                    dst[row0 + r, col0 + lane] = tiles[0, r, lane]
                # Every lane frees the stage (consumer count 32); the region's
                # exit only steps on a tile pipeline.
                stage.arrive()


SMEM = 128 + 128 + STAGES * TILE * TILE * 4  # barriers, alignment slack, payload


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("--torch", action="store_true", help="use torch tensors (zero copy)")
    args = ap.parse_args()
    kernel = pm.compile(tma_copy, chip=args.chip)
    src = np.random.default_rng(1).integers(-2**31, 2**31 - 1, (ROWS, COLS), dtype=np.int32)
    if args.torch:
        import torch
        s = torch.from_numpy(src).cuda()
        d = torch.zeros((ROWS, COLS), dtype=torch.int32, device="cuda")
        kernel(pm.TensorMap(s, box=(TILE, TILE)), d, grid=1, block=64, smem=SMEM)
        out = d.cpu().numpy()
    else:
        s = pm.DeviceArray.from_numpy(src)
        out = np.zeros_like(src)
        kernel(pm.TensorMap(s, box=(TILE, TILE)), out, grid=1, block=64, smem=SMEM)
    ok = np.array_equal(out, src)
    print(f"tma_copy ({'torch' if args.torch else 'numpy'}): {'ok' if ok else 'MISMATCH'} "
          f"({ITEMS} tiles of {TILE}x{TILE} through {STAGES} stages)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
