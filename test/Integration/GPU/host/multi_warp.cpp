//===- multi_warp.cpp - host side of kernel family 2 ----------------------===//
//
// Four producer threads (full count 4) and four consumer warps signalling
// through one elected lane each (empty count 4), 3 stages.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kMaxItems = 1024;
constexpr unsigned kRow = 128; // elements per item
constexpr uint32_t kSalt = 0x5A5A;
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("multi_warp");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "multi_warp.cubin"));
  CUfunction fn = pmrt::getKernel(module, "multi_warp");
  pmrt::DeviceBuffer out(kMaxItems * kRow * 4);

  for (unsigned n : {1u, 5u, 1000u}) {
    std::string test = "multi_warp n=" + std::to_string(n);
    out.fill32(kPoison);
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 32 * 5; // warp 0: producers, warps 1..4: consumers
    pmrt::KernelArgs args;
    args.ptr(out.ptr()).i32(static_cast<int32_t>(n));
    pmrt::launchAndWait(test.c_str(), fn, cfg, args);

    std::vector<uint32_t> want(kMaxItems * kRow, kPoison);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned c = 0; c < kRow; ++c)
        want[i * kRow + c] = pmrt::mix32(i * kRow + c) ^ kSalt;
    std::string why;
    bool ok =
        pmrt::compareU32(out.download<uint32_t>(kMaxItems * kRow), want, why);
    report.check(test, ok, why);
  }
  return report.finish();
}
