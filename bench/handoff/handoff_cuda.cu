// The hand-written and libcu++ sides of the handoff benchmark
// (docs/benchmarks.md, first section). Same work as handoff_dialect.mlir,
// kernel for kernel: block of 64 threads, warp 0 produces, warp 1 consumes,
// through an S-stage ring of one u32 per stage; item i of block b is
// mix32(b * n + i); lane 0 of the consumer writes it to out[b * n + i].
// Mode `lane0`: full and empty count 1 (lane 0 of each warp signals, every
// lane waits); mode `all`: counts 32 (every lane signals; every consumer
// lane reads the slot).
//
// Kernels (extern "C"), for S in 1, 2, 3, 4, 8 and M in lane0, all:
//   hand_s<S>_<M>     the best hand-written ring: CUTLASS barrier.h-style
//                     inline PTX (try_wait.parity loop with the 0x989680
//                     suspend hint, arrive), parity in a register, the item
//                     loop unrolled by S so that every stage's barrier and
//                     slot address is an immediate offset and the parity
//                     flips once per round of S items;
//   rolled_s<S>_<M>   the same PTX, one item per iteration (`#pragma unroll
//                     1`), stage and phase advanced like CUTLASS's
//                     PipelineState (the loop shape of the dialect kernels);
//   cubar_s<S>_<M>    what a CUDA user writes with libcu++: arrays of
//                     cuda::barrier<thread_scope_block>, wait_parity(),
//                     arrive(), slot i % S;
//   cupipe_s<S>_all   cuda::pipeline<thread_scope_block> with producer and
//                     consumer roles (producer_acquire / producer_commit,
//                     consumer_wait / consumer_release); every thread of a
//                     role takes part, so only mode `all` exists.
// Arguments: out (u32 *, 2^28 elements), n (items per block).
//
// Compile: nvcc -gencode=arch=compute_90a,code=sm_90a -cubin -O3 -o X.cubin
// handoff_cuda.cu

#include <cooperative_groups.h>
#include <cstdint>
#include <cuda/barrier>
#include <cuda/pipeline>

#include "../common/mbarrier.cuh"

