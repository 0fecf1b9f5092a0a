// Kernel family 9: deliberately broken kernels, compiled with the hang
// report, each of which hangs; the host program checks that the report
// names the right pipeline, role, stage, parity and lap within seconds
// instead of hanging. One block of 64 threads: warp 0 produces, warp 1
// consumes; 2 stages; both barriers count 1.
//
// @missing_arrive: the consumer's arrive is guarded by a condition no lane
//   meets (lane == 32), so the empty barriers never complete. The producer
//   fills stage 0 and 1 of lap 0, then waits for stage 0 of lap 1 with
//   parity 0 ("producer waits for stage 0 parity 0, lap 1", warp 0), and
//   the consumer, having taken both, waits for the stage 0 of lap 1 that
//   is never filled ("consumer waits for stage 0 parity 1, lap 1", warp 1):
//   whichever times out first reports.
// @trip_counts: the producer makes 3 items, the consumer takes 5 (the
//   static check of trip counts is off for this file: --verify-protocol=
//   false). The consumer takes items 0, 1, 2 and waits for item 3, stage 1
//   of lap 1, parity 1: "consumer waits for stage 1 parity 1, lap 1", warp 1.
// @expect_tx_short: the producer thread arms expect_tx for one of the two
//   8 x 32 boxes it loads into a 16 x 32 stage; the host checks that the
//   kernel either hangs with a report naming this pipeline, or ends.
// @missing_drain: a cluster of 2 with release_ctas = 2 whose producers do
//   not drain; recorded like expect_tx_short.
// All four are also what pipeline-verify-protocol rejects
// (test/Dialect/Pipeline/verify-protocol-kernels.mlir).
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s --hang-report=200000000 --verify-protocol=false -o %t
// RUN: %gpu_runner/hang --cubin %t.cubin | FileCheck %s
// CHECK: hang: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>
!T = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !T, k_group_size = 1, payload = [memref<2x1x16x32xi32, #WG>]>
!TPS = !pipeline.stage<producer, !TP>
!TCS = !pipeline.stage<consumer, !TP>
!Tiles = memref<1x16x32xi32, strided<[512, 32, 1], offset: ?>, #WG>
!Half = memref<8x32xi32, strided<[32, 1], offset: ?>, #WG>
!Q = !pipeline.pipeline<stages = 2, release_ctas = 2>
!QPS = !pipeline.stage<producer, !Q>
!QCS = !pipeline.stage<consumer, !Q>
!Desc = !nvgpu.tensormap.descriptor<tensor = memref<8x32xi32, #WG>, swizzle = none, l2promo = none, oob = zero, interleave = none>

gpu.module @hang {
  gpu.func @missing_arrive(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create {name = "missing_arrive"} -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    %never = arith.cmpi eq, %lane, %c32 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P {
          scf.if %is_lane0 {
            pipeline.arrive %s : !PS
          }
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume_explicit %p as %s : !P {
          scf.if %never {
            pipeline.arrive %s : !CS
          }
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  gpu.func @trip_counts() kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %p = pipeline.create {name = "trip_counts"} -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %c3 step %c1 {
        pipeline.produce %p as %s : !P {
          scf.if %is_lane0 {
            pipeline.arrive %s : !PS
          }
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %c5 step %c1 {
        pipeline.consume_explicit %p as %s : !P {
          scf.if %is_lane0 {
            pipeline.arrive %s : !CS
          }
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  // A cluster pipeline (release_ctas = 2: every consumer arrival reaches
  // the empty barriers of both CTAs) whose producers do not drain: CTA 0's
  // consumer is fast, CTA 1's is slowed down, so CTA 0 may exit while CTA
  // 1's consumer still arrives on CTA 0's barriers. The static check rejects
  // it (the producer reaches the exit without drain_producer); compiled
  // without it, the host records what the GPU does.
  gpu.func @missing_drain(%n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c1_i32 = arith.constant 1 : i32
    %delay = arith.constant 20000 : i64
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %slow = arith.cmpi eq, %rank, %c1_i32 : i32
    %p = pipeline.create {name = "missing_drain"} -> !Q
    pipeline.init_mbars %p producer 1 consumer 2 cluster : !Q
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !Q {
          scf.if %is_lane0 {
            pipeline.arrive %s : !QPS
          }
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume_explicit %p as %s : !Q {
          scf.if %slow {
            %t0 = nvvm.read.ptx.sreg.clock64 : i64
            scf.while : () -> () {
              %t = nvvm.read.ptx.sreg.clock64 : i64
              %d = arith.subi %t, %t0 : i64
              %wait = arith.cmpi ult, %d, %delay : i64
              scf.condition(%wait)
            } do {
              scf.yield
            }
          }
          scf.if %is_lane0 {
            pipeline.arrive %s : !QCS
          }
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  gpu.func @expect_tx_short(%desc: !Desc, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %half_bytes = arith.constant 1024 : index
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %buf = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<2x1x16x32xi32, #WG>
    %p = pipeline.create {name = "expect_tx_short"} -> !T
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x16x32xi32, #WG>) : !T -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %is_lane0 = arith.cmpi eq, %lane, %c0 : index
    %leader = arith.andi %is_producer, %is_lane0 : i1
    scf.if %leader {
      scf.for %i = %c0 to %count step %c1 {
        %s = pipeline.acquire_producer %tp : !TP
        // Short by a box: 1024 bytes armed, 2048 delivered.
        pipeline.expect_tx %s bytes(%half_bytes) : !TPS
        %bars, %id = pipeline.mbar %s : !TPS
        %tiles = pipeline.payload %s[0] : !TPS -> !Tiles
        %top = memref.subview %tiles[0, 0, 0] [1, 8, 32] [1, 1, 1] : !Tiles to !Half
        %bottom = memref.subview %tiles[0, 8, 0] [1, 8, 32] [1, 1, 1] : !Tiles to !Half
        nvgpu.tma.async.load %desc[%c0, %c0], %bars[%id] to %top : !Desc, !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4> -> !Half
        nvgpu.tma.async.load %desc[%c0, %c8], %bars[%id] to %bottom : !Desc, !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4> -> !Half
        pipeline.release %s : !TPS
      }
    }
    %is_consumer_lane0 = arith.andi %is_lane0, %is_producer : i1
    %consumer_lane0 = arith.xori %is_consumer_lane0, %is_lane0 : i1
    scf.if %consumer_lane0 {
      scf.for %i = %c0 to %count step %c1 {
        %s = pipeline.acquire_consumer %tp : !TP
        pipeline.arrive %s : !TCS
        pipeline.release %s : !TCS
      }
    }
    gpu.return
  }
}
