// RUN: pipeline-opt %s -pipeline-record-launch-contract | FileCheck %s

// The threads along x a kernel needs at least: the x of the block it
// declares (known_block_size, nvvm.reqntid, nvvm.maxntid), else the least
// whole-warp block in which every role runs (each op of the pipeline
// dialect that waits, signals or frees executes in all its threads, or a
// role that grows with the block in its lowest warp, and then every
// barrier gets its count), derived from the roles' thread conditions.
// Launchers refuse a smaller block before the driver is called: with fewer
// warps a role never runs and its peer waits forever.

!Smem = memref<?xi8, #gpu.address_space<workgroup>>
!P = !pipeline.pipeline<stages = 2>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.module @kernels
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_two_warps(64 : i64) {addr_space = 4 : i32, alignment = 8 : i64}
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_fourth_warp(128 : i64)
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_declared(128 : i64)
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_elected(96 : i64)
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_last_warp(64 : i64)
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_peer(64 : i64)
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_block_counted(160 : i64)
    // CHECK-NOT: __pipeline_mlir_min_block_varying
    // CHECK-NOT: __pipeline_mlir_min_block_two_d
    // CHECK-NOT: __pipeline_mlir_min_block_no_roles

    // Warp 0 produces, every other warp consumes: two warps.
    // CHECK: gpu.func @two_warps() kernel attributes {pipeline.min_block_size = 64 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @two_warps() kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %is_producer = arith.cmpi eq, %warp, %c0 : index
      scf.if %is_producer {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
        pipeline.drain_producer %p : !P
      } else {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // The producer is warp 3 and the consumer warp 1: four warps, though
    // warps 0 and 2 have nothing to do.
    // CHECK: gpu.func @fourth_warp() kernel attributes {pipeline.min_block_size = 128 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @fourth_warp() kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %is_producer = arith.cmpi eq, %warp, %c3 : index
      scf.if %is_producer {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      }
      %is_consumer = arith.cmpi eq, %warp, %c1 : index
      scf.if %is_consumer {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // A declared block is the contract, whatever the roles need.
    // CHECK: gpu.func @declared() kernel attributes {nvvm.reqntid = array<i32: 128, 2, 1>, pipeline.min_block_size = 128 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @declared() kernel attributes {nvvm.reqntid = array<i32: 128, 2, 1>} {
      %c0 = arith.constant 0 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      gpu.return
    }

    // One elected lane of warp 2 produces (the elected lane is the lowest
    // one: thread 64), every thread of warp 0 consumes: three warps.
    // CHECK: gpu.func @elected() kernel attributes {pipeline.min_block_size = 96 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @elected() kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 1 consumer 32 : !P
      %is_w2 = arith.cmpi eq, %warp, %c2 : index
      scf.if %is_w2 {
        %elect = nvvm.elect.sync -> i1
        scf.if %elect {
          pipeline.produce %p as %s : !P {
            pipeline.arrive %s : !pipeline.stage<producer, !P>
          }
        }
      }
      %is_w0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %is_w0 {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // The last warp produces and the others consume: the conditions read
    // the block size, so each whole-warp size is tried; at 32 threads warp
    // 0 is the last one and nobody consumes.
    // CHECK: gpu.func @last_warp() kernel attributes {pipeline.min_block_size = 64 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @last_warp() kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %ntid = gpu.block_dim x
      %warp = arith.divui %tid, %c32 : index
      %warps = arith.divui %ntid, %c32 : index
      %last = arith.subi %warps, %c1 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %is_producer = arith.cmpi eq, %warp, %last : index
      scf.if %is_producer {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
      } else {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // A role of the peer CTA of a pair counts too: warp 1 of the odd rank.
    // CHECK: gpu.func @peer() kernel attributes {pipeline.min_block_size = 64 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @peer() kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c1_i32 = arith.constant 1 : i32
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %rank = nvvm.read.ptx.sreg.cluster.ctarank : i32
      %odd = arith.andi %rank, %c1_i32 : i32
      %is_peer = arith.cmpi eq, %odd, %c1_i32 : i32
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %w1 = arith.cmpi eq, %warp, %c1 : index
      %role = arith.andi %w1, %is_peer : i1
      scf.if %role {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // Warp 0 produces, every other warp consumes, `consumer 128`: the
    // consumer grows with the block, so the least block is the one that
    // gives its barriers their count: four consumer warps, 160 threads (at
    // 64, the least in which each role runs, it would hang).
    // CHECK: gpu.func @counted() kernel attributes {pipeline.min_block_size = 160 : i64, pipeline.min_dynamic_smem = 32 : i64}
    gpu.func @counted() kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 128 : !P
      %is_producer = arith.cmpi eq, %warp, %c0 : index
      scf.if %is_producer {
        pipeline.produce %p as %s : !P {
          pipeline.arrive %s : !pipeline.stage<producer, !P>
        }
        pipeline.drain_producer %p : !P
      } else {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // A role under a condition that differs between threads but is not a
    // function of the thread (a loaded value): nothing is derived.
    // CHECK: gpu.func @varying(%{{.*}}: memref<1024xi32>) kernel attributes {pipeline.min_dynamic_smem = 32 : i64} {
    gpu.func @varying(%flags: memref<1024xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c0_i32 = arith.constant 0 : i32
      %tid = gpu.thread_id x
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %flag = memref.load %flags[%tid] : memref<1024xi32>
      %go = arith.cmpi ne, %flag, %c0_i32 : i32
      scf.if %go {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // A y thread id: the derivation is for one-dimensional blocks only.
    // CHECK: gpu.func @two_d() kernel attributes {pipeline.min_dynamic_smem = 32 : i64} {
    gpu.func @two_d() kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %y = gpu.thread_id y
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      pipeline.init_mbars %p producer 32 consumer 32 : !P
      %is_consumer = arith.cmpi eq, %y, %c1 : index
      scf.if %is_consumer {
        pipeline.consume %p as %s : !P {
        }
      }
      gpu.return
    }

    // No role: no contract on the block.
    // CHECK: gpu.func @no_roles() kernel {
    gpu.func @no_roles() kernel {
      gpu.return
    }
  }
}
