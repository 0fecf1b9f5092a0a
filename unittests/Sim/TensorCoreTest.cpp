//===- TensorCoreTest.cpp - tensor-core model against references ---------===//
//
// Every shared-memory image is built here from the ISA's description of the
// canonical layouts (not with operandOffset): K-major, swizzle W (32/64/128
// bytes): 8-row x W-byte atoms, row r of an atom at byte W*r, 16-byte chunk
// c of the row stored at chunk position c ^ phase(r) with phase(r) = r%8
// (128B), (r/2)%4 (64B), (r/4)%2 (32B) — the XOR of address bits 4-6 with
// bits 7-9 of an atom aligned to 1024 bytes; MN-major the same with K-rows
// and MN bytes; no swizzle: 8x16-byte core matrices. D is compared element by
// element with a float64 triple loop; all values are small integers, so the
// model must match exactly.
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include "pipeline/Sim/TensorCore.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <vector>

using namespace pmlir::sim;

namespace {

uint16_t bf16Of(double v) {
  float f = float(v);
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return uint16_t(b >> 16); // exact for the small integers used here
}
float floatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
uint32_t bitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

unsigned phase(unsigned w, unsigned r) {
  return w == 128 ? r % 8 : w == 64 ? (r / 2) % 4 : w == 32 ? (r / 4) % 2 : 0;
}

/// The layout parameters a test picks for an operand of `rows` (M or N) x
/// `kElems` 16-bit elements.
struct Placement {
  bool mnMajor;
  unsigned swizzle;
  uint32_t base, lbo, sbo;
};

Placement choose(bool mnMajor, unsigned w, uint32_t base, unsigned rows,
                 unsigned kElems) {
  Placement p{mnMajor, w, base, 0, 0};
  unsigned mnBytes = rows * 2, kBytes = kElems * 2;
  if (!mnMajor && w) {
    p.sbo = 8 * w;
    p.lbo = 16; // unused: K fits in the atom row
  } else if (!mnMajor) {
    p.sbo = 128;              // 8-row groups adjacent
    p.lbo = 128 * (rows / 8); // then the next 16 bytes of K
  } else if (w) {
    p.lbo = 8 * w;                 // next atom along MN
    p.sbo = 8 * w * (mnBytes / w); // next 8 K-rows
    if (mnBytes < w)
      p.sbo = 8 * w;
  } else {
    p.sbo = 128;                  // next 16 bytes of MN
    p.lbo = 128 * (mnBytes / 16); // next 8 K-rows
  }
  (void)kBytes;
  return p;
}

/// Writes element (row, k) = value (16-bit) following the ISA description.
void place16(std::vector<uint8_t> &smem, const Placement &p, unsigned row,
             unsigned k, uint16_t value) {
  uint64_t addr;
  unsigned w = p.swizzle;
  if (!p.mnMajor) {
    unsigned kB = 2 * k;
    if (w) {
      unsigned r = row % 8, chunk = kB / 16;
      addr = p.base + (row / 8) * p.sbo + w * r + 16 * (chunk ^ phase(w, r)) +
             kB % 16;
    } else {
      addr = p.base + (row / 8) * p.sbo + (kB / 16) * p.lbo + (row % 8) * 16 +
             kB % 16;
    }
  } else {
    unsigned mnB = 2 * row;
    if (w) {
      unsigned r = k % 8, chunk = (mnB % w) / 16;
      addr = p.base + (mnB / w) * p.lbo + (k / 8) * p.sbo + w * r +
             16 * (chunk ^ phase(w, r)) + mnB % 16;
    } else {
      addr = p.base + (mnB / 16) * p.sbo + (k / 8) * p.lbo + (k % 8) * 16 +
             mnB % 16;
    }
  }
  smem.at(addr) = uint8_t(value); // .at: a test layout past the buffer throws
  smem.at(addr + 1) = uint8_t(value >> 8);
}

/// The descriptor bits, packed by hand from the ISA tables.
uint64_t wgmmaDesc(const Placement &p, unsigned claimedSwizzle) {
  uint64_t mode = claimedSwizzle == 128  ? 1
                  : claimedSwizzle == 64 ? 2
                  : claimedSwizzle == 32 ? 3
                                         : 0;
  return (p.base >> 4) | uint64_t(p.lbo >> 4) << 16 |
         uint64_t(p.sbo >> 4) << 32 | mode << 62;
}
uint64_t ummaDesc(const Placement &p) {
  uint64_t layout = p.swizzle == 128  ? 2
                    : p.swizzle == 64 ? 4
                    : p.swizzle == 32 ? 6
                                      : 0;
  return (p.base >> 4) | uint64_t(p.lbo >> 4) << 16 |
         uint64_t(p.sbo >> 4) << 32 | uint64_t(1) << 46 | layout << 61;
}

double aVal(unsigned m, unsigned k, unsigned K) {
  return double(int((m * K + k) % 251) - 125);
}
double bVal(unsigned k, unsigned n, unsigned N) {
  return double(int(((k * N + n) * 7) % 241) - 120);
}

/// Runs one m64nNk16 bf16 wgmma for the whole warpgroup; returns the number
/// of mismatching D elements (and the first error message in *err).
unsigned runWgmma(unsigned N, bool aMN, unsigned aSw, bool bMN, unsigned bSw,
                  bool regsA, bool scaleD, int scaleA, unsigned claimedASw,
                  std::string *err) {
  const unsigned M = 64, K = 16;
  std::vector<uint8_t> smem(65536, 0);
  Placement pa = choose(aMN, aSw, 0, M, K);
  Placement pb = choose(bMN, bSw, 32768, N, K);
  for (unsigned m = 0; m < M; ++m)
    for (unsigned k = 0; k < K; ++k)
      place16(smem, pa, m, k, bf16Of(aVal(m, k, K)));
  for (unsigned n = 0; n < N; ++n)
    for (unsigned k = 0; k < K; ++k)
      place16(smem, pb, n, k, bf16Of(bVal(k, n, N)));
  std::string e;
  WgmmaInstr in =
      decodeWgmma({"wgmma", "mma_async", "sync", "aligned",
                   "m64n" + std::to_string(N) + "k16", "f32", "bf16", "bf16"},
                  &e);
  if (!e.empty()) {
    *err = e;
    return ~0u;
  }
  unsigned bad = 0;
  for (unsigned w = 0; w < 4; ++w) {
    std::vector<std::vector<uint32_t>> acc(32, std::vector<uint32_t>(N / 2));
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned i = 0; i < N / 2; ++i)
        acc[l][i] = bitsOf(float(0.5 * (l + i + w)));
    auto initial = acc;
    std::vector<std::array<uint32_t, 4>> aRegs(32);
    if (regsA)
      for (unsigned l = 0; l < 32; ++l) {
        // ISA figure: a0,a1 (g, 2t..), a2,a3 (g+8, 2t..), a4,a5 (g, 2t+8..),
        // a6,a7 (g+8, 2t+8..).
        unsigned g = 16 * w + l / 4, t = l % 4;
        auto pair = [&](unsigned r, unsigned c) {
          return uint32_t(bf16Of(aVal(r, c, K))) |
                 uint32_t(bf16Of(aVal(r, c + 1, K))) << 16;
        };
        aRegs[l] = {pair(g, 2 * t), pair(g + 8, 2 * t), pair(g, 2 * t + 8),
                    pair(g + 8, 2 * t + 8)};
      }
    Placement claimed = pa;
    std::string r = wgmmaExecute(in, w, smem, wgmmaDesc(claimed, claimedASw),
                                 regsA ? &aRegs : nullptr, wgmmaDesc(pb, bSw),
                                 scaleD, scaleA, 1, aMN, bMN, acc);
    if (!r.empty()) {
      *err = r;
      return ~0u;
    }
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned i = 0; i < N / 2; ++i) {
        // ISA figure: d0,d1 (g, 2t..), d2,d3 (g+8, 2t..), every 8 columns.
        unsigned row = 16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0);
        unsigned col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
        double ref = scaleD ? floatOf(initial[l][i]) : 0.0;
        for (unsigned k = 0; k < K; ++k)
          ref += scaleA * aVal(row, k, K) * bVal(k, col, N);
        if (floatOf(acc[l][i]) != float(ref)) {
          if (!bad && err)
            *err = "first mismatch at D[" + std::to_string(row) + "][" +
                   std::to_string(col) + "]: got " +
                   std::to_string(floatOf(acc[l][i])) + " want " +
                   std::to_string(ref);
          ++bad;
        }
      }
  }
  return bad;
}

} // namespace

