//===- Preconditions.cpp - checks before the pipeline lowering --*- C++ -*-===//
//
// checkPipelineToNVGPUPreconditions: what convert-pipeline-to-nvgpu (and the
// named pipelines, before anything runs) rejects with a diagnostic instead
// of an op left unconverted: chips without the barrier instructions, and
// pipeline values whose origin the lowering cannot follow.
//
//===----------------------------------------------------------------------===//

#include "PipelineToNVGPUInternal.h"
#include "pipeline/Conversion/PipelineToNVGPU/PipelineToNVGPU.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::nvgpu_lowering;

namespace {
/// The chips an op is compiled for, and where they come from.
struct TargetChips {
  SmallVector<std::string> chips;
  std::string origin;
};
} // namespace

/// The chips of `op`: the #nvvm.target chips of its gpu.module, else
/// `defaultChip`. A target of exactly `defaultChip` comes from
/// `chipOrigin` when that is given: a pipeline attached it from its chip
/// option (pipeline-attach-nvvm-target replaces the input's #nvvm.target).
static TargetChips getTargetChips(Operation *op, StringRef defaultChip,
                                  StringRef chipOrigin) {
  std::string optionOrigin =
      chipOrigin.empty() ? "the pass option chip" : chipOrigin.str();
  if (auto module = op->getParentOfType<gpu::GPUModuleOp>()) {
    TargetChips result;
    if (ArrayAttr targets = module.getTargetsAttr())
      for (Attribute target : targets)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
          result.chips.push_back(nvvm.getChip().str());
    if (!result.chips.empty()) {
      bool fromOption =
          !chipOrigin.empty() && !defaultChip.empty() &&
          llvm::all_of(result.chips, [&](const std::string &chip) {
            return chip == defaultChip;
          });
      result.origin =
          fromOption
              ? optionOrigin
              : ("the #nvvm.target of gpu.module @" + module.getSymName())
                    .str();
      return result;
    }
  }
  if (defaultChip.empty())
    return {};
  return {{defaultChip.str()}, optionOrigin};
}

bool pmlir::nvgpu_lowering::isChipName(StringRef chip) {
  return llvm::Regex("^sm_[0-9]+[af]?$").match(chip);
}

/// Checks that `op`'s lowering is supported on the chips of `targets`, by

/// The tcgen05 instruction a Tcgen05-feature op lowers to, for diagnostics.
static StringRef tcgen05Instruction(Operation *op) {
  if (isa<TmemAllocOp>(op))
    return "tcgen05.alloc";
  if (isa<TmemDeallocOp>(op))
    return "tcgen05.dealloc";
  if (isa<TmemReleaseOp>(op))
    return "tcgen05.fence";
  return "tcgen05.commit";
}

/// the chip table's capabilities (cuda::ChipInfo).
static LogicalResult checkChip(Operation *op, const TargetChips &targets) {
  using cuda::ChipCapability;
  for (const std::string &chip : targets.chips) {
    std::optional<ChipCapability> capabilities =
        cuda::getChipCapabilities(chip);
    if (!capabilities)
      return op->emitOpError() << "expects a chip such as sm_90a or sm_100a, "
                                  "got '"
                               << chip << "' (from " << targets.origin << ")";
    auto has = [&](ChipCapability capability) {
      return (unsigned(*capabilities) & unsigned(capability)) ==
             unsigned(capability);
    };
    ChipFeature feature = getChipFeature(op);
    StringRef instruction = tcgen05Instruction(op);
    if (feature == ChipFeature::ClusterLaunchControl &&
        !has(ChipCapability::Tcgen05))
      return op->emitOpError()
             << "needs clusterlaunchcontrol ("
             << cuda::getChipsWith(ChipCapability::Tcgen05) << "), which "
             << chip << " lacks (chip from " << targets.origin << ")";
    if (feature == ChipFeature::Tcgen05 && !has(ChipCapability::Tcgen05))
      return op->emitOpError()
             << "needs " << instruction << " ("
             << cuda::getChipsWith(ChipCapability::Tcgen05Lowering)
             << "), which " << chip << " lacks (chip from " << targets.origin
             << ")";
    if (feature == ChipFeature::Tcgen05 &&
        !has(ChipCapability::Tcgen05Lowering))
      return op->emitOpError()
             << "needs " << instruction << ", which " << chip
             << " has but MLIR 22's NVVM dialect (nvvm.tcgen05.commit) "
                "lowers only for "
             << cuda::getChipsWith(ChipCapability::Tcgen05Lowering)
             << " (chip from " << targets.origin << ")";
    if (auto create = dyn_cast<CreateOp>(op);
        create && create.getResult().getType().getTmem() &&
        !has(ChipCapability::Tcgen05Lowering))
      return op->emitOpError()
             << "expects tmem = false on " << chip
             << ": the tcgen05 fences of a tensor-memory accumulator "
                "pipeline need "
             << cuda::getChipsWith(ChipCapability::Tcgen05Lowering)
             << " (chip from " << targets.origin << ")";
    if (auto create = dyn_cast<CreateOp>(op);
        create && create.getResult().getType().getCtaGroup() == 2 &&
        !has(ChipCapability::Tcgen05))
      return op->emitOpError()
             << "expects cta_group = 1 on " << chip
             << ", which has no CTA-pair (tcgen05 cta_group::2) MMA; "
                "cta_group = 2 needs "
             << cuda::getChipsWith(ChipCapability::Tcgen05) << " (chip from "
             << targets.origin
             << "); for consumer signals that reach several CTAs of a "
                "cluster use release_ctas";
    if (feature != ChipFeature::None && !has(ChipCapability::Clusters))
      return op->emitOpError()
             << "needs sm_90 or newer ("
             << cuda::describeCapability(ChipCapability::Clusters) << "), got "
             << chip << " (chip from " << targets.origin << ")";
  }
  return success();
}

