//===- cluster.cpp - host side of kernel family 6 -------------------------===//
//
// The sm_90a analogue of the Blackwell 2-CTA input pipeline: a tile pipeline
// with release_ctas = 2 shared by the 2 CTAs of each cluster. Each CTA's
// producer multicasts HALF of every tile (a TMA box of 16 x 32) into both
// CTAs; each CTA's consumer copies the whole tile out and frees the stage in
// both CTAs. Every CTA must end up with the whole source matrix.
//
// cluster_cross: a 2 x 2 multicast cluster (cluster_m = cluster_n = 2).
// CTA (m, n) (rank m + 2 n) receives the A tiles of plane m of A and the B
// tiles of plane n of B, half of each tile from its own load and half from
// the multicast of the other CTA of its m (A) or its n (B); its consumer's
// arrivals reach the 3 CTAs of its row-and-column cross. Every CTA must end
// up with its whole A plane and its whole B plane.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kRows = 256, kCols = 128, kTile = 32, kStages = 2;
// Each CTA of a cluster loads (and multicasts) this many rows of a tile.
constexpr unsigned kClusterSize = 2, kHalfRows = kTile / kClusterSize;
constexpr unsigned kBlocks = 16; // 8 clusters of 2; out is 16 x 256 x 128
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("cluster");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "cluster.cubin"));
  CUfunction fn = pmrt::getKernel(module, "cluster_multicast");

  std::vector<uint32_t> source(kRows * kCols);
  for (unsigned i = 0; i < source.size(); ++i)
    source[i] = pmrt::mix32(i) ^ 0x3C3Cu;
  pmrt::DeviceBuffer src(source.size() * 4);
  src.upload(source);
  // The box is half a tile (16 rows x 32 columns), the kernel's
  // !nvgpu.tensormap.descriptor<tensor = memref<16x32xi32, ...>>: each CTA
  // loads rows 16 * rank .. 16 * rank + 15 of every tile.
  pmrt::TensorMap2D map(src.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, kRows,
                        kCols, kHalfRows, kTile);
  pmrt::DeviceBuffer out(kBlocks * source.size() * 4);
  out.fill32(kPoison);

  pmrt::LaunchConfig cfg;
  cfg.grid[0] = kBlocks;
  cfg.cluster[0] = kClusterSize;
  cfg.block[0] = 64; // warp 0: producer (lane 0), warp 1: consumer
  // Barriers (< 64 bytes), up to 127 bytes of alignment padding, payload.
  cfg.dynamicSmem = 256 + kStages * kTile * kTile * 4;
  pmrt::KernelArgs args;
  args.ptr(map.devicePtr()).ptr(out.ptr());
  pmrt::launchAndWait("cluster_multicast", fn, cfg, args);

  // Every CTA received one half of each tile from its own load and the
  // other half from the peer's multicast: each of the 16 copies must equal
  // the whole source. Blocks 2c and 2c + 1 form cluster c (cluster dims
  // (2, 1, 1)), so block b has cluster rank b % 2.
  std::vector<uint32_t> got = out.download<uint32_t>(kBlocks * source.size());
  for (unsigned rank = 0; rank < kClusterSize; ++rank) {
    bool ok = true;
    std::string why;
    for (unsigned b = rank; b < kBlocks; b += kClusterSize) {
      std::vector<uint32_t> copy(got.begin() + b * source.size(),
                                 got.begin() + (b + 1) * source.size());
      std::string whyCopy;
      if (!pmrt::compareU32(copy, source, whyCopy)) {
        ok = false;
        why += "block " + std::to_string(b) + ": " + whyCopy + "; ";
      }
    }
    report.check(std::string("cluster_multicast ") +
                     (rank == 0 ? "rank 0 CTAs" : "rank 1 CTAs"),
                 ok, why);
  }
  // The 2 x 2 cross: A and B are 2 planes of 256 x 128 each (512 x 128).
  {
    constexpr unsigned kCrossCtas = 4, kCrossBlocks = 16;
    constexpr unsigned kPlane = kRows * kCols;
    CUfunction cross = pmrt::getKernel(module, "cluster_cross");
    std::vector<uint32_t> hostA(2 * kPlane), hostB(2 * kPlane);
    for (unsigned i = 0; i < 2 * kPlane; ++i) {
      hostA[i] = pmrt::mix32(i) ^ 0xA5A5u;
      hostB[i] = pmrt::mix32(i + 7 * kPlane) ^ 0x5A5Au;
    }
    pmrt::DeviceBuffer a(hostA.size() * 4), b(hostB.size() * 4);
    a.upload(hostA);
    b.upload(hostB);
    pmrt::TensorMap2D mapA(a.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 2 * kRows,
                           kCols, kHalfRows, kTile);
    pmrt::TensorMap2D mapB(b.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 2 * kRows,
                           kCols, kHalfRows, kTile);
    pmrt::DeviceBuffer crossOut(kCrossBlocks * 2 * kPlane * 4);
    crossOut.fill32(kPoison);
    pmrt::LaunchConfig cc;
    cc.grid[0] = kCrossBlocks;
    cc.cluster[0] = kCrossCtas;
    cc.block[0] = 64;
    // Barriers, alignment padding, 2 stages x (A + B) tiles.
    cc.dynamicSmem = 256 + kStages * 2 * kTile * kTile * 4;
    pmrt::KernelArgs crossArgs;
    crossArgs.ptr(mapA.devicePtr()).ptr(mapB.devicePtr()).ptr(crossOut.ptr());
    pmrt::launchAndWait("cluster_cross", cross, cc, crossArgs);
    std::vector<uint32_t> got2 =
        crossOut.download<uint32_t>(kCrossBlocks * 2 * kPlane);
    for (unsigned rank = 0; rank < kCrossCtas; ++rank) {
      unsigned m = rank % 2, n = rank / 2;
      bool ok = true;
      std::string why;
      for (unsigned blk = rank; blk < kCrossBlocks; blk += kCrossCtas) {
        for (unsigned which = 0; which < 2; ++which) {
          const std::vector<uint32_t> &src = which == 0 ? hostA : hostB;
          unsigned plane = which == 0 ? m : n;
          std::vector<uint32_t> want(src.begin() + plane * kPlane,
                                     src.begin() + (plane + 1) * kPlane);
          auto first = got2.begin() + (size_t(blk) * 2 + which) * kPlane;
          std::vector<uint32_t> copy(first, first + kPlane);
          std::string whyCopy;
          if (!pmrt::compareU32(copy, want, whyCopy)) {
            ok = false;
            why += "block " + std::to_string(blk) +
                   (which == 0 ? " A: " : " B: ") + whyCopy + "; ";
          }
        }
      }
      report.check("cluster_cross CTA (m " + std::to_string(m) + ", n " +
                       std::to_string(n) + ")",
                   ok, why);
    }
  }
  return report.finish();
}
