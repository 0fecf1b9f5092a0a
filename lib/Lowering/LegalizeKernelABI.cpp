//===- LegalizeKernelABI.cpp - pipeline-legalize-kernel-abi -----*- C++ -*-===//

#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace pmlir {
#define GEN_PASS_DEF_LEGALIZEKERNELABI
#include "pipeline/Lowering/Passes.h.inc"
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

/// The largest parameter space of a kernel, in bytes: 32764 from PTX ISA 8.1
/// (CUDA 12.1) on sm_70 and newer, 4096 before (NVIDIA, "CUDA 12.1
/// Supports Large Kernel Parameters", and the PTX ISA 8.1 release notes).
/// Every chip of pipeline-mlir is sm_90 or newer.
/// LLVM globals and functions of private or internal linkage, which the
/// NVPTX backend renames.
static bool hasLocalLinkage(Operation *op) {
  std::optional<LLVM::Linkage> linkage;
  if (auto global = dyn_cast<LLVM::GlobalOp>(op))
    linkage = global.getLinkage();
  else if (auto func = dyn_cast<LLVM::LLVMFuncOp>(op))
    linkage = func.getLinkage();
  return linkage && (*linkage == LLVM::Linkage::Private ||
                     *linkage == LLVM::Linkage::Internal);
}

/// A PTX identifier: [a-zA-Z][a-zA-Z0-9_$]* or [_$%][a-zA-Z0-9_$]+.
static bool isPtxIdentifier(StringRef name) {
  if (name.empty())
    return false;
  auto isFollower = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  if (!llvm::all_of(name.drop_front(), isFollower))
    return false;
  char first = name.front();
  if (llvm::isAlpha(first))
    return true;
  return (first == '_' || first == '$' || first == '%') && name.size() > 1;
}

static uint64_t getKernelParamLimit(unsigned ptxVersion) {
  return ptxVersion >= 81 ? 32764 : 4096;
}

/// Adds without wrapping: sizes far beyond any limit stay large.
static uint64_t addSaturating(uint64_t a, uint64_t b) {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
static uint64_t mulSaturating(uint64_t a, uint64_t b) {
  return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/// The bytes an argument of `type` takes in the parameter space once
/// lowered (without padding between struct members), or std::nullopt for a
/// type this pass does not size (pipeline types, LLVM types without a
/// size).
static std::optional<uint64_t> getParamSize(Type type, bool barePtr) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return llvm::divideCeil(integer.getWidth(), 8);
  if (isa<IndexType, LLVM::LLVMPointerType, nvgpu::TensorMapDescriptorType>(
          type))
    return 8;
  if (auto floatType = dyn_cast<FloatType>(type))
    return llvm::divideCeil(floatType.getWidth(), 8);
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<uint64_t> element =
        getParamSize(complex.getElementType(), barePtr);
    return element ? std::optional(mulSaturating(*element, 2)) : std::nullopt;
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable() || !vector.getElementType().isIntOrFloat())
      return std::nullopt;
    uint64_t bits =
        mulSaturating(vector.getNumElements(), vector.getElementTypeBitWidth());
    return llvm::divideCeil(bits, 8);
  }
  if (auto memref = dyn_cast<MemRefType>(type)) {
    // A bare pointer, or the descriptor: two pointers, the offset, then
    // the sizes and strides.
    if (barePtr)
      return 8;
    return 8 * (3 + 2 * uint64_t(memref.getRank()));
  }
  if (isa<UnrankedMemRefType>(type))
    return 16;
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    std::optional<uint64_t> element =
        getParamSize(array.getElementType(), barePtr);
    return element
               ? std::optional(mulSaturating(*element, array.getNumElements()))
               : std::nullopt;
  }
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (structType.isOpaque())
      return std::nullopt;
    uint64_t total = 0;
    for (Type element : structType.getBody()) {
      std::optional<uint64_t> size = getParamSize(element, barePtr);
      if (!size)
        return std::nullopt;
      total = addSaturating(total, *size);
    }
    return total;
  }
  return std::nullopt;
}

