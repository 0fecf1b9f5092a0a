//===- TensorCore.h - data model of the tensor cores and TMEM ---*- C++ -*-===//
//
// A pure, self-contained model of what the sm_90a / sm_100a tensor-core
// instructions do to data: Hopper wgmma.mma_async, Blackwell tcgen05.mma /
// ld / st / cp, and ldmatrix / stmatrix / movmatrix. No simulator state: the
// caller passes one CTA's shared-memory window (descriptor start addresses
// are byte offsets into it), the tensor memory of the CTA(s) and the
// registers, and gets back "" or an error message (never a crash on a bad
// address).
//
// Summation model. Every product a*b of two input elements is exact in
// double (at most 11+11 significant bits). The K products of one MMA
// instruction are summed in double together with the incoming accumulator
// (when it is used), and the result is rounded once (round-to-nearest-even)
// into the accumulator format (f32, or f16). The hardware computes the
// products exactly too, but adds them with at least f32-like precision in an
// unspecified order and grouping (it may also align/truncate the addends to
// a common exponent). With S = |D_in| + sum_k |a_k * b_k|, each of the K
// additions of the hardware can be off by at most 2^-23 * S (one f32 ulp of a
// partial sum bounded by S, truncation included), and the final rounding
// adds half an ulp of D on both sides, so
//
//     |D_emulated - D_hardware| <= K * 2^-23 * S + ulp(D)        (f32 D)
//
// (for an f16 accumulator use 2^-10 in place of 2^-23). Inputs whose partial
// sums are exactly representable in f32 (e.g. small integers, as in the
// unit tests) give bit-identical results.
//
// Layout sources: PTX ISA sections "Matrix Descriptor Format", "Shared
// Memory Matrix Layout", "Register Fragments" (wgmma), "Instruction
// descriptor", "Shared memory descriptor", "Data path layout organization",
// "Matrix fragments for tcgen05.ld/st" (tcgen05), and the canonical layouts
// documented in CUTLASS (cute/arch/mma_sm90_desc.hpp, mma_sm100_desc.hpp,
// cute/atom/copy_traits_sm100.hpp).
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_SIM_TENSORCORE_H
#define PIPELINE_SIM_TENSORCORE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace pmlir::sim {

//===----------------------------------------------------------------------===//
// Element types and shared-memory descriptors
//===----------------------------------------------------------------------===//

/// An element type of an MMA operand or accumulator.
enum class MmaType {
  Invalid,
  F16,
  BF16,
  TF32,
  F32,
  E4M3,
  E5M2,
  E2M3,
  E3M2,
  E2M1,
  S8, // kind::i8 operands (format 1)
  U8, // kind::i8 operands (format 0)
};

/// The value of an element of `type` held in the low bits of `bits`.
double decodeMmaElement(MmaType type, uint64_t bits);
/// Bits of the element width of `type` of a value (round to nearest even).
uint64_t encodeMmaElement(MmaType type, double value);
/// Width of the element's encoding in bits (16, 32, 8, 6 or 4).
/// (S8/U8 decode to the integer value.)
unsigned mmaTypeBits(MmaType type);

/// Operand majorness: K-major (K contiguous, "no transpose") or MN-major.
enum class Major { K, MN };

/// A shared-memory matrix descriptor, decoded (byte values, not >>4).
struct SmemDescriptor {
  uint32_t startAddress = 0;      // bits 0-13, << 4
  uint32_t leadingByteOffset = 0; // bits 16-29, << 4 (LBO)
  uint32_t strideByteOffset = 0;  // bits 32-45, << 4 (SBO)
  unsigned baseOffset = 0;        // bits 49-51
  unsigned swizzleBytes = 0;      // 0 (none/interleave), 32, 64 or 128
  // sm_100 only:
  unsigned version = 0;          // bits 46-47 (must be 1 on sm_100)
  bool lboAbsolute = false;      // bit 52 (LBO mode; 1 is not modelled)
  bool swizzle128Base32 = false; // layout 1: 128B swizzle, 32B atomicity
};

