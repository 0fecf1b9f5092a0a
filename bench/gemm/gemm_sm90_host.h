//===- gemm_sm90_host.h - host API of the dialect's sm_90a bf16 GEMM ------===//
//
// Launches examples/gemm_sm90.mlir (compiled by pipeline-compile) on the
// project's host runtime (runtime/, pmrt):
//
//   C[M, N] = A[M, K] * B[N, K]^T   A, B, C bf16 and row-major, f32
//   accumulation
//
// i.e. cuBLAS's "TN" GEMM, what torch.matmul(x, w.t()) with row-major x (M x
// K) and w (N x K) runs. The shapes the kernel computes correctly are exactly
// those `check()` accepts; anything else is refused with a message, never run.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_BENCH_GEMM_GEMM_SM90_HOST_H
#define PIPELINE_BENCH_GEMM_GEMM_SM90_HOST_H

#include "pipeline-runtime/pmrt.h"

#include <cstdint>
#include <memory>
#include <string>

namespace gemm {

/// The compile-time shape of one compiled kernel variant (what
/// bench/gemm/gen_gemm_sm90.py was given).
struct KernelConfig {
  unsigned bm = 128;           ///< CTA tile M (two consumer warpgroups of 64)
  unsigned bn = 256;           ///< CTA tile N (wgmma N)
  unsigned bk = 64;            ///< k-block (one 128-byte swizzle row of bf16)
  unsigned smemBytes = 214016; ///< dynamic shared memory of the launch
  unsigned threads = 384;      ///< 3 warpgroups
  unsigned cluster = 1;        ///< 2: CTA pairs multicast B (gen --cluster 2)
};

struct Shape {
  int64_t m = 0, n = 0, k = 0;
};

/// Empty when the kernel computes C = A * B^T for `s` correctly; else why
/// not, e.g. "K = 1001 is not a multiple of 8 ...". The rules: M, N, K >= 1;
/// M, N, K < 2^31 (i32 kernel arguments); K and N multiples of 8, since TMA
/// needs the row pitches of A, B (K bf16) and C (N bf16) to be multiples of
/// 16 bytes. M, N, K need not be multiples of the tile: TMA zero-fills the
/// loads past an edge (zeros add nothing to a dot product) and clips the
/// stores.
std::string check(const Shape &s);

/// TMA descriptor of a row-major bf16 matrix of `rows` x `cols` (cols
/// contiguous), boxes of boxRows x 64 elements (128 bytes), 128-byte swizzle,
/// out-of-bound elements read as zero; copied to device memory, as the kernel
/// ABI wants (a pointer to the 128-byte CUtensorMap).
std::unique_ptr<pmrt::DeviceBuffer> encodeBf16Map(CUdeviceptr base,
                                                  uint64_t rows, uint64_t cols,
                                                  uint32_t boxRows,
                                                  bool l2Promote256);

/// One problem: the operands and their three descriptors, encoded once.
class Problem {
public:
  /// Exits(2) with check()'s message when the shape is not supported; use
  /// check() first to handle it.
  Problem(const KernelConfig &cfg, CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
          Shape s);

  Shape shape() const { return shape_; }
  /// CTA tiles of the problem (with clusters of 2, rounded up to pairs):
  /// the grid of the non-persistent launch.
  int64_t numTiles() const;
  /// Grid of the persistent launch: min(SMs, tiles); with clusters, twice
  /// the clusters of `fn` that fit on the device at once
  /// (cuOccupancyMaxActiveClusters), at most the tiles.
  unsigned persistentGrid(CUfunction fn) const;

  /// Launches on pmrt::stream() without waiting. grid = 0: persistent.
  /// groupM: M-tiles per group of the raster order (>= 1).
  void launch(CUfunction fn, unsigned grid, int groupM);

private:
  KernelConfig cfg_;
  Shape shape_;
  std::unique_ptr<pmrt::DeviceBuffer> mapA_, mapB_, mapC_;
};

} // namespace gemm

#endif // PIPELINE_BENCH_GEMM_GEMM_SM90_HOST_H
