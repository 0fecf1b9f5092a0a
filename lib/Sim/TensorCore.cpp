//===- TensorCore.cpp - data model of the tensor cores and TMEM -----------===//
//
// See TensorCore.h for the layouts and the summation model.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Sim/TensorCore.h"
#include "pipeline/Sim/Swizzle.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <optional>

using namespace llvm;
using namespace pmlir::sim;

//===----------------------------------------------------------------------===//
// Element decode / encode (local: independent of FloatOps)
//===----------------------------------------------------------------------===//

namespace {

/// A binary floating-point format with `e` exponent and `m` mantissa bits.
/// `ieee`: the all-ones exponent means Inf/NaN; otherwise `nanAllOnes`
/// says whether the all-ones pattern (exponent and mantissa) is NaN (E4M3).
double decodeMini(uint64_t bits, unsigned e, unsigned m, bool ieee,
                  bool nanAllOnes) {
  unsigned bias = (1u << (e - 1)) - 1;
  bool neg = (bits >> (e + m)) & 1;
  uint64_t exp = (bits >> m) & ((1u << e) - 1);
  uint64_t man = bits & ((uint64_t(1) << m) - 1);
  double v;
  if (ieee && exp == (1u << e) - 1)
    v = man ? NAN : INFINITY;
  else if (nanAllOnes && exp == (1u << e) - 1 && man == (1u << m) - 1)
    v = NAN;
  else if (exp == 0)
    v = std::ldexp(double(man), 1 - int(bias) - int(m));
  else
    v = std::ldexp(double(man | (uint64_t(1) << m)), int(exp) - int(bias) - m);
  return neg ? -v : v;
}

/// Rounds `v` to nearest-even into an IEEE-style format (e, m) with Inf.
uint64_t encodeIeee(double v, unsigned e, unsigned m) {
  unsigned bias = (1u << (e - 1)) - 1;
  uint64_t sign = std::signbit(v) ? uint64_t(1) << (e + m) : 0;
  uint64_t expMask = (1u << e) - 1;
  if (std::isnan(v))
    return sign | (expMask << m) | (uint64_t(1) << (m - 1));
  double a = std::fabs(v);
  if (std::isinf(a))
    return sign | (expMask << m);
  if (a == 0)
    return sign;
  int exp;
  std::frexp(a, &exp); // a = f * 2^exp, f in [0.5, 1)
  int unbiased = exp - 1;
  int minNormal = 1 - int(bias);
  int scaleExp = std::max(unbiased, minNormal) - int(m);
  // Scaled integer significand, rounded to nearest even.
  double scaled = std::ldexp(a, -scaleExp);
  double r = std::nearbyint(scaled); // default rounding: nearest even
  uint64_t sig = uint64_t(r);
  if (sig >> (m + 1)) { // rounding carried into a new binade
    sig >>= 1;
    ++scaleExp;
  }
  int biased = scaleExp + int(m) + int(bias);
  if (sig < (uint64_t(1) << m))
    biased = 0; // subnormal
  if (biased >= int(expMask))
    return sign | (expMask << m);
  return sign | (uint64_t(biased) << m) | (sig & ((uint64_t(1) << m) - 1));
}

uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
float bitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

} // namespace

double pmlir::sim::decodeMmaElement(MmaType type, uint64_t bits) {
  switch (type) {
  case MmaType::F16:
    return decodeMini(bits & 0xffff, 5, 10, true, false);
  case MmaType::BF16:
    return bitsFloat(uint32_t(bits & 0xffff) << 16);
  case MmaType::TF32: // the low 13 mantissa bits are ignored
    return bitsFloat(uint32_t(bits) & 0xffffe000u);
  case MmaType::F32:
    return bitsFloat(uint32_t(bits));
  case MmaType::E4M3:
    return decodeMini(bits & 0xff, 4, 3, false, true);
  case MmaType::E5M2:
    return decodeMini(bits & 0xff, 5, 2, true, false);
  case MmaType::E2M3:
    return decodeMini(bits & 0x3f, 2, 3, false, false);
  case MmaType::E3M2:
    return decodeMini(bits & 0x3f, 3, 2, false, false);
  case MmaType::E2M1:
    return decodeMini(bits & 0xf, 2, 1, false, false);
  case MmaType::S8:
    return double(int8_t(uint8_t(bits)));
  case MmaType::U8:
    return double(uint8_t(bits));
  case MmaType::Invalid:
    break;
  }
  return NAN;
}

uint64_t pmlir::sim::encodeMmaElement(MmaType type, double value) {
  switch (type) {
  case MmaType::F16:
    return encodeIeee(value, 5, 10);
  case MmaType::F32:
  case MmaType::TF32:
    return floatBits(float(value));
  case MmaType::BF16:
    return encodeIeee(value, 8, 7);
  default:
    return 0; // narrow formats are inputs only here
  }
}

unsigned pmlir::sim::mmaTypeBits(MmaType type) {
  switch (type) {
  case MmaType::F16:
  case MmaType::BF16:
    return 16;
  case MmaType::TF32:
  case MmaType::F32:
    return 32;
  case MmaType::E4M3:
  case MmaType::E5M2:
  case MmaType::S8:
  case MmaType::U8:
    return 8;
  case MmaType::E2M3:
  case MmaType::E3M2:
    return 6;
  case MmaType::E2M1:
    return 4;
  case MmaType::Invalid:
    break;
  }
  return 0;
}

static MmaType parseType(StringRef s) {
  return StringSwitch<MmaType>(s)
      .Case("f16", MmaType::F16)
      .Case("bf16", MmaType::BF16)
      .Case("tf32", MmaType::TF32)
      .Case("f32", MmaType::F32)
      .Case("e4m3", MmaType::E4M3)
      .Case("e5m2", MmaType::E5M2)
      .Default(MmaType::Invalid);
}

//===----------------------------------------------------------------------===//
// Descriptors and canonical layouts
//===----------------------------------------------------------------------===//

static uint64_t field(uint64_t v, unsigned lo, unsigned width) {
  return (v >> lo) & ((uint64_t(1) << width) - 1);
}

SmemDescriptor pmlir::sim::decodeWgmmaDescriptor(uint64_t desc) {
  SmemDescriptor d;
  d.startAddress = uint32_t(field(desc, 0, 14) << 4);
  d.leadingByteOffset = uint32_t(field(desc, 16, 14) << 4);
  d.strideByteOffset = uint32_t(field(desc, 32, 14) << 4);
  d.baseOffset = unsigned(field(desc, 49, 3));
  static const unsigned swz[4] = {0, 128, 64, 32};
  d.swizzleBytes = swz[field(desc, 62, 2)];
  return d;
}

uint64_t pmlir::sim::encodeWgmmaDescriptor(const SmemDescriptor &d) {
  uint64_t mode = d.swizzleBytes == 128  ? 1
                  : d.swizzleBytes == 64 ? 2
                  : d.swizzleBytes == 32 ? 3
                                         : 0;
  return uint64_t((d.startAddress >> 4) & 0x3fff) |
         uint64_t((d.leadingByteOffset >> 4) & 0x3fff) << 16 |
         uint64_t((d.strideByteOffset >> 4) & 0x3fff) << 32 |
         uint64_t(d.baseOffset & 7) << 49 | mode << 62;
}

