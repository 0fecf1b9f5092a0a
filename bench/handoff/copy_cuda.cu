// The hand-written side of the streaming copy of the handoff benchmark
// (docs/benchmarks.md): the same persistent TMA ring as copy_dialect.mlir,
// kernel for kernel, written with inline PTX, and a plain vectorized copy.
//
//   tma_r<R>_c<C>_s<S>  lane 0 of warp 0 loads R x C i32 tiles with TMA into
//                       an S-stage ring (expect_tx on the stage's full
//                       barrier), lane 0 of warp 1 stores them with TMA
//                       (fence.proxy.async, bulk group, wait_group.read 0,
//                       arrive on empty); barrier counts 1; the item loops
//                       unrolled by S, parity in a register. Arguments: src,
//                       dst (CUtensorMap in global memory), tiles,
//                       tiles_per_row; dynamic shared memory S * R * C * 4.
//   vec_copy            grid-stride copy with 16-byte loads and stores, four
//                       in flight per thread. Arguments: src, dst, count of
//                       16-byte vectors (u64).
//
// Compile: nvcc -gencode=arch=compute_90a,code=sm_90a -cubin -O3 -o X.cubin
// copy_cuda.cu

#include <cstdint>

#include "../common/mbarrier.cuh"

namespace {

__device__ __forceinline__ void
tmaLoad(uint32_t dst, const void *map, int32_t col, int32_t row, uint32_t bar) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
               "complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
               "l"(map), "r"(col), "r"(row), "r"(bar)
               : "memory");
}

__device__ __forceinline__ void tmaStore(const void *map, int32_t col,
                                         int32_t row, uint32_t src) {
  asm volatile("fence.proxy.async.shared::cta;\n\t"
               "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
               "[%0, {%1, %2}], [%3];\n\t"
               "cp.async.bulk.commit_group;\n\t"
               "cp.async.bulk.wait_group.read 0;" ::"l"(map),
               "r"(col), "r"(row), "r"(src)
               : "memory");
}

template <int R, int C, int S>
__device__ __forceinline__ void tmaCopy(const void *src, const void *dst,
                                        int32_t ntiles, int32_t perRow) {
  extern __shared__ __align__(1024) uint8_t dyn[];
  __shared__ alignas(8) uint64_t bars[2 * S];
  constexpr uint32_t kBytes = R * C * 4;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2 * S; ++s)
      mbarInit(smem(&bars[s]), 1);
    mbarInitFence();
  }
  __syncthreads();
  const uint32_t full = smem(&bars[0]), empty = smem(&bars[S]);
  const uint32_t buf = smem(dyn);
  const int32_t mine =
      (ntiles - static_cast<int32_t>(blockIdx.x) + gridDim.x - 1) / gridDim.x;
  auto coords = [&](int32_t k, int32_t &col, int32_t &row) {
    int32_t t = blockIdx.x + k * gridDim.x;
    row = t / perRow * R;
    col = t % perRow * C;
  };
  if (threadIdx.x == 0) {
    auto load = [&](int32_t k, uint32_t s, uint32_t parity) {
      int32_t col, row;
      coords(k, col, row);
      mbarWait(empty + 8 * s, parity);
      expectTx(full + 8 * s, kBytes);
      tmaLoad(buf + s * kBytes, src, col, row, full + 8 * s);
    };
    uint32_t parity = 1;
    int32_t k = 0;
    for (; k + S <= mine; k += S) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        load(k + s, s, parity);
      parity ^= 1;
    }
    uint32_t s = 0;
    for (; k < mine; ++k, ++s)
      load(k, s, parity);
    for (uint32_t d = 0; d < S; ++d, ++s)
      mbarWait(empty + 8 * (s % S), s >= S ? parity ^ 1 : parity);
  } else if (threadIdx.x == 32) {
    auto store = [&](int32_t k, uint32_t s, uint32_t parity) {
      int32_t col, row;
      coords(k, col, row);
      mbarWait(full + 8 * s, parity);
      tmaStore(dst, col, row, buf + s * kBytes);
      mbarArrive(empty + 8 * s);
    };
    uint32_t parity = 0;
    int32_t k = 0;
    for (; k + S <= mine; k += S) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        store(k + s, s, parity);
      parity ^= 1;
    }
    for (uint32_t s = 0; k < mine; ++k, ++s)
      store(k, s, parity);
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

} // namespace

#define TMA_COPY(R, C, S)                                                      \
  extern "C" __global__ void __launch_bounds__(64, 1) tma_r##R##_c##C##_s##S(  \
      const void *src, const void *dst, int32_t n, int32_t perRow) {           \
    tmaCopy<R, C, S>(src, dst, n, perRow);                                     \
  }

TMA_COPY(32, 128, 4)
TMA_COPY(32, 128, 8)
TMA_COPY(32, 256, 2)
TMA_COPY(32, 256, 4)
TMA_COPY(32, 256, 6)
TMA_COPY(64, 256, 2)
TMA_COPY(64, 256, 3)

extern "C" __global__ void __launch_bounds__(256)
    vec_copy(const int4 *__restrict__ src, int4 *__restrict__ dst,
             uint64_t count) {
  const uint64_t stride = uint64_t(gridDim.x) * blockDim.x;
  uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < count; i += 4 * stride) {
    int4 a = src[i], b = src[i + stride], c = src[i + 2 * stride],
         d = src[i + 3 * stride];
    dst[i] = a;
    dst[i + stride] = b;
    dst[i + 2 * stride] = c;
    dst[i + 3 * stride] = d;
  }
  for (; i < count; i += stride)
    dst[i] = src[i];
}
