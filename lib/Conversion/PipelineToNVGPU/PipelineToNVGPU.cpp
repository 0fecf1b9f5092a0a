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
// Preconditions.cpp.
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

/// Suspend-time hint of the blocking waits, in nanoseconds (0x989680, the
/// value of CUTLASS and Mojo).
static constexpr int64_t kSuspendTimeHintNs = 10000000;

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

bool pmlir::nvgpu_lowering::isPipelineDialectType(Type type) {
  return isa<PipelineType, TilePipelineType, RoleType, StageType>(type);
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

namespace {
/// The lowered values of a pipeline, tile pipeline, role or stage handle
/// (the layout of PipelineToNVGPUTypeConverter).
struct Lowered {
  PipelineType type;
  /// True for a tile pipeline or a stage of one (the input pipeline: see
  /// ConsumerTargets).
  bool isTile;
  /// Stage index of a stage handle (index); null for other types.
  Value stage;
  Value barriers;
  Value prodStage, prodPhase, consStage, consPhase;
  SmallVector<Value> payload;
  /// The hang report, if on, and the op being lowered (its wait site).
  const HangReport *hang = nullptr;
  Operation *op = nullptr;

  bool hangReportOn() const { return hang && hang->cycles; }

  Lowered(Type original, ValueRange values) {
    type = getBasePipelineType(original);
    Type outer = original;
    if (auto stageType = dyn_cast<StageType>(original))
      outer = stageType.getPipeline();
    isTile = isa<TilePipelineType>(outer);
    if (isa<StageType>(original)) {
      stage = values.front();
      values = values.drop_front();
    }
    barriers = values[0];
    prodStage = values[1];
    prodPhase = values[2];
    consStage = values[3];
    consPhase = values[4];
    payload.assign(values.begin() + 5, values.end());
  }

  /// The values of a stage handle at stage index `stageIndex` of this
  /// pipeline.
  SmallVector<Value> makeStage(Value stageIndex) const {
    SmallVector<Value> values = {stageIndex, barriers,  prodStage,
                                 prodPhase,  consStage, consPhase};
    llvm::append_range(values, payload);
    return values;
  }
};

/// Per-thread (stage, phase) of one role. With the hang report on, the
/// stage register also counts the role's laps in its upper 16 bits (the
/// stage is its low 16 bits); `lap` is then that count, else null.
struct RoleState {
  Value stage; // i32
  Value phase; // i1
  Value lap;   // i32, hang report only
};

/// The stage register's bits that hold the stage when it also holds the lap.
static constexpr int64_t kLapShift = 16;
} // namespace

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

static Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static Value constInt(OpBuilder &b, Location loc, int64_t v, unsigned width) {
  return arith::ConstantIntOp::create(b, loc, v, width);
}

/// The stage index that pipeline-unroll-stages proved for the op being
/// lowered (kKnownStageAttrName), if any; never with the hang report.
static std::optional<int64_t> knownStage(const Lowered &l) {
  if (!l.op || l.hangReportOn())
    return std::nullopt;
  auto attr = l.op->getAttrOfType<IntegerAttr>(kKnownStageAttrName);
  if (!attr)
    return std::nullopt;
  return attr.getInt();
}

static RoleState loadRole(OpBuilder &b, Location loc, const Lowered &l,
                          Role role) {
  bool prod = role == Role::producer;
  if (std::optional<int64_t> known = knownStage(l)) {
    Value phase =
        memref::LoadOp::create(b, loc, prod ? l.prodPhase : l.consPhase);
    return {constInt(b, loc, *known, 32), phase, Value()};
  }
  Value raw = memref::LoadOp::create(b, loc, prod ? l.prodStage : l.consStage);
  Value phase =
      memref::LoadOp::create(b, loc, prod ? l.prodPhase : l.consPhase);
  if (!l.hangReportOn())
    return {raw, phase, Value()};
  Value stage = arith::AndIOp::create(
      b, loc, raw, constInt(b, loc, (int64_t(1) << kLapShift) - 1, 32));
  Value lap =
      arith::ShRUIOp::create(b, loc, raw, constInt(b, loc, kLapShift, 32));
  return {stage, phase, lap};
}

static void storeRole(OpBuilder &b, Location loc, const Lowered &l, Role role,
                      RoleState state) {
  bool prod = role == Role::producer;
  memref::StoreOp::create(b, loc, state.stage,
                          prod ? l.prodStage : l.consStage);
  memref::StoreOp::create(b, loc, state.phase,
                          prod ? l.prodPhase : l.consPhase);
}

/// stage += 1; if stage == S { stage = 0; phase ^= 1 } (and with the hang
/// report, lap += 1).
static void stepRole(OpBuilder &b, Location loc, const Lowered &l, Role role) {
  RoleState state = loadRole(b, loc, l, role);
  if (std::optional<int64_t> known = knownStage(l)) {
    // A known stage steps to a constant; only the wrap flips the phase.
    int64_t next = *known + 1;
    bool wrap = next == l.type.getStages();
    Value phase = state.phase;
    if (wrap)
      phase = arith::XOrIOp::create(b, loc, phase, constInt(b, loc, 1, 1));
    storeRole(b, loc, l, role,
              {constInt(b, loc, wrap ? 0 : next, 32), phase, Value()});
    return;
  }
  Value next =
      arith::AddIOp::create(b, loc, state.stage, constInt(b, loc, 1, 32));
  Value wrap = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                     constInt(b, loc, l.type.getStages(), 32));
  Value stage =
      arith::SelectOp::create(b, loc, wrap, constInt(b, loc, 0, 32), next);
  Value phase = arith::XOrIOp::create(b, loc, state.phase, wrap);
  if (state.lap) {
    Value lap = arith::AddIOp::create(
        b, loc, state.lap,
        arith::ExtUIOp::create(b, loc, b.getI32Type(), wrap));
    Value high =
        arith::ShLIOp::create(b, loc, lap, constInt(b, loc, kLapShift, 32));
    stage = arith::OrIOp::create(b, loc, high, stage);
  }
  storeRole(b, loc, l, role, {stage, phase, Value()});
}

