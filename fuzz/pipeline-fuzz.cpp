//===- pipeline-fuzz.cpp - libFuzzer target for the kernel compiler -------===//
//
// One input is one MLIR source file. It goes through what pipeline-opt and
// pipeline-compile do with a kernel: parse (with the op verifiers), the
// checkers (pipeline-verify-linearity, pipeline-verify-protocol and the
// lowering's own preconditions), then pipeline-lower-to-nvvm for sm_90a and
// for sm_100a. Every Nth input that lowers is also lowered to PTX and
// assembled with ptxas: a kernel the compiler accepts but whose PTX ptxas
// rejects is a compiler bug, reported as a crash.
//
// Rejected input (parse errors, verifier and checker errors) is fine: its
// diagnostics are swallowed. Crashes, sanitizer reports, report_fatal_error
// and timeouts are findings (fuzz/triage.py sorts them into the project's
// and upstream MLIR's).
//
// Inputs share one MLIRContext (with every dialect loaded), replaced after
// kContextInputs inputs so that what the inputs intern stays bounded: a
// fresh context per input cost more than parsing most inputs.
//
// Environment:
//   PIPELINE_FUZZ_LOWER=N   lower every Nth input that passes the checkers
//                           (default 1: every one). The long run uses N > 1:
//                           parsing and checking are ~50x cheaper than
//                           lowering for two chips.
//   PIPELINE_FUZZ_PTXAS=N   assemble the PTX of every Nth input that lowers
//                           (default 0: never; 1: every one)
//   PIPELINE_FUZZ_CUDA=DIR  CUDA toolkit with bin/ptxas (default: the one
//                           CMake found)
//   PIPELINE_FUZZ_STATS=F   append one line of counts per process to F at
//                           exit (inputs, parsed, checked, lowered,
//                           assembled); scripts/fuzz.sh sums them
//   PIPELINE_FUZZ_VERBOSE=1 print the diagnostics instead of swallowing them
//
//===----------------------------------------------------------------------===//

#include "pipeline/Compiler/Compiler.h"
#include "pipeline/Conversion/Passes.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"
#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

using namespace mlir;

namespace {
/// Inputs parsed in one context before it is replaced.
constexpr unsigned kContextInputs = 2000;

struct Counts {
  uint64_t inputs = 0;
  uint64_t parsed = 0;
  uint64_t checked = 0;
  uint64_t lowered = 0;
  uint64_t assembled = 0;
};

struct FuzzState {
  DialectRegistry registry;
  // The handler is destroyed before its context.
  std::unique_ptr<MLIRContext> context;
  std::optional<ScopedDiagnosticHandler> swallow;
  unsigned contextInputs = 0;
  unsigned lowerEvery = 1;
  unsigned ptxasEvery = 0;
  Counts counts;
  std::string cudaPath;
  std::string ptxas;
  std::string statsFile;
  bool verbose = false;
};
} // namespace

static FuzzState *state;

/// report_fatal_error is a finding: abort so that the sanitizer prints the
/// stack (exit(1) would hide where it came from).
static void fatalErrorHandler(void *, const char *reason, bool) {
  llvm::errs() << "pipeline-fuzz: fatal error: " << reason << "\n";
  abort();
}

static void writeStats() {
  if (!state || state->statsFile.empty())
    return;
  // One short write in append mode: processes of a -fork run do not
  // interleave.
  if (FILE *file = fopen(state->statsFile.c_str(), "a")) {
    const Counts &c = state->counts;
    fprintf(file,
            "inputs %llu parsed %llu checked %llu lowered %llu "
            "assembled %llu\n",
            (unsigned long long)c.inputs, (unsigned long long)c.parsed,
            (unsigned long long)c.checked, (unsigned long long)c.lowered,
            (unsigned long long)c.assembled);
    fclose(file);
  }
}

static unsigned getUnsignedEnv(const char *name, unsigned otherwise) {
  const char *value = getenv(name);
  return value && *value ? static_cast<unsigned>(atoi(value)) : otherwise;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  state = new FuzzState();
  pmlir::registerCompilerDialects(state->registry);
  llvm::install_fatal_error_handler(fatalErrorHandler);
  state->lowerEvery = std::max(1u, getUnsignedEnv("PIPELINE_FUZZ_LOWER", 1));
  state->ptxasEvery = getUnsignedEnv("PIPELINE_FUZZ_PTXAS", 0);
  const char *cuda = getenv("PIPELINE_FUZZ_CUDA");
  state->cudaPath = cuda ? cuda : PIPELINE_FUZZ_CUDA_ROOT;
  llvm::SmallString<128> ptxas(state->cudaPath);
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  state->ptxas = std::string(ptxas);
  if (state->ptxasEvery && !llvm::sys::fs::can_execute(state->ptxas)) {
    llvm::errs() << "pipeline-fuzz: PIPELINE_FUZZ_PTXAS is set but there is "
                    "no "
                 << state->ptxas << "\n";
    exit(1);
  }
  if (const char *stats = getenv("PIPELINE_FUZZ_STATS"))
    state->statsFile = stats;
  if (const char *verbose = getenv("PIPELINE_FUZZ_VERBOSE"))
    state->verbose = *verbose && *verbose != '0';
  atexit(writeStats);
  return 0;
}

