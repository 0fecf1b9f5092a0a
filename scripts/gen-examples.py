#!/usr/bin/env python3
"""Writes the showcase examples (examples/*.mlir) from the builder programs
that define them (python/pipeline_mlir/kernels/), so that no example is
written by hand and none goes stale:

  scripts/gen-examples.py            rewrite the examples
  scripts/gen-examples.py --check    fail if one differs from its program
                                     (scripts/test.sh runs this)

Each program's `example()` returns the example's whole text: a comment
header (what the kernel is, its launch, the command that checks it) and the
module, printed without source locations.
"""

import argparse
import difflib
import importlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "python"))

#: examples/<file> <- pipeline_mlir.kernels.<module>.example()
EXAMPLES = {
    "gemm_sm90.mlir": "gemm_sm90",
    "attention_sm90.mlir": "attention_sm90",
    "gemm_sm100.mlir": "gemm_sm100",
    "attention_sm100.mlir": "attention_sm100",
    "sm100_matmul_pipelines.mlir": "sm100_matmul_pipelines",
    "gemm_mxfp8_sm100.mlir": "gemm_block_scaled_sm100",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    stale = []
    for name, module in EXAMPLES.items():
        text = importlib.import_module(f"pipeline_mlir.kernels.{module}").example()
        path = ROOT / "examples" / name
        old = path.read_text() if path.exists() else ""
        if text == old:
            continue
        if args.check:
            stale.append(name)
            diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(),
                                             f"examples/{name}", f"{module}.example()",
                                             lineterm="", n=1))
            print("\n".join(diff[:20]), file=sys.stderr)
        else:
            path.write_text(text)
            print(f"wrote examples/{name}")
    if stale:
        print(f"stale: {', '.join('examples/' + s for s in stale)}: run scripts/gen-examples.py",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