/// True when `role` steps when it acquires a stage rather than when it
/// releases it: a consumer that may hold several stages (consumer_depth > 1)
/// advances its read position at each acquire, and each release signals the
/// stage its handle names (CUTLASS's separate read and release states).
static bool stepsAtAcquire(const Lowered &l, Role role) {
  return role == Role::consumer && l.type.getConsumerDepth() > 1;
}

/// Steps `role` at the end of a stage handle, unless it stepped at the
/// acquire.
static void stepAtRelease(OpBuilder &b, Location loc, const Lowered &l,
                          Role role) {
  if (!stepsAtAcquire(l, role))
    stepRole(b, loc, l, role);
}

static Value toIndex(OpBuilder &b, Location loc, Value stageI32) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), stageI32);
}

/// Index of full(stage, sub) in the barrier group.
static Value fullBarrierId(OpBuilder &b, Location loc, PipelineType type,
                           Value stage, unsigned sub) {
  Value id = stage;
  if (type.getProducerSubStages() != 1)
    id = arith::MulIOp::create(b, loc, id,
                               constIndex(b, loc, type.getProducerSubStages()));
  if (sub != 0)
    id = arith::AddIOp::create(b, loc, id, constIndex(b, loc, sub));
  return id;
}

/// Index of empty(stage, sub) in the barrier group.
static Value emptyBarrierId(OpBuilder &b, Location loc, PipelineType type,
                            Value stage, unsigned sub) {
  Value id = stage;
  if (type.getConsumerSubStages() != 1)
    id = arith::MulIOp::create(b, loc, id,
                               constIndex(b, loc, type.getConsumerSubStages()));
  int64_t base = type.getNumFullBarriers() + sub;
  return arith::AddIOp::create(b, loc, id, constIndex(b, loc, base));
}

/// The barrier `role` waits on: a producer waits on `empty`, a consumer on
/// `full`.
static Value waitBarrierId(OpBuilder &b, Location loc, PipelineType type,
                           Role role, Value stage, unsigned sub) {
  return role == Role::producer ? emptyBarrierId(b, loc, type, stage, sub)
                                : fullBarrierId(b, loc, type, stage, sub);
}

/// The barrier `role` signals: a producer signals `full`, a consumer
/// `empty`.
static Value signalBarrierId(OpBuilder &b, Location loc, PipelineType type,
                             Role role, Value stage, unsigned sub) {
  return role == Role::producer ? fullBarrierId(b, loc, type, stage, sub)
                                : emptyBarrierId(b, loc, type, stage, sub);
}

