// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// Arrival counts: with the block size known, the threads that signal a
// barrier are counted from the warp-role and lane conditions around the
// signals. One arrival per phase too many completes the phase before the
// last signaller is done (the other role overwrites or reads a stage that
// is still in use); one too few never completes it (hang).

// Two consumer warps arrive on an empty barrier initialized for one warp.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @two_consumer_warps(%n: index) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (consumer 32)}}
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects 32 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 32), got 64: 2 warps x 32 lanes arrive (exit of pipeline.consume)}}
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// A lane-guarded producer arrive on a full barrier that expects the whole
// warp: the phase never completes.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @lane_guarded_under(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (producer 32)}}
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          scf.if %lane0 {
            // expected-error @+1 {{expects 32 arrivals per phase on the full barriers of this pipeline (init_mbars producer 32), got 1: 1 thread arrives}}
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// commit_mma without elect: one tcgen05.commit per warp that executes it.
// Two MMA warps commit to a full barrier that expects one.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @two_mma_warps(%n: index) kernel attributes {nvvm.reqntid = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (producer 1)}}
    pipeline.init_mbars %p producer 1 consumer 128 : !P
    %is_mma = arith.cmpi ult, %warp, %c2 : index
    scf.if %is_mma {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        // expected-error @+1 {{expects 1 arrivals per phase on the full barriers of this pipeline (init_mbars producer 1), got 2: 2 warps commit (tcgen05.commit)}}
        pipeline.commit_mma %s : !pipeline.stage<producer, !P>
        pipeline.step %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// nvvm.elect.sync elects one lane per warp: four consumer warps give four
// arrivals, not one.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @elected_lanes(%n: index) kernel attributes {nvvm.reqntid = array<i32: 160, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (consumer 1)}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %tid, %c0 : index
    %is_consumer = arith.cmpi ugt, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    scf.if %is_consumer {
      %e = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %p : !P
        scf.if %e {
          // expected-error @+1 {{expects 1 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 1), got 4: 4 warps x 1 lane arrive}}
          pipeline.arrive %s : !pipeline.stage<consumer, !P>
        }
        pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
      }
    }
    gpu.return
  }
}

// -----

// An arrive in a loop of two iterations per stage: every lane arrives twice.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @arrive_in_loop(%n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %is_producer = arith.cmpi ult, %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (producer 32)}}
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        scf.for %k = %c0 to %c2 step %c1 {
          // expected-error @+1 {{got 64: 1 warp x 32 lanes arrive 2 times per stage}}
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// The accumulator pipeline of a CTA pair: the epilogue threads of BOTH
// CTAs arrive on the leader's empty barrier (the table in
// docs/lowering.md), so its count is 128 x 2.
!Acc = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_accumulator(%n: index) kernel attributes {nvvm.reqntid = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %i0 : i32
    %accp = pipeline.create -> !Acc
    // expected-note @+1 {{arrival count set here (consumer 128)}}
    pipeline.init_mbars %accp producer 1 consumer 128 cluster : !Acc
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    %is_mma = arith.andi %is_mma_warp, %is_leader_cta : i1
    %is_epilogue = arith.cmpi uge, %warp, %c2 : index
    scf.if %is_mma {
      %elect = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        %acc = pipeline.acquire_producer %accp : !Acc
        pipeline.commit_mma %acc elect(%elect) : !pipeline.stage<producer, !Acc>
        pipeline.release %acc : !pipeline.stage<producer, !Acc>
      }
      pipeline.drain_producer %accp : !Acc
    }
    scf.if %is_epilogue {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects 128 arrivals per phase on the empty barriers of the leader CTA of this pipeline (init_mbars consumer 128), got 256: 4 warps x 32 lanes arrive (exit of pipeline.consume) in each of 2 CTAs}}
        pipeline.consume %accp as %e : !Acc {
        }
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}

// -----

