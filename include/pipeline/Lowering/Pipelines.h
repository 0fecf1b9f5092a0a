//===- Pipelines.h - named pass pipelines to NVVM and cubin -----*- C++ -*-===//
//
// `pipeline-lower-to-nvvm`: pipeline dialect -> nvgpu -> NVVM/LLVM dialect
// inside every gpu.module, for one chip.
// `pipeline-lower-to-binary`: the same, then gpu-module-to-binary (PTX,
// cubin or fatbin in a gpu.binary).
// Both are registered like upstream's gpu-lower-to-nvvm-pipeline; the
// builders are exported for compilers that embed pipeline-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_LOWERING_PIPELINES_H
#define PIPELINE_LOWERING_PIPELINES_H

#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"
#include "llvm/Support/Error.h"

namespace pmlir {

#define GEN_PASS_DECL
#include "pipeline/Lowering/Passes.h.inc"

/// Options shared by both pipelines. Their names are those of
/// pipeline-compile's options (opt-level, use-bare-ptr-memref-call-conv,
/// ...; docs/cli.md).
template <typename Derived>
struct PipelineNVVMOptionsBase : public mlir::PassPipelineOptions<Derived> {
  mlir::detail::PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc(cuda::getChipOptionHelp()),
      llvm::cl::init(cuda::kDefaultChip)};
  mlir::detail::PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc(cuda::getFeaturesOptionHelp()),
      llvm::cl::init("")};
  mlir::detail::PassOptions::Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM and ptxas optimization level, 0 to 3"),
      llvm::cl::init(3)};
  mlir::detail::PassOptions::Option<bool> useBarePtrCallConv{
      *this, "use-bare-ptr-memref-call-conv",
      llvm::cl::desc("pass each memref kernel argument as one pointer (the "
                     "kernel ABI of pipeline-mlir; needs static shapes)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("line information from the input's locations in the "
                     "PTX (.file/.loc directives, as nvcc -lineinfo)"),
      llvm::cl::init(false)};
  mlir::detail::PassOptions::Option<bool> verifyProtocol{
      *this, "verify-protocol",
      llvm::cl::desc("run pipeline-verify-protocol on the input (off only to "
                     "compile a deliberately broken kernel, e.g. to test a "
                     "hang)"),
      llvm::cl::init(true)};
  mlir::detail::PassOptions::Option<uint64_t> hangReport{
      *this, "hang-report",
      llvm::cl::desc("0: off. Else every blocking wait reports where it waits "
                     "after this many clock cycles, then traps "
                     "(docs/debugging.md)"),
      llvm::cl::init(0)};
  mlir::detail::PassOptions::Option<bool> hangKeepWaiting{
      *this, "hang-keep-waiting",
      llvm::cl::desc("with hang-report: keep waiting after the report"),
      llvm::cl::init(false)};
  mlir::detail::PassOptions::Option<bool> unrollStages{
      *this, "unroll-stages",
      llvm::cl::desc("run pipeline-unroll-stages before the lowering: "
                     "steady-state loops unrolled by the stage count, stage "
                     "indices constant (not with hang-report)"),
      llvm::cl::init(true)};
};

/// The options that also need the CUDA toolkit (ptxas, fatbinary,
/// libdevice).
template <typename Derived>
struct PipelineToolkitOptionsBase : public PipelineNVVMOptionsBase<Derived> {
  mlir::detail::PassOptions::Option<std::string> cudaPath{
      *this, "cuda-path", llvm::cl::desc(cuda::getCudaPathOptionHelp()),
      llvm::cl::init("")};
};

struct PipelineLowerToNVVMOptions
    : public PipelineNVVMOptionsBase<PipelineLowerToNVVMOptions> {};

struct PipelineLowerToBinaryOptions
    : public PipelineToolkitOptionsBase<PipelineLowerToBinaryOptions> {
  mlir::detail::PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("what the gpu.binary holds: isa (PTX), bin (cubin) or "
                     "fatbin"),
      llvm::cl::init("bin")};
};

