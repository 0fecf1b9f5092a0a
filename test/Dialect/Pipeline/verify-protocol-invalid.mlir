// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// Initialization: every pipeline needs one init_mbars, executed by every
// thread (in the kernel's entry block), before any other use. Each mistake
// hangs: waits on barriers that were never initialized never complete, and
// threads that skip the init never reach the barrier that ends it.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @never_initialized() kernel {
    // expected-error @+1 {{'pipeline.create' op expects a pipeline.init_mbars on this pipeline (or on a tile pipeline built from it), executed by every thread before any other use: without it no barrier is initialized and the first wait hangs}}
    %p = pipeline.create -> !P
    pipeline.wait_producer %p : !P
    gpu.return
  }
}

// -----

// An init inside a warp-role branch: only that warp initializes, and the
// CTA barrier that ends the init is reached by that warp alone.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @init_in_branch(%is_producer: i1) kernel {
    // expected-error @+1 {{'pipeline.create' op expects its pipeline.init_mbars to be executed by every thread, in the kernel's entry block, got it inside 'scf.if': the threads that skip it never reach the barrier that ends it, and may use barriers before they are initialized}}
    %p = pipeline.create -> !P
    scf.if %is_producer {
      // expected-note @+1 {{init here}}
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      pipeline.wait_consumer %p : !P
    }
    gpu.return
  }
}

// -----

// In a later block of a CFG kernel.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @init_in_later_block(%c: i1) kernel {
    // expected-error @+1 {{got it in a block other than the kernel's entry block}}
    %p = pipeline.create -> !P
    cf.cond_br %c, ^init, ^done
  ^init:
    // expected-note @+1 {{init here}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    cf.br ^done
  ^done:
    gpu.return
  }
}

// -----

// In a loop: re-initializing barriers in use loses their arrivals.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @init_in_loop(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{got it inside 'scf.for'}}
    %p = pipeline.create -> !P
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+1 {{init here}}
      pipeline.init_mbars %p producer 1 consumer 1 : !P
    }
    gpu.return
  }
}

// -----

// A use before the init.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @use_before_init() kernel {
    // expected-error @+1 {{'pipeline.create' op expects pipeline.init_mbars before every other use of the pipeline, got 'pipeline.try_wait_producer' before it: it would use barriers that are not initialized yet}}
    %p = pipeline.create -> !P
    // expected-note @+1 {{use here}}
    %r = pipeline.try_wait_producer %p : !P
    // expected-note @+1 {{init here}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    gpu.return
  }
}

// -----

// Through a tile pipeline and a role: the init of the tile pipeline counts,
// a second one on the underlying pipeline is an error.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m {
  gpu.func @init_twice(%buf: memref<2x1x8xf32, #WG>) kernel {
    // expected-error @+1 {{'pipeline.create' op expects one pipeline.init_mbars per pipeline, got a second one: initializing barriers that are in use loses their arrivals}}
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    // expected-note @+1 {{first init here}}
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    // expected-note @+1 {{second init here}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    gpu.return
  }
}

// -----

// A use of the role view before the init.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @role_use_before_init() kernel {
    // expected-error @+1 {{got 'pipeline.acquire' before it}}
    %p = pipeline.create -> !P
    %prod = pipeline.role %p : !P -> !pipeline.role<producer, !P>
    // expected-note @+1 {{use here}}
    %s = pipeline.acquire %prod : !pipeline.role<producer, !P>
    pipeline.commit %s : !pipeline.stage<producer, !P>
    // expected-note @+1 {{init here}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    gpu.return
  }
}

// -----

// MMA commits without elect(...) lower to elect.sync over the full warp.
// Written inside the branch where one lane issues the MMAs, that lane
// waits in elect.sync for 31 lanes that never come. A warp-role branch
// (tid / 32) keeps whole warps and is fine; the lane branch (tid % 32) is
// not.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @commit_in_one_lane(%n: index) kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 2 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %p as %s : !P {
          pipeline.commit_mma %s : !pipeline.stage<producer, !P>
        }
      }
      pipeline.drain_producer %p : !P
    } else {
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      // expected-note @+1 {{the condition that splits the warp}}
      scf.if %lane0 {
        scf.for %i = %c0 to %n step %c1 {
          %s = pipeline.acquire_consumer %p : !P
          // expected-error @+1 {{'pipeline.release_mma' op elects its issuing lane with elect.sync over the full warp, but runs under a condition that differs between the lanes of a warp: the lanes that take the branch wait in elect.sync for the others forever; pass the lane that issues it, elect(%cond), or move it where the whole warp runs}}
          pipeline.release_mma %s : !pipeline.stage<consumer, !P>
          pipeline.release %s : !pipeline.stage<consumer, !P>
        }
      }
    }
    gpu.return
  }
}

