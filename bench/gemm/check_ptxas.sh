#!/usr/bin/env bash
# Fails unless ptxas assembles the GEMM's PTX with no local memory and no
# wgmma serialization: no stack frame, no spill stores or loads, and none of
# ptxas's "wgmma.mma_async instructions are serialized" warnings (C7509 ..
# C7520: extern calls C7510, insufficient registers C7511, accumulator
# registers defined by non-wgmma instructions inside the pipeline stage C7515,
# ...), nor any other ptxas warning.
#
# pipeline-compile runs ptxas without -v and prints nothing on success, so
# this runs the same ptxas (-arch=<chip> -O<n>) once more with -v.
#
# Usage: check_ptxas.sh PTX [CHIP=sm_90a] [OPT=3] [PTXAS]
# Writes the ptxas -v report to PTX's name with .ptxas.txt.
set -euo pipefail
ptx="$1"
chip="${2:-sm_90a}"
opt="${3:-3}"
ptxas="${4:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}"
report="${ptx%.ptx}.ptxas.txt"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
"$ptxas" -arch="$chip" -O"$opt" -v "$ptx" -o "$tmp" > "$report" 2>&1
status=0
if grep -Eq 'C75(09|1[0-9]|20)|serialized' "$report"; then
  echo "check_ptxas: wgmma serialization in $ptx:" >&2
  grep -E 'C75|serialized' "$report" >&2
  status=1
fi
if grep -qi 'warning' "$report"; then
  echo "check_ptxas: ptxas warnings for $ptx:" >&2
  grep -i 'warning' "$report" >&2
  status=1
fi
if ! grep -Eq '^ +0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads' "$report"; then
  echo "check_ptxas: local memory (stack frame or spills) in $ptx:" >&2
  grep -E 'stack frame|spill' "$report" >&2 || true
  status=1
fi
if [ "$status" -eq 0 ]; then
  echo "check_ptxas: $(basename "$ptx"): $(grep -Eo 'Used [0-9]+ registers' "$report" | head -1), no spills, no stack frame, no wgmma serialization"
fi
exit "$status"
