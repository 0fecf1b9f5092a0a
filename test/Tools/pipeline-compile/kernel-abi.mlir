// Kernel arguments that NVPTX or the PTX parameter space cannot take are
// rejected by pipeline-legalize-kernel-abi before LLVM sees them: NVPTX
// aborts on an empty parameter ("Empty parameter types are not
// supported"), a huge vector runs LLVM's code generation out of memory, and
// ptxas rejects more than 32764 bytes of kernel parameters. Every function
// is reported; nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not pipeline-compile %s --chip=sm_90a --emit=ptx -o %t/k.ptx 2>&1 | FileCheck %s
// RUN: not test -e %t/k.ptx
// At the limit it compiles (PTX ISA 8.6: 32764 bytes).
// RUN: pipeline-compile %S/Inputs/param-limit.mlir --chip=sm_90a --emit=ptx -o %t/limit.ptx
// RUN: FileCheck %s --check-prefix=LIMIT --input-file=%t/limit.ptx
// LIMIT: .entry limit(
// LIMIT: .param .align 4 .b8 limit_param_0[32764]
// With PTX ISA 8.0 (before CUDA 12.1) the limit is 4096 bytes.
// RUN: not pipeline-compile %S/Inputs/param-limit.mlir --chip=sm_90a --features=+ptx80 --emit=ptx -o %t/old.ptx 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: error: 'gpu.func' op expects kernel arguments of at most 4096 bytes in all (the kernel parameter space with PTX ISA 8.0), got 32764 bytes

module attributes {gpu.container_module} {
gpu.module @m {
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects arguments of non-zero size (NVPTX cannot pass an empty parameter), got 'i0' for argument #1
  gpu.func @zero_int(%a: i32, %b: i0) kernel {
    gpu.return
  }
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects arguments of non-zero size (NVPTX cannot pass an empty parameter), got '!llvm.struct<()>' for argument #0
  gpu.func @empty_struct(%a: !llvm.struct<()>) kernel {
    gpu.return
  }
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects arguments of non-zero size (NVPTX cannot pass an empty parameter), got '!llvm.array<0 x i32>' for argument #0
  gpu.func @empty_array(%a: !llvm.array<0 x i32>) kernel {
    gpu.return
  }
  // A device function cannot take an empty parameter either.
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects arguments of non-zero size (NVPTX cannot pass an empty parameter), got '!llvm.struct<(i0)>' for argument #0
  gpu.func @device(%a: !llvm.struct<(i0)>) {
    gpu.return
  }
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects kernel arguments of at most 32764 bytes in all (the kernel parameter space with PTX ISA 8.6), got 4294967296 bytes; pass large data through global memory
  gpu.func @huge_vector(%a: vector<1073741824xf32>) kernel {
    gpu.return
  }
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects kernel arguments of at most 32764 bytes in all (the kernel parameter space with PTX ISA 8.6), got 4194304 bytes
  gpu.func @four_mb(%a: !llvm.array<1048576 x i32>) kernel {
    gpu.return
  }
  // CHECK: kernel-abi.mlir:[[@LINE+1]]:3: error: 'gpu.func' op expects kernel arguments of at most 32764 bytes in all (the kernel parameter space with PTX ISA 8.6), got 32768 bytes
  gpu.func @just_over(%a: !llvm.array<8190 x i32>, %b: i64) kernel {
    gpu.return
  }
}
}
