//===- PipelineProtocol.h - what each pipeline op does ----------*- C++ -*-===//
//
// The protocol effects of the pipeline ops, declared once per op in ODS
// (`Pipeline_Effects<...>` and `Pipeline_Requires<...>` in PipelineOps.td)
// and read through `ProtocolOpInterface` by every pass that needs them: the
// linearity and protocol checkers, pipeline-unroll-stages, the lowering's
// preconditions and its hang report. Adding an op means declaring its
// effects there, not adding it to lists of op types.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_IR_PIPELINEPROTOCOL_H
#define PIPELINE_DIALECT_PIPELINE_IR_PIPELINEPROTOCOL_H

#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/STLExtras.h"

#include <cstdint>
#include <type_traits>

namespace pmlir {

/// Whose per-thread state and barriers an op is about: the producer's
/// (it waits on `empty`, signals `full`), the consumer's (waits on `full`,
/// signals `empty`), or the role of the stage handle in its first operand.
enum class ProtocolRole : uint8_t { None, Producer, Consumer, OfStage };

/// What an op does to its role's state (stage index and phase).
enum class ProtocolStep : uint8_t {
  None,
  /// Reads the state (waits and tries on the current stage, index queries).
  Reads,
  /// Steps here when the role steps at the acquire (a consumer with
  /// consumer_depth > 1), else only reads.
  AtAcquire,
  /// Steps here unless the role stepped at the acquire.
  AtRelease,
  /// Steps once.
  Always,
  /// Waits out every stage still in flight, then the state is spent.
  Drain,
};

/// How an op waits on the barrier its role waits on.
enum class ProtocolWait : uint8_t { None, Blocks, Tries };

/// How an op signals the barrier its role signals.
enum class ProtocolSignal : uint8_t {
  None,
  /// mbarrier.arrive by every thread that executes it.
  Arrive,
  /// mbarrier.arrive.expect_tx (the producer arms the transaction bytes).
  ExpectTx,
  /// A release: arrives when it ends a consumer stage of a pipeline that is
  /// no tile pipeline; a producer's or a tile pipeline's release only steps.
  Release,
  /// The producer's commit: arrives on sub-stage 0.
  Commit,
  /// tcgen05.commit: one arrival once the thread's MMAs complete. The op's
  /// optional second operand is the election (getMmaCommitElection).
  MmaCommit,
  /// Arrives at the end of the op's region, unless on a tile pipeline.
  RegionExit,
  /// Hands out the barrier's address: whatever its users do.
  Address,
};

/// What the chip must have for an op's lowering.
enum class ChipFeature : uint8_t {
  None,
  /// mbarrier try_wait.parity, expect_tx, clusters, mapa: sm_90 and newer.
  MBarrierTx,
  /// tcgen05 (commit, alloc, fence): sm_100a, sm_101a.
  Tcgen05,
  /// clusterlaunchcontrol: every chip with tcgen05 (sm_100 and newer).
  ClusterLaunchControl,
};

/// The protocol effects of one op (see the enums).
struct ProtocolEffects {
  ProtocolRole role = ProtocolRole::None;
  ProtocolStep step = ProtocolStep::None;
  ProtocolWait wait = ProtocolWait::None;
  ProtocolSignal signal = ProtocolSignal::None;
};

/// The op trait behind `Pipeline_Effects<...>` in ODS.
template <ProtocolRole Role, ProtocolStep Step, ProtocolWait Wait,
          ProtocolSignal Signal>
struct ProtocolEffectsTrait {
  template <typename ConcreteOp>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteOp, Impl> {
  public:
    static constexpr ProtocolEffects getStaticProtocolEffects() {
      return {Role, Step, Wait, Signal};
    }
  };
};

/// The op trait behind `Pipeline_Requires<...>` in ODS.
template <ChipFeature Feature> struct ChipFeatureTrait {
  template <typename ConcreteOp>
  class Impl : public mlir::OpTrait::TraitBase<ConcreteOp, Impl> {
  public:
    static constexpr ChipFeature getStaticChipFeature() { return Feature; }
  };
};

/// An op whose result is a view of the pipeline in its first operand: the
/// same barriers and role state (`pipeline.role`,
/// `pipeline.input_tile_pipeline`). ODS: `Pipeline_PipelineView`.
template <typename ConcreteOp>
class PipelineView : public mlir::OpTrait::TraitBase<ConcreteOp, PipelineView> {
};

/// An op that acquires a stage of the pipeline in its first operand and
/// returns its handle. ODS: `Pipeline_AcquiresStage`.
template <typename ConcreteOp>
class AcquiresStage
    : public mlir::OpTrait::TraitBase<ConcreteOp, AcquiresStage> {};

/// An op that acquires a stage of the pipeline in its first operand for its
/// region, whose first argument is the handle. ODS: `Pipeline_ScopedStage`.
template <typename ConcreteOp>
class ScopedStage : public mlir::OpTrait::TraitBase<ConcreteOp, ScopedStage> {};

namespace detail {
template <typename Op>
using StaticEffects = decltype(Op::getStaticProtocolEffects());
template <typename Op>
using StaticFeature = decltype(Op::getStaticChipFeature());

/// The effects `Op` declares, or none.
template <typename Op> constexpr ProtocolEffects getDeclaredEffects() {
  if constexpr (llvm::is_detected<StaticEffects, Op>::value)
    return Op::getStaticProtocolEffects();
  else
    return {};
}

/// The chip feature `Op` declares; without a declaration, MBarrierTx for an
/// op that waits on or signals a barrier, else none.
template <typename Op> constexpr ChipFeature getDeclaredChipFeature() {
  if constexpr (llvm::is_detected<StaticFeature, Op>::value) {
    return Op::getStaticChipFeature();
  } else {
    constexpr ProtocolEffects effects = getDeclaredEffects<Op>();
    return effects.wait != ProtocolWait::None ||
                   (effects.signal != ProtocolSignal::None &&
                    effects.signal != ProtocolSignal::Address)
               ? ChipFeature::MBarrierTx
               : ChipFeature::None;
  }
}
} // namespace detail
} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_IR_PIPELINEPROTOCOL_H
