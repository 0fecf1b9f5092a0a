//===- CudaToolkit.h - chips, PTX versions and ptxas ------------*- C++ -*-===//
//
// What pipeline-mlir knows about NVIDIA targets: the chips it compiles for,
// the PTX ISA version each one needs, and how to find a ptxas that can
// assemble for them. Shared by the named pipelines and pipeline-compile so
// that both accept the same chips and report the same errors.
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

/// A chip the named pipelines and pipeline-compile accept.
struct ChipInfo {
  llvm::StringLiteral name;
  /// Lowest PTX ISA version (times 10, e.g. 86) that LLVM 22 and ptxas
  /// accept for the chip.
  unsigned minPtx;
  /// Highest PTX ISA version that knows the chip, 0 if there is none: CUDA
  /// 13.0 (PTX ISA 9.0) renamed sm_101 to sm_110.
  unsigned maxPtx = 0;
  /// The chip's name in newer toolkits, if it was renamed.
  llvm::StringLiteral renamedTo = "";
};

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
