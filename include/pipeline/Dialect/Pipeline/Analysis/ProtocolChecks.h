//===- ProtocolChecks.h - static barrier protocol checks --------*- C++ -*-===//
//
// The barrier-protocol checks of `pipeline-verify-protocol`, usable without
// the pass. Each check proves a property where the IR determines it and
// stays silent where it does not: a diagnostic is always a real mistake on
// some path. The rules, with the hang or corruption each one prevents, are
// in docs/verifier.md ("The protocol pass").
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_ANALYSIS_PROTOCOLCHECKS_H
#define PIPELINE_DIALECT_PIPELINE_ANALYSIS_PROTOCOLCHECKS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace pmlir {

/// Arrival counts: where the kernel's block size is known and the threads
/// that signal a pipeline's barriers are given by warp-role and lane
/// conditions (thread and lane ids, nvvm.elect.sync, the cluster rank), the
/// arrivals per phase on its `full` (producer) and `empty` (consumer)
/// barriers, counted in every CTA that waits on them (with the signals of
/// the other CTAs of a pair or multicast group that reach it), equal the
/// counts of its `pipeline.init_mbars`.
mlir::LogicalResult verifyArrivalCounts(mlir::Operation *root);

/// For a kernel that declares no block size: the least whole-warp block in
/// which its roles run (LaunchContract.h) and, where a role grows with the
/// block, every barrier of every pipeline gets its count (the least such
/// block from there up to 1024 threads, when one is). Nothing when the
/// kernel declares its block or its roles say nothing of it. The least
/// block of the kernel's launch contract.
std::optional<int64_t> leastCountedBlockSize(mlir::Region *kernel);

/// expect_tx: the bytes a producer stage arms (`bytes(%n)` with a constant
/// `%n`, or a tile pipeline's default) equal the bytes of the
/// `nvgpu.tma.async.load`s that complete on that stage's barrier, counting
/// multicast loads of the other CTAs of the mask.
mlir::LogicalResult verifyExpectTxBytes(mlir::Operation *root);

/// Trip counts: the producer and the consumer of a pipeline move the same
/// number of items, where the loops around their stages prove otherwise.
mlir::LogicalResult verifyTripCounts(mlir::Operation *root);

/// Drain: a pipeline whose CTAs signal each other (cta_group = 2,
/// release_ctas > 1, a remote arrival or a multicast TMA) has its producer
/// reach the kernel exit only through `pipeline.drain_producer` or a
/// cluster barrier (nvvm.cluster.arrive + nvvm.cluster.wait).
mlir::LogicalResult verifyDrainAtExit(mlir::Operation *root);

/// MMA commits: a `pipeline.release_mma` or `pipeline.commit_mma` without
/// `elect(...)` (which lowers to elect.sync over the full warp) is not
/// under a condition that differs between the lanes of a warp.
mlir::LogicalResult verifyMmaElection(mlir::Operation *root);

/// Cluster launch control: `pipeline.clc_try_cancel` is executed by one
/// whole warp (each lane arms one CTA's barrier, then elect.sync over the
/// full warp issues the request), where the kernel's block size is declared
/// or derived (LaunchContract.h) and the executing threads are a function
/// of the thread.
mlir::LogicalResult verifyClcIssue(mlir::Operation *root);

/// Role placement: the roles whose place in the cluster the pipeline's kind
/// fixes wait only there: a CTA pair's input-pipeline consumer (the MMA)
/// and the producer of a pair pipeline whose consumers arrive as threads
/// (an accumulator pipeline) in the leader, its input-pipeline producer
/// (the TMA loads) in both CTAs of the pair, a clc pipeline's producer (the
/// scheduler) in cluster rank 0. Judged from the conditions on the cluster
/// rank around each wait, without the block size.
mlir::LogicalResult verifyRolePlacement(mlir::Operation *root);

/// Tensor memory: each `!pipeline.tmem` is allocated once in the kernel's
/// entry block, freed by one warp, and released by exactly `readers`
/// threads of each CTA (when the block size is known).
mlir::LogicalResult verifyTensorMemory(mlir::Operation *root);

/// Everything `pipeline-verify-protocol` checks: the collective
/// initialization (verifyPipelineInit), then, if that holds, the checks
/// above. Returns failure if any reported an error.
mlir::LogicalResult verifyPipelineProtocol(mlir::Operation *root);

} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_ANALYSIS_PROTOCOLCHECKS_H
