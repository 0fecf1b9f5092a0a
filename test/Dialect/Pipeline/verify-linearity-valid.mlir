// RUN: pipeline-opt %s -pipeline-verify-linearity -split-input-file -verify-diagnostics | FileCheck %s
// The same programs lowered to cf still verify.
// RUN: pipeline-opt %s -split-input-file -convert-scf-to-cf -pipeline-verify-linearity -verify-diagnostics -o /dev/null

// Programs that use their stage handles linearly: the pass reports nothing
// and leaves the IR unchanged.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>

// CHECK-LABEL: func.func @straight_line
// CHECK: pipeline.acquire_consumer
// CHECK: pipeline.index
// CHECK: pipeline.release
func.func @straight_line() -> index {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  %i = pipeline.index %s : !CS
  pipeline.release %s : !CS
  return %i : index
}

// CHECK-LABEL: func.func @both_roles_held
// CHECK-COUNT-2: pipeline.release
func.func @both_roles_held() {
  %p = pipeline.create -> !P
  %c = pipeline.acquire_consumer %p : !P
  %t = pipeline.acquire_producer %p : !P
  pipeline.arrive %t : !PS
  pipeline.release %t : !PS
  pipeline.release %c : !CS
  return
}

// Two pipelines: one outstanding stage per (pipeline, role).
// CHECK-LABEL: func.func @two_pipelines
func.func @two_pipelines() {
  %p = pipeline.create -> !P
  %q = pipeline.create -> !P
  %a = pipeline.acquire_consumer %p : !P
  %b = pipeline.acquire_consumer %q : !P
  pipeline.release %b : !CS
  pipeline.release %a : !CS
  return
}

// Acquire, release, acquire again on the same role.
// CHECK-LABEL: func.func @reacquire
func.func @reacquire() {
  %p = pipeline.create -> !P
  %a = pipeline.acquire_consumer %p : !P
  pipeline.release %a : !CS
  %b = pipeline.acquire_consumer %p : !P
  pipeline.release %b : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>

// CHECK-LABEL: func.func @if_both_release
// CHECK: scf.if
// CHECK: pipeline.release
// CHECK: } else {
// CHECK: pipeline.release
func.func @if_both_release(%c: i1) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  scf.if %c {
    %i = pipeline.index %s : !CS
    pipeline.release %s : !CS
  } else {
    pipeline.release %s : !CS
  }
  return
}

// The handle is yielded from both branches and released after the merge.
// CHECK-LABEL: func.func @if_yields_handle
// CHECK: %[[R:.*]] = scf.if
// CHECK: pipeline.release %[[R]]
func.func @if_yields_handle(%c: i1) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.if %c -> !CS {
    scf.yield %s : !CS
  } else {
    scf.yield %s : !CS
  }
  pipeline.release %r : !CS
  return
}

// One branch releases and re-acquires, the other keeps its handle; both
// yield one, released after the merge.
// CHECK-LABEL: func.func @if_release_reacquire
// CHECK: %[[R:.*]] = scf.if
// CHECK: pipeline.acquire_consumer
// CHECK: pipeline.release %[[R]]
func.func @if_release_reacquire(%c: i1) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  %r = scf.if %c -> !CS {
    pipeline.release %s : !CS
    %n = pipeline.acquire_consumer %p : !P
    scf.yield %n : !CS
  } else {
    scf.yield %s : !CS
  }
  pipeline.release %r : !CS
  return
}

// Acquired and released inside a branch, nothing outside.
// CHECK-LABEL: func.func @if_local_handle
func.func @if_local_handle(%c: i1) {
  %p = pipeline.create -> !P
  scf.if %c {
    %s = pipeline.acquire_consumer %p : !P
    pipeline.release %s : !CS
  }
  return
}

