//===- LegalizeKernelABI.cpp - pipeline-legalize-kernel-abi -----*- C++ -*-===//

#include "pipeline/Lowering/Pipelines.h"
#include "pipeline/Toolkit/CudaToolkit.h"

#include "pipeline-c/KernelLayout.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/BitVector.h"
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

/// The width in bits NVPTX can pass a kernel parameter of a `width`-bit
/// integer in: 1 (a .u8, as nvcc passes bool) and the powers of two from 8
/// (.u8 to .u64, then byte arrays) as they are. Other widths up to 127 bits
/// become a .uN parameter of that width (.u2, .u24, .u65), which ptxas
/// rejects, and LLVM 22's NVPTX backend aborts loading a parameter of 129,
/// 257 or 385 bits: every other width is widened to the next power of two.
/// (An i0 stays empty and is reported as such.)
static unsigned getPassableWidth(unsigned width) {
  if (width <= 1 || (width >= 8 && llvm::isPowerOf2_32(width)))
    return width;
  return std::max(8u, unsigned(llvm::PowerOf2Ceil(width)));
}

/// The integer width of a scalar that NVPTX passes as an integer: an
/// integer, or a float LLVM has no type for whose storage integer has a
/// width other than 8 bits (f4E2M1FN, f6E2M3FN, f6E3M2FN); 0 otherwise.
static unsigned getIntegerParamWidth(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  if (isa<Float4E2M1FNType, Float6E2M3FNType, Float6E3M2FNType>(type))
    return cast<FloatType>(type).getWidth();
  return 0;
}

/// The type a kernel parameter of `type` is passed in when NVPTX cannot
/// pass `type` itself, or null: scalars of a width getPassableWidth
/// widens, and vectors of them. In a vector, i1 elements are widened to
/// i8 too: LLVM 22 declares a vector<4xi1> parameter as one byte and reads
/// its elements a byte apart.
static Type getWidenedParamType(Type type) {
  auto vector = dyn_cast<VectorType>(type);
  Type element = vector ? vector.getElementType() : type;
  unsigned width = getIntegerParamWidth(element);
  if (width == 0)
    return nullptr;
  unsigned wide = getPassableWidth(width);
  if (vector && wide == 1)
    wide = 8;
  if (wide == width)
    return nullptr;
  auto wideElement = IntegerType::get(type.getContext(), wide);
  if (vector)
    return vector.clone(wideElement);
  return wideElement;
}

/// The part of `type` (itself, or an element or member) that has no NVPTX
/// lowering as a kernel argument or result, or null: f80 (LLVM's NVPTX
/// backend aborts on it) and tf32 (no LLVM type).
static Type findUnloweredFloat(Type type) {
  if (isa<Float80Type, FloatTF32Type>(type))
    return type;
  if (auto shaped = dyn_cast<ShapedType>(type))
    return findUnloweredFloat(shaped.getElementType());
  if (auto complex = dyn_cast<ComplexType>(type))
    return findUnloweredFloat(complex.getElementType());
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type))
    return findUnloweredFloat(array.getElementType());
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (structType.isOpaque())
      return nullptr;
    for (Type member : structType.getBody())
      if (Type found = findUnloweredFloat(member))
        return found;
  }
  return nullptr;
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

/// The largest parameter space of a kernel, in bytes: 32764 from PTX ISA 8.1
/// (CUDA 12.1) on sm_70 and newer, 4096 before (NVIDIA, "CUDA 12.1
/// Supports Large Kernel Parameters", and the PTX ISA 8.1 release notes).
/// Every chip of pipeline-mlir is sm_90 or newer.
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

static uint64_t alignToSaturating(uint64_t value, uint64_t align) {
  uint64_t rem = value % align;
  return rem ? addSaturating(value, align - rem) : value;
}

namespace {
/// The bytes a kernel parameter takes and its alignment.
struct SizeAlign {
  uint64_t size;
  uint64_t align;
};
} // namespace

