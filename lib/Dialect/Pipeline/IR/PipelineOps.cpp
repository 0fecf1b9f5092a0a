//===- PipelineOps.cpp - pipeline dialect ops -------------------*- C++ -*-===//
//
// Local verifiers of the pipeline ops, the custom assembly of the scoped
// `produce` / `consume` / `consume_explicit` regions, and folders. The
// path-sensitive protocol (linearity of stage handles) is checked by
// pipeline-verify-linearity, not here.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace pmlir;

/// Checks `subStage` against the number of sub-stages of `role` in `type`.
static LogicalResult verifySubStage(Operation *op, PipelineType type, Role role,
                                    int64_t subStage) {
  unsigned count = role == Role::producer ? type.getProducerSubStages()
                                          : type.getConsumerSubStages();
  if (subStage < 0 || subStage >= count)
    return op->emitOpError()
           << "expects sub_stage < " << count << " (" << stringifyRole(role)
           << " sub-stages of the pipeline), got " << subStage;
  return success();
}

//===----------------------------------------------------------------------===//
// CreateOp
//===----------------------------------------------------------------------===//

LogicalResult CreateOp::verify() {
  // The generic form can give one operand of `in %buf[%offset]` alone.
  if (bool(getStorage()) != bool(getOffset()))
    return emitOpError() << "expects both a storage buffer and a byte offset, "
                            "or neither, got only "
                         << (getStorage() ? "the buffer" : "the offset");
  if (!getStorage())
    return success();
  MemRefType storage = getStorage().getType();
  if (storage.getRank() != 1 || !storage.getElementType().isInteger(8))
    return emitOpError() << "expects storage of type memref<?xi8> or "
                            "memref<Nxi8> in the workgroup address space, got "
                         << storage;
  uint64_t bytes = getResult().getType().getSmemBytes();
  APInt offset;
  if (matchPattern(getOffset(), m_ConstantInt(&offset))) {
    if (offset.isNegative())
      return emitOpError() << "expects a non-negative offset, got "
                           << offset.getSExtValue();
    if (offset.getSExtValue() % 8 != 0)
      return emitOpError() << "expects an offset that is a multiple of 8 "
                              "(mbarrier alignment), got "
                           << offset.getSExtValue();
    if (!storage.isDynamicDim(0) &&
        offset.getSExtValue() + bytes > (uint64_t)storage.getDimSize(0))
      return emitOpError() << "expects storage of at least "
                           << offset.getSExtValue() + bytes
                           << " bytes for the barriers at offset "
                           << offset.getSExtValue() << ", got "
                           << storage.getDimSize(0);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SmemBytesOp
//===----------------------------------------------------------------------===//

uint64_t SmemBytesOp::getBytes() {
  if (auto tmem = dyn_cast<TmemType>(getPipelineType()))
    return TmemType::kSmemBytes;
  return cast<PipelineType>(getPipelineType()).getSmemBytes();
}

OpFoldResult SmemBytesOp::fold(FoldAdaptor) {
  return IntegerAttr::get(IndexType::get(getContext()), getBytes());
}

//===----------------------------------------------------------------------===//
// InitMbarsOp
//===----------------------------------------------------------------------===//

LogicalResult InitMbarsOp::verify() {
  int64_t producers = getProducerArriveCountAttr().getValue().getSExtValue();
  int64_t consumers = getConsumerArriveCountAttr().getValue().getSExtValue();
  if (producers < 1)
    return emitOpError() << "expects producer_arrive_count >= 1, got "
                         << producers;
  if (consumers < 1)
    return emitOpError() << "expects consumer_arrive_count >= 1, got "
                         << consumers;
  // One mbarrier phase counts at most 2^20 - 1 pending arrivals.
  constexpr int64_t kMaxArrivals = (1 << 20) - 1;
  if (producers > kMaxArrivals || consumers > kMaxArrivals)
    return emitOpError() << "expects arrival counts <= " << kMaxArrivals
                         << " (mbarrier limit)";
  return success();
}

//===----------------------------------------------------------------------===//
// InputTilePipelineOp
//===----------------------------------------------------------------------===//

LogicalResult InputTilePipelineOp::verify() {
  TilePipelineType type = getResult().getType();
  if (type.getPipeline() != getPipeline().getType())
    return emitOpError() << "expects the result to wrap the operand pipeline "
                         << getPipeline().getType() << ", got "
                         << type.getPipeline();
  SmallVector<MemRefType> expected = type.getPayloadTypes();
  if (expected.size() != getPayload().size())
    return emitOpError() << "expects " << expected.size()
                         << " payload operands (one per payload of the "
                            "result type), got "
                         << getPayload().size();
  for (auto [i, operand] : llvm::enumerate(getPayload()))
    if (operand.getType() != expected[i])
      return emitOpError() << "expects payload #" << i << " of type "
                           << expected[i] << ", got " << operand.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// RoleOp
//===----------------------------------------------------------------------===//

LogicalResult RoleOp::verify() {
  if (getResult().getType().getPipeline() != getPipeline().getType())
    return emitOpError() << "expects a role of " << getPipeline().getType()
                         << ", got " << getResult().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// ProducerMbarOp / ConsumerMbarOp
//===----------------------------------------------------------------------===//

LogicalResult ProducerMbarOp::verify() {
  return verifySubStage(*this, getBasePipelineType(getPipeline().getType()),
                        Role::producer, getSubStage());
}

LogicalResult ConsumerMbarOp::verify() {
  return verifySubStage(*this, getBasePipelineType(getPipeline().getType()),
                        Role::consumer, getSubStage());
}

//===----------------------------------------------------------------------===//
// Stage handle ops
//===----------------------------------------------------------------------===//

LogicalResult MbarOp::verify() {
  StageType type = getStage().getType();
  return verifySubStage(*this, type.getBasePipeline(), type.getRole(),
                        getSubStage());
}

LogicalResult ExpectTxOp::verify() {
  if (!getBytes() && !isa<TilePipelineType>(getStage().getType().getPipeline()))
    return emitOpError() << "expects a byte count: only a stage of a tile "
                            "pipeline knows its payload bytes";
  APInt bytes;
  if (getBytes() && matchPattern(getBytes(), m_ConstantInt(&bytes)) &&
      (bytes.getSExtValue() < 0 || bytes.getSExtValue() >= (1 << 20)))
    return emitOpError() << "expects a byte count in [0, 2^20), got "
                         << bytes.getSExtValue();
  return success();
}

std::optional<int64_t> TmaLoadOp::getBoxBytes() {
  return getStaticBytes(getDst().getType());
}

LogicalResult TmaLoadOp::verify() {
  size_t n = getCoordinates().size();
  if (n < 1 || n > 5)
    return emitOpError() << "expects 1 to 5 coordinates (a tensor of rank 1 "
                            "to 5), got "
                         << n;
  MemRefType dst = getDst().getType();
  if (!dst.hasStaticShape())
    return emitOpError() << "expects a destination of static shape (its "
                            "bytes are the box's), got "
                         << dst;
  std::optional<int64_t> box = getBoxBytes();
  // TMA: at most 256 elements along each box dimension, 16-byte multiples.
  if (!box || *box % 16)
    return emitOpError() << "expects the box (the destination) to be a "
                            "multiple of 16 bytes, got "
                         << dst;
  if (!dst.getLayout().isIdentity()) {
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(dst.getStridesAndOffset(strides, offset)) ||
        !dst.areTrailingDimsContiguous(dst.getRank()))
      return emitOpError() << "expects a contiguous destination (TMA writes "
                              "the box densely), got "
                           << dst;
  }
  return success();
}

MemRefType PayloadOp::inferTilesType(TilePipelineType type, unsigned array) {
  MemRefType source = type.getPayloadTypes()[array];
  // Subview [stage, 0, 0...] x [1, k, tile...], dropping the stage dimension.
  SmallVector<int64_t> sizes(source.getShape());
  sizes[0] = 1;
  SmallVector<int64_t> offsets(source.getRank(), 0);
  offsets[0] = ShapedType::kDynamic;
  SmallVector<int64_t> strides(source.getRank(), 1);
  SmallVector<int64_t> resultShape(source.getShape().drop_front());
  return memref::SubViewOp::inferRankReducedResultType(resultShape, source,
                                                       offsets, sizes, strides);
}

LogicalResult PayloadOp::verify() {
  auto type = cast<TilePipelineType>(getStage().getType().getPipeline());
  unsigned numArrays = type.getPayload().size();
  if (getArray() >= numArrays)
    return emitOpError() << "expects payload array index < " << numArrays
                         << ", got " << getArray();
  MemRefType expected = inferTilesType(type, getArray());
  if (getTiles().getType() != expected)
    return emitOpError() << "expects result type " << expected << ", got "
                         << getTiles().getType();
  return success();
}

LogicalResult ReleaseOp::verify() {
  StageType type = getStage().getType();
  if (type.isProducer() && getSubStage() != 0)
    return emitOpError() << "expects no sub_stage on a producer stage: "
                            "producer release only steps";
  return verifySubStage(*this, type.getBasePipeline(), type.getRole(),
                        getSubStage());
}

//===----------------------------------------------------------------------===//
// Role pipeline ops
//===----------------------------------------------------------------------===//

LogicalResult AcquireOp::verify() {
  // acquire waits on the consumer-signalled `empty` barrier.
  return verifySubStage(*this, getRole().getType().getPipeline(),
                        Role::consumer, getSubStage());
}

LogicalResult ReleaseNoStepOp::verify() {
  return verifySubStage(*this, getStage().getType().getBasePipeline(),
                        Role::consumer, getSubStage());
}

//===----------------------------------------------------------------------===//
// Scoped ops: produce / consume / consume_explicit
//
//   pipeline.consume %p as %s : !pipeline.pipeline<stages = 4> (-> types)? {
//     ...
//   }
//===----------------------------------------------------------------------===//

static ParseResult parseScopedOp(OpAsmParser &parser, OperationState &result,
                                 Role role) {
  OpAsmParser::UnresolvedOperand pipeline;
  OpAsmParser::Argument stage;
  Type pipelineType;
  SmallVector<Type> resultTypes;
  if (parser.parseOperand(pipeline) || parser.parseKeyword("as") ||
      parser.parseArgument(stage) || parser.parseColonType(pipelineType))
    return failure();
  if (succeeded(parser.parseOptionalArrow()))
    if (parser.parseTypeList(resultTypes))
      return failure();
  if (!isa<PipelineType, TilePipelineType>(pipelineType))
    return parser.emitError(parser.getNameLoc())
           << "expects a !pipeline.pipeline or !pipeline.tile_pipeline type, "
              "got "
           << pipelineType;
  if (parser.resolveOperand(pipeline, pipelineType, result.operands))
    return failure();
  stage.type = StageType::get(parser.getContext(), role, pipelineType);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, {stage}))
    return failure();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(resultTypes);
  OpBuilder builder(parser.getContext());
  if (body->empty())
    body->emplaceBlock().addArgument(stage.type, result.location);
  Block &block = body->front();
  if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
    builder.setInsertionPointToEnd(&block);
    YieldOp::create(builder, result.location);
  }
  return success();
}

