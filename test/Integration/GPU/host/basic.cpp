//===- basic.cpp - host side of kernel family 1 (basic.mlir) --------------===//
//
// One producer warp, one consumer warp; stages 1, 2, 3, 4, 8; item counts
// that are not multiples of the stage count (and 0).
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kMaxItems = 1024;
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("basic");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "basic.cubin"));

  const unsigned stageCounts[] = {1, 2, 3, 4, 8};
  const unsigned itemCounts[] = {0, 1, 7, 101, 1021};
  pmrt::DeviceBuffer out(kMaxItems * 32 * 4);
  pmrt::DeviceBuffer stageOut(kMaxItems * 4);

  for (unsigned stages : stageCounts) {
    std::string name = "basic_s" + std::to_string(stages);
    CUfunction fn = pmrt::getKernel(module, name.c_str());
    {
      // The launch contract the compiler recorded: two warps (the producer
      // and the consumer) and the barriers' shared memory. One warp is
      // refused before the driver is called; two are accepted.
      pmrt::LaunchConfig one, two;
      one.block[0] = 32;
      two.block[0] = 64;
      std::string refused = pmrt::checkLaunchContract(fn, one);
      report.check(name + " contract",
                   refused.find("at least 64") != std::string::npos &&
                       pmrt::checkLaunchContract(fn, two).empty(),
                   "one warp: '" + refused + "'; two warps: '" +
                       pmrt::checkLaunchContract(fn, two) + "'");
    }
    for (unsigned n : itemCounts) {
      std::string test = name + " n=" + std::to_string(n);
      out.fill32(kPoison);
      stageOut.fill32(kPoison);
      pmrt::LaunchConfig cfg;
      cfg.block[0] = 64;
      pmrt::KernelArgs args;
      args.ptr(out.ptr()).ptr(stageOut.ptr()).i32(static_cast<int32_t>(n));
      pmrt::launchAndWait(test.c_str(), fn, cfg, args);

      std::vector<uint32_t> want(kMaxItems * 32, kPoison);
      std::vector<uint32_t> wantStage(kMaxItems, kPoison);
      for (unsigned i = 0; i < n; ++i) {
        for (unsigned lane = 0; lane < 32; ++lane)
          want[i * 32 + lane] = pmrt::mix32(i * 32 + lane) ^ stages;
        wantStage[i] = i % stages;
      }
      std::string why;
      bool ok =
          pmrt::compareU32(out.download<uint32_t>(kMaxItems * 32), want, why);
      std::string whyStage;
      bool okStage = pmrt::compareU32(stageOut.download<uint32_t>(kMaxItems),
                                      wantStage, whyStage);
      report.check(test, ok && okStage,
                   (ok ? "" : "items: " + why + " ") +
                       (okStage ? "" : "stage indices: " + whyStage));
    }
  }
  return report.finish();
}
