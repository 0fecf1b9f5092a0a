//===- pipeline-compile.cpp - kernel file to PTX, cubin, fatbin -*- C++ -*-===//
//
//   pipeline-compile kernel.mlir --chip=sm_100a -o out
//
// writes out.ptx and out.cubin: the input runs through
// pipeline-lower-to-binary with format=isa, the PTX of each gpu.module is
// kept, and ptxas assembles it for the chip (fatbinary packs both with
// --emit=fatbin). With one output file (--emit=ptx and one gpu.module), -o
// names it as nvcc's does; else -o is a prefix: out.ptx, out.cubin, or
// out.<module>.ptx, ... with several gpu.modules. Outputs are written to
// temporary files and renamed at the end: a failing compile writes nothing
// and removes the files it would have written (docs/cli.md).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Compiler/Compiler.h"
#include "pipeline/Dialect/Pipeline/IR/InputLimits.h"
#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Toolkit/CudaToolkit.h"
#include "pipeline/Version.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/Timing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace llvm;

static cl::OptionCategory category("pipeline-compile options");
static cl::OptionCategory mlirCategory(
    "MLIR options (pass manager, timing, statistics, IR printing)");

/// The values given to each option that takes one, in order: an option
/// given twice is an error naming both values.
static StringMap<SmallVector<std::string>> &givenValues() {
  static StringMap<SmallVector<std::string>> values;
  return values;
}
template <typename T> static cl::cb<void, const T &> record(StringRef name) {
  return cl::callback([name](const T &value) {
    std::string text;
    raw_string_ostream os(text);
    os << value;
    givenValues()[name].push_back(text);
  });
}

/// The lowering options, declared once (pmlir::PipelineCompileOptions):
/// this tool's options of the same names take their defaults and help from
/// there and are applied to one such struct, which the library checks.
static const pmlir::PipelineCompileOptions &loweringDefaults() {
  static const pmlir::PipelineCompileOptions defaults;
  return defaults;
}

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<kernel .mlir file>"),
                                          cl::Required, cl::cat(category));

static cl::opt<std::string> outputPath(
    "o",
    cl::desc("output: the file itself when there is one (one --emit kind, "
             "one gpu.module); else a prefix: <path>.ptx, <path>.cubin, "
             "<path>.fatbin, or <path>.<module>.<ext> for several "
             "gpu.modules (a .ptx/.cubin/.fatbin suffix on the prefix is "
             "dropped). Default: the input's name without .mlir"),
    cl::value_desc("path"), cl::cat(category), record<std::string>("o"));

static cl::list<std::string>
    emitKinds("emit",
              cl::desc("what to write, comma-separated: ptx, cubin, fatbin "
                       "(cubin and PTX in one file); default ptx,cubin. PTX "
                       "alone needs no ptxas"),
              cl::value_desc("kinds"), cl::CommaSeparated, cl::cat(category));

static cl::opt<std::string>
    chipName("chip", cl::desc(loweringDefaults().chip.HelpStr),
             cl::init(loweringDefaults().chip.getValue()), cl::cat(category),
             record<std::string>("chip"));

static cl::opt<std::string>
    features("features", cl::desc(loweringDefaults().features.HelpStr),
             cl::init(loweringDefaults().features.getValue()),
             cl::cat(category), record<std::string>("features"));

static cl::opt<unsigned>
    optLevel("opt-level", cl::desc(loweringDefaults().optLevel.HelpStr),
             cl::init(loweringDefaults().optLevel.getValue()),
             cl::cat(category), record<unsigned>("opt-level"));

static cl::opt<unsigned>
    optLevelShort("O",
                  cl::desc("alias for --opt-level (-O0 "
                           "to -O3, as nvcc)"),
                  cl::init(loweringDefaults().optLevel.getValue()), cl::Prefix,
                  cl::cat(category), record<unsigned>("opt-level"));

static cl::opt<std::string>
    cudaPath("cuda-path", cl::desc(loweringDefaults().cudaPath.HelpStr),
             cl::init(loweringDefaults().cudaPath.getValue()),
             cl::cat(category), record<std::string>("cuda-path"));

static cl::list<std::string>
    ptxasArgs("Xptxas",
              cl::desc("pass an argument to ptxas (repeatable, "
                       "comma-separated as nvcc's: -Xptxas -v,-warn-spills)"),
              cl::value_desc("arg"), cl::CommaSeparated, cl::cat(category));

