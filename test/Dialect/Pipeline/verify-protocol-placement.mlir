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
          pipeline.release_mma %s elect(%lane0) : !pipeline.stage<consumer, !TP>
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
  gpu.func @producer_in_peer_only(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %buf = memref.alloca() : memref<2x1x64x64xbf16, #WG>
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
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
        %e = arith.cmpi eq, %tid, %c32 : index
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

