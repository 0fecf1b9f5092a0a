//===- TmaTest.cpp - the TMA model against references by definition ------===//
//
// Every expected shared-memory image is built here element by element from
// the definition of a tile-mode copy: box element (k0, k1, ..) lands at
// offset ((.. * n1 + k1) * n0 + k0) * esize from the destination, and the
// 16-byte chunk holding it moves within its swizzle-width row: its chunk
// index in that row is XORed with the index of the 128-byte line within the
// span of W/16 lines (W the swizzle width).
//
//===----------------------------------------------------------------------===//

#include "Check.h"

#include "pipeline/Sim/Tma.h"

#include <cmath>
#include <cstring>
#include <vector>

using namespace pmlir::sim;

namespace {

/// One global buffer at a device address.
struct Global {
  uint64_t base = 0x100000;
  std::vector<uint8_t> bytes;
  bool read(uint64_t a, uint8_t *out, size_t n) const {
    if (a < base || a + n > base + bytes.size())
      return false;
    std::memcpy(out, &bytes[a - base], n);
    return true;
  }
  bool write(uint64_t a, const uint8_t *in, size_t n) {
    if (a < base || a + n > base + bytes.size())
      return false;
    std::memcpy(&bytes[a - base], in, n);
    return true;
  }
  uint64_t get(uint64_t off, unsigned n) const {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i)
      v |= uint64_t(bytes[off + i]) << (8 * i);
    return v;
  }
  void put(uint64_t off, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      bytes[off + i] = uint8_t(v >> (8 * i));
  }
};

/// The swizzled position of shared-memory offset `l`, from the definition
/// (not from the library's bit expression).
uint64_t referenceSwizzle(uint64_t l, unsigned width) {
  if (width == 0)
    return l;
  uint64_t chunksPerRow = width / 16; // 2, 4 or 8
  uint64_t chunk = (l / 16) % chunksPerRow;
  uint64_t line = (l / 128) % chunksPerRow;
  return l - chunk * 16 + (chunk ^ line) * 16;
}

void putBytes(std::vector<uint8_t> &v, uint64_t off, uint64_t x, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    v[off + i] = uint8_t(x >> (8 * i));
}

// The 2-D bf16 tensor: 300 columns (dim 0) x 70 rows (dim 1), rows padded
// from 600 to 608 bytes; element (x, y) holds the 16-bit pattern
// y * 300 + x + 1 (unique, never 0, never 0x7fff).
constexpr uint64_t kCols = 300, kRows = 70, kRowStride = 608;

Global makeBf16Tensor() {
  Global g;
  g.bytes.assign(kRowStride * kRows, 0xEE);
  for (uint64_t y = 0; y < kRows; ++y)
    for (uint64_t x = 0; x < kCols; ++x)
      g.put(y * kRowStride + x * 2, y * kCols + x + 1, 2);
  return g;
}

TensorMapDesc bf16Map(const Global &g, uint32_t bx, uint32_t by,
                      unsigned swizzle) {
  TensorMapDesc d;
  d.elem = TmaElem::BF16;
  d.rank = 2;
  d.globalAddress = g.base;
  d.dims[0] = kCols;
  d.dims[1] = kRows;
  d.strides[0] = 2;
  d.strides[1] = kRowStride;
  d.box[0] = bx;
  d.box[1] = by;
  d.swizzle = swizzle;
  return d;
}

/// The expected image of `smem` (initially `init`) after loading the bf16
/// box at (cx, cy) to `dst`.
std::vector<uint8_t> expectedBf16Load(std::vector<uint8_t> image, uint32_t bx,
                                      uint32_t by, int cx, int cy,
                                      unsigned swizzle, uint64_t dst,
                                      uint16_t fill) {
  for (uint32_t r = 0; r < by; ++r)
    for (uint32_t c = 0; c < bx; ++c) {
      long x = long(cx) + c, y = long(cy) + r;
      bool in = x >= 0 && x < long(kCols) && y >= 0 && y < long(kRows);
      uint16_t v = in ? uint16_t(y * kCols + x + 1) : fill;
      uint64_t l = dst + (uint64_t(r) * bx + c) * 2;
      putBytes(image, referenceSwizzle(l, swizzle), v, 2);
    }
  return image;
}

/// The first differing offset, or -1.
long firstDiff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
  if (a.size() != b.size())
    return 0;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i])
      return long(i);
  return -1;
}

uint32_t f32Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bitsF32(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

} // namespace

