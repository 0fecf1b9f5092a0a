//===- Pipeline.h - pipeline dialect ----------------------------*- C++ -*-===//
//
// Everything a user of the `pipeline` dialect includes: dialect, enums,
// types, the stage-use interface and the ops.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_IR_PIPELINE_H
#define PIPELINE_DIALECT_PIPELINE_IR_PIPELINE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "pipeline/Dialect/Pipeline/IR/PipelineDialect.h.inc"
#include "pipeline/Dialect/Pipeline/IR/PipelineEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineTypes.h.inc"

#include "pipeline/Dialect/Pipeline/IR/PipelineInterfaces.h.inc"

namespace pmlir {
/// The most shared memory one CTA can use on the supported chips (227 KiB on
/// sm_90 and sm_100): an upper bound for the barriers and payload tiles of a
/// pipeline type, which also keeps their byte counts far from overflowing.
constexpr uint64_t kMaxSharedMemoryBytes = 227 * 1024;

/// True if `type` lives in the GPU workgroup (shared) address space.
bool isWorkgroupMemRef(mlir::MemRefType type);

/// The barrier pipeline underneath a pipeline, tile pipeline, role or stage
/// type; null for any other type.
PipelineType getBasePipelineType(mlir::Type type);

/// The upstream `!nvgpu.mbarrier.group` holding all barriers of the pipeline
/// underneath `type` (see getBasePipelineType).
mlir::Type getMBarrierGroupType(mlir::Type type);
} // namespace pmlir

#define GET_OP_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineOps.h.inc"

namespace pmlir {
/// The pipeline value underneath a pipeline, tile pipeline or role value:
/// `value` followed back through `pipeline.role` and
/// `pipeline.input_tile_pipeline`.
mlir::Value getRootPipeline(mlir::Value value);

/// The `pipeline.create` that defines the pipeline underneath `value`, or
/// null when it does not come from one through the views.
CreateOp getCreateOp(mlir::Value value);
} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_IR_PIPELINE_H
