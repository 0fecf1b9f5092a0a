//===- TensorMemory.cpp - lowering of the tensor-memory ops -----*- C++ -*-===//
//
// pipeline.tmem_create, tmem_alloc, tmem_release and tmem_dealloc. A
// !pipeline.tmem lowers to a group of two 8-byte shared-memory words
// (!nvgpu.mbarrier.group<num_barriers = 2>): word 0 is the deallocation
// barrier, word 1 holds the address tcgen05.alloc writes.
//
//===----------------------------------------------------------------------===//

#include "PipelineToNVGPUInternal.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::nvgpu_lowering;

namespace {

constexpr int64_t kDeallocBarrier = 0;
constexpr int64_t kAddressWord = 1;

NVVM::CTAGroupKind groupOf(TmemType type) {
  return type.getCtaGroup() == 2 ? NVVM::CTAGroupKind::CTA_2
                                 : NVVM::CTAGroupKind::CTA_1;
}

/// The shared-memory pointer of word `index` of the lowered tmem value.
Value wordPointer(OpBuilder &b, Location loc, Value words, int64_t index) {
  return barrierPointer(b, loc, words, constIndex(b, loc, index));
}

/// The thread's linear index in the block, and its warp (index / 32).
Value linearThreadId(OpBuilder &b, Location loc) {
  Value x = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value y = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::y);
  Value z = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::z);
  Value dx = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
  Value dy = gpu::BlockDimOp::create(b, loc, gpu::Dimension::y);
  Value zy =
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, z, dy), y);
  return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, zy, dx),
                               x);
}

/// pipeline.tmem_create: a view of the buffer's 16 bytes as the group.
struct TmemCreateOpLowering : OpConversionPattern<TmemCreateOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TmemCreateOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type groupType = getTypeConverter()->convertType(op.getType());
    rewriter.replaceOp(op, viewAsBarrierGroup(rewriter, loc,
                                              single(adaptor.getStorage()),
                                              single(adaptor.getOffset()),
                                              /*words=*/2, groupType));
    return success();
  }
};

/// pipeline.tmem_alloc: the barrier's init (thread 0), the allocation and
/// relinquish (warp `warp`), the fenced CTA or cluster barrier, the load of
/// the address.
struct TmemAllocOpLowering : OpConversionPattern<TmemAllocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TmemAllocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getTmem().getType();
    Value words = single(adaptor.getTmem());
    Value tid = linearThreadId(rewriter, loc);
    Value first = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                        tid, constIndex(rewriter, loc, 0));
    ifElected(rewriter, loc, first, [&] {
      nvgpu::MBarrierInitOp::create(
          rewriter, loc, words,
          constIndex(rewriter, loc,
                     int64_t(op.getReaders()) * type.getCtaGroup()),
          constIndex(rewriter, loc, kDeallocBarrier), /*predicate=*/Value());
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
    });
    Value warp = arith::DivUIOp::create(rewriter, loc, tid,
                                        constIndex(rewriter, loc, 32));
    Value allocates =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, warp,
                              constIndex(rewriter, loc, op.getWarp()));
    Value slot = wordPointer(rewriter, loc, words, kAddressWord);
    ifElected(rewriter, loc, allocates, [&] {
      NVVM::Tcgen05AllocOp::create(
          rewriter, loc, slot, constInt(rewriter, loc, type.getColumns(), 32),
          groupOf(type));
      NVVM::Tcgen05RelinquishAllocPermitOp::create(rewriter, loc,
                                                   groupOf(type));
    });
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    if (type.getCtaGroup() == 2) {
      // The peer's readers arrive on this CTA's barrier: its init must be
      // visible to the cluster before any of them can.
      NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/UnitAttr());
      NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/UnitAttr());
    } else {
      gpu::BarrierOp::create(rewriter, loc);
    }
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value address =
        LLVM::LoadOp::create(rewriter, loc, rewriter.getI32Type(), slot);
    rewriter.replaceOp(op, address);
    return success();
  }
};

/// pipeline.tmem_release: fence, then one arrival on this CTA's barrier
/// and, for a pair, on the peer's.
struct TmemReleaseOpLowering : OpConversionPattern<TmemReleaseOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TmemReleaseOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value words = single(adaptor.getTmem());
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    if (op.getTmem().getType().getCtaGroup() == 2) {
      // The peer first (its readers may be done already), then this CTA.
      Value rank =
          NVVM::ClusterId::create(rewriter, loc, rewriter.getI32Type());
      Value peer = arith::XOrIOp::create(rewriter, loc, rank,
                                         constInt(rewriter, loc, 1, 32));
      arriveRemote(rewriter, loc,
                   wordPointer(rewriter, loc, words, kDeallocBarrier), peer);
    }
    nvgpu::MBarrierArriveOp::create(
        rewriter, loc, nvgpu::MBarrierTokenType::get(rewriter.getContext()),
        words, constIndex(rewriter, loc, kDeallocBarrier));
    rewriter.eraseOp(op);
    return success();
  }
};

/// pipeline.tmem_dealloc: wait for the barrier's first phase, fence, free.
struct TmemDeallocOpLowering : OpConversionPattern<TmemDeallocOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(TmemDeallocOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = op.getTmem().getType();
    Value barrier =
        wordPointer(rewriter, loc, single(adaptor.getTmem()), kDeallocBarrier);
    Value parity = constInt(rewriter, loc, 0, 32);
    scf::WhileOp::create(
        rewriter, loc, TypeRange(), ValueRange(),
        [&](OpBuilder &b, Location loc, ValueRange) {
          Value ready = NVVM::MBarrierTryWaitOp::create(
              b, loc, b.getI1Type(), barrier, parity, /*ticks=*/Value());
          Value waiting =
              arith::XOrIOp::create(b, loc, ready, constInt(b, loc, 1, 1));
          scf::ConditionOp::create(b, loc, waiting, ValueRange());
        },
        [&](OpBuilder &b, Location loc, ValueRange) {
          scf::YieldOp::create(b, loc);
        });
    NVVM::Tcgen05FenceOp::create(rewriter, loc,
                                 NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    auto tmemPtr = LLVM::LLVMPointerType::get(
        rewriter.getContext(),
        static_cast<unsigned>(NVVM::NVVMMemorySpace::Tensor));
    Value address = LLVM::IntToPtrOp::create(rewriter, loc, tmemPtr,
                                             single(adaptor.getAddress()));
    NVVM::Tcgen05DeallocOp::create(
        rewriter, loc, address, constInt(rewriter, loc, type.getColumns(), 32),
        groupOf(type));
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void pmlir::nvgpu_lowering::populateTensorMemoryPatterns(
    const TypeConverter &typeConverter, RewritePatternSet &patterns) {
  patterns.add<TmemCreateOpLowering,  // pipeline.tmem_create
               TmemAllocOpLowering,   // pipeline.tmem_alloc
               TmemReleaseOpLowering, // pipeline.tmem_release
               TmemDeallocOpLowering  // pipeline.tmem_dealloc
               >(typeConverter, patterns.getContext());
}
