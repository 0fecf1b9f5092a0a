//===- PipelineToNVGPU.cpp - pipeline to nvgpu/nvvm lowering ----*- C++ -*-===//
//
// One conversion pattern per `pipeline` op. Barriers become `nvgpu` mbarrier
// ops (`nvvm` where NVGPU has no op); the implicit per-thread role state of
// each pipeline becomes four scalar allocas (see
// PipelineToNVGPUTypeConverter) that mem2reg promotes to registers.
//
// Barrier layout (stages S, producer sub-stages P, consumer sub-stages C):
//   full(s, j)  = s * P + j           producer signals, consumer waits
//   empty(s, j) = S * P + s * C + j   consumer signals, producer waits
// A producer waits on `empty` and signals `full`; a consumer waits on `full`
// and signals `empty`. Without an explicit sub-stage an op uses sub-stage 0,
// as the reference does.
//
// The checks that run before the conversion (chips, value origins) are in
// Preconditions.cpp, what the patterns emit (role state, barrier addressing,
// waits, arrivals) in Emission.cpp.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Conversion/PipelineToNVGPU/PipelineToNVGPU.h"
#include "PipelineToNVGPUInternal.h"
#include "pipeline/Conversion/Passes.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMRequiresSMTraits.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Regex.h"

namespace pmlir {
#define GEN_PASS_DEF_CONVERTPIPELINETONVGPU
#include "pipeline/Conversion/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;
using namespace pmlir::nvgpu_lowering;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool pmlir::nvgpu_lowering::isPipelineDialectType(Type type) {
  return isa<PipelineType, TilePipelineType, RoleType, StageType, TmemType>(
      type);
}

bool pmlir::nvgpu_lowering::containsPipelineDialectType(TypeRange types) {
  return llvm::any_of(types, isPipelineDialectType);
}

/// Appends the barrier group and the four role-state memrefs of `base`.
static void appendStateTypes(PipelineType base, SmallVectorImpl<Type> &types) {
  MLIRContext *ctx = base.getContext();
  Type stage = MemRefType::get({}, IntegerType::get(ctx, 32));
  Type phase = MemRefType::get({}, IntegerType::get(ctx, 1));
  types.push_back(getMBarrierGroupType(base));
  types.append({stage, phase, stage, phase});
}

/// Appends the payload memref types of `type` if it is a tile pipeline.
static void appendPayloadTypes(Type type, SmallVectorImpl<Type> &types) {
  if (auto tile = dyn_cast<TilePipelineType>(type))
    llvm::append_range(types, tile.getPayloadTypes());
}

PipelineToNVGPUTypeConverter::PipelineToNVGPUTypeConverter() {
  addConversion([](Type type) { return type; });
  addConversion(
      [](Type type,
         SmallVectorImpl<Type> &results) -> std::optional<LogicalResult> {
        if (!isPipelineDialectType(type))
          return std::nullopt;
        if (auto tmem = dyn_cast<TmemType>(type)) {
          // The deallocation barrier and the address word.
          auto space = gpu::AddressSpaceAttr::get(
              type.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
          results.push_back(
              nvgpu::MBarrierGroupType::get(type.getContext(), space, 2));
          return success();
        }
        if (auto stage = dyn_cast<StageType>(type)) {
          results.push_back(IndexType::get(type.getContext()));
          appendStateTypes(stage.getBasePipeline(), results);
          appendPayloadTypes(stage.getPipeline(), results);
          return success();
        }
        appendStateTypes(getBasePipelineType(type), results);
        appendPayloadTypes(type, results);
        return success();
      });
}

//===----------------------------------------------------------------------===//
// Base pattern
//===----------------------------------------------------------------------===//

namespace {
// Detect the accessor of an op's pipeline or role operand.
template <typename OpTy>
using HasPipelineOperand = decltype(std::declval<OpTy>().getPipeline());
template <typename OpTy>
using HasRoleOperand = decltype(std::declval<OpTy>().getRole());

/// Base of the patterns of the ops that read a pipeline, tile pipeline, role
/// or stage handle operand (`pipeline`, else `role`, else `stage`):
/// matchAndRewrite builds the Lowered view of that operand and hands it to
/// `rewrite`, which holds what is specific to the op.
template <typename OpTy> struct PipelineOpLowering : OpConversionPattern<OpTy> {
  using OneToNOpAdaptor = typename OpConversionPattern<OpTy>::OneToNOpAdaptor;

  PipelineOpLowering(const TypeConverter &typeConverter, MLIRContext *ctx,
                     const HangReport *hang = nullptr)
      : OpConversionPattern<OpTy>(typeConverter, ctx), hang(hang) {}

  /// Rewrites `op`, whose pipeline, role or stage operand lowers to `l`.
  virtual LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor,
                                const Lowered &l,
                                ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    Lowered l = lower(op, adaptor);
    l.hang = hang;
    l.op = op;
    l.isInput = l.isTile || op->hasAttr(kInputPipelineAttrName);
    return rewrite(op, adaptor, l, rewriter);
  }

private:
  const HangReport *hang;

  static Lowered lower(OpTy op, OneToNOpAdaptor adaptor) {
    if constexpr (llvm::is_detected<HasPipelineOperand, OpTy>::value)
      return Lowered(op.getPipeline().getType(), adaptor.getPipeline());
    else if constexpr (llvm::is_detected<HasRoleOperand, OpTy>::value)
      return Lowered(op.getRole().getType(), adaptor.getRole());
    else
      return Lowered(op.getStage().getType(), adaptor.getStage());
  }
};

/// Base of the patterns whose op leaves no value behind: `emit` builds the
/// op's lowering in its place, then the op is erased.
template <typename OpTy>
struct ErasingPipelineOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  /// Emits the lowering of `op`, whose pipeline, role or stage operand
  /// lowers to `l`.
  virtual void emit(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                    ConversionPatternRewriter &rewriter) const = 0;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const final {
    emit(op, adaptor, l, rewriter);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Setup: create, smem_bytes, init_mbars, input_tile_pipeline, role
//===----------------------------------------------------------------------===//

namespace {

/// pipeline.create: the barrier group (a workgroup global, or a view of the
/// user's buffer) and the role state, initialized to producer (0, 1) and
/// consumer (0, 0).
struct CreateOpLowering : OpConversionPattern<CreateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(CreateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    PipelineType type = op.getResult().getType();
    auto groupType = cast<nvgpu::MBarrierGroupType>(getMBarrierGroupType(type));
    auto func = op->getParentOfType<FunctionOpInterface>();
    if (!func || func.isExternal())
      return rewriter.notifyMatchFailure(op, "expects an enclosing function");

    Value barriers;
    if (op.getStorage()) {
      // A view of the user's i8 buffer as the barrier array.
      barriers = viewAsBarrierGroup(rewriter, loc, single(adaptor.getStorage()),
                                    single(adaptor.getOffset()),
                                    type.getNumBarriers(), groupType);
    } else {
      barriers = nvgpu::MBarrierCreateOp::create(rewriter, loc, groupType);
    }

    // Role state: scalar allocas at the function entry (where mem2reg and
    // SROA promote them), initialized here.
    SmallVector<Type> types;
    appendStateTypes(type, types);
    SmallVector<Value> values = {barriers};
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&func.getFunctionBody().front());
      for (Type stateType : ArrayRef(types).drop_front())
        values.push_back(memref::AllocaOp::create(rewriter, loc,
                                                  cast<MemRefType>(stateType)));
    }
    Lowered lowered(type, values);
    storeRole(rewriter, loc, lowered, Role::producer,
              {constInt(rewriter, loc, 0, 32), constInt(rewriter, loc, 1, 1)});
    storeRole(rewriter, loc, lowered, Role::consumer,
              {constInt(rewriter, loc, 0, 32), constInt(rewriter, loc, 0, 1)});
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// pipeline.smem_bytes: the constant it folds to.
struct SmemBytesOpLowering : OpConversionPattern<SmemBytesOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(SmemBytesOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, op.getBytes());
    return success();
  }
};

/// True if the cluster wait of an init may move past `op`: an op without
/// regions that neither touches a pipeline, nor synchronizes or reaches
/// into the cluster, nor calls code that might.
static bool mayPrecedeClusterWait(Operation *op) {
  if (op->getNumRegions() || op->hasTrait<OpTrait::IsTerminator>() ||
      isa<CallOpInterface, gpu::BarrierOp>(op) ||
      isa_and_present<PipelineDialect>(op->getDialect()))
    return false;
  auto isPipelineValue = [](Value v) {
    return isa<PipelineType, TilePipelineType, StageType, RoleType>(
        v.getType());
  };
  if (llvm::any_of(op->getOperands(), isPipelineValue) ||
      llvm::any_of(op->getResults(), isPipelineValue))
    return false;
  StringRef name = op->getName().getStringRef();
  if (name.starts_with("nvvm.") &&
      (name.contains("cluster") || name.contains("mapa") ||
       name.contains("tcgen05") || name.contains("mbarrier") ||
       name.contains("barrier")))
    return false;
  return !name.starts_with("nvgpu.");
}

/// A cluster init_mbars after `op` with only setup between them (ops the
/// cluster wait may move past, and CTA-level init_mbars): that one's arrive
/// and wait then also cover `op`'s inits.
static bool laterClusterInit(InitMbarsOp op) {
  for (Operation *n = op->getNextNode(); n; n = n->getNextNode()) {
    if (auto init = dyn_cast<InitMbarsOp>(n)) {
      if (init.getCluster())
        return true;
      continue;
    }
    if (!mayPrecedeClusterWait(n))
      return false;
  }
  return false;
}

/// pipeline.init_mbars: thread (0, 0, 0) of the CTA initializes every
/// barrier and fences the inits (fence.mbarrier_init.release.cluster), then
/// the CTA (bar.sync) or the cluster synchronizes before any thread uses a
/// barrier. The cluster's arrive (.relaxed: the fence released the inits)
/// is at the init and its wait as late as it can be, before the next op
/// that uses a pipeline or reaches into the cluster, so that the setup in
/// between overlaps the other CTAs' arrivals (CUTLASS
/// cluster_arrive_relaxed ... cluster_wait, the reference likewise).
/// Consecutive cluster inits share one arrive and wait, after the last:
/// one cluster barrier for the whole prologue's barriers, as CUTLASS does.
struct InitMbarsOpLowering : ErasingPipelineOpLowering<InitMbarsOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(InitMbarsOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value isFirst;
    for (gpu::Dimension dim :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      Value tid = gpu::ThreadIdOp::create(rewriter, loc, dim);
      Value isZero =
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, tid,
                                constIndex(rewriter, loc, 0));
      isFirst = isFirst ? arith::AndIOp::create(rewriter, loc, isFirst, isZero)
                              .getResult()
                        : isZero;
    }
    ifElected(rewriter, loc, isFirst, [&] {
      auto initRange = [&](int64_t begin, int64_t end, int64_t count) {
        Value countValue = constIndex(rewriter, loc, count);
        scf::ForOp::create(
            rewriter, loc, constIndex(rewriter, loc, begin),
            constIndex(rewriter, loc, end), constIndex(rewriter, loc, 1),
            ValueRange(),
            [&](OpBuilder &b, Location loc, Value id, ValueRange) {
              nvgpu::MBarrierInitOp::create(b, loc, l.barriers, countValue, id,
                                            /*predicate=*/Value());
              scf::YieldOp::create(b, loc);
            });
      };
      int64_t numFull = l.type.getNumFullBarriers();
      initRange(0, numFull, op.getProducerArriveCount());
      initRange(numFull, l.type.getNumBarriers(), op.getConsumerArriveCount());
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    if (op.getCluster()) {
      if (laterClusterInit(op))
        return;
      NVVM::ClusterArriveRelaxedOp::create(rewriter, loc,
                                           /*aligned=*/UnitAttr());
      Operation *waitBefore = op->getNextNode();
      while (waitBefore && mayPrecedeClusterWait(waitBefore))
        waitBefore = waitBefore->getNextNode();
      OpBuilder::InsertionGuard guard(rewriter);
      if (waitBefore)
        rewriter.setInsertionPoint(waitBefore);
      NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
    } else {
      gpu::BarrierOp::create(rewriter, loc);
    }
  }
};

/// pipeline.input_tile_pipeline: the pipeline's values plus the payloads.
struct InputTilePipelineOpLowering : OpConversionPattern<InputTilePipelineOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(InputTilePipelineOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> values(adaptor.getPipeline());
    for (ValueRange payload : adaptor.getPayload())
      values.push_back(single(payload));
    rewriter.replaceOpWithMultiple(op, {values});
    return success();
  }
};

