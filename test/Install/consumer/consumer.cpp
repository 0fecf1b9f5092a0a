// Parses and verifies a pipeline kernel through the installed library.
#include "pipeline/InitAllPipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

static const char *kSource = R"mlir(
func.func @f() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2>
  %s = pipeline.acquire_consumer %p : !pipeline.pipeline<stages = 2>
  pipeline.release %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>
  return
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  pmlir::registerAllPipelineDialects(registry);
  pmlir::registerAllPipelinePasses();
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kSource, &context);
  if (!module || mlir::failed(mlir::verify(*module))) {
    llvm::errs() << "consumer: failed to parse the pipeline kernel\n";
    return 1;
  }
  return 0;
}
