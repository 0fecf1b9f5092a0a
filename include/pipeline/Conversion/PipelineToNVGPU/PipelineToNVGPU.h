//===- PipelineToNVGPU.h - pipeline to nvgpu/nvvm lowering ------*- C++ -*-===//
//
// The lowering of the `pipeline` dialect to upstream `nvgpu` mbarrier ops,
// `nvvm` (where NVGPU has no op), `scf`, `arith` and `memref`, usable
// without the convert-pipeline-to-nvgpu pass: an embedding compiler checks
// the preconditions, builds the type converter and adds the patterns to its
// own conversion.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_CONVERSION_PIPELINETONVGPU_PIPELINETONVGPU_H
#define PIPELINE_CONVERSION_PIPELINETONVGPU_PIPELINETONVGPU_H

#include "pipeline-c/HangRecord.h"

#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdint>
#include <string>

namespace pmlir {

/// The hang report (off by default): every blocking wait keeps its fast path
/// (one try_wait that succeeds) and gets a bounded slow path. When a wait has
/// not completed after `cycles` clock cycles, the first thread of the grid
/// to notice writes a record of where it waits to the host-visible memory
/// whose address the host stored in the kernel module's global
/// `__pipeline_hang_buffer`, then traps, or with `keepWaiting` waits on.
/// The record's words, the site table (`__pipeline_hang_sites`) and the
/// report printed from them are declared once, in
/// include/pipeline-c/HangRecord.h, which the runtimes read too.
struct HangReport {
  /// 0: off (the lowering is unchanged).
  uint64_t cycles = 0;
  bool keepWaiting = false;
  /// Filled by prepareHangReport: the site id of each waiting op.
  llvm::DenseMap<mlir::Operation *, unsigned> siteIds;
};

/// Gives every op under `root` whose lowering blocks on a barrier a site
/// id, and adds `__pipeline_hang_buffer` and `__pipeline_hang_sites` to the
/// symbol table (gpu.module or module) of each function that has such ops.
void prepareHangReport(mlir::Operation *root, HangReport &report);

/// Adds the barrier-name table (PMLIR_BARRIER_NAMES_SYMBOL,
/// include/pipeline-c/HangRecord.h) to each symbol table under `root` with
/// a pipeline.init_mbars: which pipeline each init belongs to, so that
/// tools name a barrier by pipeline, role and stage rather than address.
/// It changes the symbol tables: call it from a pass that runs on them
/// (pipeline-record-launch-contract), not from one nested in a function.
void recordBarrierNames(mlir::Operation *root);

/// The names of the globals of the hang report.
inline constexpr const char *kHangBufferSymbol = PMLIR_HANG_BUFFER_SYMBOL;
inline constexpr const char *kHangSitesSymbol = PMLIR_HANG_SITES_SYMBOL;

/// Converts every pipeline-dialect type to the values that carry it after
/// lowering (1:N). For a pipeline created by `pipeline.create`:
///
///   barriers      !nvgpu.mbarrier.group<workgroup, num_barriers = N>
///   prod_stage    memref<i32>   per-thread role state, promoted to
///   prod_phase    memref<i1>    registers by mem2reg / SROA
///   cons_stage    memref<i32>
///   cons_phase    memref<i1>
///
/// `!pipeline.pipeline` and `!pipeline.role` become these five values, a
/// `!pipeline.tile_pipeline` these five then its payload memrefs, and a
/// `!pipeline.stage` the stage index (`index`) followed by the values of its
/// pipeline. Every other type is kept.
class PipelineToNVGPUTypeConverter : public mlir::TypeConverter {
public:
  PipelineToNVGPUTypeConverter();
};

/// Checks what the patterns rely on, with a diagnostic at the offending op:
///  - pipeline ops are in a function, not in a `gpu.launch` body (outline
///    it first) and, when the input has gpu.modules, inside one of them
///    (not in host code);
///  - every pipeline, role and stage value comes from a pipeline op in its
///    own function (no function arguments, call results or casts of those
///    types), so that its role state is the one of its `pipeline.create`,
///    and flows only into pipeline ops and the scf/cf ops the structural
///    conversions rewrite (scf.for/if/while/index_switch, cf.br/cond_br);
///  - the target chip (the `#nvvm.target` chips of the enclosing gpu.module,
///    else `defaultChip`) has what each op lowers to: sm_90 for mbarrier
///    try_wait/expect_tx and clusters, tcgen05 (sm_100a) for `commit_mma`.
///    The diagnostics say where the chip came from: `chipOrigin` (default
///    "the pass option chip") for `defaultChip`, and also for a
///    gpu.module's `#nvvm.target` of exactly `defaultChip` when
///    `chipOrigin` is given (a pipeline attached it from that option, as
///    pipeline-compile does from --chip), else that `#nvvm.target`;
///  - the `commit_mma` ops of one function use one `cta_group` (ptxas
///    rejects a kernel mixing `.cta_group::1` and `.cta_group::2`);
///  - `init_mbars` of a `cta_group = 2` pipeline has `cluster` (the pair
///    arrives on each other's barriers).
mlir::LogicalResult
checkPipelineToNVGPUPreconditions(mlir::Operation *root,
                                  llvm::StringRef defaultChip,
                                  llvm::StringRef chipOrigin = "");

/// Marks the ops of `root` whose barriers belong to an input pipeline but
/// that reach them through another view (a `cta_group = 2` tile pipeline
/// consumed through its base `!pipeline.pipeline` value), with the unit
/// attribute kInputPipelineAttrName (Pipeline.h), so that the patterns send
/// their consumer signals to the same CTAs as through the tile pipeline
/// (isInputPipeline). Run it before applying the patterns, as
/// convert-pipeline-to-nvgpu does; the rewrites move values around, so the
/// patterns cannot tell this from the IR they see.
void annotateInputPipelines(mlir::Operation *root);

/// Adds one conversion pattern per `pipeline` op (the region terminator
/// `pipeline.yield` is lowered with its region op).
///
/// With `hangReport` (prepared by prepareHangReport, and outliving the
/// conversion), blocking waits get the hang report's slow path.
void populatePipelineToNVGPUConversionPatterns(
    const mlir::TypeConverter &typeConverter, mlir::RewritePatternSet &patterns,
    const HangReport *hangReport = nullptr);

/// Marks the `pipeline` dialect illegal and what the patterns produce legal;
/// adds the structural scf/cf patterns that carry pipeline values through
/// loops and branches.
void configurePipelineToNVGPUConversionTarget(
    mlir::ConversionTarget &target, const mlir::TypeConverter &typeConverter,
    mlir::RewritePatternSet &patterns);

} // namespace pmlir

#endif // PIPELINE_CONVERSION_PIPELINETONVGPU_PIPELINETONVGPU_H
