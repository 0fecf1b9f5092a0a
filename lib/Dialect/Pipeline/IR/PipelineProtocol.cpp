//===- PipelineProtocol.cpp - queries of the protocol effects ---*- C++ -*-===//
//
// The questions the checkers, pipeline-unroll-stages and the lowering ask
// about an op's protocol effects, answered from what the op declares in ODS
// (ProtocolOpInterface, PipelineProtocol.h).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

#include <variant>

using namespace mlir;
using namespace pmlir;

ProtocolEffects pmlir::getProtocolEffects(Operation *op) {
  if (auto iface = dyn_cast<ProtocolOpInterface>(op))
    return iface.getProtocolEffects();
  return {};
}

ChipFeature pmlir::getChipFeature(Operation *op) {
  if (auto iface = dyn_cast<ProtocolOpInterface>(op))
    return iface.getChipFeature();
  return ChipFeature::None;
}

std::optional<Role> pmlir::getProtocolRole(Operation *op) {
  switch (getProtocolEffects(op).role) {
  case ProtocolRole::None:
    return std::nullopt;
  case ProtocolRole::Producer:
    return Role::producer;
  case ProtocolRole::Consumer:
    return Role::consumer;
  case ProtocolRole::OfStage:
    if (op->getNumOperands() == 0)
      return std::nullopt;
    if (auto stage = dyn_cast<StageType>(op->getOperand(0).getType()))
      return stage.getRole();
    return std::nullopt;
  }
  return std::nullopt;
}

bool pmlir::isItemSite(Operation *op, Role role) {
  ProtocolEffects effects = getProtocolEffects(op);
  return effects.role != ProtocolRole::OfStage &&
         (effects.step == ProtocolStep::AtAcquire ||
          effects.step == ProtocolStep::Always) &&
         getProtocolRole(op) == role;
}

bool pmlir::waitsOnRoleBarrier(Operation *op, Role role) {
  return getProtocolEffects(op).wait != ProtocolWait::None &&
         getProtocolRole(op) == role;
}

bool pmlir::signalsOnRelease(Operation *op, Type type) {
  ProtocolSignal signal = getProtocolEffects(op).signal;
  if (signal != ProtocolSignal::Release && signal != ProtocolSignal::RegionExit)
    return false;
  return getProtocolRole(op) == Role::consumer && !isTilePipelineType(type);
}

bool pmlir::isTilePipelineType(Type type) {
  if (auto stage = dyn_cast<StageType>(type))
    type = stage.getPipeline();
  return isa<TilePipelineType>(type);
}

Value pmlir::getStageSource(Value handle) {
  if (auto arg = dyn_cast<BlockArgument>(handle)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (parent && parent->hasTrait<ScopedStage>() && arg.getArgNumber() == 0 &&
        arg.getOwner()->isEntryBlock())
      return parent->getOperand(0);
    return nullptr;
  }
  Operation *def = handle.getDefiningOp();
  if (def && def->hasTrait<AcquiresStage>())
    return def->getOperand(0);
  return nullptr;
}

Value pmlir::getMmaCommitElection(Operation *op) {
  if (getProtocolEffects(op).signal != ProtocolSignal::MmaCommit ||
      op->getNumOperands() < 2)
    return nullptr;
  return op->getOperand(1);
}

bool pmlir::isBarrierAddressOf(Operation *op, Role role) {
  ProtocolEffects effects = getProtocolEffects(op);
  return effects.signal == ProtocolSignal::Address &&
         effects.role != ProtocolRole::OfStage && getProtocolRole(op) == role;
}

bool pmlir::hasSubStage(Operation *op) {
  return isa<ProtocolOpInterface>(op) &&
         op->getName().getAttributeNames().end() !=
             llvm::find(op->getName().getAttributeNames(), "sub_stage");
}

unsigned pmlir::getSubStage(Operation *op) {
  if (!hasSubStage(op))
    return 0;
  std::optional<Attribute> attr = op->getInherentAttr("sub_stage");
  auto value = attr ? dyn_cast_or_null<IntegerAttr>(*attr) : IntegerAttr();
  return value ? unsigned(value.getInt()) : 0;
}

/// True if a view of `pipeline` (through views) is a tile pipeline.
static bool hasTileView(Value pipeline, unsigned depth = 0) {
  if (depth > 8)
    return false;
  for (Operation *user : pipeline.getUsers()) {
    if (!user->hasTrait<PipelineView>())
      continue;
    Value view = user->getResult(0);
    if (isa<TilePipelineType>(view.getType()) || hasTileView(view, depth + 1))
      return true;
  }
  return false;
}

/// The root pipeline whose views decide isInputPipeline for `value`, or a
/// decision without one.
static std::variant<bool, Value> inputPipelineRoot(Value value) {
  if (isTilePipelineType(value.getType()))
    return true;
  if (isa<StageType>(value.getType())) {
    value = getStageSource(value);
    if (!value)
      return false;
    if (isTilePipelineType(value.getType()))
      return true;
  }
  return getRootPipeline(value);
}

bool pmlir::isInputPipeline(Value value) {
  auto root = inputPipelineRoot(value);
  if (auto *decided = std::get_if<bool>(&root))
    return *decided;
  return hasTileView(std::get<Value>(root));
}

bool pmlir::isInputPipeline(Value value, llvm::DenseMap<Value, bool> &roots) {
  auto root = inputPipelineRoot(value);
  if (auto *decided = std::get_if<bool>(&root))
    return *decided;
  Value pipeline = std::get<Value>(root);
  auto [it, inserted] = roots.try_emplace(pipeline, false);
  if (inserted)
    it->second = hasTileView(pipeline);
  return it->second;
}

Value pmlir::getPayloadStage(Value v) {
  for (unsigned guard = 0; v && guard < 64; ++guard) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return Value();
    if (auto payload = dyn_cast<PayloadOp>(def))
      return payload.getStage();
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return Value();
    v = view.getViewSource();
  }
  return Value();
}

bool pmlir::isPlainAcquire(Operation *op) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case<ProduceOp, ConsumeOp, ConsumeExplicitOp>([](auto) { return true; })
      .Case<AcquireProducerOp, AcquireConsumerOp>(
          [](auto acquire) { return !acquire.getReady(); })
      .Default([](Operation *) { return false; });
}