SmemDescriptor pmlir::sim::decodeUmmaDescriptor(uint64_t desc,
                                                std::string *error) {
  SmemDescriptor d;
  d.startAddress = uint32_t(field(desc, 0, 14) << 4);
  d.leadingByteOffset = uint32_t(field(desc, 16, 14) << 4);
  d.strideByteOffset = uint32_t(field(desc, 32, 14) << 4);
  d.version = unsigned(field(desc, 46, 2));
  d.baseOffset = unsigned(field(desc, 49, 3));
  d.lboAbsolute = field(desc, 52, 1);
  switch (field(desc, 61, 3)) {
  case 0:
    d.swizzleBytes = 0;
    break;
  case 1:
    d.swizzleBytes = 128;
    d.swizzle128Base32 = true;
    break;
  case 2:
    d.swizzleBytes = 128;
    break;
  case 4:
    d.swizzleBytes = 64;
    break;
  case 6:
    d.swizzleBytes = 32;
    break;
  default:
    if (error)
      *error = formatv("shared memory descriptor {0:x}: reserved layout type "
                       "{1} (bits 61-63)",
                       desc, field(desc, 61, 3))
                   .str();
  }
  // PTX ISA "Shared memory descriptor" (tcgen05): bits 46-47 are a fixed
  // constant 0b001 on sm_100; bit 52 selects the leading-dimension stride
  // mode (0 relative offset, 1 absolute address), of which only the
  // relative mode is modelled. Either is reported, never ignored.
  auto report = [&](const std::string &msg) {
    if (!error)
      return;
    if (!error->empty())
      *error += "; ";
    *error += msg;
  };
  if (d.version != 1)
    report(formatv("shared memory descriptor {0:x}: version (bits 46-47) is "
                   "{1}, must be 1",
                   desc, d.version)
               .str());
  if (d.lboAbsolute)
    report(formatv("shared memory descriptor {0:x}: the absolute "
                   "leading-dimension stride mode (bit 52) is not modeled",
                   desc)
               .str());
  return d;
}

uint64_t pmlir::sim::encodeUmmaDescriptor(const SmemDescriptor &d) {
  uint64_t layout = d.swizzleBytes == 128  ? (d.swizzle128Base32 ? 1 : 2)
                    : d.swizzleBytes == 64 ? 4
                    : d.swizzleBytes == 32 ? 6
                                           : 0;
  return uint64_t((d.startAddress >> 4) & 0x3fff) |
         uint64_t((d.leadingByteOffset >> 4) & 0x3fff) << 16 |
         uint64_t((d.strideByteOffset >> 4) & 0x3fff) << 32 |
         uint64_t(d.version & 3) << 46 | uint64_t(d.baseOffset & 7) << 49 |
         uint64_t(d.lboAbsolute) << 52 | layout << 61;
}

uint64_t pmlir::sim::operandOffset(const SmemDescriptor &d, Major major,
                                   unsigned elemBits, unsigned row,
                                   unsigned k) {
  uint64_t lbo = d.leadingByteOffset, sbo = d.strideByteOffset;
  uint64_t w = d.swizzleBytes;
  uint64_t off;
  if (major == Major::K) {
    uint64_t kB = uint64_t(k) * elemBits / 8;
    if (w == 0)
      off = (row / 8) * sbo + (row % 8) * 16 + (kB / 16) * lbo + kB % 16;
    else
      off = (row / 8) * sbo + (row % 8) * w + (kB / w) * lbo + kB % w;
  } else {
    uint64_t mnB = uint64_t(row) * elemBits / 8;
    if (w == 0)
      off = (mnB / 16) * sbo + mnB % 16 + (k / 8) * lbo + (k % 8) * 16;
    else
      off = (mnB / w) * lbo + mnB % w + (k / 8) * sbo + (k % 8) * w;
  }
  return swizzleAddress(d.startAddress + off, unsigned(w));
}

