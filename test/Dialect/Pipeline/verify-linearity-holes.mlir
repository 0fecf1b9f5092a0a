// RUN: pipeline-opt %s -split-input-file -pipeline-verify-linearity -verify-diagnostics

// Mistakes the linearity checker used to miss.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>, memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// A tile chosen by arith.select is a tile of the stage: read after the
// stage is freed, it races with the producer refilling it.
func.func @tile_through_select(%tp: !TP, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %s = pipeline.acquire_consumer %tp : !TP
  // expected-note @+1 {{tile taken here}}
  %a = pipeline.payload %s[0] : !CS -> !T
  %b = pipeline.payload %s[1] : !CS -> !T
  %t = arith.select %c, %a, %b : !T
  pipeline.arrive %s : !CS
  // expected-note @+1 {{stage released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{payload tile accessed after its stage was released: the other role may already reuse it}}
  %v = memref.load %t[%c0, %c0] : !T
  return %v : f32
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>, memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// The result of an scf.if that yields tiles.
func.func @tile_through_if(%tp: !TP, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %s = pipeline.acquire_consumer %tp : !TP
  %t = scf.if %c -> !T {
    %a = pipeline.payload %s[0] : !CS -> !T
    scf.yield %a : !T
  } else {
    // expected-note @+1 {{tile taken here}}
    %b = pipeline.payload %s[1] : !CS -> !T
    scf.yield %b : !T
  }
  pipeline.arrive %s : !CS
  // expected-note @+1 {{stage released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{payload tile accessed after its stage was released}}
  %v = memref.load %t[%c0, %c0] : !T
  return %v : f32
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// A tile taken in a branch whose stage is released in that branch: the
// scf.if result would be a tile of a freed stage. Yielding it is the
// access.
func.func @tile_outlives_branch(%tp: !TP, %c: i1, %other: !T) -> f32 {
  %c0 = arith.constant 0 : index
  %t = scf.if %c -> !T {
    %s = pipeline.acquire_consumer %tp : !TP
    // expected-note @+1 {{tile taken here}}
    %a = pipeline.payload %s[0] : !CS -> !T
    pipeline.arrive %s : !CS
    // expected-note @+1 {{stage released here}}
    pipeline.release %s : !CS
    // expected-error @+1 {{payload tile accessed after its stage was released}}
    scf.yield %a : !T
  } else {
    scf.yield %other : !T
  }
  %v = memref.load %t[%c0, %c0] : !T
  return %v : f32
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// A tile carried unchanged through a loop's iter_args: the loop result is
// the tile of the stage.
func.func @tile_through_iter_args(%tp: !TP, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = pipeline.acquire_consumer %tp : !TP
  // expected-note @+1 {{tile taken here}}
  %a = pipeline.payload %s[0] : !CS -> !T
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %a) -> (!T) {
    scf.yield %t : !T
  }
  pipeline.arrive %s : !CS
  // expected-note @+1 {{stage released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{payload tile accessed after its stage was released}}
  %v = memref.load %r[%c0, %c0] : !T
  return %v : f32
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// A tile carried beside its stage through iter_args, read after that
// iteration's stage was freed.
func.func @tile_beside_its_stage(%tp: !TP, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s0 = pipeline.acquire_consumer %tp : !TP
  // expected-note @+1 {{tile taken here}}
  %t0 = pipeline.payload %s0[0] : !CS -> !T
  %last:2 = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0, %t = %t0) -> (!CS, !T) {
    pipeline.arrive %s : !CS
    // expected-note @+1 {{stage released here}}
    pipeline.release %s : !CS
    // expected-error @+1 {{payload tile accessed after its stage was released}}
    %v = memref.load %t[%c0, %c0] : !T
    %s2 = pipeline.acquire_consumer %tp : !TP
    %t2 = pipeline.payload %s2[0] : !CS -> !T
    scf.yield %s2, %t2 : !CS, !T
  }
  pipeline.arrive %last#0 : !CS
  pipeline.release %last#0 : !CS
  return
}

// -----

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// A later block of a CFG.
func.func @tile_in_later_block(%tp: !TP) -> f32 {
  %c0 = arith.constant 0 : index
  %s = pipeline.acquire_consumer %tp : !TP
  // expected-note @+1 {{tile taken here}}
  %a = pipeline.payload %s[0] : !CS -> !T
  pipeline.arrive %s : !CS
  // expected-note @+1 {{stage released here}}
  pipeline.release %s : !CS
  cf.br ^bb1
^bb1:
  // expected-error @+1 {{payload tile accessed after its stage was released}}
  %v = memref.load %a[%c0, %c0] : !T
  return %v : f32
}

// -----

// Double arrival: two arrives of one thread on one stage complete a phase
// with a count of 1 before the other consumers are done.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
func.func @arrive_twice(%p: !P) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{first arrival here}}
  pipeline.arrive %s : !CS
  // expected-error @+1 {{double signal: pipeline.arrive arrives on the empty barrier of this consumer stage, which was already arrived on}}
  pipeline.arrive %s : !CS
  pipeline.release_without_signal %s : !CS
  return
}

