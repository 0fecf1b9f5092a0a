//===- pipeline-sim.cpp - a kernel's synchronization on the CPU -*- C++ -*-===//
//
//   pipeline-sim kernel.ptx --kernel=k --grid=2 --block=128 --cluster=2 \
//       --smem=1024 --arg=buf:4096 --arg=tmap:8192 --arg=64
//   pipeline-sim gemm.ptx --grid=4 --block=384 --smem=200000 \
//       --buffer=A=@a.bin --buffer=B=@b.bin --arg=buf:C=8192 \
//       --arg=tmap:bf16:dims=64x128:box=64x64:swizzle=128:data=A ... \
//       --output=C=c.bin
//
// runs the synchronization skeleton of the kernel (docs/simulator.md) and
// prints what it finds: a deadlock with where every blocked thread waits,
// uninitialized barriers, collectives a lane never reaches, CTAs exiting
// while arrivals or TMA bytes still target them, traps. Exit status 0 when
// the kernel ran to its end with no finding, 1 with findings, 2 on bad
// input.
//
//===----------------------------------------------------------------------===//

#include "pipeline/Sim/Simulator.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace pmlir::sim;

static cl::OptionCategory category("pipeline-sim options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<kernel .ptx file>"),
                                          cl::Required, cl::cat(category));
static cl::opt<std::string>
    kernelName("kernel", cl::desc("the .entry to run (default: the only one)"),
               cl::cat(category));
static cl::opt<std::string> grid("grid", cl::desc("grid size X[,Y[,Z]]"),
                                 cl::init("1"), cl::cat(category));
static cl::opt<std::string> block("block", cl::desc("block size X[,Y[,Z]]"),
                                  cl::init("1"), cl::cat(category));
static cl::opt<std::string> cluster("cluster",
                                    cl::desc("cluster size X[,Y[,Z]]"),
                                    cl::init("1"), cl::cat(category));
static cl::opt<uint64_t> smem("smem",
                              cl::desc("dynamic shared memory in bytes"),
                              cl::init(0), cl::cat(category));
static cl::list<std::string>
    args("arg",
         cl::desc("kernel arguments in order: an integer; f32:VALUE; "
                  "f64:VALUE; buf:[NAME=](BYTES|@FILE|BYTES@FILE) (a buffer, "
                  "zero-filled or from a file); tmap:BYTES (an opaque tensor "
                  "map whose box is BYTES); tmap:ELEM:dims=..:box=..[:"
                  "swizzle=..][:oob=..]:data=NAME (a tensor map with its "
                  "encoding, into a named buffer)"),
         cl::cat(category));
static cl::opt<unsigned>
    schedules("schedules",
              cl::desc("seeded random schedules to run after the "
                       "round-robin one (seeds 1..N)"),
              cl::init(0), cl::cat(category));
static cl::list<std::string>
    buffers("buffer",
            cl::desc("a device buffer no parameter names (what a tensor map "
                     "points into): NAME=BYTES, NAME=@FILE or NAME=BYTES@FILE"),
            cl::cat(category));
static cl::list<std::string>
    outputs("output",
            cl::desc("NAME=FILE: write the named buffer's contents after the "
                     "run (round-robin schedule) to FILE"),
            cl::cat(category));
static cl::opt<bool>
    exhaustive("exhaustive",
               cl::desc("explore every order of the warps' visible steps and "
                        "of the asynchronous completions (bounded by "
                        "--max-states and --max-depth), instead of schedules"),
               cl::init(false), cl::cat(category));
static cl::opt<uint64_t>
    maxStates("max-states",
              cl::desc("the exhaustive search's bound on distinct states"),
              cl::init(200000), cl::cat(category));
static cl::opt<unsigned>
    maxDepth("max-depth",
             cl::desc("the exhaustive search's bound on steps per schedule"),
             cl::init(5000), cl::cat(category));
static cl::opt<unsigned> residentClusters(
    "resident-clusters",
    cl::desc("clusters that run at once (default: all); the others start "
             "when one ends, or are canceled by a cluster launch control "
             "try_cancel, which names them"),
    cl::init(0), cl::cat(category));
static cl::opt<bool> noReduction(
    "no-reduction",
    cl::desc("the exhaustive search explores the orders of independent "
             "clusters' steps too (no partial-order reduction)"),
    cl::init(false), cl::cat(category));
static cl::opt<uint64_t> maxSteps("max-steps",
                                  cl::desc("instruction budget per run"),
                                  cl::init(200000000), cl::cat(category));

static bool parseDims(StringRef text, unsigned out[3]) {
  SmallVector<StringRef> parts;
  text.split(parts, ',');
  if (parts.empty() || parts.size() > 3)
    return false;
  for (unsigned i = 0; i < 3; ++i) {
    out[i] = 1;
    if (i < parts.size() &&
        (parts[i].trim().getAsInteger(10, out[i]) || out[i] == 0))
      return false;
  }
  return true;
}

