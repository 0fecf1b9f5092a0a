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
cmake -G Ninja -S "$ROOT/test/Install/consumer" -B "$BUILD_DIR/consumer" \
  -DCMAKE_PREFIX_PATH="$PREFIX" -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" >/dev/null
cmake --build "$BUILD_DIR/consumer" >/dev/null
"$BUILD_DIR/consumer/consumer"
echo "check-install: PASS (find_package(PipelineMLIR) from $PREFIX)"
