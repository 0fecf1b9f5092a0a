//===- InitAllPipeline.h - register pipeline-mlir ---------------*- C++ -*-===//
//
// One place that registers the dialect, its passes and its named pass
// pipelines, for pipeline-opt and for compilers that embed pipeline-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_INITALLPIPELINE_H
#define PIPELINE_INITALLPIPELINE_H

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/IR/DialectRegistry.h"

namespace pmlir {

/// Registers the `pipeline` dialect.
inline void registerAllPipelineDialects(mlir::DialectRegistry &registry) {
  registry.insert<PipelineDialect>();
}

/// Registers every pass and pass pipeline of pipeline-mlir.
void registerAllPipelinePasses();

} // namespace pmlir

#endif // PIPELINE_INITALLPIPELINE_H