/// Shared-memory pointer to barrier `id`.
static Value barrierPointer(OpBuilder &b, Location loc, Value barriers,
                            Value id) {
  Value address =
      nvgpu::MBarrierGetOp::create(b, loc, b.getI64Type(), barriers, id);
  auto shared = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  return LLVM::IntToPtrOp::create(b, loc, shared, address);
}

/// Blocking wait for the phase with parity `phase` of barrier `id`: a
/// try_wait.parity loop with the suspend-time hint (ptxas keeps the first
/// try inline and moves the retry out of line).
///
/// `convergent`: the try is the NVVM intrinsic in an scf.while instead of
/// upstream's inline-asm loop (nvgpu.mbarrier.try_wait.parity). LLVM knows
/// the intrinsic to be convergent and never duplicates it into the two
/// paths of a divergent branch; an inline-asm wait between two `scf.if`s
/// on the same lane predicate (as in a stage-unrolled loop whose copies
/// each let lane 0 signal) is threaded by SimplifyCFG into one copy per
/// path, and the diverged warp then runs each path's waits in turn.
static void waitParityLoop(OpBuilder &b, Location loc, Value barriers, Value id,
                           Value phase, bool convergent) {
  if (!convergent) {
    nvgpu::MBarrierTryWaitParityOp::create(
        b, loc, barriers, phase, constIndex(b, loc, kSuspendTimeHintNs), id);
    return;
  }
  Value pointer = barrierPointer(b, loc, barriers, id);
  Value parity =
      arith::ExtUIOp::create(b, loc, b.getI32Type(), phase).getResult();
  Value hint = constInt(b, loc, kSuspendTimeHintNs, 32);
  scf::WhileOp::create(
      b, loc, TypeRange(), ValueRange(),
      [&](OpBuilder &b, Location loc, ValueRange) {
        Value ready = NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(),
                                                      pointer, parity, hint);
        Value waiting =
            arith::XOrIOp::create(b, loc, ready, constInt(b, loc, 1, 1));
        scf::ConditionOp::create(b, loc, waiting, ValueRange());
      },
      [&](OpBuilder &b, Location loc, ValueRange) {
        scf::YieldOp::create(b, loc);
      });
}

/// One non-blocking try_wait.parity (no suspend-time hint): true when the
/// phase with parity `phase` of barrier `id` has completed.
static Value tryWaitParity(OpBuilder &b, Location loc, Value barriers, Value id,
                           Value phase) {
  Value pointer = barrierPointer(b, loc, barriers, id);
  Value parity =
      arith::ExtUIOp::create(b, loc, b.getI32Type(), phase).getResult();
  return NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), pointer, parity,
                                         /*ticks=*/Value());
}

/// Runs `body` in the thread elected by `elect` (an i1).
static void ifElected(OpBuilder &b, Location loc, Value elect,
                      function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, elect, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body();
}

//===----------------------------------------------------------------------===//
// Hang report
//===----------------------------------------------------------------------===//

/// Words of the hang record (see HangReport).
enum HangWord : int64_t {
  kHangState = 0,
  kHangSite,
  kHangStage,
  kHangParity,
  kHangLap,
  kHangCtaX,
  kHangCtaY,
  kHangCtaZ,
  kHangWarp,
  kHangLane,
  kHangClusterRank,
  kHangMagic,
};
static constexpr int64_t kHangMagicValue = 0x50484E47;

/// Slow-path polling interval of a wait with the hang report, in ns: the
/// try_wait suspends at most this long before the clock is checked again.
static constexpr int64_t kHangPollNs = 1000000;

