//===- Scheduler.cpp - mbarriers, completions, schedules, findings *- C++
//-*-===//

#include "Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

//===----------------------------------------------------------------------===//
// Barriers
//===----------------------------------------------------------------------===//

void Machine::wakeBarrier(uint64_t key) {
  for (Thread &t : threads)
    if (t.status == Status::Blocked && t.waitBarrier == key) {
      t.status = Status::Runnable;
      t.waitBarrier = ~0ull;
    }
}

void Machine::maybeComplete(unsigned cta, uint64_t offset,
                            const std::string &by) {
  Barrier &b = barrierAt(cta, offset);
  if (b.pending <= 0 && b.tx == 0) {
    ++b.phases;
    b.pending += b.expected;
    record({0, ~size_t(0), TraceEntry::Phase, cta, offset, 0, b.phases, 0});
    // A thread whose parity wait blocked for phase k, woken when k
    // completed, has not polled the barrier again, and phase k + 1
    // completes: the barrier's parity is that of k again, so the thread's
    // wait sees its phase incomplete (the parity aliases). Nothing ordered
    // the second completion after the waiter's observation of the first:
    // an over-arrival, or a producer that runs a lap ahead.
    uint64_t key = barrierKey(cta, offset);
    if (!b.overrunReported && b.phases >= 2)
      for (const Thread &t : threads)
        if (t.observeBarrier == key && t.observePhase + 2 == b.phases) {
          b.overrunReported = true;
          finding("phase-overrun",
                  formatv("mbarrier {0} of {1} completes phase {2} ({3}) "
                          "before thread {4} of {5}, which waited for "
                          "phase {6} (parity {7}) at PTX line {8}, observed "
                          "that phase: its wait for parity {7} now sees an "
                          "incomplete phase (the phases alias)",
                          barrierName(offset), describeCta(cta), b.phases - 1,
                          by, t.tid, describeCta(t.cta), t.observePhase,
                          t.observePhase & 1, t.observeLine));
          break;
        }
    wakeBarrier(key);
  }
}

void Machine::arrive(unsigned cta, uint64_t offset, int64_t count, Thread *from,
                     const Instr *in, const std::string &what) {
  Barrier &b = barrierAt(cta, offset);
  if (ctaExited(cta))
    finding("exited-cta-target",
            formatv("an arrival on mbarrier {0} of {1}, which has exited{2}",
                    barrierName(offset), describeCta(cta),
                    in ? " (" + where(*in) + ")" : std::string()));
  if (!b.initialized) {
    finding("uninitialized-barrier",
            formatv("arrive on mbarrier {0} of {1}, which is not "
                    "initialized{2}",
                    barrierName(offset), describeCta(cta),
                    in ? " (" + where(*in) + ")" : std::string()));
    return;
  }
  b.pending -= count;
  record(
      {0, from ? size_t(from->cta) * threadsPerCta() + from->tid : ~size_t(0),
       TraceEntry::Arrive, cta, offset, count, b.phases, in ? in->ptxLine : 0});
  maybeComplete(cta, offset,
                from && in
                    ? formatv("the arrival of thread {0} of {1} at {2}",
                              from->tid, describeCta(from->cta), where(*in))
                          .str()
                : !what.empty() ? what
                                : std::string("an arrival"));
}

void Machine::completeTx(unsigned cta, uint64_t offset, int64_t bytes,
                         const std::string &what) {
  Barrier &b = barrierAt(cta, offset);
  if (ctaExited(cta))
    finding("exited-cta-target",
            formatv("{0} completes {1} bytes on mbarrier {2} of {3}, which "
                    "has exited",
                    what, bytes, barrierName(offset), describeCta(cta)));
  if (!b.initialized) {
    finding("uninitialized-barrier",
            formatv("{0} completes bytes on mbarrier {1} of {2}, which is "
                    "not initialized",
                    what, barrierName(offset), describeCta(cta)));
    return;
  }
  b.tx -= bytes;
  record({0, ~size_t(0), TraceEntry::Bytes, cta, offset, bytes, b.phases, 0});
  maybeComplete(cta, offset, what);
}

bool Machine::fireEvents(bool all) {
  bool fired = false;
  std::deque<Event> later;
  while (!events.empty()) {
    Event e = events.front();
    events.pop_front();
    bool due = all || e.due <= round;
    if (options.random && !all)
      due = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    if (!due) {
      later.push_back(e);
      continue;
    }
    fired = true;
    land(e);
  }
  events = std::move(later);
  return fired;
}

