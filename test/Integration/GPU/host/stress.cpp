//===- stress.cpp - host side of kernel family 8 --------------------------===//
//
// Every SM busy (2 blocks per SM), each block pushing 100000 items through a
// 4-stage pipeline with random spin delays on both sides.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr uint64_t kOutCapacity = 33554432; // elements of the kernel's `out`
constexpr unsigned kMaxBlocks = 2048;       // errors holds 2048 x 32
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("stress");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "stress.cubin"));
  CUfunction fn = pmrt::getKernel(module, "stress");

  // Under compute-sanitizer the same kernel runs with fewer items (see
  // docs/testing.md); --items / --blocks override either default.
  const bool sanitizer = pmrt::underSanitizer();
  unsigned blocks = static_cast<unsigned>(pmrt::intOption(
      argc, argv, "blocks", (sanitizer ? 1 : 2) * pmrt::smCount()));
  uint64_t items = static_cast<uint64_t>(
      pmrt::intOption(argc, argv, "items", sanitizer ? 2000 : 100000));
  blocks = std::min(blocks, kMaxBlocks);
  if (blocks * items > kOutCapacity)
    items = kOutCapacity / blocks;

  pmrt::DeviceBuffer out(blocks * items * 4);
  pmrt::DeviceBuffer errors(blocks * 32 * 4);
  out.fill32(kPoison);
  errors.fill32(kPoison);
  pmrt::LaunchConfig cfg;
  cfg.grid[0] = blocks;
  cfg.block[0] = 64;
  cfg.dynamicSmem = 4 * 32 * 4; // the payload; barriers are static
  pmrt::KernelArgs args;
  args.ptr(out.ptr()).ptr(errors.ptr()).i32(static_cast<int32_t>(items));
  std::string test = "stress " + std::to_string(blocks) + " blocks x " +
                     std::to_string(items) + " items";
  double ms = pmrt::launchAndWait(test.c_str(), fn, cfg, args);
  std::printf("  %s: %.1f ms (%d SMs)\n", test.c_str(), ms, pmrt::smCount());

  std::vector<uint32_t> got = out.download<uint32_t>(blocks * items);
  std::vector<uint32_t> want(blocks * items);
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t i = 0; i < items; ++i)
      want[b * items + i] =
          pmrt::mix32(static_cast<uint32_t>(i * 32)) ^ static_cast<uint32_t>(b);
  std::string why;
  bool ok = pmrt::compareU32(got, want, why);
  report.check(test + ": items", ok, why);

  std::vector<uint32_t> err = errors.download<uint32_t>(blocks * 32);
  std::string whyErr;
  bool okErr =
      pmrt::compareU32(err, std::vector<uint32_t>(blocks * 32, 0), whyErr);
  report.check(test + ": in-kernel checks of all lanes", okErr,
               "mismatch counts per lane: " + whyErr);
  return report.finish();
}