TEST(TensorCoreWgmmaDecode) {
  std::string e;
  WgmmaInstr in = decodeWgmma({"wgmma", "mma_async", "sync", "aligned",
                               "m64n128k16", "f32", "bf16", "bf16"},
                              &e);
  CHECK(e.empty()) << e;
  CHECK(in.n == 128 && in.k == 16 && in.dType == MmaType::F32 &&
        in.aType == MmaType::BF16);
  in = decodeWgmma({"wgmma", "mma_async", "sync", "aligned", "m64n256k32",
                    "f16", "e4m3", "e5m2"},
                   &e);
  CHECK(in.n == 256 && in.k == 32 && in.dType == MmaType::F16 &&
        in.bType == MmaType::E5M2);
  e.clear();
  decodeWgmma({"wgmma", "mma_async", "sync", "aligned", "m64n128k16", "f32",
               "tf32", "tf32"},
              &e);
  CHECK(!e.empty()) << "tf32 needs k8";
}

TEST(TensorCoreDescriptorFields) {
  SmemDescriptor d;
  d.startAddress = 0x1230;
  d.leadingByteOffset = 0x40;
  d.strideByteOffset = 0x400;
  d.swizzleBytes = 64;
  uint64_t bits = encodeWgmmaDescriptor(d);
  CHECK(bits == (0x123ull | 0x4ull << 16 | 0x40ull << 32 | 2ull << 62));
  SmemDescriptor back = decodeWgmmaDescriptor(bits);
  CHECK(back.startAddress == 0x1230 && back.leadingByteOffset == 0x40 &&
        back.strideByteOffset == 0x400 && back.swizzleBytes == 64);
  std::string e;
  d.version = 1;
  d.swizzleBytes = 32;
  bits = encodeUmmaDescriptor(d);
  CHECK(bits >> 61 == 6 && ((bits >> 46) & 3) == 1);
  back = decodeUmmaDescriptor(bits, &e);
  CHECK(e.empty() && back.swizzleBytes == 32 && back.version == 1);
  decodeUmmaDescriptor(uint64_t(1) << 46 | uint64_t(3) << 61, &e);
  CHECK(!e.empty()) << "layout 3 is reserved";
}

// Defect 6: the tcgen05 descriptor's version (bits 46-47) must be 1 and
// the LBO-mode bit 52 (absolute leading-dimension stride) is not modelled:
// both are errors, not silently decoded.
TEST(TensorCoreUmmaDescriptorChecks) {
  uint64_t good = uint64_t(0x40) | uint64_t(8) << 16 | uint64_t(64) << 32 |
                  uint64_t(1) << 46 | uint64_t(2) << 61;
  std::string e;
  SmemDescriptor d = decodeUmmaDescriptor(good, &e);
  CHECK(e.empty() && d.version == 1 && !d.lboAbsolute) << e;
  for (uint64_t version : {0u, 2u, 3u}) {
    e.clear();
    decodeUmmaDescriptor((good & ~(uint64_t(3) << 46)) | version << 46, &e);
    CHECK(e.find("version") != std::string::npos)
        << "version " << version << " accepted: '" << e << "'";
  }
  e.clear();
  d = decodeUmmaDescriptor(good | uint64_t(1) << 52, &e);
  CHECK(d.lboAbsolute && e.find("bit 52") != std::string::npos)
      << "LBO mode bit accepted: '" << e << "'";
  // The errors reach tcgen05.mma and tcgen05.cp.
  std::vector<uint8_t> smem(65536, 0);
  llvm::ArrayRef<uint8_t> views[2] = {smem, smem};
  Tmem t;
  Tmem *tm[2] = {&t, &t};
  Tcgen05MmaInstr in =
      decodeTcgen05Mma({"tcgen05", "mma", "cta_group::1", "kind::f16"}, &e);
  uint32_t idesc =
      1u << 4 | 1u << 7 | 1u << 10 | (64u >> 3) << 17 | (128u >> 4) << 24;
  uint64_t v0 = good & ~(uint64_t(3) << 46);
  CHECK(tcgen05MmaExecute(in, idesc, views, tm, 0, false, good, good, false)
            .empty());
  CHECK(!tcgen05MmaExecute(in, idesc, views, tm, 0, false, good, v0, false)
             .empty())
      << "version-0 B descriptor";
  CHECK(!tcgen05MmaExecute(in, idesc, views, tm, 0, false,
                           good | uint64_t(1) << 52, good, false)
             .empty())
      << "LBO-mode A descriptor";
  CHECK(!tmemCopy(t, TmemCpShape::S128x128b, 0, smem, v0).empty())
      << "tcgen05.cp with a version-0 descriptor";
}

TEST(TensorCoreOperandOffset) {
  // 128B K-major: row 9, bytes 32..47 of K (k = 16 bf16) of an atom at 0,
  // SBO 1024: atom 1, row 1, chunk 2 -> position 2^1 = 3.
  SmemDescriptor d;
  d.strideByteOffset = 1024;
  d.swizzleBytes = 128;
  CHECK(operandOffset(d, Major::K, 16, 9, 16) == 1024 + 128 + 3 * 16);
  // No swizzle, MN-major: element (mn 10, k 9), SBO 128, LBO 512.
  SmemDescriptor n;
  n.strideByteOffset = 128;
  n.leadingByteOffset = 512;
  CHECK(operandOffset(n, Major::MN, 16, 10, 9) == 128 + 512 + 16 + 4);
}

TEST(TensorCoreWgmmaLayouts) {
  for (unsigned sw : {0u, 32u, 64u, 128u})
    for (int majors = 0; majors < 3; ++majors) {
      bool aMN = majors == 1, bMN = majors >= 1;
      std::string err;
      unsigned bad = runWgmma(64, aMN, sw, bMN, sw, false, true, 1, sw, &err);
      CHECK(bad == 0) << "swizzle " << sw << " A " << (aMN ? "MN" : "K")
                      << " B " << (bMN ? "MN" : "K") << ": " << bad
                      << " mismatches; " << err;
    }
  // MN-major B spanning several atoms along N (LBO used), mixed swizzles.
  std::string err;
  CHECK(runWgmma(128, false, 128, true, 32, false, true, 1, 128, &err) == 0)
      << err;
  CHECK(runWgmma(256, true, 64, false, 0, false, true, 1, 64, &err) == 0)
      << err;
}

TEST(TensorCoreWgmmaScaleAndRegisters) {
  std::string err;
  CHECK(runWgmma(64, false, 128, false, 128, false, false, 1, 128, &err) == 0)
      << "scale-d 0: " << err;
  CHECK(runWgmma(64, false, 128, false, 128, false, true, -1, 128, &err) == 0)
      << "imm-scale-a -1: " << err;
  CHECK(runWgmma(64, false, 0, true, 64, true, true, 1, 0, &err) == 0)
      << "A from registers: " << err;
}

TEST(TensorCoreSeededSwizzleBug) {
  // Data placed with a 128B swizzle, descriptor claiming 64B: the check
  // must see a different D.
  std::string err;
  unsigned bad = runWgmma(64, false, 128, false, 128, false, true, 1, 64, &err);
  CHECK(bad > 0 && bad != ~0u) << "a wrong swizzle went unnoticed";
}