namespace {

__device__ __forceinline__ void stShared(uint32_t addr, uint32_t v) {
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

__device__ __forceinline__ uint32_t ldShared(uint32_t addr) {
  uint32_t v;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}

__device__ __forceinline__ uint32_t mix32(uint32_t x) {
  x *= 0x9E3779B1u;
  return x ^ (x >> 16);
}

// Barriers: full(s) = bars[s], empty(s) = bars[S + s].
template <int S, bool All>
__device__ __forceinline__ void initBarriers(uint64_t *bars) {
  if (threadIdx.x == 0) {
#pragma unroll
    for (int s = 0; s < 2 * S; ++s)
      mbarInit(smem(&bars[s]), All ? 32 : 1);
    mbarInitFence();
  }
  __syncthreads();
}

// The hand-written ring's two flavours (template parameter Tuned):
//   false  CUTLASS as written: ClusterBarrier::wait / arrive, the slot
//          through a C++ pointer to shared memory;
//   true   the slot through its 32-bit shared address (ld/st.shared in
//          inline PTX, no generic-to-shared conversion in the loop) and the
//          wait's branches marked uniform.
template <bool Tuned>
__device__ __forceinline__ void waitOn(uint32_t bar, uint32_t parity) {
  if (Tuned)
    mbarWaitUni(bar, parity);
  else
    mbarWait(bar, parity);
}

// One producer item at stage `s` (a constant after unrolling).
template <int S, bool All, bool Tuned>
__device__ __forceinline__ void
produceAt(uint32_t full, uint32_t empty, uint32_t *ring, uint32_t slots,
          uint32_t s, uint32_t parity, uint32_t lane, uint32_t x) {
  waitOn<Tuned>(empty + 8 * s, parity);
  if (lane == 0) {
    if (Tuned)
      stShared(slots + 4 * s, mix32(x));
    else
      ring[s] = mix32(x);
    if (!All)
      mbarArrive(full + 8 * s);
  }
  if (All)
    mbarArrive(full + 8 * s);
}

template <int S, bool All, bool Tuned>
__device__ __forceinline__ void
consumeAt(uint32_t full, uint32_t empty, volatile uint32_t *ring,
          uint32_t slots, uint32_t s, uint32_t parity, uint32_t lane,
          uint32_t *out) {
  waitOn<Tuned>(full + 8 * s, parity);
  if (All || lane == 0) {
    uint32_t v = Tuned ? ldShared(slots + 4 * s) : ring[s];
    mbarArrive(empty + 8 * s);
    if (lane == 0)
      *out = v;
  }
}

template <int S, bool All, bool Tuned>
__device__ __forceinline__ void handRing(uint32_t *__restrict__ out,
                                         int32_t n) {
  __shared__ alignas(8) uint64_t bars[2 * S];
  __shared__ uint32_t ring[S];
  initBarriers<S, All>(bars);
  const uint32_t lane = threadIdx.x % 32;
  uint32_t full = smem(&bars[0]), empty = smem(&bars[S]);
  uint32_t slots = smem(&ring[0]);
  if (Tuned) {
    // Opaque to the compilers: the addresses stay in registers instead of
    // being rebuilt from the shared window's base at every access.
    asm("" : "+r"(full), "+r"(empty), "+r"(slots));
  }
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  const int32_t rounds = n / S, tail = n % S;
  if (threadIdx.x < 32) {
    uint32_t parity = 1, x = base;
    for (int32_t r = 0; r < rounds; ++r) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        produceAt<S, All, Tuned>(full, empty, ring, slots, s, parity, lane,
                                 x + s);
      x += S;
      parity ^= 1;
    }
    for (int32_t s = 0; s < tail; ++s)
      produceAt<S, All, Tuned>(full, empty, ring, slots, s, parity, lane,
                               x + s);
    // Drain: wait until the consumer has freed every stage.
    for (int32_t k = 0; k < S; ++k) {
      int32_t s = tail + k;
      waitOn<Tuned>(empty + 8 * (s % S), s >= S ? parity ^ 1 : parity);
    }
  } else {
    uint32_t parity = 0, x = base;
    for (int32_t r = 0; r < rounds; ++r) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        consumeAt<S, All, Tuned>(full, empty, ring, slots, s, parity, lane,
                                 &out[x + s]);
      x += S;
      parity ^= 1;
    }
    for (int32_t s = 0; s < tail; ++s)
      consumeAt<S, All, Tuned>(full, empty, ring, slots, s, parity, lane,
                               &out[x + s]);
  }
}

// CUTLASS PipelineState: stage index and phase, advanced one item at a time.
template <int S> struct PipelineState {
  uint32_t index = 0;
  uint32_t phase = 0;
  __device__ __forceinline__ void advance() {
    if (++index == S) {
      index = 0;
      phase ^= 1;
    }
  }
};

template <int S, bool All>
__device__ __forceinline__ void rolledRing(uint32_t *__restrict__ out,
                                           int32_t n) {
  __shared__ alignas(8) uint64_t bars[2 * S];
  __shared__ uint32_t ring[S];
  initBarriers<S, All>(bars);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t full = smem(&bars[0]), empty = smem(&bars[S]);
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  if (threadIdx.x < 32) {
    PipelineState<S> st;
    st.phase = 1;
#pragma unroll 1
    for (int32_t i = 0; i < n; ++i) {
      produceAt<S, All, false>(full, empty, ring, 0, st.index, st.phase, lane,
                               base + i);
      st.advance();
    }
    for (int32_t k = 0; k < S; ++k) {
      mbarWait(empty + 8 * st.index, st.phase);
      st.advance();
    }
  } else {
    PipelineState<S> st;
#pragma unroll 1
    for (int32_t i = 0; i < n; ++i) {
      consumeAt<S, All, false>(full, empty, ring, 0, st.index, st.phase, lane,
                               &out[base + i]);
      st.advance();
    }
  }
}

using Barrier = cuda::barrier<cuda::thread_scope_block>;

