#!/usr/bin/env bash
# Installs pipeline-mlir into a scratch prefix and builds a tiny consumer
# project against it with find_package(PipelineMLIR), then runs it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
PREFIX="$BUILD_DIR/install"
rm -rf "$PREFIX" "$BUILD_DIR/consumer"
cmake --install "$BUILD_DIR" --prefix "$PREFIX" >/dev/null

# The installed tools start (they find libMLIR.so through their RUNPATH) and
# do their job on the shipped example.
EXAMPLE="$ROOT/examples/warp_specialized.mlir"
"$PREFIX/bin/pipeline-opt" --version | grep "pipeline-mlir" >/dev/null
"$PREFIX/bin/pipeline-opt" "$EXAMPLE" -pipeline-verify-linearity \
  -pipeline-verify-protocol -o /dev/null
"$PREFIX/bin/pipeline-compile" --version | grep "pipeline-mlir" >/dev/null
if [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/ptxas" ]; then
  "$PREFIX/bin/pipeline-compile" "$EXAMPLE" --chip=sm_90a \
    -o "$BUILD_DIR/install-example"
  test -s "$BUILD_DIR/install-example.cubin"
else
  "$PREFIX/bin/pipeline-opt" "$EXAMPLE" \
    -pipeline-lower-to-binary="chip=sm_90a format=isa" \
    | sed -n 's/.*assembly = "\(.*\)".*/\1/p' > "$BUILD_DIR/install-example.ptx"
fi
grep -q "target sm_90a" "$BUILD_DIR/install-example.ptx"

# A separate project finds the package with only CMAKE_PREFIX_PATH and the
# README's two lines, registers the dialect and passes, checks the shipped
# example and lowers it to PTX for sm_90a and sm_100a; a leaking kernel is
# refused by the checker.
cmake -G Ninja -S "$ROOT/test/Install/consumer" -B "$BUILD_DIR/consumer" \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
cmake --build "$BUILD_DIR/consumer" >/dev/null
for chip in sm_90a sm_100a; do
  "$BUILD_DIR/consumer/consumer" "$EXAMPLE" "$chip" > "$BUILD_DIR/consumer/example.$chip.ptx"
  grep -q "^.target $chip" "$BUILD_DIR/consumer/example.$chip.ptx"
  grep -q "mbarrier.try_wait" "$BUILD_DIR/consumer/example.$chip.ptx"
done
if "$BUILD_DIR/consumer/consumer" --leak 2> "$BUILD_DIR/consumer/leak.txt"; then
  echo "check-install: the consumer accepted a leaking kernel" >&2
  exit 1
fi
grep -q "stage handle leaks" "$BUILD_DIR/consumer/leak.txt"

# What the install copies is what scripts/build.sh builds: every installed
# target goes through pipeline_mlir_install (cmake/PipelineMLIRInstall.cmake),
# which adds it to the target pipeline-mlir-installable.
stray="$(grep -rn --include=CMakeLists.txt -E '^[[:space:]]*install\(TARGETS' \
  "$ROOT/lib" "$ROOT/tools" "$ROOT/runtime" "$ROOT/CMakeLists.txt" || true)"
if [ -n "$stray" ]; then
  echo "check-install: install(TARGETS) outside pipeline_mlir_install; scripts/build.sh would not build it:" >&2
  echo "$stray" >&2
  exit 1
fi
echo "check-install: PASS (installed tools run; find_package(PipelineMLIR) from $PREFIX: checked and lowered the example to PTX)"
