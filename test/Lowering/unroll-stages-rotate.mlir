// RUN: pipeline-opt %s -split-input-file -pipeline-unroll-stages -canonicalize | FileCheck %s

// pipeline-unroll-stages with rotate-wait (the default): a loop whose first
// op with effects is a plain acquire of a stepped role is unrolled by two
// rounds of the ring (2 S copies), and that acquire's wait moves one
// iteration ahead: it runs once before the loop (at stage 0, where every
// stepped role is between rounds) and at the end of every iteration but
// the last; the last iteration is peeled (its copies without the trailing
// wait). The acquire of copy 0 carries pipeline.waited_ahead: it takes the
// stage without waiting.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @producer
  gpu.func @producer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
    }
    pipeline.drain_producer %p : !P
    gpu.return
  }
  // The rolled prologue to stage 0, then the rounds: 2 S = 4 items per
  // iteration, entered only when at least one iteration runs.
  // CHECK:      %[[C4:.*]] = arith.constant 4 : index
  // CHECK:      scf.for
  // CHECK:      %[[ROUNDS:.*]] = arith.divui %{{.*}}, %[[C4]] : index
  // CHECK:      %[[END:.*]] = arith.addi %[[MID:.*]], %{{.*}} : index
  // CHECK:      %[[ENTERED:.*]] = arith.cmpi slt, %[[MID]], %[[END]] : index
  // CHECK:      %[[LAST:.*]] = arith.subi %[[END]], %[[C4]] : index
  // CHECK:      scf.if %[[ENTERED]] {
  // The producer waits on empty(0) before the loop...
  // CHECK-NEXT:   pipeline.wait_consumer %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   scf.for %{{.*}} = %[[MID]] to %[[LAST]] step %[[C4]] {
  // CHECK-NEXT:     pipeline.produce
  // CHECK:          } attributes {pipeline.known_stage = 0 : i64, pipeline.waited_ahead}
  // CHECK-NEXT:     pipeline.produce
  // CHECK:          } attributes {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT:     pipeline.produce
  // CHECK:          } attributes {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:     pipeline.produce
  // CHECK:          } attributes {pipeline.known_stage = 1 : i64}
  // ... and at the end of each iteration, for the next one.
  // CHECK-NEXT:     pipeline.wait_consumer %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   }
  // The last iteration, peeled: its first acquire was waited for by the
  // previous iteration (or before the loop), and it waits for nothing after.
  // CHECK-NEXT:   pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 0 : i64, pipeline.waited_ahead}
  // CHECK-COUNT-3: pipeline.produce
  // CHECK-NOT:    pipeline.wait_consumer
  // CHECK:      scf.for %{{.*}} = %[[END]] to %{{.*}} step %{{.*}} {
  // CHECK-NEXT:   pipeline.produce %{{.*}} as %{{.*}} : !pipeline.pipeline<stages = 2> {
  // CHECK:      pipeline.drain_producer
}

// -----

// Loop-carried values pass through the scf.if: the peeled iteration's
// results, or the prologue's when the rounds do not run. A consumer waits
// on full with wait_producer.
!P = !pipeline.pipeline<stages = 2>
!WS = memref<2xindex, #gpu.address_space<workgroup>>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consumer_sum
  gpu.func @consumer_sum(%n: index, %buf: !WS) -> index {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %s = pipeline.acquire_consumer %p : !P
      %st = pipeline.index %s : !pipeline.stage<consumer, !P>
      %v = memref.load %buf[%st] : !WS
      pipeline.arrive %s : !pipeline.stage<consumer, !P>
      pipeline.release %s : !pipeline.stage<consumer, !P>
      %next = arith.addi %acc, %v : index
      scf.yield %next : index
    }
    gpu.return %r : index
  }
  // CHECK:      %[[PRO:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %c0) -> (index) {
  // CHECK:      %[[ROUNDS:.*]] = scf.if %{{.*}} -> (index) {
  // CHECK-NEXT:   pipeline.wait_producer %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[PRO]]) -> (index) {
  // CHECK-NEXT:     pipeline.acquire_consumer %{{.*}} {pipeline.known_stage = 0 : i64, pipeline.waited_ahead}
  // CHECK-COUNT-3:  pipeline.acquire_consumer %{{.*}} {pipeline.known_stage = {{[01]}} : i64} :
  // CHECK:          %[[SUM:.*]] = arith.addi
  // CHECK-NEXT:     pipeline.wait_producer %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:     scf.yield %[[SUM]] : index
  // CHECK:        pipeline.acquire_consumer %{{.*}} {pipeline.known_stage = 0 : i64, pipeline.waited_ahead}
  // CHECK:        arith.addi %[[LOOP]], %{{.*}} : index
  // CHECK-NOT:    pipeline.wait_producer
  // CHECK:        scf.yield %{{.*}} : index
  // CHECK-NEXT: } else {
  // CHECK-NEXT:   scf.yield %[[PRO]] : index
  // CHECK-NEXT: }
  // CHECK:      scf.for {{.*}} iter_args(%{{.*}} = %[[ROUNDS]]) -> (index) {
}

