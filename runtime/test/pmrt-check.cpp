//===- pmrt-check.cpp - tests of the host runtime pmrt --------------------===//
//
// Checks of pmrt that need no GPU, and one mode that does:
//
//   pmrt-check --unit        parameter checks (TMA descriptor, launch
//                            geometry, option parsing, comparison, error
//                            texts); no driver call; PASS/FAIL lines
//   pmrt-check --init        pmrt::init(); with the toolkit's stub libcuda
//                            it must end with a clear driver error
//   pmrt-check --bad-tma     a TMA descriptor with a box row of 12 bytes:
//                            refused before any driver call
//   pmrt-check --bad-launch  a launch of 2048 threads per block: refused
//                            before any driver call
//   pmrt-check --gpu         init, buffer copies and fills, a TMA
//                            descriptor (needs a GPU)
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

int unitChecks() {
  pmrt::Report report("pmrt-check");
  const CUdeviceptr base = 0x10000; // never dereferenced
  const auto i32 = CU_TENSOR_MAP_DATA_TYPE_INT32;

  // TMA descriptor parameters.
  report.check("tma-valid",
               pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 16, 16).empty());
  report.check("tma-valid-one-row",
               pmrt::TensorMap2D::check(base, i32, 4, 1, 3, 1, 4).empty());
  std::string why = pmrt::TensorMap2D::check(base, i32, 2, 64, 64, 16, 16);
  report.check("tma-element-size", contains(why, "element size 2"), why);
  why = pmrt::TensorMap2D::check(base, static_cast<CUtensorMapDataType>(1000),
                                 4, 64, 64, 16, 16);
  report.check("tma-data-type", contains(why, "not a byte-sized type"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 0, 64, 16, 16);
  report.check("tma-zero-rows", contains(why, "global dims 0 x 64"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 3, 16, 4);
  report.check("tma-pitch", contains(why, "row pitch of 12 bytes"), why);
  why = pmrt::TensorMap2D::check(base + 8, i32, 4, 64, 64, 16, 16);
  report.check("tma-alignment", contains(why, "not 16-byte aligned"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 512, 16);
  report.check("tma-box-too-big", contains(why, "box 512 x 16"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 0, 16);
  report.check("tma-box-empty", contains(why, "box 0 x 16"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 16, 3);
  report.check("tma-box-row", contains(why, "box row of 12 bytes"), why);

  // Kernel parameters of the kernel ABI: a dynamic rank-2 memref is six
  // parameters (pointer, offset, two sizes, two row-major strides); a
  // widened i2 is one byte.
  {
    pmrt::KernelArgs args;
    args.u8(3).memref(base, {5, 7}).i32(-1);
    void **params = args.data();
    auto i64At = [&](size_t i) {
      int64_t v;
      std::memcpy(&v, params[i], sizeof(v));
      return v;
    };
    CUdeviceptr ptr;
    std::memcpy(&ptr, params[1], sizeof(ptr));
    bool ok = args.size() == 8 && *static_cast<uint8_t *>(params[0]) == 3 &&
              ptr == base && i64At(2) == 0 && i64At(3) == 5 && i64At(4) == 7 &&
              i64At(5) == 7 && i64At(6) == 1 &&
              *static_cast<int32_t *>(params[7]) == -1;
    report.check("kernel-args-memref", ok,
                 "got " + std::to_string(args.size()) + " parameters");
    pmrt::KernelArgs strided;
    strided.memref(base, 3, {4}, {2});
    report.check("kernel-args-strided",
                 strided.size() == 4 &&
                     *static_cast<int64_t *>(strided.data()[1]) == 3 &&
                     *static_cast<int64_t *>(strided.data()[3]) == 2);
  }

  // Launch geometry.
  pmrt::LaunchConfig cfg;
  cfg.grid[0] = 132;
  cfg.block[0] = 384;
  report.check("launch-valid", pmrt::checkLaunchConfig(cfg).empty());
  cfg.grid[0] = 4;
  cfg.cluster[0] = 2;
  report.check("launch-cluster-valid", pmrt::checkLaunchConfig(cfg).empty());
  cfg.cluster[0] = 3;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-cluster-divides",
               contains(why, "cluster x = 3 does not divide grid x = 4"), why);
  cfg.grid[0] = 32;
  cfg.cluster[0] = 32;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-cluster-size", contains(why, "cluster of 32 CTAs"), why);
  cfg = pmrt::LaunchConfig();
  cfg.block[0] = 64;
  cfg.block[1] = 32;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-threads", contains(why, "2048 threads per block"), why);
  cfg = pmrt::LaunchConfig();
  cfg.grid[1] = 0;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-zero-grid", contains(why, "grid y = 0"), why);
  cfg = pmrt::LaunchConfig();
  cfg.block[2] = 128;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-block-z", contains(why, "block z = 128 not in 1..64"),
               why);

  // Options and comparisons.
  const char *argvBuf[] = {"prog", "--iters", "7", "--cubin", "k.cubin"};
  char **argv = const_cast<char **>(argvBuf);
  report.check("int-option", pmrt::intOption(5, argv, "iters", 1) == 7);
  report.check("int-option-fallback",
               pmrt::intOption(5, argv, "missing", 3) == 3);
  report.check("cubin-path", pmrt::cubinPath(5, argv, "x.cubin") == "k.cubin");
  why.clear();
  bool same = pmrt::compareU32({1, 2, 3}, {1, 5, 3}, why);
  report.check("compare-u32",
               !same && contains(why, "[1]: got 0x00000002") &&
                   contains(why, "1 of 3 elements differ"),
               why);

  // Driver results the stub library cannot name.
  why = pmrt::driverErrorText(CUDA_ERROR_STUB_LIBRARY);
  report.check("error-text-stub",
               contains(why, "CUDA_ERROR_STUB_LIBRARY") &&
                   contains(why, "stub libcuda"),
               why);
  why = pmrt::driverErrorText(CUDA_ERROR_NO_DEVICE);
  report.check("error-text-no-device", contains(why, "CUDA_ERROR_NO_DEVICE"),
               why);
  return report.finish();
}

int gpuChecks() {
  pmrt::init();
  pmrt::Report report("pmrt-check --gpu");
  report.check("device", pmrt::smCount() > 0 && !pmrt::deviceName().empty());
  const size_t count = 4096;
  std::vector<uint32_t> want(count);
  for (size_t i = 0; i < count; ++i)
    want[i] = pmrt::mix32(static_cast<uint32_t>(i));
  pmrt::DeviceBuffer buffer(count * sizeof(uint32_t));
  buffer.upload(want);
  std::string why;
  report.check("upload-download",
               pmrt::compareU32(buffer.download<uint32_t>(count), want, why),
               why);
  buffer.fill32(0xDEADBEEF);
  why.clear();
  report.check("fill32",
               pmrt::compareU32(buffer.download<uint32_t>(count),
                                std::vector<uint32_t>(count, 0xDEADBEEF), why),
               why);
  // The descriptor encodes; using it needs a kernel (tma_tile does that).
  pmrt::TensorMap2D map(buffer.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 64, 64,
                        16, 16);
  report.check("tensor-map", map.devicePtr() != 0);
  return report.finish();
}

} // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "--unit";
  if (mode == "--unit")
    return unitChecks();
  if (mode == "--init") {
    pmrt::init();
    std::printf("initialized\n");
    return 0;
  }
  if (mode == "--bad-tma") {
    pmrt::TensorMap2D map(0x10000, CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 64, 64, 16,
                          3);
    return 0;
  }
  if (mode == "--bad-launch") {
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 1024;
    cfg.block[1] = 2;
    pmrt::KernelArgs args;
    pmrt::launch("bad-launch", nullptr, cfg, args);
    return 0;
  }
  if (mode == "--gpu")
    return gpuChecks();
  std::fprintf(stderr, "pmrt-check: unknown mode '%s'\n", mode.c_str());
  return 2;
}
