#!/usr/bin/env bash
# Installs what pipeline-mlir needs on Debian 12 (LLVM/MLIR 22 from Debian's
# archive, CMake, Ninja, a C++ compiler) when it is missing, and checks for
# the CUDA toolkit. Safe to run again: it installs nothing that is present.
set -euo pipefail

LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
PKGS=(cmake ninja-build g++ python3 python3-numpy python3-pytest clang-format llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools)
# clang-22 and its sanitizer/libFuzzer runtimes: scripts/test-sanitizers.sh.
PKGS+=(clang-22 libclang-rt-22-dev)

missing=()
for pkg in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$pkg")
done

if [ "${#missing[@]}" -ne 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null; then SUDO="sudo"; else
      echo "setup: error: need root (or sudo) to install: ${missing[*]}" >&2
      exit 1
    fi
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

for tool in mlir-tblgen FileCheck lit; do
  if [ ! -x "$LLVM_PREFIX/bin/$tool" ]; then
    echo "setup: error: $LLVM_PREFIX/bin/$tool is missing (LLVM 22 packages incomplete)" >&2
    exit 1
  fi
done

# The CUDA toolkit, by the one rule of pipeline-mlir (docs/cli.md):
# $CUDA_HOME, else $CUDA_PATH, else /usr/local/cuda (CMake's
# -DPIPELINE_CUDA_PATH and the tools' --cuda-path come first where given).
cuda_root="${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}"
if [ -x "$cuda_root/bin/ptxas" ]; then
  echo "setup: CUDA toolkit: $cuda_root ($("$cuda_root/bin/ptxas" --version | tail -1))"
else
  echo "setup: warning: CUDA toolkit not found at $cuda_root (no bin/ptxas)." >&2
  echo "setup: warning: set CUDA_HOME (or CUDA_PATH) to a CUDA 12.8+ toolkit; without it, cubins cannot be" >&2
  echo "setup: warning: built and the ptxas tests report UNSUPPORTED." >&2
fi

# The Python package: run from the checkout with PYTHONPATH=<checkout>/python,
# or install the wheel that scripts/build-wheel.sh makes. A user-site .pth
# that makes Debian's python3 import it from this checkout everywhere (as
# `pip install --user -e` would) is written only on request:
#   PIPELINE_MLIR_USER_SITE=1 scripts/setup.sh
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
site=$(/usr/bin/python3 -m site --user-site 2>/dev/null || true)
if [ "${PIPELINE_MLIR_USER_SITE:-0}" = 1 ] && [ -n "$site" ]; then
  if mkdir -p "$site" 2>/dev/null && echo "$ROOT/python" > "$site/pipeline_mlir.pth" 2>/dev/null; then
    echo "setup: python: /usr/bin/python3 imports pipeline_mlir from $ROOT/python ($site/pipeline_mlir.pth)"
  else
    echo "setup: warning: cannot write $site/pipeline_mlir.pth; use PYTHONPATH=$ROOT/python" >&2
  fi
elif [ -n "$site" ] && [ -f "$site/pipeline_mlir.pth" ]; then
  # Earlier versions wrote this file on every run: one naming a checkout
  # that is gone is removed; one naming another checkout is reported.
  named="$(head -n 1 "$site/pipeline_mlir.pth")"
  if [ ! -d "$named/pipeline_mlir" ]; then
    rm -f "$site/pipeline_mlir.pth" && echo "setup: removed $site/pipeline_mlir.pth (it named $named, which is gone)"
  elif [ "$named" != "$ROOT/python" ]; then
    echo "setup: note: /usr/bin/python3 imports pipeline_mlir from $named ($site/pipeline_mlir.pth); remove that file, or run with PIPELINE_MLIR_USER_SITE=1 to name this checkout" >&2
  fi
fi
