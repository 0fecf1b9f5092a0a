//===- VerifyProtocol.cpp - pipeline-verify-protocol pass -------*- C++ -*-===//
//
// Runs the protocol checks of Analysis/ (collective initialization, arrival
// counts, expect_tx bytes, trip counts, drain at exit) and fails on any
// error. The IR is left unchanged.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"

namespace pmlir {
#define GEN_PASS_DEF_PIPELINEVERIFYPROTOCOL
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h.inc"
} // namespace pmlir

using namespace mlir;

namespace {
struct VerifyProtocolPass
    : public pmlir::impl::PipelineVerifyProtocolBase<VerifyProtocolPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(pmlir::verifyPipelineProtocol(getOperation())))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
