//===- ProtocolUtils.h - shared pieces of the protocol checks ---*- C++ -*-===//
//
// Internal to the analysis library: what the protocol checks (a file each:
// ArrivalCounts.cpp, ExpectTxBytes.cpp, TripCounts.cpp, DrainAtExit.cpp,
// ...) share. The pipelines of a kernel and their uses, the pipeline a
// stage handle belongs to, constant trip counts, and a model of the
// threads of a CTA (and of the CTAs of a pair or multicast group) that
// says which threads execute an op, by evaluating warp-role and lane
// conditions for every thread of a kernel whose block size is known.
//
// Every query answers "unknown" (null / std::nullopt) where the IR does not
// determine the answer; the checks then stay silent.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_LIB_DIALECT_PIPELINE_ANALYSIS_PROTOCOLUTILS_H
#define PIPELINE_LIB_DIALECT_PIPELINE_ANALYSIS_PROTOCOLUTILS_H

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pmlir {
namespace protocol {

/// The body of the kernel that runs `op`: the closest enclosing gpu.launch
/// body (not yet outlined) or function; null for a declaration.
mlir::Region *kernelBody(mlir::Operation *op);

/// The value underneath a pipeline, tile pipeline or role value (through
/// pipeline.role and pipeline.input_tile_pipeline).
mlir::Value rootOf(mlir::Value pipeline);

/// A `pipeline.create` and everything that uses its barriers.
struct PipelineUses {
  CreateOp create;
  PipelineType type;
  mlir::Region *kernel = nullptr;
  /// The init, when there is exactly one.
  InitMbarsOp init;
  /// Every op that takes the pipeline or a view of it (the views excluded).
  llvm::SmallVector<mlir::Operation *> users;
  /// Stage handle values of each role (op results and block arguments,
  /// carried ones included) that trace back to this pipeline.
  llvm::SmallVector<mlir::Value> stages[2];
  /// Stage values of each role whose pipeline could not be traced exist in
  /// the kernel (a handle in a cf block argument, ...): counting checks
  /// stay silent.
  bool untraced[2] = {false, false};
};

/// Collects the pipelines created in `root` with their uses. Pipelines
/// shared with another kernel (a host pipeline captured by a gpu.launch)
/// are left out.
llvm::SmallVector<PipelineUses> collectPipelines(mlir::Operation *root);

/// The pipeline (the pipeline.create result) a stage handle value belongs
/// to, through acquires, scoped regions, scf.for iter_args and results and
/// scf.if / scf.index_switch results; null when it cannot be traced.
mlir::Value stageRoot(mlir::Value stage);

/// True when every use of a barrier group (the first result of
/// pipeline.mbar / producer_mbar / consumer_mbar) only names the barrier
/// for a TMA transaction (nvgpu.tma.async.load, or a pointer from
/// nvgpu.mbarrier.get taken to nvvm.cp.async.bulk.tensor, possibly through
/// casts and nvvm.mapa): none of them arrives on it.
bool onlyTransactionUses(mlir::Value group);

/// The constant value of an integer or index value, if it is one.
std::optional<int64_t> constantInt(mlir::Value v);

/// The trip count of an scf.for with constant bounds and step.
std::optional<int64_t> constantTripCount(mlir::Operation *forOp);

/// How many times `op` runs per execution of `ancestor` (a block that
/// contains `op`, possibly nested): the product of the constant trip counts
/// of the scf.for loops in between. Conditions in between (scf.if,
/// scf.index_switch) count 1: whether `op` runs at all is the thread
/// model's business. Unknown for a loop without constant trip count, an
/// scf.while or any other region op in between.
std::optional<int64_t> multiplicity(mlir::Operation *op, mlir::Block *ancestor);

/// True when `a` and `b` sit in different regions of one scf.if or
/// scf.index_switch: at most one of them runs.
bool exclusive(mlir::Operation *a, mlir::Operation *b);

/// `n` and `word`, with an "s" unless `n` is 1 ("1 warp", "2 loads").
std::string plural(int64_t n, llvm::StringRef word);

/// A point of the thread space: a thread (linear id within the CTA) of a
/// CTA of the enumerated cluster ranks.
struct ThreadSpace {
  std::array<int64_t, 3> block = {1, 1, 1};
  unsigned threads = 1; // per CTA
  unsigned ranks = 1;   // cluster ranks enumerated
  unsigned size() const { return threads * ranks; }
  unsigned point(unsigned rank, unsigned tid) const {
    return rank * threads + tid;
  }
};

/// The block size of the kernel whose body is `kernel`, when known:
/// gpu.func `known_block_size`, `nvvm.reqntid`, `nvvm.maxntid`
/// (a function's `gpu.known_block_size`), or a gpu.launch with constant
/// block sizes.
std::optional<std::array<int64_t, 3>> knownBlockSize(mlir::Region *kernel);

/// The cluster size a kernel declares (nvvm.cluster_dim), if any.
std::optional<int64_t> knownClusterSize(mlir::Region *kernel);

/// Evaluates integer values and the set of executing threads for every
/// thread of every enumerated CTA of one kernel.
class ThreadModel {
public:
  using Vals = std::vector<int64_t>;

  ThreadModel(mlir::Region *kernel, ThreadSpace space);

  const ThreadSpace &space() const { return sp; }

  /// The value of `v` at every point, or null when it depends on anything
  /// but constants, thread ids, lane ids, block sizes, the cluster rank and
  /// nvvm.elect.sync.
  const Vals *eval(mlir::Value v);

  /// The points that may execute `op` (its block runs in them), or null
  /// when unknown: a condition that may differ between the threads of a
  /// CTA but is not a function of the thread and rank, a loop whose bounds
  /// may differ between threads, an unstructured region. A condition that
  /// is the same in all threads of a CTA (a kernel argument, a loop
  /// counter) keeps every thread: the op may run in all of them.
  const llvm::BitVector *exec(mlir::Operation *op);

  /// True when every condition between `op` and the enclosing block
  /// `ancestor` is a function of the thread and rank: whether `op` runs in
  /// a thread that runs `ancestor` is decided, not merely possible.
  bool decided(mlir::Operation *op, mlir::Block *ancestor);

  /// True when `v` may differ between the threads of a CTA (it depends on
  /// a thread id, a load, an unknown block argument, ...).
  bool mayVary(mlir::Value v);

private:
  const llvm::BitVector *execBlock(mlir::Block *block);
  std::optional<Vals> compute(mlir::Value v);

  mlir::Region *kernel;
  ThreadSpace sp;
  llvm::DenseMap<mlir::Value, std::unique_ptr<Vals>> values;
  llvm::DenseMap<mlir::Block *, std::unique_ptr<llvm::BitVector>> blocks;
  llvm::DenseMap<mlir::Value, bool> varying;
  unsigned evalDepth = 0;
};

} // namespace protocol
} // namespace pmlir

#endif // PIPELINE_LIB_DIALECT_PIPELINE_ANALYSIS_PROTOCOLUTILS_H
