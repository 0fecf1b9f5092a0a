//===- Machine.h - the simulator's machine state ----------------*- C++ -*-===//
//
// The state of one simulated launch (threads with their registers, shared
// and global memory, mbarriers, asynchronous completions, the clusters) and
// the operations on it. Its members are defined by topic:
//   Simulator.cpp   setup of a launch, the library's entry points
//   Memory.cpp      operand values, special registers, addresses, loads/stores
//   Engine.cpp      the instructions, one thread at a time
//   Collectives.cpp warp collectives (elect, shfl, vote, match, wgmma, tcgen05)
//   Scheduler.cpp   mbarrier phases, asynchronous completions, the schedules,
//                   findings at the end of a run
//   Search.cpp      the bounded exhaustive search
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_LIB_SIM_MACHINE_H
#define PIPELINE_LIB_SIM_MACHINE_H

#include "pipeline-c/HangRecord.h"
#include "pipeline/Sim/Simulator.h"
#include "pipeline/Sim/TensorCore.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>

namespace pmlir::sim::detail {
using namespace llvm;
}

namespace pmlir::sim::detail {

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
  bool overrunReported = false;
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
  /// Registers whose value is undefined: derived from the coordinates
  /// clusterlaunchcontrol.query_cancel.get_first_ctaid decoded from a
  /// response that says not canceled (register -> that PTX line).
  std::map<unsigned, unsigned> poison;
  /// wgmma.mma_async registers in flight (accumulators, and A's
  /// registers) -> the group they belong to: the open group (wgmmaOpen)
  /// until commit_group, then a committed one until a wait_group retires
  /// it. An instruction other than wgmma that touches one is a finding.
  std::map<unsigned, uint64_t> wgmmaPending;
  uint64_t wgmmaOpen = 0;
  std::deque<uint64_t> wgmmaCommitted;
  /// A parity wait that blocked: the barrier (key) and the phase it waits
  /// to see complete, until the thread polls the barrier again (~0: none).
  /// The phase after it completing first is a phase-overrun.
  uint64_t observeBarrier = ~0ull;
  uint64_t observePhase = 0;
  unsigned observeLine = 0;
};

struct Event {
  uint64_t due = 0;
  unsigned cta = 0;
  uint64_t offset = 0; // barrier in that CTA's shared window
  enum Kind { CompleteTx, Arrive } kind = CompleteTx;
  int64_t amount = 0;
  std::string what;
  /// The data that lands with it, read from global memory when it lands:
  /// a TMA box (`map`, `coords`) or `copyBytes` bytes from `srcGlobal`,
  /// written to the shared memory of `dataCta` at `dataOffset`.
  std::shared_ptr<const TensorMapDesc> map;
  std::vector<int32_t> coords;
  uint64_t srcGlobal = 0, copyBytes = 0;
  unsigned dataCta = 0;
  uint64_t dataOffset = 0;
  std::string dataWhere;
};

class Machine {
public:
  Machine(const PtxModule &m, const Kernel &k, const LaunchConfig &l,
          const SimOptions &o)
      : module(m), kernel(k), launch(l), options(o), rng(o.seed) {}

