// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// Drain at exit: when the CTAs of a pipeline signal each other, a CTA must
// not exit while a peer may still arrive on its barriers or write its
// shared memory: the producer drains (pipeline.drain_producer) or the
// kernel ends with a cluster barrier, on every path to the exit.

// A CTA pair without either.
!Acc = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_no_drain(%is_mma: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %accp = pipeline.create -> !Acc
    pipeline.init_mbars %accp producer 1 consumer 256 cluster : !Acc
    // The MMA of the pair's leader produces.
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %leader_mma = arith.andi %is_mma, %leader : i1
    scf.if %leader_mma {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait), got a path without either: its CTAs signal each other (cta_group = 2), and a peer may still arrive on this CTA's barriers or write its shared memory after it exited}}
        %acc = pipeline.acquire_producer %accp : !Acc
        pipeline.commit_mma %acc : !pipeline.stage<producer, !Acc>
        pipeline.release %acc : !pipeline.stage<producer, !Acc>
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %accp as %e : !Acc {
        }
      }
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// The drain on one branch only.
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @drain_on_one_path(%is_producer: i1, %done_early: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 64 cluster : !P
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{got a path without either when the scf.if condition is false: its CTAs signal each other (release_ctas = 2)}}
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      // expected-note @+1 {{drains on some paths only}}
      scf.if %done_early {
        pipeline.drain_producer %p : !P
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %p as %s : !P {
        }
      }
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// A plain pipeline whose producer multicasts its loads into the other
// CTAs of the cluster; a cluster arrive without the wait is no barrier.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @multicast(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %both = arith.constant 3 : i16
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{got a path without either: its CTAs signal each other (a multicast TMA load)}}
      %s = pipeline.acquire_producer %tp : !TP
      %bars, %id = pipeline.mbar %s : !PS
      %tiles = pipeline.payload %s[0] : !PS -> !Tiles
      %t = memref.subview %tiles[0, 0, 0] [1, 16, 32] [1, 1, 1] : !Tiles to memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
      // expected-note @+1 {{signal to another CTA here}}
      nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %t multicast_mask = %both : !Desc, !Bars -> memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
      pipeline.expect_tx %s : !PS
      pipeline.release %s : !PS
    }
    nvvm.cluster.arrive
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// An index switch whose default case does not drain.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @switch(%role: index, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 2 cluster : !P
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{got a path without either in the default case of the scf.index_switch}}
      %s = pipeline.acquire_producer %p : !P
      pipeline.commit_mma %s : !pipeline.stage<producer, !P>
      pipeline.step %s : !pipeline.stage<producer, !P>
    }
    // expected-note @+1 {{drains on some paths only}}
    scf.index_switch %role
    case 0 {
      pipeline.drain_producer %p : !P
      scf.yield
    }
    default {
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// A cluster launch control scheduler that stops without draining: the
// consumers of the other CTAs still arrive on rank 0's empty barriers.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @clc_no_drain(%resp: !Resp, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 64 cluster : !CLC
    %tid = gpu.thread_id x
    %c32 = arith.constant 32 : index
    %warp0 = arith.cmpi ult, %tid, %c32 : index
    // The scheduler: warp 0 of cluster rank 0.
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %i0 = arith.constant 0 : i32
    %rank0 = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %warp0, %rank0 : i1
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{its CTAs signal each other (clc = true)}}
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        pipeline.arrive %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
      }
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// The drain under the CTA's thread 0, which is in warp 0, not in the
// producer warp 2: no thread of the producer warp drains (a lane test of
// the warp would be accepted: test verify-protocol-drain-valid.mlir).
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Half = memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @drain_by_thread0(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %mask = arith.constant 3 : i16
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xi32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 64 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %half = arith.muli %rank, %c16 : index
    // Warp 2 produces: the whole warp waits for each stage, its lane 0
    // arms and issues the multicast load.
    %producer_warp = arith.cmpi eq, %warp, %c2 : index
    scf.if %producer_warp {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait), got a path without either when the scf.if condition is false: its CTAs signal each other (release_ctas = 2)}}
        %s = pipeline.acquire_producer %tp : !TP
        scf.if %lane0 {
          pipeline.expect_tx %s : !PS
          %bars, %id = pipeline.mbar %s : !PS
          %tiles = pipeline.payload %s[0] : !PS -> !Tiles
          %dst = memref.subview %tiles[0, %half, 0] [1, 16, 32] [1, 1, 1] : !Tiles to !Half
          nvgpu.tma.async.load %desc[%c0, %half], %bars[%id] to %dst multicast_mask = %mask : !Desc, !Bars -> !Half
        }
        pipeline.release %s : !PS
      }
      // expected-note @+1 {{drains on some paths only}}
      scf.if %t0 {
        pipeline.drain_producer %tp : !TP
      }
    }
    %consumer_warp = arith.cmpi eq, %warp, %c1 : index
    scf.if %consumer_warp {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// Unstructured control flow (cf): an early return of a cluster producer
// around its drain. The branch names where the paths part.
!Pair = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @cf_early_return(%done: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = pipeline.create -> !Pair
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait), got a path without either: its CTAs signal each other (cta_group = 2)}}
      pipeline.produce %a as %s : !Pair {
        pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
      }
    }
    // expected-note @+1 {{this branch leads to the exit both through a drain and around it}}
    cf.cond_br %done, ^exit, ^tail
  ^tail:
    pipeline.drain_producer %a : !Pair
    cf.br ^exit
  ^exit:
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}

// -----

// The producer runs in lane 1, the drain under lane 0 nested in it: no
// thread of the path drains.
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @d8(%is_producer: i1, %c: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %b = pipeline.create -> !Multi
    pipeline.init_mbars %b producer 2 consumer 64 cluster : !Multi
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %tid0 = arith.cmpi eq, %tid, %c0 : index
    %warp0 = arith.cmpi eq, %warp, %c0 : index
    %warp1 = arith.cmpi eq, %warp, %c1 : index
    %lane1 = arith.cmpi eq, %lane, %c1 : index
    scf.if %lane1 {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait)}}
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
      }
      // expected-note @+1 {{drains on some paths only}}
      scf.if %lane0 {
        pipeline.drain_producer %b : !Multi
      }
    }
    scf.if %warp1 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %b as %s : !Multi {
        }
      }
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}


// -----

// An aligned cluster barrier in one lane is no drain (undefined in
// divergent code).
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @d13(%is_producer: i1, %c: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %b = pipeline.create -> !Multi
    pipeline.init_mbars %b producer 32 consumer 64 cluster : !Multi
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %tid0 = arith.cmpi eq, %tid, %c0 : index
    %warp0 = arith.cmpi eq, %warp, %c0 : index
    %warp1 = arith.cmpi eq, %warp, %c1 : index
    scf.if %warp0 {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait)}}
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
      }
      // expected-note @+1 {{drains on some paths only}}
      scf.if %lane0 {
        nvvm.cluster.arrive {aligned}
        nvvm.cluster.wait {aligned}
      }
    }
    scf.if %warp1 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %b as %s : !Multi {
        }
      }
    }
    // expected-note @+1 {{kernel exit}}
    gpu.return
  }
}
