//===- LaunchContract.cpp - what a kernel needs of its launch -------------===//
//
// The least block size a kernel's roles need (LaunchContract.h).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/LaunchContract.h"

#include "ProtocolUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

std::optional<std::array<int64_t, 3>> pmlir::declaredBlockSize(Region *kernel) {
  return knownBlockSize(kernel);
}

/// True for an op of the pipeline dialect that a role executes: it waits,
/// signals, loads, allocates or frees. The pipeline's creation and
/// initialization (every thread), views and pure queries are not roles.
static bool isRoleOp(Operation *op) {
  if (!isa<PipelineDialect>(op->getDialect()))
    return false;
  if (isa<CreateOp, InitMbarsOp, TmemCreateOp, SmemBytesOp, RoleOp,
          InputTilePipelineOp, IndexOp, MbarOp, ProducerMbarOp, ConsumerMbarOp,
          ProducerStageOp, ConsumerStageOp, PayloadOp, YieldOp>(op))
    return false;
  return !isPure(op);
}

namespace {
/// What the kernel reads of the thread geometry.
struct GeometryUse {
  bool otherDims = false; // a y or z thread id or block dimension
  bool blockDimX = false; // the block's x dimension
};
} // namespace

static GeometryUse geometryUse(Region *kernel) {
  GeometryUse use;
  auto note = [&](bool isThreadId, unsigned dim) {
    if (dim != 0)
      use.otherDims = true;
    else if (!isThreadId)
      use.blockDimX = true;
  };
  if (auto launch = dyn_cast<gpu::LaunchOp>(kernel->getParentOp())) {
    gpu::KernelDim3 tids = launch.getThreadIds();
    gpu::KernelDim3 sizes = launch.getBlockSize();
    Value tidv[3] = {tids.x, tids.y, tids.z};
    Value sizev[3] = {sizes.x, sizes.y, sizes.z};
    for (unsigned d = 0; d < 3; ++d) {
      if (!tidv[d].use_empty())
        note(true, d);
      if (!sizev[d].use_empty())
        note(false, d);
    }
  }
  kernel->walk([&](Operation *op) {
    if (auto tid = dyn_cast<gpu::ThreadIdOp>(op))
      return note(true, unsigned(tid.getDimension()));
    if (auto dim = dyn_cast<gpu::BlockDimOp>(op))
      return note(false, unsigned(dim.getDimension()));
    StringRef name = op->getName().getStringRef();
    if (!name.consume_front("nvvm.read.ptx.sreg."))
      return;
    if (name.size() == 5 && name.starts_with("tid."))
      note(true, unsigned(name.back() - 'x'));
    else if (name.size() == 6 && name.starts_with("ntid."))
      note(false, unsigned(name.back() - 'x'));
  });
  return use;
}

/// The declared cluster size, if any.
static std::optional<int64_t> clusterSize(Region *kernel) {
  auto dims = kernel->getParentOp()->getAttrOfType<DenseI32ArrayAttr>(
      "nvvm.cluster_dim");
  if (!dims || dims.empty())
    return std::nullopt;
  int64_t size = 1;
  for (int32_t d : dims.asArrayRef())
    size *= std::max<int32_t>(d, 1);
  return size;
}

/// With a block of `threads` threads (conditions that do not read the block
/// size): the least whole-warp block in which every role runs with all its
/// threads, 0 when no role runs, nothing when unknown. A role bounded in
/// the thread index (warps 1 and 2) needs the block up to its highest
/// thread; one that reaches the upper half of the 1024-thread block (every
/// warp but the first, an `else` of a warp test, every even warp) grows
/// with the block and needs only its lowest warp.
static std::optional<int64_t> leastAt(Region *kernel,
                                      ArrayRef<Operation *> roles,
                                      unsigned threads, unsigned ranks,
                                      bool &grows) {
  ThreadSpace sp;
  sp.block = {threads, 1, 1};
  sp.threads = threads;
  sp.ranks = ranks;
  ThreadModel model(kernel, sp);
  int64_t least = 0;
  Block *entry = &kernel->front();
  for (Operation *op : roles) {
    // A role chosen by anything but the thread and rank (a kernel argument,
    // a loaded flag) says nothing of the threads it needs.
    const llvm::BitVector *exec = model.exec(op);
    if (!exec || !model.decided(op, entry))
      return std::nullopt;
    int64_t lowest = -1, highest = -1;
    bool openEnded = false;
    for (unsigned r = 0; r < ranks; ++r) {
      for (unsigned t = 0; t < threads; ++t) {
        if (!exec->test(sp.point(r, t)))
          continue;
        if (lowest < 0 || t < lowest)
          lowest = t;
        highest = std::max<int64_t>(highest, t);
      }
    }
    // Reaches the upper half of the largest block (the last warp, every
    // other warp): it grows with the block, or repeats along it.
    openEnded = highest >= int64_t(threads / 2);
    if (lowest < 0)
      continue; // runs in no block
    grows |= openEnded;
    int64_t needs = openEnded ? lowest : highest;
    least = std::max<int64_t>(least, (needs / 32 + 1) * 32);
  }
  return least;
}

