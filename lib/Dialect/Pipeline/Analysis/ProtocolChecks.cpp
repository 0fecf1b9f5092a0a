//===- ProtocolChecks.cpp - static barrier protocol checks ----------------===//
//
// The checks of `pipeline-verify-protocol` beyond initialization
// (docs/verifier.md, "The protocol pass"). Each check proves its property
// only where the IR determines it, and says nothing otherwise.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/Analysis/LaunchContract.h"
#include "pipeline/Dialect/Pipeline/Analysis/PipelineInit.h"

#include "ProtocolUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <tuple>

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

namespace {
enum class Kind { Full, Empty };
} // namespace

static unsigned roleIndex(Kind kind) { return kind == Kind::Full ? 0 : 1; }

/// The position of every op of a kernel in a pre-order walk (for choosing
/// the first op of a set in program order).
static DenseMap<Operation *, unsigned> walkOrder(Region *kernel) {
  DenseMap<Operation *, unsigned> order;
  kernel->walk<WalkOrder::PreOrder>(
      [&](Operation *op) { order[op] = order.size(); });
  return order;
}

static std::string plural(int64_t n, StringRef word) {
  std::string s = std::to_string(n) + " " + word.str();
  if (n != 1)
    s += "s";
  return s;
}

//===----------------------------------------------------------------------===//
// Rule 1: arrival counts
//===----------------------------------------------------------------------===//

namespace {

/// One signal on a barrier kind, attributed to the visit (the end of a
/// stage, a scoped region, a signal_and_step) during which it happens.
struct Signal {
  Operation *op;   // the signalling op (a consume op: its exit)
  Operation *site; // the visit
  int64_t mult = 1;
  enum class Weight { Thread, Warp, Elect } weight = Weight::Thread;
  Value elect;
  /// Where it lands, relative to the signalling CTA: its own barrier, the
  /// pipeline's consumer group (the aligned release_ctas group, the pair of
  /// an input pipeline, or the cross of a multicast cluster), both CTAs of
  /// its pair, or the leader of its pair.
  enum class Target { Own, Group, Pair, Leader } target = Target::Own;
  bool leaderOnly = false; // expect_tx of a CTA pair: the peer's is a no-op

  /// Whether the thread alone decides if a visit signals: a condition like
  /// a loop counter between the visit and its signal would make the count
  /// differ between phases.
  bool decidedByThread(ThreadModel &model) const {
    if (op == site)
      return true;
    Block *visitBlock = site->hasTrait<ScopedStage>()
                            ? &site->getRegion(0).front()
                            : site->getBlock();
    return model.decided(op, visitBlock);
  }
};

struct Counted {
  SmallVector<Operation *> sites;
  SmallVector<Signal> signals;
  SmallVector<Operation *> waiters;
};

class ArrivalChecker {
public:
  ArrivalChecker(PipelineUses &p, Kind kind,
                 std::optional<CheckedBlockSize> block, bool remarkUnknown)
      : p(p), kind(kind), block(block), remarkUnknown(remarkUnknown) {}
  /// Checks one barrier kind of one pipeline; true if an error was
  /// reported.
  bool run();

private:
  bool collect();
  bool runClc();
  bool addStage(Value v);
  Signal::Target consumerThreadTarget(Type type) const;
  bool crossApplies() const;
  bool reaches(const Signal &s, unsigned from, unsigned to) const;
  std::string ctaName(unsigned r) const;
  void addSignal(Operation *op, Operation *site, int64_t mult);
  std::string describe(ThreadModel &model, const Signal &s, unsigned r,
                       ArrayRef<Operation *> chosen, int64_t &total);
  std::string barrierPlace(unsigned r) const;

  void remarkUncounted() const;
  void noteDerivedBlock(InFlightDiagnostic &diag) const;

  PipelineUses &p;
  Kind kind;
  /// The block size arrivals are counted at (declared, else the least the
  /// roles need).
  std::optional<CheckedBlockSize> block;
  /// Without a block size: whether to say the counts were not checked (the
  /// roles are functions of the thread: the size alone is missing).
  bool remarkUnknown = false;
  Counted c;
  unsigned groupSize = 1;
};

} // namespace

/// True when consumer signals reach the cross of a multicast cluster: a
/// one-CTA pipeline or a pair's input pipeline with cluster_m x cluster_n.
bool ArrivalChecker::crossApplies() const {
  return p.type.hasCross() &&
         (p.type.getCtaGroup() == 1 || isInputPipeline(p.create.getResult()));
}

/// True when signal `s` of the CTA of enumerated rank `from` lands on the
/// barrier of the CTA of rank `to` (ranks count groups of groupSize CTAs,
/// each a cluster or an aligned part of one).
bool ArrivalChecker::reaches(const Signal &s, unsigned from,
                             unsigned to) const {
  switch (s.target) {
  case Signal::Target::Own:
    return from == to;
  case Signal::Target::Leader:
    return to == (from & ~1u);
  case Signal::Target::Pair:
    return (to & ~1u) == (from & ~1u);
  case Signal::Target::Group:
    if (from / groupSize != to / groupSize)
      return false;
    return !crossApplies() ||
           ((p.type.getCrossMask(from % groupSize) >> (to % groupSize)) & 1);
  }
  return false;
}

/// How a diagnostic names the CTA of enumerated rank `r`.
std::string ArrivalChecker::ctaName(unsigned r) const {
  if (crossApplies()) {
    unsigned m = p.type.getClusterM(), k = r % groupSize;
    return "CTA (m " + std::to_string(k % m) + ", n " + std::to_string(k / m) +
           ") of the cluster";
  }
  if (p.type.getCtaGroup() == 2)
    return r % 2 == 0 ? "the leader CTA" : "the peer CTA";
  return "CTA " + std::to_string(r % groupSize) + " of the group";
}

Signal::Target ArrivalChecker::consumerThreadTarget(Type type) const {
  PipelineType t = p.type;
  if (crossApplies())
    return Signal::Target::Group;
  if (t.getCtaGroup() == 2)
    return isTilePipelineType(type) || isInputPipeline(p.create.getResult())
               ? Signal::Target::Group
               : Signal::Target::Leader;
  if (t.getReleaseCtas() > 1)
    return Signal::Target::Group;
  return Signal::Target::Own;
}