/// pipeline.role: the same values as the pipeline (the view shares the
/// state).
struct RoleOpLowering : OpConversionPattern<RoleOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(RoleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(op, {adaptor.getPipeline()});
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Direct API
//===----------------------------------------------------------------------===//

/// wait_producer (consumer waits on full) and wait_consumer (producer waits
/// on empty), with the role's current stage and phase.
template <typename OpTy, Role role>
struct WaitCurrentOpLowering : ErasingPipelineOpLowering<OpTy> {
  using ErasingPipelineOpLowering<OpTy>::ErasingPipelineOpLowering;
  using typename ErasingPipelineOpLowering<OpTy>::OneToNOpAdaptor;

  void emit(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    waitCurrent(rewriter, op.getLoc(), l, role, /*sub=*/0);
  }
};

/// try_wait_* / try_acquire_*: one try_wait.parity on the barrier `role`
/// waits on, with its current stage and phase.
template <typename OpTy, Role role>
struct TryWaitOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RoleState state = loadRole(rewriter, loc, l, role);
    Value id = waitBarrierId(rewriter, loc, l.type, role,
                             toIndex(rewriter, loc, state.stage), 0);
    rewriter.replaceOp(
        op, tryWaitParity(rewriter, loc, l.barriers, id, state.phase));
    return success();
  }
};

