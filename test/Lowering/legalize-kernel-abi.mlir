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

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects memref arguments with a static shape and static strides (the bare-pointer kernel ABI passes one pointer per memref), got 'memref<?xf32>' for argument #1}}
  gpu.func @dynamic_shape(%n: index, %a: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects memref arguments with a static shape and static strides (the bare-pointer kernel ABI passes one pointer per memref), got 'memref<4x4xf32, strided<[?, 1]>>' for argument #0}}
  gpu.func @dynamic_stride(%a: memref<4x4xf32, strided<[?, 1]>>) kernel {
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