// Nested scf.if: every leaf releases.
// CHECK-LABEL: func.func @nested_if
func.func @nested_if(%a: i1, %b: i1) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  scf.if %a {
    scf.if %b {
      pipeline.release %s : !CS
    } else {
      pipeline.arrive %s : !CS
      pipeline.release_without_signal %s : !CS
    }
  } else {
    pipeline.release %s : !CS
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>

// A handle carried through iter_args: released and re-acquired every
// iteration, released after the loop.
// CHECK-LABEL: func.func @for_iter_args
// CHECK: %[[L:.*]] = scf.for {{.*}} iter_args
// CHECK: pipeline.release %[[L]]
func.func @for_iter_args(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (!CS) {
    %x = pipeline.index %s : !CS
    pipeline.release %s : !CS
    %next = pipeline.acquire_consumer %p : !P
    scf.yield %next : !CS
  }
  pipeline.release %last : !CS
  return
}

// Acquire and release inside the body.
// CHECK-LABEL: func.func @for_local
func.func @for_local(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  scf.for %i = %c0 to %n step %c1 {
    %s = pipeline.acquire_consumer %p : !P
    pipeline.release %s : !CS
  }
  return
}

// Nested loops carrying the handle through both iter_args.
// CHECK-LABEL: func.func @nested_for
// CHECK-COUNT-2: scf.for
func.func @nested_for(%n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %s0) -> (!CS) {
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%b = %a) -> (!CS) {
      pipeline.release %b : !CS
      %next = pipeline.acquire_consumer %p : !P
      scf.yield %next : !CS
    }
    scf.yield %inner : !CS
  }
  pipeline.release %r : !CS
  return
}

// A handle yielded from an scf.if inside the loop body.
// CHECK-LABEL: func.func @for_if_yield
func.func @for_if_yield(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %s0) -> (!CS) {
    %y = scf.if %c -> !CS {
      pipeline.release %a : !CS
      %b = pipeline.acquire_consumer %p : !P
      scf.yield %b : !CS
    } else {
      scf.yield %a : !CS
    }
    scf.yield %y : !CS
  }
  pipeline.release %r : !CS
  return
}

// A handle of another pipeline stays outstanding across the loop, borrowed
// inside it.
// CHECK-LABEL: func.func @for_borrow_outer
func.func @for_borrow_outer(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %q = pipeline.create -> !P
  %outer = pipeline.acquire_consumer %q : !P
  scf.for %i = %c0 to %n step %c1 {
    %x = pipeline.index %outer : !CS
    %s = pipeline.acquire_consumer %p : !P
    pipeline.release %s : !CS
  }
  pipeline.release %outer : !CS
  return
}

// scf.while carrying the handle through its arguments.
// CHECK-LABEL: func.func @while_carry
// CHECK: scf.while
func.func @while_carry(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  %r:2 = scf.while (%s = %s0, %i = %c0) : (!CS, index) -> (!CS, index) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %s, %i : !CS, index
  } do {
  ^bb0(%t: !CS, %j: index):
    pipeline.release %t : !CS
    %next = pipeline.acquire_consumer %p : !P
    %j1 = arith.addi %j, %c1 : index
    scf.yield %next, %j1 : !CS, index
  }
  pipeline.release %r#0 : !CS
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>

// Warp-role branches: the producer warp and the consumer warps hold stages
// of different roles of the same pipeline.
// CHECK-LABEL: func.func @warp_roles
// CHECK: pipeline.acquire_producer
// CHECK: pipeline.acquire_consumer
func.func @warp_roles(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %p = pipeline.create -> !P
  pipeline.init_mbars %p producer 1 consumer 1 : !P
  %tid = gpu.thread_id x
  %warp = arith.divui %tid, %c32 : index
  %is_producer = arith.cmpi eq, %warp, %c0 : index
  scf.if %is_producer {
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %p : !P
      pipeline.arrive %s : !PS
      pipeline.release %s : !PS
    }
    pipeline.drain_producer %p : !P
  } else {
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_consumer %p : !P
      pipeline.release %s : !CS
    }
  }
  return
}

// Try-acquire, then acquire with the token, or wait only if needed.
// CHECK-LABEL: func.func @try_acquire
// CHECK: pipeline.try_acquire_producer
// CHECK: pipeline.acquire_producer %{{.*}} ready(
func.func @try_acquire() {
  %p = pipeline.create -> !P
  %ready = pipeline.try_acquire_producer %p : !P
  %s = pipeline.acquire_producer %p ready(%ready) : !P
  pipeline.arrive %s : !PS
  pipeline.release %s : !PS
  %r2 = pipeline.try_wait_producer %p : !P
  pipeline.wait_producer_if_needed %p, %r2 : !P
  pipeline.consumer_step %p : !P
  return
}

