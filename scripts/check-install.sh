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
# README's two lines.
cmake -G Ninja -S "$ROOT/test/Install/consumer" -B "$BUILD_DIR/consumer" \
  -DCMAKE_PREFIX_PATH="$PREFIX" >/dev/null
cmake --build "$BUILD_DIR/consumer" >/dev/null
"$BUILD_DIR/consumer/consumer"
echo "check-install: PASS (installed tools run; find_package(PipelineMLIR) from $PREFIX)"
