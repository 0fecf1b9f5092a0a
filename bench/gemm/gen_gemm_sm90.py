#!/usr/bin/env python3
"""Writes examples/gemm_sm90.mlir or a variant of it: the command form of
the generator in python/pipeline_mlir/gemm_sm90.py (options: --help).

  python3 bench/gemm/gen_gemm_sm90.py            # -> examples/gemm_sm90.mlir
  python3 bench/gemm/gen_gemm_sm90.py --bn 128 --stages 5 --epi-subtiles 2 -o /tmp/k.mlir
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python", "pipeline_mlir"))
import gemm_sm90  # noqa: E402  (the module alone: no compiler, no numpy needed)

if __name__ == "__main__":
    argv = sys.argv[1:]
    if "-o" not in argv and "--output" not in argv and "--print-smem" not in argv:
        argv += ["-o", os.path.join(HERE, "..", "..", "examples", "gemm_sm90.mlir")]
    gemm_sm90.main(argv)
