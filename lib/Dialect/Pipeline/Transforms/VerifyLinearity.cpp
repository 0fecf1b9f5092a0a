//===- VerifyLinearity.cpp - pipeline-verify-linearity pass -----*- C++ -*-===//
//
// Runs the stage-handle linearity analysis and fails on any error. The IR is
// left unchanged.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/StageLinearity.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"

namespace pmlir {
#define GEN_PASS_DEF_PIPELINEVERIFYLINEARITY
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h.inc"
} // namespace pmlir

using namespace mlir;

namespace {
struct VerifyLinearityPass
    : public pmlir::impl::PipelineVerifyLinearityBase<VerifyLinearityPass> {
  using Base::Base;

  void runOnOperation() override {
    pmlir::StageLinearityStats stats;
    LogicalResult result = pmlir::verifyStageLinearity(getOperation(), &stats);
    if (reportWork)
      getOperation()->emitRemark()
          << "stage linearity work: ops " << stats.ops << ", handles "
          << stats.handles << ", state-changes " << stats.stateChanges
          << ", log-scans " << stats.logScans << ", cfg-blocks " << stats.blocks
          << ", edge-entries " << stats.edgeEntries;
    if (failed(result))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
