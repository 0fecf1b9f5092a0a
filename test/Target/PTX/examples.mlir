// REQUIRES: ptxas
// Every shipped example kernel (examples/*.mlir) compiles with the
// documented command to PTX and a cubin for sm_90a and sm_100a, or for the
// chips its "// chips: ..." line names (Blackwell-only examples).
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in %examples/*.mlir; do \
// RUN:   [ -e "$f" ] || continue; \
// RUN:   chips=$(sed -n 's|^// chips: ||p' "$f" | head -1); \
// RUN:   for chip in ${chips:-sm_90a sm_100a}; do \
// RUN:     out=%t/$(basename "$f" .mlir).$chip; \
// RUN:     pipeline-compile "$f" --chip=$chip --cuda-path=%cuda_path -o "$out" || exit 1; \
// RUN:     grep -q "^.target $chip" "$out.ptx" || exit 1; \
// RUN:     test -s "$out.cubin" || exit 1; \
// RUN:   done; \
// RUN: done