template <int S, bool All>
__device__ __forceinline__ void cubarRing(uint32_t *__restrict__ out,
                                          int32_t n) {
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ Barrier full[S], empty[S];
  __shared__ uint32_t ring[S];
  if (threadIdx.x == 0) {
    for (int s = 0; s < S; ++s) {
      init(&full[s], All ? 32 : 1);
      init(&empty[s], All ? 32 : 1);
    }
  }
  __syncthreads();
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  if (threadIdx.x < 32) {
    bool parity = true;
    for (int32_t i = 0; i < n; ++i) {
      const int32_t s = i % S;
      empty[s].wait_parity(parity);
      if (lane == 0) {
        ring[s] = mix32(base + i);
        if (!All)
          (void)full[s].arrive();
      }
      if (All)
        (void)full[s].arrive();
      if (s == S - 1)
        parity = !parity;
    }
    for (int32_t k = 0; k < S; ++k) {
      const int32_t i = n + k;
      empty[i % S].wait_parity(((i / S) & 1) == 0);
    }
  } else {
    volatile uint32_t *slots = ring;
    bool parity = false;
    for (int32_t i = 0; i < n; ++i) {
      const int32_t s = i % S;
      full[s].wait_parity(parity);
      if (All) {
        uint32_t v = slots[s];
        (void)empty[s].arrive();
        if (lane == 0)
          out[base + i] = v;
      } else if (lane == 0) {
        uint32_t v = slots[s];
        (void)empty[s].arrive();
        out[base + i] = v;
      }
      if (s == S - 1)
        parity = !parity;
    }
  }
}

template <int S>
__device__ __forceinline__ void cupipeRing(uint32_t *__restrict__ out,
                                           int32_t n) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> state;
  __shared__ uint32_t ring[S];
  auto block = cooperative_groups::this_thread_block();
  const bool producer = threadIdx.x < 32;
  auto pipe = cuda::make_pipeline(block, &state,
                                  producer ? cuda::pipeline_role::producer
                                           : cuda::pipeline_role::consumer);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  if (producer) {
    for (int32_t i = 0; i < n; ++i) {
      pipe.producer_acquire();
      if (lane == 0)
        ring[i % S] = mix32(base + i);
      pipe.producer_commit();
    }
  } else {
    volatile uint32_t *slots = ring;
    for (int32_t i = 0; i < n; ++i) {
      pipe.consumer_wait();
      uint32_t v = slots[i % S];
      pipe.consumer_release();
      if (lane == 0)
        out[base + i] = v;
    }
  }
  // Every thread of the block takes part in the pipeline's teardown.
  pipe.quit();
}

} // namespace

#define HANDOFF_KERNELS(S)                                                     \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      hand_s##S##_lane0(uint32_t *out, int32_t n) {                            \
    handRing<S, false, false>(out, n);                                         \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      hand_s##S##_all(uint32_t *out, int32_t n) {                              \
    handRing<S, true, false>(out, n);                                          \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      handx_s##S##_lane0(uint32_t *out, int32_t n) {                           \
    handRing<S, false, true>(out, n);                                          \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      handx_s##S##_all(uint32_t *out, int32_t n) {                             \
    handRing<S, true, true>(out, n);                                           \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      rolled_s##S##_lane0(uint32_t *out, int32_t n) {                          \
    rolledRing<S, false>(out, n);                                              \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      rolled_s##S##_all(uint32_t *out, int32_t n) {                            \
    rolledRing<S, true>(out, n);                                               \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      cubar_s##S##_lane0(uint32_t *out, int32_t n) {                           \
    cubarRing<S, false>(out, n);                                               \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      cubar_s##S##_all(uint32_t *out, int32_t n) {                             \
    cubarRing<S, true>(out, n);                                                \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      cupipe_s##S##_all(uint32_t *out, int32_t n) {                            \
    cupipeRing<S>(out, n);                                                     \
  }

HANDOFF_KERNELS(1)
HANDOFF_KERNELS(2)
HANDOFF_KERNELS(3)
HANDOFF_KERNELS(4)
HANDOFF_KERNELS(8)
