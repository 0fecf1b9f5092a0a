// A chip error names where the chip came from. pipeline-compile and the
// named pipelines replace the input's #nvvm.target with the chip of their
// option (pipeline-attach-nvvm-target), so the error names --chip or the
// pipeline option, never the target written in the file; the lowering pass
// alone reads the chip from the gpu.module's #nvvm.target and says so.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/out 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm=chip=sm_90a -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not pipeline-opt %s -convert-pipeline-to-nvgpu -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not pipeline-opt %s -convert-pipeline-to-nvgpu=chip=sm_100a -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET

// The file's sm_90a target is replaced: for sm_100a the kernel compiles.
// RUN: pipeline-compile %s --chip=sm_100a --emit=ptx -o %t/sm100.ptx
// RUN: FileCheck %s --check-prefix=PTX --input-file=%t/sm100.ptx
// PTX: .target sm_100a
// PTX: tcgen05.commit

// CHIP: chip-origin.mlir:[[@LINE+13]]:5: error: 'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from --chip)
// CHIP-NOT: #nvvm.target
// PIPELINE: chip-origin.mlir:[[@LINE+11]]:5: error: 'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from the pipeline option chip)
// PIPELINE-NOT: #nvvm.target
// TARGET: chip-origin.mlir:[[@LINE+9]]:5: error: 'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from the #nvvm.target of gpu.module @m)

!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @k() kernel attributes {nvvm.reqntid = array<i32: 32, 1, 1>} {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %s = pipeline.acquire_producer %p : !P
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}
}
