#!/usr/bin/env python3
"""Compile-time benchmark: times the lowering of N generated kernels
(gen.py) for several N and reports the time per kernel, which should stay
flat as N grows (docs/benchmarks.md, "Compile time").

For every shape (modules: N gpu.modules of one kernel; funcs: one
gpu.module of N kernels) and every N it times, `--reps` times each:

  lower    pipeline-opt --pipeline-lower-to-nvvm           (to NVVM/LLVM)
  ptx      pipeline-opt --pipeline-lower-to-binary=format=isa
           (the same lowering plus LLVM's NVPTX backend: what
           pipeline-compile does before it runs ptxas)
  compile  pipeline-compile -o (PTX and cubin), funcs shape only (one
           gpu.module, so one ptxas run; the modules shape would run ptxas
           N times), and ptxas alone on the PTX it wrote, so that the
           lowering's part is compile - ptxas

  parse    pipeline-opt alone (parse, verify, print): the floor of the
           two checker steps below
  protocol pipeline-opt --pipeline-verify-protocol
  linearity pipeline-opt --pipeline-verify-linearity

The `triplets` shape (gen.py) is one kernel of N acquire_producer / arrive /
release triplets and N consume regions: with the checker steps it shows
whether a checker stays linear in the size of one kernel (`kernels` is N
there).

Each time is the wall time and the CPU time (user + system) of the child;
on a shared machine the CPU time is the steadier one. Prints a table and
writes it, with the raw times, to --out (JSON and Markdown).

After the table it prints, per shape and step, the CPU ms per kernel at
the largest size over that at the smallest, and for each step up in size
the CPU time ratio over the size ratio (1.00 = exactly linear).

Usage: run.py [--build build] [--sizes 1000,2000,4000,8000,16000]
              [--reps 3] [--shapes modules,funcs,triplets]
              [--kernel ring|store]
              [--steps lower,ptx,compile,parse,protocol,linearity]
              [--chip sm_90a] [--out DIR]
"""

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def timed(cmd):
    """Runs cmd; returns (wall seconds, CPU seconds of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit("run.py: %s failed (exit %d):\n%s" %
                 (" ".join(cmd), proc.returncode, proc.stderr[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime -
                                                 before.ru_stime)
    return wall, cpu


def linearity(rows):
    """Per shape and step: ms/kernel at the largest N over the smallest
    (1.00: linear), and the time ratio of each step up in N over the ratio
    of the N (1.00: linear)."""
    lines = []
    groups = {}
    for r in rows:
        groups.setdefault((r["shape"], r["step"]), []).append(
            (r["kernels"], r["cpu"]["median"]))
    for (shape, step), points in groups.items():
        points.sort()
        if len(points) < 2:
            continue
        (n0, t0), (n1, t1) = points[0], points[-1]
        steps = ", ".join(
            "%d->%d x%.2f" % (na, nb, (tb / ta) / (nb / na))
            for (na, ta), (nb, tb) in zip(points, points[1:]))
        lines.append("%s %s: %.2f ms/kernel at %d, %.2f at %d (x%.2f); "
                     "time ratio over size ratio: %s" %
                     (shape, step, 1000 * t0 / n0, n0, 1000 * t1 / n1, n1,
                      (t1 / n1) / (t0 / n0), steps))
    return lines


def summary(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="1000,2000,4000,8000,16000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--shapes", default="modules,funcs")
    ap.add_argument("--steps", default="lower,ptx,compile")
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("--kernel", default="ring", choices=("ring", "store"),
                    help="gen.py's kernel")
    ap.add_argument("--cuda-path", default=os.environ.get(
        "CUDA_HOME", "/usr/local/cuda"))
    ap.add_argument("--label", default="",
                    help="name of this run in the output files")
    ap.add_argument("--out", default=os.path.join(HERE, "results"))
    args = ap.parse_args()

    opt = os.path.join(args.build, "bin", "pipeline-opt")
    compiler = os.path.join(args.build, "bin", "pipeline-compile")
    ptxas = os.path.join(args.cuda_path, "bin", "ptxas")
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    steps = args.steps.split(",")
    for s in shapes:
        if s not in ("modules", "funcs", "triplets"):
            sys.exit("run.py: unknown shape '%s'" % s)
    for s in steps:
        if s not in ("lower", "ptx", "compile", "parse", "protocol",
                     "linearity"):
            sys.exit("run.py: unknown step '%s'" % s)

    rows = []
    with tempfile.TemporaryDirectory(prefix="pipeline-compile-time") as tmp:
        for shape in shapes:
            for n in sizes:
                src = os.path.join(tmp, "%s%d.mlir" % (shape, n))
                with open(src, "w") as f:
                    subprocess.run([sys.executable,
                                    os.path.join(HERE, "gen.py"), shape,
                                    str(n), "--kernel", args.kernel],
                                   stdout=f, check=True)
                cmds = {}
                if "lower" in steps:
                    cmds["lower"] = [opt, src, "--pipeline-lower-to-nvvm=chip=" +
                                     args.chip, "-o", os.devnull]
                if "ptx" in steps:
                    cmds["ptx"] = [opt, src,
                                   "--pipeline-lower-to-binary=chip=%s "
                                   "format=isa" % args.chip, "-o", os.devnull]
                if "parse" in steps:
                    cmds["parse"] = [opt, src, "-o", os.devnull]
                if "protocol" in steps:
                    cmds["protocol"] = [opt, src, "--pipeline-verify-protocol",
                                        "-o", os.devnull]
                if "linearity" in steps:
                    cmds["linearity"] = [opt, src,
                                         "--pipeline-verify-linearity", "-o",
                                         os.devnull]
                out = os.path.join(tmp, "out")
                if "compile" in steps and shape == "funcs":
                    cmds["compile"] = [compiler, src, "--chip=" + args.chip,
                                       "-o", out]
                    cmds["ptxas"] = [ptxas, "-arch=" + args.chip, "-O3",
                                     out + ".ptx", "-o",
                                     os.path.join(tmp, "ptxas.cubin")]
                times = {k: [] for k in cmds}
                for _ in range(args.reps):
                    for step, cmd in cmds.items():
                        times[step].append(timed(cmd))
                for step in cmds:
                    wall = [w for w, _ in times[step]]
                    cpu = [c for _, c in times[step]]
                    row = {"shape": shape, "kernels": n, "step": step,
                           "wall": summary(wall), "cpu": summary(cpu),
                           "raw_wall": wall, "raw_cpu": cpu}
                    rows.append(row)
                    print("%-7s %6d %-8s wall %8.2f s [%.2f-%.2f]  cpu %8.2f s"
                          "  %6.2f ms/kernel (cpu)" %
                          (shape, n, step, row["wall"]["median"],
                           row["wall"]["min"], row["wall"]["max"],
                           row["cpu"]["median"],
                           1000 * row["cpu"]["median"] / n), flush=True)
                os.remove(src)

    growth = linearity(rows)
    for line in growth:
        print(line)

    os.makedirs(args.out, exist_ok=True)
    name = "compile-time" + ("-" + args.label if args.label else "")
    meta = {"machine": platform.machine(), "cpus": os.cpu_count(),
            "kernel": args.kernel,
            "system": platform.platform(), "reps": args.reps,
            "chip": args.chip, "date": time.strftime("%Y-%m-%d %H:%M UTC",
                                                     time.gmtime())}
    with open(os.path.join(args.out, name + ".json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    with open(os.path.join(args.out, name + ".md"), "w") as f:
        # The triplets shape is its own kernel; --kernel picks the others'.
        kernels = sorted({"triplets" if s == "triplets" else args.kernel
                          for s in args.shapes.split(",")})
        f.write("%s, %d CPUs, %s; kernel %s; %d reps; median [min-max]\n\n" %
                (meta["machine"], meta["cpus"], meta["date"], ", ".join(kernels),
                 args.reps))
        f.write("| shape | kernels | step | wall s | CPU s | CPU ms/kernel "
                "|\n|---|---:|---|---|---|---:|\n")
        for r in rows:
            f.write("| %s | %d | %s | %.2f [%.2f-%.2f] | %.2f [%.2f-%.2f] | "
                    "%.2f |\n" %
                    (r["shape"], r["kernels"], r["step"], r["wall"]["median"],
                     r["wall"]["min"], r["wall"]["max"], r["cpu"]["median"],
                     r["cpu"]["min"], r["cpu"]["max"],
                     1000 * r["cpu"]["median"] / r["kernels"]))
        f.write("\n" + "\n".join("- " + line for line in growth) + "\n")


if __name__ == "__main__":
    main()
