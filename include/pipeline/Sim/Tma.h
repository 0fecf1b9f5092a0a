//===- Tma.h - the tensor memory accelerator's copies, with data -*- C++
//-*-===//
//
// A pure model of what the TMA moves: a tensor map as cuTensorMapEncodeTiled
// takes it (tile mode, no interleave), its validation by the driver's rules,
// its command-line spec, and the tile-mode copies of cp.async.bulk.tensor
// (global -> shared with out-of-bound fill and the shared-memory swizzle;
// shared -> global, plain or reducing). Global memory is reached through
// callbacks so the engine keeps its buffers and its out-of-bounds reports.
//
// Conventions:
//  - dims, box, elementStrides and coordinates are innermost first, as the
//    driver and the PTX coordinate vector take them; strides[i] (i >= 1) is
//    the byte stride of dimension i; strides[0] is the element size.
//  - elementStrides[0] is ignored (the driver documents that TMA has no
//    traversal stride in dimension 0 without interleave); in dimension i >= 1
//    the box holds ceil(box[i] / elementStrides[i]) elements, at coordinates
//    coords[i] + k * elementStrides[i].
//  - The box lands in shared memory packed box-row-major (rows of
//    box[0] * element-size bytes, a multiple of 16), and each 16-byte chunk
//    is placed at swizzleAddress(dst + offset, swizzle): the swizzle is a
//    function of the absolute shared-memory offset.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_SIM_TMA_H
#define PIPELINE_SIM_TMA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace pmlir::sim {

/// CU_TENSOR_MAP_DATA_TYPE_*, in the driver's order (the packed sub-byte
/// types 16U4_ALIGN8B, 16U4_ALIGN16B and 16U6_ALIGN16B are not modelled).
enum class TmaElem : uint8_t {
  U8,
  U16,
  U32,
  S32,
  U64,
  S64,
  F16,
  F32,
  F64,
  BF16,
  F32FTZ,
  TF32,
  TF32FTZ
};

/// Bytes of one element.
unsigned tmaElemBytes(TmaElem);
/// The spec's name of the type: "u8", ..., "bf16", "f32ftz", "tf32ftz".
llvm::StringRef tmaElemName(TmaElem);
/// Whether the type is a floating-point one (OOB NaN fill is allowed).
bool tmaElemIsFloat(TmaElem);

struct TensorMapDesc {
  TmaElem elem = TmaElem::U8;
  unsigned rank = 0; // 1..5
  /// Device address of element (0, .., 0).
  uint64_t globalAddress = 0;
  uint64_t dims[5] = {1, 1, 1, 1, 1};    // innermost first
  uint64_t strides[5] = {0, 0, 0, 0, 0}; // bytes; [0] = element bytes
  uint32_t box[5] = {1, 1, 1, 1, 1};
  uint32_t elementStrides[5] = {1, 1, 1, 1, 1};
  unsigned swizzle = 0; // 0, 32, 64, 128 (bytes)
  /// CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA (else zero fill).
  bool oobNan = false;
  /// The buffer it points into (CLI `data=NAME`), may be empty, and the
  /// byte offset into it (`data=NAME+OFFSET`); the engine sets
  /// globalAddress = base(data) + dataOffset.
  std::string data;
  uint64_t dataOffset = 0;
};

/// "" when the map is valid, else the message of the cuTensorMapEncodeTiled
/// rule it breaks: rank 1..5; a known type; 16-byte aligned global address;
/// dims 1..2^32; strides[0] the element size, strides[1..rank-1] multiples
/// of 16 below 2^40; box dims 1..256 with box[0] * element size a multiple of
/// 16 bytes and, with a swizzle, at most the swizzle width; element strides
/// 1..8; swizzle 0/32/64/128; NaN fill only for floating-point types.
std::string validateTensorMap(const TensorMapDesc &);

/// Elements of the box along dimension i (box[0] for i = 0, else
/// ceil(box[i] / elementStrides[i])).
uint64_t tensorMapBoxExtent(const TensorMapDesc &, unsigned i);
/// Bytes one load of the box writes to shared memory (and completes on the
/// mbarrier), out-of-bound elements included.
uint64_t tensorMapBoxBytes(const TensorMapDesc &);
/// Alignment the shared-memory side of a tensor copy needs: 128 bytes, or
/// the swizzle's repeat (8 rows of the swizzle width: 256, 512, 1024 bytes).
uint64_t tensorMapSmemAlignment(const TensorMapDesc &);

