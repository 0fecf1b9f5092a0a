//===- tma_tile.cpp - host side of kernel family 3 ------------------------===//
//
// A TMA-fed tile pipeline (k_group_size 1 and 2): the kernel copies a
// 256 x 128 i32 matrix tile by tile through the pipeline's payload.
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <string>
#include <vector>

namespace {
constexpr uint32_t kPoison = 0xDEADBEEFu;
constexpr unsigned kRows = 256, kCols = 128, kTile = 32, kStages = 3;
} // namespace

int main(int argc, char **argv) {
  pmrt::init();
  pmrt::Report report("tma_tile");
  CUmodule module =
      pmrt::loadModule(pmrt::cubinPath(argc, argv, "tma_tile.cubin"));

  std::vector<uint32_t> source(kRows * kCols);
  for (unsigned i = 0; i < source.size(); ++i)
    source[i] = pmrt::mix32(i) ^ 0x7777u;
  pmrt::DeviceBuffer src(source.size() * 4);
  src.upload(source);
  pmrt::TensorMap2D map(src.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, kRows,
                        kCols, kTile, kTile);
  pmrt::DeviceBuffer out(source.size() * 4);

  for (unsigned k : {1u, 2u}) {
    std::string name = "tma_tile_k" + std::to_string(k);
    CUfunction fn = pmrt::getKernel(module, name.c_str());
    out.fill32(kPoison);
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 64;
    // Barriers (< 64 bytes), up to 127 bytes of alignment padding, payload.
    cfg.dynamicSmem = 256 + kStages * k * kTile * kTile * 4;
    pmrt::KernelArgs args;
    args.ptr(map.devicePtr()).ptr(out.ptr());
    pmrt::launchAndWait(name.c_str(), fn, cfg, args);
    std::string why;
    bool ok =
        pmrt::compareU32(out.download<uint32_t>(source.size()), source, why);
    report.check(name, ok, why);
  }
  return report.finish();
}
