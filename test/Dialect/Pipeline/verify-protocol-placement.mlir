// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// Role placement: where in the cluster a role runs, judged from the
// conditions on the cluster rank around its waits, without a block size.
// The pair's TMA producer runs in both CTAs of the pair (each loads its
// half; the leader arms both halves' bytes), the pair's MMA consumer in the
// leader, the clc scheduler in cluster rank 0.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @producer_in_leader_only(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %lane1 = arith.cmpi eq, %tid, %c1 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    // The whole pair's work put in the leader: the peer never loads its
    // half, so the leader's full barrier never gets the bytes it armed.
    // expected-note @+1 {{this condition selects the leader CTA}}
    scf.if %leader {
      scf.if %lane0 {
        scf.for %i = %c0 to %n step %c1 {
          // expected-error @+1 {{'pipeline.acquire_producer' op waits as the producer of a CTA-pair input pipeline (cta_group = 2, the pair's TMA loads) in the leader CTA only, but the leader arms its full barrier for both CTAs' halves of the stage and each CTA loads its own half: a CTA that does not load leaves every phase short and the MMA waits forever; run it in both CTAs of the pair}}
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        // expected-error @+1 {{'pipeline.drain_producer' op waits as the producer of a CTA-pair input pipeline}}
        pipeline.drain_producer %tp : !TP
      } else {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %tp : !TP
          pipeline.release_mma %s elect(%lane1) : !pipeline.stage<consumer, !TP>
          pipeline.release %s : !pipeline.stage<consumer, !TP>
        }
      }
    }
    gpu.return
  }
}

// -----

// The same loads in the else branch of a leader test: the peer only.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  // expected-note @+1 {{counted with 32 threads, the least block the kernel's roles need}}
  gpu.func @producer_in_peer_only(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    // expected-note @+1 {{arrival count set here (producer 1)}}
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    // expected-note @+1 {{this condition selects the peer CTA}}
    scf.if %leader {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{in the peer CTA only, but the leader arms its full barrier}}
        pipeline.produce %tp as %s : !TP {
          // expected-error @+1 {{expects 1 arrivals per phase on the full barriers of the leader CTA of this pipeline (init_mbars producer 1), got 0: its signals run in no thread}}
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
        }
      }
      // expected-error @+1 {{'pipeline.drain_producer' op waits as the producer of a CTA-pair input pipeline}}
      pipeline.drain_producer %tp : !TP
    }
    gpu.return
  }
}

// -----

// Accepted: the producer under conditions that do not single out a CTA of
// the pair (a warp and lane test), the consumer in the leader.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @placed(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    scf.if %lane0 {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %tp : !TP
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
        pipeline.release %s : !pipeline.stage<producer, !TP>
      }
      pipeline.drain_producer %tp : !TP
    } else {
      %mma = arith.andi %leader, %w0 : i1
      scf.if %mma {
        %e = arith.cmpi eq, %tid, %c1 : index
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %tp : !TP
          pipeline.release_mma %s elect(%e) : !pipeline.stage<consumer, !TP>
          pipeline.release %s : !pipeline.stage<consumer, !TP>
        }
      }
    }
    gpu.return
  }
}

// -----

// The clc scheduler in every CTA: each would request a cancellation and arm
// every CTA's full barrier.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @scheduler_everywhere(%resp: !Resp, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 64 cluster : !CLC
    %tid = gpu.thread_id x
    %sched = arith.cmpi ult, %tid, %c32 : index
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'pipeline.acquire_producer' op waits as the producer of a cluster launch control pipeline (clc = true, the scheduler) in every CTA of the cluster, but its try_cancel arms the full barrier of every CTA of the cluster and its consumers signal rank 0's empty barrier: it runs in cluster rank 0 only; put it under a condition such as %cluster_ctarank == 0}}
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
      }
      // expected-error @+1 {{'pipeline.drain_producer' op waits as the producer of a cluster launch control pipeline}}
      pipeline.drain_producer %clc : !CLC
    } else {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
      }
    }
    gpu.return
  }
}

// -----

// Accepted: the scheduler under rank == 0 (written either way round).
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @scheduler_in_rank0(%resp: !Resp, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 64 cluster : !CLC
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %i0, %rank : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
      }
      pipeline.drain_producer %clc : !CLC
    } else {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
      }
    }
    gpu.return
  }
}

// -----

