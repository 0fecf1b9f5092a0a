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

#include "pipeline/Compiler/Compiler.h"
#include "pipeline/Pipelines/Pipelines.h"
#include "pipeline/Target/CudaTarget.h"
#include "pipeline/Version.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
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
  pmlir::registerCompilerDialects(registry);
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

  auto compiled = pmlir::lowerToPTX(*module, *config, cudaPath);
  if (!compiled) {
    std::string message = toString(compiled.takeError());
    if (StringRef(message).starts_with("expects at least one gpu.module"))
      return fail(message + " in " + inputFilename);
    return 1;
  }

  for (pmlir::CompiledGPUModule &gpuModule : *compiled) {
    std::string base = compiled->size() == 1
                           ? prefix.str()
                           : (prefix + "." + gpuModule.name).str();
    std::string ptxPath = base + ".ptx", cubinPath = base + ".cubin";
    if (Error err = writeFile(ptxPath, gpuModule.ptx))
      return fail(toString(std::move(err)));
    Expected<std::string> cubin = pmlir::assemblePTX(
        *ptxas, config->chip, config->optLevel, gpuModule.ptx);
    if (!cubin)
      return fail(ptxPath + ": " + toString(cubin.takeError()));
    if (Error err = writeFile(cubinPath, *cubin))
      return fail(toString(std::move(err)));
  }
  return 0;
}
