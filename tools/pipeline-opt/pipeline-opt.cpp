//===- pipeline-opt.cpp - pipeline-mlir optimizer driver --------*- C++ -*-===//
//
// Upstream MlirOptMain with the upstream dialects a GPU kernel needs, all
// upstream passes, and this project's dialect and passes. Unlike mlir-opt,
// it exits non-zero when any pass reported an error, also one that did not
// fail its pass (some upstream conversions report and go on), as
// pipeline-compile and the C API do. Its diagnostics name the op by its
// location only, as pipeline-compile's: -mlir-print-op-on-diagnostic is off
// unless given (it attached the op in generic form to every error, for a
// region op all the IR nested in it).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/IR/InputLimits.h"
#include "pipeline/InitAllPipeline.h"
#include "pipeline/Version.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

#include <memory>

using namespace mlir;

namespace pmlir::test {
void registerTestProtocolEffectsPass();
} // namespace pmlir::test

namespace {
/// The last pass of every pipeline-opt run: fails when an error diagnostic
/// was reported while the passes before it ran, so that the tool's exit
/// status says so.
struct FailOnReportedErrorsPass
    : public PassWrapper<FailOnReportedErrorsPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(FailOnReportedErrorsPass)

  explicit FailOnReportedErrorsPass(std::shared_ptr<unsigned> errors)
      : errors(std::move(errors)) {}
  StringRef getArgument() const override {
    return "pipeline-opt-fail-on-reported-errors";
  }
  void runOnOperation() override {
    if (*errors)
      signalPassFailure();
  }

  std::shared_ptr<unsigned> errors;
};
} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "pipeline-mlir " PIPELINE_MLIR_VERSION "\n";
  });
  registerAllPasses();
  pmlir::registerAllPipelinePasses();
  pmlir::test::registerTestProtocolEffectsPass();

  // The default of -mlir-print-op-on-diagnostic becomes false before the
  // command line is parsed, so that the flag still turns it on.
  registerMLIRContextCLOptions();
  if (llvm::cl::Option *printOp = llvm::cl::getRegisteredOptions().lookup(
          "mlir-print-op-on-diagnostic"))
    static_cast<llvm::cl::opt<bool> *>(printOp)->setInitialValue(false);

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // gpu-module-to-binary (pipeline-lower-to-binary) translates to LLVM IR.
  registerAllToLLVMIRTranslations(registry);
  pmlir::registerAllPipelineDialects(registry);

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "pipeline-mlir optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  // Listing dialects or passes processes no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return asMainReturnCode(
        MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // The pipeline of the command line, then the error check. The counter
  // is registered on each input's context (one per split of
  // -split-input-file) ahead of the tool's own handler, which still
  // prints or verifies every diagnostic.
  MlirOptMainConfig commandLine = config;
  config.setPassPipelineSetupFn([commandLine](PassManager &pm) {
    if (failed(commandLine.setupPassPipeline(pm)))
      return failure();
    auto errors = std::make_shared<unsigned>(0);
    pm.getContext()->getDiagEngine().registerHandler(
        [errors](Diagnostic &diag) {
          if (diag.getSeverity() == DiagnosticSeverity::Error)
            ++*errors;
          return failure();
        });
    pm.addPass(std::make_unique<FailOnReportedErrorsPass>(errors));
    return success();
  });

  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &message);
  if (!input) {
    llvm::errs() << message << "\n";
    return EXIT_FAILURE;
  }
  if (std::optional<pmlir::TextNestingError> deep =
          pmlir::findExcessTextNesting(input->getBuffer())) {
    llvm::errs() << inputFilename << ":" << deep->line << ":" << deep->column
                 << ": error: " << deep->message << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &message);
  if (!output) {
    llvm::errs() << message << "\n";
    return EXIT_FAILURE;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}