namespace {

/// Reads element (row, k) of an operand of `type` from shared memory.
/// `padded16`: sub-byte types stored 16 per 16-byte chunk (.kind::f8f6f4).
bool readOperand(ArrayRef<uint8_t> smem, const SmemDescriptor &d, Major major,
                 MmaType type, bool padded16, unsigned row, unsigned k,
                 double &value, std::string &error) {
  unsigned bits = mmaTypeBits(type);
  unsigned container = bits >= 8 ? bits : padded16 ? 8 : bits;
  uint64_t addr = operandOffset(d, major, container, row, k);
  unsigned bytes = std::max(1u, container / 8);
  if (padded16 && bits < 8)
    bytes = 16; // the chunk holding it
  uint64_t first = padded16 && bits < 8 ? addr & ~uint64_t(15) : addr;
  if (first + bytes > smem.size()) {
    error = formatv("the matrix descriptor (start {0:x}) reads shared memory "
                    "at {1:x}, outside the CTA's {2} bytes",
                    d.startAddress, first, smem.size())
                .str();
    return false;
  }
  uint64_t raw = 0;
  if (padded16 && bits < 8) {
    unsigned j = unsigned(addr % 16); // element index within the chunk
    unsigned bit = j * bits;
    uint64_t word = 0;
    for (unsigned b = 0; b < 3 && bit / 8 + b < 16; ++b)
      word |= uint64_t(smem[first + bit / 8 + b]) << (8 * b);
    raw = (word >> (bit % 8)) & ((1u << bits) - 1);
  } else if (bits == 4) {
    unsigned index = major == Major::K ? k : row;
    raw = (smem[addr] >> (4 * (index % 2))) & 0xf;
  } else {
    for (unsigned b = 0; b < bytes; ++b)
      raw |= uint64_t(smem[addr + b]) << (8 * b);
  }
  value = decodeMmaElement(type, raw);
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// wgmma
//===----------------------------------------------------------------------===//

WgmmaInstr pmlir::sim::decodeWgmma(ArrayRef<std::string> parts,
                                   std::string *error) {
  WgmmaInstr in;
  auto fail = [&](const Twine &msg) {
    if (error)
      *error = msg.str();
    return WgmmaInstr();
  };
  std::vector<MmaType> types;
  bool haveShape = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    StringRef p = parts[i];
    if (i < 2 && (p == "wgmma" || p == "mma_async"))
      continue;
    if (p == "sync" || p == "aligned")
      continue;
    if (p == "sp" || p == "satfinite")
      return fail("wgmma." + p + " is not modeled");
    unsigned m, n, k;
    if (p.starts_with("m") && p.contains('n') && p.contains('k')) {
      StringRef rest = p.drop_front();
      auto [ms, r1] = rest.split('n');
      auto [ns, ks] = r1.split('k');
      if (ms.getAsInteger(10, m) || ns.getAsInteger(10, n) ||
          ks.getAsInteger(10, k))
        return fail("wgmma: bad shape " + p);
      in.m = m;
      in.n = n;
      in.k = k;
      haveShape = true;
      continue;
    }
    MmaType t = parseType(p);
    if (t == MmaType::Invalid)
      return fail("wgmma: unsupported type or qualifier ." + p);
    types.push_back(t);
  }
  if (!haveShape || types.size() != 3)
    return fail("wgmma.mma_async needs a shape and three types");
  in.dType = types[0];
  in.aType = types[1];
  in.bType = types[2];
  if (in.m != 64 || in.n == 0 || in.n > 256 || in.n % 8)
    return fail(formatv("wgmma: bad shape m{0}n{1}k{2}", in.m, in.n, in.k));
  bool f16 = in.aType == MmaType::F16 || in.aType == MmaType::BF16;
  bool fp8 = in.aType == MmaType::E4M3 || in.aType == MmaType::E5M2;
  bool ok = false;
  if (f16)
    ok = in.k == 16 && in.bType == in.aType &&
         (in.dType == MmaType::F32 ||
          (in.dType == MmaType::F16 && in.aType == MmaType::F16));
  else if (in.aType == MmaType::TF32)
    ok = in.k == 8 && in.bType == MmaType::TF32 && in.dType == MmaType::F32;
  else if (fp8)
    ok = in.k == 32 &&
         (in.bType == MmaType::E4M3 || in.bType == MmaType::E5M2) &&
         (in.dType == MmaType::F32 || in.dType == MmaType::F16);
  if (!ok)
    return fail(formatv("wgmma: unsupported combination m{0}n{1}k{2} .{3}",
                        in.m, in.n, in.k,
                        join(ArrayRef<std::string>(parts).drop_front(
                                 std::min<size_t>(parts.size(), 5)),
                             ".")));
  return in;
}

RowCol pmlir::sim::wgmmaAccumElement(unsigned warp, unsigned lane, unsigned i) {
  return {16 * warp + lane / 4 + 8 * ((i / 2) % 2),
          8 * (i / 4) + 2 * (lane % 4) + i % 2};
}

RowCol pmlir::sim::wgmmaAFragmentElement(MmaType aType, unsigned warp,
                                         unsigned lane, unsigned e) {
  unsigned base = 16 * warp + lane / 4;
  switch (mmaTypeBits(aType)) {
  case 32: // tf32, k8
    return {base + 8 * (e % 2), lane % 4 + 4 * (e / 2)};
  case 8: // fp8, k32
    return {base + 8 * ((e / 4) % 2), 4 * (lane % 4) + e % 4 + 16 * (e / 8)};
  default: // f16/bf16, k16
    return {base + 8 * ((e / 2) % 2), 2 * (lane % 4) + e % 2 + 8 * (e / 4)};
  }
}

std::string pmlir::sim::wgmmaExecute(
    const WgmmaInstr &instr, unsigned warpInGroup, ArrayRef<uint8_t> smem,
    uint64_t descA, const std::vector<std::array<uint32_t, 4>> *aRegs,
    uint64_t descB, bool scaleD, int scaleA, int scaleB, bool transA,
    bool transB, std::vector<std::vector<uint32_t>> &accum) {
  const unsigned n = instr.n, k = instr.k;
  if (instr.dType == MmaType::Invalid || n == 0 || k == 0)
    return "wgmma: invalid instruction";
  if (warpInGroup > 3)
    return "wgmma: warp index in the warpgroup must be 0-3";
  bool f16Acc = instr.dType == MmaType::F16;
  unsigned regsPerLane = f16Acc ? n / 4 : n / 2;
  if (accum.size() != 32)
    return "wgmma: accumulator must have 32 lanes";
  for (auto &l : accum)
    if (l.size() != regsPerLane)
      return formatv("wgmma: each lane needs {0} accumulator registers, got "
                     "{1}",
                     regsPerLane, l.size())
          .str();
  bool transposable =
      instr.aType == MmaType::F16 || instr.aType == MmaType::BF16;
  if ((transA || transB) && !transposable)
    return "wgmma: imm-trans-a/b is only valid for .f16/.bf16";
  if (transA && aRegs)
    return "wgmma: imm-trans-a does not apply to A in registers";
  unsigned aBits = mmaTypeBits(instr.aType);
  std::string error;

  // This warp's 16 rows of A.
  std::vector<double> a(16 * k, 0.0);
  if (aRegs) {
    if (aRegs->size() != 32)
      return "wgmma: A in registers needs 32 lanes";
    unsigned perReg = 32 / aBits;
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned e = 0; e < 4 * perReg; ++e) {
        RowCol rc = wgmmaAFragmentElement(instr.aType, warpInGroup, l, e);
        uint32_t reg = (*aRegs)[l][e / perReg];
        uint64_t bits =
            aBits == 32 ? reg
                        : (reg >> (aBits * (e % perReg))) & ((1u << aBits) - 1);
        a[(rc.row - 16 * warpInGroup) * k + rc.col] =
            decodeMmaElement(instr.aType, bits);
      }
  } else {
    SmemDescriptor da = decodeWgmmaDescriptor(descA);
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned kk = 0; kk < k; ++kk)
        if (!readOperand(smem, da, transA ? Major::MN : Major::K, instr.aType,
                         false, 16 * warpInGroup + r, kk, a[r * k + kk], error))
          return "wgmma A: " + error;
  }
  // B, N x K.
  std::vector<double> b(n * k);
  SmemDescriptor db = decodeWgmmaDescriptor(descB);
  for (unsigned c = 0; c < n; ++c)
    for (unsigned kk = 0; kk < k; ++kk)
      if (!readOperand(smem, db, transB ? Major::MN : Major::K, instr.bType,
                       false, c, kk, b[c * k + kk], error))
        return "wgmma B: " + error;

  double sa = scaleA < 0 ? -1.0 : 1.0, sb = scaleB < 0 ? -1.0 : 1.0;
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < n / 2; ++i) {
      RowCol rc = wgmmaAccumElement(warpInGroup, l, i);
      unsigned r = rc.row - 16 * warpInGroup;
      double sum = 0;
      if (scaleD) {
        uint32_t reg = f16Acc ? accum[l][i / 2] : accum[l][i];
        sum = f16Acc ? decodeMmaElement(MmaType::F16, reg >> (16 * (i % 2)))
                     : decodeMmaElement(MmaType::F32, reg);
      }
      for (unsigned kk = 0; kk < k; ++kk)
        sum += (sa * a[r * k + kk]) * (sb * b[rc.col * k + kk]);
      if (f16Acc) {
        uint32_t &reg = accum[l][i / 2];
        unsigned sh = 16 * (i % 2);
        reg = (reg & ~(0xffffu << sh)) |
              uint32_t(encodeMmaElement(MmaType::F16, sum)) << sh;
      } else {
        accum[l][i] = uint32_t(encodeMmaElement(MmaType::F32, sum));
      }
    }
  return "";
}

//===----------------------------------------------------------------------===//
// tcgen05.mma
//===----------------------------------------------------------------------===//

