"""A hand-off ring whose roles sit in warps 1 (consumer) and 3 (producer),
with no @pm.kernel(block=...): the compiler derives the least block the
roles need (four warps) and records it as the launch contract."""

import pipeline_mlir as pm

ROWS = 64
Rows = pm.memref((ROWS, 32), pm.i32)
SMEM = 32 + 2 * 32 * 4  # two stages of barriers, then the ring


@pm.kernel
def fourth_warp_producer(src: Rows, dst: Rows):
    tid = pm.thread_id()
    warp, lane = tid // 32, tid % 32
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    ring = pm.view(smem, p.smem_bytes, (2, 32), pm.i32)
    p.init(producer=32, consumer=32)
    with pm.if_(warp == 3):
        with pm.range(ROWS) as row:
            with p.produce() as stage:
                ring[stage.index, lane] = src[row, lane]
                stage.arrive()
        p.drain_producer()
    with pm.if_(warp == 1):
        with pm.range(ROWS) as row:
            with p.consume() as stage:
                dst[row, lane] = ring[stage.index, lane]
