//===- DrainAtExit.cpp - the producer drains before the kernel exits ------===//
//
// verifyDrainAtExit: a pipeline whose CTAs signal each other (cta_group =
// 2, release_ctas > 1, a barrier handed to a multicast TMA load or taken to
// another CTA with nvvm.mapa) has, from every producer visit, every path to
// the kernel exit pass a pipeline.drain_producer of the pipeline or a
// cluster barrier (nvvm.cluster.arrive then nvvm.cluster.wait), in
// structured control flow and in cf form alike. A CTA that exits while a
// peer still arrives on its barriers or writes its shared memory makes the
// peer target a CTA that is gone. Silent where the control flow is not
// understood.
//
// Diagnostics: an error at the producer's visit naming the path without a
// drain and why the CTAs signal each other, with notes at a construct that
// drains on some paths only, at the cf branch where a path through the
// drain and a path around it part, at the kernel exit reached and at the
// op that signals another CTA.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <string>

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

namespace {

/// Why the CTAs of a pipeline signal each other, and the op that shows it.
struct RemoteReason {
  std::string what;
  Operation *op;
};

/// Scans the continuation of a producer's last stage for a drain of the
/// pipeline or a cluster barrier on every path.
class DrainScan {
public:
  /// `knownTrue`: the conditions that hold for the threads on the path
  /// (those of the scf.if branches around the producer's visit).
  DrainScan(Value root, const DenseSet<Value> &knownTrue)
      : root(root), knownTrue(knownTrue) {}

  /// True if every path through the ops from `begin` to the end of the
  /// block drains.
  bool scan(Block::iterator begin, Block::iterator end);

  bool unknown = false;
  /// The first construct that drains on some of its paths only.
  Operation *partial = nullptr;
  std::string partialPath;

  /// True when at least one lane of the warp on the path takes each
  /// branch of a condition that splits the warp by lane: nvvm.elect.sync,
  /// lane == c / lane != c, the x thread id == c inside the warp the path
  /// is known to run in, a conjunction with a condition known to hold.
  bool splitsWarp(Value cond) const;

  /// Whether an nvvm.cluster.arrive is on every path so far (a scan that
  /// goes on where another stopped starts from its state).
  bool hasArrived() const { return arrived; }
  void setArrived(bool value) { arrived = value; }

private:
  bool scanRegion(Region &region);
  Value root;
  const DenseSet<Value> &knownTrue;
  bool arrived = false;   // nvvm.cluster.arrive on every path so far
  bool byDrainOp = false; // the last drain found was a drain_producer
};

} // namespace

/// The x thread id, through index casts.
static bool isThreadIdX(Value x) {
  while (Operation *d = x.getDefiningOp()) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(d))
      break;
    x = d->getOperand(0);
  }
  Operation *d = x.getDefiningOp();
  if (!d)
    return false;
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(d))
    return tid.getDimension() == gpu::Dimension::x;
  return d->getName().getStringRef() == "nvvm.read.ptx.sreg.tid.x";
}

/// The lane of the executing thread within its warp: gpu.lane_id, the
/// laneid register, or the x thread id modulo 32 (remui by 32, andi 31),
/// through index casts.
static bool isLaneIndex(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return isLaneIndex(op->getOperand(0));
  StringRef name = op->getName().getStringRef();
  if (isa<gpu::LaneIdOp>(op) || name == "nvvm.read.ptx.sreg.laneid")
    return true;
  std::optional<int64_t> c;
  if (isa<arith::RemUIOp>(op) && (c = constantInt(op->getOperand(1))) &&
      *c == 32)
    return isThreadIdX(op->getOperand(0));
  if (isa<arith::AndIOp>(op) && (c = constantInt(op->getOperand(1))) &&
      *c == 31)
    return isThreadIdX(op->getOperand(0));
  return false;
}

/// `cond` as `v == c` (or `c == v`): v and c.
static std::optional<std::pair<Value, int64_t>> equalsConstant(Value cond) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
    return std::nullopt;
  if (std::optional<int64_t> c = constantInt(cmp.getRhs()))
    return std::pair{cmp.getLhs(), *c};
  if (std::optional<int64_t> c = constantInt(cmp.getLhs()))
    return std::pair{cmp.getRhs(), *c};
  return std::nullopt;
}

/// The warp index x / 32 (divui by 32, shrui by 5) of the x thread id.
static bool isWarpIndex(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return isWarpIndex(op->getOperand(0));
  std::optional<int64_t> c =
      constantInt(op->getOperand(op->getNumOperands() - 1));
  if (isa<arith::DivUIOp>(op) && c && *c == 32)
    return isThreadIdX(op->getOperand(0));
  if (isa<arith::ShRUIOp>(op) && c && *c == 5)
    return isThreadIdX(op->getOperand(0));
  return false;
}

