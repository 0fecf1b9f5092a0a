//===- Tma.cpp - the tensor memory accelerator's copies, with data --------===//
//
// Tile-mode tensor copies by definition: the box is walked row by row (a row
// is the box's extent along dimension 0), the in-bound part of each row is
// one contiguous global range, and the packed box is placed in shared memory
// 16-byte chunk by 16-byte chunk through swizzleAddress.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Sim/Tma.h"
#include "pipeline/Sim/FloatOps.h"
#include "pipeline/Sim/Swizzle.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

using namespace pmlir::sim;

namespace {

struct ElemInfo {
  TmaElem elem;
  const char *name;
  unsigned bytes;
  bool isFloat;
};

constexpr ElemInfo kElems[] = {
    {TmaElem::U8, "u8", 1, false},          {TmaElem::U16, "u16", 2, false},
    {TmaElem::U32, "u32", 4, false},        {TmaElem::S32, "s32", 4, false},
    {TmaElem::U64, "u64", 8, false},        {TmaElem::S64, "s64", 8, false},
    {TmaElem::F16, "f16", 2, true},         {TmaElem::F32, "f32", 4, true},
    {TmaElem::F64, "f64", 8, true},         {TmaElem::BF16, "bf16", 2, true},
    {TmaElem::F32FTZ, "f32ftz", 4, true},   {TmaElem::TF32, "tf32", 4, true},
    {TmaElem::TF32FTZ, "tf32ftz", 4, true},
};

const ElemInfo *elemInfo(TmaElem e) {
  for (const ElemInfo &info : kElems)
    if (info.elem == e)
      return &info;
  return nullptr;
}

std::string hex(uint64_t v) { return "0x" + llvm::utohexstr(v, true); }

uint64_t loadLE(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = 0; i < n; ++i)
    v |= uint64_t(p[i]) << (8 * i);
  return v;
}

void storeLE(uint8_t *p, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i)
    p[i] = uint8_t(v >> (8 * i));
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// a + b in double, rounded to odd: one more rounding (to f16 or bf16) of it
/// is the correctly rounded sum.
double addRoundToOdd(double a, double b) {
  double s = a + b;
  if (!std::isfinite(s))
    return s;
  double bb = s - a;
  double err = (a - (s - bb)) + (b - bb);
  uint64_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if (err != 0 && (bits & 1) == 0)
    s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  return s;
}

float flushSubnormal(float v) {
  return std::fpclassify(v) == FP_SUBNORMAL ? std::copysign(0.0f, v) : v;
}

bool reduceSupported(TmaElem e, TmaReduce op) {
  switch (op) {
  case TmaReduce::None:
    return true;
  case TmaReduce::Add:
    return e == TmaElem::U32 || e == TmaElem::S32 || e == TmaElem::U64 ||
           e == TmaElem::F32 || e == TmaElem::F16 || e == TmaElem::BF16;
  case TmaReduce::Min:
  case TmaReduce::Max:
    return e == TmaElem::U32 || e == TmaElem::S32 || e == TmaElem::U64 ||
           e == TmaElem::S64 || e == TmaElem::F16 || e == TmaElem::BF16;
  case TmaReduce::Inc:
  case TmaReduce::Dec:
    return e == TmaElem::U32;
  case TmaReduce::And:
  case TmaReduce::Or:
  case TmaReduce::Xor:
    return e == TmaElem::U32 || e == TmaElem::S32 || e == TmaElem::U64 ||
           e == TmaElem::S64;
  }
  return false;
}

