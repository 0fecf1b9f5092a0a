//===- ArrivalCounts.cpp - arrivals per phase on the stage barriers -------===//
//
// verifyArrivalCounts: the arrivals per phase on a pipeline's `full`
// (producer) and `empty` (consumer) barriers equal the counts of its
// pipeline.init_mbars, in every CTA that waits on them, with the signals
// that reach it from the other CTAs of a pair, a release_ctas group or a
// multicast cluster; a clc pipeline's consumers count on cluster rank 0's
// empty barriers, from every CTA of the cluster. One arrival too many
// completes a phase while a signaller is still behind (silent
// corruption), one too few never completes it (a hang).
//
// Decided by the thread model (ProtocolUtils.h) at the kernel's block
// size, declared or else the least the kernel's roles need
// (LaunchContract.h); leastCountedBlockSize gives the least block at which
// every barrier of a kernel whose roles grow with the block gets its
// count. Silent where the signalling threads are not a function of the
// thread.
//
// Diagnostics: an error at the first arriving op (the count expected, the
// arrivals got and what each signal contributes, or "got 0" at the first
// visit with a note at a waiter), notes at the init_mbars, at every other
// arriving op and at the kernel when the block size was derived; a remark
// at the init_mbars for each barrier left uncounted because the block size
// is unknown.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/LaunchContract.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"

#include <array>
#include <map>
#include <string>

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

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
