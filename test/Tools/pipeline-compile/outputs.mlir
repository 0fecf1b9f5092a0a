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
// Without -o: the input's name in the current directory.
// RUN: cd %t && pipeline-compile %s --chip=sm_90a --emit=ptx && test -s %t/outputs.ptx

// All or nothing: a compile whose second gpu.module fails writes no file,
// and removes the files of an earlier run that it would have written.
// RUN: pipeline-compile %S/Inputs/second-fails.mlir --chip=sm_100a --emit=ptx -o %t/aon
// RUN: test -s %t/aon.first.ptx && test -s %t/aon.second.ptx
// RUN: not pipeline-compile %S/Inputs/second-fails.mlir --chip=sm_90a --emit=ptx -o %t/aon 2>&1 | FileCheck %s --check-prefix=AON
// RUN: not ls %t/aon.first.ptx %t/aon.second.ptx
// AON: error: 'pipeline.commit_mma' op needs tcgen05.commit
// A failing ptxas leaves no .ptx next to an old .cubin either.
// RUN: %if ptxas %{ pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -o %t/stale %}
// RUN: %if ptxas %{ not pipeline-compile %s --chip=sm_90a --cuda-path=%cuda_path -Xptxas --no-such-option -o %t/stale 2>&1 | FileCheck %s --check-prefix=PTXASFAIL %}
// RUN: %if ptxas %{ not ls %t/stale.ptx %t/stale.cubin %}
// PTXASFAIL: pipeline-compile: error: gpu.module @only: ptxas failed for sm_90a:

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