/// The PTX ISA version of the #nvvm.target of the gpu.module around `op`,
/// or 0.
static unsigned getTargetPtxVersion(Operation *op) {
  auto gpuModule = op->getParentOfType<gpu::GPUModuleOp>();
  if (!gpuModule || !gpuModule.getTargetsAttr())
    return 0;
  for (Attribute target : gpuModule.getTargetsAttr())
    if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(target))
      if (std::optional<unsigned> ptx =
              cuda::parsePtxVersion(nvvm.getFeatures()))
        return *ptx;
  return 0;
}

/// Passes the TMA descriptor arguments of `func` as generic pointers;
/// returns how many.
static unsigned passDescriptorsAsPointers(gpu::GPUFuncOp func) {
  if (func.isExternal())
    return 0;
  Block &entry = func.getBody().front();
  OpBuilder builder = OpBuilder::atBlockBegin(&entry);
  auto pointer = LLVM::LLVMPointerType::get(func.getContext());
  unsigned changed = 0;
  for (BlockArgument arg : entry.getArguments()) {
    if (!isa<nvgpu::TensorMapDescriptorType>(arg.getType()))
      continue;
    Type descriptor = arg.getType();
    arg.setType(pointer);
    auto cast = UnrealizedConversionCastOp::create(builder, arg.getLoc(),
                                                   descriptor, arg);
    arg.replaceAllUsesExcept(cast.getResult(0), cast);
    ++changed;
  }
  if (changed)
    func.setFunctionType(FunctionType::get(
        func.getContext(), entry.getArgumentTypes(), func.getResultTypes()));
  return changed;
}