void ArrivalChecker::addSignal(Operation *op, Operation *site, int64_t mult) {
  Signal s;
  s.op = op;
  s.site = site;
  s.mult = mult;
  PipelineType t = p.type;
  ProtocolSignal signal = getProtocolEffects(op).signal;
  if (signal == ProtocolSignal::MmaCommit) {
    s.elect = getMmaCommitElection(op);
    s.weight = s.elect ? Signal::Weight::Elect : Signal::Weight::Warp;
    // The MMA runs in the leader: with a pair its commits reach both CTAs;
    // a release_mma reaches the consumer group (release_ctas, the cross).
    if (kind == Kind::Empty &&
        (crossApplies() || (t.getCtaGroup() == 1 && t.getReleaseCtas() > 1)))
      s.target = Signal::Target::Group;
    else
      s.target =
          t.getCtaGroup() == 2 ? Signal::Target::Pair : Signal::Target::Own;
  } else if (kind == Kind::Full) {
    // A thread's producer signal on a CTA pair reaches the leader's full
    // barrier (the pair's MMA consumes there); expect_tx arms it in the
    // leader only.
    bool expectTx = signal == ProtocolSignal::ExpectTx;
    s.target = t.getCtaGroup() == 2 && !expectTx ? Signal::Target::Leader
                                                 : Signal::Target::Own;
    s.leaderOnly = expectTx && t.getCtaGroup() == 2;
  } else {
    s.target = consumerThreadTarget(op->getOperand(0).getType());
  }
  c.signals.push_back(s);
}

/// Adds the visits and signals of stage value `v`; false when they cannot
/// be counted.
bool ArrivalChecker::addStage(Value v) {
  Operation *scoped = nullptr;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner && owner->hasTrait<ScopedStage>())
      scoped = owner;
  }
  SmallVector<Operation *> signals, consumers;
  bool passedOn = false;
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (auto iface = dyn_cast<StageUseOpInterface>(user)) {
      ProtocolEffects effects = getProtocolEffects(user);
      if (iface.consumesStage(use)) {
        consumers.push_back(user);
        if (effects.signal == ProtocolSignal::Commit ||
            signalsOnRelease(user, v.getType()))
          signals.push_back(user);
        continue;
      }
      switch (effects.signal) {
      case ProtocolSignal::None:
        // Reads the handle only (index, payload).
        if (effects.step == ProtocolStep::None)
          continue;
        return false;
      case ProtocolSignal::Address:
        if (!onlyTransactionUses(user->getResult(0)))
          return false;
        continue;
      case ProtocolSignal::Arrive:
      case ProtocolSignal::ExpectTx:
      case ProtocolSignal::MmaCommit:
        signals.push_back(user);
        continue;
      default:
        return false;
      }
    }
    if (isa<scf::YieldOp, scf::ConditionOp, scf::ForOp, scf::WhileOp,
            BranchOpInterface>(user)) {
      passedOn = true;
      continue;
    }
    return false;
  }
  if (scoped) {
    if (!consumers.empty() || passedOn)
      return false;
    c.sites.push_back(scoped);
    Block *body = &scoped->getRegion(0).front();
    for (Operation *s : signals) {
      std::optional<int64_t> mult = multiplicity(s, body);
      if (!mult)
        return false;
      addSignal(s, scoped, *mult);
    }
    if (signalsOnRelease(scoped, scoped->getOperand(0).getType()))
      addSignal(scoped, scoped, 1);
    return true;
  }
  // Signals before a hand-over (a yield, a branch) belong to a release
  // elsewhere: not attributed here.
  if (passedOn && !signals.empty())
    return false;
  if (consumers.empty())
    return signals.empty();
  for (Operation *site : consumers) {
    c.sites.push_back(site);
    for (Operation *s : signals) {
      if (s == site) {
        addSignal(s, site, 1);
        continue;
      }
      if (llvm::is_contained(consumers, s))
        continue;
      Operation *ancestor = site->getBlock()->findAncestorOpInBlock(*s);
      if (ancestor && ancestor->isBeforeInBlock(site)) {
        std::optional<int64_t> mult = multiplicity(s, site->getBlock());
        if (!mult)
          return false;
        addSignal(s, site, *mult);
        continue;
      }
      if (!exclusive(s, site))
        return false;
    }
  }
  return true;
}

bool ArrivalChecker::collect() {
  unsigned role = roleIndex(kind);
  if (p.untraced[role])
    return false;
  if ((kind == Kind::Full ? p.type.getProducerSubStages()
                          : p.type.getConsumerSubStages()) != 1)
    return false;
  // The role that signals this barrier kind, and the one that waits on it.
  Role signaller = kind == Kind::Full ? Role::producer : Role::consumer;
  Role waiter = kind == Kind::Full ? Role::consumer : Role::producer;
  for (Operation *user : p.users) {
    ProtocolEffects effects = getProtocolEffects(user);
    bool signallerOp = effects.role != ProtocolRole::OfStage &&
                       getProtocolRole(user) == signaller;
    // A bare step of the signalling role: its signal is given elsewhere.
    if (signallerOp && effects.step == ProtocolStep::Always &&
        effects.wait == ProtocolWait::None &&
        effects.signal == ProtocolSignal::None)
      return false;
    if (isBarrierAddressOf(user, signaller) &&
        !onlyTransactionUses(user->getResult(0)))
      return false;
    // A signal of the role itself (producer/consumer_signal_and_step).
    if (signallerOp && effects.signal == ProtocolSignal::Arrive) {
      c.sites.push_back(user);
      addSignal(user, user, 1);
    }
    if (waitsOnRoleBarrier(user, waiter))
      c.waiters.push_back(user);
  }
  for (Value v : p.stages[role])
    if (!addStage(v))
      return false;
  return true;
}

std::string ArrivalChecker::barrierPlace(unsigned r) const {
  if (p.type.getCtaGroup() == 2 || crossApplies())
    return " of " + ctaName(r);
  return "";
}

