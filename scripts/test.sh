#!/usr/bin/env bash
# Sets up, builds and runs the whole pipeline-mlir test suite (lit), then
# checks that the installed CMake package can be used by another project.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"

"$ROOT/scripts/setup.sh"
start=$(date +%s)
"$ROOT/scripts/build.sh"
cmake --build "$BUILD_DIR" --target all
echo "test: build took $(( $(date +%s) - start )) s"

status=0
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" 2>&1 | tee "$BUILD_DIR/lit.log" || status=$?

# The ODS-generated reference in docs/generated/ must match the .td files.
"$ROOT/scripts/gen-docs.sh" --check || status=1

# The C++ sources follow .clang-format.
"$ROOT/scripts/check-format.sh" || status=1

# The installed package: find_package(PipelineMLIR) from a separate project.
"$ROOT/scripts/check-install.sh" || status=1

# ASan + UBSan build of the project's code: the lit suite again, then a
# short fuzzing run (docs/robustness.md). SANITIZERS=0 skips it.
if [ "${SANITIZERS:-1}" != 0 ]; then
  "$ROOT/scripts/test-sanitizers.sh" 2>&1 | tee "$BUILD_DIR/sanitizers.log" || status=1
fi

# lit pads its summary: "  Passed     : 37 (82.22%)".
summary() { sed -n "s/^  $1 *: *\([0-9]*\).*/\1/p" "$BUILD_DIR/lit.log" | head -1; }
passed=$(summary "Passed"); failed=$(summary "Failed"); unsupported=$(summary "Unsupported")
echo "lit: ${passed:-0} passed, ${failed:-0} failed, ${unsupported:-0} skipped"
exit $status
