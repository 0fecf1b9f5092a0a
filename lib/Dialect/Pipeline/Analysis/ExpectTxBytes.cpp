//===- ExpectTxBytes.cpp - the bytes expect_tx arms -----------------------===//
//
// verifyExpectTxBytes: the transaction bytes a producer stage's expect_tx
// arms (`bytes(%n)` with a constant `%n`, or a tile pipeline's stage
// payload times cta_group) equal the bytes of the TMA loads that complete
// on that stage's full barrier (nvgpu.tma.async.load through pipeline.mbar,
// pipeline.tma_load), counting the copies of a multicast load from every
// CTA of its mask and, for pipeline.tma_load on a CTA pair, both CTAs'
// loads. Too few bytes armed complete the phase before the last load
// landed (the consumer reads a partly written tile), too many never
// complete it (a hang). Silent where the bytes, the mask or how often a
// load or expect_tx runs per stage is not known.
//
// Diagnostics: an error at the first expect_tx of the stage (the bytes
// armed, the bytes delivered and the loads that deliver them), with a note
// at each load; an error at the first load of a stage whose handle no
// expect_tx arms, with a note at the stage handle.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

/// How many times `op` runs per execution of its enclosing block
/// `ancestor`, when that is certain: only scf.for loops of constant trip
/// count and single-run regions in between (no condition).
static std::optional<int64_t> exactMultiplicity(Operation *op,
                                                Block *ancestor) {
  for (Operation *at = op; at->getBlock() != ancestor; at = at->getParentOp()) {
    Operation *parent = at->getParentOp();
    if (!parent || isa<scf::IfOp, scf::IndexSwitchOp>(parent))
      return std::nullopt;
  }
  return multiplicity(op, ancestor);
}

/// The innermost block that contains all of `ops`.
static Block *commonBlock(ArrayRef<Operation *> ops) {
  Block *common = ops.front()->getBlock();
  for (Operation *op : ops.drop_front()) {
    while (common && !common->findAncestorOpInBlock(*op)) {
      Operation *parent = common->getParentOp();
      common = parent ? parent->getBlock() : nullptr;
    }
  }
  return common;
}

/// Bytes of one TMA box: the descriptor's tensor memref.
static std::optional<int64_t> boxBytes(nvgpu::TmaAsyncLoadOp load) {
  return getStaticBytes(load.getTensorMapDescriptor().getType().getTensor());
}

/// The number of CTAs whose copy of a multicast load lands in each CTA of
/// its mask: the CTAs of the mask, which all issue the same load. A mask
/// that depends on the cluster rank must name an aligned group that
/// contains the issuing CTA and is the same from every CTA of the group.
static std::optional<int64_t> multicastSources(Region *kernel, Value mask) {
  if (std::optional<int64_t> c = constantInt(mask)) {
    int64_t n = llvm::popcount(uint64_t(*c) & 0xffff);
    return n ? std::optional<int64_t>(n) : std::nullopt;
  }
  // The ranks the kernel's cluster has (nvvm.cluster_dim), else every rank
  // a cluster may have: a mask written for a cluster of 4 need not make
  // sense at rank 5.
  std::optional<int64_t> size = knownClusterSize(kernel);
  unsigned ranks = size && *size >= 1 && *size <= 16 ? unsigned(*size) : 16;
  ThreadSpace sp;
  sp.ranks = ranks;
  ThreadModel model(kernel, sp);
  if (model.mayVary(mask))
    return std::nullopt;
  const ThreadModel::Vals *m = model.eval(mask);
  if (!m)
    return std::nullopt;
  uint64_t inCluster = (uint64_t(1) << ranks) - 1;
  std::optional<int64_t> count;
  for (unsigned y = 0; y < ranks; ++y) {
    uint64_t bits = uint64_t((*m)[y]) & 0xffff;
    if (!(bits & (uint64_t(1) << y)) || (bits & ~inCluster))
      return std::nullopt;
    int64_t n = llvm::popcount(bits);
    if (count && *count != n)
      return std::nullopt;
    count = n;
    for (unsigned z = 0; z < ranks; ++z)
      if ((bits & (uint64_t(1) << z)) && (uint64_t((*m)[z]) & 0xffff) != bits)
        return std::nullopt;
  }
  return count;
}

/// A TMA load completing on a producer stage's full barrier: an
/// nvgpu.tma.async.load through pipeline.mbar or a pipeline.tma_load.
struct StageLoad {
  Operation *op;
  Value dst, mask;
  /// Bytes of one box, and the box's shape for the diagnostic.
  std::optional<int64_t> box;
  std::string boxText;
  /// The CTAs whose loads complete on one barrier besides the multicast:
  /// the pair's two with a pipeline.tma_load of a cta_group = 2 pipeline.
  int64_t pairFactor = 1;
};

static std::string describeBox(MemRefType box) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "box ";
  llvm::interleave(box.getShape(), os, "x");
  os << "x" << box.getElementType();
  return text;
}