Tcgen05MmaInstr pmlir::sim::decodeTcgen05Mma(ArrayRef<std::string> parts,
                                             std::string *error) {
  Tcgen05MmaInstr in;
  auto fail = [&](const Twine &msg) {
    if (error)
      *error = msg.str();
    return Tcgen05MmaInstr();
  };
  bool haveKind = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    StringRef p = parts[i];
    if ((i == 0 && p == "tcgen05") || (i == 1 && p == "mma"))
      continue;
    if (p == "sp")
      in.sparse = true;
    else if (p == "ws")
      in.ws = true;
    else if (p == "cta_group::1")
      in.ctaGroup = 1;
    else if (p == "cta_group::2")
      in.ctaGroup = 2;
    else if (p.consume_front("kind::")) {
      std::optional<Tcgen05Kind> k =
          StringSwitch<std::optional<Tcgen05Kind>>(p)
              .Case("f16", Tcgen05Kind::F16)
              .Case("tf32", Tcgen05Kind::TF32)
              .Case("f8f6f4", Tcgen05Kind::F8F6F4)
              .Case("i8", Tcgen05Kind::I8)
              .Case("mxf8f6f4", Tcgen05Kind::MXF8F6F4)
              .Case("mxf4", Tcgen05Kind::MXF4)
              .Case("mxf4nvf4", Tcgen05Kind::MXF4NVF4)
              .Default(std::nullopt);
      if (!k)
        return fail("tcgen05.mma: unknown .kind::" + p);
      in.kind = *k;
      haveKind = true;
    } else if (p == "block_scale")
      in.blockScale = true;
    else if (p.consume_front("scale_vec::")) {
      in.scaleVec = p == "1X" ? 1 : p == "2X" ? 2 : p == "4X" ? 4 : 0;
      if (!in.scaleVec)
        return fail("tcgen05.mma: bad .scale_vec::" + p);
    } else if (p == "block16")
      in.scaleVec = 16;
    else if (p == "block32")
      in.scaleVec = 32;
    else if (p.consume_front("collector::a::"))
      in.collectorA = p.str();
    else if (p.starts_with("collector::b"))
      continue; // .ws collector buffers: data-neutral
    else if (p == "ashift" || p == "sync" || p == "aligned")
      continue;
    else
      return fail("tcgen05.mma: unknown qualifier ." + p);
  }
  if (!haveKind)
    return fail("tcgen05.mma needs a .kind");
  return in;
}

static bool isBlockScaled(Tcgen05Kind k) {
  return k == Tcgen05Kind::MXF8F6F4 || k == Tcgen05Kind::MXF4 ||
         k == Tcgen05Kind::MXF4NVF4;
}

Tcgen05InstrDesc pmlir::sim::decodeTcgen05InstrDesc(uint32_t idesc,
                                                    Tcgen05Kind kind) {
  Tcgen05InstrDesc d;
  d.sparsitySelector = unsigned(field(idesc, 0, 2));
  d.sparse = field(idesc, 2, 1);
  d.aFormat = unsigned(field(idesc, 7, 3));
  d.bFormat = unsigned(field(idesc, 10, 3));
  d.negateA = field(idesc, 13, 1);
  d.negateB = field(idesc, 14, 1);
  d.transposeA = field(idesc, 15, 1);
  d.transposeB = field(idesc, 16, 1);
  d.n = unsigned(field(idesc, 17, 6)) << 3;
  if (isBlockScaled(kind)) {
    d.sfbId = unsigned(field(idesc, 4, 2));
    d.scaleUE8M0 = field(idesc, 23, 1);
    d.m = unsigned(field(idesc, 27, 2)) << 7;
    d.sfaId = unsigned(field(idesc, 29, 2));
    d.k96 = kind != Tcgen05Kind::MXF8F6F4 && field(idesc, 31, 1);
    d.dFormat = 1;
  } else {
    d.saturate = field(idesc, 3, 1);
    d.dFormat = unsigned(field(idesc, 4, 2));
    d.m = unsigned(field(idesc, 24, 5)) << 4;
    d.maxShift = unsigned(field(idesc, 30, 2));
  }
  return d;
}

uint32_t pmlir::sim::encodeTcgen05InstrDesc(const Tcgen05InstrDesc &d,
                                            Tcgen05Kind kind) {
  uint32_t v = (d.sparsitySelector & 3) | uint32_t(d.sparse) << 2 |
               (d.aFormat & 7) << 7 | (d.bFormat & 7) << 10 |
               uint32_t(d.negateA) << 13 | uint32_t(d.negateB) << 14 |
               uint32_t(d.transposeA) << 15 | uint32_t(d.transposeB) << 16 |
               ((d.n >> 3) & 0x3f) << 17;
  if (isBlockScaled(kind))
    return v | (d.sfbId & 3) << 4 | uint32_t(d.scaleUE8M0) << 23 |
           ((d.m >> 7) & 3) << 27 | (d.sfaId & 3) << 29 | uint32_t(d.k96) << 31;
  return v | uint32_t(d.saturate) << 3 | (d.dFormat & 3) << 4 |
         ((d.m >> 4) & 0x1f) << 24 | (d.maxShift & 3) << 30;
}

MmaType pmlir::sim::tcgen05OperandType(Tcgen05Kind kind, unsigned format) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return format == 0   ? MmaType::F16
           : format == 1 ? MmaType::BF16
                         : MmaType::Invalid;
  case Tcgen05Kind::TF32:
    return format == 2 ? MmaType::TF32 : MmaType::Invalid;
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::MXF8F6F4:
    switch (format) {
    case 0:
      return MmaType::E4M3;
    case 1:
      return MmaType::E5M2;
    case 3:
      return MmaType::E2M3;
    case 4:
      return MmaType::E3M2;
    case 5:
      return MmaType::E2M1;
    default:
      return MmaType::Invalid;
    }
  case Tcgen05Kind::MXF4:
  case Tcgen05Kind::MXF4NVF4:
    return format == 1 ? MmaType::E2M1 : MmaType::Invalid;
  case Tcgen05Kind::I8: // CUTLASS mma_sm100_desc.hpp S8Format: 0 U8, 1 S8
    return format == 0   ? MmaType::U8
           : format == 1 ? MmaType::S8
                         : MmaType::Invalid;
  }
  return MmaType::Invalid;
}

unsigned pmlir::sim::tcgen05K(Tcgen05Kind kind, const Tcgen05InstrDesc &d) {
  switch (kind) {
  case Tcgen05Kind::F16:
    return 16;
  case Tcgen05Kind::TF32:
    return 8;
  case Tcgen05Kind::F8F6F4:
  case Tcgen05Kind::I8:
  case Tcgen05Kind::MXF8F6F4:
    return 32;
  case Tcgen05Kind::MXF4:
  case Tcgen05Kind::MXF4NVF4:
    return d.k96 ? 96 : 64;
  }
  return 0;
}

// The accumulator layouts of CUTLASS cute/atom/mma_traits_sm100_frag.hpp
// (TMEM offset = lane + 128 * column):
//   N_SM 1, M_MMA  64: ((16,4),N):((1,32),128)  lane 32*(m/16)+m%16, col n.
//   N_SM 1, M_MMA 128: (128,N):(1,128)           lane m, col n.
//   N_SM 2, M_MMA  64: (64,(N/2,2)):(1,(128,64)) lane m + 64*(n/(N/2)),
//                                                 col n % (N/2) ("2x2").
//   N_SM 2, M_MMA 128: (128,N):(1,128)           lane m, col n.
LaneCol pmlir::sim::tcgen05DElement(unsigned ctaGroup, unsigned M, unsigned N,
                                    unsigned m, unsigned n) {
  unsigned mPerCta = M / ctaGroup;
  if (mPerCta == 64 && ctaGroup == 2)
    return {m + 64 * (n / (N / 2)), n % (N / 2)};
  if (mPerCta == 64)
    return {32 * (m / 16) + m % 16, n};
  return {m, n};
}

unsigned pmlir::sim::tcgen05DColumns(unsigned ctaGroup, unsigned M,
                                     unsigned N) {
  return ctaGroup == 2 && M == 128 ? N / 2 : N;
}

