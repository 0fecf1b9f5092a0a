//===- RegisterAll.cpp - register pipeline-mlir passes ----------*- C++ -*-===//

#include "pipeline/InitAllPipeline.h"

#include "pipeline/Conversion/Passes.h"
#include "pipeline/Pipelines/Pipelines.h"

void pmlir::registerAllPipelinePasses() {
  // Passes and pipelines register here as they are added.
  registerPipelineConversionPasses();
  registerPipelinePipelines();
}