/// Describes what signal `s` contributes to the barrier of CTA `r` (adds
/// the number of arrivals to `total`); empty if nothing.
std::string ArrivalChecker::describe(ThreadModel &model, const Signal &s,
                                     unsigned r, ArrayRef<Operation *> chosen,
                                     int64_t &total) {
  const ThreadSpace &sp = model.space();
  const llvm::BitVector *ex = model.exec(s.op);
  const ThreadModel::Vals *elect =
      s.weight == Signal::Weight::Elect ? model.eval(s.elect) : nullptr;
  unsigned base = r - r % groupSize;
  // Per source CTA: the number of arriving threads in each warp.
  std::vector<std::map<unsigned, int64_t>> perCta(groupSize);
  for (unsigned y = base; y < base + groupSize; ++y) {
    if (s.leaderOnly && y % 2 != 0)
      continue;
    if (!reaches(s, y, r))
      continue;
    for (unsigned t = 0; t < sp.threads; ++t) {
      unsigned i = sp.point(y, t);
      // Each thread's arrivals of one visit: those of its first visit.
      if (!ex->test(i) || chosen[i] != s.site)
        continue;
      if (s.weight == Signal::Weight::Elect && !((*elect)[i] & 1))
        continue;
      if (s.weight == Signal::Weight::Warp) {
        unsigned first = t - t % 32;
        bool lowest = true;
        for (unsigned u = first; u < t; ++u)
          lowest &= !ex->test(sp.point(y, u));
        if (!lowest)
          continue;
      }
      perCta[y - base][t / 32] += 1;
    }
  }
  auto shape = [&](const std::map<unsigned, int64_t> &warps,
                   int64_t &count) -> std::string {
    count = 0;
    int64_t lanes = -1;
    bool uniform = true;
    for (auto [w, n] : warps) {
      count += n;
      if (lanes >= 0 && lanes != n)
        uniform = false;
      lanes = n;
    }
    if (count == 0)
      return "";
    bool mma = getProtocolEffects(s.op).signal == ProtocolSignal::MmaCommit;
    std::string text;
    if (mma)
      text = plural(count, "warp") + (count == 1 ? " commits" : " commit") +
             " (tcgen05.commit)";
    else if (count == 1)
      text = "1 thread arrives";
    else if (uniform)
      text = plural(warps.size(), "warp") + " x " + plural(lanes, "lane") +
             " arrive";
    else
      text = std::to_string(count) + " threads arrive";
    if (!mma) {
      // Which op arrives, unless it is a plain pipeline.arrive.
      ProtocolSignal signal = getProtocolEffects(s.op).signal;
      std::string name = s.op->getName().stripDialect().str();
      if (signal == ProtocolSignal::ExpectTx)
        text += " with expect_tx";
      else if (signal == ProtocolSignal::RegionExit)
        text += " (exit of " + s.op->getName().getStringRef().str() + ")";
      else if (name != "arrive")
        text += " (" + name + ")";
    }
    if (s.mult != 1)
      text += " " + std::to_string(s.mult) + " times per stage";
    return text;
  };
  SmallVector<std::string> parts;
  SmallVector<unsigned> from;
  for (unsigned j = 0; j < groupSize; ++j) {
    int64_t count = 0;
    std::string text = shape(perCta[j], count);
    if (count == 0)
      continue;
    total += count * s.mult;
    parts.push_back(text);
    from.push_back(base + j);
  }
  if (parts.empty())
    return "";
  if (groupSize == 1)
    return parts.front();
  if (parts.size() > 1 && llvm::all_equal(parts))
    return parts.front() + " in each of " + std::to_string(parts.size()) +
           " CTAs";
  std::string out;
  for (auto [k, text] : llvm::enumerate(parts)) {
    if (k)
      out += ", ";
    out += text;
    unsigned y = from[k];
    out += y == r ? " in this CTA" : " in " + ctaName(y);
  }
  return out;
}

/// The cluster size a kernel declares (nvvm.cluster_dim), if any.
static std::optional<int64_t> knownClusterSize(Region *kernel) {
  Operation *owner = kernel->getParentOp();
  auto dims = owner->getAttrOfType<DenseI32ArrayAttr>("nvvm.cluster_dim");
  if (!dims || dims.size() == 0)
    return std::nullopt;
  int64_t size = 1;
  for (int32_t d : dims.asArrayRef()) {
    if (d < 1)
      return std::nullopt;
    size *= d;
  }
  return size;
}

/// A clc pipeline: its producer, pipeline.clc_try_cancel, arms each CTA's
/// full barrier with one arrive.expect_tx per stage (producer count 1); its
/// consumers signal cluster rank 0's empty barrier from every CTA, so the
/// count is rank 0's consumer arrivals plus those of each other CTA of the
/// cluster. With the cluster size declared (nvvm.cluster_dim) the count
/// must be exact; else some cluster size must give it.
bool ArrivalChecker::runClc() {
  if (kind == Kind::Full) {
    int64_t n = p.init.getProducerArriveCount();
    if (n == 1)
      return false;
    p.init.emitError()
        << "expects producer 1 on a clc pipeline, got " << n
        << ": pipeline.clc_try_cancel arms the full barrier of each CTA "
           "with one arrive.expect_tx of the 16 response bytes per stage";
    return true;
  }
  if (!collect() || c.sites.empty() || c.signals.empty())
    return false;
  if (!block) {
    remarkUncounted();
    return false;
  }
  // The ranks of the declared cluster, else 4 (rank 0 and three others
  // that must behave alike).
  std::optional<int64_t> cluster = knownClusterSize(p.kernel);
  if (cluster && *cluster > 16)
    return false;
  ThreadSpace sp;
  sp.block = block->dims;
  sp.threads = block->dims[0] * block->dims[1] * block->dims[2];
  sp.ranks = cluster ? unsigned(*cluster) : 4;
  ThreadModel model(p.kernel, sp);
  unsigned n = sp.size();
  // Each thread visits one site per phase; its arrivals there, per source
  // CTA.
  std::vector<int64_t> from(sp.ranks, 0);
  std::vector<Operation *> site(n, nullptr);
  for (Operation *visit : c.sites) {
    const llvm::BitVector *ex = model.exec(visit);
    if (!ex)
      return false;
    for (unsigned i = 0; i < n; ++i)
      if (ex->test(i)) {
        if (site[i])
          return false;
        site[i] = visit;
      }
  }
  for (const Signal &sig : c.signals) {
    const llvm::BitVector *ex = model.exec(sig.op);
    if (!ex)
      return false;
    if (!sig.decidedByThread(model))
      return false;
    if (sig.weight != Signal::Weight::Thread)
      return false;
    for (unsigned i = 0; i < n; ++i)
      if (ex->test(i) && site[i] == sig.site)
        from[i / sp.threads] += sig.mult;
  }
  int64_t count = p.init.getConsumerArriveCount();
  int64_t first = from[0];
  std::string expected, others;
  if (cluster) {
    // Every rank of the declared cluster, summed (leader and peer may
    // differ).
    int64_t total = 0;
    for (int64_t a : from)
      total += a;
    if (total == count)
      return false;
    expected = "got " + std::to_string(total) + " in a cluster of " +
               std::to_string(*cluster) + " CTAs (nvvm.cluster_dim)";
    for (unsigned r = 1; r < from.size(); ++r)
      others += (r > 1 ? " + " : "") + std::to_string(from[r]);
    if (from.size() > 1)
      others = " and " + others + " from ranks 1 to " +
               std::to_string(from.size() - 1);
  } else {
    // The CTAs other than rank 0 must behave alike.
    if (from[1] != from[2] || from[1] != from[3])
      return false;
    int64_t other = from[1];
    bool reachable = other == 0
                         ? count == first
                         : count >= first && (count - first) % other == 0;
    if (reachable)
      return false;
    expected = "no cluster size gives it";
    others = " and " + std::to_string(other) +
             " from each other CTA of the "
             "cluster";
  }
  InFlightDiagnostic diag =
      c.signals.front().op->emitError()
      << "expects " << count
      << " arrivals per phase on the empty barriers of cluster rank 0 of "
         "this clc pipeline (init_mbars consumer "
      << count << "), " << expected << ": " << first
      << " consumer arrivals from rank 0" << others
      << " (every consumer signal of a clc pipeline reaches rank 0)";
  diag.attachNote(p.init.getLoc())
      << "arrival count set here (consumer " << count << ")";
  noteDerivedBlock(diag);
  return true;
}