namespace {

/// e4m3 bits of a small integer (|v| <= 15), from the OCP FP8 layout:
/// sign 7, exponent 3-6 (bias 7), 3 mantissa bits.
uint8_t e4m3Of(int v) {
  if (v == 0)
    return 0;
  unsigned a = unsigned(v < 0 ? -v : v), e = 0;
  while ((a >> (e + 1)) != 0)
    ++e;
  unsigned mant = ((a << 3) >> e) & 7;
  return uint8_t((v < 0 ? 0x80 : 0) | (e + 7) << 3 | mant);
}
/// e5m2 bits of a small integer (|v| <= 7): exponent 2-6 (bias 15), 2
/// mantissa bits.
uint8_t e5m2Of(int v) {
  if (v == 0)
    return 0;
  unsigned a = unsigned(v < 0 ? -v : v), e = 0;
  while ((a >> (e + 1)) != 0)
    ++e;
  unsigned mant = ((a << 2) >> e) & 3;
  return uint8_t((v < 0 ? 0x80 : 0) | (e + 15) << 2 | mant);
}

/// The 8-bit wgmma of an m64nNk128 tile: e4m3 A (64 x 128) and e5m2 B
/// (N x 128), both K-major with one 128-byte swizzle row of K per row, as
/// four m64nNk32 whose descriptors advance the start address by 32 bytes
/// (the K step of 8-bit operands). Returns the mismatches against the
/// float64 product (all values small integers: exact).
unsigned runWgmmaFp8(unsigned N, std::string *err) {
  const unsigned M = 64, K = 128;
  std::vector<uint8_t> smem(65536, 0);
  auto aInt = [](unsigned m, unsigned k) {
    return int((m * 7 + k * 3) % 15) - 7;
  };
  auto bInt = [](unsigned k, unsigned n) {
    return int((k * 5 + n * 11) % 13) - 6;
  };
  // K-major, 128-byte swizzle: row r at 128 (r % 8) + 1024 (r / 8), its
  // 16-byte chunk c at c ^ (r % 8).
  auto place = [&](uint32_t base, unsigned row, unsigned k, uint8_t v) {
    unsigned r = row % 8;
    smem.at(base + (row / 8) * 1024 + 128 * r + 16 * ((k / 16) ^ r) + k % 16) =
        v;
  };
  for (unsigned m = 0; m < M; ++m)
    for (unsigned k = 0; k < K; ++k)
      place(0, m, k, e4m3Of(aInt(m, k)));
  for (unsigned n = 0; n < N; ++n)
    for (unsigned k = 0; k < K; ++k)
      place(32768, n, k, e5m2Of(bInt(k, n)));
  std::string e;
  WgmmaInstr in =
      decodeWgmma({"wgmma", "mma_async", "sync", "aligned",
                   "m64n" + std::to_string(N) + "k32", "f32", "e4m3", "e5m2"},
                  &e);
  if (!e.empty()) {
    *err = e;
    return ~0u;
  }
  unsigned bad = 0;
  for (unsigned w = 0; w < 4; ++w) {
    std::vector<std::vector<uint32_t>> acc(32, std::vector<uint32_t>(N / 2));
    for (unsigned step = 0; step < K / 32; ++step) {
      Placement pa{false, 128, 32 * step, 16, 1024};
      Placement pb{false, 128, 32768 + 32 * step, 16, 1024};
      std::string r =
          wgmmaExecute(in, w, smem, wgmmaDesc(pa, 128), nullptr,
                       wgmmaDesc(pb, 128), step > 0, 1, 1, false, false, acc);
      if (!r.empty()) {
        *err = r;
        return ~0u;
      }
    }
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned i = 0; i < N / 2; ++i) {
        unsigned row = 16 * w + l / 4 + ((i % 4) >= 2 ? 8 : 0);
        unsigned col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
        double ref = 0;
        for (unsigned k = 0; k < K; ++k)
          ref += double(aInt(row, k)) * double(bInt(k, col));
        if (floatOf(acc[l][i]) != float(ref)) {
          if (!bad)
            *err = "first mismatch at D[" + std::to_string(row) + "][" +
                   std::to_string(col) + "]: got " +
                   std::to_string(floatOf(acc[l][i])) + " want " +
                   std::to_string(ref);
          ++bad;
        }
      }
  }
  return bad;
}

} // namespace

TEST(TensorCoreWgmmaFp8) {
  // The codes themselves, from the format tables: 1.0, -3.0, 14.0.
  CHECK(e4m3Of(1) == 0x38 && e4m3Of(-3) == 0xC4 && e4m3Of(14) == 0x56);
  CHECK(e5m2Of(1) == 0x3C && e5m2Of(-6) == 0xC6);
  for (unsigned n : {64u, 128u, 256u}) {
    std::string err;
    CHECK(runWgmmaFp8(n, &err) == 0)
        << "m64n" << n << "k32 e4m3 x e5m2: " << err;
  }
  // 8-bit operands have no transposed (MN-major) form.
  std::string e;
  WgmmaInstr in = decodeWgmma({"wgmma", "mma_async", "sync", "aligned",
                               "m64n64k32", "f32", "e4m3", "e4m3"},
                              &e);
  CHECK(e.empty()) << e;
  std::vector<uint8_t> smem(65536, 0);
  std::vector<std::vector<uint32_t>> acc(32, std::vector<uint32_t>(32));
  Placement p{false, 128, 0, 16, 1024};
  CHECK(!wgmmaExecute(in, 0, smem, wgmmaDesc(p, 128), nullptr,
                      wgmmaDesc(p, 128), true, 1, 1, false, true, acc)
             .empty())
      << "imm-trans-b accepted for e4m3";
}

TEST(TensorCoreWgmmaErrors) {
  std::string e;
  WgmmaInstr in = decodeWgmma({"wgmma", "mma_async", "sync", "aligned",
                               "m64n64k16", "f32", "bf16", "bf16"},
                              &e);
  std::vector<uint8_t> smem(1024, 0);
  std::vector<std::vector<uint32_t>> acc(32, std::vector<uint32_t>(32));
  Placement p{false, 128, 0, 16, 1024};
  std::string r =
      wgmmaExecute(in, 0, smem, wgmmaDesc(p, 128), nullptr, wgmmaDesc(p, 128),
                   true, 1, 1, false, false, acc);
  CHECK(!r.empty()) << "reading past the shared window must be an error";
}

