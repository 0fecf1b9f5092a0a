/*===- Compiler.h - check and compile pipeline kernels from C -----*- C -*-===*\
|*                                                                            *|
|* Entry points for a host language (the Python package uses them through    *|
|* ctypes): check a kernel file (parse, op verifiers, linearity, protocol)   *|
|* or compile it to PTX and cubin, and read back a result that holds the     *|
|* diagnostics (severity, location, message, notes) instead of printing      *|
|* them. Results are owned by the caller: pmlirResultDestroy.                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef PIPELINE_C_COMPILER_H
#define PIPELINE_C_COMPILER_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The outcome of a check or a compile.
typedef struct PmlirResult {
  void *ptr;
} PmlirResult;

/// Options of a compile. Start from pmlirCompileOptionsGetDefault().
/// String fields are borrowed for the duration of the call; an empty
/// string means the default.
typedef struct PmlirCompileOptions {
  /// Target chip, e.g. "sm_90a" (default "sm_100a").
  MlirStringRef chip;
  /// PTX features such as "+ptx88" (default: the chip's default).
  MlirStringRef features;
  /// LLVM and ptxas optimization level, 0 to 3.
  int optLevel;
  /// CUDA toolkit root (default: CUDA_HOME, CUDA_PATH, /usr/local/cuda).
  MlirStringRef cudaPath;
  /// Assemble the PTX with ptxas into a cubin (needs the toolkit).
  bool assemble;
  /// Run pipeline-verify-protocol before the lowering.
  bool verifyProtocol;
  /// Run pipeline-unroll-stages before the lowering.
  bool unrollStages;
  /// 0: off; else the hang report's cycle budget (docs/debugging.md).
  uint64_t hangReportCycles;
  /// With the hang report: keep waiting after reporting.
  bool hangKeepWaiting;
  /// Line information (.file/.loc) from the MLIR locations in the PTX, and
  /// ptxas -lineinfo.
  bool lineInfo;
} PmlirCompileOptions;

/// The defaults of pipeline-compile.
MLIR_CAPI_EXPORTED PmlirCompileOptions pmlirCompileOptionsGetDefault(void);

/// Parses `source` (named `sourceName` in locations), runs the op verifiers,
/// the linearity checker and the protocol checker.
MLIR_CAPI_EXPORTED PmlirResult pmlirCheckSource(MlirStringRef source,
                                                MlirStringRef sourceName);

/// Like pmlirCheckSource, on a module of the caller's context (which must
/// have the pipeline dialect registered). Diagnostics are collected in the
/// result, not passed to the context's handlers.
MLIR_CAPI_EXPORTED PmlirResult pmlirCheckModule(MlirModule module);

/// Parses, checks and compiles `source`: PTX of each gpu.module and, with
/// `options->assemble`, its cubin.
MLIR_CAPI_EXPORTED PmlirResult
pmlirCompileSource(MlirStringRef source, MlirStringRef sourceName,
                   const PmlirCompileOptions *options);

/// Compiles `module` (lowered in place) of the caller's context.
MLIR_CAPI_EXPORTED PmlirResult
pmlirCompileModule(MlirModule module, const PmlirCompileOptions *options);

MLIR_CAPI_EXPORTED void pmlirResultDestroy(PmlirResult result);

static inline bool pmlirResultIsNull(PmlirResult result) { return !result.ptr; }

/// True when no error was reported.
MLIR_CAPI_EXPORTED bool pmlirResultSucceeded(PmlirResult result);

/// The module as parsed (check) or before lowering (compile), printed in
/// the custom form; empty when parsing failed.
MLIR_CAPI_EXPORTED MlirStringRef pmlirResultGetIR(PmlirResult result);

/// Diagnostics, in the order reported (an index out of range reads as an
/// empty record). Notes follow the diagnostic they
/// belong to and name it as their parent; top-level ones have parent -1.
MLIR_CAPI_EXPORTED intptr_t pmlirResultGetNumDiagnostics(PmlirResult result);
MLIR_CAPI_EXPORTED MlirDiagnosticSeverity
pmlirResultGetDiagnosticSeverity(PmlirResult result, intptr_t index);
MLIR_CAPI_EXPORTED MlirStringRef
pmlirResultGetDiagnosticMessage(PmlirResult result, intptr_t index);
/// The file, line and column of the diagnostic's location (the first
/// file location found through name, call-site and fused locations);
/// an empty file and line 0 when it has none.
MLIR_CAPI_EXPORTED MlirStringRef
pmlirResultGetDiagnosticFile(PmlirResult result, intptr_t index);
MLIR_CAPI_EXPORTED unsigned pmlirResultGetDiagnosticLine(PmlirResult result,
                                                         intptr_t index);
MLIR_CAPI_EXPORTED unsigned pmlirResultGetDiagnosticColumn(PmlirResult result,
                                                           intptr_t index);
MLIR_CAPI_EXPORTED intptr_t pmlirResultGetDiagnosticParent(PmlirResult result,
                                                           intptr_t index);

/// Compiled gpu.modules, in order (none for a check or a failure).
MLIR_CAPI_EXPORTED intptr_t pmlirResultGetNumModules(PmlirResult result);
MLIR_CAPI_EXPORTED MlirStringRef pmlirResultGetModuleName(PmlirResult result,
                                                          intptr_t index);
MLIR_CAPI_EXPORTED MlirStringRef pmlirResultGetModulePTX(PmlirResult result,
                                                         intptr_t index);
/// The cubin bytes (binary; length in the string ref); empty unless
/// assembled.
MLIR_CAPI_EXPORTED MlirStringRef pmlirResultGetModuleCubin(PmlirResult result,
                                                           intptr_t index);

/// "pipeline-mlir X.Y.Z".
MLIR_CAPI_EXPORTED MlirStringRef pmlirGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif // PIPELINE_C_COMPILER_H
