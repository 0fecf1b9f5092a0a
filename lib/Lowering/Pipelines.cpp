//===- Pipelines.cpp - named pass pipelines to NVVM and cubin ---*- C++ -*-===//

#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Conversion/Passes.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace pmlir;

namespace pmlir {
#define GEN_PASS_REGISTRATION
#include "pipeline/Lowering/Passes.h.inc"
} // namespace pmlir

llvm::Expected<NVVMLoweringConfig>
pmlir::getNVVMLoweringConfig(StringRef chip, StringRef features,
                             unsigned optLevel, bool useBarePtrCallConv) {
  const cuda::ChipInfo *info = cuda::lookupChip(chip);
  if (!info)
    return llvm::createStringError("expects chip to be one of " +
                                   cuda::getSupportedChipList() + ", got '" +
                                   chip + "'");
  if (optLevel > 3)
    return llvm::createStringError(
        llvm::formatv("expects opt-level 0 to 3, got {0}", optLevel));
  NVVMLoweringConfig config;
  config.chip = chip.str();
  config.optLevel = optLevel;
  config.useBarePtrCallConv = useBarePtrCallConv;
  if (features.empty()) {
    config.ptxVersion = cuda::getDefaultPtxVersion(*info);
    config.features = llvm::formatv("+ptx{0}", config.ptxVersion).str();
    return config;
  }
  llvm::Expected<unsigned> ptx = cuda::checkFeatures(*info, features);
  if (!ptx)
    return ptx.takeError();
  config.ptxVersion = *ptx;
  config.features = features.str();
  return config;
}

llvm::Error pmlir::checkNVVMLoweringConfig(const NVVMLoweringConfig &config) {
  if (config.hangKeepWaiting && !config.hangReportCycles)
    return llvm::createStringError(
        "expects hang-keep-waiting with the hang report (hang-report)");
  return llvm::Error::success();
}

/// Checks that run on the input before anything is lowered.
static void addInputChecks(OpPassManager &pm,
                           const NVVMLoweringConfig &config) {
  // The lowering assumes linear stage handles: reject a kernel that leaks,
  // double-releases or misuses one before anything is rewritten.
  pm.addPass(createPipelineVerifyLinearity());
  // A pipeline whose barriers are never (or not collectively) initialized
  // hangs at its first wait.
  if (config.verifyProtocol)
    pm.addPass(createPipelineVerifyProtocol());
}