namespace {

/// f16 bits of a small integer (|v| < 2048), built from the IEEE layout:
/// sign 15, exponent 10-14 (bias 15), 10 mantissa bits.
uint16_t f16Of(int v) {
  if (v == 0)
    return 0;
  unsigned a = unsigned(v < 0 ? -v : v), e = 0;
  while ((a >> (e + 1)) != 0)
    ++e;
  unsigned mant = ((a << 10) >> e) & 0x3ff;
  return uint16_t((v < 0 ? 0x8000u : 0u) | (e + 15) << 10 | mant);
}

/// Where element (m, n) of a CTA's share of D lives, written from CUTLASS
/// cute/atom/mma_traits_sm100_frag.hpp (TMEM offset = lane + 128*column):
///   1 CTA, M 64:   ((16,4),N):((1,32),128) -> lane (m/16)*32 + m%16, col n
///   2 CTAs, M 128: (64,(N/2,2)):(1,(128,64)) ("2x2") -> lane m + 64*h,
///                  col n - h*N/2 with h = n / (N/2)
///   otherwise:     (128,N):(1,128) -> lane m, col n.
struct Cell {
  unsigned lane, col;
};
Cell expectedCell(unsigned cg, unsigned M, unsigned N, unsigned m, unsigned n) {
  if (cg == 1 && M == 64)
    return {(m / 16) * 32 + m % 16, n};
  if (cg == 2 && M == 128) {
    unsigned h = n >= N / 2 ? 1 : 0;
    return {m + 64 * h, n - h * (N / 2)};
  }
  return {m, n};
}

struct Tc05Case {
  unsigned M = 128, N = 64, cg = 1;
  bool aMN = false;
  unsigned aSw = 128;
  bool bMN = false;
  unsigned bSw = 128;
  bool enableInputD = true;
  bool f16D = false;      // f16 inputs and f16 accumulator (else bf16 -> f32)
  bool aFromTmem = false; // A in TMEM (K-major), rows at their D lanes
  bool aCopiesDiffer = false; // 2 CTAs M 128: upper copy of A holds A + 1
};

/// Runs one tcgen05.mma kind::f16 and compares every cell of both CTAs'
/// tensor memory with the expectation (D elements at expectedCell, every
/// other cell unchanged). Returns the number of mismatches.
unsigned runTcgen05(const Tc05Case &tc, std::string *err) {
  const unsigned K = 16, M = tc.M, N = tc.N, cg = tc.cg;
  unsigned mPer = M / cg, nPer = N / cg;
  // f16 D: small values so every sum is an exact f16 integer.
  auto av = [&](unsigned m, unsigned k) {
    return tc.f16D ? double(int((m + 3 * k) % 5) - 2) : aVal(m, k, K);
  };
  auto bv = [&](unsigned k, unsigned n) {
    return tc.f16D ? double(int((5 * k + n) % 7) - 3) : bVal(k, n, N);
  };
  auto enc = [&](double v) { return tc.f16D ? f16Of(int(v)) : bf16Of(v); };
  std::vector<uint8_t> smem[2] = {std::vector<uint8_t>(65536, 0),
                                  std::vector<uint8_t>(65536, 0)};
  Placement pa = choose(tc.aMN, tc.aSw, 0, mPer, K);
  Placement pb = choose(tc.bMN, tc.bSw, 32768, nPer, K);
  for (unsigned c = 0; c < cg; ++c) {
    if (!tc.aFromTmem)
      for (unsigned m = 0; m < mPer; ++m)
        for (unsigned k = 0; k < K; ++k)
          place16(smem[c], pa, m, k, enc(av(c * mPer + m, k)));
    for (unsigned n = 0; n < nPer; ++n)
      for (unsigned k = 0; k < K; ++k)
        place16(smem[c], pb, n, k, enc(bv(k, c * nPer + n)));
  }
  Tmem t0, t1;
  Tmem *tm[2] = {&t0, &t1};
  const unsigned dCol = 64, aCol = 400;
  // Background: a distinct pattern in every cell (f16 D: an f16 value in
  // the low half, junk in the high half that the MMA must ignore).
  for (unsigned c = 0; c < 2; ++c)
    for (unsigned lane = 0; lane < 128; ++lane)
      for (unsigned col = 0; col < 512; ++col) {
        int v = int(lane % 7) - int(col % 5);
        tm[c]->at(lane, col) =
            tc.f16D ? (0xa500u + lane) << 16 | f16Of(v) : bitsOf(float(v));
      }
  // A in TMEM: row m of the CTA's share at its D lanes (both lanes m and
  // m + 64 for the 2-CTA M 128 layout: CUTLASS TmemAllocMode::Duplicated),
  // two 16-bit elements per column, even k in the low half.
  if (tc.aFromTmem)
    for (unsigned c = 0; c < cg; ++c)
      for (unsigned m = 0; m < mPer; ++m)
        for (unsigned h = 0; h < (cg == 2 && M == 128 ? 2u : 1u); ++h) {
          unsigned lane = expectedCell(cg, M, N, m, h * (N / 2)).lane;
          double plus = h && tc.aCopiesDiffer ? 1 : 0;
          for (unsigned k = 0; k < K; k += 2)
            tm[c]->at(lane, aCol + k / 2) =
                uint32_t(enc(av(c * mPer + m, k) + plus)) |
                uint32_t(enc(av(c * mPer + m, k + 1) + plus)) << 16;
        }
  Tmem before[2] = {t0, t1};
  std::string e;
  std::vector<std::string> parts = {
      "tcgen05", "mma", "cta_group::" + std::to_string(cg), "kind::f16"};
  Tcgen05MmaInstr in = decodeTcgen05Mma(parts, &e);
  Tcgen05InstrDesc d;
  d.dFormat = tc.f16D ? 0 : 1;
  d.aFormat = d.bFormat = tc.f16D ? 0 : 1; // F16 : BF16
  d.transposeA = tc.aMN;
  d.transposeB = tc.bMN;
  d.m = M;
  d.n = N;
  // Hand-packed per the ISA table.
  uint32_t idesc = (tc.f16D ? 0u : 1u << 4 | 1u << 7 | 1u << 10) |
                   uint32_t(tc.aMN) << 15 | uint32_t(tc.bMN) << 16 |
                   (N >> 3) << 17 | (M >> 4) << 24;
  if (encodeTcgen05InstrDesc(d, Tcgen05Kind::F16) != idesc) {
    *err = "instruction descriptor encoding differs from the ISA table";
    return ~0u;
  }
  llvm::ArrayRef<uint8_t> views[2] = {smem[0], smem[1]};
  std::string r =
      tcgen05MmaExecute(in, idesc, views, tm, dCol, tc.aFromTmem,
                        tc.aFromTmem ? uint64_t(aCol) : ummaDesc(pa),
                        ummaDesc(pb), tc.enableInputD);
  if (!r.empty()) {
    *err = e + r;
    return ~0u;
  }
  // The expected tensor memory: unchanged, except the D elements.
  Tmem want[2] = {before[0], before[1]};
  for (unsigned c = 0; c < cg; ++c)
    for (unsigned m = 0; m < mPer; ++m)
      for (unsigned n = 0; n < N; ++n) {
        Cell cell = expectedCell(cg, M, N, m, n);
        uint32_t old = before[c].at(cell.lane, dCol + cell.col);
        double ref = 0;
        if (tc.enableInputD)
          ref = tc.f16D
                    ? double(int(cell.lane % 7) - int((dCol + cell.col) % 5))
                    : floatOf(old);
        double plus = tc.aCopiesDiffer && cell.lane >= 64 ? 1 : 0;
        for (unsigned k = 0; k < K; ++k)
          ref += (av(c * mPer + m, k) + plus) * bv(k, n);
        want[c].at(cell.lane, dCol + cell.col) =
            tc.f16D ? uint32_t(f16Of(int(ref))) : bitsOf(float(ref));
      }
  unsigned bad = 0;
  for (unsigned c = 0; c < 2; ++c)
    for (unsigned lane = 0; lane < 128; ++lane)
      for (unsigned col = 0; col < 512; ++col)
        if (tm[c]->at(lane, col) != want[c].at(lane, col)) {
          if (!bad)
            *err = "CTA " + std::to_string(c) + " lane " +
                   std::to_string(lane) + " column " + std::to_string(col) +
                   ": got " + std::to_string(tm[c]->at(lane, col)) + " want " +
                   std::to_string(want[c].at(lane, col));
          ++bad;
        }
  return bad;
}

unsigned runTcgen05(unsigned M, unsigned N, unsigned cg, bool aMN, unsigned aSw,
                    bool bMN, unsigned bSw, bool enableInputD,
                    std::string *err) {
  Tc05Case tc;
  tc.M = M, tc.N = N, tc.cg = cg, tc.aMN = aMN, tc.aSw = aSw, tc.bMN = bMN,
  tc.bSw = bSw, tc.enableInputD = enableInputD;
  return runTcgen05(tc, err);
}

} // namespace

TEST(TensorCoreTcgen05Decode) {
  std::string e;
  Tcgen05MmaInstr in = decodeTcgen05Mma(
      {"tcgen05", "mma", "cta_group::2", "kind::f16", "collector::a::discard"},
      &e);
  CHECK(e.empty() && in.ctaGroup == 2 && in.kind == Tcgen05Kind::F16 &&
        in.collectorA == "discard")
      << e;
  // Block-scaled fields (kind::mxf4nvf4): sf ids, scale type, M>>7, K96.
  uint32_t bits = 2u << 4 | 1u << 7 | 1u << 10 | (128u >> 3) << 17 | 0u << 23 |
                  (256u >> 7) << 27 | 2u << 29 | 1u << 31;
  Tcgen05InstrDesc d = decodeTcgen05InstrDesc(bits, Tcgen05Kind::MXF4NVF4);
  CHECK(d.sfbId == 2 && d.sfaId == 2 && !d.scaleUE8M0 && d.m == 256 &&
        d.n == 128 && d.k96);
  CHECK(tcgen05OperandType(Tcgen05Kind::MXF4NVF4, d.aFormat) == MmaType::E2M1);
  CHECK(encodeTcgen05InstrDesc(d, Tcgen05Kind::MXF4NVF4) == bits);
  CHECK(tcgen05K(Tcgen05Kind::MXF4NVF4, d) == 96);
}