/// wgmma (sm_90a) descriptor: swizzle in bits 62-63 (0 none, 1 128B,
/// 2 64B, 3 32B).
SmemDescriptor decodeWgmmaDescriptor(uint64_t desc);
uint64_t encodeWgmmaDescriptor(const SmemDescriptor &d);
/// tcgen05 (sm_100a) descriptor: version bits 46-47, base offset 49-51, LBO
/// mode bit 52, layout bits 61-63 (0 none, 1 128B with 32B atomic base,
/// 2 128B, 4 64B, 6 32B). Reports in `error` (messages joined by "; ") a
/// reserved layout, a version other than 1 (the ISA's fixed constant), and
/// the LBO-mode bit set (the absolute leading-dimension stride mode is not
/// modelled); the fields are decoded all the same.
SmemDescriptor decodeUmmaDescriptor(uint64_t desc, std::string *error);
uint64_t encodeUmmaDescriptor(const SmemDescriptor &d);

/// The shared-memory byte address (an offset in the CTA's window, swizzle
/// applied) of element (row, k) of an operand in the canonical layout the
/// descriptor describes. `row` is the M index (A) or N index (B); `elemBits`
/// is the element's container width (8, 16 or 32; 4 for packed fp4, where
/// the address is of the byte holding the element). Canonical layouts, T =
/// 16 bytes of elements, "row" = 8-row group index:
///   K-major, none:  core matrices of 8 rows x 16 B (128 B contiguous);
///                   rows: (row/8)*SBO + (row%8)*16; K: (kB/16)*LBO + kB%16.
///   K-major, swizzled (W = 32/64/128 B): 8 rows x W bytes atoms, row r at
///                   r*W; (row/8)*SBO; K contiguous within W (K bytes beyond
///                   W step by LBO).
///   MN-major, none: core matrices of 8 K-rows x 16 B of MN;
///                   MN: (mnB/16)*SBO + mnB%16; K: (k/8)*LBO + (k%8)*16.
///   MN-major, swizzled: atoms of 8 K-rows x W bytes of MN;
///                   MN: (mnB/W)*LBO + mnB%W; K: (k/8)*SBO + (k%8)*W.
/// The address start + offset is then swizzled (Swizzle.h) on its own bits,
/// so a start not aligned to the 8-row pattern is handled by the address
/// itself (the descriptor's base offset is then redundant and not used).
uint64_t operandOffset(const SmemDescriptor &d, Major major, unsigned elemBits,
                       unsigned row, unsigned k);

//===----------------------------------------------------------------------===//
// Hopper wgmma.mma_async
//===----------------------------------------------------------------------===//

struct WgmmaInstr {
  unsigned m = 64, n = 0, k = 0;
  MmaType dType = MmaType::Invalid, aType = MmaType::Invalid,
          bType = MmaType::Invalid;
};

/// Decodes {"wgmma","mma_async","sync","aligned","m64n128k16","f32","bf16",
/// "bf16"}. Supports dense f16/bf16 (k16), tf32 (k8), e4m3/e5m2 (k32) with
/// f32 accumulators, and f16 accumulators for f16 and fp8 inputs.
WgmmaInstr decodeWgmma(llvm::ArrayRef<std::string> parts, std::string *error);

struct RowCol {
  unsigned row, col;
};

/// Accumulator element `i` (0 .. N/2-1) of lane `lane` of warp `warp` (0-3)
/// of the warpgroup: row 16*warp + lane/4 + 8*((i/2)%2), column
/// 8*(i/4) + 2*(lane%4) + i%2. An f32 accumulator holds element i in
/// register i; an f16 accumulator holds it in register i/2, half i%2 (low
/// half = even element).
RowCol wgmmaAccumElement(unsigned warp, unsigned lane, unsigned i);

