//===- FloatOps.h - floating-point PTX instructions, value-exact -*- C++
//-*-===//
//
// The data emulator's floating-point value library: the element formats PTX
// names (f64 f32 tf32 f16 bf16 and the narrow e4m3 e5m2 e2m1 e2m3 e3m2
// ue8m0), their encoding and decoding with every rounding mode, and the
// floating-point instructions (add sub mul fma mad div min max neg abs sqrt
// rsqrt rcp ex2 lg2 sin cos tanh copysign testp setp cvt) executed on the
// bits of their operands. Pure: no state, no engine types.
//
// Exactness. Every IEEE-rounded instruction (.rn .rz .rm .rp, and those
// whose default is .rn) returns the correctly rounded result, bit for bit:
//  * f16, bf16 and f32 operands are exact in double. The operation is done
//    in double and rounded to odd (rounding toward zero, then setting the
//    last bit when inexact; the exactness comes from error-free transforms:
//    TwoSum for add, fma residues for mul/div/sqrt), then rounded once to the
//    target with the requested mode. Round-to-odd at 53 bits followed by any
//    rounding to p <= 51 bits equals a single correct rounding (Boldo and
//    Melquiond), so div, sqrt and fma - which are not exact in double - are
//    correctly rounded too. No floating-point environment is touched.
//  * f64 runs the host's IEEE operations under fesetround (volatile operands
//    keep the compiler from moving them across the mode switch).
// `.approx` instructions (and div.full) return the result of the exact
// function rounded to nearest in the target format (computed with libm in
// double); the hardware is only within the ISA's stated bound of that value
// (the bound is quoted at each FOp below). Emulating hardware approximation
// bits is a non-goal.
//
// NaN results are the canonical NaN of the format (all exponent and
// mantissa bits set, sign clear: f32 0x7fffffff, f16/bf16 0x7fff,
// f64 0x7fffffffffffffff, e4m3/e5m2 0x7f, ue8m0 0xff); payloads are not
// propagated. neg, abs and copysign are bit operations.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_SIM_FLOATOPS_H
#define PIPELINE_SIM_FLOATOPS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace pmlir::sim {

/// Element formats. TF32 lives in a 32-bit register as an f32 whose low 13
/// mantissa bits are zero (decodeElement ignores them). E2M3/E3M2 codes are
/// 6 bits, E2M1 4 bits (in the packed forms each sits in an 8-bit or 4-bit
/// slot, see cvt).
///  F16   IEEE binary16      E4M3  bias 7, no inf, S.1111.111 = NaN, max 448
///  BF16  8-bit exp, 7 mant  E5M2  bias 15, IEEE inf/NaN, max 57344
///  TF32  8-bit exp, 10 mant E2M1  bias 1, no inf/NaN, max 6
///  F32, F64 IEEE            E2M3  bias 1, no inf/NaN, max 7.5
///  UE8M0 unsigned 2^(c-127), E3M2  bias 3, no inf/NaN, max 28
///        0xff = NaN, no zero
enum class FType : uint8_t {
  F16,
  BF16,
  TF32,
  F32,
  F64,
  E4M3,
  E5M2,
  E2M1,
  E2M3,
  E3M2,
  UE8M0
};

/// Default = the modifier is absent. RN ties to even, RNA ties away from
/// zero (cvt to tf32), RZ/RM/RP toward zero/-inf/+inf. RNI..RPI are cvt's
/// round-to-integral modes (same directions, integral results).
enum class Rounding : uint8_t {
  Default,
  RN,
  RZ,
  RM,
  RP,
  RNA,
  RNI,
  RZI,
  RMI,
  RPI
};

enum class FOp : uint8_t {
  Add, ///< add/sub/mul/fma/mad: exact IEEE (default .rn). mad.f32 without a
  Sub, ///< rounding modifier is fused like fma.rn (the ISA lets the code
  Mul, ///< generator fuse or not; the value here is the fused one).
  Fma,
  /// div.rn/rz/rm/rp: exact IEEE. div.full.f32: correctly rounded here,
  /// hardware within 2 ulp. div.approx.f32: correctly rounded here (and
  /// the ISA's 0 / NaN for 2^126 < |b| < 2^128 reproduced), hardware within
  /// 2 ulp for |b| in [2^-126, 2^126].
  Div,
  Min, ///< min/max: exact (NaN-ignoring unless .NaN; -0 < +0; .xorsign.abs;
  Max, ///< three operands).
  Neg, ///< neg/abs: sign-bit operations (.ftz flushes subnormals first).
  Abs,
  /// sqrt.rn/rz/rm/rp: exact IEEE. sqrt.approx.f32: correctly rounded here,
  /// hardware max relative error 2^-23.
  Sqrt,
  /// rsqrt.approx.f32: nearest here, hardware max relative error 2^-22.9.
  /// rsqrt.approx.f64: nearest (computed in long double). rsqrt.approx.ftz.f64
  /// follows the ISA's recipe: upper word of a (1.11.20), 1/sqrt rounded to
  /// nearest 1.11.20, low 32 bits zero.
  Rsqrt,
  /// rcp.rn/rz/rm/rp: exact IEEE. rcp.approx.f32: correctly rounded here,
  /// hardware max 1 ulp. rcp.approx.ftz.f64: the ISA's recipe (upper word,
  /// result rounded to nearest 1.11.20, low word zero).
  Rcp,
  /// ex2.approx.f32: nearest here; hardware max 2 ulp. f16: hardware max
  /// relative error 2^-9.9; bf16 (.ftz required): 2^-7.
  Ex2,
  /// lg2.approx.f32: nearest here; hardware max absolute error 2^-22 on
  /// (0.5, 2), max relative error 2^-22 elsewhere.
  Lg2,
  /// sin/cos.approx.f32: nearest here; hardware max absolute error 2^-20.5
  /// on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi], no bound outside.
  Sin,
  Cos,
  /// tanh.approx.f32: nearest here; hardware max relative error 2^-11.
  /// f16: max absolute error 2^-10.987; bf16: 2^-8.
  Tanh,
  Copysign, ///< copysign d, a, b: b's magnitude with a's sign (bit exact).
  Testp,    ///< exact classification.
  Setp,     ///< exact comparison.
  Cvt       ///< exact conversion (correctly rounded per its modifiers).
};