void pmlir::buildPipelineLowerToNVVM(OpPassManager &pm,
                                     const NVVMLoweringConfig &config) {
  addInputChecks(pm, config);

  // gpu.launch bodies become gpu.funcs in gpu.modules first, so that they
  // get the target, the kernel ABI and the pipeline lowering of device code.
  pm.addPass(createGpuKernelOutliningPass());
  // The dynamic shared memory each kernel needs at least, for the launcher.
  // With line information, also which pipeline each barrier init belongs
  // to (pipeline-sim's findings name barriers by it).
  RecordLaunchContractOptions contractOptions;
  contractOptions.barrierNames = config.lineInfo;
  pm.addPass(createRecordLaunchContract(contractOptions));

  // Target and ABI next: convert-pipeline-to-nvgpu reads the chip from the
  // gpu.module's #nvvm.target.
  AttachNVVMTargetOptions targetOptions;
  targetOptions.chip = config.chip;
  targetOptions.features = config.features;
  targetOptions.optLevel = config.optLevel;
  pm.addPass(createAttachNVVMTarget(targetOptions));
  LegalizeKernelABIOptions abiOptions;
  abiOptions.useBarePtrCallConv = config.useBarePtrCallConv;
  abiOptions.ptxVersion = config.ptxVersion;
  pm.addPass(createLegalizeKernelABI(abiOptions));

  // Device code is lowered one gpu.module at a time, and within it one
  // function at a time; code outside gpu.modules (host functions, or
  // kernels in a module without gpu.module) one function at a time. The
  // nested pass managers run all their passes on one function before the
  // next, while its IR is in the cache, and the functions of a large file
  // compile in parallel. Run on builtin.module (as in upstream
  // gpu-lower-to-nvvm-pipeline), or on a gpu.module of many kernels, each
  // pass walked the IR of every kernel, and the compile time per kernel
  // grew with the number of kernels (docs/benchmarks.md, "Compile time").
  // convert-func-to-llvm only runs on builtin.module and
  // convert-gpu-to-nvvm on gpu.module: they split the lowering in parts.
  // On the ops `anchors` of `symbolTable`, except the passes that add
  // symbols.
  auto addPipelineLowering = [&](OpPassManager &symbolTable,
                                 ArrayRef<StringRef> anchors) {
    SmallVector<OpPassManager *> nestedPms;
    auto addNested = [&](llvm::function_ref<std::unique_ptr<Pass>()> make) {
      if (nestedPms.empty())
        for (StringRef anchor : anchors)
          nestedPms.push_back(&symbolTable.nest(anchor));
      for (OpPassManager *nested : nestedPms)
        nested->addPass(make());
    };
    // Steady-state loops unrolled by the stage count, so that the lowering
    // knows each copy's stage index.
    if (config.unrollStages && !config.hangReportCycles)
      addNested([] { return createUnrollStages(); });
    ConvertPipelineToNVGPUOptions pipelineOptions;
    pipelineOptions.chip = config.chip;
    pipelineOptions.chipOrigin = config.chipOrigin;
    pipelineOptions.hangReport = config.hangReportCycles;
    pipelineOptions.hangKeepWaiting = config.hangKeepWaiting;
    if (config.hangReportCycles) {
      // With a hang report the lowering adds globals to the symbol table,
      // so it runs on the symbol table; what follows nests anew.
      symbolTable.addPass(createConvertPipelineToNVGPU(pipelineOptions));
      nestedPms.clear();
    } else {
      addNested([&] { return createConvertPipelineToNVGPU(pipelineOptions); });
    }

    // The common part of upstream gpu-lower-to-nvvm-pipeline.
    // convert-nvgpu-to-nvvm adds a global to the symbol table for every
    // nvgpu.mbarrier.create: run on the functions in parallel, it would
    // write the symbol table from several threads.
    symbolTable.addPass(createConvertNVGPUToNVVMPass());
    nestedPms.clear();
    addNested([] { return createConvertVectorToSCFPass(); });
    addNested([] { return createSCFToControlFlowPass(); });
    addNested([] { return createConvertNVVMToLLVMPass(); });
  };
  auto addToLLVM = [&](OpPassManager &nested) {
    nested.addPass(memref::createExpandStridedMetadataPass());
    nested.addPass(createLowerAffinePass());
    nested.addPass(createArithToLLVMConversionPass());
    nested.addPass(createConvertIndexToLLVMPass());
    nested.addPass(createCanonicalizerPass());
    nested.addPass(createCSEPass());
  };

  // What the pipeline lowering needs is checked on the whole module first,
  // so that a bad host function is reported along with bad kernels.
  ConvertPipelineToNVGPUOptions checkOptions;
  checkOptions.chip = config.chip;
  checkOptions.chipOrigin = config.chipOrigin;
  checkOptions.checkOnly = true;
  pm.addPass(createConvertPipelineToNVGPU(checkOptions));

  // The functions a gpu.module may hold: kernels and device functions,
  // the latter func.func before convert-func-to-llvm and llvm.func after.
  StringRef deviceFunctions[] = {gpu::GPUFuncOp::getOperationName(),
                                 func::FuncOp::getOperationName(),
                                 LLVM::LLVMFuncOp::getOperationName()};
  addPipelineLowering(pm.nest<gpu::GPUModuleOp>(), deviceFunctions);
  addPipelineLowering(pm, func::FuncOp::getOperationName());
  pm.addPass(createConvertFuncToLLVMPass());

  // Device code.
  OpPassManager &gpuPm = pm.nest<gpu::GPUModuleOp>();
  for (StringRef function : deviceFunctions)
    addToLLVM(gpuPm.nest(function));
  ConvertGpuOpsToNVVMOpsOptions gpuOptions;
  gpuOptions.useBarePtrCallConv = config.useBarePtrCallConv;
  gpuPm.addPass(createConvertGpuOpsToNVVMOps(gpuOptions));
  gpuPm.addPass(createExternDynamicSharedMemory());
  OpPassManager &llvmFuncPm = gpuPm.nest<LLVM::LLVMFuncOp>();
  llvmFuncPm.addPass(createCanonicalizerPass());
  llvmFuncPm.addPass(createCSEPass());
  llvmFuncPm.addPass(createReconcileUnrealizedCastsPass());
  // The role state allocas become registers here already, so that no
  // local memory is left even at opt-level 0 (LLVM's SROA does the same
  // again at -O1 and up).
  llvmFuncPm.addPass(createSROA());
  llvmFuncPm.addPass(createMem2Reg());
  llvmFuncPm.addPass(createCanonicalizerPass());
  // Functions outside gpu.modules, now llvm.funcs.
  addToLLVM(pm.nest<LLVM::LLVMFuncOp>());

  // Host code, if any, launches with the same calling convention.
  GpuToLLVMConversionPassOptions hostOptions;
  hostOptions.kernelBarePtrCallConv = config.useBarePtrCallConv;
  pm.addPass(createGpuToLLVMConversionPass(hostOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());

  // Line information: a DISubprogram on every llvm.func (the ops keep their
  // file:line:col locations), which NVPTX prints as .file and .loc
  // directives, without DWARF sections (as nvcc -lineinfo).
  if (config.lineInfo) {
    LLVM::DIScopeForLLVMFuncOpPassOptions debugOptions;
    debugOptions.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(debugOptions));
  }
}