/// A-from-registers element `e` of a lane (row within the 64, column = k):
/// f16/bf16 (k16): e in 0..7, register e/2, half e%2;
///   row lane/4 + 8*((e/2)%2), col 2*(lane%4) + e%2 + 8*(e/4).
/// tf32 (k8): e in 0..3, register e; row lane/4 + 8*(e%2), col lane%4+4*(e/2).
/// e4m3/e5m2 (k32): e in 0..15, register e/4, byte e%4;
///   row lane/4 + 8*((e/4)%2), col 4*(lane%4) + e%4 + 16*(e/8).
RowCol wgmmaAFragmentElement(MmaType aType, unsigned warp, unsigned lane,
                             unsigned e);

/// Executes one warp's share (rows 16*warpInGroup .. +15) of
/// D = (scaleA*A) * (scaleB*B) + (scaleD ? D : 0), D 64xN, A 64xK, B KxN.
/// A comes from shared memory through `descA` when `aRegs` is null, else
/// from the 32 lanes' 4 registers. transA/transB (imm-trans-a/b): 1 = the
/// operand is MN-major in shared memory. `accum` is [32 lanes][N/2] (f32)
/// or [32][N/4] (f16, packed) registers of this warp, updated in place.
std::string wgmmaExecute(const WgmmaInstr &instr, unsigned warpInGroup,
                         llvm::ArrayRef<uint8_t> smem, uint64_t descA,
                         const std::vector<std::array<uint32_t, 4>> *aRegs,
                         uint64_t descB, bool scaleD, int scaleA, int scaleB,
                         bool transA, bool transB,
                         std::vector<std::vector<uint32_t>> &accum);

//===----------------------------------------------------------------------===//
// Blackwell tensor memory
//===----------------------------------------------------------------------===//

/// One CTA's tensor memory: 128 lanes x 512 columns of 32 bits. A TMEM
/// address is (lane << 16) | column.
struct Tmem {
  std::vector<uint32_t> cells = std::vector<uint32_t>(128 * 512);
  uint32_t &at(unsigned lane, unsigned col) { return cells[lane * 512 + col]; }
  uint32_t at(unsigned lane, unsigned col) const {
    return cells[lane * 512 + col];
  }
};

inline unsigned tmemLane(uint32_t addr) { return addr >> 16; }
inline unsigned tmemColumn(uint32_t addr) { return addr & 0xffff; }

/// A (lane, column) position or offset in tensor memory.
struct LaneCol {
  unsigned lane, col;
};

//===----------------------------------------------------------------------===//
// tcgen05.mma
//===----------------------------------------------------------------------===//

enum class Tcgen05Kind { F16, TF32, F8F6F4, I8, MXF8F6F4, MXF4, MXF4NVF4 };

struct Tcgen05MmaInstr {
  unsigned ctaGroup = 1;
  Tcgen05Kind kind = Tcgen05Kind::F16;
  bool sparse = false, ws = false, blockScale = false;
  unsigned scaleVec = 0;  // scale_vec::1X/2X/4X (block32 = 1X..., 0 = none)
  std::string collectorA; // "", "fill", "use", "lastuse", "discard"
};

/// Decodes {"tcgen05","mma",["sp"],["ws"],"cta_group::2","kind::f16",
/// ["block_scale"],["scale_vec::2X"],["collector::a::discard"], ...}.
Tcgen05MmaInstr decodeTcgen05Mma(llvm::ArrayRef<std::string> parts,
                                 std::string *error);

