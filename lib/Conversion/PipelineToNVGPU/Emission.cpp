//===- Emission.cpp - barrier and role-state emission -----------*- C++ -*-===//
//
// What the patterns of the pipeline-to-NVGPU lowering emit: constants, the
// role state (load, store, step), barrier addressing (full/empty ids,
// pointers), waits (parity loops, with or without the hang report),
// arrivals (local, remote, multicast), expect_tx-free signals and
// tcgen05.commit. The barrier layout is described in PipelineToNVGPU.cpp.
//
//===----------------------------------------------------------------------===//

#include "PipelineToNVGPUInternal.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace pmlir;

namespace pmlir::nvgpu_lowering {

/// Suspend-time hint of the blocking waits, in nanoseconds (0x989680, the
/// value of CUTLASS and Mojo).
static constexpr int64_t kSuspendTimeHintNs = 10000000;
/// The stage register's bits that hold the stage when it also holds the lap.
static constexpr int64_t kLapShift = 16;

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

Value constIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value constInt(OpBuilder &b, Location loc, int64_t v, unsigned width) {
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

RoleState loadRole(OpBuilder &b, Location loc, const Lowered &l, Role role) {
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

void storeRole(OpBuilder &b, Location loc, const Lowered &l, Role role,
               RoleState state) {
  bool prod = role == Role::producer;
  memref::StoreOp::create(b, loc, state.stage,
                          prod ? l.prodStage : l.consStage);
  memref::StoreOp::create(b, loc, state.phase,
                          prod ? l.prodPhase : l.consPhase);
}

void stepRole(OpBuilder &b, Location loc, const Lowered &l, Role role) {
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

void stepAtRelease(OpBuilder &b, Location loc, const Lowered &l, Role role) {
  if (!stepsAtAcquire(l, role))
    stepRole(b, loc, l, role);
}

Value toIndex(OpBuilder &b, Location loc, Value stageI32) {
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), stageI32);
}

Value fullBarrierId(OpBuilder &b, Location loc, PipelineType type, Value stage,
                    unsigned sub) {
  Value id = stage;
  if (type.getProducerSubStages() != 1)
    id = arith::MulIOp::create(b, loc, id,
                               constIndex(b, loc, type.getProducerSubStages()));
  if (sub != 0)
    id = arith::AddIOp::create(b, loc, id, constIndex(b, loc, sub));
  return id;
}

Value emptyBarrierId(OpBuilder &b, Location loc, PipelineType type, Value stage,
                     unsigned sub) {
  Value id = stage;
  if (type.getConsumerSubStages() != 1)
    id = arith::MulIOp::create(b, loc, id,
                               constIndex(b, loc, type.getConsumerSubStages()));
  int64_t base = type.getNumFullBarriers() + sub;
  return arith::AddIOp::create(b, loc, id, constIndex(b, loc, base));
}

Value waitBarrierId(OpBuilder &b, Location loc, PipelineType type, Role role,
                    Value stage, unsigned sub) {
  return role == Role::producer ? emptyBarrierId(b, loc, type, stage, sub)
                                : fullBarrierId(b, loc, type, stage, sub);
}

Value signalBarrierId(OpBuilder &b, Location loc, PipelineType type, Role role,
                      Value stage, unsigned sub) {
  return role == Role::producer ? fullBarrierId(b, loc, type, stage, sub)
                                : emptyBarrierId(b, loc, type, stage, sub);
}

Value viewAsBarrierGroup(OpBuilder &b, Location loc, Value storage,
                         Value offset, int64_t words, Type groupType) {
  auto storageType = cast<MemRefType>(storage.getType());
  auto viewType = MemRefType::get({words}, b.getI64Type(), AffineMap(),
                                  storageType.getMemorySpace());
  Value view =
      memref::ViewOp::create(b, loc, viewType, storage, offset, ValueRange());
  return UnrealizedConversionCastOp::create(b, loc, groupType, view)
      .getResult(0);
}

Value barrierPointer(OpBuilder &b, Location loc, Value barriers, Value id) {
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

Value tryWaitParity(OpBuilder &b, Location loc, Value barriers, Value id,
                    Value phase) {
  Value pointer = barrierPointer(b, loc, barriers, id);
  Value parity =
      arith::ExtUIOp::create(b, loc, b.getI32Type(), phase).getResult();
  return NVVM::MBarrierTryWaitOp::create(b, loc, b.getI1Type(), pointer, parity,
                                         /*ticks=*/Value());
}

void ifElected(OpBuilder &b, Location loc, Value elect,
               function_ref<void()> body) {
  auto ifOp = scf::IfOp::create(b, loc, elect, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  body();
}

//===----------------------------------------------------------------------===//
// Hang report
//===----------------------------------------------------------------------===//

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
        b, loc, word(PMLIR_HANG_STATE), constInt(b, loc, PMLIR_HANG_FREE, 32),
        constInt(b, loc, PMLIR_HANG_WRITING, 32), LLVM::AtomicOrdering::acq_rel,
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
      store(PMLIR_HANG_SITE, constInt(b, loc, site, 32));
      store(PMLIR_HANG_STAGE, state.stage);
      store(PMLIR_HANG_PARITY, state.phase);
      store(PMLIR_HANG_LAP, state.lap);
      store(PMLIR_HANG_CTA_X,
            gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
      store(PMLIR_HANG_CTA_Y,
            gpu::BlockIdOp::create(b, loc, gpu::Dimension::y));
      store(PMLIR_HANG_CTA_Z,
            gpu::BlockIdOp::create(b, loc, gpu::Dimension::z));
      store(PMLIR_HANG_WARP,
            arith::DivUIOp::create(b, loc, linear, constIndex(b, loc, 32)));
      store(PMLIR_HANG_LANE,
            arith::RemUIOp::create(b, loc, linear, constIndex(b, loc, 32)));
      store(PMLIR_HANG_CLUSTER_RANK, NVVM::ClusterId::create(b, loc, i32));
      store(PMLIR_HANG_MAGIC, constInt(b, loc, PMLIR_HANG_MAGIC_VALUE, 32));
      NVVM::MembarOp::create(b, loc, NVVM::MemScopeKind::SYS);
      store(PMLIR_HANG_STATE, constInt(b, loc, PMLIR_HANG_WRITTEN, 32));
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

void waitParity(OpBuilder &b, Location loc, const Lowered &l, Role role,
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

void tmemFence(OpBuilder &b, Location loc, const Lowered &l,
               NVVM::Tcgen05FenceKind kind) {
  if (l.type.getTmem())
    NVVM::Tcgen05FenceOp::create(b, loc, kind);
}

/// %cluster_ctarank & ~1: the leader CTA of this CTA's pair.
static Value leaderCtaRank(OpBuilder &b, Location loc) {
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  return arith::AndIOp::create(b, loc, rank, constInt(b, loc, -2, 32));
}

ConsumerTargets consumerTargets(const Lowered &l) {
  if (l.type.getClc())
    return {ConsumerTargets::FirstCta, 1};
  // The cross of a multicast cluster: any consumer signal of a CTA pair's
  // input pipeline, or of a one-CTA pipeline (an accumulator pipeline keeps
  // its pair targets; Preconditions.cpp rejects a cross there).
  if (l.type.hasCross() && (l.isInput || l.type.getCtaGroup() == 1))
    return {ConsumerTargets::Cross,
            l.type.getClusterM() * l.type.getClusterN()};
  if (l.type.getCtaGroup() == 2)
    return l.isInput ? ConsumerTargets{ConsumerTargets::Group, 2}
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

/// The cross of this CTA in the pipeline's cluster_m x cluster_n cluster
/// (PipelineType::getCrossMask), as an i32 of cluster ranks computed from
/// %cluster_ctarank: within the aligned block of cluster_m x cluster_n CTAs
/// that holds this CTA (the whole cluster when it has that size), local
/// rank = m + n * cluster_m; the CTAs of every n whose m lies in this CTA's
/// pair (m & -cta_group .. + cta_group - 1), and the CTAs of this n.
/// Returns the mask of local ranks and the cluster rank of the block's
/// first CTA.
static std::pair<Value, Value> crossMask(OpBuilder &b, Location loc,
                                         PipelineType type) {
  unsigned m = type.getClusterM(), n = type.getClusterN();
  unsigned group = type.getCtaGroup();
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  Value local =
      arith::RemUIOp::create(b, loc, rank, constInt(b, loc, m * n, 32));
  Value block = arith::SubIOp::create(b, loc, rank, local);
  Value x = arith::RemUIOp::create(b, loc, local, constInt(b, loc, m, 32));
  // The CTAs at m = 0 .. cta_group - 1 of every n, moved to this pair.
  int64_t pairRows = 0;
  for (unsigned y = 0; y < n; ++y)
    pairRows |= ((int64_t(1) << group) - 1) << (y * m);
  Value pairBase =
      arith::AndIOp::create(b, loc, x, constInt(b, loc, -int64_t(group), 32));
  Value pair =
      arith::ShLIOp::create(b, loc, constInt(b, loc, pairRows, 32), pairBase);
  // The cluster_m CTAs of this n, from local rank n * cluster_m = local - m.
  Value rowBase = arith::SubIOp::create(b, loc, local, x);
  Value row = arith::ShLIOp::create(
      b, loc, constInt(b, loc, (int64_t(1) << m) - 1, 32), rowBase);
  return {arith::OrIOp::create(b, loc, pair, row), block};
}

/// `count` arrivals on the barrier at shared-memory pointer `local` in the
/// CTA of cluster rank `rank`: mapa, then mbarrier.arrive.shared::cluster
/// with the default semantics (.release, .cta scope), as CUTLASS's
/// ClusterBarrier::arrive(cta_id, pred) and the reference. With
/// .release.cluster ptxas puts a MEMBAR.ALL.GPU before every arrive:
/// measured on an H100, 690 cycles per remote arrive against 8
/// (docs/reference-mapping.md).
void arriveRemote(OpBuilder &b, Location loc, Value local, Value rank,
                  Value count) {
  auto cluster = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  Value remote = NVVM::MapaOp::create(b, loc, cluster, local, rank);
  NVVM::MBarrierArriveOp::create(b, loc, /*res=*/Type(), remote, count,
                                 NVVM::MemScopeKind::CTA);
}

/// The lanes of the executing warp that arrive together on the barrier at
/// `local`: the active lanes (activemask) that name the same barrier
/// (match.any.sync on its address), synchronized (bar.warp.sync, which
/// orders their earlier accesses before the arrival one of them sends).
/// Lanes of one warp may execute the same arrive in different iterations
/// of a loop, on different stages' barriers, converged by the scheduler:
/// grouping by the address keeps each stage's count exact. Returns the
/// group's mask.
static Value lanesOnSameBarrier(OpBuilder &b, Location loc, Value local) {
  Type i32 = b.getI32Type();
  Value active =
      LLVM::CallIntrinsicOp::create(
          b, loc, i32, b.getStringAttr("llvm.nvvm.activemask"), ValueRange{})
          .getResult(0);
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), local);
  Value peers = NVVM::MatchSyncOp::create(b, loc, i32, active, address,
                                          NVVM::MatchSyncKind::any);
  NVVM::SyncWarpOp::create(b, loc, peers);
  return peers;
}

/// The executing threads arrive once each on the barrier at `local` in
/// cluster rank 0: the lowest lane of each group of lanes on the same
/// barrier (lanesOnSameBarrier) arrives for all of them, with count = the
/// group's size (one remote arrive per warp instead of 32).
static void arriveOnFirstCta(OpBuilder &b, Location loc, Value local) {
  Type i32 = b.getI32Type();
  Value mask = lanesOnSameBarrier(b, loc, local);
  Value active = LLVM::CtPopOp::create(b, loc, i32, mask);
  Value below = arith::AndIOp::create(b, loc, mask,
                                      NVVM::LaneMaskLtOp::create(b, loc, i32));
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, below,
                                      constInt(b, loc, 0, 32));
  ifElected(b, loc, first, [&] {
    arriveRemote(b, loc, local, constInt(b, loc, 0, 32), active);
  });
}

/// The group of lanes that arrive together on the barrier at `local`
/// (lanesOnSameBarrier): its size and the executing lane's rank in it.
static std::pair<Value, Value> laneInGroup(OpBuilder &b, Location loc,
                                           Value local) {
  Type i32 = b.getI32Type();
  Value mask = lanesOnSameBarrier(b, loc, local);
  Value active = LLVM::CtPopOp::create(b, loc, i32, mask);
  Value below = arith::AndIOp::create(b, loc, mask,
                                      NVVM::LaneMaskLtOp::create(b, loc, i32));
  return {active, LLVM::CtPopOp::create(b, loc, i32, below)};
}

/// The executing threads arrive once each on the barrier at `local` in the
/// `size` CTAs of their aligned group, spread over the lanes that execute
/// this together (as CUTLASS spreads a warpgroup's consumer arrivals over
/// its lanes): the lanes on the same barrier (lanesOnSameBarrier) form a
/// group, and the lane of rank j in the group arrives, with count = the
/// group's size, on the CTAs k with k % size == j. A warp that releases
/// together sends `size` remote arrives, one per lane, instead of 32 x `size`
/// from every lane in turn; each CTA still receives one arrival per executing
/// thread.
static void arriveOnGroup(OpBuilder &b, Location loc, Value local,
                          unsigned size) {
  auto [active, lane] = laneInGroup(b, loc, local);
  Value base = groupBaseRank(b, loc, size);
  for (unsigned k = 0; k < size; ++k) {
    Value mine = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, constInt(b, loc, k, 32), active), lane);
    ifElected(b, loc, mine, [&] {
      Value rank =
          k == 0 ? base
                 : arith::OrIOp::create(b, loc, base, constInt(b, loc, k, 32))
                       .getResult();
      arriveRemote(b, loc, local, rank, active);
    });
  }
}

/// The executing threads arrive once each on the barrier at `local` in
/// every CTA of their cross (crossMask), spread over the lanes that execute
/// this together as in arriveOnGroup: the lane of rank j in the group of
/// lanes on the same barrier arrives, with count = the group's size, on the
/// CTAs of cluster rank r with r % size == j.
static void arriveOnCross(OpBuilder &b, Location loc, Value local,
                          PipelineType type) {
  auto [active, lane] = laneInGroup(b, loc, local);
  auto [targets, block] = crossMask(b, loc, type);
  unsigned ctas = type.getClusterM() * type.getClusterN();
  for (unsigned r = 0; r < ctas; ++r) {
    Value bit = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, targets, constInt(b, loc, r, 32)),
        constInt(b, loc, 1, 32));
    Value inCross = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, bit,
                                          constInt(b, loc, 0, 32));
    Value mine = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, constInt(b, loc, r, 32), active), lane);
    ifElected(b, loc, arith::AndIOp::create(b, loc, inCross, mine), [&] {
      Value rank =
          arith::AddIOp::create(b, loc, block, constInt(b, loc, r, 32));
      arriveRemote(b, loc, local, rank, active);
    });
  }
}

