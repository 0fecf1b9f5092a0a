#!/usr/bin/env bash
# Configure and build pipeline-mlir in ./build (or $BUILD_DIR): everything
# `cmake --install` copies (the target pipeline-mlir-installable): the tools
# (pipeline-opt, pipeline-compile, pipeline-sim, pipeline-lsp-server), the
# mlir-opt plugin, the libraries of the CMake package, the host runtime and
# the C API libraries the Python package loads (libPipelineMLIRCAPI.so and
# libPipelineMLIRUpstreamCAPI.so in build/lib). The tests' own programs and
# kernels are in the default target (scripts/test.sh builds it).
# BUILD_TARGETS names other targets; extra arguments go to `cmake --build`
# (e.g. -j2).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
if [ ! -f "$BUILD_DIR/build.ninja" ]; then
  cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
    -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
    -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
    -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
    -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
fi
TARGETS="${BUILD_TARGETS:-pipeline-mlir-installable}"
# shellcheck disable=SC2086 # the targets are words
cmake --build "$BUILD_DIR" --target $TARGETS "$@"