unsigned pmlir::sim::tcgen05ScaleFactorsPerRow(const Tcgen05MmaInstr &instr,
                                               const Tcgen05InstrDesc &d,
                                               std::string *error) {
  auto fail = [&](const Twine &msg) {
    if (error)
      *error = ("tcgen05.mma.block_scale: " + msg).str();
    return 0u;
  };
  if (!isBlockScaled(instr.kind))
    return fail("not a block-scaled .kind");
  bool mxf8 = instr.kind == Tcgen05Kind::MXF8F6F4;
  if (d.k96)
    return fail("K = 96 (descriptor bit 31): its scale-factor layouts are "
                "not modeled");
  // .block32 = 1X (mxf8f6f4) or 2X (mxf4*), .block16 = 4X (PTX ISA
  // 9.7.16.10.7.1); no qualifier: the kind's only 32-element form.
  unsigned v = instr.scaleVec;
  if (v == 32)
    v = mxf8 ? 1 : 2;
  else if (v == 16)
    v = 4;
  else if (v == 0) {
    if (instr.kind == Tcgen05Kind::MXF4NVF4)
      return fail(".kind::mxf4nvf4 needs .scale_vec::2X/4X or .block16/32");
    v = mxf8 ? 1 : 2;
  }
  // Table "Valid combinations of scale_vectorsize with types and MMA-Kind".
  bool ok = false;
  switch (instr.kind) {
  case Tcgen05Kind::MXF8F6F4:
    ok = v == 1 && d.scaleUE8M0;
    break;
  case Tcgen05Kind::MXF4:
    ok = v == 2 && d.scaleUE8M0;
    break;
  case Tcgen05Kind::MXF4NVF4:
    ok = (v == 2 && d.scaleUE8M0) || v == 4;
    break;
  default:
    break;
  }
  if (!ok)
    return fail(formatv("scale_vec::{0}X with {1} scale factors is not valid "
                        "for this .kind",
                        v, d.scaleUE8M0 ? "UE8M0" : "UE4M3")
                    .str());
  // SF ID: a byte offset (1X), a half-word offset 0 or 2 (2X), 0 (4X)
  // (PTX ISA 9.7.16.10.7.2 / .3 "Scale Factor A/B ID").
  for (unsigned id : {d.sfaId, d.sfbId})
    if (id % v)
      return fail(formatv("scale factor ID {0} is not aligned to the {1} "
                          "scale factors of scale_vec::{1}X",
                          id, v)
                      .str());
  return v;
}

static double decodeScaleFactor(bool ue8m0, uint8_t code) {
  if (ue8m0)
    return code == 0xff ? NAN : std::ldexp(1.0, int(code) - 127);
  return decodeMini(code & 0x7f, 4, 3, false, true); // UE4M3: no sign bit
}

