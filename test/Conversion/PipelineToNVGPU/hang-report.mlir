// RUN: pipeline-opt %s -convert-pipeline-to-nvgpu=hang-report=1000 | FileCheck %s
// RUN: pipeline-opt %s -convert-pipeline-to-nvgpu | FileCheck %s --check-prefix=OFF

// The hang report: every op that blocks on a barrier is a site of the table
// the lowering emits into the kernel's module, in program order, with the
// pipeline's name (its `name` attribute, else its location), the location
// of the wait and the role that waits. The waits keep a fast path and get a
// clock-bounded slow path; the stage register carries the lap in its upper
// 16 bits. Without the option nothing of it is emitted.

!P = !pipeline.pipeline<stages = 2>
// CHECK-LABEL: gpu.module @m
// CHECK:       llvm.mlir.global external @__pipeline_hang_buffer(0 : i64) {addr_space = 1 : i32
// CHECK:       llvm.mlir.global external constant @__pipeline_hang_sites("0|ring|{{.*}}hang-report.mlir:[[@LINE+21]]:5|producer\0A1|pipeline at {{.*}}hang-report.mlir:[[@LINE+24]]:10|{{.*}}hang-report.mlir:[[@LINE+27]]:7|consumer\0A2|ring|{{.*}}hang-report.mlir:[[@LINE+30]]:10|consumer\0A\00")
// OFF-NOT:     __pipeline_hang
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k(%n: index, %w: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create {name = "ring"} -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    // The lap: the stage register's upper 16 bits.
    // CHECK:      %[[RAW:.*]] = memref.load
    // CHECK-NEXT: %[[PH:.*]] = memref.load
    // CHECK-NEXT: %[[MASK:.*]] = arith.constant 65535 : i32
    // CHECK-NEXT: %[[STAGE:.*]] = arith.andi %[[RAW]], %[[MASK]]
    // CHECK-NEXT: %[[SIXTEEN:.*]] = arith.constant 16 : i32
    // CHECK-NEXT: %[[LAP:.*]] = arith.shrui %[[RAW]], %[[SIXTEEN]]
    // CHECK:      nvvm.mbarrier.try_wait %{{.*}}, %{{.*}}, %{{.*}} : !llvm.ptr<3>, i32, i32 -> i1
    // CHECK:      nvvm.read.ptx.sreg.clock64
    // CHECK:      scf.while
    // CHECK:      llvm.cmpxchg
    // CHECK:      nvvm.memory.barrier <sys>
    // CHECK:      llvm.intr.trap
    pipeline.produce %p as %s : !P {
      pipeline.arrive %s : !pipeline.stage<producer, !P>
    }
    %q = pipeline.create -> !P
    pipeline.init_mbars %q producer 1 consumer 1 : !P
    scf.if %w {
      pipeline.wait_producer %q : !P
      pipeline.consumer_step %q : !P
    }
    %t = pipeline.acquire_consumer %p : !P
    pipeline.release %t : !pipeline.stage<consumer, !P>
    gpu.return
  }
}