static cl::opt<bool>
    lineInfo("lineinfo",
             cl::desc("line information from the input's locations: .file "
                      "and .loc directives in the PTX, ptxas -lineinfo for "
                      "the cubin (as nvcc -lineinfo)"),
             cl::init(loweringDefaults().lineInfo.getValue()),
             cl::cat(category));

// --hang-report or --hang-report=<cycles>: without a value, 2^31 cycles
// (about a second at 2 GHz).
static cl::opt<std::string> hangReport(
    "hang-report", cl::ValueOptional,
    cl::desc("every blocking wait reports where it waits (pipeline, role, "
             "stage, parity, lap, CTA, warp) after this many clock cycles, "
             "then traps; without a value 2147483648 (docs/debugging.md)"),
    cl::value_desc("cycles"), cl::cat(category),
    record<std::string>("hang-report"));

static cl::opt<bool> hangKeepWaiting(
    "hang-keep-waiting", cl::desc(loweringDefaults().hangKeepWaiting.HelpStr),
    cl::init(loweringDefaults().hangKeepWaiting.getValue()), cl::cat(category));

static cl::opt<bool> verifyProtocol(
    "verify-protocol", cl::desc(loweringDefaults().verifyProtocol.HelpStr),
    cl::init(loweringDefaults().verifyProtocol.getValue()), cl::cat(category));

static cl::opt<bool> unrollStages(
    "unroll-stages", cl::desc(loweringDefaults().unrollStages.HelpStr),
    cl::init(loweringDefaults().unrollStages.getValue()), cl::cat(category));

static int fail(const Twine &message) {
  errs() << "pipeline-compile: error: " << message << "\n";
  return 1;
}

/// True if `name` can be part of a file name as it is: letters, digits,
/// '_', '-', '.', '$', not starting with '.' or '-'.
static bool isPlainFileName(StringRef name) {
  return !name.empty() && name.front() != '.' && name.front() != '-' &&
         all_of(name, [](char c) {
           return llvm::isAlnum(c) || c == '_' || c == '-' || c == '.' ||
                  c == '$';
         });
}

namespace {
/// The outputs of one run, written to temporary files beside their targets
/// and renamed at the end.
class Outputs {
public:
  ~Outputs() {
    for (auto &[temp, target] : files)
      sys::fs::remove(temp);
  }

  Error add(StringRef target, StringRef contents) {
    SmallString<256> temp;
    int fd;
    std::error_code ec = sys::fs::createUniqueFile(target + ".tmp-%%%%%%", fd,
                                                   temp, sys::fs::OF_None);
    if (ec)
      return createStringError(ec, "cannot open output file '" + target +
                                       "': " + ec.message());
    files.push_back({temp.str().str(), target.str()});
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << contents;
    os.close();
    if (os.has_error())
      return createStringError(os.error(), "cannot write output file '" +
                                               target +
                                               "': " + os.error().message());
    return Error::success();
  }

