#!/usr/bin/env python3
"""Scaling benchmark of pipeline-verify-linearity (docs/verifier.md).

For each shape (gen.py: funcs, single, cfg) and size (10k, 100k, 1M ops)
it generates a module, then runs, REPEAT times each,

  pipeline-opt FILE -o /dev/null                             (baseline)
  pipeline-opt FILE -pipeline-verify-linearity -o /dev/null  (with the pass)

under /usr/bin/time -v with -mlir-timing, and prints a markdown table:
the parser time and the pass time from -mlir-timing (best of REPEAT), the
pass time per op, the peak RSS of both runs (max of REPEAT), and the work
units per op: the sum of the counters the pass reports with report-work
(ops visited, handles, state changes, log entries read, CFG blocks, edge
state entries) divided by the op count, which is independent of the machine.

Usage: run.py [--pipeline-opt PATH] [--sizes 1e4,1e5,1e6]
              [--shapes funcs,single,cfg] [--repeat 3] [--keep DIR]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run_once(opt, path, with_pass, report_work=False):
    cmd = ["/usr/bin/time", "-v", opt, path, "-o", "/dev/null",
           "-mlir-timing", "-mlir-timing-display=list"]
    if with_pass:
        cmd.insert(3, "-pipeline-verify-linearity" +
                   ("=report-work" if report_work else ""))
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), res.stderr[-2000:]))
    err = res.stderr

    def timing(name):
        m = re.search(r"^\s*([0-9.]+) \([ 0-9.]+%\)\s+" + name + r"\s*$",
                      err, re.M)
        return float(m.group(1)) if m else 0.0

    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)",
                        err).group(1))
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): "
                     r"(?:(\d+):)?(\d+):([0-9.]+)", err)
    seconds = (int(wall.group(1) or 0) * 3600 + int(wall.group(2)) * 60 +
               float(wall.group(3)))
    work = 0
    m = re.search(r"stage linearity work: ops (\d+), handles (\d+), "
                  r"state-changes (\d+), log-scans (\d+), cfg-blocks (\d+), "
                  r"edge-entries (\d+)", err)
    if m:
        work = sum(int(g) for g in m.groups())
    return {
        "work": work,
        "parser": timing("Parser"),
        "pass": timing("PipelineVerifyLinearity"),
        "rss_mib": rss / 1024.0,
        "wall": seconds,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--pipeline-opt",
                    default=os.path.join(HERE, "..", "..", "build", "bin",
                                         "pipeline-opt"))
    ap.add_argument("--sizes", default="1e4,1e5,1e6")
    ap.add_argument("--shapes", default="funcs,single,cfg")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="directory to keep the generated modules")
    args = ap.parse_args()

    opt = os.path.abspath(args.pipeline_opt)
    workdir = args.keep or tempfile.mkdtemp(prefix="linearity-bench-")
    os.makedirs(workdir, exist_ok=True)
    sys.path.insert(0, HERE)
    import gen

    print("| shape | ops | parse (s) | verify-linearity (s) | ns/op "
          "| pass/parse | work/op | wall w/o pass (s) | wall with pass (s) "
          "| peak RSS w/o pass (MiB) | peak RSS with pass (MiB) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for shape in args.shapes.split(","):
        for size in args.sizes.split(","):
            n = int(float(size))
            path = os.path.join(workdir, "%s-%d.mlir" % (shape, n))
            text = gen.generate(shape, n)
            ops = int(re.search(r"^// (\d+) ops", text, re.M).group(1))
            with open(path, "w") as f:
                f.write(text)
            base = [run_once(opt, path, False) for _ in range(args.repeat)]
            full = [run_once(opt, path, True) for _ in range(args.repeat)]
            parse = min(r["parser"] for r in base + full)
            pas = min(r["pass"] for r in full)
            print("| %s | %d | %.3f | %.4f | %.0f | %.1f%% | %.2f | %.2f "
                  "| %.2f | %.0f | %.0f |" % (
                      shape, ops, parse, pas, pas / ops * 1e9,
                      100.0 * pas / parse,
                      run_once(opt, path, True, True)["work"] / ops,
                      min(r["wall"] for r in base),
                      min(r["wall"] for r in full),
                      max(r["rss_mib"] for r in base),
                      max(r["rss_mib"] for r in full)))
            sys.stdout.flush()
            if not args.keep:
                os.remove(path)


if __name__ == "__main__":
    main()