// scf.index_switch: every case releases.
// CHECK-LABEL: func.func @switch_all_release
// CHECK: scf.index_switch
func.func @switch_all_release(%k: index) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  scf.index_switch %k
  case 0 {
    pipeline.release %s : !CS
    scf.yield
  }
  case 1 {
    pipeline.arrive %s : !CS
    pipeline.release_without_signal %s : !CS
    scf.yield
  }
  default {
    pipeline.release %s : !CS
  }
  return
}

// scf.execute_region with a CFG inside: both exits release the outer handle.
// CHECK-LABEL: func.func @execute_region_cfg
// CHECK: scf.execute_region
func.func @execute_region_cfg(%c: i1) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  scf.execute_region {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    pipeline.release %s : !CS
    scf.yield
  ^bb2:
    pipeline.release %s : !CS
    scf.yield
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>

// cf diamond: both paths release.
// CHECK-LABEL: func.func @cf_diamond
// CHECK: cf.cond_br
func.func @cf_diamond(%c: i1) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  pipeline.release %s : !CS
  cf.br ^bb3
^bb2:
  pipeline.release %s : !CS
  cf.br ^bb3
^bb3:
  return
}

// cf loop carrying the handle through the header's block argument.
// CHECK-LABEL: func.func @cf_loop_carried
// CHECK: ^bb1(%{{.*}}: !pipeline.stage<consumer
func.func @cf_loop_carried(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  cf.br ^header(%c0, %s0 : index, !CS)
^header(%i: index, %s: !CS):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^body, ^exit
^body:
  pipeline.release %s : !CS
  %next = pipeline.acquire_consumer %p : !P
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1, %next : index, !CS)
^exit:
  pipeline.release %s : !CS
  return
}

// cf loop acquiring and releasing in its body.
// CHECK-LABEL: func.func @cf_loop_local
func.func @cf_loop_local(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  cf.br ^header(%c0 : index)
^header(%i: index):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^body, ^exit
^body:
  %s = pipeline.acquire_consumer %p : !P
  pipeline.release %s : !CS
  %i1 = arith.addi %i, %c1 : index
  cf.br ^header(%i1 : index)
^exit:
  return
}

// cf.switch: every case releases; the handle is passed to one block.
// CHECK-LABEL: func.func @cf_switch
// CHECK: cf.switch
func.func @cf_switch(%k: i32) {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  cf.switch %k : i32, [
    default: ^bb1(%s : !CS),
    0: ^bb2
  ]
^bb1(%t: !CS):
  pipeline.release %t : !CS
  return
^bb2:
  pipeline.release %s : !CS
  return
}

// Unreachable blocks holding pipeline ops are rejected:
// verify-linearity-unreachable.mlir.

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>

// Scoped forms: the region owns and releases the stage.
// CHECK-LABEL: func.func @scoped
// CHECK: pipeline.produce
// CHECK: pipeline.consume
// CHECK: pipeline.consume_explicit
func.func @scoped(%leader: i1) -> index {
  %p = pipeline.create -> !P
  pipeline.produce %p as %s : !P {
    pipeline.arrive %s : !PS
  }
  %v = pipeline.consume %p as %s : !P -> index {
    %i = pipeline.index %s : !CS
    pipeline.yield %i : index
  }
  pipeline.consume_explicit %p as %s : !P {
    pipeline.arrive %s : !CS
  }
  return %v : index
}

// A handle of the other role is held across a scoped region.
// CHECK-LABEL: func.func @scoped_other_role
func.func @scoped_other_role() {
  %p = pipeline.create -> !P
  %t = pipeline.acquire_producer %p : !P
  pipeline.consume %p as %s : !P {
    %i = pipeline.index %s : !CS
  }
  pipeline.arrive %t : !PS
  pipeline.release %t : !PS
  return
}

// Lane-guarded explicit arrive, then release_without_signal.
// CHECK-LABEL: func.func @lane_guarded_arrive
// CHECK: pipeline.release_without_signal
func.func @lane_guarded_arrive(%lane: index) {
  %c2 = arith.constant 2 : index
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  %leader = arith.cmpi ult, %lane, %c2 : index
  scf.if %leader {
    pipeline.arrive %s : !CS
  }
  pipeline.release_without_signal %s : !CS
  return
}

