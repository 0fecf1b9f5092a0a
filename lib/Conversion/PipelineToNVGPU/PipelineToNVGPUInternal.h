//===- PipelineToNVGPUInternal.h - shared by the lowering -------*- C++ -*-===//
//
// What the files of the pipeline-to-NVGPU lowering share and nothing else
// needs: not installed, not part of the public API.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_LIB_CONVERSION_PIPELINETONVGPU_INTERNAL_H
#define PIPELINE_LIB_CONVERSION_PIPELINETONVGPU_INTERNAL_H

#include "pipeline/Conversion/PipelineToNVGPU/PipelineToNVGPU.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeRange.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace pmlir::nvgpu_lowering {

/// True for the pipeline, tile pipeline, role and stage types.
bool isPipelineDialectType(mlir::Type type);
/// True if one of `types` is a pipeline dialect type.
bool containsPipelineDialectType(mlir::TypeRange types);
/// True for chip names of the form sm_<N>[a|f].
bool isChipName(llvm::StringRef chip);

//===----------------------------------------------------------------------===//
// Lowered values (PipelineToNVGPU.cpp builds them, Emission.cpp reads them)
//===----------------------------------------------------------------------===//

using llvm::dyn_cast;
using llvm::isa;
using mlir::function_ref;
using mlir::Location;
using mlir::OpBuilder;
using mlir::Operation;
using mlir::SmallVector;
using mlir::Type;
using mlir::Value;
using mlir::ValueRange;

/// The lowered values of a pipeline, tile pipeline, role or stage handle
/// (the layout of PipelineToNVGPUTypeConverter).
struct Lowered {
  PipelineType type;
  /// True for a tile pipeline or a stage of one (its release only steps).
  bool isTile;
  /// True when the barriers belong to an input pipeline, through whatever
  /// view (isInputPipeline; see ConsumerTargets); set from the op being
  /// lowered, else the type's isTile.
  bool isInput;
  /// Stage index of a stage handle (index); null for other types.
  Value stage;
  Value barriers;
  Value prodStage, prodPhase, consStage, consPhase;
  SmallVector<Value> payload;
  /// The hang report, if on, and the op being lowered (its wait site).
  const HangReport *hang = nullptr;
  Operation *op = nullptr;

  bool hangReportOn() const { return hang && hang->cycles; }

  Lowered(Type original, ValueRange values) {
    type = getBasePipelineType(original);
    Type outer = original;
    if (auto stageType = dyn_cast<StageType>(original))
      outer = stageType.getPipeline();
    isTile = isa<TilePipelineType>(outer);
    isInput = isTile;
    if (isa<StageType>(original)) {
      stage = values.front();
      values = values.drop_front();
    }
    barriers = values[0];
    prodStage = values[1];
    prodPhase = values[2];
    consStage = values[3];
    consPhase = values[4];
    payload.assign(values.begin() + 5, values.end());
  }

  /// The values of a stage handle at stage index `stageIndex` of this
  /// pipeline.
  SmallVector<Value> makeStage(Value stageIndex) const {
    SmallVector<Value> values = {stageIndex, barriers,  prodStage,
                                 prodPhase,  consStage, consPhase};
    llvm::append_range(values, payload);
    return values;
  }
};

/// Per-thread (stage, phase) of one role. With the hang report on, the
/// stage register also counts the role's laps in its upper 16 bits (the
/// stage is its low 16 bits); `lap` is then that count, else null.
struct RoleState {
  Value stage; // i32
  Value phase; // i1
  Value lap;   // i32, hang report only
};

/// The CTAs whose barrier a consumer signal of a pipeline reaches (the
/// pipeline type's documentation gives the rules and their sources).
struct ConsumerTargets {
  /// FirstCta: cluster rank 0 (a clc pipeline's consumers). Cross: the
  /// row-and-column cross of a cluster_m x cluster_n multicast cluster
  /// (PipelineType::getCrossMask).
  enum Kind { Local, Leader, Group, FirstCta, Cross } kind;
  /// Group: the number of CTAs, an aligned group of the cluster. Cross:
  /// the CTAs of the cluster.
  unsigned size;
};

//===----------------------------------------------------------------------===//
// Emission helpers (Emission.cpp)
//===----------------------------------------------------------------------===//

Value constIndex(OpBuilder &b, Location loc, int64_t v);

Value constInt(OpBuilder &b, Location loc, int64_t v, unsigned width);

RoleState loadRole(OpBuilder &b, Location loc, const Lowered &l, Role role);

void storeRole(OpBuilder &b, Location loc, const Lowered &l, Role role,
               RoleState state);

/// stage += 1; if stage == S { stage = 0; phase ^= 1 } (and with the hang
/// report, lap += 1).
void stepRole(OpBuilder &b, Location loc, const Lowered &l, Role role);

/// Steps `role` at the end of a stage handle, unless it stepped at the
/// acquire.
void stepAtRelease(OpBuilder &b, Location loc, const Lowered &l, Role role);

Value toIndex(OpBuilder &b, Location loc, Value stageI32);

/// Index of full(stage, sub) in the barrier group.
Value fullBarrierId(OpBuilder &b, Location loc, PipelineType type, Value stage,
                    unsigned sub);

/// Index of empty(stage, sub) in the barrier group.
Value emptyBarrierId(OpBuilder &b, Location loc, PipelineType type, Value stage,
                     unsigned sub);

