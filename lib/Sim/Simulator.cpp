//===- Simulator.cpp - a kernel's synchronization on the CPU ---*- C++ -*-===//

#include "pipeline/Sim/Simulator.h"
#include "pipeline-c/HangRecord.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>

using namespace llvm;
using namespace pmlir::sim;

namespace {

// Address encoding. Shared-window offsets are small numbers; a generic
// address of shared memory carries kGenericShared; a shared::cluster
// address carries kCluster and the CTA's rank in bits 32..47; global
// buffers live from kGlobalBase; parameters from kParamBase.
constexpr uint64_t kGenericShared = 0x7000000000000000ull;
constexpr uint64_t kCluster = 0x6000000000000000ull;
constexpr uint64_t kTagMask = 0xF000000000000000ull;
constexpr uint64_t kGlobalBase = 0x0000100000000000ull;
constexpr uint64_t kParamBase = 0x0000200000000000ull;

struct Barrier {
  bool initialized = false;
  uint32_t expected = 0;
  int64_t pending = 0;
  int64_t tx = 0;
  /// Completed phases.
  uint64_t phases = 0;
  /// Who initialized it, and the synchronization epochs at the init and
  /// at the fence.mbarrier_init after it (~0: not fenced): a use by
  /// another thread of the CTA needs a CTA or cluster barrier after the
  /// init, a use from another CTA the fence and a cluster barrier after it.
  size_t initThread = ~size_t(0);
  uint64_t initCtaEpoch = 0, initClusterEpoch = 0;
  uint64_t fenceClusterEpoch = ~0ull;
  bool visibilityReported = false;
};

/// A barrier event of the trace that leads to a finding.
struct TraceEntry {
  uint64_t round = 0;
  size_t thread = ~size_t(0); // ~0: an asynchronous completion
  enum Kind { Init, Arrive, ExpectTx, Bytes, Phase, Block } kind = Arrive;
  unsigned cta = 0;
  uint64_t offset = 0;
  int64_t value = 0;
  uint64_t phases = 0;
  unsigned ptxLine = 0;
};

enum class Status { Runnable, Blocked, AtCollective, Exited };

struct Thread {
  unsigned cta = 0; // linear CTA index in the grid
  unsigned tid = 0; // linear thread index in the CTA
  unsigned xyz[3] = {0, 0, 0};
  size_t pc = 0;
  Status status = Status::Runnable;
  std::vector<uint64_t> regs;
  // What a blocked thread waits for.
  std::string waitWhat;
  uint64_t waitBarrier = ~0ull; // key of the mbarrier
  unsigned waitBar = ~0u;       // bar.sync id
  bool waitCluster = false;
  uint64_t lastPoll = ~0ull;
  uint64_t waitParity = 0;
};

struct Event {
  uint64_t due = 0;
  unsigned cta = 0;
  uint64_t offset = 0; // barrier in that CTA's shared window
  enum Kind { CompleteTx, Arrive } kind = CompleteTx;
  int64_t amount = 0;
  std::string what;
};

class Machine {
public:
  Machine(const PtxModule &m, const Kernel &k, const LaunchConfig &l,
          const SimOptions &o)
      : module(m), kernel(k), launch(l), options(o), rng(o.seed) {}

  Error setup();
  SimResult run();
  /// The bounded exhaustive search (SimOptions::exhaustive).
  SimResult explore();

private:
  // Geometry.
  unsigned threadsPerCta() const {
    return launch.block[0] * launch.block[1] * launch.block[2];
  }
  unsigned ctaCount() const {
    return launch.grid[0] * launch.grid[1] * launch.grid[2];
  }
  unsigned clusterSize() const {
    return launch.cluster[0] * launch.cluster[1] * launch.cluster[2];
  }
  void ctaCoords(unsigned cta, unsigned out[3]) const {
    out[0] = cta % launch.grid[0];
    out[1] = (cta / launch.grid[0]) % launch.grid[1];
    out[2] = cta / (launch.grid[0] * launch.grid[1]);
  }
  unsigned clusterRank(unsigned cta) const {
    unsigned c[3];
    ctaCoords(cta, c);
    unsigned r[3] = {c[0] % launch.cluster[0], c[1] % launch.cluster[1],
                     c[2] % launch.cluster[2]};
    return r[0] + launch.cluster[0] * (r[1] + launch.cluster[1] * r[2]);
  }
  /// The CTA of cluster rank `rank` in `cta`'s cluster.
  unsigned ctaOfRank(unsigned cta, unsigned rank) const {
    unsigned c[3];
    ctaCoords(cta, c);
    unsigned base[3] = {c[0] - c[0] % launch.cluster[0],
                        c[1] - c[1] % launch.cluster[1],
                        c[2] - c[2] % launch.cluster[2]};
    unsigned r[3] = {rank % launch.cluster[0],
                     (rank / launch.cluster[0]) % launch.cluster[1],
                     rank / (launch.cluster[0] * launch.cluster[1])};
    unsigned x = base[0] + r[0], y = base[1] + r[1], z = base[2] + r[2];
    return x + launch.grid[0] * (y + launch.grid[1] * z);
  }
  /// The CTAs of `t`'s cluster that a 16-bit multicast mask names.
  std::vector<unsigned> ctasOfMask(const Thread &t, uint64_t mask) const {
    std::vector<unsigned> ctas;
    for (unsigned r = 0; r < 16 && r < clusterSize(); ++r)
      if (mask >> r & 1)
        ctas.push_back(ctaOfRank(t.cta, r));
    return ctas;
  }
  std::string describeCta(unsigned cta) const {
    unsigned c[3];
    ctaCoords(cta, c);
    return formatv("CTA ({0},{1},{2})", c[0], c[1], c[2]).str();
  }
  std::string where(const Instr &in) const {
    std::string s = formatv("PTX line {0}", in.ptxLine).str();
    if (!in.loc.empty())
      s += " (" + in.loc + ")";
    return s;
  }
  std::string barrierName(uint64_t offset) const {
    std::string best;
    uint64_t bestOff = 0;
    for (auto &[name, var] : kernel.shared) {
      uint64_t begin = var.offset;
      uint64_t end = var.dynamic ? ~0ull : var.offset + var.size;
      if (offset >= begin && offset < end &&
          (best.empty() || begin >= bestOff)) {
        best = name;
        bestOff = begin;
      }
    }
    if (best.empty())
      return formatv("shared+{0}", offset).str();
    return offset == bestOff ? best
                             : formatv("{0}+{1}", best, offset - bestOff).str();
  }
  uint64_t barrierKey(unsigned cta, uint64_t offset) const {
    return (uint64_t(cta) << 40) | offset;
  }

  // Values.
  uint64_t value(Thread &t, const Operand &op);
  uint64_t special(Thread &t, StringRef name);
  void setReg(Thread &t, const Operand &op, uint64_t v) {
    if (op.kind == Operand::Kind::Reg)
      t.regs[op.reg] = v;
  }
  /// A result that may carry a predicate (`d|p`, elect.sync, shfl.sync,
  /// setp): `v` to d, `p` to the predicate if there is one.
  void setResult(Thread &t, const Operand &res, uint64_t v, bool p) {
    if (res.kind != Operand::Kind::Vec) {
      setReg(t, res, v);
      return;
    }
    setReg(t, res.elems[0], v);
    if (res.elems.size() > 1)
      setReg(t, res.elems[1], p);
  }
  uint64_t address(Thread &t, const Operand &op);
  uint64_t symbolAddress(StringRef sym);

  // Memory.
  /// Resolves an address of space `space` ("shared", "global", "param",
  /// "" = generic, "cluster" = shared::cluster) to a CTA's shared window
  /// (cta, offset) or global memory.
  struct Place {
    bool shared = false;
    unsigned cta = 0;
    uint64_t offset = 0;
    uint64_t global = 0;
    bool valid = true;
  };
  Place resolve(Thread &t, uint64_t addr, StringRef space);
  uint64_t load(Thread &t, uint64_t addr, StringRef space, unsigned bytes);
  void store(Thread &t, uint64_t addr, StringRef space, unsigned bytes,
             uint64_t v);

  // Barriers.
  Barrier &barrierAt(unsigned cta, uint64_t offset) {
    return barriers[barrierKey(cta, offset)];
  }
  void arrive(unsigned cta, uint64_t offset, int64_t count, Thread *from,
              const Instr *in);
  void completeTx(unsigned cta, uint64_t offset, int64_t bytes,
                  const std::string &what);
  void maybeComplete(unsigned cta, uint64_t offset);
  void wakeBarrier(uint64_t key);

  // Execution.
  /// Runs `t` for at most `budget` instructions.
  void step(Thread &t, unsigned budget);
  /// Executes one instruction; false when the thread stopped (blocked,
  /// waits at a collective, exited).
  bool execute(Thread &t);
  bool resolveCollectives();
  bool fireEvents(bool all);
  void finding(StringRef kind, const Twine &message) {
    std::string m = message.str();
    for (const Finding &f : result.findings)
      if (f.kind == kind && f.message == m)
        return;
    result.findings.push_back({kind.str(), m});
  }
  void reportDeadlock();
  void reportUnbalancedBytes();
  void reportPartialPhases();
  void reportTmemLeaks();

