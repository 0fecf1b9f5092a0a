// RUN: pipeline-opt %s -split-input-file -pipeline-legalize-kernel-abi -verify-diagnostics | FileCheck %s

// A TMA descriptor argument becomes a pointer to the CUtensorMap, cast back
// to the descriptor inside; memrefs with static shapes are kept.

!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
gpu.module @m {
  // CHECK-LABEL: gpu.func @descriptor
  // CHECK-SAME:  (%[[PTR:.*]]: !llvm.ptr, %[[OUT:.*]]: memref<4xf32>)
  // CHECK-NEXT:  %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[PTR]] : !llvm.ptr to !nvgpu.tensormap.descriptor
  // CHECK-NEXT:  nvgpu.tma.prefetch.descriptor %[[DESC]]
  gpu.func @descriptor(%a: !desc, %out: memref<4xf32>) kernel {
    nvgpu.tma.prefetch.descriptor %a : !desc
    gpu.return
  }
}

// -----

// A memref with a dynamic size or stride is passed as its aligned pointer,
// its offset, its sizes and its strides (i64 each); the kernel assembles the
// descriptor convert-gpu-to-nvvm gives the memref, with the type's static
// values where it has them. A scalar NVPTX cannot pass (i2) is widened to the
// next power of two and truncated inside. The host's launch passes the
// same parameters.
module attributes {gpu.container_module} {
  gpu.module @m {
    // CHECK-LABEL: gpu.func @dynamic
    // CHECK-SAME: (%[[N:.*]]: i8, %[[PTR:.*]]: !llvm.ptr, %[[OFF:.*]]: i64, %[[SIZE0:.*]]: i64, %[[SIZE1:.*]]: i64, %[[STRIDE0:.*]]: i64, %[[STRIDE1:.*]]: i64, %[[STATIC:.*]]: memref<4xf32>) kernel
    // CHECK: %[[NARROW:.*]] = arith.trunci %[[N]] : i8 to i2
    // CHECK: %[[D0:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    // CHECK: %[[D1:.*]] = llvm.insertvalue %[[PTR]], %[[D0]][0]
    // CHECK: %[[D2:.*]] = llvm.insertvalue %[[PTR]], %[[D1]][1]
    // The static offset 0, not %[[OFF]].
    // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : index) : i64
    // CHECK: %[[D3:.*]] = llvm.insertvalue %[[ZERO]], %[[D2]][2]
    // CHECK: %[[D4:.*]] = llvm.insertvalue %[[SIZE0]], %[[D3]][3, 0]
    // CHECK: %[[C32:.*]] = llvm.mlir.constant(32 : index) : i64
    // CHECK: %[[D5:.*]] = llvm.insertvalue %[[C32]], %[[D4]][4, 0]
    // CHECK: llvm.insertvalue %{{.*}}[3, 1]
    // CHECK: %[[D:.*]] = llvm.insertvalue %{{.*}}[4, 1]
    // CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %[[D]] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)> to memref<?x32xf32>
    // CHECK: memref.dim %[[A]]
    // CHECK: arith.extui %[[NARROW]] : i2 to i32
    gpu.func @dynamic(%n: i2, %a: memref<?x32xf32>, %b: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %d = memref.dim %a, %c0 : memref<?x32xf32>
      %v = memref.load %a[%d, %c0] : memref<?x32xf32>
      memref.store %v, %b[%c0] : memref<4xf32>
      %w = arith.extui %n : i2 to i32
      gpu.return
    }
  }
  // CHECK-LABEL: func.func @host
  // CHECK-SAME: (%[[HN:.*]]: i2, %[[HA:.*]]: memref<?x32xf32>, %[[HB:.*]]: memref<4xf32>)
  // CHECK: %[[WIDE:.*]] = arith.extui %[[HN]] : i2 to i8
  // CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[HA]]
  // CHECK: %[[ADDR64:.*]] = arith.index_cast %[[ADDR]] : index to i64
  // CHECK: %[[HPTR:.*]] = llvm.inttoptr %[[ADDR64]] : i64 to !llvm.ptr
  // CHECK: %{{.*}}, %[[HOFF:.*]], %[[HSIZES:.*]]:2, %[[HSTRIDES:.*]]:2 = memref.extract_strided_metadata %[[HA]]
  // CHECK: %[[O:.*]] = arith.index_cast %[[HOFF]] : index to i64
  // CHECK: %[[S0:.*]] = arith.index_cast %[[HSIZES]]#0 : index to i64
  // CHECK: %[[S1:.*]] = arith.index_cast %[[HSIZES]]#1 : index to i64
  // CHECK: %[[T0:.*]] = arith.index_cast %[[HSTRIDES]]#0 : index to i64
  // CHECK: %[[T1:.*]] = arith.index_cast %[[HSTRIDES]]#1 : index to i64
  // CHECK: gpu.launch_func @m::@dynamic
  // CHECK-SAME: args(%[[WIDE]] : i8, %[[HPTR]] : !llvm.ptr, %[[O]] : i64, %[[S0]] : i64, %[[S1]] : i64, %[[T0]] : i64, %[[T1]] : i64, %[[HB]] : memref<4xf32>)
  func.func @host(%n: i2, %a: memref<?x32xf32>, %b: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@dynamic blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%n : i2, %a : memref<?x32xf32>, %b : memref<4xf32>)
    return
  }
}

