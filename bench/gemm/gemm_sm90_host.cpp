//===- gemm_sm90_host.cpp - host API of the dialect's sm_90a bf16 GEMM ----===//

#include "gemm_sm90_host.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

namespace gemm {

std::string check(const Shape &s) {
  auto dims = "M = " + std::to_string(s.m) + ", N = " + std::to_string(s.n) +
              ", K = " + std::to_string(s.k);
  if (s.m < 1 || s.n < 1 || s.k < 1)
    return "gemm_sm90: " + dims + ": every dimension must be at least 1";
  const int64_t limit = (int64_t(1) << 31) - 1;
  if (s.m > limit || s.n > limit || s.k > limit)
    return "gemm_sm90: " + dims + ": dimensions must be below 2^31";
  if (s.k % 8)
    return "gemm_sm90: " + dims + ": K = " + std::to_string(s.k) +
           " is not a multiple of 8: TMA needs the row pitch of A and B (K "
           "bf16 = " +
           std::to_string(2 * s.k) + " bytes) to be a multiple of 16 bytes";
  if (s.n % 8)
    return "gemm_sm90: " + dims + ": N = " + std::to_string(s.n) +
           " is not a multiple of 8: TMA needs the row pitch of C (N bf16 = " +
           std::to_string(2 * s.n) + " bytes) to be a multiple of 16 bytes";
  return "";
}

std::unique_ptr<pmrt::DeviceBuffer> encodeBf16Map(CUdeviceptr base,
                                                  uint64_t rows, uint64_t cols,
                                                  uint32_t boxRows,
                                                  bool l2Promote256) {
  CUtensorMap map;
  std::memset(&map, 0, sizeof(map));
  cuuint64_t dims[2] = {cols, rows}; // dimension 0 is the contiguous one
  cuuint64_t strides[1] = {cols * 2};
  cuuint32_t box[2] = {64, boxRows}; // 64 bf16 = 128 bytes = the swizzle span
  cuuint32_t elemStrides[2] = {1, 1};
  PMRT_CHECK(cuTensorMapEncodeTiled(
      &map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, reinterpret_cast<void *>(base),
      dims, strides, box, elemStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      CU_TENSOR_MAP_SWIZZLE_128B,
      l2Promote256 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B
                   : CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE)); // NONE: out-of-bound reads are 0
  auto buffer = std::make_unique<pmrt::DeviceBuffer>(sizeof(map));
  buffer->upload(&map, sizeof(map));
  return buffer;
}

Problem::Problem(const KernelConfig &cfg, CUdeviceptr a, CUdeviceptr b,
                 CUdeviceptr c, Shape s)
    : cfg_(cfg), shape_(s) {
  std::string why = check(s);
  if (!why.empty()) {
    std::printf("ERROR: %s\n", why.c_str());
    std::fflush(stdout);
    std::_Exit(2);
  }
  mapA_ = encodeBf16Map(a, s.m, s.k, cfg.bm, true);
  // With clusters of 2 each CTA loads (and multicasts) half of the B tile.
  mapB_ = encodeBf16Map(b, s.n, s.k, cfg.bn / cfg.cluster, true);
  mapC_ = encodeBf16Map(c, s.m, s.n, 64, false);
}

int64_t Problem::numTiles() const {
  int64_t mt = (shape_.m + cfg_.bm - 1) / cfg_.bm;
  int64_t nt = (shape_.n + cfg_.bn - 1) / cfg_.bn;
  mt = (mt + cfg_.cluster - 1) / cfg_.cluster * cfg_.cluster;
  return mt * nt;
}

static pmrt::LaunchConfig launchConfig(const KernelConfig &cfg, unsigned grid) {
  pmrt::LaunchConfig lc;
  lc.grid[0] = grid;
  lc.block[0] = cfg.threads;
  lc.cluster[0] = cfg.cluster;
  lc.dynamicSmem = cfg.smemBytes;
  return lc;
}

unsigned Problem::persistentGrid(CUfunction fn) const {
  int64_t slots = pmrt::smCount();
  if (cfg_.cluster > 1) {
    static std::map<CUfunction, int> clustersOf;
    auto it = clustersOf.find(fn);
    if (it == clustersOf.end()) {
      PMRT_CHECK(cuFuncSetAttribute(
          fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, cfg_.smemBytes));
      PMRT_CHECK(cuFuncSetAttribute(
          fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 0));
      pmrt::LaunchConfig lc = launchConfig(cfg_, pmrt::smCount());
      CUlaunchConfig config;
      std::memset(&config, 0, sizeof(config));
      config.gridDimX = lc.grid[0] / cfg_.cluster * cfg_.cluster;
      config.gridDimY = config.gridDimZ = 1;
      config.blockDimX = lc.block[0];
      config.blockDimY = config.blockDimZ = 1;
      config.sharedMemBytes = lc.dynamicSmem;
      config.hStream = pmrt::stream();
      CUlaunchAttribute attr;
      std::memset(&attr, 0, sizeof(attr));
      attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attr.value.clusterDim.x = cfg_.cluster;
      attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
      config.attrs = &attr;
      config.numAttrs = 1;
      int clusters = 0;
      PMRT_CHECK(cuOccupancyMaxActiveClusters(&clusters, fn, &config));
      it = clustersOf.emplace(fn, clusters).first;
    }
    slots = static_cast<int64_t>(it->second) * cfg_.cluster;
  }
  return static_cast<unsigned>(std::min<int64_t>(slots, numTiles()));
}

void Problem::launch(CUfunction fn, unsigned grid, int groupM) {
  pmrt::LaunchConfig lc = launchConfig(cfg_, grid ? grid : persistentGrid(fn));
  pmrt::KernelArgs args;
  args.ptr(mapA_->ptr())
      .ptr(mapB_->ptr())
      .ptr(mapC_->ptr())
      .i32(static_cast<int32_t>(shape_.m))
      .i32(static_cast<int32_t>(shape_.n))
      .i32(static_cast<int32_t>(shape_.k))
      .i32(std::max(1, groupM));
  pmrt::launch("gemm_sm90", fn, lc, args);
}

} // namespace gemm