void pmlir::buildPipelineLowerToBinary(OpPassManager &pm,
                                       const NVVMLoweringConfig &config,
                                       StringRef format, StringRef cudaPath) {
  buildPipelineLowerToNVVM(pm, config);
  GpuModuleToBinaryOptions binaryOptions;
  binaryOptions.format = format.str();
  binaryOptions.cudaPath = cudaPath.str();
  pm.addPass(createGpuModuleToBinary(binaryOptions));
}

/// Registers `Options` as pipeline `name`: parses and checks the options,
/// reporting a bad chip, feature string or level through `errorHandler`.
template <typename Options>
static void registerPipeline(
    StringRef name, StringRef description,
    function_ref<LogicalResult(OpPassManager &, const Options &,
                               function_ref<LogicalResult(const Twine &)>)>
        build) {
  registerPassPipeline(
      name, description,
      [name = name.str(), build = std::function(build)](
          OpPassManager &pm, StringRef optionsStr,
          function_ref<LogicalResult(const Twine &)> errorHandler) {
        Options options;
        if (failed(options.parseFromString(optionsStr)))
          return failure();
        return build(pm, options, [&](const Twine &message) {
          return errorHandler(name + ": " + message);
        });
      },
      [](function_ref<void(const detail::PassOptions &)> optHandler) {
        optHandler(Options());
      });
}

llvm::Error pmlir::parseCompileOptions(StringRef text,
                                       PipelineCompileOptions &options) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (succeeded(options.parseFromString(text, os)))
    return llvm::Error::success();
  StringRef trimmed = StringRef(message).trim();
  return llvm::createStringError(
      trimmed.empty() ? "cannot parse the options '" + text.str() + "'"
                      : trimmed.str());
}

std::string pmlir::getCompileOptionDefaults() {
  PipelineCompileOptions options;
  std::string text;
  llvm::raw_string_ostream os(text);
  options.print(os);
  // print() wraps the list in braces (the form of a nested pipeline's
  // options); parseFromString reads it without.
  return StringRef(text).trim("{} ").str();
}

void pmlir::registerPipelinePipelines() {
  registerPipelinePipelinesPasses();

  registerPipeline<PipelineLowerToNVVMOptions>(
      "pipeline-lower-to-nvvm",
      "Lower pipeline-dialect kernels in gpu.modules to the NVVM/LLVM "
      "dialects for one chip",
      [](OpPassManager &pm, const PipelineLowerToNVVMOptions &options,
         function_ref<LogicalResult(const Twine &)> error) {
        llvm::Expected<NVVMLoweringConfig> config =
            getNVVMLoweringConfig(options);
        if (!config)
          return error(llvm::toString(config.takeError()));
        buildPipelineLowerToNVVM(pm, *config);
        return success();
      });

  registerPipeline<PipelineLowerToBinaryOptions>(
      "pipeline-lower-to-binary",
      "Lower pipeline-dialect kernels to a gpu.binary holding PTX, a cubin "
      "or a fatbin for one chip",
      [](OpPassManager &pm, const PipelineLowerToBinaryOptions &options,
         function_ref<LogicalResult(const Twine &)> error) {
        llvm::Expected<NVVMLoweringConfig> config =
            getNVVMLoweringConfig(options);
        if (!config)
          return error(llvm::toString(config.takeError()));
        StringRef format = options.format;
        if (format != "isa" && format != "bin" && format != "fatbin")
          return error("expects format isa, bin or fatbin, got '" + format +
                       "'");
        if (format != "isa") {
          // ptxas must exist and know the chip: say so now rather than
          // after the LLVM compilation.
          const cuda::ChipInfo *chip = cuda::lookupChip(config->chip);
          llvm::Expected<std::string> ptxas =
              cuda::findPtxasFor(options.cudaPath, *chip, config->ptxVersion);
          if (!ptxas)
            return error(llvm::toString(ptxas.takeError()));
        }
        buildPipelineLowerToBinary(pm, *config, format, options.cudaPath);
        return success();
      });
}