/// The 32-bit instruction descriptor, decoded. Bits (tf32/f16/f8f6f4/i8):
/// 0-1 sparsity selector, 2 sparse, 3 saturate, 4-5 D format (0 F16, 1 F32,
/// 2 S32), 7-9 A format, 10-12 B format (f16: 0 F16, 1 BF16; tf32: 2;
/// f8f6f4: 0 E4M3, 1 E5M2, 3 E2M3, 4 E3M2, 5 E2M1), 13/14 negate A/B,
/// 15/16 transpose (MN-major) A/B, 17-22 N>>3, 24-28 M>>4, 30-31 max shift.
/// Block-scaled kinds: 4-5 B scale-factor id, 23 scale type (0 UE4M3,
/// 1 UE8M0), 27-28 M>>7, 29-30 A scale-factor id, 31 (mxf4*) K = 96 instead
/// of 64.
struct Tcgen05InstrDesc {
  unsigned sparsitySelector = 0;
  bool sparse = false, saturate = false;
  unsigned dFormat = 1, aFormat = 0, bFormat = 0;
  bool negateA = false, negateB = false;
  bool transposeA = false, transposeB = false; // true = MN-major
  unsigned n = 0, m = 0;
  unsigned maxShift = 0;
  // Block-scaled kinds only:
  unsigned sfaId = 0, sfbId = 0;
  bool scaleUE8M0 = false;
  bool k96 = false;
};
Tcgen05InstrDesc decodeTcgen05InstrDesc(uint32_t idesc, Tcgen05Kind kind);
uint32_t encodeTcgen05InstrDesc(const Tcgen05InstrDesc &d, Tcgen05Kind kind);
/// The element type the A/B format field means for `kind` (Invalid if none).
MmaType tcgen05OperandType(Tcgen05Kind kind, unsigned format);
/// K of one instruction of `kind` (dense).
unsigned tcgen05K(Tcgen05Kind kind, const Tcgen05InstrDesc &d);

/// (lane, column) offset from the D address of element (m, n) of one CTA's
/// share of D (m in 0..M/ctaGroup-1, n in 0..N-1) of an MMA of shape M x N,
/// following CUTLASS cute/atom/mma_traits_sm100_frag.hpp (tmem_frg):
///   cta_group::1, M = 64:  lane 32*(m/16) + m%16 (the first 16 lanes of
///                          each 32-lane sub-partition), column n;
///   cta_group::1, M = 128 and cta_group::2, M = 256: lane m, column n;
///   cta_group::2, M = 128 (64 rows per CTA, the "2x2" layout
///                          (64,(N/2,2)):(1,(128,64))): lane m + 64*(n/(N/2)),
///                          column n % (N/2) — the left half of N in lanes
///                          0-63, the right half in lanes 64-127.
/// Every element takes one 32-bit column, f16 accumulators included.
LaneCol tcgen05DElement(unsigned ctaGroup, unsigned M, unsigned N, unsigned m,
                        unsigned n);
/// Number of TMEM columns D occupies in each CTA, for f32 and f16 D alike:
/// N, except N/2 for cta_group::2 with M = 128.
unsigned tcgen05DColumns(unsigned ctaGroup, unsigned M, unsigned N);

/// The scale-factor operands of tcgen05.mma.kind::mxf8f6f4 / ::mxf4 /
/// ::mxf4nvf4 .block_scale: the tensor-memory addresses [scale-A-tmem] and
/// [scale-B-tmem]. Bits 24-31 of each address are ignored (CUTLASS keeps the
/// sub-word byte index of its tmem_ptr there and copies it into the
/// instruction descriptor's SF ID fields; the TMEM address proper has the
/// active mask 0x007F01FF).
struct Tcgen05BlockScale {
  uint32_t sfaAddr = 0, sfbAddr = 0;
};