TEST(TensorCoreTcgen05Mma) {
  std::string err;
  CHECK(runTcgen05(128, 64, 1, false, 128, false, 128, true, &err) == 0)
      << "M128 K/K 128B: " << err;
  CHECK(runTcgen05(128, 64, 1, false, 128, false, 128, false, &err) == 0)
      << "M128 enable-input-d 0: " << err;
  CHECK(runTcgen05(128, 128, 1, true, 64, true, 32, true, &err) == 0)
      << "M128 MN/MN: " << err;
  CHECK(runTcgen05(128, 32, 1, false, 0, true, 0, true, &err) == 0)
      << "M128 no swizzle: " << err;
  CHECK(runTcgen05(256, 64, 2, false, 128, false, 128, true, &err) == 0)
      << "M256 cta_group::2: " << err;
  CHECK(runTcgen05(256, 128, 2, true, 128, true, 64, true, &err) == 0)
      << "M256 cta_group::2 MN-major: " << err;
}

// Defect 2: cta_group::2 with M = 128 (64 rows per CTA) uses CUTLASS's
// "2x2" layout (64,(N/2,2)):(1,(128,64)): row m, column n of a CTA's D at
// lane m + 64*(n/(N/2)), column n%(N/2); only N/2 columns are written.
// The old model used the 1-CTA M=64 layout over N columns.
TEST(TensorCoreTcgen05Cta2M128Layout) {
  std::string err;
  CHECK(runTcgen05(128, 64, 2, false, 128, false, 128, true, &err) == 0)
      << "M128 cta_group::2 N64: " << err;
  CHECK(runTcgen05(128, 256, 2, true, 64, false, 32, true, &err) == 0)
      << "M128 cta_group::2 N256 MN/K: " << err;
  // A from TMEM, stored duplicated (rows 0-63 in lanes 0-63 and 64-127).
  Tc05Case tc;
  tc.M = 128, tc.N = 64, tc.cg = 2, tc.aFromTmem = true;
  CHECK(runTcgen05(tc, &err) == 0) << "M128 cta_group::2 A in TMEM: " << err;
  // The right half of N reads A from the copy in lanes 64-127.
  tc.aCopiesDiffer = true;
  CHECK(runTcgen05(tc, &err) == 0)
      << "M128 cta_group::2 A in TMEM, which copy: " << err;
  // cta_group::1 M = 64 keeps (16,4):(1,32), from shared memory and TMEM.
  CHECK(runTcgen05(64, 48, 1, false, 64, true, 128, true, &err) == 0)
      << "M64 cta_group::1: " << err;
  tc = Tc05Case();
  tc.M = 64, tc.N = 32, tc.aFromTmem = true;
  CHECK(runTcgen05(tc, &err) == 0) << "M64 cta_group::1 A in TMEM: " << err;
  CHECK(tcgen05DColumns(2, 128, 64) == 32 &&
        tcgen05DColumns(2, 256, 64) == 64 && tcgen05DColumns(1, 64, 64) == 64);
}

// Defect 3: an f16 accumulator takes one 32-bit column per element (low 16
// bits; the model writes the high half 0 and ignores it on input), N
// columns, not two per column.
TEST(TensorCoreTcgen05F16Accumulator) {
  for (bool enable : {true, false}) {
    Tc05Case tc;
    tc.N = 32, tc.f16D = true, tc.enableInputD = enable;
    std::string err;
    CHECK(runTcgen05(tc, &err) == 0)
        << "f16 D, enable-input-d " << enable << ": " << err;
  }
  Tc05Case tc;
  tc.M = 256, tc.N = 48, tc.cg = 2, tc.f16D = true, tc.bMN = true;
  std::string err;
  CHECK(runTcgen05(tc, &err) == 0) << "f16 D M256 cta_group::2: " << err;
  tc.M = 128, tc.N = 32;
  CHECK(runTcgen05(tc, &err) == 0) << "f16 D M128 cta_group::2: " << err;
}

// Defect 5: PTX ISA tcgen05.mma shape table: cta_group::1 M 64/128 with N
// 8..256 in steps of 8; cta_group::2 M 128/256 with N 16..256 in steps of
// 16. CUTLASS's TS atoms (A in TMEM) need N % 16 for M = 128.
TEST(TensorCoreTcgen05Shapes) {
  std::string err;
  CHECK(runTcgen05(128, 8, 1, false, 128, false, 128, true, &err) == 0)
      << "M128 N8: " << err;
  CHECK(runTcgen05(128, 24, 1, true, 0, true, 64, true, &err) == 0)
      << "M128 N24: " << err;
  CHECK(runTcgen05(64, 8, 1, false, 32, false, 0, true, &err) == 0)
      << "M64 N8: " << err;
  CHECK(runTcgen05(256, 16, 2, false, 128, false, 128, true, &err) == 0)
      << "M256 cta_group::2 N16: " << err;
  CHECK(runTcgen05(128, 16, 2, false, 128, false, 128, true, &err) == 0)
      << "M128 cta_group::2 N16: " << err;
  Tc05Case tc;
  tc.N = 24, tc.aFromTmem = true;
  CHECK(runTcgen05(tc, &err) == ~0u &&
        err.find("invalid shape") != std::string::npos)
      << "M128 N24 with A in TMEM must be rejected: " << err;
  tc.N = 32;
  CHECK(runTcgen05(tc, &err) == 0) << "M128 N32 A in TMEM: " << err;
  for (unsigned bad : {0u, 264u}) {
    err.clear();
    CHECK(runTcgen05(128, bad, 1, false, 0, false, 0, true, &err) == ~0u)
        << "N=" << bad << " must be rejected";
  }
  err.clear();
  CHECK(runTcgen05(256, 24, 2, false, 128, false, 128, true, &err) == ~0u)
      << "cta_group::2 N24 must be rejected";
  err.clear();
  CHECK(runTcgen05(64, 64, 2, false, 128, false, 128, true, &err) == ~0u)
      << "cta_group::2 M64 must be rejected";
}

TEST(TensorCoreTmemLoadStore) {
  Tmem tm;
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned col = 0; col < 512; ++col)
      tm.at(lane, col) = lane * 1000 + col;
  std::vector<std::vector<uint32_t>> regs;
  // 32x32b.x32, warp 1 (lanes 32-63), base column 16.
  std::string e = tmemLoad(tm, TmemLdStShape::S32x32b, 32, false, 1,
                           (32u << 16) | 16, 0, regs);
  CHECK(e.empty()) << e;
  bool ok = regs.size() == 32 && regs[0].size() == 32;
  for (unsigned t = 0; ok && t < 32; ++t)
    for (unsigned r = 0; r < 32; ++r)
      ok &= regs[t][r] == (32 + t) * 1000 + 16 + r;
  CHECK(ok) << "32x32b.x32: thread t register r is lane t, column r";
  // Warp 0 may not touch lane 32.
  e = tmemLoad(tm, TmemLdStShape::S32x32b, 1, false, 0, 32u << 16, 0, regs);
  CHECK(!e.empty()) << "access outside the warp's lane quadrant";
  // 16x256b.x1 is the mma m16n8 accumulator fragment.
  e = tmemLoad(tm, TmemLdStShape::S16x256b, 1, false, 4, 0, 0, regs);
  ok = e.empty();
  for (unsigned t = 0; ok && t < 32; ++t)
    for (unsigned r = 0; r < 4; ++r)
      ok &=
          regs[t][r] == (t / 4 + (r >= 2 ? 8 : 0)) * 1000 + 2 * (t % 4) + r % 2;
  CHECK(ok) << e;
  // Store / load round trip with unpack/pack::16b.
  std::vector<std::vector<uint32_t>> in(32, std::vector<uint32_t>(4));
  for (unsigned t = 0; t < 32; ++t)
    for (unsigned r = 0; r < 4; ++r)
      in[t][r] = (t << 20) | (r << 16) | (t * 4 + r);
  e = tmemStore(tm, TmemLdStShape::S16x64b, 4, true, 2, (64u << 16) | 100, 0,
                in);
  CHECK(e.empty()) << e;
  CHECK(tm.at(64, 100) == (in[0][0] & 0xffff) &&
        tm.at(64, 101) == (in[0][0] >> 16))
      << "unpack::16b: thread 0 register 0 -> lane 0 columns 0 and 1";
  e = tmemLoad(tm, TmemLdStShape::S16x64b, 4, true, 2, (64u << 16) | 100, 0,
               regs);
  CHECK(e.empty() && regs == in) << "pack/unpack round trip " << e;
}

