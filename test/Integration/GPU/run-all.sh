#!/usr/bin/env bash
# Runs every GPU integration test of the bundle this script sits in and ends
# with the line "N passed, M failed" (exit status 0 only when M is 0).
#
#   run-all.sh                        plain run (also checks the watchdog)
#   run-all.sh --sanitizer memcheck   every test under compute-sanitizer
#   run-all.sh --sanitizer racecheck  (likewise synccheck; the hang-report
#                                     family, whose kernels trap on purpose,
#                                     runs in the plain run only)
#   run-all.sh --log-dir DIR          keep each program's output in DIR
#
# A test program prints "PASS: <test>" / "FAIL: <test>: <why>" lines and its
# own "<program>: N passed, M failed". A program that ends in a driver error,
# a hang ("HANG: hang in test X", caught by the runtime's watchdog), a crash,
# or, under a sanitizer, with sanitizer errors counts as one more failure.
# Environment: COMPUTE_SANITIZER (default: compute-sanitizer on PATH, else
# /usr/local/cuda/bin/compute-sanitizer), PMRT_TIMEOUT_S (watchdog seconds),
# RUN_ALL_TESTS (space-separated subset of the programs below),
# RUN_ALL_PROGRAM_TIMEOUT (seconds one program may take; default 300, 420
# under a sanitizer).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
tool=""
logdir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --sanitizer) tool="$2"; shift 2 ;;
    --log-dir) logdir="$2"; shift 2 ;;
    *) echo "run-all.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$tool" in
  ""|memcheck|racecheck|synccheck|initcheck) ;;
  *) echo "run-all.sh: unknown sanitizer tool '$tool'" >&2; exit 2 ;;
esac
if [ -z "$logdir" ]; then logdir="$(mktemp -d)"; fi
mkdir -p "$logdir"

programs="${RUN_ALL_TESTS:-runtime_selftest basic multi_warp tma_tile try_acquire explicit cluster throttle stress hang gemm kernel_abi}"

sanitizer=()
per_program_timeout=300
if [ -n "$tool" ]; then
  cs="${COMPUTE_SANITIZER:-}"
  if [ -z "$cs" ]; then
    cs="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
  fi
  if [ ! -x "$cs" ]; then
    echo "run-all.sh: compute-sanitizer not found (looked for '$cs')"
    echo "0 passed, 1 failed"
    exit 1
  fi
  sanitizer=("$cs" --tool "$tool" --error-exitcode 86 --print-limit 50 --launch-timeout 200)
  if [ "$tool" = memcheck ]; then sanitizer+=(--leak-check full); fi
  export PMRT_SANITIZER=1
  export PMRT_TIMEOUT_S="${PMRT_TIMEOUT_S:-240}"
  per_program_timeout=420
fi
per_program_timeout="${RUN_ALL_PROGRAM_TIMEOUT:-$per_program_timeout}"

passed=0
failed=0
echo "== run-all: ${tool:-plain} run, logs in $logdir"
for prog in $programs; do
  # The broken kernels of the hang report trap on purpose: plain runs only.
  if [ -n "$tool" ] && [ "$prog" = hang ]; then continue; fi
  bin="$here/$prog"
  log="$logdir/${prog}${tool:+.$tool}.log"
  if [ ! -x "$bin" ]; then
    echo "FAIL: $prog: program missing from the bundle"
    failed=$((failed + 1))
    continue
  fi
  args=()
  if [ -f "$here/$prog.cubin" ]; then args=(--cubin "$here/$prog.cubin"); fi
  # The GEMM's checks: the harness's --mode check (its cubins sit beside it).
  if [ "$prog" = gemm ]; then args=(--mode check); fi
  start=$(date +%s)
  timeout -k 10 "$per_program_timeout" "${sanitizer[@]}" "$bin" "${args[@]}" >"$log" 2>&1
  status=$?
  secs=$(( $(date +%s) - start ))
  p=$(grep -c '^PASS: ' "$log")
  f=$(grep -c '^FAIL: ' "$log")
  grep -E '^(PASS|FAIL|HANG|ERROR): |^  ' "$log" | sed "s|^|  [$prog] |"
  extra=""
  if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    extra="killed after ${per_program_timeout} s"
  elif [ -n "$tool" ] && grep -qE '^========= (ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: [0-9]+ hazards? displayed \([1-9])' "$log"; then
    extra="$tool reported errors: $(grep -E '^========= (ERROR|RACECHECK) SUMMARY' "$log" | tr '\n' ' ')"
  elif [ "$status" -ne 0 ] && [ "$f" -eq 0 ]; then
    why="$(grep -E '^(HANG|ERROR): ' "$log" | head -3 | tr '\n' ' ')"
    if [ -z "$why" ]; then why="$(tail -n 3 "$log" | tr '\n' ' ')"; fi
    extra="exit status $status: $why"
  fi
  if [ -n "$tool" ]; then
    grep -E '^========= (ERROR|RACECHECK) SUMMARY' "$log" | sed "s|^|  [$prog] |"
  fi
  if [ -n "$extra" ]; then
    echo "FAIL: $prog: $extra"
    f=$((f + 1))
  fi
  echo "-- $prog: $p passed, $f failed (${secs} s)"
  passed=$((passed + p))
  failed=$((failed + f))
done

# The watchdog itself: a kernel that outlives the deadline must be reported
# as a hang, with exit status 3, instead of hanging the run.
if [ -z "$tool" ] && [ -x "$here/runtime_selftest" ] && [ -z "${RUN_ALL_TESTS:-}" ]; then
  log="$logdir/runtime_selftest.hang.log"
  timeout -k 10 60 "$here/runtime_selftest" --hang >"$log" 2>&1
  status=$?
  if [ "$status" -eq 3 ] && grep -q '^HANG: hang in test selftest_hang' "$log"; then
    echo "PASS: watchdog reports a hung kernel (exit 3, 'HANG: hang in test selftest_hang')"
    passed=$((passed + 1))
  else
    echo "FAIL: watchdog: exit status $status, output: $(tr '\n' ' ' <"$log")"
    failed=$((failed + 1))
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
