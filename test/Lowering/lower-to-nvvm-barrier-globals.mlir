// Each pipeline's barriers are a shared-memory global of the gpu.module
// (2 x stages i64 words: the full and the empty barrier of every stage),
// created by convert-nvgpu-to-nvvm. That pass runs on the gpu.module, not
// on its functions in parallel: several kernels of one gpu.module each get
// their own global, with unique names, and each kernel addresses the one
// sized for its own stage count. The hang report's variant lowers the
// pipeline ops on the gpu.module first; the globals must come out the same.
// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a" | FileCheck %s
// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a hang-report=1000" | FileCheck %s

!P2 = !pipeline.pipeline<stages = 2>
!P3 = !pipeline.pipeline<stages = 3>
!P5 = !pipeline.pipeline<stages = 5>

// CHECK-DAG: llvm.mlir.global private @[[G4:__mbarrier[_0-9]*]]() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<4 x i64>
// CHECK-DAG: llvm.mlir.global private @[[G6:__mbarrier[_0-9]*]]() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<6 x i64>
// CHECK-DAG: llvm.mlir.global private @[[G10:__mbarrier[_0-9]*]]() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<10 x i64>
// CHECK-LABEL: llvm.func @k2(
// CHECK: llvm.mlir.addressof @[[G4]] : !llvm.ptr<3>
// CHECK-LABEL: llvm.func @k3(
// CHECK: llvm.mlir.addressof @[[G6]] : !llvm.ptr<3>
// CHECK-LABEL: llvm.func @k5(
// CHECK: llvm.mlir.addressof @[[G10]] : !llvm.ptr<3>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k2() kernel {
      %p = pipeline.create -> !P2
      pipeline.init_mbars %p producer 32 consumer 32 : !P2
      gpu.return
    }
    gpu.func @k3() kernel {
      %p = pipeline.create -> !P3
      pipeline.init_mbars %p producer 32 consumer 32 : !P3
      gpu.return
    }
    gpu.func @k5() kernel {
      %p = pipeline.create -> !P5
      pipeline.init_mbars %p producer 32 consumer 32 : !P5
      gpu.return
    }
  }
}
