//===- AttachNVVMTarget.cpp - pipeline-attach-nvvm-target -------*- C++ -*-===//

#include "pipeline/Lowering/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace pmlir {
#define GEN_PASS_DEF_ATTACHNVVMTARGET
#include "pipeline/Lowering/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;

namespace {
struct AttachNVVMTargetPass
    : pmlir::impl::AttachNVVMTargetBase<AttachNVVMTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::Expected<NVVMLoweringConfig> config = getNVVMLoweringConfig(
        chip, features, optLevel, /*useBarePtrCallConv=*/true);
    if (!config) {
      module.emitError() << "pipeline-attach-nvvm-target "
                         << llvm::toString(config.takeError());
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    module.walk([&](gpu::GPUModuleOp gpuModule) {
      SmallVector<Attribute> targets;
      NVVM::NVVMTargetAttr previous;
      if (ArrayAttr existing = gpuModule.getTargetsAttr()) {
        for (Attribute target : existing) {
          if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target)) {
            previous = previous ? previous : nvvm;
            continue;
          }
          targets.push_back(target);
        }
      }
      auto target = NVVM::NVVMTargetAttr::get(
          ctx, config->optLevel,
          previous ? previous.getTriple() : StringRef("nvptx64-nvidia-cuda"),
          config->chip, config->features,
          previous ? previous.getFlags() : DictionaryAttr(),
          previous ? previous.getLink() : ArrayAttr());
      targets.insert(targets.begin(), target);
      gpuModule.setTargetsAttr(ArrayAttr::get(ctx, targets));
    });
  }
};
} // namespace
