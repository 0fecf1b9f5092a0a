//===- harness.cpp - handoff and streaming-copy benchmark -----------------===//
//
// One process, on the project's runtime (pmrt), times two things
// (docs/benchmarks.md, first section):
//
// Handoff: the one-item-per-stage producer/consumer rings of
// handoff_dialect.mlir (pipeline-compile, default options) against the
// hand-written and libcu++ rings of handoff_cuda.cu (nvcc). Matrix: stages
// 1, 2, 3, 4, 8 x signalling by lane 0 (counts 1) or by every lane (counts
// 32) x one CTA or one CTA per SM (all SMs busy), 64 threads per CTA,
// --items items per CTA. Variants (kernel <prefix>s<S>_<mode>):
//   dialect  ring_   handoff_dialect.cubin
//   hand     hand_   handoff_cuda.cubin  CUTLASS barrier.h style, unrolled by S
//   handx    handx_  handoff_cuda.cubin  the same, addresses kept in registers
//   rolled   rolled_ handoff_cuda.cubin  CUTLASS PipelineState, one item per
//                                         iteration
//   cubar    cubar_  handoff_cuda.cubin  libcu++ cuda::barrier
//   cupipe   cupipe_ handoff_cuda.cubin  libcu++ cuda::pipeline (mode all)
// and other expert forms of handx (handoff_cuda.cu says how each waits):
//   nohint   nohint_  no suspend-time hint
//   spin     spin_    test_wait.parity spin
//   pred     pred_    phase in a predicate, one round per iteration
//   ahead    ahead_   two waits in flight (S >= 2)
//   aheadst  aheadst_ ahead, the consumer's global store deferred (S >= 2)
// plus `--extra LABEL=FILE` (repeatable): more builds of handoff_dialect.mlir
// (same kernel names), timed on one CTA only.
//
// Copy: copy_dialect.mlir's TMA tile-pipeline copies (tile R x C i32, S
// stages) against copy_cuda.cu's hand-written TMA ring (same shapes),
// copy_cuda.cu's vectorized copy and cuMemcpyDtoD, over a --copy-mib MiB
// i32 matrix of 8192 columns; persistent grid of one CTA per SM for the
// TMA kernels. TB/s counts bytes read plus bytes written; the fraction is of
// the HBM peak 2 x memory clock x bus width / 8 read from the driver.
//
// Timing: --warmup untimed launches, then --reps timed launches per cell and
// variant, interleaved (each repetition runs every cell and every variant,
// the variant order rotated by the repetition), each timed by CUDA events
// around the launch on the runtime's stream; median, min and max. Outputs
// are poisoned before every launch. Checks, element by element against the
// host's expected values: every launch of the one-CTA handoff cells; the
// first warm-up and the last timed launch of the all-SM handoff cells and
// of every copy variant. A wrong result fails the run (exit status 1).
//
// Table: the dialect's median over the best hand-written inline-PTX median
// (hand, handx and the other forms of handx), and which one that was.
//
// Usage: handoff-bench [--dir DIR] [--items N] [--reps R] [--warmup W]
//                      [--parts handoff,copy] [--copy-mib M]
//                      [--variants NAME,...] [--extra LABEL=FILE ...]
//                      [--stages 1,2,..] [--modes lane0,all] [--grids 1,all]
//                      [--csv FILE]
// Defaults: DIR = the binary's folder, N = 2^20, R = 11, W = 1, M = 1024.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr uint64_t kOutCapacity = 1ull << 28; // elements of the rings' out
constexpr unsigned kThreads = 64;
const int kStages[] = {1, 2, 3, 4, 8};
const char *const kModes[] = {"lane0", "all"};

std::string stringOption(int argc, char **argv, const char *name,
                         const std::string &fallback) {
  std::string flag = std::string("--") + name;
  for (int i = 1; i + 1 < argc; ++i)
    if (flag == argv[i])
      return argv[i + 1];
  return fallback;
}

std::vector<std::string> allOptions(int argc, char **argv, const char *name) {
  std::vector<std::string> values;
  std::string flag = std::string("--") + name;
  for (int i = 1; i + 1 < argc; ++i)
    if (flag == argv[i])
      values.push_back(argv[i + 1]);
  return values;
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(',', start);
    if (end == std::string::npos)
      end = s.size();
    if (end > start)
      out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

bool contains(const std::vector<std::string> &v, const std::string &x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty())
    return s;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  s.min = v.front();
  s.max = v.back();
  return s;
}