/// wait_*_if_needed: the blocking wait, only when the try was not ready.
template <typename OpTy, Role role>
struct WaitIfNeededOpLowering : ErasingPipelineOpLowering<OpTy> {
  using ErasingPipelineOpLowering<OpTy>::ErasingPipelineOpLowering;
  using typename ErasingPipelineOpLowering<OpTy>::OneToNOpAdaptor;

  void emit(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    waitCurrentUnless(rewriter, op.getLoc(), l, role, /*sub=*/0,
                      single(adaptor.getAlreadyReady()));
  }
};

/// producer_step / consumer_step.
template <typename OpTy, Role role>
struct StepRoleOpLowering : ErasingPipelineOpLowering<OpTy> {
  using ErasingPipelineOpLowering<OpTy>::ErasingPipelineOpLowering;
  using typename ErasingPipelineOpLowering<OpTy>::OneToNOpAdaptor;

  void emit(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    stepRole(rewriter, op.getLoc(), l, role);
  }
};

/// producer_signal_and_step / consumer_signal_and_step: wait on the role's
/// wait barrier, arrive on its signal barrier (same stage), step.
template <typename OpTy, Role role>
struct SignalAndStepOpLowering : ErasingPipelineOpLowering<OpTy> {
  using ErasingPipelineOpLowering<OpTy>::ErasingPipelineOpLowering;
  using typename ErasingPipelineOpLowering<OpTy>::OneToNOpAdaptor;

  void emit(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RoleState state = waitCurrent(rewriter, loc, l, role, /*sub=*/0);
    signal(rewriter, loc, l, role, toIndex(rewriter, loc, state.stage), 0);
    stepRole(rewriter, loc, l, role);
  }
};