/// The executing thread arrives once on barrier `id` in each CTA of
/// `targets`: a local mbarrier.arrive, a mapa and an arrive on the
/// shared::cluster address of the leader, or on each CTA of a group
/// (arriveOnGroup).
static void arriveOn(OpBuilder &b, Location loc, Value barriers, Value id,
                     ConsumerTargets targets, PipelineType type) {
  if (targets.kind == ConsumerTargets::Local) {
    nvgpu::MBarrierArriveOp::create(
        b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), barriers, id);
    return;
  }
  Value local = barrierPointer(b, loc, barriers, id);
  if (targets.kind == ConsumerTargets::Leader)
    return arriveRemote(b, loc, local, leaderCtaRank(b, loc));
  if (targets.kind == ConsumerTargets::FirstCta)
    return arriveOnFirstCta(b, loc, local);
  if (targets.kind == ConsumerTargets::Cross)
    return arriveOnCross(b, loc, local, type);
  arriveOnGroup(b, loc, local, targets.size);
}

/// Where a thread's producer signal goes: the leader CTA's full barrier on
/// a cta_group = 2 pipeline, whose consumer is the pair's MMA in the leader
/// (CUTLASS PipelineUmmaConsumerAsync::producer_commit_2x1SM ->
/// umma_arrive_2x1SM_sm0), else the executing CTA's.
static ConsumerTargets producerTargets(const Lowered &l) {
  if (l.type.getCtaGroup() == 2)
    return {ConsumerTargets::Leader, 1};
  return {ConsumerTargets::Local, 1};
}

