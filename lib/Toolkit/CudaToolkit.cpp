//===- CudaToolkit.cpp - chips, PTX versions and ptxas ----------*- C++ -*-===//

#include "pipeline/Toolkit/CudaToolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <cstdlib>

using namespace llvm;
using namespace pmlir::cuda;

// Minimum PTX ISA versions follow LLVM 22's NVPTX.td (`Proc<"sm_..", [..,
// PTXnn]>`). Every chip here has mbarrier try_wait.parity, expect_tx and
// thread-block clusters, which the pipeline lowering needs (sm_90 and up).
// sm_101a (PTX ISA 8.6 in LLVM 22) is known to ptxas of CUDA 12.8 and 12.9
// only: CUDA 13.0 (PTX ISA 9.0) renamed it sm_110a. tcgen05 is in the
// arch-specific data-center Blackwell chips (sm_100a, sm_101a/sm_110a,
// sm_103a; the PTX ISA's tcgen05 target list); the consumer Blackwell chips
// (sm_120) have none. MLIR 22's nvvm.tcgen05.commit requires sm_100a or
// sm_101a (NVVMRequiresSMa<[100, 101]>).
namespace {
constexpr ChipCapability kHopper = ChipCapability::Clusters;
constexpr ChipCapability kTcgen05 =
    ChipCapability::Clusters | ChipCapability::Tcgen05;
constexpr ChipCapability kTcgen05Lowered =
    kTcgen05 | ChipCapability::Tcgen05Lowering;
} // namespace

static const ChipInfo kChips[] = {
    {"sm_90", kHopper, 78},
    {"sm_90a", kHopper, 80},
    {"sm_100", kHopper, 86},
    {"sm_100a", kTcgen05Lowered, 86},
    {"sm_101a", kTcgen05Lowered, 86, /*maxPtx=*/88, /*renamedTo=*/"sm_110a"},
    {"sm_103", kHopper, 88},
    {"sm_103a", kTcgen05, 88},
    {"sm_110", kHopper, 90},
    {"sm_110a", kTcgen05, 90},
    {"sm_120", kHopper, 87},
    {"sm_120a", kHopper, 87},
};

StringRef pmlir::cuda::describeCapability(ChipCapability capability) {
  switch (capability) {
  case ChipCapability::Clusters:
    return "mbarrier try_wait.parity, expect_tx and clusters";
  case ChipCapability::Tcgen05:
    return "tcgen05 MMAs and CTA pairs";
  case ChipCapability::Tcgen05Lowering:
    return "tcgen05.commit in MLIR 22's NVVM dialect";
  default:
    return "several capabilities";
  }
}

std::optional<ChipCapability> pmlir::cuda::getChipCapabilities(StringRef name) {
  if (const ChipInfo *chip = lookupChip(name))
    return chip->capabilities;
  static const Regex chipName("^sm_([0-9]+)[af]?$");
  SmallVector<StringRef, 2> matches;
  unsigned number = 0;
  if (!chipName.match(name, &matches) || matches[1].getAsInteger(10, number))
    return std::nullopt;
  return number >= 90 ? ChipCapability::Clusters : ChipCapability::None;
}

std::string pmlir::cuda::printChipTable() {
  std::string text;
  raw_string_ostream os(text);
  for (const ChipInfo &chip : kChips) {
    SmallVector<StringRef> names;
    if (hasCapability(chip, ChipCapability::Clusters))
      names.push_back("clusters");
    if (hasCapability(chip, ChipCapability::Tcgen05))
      names.push_back("tcgen05");
    if (hasCapability(chip, ChipCapability::Tcgen05Lowering))
      names.push_back("tcgen05-lowering");
    os << chip.name << " " << join(names, ",") << " ptx=" << chip.minPtx << ".."
       << (chip.maxPtx ? chip.maxPtx : kMaxPtxVersion) << "\n";
  }
  return text;
}

std::string pmlir::cuda::getChipsWith(ChipCapability capability) {
  SmallVector<std::string> names;
  for (const ChipInfo &chip : kChips)
    if (hasCapability(chip, capability))
      names.push_back(chip.name.str());
  return join(names, ", ");
}

ArrayRef<ChipInfo> pmlir::cuda::getSupportedChips() { return kChips; }

const ChipInfo *pmlir::cuda::lookupChip(StringRef name) {
  for (const ChipInfo &chip : kChips)
    if (chip.name == name)
      return &chip;
  return nullptr;
}

