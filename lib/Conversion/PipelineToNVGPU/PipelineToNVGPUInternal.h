//===- PipelineToNVGPUInternal.h - shared by the lowering -------*- C++ -*-===//
//
// What the files of the pipeline-to-NVGPU lowering share and nothing else
// needs: not installed, not part of the public API.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_LIB_CONVERSION_PIPELINETONVGPU_INTERNAL_H
#define PIPELINE_LIB_CONVERSION_PIPELINETONVGPU_INTERNAL_H

#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/StringRef.h"

namespace pmlir::nvgpu_lowering {

/// True for the pipeline, tile pipeline, role and stage types.
bool isPipelineDialectType(mlir::Type type);
/// True if one of `types` is a pipeline dialect type.
bool containsPipelineDialectType(mlir::TypeRange types);
/// True for chip names of the form sm_<N>[a|f].
bool isChipName(llvm::StringRef chip);

} // namespace pmlir::nvgpu_lowering

#endif // PIPELINE_LIB_CONVERSION_PIPELINETONVGPU_INTERNAL_H
