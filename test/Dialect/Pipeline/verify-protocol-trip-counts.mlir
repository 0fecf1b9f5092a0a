// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// Trip counts: the producer and the consumer of a pipeline must move the
// same number of items. Fewer produced: the consumer waits forever for the
// rest. More produced: the producer's drain (or its next acquire, once it
// is a whole ring ahead) waits forever for stages nobody frees.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @constant_bounds(%is_producer: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    // expected-error @+1 {{expects the producer and the consumer of this pipeline to move the same number of items, got: the producer makes 3 items, the consumer takes 5: the consumer waits for the rest forever}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes 3 items here}}
      scf.for %i = %c0 to %c3 step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      // expected-note @+1 {{the consumer takes 5 items here}}
      scf.for %i = %c0 to %c5 step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// Nested loops: 2 x 4 items made, 4 taken.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @nested(%is_producer: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{got: the producer makes 8 items, the consumer takes 4: the rest are never consumed, and the producer waits for their stages to be freed forever}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes 8 items here}}
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c4 step %c1 {
          %s = pipeline.acquire_producer %p : !P
          pipeline.arrive %s : !pipeline.stage<producer, !P>
          pipeline.release %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      // expected-note @+1 {{the consumer takes 4 items here}}
      scf.for %j = %c0 to %c4 step %c1 {
        %s = pipeline.acquire_consumer %p : !P
        pipeline.release %s : !pipeline.stage<consumer, !P>
      }
    }
    gpu.return
  }
}

// -----

// The same SSA bounds, different steps: %n items made, ceildiv(%n, 2)
// taken.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @steps(%is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{got: the producer makes %arg1 items, the consumer takes ceildiv(%arg1, 2): over the same bounds with different steps, they differ whenever the loop with the smaller step runs more than once}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes %arg1 items here}}
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      // expected-note @+1 {{the consumer takes ceildiv(%arg1, 2) items here}}
      scf.for %i = %c0 to %n step %c2 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// A symbolic count scaled differently (the tile loop is shared, the
// consumer takes one stage per two k-blocks): differs whenever the loops
// run.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @scaled(%is_producer: i1, %tiles: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    // expected-error @+1 {{got: the producer makes 2 x %arg1 items, the consumer takes %arg1: the rest are never consumed, and the producer waits for their stages to be freed forever (whenever the loops run)}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes 2 x %arg1 items here}}
      scf.for %t = %c0 to %tiles step %c1 {
        scf.for %k = %c0 to %c2 step %c1 {
          pipeline.produce %p as %s : !P {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      // expected-note @+1 {{the consumer takes %arg1 items here}}
      scf.for %t = %c0 to %tiles step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// Bounds that differ by a constant through arithmetic: a persistent
// producer over the tiles and their k-blocks (k_blocks x tiles items), a
// consumer whose k loop starts at 1 (the first k-block "peeled" but never
// taken): k_blocks - 1 items per tile. Normalized affine bounds compare.
!P = !pipeline.pipeline<stages = 4>
gpu.module @m {
  gpu.func @peeled_but_not_taken(%is_producer: i1, %k: i32, %tiles: i32) kernel {
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i63 = arith.constant 63 : i32
    %i64 = arith.constant 64 : i32
    %kp = arith.addi %k, %i63 : i32
    %k_blocks = arith.divui %kp, %i64 : i32
    // expected-error @+1 {{got: the producer makes %1 x %arg2 items, the consumer takes %1 x %arg2 - %arg2: the rest are never consumed, and the producer waits for their stages to be freed forever (whenever the loops run)}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes %1 x %arg2 items here}}
      scf.for %t = %i0 to %tiles step %i1 : i32 {
        scf.for %kb = %i0 to %k_blocks step %i1 : i32 {
          pipeline.produce %p as %s : !P {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      // expected-note @+1 {{the consumer takes %1 x %arg2 - %arg2 items here}}
      scf.for %t = %i0 to %tiles step %i1 : i32 {
        scf.for %kb = %i1 to %k_blocks step %i1 : i32 {
          pipeline.consume %p as %s : !P {
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// A consumer that takes two stages per iteration, in steps of 2 up to
// 2 n + 2 (n + 1 iterations: 2 n + 2 items), while the producer makes 2 n:
// the consumer waits for 2 more.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @two_per_step(%is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %n2 = arith.muli %n, %c2 : index
    %extra = arith.addi %n2, %c2 : index
    // expected-error @+1 {{got: the producer makes 2 x %arg1 items, the consumer takes 2 + 2 x %arg1: the consumer waits for the rest forever}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes 2 x %arg1 items here}}
      scf.for %i = %c0 to %n2 step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    } else {
      // expected-note @+1 {{the consumer takes 1 + %arg1 items here}}
      scf.for %i = %c0 to %extra step %c2 {
        pipeline.consume %p as %s : !P {
        }
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// Each role computes the bound in its own branch (the same op on the same
// operands), the consumer one more: compared as one value.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @tc14(%is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{expects the producer and the consumer of this pipeline to move the same number of items, got: the producer makes %1 items, the consumer takes 1 + %1: the consum}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P

    scf.if %is_producer {
      %kt = arith.divui %n, %c4 : index
      // expected-note @+1 {{the producer makes %1 items here}}
      scf.for %i = %c0 to %kt step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
    } else {
      %kt2 = arith.divui %n, %c4 : index
      %kt3 = arith.addi %kt2, %c1 : index
      // expected-note @+1 {{the consumer takes 1 + %1 items here}}
      scf.for %i = %c0 to %kt3 step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}


// -----

// A bound through arith.trunci, one more on the consumer's side.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @tc7(%is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    // expected-error @+1 {{expects the producer and the consumer of this pipeline to move the same number of items, got: the producer makes %arg1 items, the consumer takes 1 + %arg1: the }}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %z = arith.constant 0 : i32
    %o = arith.constant 1 : i32
    %n64 = arith.index_cast %n : index to i64
    %t = arith.trunci %n64 : i64 to i32
    %t1 = arith.addi %t, %o : i32
    scf.if %is_producer {
      // expected-note @+1 {{the producer makes %arg1 items here}}
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
    } else {
      // expected-note @+1 {{the consumer takes 1 + %arg1 items here}}
      scf.for %i = %z to %t1 step %o : i32 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}