  // Exhaustive search.
  struct Search {
    std::set<uint64_t> visited;
    /// The states of the current path (the cycle proviso of the
    /// reduction).
    std::set<uint64_t> onPath;
    /// Whether the kernel reads global memory, and writes it, anywhere:
    /// a unit's global access depends on other units' only then.
    bool kernelReadsGlobal = false, kernelWritesGlobal = false;
    uint64_t reducedStates = 0;
    uint64_t states = 0, transitions = 0;
    bool bounded = false;
    std::vector<std::string> path;
    bool failed = false;
    std::vector<Finding> findings;
    std::vector<std::string> failingPath;
  };
  bool isVisible(const Instr &in) const;
  /// The unit of independence of the partial-order reduction: CTAs reach
  /// each other's barriers and shared memory only inside their cluster, so
  /// a cluster's steps commute with every other cluster's steps unless
  /// both touch global memory.
  unsigned unitOf(unsigned cta) const { return ctaOfRank(cta, 0); }
  /// A successor's step depends on other units' steps: it read global
  /// memory that the kernel writes somewhere, or wrote global memory that
  /// the kernel reads somewhere.
  bool touchesOtherUnits(const Search &s) const {
    return (globalReads && s.kernelWritesGlobal) ||
           (globalWrites && s.kernelReadsGlobal);
  }
  /// Runs the runnable lanes of warp `w` of `cta` up to and through their
  /// next visible instruction.
  void stepWarp(unsigned cta, unsigned w);
  void settle();
  uint64_t hashState() const;
  bool search(Search &s, unsigned depth);
  bool ctaExited(unsigned cta) const {
    for (unsigned i = 0; i < threadsPerCta(); ++i)
      if (threads[size_t(cta) * threadsPerCta() + i].status != Status::Exited)
        return false;
    return true;
  }

  const PtxModule &module;
  const Kernel &kernel;
  const LaunchConfig &launch;
  const SimOptions &options;
  std::mt19937_64 rng;
  SimResult result;

  std::vector<Thread> threads;
  std::vector<std::vector<uint8_t>> shared;
  std::map<uint64_t, std::vector<uint8_t>> global; // base -> bytes
  std::map<std::string, uint64_t> globalSymbols;
  std::vector<uint8_t> params;
  std::map<std::string, uint64_t> paramOffsets;
  std::map<uint64_t, uint64_t> tensorMapBox; // address -> box bytes
  std::map<uint64_t, Barrier> barriers;
  uint64_t hangRecord = 0;
  /// The clusters, by their first CTA in grid order, and whether each waits
  /// to be launched, runs (or ran), or was canceled by try_cancel.
  enum class ClusterState : uint8_t { Pending, Launched, Canceled };
  std::vector<unsigned> clusters;
  std::vector<ClusterState> clusterState;
  /// Launches pending clusters while fewer than the resident ones run.
  bool launchPending();
  bool ctaLaunched(unsigned cta) const {
    unsigned first = ctaOfRank(cta, 0);
    for (size_t i = 0; i < clusters.size(); ++i)
      if (clusters[i] == first)
        return clusterState[i] == ClusterState::Launched;
    return true;
  }
  /// An asynchronous completion of `amount` (bytes or arrivals) on the
  /// barrier at `offset` of `cta`, landing later (asyncDelay rounds in the
  /// round-robin run, when scheduled otherwise).
  void schedule(unsigned cta, uint64_t offset, Event::Kind kind, int64_t amount,
                std::string what) {
    Event e;
    e.due = round + options.asyncDelay;
    e.cta = cta;
    e.offset = offset;
    e.kind = kind;
    e.amount = amount;
    e.what = std::move(what);
    events.push_back(std::move(e));
  }
  /// Each CTA's tensor memory: never allocated, allocated, freed.
  enum class TmemState : uint8_t { None, Allocated, Freed };
  std::vector<TmemState> tmem;
  /// A tcgen05 access of `cta`'s TMEM by `t` (an MMA of a pair writes the
  /// peer's too): a finding once the CTA freed it.
  std::vector<bool> tmemReported;
  void checkTmemLive(Thread &t, unsigned cta, const Instr &in) {
    if (tmem[cta] != TmemState::Freed || tmemReported[cta])
      return;
    tmemReported[cta] = true;
    finding("tmem-after-dealloc",
            formatv("{0} by thread {1} of {2} at {3} accesses the tensor "
                    "memory of {4}, which tcgen05.dealloc freed",
                    in.opcode, t.tid, describeCta(t.cta), where(in),
                    describeCta(cta)));
  }

