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
    if (failed(pmlir::verifyStageLinearity(getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