/// The size and alignment of an integer of `width` bits in NVPTX's data
/// layout: i1 to i8 one byte, then i16, i32, i64, i128 and i256 aligned to
/// their size; a wider integer to i256's 32 bytes. Floats take the size
/// and alignment of the integer of their width.
static SizeAlign getIntegerLayout(uint64_t width) {
  uint64_t align = 1;
  while (align < 32 && width > 8 * align)
    align *= 2;
  return {alignToSaturating(llvm::divideCeil(width, 8), align), align};
}

/// The size and alignment of a kernel parameter of `type` (as the rewrites
/// of this pass leave it: a widened scalar is of its wide type) the way
/// LLVM's NVPTX backend declares it (`.param .align A .b8 name[S]` for
/// aggregates), or std::nullopt for a type this pass does not size
/// (pipeline types, LLVM types without a size). A memref or a tensor map is
/// a pointer; vectors have their natural alignment (their bytes rounded up
/// to a power of two); structs and arrays are laid out as in C.
static std::optional<SizeAlign> getParamLayout(Type type, unsigned indexBits) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return getIntegerLayout(integer.getWidth());
  if (isa<IndexType>(type))
    return getIntegerLayout(indexBits);
  if (auto floatType = dyn_cast<FloatType>(type))
    return getIntegerLayout(floatType.getWidth());
  if (isa<LLVM::LLVMPointerType, nvgpu::TensorMapDescriptorType, MemRefType>(
          type))
    return SizeAlign{8, 8};
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<SizeAlign> element =
        getParamLayout(complex.getElementType(), indexBits);
    if (!element)
      return std::nullopt;
    return SizeAlign{mulSaturating(element->size, 2), element->align};
  }
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    if (vector.isScalable() || !(element.isIntOrFloat() || element.isIndex()))
      return std::nullopt;
    unsigned bits =
        element.isIndex() ? indexBits : element.getIntOrFloatBitWidth();
    uint64_t bytes =
        llvm::divideCeil(mulSaturating(vector.getNumElements(), bits), 8);
    uint64_t align = bytes > (uint64_t(1) << 63)
                         ? uint64_t(1) << 63
                         : std::max<uint64_t>(1, llvm::PowerOf2Ceil(bytes));
    return SizeAlign{alignToSaturating(bytes, align), align};
  }
  if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
    std::optional<SizeAlign> element =
        getParamLayout(array.getElementType(), indexBits);
    if (!element)
      return std::nullopt;
    return SizeAlign{mulSaturating(element->size, array.getNumElements()),
                     element->align};
  }
  if (auto structType = dyn_cast<LLVM::LLVMStructType>(type)) {
    if (structType.isOpaque())
      return std::nullopt;
    SizeAlign layout = {0, 1};
    for (Type member : structType.getBody()) {
      std::optional<SizeAlign> field = getParamLayout(member, indexBits);
      if (!field)
        return std::nullopt;
      uint64_t align = structType.isPacked() ? 1 : field->align;
      layout.size =
          addSaturating(alignToSaturating(layout.size, align), field->size);
      layout.align = std::max(layout.align, align);
    }
    layout.size = alignToSaturating(layout.size, layout.align);
    return layout;
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

/// True if `type` is f80 or f128, or a vector of them.
static bool isWideFloat(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return isa<Float80Type, Float128Type>(type);
}

/// Reports arith and math ops of `gpuModule` that compute on f80 or f128:
/// NVPTX has no instructions for them and LLVM's code generation aborts
/// looking for a library function ("unsupported library call operation").
/// Constants, bitcasts, selects and negations (a sign flip) stay accepted.
static bool checkWideFloatArithmetic(gpu::GPUModuleOp gpuModule) {
  bool bad = false;
  gpuModule.walk([&](Operation *op) {
    StringRef dialect =
        op->getDialect() ? op->getDialect()->getNamespace() : "";
    if ((dialect != "arith" && dialect != "math") ||
        isa<arith::ConstantOp, arith::BitcastOp, arith::SelectOp,
            arith::NegFOp>(op))
      return;
    auto isWide = [](Value value) { return isWideFloat(value.getType()); };
    auto wide = llvm::find_if(op->getOperands(), isWide);
    Type type;
    if (wide != op->getOperands().end())
      type = (*wide).getType();
    else if (auto result = llvm::find_if(op->getResults(), isWide);
             result != op->getResults().end())
      type = (*result).getType();
    else
      return;
    op->emitOpError() << "expects no " << type
                      << " arithmetic in device code (NVPTX has no "
                         "instructions and no library for it)";
    bad = true;
  });
  return bad;
}

namespace {
/// What a kernel parameter holds of its argument, as the layout record
/// names it: the argument's `kind` (scalar, vector, aggregate, pointer,
/// tensormap, memref, unranked-memref); for a memref, the `field` of its
/// descriptor (ptr, or allocated and aligned without the bare-pointer
/// convention; offset, size, stride; an unranked memref's rank and ptr)
/// and, for a size or a stride, its dimension.
struct ParamPart {
  StringRef kind;
  StringRef field = "";
  std::optional<int64_t> dim = std::nullopt;
};

/// An argument of a gpu.func passed as other parameters: `types` replace it
/// in the signature (`parts` says what each holds), `inKernel` rebuilds its
/// value from them at the top of the body, and `atLaunch` computes them
/// from the operand of a gpu.launch_func.
struct ArgumentRewrite {
  unsigned index;
  SmallVector<Type> types;
  SmallVector<ParamPart> parts;
  std::function<Value(OpBuilder &, Location, ValueRange)> inKernel;
  std::function<void(OpBuilder &, Location, Value, SmallVectorImpl<Value> &)>
      atLaunch;
};
} // namespace

/// A `!nvgpu.tensormap.descriptor` becomes a generic pointer to the
/// CUtensorMap: upstream's GPU-to-NVVM conversion cannot pass the
/// descriptor type, and the NVGPU-to-NVVM conversion lowers it to that
/// pointer on both sides.
static ArgumentRewrite passDescriptorAsPointer(unsigned index,
                                               Type descriptor) {
  Type pointer = LLVM::LLVMPointerType::get(descriptor.getContext());
  auto cast = [](OpBuilder &builder, Location loc, Type to, Value from) {
    return UnrealizedConversionCastOp::create(builder, loc, to, from)
        .getResult(0);
  };
  return {index,
          {pointer},
          {{"tensormap"}},
          [=](OpBuilder &builder, Location loc, ValueRange params) {
            return cast(builder, loc, descriptor, params[0]);
          },
          [=](OpBuilder &builder, Location loc, Value operand,
              SmallVectorImpl<Value> &params) {
            params.push_back(cast(builder, loc, pointer, operand));
          }};
}

/// A scalar or vector that NVPTX cannot pass as it is (getWidenedParamType)
/// is passed in `wide` and truncated in the kernel; a launch zero-extends
/// it.
static ArgumentRewrite passWidened(unsigned index, Type type, Type wide) {
  // The integer type of `type`'s bits: itself, or the storage integer of a
  // float (elementwise for a vector).
  auto vector = dyn_cast<VectorType>(type);
  Type element = vector ? vector.getElementType() : type;
  Type narrow =
      IntegerType::get(type.getContext(), element.getIntOrFloatBitWidth());
  if (vector)
    narrow = vector.clone(narrow);
  return {
      index,
      {wide},
      {{vector ? "vector" : "scalar"}},
      [=](OpBuilder &builder, Location loc, ValueRange params) -> Value {
        Value value = arith::TruncIOp::create(builder, loc, narrow, params[0]);
        if (type == narrow)
          return value;
        return arith::BitcastOp::create(builder, loc, type, value);
      },
      [=](OpBuilder &builder, Location loc, Value operand,
          SmallVectorImpl<Value> &params) {
        if (type != narrow)
          operand = arith::BitcastOp::create(builder, loc, narrow, operand);
        params.push_back(arith::ExtUIOp::create(builder, loc, wide, operand));
      }};
}

/// A memref with dynamic sizes, strides or offset is passed as its aligned
/// pointer, then its offset, its sizes and its strides (index-typed
/// integers), which the kernel assembles into the memref descriptor of
/// `descriptor` type; the type's static values are used where it has them.
static ArgumentRewrite passStridedMemref(unsigned index, MemRefType type,
                                         LLVM::LLVMStructType descriptor,
                                         Type indexType) {
  auto pointer = cast<LLVM::LLVMPointerType>(descriptor.getBody()[0]);
  int64_t rank = type.getRank();
  SmallVector<Type> types = {pointer};
  types.append(1 + 2 * rank, indexType);
  SmallVector<ParamPart> parts = {{"memref", "ptr"}, {"memref", "offset"}};
  for (int64_t i = 0; i < rank; ++i)
    parts.push_back({"memref", "size", i});
  for (int64_t i = 0; i < rank; ++i)
    parts.push_back({"memref", "stride", i});
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)type.getStridesAndOffset(strides, offset);
  return {index, types, parts,
          [=](OpBuilder &builder, Location loc, ValueRange params) -> Value {
            auto desc = MemRefDescriptor::poison(builder, loc, descriptor);
            desc.setAllocatedPtr(builder, loc, params[0]);
            desc.setAlignedPtr(builder, loc, params[0]);
            if (ShapedType::isDynamic(offset))
              desc.setOffset(builder, loc, params[1]);
            else
              desc.setConstantOffset(builder, loc, offset);
            for (int64_t i = 0; i < rank; ++i) {
              int64_t size = type.getDimSize(i);
              if (ShapedType::isDynamic(size))
                desc.setSize(builder, loc, i, params[2 + i]);
              else
                desc.setConstantSize(builder, loc, i, size);
              if (ShapedType::isDynamic(strides[i]))
                desc.setStride(builder, loc, i, params[2 + rank + i]);
              else
                desc.setConstantStride(builder, loc, i, strides[i]);
            }
            return UnrealizedConversionCastOp::create(builder, loc, type,
                                                      Value(desc))
                .getResult(0);
          },
          [=](OpBuilder &builder, Location loc, Value operand,
              SmallVectorImpl<Value> &params) {
            auto toIndexType = [&](Value value) -> Value {
              return arith::IndexCastOp::create(builder, loc, indexType, value);
            };
            Value aligned = memref::ExtractAlignedPointerAsIndexOp::create(
                builder, loc, operand);
            params.push_back(LLVM::IntToPtrOp::create(builder, loc, pointer,
                                                      toIndexType(aligned)));
            auto metadata =
                memref::ExtractStridedMetadataOp::create(builder, loc, operand);
            params.push_back(toIndexType(metadata.getOffset()));
            for (Value size : metadata.getSizes())
              params.push_back(toIndexType(size));
            for (Value stride : metadata.getStrides())
              params.push_back(toIndexType(stride));
          }};
}

