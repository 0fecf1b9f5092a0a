#!/usr/bin/env python3
"""TFLOP/s per size from gemm-bench's CSV: bars at the median, whiskers from
the minimum to the maximum over the timed batches, one bar per kernel.

  python3 plot.py gemm.csv gemm.png     # matplotlib, if installed
  python3 plot.py gemm.csv gemm.svg     # or without matplotlib: a plain SVG
"""
import csv
import sys


def load(path):
    rows = list(csv.DictReader(open(path)))
    sizes, kernels = [], []
    for r in rows:
        if r["size"] not in sizes:
            sizes.append(r["size"])
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    data = {(r["size"], r["kernel"]): r for r in rows}
    return sizes, kernels, data


COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]


def plot_matplotlib(sizes, kernels, data, out, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    width = 0.8 / len(kernels)
    fig, ax = plt.subplots(figsize=(9, 4.8))
    for j, k in enumerate(kernels):
        xs, ys, lo, hi = [], [], [], []
        for i, s in enumerate(sizes):
            r = data.get((s, k))
            if not r:
                continue
            med = float(r["tflops_median"])
            xs.append(i + (j - (len(kernels) - 1) / 2) * width)
            ys.append(med)
            lo.append(med - float(r["tflops_min"]))
            hi.append(float(r["tflops_max"]) - med)
        bars = ax.bar(xs, ys, width, yerr=[lo, hi], capsize=3, label=k,
                      color=COLORS[j % len(COLORS)])
        for x, y in zip(xs, ys):
            ax.text(x, y + 8, f"{y:.0f}", ha="center", va="bottom", fontsize=7)
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([s.replace("x", " x ") for s in sizes])
    ax.set_ylabel("TFLOP/s (median; whiskers: min..max)")
    ax.set_title(title, fontsize=9)
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


def plot_svg(sizes, kernels, data, out, title):
    W, H, left, bottom, top = 900, 480, 70, 60, 40
    ymax = max(float(r["tflops_max"]) for r in data.values()) * 1.15
    plot_h = H - bottom - top
    group_w = (W - left - 20) / len(sizes)
    bar_w = group_w * 0.8 / len(kernels)
    y = lambda v: H - bottom - v / ymax * plot_h
    p = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="11">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W/2}" y="20" text-anchor="middle">{title}</text>']
    step = 100
    v = 0
    while v <= ymax:
        p.append(f'<line x1="{left}" x2="{W-20}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#ddd"/>')
        p.append(f'<text x="{left-6}" y="{y(v)+4:.1f}" text-anchor="end">{v}</text>')
        v += step
    p.append(f'<text x="16" y="{H/2}" transform="rotate(-90 16 {H/2})" text-anchor="middle">TFLOP/s (median, min..max)</text>')
    for i, s in enumerate(sizes):
        gx = left + i * group_w + group_w * 0.1
        p.append(f'<text x="{left + (i + 0.5) * group_w:.1f}" y="{H-bottom+18}" text-anchor="middle">{s}</text>')
        for j, k in enumerate(kernels):
            r = data.get((s, k))
            if not r:
                continue
            med, lo, hi = (float(r[c]) for c in ("tflops_median", "tflops_min", "tflops_max"))
            x = gx + j * bar_w
            c = COLORS[j % len(COLORS)]
            p.append(f'<rect x="{x:.1f}" y="{y(med):.1f}" width="{bar_w*0.9:.1f}" height="{H-bottom-y(med):.1f}" fill="{c}"/>')
            cx = x + bar_w * 0.45
            p.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(lo):.1f}" y2="{y(hi):.1f}" stroke="black"/>')
            p.append(f'<text x="{cx:.1f}" y="{y(hi)-4:.1f}" text-anchor="middle" font-size="9">{med:.0f}</text>')
    for j, k in enumerate(kernels):
        p.append(f'<rect x="{W-200}" y="{40+j*16}" width="10" height="10" fill="{COLORS[j % len(COLORS)]}"/>')
        p.append(f'<text x="{W-185}" y="{49+j*16}">{k}</text>')
    p.append("</svg>")
    open(out, "w").write("\n".join(p) + "\n")


def main():
    src = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 else "gemm.png"
    title = sys.argv[3] if len(sys.argv) > 3 else "bf16 GEMM C = A * B^T (TN), f32 accumulation"
    sizes, kernels, data = load(src)
    try:
        if out.endswith(".svg"):
            raise ImportError
        plot_matplotlib(sizes, kernels, data, out, title)
    except ImportError:
        if not out.endswith(".svg"):
            out = out.rsplit(".", 1)[0] + ".svg"
        plot_svg(sizes, kernels, data, out, title)
    print(f"plot: {out}")


if __name__ == "__main__":
    main()