std::string pmlir::sim::tcgen05MmaExecute(
    const Tcgen05MmaInstr &instr, uint32_t idesc,
    const ArrayRef<uint8_t> smem[2], Tmem *tmem[2], uint32_t dAddr,
    bool aFromTmem, uint64_t aDescOrTaddr, uint64_t bDesc, bool enableInputD,
    unsigned scaleInputD, const Tcgen05BlockScale *scale) {
  if (instr.ws || instr.sparse)
    return "tcgen05.mma: .ws and .sp are not modeled";
  bool scaled = isBlockScaled(instr.kind);
  bool intKind = instr.kind == Tcgen05Kind::I8;
  if (scaled != instr.blockScale)
    return scaled ? "tcgen05.mma: the block-scaled kinds need .block_scale"
                  : "tcgen05.mma: .block_scale needs .kind::mxf8f6f4, "
                    "::mxf4 or ::mxf4nvf4";
  if (scaled && !scale)
    return "tcgen05.mma.block_scale: no scale-factor tensor-memory addresses";
  Tcgen05InstrDesc d = decodeTcgen05InstrDesc(idesc, instr.kind);
  unsigned numSf = 0;
  if (scaled) {
    std::string why;
    numSf = tcgen05ScaleFactorsPerRow(instr, d, &why);
    if (!numSf)
      return why;
  }
  MmaType aType = tcgen05OperandType(instr.kind, d.aFormat);
  MmaType bType = tcgen05OperandType(instr.kind, d.bFormat);
  if (aType == MmaType::Invalid || bType == MmaType::Invalid)
    return formatv("tcgen05.mma: instruction descriptor {0:x}: invalid A/B "
                   "format for the kind",
                   idesc)
        .str();
  if (d.sparse)
    return "tcgen05.mma: sparse instruction descriptors are not modeled";
  if (intKind ? d.dFormat != 2 : d.dFormat != 0 && d.dFormat != 1)
    return formatv("tcgen05.mma: instruction descriptor {0:x}: D format {1} "
                   "is not {2}",
                   idesc, d.dFormat, intKind ? "S32" : "F16/F32")
        .str();
  if (intKind && (d.negateA || d.negateB))
    return "tcgen05.mma: negation is not valid for .kind::i8";
  if (d.dFormat == 0 && instr.kind == Tcgen05Kind::TF32)
    return "tcgen05.mma: .kind::tf32 needs an F32 D";
  bool f16D = d.dFormat == 0;
  unsigned M = d.m, N = d.n, K = tcgen05K(instr.kind, d);
  unsigned cg = instr.ctaGroup;
  // PTX ISA 9.7.16.2.1 "Matrix Shape", table "Various combinations of .kind
  // and shapes" (dense, no .ws; kind::f16, ::tf32, ::f8f6f4 alike):
  // cta_group::1: M = 64 or 128, N = 8, 16, ... 256 (steps of 8);
  // cta_group::2: M = 128 or 256, N = 16, 32, ... 256 (steps of 16).
  // With A in tensor memory, cta_group::1 M = 128 also needs N % 16 == 0
  // (CUTLASS cute/arch/mma_sm100_umma.hpp, SM100_MMA_*_TS static_asserts).
  bool mOk = cg == 1 ? (M == 64 || M == 128) : (M == 128 || M == 256);
  unsigned nStep = cg == 2 || (M == 128 && aFromTmem) ? 16 : 8;
  if (!mOk || N < nStep || N > 256 || N % nStep)
    return formatv("tcgen05.mma.cta_group::{0}: invalid shape M={1} N={2}{3}",
                   cg, M, N, aFromTmem ? " (A in tensor memory)" : "")
        .str();
  bool subByte = mmaTypeBits(aType) < 8 || mmaTypeBits(bType) < 8;
  if ((d.transposeA && mmaTypeBits(aType) < 8) ||
      (d.transposeB && mmaTypeBits(bType) < 8))
    return "tcgen05.mma: MN-major operands of fp6/fp4 types are not valid";
  (void)subByte;
  for (unsigned c = 0; c < cg; ++c)
    if (!tmem[c])
      return "tcgen05.mma: missing tensor memory of the CTA pair";
  unsigned mPerCta = M / cg, nPerCta = N / cg;
  unsigned dLane0 = tmemLane(dAddr), dCol0 = tmemColumn(dAddr);
  // One element per 32-bit column for f32 and f16 D alike (see the header).
  unsigned dCols = tcgen05DColumns(cg, M, N);
  unsigned maxLane = 0;
  for (unsigned m = 0; m < mPerCta; ++m)
    maxLane = std::max({maxLane, tcgen05DElement(cg, M, N, m, 0).lane,
                        tcgen05DElement(cg, M, N, m, N - 1).lane});
  if (dCol0 + dCols > 512 || dLane0 + maxLane >= 128)
    return formatv("tcgen05.mma: D at tensor-memory address {0:x} ({1} x {2}) "
                   "is outside the 128 lanes x 512 columns",
                   dAddr, M, N)
        .str();
  unsigned aBits = mmaTypeBits(aType);
  unsigned aPer = aBits ? 32 / aBits : 1;
  unsigned aLane0 = tmemLane(uint32_t(aDescOrTaddr)),
           aCol0 = tmemColumn(uint32_t(aDescOrTaddr));
  if (aFromTmem) {
    if (aBits < 8)
      return "tcgen05.mma: fp6/fp4 A in tensor memory is not modeled";
    if (aLane0 + maxLane >= 128 || aCol0 + K / aPer > 512)
      return formatv("tcgen05.mma: A at tensor-memory address {0:x} is "
                     "outside the tensor memory",
                     aDescOrTaddr)
          .str();
  }

  std::string error;
  Major aMajor = d.transposeA ? Major::MN : Major::K;
  Major bMajor = d.transposeB ? Major::MN : Major::K;
  std::string descError;
  SmemDescriptor bd = decodeUmmaDescriptor(bDesc, &descError);
  SmemDescriptor ad;
  if (!aFromTmem)
    ad = decodeUmmaDescriptor(aDescOrTaddr, &descError);
  if (!descError.empty())
    return "tcgen05.mma: " + descError;
  if (bd.swizzle128Base32 || ad.swizzle128Base32)
    return "tcgen05.mma: the 128B swizzle with 32B atomicity is not modeled";

  // B (N x K), columns split across the pair. The mxf4 kinds take packed
  // fp4 (two per byte); the others the padded 16-byte form of f8f6f4.
  bool padded =
      !(instr.kind == Tcgen05Kind::MXF4 || instr.kind == Tcgen05Kind::MXF4NVF4);
  std::vector<double> b(size_t(N) * K);
  for (unsigned n = 0; n < N; ++n)
    for (unsigned k = 0; k < K; ++k)
      if (!readOperand(smem[n / nPerCta], bd, bMajor, bType, padded,
                       n % nPerCta, k, b[size_t(n) * K + k], error))
        return "tcgen05.mma B: " + error;

  // Scale factors (see the header): sfa[c][m*numSf+s], sfb[c][n*numSf+s].
  std::vector<double> sfa[2], sfb[2];
  if (scaled) {
    bool twoByTwo = cg == 2 && M == 128;
    // Reads scale factor s of row r (32 rows per column) from the copies in
    // sub-partitions q0..q0+qn-1 and checks that they agree.
    auto readSf = [&](const Tmem &tm, const char *which, uint32_t addr,
                      unsigned sfId, unsigned r, unsigned s, unsigned q0,
                      unsigned qn, double &out) -> std::string {
      addr &= 0x00ffffffu;
      unsigned col = tmemColumn(addr) + r / 32, byte = sfId + s;
      int code = -1;
      for (unsigned q = q0; q < q0 + qn; ++q) {
        unsigned lane = tmemLane(addr) + 32 * q + r % 32;
        if (lane >= 128 || col >= 512)
          return formatv("tcgen05.mma.block_scale: scale_{0} at tensor-memory "
                         "address {1:x} reaches lane {2} column {3}, outside "
                         "the tensor memory",
                         which, addr, lane, col)
              .str();
        int c = int((tm.at(lane, col) >> (8 * byte)) & 0xff);
        if (code >= 0 && c != code)
          return formatv("tcgen05.mma.block_scale: scale_{0} factor {1} of "
                         "{2} {3} differs between its copies in the lane "
                         "sub-partitions (lane {4} column {5} byte {6} holds "
                         "{7:x}, the copy in sub-partition {8} {9:x}); the "
                         "scale factors must be duplicated to all 32-lane "
                         "partitions",
                         which, s, which[0] == 'A' ? "row" : "column", r, lane,
                         col, byte, c, q0, code)
              .str();
        code = c;
      }
      out = decodeScaleFactor(d.scaleUE8M0, uint8_t(code));
      return "";
    };
    for (unsigned c = 0; c < cg; ++c) {
      sfa[c].resize(size_t(mPerCta) * numSf);
      sfb[c].resize(size_t(N) * numSf);
      for (unsigned m = 0; m < mPerCta; ++m)
        for (unsigned s = 0; s < numSf; ++s) {
          std::string why = readSf(*tmem[c], "A", scale->sfaAddr, d.sfaId, m, s,
                                   0, 4, sfa[c][m * numSf + s]);
          if (!why.empty())
            return why;
        }
      for (unsigned n = 0; n < N; ++n)
        for (unsigned s = 0; s < numSf; ++s) {
          unsigned half = twoByTwo ? n / (N / 2) : 0;
          unsigned r = twoByTwo ? n % (N / 2) : n;
          std::string why = readSf(*tmem[c], "B", scale->sfbAddr, d.sfbId, r, s,
                                   twoByTwo ? 2 * half : 0, twoByTwo ? 2 : 4,
                                   sfb[c][n * numSf + s]);
          if (!why.empty())
            return why;
        }
    }
  }
  unsigned sfBlock = scaled ? K / numSf : K;
  double sa = d.negateA ? -1.0 : 1.0, sb = d.negateB ? -1.0 : 1.0;
  double dScale = std::ldexp(1.0, -int(scaleInputD));
  // Row m of A as read from tensor memory at lane offset `laneOff` (the lane
  // of the D element it produces: A in TMEM has D's row placement; for the
  // cta_group::2 M=128 "2x2" layout A is stored duplicated, rows 0-63 in
  // lanes 0-63 and again in 64-127, and each half of N reads its copy).
  auto readTmemA = [&](const Tmem &tm, unsigned laneOff,
                       std::vector<double> &a) {
    for (unsigned k = 0; k < K; ++k) {
      uint32_t cell = tm.at(aLane0 + laneOff, aCol0 + k / aPer);
      uint64_t raw = aBits == 32
                         ? cell
                         : (cell >> (aBits * (k % aPer))) & ((1u << aBits) - 1);
      a[k] = decodeMmaElement(aType, raw);
    }
  };
  std::vector<double> a(K);
  for (unsigned c = 0; c < cg; ++c) {
    Tmem &tm = *tmem[c];
    for (unsigned m = 0; m < mPerCta; ++m) {
      // Row m of this CTA's A (from shared memory: once per row).
      if (!aFromTmem)
        for (unsigned k = 0; k < K; ++k)
          if (!readOperand(smem[c], ad, aMajor, aType, padded, m, k, a[k],
                           error))
            return "tcgen05.mma A: " + error;
      unsigned aLaneRead = ~0u;
      for (unsigned n = 0; n < N; ++n) {
        LaneCol lc = tcgen05DElement(cg, M, N, m, n);
        if (aFromTmem && lc.lane != aLaneRead) {
          readTmemA(tm, lc.lane, a);
          aLaneRead = lc.lane;
        }
        uint32_t &cell = tm.at(dLane0 + lc.lane, dCol0 + lc.col);
        double sum = 0;
        if (enableInputD) {
          double old = intKind ? double(int32_t(cell))
                       : f16D  ? decodeMmaElement(MmaType::F16, cell & 0xffff)
                               : decodeMmaElement(MmaType::F32, cell);
          sum = intKind ? old : old * dScale;
        }
        if (scaled)
          // Each factor a*sfa and b*sfb is exact (<= 8 significant bits
          // times a power of two or a 4-bit UE4M3), so is their product.
          for (unsigned k = 0; k < K; ++k)
            sum +=
                (sa * a[k] * sfa[c][m * numSf + k / sfBlock]) *
                (sb * b[size_t(n) * K + k] * sfb[c][n * numSf + k / sfBlock]);
        else
          for (unsigned k = 0; k < K; ++k)
            sum += (sa * a[k]) * (sb * b[size_t(n) * K + k]);
        if (intKind) {
          // Exact: |sum| < 2^31 + 32 * 2^16. Wrap, or clamp with .satfinite.
          int64_t v = int64_t(sum);
          if (d.saturate)
            v = std::clamp<int64_t>(v, INT32_MIN, INT32_MAX);
          cell = uint32_t(uint64_t(v));
          continue;
        }
        // f16 D: the low 16 bits of the column, the high 16 bits written 0.
        cell = f16D ? uint32_t(encodeMmaElement(MmaType::F16, sum))
                    : uint32_t(encodeMmaElement(MmaType::F32, sum));
      }
    }
  }
  return "";
}