// -----

// A lane-guarded arrive, then one by every lane: lane 0 arrives twice.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
func.func @guarded_then_all(%p: !P, %lane0: i1) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  scf.if %lane0 {
    // expected-note @+1 {{first arrival here}}
    pipeline.arrive %s : !CS
  }
  // expected-error @+1 {{double signal: pipeline.arrive arrives on the empty barrier of this consumer stage, which was already arrived on (when the scf.if condition is true)}}
  pipeline.arrive %s : !CS
  pipeline.release_without_signal %s : !CS
  return
}

// -----

// The same before a plain release (which arrives again).
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
func.func @guarded_then_release(%p: !P, %lane0: i1) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  scf.if %lane0 {
  } else {
    // expected-note @+1 {{first arrival here}}
    pipeline.arrive %s : !CS
  }
  // expected-error @+1 {{double signal: pipeline.release arrives on the empty barrier of this consumer stage, which was already arrived on (when the scf.if condition is false; end it with release_without_signal)}}
  pipeline.release %s : !CS
  return
}

// -----

// And inside a plain pipeline.consume region, whose exit arrives.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
func.func @guarded_in_consume(%p: !P, %lane0: i1) {
  // expected-error @+1 {{double signal: the pipeline.consume exit arrives on the empty barrier of this consumer stage, which was already arrived on (when the scf.if condition is true; use pipeline.consume_explicit)}}
  pipeline.consume %p as %s : !P {
    scf.if %lane0 {
      // expected-note @+1 {{first arrival here}}
      pipeline.arrive %s : !CS
    }
  }
  return
}

// -----

// An arrive, then one more under a condition.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
func.func @all_then_guarded(%p: !P, %c: i1) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{first arrival here}}
  pipeline.release_mma %s : !CS
  scf.if %c {
    // expected-error @+1 {{double signal: pipeline.arrive arrives on the empty barrier of this consumer stage, which was already arrived on (when the scf.if condition is true)}}
    pipeline.arrive %s : !CS
  }
  pipeline.release_without_signal %s : !CS
  return
}

// -----

// Producer side: commit arrives, so an arrive before it is a second
// arrival of the thread; and two arrives.
!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
func.func @producer_double(%p: !P) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_producer %p : !P
  // expected-note @+1 {{first arrival here}}
  pipeline.arrive %s : !PS
  // expected-error @+1 {{double signal: pipeline.commit arrives on the full barrier of this producer stage, which was already arrived on (end it with release or step)}}
  pipeline.commit %s : !PS
  // expected-note @+1 {{stage acquired here}}
  %t = pipeline.acquire_producer %p : !P
  // expected-note @+1 {{first arrival here}}
  pipeline.arrive %t : !PS
  // expected-error @+1 {{double signal: pipeline.arrive arrives on the full barrier of this producer stage, which was already arrived on}}
  pipeline.arrive %t : !PS
  pipeline.release %t : !PS
  return
}

// -----

