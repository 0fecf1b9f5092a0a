//===- MmaElection.cpp - who issues an MMA commit -------------*- C++ -*-===//
//
// verifyMmaElection: a pipeline.release_mma or pipeline.commit_mma without
// `elect(...)` lowers to elect.sync with the full warp mask, which every
// lane of the warp must execute. Written inside a branch that only some
// lanes of a warp take (the branch in which one lane issues the MMAs), the
// one lane waits in elect.sync for the other 31 forever. This check finds
// such a branch: a condition that differs between the lanes of one warp.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace pmlir;

namespace {
/// Whether values differ between the lanes of one warp: a lane source (the
/// x thread id, the lane id, nvvm.elect.sync) not divided down to a warp
/// index (a division or right shift by a multiple of 32, a mask clearing
/// the low five bits). Only what is known to vary counts: a load or an
/// unknown block argument does not (the check reports nothing it cannot
/// show).
class LaneVariance {
public:
  bool varies(Value v, unsigned depth = 0) {
    if (depth > 64)
      return false;
    auto [it, inserted] = memo.try_emplace(v, false);
    if (!inserted)
      return it->second;
    bool result = compute(v, depth);
    memo[v] = result;
    return result;
  }

private:
  bool compute(Value v, unsigned depth) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      Operation *parent = arg.getOwner()->getParentOp();
      if (auto launch = dyn_cast_or_null<gpu::LaunchOp>(parent))
        return v == launch.getThreadIds().x;
      if (auto forOp = dyn_cast_or_null<scf::ForOp>(parent);
          forOp && arg.getArgNumber() < forOp.getNumInductionVars())
        return varies(forOp.getLowerBound(), depth + 1) ||
               varies(forOp.getStep(), depth + 1);
      return false;
    }
    Operation *op = v.getDefiningOp();
    StringRef name = op->getName().getStringRef();
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
      return tid.getDimension() == gpu::Dimension::x;
    if (isa<gpu::LaneIdOp>(op) || name == "nvvm.elect.sync" ||
        name == "nvvm.read.ptx.sreg.tid.x" ||
        name == "nvvm.read.ptx.sreg.laneid")
      return true;
    // A warp index: x / 32k, x >> (5 + k), x & ~31.
    APInt c;
    if (isa<arith::DivUIOp, arith::DivSIOp, arith::FloorDivSIOp,
            arith::CeilDivUIOp, arith::CeilDivSIOp>(op) &&
        matchPattern(op->getOperand(1), m_ConstantInt(&c)) && !c.isZero() &&
        c.urem(32) == 0)
      return false;
    if (isa<arith::ShRUIOp, arith::ShRSIOp>(op) &&
        matchPattern(op->getOperand(1), m_ConstantInt(&c)) && c.uge(5))
      return false;
    if (isa<arith::AndIOp>(op) &&
        (matchPattern(op->getOperand(1), m_ConstantInt(&c)) ||
         matchPattern(op->getOperand(0), m_ConstantInt(&c))) &&
        (c.getZExtValue() & 31) == 0)
      return false;
    if (op->getNumRegions() != 0 || !isMemoryEffectFree(op))
      return false;
    return llvm::any_of(op->getOperands(),
                        [&](Value x) { return varies(x, depth + 1); });
  }

  DenseMap<Value, bool> memo;
};
} // namespace

LogicalResult pmlir::verifyMmaElection(Operation *root) {
  LaneVariance lanes;
  bool failed = false;
  root->walk([&](Operation *op) {
    if (getProtocolEffects(op).signal != ProtocolSignal::MmaCommit ||
        getMmaCommitElection(op))
      return;
    for (Operation *parent = op->getParentOp(); parent;
         parent = parent->getParentOp()) {
      if (isa<FunctionOpInterface>(parent))
        break;
      Value condition;
      if (auto ifOp = dyn_cast<scf::IfOp>(parent))
        condition = ifOp.getCondition();
      else if (auto sw = dyn_cast<scf::IndexSwitchOp>(parent))
        condition = sw.getArg();
      if (!condition || !lanes.varies(condition))
        continue;
      InFlightDiagnostic diag =
          op->emitOpError()
          << "elects its issuing lane with elect.sync over the full warp, "
             "but runs under a condition that differs between the lanes of "
             "a warp: the lanes that take the branch wait in elect.sync for "
             "the others forever; pass the lane that issues it, elect(%"
             "cond), or move it where the whole warp runs";
      diag.attachNote(parent->getLoc()) << "the condition that splits the warp";
      failed = true;
      break;
    }
  });
  return failure(failed);
}