/// Applies `rewrites` (in increasing argument order) to `func` and to every
/// gpu.launch_func of `launches` that launches it.
static void applyArgumentRewrites(gpu::GPUFuncOp func,
                                  ArrayRef<ArgumentRewrite> rewrites,
                                  ArrayRef<gpu::LaunchFuncOp> launches) {
  if (rewrites.empty())
    return;
  if (!func.isExternal()) {
    // From the last argument to the first, so that the indices of the
    // arguments still to rewrite stay valid.
    for (const ArgumentRewrite &rewrite : llvm::reverse(rewrites)) {
      BlockArgument old = func.getArgument(rewrite.index);
      Location loc = old.getLoc();
      SmallVector<unsigned> at(rewrite.types.size(), rewrite.index + 1);
      SmallVector<Location> locs(rewrite.types.size(), loc);
      (void)func.insertArguments(at, rewrite.types, {}, locs);
      OpBuilder builder = OpBuilder::atBlockBegin(&func.getBody().front());
      Value value = rewrite.inKernel(
          builder, loc,
          func.getArguments().slice(rewrite.index + 1, rewrite.types.size()));
      old.replaceAllUsesWith(value);
      llvm::BitVector erase(func.getNumArguments());
      erase.set(rewrite.index);
      (void)func.eraseArguments(erase);
    }
  } else {
    SmallVector<Type> inputs;
    ArrayRef<Type> oldInputs = func.getArgumentTypes();
    unsigned next = 0;
    for (const ArgumentRewrite &rewrite : rewrites) {
      inputs.append(oldInputs.begin() + next,
                    oldInputs.begin() + rewrite.index);
      inputs.append(rewrite.types);
      next = rewrite.index + 1;
    }
    inputs.append(oldInputs.begin() + next, oldInputs.end());
    func.setFunctionType(
        FunctionType::get(func.getContext(), inputs, func.getResultTypes()));
  }
  for (gpu::LaunchFuncOp launch : launches) {
    OpBuilder builder(launch);
    SmallVector<Value> operands;
    ValueRange old = launch.getKernelOperands();
    unsigned next = 0;
    for (const ArgumentRewrite &rewrite : rewrites) {
      operands.append(old.begin() + next, old.begin() + rewrite.index);
      rewrite.atLaunch(builder, launch.getLoc(), old[rewrite.index], operands);
      next = rewrite.index + 1;
    }
    operands.append(old.begin() + next, old.end());
    launch.getKernelOperandsMutable().assign(operands);
  }
}

