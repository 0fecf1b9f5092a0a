//===- cluster.cpp - host side of kernel family 6 -------------------------===//
//
// A pipeline shared by the 2 CTAs of a cluster (cta_group = 2): remote
// releases to the leader, drain_producer, multicast TMA to both CTAs.
//
//===----------------------------------------------------------------------===//

#include "pmrt.h"

#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kRows = 256, kCols = 128, kTile = 32, kStages = 2;
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
  pmrt::TensorMap2D map(src.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, kRows,
                        kCols, kTile, kTile);
  pmrt::DeviceBuffer out(kBlocks * source.size() * 4);
  out.fill32(kPoison);

  pmrt::LaunchConfig cfg;
  cfg.grid[0] = kBlocks;
  cfg.cluster[0] = 2;
  cfg.block[0] = 64;
  cfg.dynamicSmem = 256 + kStages * kTile * kTile * 4;
  pmrt::KernelArgs args;
  args.ptr(map.devicePtr()).ptr(out.ptr());
  pmrt::launchAndWait("cluster_multicast", fn, cfg, args);

  // Rank 0 of each cluster received its tiles as the issuer of the
  // multicast, rank 1 as its second destination.
  std::vector<uint32_t> got = out.download<uint32_t>(kBlocks * source.size());
  for (unsigned rank = 0; rank < 2; ++rank) {
    bool ok = true;
    std::string why;
    for (unsigned b = rank; b < kBlocks; b += 2) {
      std::vector<uint32_t> copy(got.begin() + b * source.size(),
                                 got.begin() + (b + 1) * source.size());
      std::string whyCopy;
      if (!pmrt::compareU32(copy, source, whyCopy)) {
        ok = false;
        why += "block " + std::to_string(b) + ": " + whyCopy + "; ";
      }
    }
    report.check(std::string("cluster_multicast ") +
                     (rank == 0 ? "leader CTAs" : "peer CTAs"),
                 ok, why);
  }
  return report.finish();
}
