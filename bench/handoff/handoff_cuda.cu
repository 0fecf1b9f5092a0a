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
// Other expert forms of the tuned ring (handx), each its own kernel:
//   nohint_s<S>_<M>   handx waiting without the suspend-time hint
//                     (try_wait.parity P, [bar], parity; the hardware's
//                     own time limit);
//   spin_s<S>_<M>     handx waiting with a test_wait.parity spin (never
//                     suspends);
//   pred_s<S>_<M>     one round of S items per iteration, the phase a
//                     predicate flipped by `not.pred` once per round, each
//                     wait selecting an immediate parity with it (@PH / @!PH
//                     try_wait.parity);
//   ahead_s<S>_<M>    (S >= 2) two waits in flight: before waiting for item
//                     i each role issues a bare try_wait (no retry) for
//                     item i + 1 and skips item i + 1's wait loop if that
//                     try succeeded; two rounds (2 S items) per iteration,
//                     every parity a constant;
//   aheadst_s<S>_<M>  (S >= 2) ahead with the consumer's global store of
//                     item i deferred past item i + 1's load.
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
//
// Tuned rings can wait in other forms (template parameter Wait):
//   Hint    the hinted try_wait.parity loop (hand, handx);
//   NoHint  the same loop without the suspend-time hint (nohint);
//   Spin    a test_wait.parity loop, never suspending (spin);
//   Pred    the hinted loop with the parity as a predicate selecting
//           immediate parity operands (pred).
enum class Wait { Hint, NoHint, Spin, Pred };

template <bool Tuned, Wait W = Wait::Hint>
__device__ __forceinline__ void waitOn(uint32_t bar, uint32_t parity) {
  if (!Tuned)
    mbarWait(bar, parity);
  else if (W == Wait::NoHint)
    mbarWaitNoHint(bar, parity);
  else if (W == Wait::Spin)
    mbarWaitSpin(bar, parity);
  else if (W == Wait::Pred)
    mbarWaitPred(bar, parity);
  else
    mbarWaitUni(bar, parity);
}

// One producer item at stage `s` (a constant after unrolling).
template <int S, bool All, bool Tuned, Wait W = Wait::Hint>
__device__ __forceinline__ void
produceAt(uint32_t full, uint32_t empty, uint32_t *ring, uint32_t slots,
          uint32_t s, uint32_t parity, uint32_t lane, uint32_t x) {
  waitOn<Tuned, W>(empty + 8 * s, parity);
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

template <int S, bool All, bool Tuned, Wait W = Wait::Hint>
__device__ __forceinline__ void
consumeAt(uint32_t full, uint32_t empty, volatile uint32_t *ring,
          uint32_t slots, uint32_t s, uint32_t parity, uint32_t lane,
          uint32_t *out) {
  waitOn<Tuned, W>(full + 8 * s, parity);
  if (All || lane == 0) {
    uint32_t v = Tuned ? ldShared(slots + 4 * s) : ring[s];
    mbarArrive(empty + 8 * s);
    if (lane == 0)
      *out = v;
  }
}

// A ring's setup: its barriers initialized and the shared-memory addresses
// of the full and empty barriers and the slots; with Opaque, hidden from
// the compilers so that they stay in registers instead of being rebuilt
// from the shared window's base at every access.
template <int S, bool All, bool Opaque>
__device__ __forceinline__ void ringSetup(uint64_t *bars, uint32_t *ring,
                                          uint32_t &full, uint32_t &empty,
                                          uint32_t &slots) {
  initBarriers<S, All>(bars);
  full = smem(&bars[0]);
  empty = smem(&bars[S]);
  slots = smem(&ring[0]);
  if (Opaque)
    asm("" : "+r"(full), "+r"(empty), "+r"(slots));
}

template <int S, bool All, bool Tuned, Wait W = Wait::Hint>
__device__ __forceinline__ void handRing(uint32_t *__restrict__ out,
                                         int32_t n) {
  __shared__ alignas(8) uint64_t bars[2 * S];
  __shared__ uint32_t ring[S];
  uint32_t full, empty, slots;
  ringSetup<S, All, Tuned>(bars, ring, full, empty, slots);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  const int32_t rounds = n / S, tail = n % S;
  if (threadIdx.x < 32) {
    uint32_t parity = 1, x = base;
    for (int32_t r = 0; r < rounds; ++r) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        produceAt<S, All, Tuned, W>(full, empty, ring, slots, s, parity, lane,
                                    x + s);
      x += S;
      parity ^= 1;
    }
    for (int32_t s = 0; s < tail; ++s)
      produceAt<S, All, Tuned, W>(full, empty, ring, slots, s, parity, lane,
                                  x + s);
    // Drain: wait until the consumer has freed every stage.
    for (int32_t k = 0; k < S; ++k) {
      int32_t s = tail + k;
      waitOn<Tuned, W>(empty + 8 * (s % S), s >= S ? parity ^ 1 : parity);
    }
  } else {
    uint32_t parity = 0, x = base;
    for (int32_t r = 0; r < rounds; ++r) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        consumeAt<S, All, Tuned, W>(full, empty, ring, slots, s, parity, lane,
                                    &out[x + s]);
      x += S;
      parity ^= 1;
    }
    for (int32_t s = 0; s < tail; ++s)
      consumeAt<S, All, Tuned, W>(full, empty, ring, slots, s, parity, lane,
                                  &out[x + s]);
  }
}