/// Parses the command-line spec (the text after "tmap:"):
///   ELEM:dims=D0xD1[x..]:box=B0xB1[x..][:strides=S1xS2..]
///       [:estrides=E0xE1..][:swizzle=0|32|64|128][:oob=zero|nan]
///       :data=NAME[+OFFSET]
/// dims/box/estrides innermost first, with rank entries; strides in bytes
/// for dims 1..rank-1 (default: packed row-major). List entries are decimal;
/// swizzle and OFFSET may also be 0x-hex. ELEM: u8 u16 u32 s32 u64 s64 f16 f32
/// f64 bf16 tf32 f32ftz tf32ftz. globalAddress is left 0; the result is
/// validated.
llvm::Expected<TensorMapDesc> parseTensorMapSpec(llvm::StringRef spec);

/// Global memory as the engine provides it: read/write `n` bytes at a
/// device address; false when the range is outside every buffer.
using GlobalRead =
    llvm::function_ref<bool(uint64_t addr, uint8_t *out, size_t n)>;
using GlobalWrite =
    llvm::function_ref<bool(uint64_t addr, const uint8_t *in, size_t n)>;

/// cp.async.bulk.tensor.Nd.shared.global.tile: the box at `coords`
/// (innermost first, rank entries) written to `smem` (one CTA's shared
/// window) at byte offset `dst`. Out-of-bound elements are 0, or the
/// canonical NaN (0x7fff, 0x7fffffff, 0x7fff...f) for float types with
/// oobNan. Returns "" or an error, with `smem` left untouched: an invalid
/// map, a coordinate count unlike the rank, `dst` not aligned to
/// tensorMapSmemAlignment, the box past the end of `smem`, or a global read
/// that failed.
std::string tmaLoad(const TensorMapDesc &, llvm::ArrayRef<int32_t> coords,
                    GlobalRead read, llvm::MutableArrayRef<uint8_t> smem,
                    uint64_t dst);

enum class TmaReduce : uint8_t { None, Add, Min, Max, Inc, Dec, And, Or, Xor };
llvm::StringRef tmaReduceName(TmaReduce);

/// cp.async.bulk.tensor.Nd.global.shared.tile (op None) and
/// cp.reduce.async.bulk.tensor (other ops): the box read from `smem` at
/// `src` (the load's layout and swizzle) and written, or combined, into the
/// in-bound elements of the tensor; out-of-bound elements are dropped.
/// Reductions by type (else an error):
///   add: u32 s32 u64 (wrapping), f32 (RN, subnormal inputs and result
///        flushed to sign-preserving zero), f16 bf16 (RN, no flush);
///   min/max: u32 s32 u64 s64 f16 bf16 (a NaN operand yields the other);
///   inc/dec: u32 (atom.inc/atom.dec with the shared value as the bound);
///   and/or/xor: u32 s32 u64 s64.
/// Every destination range is read (checked) before anything is written.
std::string tmaStore(const TensorMapDesc &, llvm::ArrayRef<int32_t> coords,
                     llvm::ArrayRef<uint8_t> smem, uint64_t src,
                     GlobalRead read, GlobalWrite write,
                     TmaReduce op = TmaReduce::None);

/// cp.async.bulk (global <-> shared, shared::cta -> shared::cluster) and
/// cp.reduce.async.bulk: both addresses 16-byte aligned, the size a
/// multiple of 16. "" or the message.
std::string bulkCopyCheck(uint64_t dst, uint64_t src, uint64_t n);
/// cp.async.{ca,cg}.shared.global: cp-size 4, 8 or 16 for .ca, 16 for .cg
/// (cacheGlobal), both addresses aligned to it, src-size (bytes read, the rest
/// zero filled) at most cp-size. "" or the message.
std::string asyncCopyCheck(uint64_t dst, uint64_t src, unsigned cpSize,
                           uint64_t srcSize, bool cacheGlobal);

} // namespace pmlir::sim

#endif // PIPELINE_SIM_TMA_H