  /// The effect, for one lane, of a tcgen05 .sync.aligned instruction
  /// the whole warp reached (resolveCollectives).
  void tcgen05Collective(Thread &t, const Instr &in) {
    StringRef kind = in.parts[1];
    if (kind == "alloc") {
      // Writes the TMEM address to [dst].
      store(t, address(t, in.ops[0]), "shared", 4, 0);
      tmem[t.cta] = TmemState::Allocated;
    } else if (kind == "dealloc") {
      tmem[t.cta] = TmemState::Freed;
    } else if (kind == "ld" || kind == "st") {
      checkTmemLive(t, t.cta, in);
      if (kind == "ld" && in.numOps != 0 &&
          in.ops[0].kind == Operand::Kind::Vec)
        for (const Operand &e : in.ops[0].elems)
          setReg(t, e, 0);
    } // wait::ld / wait::st, relinquish_alloc_permit: no state
  }
  /// Set by any access of global memory (the reduction's footprint of a
  /// step; reset before each step of the exhaustive search).
  bool globalReads = false, globalWrites = false;
  /// Completed CTA barriers (any bar.sync id) per CTA, cluster barriers
  /// per cluster (by its first CTA).
  std::vector<uint64_t> ctaEpoch;
  std::map<unsigned, uint64_t> clusterEpoch;
  /// The last barrier events (a ring), printed with a deadlock.
  std::vector<TraceEntry> trace;
  size_t traceNext = 0;
  static constexpr size_t kTraceSize = 512;
  void record(TraceEntry e) {
    e.round = round;
    if (trace.size() < kTraceSize)
      trace.push_back(e);
    else
      trace[traceNext] = e;
    traceNext = (traceNext + 1) % kTraceSize;
  }
  std::string formatTrace() const;
  /// Reports a use of the barrier by `t` before its init is visible to it.
  void checkVisible(Thread &t, unsigned cta, uint64_t offset, const Instr &in);
  /// A thread trapped: the kernel ends.
  bool aborted = false;
  /// The kernel's hang report, if it wrote one: the same text as the C++
  /// runtime and the Python launcher print.
  void reportHangRecord() {
    if (!hangRecord)
      return;
    uint32_t words[PMLIR_HANG_NUM_WORDS];
    for (unsigned i = 0; i < PMLIR_HANG_NUM_WORDS; ++i)
      words[i] = uint32_t(global[hangRecord][4 * i] |
                          global[hangRecord][4 * i + 1] << 8 |
                          global[hangRecord][4 * i + 2] << 16 |
                          uint32_t(global[hangRecord][4 * i + 3]) << 24);
    std::string sites;
    auto table = module.globals.find(PMLIR_HANG_SITES_SYMBOL);
    if (table != module.globals.end())
      sites.assign(table->second.init.begin(), table->second.init.end());
    char text[1024];
    if (pmlirFormatHangRecord(words, sites.data(), sites.size(), text,
                              sizeof(text)))
      finding("hang-report", text);
  }
  std::deque<Event> events;
  uint64_t round = 0;
  // bar.sync: (cta, id) -> the threads that arrived in the current phase.
  struct NamedBarrier {
    std::vector<size_t> waiting;
    unsigned arrived = 0;
    /// The count of the instruction, 0 for every live thread of the CTA.
    unsigned count = 0;
  };
  std::map<std::pair<unsigned, unsigned>, NamedBarrier> bars;
  /// Releases the named barrier's threads once enough arrived (every
  /// live thread when no count was given: exited threads are not waited
  /// for).
  bool checkBar(unsigned cta, unsigned id) {
    NamedBarrier &nb = bars[{cta, id}];
    if (nb.arrived == 0)
      return false;
    unsigned needed = nb.count;
    if (!needed) {
      needed = 0;
      for (unsigned i = 0; i < threadsPerCta(); ++i)
        if (threads[size_t(cta) * threadsPerCta() + i].status != Status::Exited)
          ++needed;
    }
    if (nb.arrived < needed)
      return false;
    for (size_t o : nb.waiting) {
      threads[o].status = Status::Runnable;
      threads[o].waitBar = ~0u;
      ++threads[o].pc;
    }
    nb = NamedBarrier();
    ++ctaEpoch[cta];
    return true;
  }
  // barrier.cluster: per cluster (first CTA), arrivals of the current phase.
  std::map<unsigned, unsigned> clusterArrived;
  std::map<unsigned, uint64_t> clusterPhase;
  std::map<size_t, uint64_t> clusterArrivePhase; // thread -> phase arrived
};

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

Error Machine::setup() {
  if (launch.args.size() != kernel.params.size())
    return createStringError(formatv("kernel {0} takes {1} arguments, got {2}",
                                     kernel.name, kernel.params.size(),
                                     launch.args.size()));
  for (unsigned d = 0; d < 3; ++d)
    if (launch.cluster[d] == 0 || launch.grid[d] % launch.cluster[d])
      return createStringError("the grid must be a multiple of the cluster");
  if (threadsPerCta() == 0 || threadsPerCta() > 1024)
    return createStringError("a block has 1 to 1024 threads");
  if (uint64_t(ctaCount()) * threadsPerCta() > (1u << 20))
    return createStringError("at most 2^20 threads are simulated");
  // Globals of the module.
  uint64_t next = kGlobalBase;
  for (auto &[name, var] : module.globals) {
    std::vector<uint8_t> bytes(std::max<uint64_t>(var.size, 8), 0);
    std::copy(var.init.begin(), var.init.end(), bytes.begin());
    globalSymbols[name] = next;
    global[next] = std::move(bytes);
    next += alignTo(std::max<uint64_t>(var.size, 8), 256);
  }
  // A kernel compiled with the hang report: the simulator is its host and
  // gives it a record (include/pipeline-c/HangRecord.h).
  auto buffer = globalSymbols.find(PMLIR_HANG_BUFFER_SYMBOL);
  if (buffer != globalSymbols.end()) {
    hangRecord = next;
    global[next] = std::vector<uint8_t>(PMLIR_HANG_RECORD_BYTES, 0);
    next += 256;
    std::vector<uint8_t> &slot = global[buffer->second];
    for (unsigned b = 0; b < 8; ++b)
      slot[b] = uint8_t(hangRecord >> (8 * b));
  }
  // Parameters.
  uint64_t poff = 0;
  for (auto [param, arg] : llvm::zip(kernel.params, launch.args)) {
    poff = alignTo(poff, std::min<unsigned>(param.size, 8));
    paramOffsets[param.name] = poff;
    params.resize(poff + param.size, 0);
    uint64_t v = arg.value;
    if (arg.kind == ArgValue::Kind::Buffer ||
        (arg.kind == ArgValue::Kind::TensorMap && param.size <= 8)) {
      uint64_t size = arg.kind == ArgValue::Kind::Buffer ? arg.bytes : 128;
      global[next] = std::vector<uint8_t>(std::max<uint64_t>(size, 1), 0);
      v = next;
      if (arg.kind == ArgValue::Kind::TensorMap)
        tensorMapBox[next] = arg.bytes;
      next += alignTo(std::max<uint64_t>(size, 1), 256);
    } else if (arg.kind == ArgValue::Kind::TensorMap) {
      // A CUtensorMap passed by value (.param .align 64 .b8 x[128]).
      tensorMapBox[kParamBase + poff] = arg.bytes;
      v = 0;
    }
    for (unsigned b = 0; b < std::min<unsigned>(param.size, 8); ++b)
      params[poff + b] = uint8_t(v >> (8 * b));
    poff += param.size;
  }
  // Threads and shared memory.
  uint64_t smem = kernel.staticShared + launch.dynamicShared + 16;
  shared.assign(ctaCount(), std::vector<uint8_t>(smem, 0));
  ctaEpoch.assign(ctaCount(), 0);
  tmem.assign(ctaCount(), TmemState::None);
  tmemReported.assign(ctaCount(), false);
  threads.resize(size_t(ctaCount()) * threadsPerCta());
  for (unsigned c = 0; c < ctaCount(); ++c)
    for (unsigned i = 0; i < threadsPerCta(); ++i) {
      Thread &t = threads[size_t(c) * threadsPerCta() + i];
      t.cta = c;
      t.tid = i;
      t.xyz[0] = i % launch.block[0];
      t.xyz[1] = (i / launch.block[0]) % launch.block[1];
      t.xyz[2] = i / (launch.block[0] * launch.block[1]);
      t.regs.assign(kernel.regNames.size(), 0);
    }
  for (unsigned c = 0; c < ctaCount(); ++c)
    if (ctaOfRank(c, 0) == c)
      clusters.push_back(c);
  clusterState.assign(clusters.size(), ClusterState::Launched);
  if (launch.residentClusters && launch.residentClusters < clusters.size())
    for (size_t i = launch.residentClusters; i < clusters.size(); ++i) {
      clusterState[i] = ClusterState::Pending;
      for (unsigned r = 0; r < clusterSize(); ++r)
        for (unsigned k = 0; k < threadsPerCta(); ++k)
          threads[size_t(ctaOfRank(clusters[i], r)) * threadsPerCta() + k]
              .status = Status::Exited;
    }
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Values and memory
//===----------------------------------------------------------------------===//

uint64_t Machine::special(Thread &t, StringRef name) {
  unsigned c[3];
  ctaCoords(t.cta, c);
  auto dim = [&](StringRef prefix, auto f) -> std::optional<uint64_t> {
    if (!name.starts_with(prefix))
      return std::nullopt;
    char d = name.back();
    unsigned i = d == 'x' ? 0 : d == 'y' ? 1 : 2;
    return f(i);
  };
  if (auto v = dim("%tid.", [&](unsigned i) { return t.xyz[i]; }))
    return *v;
  if (auto v = dim("%ntid.", [&](unsigned i) { return launch.block[i]; }))
    return *v;
  if (auto v = dim("%ctaid.", [&](unsigned i) { return c[i]; }))
    return *v;
  if (auto v = dim("%nctaid.", [&](unsigned i) { return launch.grid[i]; }))
    return *v;
  if (auto v = dim("%cluster_ctaid.",
                   [&](unsigned i) { return c[i] % launch.cluster[i]; }))
    return *v;
  if (auto v = dim("%cluster_nctaid.",
                   [&](unsigned i) { return launch.cluster[i]; }))
    return *v;
  if (auto v = dim("%clusterid.",
                   [&](unsigned i) { return c[i] / launch.cluster[i]; }))
    return *v;
  if (auto v = dim("%nclusterid.", [&](unsigned i) {
        return launch.grid[i] / launch.cluster[i];
      }))
    return *v;
  unsigned lane = t.tid % 32;
  if (name == "%laneid")
    return lane;
  if (name == "%warpid")
    return t.tid / 32;
  if (name == "%nwarpid")
    return (threadsPerCta() + 31) / 32;
  if (name == "%cluster_ctarank")
    return clusterRank(t.cta);
  if (name == "%cluster_nctarank")
    return clusterSize();
  if (name == "%lanemask_lt")
    return (1ull << lane) - 1;
  if (name == "%lanemask_le")
    return (2ull << lane) - 1;
  if (name == "%lanemask_eq")
    return 1ull << lane;
  if (name == "%lanemask_ge")
    return ~((1ull << lane) - 1) & 0xffffffffull;
  if (name == "%lanemask_gt")
    return ~((2ull << lane) - 1) & 0xffffffffull;
  // Time: scheduling rounds (each thread runs up to a quantum per round),
  // so that a thread's clock advances with its own progress, not with the
  // number of threads.
  if (name.starts_with("%clock") || name == "%globaltimer")
    return round * options.quantum;
  if (name == "%smid")
    return t.cta;
  if (name == "%dynamic_smem_size")
    return launch.dynamicShared;
  if (name == "%total_smem_size")
    return kernel.staticShared + launch.dynamicShared;
  return 0;
}

uint64_t Machine::symbolAddress(StringRef sym) {
  auto s = kernel.shared.find(sym.str());
  if (s != kernel.shared.end())
    return s->second.offset;
  auto g = globalSymbols.find(sym.str());
  if (g != globalSymbols.end())
    return g->second;
  auto p = paramOffsets.find(sym.str());
  if (p != paramOffsets.end())
    return kParamBase + p->second;
  return 0;
}

uint64_t Machine::value(Thread &t, const Operand &op) {
  switch (op.kind) {
  case Operand::Kind::Reg:
    return t.regs[op.reg];
  case Operand::Kind::Imm:
    return uint64_t(op.imm);
  case Operand::Kind::Sym:
    return symbolAddress(op.sym) + op.offset;
  case Operand::Kind::Special:
    return special(t, op.sym);
  case Operand::Kind::Mem:
    return address(t, op);
  default:
    return 0;
  }
}

uint64_t Machine::address(Thread &t, const Operand &op) {
  if (op.kind != Operand::Kind::Mem)
    return value(t, op);
  uint64_t base =
      op.memReg ? t.regs[op.reg]
                : (op.sym.empty() ? uint64_t(op.imm) : symbolAddress(op.sym));
  return base + op.offset;
}

Machine::Place Machine::resolve(Thread &t, uint64_t addr, StringRef space) {
  Place p;
  uint64_t tag = addr & kTagMask;
  if (space == "param" || (space.empty() && addr >= kParamBase &&
                           addr < kParamBase + (1ull << 32))) {
    p.global = addr; // handled by load
    return p;
  }
  if (tag == kCluster) {
    p.shared = true;
    unsigned rank = unsigned((addr >> 32) & 0xffff);
    if (rank >= clusterSize()) {
      finding("memory", formatv("a shared::cluster address of cluster rank "
                                "{0}, outside the cluster of {1} CTA(s)",
                                rank, clusterSize()));
      rank = clusterRank(t.cta);
      p.valid = false;
    }
    p.cta = ctaOfRank(t.cta, rank);
    p.offset = addr & 0xffffffffull;
    return p;
  }
  if (tag == kGenericShared || space == "shared" || space == "cta") {
    p.shared = true;
    p.cta = t.cta;
    p.offset = addr & 0xffffffffull;
    return p;
  }
  if (space == "cluster") {
    p.shared = true;
    p.cta = t.cta;
    p.offset = addr & 0xffffffffull;
    return p;
  }
  p.global = addr;
  return p;
}

uint64_t Machine::load(Thread &t, uint64_t addr, StringRef space,
                       unsigned bytes) {
  // Registers hold 64 bits: a wider access (b128) reads its low 8 bytes.
  bytes = std::min(bytes, 8u);
  if (space == "param" ||
      (addr >= kParamBase && addr < kParamBase + params.size())) {
    uint64_t off = addr - kParamBase, v = 0;
    for (unsigned b = 0; b < bytes && off + b < params.size(); ++b)
      v |= uint64_t(params[off + b]) << (8 * b);
    return v;
  }
  Place p = resolve(t, addr, space);
  uint64_t v = 0;
  if (p.shared) {
    std::vector<uint8_t> &mem = shared[p.cta];
    for (unsigned b = 0; b < bytes && p.offset + b < mem.size(); ++b)
      v |= uint64_t(mem[p.offset + b]) << (8 * b);
    return v;
  }
  globalReads = true;
  auto it = global.upper_bound(p.global);
  if (it == global.begin())
    return 0;
  --it;
  uint64_t off = p.global - it->first;
  for (unsigned b = 0; b < bytes && off + b < it->second.size(); ++b)
    v |= uint64_t(it->second[off + b]) << (8 * b);
  return v;
}

void Machine::store(Thread &t, uint64_t addr, StringRef space, unsigned bytes,
                    uint64_t v) {
  if (bytes > 8) { // b128: the high half is opaque (zero)
    store(t, addr + 8, space, bytes - 8, 0);
    bytes = 8;
  }
  Place p = resolve(t, addr, space);
  if (p.shared) {
    std::vector<uint8_t> &mem = shared[p.cta];
    for (unsigned b = 0; b < bytes && p.offset + b < mem.size(); ++b)
      mem[p.offset + b] = uint8_t(v >> (8 * b));
    return;
  }
  globalWrites = true;
  auto it = global.upper_bound(p.global);
  if (it == global.begin())
    return;
  --it;
  uint64_t off = p.global - it->first;
  for (unsigned b = 0; b < bytes && off + b < it->second.size(); ++b)
    it->second[off + b] = uint8_t(v >> (8 * b));
}

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

void Machine::maybeComplete(unsigned cta, uint64_t offset) {
  Barrier &b = barrierAt(cta, offset);
  if (b.pending <= 0 && b.tx == 0) {
    ++b.phases;
    b.pending += b.expected;
    record({0, ~size_t(0), TraceEntry::Phase, cta, offset, 0, b.phases, 0});
    wakeBarrier(barrierKey(cta, offset));
  }
}

void Machine::arrive(unsigned cta, uint64_t offset, int64_t count, Thread *from,
                     const Instr *in) {
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
  maybeComplete(cta, offset);
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
  maybeComplete(cta, offset);
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

/// The bit width of the instruction's type suffix (b32, u64, s16, pred).
unsigned typeBits(const Instr &in) {
  for (auto it = in.parts.rbegin(); it != in.parts.rend(); ++it) {
    StringRef p = *it;
    if (p == "pred")
      return 1;
    if (p.size() >= 2 &&
        (p[0] == 'b' || p[0] == 'u' || p[0] == 's' || p[0] == 'f')) {
      unsigned bits = 0;
      if (!p.drop_front().getAsInteger(10, bits) && bits <= 64)
        return bits;
    }
  }
  return 64;
}

bool isSignedType(const Instr &in) {
  for (const std::string &p : in.parts)
    if (p.size() >= 2 && p[0] == 's' && isDigit(p[1]))
      return true;
  return false;
}

bool isFloatType(const Instr &in) {
  for (const std::string &p : in.parts)
    if ((p.size() >= 2 && p[0] == 'f' && isDigit(p[1])) ||
        StringRef(p).starts_with("bf16") || StringRef(p).starts_with("e4m3") ||
        StringRef(p).starts_with("e5m2") || p == "rn" || p == "rz")
      return true;
  return false;
}

uint64_t truncBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return int64_t(v);
  uint64_t m = 1ull << (bits - 1);
  v = truncBits(v, bits);
  return int64_t((v ^ m) - m);
}

/// The state space named by an instruction (shared, global, param,
/// cluster for shared::cluster; "" = generic).
std::string spaceOf(const Instr &in) {
  for (const std::string &p : in.parts) {
    if (p == "shared::cluster")
      return "cluster";
    if (p == "shared" || p == "shared::cta")
      return "shared";
    if (p == "global" || p == "param" || p == "local" || p == "const")
      return p;
  }
  return "";
}

bool Machine::execute(Thread &t) {
  if (t.pc >= kernel.code.size()) {
    t.status = Status::Exited;
    return false;
  }
  const Instr &in = kernel.code[t.pc];
  ++result.instructions;
  if (in.guard >= 0) {
    bool g = t.regs[in.guard] & 1;
    if (g == in.guardNegated) {
      ++t.pc;
      return true;
    }
  }
  StringRef op = in.parts[0];
  unsigned bits = typeBits(in);
  auto v = [&](unsigned i) { return value(t, in.ops[i]); };
  auto set = [&](unsigned i, uint64_t x) { setReg(t, in.ops[i], x); };
  auto next = [&] {
    ++t.pc;
    return true;
  };

  if (op == "bra") {
    t.pc = size_t(in.target);
    return true;
  }
  if (op == "ret" || op == "exit") {
    t.status = Status::Exited;
    return false;
  }
  if (op == "trap" || op == "brkpt") {
    // The kernel ends there (the launch fails on the GPU).
    finding("trap", formatv("thread {0} of {1} executed {2} at {3}", t.tid,
                            describeCta(t.cta), op, where(in)));
    t.status = Status::Exited;
    aborted = true;
    return false;
  }

  // Integer and predicate arithmetic.
  bool fp = isFloatType(in);
  if (op == "mov" || op == "cvta") {
    if (in.ops[0].kind == Operand::Kind::Vec) {
      // mov.b32 {lo, hi}, %r / mov.b64 {a, b}, %rd: unpack.
      uint64_t x = v(1);
      unsigned n = in.ops[0].elems.size();
      unsigned each = bits / std::max(1u, n);
      for (unsigned i = 0; i < n; ++i)
        setReg(t, in.ops[0].elems[i], truncBits(x >> (each * i), each));
      return next();
    }
    uint64_t x;
    if (in.ops[1].kind == Operand::Kind::Vec) {
      x = 0;
      unsigned n = in.ops[1].elems.size();
      unsigned each = bits / std::max(1u, n);
      for (unsigned i = 0; i < n; ++i)
        x |= truncBits(value(t, in.ops[1].elems[i]), each) << (each * i);
    } else {
      x = v(1);
    }
    if (op == "cvta") {
      bool to = in.has("to");
      std::string space = spaceOf(in);
      if (space == "shared")
        x = to ? (x & 0xffffffffull) : (kGenericShared | (x & 0xffffffffull));
      else if (space == "cluster")
        x = to ? (kCluster | (uint64_t(clusterRank(t.cta)) << 32) |
                  (x & 0xffffffffull))
               : (kGenericShared | (x & 0xffffffffull));
    }
    set(0, bits == 1 ? (x & 1) : truncBits(x, bits));
    return next();
  }
  auto binary = [&](auto f) {
    uint64_t r = f(v(1), v(2));
    set(0, bits == 1 ? (r & 1) : truncBits(r, bits));
    return next();
  };
  if (!fp) {
    if (op == "add")
      return binary([](uint64_t a, uint64_t b) { return a + b; });
    if (op == "sub")
      return binary([](uint64_t a, uint64_t b) { return a - b; });
    if (op == "and")
      return binary([](uint64_t a, uint64_t b) { return a & b; });
    if (op == "or")
      return binary([](uint64_t a, uint64_t b) { return a | b; });
    if (op == "xor")
      return binary([](uint64_t a, uint64_t b) { return a ^ b; });
    if (op == "shl")
      return binary(
          [&](uint64_t a, uint64_t b) { return b >= bits ? 0 : a << b; });
    if (op == "shr")
      return binary([&](uint64_t a, uint64_t b) -> uint64_t {
        if (isSignedType(in))
          return b >= bits ? uint64_t(sext(a, bits) < 0 ? -1 : 0)
                           : uint64_t(sext(a, bits) >> b);
        return b >= bits ? 0 : truncBits(a, bits) >> b;
      });
    if (op == "min" || op == "max")
      return binary([&](uint64_t a, uint64_t b) -> uint64_t {
        bool less = isSignedType(in) ? sext(a, bits) < sext(b, bits)
                                     : truncBits(a, bits) < truncBits(b, bits);
        return (op == "min") == less ? a : b;
      });
    if (op == "div" || op == "rem")
      return binary([&](uint64_t a, uint64_t b) -> uint64_t {
        if (truncBits(b, bits) == 0) {
          finding("memory",
                  formatv("integer division by zero at {0}", where(in)));
          return 0;
        }
        if (isSignedType(in)) {
          int64_t x = sext(a, bits), y = sext(b, bits);
          return uint64_t(op == "div" ? x / y : x % y);
        }
        uint64_t x = truncBits(a, bits), y = truncBits(b, bits);
        return op == "div" ? x / y : x % y;
      });
    if (op == "mul" || op == "mad") {
      bool wide = in.has("wide"), hi = in.has("hi");
      uint64_t a = v(1), b = v(2), r;
      if (wide) {
        r = isSignedType(in) ? uint64_t(sext(a, bits) * sext(b, bits))
                             : truncBits(a, bits) * truncBits(b, bits);
      } else if (hi) {
        if (bits == 64) {
          __uint128_t p =
              isSignedType(in)
                  ? __uint128_t(__int128_t(int64_t(a)) * __int128_t(int64_t(b)))
                  : __uint128_t(a) * __uint128_t(b);
          r = uint64_t(p >> 64);
        } else {
          uint64_t p = isSignedType(in)
                           ? uint64_t(sext(a, bits) * sext(b, bits))
                           : truncBits(a, bits) * truncBits(b, bits);
          r = p >> bits;
        }
      } else {
        r = a * b;
      }
      if (op == "mad")
        r += v(3);
      set(0, truncBits(r, wide ? 2 * bits : bits));
      return next();
    }
    if (op == "not") {
      uint64_t r = ~v(1);
      set(0, bits == 1 ? (r & 1) : truncBits(r, bits));
      return next();
    }
    if (op == "neg") {
      set(0, truncBits(-v(1), bits));
      return next();
    }
    if (op == "abs") {
      int64_t x = sext(v(1), bits);
      set(0, truncBits(uint64_t(x < 0 ? -x : x), bits));
      return next();
    }
    if (op == "popc") {
      set(0, llvm::popcount(truncBits(v(1), bits)));
      return next();
    }
    if (op == "clz") {
      uint64_t x = truncBits(v(1), bits);
      set(0, x == 0 ? bits : llvm::countl_zero(x) - (64 - bits));
      return next();
    }
    if (op == "brev") {
      uint64_t x = truncBits(v(1), bits), r = 0;
      for (unsigned i = 0; i < bits; ++i)
        if (x >> i & 1)
          r |= 1ull << (bits - 1 - i);
      set(0, r);
      return next();
    }
    if (op == "bfe") {
      uint64_t x = truncBits(v(1), bits), pos = v(2) & 0xff, len = v(3) & 0xff;
      uint64_t r = (pos >= bits || len == 0)
                       ? 0
                       : (x >> pos) & (len >= 64 ? ~0ull : (1ull << len) - 1);
      if (isSignedType(in) && len > 0 && len < 64 && (r >> (len - 1) & 1))
        r |= ~((1ull << len) - 1);
      set(0, truncBits(r, bits));
      return next();
    }
    if (op == "bfi") {
      uint64_t f = v(1), b = v(2), pos = v(3) & 0xff, len = v(4) & 0xff;
      uint64_t mask = (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
      set(0, truncBits((b & ~mask) | ((f << pos) & mask), bits));
      return next();
    }
    if (op == "prmt") {
      uint64_t a = truncBits(v(1), 32), b = truncBits(v(2), 32),
               c = v(3) & 0xffff;
      uint64_t bytes = a | (b << 32), r = 0;
      for (unsigned i = 0; i < 4; ++i) {
        unsigned sel = (c >> (4 * i)) & 7;
        r |= ((bytes >> (8 * sel)) & 0xff) << (8 * i);
      }
      set(0, r);
      return next();
    }
    if (op == "selp") {
      set(0, (v(3) & 1) ? v(1) : v(2));
      return next();
    }
    if (op == "setp") {
      StringRef cmp = in.parts[1];
      uint64_t a = v(1), b = v(2);
      bool r;
      bool sgn = isSignedType(in);
      int64_t sa = sext(a, bits), sb = sext(b, bits);
      uint64_t ua = truncBits(a, bits), ub = truncBits(b, bits);
      if (cmp == "eq")
        r = ua == ub;
      else if (cmp == "ne")
        r = ua != ub;
      else if (cmp == "lt")
        r = sgn ? sa < sb : ua < ub;
      else if (cmp == "le")
        r = sgn ? sa <= sb : ua <= ub;
      else if (cmp == "gt")
        r = sgn ? sa > sb : ua > ub;
      else if (cmp == "ge")
        r = sgn ? sa >= sb : ua >= ub;
      else if (cmp == "lo")
        r = ua < ub;
      else if (cmp == "ls")
        r = ua <= ub;
      else if (cmp == "hi")
        r = ua > ub;
      else if (cmp == "hs")
        r = ua >= ub;
      else {
        finding("unsupported", "setp." + cmp + " at " + where(in));
        r = false;
      }
      // setp.cmp.and/or with a third predicate operand.
      if (in.numOps > 3 && in.parts.size() > 2) {
        bool c = v(3) & 1;
        if (in.has("and"))
          r = r && c;
        else if (in.has("or"))
          r = r || c;
        else if (in.has("xor"))
          r = r != c;
      }
      setResult(t, in.ops[0], r, !r); // p|q: q is the complement
      return next();
    }
    if (op == "cvt") {
      // cvt.dst.src: widen or narrow integers.
      unsigned dst = 64, src = 64;
      bool srcSigned = false;
      int n = 0;
      for (const std::string &p : in.parts) {
        StringRef s = p;
        unsigned b;
        if (s.size() >= 2 && (s[0] == 'u' || s[0] == 's' || s[0] == 'b') &&
            !s.drop_front().getAsInteger(10, b)) {
          if (n++ == 0)
            dst = b;
          else {
            src = b;
            srcSigned = s[0] == 's';
          }
        }
      }
      uint64_t x = v(1);
      x = srcSigned ? uint64_t(sext(x, src)) : truncBits(x, src);
      set(0, truncBits(x, dst));
      return next();
    }
  }
  // Floating point and tensor data: opaque (0).
  if (fp || op == "fma" || op == "ex2" || op == "rcp" || op == "sqrt" ||
      op == "lg2" || op == "sin" || op == "cos" || op == "tanh" ||
      op == "testp" || op == "copysign" || op == "ldmatrix" ||
      op == "movmatrix") {
    if (in.numOps != 0) {
      if (in.ops[0].kind == Operand::Kind::Vec)
        for (const Operand &e : in.ops[0].elems)
          setReg(t, e, 0);
      else
        set(0, 0);
    }
    return next();
  }

  // Memory.
  if (op == "ld" || op == "ldu") {
    std::string space = spaceOf(in);
    uint64_t addr = address(t, in.ops[1]);
    unsigned each = bits == 1 ? 1 : std::max(1u, bits / 8);
    if (in.ops[0].kind == Operand::Kind::Vec) {
      for (size_t i = 0; i < in.ops[0].elems.size(); ++i)
        setReg(t, in.ops[0].elems[i], load(t, addr + i * each, space, each));
    } else {
      uint64_t x = load(t, addr, space, each);
      if (isSignedType(in))
        x = uint64_t(sext(x, bits));
      set(0, x);
    }
    return next();
  }
  if (op == "st") {
    std::string space = spaceOf(in);
    uint64_t addr = address(t, in.ops[0]);
    unsigned each = std::max(1u, bits / 8);
    if (in.ops[1].kind == Operand::Kind::Vec) {
      for (size_t i = 0; i < in.ops[1].elems.size(); ++i)
        store(t, addr + i * each, space, each, value(t, in.ops[1].elems[i]));
    } else {
      store(t, addr, space, each, v(1));
    }
    return next();
  }
  if (op == "atom" || op == "red") {
    std::string space = spaceOf(in);
    bool isAtom = op == "atom";
    const Operand &memOp = in.ops[isAtom ? 1 : 0];
    uint64_t addr = address(t, memOp);
    unsigned each = std::max(1u, bits / 8);
    uint64_t old = load(t, addr, space, each);
    uint64_t a = value(t, in.ops[isAtom ? 2 : 1]), nv = old;
    if (in.has("cas"))
      nv = truncBits(old, bits) == truncBits(a, bits) ? value(t, in.ops[3])
                                                      : old;
    else if (in.has("exch"))
      nv = a;
    else if (in.has("inc"))
      // ((old >= b) ? 0 : old + 1), unsigned: wraps to 0 at the bound.
      nv = truncBits(old, bits) >= truncBits(a, bits) ? 0 : old + 1;
    else if (in.has("dec"))
      // ((old == 0) || (old > b)) ? b : old - 1, unsigned.
      nv =
          truncBits(old, bits) == 0 || truncBits(old, bits) > truncBits(a, bits)
              ? a
              : old - 1;
    else if (in.has("add"))
      nv = old + a;
    else if (in.has("or"))
      nv = old | a;
    else if (in.has("and"))
      nv = old & a;
    else if (in.has("xor"))
      nv = old ^ a;
    else if (in.has("max") || in.has("min")) {
      // .s32 / .s64 compare signed, .u32 / .u64 unsigned.
      bool less = isSignedType(in) ? sext(old, bits) < sext(a, bits)
                                   : truncBits(old, bits) < truncBits(a, bits);
      nv = in.has("max") == less ? a : old;
    }
    store(t, addr, space, each, nv);
    if (isAtom)
      set(0, old);
    return next();
  }

  // mbarriers.
  if (op == "mbarrier") {
    StringRef kind = in.parts[1];
    std::string space = spaceOf(in);
    bool hasState = in.numOps >= 2 && in.ops[0].kind != Operand::Kind::Mem;
    const Operand &mem = in.ops[hasState ? 1 : 0];
    Place p = resolve(t, address(t, mem), space.empty() ? "shared" : space);
    Barrier &b = barrierAt(p.cta, p.offset);
    if (kind == "init") {
      // An init of a barrier that is initialized (no inval in between):
      // another pipeline's barriers at the same place, or a second init.
      if (b.initialized)
        finding("reinitialized-barrier",
                formatv("mbarrier {0} of {1} initialized again at {2} while "
                        "it is initialized (after {3} completed phases): "
                        "two pipelines' barriers overlap, or a pipeline is "
                        "initialized twice",
                        barrierName(p.offset), describeCta(p.cta), where(in),
                        b.phases));
      b = Barrier();
      b.initialized = true;
      b.expected = uint32_t(value(t, in.ops[1]));
      b.pending = b.expected;
      b.initThread = size_t(t.cta) * threadsPerCta() + t.tid;
      b.initCtaEpoch = ctaEpoch[p.cta];
      b.initClusterEpoch = clusterEpoch[ctaOfRank(p.cta, 0)];
      record({0, b.initThread, TraceEntry::Init, p.cta, p.offset,
              int64_t(b.expected), 0, in.ptxLine});
      return next();
    }
    if (kind == "inval") {
      b.initialized = false;
      return next();
    }
    if (b.initialized)
      checkVisible(t, p.cta, p.offset, in);
    if (kind == "arrive" || kind == "arrive_drop") {
      bool expectTx = in.has("expect_tx");
      // Operands: [state|_], [addr], (tx bytes | count)?
      int64_t count = 1;
      if (expectTx) {
        if (!b.initialized)
          finding("uninitialized-barrier",
                  formatv("arrive.expect_tx on mbarrier {0} of {1}, which is "
                          "not initialized ({2})",
                          barrierName(p.offset), describeCta(p.cta),
                          where(in)));
        else {
          b.tx += int64_t(value(t, in.ops[2]));
          record({0, size_t(t.cta) * threadsPerCta() + t.tid,
                  TraceEntry::ExpectTx, p.cta, p.offset,
                  int64_t(value(t, in.ops[2])), b.phases, in.ptxLine});
        }
      } else if (in.numOps > 2) {
        count = int64_t(value(t, in.ops[2]));
      }
      if (hasState)
        set(0, b.phases);
      arrive(p.cta, p.offset, count, &t, &in);
      return next();
    }
    if (kind == "expect_tx") {
      if (b.initialized)
        b.tx += int64_t(value(t, in.ops[1]));
      return next();
    }
    if (kind == "complete_tx") {
      completeTx(p.cta, p.offset, int64_t(value(t, in.ops[1])),
                 "complete_tx at " + where(in));
      return next();
    }
    if (kind == "try_wait" || kind == "test_wait") {
      if (!b.initialized) {
        finding("uninitialized-barrier",
                formatv("a wait on mbarrier {0} of {1}, which is not "
                        "initialized ({2})",
                        barrierName(p.offset), describeCta(p.cta), where(in)));
        t.status = Status::Blocked;
        t.waitBarrier = barrierKey(p.cta, p.offset);
        t.waitWhat =
            formatv("mbarrier {0} (not initialized)", barrierName(p.offset))
                .str();
        return false;
      }
      bool parity = in.has("parity");
      bool done;
      if (parity)
        done = (b.phases & 1) != (value(t, in.ops[2]) & 1);
      else
        done = b.phases > value(t, in.ops[2]);
      if (done) {
        set(0, 1);
        t.lastPoll = ~0ull;
        return next();
      }
      // A failed try_wait in a loop that polls it again blocks the thread
      // until the barrier completes a phase; a test_wait or a try_wait the
      // program does not loop on returns false.
      // The lowering's polling loops: `@P bra done; bra head`,
      // `not.pred Q, P; @Q bra head` or `@!P bra head`, with head at or
      // before the try_wait. (The hang report's slow path reads the clock
      // between polls and keeps polling: its clock decides when it
      // reports.)
      bool loops = false;
      if (kind == "try_wait" && in.ops[0].kind == Operand::Kind::Reg) {
        unsigned p = in.ops[0].reg;
        auto backTo = [&](size_t k) {
          return k < kernel.code.size() && kernel.code[k].is("bra") &&
                 size_t(kernel.code[k].target) <= t.pc;
        };
        size_t k = t.pc + 1;
        if (k < kernel.code.size()) {
          const Instr &n1 = kernel.code[k];
          if (n1.is("bra") && n1.guard == int(p) && !n1.guardNegated &&
              backTo(k + 1) && kernel.code[k + 1].guard < 0)
            loops = true; // @P bra done; bra head
          else if (n1.is("bra") && n1.guard == int(p) && n1.guardNegated &&
                   backTo(k))
            loops = true; // @!P bra head
          else if (n1.is("not") && n1.numOps == 2 &&
                   n1.ops[1].kind == Operand::Kind::Reg && n1.ops[1].reg == p &&
                   k + 1 < kernel.code.size() &&
                   kernel.code[k + 1].guard == int(n1.ops[0].reg) &&
                   !kernel.code[k + 1].guardNegated && backTo(k + 1))
            loops = true; // not.pred Q, P; @Q bra head
        }
      }
      if (!loops) {
        set(0, 0);
        return next();
      }
      record({0, size_t(t.cta) * threadsPerCta() + t.tid, TraceEntry::Block,
              p.cta, p.offset, int64_t(value(t, in.ops[2]) & 1), b.phases,
              in.ptxLine});
      t.status = Status::Blocked;
      t.waitBarrier = barrierKey(p.cta, p.offset);
      t.waitParity = value(t, in.ops[2]) & 1;
      t.waitWhat =
          formatv("mbarrier {0} of {1}: waits for the phase of parity {2} "
                  "(completed phases {3}, {4} of {5} arrivals pending, {6} "
                  "transaction bytes pending) at {7}",
                  barrierName(p.offset), describeCta(p.cta),
                  value(t, in.ops[2]) & 1, b.phases, b.pending, b.expected,
                  b.tx, where(in))
              .str();
      return false;
    }
    finding("unsupported", "mbarrier." + kind.str() + " at " + where(in));
    return next();
  }
  if (op == "mapa") {
    uint64_t a = v(1), rank = v(2);
    set(0, kCluster | (rank << 32) | (a & 0xffffffffull));
    return next();
  }
  if (op == "fence" && in.has("mbarrier_init")) {
    size_t self = size_t(t.cta) * threadsPerCta() + t.tid;
    uint64_t epoch = clusterEpoch[ctaOfRank(t.cta, 0)];
    for (auto &[key, b] : barriers)
      if (b.initThread == self && b.fenceClusterEpoch == ~0ull)
        b.fenceClusterEpoch = epoch;
    return next();
  }
  if (op == "fence" || op == "membar" || op == "nanosleep" ||
      op == "prefetch" || op == "prefetchu" || op == "setmaxnreg" ||
      op == "griddepcontrol" || op == "stmatrix" || op == "pmevent") {
    return next();
  }
  if (op == "cp") {
    // cp.async.bulk.tensor ... [dst], [tmap, {coords}], [mbar] (, mask)
    if (in.has("tensor") && in.has("global") && in.numOps >= 3 &&
        StringRef(in.opcode).contains(".shared::cluster.global")) {
      const Operand &tmapOp = in.ops[1];
      uint64_t tmap =
          tmapOp.kind == Operand::Kind::Mem
              ? (tmapOp.memReg ? t.regs[tmapOp.reg] : symbolAddress(tmapOp.sym))
              : value(t, tmapOp);
      auto box = tensorMapBox.find(tmap);
      if (box == tensorMapBox.end()) {
        finding("unsupported",
                formatv("a TMA load through an address that is no tensor "
                        "map argument at {0}: give its box bytes "
                        "(--arg tmap:BYTES)",
                        where(in)));
        return next();
      }
      uint64_t mbar = address(t, in.ops[2]);
      Place mp = resolve(t, mbar, "cluster");
      // .cta_group::2: the barrier address names the pair's leader; a
      // multicast mask names the destination CTAs, each of which gets the
      // bytes on the barrier at the same offset (in its own CTA, or with
      // cta_group::2 in its pair's leader).
      bool pair = StringRef(in.opcode).contains("cta_group::2");
      std::vector<unsigned> dests =
          in.has("multicast::cluster") && in.numOps >= 4
              ? ctasOfMask(t, value(t, in.ops[3]))
              : std::vector<unsigned>{t.cta};
      for (unsigned d : dests) {
        unsigned target = mp.cta;
        if (dests.size() > 1 || d != t.cta)
          target = pair ? ctaOfRank(d, clusterRank(d) & ~1u) : d;
        schedule(target, mp.offset, Event::CompleteTx, int64_t(box->second),
                 formatv("the TMA load of thread {0} of {1} at {2}", t.tid,
                         describeCta(t.cta), where(in))
                     .str());
      }
      return next();
    }
    // Other bulk copies (stores, commit/wait groups): no barrier.
    return next();
  }
  if (op == "clusterlaunchcontrol") {
    // try_cancel [resp], [mbar]: cancels the first cluster that waits to
    // be launched (--resident-clusters), if any, and answers with it; the
    // response is written to this CTA (or, multicast, to every CTA of the
    // cluster), whose barrier then completes 16 transaction bytes. The
    // response's encoding is the simulator's own (the hardware's is
    // opaque): bit 0 canceled, bits 8-31 the first CTA's x, 32-47 y, 48-63
    // z; query_cancel decodes it.
    if (in.parts[1] == "try_cancel") {
      uint64_t answer = 0;
      for (size_t i = 0; i < clusters.size(); ++i)
        if (clusterState[i] == ClusterState::Pending) {
          clusterState[i] = ClusterState::Canceled;
          ++result.clustersCanceled;
          unsigned xyz[3];
          ctaCoords(clusters[i], xyz);
          answer = 1 | (uint64_t(xyz[0] & 0xffffff) << 8) |
                   (uint64_t(xyz[1] & 0xffff) << 32) |
                   (uint64_t(xyz[2] & 0xffff) << 48);
          break;
        }
      uint64_t resp = address(t, in.ops[0]);
      Place mp = resolve(t, address(t, in.ops[1]), "shared");
      std::vector<unsigned> dests;
      if (StringRef(in.opcode).contains("multicast"))
        for (unsigned r = 0; r < clusterSize(); ++r)
          dests.push_back(ctaOfRank(t.cta, r));
      else
        dests.push_back(t.cta);
      for (unsigned d : dests) {
        std::vector<uint8_t> &mem = shared[d];
        for (unsigned b = 0; b < 16 && (resp & 0xffffffffull) + b < mem.size();
             ++b)
          mem[(resp & 0xffffffffull) + b] =
              b < 8 ? uint8_t(answer >> (8 * b)) : 0;
        schedule(d, mp.offset, Event::CompleteTx, 16,
                 formatv("the cluster launch control response of thread {0} "
                         "of {1} at {2}",
                         t.tid, describeCta(t.cta), where(in))
                     .str());
      }
      return next();
    }
    // query_cancel: decodes the response (try_cancel's encoding above).
    if (in.parts[1] == "query_cancel" && in.numOps >= 2) {
      uint64_t v = value(t, in.ops[1]);
      uint64_t coords[3] = {(v >> 8) & 0xffffff, (v >> 32) & 0xffff, v >> 48};
      if (in.has("is_canceled")) {
        set(0, v & 1);
      } else if (in.ops[0].kind == Operand::Kind::Vec) {
        for (size_t i = 0; i < in.ops[0].elems.size(); ++i)
          setReg(t, in.ops[0].elems[i], i < 3 ? coords[i] : 0);
      } else {
        unsigned axis = StringRef(in.opcode).contains("::y")   ? 1
                        : StringRef(in.opcode).contains("::z") ? 2
                                                               : 0;
        set(0, coords[axis]);
      }
      return next();
    }
    set(0, 0);
    return next();
  }
  if (op == "tcgen05") {
    StringRef kind = in.parts[1];
    // tcgen05.alloc / dealloc / relinquish_alloc_permit / ld / st / wait
    // are .sync.aligned: the warp executes them together (see wgmma).
    // resolveCollectives runs their effects (tcgen05Collective).
    if (in.has("aligned")) {
      t.status = Status::AtCollective;
      return false;
    }
    if (kind == "commit") {
      const Operand &mem = in.ops[0];
      uint64_t a = address(t, mem);
      Place p = resolve(t, a, "cluster");
      std::vector<unsigned> dests =
          StringRef(in.opcode).contains("multicast") && in.numOps >= 2
              ? ctasOfMask(t, value(t, in.ops[1]))
              : std::vector<unsigned>{p.cta};
      for (unsigned d : dests) {
        schedule(d, p.offset, Event::Arrive, 1,
                 formatv("tcgen05.commit of thread {0} of {1} at {2}", t.tid,
                         describeCta(t.cta), where(in))
                     .str());
      }
      return next();
    }
    if (kind == "mma" || kind == "cp") {
      checkTmemLive(t, t.cta, in);
      if (kind == "mma" && in.has("cta_group::2") && clusterSize() > 1)
        checkTmemLive(t, ctaOfRank(t.cta, clusterRank(t.cta) ^ 1), in);
    }
    return next(); // mma, fence, cp, shift
  }
  if (op == "wgmma") {
    // wgmma.fence / mma_async / commit_group / wait_group are .sync.aligned:
    // every lane of the warp executes the same instruction together, so a
    // lane cannot run ahead of one still spinning on a barrier before it.
    // A warp collective of all lanes (resolveCollectives runs it).
    t.status = Status::AtCollective;
    return false;
  }

  // Barriers and warp collectives: handled by the scheduler.
  if (op == "bar" || op == "barrier") {
    if (in.is("bar") && in.parts.size() > 1 && in.parts[1] == "warp") {
      t.status = Status::AtCollective;
      return false;
    }
    bool cluster = in.parts.size() > 1 && in.parts[1] == "cluster";
    if (cluster) {
      bool isArrive = in.has("arrive");
      unsigned first = ctaOfRank(t.cta, 0);
      size_t ti = size_t(t.cta) * threadsPerCta() + t.tid;
      if (isArrive) {
        clusterArrivePhase[ti] = clusterPhase[first];
        if (++clusterArrived[first] == clusterSize() * threadsPerCta()) {
          clusterArrived[first] = 0;
          ++clusterPhase[first];
          ++clusterEpoch[first];
          for (unsigned r = 0; r < clusterSize(); ++r)
            ++ctaEpoch[ctaOfRank(first, r)];
          for (Thread &o : threads)
            if (o.status == Status::Blocked && o.waitCluster &&
                ctaOfRank(o.cta, 0) == first) {
              o.status = Status::Runnable;
              o.waitCluster = false;
            }
        }
        return next();
      }
      // wait: until the phase this thread arrived in is complete.
      auto it = clusterArrivePhase.find(ti);
      uint64_t arrivedIn = it == clusterArrivePhase.end() ? ~0ull : it->second;
      if (arrivedIn != ~0ull && clusterPhase[first] > arrivedIn) {
        clusterArrivePhase.erase(ti);
        return next();
      }
      t.status = Status::Blocked;
      t.waitCluster = true;
      t.waitWhat = "the cluster barrier (barrier.cluster.wait) at " + where(in);
      return false;
    }
    // bar.sync / barrier.sync / bar.arrive id[, count]
    unsigned id = in.numOps == 0 ? 0 : unsigned(v(0));
    unsigned count = in.numOps > 1 ? unsigned(v(1)) : 0;
    bool arriveOnly = in.has("arrive");
    NamedBarrier &nb = bars[{t.cta, id}];
    ++nb.arrived;
    if (count)
      nb.count = count;
    size_t ti = size_t(t.cta) * threadsPerCta() + t.tid;
    if (!arriveOnly) {
      nb.waiting.push_back(ti);
      t.status = Status::Blocked;
      t.waitBar = id;
      t.waitWhat = formatv("bar.sync {0} at {1}", id, where(in)).str();
    } else {
      ++t.pc;
    }
    checkBar(t.cta, id);
    return t.status == Status::Runnable;
  }
  if (op == "elect" || op == "shfl" || op == "activemask" || op == "vote" ||
      op == "match" || op == "redux") {
    t.status = Status::AtCollective;
    return false;
  }
  if (op == "call") {
    finding("unsupported", "a call at " + where(in));
    t.status = Status::Exited;
    return false;
  }
  finding("unsupported",
          "'" + in.opcode + "' at " + where(in) + " (its result reads as 0)");
  if (in.numOps != 0)
    set(0, 0);
  return next();
}

/// Warp collectives: a warp's lanes that wait at the same collective
/// instruction proceed together once every lane the instruction names
/// (its member mask, or for activemask the lanes that can still come)
/// is there.
bool Machine::resolveCollectives() {
  bool progress = false;
  unsigned perCta = threadsPerCta();
  unsigned warps = (perCta + 31) / 32;
  for (unsigned c = 0; c < ctaCount(); ++c)
    for (unsigned w = 0; w < warps; ++w) {
      size_t base = size_t(c) * perCta + w * 32;
      unsigned lanes = std::min(32u, perCta - w * 32);
      // Group the waiting lanes by pc.
      std::map<size_t, uint32_t> atPc;
      bool anyRunnable = false;
      for (unsigned l = 0; l < lanes; ++l) {
        Thread &t = threads[base + l];
        if (t.status == Status::AtCollective)
          atPc[t.pc] |= 1u << l;
        else if (t.status == Status::Runnable)
          anyRunnable = true;
      }
      for (auto &[pc, atThisPc] : atPc) {
        // Lanes at the same instruction that name different member masks
        // (lanes of different iterations, or groups of an earlier
        // activemask) are separate collectives: each group by its mask.
        const uint32_t here = atThisPc;
        uint32_t remaining = atThisPc;
        while (remaining) {
          const Instr &in = kernel.code[pc];
          StringRef op = in.parts[0];
          uint32_t needed;
          bool isActivemask = op == "activemask";
          Thread &first = threads[base + llvm::countr_zero(remaining)];
          if (isActivemask) {
            // The lanes that are here together at the end of the round (as
            // with independent thread scheduling, lanes elsewhere form their
            // own group when they come).
            needed = here;
          } else {
            // The member mask: the first operand after the results; every
            // lane of the warp for wgmma (.sync.aligned).
            unsigned maskIndex = op == "wgmma" || op == "tcgen05" ? in.numOps
                                 : op == "elect"                  ? 1
                                 : op == "shfl" ? in.numOps - 1
                                 : op == "bar"  ? 0
                                                : in.numOps - 1;
            needed = maskIndex < in.numOps
                         ? uint32_t(value(first, in.ops[maskIndex]))
                         : 0xffffffffu;
            needed &= lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
          }
          if (isActivemask) {
            remaining = 0;
          } else {
            unsigned maskIndex = op == "wgmma" || op == "tcgen05" ? in.numOps
                                 : op == "elect"                  ? 1
                                 : op == "shfl" ? in.numOps - 1
                                 : op == "bar"  ? 0
                                                : in.numOps - 1;
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(remaining >> l & 1))
                continue;
              uint32_t theirs =
                  maskIndex < in.numOps
                      ? uint32_t(value(threads[base + l], in.ops[maskIndex]))
                      : 0xffffffffu;
              theirs &= lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
              if (theirs == needed)
                remaining &= ~(1u << l);
            }
          }
          if ((needed & here) != needed) {
            // A lane of the mask that exited, or waits at another
            // collective while nothing can run, never comes.
            bool stuck = !anyRunnable;
            for (unsigned l = 0; l < lanes; ++l)
              if ((needed >> l & 1) && !(here >> l & 1) &&
                  threads[base + l].status == Status::Exited)
                stuck = true;
            if (stuck && !anyRunnable) {
              // Where the missing lanes are instead.
              std::string elsewhere;
              for (unsigned l = 0; l < lanes; ++l) {
                if (!(needed >> l & 1) || (here >> l & 1))
                  continue;
                const Thread &o = threads[base + l];
                elsewhere += formatv("; lane {0} {1}", l,
                                     o.status == Status::Exited ? "exited"
                                     : o.pc < kernel.code.size()
                                         ? "is at " + where(kernel.code[o.pc])
                                         : std::string("ended"))
                                 .str();
              }
              finding("divergent-collective",
                      formatv("'{0}' at {1} in warp {2} of {3} waits for "
                              "lanes (mask {4:x}) of which only {5:x} reach "
                              "it{6}",
                              in.opcode, where(in), w, describeCta(c), needed,
                              here, elsewhere));
            }
            continue;
          }
          // Execute for the lanes of `needed`.
          uint32_t members = needed;
          if (op == "elect") {
            unsigned leader = llvm::countr_zero(members);
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                // r|p: the leader's lane and whether this lane is it; a
                // lone result is the predicate.
                bool elected = l == leader;
                if (in.ops[0].kind == Operand::Kind::Vec)
                  setResult(threads[base + l], in.ops[0], leader, elected);
                else
                  setReg(threads[base + l], in.ops[0], elected);
              }
          } else if (op == "activemask") {
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                setReg(threads[base + l], in.ops[0], members);
          } else if (op == "shfl") {
            // shfl.sync.mode.b32 d[|p], a, b, c, membermask
            StringRef mode = in.parts[2];
            uint64_t vals[32] = {};
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                vals[l] = value(threads[base + l], in.ops[1]);
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(members >> l & 1))
                continue;
              Thread &t = threads[base + l];
              unsigned b = unsigned(value(t, in.ops[2])) & 31;
              unsigned cval = unsigned(value(t, in.ops[3]));
              unsigned maxLane = cval & 31, segMask = (cval >> 8) & 31;
              unsigned minLane = l & segMask;
              unsigned maxL = minLane | (maxLane & ~segMask);
              int j = l;
              bool pval = true;
              if (mode == "idx")
                j = int(minLane | (b & ~segMask));
              else if (mode == "up") {
                j = int(l) - int(b);
                pval = j >= int(maxL);
              } else if (mode == "down") {
                j = int(l) + int(b);
                pval = j <= int(maxL);
              } else if (mode == "bfly") {
                j = int(l ^ b);
                pval = j <= int(maxL);
              }
              if (mode == "idx")
                pval = unsigned(j) <= maxL;
              if (!pval)
                j = int(l);
              setResult(t, in.ops[0], vals[unsigned(j) & 31], pval);
            }
          } else if (op == "vote") {
            uint32_t ballot = 0;
            bool all = true, any = false;
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                Thread &t = threads[base + l];
                bool p = value(t, in.ops[1]) & 1;
                ballot |= uint32_t(p) << l;
                all &= p;
                any |= p;
              }
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                Thread &t = threads[base + l];
                uint64_t r = in.has("ballot") ? ballot
                             : in.has("all")  ? all
                             : in.has("any")
                                 ? any
                                 : (ballot == 0 || ballot == members);
                setReg(t, in.ops[0], r);
              }
          } else if (op == "match") {
            // match.any.sync.bN d, a, membermask: the members whose a equals
            // this lane's; match.all.sync.bN d[|p], a, membermask: the
            // members if all are equal, else 0 (p: whether they are).
            bool all = in.has("all");
            uint64_t width = in.has("b32") ? 0xffffffffull : ~0ull;
            uint32_t equalAll = members;
            uint64_t firstValue = 0;
            bool haveFirst = false;
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                uint64_t v = value(threads[base + l], in.ops[1]) & width;
                if (haveFirst && v != firstValue)
                  equalAll = 0;
                firstValue = haveFirst ? firstValue : v;
                haveFirst = true;
              }
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(members >> l & 1))
                continue;
              Thread &t = threads[base + l];
              uint64_t mine = value(t, in.ops[1]) & width;
              uint32_t same = 0;
              for (unsigned k = 0; k < lanes; ++k)
                if ((members >> k & 1) &&
                    (value(threads[base + k], in.ops[1]) & width) == mine)
                  same |= 1u << k;
              if (!all)
                setReg(t, in.ops[0], same);
              else if (in.ops[0].kind == Operand::Kind::Vec)
                setResult(t, in.ops[0], equalAll, equalAll != 0);
              else
                setReg(t, in.ops[0], equalAll);
            }
          } else if (op == "tcgen05") {
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                tcgen05Collective(threads[base + l], in);
          } else if (op == "wgmma") {
            // The accumulator registers read as 0 (the simulator checks
            // synchronization, not values).
            if (in.parts.size() > 1 && in.parts[1] == "mma_async" &&
                in.numOps != 0 && in.ops[0].kind == Operand::Kind::Vec)
              for (unsigned l = 0; l < lanes; ++l)
                if (members >> l & 1)
                  for (const Operand &e : in.ops[0].elems)
                    setReg(threads[base + l], e, 0);
          } else if (op != "bar") {
            finding("unsupported", "'" + in.opcode + "' at " + where(in));
          }
          for (unsigned l = 0; l < lanes; ++l)
            if (members >> l & 1) {
              Thread &t = threads[base + l];
              t.status = Status::Runnable;
              ++t.pc;
            }
          progress = true;
          // The lanes just released run again: a group that waits for
          // them is not stuck.
          anyRunnable = true;
        }
      }
    }
  return progress;
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
    if (e.kind == Event::CompleteTx)
      completeTx(e.cta, e.offset, e.amount, e.what);
    else {
      if (ctaExited(e.cta))
        finding("exited-cta-target",
                formatv("{0} arrives on mbarrier {1} of {2}, which has "
                        "exited",
                        e.what, barrierName(e.offset), describeCta(e.cta)));
      arrive(e.cta, e.offset, e.amount, nullptr, nullptr);
    }
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
    reportDeadlock();
    reportUnbalancedBytes();
    break;
  }
  result.rounds = round;
  return result;
}