void signal(OpBuilder &b, Location loc, const Lowered &l, Role role,
            Value stage, unsigned sub) {
  Value id = signalBarrierId(b, loc, l.type, role, stage, sub);
  ConsumerTargets targets =
      role == Role::consumer ? consumerTargets(l) : producerTargets(l);
  tmemFence(b, loc, l, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  arriveOn(b, loc, l.barriers, id, targets, l.type);
}

bool consumerReleaseSignals(const Lowered &l) { return !l.isTile; }

void commitMmaTo(OpBuilder &b, Location loc, const Lowered &l, Value elect,
                 Value id, ConsumerTargets targets) {
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
    } else if (targets.kind == ConsumerTargets::Cross) {
      auto [cross, block] = crossMask(b, loc, l.type);
      mask = arith::TruncIOp::create(
          b, loc, b.getI16Type(), arith::ShLIOp::create(b, loc, cross, block));
    }
    NVVM::Tcgen05CommitOp::create(b, loc, pointer, mask, group);
  });
}

/// The shared-memory pointer (!llvm.ptr<3>) of `memref`'s first element
/// plus `extraBytes` (an index, or none).
static Value sharedPointer(OpBuilder &b, Location loc, Value memref,
                           Value extraBytes = Value()) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, metadata.getBaseBuffer());
  unsigned elementBytes = std::max(1u, type.getElementTypeBitWidth() / 8);
  Value offset = arith::MulIOp::create(b, loc, metadata.getOffset(),
                                       constIndex(b, loc, elementBytes));
  if (extraBytes)
    offset = arith::AddIOp::create(b, loc, offset, extraBytes);
  Value address = arith::AddIOp::create(b, loc, base, offset);
  Value address64 = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  auto shared = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  return LLVM::IntToPtrOp::create(b, loc, shared, address64);
}

