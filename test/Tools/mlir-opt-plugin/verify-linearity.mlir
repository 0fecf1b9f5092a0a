// The plugin's pass entry point registers the project's passes in upstream
// mlir-opt: pipeline-verify-linearity reports a leaked stage handle there as
// it does in pipeline-opt, and accepts the same program once it releases it.
// UNSUPPORTED: sanitizer
// RUN: not mlir-opt %s --load-dialect-plugin=%pipeline_plugin \
// RUN:   --load-pass-plugin=%pipeline_plugin \
// RUN:   --pass-pipeline='builtin.module(pipeline-verify-linearity)' \
// RUN:   -split-input-file 2>&1 | FileCheck %s
// RUN: not mlir-opt %s --load-dialect-plugin=%pipeline_plugin \
// RUN:   --pass-pipeline='builtin.module(pipeline-verify-linearity)' \
// RUN:   -split-input-file 2>&1 | FileCheck %s --check-prefix=NOPASS

// NOPASS: 'pipeline-verify-linearity' does not refer to a registered pass or pass pipeline

!P = !pipeline.pipeline<stages = 4>
// The diagnostics point where pipeline-opt's do: the return, the acquire.
// CHECK: verify-linearity.mlir:[[@LINE+5]]:3: error: stage handle leaks at the end of the function
// CHECK: verify-linearity.mlir:[[@LINE+3]]:8: note: stage acquired here
func.func @leak() {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
// CHECK-NOT: error
// CHECK-LABEL: func.func @released
func.func @released() {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  pipeline.release %s : !CS
  return
}
