//===- ProtocolChecks.cpp - everything pipeline-verify-protocol checks ----===//
//
// verifyPipelineProtocol: the collective initialization (PipelineInit.cpp),
// then, if that holds, each check of its own file: arrival counts,
// expect_tx bytes, trip counts, the drain before the exit, MMA commits,
// cluster launch control, role placement and tensor memory.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/Analysis/PipelineInit.h"

using namespace mlir;
using namespace pmlir;

LogicalResult pmlir::verifyPipelineProtocol(Operation *root) {
  if (failed(verifyPipelineInit(root)))
    return failure();
  bool failed = false;
  failed |= mlir::failed(verifyArrivalCounts(root));
  failed |= mlir::failed(verifyExpectTxBytes(root));
  failed |= mlir::failed(verifyTripCounts(root));
  failed |= mlir::failed(verifyDrainAtExit(root));
  failed |= mlir::failed(verifyMmaElection(root));
  failed |= mlir::failed(verifyClcIssue(root));
  failed |= mlir::failed(verifyRolePlacement(root));
  failed |= mlir::failed(verifyTensorMemory(root));
  return failure(failed);
}
