//===- TensorMemory.cpp - the lifecycle of tensor memory ------*- C++ -*-===//
//
// verifyTensorMemory: each !pipeline.tmem is allocated once, by every
// thread of the CTA (pipeline.tmem_alloc in the kernel's entry block),
// freed (pipeline.tmem_dealloc, by one whole warp) and released by its
// readers (pipeline.tmem_release, `readers` threads of each CTA, once
// each). A kernel that never frees its TMEM leaves the next CTA on the SM
// waiting in tcgen05.alloc forever; one whose dealloc waits for releases
// nobody sends hangs; more releases than readers complete the barrier's
// phase early, and the TMEM is freed while a reader still reads it.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

/// True when `op` runs at most once per thread: no loop between it and the
/// kernel body.
static bool oncePerThread(Operation *op, Region *kernel) {
  for (Operation *parent = op->getParentOp();
       parent && parent->getParentRegion() != nullptr &&
       kernel->isAncestor(parent->getParentRegion());
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return false;
  return true;
}

/// The number of threads of a CTA that execute `op`, when the block size
/// is known and every condition on the way is a function of the thread.
static std::optional<unsigned> executingThreads(Operation *op, Region *kernel) {
  std::optional<std::array<int64_t, 3>> block = knownBlockSize(kernel);
  if (!block || !oncePerThread(op, kernel))
    return std::nullopt;
  ThreadSpace space;
  space.block = *block;
  space.threads = unsigned((*block)[0] * (*block)[1] * (*block)[2]);
  ThreadModel model(kernel, space);
  if (!model.decided(op, &kernel->front()))
    return std::nullopt;
  const llvm::BitVector *exec = model.exec(op);
  if (!exec)
    return std::nullopt;
  return exec->count();
}

static bool checkTmem(TmemCreateOp create) {
  Value tmem = create.getResult();
  auto type = cast<TmemType>(tmem.getType());
  SmallVector<TmemAllocOp> allocs;
  SmallVector<TmemDeallocOp> deallocs;
  SmallVector<TmemReleaseOp> releases;
  for (Operation *user : tmem.getUsers()) {
    if (auto a = dyn_cast<TmemAllocOp>(user))
      allocs.push_back(a);
    else if (auto d = dyn_cast<TmemDeallocOp>(user))
      deallocs.push_back(d);
    else if (auto r = dyn_cast<TmemReleaseOp>(user))
      releases.push_back(r);
    else
      return false; // handed elsewhere: not understood
  }
  if (allocs.size() != 1) {
    auto diag = create.emitError()
                << "expects exactly one pipeline.tmem_alloc of this tensor "
                   "memory, got "
                << allocs.size();
    for (TmemAllocOp a : allocs)
      diag.attachNote(a.getLoc()) << "allocation";
    return true;
  }
  TmemAllocOp alloc = allocs.front();
  Region *kernel = kernelBody(alloc);
  if (!kernel)
    return false;
  if (alloc->getBlock() != &kernel->front()) {
    alloc.emitError() << "is collective over the CTA (one warp allocates, "
                         "then every thread synchronizes and reads the "
                         "address): it must be in the kernel's entry block, "
                         "where every thread reaches it";
    return true;
  }
  if (deallocs.empty()) {
    alloc.emitError() << "allocates " << type.getColumns()
                      << " TMEM columns that no pipeline.tmem_dealloc frees: "
                         "the CTA exits holding them, and the next CTA on its "
                         "SM waits in tcgen05.alloc forever";
    return true;
  }
  int64_t expected = int64_t(alloc.getReaders()) * type.getCtaGroup();
  if (releases.empty()) {
    deallocs.front().emitError()
        << "waits for the " << expected
        << " releases of the deallocation barrier (" << alloc.getReaders()
        << " readers" << (type.getCtaGroup() == 2 ? " x 2 CTAs" : "")
        << "), but no pipeline.tmem_release signals it: the warp waits "
           "forever";
    return true;
  }
  bool failed = false;
  for (TmemDeallocOp d : deallocs) {
    std::optional<unsigned> n = executingThreads(d, kernel);
    if (n && *n != 32) {
      d.emitError() << "is executed by " << *n
                    << " threads of the CTA; expects one whole warp (32): "
                       "tcgen05.dealloc is warp-collective, and a second "
                       "warp would free the columns again";
      failed = true;
    }
  }
  // The readers: every release thread counts once per CTA.
  unsigned counted = 0;
  for (TmemReleaseOp r : releases) {
    std::optional<unsigned> n = executingThreads(r, kernel);
    if (!n)
      return failed;
    counted += *n;
  }
  if (counted != alloc.getReaders()) {
    auto diag = alloc.emitError()
                << "expects " << alloc.getReaders()
                << " readers to release this tensor memory, but " << counted
                << " threads of the CTA execute pipeline.tmem_release: "
                << (counted < alloc.getReaders()
                        ? "the deallocation barrier never completes and the "
                          "freeing warp waits forever"
                        : "the deallocation barrier completes before the "
                          "last reader is done, and the columns are freed "
                          "under it");
    for (TmemReleaseOp r : releases)
      diag.attachNote(r.getLoc()) << "release";
    failed = true;
  }
  return failed;
}

LogicalResult pmlir::verifyTensorMemory(Operation *root) {
  bool failed = false;
  root->walk([&](TmemCreateOp create) { failed |= checkTmem(create); });
  return failure(failed);
}
