//===- GpuModuleToBinary.cpp - pipeline-gpu-module-to-binary ----*- C++ -*-===//

#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace pmlir {
#define GEN_PASS_DEF_GPUMODULETOBINARY
#include "pipeline/Lowering/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;

/// The first call of `gpuModule` to a libdevice function (an external
/// llvm.func named __nv_*), or the declaration of one that is not called;
/// null if there is none.
static Operation *findLibdeviceCall(gpu::GPUModuleOp gpuModule,
                                    StringRef &callee) {
  for (auto func : gpuModule.getOps<LLVM::LLVMFuncOp>()) {
    if (!func.isExternal() || !func.getName().starts_with("__nv_"))
      continue;
    callee = func.getName();
    Operation *call = func;
    gpuModule.walk([&](LLVM::CallOp op) {
      if (op.getCallee() != callee)
        return WalkResult::advance();
      call = op;
      return WalkResult::interrupt();
    });
    return call;
  }
  return nullptr;
}

namespace {
struct GpuModuleToBinaryPass
    : pmlir::impl::GpuModuleToBinaryBase<GpuModuleToBinaryPass> {
  using Base::Base;

  void runOnOperation() override {
    std::string toolkit = cuda::getCudaPath(cudaPath);
    SmallString<256> libdevice(toolkit);
    llvm::sys::path::append(libdevice, "nvvm", "libdevice", "libdevice.10.bc");
    bool haveLibdevice = llvm::sys::fs::is_regular_file(libdevice);

    bool needLibdevice = false, missing = false;
    getOperation().walk([&](gpu::GPUModuleOp gpuModule) {
      StringRef callee;
      Operation *call = findLibdeviceCall(gpuModule, callee);
      if (!call)
        return;
      needLibdevice = true;
      if (haveLibdevice)
        return;
      call->emitError()
          << "calls " << callee
          << " of libdevice, which needs the CUDA toolkit's " << libdevice
          << " (toolkit from " << cuda::getCudaPathSource(cudaPath)
          << "): no such file; pass the toolkit with --cuda-path, CUDA_HOME "
             "or CUDA_PATH";
      missing = true;
    });
    if (missing)
      return signalPassFailure();

    // Upstream's serializer looks for libdevice in the toolkit directory
    // (or, given none, in $CUDA_ROOT, $CUDA_HOME, $CUDA_PATH) whether or not
    // a module calls it, and reports a missing file as an error while it
    // goes on. Where no module calls libdevice that error is dropped; where
    // one does, the file is there.
    GpuModuleToBinaryPassOptions options;
    options.compilationTarget = format;
    options.toolkitPath = toolkit;
    OpPassManager pm(ModuleOp::getOperationName());
    pm.addPass(createGpuModuleToBinaryPass(options));
    ScopedDiagnosticHandler dropMissingLibdevice(
        &getContext(), [&](Diagnostic &diag) {
          if (needLibdevice || diag.getSeverity() != DiagnosticSeverity::Error)
            return failure();
          std::string message = diag.str();
          StringRef text = message;
          return success(text.starts_with("LibDevice path: ") ||
                         text.starts_with("CUDA path: "));
        });
    if (failed(runPipeline(pm, getOperation())))
      signalPassFailure();
  }
};
} // namespace
