#!/usr/bin/env bash
# Builds the handoff benchmark bundle (docs/benchmarks.md, first section) on
# a machine without a GPU:
#   handoff-bench          the harness (harness.cpp + the GPU test runtime
#                          pmrt, g++, libstdc++ static; needs libcuda.so.1
#                          where it runs)
#   handoff_dialect.cubin  pipeline-compile handoff_dialect.mlir --chip=sm_90a
#   copy_dialect.cubin     pipeline-compile copy_dialect.mlir --chip=sm_90a
#                          (both at pipeline-compile's default options; .ptx
#                          beside them)
#   handoff_dialect_ahead.cubin  the rings of `gen_dialect.py --ahead` (the
#                          look-ahead waits; the same kernel names), for
#                          the harness's --extra (.mlir and .ptx beside it)
#   handoff_cuda.cubin     nvcc -gencode=arch=compute_90a,code=sm_90a -O3
#   copy_cuda.cubin        (.ptx and the ptxas -v report beside them)
#   run.sh, sass_loops.py  what the GPU machine runs
# Usage: bench/handoff/build.sh [OUT_DIR]   (default build/bench-handoff)
# Environment: BUILD_DIR (default build: where pipeline-compile is),
# CUDA_HOME (default /usr/local/cuda), EXTRA_FLAGS (more pipeline-compile
# flags for handoff_dialect, e.g. --unroll-stages=false; then the dialect
# cubin is named handoff_dialect${SUFFIX}.cubin with SUFFIX from the
# environment).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build}"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
OUT="${1:-$BUILD_DIR/bench-handoff}"
mkdir -p "$OUT"
COMPILE="$BUILD_DIR/bin/pipeline-compile"
NVCC="$CUDA_HOME/bin/nvcc"
ARCH=(-gencode=arch=compute_90a,code=sm_90a)

python3 "$HERE/gen_dialect.py" | cmp -s - "$HERE/handoff_dialect.mlir" ||
  { echo "build.sh: handoff_dialect.mlir is stale: run gen_dialect.py" >&2; exit 1; }
python3 "$HERE/gen_copy.py" | cmp -s - "$HERE/copy_dialect.mlir" ||
  { echo "build.sh: copy_dialect.mlir is stale: run gen_copy.py" >&2; exit 1; }

"$COMPILE" "$HERE/handoff_dialect.mlir" --chip=sm_90a ${EXTRA_FLAGS:-} \
  -o "$OUT/handoff_dialect${SUFFIX:-}"
if [ -n "${EXTRA_FLAGS:-}" ]; then exit 0; fi
"$COMPILE" "$HERE/copy_dialect.mlir" --chip=sm_90a -o "$OUT/copy_dialect"
python3 "$HERE/gen_dialect.py" --ahead > "$OUT/handoff_dialect_ahead.mlir"
"$COMPILE" "$OUT/handoff_dialect_ahead.mlir" --chip=sm_90a \
  -o "$OUT/handoff_dialect_ahead"
for k in handoff_cuda copy_cuda; do
  "$NVCC" "${ARCH[@]}" -cubin -O3 -Xptxas -v -o "$OUT/$k.cubin" \
    "$HERE/$k.cu" > "$OUT/$k.ptxas.txt" 2>&1
  "$NVCC" "${ARCH[@]}" -ptx -O3 -o "$OUT/$k.ptx" "$HERE/$k.cu"
done
g++ -std=c++17 -O2 -I"$ROOT/runtime/include" -I"$ROOT/include" \
  -I"$CUDA_HOME/include" \
  "$HERE/harness.cpp" "$ROOT/runtime/lib/pmrt.cpp" \
  -o "$OUT/handoff-bench" -static-libstdc++ -static-libgcc \
  -L"$CUDA_HOME/lib64/stubs" -lcuda
cp "$HERE/run.sh" "$ROOT/bench/vs-cuda/sass_loops.py" "$OUT/"
echo "build.sh: bundle in $OUT"