// -----

// Not rotated, one round of S copies: a store before the acquire (the wait
// must not move ahead of it: the other role may need that store to free
// the stage), a loop nested in another loop, and an acquire that takes a
// ready token. A scoped consume of another pipeline before the produce (its
// region is pure, the op is not) is the op whose wait moves.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @store_first
  gpu.func @store_first(%n: index, %out: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    scf.for %i = %c0 to %n step %c1 {
      memref.store %i, %out[%i] : memref<?xindex>
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
    }
    pipeline.drain_producer %p : !P
    gpu.return
  }
  // CHECK-NOT:  pipeline.wait_consumer
  // CHECK-NOT:  pipeline.waited_ahead
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2 {
  // CHECK:        memref.store
  // CHECK-NEXT:   pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   arith.addi
  // CHECK-NEXT:   memref.store
  // CHECK-NEXT:   pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT: }
  // CHECK-NOT:  pipeline.wait_consumer

  // CHECK-LABEL: gpu.func @nested
  gpu.func @nested(%tiles: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    scf.for %t = %c0 to %tiles step %c1 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
    }
    pipeline.drain_producer %p : !P
    gpu.return
  }
  // A loop inside another loop pays its prologue and rolled rest per outer
  // iteration: one round, no rotation.
  // CHECK-NOT:  pipeline.wait_consumer
  // CHECK-NOT:  pipeline.waited_ahead
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c2 {
  // CHECK-NEXT:   pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT: }

  // CHECK-LABEL: gpu.func @empty_consume_first
  gpu.func @empty_consume_first(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %q = pipeline.create -> !P
    pipeline.init_mbars %q producer 32 consumer 32 : !P
    scf.for %i = %c0 to %n step %c1 {
      // Only pure ops in its region, but it waits, arrives and steps: the
      // other role may free %p's stage only after this arrive, so the
      // produce's wait must not move ahead of it.
      pipeline.consume %q as %t : !P {
      }
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
    }
    pipeline.drain_producer %p : !P
    gpu.return
  }
  // The consume is the first op with effects: its wait is the one that
  // moves (on %q's full barrier), never the produce's, which stays after
  // the consume's arrive.
  // CHECK:      %[[P:.*]] = pipeline.create
  // CHECK:      %[[Q:.*]] = pipeline.create
  // CHECK-NOT:  pipeline.wait_consumer
  // CHECK:      pipeline.wait_producer %[[Q]] {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT: scf.for
  // CHECK-NEXT:   pipeline.consume %[[Q]]
  // CHECK-NEXT:   } attributes {pipeline.known_stage = 0 : i64, pipeline.waited_ahead}
  // CHECK-NEXT:   pipeline.produce %[[P]]
  // CHECK-NOT:  pipeline.wait_consumer
  // CHECK:      gpu.return

  // CHECK-LABEL: gpu.func @ready_token
  gpu.func @ready_token(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    scf.for %i = %c0 to %n step %c1 {
      %r = pipeline.try_acquire_producer %p : !P
      %s = pipeline.acquire_producer %p ready(%r) : !P
      pipeline.arrive %s : !pipeline.stage<producer, !P>
      pipeline.release %s : !pipeline.stage<producer, !P>
    }
    pipeline.drain_producer %p : !P
    gpu.return
  }
  // CHECK-NOT:  pipeline.wait_consumer
  // CHECK-NOT:  pipeline.waited_ahead
  // CHECK:      gpu.return
}
