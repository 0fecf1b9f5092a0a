// The dialect side of the dialect-vs-CUDA benchmark (docs/benchmarks.md).
//
// One kernel per stage count S = 2, 4, 8 (@pipe_s2, @pipe_s4, @pipe_s8); the
// hand-written CUDA twin is pipe_cuda.cu, kernel for kernel. Block of 64
// threads: warp 0 produces, warp 1 consumes, through an S-stage ring of
// 32 x i32 slots; full and empty barriers count 32 arrivals (every lane of
// the signalling warp arrives). Barriers in static shared memory
// (pipeline.create), the ring in dynamic shared memory (S * 128 bytes).
//
// Item i of block b, lane l: mix32(i * 32 + l) ^ b, mix32(x) = (x * G) ^
// ((x * G) >> 16), G = 0x9E3779B1. The producer computes it, waits for a
// free stage, stores it in the slot, arrives on full. The consumer computes
// the expected value, waits for a full stage, loads the slot, arrives on
// empty (the consume region's exit); lane 0 writes the item to
// out[b * n + i]; every lane counts mismatches into errors[b * 32 + l].
// The producer ends with drain_producer.
//
// Diagnostic kernels @pipe_nostore_s2/s4/s8: the same, except that the
// consumer stores no item; every lane folds the items it reads into an XOR
// checksum, stored once at the end in out[b * 32 + l].
//
// Kernel ABI (bare pointers): out: i32[2^30], errors: i32[2^20], n: i32.
//
// Compile: pipeline-compile bench/vs-cuda/pipe_dialect.mlir --chip=sm_90a -o X

#WG = #gpu.address_space<workgroup>
!Out = memref<1073741824xi32>
!Err = memref<1048576xi32>
!P2 = !pipeline.pipeline<stages = 2>
!P4 = !pipeline.pipeline<stages = 4>
!P8 = !pipeline.pipeline<stages = 8>