//===----------------------------------------------------------------------===//
// tcgen05.ld / st / cp
//===----------------------------------------------------------------------===//

bool pmlir::sim::parseTmemLdStShape(StringRef s, TmemLdStShape &shape) {
  std::optional<TmemLdStShape> r =
      StringSwitch<std::optional<TmemLdStShape>>(s)
          .Case("32x32b", TmemLdStShape::S32x32b)
          .Case("16x64b", TmemLdStShape::S16x64b)
          .Case("16x128b", TmemLdStShape::S16x128b)
          .Case("16x256b", TmemLdStShape::S16x256b)
          .Case("16x32bx2", TmemLdStShape::S16x32bx2)
          .Default(std::nullopt);
  if (r)
    shape = *r;
  return r.has_value();
}

unsigned pmlir::sim::tmemLdStRegisters(TmemLdStShape shape, unsigned num) {
  switch (shape) {
  case TmemLdStShape::S16x128b:
    return 2 * num;
  case TmemLdStShape::S16x256b:
    return 4 * num;
  default:
    return num;
  }
}

LaneCol pmlir::sim::tmemLdStElement(TmemLdStShape shape, unsigned num,
                                    unsigned t, unsigned r,
                                    unsigned immHalfSplitOffset) {
  (void)num;
  switch (shape) {
  case TmemLdStShape::S32x32b:
    return {t, r};
  case TmemLdStShape::S16x64b:
    return {t / 4 + 8 * (t % 2), 2 * r + (t / 2) % 2};
  case TmemLdStShape::S16x128b:
    return {t / 4 + 8 * (r % 2), 4 * (r / 2) + t % 4};
  case TmemLdStShape::S16x256b:
    return {t / 4 + 8 * ((r / 2) % 2), 8 * (r / 4) + 2 * (t % 4) + r % 2};
  case TmemLdStShape::S16x32bx2:
    return {t % 16, r + (t >= 16 ? immHalfSplitOffset : 0)};
  }
  return {0, 0};
}

namespace {

/// Resolves the cells of register `r` of thread `t` (two with packing);
/// returns an error message for an access outside the warp's quadrant.
std::string ldstCells(TmemLdStShape shape, unsigned num, bool pack,
                      unsigned warpId, uint32_t taddr, unsigned split,
                      unsigned t, unsigned r, unsigned &lane, unsigned &col) {
  LaneCol lc = tmemLdStElement(shape, num, t, r, split);
  lane = tmemLane(taddr) + lc.lane;
  unsigned c = pack ? 2 * lc.col : lc.col;
  col = tmemColumn(taddr) + c;
  unsigned q = 32 * (warpId % 4);
  if (lane < q || lane >= q + 32)
    return formatv("warp {0} accesses tensor-memory lane {1}, outside its "
                   "lanes {2}-{3}",
                   warpId, lane, q, q + 31)
        .str();
  if (col + (pack ? 1 : 0) >= 512)
    return formatv("tensor-memory column {0} is beyond 511", col).str();
  return "";
}

bool validNum(unsigned num) {
  return num >= 1 && num <= 128 && (num & (num - 1)) == 0;
}

} // namespace

std::string pmlir::sim::tmemLoad(const Tmem &tmem, TmemLdStShape shape,
                                 unsigned num, bool pack16, unsigned warpId,
                                 uint32_t taddr, unsigned split,
                                 std::vector<std::vector<uint32_t>> &regs) {
  if (!validNum(num))
    return formatv("tcgen05.ld: bad .x{0}", num).str();
  unsigned nr = tmemLdStRegisters(shape, num);
  regs.assign(32, std::vector<uint32_t>(nr, 0));
  for (unsigned t = 0; t < 32; ++t)
    for (unsigned r = 0; r < nr; ++r) {
      unsigned lane, col;
      std::string e =
          ldstCells(shape, num, pack16, warpId, taddr, split, t, r, lane, col);
      if (!e.empty())
        return "tcgen05.ld: " + e;
      regs[t][r] = pack16 ? (tmem.at(lane, col) & 0xffff) |
                                (tmem.at(lane, col + 1) << 16)
                          : tmem.at(lane, col);
    }
  return "";
}

std::string
pmlir::sim::tmemStore(Tmem &tmem, TmemLdStShape shape, unsigned num,
                      bool unpack16, unsigned warpId, uint32_t taddr,
                      unsigned split,
                      const std::vector<std::vector<uint32_t>> &regs) {
  if (!validNum(num))
    return formatv("tcgen05.st: bad .x{0}", num).str();
  unsigned nr = tmemLdStRegisters(shape, num);
  if (regs.size() != 32)
    return "tcgen05.st: needs 32 lanes of registers";
  for (unsigned t = 0; t < 32; ++t) {
    if (regs[t].size() != nr)
      return formatv("tcgen05.st: each lane needs {0} registers", nr).str();
    for (unsigned r = 0; r < nr; ++r) {
      unsigned lane, col;
      std::string e = ldstCells(shape, num, unpack16, warpId, taddr, split, t,
                                r, lane, col);
      if (!e.empty())
        return "tcgen05.st: " + e;
      if (unpack16) {
        tmem.at(lane, col) = regs[t][r] & 0xffff;
        tmem.at(lane, col + 1) = regs[t][r] >> 16;
      } else {
        tmem.at(lane, col) = regs[t][r];
      }
    }
  }
  return "";
}

bool pmlir::sim::parseTmemCpShape(StringRef shape, StringRef multicast,
                                  TmemCpShape &out) {
  if (shape == "128x256b" && multicast.empty())
    out = TmemCpShape::S128x256b;
  else if (shape == "128x128b" && multicast.empty())
    out = TmemCpShape::S128x128b;
  else if (shape == "4x256b" && multicast.empty())
    out = TmemCpShape::S4x256b;
  else if (shape == "64x128b" && multicast == "warpx2::02_13")
    out = TmemCpShape::S64x128bWarpx2_02_13;
  else if (shape == "64x128b" && multicast == "warpx2::01_23")
    out = TmemCpShape::S64x128bWarpx2_01_23;
  else if (shape == "32x128b" && multicast == "warpx4")
    out = TmemCpShape::S32x128bWarpx4;
  else
    return false;
  return true;
}

