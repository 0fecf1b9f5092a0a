//===- pipeline-lsp-server.cpp - MLIR language server for pipeline-mlir ---===//
//
// Upstream's MLIR language server (MlirLspServerMain) with every upstream
// dialect and this project's `pipeline` dialect registered, so that an editor
// shows parse and verifier errors of pipeline programs, hovers over their
// ops and jumps to the definitions of their values.
//
//===----------------------------------------------------------------------===//

#include "pipeline/InitAllPipeline.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  pmlir::registerAllPipelineDialects(registry);
  return mlir::failed(mlir::MlirLspServerMain(argc, argv, registry)) ? 1 : 0;
}