/// pipeline.drain_producer: S times, wait on empty(stage, 0) with the
/// producer phase, then step the producer (the reference drain_producer:
/// wait_consumer + producer_step; a consumer sub-stage that is not released
/// every round would make waiting on it hang once its phase wraps).
struct DrainProducerOpLowering : ErasingPipelineOpLowering<DrainProducerOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(DrainProducerOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    scf::ForOp::create(rewriter, loc, constIndex(rewriter, loc, 0),
                       constIndex(rewriter, loc, l.type.getStages()),
                       constIndex(rewriter, loc, 1), ValueRange(),
                       [&](OpBuilder &b, Location loc, Value, ValueRange) {
                         RoleState state = loadRole(b, loc, l, Role::producer);
                         Value stage = toIndex(b, loc, state.stage);
                         waitParity(b, loc, l, Role::producer,
                                    emptyBarrierId(b, loc, l.type, stage, 0),
                                    state);
                         stepRole(b, loc, l, Role::producer);
                         scf::YieldOp::create(b, loc);
                       });
    // After the last consumer's release: TMEM may be freed or reused.
    tmemFence(rewriter, loc, l, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  }
};

/// producer_mbar / consumer_mbar: the barrier group and the index of
/// full(stage, sub) / empty(stage, sub).
template <typename OpTy, Role role>
struct MbarOfOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Value id = signalBarrierId(rewriter, op.getLoc(), l.type, role,
                               single(adaptor.getStage()), op.getSubStage());
    rewriter.replaceOp(op, {l.barriers, id});
    return success();
  }
};

/// producer_stage / consumer_stage: the role's current stage index.
template <typename OpTy, Role role>
struct StageOfOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RoleState state = loadRole(rewriter, loc, l, role);
    rewriter.replaceOp(op, toIndex(rewriter, loc, state.stage));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Stage handles
//===----------------------------------------------------------------------===//

/// acquire_producer / acquire_consumer: wait (unless `ready`), return the
/// handle at the role's current stage.
template <typename OpTy, Role role>
struct AcquireStageOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Value ready = op.getReady() ? single(adaptor.getReady()) : Value();
    rewriter.replaceOpWithMultiple(
        op, {acquireStage(rewriter, op.getLoc(), l, role, 0, ready)});
    return success();
  }
};

/// pipeline.index: the handle's stage index.
struct IndexOpLowering : PipelineOpLowering<IndexOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(IndexOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, l.stage);
    return success();
  }
};

/// pipeline.mbar: the barrier the handle's role signals (producer: full,
/// consumer: empty) for its stage.
struct MbarOpLowering : PipelineOpLowering<MbarOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(MbarOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Role role = op.getStage().getType().getRole();
    Value id = signalBarrierId(rewriter, op.getLoc(), l.type, role, l.stage,
                               op.getSubStage());
    rewriter.replaceOp(op, {l.barriers, id});
    return success();
  }
};

/// pipeline.arrive: one arrival on the barrier the handle's role signals
/// (for a consumer, in each CTA of consumerTargets).
struct ArriveOpLowering : ErasingPipelineOpLowering<ArriveOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(ArriveOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    Role role = op.getStage().getType().getRole();
    signal(rewriter, op.getLoc(), l, role, l.stage, 0);
  }
};

/// pipeline.expect_tx: mbarrier.arrive.expect_tx on full(stage, 0) with the
/// given bytes, or for a tile pipeline the bytes of one stage's payload
/// (k_group_size tiles of every array) times cta_group; predicated on the
/// leader CTA of the pair when cta_group = 2.
struct ExpectTxOpLowering : ErasingPipelineOpLowering<ExpectTxOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(ExpectTxOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value bytes;
    if (op.getBytes()) {
      bytes = single(adaptor.getBytes());
    } else {
      auto tile = cast<TilePipelineType>(op.getStage().getType().getPipeline());
      bytes = constIndex(rewriter, loc,
                         tile.getStageBytes() * l.type.getCtaGroup());
    }
    Value id = fullBarrierId(rewriter, loc, l.type, l.stage, 0);
    // With a CTA pair only the leader arms its full barrier, for the bytes
    // of both CTAs: the peer's TMA completes the transaction there.
    Value isLeader;
    if (l.type.getCtaGroup() == 2) {
      Value rank =
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
      Value odd = arith::AndIOp::create(rewriter, loc, rank,
                                        constInt(rewriter, loc, 1, 32));
      isLeader = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                       odd, constInt(rewriter, loc, 0, 32));
    }
    nvgpu::MBarrierArriveExpectTxOp::create(rewriter, loc, l.barriers, bytes,
                                            id, isLeader);
  }
};

/// pipeline.tma_load: cp.async.bulk.tensor into dst, completing on the
/// stage's full barrier (the leader's with cta_group = 2).
struct TmaLoadOpLowering : ErasingPipelineOpLowering<TmaLoadOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(TmaLoadOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> coordinates;
    for (ValueRange c : adaptor.getCoordinates())
      coordinates.push_back(single(c));
    Value mask =
        op.getMulticastMask() ? single(adaptor.getMulticastMask()) : Value();
    tmaLoad(rewriter, op.getLoc(), l, single(adaptor.getDescriptor()),
            coordinates, single(adaptor.getDst()), mask);
  }
};

