"""Compiles every kernel the GPU tests launch into the compile cache named
by PIPELINE_MLIR_TEST_CACHE, so that a machine without the compiler (only a
GPU driver and Python with numpy) can run them:

    PIPELINE_MLIR_TEST_CACHE=/tmp/kernels /usr/bin/python3 python/tests/fill_cache.py
    # copy /tmp/kernels and python/ to the GPU machine, then there:
    PIPELINE_MLIR_TEST_CACHE=/tmp/kernels python3 -m pytest python/tests/test_gpu.py
"""

import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "python"), str(ROOT / "python" / "examples")]

import pipeline_mlir as pm  # noqa: E402
import gemm  # noqa: E402
import gemm_builder  # noqa: E402
import attention_builder  # noqa: E402
import handoff_ring  # noqa: E402
import tma_copy  # noqa: E402
sys.path.insert(0, str(ROOT / "python" / "tests"))
import dynamic_shapes  # noqa: E402
import hanging  # noqa: E402
import role_warps  # noqa: E402
import summing_ring  # noqa: E402

os.environ["PIPELINE_MLIR_CACHE"] = os.environ["PIPELINE_MLIR_TEST_CACHE"]
for what, chip in ((handoff_ring.handoff_ring, "sm_90a"), (handoff_ring.handoff_ring, "sm_100a"),
                   (tma_copy.tma_copy, "sm_90a"), (gemm.load(), "sm_90a"),
                   (dynamic_shapes.scale_rows, "sm_90a"),
                   (summing_ring.summing_ring, "sm_90a"),
                   (role_warps.fourth_warp_producer, "sm_90a"),
                   (gemm_builder.gemm_bf16, "sm_90a")):
    mod = pm.compile(what, chip=chip)
    print(f"{mod.name} {chip}: {'cached' if mod.cached else 'compiled'} ({len(mod.cubin)} B)")
# pm.gemm's variants.
from pipeline_mlir import matmul  # noqa: E402
for label in matmul.CONFIGS:
    kernel, smem = matmul._kernel(label)
    print(f"gemm {label} sm_90a: compiled or cached ({smem} B of shared memory)")
# pm.scaled_mm's variants (the FP8 GEMM).
from pipeline_mlir import fp8_gemm  # noqa: E402
for label in fp8_gemm.CONFIGS:
    kernel, smem = fp8_gemm._kernel(label)
    print(f"scaled_mm {label} sm_90a: compiled or cached ({smem} B of shared memory)")
mod = pm.compile(hanging.starved_consumer, **hanging.OPTIONS)
print(f"{mod.name} hang report: {'cached' if mod.cached else 'compiled'} ({len(mod.cubin)} B)")
# The attention written with the builder.
for d in (64, 128):
    for causal in (False, True):
        kernel, _ = attention_builder.make_kernel(d, causal)
        mod = pm.compile(kernel, chip="sm_90a")
        print(f"{mod.name} sm_90a: {'cached' if mod.cached else 'compiled'}")
# pm.attention's variants.
from pipeline_mlir import attention_fwd  # noqa: E402
for key in attention_fwd.configs():
    kernel, smem = attention_fwd._kernel(key)
    print(f"attention head_dim {key[0]} causal {key[1]} {key[2]} sm_90a: compiled or cached "
          f"({smem} B of shared memory)")
# The emulator's outputs for test_gpu.py::test_gpu_matches_emulator (the
# same kernels, run here on the CPU from the inputs the GPU test reuses).
import emulated_cases  # noqa: E402
emulated_cases.store(pathlib.Path(os.environ["PIPELINE_MLIR_TEST_CACHE"]) / "emulated")
