//===- pmrt-check.cpp - tests of the host runtime pmrt --------------------===//
//
// Checks of pmrt that need no GPU, and one mode that does:
//
//   pmrt-check --unit        parameter checks (TMA descriptor, launch
//                            geometry, option parsing, comparison, error
//                            texts); no driver call; PASS/FAIL lines
//   pmrt-check --init        pmrt::init(); with the toolkit's stub libcuda
//                            it must end with a clear driver error
//   pmrt-check --bad-tma     a TMA descriptor with a box row of 12 bytes:
//                            refused before any driver call
//   pmrt-check --bad-launch  a launch of 2048 threads per block: refused
//                            before any driver call
//   pmrt-check --gpu         init, buffer copies and fills, a TMA
//                            descriptor (needs a GPU)
//   pmrt-check --layout PTX KERNEL
//                            reads the parameter layout the compiler
//                            recorded for KERNEL in the PTX file, prints it,
//                            and packs arguments by it; no driver call
//   pmrt-check --gpu-layout MODULE KERNEL
//                            loads the module (cubin or PTX), prints the
//                            layout getKernel read from it, and launches
//                            KERNEL with a first argument of one byte too
//                            many: refused before the driver is called
//                            (needs a GPU)
//
//===----------------------------------------------------------------------===//

#include "pipeline-runtime/pmrt.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

