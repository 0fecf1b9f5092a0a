// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics | FileCheck %s

// Producers of pipelines whose CTAs signal each other, each reaching the
// exit through a drain or a cluster barrier on every path; a pipeline
// local to its CTA needs neither.

!Pair = !pipeline.pipeline<stages = 2, cta_group = 2>
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
!Local = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @drained
  gpu.func @drained(%is_producer: i1, %c: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = pipeline.create -> !Pair
    %b = pipeline.create -> !Multi
    %l = pipeline.create -> !Local
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    pipeline.init_mbars %b producer 1 consumer 2 cluster : !Multi
    pipeline.init_mbars %l producer 1 consumer 1 : !Local
    // The pair's producer runs in its leader (the consumers' arrivals reach
    // the leader only).
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %leader_producer = arith.andi %is_producer, %leader : i1
    scf.if %leader_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %a as %s : !Pair {
          pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
        }
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
        pipeline.produce %l as %s : !Local {
          pipeline.arrive %s : !pipeline.stage<producer, !Local>
        }
      }
      // Right after the loop for one, on both branches for the other.
      pipeline.drain_producer %a : !Pair
      scf.if %c {
        pipeline.drain_producer %b : !Multi
      } else {
        pipeline.drain_producer %b : !Multi
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %a as %s : !Pair {
        }
        pipeline.consume %b as %s : !Multi {
        }
        pipeline.consume %l as %s : !Local {
        }
      }
    }
    gpu.return
  }

  // A cluster barrier at the end of the kernel keeps every CTA alive until
  // all are done; it may follow an arrive on another path level.
  // CHECK-LABEL: gpu.func @cluster_barrier
  gpu.func @cluster_barrier(%is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %a = pipeline.create -> !Pair
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %leader_producer = arith.andi %is_producer, %leader : i1
    scf.if %leader_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %a as %s : !Pair {
          pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
        }
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %a as %s : !Pair {
        }
      }
    }
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    gpu.return
  }

  // Unstructured control flow after the producer: every path from the
  // producer's last stage to the return drains (each branch its own drain;
  // a loop in cf form that ends in the drain).
  // CHECK-LABEL: gpu.func @cfg
  gpu.func @cfg(%c: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = pipeline.create -> !Pair
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    %s = pipeline.acquire_producer %a : !Pair
    pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
    pipeline.step %s : !pipeline.stage<producer, !Pair>
    cf.cond_br %c, ^bb1, ^bb2(%c0 : index)
  ^bb1:
    pipeline.drain_producer %a : !Pair
    cf.br ^bb3
  ^bb2(%i: index):
    %more = arith.cmpi ult, %i, %n : index
    %next = arith.addi %i, %c1 : index
    cf.cond_br %more, ^bb2(%next : index), ^bb4
  ^bb4:
    pipeline.drain_producer %a : !Pair
    cf.br ^bb3
  ^bb3:
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @drain_by_lane0
// A producer warp whose lane 0 arms, loads (multicast) and drains, as
// CUTLASS runs producer_tail under the elected-lane predicate: lanes 1-31
// reach the exit without a drain, but the CTA exits only when its last
// thread does, and lane 0 of the warp drains.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Half = memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @drain_by_lane0(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
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
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %half = arith.muli %rank, %c16 : index
    // Warp 2 produces: the whole warp waits for each stage, its lane 0
    // arms and issues the multicast load.
    %producer_warp = arith.cmpi eq, %warp, %c2 : index
    scf.if %producer_warp {
      scf.for %i = %c0 to %n step %c1 {
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
      scf.if %lane0 {
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
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @drain_by_elected_lane
// The same with the lane chosen by nvvm.elect.sync.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xi32, #WG>]>
!PS = !pipeline.stage<producer, !TP>
!Tiles = memref<1x32x32xi32, strided<[1024, 32, 1], offset: ?>, #WG>
!Half = memref<16x32xi32, strided<[32, 1], offset: ?>, #WG>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>
gpu.module @m {
  gpu.func @drain_by_elected_lane(%desc: !Desc, %buf: memref<2x1x32x32xi32, #WG>, %n: index) kernel {
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
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %half = arith.muli %rank, %c16 : index
    // Warp 2 produces: the whole warp waits for each stage, its lane 0
    // arms and issues the multicast load.
    %producer_warp = arith.cmpi eq, %warp, %c2 : index
    scf.if %producer_warp {
      scf.for %i = %c0 to %n step %c1 {
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
      %e = nvvm.elect.sync -> i1
      scf.if %e {
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
    gpu.return
  }
}

// -----

// The CTA's thread 0 drains, on a path known to run in warp 0 (the
// producer warp): it is lane 0 of that warp.
// CHECK-LABEL: gpu.func @d6
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @d6(%is_producer: i1, %c: i1, %n: index) kernel {
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
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
      }
      scf.if %tid0 {
        pipeline.drain_producer %b : !Multi
      }
    }
    scf.if %warp1 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %b as %s : !Multi {
        }
      }
    }
    gpu.return
  }
}


// -----

// The drain under warp 0 and the elected lane, after the producer's
// branch: warp 0 holds on that path.
// CHECK-LABEL: gpu.func @d7
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @d7(%is_producer: i1, %c: i1, %n: index) kernel {
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
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
      }
    }
    scf.if %warp1 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %b as %s : !Multi {
        }
      }
    }
    %e = nvvm.elect.sync -> i1
    %w0e = arith.andi %warp0, %e : i1
    scf.if %w0e {
      pipeline.drain_producer %b : !Multi
    }
    gpu.return
  }
}


// -----

// The drain under lane != 0: 31 lanes of the producer warp take it.
// CHECK-LABEL: gpu.func @d9
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @d9(%is_producer: i1, %c: i1, %n: index) kernel {
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
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
      }
      %ln0 = arith.cmpi ne, %lane, %c0 : index
      scf.if %ln0 {
        pipeline.drain_producer %b : !Multi
      }
    }
    scf.if %warp1 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %b as %s : !Multi {
        }
      }
    }
    gpu.return
  }
}


// -----

// In cf form: a branch on lane 0 to the drain.
// CHECK-LABEL: gpu.func @d12
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @d12(%is_producer: i1, %c: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %b = pipeline.create -> !Multi
    pipeline.init_mbars %b producer 1 consumer 2 cluster : !Multi
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %tid0 = arith.cmpi eq, %tid, %c0 : index
    %warp0 = arith.cmpi eq, %warp, %c0 : index
    %warp1 = arith.cmpi eq, %warp, %c1 : index
    cf.cond_br %warp0, ^prod, ^other
  ^prod:
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
      }
    cf.cond_br %lane0, ^drain, ^exit
  ^drain:
    pipeline.drain_producer %b : !Multi
    cf.br ^exit
  ^other:
    cf.cond_br %warp1, ^cons, ^exit
  ^cons:
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %b as %s : !Multi {
        }
      }
    cf.br ^exit
  ^exit:
    gpu.return
  }
}
