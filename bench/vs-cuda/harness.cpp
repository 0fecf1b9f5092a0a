//===- harness.cpp - dialect vs hand-written CUDA benchmark ---------------===//
//
// Times the producer/consumer pipeline kernels of pipe_dialect.mlir (compiled
// by pipeline-compile) against their hand-written CUDA twins of pipe_cuda.cu
// (compiled by nvcc), in one process, on the project's runtime (pmrt).
//
// Variants (--variants, comma-separated; default dialect,cuda,cuda-unrolled):
//   dialect          pipe_s<S>
//   cuda             pipe_cuda_s<S>: item loops rolled, the structure of the
//                    dialect kernels
//   cuda-unrolled    pipe_cuda_unrolled_s<S>: nvcc's own unrolling
//   cuda-tuned       pipe_cuda_tuned_s<S>: rolled, barrier address and slot
//                    carried from stage to stage
//   dialect-nostore  pipe_nostore_s<S>  } diagnostics: no item stored, one
//   cuda-nostore     pipe_cuda_nostore_s<S> } XOR checksum per lane
// For each stage count S and variant: `--warmup`
// launches, then `--reps` timed launches, interleaved (rep r runs every S and
// every variant, the variant order rotated by r). Each launch is timed by
// CUDA events around cuLaunchKernelEx on the runtime's stream. Before every
// launch the outputs are poisoned; the first warm-up launch and the last
// timed launch of every (S, variant) are checked element by element (every
// item of every block, or for the nostore kernels every lane's checksum, and
// the in-kernel mismatch count of every lane). A wrong result fails the run
// (exit status 1). Ratios are to the variant's baseline: cuda, or
// cuda-nostore for the nostore kernels.
//
// Usage: bench-harness [--dialect PATH] [--cuda PATH] [--items N]
//                      [--blocks B] [--reps R] [--warmup W]
//                      [--variants NAME,NAME,...]
// Defaults: cubins next to the binary, N = 1000000, B = 2 x SMs, R = 15,
// W = 2.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr uint64_t kOutCapacity = 1ull << 30; // elements of the kernels' out
constexpr uint64_t kErrCapacity = 1ull << 20; // elements of errors
constexpr unsigned kThreads = 64;
const int kStages[] = {2, 4, 8};

std::string stringOption(int argc, char **argv, const char *name,
                         const std::string &fallback) {
  std::string flag = std::string("--") + name;
  for (int i = 1; i + 1 < argc; ++i)
    if (flag == argv[i])
      return argv[i + 1];
  return fallback;
}

enum class Output { Items, Checksums };

struct Variant {
  const char *name;
  bool dialect;       // module: the dialect's, else the CUDA one
  const char *prefix; // kernel name = prefix + S
  Output output;
  const char *baseline; // ratios are to this variant
};

const Variant kAllVariants[] = {
    {"dialect", true, "pipe_s", Output::Items, "cuda"},
    {"cuda", false, "pipe_cuda_s", Output::Items, "cuda"},
    {"cuda-unrolled", false, "pipe_cuda_unrolled_s", Output::Items, "cuda"},
    {"cuda-tuned", false, "pipe_cuda_tuned_s", Output::Items, "cuda"},
    {"dialect-nostore", true, "pipe_nostore_s", Output::Checksums,
     "cuda-nostore"},
    {"cuda-nostore", false, "pipe_cuda_nostore_s", Output::Checksums,
     "cuda-nostore"},
};