/// The record write of a hung wait: the first thread to claim the record
/// (compare-and-swap of word 0 from 0 to 1) fills it and publishes it
/// (system-scope fence, then word 0 = 2). Does nothing without a buffer.
/// Returns true in the thread that wrote the record, and in every thread
/// when there is no buffer: the threads that may end the kernel without
/// losing a record another thread is still writing.
static Value writeHangRecord(OpBuilder &b, Location loc, unsigned site,
                             const RoleState &state) {
  MLIRContext *ctx = b.getContext();
  auto globalPtr = LLVM::LLVMPointerType::get(ctx, 1);
  auto genericPtr = LLVM::LLVMPointerType::get(ctx);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value bufferAddr =
      LLVM::AddressOfOp::create(b, loc, globalPtr, kHangBufferSymbol);
  Value buffer = LLVM::LoadOp::create(b, loc, i64, bufferAddr,
                                      /*alignment=*/8, /*isVolatile=*/true);
  Value hasBuffer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, buffer,
                            arith::ConstantIntOp::create(b, loc, 0, 64));
  auto ifBuffer = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, hasBuffer,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifBuffer.getElseRegion().front());
    scf::YieldOp::create(b, loc, ValueRange{constInt(b, loc, 1, 1)});
    b.setInsertionPointToStart(&ifBuffer.getThenRegion().front());
    Value record = LLVM::IntToPtrOp::create(b, loc, genericPtr, buffer);
    auto word = [&](int64_t index) -> Value {
      return LLVM::GEPOp::create(b, loc, genericPtr, i32, record,
                                 ArrayRef<LLVM::GEPArg>{int32_t(index)});
    };
    Value claim = LLVM::AtomicCmpXchgOp::create(
        b, loc, word(kHangState), constInt(b, loc, 0, 32),
        constInt(b, loc, 1, 32), LLVM::AtomicOrdering::acq_rel,
        LLVM::AtomicOrdering::monotonic);
    Value claimed =
        LLVM::ExtractValueOp::create(b, loc, claim, ArrayRef<int64_t>{1});
    ifElected(b, loc, claimed, [&] {
      auto store = [&](int64_t index, Value v) {
        if (v.getType() != i32)
          v = v.getType().isInteger(1)
                  ? arith::ExtUIOp::create(b, loc, i32, v).getResult()
                  : arith::IndexCastUIOp::create(b, loc, i32, v).getResult();
        LLVM::StoreOp::create(b, loc, v, word(index), /*alignment=*/4,
                              /*isVolatile=*/true);
      };
      Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
      Value ty = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
      Value tz = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
      Value bx = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
      Value by = gpu::BlockDimOp::create(b, loc, gpu::Dimension::y);
      Value linear = arith::AddIOp::create(
          b, loc,
          arith::MulIOp::create(
              b, loc,
              arith::AddIOp::create(b, loc,
                                    arith::MulIOp::create(b, loc, tz, by), ty),
              bx),
          tid);
      store(kHangSite, constInt(b, loc, site, 32));
      store(kHangStage, state.stage);
      store(kHangParity, state.phase);
      store(kHangLap, state.lap);
      store(kHangCtaX, gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
      store(kHangCtaY, gpu::BlockIdOp::create(b, loc, gpu::Dimension::y));
      store(kHangCtaZ, gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
      store(kHangWarp,
            arith::DivUIOp::create(b, loc, linear, constIndex(b, loc, 32)));
      store(kHangLane,
            arith::RemUIOp::create(b, loc, linear, constIndex(b, loc, 32)));
      store(kHangClusterRank, NVVM::ClusterId::create(b, loc, i32));
      store(kHangMagic, constInt(b, loc, kHangMagicValue, 32));
      NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::SYS);
      store(kHangState, constInt(b, loc, 2, 32));
    });
    scf::YieldOp::create(b, loc, ValueRange{claimed});
  }
  return ifBuffer.getResult(0);
}

/// A wait with the hang report: the fast path is the first iteration of the
/// usual wait loop (one try_wait with the suspend-time hint, which returns
/// as soon as the phase completes); if it times out, try_wait with a short
/// suspend until the phase completes, and once `cycles` clock cycles have
/// passed, report (once); the thread that wrote the report traps unless
/// `keepWaiting` (the others wait on, so that no trap ends the kernel
/// before the record is complete).
static void waitWithHangReport(OpBuilder &b, Location loc, const Lowered &l,
                               unsigned site, Value id,
                               const RoleState &state) {
  Value pointer = barrierPointer(b, loc, l.barriers, id);
  Value parity =
      arith::ExtUIOp::create(b, loc, b.getI32Type(), state.phase).getResult();
  Value first =
      NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), pointer, parity,
                                      constInt(b, loc, kSuspendTimeHintNs, 32));
  Value notYet = arith::XOrIOp::create(b, loc, first, constInt(b, loc, 1, 1));
  ifElected(b, loc, notYet, [&] {
    Type i64 = b.getI64Type();
    Value start = NVVM::Clock64Op::create(b, loc, i64);
    Value poll = constInt(b, loc, kHangPollNs, 32);
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{b.getI1Type()}, ValueRange{constInt(b, loc, 0, 1)},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value ready = NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(),
                                                        pointer, parity, poll);
          Value waiting =
              arith::XOrIOp::create(b, loc, ready, constInt(b, loc, 1, 1));
          scf::ConditionOp::create(b, loc, waiting, args);
        },
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value reported = args.front();
          Value now = NVVM::Clock64Op::create(b, loc, i64);
          Value elapsed = arith::SubIOp::create(b, loc, now, start);
          Value expired =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, elapsed,
                                    arith::ConstantIntOp::create(
                                        b, loc, int64_t(l.hang->cycles), 64));
          Value fresh = arith::AndIOp::create(
              b, loc, expired,
              arith::XOrIOp::create(b, loc, reported, constInt(b, loc, 1, 1)));
          ifElected(b, loc, fresh, [&] {
            Value wrote = writeHangRecord(b, loc, site, state);
            if (!l.hang->keepWaiting)
              ifElected(b, loc, wrote, [&] { LLVM::Trap::create(b, loc); });
          });
          scf::YieldOp::create(
              b, loc,
              ValueRange{arith::OrIOp::create(b, loc, reported, expired)});
        });
    (void)loop;
  });
}