static void printScopedOp(OpAsmPrinter &p, Operation *op, Value pipeline,
                          Region &body) {
  p << ' ' << pipeline << " as ";
  p.printRegionArgument(body.getArgument(0), {}, /*omitType=*/true);
  p << " : " << pipeline.getType();
  if (op->getNumResults())
    p << " -> " << op->getResultTypes();
  p << ' ';
  bool hasYieldValues = body.front().getTerminator()->getNumOperands() != 0;
  p.printRegion(body, /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/hasYieldValues);
  p.printOptionalAttrDictWithKeyword(op->getAttrs());
}

static LogicalResult verifyScopedOp(Operation *op, Value pipeline, Region &body,
                                    Role role) {
  Block &block = body.front();
  Type expected = StageType::get(op->getContext(), role, pipeline.getType());
  if (block.getNumArguments() != 1 ||
      block.getArgument(0).getType() != expected)
    return op->emitOpError()
           << "expects one region argument of type " << expected;
  // This runs before the block's terminator is verified: the generic form
  // can end the block with any op (or another terminator, like a cf.br).
  auto yield = dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError()
           << "expects the region to end with 'pipeline.yield', got '"
           << block.back().getName() << "'";
  if (yield.getResults().getTypes() != op->getResultTypes()) {
    auto printTypes = [](InFlightDiagnostic &diag, TypeRange types) {
      if (types.empty())
        diag << "nothing";
      else
        diag << types;
    };
    InFlightDiagnostic diag = op->emitOpError()
                              << "expects the region to yield ";
    printTypes(diag, op->getResultTypes());
    diag << ", got ";
    printTypes(diag, yield.getResults().getTypes());
    return diag;
  }
  return success();
}

