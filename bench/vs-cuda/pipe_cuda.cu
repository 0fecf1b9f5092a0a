// The hand-written CUDA side of the dialect-vs-CUDA benchmark
// (docs/benchmarks.md): the same kernels as pipe_dialect.mlir, written the way
// a CUTLASS-style kernel is written: mbarriers through inline PTX, the role
// state (stage index, phase) of each side in registers, advanced by a small
// state object.
//
// Kernels (extern "C"), S = 2, 4, 8: pipe_cuda_s<S> (the item loops kept
// rolled with `#pragma unroll 1`, one item per iteration as in the dialect
// kernels), pipe_cuda_unrolled_s<S> (the same source, item loops unrolled as
// nvcc chooses), and two diagnostics, pipe_cuda_tuned_s<S> and
// pipe_cuda_nostore_s<S> (see Kind below). Block of 64 threads, dynamic
// shared memory S * 128 bytes (the ring), barriers static. Arguments: out
// (u32 *, item i of block b at b * n + i), errors (u32 *, mismatch count of
// block b, lane l at b * 32 + l), n (items per block).
//
// Compile: nvcc -arch=sm_90a -cubin -O3 -o pipe_cuda.cubin pipe_cuda.cu

#include <cstdint>

namespace {

// Suspend-time hint of the blocking wait, the same as the dialect lowering's.
constexpr uint32_t kSuspendHintNs = 10000000;

__device__ __forceinline__ uint32_t sharedAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarInit(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
               : "memory");
}

__device__ __forceinline__ void mbarInitFence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Blocks until the phase of `bar` with parity `parity` has completed.
__device__ __forceinline__ void mbarWait(uint32_t bar, uint32_t parity) {
  asm volatile(
      "{\n\t"
      ".reg .pred ready;\n"
      "retry:\n\t"
      "mbarrier.try_wait.parity.shared::cta.b64 ready, [%0], %1, %2;\n\t"
      "@ready bra.uni done;\n\t"
      "bra.uni retry;\n"
      "done:\n\t"
      "}" ::"r"(bar),
      "r"(parity), "r"(kSuspendHintNs)
      : "memory");
}

__device__ __forceinline__ void mbarArrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar)
               : "memory");
}

// Where one role is in the ring: the stage it works on next and the parity
// of the barrier phase it waits for there.
template <int Stages> struct RingPosition {
  uint32_t stage;
  uint32_t phase;

  __device__ __forceinline__ void advance() {
    ++stage;
    if (stage == Stages) {
      stage = 0;
      phase ^= 1;
    }
  }
};

__device__ __forceinline__ uint32_t mix32(uint32_t x) {
  x *= 0x9E3779B1u;
  return x ^ (x >> 16);
}

// How a kernel is written (the template parameter Kind):
//   kRolled   one item per loop iteration (`#pragma unroll 1`), the loop
//             structure of the dialect kernels;
//   kUnrolled the same source, item loops unrolled as nvcc likes;
//   kTuned    rolled, and each role also carries its barrier address and
//             ring slot pointer from stage to stage (advanced by adding the
//             stride, rewound at the wrap), so the loop never rebuilds
//             them from the shared-memory symbols;
//   kNoStore  rolled, and the consumer writes no item: every lane folds the
//             items it reads into an XOR checksum, stored once at the end in
//             out[b * 32 + l] (a diagnostic: the handshake without the
//             global store).
enum Kind { kRolled, kUnrolled, kTuned, kNoStore };