/// True for the non-pipeline ops whose pipeline-typed results and region
/// arguments the structural scf/cf conversions rewrite.
static bool isStructuralCarrier(Operation *op) {
  return isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::IndexSwitchOp>(op);
}

/// Describes where a value of a pipeline-dialect type comes from, if that
/// is not somewhere the lowering can follow back to a pipeline.create.
static std::optional<std::string> describeUnsupportedOrigin(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Arguments of non-entry blocks come from cf branches (their operands
    // are checked at the branch); function arguments are reported with the
    // signature.
    Block *block = arg.getOwner();
    Operation *parent = block->getParentOp();
    if (!block->isEntryBlock() || isa<FunctionOpInterface>(parent) ||
        isStructuralCarrier(parent) || parent->hasTrait<ScopedStage>())
      return std::nullopt;
    return ("a region argument of '" + parent->getName().getStringRef() + "'")
        .str();
  }
  Operation *def = value.getDefiningOp();
  // An op of an unregistered dialect has no dialect object.
  if (isa_and_present<PipelineDialect>(def->getDialect()) ||
      isStructuralCarrier(def))
    return std::nullopt;
  return ("a result of '" + def->getName().getStringRef() + "'").str();
}

/// True if `user` may take a pipeline-dialect operand: pipeline ops and
/// the scf/cf ops the structural conversions rewrite.
static bool isSupportedUser(Operation *user) {
  if (isa_and_present<PipelineDialect>(user->getDialect()))
    return true;
  if (isa<scf::ForOp, scf::WhileOp, scf::ConditionOp, cf::BranchOp,
          cf::CondBranchOp>(user))
    return true;
  if (isa<scf::YieldOp>(user))
    return isStructuralCarrier(user->getParentOp());
  return false;
}

/// The cta_group (1 or 2) of the tcgen05 instruction `op` lowers to, if it
/// has one: pipeline.commit_mma and pipeline.release_mma take their
/// pipeline's; upstream nvvm.tcgen05 ops their `group` or `ctaGroup`
/// attribute (cta_1 when a default-valued one is left out). ptxas rejects
/// a function whose tcgen05 instructions mix the two.
static std::optional<unsigned> getTcgen05CtaGroup(Operation *op) {
  if (getChipFeature(op) == ChipFeature::Tcgen05) {
    Type type = op->getOperand(0).getType();
    if (auto tmem = dyn_cast<TmemType>(type))
      return tmem.getCtaGroup();
    return getBasePipelineType(type).getCtaGroup();
  }
  if (!isa_and_present<NVVM::NVVMDialect>(op->getDialect()) ||
      !op->getName().getStringRef().starts_with("nvvm.tcgen05."))
    return std::nullopt;
  for (StringAttr name : op->getName().getAttributeNames()) {
    if (name.getValue() != "group" && name.getValue() != "ctaGroup")
      continue;
    std::optional<Attribute> value = op->getInherentAttr(name.getValue());
    auto group =
        dyn_cast_or_null<NVVM::CTAGroupKindAttr>(value ? *value : Attribute());
    return group && group.getValue() == NVVM::CTAGroupKind::CTA_2 ? 2 : 1;
  }
  return std::nullopt;
}