// -----

// A device function's entry block runs in every thread only if every call
// does: here only warp 0 calls the function that creates and initializes
// the pipeline.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  func.func @ring(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'pipeline.create' op expects its pipeline.init_mbars to be executed by every thread, got it in the entry block of function @ring, which is called inside 'scf.if' of @kernel: the threads that skip the call never reach the barrier that ends the init, and may use barriers before they are initialized}}
    %p = pipeline.create -> !P
    // expected-note @+1 {{init here}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %p as %s : !P {
        pipeline.commit %s : !pipeline.stage<producer, !P>
      }
      pipeline.consume %p as %s : !P {
      }
    }
    pipeline.drain_producer %p : !P
    return
  }
  gpu.func @kernel(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %first = arith.cmpi eq, %warp, %c0 : index
    scf.if %first {
      // expected-note @+1 {{call here}}
      func.call @ring(%n) : (index) -> ()
    }
    gpu.return
  }
}

// -----

// Called by every thread (in the kernel's entry block, through another
// function called there too): accepted.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  func.func @ring(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    scf.for %i = %c0 to %n step %c1 {
      pipeline.produce %p as %s : !P {
        pipeline.commit %s : !pipeline.stage<producer, !P>
      }
      pipeline.consume %p as %s : !P {
      }
    }
    pipeline.drain_producer %p : !P
    return
  }
  func.func @outer(%n: index) {
    func.call @ring(%n) : (index) -> ()
    return
  }
  gpu.func @kernel(%n: index) kernel {
    func.call @outer(%n) : (index) -> ()
    gpu.return
  }
}

// -----

// Two pipelines whose barriers overlap in the dynamic shared memory (every
// gpu.dynamic_shared_memory is the same memory): the second init would
// rewrite the first pipeline's barriers.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @overlap(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %smem2 = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    // expected-note @+1 {{the other pipeline}}
    %p = pipeline.create in %smem[%c0] : memref<?xi8, #WG> -> !P
    // expected-error @+1 {{'pipeline.create' op expects its barriers (bytes 16 to 48) apart from those of another pipeline in the same shared memory (bytes 0 to 32): its init would rewrite barriers the other pipeline uses; place it at offset 32 or later (pipeline.smem_bytes gives the other's size)}}
    %q = pipeline.create in %smem2[%c16] : memref<?xi8, #WG> -> !P
    // Disjoint: accepted.
    %r = pipeline.create in %smem[%c32] : memref<?xi8, #WG> -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.init_mbars %q producer 1 consumer 1 : !P
    pipeline.init_mbars %r producer 1 consumer 1 : !P
    gpu.return
  }
}

// -----

// The consumer of a CTA-pair input pipeline (the pair's MMA) runs in the
// leader CTA only: both CTAs' TMA loads and the leader's expect_tx complete
// the leader's full barrier, the peer's never completes. Written without a
// condition on the cluster rank it runs in both CTAs and the peer hangs;
// under a condition that selects the peer it hangs too. No block size is
// needed to see it.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x64x64xbf16, #WG>]>
gpu.module @m {
  gpu.func @pair_consumer_everywhere(%buf: memref<2x1x64x64xbf16, #WG>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %odd = arith.andi %rank, %i1 : i32
    %is_peer = arith.cmpi ne, %odd, %i0 : i32
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x64x64xbf16, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    %is_mma_warp = arith.cmpi eq, %warp, %c1 : index
    scf.if %is_mma_warp {
      %elect = nvvm.elect.sync -> i1
      scf.for %i = %c0 to %n step %c1 {
        // expected-error @+1 {{'pipeline.acquire_consumer' op waits as the consumer of a CTA-pair input pipeline (cta_group = 2, the pair's MMA) in both CTAs of the pair, but only the leader's full barrier completes (both CTAs' TMA loads and the leader's expect_tx land there): the consumer, the pair's MMA, runs in the leader only; put it under a condition such as (%cluster_ctarank & 1) == 0}}
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !TP>
        pipeline.release %s : !pipeline.stage<consumer, !TP>
      }
    }
    // expected-note @+1 {{this condition selects the peer CTA}}
    scf.if %is_peer {
      // expected-error @+1 {{'pipeline.consume' op waits as the consumer of a CTA-pair input pipeline (cta_group = 2, the pair's MMA) in the peer CTA}}
      pipeline.consume %tp as %s : !TP {
        pipeline.arrive %s : !pipeline.stage<consumer, !TP>
      }
    } else {
      // The else branch of the peer condition is the leader: accepted.
      pipeline.consume %tp as %s : !TP {
        pipeline.arrive %s : !pipeline.stage<consumer, !TP>
      }
    }
    nvvm.cluster.arrive
    nvvm.cluster.wait
    gpu.return
  }
}
