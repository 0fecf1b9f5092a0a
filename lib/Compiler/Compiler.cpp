//===- Compiler.cpp - kernel module to PTX, cubin and fatbin --------------===//

#include "pipeline/Compiler/Compiler.h"
#include "pipeline/InitAllPipeline.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Diagnostics.h"
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
                  StringRef cudaPath,
                  llvm::function_ref<LogicalResult(PassManager &)> configure) {
  MLIRContext *context = module->getContext();
  // Any error diagnostic fails the compile: some upstream passes report an
  // error and still succeed. The handler passes every diagnostic on to the
  // embedder's or the tool's handler.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      ++errors;
    return failure();
  });

  // Only NVIDIA targets: gpu-module-to-binary would serialize any other
  // target too, and its assembly would pass for PTX.
  module->walk([&](gpu::GPUModuleOp gpuModule) {
    ArrayAttr targets = gpuModule.getTargetsAttr();
    if (!targets)
      return;
    for (mlir::Attribute target : targets)
      if (!isa<NVVM::NVVMTargetAttr>(target))
        gpuModule.emitOpError()
            << "expects only #nvvm.target targets (the compile driver "
               "produces PTX for NVIDIA GPUs), got "
            << target;
  });
  if (errors)
    return createStringError("the compile failed (see the diagnostics)");

  PassManager pm(context);
  buildPipelineLowerToBinary(pm, config, "isa", cudaPath);
  if (configure && failed(configure(pm)))
    return createStringError("cannot set up the pass manager");
  if (failed(pm.run(module)) || errors)
    return createStringError("the compile failed (see the diagnostics)");

  SmallVector<CompiledGPUModule> result;
  module->walk([&](gpu::BinaryOp binary) {
    for (mlir::Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (!isa<NVVM::NVVMTargetAttr>(object.getTarget()))
        continue;
      CompiledGPUModule compiled;
      compiled.name = binary.getSymName().str();
      compiled.ptx = object.getObject().getValue().str();
      result.push_back(std::move(compiled));
    }
  });
  if (result.empty())
    return createStringError("expects at least one gpu.module");
  return result;
}

namespace {
/// A temporary file removed at the end of the scope.
struct TempFile {
  SmallString<128> path;
  std::optional<FileRemover> remover;

  Error create(StringRef prefix, StringRef suffix) {
    if (std::error_code ec = sys::fs::createTemporaryFile(prefix, suffix, path))
      return createStringError(ec, "cannot create a temporary file");
    remover.emplace(path);
    return Error::success();
  }
  Error write(StringRef contents) {
    std::error_code ec;
    raw_fd_ostream os(path, ec);
    if (ec)
      return createStringError(ec, "cannot write " + path);
    os << contents;
    return Error::success();
  }
  Expected<std::string> read() const {
    auto buffer = MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer)
      return createStringError(buffer.getError(), "cannot read " + path);
    return (*buffer)->getBuffer().str();
  }
};
} // namespace

/// Runs `args` (args[0] is the program), its stdout and stderr in `log`;
/// an error holding the log if it fails.
static Error runTool(ArrayRef<StringRef> args, StringRef what,
                     std::string &log) {
  TempFile logFile;
  if (Error err = logFile.create("pipeline-tool-log", "txt"))
    return err;
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logFile.path),
                                          StringRef(logFile.path)};
  std::string errMsg;
  int rc =
      sys::ExecuteAndWait(args.front(), args, std::nullopt, redirects,
                          /*SecondsToWait=*/600, /*MemoryLimit=*/0, &errMsg);
  if (auto buffer = MemoryBuffer::getFile(logFile.path))
    log = (*buffer)->getBuffer().rtrim().str();
  if (rc != 0)
    return createStringError(
        what + ":\n" +
        (log.empty()
             ? (errMsg.empty() ? "exit status " + std::to_string(rc) : errMsg)
             : log));
  return Error::success();
}