/// The blocking wait of `role` on barrier `id` with the parity of `state`:
/// the try_wait loop, or with the hang report its bounded form.
static void waitParity(OpBuilder &b, Location loc, const Lowered &l, Role role,
                       Value id, const RoleState &state) {
  if (l.hangReportOn()) {
    auto it = l.hang->siteIds.find(l.op);
    if (it != l.hang->siteIds.end())
      return waitWithHangReport(b, loc, l, it->second, id, state);
  }
  // The ops of a stage-unrolled loop (known stage) wait with the
  // convergent form; the others keep upstream's wait.
  waitParityLoop(b, loc, l.barriers, id, state.phase,
                 /*convergent=*/knownStage(l).has_value());
}

/// %cluster_ctarank & ~1: the leader CTA of this CTA's pair.
static Value leaderCtaRank(OpBuilder &b, Location loc) {
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  return arith::AndIOp::create(b, loc, rank, constInt(b, loc, -2, 32));
}

namespace {
/// The CTAs whose barrier a consumer signal of a pipeline reaches (the
/// pipeline type's documentation gives the rules and their sources).
struct ConsumerTargets {
  enum Kind { Local, Leader, Group } kind;
  /// Group: the number of CTAs, an aligned group of the cluster.
  unsigned size;
};
} // namespace

static ConsumerTargets consumerTargets(const Lowered &l) {
  if (l.type.getCtaGroup() == 2)
    return l.isTile ? ConsumerTargets{ConsumerTargets::Group, 2}
                    : ConsumerTargets{ConsumerTargets::Leader, 1};
  if (l.type.getReleaseCtas() > 1)
    return {ConsumerTargets::Group, l.type.getReleaseCtas()};
  return {ConsumerTargets::Local, 1};
}

/// The cluster rank of the first CTA of this CTA's aligned group of `size`
/// CTAs: %cluster_ctarank & -size.
static Value groupBaseRank(OpBuilder &b, Location loc, unsigned size) {
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  return arith::AndIOp::create(b, loc, rank,
                               constInt(b, loc, -int64_t(size), 32));
}

/// One release.cluster arrival of the executing thread on the barrier at
/// shared-memory pointer `local` in the CTA of cluster rank `rank`.
static void arriveRemote(OpBuilder &b, Location loc, Value local, Value rank) {
  auto cluster = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  Value remote = NVVM::MapaOp::create(b, loc, cluster, local, rank);
  NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), remote,
                                 /*count=*/Value(),
                                 NVVM::MemScopeKind::CLUSTER);
}

/// The executing thread arrives once on barrier `id` in each CTA of
/// `targets`: a local mbarrier.arrive, or per target CTA a mapa and a
/// release.cluster arrive on the shared::cluster address.
static void arriveOn(OpBuilder &b, Location loc, Value barriers, Value id,
                     ConsumerTargets targets) {
  if (targets.kind == ConsumerTargets::Local) {
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barriers, id);
    return;
  }
  Value local = barrierPointer(b, loc, barriers, id);
  if (targets.kind == ConsumerTargets::Leader)
    return arriveRemote(b, loc, local, leaderCtaRank(b, loc));
  Value base = groupBaseRank(b, loc, targets.size);
  for (unsigned k = 0; k < targets.size; ++k) {
    Value rank =
        k == 0 ? base
               : arith::OrIOp::create(b, loc, base, constInt(b, loc, k, 32))
                     .getResult();
    arriveRemote(b, loc, local, rank);
  }
}