/// pipeline.clc_try_cancel: the producer of a clc pipeline.
struct ClcTryCancelOpLowering : ErasingPipelineOpLowering<ClcTryCancelOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(ClcTryCancelOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    clcTryCancel(rewriter, op.getLoc(), l);
  }
};

/// pipeline.clc_response: the stage's response, queried.
struct ClcResponseOpLowering : PipelineOpLowering<ClcResponseOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(ClcResponseOp op, OneToNOpAdaptor adaptor,
                        const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, clcResponse(rewriter, op.getLoc(), l));
    return success();
  }
};

/// pipeline.payload: subview [stage, 0, ...] x [1, k, tile...] of the
/// payload array, dropping the stage dimension.
struct PayloadOpLowering : PipelineOpLowering<PayloadOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(PayloadOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Value source = l.payload[op.getArray()];
    auto sourceType = cast<MemRefType>(source.getType());
    int64_t rank = sourceType.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    offsets[0] = l.stage;
    SmallVector<OpFoldResult> sizes;
    sizes.push_back(rewriter.getIndexAttr(1));
    for (int64_t dim : sourceType.getShape().drop_front())
      sizes.push_back(rewriter.getIndexAttr(dim));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<memref::SubViewOp>(
        op, op.getTiles().getType(), source, offsets, sizes, strides);
    return success();
  }
};

/// pipeline.release: a consumer of a plain pipeline arrives on empty(stage,
/// sub) then steps; a consumer of a tile pipeline and a producer only step.
struct ReleaseOpLowering : ErasingPipelineOpLowering<ReleaseOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(ReleaseOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    StageType type = op.getStage().getType();
    if (type.isConsumer() && consumerReleaseSignals(l))
      signal(rewriter, op.getLoc(), l, Role::consumer, l.stage,
             op.getSubStage());
    stepAtRelease(rewriter, op.getLoc(), l, type.getRole());
  }
};

/// pipeline.release_without_signal: step the consumer.
struct ReleaseWithoutSignalOpLowering
    : ErasingPipelineOpLowering<ReleaseWithoutSignalOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(ReleaseWithoutSignalOp op, OneToNOpAdaptor adaptor,
            const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    stepAtRelease(rewriter, op.getLoc(), l, Role::consumer);
  }
};

//===----------------------------------------------------------------------===//
// Scoped forms
//===----------------------------------------------------------------------===//

/// produce / consume / consume_explicit: acquire, inline the region with
/// the handle, then on exit `produce` steps, `consume` arrives on empty
/// (plain pipelines only, as release) and steps, `consume_explicit` steps.
template <typename OpTy, bool arriveOnExit>
struct ScopedOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    const Role role = OpTy::getRegionRole();
    SmallVector<Value> stage = acquireStage(rewriter, loc, l, role, 0);

    Block *body = &op.getBody().front();
    BlockArgument handle = op.getStage();
    SmallVector<Type> handleTypes;
    if (failed(this->getTypeConverter()->convertType(handle.getType(),
                                                     handleTypes)))
      return rewriter.notifyMatchFailure(op, "cannot convert the handle type");
    TypeConverter::SignatureConversion signature(1);
    signature.addInputs(0, handleTypes);
    body = rewriter.applySignatureConversion(body, signature,
                                             this->getTypeConverter());
    auto yield = cast<YieldOp>(body->getTerminator());
    rewriter.inlineBlockBefore(body, op, stage);

    rewriter.setInsertionPoint(yield);
    if (arriveOnExit && consumerReleaseSignals(l))
      signal(rewriter, loc, l, role, stage.front(), 0);
    stepAtRelease(rewriter, loc, l, role);
    rewriter.replaceOp(op, yield.getResults());
    rewriter.eraseOp(yield);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Role pipeline
//===----------------------------------------------------------------------===//

/// pipeline.acquire: the producer waits on empty(stage, sub_stage).
struct AcquireOpLowering : PipelineOpLowering<AcquireOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(AcquireOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op, {acquireStage(rewriter, op.getLoc(), l, Role::producer,
                          op.getSubStage())});
    return success();
  }
};

/// pipeline.wait: the consumer waits on full(stage, 0).
struct WaitOpLowering : PipelineOpLowering<WaitOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(WaitOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithMultiple(
        op, {acquireStage(rewriter, op.getLoc(), l, Role::consumer, 0)});
    return success();
  }
};

/// pipeline.commit: arrive on full(stage, 0), step (the reference
/// RolePipeline.commit arrives on producer_mbar() only).
struct CommitOpLowering : ErasingPipelineOpLowering<CommitOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(CommitOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    signal(rewriter, op.getLoc(), l, Role::producer, l.stage, 0);
    stepRole(rewriter, op.getLoc(), l, Role::producer);
  }
};

