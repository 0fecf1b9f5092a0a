// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu=chip=sm_90a -verify-diagnostics
// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu=chip=sm_100a | FileCheck %s

// Outside a gpu.module with an #nvvm.target, the pass option gives the
// chip; a module's target wins over it.

!P = !pipeline.pipeline<stages = 2>
// CHECK-LABEL: func.func @no_target_module
func.func @no_target_module() {
  %p = pipeline.create -> !P
  %s = pipeline.acquire_producer %p : !P
  // expected-error @+1 {{'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from the pass option chip)}}
  pipeline.commit_mma %s : !pipeline.stage<producer, !P>
  // CHECK: nvvm.tcgen05.commit
  pipeline.release %s : !pipeline.stage<producer, !P>
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @blackwell [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: gpu.func @target_wins
  gpu.func @target_wins() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_producer %p : !P
    // CHECK: nvvm.tcgen05.commit
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}
