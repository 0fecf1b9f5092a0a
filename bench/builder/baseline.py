#!/usr/bin/env python3
"""Writes the MLIR text of every pm.gemm and pm.attention variant as the
project's text generators made them at git revision REV (before the kernels
became builder programs), for bench/builder/run.py to time against the
builder programs in one run:

    /usr/bin/python3 bench/builder/baseline.py --rev REV --out DIR

DIR/gemm/<variant>.mlir and DIR/attention/d<D>[_causal]_<variant>.mlir; the
variant lists are those of the current package (matmul.CONFIGS,
attention_fwd.configs()), generated with the options of REV's tables;
GEMM variants with options REV's generator lacks are skipped.
"""
import argparse
import importlib.util
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))


def _old_module(rev, path, name):
    """The file `path` of revision `rev`, imported as a module."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                          capture_output=True, text=True).stdout
    tmp = pathlib.Path(tempfile.mkdtemp()) / f"{name}.py"
    tmp.write_text(text)
    spec = importlib.util.spec_from_file_location(name, tmp)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    from pipeline_mlir import attention_fwd, matmul
    gemm = _old_module(args.rev, "python/pipeline_mlir/gemm_sm90.py", "old_gemm_sm90")
    att = _old_module(args.rev, "python/pipeline_mlir/attention_sm90.py", "old_attention_sm90")
    out = pathlib.Path(args.out)
    (out / "gemm").mkdir(parents=True, exist_ok=True)
    (out / "attention").mkdir(parents=True, exist_ok=True)
    for label, cfg in matmul.CONFIGS.items():
        try:
            text, smem = gemm.generate(**cfg)
        except TypeError:  # an option REV's generator did not have
            print(f"skipped {label}: REV's generator has no option of {cfg}")
            continue
        (out / "gemm" / f"{label}.mlir").write_text(text)
    for d, causal, variant in attention_fwd.configs():
        options = dict(attention_fwd.VARIANTS[variant])
        options.setdefault("stages", 2)
        text, smem = att.generate(head_dim=d, causal=causal, **options)
        name = f"d{d}{'_causal' if causal else ''}_{variant}.mlir"
        (out / "attention" / name).write_text(text)
    n = len(os.listdir(out / "gemm")) + len(os.listdir(out / "attention"))
    print(f"wrote {n} baseline kernels of {args.rev} to {out}")


if __name__ == "__main__":
    main()
