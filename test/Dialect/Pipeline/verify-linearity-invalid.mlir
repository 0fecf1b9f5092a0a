// RUN: pipeline-opt %s -pipeline-verify-linearity -split-input-file -verify-diagnostics

// Rule 1: every handle consumed exactly once, never used afterwards.

!P = !pipeline.pipeline<stages = 4>
func.func @leak_straight_line() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle leaks at the end of the function}}
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @released_twice() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{first released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{stage handle released twice}}
  pipeline.release %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
!PR = !pipeline.role<producer, !P>
!PS = !pipeline.stage<producer, !P>
func.func @commit_then_step() {
  %p = pipeline.create -> !P
  %prod = pipeline.role %p : !P -> !PR
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire %prod : !PR
  // expected-note @+1 {{first released here}}
  pipeline.commit %s : !PS
  // expected-error @+1 {{stage handle released twice}}
  pipeline.step %s : !PS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @index_after_release() -> index {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{stage handle used after release}}
  %i = pipeline.index %s : !CS
  return %i : index
}

// -----

!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
func.func @mbar_after_release() -> index {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_producer %p : !P
  pipeline.arrive %s : !PS
  // expected-note @+1 {{released here}}
  pipeline.release %s : !PS
  // expected-error @+1 {{stage handle used after release}}
  %bars, %id = pipeline.mbar %s : !PS
  return %id : index
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @arrive_after_release() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{stage handle used after release}}
  pipeline.arrive %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @release_mma_after_release() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{released here}}
  pipeline.release %s : !CS
  // expected-error @+1 {{stage handle used after release}}
  pipeline.release_mma %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
func.func @tile_after_release() -> f16 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  %s = pipeline.acquire_consumer %tp : !TP
  // expected-note @+1 {{tile taken here}}
  %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP> -> !T
  // The signal of the stage (a tile pipeline's release only steps).
  pipeline.arrive %s : !pipeline.stage<consumer, !TP>
  // expected-note @+1 {{stage released here}}
  pipeline.release %s : !pipeline.stage<consumer, !TP>
  // expected-error @+1 {{payload tile accessed after its stage was released: the other role may already reuse it}}
  %v = memref.load %tiles[%c0, %c0, %c0] : !T
  return %v : f16
}