/// `role` arrives on the barrier it signals for `stage` (index), sub-stage
/// `sub`. Producer signals stay in the CTA; consumer signals reach the CTAs
/// of consumerTargets.
static void signal(OpBuilder &b, Location loc, const Lowered &l, Role role,
                   Value stage, unsigned sub) {
  Value id = signalBarrierId(b, loc, l.type, role, stage, sub);
  ConsumerTargets targets = role == Role::consumer
                                ? consumerTargets(l)
                                : ConsumerTargets{ConsumerTargets::Local, 1};
  arriveOn(b, loc, l.barriers, id, targets);
}

/// True when releasing a consumer handle of `l` arrives on its barrier: on
/// a plain pipeline (the reference ConsumerStage.release), not on a tile
/// pipeline (InputConsumerStage.release and ConsumerTiles.__exit__ only
/// step; the MMA's release_mma or an arrive frees the stage).
static bool consumerReleaseSignals(const Lowered &l) { return !l.isTile; }

/// In the elected thread (`elect`, else elect.sync), tcgen05.commit of the
/// pipeline's cta_group to barrier `id`, multicast to the CTAs of
/// `targets` unless they are the local CTA alone.
static void commitMmaTo(OpBuilder &b, Location loc, const Lowered &l,
                        Value elect, Value id, ConsumerTargets targets) {
  if (!elect)
    elect = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
  ifElected(b, loc, elect, [&] {
    Value pointer = barrierPointer(b, loc, l.barriers, id);
    auto group = l.type.getCtaGroup() == 1 ? NVVM::CTAGroupKind::CTA_1
                                           : NVVM::CTAGroupKind::CTA_2;
    Value mask;
    if (targets.kind == ConsumerTargets::Leader) {
      Value leader = arith::TruncIOp::create(b, loc, b.getI16Type(),
                                             leaderCtaRank(b, loc));
      mask = arith::ShLIOp::create(b, loc, constInt(b, loc, 1, 16), leader);
    } else if (targets.kind == ConsumerTargets::Group) {
      Value base = arith::TruncIOp::create(b, loc, b.getI16Type(),
                                           groupBaseRank(b, loc, targets.size));
      mask = arith::ShLIOp::create(
          b, loc, constInt(b, loc, (int64_t(1) << targets.size) - 1, 16), base);
    }
    NVVM::Tcgen05CommitOp::create(b, loc, pointer, mask, group);
  });
}

/// `role` waits, with its current phase, on the barrier it waits on for
/// its current stage. Returns the state it waited with.
static RoleState waitCurrent(OpBuilder &b, Location loc, const Lowered &l,
                             Role role, unsigned sub) {
  RoleState state = loadRole(b, loc, l, role);
  Value id =
      waitBarrierId(b, loc, l.type, role, toIndex(b, loc, state.stage), sub);
  waitParity(b, loc, l, role, id, state);
  return state;
}