std::string pmlir::cuda::getSupportedChipList() {
  return join(map_range(kChips, [](const ChipInfo &c) { return c.name.str(); }),
              ", ");
}

unsigned pmlir::cuda::getDefaultPtxVersion(const ChipInfo &chip) {
  return std::max(kDefaultPtxVersion, chip.minPtx);
}

static std::string formatPtx(unsigned ptx) {
  return formatv("{0}.{1}", ptx / 10, ptx % 10).str();
}

const char *pmlir::cuda::getChipOptionHelp() {
  static const std::string help = "target chip: " + getSupportedChipList();
  return help.c_str();
}

const char *pmlir::cuda::getFeaturesOptionHelp() {
  static const std::string help =
      "PTX features: one PTX ISA version such as +ptx88 (default: PTX ISA " +
      formatPtx(kDefaultPtxVersion) + ", or the chip's minimum if higher)";
  return help.c_str();
}

const char *pmlir::cuda::getCudaPathOptionHelp() {
  return "CUDA toolkit directory holding bin/ptxas, bin/fatbinary and "
         "nvvm/libdevice (default: $CUDA_HOME, else $CUDA_PATH, else "
         "/usr/local/cuda)";
}

/// The `+ptxNN` parts of a feature string, in order.
static SmallVector<std::pair<StringRef, unsigned>>
getPtxFeatures(StringRef features) {
  SmallVector<StringRef> parts;
  SmallVector<std::pair<StringRef, unsigned>> result;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef part : parts) {
    part = part.trim();
    StringRef number = part;
    unsigned version;
    if (number.consume_front("+ptx") && !number.getAsInteger(10, version))
      result.push_back({part, version});
  }
  return result;
}

std::optional<unsigned> pmlir::cuda::parsePtxVersion(StringRef features) {
  auto ptx = getPtxFeatures(features);
  if (ptx.empty())
    return std::nullopt;
  return ptx.front().second;
}

Expected<unsigned> pmlir::cuda::checkFeatures(const ChipInfo &chip,
                                              StringRef features) {
  auto all = getPtxFeatures(features);
  for (auto &[part, version] : all)
    if (version != all.front().second)
      return createStringError(
          formatv("expects one PTX ISA version in features, got '{0}' and "
                  "'{1}' in '{2}'",
                  all.front().first, part, features));
  std::optional<unsigned> ptx = parsePtxVersion(features);
  if (!ptx)
    return createStringError(
        "expects features with a PTX ISA version such as '+ptx86', got '" +
        features + "'");
  if (chip.maxPtx && *ptx > chip.maxPtx)
    return createStringError(formatv(
        "expects PTX ISA {0} or older for {1}, got '{2}' (PTX ISA {3} knows "
        "the chip as {4})",
        formatPtx(chip.maxPtx), chip.name, features, formatPtx(*ptx),
        chip.renamedTo));
  if (*ptx < chip.minPtx)
    return createStringError(
        formatv("expects PTX ISA {0} or newer for {1}, got '{2}' (PTX ISA {3})",
                formatPtx(chip.minPtx), chip.name, features, formatPtx(*ptx)));
  if (*ptx > kMaxPtxVersion)
    return createStringError(
        formatv("expects PTX ISA {0} or older (the newest LLVM 22 emits), got "
                "'{1}'",
                formatPtx(kMaxPtxVersion), features));
  return *ptx;
}

ToolkitVersion pmlir::cuda::getMinToolkitForPtx(unsigned ptx) {
  // PTX ISA 8.0 .. 8.5 came with CUDA 12.0 .. 12.5; then 8.6 -> 12.7,
  // 8.7 -> 12.8, 8.8 -> 12.9, 9.0 -> 13.0 (PTX ISA release history).
  if (ptx <= 85)
    return {12, ptx >= 80 ? ptx - 80 : 0};
  switch (ptx) {
  case 86:
    return {12, 7};
  case 87:
    return {12, 8};
  case 88:
    return {12, 9};
  default:
    // 9.0 and newer; 8.9 does not exist.
    return {13, ptx >= 90 ? ptx - 90 : 0};
  }
}

static const char *getNonEmptyEnv(const char *name) {
  const char *value = std::getenv(name);
  return value && *value ? value : nullptr;
}

