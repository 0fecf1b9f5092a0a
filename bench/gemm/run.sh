#!/usr/bin/env bash
# Runs the GEMM checks and benchmark from its bundle (bench/gemm/build.sh or
# the CMake target bench-gemm) on a Hopper GPU and records the machine.
# Everything goes to $RESULTS (default ./run-results):
#   device.txt    nvidia-smi name, driver, clocks, power; nvidia-smi -q -d CLOCK
#                 before and after the run; the command line
#   gemm.log      the harness output (checks, table)
#   gemm.csv      the table as CSV
#   gemm.png      TFLOP/s per size (plot.py; matplotlib if present, else SVG)
#   clocks.csv    nvidia-smi samples (SM clock, memory clock, power, temperature)
#                 every 250 ms during the run; device.txt ends with a summary
#   gemm_sm90.sass, resources.txt   cuobjdump of the kernel
# Usage: [RESULTS=dir] [CUBLASLT_PATH=...] run.sh [gemm-bench options]
# Default options: --mode all. Exit status: the harness's.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
RESULTS="${RESULTS:-$HERE/run-results}"
mkdir -p "$RESULTS"

if [ -z "${CUBLASLT_PATH:-}" ]; then
  for c in /usr/local/cuda/lib64/libcublasLt.so.13 \
           $(python3 -c 'import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], "lib", "libcublasLt.so.13"))' 2>/dev/null) \
           $(ls /usr/local/lib/python3*/dist-packages/nvidia/cublas/lib/libcublasLt.so.* 2>/dev/null) \
           $(ldconfig -p 2>/dev/null | awk '/libcublasLt.so/ {print $NF}'); do
    if [ -e "$c" ]; then CUBLASLT_PATH="$c"; break; fi
  done
fi
export CUBLASLT_PATH="${CUBLASLT_PATH:-libcublasLt.so.13}"

{
  date -u '+date: %Y-%m-%d %H:%M:%S UTC'
  echo "command: $HERE/gemm-bench ${*:---mode all}"
  echo "cublasLt: $CUBLASLT_PATH"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.sm,clocks.mem,power.limit,power.draw,temperature.gpu --format=csv
  uname -r
  echo "== nvidia-smi -q -d CLOCK (before)"
  nvidia-smi -q -d CLOCK
} > "$RESULTS/device.txt" 2>&1
head -8 "$RESULTS/device.txt"

args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--mode all)
# SM clock, power and temperature every 250 ms while the harness runs.
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
  --format=csv,noheader,nounits -lms 250 > "$RESULTS/clocks.csv" 2>&1 &
smi=$!
"$HERE/gemm-bench" "${args[@]}" --csv "$RESULTS/gemm.csv" 2>&1 | tee "$RESULTS/gemm.log"
status=${PIPESTATUS[0]}
kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
# Samples under load: power above 250 W.
awk -F', *' '$4 > 250 {print $2, $4, $5}' "$RESULTS/clocks.csv" | sort -n | awk '
  {clk[NR] = $1; p += $2; if ($3 > t) t = $3}
  END {if (NR) printf "under load (%d samples > 250 W): SM clock min %d, median %d, max %d MHz; mean power %.0f W; max temperature %d C\n", NR, clk[1], clk[int((NR + 1) / 2)], clk[NR], p / NR, t;
       else print "under load: no sample above 250 W"}' | tee -a "$RESULTS/device.txt"

{
  echo "== nvidia-smi -q -d CLOCK (after)"
  nvidia-smi -q -d CLOCK
} >> "$RESULTS/device.txt" 2>&1

CUOBJDUMP="$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)"
if [ -x "$CUOBJDUMP" ]; then
  "$CUOBJDUMP" --dump-sass "$HERE/gemm_sm90.cubin" > "$RESULTS/gemm_sm90.sass" 2>&1
  "$CUOBJDUMP" --dump-resource-usage "$HERE/gemm_sm90.cubin" > "$RESULTS/resources.txt" 2>&1
  echo "SASS: $(grep -c HGMMA "$RESULTS/gemm_sm90.sass") HGMMA, $(grep -cE 'LDL|STL' "$RESULTS/gemm_sm90.sass") LDL/STL"
fi
if [ -s "$RESULTS/gemm.csv" ]; then
  python3 "$HERE/plot.py" "$RESULTS/gemm.csv" "$RESULTS/gemm.png" || true
fi
exit "$status"
