//===- LaunchContract.h - what a kernel needs of its launch -----*- C++ -*-===//
//
// The launch geometry a kernel's roles need, derived from the IR: usable
// without a pass. The protocol checker counts arrivals at it when the
// kernel declares no block size, and pipeline-record-launch-contract
// records it for the launchers, which refuse a smaller block before the
// driver is called (docs/lowering.md, "Launch contract").
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_ANALYSIS_LAUNCHCONTRACT_H
#define PIPELINE_DIALECT_PIPELINE_ANALYSIS_LAUNCHCONTRACT_H

#include "mlir/IR/Region.h"

#include <array>
#include <cstdint>
#include <optional>

namespace pmlir {

/// The block size the kernel whose body is `kernel` declares: gpu.func
/// `known_block_size`, `nvvm.reqntid`, `nvvm.maxntid` (the checks count at
/// it, so it is the contract too), or a gpu.launch with constant block
/// sizes.
std::optional<std::array<int64_t, 3>> declaredBlockSize(mlir::Region *kernel);

/// The least number of threads (x, whole warps, y = z = 1) with which every
/// role of the kernel runs: each op of the pipeline dialect that waits,
/// signals, loads, allocates or frees executes in all the threads that run
/// it in a 1024-thread block, or, for a role that grows with the block (it
/// reaches the upper half of that block: every warp but the first, every
/// even warp), in at least its lowest warp. Where the conditions read the
/// block size, the least block in which each role runs in some thread.
/// Derived by evaluating the roles' thread conditions (thread and lane ids,
/// the cluster rank, nvvm.elect.sync) for every thread of a 1024-thread
/// block. Unknown (std::nullopt) when a condition around a role is not a
/// function of the thread and rank, when the kernel reads a y or z thread
/// id or block dimension, or when it has no such op.
std::optional<int64_t> leastBlockSize(mlir::Region *kernel);

/// leastBlockSize, and whether a role grows with the block (it reaches the
/// upper half of a 1024-thread block, or the conditions read the block
/// size): then larger blocks change what the roles do.
struct DerivedBlockSize {
  int64_t threads;
  bool grows;
};
/// `threadRoles`, when given, is set when every role's conditions are
/// functions of the thread and rank (the block size alone is missing when
/// the derivation fails).
std::optional<DerivedBlockSize> deriveBlockSize(mlir::Region *kernel,
                                                bool *threadRoles = nullptr);

/// The block size the checks count at: the declared one, else
/// {leastBlockSize, 1, 1} with `derived` set (and `grows` as
/// deriveBlockSize says).
struct CheckedBlockSize {
  std::array<int64_t, 3> dims;
  bool derived = false;
  bool grows = false;
};
std::optional<CheckedBlockSize> checkedBlockSize(mlir::Region *kernel,
                                                 bool *threadRoles = nullptr);

} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_ANALYSIS_LAUNCHCONTRACT_H
