//===- ExternDynamicSharedMemory.cpp ----------------------------*- C++ -*-===//
//
// pipeline-extern-dynamic-shared-memory (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Lowering/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace pmlir {
#define GEN_PASS_DEF_EXTERNDYNAMICSHAREDMEMORY
#include "pipeline/Lowering/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;

/// True for the global that convert-gpu-to-nvvm makes of
/// gpu.dynamic_shared_memory: internal, zero-sized, uninitialized, in shared
/// memory.
static bool isDynamicSharedMemory(LLVM::GlobalOp global) {
  auto array = dyn_cast<LLVM::LLVMArrayType>(global.getGlobalType());
  return global.getAddrSpace() ==
             static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared) &&
         array && array.getNumElements() == 0 &&
         global.getLinkage() == LLVM::Linkage::Internal &&
         !global.getValueOrNull() && global.getInitializerRegion().empty();
}

namespace {
struct ExternDynamicSharedMemoryPass
    : pmlir::impl::ExternDynamicSharedMemoryBase<
          ExternDynamicSharedMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    if (!llvm::isPowerOf2_32(alignment)) {
      getOperation().emitError()
          << "pipeline-extern-dynamic-shared-memory expects a power-of-two "
             "alignment, got "
          << static_cast<unsigned>(alignment);
      return signalPassFailure();
    }
    for (auto global : getOperation().getOps<LLVM::GlobalOp>()) {
      if (!isDynamicSharedMemory(global))
        continue;
      global.setLinkage(LLVM::Linkage::External);
      uint64_t current = global.getAlignment().value_or(1);
      global.setAlignment(
          std::max<uint64_t>(current, static_cast<unsigned>(alignment)));
    }
  }
};
} // namespace