// A specialized arrive on the barrier from pipeline.mbar signals the stage.
// CHECK-LABEL: func.func @mbar_arrive
// CHECK: nvgpu.mbarrier.arrive
func.func @mbar_arrive() {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  %bars, %id = pipeline.mbar %s : !CS
  %tok = nvgpu.mbarrier.arrive %bars[%id] : !G -> !nvgpu.mbarrier.token
  pipeline.release_without_signal %s : !CS
  return
}

// A handle carried through a loop: the arrive on the first handle counts
// for the whole family.
// CHECK-LABEL: func.func @signal_through_loop
func.func @signal_through_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> (!CS) {
    pipeline.arrive %s : !CS
    pipeline.release_without_signal %s : !CS
    %t = pipeline.acquire_consumer %p : !P
    scf.yield %t : !CS
  }
  pipeline.release_without_signal %r : !CS
  return
}

// The consumer barrier taken through the direct API signals the stage.
// CHECK-LABEL: func.func @direct_consumer_mbar
func.func @direct_consumer_mbar() {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_consumer %p : !P
  %i = pipeline.index %s : !CS
  %bars, %id = pipeline.consumer_mbar %p[%i] : !P
  %tok = nvgpu.mbarrier.arrive %bars[%id] : !G -> !nvgpu.mbarrier.token
  pipeline.release_without_signal %s : !CS
  return
}

// -----

!P2 = !pipeline.pipeline<stages = 2, producer_sub_stages = 1, consumer_sub_stages = 2>
!PR = !pipeline.role<producer, !P2>
!CR = !pipeline.role<consumer, !P2>

// Role pipelines: acquire/commit, commit_mma/step, wait/release_no_step/
// release, wait/release_no_step/step.
// CHECK-LABEL: func.func @role_pipeline
// CHECK: pipeline.commit
// CHECK: pipeline.commit_mma
// CHECK: pipeline.release_no_step
func.func @role_pipeline() {
  %p = pipeline.create -> !P2
  %prod = pipeline.role %p : !P2 -> !PR
  %cons = pipeline.role %p : !P2 -> !CR
  %a = pipeline.acquire %prod : !PR
  pipeline.commit %a : !pipeline.stage<producer, !P2>
  %b = pipeline.acquire %prod sub_stage 1 : !PR
  pipeline.commit_mma %b : !pipeline.stage<producer, !P2>
  pipeline.step %b : !pipeline.stage<producer, !P2>
  %c = pipeline.wait %cons : !CR
  pipeline.release_no_step %c sub_stage 0 : !pipeline.stage<consumer, !P2>
  pipeline.release %c sub_stage 1 : !pipeline.stage<consumer, !P2>
  %d = pipeline.wait %cons : !CR
  pipeline.release_no_step %d sub_stage 0 : !pipeline.stage<consumer, !P2>
  pipeline.release_no_step %d sub_stage 1 : !pipeline.stage<consumer, !P2>
  pipeline.step %d : !pipeline.stage<consumer, !P2>
  return
}

// -----

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>

// Tiles read while the stage is held, including through a view and after
// the handle was passed on through an scf.if.
// CHECK-LABEL: func.func @tile_access
// CHECK: memref.load
// CHECK: memref.load
func.func @tile_access(%c: i1) -> f16 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  %s = pipeline.acquire_consumer %tp : !TP
  %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !TP> -> !T
  %v = memref.load %tiles[%c0, %c0, %c0] : !T
  %r = scf.if %c -> !pipeline.stage<consumer, !TP> {
    scf.yield %s : !pipeline.stage<consumer, !TP>
  } else {
    scf.yield %s : !pipeline.stage<consumer, !TP>
  }
  %w = memref.load %tiles[%c0, %c0, %c0] : !T
  // On a tile pipeline release only steps: the arrive frees the stage.
  pipeline.arrive %r : !pipeline.stage<consumer, !TP>
  pipeline.release %r : !pipeline.stage<consumer, !TP>
  %sum = arith.addf %v, %w : f16
  return %sum : f16
}

// Functions without a body and without handles are fine.
// CHECK-LABEL: func.func private @external
func.func private @external(index) -> index

// -----

// The elected lane releases (arrive + step), the other lanes only step: the
// release on the leader's path is the signal of the whole warp.
// CHECK-LABEL: func.func @elected_release_else_release_without_signal
func.func @elected_release_else_release_without_signal(%leader: i1) {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  %s = pipeline.acquire_consumer %p : !pipeline.pipeline<stages = 2>
  scf.if %leader {
    pipeline.release %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  } else {
    pipeline.release_without_signal %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  }
  return
}
// -----