template <int Stages, int K>
__device__ __forceinline__ void
pipeBody(uint32_t *__restrict__ out, uint32_t *__restrict__ errors, int32_t n) {
  // Full barriers [0, Stages): the producer arrives, the consumer waits.
  // Empty barriers [Stages, 2 * Stages): the consumer arrives, the producer
  // waits. Counts 32: every lane of the signalling warp arrives.
  __shared__ alignas(8) uint64_t bars[2 * Stages];
  extern __shared__ uint32_t ring[]; // [Stages][32]

  const uint32_t tid = threadIdx.x;
  const uint32_t warp = tid / 32;
  const uint32_t lane = tid % 32;
  const uint32_t block = blockIdx.x;
  const uint32_t fullBase = sharedAddress(&bars[0]);
  const uint32_t emptyBase = sharedAddress(&bars[Stages]);
  constexpr uint32_t kEmptyOffset = 8 * Stages; // empty(s) - full(s), bytes

  if (tid == 0) {
    for (int s = 0; s < Stages; ++s) {
      mbarInit(fullBase + 8 * s, 32);
      mbarInit(emptyBase + 8 * s, 32);
    }
    mbarInitFence();
  }
  __syncthreads();

  // kTuned: the full barrier and the slot of the current stage.
  uint32_t fullAddr = fullBase;
  uint32_t *slot = &ring[lane];
  auto advanceTuned = [&](RingPosition<Stages> &pos) {
    if (pos.stage == Stages - 1) {
      fullAddr -= 8 * (Stages - 1);
      slot -= 32 * (Stages - 1);
    } else {
      fullAddr += 8;
      slot += 32;
    }
    pos.advance();
  };

  if (warp == 0) {
    // Producer: starts on stage 0 waiting for parity 1, which an mbarrier in
    // its first phase reports as complete (every stage starts empty).
    RingPosition<Stages> pos{0, 1};
    auto produce = [&](int32_t i) {
      uint32_t v = mix32(static_cast<uint32_t>(i) * 32 + lane) ^ block;
      if constexpr (K == kTuned) {
        mbarWait(fullAddr + kEmptyOffset, pos.phase);
        *slot = v;
        mbarArrive(fullAddr);
        advanceTuned(pos);
      } else {
        mbarWait(emptyBase + 8 * pos.stage, pos.phase);
        ring[pos.stage * 32 + lane] = v;
        mbarArrive(fullBase + 8 * pos.stage);
        pos.advance();
      }
    };
    if constexpr (K == kUnrolled) {
      for (int32_t i = 0; i < n; ++i)
        produce(i);
    } else {
#pragma unroll 1
      for (int32_t i = 0; i < n; ++i)
        produce(i);
    }
    // Drain: wait until the consumer has freed every stage.
    for (int s = 0; s < Stages; ++s) {
      mbarWait(emptyBase + 8 * pos.stage, pos.phase);
      pos.advance();
    }
  } else {
    // Consumer: starts on stage 0 waiting for parity 0 (the first fill).
    RingPosition<Stages> pos{0, 0};
    uint32_t bad = 0;
    uint32_t sum = 0;
    auto consume = [&](int32_t i) {
      uint32_t want = mix32(static_cast<uint32_t>(i) * 32 + lane) ^ block;
      uint32_t got;
      if constexpr (K == kTuned) {
        mbarWait(fullAddr, pos.phase);
        got = *slot;
        mbarArrive(fullAddr + kEmptyOffset);
        advanceTuned(pos);
      } else {
        mbarWait(fullBase + 8 * pos.stage, pos.phase);
        got = ring[pos.stage * 32 + lane];
        mbarArrive(emptyBase + 8 * pos.stage);
        pos.advance();
      }
      if constexpr (K == kNoStore) {
        sum ^= got;
      } else {
        if (lane == 0)
          out[static_cast<uint64_t>(block) * static_cast<uint32_t>(n) + i] =
              got;
      }
      bad += got != want;
    };
    if constexpr (K == kUnrolled) {
      for (int32_t i = 0; i < n; ++i)
        consume(i);
    } else {
#pragma unroll 1
      for (int32_t i = 0; i < n; ++i)
        consume(i);
    }
    errors[block * 32 + lane] = bad;
    if constexpr (K == kNoStore)
      out[block * 32 + lane] = sum;
  }
}

} // namespace

// One item per iteration, like the dialect kernels.
extern "C" __global__ void pipe_cuda_s2(uint32_t *out, uint32_t *errors,
                                        int32_t n) {
  pipeBody<2, kRolled>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_s4(uint32_t *out, uint32_t *errors,
                                        int32_t n) {
  pipeBody<4, kRolled>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_s8(uint32_t *out, uint32_t *errors,
                                        int32_t n) {
  pipeBody<8, kRolled>(out, errors, n);
}

// The same source with nvcc's own unrolling of the item loops.
extern "C" __global__ void pipe_cuda_unrolled_s2(uint32_t *out,
                                                 uint32_t *errors, int32_t n) {
  pipeBody<2, kUnrolled>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_unrolled_s4(uint32_t *out,
                                                 uint32_t *errors, int32_t n) {
  pipeBody<4, kUnrolled>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_unrolled_s8(uint32_t *out,
                                                 uint32_t *errors, int32_t n) {
  pipeBody<8, kUnrolled>(out, errors, n);
}

// Rolled, barrier address and slot carried from stage to stage (kTuned).
extern "C" __global__ void pipe_cuda_tuned_s2(uint32_t *out, uint32_t *errors,
                                              int32_t n) {
  pipeBody<2, kTuned>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_tuned_s4(uint32_t *out, uint32_t *errors,
                                              int32_t n) {
  pipeBody<4, kTuned>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_tuned_s8(uint32_t *out, uint32_t *errors,
                                              int32_t n) {
  pipeBody<8, kTuned>(out, errors, n);
}

// Diagnostic: no item stored, XOR checksum per lane (kNoStore).
extern "C" __global__ void pipe_cuda_nostore_s2(uint32_t *out, uint32_t *errors,
                                                int32_t n) {
  pipeBody<2, kNoStore>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_nostore_s4(uint32_t *out, uint32_t *errors,
                                                int32_t n) {
  pipeBody<4, kNoStore>(out, errors, n);
}

extern "C" __global__ void pipe_cuda_nostore_s8(uint32_t *out, uint32_t *errors,
                                                int32_t n) {
  pipeBody<8, kNoStore>(out, errors, n);
}