bool ArrivalChecker::run() {
  if (!p.init)
    return false;
  if (p.type.getClc())
    return runClc();
  if (!collect() || c.sites.empty())
    return false;
  int64_t expected = kind == Kind::Full ? p.init.getProducerArriveCount()
                                        : p.init.getConsumerArriveCount();
  if (c.signals.empty()) {
    // Stages visited and waited on, and nothing arrives at any visit: no
    // phase ever completes, whatever the block size (a producer whose TMA
    // loads complete bytes on a barrier that nothing arms or arrives on).
    if (c.waiters.empty() || expected == 0)
      return false;
    bool full = kind == Kind::Full;
    auto diag = c.sites.front()->emitError()
                << "expects " << expected << " arrivals per phase on the "
                << (full ? "full" : "empty")
                << " barriers of this pipeline (init_mbars "
                << (full ? "producer " : "consumer ") << expected
                << "), got 0: no " << (full ? "producer" : "consumer")
                << " visit of a stage arrives";
    if (full)
      diag << " (a TMA load only completes transaction bytes; "
              "pipeline.expect_tx arms them and arrives)";
    diag.attachNote(p.init.getLoc())
        << "arrival count set here (" << (full ? "producer" : "consumer") << " "
        << expected << ")";
    diag.attachNote(c.waiters.front()->getLoc()) << "waits here forever";
    return true;
  }
  if (!block) {
    remarkUncounted();
    return false;
  }
  PipelineType t = p.type;
  groupSize = crossApplies() ? t.getClusterM() * t.getClusterN()
                             : std::max(t.getCtaGroup(), t.getReleaseCtas());
  ThreadSpace sp;
  sp.block = block->dims;
  sp.threads = block->dims[0] * block->dims[1] * block->dims[2];
  sp.ranks = 2 * groupSize;
  ThreadModel model(p.kernel, sp);
  unsigned n = sp.size();
  unsigned g = groupSize;

  // The signals of each visit. Every visit and signal must be understood
  // before any is counted.
  DenseMap<Operation *, SmallVector<const Signal *, 2>> signalsAt;
  for (Operation *site : c.sites) {
    if (!model.exec(site))
      return false;
    signalsAt.try_emplace(site);
  }
  for (const Signal &s : c.signals) {
    if (!model.exec(s.op))
      return false;
    if (!s.decidedByThread(model))
      return false;
    if (s.weight == Signal::Weight::Elect && !model.eval(s.elect))
      return false;
    auto it = signalsAt.find(s.site);
    if (it != signalsAt.end())
      it->second.push_back(&s);
  }

  // Every thread gives the same arrivals at each of its visits: per visit,
  // in turn, per point, the arrivals it gives to each CTA of its group
  // (`row`), against those of the point's first visit (`firstRow`, the
  // visit `chosen`).
  std::vector<int64_t> row(size_t(n) * g), firstRow(size_t(n) * g, 0);
  std::vector<Operation *> chosen(n, nullptr);
  for (Operation *site : c.sites) {
    const llvm::BitVector *visits = model.exec(site);
    if (visits->none())
      continue;
    std::fill(row.begin(), row.end(), 0);
    for (const Signal *signal : signalsAt.find(site)->second) {
      const Signal &s = *signal;
      const llvm::BitVector *ex = model.exec(s.op);
      const ThreadModel::Vals *elect =
          s.weight == Signal::Weight::Elect ? model.eval(s.elect) : nullptr;
      for (unsigned y = 0; y < sp.ranks; ++y) {
        if (s.leaderOnly && y % 2 != 0)
          continue;
        for (unsigned tid = 0; tid < sp.threads; ++tid) {
          unsigned i = sp.point(y, tid);
          if (!ex->test(i))
            continue;
          if (s.weight == Signal::Weight::Elect && !((*elect)[i] & 1))
            continue;
          if (s.weight == Signal::Weight::Warp) {
            // One commit per warp (the lowest executing lane stands for
            // it).
            bool lowest = true;
            for (unsigned u = tid - tid % 32; u < tid; ++u)
              lowest &= !ex->test(sp.point(y, u));
            if (!lowest)
              continue;
          }
          for (unsigned j = 0; j < g; ++j)
            if (reaches(s, y, y - y % g + j))
              row[size_t(i) * g + j] += s.mult;
        }
      }
    }
    for (unsigned i : visits->set_bits()) {
      auto here = row.begin() + size_t(i) * g;
      auto first = firstRow.begin() + size_t(i) * g;
      if (!chosen[i]) {
        chosen[i] = site;
        std::copy(here, here + g, first);
        continue;
      }
      if (!std::equal(here, here + g, first))
        return false;
    }
  }
  std::vector<int64_t> arrivals(sp.ranks, 0);
  for (unsigned i = 0; i < n; ++i) {
    if (!chosen[i])
      continue;
    unsigned y = i / sp.threads;
    for (unsigned j = 0; j < g; ++j)
      arrivals[y - y % g + j] += firstRow[size_t(i) * g + j];
  }
  std::vector<char> waited(sp.ranks, 0);
  for (Operation *w : c.waiters) {
    const llvm::BitVector *ex = model.exec(w);
    if (!ex)
      return false;
    for (unsigned i = 0; i < n; ++i)
      if (ex->test(i))
        waited[i / sp.threads] = 1;
  }
  // The enumerated ranks beyond the first group must behave alike: a
  // kernel that singles out one cluster rank is not understood.
  for (unsigned r = 0; r < g; ++r)
    if (arrivals[r] != arrivals[r + g] || waited[r] != waited[r + g])
      return false;

  for (unsigned r = 0; r < g; ++r) {
    if (!waited[r] || arrivals[r] == expected)
      continue;
    DenseMap<Operation *, unsigned> order = walkOrder(p.kernel);
    SmallVector<const Signal *> sorted;
    for (const Signal &s : c.signals)
      sorted.push_back(&s);
    llvm::stable_sort(sorted, [&](const Signal *a, const Signal *b) {
      return order.lookup(a->op) < order.lookup(b->op);
    });
    SmallVector<std::string> parts;
    SmallVector<Operation *> contributing;
    int64_t total = 0;
    for (const Signal *s : sorted) {
      std::string text = describe(model, *s, r, chosen, total);
      if (text.empty())
        continue;
      parts.push_back(text);
      contributing.push_back(s->op);
    }
    Operation *at =
        contributing.empty() ? sorted.front()->op : contributing.front();
    bool full = kind == Kind::Full;
    auto diag = at->emitError()
                << "expects " << expected << " arrivals per phase on the "
                << (full ? "full" : "empty") << " barriers" << barrierPlace(r)
                << " of this pipeline (init_mbars "
                << (full ? "producer " : "consumer ") << expected << "), got "
                << arrivals[r] << ": ";
    if (parts.empty())
      diag << "its signals run in no thread";
    for (auto [k, text] : llvm::enumerate(parts))
      diag << (k ? " + " : "") << text;
    diag.attachNote(p.init.getLoc())
        << "arrival count set here (" << (full ? "producer" : "consumer") << " "
        << expected << ")";
    for (size_t k = 1; k < contributing.size(); ++k)
      diag.attachNote(contributing[k]->getLoc()) << "also arrives here";
    noteDerivedBlock(diag);
    return true;
  }
  return false;
}

