"""The command line every kernel program shares:

    python3 -m pipeline_mlir.kernels.<program> [options] [--example]
        [--no-locations] [--print-smem] [-o FILE]

`parser(doc)` makes the parser with the common options; the program adds
its own and calls `run(args, make)`, where `make(args)` returns the module's
text and its dynamic shared memory in bytes (ValueError: an invalid
option, reported as the command's error)."""

import argparse
import os
import sys
from typing import Callable, Tuple


def parser(doc: str) -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", help="the output file (default: stdout)")
    ap.add_argument("--example", action="store_true",
                    help="the shipped example's text (its options, its comment header, "
                         "no source locations)")
    ap.add_argument("--no-locations", action="store_true",
                    help="print the module without source locations")
    ap.add_argument("--print-smem", action="store_true",
                    help="print the dynamic shared memory bytes and exit")
    return ap


def run(args: argparse.Namespace, make: Callable[[argparse.Namespace], Tuple[str, int]]) -> None:
    try:
        text, smem = make(args)
    except ValueError as e:
        raise SystemExit(str(e))
    if args.print_smem:
        print(smem)
        return
    if args.output is None:
        sys.stdout.write(text)
        return
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {os.path.normpath(args.output)} (dynamic shared memory {smem} B)",
          file=sys.stderr)
