//===- RolePlacement.cpp - which CTAs of a cluster run a role -*- C++ -*-===//
//
// verifyRolePlacement: some roles of a pipeline have their place in the
// cluster fixed by the pipeline's kind, the placements the reference's
// kernels follow (docs/verifier.md, "Role placement"):
//
//   pipeline                         producer            consumer
//   cta_group = 2 input (tile)       both CTAs of pair   leader only
//   clc = true (scheduler)           cluster rank 0      (any)
//
// A leader-only role waits on a barrier that only the leader's copy of
// completes (the input pipeline's full barrier receives both CTAs' TMA
// bytes and the leader's expect_tx): in the peer it waits forever. (The
// accumulator pipeline's MMA producer also belongs in the leader, whose
// empty barrier the epilogues' arrivals reach; not checked here, since a
// plain pair pipeline may as well have thread producers in both CTAs and
// an MMA consumer: the simulator finds the hang.) A both-CTA role
// is the pair's TMA producer: the leader arms both halves' bytes, so a
// pair where one CTA does not load never completes a phase. The
// scheduler's try_cancel arms every CTA's barrier from rank 0; a second
// scheduler would arm them twice.
//
// Checked from the conditions around each blocking wait of the role,
// without knowing the block size: a condition on the cluster rank's parity
// ((%cluster_ctarank & 1) == 0, % 2) selects the leader or the peer, one
// comparing the rank with 0 the first CTA. A leader-only or first-CTA role
// under no rank condition, or under one selecting another CTA, is an
// error; a both-CTA role under a condition selecting one CTA of the pair
// is an error. A rank condition of another form is not judged.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

namespace {
/// Which CTAs of the cluster a condition selects.
enum class PairSide { Unknown, Leader, Peer, FirstCta };

/// True for the cluster rank (through index casts): %cluster_ctarank, or,
/// unless `linearOnly`, %cluster_ctaid.x (its parity is the rank's in a
/// cluster of even x size; == 0 selects a column of a 2-D cluster).
bool isClusterRank(Value v, bool linearOnly = false) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return isClusterRank(op->getOperand(0), linearOnly);
  if (auto id = dyn_cast<gpu::ClusterBlockIdOp>(op))
    return !linearOnly && id.getDimension() == gpu::Dimension::x;
  return op->getName().getStringRef() == "nvvm.read.ptx.sreg.cluster.ctarank";
}

/// True for rank & 1 and rank % 2.
bool isRankParity(Value v) {
  APInt c;
  if (auto andOp = v.getDefiningOp<arith::AndIOp>())
    return (isClusterRank(andOp.getLhs()) &&
            matchPattern(andOp.getRhs(), m_ConstantInt(&c)) && c == 1) ||
           (isClusterRank(andOp.getRhs()) &&
            matchPattern(andOp.getLhs(), m_ConstantInt(&c)) && c == 1);
  if (auto rem = v.getDefiningOp<arith::RemUIOp>())
    return isClusterRank(rem.getLhs()) &&
           matchPattern(rem.getRhs(), m_ConstantInt(&c)) && c == 2;
  return false;
}

/// The CTA of the pair an i1 value being true selects.
PairSide sideOf(Value cond, unsigned depth = 0) {
  if (depth > 16)
    return PairSide::Unknown;
  if (auto andOp = cond.getDefiningOp<arith::AndIOp>()) {
    PairSide a = sideOf(andOp.getLhs(), depth + 1);
    return a != PairSide::Unknown ? a : sideOf(andOp.getRhs(), depth + 1);
  }
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return PairSide::Unknown;
  // rank == 0: the first CTA of the cluster (a leader). Only the linear
  // rank: %cluster_ctaid.x == 0 is a whole column of a 2-D cluster.
  APInt k;
  if (cmp.getPredicate() == arith::CmpIPredicate::eq &&
      ((isClusterRank(cmp.getLhs(), /*linearOnly=*/true) &&
        matchPattern(cmp.getRhs(), m_ConstantInt(&k)) && k.isZero()) ||
       (isClusterRank(cmp.getRhs(), /*linearOnly=*/true) &&
        matchPattern(cmp.getLhs(), m_ConstantInt(&k)) && k.isZero())))
    return PairSide::FirstCta;
  Value parity = cmp.getLhs(), other = cmp.getRhs();
  if (!isRankParity(parity))
    std::swap(parity, other);
  APInt c;
  if (!isRankParity(parity) || !matchPattern(other, m_ConstantInt(&c)) ||
      c.ugt(1))
    return PairSide::Unknown;
  bool zero = c.isZero();
  if (cmp.getPredicate() == arith::CmpIPredicate::eq)
    return zero ? PairSide::Leader : PairSide::Peer;
  if (cmp.getPredicate() == arith::CmpIPredicate::ne)
    return zero ? PairSide::Peer : PairSide::Leader;
  return PairSide::Unknown;
}

