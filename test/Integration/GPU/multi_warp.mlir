// Kernel family 2: several producer threads and several consumer warps,
// arrival counts > 1 on both barriers.
//
// Thread block of 160 threads: lanes 0..3 of warp 0 are the producer threads
// (full barrier count 4), warps 1..4 are consumer warps that signal through
// one elected lane each (empty barrier count 4).
//
// Per item i each producer thread t writes the 32 values
// mix32(i * 128 + t * 32 + k) ^ 0x5a5a, k < 32, into its quarter of the
// stage's 128-element payload row and arrives. Consumer warp w owns quarter
// w - 1: its lane 0 reads it and hands element k to lane k (gpu.shuffle),
// lane k stores it at out[i * 128 + (w - 1) * 32 + k]; then lane 0 arrives
// on the stage's empty barrier for its warp and every lane ends its handle
// with `release_without_signal`. Only the signalling lane touches the stage's
// shared memory (see explicit.mlir and docs/testing.md for why).
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/multi_warp --cubin %t.cubin | FileCheck %s
// CHECK: multi_warp: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 3>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>

gpu.module @multi_warp {
  gpu.func @multi_warp(%out: memref<131072xi32>, %n: i32)
      workgroup(%data: memref<3x128xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 23130 : i32
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 4 consumer 4 : !P
    %is_producer_warp = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer_warp {
      %is_producer = arith.cmpi ult, %lane, %c4 : index
      scf.if %is_producer {
        %base = arith.muli %lane, %c32 : index
        scf.for %i = %c0 to %count step %c1 {
          %s = pipeline.acquire_producer %p : !P
          %st = pipeline.index %s : !PS
          %row = arith.muli %i, %c128 : index
          scf.for %k = %c0 to %c32 step %c1 {
            %col = arith.addi %base, %k : index
            %x = arith.addi %row, %col : index
            %x32 = arith.index_cast %x : index to i32
            %m = arith.muli %x32, %golden : i32
            %sh = arith.shrui %m, %c16_i32 : i32
            %h = arith.xori %m, %sh : i32
            %v = arith.xori %h, %salt : i32
            memref.store %v, %data[%st, %col] : memref<3x128xi32, #WG>
          }
          pipeline.arrive %s : !PS
          pipeline.release %s : !PS
        }
      }
    } else {
      %cw = arith.subi %warp, %c1 : index
      %wbase = arith.muli %cw, %c32 : index
      %col = arith.addi %wbase, %lane : index
      %is_leader = arith.cmpi eq, %lane, %c0 : index
      scf.for %i = %c0 to %count step %c1 {
        %s = pipeline.acquire_consumer %p : !P
        %st = pipeline.index %s : !CS
        // Lane 0 reads the warp's quarter; gpu.shuffle hands element k to
        // lane k.
        %v = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %c0_i32) -> (i32) {
          %x = scf.if %is_leader -> (i32) {
            %kc = arith.addi %wbase, %k : index
            %y = memref.load %data[%st, %kc] : memref<3x128xi32, #WG>
            scf.yield %y : i32
          } else {
            scf.yield %c0_i32 : i32
          }
          %b, %valid = gpu.shuffle idx %x, %c0_i32, %c32_i32 : i32
          %mine = arith.cmpi eq, %k, %lane : index
          %acc2 = arith.select %mine, %b, %acc : i32
          scf.yield %acc2 : i32
        }
        %row = arith.muli %i, %c128 : index
        %o = arith.addi %row, %col : index
        memref.store %v, %out[%o] : memref<131072xi32>
        scf.if %is_leader {
          pipeline.arrive %s : !CS
        }
        pipeline.release_without_signal %s : !CS
      }
    }
    gpu.return
  }
}
