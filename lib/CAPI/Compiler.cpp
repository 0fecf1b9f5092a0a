//===- Compiler.cpp - check and compile pipeline kernels from C -----------===//
//
// Every entry point collects the diagnostics of its work in the result
// (a ScopedDiagnosticHandler that swallows them), so that a host language
// can raise them at its own source lines instead of reading stderr.
//
//===----------------------------------------------------------------------===//

#include "pipeline-c/Compiler.h"
#include "pipeline-c/HangRecord.h"
#include "pipeline/Compiler/Compiler.h"
#include "pipeline/Dialect/Pipeline/IR/InputLimits.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"
#include "pipeline/Toolkit/CudaToolkit.h"
#include "pipeline/Version.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <memory>

using namespace mlir;
using namespace llvm;

namespace {

struct DiagnosticRecord {
  MlirDiagnosticSeverity severity;
  std::string message;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  intptr_t parent = -1;
};

/// What a PmlirResult points to.
struct Result {
  bool failed = false;
  std::string ir;
  std::vector<DiagnosticRecord> diagnostics;
  SmallVector<pmlir::CompiledGPUModule> modules;

  void error(StringRef message) {
    failed = true;
    diagnostics.push_back({MlirDiagnosticError, message.str(), "", 0, 0, -1});
  }
};

MlirDiagnosticSeverity wrapSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return MlirDiagnosticError;
  case DiagnosticSeverity::Warning:
    return MlirDiagnosticWarning;
  case DiagnosticSeverity::Note:
    return MlirDiagnosticNote;
  case DiagnosticSeverity::Remark:
    return MlirDiagnosticRemark;
  }
  return MlirDiagnosticError;
}

/// The first file location inside `loc`.
std::optional<FileLineColLoc> findFileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location inner) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(inner)) {
      found = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

void record(Result &result, Diagnostic &diag, intptr_t parent) {
  DiagnosticRecord rec;
  rec.severity = wrapSeverity(diag.getSeverity());
  rec.message = diag.str();
  rec.parent = parent;
  if (std::optional<FileLineColLoc> loc =
          findFileLocation(diag.getLocation())) {
    rec.file = loc->getFilename().str();
    rec.line = loc->getLine();
    rec.column = loc->getColumn();
  }
  if (diag.getSeverity() == DiagnosticSeverity::Error)
    result.failed = true;
  result.diagnostics.push_back(std::move(rec));
  intptr_t self = result.diagnostics.size() - 1;
  for (Diagnostic &note : diag.getNotes())
    record(result, note, self);
}

/// Collects every diagnostic of `context` into `result` while alive, without
/// the "see current operation" notes that would copy whole ops into it.
class CollectingHandler : public ScopedDiagnosticHandler {
public:
  CollectingHandler(MLIRContext *context, Result &result)
      : ScopedDiagnosticHandler(context,
                                [&result](Diagnostic &diag) {
                                  record(result, diag, -1);
                                  return success();
                                }),
        context(context), printedOp(context->shouldPrintOpOnDiagnostic()) {
    context->printOpOnDiagnostic(false);
  }
  ~CollectingHandler() { context->printOpOnDiagnostic(printedOp); }

private:
  MLIRContext *context;
  bool printedOp;
};

std::string printModule(ModuleOp module) {
  std::string text;
  raw_string_ostream os(text);
  module->print(os);
  return text;
}

/// Op verifiers, then the linearity and protocol checkers.
void check(ModuleOp module, Result &result) {
  if (failed(verify(module))) {
    result.failed = true;
    return;
  }
  PassManager pm(module->getContext());
  pm.addPass(pmlir::createPipelineVerifyLinearity());
  pm.addPass(pmlir::createPipelineVerifyProtocol());
  if (failed(pm.run(module)))
    result.failed = true;
}

void compile(ModuleOp module, StringRef optionsText, bool assemble,
             Result &result) {
  pmlir::PipelineCompileOptions options;
  if (llvm::Error error = pmlir::parseCompileOptions(optionsText, options))
    return result.error(toString(std::move(error)));
  Expected<pmlir::NVVMLoweringConfig> config =
      pmlir::getNVVMLoweringConfig(options);
  if (!config)
    return result.error(toString(config.takeError()));

  pmlir::CompileOptions compileOptions;
  compileOptions.emitCubin = assemble;
  compileOptions.cudaPath = options.cudaPath;
  auto compiled = pmlir::compileModule(module, *config, compileOptions);
  if (!compiled) {
    std::string message = toString(compiled.takeError());
    // "the compile failed ...": the diagnostics were reported already.
    if (!result.failed || !StringRef(message).starts_with("the compile failed"))
      result.error(message);
    result.failed = true;
    return;
  }
  // An error reported by a pass that still succeeded fails the compile.
  if (result.failed)
    return;
  result.modules = std::move(*compiled);
}

/// Parses `source` into a fresh context and runs `work` on it.
template <typename Work>
PmlirResult withParsedSource(MlirStringRef source, MlirStringRef sourceName,
                             Work work) {
  auto result = std::make_unique<Result>();
  DialectRegistry registry;
  pmlir::registerCompilerDialects(registry);
  MLIRContext context(registry);
  {
    CollectingHandler handler(&context, *result);
    StringRef name = unwrap(sourceName);
    ParserConfig config(&context, /*verifyAfterParse=*/false);
    // The caller's string need not end in a NUL; MLIR's lexer reads one
    // byte past its input's end (the terminator a MemoryBuffer of a file
    // has), so it gets a terminated copy.
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy(unwrap(source),
                                             name.empty() ? "<source>" : name),
        llvm::SMLoc());
    std::optional<pmlir::TextNestingError> deep =
        pmlir::findExcessTextNesting(unwrap(source));
    OwningOpRef<ModuleOp> module;
    if (deep)
      emitError(FileLineColLoc::get(&context, name.empty() ? "<source>" : name,
                                    deep->line, deep->column))
          << deep->message;
    else
      module = parseSourceFile<ModuleOp>(sourceMgr, config);
    if (!module) {
      result->failed = true;
    } else {
      result->ir = printModule(*module);
      work(*module, *result);
    }
  }
  return PmlirResult{result.release()};
}

