//===- pipeline-compile.cpp - kernel file to PTX and cubin ------*- C++ -*-===//
//
//   pipeline-compile kernel.mlir --chip=sm_100a -o out
//
// writes out.ptx and out.cubin: the input runs through
// pipeline-lower-to-binary with format=isa, the PTX of each gpu.module is
// written, and ptxas (from --cuda-path, $CUDA_HOME or /usr/local/cuda)
// assembles it for the chip. With several gpu.modules the files are
// out.<module>.ptx and out.<module>.cubin.
//
//===----------------------------------------------------------------------===//

#include "pipeline/InitAllPipeline.h"
#include "pipeline/Pipelines/Pipelines.h"
#include "pipeline/Target/CudaTarget.h"
#include "pipeline/Version.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llvm;

static cl::OptionCategory category("pipeline-compile options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<kernel .mlir file>"),
                                          cl::Required, cl::cat(category));

static cl::opt<std::string>
    outputPrefix("o",
                 cl::desc("output path without extension: writes <path>.ptx "
                          "and <path>.cubin"),
                 cl::value_desc("path"), cl::Required, cl::cat(category));

// cl::desc keeps a StringRef: the text must outlive the option.
static const std::string chipHelp =
    "target chip: " + pmlir::cuda::getSupportedChipList();

static cl::opt<std::string> chipName("chip", cl::desc(chipHelp),
                                     cl::init("sm_100a"), cl::cat(category));

static cl::opt<std::string>
    features("features",
             cl::desc("PTX features such as +ptx88 (default: PTX ISA 8.6, or "
                      "the chip's minimum if higher)"),
             cl::init(""), cl::cat(category));

static cl::opt<unsigned> optLevel("O",
                                  cl::desc("LLVM and ptxas optimization level "
                                           "(0-3)"),
                                  cl::init(3), cl::Prefix, cl::cat(category));

static cl::opt<std::string>
    cudaPath("cuda-path",
             cl::desc("CUDA toolkit holding bin/ptxas (default: $CUDA_HOME, "
                      "else /usr/local/cuda)"),
             cl::init(""), cl::cat(category));

// --hang-report or --hang-report=<cycles>: without a value, 2^31 cycles
// (about a second at 2 GHz).
static cl::opt<std::string> hangReport(
    "hang-report", cl::ValueOptional,
    cl::desc("every blocking wait reports where it waits (pipeline, role, "
             "stage, parity, lap, CTA, warp) after this many clock cycles, "
             "then traps; without a value 2147483648 (docs/debugging.md)"),
    cl::value_desc("cycles"), cl::cat(category));

static cl::opt<bool> hangKeepWaiting(
    "hang-keep-waiting",
    cl::desc("with --hang-report: keep waiting after the report"),
    cl::init(false), cl::cat(category));

static cl::opt<bool> verifyProtocol(
    "verify-protocol",
    cl::desc("check the barrier protocol before lowering "
             "(pipeline-verify-protocol; =false only to compile a "
             "deliberately broken kernel)"),
    cl::init(true), cl::cat(category));

static cl::opt<bool> unrollStages(
    "unroll-stages",
    cl::desc("unroll steady-state loops by the stage count so that stage "
             "indices are constants (pipeline-unroll-stages; on by default, "
             "off with --hang-report)"),
    cl::init(true), cl::cat(category));

static int fail(const Twine &message) {
  errs() << "pipeline-compile: error: " << message << "\n";
  return 1;
}

/// Runs ptxas on `ptxPath`, writing `cubinPath`; returns ptxas's messages
/// on failure.
static Error runPtxas(StringRef ptxas, StringRef chip, unsigned level,
                      StringRef ptxPath, StringRef cubinPath) {
  SmallString<128> logPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("ptxas-log", "txt", logPath))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover remover(logPath);
  std::string arch = ("-arch=" + chip).str();
  std::string opt = "-O" + std::to_string(level);
  SmallVector<StringRef> args = {ptxas, arch, opt, ptxPath, "-o", cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(logPath),
                                          StringRef(logPath)};
  std::string errMsg;
  int rc =
      sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects,
                          /*SecondsToWait=*/600, /*MemoryLimit=*/0, &errMsg);
  if (rc == 0)
    return Error::success();
  std::string log;
  if (auto buffer = MemoryBuffer::getFile(logPath))
    log = (*buffer)->getBuffer().rtrim().str();
  return createStringError(
      "ptxas failed on " + ptxPath + " for " + chip + ":\n" +
      (log.empty()
           ? (errMsg.empty() ? "exit status " + std::to_string(rc) : errMsg)
           : log));
}

