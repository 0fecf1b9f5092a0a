//===- Simulator.cpp - set up a launch; the library's entry points *- C++
//-*-===//

#include "Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

Error Machine::setup() {
  if (launch.args.size() != kernel.params.size())
    return createStringError(formatv("kernel {0} takes {1} arguments, got {2}",
                                     kernel.name, kernel.params.size(),
                                     launch.args.size()));
  for (unsigned d = 0; d < 3; ++d)
    if (launch.cluster[d] == 0 || launch.grid[d] % launch.cluster[d])
      return createStringError("the grid must be a multiple of the cluster");
  if (threadsPerCta() == 0 || threadsPerCta() > 1024)
    return createStringError("a block has 1 to 1024 threads");
  if (uint64_t(ctaCount()) * threadsPerCta() > (1u << 20))
    return createStringError("at most 2^20 threads are simulated");
  // Globals of the module.
  uint64_t next = kGlobalBase;
  for (auto &[name, var] : module.globals) {
    std::vector<uint8_t> bytes(std::max<uint64_t>(var.size, 8), 0);
    std::copy(var.init.begin(), var.init.end(), bytes.begin());
    globalSymbols[name] = next;
    global[next] = std::move(bytes);
    next += alignTo(std::max<uint64_t>(var.size, 8), 256);
  }
  // A kernel compiled with the hang report: the simulator is its host and
  // gives it a record (include/pipeline-c/HangRecord.h).
  auto buffer = globalSymbols.find(PMLIR_HANG_BUFFER_SYMBOL);
  if (buffer != globalSymbols.end()) {
    hangRecord = next;
    global[next] = std::vector<uint8_t>(PMLIR_HANG_RECORD_BYTES, 0);
    next += 256;
    std::vector<uint8_t> &slot = global[buffer->second];
    for (unsigned b = 0; b < 8; ++b)
      slot[b] = uint8_t(hangRecord >> (8 * b));
  }
  // Parameters.
  uint64_t poff = 0;
  for (auto [param, arg] : llvm::zip(kernel.params, launch.args)) {
    poff = alignTo(poff, std::min<unsigned>(param.size, 8));
    paramOffsets[param.name] = poff;
    params.resize(poff + param.size, 0);
    uint64_t v = arg.value;
    if (arg.kind == ArgValue::Kind::Buffer ||
        (arg.kind == ArgValue::Kind::TensorMap && param.size <= 8)) {
      uint64_t size = arg.kind == ArgValue::Kind::Buffer ? arg.bytes : 128;
      global[next] = std::vector<uint8_t>(std::max<uint64_t>(size, 1), 0);
      v = next;
      if (arg.kind == ArgValue::Kind::TensorMap)
        tensorMapBox[next] = arg.bytes;
      next += alignTo(std::max<uint64_t>(size, 1), 256);
    } else if (arg.kind == ArgValue::Kind::TensorMap) {
      // A CUtensorMap passed by value (.param .align 64 .b8 x[128]).
      tensorMapBox[kParamBase + poff] = arg.bytes;
      v = 0;
    }
    for (unsigned b = 0; b < std::min<unsigned>(param.size, 8); ++b)
      params[poff + b] = uint8_t(v >> (8 * b));
    poff += param.size;
  }
  // Threads and shared memory.
  uint64_t smem = kernel.staticShared + launch.dynamicShared + 16;
  shared.assign(ctaCount(), std::vector<uint8_t>(smem, 0));
  ctaEpoch.assign(ctaCount(), 0);
  tmem.assign(ctaCount(), TmemState::None);
  tmemReported.assign(ctaCount(), false);
  threads.resize(size_t(ctaCount()) * threadsPerCta());
  for (unsigned c = 0; c < ctaCount(); ++c)
    for (unsigned i = 0; i < threadsPerCta(); ++i) {
      Thread &t = threads[size_t(c) * threadsPerCta() + i];
      t.cta = c;
      t.tid = i;
      t.xyz[0] = i % launch.block[0];
      t.xyz[1] = (i / launch.block[0]) % launch.block[1];
      t.xyz[2] = i / (launch.block[0] * launch.block[1]);
      t.regs.assign(kernel.regNames.size(), 0);
    }
  for (unsigned c = 0; c < ctaCount(); ++c)
    if (ctaOfRank(c, 0) == c)
      clusters.push_back(c);
  clusterState.assign(clusters.size(), ClusterState::Launched);
  if (launch.residentClusters && launch.residentClusters < clusters.size())
    for (size_t i = launch.residentClusters; i < clusters.size(); ++i) {
      clusterState[i] = ClusterState::Pending;
      for (unsigned r = 0; r < clusterSize(); ++r)
        for (unsigned k = 0; k < threadsPerCta(); ++k)
          threads[size_t(ctaOfRank(clusters[i], r)) * threadsPerCta() + k]
              .status = Status::Exited;
    }
  return Error::success();
}

std::string pmlir::sim::checkLaunchContract(const PtxModule &module,
                                            const Kernel &kernel,
                                            const LaunchConfig &launch) {
  auto dims = [](const unsigned *d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
           std::to_string(d[2]) + ")";
  };
  auto differs = [](const unsigned *want, const unsigned *got) {
    return want[0] &&
           (want[0] != got[0] || want[1] != got[1] || want[2] != got[2]);
  };
  if (differs(kernel.requiredBlock, launch.block))
    return "kernel " + kernel.name + " requires block " +
           dims(kernel.requiredBlock) + " (its .reqntid), got " +
           dims(launch.block) + ": the driver refuses that launch";
  if (differs(kernel.requiredCluster, launch.cluster))
    return "kernel " + kernel.name + " requires cluster " +
           dims(kernel.requiredCluster) + " (its .reqnctapercluster), got " +
           dims(launch.cluster) + ": the driver refuses that launch";
  auto constant = [&](StringRef what) -> uint64_t {
    auto it = module.constants.find(
        ("__pipeline_mlir_min_" + what + "_" + kernel.name).str());
    return it == module.constants.end() ? 0 : it->second;
  };
  if (uint64_t least = constant("block"); launch.block[0] < least)
    return "kernel " + kernel.name + ": block " + dims(launch.block) + " has " +
           std::to_string(launch.block[0]) +
           " threads along x; its roles need at least " +
           std::to_string(least) +
           " (its launch contract, which the launchers enforce)";
  if (uint64_t least = constant("smem"); launch.dynamicShared < least)
    return "kernel " + kernel.name + " needs at least " +
           std::to_string(least) +
           " bytes of dynamic shared memory (its launch contract, which the "
           "launchers enforce), got " +
           std::to_string(launch.dynamicShared);
  return "";
}

Expected<SimResult> pmlir::sim::simulate(const PtxModule &module,
                                         StringRef kernelName,
                                         const LaunchConfig &launch,
                                         const SimOptions &options) {
  const Kernel *kernel = module.lookup(kernelName);
  if (!kernel) {
    std::string names;
    for (const Kernel &k : module.kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    return createStringError("no kernel '" + kernelName +
                             "' in the PTX (it has: " + names + ")");
  }
  if (std::string why = checkLaunchContract(module, *kernel, launch);
      !why.empty())
    return createStringError(why);
  Machine machine(module, *kernel, launch, options);
  if (Error e = machine.setup())
    return std::move(e);
  return options.exhaustive ? machine.explore() : machine.run();
}
