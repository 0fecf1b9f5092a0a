#!/usr/bin/env python3
"""Compiles the GPU test kernels (test/Integration/GPU) for one chip and runs
each with pipeline-sim, with the launch its host program uses (item counts
reduced), under the round-robin schedule and two seeded random ones. Prints
one line per run, then "all completed" when every run completed."""

import argparse
import os
import subprocess
import sys

# (file, kernel, label, sim arguments): the hosts' launches
# (test/Integration/GPU/host/*.cpp).
RUNS = [
    *[("basic", f"basic_s{s}", f"basic_s{s} n={n}",
       ["--block=64", "--arg=buf:131072", "--arg=buf:4096", f"--arg={n}"])
      for s in (1, 2, 3, 4, 8) for n in (101,)],
    *[("basic", "basic_s2", f"basic_s2 n={n}",
       ["--block=64", "--arg=buf:131072", "--arg=buf:4096", f"--arg={n}"]) for n in (0, 1, 7)],
    ("multi_warp", "multi_warp", "multi_warp n=64",
     ["--block=160", "--arg=buf:1000000", "--arg=64"]),
    ("explicit", "explicit", "explicit n=64", ["--block=64", "--arg=buf:200000", "--arg=64"]),
    *[("throttle", f"throttle_s{s}", f"throttle_s{s} n=100",
       ["--block=64", "--arg=buf:16384", "--arg=buf:16384", "--arg=100", "--arg=0"])
      for s in (1, 4)],
    *[("try_acquire", k, f"{k} n=64",
       ["--block=64", "--arg=buf:40000", "--arg=buf:256", "--arg=64", "--arg=0"])
      for k in ("try_direct", "try_handles")],
    # A 32x32 int32 box (4096 bytes); 3 stages of k tiles.
    *[("tma_tile", f"tma_tile_k{k}", f"tma_tile_k{k}",
       ["--block=64", f"--smem={256 + 3 * k * 32 * 32 * 4}", "--arg=tmap:4096",
        "--arg=buf:131072"]) for k in (1, 2)],
    # 8 clusters of 2; each CTA loads half a tile (16x32 int32, 2048 bytes)
    # multicast to both.
    ("cluster", "cluster_multicast", "cluster_multicast",
     ["--grid=16", "--cluster=2", "--block=64", f"--smem={256 + 2 * 32 * 32 * 4}",
      "--arg=tmap:2048", "--arg=buf:2097152"]),
    # 4 clusters of 2 x 2 (the cross); A and B boxes 16x32 int32 (2048
    # bytes), each multicast to 2 CTAs.
    ("cluster", "cluster_cross", "cluster_cross",
     ["--grid=16", "--cluster=4", "--block=64", f"--smem={256 + 2 * 2 * 32 * 32 * 4}",
      "--arg=tmap:2048", "--arg=tmap:2048", "--arg=buf:4194304"]),
    ("stress", "stress", "stress blocks=4 n=300",
     ["--grid=4", "--block=64", "--smem=512", "--arg=buf:40000", "--arg=buf:512", "--arg=300"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim", required=True)
    ap.add_argument("--compile", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--chip", required=True)
    ap.add_argument("--schedules", type=int, default=2)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ptx = {}
    ok = True
    for name in sorted({r[0] for r in RUNS}):
        out = os.path.join(args.out, f"{name}.{args.chip}.ptx")
        subprocess.run([args.compile, os.path.join(args.src, f"{name}.mlir"),
                        f"--chip={args.chip}", "--emit=ptx", "--lineinfo", "-o", out],
                       check=True)
        ptx[name] = out
    for name, kernel, label, sim_args in RUNS:
        run = subprocess.run([args.sim, ptx[name], f"--kernel={kernel}",
                              f"--schedules={args.schedules}", *sim_args],
                             capture_output=True, text=True)
        if run.returncode == 0:
            print(f"{label}: completed")
        else:
            ok = False
            print(f"{label}: FAILED\n{run.stdout}{run.stderr}")
    print("all completed" if ok else "some FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