namespace {
/// What the expect_tx check of every producer stage of one pipeline asks
/// about the pipeline and its kernel, computed once on first use: each
/// answer takes a pass over the pipeline's users or over the kernel.
class ExpectTxFacts {
public:
  explicit ExpectTxFacts(PipelineUses &p) : p(p) {}

  /// Some other name of the full barriers (producer_mbar) is used.
  bool fullBarrierNamed() {
    if (!named)
      named = llvm::any_of(p.users, [](Operation *user) {
        return isBarrierAddressOf(user, Role::producer) && !user->use_empty();
      });
    return *named;
  }

  /// Some other name of the full barriers is used for more than TMA
  /// transactions.
  bool fullBarrierArrived() {
    if (!arrived)
      arrived = llvm::any_of(p.users, [](Operation *user) {
        return isBarrierAddressOf(user, Role::producer) && !user->use_empty() &&
               !onlyTransactionUses(user->getResult(0));
      });
    return *arrived;
  }

  /// The TMA loads in `kernel` into a payload tile of `stage`.
  ArrayRef<Operation *> loadsIntoPayloadOf(Region *kernel, Value stage) {
    auto [it, inserted] = payloadLoads.try_emplace(kernel);
    if (inserted)
      kernel->walk([&, &byStage = it->second](Operation *op) {
        Value dst;
        if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op))
          dst = load.getDst();
        else if (auto load = dyn_cast<TmaLoadOp>(op))
          dst = load.getDst();
        if (Value owner = dst ? getPayloadStage(dst) : Value())
          byStage[owner].push_back(op);
      });
    auto found = it->second.find(stage);
    if (found == it->second.end())
      return {};
    return found->second;
  }

private:
  PipelineUses &p;
  std::optional<bool> named, arrived;
  DenseMap<Region *, DenseMap<Value, SmallVector<Operation *>>> payloadLoads;
};
} // namespace

