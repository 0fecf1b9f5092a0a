// Kernel family 8: stress. Every block runs its own 4-stage pipeline (warp 0
// produces, warp 1 consumes, full and empty counts 32) over `n` items with
// random spin delays (clock64-based, 0..255 cycles, drawn per item from a
// hash) on both sides; the host launches enough blocks to keep all SMs busy
// and n = 100000 items per block. The barriers are static shared memory
// (`pipeline.create`), the payload dynamic shared memory.
//
// Item i of block b, lane l: mix32(i * 32 + l) ^ b. Every consumer lane
// compares the value it reads with the expected one and counts mismatches in
// errors[b * 32 + l]; lane 0 also stores the value at out[b * n + i]. The
// host checks both element by element; a hang is caught by the watchdog.
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/stress --cubin %t.cubin | FileCheck %s
// CHECK: stress: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>

gpu.module @stress {
  gpu.func @stress(%out: memref<33554432xi32>, %errors: memref<65536xi32>, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c1_i32 = arith.constant 1 : i32
    %c8_i32 = arith.constant 8 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %c255_i32 = arith.constant 255 : i32
    %c65536_i32 = arith.constant 65536 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %seed = arith.muli %bid32, %c65536_i32 : i32
    %count = arith.index_cast %n : i32 to index
    // Barriers in static shared memory (pipeline.create allocates them),
    // payload (4 x 32 x i32) in dynamic shared memory: both must coexist.
    %p = pipeline.create -> !P
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %data = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<4x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        // Random delay: low byte of mix32(i + b * 65536).
        %r0 = arith.addi %i32, %seed : i32
        %rm = arith.muli %r0, %golden : i32
        %rs = arith.shrui %rm, %c16_i32 : i32
        %rh = arith.xori %rm, %rs : i32
        %d32 = arith.andi %rh, %c255_i32 : i32
        %delay = arith.extui %d32 : i32 to i64
        %t0 = nvvm.read.ptx.sreg.clock64 : i64
        scf.while : () -> () {
          %t = nvvm.read.ptx.sreg.clock64 : i64
          %d = arith.subi %t, %t0 : i64
          %more = arith.cmpi ult, %d, %delay : i64
          scf.condition(%more)
        } do {
          scf.yield
        }
        pipeline.produce %p as %s : !P {
          %st = pipeline.index %s : !PS
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %bid32 : i32
          memref.store %v, %data[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.arrive %s : !PS
          pipeline.yield
        }
      }
    } else {
      %bad = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P -> i32 {
          %st = pipeline.index %s : !CS
          %v = memref.load %data[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %is_lane0 = arith.cmpi eq, %lane, %c0 : index
        scf.if %is_lane0 {
          %ob = arith.muli %bid, %count : index
          %o = arith.addi %ob, %i : index
          memref.store %got, %out[%o] : memref<33554432xi32>
        }
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        // Random delay: second byte of mix32(i + b * 65536).
        %r0 = arith.addi %i32, %seed : i32
        %rm = arith.muli %r0, %golden : i32
        %rs = arith.shrui %rm, %c16_i32 : i32
        %rh = arith.xori %rm, %rs : i32
        %rb = arith.shrui %rh, %c8_i32 : i32
        %d32 = arith.andi %rb, %c255_i32 : i32
        %delay = arith.extui %d32 : i32 to i64
        %t0 = nvvm.read.ptx.sreg.clock64 : i64
        scf.while : () -> () {
          %t = nvvm.read.ptx.sreg.clock64 : i64
          %d = arith.subi %t, %t0 : i64
          %more = arith.cmpi ult, %d, %delay : i64
          scf.condition(%more)
        } do {
          scf.yield
        }
        scf.yield %acc2 : i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : memref<65536xi32>
    }
    gpu.return
  }
}