void Machine::step(Thread &t, unsigned budget) {
  for (unsigned i = 0; i < budget && t.status == Status::Runnable; ++i)
    if (!execute(t))
      break;
}

void Machine::checkVisible(Thread &t, unsigned cta, uint64_t offset,
                           const Instr &in) {
  Barrier &b = barrierAt(cta, offset);
  size_t self = size_t(t.cta) * threadsPerCta() + t.tid;
  if (b.visibilityReported || b.initThread == self ||
      b.initThread == ~size_t(0))
    return;
  unsigned first = ctaOfRank(cta, 0);
  bool visible;
  if (t.cta == cta)
    visible = ctaEpoch[cta] > b.initCtaEpoch ||
              clusterEpoch[first] > b.initClusterEpoch;
  else
    visible = b.fenceClusterEpoch != ~0ull &&
              clusterEpoch[first] > b.fenceClusterEpoch;
  if (visible)
    return;
  b.visibilityReported = true;
  finding("init-not-visible",
          formatv("thread {0} of {1} uses mbarrier {2} of {3} at {4} before "
                  "its init is {5}",
                  t.tid, describeCta(t.cta), barrierName(offset),
                  describeCta(cta), where(in),
                  t.cta == cta
                      ? "followed by a CTA barrier (bar.sync) or cluster "
                        "barrier"
                      : "fenced (fence.mbarrier_init) and followed by a "
                        "cluster barrier"));
}

std::string Machine::formatTrace() const {
  // Oldest first; runs of the same event by consecutive threads (the lanes
  // of a warp) are one line; the last 16 lines are shown.
  std::vector<const TraceEntry *> order;
  for (size_t i = 0; i < trace.size(); ++i)
    order.push_back(&trace[(traceNext + i) % trace.size()]);
  auto same = [](const TraceEntry &a, const TraceEntry &b) {
    return a.round == b.round && a.kind == b.kind && a.cta == b.cta &&
           a.offset == b.offset && a.value == b.value && a.phases == b.phases &&
           a.ptxLine == b.ptxLine && a.thread != ~size_t(0) &&
           b.thread == a.thread + 1;
  };
  std::vector<std::string> lines;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && same(*order[j], *order[j + 1]))
      ++j;
    const TraceEntry &e = *order[i];
    std::string who;
    if (e.thread == ~size_t(0))
      who = "async";
    else {
      unsigned first = unsigned(e.thread % threadsPerCta());
      std::string cta = describeCta(unsigned(e.thread / threadsPerCta()));
      who = i == j ? formatv("thread {0} of {1}", first, cta).str()
                   : formatv("threads {0}-{1} of {2}", first,
                             first + unsigned(j - i), cta)
                         .str();
    }
    std::string bar = barrierName(e.offset) + " of " + describeCta(e.cta);
    std::string what;
    switch (e.kind) {
    case TraceEntry::Init:
      what = formatv("init {0} (count {1})", bar, e.value).str();
      break;
    case TraceEntry::Arrive:
      what = formatv("arrive x{0} on {1} (phase {2})", e.value, bar, e.phases)
                 .str();
      break;
    case TraceEntry::ExpectTx:
      what = formatv("expect_tx {0} bytes on {1} (phase {2})", e.value, bar,
                     e.phases)
                 .str();
      break;
    case TraceEntry::Bytes:
      what =
          formatv("{0} bytes land on {1} (phase {2})", e.value, bar, e.phases)
              .str();
      break;
    case TraceEntry::Phase:
      what = formatv("{0} completes phase {1}", bar, e.phases - 1).str();
      break;
    case TraceEntry::Block:
      what = formatv("waits on {0} for parity {1} (completed phases {2})", bar,
                     e.value, e.phases)
                 .str();
      break;
    }
    lines.push_back(formatv("round {0}: {1}: {2}{3}", e.round, who, what,
                            e.ptxLine
                                ? formatv(" (PTX line {0})", e.ptxLine).str()
                                : std::string())
                        .str());
    i = j + 1;
  }
  std::string out = "the last barrier events:";
  for (size_t i = lines.size() > 16 ? lines.size() - 16 : 0; i < lines.size();
       ++i)
    out += "\n    " + lines[i];
  return out;
}