/// The CTAs a tcgen05.commit of `role` reaches. The MMA that issues it runs
/// in the leader CTA only, so with cta_group = 2 it reaches both CTAs of the
/// pair, for either role: commit_mma on the full barriers both CTAs'
/// epilogues wait on (CUTLASS PipelineUmmaAsync::producer_commit),
/// release_mma on the empty barriers both CTAs' producers wait on
/// (PipelineTmaUmmaAsync and PipelineUmmaConsumerAsync consumer_release).
/// Otherwise a release_mma reaches the consumer targets (release_ctas), a
/// commit_mma the executing CTA. A release_mma of an input pipeline with a
/// multicast cluster reaches the cross (CUTLASS PipelineTmaUmmaAsync's
/// block_id_mask_, which holds the pair).
static ConsumerTargets mmaCommitTargets(const Lowered &l, Role role) {
  if (role == Role::consumer &&
      consumerTargets(l).kind == ConsumerTargets::Cross)
    return consumerTargets(l);
  if (l.type.getCtaGroup() == 2)
    return {ConsumerTargets::Group, 2};
  if (role == Role::consumer)
    return consumerTargets(l);
  return {ConsumerTargets::Local, 1};
}

/// pipeline.commit_mma (producer) and pipeline.release_mma (consumer): in
/// the elected thread (elect.sync unless given), tcgen05.commit to the
/// barrier the handle's role signals, sub-stage 0 (full for the producer,
/// empty for the consumer), multicast to mmaCommitTargets.
template <typename OpTy, Role role>
struct MmaCommitOpLowering : ErasingPipelineOpLowering<OpTy> {
  using ErasingPipelineOpLowering<OpTy>::ErasingPipelineOpLowering;
  using typename ErasingPipelineOpLowering<OpTy>::OneToNOpAdaptor;

  void emit(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value elect = op.getElect() ? single(adaptor.getElect()) : Value();
    Value id = signalBarrierId(rewriter, loc, l.type, role, l.stage, 0);
    commitMmaTo(rewriter, loc, l, elect, id, mmaCommitTargets(l, role));
  }
};

/// pipeline.release_no_step: the consumer arrives on empty(stage, sub).
struct ReleaseNoStepOpLowering : ErasingPipelineOpLowering<ReleaseNoStepOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(ReleaseNoStepOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    signal(rewriter, op.getLoc(), l, Role::consumer, l.stage, op.getSubStage());
  }
};

/// pipeline.step: step the handle's role.
struct StepOpLowering : ErasingPipelineOpLowering<StepOp> {
  using ErasingPipelineOpLowering::ErasingPipelineOpLowering;

  void emit(StepOp op, OneToNOpAdaptor adaptor, const Lowered &l,
            ConversionPatternRewriter &rewriter) const override {
    stepAtRelease(rewriter, op.getLoc(), l, op.getStage().getType().getRole());
  }
};

} // namespace

namespace {
// One named pattern per op of the direct API, handle and scoped families,
// so that the populate list below reads op by op.
constexpr Role kProducer = Role::producer;
constexpr Role kConsumer = Role::consumer;
using WaitProducerOpLowering = WaitCurrentOpLowering<WaitProducerOp, kConsumer>;
using WaitConsumerOpLowering = WaitCurrentOpLowering<WaitConsumerOp, kProducer>;
using TryWaitProducerOpLowering =
    TryWaitOpLowering<TryWaitProducerOp, kConsumer>;
using TryWaitConsumerOpLowering =
    TryWaitOpLowering<TryWaitConsumerOp, kProducer>;
using TryAcquireProducerOpLowering =
    TryWaitOpLowering<TryAcquireProducerOp, kProducer>;
using TryAcquireConsumerOpLowering =
    TryWaitOpLowering<TryAcquireConsumerOp, kConsumer>;
using WaitProducerIfNeededOpLowering =
    WaitIfNeededOpLowering<WaitProducerIfNeededOp, kConsumer>;
using WaitConsumerIfNeededOpLowering =
    WaitIfNeededOpLowering<WaitConsumerIfNeededOp, kProducer>;
using ProducerStepOpLowering = StepRoleOpLowering<ProducerStepOp, kProducer>;
using ConsumerStepOpLowering = StepRoleOpLowering<ConsumerStepOp, kConsumer>;
using ProducerSignalAndStepOpLowering =
    SignalAndStepOpLowering<ProducerSignalAndStepOp, kProducer>;
using ConsumerSignalAndStepOpLowering =
    SignalAndStepOpLowering<ConsumerSignalAndStepOp, kConsumer>;
using ProducerMbarOpLowering = MbarOfOpLowering<ProducerMbarOp, kProducer>;
using ConsumerMbarOpLowering = MbarOfOpLowering<ConsumerMbarOp, kConsumer>;
using ProducerStageOpLowering = StageOfOpLowering<ProducerStageOp, kProducer>;
using ConsumerStageOpLowering = StageOfOpLowering<ConsumerStageOp, kConsumer>;
using AcquireProducerOpLowering =
    AcquireStageOpLowering<AcquireProducerOp, kProducer>;
using AcquireConsumerOpLowering =
    AcquireStageOpLowering<AcquireConsumerOp, kConsumer>;
using ProduceOpLowering = ScopedOpLowering<ProduceOp, /*arriveOnExit=*/false>;
using ConsumeOpLowering = ScopedOpLowering<ConsumeOp, /*arriveOnExit=*/true>;
using ConsumeExplicitOpLowering =
    ScopedOpLowering<ConsumeExplicitOp, /*arriveOnExit=*/false>;
using CommitMmaOpLowering = MmaCommitOpLowering<CommitMmaOp, kProducer>;
using ReleaseMmaOpLowering = MmaCommitOpLowering<ReleaseMmaOp, kConsumer>;
} // namespace