// -----

// A dynamic stride and offset are parameters; a memref in global memory
// gets a global pointer; floats without an LLVM type of 4 or 6 bits and
// vectors of odd widths are widened elementwise (i1 elements too).
gpu.module @m {
  // CHECK-LABEL: gpu.func @strided
  // CHECK-SAME: (%[[P:.*]]: !llvm.ptr<1>, %[[OFF:.*]]: i64, %{{.*}}: i64, %{{.*}}: i64, %[[STRIDE0:.*]]: i64, %{{.*}}: i64, %[[F:.*]]: i8, %[[V:.*]]: vector<4xi8>, %[[W:.*]]: vector<2xi64>)
  // CHECK-DAG: arith.trunci %[[F]] : i8 to i4
  // CHECK-DAG: arith.bitcast %{{.*}} : i4 to f4E2M1FN
  // CHECK-DAG: arith.trunci %[[V]] : vector<4xi8> to vector<4xi1>
  // CHECK-DAG: arith.trunci %[[W]] : vector<2xi64> to vector<2xi33>
  // CHECK-DAG: llvm.insertvalue %[[OFF]], %{{.*}}[2] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK-DAG: llvm.insertvalue %[[STRIDE0]], %{{.*}}[4, 0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<2 x i64>, array<2 x i64>)>
  gpu.func @strided(%a: memref<4x4xf32, strided<[?, 1], offset: ?>, #gpu.address_space<global>>, %f: f4E2M1FN, %v: vector<4xi1>, %w: vector<2xi33>) kernel {
    gpu.return
  }
}

// -----

