// A gpu.module's device functions (func.func, llvm.func after
// convert-func-to-llvm) and globals get the same lowering as its kernels:
// the pipeline nests its function passes on each kind of function, and a
// function kind it missed would keep memref, arith or cast ops that NVPTX
// cannot take.
// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a" | FileCheck %s \
// RUN:   --implicit-check-not=memref. --implicit-check-not=unrealized_conversion_cast \
// RUN:   --implicit-check-not=arith.

// The helper's subview at %i + 1 of a memref with offset 0 becomes one
// address: aligned pointer + (i + 1) elements.
// CHECK-LABEL: llvm.func @helper(
// CHECK-SAME:    %[[ALLOC:[a-z0-9]+]]: !llvm.ptr, %[[ALIGNED:[a-z0-9]+]]: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[I:[a-z0-9]+]]: i64) -> f32
// CHECK:         %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
// CHECK:         %[[J:.*]] = llvm.add %[[I]], %[[ONE]] : i64
// CHECK:         %[[ADDR:.*]] = llvm.getelementptr %[[ALIGNED]][%[[J]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK:         %[[V:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> f32
// CHECK:         %[[W:.*]] = llvm.fadd %[[V]], %[[V]] : f32
// CHECK:         llvm.return %[[W]] : f32
// CHECK-NEXT:  }
// CHECK-LABEL: llvm.func @k(
// CHECK:         llvm.call @helper(
// CHECK:       llvm.mlir.global internal @g()

module attributes {gpu.container_module} {
  gpu.module @m {
    func.func @helper(%m: memref<64xf32>, %i: index) -> f32 {
      %c1 = arith.constant 1 : index
      %j = arith.addi %i, %c1 : index
      %sub = memref.subview %m[%j] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1], offset: ?>>
      %c0 = arith.constant 0 : index
      %v = memref.load %sub[%c0] : memref<8xf32, strided<[1], offset: ?>>
      %w = arith.addf %v, %v : f32
      return %w : f32
    }
    gpu.func @k(%m: memref<64xf32>) kernel {
      %tid = gpu.thread_id x
      %v = func.call @helper(%m, %tid) : (memref<64xf32>, index) -> f32
      memref.store %v, %m[%tid] : memref<64xf32>
      gpu.return
    }
    llvm.mlir.global internal @g() : i32 {
      %0 = llvm.mlir.constant(7 : i32) : i32
      llvm.return %0 : i32
    }
  }
}
