//===- FloatOps.cpp - floating-point PTX instructions, value-exact --------===//
//
// See FloatOps.h for the exactness argument. Layout: formats and the one
// integer rounding routine every encoding goes through; round-to-odd
// arithmetic in double; f64 arithmetic under fesetround; the instructions;
// the decoder.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Sim/FloatOps.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace pmlir::sim;

namespace {

//===----------------------------------------------------------------------===//
// Formats
//===----------------------------------------------------------------------===//

enum class NanKind : uint8_t { Ieee, AllOnes, None };

struct Fmt {
  unsigned expBits, manBits;
  int bias;
  NanKind nan;    ///< Ieee: exponent all ones is inf/NaN; AllOnes: only
                  ///< S.1..1.1..1 is NaN, no inf; None: every code finite.
  unsigned shift; ///< position of the code in its container (TF32: 13)
};

// The upper word of an f64 (1.11.20), for the .approx.ftz.f64 recipes.
const Fmt kF64Hi = {11, 20, 1023, NanKind::Ieee, 0};

Fmt fmtOf(FType t) {
  switch (t) {
  case FType::F16:
    return {5, 10, 15, NanKind::Ieee, 0};
  case FType::BF16:
    return {8, 7, 127, NanKind::Ieee, 0};
  case FType::TF32:
    return {8, 10, 127, NanKind::Ieee, 13};
  case FType::F32:
    return {8, 23, 127, NanKind::Ieee, 0};
  case FType::F64:
    return {11, 52, 1023, NanKind::Ieee, 0};
  case FType::E4M3:
    return {4, 3, 7, NanKind::AllOnes, 0};
  case FType::E5M2:
    return {5, 2, 15, NanKind::Ieee, 0};
  case FType::E2M1:
    return {2, 1, 1, NanKind::None, 0};
  case FType::E2M3:
    return {2, 3, 1, NanKind::None, 0};
  case FType::E3M2:
    return {3, 2, 3, NanKind::None, 0};
  case FType::UE8M0:
    return {8, 0, 127, NanKind::AllOnes, 0}; // handled apart
  }
  return {8, 23, 127, NanKind::Ieee, 0};
}

uint64_t lowMask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

uint64_t signBit(const Fmt &f) { return 1ull << (f.expBits + f.manBits); }
uint64_t expAllOnes(const Fmt &f) { return lowMask(f.expBits); }

/// Largest finite magnitude code.
uint64_t maxCode(const Fmt &f) {
  switch (f.nan) {
  case NanKind::Ieee:
    return ((expAllOnes(f) - 1) << f.manBits) | lowMask(f.manBits);
  case NanKind::AllOnes:
    return (expAllOnes(f) << f.manBits) | (lowMask(f.manBits) - 1);
  case NanKind::None:
    return lowMask(f.expBits + f.manBits);
  }
  return 0;
}
uint64_t nanCode(const Fmt &f) { return lowMask(f.expBits + f.manBits); }
uint64_t infCode(const Fmt &f) { return expAllOnes(f) << f.manBits; }

double decodeFmt(const Fmt &f, uint64_t code) {
  code >>= f.shift;
  bool neg = code & signBit(f);
  uint64_t e = (code >> f.manBits) & expAllOnes(f);
  uint64_t m = code & lowMask(f.manBits);
  double v;
  if (f.nan == NanKind::Ieee && e == expAllOnes(f))
    v = m ? std::numeric_limits<double>::quiet_NaN()
          : std::numeric_limits<double>::infinity();
  else if (f.nan == NanKind::AllOnes && e == expAllOnes(f) &&
           m == lowMask(f.manBits))
    v = std::numeric_limits<double>::quiet_NaN();
  else if (e == 0)
    v = std::ldexp(double(m), 1 - f.bias - int(f.manBits));
  else
    v = std::ldexp(double(m | (1ull << f.manBits)),
                   int(e) - f.bias - int(f.manBits));
  return neg ? -v : v;
}

Rounding baseMode(Rounding r) {
  switch (r) {
  case Rounding::Default:
  case Rounding::RNI:
    return Rounding::RN;
  case Rounding::RZI:
    return Rounding::RZ;
  case Rounding::RMI:
    return Rounding::RM;
  case Rounding::RPI:
    return Rounding::RP;
  default:
    return r;
  }
}

/// Whether rounding the magnitude with `mode` for a value of sign `neg`
/// moves away from zero, given the round bit, the sticky bit and the parity
/// of the truncated magnitude.
bool roundsUp(Rounding mode, bool neg, bool round, bool sticky, bool odd) {
  switch (mode) {
  case Rounding::RN:
    return round && (sticky || odd);
  case Rounding::RNA:
    return round;
  case Rounding::RZ:
    return false;
  case Rounding::RP:
    return !neg && (round || sticky);
  case Rounding::RM:
    return neg && (round || sticky);
  default:
    return round && (sticky || odd);
  }
}

/// The code of (-1)^neg * mag * 2^exp (exact input, finite) rounded into
/// format f: every encoding goes through this integer routine.
uint64_t encodeFinite(const Fmt &f, bool neg, uint64_t mag, int exp,
                      Rounding mode, bool satfinite, bool relu) {
  mode = baseMode(mode);
  uint64_t sign = neg ? signBit(f) : 0;
  if (relu && neg)
    return 0;
  if (mag == 0)
    return sign << f.shift;
  int msb = 63 - __builtin_clzll(mag);
  int e = exp + msb; // value in [2^e, 2^(e+1))
  int emin = 1 - f.bias;
  int q = std::max(e, emin) - int(f.manBits); // exponent of the last place
  int shift = q - exp;
  uint64_t n;
  bool round = false, sticky = false;
  if (shift <= 0) {
    n = mag << -shift; // < 2^(manBits+1): exact
  } else if (shift > 64) {
    n = 0;
    sticky = true;
  } else if (shift == 64) {
    n = 0;
    round = mag >> 63;
    sticky = mag & lowMask(63);
  } else {
    n = mag >> shift;
    uint64_t rem = mag & lowMask(shift);
    uint64_t half = 1ull << (shift - 1);
    round = rem & half;
    sticky = rem & (half - 1);
  }
  if (roundsUp(mode, neg, round, sticky, n & 1))
    ++n;
  if (n >> (f.manBits + 1)) {
    n >>= 1;
    ++q;
  }
  uint64_t code;
  if (n < (1ull << f.manBits)) {
    code = n; // subnormal or zero
  } else {
    int64_t be = int64_t(q) + f.manBits + f.bias;
    if (be > int64_t(expAllOnes(f)))
      code = ~0ull; // overflow, below
    else
      code = (uint64_t(be) << f.manBits) | (n - (1ull << f.manBits));
  }
  if (code > maxCode(f)) {
    bool toInf = mode == Rounding::RN || mode == Rounding::RNA ||
                 (mode == Rounding::RP && !neg) ||
                 (mode == Rounding::RM && neg);
    if (satfinite || !toInf || f.nan == NanKind::None)
      code = maxCode(f);
    else if (f.nan == NanKind::Ieee)
      code = infCode(f);
    else
      return nanCode(f) << f.shift; // e4m3: no inf
  }
  return (sign | code) << f.shift;
}

void splitDouble(double v, bool &neg, uint64_t &mag, int &exp) {
  uint64_t b;
  std::memcpy(&b, &v, 8);
  neg = b >> 63;
  uint64_t e = (b >> 52) & 0x7ff;
  mag = b & lowMask(52);
  if (e == 0) {
    exp = -1074;
  } else {
    mag |= 1ull << 52;
    exp = int(e) - 1075;
  }
}

uint64_t encodeUe8m0(double v, Rounding mode, bool satfinite) {
  mode = baseMode(mode);
  if (std::isnan(v))
    return 0xff;
  v = std::fabs(v);
  if (std::isinf(v))
    return satfinite ? 0xfe : 0xff;
  if (v == 0)
    return 0;
  int e;
  double fr = std::frexp(v, &e); // v = fr * 2^e, fr in [0.5, 1)
  int lo = e - 1;                // 2^lo <= v < 2^(lo+1)
  bool exact = fr == 0.5;
  int c;
  switch (mode) {
  case Rounding::RZ:
  case Rounding::RM:
    c = lo + 127;
    break;
  case Rounding::RP:
    c = lo + 127 + (exact ? 0 : 1);
    break;
  default: { // nearest between 2^lo and 2^(lo+1); the midpoint is 0.75
    c = lo + 127;
    if (fr > 0.75 || (fr == 0.75 && ((lo + 127) & 1)) ||
        (fr == 0.75 && mode == Rounding::RNA))
      ++c;
    break;
  }
  }
  if (c < 0)
    return 0;
  if (c > 254)
    return satfinite ? 0xfe : 0xff;
  return uint64_t(c);
}

double bitsToF64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t f64ToBits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

double minNormal(FType t) {
  Fmt f = fmtOf(t);
  return std::ldexp(1.0, 1 - f.bias);
}
bool isSubnormal(FType t, double v) {
  return v != 0 && std::isfinite(v) && std::fabs(v) < minNormal(t);
}
double flush(FType t, double v) {
  return isSubnormal(t, v) ? std::copysign(0.0, v) : v;
}

//===----------------------------------------------------------------------===//
// Round-to-odd arithmetic in double (operands of at most 24 bits)
//===----------------------------------------------------------------------===//

/// x rounded to odd given that the exact value is x + t with sign(t) = dir.
double toOdd(double x, int dir) {
  if (dir == 0 || !std::isfinite(x))
    return x;
  if (x == 0)
    return std::copysign(std::numeric_limits<double>::denorm_min(),
                         double(dir));
  bool beyond = (dir > 0) == (x > 0); // exact magnitude above |x|
  double t = beyond ? x : std::nextafter(x, 0.0);
  return bitsToF64(f64ToBits(t) | 1);
}

int sgn(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

double oddAdd(double a, double b, Rounding mode) {
  double s = a + b;
  if (!std::isfinite(s) || !std::isfinite(a) || !std::isfinite(b))
    return s;
  if (s == 0) { // exact zero: IEEE's sign rule
    if (a == 0 && b == 0 && std::signbit(a) == std::signbit(b))
      return a;
    return mode == Rounding::RM ? -0.0 : 0.0;
  }
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb); // TwoSum: a + b == s + err
  return toOdd(s, sgn(err));
}

double oddMul(double a, double b) {
  double p = a * b;
  if (!std::isfinite(p) || p == 0)
    return p;
  return toOdd(p, sgn(std::fma(a, b, -p)));
}

double oddFma(double a, double b, double c, Rounding mode) {
  double p = a * b; // exact: both have at most 24 significant bits
  if (!std::isfinite(p) || !std::isfinite(c))
    return p + c;
  return oddAdd(p, c, mode);
}

double oddDiv(double a, double b) {
  double q = a / b;
  if (!std::isfinite(q) || q == 0 || !std::isfinite(a) || !std::isfinite(b))
    return q;
  double r = std::fma(-q, b, a); // a - q*b, exact
  return toOdd(q, sgn(r) * sgn(b));
}

double oddSqrt(double a) {
  double s = std::sqrt(a);
  if (!std::isfinite(s) || s == 0)
    return s;
  return toOdd(s, sgn(std::fma(-s, s, a)));
}

//===----------------------------------------------------------------------===//
// f64 arithmetic under the host's rounding modes
//===----------------------------------------------------------------------===//

int hostMode(Rounding r) {
  switch (baseMode(r)) {
  case Rounding::RZ:
    return FE_TOWARDZERO;
  case Rounding::RM:
    return FE_DOWNWARD;
  case Rounding::RP:
    return FE_UPWARD;
  default:
    return FE_TONEAREST;
  }
}

double f64Op(FOp op, Rounding mode, double a, double b, double c) {
  int old = std::fegetround();
  std::fesetround(hostMode(mode));
  volatile double va = a, vb = b, vc = c;
  double r;
  switch (op) {
  case FOp::Add:
    r = va + vb;
    break;
  case FOp::Sub:
    r = va - vb;
    break;
  case FOp::Mul:
    r = va * vb;
    break;
  case FOp::Fma:
    r = std::fma(double(va), double(vb), double(vc));
    break;
  case FOp::Div:
    r = va / vb;
    break;
  case FOp::Rcp:
    r = 1.0 / va;
    break;
  case FOp::Sqrt:
    r = std::sqrt(double(va));
    break;
  default:
    r = std::numeric_limits<double>::quiet_NaN();
    break;
  }
  volatile double vr = r;
  std::fesetround(old);
  return vr;
}

/// The exact operation's result: rounded to odd for types narrower than f64
/// (to be rounded once more by encodeElement), rounded with `mode` for f64.
double arith(FOp op, FType t, Rounding mode, double a, double b, double c) {
  if (t == FType::F64)
    return f64Op(op, mode, a, b, c);
  switch (op) {
  case FOp::Add:
    return oddAdd(a, b, mode);
  case FOp::Sub:
    return oddAdd(a, -b, mode);
  case FOp::Mul:
    return oddMul(a, b);
  case FOp::Fma:
    return oddFma(a, b, c, mode);
  case FOp::Div:
    return oddDiv(a, b);
  case FOp::Rcp:
    return oddDiv(1.0, a);
  case FOp::Sqrt:
    return oddSqrt(a);
  default:
    return std::numeric_limits<double>::quiet_NaN();
  }
}

//===----------------------------------------------------------------------===//
// Lanes
//===----------------------------------------------------------------------===//

unsigned laneBits(FType t) {
  switch (t) {
  case FType::F16:
  case FType::BF16:
    return 16;
  case FType::F64:
    return 64;
  default:
    return 32;
  }
}

/// Width of one element's slot in a packed cvt register.
unsigned slotBits(FType t) {
  switch (t) {
  case FType::E2M1:
    return 4;
  case FType::E4M3:
  case FType::E5M2:
  case FType::E2M3:
  case FType::E3M2:
  case FType::UE8M0:
    return 8;
  case FType::F16:
  case FType::BF16:
    return 16;
  case FType::F64:
    return 64;
  default:
    return 32;
  }
}

uint64_t lane(uint64_t v, unsigned i, unsigned bits) {
  return (v >> (i * bits)) & lowMask(bits);
}

/// Rounds a finished value into t applying .relu, .ftz (on the rounded
/// result) and .sat (after rounding: [0, 1], NaN -> +0).
uint64_t finish(const FloatInstr &in, FType t, double r, Rounding mode) {
  if (in.sat) {
    if (std::isnan(r) || r <= 0)
      r = 0;
    else if (r > 1)
      r = 1;
  }
  uint64_t code = encodeElement(t, r, mode, in.satfinite, in.relu);
  if (in.ftz && isSubnormal(t, decodeElement(t, code)))
    code = encodeElement(t, std::copysign(0.0, r), Rounding::RN);
  if (in.sat) { // a sub-1 value can round up to 1: still within [0, 1]
    double d = decodeElement(t, code);
    if (d > 1)
      code = encodeElement(t, 1.0);
  }
  return code;
}

double roundIntegral(double x, Rounding mode) {
  if (!std::isfinite(x) || std::fabs(x) >= 4503599627370496.0) // 2^52
    return x;
  double r;
  switch (baseMode(mode)) {
  case Rounding::RZ:
    r = std::trunc(x);
    break;
  case Rounding::RM:
    r = std::floor(x);
    break;
  case Rounding::RP:
    r = std::ceil(x);
    break;
  default: {
    r = std::floor(x);
    double diff = x - r; // exact
    if (diff > 0.5 || (diff == 0.5 && std::fmod(r, 2.0) != 0))
      r += 1;
    break;
  }
  }
  return std::copysign(r, x); // -0.3 -> -0
}

unsigned intBits(IntType t) {
  switch (t) {
  case IntType::S8:
  case IntType::U8:
    return 8;
  case IntType::S16:
  case IntType::U16:
    return 16;
  case IntType::S32:
  case IntType::U32:
    return 32;
  default:
    return 64;
  }
}
bool intSigned(IntType t) {
  return t == IntType::S8 || t == IntType::S16 || t == IntType::S32 ||
         t == IntType::S64;
}

uint64_t floatToInt(double x, IntType it, bool srcF64, Rounding mode) {
  unsigned n = intBits(it);
  bool s = intSigned(it);
  if (std::isnan(x))
    return (!srcF64 && n < 64) ? 0 : (s ? ~0ull << (n - 1) : 1ull << (n - 1));
  double r = roundIntegral(x, mode);
  if (s) {
    double lo = -std::ldexp(1.0, int(n) - 1);
    double hi = std::ldexp(1.0, int(n) - 1); // exclusive
    int64_t v;
    if (r < lo)
      v = n == 64 ? std::numeric_limits<int64_t>::min()
                  : -(int64_t(1) << (n - 1));
    else if (r >= hi)
      v = n == 64 ? std::numeric_limits<int64_t>::max()
                  : (int64_t(1) << (n - 1)) - 1;
    else
      v = int64_t(r);
    return uint64_t(v);
  }
  if (r <= 0)
    return 0;
  if (r >= std::ldexp(1.0, int(n)))
    return lowMask(n);
  return uint64_t(r);
}

uint64_t intToFloat(uint64_t bits, IntType it, FType t, Rounding mode,
                    const FloatInstr &in) {
  unsigned n = intBits(it);
  bits &= lowMask(n);
  bool neg = false;
  uint64_t mag = bits;
  if (intSigned(it) && (bits >> (n - 1))) {
    neg = true;
    mag = (~bits + 1) & lowMask(n); // |INT_MIN| = 2^(n-1) fits
  }
  if (t == FType::UE8M0)
    return encodeUe8m0(neg ? -double(mag) : double(mag), mode, in.satfinite);
  uint64_t code =
      encodeFinite(fmtOf(t), neg, mag, 0, mode, in.satfinite, in.relu);
  if (in.sat)
    return finish(in, t, decodeElement(t, code), Rounding::RN);
  return code;
}

bool cmpHolds(CmpOp op, double a, double b) {
  bool un = std::isnan(a) || std::isnan(b);
  switch (op) {
  case CmpOp::Eq:
    return !un && a == b;
  case CmpOp::Ne:
    return !un && a != b;
  case CmpOp::Lt:
    return !un && a < b;
  case CmpOp::Le:
    return !un && a <= b;
  case CmpOp::Gt:
    return !un && a > b;
  case CmpOp::Ge:
    return !un && a >= b;
  case CmpOp::Equ:
    return un || a == b;
  case CmpOp::Neu:
    return un || a != b;
  case CmpOp::Ltu:
    return un || a < b;
  case CmpOp::Leu:
    return un || a <= b;
  case CmpOp::Gtu:
    return un || a > b;
  case CmpOp::Geu:
    return un || a >= b;
  case CmpOp::Num:
    return !un;
  case CmpOp::Nan:
    return un;
  }
  return false;
}

bool combine(BoolOp op, bool x, bool c) {
  switch (op) {
  case BoolOp::And:
    return x && c;
  case BoolOp::Or:
    return x || c;
  case BoolOp::Xor:
    return x != c;
  case BoolOp::None:
    return x;
  }
  return x;
}

/// -0 < +0 ordering for min/max.
bool lessSigned(double x, double y) {
  if (x == y)
    return std::signbit(x) && !std::signbit(y);
  return x < y;
}

double minMax(bool isMax, bool nanMode, double x, double y) {
  bool nx = std::isnan(x), ny = std::isnan(y);
  if (nx && ny)
    return x;
  if (nx || ny)
    return nanMode ? std::numeric_limits<double>::quiet_NaN() : (nx ? y : x);
  return isMax ? (lessSigned(x, y) ? y : x) : (lessSigned(x, y) ? x : y);
}

/// The recipe of rcp/rsqrt.approx.ftz.f64: the upper word of a as 1.11.20,
/// the function rounded to nearest 1.11.20, low word zero.
uint64_t approxF64Hi(bool isRsqrt, uint64_t a) {
  double x = bitsToF64(a & 0xffffffff00000000ull);
  if (std::isnan(x))
    return 0x7fffffff00000000ull;
  x = flush(FType::F64, x);
  double r = isRsqrt ? double(1.0L / std::sqrt((long double)x)) : 1.0 / x;
  if (std::isnan(r))
    return 0x7fffffff00000000ull;
  uint64_t hi;
  if (std::isinf(r)) {
    hi = (std::signbit(r) ? 0x80000000ull : 0) | infCode(kF64Hi);
  } else {
    bool neg;
    uint64_t mag;
    int e;
    splitDouble(r, neg, mag, e);
    hi = encodeFinite(kF64Hi, neg, mag, e, Rounding::RN, false, false);
    if ((hi & 0x7ff00000u) == 0) // subnormal result: flushed
      hi &= 0x80000000u;
  }
  return hi << 32;
}

double approxFn(FOp op, double x) {
  switch (op) {
  case FOp::Ex2:
    return std::exp2(x);
  case FOp::Lg2:
    return std::log2(x);
  case FOp::Sin:
    return std::sin(x);
  case FOp::Cos:
    return std::cos(x);
  case FOp::Tanh:
    return std::tanh(x);
  case FOp::Rsqrt:
    return double(1.0L / std::sqrt((long double)x));
  case FOp::Rcp:
    return 1.0 / x;
  case FOp::Sqrt:
    return std::sqrt(x);
  default:
    return std::numeric_limits<double>::quiet_NaN();
  }
}

uint64_t evalLane(const FloatInstr &in, FType t, uint64_t a, uint64_t b,
                  uint64_t c, bool haveC) {
  unsigned bits = laneBits(t);
  Fmt f = fmtOf(t);
  uint64_t sb = signBit(f);
  auto val = [&](uint64_t x) {
    double v = decodeElement(t, x);
    return in.ftz ? flush(t, v) : v;
  };
  Rounding mode = baseMode(in.rounding);
  switch (in.op) {
  case FOp::Neg:
  case FOp::Abs: {
    uint64_t x = a & lowMask(bits);
    if (in.ftz && isSubnormal(t, decodeElement(t, x)))
      x &= sb;
    return in.op == FOp::Neg ? x ^ sb : x & ~sb;
  }
  case FOp::Copysign:
    return ((b & lowMask(bits)) & ~sb) | (a & sb);
  case FOp::Min:
  case FOp::Max: {
    bool isMax = in.op == FOp::Max;
    double x = val(a), y = val(b);
    bool xs = std::signbit(x) != std::signbit(y);
    if (in.absMod) {
      x = std::fabs(x);
      y = std::fabs(y);
    }
    double r = minMax(isMax, in.nanMode, x, y);
    if (haveC)
      r = minMax(isMax, in.nanMode, r, in.absMod ? std::fabs(val(c)) : val(c));
    if (in.xorsign && !std::isnan(r))
      r = std::copysign(r, xs ? -1.0 : 1.0);
    return finish(in, t, r, Rounding::RN);
  }
  case FOp::Add:
  case FOp::Sub:
  case FOp::Mul:
  case FOp::Fma:
    return finish(in, t, arith(in.op, t, mode, val(a), val(b), val(c)), mode);
  case FOp::Div:
    if (in.approx || in.full) {
      double x = val(a), y = val(b);
      double ay = std::fabs(y);
      if (in.approx && ay > 0x1p126 && ay < 0x1p128)
        return finish(in, t,
                      std::isinf(x)
                          ? std::numeric_limits<double>::quiet_NaN()
                          : (std::signbit(x) != std::signbit(y) ? -0.0 : 0.0),
                      Rounding::RN);
      return finish(in, t, arith(FOp::Div, t, Rounding::RN, x, y, 0),
                    Rounding::RN);
    }
    return finish(in, t, arith(FOp::Div, t, mode, val(a), val(b), 0), mode);
  case FOp::Sqrt:
  case FOp::Rcp:
    if (in.approx) {
      if (t == FType::F64 && in.op == FOp::Rcp)
        return approxF64Hi(false, a);
      // sqrt/rcp of a double are correctly rounded, so the nearest value
      // in t follows from rounding the odd result.
      return finish(in, t, arith(in.op, t, Rounding::RN, val(a), 0, 0),
                    Rounding::RN);
    }
    return finish(in, t, arith(in.op, t, mode, val(a), 0, 0), mode);
  case FOp::Rsqrt:
    if (t == FType::F64 && in.ftz)
      return approxF64Hi(true, a);
    return finish(in, t, approxFn(in.op, val(a)), Rounding::RN);
  case FOp::Ex2:
  case FOp::Lg2:
  case FOp::Sin:
  case FOp::Cos:
  case FOp::Tanh:
    return finish(in, t, approxFn(in.op, val(a)), Rounding::RN);
  default:
    return 0;
  }
}

FloatResult evalCvt(const FloatInstr &in, llvm::ArrayRef<uint64_t> srcs) {
  auto src = [&](unsigned i) -> uint64_t {
    return i < srcs.size() ? srcs[i] : 0;
  };
  FloatResult res;
  // Integer source.
  if (in.srcInt != IntType::None) {
    res.bits = intToFloat(src(0), in.srcInt, in.type, in.rounding, in);
    return res;
  }
  // One source element -> its value.
  auto value = [&](uint64_t code) {
    double v = decodeElement(in.srcType, code);
    if (in.ftz && in.srcType == FType::F32)
      v = flush(FType::F32, v);
    return v;
  };
  bool integral = in.rounding == Rounding::RNI ||
                  in.rounding == Rounding::RZI ||
                  in.rounding == Rounding::RMI || in.rounding == Rounding::RPI;
  if (in.dstInt != IntType::None) {
    uint64_t v = floatToInt(value(src(0)), in.dstInt, in.srcType == FType::F64,
                            in.rounding);
    if (intSigned(in.dstInt) && intBits(in.dstInt) < 64) {
      unsigned n = intBits(in.dstInt);
      if (v >> (n - 1) & 1)
        v |= ~lowMask(n);
      else
        v &= lowMask(n);
    }
    res.bits = v;
    return res;
  }
  auto convert = [&](double v) -> uint64_t {
    if (integral)
      v = roundIntegral(v, in.rounding);
    if (in.type == FType::UE8M0)
      return encodeUe8m0(v, in.rounding, in.satfinite);
    FloatInstr fin = in;
    fin.ftz = in.ftz && in.type == FType::F32;
    // The canonical NaN of a format without one: .satfinite says +max.
    return finish(fin, in.type, v, in.rounding);
  };
  unsigned dSlot = slotBits(in.type), sSlot = slotBits(in.srcType);
  if (in.lanes == 1) {
    res.bits = convert(value(src(0)));
    return res;
  }
  uint64_t hi, lo;
  if (in.srcLanes == 1) { // d = {a (upper), b (lower)}
    hi = convert(value(src(0)));
    lo = convert(value(src(1)));
  } else {
    hi = convert(value(lane(src(0), 1, sSlot)));
    lo = convert(value(lane(src(0), 0, sSlot)));
  }
  res.bits = (hi << dSlot) | lo;
  return res;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public: formats
//===----------------------------------------------------------------------===//

unsigned pmlir::sim::elementBits(FType t) {
  switch (t) {
  case FType::F16:
  case FType::BF16:
    return 16;
  case FType::TF32:
  case FType::F32:
    return 32;
  case FType::F64:
    return 64;
  case FType::E4M3:
  case FType::E5M2:
  case FType::UE8M0:
    return 8;
  case FType::E2M1:
    return 4;
  case FType::E2M3:
  case FType::E3M2:
    return 6;
  }
  return 32;
}

double pmlir::sim::decodeElement(FType t, uint64_t bits) {
  if (t == FType::UE8M0) {
    bits &= 0xff;
    return bits == 0xff ? std::numeric_limits<double>::quiet_NaN()
                        : std::ldexp(1.0, int(bits) - 127);
  }
  if (t == FType::F64)
    return bitsToF64(bits);
  if (t == FType::TF32)
    bits &= 0xffffe000u;
  return decodeFmt(fmtOf(t), bits & lowMask(elementBits(t)));
}

uint64_t pmlir::sim::encodeElement(FType t, double v, Rounding mode,
                                   bool satfinite, bool relu) {
  if (t == FType::UE8M0)
    return encodeUe8m0(v, mode, satfinite);
  Fmt f = fmtOf(t);
  if (std::isnan(v))
    return (f.nan == NanKind::None ? maxCode(f) : nanCode(f)) << f.shift;
  bool neg = std::signbit(v);
  if (std::isinf(v)) {
    if (relu && neg)
      return 0;
    uint64_t sign = neg ? signBit(f) : 0;
    if (satfinite || f.nan == NanKind::None)
      return (sign | maxCode(f)) << f.shift;
    if (f.nan == NanKind::AllOnes)
      return nanCode(f) << f.shift;
    return (sign | infCode(f)) << f.shift;
  }
  uint64_t mag;
  int exp;
  splitDouble(v, neg, mag, exp);
  return encodeFinite(f, neg, mag, exp, mode, satfinite, relu);
}

//===----------------------------------------------------------------------===//
// Public: evaluation
//===----------------------------------------------------------------------===//

unsigned FloatInstr::numSrcs() const {
  switch (op) {
  case FOp::Fma:
    return 3;
  case FOp::Add:
  case FOp::Sub:
  case FOp::Mul:
  case FOp::Div:
  case FOp::Min:
  case FOp::Max:
  case FOp::Copysign:
    return 2;
  case FOp::Setp:
    return boolOp == BoolOp::None ? 2 : 3;
  case FOp::Cvt:
    return lanes == 2 && srcLanes == 1 && srcInt == IntType::None ? 2 : 1;
  default:
    return 1;
  }
}

FloatResult pmlir::sim::evalFloat(const FloatInstr &in,
                                  llvm::ArrayRef<uint64_t> srcs) {
  auto src = [&](unsigned i) -> uint64_t {
    return i < srcs.size() ? srcs[i] : 0;
  };
  FloatResult res;
  FType t = in.type;
  switch (in.op) {
  case FOp::Cvt:
    return evalCvt(in, srcs);
  case FOp::Testp: {
    double v = decodeElement(t, src(0));
    bool r = false;
    switch (in.test) {
    case TestOp::Finite:
      r = std::isfinite(v);
      break;
    case TestOp::Infinite:
      r = std::isinf(v);
      break;
    case TestOp::Number:
      r = !std::isnan(v);
      break;
    case TestOp::NotANumber:
      r = std::isnan(v);
      break;
    case TestOp::Normal:
      r = std::isfinite(v) && v != 0 && !isSubnormal(t, v);
      break;
    case TestOp::Subnormal:
      r = isSubnormal(t, v);
      break;
    }
    res.pred = r;
    res.bits = r;
    return res;
  }
  case FOp::Setp: {
    unsigned bits = laneBits(t);
    auto val = [&](uint64_t x) {
      double v = decodeElement(t, x);
      return in.ftz ? flush(t, v) : v;
    };
    bool c = src(2) & 1;
    if (in.lanes == 2) {
      bool p0 = cmpHolds(in.cmp, val(lane(src(0), 0, bits)),
                         val(lane(src(1), 0, bits)));
      bool p1 = cmpHolds(in.cmp, val(lane(src(0), 1, bits)),
                         val(lane(src(1), 1, bits)));
      res.pred = combine(in.boolOp, p0, c);
      res.pred2 = combine(in.boolOp, p1, c);
    } else {
      bool p = cmpHolds(in.cmp, val(src(0)), val(src(1)));
      res.pred = combine(in.boolOp, p, c);
      res.pred2 = combine(in.boolOp, !p, c);
    }
    res.bits = res.pred;
    return res;
  }
  default:
    break;
  }
  unsigned bits = laneBits(t);
  bool three = (in.op == FOp::Min || in.op == FOp::Max) && srcs.size() > 2;
  for (unsigned i = 0; i < in.lanes; ++i) {
    uint64_t r = evalLane(in, t, lane(src(0), i, bits), lane(src(1), i, bits),
                          lane(src(2), i, bits), three);
    res.bits |= (r & lowMask(bits)) << (i * bits);
  }
  return res;
}

//===----------------------------------------------------------------------===//
// Public: decoding
//===----------------------------------------------------------------------===//

namespace {

struct TypeName {
  const char *name;
  FType type;
  unsigned lanes;
};
const TypeName kFloatTypes[] = {
    {"f16", FType::F16, 1},     {"bf16", FType::BF16, 1},
    {"tf32", FType::TF32, 1},   {"f32", FType::F32, 1},
    {"f64", FType::F64, 1},     {"f16x2", FType::F16, 2},
    {"bf16x2", FType::BF16, 2}, {"f32x2", FType::F32, 2},
    {"e4m3x2", FType::E4M3, 2}, {"e5m2x2", FType::E5M2, 2},
    {"e2m1x2", FType::E2M1, 2}, {"e2m3x2", FType::E2M3, 2},
    {"e3m2x2", FType::E3M2, 2}, {"ue8m0x2", FType::UE8M0, 2},
};
struct IntName {
  const char *name;
  IntType type;
};
const IntName kIntTypes[] = {
    {"s8", IntType::S8},   {"s16", IntType::S16}, {"s32", IntType::S32},
    {"s64", IntType::S64}, {"u8", IntType::U8},   {"u16", IntType::U16},
    {"u32", IntType::U32}, {"u64", IntType::U64},
};

struct Ty {
  bool isFloat = false, isInt = false, isOther = false;
  FType f = FType::F32;
  unsigned lanes = 1;
  IntType i = IntType::None;
  std::string name;
};

bool isTypeToken(llvm::StringRef s) {
  static const char *others[] = {
      "b8",     "b16",    "b32",    "b64",    "b128",   "pred",  "e2m1x4",
      "e4m3x4", "e5m2x4", "e2m3x4", "e3m2x4", "s2f6x2", "s16x2", "u16x2"};
  for (const TypeName &t : kFloatTypes)
    if (s == t.name)
      return true;
  for (const IntName &t : kIntTypes)
    if (s == t.name)
      return true;
  for (const char *o : others)
    if (s == o)
      return true;
  return false;
}

Ty parseType(llvm::StringRef s) {
  Ty t;
  t.name = s.str();
  for (const TypeName &n : kFloatTypes)
    if (s == n.name) {
      t.isFloat = true;
      t.f = n.type;
      t.lanes = n.lanes;
      return t;
    }
  for (const IntName &n : kIntTypes)
    if (s == n.name) {
      t.isInt = true;
      t.i = n.type;
      return t;
    }
  t.isOther = true;
  return t;
}

std::optional<FOp> opcodeOf(llvm::StringRef s) {
  return llvm::StringSwitch<std::optional<FOp>>(s)
      .Case("add", FOp::Add)
      .Case("sub", FOp::Sub)
      .Case("mul", FOp::Mul)
      .Case("fma", FOp::Fma)
      .Case("mad", FOp::Fma)
      .Case("div", FOp::Div)
      .Case("min", FOp::Min)
      .Case("max", FOp::Max)
      .Case("neg", FOp::Neg)
      .Case("abs", FOp::Abs)
      .Case("sqrt", FOp::Sqrt)
      .Case("rsqrt", FOp::Rsqrt)
      .Case("rcp", FOp::Rcp)
      .Case("ex2", FOp::Ex2)
      .Case("lg2", FOp::Lg2)
      .Case("sin", FOp::Sin)
      .Case("cos", FOp::Cos)
      .Case("tanh", FOp::Tanh)
      .Case("copysign", FOp::Copysign)
      .Case("testp", FOp::Testp)
      .Case("setp", FOp::Setp)
      .Case("cvt", FOp::Cvt)
      .Default(std::nullopt);
}

bool floatOnly(FOp op) {
  switch (op) {
  case FOp::Sqrt:
  case FOp::Rsqrt:
  case FOp::Rcp:
  case FOp::Ex2:
  case FOp::Lg2:
  case FOp::Sin:
  case FOp::Cos:
  case FOp::Tanh:
  case FOp::Copysign:
  case FOp::Testp:
    return true;
  default:
    return false;
  }
}

bool isFp8Family(FType t) {
  return t == FType::E4M3 || t == FType::E5M2 || t == FType::E2M1 ||
         t == FType::E2M3 || t == FType::E3M2 || t == FType::UE8M0;
}

} // namespace

std::optional<FloatInstr>
pmlir::sim::decodeFloat(llvm::ArrayRef<std::string> parts, std::string *error) {
  if (parts.empty())
    return std::nullopt;
  std::optional<FOp> op = opcodeOf(parts[0]);
  if (!op)
    return std::nullopt;
  std::string whole;
  for (const std::string &p : parts)
    whole += (whole.empty() ? "" : ".") + p;
  auto fail = [&](const std::string &why) -> std::optional<FloatInstr> {
    if (error)
      *error = "'" + whole + "': " + why;
    return std::nullopt;
  };

  std::vector<Ty> types;
  std::vector<std::string> mods;
  for (size_t i = 1; i < parts.size(); ++i) {
    if (isTypeToken(parts[i]))
      types.push_back(parseType(parts[i]));
    else
      mods.push_back(parts[i]);
  }
  bool anyFloat = false;
  for (const Ty &t : types)
    anyFloat |= t.isFloat;
  if (!anyFloat) {
    if (floatOnly(*op) && !types.empty())
      return fail("'" + parts[0] + "' is floating point, type ." +
                  types.back().name + " is not supported");
    return std::nullopt; // integer (or typeless) instruction: the engine's
  }
  for (const Ty &t : types)
    if (t.isOther)
      return fail("type ." + t.name + " is not supported");

  FloatInstr in;
  in.op = *op;
  bool haveCmp = false, haveTest = false;
  for (const std::string &m : mods) {
    llvm::StringRef s(m);
    std::optional<Rounding> rnd = llvm::StringSwitch<std::optional<Rounding>>(s)
                                      .Case("rn", Rounding::RN)
                                      .Case("rz", Rounding::RZ)
                                      .Case("rm", Rounding::RM)
                                      .Case("rp", Rounding::RP)
                                      .Case("rna", Rounding::RNA)
                                      .Case("rni", Rounding::RNI)
                                      .Case("rzi", Rounding::RZI)
                                      .Case("rmi", Rounding::RMI)
                                      .Case("rpi", Rounding::RPI)
                                      .Default(std::nullopt);
    if (rnd) {
      if (in.rounding != Rounding::Default)
        return fail("two rounding modifiers");
      in.rounding = *rnd;
      continue;
    }
    if (s == "ftz") {
      in.ftz = true;
      continue;
    }
    if (s == "sat") {
      in.sat = true;
      continue;
    }
    if (s == "satfinite") {
      in.satfinite = true;
      continue;
    }
    if (s == "relu") {
      in.relu = true;
      continue;
    }
    if (s == "approx") {
      in.approx = true;
      continue;
    }
    if (s == "full") {
      in.full = true;
      continue;
    }
    if (s == "NaN" && (*op == FOp::Min || *op == FOp::Max)) {
      in.nanMode = true;
      continue;
    }
    if (s == "xorsign" && (*op == FOp::Min || *op == FOp::Max)) {
      in.xorsign = true;
      continue;
    }
    if (s == "abs" && (*op == FOp::Min || *op == FOp::Max)) {
      in.absMod = true;
      continue;
    }
    if (*op == FOp::Setp) {
      std::optional<CmpOp> c = llvm::StringSwitch<std::optional<CmpOp>>(s)
                                   .Case("eq", CmpOp::Eq)
                                   .Case("ne", CmpOp::Ne)
                                   .Case("lt", CmpOp::Lt)
                                   .Case("le", CmpOp::Le)
                                   .Case("gt", CmpOp::Gt)
                                   .Case("ge", CmpOp::Ge)
                                   .Case("equ", CmpOp::Equ)
                                   .Case("neu", CmpOp::Neu)
                                   .Case("ltu", CmpOp::Ltu)
                                   .Case("leu", CmpOp::Leu)
                                   .Case("gtu", CmpOp::Gtu)
                                   .Case("geu", CmpOp::Geu)
                                   .Case("num", CmpOp::Num)
                                   .Case("nan", CmpOp::Nan)
                                   .Default(std::nullopt);
      if (c && !haveCmp) {
        in.cmp = *c;
        haveCmp = true;
        continue;
      }
      std::optional<BoolOp> b = llvm::StringSwitch<std::optional<BoolOp>>(s)
                                    .Case("and", BoolOp::And)
                                    .Case("or", BoolOp::Or)
                                    .Case("xor", BoolOp::Xor)
                                    .Default(std::nullopt);
      if (b && in.boolOp == BoolOp::None) {
        in.boolOp = *b;
        continue;
      }
    }
    if (*op == FOp::Testp && !haveTest) {
      std::optional<TestOp> t = llvm::StringSwitch<std::optional<TestOp>>(s)
                                    .Case("finite", TestOp::Finite)
                                    .Case("infinite", TestOp::Infinite)
                                    .Case("number", TestOp::Number)
                                    .Case("notanumber", TestOp::NotANumber)
                                    .Case("normal", TestOp::Normal)
                                    .Case("subnormal", TestOp::Subnormal)
                                    .Default(std::nullopt);
      if (t) {
        in.test = *t;
        haveTest = true;
        continue;
      }
    }
    if (s == "rs")
      return fail("stochastic rounding .rs is not supported");
    return fail("modifier ." + m + " is not supported");
  }

  bool integralRnd =
      in.rounding == Rounding::RNI || in.rounding == Rounding::RZI ||
      in.rounding == Rounding::RMI || in.rounding == Rounding::RPI;

  if (*op == FOp::Cvt) {
    if (types.size() != 2)
      return fail("cvt takes a destination and a source type");
    const Ty &d = types[0], &a = types[1];
    in.type = d.f;
    in.lanes = d.isFloat ? d.lanes : 1;
    in.srcType = a.f;
    in.srcLanes = a.isFloat ? a.lanes : 1;
    in.dstInt = d.isInt ? d.i : IntType::None;
    in.srcInt = a.isInt ? a.i : IntType::None;
    if (in.approx || in.full || in.nanMode)
      return fail("modifier not valid on cvt");
    if ((d.isFloat && d.lanes == 2 && d.f == FType::F32) ||
        (a.isFloat && a.lanes == 2 && a.f == FType::F32))
      return fail("cvt has no .f32x2 form");
    if (a.isFloat && a.f == FType::TF32)
      return fail("cvt from .tf32 is not a PTX conversion");
    if (d.isInt) { // float -> int
      if (a.lanes != 1 || isFp8Family(a.f))
        return fail("float-to-integer cvt needs a scalar f16/bf16/f32/f64");
      if (!integralRnd)
        return fail("float-to-integer cvt needs .rni/.rzi/.rmi/.rpi");
      return in;
    }
    if (a.isInt) { // int -> float
      if (d.lanes != 1 || isFp8Family(d.f) || d.f == FType::TF32)
        return fail("integer-to-float cvt needs f16/bf16/f32/f64");
      if (integralRnd || in.rounding == Rounding::RNA)
        return fail("integer-to-float cvt takes .rn/.rz/.rm/.rp");
      return in;
    }
    // float -> float
    if (in.lanes == 2) {
      if (in.srcLanes == 2) {
        // f16x2 <- 8/6/4-bit pairs, bf16x2 <- ue8m0x2, 8/6/4-bit pairs <-
        // f16x2/bf16x2, ue8m0x2 <- bf16x2.
        bool up = (in.type == FType::F16 && isFp8Family(in.srcType) &&
                   in.srcType != FType::UE8M0) ||
                  (in.type == FType::BF16 && in.srcType == FType::UE8M0);
        bool down = isFp8Family(in.type) &&
                    (in.srcType == FType::F16 || in.srcType == FType::BF16);
        if (!up && !down)
          return fail("unsupported packed conversion");
        if (down && in.type == FType::UE8M0 && in.srcType != FType::BF16)
          return fail("ue8m0x2 converts from f32 or bf16x2");
      } else if (in.srcType != FType::F32) {
        return fail("a packed destination from two scalars needs .f32 "
                    "sources");
      }
    } else if (in.srcLanes == 2) {
      return fail("a packed source needs a packed destination");
    } else if (isFp8Family(in.type) || isFp8Family(in.srcType)) {
      return fail("8/6/4-bit formats convert only in their x2 forms");
    }
    if (in.type == FType::UE8M0 && in.rounding != Rounding::RZ &&
        in.rounding != Rounding::RP)
      return fail("ue8m0x2 conversions round .rz or .rp");
    if (in.type == FType::UE8M0 && in.relu)
      return fail(".relu is not supported with ue8m0x2");
    if (isFp8Family(in.type) && in.type != FType::UE8M0 &&
        (in.rounding != Rounding::RN || !in.satfinite))
      return fail("conversions to 8/6/4-bit formats need .rn.satfinite");
    if (in.rounding == Rounding::RNA && in.type != FType::TF32)
      return fail(".rna rounds only to .tf32");
    if (in.type == FType::TF32 && in.srcType != FType::F32)
      return fail("cvt to .tf32 converts from .f32");
    return in;
  }

  if (types.size() != 1)
    return fail("expected one type");
  const Ty &ty = types[0];
  in.type = ty.f;
  in.lanes = ty.lanes;
  if (isFp8Family(ty.f) || ty.f == FType::TF32)
    return fail("'" + parts[0] + "' does not take ." + ty.name);
  bool f32x2 = ty.f == FType::F32 && ty.lanes == 2;
  if (f32x2 && *op != FOp::Add && *op != FOp::Sub && *op != FOp::Mul &&
      *op != FOp::Fma)
    return fail(".f32x2 is supported by add/sub/mul/fma only");
  if (integralRnd || in.rounding == Rounding::RNA)
    return fail("integer rounding modifiers belong to cvt");
  if (in.satfinite)
    return fail(".satfinite belongs to cvt");
  if (in.ftz && ty.f == FType::F64 &&
      !(in.approx && (*op == FOp::Rcp || *op == FOp::Rsqrt)))
    return fail(".ftz does not apply to .f64");

  switch (*op) {
  case FOp::Setp:
    if (!haveCmp)
      return fail("setp needs a comparison");
    if (in.rounding != Rounding::Default || in.approx || in.sat || in.relu)
      return fail("modifier not valid on setp");
    return in;
  case FOp::Testp:
    if (!haveTest)
      return fail("testp needs a test (finite, infinite, number, "
                  "notanumber, normal, subnormal)");
    if (ty.lanes != 1 || (ty.f != FType::F32 && ty.f != FType::F64))
      return fail("testp takes .f32 or .f64");
    return in;
  case FOp::Copysign:
    if (ty.lanes != 1 || (ty.f != FType::F32 && ty.f != FType::F64))
      return fail("copysign takes .f32 or .f64");
    return in;
  case FOp::Div:
    if (in.approx || in.full) {
      if (ty.f != FType::F32 || ty.lanes != 1 ||
          in.rounding != Rounding::Default || (in.approx && in.full))
        return fail("div.approx/div.full are .f32 without rounding");
    } else if (in.rounding == Rounding::Default) {
      if (ty.f != FType::F64)
        return fail("div.f32 needs .approx, .full or .rn/.rz/.rm/.rp");
    }
    if (ty.f != FType::F32 && ty.f != FType::F64)
      return fail("div takes .f32 or .f64");
    return in;
  case FOp::Sqrt:
  case FOp::Rcp:
    if (ty.f != FType::F32 && ty.f != FType::F64)
      return fail("'" + parts[0] + "' takes .f32 or .f64");
    if (in.approx) {
      if (in.rounding != Rounding::Default)
        return fail(".approx takes no rounding modifier");
      if (ty.f == FType::F64 && !(*op == FOp::Rcp && in.ftz))
        return fail("only rcp.approx.ftz.f64 is an f64 approximation");
    } else if (in.rounding == Rounding::Default && ty.f == FType::F32) {
      return fail("'" + parts[0] + ".f32' needs .approx or a rounding");
    }
    return in;
  case FOp::Rsqrt:
    if (!in.approx || in.rounding != Rounding::Default)
      return fail("rsqrt is .approx only");
    if (ty.f != FType::F32 && ty.f != FType::F64)
      return fail("rsqrt takes .f32 or .f64");
    return in;
  case FOp::Ex2:
  case FOp::Lg2:
  case FOp::Sin:
  case FOp::Cos:
  case FOp::Tanh: {
    if (!in.approx || in.rounding != Rounding::Default || in.sat || in.relu)
      return fail("'" + parts[0] + "' is .approx{.ftz} only");
    bool half = ty.f == FType::F16 || ty.f == FType::BF16;
    if (ty.f == FType::F64 || (half && *op != FOp::Ex2 && *op != FOp::Tanh))
      return fail("'" + parts[0] + "' does not take ." + ty.name);
    if (*op == FOp::Ex2 && ty.f == FType::BF16 && !in.ftz)
      return fail("ex2.approx.bf16 requires .ftz");
    if (half && in.ftz && ty.f == FType::F16)
      return fail("ex2/tanh.approx.f16 take no .ftz");
    return in;
  }
  case FOp::Min:
  case FOp::Max:
    if (in.xorsign && !in.absMod)
      return fail(".xorsign requires .abs");
    if (in.rounding != Rounding::Default || in.approx || in.sat)
      return fail("modifier not valid on min/max");
    return in;
  case FOp::Neg:
  case FOp::Abs:
    if (in.rounding != Rounding::Default || in.approx || in.sat || in.relu)
      return fail("modifier not valid on neg/abs");
    return in;
  default: // add sub mul fma mad
    if (in.approx || in.full)
      return fail("modifier not valid here");
    if (in.sat && in.relu)
      return fail(".sat and .relu together");
    return in;
  }
}
