#!/usr/bin/env python3
"""Plots of the handoff benchmark for docs/benchmarks.md (matplotlib).

  docs/handoff-ns-per-item.png  ns per item over the stage count, one CTA,
                                lane-0 and all-lane signalling (run 2)
  docs/handoff-copy-tbs.png     TB/s per tile shape and stage count of the
                                streaming copy, against cuMemcpyDtoD and the
                                HBM peak (run 1)

The dialect's default build: S = 1 from run 2's `dialect` column, S >= 2
from its `unroll_s` column (the code pipeline-compile emits by default; see
docs/benchmarks.md). Usage: plot.py [RESULTS_DIR] [DOCS_DIR]
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
results = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "results")
docs = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "..", "..", "docs")

handoff = {}
for row in csv.reader(open(os.path.join(results, "run2-bench.csv"))):
    if row[0] != "handoff":
        continue
    _, label, s, mode, grid, med, lo, hi = row[:8]
    handoff[(label, int(s), mode, int(grid))] = (float(med), float(lo), float(hi))

stages = [1, 2, 3, 4, 8]
fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
for ax, mode in zip(axes, ["lane0", "all"]):
    def series(label, fallback=None):
        xs, ys = [], []
        for s in stages:
            key = (label, s, mode, 1)
            if fallback and s >= 2:
                key = (fallback, s, mode, 1)
            if key in handoff:
                xs.append(s)
                ys.append(handoff[key][0])
        return xs, ys
    lines = [
        ("dialect, default (pipeline-unroll-stages)", series("dialect", "unroll_s"), "o-", "C0"),
        ("dialect before (rolled)", series("head"), "o--", "C7"),
        ("hand-written, CUTLASS style, unrolled", series("hand"), "s-", "C1"),
        ("hand-written, addresses in registers", series("handx"), "s-", "C2"),
        ("hand-written, rolled (PipelineState)", series("rolled"), "s:", "C5"),
        ("libcu++ cuda::barrier", series("cubar"), "^-", "C3"),
        ("libcu++ cuda::pipeline", series("cupipe"), "v-", "C4"),
    ]
    for name, (xs, ys), style, color in lines:
        if xs:
            ax.plot(xs, ys, style, color=color, label=name)
    ax.set_xscale("log", base=2)
    ax.set_xticks(stages)
    ax.set_xticklabels([str(s) for s in stages])
    ax.set_xlabel("stages S")
    ax.set_title(f"one CTA, {'lane 0 signals (counts 1)' if mode == 'lane0' else 'every lane signals (counts 32)'}")
    ax.grid(True, alpha=0.3)
axes[0].set_ylabel("ns per item (median of 11)")
axes[0].set_ylim(0, 165)
axes[1].legend(fontsize=7, loc="upper right")
fig.suptitle("One-item handoff ring, 2^20 items, H100 80GB HBM3 (run 2, 2026-11-22)")
fig.tight_layout()
fig.savefig(os.path.join(docs, "handoff-ns-per-item.png"), dpi=110)

copy = []
peak = None
for row in csv.reader(open(os.path.join(results, "run1-bench.csv"))):
    if row[0] != "copy":
        continue
    _, label, tile, med_ms, tbs, lo, hi, frac = row[:8]
    copy.append((label, float(tbs), float(lo), float(hi), float(frac)))
    peak = float(tbs) / float(frac)
shapes = [l[len("dialect "):] for l, *_ in copy if l.startswith("dialect ")]
d = {l: (t, lo, hi) for l, t, lo, hi, _ in copy}
fig, ax = plt.subplots(figsize=(10, 4.2))
x = range(len(shapes))
w = 0.38
for off, who, color in ((-w / 2, "dialect", "C0"), (w / 2, "hand", "C1")):
    vals = [d[f"{who} {s}"] for s in shapes]
    ax.bar([i + off for i in x], [v[0] for v in vals], w, color=color,
           yerr=[[v[0] - v[1] for v in vals], [v[2] - v[0] for v in vals]],
           label="dialect (TMA tile pipeline)" if who == "dialect" else "hand-written TMA ring")
ax.axhline(d["cuMemcpyDtoD"][0], color="C3", ls="--", label=f"cuMemcpyDtoD {d['cuMemcpyDtoD'][0]:.2f}")
ax.axhline(d["vec_copy"][0], color="C5", ls=":", label=f"vectorized copy kernel {d['vec_copy'][0]:.2f}")
ax.axhline(peak, color="k", ls="-", lw=0.8, label=f"HBM peak {peak:.2f}")
ax.set_xticks(list(x))
ax.set_xticklabels([s.replace("_", " ") for s in shapes], fontsize=8)
ax.set_ylabel("TB/s (read + write, median of 11)")
ax.set_ylim(2.0, 3.5)
ax.legend(fontsize=7, loc="lower right")
ax.set_title("Streaming copy of 1 GiB, tile rows x columns of i32, S stages, H100 (run 1, 2026-11-22)")
ax.grid(True, axis="y", alpha=0.3)
fig.tight_layout()
fig.savefig(os.path.join(docs, "handoff-copy-tbs.png"), dpi=110)
print("wrote", os.path.join(docs, "handoff-ns-per-item.png"), os.path.join(docs, "handoff-copy-tbs.png"))
