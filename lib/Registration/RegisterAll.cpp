//===- RegisterAll.cpp - register pipeline-mlir passes ----------*- C++ -*-===//

#include "pipeline/InitAllPipeline.h"

#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"

void pmlir::registerAllPipelinePasses() {
  // Passes and pipelines register here as they are added.
  registerPipelineTransformsPasses();
}
