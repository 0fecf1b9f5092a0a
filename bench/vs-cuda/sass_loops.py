#!/usr/bin/env python3
"""Loops of a `cuobjdump --dump-sass` listing, per kernel.

For every kernel: the instruction count, every local-memory instruction
(LDL, STL, or any opcode with LOCAL), every barrier instruction (BAR*,
SYNCS*, MEMBAR, WARPSYNC, ...), and every backward branch as a loop
[target, branch]: its size in instructions, and the opcodes inside with
their counts. A wait that retries out of line shows up as a backward branch
from code placed after the loop into the loop's body; such ranges are
marked `out-of-line`: they contain the branch that closes another range.

Usage: sass_loops.py FILE.sass [--kernel SUBSTRING] [--listing | --summary]
  --listing  also print each loop's instructions
  --summary  one markdown row per steady-state item loop instead: the
             backward-branch ranges that hold an mbarrier arrive and are not
             out-of-line; role producer when the range stores to shared
             memory (STS), consumer when it loads (LDS); items per iteration =
             arrives in the range; `retry` inline when the range holds the
             wait's NANOSLEEP.SYNCS retry, else out-of-line; S2R/S2UR:
             special-register reads in the range (e.g. SR_CgaCtaId, read
             to rebuild a shared-memory address)
"""

import argparse
import re
import sys

FUNC = re.compile(r"^\s*Function\s*:\s*(\S+)")
INSN = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
TARGET = re.compile(r"\bBRA(?:\.[A-Z0-9.]+)?\s+(?:`\()?(0x[0-9a-f]+)")
BARRIER = re.compile(
    r"^(BAR|SYNCS|MEMBAR|WARPSYNC|BSYNC|BSSY|ERRBAR|DEPBAR|CCTL|FENCE)")


def opcode(text):
    """The opcode of an instruction text, without its predicate."""
    parts = text.split()
    if parts and parts[0].startswith("@"):
        parts = parts[1:]
    return parts[0] if parts else ""


def parse(path):
    kernels = {}
    name = None
    with open(path) as f:
        for line in f:
            m = FUNC.match(line)
            if m:
                name = m.group(1)
                kernels[name] = []
                continue
            m = INSN.match(line)
            if m and name is not None:
                kernels[name].append((int(m.group(1), 16), m.group(2)))
    return kernels


def report(name, insns, listing):
    print(f"== {name}: {len(insns)} instructions")
    local = [(a, t) for a, t in insns
             if opcode(t) in ("LDL", "STL") or "LOCAL" in opcode(t)
             or opcode(t).startswith(("LDL.", "STL."))]
    print(f"   local memory: {len(local)} instruction(s)"
          + "".join(f"\n     {a:#06x}  {t}" for a, t in local))
    bars = [(a, t) for a, t in insns if BARRIER.match(opcode(t))]
    print(f"   barrier-type instructions: {len(bars)}")
    for a, t in bars:
        print(f"     {a:#06x}  {t}")
    index = {a: i for i, (a, _) in enumerate(insns)}
    loops = []
    for i, (a, t) in enumerate(insns):
        m = TARGET.search(t)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target <= a and target in index:
            loops.append((index[target], i))
    for lo, hi in loops:
        body = insns[lo:hi + 1]
        closes = [(l2, h2) for l2, h2 in loops
                  if (l2, h2) != (lo, hi) and lo <= h2 <= hi and l2 < lo]
        kind = "out-of-line (closes a range that starts earlier)" if closes \
            else ""
        counts = {}
        for _, t in body:
            counts[opcode(t)] = counts.get(opcode(t), 0) + 1
        ops = ", ".join(f"{k} x{v}" if v > 1 else k
                        for k, v in sorted(counts.items()))
        print(f"   loop {insns[lo][0]:#06x}..{insns[hi][0]:#06x}: "
              f"{len(body)} instructions {kind}")
        print(f"     opcodes: {ops}")
        if listing:
            for a, t in body:
                print(f"       {a:#06x}  {t}")


def loops_of(insns):
    index = {a: i for i, (a, _) in enumerate(insns)}
    loops = []
    for i, (a, t) in enumerate(insns):
        m = TARGET.search(t)
        if m:
            target = int(m.group(1), 16)
            if target <= a and target in index:
                loops.append((index[target], i))
    return loops


def summary(name, insns):
    loops = loops_of(insns)
    local = sum(1 for _, t in insns if opcode(t) in ("LDL", "STL")
                or opcode(t).startswith(("LDL.", "STL.")))
    for lo, hi in loops:
        if any(l2 < lo <= h2 <= hi for l2, h2 in loops if (l2, h2) != (lo, hi)):
            continue  # out-of-line retry returning into a loop body
        ops = [opcode(t) for _, t in insns[lo:hi + 1]]
        arrives = sum(o.startswith("SYNCS.ARRIVE") for o in ops)
        if not arrives:
            continue
        role = "producer" if "STS" in ops else "consumer" if "LDS" in ops \
            else "?"
        bars = sorted({o for o in ops if BARRIER.match(o)
                       or o.startswith("NANOSLEEP")})
        retry = "inline" if any(o.startswith("NANOSLEEP") for o in ops) \
            else "out-of-line"
        n = hi - lo + 1
        sregs = sum(o in ("S2R", "S2UR") for o in ops)
        print(f"| {name} | {role} | {n} | {arrives} | {n / arrives:.1f} | "
              f"{retry} | {sregs} | {', '.join(bars)} | {local} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sass")
    ap.add_argument("--kernel", default="")
    ap.add_argument("--listing", action="store_true")
    ap.add_argument("--summary", action="store_true")
    args = ap.parse_args()
    try:
        kernels = parse(args.sass)
    except OSError as e:
        print(f"error: cannot read {args.sass}: {e.strerror}", file=sys.stderr)
        return 1
    if not kernels:
        print(f"error: no kernel found in {args.sass}", file=sys.stderr)
        return 1
    if args.summary:
        print("| kernel | role | loop instructions | items per iteration | "
              "instructions per item | wait retry | S2R/S2UR in the loop | "
              "barrier-type opcodes in the loop | LDL/STL in the kernel |")
        print("|---|---|---|---|---|---|---|---|---|")
    for name in sorted(kernels):
        if args.kernel in name:
            if args.summary:
                summary(name, kernels[name])
            else:
                report(name, kernels[name], args.listing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
