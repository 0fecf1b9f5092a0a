//===- ClcIssue.cpp - who issues a cluster launch control request ---------===//
//
// verifyClcIssue: pipeline.clc_try_cancel is executed by one whole warp of
// the scheduler CTA. Lane i of the first %cluster_nctarank lanes arms the
// stage's full barrier of cluster rank i for the 16 response bytes, then
// elect.sync over the full warp picks the lane that issues try_cancel. In
// fewer lanes than the warp, the CTAs whose lane skips it never have the
// response's bytes armed (their consumers wait forever, or complete the
// phase before the response landed) and elect.sync waits for the missing
// lanes forever; in a second warp, every CTA's barrier is armed twice and a
// second cancellation is requested into the same response.
//
// Decided by the thread model (ProtocolUtils.h) at the kernel's block size,
// declared or else the least the kernel's roles need (LaunchContract.h), as
// the arrival counts are; silent where neither is known or the threads
// that execute the op are not a function of the thread.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/LaunchContract.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

namespace {
/// The warps of rank 0's CTA that execute an op, with their lanes.
struct WarpUse {
  unsigned warp;
  unsigned lanes; // executing lanes
  unsigned size;  // lanes of the warp in the block
};

/// The thread model of each kernel, built once.
class KernelModels {
public:
  /// The model of the kernel whose body is `kernel`, or null when its block
  /// size is unknown.
  ThreadModel *get(Region *kernel) {
    auto [it, inserted] = models.try_emplace(kernel);
    if (inserted) {
      if (std::optional<CheckedBlockSize> block = checkedBlockSize(kernel)) {
        ThreadSpace sp;
        sp.block = block->dims;
        sp.threads = unsigned(block->dims[0] * block->dims[1] * block->dims[2]);
        sp.ranks = 1; // the scheduler's CTA, cluster rank 0
        it->second.model = std::make_unique<ThreadModel>(kernel, sp);
        it->second.derived = block->derived;
      }
    }
    return it->second.model.get();
  }
  bool derived(Region *kernel) { return models[kernel].derived; }

private:
  struct Entry {
    std::unique_ptr<ThreadModel> model;
    bool derived = false;
  };
  llvm::DenseMap<Region *, Entry> models;
};
} // namespace

static std::string lanesOf(unsigned n) {
  return std::to_string(n) + (n == 1 ? " lane" : " lanes");
}

static bool checkTryCancel(ClcTryCancelOp op, KernelModels &models) {
  Region *kernel = kernelBody(op);
  if (!kernel)
    return false;
  ThreadModel *model = models.get(kernel);
  if (!model)
    return false;
  const llvm::BitVector *exec = model->exec(op);
  if (!exec)
    return false;
  unsigned threads = model->space().threads;
  SmallVector<WarpUse> warps;
  for (unsigned first = 0; first < threads; first += 32) {
    WarpUse use{first / 32, 0, std::min(32u, threads - first)};
    for (unsigned t = first; t < first + use.size; ++t)
      use.lanes += exec->test(model->space().point(0, t));
    if (use.lanes)
      warps.push_back(use);
  }
  if (warps.empty())
    return false;
  std::optional<InFlightDiagnostic> diag;
  if (const WarpUse *partial = llvm::find_if(
          warps, [](const WarpUse &w) { return w.lanes != w.size; });
      partial != warps.end()) {
    diag.emplace(op.emitOpError()
                 << "expects the whole warp to execute it ("
                 << lanesOf(partial->size) << "), got "
                 << lanesOf(partial->lanes) << " of warp " << partial->warp
                 << ": lane i of the scheduler warp arms the full barrier of "
                    "cluster rank i for the response, so the CTAs whose lane "
                    "skips it never have its bytes armed, and the elect.sync "
                    "over the full warp that issues try_cancel waits for the "
                    "missing lanes forever; run it in one whole warp");
  } else if (warps.size() > 1) {
    diag.emplace(op.emitOpError()
                 << "expects one warp to execute it, got " << warps.size()
                 << " warps (warp " << warps.front().warp << " and "
                 << (warps.size() == 2 ? "warp " : "others up to warp ")
                 << warps.back().warp
                 << "): each warp arms the full barrier of every CTA of the "
                    "cluster (init_mbars producer 1 counts one arrival) and "
                    "requests a cancellation into the same response");
  }
  if (!diag)
    return false;
  if (models.derived(kernel))
    diag->attachNote(kernel->getParentOp()->getLoc())
        << "checked with " << model->space().threads
        << " threads, the least block the kernel's roles need (it declares "
           "no block size; declare one with known_block_size, nvvm.reqntid "
           "or @pm.kernel(block=...) to check at another)";
  return true;
}

LogicalResult pmlir::verifyClcIssue(Operation *root) {
  KernelModels models;
  bool failed = false;
  root->walk([&](ClcTryCancelOp op) { failed |= checkTryCancel(op, models); });
  return failure(failed);
}
