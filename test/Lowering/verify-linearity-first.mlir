// Both named pipelines and pipeline-compile run pipeline-verify-linearity
// before lowering anything: a leaked stage is reported at its source and
// nothing is written.
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm=chip=sm_90a 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s "-pipeline-lower-to-binary=chip=sm_90a format=isa" 2>&1 | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: not pipeline-compile %s --chip=sm_100a --emit=ptx -o %t/leak 2>&1 | FileCheck %s
// RUN: not ls %t/leak.ptx

!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @leaky(%flag: i1) kernel {
      %p = pipeline.create -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      // CHECK: error: stage handle leaks when the scf.if condition is false
      // CHECK: note: stage acquired here
      %s = pipeline.acquire_consumer %p : !P
      scf.if %flag {
        pipeline.release %s : !pipeline.stage<consumer, !P>
      }
      gpu.return
    }
  }
}
