//===- Passes.cpp - C API of the pipeline passes --------------------------===//

#include "pipeline-c/Passes.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"
#include "pipeline/InitAllPipeline.h"

#include "mlir/CAPI/Pass.h"

void pmlirRegisterAllPasses(void) { pmlir::registerAllPipelinePasses(); }

MlirPass pmlirCreateVerifyLinearityPass(void) {
  return wrap(pmlir::createPipelineVerifyLinearity().release());
}

MlirPass pmlirCreateVerifyProtocolPass(void) {
  return wrap(pmlir::createPipelineVerifyProtocol().release());
}