//===----------------------------------------------------------------------===//
// Exhaustive search
//===----------------------------------------------------------------------===//

/// An instruction another thread or an asynchronous completion can observe
/// or be observed by: barrier, memory, collective, asynchronous-copy and
/// control-ending instructions. Between two of them a thread's steps
/// commute with every other thread's, so only these are interleaved.
bool Machine::isVisible(const Instr &in) const {
  StringRef op = in.parts[0];
  return op == "mbarrier" || op == "ld" || op == "st" || op == "atom" ||
         op == "red" || op == "bar" || op == "barrier" || op == "cp" ||
         op == "tcgen05" || op == "elect" || op == "shfl" ||
         op == "activemask" || op == "vote" || op == "fence" || op == "trap" ||
         op == "ret" || op == "exit" || op == "mapa";
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
  }
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
      if (e.kind == Event::CompleteTx)
        next->completeTx(e.cta, e.offset, e.amount, e.what);
      else
        next->arrive(e.cta, e.offset, e.amount, nullptr, nullptr);
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
    StringRef op = in.parts[0];
    std::string space = spaceOf(in);
    if (space != "" && space != "global")
      continue;
    if (op == "ld" || op == "ldu" || op == "atom" || op == "red")
      s.kernelReadsGlobal = true;
    if (op == "st" || op == "atom" || op == "red")
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

} // namespace

