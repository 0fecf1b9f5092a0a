// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics | FileCheck %s

// Arrival counts that match, and kernels whose arrivals cannot be counted
// (the check stays silent rather than guess).

// Lane-guarded signals in both branches of an scf.if: exactly one of them
// runs in every lane, so the warp gives 32 arrivals. The consumer's
// elected lanes, one per warp of two warps, give 2.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @both_branches
  gpu.func @both_branches(%n: index) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = gpu.lane_id
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 2 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          scf.if %lane0 {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          } else {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      %e = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume_explicit %p as %s : !P {
          scf.if %e {
            pipeline.arrive %s : !pipeline.stage<consumer, !P>
          }
        }
      }
    }
    gpu.return
  }
}

// -----

// The consumer alternates between two forms (a consume_explicit region and
// a handle ended with release_without_signal); both give one arrival per
// stage from lane 0 of the consumer warp.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @two_forms
  gpu.func @two_forms(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_leader = arith.cmpi eq, %lane, %c0 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          scf.if %is_leader {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %c0 to %n step %c1 {
        %parity = arith.remui %i, %c2 : index
        %even = arith.cmpi eq, %parity, %c0 : index
        scf.if %even {
          pipeline.consume_explicit %p as %s : !P {
            scf.if %is_leader {
              pipeline.arrive %s : !pipeline.stage<consumer, !P>
            }
          }
        } else {
          %s = pipeline.acquire_consumer %p : !P
          scf.if %is_leader {
            pipeline.arrive %s : !pipeline.stage<consumer, !P>
          }
          pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
        }
      }
    }
    gpu.return
  }
}

// -----

// The release lag (consumer_depth = 2): the handle is carried through
// iter_args and freed one iteration later; each release of a carried handle
// is one visit. One thread per consumer warpgroup arrives: 2 per phase.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4, consumer_depth = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<4x1x64x64xbf16, #WG>]>
!CS = !pipeline.stage<consumer, !TP>
gpu.module @m {
  // CHECK-LABEL: gpu.func @release_lag
  gpu.func @release_lag(%buf: memref<4x1x64x64xbf16, #WG>, %k: index, %tiles: index) kernel attributes {nvvm.reqntid = array<i32: 384, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %tid = gpu.thread_id x
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<4x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 2 : !TP
    %wg = arith.divui %tid, %c128 : index
    %is_producer = arith.cmpi eq, %wg, %c0 : index
    scf.if %is_producer {
      %is_tma = arith.cmpi eq, %tid, %c0 : index
      scf.if %is_tma {
        scf.for %t = %c0 to %tiles step %c1 {
          scf.for %kb = %c0 to %k step %c1 {
            %s = pipeline.acquire_producer %tp : !TP
            pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
            pipeline.release %s : !pipeline.stage<producer, !TP>
          }
        }
        pipeline.drain_producer %tp : !TP
      }
    } else {
      %ltid = arith.remui %tid, %c128 : index
      %leader = arith.cmpi eq, %ltid, %c0 : index
      scf.for %t = %c0 to %tiles step %c1 {
        %first = pipeline.acquire_consumer %tp : !TP
        %last = scf.for %kb = %c1 to %k step %c1 iter_args(%prev = %first) -> (!CS) {
          %cur = pipeline.acquire_consumer %tp : !TP
          scf.if %leader {
            pipeline.arrive %prev : !CS
          }
          pipeline.release %prev : !CS
          scf.yield %cur : !CS
        }
        scf.if %leader {
          pipeline.arrive %last : !CS
        }
        pipeline.release %last : !CS
      }
    }
    gpu.return
  }
}

// -----