/// The same address as a shared::cluster pointer of this CTA.
static Value sharedClusterAddress(OpBuilder &b, Location loc, Value memref) {
  auto cluster = LLVM::LLVMPointerType::get(
      b.getContext(),
      static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
  return LLVM::AddrSpaceCastOp::create(b, loc, cluster,
                                       sharedPointer(b, loc, memref));
}

void tmaLoad(OpBuilder &b, Location loc, const Lowered &l, Value descriptor,
             ValueRange coordinates, Value dst, Value multicastMask) {
  Value id = fullBarrierId(b, loc, l.type, l.stage, 0);
  Value barrier = barrierPointer(b, loc, l.barriers, id);
  NVVM::CTAGroupKindAttr group;
  if (l.type.getCtaGroup() == 2) {
    // The 2-SM load completes on the stage's full barrier in the leader CTA
    // of the pair. The instruction takes the barrier as a 32-bit shared
    // address: mapa gives the leader's shared::cluster address, which the
    // .cta_group::2 form accepts in that operand.
    auto cluster = LLVM::LLVMPointerType::get(
        b.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value remote =
        NVVM::MapaOp::create(b, loc, cluster, barrier, leaderCtaRank(b, loc));
    Value bits = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), remote);
    barrier = LLVM::IntToPtrOp::create(b, loc, barrier.getType(), bits);
    group =
        NVVM::CTAGroupKindAttr::get(b.getContext(), NVVM::CTAGroupKind::CTA_2);
  }
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, sharedClusterAddress(b, loc, dst), descriptor, coordinates,
      barrier, /*im2colOffsets=*/ValueRange(), multicastMask,
      /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
      group, /*predicate=*/Value());
}

