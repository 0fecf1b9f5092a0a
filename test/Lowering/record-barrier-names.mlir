// RUN: pipeline-opt %s -pipeline-record-launch-contract=barrier-names=1 | FileCheck %s
// RUN: pipeline-opt %s -pipeline-record-launch-contract | FileCheck %s --check-prefix=OFF

// The barrier table tools name barriers by: one line per pipeline.init_mbars
// of the module, in program order: the init's location, the pipeline's name
// (its `name` attribute, else its location), its full barriers and all its
// barriers. The init's thread initializes the full barriers, then the empty
// ones, from the pipeline's first barrier (pipeline-sim counts them so).

!P = !pipeline.pipeline<stages = 3>
!Q = !pipeline.pipeline<stages = 2>
// OFF-NOT: __pipeline_mlir_barriers
// CHECK-LABEL: gpu.module @m
// CHECK: llvm.mlir.global external constant @__pipeline_mlir_barriers("{{.*}}record-barrier-names.mlir:[[@LINE+4]]:5|ring|3|6\0A{{.*}}record-barrier-names.mlir:[[@LINE+6]]:5|pipeline at {{.*}}record-barrier-names.mlir:[[@LINE+5]]:10|2|4\0A\00") {addr_space = 1 : i32
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k() kernel {
    %p = pipeline.create {name = "ring"} -> !P
    pipeline.init_mbars %p producer 1 consumer 4 : !P
    %q = pipeline.create -> !Q
    pipeline.init_mbars %q producer 1 consumer 1 : !Q
    pipeline.drain_producer %p : !P
    pipeline.drain_producer %q : !Q
    gpu.return
  }
}
