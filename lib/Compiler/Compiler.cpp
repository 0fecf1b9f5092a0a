//===- Compiler.cpp - kernel module to PTX and cubin ----------------------===//

#include "pipeline/Compiler/Compiler.h"
#include "pipeline/InitAllPipeline.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llvm;

void pmlir::registerCompilerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registerAllPipelineDialects(registry);
}

Expected<SmallVector<pmlir::CompiledGPUModule>>
pmlir::lowerToPTX(ModuleOp module, const NVVMLoweringConfig &config,
                  StringRef cudaPath) {
  PassManager pm(module->getContext());
  buildPipelineLowerToBinary(pm, config, "isa", cudaPath);
  if (failed(pm.run(module)))
    return createStringError("the lowering failed (see the diagnostics)");

  SmallVector<CompiledGPUModule> result;
  module->walk([&](gpu::BinaryOp binary) {
    for (mlir::Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      result.push_back(
          {binary.getSymName().str(), object.getObject().getValue().str(), ""});
    }
  });
  if (result.empty())
    return createStringError("expects at least one gpu.module");
  return result;
}

Expected<std::string> pmlir::assemblePTX(StringRef ptxas, StringRef chip,
                                         unsigned optLevel, StringRef ptx,
                                         ArrayRef<std::string> extraArgs) {
  SmallString<128> ptxPath, cubinPath, logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("pipeline-kernel", "ptx", ptxPath))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover ptxRemover(ptxPath);
  if (std::error_code ec =
          sys::fs::createTemporaryFile("pipeline-kernel", "cubin", cubinPath))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover cubinRemover(cubinPath);
  if (std::error_code ec =
          sys::fs::createTemporaryFile("ptxas-log", "txt", logPath))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover logRemover(logPath);
  {
    std::error_code ec;
    raw_fd_ostream os(ptxPath, ec);
    if (ec)
      return createStringError(ec, "cannot write " + ptxPath);
    os << ptx;
  }

  std::string arch = ("-arch=" + chip).str();
  std::string opt = "-O" + std::to_string(optLevel);
  SmallVector<StringRef> args = {ptxas, arch, opt};
  for (const std::string &arg : extraArgs)
    args.push_back(arg);
  args.append({ptxPath, "-o", cubinPath});
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string errMsg;
  int rc =
      sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                          /*SecondsToWait=*/600, /*MemoryLimit=*/0, &errMsg);
  std::string log;
  if (auto buffer = MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().rtrim().str();
  if (rc != 0)
    return createStringError(
        "ptxas failed for " + chip + ":\n" +
        (log.empty()
             ? (errMsg.empty() ? "exit status " + std::to_string(rc) : errMsg)
             : log));
  auto cubin = MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
  if (!cubin)
    return createStringError(cubin.getError(), "ptxas wrote no cubin");
  return (*cubin)->getBuffer().str();
}