// The tuned ring with the phase as a predicate: one round of S items per
// iteration (`#pragma unroll 1`: unrolled further, nvcc folds the phase of
// every copy to a constant and the predicate disappears), the phase a
// `bool` that a `not.pred` flips once per round, every wait selecting its
// immediate parity operand with it (mbarWaitPred).
template <int S, bool All>
__device__ __forceinline__ void predRing(uint32_t *__restrict__ out,
                                         int32_t n) {
  __shared__ alignas(8) uint64_t bars[2 * S];
  __shared__ uint32_t ring[S];
  uint32_t full, empty, slots;
  ringSetup<S, All, true>(bars, ring, full, empty, slots);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  const int32_t rounds = n / S, tail = n % S;
  constexpr Wait W = Wait::Pred;
  if (threadIdx.x < 32) {
    bool phase = true;
    uint32_t x = base;
#pragma unroll 1
    for (int32_t r = 0; r < rounds; ++r) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        produceAt<S, All, true, W>(full, empty, ring, slots, s, phase, lane,
                                   x + s);
      x += S;
      phase = !phase;
    }
    for (int32_t s = 0; s < tail; ++s)
      produceAt<S, All, true, W>(full, empty, ring, slots, s, phase, lane,
                                 x + s);
    for (int32_t k = 0; k < S; ++k) {
      int32_t s = tail + k;
      waitOn<true, W>(empty + 8 * (s % S), s >= S ? !phase : phase);
    }
  } else {
    bool phase = false;
    uint32_t x = base;
#pragma unroll 1
    for (int32_t r = 0; r < rounds; ++r) {
#pragma unroll
      for (uint32_t s = 0; s < S; ++s)
        consumeAt<S, All, true, W>(full, empty, ring, slots, s, phase, lane,
                                   &out[x + s]);
      x += S;
      phase = !phase;
    }
    for (int32_t s = 0; s < tail; ++s)
      consumeAt<S, All, true, W>(full, empty, ring, slots, s, phase, lane,
                                 &out[x + s]);
  }
}

// One role of the look-ahead ring: `n` items, item i waited on barrier
// `bars + 8 * (i % S)` with parity ((i / S) & 1) ^ flip, then done by
// `work(i % S, i)`. Before it waits for item i, the role tries item i + 1
// (mbarTryWait, no retry), so that two waits are in flight: the try's
// latency overlaps item i's wait and work, and item i + 1 waits only if
// its try failed. The loop runs two rounds of the ring (2 S items) per
// iteration: every stage and parity is a constant. Needs S >= 2 (with one
// stage, item i + 1 needs this role's own signal for item i).
template <int S, typename Work>
__device__ __forceinline__ void aheadLoop(uint32_t bars, uint32_t flip,
                                          int32_t n, Work work) {
  constexpr int32_t L = 2 * S;
  if (n <= 0)
    return;
  uint32_t ready = mbarTryWait(bars, flip);
  int32_t i = 0;
  for (; i + L < n; i += L) {
#pragma unroll
    for (int32_t j = 0; j < L; ++j) {
      const uint32_t next =
          mbarTryWait(bars + 8 * ((j + 1) % S), (((j + 1) / S) & 1) ^ flip);
      mbarWaitUnless(bars + 8 * (j % S), ((j / S) & 1) ^ flip, ready);
      work(j % S, i + j);
      ready = next;
    }
  }
  // The last 1 to 2 S items (the first of them tried already).
#pragma unroll 1
  for (int32_t j = 0; i + j < n; ++j) {
    mbarWaitUnless(bars + 8 * (j % S), ((j / S) & 1) ^ flip, ready);
    work(j % S, i + j);
    ready = 0;
  }
}

