#!/usr/bin/env python3
"""Sorts pipeline-fuzz findings into the project's and upstream MLIR's.

Reruns pipeline-fuzz on each artifact (crash-*, timeout-*, oom-*, leak-*,
slow-unit-* are skipped), reads the symbolized stack of the report, and
calls a finding the project's when
  * ptxas rejected PTX the compiler produced without an error, or
  * a frame other than the fuzz harness's own is project code: a function
    in namespace pmlir, or a source file of this tree.
Everything else is upstream (a crash inside Debian's libMLIR.so reached by
parsing or by an upstream pass, docs/robustness.md lists the known ones).

usage: triage.py FUZZER SOURCE_ROOT ARTIFACT...
Exit status 1 when any finding is the project's.
"""
import os
import re
import subprocess
import sys

FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (.*)$")


def is_project_frame(frame, root):
    # "FUNC FILE:LINE:COL" or "FUNC (MODULE+0xOFF)"
    if "LLVMFuzzerTestOneInput" in frame or "fuzzer::" in frame:
        return False
    if os.path.join(root, "fuzz") + os.sep in frame or "pipeline-fuzz.cpp" in frame:
        return False
    if "pmlir::" in frame:
        return True
    # Source paths come as written at build time ("build-asan/../lib/...").
    for token in frame.split():
        if not token.startswith("/"):
            continue
        path = os.path.normpath(token.split(":")[0])
        if any(path.startswith(os.path.join(root, d) + os.sep)
               for d in ("lib", "include", "tools")):
            return True
    return False


def triage(fuzzer, root, artifact, timeout):
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "")
    env["ASAN_OPTIONS"] += ":symbolize=1"
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1")
    try:
        run = subprocess.run([fuzzer, f"-timeout={timeout}", artifact],
                             capture_output=True, text=True, errors="replace",
                             env=env, timeout=timeout * 3 + 60)
        log = run.stdout + run.stderr
        code = run.returncode
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        code = "timeout"
    if code == 0:
        return "flaky", "does not reproduce", log
    if "pipeline-fuzz: ptxas rejected" in log:
        return "project", "ptxas rejected the compiler's PTX", log
    frames = [m.group(1) for m in map(FRAME.match, log.splitlines()) if m]
    summary = next((l for l in log.splitlines() if "SUMMARY:" in l or "==ERROR" in l),
                   f"exit {code}")
    top = next((f for f in frames if "__sanitizer" not in f and "libc.so" not in f),
               "?")
    kind = "project" if any(is_project_frame(f, root) for f in frames) else "upstream"
    return kind, f"{summary.strip()} | top frame: {top[:160]}", log


def main():
    fuzzer, root = sys.argv[1], os.path.realpath(sys.argv[2])
    timeout = int(os.environ.get("PIPELINE_FUZZ_TIMEOUT", "20"))
    project = 0
    for artifact in sys.argv[3:]:
        if os.path.basename(artifact).startswith("slow-unit-"):
            continue
        kind, why, log = triage(fuzzer, root, artifact, timeout)
        print(f"triage: {kind}: {artifact}: {why}")
        if kind == "project":
            project += 1
            sys.stdout.write("".join("    " + l + "\n" for l in log.splitlines()[-60:]))
    if project:
        print(f"triage: {project} finding(s) in project code")
    return 1 if project else 0


if __name__ == "__main__":
    sys.exit(main())
