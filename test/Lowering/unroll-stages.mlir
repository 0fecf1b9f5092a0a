// RUN: pipeline-opt %s -split-input-file -pipeline-unroll-stages='rotate-wait=false' -canonicalize | FileCheck %s
// RUN: pipeline-opt %s -split-input-file -pipeline-unroll-stages='max-body-ops=2 rotate-wait=false' | FileCheck %s --check-prefix=SMALL

// pipeline-unroll-stages: a loop that steps a role once per iteration
// becomes a prologue to stage 0, the body unrolled over one round of the
// ring (S copies, every reading or stepping op marked with its stage),
// entered only at stage 0, and a rolled epilogue.

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
    gpu.return
  }
  // Iterations to stage 0: (S - stage) mod S, at most the trip count.
  // CHECK:      %[[TRIPS:.*]] = arith.maxsi %{{.*}}, %[[C0:.*]] : index
  // CHECK:      %[[S0:.*]] = pipeline.producer_stage
  // CHECK:      %[[D:.*]] = arith.subi %[[C2:.*]], %[[S0]]
  // CHECK:      %[[M:.*]] = arith.remui %[[D]], %[[C2]]
  // CHECK:      %[[PEEL:.*]] = arith.minsi %[[M]], %[[TRIPS]]
  // CHECK:      scf.for %{{.*}} = %[[C0]] to %[[PEEL]] step %{{.*}} {
  // CHECK:        pipeline.produce
  // CHECK-NOT:    known_stage
  // CHECK:      }
  // The unrolled loop only when the producer is at stage 0.
  // CHECK:      %[[S1:.*]] = pipeline.producer_stage
  // CHECK:      %[[AT0:.*]] = arith.cmpi eq, %[[S1]], %[[C0]]
  // CHECK:      %[[ROUNDS:.*]] = arith.divui %{{.*}}, %[[C2]] : index
  // CHECK:      arith.select %[[AT0]], %[[ROUNDS]], %[[C0]]
  // CHECK:      scf.for %{{.*}} = %[[PEEL]] to %[[END:.*]] step %[[C2]] {
  // CHECK:        pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 0 : i64}
  // CHECK:        pipeline.produce
  // CHECK:        } attributes {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT: }
  // CHECK:      scf.for %{{.*}} = %[[END]] to %{{.*}} step %{{.*}} {
  // CHECK:        pipeline.produce
  // CHECK-NOT:    known_stage
  // CHECK:      }
  // CHECK:      gpu.return

  // SMALL-LABEL: gpu.func @producer
  // SMALL-NOT:   known_stage
  // SMALL:       gpu.return
}

// -----

// A consumer with a handle (acquire, release) and loop-carried values:
// ops before the release see stage j, ops after it stage j + 1; the
// iteration's values flow from copy to copy.
!P = !pipeline.pipeline<stages = 3>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consumer
  gpu.func @consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %s = pipeline.acquire_consumer %p : !P
      %st = pipeline.index %s : !pipeline.stage<consumer, !P>
      pipeline.release %s : !pipeline.stage<consumer, !P>
      %next = pipeline.consumer_stage %p : !P
      %a = arith.addi %acc, %next : index
      scf.yield %a : index
    }
    gpu.return
  }
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c3 iter_args(%[[ACC:.*]] = %{{.*}}) -> (index) {
  // CHECK-NEXT:   pipeline.acquire_consumer %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   pipeline.release %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   %[[N0:.*]] = pipeline.consumer_stage %{{.*}} {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT:   %[[A0:.*]] = arith.addi %[[ACC]], %[[N0]]
  // CHECK-NEXT:   pipeline.acquire_consumer %{{.*}} {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT:   pipeline.release %{{.*}} {pipeline.known_stage = 1 : i64}
  // CHECK-NEXT:   %[[N1:.*]] = pipeline.consumer_stage %{{.*}} {pipeline.known_stage = 2 : i64}
  // CHECK-NEXT:   %[[A1:.*]] = arith.addi %[[A0]], %[[N1]]
  // CHECK-NEXT:   pipeline.acquire_consumer %{{.*}} {pipeline.known_stage = 2 : i64}
  // CHECK-NEXT:   pipeline.release %{{.*}} {pipeline.known_stage = 2 : i64}
  // CHECK-NEXT:   %[[N2:.*]] = pipeline.consumer_stage %{{.*}} {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT:   %[[A2:.*]] = arith.addi %[[A1]], %[[N2]]
  // CHECK-NEXT:   scf.yield %[[A2]] : index
}