// The input pipeline of a CTA pair: only the leader arms its full barrier
// (for both CTAs' bytes); the peer's expect_tx does nothing. A count of 2
// (one per CTA) never completes.
#WG = #gpu.address_space<workgroup>
!In = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !In, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @pair_expect_tx(%buf: memref<2x1x64x64xbf16, #WG>, %n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %i0 : i32
    %in = pipeline.create -> !In
    %tp = pipeline.input_tile_pipeline %in payload(%buf : memref<2x1x64x64xbf16, #WG>) : !In -> !TP
    // expected-note @+1 {{arrival count set here (producer 2)}}
    pipeline.init_mbars %tp producer 2 consumer 1 cluster : !TP
    %is_tma = arith.cmpi eq, %tid, %c0 : index
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    %is_mma = arith.andi %is_mma_warp, %is_leader_cta : i1
    scf.if %is_tma {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %tp : !TP
        // expected-error @+1 {{expects 2 arrivals per phase on the full barriers of the leader CTA of this pipeline (init_mbars producer 2), got 1: 1 thread arrives with expect_tx in this CTA}}
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
        pipeline.release %s : !pipeline.stage<producer, !TP>
      }
      pipeline.drain_producer %tp : !TP
    }
    scf.if %is_mma {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}

// -----

// release_ctas = 2 (Hopper cluster multicast): every consumer arrival
// reaches the empty barrier of both CTAs, so each one counts the consumer
// warps of the two CTAs.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @multicast_release(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (consumer 32)}}
    pipeline.init_mbars %p producer 1 consumer 32 cluster : !P
    %is_producer = arith.cmpi eq, %tid, %c0 : index
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    scf.if %is_consumer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %p : !P
        // expected-error @+1 {{expects 32 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 32), got 64: 1 warp x 32 lanes arrive in each of 2 CTAs}}
        pipeline.arrive %s : !pipeline.stage<consumer, !P>
        pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
      }
    }
    gpu.return
  }
}

// -----

// Before outlining: the block size of a gpu.launch with constant sizes.
// A 2-D block whose y index picks the role.
!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c3 = arith.constant 3 : index
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c3, %sz = %c1) {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %p = pipeline.create -> !P
      // expected-note @+1 {{arrival count set here (producer 32)}}
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %is_producer = arith.cmpi ult, %ty, %c2 : index
      scf.if %is_producer {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %p : !P
          // expected-error @+1 {{expects 32 arrivals per phase on the full barriers of this pipeline (init_mbars producer 32), got 64: 2 warps x 32 lanes arrive (commit)}}
          pipeline.commit %s : !pipeline.stage<producer, !P>
        }
        pipeline.drain_producer %p : !P
      } else {
        scf.for %i = %c0 to %n step %c1 {
          pipeline.consume %p as %s : !P {
          }
        }
      }
      gpu.terminator
    }
    return
  }
}

// -----

// Threads producing for the pair's MMA (CUTLASS PipelineUmmaConsumerAsync:
// transform warps in both CTAs, the MMA in the leader consumes): a
// thread's producer signal on a cta_group = 2 pipeline reaches the leader's
// full barrier, so both CTAs' producers count there. With a count of 1 the
// leader's MMA would start on the leader's half alone.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_thread_producers(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %i0 : i32
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (producer 1)}}
    pipeline.init_mbars %p producer 1 consumer 1 cluster : !P
    %is_producer_warp = arith.cmpi eq, %warp, %c0 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.andi %is_producer_warp, %lane0 : i1
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    %is_mma = arith.andi %is_mma_warp, %is_leader_cta : i1
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        // expected-error @+1 {{expects 1 arrivals per phase on the full barriers of the leader CTA of this pipeline (init_mbars producer 1), got 2}}
        pipeline.commit %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    scf.if %is_mma {
      %elect = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %p : !P
        pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !P>
        pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}

// -----

