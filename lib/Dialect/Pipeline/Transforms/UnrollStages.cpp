//===- UnrollStages.cpp - unroll steady-state loops by the stage count ----===//
//
// pipeline-unroll-stages (see Passes.td).
//
// A steady-state loop that steps a role once per iteration runs through the
// ring's stages in order, so once it starts at stage 0, copy j of a body
// unrolled S times works on stage j. The pass rewrites
//
//   scf.for %i = %lb to %ub step %st { body }
//
// into
//
//   scf.for %i = %lb to %mid step %st { body }           // to stage 0
//   %aligned = every stepped role is at stage 0
//   scf.for %i = %mid to %end step %st * S {             // %aligned only
//     body(%i) ... body(%i + (S - 1) * %st)              // stage j known
//   }
//   scf.for %i = %end to %ub step %st { body }           // the rest
//
// and marks each op of copy j that reads or steps a stepped role with the
// stage index it sees there (kKnownStageAttrName); the lowering makes that
// index a constant. After the lowering, barrier and slot addresses are
// immediates, a step is a constant store and the phase flips once per
// round of S items, as in a hand-written ring unrolled by its stage count.
// Right after the pipeline's init every role is at stage 0, the first loop
// runs no iteration and folds away.
//
// With rotate-wait (the default), a loop that is not nested in another loop
// and whose first op with effects is a plain acquire is unrolled by two
// rounds (2 S copies, the phase the same at the top of every iteration),
// and that acquire's wait moves one iteration ahead; see rotateFirstWait.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace pmlir {
#define GEN_PASS_DEF_UNROLLSTAGES
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;

namespace {
/// The role state of one role of one pipeline.create.
using RoleKey = std::pair<Operation *, Role>;

/// What a pipeline op does to the state of one role (from its protocol
/// effects).
struct RoleAccess {
  RoleKey key;
  /// How many times it steps the role (0 for an op that only reads it).
  unsigned steps;
};
} // namespace

/// True when `role` of a pipeline of type `type` steps when it acquires a
/// stage (a consumer with consumer_depth > 1) rather than at the release.
static bool stepsAtAcquire(PipelineType type, Role role) {
  return role == Role::consumer && type.getConsumerDepth() > 1;
}

/// What `op` does to role state (its declared ProtocolStep). std::nullopt:
/// nothing. Failure: it touches role state in a way the pass does not
/// follow (an unknown pipeline instance, a drain).
static FailureOr<std::optional<RoleAccess>> getRoleAccess(Operation *op) {
  ProtocolEffects effects = getProtocolEffects(op);
  if (effects.step == ProtocolStep::None)
    return std::optional<RoleAccess>();
  std::optional<Role> role = getProtocolRole(op);
  if (effects.step == ProtocolStep::Drain || !role)
    return failure();
  Value pipeline = effects.role == ProtocolRole::OfStage
                       ? getStageSource(op->getOperand(0))
                       : op->getOperand(0);
  CreateOp create = pipeline ? getCreateOp(pipeline) : CreateOp();
  if (!create)
    return failure();
  PipelineType type = create.getResult().getType();
  unsigned steps = 0;
  switch (effects.step) {
  case ProtocolStep::Always:
    steps = 1;
    break;
  case ProtocolStep::AtAcquire:
    steps = stepsAtAcquire(type, *role) ? 1 : 0;
    break;
  case ProtocolStep::AtRelease:
    steps = stepsAtAcquire(type, *role) ? 0 : 1;
    break;
  default:
    break;
  }
  return std::optional<RoleAccess>(RoleAccess{{create, *role}, steps});
}

namespace {
/// A loop the pass unrolls: the roles it steps (once per iteration each,
/// all with `stages` stages) and, for each, its stepping op.
struct Candidate {
  scf::ForOp loop;
  int64_t stages = 0;
  llvm::MapVector<RoleKey, Operation *> stepOps;
};
} // namespace

/// The op of `block` that contains `op` (or `op` itself).
static Operation *topLevelAncestor(Block *block, Operation *op) {
  return block->findAncestorOpInBlock(*op);
}

