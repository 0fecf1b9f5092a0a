//===- Dialects.cpp - C API of the pipeline dialect -----------------------===//

#include "pipeline-c/Dialects.h"
#include "pipeline/Compiler/Compiler.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Pipeline, pipeline,
                                      pmlir::PipelineDialect)

void pmlirRegisterCompilerDialects(MlirDialectRegistry registry) {
  pmlir::registerCompilerDialects(*unwrap(registry));
}
