// REQUIRES: ptxas
// Every shipped example kernel (examples/*.mlir) compiles with the
// documented command to PTX and a cubin for sm_90a and sm_100a.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in %examples/*.mlir; do \
// RUN:   [ -e "$f" ] || continue; \
// RUN:   for chip in sm_90a sm_100a; do \
// RUN:     out=%t/$(basename "$f" .mlir).$chip; \
// RUN:     pipeline-compile "$f" --chip=$chip --cuda-path=%cuda_path -o "$out" || exit 1; \
// RUN:     grep -q "^.target $chip" "$out.ptx" || exit 1; \
// RUN:     test -s "$out.cubin" || exit 1; \
// RUN:   done; \
// RUN: done