// A device function cannot take the parameters of a dynamic memref (no
// launch builds them): it keeps one pointer per memref.
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects memref arguments of a static shape and static strides (a device function takes one pointer per memref), got 'memref<?xf32>' for argument #0}}
  gpu.func @device(%a: memref<?xf32>) {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects memref arguments of a strided layout (a kernel takes a pointer, the offset, the sizes and the strides of a dynamic memref), got 'memref<*xf32>' for argument #0}}
  gpu.func @unranked(%a: memref<*xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects memref arguments of a strided layout (a kernel takes a pointer, the offset, the sizes and the strides of a dynamic memref), got 'memref<?x4xf32, affine_map<(d0, d1) -> (d1, d0)>>' for argument #0}}
  gpu.func @permuted(%a: memref<?x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) kernel {
    gpu.return
  }
}

// -----

// f80 and tf32 have no NVPTX lowering (LLVM aborts on f80; tf32 has no LLVM
// type), and NVPTX has no f128 arithmetic (LLVM aborts looking for a
// library function): reported before LLVM runs.
gpu.module @m {
  // expected-error @+2 {{'gpu.func' op expects arguments without 'f80' (NVPTX has no lowering for it), got 'f80' for argument #0}}
  // expected-error @+1 {{'gpu.func' op expects arguments without 'tf32' (NVPTX has no lowering for it), got 'vector<2xtf32>' for argument #1}}
  gpu.func @f80(%a: f80, %b: vector<2xtf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @f128(%a: f128, %o: memref<2xf128>, %p: memref<2xf64>) kernel {
    %c0 = arith.constant 0 : index
    // Moving, selecting and negating an f128 needs no arithmetic.
    %n = arith.negf %a : f128
    memref.store %n, %o[%c0] : memref<2xf128>
    // expected-error @+1 {{'arith.addf' op expects no 'f128' arithmetic in device code (NVPTX has no instructions and no library for it)}}
    %s = arith.addf %a, %a : f128
    // expected-error @+1 {{'arith.truncf' op expects no 'f128' arithmetic in device code}}
    %t = arith.truncf %a : f128 to f64
    memref.store %t, %p[%c0] : memref<2xf64>
    gpu.return
  }
}

// -----

// Types the GPU-to-NVVM conversion cannot pass are reported at the function
// instead of a generic legalization failure.
gpu.module @m {
  // expected-error @+2 {{'gpu.func' op expects arguments of integer, index, float, vector, complex, memref, LLVM or !nvgpu.tensormap.descriptor type, got 'tensor<4xf32>' for argument #1}}
  // expected-error @+1 {{'gpu.func' op expects arguments of integer, index, float, vector, complex, memref, LLVM or !nvgpu.tensormap.descriptor type, got 'tuple<i32>' for argument #2}}
  gpu.func @tensor_argument(%n: index, %t: tensor<4xf32>, %u: tuple<i32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+2 {{'gpu.func' op expects arguments of integer, index, float, vector, complex, memref, LLVM or !nvgpu.tensormap.descriptor type, got 'none' for argument #0}}
  // expected-error @+1 {{'gpu.func' op expects results of integer, index, float, vector, complex, memref or LLVM type, got 'none' for result #0}}
  gpu.func @none_result(%x: none) -> none {
    gpu.return %x : none
  }
}

// -----

// Vectors, LLVM types and complex numbers pass.
gpu.module @m {
  // CHECK-LABEL: gpu.func @plain_types
  gpu.func @plain_types(%v: vector<4xf32>, %s: !llvm.struct<(i32, f32)>, %c: complex<f32>, %f: f8E4M3FN) kernel {
    gpu.return
  }
}

// -----

// Host code cannot take shared memory: upstream would only print an error
// and go on, so the ABI pass rejects it.
// expected-error @+1 {{'func.func' op expects host code to use memrefs in the default memory space only (GPU memory spaces are for kernels in a gpu.module), got 'memref<4xf16, #gpu.address_space<workgroup>>' for argument #0}}
func.func @host(%a: memref<4xf16, #gpu.address_space<workgroup>>) {
  return
}

// -----

// The symbol goes into the PTX as written: ptxas rejects `my.kernel`
// ("Parsing error near '.kernel'").
gpu.module @m {
  // expected-error @below {{expects a name that is a PTX identifier (a letter, then letters, digits, '_' or '$'; or '_', '$' or '%' and at least one more), got 'my.kernel'}}
  gpu.func @my.kernel() kernel {
    gpu.return
  }
}

// -----

// PTX identifiers may start with '_', '$' or '%' and hold '$'.
// CHECK-LABEL: gpu.func @_k$1
gpu.module @m {
  gpu.func @_k$1() kernel {
    gpu.return
  }
}

// -----

// A block size of 0 would become `.maxntid 64, 0, 1`, which ptxas rejects;
// a negative one fails in the LLVM translation without a location.
gpu.module @m {
  // expected-error @below {{expects positive sizes in 'known_block_size', got array<i32: 64, 0, 1>}}
  gpu.func @zero() kernel attributes {known_block_size = array<i32: 64, 0, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{expects positive sizes in 'nvvm.maxntid', got array<i32: -1, 1, 1>}}
  gpu.func @negative() kernel attributes {nvvm.maxntid = array<i32: -1, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{expects a public symbol of a gpu.module to be a PTX identifier (or private), got 'table.v1'}}
  llvm.mlir.global external @table.v1(0 : i32) {addr_space = 1 : i32} : i32
  // Private symbols are renamed by the backend.
  llvm.mlir.global private @local.v1(0 : i32) {addr_space = 1 : i32} : i32
}
