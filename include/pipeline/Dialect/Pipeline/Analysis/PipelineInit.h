//===- PipelineInit.h - collective initialization check ---------*- C++ -*-===//
//
// The check that every pipeline's barriers are initialized, collectively and
// before use, usable without a pass. `pipeline-verify-linearity` and the
// lowering's preconditions run it; the rules are in docs/verifier.md.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_ANALYSIS_PIPELINEINIT_H
#define PIPELINE_DIALECT_PIPELINE_ANALYSIS_PIPELINEINIT_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"

namespace pmlir {

/// Checks every `pipeline.create` nested in `root`:
///
///  1. it has exactly one `pipeline.init_mbars` (on the pipeline or on a
///     tile pipeline built from it): without one no barrier is initialized
///     and the first wait hangs;
///  2. that init is in the entry block of the kernel (the enclosing function,
///     or gpu.launch body before outlining), so every
///     thread executes it (its lowering ends with a CTA or cluster barrier,
///     which a thread that skips it never reaches, and a thread that skips
///     it may use barriers no one initialized);
///  3. every other use of the pipeline comes after the init.
///
/// Emits one error per pipeline, at its `pipeline.create`, with a note at
/// the offending op, and returns failure if there was any.
mlir::LogicalResult verifyPipelineInit(mlir::Operation *root);

} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_ANALYSIS_PIPELINEINIT_H