std::string pmlir::sim::tmemCopy(Tmem &tmem, TmemCpShape shape, uint32_t taddr,
                                 ArrayRef<uint8_t> smem, uint64_t sdesc) {
  std::string error;
  SmemDescriptor d = decodeUmmaDescriptor(sdesc, &error);
  if (!error.empty())
    return "tcgen05.cp: " + error;
  if (d.swizzle128Base32)
    return "tcgen05.cp: the 128B swizzle with 32B atomicity is not modeled";
  unsigned rows = 0, rowBytes = 0;
  switch (shape) {
  case TmemCpShape::S128x256b:
    rows = 128, rowBytes = 32;
    break;
  case TmemCpShape::S128x128b:
    rows = 128, rowBytes = 16;
    break;
  case TmemCpShape::S4x256b:
    rows = 4, rowBytes = 32;
    break;
  case TmemCpShape::S64x128bWarpx2_02_13:
  case TmemCpShape::S64x128bWarpx2_01_23:
    rows = 64, rowBytes = 16;
    break;
  case TmemCpShape::S32x128bWarpx4:
    rows = 32, rowBytes = 16;
    break;
  }
  unsigned lane0 = tmemLane(taddr), col0 = tmemColumn(taddr);
  for (unsigned r = 0; r < rows; ++r) {
    SmallVector<unsigned, 4> lanes;
    switch (shape) {
    case TmemCpShape::S64x128bWarpx2_02_13:
      lanes = {r % 32 + 32 * (r / 32), r % 32 + 32 * (r / 32) + 64};
      break;
    case TmemCpShape::S64x128bWarpx2_01_23:
      lanes = {r % 32 + 64 * (r / 32), r % 32 + 64 * (r / 32) + 32};
      break;
    case TmemCpShape::S32x128bWarpx4:
      lanes = {r, r + 32, r + 64, r + 96};
      break;
    case TmemCpShape::S4x256b:
      // One row per 32-lane sub-partition: CUTLASS SM100_UTCCP_4dp256bit,
      // SrcLayout (4,256):(32,128) (lane stride 32 per row).
      lanes = {32 * r};
      break;
    default:
      lanes = {r};
    }
    for (unsigned w = 0; w < rowBytes / 4; ++w) {
      uint32_t word = 0;
      for (unsigned b = 0; b < 4; ++b) {
        uint64_t addr = operandOffset(d, Major::K, 8, r, 4 * w + b);
        if (addr >= smem.size())
          return formatv("tcgen05.cp: the descriptor (start {0:x}) reads "
                         "shared memory at {1:x}, outside the CTA's {2} bytes",
                         d.startAddress, addr, smem.size())
              .str();
        word |= uint32_t(smem[addr]) << (8 * b);
      }
      for (unsigned l : lanes) {
        unsigned lane = lane0 + l, col = col0 + w;
        if (lane >= 128 || col >= 512)
          return formatv("tcgen05.cp: tensor-memory lane {0} column {1} is "
                         "out of range",
                         lane, col)
              .str();
        tmem.at(lane, col) = word;
      }
    }
  }
  return "";
}

//===----------------------------------------------------------------------===//
// ldmatrix / stmatrix / movmatrix
//===----------------------------------------------------------------------===//

namespace {

std::string checkRows(const char *op, unsigned num, ArrayRef<uint32_t> rowAddr,
                      size_t smemSize) {
  if (num != 1 && num != 2 && num != 4)
    return formatv("{0}: .x{1} is not .x1/.x2/.x4", op, num).str();
  if (rowAddr.size() != 32)
    return formatv("{0}: needs the 32 lanes' addresses", op).str();
  for (unsigned l = 0; l < 8 * num; ++l) {
    if (rowAddr[l] % 16)
      return formatv("{0}: lane {1}'s row address {2:x} is not 16-byte "
                     "aligned",
                     op, l, rowAddr[l])
          .str();
    if (uint64_t(rowAddr[l]) + 16 > smemSize)
      return formatv("{0}: lane {1}'s row address {2:x} is outside the CTA's "
                     "{3} bytes of shared memory",
                     op, l, rowAddr[l], smemSize)
          .str();
  }
  return "";
}

/// Byte address of element (r, c) of matrix j.
uint64_t elemAddr(ArrayRef<uint32_t> rowAddr, unsigned j, unsigned r,
                  unsigned c) {
  return uint64_t(rowAddr[8 * j + r]) + 2 * c;
}

} // namespace

std::string pmlir::sim::ldmatrix(unsigned num, bool trans,
                                 ArrayRef<uint32_t> rowAddr,
                                 ArrayRef<uint8_t> smem,
                                 std::vector<std::array<uint32_t, 4>> &regs) {
  std::string e = checkRows("ldmatrix", num, rowAddr, smem.size());
  if (!e.empty())
    return e;
  regs.assign(32, {0, 0, 0, 0});
  auto load16 = [&](uint64_t a) {
    return uint32_t(smem[a]) | uint32_t(smem[a + 1]) << 8;
  };
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < num; ++j) {
      unsigned r0 = trans ? 2 * (l % 4) : l / 4,
               c0 = trans ? l / 4 : 2 * (l % 4);
      uint64_t lo = elemAddr(rowAddr, j, r0, c0);
      uint64_t hi = trans ? elemAddr(rowAddr, j, r0 + 1, c0)
                          : elemAddr(rowAddr, j, r0, c0 + 1);
      regs[l][j] = load16(lo) | load16(hi) << 16;
    }
  return "";
}

std::string
pmlir::sim::stmatrix(unsigned num, bool trans, ArrayRef<uint32_t> rowAddr,
                     MutableArrayRef<uint8_t> smem,
                     const std::vector<std::array<uint32_t, 4>> &regs) {
  std::string e = checkRows("stmatrix", num, rowAddr, smem.size());
  if (!e.empty())
    return e;
  if (regs.size() != 32)
    return "stmatrix: needs 32 lanes of registers";
  auto store16 = [&](uint64_t a, uint32_t v) {
    smem[a] = uint8_t(v);
    smem[a + 1] = uint8_t(v >> 8);
  };
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < num; ++j) {
      unsigned r0 = trans ? 2 * (l % 4) : l / 4,
               c0 = trans ? l / 4 : 2 * (l % 4);
      uint64_t lo = elemAddr(rowAddr, j, r0, c0);
      uint64_t hi = trans ? elemAddr(rowAddr, j, r0 + 1, c0)
                          : elemAddr(rowAddr, j, r0, c0 + 1);
      store16(lo, regs[l][j] & 0xffff);
      store16(hi, regs[l][j] >> 16);
    }
  return "";
}

void pmlir::sim::movmatrixTrans(ArrayRef<uint32_t> in,
                                MutableArrayRef<uint32_t> out) {
  auto elem = [&](unsigned r, unsigned c) {
    return (in[4 * r + c / 2] >> (16 * (c % 2))) & 0xffff;
  };
  for (unsigned l = 0; l < 32; ++l) {
    // out holds T[l/4][2*(l%4) + h] = M[2*(l%4) + h][l/4].
    unsigned r = l / 4, c = 2 * (l % 4);
    out[l] = elem(c, r) | elem(c + 1, r) << 16;
  }
}