// Accepted: the pair's producer split into a leader branch and a peer
// branch (each CTA loads, with code of its own): the role runs in both.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @producer_split(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    scf.if %lane0 {
      scf.if %leader {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        pipeline.drain_producer %tp : !TP
      } else {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        pipeline.drain_producer %tp : !TP
      }
    }
    gpu.return
  }
}

// -----

// The MMA under rank == 0 in a cluster of two pairs (a 4 x 1 multicast
// cluster): the second pair's leader never consumes, its stages stay full.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 4>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @mma_in_rank0_of_two_pairs(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w1 = arith.cmpi eq, %warp, %c1 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank0 = arith.cmpi eq, %rank, %i0 : i32
    %mma = arith.andi %w1, %rank0 : i1
    // expected-note @+1 {{this condition selects cluster rank 0}}
    scf.if %mma {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'pipeline.acquire_consumer' op waits as the consumer of a CTA-pair input pipeline (cta_group = 2, the pair's MMA) in cluster rank 0 only (the leader of one of the cluster's pairs), but only the leader's full barrier completes}}
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    }
    gpu.return
  }
}


// -----

// The MMA in the else branch of `warp == 1 && peer`: the else of A && B is
// !A || !B, so it runs in every warp but 1 of both CTAs, the peer's
// included, where nothing completes the full barrier it waits on.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @mma_in_else_of_conjunction(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w1 = arith.cmpi eq, %warp, %c1 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_peer = arith.cmpi ne, %odd, %i0 : i32
    %peer_w1 = arith.andi %w1, %is_peer : i1
    scf.if %peer_w1 {
    } else {
      %e = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'pipeline.acquire_consumer' op waits as the consumer of a CTA-pair input pipeline (cta_group = 2, the pair's MMA) in both CTAs of the pair, but only the leader's full barrier completes}}
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s elect(%e) : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    }
    gpu.return
  }
}

// -----

// Accepted: the same else branch under `warp == 1` is warp 1 of the leader
// only (warp == 1 && !(warp == 1 && peer)).
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @mma_in_else_under_its_warp(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w1 = arith.cmpi eq, %warp, %c1 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_peer = arith.cmpi ne, %odd, %i0 : i32
    %peer_w1 = arith.andi %w1, %is_peer : i1
    scf.if %w1 {
      scf.if %peer_w1 {
      } else {
        %e = nvvm.elect.sync -> i1
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %tp : !TP
          pipeline.release_mma %s elect(%e) : !pipeline.stage<consumer, !TP>
          pipeline.release %s : !pipeline.stage<consumer, !TP>
        }
      }
    }
    gpu.return
  }
}

// -----

// Accepted: the pair's TMA producer in the else branch of `warp == 1 &&
// leader` (the leader's MMA warp) runs in warp 0 of both CTAs: the else of
// A && leader is not the peer only.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @producer_in_else_of_leader_mma(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %w1 = arith.cmpi eq, %warp, %c1 : index
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %mma = arith.andi %w1, %leader : i1
    scf.if %mma {
      %e = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s elect(%e) : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    } else {
      scf.if %lane0 {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        pipeline.drain_producer %tp : !TP
      }
    }
    gpu.return
  }
}

// -----

// Not judged: a rank condition of another form (rank < 2) in the
// conjunction: whether the else branch reaches the peer depends on it.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @mma_under_unknown_rank_test(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i2 = arith.constant 2 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %low = arith.cmpi ult, %rank, %i2 : i32
    scf.if %low {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    }
    gpu.return
  }
}

// -----

