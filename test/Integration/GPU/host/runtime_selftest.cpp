//===- runtime_selftest.cpp - checks of the host runtime itself -----------===//
//
// Not one of the pipeline kernels: a few hand-written PTX kernels, JIT-compiled
// by the driver, that check the runtime on its own (argument passing, copies,
// the cluster launch attribute, dynamic shared memory), so that a failing
// pipeline test can be told apart from a broken runtime.
//
// `--hang` runs a kernel that spins for about 10 s with a 2 s watchdog: the
// runtime must print "HANG: hang in test selftest_hang" and exit with status
// 3 (run-all.sh checks this).
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

const char *kPtx = R"PTX(
.version 8.0
.target sm_90
.address_size 64

// out[i] = i ^ 0x5bd1e995 + seed for i < n (one thread per element)
.visible .entry fill(.param .u64 out, .param .u32 n, .param .u32 seed)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r6, [seed];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.u32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p, %r5, %r1;
  @%p bra DONE;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r5, 4;
  add.u64 %rd2, %rd2, %rd3;
  xor.b32 %r7, %r5, 0x5bd1e995;
  add.u32 %r7, %r7, %r6;
  st.global.u32 [%rd2], %r7;
DONE:
  ret;
}

// out[ctaid.x] = cluster_ctarank | cluster_nctarank << 8, written through
// dynamic shared memory (thread 0).
.extern .shared .align 16 .b8 dyn[];
.visible .entry cluster_ids(.param .u64 out)
{
  .reg .pred %p;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p, %r1, 0;
  @%p bra DONE;
  ld.param.u64 %rd1, [out];
  mov.u32 %r2, %cluster_ctarank;
  mov.u32 %r3, %cluster_nctarank;
  shl.b32 %r3, %r3, 8;
  or.b32 %r4, %r2, %r3;
  st.shared.u32 [dyn+4092], %r4;
  ld.shared.u32 %r5, [dyn+4092];
  mov.u32 %r6, %ctaid.x;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r6, 4;
  add.u64 %rd2, %rd2, %rd3;
  st.global.u32 [%rd2], %r5;
DONE:
  ret;
}

// Spins for `cycles` clock cycles.
.visible .entry spin(.param .u64 cycles)
{
  .reg .pred %p;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [cycles];
  mov.u64 %rd2, %clock64;
LOOP:
  mov.u64 %rd3, %clock64;
  sub.u64 %rd4, %rd3, %rd2;
  setp.lt.u64 %p, %rd4, %rd1;
  @%p bra LOOP;
  ret;
}
)PTX";

} // namespace

int main(int argc, char **argv) {
  bool hang = false;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--hang") == 0)
      hang = true;
  if (hang)
    setenv("PMRT_TIMEOUT_S", "2", 1);

  pmrt::init();
  pmrt::Report report("runtime_selftest");
  std::string ptxPath =
      "/tmp/pmrt_selftest_" + std::to_string(getpid()) + ".ptx";
  {
    std::ofstream f(ptxPath);
    f << kPtx;
  }
  CUmodule module = pmrt::loadModule(ptxPath);
  std::remove(ptxPath.c_str());

  if (hang) {
    CUfunction spin = pmrt::getKernel(module, "spin");
    pmrt::LaunchConfig cfg;
    pmrt::KernelArgs args;
    args.i64(20000000000LL); // ~10 s at 2 GHz: ends on its own if not killed
    pmrt::launchAndWait("selftest_hang", spin, cfg, args);
    report.check("selftest_hang", false, "the watchdog did not fire");
    return report.finish();
  }

  {
    CUfunction fill = pmrt::getKernel(module, "fill");
    const unsigned n = 100003;
    pmrt::DeviceBuffer out((n + 5) * 4);
    out.fill32(0xDEADBEEFu);
    pmrt::LaunchConfig cfg;
    cfg.grid[0] = (n + 255) / 256;
    cfg.block[0] = 256;
    pmrt::KernelArgs args;
    args.ptr(out.ptr()).i32(n).i32(7);
    pmrt::launchAndWait("selftest_fill", fill, cfg, args);
    std::vector<uint32_t> want(n + 5, 0xDEADBEEFu);
    for (unsigned i = 0; i < n; ++i)
      want[i] = (i ^ 0x5bd1e995u) + 7u;
    std::string why;
    bool ok = pmrt::compareU32(out.download<uint32_t>(n + 5), want, why);
    report.check("selftest_fill (arguments, copies)", ok, why);
  }
  {
    CUfunction ids = pmrt::getKernel(module, "cluster_ids");
    const unsigned blocks = 8;
    pmrt::DeviceBuffer out(blocks * 4);
    out.fill32(0xDEADBEEFu);
    pmrt::LaunchConfig cfg;
    cfg.grid[0] = blocks;
    cfg.block[0] = 32;
    cfg.cluster[0] = 2;
    cfg.dynamicSmem = 64 * 1024; // above the default 48 KiB limit
    pmrt::KernelArgs args;
    args.ptr(out.ptr());
    pmrt::launchAndWait("selftest_cluster", ids, cfg, args);
    std::vector<uint32_t> want(blocks);
    for (unsigned b = 0; b < blocks; ++b)
      want[b] = (b % 2) | (2u << 8);
    std::string why;
    bool ok = pmrt::compareU32(out.download<uint32_t>(blocks), want, why);
    report.check("selftest_cluster (cluster dims, 64 KiB dynamic smem)", ok,
                 why);
  }
  return report.finish();
}