Result &get(PmlirResult result) { return *static_cast<Result *>(result.ptr); }

/// Out-of-range indices read as an empty record instead of past the end.
const DiagnosticRecord &diagnostic(PmlirResult result, intptr_t index) {
  static const DiagnosticRecord none{MlirDiagnosticError, "", "", 0, 0, -1};
  const auto &all = get(result).diagnostics;
  return index >= 0 && size_t(index) < all.size() ? all[index] : none;
}

const pmlir::CompiledGPUModule &compiledModule(PmlirResult result,
                                               intptr_t index) {
  static const pmlir::CompiledGPUModule none{};
  const auto &all = get(result).modules;
  return index >= 0 && size_t(index) < all.size() ? all[index] : none;
}

MlirStringRef toRef(const std::string &s) {
  return mlirStringRefCreate(s.data(), s.size());
}

} // namespace

MlirStringRef pmlirGetCompileOptionDefaults(void) {
  static const std::string defaults = pmlir::getCompileOptionDefaults();
  return toRef(defaults);
}

int pmlirFormatHangReport(const uint32_t *record, MlirStringRef sites,
                          char *out, size_t outSize) {
  return pmlirFormatHangRecord(record, sites.data, sites.length, out, outSize);
}

/// The number the compiler recorded as `__pipeline_mlir_min_<what>_<kernel>`
/// in `ptx` (`.visible .const .align 8 .u64 <name> = <n>;`), or 0.
static uint64_t recordedContract(StringRef ptx, StringRef what,
                                 StringRef kernel) {
  std::string name = ("__pipeline_mlir_min_" + what + "_" + kernel).str();
  for (size_t at = ptx.find(name); at != StringRef::npos;
       at = ptx.find(name, at + 1)) {
    StringRef rest = ptx.drop_front(at + name.size()).ltrim();
    // Another kernel's constant whose name starts with this one's.
    if (!rest.consume_front("="))
      continue;
    uint64_t value = 0;
    if (!rest.ltrim().consumeInteger(10, value))
      return value;
  }
  return 0;
}

/// The `.reqntid` of kernel `kernel`'s `.entry` in `ptx`, or all 0.
static void requiredBlock(StringRef ptx, StringRef kernel, unsigned dims[3]) {
  dims[0] = dims[1] = dims[2] = 0;
  std::string entry = (".entry " + kernel).str();
  for (size_t at = ptx.find(entry); at != StringRef::npos;
       at = ptx.find(entry, at + 1)) {
    StringRef rest = ptx.drop_front(at + entry.size());
    if (!rest.ltrim().starts_with("("))
      continue;
    // The directives between the parameter list and the body.
    StringRef header = rest.take_until([](char c) { return c == '{'; });
    size_t close = header.rfind(')');
    StringRef directives =
        close == StringRef::npos ? header : header.drop_front(close + 1);
    size_t req = directives.find(".reqntid");
    if (req == StringRef::npos)
      return;
    StringRef list = directives.drop_front(req + strlen(".reqntid"));
    for (unsigned d = 0; d < 3; ++d) {
      list = list.ltrim();
      if (d > 0 && !list.consume_front(","))
        break;
      unsigned value = 0;
      list = list.ltrim();
      if (list.consumeInteger(10, value))
        break;
      list = list.ltrim();
      dims[d] = value;
    }
    for (unsigned d = 1; d < 3; ++d)
      if (dims[0] && !dims[d])
        dims[d] = 1;
    return;
  }
}

void pmlirGetLaunchContract(MlirStringRef ptx, MlirStringRef kernel,
                            uint64_t *minThreads, uint64_t *minDynamicSmem,
                            unsigned required[3]) {
  StringRef text = unwrap(ptx), name = unwrap(kernel);
  if (minThreads)
    *minThreads = recordedContract(text, "block", name);
  if (minDynamicSmem)
    *minDynamicSmem = recordedContract(text, "smem", name);
  if (required)
    requiredBlock(text, name, required);
}