/// The new value of a global element `old` combined with shared `v`.
uint64_t reduceElement(TmaElem e, TmaReduce op, uint64_t old, uint64_t v) {
  unsigned bytes = tmaElemBytes(e);
  uint64_t mask = bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * bytes)) - 1;
  bool isSigned = e == TmaElem::S32 || e == TmaElem::S64;
  auto sext = [&](uint64_t x) -> int64_t {
    return bytes == 8 ? int64_t(x) : int64_t(int32_t(uint32_t(x)));
  };
  if (e == TmaElem::F16 || e == TmaElem::BF16) {
    FType f = e == TmaElem::F16 ? FType::F16 : FType::BF16;
    double a = decodeElement(f, old), b = decodeElement(f, v);
    if (op == TmaReduce::Add) {
      double sum = addRoundToOdd(a, b);
      return std::isnan(sum) ? 0x7fff : encodeElement(f, sum, Rounding::RN);
    }
    // min / max: a NaN operand yields the other (both: canonical NaN);
    // -0 < +0.
    if (std::isnan(a) && std::isnan(b))
      return 0x7fff;
    if (std::isnan(a))
      return v;
    if (std::isnan(b))
      return old;
    bool takeB = op == TmaReduce::Min
                     ? b < a || (b == a && std::signbit(b) && !std::signbit(a))
                     : b > a || (b == a && !std::signbit(b) && std::signbit(a));
    return takeB ? v : old;
  }
  if (e == TmaElem::F32) { // add only
    float a, b;
    uint32_t ua = uint32_t(old), ub = uint32_t(v);
    std::memcpy(&a, &ua, 4);
    std::memcpy(&b, &ub, 4);
    float s = flushSubnormal(flushSubnormal(a) + flushSubnormal(b));
    if (std::isnan(s))
      return 0x7fffffffu;
    uint32_t us;
    std::memcpy(&us, &s, 4);
    return us;
  }
  switch (op) {
  case TmaReduce::Add:
    return (old + v) & mask;
  case TmaReduce::Min:
    if (isSigned)
      return sext(v) < sext(old) ? v : old;
    return v < old ? v : old;
  case TmaReduce::Max:
    if (isSigned)
      return sext(v) > sext(old) ? v : old;
    return v > old ? v : old;
  case TmaReduce::Inc:
    return old >= v ? 0 : (old + 1) & mask;
  case TmaReduce::Dec:
    return (old == 0 || old > v) ? v : old - 1;
  case TmaReduce::And:
    return old & v;
  case TmaReduce::Or:
    return old | v;
  case TmaReduce::Xor:
    return old ^ v;
  case TmaReduce::None:
    break;
  }
  return v;
}

//===----------------------------------------------------------------------===//
// The box walk
//===----------------------------------------------------------------------===//

/// One row of the box (fixed indices in dimensions 1..rank-1): its offset in
/// the packed box and the in-bound element range [lo, hi) along dimension 0
/// with the global address of element lo.
struct Row {
  uint64_t boxOffset;
  uint64_t lo, hi;
  uint64_t address;
};

/// Calls fn(Row) for every row of the box, in box order.
template <typename Fn>
void forEachRow(const TensorMapDesc &d, llvm::ArrayRef<int32_t> coords, Fn fn) {
  unsigned esize = tmaElemBytes(d.elem);
  uint64_t n0 = d.box[0], rowBytes = n0 * esize;
  uint64_t rows = 1;
  for (unsigned i = 1; i < d.rank; ++i)
    rows *= tensorMapBoxExtent(d, i);
  int64_t c0 = coords[0];
  int64_t lo0 = std::max<int64_t>(0, -c0);
  int64_t hi0 = std::min<int64_t>(int64_t(n0), int64_t(d.dims[0]) - c0);
  for (uint64_t r = 0; r < rows; ++r) {
    Row row{r * rowBytes, 0, 0, 0};
    bool inBounds = hi0 > lo0;
    uint64_t address = d.globalAddress;
    uint64_t rest = r;
    for (unsigned i = 1; i < d.rank && inBounds; ++i) {
      uint64_t extent = tensorMapBoxExtent(d, i);
      int64_t k = int64_t(rest % extent);
      rest /= extent;
      int64_t g = int64_t(coords[i]) + k * int64_t(d.elementStrides[i]);
      if (g < 0 || g >= int64_t(d.dims[i]))
        inBounds = false;
      else
        address += uint64_t(g) * d.strides[i];
    }
    if (inBounds) {
      row.lo = uint64_t(lo0);
      row.hi = uint64_t(hi0);
      row.address = address + uint64_t(c0 + lo0) * esize;
    }
    fn(row);
  }
}

