//===- PipelineTypes.cpp - pipeline dialect types ---------------*- C++ -*-===//

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pmlir;

#define GET_TYPEDEF_CLASSES
#include "pipeline/Dialect/Pipeline/IR/PipelineTypes.cpp.inc"

void PipelineDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "pipeline/Dialect/Pipeline/IR/PipelineTypes.cpp.inc"
      >();
}

std::optional<int64_t> pmlir::getStaticBytes(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  int64_t bits = type.getNumElements() * type.getElementTypeBitWidth();
  if (bits % 8)
    return std::nullopt;
  return bits / 8;
}

bool pmlir::isWorkgroupMemRef(MemRefType type) {
  return gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(type);
}

PipelineType pmlir::getBasePipelineType(Type type) {
  return TypeSwitch<Type, PipelineType>(type)
      .Case<PipelineType>([](PipelineType t) { return t; })
      .Case<TilePipelineType>(
          [](TilePipelineType t) { return t.getPipeline(); })
      .Case<RoleType>([](RoleType t) { return t.getPipeline(); })
      .Case<StageType>([](StageType t) { return t.getBasePipeline(); })
      .Default([](Type) { return PipelineType(); });
}

Type pmlir::getMBarrierGroupType(Type type) {
  PipelineType base = getBasePipelineType(type);
  if (!base)
    return Type();
  MLIRContext *ctx = type.getContext();
  auto space = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  return nvgpu::MBarrierGroupType::get(ctx, space, base.getNumBarriers());
}

//===----------------------------------------------------------------------===//
// PipelineType
//===----------------------------------------------------------------------===//

LogicalResult PipelineType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned stages, unsigned producerSubStages,
                                   unsigned consumerSubStages,
                                   unsigned ctaGroup, unsigned releaseCtas,
                                   unsigned consumerDepth, bool tmem, bool clc,
                                   unsigned clusterM, unsigned clusterN) {
  if (stages < 1)
    return emitError() << "expects at least 1 stage, got " << stages;
  if (producerSubStages < 1)
    return emitError() << "expects at least 1 producer sub-stage, got "
                       << producerSubStages;
  if (consumerSubStages < 1)
    return emitError() << "expects at least 1 consumer sub-stage, got "
                       << consumerSubStages;
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "expects cta_group 1 or 2, got " << ctaGroup;
  if (releaseCtas < 1 || releaseCtas > 16 || !llvm::isPowerOf2_32(releaseCtas))
    return emitError() << "expects release_ctas 1, 2, 4, 8 or 16 (an aligned "
                          "group of a cluster of at most 16 CTAs), got "
                       << releaseCtas;
  if (consumerDepth < 1 || consumerDepth > stages)
    return emitError() << "expects consumer_depth between 1 and the " << stages
                       << " stages (a consumer cannot hold more stages than "
                          "there are), got "
                       << consumerDepth;
  if (releaseCtas != 1 && ctaGroup != 1)
    return emitError() << "expects release_ctas = 1 with cta_group = "
                       << ctaGroup
                       << " (the CTA pair decides where consumer signals go), "
                          "got release_ctas = "
                       << releaseCtas;
  if (clc && (ctaGroup != 1 || releaseCtas != 1 || tmem ||
              producerSubStages != 1 || consumerSubStages != 1))
    return emitError() << "expects a clc pipeline to have cta_group = 1, "
                          "release_ctas = 1, no sub-stages and tmem = false "
                          "(its consumers signal cluster rank 0)";
  if (clusterM < 1 || clusterN < 1 || uint64_t(clusterM) * clusterN > 16)
    return emitError() << "expects cluster_m x cluster_n between 1 and 16 "
                          "CTAs (a cluster of at most 16), got "
                       << clusterM << " x " << clusterN;
  bool cross = uint64_t(clusterM) * clusterN > 1;
  if (cross && clusterM % ctaGroup != 0)
    return emitError() << "expects cluster_m to be a multiple of cta_group = "
                       << ctaGroup << " (a whole number of CTA pairs along M), "
                       << "got cluster_m = " << clusterM;
  if (cross && (releaseCtas != 1 || clc))
    return emitError() << "expects release_ctas = 1 and clc = false with a "
                          "cluster_m x cluster_n multicast cluster (the "
                          "cross decides where consumer signals go), got "
                       << (clc ? "clc = true"
                               : "release_ctas = " +
                                     std::to_string(releaseCtas));
  // Counted in 64 bits: the 32-bit accessors must not wrap around.
  uint64_t barriers = uint64_t(stages) * producerSubStages +
                      uint64_t(stages) * consumerSubStages;
  if (barriers * 8 > kMaxSharedMemoryBytes)
    return emitError() << "expects the barriers to fit in the "
                       << kMaxSharedMemoryBytes
                       << " bytes of shared memory of a CTA (8 bytes each), "
                          "got "
                       << barriers << " barriers";
  return success();
}

uint32_t PipelineType::getCrossMask(unsigned rank) const {
  unsigned m = getClusterM(), n = getClusterN(), group = getCtaGroup();
  unsigned x = rank % m, y = rank / m;
  uint32_t mask = 0;
  for (unsigned yy = 0; yy < n; ++yy)
    for (unsigned xx = 0; xx < m; ++xx)
      if (xx / group == x / group || yy == y)
        mask |= uint32_t(1) << (xx + yy * m);
  return mask;
}