TEST(TmaSwizzleReferenceSanity) {
  // The reference itself, on points worked by hand: 128B swizzle moves chunk
  // 0 of line 3 to chunk 3; 32B swizzle only flips bit 4 by bit 7.
  CHECK(referenceSwizzle(3 * 128 + 0, 128) == 3 * 128 + 48);
  CHECK(referenceSwizzle(9 * 128 + 16 * 5 + 7, 128) == 9 * 128 + 16 * 4 + 7);
  CHECK(referenceSwizzle(128 + 16, 32) == 128);
  CHECK(referenceSwizzle(256 + 16, 32) == 256 + 16);
  CHECK(referenceSwizzle(2 * 128 + 16, 64) == 2 * 128 + 48);
  CHECK(referenceSwizzle(4 * 128 + 16, 64) == 4 * 128 + 16);
}

TEST(TmaLoad2DSwizzlesAndEdges) {
  Global g = makeBf16Tensor();
  auto rd = [&](uint64_t a, uint8_t *o, size_t n) { return g.read(a, o, n); };
  struct Mode {
    unsigned swizzle;
    uint32_t bx;
    uint64_t dst;
  } modes[] = {{0, 40, 128 * 3},
               {32, 16, 256 * 5},
               {64, 32, 512 * 3},
               {128, 64, 1024 * 2}};
  struct Coord {
    int x, y;
  } coords[] = {{17, 9},   {-5, -3}, {280, 60}, {290, -7}, {-64, 30},
                {400, 10}, {0, 69},  {236, 0},  {1, 1}};
  for (const Mode &m : modes)
    for (const Coord &c : coords) {
      uint32_t by = 24;
      TensorMapDesc d = bf16Map(g, m.bx, by, m.swizzle);
      CHECK(validateTensorMap(d).empty()) << validateTensorMap(d);
      std::vector<uint8_t> smem(16384, 0xCD);
      std::vector<uint8_t> want =
          expectedBf16Load(smem, m.bx, by, c.x, c.y, m.swizzle, m.dst, 0);
      std::string err = tmaLoad(d, {c.x, c.y}, rd, smem, m.dst);
      CHECK(err.empty()) << err;
      long diff = firstDiff(smem, want);
      CHECK(diff < 0) << "swizzle " << m.swizzle << " at (" << c.x << ", "
                      << c.y << "): first wrong byte at smem offset " << diff;
      CHECK(tensorMapBoxBytes(d) == uint64_t(m.bx) * by * 2);
    }
}

TEST(TmaLoadOobNanFill) {
  Global g = makeBf16Tensor();
  auto rd = [&](uint64_t a, uint8_t *o, size_t n) { return g.read(a, o, n); };
  TensorMapDesc d = bf16Map(g, 64, 16, 128);
  d.oobNan = true;
  CHECK(validateTensorMap(d).empty()) << validateTensorMap(d);
  std::vector<uint8_t> smem(8192, 0);
  std::vector<uint8_t> want =
      expectedBf16Load(smem, 64, 16, 270, -4, 128, 1024, 0x7fff);
  CHECK(tmaLoad(d, {270, -4}, rd, smem, 1024).empty());
  CHECK(firstDiff(smem, want) < 0) << "at " << firstDiff(smem, want);

  // f32 NaN fill is 0x7fffffff, 1-D.
  Global f;
  f.bytes.resize(64 * 4);
  for (unsigned i = 0; i < 64; ++i)
    f.put(i * 4, f32Bits(float(i) + 0.5f), 4);
  auto rdf = [&](uint64_t a, uint8_t *o, size_t n) { return f.read(a, o, n); };
  TensorMapDesc m;
  m.elem = TmaElem::F32;
  m.rank = 1;
  m.globalAddress = f.base;
  m.dims[0] = 64;
  m.strides[0] = 4;
  m.box[0] = 16;
  m.oobNan = true;
  std::vector<uint8_t> s(128, 0);
  CHECK(tmaLoad(m, {56}, rdf, s, 0).empty());
  for (unsigned i = 0; i < 16; ++i) {
    uint32_t got = uint32_t(s[4 * i]) | uint32_t(s[4 * i + 1]) << 8 |
                   uint32_t(s[4 * i + 2]) << 16 | uint32_t(s[4 * i + 3]) << 24;
    uint32_t want1 = 56 + i < 64 ? f32Bits(float(56 + i) + 0.5f) : 0x7fffffffu;
    CHECK(got == want1) << "element " << i << ": " << got;
  }
  // Zero fill without oobNan.
  m.oobNan = false;
  std::vector<uint8_t> z(128, 0xAB);
  CHECK(tmaLoad(m, {-3}, rdf, z, 0).empty());
  for (unsigned i = 0; i < 3 * 4; ++i)
    CHECK(z[i] == 0) << "byte " << i;
  CHECK(z[12] == uint8_t(f32Bits(0.5f))) << "element 3 is tensor element 0";
}

