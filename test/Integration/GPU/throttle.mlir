// Kernel family 7: the direct API in a throttle-style handshake (the
// reference's CLC throttle): no payload, the pipeline only bounds how far the
// producer may run ahead of the consumer.
//
// Thread 0 is the producer, thread 32 the consumer; both barriers count one
// arrival. For item i the producer records that it started i (an atomic
// counter in shared memory), then `producer_signal_and_step` (wait empty,
// arrive full, step), then records lead_seen[i] = i - (items the consumer
// has finished). For item j the consumer `consumer_signal_and_step`s (wait
// full, arrive empty, step), records prod_seen[j] = items the producer has
// started, spins `delay` cycles, then counts item j as finished.
//
// The host checks, element by element: prod_seen[j] >= j + 1 (the consumer
// never overtakes the producer) and lead_seen[i] <= stages (the producer
// never runs more than `stages` items ahead), and that the maximum lead is
// exactly `stages` (the throttle engaged).
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/throttle --cubin %t.cubin | FileCheck %s
// CHECK: throttle: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P1 = !pipeline.pipeline<stages = 1>
!P4 = !pipeline.pipeline<stages = 4>

gpu.module @throttle {
  gpu.func @throttle_s1(%lead_seen: memref<4096xi32>, %prod_seen: memref<4096xi32>, %n: i32, %delay: i64)
      workgroup(%counters: memref<2xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %count = arith.index_cast %n : i32 to index
    // counters[0]: items the producer has started, counters[1]: items the
    // consumer has finished. Zeroed before the barrier that ends init_mbars.
    %is_t0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %is_t0 {
      memref.store %c0_i32, %counters[%c0] : memref<2xi32, #WG>
      memref.store %c0_i32, %counters[%c1] : memref<2xi32, #WG>
    }
    %p = pipeline.create -> !P1
    pipeline.init_mbars %p producer 1 consumer 1 : !P1
    %is_producer = arith.cmpi eq, %tid, %c0 : index
    %is_consumer = arith.cmpi eq, %tid, %c32 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %started = arith.addi %i32, %c1_i32 : i32
        %old = memref.atomic_rmw assign %started, %counters[%c0] : (i32, memref<2xi32, #WG>) -> i32
        pipeline.producer_signal_and_step %p : !P1
        // Through the empty barrier the consumer has finished item i - 1.
        %done = memref.atomic_rmw addi %c0_i32, %counters[%c1] : (i32, memref<2xi32, #WG>) -> i32
        %lead = arith.subi %i32, %done : i32
        memref.store %lead, %lead_seen[%i] : memref<4096xi32>
      }
    }
    scf.if %is_consumer {
      scf.for %j = %c0 to %count step %c1 {
        pipeline.consumer_signal_and_step %p : !P1
        // Through the full barrier the producer has started item j.
        %started = memref.atomic_rmw addi %c0_i32, %counters[%c0] : (i32, memref<2xi32, #WG>) -> i32
        memref.store %started, %prod_seen[%j] : memref<4096xi32>
        // A slow consumer: the producer must wait for it.
        %t0 = nvvm.read.ptx.sreg.clock64 : i64
        scf.while : () -> () {
          %t = nvvm.read.ptx.sreg.clock64 : i64
          %d = arith.subi %t, %t0 : i64
          %more = arith.cmpi ult, %d, %delay : i64
          scf.condition(%more)
        } do {
          scf.yield
        }
        %j32 = arith.index_cast %j : index to i32
        %finished = arith.addi %j32, %c1_i32 : i32
        %old = memref.atomic_rmw assign %finished, %counters[%c1] : (i32, memref<2xi32, #WG>) -> i32
      }
    }
    gpu.return
  }

  gpu.func @throttle_s4(%lead_seen: memref<4096xi32>, %prod_seen: memref<4096xi32>, %n: i32, %delay: i64)
      workgroup(%counters: memref<2xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %count = arith.index_cast %n : i32 to index
    // counters[0]: items the producer has started, counters[1]: items the
    // consumer has finished. Zeroed before the barrier that ends init_mbars.
    %is_t0 = arith.cmpi eq, %tid, %c0 : index
    scf.if %is_t0 {
      memref.store %c0_i32, %counters[%c0] : memref<2xi32, #WG>
      memref.store %c0_i32, %counters[%c1] : memref<2xi32, #WG>
    }
    %p = pipeline.create -> !P4
    pipeline.init_mbars %p producer 1 consumer 1 : !P4
    %is_producer = arith.cmpi eq, %tid, %c0 : index
    %is_consumer = arith.cmpi eq, %tid, %c32 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %started = arith.addi %i32, %c1_i32 : i32
        %old = memref.atomic_rmw assign %started, %counters[%c0] : (i32, memref<2xi32, #WG>) -> i32
        pipeline.producer_signal_and_step %p : !P4
        // Through the empty barrier the consumer has finished item i - 4.
        %done = memref.atomic_rmw addi %c0_i32, %counters[%c1] : (i32, memref<2xi32, #WG>) -> i32
        %lead = arith.subi %i32, %done : i32
        memref.store %lead, %lead_seen[%i] : memref<4096xi32>
      }
    }
    scf.if %is_consumer {
      scf.for %j = %c0 to %count step %c1 {
        pipeline.consumer_signal_and_step %p : !P4
        // Through the full barrier the producer has started item j.
        %started = memref.atomic_rmw addi %c0_i32, %counters[%c0] : (i32, memref<2xi32, #WG>) -> i32
        memref.store %started, %prod_seen[%j] : memref<4096xi32>
        // A slow consumer: the producer must wait for it.
        %t0 = nvvm.read.ptx.sreg.clock64 : i64
        scf.while : () -> () {
          %t = nvvm.read.ptx.sreg.clock64 : i64
          %d = arith.subi %t, %t0 : i64
          %more = arith.cmpi ult, %d, %delay : i64
          scf.condition(%more)
        } do {
          scf.yield
        }
        %j32 = arith.index_cast %j : index to i32
        %finished = arith.addi %j32, %c1_i32 : i32
        %old = memref.atomic_rmw assign %finished, %counters[%c1] : (i32, memref<2xi32, #WG>) -> i32
      }
    }
    gpu.return
  }
}
