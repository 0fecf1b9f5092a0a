#!/usr/bin/env python3
"""Writes examples/gemm_sm90.mlir or a variant of it: a thin wrapper of the
builder program python/pipeline_mlir/kernels/gemm_sm90.py, which is also a
command (`python3 -m pipeline_mlir.kernels.gemm_sm90`; options: --help).

  python3 bench/gemm/gen_gemm_sm90.py            # -> examples/gemm_sm90.mlir
  python3 bench/gemm/gen_gemm_sm90.py --bn 128 --stages 5 --epi-subtiles 2 -o /tmp/k.mlir
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from pipeline_mlir.kernels import gemm_sm90  # noqa: E402

if __name__ == "__main__":
    argv = sys.argv[1:]
    if "-o" not in argv and "--output" not in argv and "--print-smem" not in argv:
        # The example file, with its comment header.
        argv += ["--example", "-o", os.path.join(HERE, "..", "..", "examples", "gemm_sm90.mlir")]
    gemm_sm90.main(argv)
