//===- Compiler.h - kernel module to PTX and cubin --------------*- C++ -*-===//
//
// The compile driver shared by pipeline-compile and the C API: runs
// pipeline-lower-to-binary with format=isa on a parsed module, collects the
// PTX of each gpu.module and, when asked, assembles each with ptxas. Errors
// of the passes go to the context's diagnostic handler; errors of the
// toolkit come back as llvm::Error.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_COMPILER_COMPILER_H
#define PIPELINE_COMPILER_COMPILER_H

#include "pipeline/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace pmlir {

/// The PTX and, once assembled, the cubin of one gpu.module.
struct CompiledGPUModule {
  std::string name;
  std::string ptx;
  /// Empty unless assembled.
  std::string cubin;
};

/// Registers everything a kernel file may use: MLIR's dialects, extensions
/// and LLVM IR translations, and the pipeline dialect.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// Lowers `module` in place with pipeline-lower-to-binary (format=isa) and
/// returns the PTX of each gpu.module, in order. Fails after reporting
/// through the context's diagnostics; fails with an error naming the file
/// when there is no gpu.module.
llvm::Expected<llvm::SmallVector<CompiledGPUModule>>
lowerToPTX(mlir::ModuleOp module, const NVVMLoweringConfig &config,
           llvm::StringRef cudaPath);

/// Assembles `ptx` for `chip` with the ptxas at `ptxas`; returns the cubin,
/// or an error holding ptxas's messages.
llvm::Expected<std::string>
assemblePTX(llvm::StringRef ptxas, llvm::StringRef chip, unsigned optLevel,
            llvm::StringRef ptx, llvm::ArrayRef<std::string> extraArgs = {});

} // namespace pmlir

#endif // PIPELINE_COMPILER_COMPILER_H
