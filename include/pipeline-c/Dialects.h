/*===- Dialects.h - C API of the pipeline dialect -----------------*- C -*-===*\
|*                                                                            *|
|* Registration of the `pipeline` dialect for MLIR's C API, as upstream       *|
|* dialects do it: mlirDialectHandleRegisterDialect(                          *|
|*     mlirGetDialectHandle__pipeline__(), context).                          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PIPELINE_C_DIALECTS_H
#define PIPELINE_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Pipeline, pipeline);

/// Registers, in `registry`, every dialect, extension and LLVM IR
/// translation a pipeline kernel file may use (MLIR's and `pipeline`).
MLIR_CAPI_EXPORTED void
pmlirRegisterCompilerDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // PIPELINE_C_DIALECTS_H
