// RUN: pipeline-opt %s -split-input-file -pipeline-verify-linearity -verify-diagnostics | FileCheck %s

// What the new linearity checks must accept.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>, memref<2x1x8xf32, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
!T = memref<1x8xf32, strided<[8, 1], offset: ?>, #WG>

// Tiles derived through select, scf.if and iter_args, read while their
// stage is held; a tile carried beside its stage, read before the
// iteration releases it; a tile read in a later block of a CFG while the
// stage is still held.
// CHECK-LABEL: func.func @tiles_while_held
func.func @tiles_while_held(%tp: !TP, %c: i1, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = pipeline.acquire_consumer %tp : !TP
  %a = pipeline.payload %s[0] : !CS -> !T
  %b = pipeline.payload %s[1] : !CS -> !T
  %sel = arith.select %c, %a, %b : !T
  %t = scf.if %c -> !T {
    scf.yield %a : !T
  } else {
    scf.yield %b : !T
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %t) -> (!T) {
    %v = memref.load %x[%c0, %c0] : !T
    scf.yield %x : !T
  }
  %v1 = memref.load %sel[%c0, %c0] : !T
  %v2 = memref.load %r[%c0, %c0] : !T
  pipeline.arrive %s : !CS
  pipeline.release %s : !CS

  %s0 = pipeline.acquire_consumer %tp : !TP
  %t0 = pipeline.payload %s0[0] : !CS -> !T
  %last:2 = scf.for %i = %c0 to %n step %c1 iter_args(%st = %s0, %tt = %t0) -> (!CS, !T) {
    %v = memref.load %tt[%c0, %c0] : !T
    pipeline.arrive %st : !CS
    pipeline.release %st : !CS
    %s2 = pipeline.acquire_consumer %tp : !TP
    %t2 = pipeline.payload %s2[0] : !CS -> !T
    scf.yield %s2, %t2 : !CS, !T
  }
  %v3 = memref.load %last#1[%c0, %c0] : !T
  pipeline.arrive %last#0 : !CS
  pipeline.release %last#0 : !CS

  %u = pipeline.acquire_consumer %tp : !TP
  %ut = pipeline.payload %u[0] : !CS -> !T
  cf.br ^bb1
^bb1:
  %v4 = memref.load %ut[%c0, %c0] : !T
  pipeline.arrive %u : !CS
  pipeline.release %u : !CS
  return %v4 : f32
}

// -----

// Lane-guarded arrives in the two branches of one scf.if: exactly one runs
// in every lane. Arrives under two conditions that may exclude each other
// (here they do): not a double arrival as far as the IR shows. A consumer
// that arrives and ends the stage with release_without_signal.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
// CHECK-LABEL: func.func @one_arrival_per_lane
func.func @one_arrival_per_lane(%p: !P, %lane0: i1) {
  %s = pipeline.acquire_consumer %p : !P
  scf.if %lane0 {
    pipeline.arrive %s : !CS
  } else {
    pipeline.arrive %s : !CS
  }
  pipeline.release_without_signal %s : !CS
  %t = pipeline.acquire_consumer %p : !P
  %other = arith.xori %lane0, %lane0 : i1
  scf.if %lane0 {
    pipeline.arrive %t : !CS
  }
  scf.if %other {
    pipeline.arrive %t : !CS
  }
  pipeline.release_without_signal %t : !CS
  pipeline.consume_explicit %p as %u : !P {
    scf.if %lane0 {
      pipeline.arrive %u : !CS
    }
  }
  return
}

// -----

// Producer signals that may be meant for a count of 2 (expect_tx beside an
// arrive, two tcgen05 commits), commit alone, and a stage signalled
// through its barrier handed to a TMA load.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
!G = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<8x8xf32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
// CHECK-LABEL: func.func @producer_signals
func.func @producer_signals(%p: !P, %desc: !Desc, %dst: memref<8x8xf32, #WG>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %s = pipeline.acquire_producer %p : !P
  pipeline.expect_tx %s bytes(%c64) : !PS
  pipeline.arrive %s : !PS
  pipeline.release %s : !PS
  %t = pipeline.acquire_producer %p : !P
  pipeline.commit_mma %t : !PS
  pipeline.commit_mma %t : !PS
  pipeline.step %t : !PS
  %u = pipeline.acquire_producer %p : !P
  pipeline.commit %u : !PS
  // TMA bytes armed by expect_tx (which arrives), then the load.
  %v = pipeline.acquire_producer %p : !P
  %c256 = arith.constant 256 : index
  pipeline.expect_tx %v bytes(%c256) : !PS
  %bars, %id = pipeline.mbar %v : !PS
  nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %dst : !Desc, !G -> memref<8x8xf32, #WG>
  pipeline.release %v : !PS
  // The barrier handed to a raw arrive: that is a signal.
  %w = pipeline.acquire_producer %p : !P
  %wbars, %wid = pipeline.mbar %w : !PS
  %tok = nvgpu.mbarrier.arrive %wbars[%wid] : !G -> !nvgpu.mbarrier.token
  pipeline.release %w : !PS
  return
}

// -----

// The direct API without handles: producer_mbar / consumer_mbar at the
// role's current stage signal whatever stage that is; steps with no handle
// held.
!P = !pipeline.pipeline<stages = 2>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK-LABEL: func.func @direct_api
func.func @direct_api(%p: !P) {
  pipeline.wait_consumer %p : !P
  %i = pipeline.producer_stage %p : !P
  %bars, %id = pipeline.producer_mbar %p[%i] : !P
  %tok = nvgpu.mbarrier.arrive %bars[%id] : !G -> !nvgpu.mbarrier.token
  pipeline.producer_step %p : !P
  pipeline.wait_producer %p : !P
  %j = pipeline.consumer_stage %p : !P
  %cbars, %cid = pipeline.consumer_mbar %p[%j] : !P
  %ctok = nvgpu.mbarrier.arrive %cbars[%cid] : !G -> !nvgpu.mbarrier.token
  pipeline.consumer_step %p : !P
  pipeline.producer_signal_and_step %p : !P
  pipeline.consumer_signal_and_step %p : !P
  pipeline.drain_producer %p : !P
  return
}