bool DrainScan::splitsWarp(Value cond) const {
  Operation *op = cond.getDefiningOp();
  if (!op)
    return false;
  if (op->getName().getStringRef() == "nvvm.elect.sync")
    return true;
  if (auto andOp = dyn_cast<arith::AndIOp>(op))
    return (splitsWarp(andOp.getLhs()) && knownTrue.contains(andOp.getRhs())) ||
           (splitsWarp(andOp.getRhs()) && knownTrue.contains(andOp.getLhs()));
  auto cmp = dyn_cast<arith::CmpIOp>(op);
  if (!cmp || (cmp.getPredicate() != arith::CmpIPredicate::eq &&
               cmp.getPredicate() != arith::CmpIPredicate::ne))
    return false;
  Value v = cmp.getLhs();
  std::optional<int64_t> c = constantInt(cmp.getRhs());
  if (!c) {
    v = cmp.getRhs();
    c = constantInt(cmp.getLhs());
  }
  if (!c)
    return false;
  if (isLaneIndex(v)) {
    if (*c < 0 || *c >= 32)
      return false;
    // Not when the path is known to run in another single lane.
    for (Value known : knownTrue)
      if (auto eq = equalsConstant(known);
          eq && isLaneIndex(eq->first) && eq->second != *c)
        return false;
    return true;
  }
  // tid.x == c on a path known to run in warp c / 32.
  if (isThreadIdX(v) && *c >= 0)
    for (Value known : knownTrue)
      if (auto eq = equalsConstant(known);
          eq && isWarpIndex(eq->first) && eq->second == *c / 32)
        return true;
  return false;
}

bool DrainScan::scanRegion(Region &region) {
  if (region.empty())
    return false;
  if (!region.hasOneBlock()) {
    unknown = true;
    return false;
  }
  return scan(region.front().begin(), region.front().end());
}

bool DrainScan::scan(Block::iterator begin, Block::iterator end) {
  for (Operation &op : llvm::make_range(begin, end)) {
    if (auto drain = dyn_cast<DrainProducerOp>(op)) {
      if (rootOf(drain.getPipeline()) == root) {
        byDrainOp = true;
        return true;
      }
      continue;
    }
    StringRef name = op.getName().getStringRef();
    if (name == "nvvm.cluster.arrive") {
      arrived = true;
      continue;
    }
    if (name == "nvvm.cluster.wait") {
      if (arrived) {
        byDrainOp = false;
        return true;
      }
      continue;
    }
    if (op.getNumRegions() == 0)
      continue;
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
      bool before = arrived, allArrived = true;
      SmallVector<bool> drained, byDrain;
      for (Region &region : op.getRegions()) {
        arrived = before;
        byDrainOp = false;
        drained.push_back(scanRegion(region));
        byDrain.push_back(drained.back() && byDrainOp);
        allArrived &= arrived;
      }
      arrived = allArrived;
      if (llvm::all_of(drained, [](bool d) { return d; }))
        return true;
      // The rule is about the CTA, which exits when its last thread does:
      // a drain in the branch that one lane of the warp takes (the elected
      // or lane-0 thread that issued the warp's signals, as CUTLASS runs
      // producer_tail) keeps the CTA alive for the lanes that skip it.
      // (A drain_producer: an aligned cluster barrier in one lane is no
      // drain, it is undefined in divergent code.)
      if (auto ifOp = dyn_cast<scf::IfOp>(op);
          ifOp && splitsWarp(ifOp.getCondition()) &&
          llvm::any_of(byDrain, [](bool d) { return d; })) {
        byDrainOp = true;
        return true;
      }
      if (!partial && llvm::any_of(drained, [](bool d) { return d; })) {
        partial = &op;
        unsigned missing = llvm::find(drained, false) - drained.begin();
        if (auto sw = dyn_cast<scf::IndexSwitchOp>(op)) {
          // Region 0 is the default, then the cases in order.
          if (missing > 0)
            partialPath = "in case " +
                          std::to_string(sw.getCases()[missing - 1]) +
                          " of the scf.index_switch";
          else
            partialPath = "in the default case of the scf.index_switch";
        } else {
          partialPath = missing == 0 ? "when the scf.if condition is true"
                                     : "when the scf.if condition is false";
        }
      }
      continue;
    }
    if (isa<scf::ExecuteRegionOp>(op) || op.hasTrait<ScopedStage>()) {
      if (scanRegion(op.getRegion(0)))
        return true;
      continue;
    }
    // A loop may run no iteration: what it does is no drain on every path.
    // A cluster arrive in it does not count either.
  }
  return false;
}