// Kernels in the styles of the reference and CUTLASS: elected-lane release in
// a loop, a lane-guarded arrive through nvgpu on pipeline.mbar, role dispatch
// with scf.index_switch and with cf.switch, a handle carried through
// scf.condition, and a gpu.launch body.

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>
!T = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [memref<4x2x64x64xf16, #gpu.address_space<workgroup>>]>
!TPS = !pipeline.stage<producer, !T>
!TCS = !pipeline.stage<consumer, !T>

// CHECK-LABEL: func.func @elected_loop
func.func @elected_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %lane = gpu.lane_id
  %leader = arith.cmpi eq, %lane, %c0 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = pipeline.acquire_consumer %p : !P
    scf.if %leader {
      pipeline.release %s : !CS
    } else {
      pipeline.release_without_signal %s : !CS
    }
  }
  return
}

// CHECK-LABEL: func.func @nvgpu_arrive
func.func @nvgpu_arrive(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %lane = gpu.lane_id
  %leader = arith.cmpi eq, %lane, %c0 : index
  scf.for %i = %c0 to %n step %c1 {
    %s = pipeline.acquire_consumer %p : !P
    %bars, %id = pipeline.mbar %s : !CS
    scf.if %leader {
      %tok = nvgpu.mbarrier.arrive %bars[%id] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8> -> !nvgpu.mbarrier.token
    }
    pipeline.release_without_signal %s : !CS
  }
  return
}

// CHECK-LABEL: func.func @tile_roles
func.func @tile_roles(%a: memref<4x2x64x64xf16, #gpu.address_space<workgroup>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %p = pipeline.create -> !P
  pipeline.init_mbars %p producer 1 consumer 1 : !P
  %t = pipeline.input_tile_pipeline %p payload(%a : memref<4x2x64x64xf16, #gpu.address_space<workgroup>>) : !P -> !T
  %tid = gpu.thread_id x
  %warp = arith.divui %tid, %c32 : index
  scf.index_switch %warp
  case 0 {
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_producer %t : !T
      pipeline.expect_tx %s : !TPS
      %tiles = pipeline.payload %s[0] : !TPS -> memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %bars, %id = pipeline.mbar %s : !TPS
      pipeline.release %s : !TPS
    }
    pipeline.drain_producer %t : !T
    scf.yield
  }
  default {
    scf.for %i = %c0 to %n step %c1 {
      %s = pipeline.acquire_consumer %t : !T
      %tiles = pipeline.payload %s[0] : !TCS -> memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %v = memref.load %tiles[%c0, %c0, %c0] : memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
      pipeline.arrive %s : !TCS
      pipeline.release %s : !TCS
    }
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @while_cond_handle
func.func @while_cond_handle(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  %s0 = pipeline.acquire_consumer %p : !P
  %r:2 = scf.while (%i = %c0, %x = %s0) : (index, !CS) -> (index, !CS) {
    %go = arith.cmpi slt, %i, %n : index
    scf.condition(%go) %i, %x : index, !CS
  } do {
  ^bb0(%i: index, %y: !CS):
    pipeline.release %y : !CS
    %t = pipeline.acquire_consumer %p : !P
    %i1 = arith.addi %i, %c1 : index
    scf.yield %i1, %t : index, !CS
  }
  pipeline.release %r#1 : !CS
  return
}

// CHECK-LABEL: func.func @cf_roles
func.func @cf_roles(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %p = pipeline.create -> !P
  %tid = gpu.thread_id x
  %warp = arith.divui %tid, %c32 : index
  %w = arith.index_cast %warp : index to i32
  cf.switch %w : i32, [
    default: ^cons(%c0 : index),
    0: ^prod(%c0 : index)
  ]
^prod(%i: index):
  %go = arith.cmpi slt, %i, %n : index
  cf.cond_br %go, ^prod_body, ^done
^prod_body:
  %s = pipeline.acquire_producer %p : !P
  pipeline.arrive %s : !PS
  pipeline.release %s : !PS
  %i1 = arith.addi %i, %c1 : index
  cf.br ^prod(%i1 : index)
^cons(%j: index):
  %go2 = arith.cmpi slt, %j, %n : index
  cf.cond_br %go2, ^cons_body, ^done
^cons_body:
  %t = pipeline.acquire_consumer %p : !P
  %lane = gpu.lane_id
  %leader = arith.cmpi eq, %lane, %c0 : index
  cf.cond_br %leader, ^arrive, ^skip
^arrive:
  pipeline.arrive %t : !CS
  cf.br ^skip
^skip:
  pipeline.release_without_signal %t : !CS
  %j1 = arith.addi %j, %c1 : index
  cf.br ^cons(%j1 : index)
^done:
  return
}

// CHECK-LABEL: func.func @launch
func.func @launch(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%a = %c32, %b = %c1, %c = %c1) {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %w = arith.cmpi eq, %tx, %c0 : index
    scf.if %w {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !PS
        pipeline.release %s : !PS
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %p : !P
        pipeline.release %s : !CS
      }
    }
    gpu.terminator
  }
  return
}


