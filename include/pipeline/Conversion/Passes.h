//===- Passes.h - pipeline-mlir conversion passes ---------------*- C++ -*-===//

#ifndef PIPELINE_CONVERSION_PASSES_H
#define PIPELINE_CONVERSION_PASSES_H

#include "pipeline/Conversion/PipelineToNVGPU/PipelineToNVGPU.h"

#include "mlir/Pass/Pass.h"

namespace pmlir {

#define GEN_PASS_DECL
#include "pipeline/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pipeline/Conversion/Passes.h.inc"

} // namespace pmlir

#endif // PIPELINE_CONVERSION_PASSES_H
