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
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
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

static void unroll(const Candidate &c) {
  scf::ForOp loop = c.loop;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  const int64_t S = c.stages;
  // One round of the ring: copy j works on stage j and the phase flips
  // once per iteration. (Two rounds, which make the phase loop-invariant,
  // measured slower on an H100: the loop then starts with a wait, and ptxas
  // keeps that wait's retry inline behind a YIELD; docs/benchmarks.md.)
  const int64_t factor = S;
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

  scf::ForOp epilogue = cloneLoop(b, loop, end, ub, main.getResults());
  loop.replaceAllUsesWith(epilogue.getResults());
  loop.erase();
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
        unroll(c);
        ++numUnrolled;
        numCopies += c.stages;
      }
    }
  }
};
} // namespace
