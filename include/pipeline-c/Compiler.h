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

/// Every option of a compile with its default, in the syntax the compile
/// functions take: pass options, "chip=sm_100a opt-level=3 ...", the same
/// options (and names) as pipeline-lower-to-binary and pipeline-compile
/// (docs/cli.md). The string is static.
MLIR_CAPI_EXPORTED MlirStringRef pmlirGetCompileOptionDefaults(void);

/// The chips the compiler accepts and what each can do, one a line:
/// "<chip> <capabilities, comma-separated> ptx=<min>..<max>", e.g.
/// "sm_100a clusters,tcgen05,tcgen05-lowering ptx=86..90" (clusters:
/// mbarrier parity waits, expect_tx, clusters; tcgen05: tcgen05 MMAs and
/// CTA pairs; tcgen05-lowering: tcgen05.commit in MLIR 22's NVVM dialect;
/// ptx: the PTX ISA versions, times 10). The string is static.
MLIR_CAPI_EXPORTED MlirStringRef pmlirGetChipTable(void);

/// Parses `source` (named `sourceName` in locations), runs the op verifiers,
/// the linearity checker and the protocol checker.
MLIR_CAPI_EXPORTED PmlirResult pmlirCheckSource(MlirStringRef source,
                                                MlirStringRef sourceName);

/// Like pmlirCheckSource, on a module of the caller's context (which must
/// have the pipeline dialect registered). Diagnostics are collected in the
/// result, not passed to the context's handlers.
MLIR_CAPI_EXPORTED PmlirResult pmlirCheckModule(MlirModule module);

/// Parses, checks and compiles `source`: PTX of each gpu.module and, with
/// `assemble`, its cubin. `options` as pmlirGetCompileOptionDefaults prints
/// them; an option left out keeps its default, an empty string is all
/// defaults. A bad option (unknown name, bad value, bad chip) fails the
/// result with an error diagnostic.
MLIR_CAPI_EXPORTED PmlirResult pmlirCompileSource(MlirStringRef source,
                                                  MlirStringRef sourceName,
                                                  MlirStringRef options,
                                                  bool assemble);

/// Compiles `module` (lowered in place) of the caller's context.
MLIR_CAPI_EXPORTED PmlirResult pmlirCompileModule(MlirModule module,
                                                  MlirStringRef options,
                                                  bool assemble);

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

/// The hang report of a written hang record (pipeline-c/HangRecord.h) and
/// the module's site table, as the C++ runtime prints it; "" (and 0) while
/// the record is not written. For host languages that cannot include the
/// header (the Python launcher's tests compare their decoder with it).
MLIR_CAPI_EXPORTED int pmlirFormatHangReport(const uint32_t *record,
                                             MlirStringRef sites, char *out,
                                             size_t outSize);

/// The launch contract the compiler recorded for kernel `kernel` of `ptx`
/// (pipeline-record-launch-contract): the least threads along x its roles
/// need and the least dynamic shared memory, each 0 where none is
/// recorded; and the block it declares (`.reqntid`), all 0 where none.
MLIR_CAPI_EXPORTED void pmlirGetLaunchContract(MlirStringRef ptx,
                                               MlirStringRef kernel,
                                               uint64_t *minThreads,
                                               uint64_t *minDynamicSmem,
                                               unsigned requiredBlock[3]);

/// Checks a launch of kernel `kernel` of `ptx` with `block` threads and
/// `dynamicSmem` bytes against its launch contract before the driver is
/// called: returns 0 when the contract accepts it, else 1 and writes why
/// (NUL-terminated, cut to `outSize` bytes) into `out`.
MLIR_CAPI_EXPORTED int pmlirCheckLaunchContract(MlirStringRef ptx,
                                                MlirStringRef kernel,
                                                const unsigned block[3],
                                                uint64_t dynamicSmem, char *out,
                                                size_t outSize);

/// "pipeline-mlir X.Y.Z".
MLIR_CAPI_EXPORTED MlirStringRef pmlirGetVersion(void);

#ifdef __cplusplus
}
#endif

#endif // PIPELINE_C_COMPILER_H