TEST(TmaLoad3DBox) {
  // f32, 20 x 7 x 5, rows 80 bytes, planes padded to 576 bytes.
  constexpr uint64_t X = 20, Y = 7, Z = 5, RS = 80, PS = 576;
  Global g;
  g.bytes.assign(PS * Z, 0x11);
  for (uint64_t z = 0; z < Z; ++z)
    for (uint64_t y = 0; y < Y; ++y)
      for (uint64_t x = 0; x < X; ++x)
        g.put(z * PS + y * RS + x * 4, 0xA0000000u + z * 10000 + y * 100 + x,
              4);
  auto rd = [&](uint64_t a, uint8_t *o, size_t n) { return g.read(a, o, n); };
  TensorMapDesc d;
  d.elem = TmaElem::U32;
  d.rank = 3;
  d.globalAddress = g.base;
  d.dims[0] = X, d.dims[1] = Y, d.dims[2] = Z;
  d.strides[0] = 4, d.strides[1] = RS, d.strides[2] = PS;
  d.box[0] = 8, d.box[1] = 4, d.box[2] = 3;
  d.swizzle = 32;
  CHECK(validateTensorMap(d).empty()) << validateTensorMap(d);
  CHECK(tensorMapBoxBytes(d) == 8 * 4 * 3 * 4);
  int cx = 14, cy = 5, cz = -1;
  uint64_t dst = 256;
  std::vector<uint8_t> smem(2048, 0x5A), want = smem;
  for (int k2 = 0; k2 < 3; ++k2)
    for (int k1 = 0; k1 < 4; ++k1)
      for (int k0 = 0; k0 < 8; ++k0) {
        long x = cx + k0, y = cy + k1, z = cz + k2;
        bool in = x < long(X) && y < long(Y) && z >= 0 && z < long(Z);
        uint64_t v = in ? 0xA0000000u + z * 10000 + y * 100 + x : 0;
        uint64_t l = dst + ((k2 * 4 + k1) * 8 + k0) * 4;
        putBytes(want, referenceSwizzle(l, 32), v, 4);
      }
  std::string err = tmaLoad(d, {cx, cy, cz}, rd, smem, dst);
  CHECK(err.empty()) << err;
  CHECK(firstDiff(smem, want) < 0) << "at " << firstDiff(smem, want);
}

TEST(TmaLoadElementStrides) {
  Global g = makeBf16Tensor();
  auto rd = [&](uint64_t a, uint8_t *o, size_t n) { return g.read(a, o, n); };
  // box 16 x 9 with element strides {2, 3}: dimension 0's stride is ignored
  // (16 contiguous elements), dimension 1 takes ceil(9 / 3) = 3 rows at
  // y, y + 3, y + 6.
  TensorMapDesc d = bf16Map(g, 16, 9, 0);
  d.elementStrides[0] = 2;
  d.elementStrides[1] = 3;
  CHECK(validateTensorMap(d).empty()) << validateTensorMap(d);
  CHECK(tensorMapBoxBytes(d) == 16 * 3 * 2) << tensorMapBoxBytes(d);
  CHECK(tensorMapBoxExtent(d, 1) == 3);
  for (int cy : {4, 64, -4}) {
    std::vector<uint8_t> smem(512, 0x77), want = smem;
    int cx = 10;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 16; ++c) {
        long x = cx + c, y = cy + 3L * r;
        bool in = y >= 0 && y < long(kRows);
        putBytes(want, 128 + (r * 16 + c) * 2,
                 in ? uint16_t(y * kCols + x + 1) : 0, 2);
      }
    CHECK(tmaLoad(d, {cx, cy}, rd, smem, 128).empty());
    CHECK(firstDiff(smem, want) < 0)
        << "y " << cy << " at " << firstDiff(smem, want);
  }
}

TEST(TmaLoadErrors) {
  Global g = makeBf16Tensor();
  auto rd = [&](uint64_t a, uint8_t *o, size_t n) { return g.read(a, o, n); };
  TensorMapDesc d = bf16Map(g, 64, 8, 128);
  std::vector<uint8_t> smem(4096, 0x3C), orig = smem;
  std::string e = tmaLoad(d, {0, 0}, rd, smem, 512);
  CHECK(e.find("1024-byte aligned") != std::string::npos) << e;
  e = tmaLoad(d, {0, 0}, rd, smem, 3072 + 1024);
  CHECK(e.find("past the end") != std::string::npos) << e;
  e = tmaLoad(d, {0}, rd, smem, 0);
  CHECK(e.find("coordinates") != std::string::npos) << e;
  TensorMapDesc n = bf16Map(g, 64, 8, 0);
  e = tmaLoad(n, {0, 0}, rd, smem, 64);
  CHECK(e.find("128-byte aligned") != std::string::npos) << e;
  // A tensor map larger than its buffer: the read of row 70 fails.
  TensorMapDesc big = bf16Map(g, 64, 8, 0);
  big.dims[1] = 80;
  e = tmaLoad(big, {0, 66}, rd, smem, 0);
  CHECK(e.find("outside every buffer") != std::string::npos) << e;
  TensorMapDesc bad = bf16Map(g, 4, 8, 0);
  e = tmaLoad(bad, {0, 0}, rd, smem, 0);
  CHECK(e.find("invalid tensor map") != std::string::npos) << e;
  CHECK(smem == orig) << "a failed load wrote shared memory";
}