/// The rewrites of the arguments of `func`: descriptors as pointers, and
/// for kernels the widened scalars and, with the bare-pointer convention,
/// the memrefs that do not fit one pointer. Counts them in `numDescriptors`
/// and `numExpanded`.
static SmallVector<ArgumentRewrite>
getArgumentRewrites(gpu::GPUFuncOp func, bool barePtr, unsigned &numDescriptors,
                    unsigned &numExpanded) {
  SmallVector<ArgumentRewrite> rewrites;
  std::optional<LLVMTypeConverter> converter;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (isa<nvgpu::TensorMapDescriptorType>(type)) {
      rewrites.push_back(passDescriptorAsPointer(i, type));
      ++numDescriptors;
      continue;
    }
    if (!func.isKernel())
      continue;
    if (Type wide = getWidenedParamType(type)) {
      rewrites.push_back(passWidened(i, type, wide));
      ++numExpanded;
      continue;
    }
    auto memref = dyn_cast<MemRefType>(type);
    if (!barePtr || !memref || fitsBarePointer(memref))
      continue;
    if (!converter) {
      // The descriptor type convert-gpu-to-nvvm gives the memref, so that
      // the cast back to the memref meets its own and both fold away.
      LowerToLLVMOptions options(func.getContext(), DataLayout::closest(func));
      converter.emplace(func.getContext(), options);
      configureGpuToNVVMTypeConverter(*converter);
    }
    auto descriptor =
        dyn_cast_or_null<LLVM::LLVMStructType>(converter->convertType(memref));
    if (!descriptor)
      continue;
    rewrites.push_back(
        passStridedMemref(i, memref, descriptor, converter->getIndexType()));
    ++numExpanded;
  }
  return rewrites;
}