Expected<std::string> pmlir::assemblePTX(StringRef ptxas, StringRef chip,
                                         unsigned optLevel, StringRef ptx,
                                         ArrayRef<std::string> extraArgs,
                                         std::string *log) {
  TempFile ptxFile, cubinFile;
  if (Error err = ptxFile.create("pipeline-kernel", "ptx"))
    return std::move(err);
  if (Error err = cubinFile.create("pipeline-kernel", "cubin"))
    return std::move(err);
  if (Error err = ptxFile.write(ptx))
    return std::move(err);

  std::string arch = ("-arch=" + chip).str();
  std::string opt = "-O" + std::to_string(optLevel);
  SmallVector<StringRef> args = {ptxas, arch, opt};
  for (const std::string &arg : extraArgs)
    args.push_back(arg);
  args.append({ptxFile.path, "-o", cubinFile.path});
  std::string output;
  if (Error err = runTool(args, ("ptxas failed for " + chip).str(), output))
    return std::move(err);
  if (log)
    *log = std::move(output);
  return cubinFile.read();
}

Expected<std::string> pmlir::createFatbin(StringRef fatbinary, StringRef chip,
                                          StringRef ptx, StringRef cubin) {
  TempFile ptxFile, cubinFile, fatbinFile;
  if (Error err = ptxFile.create("pipeline-kernel", "ptx"))
    return std::move(err);
  if (Error err = cubinFile.create("pipeline-kernel", "cubin"))
    return std::move(err);
  if (Error err = fatbinFile.create("pipeline-kernel", "fatbin"))
    return std::move(err);
  if (Error err = ptxFile.write(ptx))
    return std::move(err);
  if (Error err = cubinFile.write(cubin))
    return std::move(err);
  // fatbinary names a chip by its number: sm_90a -> 90a.
  StringRef sm = chip;
  sm.consume_front("sm_");
  std::string elf =
      ("--image3=kind=elf,sm=" + sm + ",file=" + cubinFile.path).str();
  std::string ptxImage =
      ("--image3=kind=ptx,sm=" + sm + ",file=" + ptxFile.path).str();
  std::string create = ("--create=" + fatbinFile.path).str();
  SmallVector<StringRef> args = {fatbinary, "-64", create, elf, ptxImage};
  std::string log;
  if (Error err = runTool(args, ("fatbinary failed for " + chip).str(), log))
    return std::move(err);
  return fatbinFile.read();
}

Expected<SmallVector<pmlir::CompiledGPUModule>>
pmlir::compileModule(ModuleOp module, const NVVMLoweringConfig &config,
                     const CompileOptions &options) {
  // The toolkit first: fail before the compile.
  std::string ptxas, fatbinary;
  if (options.emitCubin || options.emitFatbin) {
    const cuda::ChipInfo *chip = cuda::lookupChip(config.chip);
    if (!chip)
      return createStringError("expects chip to be one of " +
                               cuda::getSupportedChipList() + ", got '" +
                               config.chip + "'");
    Expected<std::string> found =
        cuda::findPtxasFor(options.cudaPath, *chip, config.ptxVersion);
    if (!found)
      return found.takeError();
    ptxas = *found;
  }
  if (options.emitFatbin) {
    Expected<std::string> found =
        cuda::findCudaTool(options.cudaPath, "fatbinary");
    if (!found)
      return found.takeError();
    fatbinary = *found;
  }

  // An empty std::function would make a non-null function_ref that throws.
  llvm::function_ref<LogicalResult(PassManager &)> configure = nullptr;
  if (options.configurePassManager)
    configure = options.configurePassManager;
  Expected<SmallVector<CompiledGPUModule>> compiled =
      lowerToPTX(module, config, options.cudaPath, configure);
  if (!compiled || ptxas.empty())
    return compiled;

  std::vector<std::string> ptxasArgs = options.ptxasArgs;
  if (config.lineInfo)
    ptxasArgs.insert(ptxasArgs.begin(), "-lineinfo");
  for (CompiledGPUModule &gpuModule : *compiled) {
    Expected<std::string> cubin =
        assemblePTX(ptxas, config.chip, config.optLevel, gpuModule.ptx,
                    ptxasArgs, &gpuModule.ptxasLog);
    if (!cubin)
      return createStringError("gpu.module @" + gpuModule.name + ": " +
                               toString(cubin.takeError()));
    gpuModule.cubin = std::move(*cubin);
    if (fatbinary.empty())
      continue;
    Expected<std::string> fatbin =
        createFatbin(fatbinary, config.chip, gpuModule.ptx, gpuModule.cubin);
    if (!fatbin)
      return createStringError("gpu.module @" + gpuModule.name + ": " +
                               toString(fatbin.takeError()));
    gpuModule.fatbin = std::move(*fatbin);
  }
  return compiled;
}
