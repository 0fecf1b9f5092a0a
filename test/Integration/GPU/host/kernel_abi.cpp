//===- kernel_abi.cpp - host side of kernel family 11 (kernel_abi.mlir) ---===//
//
// Parameters as the kernel ABI lays them out (docs/lowering.md): widened
// scalars and vectors, and memrefs of dynamic shape as pointer, offset,
// sizes and strides, with random data and several shapes.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

void checkScalars(CUmodule module, pmrt::Report &report) {
  CUfunction fn = pmrt::getKernel(module, "scalars");
  pmrt::DeviceBuffer out(8 * 8);
  out.fill32(0xDEADBEEFu);
  // i2 = 0b11, i7 = 0x55; i33 with bit 32 set; an i65 of 2^64 + 0x12345678
  // in sixteen bytes; an f4E2M1FN of bits 0b1011 (-1.5); vector<3xi2> of
  // <1, 2, 3> as three bytes padded to four.
  const uint64_t i33 = (uint64_t(1) << 32) | 0x9ABCDEFu;
  const uint64_t i65[2] = {0x12345678u, 1};
  const uint8_t vec[4] = {1, 2, 3, 0};
  pmrt::KernelArgs args;
  args.u8(0x3)
      .u8(0x55)
      .i64(static_cast<int64_t>(i33))
      .bytes(i65, sizeof(i65))
      .u8(0xB)
      .bytes(vec, sizeof(vec))
      .ptr(out.ptr());
  pmrt::LaunchConfig cfg;
  pmrt::launchAndWait("scalars", fn, cfg, args);
  std::vector<uint64_t> got = out.download<uint64_t>(8);
  const uint64_t want[8] = {3,   0x55, i33, (uint64_t(1) << 32) | 0x12345678u,
                            0xB, 1,    2,   3};
  std::string why;
  for (int i = 0; i < 8; ++i)
    if (got[i] != want[i])
      why += " out[" + std::to_string(i) + "] = " + std::to_string(got[i]) +
             ", want " + std::to_string(want[i]) + ";";
  report.check("scalars", why.empty(), why);
}

void checkDynamic(CUmodule module, pmrt::Report &report, int64_t rows,
                  int64_t cols, int64_t viewOffset, int64_t viewStride) {
  CUfunction fn = pmrt::getKernel(module, "dynamic");
  std::string test = "dynamic " + std::to_string(rows) + "x" +
                     std::to_string(cols) + " view offset " +
                     std::to_string(viewOffset) + " stride " +
                     std::to_string(viewStride);
  std::vector<int32_t> matrix(rows * cols);
  for (size_t i = 0; i < matrix.size(); ++i)
    matrix[i] = static_cast<int32_t>(pmrt::mix32(uint32_t(i)) % 2001) - 1000;
  size_t viewElements = size_t(viewOffset + viewStride * rows);
  std::vector<int32_t> viewed(viewElements);
  for (size_t i = 0; i < viewed.size(); ++i)
    viewed[i] = static_cast<int32_t>(pmrt::mix32(uint32_t(i) ^ 0x5555u) % 1000);

  pmrt::DeviceBuffer m(matrix.size() * 4 + 4), v(viewed.size() * 4),
      out(rows * 4 + 16);
  m.upload(matrix);
  v.upload(viewed);
  out.fill32(0xDEADBEEFu);
  pmrt::KernelArgs args;
  args.memref(m.ptr(), {rows, cols})
      .memref(v.ptr(), viewOffset, {rows}, {viewStride})
      .memref(out.ptr(), {rows});
  pmrt::LaunchConfig cfg;
  cfg.block[0] = 128;
  cfg.grid[0] = unsigned((rows + 127) / 128);
  pmrt::launchAndWait(test.c_str(), fn, cfg, args);

  std::vector<uint32_t> got = out.download<uint32_t>(size_t(rows) + 4);
  std::vector<uint32_t> want(size_t(rows) + 4, 0xDEADBEEFu);
  for (int64_t r = 0; r < rows; ++r) {
    int32_t sum = viewed[size_t(viewOffset + viewStride * r)];
    for (int64_t c = 0; c < cols; ++c)
      sum += matrix[size_t(r * cols + c)];
    want[size_t(r)] = static_cast<uint32_t>(sum);
  }
  std::string why;
  report.check(test, pmrt::compareU32(got, want, why), why);
}

} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("kernel_abi");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "kernel_abi.cubin"));
  checkScalars(module, report);
  checkDynamic(module, report, 1, 1, 0, 1);
  checkDynamic(module, report, 129, 7, 3, 2);
  checkDynamic(module, report, 1000, 33, 17, 5);
  return report.finish();
}
