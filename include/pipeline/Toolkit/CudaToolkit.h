//===- CudaToolkit.h - chips, PTX versions and ptxas ------------*- C++ -*-===//
//
// What pipeline-mlir knows about NVIDIA targets: the chips it compiles for,
// what each one can do, the PTX ISA version each one needs, and how to find
// a ptxas that can assemble for them. The one target description: the
// named pipelines, the lowering's preconditions, pipeline-compile, the C
// API and Python (through it) accept the same chips and report the same
// errors.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_TOOLKIT_CUDATOOLKIT_H
#define PIPELINE_TOOLKIT_CUDATOOLKIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace pmlir::cuda {

/// What a chip can do, as far as the pipeline lowering cares.
enum class ChipCapability : unsigned {
  None = 0,
  /// mbarrier try_wait.parity, expect_tx and thread-block clusters: every
  /// pipeline op needs them (sm_90 and up).
  Clusters = 1u << 0,
  /// tcgen05 MMAs, and so CTA pairs (cta_group::2), in the hardware and in
  /// ptxas: the arch-specific Blackwell data-center chips.
  Tcgen05 = 1u << 1,
  /// tcgen05.commit in MLIR 22's NVVM dialect, which the lowering emits:
  /// nvvm.tcgen05.commit verifies on sm_100a and sm_101a only, not on
  /// sm_103a or sm_110a, which have tcgen05 too.
  Tcgen05Lowering = 1u << 2,
};

constexpr ChipCapability operator|(ChipCapability a, ChipCapability b) {
  return ChipCapability(unsigned(a) | unsigned(b));
}

/// A short description of `capability`, for diagnostics ("tcgen05 MMAs and
/// CTA pairs").
llvm::StringRef describeCapability(ChipCapability capability);

/// A chip the named pipelines and pipeline-compile accept.
struct ChipInfo {
  llvm::StringLiteral name;
  /// What the chip can do (ChipCapability bits).
  ChipCapability capabilities;
  /// Lowest PTX ISA version (times 10, e.g. 86) that LLVM 22 and ptxas
  /// accept for the chip.
  unsigned minPtx;
  /// Highest PTX ISA version that knows the chip, 0 if there is none: CUDA
  /// 13.0 (PTX ISA 9.0) renamed sm_101 to sm_110.
  unsigned maxPtx = 0;
  /// The chip's name in newer toolkits, if it was renamed.
  llvm::StringLiteral renamedTo = "";
};

/// True if `chip` has every bit of `capability`.
inline bool hasCapability(const ChipInfo &chip, ChipCapability capability) {
  return (unsigned(chip.capabilities) & unsigned(capability)) ==
         unsigned(capability);
}

/// The capabilities of a chip named in an #nvvm.target, which may lie
/// outside the table (sm_80, sm_121a): the table's for a chip in it, else
/// Clusters for sm_90 and up, None below; std::nullopt if `name` is no
/// chip name (sm_<N>[a|f]).
std::optional<ChipCapability> getChipCapabilities(llvm::StringRef name);

/// The chip table as text, one chip a line: "sm_100a clusters,tcgen05,
/// tcgen05-lowering ptx=86..90" (the C API's pmlirGetChipTable, and so
/// Python's pm.chips()).
std::string printChipTable();

/// The chips of the table that have `capability`: "sm_100a, sm_101a".
std::string getChipsWith(ChipCapability capability);

/// Every chip the pipelines accept, oldest first.
llvm::ArrayRef<ChipInfo> getSupportedChips();

/// The chip named `name`, or null if the pipelines do not support it.
const ChipInfo *lookupChip(llvm::StringRef name);

/// "sm_90, sm_90a, ...", for diagnostics and option help.
std::string getSupportedChipList();

/// The chip every entry point compiles for when none is given
/// (pipeline-compile, the named pipelines, the C API, Python).
inline constexpr const char *kDefaultChip = "sm_100a";

/// The PTX ISA version used when no feature string is given (unless the
/// chip needs a newer one): 8.6, which CUDA 12.7 and newer assemble.
constexpr unsigned kDefaultPtxVersion = 86;

/// The PTX ISA version that the pipelines use for `chip` when no feature
/// string is given: kDefaultPtxVersion, or the chip's minimum if higher.
unsigned getDefaultPtxVersion(const ChipInfo &chip);

/// Help texts shared by pipeline-compile, the named pipelines and the
/// passes, built from the chip table and the constants here. Static
/// storage: cl::desc keeps the pointer.
const char *getChipOptionHelp();
const char *getFeaturesOptionHelp();
const char *getCudaPathOptionHelp();

/// The highest PTX ISA version LLVM 22 emits.
constexpr unsigned kMaxPtxVersion = 90;

/// The PTX ISA version selected by `+ptxNN` in a comma-separated feature
/// string, or std::nullopt if there is none.
std::optional<unsigned> parsePtxVersion(llvm::StringRef features);

/// Checks `features` for `chip`: it must name exactly one PTX ISA version
/// (`+ptxNN`) that the chip and LLVM accept; two different ones are an
/// error naming both. Returns the version.
llvm::Expected<unsigned> checkFeatures(const ChipInfo &chip,
                                       llvm::StringRef features);

/// A CUDA toolkit release, e.g. {13, 0}.
struct ToolkitVersion {
  unsigned major = 0;
  unsigned minor = 0;
};

/// The first CUDA release whose ptxas accepts PTX ISA version `ptx`.
ToolkitVersion getMinToolkitForPtx(unsigned ptx);

/// The CUDA toolkit directory, by the one rule of pipeline-mlir (the
/// tools, the named pipelines, CMake, lit and scripts/setup.sh):
/// `cudaPath` (--cuda-path, cuda-path=) if not empty, else $CUDA_HOME, else
/// $CUDA_PATH, else /usr/local/cuda. Empty environment variables are
/// ignored.
std::string getCudaPath(llvm::StringRef cudaPath);

/// Where getCudaPath(cudaPath) took the directory from: "cuda-path",
/// "CUDA_HOME", "CUDA_PATH" or "the default".
llvm::StringRef getCudaPathSource(llvm::StringRef cudaPath);

/// `<cuda path>/bin/<tool>` (see getCudaPath), or an error that says where
/// it looked.
llvm::Expected<std::string> findCudaTool(llvm::StringRef cudaPath,
                                         llvm::StringRef tool);

/// `<cuda path>/bin/ptxas` (see findCudaTool).
llvm::Expected<std::string> findPtxas(llvm::StringRef cudaPath);

/// Runs `ptxas --version` and parses its "release X.Y".
llvm::Expected<ToolkitVersion> getPtxasVersion(llvm::StringRef ptxas);

/// Finds ptxas and checks that it can assemble PTX ISA `ptx` for `chip`
/// (new enough, and not so new that it no longer knows the chip). Returns
/// the ptxas path.
llvm::Expected<std::string> findPtxasFor(llvm::StringRef cudaPath,
                                         const ChipInfo &chip, unsigned ptx);

} // namespace pmlir::cuda

#endif // PIPELINE_TOOLKIT_CUDATOOLKIT_H