/// The pipeline as a diagnostic names it: by its `name`, else "this
/// pipeline".
static std::string pipelineLabel(CreateOp create) {
  if (auto name = create->getAttrOfType<StringAttr>("name"))
    return "pipeline \"" + name.getValue().str() + "\"";
  return "this pipeline";
}

/// Where the block size stays unknown the counts are not checked: say so
/// once per barrier kind, with how to declare the size.
void ArrivalChecker::remarkUncounted() const {
  if (!remarkUnknown)
    return;
  bool full = kind == Kind::Full;
  p.init.emitRemark() << "arrivals on the " << (full ? "full" : "empty")
                      << " barriers of " << pipelineLabel(p.create)
                      << " not counted: the kernel's block size is unknown "
                         "(declare it with known_block_size, nvvm.reqntid or "
                         "@pm.kernel(block=...))";
}

/// A count checked at the derived block size says so.
void ArrivalChecker::noteDerivedBlock(InFlightDiagnostic &diag) const {
  if (!block || !block->derived)
    return;
  if (block->grows) {
    diag.attachNote(p.kernel->getParentOp()->getLoc())
        << "counted with " << block->dims[0]
        << " threads, the least block the kernel's roles need; no block of "
        << block->dims[0]
        << " to 1024 threads gives every barrier of the kernel its count "
           "either (the kernel declares no block size; declare one with "
           "known_block_size, nvvm.reqntid or @pm.kernel(block=...))";
    return;
  }
  diag.attachNote(p.kernel->getParentOp()->getLoc())
      << "counted with " << block->dims[0]
      << " threads, the least block the kernel's roles need (it declares no "
         "block size; declare one with known_block_size, nvvm.reqntid or "
         "@pm.kernel(block=...) to count at another)";
}

/// A kernel that declares no block size and whose roles grow with the block
/// (every warp but the first consumes): the least whole-warp block, from
/// the least the roles need up to 1024 threads, at which every barrier of
/// every pipeline of the kernel gets its count (or is left undetermined).
/// The host must launch it with such a block; only when there is none is a
/// count an error.
static std::optional<int64_t>
blockGivingTheCounts(ArrayRef<PipelineUses *> pipelines,
                     CheckedBlockSize least) {
  if (pipelines.empty())
    return std::nullopt;
  MLIRContext *ctx = pipelines.front()->create->getContext();
  for (int64_t threads = least.dims[0]; threads <= 1024; threads += 32) {
    ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
    CheckedBlockSize at = least;
    at.dims = {threads, 1, 1};
    bool all = llvm::all_of(pipelines, [&](PipelineUses *p) {
      return llvm::none_of(std::array{Kind::Full, Kind::Empty}, [&](Kind kind) {
        ArrivalChecker probe(*p, kind, at, /*remarkUnknown=*/false);
        return probe.run();
      });
    });
    if (all)
      return threads;
  }
  return std::nullopt;
}

/// The pipelines of `root` by kernel, in program order.
static llvm::MapVector<Region *, SmallVector<PipelineUses *>>
byKernel(MutableArrayRef<PipelineUses> pipelines) {
  llvm::MapVector<Region *, SmallVector<PipelineUses *>> kernels;
  for (PipelineUses &p : pipelines)
    kernels[p.kernel].push_back(&p);
  return kernels;
}

LogicalResult pmlir::verifyArrivalCounts(Operation *root) {
  bool failed = false;
  SmallVector<PipelineUses> pipelines = collectPipelines(root);
  for (auto &[kernel, uses] : byKernel(pipelines)) {
    // The block size, derived once per kernel; with it unknown, whether the
    // roles are functions of the thread (the size alone is missing: say
    // so).
    bool threadRoles = false;
    std::optional<CheckedBlockSize> block;
    if (kernel)
      block = checkedBlockSize(kernel, &threadRoles);
    if (block && block->derived && block->grows &&
        blockGivingTheCounts(uses, *block))
      continue;
    for (PipelineUses *p : uses)
      for (Kind kind : {Kind::Full, Kind::Empty}) {
        ArrivalChecker checker(*p, kind, block, !block && threadRoles);
        failed |= checker.run();
      }
  }
  return failure(failed);
}

std::optional<int64_t> pmlir::leastCountedBlockSize(Region *kernel) {
  std::optional<CheckedBlockSize> block = checkedBlockSize(kernel);
  if (!block || !block->derived)
    return std::nullopt;
  if (!block->grows)
    return block->dims[0];
  SmallVector<PipelineUses> pipelines = collectPipelines(kernel->getParentOp());
  SmallVector<PipelineUses *> uses;
  for (PipelineUses &p : pipelines)
    if (p.kernel == kernel)
      uses.push_back(&p);
  if (std::optional<int64_t> threads = blockGivingTheCounts(uses, *block))
    return threads;
  return block->dims[0];
}

