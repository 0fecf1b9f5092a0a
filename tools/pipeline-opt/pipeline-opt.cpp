//===- pipeline-opt.cpp - pipeline-mlir optimizer driver --------*- C++ -*-===//
//
// Upstream MlirOptMain with the upstream dialects a GPU kernel needs, all
// upstream passes, and this project's dialect and passes.
//
//===----------------------------------------------------------------------===//

#include "pipeline/InitAllPipeline.h"
#include "pipeline/Version.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "pipeline-mlir " PIPELINE_MLIR_VERSION "\n";
  });
  mlir::registerAllPasses();
  pmlir::registerAllPipelinePasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary (pipeline-lower-to-binary) translates to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  pmlir::registerAllPipelineDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "pipeline-mlir optimizer driver\n", registry));
}