//===----------------------------------------------------------------------===//
// The parameter layout
//===----------------------------------------------------------------------===//

namespace {
/// A parameter of a function once its arguments are rewritten: which
/// argument it comes from, what it holds of it, and where it lies in the
/// parameter buffer (`size` unknown for a type getParamLayout does not
/// size).
struct ParamLayout {
  unsigned arg;
  ParamPart part;
  std::optional<SizeAlign> size;
  uint64_t offset = 0;
};

/// The parameters of a function in order, and the end of the last one.
struct FunctionLayout {
  SmallVector<ParamLayout> params;
  uint64_t bytes = 0;
  /// Every parameter sized (a layout the launchers can use).
  bool complete = true;
};
} // namespace

/// The kind of argument of `type` in the layout record.
static StringRef getArgumentKind(Type type) {
  if (isa<nvgpu::TensorMapDescriptorType>(type))
    return "tensormap";
  if (isa<MemRefType>(type))
    return "memref";
  if (isa<UnrankedMemRefType>(type))
    return "unranked-memref";
  if (isa<VectorType>(type))
    return "vector";
  if (isa<LLVM::LLVMPointerType>(type))
    return "pointer";
  if (isa<IntegerType, IndexType, FloatType>(type))
    return "scalar";
  // Complex numbers, LLVM structs and arrays.
  return "aggregate";
}

