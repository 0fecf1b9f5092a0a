//===- Search.cpp - the bounded exhaustive search ---------------*- C++ -*-===//

#include "Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

//===----------------------------------------------------------------------===//
// Exhaustive search
//===----------------------------------------------------------------------===//

/// An instruction another thread or an asynchronous completion can observe
/// or be observed by: barrier, memory, collective, asynchronous-copy and
/// control-ending instructions. Between two of them a thread's steps
/// commute with every other thread's, so only these are interleaved.
bool Machine::isVisible(const Instr &in) const {
  Op op = in.op;
  return op == Op::Mbarrier || op == Op::Ld || op == Op::St || op == Op::Atom ||
         op == Op::Red || op == Op::Bar || op == Op::Barrier || op == Op::Cp ||
         op == Op::Tcgen05 || op == Op::Elect || op == Op::Shfl ||
         op == Op::Activemask || op == Op::Vote || op == Op::Fence ||
         op == Op::Trap || op == Op::Ret || op == Op::Exit || op == Op::Mapa;
}

void Machine::stepWarp(unsigned cta, unsigned w) {
  unsigned perCta = threadsPerCta();
  for (unsigned l = 0; l < 32 && w * 32 + l < perCta; ++l) {
    Thread &t = threads[size_t(cta) * perCta + w * 32 + l];
    for (unsigned budget = 100000;
         budget && t.status == Status::Runnable && !aborted; --budget) {
      bool visible = t.pc < kernel.code.size() && isVisible(kernel.code[t.pc]);
      if (!execute(t) || visible)
        break;
    }
  }
}

void Machine::settle() {
  bool again = true;
  while (again) {
    again = resolveCollectives() | launchPending();
    for (auto &[key, nb] : bars)
      again |= checkBar(key.first, key.second);
  }
}

uint64_t Machine::hashState() const {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&](uint64_t v) {
    h ^= v;
    h *= 1099511628211ull;
  };
  auto mixBytes = [&](const std::vector<uint8_t> &bytes) {
    for (uint8_t b : bytes)
      mix(b);
  };
  for (const Thread &t : threads) {
    mix(t.pc);
    mix(uint64_t(t.status));
    mix(t.waitBarrier);
    for (uint64_t r : t.regs)
      mix(r);
    mix(t.observeBarrier);
    mix(t.observeBarrier == ~0ull ? 0 : t.observePhase & 1);
    for (auto [r, line] : t.poison)
      mix(uint64_t(r) << 32 | line);
  }
  for (unsigned line : clcFailedAt)
    mix(line != 0);
  for (auto &[key, b] : barriers) {
    mix(key);
    mix(b.initialized);
    mix(uint64_t(b.pending));
    mix(uint64_t(b.tx));
    mix(b.phases & 1);
  }
  for (const Event &e : events) {
    mix(e.cta);
    mix(e.offset);
    mix(uint64_t(e.amount));
    mix(uint64_t(e.kind));
  }
  for (auto &[key, nb] : bars)
    mix(nb.arrived);
  for (auto &[c, n] : clusterArrived)
    mix(n);
  for (TmemState state : tmem)
    mix(uint64_t(state));
  for (uint16_t cols : tmemCols)
    mix(cols);
  for (ClusterState state : clusterState)
    mix(uint64_t(state));
  for (const std::vector<uint8_t> &mem : shared)
    mixBytes(mem);
  for (auto &[base, bytes] : global)
    mixBytes(bytes);
  return h;
}