LogicalResult pmlir::checkPipelineToNVGPUPreconditions(Operation *root,
                                                       StringRef defaultChip,
                                                       StringRef chipOrigin) {
  bool failed = false;
  auto check = [&](Operation *op, Value value) {
    if (!isPipelineDialectType(value.getType()))
      return;
    if (std::optional<std::string> origin = describeUnsupportedOrigin(value)) {
      op->emitOpError() << "expects every pipeline, role and stage value to "
                           "come from a pipeline op in the same function "
                           "(the lowering keeps role state per "
                           "pipeline.create), got "
                        << *origin << " of type " << value.getType();
      failed = true;
    }
  };
  // Device code: with gpu.modules in the input, a pipeline op outside them
  // is host code, which has no shared memory or mbarriers.
  bool hasDeviceModules = false;
  root->walk([&](gpu::GPUModuleOp) {
    hasDeviceModules = true;
    return WalkResult::interrupt();
  });
  DenseSet<Operation *> reportedHostFuncs;
  root->walk([&](Operation *op) {
    if (isa_and_present<PipelineDialect>(op->getDialect())) {
      auto func = op->getParentOfType<FunctionOpInterface>();
      if (!func) {
        op->emitOpError() << "expects to be inside a function";
        failed = true;
        return;
      }
      if (op->getParentOfType<gpu::LaunchOp>()) {
        op->emitOpError() << "expects to be in a gpu.func: outline the "
                             "gpu.launch body first (gpu-kernel-outlining)";
        failed = true;
        return;
      }
      if (hasDeviceModules && !op->getParentOfType<gpu::GPUModuleOp>()) {
        // Once per host function.
        if (!reportedHostFuncs.insert(func).second)
          return;
        op->emitOpError() << "expects to be in device code (a function in a "
                             "gpu.module), got host function @"
                          << func.getName();
        failed = true;
        return;
      }
    }
    if (auto func = dyn_cast<FunctionOpInterface>(op)) {
      if (containsPipelineDialectType(func.getArgumentTypes()) ||
          containsPipelineDialectType(func.getResultTypes())) {
        op->emitOpError() << "expects no pipeline, role or stage handle in "
                             "the signature (the lowering keeps role state "
                             "per pipeline.create in the function), got "
                          << func.getFunctionType();
        failed = true;
      }
      return;
    }
    for (Value operand : op->getOperands()) {
      check(op, operand);
      if (isPipelineDialectType(operand.getType()) && !isSupportedUser(op)) {
        op->emitOpError()
            << "expects pipeline, role and stage values to flow only into "
               "pipeline ops, scf.for, scf.if, scf.while, scf.index_switch, "
               "cf.br and cf.cond_br (what the lowering rewrites), got an "
               "operand of type "
            << operand.getType();
        failed = true;
        return;
      }
    }
    // A multicast cluster's cross is where an input pipeline's consumer
    // signals go; the accumulator pipeline of a pair (plain, no tile view)
    // signals the leader and the pair.
    if (auto create = dyn_cast<CreateOp>(op)) {
      PipelineType type = create.getResult().getType();
      // The CTAs a consumer signal reaches must exist: a declared cluster
      // (nvvm.cluster_dim) holds whole groups of them.
      unsigned groupCtas =
          type.hasCross() ? type.getClusterM() * type.getClusterN()
                          : std::max(type.getCtaGroup(), type.getReleaseCtas());
      if (auto func = op->getParentOfType<FunctionOpInterface>()) {
        auto dims = func->getAttrOfType<DenseI32ArrayAttr>("nvvm.cluster_dim");
        int64_t ctas = 1;
        if (dims)
          for (int32_t d : dims.asArrayRef())
            ctas *= d;
        if (dims && groupCtas > 1 && (ctas < 1 || ctas % groupCtas != 0)) {
          op->emitOpError()
              << "expects the kernel's cluster (nvvm.cluster_dim: " << ctas
              << " CTAs) to hold whole groups of the " << groupCtas
              << " CTAs this pipeline's signals reach ("
              << (type.hasCross()
                      ? "cluster_m = " + std::to_string(type.getClusterM()) +
                            ", cluster_n = " +
                            std::to_string(type.getClusterN())
                  : type.getReleaseCtas() > 1
                      ? "release_ctas = " +
                            std::to_string(type.getReleaseCtas())
                      : std::string("cta_group = 2"))
              << "): a signal would reach a CTA that does not exist";
          failed = true;
        }
      }
      if (type.hasCross() && type.getCtaGroup() == 2 &&
          !isInputPipeline(create.getResult())) {
        op->emitOpError()
            << "expects cluster_m = cluster_n = 1 on a cta_group = 2 "
               "pipeline that no tile pipeline wraps (an accumulator "
               "pipeline: its consumer signals reach the leader, its MMA "
               "commits the pair), got cluster_m = "
            << type.getClusterM() << ", cluster_n = " << type.getClusterN()
            << "; the multicast cross belongs to the input tile pipeline";
        failed = true;
      }
    }
    // The CTAs of a cta_group = 2, release_ctas > 1 or multicast-cluster
    // pipeline arrive on each other's barriers: no CTA may arrive before
    // the other initialized them.
    if (auto init = dyn_cast<InitMbarsOp>(op);
        init && !init.getCluster() &&
        getBasePipelineType(init.getPipeline().getType()).hasRemoteSignals()) {
      op->emitOpError() << "expects 'cluster' for a pipeline whose CTAs "
                           "signal each other (cta_group = 2, release_ctas "
                           "> 1 or cluster_m x cluster_n > 1): they arrive on "
                           "each other's barriers, so "
                           "the whole cluster must synchronize after the "
                           "init";
      failed = true;
    }
    if (op->hasTrait<ScopedStage>() &&
        containsPipelineDialectType(op->getResultTypes())) {
      op->emitOpError() << "expects no pipeline value among the results of "
                           "a scoped region";
      failed = true;
    }
  });

  // Chips.
  DenseSet<Operation *> reportedOldChip;
  root->walk([&](Operation *op) {
    if (!isa_and_present<PipelineDialect>(op->getDialect()))
      return;
    TargetChips targets = getTargetChips(op, defaultChip, chipOrigin);
    bool isTcgen05Commit = getChipFeature(op) == ChipFeature::Tcgen05;
    if (isTcgen05Commit && targets.chips.empty()) {
      op->emitOpError() << "needs the target chip to lower to "
                        << tcgen05Instruction(op)
                        << ": attach #nvvm.target<chip = ...> "
                           "to the gpu.module or pass chip=...";
      failed = true;
    }
    // Report an old chip once per gpu.module (or root), not at every op.
    Operation *scope = op->getParentOfType<gpu::GPUModuleOp>();
    if (!scope)
      scope = root;
    // Reported at each op: the tcgen05 ops and the CTA-pair pipelines.
    bool reportEach =
        isTcgen05Commit ||
        (isa<CreateOp>(op) &&
         cast<CreateOp>(op).getResult().getType().getCtaGroup() == 2);
    if (!reportEach && reportedOldChip.contains(scope))
      return;
    if (mlir::failed(checkChip(op, targets))) {
      failed = true;
      if (!reportEach)
        reportedOldChip.insert(scope);
    }
  });

  // One cta_group for the tcgen05 instructions of each function: the
  // pipeline's tcgen05.commit ops and the upstream nvvm.tcgen05 ops that
  // the kernel writes itself (TMEM allocation, MMAs, copies).
  DenseMap<Operation *, std::pair<Operation *, unsigned>> firstTcgen05;
  root->walk([&](Operation *op) {
    std::optional<unsigned> group = getTcgen05CtaGroup(op);
    if (!group)
      return;
    auto func = op->getParentOfType<FunctionOpInterface>();
    auto [it, inserted] = firstTcgen05.try_emplace(func, op, *group);
    auto [first, firstGroup] = it->second;
    if (inserted || *group == firstGroup)
      return;
    InFlightDiagnostic diag = op->emitOpError();
    diag << "expects the tcgen05 instructions of a function to share one "
            "cta_group (ptxas rejects mixing .cta_group::1 and "
            ".cta_group::2), got cta_group "
         << *group << " after cta_group " << firstGroup;
    diag.attachNote(first->getLoc())
        << "first tcgen05 instruction with a cta_group here ("
        << first->getName() << ")";
    failed = true;
  });
  return failure(failed);
}