static int fail(const Twine &message) {
  errs() << "pipeline-sim: error: " << message << "\n";
  return 2;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "pipeline-sim: run a kernel's synchronization (mbarriers, TMA, "
      "tcgen05 commits, CTA and cluster barriers) on the CPU\n");
  LaunchConfig launch;
  if (!parseDims(grid, launch.grid))
    return fail("expects --grid=X[,Y[,Z]] of positive numbers, got '" + grid +
                "'");
  if (!parseDims(block, launch.block))
    return fail("expects --block=X[,Y[,Z]], got '" + block + "'");
  if (!parseDims(cluster, launch.cluster))
    return fail("expects --cluster=X[,Y[,Z]], got '" + cluster + "'");
  launch.dynamicShared = smem;
  launch.residentClusters = residentClusters;
  for (StringRef a : args)
    if (Error e = parseArgSpec(a, launch.args))
      return fail(toString(std::move(e)));
  for (StringRef b : buffers) {
    std::vector<ArgValue> one;
    if (Error e = parseArgSpec(("buf:" + b).str(), one))
      return fail(toString(std::move(e)));
    if (one.front().name.empty())
      return fail("expects --buffer=NAME=(BYTES|@FILE), got '" + b + "'");
    launch.buffers.push_back(std::move(one.front()));
  }
  // --output=NAME=FILE: the buffer's contents after the run.
  std::vector<std::pair<std::string, std::string>> outputFiles;
  for (StringRef o : outputs) {
    auto [bufName, file] = o.split('=');
    if (bufName.empty() || file.empty())
      return fail("expects --output=NAME=FILE, got '" + o + "'");
    bool known = false;
    for (const ArgValue &v : launch.args)
      known |= v.name == bufName;
    for (const ArgValue &v : launch.buffers)
      known |= v.name == bufName;
    if (!known)
      return fail("--output names buffer '" + bufName +
                  "', which no buf: argument or --buffer defines");
    outputFiles.push_back({bufName.str(), file.str()});
  }
  auto buffer = MemoryBuffer::getFileOrSTDIN(inputFilename);
  if (!buffer)
    return fail("cannot read '" + inputFilename +
                "': " + buffer.getError().message());
  Expected<PtxModule> module = parsePtx((*buffer)->getBuffer());
  if (!module)
    return fail(toString(module.takeError()));
  std::string name = kernelName;
  if (name.empty()) {
    if (module->kernels.size() != 1)
      return fail("expects --kernel=NAME: the PTX has " +
                  Twine(module->kernels.size()) + " kernels");
    name = module->kernels.front().name;
  }
  bool anyFinding = false;
  if (exhaustive) {
    SimOptions options;
    options.exhaustive = true;
    options.maxStates = maxStates;
    options.maxDepth = maxDepth;
    options.reduce = !noReduction;
    options.maxSteps = maxSteps;
    Expected<SimResult> result = simulate(*module, name, launch, options);
    if (!result)
      return fail(toString(result.takeError()));
    outs() << name << " (exhaustive): "
           << (result->findings.empty() ? "no finding" : "FAILED") << ", "
           << result->statesExplored << " states, " << result->transitions
           << " transitions";
    if (result->reducedStates)
      outs() << ", " << result->reducedStates << " reduced to one cluster";
    outs() << (result->bounded ? ", stopped at a bound"
                               : ", every order explored")
           << "\n";
    for (const Finding &f : result->findings)
      outs() << "  " << f.kind << ": " << f.message << "\n";
    return result->findings.empty() ? 0 : 1;
  }
  for (unsigned run = 0; run <= schedules; ++run) {
    SimOptions options;
    options.random = run > 0;
    options.seed = run;
    options.maxSteps = maxSteps;
    Expected<SimResult> result = simulate(*module, name, launch, options);
    if (!result)
      return fail(toString(result.takeError()));
    std::string schedule =
        run == 0 ? "round-robin" : "random seed " + std::to_string(run);
    outs() << name << " (" << schedule << "): "
           << (result->completed && result->findings.empty() ? "completed"
                                                             : "FAILED")
           << ", " << result->instructions << " instructions, "
           << result->rounds << " rounds";
    if (launch.residentClusters)
      outs() << ", " << result->clustersCanceled
             << " cluster(s) canceled by try_cancel";
    outs() << "\n";
    for (const Finding &f : result->findings)
      outs() << "  " << f.kind << ": " << f.message << "\n";
    anyFinding |= !result->completed || !result->findings.empty();
    if (run == 0)
      for (auto &[bufName, file] : outputFiles) {
        std::error_code ec;
        raw_fd_ostream os(file, ec);
        if (ec)
          return fail("cannot write '" + file + "': " + ec.message());
        const std::vector<uint8_t> &bytes = result->buffers.at(bufName);
        os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
      }
    if (anyFinding)
      break;
  }
  return anyFinding ? 1 : 0;
}