static std::optional<RemoteReason> remoteReason(PipelineUses &p) {
  PipelineType t = p.type;
  if (t.getCtaGroup() == 2)
    return RemoteReason{"cta_group = 2", p.create};
  if (t.getReleaseCtas() > 1)
    return RemoteReason{"release_ctas = " + std::to_string(t.getReleaseCtas()),
                        p.create};
  if (t.hasCross())
    return RemoteReason{"cluster_m = " + std::to_string(t.getClusterM()) +
                            ", cluster_n = " + std::to_string(t.getClusterN()),
                        p.create};
  if (t.getClc())
    return RemoteReason{"clc = true", p.create};
  SmallVector<Value> groups;
  for (Operation *user : p.users)
    if (getProtocolEffects(user).signal == ProtocolSignal::Address)
      groups.push_back(user->getResult(0));
  for (unsigned role = 0; role < 2; ++role)
    for (Value stage : p.stages[role])
      for (Operation *user : stage.getUsers())
        if (getProtocolEffects(user).signal == ProtocolSignal::Address)
          groups.push_back(user->getResult(0));
  SmallVector<Value> work(groups);
  DenseSet<Value> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(user)) {
        if (load.getMulticastMask() && load.getBarriers() == v)
          return RemoteReason{"a multicast TMA load", load};
        continue;
      }
      StringRef name = user->getName().getStringRef();
      if (name == "nvvm.mapa")
        return RemoteReason{"an arrival through nvvm.mapa", user};
      if (isa<nvgpu::MBarrierGetOp>(user) || name == "llvm.inttoptr" ||
          name == "llvm.ptrtoint" || name == "llvm.addrspacecast" ||
          name == "arith.index_cast" || name == "arith.index_castui")
        work.push_back(user->getResult(0));
    }
  }
  return std::nullopt;
}

/// The kernel body in cf form (several blocks): whether every path from
/// the ops after `from` in its block to a kernel exit passes a drain of the
/// pipeline (or a cluster arrive + wait within one block). A greatest fixed
/// point over the blocks: a block drains when its ops do, or when it does
/// not exit and all its successors drain (a loop that never exits drains).
/// `exit` is set to the return a failing path reaches; `unknown` when the
/// form is not understood (a cluster arrive whose wait is in another block,
/// a terminator that is neither a branch nor a return).
static bool cfgDrains(Operation *from, Value root,
                      const DenseSet<Value> &knownTrue, Operation *&exit,
                      Operation *&branch, bool &unknown) {
  Region *region = from->getBlock()->getParent();
  DenseMap<Block *, bool> own; // the block's ops drain by themselves
  DenseMap<Block *, bool> drains;
  DrainScan lanes(root, knownTrue);
  for (Block &block : *region) {
    DrainScan scan(root, knownTrue);
    own[&block] = scan.scan(block.begin(), block.end());
    if (scan.unknown)
      unknown = true;
    drains[&block] = true;
    for (Operation &op : block)
      if (op.getName().getStringRef() == "nvvm.cluster.arrive" && !own[&block])
        unknown = true;
  }
  if (unknown)
    return false;
  bool changed = true;
  while (changed) {
    changed = false;
    for (Block &block : *region) {
      if (!drains[&block] || own[&block])
        continue;
      Operation *term = block.getTerminator();
      bool all = term && term->getNumSuccessors() > 0;
      if (term)
        for (Block *succ : term->getSuccessors())
          all &= drains[succ];
      // A branch on a lane split: one lane of the warp draining is enough.
      if (auto cond = dyn_cast_or_null<cf::CondBranchOp>(term);
          cond && !all && lanes.splitsWarp(cond.getCondition()))
        all = drains[cond.getTrueDest()] || drains[cond.getFalseDest()];
      if (!all) {
        drains[&block] = false;
        changed = true;
      }
    }
  }
  // The rest of `from`'s block, then its successors.
  DrainScan scan(root, knownTrue);
  if (scan.scan(std::next(Block::iterator(from)), from->getBlock()->end()))
    return true;
  if (scan.unknown) {
    unknown = true;
    return false;
  }
  // A failing path: successors that do not drain, to a return.
  SmallVector<Block *> work{from->getBlock()};
  DenseSet<Block *> seen;
  bool first = true;
  while (!work.empty()) {
    Block *block = work.pop_back_val();
    if (!seen.insert(block).second)
      continue;
    if (!first && own[block])
      continue;
    first = false;
    Operation *term = block->getTerminator();
    if (!term)
      continue;
    if (term->getNumSuccessors() == 0) {
      exit = term;
      return false;
    }
    bool someDrain = false;
    auto cond = dyn_cast<cf::CondBranchOp>(term);
    if (cond && lanes.splitsWarp(cond.getCondition()) &&
        (drains[cond.getTrueDest()] || drains[cond.getFalseDest()]))
      continue;
    for (Block *succ : term->getSuccessors()) {
      if (!drains[succ])
        work.push_back(succ);
      else
        someDrain = true;
    }
    // The branch where a path that drains and one that does not part.
    if (someDrain && !branch)
      branch = term;
  }
  // Every path from here reaches a drain, or none exits.
  return true;
}

