//===- FloatOpsTest.cpp - the floating-point value library's tests --------===//
//
// Every expectation is computed here, independently of FloatOps.cpp: the
// narrow formats are decoded from their definitions and rounded by
// brute-force nearest search over their enumerated codes; bf16/tf32 by
// integer arithmetic on f32 bits; f16 by the compiler's _Float16 and by a
// bracketing search over all f16 values; f32/f64 arithmetic by the host's
// IEEE operations under fesetround.
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include "pipeline/Sim/FloatOps.h"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace pmlir::sim;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

uint32_t f2u(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float u2f(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint64_t d2u(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
double u2d(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}

FloatInstr dec(std::vector<std::string> parts) {
  std::string err;
  std::optional<FloatInstr> in = decodeFloat(parts, &err);
  std::string name;
  for (auto &p : parts)
    name += "." + p;
  CHECK(in.has_value()) << name << " did not decode: " << err;
  return in ? *in : FloatInstr();
}

uint64_t run(const std::vector<std::string> &parts,
             std::vector<uint64_t> srcs) {
  return evalFloat(dec(parts), srcs).bits;
}

bool sameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

//===----------------------------------------------------------------------===//
// The narrow formats, by definition
//===----------------------------------------------------------------------===//

struct Narrow {
  FType type;
  int e, m, bias;
  enum { IEEE, E4M3NaN, NoSpecial } kind;
  double max;
};
const Narrow kNarrow[] = {
    {FType::E4M3, 4, 3, 7, Narrow::E4M3NaN, 448},
    {FType::E5M2, 5, 2, 15, Narrow::IEEE, 57344},
    {FType::E2M1, 2, 1, 1, Narrow::NoSpecial, 6},
    {FType::E2M3, 2, 3, 1, Narrow::NoSpecial, 7.5},
    {FType::E3M2, 3, 2, 3, Narrow::NoSpecial, 28},
};

double refNarrow(const Narrow &f, unsigned code) {
  unsigned s = code >> (f.e + f.m) & 1;
  unsigned ex = code >> f.m & ((1u << f.e) - 1);
  unsigned mant = code & ((1u << f.m) - 1);
  double sign = s ? -1 : 1;
  bool expOnes = ex == (1u << f.e) - 1;
  if (f.kind == Narrow::IEEE && expOnes)
    return mant ? kNaN : sign * kInf;
  if (f.kind == Narrow::E4M3NaN && expOnes && mant == (1u << f.m) - 1)
    return kNaN;
  double frac = double(mant) / double(1u << f.m);
  if (ex == 0)
    return sign * frac * std::pow(2.0, 1 - f.bias);
  return sign * (1 + frac) * std::pow(2.0, int(ex) - f.bias);
}

/// Round-to-nearest-even with satfinite by searching every code.
unsigned nearestNarrow(const Narrow &f, double x) {
  unsigned n = 1u << (f.e + f.m + 1);
  unsigned signBit = n >> 1;
  double ax = std::fabs(x);
  if (ax > f.max)
    ax = f.max;
  unsigned best = 0;
  double bestDist = kInf;
  for (unsigned c = 0; c < signBit; ++c) {
    double v = refNarrow(f, c);
    if (!std::isfinite(v))
      continue;
    double d = std::fabs(v - ax);
    if (d < bestDist || (d == bestDist && (c & 1) == 0)) {
      best = c;
      bestDist = d;
    }
  }
  return std::signbit(x) ? best | signBit : best;
}

TEST(FloatOpsDecodeNarrowCodes) {
  for (const Narrow &f : kNarrow) {
    unsigned n = 1u << (f.e + f.m + 1);
    for (unsigned c = 0; c < n; ++c) {
      double want = refNarrow(f, c), got = decodeElement(f.type, c);
      CHECK(sameValue(want, got)) << "format " << int(f.type) << " code " << c
                                  << ": " << got << " want " << want;
    }
    CHECK(elementBits(f.type) == unsigned(f.e + f.m + 1));
  }
  // The maxima the definitions give.
  CHECK(decodeElement(FType::E4M3, 0x7e) == 448);
  CHECK(std::isnan(decodeElement(FType::E4M3, 0x7f)));
  CHECK(decodeElement(FType::E5M2, 0x7b) == 57344);
  CHECK(std::isinf(decodeElement(FType::E5M2, 0x7c)));
  CHECK(decodeElement(FType::E2M1, 0x7) == 6);
  CHECK(decodeElement(FType::E2M1, 0x1) == 0.5);
  CHECK(decodeElement(FType::E2M3, 0x1f) == 7.5);
  CHECK(decodeElement(FType::E3M2, 0x1f) == 28);
  for (unsigned c = 0; c < 255; ++c)
    CHECK(decodeElement(FType::UE8M0, c) == std::pow(2.0, int(c) - 127))
        << "ue8m0 " << c;
  CHECK(std::isnan(decodeElement(FType::UE8M0, 0xff)));
}

TEST(FloatOpsEncodeNarrowNearest) {
  std::mt19937_64 rng(1234);
  for (const Narrow &f : kNarrow) {
    unsigned n = 1u << (f.e + f.m + 1);
    std::vector<double> xs;
    // Every value, every midpoint between neighbours, and their negatives.
    std::vector<double> vals;
    for (unsigned c = 0; c < n / 2; ++c)
      if (std::isfinite(refNarrow(f, c)))
        vals.push_back(refNarrow(f, c));
    std::sort(vals.begin(), vals.end());
    for (size_t i = 0; i < vals.size(); ++i) {
      xs.push_back(vals[i]);
      if (i + 1 < vals.size())
        xs.push_back((vals[i] + vals[i + 1]) / 2);
    }
    std::uniform_real_distribution<double> uni(-1.3 * f.max, 1.3 * f.max);
    std::uniform_real_distribution<double> lg(-14, std::log2(f.max) + 2);
    for (int i = 0; i < 3000; ++i) {
      xs.push_back(uni(rng));
      xs.push_back((rng() & 1 ? -1 : 1) * std::pow(2.0, lg(rng)));
    }
    size_t base = xs.size();
    for (size_t i = 0; i < base; ++i)
      xs.push_back(-xs[i]);
    xs.push_back(1e300);
    xs.push_back(-1e-300);
    for (double x : xs) {
      unsigned want = nearestNarrow(f, x);
      uint64_t got = encodeElement(f.type, x, Rounding::RN, true);
      CHECK(got == want) << "format " << int(f.type) << " x=" << x << " got "
                         << got << " want " << want;
      // .relu: negatives to +0.
      uint64_t relu = encodeElement(f.type, x, Rounding::RN, true, true);
      CHECK(relu == (std::signbit(x) ? 0u : want))
          << "relu format " << int(f.type) << " x=" << x;
    }
    unsigned maxCode = nearestNarrow(f, f.max);
    CHECK(encodeElement(f.type, kInf, Rounding::RN, true) == maxCode);
    CHECK(encodeElement(f.type, -kInf, Rounding::RN, true) ==
          (maxCode | n >> 1));
  }
  // NaN under satfinite: NaN where the format has one, +max where not.
  CHECK(std::isnan(decodeElement(
      FType::E4M3, encodeElement(FType::E4M3, kNaN, Rounding::RN, true))));
  CHECK(std::isnan(decodeElement(
      FType::E5M2, encodeElement(FType::E5M2, kNaN, Rounding::RN, true))));
  CHECK(encodeElement(FType::E2M1, kNaN, Rounding::RN, true) == 0x7);
  CHECK(encodeElement(FType::E2M3, kNaN, Rounding::RN, true) == 0x1f);
  CHECK(encodeElement(FType::E3M2, kNaN, Rounding::RN, true) == 0x1f);
  // Overflow without satfinite: e5m2 has inf, e4m3 only NaN.
  CHECK(
      std::isinf(decodeElement(FType::E5M2, encodeElement(FType::E5M2, 1e6))));
  CHECK(
      std::isnan(decodeElement(FType::E4M3, encodeElement(FType::E4M3, 1e6))));
  // 464 is the midpoint of 448 (mantissa 110) and 480 (111, beyond max):
  // the tie goes to the even 448; anything above it overflows to NaN.
  CHECK(encodeElement(FType::E4M3, 464) == 0x7e);
  CHECK(std::isnan(
      decodeElement(FType::E4M3, encodeElement(FType::E4M3, 464.5))));
  CHECK(encodeElement(FType::E4M3, 463.9) == 0x7e);
}

TEST(FloatOpsUe8m0) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> lg(-135, 135);
  for (int i = 0; i < 4000; ++i) {
    double x = std::pow(2.0, lg(rng));
    if (i % 7 == 0)
      x = std::pow(2.0, std::floor(lg(rng))); // exact powers
    unsigned rz = 0, rp = 255;
    for (unsigned c = 0; c < 255; ++c) {
      double v = std::pow(2.0, int(c) - 127);
      if (v <= x)
        rz = c;
      if (v >= x && rp == 255)
        rp = c;
    }
    unsigned rpSat = rp == 255 ? 254 : rp;
    CHECK(encodeElement(FType::UE8M0, x, Rounding::RZ, true) == rz)
        << "rz " << x;
    CHECK(encodeElement(FType::UE8M0, x, Rounding::RP, true) == rpSat)
        << "rp " << x;
    CHECK(encodeElement(FType::UE8M0, x, Rounding::RP, false) == rp)
        << "rp nosat " << x;
  }
  CHECK(encodeElement(FType::UE8M0, kNaN, Rounding::RZ, true) == 0xff);
  CHECK(encodeElement(FType::UE8M0, kInf, Rounding::RZ, true) == 0xfe);
}

//===----------------------------------------------------------------------===//
// bf16, tf32, f16 from their IEEE definitions
//===----------------------------------------------------------------------===//

std::vector<float> randomFloats(std::mt19937_64 &rng, int n) {
  std::vector<float> out;
  const float specials[] = {0.0f,
                            -0.0f,
                            1.0f,
                            -1.0f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::denorm_min(),
                            -std::numeric_limits<float>::denorm_min(),
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::max(),
                            -std::numeric_limits<float>::max(),
                            u2f(0x7fc00000),
                            u2f(0x007fffff)};
  for (float s : specials)
    out.push_back(s);
  for (int i = 0; i < n; ++i) {
    uint32_t u = uint32_t(rng());
    switch (i % 4) {
    case 0: // any bits
      break;
    case 1: // subnormal
      u &= 0x807fffffu;
      break;
    case 2: // moderate exponent
      u = (u & 0x807fffffu) | (uint32_t(112 + rng() % 32) << 23);
      break;
    case 3: // few mantissa bits (ties are likely)
      u &= 0xffff0000u | uint32_t(rng() % 2 ? 0x8000 : 0x1000);
      break;
    }
    out.push_back(u2f(u));
  }
  return out;
}

TEST(FloatOpsBf16FromF32) {
  std::mt19937_64 rng(7);
  for (float f : randomFloats(rng, 20000)) {
    uint32_t u = f2u(f);
    if (std::isnan(f)) {
      CHECK(encodeElement(FType::BF16, f) == 0x7fff);
      continue;
    }
    uint32_t rn = (u + 0x7fff + ((u >> 16) & 1)) >> 16;
    uint32_t rz = u >> 16;
    bool inexact = u & 0xffff, neg = u >> 31;
    uint32_t rp = rz + (inexact && !neg), rm = rz + (inexact && neg);
    CHECK(encodeElement(FType::BF16, f, Rounding::RN) == rn) << std::hex << u;
    CHECK(encodeElement(FType::BF16, f, Rounding::RZ) == rz) << std::hex << u;
    CHECK(encodeElement(FType::BF16, f, Rounding::RP) == rp) << std::hex << u;
    CHECK(encodeElement(FType::BF16, f, Rounding::RM) == rm) << std::hex << u;
    // bf16 -> f32 is a shift.
    CHECK(sameValue(decodeElement(FType::BF16, rz), u2f(rz << 16)));
    // tf32: 13 low bits dropped; .rna ties away, .rn ties to even.
    if (std::isfinite(f) && (u & 0x7fffffff) < 0x7f7fe000u) {
      uint32_t rna = (u + 0x1000) & 0xffffe000u;
      uint32_t rne = (u + 0xfff + ((u >> 13) & 1)) & 0xffffe000u;
      CHECK(encodeElement(FType::TF32, f, Rounding::RNA) == rna)
          << std::hex << u;
      CHECK(encodeElement(FType::TF32, f, Rounding::RN) == rne)
          << std::hex << u;
      CHECK(run({"cvt", "rna", "tf32", "f32"}, {u}) == rna) << std::hex << u;
    }
  }
  // cvt.rn.bf16x2.f32 d, a, b: a goes to the upper half.
  CHECK(run({"cvt", "rn", "bf16x2", "f32"}, {f2u(1.0f), f2u(2.0f)}) ==
        0x3f804000u);
  CHECK(run({"cvt", "rn", "f16x2", "f32"}, {f2u(1.0f), f2u(2.0f)}) ==
        0x3c004000u);
  CHECK(run({"cvt", "rn", "relu", "bf16", "f32"}, {f2u(-3.0f)}) == 0);
  CHECK(run({"cvt", "rn", "satfinite", "f16", "f32"}, {f2u(1e6f)}) == 0x7bff);
  CHECK(run({"cvt", "rn", "f16", "f32"}, {f2u(1e6f)}) == 0x7c00);
  CHECK(run({"cvt", "rz", "f16", "f32"}, {f2u(1e6f)}) == 0x7bff);
}

uint16_t h2u(_Float16 h) {
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
_Float16 u2h(uint16_t u) {
  _Float16 h;
  std::memcpy(&h, &u, 2);
  return h;
}

TEST(FloatOpsF16Codes) {
  for (uint32_t c = 0; c < 0x10000; ++c) {
    double want = double(u2h(uint16_t(c)));
    CHECK(sameValue(decodeElement(FType::F16, c), want)) << std::hex << c;
  }
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> lg(-27, 17);
  for (int i = 0; i < 20000; ++i) {
    double x = (rng() & 1 ? -1 : 1) * std::pow(2.0, lg(rng));
    if (i % 3 == 0) // an f16 midpoint, exactly
      x = (double(u2h(uint16_t(rng()) & 0x7bff)) +
           double(u2h(uint16_t((rng() & 0x7bff))))) /
          2;
    volatile double vx = x;
    _Float16 h = (_Float16)vx; // the compiler's correctly rounded RN
    CHECK(encodeElement(FType::F16, x) == h2u(h)) << x;
  }
  CHECK(elementBits(FType::F16) == 16);
  CHECK(elementBits(FType::E2M1) == 4);
}

//===----------------------------------------------------------------------===//
// f32 / f64 arithmetic against the host's IEEE operations
//===----------------------------------------------------------------------===//

int hostMode(Rounding r) {
  switch (r) {
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
const char *modeName(Rounding r) {
  switch (r) {
  case Rounding::RZ:
    return "rz";
  case Rounding::RM:
    return "rm";
  case Rounding::RP:
    return "rp";
  default:
    return "rn";
  }
}

float hostF32(const std::string &op, Rounding r, float a, float b, float c) {
  std::fesetround(hostMode(r));
  volatile float va = a, vb = b, vc = c;
  float res;
  if (op == "add")
    res = va + vb;
  else if (op == "sub")
    res = va - vb;
  else if (op == "mul")
    res = va * vb;
  else if (op == "fma")
    res = std::fma(float(va), float(vb), float(vc));
  else if (op == "div")
    res = va / vb;
  else if (op == "rcp")
    res = 1.0f / va;
  else
    res = std::sqrt(float(va));
  volatile float vr = res;
  std::fesetround(FE_TONEAREST);
  return vr;
}

float flushF(float f) {
  return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f;
}

TEST(FloatOpsF32Arith) {
  std::mt19937_64 rng(21);
  std::vector<float> xs = randomFloats(rng, 3000);
  const char *ops[] = {"add", "sub", "mul", "fma", "div", "rcp", "sqrt"};
  const Rounding modes[] = {Rounding::RN, Rounding::RZ, Rounding::RM,
                            Rounding::RP};
  unsigned bad = 0;
  for (const char *op : ops) {
    for (Rounding m : modes) {
      for (bool ftz : {false, true}) {
        std::vector<std::string> parts = {op, modeName(m)};
        if (ftz)
          parts.push_back("ftz");
        parts.push_back("f32");
        FloatInstr in = dec(parts);
        for (size_t i = 0; i < xs.size(); ++i) {
          float a = xs[i], b = xs[(i * 7 + 3) % xs.size()],
                c = xs[(i * 13 + 5) % xs.size()];
          if (std::string(op) == "sqrt")
            a = std::fabs(a);
          float fa = ftz ? flushF(a) : a, fb = ftz ? flushF(b) : b,
                fc = ftz ? flushF(c) : c;
          float want = hostF32(op, m, fa, fb, fc);
          if (ftz)
            want = flushF(want);
          uint32_t got = uint32_t(evalFloat(in, {f2u(a), f2u(b), f2u(c)}).bits);
          bool ok = std::isnan(want) ? got == 0x7fffffffu : got == f2u(want);
          if (!ok && ++bad < 20)
            CHECK(false) << op << "." << modeName(m) << (ftz ? ".ftz" : "")
                         << " a=" << std::hexfloat << a << " b=" << b
                         << " c=" << c << " got " << u2f(got) << " want "
                         << want;
        }
      }
    }
  }
  CHECK(bad == 0) << bad << " f32 mismatches";
  // Exact zero sums: +0, except -0 when rounding down.
  CHECK(run({"add", "rn", "f32"}, {f2u(1.5f), f2u(-1.5f)}) == 0);
  CHECK(run({"add", "rm", "f32"}, {f2u(1.5f), f2u(-1.5f)}) == 0x80000000u);
  // .sat clamps to [0, 1]; NaN -> +0.
  CHECK(run({"add", "sat", "f32"}, {f2u(0.75f), f2u(0.75f)}) == f2u(1.0f));
  CHECK(run({"add", "sat", "f32"}, {f2u(-0.75f), f2u(0.25f)}) == 0);
  CHECK(run({"mul", "rn", "sat", "f32"}, {f2u(0.0f), f2u(INFINITY)}) == 0);
  // Default rounding is .rn.
  CHECK(run({"add", "f32"}, {f2u(1.0f), f2u(0x1p-24f)}) == f2u(1.0f));
  CHECK(run({"add", "f32"}, {f2u(1.0f), f2u(0x1.8p-24f)}) ==
        f2u(1.0f + 0x1p-23f));
}

TEST(FloatOpsF32x2) {
  std::mt19937_64 rng(5);
  std::vector<float> xs = randomFloats(rng, 400);
  for (Rounding m : {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP})
    for (const char *op : {"add", "sub", "mul", "fma"}) {
      FloatInstr in = dec({op, modeName(m), "f32x2"});
      for (size_t i = 0; i + 5 < xs.size(); ++i) {
        float a0 = xs[i], a1 = xs[i + 1], b0 = xs[i + 2], b1 = xs[i + 3],
              c0 = xs[i + 4], c1 = xs[i + 5];
        uint64_t a = uint64_t(f2u(a1)) << 32 | f2u(a0);
        uint64_t b = uint64_t(f2u(b1)) << 32 | f2u(b0);
        uint64_t c = uint64_t(f2u(c1)) << 32 | f2u(c0);
        uint64_t got = evalFloat(in, {a, b, c}).bits;
        float w0 = hostF32(op, m, a0, b0, c0), w1 = hostF32(op, m, a1, b1, c1);
        uint32_t g0 = uint32_t(got), g1 = uint32_t(got >> 32);
        CHECK(std::isnan(w0) ? g0 == 0x7fffffffu : g0 == f2u(w0))
            << op << " lane 0";
        CHECK(std::isnan(w1) ? g1 == 0x7fffffffu : g1 == f2u(w1))
            << op << " lane 1";
      }
    }
}

TEST(FloatOpsF64Arith) {
  std::mt19937_64 rng(31);
  std::vector<double> xs = {0.0,  -0.0,  1.0,      3.0,
                            kInf, -kInf, 4.9e-324, -2.2250738585072014e-308};
  for (int i = 0; i < 3000; ++i) {
    uint64_t u = rng();
    if (i % 3 == 1)
      u &= 0x800fffffffffffffull;
    if (i % 3 == 2)
      u = (u & 0x800fffffffffffffull) | uint64_t(1000 + rng() % 48) << 52;
    xs.push_back(u2d(u));
  }
  const char *ops[] = {"add", "sub", "mul", "fma", "div", "rcp", "sqrt"};
  unsigned bad = 0;
  for (const char *op : ops)
    for (Rounding m :
         {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP}) {
      FloatInstr in = dec({op, modeName(m), "f64"});
      for (size_t i = 0; i < xs.size(); ++i) {
        double a = xs[i], b = xs[(i * 7 + 1) % xs.size()],
               c = xs[(i * 11 + 2) % xs.size()];
        if (std::string(op) == "sqrt")
          a = std::fabs(a);
        std::fesetround(hostMode(m));
        volatile double va = a, vb = b, vc = c;
        double w;
        std::string o = op;
        if (o == "add")
          w = va + vb;
        else if (o == "sub")
          w = va - vb;
        else if (o == "mul")
          w = va * vb;
        else if (o == "fma")
          w = std::fma(double(va), double(vb), double(vc));
        else if (o == "div")
          w = va / vb;
        else if (o == "rcp")
          w = 1.0 / va;
        else
          w = std::sqrt(double(va));
        volatile double vw = w;
        std::fesetround(FE_TONEAREST);
        uint64_t got = evalFloat(in, {d2u(a), d2u(b), d2u(c)}).bits;
        bool ok =
            std::isnan(vw) ? got == 0x7fffffffffffffffull : got == d2u(vw);
        if (!ok && ++bad < 10)
          CHECK(false) << op << "." << modeName(m) << " " << std::hexfloat << a
                       << " " << b;
      }
    }
  CHECK(bad == 0) << bad << " f64 mismatches";
  // Directed results bracket the nearest one, one ulp apart at most.
  FloatInstr dn = dec({"div", "rm", "f64"}), up = dec({"div", "rp", "f64"});
  for (int i = 0; i < 1000; ++i) {
    double a = 1 + double(rng() % 1000000), b = 3 + double(rng() % 999);
    double lo = u2d(evalFloat(dn, {d2u(a), d2u(b)}).bits);
    double hi = u2d(evalFloat(up, {d2u(a), d2u(b)}).bits);
    double rem = std::fma(-lo, b, a); // a - lo*b, exact
    CHECK(lo <= a / b && a / b <= hi && rem >= 0);
    CHECK(rem == 0 ? lo == hi : std::nextafter(lo, kInf) == hi);
  }
}

//===----------------------------------------------------------------------===//
// f16 / bf16 arithmetic: bracketing search over every value of the format
//===----------------------------------------------------------------------===//

struct Table {
  FType type;
  std::vector<std::pair<double, uint32_t>> vals; // sorted finite, no -0
  double beyond;                                 // next power past max
};

Table makeTable(FType t) {
  Table tab{t, {}, 0};
  for (uint32_t c = 0; c < 0x10000; ++c) {
    double v =
        t == FType::F16 ? double(u2h(uint16_t(c))) : double(u2f(c << 16));
    if (!std::isfinite(v) || (v == 0 && std::signbit(v)))
      continue;
    tab.vals.push_back({v, c});
  }
  std::sort(tab.vals.begin(), tab.vals.end());
  double mx = tab.vals.back().first;
  int e;
  std::frexp(mx, &e);
  tab.beyond = std::ldexp(1.0, e);
  return tab;
}

/// The value `cmp` (sign of v - exact) brackets, rounded with `mode`.
/// Returns inf for overflow.
template <typename Cmp>
double refRound(const Table &tab, Cmp cmp, Rounding mode) {
  const auto &v = tab.vals;
  // Lowest index with v >= exact.
  size_t lo = 0, hi = v.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cmp(v[mid].first) >= 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  double up, down;
  uint32_t downCode = 0;
  if (lo == v.size()) { // above max
    up = tab.beyond;
    down = v.back().first;
    downCode = v.back().second;
  } else {
    up = v[lo].first;
    if (cmp(up) == 0)
      return up;
    if (lo == 0) {
      down = -tab.beyond;
      downCode = 0;
    } else {
      down = v[lo - 1].first;
      downCode = v[lo - 1].second;
    }
  }
  double r;
  switch (mode) {
  case Rounding::RZ:
    r = down >= 0 ? down : up;
    break;
  case Rounding::RM:
    r = down;
    break;
  case Rounding::RP:
    r = up;
    break;
  default: {
    int m = cmp((down + up) / 2); // sign of midpoint - exact
    if (m > 0)
      r = down;
    else if (m < 0)
      r = up;
    else
      r = (downCode & 1) ? up : down;
    break;
  }
  }
  if (std::fabs(r) == tab.beyond)
    return std::copysign(kInf, r);
  return r;
}

int sgnD(double d) { return d > 0 ? 1 : d < 0 ? -1 : 0; }

TEST(FloatOpsHalfArith) {
  std::mt19937_64 rng(41);
  for (FType t : {FType::F16, FType::BF16}) {
    Table tab = makeTable(t);
    const char *tn = t == FType::F16 ? "f16" : "bf16";
    auto randomCode = [&]() -> uint32_t {
      if (t == FType::F16) {
        uint32_t c;
        do
          c = uint32_t(rng() & 0xffff);
        while ((c & 0x7c00) == 0x7c00);
        return c;
      }
      // bf16 with exponent in [-10, 10] so the checks below stay exact.
      uint32_t e = uint32_t(127 - 10 + rng() % 21);
      return uint32_t(rng() & 0x8000) | e << 7 | uint32_t(rng() & 0x7f);
    };
    auto val = [&](uint32_t c) { return decodeElement(t, c); };
    unsigned bad = 0;
    for (const char *op : {"add", "sub", "mul", "fma"}) {
      std::string o = op;
      for (Rounding m :
           {Rounding::RN, Rounding::RZ, Rounding::RM, Rounding::RP}) {
        FloatInstr in = dec({op, modeName(m), tn});
        for (int i = 0; i < 4000; ++i) {
          uint32_t ca = randomCode(), cb = randomCode(), cc = randomCode();
          double a = val(ca), b = val(cb), c = val(cc);
          std::function<int(double)> cmp;
          double exactZero;
          if (o == "add" || o == "sub") {
            double bb = o == "add" ? b : -b;
            cmp = [=](double v) { return sgnD((v - a) - bb); };
            exactZero = a + bb;
          } else if (o == "mul") {
            cmp = [=](double v) { return sgnD(v - a * b); };
            exactZero = a * b;
          } else {
            cmp = [=](double v) { return sgnD((v - c) - a * b); };
            exactZero = a * b + c;
          }
          if (exactZero == 0)
            continue; // zero signs are checked separately
          double want = refRound(tab, cmp, m);
          double got = val(evalFloat(in, {ca, cb, cc}).bits);
          if (got != want && ++bad < 20)
            CHECK(false) << o << "." << modeName(m) << "." << tn << " a=" << a
                         << " b=" << b << " c=" << c << " got " << got
                         << " want " << want;
        }
      }
    }
    CHECK(bad == 0) << bad << " " << tn << " mismatches";
    // Packed: lane 0 is the low half.
    FloatInstr x2 = dec({"mul", "rn", t == FType::F16 ? "f16x2" : "bf16x2"});
    uint32_t two = t == FType::F16 ? 0x4000 : 0x4000; // 2.0 in both
    uint32_t three = t == FType::F16 ? 0x4200 : 0x4040;
    uint32_t six = t == FType::F16 ? 0x4600 : 0x40c0;
    uint32_t four = t == FType::F16 ? 0x4400 : 0x4080;
    CHECK(evalFloat(x2, {three << 16 | two, two << 16 | two}).bits ==
          (six << 16 | four))
        << tn;
  }
  // fma of f16 rounds once: 2048 * 1 + 1 = 2049 is a tie between 2048 and
  // 2050 (to even: 2048); 1 * 2050 - (1 - 2^-10) lies just above it: 2050.
  CHECK(run({"fma", "rn", "f16"}, {h2u((_Float16)2048.0f), h2u((_Float16)1.0f),
                                   h2u((_Float16)1.0f)}) ==
        h2u((_Float16)2048.0f));
  CHECK(run({"fma", "rn", "f16"}, {h2u((_Float16)1.0f), h2u((_Float16)2050.0f),
                                   h2u((_Float16)-0.9990234375f)}) ==
        h2u((_Float16)2050.0f));
  CHECK(run({"fma", "rz", "f16"}, {h2u((_Float16)1.0f), h2u((_Float16)2050.0f),
                                   h2u((_Float16)-0.9990234375f)}) ==
        h2u((_Float16)2048.0f));
}

//===----------------------------------------------------------------------===//
// cvt
//===----------------------------------------------------------------------===//

TEST(FloatOpsCvtPacked) {
  // e4m3: 1.0 = 0.0111.000, -2.0 = 1.1000.000; a -> upper byte.
  CHECK(run({"cvt", "rn", "satfinite", "e4m3x2", "f32"},
            {f2u(1.0f), f2u(-2.0f)}) == 0x38c0);
  // e5m2: 1.0 = 0.01111.00, 57344*2 saturates to 0.11110.11.
  CHECK(run({"cvt", "rn", "satfinite", "e5m2x2", "f32"},
            {f2u(1.0f), f2u(1e6f)}) == 0x3c7b);
  CHECK(run({"cvt", "rn", "satfinite", "relu", "e4m3x2", "f32"},
            {f2u(-1.0f), f2u(448.0f)}) == 0x007e);
  // e2m1x2 in 8 bits: 6.0 = 0.11.1, -0.5 = 1.00.1.
  CHECK(run({"cvt", "rn", "satfinite", "e2m1x2", "f32"},
            {f2u(6.0f), f2u(-0.5f)}) == 0x79);
  CHECK(run({"cvt", "rn", "satfinite", "e2m1x2", "f32"},
            {f2u(NAN), f2u(100.0f)}) == 0x77);
  // e2m3x2 / e3m2x2: 6-bit codes in 8-bit slots.
  CHECK(run({"cvt", "rn", "satfinite", "e2m3x2", "f32"},
            {f2u(7.5f), f2u(-1.0f)}) == 0x1f28);
  CHECK(run({"cvt", "rn", "satfinite", "e3m2x2", "f32"},
            {f2u(28.0f), f2u(0.25f)}) == 0x1f04);
  // ue8m0x2: rz/rp of 3.0 = 2^1.58.
  CHECK(run({"cvt", "rz", "satfinite", "ue8m0x2", "f32"},
            {f2u(1.0f), f2u(3.0f)}) == 0x7f80);
  CHECK(run({"cvt", "rp", "satfinite", "ue8m0x2", "f32"},
            {f2u(1.0f), f2u(3.0f)}) == 0x7f81);
  CHECK(run({"cvt", "rz", "satfinite", "ue8m0x2", "bf16x2"}, {0x3f804040u}) ==
        0x7f80);
  // Up-conversions: upper code -> upper half.
  CHECK(run({"cvt", "rn", "f16x2", "e4m3x2"}, {0x38c0}) == 0x3c00c000u);
  CHECK(run({"cvt", "rn", "f16x2", "e5m2x2"}, {0x3c7b}) == 0x3c007b00u);
  CHECK(run({"cvt", "rn", "f16x2", "e2m1x2"}, {0x79}) == 0x4600b800u);
  CHECK(run({"cvt", "rn", "relu", "f16x2", "e2m1x2"}, {0x79}) == 0x46000000u);
  CHECK(run({"cvt", "rn", "f16x2", "e2m3x2"}, {0x1f28}) == 0x4780bc00u);
  CHECK(run({"cvt", "rn", "bf16x2", "ue8m0x2"}, {0x7f80}) == 0x3f804000u);
  // f16x2 -> e4m3x2: upper half -> upper byte.
  CHECK(run({"cvt", "rn", "satfinite", "e4m3x2", "f16x2"}, {0x3c00c000u}) ==
        0x38c0);
  // Round trips of every e4m3/e5m2 pair code through f16x2.
  for (uint32_t c = 0; c < 0x10000; c += 257) {
    uint32_t lo = c & 0xff, hi = c >> 8;
    for (FType t : {FType::E4M3, FType::E5M2}) {
      const char *n = t == FType::E4M3 ? "e4m3x2" : "e5m2x2";
      uint32_t f16 = uint32_t(run({"cvt", "rn", "f16x2", n}, {c}));
      double vlo = decodeElement(t, lo), vhi = decodeElement(t, hi);
      CHECK(sameValue(decodeElement(FType::F16, f16 & 0xffff), vlo) ||
            (std::isnan(vlo) && (f16 & 0x7fff) > 0x7c00))
          << n << " " << c;
      CHECK(sameValue(decodeElement(FType::F16, f16 >> 16), vhi) ||
            (std::isnan(vhi) && (f16 >> 16 & 0x7fff) > 0x7c00))
          << n << " " << c;
    }
  }
}

TEST(FloatOpsCvtInt) {
  auto s32 = [](const char *rnd, float f) {
    return int32_t(uint32_t(run({"cvt", rnd, "s32", "f32"}, {f2u(f)})));
  };
  CHECK(s32("rni", 2.5f) == 2);
  CHECK(s32("rni", 3.5f) == 4);
  CHECK(s32("rni", -2.5f) == -2);
  CHECK(s32("rzi", -2.7f) == -2);
  CHECK(s32("rmi", -2.2f) == -3);
  CHECK(s32("rpi", 2.2f) == 3);
  CHECK(s32("rzi", 3e9f) == 2147483647);
  CHECK(s32("rzi", -3e9f) == int32_t(0x80000000u));
  CHECK(s32("rzi", INFINITY) == 2147483647);
  CHECK(s32("rzi", NAN) == 0);
  CHECK(run({"cvt", "rzi", "u32", "f32"}, {f2u(-5.0f)}) == 0);
  CHECK(run({"cvt", "rzi", "u32", "f32"}, {f2u(5e9f)}) == 0xffffffffu);
  CHECK(run({"cvt", "rzi", "u8", "f32"}, {f2u(300.0f)}) == 255);
  CHECK(run({"cvt", "rzi", "s8", "f32"}, {f2u(-5.0f)}) ==
        0xfffffffffffffffbull);
  CHECK(run({"cvt", "rzi", "s8", "f32"}, {f2u(-500.0f)}) ==
        0xffffffffffffff80ull);
  // NaN: 0 unless the source is f64 or the destination 64-bit.
  CHECK(run({"cvt", "rzi", "s32", "f64"}, {d2u(kNaN)}) ==
        0xffffffff80000000ull);
  CHECK(run({"cvt", "rzi", "u32", "f64"}, {d2u(kNaN)}) == 0x80000000ull);
  CHECK(run({"cvt", "rzi", "s64", "f32"}, {f2u(NAN)}) == 0x8000000000000000ull);
  CHECK(run({"cvt", "rzi", "s64", "f64"}, {d2u(1e300)}) ==
        0x7fffffffffffffffull);
  CHECK(run({"cvt", "rni", "s32", "f16"}, {h2u((_Float16)-7.5f)}) ==
        0xfffffffffffffff8ull);
  // int -> float with the four roundings.
  CHECK(run({"cvt", "rn", "f32", "u64"}, {~0ull}) == 0x5f800000u);
  CHECK(run({"cvt", "rz", "f32", "u64"}, {~0ull}) == 0x5f7fffffu);
  CHECK(run({"cvt", "rn", "f32", "s32"}, {0xffffffffu}) == 0xbf800000u);
  CHECK(run({"cvt", "rm", "f32", "s32"}, {uint64_t(-16777217) & 0xffffffff}) ==
        f2u(-16777218.0f));
  CHECK(run({"cvt", "rp", "f32", "s32"}, {uint64_t(-16777217) & 0xffffffff}) ==
        f2u(-16777216.0f));
  CHECK(run({"cvt", "rn", "f16", "u32"}, {70000}) == 0x7c00);
  CHECK(run({"cvt", "rz", "f16", "u32"}, {70000}) == 0x7bff);
  CHECK(run({"cvt", "rn", "f64", "s64"}, {0x8000000000000000ull}) ==
        d2u(-0x1p63));
  // Round to integral in float format.
  CHECK(run({"cvt", "rni", "f32", "f32"}, {f2u(-2.5f)}) == f2u(-2.0f));
  CHECK(run({"cvt", "rmi", "f32", "f32"}, {f2u(-0.5f)}) == f2u(-1.0f));
  CHECK(run({"cvt", "rzi", "f32", "f32"}, {f2u(-0.5f)}) == 0x80000000u);
  // Float -> float: widening exact, ftz, sat.
  CHECK(run({"cvt", "f32", "f16"}, {0x0001}) == f2u(0x1p-24f));
  CHECK(run({"cvt", "ftz", "f32", "f32"}, {0x80000001u}) == 0x80000000u);
  CHECK(run({"cvt", "rn", "ftz", "f16", "f32"}, {0x00000001u}) == 0);
  CHECK(run({"cvt", "sat", "f32", "f32"}, {f2u(NAN)}) == 0);
  CHECK(run({"cvt", "sat", "f32", "f32"}, {f2u(1.5f)}) == f2u(1.0f));
  CHECK(run({"cvt", "rn", "f32", "f64"}, {d2u(1.0 + 0x1p-24)}) == f2u(1.0f));
  CHECK(run({"cvt", "rp", "f32", "f64"}, {d2u(1.0 + 0x1p-40)}) ==
        f2u(1.0f + 0x1p-23f));
  CHECK(run({"cvt", "rn", "bf16", "f16"}, {0x3c01}) == 0x3f80);
}

//===----------------------------------------------------------------------===//
// setp, testp, min/max, neg/abs/copysign
//===----------------------------------------------------------------------===//

TEST(FloatOpsSetp) {
  struct Case {
    float a, b;
  };
  const Case cases[] = {{1, 2},   {2, 1},   {1, 1},
                        {NAN, 1}, {1, NAN}, {-0.0f, 0.0f}};
  const char *names[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                         "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  for (const Case &c : cases) {
    bool un = std::isnan(c.a) || std::isnan(c.b);
    bool lt = !un && c.a < c.b, gt = !un && c.a > c.b, eq = !un && c.a == c.b;
    bool want[] = {
        eq,       !un && !eq,     lt,        lt || eq, gt,
        gt || eq, un || eq,       un || !eq, un || lt, un || lt || eq,
        un || gt, un || gt || eq, !un,       un};
    for (int i = 0; i < 14; ++i) {
      FloatResult r =
          evalFloat(dec({"setp", names[i], "f32"}), {f2u(c.a), f2u(c.b)});
      CHECK(r.pred == want[i] && r.bits == want[i] && r.pred2 == !want[i])
          << names[i] << " " << c.a << " " << c.b;
    }
  }
  // .and/.or/.xor with c; q combines !cmp with c.
  for (bool cval : {false, true}) {
    FloatResult r =
        evalFloat(dec({"setp", "lt", "and", "f32"}), {f2u(1), f2u(2), cval});
    CHECK(r.pred == cval && r.pred2 == false);
    r = evalFloat(dec({"setp", "lt", "or", "f32"}), {f2u(3), f2u(2), cval});
    CHECK(r.pred == cval && r.pred2 == true);
    r = evalFloat(dec({"setp", "lt", "xor", "f32"}), {f2u(1), f2u(2), cval});
    CHECK(r.pred == !cval && r.pred2 == cval);
  }
  // .ftz: a subnormal equals zero.
  CHECK(evalFloat(dec({"setp", "eq", "ftz", "f32"}), {1, 0}).pred);
  CHECK(!evalFloat(dec({"setp", "eq", "f32"}), {1, 0}).pred);
  // f64, f16, bf16 and f16x2 (two predicates).
  CHECK(evalFloat(dec({"setp", "gtu", "f64"}), {d2u(kNaN), d2u(1)}).pred);
  CHECK(evalFloat(dec({"setp", "lt", "f16"}), {0xbc00, 0x3c00}).pred);
  CHECK(evalFloat(dec({"setp", "lt", "bf16"}), {0x3f80, 0xbf80}).pred == false);
  FloatResult x2 =
      evalFloat(dec({"setp", "lt", "f16x2"}), {0x3c00bc00u, 0x3c003c00u});
  CHECK(x2.pred && !x2.pred2);
}

TEST(FloatOpsTestp) {
  struct Case {
    uint32_t bits;
    bool finite, infinite, number, nan, normal, subnormal;
  };
  const Case cases[] = {
      {f2u(1.0f), true, false, true, false, true, false},
      {0, true, false, true, false, false, false},
      {0x80000001u, true, false, true, false, false, true},
      {0x7f800000u, false, true, true, false, false, false},
      {0x7fc00001u, false, false, false, true, false, false},
  };
  const char *ops[] = {"finite",     "infinite", "number",
                       "notanumber", "normal",   "subnormal"};
  for (const Case &c : cases) {
    bool want[] = {c.finite, c.infinite, c.number,
                   c.nan,    c.normal,   c.subnormal};
    for (int i = 0; i < 6; ++i)
      CHECK(evalFloat(dec({"testp", ops[i], "f32"}), {c.bits}).pred == want[i])
          << ops[i] << " " << std::hex << c.bits;
  }
  CHECK(evalFloat(dec({"testp", "subnormal", "f64"}), {1}).pred);
  CHECK(evalFloat(dec({"testp", "subnormal", "f32"}), {f2u(1e-40f)}).pred);
}

TEST(FloatOpsMinMax) {
  uint32_t one = f2u(1), two = f2u(2), nan = 0x7fc12345u;
  CHECK(run({"min", "f32"}, {one, nan}) == one);
  CHECK(run({"max", "f32"}, {nan, two}) == two);
  CHECK(run({"max", "f32"}, {nan, nan}) == 0x7fffffffu);
  CHECK(run({"min", "NaN", "f32"}, {one, nan}) == 0x7fffffffu);
  CHECK(run({"max", "NaN", "f32"}, {one, two}) == two);
  CHECK(run({"min", "f32"}, {f2u(0.0f), f2u(-0.0f)}) == 0x80000000u);
  CHECK(run({"max", "f32"}, {f2u(-0.0f), f2u(0.0f)}) == 0);
  CHECK(run({"min", "f64"}, {d2u(3), d2u(-4)}) == d2u(-4));
  CHECK(run({"max", "ftz", "f32"}, {0x00000005u, 0x80000000u}) == 0);
  CHECK(run({"max", "f32"}, {0x00000005u, 0x80000000u}) == 5);
  // .xorsign.abs: |max| with the xor of the signs.
  CHECK(run({"max", "xorsign", "abs", "f32"}, {f2u(-3), f2u(2)}) == f2u(-3));
  CHECK(run({"min", "xorsign", "abs", "f32"}, {f2u(-3), f2u(-2)}) == f2u(2));
  // Three inputs.
  CHECK(run({"max", "f32"}, {one, f2u(5), two}) == f2u(5));
  CHECK(run({"min", "f32"}, {one, f2u(5), f2u(-7)}) == f2u(-7));
  // f16x2 lanes; bf16.
  CHECK(run({"max", "f16x2"}, {0x3c00bc00u, 0xbc004000u}) == 0x3c004000u);
  CHECK(run({"min", "bf16"}, {0x3f80, 0x7fc1}) == 0x3f80);
  // neg / abs / copysign are bit operations.
  CHECK(run({"neg", "f32"}, {one}) == f2u(-1));
  CHECK(run({"abs", "f32"}, {f2u(-0.0f)}) == 0);
  CHECK(run({"neg", "ftz", "f32"}, {1}) == 0x80000000u);
  CHECK(run({"abs", "f16x2"}, {0xbc00bc00u}) == 0x3c003c00u);
  CHECK(run({"neg", "f64"}, {d2u(2)}) == d2u(-2));
  // copysign d, a, b: b's magnitude, a's sign.
  CHECK(run({"copysign", "f32"}, {f2u(-1), f2u(2)}) == f2u(-2));
  CHECK(run({"copysign", "f64"}, {d2u(1), d2u(-2)}) == d2u(2));
}

//===----------------------------------------------------------------------===//
// .approx: the nearest value of the exact function
//===----------------------------------------------------------------------===//

int64_t ulpDiff(float a, float b) {
  auto key = [](float f) {
    int32_t i = int32_t(f2u(f));
    return i < 0 ? int64_t(INT32_MIN) - i : int64_t(i);
  };
  return std::llabs(key(a) - key(b));
}

int64_t ulpDiff16(uint16_t a, uint16_t b) {
  auto key = [](uint16_t u) {
    return u & 0x8000 ? -int64_t(u & 0x7fff) : int64_t(u);
  };
  return std::llabs(key(a) - key(b));
}

TEST(FloatOpsApprox) {
  std::mt19937_64 rng(51);
  std::uniform_real_distribution<float> wide(-40, 40), pos(1e-3f, 1e4f);
  for (int i = 0; i < 5000; ++i) {
    float x = wide(rng), p = pos(rng);
    struct Op {
      const char *name;
      float in;
      float want;
    };
    const Op ops[] = {
        {"ex2", x, std::exp2(x)}, {"tanh", x, std::tanh(x)},
        {"sin", x, std::sin(x)},  {"cos", x, std::cos(x)},
        {"lg2", p, std::log2(p)}, {"rsqrt", p, 1.0f / std::sqrt(p)},
        {"rcp", x, 1.0f / x},     {"sqrt", p, std::sqrt(p)},
    };
    for (const Op &o : ops) {
      float got = u2f(uint32_t(run({o.name, "approx", "f32"}, {f2u(o.in)})));
      CHECK(ulpDiff(got, o.want) <= 1)
          << o.name << "(" << o.in << ") = " << got << " want " << o.want;
    }
    float q = u2f(uint32_t(run({"div", "full", "f32"}, {f2u(x), f2u(p)})));
    CHECK(ulpDiff(q, x / p) <= 1);
  }
  // f16 / bf16 ex2 and tanh, packed.
  for (uint32_t c = 0; c < 0x10000; c += 97) {
    double x = decodeElement(FType::F16, c);
    if (!std::isfinite(x))
      continue;
    uint32_t ex = uint32_t(run({"ex2", "approx", "f16x2"}, {c << 16 | c}));
    volatile double e2 = std::exp2(x);
    _Float16 w = (_Float16)e2;
    CHECK((ex & 0xffff) == (ex >> 16));
    CHECK(ulpDiff16(uint16_t(ex), h2u(w)) <= 1) << "ex2 f16 " << x;
    uint32_t th = uint32_t(run({"tanh", "approx", "f16"}, {c}));
    CHECK(std::fabs(double(u2h(uint16_t(th))) - std::tanh(x)) <= 0x1p-11)
        << "tanh f16 " << x;
  }
  CHECK(run({"ex2", "approx", "ftz", "bf16x2"}, {0x3f80c000u}) ==
        (0x4000u << 16 | 0x3e80u)); // 2^1 = 2, 2^-2 = 0.25
  // Corner cases from the ISA's tables.
  CHECK(run({"ex2", "approx", "f32"}, {f2u(-INFINITY)}) == 0);
  CHECK(run({"ex2", "approx", "f32"}, {f2u(-0.0f)}) == f2u(1));
  CHECK(run({"lg2", "approx", "f32"}, {f2u(-1)}) == 0x7fffffffu);
  CHECK(run({"lg2", "approx", "f32"}, {f2u(-0.0f)}) == f2u(-INFINITY));
  CHECK(run({"tanh", "approx", "f32"}, {f2u(INFINITY)}) == f2u(1));
  CHECK(run({"tanh", "approx", "f32"}, {1}) == 1); // subnormal passes
  CHECK(run({"sin", "approx", "f32"}, {f2u(INFINITY)}) == 0x7fffffffu);
  CHECK(run({"sin", "approx", "f32"}, {f2u(-0.0f)}) == 0x80000000u);
  CHECK(run({"cos", "approx", "f32"}, {f2u(-0.0f)}) == f2u(1));
  CHECK(run({"rsqrt", "approx", "f32"}, {f2u(-0.0f)}) == f2u(-INFINITY));
  CHECK(run({"rcp", "approx", "f32"}, {f2u(-0.0f)}) == f2u(-INFINITY));
  // .ftz flushes a subnormal result (2^-130) and a subnormal input.
  CHECK(run({"ex2", "approx", "f32"}, {f2u(-130)}) == f2u(0x1p-130f));
  CHECK(run({"ex2", "approx", "ftz", "f32"}, {f2u(-130)}) == 0);
  CHECK(run({"lg2", "approx", "ftz", "f32"}, {1}) == f2u(-INFINITY));
  // div.approx: 0 for 2^126 < |b| < 2^128, NaN when a is infinite.
  CHECK(run({"div", "approx", "f32"}, {f2u(1), f2u(0x1p127f)}) == 0);
  CHECK(run({"div", "approx", "f32"}, {f2u(INFINITY), f2u(0x1p127f)}) ==
        0x7fffffffu);
  CHECK(run({"div", "approx", "f32"}, {f2u(3), f2u(4)}) == f2u(0.75f));
  // rcp.approx.ftz.f64: 1.11.20 recipe, low word zero.
  uint64_t r = run({"rcp", "approx", "ftz", "f64"}, {d2u(3.0)});
  CHECK((r & 0xffffffffu) == 0);
  CHECK(std::fabs(u2d(r) - 1.0 / 3) <= 0x1p-21 / 3);
  CHECK(run({"rcp", "approx", "ftz", "f64"}, {d2u(kNaN)}) ==
        0x7fffffff00000000ull);
  CHECK(run({"rcp", "approx", "ftz", "f64"}, {1}) == d2u(kInf));
  uint64_t rs = run({"rsqrt", "approx", "ftz", "f64"}, {d2u(4.0)});
  CHECK(rs == d2u(0.5));
  CHECK(std::fabs(u2d(run({"rsqrt", "approx", "f64"}, {d2u(2.0)})) -
                  1 / std::sqrt(2.0)) <= 0x1p-53);
}

//===----------------------------------------------------------------------===//
// The decoder
//===----------------------------------------------------------------------===//

TEST(FloatOpsDecode) {
  auto none = [](std::vector<std::string> p) {
    std::string err;
    bool absent = !decodeFloat(p, &err).has_value();
    return absent && err.empty();
  };
  auto refused = [](std::vector<std::string> p) {
    std::string err;
    bool absent = !decodeFloat(p, &err).has_value();
    return absent && !err.empty();
  };
  // Integer instructions and unknown opcodes are the engine's.
  CHECK(none({"add", "s32"}));
  CHECK(none({"cvt", "u64", "u32"}));
  CHECK(none({"setp", "eq", "b32"}));
  CHECK(none({"mad", "lo", "s32"}));
  CHECK(none({"ld", "global", "f32"}));
  CHECK(none({"mov", "f32"}));
  CHECK(none({"max", "relu", "s32"}));
  // Floating point with what this module does not do: a message.
  CHECK(refused({"cvt", "rs", "f16x2", "f32"}));
  CHECK(refused({"cvt", "rn", "e4m3x2", "f32"})); // .satfinite is mandatory
  CHECK(refused({"cvt", "s32", "f32"}));          // integer rounding needed
  CHECK(refused({"div", "f32"}));
  CHECK(refused({"fma", "rn", "oob", "f16"}));
  CHECK(refused({"sin", "approx", "f64"}));
  CHECK(refused({"ex2", "approx", "bf16"})); // .ftz required
  CHECK(refused({"sqrt", "f32"}));
  CHECK(refused({"min", "xorsign", "f32"}));
  CHECK(refused({"add", "ftz", "f64"}));
  CHECK(refused({"sqrt", "rn", "s32"}));
  std::string err;
  decodeFloat({"add", "wat", "f32"}, &err);
  CHECK(err.find("wat") != std::string::npos) << err;
  // Fields.
  FloatInstr a = dec({"fma", "rn", "ftz", "f32"});
  CHECK(a.op == FOp::Fma && a.rounding == Rounding::RN && a.ftz &&
        a.type == FType::F32 && a.lanes == 1 && a.numSrcs() == 3);
  FloatInstr b = dec({"cvt", "rn", "bf16x2", "f32"});
  CHECK(b.op == FOp::Cvt && b.type == FType::BF16 && b.lanes == 2 &&
        b.srcType == FType::F32 && b.srcLanes == 1 && b.numSrcs() == 2);
  FloatInstr c = dec({"setp", "gtu", "and", "ftz", "f32"});
  CHECK(c.cmp == CmpOp::Gtu && c.boolOp == BoolOp::And && c.ftz &&
        c.numSrcs() == 3);
  FloatInstr d = dec({"cvt", "rzi", "s32", "f32"});
  CHECK(d.dstInt == IntType::S32 && d.rounding == Rounding::RZI);
  FloatInstr e = dec({"mad", "rn", "f32"});
  CHECK(e.op == FOp::Fma);
  FloatInstr f = dec({"mul", "rn", "f32x2"});
  CHECK(f.lanes == 2 && f.type == FType::F32);
  dec({"max", "NaN", "f32"});
  dec({"testp", "finite", "f32"});
  dec({"copysign", "f32"});
  dec({"ex2", "approx", "ftz", "f32"});
  dec({"cvt", "rn", "satfinite", "e4m3x2", "f32"});
  dec({"cvt", "rn", "satfinite", "relu", "e2m1x2", "f32"});
  dec({"cvt", "rn", "relu", "f16x2", "e2m1x2"});
  dec({"cvt", "rn", "bf16x2", "ue8m0x2"});
  dec({"cvt", "rp", "ue8m0x2", "f32"});
  dec({"cvt", "rn", "satfinite", "tf32", "f32"});
  dec({"rcp", "approx", "ftz", "f64"});
}

} // namespace
