// Kernel family 1: one producer warp, one consumer warp, stages 1, 2, 3, 4
// and 8. The host (runtime/basic_main.cpp) launches every kernel with item
// counts that are not multiples of the stage count.
//
// Per item i the 32 producer lanes write mix32(i * 32 + lane) ^ stages into
// the stage's payload row and each arrives (full count 32); the 32 consumer
// lanes read it back, store it at out[i * 32 + lane] (so a lost, repeated or
// reordered item shows at its position) and store the stage index at
// stage_out[i] (the host expects i % stages), then release (empty count 32).
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/basic --cubin %t.cubin | FileCheck %s
// CHECK: basic: {{[1-9][0-9]*}} passed, 0 failed

#WG = #gpu.address_space<workgroup>
!P1 = !pipeline.pipeline<stages = 1>
!P2 = !pipeline.pipeline<stages = 2>
!P3 = !pipeline.pipeline<stages = 3>
!P4 = !pipeline.pipeline<stages = 4>
!P8 = !pipeline.pipeline<stages = 8>

gpu.module @basic {
  // Stages = 1. Thread block: warp 0 produces, warp 1 consumes.
  gpu.func @basic_s1(%out: memref<32768xi32>, %stage_out: memref<1024xi32>, %n: i32)
      workgroup(%data: memref<1x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 1 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P1
    pipeline.init_mbars %p producer 32 consumer 32 : !P1
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P1 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P1>
          // value = mix32(i * 32 + lane) ^ salt
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
          memref.store %v, %data[%st, %lane] : memref<1x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P1>
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume %p as %s : !P1 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P1>
          %v = memref.load %data[%st, %lane] : memref<1x32xi32, #WG>
          %o0 = arith.muli %i, %c32 : index
          %o = arith.addi %o0, %lane : index
          memref.store %v, %out[%o] : memref<32768xi32>
          %st32 = arith.index_cast %st : index to i32
          memref.store %st32, %stage_out[%i] : memref<1024xi32>
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  // Stages = 2. Thread block: warp 0 produces, warp 1 consumes.
  gpu.func @basic_s2(%out: memref<32768xi32>, %stage_out: memref<1024xi32>, %n: i32)
      workgroup(%data: memref<2x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 2 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P2
    pipeline.init_mbars %p producer 32 consumer 32 : !P2
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P2 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P2>
          // value = mix32(i * 32 + lane) ^ salt
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
          memref.store %v, %data[%st, %lane] : memref<2x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P2>
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume %p as %s : !P2 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P2>
          %v = memref.load %data[%st, %lane] : memref<2x32xi32, #WG>
          %o0 = arith.muli %i, %c32 : index
          %o = arith.addi %o0, %lane : index
          memref.store %v, %out[%o] : memref<32768xi32>
          %st32 = arith.index_cast %st : index to i32
          memref.store %st32, %stage_out[%i] : memref<1024xi32>
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  // Stages = 3. Thread block: warp 0 produces, warp 1 consumes.
  gpu.func @basic_s3(%out: memref<32768xi32>, %stage_out: memref<1024xi32>, %n: i32)
      workgroup(%data: memref<3x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 3 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P3
    pipeline.init_mbars %p producer 32 consumer 32 : !P3
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P3 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P3>
          // value = mix32(i * 32 + lane) ^ salt
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
          memref.store %v, %data[%st, %lane] : memref<3x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P3>
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume %p as %s : !P3 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P3>
          %v = memref.load %data[%st, %lane] : memref<3x32xi32, #WG>
          %o0 = arith.muli %i, %c32 : index
          %o = arith.addi %o0, %lane : index
          memref.store %v, %out[%o] : memref<32768xi32>
          %st32 = arith.index_cast %st : index to i32
          memref.store %st32, %stage_out[%i] : memref<1024xi32>
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  // Stages = 4. Thread block: warp 0 produces, warp 1 consumes.
  gpu.func @basic_s4(%out: memref<32768xi32>, %stage_out: memref<1024xi32>, %n: i32)
      workgroup(%data: memref<4x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 4 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P4
    pipeline.init_mbars %p producer 32 consumer 32 : !P4
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P4 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P4>
          // value = mix32(i * 32 + lane) ^ salt
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
          memref.store %v, %data[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P4>
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume %p as %s : !P4 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P4>
          %v = memref.load %data[%st, %lane] : memref<4x32xi32, #WG>
          %o0 = arith.muli %i, %c32 : index
          %o = arith.addi %o0, %lane : index
          memref.store %v, %out[%o] : memref<32768xi32>
          %st32 = arith.index_cast %st : index to i32
          memref.store %st32, %stage_out[%i] : memref<1024xi32>
          pipeline.yield
        }
      }
    }
    gpu.return
  }

  // Stages = 8. Thread block: warp 0 produces, warp 1 consumes.
  gpu.func @basic_s8(%out: memref<32768xi32>, %stage_out: memref<1024xi32>, %n: i32)
      workgroup(%data: memref<8x32xi32, #WG>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c32_i32 = arith.constant 32 : i32
    %c16_i32 = arith.constant 16 : i32
    %golden = arith.constant -1640531535 : i32
    %salt = arith.constant 8 : i32
    %tid = gpu.thread_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P8
    pipeline.init_mbars %p producer 32 consumer 32 : !P8
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.produce %p as %s : !P8 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P8>
          // value = mix32(i * 32 + lane) ^ salt
          %i32 = arith.index_cast %i : index to i32
          %x0 = arith.muli %i32, %c32_i32 : i32
          %x = arith.addi %x0, %lane32 : i32
          %m = arith.muli %x, %golden : i32
          %sh = arith.shrui %m, %c16_i32 : i32
          %h = arith.xori %m, %sh : i32
          %v = arith.xori %h, %salt : i32
          memref.store %v, %data[%st, %lane] : memref<8x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P8>
          pipeline.yield
        }
      }
    } else {
      scf.for %i = %c0 to %count step %c1 {
        pipeline.consume %p as %s : !P8 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P8>
          %v = memref.load %data[%st, %lane] : memref<8x32xi32, #WG>
          %o0 = arith.muli %i, %c32 : index
          %o = arith.addi %o0, %lane : index
          memref.store %v, %out[%o] : memref<32768xi32>
          %st32 = arith.index_cast %st : index to i32
          memref.store %st32, %stage_out[%i] : memref<1024xi32>
          pipeline.yield
        }
      }
    }
    gpu.return
  }
}