namespace {
/// The scans of the rest of a block after an op, shared by the producer
/// visits of one pipeline: the scan after a visit stops at the next op
/// some other scan starts after (another visit, or an op that holds one)
/// and goes on with that scan's result, so that every op of a block is
/// scanned once per path condition set and state, not once per visit
/// before it.
class SharedDrainScans {
public:
  explicit SharedDrainScans(Value root) : root(root) {}

  /// Registers `site` (a visit) and the ops that hold it as points a scan
  /// starts after; returns the id of its set of known conditions.
  unsigned addSite(Operation *site, const DenseSet<Value> &knownTrue);

  /// Orders the points of each block; call after the last addSite.
  void finish();

  struct Result {
    bool drained = false, unknown = false, arrived = false;
    Operation *partial = nullptr;
    std::string partialPath;
  };

  /// What DrainScan::scan from after `op` to the end of its block finds,
  /// starting with `arrived`, under the known conditions `set`.
  const Result &scanAfter(Operation *op, bool arrived, unsigned set);

  const DenseSet<Value> &knownTrue(unsigned set) const { return *sets[set]; }

private:
  Value root;
  std::map<SmallVector<void *>, unsigned> setIds;
  SmallVector<std::unique_ptr<DenseSet<Value>>> sets;
  /// The points of each block in order, and each point's place.
  DenseMap<Block *, SmallVector<Operation *>> points;
  DenseMap<Operation *, unsigned> place;
  /// Keyed by the op and 2 x set + arrived.
  DenseMap<std::pair<Operation *, unsigned>, Result> memo;
};
} // namespace

unsigned SharedDrainScans::addSite(Operation *site,
                                   const DenseSet<Value> &knownTrue) {
  SmallVector<void *> key;
  for (Value v : knownTrue)
    key.push_back(v.getAsOpaquePointer());
  llvm::sort(key);
  auto [it, inserted] = setIds.try_emplace(key, sets.size());
  if (inserted)
    sets.push_back(std::make_unique<DenseSet<Value>>(knownTrue));
  for (Operation *op = site; op && op->getBlock(); op = op->getParentOp())
    if (place.try_emplace(op, 0).second)
      points[op->getBlock()].push_back(op);
  return it->second;
}

void SharedDrainScans::finish() {
  for (auto &[block, ops] : points) {
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    for (auto [i, op] : llvm::enumerate(ops))
      place[op] = i;
  }
}

const SharedDrainScans::Result &
SharedDrainScans::scanAfter(Operation *op, bool arrived, unsigned set) {
  auto keyOf = [&](Operation *at, bool a) {
    return std::make_pair(at, 2 * set + unsigned(a));
  };
  // Forward: the segments up to the next point, until a scan known or
  // the end of the block; then back, each segment's result with that of
  // the scan after it.
  struct Segment {
    Operation *from;
    bool arrivedIn;
    Result own;
    bool last;
  };
  SmallVector<Segment> segments;
  Block *block = op->getBlock();
  ArrayRef<Operation *> ordered = points[block];
  Operation *at = op;
  bool a = arrived;
  const Result *tail = nullptr;
  while (true) {
    auto found = memo.find(keyOf(at, a));
    if (found != memo.end()) {
      tail = &found->second;
      break;
    }
    auto it = place.find(at);
    Operation *next = nullptr;
    if (it != place.end() && it->second + 1 < ordered.size() &&
        ordered[it->second] == at)
      next = ordered[it->second + 1];
    DrainScan scan(root, *sets[set]);
    scan.setArrived(a);
    Segment seg{at, a, {}, false};
    seg.own.drained =
        scan.scan(std::next(Block::iterator(at)),
                  next ? std::next(Block::iterator(next)) : block->end());
    seg.own.unknown = scan.unknown;
    seg.own.arrived = scan.hasArrived();
    seg.own.partial = scan.partial;
    seg.own.partialPath = scan.partialPath;
    seg.last = seg.own.drained || !next;
    segments.push_back(std::move(seg));
    if (segments.back().last)
      break;
    at = next;
    a = segments.back().own.arrived;
  }
  Result combined;
  if (tail)
    combined = *tail;
  for (Segment &seg : llvm::reverse(segments)) {
    if (seg.last) {
      combined = seg.own;
    } else {
      combined.unknown |= seg.own.unknown;
      if (seg.own.partial) {
        combined.partial = seg.own.partial;
        combined.partialPath = seg.own.partialPath;
      }
    }
    memo[keyOf(seg.from, seg.arrivedIn)] = combined;
  }
  return memo.find(keyOf(op, arrived))->second;
}