std::string pmlir::sim::checkLaunchContract(const PtxModule &module,
                                            const Kernel &kernel,
                                            const LaunchConfig &launch) {
  auto dims = [](const unsigned *d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
           std::to_string(d[2]) + ")";
  };
  auto differs = [](const unsigned *want, const unsigned *got) {
    return want[0] &&
           (want[0] != got[0] || want[1] != got[1] || want[2] != got[2]);
  };
  if (differs(kernel.requiredBlock, launch.block))
    return "kernel " + kernel.name + " requires block " +
           dims(kernel.requiredBlock) + " (its .reqntid), got " +
           dims(launch.block) + ": the driver refuses that launch";
  if (differs(kernel.requiredCluster, launch.cluster))
    return "kernel " + kernel.name + " requires cluster " +
           dims(kernel.requiredCluster) + " (its .reqnctapercluster), got " +
           dims(launch.cluster) + ": the driver refuses that launch";
  auto constant = [&](StringRef what) -> uint64_t {
    auto it = module.constants.find(
        ("__pipeline_mlir_min_" + what + "_" + kernel.name).str());
    return it == module.constants.end() ? 0 : it->second;
  };
  if (uint64_t least = constant("block"); launch.block[0] < least)
    return "kernel " + kernel.name + ": block " + dims(launch.block) + " has " +
           std::to_string(launch.block[0]) +
           " threads along x; its roles need at least " +
           std::to_string(least) +
           " (its launch contract, which the launchers enforce)";
  if (uint64_t least = constant("smem"); launch.dynamicShared < least)
    return "kernel " + kernel.name + " needs at least " +
           std::to_string(least) +
           " bytes of dynamic shared memory (its launch contract, which the "
           "launchers enforce), got " +
           std::to_string(launch.dynamicShared);
  return "";
}

Expected<SimResult> pmlir::sim::simulate(const PtxModule &module,
                                         StringRef kernelName,
                                         const LaunchConfig &launch,
                                         const SimOptions &options) {
  const Kernel *kernel = module.lookup(kernelName);
  if (!kernel) {
    std::string names;
    for (const Kernel &k : module.kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    return createStringError("no kernel '" + kernelName +
                             "' in the PTX (it has: " + names + ")");
  }
  if (std::string why = checkLaunchContract(module, *kernel, launch);
      !why.empty())
    return createStringError(why);
  Machine machine(module, *kernel, launch, options);
  if (Error e = machine.setup())
    return std::move(e);
  return options.exhaustive ? machine.explore() : machine.run();
}
