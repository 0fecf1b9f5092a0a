// The named pipelines lower device code one gpu.module at a time, and in it
// one function at a time, and code outside gpu.modules one function at a
// time (nested pass managers), so that the compile time per kernel does
// not grow with the number of kernels (docs/benchmarks.md, "Compile
// time"). Only the checks, the outlining, the target, the ABI,
// convert-func-to-llvm and the host lowering of launches run on
// builtin.module, and only convert-gpu-to-nvvm and
// pipeline-extern-dynamic-shared-memory on gpu.module: a lowering pass
// listed there would walk every kernel of the file or of the gpu.module.
// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s
// RUN: pipeline-opt %s -pipeline-lower-to-binary="chip=sm_90a format=isa" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BINARY
// With a hang report the lowering of host-less kernels adds its site table
// to the module, so that one pass runs on the module.
// RUN: pipeline-opt %s -pipeline-lower-to-nvvm="chip=sm_90a hang-report=100" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=HANG

// The module level, in order: every line indented by two spaces.
// CHECK-LABEL: builtin.module(
// CHECK-NEXT:  {{^  }}pipeline-verify-linearity
// CHECK-NEXT:  {{^  }}pipeline-verify-protocol
// CHECK-NEXT:  {{^  }}gpu-kernel-outlining
// CHECK-NEXT:  {{^  }}pipeline-record-launch-contract
// CHECK-NEXT:  {{^  }}pipeline-attach-nvvm-target
// CHECK-NEXT:  {{^  }}pipeline-legalize-kernel-abi
// CHECK-NEXT:  {{^  }}convert-pipeline-to-nvgpu{check-only=true
// CHECK-NEXT:  {{^  }}gpu.module(
// CHECK-NEXT:  {{^    }}gpu.func(
// CHECK-NEXT:  {{^      }}pipeline-unroll-stages
// CHECK-NEXT:  {{^      }}convert-pipeline-to-nvgpu{check-only=false
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}func.func(
// CHECK-NEXT:  {{^      }}pipeline-unroll-stages
// CHECK-NEXT:  {{^      }}convert-pipeline-to-nvgpu{check-only=false
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}llvm.func(
// CHECK-NEXT:  {{^      }}pipeline-unroll-stages
// CHECK-NEXT:  {{^      }}convert-pipeline-to-nvgpu{check-only=false
// CHECK-NEXT:  {{^    }}),
// convert-nvgpu-to-nvvm writes the barrier globals into the symbol table:
// on the gpu.module, never on its functions in parallel.
// CHECK-NEXT:  {{^    }}convert-nvgpu-to-nvvm
// CHECK-NEXT:  {{^    }}gpu.func(
// CHECK-NEXT:  {{^      }}convert-vector-to-scf
// CHECK-NEXT:  {{^      }}convert-scf-to-cf
// CHECK-NEXT:  {{^      }}convert-nvvm-to-llvm
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}func.func(
// CHECK-NEXT:  {{^      }}convert-vector-to-scf
// CHECK:       {{^      }}convert-nvvm-to-llvm
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}llvm.func(
// CHECK-NEXT:  {{^      }}convert-vector-to-scf
// CHECK:       {{^      }}convert-nvvm-to-llvm
// CHECK-NEXT:  {{^    }})
// CHECK-NEXT:  {{^  }}),
// CHECK-NEXT:  {{^  }}func.func(
// CHECK-NEXT:  {{^    }}pipeline-unroll-stages
// CHECK-NEXT:  {{^    }}convert-pipeline-to-nvgpu{check-only=false
// CHECK-NEXT:  {{^  }}),
// CHECK-NEXT:  {{^  }}convert-nvgpu-to-nvvm
// CHECK-NEXT:  {{^  }}func.func(
// CHECK-NEXT:  {{^    }}convert-vector-to-scf
// CHECK:       {{^  }}),
// CHECK-NEXT:  {{^  }}convert-func-to-llvm
// CHECK-NEXT:  {{^  }}gpu.module(
// CHECK-NEXT:  {{^    }}gpu.func(
// CHECK-NEXT:  {{^      }}expand-strided-metadata
// CHECK:       {{^      }}cse
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}func.func(
// CHECK-NEXT:  {{^      }}expand-strided-metadata
// CHECK:       {{^      }}cse
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}llvm.func(
// CHECK-NEXT:  {{^      }}expand-strided-metadata
// CHECK:       {{^      }}cse
// CHECK-NEXT:  {{^    }}),
// CHECK-NEXT:  {{^    }}convert-gpu-to-nvvm
// CHECK-NEXT:  {{^    }}pipeline-extern-dynamic-shared-memory
// CHECK-NEXT:  {{^    }}llvm.func(
// CHECK-NEXT:  {{^      }}canonicalize
// CHECK:       {{^      }}mem2reg
// CHECK-NEXT:  {{^      }}canonicalize
// CHECK-NEXT:  {{^    }})
// CHECK-NEXT:  {{^  }}),
// CHECK-NEXT:  {{^  }}llvm.func(
// CHECK-NEXT:  {{^    }}expand-strided-metadata
// CHECK:       {{^    }}cse
// CHECK-NEXT:  {{^  }}),
// CHECK-NEXT:  {{^  }}gpu-to-llvm
// CHECK-NEXT:  {{^  }}reconcile-unrealized-casts
// BINARY-NEXT: {{^  }}pipeline-gpu-module-to-binary
// CHECK-NEXT:  {{^}})

// HANG-LABEL: builtin.module(
// HANG:       {{^  }}convert-pipeline-to-nvgpu{check-only=true
// HANG-NEXT:  {{^  }}gpu.module(
// HANG-NEXT:  {{^    }}convert-pipeline-to-nvgpu{check-only=false {{.*}} hang-report=100}
// HANG-NEXT:  {{^    }}convert-nvgpu-to-nvvm
// HANG-NEXT:  {{^    }}gpu.func(
// HANG-NEXT:  {{^      }}convert-vector-to-scf
// HANG:       {{^    }}llvm.func(
// HANG:       {{^    }})
// HANG-NEXT:  {{^  }}),
// HANG-NEXT:  {{^  }}convert-pipeline-to-nvgpu{check-only=false {{.*}} hang-report=100}
// HANG-NEXT:  {{^  }}convert-nvgpu-to-nvvm
// HANG-NEXT:  {{^  }}func.func(
// HANG-NEXT:  {{^    }}convert-vector-to-scf

module {
}