void pmlir::populatePipelineToNVGPUConversionPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns,
    const HangReport *hangReport) {
  // Setup.
  patterns.add<CreateOpLowering,            // pipeline.create
               SmemBytesOpLowering,         // pipeline.smem_bytes
               InitMbarsOpLowering,         // pipeline.init_mbars
               InputTilePipelineOpLowering, // pipeline.input_tile_pipeline
               RoleOpLowering               // pipeline.role
               >(typeConverter, patterns.getContext());
  // Tensor memory (TensorMemory.cpp).
  populateTensorMemoryPatterns(typeConverter, patterns);
  // The ops that wait (and the others that read a pipeline, role or stage)
  // get the hang report. Direct API first.
  patterns
      .add<WaitProducerOpLowering,          // pipeline.wait_producer
           WaitConsumerOpLowering,          // pipeline.wait_consumer
           TryWaitProducerOpLowering,       // pipeline.try_wait_producer
           TryWaitConsumerOpLowering,       // pipeline.try_wait_consumer
           TryAcquireProducerOpLowering,    // pipeline.try_acquire_producer
           TryAcquireConsumerOpLowering,    // pipeline.try_acquire_consumer
           WaitProducerIfNeededOpLowering,  // pipeline.wait_producer_if_needed
           WaitConsumerIfNeededOpLowering,  // pipeline.wait_consumer_if_needed
           ProducerStepOpLowering,          // pipeline.producer_step
           ConsumerStepOpLowering,          // pipeline.consumer_step
           ProducerSignalAndStepOpLowering, // pipeline.producer_signal_and_step
           ConsumerSignalAndStepOpLowering, // pipeline.consumer_signal_and_step
           DrainProducerOpLowering,         // pipeline.drain_producer
           ProducerMbarOpLowering,          // pipeline.producer_mbar
           ConsumerMbarOpLowering,          // pipeline.consumer_mbar
           ProducerStageOpLowering,         // pipeline.producer_stage
           ConsumerStageOpLowering,         // pipeline.consumer_stage
           // Stage handles.
           AcquireProducerOpLowering,      // pipeline.acquire_producer
           AcquireConsumerOpLowering,      // pipeline.acquire_consumer
           IndexOpLowering,                // pipeline.index
           MbarOpLowering,                 // pipeline.mbar
           ArriveOpLowering,               // pipeline.arrive
           ExpectTxOpLowering,             // pipeline.expect_tx
           TmaLoadOpLowering,              // pipeline.tma_load
           ClcTryCancelOpLowering,         // pipeline.clc_try_cancel
           ClcResponseOpLowering,          // pipeline.clc_response
           PayloadOpLowering,              // pipeline.payload
           ReleaseOpLowering,              // pipeline.release
           ReleaseWithoutSignalOpLowering, // pipeline.release_without_signal
           // Scoped forms; each also lowers its pipeline.yield.
           ProduceOpLowering,         // pipeline.produce
           ConsumeOpLowering,         // pipeline.consume
           ConsumeExplicitOpLowering, // pipeline.consume_explicit
           // Role pipeline.
           AcquireOpLowering,       // pipeline.acquire
           WaitOpLowering,          // pipeline.wait
           CommitOpLowering,        // pipeline.commit
           CommitMmaOpLowering,     // pipeline.commit_mma
           ReleaseMmaOpLowering,    // pipeline.release_mma
           ReleaseNoStepOpLowering, // pipeline.release_no_step
           StepOpLowering           // pipeline.step
           >(typeConverter, patterns.getContext(), hangReport);
}

void pmlir::annotateInputPipelines(Operation *root) {
  // One walk of each pipeline's users, whatever its number of ops.
  llvm::DenseMap<Value, bool> roots;
  root->walk([&](ProtocolOpInterface op) {
    if (op->getNumOperands() == 0)
      return;
    Value operand = op->getOperand(0);
    if (!getBasePipelineType(operand.getType()) ||
        isTilePipelineType(operand.getType()) ||
        !isInputPipeline(operand, roots))
      return;
    op->setAttr(kInputPipelineAttrName, UnitAttr::get(op->getContext()));
  });
}

//===----------------------------------------------------------------------===//
// Hang report sites
//===----------------------------------------------------------------------===//

/// The ops whose lowering blocks on a barrier, with the role that waits.
static std::optional<Role> waitingRole(Operation *op) {
  if (getProtocolEffects(op).wait != ProtocolWait::Blocks)
    return std::nullopt;
  return getProtocolRole(op);
}