  Error setup();
  /// The contents of the named buffers now.
  std::map<std::string, std::vector<uint8_t>> namedBufferContents() const {
    std::map<std::string, std::vector<uint8_t>> out;
    for (auto &[name, base] : namedBuffers)
      out[name] = global.at(base);
    return out;
  }
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
  /// The barrier's name: its pipeline, role and stage where the kernel's
  /// barrier table says (labelBarrier), then its place in shared memory.
  std::string barrierName(uint64_t offset) const {
    auto label = barrierLabels.find(offset);
    std::string place = barrierPlace(offset);
    if (label == barrierLabels.end())
      return place;
    return label->second + " (" + place + ")";
  }
  std::string barrierPlace(uint64_t offset) const {
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
  /// The kernel's barrier table (PMLIR_BARRIER_NAMES_SYMBOL): per
  /// pipeline.init_mbars, its location, pipeline name and barrier counts.
  struct BarrierGroup {
    std::string loc, pipeline;
    unsigned numFull = 0, numBarriers = 0;
  };
  std::vector<BarrierGroup> barrierGroups;
  /// Inits done so far by (CTA, group), and the names they gave.
  std::map<std::pair<unsigned, size_t>, unsigned> groupInits;
  std::map<uint64_t, std::string> barrierLabels;
  /// Names the barrier `in` (an mbarrier.init of thread `t`) initializes
  /// at `offset`: the k-th init of its group in the CTA is full[k], then
  /// empty[k - full barriers].
  void labelBarrier(Thread &t, const Instr &in, uint64_t offset) {
    for (size_t g = 0; g < barrierGroups.size(); ++g) {
      const BarrierGroup &group = barrierGroups[g];
      if (in.loc.empty() || group.loc != in.loc || !group.numBarriers)
        continue;
      unsigned k = groupInits[{t.cta, g}]++ % group.numBarriers;
      bool full = k < group.numFull;
      std::string pipeline = StringRef(group.pipeline).starts_with("pipeline ")
                                 ? group.pipeline
                                 : "pipeline '" + group.pipeline + "'";
      barrierLabels.emplace(offset, formatv("{0} {1}[{2}]", pipeline,
                                            full ? "full" : "empty",
                                            full ? k : k - group.numFull)
                                        .str());
      return;
    }
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
  /// The shared memory of the launch: static plus dynamic bytes.
  uint64_t smemLimit() const {
    return kernel.staticShared + launch.dynamicShared;
  }
  /// Reports an access of `bytes` at shared offset `offset` that reaches
  /// past the shared memory of the launch (true then), or of global
  /// memory outside every buffer.
  bool checkShared(Thread &t, uint64_t offset, unsigned bytes);
  void reportGlobal(Thread &t, uint64_t addr, unsigned bytes);
  uint64_t load(Thread &t, uint64_t addr, StringRef space, unsigned bytes);
  void store(Thread &t, uint64_t addr, StringRef space, unsigned bytes,
             uint64_t v);

  // Barriers.
  Barrier &barrierAt(unsigned cta, uint64_t offset) {
    return barriers[barrierKey(cta, offset)];
  }
  void arrive(unsigned cta, uint64_t offset, int64_t count, Thread *from,
              const Instr *in, const std::string &what = "");
  void completeTx(unsigned cta, uint64_t offset, int64_t bytes,
                  const std::string &what);
  /// Completes the phase if its arrivals and bytes are in; `by` names the
  /// arrival or completion that did it (the phase-overrun finding).
  void maybeComplete(unsigned cta, uint64_t offset, const std::string &by);
  void wakeBarrier(uint64_t key);

  // Execution.
  /// Runs `t` for at most `budget` instructions.
  void step(Thread &t, unsigned budget);
  /// Executes one instruction; false when the thread stopped (blocked,
  /// waits at a collective, exited).
  bool execute(Thread &t);
  /// execute() without the tracking of undefined values (`poison`).
  bool executeInstr(Thread &t);
  /// Per CTA, the PTX line of a query_cancel.is_canceled that read a
  /// response saying not canceled (0: none yet).
  std::vector<unsigned> clcFailedAt;
  unsigned &clcFailedOf(unsigned cta) {
    if (clcFailedAt.size() != ctaCount())
      clcFailedAt.resize(ctaCount(), 0);
    return clcFailedAt[cta];
  }
  /// cp.* instructions: TMA and bulk copies, cp.async (Engine.cpp).
  bool copy(Thread &t, const Instr &in);
  /// Runs the warp collectives whose lanes are all there. A collective
  /// whose missing lanes can never come is a divergent-collective; with
  /// `final` (every live thread is blocked: the deadlock) every collective
  /// still short of lanes is reported, and none runs.
  bool resolveCollectives(bool final = false);
  bool fireEvents(bool all);
  /// An asynchronous completion lands: its data, then its bytes or
  /// arrival.
  void land(const Event &e);
  /// Device memory as TMA and bulk copies see it: false when the range is
  /// outside every buffer.
  bool readGlobal(uint64_t addr, uint8_t *out, size_t n);
  /// The `n` bytes of the buffer at `addr`, or null when the range is not
  /// inside one buffer.
  uint8_t *globalBytes(uint64_t addr, size_t n);
  bool writeGlobal(uint64_t addr, const uint8_t *in, size_t n);
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
  /// The tensor maps, by the address a kernel names them with: the bytes a
  /// load of the box completes, and the encoding where one was given.
  struct TensorMap {
    uint64_t bytes = 0;
    std::optional<TensorMapDesc> desc;
  };
  std::map<uint64_t, TensorMap> tensorMaps;
  /// Named device buffers: name -> base address.
  std::map<std::string, uint64_t> namedBuffers;
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
  /// Each CTA's tensor memory with its data (made on first use; shared
  /// between the machines of the exhaustive search until one writes).
  std::vector<std::shared_ptr<Tmem>> tmemData;
  Tmem &tmemOf(unsigned cta);
  /// A tensor-core warp collective with data (wgmma.mma_async, tcgen05.ld/
  /// st, ldmatrix, stmatrix, movmatrix) for the lanes `members` of warp `w`
  /// of CTA `c`; false when `in` is none of them (TensorExec.cpp).
  bool tensorCollective(unsigned c, unsigned w, uint32_t members,
                        const Instr &in);
  /// Reports an instruction that reads or writes a register of a
  /// wgmma.mma_async not yet retired by wgmma.wait_group.
  void checkWgmmaInFlight(Thread &t, const Instr &in);
  std::set<size_t> wgmmaReported;
  /// tcgen05.mma and tcgen05.cp, issued by one thread.
  void tcgen05Issue(Thread &t, const Instr &in);
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

  /// Each CTA's allocated tensor-memory columns, one bit per 32 columns
  /// (tcgen05.alloc allocates a power of 2 of 32 to 512 columns).
  std::vector<uint16_t> tmemCols;
  uint16_t &tmemColsOf(unsigned cta) {
    if (tmemCols.size() != ctaCount())
      tmemCols.resize(ctaCount(), 0);
    return tmemCols[cta];
  }
  /// A tcgen05 access by `t` at `in` of columns [col, col + ncols) of
  /// `cta`'s tensor memory: a `tmem-unallocated` finding for columns no
  /// tcgen05.alloc of the CTA holds (a CTA that freed its TMEM is
  /// tmem-after-dealloc's).
  void checkTmemColumns(const Thread &t, unsigned cta, const Instr &in,
                        unsigned col, unsigned ncols);
  /// tcgen05.alloc / dealloc / relinquish_alloc_permit of warp `w` of CTA
  /// `c` (every lane there): false while the warp has to wait — with
  /// .cta_group::2 for a warp of the peer CTA to execute the same
  /// operation (PTX ISA, tcgen05 "Issue Granularity": "Issue from two
  /// warps, one in each of the current CTA and its Peer CTA, in order to
  /// collectively perform the operation, i.e., the first warp to perform
  /// the operation could block until the second warp in the Peer CTA also
  /// performs the operation"), for an alloc until its columns are free.
  /// With the peer there, both warps execute it (TensorExec.cpp).
  bool tcgen05Manage(unsigned c, unsigned w, uint32_t members, const Instr &in);
  /// What a warp held at tcgen05.alloc / dealloc waits for ("" if none):
  /// the deadlock report's line.
  std::string tcgen05Waits(const Thread &t) const;

  /// The effect, for one lane, of a tcgen05 .sync.aligned instruction
  /// the whole warp reached (resolveCollectives; alloc and dealloc are
  /// tcgen05Manage's).
  void tcgen05Collective(Thread &t, const Instr &in) {
    StringRef kind = in.parts[1];
    if (kind == "ld" || kind == "st")
      checkTmemLive(t, t.cta, in); // the data: tensorCollective
    // wait::ld / wait::st, relinquish_alloc_permit: no state
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

// Instruction helpers.

/// The bit width of the instruction's type suffix (b32, u64, s16, pred).
inline unsigned typeBits(const Instr &in) {
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

inline bool isSignedType(const Instr &in) {
  for (const std::string &p : in.parts)
    if (p.size() >= 2 && p[0] == 's' && isDigit(p[1]))
      return true;
  return false;
}

inline bool isFloatType(const Instr &in) {
  for (const std::string &p : in.parts)
    if ((p.size() >= 2 && p[0] == 'f' && isDigit(p[1])) ||
        StringRef(p).starts_with("bf16") || StringRef(p).starts_with("e4m3") ||
        StringRef(p).starts_with("e5m2") || p == "rn" || p == "rz")
      return true;
  return false;
}

inline uint64_t truncBits(uint64_t v, unsigned bits) {
  return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
inline int64_t sext(uint64_t v, unsigned bits) {
  if (bits >= 64)
    return int64_t(v);
  uint64_t m = 1ull << (bits - 1);
  v = truncBits(v, bits);
  return int64_t((v ^ m) - m);
}

/// The state space named by an instruction (shared, global, param,
/// cluster for shared::cluster; "" = generic).
inline std::string spaceOf(const Instr &in) {
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

} // namespace pmlir::sim::detail

#endif // PIPELINE_LIB_SIM_MACHINE_H
