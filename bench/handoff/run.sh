#!/usr/bin/env bash
# Runs the handoff benchmark from its bundle (bench/handoff/build.sh) on a
# Hopper machine and disassembles the cubins. Writes to $RESULTS (default
# ./run-results):
#   device.txt    nvidia-smi (name, driver, clocks, memory clock), date
#   bench.log     the harness output (checks, raw times, tables)
#   bench.csv     one line per cell and variant
#   sass.txt      cuobjdump --dump-sass of every cubin in the bundle
#   loops.txt     sass_loops.py --summary of the ring kernels
#   loops-s2.txt  sass_loops.py --listing of every S = 2 ring kernel (the
#                 wait forms side by side)
# Usage: [RESULTS=dir] run.sh [harness options]
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RESULTS="${RESULTS:-$HERE/run-results}"
mkdir -p "$RESULTS"
{
  date -u '+date: %Y-%m-%d %H:%M:%S UTC'
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,clocks.max.mem,clocks.mem,temperature.gpu,power.draw,power.limit --format=csv
  uname -r
} > "$RESULTS/device.txt" 2>&1
cat "$RESULTS/device.txt"
"$HERE/handoff-bench" --dir "$HERE" --csv "$RESULTS/bench.csv" "$@" \
  > "$RESULTS/bench.log" 2>&1
status=$?
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >> "$RESULTS/device.txt" 2>&1
CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
if [ -x "$CUOBJDUMP" ]; then
  for f in "$HERE"/*.cubin; do
    echo "#### $(basename "$f")"
    "$CUOBJDUMP" --dump-sass "$f"
  done > "$RESULTS/sass.txt" 2>&1
  python3 "$HERE/sass_loops.py" --summary "$RESULTS/sass.txt" > "$RESULTS/loops.txt" 2>&1
  python3 "$HERE/sass_loops.py" --listing --kernel _s2_ "$RESULTS/sass.txt" \
    > "$RESULTS/loops-s2.txt" 2>&1
fi
grep -E "^FAIL|^\||^##|passed|FAILED|peak" "$RESULTS/bench.log"
exit "$status"