/// Barriers left with transaction bytes that were delivered but never
/// armed (a phase took fewer bytes than were sent, completed early, and the
/// rest counted against the next phase) or armed but never delivered.
void Machine::reportUnbalancedBytes() {
  for (auto &[key, b] : barriers) {
    if (!b.initialized || b.tx == 0)
      continue;
    unsigned cta = unsigned(key >> 40);
    uint64_t offset = key & ((1ull << 40) - 1);
    if (b.tx < 0)
      finding("excess-bytes",
              formatv("{0} transaction bytes completed on mbarrier {1} of "
                      "{2} beyond the bytes its phases armed (after {3} "
                      "phases): a phase took fewer bytes than were sent "
                      "(expect_tx short) and completed early",
                      -b.tx, barrierName(offset), describeCta(cta), b.phases));
    else
      finding("missing-bytes",
              formatv("{0} transaction bytes armed on mbarrier {1} of {2} "
                      "never arrived (after {3} phases)",
                      b.tx, barrierName(offset), describeCta(cta), b.phases));
  }
}

/// At the end of a kernel that ran to its end, every phase of every
/// barrier got exactly its count: arrivals left in a phase that never
/// completed are arrivals beyond the count of the phases before (a signal
/// too many) or a phase left short (its waiters were gone).
void Machine::reportTmemLeaks() {
  for (unsigned c = 0; c < ctaCount(); ++c)
    if (tmem[c] == TmemState::Allocated)
      finding("tmem-leak",
              formatv("{0} exited with its tensor memory allocated (no "
                      "tcgen05.dealloc): the next CTA on its SM waits in "
                      "tcgen05.alloc forever",
                      describeCta(c)));
}

void Machine::reportPartialPhases() {
  for (auto &[key, b] : barriers) {
    if (!b.initialized || b.pending == int64_t(b.expected))
      continue;
    unsigned cta = unsigned(key >> 40);
    uint64_t offset = key & ((1ull << 40) - 1);
    finding("partial-phase",
            formatv("mbarrier {0} of {1} ended with {2} of the {3} arrivals "
                    "of its phase {4} (after {4} complete phases): a signal "
                    "beyond the arrivals its phases count, or a phase left "
                    "short",
                    barrierName(offset), describeCta(cta),
                    int64_t(b.expected) - b.pending, b.expected, b.phases));
  }
}

void Machine::reportDeadlock() {
  // Group the blocked threads by what they wait for.
  std::map<std::string, std::vector<const Thread *>> groups;
  for (const Thread &t : threads) {
    if (t.status == Status::Exited)
      continue;
    std::string what = t.status == Status::AtCollective
                           ? "'" + kernel.code[t.pc].opcode + "' at " +
                                 where(kernel.code[t.pc])
                           : t.waitWhat;
    if (std::string held = tcgen05Waits(t); !held.empty())
      what = held;
    // A barrier wait: the barrier's state now, not when the thread blocked.
    auto b = barriers.find(t.waitBarrier);
    if (t.status == Status::Blocked && b != barriers.end() &&
        b->second.initialized && t.pc < kernel.code.size()) {
      unsigned cta = unsigned(t.waitBarrier >> 40);
      uint64_t offset = t.waitBarrier & ((1ull << 40) - 1);
      const Barrier &bar = b->second;
      what = formatv("mbarrier {0} of {1}: waits for the phase of parity {2} "
                     "(completed phases {3}, {4} of {5} arrivals pending, {6} "
                     "transaction bytes pending) at {7}",
                     barrierName(offset), describeCta(cta), t.waitParity,
                     bar.phases, bar.pending, bar.expected, bar.tx,
                     where(kernel.code[t.pc]))
                 .str();
    }
    groups[what].push_back(&t);
  }
  std::string message = "every live thread is blocked:";
  for (auto &[what, ts] : groups) {
    std::set<unsigned> ctas, warps;
    for (const Thread *t : ts) {
      ctas.insert(t->cta);
      warps.insert(t->tid / 32);
    }
    std::string where;
    if (ctas.size() == 1)
      where = describeCta(*ctas.begin());
    else
      where = formatv("{0} CTAs", ctas.size()).str();
    std::string warpList;
    for (unsigned w : warps)
      warpList += (warpList.empty() ? "" : ",") + std::to_string(w);
    message += formatv("\n  {0} thread(s) of {1}, warp(s) {2}: {3}", ts.size(),
                       where, warpList, what)
                   .str();
  }
  if (!trace.empty())
    message += "\n  " + formatTrace();
  finding("deadlock", message);
}

