// RUN: pipeline-opt %s --pass-pipeline="builtin.module(gpu.module(pipeline-extern-dynamic-shared-memory))" | FileCheck %s
// RUN: pipeline-opt %s --pass-pipeline="builtin.module(gpu.module(pipeline-extern-dynamic-shared-memory{alignment=128}))" | FileCheck %s --check-prefix=A128
// RUN: not pipeline-opt %s --pass-pipeline="builtin.module(gpu.module(pipeline-extern-dynamic-shared-memory{alignment=24}))" 2>&1 | FileCheck %s --check-prefix=BAD

// The zero-sized internal shared global of gpu.dynamic_shared_memory
// becomes external (.extern .shared in PTX), aligned; other globals stay.

gpu.module @m {
  // CHECK: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  // A128: llvm.mlir.global external @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 128 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @__dynamic_shmem__0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  // CHECK: llvm.mlir.global private @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
  llvm.mlir.global private @__mbarrier() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
  // CHECK: llvm.mlir.global internal @global_empty() {addr_space = 0 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @global_empty() {alignment = 16 : i64} : !llvm.array<0 x i8>
}

// BAD: error: pipeline-extern-dynamic-shared-memory expects a power-of-two alignment, got 24
