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
  smem[addr] = uint8_t(value);
  smem[addr + 1] = uint8_t(value >> 8);
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
  decodeUmmaDescriptor(uint64_t(3) << 61, &e);
  CHECK(!e.empty()) << "layout 3 is reserved";
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

/// tcgen05.mma kind::f16 bf16 -> f32 of M x N (cta_group 1 or 2). Returns
/// the number of mismatches.
unsigned runTcgen05(unsigned M, unsigned N, unsigned cg, bool aMN, unsigned aSw,
                    bool bMN, unsigned bSw, bool enableInputD,
                    std::string *err) {
  const unsigned K = 16;
  unsigned mPer = M / cg, nPer = N / cg;
  std::vector<uint8_t> smem[2] = {std::vector<uint8_t>(65536, 0),
                                  std::vector<uint8_t>(65536, 0)};
  Placement pa = choose(aMN, aSw, 0, mPer, K);
  Placement pb = choose(bMN, bSw, 32768, nPer, K);
  for (unsigned c = 0; c < cg; ++c) {
    for (unsigned m = 0; m < mPer; ++m)
      for (unsigned k = 0; k < K; ++k)
        place16(smem[c], pa, m, k, bf16Of(aVal(c * mPer + m, k, K)));
    for (unsigned n = 0; n < nPer; ++n)
      for (unsigned k = 0; k < K; ++k)
        place16(smem[c], pb, n, k, bf16Of(bVal(k, c * nPer + n, N)));
  }
  Tmem t0, t1;
  Tmem *tm[2] = {&t0, &t1};
  const unsigned dCol = 64;
  for (unsigned c = 0; c < cg; ++c)
    for (unsigned lane = 0; lane < 128; ++lane)
      for (unsigned n = 0; n < N; ++n)
        tm[c]->at(lane, dCol + n) = bitsOf(float(lane % 7) - float(n % 5));
  Tmem before0 = t0, before1 = t1;
  std::string e;
  std::vector<std::string> parts = {
      "tcgen05", "mma", "cta_group::" + std::to_string(cg), "kind::f16"};
  Tcgen05MmaInstr in = decodeTcgen05Mma(parts, &e);
  Tcgen05InstrDesc d;
  d.dFormat = 1;
  d.aFormat = d.bFormat = 1; // BF16
  d.transposeA = aMN;
  d.transposeB = bMN;
  d.m = M;
  d.n = N;
  // Hand-packed per the ISA table.
  uint32_t idesc = 1u << 4 | 1u << 7 | 1u << 10 | uint32_t(aMN) << 15 |
                   uint32_t(bMN) << 16 | (N >> 3) << 17 | (M >> 4) << 24;
  if (encodeTcgen05InstrDesc(d, Tcgen05Kind::F16) != idesc) {
    *err = "instruction descriptor encoding differs from the ISA table";
    return ~0u;
  }
  llvm::ArrayRef<uint8_t> views[2] = {smem[0], smem[1]};
  std::string r = tcgen05MmaExecute(in, idesc, views, tm, dCol, false,
                                    ummaDesc(pa), ummaDesc(pb), enableInputD);
  if (!r.empty()) {
    *err = e + r;
    return ~0u;
  }
  unsigned bad = 0;
  for (unsigned c = 0; c < cg; ++c) {
    const Tmem &before = c ? before1 : before0;
    for (unsigned m = 0; m < mPer; ++m)
      for (unsigned n = 0; n < N; ++n) {
        unsigned lane = m; // M = 128 per CTA: row m at lane m
        double ref = enableInputD ? floatOf(before.at(lane, dCol + n)) : 0;
        for (unsigned k = 0; k < K; ++k)
          ref += aVal(c * mPer + m, k, K) * bVal(k, n, N);
        if (floatOf(tm[c]->at(lane, dCol + n)) != float(ref)) {
          if (!bad)
            *err = "CTA " + std::to_string(c) + " D[" + std::to_string(m) +
                   "][" + std::to_string(n) + "] got " +
                   std::to_string(floatOf(tm[c]->at(lane, dCol + n))) +
                   " want " + std::to_string(ref);
          ++bad;
        }
      }
  }
  return bad;
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