// A 2 x 2 multicast cluster (cluster_m = cluster_n = 2, Hopper: CUTLASS
// PipelineTmaAsync with a 2-D cluster): every consumer arrival reaches the
// row-and-column cross of its CTA, 2 + 2 - 1 = 3 CTAs, so each empty
// barrier counts the consumer warps of 3 CTAs (96), not of the 2 of a
// 1-D group nor the 4 of the cluster.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cluster_m = 2, cluster_n = 2>
gpu.module @m {
  gpu.func @cross_release(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (consumer 64)}}
    pipeline.init_mbars %p producer 1 consumer 64 cluster : !P
    %is_producer = arith.cmpi eq, %tid, %c0 : index
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
        pipeline.arrive %s : !pipeline.stage<producer, !P>
        pipeline.release %s : !pipeline.stage<producer, !P>
      }
      pipeline.drain_producer %p : !P
    }
    scf.if %is_consumer {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects 64 arrivals per phase on the empty barriers of CTA (m 0, n 0) of the cluster of this pipeline (init_mbars consumer 64), got 96: 1 warp x 32 lanes arrive (exit of pipeline.consume) in each of 3 CTAs}}
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// A clc pipeline (the cluster launch control scheduler): its consumers
// signal cluster rank 0's empty barrier from every CTA. Here rank 0 gives
// 96 arrivals per phase (the scheduler warp and 2 worker warps), every other
// CTA 64 (its 2 worker warps): 96 + 64 (k - 1) for a cluster of k CTAs.
// 100 is no such sum; the loops are scf.while on the response (the same in
// every reader).
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @clc_count_unreachable(%resp: !Resp) kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %true = arith.constant true
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    // expected-note @+1 {{arrival count set here (consumer 100)}}
    pipeline.init_mbars %clc producer 1 consumer 100 cluster : !CLC
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.while (%go = %true) : (i1) -> () {
        scf.condition(%go)
      } do {
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        // expected-error @+1 {{expects 100 arrivals per phase on the empty barriers of cluster rank 0 of this clc pipeline (init_mbars consumer 100), no cluster size gives it: 96 consumer arrivals from rank 0 and 64 from each other CTA of the cluster (every consumer signal of a clc pipeline reaches rank 0)}}
        pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
        scf.yield %ok : i1
      }
      pipeline.drain_producer %clc : !CLC
    } else {
      scf.if %w0 {
      } else {
        scf.while (%go = %true) : (i1) -> () {
          scf.condition(%go)
        } do {
          %s = pipeline.acquire_consumer %clc : !CLC
          %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
          pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
          pipeline.release %s : !pipeline.stage<consumer, !CLC>
          scf.yield %ok : i1
        }
      }
    }
    gpu.return
  }
}

// -----

// With the cluster declared (nvvm.cluster_dim, 4 CTAs) the count must be
// 96 + 3 x 64 = 288: 224, the count of a cluster of 3, is reported.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @clc_count_cluster(%resp: !Resp) kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %true = arith.constant true
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    // expected-note @+1 {{arrival count set here (consumer 224)}}
    pipeline.init_mbars %clc producer 1 consumer 224 cluster : !CLC
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.while (%go = %true) : (i1) -> () {
        scf.condition(%go)
      } do {
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        // expected-error @+1 {{expects 224 arrivals per phase on the empty barriers of cluster rank 0 of this clc pipeline (init_mbars consumer 224), got 288 in a cluster of 4 CTAs (nvvm.cluster_dim): 96 consumer arrivals from rank 0 and 64 + 64 + 64 from ranks 1 to 3}}
        pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
        scf.yield %ok : i1
      }
      pipeline.drain_producer %clc : !CLC
    } else {
      scf.if %w0 {
      } else {
        scf.while (%go = %true) : (i1) -> () {
          scf.condition(%go)
        } do {
          %s = pipeline.acquire_consumer %clc : !CLC
          %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
          pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
          pipeline.release %s : !pipeline.stage<consumer, !CLC>
          scf.yield %ok : i1
        }
      }
    }
    gpu.return
  }
}

// -----

// The producer count of a clc pipeline is 1: clc_try_cancel arms each CTA's
// full barrier once per stage.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @clc_producer_count(%resp: !Resp) kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %true = arith.constant true
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    // expected-error @+1 {{expects producer 1 on a clc pipeline, got 2: pipeline.clc_try_cancel arms the full barrier of each CTA with one arrive.expect_tx of the 16 response bytes per stage}}
    pipeline.init_mbars %clc producer 2 consumer 160 cluster : !CLC
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.while (%go = %true) : (i1) -> () {
        scf.condition(%go)
      } do {
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
        scf.yield %ok : i1
      }
      pipeline.drain_producer %clc : !CLC
    } else {
      scf.if %w0 {
      } else {
        scf.while (%go = %true) : (i1) -> () {
          scf.condition(%go)
        } do {
          %s = pipeline.acquire_consumer %clc : !CLC
          %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
          pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
          pipeline.release %s : !pipeline.stage<consumer, !CLC>
          scf.yield %ok : i1
        }
      }
    }
    gpu.return
  }
}
