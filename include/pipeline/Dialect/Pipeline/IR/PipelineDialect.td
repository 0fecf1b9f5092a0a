//===- PipelineDialect.td - pipeline dialect definition ----*- tablegen -*-===//
//
// The `pipeline` dialect: warp-specialized producer/consumer pipelines over
// shared-memory mbarriers, with linear stage handles.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_TD
#define PIPELINE_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Pipeline_Dialect : Dialect {
  let name = "pipeline";
  let cppNamespace = "::pmlir";
  let summary = "warp-specialized producer/consumer pipelines with linear stage handles";
  let description = [{
    The `pipeline` dialect models the N-stage producer/consumer pipelines that
    warp-specialized Hopper and Blackwell kernels build from shared-memory
    mbarriers: a `full` barrier per stage that the producer signals when the
    stage holds data, and an `empty` barrier per stage that the consumer
    signals when the stage may be overwritten.

    A kernel acquires a stage as a *stage handle*, a linear SSA value of type
    `!pipeline.stage<role, P>` that must be released exactly once on every
    path (checked by `pipeline-verify-linearity`). The per-thread role state
    (stage index and phase bit) is implicit in the IR, as in the reference
    Mojo API, and kept in registers by the lowering.
  }];
  let dependentDialects = [
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect"
  ];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // The discardable `pipeline.*` attributes the passes hand each other
  // (Pipeline.h) are verified where they sit.
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
  }];
}

def Pipeline_Role : I32EnumAttr<"Role", "pipeline role", [
    I32EnumAttrCase<"producer", 0>,
    I32EnumAttrCase<"consumer", 1>
  ]> {
  let cppNamespace = "::pmlir";
  let genSpecializedAttr = 0;
}

def Pipeline_RoleAttr : EnumAttr<Pipeline_Dialect, Pipeline_Role, "role">;

#endif // PIPELINE_DIALECT_TD
