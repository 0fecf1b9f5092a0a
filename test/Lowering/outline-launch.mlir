// RUN: pipeline-opt %s -split-input-file -verify-diagnostics -pipeline-lower-to-nvvm="chip=sm_90a" | FileCheck %s

// pipeline-lower-to-nvvm outlines gpu.launch bodies before anything else,
// so a pipeline created in the body is device code: the outlined kernel
// gets the target and the lowering, and its role state is in registers.

!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  // CHECK:     gpu.module @launch_kernel [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">]
  // CHECK:     llvm.func @launch_kernel
  // CHECK-NOT: llvm.alloca
  // CHECK:     nvvm.mbarrier.init
  // CHECK:     mbarrier.try_wait.parity
  // CHECK:     llvm.return
  func.func @launch() {
    %c1 = arith.constant 1 : index
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      %p = pipeline.create -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      pipeline.wait_producer %p : !P
      pipeline.consumer_step %p : !P
      gpu.terminator
    }
    return
  }
}

// -----

// A pipeline of the host cannot cross into the launch.
!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  func.func @host_pipeline() {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{'pipeline.create' op expects to be in device code (a function in a gpu.module), got host function @host_pipeline}}
    %p = pipeline.create -> !P
    // expected-error @+2 {{'gpu.launch_func' op expects pipeline, role and stage values to flow only into}}
    // expected-error @+1 {{'gpu.func' op expects no pipeline, role or stage handle in the signature}}
    gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
               threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      gpu.terminator
    }
    return
  }
}
