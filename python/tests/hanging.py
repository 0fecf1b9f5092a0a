"""A kernel that hangs on purpose: one consumer waits for a stage no
producer fills. Compiled with the hang report (and the protocol check off,
which would reject it), it traps and the launcher says where it waited."""

import pipeline_mlir as pm

Out = pm.memref((4,), pm.i32)
OPTIONS = dict(chip="sm_90a", hang_report=2_000_000, verify_protocol=False)


@pm.kernel
def starved_consumer(out: Out):
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    p.init(producer=1, consumer=1)
    with pm.if_(pm.thread_id() == 0):
        with p.consume() as stage:
            out[stage.index] = pm.constant(1, pm.i32)


if __name__ == "__main__":
    import sys
    kernel = pm.compile(starved_consumer, **OPTIONS).kernel()
    if sys.argv[1:] == ["--torch"]:
        # Asynchronous: torch's stream, no wait; the trap shows at torch's
        # synchronization, and pm.hang_report() says where the kernel waited.
        import torch
        out = torch.zeros(4, dtype=torch.int32, device="cuda")
        kernel(out, grid=(1, 1, 1), block=(32, 1, 1), smem=64)
        try:
            torch.cuda.synchronize()
        except Exception as error:  # torch's CUDA error
            print(f"torch: {type(error).__name__}")
            print(pm.hang_report())
            raise SystemExit(3)
        print("no hang")
        raise SystemExit(0)
    import numpy as np
    try:
        kernel(np.zeros(4, np.int32), grid=(1, 1, 1), block=(32, 1, 1), smem=64)
    except pm.CudaError as error:
        print(error)
        raise SystemExit(3)
    print("no hang")