//===----------------------------------------------------------------------===//
// Rule 2: expect_tx bytes
//===----------------------------------------------------------------------===//

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
  ThreadSpace sp;
  sp.ranks = 16;
  ThreadModel model(kernel, sp);
  if (model.mayVary(mask))
    return std::nullopt;
  const ThreadModel::Vals *m = model.eval(mask);
  if (!m)
    return std::nullopt;
  std::optional<int64_t> count;
  for (unsigned y = 0; y < 16; ++y) {
    uint64_t bits = uint64_t((*m)[y]) & 0xffff;
    if (!(bits & (uint64_t(1) << y)))
      return std::nullopt;
    int64_t n = llvm::popcount(bits);
    if (count && *count != n)
      return std::nullopt;
    count = n;
    for (unsigned z = 0; z < 16; ++z)
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

//===----------------------------------------------------------------------===//
// Rule 3: trip counts
//===----------------------------------------------------------------------===//

namespace {

/// A loop whose trip count is not a constant nor affine in values the
/// kernel computes: a symbol of the item counts.
struct LoopSymbol {
  Value lb, ub, step;
  bool isUnsigned;
  bool operator==(const LoopSymbol &o) const {
    return lb == o.lb && ub == o.ub && step == o.step &&
           isUnsigned == o.isUnsigned;
  }
};

/// A symbol of the item counts: a value the trip counts are affine in (a
/// kernel argument, a loaded or computed value), or an opaque loop.
struct Atom {
  Value value;
  std::optional<LoopSymbol> loop;
  bool operator==(const Atom &o) const {
    return value == o.value && loop == o.loop;
  }
};

/// Items moved by a role: a sum of monomials (coefficient x product of
/// atoms, sorted atom ids; the empty product is the constant term).
using Poly = std::map<SmallVector<unsigned>, int64_t>;

/// An affine expression of values: coefficients by value, and a constant.
struct Affine {
  llvm::MapVector<Value, int64_t> coeffs;
  int64_t constant = 0;
  void add(const Affine &o, int64_t scale) {
    for (auto [v, c] : o.coeffs)
      coeffs[v] += scale * c;
    constant += scale * o.constant;
  }
};

/// One visit site of a role and what its count is made of.
struct VisitCount {
  Operation *site;
  Operation *outerLoop = nullptr; // outermost loop around it
  Poly count;
  /// The scf.if / scf.index_switch regions it sits in.
  SmallVector<Region *> guards;
};

class TripCounter {
public:
  explicit TripCounter(Region *kernel) : kernel(kernel) {}
  std::optional<VisitCount> count(Operation *site);
  std::string format(const Poly &poly, AsmState &state);
  const Atom &atom(unsigned id) const { return atoms[id]; }

  Affine affineOf(Value v, unsigned depth = 0);
  /// True when atom `id` is positive whenever the loops run: a loop of its
  /// own, or a value that is the whole span (ub - lb) of a counted loop.
  bool positive(unsigned id) const { return positives.contains(id); }

private:
  unsigned atomFor(Atom a);
  Value canonical(Value v);
  Poly tripCount(scf::ForOp loop);
  Region *kernel;
  SmallVector<Atom> atoms;
  /// The atom of each value and of each opaque loop (its bounds, step and
  /// signedness): the ids of `atoms`.
  DenseMap<Value, unsigned> valueAtoms;
  std::map<std::tuple<void *, void *, void *, bool>, unsigned> loopAtoms;
  DenseSet<unsigned> positives;
  DenseMap<Value, Affine> affineMemo;
  /// The values `canonical` has seen, by the hash of their op.
  DenseMap<llvm::hash_code, SmallVector<Value, 1>> computed;
};

} // namespace

unsigned TripCounter::atomFor(Atom a) {
  unsigned next = atoms.size();
  bool inserted;
  unsigned id;
  if (a.loop) {
    const LoopSymbol &l = *a.loop;
    auto [it, added] = loopAtoms.try_emplace(
        std::make_tuple(l.lb.getAsOpaquePointer(), l.ub.getAsOpaquePointer(),
                        l.step.getAsOpaquePointer(), l.isUnsigned),
        next);
    inserted = added;
    id = it->second;
  } else {
    auto [it, added] = valueAtoms.try_emplace(a.value, next);
    inserted = added;
    id = it->second;
  }
  if (inserted)
    atoms.push_back(a);
  return id;
}

/// `v` as an affine expression: sums, differences and constant multiples of
/// other values, through integer casts (n + 1, n - 2, 4 * n, n * 4 + k);
/// anything else is a value of its own. Memoized: bounds share
/// subexpressions.
Affine TripCounter::affineOf(Value v, unsigned depth) {
  auto it = affineMemo.find(v);
  if (it != affineMemo.end())
    return it->second;
  Affine e;
  Operation *op = v.getDefiningOp();
  if (std::optional<int64_t> c = constantInt(v)) {
    e.constant = *c;
  } else if (op && depth < 16 &&
             isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                 arith::ExtUIOp, arith::TruncIOp>(op)) {
    e = affineOf(op->getOperand(0), depth + 1);
  } else if (op && depth < 16 && isa<arith::AddIOp, arith::SubIOp>(op)) {
    e = affineOf(op->getOperand(0), depth + 1);
    e.add(affineOf(op->getOperand(1), depth + 1),
          isa<arith::AddIOp>(op) ? 1 : -1);
  } else {
    std::optional<int64_t> c;
    Value other;
    if (op && depth < 16 && isa<arith::MulIOp, arith::ShLIOp>(op)) {
      c = constantInt(op->getOperand(1));
      other = op->getOperand(0);
      if (!c && isa<arith::MulIOp>(op)) {
        c = constantInt(op->getOperand(0));
        other = op->getOperand(1);
      }
      if (c && isa<arith::ShLIOp>(op))
        c = *c >= 0 && *c < 32 ? std::optional<int64_t>(int64_t(1) << *c)
                               : std::nullopt;
    }
    if (c)
      e.add(affineOf(other, depth + 1), *c);
    else
      e.coeffs[canonical(v)] = 1;
  }
  affineMemo[v] = e;
  return e;
}

/// The first value seen that an op computes the same way as `v` (the same
/// op, attributes and operands: a bound each role computes in its own
/// branch), else `v`.
Value TripCounter::canonical(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumRegions() || op->getNumResults() != 1 ||
      !isMemoryEffectFree(op))
    return v;
  // Ops equivalent to `op` hash alike: only those are compared.
  llvm::hash_code hash = OperationEquivalence::computeHash(
      op, OperationEquivalence::directHashValue,
      OperationEquivalence::ignoreHashValue,
      OperationEquivalence::IgnoreLocations);
  SmallVector<Value, 1> &seenAlike = computed[hash];
  for (Value seen : seenAlike)
    if (seen == v ||
        OperationEquivalence::isEquivalentTo(
            seen.getDefiningOp(), op, OperationEquivalence::IgnoreLocations))
      return seen;
  seenAlike.push_back(v);
  return v;
}