/// `file:line:col` of a location, or its printed form.
static std::string describeLocation(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return describeLocation(name.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (isa<FileLineColLoc>(inner))
        return describeLocation(inner);
  std::string text;
  llvm::raw_string_ostream os(text);
  loc.print(os);
  return text;
}

void pmlir::prepareHangReport(Operation *root, HangReport &report) {
  // The sites of each symbol table (gpu.module, or the module of host-less
  // tests), in program order.
  llvm::MapVector<Operation *, std::string> tables;
  unsigned nextSite = 0;
  root->walk([&](Operation *op) {
    std::optional<Role> role = waitingRole(op);
    if (!role)
      return;
    Operation *symbolTable = SymbolTable::getNearestSymbolTable(op);
    if (!symbolTable)
      return;
    CreateOp create = getCreateOp(op->getOperand(0));
    std::string name = "(unknown)";
    if (create) {
      if (std::optional<StringRef> given = create.getName())
        name = given->str();
      else
        name = "pipeline at " + describeLocation(create.getLoc());
    }
    unsigned site = nextSite++;
    report.siteIds[op] = site;
    std::string &table = tables[symbolTable];
    // A line of the site table (HangRecord.h): id|pipeline|location|role.
    const char bar[] = {PMLIR_HANG_SITE_SEPARATOR, '\0'};
    table += (Twine(site) + bar + name + bar + describeLocation(op->getLoc()) +
              bar + stringifyRole(*role) + "\n")
                 .str();
  });
  for (auto &[symbolTable, table] : tables) {
    OpBuilder b(symbolTable->getContext());
    Block &body = symbolTable->getRegion(0).front();
    b.setInsertionPointToStart(&body);
    Location loc = symbolTable->getLoc();
    SymbolTable symbols(symbolTable);
    if (!symbols.lookup(kHangBufferSymbol))
      LLVM::GlobalOp::create(b, loc, b.getI64Type(), /*isConstant=*/false,
                             LLVM::Linkage::External, kHangBufferSymbol,
                             b.getI64IntegerAttr(0), /*alignment=*/8,
                             /*addrSpace=*/1);
    if (!symbols.lookup(kHangSitesSymbol)) {
      std::string text = table + '\0';
      auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
      LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                             LLVM::Linkage::External, kHangSitesSymbol,
                             b.getStringAttr(text), /*alignment=*/1,
                             /*addrSpace=*/1);
    }
  }
}

void pmlir::recordBarrierNames(Operation *root) {
  llvm::MapVector<Operation *, std::string> tables;
  root->walk([&](InitMbarsOp op) {
    Operation *symbolTable = SymbolTable::getNearestSymbolTable(op);
    if (!symbolTable)
      return;
    PipelineType type = getBasePipelineType(op.getPipeline().getType());
    CreateOp create = getCreateOp(op.getPipeline());
    if (!type || !create)
      return;
    std::string name;
    if (std::optional<StringRef> given = create.getName())
      name = given->str();
    else
      name = "pipeline at " + describeLocation(create.getLoc());
    const char bar[] = {PMLIR_HANG_SITE_SEPARATOR, '\0'};
    tables[symbolTable] += (describeLocation(op.getLoc()) + bar + name + bar +
                            Twine(type.getNumFullBarriers()) + bar +
                            Twine(type.getNumBarriers()) + "\n")
                               .str();
  });
  for (auto &[symbolTable, table] : tables) {
    SymbolTable symbols(symbolTable);
    if (symbols.lookup(PMLIR_BARRIER_NAMES_SYMBOL))
      continue;
    OpBuilder b(symbolTable->getContext());
    b.setInsertionPointToStart(&symbolTable->getRegion(0).front());
    std::string text = table + '\0';
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
    LLVM::GlobalOp::create(b, symbolTable->getLoc(), type, /*isConstant=*/true,
                           LLVM::Linkage::External, PMLIR_BARRIER_NAMES_SYMBOL,
                           b.getStringAttr(text), /*alignment=*/1,
                           /*addrSpace=*/1);
  }
}

void pmlir::configurePipelineToNVGPUConversionTarget(
    ConversionTarget &target, const TypeConverter &typeConverter,
    RewritePatternSet &patterns) {
  target.addIllegalDialect<PipelineDialect>();
  target.addLegalDialect<arith::ArithDialect, gpu::GPUDialect,
                         LLVM::LLVMDialect, memref::MemRefDialect,
                         NVVM::NVVMDialect, nvgpu::NVGPUDialect,
                         scf::SCFDialect, cf::ControlFlowDialect>();
  target.addLegalOp<UnrealizedConversionCastOp>();
  // scf/cf ops that carry pipeline values (loop-carried handles, branch
  // arguments) are rewritten to carry the lowered values instead.
  scf::populateSCFStructuralTypeConversionsAndLegality(typeConverter, patterns,
                                                       target);
  cf::populateCFStructuralTypeConversionsAndLegality(typeConverter, patterns,
                                                     target);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertPipelineToNVGPUPass
    : pmlir::impl::ConvertPipelineToNVGPUBase<ConvertPipelineToNVGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    if (!chip.empty() && !isChipName(chip)) {
      root->emitError() << "convert-pipeline-to-nvgpu expects chip=sm_<N>[a|f] "
                           "such as sm_100a, got '"
                        << chip << "'";
      return signalPassFailure();
    }
    if (failed(checkPipelineToNVGPUPreconditions(root, chip, chipOrigin)))
      return signalPassFailure();
    if (checkOnly) {
      markAllAnalysesPreserved();
      return;
    }

    MLIRContext *ctx = &getContext();
    HangReport report;
    report.cycles = hangReport;
    report.keepWaiting = hangKeepWaiting;
    if (report.cycles)
      prepareHangReport(root, report);
    annotateInputPipelines(root);
    PipelineToNVGPUTypeConverter typeConverter;
    RewritePatternSet patterns(ctx);
    ConversionTarget target(*ctx);
    populatePipelineToNVGPUConversionPatterns(typeConverter, patterns, &report);
    configurePipelineToNVGPUConversionTarget(target, typeConverter, patterns);
    if (failed(applyPartialConversion(root, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
