//===- PipelineDialect.cpp - pipeline dialect -------------------*- C++ -*-===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pmlir;

#include "pipeline/Dialect/Pipeline/IR/PipelineDialect.cpp.inc"
#include "pipeline/Dialect/Pipeline/IR/PipelineEnums.cpp.inc"
#include "pipeline/Dialect/Pipeline/IR/PipelineInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineAttrs.cpp.inc"

void PipelineDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "pipeline/Dialect/Pipeline/IR/PipelineOps.cpp.inc"
      >();
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pipeline/Dialect/Pipeline/IR/PipelineAttrs.cpp.inc"
      >();
}

Operation *PipelineDialect::materializeConstant(OpBuilder &builder,
                                                Attribute value, Type type,
                                                Location loc) {
  if (auto intAttr = dyn_cast<IntegerAttr>(value))
    if (type.isIndex())
      return arith::ConstantIndexOp::create(builder, loc, intAttr.getInt());
  return nullptr;
}

//===----------------------------------------------------------------------===//
// The discardable attributes the passes hand each other
//===----------------------------------------------------------------------===//

/// pipeline.known_stage: an i64 stage index below the stages of the op's
/// pipeline, on an op that reads or steps a role's stage (the lowering
/// makes it the stage index of the op's role).
static LogicalResult verifyKnownStage(Operation *op, Attribute value) {
  auto index = dyn_cast<IntegerAttr>(value);
  if (!index || !index.getType().isSignlessInteger(64))
    return op->emitOpError() << "expects '" << kKnownStageAttrName
                             << "' to be an i64 stage index, got " << value;
  ProtocolEffects effects = getProtocolEffects(op);
  bool readsStage = effects.step != ProtocolStep::None &&
                    effects.step != ProtocolStep::Drain &&
                    getProtocolRole(op) && op->getNumOperands() > 0;
  PipelineType type = readsStage
                          ? getBasePipelineType(op->getOperand(0).getType())
                          : PipelineType();
  if (!type)
    return op->emitOpError()
           << "expects '" << kKnownStageAttrName
           << "' only on a pipeline op that reads or steps a role's stage "
              "(an acquire, wait, release, step or stage query), got it on "
              "this op";
  int64_t stage = index.getInt();
  if (stage < 0 || stage >= int64_t(type.getStages()))
    return op->emitOpError()
           << "expects '" << kKnownStageAttrName << "' between 0 and "
           << type.getStages() - 1 << " (a stage of its pipeline's "
           << type.getStages() << "), got " << stage;
  return success();
}

/// pipeline.waited_ahead: a unit attribute on a plain acquire (no `ready`)
/// or scoped region, whose wait the lowering then leaves out.
static LogicalResult verifyWaitedAhead(Operation *op, Attribute value) {
  if (!isa<UnitAttr>(value))
    return op->emitOpError() << "expects '" << kWaitedAheadAttrName
                             << "' to be a unit attribute, got " << value;
  if (!isPlainAcquire(op))
    return op->emitOpError()
           << "expects '" << kWaitedAheadAttrName
           << "' only on an acquire_producer or acquire_consumer without "
              "ready(...), or on a produce, consume or consume_explicit, got "
              "it on this op";
  return success();
}

/// pipeline.input_pipeline: a unit attribute on a pipeline op whose first
/// operand, no tile pipeline, reaches an input pipeline's barriers.
static LogicalResult verifyInputPipeline(Operation *op, Attribute value) {
  if (!isa<UnitAttr>(value))
    return op->emitOpError() << "expects '" << kInputPipelineAttrName
                             << "' to be a unit attribute, got " << value;
  bool onPipeline = isa<ProtocolOpInterface>(op) && op->getNumOperands() > 0 &&
                    getBasePipelineType(op->getOperand(0).getType()) &&
                    !isTilePipelineType(op->getOperand(0).getType());
  if (!onPipeline)
    return op->emitOpError()
           << "expects '" << kInputPipelineAttrName
           << "' only on a pipeline op whose first operand is a pipeline, "
              "role or stage that is no tile pipeline, got it on this op";
  if (!isInputPipeline(op->getOperand(0)))
    return op->emitOpError()
           << "expects '" << kInputPipelineAttrName
           << "' only on an op of an input pipeline (one with an "
              "input_tile_pipeline view), got it on an op of a pipeline "
              "without one: its consumer signals would reach the wrong CTAs";
  return success();
}

/// pipeline.min_dynamic_smem and pipeline.min_block_size: a positive i64
/// count (of bytes, of threads) on a function (the kernel, a gpu.func or the
/// llvm.func it becomes).
static LogicalResult verifyLaunchContract(Operation *op, StringRef name,
                                          Attribute value, StringRef what) {
  auto count = dyn_cast<IntegerAttr>(value);
  if (!count || !count.getType().isSignlessInteger(64) ||
      count.getValue().isNonPositive())
    return op->emitOpError() << "expects '" << name << "' to be a positive i64 "
                             << what << ", got " << value;
  auto gpuFunc = dyn_cast<gpu::GPUFuncOp>(op);
  if (!isa<FunctionOpInterface>(op) || (gpuFunc && !gpuFunc.isKernel()))
    return op->emitOpError() << "expects '" << name
                             << "' only on a kernel function, got it on "
                                "this op";
  if (name == kMinBlockSizeAttrName && count.getValue().ugt(1024))
    return op->emitOpError()
           << "expects '" << name << "' of at most 1024 threads, got " << value;
  return success();
}

LogicalResult PipelineDialect::verifyOperationAttribute(Operation *op,
                                                        NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  Attribute value = attr.getValue();
  if (name == kKnownStageAttrName)
    return verifyKnownStage(op, value);
  if (name == kWaitedAheadAttrName)
    return verifyWaitedAhead(op, value);
  if (name == kInputPipelineAttrName)
    return verifyInputPipeline(op, value);
  if (name == kMinDynamicSmemAttrName)
    return verifyLaunchContract(op, name, value, "byte count");
  if (name == kMinBlockSizeAttrName)
    return verifyLaunchContract(op, name, value, "thread count");
  return op->emitOpError()
         << "expects a discardable attribute of the pipeline dialect ("
         << kKnownStageAttrName << ", " << kWaitedAheadAttrName << ", "
         << kInputPipelineAttrName << ", " << kMinDynamicSmemAttrName << ", "
         << kMinBlockSizeAttrName << "), got '" << name << "'";
}