enum class CmpOp : uint8_t {
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Equ,
  Neu,
  Ltu,
  Leu,
  Gtu,
  Geu,
  Num,
  Nan
};
enum class BoolOp : uint8_t { None, And, Or, Xor };
enum class TestOp : uint8_t {
  Finite,
  Infinite,
  Number,
  NotANumber,
  Normal,
  Subnormal
};
/// The integer side of a cvt.
enum class IntType : uint8_t { None, S8, S16, S32, S64, U8, U16, U32, U64 };

/// A floating-point PTX instruction, decoded once (at parse time) from its
/// dot-separated opcode parts, e.g. {"fma","rn","ftz","f32"},
/// {"cvt","rn","bf16x2","f32"}, {"ex2","approx","ftz","f32"},
/// {"setp","gtu","f32"}, {"mul","rn","f32x2"},
/// {"cvt","rn","satfinite","e4m3x2","f32"}, {"cvt","rzi","s32","f32"},
/// {"max","NaN","f32"}, {"testp","finite","f32"}, {"copysign","f32"}.
struct FloatInstr {
  FOp op = FOp::Add;
  /// The operation's element type; for cvt the destination element type
  /// (meaningless when dstInt is set).
  FType type = FType::F32;
  /// 2 for f16x2/bf16x2/f32x2 operations and packed cvt destinations.
  unsigned lanes = 1;
  /// cvt only: the source element type and lane count.
  FType srcType = FType::F32;
  unsigned srcLanes = 1;
  /// cvt only: an integer destination or source.
  IntType dstInt = IntType::None;
  IntType srcInt = IntType::None;
  /// As written; evalFloat applies the instruction's default.
  Rounding rounding = Rounding::Default;
  bool ftz = false, sat = false, satfinite = false, relu = false;
  bool approx = false, full = false;
  bool nanMode = false;                 ///< min/max .NaN
  bool absMod = false, xorsign = false; ///< min/max .abs / .xorsign
  CmpOp cmp = CmpOp::Eq;                ///< setp
  BoolOp boolOp = BoolOp::None;         ///< setp .and/.or/.xor
  TestOp test = TestOp::Finite;         ///< testp

  /// Source operands evalFloat reads (min/max may take one more: 3).
  unsigned numSrcs() const;
};

/// nullopt when `parts` is not a floating-point instruction this module
/// executes (pure integer instructions: add.s32, cvt.u64.u32, setp.eq.b32,
/// and opcodes it does not know: ld.f32, mov.f32 ... stay with the engine).
/// An instruction that IS floating point but has an unsupported modifier
/// combination: returns nullopt and sets *error to a clear message naming it
/// (error may be null).
std::optional<FloatInstr> decodeFloat(llvm::ArrayRef<std::string> parts,
                                      std::string *error = nullptr);

struct FloatResult {
  uint64_t bits = 0;
  /// setp: the first destination predicate; testp: the test.
  bool pred = false;
  /// setp: the second destination predicate q. Without a BoolOp it is
  /// !pred; with one it is (!cmp) BoolOp c (not !pred). For setp.f16x2 /
  /// bf16x2, pred is lane 0 (the low half) and pred2 lane 1 (the high).
  bool pred2 = false;
};

/// Executes with source operand bits in PTX operand order (not counting the
/// destination). Register conventions: f16/bf16 in the low 16 bits;
/// f16x2/bf16x2/e4m3x2... packed with element 0 (the low half) = the ISA's
/// "lower" element; f32x2 in 64 bits, element 0 low; a predicate is bit 0.
/// For setp `pred` is the comparison (combined with c) and `bits` = pred.
/// cvt to a signed integer returns the value sign-extended to 64 bits,
/// unsigned zero-extended; narrower floats zero-extended.
FloatResult evalFloat(const FloatInstr &, llvm::ArrayRef<uint64_t> srcs);

/// Value of an encoded element (exact; NaN for NaN codes).
double decodeElement(FType, uint64_t bits);
/// The encoding of a double rounded with a rounding mode (Default = RN;
/// RNI..RPI are taken as RN..RP), satfinite (beyond max finite -> +-max;
/// inf too; NaN stays NaN where the format has one, else +max) and relu
/// (negative, -0 included, -> +0; NaN -> canonical NaN). Overflow without
/// satfinite: inf where the format has one, else NaN (e4m3, ue8m0), else max
/// (e2m1 e2m3 e3m2, whose cvts require .satfinite). UE8M0 ignores the sign
/// and maps values below 2^-127 (0 included) to code 0.
uint64_t encodeElement(FType, double value, Rounding = Rounding::RN,
                       bool satfinite = false, bool relu = false);
/// Bits of one element's code: 16 16 32(TF32 container) 32 64 8 8 4 6 6 8.
unsigned elementBits(FType);

} // namespace pmlir::sim

#endif // PIPELINE_SIM_FLOATOPS_H
