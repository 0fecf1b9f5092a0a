// A compiler that embeds pipeline-mlir through its installed CMake package:
// it registers the dialect, its passes and named pipelines, parses a
// kernel, runs both checkers, lowers it to PTX with the named pipeline and
// prints the PTX.
//
//   consumer <kernel.mlir> <chip>     PTX of the first gpu.module on stdout
//   consumer --leak                   a leaking kernel: the checker's error
//
// Exit status 1 when parsing, a checker or the lowering fails.
#include "pipeline/InitAllPipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

static const char *kLeak = R"mlir(
func.func @f() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  %s = pipeline.acquire_consumer %p : !pipeline.pipeline<stages = 2>
  return
}
)mlir";

/// Runs `pipeline`, a textual list of passes, on `module` (the pass
/// manager is anchored on builtin.module already).
static bool run(mlir::ModuleOp module, const std::string &pipeline) {
  mlir::PassManager pm(module->getContext());
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm, llvm::errs()))) {
    llvm::errs() << "consumer: bad pipeline " << pipeline << "\n";
    return false;
  }
  return mlir::succeeded(pm.run(module));
}

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  pmlir::registerAllPipelineDialects(registry);
  pmlir::registerAllPipelinePasses();
  mlir::MLIRContext context(registry);

  bool leak = argc == 2 && std::string(argv[1]) == "--leak";
  if (!leak && argc != 3) {
    llvm::errs() << "usage: consumer <kernel.mlir> <chip> | consumer --leak\n";
    return 2;
  }
  llvm::SourceMgr sources;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      leak ? mlir::parseSourceString<mlir::ModuleOp>(kLeak, &context)
           : mlir::parseSourceFile<mlir::ModuleOp>(argv[1], sources, &context);
  if (!module || mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "consumer: failed to parse the kernel\n";
    return 1;
  }
  if (!run(*module, "pipeline-verify-linearity,pipeline-verify-protocol")) {
    llvm::errs() << "consumer: the checkers rejected the kernel\n";
    return 1;
  }
  if (leak)
    return 0;
  std::string lower =
      std::string("pipeline-lower-to-binary{chip=") + argv[2] + " format=isa}";
  if (!run(*module, lower)) {
    llvm::errs() << "consumer: lowering to PTX failed\n";
    return 1;
  }
  bool printed = false;
  module->walk([&](mlir::gpu::BinaryOp binary) {
    if (printed)
      return;
    for (mlir::Attribute object : binary.getObjects()) {
      auto obj = llvm::cast<mlir::gpu::ObjectAttr>(object);
      llvm::outs() << obj.getObject().getValue();
      printed = true;
      return;
    }
  });
  if (!printed) {
    llvm::errs() << "consumer: no gpu.binary after lowering\n";
    return 1;
  }
  return 0;
}
