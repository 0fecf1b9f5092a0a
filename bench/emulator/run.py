#!/usr/bin/env python3
"""The data emulator's speed: each example kernel run in pipeline-sim with
its data at a few sizes, the simulator's wall time, the PTX instructions it
executed and the multiply-adds of the MMAs, and whether the output matched
the float64 reference (test/Sim/check_data.py does the run and the check).

    /usr/bin/python3 bench/emulator/run.py [--build build] [--out results.md]

A benchmark, not a test: the test command runs the same kernels at their
smallest sizes (test/Sim/data-*.test) for correctness only.
"""

import argparse
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]

# (example, chip, check_data kind, shape options, multiply-adds)
RUNS = [
    ("gemm_sm100", "sm_100a", "gemm100", dict(M=512, N=256, K=256)),
    ("gemm_sm100", "sm_100a", "gemm100", dict(M=1024, N=512, K=448)),
    ("gemm_sm90", "sm_90a", "gemm90", dict(M=256, N=512, K=256)),
    ("gemm_sm90", "sm_90a", "gemm90", dict(M=512, N=512, K=512)),
    ("attention_sm100", "sm_100a", "att100", dict(batch=2, heads=2, seqlen=300)),
    ("attention_sm90", "sm_90a", "att90", dict(batch=2, heads=2, seqlen=300)),
]


def macs(kind, o):
    if kind.startswith("gemm"):
        return o["M"] * o["N"] * o["K"]
    s = o["seqlen"]
    return 2 * o["batch"] * o["heads"] * s * s * 128  # Q K^T and P V, d 128


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=str(ROOT / "build"))
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    build = pathlib.Path(args.build)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for i, (example, chip, kind, opts) in enumerate(RUNS):
            ptx = tmp / f"{example}.ptx"
            if not ptx.exists():
                subprocess.run([str(build / "bin" / "pipeline-compile"),
                                str(ROOT / "examples" / f"{example}.mlir"), f"--chip={chip}",
                                "--emit=ptx", "-o", str(ptx)], check=True)
            cmd = [sys.executable, str(ROOT / "test" / "Sim" / "check_data.py"), "--sim",
                   str(build / "bin" / "pipeline-sim"), "--ptx", str(ptx), "--out",
                   str(tmp / f"run{i}"), kind, "--time"]
            for k, v in opts.items():
                cmd += [f"--{k.lower()}" if k not in "MNK" else f"--{k}", str(v)]
            p = subprocess.run(cmd, capture_output=True, text=True)
            out = p.stdout + p.stderr
            seconds = float(re.search(r"sim-seconds: ([0-9.]+)", out).group(1))
            instr = int(re.search(r"completed, (\d+) instructions", out).group(1))
            ok = "PASS" if p.returncode == 0 else "FAIL"
            shape = " ".join(f"{k}={v}" for k, v in opts.items())
            rows.append((example, shape, instr, macs(kind, opts), seconds, ok))
            print(f"{example} {shape}: {seconds:.2f} s, {instr} instructions, "
                  f"{instr / seconds / 1e6:.2f} M instructions/s, {ok}", flush=True)
    lines = ["| kernel | size | PTX instructions | MMA multiply-adds | wall time | "
             "instructions/s | vs float64 |", "|---|---|---|---|---|---|---|"]
    for example, shape, instr, m, s, ok in rows:
        lines.append(f"| {example} | {shape} | {instr:,} | {m / 1e6:.0f} M | {s:.2f} s | "
                     f"{instr / s / 1e6:.2f} M | {ok} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    return 0 if all(r[-1] == "PASS" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
