//===- Passes.td - passes of the named pipelines -----------*- tablegen -*-===//
//
// Small passes that the named pipelines (Pipelines.h) run before lowering;
// each is usable alone.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_PIPELINES_PASSES_TD
#define PIPELINE_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def AttachNVVMTarget : Pass<"pipeline-attach-nvvm-target", "::mlir::ModuleOp"> {
  let summary = "set the #nvvm.target of every gpu.module to one chip";
  let description = [{
    Gives every `gpu.module` exactly one `#nvvm.target` with the given chip,
    PTX features and optimization level. Unlike upstream
    `nvvm-attach-target`, which appends a target, this pass replaces an
    `#nvvm.target` written in the input (keeping its triple, flags and link
    files), so that one kernel file compiles for any chip. Other targets
    are kept.

    The chip must be one the pipelines support (docs/lowering.md), the
    features must select a PTX ISA version the chip and LLVM accept (empty:
    the default PTX ISA version of the pipelines, or the chip's minimum if
    higher), and `opt-level` is 0 to 3.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_100a\"",
           "target chip">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "PTX features (e.g. +ptx88); empty: the pipelines' default PTX "
           "ISA version or the chip's minimum">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "LLVM and ptxas optimization level (0-3)">,
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def LegalizeKernelABI : Pass<"pipeline-legalize-kernel-abi", "::mlir::ModuleOp"> {
  let summary = "give gpu.func arguments the kernel ABI of pipeline-mlir";
  let description = [{
    Prepares the arguments of every `gpu.func` for the NVVM lowering:

    - A `!nvgpu.tensormap.descriptor` argument becomes an `!llvm.ptr` (the
      address of the 128-byte CUtensorMap in global memory), cast back to
      the descriptor type inside the function. Upstream's GPU-to-NVVM
      conversion cannot lower a descriptor-typed argument.
    - With `use-bare-ptr-memref-call-conv` (the pipelines' default), a
      memref argument of static shape and strides stays one pointer; a
      kernel's other strided memref argument becomes its aligned pointer,
      offset, sizes and strides (index-width integers), from which the
      kernel rebuilds the descriptor; an unranked or non-strided memref,
      or a dynamic one of a device function, is reported.
    - A kernel's scalar argument of a width NVPTX cannot pass (i2, i24,
      i33, i65; f4E2M1FN, f6E2M3FN, f6E3M2FN; vectors of them, i1 elements
      too) is widened to the next power of two and truncated inside.
    - Every `gpu.launch_func` of a rewritten kernel passes the new
      parameters.
    - f80 and tf32 arguments, and f80/f128 arithmetic in device code, are
      reported (LLVM's NVPTX backend aborts on them).
    - An argument or result of a type the GPU-to-NVVM conversion cannot
      pass (a tensor, a tuple, `none`, an async token) is reported the same
      way.
    - A host function whose signature has a memref in a GPU address space
      (workgroup, private) is an error: upstream's host conversion only
      prints an error for it and goes on.

    Every kernel's parameter layout is recorded for the launchers, as the
    launch contract is: the constant global `__pipeline_mlir_abi_<kernel>`
    of its gpu.module (text in global memory, a `.visible .global` of the
    PTX and a symbol of the cubin) says, per parameter, the argument it
    comes from, what it holds (a scalar of W bits, a vector, an aggregate,
    a pointer, a tensor map, a field of a memref descriptor: its pointer,
    offset, a size or a stride), its offset, size and alignment in the
    parameter buffer
    (include/pipeline-c/KernelLayout.h; docs/lowering.md, "Kernel ABI").
    The host runtime and the Python launcher pass arguments by it. A record
    already in the module (an earlier run) is kept.
  }];
  let statistics = [
    Statistic<"numDescriptors", "descriptor-arguments",
              "tensor map descriptor arguments passed as pointers">,
    Statistic<"numExpandedArguments", "expanded-arguments",
              "kernel arguments passed widened or as several parameters">,
  ];
  let options = [
    Option<"useBarePtrCallConv", "use-bare-ptr-memref-call-conv", "bool",
           /*default=*/"true",
           "check memref arguments for the bare-pointer calling convention">,
    Option<"ptxVersion", "ptx-version", "unsigned", /*default=*/"0",
           "PTX ISA version (times 10) for the kernel parameter limit; 0: "
           "read it from each gpu.module's #nvvm.target">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GpuModuleToBinary : Pass<"pipeline-gpu-module-to-binary", "::mlir::ModuleOp"> {
  let summary = "upstream gpu-module-to-binary, linking libdevice only where "
                "a gpu.module calls it";
  let description = [{
    Serializes every `gpu.module` to a `gpu.binary` as upstream's
    `gpu-module-to-binary` does, with one difference: the CUDA toolkit's
    libdevice (`nvvm/libdevice/libdevice.10.bc`) is needed only by a
    `gpu.module` that calls one of its functions (an `llvm.func` declaration
    named `__nv_*`, as `math.exp` becomes). Upstream's serializer always
    looks for it and reports "LibDevice path ... does not exist" on a
    machine without a toolkit, although PTX needs no toolkit at all. Here a
    module that calls libdevice gets an error naming the function and the
    file when the file is missing; any other module compiles without it.
  }];
  let options = [
    Option<"format", "format", "std::string", /*default=*/"\"isa\"",
           "isa (PTX), bin (cubin) or fatbin">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit directory (default: $CUDA_HOME, else $CUDA_PATH, "
           "else /usr/local/cuda)">,
  ];
}

def RecordLaunchContract
    : Pass<"pipeline-record-launch-contract", "::mlir::ModuleOp"> {
  let summary = "record each kernel's minimum dynamic shared memory for the launcher";
  let description = [{
    For every kernel (`gpu.func ... kernel`) whose dynamic shared memory
    (`gpu.dynamic_shared_memory`) holds pipeline barriers
    (`pipeline.create`), a TMEM allocation's word (`pipeline.tmem_create`)
    or views of a static type (`memref.view`) at offsets known at compile
    time, the end of the last of them is a lower bound of the dynamic
    shared memory the launch must give. The pass records it as the
    kernel's `pipeline.min_dynamic_smem` attribute and as a constant global
    of its gpu.module, `__pipeline_mlir_min_smem_<kernel>` (an `i64`, a
    `.visible .const` of the PTX and a symbol of the cubin), which the
    Python launcher and a C++ host read to refuse a launch with less
    before it hangs or faults. Offsets are constants, `pipeline.smem_bytes`
    and sums and products of those; a use at any other offset adds nothing
    (the bound stays a lower bound).

    It also records, for the tools that report on barriers, which pipeline
    each `pipeline.init_mbars` initializes: the constant global
    `__pipeline_mlir_barriers` of the symbol table, one line per init
    (its location, the pipeline's `name` or location, its full barriers
    and all its barriers); pipeline-sim names a barrier by pipeline, role
    and stage with it (`'ring' empty[2]`), matching the inits by their
    source lines, so it is recorded with `barrier-names` (the compile
    pipeline sets it with `--lineinfo`; the table holds source paths, which
    the PTX of a build without line information does not carry).
  }];
  let options = [
    Option<"barrierNames", "barrier-names", "bool", /*default=*/"false",
           "record the barrier-name table (__pipeline_mlir_barriers)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def ExternDynamicSharedMemory
    : Pass<"pipeline-extern-dynamic-shared-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "make dynamic shared memory an .extern .shared array";
  let description = [{
    Runs after convert-gpu-to-nvvm. Upstream lowers `gpu.dynamic_shared_memory`
    to an internal, zero-sized `llvm.mlir.global` in address space 3, which
    the NVPTX backend of LLVM 22 demotes to a one-byte static `.shared`
    variable. ptxas then places it among the static shared variables, so
    accesses through it alias them: on an H200, a kernel with a static
    mbarrier group saw the dynamic base at shared offset 0x400 and its
    barriers at 0x408.

    This pass gives those globals external linkage, so that they print as
    `.extern .shared .align A .b8 name[];` and the dynamic area starts after
    all static shared memory, aligned to `alignment` bytes (default 1024,
    the alignment of 128-byte-swizzled TMA tiles).
  }];
  let options = [
    Option<"alignment", "alignment", "unsigned", /*default=*/"1024",
           "alignment in bytes of the dynamic shared memory base">,
  ];
}


#endif // PIPELINE_PIPELINES_PASSES_TD
