// Kernel family 5: explicit, lane-guarded signalling.
//
// Warp 0 produces, warp 1 consumes, 3 stages, and both barriers count ONE
// arrival per phase: lane 0 of each warp signals for the whole warp after a
// warp synchronization (so that no lane still reads or writes the stage).
//
//   producer: `pipeline.produce` whose region writes the stage and lets
//             lane 0 `pipeline.arrive` (produce's exit only steps).
//   consumer, even items: `pipeline.consume_explicit` whose region reads the
//             stage and lets lane 0 `pipeline.arrive` (the exit only steps).
//   consumer, odd items: `pipeline.acquire_consumer`, read, lane 0
//             `pipeline.arrive`, then every lane `release_without_signal`.
//
// Item values: mix32(i * 32 + lane) ^ 6, stored by the consumer at
// out[i * 32 + lane].
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/explicit --cubin %t.cubin | FileCheck %s
// CHECK: explicit: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 3>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>

gpu.module @explicit {
  gpu.func @explicit(%out: memref<32768xi32>, %n: i32)
      workgroup(%data: memref<3x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 6 : i32
    %c1_i32 = arith.constant 1 : i32
    %warp_threads = arith.constant 32 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    // Named barrier 1 + warp, 32 threads: synchronizes this warp alone.
    %warp32 = arith.index_cast %warp : index to i32
    %warp_barrier = arith.addi %warp32, %c1_i32 : i32
    %lane32 = arith.index_cast %lane : index to i32
    %is_leader = arith.cmpi eq, %lane, %c0 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P {
          %st = pipeline.index %s : !PS
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
          memref.store %v, %data[%st, %lane] : memref<3x32xi32, #WG>
          nvvm.barrier id = %warp_barrier number_of_threads = %warp_threads
          scf.if %is_leader {
            pipeline.arrive %s : !PS
          }
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        %o0 = arith.muli %i, %c32 : index
        %o = arith.addi %o0, %lane : index
        %parity = arith.remui %i, %c2 : index
        %even = arith.cmpi eq, %parity, %c0 : index
        scf.if %even {
          pipeline.consume_explicit %p as %s : !P {
            %st = pipeline.index %s : !CS
            %v = memref.load %data[%st, %lane] : memref<3x32xi32, #WG>
            memref.store %v, %out[%o] : memref<32768xi32>
            nvvm.barrier id = %warp_barrier number_of_threads = %warp_threads
            scf.if %is_leader {
              pipeline.arrive %s : !CS
            }
            pipeline.yield
          }
        } else {
          %s = pipeline.acquire_consumer %p : !P
          %st = pipeline.index %s : !CS
          %v = memref.load %data[%st, %lane] : memref<3x32xi32, #WG>
          memref.store %v, %out[%o] : memref<32768xi32>
          nvvm.barrier id = %warp_barrier number_of_threads = %warp_threads
          scf.if %is_leader {
            pipeline.arrive %s : !CS
          }
          pipeline.release_without_signal %s : !CS
        }
      }
    }
    gpu.return
  }
}