//===----------------------------------------------------------------------===//
// TilePipelineType
//===----------------------------------------------------------------------===//

LogicalResult
TilePipelineType::verify(function_ref<InFlightDiagnostic()> emitError,
                         PipelineType pipeline, unsigned kGroupSize,
                         ArrayAttr payload) {
  if (!pipeline)
    return emitError() << "expects a !pipeline.pipeline type";
  if (kGroupSize < 1)
    return emitError() << "expects k_group_size of at least 1, got "
                       << kGroupSize;
  if (payload.empty())
    return emitError() << "expects at least one payload tile array";
  for (auto [i, attr] : llvm::enumerate(payload)) {
    auto typeAttr = dyn_cast<TypeAttr>(attr);
    auto memref =
        typeAttr ? dyn_cast<MemRefType>(typeAttr.getValue()) : MemRefType();
    if (!memref)
      return emitError() << "expects payload #" << i << " to be a memref type";
    if (!isWorkgroupMemRef(memref))
      return emitError() << "expects payload #" << i
                         << " in the workgroup address space, got " << memref;
    if (!memref.hasStaticShape() || memref.getRank() < 3)
      return emitError() << "expects payload #" << i
                         << " of static shape [stages, k_group_size, tile...], "
                            "got "
                         << memref;
    if (!memref.getLayout().isIdentity())
      return emitError() << "expects payload #" << i
                         << " with the identity layout, got " << memref;
    if (memref.getDimSize(0) != pipeline.getStages())
      return emitError() << "expects payload #" << i << " to have "
                         << pipeline.getStages()
                         << " stages in dimension 0, got "
                         << memref.getDimSize(0);
    if (memref.getDimSize(1) != kGroupSize)
      return emitError() << "expects payload #" << i << " to have "
                         << kGroupSize
                         << " tiles (k_group_size) in dimension 1, got "
                         << memref.getDimSize(1);
    if (!memref.getElementType().isIntOrFloat())
      return emitError() << "expects payload #" << i
                         << " of integer or float elements, got "
                         << memref.getElementType();
    // Counted in bits (a sub-byte element is not a byte: TMA packs FP4 and
    // FP6 tiles), dimension by dimension so that a huge shape cannot
    // overflow the byte counts (getStageBytes, expect_tx) computed from it.
    const uint64_t maxBits = uint64_t(kMaxSharedMemoryBytes) * 8;
    uint64_t bits = memref.getElementTypeBitWidth();
    for (int64_t dim : memref.getShape()) {
      if (dim != 0 && bits > maxBits / uint64_t(dim)) {
        bits = maxBits + 1;
        break;
      }
      bits *= dim;
    }
    if (bits > maxBits)
      return emitError() << "expects payload #" << i << " to fit in the "
                         << kMaxSharedMemoryBytes
                         << " bytes of shared memory of a CTA, got " << memref;
    // Dimension 0 is the stage count (checked above, at least 1).
    uint64_t stageBits = bits / uint64_t(memref.getDimSize(0));
    if (stageBits % 8)
      return emitError() << "expects payload #" << i
                         << " to hold a whole number of bytes per stage (the "
                            "bytes expect_tx arms and TMA delivers), got "
                         << stageBits << " bits of " << memref.getElementType()
                         << " per stage in " << memref;
  }
  return success();
}

SmallVector<MemRefType> TilePipelineType::getPayloadTypes() const {
  SmallVector<MemRefType> types;
  for (Attribute attr : getPayload())
    types.push_back(cast<MemRefType>(cast<TypeAttr>(attr).getValue()));
  return types;
}

uint64_t TilePipelineType::getStageBytes() const {
  uint64_t bytes = 0;
  for (MemRefType type : getPayloadTypes()) {
    // In bits: TMA packs sub-byte elements (FP4, FP6), so a stage of a
    // 64x128 FP4 tile is 4096 bytes, not 8192 (the verifier requires whole
    // bytes per stage).
    uint64_t elems = type.getNumElements() / type.getDimSize(0);
    bytes += elems * type.getElementTypeBitWidth() / 8;
  }
  return bytes;
}

//===----------------------------------------------------------------------===//
// StageType
//===----------------------------------------------------------------------===//

LogicalResult StageType::verify(function_ref<InFlightDiagnostic()> emitError,
                                Role role, Type pipeline) {
  if (!isa<PipelineType, TilePipelineType>(pipeline))
    return emitError() << "expects a stage of a !pipeline.pipeline or "
                          "!pipeline.tile_pipeline type, got "
                       << pipeline;
  return success();
}

PipelineType StageType::getBasePipeline() const {
  return getBasePipelineType(getPipeline());
}

//===----------------------------------------------------------------------===//
// TmemType
//===----------------------------------------------------------------------===//

LogicalResult TmemType::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned columns, unsigned ctaGroup) {
  if (columns < 32 || columns > 512 || !llvm::isPowerOf2_32(columns))
    return emitError() << "expects columns 32, 64, 128, 256 or 512 (tcgen05."
                          "alloc takes a power of 2 of at least 32 of the 512 "
                          "columns), got "
                       << columns;
  if (ctaGroup != 1 && ctaGroup != 2)
    return emitError() << "expects cta_group 1 or 2, got " << ctaGroup;
  return success();
}