/// Like waitCurrent, but skips the wait when `ready` is true (a try that
/// already succeeded). Returns the stage index.
static Value waitCurrentUnless(OpBuilder &b, Location loc, const Lowered &l,
                               Role role, unsigned sub, Value ready) {
  RoleState state = loadRole(b, loc, l, role);
  Value stage = toIndex(b, loc, state.stage);
  auto notReady = arith::XOrIOp::create(b, loc, ready, constInt(b, loc, 1, 1));
  auto ifOp = scf::IfOp::create(b, loc, notReady, /*withElse=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value id = waitBarrierId(b, loc, l.type, role, stage, sub);
    waitParity(b, loc, l, role, id, state);
  }
  return stage;
}

/// Acquires a stage for `role`: waits (unless `ready`) and returns the
/// values of the stage handle.
static SmallVector<Value> acquireStage(OpBuilder &b, Location loc,
                                       const Lowered &l, Role role,
                                       unsigned sub, Value ready = Value()) {
  Value stage;
  if (ready) {
    stage = waitCurrentUnless(b, loc, l, role, sub, ready);
  } else {
    RoleState state = waitCurrent(b, loc, l, role, sub);
    stage = toIndex(b, loc, state.stage);
  }
  if (stepsAtAcquire(l, role))
    stepRole(b, loc, l, role);
  return l.makeStage(stage);
}

static Value single(ValueRange values) {
  assert(values.size() == 1 && "expected a 1:1 converted value");
  return values.front();
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
      // A view of the user's i8 buffer as the barrier array, cast to the
      // group type. The cast folds away once NVGPU-to-NVVM and
      // memref-to-LLVM have turned both sides into the same descriptor.
      MemRefType storage = op.getStorage().getType();
      auto viewType =
          MemRefType::get({type.getNumBarriers()}, rewriter.getI64Type(),
                          AffineMap(), storage.getMemorySpace());
      Value view = memref::ViewOp::create(
          rewriter, loc, viewType, single(adaptor.getStorage()),
          single(adaptor.getOffset()), ValueRange());
      barriers =
          UnrealizedConversionCastOp::create(rewriter, loc, groupType, view)
              .getResult(0);
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
    auto type = cast<PipelineType>(op.getPipelineType());
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op,
                                                        type.getSmemBytes());
    return success();
  }
};

/// pipeline.init_mbars: thread (0, 0, 0) of the CTA initializes every
/// barrier and fences the inits (fence.mbarrier_init.release.cluster), then
/// the CTA (bar.sync) or the cluster (barrier.cluster.arrive + wait)
/// synchronizes before any thread uses a barrier.
struct InitMbarsOpLowering : PipelineOpLowering<InitMbarsOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(InitMbarsOp op, OneToNOpAdaptor adaptor,
                        const Lowered &l,
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
      NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
    } else {
      gpu::BarrierOp::create(rewriter, loc);
    }
    rewriter.eraseOp(op);
    return success();
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
struct WaitCurrentOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    waitCurrent(rewriter, op.getLoc(), l, role, /*sub=*/0);
    rewriter.eraseOp(op);
    return success();
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
struct WaitIfNeededOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    waitCurrentUnless(rewriter, op.getLoc(), l, role, /*sub=*/0,
                      single(adaptor.getAlreadyReady()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// producer_step / consumer_step.
template <typename OpTy, Role role>
struct StepRoleOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    stepRole(rewriter, op.getLoc(), l, role);
    rewriter.eraseOp(op);
    return success();
  }
};

/// producer_signal_and_step / consumer_signal_and_step: wait on the role's
/// wait barrier, arrive on its signal barrier (same stage), step.
template <typename OpTy, Role role>
struct SignalAndStepOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RoleState state = waitCurrent(rewriter, loc, l, role, /*sub=*/0);
    signal(rewriter, loc, l, role, toIndex(rewriter, loc, state.stage), 0);
    stepRole(rewriter, loc, l, role);
    rewriter.eraseOp(op);
    return success();
  }
};

/// pipeline.drain_producer: S times, wait on empty(stage, 0) with the
/// producer phase, then step the producer (the reference drain_producer:
/// wait_consumer + producer_step; a consumer sub-stage that is not released
/// every round would make waiting on it hang once its phase wraps).
struct DrainProducerOpLowering : PipelineOpLowering<DrainProducerOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(DrainProducerOp op, OneToNOpAdaptor adaptor,
                        const Lowered &l,
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
    rewriter.eraseOp(op);
    return success();
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
struct ArriveOpLowering : PipelineOpLowering<ArriveOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(ArriveOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Role role = op.getStage().getType().getRole();
    signal(rewriter, op.getLoc(), l, role, l.stage, 0);
    rewriter.eraseOp(op);
    return success();
  }
};

/// pipeline.expect_tx: mbarrier.arrive.expect_tx on full(stage, 0) with the
/// given bytes, or for a tile pipeline the bytes of one stage's payload
/// (k_group_size tiles of every array) times cta_group; predicated on the
/// leader CTA of the pair when cta_group = 2.
struct ExpectTxOpLowering : PipelineOpLowering<ExpectTxOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(ExpectTxOp op, OneToNOpAdaptor adaptor,
                        const Lowered &l,
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
    rewriter.eraseOp(op);
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
struct ReleaseOpLowering : PipelineOpLowering<ReleaseOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(ReleaseOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    StageType type = op.getStage().getType();
    if (type.isConsumer() && consumerReleaseSignals(l))
      signal(rewriter, op.getLoc(), l, Role::consumer, l.stage,
             op.getSubStage());
    stepAtRelease(rewriter, op.getLoc(), l, type.getRole());
    rewriter.eraseOp(op);
    return success();
  }
};