// -----

// Tile pipelines: a consumer release and the exit of pipeline.consume only
// step (the reference InputConsumerStage.release / ConsumerTiles.__exit__),
// so the stage is freed by pipeline.release_mma or pipeline.arrive, and
// neither is a double signal with the release that follows.

!P = !pipeline.pipeline<stages = 4>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!TCS = !pipeline.stage<consumer, !TP>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>

// The MMA warp's release: tcgen05.commit to the empty barrier, then a
// release that only steps.
// CHECK-LABEL: func.func @tile_release_mma_then_release
// CHECK: pipeline.release_mma
// CHECK-NEXT: pipeline.release
func.func @tile_release_mma_then_release(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  scf.for %i = %c0 to %n step %c1 {
    %s = pipeline.acquire_consumer %tp : !TP
    %tiles = pipeline.payload %s[0] : !TCS -> !T
    pipeline.release_mma %s : !TCS
    pipeline.release %s : !TCS
  }
  return
}

// The same with an explicit election.
// CHECK-LABEL: func.func @tile_release_mma_elect
// CHECK: pipeline.release_mma %{{.*}} elect(%{{.*}})
func.func @tile_release_mma_elect(%e: i1) {
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  %s = pipeline.acquire_consumer %tp : !TP
  pipeline.release_mma %s elect(%e) : !TCS
  pipeline.release %s : !TCS
  return
}

// A consume region on a tile pipeline frees its stage with an arrive: the
// exit only steps, so this is the stage's one signal.
// CHECK-LABEL: func.func @tile_consume_arrive
// CHECK: pipeline.consume
// CHECK: pipeline.arrive
func.func @tile_consume_arrive() -> f16 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  %v = pipeline.consume %tp as %s : !TP -> f16 {
    %tiles = pipeline.payload %s[0] : !TCS -> !T
    %x = memref.load %tiles[%c0, %c0, %c0] : !T
    pipeline.arrive %s : !TCS
    pipeline.yield %x : f16
  }
  return %v : f16
}

// A consume region on a tile pipeline freed by the MMA's commit.
// CHECK-LABEL: func.func @tile_consume_release_mma
// CHECK: pipeline.release_mma
func.func @tile_consume_release_mma() {
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  pipeline.consume %tp as %s : !TP {
    pipeline.release_mma %s : !TCS
  }
  return
}

// An elected lane arrives, every lane releases (which only steps on a tile
// pipeline): one arrival per warp, no double signal.
// CHECK-LABEL: func.func @tile_lane_guarded_arrive
func.func @tile_lane_guarded_arrive(%leader: i1) {
  %a = memref.alloc() : !A
  %p = pipeline.create -> !P
  %tp = pipeline.input_tile_pipeline %p payload(%a : !A) : !P -> !TP
  %s = pipeline.acquire_consumer %tp : !TP
  scf.if %leader {
    pipeline.arrive %s : !TCS
  }
  pipeline.release %s : !TCS
  return
}

// -----

// On a plain pipeline release_mma is the stage's signal too: end the handle
// with release_without_signal (a release would arrive a second time).

!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>

// CHECK-LABEL: func.func @plain_release_mma_then_release_without_signal
// CHECK: pipeline.release_mma
// CHECK-NEXT: pipeline.release_without_signal
func.func @plain_release_mma_then_release_without_signal(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  scf.for %i = %c0 to %n step %c1 {
    %s = pipeline.acquire_consumer %p : !P
    pipeline.release_mma %s : !CS
    pipeline.release_without_signal %s : !CS
  }
  return
}
