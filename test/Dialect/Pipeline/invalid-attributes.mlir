// RUN: pipeline-opt %s -split-input-file -verify-diagnostics

// The discardable attributes the dialect's passes hand each other
// (pipeline.known_stage, pipeline.waited_ahead, pipeline.input_pipeline,
// pipeline.min_dynamic_smem, pipeline.min_block_size) are verified where
// they sit: type, value and the op they may sit on.

!P = !pipeline.pipeline<stages = 2>
func.func @known_stage_out_of_range(%p: !P) {
  // A stage index the pipeline does not have: the lowering would address
  // barriers past the pipeline's group.
  // expected-error @+1 {{'pipeline.acquire_producer' op expects 'pipeline.known_stage' between 0 and 1 (a stage of its pipeline's 2), got 7}}
  %s = pipeline.acquire_producer %p {pipeline.known_stage = 7 : i64} : !P
  pipeline.release %s : !pipeline.stage<producer, !P>
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @known_stage_negative(%p: !P) {
  %s = pipeline.acquire_producer %p : !P
  // expected-error @+1 {{'pipeline.release' op expects 'pipeline.known_stage' between 0 and 1 (a stage of its pipeline's 2), got -1}}
  pipeline.release %s {pipeline.known_stage = -1 : i64} : !pipeline.stage<producer, !P>
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @known_stage_not_i64(%p: !P) {
  // expected-error @+1 {{'pipeline.wait_producer' op expects 'pipeline.known_stage' to be an i64 stage index, got 1 : i32}}
  pipeline.wait_producer %p {pipeline.known_stage = 1 : i32} : !P
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @known_stage_not_integer(%p: !P) {
  // expected-error @+1 {{'pipeline.wait_producer' op expects 'pipeline.known_stage' to be an i64 stage index, got "one"}}
  pipeline.wait_producer %p {pipeline.known_stage = "one"} : !P
  return
}

// -----

func.func @known_stage_on_another_op() {
  // expected-error @+1 {{'arith.constant' op expects 'pipeline.known_stage' only on a pipeline op that reads or steps a role's stage (an acquire, wait, release, step or stage query), got it on this op}}
  %c0 = arith.constant {pipeline.known_stage = 0 : i64} 0 : index
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @known_stage_on_drain(%p: !P) {
  // expected-error @+1 {{'pipeline.drain_producer' op expects 'pipeline.known_stage' only on a pipeline op that reads or steps a role's stage}}
  pipeline.drain_producer %p {pipeline.known_stage = 0 : i64} : !P
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @waited_ahead_not_unit(%p: !P) {
  // expected-error @+1 {{'pipeline.acquire_consumer' op expects 'pipeline.waited_ahead' to be a unit attribute, got true}}
  %s = pipeline.acquire_consumer %p {pipeline.waited_ahead = true} : !P
  pipeline.release %s : !pipeline.stage<consumer, !P>
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @waited_ahead_with_ready(%p: !P, %r: i1) {
  // A ready token already decides whether the acquire waits.
  // expected-error @+1 {{'pipeline.acquire_consumer' op expects 'pipeline.waited_ahead' only on an acquire_producer or acquire_consumer without ready(...), or on a produce, consume or consume_explicit, got it on this op}}
  %s = pipeline.acquire_consumer %p ready(%r) {pipeline.waited_ahead} : !P
  pipeline.release %s : !pipeline.stage<consumer, !P>
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @waited_ahead_on_release(%p: !P) {
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{'pipeline.release' op expects 'pipeline.waited_ahead' only on an acquire_producer or acquire_consumer without ready(...)}}
  pipeline.release %s {pipeline.waited_ahead} : !pipeline.stage<consumer, !P>
  return
}

// -----

!P = !pipeline.pipeline<stages = 2, cta_group = 2>
func.func @input_pipeline_without_tile_view(%p: !P) {
  // An accumulator pipeline: its consumer arrivals belong in the leader.
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{'pipeline.release' op expects 'pipeline.input_pipeline' only on an op of an input pipeline (one with an input_tile_pipeline view), got it on an op of a pipeline without one: its consumer signals would reach the wrong CTAs}}
  pipeline.release %s {pipeline.input_pipeline} : !pipeline.stage<consumer, !P>
  return
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
func.func @input_pipeline_on_tile_op(%p: !P, %buf: memref<2x1x64x64xbf16, #WG>) {
  %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
  // expected-error @+1 {{'pipeline.acquire_consumer' op expects 'pipeline.input_pipeline' only on a pipeline op whose first operand is a pipeline, role or stage that is no tile pipeline, got it on this op}}
  %s = pipeline.acquire_consumer %tp {pipeline.input_pipeline} : !TP
  pipeline.release %s : !pipeline.stage<consumer, !TP>
  return
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects 'pipeline.min_dynamic_smem' to be a positive i64 byte count, got 0 : i64}}
  gpu.func @no_bytes() kernel attributes {pipeline.min_dynamic_smem = 0 : i64} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects 'pipeline.min_dynamic_smem' only on a kernel function, got it on this op}}
  gpu.func @helper() attributes {pipeline.min_dynamic_smem = 64 : i64} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects 'pipeline.min_block_size' to be a positive i64 thread count, got -32 : i64}}
  gpu.func @negative_block() kernel attributes {pipeline.min_block_size = -32 : i64} {
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @misspelled(%p: !P) {
  // expected-error @+1 {{'pipeline.wait_producer' op expects a discardable attribute of the pipeline dialect (pipeline.known_stage, pipeline.waited_ahead, pipeline.input_pipeline, pipeline.min_dynamic_smem, pipeline.min_block_size), got 'pipeline.known_stages'}}
  pipeline.wait_producer %p {pipeline.known_stages = 0 : i64} : !P
  return
}

// -----

// Accepted: each where its pass puts it.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!P2 = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P2, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @valid(%p: !P, %p2: !P2, %buf: memref<2x1x64x64xbf16, #WG>) kernel attributes {pipeline.min_dynamic_smem = 1088 : i64, pipeline.min_block_size = 64 : i64} {
    pipeline.wait_consumer %p {pipeline.known_stage = 0 : i64} : !P
    %s = pipeline.acquire_producer %p {pipeline.known_stage = 1 : i64, pipeline.waited_ahead} : !P
    pipeline.release %s {pipeline.known_stage = 1 : i64} : !pipeline.stage<producer, !P>
    pipeline.consume %p as %c : !P {
    } attributes {pipeline.known_stage = 0 : i64, pipeline.waited_ahead}
    %tp = pipeline.input_tile_pipeline %p2 payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P2 -> !TP
    %t = pipeline.acquire_consumer %p2 {pipeline.input_pipeline} : !P2
    pipeline.release %t {pipeline.input_pipeline} : !pipeline.stage<consumer, !P2>
    gpu.return
  }
}