TEST(TensorCoreTmemCopy) {
  // 32x128b.warpx4 of 32 rows x 16 bytes, no swizzle, SBO 128.
  std::vector<uint8_t> smem(4096, 0);
  for (unsigned r = 0; r < 32; ++r)
    for (unsigned b = 0; b < 16; ++b)
      smem[512 + (r / 8) * 128 + (r % 8) * 16 + b] = uint8_t(r * 16 + b);
  Placement p{false, 0, 512, 0, 128};
  Tmem tm;
  std::string e =
      tmemCopy(tm, TmemCpShape::S32x128bWarpx4, 8, smem, ummaDesc(p));
  CHECK(e.empty()) << e;
  bool ok = true;
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned r = 0; r < 32; ++r)
      for (unsigned c = 0; c < 4; ++c) {
        uint32_t want = 0;
        for (unsigned b = 0; b < 4; ++b)
          want |= uint32_t(uint8_t(r * 16 + 4 * c + b)) << (8 * b);
        ok &= tm.at(32 * w + r, 8 + c) == want;
      }
  CHECK(ok) << "32x128b.warpx4";
  TmemCpShape s;
  CHECK(parseTmemCpShape("128x256b", "", s) && s == TmemCpShape::S128x256b);
  CHECK(parseTmemCpShape("4x256b", "", s) && s == TmemCpShape::S4x256b);
  CHECK(!parseTmemCpShape("64x128b", "", s));
}

TEST(TensorCoreLdmatrix) {
  std::vector<uint8_t> smem(4096, 0);
  std::vector<uint32_t> rowAddr(32);
  // Matrix j row r at a scattered 16-byte-aligned address.
  for (unsigned l = 0; l < 32; ++l)
    rowAddr[l] = 16 * ((l * 37) % 200);
  auto value = [](unsigned j, unsigned r, unsigned c) {
    return uint16_t(0x1000 * (j + 1) + r * 8 + c);
  };
  for (unsigned j = 0; j < 4; ++j)
    for (unsigned r = 0; r < 8; ++r)
      for (unsigned c = 0; c < 8; ++c) {
        uint32_t a = rowAddr[8 * j + r] + 2 * c;
        smem[a] = uint8_t(value(j, r, c));
        smem[a + 1] = uint8_t(value(j, r, c) >> 8);
      }
  std::vector<std::array<uint32_t, 4>> regs;
  std::string e = ldmatrix(4, false, rowAddr, smem, regs);
  CHECK(e.empty()) << e;
  bool ok = true;
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < 4; ++j)
      ok &= regs[l][j] == (value(j, l / 4, 2 * (l % 4)) |
                           uint32_t(value(j, l / 4, 2 * (l % 4) + 1)) << 16);
  CHECK(ok) << "ldmatrix.x4";
  e = ldmatrix(4, true, rowAddr, smem, regs);
  ok = e.empty();
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < 4; ++j)
      ok &= regs[l][j] == (value(j, 2 * (l % 4), l / 4) |
                           uint32_t(value(j, 2 * (l % 4) + 1, l / 4)) << 16);
  CHECK(ok) << "ldmatrix.x4.trans " << e;
  // stmatrix.trans writes back what ldmatrix.trans read.
  std::vector<uint8_t> copy(4096, 0);
  e = stmatrix(4, true, rowAddr, copy, regs);
  ok = e.empty();
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned b = 0; b < 16; ++b)
      ok &= copy[rowAddr[l] + b] == smem[rowAddr[l] + b];
  CHECK(ok) << "stmatrix.trans " << e;
  // movmatrix.trans of matrix 0's fragment equals ldmatrix.trans.
  std::vector<std::array<uint32_t, 4>> plain;
  ldmatrix(1, false, rowAddr, smem, plain);
  std::vector<uint32_t> in(32), out(32);
  for (unsigned l = 0; l < 32; ++l)
    in[l] = plain[l][0];
  movmatrixTrans(in, out);
  ok = true;
  for (unsigned l = 0; l < 32; ++l)
    ok &= out[l] == regs[l][0];
  CHECK(ok) << "movmatrix.trans";
  rowAddr[3] = 8;
  CHECK(!ldmatrix(1, false, rowAddr, smem, regs).empty()) << "misaligned row";
}

// Defect 4: tcgen05.cp .4x256b writes one row per 32-lane sub-partition:
// row r to lane base + 32*r (CUTLASS SM100_UTCCP_4dp256bit SrcLayout
// (4,256):(32,128)), not to lanes base+0..3.
TEST(TensorCoreTmemCopy4x256b) {
  // 4 rows x 32 bytes, K-major, no swizzle: row r, byte b at 256 +
  // (r%8)*16 + (b/16)*LBO + b%16, LBO 128, SBO 1024.
  std::vector<uint8_t> smem(4096, 0);
  auto byte = [](unsigned r, unsigned b) { return uint8_t(0x40 * r + b + 1); };
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned b = 0; b < 32; ++b)
      smem[256 + r * 16 + (b / 16) * 128 + b % 16] = byte(r, b);
  Placement p{false, 0, 256, 128, 1024};
  Tmem tm;
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned col = 0; col < 512; ++col)
      tm.at(lane, col) = 0xdead0000u | lane << 9 | col;
  Tmem before = tm;
  std::string e = tmemCopy(tm, TmemCpShape::S4x256b, 20, smem, ummaDesc(p));
  CHECK(e.empty()) << e;
  Tmem want = before;
  for (unsigned r = 0; r < 4; ++r)
    for (unsigned w = 0; w < 8; ++w) {
      uint32_t word = 0;
      for (unsigned b = 0; b < 4; ++b)
        word |= uint32_t(byte(r, 4 * w + b)) << (8 * b);
      want.at(32 * r, 20 + w) = word;
    }
  unsigned bad = 0;
  std::string first;
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned col = 0; col < 512; ++col)
      if (tm.at(lane, col) != want.at(lane, col) && !bad++)
        first =
            "lane " + std::to_string(lane) + " column " + std::to_string(col);
  CHECK(bad == 0) << "4x256b: " << bad << " wrong cells, first at " << first;
}

//===----------------------------------------------------------------------===//
// Block-scaled tcgen05.mma (kind::mxf8f6f4 / mxf4 / mxf4nvf4) and kind::i8
//===----------------------------------------------------------------------===//
//
// Written from the PTX ISA 9.7.16.10.7 "Block Scaling" (D = (A * scale_A) *
// (B * scale_B) + D; scale factors "duplicated to all 32 lane partitions";
// SF ID = byte offset (1X), half-word offset 0/2 (2X), 0 (4X)) and the
// CUTLASS scale-factor TMEM atom (tmem_sf_frg, cute/atom/
// mma_traits_sm100_frag.hpp): factor s of row r at column base + r/32,
// byte SF_ID + s, lanes 32*q + r%32 for q = 0..3. Elements and scale
// factors are decoded here by their own formulas (not decodeMmaElement).

