// Kernel family 11: the kernel ABI on the hardware (docs/lowering.md,
// "Kernel ABI"). The host (host/kernel_abi.cpp) passes parameters as the
// ABI lays them out and checks what the kernel received.
//
// @scalars: an i2 and an i7 arrive in one byte each, an i33 in eight, an
// i65 in sixteen, an f4E2M1FN in one byte, a vector<3xi2> as three bytes
// (vector<3xi8>, padded to four). The kernel stores each, zero-extended to
// i64 (the vector's elements at out[5..7], the f4's bits at out[4]).
//
// @dynamic: a memref<?x?xi32> (pointer, offset, two sizes, two strides)
// and a strided view memref<?xi32, strided<[?], offset: ?>> of another
// buffer. Thread t < rows stores the sum of row t of the matrix plus the
// view's element t into out[t]; the sizes decide the loop bounds, the
// strides and offsets the addresses.
//
// REQUIRES: cuda-gpu
// RUN: %pipeline_compile_gpu %s -o %t
// RUN: %gpu_runner/kernel_abi --cubin %t.cubin | FileCheck %s
// CHECK: kernel_abi: {{[1-9][0-9]*}} passed, 0 failed

module attributes {gpu.container_module} {
gpu.module @kernel_abi {
  gpu.func @scalars(%a: i2, %b: i7, %c: i33, %d: i65, %f: f4E2M1FN,
                    %v: vector<3xi2>, %out: memref<8xi64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %c7 = arith.constant 7 : index
    %a64 = arith.extui %a : i2 to i64
    memref.store %a64, %out[%c0] : memref<8xi64>
    %b64 = arith.extui %b : i7 to i64
    memref.store %b64, %out[%c1] : memref<8xi64>
    %cbits = arith.extui %c : i33 to i64
    memref.store %cbits, %out[%c2] : memref<8xi64>
    // The i65's top bit and low 32 bits: (d >> 64) << 32 | (d & 0xffffffff).
    %c64i65 = arith.constant 64 : i65
    %top = arith.shrui %d, %c64i65 : i65
    %top64 = arith.trunci %top : i65 to i64
    %c32 = arith.constant 32 : i64
    %topShifted = arith.shli %top64, %c32 : i64
    %low = arith.trunci %d : i65 to i32
    %low64 = arith.extui %low : i32 to i64
    %dpacked = arith.ori %topShifted, %low64 : i64
    memref.store %dpacked, %out[%c3] : memref<8xi64>
    %fbits = arith.bitcast %f : f4E2M1FN to i4
    %f64 = arith.extui %fbits : i4 to i64
    memref.store %f64, %out[%c4] : memref<8xi64>
    %v0 = vector.extract %v[0] : i2 from vector<3xi2>
    %v1 = vector.extract %v[1] : i2 from vector<3xi2>
    %v2 = vector.extract %v[2] : i2 from vector<3xi2>
    %v064 = arith.extui %v0 : i2 to i64
    %v164 = arith.extui %v1 : i2 to i64
    %v264 = arith.extui %v2 : i2 to i64
    memref.store %v064, %out[%c5] : memref<8xi64>
    memref.store %v164, %out[%c6] : memref<8xi64>
    memref.store %v264, %out[%c7] : memref<8xi64>
    gpu.return
  }

  gpu.func @dynamic(%m: memref<?x?xi32>,
                    %view: memref<?xi32, strided<[?], offset: ?>>,
                    %out: memref<?xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %bdim = gpu.block_dim x
    %base = arith.muli %bid, %bdim : index
    %t = arith.addi %base, %tid : index
    %rows = memref.dim %m, %c0 : memref<?x?xi32>
    %cols = memref.dim %m, %c1 : memref<?x?xi32>
    %inside = arith.cmpi ult, %t, %rows : index
    scf.if %inside {
      %zero = arith.constant 0 : i32
      %sum = scf.for %j = %c0 to %cols step %c1 iter_args(%acc = %zero) -> (i32) {
        %x = memref.load %m[%t, %j] : memref<?x?xi32>
        %next = arith.addi %acc, %x : i32
        scf.yield %next : i32
      }
      %w = memref.load %view[%t] : memref<?xi32, strided<[?], offset: ?>>
      %r = arith.addi %sum, %w : i32
      memref.store %r, %out[%t] : memref<?xi32>
    }
    gpu.return
  }
}
}