// A CTA pair with the SM100 protocol (examples/sm100_matmul_pipelines.mlir):
// the leader's expect_tx (count 1), the leader MMA warp's elected commit
// multicast to both CTAs (counts 1), 128 epilogue threads per CTA on the
// leader's accumulator empty barrier (count 256).
#WG = #gpu.address_space<workgroup>
!In = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !In, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
!Acc = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @pair
  gpu.func @pair(%buf: memref<2x1x64x64xbf16, #WG>, %n: index) kernel attributes {nvvm.reqntid = array<i32: 192, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_leader_cta = arith.cmpi eq, %odd, %i0 : i32
    %in = pipeline.create -> !In
    %tp = pipeline.input_tile_pipeline %in payload(%buf : memref<2x1x64x64xbf16, #WG>) : !In -> !TP
    %accp = pipeline.create -> !Acc
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    pipeline.init_mbars %accp producer 1 consumer 256 cluster : !Acc
    %is_tma_warp = arith.cmpi eq, %warp, %c0 : index
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    %is_mma = arith.andi %is_mma_warp, %is_leader_cta : i1
    %is_epilogue = arith.cmpi uge, %warp, %c2 : index
    scf.if %is_tma_warp {
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        pipeline.drain_producer %tp : !TP
      }
    }
    scf.if %is_mma {
      %elect = nvvm.elect.sync -> i1
      scf.for %t = %c0 to %n step %c1 {
        %acc = pipeline.acquire_producer %accp : !Acc
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %tp : !TP
          pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !TP>
          pipeline.release %s : !pipeline.stage<consumer, !TP>
        }
        pipeline.commit_mma %acc elect(%elect) : !pipeline.stage<producer, !Acc>
        pipeline.release %acc : !pipeline.stage<producer, !Acc>
      }
      pipeline.drain_producer %accp : !Acc
    }
    scf.if %is_epilogue {
      scf.for %t = %c0 to %n step %c1 {
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

// Not counted: a data-dependent condition around a signal; a loop whose
// bound differs between threads; the barrier signalled through
// consumer_mbar. (A kernel without a declared block size is counted at the
// least block its roles need: verify-protocol-block-size.mlir.)
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @data_dependent
  gpu.func @data_dependent(%n: index, %flags: memref<8xi1>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          %f = memref.load %flags[%c0] : memref<8xi1>
          scf.if %f {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.for %i = %tid to %n step %c32 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }

  // CHECK-LABEL: gpu.func @by_index
  gpu.func @by_index(%n: index) kernel attributes {nvvm.maxntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 7 : !P
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
        pipeline.consume_explicit %p as %s : !P {
          %idx = pipeline.index %s : !pipeline.stage<consumer, !P>
          %bars, %id = pipeline.consumer_mbar %p[%idx] : !P
          %tok = nvgpu.mbarrier.arrive %bars[%id] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4> -> !nvgpu.mbarrier.token
        }
      }
    }
    gpu.return
  }
}

// -----

// Counted right: both CTAs' producers (2) on the leader's full barrier.
// Threads producing for the pair's MMA (CUTLASS PipelineUmmaConsumerAsync:
// transform warps in both CTAs, the MMA in the leader consumes): a
// thread's producer signal on a cta_group = 2 pipeline reaches the leader's
// full barrier, so both CTAs' producers count there. With a count of 1 the
// leader's MMA would start on the leader's half alone.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_thread_producers_counted(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
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
    pipeline.init_mbars %p producer 2 consumer 1 cluster : !P
    %is_producer_warp = arith.cmpi eq, %warp, %c0 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.andi %is_producer_warp, %lane0 : i1
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    %is_mma = arith.andi %is_mma_warp, %is_leader_cta : i1
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %p : !P
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

// CHECK-LABEL: gpu.func @cross_release_counted
// A 2 x 2 multicast cluster (cluster_m = cluster_n = 2, Hopper: CUTLASS
// PipelineTmaAsync with a 2-D cluster): every consumer arrival reaches the
// row-and-column cross of its CTA, 2 + 2 - 1 = 3 CTAs, so each empty
// barrier counts the consumer warps of 3 CTAs (96), not of the 2 of a
// 1-D group nor the 4 of the cluster.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cluster_m = 2, cluster_n = 2>
gpu.module @m {
  gpu.func @cross_release_counted(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %p = pipeline.create -> !P
        pipeline.init_mbars %p producer 1 consumer 96 cluster : !P
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
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @clc_counted
// A clc pipeline counted on rank 0: 96 + 64 = 160 (a cluster of 2; without
// nvvm.cluster_dim any cluster size that gives the count is accepted).
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @clc_counted(%resp: !Resp) kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %true = arith.constant true
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 160 cluster : !CLC
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

// -----

// CHECK-LABEL: gpu.func @clc_counted_cluster
// The same with the cluster declared: 96 + 3 x 64 = 288 for 4 CTAs.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @clc_counted_cluster(%resp: !Resp) kernel attributes {nvvm.reqntid = array<i32: 96, 1, 1>, nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %true = arith.constant true
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 288 cluster : !CLC
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
