#!/usr/bin/env bash
# The sanitizer part of the test command (docs/robustness.md): builds the
# project's code with clang-22, ASan + UBSan and libFuzzer coverage in
# build-asan (or $ASAN_BUILD_DIR), runs the lit suite on those tools, then
# replays the fuzz corpus: every seed (fuzz/make-corpus.py) and every input
# of fuzz/regressions/ once through pipeline-fuzz, each input that lowers
# assembled by ptxas. Deterministic: no random fuzzing here (that is
# scripts/fuzz.sh [SECONDS], run on its own).
# Debian's libMLIR.so stays uninstrumented: reports come from the project's
# code, and from libMLIR only through the intercepted allocator.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${ASAN_BUILD_DIR:-$ROOT/build-asan}"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
# The CUDA toolkit for the replay's ptxas, by the rule of docs/cli.md.
CUDA_ROOT="${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}"
CC_CLANG="${CC_CLANG:-clang-22}"
CXX_CLANG="${CXX_CLANG:-clang++-22}"
# -O1, not the Release default -O3: ASan's recommended optimization level
# (and a little faster to build). NDEBUG as in Debian's libMLIR.so
# (docs/robustness.md).
ASAN_OPT_FLAGS="${ASAN_OPT_FLAGS:--O1 -DNDEBUG}"
# One precompiled header of upstream MLIR headers for the project's targets
# (fuzz/sanitizer-pch.cmake): the cold build takes about 40 % less time.
# ASAN_PCH=0 builds without it.
pch=(-DCMAKE_PROJECT_INCLUDE="$ROOT/fuzz/sanitizer-pch.cmake")
[ "${ASAN_PCH:-1}" = 0 ] && pch=(-UCMAKE_PROJECT_INCLUDE)
if ! command -v "$CXX_CLANG" >/dev/null; then
  echo "test-sanitizers: error: $CXX_CLANG not found (run scripts/setup.sh)" >&2
  exit 1
fi

start=$(date +%s)
launcher=()
command -v ccache >/dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Configured on every run (a no-op when nothing changed), so that an older
# build-asan picks up changed flags.
cmake -G Ninja -S "$ROOT" -B "$BUILD_DIR" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS_RELEASE="$ASAN_OPT_FLAGS" -DCMAKE_CXX_FLAGS_RELEASE="$ASAN_OPT_FLAGS" \
  -DCMAKE_C_COMPILER="$CC_CLANG" -DCMAKE_CXX_COMPILER="$CXX_CLANG" \
  "${launcher[@]}" "${pch[@]}" \
  -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
  -DLLVM_DIR="$LLVM_PREFIX/lib/cmake/llvm" \
  -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
  -DPIPELINE_MLIR_SANITIZE=address,undefined -DPIPELINE_MLIR_FUZZER=ON >/dev/null
# What the lit suite and the replay run, nothing else (no plugin: the
# uninstrumented mlir-opt cannot load an instrumented one, so its tests are
# UNSUPPORTED here; no GPU host programs: no GPU on CI).
cmake --build "$BUILD_DIR" --target pipeline-opt pipeline-compile pipeline-sim pipeline-sim-unittests pipeline-fuzz \
  pipeline-capi-test pipeline-lsp-server
echo "test-sanitizers: build took $(( $(date +%s) - start )) s"

# ASan/UBSan runtime settings, explained there.
source "$ROOT/scripts/sanitizer-env.sh"

status=0
lit_start=$(date +%s)
"$LLVM_PREFIX/bin/lit" -sv "$BUILD_DIR/test" 2>&1 | tee "$BUILD_DIR/lit.log" || status=1
echo "test-sanitizers: lit took $(( $(date +%s) - lit_start )) s"

# The replay (scripts/fuzz.sh --replay): every seed of the seed corpus
# (fuzz/make-corpus.py, rebuilt from the tree) and every input of
# fuzz/regressions/ once, in a fixed order; every input that passes the
# checkers is lowered for sm_90a and sm_100a and its PTX assembled by ptxas.
# Any crash, sanitizer report, hang or ptxas rejection fails. fuzz/upstream/
# (crashes inside upstream MLIR's parser) is not replayed.
replay_start=$(date +%s)
ptxas_every=1
if [ ! -x "$CUDA_ROOT/bin/ptxas" ]; then
  ptxas_every=0
  echo "test-sanitizers: note: no ptxas in $CUDA_ROOT: the replay does not assemble" >&2
fi
BUILD_DIR="$BUILD_DIR" CUDA_PATH="$CUDA_ROOT" PIPELINE_FUZZ_LOWER=1 \
  PIPELINE_FUZZ_PTXAS=$ptxas_every "$ROOT/scripts/fuzz.sh" --replay || status=1
echo "test-sanitizers: replay took $(( $(date +%s) - replay_start )) s"

echo "test-sanitizers: $(( $(date +%s) - start )) s in all"
exit $status
