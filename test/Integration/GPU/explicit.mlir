// Kernel family 5: explicit, lane-guarded signalling.
//
// Warp 0 produces, warp 1 consumes, 3 stages, and both barriers count ONE
// arrival per phase: lane 0 of each warp signals for the whole warp.
//
//   producer: `pipeline.produce` (every lane acquires and steps) whose region
//             lets lane 0 write the stage and `pipeline.arrive`.
//   consumer, even items: `pipeline.consume_explicit` (every lane acquires
//             and steps) whose region lets lane 0 read the stage, hands the
//             values to the lanes with gpu.shuffle, and lets lane 0
//             `pipeline.arrive` (the exit only steps).
//   consumer, odd items: `pipeline.acquire_consumer`, the same read, lane 0
//             `pipeline.arrive`, then every lane `release_without_signal`.
//
// Only the signalling lane touches the stage's shared memory. Every lane
// reading and writing it, ordered before lane 0's arrive by a warp barrier
// (bar.warp.sync or a 32-thread named barrier), is correct PTX too, but
// compute-sanitizer 2025.3 racecheck reports it as a race (it does not carry
// the warp barrier's ordering into the elected lane's arrive); see
// docs/testing.md.
//
// Item values: mix32(i * 32 + k) ^ 6, k < 32; the consumer's lane k stores
// element k at out[i * 32 + k].
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
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 6 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %is_leader = arith.cmpi eq, %lane, %c0 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P {
          %st = pipeline.index %s : !PS
          scf.if %is_leader {
            %i32 = arith.index_cast %i : index to i32
            %x0 = arith.muli %i32, %c32_i32 : i32
            scf.for %k = %c0 to %c32 step %c1 {
              %k32 = arith.index_cast %k : index to i32
              %x = arith.addi %x0, %k32 : i32
              %m = arith.muli %x, %golden : i32
              %sh = arith.shrui %m, %c16_i32 : i32
              %h = arith.xori %m, %sh : i32
              %v = arith.xori %h, %salt : i32
              memref.store %v, %data[%st, %k] : memref<3x32xi32, #WG>
            }
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
            // Lane 0 reads the stage; gpu.shuffle hands element k to lane k.
            %v = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %c0_i32) -> (i32) {
              %x = scf.if %is_leader -> (i32) {
                %y = memref.load %data[%st, %k] : memref<3x32xi32, #WG>
                scf.yield %y : i32
              } else {
                scf.yield %c0_i32 : i32
              }
              %b, %valid = gpu.shuffle idx %x, %c0_i32, %c32_i32 : i32
              %mine = arith.cmpi eq, %k, %lane : index
              %acc2 = arith.select %mine, %b, %acc : i32
              scf.yield %acc2 : i32
            }
            memref.store %v, %out[%o] : memref<32768xi32>
            scf.if %is_leader {
              pipeline.arrive %s : !CS
            }
            pipeline.yield
          }
        } else {
          %s = pipeline.acquire_consumer %p : !P
          %st = pipeline.index %s : !CS
          // Lane 0 reads the stage; gpu.shuffle hands element k to lane k.
          %v = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %c0_i32) -> (i32) {
            %x = scf.if %is_leader -> (i32) {
              %y = memref.load %data[%st, %k] : memref<3x32xi32, #WG>
              scf.yield %y : i32
            } else {
              scf.yield %c0_i32 : i32
            }
            %b, %valid = gpu.shuffle idx %x, %c0_i32, %c32_i32 : i32
            %mine = arith.cmpi eq, %k, %lane : index
            %acc2 = arith.select %mine, %b, %acc : i32
            scf.yield %acc2 : i32
          }
          memref.store %v, %out[%o] : memref<32768xi32>
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
