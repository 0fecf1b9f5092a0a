// -lineinfo: .file/.loc directives from the input's locations in the PTX
// (no DWARF sections), and ptxas -lineinfo for the cubin.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx -lineinfo -o %t/k.ptx
// RUN: FileCheck %s --input-file=%t/k.ptx
// RUN: pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/plain.ptx
// RUN: FileCheck %s --check-prefix=PLAIN --input-file=%t/plain.ptx
// RUN: %if ptxas %{ pipeline-compile %s --chip=sm_90a -lineinfo --cuda-path=%cuda_path -o %t/both %}
// RUN: %if ptxas %{ test -s %t/both.cubin %}
// The named pipelines' option.
// RUN: pipeline-opt %s -pipeline-lower-to-binary="chip=sm_90a format=isa line-info=true" | FileCheck %s --check-prefix=PIPELINE

// CHECK: .entry only(
// CHECK: .loc [[FILE:[0-9]+]] [[@LINE+14]] {{[0-9]+}}
// CHECK: .file [[FILE]] "{{.*}}lineinfo.mlir"
// CHECK-NOT: .section .debug_info
// PLAIN-NOT: .loc
// PLAIN-NOT: .file
// PIPELINE: .loc

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only(%a: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %a[%c0] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %a[%c0] : memref<4xf32>
      gpu.return
    }
  }
}
