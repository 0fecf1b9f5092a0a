// One case per local verifier rule of the pipeline dialect types and ops.
// RUN: pipeline-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{expects at least 1 stage, got 0}}
func.func private @zero_stages(!pipeline.pipeline<stages = 0>)

// -----

// expected-error@+1 {{expects at least 1 producer sub-stage, got 0}}
func.func private @zero_producer_sub_stages(!pipeline.pipeline<stages = 2, producer_sub_stages = 0>)

// -----

// expected-error@+1 {{expects at least 1 consumer sub-stage, got 0}}
func.func private @zero_consumer_sub_stages(!pipeline.pipeline<stages = 2, consumer_sub_stages = 0>)

// -----

// expected-error@+1 {{expects cta_group 1 or 2, got 4}}
func.func private @bad_cta_group(!pipeline.pipeline<stages = 2, cta_group = 4>)

// -----

// expected-error@+1 {{expects release_ctas 1, 2, 4, 8 or 16 (an aligned group of a cluster of at most 16 CTAs), got 3}}
func.func private @bad_release_ctas(!pipeline.pipeline<stages = 2, release_ctas = 3>)

// -----

// expected-error@+1 {{expects cluster_m x cluster_n between 1 and 16 CTAs (a cluster of at most 16), got 4 x 8}}
func.func private @cluster_too_big(!pipeline.pipeline<stages = 2, cluster_m = 4, cluster_n = 8>)

// -----

// expected-error@+1 {{expects cluster_m to be a multiple of cta_group = 2 (a whole number of CTA pairs along M), got cluster_m = 3}}
func.func private @cluster_odd_pairs(!pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 3, cluster_n = 2>)

// -----

// expected-error@+1 {{expects release_ctas = 1 and clc = false with a cluster_m x cluster_n multicast cluster (the cross decides where consumer signals go), got release_ctas = 2}}
func.func private @cluster_and_group(!pipeline.pipeline<stages = 2, release_ctas = 2, cluster_m = 2, cluster_n = 2>)

// -----

// expected-error@+1 {{expects consumer_depth between 1 and the 2 stages (a consumer cannot hold more stages than there are), got 3}}
func.func private @deep_consumer(!pipeline.pipeline<stages = 2, consumer_depth = 3>)

// -----

// expected-error@+1 {{expects consumer_depth between 1 and the 2 stages (a consumer cannot hold more stages than there are), got 0}}
func.func private @zero_depth(!pipeline.pipeline<stages = 2, consumer_depth = 0>)

// -----

// expected-error@+1 {{expects release_ctas = 1 with cta_group = 2 (the CTA pair decides where consumer signals go), got release_ctas = 2}}
func.func private @release_ctas_with_pair(!pipeline.pipeline<stages = 2, cta_group = 2, release_ctas = 2>)

// -----