static Error writeFile(StringRef path, StringRef contents) {
  std::string errorMessage;
  std::unique_ptr<ToolOutputFile> file = openOutputFile(path, &errorMessage);
  if (!file)
    return createStringError(errorMessage);
  file->os() << contents;
  file->keep();
  return Error::success();
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::AddExtraVersionPrinter([](raw_ostream &os) {
    os << "pipeline-mlir " PIPELINE_MLIR_VERSION "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "pipeline-compile: compile the gpu.modules of a pipeline-mlir kernel "
      "file to PTX and a cubin\n\n"
      "  pipeline-compile kernel.mlir --chip=sm_100a -o out   # out.ptx, "
      "out.cubin\n");

  // Options and ptxas first: fail before any compilation.
  StringRef prefix = outputPrefix;
  if (prefix.ends_with(".ptx") || prefix.ends_with(".cubin"))
    prefix = prefix.take_front(prefix.rfind('.'));
  if (prefix.empty() || sys::path::is_separator(prefix.back()))
    return fail("expects -o to name a file path such as 'out' (writes "
                "out.ptx and out.cubin), got '" +
                outputPrefix + "'");
  Expected<pmlir::NVVMLoweringConfig> config = pmlir::getNVVMLoweringConfig(
      chipName, features, optLevel, /*useBarePtrCallConv=*/true);
  if (!config)
    return fail(toString(config.takeError()));
  config->verifyProtocol = verifyProtocol;
  config->unrollStages = unrollStages;
  config->hangKeepWaiting = hangKeepWaiting;
  if (hangReport.getNumOccurrences()) {
    uint64_t cycles = uint64_t(1) << 31;
    if (!hangReport.empty() &&
        (StringRef(hangReport).getAsInteger(10, cycles) || cycles == 0))
      return fail("expects --hang-report=<cycles> with a positive number of "
                  "clock cycles, got '" +
                  hangReport + "'");
    config->hangReportCycles = cycles;
  } else if (hangKeepWaiting) {
    return fail("expects --hang-keep-waiting with --hang-report");
  }
  Expected<std::string> ptxas = pmlir::cuda::findPtxasFor(
      cudaPath, *pmlir::cuda::lookupChip(config->chip), config->ptxVersion);
  if (!ptxas)
    return fail(toString(ptxas.takeError()));

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  pmlir::registerAllPipelineDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  std::string errorMessage;
  std::unique_ptr<MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input)
    return fail(errorMessage);
  SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  PassManager pm(&context);
  pmlir::buildPipelineLowerToBinary(pm, *config, "isa", cudaPath);
  if (failed(pm.run(*module)))
    return 1;

  SmallVector<std::pair<std::string, std::string>> ptxByModule;
  module->walk([&](gpu::BinaryOp binary) {
    for (mlir::Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      ptxByModule.emplace_back(binary.getSymName().str(),
                               object.getObject().getValue().str());
    }
  });
  if (ptxByModule.empty())
    return fail("expects at least one gpu.module in " + inputFilename);

  for (auto &[name, ptx] : ptxByModule) {
    std::string base =
        ptxByModule.size() == 1 ? prefix.str() : (prefix + "." + name).str();
    std::string ptxPath = base + ".ptx", cubinPath = base + ".cubin";
    if (Error err = writeFile(ptxPath, ptx))
      return fail(toString(std::move(err)));
    if (Error err = runPtxas(*ptxas, config->chip, config->optLevel, ptxPath,
                             cubinPath))
      return fail(toString(std::move(err)));
  }
  return 0;
}