/// Checks whether the pass can unroll `loop`; fills `candidate`.
static bool isCandidate(scf::ForOp loop, unsigned maxBodyOps,
                        Candidate &candidate) {
  // Index loops only: the trip count arithmetic cannot overflow.
  if (!loop.getInductionVar().getType().isIndex() || loop.getUnsignedCmp())
    return false;
  Block *body = loop.getBody();
  unsigned numOps = 0;
  bool ok = true;
  llvm::MapVector<RoleKey, Operation *> stepOps;
  loop.getBody()->walk([&](Operation *op) {
    ++numOps;
    FailureOr<std::optional<RoleAccess>> access = getRoleAccess(op);
    if (failed(access)) {
      ok = false;
      return WalkResult::interrupt();
    }
    if (!*access)
      return WalkResult::advance();
    const RoleAccess &a = **access;
    // The role state must outlive the loop.
    if (loop->isAncestor(a.key.first)) {
      ok = false;
      return WalkResult::interrupt();
    }
    if (a.steps == 0)
      return WalkResult::advance();
    // Exactly one step per iteration: one stepping op, directly in the body
    // (not under an scf.if or in a nested loop).
    if (op->getBlock() != body || !stepOps.insert({a.key, op}).second) {
      ok = false;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!ok || stepOps.empty() || numOps > maxBodyOps)
    return false;
  int64_t stages = 0;
  for (auto &[key, op] : stepOps) {
    auto type = cast<CreateOp>(key.first).getResult().getType();
    // A consumer that steps at the acquire has ops after the step inside
    // its scoped region; not followed.
    if (stepsAtAcquire(type, key.second))
      return false;
    if (stages && stages != type.getStages())
      return false;
    stages = type.getStages();
  }
  candidate.loop = loop;
  candidate.stages = stages;
  candidate.stepOps = std::move(stepOps);
  return true;
}

/// The stage index of role `key` read before the loop.
static Value readStage(OpBuilder &b, Location loc, RoleKey key) {
  Value pipeline = cast<CreateOp>(key.first).getResult();
  if (key.second == Role::producer)
    return ProducerStageOp::create(b, loc, b.getIndexType(), pipeline);
  return ConsumerStageOp::create(b, loc, b.getIndexType(), pipeline);
}

/// A copy of `loop` over [lb, ub) with `inits`, its body cloned as is.
static scf::ForOp cloneLoop(OpBuilder &b, scf::ForOp loop, Value lb, Value ub,
                            ValueRange inits) {
  auto copy =
      scf::ForOp::create(b, loop.getLoc(), lb, ub, loop.getStep(), inits);
  IRMapping map;
  map.map(loop.getInductionVar(), copy.getInductionVar());
  map.map(loop.getRegionIterArgs(), copy.getRegionIterArgs());
  OpBuilder::InsertionGuard guard(b);
  // Replace the body scf.for::create may have made (an empty yield).
  copy.getBody()->clear();
  b.setInsertionPointToEnd(copy.getBody());
  for (Operation &op : loop.getBody()->getOperations())
    b.clone(op, map);
  return copy;
}

/// Marks the ops under `copy` (a clone of `original`, an op of the loop
/// body `body`, in a copy of the body whose roles start at stage `stage`)
/// that read or step a stepped role with the stage index they see: `stage`
/// before the role's step (and inside the stepping op's region), the next
/// stage after it.
static void markKnownStages(const Candidate &c, Block *body,
                            Operation *original, Operation *copy,
                            int64_t stage) {
  // The clone has the structure of the original: walk both in step.
  SmallVector<Operation *> originals, clones;
  original->walk([&](Operation *o) { originals.push_back(o); });
  copy->walk([&](Operation *o) { clones.push_back(o); });
  for (auto [o, cl] : llvm::zip_equal(originals, clones)) {
    FailureOr<std::optional<RoleAccess>> access = getRoleAccess(o);
    if (failed(access) || !*access)
      continue;
    auto it = c.stepOps.find((*access)->key);
    if (it == c.stepOps.end())
      continue;
    Operation *stepOp = it->second;
    Operation *top = topLevelAncestor(body, o);
    bool after = top != stepOp && stepOp->isBeforeInBlock(top);
    int64_t known = (stage + (after ? 1 : 0)) % c.stages;
    cl->setAttr(
        kKnownStageAttrName,
        IntegerAttr::get(IntegerType::get(cl->getContext(), 64), known));
  }
}

/// A one-stage ring is always at stage 0: mark the loop's ops in place.
static void markOneStage(const Candidate &c) {
  scf::ForOp loop = c.loop;
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator())
    markKnownStages(c, body, &op, &op, 0);
}

/// True when `v` is a 32-bit value as an index: a constant that fits in
/// i32, or a sign-extending cast of an integer of at most 32 bits.
static bool isI32Index(Value v) {
  APInt c;
  if (matchPattern(v, m_ConstantInt(&c)))
    return c.isSignedIntN(32);
  auto cast = v.getDefiningOp<arith::IndexCastOp>();
  if (!cast)
    return false;
  auto type = dyn_cast<IntegerType>(cast.getIn().getType());
  return type && type.getWidth() <= 32;
}

/// True when `op` or an op nested in it waits, signals or steps a role
/// (the scoped ops declare only their regions' memory effects: a `consume`
/// whose region holds pure ops still waits, arrives and steps).
static bool touchesProtocol(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        ProtocolEffects effects = getProtocolEffects(nested);
        bool touches = effects.step != ProtocolStep::None ||
                       effects.wait != ProtocolWait::None ||
                       effects.signal != ProtocolSignal::None;
        return touches ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// The op of `body` whose wait rotate-wait may move: the first op with
/// memory or protocol effects, when it acquires a stage of a stepped role
/// with a plain blocking wait (no ready token, no sub-stages). Moving the
/// wait ahead of ops with neither cannot make it wait for anything this
/// thread does later.
static Operation *getRotatableAcquire(const Candidate &c, Block *body) {
  for (Operation &op : body->without_terminator()) {
    if (isMemoryEffectFree(&op) && !touchesProtocol(&op))
      continue;
    if (!isPlainAcquire(&op))
      return nullptr;
    FailureOr<std::optional<RoleAccess>> access = getRoleAccess(&op);
    if (failed(access) || !*access || !c.stepOps.contains((*access)->key))
      return nullptr;
    PipelineType type =
        cast<CreateOp>((*access)->key.first).getResult().getType();
    if (type.getProducerSubStages() != 1 || type.getConsumerSubStages() != 1)
      return nullptr;
    return &op;
  }
  return nullptr;
}

/// The wait of `acquire` (at stage 0, which every stepped role is at
/// between rounds) as a direct op, at the acquire's location (line info and
/// the simulator's reports name the acquire).
static void waitAhead(OpBuilder &b, Operation *acquire) {
  Location loc = acquire->getLoc();
  Value pipeline = acquire->getOperand(0);
  Operation *wait;
  if (*getProtocolRole(acquire) == Role::producer)
    wait = WaitConsumerOp::create(b, loc, pipeline);
  else
    wait = WaitProducerOp::create(b, loc, pipeline);
  wait->setAttr(kKnownStageAttrName, b.getI64IntegerAttr(0));
}

/// rotate-wait: moves the wait of `acquire` (the first acquire of the body
/// of `main`) one iteration ahead. `main` becomes
///
///   scf.if %lb < %ub {
///     wait                                   // round 0's first wait
///     scf.for %i = %lb to %ub - %st step %st { body; wait }
///     body(%ub - %st)                        // the last round
///   }
///
/// Returns the values that replace `main`'s results. The last round is
/// peeled rather than its wait put under an `scf.if`: LLVM merges such a
/// conditional wait with the loop latch, and ptxas then keeps the retry of
/// that wait inline with a NANOSLEEP backoff (measured 1.2 to 1.5 times
/// slower per item on an H200).
static SmallVector<Value> rotateFirstWait(OpBuilder &b, Location loc,
                                          scf::ForOp main, Operation *acquire,
                                          ValueRange inits) {
  acquire->setAttr(kWaitedAheadAttrName, b.getUnitAttr());
  Block *body = main.getBody();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(body->getTerminator());
    waitAhead(b, acquire);
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(main);
  Value lb = main.getLowerBound(), ub = main.getUpperBound(),
        step = main.getStep();
  Value entered =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, lb, ub);
  Value lastLb = arith::SubIOp::create(b, loc, ub, step);
  auto ifOp = scf::IfOp::create(b, loc, main.getResultTypes(), entered,
                                /*withElseRegion=*/true);
  // Without results the regions come with their scf.yield.
  auto fill = [&](Region &region) {
    Block &block = region.front();
    if (!block.empty() && block.back().hasTrait<OpTrait::IsTerminator>())
      block.back().erase();
    b.setInsertionPointToEnd(&block);
  };
  fill(ifOp.getElseRegion());
  scf::YieldOp::create(b, loc, inits);
  fill(ifOp.getThenRegion());
  waitAhead(b, acquire);
  main->moveBefore(b.getInsertionBlock(), b.getInsertionBlock()->end());
  main.getUpperBoundMutable().assign(lastLb);
  b.setInsertionPointAfter(main);
  // The last round: the body without its trailing wait.
  IRMapping map;
  map.map(main.getInductionVar(), lastLb);
  map.map(main.getRegionIterArgs(), main.getResults());
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  for (Operation &op : body->without_terminator())
    if (&op != yield->getPrevNode())
      b.clone(op, map);
  SmallVector<Value> results;
  for (Value v : yield.getOperands())
    results.push_back(map.lookupOrDefault(v));
  scf::YieldOp::create(b, loc, results);
  return SmallVector<Value>(ifOp.getResults());
}

/// Unrolls `c`; returns the number of body copies per iteration. With
/// `rotateWait`, a loop whose first acquire's wait can move is unrolled by
/// two rounds of the ring and its wait rotated (`rotated`).
static int64_t unroll(const Candidate &c, bool rotateWait, bool &rotated) {
  scf::ForOp loop = c.loop;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  const int64_t S = c.stages;
  // Copy j works on stage j mod S. With one round the phase flips once
  // per iteration (a select of the parity before the round's first wait);
  // with two it is the same in every iteration (a loop-invariant parity
  // per copy). Two rounds pay only with the first wait rotated: a loop
  // that starts with a wait has ptxas keep that wait's retry inline behind
  // a YIELD (docs/benchmarks.md).
  // Only a loop that runs once (not inside another loop): a nested loop
  // pays its prologue and its rolled rest, up to 2 S - 1 items instead of
  // S - 1 with two rounds, in every outer iteration. Measured on the GEMM's
  // per-tile k-loop (H200): 0.5 to 1.3 % slower with the rotation.
  rotateWait = rotateWait && !loop->getParentOfType<LoopLikeOpInterface>() &&
               getRotatableAcquire(c, loop.getBody());
  const int64_t factor = rotateWait ? 2 * S : S;
  auto cst = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value lb = loop.getLowerBound(), ub = loop.getUpperBound(),
        step = loop.getStep();

  // Iterations: ceil(max(ub - lb, 0) / step).
  Value span = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), cst(0));
  Value trips = arith::CeilDivSIOp::create(b, loc, span, step);

  // Peel until the first stepped role is at stage 0.
  RoleKey first = c.stepOps.front().first;
  Value s0 = readStage(b, loc, first);
  Value toZero = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, cst(S), s0), cst(S));
  Value peel = arith::MinSIOp::create(b, loc, toZero, trips);
  Value mid = arith::AddIOp::create(b, loc, lb,
                                    arith::MulIOp::create(b, loc, peel, step));
  scf::ForOp prologue = cloneLoop(b, loop, lb, mid, loop.getInitArgs());

  // The unrolled loop runs only when every stepped role is at stage 0.
  Value aligned;
  for (auto &entry : c.stepOps) {
    Value atZero =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                              readStage(b, loc, entry.first), cst(0));
    aligned = aligned
                  ? arith::AndIOp::create(b, loc, aligned, atZero).getResult()
                  : atZero;
  }
  Value rest = arith::SubIOp::create(b, loc, trips, peel);
  Value iterations = arith::SelectOp::create(
      b, loc, aligned, arith::DivUIOp::create(b, loc, rest, cst(factor)),
      cst(0));
  Value roundStep = arith::MulIOp::create(b, loc, step, cst(factor));
  Value end = arith::AddIOp::create(
      b, loc, mid, arith::MulIOp::create(b, loc, iterations, roundStep));

  // A loop over 32-bit bounds counts in i32, as a hand-written ring's
  // `int` does: one 32-bit add and compare per round instead of a 64-bit
  // pair. Safe: mid <= end <= ub and the last increment reaches end, all
  // within the i32 range of the bounds.
  APInt stepValue;
  bool narrow = loop.getInductionVar().getType().isIndex() &&
                !loop.getUnsignedCmp() && isI32Index(lb) && isI32Index(ub) &&
                matchPattern(step, m_ConstantInt(&stepValue)) &&
                stepValue.isStrictlyPositive() &&
                (stepValue * factor).isSignedIntN(32);
  Type i32 = b.getI32Type();
  auto toI32 = [&](Value v) -> Value {
    return arith::IndexCastOp::create(b, loc, i32, v);
  };
  // The casts are created one statement at a time: as call arguments their
  // order (and the printed IR) would depend on the host compiler.
  Value mainLb = mid, mainUb = end, mainStep = roundStep;
  if (narrow) {
    mainLb = toI32(mid);
    mainUb = toI32(end);
    mainStep = toI32(roundStep);
  }
  auto main = scf::ForOp::create(b, loc, mainLb, mainUb, mainStep,
                                 prologue.getResults());
  {
    OpBuilder::InsertionGuard guard(b);
    Block *mainBody = main.getBody();
    mainBody->clear();
    b.setInsertionPointToEnd(mainBody);
    Block *body = loop.getBody();
    ValueRange carried = main.getRegionIterArgs();
    SmallVector<Value> next(carried.begin(), carried.end());
    Value mainIv = main.getInductionVar();
    if (narrow)
      mainIv = arith::IndexCastOp::create(b, loc, b.getIndexType(), mainIv);
    for (int64_t j = 0; j < factor; ++j) {
      IRMapping map;
      Value iv = mainIv;
      if (j)
        iv = arith::AddIOp::create(b, loc, iv,
                                   arith::MulIOp::create(b, loc, step, cst(j)));
      map.map(loop.getInductionVar(), iv);
      map.map(loop.getRegionIterArgs(), next);
      for (Operation &op : body->without_terminator()) {
        Operation *copy = b.clone(op, map);
        markKnownStages(c, body, &op, copy, j % S);
      }
      auto yield = cast<scf::YieldOp>(body->getTerminator());
      for (auto [k, v] : llvm::enumerate(yield.getOperands()))
        next[k] = map.lookupOrDefault(v);
    }
    scf::YieldOp::create(b, loc, next);
  }

  // rotate-wait: the first acquire's wait runs before the loop and at the
  // end of each iteration but the last; the acquire only takes the stage.
  SmallVector<Value> mainResults(main.getResults());
  rotated = false;
  if (Operation *acquire =
          rotateWait ? getRotatableAcquire(c, main.getBody()) : nullptr) {
    mainResults = rotateFirstWait(b, loc, main, acquire, prologue.getResults());
    rotated = true;
  }

  scf::ForOp epilogue = cloneLoop(b, loop, end, ub, mainResults);
  loop.replaceAllUsesWith(epilogue.getResults());
  loop.erase();
  return factor;
}

namespace {
struct UnrollStagesPass : pmlir::impl::UnrollStagesBase<UnrollStagesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Candidate> candidates;
    getOperation()->walk([&](scf::ForOp loop) {
      ++numLoops;
      Candidate c;
      if (isCandidate(loop, maxBodyOps, c))
        candidates.push_back(std::move(c));
    });
    for (const Candidate &c : candidates) {
      if (c.stages == 1) {
        markOneStage(c);
        ++numOneStage;
      } else {
        bool rotated = false;
        int64_t copies = unroll(c, rotateWait, rotated);
        numCopies += rotated ? 2 * copies : copies;
        ++numUnrolled;
        numRotated += rotated;
      }
    }
  }
};
} // namespace
