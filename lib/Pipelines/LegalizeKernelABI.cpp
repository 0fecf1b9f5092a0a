//===- LegalizeKernelABI.cpp - pipeline-legalize-kernel-abi -----*- C++ -*-===//

#include "pipeline/Pipelines/Pipelines.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

/// True if the GPU-to-NVVM conversion can pass a value of `type` to or
/// from a gpu.func. Pipeline-dialect types are left to
/// convert-pipeline-to-nvgpu, which reports them with its own diagnostic.
static bool hasKernelABI(Type type) {
  if (isa<IntegerType, IndexType, FloatType, VectorType, ComplexType,
          MemRefType, UnrankedMemRefType, nvgpu::TensorMapDescriptorType>(type))
    return true;
  return LLVM::isCompatibleType(type) ||
         type.getDialect().getNamespace() == "pipeline";
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
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        if (hasKernelABI(type))
          continue;
        func.emitOpError()
            << "expects arguments of integer, index, float, vector, complex, "
               "memref, LLVM or !nvgpu.tensormap.descriptor type, got "
            << type << " for argument #" << i;
        failed = true;
      }
      for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
        if (hasKernelABI(type))
          continue;
        func.emitOpError()
            << "expects results of integer, index, float, vector, complex, "
               "memref or LLVM type, got "
            << type << " for result #" << i;
        failed = true;
      }
      if (failed)
        return;
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
    // Host functions: a memref in a GPU address space (workgroup, private)
    // has no host lowering; upstream only reports it without failing.
    getOperation().walk([&](FunctionOpInterface func) {
      if (func->getParentOfType<gpu::GPUModuleOp>() ||
          isa<gpu::GPUFuncOp>(func.getOperation()))
        return;
      auto check = [&](Type type, StringRef what, unsigned i) {
        auto memref = dyn_cast<BaseMemRefType>(type);
        if (!memref ||
            !isa_and_present<gpu::AddressSpaceAttr>(memref.getMemorySpace()))
          return;
        func->emitOpError() << "expects host code to use no memref in a GPU "
                               "address space (only kernels in a gpu.module "
                               "can), got "
                            << type << " for " << what << " #" << i;
        failed = true;
      };
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        check(type, "argument", i);
      for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
        check(type, "result", i);
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