TEST(TmaStoreRoundTrip) {
  Global a = makeBf16Tensor();
  auto rda = [&](uint64_t p, uint8_t *o, size_t n) { return a.read(p, o, n); };
  Global b;
  b.base = 0x800000;
  b.bytes.assign(kRowStride * kRows, 0xEE);
  auto rdb = [&](uint64_t p, uint8_t *o, size_t n) { return b.read(p, o, n); };
  auto wrb = [&](uint64_t p, const uint8_t *i, size_t n) {
    return b.write(p, i, n);
  };
  TensorMapDesc da = bf16Map(a, 64, 32, 128);
  TensorMapDesc db = da;
  db.globalAddress = b.base;
  std::vector<uint8_t> smem(8192, 0);
  struct Coord {
    int x, y;
  } coords[] = {{100, 20}, {-10, -5}, {260, 50}};
  for (const Coord &c : coords) {
    CHECK(tmaLoad(da, {c.x, c.y}, rda, smem, 2048).empty());
    std::string e = tmaStore(db, {c.x, c.y}, smem, 2048, rdb, wrb);
    CHECK(e.empty()) << e;
  }
  for (uint64_t y = 0; y < kRows; ++y)
    for (uint64_t x = 0; x < kRowStride / 2; ++x) {
      bool covered = false;
      for (const Coord &c : coords)
        covered |= long(x) >= c.x && long(x) < c.x + 64 && long(y) >= c.y &&
                   long(y) < c.y + 32;
      covered &= x < kCols;
      uint64_t want = covered ? a.get(y * kRowStride + x * 2, 2) : 0xEEEE;
      uint64_t got = b.get(y * kRowStride + x * 2, 2);
      CHECK(got == want) << "(" << x << ", " << y << "): " << got << " want "
                         << want;
      if (got != want)
        return;
    }
}

TEST(TmaStoreSwizzledSourceByDefinition) {
  // A store reads the box through the swizzle: fill smem by the reference
  // placement and check the global tensor by coordinates.
  Global b;
  b.bytes.assign(16 * 64, 0);
  auto rdb = [&](uint64_t p, uint8_t *o, size_t n) { return b.read(p, o, n); };
  auto wrb = [&](uint64_t p, const uint8_t *i, size_t n) {
    return b.write(p, i, n);
  };
  TensorMapDesc d;
  d.elem = TmaElem::U16;
  d.rank = 2;
  d.globalAddress = b.base;
  d.dims[0] = 32, d.dims[1] = 16;
  d.strides[0] = 2, d.strides[1] = 64;
  d.box[0] = 32, d.box[1] = 16;
  d.swizzle = 64;
  std::vector<uint8_t> smem(2048, 0);
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 32; ++c)
      putBytes(smem, referenceSwizzle(512 + (r * 32 + c) * 2, 64), r * 1000 + c,
               2);
  std::string e = tmaStore(d, {0, 0}, smem, 512, rdb, wrb);
  CHECK(e.empty()) << e;
  for (unsigned r = 0; r < 16; ++r)
    for (unsigned c = 0; c < 32; ++c)
      CHECK(b.get(r * 64 + c * 2, 2) == r * 1000 + c) << r << "," << c;
}

