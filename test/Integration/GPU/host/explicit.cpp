//===- explicit.cpp - host side of kernel family 5 ------------------------===//
//
// consume_explicit with a lane-guarded arrive, and release_without_signal
// after a lane-guarded arrive; both barrier counts 1.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kMaxItems = 1024;
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("explicit");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "explicit.cubin"));
  CUfunction fn = pmrt::getKernel(module, "explicit");
  pmrt::DeviceBuffer out(kMaxItems * 32 * 4);

  for (unsigned n : {1u, 2u, 7u, 1000u}) {
    std::string test = "explicit n=" + std::to_string(n);
    out.fill32(kPoison);
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 64;
    pmrt::KernelArgs args;
    args.ptr(out.ptr()).i32(static_cast<int32_t>(n));
    pmrt::launchAndWait(test.c_str(), fn, cfg, args);
    std::vector<uint32_t> want(kMaxItems * 32, kPoison);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned lane = 0; lane < 32; ++lane)
        want[i * 32 + lane] = pmrt::mix32(i * 32 + lane) ^ 6u;
    std::string why;
    bool ok =
        pmrt::compareU32(out.download<uint32_t>(kMaxItems * 32), want, why);
    report.check(test, ok, why);
  }
  return report.finish();
}
