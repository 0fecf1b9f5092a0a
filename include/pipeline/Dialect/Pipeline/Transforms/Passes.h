//===- Passes.h - pipeline dialect passes -----------------------*- C++ -*-===//
//
// Passes on the `pipeline` dialect, declared from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_TRANSFORMS_PASSES_H
#define PIPELINE_DIALECT_PIPELINE_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace pmlir {

#define GEN_PASS_DECL
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "pipeline/Dialect/Pipeline/Transforms/Passes.h.inc"

} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_TRANSFORMS_PASSES_H
