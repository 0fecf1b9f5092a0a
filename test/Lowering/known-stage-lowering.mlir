// RUN: pipeline-opt %s -convert-pipeline-to-nvgpu -canonicalize | FileCheck %s

// What convert-pipeline-to-nvgpu makes of pipeline.known_stage (set by
// pipeline-unroll-stages): the stage is a constant (barrier index, handle),
// the step stores a constant stage and flips the phase only at the wrap,
// and the blocking wait is the convergent try_wait loop (nvvm intrinsic in
// an scf.while) instead of upstream's inline-asm loop.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @known
  gpu.func @known(%ring: memref<2xi32, #gpu.address_space<workgroup>>, %v: i32) kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    // Stage 1 of 2: wait on empty(1) = barrier 3, the slot index 1, step to
    // stage 0 with the phase flipped.
    pipeline.produce %p as %s : !P {
      %st = pipeline.index %s : !pipeline.stage<producer, !P>
      memref.store %v, %ring[%st] : memref<2xi32, #gpu.address_space<workgroup>>
      pipeline.arrive %s : !pipeline.stage<producer, !P>
    } attributes {pipeline.known_stage = 1 : i64}
    // No known stage: upstream's wait.
    pipeline.produce %p as %s : !P {
      pipeline.arrive %s : !pipeline.stage<producer, !P>
    }
    gpu.return
  }
  // CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-DAG:  %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG:  %[[C3:.*]] = arith.constant 3 : index
  // CHECK-DAG:  %[[TRUE:.*]] = arith.constant true
  // CHECK:      %[[PHASE:.*]] = memref.load %[[PPHASE:.*]][] : memref<i1>
  // CHECK:      %[[BAR:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[C3]]]
  // CHECK:      %[[PTR:.*]] = llvm.inttoptr %[[BAR]]
  // CHECK:      %[[PAR:.*]] = arith.extui %[[PHASE]] : i1 to i32
  // CHECK:      scf.while : () -> () {
  // CHECK-NEXT:   %[[READY:.*]] = nvvm.mbarrier.try_wait %[[PTR]], %[[PAR]], %{{.*}} : !llvm.ptr<3>, i32, i32 -> i1
  // CHECK-NEXT:   %[[WAITING:.*]] = arith.xori %[[READY]], %[[TRUE]] : i1
  // CHECK-NEXT:   scf.condition(%[[WAITING]])
  // CHECK:      memref.store %{{.*}}, %{{.*}}[%[[C1]]]
  // CHECK:      nvgpu.mbarrier.arrive %{{.*}}[%[[C1]]]
  // CHECK:      %[[PHASE2:.*]] = memref.load %[[PPHASE]][] : memref<i1>
  // CHECK:      %[[FLIP:.*]] = arith.xori %[[PHASE2]], %[[TRUE]] : i1
  // CHECK:      memref.store %[[C0]], %{{.*}}[] : memref<i32>
  // CHECK:      memref.store %[[FLIP]], %[[PPHASE]][] : memref<i1>
  // CHECK:      nvgpu.mbarrier.try_wait.parity
  // CHECK-NOT:  nvvm.mbarrier.try_wait
  // CHECK:      gpu.return
}
