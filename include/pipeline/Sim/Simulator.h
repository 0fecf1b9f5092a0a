//===- Simulator.h - run a kernel on the CPU ---------------------*- C++
//-*-===//
//
// Executes a PTX kernel with its data (pipeline-sim, docs/simulator.md):
// integer, predicate, branch and floating-point instructions (FloatOps.h);
// TMA copies through tensor maps with their encoding (Tma.h); wgmma and
// tcgen05 MMAs with tensor memory (TensorCore.h); mbarriers (init,
// arrive, expect_tx, complete_tx, try_wait/test_wait, phases, pending
// counts, remote arrivals through mapa); TMA loads as byte completions on
// their barrier at a later, scheduled time (multicast, .cta_group::2);
// tcgen05.commit as a later arrival (multicast); bar.sync, the cluster
// barrier, elect.sync, shfl.sync, activemask, bar.warp.sync. It reports
// deadlocks (every live thread blocked, with where each waits), uses of
// uninitialized barriers, collectives a lane never reaches, CTAs exiting while
// remote arrivals or TMA bytes still target them, traps.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_SIM_SIMULATOR_H
#define PIPELINE_SIM_SIMULATOR_H

#include "pipeline/Sim/Ptx.h"
#include "pipeline/Sim/Tma.h"

#include <map>
#include <optional>

#include <cstdint>
#include <string>
#include <vector>

namespace pmlir::sim {

/// One kernel argument, in parameter order, or a device buffer no
/// parameter names (LaunchConfig::buffers: the memory a tensor map points
/// into).
struct ArgValue {
  enum class Kind {
    /// A scalar: `value` holds its bits (an integer, or a float's bits).
    Scalar,
    /// A pointer to a device buffer of `bytes` bytes: `data` (zero-filled
    /// past its end).
    Buffer,
    /// A pointer to (or, for a .b8 array parameter, the bytes of) a
    /// CUtensorMap. With `map`, TMA copies through it move data between
    /// the buffer it names and shared memory; without, it is opaque and
    /// each TMA load through it completes `bytes` bytes.
    TensorMap,
  };
  Kind kind = Kind::Scalar;
  uint64_t value = 0;
  uint64_t bytes = 0;
  /// A buffer's name (what a tensor map's `data=` and an output name) and
  /// its initial contents.
  std::string name;
  std::vector<uint8_t> data;
  std::optional<TensorMapDesc> map;
};

/// Parses one kernel argument as the command line gives it and appends it
/// to `args`:
///   INTEGER                     a scalar (decimal or 0x hex)
///   f32:VALUE, f64:VALUE        a floating-point scalar
///   buf:[NAME=](BYTES|@FILE)    a buffer, zero-filled or with a file's bytes
///   buf:[NAME=]BYTES@FILE       a buffer of BYTES, starting with the file's
///   tmap:BYTES                  an opaque tensor map whose box is BYTES
///   tmap:SPEC                   a tensor map with its encoding
///                               (parseTensorMapSpec: ELEM:dims=..:box=..
///                               [:swizzle=..][:oob=..]:data=NAME)
/// Files are read relative to the working directory.
llvm::Error parseArgSpec(llvm::StringRef spec, std::vector<ArgValue> &args);

struct LaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  unsigned cluster[3] = {1, 1, 1};
  uint64_t dynamicShared = 0;
  /// Clusters that run at once (0: every cluster of the grid). The others
  /// wait to be launched when a running cluster ends, or to be canceled
  /// by a cluster launch control try_cancel, whose response then names
  /// them (a persistent kernel's scheduler).
  unsigned residentClusters = 0;
  std::vector<ArgValue> args;
  /// Device buffers that no parameter names (Kind::Buffer with a name).
  std::vector<ArgValue> buffers;
};

struct SimOptions {
  /// Round-robin (false) or seeded random schedules of threads and of
  /// asynchronous completions.
  bool random = false;
  uint64_t seed = 1;
  /// Instructions a thread runs before the next one is scheduled
  /// (round-robin; random schedules draw 1 to this).
  unsigned quantum = 32;
  /// Scheduling rounds an asynchronous completion (TMA bytes, an MMA
  /// commit) waits before it lands (round-robin).
  unsigned asyncDelay = 2;
  /// Stop (with a finding) after this many instructions.
  uint64_t maxSteps = 200000000;
  /// The bounded exhaustive search instead of one schedule: every order of
  /// the warps' visible steps (barrier, memory, collective, asynchronous
  /// copy) and of the asynchronous completions, depth first, states
  /// hashed so that each is explored once; a warp's runnable lanes step
  /// together. Stops at the first finding (with its schedule), after
  /// maxStates states or below maxDepth steps.
  bool exhaustive = false;
  uint64_t maxStates = 200000;
  /// The partial-order reduction of the exhaustive search: where no step
  /// of a cluster touches global memory that another cluster's steps may
  /// touch, only that cluster's steps are explored from a state (the other
  /// clusters' steps commute with them).
  bool reduce = true;
  unsigned maxDepth = 5000;
};

struct Finding {
  /// deadlock, trap, uninitialized-barrier, divergent-collective,
  /// exited-cta-target, unsupported, step-limit, memory
  std::string kind;
  std::string message;
};

struct SimResult {
  /// Every thread ran to its end.
  bool completed = false;
  uint64_t instructions = 0;
  uint64_t rounds = 0;
  /// The exhaustive search: distinct states, transitions, and whether a
  /// bound stopped it before every order was explored.
  uint64_t statesExplored = 0;
  uint64_t transitions = 0;
  /// States where the partial-order reduction explored one cluster's
  /// steps only.
  uint64_t reducedStates = 0;
  bool bounded = false;
  /// Clusters canceled by try_cancel (their work done by a running one).
  uint64_t clustersCanceled = 0;
  std::vector<Finding> findings;
  /// The final contents of every named buffer (arguments and
  /// LaunchConfig::buffers), by name.
  std::map<std::string, std::vector<uint8_t>> buffers;
};

/// Runs `kernel` of `module` with `launch`. Fails (llvm::Error) only on a
/// bad launch (argument count, sizes); what the kernel does wrong is in
/// the result's findings.
/// Why a launch of `kernel` with `launch` would be refused, as the driver
/// and the project's launchers refuse it: a block or cluster other than
/// the kernel's `.reqntid` / `.reqnctapercluster`, fewer threads along x
/// or less dynamic shared memory than its recorded launch contract; "" when
/// none. simulate() refuses such a launch with this message.
std::string checkLaunchContract(const PtxModule &module, const Kernel &kernel,
                                const LaunchConfig &launch);

llvm::Expected<SimResult> simulate(const PtxModule &module,
                                   llvm::StringRef kernel,
                                   const LaunchConfig &launch,
                                   const SimOptions &options);

} // namespace pmlir::sim

#endif // PIPELINE_SIM_SIMULATOR_H
