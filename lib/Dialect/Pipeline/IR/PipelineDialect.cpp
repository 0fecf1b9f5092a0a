//===- PipelineDialect.cpp - pipeline dialect -------------------*- C++ -*-===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pmlir;

#include "pipeline/Dialect/Pipeline/IR/PipelineDialect.cpp.inc"
#include "pipeline/Dialect/Pipeline/IR/PipelineEnums.cpp.inc"
#include "pipeline/Dialect/Pipeline/IR/PipelineInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineAttrs.cpp.inc"

void PipelineDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "pipeline/Dialect/Pipeline/IR/PipelineOps.cpp.inc"
      >();
  registerTypes();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "pipeline/Dialect/Pipeline/IR/PipelineAttrs.cpp.inc"
      >();
}

Operation *PipelineDialect::materializeConstant(OpBuilder &builder,
                                                Attribute value, Type type,
                                                Location loc) {
  if (auto intAttr = dyn_cast<IntegerAttr>(value))
    if (type.isIndex())
      return arith::ConstantIndexOp::create(builder, loc, intAttr.getInt());
  return nullptr;
}