/// The address of the 16-byte response of the handle's stage (the clc tile
/// pipeline's payload [stages x 1 x 16 bytes]), as a shared pointer.
static Value clcResponsePointer(OpBuilder &b, Location loc, const Lowered &l) {
  return sharedPointer(
      b, loc, l.payload[0],
      arith::MulIOp::create(b, loc, l.stage, constIndex(b, loc, 16)));
}

void clcTryCancel(OpBuilder &b, Location loc, const Lowered &l) {
  Type i32 = b.getI32Type();
  Value full = barrierPointer(b, loc, l.barriers,
                              fullBarrierId(b, loc, l.type, l.stage, 0));
  Value lane = NVVM::LaneIdOp::create(b, loc, i32);
  Value ctas = NVVM::ClusterDim::create(b, loc, i32);
  Value arms =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane, ctas);
  ifElected(b, loc, arms, [&] {
    auto cluster = LLVM::LLVMPointerType::get(
        b.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster));
    Value remote = NVVM::MapaOp::create(b, loc, cluster, full, lane);
    NVVM::MBarrierArriveExpectTxOp::create(b, loc, /*res=*/Type(), remote,
                                           constInt(b, loc, 16, 32),
                                           NVVM::MemScopeKind::CTA,
                                           /*relaxed=*/false,
                                           /*predicate=*/Value());
  });
  Value elect = NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
  ifElected(b, loc, elect, [&] {
    NVVM::ClusterLaunchControlTryCancelOp::create(
        b, loc, /*multicast=*/b.getUnitAttr(), clcResponsePointer(b, loc, l),
        full);
  });
}

