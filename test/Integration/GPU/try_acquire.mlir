// Kernel family 4: the try-acquire path.
//
// Warp 0 produces, warp 1 consumes (full and empty counts 32), 2 stages. Per
// item each role first tries (one non-blocking try_wait), does other work
// (counts the successful tries), then waits only if the try failed. In the
// first half of the items the consumer spins `delay` clock cycles before its
// try, so the producer finds the pipeline full and the consumer finds data;
// in the second half the producer spins, so the roles swap. Each thread
// stores its number of successful tries at tries[tid]; the host checks every
// item (value and order) and that each role saw both outcomes.
//
//   @try_direct:  try_acquire_producer/consumer, other work,
//                 wait_consumer/producer_if_needed, producer/consumer_stage,
//                 an nvgpu arrive on producer/consumer_mbar, *_step.
//   @try_handles: try_wait_consumer/producer, other work,
//                 acquire_producer/consumer ready(%r), release.
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/try_acquire --cubin %t.cubin | FileCheck %s
// CHECK: try_acquire: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>
!Bars = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = 4>

gpu.module @try_acquire {
  gpu.func @try_direct(%out: memref<8192xi32>, %tries: memref<64xi32>, %n: i32, %delay: i64)
      workgroup(%data: memref<2x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 4 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %half = arith.divui %count, %c2 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %ok = scf.if %is_producer -> (i32) {
      %ok_p = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %slow = arith.cmpi uge, %i, %half : index
        scf.if %slow {
          %t0 = nvvm.read.ptx.sreg.clock64 : i64
          scf.while : () -> () {
            %t = nvvm.read.ptx.sreg.clock64 : i64
            %d = arith.subi %t, %t0 : i64
            %more = arith.cmpi ult, %d, %delay : i64
            scf.condition(%more)
          } do {
            scf.yield
          }
        }
        %r = pipeline.try_acquire_producer %p : !P
        // Other work while the stage may still be busy.
        %r32 = arith.extui %r : i1 to i32
        %acc2 = arith.addi %acc, %r32 : i32
        pipeline.wait_consumer_if_needed %p, %r : !P
        %st = pipeline.producer_stage %p : !P
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
        memref.store %v, %data[%st, %lane] : memref<2x32xi32, #WG>
        %bars, %id = pipeline.producer_mbar %p[%st] : !P
        %tok = nvgpu.mbarrier.arrive %bars[%id] : !Bars -> !nvgpu.mbarrier.token
        pipeline.producer_step %p : !P
        scf.yield %acc2 : i32
      }
      scf.yield %ok_p : i32
    } else {
      %ok_c = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %slow = arith.cmpi ult, %i, %half : index
        scf.if %slow {
          %t0 = nvvm.read.ptx.sreg.clock64 : i64
          scf.while : () -> () {
            %t = nvvm.read.ptx.sreg.clock64 : i64
            %d = arith.subi %t, %t0 : i64
            %more = arith.cmpi ult, %d, %delay : i64
            scf.condition(%more)
          } do {
            scf.yield
          }
        }
        %r = pipeline.try_acquire_consumer %p : !P
        %r32 = arith.extui %r : i1 to i32
        %acc2 = arith.addi %acc, %r32 : i32
        pipeline.wait_producer_if_needed %p, %r : !P
        %st = pipeline.consumer_stage %p : !P
        %v = memref.load %data[%st, %lane] : memref<2x32xi32, #WG>
        %o0 = arith.muli %i, %c32 : index
        %o = arith.addi %o0, %lane : index
        memref.store %v, %out[%o] : memref<8192xi32>
        %bars, %id = pipeline.consumer_mbar %p[%st] : !P
        %tok = nvgpu.mbarrier.arrive %bars[%id] : !Bars -> !nvgpu.mbarrier.token
        pipeline.consumer_step %p : !P
        scf.yield %acc2 : i32
      }
      scf.yield %ok_c : i32
    }
    memref.store %ok, %tries[%tid] : memref<64xi32>
    gpu.return
  }

  gpu.func @try_handles(%out: memref<8192xi32>, %tries: memref<64xi32>, %n: i32, %delay: i64)
      workgroup(%data: memref<2x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 5 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %half = arith.divui %count, %c2 : index
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    %ok = scf.if %is_producer -> (i32) {
      %ok_p = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %slow = arith.cmpi uge, %i, %half : index
        scf.if %slow {
          %t0 = nvvm.read.ptx.sreg.clock64 : i64
          scf.while : () -> () {
            %t = nvvm.read.ptx.sreg.clock64 : i64
            %d = arith.subi %t, %t0 : i64
            %more = arith.cmpi ult, %d, %delay : i64
            scf.condition(%more)
          } do {
            scf.yield
          }
        }
        %r = pipeline.try_wait_consumer %p : !P
        %r32 = arith.extui %r : i1 to i32
        %acc2 = arith.addi %acc, %r32 : i32
        %s = pipeline.acquire_producer %p ready(%r) : !P
        %st = pipeline.index %s : !PS
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
        memref.store %v, %data[%st, %lane] : memref<2x32xi32, #WG>
        pipeline.arrive %s : !PS
        pipeline.release %s : !PS
        scf.yield %acc2 : i32
      }
      scf.yield %ok_p : i32
    } else {
      %ok_c = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %slow = arith.cmpi ult, %i, %half : index
        scf.if %slow {
          %t0 = nvvm.read.ptx.sreg.clock64 : i64
          scf.while : () -> () {
            %t = nvvm.read.ptx.sreg.clock64 : i64
            %d = arith.subi %t, %t0 : i64
            %more = arith.cmpi ult, %d, %delay : i64
            scf.condition(%more)
          } do {
            scf.yield
          }
        }
        %r = pipeline.try_wait_producer %p : !P
        %r32 = arith.extui %r : i1 to i32
        %acc2 = arith.addi %acc, %r32 : i32
        %s = pipeline.acquire_consumer %p ready(%r) : !P
        %st = pipeline.index %s : !CS
        %v = memref.load %data[%st, %lane] : memref<2x32xi32, #WG>
        %o0 = arith.muli %i, %c32 : index
        %o = arith.addi %o0, %lane : index
        memref.store %v, %out[%o] : memref<8192xi32>
        pipeline.release %s : !CS
        scf.yield %acc2 : i32
      }
      scf.yield %ok_c : i32
    }
    memref.store %ok, %tries[%tid] : memref<64xi32>
    gpu.return
  }
}
