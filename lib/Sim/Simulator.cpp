//===- Simulator.cpp - set up a launch; the library's entry points *- C++
//-*-===//

#include "Machine.h"

#include "llvm/Support/MemoryBuffer.h"

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
  // The barrier table: which pipeline each init_mbars belongs to.
  if (auto table = module.globals.find(PMLIR_BARRIER_NAMES_SYMBOL);
      table != module.globals.end()) {
    std::string text(table->second.init.begin(), table->second.init.end());
    SmallVector<StringRef> lines;
    StringRef(text).split(lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef line : lines) {
      SmallVector<StringRef> fields;
      line.split(fields, PMLIR_HANG_SITE_SEPARATOR);
      BarrierGroup g;
      if (fields.size() != 4 || fields[2].getAsInteger(10, g.numFull) ||
          fields[3].getAsInteger(10, g.numBarriers))
        continue;
      g.loc = fields[0].str();
      g.pipeline = fields[1].str();
      barrierGroups.push_back(std::move(g));
    }
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
  // Device buffers: the arguments' and those no parameter names, each at
  // its own 256-byte aligned base; named ones are what tensor maps point
  // into and what comes back as outputs.
  auto allocate = [&](const ArgValue &arg) {
    uint64_t size = std::max<uint64_t>({arg.bytes, arg.data.size(), 1});
    std::vector<uint8_t> bytes(size, 0);
    std::copy(arg.data.begin(), arg.data.end(), bytes.begin());
    uint64_t base = next;
    global[base] = std::move(bytes);
    next += alignTo(size, 256);
    if (!arg.name.empty())
      namedBuffers[arg.name] = base;
    return base;
  };
  for (const ArgValue &arg : launch.buffers)
    allocate(arg);
  std::vector<uint64_t> argBase(launch.args.size(), 0);
  for (size_t i = 0; i < launch.args.size(); ++i)
    if (launch.args[i].kind == ArgValue::Kind::Buffer)
      argBase[i] = allocate(launch.args[i]);
  // A tensor map with its encoding: its global address is the named
  // buffer's base plus the offset.
  auto mapOf = [&](const ArgValue &arg) -> Expected<TensorMap> {
    TensorMap m;
    m.bytes = arg.bytes;
    if (!arg.map)
      return m;
    TensorMapDesc d = *arg.map;
    auto it = namedBuffers.find(d.data);
    if (it == namedBuffers.end())
      return createStringError("a tensor map names buffer '" + d.data +
                               "', which no buf: argument or --buffer defines");
    d.globalAddress = it->second + d.dataOffset;
    if (std::string why = validateTensorMap(d); !why.empty())
      return createStringError("tensor map of buffer '" + d.data + "': " + why);
    m.bytes = tensorMapBoxBytes(d);
    m.desc = d;
    return m;
  };
  // Parameters.
  uint64_t poff = 0;
  for (size_t i = 0; i < launch.args.size(); ++i) {
    const Param &param = kernel.params[i];
    const ArgValue &arg = launch.args[i];
    poff = alignTo(poff, std::min<unsigned>(param.size, 8));
    paramOffsets[param.name] = poff;
    params.resize(poff + param.size, 0);
    uint64_t v = arg.value;
    if (arg.kind == ArgValue::Kind::Buffer) {
      v = argBase[i];
    } else if (arg.kind == ArgValue::Kind::TensorMap) {
      Expected<TensorMap> m = mapOf(arg);
      if (!m)
        return m.takeError();
      if (param.size <= 8) {
        // A pointer to the map in device memory.
        global[next] = std::vector<uint8_t>(128, 0);
        v = next;
        tensorMaps[next] = *m;
        next += 256;
      } else {
        // A CUtensorMap passed by value (.param .align 64 .b8 x[128]).
        tensorMaps[kParamBase + poff] = *m;
        v = 0;
      }
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
  SimResult result = options.exhaustive ? machine.explore() : machine.run();
  result.buffers = machine.namedBufferContents();
  return result;
}

Error pmlir::sim::parseArgSpec(StringRef spec, std::vector<ArgValue> &args) {
  ArgValue v;
  StringRef a = spec;
  if (a.consume_front("buf:")) {
    v.kind = ArgValue::Kind::Buffer;
    // [NAME=](BYTES|@FILE|BYTES@FILE)
    size_t eq = a.find('=');
    if (eq != StringRef::npos) {
      v.name = a.take_front(eq).str();
      a = a.drop_front(eq + 1);
      if (v.name.empty())
        return createStringError("expects buf:NAME=..., got an empty name in "
                                 "'" +
                                 spec + "'");
    }
    StringRef bytes = a.take_until([](char c) { return c == '@'; });
    StringRef file = a.drop_front(bytes.size());
    if (!bytes.empty() && bytes.getAsInteger(0, v.bytes))
      return createStringError("expects buf:[NAME=](BYTES|@FILE|BYTES@FILE), "
                               "got '" +
                               spec + "'");
    if (file.consume_front("@")) {
      auto contents = MemoryBuffer::getFile(file, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
      if (!contents)
        return createStringError("cannot read '" + file + "' (in '" + spec +
                                 "'): " + contents.getError().message());
      StringRef b = (*contents)->getBuffer();
      if (!bytes.empty() && b.size() > v.bytes)
        return createStringError(formatv("'{0}' has {1} bytes, more than the "
                                         "{2} of the buffer '{3}'",
                                         file, b.size(), v.bytes, spec)
                                     .str());
      v.data.assign(b.begin(), b.end());
      if (bytes.empty())
        v.bytes = v.data.size();
    } else if (bytes.empty()) {
      return createStringError("expects buf:[NAME=](BYTES|@FILE|BYTES@FILE), "
                               "got '" +
                               spec + "'");
    }
  } else if (a.consume_front("tmap:")) {
    v.kind = ArgValue::Kind::TensorMap;
    if (a.getAsInteger(0, v.bytes)) {
      Expected<TensorMapDesc> d = parseTensorMapSpec(a);
      if (!d)
        return createStringError("in '" + spec +
                                 "': " + toString(d.takeError()));
      v.map = *d;
      v.bytes = tensorMapBoxBytes(*d);
    }
  } else if (a.consume_front("f32:")) {
    double d;
    if (a.getAsDouble(d))
      return createStringError("expects f32:NUMBER, got '" + spec + "'");
    v.value = llvm::bit_cast<uint32_t>(float(d));
  } else if (a.consume_front("f64:")) {
    double d;
    if (a.getAsDouble(d))
      return createStringError("expects f64:NUMBER, got '" + spec + "'");
    v.value = llvm::bit_cast<uint64_t>(d);
  } else {
    int64_t s = 0;
    if (a.getAsInteger(0, s))
      return createStringError("expects an integer, f32:VALUE, f64:VALUE, "
                               "buf:[NAME=](BYTES|@FILE) or tmap:BYTES|SPEC, "
                               "got '" +
                               spec + "'");
    v.value = uint64_t(s);
  }
  args.push_back(std::move(v));
  return Error::success();
}