// -----

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!V = memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
func.func @tile_view_after_release(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 0.0 : f16
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  %s = pipeline.acquire_producer %tp : !TP
  pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
  // expected-note @+1 {{tile taken here}}
  %tiles = pipeline.payload %s[0] : !pipeline.stage<producer, !TP> -> !T
  %tile = memref.subview %tiles[0, 0, 0] [1, 64, 64] [1, 1, 1] : !T to !V
  // expected-note @+1 {{stage released here}}
  pipeline.release %s : !pipeline.stage<producer, !TP>
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{payload tile accessed after its stage was released}}
    memref.store %f, %tile[%i, %i] : !V
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @yield_after_release(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.if %c -> !CS {
    // expected-note @+1 {{released here}}
    pipeline.release %s : !CS
    // expected-error @+1 {{stage handle used after release}}
    scf.yield %s : !CS
  } else {
    scf.yield %s : !CS
  }
  pipeline.release %r : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @use_after_passed_on(%c: i1) -> index {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.if %c -> !CS {
    scf.yield %s : !CS
  } else {
    // expected-note @+1 {{passed on here}}
    scf.yield %s : !CS
  }
  // expected-error @+1 {{stage handle used after it was passed on}}
  %i = pipeline.index %s : !CS
  pipeline.release %r : !CS
  return %i : index
}

// -----

// Rule 2: structured control flow.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @if_leaks_when_false(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle leaks when the scf.if condition is false}}
  scf.if %c {
    // expected-note @+1 {{released here when the condition is true}}
    pipeline.release %s : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @if_leaks_when_true(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle leaks when the scf.if condition is true}}
  scf.if %c {
    %i = pipeline.index %s : !CS
  } else {
    // expected-note @+1 {{released here when the condition is false}}
    pipeline.release %s : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @if_branch_local_leak(%c: i1) {
  %p = pipeline.create -> !P
  scf.if %c {
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    // expected-error @+1 {{stage handle leaks when the scf.if condition is true}}
    scf.yield
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @nested_if_leak(%a: i1, %b: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    scf.if %a {
      // expected-error @+1 {{stage handle leaks when the scf.if condition is false}}
      scf.if %b {
        // expected-note @+1 {{released here when the condition is true}}
        pipeline.release %s : !CS
      }
    } else {
      pipeline.release %s : !CS
    }
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @for_releases_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{stage handle acquired outside the scf.for is released in its body: it leaks on the exit of the scf.for after iteration 0 and is released again in the second iteration}}
    pipeline.release %s : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @for_body_leak(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  scf.for %i = %c0 to %n step %c1 {
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    %x = pipeline.index %s : !CS
    // expected-error @+1 {{stage handle leaks at the end of every scf.for iteration}}
    scf.yield
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @for_yields_released(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s0 = pipeline.acquire_consumer %p : !P
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (!CS) {
    // expected-note @+1 {{released here}}
    pipeline.release %s : !CS
    // expected-error @+1 {{stage handle used after release}}
    scf.yield %s : !CS
  }
  pipeline.release %r : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @for_result_leaks(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s0 = pipeline.acquire_consumer %p : !P
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (!CS) {
    pipeline.release %s : !CS
    %t = pipeline.acquire_consumer %p : !P
    scf.yield %t : !CS
  }
  // expected-error @+1 {{stage handle leaks at the end of the function}}
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @while_after_releases_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    // expected-error @+1 {{stage handle acquired outside the scf.while is released in its body: it leaks on the exit of the scf.while after iteration 0 and is released again in the second iteration}}
    pipeline.release %s : !CS
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1 : index
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @while_before_releases_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.while (%i = %c0) : (index) -> index {
    // expected-error @+1 {{stage handle acquired outside the scf.while is released in its before region: it is released again when the condition is evaluated a second time}}
    pipeline.release %s : !CS
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1 : index
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @while_before_leak(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %r = scf.while (%i = %c0) : (index) -> index {
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    %go = arith.cmpi slt, %i, %n : index
    // expected-error @+1 {{stage handle leaks at the end of the scf.while before region}}
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    %j1 = arith.addi %j, %c1 : index
    scf.yield %j1 : index
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @switch_case_leaks(%k: index) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle leaks in case 1 of the scf.index_switch}}
  scf.index_switch %k
  case 0 {
    pipeline.release %s : !CS
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
    // expected-note @+1 {{released here in another case}}
    pipeline.release %s : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @switch_default_leaks(%k: index) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle leaks in the default case of the scf.index_switch}}
  scf.index_switch %k
  case 7 {
    // expected-note @+1 {{released here in another case}}
    pipeline.release %s : !CS
    scf.yield
  }
  default {
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @execute_region_path_leak(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  scf.execute_region {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    // expected-note @+1 {{released here on another path}}
    pipeline.release %s : !CS
    scf.yield
  ^bb2:
    // expected-error @+1 {{stage handle leaks on the path through ^bb2 of the scf.execute_region}}
    scf.yield
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @execute_region_local_leak() {
  %p = pipeline.create -> !P
  scf.execute_region {
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    // expected-error @+1 {{stage handle leaks at the end of the scf.execute_region}}
    scf.yield
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @unknown_region_releases_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-error @+1 {{stage handle acquired outside 'scf.parallel' is released in one of its regions, which is not known to run exactly once}}
    pipeline.release %s : !CS
    scf.reduce
  }
  return
}

// -----

// Rule 3: escapes.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func private @helper(!CS)
func.func @escape_call() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle escapes into a call: stage handles may not cross function boundaries}}
  func.call @helper(%s) : (!CS) -> ()
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @escape_return() -> !CS {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle escapes: it is returned from the function}}
  return %s : !CS
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @escape_store() -> tensor<1x!CS> {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle escapes into 'tensor.from_elements', which does not declare whether it consumes or borrows it (pmlir::StageUseOpInterface)}}
  %t = tensor.from_elements %s : tensor<1x!CS>
  return %t : tensor<1x!CS>
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @escape_cast() -> i64 {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-error @+1 {{stage handle escapes into 'builtin.unrealized_conversion_cast'}}
  %i = builtin.unrealized_conversion_cast %s : !CS to i64
  return %i : i64
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
// expected-error @+1 {{stage handle argument: stage handles may not cross function boundaries}}
func.func @stage_argument(%s: !CS) {
  pipeline.release %s : !CS
  return
}

// -----

// Rule 4: role discipline.

!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
func.func @acquire_producer_twice() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_producer %p : !P
  // expected-error @+1 {{acquires a producer stage while another producer stage of this pipeline is outstanding: it waits on the same stage twice (hang)}}
  %b = pipeline.acquire_producer %p : !P
  pipeline.arrive %a : !PS
  pipeline.release %a : !PS
  pipeline.release %b : !PS
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
!CR = !pipeline.role<consumer, !P>
!CS = !pipeline.stage<consumer, !P>
func.func @wait_twice_through_roles() {
  %p = pipeline.create -> !P
  %c1 = pipeline.role %p : !P -> !CR
  %c2 = pipeline.role %p : !P -> !CR
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.wait %c1 : !CR
  // expected-error @+1 {{acquires a consumer stage while another consumer stage of this pipeline is outstanding}}
  %b = pipeline.wait %c2 : !CR
  pipeline.release %a : !CS
  pipeline.release %b : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
func.func @acquire_through_tile_pipeline() {
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  // expected-note @+1 {{outstanding stage acquired here}}
  %s = pipeline.acquire_consumer %tp : !TP
  // expected-error @+1 {{acquires a consumer stage while another consumer stage of this pipeline is outstanding}}
  %t = pipeline.acquire_consumer %p : !P
  pipeline.release %t : !pipeline.stage<consumer, !P>
  pipeline.arrive %s : !pipeline.stage<consumer, !TP>
  pipeline.release %s : !pipeline.stage<consumer, !TP>
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
func.func @acquire_in_loop_while_held(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_producer %p : !P
  scf.for %i = %c0 to %n step %c1 {
    // expected-error @+1 {{acquires a producer stage while another producer stage of this pipeline is outstanding}}
    %b = pipeline.acquire_producer %p : !P
    pipeline.release %b : !PS
  }
  pipeline.arrive %a : !PS
  pipeline.release %a : !PS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
func.func @release_owned_stage() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{region that owns the stage}}
  pipeline.produce %p as %s : !P {
    pipeline.arrive %s : !PS
    // expected-error @+1 {{stage handle owned by the enclosing pipeline.produce region is released by hand: the region releases it on exit}}
    pipeline.release %s : !PS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @acquire_inside_consume() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{region that owns the stage}}
  pipeline.consume %p as %s : !P {
    // expected-error @+1 {{acquires a consumer stage inside a pipeline.consume region that already owns the consumer stage of this pipeline: it waits on the same stage twice (hang)}}
    %t = pipeline.acquire_consumer %p : !P
    pipeline.release %t : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
func.func @produce_while_held() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{outstanding stage acquired here}}
  %a = pipeline.acquire_producer %p : !P
  // expected-error @+1 {{acquires a producer stage while another producer stage of this pipeline is outstanding}}
  pipeline.produce %p as %s : !P {
    pipeline.arrive %s : !PS
  }
  pipeline.arrive %a : !PS
  pipeline.release %a : !PS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @owned_stage_passed_on(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{region that owns the stage}}
  pipeline.consume %p as %s : !P {
    %r = scf.if %c -> !CS {
      // expected-error @+1 {{stage handle owned by the enclosing pipeline.consume region is passed on: the region releases it on exit}}
      scf.yield %s : !CS
    } else {
      scf.yield %s : !CS
    }
  }
  return
}

// -----

// Rule 5: the signals around the handles.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @arrive_then_release() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{first arrival here}}
  pipeline.arrive %s : !CS
  // expected-error @+1 {{double signal: release arrives on the empty barrier of this consumer stage, which was already arrived on (end it with release_without_signal)}}
  pipeline.release %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @arrive_on_both_paths_then_release(%c: i1) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  scf.if %c {
    pipeline.arrive %s : !CS
  } else {
    // expected-note @+1 {{first arrival here}}
    pipeline.arrive %s : !CS
  }
  // expected-error @+1 {{double signal: release arrives on the empty barrier of this consumer stage}}
  pipeline.release %s : !CS
  return
}

// -----

!P2 = !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>
!CR = !pipeline.role<consumer, !P2>
!CS = !pipeline.stage<consumer, !P2>
func.func @release_no_step_then_release() {
  %p = pipeline.create -> !P2
  %cons = pipeline.role %p : !P2 -> !CR
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.wait %cons : !CR
  // expected-note @+1 {{first arrival here}}
  pipeline.release_no_step %s sub_stage 1 : !CS
  // expected-error @+1 {{double signal: release arrives on the empty barrier of this consumer stage}}
  pipeline.release %s sub_stage 1 : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @arrive_in_consume_region() {
  %p = pipeline.create -> !P
  // expected-error @+1 {{double signal: the pipeline.consume region arrives on the empty barrier of its stage on exit, but it was already arrived on (use pipeline.consume_explicit)}}
  pipeline.consume %p as %s : !P {
    // expected-note @+1 {{first arrival here}}
    pipeline.arrive %s : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @release_without_signal_missing() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // An unused barrier signals nothing.
  %bars, %id = pipeline.mbar %s : !CS
  // expected-error @+1 {{missing signal: nothing arrives on the empty barrier of this consumer stage before pipeline.release_without_signal, so the producer waits on it forever}}
  pipeline.release_without_signal %s : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
func.func @consume_explicit_missing() {
  %p = pipeline.create -> !P
  // expected-error @+1 {{missing signal: nothing arrives on the empty barrier of the stage of this pipeline.consume_explicit region, so the producer waits on it forever}}
  pipeline.consume_explicit %p as %s : !P {
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
!CR = !pipeline.role<consumer, !P>
!CS = !pipeline.stage<consumer, !P>
func.func @consumer_step_missing() {
  %p = pipeline.create -> !P
  %cons = pipeline.role %p : !P -> !CR
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.wait %cons : !CR
  // expected-error @+1 {{missing signal: nothing arrives on the empty barrier of this consumer stage before pipeline.step}}
  pipeline.step %s : !CS
  return
}

// -----

!P2 = !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>
!CR = !pipeline.role<consumer, !P2>
!CS = !pipeline.stage<consumer, !P2>
func.func @release_no_step_twice() {
  %p = pipeline.create -> !P2
  %cons = pipeline.role %p : !P2 -> !CR
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.wait %cons : !CR
  // expected-note @+1 {{first arrival here}}
  pipeline.release_no_step %s sub_stage 0 : !CS
  // expected-error @+1 {{double signal: release_no_step arrives on an empty barrier of this consumer stage that was already arrived on}}
  pipeline.release_no_step %s sub_stage 0 : !CS
  pipeline.step %s : !CS
  return
}

// -----

// On a tile pipeline a consumer release only steps (the reference
// InputConsumerStage.release): without release_mma or arrive the stage is
// never freed.

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!TCS = !pipeline.stage<consumer, !TP>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
func.func @tile_release_missing_signal() -> f16 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %tp : !TP
  %tiles = pipeline.payload %s[0] : !TCS -> !T
  %x = memref.load %tiles[%c0, %c0, %c0] : !T
  // expected-error @+1 {{missing signal: nothing arrives on the empty barrier of this consumer stage before pipeline.release, so the producer waits on it forever (on a tile pipeline, release and the consume exit only step, as in the reference: free the stage with pipeline.release_mma or pipeline.arrive)}}
  pipeline.release %s : !TCS
  return %x : f16
}

// -----

// Likewise the exit of pipeline.consume on a tile pipeline only steps (the
// reference ConsumerTiles.__exit__).

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!TCS = !pipeline.stage<consumer, !TP>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
func.func @tile_consume_missing_signal() -> f16 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  // expected-error @+1 {{missing signal: nothing arrives on the empty barrier of the stage of this pipeline.consume region, so the producer waits on it forever (on a tile pipeline, release and the consume exit only step, as in the reference: free the stage with pipeline.release_mma or pipeline.arrive)}}
  %v = pipeline.consume %tp as %s : !TP -> f16 {
    %tiles = pipeline.payload %s[0] : !TCS -> !T
    %x = memref.load %tiles[%c0, %c0, %c0] : !T
    pipeline.yield %x : f16
  }
  return %v : f16
}

// -----

// release_mma is the stage's signal: a plain pipeline's release after it
// arrives a second time.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @release_mma_then_release() {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  // expected-note @+1 {{first arrival here}}
  pipeline.release_mma %s : !CS
  // expected-error @+1 {{double signal: release arrives on the empty barrier of this consumer stage, which was already arrived on (end it with release_without_signal)}}
  pipeline.release %s : !CS
  return
}

// -----

// So is the exit of a plain pipeline's consume region.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @release_mma_in_consume_region() {
  %p = pipeline.create -> !P
  // expected-error @+1 {{double signal: the pipeline.consume region arrives on the empty barrier of its stage on exit, but it was already arrived on (use pipeline.consume_explicit)}}
  pipeline.consume %p as %s : !P {
    // expected-note @+1 {{first arrival here}}
    pipeline.release_mma %s : !CS
  }
  return
}

// -----

// More leaks, one per remaining construct.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @while_body_leak(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %r = scf.while (%i = %c0) : (index) -> index {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i : index
  } do {
  ^bb0(%j: index):
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    %j1 = arith.addi %j, %c1 : index
    // expected-error @+1 {{stage handle leaks at the end of every scf.while iteration}}
    scf.yield %j1 : index
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!Q = !pipeline.pipeline<stages = 2>
func.func @scoped_region_leak() {
  %p = pipeline.create -> !P
  %q = pipeline.create -> !Q
  pipeline.consume %p as %s : !P {
    // expected-note @+1 {{stage acquired here}}
    %t = pipeline.acquire_producer %q : !Q
    // expected-error @+1 {{stage handle leaks at the end of the pipeline.consume region}}
    pipeline.yield
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @unknown_region_leak(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    // expected-note @+1 {{stage acquired here}}
    %s = pipeline.acquire_consumer %p : !P
    // expected-error @+1 {{stage handle leaks at the end of a region of 'scf.parallel'}}
    scf.reduce
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
func.func @switch_yields_released(%k: index) {
  %p = pipeline.create -> !P
  // expected-note @+1 {{stage acquired here}}
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.index_switch %k -> !CS
  case 0 {
    // expected-note @+1 {{released here}}
    pipeline.release %s : !CS
    // expected-error @+1 {{stage handle used after release}}
    scf.yield %s : !CS
  }
  default {
    scf.yield %s : !CS
  }
  pipeline.release %r : !CS
  return
}