/// True if `v` depends on the cluster rank.
bool dependsOnRank(Value v, unsigned depth = 0) {
  if (depth > 32)
    return false;
  if (isClusterRank(v))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumRegions())
    return false;
  return llvm::any_of(op->getOperands(),
                      [&](Value x) { return dependsOnRank(x, depth + 1); });
}
} // namespace

namespace {
/// Where a role of a pipeline must run.
enum class Placement { Leader, BothOfPair, FirstCta };

std::optional<Placement> requiredPlacement(PipelineUses &p, Role role) {
  if (p.type.getClc())
    return role == Role::producer ? std::optional(Placement::FirstCta)
                                  : std::nullopt;
  if (p.type.getCtaGroup() != 2)
    return std::nullopt;
  if (isInputPipeline(p.create.getResult()))
    return role == Role::consumer ? Placement::Leader : Placement::BothOfPair;
  return std::nullopt;
}

/// What the role is, for the diagnostic.
std::string describeRole(Value pipeline, Role role) {
  PipelineType type = getBasePipelineType(pipeline.getType());
  if (type.getClc())
    return "the producer of a cluster launch control pipeline (clc = true, "
           "the scheduler)";
  if (isInputPipeline(pipeline))
    return role == Role::consumer
               ? "the consumer of a CTA-pair input pipeline (cta_group = 2, "
                 "the pair's MMA)"
               : "the producer of a CTA-pair input pipeline (cta_group = 2, "
                 "the pair's TMA loads)";
  llvm_unreachable("no placement rule for this role");
}

/// Why the role runs where it does.
StringRef placementReason(Value pipeline, Role role) {
  PipelineType type = getBasePipelineType(pipeline.getType());
  if (type.getClc())
    return "its try_cancel arms the full barrier of every CTA of the cluster "
           "and its consumers signal rank 0's empty barrier: it runs in "
           "cluster rank 0 only; put it under a condition such as "
           "%cluster_ctarank == 0";
  if (isInputPipeline(pipeline) && role == Role::consumer)
    return "only the leader's full barrier completes (both CTAs' TMA loads "
           "and the leader's expect_tx land there): the consumer, the pair's "
           "MMA, runs in the leader only; put it under a condition such as "
           "(%cluster_ctarank & 1) == 0";
  return "the leader arms its full barrier for both CTAs' halves of the "
         "stage and each CTA loads its own half: a CTA that does not load "
         "leaves every phase short and the MMA waits forever; run it in "
         "both CTAs of the pair";
}
} // namespace

namespace {
/// Where the conditions around a wait place it in the cluster.
struct WaitPlace {
  Operation *op;
  PairSide side = PairSide::Unknown;
  Operation *condition = nullptr; // the condition that decided `side`
  bool rankConditioned = false;   // under some condition on the rank
};
} // namespace

/// The innermost condition around `op` that selects CTAs of the cluster.
static WaitPlace placeOf(Operation *op) {
  WaitPlace w{op};
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FunctionOpInterface>(parent) || isa<gpu::LaunchOp>(parent))
      break;
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp)
      continue;
    Value cond = ifOp.getCondition();
    w.rankConditioned |= dependsOnRank(cond);
    PairSide s = sideOf(cond);
    if (ifOp.getElseRegion().isAncestor(op->getParentRegion())) {
      // The else of a leader test is the peer and vice versa; the else of
      // rank == 0 selects no CTA class.
      if (s == PairSide::Leader)
        s = PairSide::Peer;
      else if (s == PairSide::Peer)
        s = PairSide::Leader;
      else if (s == PairSide::FirstCta)
        s = PairSide::Unknown;
    }
    if (s != PairSide::Unknown) {
      w.side = s;
      w.condition = ifOp;
      break;
    }
  }
  return w;
}

