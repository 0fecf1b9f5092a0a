// Seeded bugs for pipeline-sim: each defect class of the SM100 audit and of
// the protocol checks, written as a small kernel that the simulator must
// report at the right place (test/Sim/seeded-bugs.test). Compiled with
// --verify-protocol=false: several are what pipeline-verify-protocol
// rejects, the simulator is the second line. One block of 64 threads: warp
// 0 produces (lane 0), warp 1 consumes; 2 stages.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>
!P2 = !pipeline.pipeline<stages = 2, cta_group = 2>
!P2S = !pipeline.stage<producer, !P2>
!P2C = !pipeline.stage<consumer, !P2>
!TP2 = !pipeline.tile_pipeline<pipeline = !P2, k_group_size = 1, payload = [memref<2x1x8x32xi32, #WG>]>
!TP2S = !pipeline.stage<producer, !TP2>
!TP2C = !pipeline.stage<consumer, !TP2>
!TS = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8x32xi32, #WG>]>
!TSS = !pipeline.stage<producer, !TS>
!TSC = !pipeline.stage<consumer, !TS>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<8x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!Tile = memref<1x8x32xi32, strided<[256, 32, 1], offset: ?>, #WG>
!Box = memref<8x32xi32, strided<[32, 1], offset: ?>, #WG>

gpu.module @seeded {
  // A one-lane elect.sync: release_mma without elect(...) inside the branch
  // in which lane 0 issues the MMAs; the elect.sync over the full warp never
  // completes.
  gpu.func @one_lane_elect(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %p : !P
          pipeline.commit %s : !PS
        }
      }
    } else {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_consumer %p : !P
          pipeline.release_mma %s : !CS
          pipeline.release_without_signal %s : !CS
        }
      }
    }
    gpu.return
  }

  // The consumer of a CTA pair's input pipeline in both CTAs: the producers
  // of both CTAs arrive on the leader's full barrier (count 2), so the
  // peer's consumer waits on a full barrier nobody signals.
  gpu.func @consumer_in_peer(%buf: memref<2x1x8x32xi32, #WG>, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P2
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8x32xi32, #WG>) : !P2 -> !TP2
    pipeline.init_mbars %tp producer 2 consumer 2 cluster : !TP2
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %tp : !TP2
          pipeline.arrive %s : !TP2S
          pipeline.release %s : !TP2S
        }
        pipeline.drain_producer %tp : !TP2
      }
    } else {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_consumer %tp : !TP2
          pipeline.arrive %s : !TP2C
          pipeline.release %s : !TP2C
        }
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }

  // Producer signals staying local on a CTA pair (the defect the lowering
  // had): each CTA's producer arrives on its OWN full barrier by hand, the
  // leader's MMA consumer waits for both (count 2) and never gets the
  // peer's.
  gpu.func @producer_local(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %p = pipeline.create -> !P2
    pipeline.init_mbars %p producer 2 consumer 1 cluster : !P2
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    %mma = arith.andi %is_consumer, %leader : i1
    %mma0 = arith.andi %mma, %lane0 : i1
    scf.if %is_producer {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %p : !P2
          %bars, %id = pipeline.mbar %s : !P2S
          %tok = nvgpu.mbarrier.arrive %bars[%id] : !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4> -> !nvgpu.mbarrier.token
          pipeline.release %s : !P2S
        }
        pipeline.drain_producer %p : !P2
      }
    }
    scf.if %mma0 {
      scf.for %i = %c0 to %count step %c1 {
        %s = pipeline.acquire_consumer %p : !P2
        pipeline.release %s : !P2C
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }

  // A release that reaches the leader only: the pair's MMA frees an input
  // stage with an arrive on its own (the leader's) empty barrier by hand;
  // the peer's producer waits on its empty barrier forever.
  gpu.func @release_leader_only(%buf: memref<2x1x8x32xi32, #WG>, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %p = pipeline.create -> !P2
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8x32xi32, #WG>) : !P2 -> !TP2
    pipeline.init_mbars %tp producer 2 consumer 1 cluster : !TP2
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_consumer = arith.cmpi eq, %warp, %c1 : index
    %mma = arith.andi %is_consumer, %leader : i1
    %mma0 = arith.andi %mma, %lane0 : i1
    scf.if %is_producer {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %tp : !TP2
          pipeline.arrive %s : !TP2S
          pipeline.release %s : !TP2S
        }
        pipeline.drain_producer %tp : !TP2
      }
    }
    scf.if %mma0 {
      scf.for %i = %c0 to %count step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP2
        %bars, %id = pipeline.mbar %s : !TP2C
        %tok = nvgpu.mbarrier.arrive %bars[%id] : !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4> -> !nvgpu.mbarrier.token
        pipeline.release %s : !TP2C
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }

  // Two pipelines whose barriers overlap in the dynamic shared memory: the
  // second init re-initializes barriers of the first.
  gpu.func @overlap(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !P
    %q = pipeline.create in %smem[%c8] : memref<?xi8, #WG> -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.init_mbars %q producer 1 consumer 1 : !P
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %lane0 {
      scf.if %is_producer {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %p : !P
          pipeline.commit %s : !PS
        }
      } else {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_consumer %p : !P
          pipeline.release %s : !CS
        }
      }
    }
    gpu.return
  }

  // Sub-byte byte counts (the defect of the default expect_tx of FP4
  // payloads): the producer arms twice the bytes its TMA box delivers.
  gpu.func @bytes_overarmed(%desc: !Desc, %buf: memref<2x1x8x32xi32, #WG>, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %armed = arith.constant 2048 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8x32xi32, #WG>) : !P -> !TS
    pipeline.init_mbars %tp producer 1 consumer 1 : !TS
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %lane0 {
      scf.if %is_producer {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %tp : !TS
          pipeline.expect_tx %s bytes(%armed) : !TSS
          %bars, %id = pipeline.mbar %s : !TSS
          %tiles = pipeline.payload %s[0] : !TSS -> !Tile
          %box = memref.subview %tiles[0, 0, 0] [1, 8, 32] [1, 1, 1] : !Tile to !Box
          nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %box : !Desc, !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4> -> !Box
          pipeline.release %s : !TSS
        }
        pipeline.drain_producer %tp : !TS
      } else {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_consumer %tp : !TS
          pipeline.arrive %s : !TSC
          pipeline.release %s : !TSC
        }
      }
    }
    gpu.return
  }

  // An init in a warp-role branch: the consumer warp uses the barriers
  // before any CTA barrier follows the init (and the init's bar.sync runs
  // in the producer warp only).
  gpu.func @init_in_branch(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %p : !P
          pipeline.commit %s : !PS
        }
      }
    } else {
      scf.if %lane0 {
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_consumer %p : !P
          pipeline.release %s : !CS
        }
      }
    }
    gpu.return
  }

  // TMEM allocated and never freed: the CTA exits holding its columns, and
  // the next CTA scheduled on the SM waits in tcgen05.alloc forever.
  gpu.func @tmem_leak(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %t = pipeline.tmem_create in %smem[%c0] : memref<?xi8, #WG> -> !pipeline.tmem<columns = 128>
    %base = pipeline.tmem_alloc %t readers 64 : !pipeline.tmem<columns = 128> -> i32
    pipeline.tmem_release %t : !pipeline.tmem<columns = 128>
    gpu.return
  }

  // The peer frees its TMEM by hand right after the allocation, without
  // waiting for the pair's MMAs: the leader's cta_group::2 MMA, issued
  // after a cluster barrier, writes the peer's freed columns.
  gpu.func @tmem_early_free(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i0_64 = arith.constant 0 : i64
    %false = arith.constant false
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %t = pipeline.tmem_create in %smem[%c0] : memref<?xi8, #WG> -> !pipeline.tmem<columns = 128, cta_group = 2>
    %base = pipeline.tmem_alloc %t readers 32 : !pipeline.tmem<columns = 128, cta_group = 2> -> i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %peer = arith.cmpi ne, %odd, %i0 : i32
    %cols = arith.constant 128 : i32
    %d = llvm.inttoptr %base : i32 to !llvm.ptr<6>
    %peer_w0 = arith.andi %peer, %w0 : i1
    scf.if %peer_w0 {
      nvvm.tcgen05.dealloc %d, %cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %leader_w0 = arith.andi %leader, %w0 : i1
    scf.if %leader_w0 {
      nvvm.tcgen05.mma %d, %i0_64, %i0_64, %i0, %false
          {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_2>}
          : (!llvm.ptr<6>, i64, i64, i32, i1)
    }
    gpu.return
  }
  // The cluster launch control request from one lane of the scheduler warp
  // (pipeline-verify-protocol: clc_try_cancel expects the whole warp): the
  // elect.sync over the full warp that issues try_cancel waits for the 31
  // lanes that skipped it.
  gpu.func @clc_one_lane(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %count = arith.index_cast %n : i32 to index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %c = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !pipeline.pipeline<stages = 2, clc = true>
    %resp = memref.view %smem[%c64][] : memref<?xi8, #WG> to memref<2x1x16xi8, #WG>
    %clc = pipeline.input_tile_pipeline %c payload(%resp : memref<2x1x16xi8, #WG>) : !pipeline.pipeline<stages = 2, clc = true> -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>
    pipeline.init_mbars %clc producer 1 consumer 32 cluster : !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %w0 {
      scf.for %i = %c0 to %count step %c1 {
        %p = pipeline.acquire_producer %clc : !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>
        scf.if %lane0 {
          pipeline.clc_try_cancel %p : !pipeline.stage<producer, !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>>
        }
        pipeline.release %p : !pipeline.stage<producer, !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>>
      }
      pipeline.drain_producer %clc : !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>
    } else {
      scf.for %i = %c0 to %count step %c1 {
        %s = pipeline.acquire_consumer %clc : !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>>
        pipeline.arrive %s : !pipeline.stage<consumer, !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>>
        pipeline.release %s : !pipeline.stage<consumer, !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 2, clc = true>, k_group_size = 1, payload = [memref<2x1x16xi8, #WG>]>>
      }
    }
    gpu.return
  }
}