/// The parameters of `func` after `rewrites` (those of
/// getArgumentRewrites, in argument order) and the GPU-to-NVVM conversion:
/// a rewritten argument is its rewrite's parameters; without the
/// bare-pointer convention a memref is its descriptor (the allocated and
/// aligned pointers, the offset, the sizes, the strides) and an unranked
/// memref its rank and descriptor pointer; any other argument is one
/// parameter of its own type. Null for a kernel whose dynamic memref has
/// no rewrite (no descriptor type; convert-gpu-to-nvvm reports it).
static std::optional<FunctionLayout>
getFunctionLayout(gpu::GPUFuncOp func, ArrayRef<ArgumentRewrite> rewrites,
                  bool barePtr) {
  MLIRContext *ctx = func.getContext();
  LowerToLLVMOptions options(ctx, DataLayout::closest(func));
  unsigned indexBits = options.getIndexBitwidth();
  Type indexType = IntegerType::get(ctx, indexBits);
  Type pointer = LLVM::LLVMPointerType::get(ctx);
  FunctionLayout layout;
  const ArgumentRewrite *rewrite = rewrites.begin();
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    SmallVector<std::pair<Type, ParamPart>> params;
    if (rewrite != rewrites.end() && rewrite->index == i) {
      for (auto [paramType, part] :
           llvm::zip_equal(rewrite->types, rewrite->parts))
        params.push_back({paramType, part});
      ++rewrite;
    } else if (auto memref = dyn_cast<MemRefType>(type)) {
      if (barePtr && !fitsBarePointer(memref) && func.isKernel())
        return std::nullopt;
      if (barePtr) {
        params.push_back({pointer, {"memref", "ptr"}});
      } else {
        params.push_back({pointer, {"memref", "allocated"}});
        params.push_back({pointer, {"memref", "aligned"}});
        params.push_back({indexType, {"memref", "offset"}});
        for (int64_t d = 0; d < memref.getRank(); ++d)
          params.push_back({indexType, {"memref", "size", d}});
        for (int64_t d = 0; d < memref.getRank(); ++d)
          params.push_back({indexType, {"memref", "stride", d}});
      }
    } else if (isa<UnrankedMemRefType>(type)) {
      params.push_back({indexType, {"unranked-memref", "rank"}});
      params.push_back({pointer, {"unranked-memref", "ptr"}});
    } else {
      params.push_back({type, {getArgumentKind(type)}});
    }
    for (auto &[paramType, part] : params) {
      ParamLayout param = {unsigned(i), part,
                           getParamLayout(paramType, indexBits)};
      if (param.size) {
        param.offset = alignToSaturating(layout.bytes, param.size->align);
        layout.bytes = addSaturating(param.offset, param.size->size);
      } else {
        layout.complete = false;
      }
      layout.params.push_back(param);
    }
  }
  return layout;
}

/// The significant bits of a scalar argument of `type`.
static unsigned getScalarBits(Type type, unsigned indexBits) {
  if (isa<IndexType>(type))
    return indexBits;
  return type.getIntOrFloatBitWidth();
}