/// True when the cluster is known to hold more than one CTA pair: the
/// pipeline's multicast cluster, or the kernel's nvvm.cluster_dim. Rank 0
/// is then not every leader.
static bool severalPairs(PipelineUses &p) {
  if (p.type.hasCross() && p.type.getClusterM() * p.type.getClusterN() > 2)
    return true;
  Operation *owner = p.kernel->getParentOp();
  if (auto dims = owner->getAttrOfType<DenseI32ArrayAttr>("nvvm.cluster_dim")) {
    int64_t ctas = 1;
    for (int32_t d : dims.asArrayRef())
      ctas *= d;
    return ctas > 2;
  }
  return false;
}

/// Reports the wait `w` of `role` of `pipeline` as running `runs`.
static void report(const WaitPlace &w, Value pipeline, Role role,
                   StringRef runs) {
  InFlightDiagnostic diag = w.op->emitOpError()
                            << "waits as " << describeRole(pipeline, role)
                            << " " << runs << ", but "
                            << placementReason(pipeline, role);
  if (w.condition)
    diag.attachNote(w.condition->getLoc())
        << "this condition selects "
        << (w.side == PairSide::Leader ? "the leader CTA"
            : w.side == PairSide::Peer ? "the peer CTA"
                                       : "cluster rank 0");
}

LogicalResult pmlir::verifyRolePlacement(Operation *root) {
  bool failed = false;
  for (PipelineUses &p : collectPipelines(root))
    for (Role role : {Role::producer, Role::consumer}) {
      std::optional<Placement> where = requiredPlacement(p, role);
      if (!where)
        continue;
      SmallVector<WaitPlace> waits;
      for (Operation *op : p.users)
        if (getProtocolEffects(op).wait == ProtocolWait::Blocks &&
            waitsOnRoleBarrier(op, role))
          waits.push_back(placeOf(op));
      if (waits.empty())
        continue;
      Value pipeline = waits.front().op->getOperand(0);
      switch (*where) {
      case Placement::Leader:
        // Each wait under a leader test (rank == 0 only when the cluster
        // is one pair, or not known to hold more).
        for (const WaitPlace &w : waits) {
          bool ok = w.side == PairSide::Leader ||
                    (w.side == PairSide::FirstCta && !severalPairs(p)) ||
                    (w.side == PairSide::Unknown && w.rankConditioned);
          if (ok)
            continue;
          report(w, pipeline, role,
                 w.side == PairSide::Peer ? "in the peer CTA"
                 : w.side == PairSide::FirstCta
                     ? "in cluster rank 0 only (the leader of one of the "
                       "cluster's pairs)"
                     : "in both CTAs of the pair");
          failed = true;
        }
        break;
      case Placement::BothOfPair: {
        // The role as a whole runs in both CTAs: some wait under no
        // condition selecting one CTA of the pair, or waits in each of them
        // (a split into leader and peer branches).
        bool anywhere = llvm::any_of(waits, [](const WaitPlace &w) {
          return w.side == PairSide::Unknown;
        });
        bool inLeader = llvm::any_of(waits, [](const WaitPlace &w) {
          return w.side == PairSide::Leader || w.side == PairSide::FirstCta;
        });
        bool inPeer = llvm::any_of(
            waits, [](const WaitPlace &w) { return w.side == PairSide::Peer; });
        if (anywhere || (inLeader && inPeer))
          break;
        for (const WaitPlace &w : waits)
          report(w, pipeline, role,
                 w.side == PairSide::Peer       ? "in the peer CTA only"
                 : w.side == PairSide::FirstCta ? "in cluster rank 0 only"
                                                : "in the leader CTA only");
        failed = true;
        break;
      }
      case Placement::FirstCta:
        for (const WaitPlace &w : waits) {
          bool ok = w.side == PairSide::FirstCta ||
                    (w.side == PairSide::Unknown && w.rankConditioned);
          if (ok)
            continue;
          report(w, pipeline, role,
                 w.side == PairSide::Peer ? "in the peer CTAs of the cluster"
                                          : "in every CTA of the cluster");
          failed = true;
        }
        break;
      }
    }
  return failure(failed);
}
