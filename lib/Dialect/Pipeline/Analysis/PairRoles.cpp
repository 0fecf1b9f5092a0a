//===- PairRoles.cpp - which CTA of a pair runs a role ---------*- C++ -*-===//
//
// verifyPairConsumerInLeader: the consumer of a CTA-pair input pipeline
// (cta_group = 2, a tile pipeline or a pipeline with a tile view: TMA ->
// the pair's MMA) runs in the leader CTA only. Both CTAs' TMA loads and
// the one expect_tx complete the LEADER's full barrier; the peer's never
// completes a phase, so a consumer waiting there hangs. The rule is the
// dialect's (docs/verifier.md), checked without knowing the block size:
// every consumer wait of such a pipeline must sit under a condition that
// selects the leader ((%cluster_ctarank & 1) == 0, or % 2), and one under
// no condition on the cluster rank at all, or under one that selects the
// peer, is an error. A rank condition of another form is not judged.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace pmlir;

namespace {
/// Which CTA of the pair a condition selects.
enum class PairSide { Unknown, Leader, Peer };

bool isClusterRank(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (auto cast = dyn_cast<arith::IndexCastOp>(op))
    return isClusterRank(cast.getIn());
  if (auto cast = dyn_cast<arith::IndexCastUIOp>(op))
    return isClusterRank(cast.getIn());
  if (auto id = dyn_cast<gpu::ClusterBlockIdOp>(op))
    return id.getDimension() == gpu::Dimension::x;
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

LogicalResult pmlir::verifyPairConsumerInLeader(Operation *root) {
  bool failed = false;
  root->walk([&](Operation *op) {
    if (op->getNumOperands() == 0 || !waitsOnRoleBarrier(op, Role::consumer) ||
        getProtocolEffects(op).wait != ProtocolWait::Blocks)
      return;
    Value pipeline = op->getOperand(0);
    if (getBasePipelineType(pipeline.getType()).getCtaGroup() != 2 ||
        !isInputPipeline(pipeline))
      return;
    PairSide side = PairSide::Unknown;
    Operation *peerCondition = nullptr;
    bool rankConditioned = false;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp()) {
      if (isa<FunctionOpInterface>(parent) || isa<gpu::LaunchOp>(parent))
        break;
      auto ifOp = dyn_cast<scf::IfOp>(parent);
      if (!ifOp)
        continue;
      Value cond = ifOp.getCondition();
      rankConditioned |= dependsOnRank(cond);
      PairSide s = sideOf(cond);
      bool inElse = ifOp.getElseRegion().isAncestor(op->getParentRegion());
      if (inElse && s != PairSide::Unknown)
        s = s == PairSide::Leader ? PairSide::Peer : PairSide::Leader;
      if (s == PairSide::Leader) {
        side = s;
        break;
      }
      if (s == PairSide::Peer) {
        side = s;
        peerCondition = ifOp;
        break;
      }
    }
    if (side == PairSide::Leader ||
        (side == PairSide::Unknown && rankConditioned))
      return;
    InFlightDiagnostic diag =
        op->emitOpError()
        << "waits as the consumer of a CTA-pair input pipeline (cta_group = "
           "2) "
        << (side == PairSide::Peer ? "in the peer CTA"
                                   : "in both CTAs of the pair")
        << ", but only the leader's full barrier completes (both CTAs' TMA "
           "loads and the leader's expect_tx land there): the consumer, the "
           "pair's MMA, runs in the leader only; put it under a condition "
           "such as (%cluster_ctarank & 1) == 0";
    if (peerCondition)
      diag.attachNote(peerCondition->getLoc())
          << "this condition selects the peer CTA";
    failed = true;
  });
  return failure(failed);
}