/// Checks the expect_tx ops of producer stage `stage`; true on error.
static bool checkExpectTx(PipelineUses &p, ExpectTxFacts &facts, Value stage) {
  SmallVector<ExpectTxOp> arms;
  SmallVector<MbarOp> mbars;
  SmallVector<StageLoad> loads;
  for (Operation *user : stage.getUsers()) {
    if (auto e = dyn_cast<ExpectTxOp>(user))
      arms.push_back(e);
    else if (auto m = dyn_cast<MbarOp>(user))
      mbars.push_back(m);
    else if (auto t = dyn_cast<TmaLoadOp>(user))
      loads.push_back({t, t.getDst(), t.getMulticastMask(), t.getBoxBytes(),
                       describeBox(t.getDst().getType()),
                       int64_t(p.type.getCtaGroup())});
  }
  if (arms.empty()) {
    // Loads whose bytes nothing arms: the transaction count goes negative
    // and the phase never completes on the bytes (or completes early on an
    // arrival). The loads of pipeline.tma_load, and nvgpu.tma.async.load
    // through this handle's pipeline.mbar when nothing else uses that
    // barrier (a raw arrive.expect_tx would) and no other name of the full
    // barriers is used for more than transactions.
    if (facts.fullBarrierArrived())
      return false;
    // A handle carried into a loop's next iteration or out of a region
    // (an arm-ahead producer arms one handle and loads through another):
    // not judged.
    auto arg = dyn_cast<BlockArgument>(stage);
    bool scopedStage = arg && arg.getOwner()->getParentOp() &&
                       arg.getOwner()->getParentOp()->hasTrait<ScopedStage>();
    Operation *def = stage.getDefiningOp();
    if ((arg && !scopedStage) ||
        (def && !isa_and_present<PipelineDialect>(def->getDialect())) ||
        llvm::any_of(stage.getUsers(), [](Operation *user) {
          return !isa_and_present<PipelineDialect>(user->getDialect());
        }))
      return false;
    for (MbarOp m : mbars) {
      if (m.getSubStage() != 0)
        continue;
      // The barrier used for more than loads (a raw arrive.expect_tx arms
      // it): another way to arm.
      if (!onlyTransactionUses(m.getBarriers()))
        return false;
      for (Operation *user : m.getBarriers().getUsers())
        if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(user))
          loads.push_back(
              {load, load.getDst(), load.getMulticastMask(), boxBytes(load),
               describeBox(load.getTensorMapDescriptor().getType().getTensor()),
               1});
    }
    if (loads.empty())
      return false;
    // The first load in program order.
    Operation *first = loads.front().op;
    for (const StageLoad &l : loads)
      if (l.op->getBlock() == first->getBlock() && l.op->isBeforeInBlock(first))
        first = l.op;
    auto diag = first->emitError()
                << "completes TMA bytes on the stage's full barrier, but no "
                   "pipeline.expect_tx on this stage handle arms them: the "
                   "consumers of the stage wait forever";
    diag.attachNote(stage.getLoc()) << "the stage handle";
    return true;
  }
  // Another way to name the full barriers: not understood.
  if (facts.fullBarrierNamed())
    return false;

  for (MbarOp m : mbars) {
    if (m.getSubStage() != 0 || m.getBarriers().use_empty())
      continue;
    for (Operation *user : m.getBarriers().getUsers()) {
      auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(user);
      if (!load || load.getBarriers() != m.getBarriers() ||
          load.getMbarId() != m.getMbarId())
        return false;
      if (Value pred = load.getPredicate()) {
        std::optional<int64_t> c = constantInt(pred);
        if (!c || !(*c & 1))
          return false;
      }
      MemRefType box = load.getTensorMapDescriptor().getType().getTensor();
      loads.push_back({load, load.getDst(), load.getMulticastMask(),
                       boxBytes(load), describeBox(box), 1});
    }
  }
  if (loads.empty())
    return false;
  // A load into this stage's payload that completes elsewhere: not
  // understood either.
  Operation *anyOp = arms.front();
  Region *kernel = kernelBody(anyOp);
  auto known = [&](Operation *op) {
    return llvm::any_of(loads, [&](const StageLoad &l) { return l.op == op; });
  };
  if (llvm::any_of(facts.loadsIntoPayloadOf(kernel, stage),
                   [&](Operation *op) { return !known(op); }))
    return false;

  SmallVector<Operation *> all;
  for (ExpectTxOp e : arms)
    all.push_back(e);
  for (StageLoad &l : loads)
    all.push_back(l.op);
  Block *common = commonBlock(all);
  if (!common)
    return false;

  PipelineType type = p.type;
  int64_t armed = 0;
  for (ExpectTxOp e : arms) {
    std::optional<int64_t> mult = exactMultiplicity(e, common);
    if (!mult)
      return false;
    int64_t bytes;
    if (Value n = e.getBytes()) {
      std::optional<int64_t> c = constantInt(n);
      if (!c)
        return false;
      bytes = *c;
    } else {
      auto tile = dyn_cast<TilePipelineType>(
          cast<StageType>(stage.getType()).getPipeline());
      if (!tile)
        return false;
      bytes = int64_t(tile.getStageBytes()) * type.getCtaGroup();
    }
    armed += *mult * bytes;
  }
  int64_t delivered = 0;
  struct Part {
    StageLoad *load;
    int64_t sources, mult;
  };
  SmallVector<Part> parts;
  for (StageLoad &load : loads) {
    std::optional<int64_t> mult = exactMultiplicity(load.op, common);
    if (!mult || !load.box)
      return false;
    int64_t sources = 1;
    if (load.mask) {
      std::optional<int64_t> n = multicastSources(kernel, load.mask);
      if (!n)
        return false;
      sources = *n;
    }
    delivered += *mult * *load.box * sources * load.pairFactor;
    parts.push_back({&load, sources, *mult});
  }
  if (armed == delivered)
    return false;

  ExpectTxOp first = arms.front();
  auto diag = first.emitError()
              << "expects the TMA loads that complete on this stage's full "
                 "barrier to deliver the "
              << armed << " bytes that expect_tx arms";
  if (!first.getBytes()) {
    auto tile =
        cast<TilePipelineType>(cast<StageType>(stage.getType()).getPipeline());
    diag << " (the stage's payload: " << tile.getStageBytes() << " bytes";
    if (type.getCtaGroup() == 2)
      diag << " x 2 CTAs of the pair";
    diag << ")";
  }
  diag << ", got " << delivered << ": ";
  // Identical loads grouped, in program order.
  SmallVector<std::pair<std::string, int64_t>> groups;
  for (Part &part : parts) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << *part.load->box << " bytes (" << part.load->boxText << ")";
    if (part.mult != 1)
      os << " " << part.mult << " times";
    if (part.sources != 1)
      os << " from each of the " << part.sources
         << " CTAs of its multicast mask";
    if (part.load->pairFactor != 1)
      os << " from each CTA of the pair";
    auto it = llvm::find_if(groups, [&](auto &g) { return g.first == text; });
    if (it == groups.end())
      groups.push_back({text, 1});
    else
      ++it->second;
  }
  for (auto [k, group] : llvm::enumerate(groups))
    diag << (k ? " + " : "") << plural(group.second, "load") << " of "
         << group.first;
  if (type.getCtaGroup() == 2 && llvm::all_of(parts, [](const Part &x) {
        return x.sources == 1 && x.load->pairFactor == 1;
      }))
    diag << "; the loads of the peer CTA complete on the peer's barrier";
  for (Part &part : parts)
    diag.attachNote(part.load->op->getLoc())
        << "load completing on the barrier";
  return true;
}

LogicalResult pmlir::verifyExpectTxBytes(Operation *root) {
  bool failed = false;
  for (PipelineUses &p : collectPipelines(root)) {
    ExpectTxFacts facts(p);
    for (Value stage : p.stages[0])
      failed |= checkExpectTx(p, facts, stage);
  }
  return failure(failed);
}