/// The number of scale factors per row of A / column of B of one block-
/// scaled instruction (PTX ISA 9.7.16.10.7.1, tables "Valid combinations of
/// scale_vectorsize and shapes" / "... with types and MMA-Kind"):
/// kind::mxf8f6f4 .scale_vec::1X (K 32, block 32, UE8M0); kind::mxf4
/// .scale_vec::2X (K 64, block 32, UE8M0); kind::mxf4nvf4 .scale_vec::2X
/// (UE8M0 only) or ::4X (K 64, block 16, UE8M0 or UE4M3). .block32 means
/// 1X (mxf8f6f4) or 2X (mxf4*), .block16 means 4X; without a qualifier
/// mxf8f6f4 uses 1X and mxf4 2X (mxf4nvf4 needs one). Returns 0 and sets
/// `error` for an invalid combination, a SF ID that is not aligned to the
/// vector (2X: 0 or 2; 4X: 0), or K = 96 (its scale layouts are not
/// modelled).
unsigned tcgen05ScaleFactorsPerRow(const Tcgen05MmaInstr &instr,
                                   const Tcgen05InstrDesc &d,
                                   std::string *error);

/// Executes one tcgen05.mma (kinds f16, tf32, f8f6f4, i8 and the
/// block-scaled mxf8f6f4, mxf4, mxf4nvf4; dense, not .ws):
/// D[MxN] = (negA*A) * (negB*B) + (enableInputD ? D * 2^-scaleInputD : 0).
/// smem[0]/tmem[0] are the issuing CTA (the even CTA of the pair for
/// cta_group::2), smem[1]/tmem[1] its peer (unused for cta_group::1).
/// cta_group::1: A rows 0..M-1 and B columns 0..N-1 from smem[0], D in
/// tmem[0]. cta_group::2 (M = 128 or 256): CTA c holds rows c*M/2.. of A
/// (same descriptor/address in each CTA) and D's same rows x all N columns
/// in its TMEM at dAddr (placed by tcgen05DElement), and columns c*N/2 ..
/// of B at the same bDesc.
/// Shapes (PTX ISA "Matrix Shape" table of tcgen05.mma): cta_group::1
/// M = 64/128, N = 8..256 in steps of 8 (N % 16 for M = 128 with A in
/// TMEM, as CUTLASS's SM100_MMA_*_TS require); cta_group::2 M = 128/256,
/// N = 16..256 in steps of 16.
/// D is f32 or f16, one element per 32-bit column (CUTLASS: FrgTypeC =
/// tmem_frg<c_type, uint32_t>; "UMMA stores these values sparsely in
/// tmem"): an f16 element is the low 16 bits of its column; the model
/// reads only the low half and writes the high half as 0. Read f16 D with
/// tcgen05.ld .pack::16b (two columns per register). With `aFromTmem`, A
/// is read from TMEM at aDescOrTaddr, row m at the lane offset of the D
/// elements it produces (elements packed 32/bits per column along K); for
/// cta_group::2 M = 128 that means A stored duplicated (rows 0-63 in lanes
/// 0-63 and again in 64-127, CUTLASS TmemAllocMode::Duplicated): the left
/// half of N reads row m from lane m, the right half from lane m + 64.
///
/// kind::i8 (PTX ISA "Instruction descriptor": A/B format 0 unsigned, 1
/// signed 8-bit; D format 2 = S32; K = 32): the exact integer sum
/// D + sum_k a*b, wrapped modulo 2^32, or clamped to the s32 range when the
/// descriptor's saturate bit (3) is set. D must be S32 and negation is not
/// valid.
///
/// Block scaling (kinds mxf8f6f4, mxf4, mxf4nvf4 with .block_scale; PTX ISA
/// 9.7.16.10.7 "Block Scaling": D = (A * scale_A) * (B * scale_B) + D):
/// `scale` gives the TMEM addresses of scale_A (M x SF) and scale_B (SF x
/// N), SF = tcgen05ScaleFactorsPerRow; element k of row m of A is
/// multiplied by scale_A[m][k / (K/SF)] and element k of column n of B by
/// scale_B[k / (K/SF)][n]. D is f32 (the descriptor has no D format). The
/// products a*sa*b*sb are exact in double, summed in double with D and
/// rounded once to f32, as for the other kinds (the header's error bound
/// applies with S built from the scaled products). Elements: mxf8f6f4 takes
/// the f8f6f4 formats in the same padded shared-memory form as
/// kind::f8f6f4 (fp6/fp4 one per byte, 16 per 16-byte chunk); mxf4 and
/// mxf4nvf4 take E2M1 (format 1) packed two per byte (even k in the low
/// nibble), K-major only. Scale factors: UE8M0 (descriptor bit 23 = 1) is
/// 2^(c-127), 0xFF NaN; UE4M3 (bit 23 = 0) is an E4M3 code without sign
/// (bit 7 ignored), 0x7F NaN.
/// Scale-factor placement in each CTA's TMEM (CUTLASS
/// cute/atom/mma_traits_sm100_frag.hpp tmem_sf_frg: atom
/// (((32,MN/32),4),(VS,NSF)) : (((1,512),32),(0,128)) composed with
/// (128 lanes, byte offset) and tmem_ptr byte addressing; PTX ISA: "Scale
/// factors for A and B matrices need to be duplicated to all 32 lane
/// partitions of tensor memory", the SF ID "selects the sub-columns"):
/// scale factor s of row r (a CTA-local row m of A, or column n of B) is
/// byte (SF_ID + s) of the 32-bit cell at column base + r/32 and lanes
/// base + 32*q + r%32 for every sub-partition q = 0..3 — 1X: one byte
/// chosen by SF_ID 0-3; 2X: the half word at byte SF_ID = 0 or 2; 4X: the
/// whole word. For cta_group::2 with M = 128 (the "2x2" D layout) scale_B
/// follows D: column n of the left half of N (n < N/2) is at column
/// base + n/32, lanes base + 32*q + n%32 for q = 0, 1; column n of the right
/// half at base + (n-N/2)/32, lanes for q = 2, 3. Every CTA of a pair holds
/// scale_A for its own rows and scale_B for all N columns. The copies must
/// agree in all of their sub-partitions (an error otherwise: the ISA
/// requires the duplication and the model does not guess which copy a
/// data path reads).
std::string tcgen05MmaExecute(const Tcgen05MmaInstr &instr, uint32_t idesc,
                              const llvm::ArrayRef<uint8_t> smem[2],
                              Tmem *tmem[2], uint32_t dAddr, bool aFromTmem,
                              uint64_t aDescOrTaddr, uint64_t bDesc,
                              bool enableInputD, unsigned scaleInputD = 0,
                              const Tcgen05BlockScale *scale = nullptr);

