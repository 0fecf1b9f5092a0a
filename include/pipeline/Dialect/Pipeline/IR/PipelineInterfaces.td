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

#endif // PIPELINE_INTERFACES_TD