// The look-ahead ring: the tuned ring's barriers, slots and signals, both
// roles waiting through aheadLoop. DeferStore: the consumer's lane 0
// writes item i to global memory after the load of item i + 1, so that the
// store does not wait for its own load before the next try is issued.
template <int S, bool All, bool DeferStore>
__device__ __forceinline__ void aheadRing(uint32_t *__restrict__ out,
                                          int32_t n) {
  static_assert(S >= 2, "the look-ahead ring needs two stages");
  __shared__ alignas(8) uint64_t bars[2 * S];
  __shared__ uint32_t ring[S];
  uint32_t full, empty, slots;
  ringSetup<S, All, true>(bars, ring, full, empty, slots);
  const uint32_t lane = threadIdx.x % 32;
  const uint32_t base = blockIdx.x * static_cast<uint32_t>(n);
  if (threadIdx.x < 32) {
    aheadLoop<S>(empty, 1, n, [&](uint32_t s, int32_t i) {
      if (lane == 0) {
        stShared(slots + 4 * s, mix32(base + i));
        if (!All)
          mbarArrive(full + 8 * s);
      }
      if (All)
        mbarArrive(full + 8 * s);
    });
    // Drain: items n .. n + S - 1 of the empty barriers.
    for (int32_t i = n; i < n + S; ++i)
      mbarWaitUni(empty + 8 * (i % S), ((i / S) & 1) ^ 1);
  } else {
    uint32_t *dst = out + base;
    uint32_t prev = 0;
    aheadLoop<S>(full, 0, n, [&](uint32_t s, int32_t i) {
      if (All || lane == 0) {
        uint32_t v = ldShared(slots + 4 * s);
        mbarArrive(empty + 8 * s);
        if (lane == 0) {
          if (!DeferStore) {
            dst[i] = v;
          } else {
            if (i > 0)
              dst[i - 1] = prev;
            prev = v;
          }
        }
      }
    });
    if (DeferStore && lane == 0 && n > 0)
      dst[n - 1] = prev;
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

// The other wait forms of the tuned ring, every S.
#define WAIT_FORM_KERNELS(S, MODE, ALL)                                        \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      nohint_s##S##_##MODE(uint32_t *out, int32_t n) {                         \
    handRing<S, ALL, true, Wait::NoHint>(out, n);                              \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      spin_s##S##_##MODE(uint32_t *out, int32_t n) {                           \
    handRing<S, ALL, true, Wait::Spin>(out, n);                                \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      pred_s##S##_##MODE(uint32_t *out, int32_t n) {                           \
    predRing<S, ALL>(out, n);                                                  \
  }

// The look-ahead rings, S >= 2.
#define AHEAD_KERNELS(S, MODE, ALL)                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      ahead_s##S##_##MODE(uint32_t *out, int32_t n) {                          \
    aheadRing<S, ALL, false>(out, n);                                          \
  }                                                                            \
  extern "C" __global__ void __launch_bounds__(64, 1)                          \
      aheadst_s##S##_##MODE(uint32_t *out, int32_t n) {                        \
    aheadRing<S, ALL, true>(out, n);                                           \
  }

#define ALL_KERNELS(S)                                                         \
  HANDOFF_KERNELS(S)                                                           \
  WAIT_FORM_KERNELS(S, lane0, false)                                           \
  WAIT_FORM_KERNELS(S, all, true)

#define ALL_KERNELS_AHEAD(S)                                                   \
  ALL_KERNELS(S)                                                               \
  AHEAD_KERNELS(S, lane0, false)                                               \
  AHEAD_KERNELS(S, all, true)

ALL_KERNELS(1)
ALL_KERNELS_AHEAD(2)
ALL_KERNELS_AHEAD(3)
ALL_KERNELS_AHEAD(4)
ALL_KERNELS_AHEAD(8)