StringRef pmlir::cuda::getCudaPathSource(StringRef cudaPath) {
  if (!cudaPath.empty())
    return "cuda-path";
  if (getNonEmptyEnv("CUDA_HOME"))
    return "CUDA_HOME";
  if (getNonEmptyEnv("CUDA_PATH"))
    return "CUDA_PATH";
  return "the default";
}

std::string pmlir::cuda::getCudaPath(StringRef cudaPath) {
  if (!cudaPath.empty())
    return cudaPath.str();
  if (const char *home = getNonEmptyEnv("CUDA_HOME"))
    return home;
  if (const char *path = getNonEmptyEnv("CUDA_PATH"))
    return path;
  return "/usr/local/cuda";
}

Expected<std::string> pmlir::cuda::findCudaTool(StringRef cudaPath,
                                                StringRef tool) {
  SmallString<256> path(getCudaPath(cudaPath));
  sys::path::append(path, "bin", tool);
  if (!sys::fs::can_execute(path))
    return createStringError(
        formatv("{0} not found: no executable {1} (CUDA toolkit from {2}); "
                "give the CUDA toolkit directory with cuda-path "
                "(--cuda-path), CUDA_HOME or CUDA_PATH",
                tool, path, getCudaPathSource(cudaPath)));
  return std::string(path);
}

Expected<std::string> pmlir::cuda::findPtxas(StringRef cudaPath) {
  return findCudaTool(cudaPath, "ptxas");
}

Expected<ToolkitVersion> pmlir::cuda::getPtxasVersion(StringRef ptxas) {
  SmallString<128> outPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("ptxas-version", "txt", outPath))
    return createStringError(ec, "cannot create a temporary file");
  FileRemover remover(outPath);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(outPath),
                                          StringRef(outPath)};
  std::string errMsg;
  int rc = sys::ExecuteAndWait(ptxas, {ptxas, "--version"}, std::nullopt,
                               redirects, /*SecondsToWait=*/60,
                               /*MemoryLimit=*/0, &errMsg);
  auto buffer = MemoryBuffer::getFile(outPath);
  if (rc != 0 || !buffer)
    return createStringError(
        formatv("cannot run '{0} --version': {1}", ptxas,
                errMsg.empty() ? "exit status " + std::to_string(rc) : errMsg));
  SmallVector<StringRef> match;
  Regex release("release ([0-9]+)\\.([0-9]+)");
  if (!release.match((*buffer)->getBuffer(), &match))
    return createStringError(
        formatv("cannot read the CUDA release from '{0} --version'", ptxas));
  ToolkitVersion version;
  match[1].getAsInteger(10, version.major);
  match[2].getAsInteger(10, version.minor);
  return version;
}

Expected<std::string> pmlir::cuda::findPtxasFor(StringRef cudaPath,
                                                const ChipInfo &chip,
                                                unsigned ptx) {
  Expected<std::string> ptxas = findPtxas(cudaPath);
  if (!ptxas)
    return ptxas.takeError();
  Expected<ToolkitVersion> version = getPtxasVersion(*ptxas);
  if (!version)
    return version.takeError();
  ToolkitVersion need = getMinToolkitForPtx(std::max(ptx, chip.minPtx));
  if (std::make_pair(version->major, version->minor) <
      std::make_pair(need.major, need.minor))
    return createStringError(formatv(
        "ptxas {0} is from CUDA {1}.{2}, too old for {3} with PTX ISA {4}: "
        "needs CUDA {5}.{6} or newer (give a newer toolkit with cuda-path, "
        "CUDA_HOME or CUDA_PATH)",
        *ptxas, version->major, version->minor, chip.name, formatPtx(ptx),
        need.major, need.minor));
  if (chip.maxPtx) {
    ToolkitVersion last = getMinToolkitForPtx(chip.maxPtx + 1);
    if (std::make_pair(version->major, version->minor) >=
        std::make_pair(last.major, last.minor))
      return createStringError(formatv(
          "ptxas {0} is from CUDA {1}.{2}, which no longer knows {3} (CUDA "
          "{4}.{5} renamed it {6}): give a CUDA toolkit older than {4}.{5} "
          "with cuda-path, CUDA_HOME or CUDA_PATH, or compile for {6}",
          *ptxas, version->major, version->minor, chip.name, last.major,
          last.minor, chip.renamedTo));
  }
  return *ptxas;
}
