// RUN: pipeline-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @smem_bytes_folds
func.func @smem_bytes_folds() -> (index, index, index) {
  // 2 * 4 barriers of 8 bytes.
  // CHECK-DAG: %[[A:.*]] = arith.constant 64 : index
  %a = pipeline.smem_bytes !pipeline.pipeline<stages = 4>
  // 2 stages x (2 producer + 3 consumer sub-stages) barriers of 8 bytes.
  // CHECK-DAG: %[[B:.*]] = arith.constant 80 : index
  %b = pipeline.smem_bytes !pipeline.pipeline<stages = 2, producer_sub_stages = 2, consumer_sub_stages = 3>
  // A single stage still has a full and an empty barrier.
  // CHECK-DAG: %[[C:.*]] = arith.constant 16 : index
  %c = pipeline.smem_bytes !pipeline.pipeline<stages = 1>
  // CHECK-NOT: pipeline.smem_bytes
  // CHECK: return %[[A]], %[[B]], %[[C]]
  return %a, %b, %c : index, index, index
}

// CHECK-LABEL: func.func @unused_queries_are_removed
func.func @unused_queries_are_removed(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>) {
  // Pure handle queries without users disappear; the release stays.
  // CHECK-NOT: pipeline.index
  // CHECK-NOT: pipeline.mbar
  %i = pipeline.index %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  %b, %id = pipeline.mbar %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  // CHECK: pipeline.release
  pipeline.release %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  return
}

// CHECK-LABEL: func.func @scoped_ops_with_pure_regions_stay
func.func @scoped_ops_with_pure_regions_stay(%p: !pipeline.pipeline<stages = 2>) {
  // A scoped op waits, signals and steps whatever its region holds: one
  // with an empty (or pure, unused) region is not dead.
  // CHECK: pipeline.produce
  // CHECK: pipeline.consume
  // CHECK: pipeline.consume_explicit
  pipeline.produce %p as %s : !pipeline.pipeline<stages = 2> {
  }
  pipeline.consume %p as %t : !pipeline.pipeline<stages = 2> {
    %i = pipeline.index %t : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  }
  pipeline.consume_explicit %p as %u : !pipeline.pipeline<stages = 2> {
  }
  return
}
