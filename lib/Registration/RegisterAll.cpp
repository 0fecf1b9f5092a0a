//===- RegisterAll.cpp - register pipeline-mlir passes ----------*- C++ -*-===//

#include "pipeline/InitAllPipeline.h"

void pmlir::registerAllPipelinePasses() {
  // Passes and pipelines register here as they are added.
}