/// The shared context, replaced every kContextInputs inputs.
static MLIRContext &getContext() {
  if (state->context && state->contextInputs++ < kContextInputs)
    return *state->context;
  state->swallow.reset();
  state->context = std::make_unique<MLIRContext>(
      state->registry, MLIRContext::Threading::DISABLED);
  state->context->loadAllAvailableDialects();
  if (!state->verbose)
    state->swallow.emplace(state->context.get(),
                           [](Diagnostic &) { return success(); });
  state->contextInputs = 1;
  return *state->context;
}

static llvm::Expected<pmlir::NVVMLoweringConfig>
getConfig(llvm::StringRef chip) {
  return pmlir::getNVVMLoweringConfig(chip, "", /*optLevel=*/3,
                                      /*useBarePtrCallConv=*/true);
}

/// The checks that run before anything is lowered; true when they accept
/// `module`.
static bool check(ModuleOp module) {
  PassManager pm(module->getContext());
  pm.addPass(pmlir::createPipelineVerifyLinearity());
  pm.addPass(pmlir::createPipelineVerifyProtocol());
  pmlir::ConvertPipelineToNVGPUOptions options;
  options.chip = "sm_100a";
  options.checkOnly = true;
  pm.addPass(pmlir::createConvertPipelineToNVGPU(options));
  return succeeded(pm.run(module));
}

/// Runs pipeline-lower-to-nvvm for `chip` on a copy of `module`; true when
/// it lowered.
static bool lowerToNVVM(ModuleOp module, llvm::StringRef chip) {
  llvm::Expected<pmlir::NVVMLoweringConfig> config = getConfig(chip);
  if (!config) {
    llvm::consumeError(config.takeError());
    return false;
  }
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module->getContext());
  pmlir::buildPipelineLowerToNVVM(pm, *config);
  return succeeded(pm.run(*copy));
}

/// Lowers a copy of `module` to PTX for `chip` and assembles it. Aborts
/// when ptxas rejects PTX the compiler produced without an error.
static void checkWithPtxas(ModuleOp module, llvm::StringRef chip) {
  llvm::Expected<pmlir::NVVMLoweringConfig> config = getConfig(chip);
  if (!config) {
    llvm::consumeError(config.takeError());
    return;
  }
  OwningOpRef<ModuleOp> copy = module.clone();
  auto compiled = pmlir::lowerToPTX(*copy, *config, state->cudaPath);
  if (!compiled) {
    llvm::consumeError(compiled.takeError());
    return;
  }
  for (const pmlir::CompiledGPUModule &gpuModule : *compiled) {
    llvm::Expected<std::string> cubin =
        pmlir::assemblePTX(state->ptxas, chip, config->optLevel, gpuModule.ptx);
    if (cubin)
      continue;
    llvm::errs() << "pipeline-fuzz: ptxas rejected the PTX of gpu.module @"
                 << gpuModule.name << " for " << chip << ": "
                 << llvm::toString(cubin.takeError()) << "\n";
    abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Counts &counts = state->counts;
  ++counts.inputs;
  // A NUL-terminated copy, as every tool's input (a file's MemoryBuffer):
  // MLIR's lexer may look at the byte after the end. On the heap and
  // exactly that long, so that ASan still sees a read beyond the NUL.
  std::unique_ptr<char[]> copy(new char[size + 1]);
  std::copy(data, data + size, copy.get());
  copy[size] = '\0';
  llvm::StringRef source(copy.get(), size);
  // The parser runs the op verifiers.
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&getContext()));
  if (!module)
    return 0;
  ++counts.parsed;
  if (!check(*module))
    return 0;
  if (counts.checked++ % state->lowerEvery != 0)
    return 0;
  bool lowered = false;
  for (llvm::StringRef chip : {"sm_90a", "sm_100a"})
    lowered |= lowerToNVVM(*module, chip);
  if (!lowered)
    return 0;
  uint64_t index = counts.lowered++;
  // Hand-written PTX reaches ptxas unchecked: not the compiler's output.
  if (!state->ptxasEvery || index % state->ptxasEvery != 0 ||
      source.contains("inline_asm"))
    return 0;
  ++counts.assembled;
  for (llvm::StringRef chip : {"sm_90a", "sm_100a"})
    checkWithPtxas(*module, chip);
  return 0;
}
