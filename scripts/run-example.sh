#!/usr/bin/env bash
# The main job on a shipped example: set up, build, then parse, verify and
# print the warp-specialized example kernel.
#   scripts/run-example.sh [examples/<kernel>.mlir]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
EXAMPLE="${1:-$ROOT/examples/warp_specialized.mlir}"

"$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh" >/dev/null
echo "== verify and print $EXAMPLE"
"$BUILD_DIR/bin/pipeline-opt" "$EXAMPLE"
