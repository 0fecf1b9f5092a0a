// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics | FileCheck %s

// Matching trip counts, and counts the check cannot compare (silent).

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // The same SSA loops on both sides; constant loops that multiply out to
  // the same count; the first stage before the loop and the rest in it
  // (counted as 1 + (%n - 1)) against %n: not provably different.
  // CHECK-LABEL: gpu.func @matching
  gpu.func @matching(%is_producer: i1, %n: index, %tiles: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = pipeline.create -> !P
    %q = pipeline.create -> !P
    %r = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.init_mbars %q producer 1 consumer 1 : !P
    pipeline.init_mbars %r producer 1 consumer 1 : !P
    scf.if %is_producer {
      scf.for %t = %c0 to %tiles step %c1 {
        scf.for %k = %c0 to %n step %c1 {
          pipeline.produce %p as %s : !P {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          pipeline.produce %q as %s : !P {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      scf.for %k = %c0 to %n step %c1 {
        pipeline.produce %r as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
      pipeline.drain_producer %q : !P
      pipeline.drain_producer %r : !P
    } else {
      scf.for %t = %c0 to %tiles step %c1 {
        scf.for %k = %c0 to %n step %c1 {
          pipeline.consume %p as %s : !P {
          }
        }
      }
      scf.for %j = %c0 to %c8 step %c1 {
        pipeline.consume %q as %s : !P {
        }
      }
      pipeline.consume %r as %s : !P {
      }
      scf.for %k = %c1 to %n step %c1 {
        pipeline.consume %r as %s : !P {
        }
      }
    }
    gpu.return
  }

  // Not comparable: different SSA bounds; a condition on the loop counter
  // around a visit; visits in an scf.while; steps that are not multiples
  // of each other (ceildiv(%n, 2) and ceildiv(%n, 3) agree for %n = 4).
  // CHECK-LABEL: gpu.func @not_comparable
  gpu.func @not_comparable(%is_producer: i1, %n: index, %m: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %p = pipeline.create -> !P
    %q = pipeline.create -> !P
    %r = pipeline.create -> !P
    %u = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.init_mbars %q producer 1 consumer 1 : !P
    pipeline.init_mbars %r producer 1 consumer 1 : !P
    pipeline.init_mbars %u producer 1 consumer 1 : !P
    scf.if %is_producer {
      scf.for %k = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      scf.for %k = %c0 to %n step %c1 {
        %even = arith.cmpi ult, %k, %c2 : index
        scf.if %even {
          pipeline.produce %q as %s : !P {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      %w = scf.while (%k = %c0) : (index) -> index {
        %more = arith.cmpi ult, %k, %c3 : index
        scf.condition(%more) %k : index
      } do {
      ^bb0(%k: index):
        pipeline.produce %r as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
        %next = arith.addi %k, %c1 : index
        scf.yield %next : index
      }
      scf.for %k = %c0 to %n step %c2 {
        pipeline.produce %u as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
    } else {
      scf.for %k = %c0 to %m step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
      scf.for %k = %c0 to %c3 step %c1 {
        pipeline.consume %q as %s : !P {
        }
      }
      scf.for %k = %c0 to %c2 step %c1 {
        pipeline.consume %r as %s : !P {
        }
      }
      scf.for %k = %c0 to %n step %c3 {
        pipeline.consume %u as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @same_after_normalizing
// Counts that are equal once the bounds are normalized: an i32 count and
// its index cast; 1 .. n + 1 against 0 .. n; a flat loop over 2 n against
// two acquires per iteration of n; 0 .. 4 n (n << 2) in steps of 4, two
// items each, against two per iteration of n.
!P = !pipeline.pipeline<stages = 2>
!Q = !pipeline.pipeline<stages = 2>
!R = !pipeline.pipeline<stages = 2>
!S = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @same_after_normalizing(%is_producer: i1, %n32: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i2 = arith.constant 2 : i32
    %i4 = arith.constant 4 : i32
    %n = arith.index_cast %n32 : i32 to index
    %n1 = arith.addi %n, %c1 : index
    %n2 = arith.muli %c2, %n : index
    %n4 = arith.shli %n32, %i2 : i32
    %p = pipeline.create -> !P
    %q = pipeline.create -> !Q
    %r = pipeline.create -> !R
    %t = pipeline.create -> !S
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.init_mbars %q producer 1 consumer 1 : !Q
    pipeline.init_mbars %r producer 1 consumer 1 : !R
    pipeline.init_mbars %t producer 1 consumer 1 : !S
    scf.if %is_producer {
      scf.for %i = %i0 to %n32 step %i1 : i32 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      scf.for %i = %c1 to %n1 step %c1 {
        pipeline.produce %q as %s : !Q {
          pipeline.arrive %s : !pipeline.stage<producer, !Q>
        }
      }
      scf.for %i = %c0 to %n2 step %c1 {
        pipeline.produce %r as %s : !R {
          pipeline.arrive %s : !pipeline.stage<producer, !R>
        }
      }
      scf.for %i = %i0 to %n4 step %i4 : i32 {
        scf.for %j = %i0 to %i2 step %i1 : i32 {
          pipeline.produce %t as %s : !S {
            pipeline.arrive %s : !pipeline.stage<producer, !S>
          }
        }
      }
      pipeline.drain_producer %p : !P
      pipeline.drain_producer %q : !Q
      pipeline.drain_producer %r : !R
      pipeline.drain_producer %t : !S
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %p as %s : !P {
        }
        pipeline.consume %q as %s : !Q {
        }
        pipeline.consume %r as %s : !R {
        }
        pipeline.consume %r as %s : !R {
        }
        pipeline.consume %t as %s : !S {
        }
        pipeline.consume %t as %s : !S {
        }
      }
    }
    gpu.return
  }
}

// -----

// A producer loop over a negative lower bound to 0 against a consumer
// over its absolute value: equal counts whose atoms have unknown signs
// (-%lo), not reported.
// CHECK-LABEL: gpu.func @tc2
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @tc2(%is_producer: i1, %lo: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %m = math.absi %lo : index
    scf.if %is_producer {
      scf.for %i = %lo to %c0 step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
    } else {
      scf.for %i = %c0 to %m step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}