int unitChecks() {
  pmrt::Report report("pmrt-check");
  const CUdeviceptr base = 0x10000; // never dereferenced
  const auto i32 = CU_TENSOR_MAP_DATA_TYPE_INT32;

  // TMA descriptor parameters.
  report.check("tma-valid",
               pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 16, 16).empty());
  report.check("tma-valid-one-row",
               pmrt::TensorMap2D::check(base, i32, 4, 1, 3, 1, 4).empty());
  std::string why = pmrt::TensorMap2D::check(base, i32, 2, 64, 64, 16, 16);
  report.check("tma-element-size", contains(why, "element size 2"), why);
  why = pmrt::TensorMap2D::check(base, static_cast<CUtensorMapDataType>(1000),
                                 4, 64, 64, 16, 16);
  report.check("tma-data-type", contains(why, "not a byte-sized type"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 0, 64, 16, 16);
  report.check("tma-zero-rows", contains(why, "global dims 0 x 64"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 3, 16, 4);
  report.check("tma-pitch", contains(why, "row pitch of 12 bytes"), why);
  why = pmrt::TensorMap2D::check(base + 8, i32, 4, 64, 64, 16, 16);
  report.check("tma-alignment", contains(why, "not 16-byte aligned"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 512, 16);
  report.check("tma-box-too-big", contains(why, "box 512 x 16"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 0, 16);
  report.check("tma-box-empty", contains(why, "box 0 x 16"), why);
  why = pmrt::TensorMap2D::check(base, i32, 4, 64, 64, 16, 3);
  report.check("tma-box-row", contains(why, "box row of 12 bytes"), why);

  // Kernel parameters of the kernel ABI: a dynamic rank-2 memref is six
  // parameters (pointer, offset, two sizes, two row-major strides); a
  // widened i2 is one byte.
  {
    pmrt::KernelArgs args;
    args.u8(3).memref(base, {5, 7}).i32(-1);
    void **params = args.data();
    auto i64At = [&](size_t i) {
      int64_t v;
      std::memcpy(&v, params[i], sizeof(v));
      return v;
    };
    CUdeviceptr ptr;
    std::memcpy(&ptr, params[1], sizeof(ptr));
    bool ok = args.size() == 8 && *static_cast<uint8_t *>(params[0]) == 3 &&
              ptr == base && i64At(2) == 0 && i64At(3) == 5 && i64At(4) == 7 &&
              i64At(5) == 7 && i64At(6) == 1 &&
              *static_cast<int32_t *>(params[7]) == -1;
    report.check("kernel-args-memref", ok,
                 "got " + std::to_string(args.size()) + " parameters");
    pmrt::KernelArgs strided;
    strided.memref(base, 3, {4}, {2});
    report.check("kernel-args-strided",
                 strided.size() == 4 &&
                     *static_cast<int64_t *>(strided.data()[1]) == 3 &&
                     *static_cast<int64_t *>(strided.data()[3]) == 2);
  }

  // The recorded parameter layout of a kernel k(i1, memref<?x4xi32>,
  // memref<8xf32>, i32), as pipeline-legalize-kernel-abi writes it.
  {
    const char *record =
        "abi version=1 args=4 params=9 bytes=68\n"
        "arg 0 kind=scalar type=i1\n"
        "param 0 arg=0 kind=scalar bits=1 offset=0 size=1 align=1\n"
        "arg 1 kind=memref rank=2 type=memref<?x4xi32>\n"
        "param 1 arg=1 kind=memref field=ptr offset=8 size=8 align=8\n"
        "param 2 arg=1 kind=memref field=offset offset=16 size=8 align=8\n"
        "param 3 arg=1 kind=memref field=size dim=0 offset=24 size=8 "
        "align=8\n"
        "param 4 arg=1 kind=memref field=size dim=1 offset=32 size=8 "
        "align=8\n"
        "param 5 arg=1 kind=memref field=stride dim=0 offset=40 size=8 "
        "align=8\n"
        "param 6 arg=1 kind=memref field=stride dim=1 offset=48 size=8 "
        "align=8\n"
        "arg 2 kind=memref rank=1 type=memref<8xf32>\n"
        "param 7 arg=2 kind=memref field=ptr offset=56 size=8 align=8\n"
        "arg 3 kind=scalar type=i32\n"
        "param 8 arg=3 kind=scalar bits=32 offset=64 size=4 align=4\n";
    pmrt::KernelLayout layout;
    why = pmrt::parseKernelLayout(record, layout);
    report.check(
        "layout-parse",
        why.empty() && layout.args.size() == 4 && layout.params.size() == 9 &&
            layout.bytes == 68 && layout.args[1].rank == 2 &&
            layout.args[1].params.size() == 6 &&
            layout.params[5].field == "stride" && layout.params[5].dim == 0 &&
            layout.params[8].bits == 32 && layout.params[8].offset == 64 &&
            layout.args[2].type == "memref<8xf32>",
        why);
    // By argument: memref() passes a dynamic memref's six fields and a
    // static one's pointer alone.
    const CUdeviceptr other = 0x20000;
    pmrt::KernelArgs args;
    args.u8(1).memref(base, {5, 4}).memref(other, {8}).i32(-7);
    std::vector<void *> params;
    why = args.pack(layout, params);
    auto at = [&](size_t i) {
      int64_t v = 0;
      std::memcpy(&v, params[i], 8);
      return v;
    };
    report.check("layout-pack-memrefs",
                 why.empty() && params.size() == 9 &&
                     *static_cast<uint8_t *>(params[0]) == 1 &&
                     at(1) == int64_t(base) && at(2) == 0 && at(3) == 5 &&
                     at(4) == 4 && at(5) == 4 && at(6) == 1 &&
                     at(7) == int64_t(other) &&
                     *static_cast<int32_t *>(params[8]) == -7,
                 why);
    // As given: one value per parameter, a dynamic memref field by field.
    pmrt::KernelArgs fields;
    fields.u8(1).ptr(base).i64(0).i64(5).i64(4).i64(4).i64(1).ptr(other).i32(3);
    why = fields.pack(layout, params);
    report.check("layout-pack-as-given", why.empty() && params.size() == 9,
                 why);
    // Refused, naming the argument and the parameter.
    pmrt::KernelArgs wide;
    wide.i32(1).memref(base, {5, 4}).ptr(other).i32(3);
    why = wide.pack(layout, params);
    report.check("layout-scalar-size",
                 contains(why, "parameter #0 (argument #0 (i1), 1 byte at "
                               "offset 0) takes 1 byte, got 4"),
                 why);
    pmrt::KernelArgs bare;
    bare.u8(1).ptr(base).ptr(other).i32(3);
    why = bare.pack(layout, params);
    report.check("layout-dynamic-memref",
                 contains(why, "argument #1 (memref<?x4xi32>) is passed in 6 "
                               "parameters") &&
                     contains(why, "memref(base, sizes)"),
                 why);
    pmrt::KernelArgs rank;
    rank.u8(1).memref(base, {20}).ptr(other).i32(3);
    why = rank.pack(layout, params);
    report.check("layout-memref-rank",
                 contains(why, "argument #1 (memref<?x4xi32>) is a memref of "
                               "rank 2, got a memref of rank 1"),
                 why);
    pmrt::KernelArgs missing;
    missing.u8(1).memref(base, {5, 4}).ptr(other);
    why = missing.pack(layout, params);
    report.check("layout-count",
                 contains(why, "the kernel takes 4 arguments (i1, "
                               "memref<?x4xi32>, memref<8xf32>, i32) in 9 "
                               "parameters") &&
                     contains(why, "got 3 arguments in 8 values"),
                 why);
    pmrt::KernelLayout newer;
    why = pmrt::parseKernelLayout("abi version=2 args=0 params=0 bytes=0\n",
                                  newer);
    report.check("layout-version",
                 contains(why, "version 2; this runtime reads 1"), why);
    why = pmrt::parseKernelLayout(
        "abi version=1 args=1 params=1 bytes=8\n"
        "arg 0 kind=memref rank=1 type=memref<?xf32>\n"
        "param 0 arg=0 kind=memref field=size dim=1 offset=0 size=8 "
        "align=8\n",
        newer);
    report.check("layout-dim", contains(why, "a dimension of the memref's 1"),
                 why);
  }

  // Launch geometry.
  pmrt::LaunchConfig cfg;
  cfg.grid[0] = 132;
  cfg.block[0] = 384;
  report.check("launch-valid", pmrt::checkLaunchConfig(cfg).empty());
  cfg.grid[0] = 4;
  cfg.cluster[0] = 2;
  report.check("launch-cluster-valid", pmrt::checkLaunchConfig(cfg).empty());
  cfg.cluster[0] = 3;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-cluster-divides",
               contains(why, "cluster x = 3 does not divide grid x = 4"), why);
  cfg.grid[0] = 32;
  cfg.cluster[0] = 32;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-cluster-size", contains(why, "cluster of 32 CTAs"), why);
  cfg = pmrt::LaunchConfig();
  cfg.block[0] = 64;
  cfg.block[1] = 32;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-threads", contains(why, "2048 threads per block"), why);
  cfg = pmrt::LaunchConfig();
  cfg.grid[1] = 0;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-zero-grid", contains(why, "grid y = 0"), why);
  cfg = pmrt::LaunchConfig();
  cfg.block[2] = 128;
  why = pmrt::checkLaunchConfig(cfg);
  report.check("launch-block-z", contains(why, "block z = 128 not in 1..64"),
               why);

  // Options and comparisons.
  const char *argvBuf[] = {"prog", "--iters", "7", "--cubin", "k.cubin"};
  char **argv = const_cast<char **>(argvBuf);
  report.check("int-option", pmrt::intOption(5, argv, "iters", 1) == 7);
  report.check("int-option-fallback",
               pmrt::intOption(5, argv, "missing", 3) == 3);
  report.check("cubin-path", pmrt::cubinPath(5, argv, "x.cubin") == "k.cubin");
  why.clear();
  bool same = pmrt::compareU32({1, 2, 3}, {1, 5, 3}, why);
  report.check("compare-u32",
               !same && contains(why, "[1]: got 0x00000002") &&
                   contains(why, "1 of 3 elements differ"),
               why);

  // Driver results the stub library cannot name.
  why = pmrt::driverErrorText(CUDA_ERROR_STUB_LIBRARY);
  report.check("error-text-stub",
               contains(why, "CUDA_ERROR_STUB_LIBRARY") &&
                   contains(why, "stub libcuda"),
               why);
  why = pmrt::driverErrorText(CUDA_ERROR_NO_DEVICE);
  report.check("error-text-no-device", contains(why, "CUDA_ERROR_NO_DEVICE"),
               why);
  return report.finish();
}

int gpuChecks() {
  pmrt::init();
  pmrt::Report report("pmrt-check --gpu");
  report.check("device", pmrt::smCount() > 0 && !pmrt::deviceName().empty());
  const size_t count = 4096;
  std::vector<uint32_t> want(count);
  for (size_t i = 0; i < count; ++i)
    want[i] = pmrt::mix32(static_cast<uint32_t>(i));
  pmrt::DeviceBuffer buffer(count * sizeof(uint32_t));
  buffer.upload(want);
  std::string why;
  report.check("upload-download",
               pmrt::compareU32(buffer.download<uint32_t>(count), want, why),
               why);
  buffer.fill32(0xDEADBEEF);
  why.clear();
  report.check("fill32",
               pmrt::compareU32(buffer.download<uint32_t>(count),
                                std::vector<uint32_t>(count, 0xDEADBEEF), why),
               why);
  // The descriptor encodes; using it needs a kernel (tma_tile does that).
  pmrt::TensorMap2D map(buffer.ptr(), CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 64, 64,
                        16, 16);
  report.check("tensor-map", map.devicePtr() != 0);
  return report.finish();
}

/// The text of the global `symbol` of a PTX file (`.b8 symbol[N] = {...}`),
/// up to its NUL; "" when the file has none.
std::string ptxGlobalText(const std::string &ptx, const std::string &symbol) {
  std::smatch match;
  if (!std::regex_search(ptx, match,
                         std::regex("\\.b8\\s+" + symbol +
                                    "\\[\\d+\\]\\s*=\\s*\\{([^}]*)\\}")))
    return "";
  std::string text, byte;
  std::istringstream bytes(match[1].str());
  while (std::getline(bytes, byte, ',')) {
    char c = static_cast<char>(std::stoi(byte));
    if (c == '\0')
      break;
    text += c;
  }
  return text;
}

/// Arguments by `layout`: a scalar's value its argument index, memrefs of
/// extent 2 in every dimension at 0x10000 + 0x100 x the argument index,
/// other arguments as many zero bytes as their parameter; the first
/// argument one byte longer with `wrong`.
void buildArgs(const pmrt::KernelLayout &layout, pmrt::KernelArgs &args,
               bool wrong) {
  for (size_t a = 0; a < layout.args.size(); ++a) {
    const pmrt::KernelLayout::Arg &arg = layout.args[a];
    CUdeviceptr address = 0x10000 + 0x100 * a;
    if (arg.kind == "memref") {
      args.memref(address, std::vector<int64_t>(arg.rank, 2));
      continue;
    }
    std::vector<unsigned char> bytes(
        layout.params[arg.params.front()].size + (wrong && a == 0), 0);
    bytes[0] = static_cast<unsigned char>(a);
    args.bytes(bytes.data(), bytes.size());
  }
}

/// --layout: the record of `kernel` in the PTX file at `path`, parsed and
/// printed; then arguments built from it (buildArgs) packed by it, and with
/// a first argument of one byte more (refused).
int layoutChecks(const std::string &path, const std::string &kernel) {
  std::ifstream in(path);
  std::stringstream ptx;
  ptx << in.rdbuf();
  std::string text = ptxGlobalText(ptx.str(), "__pipeline_mlir_abi_" + kernel);
  if (text.empty()) {
    std::printf("no layout record of %s in %s\n", kernel.c_str(), path.c_str());
    return 1;
  }
  pmrt::KernelLayout layout;
  std::string why = pmrt::parseKernelLayout(text, layout);
  if (!why.empty()) {
    std::printf("malformed record: %s\n", why.c_str());
    return 1;
  }
  std::printf("%zu arguments, %zu parameters, %llu bytes\n", layout.args.size(),
              layout.params.size(),
              static_cast<unsigned long long>(layout.bytes));
  for (size_t j = 0; j < layout.params.size(); ++j)
    std::printf("%s\n", pmrt::describeParameter(layout, j).c_str());
  pmrt::KernelArgs args;
  buildArgs(layout, args, false);
  std::vector<void *> params;
  why = args.pack(layout, params);
  if (!why.empty()) {
    std::printf("refused: %s\n", why.c_str());
    return 1;
  }
  std::printf("packed %zu parameters:", params.size());
  for (size_t j = 0; j < params.size(); ++j) {
    uint64_t value = 0;
    std::memcpy(&value, params[j],
                std::min<uint64_t>(layout.params[j].size, 8));
    std::printf(" %#llx", static_cast<unsigned long long>(value));
  }
  std::printf("\n");
  pmrt::KernelArgs wrong;
  buildArgs(layout, wrong, true);
  std::printf("refused: %s\n", wrong.pack(layout, params).c_str());
  return 0;
}

/// --gpu-layout: the record as getKernel reads it through the driver, then a
/// launch it refuses.
int gpuLayoutChecks(const std::string &path, const std::string &kernel) {
  pmrt::init();
  CUmodule module = pmrt::loadModule(path);
  CUfunction fn = pmrt::getKernel(module, kernel.c_str());
  const pmrt::KernelLayout *layout = pmrt::kernelLayout(fn);
  if (!layout) {
    std::printf("no layout record of %s\n", kernel.c_str());
    return 1;
  }
  std::printf("%zu arguments, %zu parameters, %llu bytes\n",
              layout->args.size(), layout->params.size(),
              static_cast<unsigned long long>(layout->bytes));
  for (size_t j = 0; j < layout->params.size(); ++j)
    std::printf("%s\n", pmrt::describeParameter(*layout, j).c_str());
  std::fflush(stdout);
  pmrt::KernelArgs args;
  buildArgs(*layout, args, true);
  pmrt::launch("gpu-layout", fn, pmrt::LaunchConfig(), args);
  std::printf("launched\n");
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "--unit";
  if (mode == "--unit")
    return unitChecks();
  if (mode == "--init") {
    pmrt::init();
    std::printf("initialized\n");
    return 0;
  }
  if (mode == "--bad-tma") {
    pmrt::TensorMap2D map(0x10000, CU_TENSOR_MAP_DATA_TYPE_INT32, 4, 64, 64, 16,
                          3);
    return 0;
  }
  if (mode == "--bad-launch") {
    pmrt::LaunchConfig cfg;
    cfg.block[0] = 1024;
    cfg.block[1] = 2;
    pmrt::KernelArgs args;
    pmrt::launch("bad-launch", nullptr, cfg, args);
    return 0;
  }
  if (mode == "--gpu")
    return gpuChecks();
  if (mode == "--layout" && argc == 4)
    return layoutChecks(argv[2], argv[3]);
  if (mode == "--gpu-layout" && argc == 4)
    return gpuLayoutChecks(argv[2], argv[3]);
  std::fprintf(stderr, "pmrt-check: unknown mode '%s'\n", mode.c_str());
  return 2;
}
