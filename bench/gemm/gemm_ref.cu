// Helper kernels of the GEMM harness (bench/gemm/gemm_bench.cpp), compiled by
// nvcc to a cubin of their own: a plain reference GEMM to check the dialect
// kernel against, a random bf16 fill, and a 16-bit fill to poison outputs.
//
//   nvcc -cubin -gencode=arch=compute_90a,code=sm_90a -O3 -o gemm_ref.cubin
//   gemm_ref.cu
//
// The reference computes the same function as the kernel under test,
// C[m][n] = sum_k A[m][k] * B[n][k] (A row-major M x K, B row-major N x K),
// with f32 products and sums, and writes f32 (no bf16 rounding), so the check
// sees the kernel's bf16 output rounding and accumulation order only. It
// shares no code with the dialect kernel: CUDA cores, 32 x 32 shared-memory
// tiles, every bounds check explicit.

#include <cuda_bf16.h>
#include <stdint.h>

namespace {
constexpr int T = 32;

__device__ __forceinline__ uint32_t mix(uint32_t x) {
  // lowbias32 (Chris Wellons)
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}
} // namespace

extern "C" __global__ void __launch_bounds__(T * 8)
    ref_gemm(const __nv_bfloat16 *__restrict__ A,
             const __nv_bfloat16 *__restrict__ B, float *__restrict__ C, int M,
             int N, int K) {
  __shared__ float as[T][T + 1];
  __shared__ float bs[T][T + 1];
  // block: 32 x 8 threads, each computes 4 rows of one column of a 32 x 32
  // tile of C.
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int m0 = blockIdx.y * T, n0 = blockIdx.x * T;
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k0 = 0; k0 < K; k0 += T) {
    for (int r = ty; r < T; r += 8) {
      int m = m0 + r, n = n0 + r, k = k0 + tx;
      as[r][tx] =
          (m < M && k < K) ? __bfloat162float(A[(size_t)m * K + k]) : 0.f;
      bs[r][tx] =
          (n < N && k < K) ? __bfloat162float(B[(size_t)n * K + k]) : 0.f;
    }
    __syncthreads();
#pragma unroll 8
    for (int kk = 0; kk < T; ++kk) {
      float b = bs[tx][kk];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        acc[i] = fmaf(as[ty + 8 * i][kk], b, acc[i]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) {
    int m = m0 + ty + 8 * i, n = n0 + tx;
    if (m < M && n < N)
      C[(size_t)m * N + n] = acc[i];
  }
}

// p[i] = a random bf16 drawn from (seed, i): random sign, all 7 mantissa bits
// random, magnitude in [1/16, 1) (biased exponents 122..126). Every value has
// a full mantissa, as randn data has (low-entropy data such as zeros or k/128
// makes the tensor cores draw less power and run faster), and products of two
// are exact in f32.
extern "C" __global__ void fill_bf16_random(uint16_t *p, size_t n,
                                            uint32_t seed) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint32_t h =
        mix((uint32_t)i ^ mix(seed + (uint32_t)(i >> 32) * 0x9E3779B9U));
    uint32_t sign = h >> 31;
    uint32_t exponent = 126 - ((h >> 7) & 3);
    uint32_t mantissa = h & 0x7f;
    p[i] = (uint16_t)((sign << 15) | (exponent << 7) | mantissa);
  }
}

extern "C" __global__ void fill_u16(uint16_t *p, size_t n, uint32_t value) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    p[i] = (uint16_t)value;
}
