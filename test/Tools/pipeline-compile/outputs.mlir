// REQUIRES: ptxas
// One gpu.module: <out>.ptx and <out>.cubin (a .cubin or .ptx suffix on -o
// is dropped); several: <out>.<module>.ptx and <out>.<module>.cubin.
// RUN: rm -rf %t && mkdir -p %t
// RUN: pipeline-compile %S/Inputs/two-modules.mlir --chip=sm_90a --cuda-path=%cuda_path -o %t/two
// RUN: FileCheck %s --check-prefix=FIRST --input-file=%t/two.first.ptx
// RUN: FileCheck %s --check-prefix=SECOND --input-file=%t/two.second.ptx
// RUN: test -s %t/two.first.cubin
// RUN: test -s %t/two.second.cubin
// RUN: pipeline-compile %s --chip=sm_100a --cuda-path=%cuda_path -o %t/one.cubin
// RUN: FileCheck %s --check-prefix=ONE --input-file=%t/one.ptx
// RUN: test -s %t/one.cubin
// RUN: not pipeline-compile %S/Inputs/no-module.mlir --chip=sm_90a --cuda-path=%cuda_path -o %t/none 2>&1 | FileCheck %s --check-prefix=NONE

// FIRST:  .entry first_kernel(
// SECOND: .entry second_kernel(
// ONE:    .target sm_100a
// ONE:    .entry only(
// NONE:   pipeline-compile: error: expects at least one gpu.module in

module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @only() kernel {
      gpu.return
    }
  }
}