/// Page-locked host memory (fast downloads for the checks).
class PinnedWords {
public:
  explicit PinnedWords(uint64_t count) {
    void *p = nullptr;
    PMRT_CHECK(cuMemAllocHost(&p, count * sizeof(uint32_t)));
    data_ = static_cast<uint32_t *>(p);
  }
  ~PinnedWords() { cuMemFreeHost(data_); }
  PinnedWords(const PinnedWords &) = delete;
  PinnedWords &operator=(const PinnedWords &) = delete;
  uint32_t *data() { return data_; }
  uint32_t &operator[](uint64_t i) { return data_[i]; }

private:
  uint32_t *data_ = nullptr;
};

/// Events around one launch on the runtime's stream.
class Timer {
public:
  Timer() {
    PMRT_CHECK(cuEventCreate(&start_, CU_EVENT_DEFAULT));
    PMRT_CHECK(cuEventCreate(&stop_, CU_EVENT_DEFAULT));
  }
  void begin() { PMRT_CHECK(cuEventRecord(start_, pmrt::stream())); }
  void end() { PMRT_CHECK(cuEventRecord(stop_, pmrt::stream())); }
  double ms() {
    float ms = 0;
    PMRT_CHECK(cuEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

private:
  CUevent start_, stop_;
};

//===----------------------------------------------------------------------===//
// Handoff
//===----------------------------------------------------------------------===//

struct RingVariant {
  std::string label;
  CUmodule module;
  std::string prefix;
  bool allOnly = false;    // cupipe: no lane0 kernels
  bool oneCtaOnly = false; // --extra builds
  int minStages = 1;       // ahead, aheadst: S >= 2
};

/// The hand-written inline-PTX rings, the candidates for "best hand".
bool isHandWritten(const std::string &label) {
  static const char *const kHand[] = {"hand", "handx", "nohint", "spin",
                                      "pred", "ahead", "aheadst"};
  for (const char *h : kHand)
    if (label == h)
      return true;
  return false;
}

struct Cell {
  int stages;
  int mode; // 0 lane0, 1 all
  unsigned grid;
};

struct RingRun {
  std::vector<double> ms;
  int checks = 0;
  bool ok = true;
};

int runHandoff(int argc, char **argv, const std::string &dir, std::FILE *csv) {
  const long long n = pmrt::intOption(argc, argv, "items", 1 << 20);
  const int reps = static_cast<int>(pmrt::intOption(argc, argv, "reps", 11));
  const int warmup = static_cast<int>(pmrt::intOption(argc, argv, "warmup", 1));
  const unsigned sms = static_cast<unsigned>(pmrt::smCount());
  if (n < 1 || uint64_t(n) * sms > kOutCapacity) {
    std::fprintf(stderr, "handoff: --items must be in [1, %llu]\n",
                 (unsigned long long)(kOutCapacity / sms));
    return 2;
  }
  std::vector<std::string> names = split(
      stringOption(argc, argv, "variants",
                   "dialect,hand,handx,nohint,spin,pred,ahead,aheadst,rolled,"
                   "cubar,cupipe"));
  CUmodule dialect = pmrt::loadModule(dir + "/handoff_dialect.cubin");
  CUmodule cuda = pmrt::loadModule(dir + "/handoff_cuda.cubin");
  std::vector<RingVariant> variants;
  for (const std::string &name : names) {
    if (name == "dialect")
      variants.push_back({name, dialect, "ring_"});
    else if (name == "cupipe")
      variants.push_back({name, cuda, "cupipe_", true});
    else if (name == "rolled")
      variants.push_back({name, cuda, "rolled_", false, true});
    else if (name == "ahead" || name == "aheadst")
      variants.push_back({name, cuda, name + "_", false, false, 2});
    else if (isHandWritten(name) || name == "cubar")
      variants.push_back({name, cuda, name + "_"});
    else {
      std::fprintf(stderr, "handoff: unknown variant '%s'\n", name.c_str());
      return 2;
    }
  }
  for (const std::string &extra : allOptions(argc, argv, "extra")) {
    size_t eq = extra.find('=');
    std::string label = extra.substr(0, eq);
    std::string file = extra.substr(eq + 1);
    if (file.empty() || file[0] != '/')
      file = dir + "/" + file;
    variants.push_back({label, pmrt::loadModule(file), "ring_", false, true});
  }

  // Optional filters (e.g. for a profiler run): --stages 4 --modes lane0
  // --grids 1.
  std::vector<std::string> onlyStages =
      split(stringOption(argc, argv, "stages", ""));
  std::vector<std::string> onlyModes =
      split(stringOption(argc, argv, "modes", ""));
  std::vector<std::string> onlyGrids =
      split(stringOption(argc, argv, "grids", ""));
  std::vector<Cell> cells;
  for (unsigned grid : {1u, sms})
    for (int mode = 0; mode < 2; ++mode)
      for (int s : kStages) {
        if (!onlyStages.empty() && !contains(onlyStages, std::to_string(s)))
          continue;
        if (!onlyModes.empty() && !contains(onlyModes, kModes[mode]))
          continue;
        if (!onlyGrids.empty() && !contains(onlyGrids, grid == 1 ? "1" : "all"))
          continue;
        cells.push_back({s, mode, grid});
      }

  // Expected items: mix32(b * n + i), the same for every cell.
  const uint64_t maxItems = uint64_t(n) * sms;
  std::vector<uint32_t> expected(maxItems);
  for (uint64_t k = 0; k < maxItems; ++k)
    expected[k] = pmrt::mix32(static_cast<uint32_t>(k));
  pmrt::DeviceBuffer out(maxItems * sizeof(uint32_t));
  PinnedWords host(maxItems);

  auto kernelName = [&](const RingVariant &v, const Cell &c) {
    return v.prefix + "s" + std::to_string(c.stages) + "_" + kModes[c.mode];
  };
  auto applies = [&](const RingVariant &v, const Cell &c) {
    return !(v.allOnly && c.mode == 0) && !(v.oneCtaOnly && c.grid != 1) &&
           c.stages >= v.minStages;
  };
  // results[cell][variant]
  std::vector<std::vector<RingRun>> results(
      cells.size(), std::vector<RingRun>(variants.size()));
  std::map<std::string, CUfunction> functions;
  auto function = [&](const RingVariant &v, const Cell &c) {
    std::string key = v.label + "/" + kernelName(v, c);
    auto it = functions.find(key);
    if (it != functions.end())
      return it->second;
    CUfunction fn = pmrt::getKernel(v.module, kernelName(v, c).c_str());
    functions[key] = fn;
    return fn;
  };

  Timer timer;
  int failures = 0;
  std::printf("handoff: %lld items per CTA, %d warm-up + %d timed launches "
              "per cell and variant, %zu cells, %zu variants, %u SMs\n",
              n, warmup, reps, cells.size(), variants.size(), sms);
  std::fflush(stdout);
  for (int rep = -warmup; rep < reps; ++rep) {
    for (size_t ci = 0; ci < cells.size(); ++ci) {
      const Cell &c = cells[ci];
      for (size_t k = 0; k < variants.size(); ++k) {
        size_t vi = (k + size_t(rep + warmup)) % variants.size();
        const RingVariant &v = variants[vi];
        if (!applies(v, c))
          continue;
        RingRun &run = results[ci][vi];
        std::string test = v.label + " " + kernelName(v, c) + " grid " +
                           std::to_string(c.grid);
        const uint64_t items = uint64_t(n) * c.grid;
        PMRT_CHECK(cuMemsetD32Async(out.ptr(), kPoison, items, pmrt::stream()));
        pmrt::LaunchConfig cfg;
        cfg.grid[0] = c.grid;
        cfg.block[0] = kThreads;
        pmrt::KernelArgs args;
        args.ptr(out.ptr()).i32(static_cast<int32_t>(n));
        CUfunction fn = function(v, c);
        timer.begin();
        pmrt::launch(test.c_str(), fn, cfg, args);
        timer.end();
        pmrt::waitWithWatchdog(test.c_str());
        PMRT_CHECK(cuCtxSynchronize());
        if (rep >= 0) {
          run.ms.push_back(timer.ms());
          std::printf("t %s %d %s %u %.4f\n", v.label.c_str(), c.stages,
                      kModes[c.mode], c.grid, run.ms.back());
        }
        bool check = c.grid == 1 || rep == -warmup || rep == reps - 1;
        if (!check)
          continue;
        out.download(host.data(), items * sizeof(uint32_t));
        ++run.checks;
        if (std::memcmp(host.data(), expected.data(),
                        items * sizeof(uint32_t)) != 0) {
          uint64_t bad = 0;
          while (host[bad] == expected[bad])
            ++bad;
          std::printf("FAIL: %s: item %llu (CTA %llu) is 0x%08x, want "
                      "0x%08x\n",
                      test.c_str(), (unsigned long long)bad,
                      (unsigned long long)(bad / n), host[bad], expected[bad]);
          run.ok = false;
          ++failures;
        }
      }
    }
    std::printf("handoff: repetition %d done\n", rep);
    std::fflush(stdout);
  }

  // Raw times, then the table: ns per item (median, min, max), and the
  // dialect's median over the best hand-written median (isHandWritten).
  for (size_t ci = 0; ci < cells.size(); ++ci)
    for (size_t vi = 0; vi < variants.size(); ++vi) {
      const RingRun &run = results[ci][vi];
      if (run.ms.empty())
        continue;
      const Cell &c = cells[ci];
      Stats s = stats(run.ms);
      double toNs = 1e6 / double(n);
      std::printf("raw handoff %s S=%d %s grid=%u checks=%d %s ms:",
                  variants[vi].label.c_str(), c.stages, kModes[c.mode], c.grid,
                  run.checks, run.ok ? "ok" : "WRONG");
      for (double ms : run.ms)
        std::printf(" %.3f", ms);
      std::printf("\n");
      if (csv)
        std::fprintf(csv, "handoff,%s,%d,%s,%u,%.4f,%.4f,%.4f,%d,%s\n",
                     variants[vi].label.c_str(), c.stages, kModes[c.mode],
                     c.grid, s.median * toNs, s.min * toNs, s.max * toNs,
                     run.checks, run.ok ? "ok" : "wrong");
    }

  std::printf("\n## Handoff: ns per item, median [min-max] of %d launches, "
              "%lld items per CTA\n\n",
              reps, n);
  std::printf("| CTAs | signal | S |");
  for (const RingVariant &v : variants)
    std::printf(" %s |", v.label.c_str());
  std::printf(" best hand | dialect / best hand |\n|---|---|---|");
  for (size_t i = 0; i <= variants.size() + 1; ++i)
    std::printf("---|");
  std::printf("\n");
  for (size_t ci = 0; ci < cells.size(); ++ci) {
    const Cell &c = cells[ci];
    std::printf("| %s | %s | %d |", c.grid == 1 ? "1" : "all SMs",
                kModes[c.mode], c.stages);
    double dialectNs = 0, bestHand = 0;
    std::string bestLabel = "-";
    for (size_t vi = 0; vi < variants.size(); ++vi) {
      const RingRun &run = results[ci][vi];
      if (run.ms.empty()) {
        std::printf(" - |");
        continue;
      }
      Stats s = stats(run.ms);
      double toNs = 1e6 / double(n);
      std::printf(" %.2f [%.2f-%.2f]%s |", s.median * toNs, s.min * toNs,
                  s.max * toNs, run.ok ? "" : " WRONG");
      const std::string &label = variants[vi].label;
      if (label == "dialect")
        dialectNs = s.median * toNs;
      if (isHandWritten(label) &&
          (bestHand == 0 || s.median * toNs < bestHand)) {
        bestHand = s.median * toNs;
        bestLabel = label;
      }
    }
    std::printf(" %s |", bestLabel.c_str());
    if (dialectNs > 0 && bestHand > 0)
      std::printf(" %.3f |\n", dialectNs / bestHand);
    else
      std::printf(" - |\n");
  }
  std::fflush(stdout);
  return failures;
}

//===----------------------------------------------------------------------===//
// Copy
//===----------------------------------------------------------------------===//

struct TileConfig {
  unsigned rows, cols, stages;
};
const TileConfig kTiles[] = {{32, 128, 4}, {32, 128, 8}, {32, 256, 2},
                             {32, 256, 4}, {32, 256, 6}, {64, 256, 2},
                             {64, 256, 3}};
constexpr uint64_t kCopyCols = 8192;

struct CopyVariant {
  std::string label;
  enum Kind { Dialect, HandTma, Vec, Memcpy } kind;
  TileConfig tile{0, 0, 0};
  CUfunction fn = nullptr;
  std::vector<double> ms;
  int checks = 0;
  bool ok = true;
};

int runCopy(int argc, char **argv, const std::string &dir, std::FILE *csv) {
  const long long mib = pmrt::intOption(argc, argv, "copy-mib", 1024);
  const int reps = static_cast<int>(pmrt::intOption(argc, argv, "reps", 11));
  const int warmup = static_cast<int>(pmrt::intOption(argc, argv, "warmup", 1));
  const uint64_t bytes = uint64_t(mib) << 20;
  const uint64_t words = bytes / 4;
  const uint64_t rows = words / kCopyCols;
  if (rows == 0 || rows % 64 != 0) {
    std::fprintf(stderr, "copy: --copy-mib must be a multiple of 2\n");
    return 2;
  }
  const unsigned sms = static_cast<unsigned>(pmrt::smCount());

  int clockKHz = 0, busBits = 0;
  CUdevice device;
  PMRT_CHECK(cuCtxGetDevice(&device));
  PMRT_CHECK(cuDeviceGetAttribute(
      &clockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, device));
  PMRT_CHECK(cuDeviceGetAttribute(
      &busBits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, device));
  const double peakTBs = 2.0 * clockKHz * 1e3 * busBits / 8.0 / 1e12;
  std::printf("copy: %llu MiB (%llu x %llu i32), HBM: memory clock %d kHz, "
              "bus %d bits, peak %.3f TB/s (2 x clock x width / 8)\n",
              (unsigned long long)mib, (unsigned long long)rows,
              (unsigned long long)kCopyCols, clockKHz, busBits, peakTBs);

  std::vector<uint32_t> source(words);
  for (uint64_t k = 0; k < words; ++k)
    source[k] = pmrt::mix32(static_cast<uint32_t>(k) ^ 0x5A5A1234u);
  pmrt::DeviceBuffer src(bytes), dst(bytes);
  src.upload(source);
  PinnedWords host(words);

  CUmodule dialect = pmrt::loadModule(dir + "/copy_dialect.cubin");
  CUmodule cuda = pmrt::loadModule(dir + "/copy_cuda.cubin");
  std::vector<CopyVariant> variants;
  std::map<std::pair<unsigned, unsigned>, std::unique_ptr<pmrt::TensorMap2D>>
      srcMaps, dstMaps;
  for (const TileConfig &t : kTiles) {
    std::string shape = "r" + std::to_string(t.rows) + "_c" +
                        std::to_string(t.cols) + "_s" +
                        std::to_string(t.stages);
    CopyVariant d{"dialect " + shape, CopyVariant::Dialect, t};
    d.fn = pmrt::getKernel(dialect, ("copy_" + shape).c_str());
    CopyVariant h{"hand " + shape, CopyVariant::HandTma, t};
    h.fn = pmrt::getKernel(cuda, ("tma_" + shape).c_str());
    variants.push_back(std::move(d));
    variants.push_back(std::move(h));
    auto key = std::make_pair(t.rows, t.cols);
    if (!srcMaps.count(key)) {
      srcMaps[key] = std::make_unique<pmrt::TensorMap2D>(
          src.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, rows, kCopyCols, t.rows,
          t.cols);
      dstMaps[key] = std::make_unique<pmrt::TensorMap2D>(
          dst.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, rows, kCopyCols, t.rows,
          t.cols);
    }
  }
  {
    CopyVariant v{"vec_copy", CopyVariant::Vec};
    v.fn = pmrt::getKernel(cuda, "vec_copy");
    variants.push_back(std::move(v));
    variants.push_back({"cuMemcpyDtoD", CopyVariant::Memcpy});
  }

  Timer timer;
  int failures = 0;
  for (int rep = -warmup; rep < reps; ++rep) {
    for (size_t k = 0; k < variants.size(); ++k) {
      CopyVariant &v = variants[(k + size_t(rep + warmup)) % variants.size()];
      std::string test = "copy " + v.label;
      PMRT_CHECK(cuMemsetD32Async(dst.ptr(), kPoison, words, pmrt::stream()));
      pmrt::LaunchConfig cfg;
      pmrt::KernelArgs args;
      if (v.kind == CopyVariant::Dialect || v.kind == CopyVariant::HandTma) {
        const TileConfig &t = v.tile;
        auto key = std::make_pair(t.rows, t.cols);
        cfg.grid[0] = sms;
        cfg.block[0] = kThreads;
        cfg.dynamicSmem = t.rows * t.cols * 4 * t.stages;
        uint64_t perRow = kCopyCols / t.cols;
        uint64_t tiles = rows / t.rows * perRow;
        args.ptr(srcMaps[key]->devicePtr())
            .ptr(dstMaps[key]->devicePtr())
            .i32(static_cast<int32_t>(tiles))
            .i32(static_cast<int32_t>(perRow));
      } else if (v.kind == CopyVariant::Vec) {
        cfg.grid[0] = sms * 8;
        cfg.block[0] = 256;
        args.ptr(src.ptr()).ptr(dst.ptr()).i64(
            static_cast<int64_t>(bytes / 16));
      }
      timer.begin();
      if (v.kind == CopyVariant::Memcpy)
        PMRT_CHECK(
            cuMemcpyDtoDAsync(dst.ptr(), src.ptr(), bytes, pmrt::stream()));
      else
        pmrt::launch(test.c_str(), v.fn, cfg, args);
      timer.end();
      pmrt::waitWithWatchdog(test.c_str());
      PMRT_CHECK(cuCtxSynchronize());
      if (rep >= 0)
        v.ms.push_back(timer.ms());
      if (rep != -warmup && rep != reps - 1)
        continue;
      dst.download(host.data(), bytes);
      ++v.checks;
      if (std::memcmp(host.data(), source.data(), bytes) != 0) {
        uint64_t bad = 0;
        while (host[bad] == source[bad])
          ++bad;
        std::printf("FAIL: %s: word %llu (row %llu, column %llu) is 0x%08x, "
                    "want 0x%08x\n",
                    test.c_str(), (unsigned long long)bad,
                    (unsigned long long)(bad / kCopyCols),
                    (unsigned long long)(bad % kCopyCols), host[bad],
                    source[bad]);
        v.ok = false;
        ++failures;
      }
    }
  }

  double best = 0;
  for (const CopyVariant &v : variants)
    if (v.kind != CopyVariant::Dialect && !v.ms.empty()) {
      double tbs = 2.0 * bytes / (stats(v.ms).median * 1e-3) / 1e12;
      best = std::max(best, tbs);
    }
  std::printf("\n## Copy: %llu MiB read + %llu MiB written, TB/s (median "
              "[min-max] of %d), fraction of HBM peak %.3f TB/s\n\n",
              (unsigned long long)mib, (unsigned long long)mib, reps, peakTBs);
  std::printf("| variant | tile bytes | median ms | TB/s median [min-max] | "
              "of peak | of best non-dialect |\n|---|---|---|---|---|---|\n");
  for (const CopyVariant &v : variants) {
    Stats s = stats(v.ms);
    double tbs = 2.0 * bytes / (s.median * 1e-3) / 1e12;
    double lo = 2.0 * bytes / (s.max * 1e-3) / 1e12;
    double hi = 2.0 * bytes / (s.min * 1e-3) / 1e12;
    unsigned tileBytes = v.tile.rows * v.tile.cols * 4;
    std::printf("| %s%s | %s | %.4f | %.3f [%.3f-%.3f] | %.3f | %.3f |\n",
                v.label.c_str(), v.ok ? "" : " WRONG",
                tileBytes ? std::to_string(tileBytes).c_str() : "-", s.median,
                tbs, lo, hi, tbs / peakTBs, tbs / best);
    std::printf("raw copy %s checks=%d ms:", v.label.c_str(), v.checks);
    for (double ms : v.ms)
      std::printf(" %.4f", ms);
    std::printf("\n");
    if (csv)
      std::fprintf(csv, "copy,%s,%u,%.5f,%.4f,%.4f,%.4f,%.4f,%d,%s\n",
                   v.label.c_str(), tileBytes, s.median, tbs, lo, hi,
                   tbs / peakTBs, v.checks, v.ok ? "ok" : "wrong");
  }
  std::fflush(stdout);
  return failures;
}

} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  std::string dir = stringOption(argc, argv, "dir", pmrt::selfDir());
  std::vector<std::string> parts =
      split(stringOption(argc, argv, "parts", "handoff,copy"));
  std::string csvPath = stringOption(argc, argv, "csv", "");
  std::FILE *csv = csvPath.empty() ? nullptr : std::fopen(csvPath.c_str(), "w");
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  std::printf("handoff-bench: %s, %s, %d SMs\n", date,
              pmrt::deviceName().c_str(), pmrt::smCount());
  int failures = 0;
  if (contains(parts, "handoff"))
    failures += runHandoff(argc, argv, dir, csv);
  if (contains(parts, "copy"))
    failures += runCopy(argc, argv, dir, csv);
  if (csv)
    std::fclose(csv);
  std::printf("\nhandoff-bench: %s\n",
              failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