//===----------------------------------------------------------------------===//
// tcgen05.ld / tcgen05.st / tcgen05.cp
//===----------------------------------------------------------------------===//

enum class TmemLdStShape { S32x32b, S16x64b, S16x128b, S16x256b, S16x32bx2 };

/// Parses "32x32b" etc.; false if unknown.
bool parseTmemLdStShape(llvm::StringRef s, TmemLdStShape &shape);
/// Registers per thread of shape .x`num` (num = 1, 2, 4, ... 128).
unsigned tmemLdStRegisters(TmemLdStShape shape, unsigned num);

/// (lane offset within the warp's 32-lane quadrant, column offset from the
/// base address) of register `reg` of thread `laneInWarp`, without packing:
///   32x32b:  lane t, col r.
///   16x64b:  lane t/4 + 8*(t%2), col 2*r + (t/2)%2.
///   16x128b: lane t/4 + 8*(r%2), col 4*(r/2) + t%4.
///   16x256b: lane t/4 + 8*((r/2)%2), col 8*(r/4) + 2*(t%4) + r%2.
///   16x32bx2: lane t%16, col r + (t >= 16 ? immHalfSplitOffset : 0).
/// With .pack::16b / .unpack::16b the register holds the low 16 bits of
/// columns 2*col (low half) and 2*col+1 (high half) instead.
LaneCol tmemLdStElement(TmemLdStShape shape, unsigned num, unsigned laneInWarp,
                        unsigned reg, unsigned immHalfSplitOffset = 0);

