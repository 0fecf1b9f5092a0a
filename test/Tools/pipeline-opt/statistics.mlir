// MLIR's pass statistics on pipeline-opt: the passes of the named pipelines
// count with `Statistic` members (pipeline-unroll-stages: loops,
// loops-unrolled, body-copies, one-stage-loops;
// pipeline-legalize-kernel-abi: descriptor-arguments). An LLVM built
// without statistics (Debian's release LLVM 22) prints the report without
// values, so this checks the report and, where statistics are on, the
// values.
// RUN: pipeline-opt %s -pipeline-unroll-stages -mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s
// CHECK: Pass statistics report
// CHECK-NOT: error

!P = !pipeline.pipeline<stages = 2>
func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  pipeline.init_mbars %p producer 1 consumer 1 : !P
  scf.for %i = %c0 to %n step %c1 {
    %s = pipeline.acquire_producer %p : !P
    pipeline.release %s : !pipeline.stage<producer, !P>
  }
  return
}