// A plain pair pipeline (an accumulator pipeline) whose consumers arrive
// as threads: their arrivals reach the leader's empty barrier only, so a
// producer in the peer waits forever. Judged without a block size.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  // expected-note @+1 {{counted with 64 threads, the least block the kernel's roles need}}
  gpu.func @pair_producer_in_peer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %p = pipeline.create -> !P
    // expected-note @+1 {{arrival count set here (consumer 64)}}
    pipeline.init_mbars %p producer 1 consumer 64 cluster : !P
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_peer = arith.cmpi ne, %odd, %i0 : i32
    scf.if %w0 {
      %e = nvvm.elect.sync -> i1
      // expected-note @+1 {{this condition selects the peer CTA}}
      scf.if %is_peer {
        scf.for %i = %c0 to %n step %c1 {
          // expected-error @+1 {{'pipeline.acquire_producer' op waits as the producer of a CTA-pair pipeline (cta_group = 2) whose consumers arrive as threads in the peer CTA, but the consumers' thread arrivals reach the leader's empty barrier only (an MMA commit would reach both CTAs): in the peer the producer waits for arrivals that never come; put it under a condition such as (%cluster_ctarank & 1) == 0}}
          %s = pipeline.acquire_producer %p : !P
          pipeline.commit_mma %s elect(%e) : !pipeline.stage<producer, !P>
          pipeline.release %s : !pipeline.stage<producer, !P>
        }
        // expected-error @+1 {{'pipeline.drain_producer' op waits as the producer of a CTA-pair pipeline (cta_group = 2) whose consumers arrive as threads in the peer CTA}}
        pipeline.drain_producer %p : !P
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{expects 64 arrivals per phase on the empty barriers of the peer CTA of this pipeline (init_mbars consumer 64), got 0: its signals run in no thread}}
        pipeline.consume %p as %s : !P {
        }
      }
    }
    gpu.return
  }
}

// -----

// Accepted: the accumulator pipeline's MMA producer in the leader, its
// epilogue consumers in both CTAs.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_producer_in_leader(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 64 cluster : !P
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %mma = arith.andi %w0, %leader : i1
    scf.if %w0 {
      scf.if %leader {
        %e = nvvm.elect.sync -> i1
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %p : !P
          pipeline.commit_mma %s elect(%e) : !pipeline.stage<producer, !P>
          pipeline.release %s : !pipeline.stage<producer, !P>
        }
        pipeline.drain_producer %p : !P
      }
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

// Accepted: a plain pair pipeline whose consumer frees stages with an MMA
// commit (release_mma reaches both CTAs): thread producers in both CTAs.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_producers_with_mma_consumer(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 64 consumer 1 cluster : !P
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    scf.if %w0 {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      scf.if %leader {
        %e = nvvm.elect.sync -> i1
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %p : !P
          pipeline.release_mma %s elect(%e) : !pipeline.stage<consumer, !P>
          pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
        }
      }
    }
    gpu.return
  }
}

// -----

// The clc scheduler under a leader test in a cluster of 4 (two pairs): it
// runs in ranks 0 and 2.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @scheduler_in_every_leader(%resp: !Resp, %n: index) kernel attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 128 cluster : !CLC
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %leader = arith.cmpi eq, %odd, %i0 : i32
    %sched = arith.andi %w0, %leader : i1
    // expected-note @+1 {{this condition selects the leader CTA}}
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'pipeline.acquire_producer' op waits as the producer of a cluster launch control pipeline (clc = true, the scheduler) in every CTA of even rank (each pair's leader), but its try_cancel arms}}
        %p = pipeline.acquire_producer %clc : !CLC
        pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        pipeline.release %p : !pipeline.stage<producer, !CLC>
      }
      // expected-error @+1 {{'pipeline.drain_producer' op waits as the producer of a cluster launch control pipeline}}
      pipeline.drain_producer %clc : !CLC
    } else {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_consumer %clc : !CLC
        %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
        pipeline.release %s : !pipeline.stage<consumer, !CLC>
      }
    }
    gpu.return
  }
}

// -----

// Accepted: with the block size declared (64 threads: warps 0 and 1), the
// MMA in the else branch of `warp == 0 || (warp == 1 && peer)` is warp 1
// of the leader only; without it, the peer's warps 2 and up would run it.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @mma_in_last_else(%n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %w0 = arith.cmpi eq, %warp, %c0 : index
    %w1 = arith.cmpi eq, %warp, %c1 : index
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_peer = arith.cmpi ne, %odd, %i0 : i32
    %peer_w1 = arith.andi %w1, %is_peer : i1
    scf.if %w0 {
      scf.if %lane0 {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_producer %tp : !TP
          pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
          pipeline.release %s : !pipeline.stage<producer, !TP>
        }
        pipeline.drain_producer %tp : !TP
      }
    } else {
      scf.if %peer_w1 {
      } else {
        %e = nvvm.elect.sync -> i1
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %tp : !TP
          pipeline.release_mma %s elect(%e) : !pipeline.stage<consumer, !TP>
          pipeline.release %s : !pipeline.stage<consumer, !TP>
        }
      }
    }
    gpu.return
  }
}