int pmlirCheckLaunchContract(MlirStringRef ptx, MlirStringRef kernel,
                             const unsigned block[3], uint64_t dynamicSmem,
                             char *out, size_t outSize) {
  uint64_t minThreads = 0, minSmem = 0;
  unsigned required[3];
  pmlirGetLaunchContract(ptx, kernel, &minThreads, &minSmem, required);
  std::string why;
  llvm::raw_string_ostream os(why);
  auto printBlock = [&](const unsigned *dims) {
    os << "(" << dims[0] << ", " << dims[1] << ", " << dims[2] << ")";
  };
  if (required[0] && (required[0] != block[0] || required[1] != block[1] ||
                      required[2] != block[2])) {
    os << "kernel " << unwrap(kernel) << " requires block ";
    printBlock(required);
    os << " (its .reqntid), got ";
    printBlock(block);
  } else if (block[0] < minThreads) {
    os << "kernel " << unwrap(kernel) << ": block ";
    printBlock(block);
    os << " has " << block[0] << " threads along x; its roles need at least "
       << minThreads
       << " (its launch contract): with fewer, a role that waits on a "
          "barrier never runs or its arrivals never complete a phase, and "
          "the kernel hangs";
  } else if (dynamicSmem < minSmem) {
    os << "kernel " << unwrap(kernel) << " needs at least " << minSmem
       << " bytes of dynamic shared memory (its launch contract), got "
       << dynamicSmem;
  }
  if (why.empty())
    return 0;
  if (out && outSize) {
    size_t n = std::min(why.size(), outSize - 1);
    memcpy(out, why.data(), n);
    out[n] = 0;
  }
  return 1;
}

MlirStringRef pmlirGetChipTable(void) {
  static const std::string table = pmlir::cuda::printChipTable();
  return toRef(table);
}

PmlirResult pmlirCheckSource(MlirStringRef source, MlirStringRef sourceName) {
  return withParsedSource(source, sourceName, check);
}

PmlirResult pmlirCheckModule(MlirModule module) {
  auto result = std::make_unique<Result>();
  ModuleOp op = unwrap(module);
  CollectingHandler handler(op->getContext(), *result);
  result->ir = printModule(op);
  check(op, *result);
  return PmlirResult{result.release()};
}

PmlirResult pmlirCompileSource(MlirStringRef source, MlirStringRef sourceName,
                               MlirStringRef options, bool assemble) {
  return withParsedSource(source, sourceName,
                          [&](ModuleOp module, Result &result) {
                            compile(module, unwrap(options), assemble, result);
                          });
}

PmlirResult pmlirCompileModule(MlirModule module, MlirStringRef options,
                               bool assemble) {
  auto result = std::make_unique<Result>();
  ModuleOp op = unwrap(module);
  CollectingHandler handler(op->getContext(), *result);
  result->ir = printModule(op);
  compile(op, unwrap(options), assemble, *result);
  return PmlirResult{result.release()};
}

void pmlirResultDestroy(PmlirResult result) {
  delete static_cast<Result *>(result.ptr);
}

bool pmlirResultSucceeded(PmlirResult result) { return !get(result).failed; }

MlirStringRef pmlirResultGetIR(PmlirResult result) {
  return toRef(get(result).ir);
}

intptr_t pmlirResultGetNumDiagnostics(PmlirResult result) {
  return get(result).diagnostics.size();
}

MlirDiagnosticSeverity pmlirResultGetDiagnosticSeverity(PmlirResult result,
                                                        intptr_t index) {
  return diagnostic(result, index).severity;
}

MlirStringRef pmlirResultGetDiagnosticMessage(PmlirResult result,
                                              intptr_t index) {
  return toRef(diagnostic(result, index).message);
}

MlirStringRef pmlirResultGetDiagnosticFile(PmlirResult result, intptr_t index) {
  return toRef(diagnostic(result, index).file);
}

unsigned pmlirResultGetDiagnosticLine(PmlirResult result, intptr_t index) {
  return diagnostic(result, index).line;
}

unsigned pmlirResultGetDiagnosticColumn(PmlirResult result, intptr_t index) {
  return diagnostic(result, index).column;
}

intptr_t pmlirResultGetDiagnosticParent(PmlirResult result, intptr_t index) {
  return diagnostic(result, index).parent;
}

intptr_t pmlirResultGetNumModules(PmlirResult result) {
  return get(result).modules.size();
}

MlirStringRef pmlirResultGetModuleName(PmlirResult result, intptr_t index) {
  return toRef(compiledModule(result, index).name);
}

MlirStringRef pmlirResultGetModulePTX(PmlirResult result, intptr_t index) {
  return toRef(compiledModule(result, index).ptx);
}

MlirStringRef pmlirResultGetModuleCubin(PmlirResult result, intptr_t index) {
  return toRef(compiledModule(result, index).cubin);
}

MlirStringRef pmlirGetVersion(void) {
  static const char version[] = "pipeline-mlir " PIPELINE_MLIR_VERSION;
  return mlirStringRefCreate(version, sizeof(version) - 1);
}
