//===- gemm_bench.cpp - checks and benchmark of the dialect's bf16 GEMM ---===//
//
// One process, on the project's runtime (pmrt):
//
//  check  The dialect kernel (examples/gemm_sm90.mlir, pipeline-compile)
//         against a plain CUDA-core reference GEMM of its own (gemm_ref.cu,
//         f32 output) on fresh random bf16 inputs, with the output poisoned
//         (bf16 NaN) before each launch so that an unwritten element fails:
//         128x128x64, 1000x1000x1000 (persistent and non-persistent
//         launches), 4096^3 and edge shapes; shapes the kernel cannot run
//         (K or N not a multiple of 8, a zero dimension) must be refused by
//         the host API with a message.
//  bench  The kernel against cuBLASLt (libcublasLt, opened at run time:
//         --cublaslt PATH or $CUBLASLT_PATH, else the loader's search),
//         same stream, same cuEvent timer, interleaved: each repetition runs
//         one batch of every variant and of cuBLAS, the order alternating;
//         a batch is L back-to-back launches over rotating input sets (the
//         sets together are more than twice the L2, so no launch finds its
//         inputs in L2 from the previous one). Per-launch time = batch time
//         / L. Reports TFLOP/s median, min and max over the repetitions
//         and the ratio of medians to cuBLAS. Afterwards every variant's
//         output is compared with cuBLAS's.
//
// Usage: gemm-bench [--mode check|bench|all]
//                   [--kernel LABEL:CUBIN:BN:SMEM[:CLUSTER[:GRID]]]...
//                   [--ref gemm_ref.cubin] [--reps 20] [--warmup 3]
//                   [--batch-ms 10] [--group-m 8] [--sizes MxNxK,...]
//                   [--csv FILE] [--cublaslt PATH]
// Default kernel: dialect:<dir>/gemm_sm90.cubin:256:214016 (the shipped
// kernel: BN 256, 3 stages). CLUSTER: 1 (default) or 2 (a --cluster 2
// kernel); GRID: persistent (default), tiles (one tile per CTA) or a number
// of CTAs (bench only; the checks run persistent and one-tile launches).
// Exit status: 0 when every check passed, 1 when one failed, 2 on a driver
// or cuBLAS error, 3 on a hang.
//
//===----------------------------------------------------------------------===//

#include "gemm_sm90_host.h"
#include "pipeline-runtime/pmrt.h"

#include <cublasLt.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

// ------------------------------------------------------------------ options
std::vector<std::string> allOptions(int argc, char **argv, const char *name) {
  std::vector<std::string> out;
  std::string flag = std::string("--") + name;
  for (int i = 1; i + 1 < argc; ++i)
    if (flag == argv[i])
      out.push_back(argv[i + 1]);
  return out;
}
std::string option(int argc, char **argv, const char *name,
                   const std::string &fallback) {
  auto all = allOptions(argc, argv, name);
  return all.empty() ? fallback : all.back();
}
std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t end = s.find(sep, start);
    out.push_back(s.substr(start, end - start));
    if (end == std::string::npos)
      return out;
    start = end + 1;
  }
}

// ------------------------------------------------------------------ helpers
struct Helpers {
  CUfunction ref, fillRandom, fillU16;
};
Helpers helpers;

void fillRandom(CUdeviceptr p, size_t n, uint32_t seed) {
  pmrt::LaunchConfig lc;
  lc.grid[0] = 4 * pmrt::smCount();
  lc.block[0] = 256;
  pmrt::KernelArgs args;
  args.ptr(p).i64(static_cast<int64_t>(n)).i32(static_cast<int32_t>(seed));
  pmrt::launch("fill_bf16_random", helpers.fillRandom, lc, args);
}

void fillU16(CUdeviceptr p, size_t n, uint16_t v) {
  pmrt::LaunchConfig lc;
  lc.grid[0] = 4 * pmrt::smCount();
  lc.block[0] = 256;
  pmrt::KernelArgs args;
  args.ptr(p).i64(static_cast<int64_t>(n)).i32(v);
  pmrt::launch("fill_u16", helpers.fillU16, lc, args);
}