SmallVector<Value> clcResponse(OpBuilder &b, Location loc, const Lowered &l) {
  Value response = LLVM::LoadOp::create(b, loc, b.getIntegerType(128),
                                        clcResponsePointer(b, loc, l),
                                        /*alignment=*/16);
  SmallVector<Value> results;
  for (auto [query, type] :
       {std::pair{NVVM::ClusterLaunchControlQueryType::IS_CANCELED,
                  Type(b.getI1Type())},
        {NVVM::ClusterLaunchControlQueryType::GET_FIRST_CTA_ID_X,
         b.getI32Type()},
        {NVVM::ClusterLaunchControlQueryType::GET_FIRST_CTA_ID_Y,
         b.getI32Type()},
        {NVVM::ClusterLaunchControlQueryType::GET_FIRST_CTA_ID_Z,
         b.getI32Type()}})
    results.push_back(NVVM::ClusterLaunchControlQueryCancelOp::create(
        b, loc, type, query, response));
  // The generic read before the release that lets the next asynchronous
  // response overwrite the buffer.
  NVVM::FenceProxyOp::create(
      b, loc,
      NVVM::ProxyKindAttr::get(b.getContext(), NVVM::ProxyKind::async_shared),
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  return results;
}

RoleState waitCurrent(OpBuilder &b, Location loc, const Lowered &l, Role role,
                      unsigned sub) {
  RoleState state = loadRole(b, loc, l, role);
  Value id =
      waitBarrierId(b, loc, l.type, role, toIndex(b, loc, state.stage), sub);
  waitParity(b, loc, l, role, id, state);
  tmemFence(b, loc, l, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  return state;
}

Value waitCurrentUnless(OpBuilder &b, Location loc, const Lowered &l, Role role,
                        unsigned sub, Value ready) {
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
  tmemFence(b, loc, l, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  return stage;
}

SmallVector<Value> acquireStage(OpBuilder &b, Location loc, const Lowered &l,
                                Role role, unsigned sub, Value ready) {
  Value stage;
  if (!ready && sub == 0 && l.op && !l.hangReportOn() &&
      l.op->hasAttr(kWaitedAheadAttrName)) {
    // pipeline-unroll-stages waited for this stage at the end of the
    // previous iteration (or before the loop).
    RoleState state = loadRole(b, loc, l, role);
    tmemFence(b, loc, l, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    stage = toIndex(b, loc, state.stage);
  } else if (ready) {
    stage = waitCurrentUnless(b, loc, l, role, sub, ready);
  } else {
    RoleState state = waitCurrent(b, loc, l, role, sub);
    stage = toIndex(b, loc, state.stage);
  }
  if (stepsAtAcquire(l, role))
    stepRole(b, loc, l, role);
  return l.makeStage(stage);
}

Value single(ValueRange values) {
  assert(values.size() == 1 && "expected a 1:1 converted value");
  return values.front();
}

} // namespace pmlir::nvgpu_lowering