static bool checkDrain(PipelineUses &p) {
  std::optional<RemoteReason> reason = remoteReason(p);
  if (!reason)
    return false;
  Value root = p.create.getResult();
  // The conditions of the scf.if then-branches around each visit hold for
  // its threads along the rest of the path.
  SharedDrainScans shared(root);
  DenseMap<Operation *, unsigned> siteSet;
  for (Operation *site : p.users) {
    if (!isItemSite(site, Role::producer))
      continue;
    DenseSet<Value> knownTrue;
    for (Operation *at = site; at; at = at->getParentOp())
      if (auto ifOp = dyn_cast_or_null<scf::IfOp>(at->getParentOp());
          ifOp && ifOp.getThenRegion().isAncestor(at->getParentRegion()))
        knownTrue.insert(ifOp.getCondition());
    siteSet[site] = shared.addSite(site, knownTrue);
  }
  shared.finish();
  for (Operation *site : p.users) {
    if (!isItemSite(site, Role::producer))
      continue;
    unsigned set = siteSet.lookup(site);
    const DenseSet<Value> &knownTrue = shared.knownTrue(set);
    DrainScan scan(root, knownTrue);
    bool drained = false;
    Operation *exit = nullptr, *branch = nullptr;
    for (Operation *op = site; op;) {
      Block *block = op->getBlock();
      const SharedDrainScans::Result &rest =
          shared.scanAfter(op, scan.hasArrived(), set);
      scan.setArrived(rest.arrived);
      scan.unknown |= rest.unknown;
      if (!scan.partial && rest.partial) {
        scan.partial = rest.partial;
        scan.partialPath = rest.partialPath;
      }
      if (rest.drained) {
        drained = true;
        break;
      }
      Region *region = block->getParent();
      if (!region->hasOneBlock()) {
        // The kernel body in cf form: follow the branches.
        if (region == p.kernel)
          drained = cfgDrains(op, root, knownTrue, exit, branch, scan.unknown);
        else
          scan.unknown = true;
        break;
      }
      if (region == p.kernel) {
        Operation *term = block->getTerminator();
        if (!term || term->getNumSuccessors() != 0)
          scan.unknown = true;
        exit = term;
        break;
      }
      Operation *parent = region->getParentOp();
      if (!isa<scf::IfOp, scf::IndexSwitchOp, scf::ForOp, scf::WhileOp,
               scf::ExecuteRegionOp, ProduceOp, ConsumeOp, ConsumeExplicitOp>(
              parent)) {
        scan.unknown = true;
        break;
      }
      op = parent;
    }
    if (drained || scan.unknown)
      continue;
    auto diag = site->emitError()
                << "expects the producer of this pipeline to reach the "
                   "kernel exit only after pipeline.drain_producer or a "
                   "cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait), "
                   "got a path without either";
    if (scan.partial)
      diag << " " << scan.partialPath;
    diag << ": its CTAs signal each other (" << reason->what
         << "), and a peer may still arrive on this CTA's barriers or write "
            "its shared memory after it exited";
    if (scan.partial)
      diag.attachNote(scan.partial->getLoc()) << "drains on some paths only";
    if (branch)
      diag.attachNote(branch->getLoc())
          << "this branch leads to the exit both through a drain and around "
             "it";
    if (exit)
      diag.attachNote(exit->getLoc()) << "kernel exit";
    if (reason->op != p.create.getOperation())
      diag.attachNote(reason->op->getLoc()) << "signal to another CTA here";
    return true;
  }
  return false;
}

LogicalResult pmlir::verifyDrainAtExit(Operation *root) {
  bool failed = false;
  for (PipelineUses &p : collectPipelines(root))
    failed |= checkDrain(p);
  return failure(failed);
}
