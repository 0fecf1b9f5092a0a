//===- LegalizeKernelABI.cpp - pipeline-legalize-kernel-abi -----*- C++ -*-===//

#include "pipeline/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace pmlir {
#define GEN_PASS_DEF_LEGALIZEKERNELABI
#include "pipeline/Pipelines/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;

/// True if the bare-pointer calling convention can pass `type` as one
/// pointer: a ranked memref with static shape, strides and offset.
static bool fitsBarePointer(MemRefType type) {
  if (!type.hasStaticShape())
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

/// Passes the TMA descriptor arguments of `func` as generic pointers.
static void passDescriptorsAsPointers(gpu::GPUFuncOp func) {
  if (func.isExternal())
    return;
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  auto pointer = LLVM::LLVMPointerType::get(func.getContext());
  bool changed = false;
  for (BlockArgument arg : entry.getArguments()) {
    if (!isa<nvgpu::TensorMapDescriptorType>(arg.getType()))
      continue;
    Type descriptor = arg.getType();
    arg.setType(pointer);
    auto cast = UnrealizedConversionCastOp::create(builder, arg.getLoc(),
                                                   descriptor, arg);
    arg.replaceAllUsesExcept(cast.getResult(0), cast);
    changed = true;
  }
  if (changed)
    func.setFunctionType(FunctionType::get(
        func.getContext(), entry.getArgumentTypes(), func.getResultTypes()));
}

namespace {
struct LegalizeKernelABIPass
    : pmlir::impl::LegalizeKernelABIBase<LegalizeKernelABIPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (barePtrMemrefs) {
        for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
          auto memref = dyn_cast<MemRefType>(type);
          if (isa<UnrankedMemRefType>(type) ||
              (memref && !fitsBarePointer(memref))) {
            func.emitOpError()
                << "expects memref arguments with a static shape and static "
                   "strides (the bare-pointer kernel ABI passes one pointer "
                   "per memref), got "
                << type << " for argument #" << i;
            failed = true;
          }
        }
      }
      passDescriptorsAsPointers(func);
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
