//===- pipeline-fuzz.cpp - libFuzzer target for the kernel compiler -------===//
//
// One input is one MLIR source file. It goes through what pipeline-opt and
// pipeline-compile do with a kernel: parse (with the op verifiers), then
// pipeline-lower-to-nvvm for sm_90a and for sm_100a (which runs
// pipeline-verify-linearity, pipeline-verify-protocol and
// convert-pipeline-to-nvgpu first). Every Nth input that lowers is also
// lowered to PTX and assembled with ptxas: a kernel the compiler accepts but
// whose PTX ptxas rejects is a compiler bug, reported as a crash.
//
// Rejected input (parse errors, verifier and checker errors) is fine: its
// diagnostics are swallowed. Crashes, sanitizer reports, report_fatal_error
// and timeouts are findings (fuzz/triage.py sorts them into the project's
// and upstream MLIR's).
//
// Environment:
//   PIPELINE_FUZZ_PTXAS=N   assemble the PTX of every Nth input that lowers
//                           (default 0: never; 1: every one)
//   PIPELINE_FUZZ_CUDA=DIR  CUDA toolkit with bin/ptxas (default: the one
//                           CMake found)
//   PIPELINE_FUZZ_VERBOSE=1 print the diagnostics instead of swallowing them
//
//===----------------------------------------------------------------------===//

#include "pipeline/Compiler/Compiler.h"
#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {
struct FuzzState {
  DialectRegistry registry;
  unsigned ptxasEvery = 0;
  unsigned lowered = 0;
  std::string cudaPath;
  std::string ptxas;
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

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  state = new FuzzState();
  pmlir::registerCompilerDialects(state->registry);
  llvm::install_fatal_error_handler(fatalErrorHandler);
  if (const char *every = getenv("PIPELINE_FUZZ_PTXAS"))
    state->ptxasEvery = static_cast<unsigned>(atoi(every));
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
  if (const char *verbose = getenv("PIPELINE_FUZZ_VERBOSE"))
    state->verbose = *verbose && *verbose != '0';
  return 0;
}

/// Lowers a fresh parse of `source` to PTX for `chip` and assembles it.
/// Aborts when ptxas rejects PTX the compiler produced without an error.
static void checkWithPtxas(llvm::StringRef source, llvm::StringRef chip) {
  MLIRContext context(state->registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module)
    return;
  llvm::Expected<pmlir::NVVMLoweringConfig> config =
      pmlir::getNVVMLoweringConfig(chip, "", /*optLevel=*/3,
                                   /*useBarePtrCallConv=*/true);
  if (!config) {
    llvm::consumeError(config.takeError());
    return;
  }
  auto compiled = pmlir::lowerToPTX(*module, *config, state->cudaPath);
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

/// Parses `source` and runs pipeline-lower-to-nvvm for `chip`; true when the
/// input was accepted and lowered.
static bool lowerToNVVM(llvm::StringRef source, llvm::StringRef chip) {
  MLIRContext context(state->registry, MLIRContext::Threading::DISABLED);
  std::optional<ScopedDiagnosticHandler> swallow;
  if (!state->verbose)
    swallow.emplace(&context, [](Diagnostic &) { return success(); });
  // The parser runs the op verifiers.
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module)
    return false;
  llvm::Expected<pmlir::NVVMLoweringConfig> config =
      pmlir::getNVVMLoweringConfig(chip, "", /*optLevel=*/3,
                                   /*useBarePtrCallConv=*/true);
  if (!config) {
    llvm::consumeError(config.takeError());
    return false;
  }
  PassManager pm(&context);
  pmlir::buildPipelineLowerToNVVM(pm, *config);
  return succeeded(pm.run(*module));
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef source(reinterpret_cast<const char *>(data), size);
  bool lowered = false;
  for (llvm::StringRef chip : {"sm_90a", "sm_100a"})
    lowered |= lowerToNVVM(source, chip);
  if (!lowered || !state->ptxasEvery)
    return 0;
  // Hand-written PTX reaches ptxas unchecked: not the compiler's output.
  if (source.contains("inline_asm"))
    return 0;
  if (state->lowered++ % state->ptxasEvery != 0)
    return 0;
  for (llvm::StringRef chip : {"sm_90a", "sm_100a"})
    checkWithPtxas(source, chip);
  return 0;
}
