// REQUIRES: ptxas
// pipeline-lower-to-binary ends in a gpu.binary holding PTX (isa), a cubin
// (bin, ELF) or a fatbin, for the chosen chip.
// RUN: pipeline-opt %s -pipeline-lower-to-binary="chip=sm_90a format=isa" | FileCheck %s --check-prefix=ISA
// RUN: pipeline-opt %s -pipeline-lower-to-binary="chip=sm_100a format=bin cuda-path=%cuda_path" | FileCheck %s --check-prefix=BIN
// RUN: pipeline-opt %s -pipeline-lower-to-binary="chip=sm_90a format=fatbin cuda-path=%cuda_path" | FileCheck %s --check-prefix=FATBIN

// ISA:    gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">, {{.*}}assembly = "{{.*}}.target sm_90a{{.*}}mbarrier.try_wait.parity
// BIN:    gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_100a", features = "+ptx86">, {{.*}}bin = "\7FELF
// FATBIN: gpu.binary @kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx86">, properties = {{{.*}}}, "P\EDU\BA

!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %p = pipeline.create -> !P
      pipeline.init_mbars %p producer 1 consumer 1 : !P
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consumer_signal_and_step %p : !P
      }
      gpu.return
    }
  }
}
