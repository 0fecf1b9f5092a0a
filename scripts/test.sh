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
# The main suite and the host runtime's own (runtime/test).
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" "$BUILD_DIR/runtime/test" 2>&1 | tee "$BUILD_DIR/lit.log" || status=$?

# The Python package (Debian's python3, which has numpy and pytest): builder,
# C API round trip, diagnostics at Python lines, compiles; GPU tests skip.
/usr/bin/python3 -m pytest -q -rs "$ROOT/python/tests" 2>&1 | tee "$BUILD_DIR/pytest.log" || status=1

# The compile tests again, with the CUDA toolkit reached only through
# CUDA_HOME at a temporary directory of links to it (the toolkit rule of
# docs/cli.md; toolkit-location.mlir checks the order against a broken
# toolkit). Skipped when CMake was given -DPIPELINE_CUDA_PATH, which comes
# first.
cmake_cuda="$(sed -n 's/^PIPELINE_CUDA_PATH:PATH=//p' "$BUILD_DIR/CMakeCache.txt")"
cuda_root="${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}"
if [ -z "$cmake_cuda" ] && [ -x "$cuda_root/bin/ptxas" ]; then
  farm="$(mktemp -d)"
  mkdir -p "$farm/bin"
  ln -s "$cuda_root"/bin/* "$farm/bin/"
  for dir in nvvm include lib64; do
    if [ -e "$cuda_root/$dir" ]; then ln -s "$cuda_root/$dir" "$farm/$dir"; fi
  done
  env -u CUDA_PATH CUDA_HOME="$farm" "$LLVM_PREFIX/bin/lit" -sv \
    "$BUILD_DIR/test/Tools" "$BUILD_DIR/test/Target/PTX" \
    > "$BUILD_DIR/lit-toolkit.log" 2>&1 || status=1
  if ! grep -q "CUDA toolkit: $farm (from CUDA_HOME)" "$BUILD_DIR/lit-toolkit.log"; then
    echo "test: the compile tests did not take the CUDA toolkit from CUDA_HOME" >&2
    status=1
  fi
  echo "test: compile tests with the toolkit at CUDA_HOME=$farm: $(grep -E '^ *(Passed|Failed)' "$BUILD_DIR/lit-toolkit.log" | tr -s ' ' | tr '\n' ' ')"
  rm -rf "$farm"
fi

# The ODS-generated reference in docs/generated/ must match the .td files.
"$ROOT/scripts/gen-docs.sh" --check || status=1
# The Python package's op syntax and hang-record layout, generated from the
# ODS and include/pipeline-c/HangRecord.h, must match them.
/usr/bin/python3 "$ROOT/scripts/gen-python.py" --check || status=1
# The showcase examples are generated from the builder programs
# (python/pipeline_mlir/kernels/) and must match them.
/usr/bin/python3 "$ROOT/scripts/gen-examples.py" --check || status=1

# The C++ sources follow .clang-format.
"$ROOT/scripts/check-format.sh" || status=1

# The installed package: find_package(PipelineMLIR) from a separate project.
"$ROOT/scripts/check-install.sh" || status=1

# ASan + UBSan build of the project's code: the lit suite again, then the
# deterministic replay of the fuzz corpus, the seeds and fuzz/regressions/
# (docs/robustness.md; random fuzzing is scripts/fuzz.sh, not run here).
# SANITIZERS=0 skips it.
if [ "${SANITIZERS:-1}" != 0 ]; then
  "$ROOT/scripts/test-sanitizers.sh" 2>&1 | tee "$BUILD_DIR/sanitizers.log" || status=1
fi

# lit pads its summary: "  Passed     : 37 (82.22%)".
summary() { sed -n "s/^  $1 *: *\([0-9]*\).*/\1/p" "$BUILD_DIR/lit.log" | head -1; }
passed=$(summary "Passed"); failed=$(summary "Failed"); unsupported=$(summary "Unsupported")
echo "lit: ${passed:-0} passed, ${failed:-0} failed, ${unsupported:-0} skipped"
exit $status