#define PIPELINE_SCOPED_OP_ASM(OP)                                             \
  ParseResult OP::parse(OpAsmParser &parser, OperationState &result) {         \
    return parseScopedOp(parser, result, OP::getRegionRole());                 \
  }                                                                            \
  void OP::print(OpAsmPrinter &p) {                                            \
    printScopedOp(p, *this, getPipeline(), getBody());                         \
  }                                                                            \
  LogicalResult OP::verify() {                                                 \
    return verifyScopedOp(*this, getPipeline(), getBody(),                     \
                          OP::getRegionRole());                                \
  }

PIPELINE_SCOPED_OP_ASM(ProduceOp)
PIPELINE_SCOPED_OP_ASM(ConsumeOp)
PIPELINE_SCOPED_OP_ASM(ConsumeExplicitOp)

#undef PIPELINE_SCOPED_OP_ASM

LogicalResult YieldOp::verify() {
  for (Value v : getResults())
    if (isa<StageType>(v.getType()))
      return emitOpError() << "expects no stage handle to leave the region: "
                              "the region releases its stage on exit";
  return success();
}

#define GET_OP_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value pmlir::getRootPipeline(Value value) {
  while (value) {
    Operation *def = value.getDefiningOp();
    if (!def || !def->hasTrait<PipelineView>())
      return value;
    value = def->getOperand(0);
  }
  return value;
}