std::string checkCopy(const TensorMapDesc &d, llvm::ArrayRef<int32_t> coords,
                      size_t smemSize, uint64_t offset, const char *what) {
  std::string invalid = validateTensorMap(d);
  if (!invalid.empty())
    return "invalid tensor map: " + invalid;
  if (coords.size() != d.rank)
    return llvm::formatv("{0} coordinates for a rank-{1} tensor map",
                         coords.size(), d.rank)
        .str();
  uint64_t align = tensorMapSmemAlignment(d);
  if (offset % align)
    return llvm::formatv("shared-memory {0} {1} is not {2}-byte aligned{3}",
                         what, hex(offset), align,
                         d.swizzle ? llvm::formatv(" (the {0}-byte swizzle "
                                                   "repeats every {1} bytes)",
                                                   d.swizzle, align)
                                         .str()
                                   : std::string())
        .str();
  uint64_t bytes = tensorMapBoxBytes(d);
  if (offset > smemSize || bytes > smemSize - offset)
    return llvm::formatv("the {0}-byte box at shared-memory {1} {2} is past "
                         "the end of shared memory ({3} bytes)",
                         bytes, what, hex(offset), smemSize)
        .str();
  return "";
}

std::string globalFailure(const char *verb, uint64_t addr, uint64_t n) {
  return llvm::formatv("TMA {0} of {1} bytes at global {2} is outside every "
                       "buffer",
                       verb, n, hex(addr))
      .str();
}

llvm::Error parseError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "tmap: " + msg);
}

bool parseNumber(llvm::StringRef s, uint64_t &v) {
  return !s.empty() && !s.getAsInteger(0, v);
}