namespace {
struct LegalizeKernelABIPass
    : pmlir::impl::LegalizeKernelABIBase<LegalizeKernelABIPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    // Other public symbols of a gpu.module (globals) reach the PTX as
    // written too; private ones are renamed by the NVPTX backend.
    getOperation().walk([&](gpu::GPUModuleOp gpuModule) {
      for (Operation &op : gpuModule.getBody()->getOperations()) {
        auto symbol = dyn_cast<SymbolOpInterface>(op);
        if (!symbol || isa<gpu::GPUFuncOp>(op) || symbol.isPrivate() ||
            isPtxIdentifier(symbol.getName()) || hasLocalLinkage(&op))
          continue;
        op.emitOpError() << "expects a public symbol of a gpu.module to be a "
                            "PTX identifier (or private), got '"
                         << symbol.getName() << "'";
        failed = true;
      }
    });
    getOperation().walk([&](gpu::GPUFuncOp func) {
      // Each function is checked alone: all of them are reported.
      bool bad = false;
      // The symbol goes into the PTX verbatim: it must be a PTX identifier.
      if (!isPtxIdentifier(func.getName())) {
        func.emitOpError()
            << "expects a name that is a PTX identifier (a letter, then "
               "letters, digits, '_' or '$'; or '_', '$' or '%' and at "
               "least one more), got '"
            << func.getName() << "'";
        bad = true;
      }
      // Block and grid sizes become .maxntid/.reqntid: positive numbers.
      for (StringRef name : {"known_block_size", "known_grid_size",
                             "nvvm.reqntid", "nvvm.maxntid"}) {
        auto sizes = func->getAttrOfType<DenseI32ArrayAttr>(name);
        if (sizes && llvm::any_of(sizes.asArrayRef(),
                                  [](int32_t size) { return size <= 0; })) {
          func.emitOpError()
              << "expects positive sizes in '" << name << "', got " << sizes;
          bad = true;
        }
      }
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        if (hasKernelABI(type))
          continue;
        func.emitOpError()
            << "expects arguments of integer, index, float, vector, complex, "
               "memref, LLVM or !nvgpu.tensormap.descriptor type, got "
            << type << " for argument #" << i;
        bad = true;
      }
      for (auto [i, type] : llvm::enumerate(func.getResultTypes())) {
        if (hasKernelABI(type))
          continue;
        func.emitOpError()
            << "expects results of integer, index, float, vector, complex, "
               "memref or LLVM type, got "
            << type << " for result #" << i;
        bad = true;
      }
      if (bad) {
        failed = true;
        return;
      }
      // What NVPTX or the PTX parameter space cannot take: an empty
      // parameter (LLVM aborts in instruction selection), or more than the
      // parameter space of a kernel (a huge vector also runs LLVM's code
      // generation out of memory).
      uint64_t total = 0;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
        std::optional<uint64_t> size = getParamSize(type, useBarePtrCallConv);
        if (!size)
          continue;
        if (*size == 0) {
          func.emitOpError()
              << "expects arguments of non-zero size (NVPTX cannot pass an "
                 "empty parameter), got "
              << type << " for argument #" << i;
          bad = true;
        }
        total = addSaturating(total, *size);
      }
      if (func.isKernel() && !bad) {
        unsigned ptx =
            ptxVersion ? unsigned(ptxVersion) : getTargetPtxVersion(func);
        if (!ptx)
          ptx = cuda::kDefaultPtxVersion;
        uint64_t limit = getKernelParamLimit(ptx);
        if (total > limit) {
          InFlightDiagnostic diag = func.emitOpError();
          diag << "expects kernel arguments of at most " << limit
               << " bytes in all (the kernel parameter space with PTX ISA "
               << ptx / 10 << "." << ptx % 10 << "), got ";
          if (total == UINT64_MAX)
            diag << "more";
          else
            diag << total << " bytes";
          diag << "; pass large data through global memory";
          bad = true;
        }
      }
      if (bad) {
        failed = true;
        return;
      }
      if (useBarePtrCallConv) {
        for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
          auto memref = dyn_cast<MemRefType>(type);
          if (isa<UnrankedMemRefType>(type) ||
              (memref && !fitsBarePointer(memref))) {
            func.emitOpError()
                << "expects memref arguments with a static shape and static "
                   "strides (the bare-pointer kernel ABI passes one pointer "
                   "per memref), got "
                << type << " for argument #" << i;
            bad = true;
          }
        }
      }
      if (bad) {
        failed = true;
        return;
      }
      numDescriptors += passDescriptorsAsPointers(func);
    });
    // Host functions: a memref in a memory space other than the default
    // one (a #gpu.address_space, an integer or another dialect's space) has
    // no host lowering; upstream only reports some of them without failing.
    auto isHostMemref = [](Type type) {
      auto memref = dyn_cast<BaseMemRefType>(type);
      if (!memref || !memref.getMemorySpace())
        return true;
      auto integer = dyn_cast<IntegerAttr>(memref.getMemorySpace());
      return integer && integer.getValue().isZero();
    };
    static constexpr StringLiteral kHostMemref =
        "expects host code to use memrefs in the default memory space only "
        "(GPU memory spaces are for kernels in a gpu.module), got ";
    getOperation().walk([&](FunctionOpInterface func) {
      if (func->getParentOfType<gpu::GPUModuleOp>() ||
          isa<gpu::GPUFuncOp>(func.getOperation()))
        return;
      for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
        if (!isHostMemref(type)) {
          func->emitOpError() << kHostMemref << type << " for argument #" << i;
          failed = true;
        }
      for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
        if (!isHostMemref(type)) {
          func->emitOpError() << kHostMemref << type << " for result #" << i;
          failed = true;
        }
      func->walk<WalkOrder::PreOrder>([&](Operation *op) {
        if (op == func.getOperation())
          return WalkResult::advance();
        if (isa<gpu::LaunchOp>(op))
          return WalkResult::skip();
        for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
          if (!isHostMemref(type)) {
            op->emitOpError() << kHostMemref << type << " for result #" << i;
            failed = true;
          }
        for (Region &region : op->getRegions())
          for (Block &block : region)
            for (BlockArgument arg : block.getArguments())
              if (!isHostMemref(arg.getType())) {
                op->emitOpError()
                    << kHostMemref << arg.getType() << " for a block argument";
                failed = true;
              }
        return WalkResult::advance();
      });
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