/// The options of a compile (compileModule): pipeline-compile's, the C
/// API's and so Python's, in the syntax of pass options
/// ("chip=sm_90a hang-report=100000"). The one declaration of the lowering
/// options: the entry points differ only in spelling (pipeline-compile
/// also takes -O3, --lineinfo and a bare --hang-report).
struct PipelineCompileOptions
    : public PipelineToolkitOptionsBase<PipelineCompileOptions> {};

/// The checked options of a lowering to NVVM.
struct NVVMLoweringConfig {
  std::string chip;
  /// Where `chip` comes from, named in the lowering's chip diagnostics
  /// ("--chip" in pipeline-compile).
  std::string chipOrigin = "the pipeline option chip";
  /// Resolved PTX features (never empty).
  std::string features;
  unsigned ptxVersion = 0;
  unsigned optLevel = 3;
  bool useBarePtrCallConv = true;
  /// Run pipeline-verify-protocol before lowering.
  bool verifyProtocol = true;
  /// The hang report: 0 = off, else the cycles a wait may take.
  uint64_t hangReportCycles = 0;
  bool hangKeepWaiting = false;
  /// Run pipeline-unroll-stages before the lowering (not with the hang
  /// report, whose sites are per op).
  bool unrollStages = true;
  /// Line information (.file/.loc) from the input's locations in the PTX.
  bool lineInfo = false;
};

/// Checks chip, features and opt level; resolves the default features.
llvm::Expected<NVVMLoweringConfig>
getNVVMLoweringConfig(llvm::StringRef chip, llvm::StringRef features,
                      unsigned optLevel, bool useBarePtrCallConv);

/// Checks what depends on several options, the same for every entry point
/// (the named pipelines, pipeline-compile, the C API and so Python):
/// hang-keep-waiting needs the hang report.
llvm::Error checkNVVMLoweringConfig(const NVVMLoweringConfig &config);

/// Checks and resolves any of the option structs above: the one place
/// where options become a configuration, for every entry point.
template <typename Derived>
llvm::Expected<NVVMLoweringConfig>
getNVVMLoweringConfig(const PipelineNVVMOptionsBase<Derived> &options) {
  llvm::Expected<NVVMLoweringConfig> config =
      getNVVMLoweringConfig(options.chip, options.features, options.optLevel,
                            options.useBarePtrCallConv);
  if (!config)
    return config.takeError();
  config->verifyProtocol = options.verifyProtocol;
  config->hangReportCycles = options.hangReport;
  config->hangKeepWaiting = options.hangKeepWaiting;
  config->unrollStages = options.unrollStages;
  config->lineInfo = options.lineInfo;
  if (llvm::Error error = checkNVVMLoweringConfig(*config))
    return std::move(error);
  return config;
}

/// Parses `text` ("chip=sm_90a opt-level=2", the syntax of pass options)
/// into `options`; the parser's message on failure.
llvm::Error parseCompileOptions(llvm::StringRef text,
                                PipelineCompileOptions &options);

/// Prints every option of a compile with its default, in the syntax
/// parseCompileOptions reads.
std::string getCompileOptionDefaults();

/// Adds pipeline-lower-to-nvvm to `pm` (a builtin.module pass manager).
void buildPipelineLowerToNVVM(mlir::OpPassManager &pm,
                              const NVVMLoweringConfig &config);

/// Adds pipeline-lower-to-binary to `pm`: pipeline-lower-to-nvvm then
/// gpu-module-to-binary with `format` (isa, bin or fatbin), using the CUDA
/// toolkit at `cudaPath` (see cuda::getCudaPath) for bin and fatbin.
void buildPipelineLowerToBinary(mlir::OpPassManager &pm,
                                const NVVMLoweringConfig &config,
                                llvm::StringRef format,
                                llvm::StringRef cudaPath);

/// Registers both named pipelines and the passes of Passes.td.
void registerPipelinePipelines();

} // namespace pmlir

#endif // PIPELINE_LOWERING_PIPELINES_H
