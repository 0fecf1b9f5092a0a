/*===- Passes.h - C API of the pipeline passes --------------------*- C -*-===*\
|*                                                                            *|
|* Registration of pipeline-mlir's passes and named pass pipelines, so that  *|
|* mlirParsePassPipeline accepts pipeline-verify-linearity,                  *|
|* convert-pipeline-to-nvgpu, pipeline-lower-to-nvvm, ...                     *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PIPELINE_C_PASSES_H
#define PIPELINE_C_PASSES_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every pass and named pass pipeline of pipeline-mlir.
MLIR_CAPI_EXPORTED void pmlirRegisterAllPasses(void);

/// Creates the linearity checker (pipeline-verify-linearity).
MLIR_CAPI_EXPORTED MlirPass pmlirCreateVerifyLinearityPass(void);

/// Creates the protocol checker (pipeline-verify-protocol).
MLIR_CAPI_EXPORTED MlirPass pmlirCreateVerifyProtocolPass(void);

#ifdef __cplusplus
}
#endif

#endif // PIPELINE_C_PASSES_H