CreateOp pmlir::getCreateOp(Value value) {
  Value root = getRootPipeline(value);
  return root ? root.getDefiningOp<CreateOp>() : CreateOp();
}

//===----------------------------------------------------------------------===//
// Tensor memory
//===----------------------------------------------------------------------===//

LogicalResult TmemCreateOp::verify() {
  APInt offset;
  if (matchPattern(getOffset(), m_ConstantInt(&offset)) &&
      offset.getSExtValue() % 8)
    return emitOpError() << "expects an offset that is a multiple of 8 (the "
                            "deallocation barrier is an 8-byte mbarrier), got "
                         << offset.getSExtValue();
  return success();
}

LogicalResult TmemAllocOp::verify() {
  if (getReaders() < 1)
    return emitOpError() << "expects at least 1 reader, got " << getReaders();
  if (getWarp() < 0 || getWarp() >= 32)
    return emitOpError() << "expects a warp of the CTA (0 to 31), got "
                         << getWarp();
  return success();
}

//===----------------------------------------------------------------------===//
// Cluster launch control
//===----------------------------------------------------------------------===//

/// A stage of a clc pipeline whose tile pipeline holds one 16-byte response
/// per stage.
static LogicalResult verifyClcStage(Operation *op, StageType type) {
  auto tile = dyn_cast<TilePipelineType>(type.getPipeline());
  if (!type.getBasePipeline().getClc() || !tile)
    return op->emitOpError()
           << "expects a stage of a tile pipeline over a clc = true pipeline "
              "(the payload holds each stage's response), got "
           << type;
  if (tile.getPayload().size() != 1 || tile.getKGroupSize() != 1 ||
      tile.getStageBytes() != 16)
    return op->emitOpError()
           << "expects the clc tile pipeline to hold one payload of 16 bytes "
              "per stage (the cluster launch control response), got "
           << tile.getStageBytes() << " bytes in " << tile.getPayload().size()
           << " payload(s)";
  return success();
}

LogicalResult ClcTryCancelOp::verify() {
  return verifyClcStage(*this, getStage().getType());
}

LogicalResult ClcResponseOp::verify() {
  return verifyClcStage(*this, getStage().getType());
}
