// REQUIRES: ptxas
// Every kernel of the conversion tests is lowered and assembled by ptxas
// (pipeline-lower-to-binary, format=bin) for sm_90a and sm_100a; the
// commit_mma kernels (tcgen05) and the CTA-pair kernels (cta_group = 2) for
// sm_100a only: on sm_90a they are a diagnostic (invalid.mlir,
// commit-mma.mlir in this directory). The snippets
// leave out init_mbars where it is not what they test, so the protocol check
// is off here (verify-protocol=false).
// RUN: for f in setup direct handles scoped role control-flow cta-group-2; do \
// RUN:   chips="sm_90a sm_100a"; [ $f = cta-group-2 ] && chips=sm_100a; \
// RUN:   for chip in $chips; do \
// RUN:     pipeline-opt %S/../../Conversion/PipelineToNVGPU/$f.mlir -split-input-file \
// RUN:       -pipeline-lower-to-binary="chip=$chip cuda-path=%cuda_path verify-protocol=false" -o %t.$f.$chip.mlir || exit 1; \
// RUN:     grep -q 'bin = "\\7FELF' %t.$f.$chip.mlir || exit 1; \
// RUN:   done; \
// RUN: done
// RUN: pipeline-opt %S/../../Conversion/PipelineToNVGPU/commit-mma.mlir -split-input-file \
// RUN:   -pipeline-lower-to-binary="chip=sm_100a cuda-path=%cuda_path verify-protocol=false" -o %t.commit-mma.mlir
// RUN: grep -q 'bin = "\\7FELF' %t.commit-mma.mlir