/// The layout record of kernel `func` (include/pipeline-c/KernelLayout.h,
/// docs/lowering.md "Kernel ABI"): a header line, then each argument's
/// line followed by the lines of its parameters.
static std::string printLayoutRecord(gpu::GPUFuncOp func,
                                     const FunctionLayout &layout) {
  unsigned indexBits =
      LowerToLLVMOptions(func.getContext(), DataLayout::closest(func))
          .getIndexBitwidth();
  std::string text;
  llvm::raw_string_ostream os(text);
  ArrayRef<Type> types = func.getArgumentTypes();
  os << "abi version=" << PMLIR_KERNEL_LAYOUT_VERSION
     << " args=" << types.size() << " params=" << layout.params.size()
     << " bytes=" << layout.bytes << "\n";
  for (auto [j, param] : llvm::enumerate(layout.params)) {
    Type type = types[param.arg];
    if (j == 0 || layout.params[j - 1].arg != param.arg) {
      os << "arg " << param.arg << " kind=" << getArgumentKind(type);
      if (auto memref = dyn_cast<MemRefType>(type))
        os << " rank=" << memref.getRank();
      os << " type=" << type << "\n";
    }
    os << "param " << j << " arg=" << param.arg << " kind=" << param.part.kind;
    if (!param.part.field.empty())
      os << " field=" << param.part.field;
    if (param.part.dim)
      os << " dim=" << *param.part.dim;
    if (param.part.kind == "scalar")
      os << " bits=" << getScalarBits(type, indexBits);
    os << " offset=" << param.offset << " size=" << param.size->size
       << " align=" << param.size->align << "\n";
  }
  return text;
}

/// Records `text` as the constant global `__pipeline_mlir_abi_<kernel>` of
/// the gpu.module of `func` (NUL-terminated, in global memory: a
/// `.visible .global` of the PTX and a symbol of the cubin). A record of an
/// earlier run is kept: it describes the arguments before their rewrite.
static void recordLayout(gpu::GPUFuncOp func, StringRef text) {
  auto module = func->getParentOfType<gpu::GPUModuleOp>();
  if (!module)
    return;
  std::string name = (PMLIR_KERNEL_LAYOUT_PREFIX + func.getName()).str();
  if (module.lookupSymbol(name))
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  std::string value = text.str() + '\0';
  auto type = LLVM::LLVMArrayType::get(builder.getI8Type(), value.size());
  LLVM::GlobalOp::create(builder, func.getLoc(), type, /*isConstant=*/true,
                         LLVM::Linkage::External, name,
                         builder.getStringAttr(value), /*alignment=*/1,
                         /*addrSpace=*/1);
}