/// pipeline.release_without_signal: step the consumer.
struct ReleaseWithoutSignalOpLowering
    : PipelineOpLowering<ReleaseWithoutSignalOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(ReleaseWithoutSignalOp op, OneToNOpAdaptor adaptor,
                        const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    stepAtRelease(rewriter, op.getLoc(), l, Role::consumer);
    rewriter.eraseOp(op);
    return success();
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
struct CommitOpLowering : PipelineOpLowering<CommitOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(CommitOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    signal(rewriter, op.getLoc(), l, Role::producer, l.stage, 0);
    stepRole(rewriter, op.getLoc(), l, Role::producer);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The CTAs a tcgen05.commit of `role` reaches. The MMA that issues it runs
/// in the leader CTA only, so with cta_group = 2 it reaches both CTAs of the
/// pair, for either role: commit_mma on the full barriers both CTAs'
/// epilogues wait on (CUTLASS PipelineUmmaAsync::producer_commit),
/// release_mma on the empty barriers both CTAs' producers wait on
/// (PipelineTmaUmmaAsync and PipelineUmmaConsumerAsync consumer_release).
/// Otherwise a release_mma reaches the consumer targets (release_ctas), a
/// commit_mma the executing CTA.
static ConsumerTargets mmaCommitTargets(const Lowered &l, Role role) {
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
struct MmaCommitOpLowering : PipelineOpLowering<OpTy> {
  using PipelineOpLowering<OpTy>::PipelineOpLowering;
  using typename PipelineOpLowering<OpTy>::OneToNOpAdaptor;

  LogicalResult rewrite(OpTy op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value elect = op.getElect() ? single(adaptor.getElect()) : Value();
    Value id = signalBarrierId(rewriter, loc, l.type, role, l.stage, 0);
    commitMmaTo(rewriter, loc, l, elect, id, mmaCommitTargets(l, role));
    rewriter.eraseOp(op);
    return success();
  }
};

/// pipeline.release_no_step: the consumer arrives on empty(stage, sub).
struct ReleaseNoStepOpLowering : PipelineOpLowering<ReleaseNoStepOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(ReleaseNoStepOp op, OneToNOpAdaptor adaptor,
                        const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    signal(rewriter, op.getLoc(), l, Role::consumer, l.stage, op.getSubStage());
    rewriter.eraseOp(op);
    return success();
  }
};

/// pipeline.step: step the handle's role.
struct StepOpLowering : PipelineOpLowering<StepOp> {
  using PipelineOpLowering::PipelineOpLowering;

  LogicalResult rewrite(StepOp op, OneToNOpAdaptor adaptor, const Lowered &l,
                        ConversionPatternRewriter &rewriter) const override {
    stepAtRelease(rewriter, op.getLoc(), l, op.getStage().getType().getRole());
    rewriter.eraseOp(op);
    return success();
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

//===----------------------------------------------------------------------===//
// Hang report sites
//===----------------------------------------------------------------------===//

/// The ops whose lowering blocks on a barrier, with the role that waits.
static std::optional<Role> waitingRole(Operation *op) {
  if (isa<WaitConsumerOp, WaitConsumerIfNeededOp, ProducerSignalAndStepOp,
          DrainProducerOp, AcquireProducerOp, ProduceOp, AcquireOp>(op))
    return Role::producer;
  if (isa<WaitProducerOp, WaitProducerIfNeededOp, ConsumerSignalAndStepOp,
          AcquireConsumerOp, ConsumeOp, ConsumeExplicitOp, WaitOp>(op))
    return Role::consumer;
  return std::nullopt;
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
      if (auto attr = create->getAttrOfType<StringAttr>("name"))
        name = attr.getValue().str();
      else
        name = "pipeline at " + describeLocation(create.getLoc());
    }
    unsigned site = nextSite++;
    report.siteIds[op] = site;
    std::string &table = tables[symbolTable];
    table += (Twine(site) + "|" + name + "|" + describeLocation(op->getLoc()) +
              "|" + stringifyRole(*role) + "\n")
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
    if (failed(checkPipelineToNVGPUPreconditions(root, chip)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    HangReport report;
    report.cycles = hangReport;
    report.keepWaiting = hangKeepWaiting;
    if (report.cycles)
      prepareHangReport(root, report);
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
