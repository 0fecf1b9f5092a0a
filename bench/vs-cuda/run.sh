#!/usr/bin/env bash
# Runs the dialect-vs-CUDA benchmark from its bundle (build/bench-vs-cuda)
# and disassembles both cubins. Everything it writes goes to $RESULTS
# (default: ./run-results):
#   device.txt         nvidia-smi's name, driver, clocks; date
#   bench.log          the harness output (checks, raw times, table)
#   bench-2.log ...    further independent runs of the harness (RUNS=n)
#   pipe_dialect.sass  cuobjdump --dump-sass of the dialect cubin
#   pipe_cuda.sass     the same for the CUDA cubin
#   resources.txt      cuobjdump --dump-resource-usage of both
#   loops.txt          sass_loops.py --listing of both
# Usage: [RUNS=n] [RESULTS=dir] run.sh [harness options, e.g. --reps 15]
# RUNS (default 1): how many times the harness runs, each a fresh process,
# to show the spread between runs.
# Exit status: 0 when every run of the harness passed, else the last
# failing one's (1 when a result is wrong).
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RESULTS="${RESULTS:-$HERE/run-results}"
mkdir -p "$RESULTS"
CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"

{
  date -u '+date: %Y-%m-%d %H:%M:%S UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv
  uname -r
} > "$RESULTS/device.txt" 2>&1
cat "$RESULTS/device.txt"

status=0
for ((run = 1; run <= ${RUNS:-1}; run++)); do
  log="$RESULTS/bench.log"
  [ "$run" -gt 1 ] && log="$RESULTS/bench-$run.log"
  "$HERE/bench-harness" --dialect "$HERE/pipe_dialect.cubin" \
    --cuda "$HERE/pipe_cuda.cubin" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  [ "$rc" -ne 0 ] && status=$rc
done

if [ -x "$CUOBJDUMP" ]; then
  for k in pipe_dialect pipe_cuda; do
    "$CUOBJDUMP" --dump-sass "$HERE/$k.cubin" > "$RESULTS/$k.sass"
  done
  for k in pipe_dialect pipe_cuda; do
    "$CUOBJDUMP" --dump-resource-usage "$HERE/$k.cubin"
  done > "$RESULTS/resources.txt" 2>&1
  for k in pipe_dialect pipe_cuda; do
    python3 "$HERE/sass_loops.py" --listing "$RESULTS/$k.sass"
  done > "$RESULTS/loops.txt" 2>&1
  grep -E '^== |local memory|^   loop' "$RESULTS/loops.txt"
else
  echo "run.sh: no cuobjdump; SASS not dumped"
fi
exit "$status"