TEST(TmaReduceAdd) {
  // f32 add: out-of-bound elements dropped; RN sums computed in float.
  Global g;
  g.bytes.resize(32 * 4);
  for (unsigned i = 0; i < 32; ++i)
    g.put(i * 4, f32Bits(1.0f + float(i) / 3.0f), 4);
  Global orig = g;
  auto rd = [&](uint64_t p, uint8_t *o, size_t n) { return g.read(p, o, n); };
  auto wr = [&](uint64_t p, const uint8_t *i, size_t n) {
    return g.write(p, i, n);
  };
  TensorMapDesc d;
  d.elem = TmaElem::F32;
  d.rank = 1;
  d.globalAddress = g.base;
  d.dims[0] = 32;
  d.strides[0] = 4;
  d.box[0] = 8;
  std::vector<uint8_t> smem(128, 0);
  for (unsigned i = 0; i < 8; ++i)
    putBytes(smem, i * 4, f32Bits(1e-3f * float(i + 1)), 4);
  CHECK(tmaStore(d, {28}, smem, 0, rd, wr, TmaReduce::Add).empty());
  for (unsigned i = 0; i < 32; ++i) {
    float o = bitsF32(uint32_t(orig.get(i * 4, 4)));
    float want = i >= 28 ? o + 1e-3f * float(i - 28 + 1) : o;
    CHECK(g.get(i * 4, 4) == f32Bits(want)) << "element " << i;
  }

  // bf16 add: RN to bf16 by the round-half-even bit trick on exact float
  // sums, plus two hand-worked ties.
  Global h;
  h.bytes.resize(16 * 2);
  const uint16_t olds[8] = {0x3F80, 0x3F81, 0x4049, 0xC000,
                            0x3F80, 0x7F80, 0x0001, 0x4100};
  const uint16_t adds[8] = {0x3B80, 0x3B80, 0x3DCD, 0x3F80,
                            0xBF80, 0x3F80, 0x0001, 0x3E00};
  for (unsigned i = 0; i < 8; ++i)
    h.put(i * 2, olds[i], 2);
  auto rdh = [&](uint64_t p, uint8_t *o, size_t n) { return h.read(p, o, n); };
  auto wrh = [&](uint64_t p, const uint8_t *i, size_t n) {
    return h.write(p, i, n);
  };
  TensorMapDesc b = d;
  b.elem = TmaElem::BF16;
  b.globalAddress = h.base;
  b.dims[0] = 16;
  b.strides[0] = 2;
  std::vector<uint8_t> s(16, 0);
  for (unsigned i = 0; i < 8; ++i)
    putBytes(s, i * 2, adds[i], 2);
  CHECK(tmaStore(b, {0}, s, 0, rdh, wrh, TmaReduce::Add).empty());
  for (unsigned i = 0; i < 8; ++i) {
    float sum =
        bitsF32(uint32_t(olds[i]) << 16) + bitsF32(uint32_t(adds[i]) << 16);
    uint32_t u = f32Bits(sum);
    uint16_t want = uint16_t((u + 0x7FFF + ((u >> 16) & 1)) >> 16);
    if (std::isinf(sum))
      want = uint16_t(u >> 16);
    CHECK(h.get(i * 2, 2) == want)
        << "bf16 " << i << ": " << h.get(i * 2, 2) << " want " << want;
  }
  CHECK(h.get(0, 2) == 0x3F80) << "1 + 2^-8 ties to even 1.0";
  CHECK(h.get(2, 2) == 0x3F82) << "1.0078125 + 2^-8 ties to even";
  CHECK(h.get(8, 2) == 0x0000) << "1 - 1 = +0";
  CHECK(h.get(12, 2) == 0x0002) << "subnormals add without flush";
  CHECK(h.get(16, 2) == 0) << "out of the box: untouched";

  // f16 ties, hand-worked: 1 + 2^-11 -> 1; (1 + 2^-10) + 2^-11 -> 1 + 2^-9.
  Global f;
  f.bytes.resize(16);
  f.put(0, 0x3C00, 2);
  f.put(2, 0x3C01, 2);
  f.put(4, 0x7BFF, 2); // 65504 + 65504 overflows to inf
  f.put(6, 0x0001, 2);
  auto rdf = [&](uint64_t p, uint8_t *o, size_t n) { return f.read(p, o, n); };
  auto wrf = [&](uint64_t p, const uint8_t *i, size_t n) {
    return f.write(p, i, n);
  };
  TensorMapDesc hf = b;
  hf.elem = TmaElem::F16;
  hf.globalAddress = f.base;
  hf.dims[0] = 8;
  hf.box[0] = 8;
  std::vector<uint8_t> sf(16, 0);
  putBytes(sf, 0, 0x1000, 2);
  putBytes(sf, 2, 0x1000, 2);
  putBytes(sf, 4, 0x7BFF, 2);
  putBytes(sf, 6, 0x8002, 2);
  CHECK(tmaStore(hf, {0}, sf, 0, rdf, wrf, TmaReduce::Add).empty());
  CHECK(f.get(0, 2) == 0x3C00) << f.get(0, 2);
  CHECK(f.get(2, 2) == 0x3C02) << f.get(2, 2);
  CHECK(f.get(4, 2) == 0x7C00) << f.get(4, 2);
  CHECK(f.get(6, 2) == 0x8001) << f.get(6, 2);
}

