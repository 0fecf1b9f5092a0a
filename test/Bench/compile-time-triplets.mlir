// One kernel of 10,000 acquire_producer / arrive / release triplets and
// 10,000 consume regions (bench/compile-time/gen.py triplets, the shape of
// docs/benchmarks.md, "One large kernel: the checkers"): both checkers
// accept it, and with release_ctas = 2 the drain check scans the path of
// every producer visit to the exit. The checks are linear in the size of
// the kernel; nothing here is timed.
// RUN: %python %pipeline_src_root/bench/compile-time/gen.py triplets 10000 > %t.mlir
// RUN: pipeline-opt %t.mlir -pipeline-verify-protocol -pipeline-verify-linearity -o /dev/null

// The pair of CTAs: 64 consumer arrivals per phase, and a drain.
// RUN: sed -e 's/stages = 4>/stages = 4, release_ctas = 2>/' \
// RUN:     -e 's/consumer 32 :/consumer 64 :/' %t.mlir > %t.group.mlir
// RUN: pipeline-opt %t.group.mlir -pipeline-verify-protocol -o /dev/null

// Without the drain, the last visit is reported.
// RUN: sed -e '/drain_producer/d' %t.group.mlir > %t.nodrain.mlir
// RUN: not pipeline-opt %t.nodrain.mlir -pipeline-verify-protocol -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier
// CHECK-NEXT: %s9999 = pipeline.acquire_producer
// CHECK: note: kernel exit
// CHECK-NOT: error:
