"""A ring whose consumer keeps register state: warp 0 produces ROWS rows of
32 values through a STAGES-stage ring; warp 1 sums each lane's column and
counts its negative values in loop-carried values (pm.range carry=), the
count through a pm.if_ with a result, and writes both once at the end.
Used by test_builder.py (the MLIR) and test_gpu.py (the run)."""

import pipeline_mlir as pm

ROWS, STAGES = 300, 3
Rows = pm.memref((ROWS, 32), pm.i32)
Lanes = pm.memref((2, 32), pm.i32)
SMEM = 64 + STAGES * 32 * 4  # barriers, then the ring


@pm.kernel
def summing_ring(src: Rows, out: Lanes):
    tid = pm.thread_id()
    warp, lane = tid // 32, tid % 32
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=STAGES)
    ring = pm.view(smem, p.smem_bytes, (STAGES, 32), pm.i32)
    p.init(producer=32, consumer=32)
    zero = pm.constant(0, pm.i32)
    with pm.if_(warp == 0) as producer_warp:
        with pm.range(ROWS) as row:
            with p.produce() as stage:
                ring[stage.index, lane] = src[row, lane]
                stage.arrive()
        p.drain_producer()
    with producer_warp.else_():
        with pm.range(0, ROWS, carry=[zero, zero]) as loop:
            total, negatives = loop.carried
            # The handle form: the value read is used after the release.
            stage = p.acquire_consumer()
            v = ring[stage.index, lane]
            stage.release()
            with pm.if_(v < 0, results=[pm.i32]) as neg:
                neg.yield_(negatives + 1)
                with neg.else_():
                    neg.yield_(negatives)
            loop.next(total + v, neg.results[0])
        out[0, lane] = loop.results[0]
        out[1, lane] = loop.results[1]