// release_mma is a consumer's signal: on a producer handle it is a type error.
func.func @release_mma_on_producer(%p: !pipeline.pipeline<stages = 2>) {
  %s = pipeline.acquire_producer %p : !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{'pipeline.release_mma' op operand #0 must be consumer stage handle}}
  pipeline.release_mma %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

// 2^16 stages of 2^16 sub-stages: the barrier count does not fit in 32 bits.
// expected-error@+1 {{expects the barriers to fit in the 232448 bytes of shared memory of a CTA (8 bytes each), got 4295032832 barriers}}
func.func private @too_many_barriers(!pipeline.pipeline<stages = 65536, producer_sub_stages = 65536>)

// -----

// expected-error@+1 {{expects the barriers to fit in the 232448 bytes of shared memory of a CTA (8 bytes each), got 29058 barriers}}
func.func private @barriers_exceed_smem(!pipeline.pipeline<stages = 14529>)

// -----

// expected-error@+1 {{expects k_group_size of at least 1, got 0}}
func.func private @zero_k_group(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 0, payload = [memref<2x0x8x8xf16, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects at least one payload tile array}}
func.func private @no_payload(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = []>)

// -----

// expected-error@+1 {{expects payload #0 to fit in the 232448 bytes of shared memory of a CTA, got 'memref<2x1x4611686018427387904xf64, #gpu.address_space<workgroup>>'}}
func.func private @payload_overflow(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x4611686018427387904xf64, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects payload #0 to be a memref type}}
func.func private @payload_not_memref(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [tensor<2x1x8xf16>]>)

// -----

// expected-error@+1 {{expects payload #0 in the workgroup address space, got 'memref<2x1x8x8xf16>'}}
func.func private @payload_global(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x8x8xf16>]>)

// -----

// expected-error@+1 {{expects payload #0 of static shape [stages, k_group_size, tile...]}}
func.func private @payload_dynamic(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x?xf16, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects payload #0 of static shape [stages, k_group_size, tile...]}}
func.func private @payload_rank2(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1xf16, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects payload #0 with the identity layout}}
func.func private @payload_strided(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x8xf16, strided<[16, 8, 1]>, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects payload #1 to have 4 stages in dimension 0, got 2}}
func.func private @payload_stages(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4>, k_group_size = 1, payload = [memref<4x1x8xf16, #gpu.address_space<workgroup>>, memref<2x1x8xf16, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects payload #0 to have 2 tiles (k_group_size) in dimension 1, got 1}}
func.func private @payload_k_group(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4>, k_group_size = 2, payload = [memref<4x1x8xf16, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects payload #0 of integer or float elements, got 'index'}}
func.func private @payload_index(!pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4>, k_group_size = 1, payload = [memref<4x1x8xindex, #gpu.address_space<workgroup>>]>)

// -----

// expected-error@+1 {{expects a stage of a !pipeline.pipeline or !pipeline.tile_pipeline type, got '!pipeline.role<producer, !pipeline.pipeline<stages = 2>>'}}
func.func private @stage_of_role(!pipeline.stage<producer, !pipeline.role<producer, !pipeline.pipeline<stages = 2>>>)

// -----

func.func @create_storage_f32(%buf: memref<64xf32, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{expects storage of type memref<?xi8> or memref<Nxi8> in the workgroup address space, got 'memref<64xf32, #gpu.address_space<workgroup>>'}}
  %p = pipeline.create in %buf[%c0] : memref<64xf32, #gpu.address_space<workgroup>> -> !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @create_storage_global(%buf: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{operand #0 must be memref in the workgroup (shared) address space, but got 'memref<64xi8>'}}
  %p = pipeline.create in %buf[%c0] : memref<64xi8> -> !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @create_misaligned(%buf: memref<?xi8, #gpu.address_space<workgroup>>) {
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{expects an offset that is a multiple of 8 (mbarrier alignment), got 4}}
  %p = pipeline.create in %buf[%c4] : memref<?xi8, #gpu.address_space<workgroup>> -> !pipeline.pipeline<stages = 2>
  return
}

// -----

// The name the hang report gives the pipeline is a string.
func.func @create_name_not_string() {
  // expected-error@+1 {{'pipeline.create' op attribute 'name' failed to satisfy constraint: string attribute}}
  %p = pipeline.create {name = 3 : i32} -> !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @create_negative_offset(%buf: memref<64xi8, #gpu.address_space<workgroup>>) {
  %c = arith.constant -8 : index
  // expected-error@+1 {{expects a non-negative offset, got -8}}
  %p = pipeline.create in %buf[%c] : memref<64xi8, #gpu.address_space<workgroup>> -> !pipeline.pipeline<stages = 2>
  return
}

// -----

// The generic form can give the buffer without the offset (or the reverse).
func.func @create_storage_without_offset(%buf: memref<64xi8, #gpu.address_space<workgroup>>) {
  // expected-error@+1 {{expects both a storage buffer and a byte offset, or neither, got only the buffer}}
  %p = "pipeline.create"(%buf) {operandSegmentSizes = array<i32: 1, 0>} : (memref<64xi8, #gpu.address_space<workgroup>>) -> !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @create_offset_without_storage(%off: index) {
  // expected-error@+1 {{expects both a storage buffer and a byte offset, or neither, got only the offset}}
  %p = "pipeline.create"(%off) {operandSegmentSizes = array<i32: 0, 1>} : (index) -> !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @create_too_small(%buf: memref<32xi8, #gpu.address_space<workgroup>>) {
  %c8 = arith.constant 8 : index
  // expected-error@+1 {{expects storage of at least 40 bytes for the barriers at offset 8, got 32}}
  %p = pipeline.create in %buf[%c8] : memref<32xi8, #gpu.address_space<workgroup>> -> !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @init_zero_producers() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects producer_arrive_count >= 1, got 0}}
  pipeline.init_mbars %p producer 0 consumer 1 : !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @init_zero_consumers() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects consumer_arrive_count >= 1, got -1}}
  pipeline.init_mbars %p producer 1 consumer -1 : !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @init_too_many() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects arrival counts <= 1048575 (mbarrier limit)}}
  pipeline.init_mbars %p producer 1 consumer 2000000 : !pipeline.pipeline<stages = 2>
  return
}

// -----

func.func @tile_wrong_pipeline(%a: memref<2x1x8xf16, #gpu.address_space<workgroup>>) {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects the result to wrap the operand pipeline '!pipeline.pipeline<stages = 2>', got '!pipeline.pipeline<stages = 2, cta_group = 2>'}}
  %t = pipeline.input_tile_pipeline %p payload(%a : memref<2x1x8xf16, #gpu.address_space<workgroup>>) : !pipeline.pipeline<stages = 2> -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, cta_group = 2>, k_group_size = 1, payload = [memref<2x1x8xf16, #gpu.address_space<workgroup>>]>
  return
}

// -----

func.func @tile_payload_count(%a: memref<2x1x8xf16, #gpu.address_space<workgroup>>) {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects 2 payload operands (one per payload of the result type), got 1}}
  %t = pipeline.input_tile_pipeline %p payload(%a : memref<2x1x8xf16, #gpu.address_space<workgroup>>) : !pipeline.pipeline<stages = 2> -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x8xf16, #gpu.address_space<workgroup>>, memref<2x1x8xf16, #gpu.address_space<workgroup>>]>
  return
}

// -----

func.func @tile_payload_type(%a: memref<2x1x8xf32, #gpu.address_space<workgroup>>) {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects payload #0 of type 'memref<2x1x8xf16, #gpu.address_space<workgroup>>', got 'memref<2x1x8xf32, #gpu.address_space<workgroup>>'}}
  %t = pipeline.input_tile_pipeline %p payload(%a : memref<2x1x8xf32, #gpu.address_space<workgroup>>) : !pipeline.pipeline<stages = 2> -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x8xf16, #gpu.address_space<workgroup>>]>
  return
}

// -----

func.func @role_wrong_pipeline() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects a role of '!pipeline.pipeline<stages = 2>', got '!pipeline.role<producer, !pipeline.pipeline<stages = 3>>'}}
  %r = pipeline.role %p : !pipeline.pipeline<stages = 2> -> !pipeline.role<producer, !pipeline.pipeline<stages = 3>>
  return
}

// -----

func.func @producer_mbar_sub_stage(%i: index) {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2, producer_sub_stages = 2>
  // expected-error@+1 {{expects sub_stage < 2 (producer sub-stages of the pipeline), got 2}}
  %b, %id = pipeline.producer_mbar %p[%i] sub_stage 2 : !pipeline.pipeline<stages = 2, producer_sub_stages = 2>
  return
}

// -----

func.func @consumer_mbar_sub_stage(%i: index) {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2, producer_sub_stages = 2>
  // expected-error@+1 {{expects sub_stage < 1 (consumer sub-stages of the pipeline), got 1}}
  %b, %id = pipeline.consumer_mbar %p[%i] sub_stage 1 : !pipeline.pipeline<stages = 2, producer_sub_stages = 2>
  return
}

// -----

func.func @mbar_sub_stage(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 3>>) {
  // expected-error@+1 {{expects sub_stage < 3 (consumer sub-stages of the pipeline), got 3}}
  %b, %id = pipeline.mbar %s sub_stage 3 : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 3>>
  return
}

// -----

func.func @expect_tx_no_bytes(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{expects a byte count: only a stage of a tile pipeline knows its payload bytes}}
  pipeline.expect_tx %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @expect_tx_too_many_bytes(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>) {
  %n = arith.constant 1048576 : index
  // expected-error@+1 {{expects a byte count in [0, 2^20), got 1048576}}
  pipeline.expect_tx %s bytes(%n) : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @expect_tx_consumer(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>, %n: index) {
  // expected-error@+1 {{operand #0 must be producer stage handle, but got '!pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>'}}
  pipeline.expect_tx %s bytes(%n) : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

!T = !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x8xf16, #gpu.address_space<workgroup>>]>
func.func @payload_array_index(%s: !pipeline.stage<consumer, !T>) {
  // expected-error@+1 {{expects payload array index < 1, got 1}}
  %t = pipeline.payload %s[1] : !pipeline.stage<consumer, !T> -> memref<1x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
  return
}

// -----

!T = !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x8xf16, #gpu.address_space<workgroup>>]>
func.func @payload_result_type(%s: !pipeline.stage<consumer, !T>) {
  // expected-error@+1 {{expects result type 'memref<1x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>', got 'memref<1x8xf16, #gpu.address_space<workgroup>>'}}
  %t = pipeline.payload %s[0] : !pipeline.stage<consumer, !T> -> memref<1x8xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @payload_not_tile(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{operand #0 must be stage handle of a tile pipeline}}
  %t = pipeline.payload %s[0] : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>> -> memref<1x8xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @release_producer_sub_stage(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2, producer_sub_stages = 2>>) {
  // expected-error@+1 {{expects no sub_stage on a producer stage: producer release only steps}}
  pipeline.release %s sub_stage 1 : !pipeline.stage<producer, !pipeline.pipeline<stages = 2, producer_sub_stages = 2>>
  return
}

// -----

func.func @release_sub_stage(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{expects sub_stage < 1 (consumer sub-stages of the pipeline), got 1}}
  pipeline.release %s sub_stage 1 : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @release_without_signal_producer(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{operand #0 must be consumer stage handle, but got '!pipeline.stage<producer, !pipeline.pipeline<stages = 2>>'}}
  pipeline.release_without_signal %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @acquire_on_consumer_role(%r: !pipeline.role<consumer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{'role' must be producer role pipeline, but got '!pipeline.role<consumer, !pipeline.pipeline<stages = 2>>'}}
  %s = pipeline.acquire %r : !pipeline.role<consumer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @acquire_sub_stage(%r: !pipeline.role<producer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>>) {
  // expected-error@+1 {{expects sub_stage < 2 (consumer sub-stages of the pipeline), got 5}}
  %s = pipeline.acquire %r sub_stage 5 : !pipeline.role<producer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>>
  return
}

// -----

func.func @wait_on_producer_role(%r: !pipeline.role<producer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{'role' must be consumer role pipeline, but got '!pipeline.role<producer, !pipeline.pipeline<stages = 2>>'}}
  %s = pipeline.wait %r : !pipeline.role<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @commit_consumer(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{operand #0 must be producer stage handle}}
  pipeline.commit %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @commit_mma_consumer(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{operand #0 must be producer stage handle}}
  pipeline.commit_mma %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @release_no_step_producer(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{operand #0 must be consumer stage handle}}
  pipeline.release_no_step %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @release_no_step_sub_stage(%s: !pipeline.stage<consumer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>>) {
  // expected-error@+1 {{expects sub_stage < 2 (consumer sub-stages of the pipeline), got 2}}
  pipeline.release_no_step %s sub_stage 2 : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>>
  return
}

// -----

func.func @acquire_wrong_result_type() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{failed to verify that result is a producer stage of the pipeline}}
  %s = "pipeline.acquire_producer"(%p) : (!pipeline.pipeline<stages = 2>) -> !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
  return
}

// -----

func.func @acquire_consumer_wrong_role() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{result #0 must be consumer stage handle}}
  %s = "pipeline.acquire_consumer"(%p) : (!pipeline.pipeline<stages = 2>) -> !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  return
}

// -----

func.func @mbar_wrong_group(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{failed to verify that barrier group matches the stage's pipeline}}
  %b, %i = "pipeline.mbar"(%s) {sub_stage = 0 : i32} : (!pipeline.stage<producer, !pipeline.pipeline<stages = 2>>) -> (!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>, index)
  return
}

// -----

func.func @scoped_wrong_arg() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects one region argument of type '!pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>'}}
  "pipeline.consume"(%p) ({
  ^bb0(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>):
    "pipeline.yield"() : () -> ()
  }) : (!pipeline.pipeline<stages = 2>) -> ()
  return
}

// -----

// The generic form can end the region with another terminator.
func.func @scoped_not_yield() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects the region to end with 'pipeline.yield', got 'cf.br'}}
  "pipeline.produce"(%p) ({
  ^bb0(%s: !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>):
    cf.br ^bb0(%s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>)
  }) : (!pipeline.pipeline<stages = 2>) -> ()
  return
}

// -----

func.func @scoped_yield_types() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects the region to yield 'index', got 'i32'}}
  %v = pipeline.consume %p as %s : !pipeline.pipeline<stages = 2> -> index {
    %c = arith.constant 1 : i32
    pipeline.yield %c : i32
  }
  return
}

// -----

func.func @scoped_yield_nothing() -> index {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  // expected-error@+1 {{expects the region to yield 'index', got nothing}}
  %v = pipeline.consume %p as %s : !pipeline.pipeline<stages = 2> -> index {
  }
  return %v : index
}

// -----

func.func @scoped_yield_handle() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  %v = pipeline.produce %p as %s : !pipeline.pipeline<stages = 2> -> !pipeline.stage<producer, !pipeline.pipeline<stages = 2>> {
    // expected-error@+1 {{expects no stage handle to leave the region: the region releases its stage on exit}}
    pipeline.yield %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
  }
  return
}

// -----

func.func @scoped_on_role(%r: !pipeline.role<consumer, !pipeline.pipeline<stages = 2>>) {
  // expected-error@+1 {{expects a !pipeline.pipeline or !pipeline.tile_pipeline type, got '!pipeline.role<consumer, !pipeline.pipeline<stages = 2>>'}}
  pipeline.consume %r as %s : !pipeline.role<consumer, !pipeline.pipeline<stages = 2>> {
  }
  return
}

// -----

func.func @yield_outside() {
  // expected-error@+1 {{expects parent op to be one of 'pipeline.produce, pipeline.consume, pipeline.consume_explicit'}}
  "pipeline.yield"() : () -> ()
  return
}

// -----

// A stage of sub-byte elements must fill whole bytes: TMA and expect_tx
// count bytes (3 FP4 elements are 12 bits).
#WG = #gpu.address_space<workgroup>
// expected-error @+1 {{expects payload #0 to hold a whole number of bytes per stage (the bytes expect_tx arms and TMA delivers), got 12 bits of 'f4E2M1FN' per stage in 'memref<2x1x3xf4E2M1FN, #gpu.address_space<workgroup>>'}}
func.func private @odd_bits() -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2>, k_group_size = 1, payload = [memref<2x1x3xf4E2M1FN, #WG>]>

// -----

#WG = #gpu.address_space<workgroup>
!TP = !pipeline.tile_pipeline<pipeline = <stages = 2>, k_group_size = 1, payload = [memref<2x1x32x64xbf16, #WG>]>
func.func @tma_load_dynamic_box(%s: !pipeline.stage<producer, !TP>, %map: !llvm.ptr, %dst: memref<?x64xbf16, #WG>) {
  %i0 = arith.constant 0 : i32
  // expected-error @+1 {{'pipeline.tma_load' op expects a destination of static shape (its bytes are the box's), got 'memref<?x64xbf16, #gpu.address_space<workgroup>>'}}
  pipeline.tma_load %s, %map[%i0, %i0] -> %dst : !pipeline.stage<producer, !TP>, !llvm.ptr, memref<?x64xbf16, #WG>
  return
}

// -----

#WG = #gpu.address_space<workgroup>
!TP = !pipeline.tile_pipeline<pipeline = <stages = 2>, k_group_size = 1, payload = [memref<2x1x32x64xbf16, #WG>]>
func.func @tma_load_rank6(%s: !pipeline.stage<producer, !TP>, %map: !llvm.ptr, %dst: memref<32x64xbf16, #WG>) {
  %i0 = arith.constant 0 : i32
  // expected-error @+1 {{'pipeline.tma_load' op expects 1 to 5 coordinates (a tensor of rank 1 to 5), got 6}}
  pipeline.tma_load %s, %map[%i0, %i0, %i0, %i0, %i0, %i0] -> %dst : !pipeline.stage<producer, !TP>, !llvm.ptr, memref<32x64xbf16, #WG>
  return
}

// -----

#WG = #gpu.address_space<workgroup>
!TP = !pipeline.tile_pipeline<pipeline = <stages = 2>, k_group_size = 1, payload = [memref<2x1x32x64xbf16, #WG>]>
func.func @tma_load_consumer(%s: !pipeline.stage<consumer, !TP>, %map: !llvm.ptr, %dst: memref<32x64xbf16, #WG>) {
  %i0 = arith.constant 0 : i32
  // expected-error @+1 {{'pipeline.tma_load' op operand #0 must be}}
  pipeline.tma_load %s, %map[%i0, %i0] -> %dst : !pipeline.stage<consumer, !TP>, !llvm.ptr, memref<32x64xbf16, #WG>
  return
}

// -----

// expected-error @+1 {{expects columns 32, 64, 128, 256 or 512}}
func.func @tmem_columns(%t: !pipeline.tmem<columns = 96>) {
  return
}

// -----

!Smem = memref<?xi8, #gpu.address_space<workgroup>>
func.func @tmem_offset(%smem: !Smem) {
  %c4 = arith.constant 4 : index
  // expected-error @+1 {{'pipeline.tmem_create' op expects an offset that is a multiple of 8 (the deallocation barrier is an 8-byte mbarrier), got 4}}
  %t = pipeline.tmem_create in %smem[%c4] : !Smem -> !pipeline.tmem<columns = 512>
  return
}

// -----

func.func @tmem_no_readers(%t: !pipeline.tmem<columns = 512>) {
  // expected-error @+1 {{'pipeline.tmem_alloc' op expects at least 1 reader, got 0}}
  %a = pipeline.tmem_alloc %t readers 0 : !pipeline.tmem<columns = 512> -> i32
  return
}

// -----

// expected-error @+1 {{expects a clc pipeline to have cta_group = 1, release_ctas = 1, no sub-stages and tmem = false (its consumers signal cluster rank 0)}}
func.func @clc_pair(%p: !pipeline.pipeline<stages = 2, cta_group = 2, clc = true>) {
  return
}

// -----

#WG = #gpu.address_space<workgroup>
!TP = !pipeline.tile_pipeline<pipeline = <stages = 2>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>
func.func @clc_on_plain(%s: !pipeline.stage<producer, !TP>) {
  // expected-error @+1 {{'pipeline.clc_try_cancel' op expects a stage of a tile pipeline over a clc = true pipeline (the payload holds each stage's response)}}
  pipeline.clc_try_cancel %s : !pipeline.stage<producer, !TP>
  return
}

// -----

#WG = #gpu.address_space<workgroup>
!TP = !pipeline.tile_pipeline<pipeline = <stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x32xi8, #WG>]>
func.func @clc_response_size(%s: !pipeline.stage<consumer, !TP>) {
  // expected-error @+1 {{'pipeline.clc_response' op expects the clc tile pipeline to hold one payload of 16 bytes per stage (the cluster launch control response), got 32 bytes in 1 payload(s)}}
  %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !TP>
  return
}