// -----

// One stage: always stage 0; the loop is marked in place, not unrolled.
!P = !pipeline.pipeline<stages = 1>
gpu.module @m {
  // CHECK-LABEL: gpu.func @one_stage
  gpu.func @one_stage(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.consume_explicit %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<consumer, !P>
      }
    }
    gpu.return
  }
  // CHECK:      scf.for
  // CHECK-NEXT:   pipeline.consume_explicit
  // CHECK:        } attributes {pipeline.known_stage = 0 : i64}
  // CHECK-NEXT: }
  // CHECK-NEXT: gpu.return
}

// -----

// Not unrolled: a step under an scf.if, two steps per iteration, a drain in
// the loop, a consumer that steps at the acquire (consumer_depth 2), roles
// of different stage counts, an unsigned loop.
!P = !pipeline.pipeline<stages = 2>
!D = !pipeline.pipeline<stages = 2, consumer_depth = 2>
!Q = !pipeline.pipeline<stages = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @kept
  // CHECK-NOT:   known_stage
  // CHECK:       gpu.return
  gpu.func @kept(%n: index, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    %d = pipeline.create -> !D
    %q = pipeline.create -> !Q
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.init_mbars %d producer 1 consumer 1 : !D
    pipeline.init_mbars %q producer 1 consumer 1 : !Q
    scf.for %i = %c0 to %n step %c1 {
      scf.if %c {
        pipeline.producer_step %p : !P
      }
    }
    scf.for %i = %c0 to %n step %c1 {
      pipeline.producer_step %p : !P
      pipeline.producer_step %p : !P
    }
    scf.for %i = %c0 to %n step %c1 {
      pipeline.drain_producer %p : !P
    }
    scf.for %i = %c0 to %n step %c1 {
      pipeline.consume %d as %s : !D {
        pipeline.yield
      }
    }
    scf.for %i = %c0 to %n step %c1 {
      pipeline.producer_step %p : !P
      pipeline.consumer_step %q : !Q
    }
    scf.for unsigned %i = %c0 to %n step %c1 {
      pipeline.producer_step %p : !P
    }
    gpu.return
  }
}

// -----

// Bounds that are 32-bit values (a sign-extending index_cast of an i32, a
// constant): the unrolled loop counts in i32, as a hand-written ring's
// `int` does (one 32-bit add and compare per round instead of a 64-bit
// pair; measured 0.5-1.0 ns per item less on an H200, docs/benchmarks.md),
// and gives the body its index through a sign-extending cast. Rolled
// prologue and epilogue keep index.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @i32_bounds
  gpu.func @i32_bounds(%n32: i32, %out: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = arith.index_cast %n32 : i32 to index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %p as %s : !P {
        memref.store %i, %out[%i] : memref<?xindex>
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
    }
    gpu.return
  }
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK:      %[[MID:.*]] = arith.index_cast %{{.*}} : index to i32
  // CHECK-NEXT: %[[END:.*]] = arith.index_cast %{{.*}} : index to i32
  // CHECK:      scf.for %[[IV:.*]] = %[[MID]] to %[[END]] step %{{[^ ]+}}{{ +}}: i32 {
  // CHECK-NEXT:   %[[I:.*]] = arith.index_cast %[[IV]] : i32 to index
  // CHECK:        memref.store %[[I]]
  // CHECK:        } attributes {pipeline.known_stage = 0 : i64}
  // CHECK:        %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
  // CHECK:        memref.store %[[I1]]
  // CHECK:        } attributes {pipeline.known_stage = 1 : i64}
  // CHECK:      scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
  // CHECK:      gpu.return

  // A bound of 64 bits (an index argument): the counter stays index.
  // CHECK-LABEL: gpu.func @index_bounds
  gpu.func @index_bounds(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
    }
    gpu.return
  }
  // CHECK-NOT:  i32 {
  // CHECK:      gpu.return
}
