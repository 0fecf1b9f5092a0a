"""A kernel whose arrays have a size known only at launch: memrefs with a
dynamic dimension, passed as pointer, offset, sizes and strides (the kernel
ABI of docs/lowering.md). Used by test_launch.py (compile, parameters) and
test_gpu.py (run)."""

import pipeline_mlir as pm

Vec = pm.memref((None,), pm.i32)
Mat = pm.memref((None, 4), pm.i32)


@pm.kernel
def scale_rows(src: Mat, dst: Vec, factor: pm.i32):
    """dst[i] = factor * (src[i, 0] + src[i, 3]) for every row i of src;
    one thread per row, rows from the dynamic size."""
    i = pm.block_id() * 128 + pm.thread_id()
    with pm.if_(i < src.dim(0)):
        dst[i] = (src[i, 0] + src[i, 3]) * factor
