//===- Passes.td - pipeline-mlir conversion passes ---------*- tablegen -*-===//

#ifndef PIPELINE_CONVERSION_PASSES_TD
#define PIPELINE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertPipelineToNVGPU : Pass<"convert-pipeline-to-nvgpu"> {
  let summary = "lower the pipeline dialect to nvgpu mbarrier ops, nvvm, scf and arith";
  let description = [{
    Lowers every `pipeline` op to upstream `nvgpu` mbarrier ops, `nvvm` ops
    where NVGPU has none (`mapa` + cluster-scope arrive, `fence.mbarrier_init`,
    `elect.sync`, `tcgen05.commit`, cluster barrier, single `try_wait`), and
    `scf` / `arith` / `memref` for the per-thread stage and phase state.

    The role state of each `pipeline.create` lives in four scalar
    `memref.alloca`s at the entry of its function (producer stage and phase,
    consumer stage and phase), initialized to (0, 1) and (0, 0) where the
    pipeline is created; mem2reg/SROA turn them into registers. Every
    pipeline value must therefore come from a `pipeline.create` in the same
    function: pipelines and stage handles passed as function arguments are
    rejected.

    The target chip is read from the `#nvvm.target` of the enclosing
    `gpu.module`, else from the `chip` option. Ops the chip lacks
    (`commit_mma` needs tcgen05, sm_100a) are reported with the op and the
    chip. docs/lowering.md gives the PTX that each op becomes.

    With `hang-report=N` every blocking wait keeps its fast path (one
    successful try_wait) and gets a bounded slow path: after N clock cycles
    one thread records the pipeline, role, stage, parity, lap, CTA and warp
    it waits on in host-visible memory and the kernel traps
    (docs/debugging.md). Without it the output is unchanged.

    With `check-only` the pass only checks what the lowering needs (every
    pipeline value from a pipeline op of the same function, pipeline ops in
    device code when the module has gpu.modules, chips that have the
    instructions) and leaves the IR unchanged: the named pipelines run it on
    the whole module first, then the lowering one gpu.module at a time.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "target chip (e.g. sm_100a) for ops outside a gpu.module with an "
           "#nvvm.target">,
    Option<"chipOrigin", "chip-origin", "std::string", /*default=*/"\"\"",
           "where chip comes from, named in the chip diagnostics (default: "
           "the pass option chip); a pipeline that gave every gpu.module an "
           "#nvvm.target of this chip names it for those targets too">,
    Option<"hangReport", "hang-report", "uint64_t", /*default=*/"0",
           "0: off. Else every blocking wait reports where it waits (to "
           "host-visible memory, decoded through the module's site table) "
           "once it has waited this many clock cycles, then traps">,
    Option<"hangKeepWaiting", "hang-keep-waiting", "bool",
           /*default=*/"false",
           "with hang-report: keep waiting after the report instead of "
           "trapping">,
    Option<"checkOnly", "check-only", "bool", /*default=*/"false",
           "only check the lowering's preconditions; change nothing">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // PIPELINE_CONVERSION_PASSES_TD