TEST(TmaReduceIntegerOps) {
  Global g;
  g.bytes.resize(16);
  auto rd = [&](uint64_t p, uint8_t *o, size_t n) { return g.read(p, o, n); };
  auto wr = [&](uint64_t p, const uint8_t *i, size_t n) {
    return g.write(p, i, n);
  };
  TensorMapDesc d;
  d.elem = TmaElem::U32;
  d.rank = 1;
  d.globalAddress = g.base;
  d.dims[0] = 4;
  d.strides[0] = 4;
  d.box[0] = 4;
  auto run = [&](TmaElem e, TmaReduce op, std::vector<uint32_t> old,
                 std::vector<uint32_t> val) {
    d.elem = e;
    std::vector<uint8_t> s(16);
    for (unsigned i = 0; i < 4; ++i) {
      g.put(i * 4, old[i], 4);
      putBytes(s, i * 4, val[i], 4);
    }
    std::string err = tmaStore(d, {0}, s, 0, rd, wr, op);
    CHECK(err.empty()) << err;
    std::vector<uint32_t> out;
    for (unsigned i = 0; i < 4; ++i)
      out.push_back(uint32_t(g.get(i * 4, 4)));
    return out;
  };
  auto add = run(TmaElem::U32, TmaReduce::Add, {1, 0xFFFFFFFF, 7, 0},
                 {2, 3, 0xFFFFFFFF, 0});
  CHECK((add == std::vector<uint32_t>{3, 2, 6, 0}));
  auto mins = run(TmaElem::S32, TmaReduce::Min, {5, 0xFFFFFFFF, 3, 0},
                  {0xFFFFFFFE, 4, 3, 1});
  CHECK((mins == std::vector<uint32_t>{0xFFFFFFFE, 0xFFFFFFFF, 3, 0}));
  auto umax = run(TmaElem::U32, TmaReduce::Max, {5, 0xFFFFFFFF, 3, 0},
                  {0xFFFFFFFE, 4, 3, 1});
  CHECK((umax == std::vector<uint32_t>{0xFFFFFFFE, 0xFFFFFFFF, 3, 1}));
  // inc: old >= bound ? 0 : old + 1; dec: old == 0 || old > bound ? bound :
  // old - 1.
  auto inc =
      run(TmaElem::U32, TmaReduce::Inc, {0, 9, 10, 11}, {10, 10, 10, 10});
  CHECK((inc == std::vector<uint32_t>{1, 10, 0, 0}));
  auto dec =
      run(TmaElem::U32, TmaReduce::Dec, {0, 9, 10, 11}, {10, 10, 10, 10});
  CHECK((dec == std::vector<uint32_t>{10, 8, 9, 10}));
  auto x =
      run(TmaElem::U32, TmaReduce::Xor, {0xF0F0, 1, 2, 3}, {0xFF00, 1, 1, 1});
  CHECK((x == std::vector<uint32_t>{0x0FF0, 0, 3, 2}));
  // Unsupported combinations are errors, with global memory untouched.
  d.elem = TmaElem::F64;
  d.dims[0] = 2;
  d.box[0] = 2;
  d.strides[0] = 8;
  std::vector<uint8_t> s(16, 1);
  Global before = g;
  std::string e = tmaStore(d, {0}, s, 0, rd, wr, TmaReduce::Add);
  CHECK(e.find("does not take f64") != std::string::npos) << e;
  CHECK(g.bytes == before.bytes);
  // A store whose later row is outside every buffer writes nothing.
  TensorMapDesc two;
  two.elem = TmaElem::U32;
  two.rank = 2;
  two.globalAddress = g.base;
  two.dims[0] = 4, two.dims[1] = 2;
  two.strides[0] = 4, two.strides[1] = 16;
  two.box[0] = 4, two.box[1] = 2;
  std::vector<uint8_t> s2(32, 0x99);
  e = tmaStore(two, {0, 0}, s2, 0, rd, wr);
  CHECK(e.find("outside every buffer") != std::string::npos) << e;
  CHECK(g.bytes == before.bytes) << "a failed store wrote global memory";
}

TEST(TmaValidation) {
  Global g = makeBf16Tensor();
  auto expectError = [](TensorMapDesc d, const char *needle) {
    std::string e = validateTensorMap(d);
    CHECK(e.find(needle) != std::string::npos)
        << "expected '" << needle << "', got '" << e << "'";
  };
  TensorMapDesc ok = bf16Map(g, 64, 64, 128);
  CHECK(validateTensorMap(ok).empty()) << validateTensorMap(ok);
  TensorMapDesc d = ok;
  d.box[0] = 4; // an 8-byte box row
  d.swizzle = 0;
  expectError(d, "not a multiple of 16");
  d = ok;
  d.box[1] = 257;
  expectError(d, "box[1] = 257 is not 1 to 256");
  d = ok;
  d.box[1] = 0;
  expectError(d, "box[1] = 0");
  d = ok;
  d.box[0] = 128; // 256 bytes with the 128-byte swizzle
  expectError(d, "more than the 128-byte swizzle");
  d = ok;
  d.box[0] = 32;
  d.swizzle = 32; // 64 bytes
  expectError(d, "more than the 32-byte swizzle");
  d.swizzle = 64;
  CHECK(validateTensorMap(d).empty());
  d = ok;
  d.globalAddress += 8;
  expectError(d, "16-byte aligned");
  d = ok;
  d.strides[1] = 600;
  expectError(d, "not a multiple of 16");
  d = ok;
  d.elementStrides[1] = 9;
  expectError(d, "elementStrides[1] = 9");
  d = ok;
  d.elementStrides[0] = 0;
  expectError(d, "elementStrides[0] = 0");
  d = ok;
  d.rank = 0;
  expectError(d, "rank 0");
  d.rank = 6;
  expectError(d, "rank 6");
  d = ok;
  d.swizzle = 16;
  expectError(d, "swizzle 16");
  d = ok;
  d.dims[1] = 0;
  expectError(d, "dims[1] = 0");
  d = ok;
  d.elem = TmaElem::U16;
  d.oobNan = true;
  expectError(d, "floating-point");
  d = ok;
  d.strides[0] = 4;
  expectError(d, "element size");
}

