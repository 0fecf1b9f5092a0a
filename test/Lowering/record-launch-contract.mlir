// RUN: pipeline-opt %s -pipeline-record-launch-contract | FileCheck %s

// The dynamic shared memory a kernel needs at least: the end of the last
// pipeline barriers, TMEM word or static view at an offset known at compile
// time (constants, pipeline.smem_bytes, sums and products of them). A view
// at an offset only known at run time adds nothing.

!Smem = memref<?xi8, #gpu.address_space<workgroup>>
!P = !pipeline.pipeline<stages = 4>
!T = !pipeline.tmem<columns = 128, cta_group = 1>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.module @kernels
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_smem_ring(1088 : i64) {addr_space = 4 : i32, alignment = 8 : i64}
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_smem_views(5120 : i64) {addr_space = 4 : i32, alignment = 8 : i64}
    // CHECK-DAG: llvm.mlir.global external constant @__pipeline_mlir_min_smem_tmem(80 : i64) {addr_space = 4 : i32, alignment = 8 : i64}
    // CHECK-NOT: __pipeline_mlir_min_smem_none
    // CHECK-NOT: __pipeline_mlir_min_smem_helper

    // 64 bytes of barriers (4 stages x full and empty), then a 4 x 64 x i32
    // ring at pipeline.smem_bytes: 64 + 1024 = 1088.
    // CHECK: gpu.func @ring() kernel attributes {pipeline.min_dynamic_smem = 1088 : i64}
    gpu.func @ring() kernel {
      %c0 = arith.constant 0 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      %bytes = pipeline.smem_bytes !P
      %ring = memref.view %smem[%bytes][] : !Smem to memref<4x64xi32, #gpu.address_space<workgroup>>
      gpu.return
    }

    // Views at 1024 (4 KiB of bf16) and at 1024 + 2 x 512 = 2048 (a 3 KiB
    // tile: the end is 5120); a view at a run-time offset counts nothing.
    // CHECK: gpu.func @views(%{{.*}}: index) kernel attributes {pipeline.min_dynamic_smem = 5120 : i64}
    gpu.func @views(%dyn: index) kernel {
      %c1024 = arith.constant 1024 : index
      %c512 = arith.constant 512 : index
      %c2 = arith.constant 2 : index
      %twice = arith.muli %c2, %c512 : index
      %off = arith.addi %c1024, %twice : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %a = memref.view %smem[%c1024][] : !Smem to memref<32x64xbf16, #gpu.address_space<workgroup>>
      %b = memref.view %smem[%off][] : !Smem to memref<3072xi8, #gpu.address_space<workgroup>>
      %c = memref.view %smem[%dyn][] : !Smem to memref<65536xi8, #gpu.address_space<workgroup>>
      gpu.return
    }

    // A TMEM allocation's barrier and address word: 16 bytes at 64.
    // CHECK: gpu.func @tmem() kernel attributes {pipeline.min_dynamic_smem = 80 : i64}
    gpu.func @tmem() kernel {
      %c64 = arith.constant 64 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %t = pipeline.tmem_create in %smem[%c64] : !Smem -> !T
      gpu.return
    }

    // No dynamic shared memory: nothing recorded.
    // CHECK: gpu.func @none() kernel {
    gpu.func @none() kernel {
      gpu.return
    }

    // Not a kernel: nothing recorded.
    // CHECK: gpu.func @helper() {
    gpu.func @helper() {
      %c0 = arith.constant 0 : index
      %smem = gpu.dynamic_shared_memory : !Smem
      %p = pipeline.create in %smem[%c0] : !Smem -> !P
      gpu.return
    }
  }
}