/// The barrier `role` waits on: a producer waits on `empty`, a consumer on
/// `full`.
Value waitBarrierId(OpBuilder &b, Location loc, PipelineType type, Role role,
                    Value stage, unsigned sub);

/// The barrier `role` signals: a producer signals `full`, a consumer
/// `empty`.
Value signalBarrierId(OpBuilder &b, Location loc, PipelineType type, Role role,
                      Value stage, unsigned sub);

/// One non-blocking try_wait.parity (no suspend-time hint): true when the
/// phase with parity `phase` of barrier `id` has completed.
Value tryWaitParity(OpBuilder &b, Location loc, Value barriers, Value id,
                    Value phase);

/// Runs `body` in the thread elected by `elect` (an i1).
void ifElected(OpBuilder &b, Location loc, Value elect,
               function_ref<void()> body);

/// The blocking wait of `role` on barrier `id` with the parity of `state`:
/// the try_wait loop, or with the hang report its bounded form.
void waitParity(OpBuilder &b, Location loc, const Lowered &l, Role role,
                Value id, const RoleState &state);

ConsumerTargets consumerTargets(const Lowered &l);

/// `role` arrives on the barrier it signals for `stage` (index), sub-stage
/// `sub`. Producer signals reach the CTA's own barrier, or with cta_group =
/// 2 the leader's; consumer signals reach the CTAs of consumerTargets.
void signal(OpBuilder &b, Location loc, const Lowered &l, Role role,
            Value stage, unsigned sub);

/// True when releasing a consumer handle of `l` arrives on its barrier: on
/// a plain pipeline (the reference ConsumerStage.release), not on a tile
/// pipeline (InputConsumerStage.release and ConsumerTiles.__exit__ only
/// step; the MMA's release_mma or an arrive frees the stage).
bool consumerReleaseSignals(const Lowered &l);

/// In the elected thread (`elect`, else elect.sync), tcgen05.commit of the
/// pipeline's cta_group to barrier `id`, multicast to the CTAs of
/// `targets` unless they are the local CTA alone.
void commitMmaTo(OpBuilder &b, Location loc, const Lowered &l, Value elect,
                 Value id, ConsumerTargets targets);

/// `words` 8-byte words of the workgroup buffer `storage` at byte `offset`,
/// as a value of the barrier-group type `groupType` (a view cast to the
/// group; the cast folds away once NVGPU-to-NVVM and memref-to-LLVM have
/// turned both sides into the same descriptor).
Value viewAsBarrierGroup(OpBuilder &b, Location loc, Value storage,
                         Value offset, int64_t words, Type groupType);

/// Shared-memory pointer (!llvm.ptr<3>) to barrier `id` of `barriers`.
Value barrierPointer(OpBuilder &b, Location loc, Value barriers, Value id);

/// `count` (default 1) arrivals on the barrier at shared-memory pointer
/// `local` in the CTA of cluster rank `rank`: mapa, then
/// mbarrier.arrive.shared::cluster (.release.cta).
void arriveRemote(OpBuilder &b, Location loc, Value local, Value rank,
                  Value count = Value());

/// The producer of a clc pipeline requests the next cluster: lanes below
/// the cluster size arm 16 bytes on their CTA's full barrier of the stage,
/// one elected lane issues the multicast try_cancel.
void clcTryCancel(OpBuilder &b, Location loc, const Lowered &l);

/// A consumer of a clc pipeline reads the stage's response: canceled and
/// the first CTA's x, y, z.
SmallVector<Value> clcResponse(OpBuilder &b, Location loc, const Lowered &l);

/// The patterns of the tensor-memory ops (TensorMemory.cpp).
void populateTensorMemoryPatterns(const mlir::TypeConverter &typeConverter,
                                  mlir::RewritePatternSet &patterns);

/// On a tensor-memory accumulator pipeline (tmem = true), the tcgen05 fence
/// that orders this thread's tcgen05 accesses against the barrier
/// synchronization around it: after_thread_sync after a wait,
/// before_thread_sync before a signal. Nothing on other pipelines.
void tmemFence(OpBuilder &b, Location loc, const Lowered &l,
               mlir::NVVM::Tcgen05FenceKind kind);

/// One TMA load of the box at `coordinates` of the tensor map at
/// `descriptor` into `dst` (this CTA's shared memory), completing on the
/// full barrier of the handle's stage: this CTA's, or with cta_group = 2
/// the leader's (.cta_group::2); multicast to the CTAs of `multicastMask`
/// when given.
void tmaLoad(OpBuilder &b, Location loc, const Lowered &l, Value descriptor,
             ValueRange coordinates, Value dst, Value multicastMask);

/// `role` waits, with its current phase, on the barrier it waits on for
/// its current stage. Returns the state it waited with.
RoleState waitCurrent(OpBuilder &b, Location loc, const Lowered &l, Role role,
                      unsigned sub);

/// Like waitCurrent, but skips the wait when `ready` is true (a try that
/// already succeeded). Returns the stage index.
Value waitCurrentUnless(OpBuilder &b, Location loc, const Lowered &l, Role role,
                        unsigned sub, Value ready);

/// Acquires a stage for `role`: waits (unless `ready`) and returns the
/// values of the stage handle.
SmallVector<Value> acquireStage(OpBuilder &b, Location loc, const Lowered &l,
                                Role role, unsigned sub, Value ready = Value());

Value single(ValueRange values);

} // namespace pmlir::nvgpu_lowering

#endif // PIPELINE_LIB_CONVERSION_PIPELINETONVGPU_INTERNAL_H
