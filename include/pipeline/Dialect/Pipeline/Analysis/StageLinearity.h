//===- StageLinearity.h - stage handle linearity analysis -------*- C++ -*-===//
//
// The linear-type check of `!pipeline.stage` handles, usable without a pass:
// an embedding compiler calls verifyStageLinearity on any op (a module, a
// gpu.module, a function) and gets the diagnostics through the usual MLIR
// diagnostic engine. The pass `pipeline-verify-linearity` is a thin wrapper.
//
// The rules and their diagnostics are described in docs/verifier.md.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_ANALYSIS_STAGELINEARITY_H
#define PIPELINE_DIALECT_PIPELINE_ANALYSIS_STAGELINEARITY_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>

namespace pmlir {

/// Work done by one run of the analysis: what `-mlir-pass-statistics`
/// prints for the pass, and how bench/linearity shows that the work per op
/// does not grow with the size of the input.
struct StageLinearityStats {
  uint64_t ops = 0;          // operations visited
  uint64_t handles = 0;      // stage handles tracked
  uint64_t stateChanges = 0; // handle state changes (undo log entries)
  uint64_t logScans = 0;     // undo log entries read to compute effects
  uint64_t blocks = 0;       // blocks walked as part of a CFG
  uint64_t edgeEntries = 0;  // handle entries of the CFG edge states
};

/// Checks every function (any op implementing FunctionOpInterface) nested in
/// `root`, or `root` itself if it is one:
///
///  1. every stage handle is consumed exactly once on every path, and never
///     used (nor its payload tiles accessed) after it was consumed;
///  2. structured (`scf.if/for/while/index_switch/execute_region`) and
///     unstructured (`cf` and any BranchOpInterface) control flow agree on
///     the handles held at every merge and back edge;
///  3. handles do not escape into ops that do not implement
///     StageUseOpInterface (calls, returns, stores, ...);
///  4. at most one outstanding stage per (pipeline, role) on any path, and
///     `produce` / `consume` / `consume_explicit` regions own their stage;
///  5. no double signal and no missing signal on a stage's barrier.
///
/// Emits one error (with notes) per offending handle and returns failure if
/// there was any. Runs in time linear in the size of `root` for programs
/// whose number of simultaneously held handles is bounded (rule 4 bounds it
/// by twice the number of pipelines).
mlir::LogicalResult verifyStageLinearity(mlir::Operation *root,
                                         StageLinearityStats *stats = nullptr);

} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_ANALYSIS_STAGELINEARITY_H