TEST(TmaParseSpec) {
  auto p = parseTensorMapSpec("bf16:dims=300x70:box=64x32:strides=608:"
                              "swizzle=128:oob=nan:data=A+0x40");
  CHECK(bool(p)) << (p ? "" : llvm::toString(p.takeError()));
  if (p) {
    CHECK(p->elem == TmaElem::BF16);
    CHECK(p->rank == 2);
    CHECK(p->dims[0] == 300 && p->dims[1] == 70);
    CHECK(p->box[0] == 64 && p->box[1] == 32);
    CHECK(p->strides[0] == 2 && p->strides[1] == 608);
    CHECK(p->elementStrides[0] == 1 && p->elementStrides[1] == 1);
    CHECK(p->swizzle == 128 && p->oobNan);
    CHECK(p->data == "A" && p->dataOffset == 0x40 && p->globalAddress == 0);
  }
  auto q =
      parseTensorMapSpec("f32:dims=8x4x3:box=8x2x1:estrides=1x2x1:data=buf");
  CHECK(bool(q)) << (q ? "" : llvm::toString(q.takeError()));
  if (q) {
    CHECK(q->rank == 3 && q->strides[1] == 32 && q->strides[2] == 128);
    CHECK(q->elementStrides[1] == 2 && q->swizzle == 0 && !q->oobNan);
    CHECK(q->data == "buf" && q->dataOffset == 0);
    CHECK(tensorMapBoxBytes(*q) == 8 * 1 * 1 * 4);
  }
  auto expectError = [](const char *spec, const char *needle) {
    auto r = parseTensorMapSpec(spec);
    if (r) {
      CHECK(false) << "'" << spec << "' parsed";
      return;
    }
    std::string e = llvm::toString(r.takeError());
    CHECK(e.find(needle) != std::string::npos)
        << "'" << spec << "': expected '" << needle << "', got '" << e << "'";
  };
  expectError("f24:dims=8:box=8:data=a", "unknown element type 'f24'");
  expectError("f32:dims=8x4:box=8:data=a", "1 box dims for rank 2");
  expectError("f32:dims=8x4:box=8x4", "missing data");
  expectError("f32:box=8x4:data=a", "missing dims");
  expectError("f32:dims=8x4:data=a", "missing box");
  expectError("f32:dims=8xx4:box=8x4:data=a", "malformed dims");
  expectError("f32:dims=8x4:box=8xq:data=a", "malformed box");
  expectError("f32:dims=8x4:box=8x4:swizzle=48:data=a", "swizzle must be");
  expectError("f32:dims=8x4:box=8x4:oob=inf:data=a", "oob must be");
  expectError("f32:dims=8x4:box=8x4:data=a:color=red", "unknown field 'color'");
  expectError("f32:dims=8x4:box=8x4:box=8x4:data=a", "'box' given twice");
  expectError("f32:dims=8x4:box=8x4:strides=32x64:data=a", "2 strides");
  expectError("f32:dims=8x4:box=8x4:estrides=1:data=a", "1 element strides");
  expectError("f32:dims=8x4:box=8x4:data", "expected KEY=VALUE");
  expectError("f32:dims=8x4:box=8x4:data=a+3", "not 16-byte aligned");
  expectError("f32:dims=8x4:box=8x4:data=a+z", "malformed data offset");
  expectError("bf16:dims=300x70:box=64x32:data=a", "packed strides");
  expectError("bf16:dims=304x70:box=4x32:data=a", "not a multiple of 16");
  expectError("u8:dims=64x1x1x1x1x1:box=16x1x1x1x1x1:data=a", "rank 6");
  expectError("u16:dims=64:box=300:data=a", "is not 1 to 256");
  expectError("u16:dims=64x2:box=64x2:estrides=1x9:data=a", "is not 1 to 8");
  expectError("u32:dims=64:box=16:oob=nan:data=a", "floating-point");
}

