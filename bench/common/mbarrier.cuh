// Hand-written mbarrier and TMA primitives in inline PTX, the way CUTLASS's
// include/cutlass/arch/barrier.h writes them, shared by the hand-written
// CUDA sides of the benchmarks (bench/handoff/handoff_cuda.cu,
// bench/handoff/copy_cuda.cu). Every function is in an anonymous namespace:
// each .cu file is its own translation unit and cubin.

#ifndef PIPELINE_BENCH_COMMON_MBARRIER_CUH
#define PIPELINE_BENCH_COMMON_MBARRIER_CUH

#include <cstdint>

namespace {

// Suspend-time hint of the blocking wait (CUTLASS's and Mojo's 0x989680 ns,
// the dialect lowering's).
constexpr uint32_t kSuspendHintNs = 0x989680;

// The 32-bit shared-window address of a shared-memory object.
__device__ __forceinline__ uint32_t smem(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarInit(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count)
               : "memory");
}

// After the inits, before the barrier that publishes them.
__device__ __forceinline__ void mbarInitFence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// CUTLASS ClusterBarrier::wait: blocks until the phase of `bar` with parity
// `parity` has completed.
__device__ __forceinline__ void mbarWait(uint32_t bar, uint32_t parity) {
  asm volatile("{\n\t"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2;\n\t"
               "@P1 bra DONE;\n\t"
               "bra LAB_WAIT;\n"
               "DONE:\n\t"
               "}" ::"r"(bar),
               "r"(parity), "r"(kSuspendHintNs)
               : "memory");
}

// The same wait with the branches marked uniform (every lane waits on the
// same phase).
__device__ __forceinline__ void mbarWaitUni(uint32_t bar, uint32_t parity) {
  asm volatile("{\n\t"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %2;\n\t"
               "@P1 bra.uni DONE;\n\t"
               "bra.uni LAB_WAIT;\n"
               "DONE:\n\t"
               "}" ::"r"(bar),
               "r"(parity), "r"(kSuspendHintNs)
               : "memory");
}

// The uniform wait without the suspend-time hint (the hardware's own time
// limit), as ThunderKittens and DeepGEMM write it.
__device__ __forceinline__ void mbarWaitNoHint(uint32_t bar, uint32_t parity) {
  asm volatile("{\n\t"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
               "@P1 bra.uni DONE;\n\t"
               "bra.uni LAB_WAIT;\n"
               "DONE:\n\t"
               "}" ::"r"(bar),
               "r"(parity)
               : "memory");
}

// A spin on test_wait.parity: polls without ever suspending the warp.
__device__ __forceinline__ void mbarWaitSpin(uint32_t bar, uint32_t parity) {
  asm volatile("{\n\t"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n\t"
               "mbarrier.test_wait.parity.shared::cta.b64 P1, [%0], %1;\n\t"
               "@!P1 bra.uni LAB_WAIT;\n\t"
               "}" ::"r"(bar),
               "r"(parity)
               : "memory");
}

// The uniform wait with the parity as a predicate: `phase` (0 or 1, a bool
// of the caller) becomes the predicate PH, and PH selects one of two tries
// whose parity operands are immediates, so that no parity register is
// computed from the phase.
__device__ __forceinline__ void mbarWaitPred(uint32_t bar, uint32_t phase) {
  asm volatile(
      "{\n\t"
      ".reg .pred P1, PH;\n\t"
      "setp.ne.b32 PH, %1, 0;\n"
      "LAB_WAIT:\n\t"
      "@PH mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 1, %2;\n\t"
      "@!PH mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0, %2;\n\t"
      "@P1 bra.uni DONE;\n\t"
      "bra.uni LAB_WAIT;\n"
      "DONE:\n\t"
      "}" ::"r"(bar),
      "r"(phase), "r"(kSuspendHintNs)
      : "memory");
}

// One try_wait.parity without the hint, no retry: 1 when the phase with
// parity `parity` has completed (then with the wait's acquire), else 0.
// Issued ahead of the work that does not need it, its latency overlaps
// that work.
__device__ __forceinline__ uint32_t mbarTryWait(uint32_t bar, uint32_t parity) {
  uint32_t ready;
  asm volatile("{\n\t"
               ".reg .pred P1;\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%1], %2;\n\t"
               "selp.u32 %0, 1, 0, P1;\n\t"
               "}"
               : "=r"(ready)
               : "r"(bar), "r"(parity)
               : "memory");
  return ready;
}

// The uniform hinted wait, skipped when `ready` (an mbarTryWait result on
// the same barrier and parity) is already 1.
__device__ __forceinline__ void mbarWaitUnless(uint32_t bar, uint32_t parity,
                                               uint32_t ready) {
  asm volatile("{\n\t"
               ".reg .pred P1;\n\t"
               "setp.ne.b32 P1, %2, 0;\n\t"
               "@P1 bra.uni DONE;\n"
               "LAB_WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1, %3;\n\t"
               "@!P1 bra.uni LAB_WAIT;\n"
               "DONE:\n\t"
               "}" ::"r"(bar),
               "r"(parity), "r"(ready), "r"(kSuspendHintNs)
               : "memory");
}

// CUTLASS ClusterBarrier::arrive.
__device__ __forceinline__ void mbarArrive(uint32_t bar) {
  asm volatile("{\n\t"
               ".reg .b64 state;\n\t"
               "mbarrier.arrive.shared::cta.b64 state, [%0];\n\t"
               "}" ::"r"(bar)
               : "memory");
}

// CUTLASS ClusterTransactionBarrier::arrive_and_expect_tx.
__device__ __forceinline__ void expectTx(uint32_t bar, uint32_t bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
      "r"(bytes)
      : "memory");
}

} // namespace

#endif // PIPELINE_BENCH_COMMON_MBARRIER_CUH
