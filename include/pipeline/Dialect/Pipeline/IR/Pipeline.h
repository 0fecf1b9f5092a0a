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
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
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

#include "pipeline/Dialect/Pipeline/IR/PipelineProtocol.h"

#include "pipeline/Dialect/Pipeline/IR/PipelineInterfaces.h.inc"

namespace pmlir {
/// The most shared memory one CTA can use on the supported chips (227 KiB on
/// sm_90 and sm_100): an upper bound for the barriers and payload tiles of a
/// pipeline type, which also keeps their byte counts far from overflowing.
constexpr uint64_t kMaxSharedMemoryBytes = 227 * 1024;

// The discardable attributes the dialect's passes hand each other. Each is
// checked where it sits by PipelineDialect::verifyOperationAttribute (type,
// value and the op it may sit on); any other `pipeline.*` attribute is an
// error.

/// The discardable attribute pipeline-unroll-stages puts on an op of copy j
/// of an unrolled loop body: the stage index (an i64, below the stages of
/// the op's pipeline) the op's role is at there, which the lowering turns
/// into a constant. On an op that reads or steps a role's stage.
inline constexpr const char *kKnownStageAttrName = "pipeline.known_stage";

/// The discardable unit attribute pipeline-unroll-stages (rotate-wait) puts
/// on the first acquire of an unrolled body whose wait it moved to the end
/// of the previous iteration and before the loop (as `wait_producer` /
/// `wait_consumer`): the lowering acquires without waiting. On an
/// acquire_producer / acquire_consumer without `ready`, or a produce /
/// consume / consume_explicit.
inline constexpr const char *kWaitedAheadAttrName = "pipeline.waited_ahead";

/// The discardable unit attribute convert-pipeline-to-nvgpu puts on the ops
/// that reach an input pipeline's barriers through another view
/// (annotateInputPipelines, PipelineToNVGPU.h); only where isInputPipeline
/// holds for the op's first operand.
inline constexpr const char *kInputPipelineAttrName = "pipeline.input_pipeline";

/// The discardable attribute pipeline-record-launch-contract puts on a
/// kernel: the least dynamic shared memory its launch must give, in bytes
/// (a positive i64). On a function.
inline constexpr const char *kMinDynamicSmemAttrName =
    "pipeline.min_dynamic_smem";
/// The least threads per block a kernel's roles need (the declared block, or
/// the least whole-warp block in which every role runs), recorded on the
/// kernel by pipeline-record-launch-contract; launchers refuse a smaller
/// block.
inline constexpr const char *kMinBlockSizeAttrName = "pipeline.min_block_size";

/// True if `type` lives in the GPU workgroup (shared) address space.
bool isWorkgroupMemRef(mlir::MemRefType type);

/// The bytes of a memref of static shape, counted in bits (sub-byte
/// elements pack), or none when its shape is dynamic or its bits are not
/// whole bytes: the bytes a TMA box of that shape delivers.
std::optional<int64_t> getStaticBytes(mlir::MemRefType type);

/// The barrier pipeline underneath a pipeline, tile pipeline, role or stage
/// type; null for any other type.
PipelineType getBasePipelineType(mlir::Type type);

/// True for a tile pipeline type or a stage type of a tile pipeline.
bool isTilePipelineType(mlir::Type type);

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

/// The pipeline value a stage handle was acquired from: the first operand
/// of the op that returned it (AcquiresStage) or whose region argument it
/// is (ScopedStage); null when it comes from elsewhere (a loop-carried
/// handle, a branch argument).
mlir::Value getStageSource(mlir::Value handle);

/// True if the barriers under `value` (a pipeline, tile pipeline, role or
/// stage value) belong to an input pipeline: a tile pipeline, or a
/// pipeline whose barriers some `input_tile_pipeline` view also reaches.
/// Which CTAs a consumer signal of a CTA pair reaches depends on it (both
/// CTAs for an input pipeline, the leader for an accumulator pipeline),
/// whichever view the signal goes through. A stage whose acquire is not in
/// sight counts by its type.
bool isInputPipeline(mlir::Value value);

/// isInputPipeline with the answer for each root pipeline kept in `roots`:
/// asking for every op of a function costs one walk of each pipeline's
/// users, not one per op (a pipeline with N ops has N users).
bool isInputPipeline(mlir::Value value,
                     llvm::DenseMap<mlir::Value, bool> &roots);

/// The protocol effects `op` declares (ProtocolOpInterface); none for an
/// op of another dialect.
ProtocolEffects getProtocolEffects(mlir::Operation *op);

/// The role `op` is about: its declared role, or the role of the stage
/// handle in its first operand; std::nullopt for an op about no role.
std::optional<Role> getProtocolRole(mlir::Operation *op);

/// True if `op` moves one item through `role` of the pipeline in its first
/// operand: an acquire, a scoped region or a step of the role itself (not
/// through a stage handle, not a drain).
bool isItemSite(mlir::Operation *op, Role role);

/// True if `op` waits on, or tries, the barrier `role` waits on (the
/// producer's `empty`, the consumer's `full`).
bool waitsOnRoleBarrier(mlir::Operation *op, Role role);

/// True if `op` arrives on the barrier `role` signals when it ends a stage
/// of pipeline type `type` (a release of a consumer stage of a pipeline
/// that is no tile pipeline; the exit of a `consume` region likewise).
bool signalsOnRelease(mlir::Operation *op, mlir::Type type);

/// True if `op` hands out the address of `role`'s barriers of the pipeline
/// in its first operand (producer_mbar, consumer_mbar; not through a
/// stage handle).
bool isBarrierAddressOf(mlir::Operation *op, Role role);

/// The sub-stage `op` names (its `sub_stage` attribute), else 0.
unsigned getSubStage(mlir::Operation *op);
/// True if `op` names a sub-stage (has a `sub_stage` attribute).
bool hasSubStage(mlir::Operation *op);

/// The election of an MmaCommit op (its optional second operand, an i1 that
/// picks the one thread that commits), or null: the lowering elects.
mlir::Value getMmaCommitElection(mlir::Operation *op);

/// The chip feature `op`'s lowering needs (ProtocolOpInterface).
ChipFeature getChipFeature(mlir::Operation *op);

/// The stage handle whose payload tile `v` is (a `pipeline.payload` result,
/// or a view of one), or null when it is not visibly one.
mlir::Value getPayloadStage(mlir::Value v);

/// True if `op` is a plain wait of a role: an acquire_producer /
/// acquire_consumer without `ready(...)`, or a produce / consume /
/// consume_explicit region (the waits `pipeline.waited_ahead` may mark).
bool isPlainAcquire(mlir::Operation *op);
} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_IR_PIPELINE_H