// Producer side: a stage released without any signal on its full barrier.
!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
func.func @producer_missing_signal(%p: !P, %buf: memref<2xi32>, %v: i32) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_producer %p : !P
  %i = pipeline.index %s : !PS
  memref.store %v, %buf[%i] : memref<2xi32>
  // expected-error @+1 {{missing signal: nothing arrives on the full barrier of this producer stage before pipeline.release, so the consumer waits on it forever (a producer's release, step and produce exit only step: signal with pipeline.arrive, pipeline.expect_tx and the TMA loads on pipeline.mbar, pipeline.commit_mma, or end the stage with pipeline.commit)}}
  pipeline.release %s : !PS
  // expected-error @+1 {{missing signal: nothing arrives on the full barrier of the stage of this pipeline.produce region, so the consumer waits on it forever}}
  pipeline.produce %p as %t : !P {
    %j = pipeline.index %t : !PS
    memref.store %v, %buf[%j] : memref<2xi32>
  }
  return
}

// -----

// consumer_mbar of one stage signals that stage, not every stage of the
// pipeline: the second stage is still released without a signal.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
func.func @consumer_mbar_names_one_stage(%p: !P) {
  %a = pipeline.acquire_consumer %p : !P
  %i = pipeline.index %a : !CS
  %bars, %id = pipeline.consumer_mbar %p[%i] : !P
  %tok = nvgpu.mbarrier.arrive %bars[%id] : !G -> !nvgpu.mbarrier.token
  pipeline.release_without_signal %a : !CS
  // expected-note @+1 {{stage acquired here}}
  %b = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{missing signal: nothing arrives on the empty barrier of this consumer stage before pipeline.release_without_signal}}
  pipeline.release_without_signal %b : !CS
  return
}

// -----

// Handle-free step ops while a handle of the role is held: the handle's
// release steps the role a second time.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>
func.func @step_while_held(%p: !P) {
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{pipeline.consumer_step steps the consumer of this pipeline while a consumer stage of it is held: the stage's release steps again, so the consumer skips a stage and its next wait uses the wrong stage and phase (hang)}}
  pipeline.consumer_step %p : !P
  pipeline.release %s : !CS
  // expected-note @+1 {{stage acquired here}}
  %t = pipeline.acquire_producer %p : !P
  pipeline.arrive %t : !PS
  // expected-error @+1 {{pipeline.producer_signal_and_step steps the producer of this pipeline while a producer stage of it is held}}
  pipeline.producer_signal_and_step %p : !P
  pipeline.release %t : !PS
  // expected-note @+1 {{region that holds the stage}}
  pipeline.produce %p as %u : !P {
    pipeline.arrive %u : !PS
    // expected-error @+1 {{pipeline.drain_producer steps the producer of this pipeline while a producer stage of it is held}}
    pipeline.drain_producer %p : !P
  }
  return
}

// -----

// TMA loads on the stage's barrier with neither expect_tx nor an arrive:
// the loads only complete transaction bytes, nothing arrives, the phase
// never completes. Here in a scoped produce region whose loads go through
// a multicast mask (the barrier handed on only to TMA loads is no signal).
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 3>
!G = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 6>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x16xf16, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
func.func @loads_without_arm(%p: !P, %desc: !Desc, %a: memref<16x16xf16, #WG>, %b: memref<16x16xf16, #WG>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %mask = arith.constant 3 : i16
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{missing signal: nothing arrives on the full barrier of the stage of this pipeline.produce region}}
    pipeline.produce %p as %s : !P {
      %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !P>
      // expected-note @+1 {{this TMA load only completes transaction bytes on the stage's barrier, it does not arrive: arm the bytes with pipeline.expect_tx, which arrives}}
      nvgpu.tma.async.load %desc[%c0, %i], %bars[%id] to %a multicast_mask = %mask : !Desc, !G -> memref<16x16xf16, #WG>
      nvgpu.tma.async.load %desc[%i, %c0], %bars[%id] to %b : !Desc, !G -> memref<16x16xf16, #WG>
    }
  }
  return
}