/// The trip count of `loop` as a polynomial: a constant, an affine
/// function of values when (ub - lb) is affine with every term divisible by
/// the constant step (loops are taken to run when counted: ub >= lb), else
/// the loop as an opaque atom.
Poly TripCounter::tripCount(scf::ForOp loop) {
  Poly p;
  if (std::optional<int64_t> trip = constantTripCount(loop)) {
    p[{}] = *trip;
    return p;
  }
  std::optional<int64_t> step = constantInt(loop.getStep());
  if (step && *step > 0) {
    Affine span = affineOf(loop.getUpperBound());
    span.add(affineOf(loop.getLowerBound()), -1);
    bool divisible = span.constant % *step == 0;
    for (auto [v, c] : span.coeffs)
      divisible &= c % *step == 0;
    if (divisible) {
      if (span.constant)
        p[{}] = span.constant / *step;
      unsigned terms = 0, last = 0;
      for (auto [v, c] : span.coeffs)
        if (c) {
          last = atomFor(Atom{v, std::nullopt});
          p[{last}] += c / *step;
          ++terms;
        }
      // A loop over lb .. %n + c (c <= 0) runs only when %n is positive.
      if (terms == 1 && p[{last}] > 0 && span.constant <= 0)
        positives.insert(last);
      return p;
    }
  }
  unsigned id = atomFor(
      Atom{Value(), LoopSymbol{loop.getLowerBound(), loop.getUpperBound(),
                               loop.getStep(), loop.getUnsignedCmp()}});
  positives.insert(id);
  p[{id}] = 1;
  return p;
}

/// The product of two polynomials.
static Poly multiply(const Poly &a, const Poly &b) {
  Poly out;
  for (auto &[sa, ca] : a)
    for (auto &[sb, cb] : b) {
      SmallVector<unsigned> syms(sa);
      syms.append(sb.begin(), sb.end());
      llvm::sort(syms);
      out[syms] += ca * cb;
    }
  return out;
}

std::optional<VisitCount> TripCounter::count(Operation *site) {
  VisitCount vc;
  vc.site = site;
  vc.count[{}] = 1;
  for (Operation *op = site; op->getParentRegion() != kernel;) {
    Region *region = op->getParentRegion();
    Operation *parent = region->getParentOp();
    if (!parent || !op->getBlock()->isEntryBlock() || !region->hasOneBlock())
      return std::nullopt;
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      vc.count = multiply(vc.count, tripCount(loop));
      vc.outerLoop = loop;
    } else if (isa<scf::IfOp, scf::IndexSwitchOp>(parent)) {
      // The condition must stay the same for a thread over the loops
      // around it (a warp role, a lane), or the count depends on it.
      Value cond = isa<scf::IfOp>(parent)
                       ? Value(cast<scf::IfOp>(parent).getCondition())
                       : Value(cast<scf::IndexSwitchOp>(parent).getArg());
      Operation *defAt = cond.getDefiningOp()
                             ? cond.getDefiningOp()
                             : cond.getParentBlock()->getParentOp();
      for (Operation *loop = parent->getParentOp(); loop;
           loop = loop->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(loop) && loop->isAncestor(defAt))
          return std::nullopt;
      vc.guards.push_back(region);
    } else if (!isa<scf::ExecuteRegionOp>(parent) &&
               !parent->hasTrait<ScopedStage>()) {
      return std::nullopt;
    }
    op = parent;
  }
  return vc;
}

static std::string operandName(Value v, AsmState &state) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (std::optional<int64_t> c = constantInt(v))
    os << *c;
  else
    v.printAsOperand(os, state);
  return s;
}

std::string TripCounter::format(const Poly &poly, AsmState &state) {
  std::string out;
  bool first = true;
  for (auto &[syms, coeff] : poly) {
    if (coeff == 0)
      continue;
    if (!first)
      out += coeff < 0 ? " - " : " + ";
    else if (coeff < 0)
      out += "-";
    first = false;
    int64_t magnitude = coeff < 0 ? -coeff : coeff;
    SmallVector<std::string> factors;
    if (magnitude != 1 || syms.empty())
      factors.push_back(std::to_string(magnitude));
    for (unsigned id : syms) {
      const Atom &a = atoms[id];
      if (!a.loop) {
        factors.push_back(operandName(a.value, state));
        continue;
      }
      const LoopSymbol &sym = *a.loop;
      std::string lb = operandName(sym.lb, state);
      std::string ub = operandName(sym.ub, state);
      std::string step = operandName(sym.step, state);
      std::string f;
      if (lb == "0" && step == "1")
        f = ub;
      else if (step == "1")
        f = "(" + ub + " - " + lb + ")";
      else if (lb == "0")
        f = "ceildiv(" + ub + ", " + step + ")";
      else
        f = "ceildiv(" + ub + " - " + lb + ", " + step + ")";
      factors.push_back(f);
    }
    out += llvm::join(factors, " x ");
  }
  return first ? "0" : out;
}

static void addTo(Poly &poly, const VisitCount &vc, int64_t sign) {
  for (auto &[syms, coeff] : vc.count)
    poly[syms] += sign * coeff;
}

/// True when `poly` is nonzero whenever every loop runs at least once: all
/// its coefficients are of one sign and each of its atoms is positive then
/// (a value whose sign is not known, a negative lower bound, is not).
static bool definiteSign(const Poly &poly, const TripCounter &counter) {
  bool pos = false, neg = false;
  for (auto &[syms, coeff] : poly) {
    pos |= coeff > 0;
    neg |= coeff < 0;
    for (unsigned id : syms)
      if (!counter.positive(id))
        return false;
  }
  return pos != neg;
}