void refGemm(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c, gemm::Shape s) {
  pmrt::LaunchConfig lc;
  lc.grid[0] = static_cast<unsigned>((s.n + 31) / 32);
  lc.grid[1] = static_cast<unsigned>((s.m + 31) / 32);
  lc.block[0] = 32;
  lc.block[1] = 8;
  pmrt::KernelArgs args;
  args.ptr(a)
      .ptr(b)
      .ptr(c)
      .i32(static_cast<int32_t>(s.m))
      .i32(static_cast<int32_t>(s.n))
      .i32(static_cast<int32_t>(s.k));
  pmrt::launch("ref_gemm", helpers.ref, lc, args);
}

float bf16ToFloat(uint16_t h) {
  uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint32_t seedCounter = 0x12345u;
uint32_t nextSeed() {
  seedCounter = pmrt::mix32(seedCounter + 0x9E3779B9u);
  return seedCounter;
}

// Compares a bf16 result with an f32 (or bf16) reference. Every element must
// be finite (the poison is NaN) and within |c - r| <= 2^-7 |r| + 2e-4 sqrt(K)
// (bf16 rounding of the output is at most 2^-8 |r|; the rest is f32
// accumulation order); the relative Frobenius error must be below 5e-3.
struct Comparison {
  bool ok = true;
  double relFrobenius = 0;
  double worstRatio = 0; // max |c - r| / tolerance
  size_t bad = 0, nonFinite = 0;
  std::string why;
};

template <typename RefT>
Comparison compare(const std::vector<uint16_t> &got,
                   const std::vector<RefT> &ref, gemm::Shape s,
                   double relTol = 1.0 / 128, double frobTol = 5e-3) {
  Comparison cmp;
  double num = 0, den = 0;
  const double absTol = 2e-4 * std::sqrt(static_cast<double>(s.k));
  for (size_t i = 0; i < got.size(); ++i) {
    double c = bf16ToFloat(got[i]);
    double r;
    if constexpr (std::is_same_v<RefT, float>)
      r = ref[i];
    else
      r = bf16ToFloat(ref[i]);
    if (!std::isfinite(c)) {
      if (cmp.nonFinite++ < 3) {
        char line[160];
        std::snprintf(
            line, sizeof(line), "C[%lld][%lld] not finite (unwritten?); ",
            static_cast<long long>(i / s.n), static_cast<long long>(i % s.n));
        cmp.why += line;
      }
      continue;
    }
    double d = std::fabs(c - r);
    double tol = relTol * std::fabs(r) + absTol;
    cmp.worstRatio = std::max(cmp.worstRatio, d / tol);
    if (d > tol && cmp.bad++ < 3) {
      char line[160];
      std::snprintf(line, sizeof(line), "C[%lld][%lld] = %g, want %g; ",
                    static_cast<long long>(i / s.n),
                    static_cast<long long>(i % s.n), c, r);
      cmp.why += line;
    }
    num += d * d;
    den += r * r;
  }
  cmp.relFrobenius = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  if (cmp.nonFinite || cmp.bad || cmp.relFrobenius > frobTol)
    cmp.ok = false;
  if (cmp.nonFinite)
    cmp.why += std::to_string(cmp.nonFinite) + " non-finite; ";
  if (cmp.bad)
    cmp.why += std::to_string(cmp.bad) + " of " + std::to_string(got.size()) +
               " beyond tolerance; ";
  if (cmp.relFrobenius > frobTol)
    cmp.why += "relative Frobenius error " + std::to_string(cmp.relFrobenius);
  return cmp;
}

// ------------------------------------------------------------------ variants
struct Variant {
  std::string label;
  gemm::KernelConfig cfg;
  CUfunction fn = nullptr;
  bool oneTilePerCta = false; ///< bench: grid = tiles instead of persistent
  unsigned grid = 0;          ///< bench: a fixed persistent grid (0: default)
};

std::vector<Variant> loadVariants(int argc, char **argv) {
  std::vector<std::string> specs = allOptions(argc, argv, "kernel");
  if (specs.empty())
    specs.push_back("dialect:" + pmrt::selfDir() +
                    "/gemm_sm90.cubin:256:214016");
  std::vector<Variant> out;
  for (const std::string &spec : specs) {
    auto parts = split(spec, ':');
    if (parts.size() < 4 || parts.size() > 6) {
      std::printf("ERROR: --kernel wants LABEL:CUBIN:BN:SMEM[:CLUSTER[:GRID]], "
                  "got '%s'\n",
                  spec.c_str());
      std::exit(2);
    }
    Variant v;
    v.label = parts[0];
    v.cfg.bn = static_cast<unsigned>(std::stoul(parts[2]));
    v.cfg.smemBytes = static_cast<unsigned>(std::stoul(parts[3]));
    if (parts.size() > 4)
      v.cfg.cluster = static_cast<unsigned>(std::stoul(parts[4]));
    if (parts.size() > 5) {
      if (parts[5] == "tiles")
        v.oneTilePerCta = true;
      else if (parts[5] != "persistent")
        v.grid = static_cast<unsigned>(std::stoul(parts[5]));
    }
    CUmodule mod = pmrt::loadModule(parts[1]);
    v.fn = pmrt::getKernel(mod, "gemm_bf16_sm90");
    out.push_back(v);
  }
  return out;
}

// ------------------------------------------------------------------ checks
void runChecks(pmrt::Report &report, const Variant &v) {
  struct Case {
    gemm::Shape s;
    bool persistent;
    int groupM;
  };
  const Case cases[] = {
      {{128, 128, 64}, true, 8},      {{1000, 1000, 1000}, true, 8},
      {{1000, 1000, 1000}, false, 8}, {{4096, 4096, 4096}, true, 8},
      {{1, 8, 8}, true, 8},           {{129, 264, 72}, true, 3},
      {{300, 1000, 8}, true, 1},      {{256, 512, 8192}, false, 8},
      {{2048, 4096, 1024}, true, 16},
  };
  for (const Case &c : cases) {
    gemm::Shape s = c.s;
    // Under a sanitizer (run-all.sh sets PMRT_SANITIZER) only the small
    // shapes: the tools slow every access down by orders of magnitude.
    if (pmrt::underSanitizer() && s.m * s.n * s.k > 300ll * 1000 * 1000)
      continue;
    char name[160];
    std::snprintf(name, sizeof(name), "%s %lldx%lldx%lld %s group_m=%d",
                  v.label.c_str(), (long long)s.m, (long long)s.n,
                  (long long)s.k,
                  c.persistent ? "persistent" : "one-tile-per-CTA", c.groupM);
    pmrt::DeviceBuffer a(s.m * s.k * 2), b(s.n * s.k * 2), cbuf(s.m * s.n * 2),
        ref(s.m * s.n * 4);
    fillRandom(a.ptr(), s.m * s.k, nextSeed());
    fillRandom(b.ptr(), s.n * s.k, nextSeed());
    fillU16(cbuf.ptr(), s.m * s.n, 0xFFFF); // bf16 NaN
    refGemm(a.ptr(), b.ptr(), ref.ptr(), s);
    pmrt::waitWithWatchdog(name);
    gemm::Problem p(v.cfg, a.ptr(), b.ptr(), cbuf.ptr(), s);
    p.launch(v.fn, c.persistent ? 0 : static_cast<unsigned>(p.numTiles()),
             c.groupM);
    pmrt::waitWithWatchdog(name);
    auto got = cbuf.download<uint16_t>(s.m * s.n);
    auto want = ref.download<float>(s.m * s.n);
    Comparison cmp = compare(got, want, s);
    std::printf("  %s: rel. Frobenius error %.3e, max |err|/tol %.3f\n", name,
                cmp.relFrobenius, cmp.worstRatio);
    report.check(name, cmp.ok, cmp.why);
  }
  // Shapes the kernel cannot compute: refused with a message, never run.
  const gemm::Shape refused[] = {
      {1000, 1000, 1001}, {1000, 1001, 1000}, {0, 128, 64}, {128, 128, 0}};
  for (gemm::Shape s : refused) {
    std::string why = gemm::check(s);
    char name[160];
    std::snprintf(name, sizeof(name),
                  "%s %lldx%lldx%lld refused by the host API", v.label.c_str(),
                  (long long)s.m, (long long)s.n, (long long)s.k);
    if (!why.empty())
      std::printf("  %s: \"%s\"\n", name, why.c_str());
    report.check(name, !why.empty(), "accepted a shape the kernel cannot run");
  }
}

// ------------------------------------------------------------------ cuBLASLt
struct CublasLt {
  decltype(&cublasLtCreate) create = nullptr;
  decltype(&cublasLtMatmulDescCreate) descCreate = nullptr;
  decltype(&cublasLtMatmulDescSetAttribute) descSet = nullptr;
  decltype(&cublasLtMatrixLayoutCreate) layoutCreate = nullptr;
  decltype(&cublasLtMatmulPreferenceCreate) prefCreate = nullptr;
  decltype(&cublasLtMatmulPreferenceSetAttribute) prefSet = nullptr;
  decltype(&cublasLtMatmulAlgoGetHeuristic) heuristic = nullptr;
  decltype(&cublasLtMatmul) matmul = nullptr;
  decltype(&cublasLtGetVersion) version = nullptr;
  cublasLtHandle_t handle = nullptr;
  std::string path;

  bool open(const std::string &explicitPath) {
    std::vector<std::string> candidates;
    if (!explicitPath.empty())
      candidates.push_back(explicitPath);
    if (const char *env = std::getenv("CUBLASLT_PATH"))
      candidates.push_back(env);
    candidates.push_back("libcublasLt.so.13");
    candidates.push_back("/usr/local/cuda/lib64/libcublasLt.so.13");
    candidates.push_back("libcublasLt.so");
    void *lib = nullptr;
    for (const std::string &c : candidates) {
      lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (lib) {
        path = c;
        break;
      }
    }
    if (!lib) {
      std::printf("ERROR: cannot open libcublasLt (%s)\n", dlerror());
      return false;
    }
#define PMRT_SYM(field, name)                                                  \
  field = reinterpret_cast<decltype(field)>(dlsym(lib, #name));                \
  if (!field) {                                                                \
    std::printf("ERROR: %s not in %s\n", #name, path.c_str());                 \
    return false;                                                              \
  }
    PMRT_SYM(create, cublasLtCreate)
    PMRT_SYM(descCreate, cublasLtMatmulDescCreate)
    PMRT_SYM(descSet, cublasLtMatmulDescSetAttribute)
    PMRT_SYM(layoutCreate, cublasLtMatrixLayoutCreate)
    PMRT_SYM(prefCreate, cublasLtMatmulPreferenceCreate)
    PMRT_SYM(prefSet, cublasLtMatmulPreferenceSetAttribute)
    PMRT_SYM(heuristic, cublasLtMatmulAlgoGetHeuristic)
    PMRT_SYM(matmul, cublasLtMatmul)
    PMRT_SYM(version, cublasLtGetVersion)
#undef PMRT_SYM
    return true;
  }
};

#define LT_CHECK(call)                                                         \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::printf("ERROR: cuBLASLt call failed: %s -> %d [%s:%d]\n", #call,    \
                  static_cast<int>(st_), __FILE__, __LINE__);                  \
      std::fflush(stdout);                                                     \
      std::_Exit(2);                                                           \
    }                                                                          \
  } while (0)

// C (row-major M x N) = A (row-major M x K) * B^T (B row-major N x K), as
// column-major cuBLAS sees it: C^T (N x M, ld N) = op(B) (N x K) * op(A)
// (K x M) with opA = T on the column-major K x N buffer of B and opB = N on
// the column-major K x M buffer of A: the "TN" GEMM.
struct LtGemm {
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, lc;
  cublasLtMatmulHeuristicResult_t algo;
  CUdeviceptr workspace;
  size_t workspaceBytes;
};

LtGemm planLt(CublasLt &lt, gemm::Shape s, CUdeviceptr workspace,
              size_t workspaceBytes) {
  LtGemm g{};
  g.workspace = workspace;
  g.workspaceBytes = workspaceBytes;
  LT_CHECK(lt.descCreate(&g.desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasOperation_t opT = CUBLAS_OP_T, opN = CUBLAS_OP_N;
  LT_CHECK(lt.descSet(g.desc, CUBLASLT_MATMUL_DESC_TRANSA, &opT, sizeof(opT)));
  LT_CHECK(lt.descSet(g.desc, CUBLASLT_MATMUL_DESC_TRANSB, &opN, sizeof(opN)));
  LT_CHECK(lt.layoutCreate(&g.la, CUDA_R_16BF, s.k, s.n, s.k)); // B buffer
  LT_CHECK(lt.layoutCreate(&g.lb, CUDA_R_16BF, s.k, s.m, s.k)); // A buffer
  LT_CHECK(lt.layoutCreate(&g.lc, CUDA_R_16BF, s.n, s.m, s.n));
  cublasLtMatmulPreference_t pref;
  LT_CHECK(lt.prefCreate(&pref));
  LT_CHECK(lt.prefSet(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                      &workspaceBytes, sizeof(workspaceBytes)));
  int found = 0;
  LT_CHECK(lt.heuristic(lt.handle, g.desc, g.la, g.lb, g.lc, g.lc, pref, 1,
                        &g.algo, &found));
  if (found < 1) {
    std::printf("ERROR: cuBLASLt found no algorithm\n");
    std::_Exit(2);
  }
  return g;
}

void runLt(CublasLt &lt, LtGemm &g, CUdeviceptr a, CUdeviceptr b,
           CUdeviceptr c) {
  const float alpha = 1.0f, beta = 0.0f;
  LT_CHECK(lt.matmul(lt.handle, g.desc, &alpha, reinterpret_cast<void *>(b),
                     g.la, reinterpret_cast<void *>(a), g.lb, &beta,
                     reinterpret_cast<void *>(c), g.lc,
                     reinterpret_cast<void *>(c), g.lc, &g.algo.algo,
                     reinterpret_cast<void *>(g.workspace), g.workspaceBytes,
                     reinterpret_cast<cudaStream_t>(pmrt::stream())));
}

// ------------------------------------------------------------------ bench
struct Stats {
  double median = 0, min = 0, max = 0, q1 = 0, q3 = 0;
};
Stats stats(std::vector<double> v) {
  Stats s;
  if (v.empty())
    return s;
  std::sort(v.begin(), v.end());
  auto at = [&](double q) {
    double pos = q * (v.size() - 1);
    size_t i = static_cast<size_t>(pos);
    double f = pos - i;
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
  };
  s.median = at(0.5);
  s.min = v.front();
  s.max = v.back();
  s.q1 = at(0.25);
  s.q3 = at(0.75);
  return s;
}

struct Row {
  std::string size, kernel;
  Stats ms, tflops;
  double ratio = 0;
  int batches = 0, launchesPerBatch = 0, sets = 0;
};

int runBench(pmrt::Report &report, std::vector<Variant> &variants, int argc,
             char **argv) {
  CublasLt lt;
  if (!lt.open(option(argc, argv, "cublaslt", ""))) {
    report.check("cublasLt available", false, "library not found");
    return 1;
  }
  LT_CHECK(lt.create(&lt.handle));
  std::printf("cuBLASLt: %s, version %zu\n", lt.path.c_str(), lt.version());

  const int reps = static_cast<int>(pmrt::intOption(argc, argv, "reps", 20));
  const int warmup = static_cast<int>(pmrt::intOption(argc, argv, "warmup", 3));
  const double batchMs =
      static_cast<double>(pmrt::intOption(argc, argv, "batch-ms", 10));
  const int groupM =
      static_cast<int>(pmrt::intOption(argc, argv, "group-m", 8));
  std::string sizesOpt =
      option(argc, argv, "sizes",
             "2048x2048x2048,4096x4096x4096,8192x8192x8192,8192x8192x1024");
  std::string csvPath = option(argc, argv, "csv", "");

  int l2Bytes = 0;
  CUdevice dev;
  PMRT_CHECK(cuCtxGetDevice(&dev));
  PMRT_CHECK(
      cuDeviceGetAttribute(&l2Bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev));
  const size_t wsBytes = 32u << 20;
  pmrt::DeviceBuffer workspace(wsBytes);

  CUevent e0, e1;
  PMRT_CHECK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
  PMRT_CHECK(cuEventCreate(&e1, CU_EVENT_DEFAULT));

  std::vector<Row> rows;
  for (const std::string &spec : split(sizesOpt, ',')) {
    auto d = split(spec, 'x');
    gemm::Shape s{std::stoll(d[0]), std::stoll(d[1]), std::stoll(d[2])};
    std::string why = gemm::check(s);
    if (!why.empty()) {
      std::printf("skip %s: %s\n", spec.c_str(), why.c_str());
      continue;
    }
    const double flop = 2.0 * s.m * s.n * s.k;
    const size_t setBytes = (s.m * s.k + s.n * s.k + s.m * s.n) * 2;
    const int sets = static_cast<int>(
        std::max<size_t>(1, (3 * static_cast<size_t>(l2Bytes)) / setBytes + 1));
    std::vector<std::unique_ptr<pmrt::DeviceBuffer>> as, bs;
    for (int i = 0; i < sets; ++i) {
      as.push_back(std::make_unique<pmrt::DeviceBuffer>(s.m * s.k * 2));
      bs.push_back(std::make_unique<pmrt::DeviceBuffer>(s.n * s.k * 2));
      fillRandom(as.back()->ptr(), s.m * s.k, nextSeed());
      fillRandom(bs.back()->ptr(), s.n * s.k, nextSeed());
    }
    // One output set per kernel (variants and cuBLAS), poisoned.
    const size_t nk = variants.size() + 1;
    std::vector<std::vector<std::unique_ptr<pmrt::DeviceBuffer>>> cs(nk);
    for (size_t v = 0; v < nk; ++v)
      for (int i = 0; i < sets; ++i) {
        cs[v].push_back(std::make_unique<pmrt::DeviceBuffer>(s.m * s.n * 2));
        fillU16(cs[v].back()->ptr(), s.m * s.n, 0xFFFF);
      }
    pmrt::waitWithWatchdog("fill");
    std::vector<std::vector<gemm::Problem>> problems(variants.size());
    for (size_t v = 0; v < variants.size(); ++v)
      for (int i = 0; i < sets; ++i)
        problems[v].emplace_back(variants[v].cfg, as[i]->ptr(), bs[i]->ptr(),
                                 cs[v][i]->ptr(), s);
    LtGemm ltg = planLt(lt, s, workspace.ptr(), wsBytes);
    for (size_t v = 0; v < variants.size(); ++v) {
      const Variant &var = variants[v];
      unsigned grid = var.oneTilePerCta
                          ? static_cast<unsigned>(problems[v][0].numTiles())
                      : var.grid ? var.grid
                                 : problems[v][0].persistentGrid(var.fn);
      std::printf("  %s %s: grid %u CTAs (cluster %u), %lld tiles\n",
                  var.label.c_str(), spec.c_str(), grid, var.cfg.cluster,
                  static_cast<long long>(problems[v][0].numTiles()));
    }

    auto launchOne = [&](size_t k, int set) {
      if (k < variants.size())
        problems[k][set].launch(
            variants[k].fn,
            variants[k].oneTilePerCta
                ? static_cast<unsigned>(problems[k][set].numTiles())
                : variants[k].grid,
            groupM);
      else
        runLt(lt, ltg, as[set]->ptr(), bs[set]->ptr(), cs[k][set]->ptr());
    };
    auto timeBatch = [&](size_t k, int launches) {
      PMRT_CHECK(cuEventRecord(e0, pmrt::stream()));
      for (int i = 0; i < launches; ++i)
        launchOne(k, i % sets);
      PMRT_CHECK(cuEventRecord(e1, pmrt::stream()));
      pmrt::waitWithWatchdog("gemm batch");
      float ms = 0;
      PMRT_CHECK(cuEventElapsedTime(&ms, e0, e1));
      return static_cast<double>(ms) / launches;
    };
    // Launches per batch from cuBLAS's time of one launch (same L for all).
    double one = timeBatch(nk - 1, sets);
    one = timeBatch(nk - 1, sets);
    int perBatch = std::max(sets, static_cast<int>(batchMs / one));
    perBatch = (perBatch + sets - 1) / sets * sets;
    for (int w = 0; w < warmup; ++w)
      for (size_t k = 0; k < nk; ++k)
        timeBatch(k, perBatch);
    std::vector<std::vector<double>> ms(nk);
    for (int r = 0; r < reps; ++r)
      for (size_t j = 0; j < nk; ++j) {
        size_t k = (r % 2 == 0) ? j : nk - 1 - j; // alternate the order
        ms[k].push_back(timeBatch(k, perBatch));
      }
    // Outputs: every variant's last set against cuBLAS's.
    auto ltOut = cs[nk - 1][0]->download<uint16_t>(s.m * s.n);
    Stats ltMs = stats(ms[nk - 1]);
    for (size_t k = 0; k < nk; ++k) {
      Row row;
      row.size = spec;
      row.kernel = k < variants.size() ? variants[k].label : "cuBLASLt";
      row.ms = stats(ms[k]);
      std::vector<double> tf;
      for (double t : ms[k])
        tf.push_back(flop / (t * 1e-3) / 1e12);
      row.tflops = stats(tf);
      row.ratio = ltMs.median / row.ms.median;
      row.batches = reps;
      row.launchesPerBatch = perBatch;
      row.sets = sets;
      rows.push_back(row);
      if (k < variants.size()) {
        auto got = cs[k][0]->download<uint16_t>(s.m * s.n);
        // Both outputs are bf16-rounded: allow two roundings.
        Comparison cmp = compare(got, ltOut, s, 2.0 / 128, 1e-2);
        std::printf("  %s %s vs cuBLASLt: rel. Frobenius difference %.3e\n",
                    row.kernel.c_str(), spec.c_str(), cmp.relFrobenius);
        report.check(row.kernel + " " + spec + " output equals cuBLASLt's",
                     cmp.ok, cmp.why);
      }
    }
  }

  std::printf("\n%-16s %-12s %10s %9s %9s %9s %7s %7s\n", "M x N x K", "kernel",
              "median ms", "TFLOP/s", "min", "max", "IQR%", "vs cuBLAS");
  for (const Row &r : rows)
    std::printf("%-16s %-12s %10.4f %9.1f %9.1f %9.1f %7.2f %7.3f\n",
                r.size.c_str(), r.kernel.c_str(), r.ms.median, r.tflops.median,
                r.tflops.min, r.tflops.max,
                100.0 * (r.tflops.q3 - r.tflops.q1) / r.tflops.median, r.ratio);
  if (!csvPath.empty()) {
    FILE *f = std::fopen(csvPath.c_str(), "w");
    if (f) {
      std::fprintf(f,
                   "size,kernel,median_ms,min_ms,max_ms,tflops_median,"
                   "tflops_min,tflops_max,tflops_q1,tflops_q3,ratio_to_cublas,"
                   "batches,launches_per_batch,input_sets\n");
      for (const Row &r : rows)
        std::fprintf(
            f, "%s,%s,%.5f,%.5f,%.5f,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%d,%d,%d\n",
            r.size.c_str(), r.kernel.c_str(), r.ms.median, r.ms.min, r.ms.max,
            r.tflops.median, r.tflops.min, r.tflops.max, r.tflops.q1,
            r.tflops.q3, r.ratio, r.batches, r.launchesPerBatch, r.sets);
      std::fclose(f);
    }
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  if (pmrt::computeCapabilityMajor() != 9) {
    std::printf(
        "ERROR: the kernel is built for sm_90a; this device is sm_%d%d\n",
        pmrt::computeCapabilityMajor(), pmrt::computeCapabilityMinor());
    return 2;
  }
  std::string mode = option(argc, argv, "mode", "all");
  CUmodule refMod = pmrt::loadModule(
      option(argc, argv, "ref", pmrt::selfDir() + "/gemm_ref.cubin"));
  helpers.ref = pmrt::getKernel(refMod, "ref_gemm");
  helpers.fillRandom = pmrt::getKernel(refMod, "fill_bf16_random");
  helpers.fillU16 = pmrt::getKernel(refMod, "fill_u16");
  std::vector<Variant> variants = loadVariants(argc, argv);

  pmrt::Report report("gemm-bench");
  if (mode == "check" || mode == "all")
    for (const Variant &v : variants)
      runChecks(report, v);
  if (mode == "bench" || mode == "all")
    runBench(report, variants, argc, argv);
  return report.finish();
}
