#!/usr/bin/env bash
# The sanitizer part of the test command (docs/robustness.md): builds the
# project's code with clang-22, ASan + UBSan and libFuzzer coverage in
# build-asan (or $ASAN_BUILD_DIR), runs the lit suite on those tools, then a
# short fuzzing run (scripts/fuzz.sh, FUZZ_SECONDS, default 60; 0 skips it).
# Debian's libMLIR.so stays uninstrumented: reports come from the project's
# code, and from libMLIR only through the intercepted allocator.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${ASAN_BUILD_DIR:-$ROOT/build-asan}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
FUZZ_SECONDS="${FUZZ_SECONDS:-60}"
CC_CLANG="${CC_CLANG:-clang-22}"
CXX_CLANG="${CXX_CLANG:-clang++-22}"
if ! command -v "$CXX_CLANG" >/dev/null; then
  echo "test-sanitizers: error: $CXX_CLANG not found (run scripts/setup.sh)" >&2
  exit 1
fi

start=$(date +%s)
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null &&
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER="$CC_CLANG" -DCMAKE_CXX_COMPILER="$CXX_CLANG" \
    "${launcher[@]}" \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DPIPELINE_MLIR_SANITIZE=address,undefined -DPIPELINE_MLIR_FUZZER=ON >/dev/null
fi
cmake --build "$BUILD_DIR" --target pipeline-opt pipeline-compile pipeline-fuzz \
  pipeline-capi-test pipeline-lsp-server
echo "test-sanitizers: build took $(( $(date +%s) - start )) s"

# ASan/UBSan runtime settings, explained there.
source "$ROOT/scripts/sanitizer-env.sh"

status=0
lit_start=$(date +%s)
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" 2>&1 | tee "$BUILD_DIR/lit.log" || status=1
echo "test-sanitizers: lit took $(( $(date +%s) - lit_start )) s"

if [ "$FUZZ_SECONDS" != 0 ]; then
  BUILD_DIR="$BUILD_DIR" "$ROOT/scripts/fuzz.sh" "$FUZZ_SECONDS" || status=1
fi
echo "test-sanitizers: $(( $(date +%s) - start )) s in all"
exit $status