/// True when the only difference is one loop over the same bounds with
/// constant steps, one a multiple of the other: the counts differ whenever
/// the loop with the smaller step runs more than once.
static bool differentSteps(const Poly &prod, const Poly &cons,
                           TripCounter &counter) {
  if (prod.size() != 1 || cons.size() != 1)
    return false;
  auto &[ps, pc] = *prod.begin();
  auto &[cs, cc] = *cons.begin();
  if (pc != cc || pc == 0 || ps.size() != cs.size())
    return false;
  SmallVector<unsigned> onlyP, onlyC;
  std::set_difference(ps.begin(), ps.end(), cs.begin(), cs.end(),
                      std::back_inserter(onlyP));
  std::set_difference(cs.begin(), cs.end(), ps.begin(), ps.end(),
                      std::back_inserter(onlyC));
  if (onlyP.size() != 1 || onlyC.size() != 1)
    return false;
  // Loops over the same bounds: opaque loops, or a loop of step 1 whose
  // count is its upper bound (lower bound 0) against an opaque loop.
  auto bounds = [&](unsigned id) -> std::optional<LoopSymbol> {
    const Atom &a = counter.atom(id);
    if (a.loop)
      return a.loop;
    return std::nullopt;
  };
  std::optional<LoopSymbol> a = bounds(onlyP.front()),
                            b = bounds(onlyC.front());
  std::optional<int64_t> sa, sb;
  Value lbA, ubA, lbB, ubB;
  auto describe = [&](unsigned id, std::optional<LoopSymbol> loop,
                      std::optional<int64_t> &step, Value &lb, Value &ub) {
    if (loop) {
      step = constantInt(loop->step);
      lb = loop->lb;
      ub = loop->ub;
    } else {
      step = 1;
      ub = counter.atom(id).value;
    }
  };
  describe(onlyP.front(), a, sa, lbA, ubA);
  describe(onlyC.front(), b, sb, lbB, ubB);
  auto zeroOrNone = [](Value lb) {
    std::optional<int64_t> c = lb ? constantInt(lb) : std::optional<int64_t>(0);
    return c && *c == 0;
  };
  bool sameLb = (lbA && lbB) ? lbA == lbB : zeroOrNone(lbA) && zeroOrNone(lbB);
  Affine ubDiff = counter.affineOf(ubA);
  ubDiff.add(counter.affineOf(ubB), -1);
  bool sameUb =
      ubDiff.constant == 0 &&
      llvm::all_of(ubDiff.coeffs, [](auto &e) { return e.second == 0; });
  if (!sameLb || !sameUb)
    return false;
  if (a && b && a->isUnsigned != b->isUnsigned)
    return false;
  if (!sa || !sb || *sa <= 0 || *sb <= 0 || *sa == *sb)
    return false;
  return std::max(*sa, *sb) % std::min(*sa, *sb) == 0;
}

static bool checkTripCounts(PipelineUses &p) {
  SmallVector<Operation *> sites[2];
  for (Operation *user : p.users) {
    if (isItemSite(user, Role::producer))
      sites[0].push_back(user);
    else if (isItemSite(user, Role::consumer))
      sites[1].push_back(user);
  }
  if (sites[0].empty() || sites[1].empty())
    return false;
  TripCounter counter(p.kernel);
  Poly polys[2];
  SmallVector<VisitCount> counts[2];
  for (unsigned role = 0; role < 2; ++role) {
    for (Operation *site : sites[role]) {
      std::optional<VisitCount> vc = counter.count(site);
      if (!vc)
        return false;
      // Every visit of a role must be made by the same threads: sites
      // under different conditions may be taken by different threads, or
      // by one thread in turn.
      if (!counts[role].empty() && counts[role].front().guards != vc->guards)
        return false;
      addTo(polys[role], *vc, 1);
      counts[role].push_back(*vc);
    }
  }
  Poly diff = polys[0];
  for (auto &[syms, coeff] : polys[1])
    diff[syms] -= coeff;
  for (auto it = diff.begin(); it != diff.end();)
    it = it->second == 0 ? diff.erase(it) : std::next(it);
  for (Poly &poly : polys)
    for (auto it = poly.begin(); it != poly.end();)
      it = it->second == 0 ? poly.erase(it) : std::next(it);
  if (diff.empty())
    return false;
  bool steps = false;
  if (!definiteSign(diff, counter)) {
    steps = differentSteps(polys[0], polys[1], counter);
    if (!steps)
      return false;
  }

  Operation *funcOp = p.kernel->getParentOp();
  AsmState state(funcOp);
  std::string made = counter.format(polys[0], state);
  std::string taken = counter.format(polys[1], state);
  auto diag = p.create.emitError()
              << "expects the producer and the consumer of this pipeline to "
                 "move the same number of items, got: the producer makes "
              << made << (made == "1" ? " item" : " items")
              << ", the consumer takes " << taken;
  if (steps) {
    diag << ": over the same bounds with different steps, they differ "
            "whenever the loop with the smaller step runs more than once";
  } else {
    bool consumerWaits = false;
    for (auto &[syms, coeff] : diff)
      consumerWaits = coeff < 0;
    if (consumerWaits)
      diag << ": the consumer waits for the rest forever";
    else
      diag << ": the rest are never consumed, and the producer waits for "
              "their stages to be freed forever";
    if (llvm::any_of(diff, [](auto &entry) { return !entry.first.empty(); }))
      diag << " (whenever the loops run)";
  }
  for (unsigned role = 0; role < 2; ++role)
    for (VisitCount &vc : counts[role]) {
      Poly one;
      addTo(one, vc, 1);
      std::string text = counter.format(one, state);
      Operation *at = vc.outerLoop ? vc.outerLoop : vc.site;
      diag.attachNote(at->getLoc())
          << (role == 0 ? "the producer makes " : "the consumer takes ") << text
          << (text == "1" ? " item" : " items") << " here";
    }
  return true;
}

LogicalResult pmlir::verifyTripCounts(Operation *root) {
  bool failed = false;
  for (PipelineUses &p : collectPipelines(root))
    failed |= checkTripCounts(p);
  return failure(failed);
}

//===----------------------------------------------------------------------===//
// Rule 4: drain before the exit
//===----------------------------------------------------------------------===//

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

LogicalResult pmlir::verifyPipelineProtocol(Operation *root) {
  if (failed(verifyPipelineInit(root)))
    return failure();
  bool failed = false;
  failed |= mlir::failed(verifyArrivalCounts(root));
  failed |= mlir::failed(verifyExpectTxBytes(root));
  failed |= mlir::failed(verifyTripCounts(root));
  failed |= mlir::failed(verifyDrainAtExit(root));
  failed |= mlir::failed(verifyMmaElection(root));
  failed |= mlir::failed(verifyClcIssue(root));
  failed |= mlir::failed(verifyRolePlacement(root));
  failed |= mlir::failed(verifyTensorMemory(root));
  return failure(failed);
}