TEST(TmaBulkCopyChecks) {
  CHECK(bulkCopyCheck(0x100, 0x2000, 64).empty());
  CHECK(bulkCopyCheck(0x108, 0x2000, 64).find("destination") !=
        std::string::npos);
  CHECK(bulkCopyCheck(0x100, 0x2004, 64).find("source") != std::string::npos);
  CHECK(bulkCopyCheck(0x100, 0x2000, 40).find("multiple of 16") !=
        std::string::npos);
  CHECK(asyncCopyCheck(0x104, 0x2004, 4, 4, false).empty());
  CHECK(asyncCopyCheck(0x108, 0x2008, 8, 0, false).empty());
  CHECK(!asyncCopyCheck(0x100, 0x2000, 8, 8, true).empty())
      << ".cg takes 16 bytes only";
  CHECK(!asyncCopyCheck(0x104, 0x2000, 8, 8, false).empty());
  CHECK(!asyncCopyCheck(0x100, 0x2008, 16, 16, true).empty());
  CHECK(!asyncCopyCheck(0x100, 0x2000, 16, 17, true).empty());
  CHECK(!asyncCopyCheck(0x100, 0x2000, 2, 2, false).empty());
}

TEST(TmaReduceFloatMinMaxAndFlush) {
  Global g;
  g.bytes.resize(16);
  auto rd = [&](uint64_t p, uint8_t *o, size_t n) { return g.read(p, o, n); };
  auto wr = [&](uint64_t p, const uint8_t *i, size_t n) {
    return g.write(p, i, n);
  };
  TensorMapDesc d;
  d.elem = TmaElem::BF16;
  d.rank = 1;
  d.globalAddress = g.base;
  d.dims[0] = 8;
  d.strides[0] = 2;
  d.box[0] = 8;
  // old, value: 1 vs 2; -3 vs 0.5; NaN vs 4; +0 vs -0; 5 vs NaN; both NaN.
  const uint16_t olds[8] = {0x3F80, 0xC040, 0x7FC0, 0x0000,
                            0x40A0, 0x7FC0, 0x3F80, 0x3F80};
  const uint16_t vals[8] = {0x4000, 0x3F00, 0x4080, 0x8000,
                            0xFFC0, 0x7FC1, 0x3F80, 0x3F80};
  const uint16_t wantMin[8] = {0x3F80, 0xC040, 0x4080, 0x8000,
                               0x40A0, 0x7FFF, 0x3F80, 0x3F80};
  const uint16_t wantMax[8] = {0x4000, 0x3F00, 0x4080, 0x0000,
                               0x40A0, 0x7FFF, 0x3F80, 0x3F80};
  for (TmaReduce op : {TmaReduce::Min, TmaReduce::Max}) {
    std::vector<uint8_t> s(16);
    for (unsigned i = 0; i < 8; ++i) {
      g.put(i * 2, olds[i], 2);
      putBytes(s, i * 2, vals[i], 2);
    }
    std::string e = tmaStore(d, {0}, s, 0, rd, wr, op);
    CHECK(e.empty()) << e;
    const uint16_t *want = op == TmaReduce::Min ? wantMin : wantMax;
    for (unsigned i = 0; i < 8; ++i)
      CHECK(g.get(i * 2, 2) == want[i])
          << tmaReduceName(op).str() << " " << i << ": " << g.get(i * 2, 2);
  }
  // f32 add, the modelled flush: a subnormal operand counts as zero, a
  // subnormal sum becomes a zero of its sign.
  d.elem = TmaElem::F32;
  d.dims[0] = 4;
  d.strides[0] = 4;
  d.box[0] = 4;
  const uint32_t fo[4] = {0x3F800000, 0x00800000, 0x00000001, 0x80800000};
  const uint32_t fv[4] = {0x00000001, 0x80000001, 0x3F800000, 0x00000001};
  const uint32_t fw[4] = {0x3F800000, 0x00800000, 0x3F800000, 0x80800000};
  std::vector<uint8_t> s(16);
  for (unsigned i = 0; i < 4; ++i) {
    g.put(i * 4, fo[i], 4);
    putBytes(s, i * 4, fv[i], 4);
  }
  CHECK(tmaStore(d, {0}, s, 0, rd, wr, TmaReduce::Add).empty());
  for (unsigned i = 0; i < 4; ++i)
    CHECK(g.get(i * 4, 4) == fw[i]) << "f32 " << i << ": " << g.get(i * 4, 4);
  // 1.5 * 2^-126 - 2^-126 = 2^-127, a subnormal sum of normals: +0.
  g.put(0, 0x00C00000, 4);       // 1.5 * 2^-126
  putBytes(s, 0, 0x80800000, 4); // -2^-126
  CHECK(tmaStore(d, {0}, s, 0, rd, wr, TmaReduce::Add).empty());
  CHECK(g.get(0, 4) == 0) << g.get(0, 4);
}
