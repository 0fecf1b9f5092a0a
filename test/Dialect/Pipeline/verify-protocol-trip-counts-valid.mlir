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