  Error commit() {
    for (auto &[temp, target] : files)
      if (std::error_code ec = sys::fs::rename(temp, target))
        return createStringError(ec, "cannot write output file '" + target +
                                         "': " + ec.message());
    files.clear();
    return Error::success();
  }

private:
  std::vector<std::pair<std::string, std::string>> files;
};
} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerAsmPrinterCLOptions();
  registerDefaultTimingManagerCLOptions();
  // MLIR's options (-mlir-print-ir-after-all, -mlir-timing, ...) next to
  // the tool's in --help; LLVM's hundreds of others stay hidden.
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (name.starts_with("mlir-"))
      option->addCategory(mlirCategory);
  cl::HideUnrelatedOptions({&category, &mlirCategory});
  cl::AddExtraVersionPrinter([](raw_ostream &os) {
    os << "pipeline-mlir " PIPELINE_MLIR_VERSION "\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "pipeline-compile: compile the gpu.modules of a pipeline-mlir kernel "
      "file to PTX, a cubin and a fatbin\n\n"
      "  pipeline-compile kernel.mlir --chip=sm_100a -o out   # out.ptx, "
      "out.cubin\n"
      "  pipeline-compile kernel.mlir --emit=ptx -o k.ptx     # k.ptx only\n\n"
      "The CUDA toolkit (ptxas, fatbinary, nvvm/libdevice): --cuda-path, "
      "else $CUDA_HOME, else $CUDA_PATH, else /usr/local/cuda.\n");

  // Options first: fail before any compilation.
  for (auto &entry : givenValues()) {
    SmallVector<std::string> &values = entry.getValue();
    if (values.size() > 1)
      return fail("expects --" + entry.getKey() + " once, got '" +
                  values.front() + "' and '" + values[1] + "'");
  }
  for (cl::Option *option : std::initializer_list<cl::Option *>{
           &lineInfo, &hangKeepWaiting, &verifyProtocol, &unrollStages})
    if (option->getNumOccurrences() > 1)
      return fail("expects --" + option->ArgStr + " once");

  bool emitPTX = emitKinds.empty(), emitCubin = emitKinds.empty(),
       emitFatbin = false;
  for (StringRef kind : emitKinds) {
    if (kind == "ptx")
      emitPTX = true;
    else if (kind == "cubin")
      emitCubin = true;
    else if (kind == "fatbin")
      emitFatbin = true;
    else
      return fail("expects --emit to list ptx, cubin or fatbin, got '" + kind +
                  "'");
  }
  SmallVector<StringRef> extensions;
  if (emitPTX)
    extensions.push_back(".ptx");
  if (emitCubin)
    extensions.push_back(".cubin");
  if (emitFatbin)
    extensions.push_back(".fatbin");

  std::string output = outputPath;
  if (!outputPath.getNumOccurrences()) {
    StringRef stem = sys::path::filename(inputFilename);
    stem.consume_back(".mlir");
    output = stem == "-" ? "out" : stem.str();
  }
  StringRef prefix = output;
  for (StringRef ext : {".ptx", ".cubin", ".fatbin"})
    if (prefix.ends_with(ext))
      prefix = prefix.drop_back(ext.size());
  if (output.empty() || prefix.empty() ||
      sys::path::is_separator(prefix.back()))
    return fail("expects -o to name a file path such as 'out' (writes "
                "out.ptx and out.cubin), got '" +
                output + "'");

  pmlir::PipelineCompileOptions lowering;
  lowering.chip = chipName;
  lowering.features = features;
  lowering.optLevel =
      optLevelShort.getNumOccurrences() ? optLevelShort : optLevel;
  lowering.cudaPath = cudaPath;
  lowering.verifyProtocol = verifyProtocol;
  lowering.unrollStages = unrollStages;
  lowering.hangKeepWaiting = hangKeepWaiting;
  lowering.lineInfo = lineInfo;
  if (hangReport.getNumOccurrences()) {
    uint64_t cycles = uint64_t(1) << 31;
    if (!hangReport.empty() &&
        (StringRef(hangReport).getAsInteger(10, cycles) || cycles == 0))
      return fail("expects --hang-report=<cycles> with a positive number of "
                  "clock cycles, got '" +
                  hangReport + "'");
    lowering.hangReport = cycles;
  }
  Expected<pmlir::NVVMLoweringConfig> config =
      pmlir::getNVVMLoweringConfig(lowering);
  if (!config)
    return fail(toString(config.takeError()));
  // The lowering replaces any #nvvm.target of the input with --chip's.
  config->chipOrigin =
      chipName.getNumOccurrences() ? "--chip" : "the default of --chip";

  pmlir::CompileOptions options;
  options.emitCubin = emitCubin;
  options.emitFatbin = emitFatbin;
  options.ptxasArgs.assign(ptxasArgs.begin(), ptxasArgs.end());
  options.cudaPath = lowering.cudaPath;
  options.configurePassManager = [](PassManager &pm) -> LogicalResult {
    if (failed(applyPassManagerCLOptions(pm)))
      return failure();
    applyDefaultTimingPassManagerCLOptions(pm);
    return success();
  };
  if (!ptxasArgs.empty() && !emitCubin && !emitFatbin)
    return fail("expects -Xptxas with --emit=cubin or --emit=fatbin (PTX "
                "alone runs no ptxas)");

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
  // Any error diagnostic fails the compile, also one reported by a parser
  // or pass that went on.
  unsigned errors = 0;
  ScopedDiagnosticHandler counter(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
      ++errors;
    return failure();
  });

  // The files this run writes, by gpu.module name ("" for one output set).
  auto targetsFor = [&](ArrayRef<std::string> modules) {
    SmallVector<std::string> targets;
    if (modules.size() <= 1 && extensions.size() == 1 &&
        outputPath.getNumOccurrences())
      return SmallVector<std::string>{output};
    for (StringRef ext : extensions) {
      if (modules.size() <= 1)
        targets.push_back((prefix + ext).str());
      else
        for (const std::string &name : modules)
          targets.push_back((prefix + "." + name + ext).str());
    }
    return targets;
  };
  // A failing compile leaves none of the files it would have written, so
  // that no earlier output passes for this run's (as make's
  // .DELETE_ON_ERROR).
  SmallVector<std::string> inputModules;
  auto removeTarget = [&](StringRef target) {
    bool isInput = false;
    if (!sys::fs::equivalent(target, inputFilename, isInput) && isInput)
      return;
    sys::fs::remove(target);
  };
  auto failCompile = [&](std::optional<std::string> message) {
    for (const std::string &target : targetsFor(inputModules))
      removeTarget(target);
    if (inputModules.size() > 1)
      for (const std::string &target : targetsFor({}))
        removeTarget(target);
    return message ? fail(*message) : 1;
  };

  if (std::optional<pmlir::TextNestingError> deep =
          pmlir::findExcessTextNesting(
              sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())
                  ->getBuffer())) {
    emitError(
        FileLineColLoc::get(&context, inputFilename, deep->line, deep->column))
        << deep->message;
    return failCompile(std::nullopt);
  }
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module || errors)
    return failCompile(std::nullopt);

  // Module names become file names with several gpu.modules: only plain
  // names, nothing that reaches outside the -o prefix.
  bool badName = false;
  module->walk([&](gpu::GPUModuleOp gpuModule) {
    inputModules.push_back(gpuModule.getSymName().str());
    if (!isPlainFileName(gpuModule.getSymName())) {
      gpuModule.emitOpError()
          << "expects a symbol usable in a file name (letters, digits, '_', "
             "'-', '.', '$'; not starting with '.' or '-') when the input "
             "may have several gpu.modules, got \""
          << gpuModule.getSymName() << "\"";
      badName = true;
    }
  });
  if (badName &&
      (inputModules.size() > 1 ||
       module->walk([](gpu::LaunchOp) { return WalkResult::interrupt(); })
           .wasInterrupted()))
    return failCompile(std::nullopt);

  auto compiled = pmlir::compileModule(*module, *config, options);
  if (!compiled) {
    std::string message = toString(compiled.takeError());
    if (StringRef(message).starts_with("expects at least one gpu.module"))
      return failCompile(message + " in " + inputFilename);
    if (StringRef(message).starts_with("the compile failed"))
      return failCompile(std::nullopt);
    return failCompile(message);
  }
  if (errors)
    return failCompile(std::nullopt);

  SmallVector<std::string> names;
  for (pmlir::CompiledGPUModule &gpuModule : *compiled) {
    if (compiled->size() > 1 && !isPlainFileName(gpuModule.name))
      return failCompile("expects gpu.module symbols usable in file names, "
                         "got '" +
                         gpuModule.name + "'");
    names.push_back(gpuModule.name);
  }
  SmallVector<std::string> targets = targetsFor(names);
  Outputs outputs;
  size_t next = 0;
  // targetsFor lists by extension, then by module.
  for (StringRef ext : extensions) {
    for (pmlir::CompiledGPUModule &gpuModule : *compiled) {
      StringRef contents = ext == ".ptx"     ? StringRef(gpuModule.ptx)
                           : ext == ".cubin" ? StringRef(gpuModule.cubin)
                                             : StringRef(gpuModule.fatbin);
      if (Error err = outputs.add(targets[next++], contents))
        return failCompile(toString(std::move(err)));
    }
  }
  if (Error err = outputs.commit())
    return failCompile(toString(std::move(err)));

  // ptxas's warnings (or -Xptxas -v report) on success, as nvcc shows them.
  for (pmlir::CompiledGPUModule &gpuModule : *compiled)
    if (!gpuModule.ptxasLog.empty())
      errs() << gpuModule.ptxasLog << "\n";
  return 0;
}
