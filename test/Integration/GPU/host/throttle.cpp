//===- throttle.cpp - host side of kernel family 7 ------------------------===//
//
// The direct API (producer/consumer_signal_and_step) as a throttle: the
// producer never runs more than `stages` items ahead of the consumer, the
// consumer never overtakes the producer, and the throttle does engage.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {
constexpr unsigned kMaxItems = 4096;
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("throttle");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "throttle.cubin"));
  const unsigned n = 1000;
  const long long delay = pmrt::intOption(
      argc, argv, "delay", pmrt::underSanitizer() ? 400000 : 10000);
  pmrt::DeviceBuffer leadSeen(kMaxItems * 4);
  pmrt::DeviceBuffer prodSeen(kMaxItems * 4);

  for (int stages : {1, 4}) {
    std::string name = "throttle_s" + std::to_string(stages);
    CUfunction fn = pmrt::getKernel(module, name.c_str());
    leadSeen.fill32(0xDEADBEEFu);
    prodSeen.fill32(0xDEADBEEFu);
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 64;
    pmrt::KernelArgs args;
    args.ptr(leadSeen.ptr()).ptr(prodSeen.ptr()).i32(n).i64(delay);
    pmrt::launchAndWait(name.c_str(), fn, cfg, args);

    std::vector<int32_t> lead = leadSeen.download<int32_t>(n);
    std::vector<int32_t> prod = prodSeen.download<int32_t>(n);
    std::string why;
    int bad = 0, maxLead = -1000000;
    for (unsigned i = 0; i < n; ++i) {
      // Producer, after signal_and_step(i): the consumer finished at least
      // i - stages items and at most i + 1.
      bool leadOk = lead[i] <= stages && lead[i] >= -1;
      // Consumer, after signal_and_step(i): the producer started at least
      // i + 1 items and at most i + 1 + stages.
      bool prodOk = prod[i] >= static_cast<int32_t>(i) + 1 &&
                    prod[i] <= static_cast<int32_t>(i) + 1 + stages;
      if (!leadOk || !prodOk) {
        if (bad < 5)
          why += "item " + std::to_string(i) + ": lead " +
                 std::to_string(lead[i]) + ", producer started " +
                 std::to_string(prod[i]) + "; ";
        ++bad;
      }
      if (lead[i] > maxLead)
        maxLead = lead[i];
    }
    if (bad)
      why += std::to_string(bad) + " items out of bounds; ";
    std::printf("  %s: max producer lead %d (stages %d)\n", name.c_str(),
                maxLead, stages);
    report.check(name + " bounds", bad == 0, why);
    report.check(name + " throttle engaged", maxLead == stages,
                 "max lead " + std::to_string(maxLead) + ", want " +
                     std::to_string(stages));
  }
  return report.finish();
}
