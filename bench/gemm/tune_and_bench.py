#!/usr/bin/env python3
"""Tunes pipeline_mlir.gemm's table on this device and benchmarks with it,
in one process: runs `bench_pm_gemm.py --tune` (its output to TUNE_LOG),
puts the printed table in place of the device's table (pm.matmul.table),
then runs the benchmark. For a device whose table is being (re)made:

    PIPELINE_MLIR_CACHE=... python3 bench/gemm/tune_and_bench.py TUNE_LOG [--reps 5]
"""
import contextlib
import io
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
from pipeline_mlir import matmul  # noqa: E402

BENCH = os.path.join(HERE, "bench_pm_gemm.py")


def run(argv):
    sys.argv = [BENCH] + argv
    try:
        runpy.run_path(BENCH, run_name="__main__")
    except SystemExit as e:
        if e.code:
            raise


def main():
    log, tune_args = sys.argv[1], sys.argv[2:]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(["--tune"] + tune_args)
    text = out.getvalue()
    with open(log, "w") as f:
        f.write(text)
    block = text[text.index("TUNED = {") + len("TUNED = "):]
    tuned = eval(block[:block.index("}") + 1])  # the table the tune printed
    table = matmul.table()
    table.clear()
    table.update(tuned)
    matmul.choose.cache_clear()
    run(["--reps", "10", "--batch", "20"])


if __name__ == "__main__":
    main()