struct Series {
  std::vector<double> ms;
  double median() const {
    std::vector<double> v = ms;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  }
  double min() const { return *std::min_element(ms.begin(), ms.end()); }
  double max() const { return *std::max_element(ms.begin(), ms.end()); }
};

} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("bench-vs-cuda");
  const std::string dir = pmrt::selfDir();
  CUmodule dialect = pmrt::loadModule(
      stringOption(argc, argv, "dialect", dir + "/pipe_dialect.cubin"));
  CUmodule cuda = pmrt::loadModule(
      stringOption(argc, argv, "cuda", dir + "/pipe_cuda.cubin"));
  std::vector<Variant> variants;
  {
    std::string list =
        stringOption(argc, argv, "variants", "dialect,cuda,cuda-unrolled");
    size_t pos = 0;
    while (pos <= list.size()) {
      size_t comma = list.find(',', pos);
      std::string name = list.substr(
          pos, comma == std::string::npos ? std::string::npos : comma - pos);
      bool found = false;
      for (const Variant &v : kAllVariants)
        if (name == v.name) {
          variants.push_back(v);
          found = true;
        }
      if (!found) {
        std::printf("ERROR: unknown variant '%s'\n", name.c_str());
        return 2;
      }
      if (comma == std::string::npos)
        break;
      pos = comma + 1;
    }
  }
  const int kVariants = static_cast<int>(variants.size());
  constexpr int kStageCounts = sizeof(kStages) / sizeof(kStages[0]);

  const uint64_t blocks = static_cast<uint64_t>(
      pmrt::intOption(argc, argv, "blocks", 2 * pmrt::smCount()));
  const uint64_t items =
      static_cast<uint64_t>(pmrt::intOption(argc, argv, "items", 1000000));
  const int reps = static_cast<int>(pmrt::intOption(argc, argv, "reps", 15));
  const int warmup = static_cast<int>(pmrt::intOption(argc, argv, "warmup", 2));
  if (blocks == 0 || items == 0 || items > 0x7fffffffull || reps < 1 ||
      warmup < 1 || blocks * items > kOutCapacity ||
      blocks * 32 > kErrCapacity) {
    std::printf("ERROR: expects 1 <= blocks, 1 <= items < 2^31, "
                "blocks * items <= 2^30, blocks <= 32768, reps >= 1, "
                "warmup >= 1\n");
    return 2;
  }
  std::time_t now = std::time(nullptr);
  char stamp[64];
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S UTC",
                std::gmtime(&now));
  std::printf("run: %s; %llu blocks x 64 threads, %llu items per block, "
              "warm-up %d, %d timed reps per (S, variant), interleaved\n",
              stamp, (unsigned long long)blocks, (unsigned long long)items,
              warmup, reps);
  std::fflush(stdout);

  std::vector<std::vector<CUfunction>> fns(kStageCounts,
                                           std::vector<CUfunction>(kVariants));
  for (int si = 0; si < kStageCounts; ++si)
    for (int v = 0; v < kVariants; ++v) {
      std::string name =
          std::string(variants[v].prefix) + std::to_string(kStages[si]);
      fns[si][v] =
          pmrt::getKernel(variants[v].dialect ? dialect : cuda, name.c_str());
    }

  pmrt::DeviceBuffer out(blocks * items * 4);
  pmrt::DeviceBuffer errors(blocks * 32 * 4);
  pmrt::KernelArgs args;
  args.ptr(out.ptr()).ptr(errors.ptr()).i32(static_cast<int32_t>(items));

  // The expected items, the same for every S and variant.
  std::vector<uint32_t> want(blocks * items);
  for (uint64_t b = 0; b < blocks; ++b)
    for (uint64_t i = 0; i < items; ++i)
      want[b * items + i] =
          pmrt::mix32(static_cast<uint32_t>(i * 32)) ^ static_cast<uint32_t>(b);
  const std::vector<uint32_t> noErrors(blocks * 32, 0);
  // The nostore kernels' checksums: lane l of block b folds (by XOR) the
  // items mix32(i * 32 + l) ^ b of every i.
  std::vector<uint32_t> wantSums(blocks * 32);
  {
    uint32_t laneSum[32] = {0};
    for (uint64_t i = 0; i < items; ++i)
      for (uint32_t l = 0; l < 32; ++l)
        laneSum[l] ^= pmrt::mix32(static_cast<uint32_t>(i * 32 + l));
    for (uint64_t b = 0; b < blocks; ++b)
      for (uint32_t l = 0; l < 32; ++l)
        wantSums[b * 32 + l] =
            laneSum[l] ^ (items % 2 ? static_cast<uint32_t>(b) : 0u);
  }

  auto check = [&](const std::string &test, Output output) {
    std::string why;
    if (output == Output::Items) {
      std::vector<uint32_t> got = out.download<uint32_t>(blocks * items);
      report.check(test + ": every item", pmrt::compareU32(got, want, why),
                   why);
    } else {
      std::vector<uint32_t> got = out.download<uint32_t>(blocks * 32);
      report.check(test + ": every lane's checksum",
                   pmrt::compareU32(got, wantSums, why), why);
    }
    std::vector<uint32_t> err = errors.download<uint32_t>(blocks * 32);
    std::string whyErr;
    report.check(test + ": in-kernel checks of all lanes",
                 pmrt::compareU32(err, noErrors, whyErr),
                 "mismatch counts per lane: " + whyErr);
  };

  CUevent start, stop;
  PMRT_CHECK(cuEventCreate(&start, CU_EVENT_DEFAULT));
  PMRT_CHECK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
  auto runOnce = [&](int si, int v) {
    pmrt::LaunchConfig cfg;
    cfg.grid[0] = static_cast<unsigned>(blocks);
    cfg.block[0] = kThreads;
    cfg.dynamicSmem = kStages[si] * 32 * 4; // the ring; barriers are static
    std::string test =
        std::string(variants[v].name) + " S=" + std::to_string(kStages[si]);
    out.fill32(kPoison);
    errors.fill32(kPoison);
    PMRT_CHECK(cuEventRecord(start, pmrt::stream()));
    pmrt::launch(test.c_str(), fns[si][v], cfg, args);
    PMRT_CHECK(cuEventRecord(stop, pmrt::stream()));
    pmrt::waitWithWatchdog(test.c_str());
    PMRT_CHECK(cuEventSynchronize(stop));
    float ms = 0;
    PMRT_CHECK(cuEventElapsedTime(&ms, start, stop));
    return static_cast<double>(ms);
  };

  // Warm-up; the first launch of each (S, variant) is checked.
  for (int si = 0; si < kStageCounts; ++si)
    for (int v = 0; v < kVariants; ++v)
      for (int w = 0; w < warmup; ++w) {
        runOnce(si, v);
        if (w == 0)
          check(std::string(variants[v].name) +
                    " S=" + std::to_string(kStages[si]) + " first launch",
                variants[v].output);
      }

  std::vector<std::vector<Series>> series(kStageCounts,
                                          std::vector<Series>(kVariants));
  for (int r = 0; r < reps; ++r)
    for (int si = 0; si < kStageCounts; ++si)
      for (int k = 0; k < kVariants; ++k) {
        int v = (k + r) % kVariants;
        series[si][v].ms.push_back(runOnce(si, v));
        if (r == reps - 1)
          check(std::string(variants[v].name) +
                    " S=" + std::to_string(kStages[si]) + " last timed launch",
                variants[v].output);
      }

  std::printf("\nraw times (ms, in launch order per series):\n");
  for (int si = 0; si < kStageCounts; ++si)
    for (int v = 0; v < kVariants; ++v) {
      std::printf("  S=%d %-13s", kStages[si], variants[v].name);
      for (double t : series[si][v].ms)
        std::printf(" %.3f", t);
      std::printf("\n");
    }

  std::printf("\n| S | variant | median ms | min ms | max ms | ns/item "
              "(median) | baseline | median / baseline | min / baseline |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (int si = 0; si < kStageCounts; ++si) {
    for (int v = 0; v < kVariants; ++v) {
      const Series &s = series[si][v];
      int b = -1;
      for (int w = 0; w < kVariants; ++w)
        if (std::strcmp(variants[w].name, variants[v].baseline) == 0)
          b = w;
      std::printf("| %d | %s | %.3f | %.3f | %.3f | %.2f | ", kStages[si],
                  variants[v].name, s.median(), s.min(), s.max(),
                  s.median() * 1e6 / static_cast<double>(items));
      if (b < 0)
        std::printf("%s (not run) | - | - |\n", variants[v].baseline);
      else
        std::printf("%s | %.4f | %.4f |\n", variants[v].baseline,
                    s.median() / series[si][b].median(),
                    s.min() / series[si][b].min());
    }
  }
  std::printf("\n");
  PMRT_CHECK(cuEventDestroy(start));
  PMRT_CHECK(cuEventDestroy(stop));
  return report.finish();
}
