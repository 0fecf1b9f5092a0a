#!/usr/bin/env python3
"""Deterministic replay of pipeline-fuzz inputs (docs/robustness.md).

Runs every input exactly once, in the order given (a directory stands for
its files, sorted by name), through pipeline-fuzz. libFuzzer, given files
rather than directories, executes each file once ("Running: FILE"), then
exits 0: no mutation, no empty input, no -max_len truncation, nothing
written. With -detect_leaks=0 it does not run an input a second time for
its per-input leak check; LeakSanitizer still checks the process at exit.

A crash, a sanitizer report, a hang (--timeout), an out-of-memory input or
a ptxas rejection (the harness aborts) ends the process with a non-zero
status: the input it was running is recorded as a failure and the replay
goes on with the inputs after it in a new process, so that one run lists
every failing input. A non-zero status after the last input (a leak found
at exit) is a failure too.

The environment is the caller's: scripts/fuzz.sh --replay sets the
sanitizer options (scripts/sanitizer-env.sh) and PIPELINE_FUZZ_LOWER=1,
PIPELINE_FUZZ_PTXAS=1 (every input that passes the checkers is lowered for
sm_90a and sm_100a, and its PTX assembled by ptxas).

usage: replay.py [--timeout SECONDS] [--log FILE] FUZZER INPUT_OR_DIR...
Exit status 1 when any input failed.
"""
import argparse
import os
import re
import subprocess
import sys
import time

RUNNING = re.compile(r"^Running: (.*)$")
EXECUTED = re.compile(r"^Executed (.*) in (\d+) ms$")
DONE = "NOTE: fuzzing was not performed"


def expand(paths):
    inputs = []
    for path in paths:
        if os.path.isdir(path):
            inputs += sorted(os.path.join(path, name) for name in os.listdir(path)
                             if os.path.isfile(os.path.join(path, name)))
        else:
            inputs.append(path)
    return inputs


def summary_line(log):
    for line in log.splitlines():
        if "pipeline-fuzz: ptxas rejected" in line or "SUMMARY:" in line \
                or "==ERROR" in line or "deadly signal" in line \
                or "ALARM: working on the last Unit" in line \
                or "out-of-memory" in line:
            return line.strip()
    return "no sanitizer summary"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds per input before libFuzzer calls it a hang")
    parser.add_argument("--log", help="write libFuzzer's output here")
    parser.add_argument("fuzzer")
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()

    inputs = expand(args.inputs)
    if not inputs:
        print("replay: error: no inputs", file=sys.stderr)
        return 1
    # -detect_leaks=0: libFuzzer's own leak check runs an input a second
    # time when its first run allocated more than it freed (the shared
    # context interns types, so which inputs ran twice varied from run to
    # run). Off, every input runs exactly once; LeakSanitizer still checks
    # the whole process at exit (ASAN_OPTIONS=detect_leaks=1).
    flags = [f"-timeout={args.timeout}", "-rss_limit_mb=4096",
             "-detect_leaks=0", "-print_final_stats=0"]
    stats = os.environ.get("PIPELINE_FUZZ_STATS")
    if stats and os.path.exists(stats):
        os.remove(stats)
    failures = []  # (input, why, log tail)
    times = {}
    executed = 0
    pending = inputs
    logs = []
    start = time.time()
    while pending:
        run = subprocess.run([args.fuzzer, *flags, *pending], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, errors="replace")
        log = run.stdout
        logs.append(log)
        running = None
        for line in log.splitlines():
            if m := RUNNING.match(line):
                running = m.group(1)
            elif m := EXECUTED.match(line):
                times[m.group(1)] = int(m.group(2))
                executed += 1
                running = None
        if run.returncode == 0:
            break
        # The report of the input that failed: what follows its "Running:".
        lines = log.splitlines()
        last = max((i for i, l in enumerate(lines) if RUNNING.match(l)), default=-1)
        tail = "".join("    " + l + "\n" for l in lines[last + 1:][-80:])
        if running is None or running not in pending:
            # Nothing was running: startup failed, or all inputs ran and the
            # process failed at exit (a leak).
            where = "after the last input (at exit)" if DONE in log else "before any input"
            failures.append((where, summary_line(log), tail))
            break
        failures.append((running, summary_line(log), tail))
        pending = pending[pending.index(running) + 1:]

    if args.log:
        with open(args.log, "w") as f:
            f.write("".join(logs))
    elapsed = time.time() - start
    slowest = sorted(times.items(), key=lambda kv: -kv[1])[:3]
    print(f"replay: {len(inputs)} inputs, {executed} ran to the end, "
          f"{len(failures)} failed, {elapsed:.0f} s; slowest: " +
          ", ".join(f"{os.path.basename(p)} {ms} ms" for p, ms in slowest))
    if stats and os.path.exists(stats):
        # One line per process that ended normally ("inputs N parsed N ...");
        # a process that crashed wrote none.
        sums = {}
        with open(stats) as f:
            for line in f:
                words = line.split()
                for key, value in zip(words[::2], words[1::2]):
                    sums[key] = sums.get(key, 0) + int(value)
        print("replay: " + ", ".join(f"{v} {k}" for k, v in sums.items()) +
              (" (not counting the processes that crashed)" if failures else ""))
    for where, why, tail in failures:
        print(f"replay: FAILED: {where}: {why}")
        sys.stdout.write(tail)
    if failures:
        print(f"replay: {len(failures)} failing input(s): " +
              " ".join(os.path.basename(w) for w, _, _ in failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