/// tcgen05.ld for the warp with id `warpId` (%warpid % 4 selects the lane
/// quadrant it may access): regs is resized to [32][registers].
std::string tmemLoad(const Tmem &tmem, TmemLdStShape shape, unsigned num,
                     bool pack16, unsigned warpId, uint32_t taddr,
                     unsigned immHalfSplitOffset,
                     std::vector<std::vector<uint32_t>> &regs);
/// tcgen05.st: regs is [32][registers].
std::string tmemStore(Tmem &tmem, TmemLdStShape shape, unsigned num,
                      bool unpack16, unsigned warpId, uint32_t taddr,
                      unsigned immHalfSplitOffset,
                      const std::vector<std::vector<uint32_t>> &regs);

enum class TmemCpShape {
  S128x256b,
  S128x128b,
  S4x256b,
  S64x128bWarpx2_02_13,
  S64x128bWarpx2_01_23,
  S32x128bWarpx4,
};
/// Parses the shape and multicast parts ("128x256b", "64x128b" +
/// "warpx2::02_13", "32x128b" + "warpx4").
bool parseTmemCpShape(llvm::StringRef shape, llvm::StringRef multicast,
                      TmemCpShape &out);

/// tcgen05.cp from shared memory (sm_100 descriptor; source rows are the
/// descriptor's K-major canonical rows: row r, byte b at operandOffset(r,
/// b) with 8-bit elements) into TMEM at taddr: source row r goes to lane
/// (taddr lane + r) — for .4x256b rows 0-3 to lanes 0, 32, 64, 96 (one row
/// per sub-partition, CUTLASS SM100_UTCCP_4dp256bit SrcLayout
/// (4,256):(32,128)); for .warpx2::02_13 rows 0-31 to lanes 0-31 and 64-95,
/// rows 32-63 to 32-63 and 96-127; ::01_23 rows 0-31 to 0-31 and 32-63,
/// rows 32-63 to 64-95 and 96-127; .warpx4 row r to lanes r, 32+r, 64+r,
/// 96+r — and byte b of the row to column (taddr column + b/4).
std::string tmemCopy(Tmem &tmem, TmemCpShape shape, uint32_t taddr,
                     llvm::ArrayRef<uint8_t> smem, uint64_t sdesc);

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix / movmatrix (.m8n8, .b16)
//===----------------------------------------------------------------------===//

/// ldmatrix.sync.aligned.m8n8.x{num}[.trans].shared.b16: rowAddr[l] is lane
/// l's row address (lanes 8j..8j+7 give the 8 rows of matrix j; each row is
/// 16 bytes, 16-byte aligned). regs[l][j] (j < num) receives, without
/// .trans, elements (row l/4, cols 2*(l%4), +1) of matrix j (low half =
/// first); with .trans, elements (rows 2*(l%4), 2*(l%4)+1; col l/4).
std::string ldmatrix(unsigned num, bool trans, llvm::ArrayRef<uint32_t> rowAddr,
                     llvm::ArrayRef<uint8_t> smem,
                     std::vector<std::array<uint32_t, 4>> &regs);
/// stmatrix: the inverse of ldmatrix.
std::string stmatrix(unsigned num, bool trans, llvm::ArrayRef<uint32_t> rowAddr,
                     llvm::MutableArrayRef<uint8_t> smem,
                     const std::vector<std::array<uint32_t, 4>> &regs);
/// movmatrix.sync.aligned.m8n8.trans.b16: in[l] holds elements (l/4,
/// 2*(l%4)) and (l/4, 2*(l%4)+1) of an 8x8 matrix; out[l] holds the same
/// positions of its transpose. out must have 32 entries.
void movmatrixTrans(llvm::ArrayRef<uint32_t> in,
                    llvm::MutableArrayRef<uint32_t> out);

} // namespace pmlir::sim

#endif // PIPELINE_SIM_TENSORCORE_H
