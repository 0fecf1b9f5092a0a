//===- Compiler.h - kernel module to PTX, cubin and fatbin ------*- C++ -*-===//
//
// The compile driver shared by pipeline-compile and the C API: runs
// pipeline-lower-to-binary with format=isa on a parsed module, collects the
// PTX of each gpu.module and, when asked, assembles each with ptxas and
// packs PTX and cubin into a fatbin with fatbinary. Errors of the passes go
// to the context's diagnostic handler (any error diagnostic fails the
// compile, even one a pass reports without failing); errors of the toolkit
// come back as llvm::Error. Nothing here writes files or changes global
// state: an embedder keeps its own MLIRContext and diagnostic handler.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_COMPILER_COMPILER_H
#define PIPELINE_COMPILER_COMPILER_H

#include "pipeline/Lowering/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class PassManager;
} // namespace mlir

namespace pmlir {

/// The PTX and, when asked, the cubin and fatbin of one gpu.module.
struct CompiledGPUModule {
  /// The gpu.module's symbol, as written in the input.
  std::string name;
  std::string ptx;
  /// Empty unless assembled.
  std::string cubin;
  /// Empty unless asked for: the cubin and the PTX (for newer chips of the
  /// family, through the driver's JIT) in one fatbin.
  std::string fatbin;
  /// What ptxas printed when it succeeded (warnings, or the -v report),
  /// empty if nothing.
  std::string ptxasLog;
};

/// What compileModule produces beyond the PTX, and how.
struct CompileOptions {
  /// Assemble each gpu.module's PTX with ptxas.
  bool emitCubin = true;
  /// Pack cubin and PTX into a fatbin with fatbinary (assembles with ptxas
  /// even when emitCubin is false).
  bool emitFatbin = false;
  /// More ptxas arguments, after -arch and -O (e.g. -v, -warn-spills).
  std::vector<std::string> ptxasArgs;
  /// The CUDA toolkit: `cudaPath`, else $CUDA_HOME, else $CUDA_PATH, else
  /// /usr/local/cuda (cuda::getCudaPath).
  std::string cudaPath;
  /// Called on the pass manager before it runs, e.g. to apply MLIR's
  /// command-line options (IR printing, timing, statistics, crash
  /// reproducers); a failure stops the compile.
  std::function<mlir::LogicalResult(mlir::PassManager &)> configurePassManager;
};

/// Registers everything a kernel file may use: MLIR's dialects, extensions
/// and LLVM IR translations, and the pipeline dialect.
void registerCompilerDialects(mlir::DialectRegistry &registry);

/// Lowers `module` in place with pipeline-lower-to-binary (format=isa) and
/// returns the PTX of each gpu.module, in order. Fails after reporting
/// through the context's diagnostics: the passes' errors, any error
/// diagnostic at all during the run, and a gpu.module with a target other
/// than #nvvm.target. Fails with an error (no diagnostic) when there is no
/// gpu.module. `configurePassManager` as in CompileOptions.
llvm::Expected<llvm::SmallVector<CompiledGPUModule>>
lowerToPTX(mlir::ModuleOp module, const NVVMLoweringConfig &config,
           llvm::StringRef cudaPath,
           llvm::function_ref<mlir::LogicalResult(mlir::PassManager &)>
               configurePassManager = nullptr);

/// Assembles `ptx` for `chip` with the ptxas at `ptxas`; returns the cubin,
/// or an error holding ptxas's messages. What ptxas printed on success goes
/// to `log` if given.
llvm::Expected<std::string>
assemblePTX(llvm::StringRef ptxas, llvm::StringRef chip, unsigned optLevel,
            llvm::StringRef ptx, llvm::ArrayRef<std::string> extraArgs = {},
            std::string *log = nullptr);

/// Packs `cubin` and `ptx` (both for `chip`) into a fatbin with the
/// fatbinary at `fatbinary`.
llvm::Expected<std::string> createFatbin(llvm::StringRef fatbinary,
                                         llvm::StringRef chip,
                                         llvm::StringRef ptx,
                                         llvm::StringRef cubin);

/// The whole compile: finds ptxas (and fatbinary) first if `options` needs
/// them, then lowerToPTX, then assembles and packs each gpu.module. PTX
/// alone needs no ptxas.
llvm::Expected<llvm::SmallVector<CompiledGPUModule>>
compileModule(mlir::ModuleOp module, const NVVMLoweringConfig &config,
              const CompileOptions &options);

} // namespace pmlir

#endif // PIPELINE_COMPILER_COMPILER_H
