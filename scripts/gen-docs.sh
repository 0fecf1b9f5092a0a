#!/usr/bin/env bash
# Regenerates docs/generated/ (op, type and dialect reference) from ODS.
#   scripts/gen-docs.sh          rewrite docs/generated/
#   scripts/gen-docs.sh --check  fail if docs/generated/ is stale
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
cmake --build "$BUILD_DIR" --target mlir-doc >/dev/null
mkdir -p "$ROOT/docs/generated"
status=0
for f in PipelineOps PipelineTypes; do
  src="$BUILD_DIR/docs/Pipeline/$f.md"
  dst="$ROOT/docs/generated/$f.md"
  if [ "${1:-}" = "--check" ]; then
    if ! diff -q "$src" "$dst" >/dev/null 2>&1; then
      echo "gen-docs: docs/generated/$f.md is stale: run scripts/gen-docs.sh" >&2
      status=1
    fi
  else
    cp "$src" "$dst"
  fi
done
exit $status