module attributes {gpu.container_module} {
gpu.module @bench {
  // S = 2 stages.
  gpu.func @pipe_s2(%out: !Out, %errors: !Err, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P2
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %ring = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<2x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P2
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %v = arith.xori %h, %bid32 : i32
        pipeline.produce %p as %s : !P2 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P2>
          memref.store %v, %ring[%st, %lane] : memref<2x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P2>
          pipeline.yield
        }
      }
      pipeline.drain_producer %p : !P2
    } else {
      %bad = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P2 -> i32 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P2>
          %v = memref.load %ring[%st, %lane] : memref<2x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %is_lane0 = arith.cmpi eq, %lane, %c0 : index
        scf.if %is_lane0 {
          %ob = arith.muli %bid, %count : index
          %o = arith.addi %ob, %i : index
          memref.store %got, %out[%o] : !Out
        }
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        scf.yield %acc2 : i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : !Err
    }
    gpu.return
  }

  // S = 4 stages.
  gpu.func @pipe_s4(%out: !Out, %errors: !Err, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P4
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %ring = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<4x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P4
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %v = arith.xori %h, %bid32 : i32
        pipeline.produce %p as %s : !P4 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P4>
          memref.store %v, %ring[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P4>
          pipeline.yield
        }
      }
      pipeline.drain_producer %p : !P4
    } else {
      %bad = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P4 -> i32 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P4>
          %v = memref.load %ring[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %is_lane0 = arith.cmpi eq, %lane, %c0 : index
        scf.if %is_lane0 {
          %ob = arith.muli %bid, %count : index
          %o = arith.addi %ob, %i : index
          memref.store %got, %out[%o] : !Out
        }
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        scf.yield %acc2 : i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : !Err
    }
    gpu.return
  }

  // S = 8 stages.
  gpu.func @pipe_s8(%out: !Out, %errors: !Err, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P8
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %ring = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<8x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P8
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %v = arith.xori %h, %bid32 : i32
        pipeline.produce %p as %s : !P8 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P8>
          memref.store %v, %ring[%st, %lane] : memref<8x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P8>
          pipeline.yield
        }
      }
      pipeline.drain_producer %p : !P8
    } else {
      %bad = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32) -> (i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P8 -> i32 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P8>
          %v = memref.load %ring[%st, %lane] : memref<8x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %is_lane0 = arith.cmpi eq, %lane, %c0 : index
        scf.if %is_lane0 {
          %ob = arith.muli %bid, %count : index
          %o = arith.addi %ob, %i : index
          memref.store %got, %out[%o] : !Out
        }
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        scf.yield %acc2 : i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : !Err
    }
    gpu.return
  }

  // S = 2 stages, diagnostic: no item stored (XOR checksum per lane).
  gpu.func @pipe_nostore_s2(%out: !Out, %errors: !Err, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P2
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %ring = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<2x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P2
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %v = arith.xori %h, %bid32 : i32
        pipeline.produce %p as %s : !P2 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P2>
          memref.store %v, %ring[%st, %lane] : memref<2x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P2>
          pipeline.yield
        }
      }
      pipeline.drain_producer %p : !P2
    } else {
      %bad, %sum = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32, %x_acc = %c0_i32) -> (i32, i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P2 -> i32 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P2>
          %v = memref.load %ring[%st, %lane] : memref<2x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %x_acc2 = arith.xori %x_acc, %got : i32
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        scf.yield %acc2, %x_acc2 : i32, i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : !Err
      memref.store %sum, %out[%e] : !Out
    }
    gpu.return
  }

  // S = 4 stages, diagnostic: no item stored (XOR checksum per lane).
  gpu.func @pipe_nostore_s4(%out: !Out, %errors: !Err, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P4
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %ring = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<4x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P4
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %v = arith.xori %h, %bid32 : i32
        pipeline.produce %p as %s : !P4 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P4>
          memref.store %v, %ring[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P4>
          pipeline.yield
        }
      }
      pipeline.drain_producer %p : !P4
    } else {
      %bad, %sum = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32, %x_acc = %c0_i32) -> (i32, i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P4 -> i32 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P4>
          %v = memref.load %ring[%st, %lane] : memref<4x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %x_acc2 = arith.xori %x_acc, %got : i32
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        scf.yield %acc2, %x_acc2 : i32, i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : !Err
      memref.store %sum, %out[%e] : !Out
    }
    gpu.return
  }

  // S = 8 stages, diagnostic: no item stored (XOR checksum per lane).
  gpu.func @pipe_nostore_s8(%out: !Out, %errors: !Err, %n: i32) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %c0_i32 = arith.constant 0 : i32
    %c16_i32 = arith.constant 16 : i32
    %c32_i32 = arith.constant 32 : i32
    %golden = arith.constant -1640531535 : i32
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %warp = arith.divui %tid, %c32 : index
    %lane = arith.remui %tid, %c32 : index
    %lane32 = arith.index_cast %lane : index to i32
    %bid32 = arith.index_cast %bid : index to i32
    %count = arith.index_cast %n : i32 to index
    %p = pipeline.create -> !P8
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>
    %ring = memref.view %smem[%c0][] : memref<?xi8, #WG> to memref<8x32xi32, #WG>
    pipeline.init_mbars %p producer 32 consumer 32 : !P8
    %is_producer = arith.cmpi eq, %warp, %c0 : index
    scf.if %is_producer {
      scf.for %i = %c0 to %count step %c1 {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %v = arith.xori %h, %bid32 : i32
        pipeline.produce %p as %s : !P8 {
          %st = pipeline.index %s : !pipeline.stage<producer, !P8>
          memref.store %v, %ring[%st, %lane] : memref<8x32xi32, #WG>
          pipeline.arrive %s : !pipeline.stage<producer, !P8>
          pipeline.yield
        }
      }
      pipeline.drain_producer %p : !P8
    } else {
      %bad, %sum = scf.for %i = %c0 to %count step %c1 iter_args(%acc = %c0_i32, %x_acc = %c0_i32) -> (i32, i32) {
        %i32 = arith.index_cast %i : index to i32
        %x0 = arith.muli %i32, %c32_i32 : i32
        %x = arith.addi %x0, %lane32 : i32
        %m = arith.muli %x, %golden : i32
        %sh = arith.shrui %m, %c16_i32 : i32
        %h = arith.xori %m, %sh : i32
        %want = arith.xori %h, %bid32 : i32
        %got = pipeline.consume %p as %s : !P8 -> i32 {
          %st = pipeline.index %s : !pipeline.stage<consumer, !P8>
          %v = memref.load %ring[%st, %lane] : memref<8x32xi32, #WG>
          pipeline.yield %v : i32
        }
        %x_acc2 = arith.xori %x_acc, %got : i32
        %wrong = arith.cmpi ne, %got, %want : i32
        %w32 = arith.extui %wrong : i1 to i32
        %acc2 = arith.addi %acc, %w32 : i32
        scf.yield %acc2, %x_acc2 : i32, i32
      }
      %eb = arith.muli %bid, %c32 : index
      %e = arith.addi %eb, %lane : index
      memref.store %bad, %errors[%e] : !Err
      memref.store %sum, %out[%e] : !Out
    }
    gpu.return
  }
}
}
