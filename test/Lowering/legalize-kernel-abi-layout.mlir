// RUN: pipeline-opt %s -split-input-file -pipeline-legalize-kernel-abi | FileCheck %s
// A second run keeps the first run's record (the arguments before their
// rewrite: the i2 stays two bits in one byte, the memref one argument).
// RUN: pipeline-opt %s -split-input-file -pipeline-legalize-kernel-abi -pipeline-legalize-kernel-abi | FileCheck %s
// RUN: pipeline-opt %s -split-input-file -pipeline-legalize-kernel-abi="use-bare-ptr-memref-call-conv=false" | FileCheck %s --check-prefix=DESC

// Each kernel's parameter layout is recorded for the launchers as the
// global __pipeline_mlir_abi_<kernel>: per argument its kind and type, per
// parameter the argument it comes from, what it holds, its offset, size
// and alignment in the parameter buffer. An i1 and an i8 are one byte, an
// i16 two; a dynamic memref is its pointer, offset, sizes and strides
// (8 bytes each, aligned); a static memref one pointer; a tensor map a
// pointer to the CUtensorMap; an i2 is widened to one byte. Device
// functions get no record.

!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>
gpu.module @m {
  // CHECK-LABEL: gpu.module @m
  // CHECK-NOT: @__pipeline_mlir_abi_helper
  // CHECK: llvm.mlir.global external constant @__pipeline_mlir_abi_k("abi version=1 args=7 params=12 bytes=73\0A
  // CHECK-SAME: arg 0 kind=scalar type=i1\0Aparam 0 arg=0 kind=scalar bits=1 offset=0 size=1 align=1\0A
  // CHECK-SAME: arg 1 kind=scalar type=i8\0Aparam 1 arg=1 kind=scalar bits=8 offset=1 size=1 align=1\0A
  // CHECK-SAME: arg 2 kind=scalar type=i16\0Aparam 2 arg=2 kind=scalar bits=16 offset=2 size=2 align=2\0A
  // CHECK-SAME: arg 3 kind=memref rank=2 type=memref<?x32xf32>\0A
  // CHECK-SAME: param 3 arg=3 kind=memref field=ptr offset=8 size=8 align=8\0A
  // CHECK-SAME: param 4 arg=3 kind=memref field=offset offset=16 size=8 align=8\0A
  // CHECK-SAME: param 5 arg=3 kind=memref field=size dim=0 offset=24 size=8 align=8\0A
  // CHECK-SAME: param 6 arg=3 kind=memref field=size dim=1 offset=32 size=8 align=8\0A
  // CHECK-SAME: param 7 arg=3 kind=memref field=stride dim=0 offset=40 size=8 align=8\0A
  // CHECK-SAME: param 8 arg=3 kind=memref field=stride dim=1 offset=48 size=8 align=8\0A
  // CHECK-SAME: arg 4 kind=memref rank=1 type=memref<4xf32>\0Aparam 9 arg=4 kind=memref field=ptr offset=56 size=8 align=8\0A
  // CHECK-SAME: arg 5 kind=tensormap type=!nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, interleave = none>\0A
  // CHECK-SAME: param 10 arg=5 kind=tensormap offset=64 size=8 align=8\0A
  // CHECK-SAME: arg 6 kind=scalar type=i2\0Aparam 11 arg=6 kind=scalar bits=2 offset=72 size=1 align=1\0A\00")
  // CHECK-SAME: {addr_space = 1 : i32, alignment = 1 : i64}
  // CHECK-NOT: @__pipeline_mlir_abi_helper
  gpu.func @k(%a: i1, %b: i8, %c: i16, %d: memref<?x32xf32>, %e: memref<4xf32>, %t: !desc, %n: i2) kernel {
    gpu.return
  }
  gpu.func @helper(%a: i16, %e: memref<4xf32>) {
    gpu.return
  }
}

// Without the bare-pointer convention a memref is its whole descriptor:
// the allocated and the aligned pointers, the offset, the sizes, the
// strides.
// DESC-LABEL: gpu.module @m
// DESC: @__pipeline_mlir_abi_k("abi version=1 args=7 params=17 bytes=113\0A
// DESC-SAME: arg 3 kind=memref rank=2 type=memref<?x32xf32>\0A
// DESC-SAME: param 3 arg=3 kind=memref field=allocated offset=8 size=8 align=8\0A
// DESC-SAME: param 4 arg=3 kind=memref field=aligned offset=16 size=8 align=8\0A
// DESC-SAME: param 5 arg=3 kind=memref field=offset offset=24 size=8 align=8\0A
// DESC-SAME: param 9 arg=3 kind=memref field=stride dim=1 offset=56 size=8 align=8\0A
// DESC-SAME: arg 4 kind=memref rank=1 type=memref<4xf32>\0A
// DESC-SAME: param 10 arg=4 kind=memref field=allocated offset=64 size=8 align=8\0A
// DESC-SAME: param 14 arg=4 kind=memref field=stride dim=0 offset=96 size=8 align=8\0A
// DESC-SAME: param 16 arg=6 kind=scalar bits=2 offset=112 size=1 align=1\0A\00")

// -----

// Aggregates and vectors keep LLVM's layout: a vector<3xf32> is sixteen
// bytes aligned to sixteen, a struct as in C; an i33 travels in eight bytes.
gpu.module @m {
  // CHECK-LABEL: gpu.module @m
  // CHECK: @__pipeline_mlir_abi_v("abi version=1 args=4 params=4 bytes=48\0A
  // CHECK-SAME: arg 0 kind=scalar type=i8\0Aparam 0 arg=0 kind=scalar bits=8 offset=0 size=1 align=1\0A
  // CHECK-SAME: arg 1 kind=vector type=vector<3xf32>\0Aparam 1 arg=1 kind=vector offset=16 size=16 align=16\0A
  // CHECK-SAME: arg 2 kind=aggregate type=!llvm.struct<(i8, i32)>\0Aparam 2 arg=2 kind=aggregate offset=32 size=8 align=4\0A
  // CHECK-SAME: arg 3 kind=scalar type=i33\0Aparam 3 arg=3 kind=scalar bits=33 offset=40 size=8 align=8\0A
  // CHECK-SAME: \00")
  gpu.func @v(%a: i8, %b: vector<3xf32>, %c: !llvm.struct<(i8, i32)>, %d: i33) kernel {
    gpu.return
  }
}