namespace {
struct LegalizeKernelABIPass
    : pmlir::impl::LegalizeKernelABIBase<LegalizeKernelABIPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failed = false;
    SmallVector<std::pair<gpu::GPUFuncOp, SmallVector<ArgumentRewrite>>>
        pendingRewrites;
    SmallVector<std::pair<gpu::GPUFuncOp, std::string>> pendingRecords;
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
      failed |= checkWideFloatArithmetic(gpuModule);
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
      // Arguments and results: a type the GPU-to-NVVM conversion can pass,
      // without a float NVPTX cannot lower.
      auto checkTypes = [&](TypeRange types, StringRef what, StringRef kinds,
                            StringRef one) {
        for (auto [i, type] : llvm::enumerate(types)) {
          if (Type unlowered = findUnloweredFloat(type)) {
            func.emitOpError() << "expects " << what << " without " << unlowered
                               << " (NVPTX has no lowering for it), got "
                               << type << " for " << one << " #" << i;
            bad = true;
          } else if (!hasKernelABI(type)) {
            func.emitOpError()
                << "expects " << what << " of " << kinds << " type, got "
                << type << " for " << one << " #" << i;
            bad = true;
          }
        }
      };
      checkTypes(func.getArgumentTypes(), "arguments",
                 "integer, index, float, vector, complex, memref, LLVM or "
                 "!nvgpu.tensormap.descriptor",
                 "argument");
      checkTypes(func.getResultTypes(), "results",
                 "integer, index, float, vector, complex, memref or LLVM",
                 "result");
      if (bad) {
        failed = true;
        return;
      }
      if (useBarePtrCallConv) {
        for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
          // A kernel takes a memref with dynamic sizes or strides as its
          // pointer, offset, sizes and strides; a device function (no
          // launch builds those) and an unranked memref take one pointer.
          auto memref = dyn_cast<MemRefType>(type);
          if (memref && (fitsBarePointer(memref) ||
                         (func.isKernel() && memref.isStrided())))
            continue;
          if (!memref && !isa<UnrankedMemRefType>(type))
            continue;
          func.emitOpError()
              << "expects memref arguments of "
              << (func.isKernel() ? "a strided layout (a kernel takes a "
                                    "pointer, the offset, the sizes and the "
                                    "strides of a dynamic memref)"
                                  : "a static shape and static strides (a "
                                    "device function takes one pointer per "
                                    "memref)")
              << ", got " << type << " for argument #" << i;
          bad = true;
        }
      }
      if (bad) {
        failed = true;
        return;
      }
      unsigned descriptors = 0, expanded = 0;
      SmallVector<ArgumentRewrite> rewrites =
          getArgumentRewrites(func, useBarePtrCallConv, descriptors, expanded);
      // The parameters the rewritten function takes: the layout the
      // launchers read, and what NVPTX or the PTX parameter space cannot
      // take: an empty parameter (LLVM aborts in instruction selection), or
      // more than the parameter space of a kernel (a huge vector also runs
      // LLVM's code generation out of memory).
      std::optional<FunctionLayout> layout =
          getFunctionLayout(func, rewrites, useBarePtrCallConv);
      if (layout) {
        std::optional<unsigned> empty;
        for (const ParamLayout &param : layout->params) {
          if (!param.size || param.size->size != 0 || empty == param.arg)
            continue;
          empty = param.arg;
          func.emitOpError()
              << "expects arguments of non-zero size (NVPTX cannot pass an "
                 "empty parameter), got "
              << func.getArgumentTypes()[param.arg] << " for argument #"
              << param.arg;
          bad = true;
        }
      }
      if (layout && func.isKernel() && !bad) {
        unsigned ptx =
            ptxVersion ? unsigned(ptxVersion) : getTargetPtxVersion(func);
        if (!ptx)
          ptx = cuda::kDefaultPtxVersion;
        uint64_t limit = getKernelParamLimit(ptx);
        if (layout->bytes > limit) {
          InFlightDiagnostic diag = func.emitOpError();
          diag << "expects kernel arguments of at most " << limit
               << " bytes in all (the kernel parameter space with PTX ISA "
               << ptx / 10 << "." << ptx % 10 << "), got ";
          if (layout->bytes == UINT64_MAX)
            diag << "more";
          else
            diag << layout->bytes << " bytes";
          diag << "; pass large data through global memory";
          bad = true;
        }
      }
      if (bad) {
        failed = true;
        return;
      }
      numDescriptors += descriptors;
      numExpandedArguments += expanded;
      if (layout && layout->complete && func.isKernel() && !func.isExternal())
        pendingRecords.emplace_back(func, printLayoutRecord(func, *layout));
      if (!rewrites.empty())
        pendingRewrites.emplace_back(func, std::move(rewrites));
    });
    if (failed)
      return signalPassFailure();
    // The signatures change after the walk, with the launches of each
    // kernel, so that the module verifies again.
    DenseMap<std::pair<StringAttr, StringAttr>, SmallVector<gpu::LaunchFuncOp>>
        launches;
    getOperation().walk([&](gpu::LaunchFuncOp launch) {
      launches[{launch.getKernelModuleName(), launch.getKernelName()}]
          .push_back(launch);
    });
    for (auto &[func, rewrites] : pendingRewrites) {
      auto gpuModule = func->getParentOfType<gpu::GPUModuleOp>();
      ArrayRef<gpu::LaunchFuncOp> users;
      if (gpuModule) {
        auto it = launches.find(
            std::make_pair(gpuModule.getSymNameAttr(), func.getNameAttr()));
        if (it != launches.end())
          users = it->second;
      }
      applyArgumentRewrites(func, rewrites, users);
    }
    // Each kernel's parameter layout, for the launchers.
    for (auto &[func, record] : pendingRecords)
      recordLayout(func, record);
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