bool Machine::search(Search &s, unsigned depth) {
  uint64_t here = hashState();
  if (!s.visited.insert(here).second)
    return false;
  if (++s.states > options.maxStates) {
    s.bounded = true;
    return true;
  }
  auto fail = [&] {
    s.failed = true;
    s.findings = result.findings;
    s.failingPath = s.path;
    return true;
  };
  if (aborted) {
    reportHangRecord();
    return fail();
  }
  if (!result.findings.empty())
    return fail();
  // The enabled actions: a warp with a runnable lane runs to its next
  // visible step; a pending asynchronous completion lands.
  struct Move {
    bool isEvent;
    unsigned cta, index; // the warp, or the event's position
  };
  std::vector<Move> moves;
  unsigned perCta = threadsPerCta(), nw = (perCta + 31) / 32;
  for (unsigned c = 0; c < ctaCount(); ++c)
    for (unsigned w = 0; w < nw; ++w)
      for (unsigned l = 0; l < 32 && w * 32 + l < perCta; ++l)
        if (threads[size_t(c) * perCta + w * 32 + l].status ==
            Status::Runnable) {
          moves.push_back({false, c, w});
          break;
        }
  for (size_t i = 0; i < events.size(); ++i)
    moves.push_back({true, events[i].cta, unsigned(i)});
  if (moves.empty()) {
    if (llvm::all_of(threads, [](const Thread &t) {
          return t.status == Status::Exited;
        })) {
      reportUnbalancedBytes();
      reportPartialPhases();
      reportTmemLeaks();
      return result.findings.empty() ? false : fail();
    }
    resolveCollectives(/*final=*/true);
    reportDeadlock();
    return fail();
  }
  if (depth >= options.maxDepth) {
    s.bounded = true;
    return false;
  }

  // Each successor lives on the heap: the search recurses once per step.
  auto successor = [&](const Move &m, std::string *label) {
    auto next = std::make_unique<Machine>(*this);
    ++next->round;
    next->globalReads = next->globalWrites = false;
    if (!m.isEvent) {
      next->stepWarp(m.cta, m.index);
      if (label)
        *label =
            formatv("warp {0} of {1} steps", m.index, describeCta(m.cta)).str();
    } else {
      Event e = next->events[m.index];
      next->events.erase(next->events.begin() + m.index);
      next->land(e);
      if (label)
        *label = formatv("{0} lands ({1} on {2} of {3})", e.what,
                         e.kind == Event::CompleteTx ? "bytes" : "arrival",
                         barrierName(e.offset), describeCta(e.cta))
                     .str();
    }
    next->settle();
    return next;
  };

  // The partial-order reduction (an ample set): the moves of one unit
  // (cluster) suffice when none of them touches another unit (global memory
  // that other units may touch) and none closes a cycle of the current path
  // (so that no other unit's move is postponed forever). Another unit's
  // moves commute with them and stay enabled; a deadlock or a finding
  // reachable in the full graph stays reachable.
  std::vector<const Move *> chosen;
  s.onPath.insert(here);
  std::vector<unsigned> units;
  for (const Move &m : moves)
    if (!llvm::is_contained(units, unitOf(m.cta)))
      units.push_back(unitOf(m.cta));
  if (options.reduce && units.size() > 1) {
    for (unsigned u : units) {
      std::vector<const Move *> ample;
      bool ok = true;
      for (const Move &m : moves) {
        if (unitOf(m.cta) != u)
          continue;
        std::unique_ptr<Machine> next = successor(m, nullptr);
        if (next->touchesOtherUnits(s) || s.onPath.count(next->hashState())) {
          ok = false;
          break;
        }
        ample.push_back(&m);
      }
      if (ok) {
        chosen = std::move(ample);
        ++s.reducedStates;
        break;
      }
    }
  }
  if (chosen.empty())
    for (const Move &m : moves)
      chosen.push_back(&m);

  for (const Move *m : chosen) {
    std::string label;
    std::unique_ptr<Machine> next = successor(*m, &label);
    ++s.transitions;
    s.path.push_back(std::move(label));
    if (next->search(s, depth + 1))
      return true;
    s.path.pop_back();
  }
  s.onPath.erase(here);
  return false;
}

SimResult Machine::explore() {
  Search s;
  for (const Instr &in : kernel.code) {
    Op op = in.op;
    const std::string &space = in.space;
    if (space != "" && space != "global")
      continue;
    if (op == Op::Ld || op == Op::Ldu || op == Op::Atom || op == Op::Red)
      s.kernelReadsGlobal = true;
    if (op == Op::St || op == Op::Atom || op == Op::Red)
      s.kernelWritesGlobal = true;
  }
  settle();
  search(s, 0);
  result.findings = s.findings;
  result.completed = !s.failed;
  result.statesExplored = s.states;
  result.transitions = s.transitions;
  result.bounded = s.bounded;
  result.reducedStates = s.reducedStates;
  if (s.failed && !s.failingPath.empty()) {
    std::string schedule = "the schedule that leads there:";
    size_t from = s.failingPath.size() > 40 ? s.failingPath.size() - 40 : 0;
    if (from)
      schedule += formatv("\n    ... {0} earlier steps", from).str();
    for (size_t i = from; i < s.failingPath.size(); ++i)
      schedule += "\n    " + s.failingPath[i];
    result.findings.push_back({"schedule", schedule});
  }
  return result;
}