namespace {

/// Value of an unsigned/signed minifloat code (e exponent bits, m mantissa
/// bits, bias 2^(e-1)-1, no inf/NaN handling: the tests use finite codes).
double miniValue(unsigned code, unsigned e, unsigned m, bool hasSign) {
  int bias = (1 << (e - 1)) - 1;
  unsigned exp = (code >> m) & ((1u << e) - 1), man = code & ((1u << m) - 1);
  double v = exp ? std::ldexp(1.0 + man / double(1u << m), int(exp) - bias)
                 : std::ldexp(man / double(1u << m), 1 - bias);
  return hasSign && (code >> (e + m)) & 1 ? -v : v;
}

struct BsCase {
  Tcgen05Kind kind = Tcgen05Kind::MXF8F6F4;
  std::string kindName = "mxf8f6f4", vecName; // vecName "" = none
  unsigned numSf = 1; // scale factors per row (1X, 2X, 4X)
  bool ue8m0 = true;  // else UE4M3
  unsigned sfaId = 0, sfbId = 0;
  unsigned N = 64;
  bool enableInputD = true;
  int ignoreBlock = -1;   // reference only: treat this K block's scales as 1
  bool breakCopy = false; // make one copy of a scale factor differ
};

/// Runs one block-scaled tcgen05.mma.cta_group::1 (M = 128) and compares
/// all of TMEM with a float64 reference. Returns the number of mismatching
/// cells (~0u if the model reported an error, in *err).
unsigned runBlockScaled(const BsCase &tc, std::string *err) {
  const unsigned M = 128, N = tc.N;
  bool fp4 = tc.kind != Tcgen05Kind::MXF8F6F4;
  const unsigned K = fp4 ? 64 : 32, block = K / tc.numSf;
  // Element codes: e4m3 (8 bits) or e2m1 (4 bits, packed two per byte).
  auto aCode = [&](unsigned m, unsigned k) {
    unsigned h = (m * 7 + k * 3) % 11;
    return fp4 ? (h % 8) | (h & 8)                 // e2m1: 0..6 with sign
               : (0x30 + (h % 12)) | (h & 1) << 7; // e4m3 0.5 .. 1.375*2^1
  };
  auto bCode = [&](unsigned k, unsigned n) {
    unsigned h = (k * 5 + n * 3 + 1) % 13;
    return fp4 ? (h % 8) | (h > 9 ? 8 : 0) : (0x2c + (h % 16)) | (h > 10) << 7;
  };
  auto elem = [&](unsigned code) {
    return fp4 ? miniValue(code & 0xf, 2, 1, true)
               : miniValue(code & 0xff, 4, 3, true);
  };
  // Scale codes: UE8M0 2^(c-127) with c in 124..130; UE4M3 codes 0x30..0x47
  // (0.5 .. 2.875).
  auto sfaCode = [&](unsigned m, unsigned s) -> uint8_t {
    unsigned h = (m * 3 + s * 5) % 7;
    return tc.ue8m0 ? uint8_t(124 + h) : uint8_t(0x30 + 3 * h);
  };
  auto sfbCode = [&](unsigned n, unsigned s) -> uint8_t {
    unsigned h = (n * 5 + s * 3 + 2) % 7;
    return tc.ue8m0 ? uint8_t(124 + h) : uint8_t(0x31 + 2 * h);
  };
  auto sfValue = [&](uint8_t c) {
    return tc.ue8m0 ? std::ldexp(1.0, int(c) - 127) : miniValue(c, 4, 3, false);
  };
  // Shared memory: K-major, no swizzle, 8-row x 16-byte core matrices:
  // byte kB of row r at base + (r/8)*SBO + (r%8)*16 + (kB/16)*LBO + kB%16.
  const unsigned rowBytes = 32; // K 32 x 8 bits or K 64 x 4 bits
  std::vector<uint8_t> smem(65536, 0);
  Placement pa{false, 0, 0, 128 * (M / 8), 128};
  Placement pb{false, 0, 32768, 128 * (N / 8), 128};
  auto put = [&](const Placement &p, unsigned r, unsigned kB, uint8_t v) {
    smem[p.base + (r / 8) * p.sbo + (r % 8) * 16 + (kB / 16) * p.lbo +
         kB % 16] = v;
  };
  for (unsigned kB = 0; kB < rowBytes; ++kB) {
    for (unsigned m = 0; m < M; ++m)
      put(pa, m, kB,
          fp4 ? uint8_t(aCode(m, 2 * kB) | aCode(m, 2 * kB + 1) << 4)
              : uint8_t(aCode(m, kB)));
    for (unsigned n = 0; n < N; ++n)
      put(pb, n, kB,
          fp4 ? uint8_t(bCode(2 * kB, n) | bCode(2 * kB + 1, n) << 4)
              : uint8_t(bCode(kB, n)));
  }
  // Tensor memory: background, then the scale factors (only their bytes).
  Tmem t0, t1;
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned col = 0; col < 512; ++col)
      t0.at(lane, col) = bitsOf(float(int(lane % 7) - int(col % 5)));
  const unsigned dCol = 0, sfaCol = 300, sfbCol = 320;
  auto putSf = [&](unsigned col0, unsigned id, unsigned r, unsigned s,
                   uint8_t code) {
    for (unsigned q = 0; q < 4; ++q) {
      uint32_t &cell = t0.at(32 * q + r % 32, col0 + r / 32);
      unsigned byte = id + s;
      cell = (cell & ~(0xffu << 8 * byte)) | uint32_t(code) << 8 * byte;
    }
  };
  for (unsigned s = 0; s < tc.numSf; ++s) {
    for (unsigned m = 0; m < M; ++m)
      putSf(sfaCol, tc.sfaId, m, s, sfaCode(m, s));
    for (unsigned n = 0; n < N; ++n)
      putSf(sfbCol, tc.sfbId, n, s, sfbCode(n, s));
  }
  if (tc.breakCopy) // sub-partition 2's copy of row 5's first scale of A
    t0.at(64 + 5, sfaCol) ^= 1u << (8 * tc.sfaId);
  Tmem before = t0;
  // Instruction descriptor, hand-packed per the ISA's block-scaled table.
  unsigned fmt = fp4 ? 1 : 0; // mxf4*: E2M1 = 1; mxf8f6f4: E4M3 = 0
  uint32_t idesc = tc.sfbId << 4 | fmt << 7 | fmt << 10 | (N >> 3) << 17 |
                   uint32_t(tc.ue8m0) << 23 | (M >> 7) << 27 | tc.sfaId << 29;
  Tcgen05InstrDesc d = decodeTcgen05InstrDesc(idesc, tc.kind);
  if (d.m != M || d.n != N || d.sfaId != tc.sfaId || d.sfbId != tc.sfbId ||
      d.scaleUE8M0 != tc.ue8m0 || encodeTcgen05InstrDesc(d, tc.kind) != idesc) {
    *err = "instruction descriptor round trip";
    return ~0u;
  }
  std::vector<std::string> parts = {"tcgen05", "mma", "cta_group::1",
                                    "kind::" + tc.kindName, "block_scale"};
  if (!tc.vecName.empty())
    parts.push_back(tc.vecName);
  std::string e;
  Tcgen05MmaInstr in = decodeTcgen05Mma(parts, &e);
  if (!e.empty()) {
    *err = e;
    return ~0u;
  }
  Tcgen05BlockScale sf;
  sf.sfaAddr = sfaCol;
  sf.sfbAddr = sfbCol;
  Tmem *tm[2] = {&t0, &t1};
  llvm::ArrayRef<uint8_t> views[2] = {smem, smem};
  std::string r =
      tcgen05MmaExecute(in, idesc, views, tm, dCol, false, ummaDesc(pa),
                        ummaDesc(pb), tc.enableInputD, 0, &sf);
  if (!r.empty()) {
    *err = r;
    return ~0u;
  }
  Tmem want = before;
  for (unsigned m = 0; m < M; ++m)
    for (unsigned n = 0; n < N; ++n) {
      double ref = tc.enableInputD ? floatOf(before.at(m, dCol + n)) : 0.0;
      for (unsigned k = 0; k < K; ++k) {
        unsigned s = k / block;
        bool ign = int(s) == tc.ignoreBlock;
        double sa = ign ? 1.0 : sfValue(sfaCode(m, s));
        double sb = ign ? 1.0 : sfValue(sfbCode(n, s));
        ref += (elem(aCode(m, k)) * sa) * (elem(bCode(k, n)) * sb);
      }
      want.at(m, dCol + n) = bitsOf(float(ref));
    }
  unsigned bad = 0;
  for (unsigned lane = 0; lane < 128; ++lane)
    for (unsigned col = 0; col < 512; ++col)
      if (t0.at(lane, col) != want.at(lane, col) && !bad++)
        *err = "lane " + std::to_string(lane) + " column " +
               std::to_string(col) + ": got " +
               std::to_string(floatOf(t0.at(lane, col))) + " want " +
               std::to_string(floatOf(want.at(lane, col)));
  return bad;
}

} // namespace