bool Machine::launchPending() {
  if (!launch.residentClusters)
    return false;
  unsigned running = 0;
  size_t next = clusters.size();
  for (size_t i = 0; i < clusters.size(); ++i) {
    if (clusterState[i] == ClusterState::Pending) {
      next = std::min(next, i);
      continue;
    }
    if (clusterState[i] != ClusterState::Launched)
      continue;
    for (unsigned r = 0; r < clusterSize(); ++r)
      if (!ctaExited(ctaOfRank(clusters[i], r))) {
        ++running;
        break;
      }
  }
  if (running >= launch.residentClusters || next == clusters.size())
    return false;
  clusterState[next] = ClusterState::Launched;
  for (unsigned r = 0; r < clusterSize(); ++r)
    for (unsigned k = 0; k < threadsPerCta(); ++k)
      threads[size_t(ctaOfRank(clusters[next], r)) * threadsPerCta() + k]
          .status = Status::Runnable;
  return true;
}

SimResult Machine::run() {
  std::vector<size_t> order(threads.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  while (true) {
    ++round;
    bool progress = false;
    if (options.random)
      std::shuffle(order.begin(), order.end(), rng);
    for (size_t i : order) {
      Thread &t = threads[i];
      if (aborted)
        break;
      if (t.status != Status::Runnable)
        continue;
      unsigned budget =
          options.random
              ? std::uniform_int_distribution<unsigned>(1, options.quantum)(rng)
              : options.quantum;
      uint64_t before = result.instructions;
      step(t, budget);
      progress |= result.instructions != before;
    }
    if (aborted) {
      reportHangRecord();
      break;
    }
    progress |= resolveCollectives();
    progress |= fireEvents(false);
    progress |= launchPending();
    for (auto &[key, nb] : bars)
      progress |= checkBar(key.first, key.second);
    if (result.instructions > options.maxSteps) {
      finding("step-limit",
              formatv("stopped after {0} instructions", result.instructions));
      break;
    }
    if (progress)
      continue;
    // Nothing ran: let every pending completion land, then judge.
    if (!events.empty()) {
      fireEvents(true);
      continue;
    }
    bool allExited = llvm::all_of(
        threads, [](const Thread &t) { return t.status == Status::Exited; });
    if (allExited) {
      result.completed = true;
      reportHangRecord();
      reportUnbalancedBytes();
      reportPartialPhases();
      reportTmemLeaks();
      break;
    }
    reportHangRecord();
    resolveCollectives(/*final=*/true);
    reportDeadlock();
    reportUnbalancedBytes();
    break;
  }
  result.rounds = round;
  return result;
}

void Machine::land(const Event &e) {
  if (e.map || e.copyBytes) {
    std::vector<uint8_t> &mem = shared[e.dataCta];
    std::string why;
    if (e.map) {
      why = tmaLoad(
          *e.map, e.coords,
          [&](uint64_t a, uint8_t *out, size_t n) {
            return readGlobal(a, out, n);
          },
          mem, e.dataOffset);
    } else if (e.dataOffset + e.copyBytes > smemLimit()) {
      why = formatv("{0} bytes at shared offset {1} reach past the {2} bytes "
                    "of shared memory of the launch",
                    e.copyBytes, e.dataOffset, smemLimit())
                .str();
    } else if (!readGlobal(e.srcGlobal, mem.data() + e.dataOffset,
                           e.copyBytes)) {
      why = formatv("the source range [{0:x}, +{1}) is outside every buffer",
                    e.srcGlobal, e.copyBytes)
                .str();
    }
    if (!why.empty())
      finding("memory", e.dataWhere + ": " + why);
  }
  if (e.kind == Event::CompleteTx) {
    completeTx(e.cta, e.offset, e.amount, e.what);
    return;
  }
  if (ctaExited(e.cta))
    finding("exited-cta-target",
            formatv("{0} arrives on mbarrier {1} of {2}, which has "
                    "exited",
                    e.what, barrierName(e.offset), describeCta(e.cta)));
  arrive(e.cta, e.offset, e.amount, nullptr, nullptr, e.what);
}
