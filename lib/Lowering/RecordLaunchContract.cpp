//===- RecordLaunchContract.cpp ---------------------------------*- C++ -*-===//
//
// pipeline-record-launch-contract (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Lowering/Pipelines.h"

#include "pipeline/Conversion/PipelineToNVGPU/PipelineToNVGPU.h"

#include "pipeline/Dialect/Pipeline/Analysis/LaunchContract.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

#include <optional>

namespace pmlir {
#define GEN_PASS_DEF_RECORDLAUNCHCONTRACT
#include "pipeline/Lowering/Passes.h.inc"
} // namespace pmlir

using namespace mlir;
using namespace pmlir;

/// The value of an index or integer known at compile time: a constant,
/// `pipeline.smem_bytes`, or a sum or product of those.
static std::optional<uint64_t> evaluate(Value v, unsigned depth = 0) {
  if (depth > 16)
    return std::nullopt;
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.isNegative() ? std::nullopt
                                 : std::optional(constant.getZExtValue());
  Operation *def = v.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (auto bytes = dyn_cast<SmemBytesOp>(def))
    return bytes.getBytes();
  auto binary = [&](auto op, auto combine) -> std::optional<uint64_t> {
    auto lhs = evaluate(op.getLhs(), depth + 1);
    auto rhs = evaluate(op.getRhs(), depth + 1);
    if (!lhs || !rhs)
      return std::nullopt;
    return combine(*lhs, *rhs);
  };
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return binary(add, [](uint64_t a, uint64_t b) { return a + b; });
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return binary(mul, [](uint64_t a, uint64_t b) { return a * b; });
  return std::nullopt;
}

/// Bytes of a statically shaped memref, or nothing.
static std::optional<uint64_t> staticBytes(MemRefType type) {
  if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
    return std::nullopt;
  uint64_t bits = type.getElementType().getIntOrFloatBitWidth();
  return type.getNumElements() * ((bits + 7) / 8);
}

/// The end of the last region of `smem` (a gpu.dynamic_shared_memory
/// result) at a known offset.
static uint64_t minimumBytes(Value smem) {
  uint64_t end = 0;
  for (Operation *user : smem.getUsers()) {
    std::optional<uint64_t> offset, size;
    if (auto create = dyn_cast<CreateOp>(user)) {
      offset = evaluate(create.getOffset());
      size = create.getResult().getType().getSmemBytes();
    } else if (auto tmem = dyn_cast<TmemCreateOp>(user)) {
      offset = evaluate(tmem.getOffset());
      size = TmemType::kSmemBytes;
    } else if (auto view = dyn_cast<memref::ViewOp>(user)) {
      if (view.getSource() != smem || !view.getSizes().empty())
        continue;
      offset = evaluate(view.getByteShift());
      size = staticBytes(view.getType());
    }
    if (offset && size)
      end = std::max(end, *offset + *size);
  }
  return end;
}

/// Records `value` as the kernel's attribute `attr` and as a constant
/// `<symbol>_<kernel>` of its gpu.module (an i64 in the constant bank, a
/// `.visible .const` of the PTX that launchers read).
static void record(gpu::GPUFuncOp func, StringRef attr, StringRef symbol,
                   uint64_t value) {
  MLIRContext *ctx = func.getContext();
  auto i64 = IntegerType::get(ctx, 64);
  func->setAttr(attr, IntegerAttr::get(i64, value));
  auto module = func->getParentOfType<gpu::GPUModuleOp>();
  if (!module)
    return;
  std::string name = (symbol + "_" + func.getName()).str();
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(name)) {
    // Recorded before: the value of this run.
    global.setValueAttr(IntegerAttr::get(i64, value));
    return;
  }
  if (module.lookupSymbol(name))
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  // Address space 4: the constant bank (`.const` in PTX).
  LLVM::GlobalOp::create(builder, func.getLoc(), i64, /*isConstant=*/true,
                         LLVM::Linkage::External, name,
                         IntegerAttr::get(i64, value), /*alignment=*/8,
                         /*addrSpace=*/4);
}

namespace {
struct RecordLaunchContractPass
    : pmlir::impl::RecordLaunchContractBase<RecordLaunchContractPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (!func.isKernel())
        return;
      uint64_t bytes = 0;
      func.walk([&](gpu::DynamicSharedMemoryOp smem) {
        bytes = std::max(bytes, minimumBytes(smem.getResult()));
      });
      if (bytes != 0)
        record(func, kMinDynamicSmemAttrName, "__pipeline_mlir_min_smem",
               bytes);
      // The threads per block (x): those the kernel declares, else the
      // least its roles need (with the arrival counts they give).
      uint64_t threads = 0;
      if (std::optional<std::array<int64_t, 3>> dims =
              declaredBlockSize(&func.getBody()))
        threads = uint64_t((*dims)[0]);
      else if (std::optional<int64_t> least =
                   leastCountedBlockSize(&func.getBody()))
        threads = uint64_t(*least);
      if (threads != 0)
        record(func, kMinBlockSizeAttrName, "__pipeline_mlir_min_block",
               threads);
    });
    // The pipelines each barrier init belongs to, for the tools that name
    // barriers (pipeline-sim).
    if (barrierNames)
      recordBarrierNames(getOperation());
  }
};
} // namespace