TEST(TensorCoreTcgen05BlockScaledMxf8f6f4) {
  std::string err;
  BsCase tc; // e4m3 x e4m3, UE8M0, scale_vec::1X (default and explicit)
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf8f6f4 1X: " << err;
  tc.vecName = "scale_vec::1X";
  tc.sfaId = 3, tc.sfbId = 1, tc.N = 256, tc.enableInputD = false;
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf8f6f4 ids 3/1: " << err;
  tc.vecName = "block32", tc.sfaId = 2, tc.sfbId = 2, tc.N = 8;
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf8f6f4 block32 N8: " << err;
  // Invalid for the kind: 2X, UE4M3 scale factors.
  tc = BsCase();
  tc.vecName = "scale_vec::2X";
  CHECK(runBlockScaled(tc, &err) == ~0u) << "mxf8f6f4 2X accepted";
  tc = BsCase();
  tc.ue8m0 = false;
  CHECK(runBlockScaled(tc, &err) == ~0u) << "mxf8f6f4 UE4M3 accepted";
}

TEST(TensorCoreTcgen05BlockScaledMxf4) {
  std::string err;
  BsCase tc;
  tc.kind = Tcgen05Kind::MXF4, tc.kindName = "mxf4", tc.numSf = 2;
  tc.vecName = "scale_vec::2X";
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf4 2X: " << err;
  tc.sfaId = 2, tc.sfbId = 0, tc.N = 128, tc.vecName = "";
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf4 default, SFA_ID 2: " << err;
  tc.sfaId = 1; // a half-word offset must be 0 or 2
  CHECK(runBlockScaled(tc, &err) == ~0u) << "mxf4 SFA_ID 1 accepted";
}

TEST(TensorCoreTcgen05BlockScaledMxf4nvf4) {
  std::string err;
  BsCase tc;
  tc.kind = Tcgen05Kind::MXF4NVF4, tc.kindName = "mxf4nvf4", tc.numSf = 4;
  tc.vecName = "scale_vec::4X", tc.ue8m0 = false; // NVFP4: UE4M3, block 16
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf4nvf4 4X ue4m3: " << err;
  tc.vecName = "block16", tc.ue8m0 = true, tc.N = 32;
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf4nvf4 block16 ue8m0: " << err;
  tc.vecName = "scale_vec::2X", tc.numSf = 2, tc.sfbId = 2;
  CHECK(runBlockScaled(tc, &err) == 0) << "mxf4nvf4 2X ue8m0: " << err;
  tc.ue8m0 = false; // 2X needs UE8M0
  CHECK(runBlockScaled(tc, &err) == ~0u) << "mxf4nvf4 2X ue4m3 accepted";
  tc.vecName = "", tc.ue8m0 = true; // mxf4nvf4 needs a vector size
  CHECK(runBlockScaled(tc, &err) == ~0u) << "mxf4nvf4 without scale_vec";
}

// Seeded defects: a reference that ignores one K block's scale factors
// disagrees with the model (so the comparison sees the scales), and scale
// factors not duplicated to every 32-lane sub-partition are reported.
TEST(TensorCoreTcgen05BlockScaledSeededDefects) {
  std::string err;
  BsCase tc;
  tc.ignoreBlock = 0;
  CHECK(runBlockScaled(tc, &err) > 0) << "mxf8f6f4: missing scale unseen";
  tc.kind = Tcgen05Kind::MXF4NVF4, tc.kindName = "mxf4nvf4", tc.numSf = 4;
  tc.vecName = "scale_vec::4X", tc.ue8m0 = false;
  for (int blk = 0; blk < 4; ++blk) {
    tc.ignoreBlock = blk;
    CHECK(runBlockScaled(tc, &err) > 0)
        << "mxf4nvf4: missing scale of K block " << blk << " unseen";
  }
  tc = BsCase();
  tc.breakCopy = true, tc.sfaId = 1;
  CHECK(runBlockScaled(tc, &err) == ~0u &&
        err.find("duplicated") != std::string::npos)
      << "undetected scale copy mismatch: " << err;
}

TEST(TensorCoreTcgen05I8) {
  // kind::i8, M 128 N 16 K 32, A signed, B unsigned, S32 D; no swizzle.
  const unsigned M = 128, N = 16, K = 32;
  std::vector<uint8_t> smem(65536, 0);
  Placement pa{false, 0, 0, 128 * (M / 8), 128};
  Placement pb{false, 0, 32768, 128 * (N / 8), 128};
  auto put = [&](const Placement &p, unsigned r, unsigned k, uint8_t v) {
    smem[p.base + (r / 8) * p.sbo + (r % 8) * 16 + (k / 16) * p.lbo + k % 16] =
        v;
  };
  auto av = [](unsigned m, unsigned k) {
    return int((m * 37 + k * 11) % 256) - 128;
  };
  auto bv = [](unsigned k, unsigned n) { return int((k * 13 + n * 29) % 256); };
  for (unsigned k = 0; k < K; ++k) {
    for (unsigned m = 0; m < M; ++m)
      put(pa, m, k, uint8_t(int8_t(av(m, k))));
    for (unsigned n = 0; n < N; ++n)
      put(pb, n, k, uint8_t(bv(k, n)));
  }
  for (bool sat : {false, true}) {
    Tmem t0, t1;
    for (unsigned lane = 0; lane < 128; ++lane)
      for (unsigned col = 0; col < 512; ++col)
        t0.at(lane, col) = lane == 3 ? 0x7ffffff0u : lane * 1000 + col;
    Tmem before = t0;
    // S32 D (2 << 4), A S8 (1 << 7), B U8 (0 << 10), saturate bit 3.
    uint32_t idesc = uint32_t(sat) << 3 | 2u << 4 | 1u << 7 | (N >> 3) << 17 |
                     (M >> 4) << 24;
    std::string e;
    Tcgen05MmaInstr in =
        decodeTcgen05Mma({"tcgen05", "mma", "cta_group::1", "kind::i8"}, &e);
    Tmem *tm[2] = {&t0, &t1};
    llvm::ArrayRef<uint8_t> views[2] = {smem, smem};
    std::string r = tcgen05MmaExecute(in, idesc, views, tm, 0, false,
                                      ummaDesc(pa), ummaDesc(pb), true);
    CHECK(e.empty() && r.empty()) << e << r;
    unsigned bad = 0, overflows = 0;
    for (unsigned m = 0; m < M; ++m)
      for (unsigned n = 0; n < N; ++n) {
        int64_t ref = int32_t(before.at(m, n));
        for (unsigned k = 0; k < K; ++k)
          ref += int64_t(av(m, k)) * bv(k, n);
        if (ref > INT32_MAX || ref < INT32_MIN)
          ++overflows;
        if (sat)
          ref = std::min<int64_t>(std::max<int64_t>(ref, INT32_MIN), INT32_MAX);
        if (t0.at(m, n) != uint32_t(uint64_t(ref)) && !bad++)
          CHECK(false) << "i8 sat=" << sat << " row " << m << " col " << n
                       << ": got " << int32_t(t0.at(m, n)) << " want "
                       << int64_t(ref);
      }
    CHECK(bad == 0) << "i8 sat=" << sat << ": " << bad << " wrong";
    CHECK(overflows > 0) << "lane 3 should overflow s32 (wrap / saturate)";
  }
}