std::optional<int64_t> pmlir::leastBlockSize(Region *kernel) {
  if (std::optional<DerivedBlockSize> derived = deriveBlockSize(kernel))
    return derived->threads;
  return std::nullopt;
}

std::optional<DerivedBlockSize> pmlir::deriveBlockSize(Region *kernel,
                                                       bool *threadRoles) {
  bool scratch = false;
  bool &decided = threadRoles ? *threadRoles : scratch;
  decided = false;
  if (!kernel || kernel->empty())
    return std::nullopt;
  // A kernel (not a device function, which any subset of threads may
  // call).
  Operation *owner = kernel->getParentOp();
  auto func = dyn_cast<gpu::GPUFuncOp>(owner);
  if (!isa<gpu::LaunchOp>(owner) && !(func && func.isKernel()))
    return std::nullopt;
  SmallVector<Operation *> roles;
  kernel->walk([&](Operation *op) {
    if (isRoleOp(op))
      roles.push_back(op);
  });
  if (roles.empty())
    return std::nullopt;
  // Leader and peer, or every rank of a declared cluster: roles that single
  // out a CTA run in one of them.
  unsigned ranks =
      unsigned(std::min<int64_t>(clusterSize(kernel).value_or(2), 16));
  ranks = std::max(ranks, 1u);
  {
    ThreadSpace sp;
    sp.block = {32, 1, 1};
    sp.threads = 32;
    sp.ranks = ranks;
    ThreadModel model(kernel, sp);
    decided = llvm::all_of(roles, [&](Operation *op) {
      return model.exec(op) && model.decided(op, &kernel->front());
    });
  }
  GeometryUse use = geometryUse(kernel);
  if (use.otherDims || !decided)
    return std::nullopt;
  if (!use.blockDimX) {
    // A thread does the same in every block that holds it: one evaluation
    // at the largest block gives each role's lowest thread.
    bool grows = false;
    std::optional<int64_t> least = leastAt(kernel, roles, 1024, ranks, grows);
    if (!least || *least == 0)
      return std::nullopt;
    return DerivedBlockSize{*least, grows};
  }
  // Conditions read the block size: the least whole-warp size at which
  // every role that runs in a 1024-thread block runs.
  auto running = [&](unsigned threads) -> std::optional<llvm::BitVector> {
    ThreadSpace sp;
    sp.block = {threads, 1, 1};
    sp.threads = threads;
    sp.ranks = ranks;
    ThreadModel model(kernel, sp);
    llvm::BitVector runs(roles.size());
    for (auto [i, op] : llvm::enumerate(roles)) {
      const llvm::BitVector *exec = model.exec(op);
      if (!exec || !model.decided(op, &kernel->front()))
        return std::nullopt;
      if (exec->any())
        runs.set(i);
    }
    return runs;
  };
  std::optional<llvm::BitVector> atMost = running(1024);
  if (!atMost || atMost->none())
    return std::nullopt;
  for (unsigned threads = 32; threads < 1024; threads += 32) {
    std::optional<llvm::BitVector> runs = running(threads);
    if (!runs)
      return std::nullopt;
    if (atMost->subsetOf(*runs))
      return DerivedBlockSize{int64_t(threads), true};
  }
  return DerivedBlockSize{1024, true};
}

std::optional<CheckedBlockSize> pmlir::checkedBlockSize(Region *kernel,
                                                        bool *threadRoles) {
  if (threadRoles)
    *threadRoles = false;
  if (std::optional<std::array<int64_t, 3>> dims = knownBlockSize(kernel))
    return CheckedBlockSize{*dims, false};
  if (std::optional<DerivedBlockSize> derived =
          deriveBlockSize(kernel, threadRoles))
    return CheckedBlockSize{{derived->threads, 1, 1}, true, derived->grows};
  return std::nullopt;
}