/// "AxBxC" -> {A, B, C}; false on a malformed list.
bool parseList(llvm::StringRef s, llvm::SmallVectorImpl<uint64_t> &out) {
  llvm::SmallVector<llvm::StringRef, 5> parts;
  s.split(parts, 'x');
  for (llvm::StringRef p : parts) {
    uint64_t v;
    // "0x10" would split at its x: hex is not taken in lists.
    if (p.empty() || p.getAsInteger(10, v))
      return false;
    out.push_back(v);
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

unsigned pmlir::sim::tmaElemBytes(TmaElem e) {
  const ElemInfo *info = elemInfo(e);
  return info ? info->bytes : 0;
}

llvm::StringRef pmlir::sim::tmaElemName(TmaElem e) {
  const ElemInfo *info = elemInfo(e);
  return info ? info->name : "?";
}

bool pmlir::sim::tmaElemIsFloat(TmaElem e) {
  const ElemInfo *info = elemInfo(e);
  return info && info->isFloat;
}

llvm::StringRef pmlir::sim::tmaReduceName(TmaReduce op) {
  switch (op) {
  case TmaReduce::None:
    return "none";
  case TmaReduce::Add:
    return "add";
  case TmaReduce::Min:
    return "min";
  case TmaReduce::Max:
    return "max";
  case TmaReduce::Inc:
    return "inc";
  case TmaReduce::Dec:
    return "dec";
  case TmaReduce::And:
    return "and";
  case TmaReduce::Or:
    return "or";
  case TmaReduce::Xor:
    return "xor";
  }
  return "?";
}

std::string pmlir::sim::validateTensorMap(const TensorMapDesc &d) {
  if (d.rank < 1 || d.rank > 5)
    return llvm::formatv("rank {0} is not 1 to 5", d.rank).str();
  const ElemInfo *info = elemInfo(d.elem);
  if (!info)
    return "unknown element type";
  unsigned esize = info->bytes;
  if (d.globalAddress % 16)
    return "global address " + hex(d.globalAddress) + " is not 16-byte aligned";
  for (unsigned i = 0; i < d.rank; ++i)
    if (d.dims[i] == 0 || d.dims[i] > (uint64_t(1) << 32))
      return llvm::formatv("dims[{0}] = {1} is not 1 to 2^32", i, d.dims[i])
          .str();
  if (d.strides[0] != esize)
    return llvm::formatv("strides[0] = {0} is not the element size {1}",
                         d.strides[0], esize)
        .str();
  for (unsigned i = 1; i < d.rank; ++i) {
    if (d.strides[i] % 16)
      return llvm::formatv("the stride of dimension {0} ({1} bytes) is not a "
                           "multiple of 16",
                           i, d.strides[i])
          .str();
    if (d.strides[i] >= (uint64_t(1) << 40))
      return llvm::formatv("the stride of dimension {0} ({1} bytes) is not "
                           "below 2^40",
                           i, d.strides[i])
          .str();
  }
  for (unsigned i = 0; i < d.rank; ++i)
    if (d.box[i] == 0 || d.box[i] > 256)
      return llvm::formatv("box[{0}] = {1} is not 1 to 256", i, d.box[i]).str();
  uint64_t inner = uint64_t(d.box[0]) * esize;
  if (inner % 16)
    return llvm::formatv("the box's inner dimension is {0} bytes ({1} x {2}), "
                         "not a multiple of 16",
                         inner, d.box[0], tmaElemName(d.elem))
        .str();
  for (unsigned i = 0; i < d.rank; ++i)
    if (d.elementStrides[i] == 0 || d.elementStrides[i] > 8)
      return llvm::formatv("elementStrides[{0}] = {1} is not 1 to 8", i,
                           d.elementStrides[i])
          .str();
  if (d.swizzle != 0 && d.swizzle != 32 && d.swizzle != 64 && d.swizzle != 128)
    return llvm::formatv("swizzle {0} is not 0, 32, 64 or 128 bytes", d.swizzle)
        .str();
  if (d.swizzle && inner > d.swizzle)
    return llvm::formatv("the box's inner dimension is {0} bytes, more than "
                         "the {1}-byte swizzle",
                         inner, d.swizzle)
        .str();
  if (d.oobNan && !info->isFloat)
    return llvm::formatv("NaN out-of-bound fill needs a floating-point type, "
                         "not {0}",
                         info->name)
        .str();
  return "";
}

uint64_t pmlir::sim::tensorMapBoxExtent(const TensorMapDesc &d, unsigned i) {
  if (i >= d.rank)
    return 1;
  if (i == 0 || d.elementStrides[i] == 0)
    return d.box[i];
  return (uint64_t(d.box[i]) + d.elementStrides[i] - 1) / d.elementStrides[i];
}

uint64_t pmlir::sim::tensorMapBoxBytes(const TensorMapDesc &d) {
  uint64_t bytes = tmaElemBytes(d.elem);
  for (unsigned i = 0; i < d.rank && i < 5; ++i)
    bytes *= tensorMapBoxExtent(d, i);
  return bytes;
}

uint64_t pmlir::sim::tensorMapSmemAlignment(const TensorMapDesc &d) {
  return d.swizzle ? std::max<uint64_t>(128, 8 * uint64_t(d.swizzle)) : 128;
}

llvm::Expected<TensorMapDesc>
pmlir::sim::parseTensorMapSpec(llvm::StringRef spec) {
  llvm::SmallVector<llvm::StringRef, 8> fields;
  spec.split(fields, ':');
  TensorMapDesc d;
  const ElemInfo *info = nullptr;
  for (const ElemInfo &e : kElems)
    if (fields[0] == e.name)
      info = &e;
  if (!info)
    return parseError("unknown element type '" + fields[0] +
                      "' (u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 tf32 "
                      "f32ftz tf32ftz)");
  d.elem = info->elem;
  llvm::SmallVector<uint64_t, 5> dims, box, strides, estrides;
  bool haveData = false;
  llvm::SmallVector<llvm::StringRef, 8> seen;
  for (llvm::StringRef field : llvm::ArrayRef(fields).drop_front()) {
    auto [key, value] = field.split('=');
    if (!field.contains('='))
      return parseError("expected KEY=VALUE, got '" + field + "'");
    if (llvm::is_contained(seen, key))
      return parseError("'" + key + "' given twice");
    seen.push_back(key);
    if (key == "dims" || key == "box" || key == "strides" ||
        key == "estrides") {
      auto &list = key == "dims"      ? dims
                   : key == "box"     ? box
                   : key == "strides" ? strides
                                      : estrides;
      if (!parseList(value, list))
        return parseError("malformed " + key + " '" + value +
                          "' (decimal numbers separated by 'x')");
    } else if (key == "swizzle") {
      uint64_t s;
      if (!parseNumber(value, s) || (s != 0 && s != 32 && s != 64 && s != 128))
        return parseError("swizzle must be 0, 32, 64 or 128, got '" + value +
                          "'");
      d.swizzle = unsigned(s);
    } else if (key == "oob") {
      if (value != "zero" && value != "nan")
        return parseError("oob must be zero or nan, got '" + value + "'");
      d.oobNan = value == "nan";
    } else if (key == "data") {
      auto [name, offset] = value.split('+');
      if (name.empty())
        return parseError("data needs a buffer name");
      if (value.contains('+') && !parseNumber(offset, d.dataOffset))
        return parseError("malformed data offset '" + offset + "'");
      if (d.dataOffset % 16)
        return parseError("data offset " + llvm::Twine(d.dataOffset) +
                          " is not 16-byte aligned");
      d.data = name.str();
      haveData = true;
    } else {
      return parseError("unknown field '" + key +
                        "' (dims box strides estrides swizzle oob data)");
    }
  }
  if (dims.empty())
    return parseError("missing dims=D0xD1..");
  if (box.empty())
    return parseError("missing box=B0xB1..");
  if (!haveData)
    return parseError("missing data=NAME[+OFFSET]");
  if (dims.size() > 5)
    return parseError("rank " + llvm::Twine(dims.size()) + " is over 5");
  d.rank = unsigned(dims.size());
  if (box.size() != d.rank)
    return parseError(llvm::Twine(box.size()) + " box dims for rank " +
                      llvm::Twine(d.rank));
  if (!strides.empty() && strides.size() != d.rank - 1)
    return parseError(llvm::Twine(strides.size()) + " strides for rank " +
                      llvm::Twine(d.rank) + " (one per dimension 1..rank-1)");
  if (!estrides.empty() && estrides.size() != d.rank)
    return parseError(llvm::Twine(estrides.size()) +
                      " element strides for rank " + llvm::Twine(d.rank));
  for (unsigned i = 0; i < d.rank; ++i) {
    d.dims[i] = dims[i];
    if (box[i] > 256)
      return parseError("box[" + llvm::Twine(i) + "] = " + llvm::Twine(box[i]) +
                        " is not 1 to 256");
    d.box[i] = uint32_t(box[i]);
    if (!estrides.empty()) {
      if (estrides[i] > 8)
        return parseError("estrides[" + llvm::Twine(i) +
                          "] = " + llvm::Twine(estrides[i]) + " is not 1 to 8");
      d.elementStrides[i] = uint32_t(estrides[i]);
    }
  }
  d.strides[0] = info->bytes;
  for (unsigned i = 1; i < d.rank; ++i)
    d.strides[i] =
        strides.empty() ? d.strides[i - 1] * d.dims[i - 1] : strides[i - 1];
  std::string invalid = validateTensorMap(d);
  if (!invalid.empty())
    return parseError(invalid + (strides.empty() && d.rank > 1
                                     ? " (packed strides were assumed; "
                                       "give strides=S1x.. to pad rows)"
                                     : ""));
  return d;
}

std::string pmlir::sim::tmaLoad(const TensorMapDesc &d,
                                llvm::ArrayRef<int32_t> coords, GlobalRead read,
                                llvm::MutableArrayRef<uint8_t> smem,
                                uint64_t dst) {
  std::string error = checkCopy(d, coords, smem.size(), dst, "destination");
  if (!error.empty())
    return error;
  unsigned esize = tmaElemBytes(d.elem);
  uint64_t bytes = tensorMapBoxBytes(d);
  std::vector<uint8_t> box(bytes, 0);
  if (d.oobNan) {
    uint64_t nan = esize == 2   ? 0x7fff
                   : esize == 4 ? 0x7fffffff
                                : 0x7fffffffffffffffull;
    for (uint64_t off = 0; off < bytes; off += esize)
      storeLE(&box[off], nan, esize);
  }
  forEachRow(d, coords, [&](const Row &row) {
    if (!error.empty() || row.hi <= row.lo)
      return;
    uint64_t n = (row.hi - row.lo) * esize;
    if (!read(row.address, &box[row.boxOffset + row.lo * esize], n))
      error = globalFailure("load", row.address, n);
  });
  if (!error.empty())
    return error;
  for (uint64_t off = 0; off < bytes; off += 16)
    std::memcpy(&smem[swizzleAddress(dst + off, d.swizzle)], &box[off], 16);
  return "";
}

std::string pmlir::sim::tmaStore(const TensorMapDesc &d,
                                 llvm::ArrayRef<int32_t> coords,
                                 llvm::ArrayRef<uint8_t> smem, uint64_t src,
                                 GlobalRead read, GlobalWrite write,
                                 TmaReduce op) {
  std::string error = checkCopy(d, coords, smem.size(), src, "source");
  if (!error.empty())
    return error;
  if (!reduceSupported(d.elem, op))
    return llvm::formatv("cp.reduce.async.bulk.tensor .{0} does not take "
                         "{1} elements",
                         tmaReduceName(op), tmaElemName(d.elem))
        .str();
  unsigned esize = tmaElemBytes(d.elem);
  uint64_t bytes = tensorMapBoxBytes(d);
  std::vector<uint8_t> box(bytes);
  for (uint64_t off = 0; off < bytes; off += 16)
    std::memcpy(&box[off], &smem[swizzleAddress(src + off, d.swizzle)], 16);
  // Read every destination range first (the check, and the reductions'
  // operand), then write.
  struct Segment {
    uint64_t address;
    std::vector<uint8_t> bytes;
  };
  std::vector<Segment> segments;
  forEachRow(d, coords, [&](const Row &row) {
    if (!error.empty() || row.hi <= row.lo)
      return;
    uint64_t n = (row.hi - row.lo) * esize;
    Segment seg{row.address, std::vector<uint8_t>(n)};
    if (!read(row.address, seg.bytes.data(), n)) {
      error = globalFailure("store", row.address, n);
      return;
    }
    const uint8_t *in = &box[row.boxOffset + row.lo * esize];
    for (uint64_t off = 0; off < n; off += esize) {
      uint64_t v = loadLE(in + off, esize);
      if (op != TmaReduce::None)
        v = reduceElement(d.elem, op, loadLE(&seg.bytes[off], esize), v);
      storeLE(&seg.bytes[off], v, esize);
    }
    segments.push_back(std::move(seg));
  });
  if (!error.empty())
    return error;
  for (const Segment &seg : segments)
    if (!write(seg.address, seg.bytes.data(), seg.bytes.size()))
      return globalFailure("store", seg.address, seg.bytes.size());
  return "";
}

std::string pmlir::sim::bulkCopyCheck(uint64_t dst, uint64_t src, uint64_t n) {
  if (dst % 16)
    return "cp.async.bulk destination " + hex(dst) + " is not 16-byte aligned";
  if (src % 16)
    return "cp.async.bulk source " + hex(src) + " is not 16-byte aligned";
  if (n % 16)
    return llvm::formatv("cp.async.bulk size {0} is not a multiple of 16", n)
        .str();
  return "";
}

std::string pmlir::sim::asyncCopyCheck(uint64_t dst, uint64_t src,
                                       unsigned cpSize, uint64_t srcSize,
                                       bool cacheGlobal) {
  if (cacheGlobal ? cpSize != 16 : (cpSize != 4 && cpSize != 8 && cpSize != 16))
    return llvm::formatv("cp.async.{0} copies {1} bytes, not {2}",
                         cacheGlobal ? "cg" : "ca",
                         cacheGlobal ? "16" : "4, 8 or 16", cpSize)
        .str();
  if (dst % cpSize)
    return llvm::formatv("cp.async destination {0} is not {1}-byte aligned",
                         hex(dst), cpSize)
        .str();
  if (src % cpSize)
    return llvm::formatv("cp.async source {0} is not {1}-byte aligned",
                         hex(src), cpSize)
        .str();
  if (srcSize > cpSize)
    return llvm::formatv("cp.async src-size {0} is over cp-size {1}", srcSize,
                         cpSize)
        .str();
  return "";
}
