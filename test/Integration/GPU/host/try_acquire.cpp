//===- try_acquire.cpp - host side of kernel family 4 ---------------------===//
//
// The try-acquire path: try, other work, wait only if needed. Checks every
// item and that each role saw both a successful and a failed try.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kMaxItems = 256;
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("try_acquire");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "try_acquire.cubin"));
  const unsigned n = 64;
  // Spin long enough that the slow side is slow even when the sanitizer
  // slows the fast side down.
  const long long delay = pmrt::intOption(
      argc, argv, "delay", pmrt::underSanitizer() ? 4000000 : 40000);
  pmrt::DeviceBuffer out(kMaxItems * 32 * 4);
  pmrt::DeviceBuffer tries(64 * 4);

  struct Variant {
    const char *kernel;
    uint32_t salt;
  };
  for (Variant v : {Variant{"try_direct", 4}, Variant{"try_handles", 5}}) {
    CUfunction fn = pmrt::getKernel(module, v.kernel);
    out.fill32(kPoison);
    tries.fill32(kPoison);
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 64;
    pmrt::KernelArgs args;
    args.ptr(out.ptr()).ptr(tries.ptr()).i32(n).i64(delay);
    pmrt::launchAndWait(v.kernel, fn, cfg, args);

    std::vector<uint32_t> want(kMaxItems * 32, kPoison);
    for (unsigned i = 0; i < n; ++i)
      for (unsigned lane = 0; lane < 32; ++lane)
        want[i * 32 + lane] = pmrt::mix32(i * 32 + lane) ^ v.salt;
    std::string why;
    bool ok =
        pmrt::compareU32(out.download<uint32_t>(kMaxItems * 32), want, why);
    report.check(std::string(v.kernel) + " items", ok, why);

    // tries[0..32): producer lanes, tries[32..64): consumer lanes.
    std::vector<uint32_t> got = tries.download<uint32_t>(64);
    bool both = true;
    std::string counts;
    for (unsigned t = 0; t < 64; ++t) {
      if (got[t] == 0 || got[t] >= n)
        both = false;
      if (t == 0 || t == 32)
        counts += (t == 0 ? "producer lane 0: " : ", consumer lane 0: ") +
                  std::to_string(got[t]) + " of " + std::to_string(n) +
                  " tries succeeded";
    }
    std::printf("  %s: %s\n", v.kernel, counts.c_str());
    report.check(std::string(v.kernel) + " both outcomes", both,
                 "every lane must see a failed and a successful try: " +
                     counts);
  }
  return report.finish();
}
