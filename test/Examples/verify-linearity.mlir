// Every example kernel under examples/ verifies cleanly under
// pipeline-verify-linearity (nothing to check while examples/ is absent).
// RUN: test ! -d %examples || find %examples -name '*.mlir' -print0 | xargs -0 -r -n1 pipeline-opt -pipeline-verify-linearity -split-input-file -o /dev/null
