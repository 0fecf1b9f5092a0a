//===- PipelineInterfaces.td - stage handle interfaces -----*- tablegen -*-===//

#ifndef PIPELINE_INTERFACES_TD
#define PIPELINE_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Pipeline_StageUseOpInterface : OpInterface<"StageUseOpInterface"> {
  let cppNamespace = "::pmlir";
  let description = [{
    An op that takes a `!pipeline.stage` handle as an operand says what it
    does with it: it *consumes* the handle (the handle is dead afterwards,
    like `release`) or *borrows* it (reads it, like `index`). The linearity
    checker treats any other use of a handle as an escape, which is an
    error. Ops of other dialects implement this interface (or attach it as
    an external model) to take part in the check.
  }];
  let methods = [
    InterfaceMethod<
      "Returns true if the op consumes the stage handle in `operand`, "
      "false if it only borrows it.",
      "bool", "consumesStage", (ins "::mlir::OpOperand &":$operand)>,
  ];
}

def Pipeline_ProtocolOpInterface : OpInterface<"ProtocolOpInterface"> {
  let cppNamespace = "::pmlir";
  let description = [{
    What a pipeline op does to the protocol, declared once per op in ODS:
    the role it is about, what it does to that role's state, how it waits
    on and signals that role's barriers (`Pipeline_Effects<...>`), and the
    chip feature its lowering needs (`Pipeline_Requires<...>`, by default
    `MBarrierTx` for an op that waits or signals). Every op of the dialect
    implements it. The checkers, pipeline-unroll-stages and the lowering
    read these instead of lists of op types (PipelineProtocol.h).
  }];
  let methods = [
    StaticInterfaceMethod<
      "The op's protocol effects.",
      "::pmlir::ProtocolEffects", "getProtocolEffects", (ins), [{}], [{
        return ::pmlir::detail::getDeclaredEffects<ConcreteOp>();
      }]>,
    StaticInterfaceMethod<
      "The chip feature the op's lowering needs.",
      "::pmlir::ChipFeature", "getChipFeature", (ins), [{}], [{
        return ::pmlir::detail::getDeclaredChipFeature<ConcreteOp>();
      }]>,
  ];
}

// The protocol effects of an op (PipelineProtocol.h): its role (None,
// Producer, Consumer, OfStage), step (None, Reads, AtAcquire, AtRelease,
// Always, Drain), wait (None, Blocks, Tries) and signal (None, Arrive,
// ExpectTx, Release, Commit, MmaCommit, RegionExit, Address).
class Pipeline_Effects<string role, string step, string wait, string signal>
    : ParamNativeOpTrait<"ProtocolEffectsTrait",
        "::pmlir::ProtocolRole::" # role # ", ::pmlir::ProtocolStep::" # step #
        ", ::pmlir::ProtocolWait::" # wait # ", ::pmlir::ProtocolSignal::" #
        signal> {
  let cppNamespace = "::pmlir";
}

// The chip feature an op's lowering needs (None, MBarrierTx, Tcgen05).
class Pipeline_Requires<string feature>
    : ParamNativeOpTrait<"ChipFeatureTrait", "::pmlir::ChipFeature::" # feature> {
  let cppNamespace = "::pmlir";
}

// Structural traits (PipelineProtocol.h): a view of a pipeline, an op that
// returns an acquired stage handle, an op whose region owns one.
def Pipeline_PipelineView : NativeOpTrait<"PipelineView"> {
  let cppNamespace = "::pmlir";
}
def Pipeline_AcquiresStage : NativeOpTrait<"AcquiresStage"> {
  let cppNamespace = "::pmlir";
}
def Pipeline_ScopedStage : NativeOpTrait<"ScopedStage"> {
  let cppNamespace = "::pmlir";
}

#endif // PIPELINE_INTERFACES_TD
