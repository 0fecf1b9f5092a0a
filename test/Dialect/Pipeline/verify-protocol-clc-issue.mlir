// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics

// pipeline.clc_try_cancel is executed by one whole warp of the scheduler
// CTA: lane i arms the full barrier of cluster rank i for the 16 response
// bytes, then elect.sync over the full warp issues the request. Judged at
// the kernel's block size (declared, else the least the roles need).

#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @one_lane(%resp: !Resp, %n: index) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 64 cluster : !CLC
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    %lane0 = arith.cmpi eq, %tid, %c0 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        %p = pipeline.acquire_producer %clc : !CLC
        // The scheduler warp's lane 0 alone requests: the other CTAs' full
        // barriers are never armed, and elect.sync waits for 31 lanes.
        scf.if %lane0 {
          // expected-error @+1 {{'pipeline.clc_try_cancel' op expects the whole warp to execute it (32 lanes), got 1 lane of warp 0: lane i of the scheduler warp arms the full barrier of cluster rank i for the response, so the CTAs whose lane skips it never have its bytes armed, and the elect.sync over the full warp that issues try_cancel waits for the missing lanes forever; run it in one whole warp}}
          pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        }
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

// Half a warp (an elected lane is the same: 1 lane), no block size
// declared: checked at the least block the roles need.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  // expected-note @+1 {{checked with 32 threads, the least block the kernel's roles need}}
  gpu.func @half_warp(%resp: !Resp, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %i0 = arith.constant 0 : i32
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 64 cluster : !CLC
    %tid = gpu.thread_id x
    %w0 = arith.cmpi ult, %tid, %c32 : index
    %half = arith.cmpi ult, %tid, %c16 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        %p = pipeline.acquire_producer %clc : !CLC
        scf.if %half {
          // expected-error @+1 {{'pipeline.clc_try_cancel' op expects the whole warp to execute it (32 lanes), got 16 lanes of warp 0}}
          pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        }
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

// Two warps request: every CTA's full barrier is armed twice per stage.
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @two_warps(%resp: !Resp, %n: index) kernel attributes {known_block_size = array<i32: 96, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %i0 = arith.constant 0 : i32
    %c = pipeline.create -> !C
    %clc = pipeline.input_tile_pipeline %c payload(%resp : !Resp) : !C -> !CLC
    pipeline.init_mbars %clc producer 1 consumer 32 cluster : !CLC
    %tid = gpu.thread_id x
    %w01 = arith.cmpi ult, %tid, %c64 : index
    %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w01, %first : i1
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        %p = pipeline.acquire_producer %clc : !CLC
        // expected-error @+1 {{'pipeline.clc_try_cancel' op expects one warp to execute it, got 2 warps (warp 0 and warp 1): each warp arms the full barrier of every CTA of the cluster (init_mbars producer 1 counts one arrival) and requests a cancellation into the same response}}
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

// Accepted: the whole scheduler warp requests (its loop under a response
// read in every lane), and a request under a condition the same in every
// thread (a kernel argument).
#WG = #gpu.address_space<workgroup>
!Resp = memref<2x1x16xi8, #WG>
!C = !pipeline.pipeline<stages = 2, clc = true>
!CLC = !pipeline.tile_pipeline<pipeline = !C, k_group_size = 1, payload = [!Resp]>
gpu.module @m {
  gpu.func @whole_warp(%resp: !Resp, %n: index, %more: i1) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
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
    %first = arith.cmpi eq, %rank, %i0 : i32
    %sched = arith.andi %w0, %first : i1
    scf.if %sched {
      scf.for %i = %c0 to %n step %c1 {
        %p = pipeline.acquire_producer %clc : !CLC
        scf.if %more {
          pipeline.clc_try_cancel %p : !pipeline.stage<producer, !CLC>
        }
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
