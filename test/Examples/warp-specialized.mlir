// The shipped example kernel parses, verifies and round-trips.
// RUN: pipeline-opt %examples/warp_specialized.mlir | pipeline-opt | FileCheck %s

// CHECK-LABEL: gpu.func @copy_through_pipeline
// CHECK: pipeline.create in
// CHECK: pipeline.init_mbars %{{.*}} producer 32 consumer 32
// CHECK: pipeline.produce
// CHECK: pipeline.arrive
// CHECK: pipeline.drain_producer
// CHECK: pipeline.consume
