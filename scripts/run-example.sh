#!/usr/bin/env bash
# The main job on a shipped example: set up, build, check the kernel
# (op verifiers + pipeline-verify-linearity), then compile it to PTX and a
# cubin for sm_90a (Hopper) and sm_100a (Blackwell) into build/example/.
#   scripts/run-example.sh [examples/<kernel>.mlir]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
EXAMPLE="${1:-$ROOT/examples/warp_specialized.mlir}"

"$ROOT/scripts/setup.sh"
BUILD_TARGETS="pipeline-opt pipeline-compile" "$ROOT/scripts/build.sh" >/dev/null
name="$(basename "$EXAMPLE" .mlir)"
out="$BUILD_DIR/example"
mkdir -p "$out"

echo "== check $EXAMPLE (op verifiers, pipeline-verify-linearity)"
"$BUILD_DIR/bin/pipeline-opt" -pipeline-verify-linearity "$EXAMPLE" -o "$out/$name.verified.mlir"
echo "ok: $out/$name.verified.mlir"

for chip in sm_90a sm_100a; do
  echo "== compile for $chip"
  "$BUILD_DIR/bin/pipeline-compile" "$EXAMPLE" --chip="$chip" -o "$out/$name.$chip"
  ls -l "$out/$name.$chip.ptx" "$out/$name.$chip.cubin"
  grep -c "mbarrier" "$out/$name.$chip.ptx" | sed "s/^/mbarrier instructions in the PTX: /"
done
