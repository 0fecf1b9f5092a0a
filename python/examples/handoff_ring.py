"""The hand-off ring in Python: warp 0 produces ROWS rows of 32 values into a
STAGES-stage shared-memory ring, warp 1 consumes them and writes them out
(the Python twin of examples/warp_specialized.mlir). Checks its result.

    /usr/bin/python3 python/examples/handoff_ring.py [--chip sm_90a] [--torch]
"""

import argparse
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/examples/", 1)[0])
import pipeline_mlir as pm  # noqa: E402

ROWS, STAGES = 1000, 4
Rows = pm.memref((ROWS, 32), pm.i32)


# Two warps: the producer and the consumer. Declared, so that a launch
# without the consumer warp (which would wait forever) is refused.
@pm.kernel(block=64)
def handoff_ring(src: Rows, dst: Rows):
    tid = pm.thread_id()
    warp, lane = tid // 32, tid % 32
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=STAGES)
    ring = pm.view(smem, p.smem_bytes, (STAGES, 32), pm.i32)
    # Every lane of the producer warp arrives on `full`, every lane of the
    # consumer warp on `empty`: 32 arrivals complete a phase.
    p.init(producer=32, consumer=32)
    with pm.if_(warp == 0) as producer_warp:
        with pm.range(ROWS) as row:
            with p.produce() as stage:
                ring[stage.index, lane] = src[row, lane]
                stage.arrive()
        p.drain_producer()
    with producer_warp.else_():
        with pm.range(ROWS) as row:
            with p.consume() as stage:
                dst[row, lane] = ring[stage.index, lane]


SMEM = 64 + STAGES * 32 * 4  # barriers, then the ring


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("--torch", action="store_true", help="use torch tensors (zero copy)")
    args = ap.parse_args()
    kernel = pm.compile(handoff_ring, chip=args.chip)
    src = np.random.default_rng(0).integers(-2**31, 2**31 - 1, (ROWS, 32), dtype=np.int32)
    if args.torch:
        import torch
        s, d = torch.from_numpy(src).cuda(), torch.zeros((ROWS, 32), dtype=torch.int32).cuda()
        kernel(s, d, grid=1, block=64, smem=SMEM)
        out = d.cpu().numpy()
    else:
        out = np.zeros_like(src)
        kernel(src, out, grid=1, block=64, smem=SMEM)
    ok = np.array_equal(out, src)
    print(f"handoff_ring ({'torch' if args.torch else 'numpy'}): "
          f"{'ok' if ok else 'MISMATCH'} ({ROWS} rows through {STAGES} stages)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
