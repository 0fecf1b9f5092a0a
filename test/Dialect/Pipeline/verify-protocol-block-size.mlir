// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// Arrival counts where the kernel declares no block size: they are counted
// at the least block its roles need (pipeline.min_block_size, the launch
// contract the launchers enforce), and where even that is unknown the
// checker says which barriers it did not count.

// Warp 0 produces; warps 1 and 2 consume, 64 lanes, but `consumer 32`:
// every block that runs both consumer warps (96 threads and more) gives
// 64 arrivals per phase, and the empty barriers complete a phase twice per
// release.
!P = !pipeline.pipeline<stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @kernels {
  // expected-note @+1 {{counted with 96 threads, the least block the kernel's roles need (it declares no block size; declare one with known_block_size, nvvm.reqntid or @pm.kernel(block=...) to count at another)}}
  gpu.func @two_consumer_warps() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !P
    // expected-note @+1 {{arrival count set here (consumer 32)}}
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    %ge1 = arith.cmpi uge, %warp, %c1 : index
    %le2 = arith.cmpi ule, %warp, %c2 : index
    %is_consumer = arith.andi %ge1, %le2 : i1
    scf.if %is_consumer {
      // expected-error @+1 {{expects 32 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 32), got 64}}
      pipeline.consume %p as %s : !P {
      }
    }
    gpu.return
  }
}

// -----

// The same roles with the block declared: counted at the declared block.
!P = !pipeline.pipeline<stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @declared() kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !P
    // expected-note @+1 {{arrival count set here (consumer 32)}}
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    %ge1 = arith.cmpi uge, %warp, %c1 : index
    %le2 = arith.cmpi ule, %warp, %c2 : index
    %is_consumer = arith.andi %ge1, %le2 : i1
    scf.if %is_consumer {
      // expected-error @+1 {{expects 32 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 32), got 64}}
      pipeline.consume %p as %s : !P {
      }
    }
    gpu.return
  }
}

// -----

// Counts that match at the derived block: nothing to say.
!P = !pipeline.pipeline<stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @one_consumer_warp() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_consumer {
      pipeline.consume %p as %s : !P {
      }
    }
    gpu.return
  }
}

// -----

// Roles chosen by the y thread id and no declared block: the counts cannot
// be checked, and the checker says so for each barrier kind.
!P = !pipeline.pipeline<stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @two_d() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %y = gpu.thread_id y
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem {name = "ring"} -> !P
    // expected-remark @+2 {{arrivals on the full barriers of pipeline "ring" not counted: the kernel's block size is unknown (declare it with known_block_size, nvvm.reqntid or @pm.kernel(block=...))}}
    // expected-remark @+1 {{arrivals on the empty barriers of pipeline "ring" not counted: the kernel's block size is unknown}}
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %y, %c0 : index
    scf.if %is_producer {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    } else {
      pipeline.consume %p as %s : !P {
      }
    }
    gpu.return
  }
}

// -----

// Roles that grow with the block (warps 1 and up): producers are lanes 0
// to 15 of those warps (`producer 16`: one warp, 64 threads), consumers
// lanes 16 to 31 (`consumer 48`: three warps, 128 threads). Each count
// holds at some block, but no block gives both: the kernel hangs however
// it is launched.
!P = !pipeline.pipeline<stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @kernels {
  // expected-note @+1 {{counted with 64 threads, the least block the kernel's roles need; no block of 64 to 1024 threads gives every barrier of the kernel its count either}}
  gpu.func @split() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !P
    // expected-note @+1 {{arrival count set here (consumer 48)}}
    pipeline.init_mbars %p producer 16 consumer 48 : !P
    %w1 = arith.cmpi uge, %warp, %c1 : index
    %lo = arith.cmpi ult, %lane, %c16 : index
    %is_producer = arith.andi %w1, %lo : i1
    scf.if %is_producer {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.if %w1 {
        // expected-error @+1 {{expects 48 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 48), got 16: 1 warp x 16 lanes arrive (exit of pipeline.consume)}}
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// Every even warp consumes, warp 1 produces, `consumer 64`: the roles
// repeat along the block; two consumer warps (warps 0 and 2, a block of 96
// or 128 threads) give the count: accepted.
!P = !pipeline.pipeline<stages = 2>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @kernels {
  gpu.func @even_warps() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %smem = gpu.dynamic_shared_memory : !Smem
    %p = pipeline.create in %smem[%c0] : !Smem -> !P
    pipeline.init_mbars %p producer 32 consumer 64 : !P
    %is_producer = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_producer {
      pipeline.produce %p as %s : !P {
        pipeline.arrive %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    %parity = arith.remui %warp, %c2 : index
    %even = arith.cmpi eq, %parity, %c0 : index
    scf.if %even {
      pipeline.consume %p as %s : !P {
      }
    }
    gpu.return
  }
}
