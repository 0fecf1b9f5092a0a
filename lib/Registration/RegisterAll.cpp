//===- RegisterAll.cpp - register pipeline-mlir passes ----------*- C++ -*-===//

#include "pipeline/InitAllPipeline.h"

#include "pipeline/Conversion/Passes.h"
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h"
#include "pipeline/Lowering/Pipelines.h"

void pmlir::registerAllPipelinePasses() {
  registerPipelineTransformsPasses();
  registerPipelineConversionPasses();
  registerPipelinePipelines();
}
