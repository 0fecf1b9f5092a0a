//===- ProtocolUtils.cpp - shared pieces of the protocol checks -----------===//

#include "ProtocolUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

//===----------------------------------------------------------------------===//
// Pipelines and their uses
//===----------------------------------------------------------------------===//

Region *protocol::kernelBody(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (auto launch = dyn_cast<gpu::LaunchOp>(parent))
      return &launch.getBody();
    if (auto func = dyn_cast<FunctionOpInterface>(parent))
      return func.isExternal() ? nullptr : &func.getFunctionBody();
  }
  return nullptr;
}

Value protocol::rootOf(Value v) { return getRootPipeline(v); }

static void collectUsers(Value value, SmallVectorImpl<Operation *> &users) {
  for (Operation *user : value.getUsers()) {
    if (user->hasTrait<PipelineView>()) {
      collectUsers(user->getResult(0), users);
      continue;
    }
    users.push_back(user);
  }
}

Value protocol::stageRoot(Value stage) {
  for (unsigned guard = 0; stage && guard < 64; ++guard) {
    if (auto arg = dyn_cast<BlockArgument>(stage)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (!owner || !arg.getOwner()->isEntryBlock())
        return Value();
      if (Value source = getStageSource(arg))
        return rootOf(source);
      if (auto forOp = dyn_cast<scf::ForOp>(owner)) {
        if (arg.getArgNumber() < forOp.getNumInductionVars())
          return Value();
        stage = forOp.getInitArgs()[arg.getArgNumber() -
                                    forOp.getNumInductionVars()];
        continue;
      }
      if (auto whileOp = dyn_cast<scf::WhileOp>(owner)) {
        if (arg.getOwner()->getParent() != &whileOp.getBefore())
          return Value();
        stage = whileOp.getInits()[arg.getArgNumber()];
        continue;
      }
      return Value();
    }
    Operation *def = stage.getDefiningOp();
    unsigned n = cast<OpResult>(stage).getResultNumber();
    if (Value source = getStageSource(stage))
      return rootOf(source);
    if (auto forOp = dyn_cast<scf::ForOp>(def)) {
      stage = forOp.getInitArgs()[n];
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      stage = ifOp.thenYield()->getOperand(n);
      continue;
    }
    if (auto sw = dyn_cast<scf::IndexSwitchOp>(def)) {
      stage = sw.getDefaultBlock().getTerminator()->getOperand(n);
      continue;
    }
    return Value();
  }
  return Value();
}

SmallVector<PipelineUses> protocol::collectPipelines(Operation *root) {
  SmallVector<PipelineUses> result;
  DenseMap<Value, unsigned> index;
  root->walk([&](CreateOp create) {
    Region *kernel = kernelBody(create);
    if (!kernel || kernel->empty())
      return;
    PipelineUses uses;
    uses.create = create;
    uses.type = create.getResult().getType();
    uses.kernel = kernel;
    collectUsers(create.getResult(), uses.users);
    if (llvm::any_of(uses.users, [&](Operation *user) {
          return kernelBody(user) != kernel;
        }))
      return;
    SmallVector<InitMbarsOp> inits;
    for (Operation *user : uses.users)
      if (auto init = dyn_cast<InitMbarsOp>(user))
        inits.push_back(init);
    if (inits.size() == 1)
      uses.init = inits.front();
    index[create.getResult()] = result.size();
    result.push_back(std::move(uses));
  });
  if (result.empty())
    return result;

  // Stage values, grouped by the pipeline they trace back to.
  DenseSet<Region *> kernels;
  for (PipelineUses &p : result)
    kernels.insert(p.kernel);
  auto record = [&](Value v, Region *kernel) {
    auto type = dyn_cast<StageType>(v.getType());
    if (!type)
      return;
    unsigned role = type.isProducer() ? 0 : 1;
    Value r = stageRoot(v);
    auto it = r ? index.find(r) : index.end();
    if (it != index.end()) {
      result[it->second].stages[role].push_back(v);
      return;
    }
    // Untraced: every pipeline of this kernel whose type matches may own
    // it.
    PipelineType base = type.getBasePipeline();
    for (PipelineUses &p : result)
      if (p.kernel == kernel && p.type == base)
        p.untraced[role] = true;
  };
  for (Region *kernel : kernels) {
    kernel->walk([&](Operation *op) {
      for (Value v : op->getResults())
        record(v, kernel);
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            record(arg, kernel);
    });
    for (Block &block : *kernel)
      for (BlockArgument arg : block.getArguments())
        record(arg, kernel);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Constants, trip counts, paths
//===----------------------------------------------------------------------===//

std::optional<int64_t> protocol::constantInt(Value v) {
  if (!v)
    return std::nullopt;
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

std::optional<int64_t> protocol::constantTripCount(Operation *op) {
  auto forOp = dyn_cast<scf::ForOp>(op);
  if (!forOp)
    return std::nullopt;
  std::optional<int64_t> lb = constantInt(forOp.getLowerBound());
  std::optional<int64_t> ub = constantInt(forOp.getUpperBound());
  std::optional<int64_t> step = constantInt(forOp.getStep());
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  if (forOp.getUnsignedCmp() && (*lb < 0 || *ub < 0))
    return std::nullopt;
  if (*ub <= *lb)
    return 0;
  return (*ub - *lb + *step - 1) / *step;
}

std::optional<int64_t> protocol::multiplicity(Operation *op, Block *ancestor) {
  int64_t mult = 1;
  while (op->getBlock() != ancestor) {
    Operation *parent = op->getParentOp();
    if (!parent || isa<FunctionOpInterface>(parent))
      return std::nullopt;
    if (isa<scf::ForOp>(parent)) {
      std::optional<int64_t> trip = constantTripCount(parent);
      if (!trip)
        return std::nullopt;
      mult *= *trip;
    } else if (!isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp,
                    ProduceOp, ConsumeOp, ConsumeExplicitOp>(parent)) {
      return std::nullopt;
    }
    if (!op->getBlock()->isEntryBlock())
      return std::nullopt;
    op = parent;
  }
  return mult;
}

bool protocol::exclusive(Operation *a, Operation *b) {
  // The closest op that contains both, and the regions they sit in.
  for (Operation *pa = a->getParentOp(); pa; pa = pa->getParentOp()) {
    if (!pa->isProperAncestor(b))
      continue;
    if (!isa<scf::IfOp, scf::IndexSwitchOp>(pa))
      return false;
    Region *ra = nullptr, *rb = nullptr;
    for (Region &r : pa->getRegions()) {
      if (r.findAncestorOpInRegion(*a))
        ra = &r;
      if (r.findAncestorOpInRegion(*b))
        rb = &r;
    }
    return ra && rb && ra != rb;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Diagnostic text
//===----------------------------------------------------------------------===//

std::string protocol::plural(int64_t n, StringRef word) {
  std::string s = std::to_string(n) + " " + word.str();
  if (n != 1)
    s += "s";
  return s;
}

//===----------------------------------------------------------------------===//
// Block size
//===----------------------------------------------------------------------===//

static std::optional<std::array<int64_t, 3>> dims(ArrayRef<int32_t> d) {
  if (d.empty() || d.size() > 3)
    return std::nullopt;
  std::array<int64_t, 3> r = {1, 1, 1};
  for (auto [i, v] : llvm::enumerate(d)) {
    if (v <= 0)
      return std::nullopt;
    r[i] = v;
  }
  if (r[0] * r[1] * r[2] > 1024)
    return std::nullopt;
  return r;
}

static std::optional<std::array<int64_t, 3>> dimsAttr(Operation *op,
                                                      StringRef name) {
  if (auto a = op->getAttrOfType<DenseI32ArrayAttr>(name))
    return dims(a.asArrayRef());
  return std::nullopt;
}

/// True when every use of a barrier group (the first result of
/// pipeline.mbar / producer_mbar / consumer_mbar) only names the barrier
/// for a TMA transaction (nvgpu.tma.async.load, or a pointer from
/// nvgpu.mbarrier.get taken to nvvm.cp.async.bulk.tensor, possibly through
/// casts and nvvm.mapa): none of them arrives on it.
bool protocol::onlyTransactionUses(Value group) {
  SmallVector<Value> work{group};
  unsigned guard = 0;
  while (!work.empty()) {
    if (++guard > 256)
      return false;
    Value v = work.pop_back_val();
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(user)) {
        if (use.get() != load.getBarriers())
          return false;
        continue;
      }
      if (isa<nvgpu::MBarrierGetOp>(user)) {
        work.push_back(user->getResult(0));
        continue;
      }
      StringRef name = user->getName().getStringRef();
      if (name == "llvm.inttoptr" || name == "llvm.ptrtoint" ||
          name == "llvm.addrspacecast" || name == "nvvm.mapa" ||
          name == "arith.index_cast" || name == "arith.index_castui") {
        work.push_back(user->getResult(0));
        continue;
      }
      // The barrier operand of a bulk tensor copy into shared memory
      // (complete_tx only).
      if (auto copy =
              dyn_cast<NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp>(user)) {
        if (use.get() != copy.getMbar() ||
            llvm::any_of(copy->getOpOperands(), [&](OpOperand &other) {
              return &other != &use && other.get() == use.get();
            }))
          return false;
        continue;
      }
      return false;
    }
  }
  return true;
}

std::optional<std::array<int64_t, 3>> protocol::knownBlockSize(Region *kernel) {
  Operation *owner = kernel->getParentOp();
  if (auto launch = dyn_cast<gpu::LaunchOp>(owner)) {
    std::optional<int64_t> x = constantInt(launch.getBlockSizeX());
    std::optional<int64_t> y = constantInt(launch.getBlockSizeY());
    std::optional<int64_t> z = constantInt(launch.getBlockSizeZ());
    if (!x || !y || !z)
      return std::nullopt;
    if (*x > INT32_MAX || *y > INT32_MAX || *z > INT32_MAX)
      return std::nullopt;
    int32_t d[3] = {int32_t(*x), int32_t(*y), int32_t(*z)};
    return dims(d);
  }
  if (auto func = dyn_cast<gpu::GPUFuncOp>(owner))
    if (std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize())
      return dims(*known);
  for (StringRef name :
       {"gpu.known_block_size", "nvvm.reqntid", "nvvm.maxntid"})
    if (auto r = dimsAttr(owner, name))
      return r;
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Thread model
//===----------------------------------------------------------------------===//

ThreadModel::ThreadModel(Region *kernel, ThreadSpace space)
    : kernel(kernel), sp(space) {}

std::optional<int64_t> protocol::knownClusterSize(Region *kernel) {
  Operation *owner = kernel->getParentOp();
  auto dims = owner->getAttrOfType<DenseI32ArrayAttr>("nvvm.cluster_dim");
  if (!dims || dims.size() == 0)
    return std::nullopt;
  int64_t size = 1;
  for (int32_t d : dims.asArrayRef()) {
    if (d < 1)
      return std::nullopt;
    size *= d;
  }
  return size;
}

static unsigned widthOf(Type type) {
  if (type.isIndex())
    return 64;
  if (auto i = dyn_cast<IntegerType>(type))
    return i.getWidth();
  return 0;
}

static int64_t norm(uint64_t x, unsigned width) {
  if (width >= 64)
    return int64_t(x);
  return llvm::SignExtend64(x, width);
}

static uint64_t unsignedOf(int64_t x, unsigned width) {
  if (width >= 64)
    return uint64_t(x);
  return uint64_t(x) & ((uint64_t(1) << width) - 1);
}

/// The thread-id component `dim` (0, 1, 2) of the linear thread id `t`.
static int64_t component(const ThreadSpace &sp, unsigned t, unsigned dim) {
  int64_t x = t % sp.block[0];
  int64_t rest = t / sp.block[0];
  if (dim == 0)
    return x;
  if (dim == 1)
    return rest % sp.block[1];
  return rest / sp.block[1];
}

const ThreadModel::Vals *ThreadModel::eval(Value v) {
  auto it = values.find(v);
  if (it != values.end())
    return it->second.get();
  if (evalDepth > 256)
    return nullptr;
  ++evalDepth;
  std::optional<Vals> r = compute(v);
  --evalDepth;
  auto &slot = values[v];
  if (r)
    slot = std::make_unique<Vals>(std::move(*r));
  return slot.get();
}

std::optional<ThreadModel::Vals> ThreadModel::compute(Value v) {
  unsigned width = widthOf(v.getType());
  if (!width)
    return std::nullopt;
  unsigned n = sp.size();
  auto fill = [&](auto fn) {
    Vals r(n);
    for (unsigned rank = 0; rank < sp.ranks; ++rank)
      for (unsigned t = 0; t < sp.threads; ++t)
        r[sp.point(rank, t)] = norm(uint64_t(fn(rank, t)), width);
    return r;
  };

  if (auto arg = dyn_cast<BlockArgument>(v)) {
    // gpu.launch body: block ids, thread ids, grid and block sizes.
    auto launch = dyn_cast<gpu::LaunchOp>(arg.getOwner()->getParentOp());
    if (!launch || arg.getOwner() != &launch.getBody().front())
      return std::nullopt;
    gpu::KernelDim3 tids = launch.getThreadIds();
    gpu::KernelDim3 sizes = launch.getBlockSizeOperandValues();
    Value tidv[3] = {tids.x, tids.y, tids.z};
    Value sizev[3] = {sizes.x, sizes.y, sizes.z};
    for (unsigned d = 0; d < 3; ++d) {
      if (v == tidv[d])
        return fill([&](unsigned, unsigned t) { return component(sp, t, d); });
      if (v == sizev[d])
        return fill([&](unsigned, unsigned) { return sp.block[d]; });
    }
    return std::nullopt;
  }

  Operation *op = v.getDefiningOp();
  if (std::optional<int64_t> c = constantInt(v))
    return fill([&](unsigned, unsigned) { return *c; });

  auto dimOf = [](gpu::Dimension d) -> unsigned {
    switch (d) {
    case gpu::Dimension::x:
      return 0;
    case gpu::Dimension::y:
      return 1;
    case gpu::Dimension::z:
      return 2;
    }
    return 0;
  };
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(op)) {
    unsigned d = dimOf(tid.getDimension());
    return fill([&](unsigned, unsigned t) { return component(sp, t, d); });
  }
  if (auto bdim = dyn_cast<gpu::BlockDimOp>(op)) {
    unsigned d = dimOf(bdim.getDimension());
    return fill([&](unsigned, unsigned) { return sp.block[d]; });
  }
  if (isa<gpu::LaneIdOp>(op))
    return fill([&](unsigned, unsigned t) { return t % 32; });
  if (isa<gpu::SubgroupIdOp>(op))
    return fill([&](unsigned, unsigned t) { return t / 32; });

  StringRef name = op->getName().getStringRef();
  if (name.consume_front("nvvm.read.ptx.sreg.")) {
    if (name == "tid.x" || name == "tid.y" || name == "tid.z") {
      unsigned d = name.back() - 'x';
      return fill([&](unsigned, unsigned t) { return component(sp, t, d); });
    }
    if (name == "ntid.x" || name == "ntid.y" || name == "ntid.z") {
      unsigned d = name.back() - 'x';
      return fill([&](unsigned, unsigned) { return sp.block[d]; });
    }
    if (name == "laneid")
      return fill([&](unsigned, unsigned t) { return t % 32; });
    if (name == "cluster.ctarank")
      return fill([&](unsigned rank, unsigned) { return rank; });
    return std::nullopt;
  }
  if (name == "nvvm.elect.sync") {
    // One lane of every warp that executes it (the lowest active one).
    if (op->getNumOperands() != 0) {
      std::optional<int64_t> mask = constantInt(op->getOperand(0));
      if (!mask || (uint32_t(*mask) != 0xffffffffu))
        return std::nullopt;
    }
    const llvm::BitVector *ex = exec(op);
    if (!ex)
      return std::nullopt;
    Vals r(n, 0);
    for (unsigned rank = 0; rank < sp.ranks; ++rank)
      for (unsigned w = 0; w * 32 < sp.threads; ++w)
        for (unsigned t = w * 32; t < std::min(sp.threads, (w + 1) * 32); ++t)
          if (ex->test(sp.point(rank, t))) {
            r[sp.point(rank, t)] = width == 1 ? -1 : 1;
            break;
          }
    return r;
  }

  auto unary = [&](Value a, auto fn) -> std::optional<Vals> {
    const Vals *x = eval(a);
    if (!x)
      return std::nullopt;
    unsigned wa = widthOf(a.getType());
    Vals r(n);
    for (unsigned i = 0; i < n; ++i)
      r[i] = norm(uint64_t(fn((*x)[i], wa)), width);
    return r;
  };
  auto binary = [&](auto fn) -> std::optional<Vals> {
    const Vals *x = eval(op->getOperand(0));
    if (!x)
      return std::nullopt;
    const Vals *y = eval(op->getOperand(1));
    if (!y)
      return std::nullopt;
    unsigned wa = widthOf(op->getOperand(0).getType());
    Vals r(n);
    for (unsigned i = 0; i < n; ++i) {
      std::optional<int64_t> z = fn((*x)[i], (*y)[i], wa);
      if (!z)
        return std::nullopt;
      r[i] = norm(uint64_t(*z), width);
    }
    return r;
  };
  using O = std::optional<int64_t>;
  auto u = [](int64_t x, unsigned w) { return unsignedOf(x, w); };

  return llvm::TypeSwitch<Operation *, std::optional<Vals>>(op)
      .Case([&](arith::AddIOp) {
        return binary([](int64_t a, int64_t b, unsigned) -> O {
          return int64_t(uint64_t(a) + uint64_t(b));
        });
      })
      .Case([&](arith::SubIOp) {
        return binary([](int64_t a, int64_t b, unsigned) -> O {
          return int64_t(uint64_t(a) - uint64_t(b));
        });
      })
      .Case([&](arith::MulIOp) {
        return binary([](int64_t a, int64_t b, unsigned) -> O {
          return int64_t(uint64_t(a) * uint64_t(b));
        });
      })
      .Case([&](arith::AndIOp) {
        return binary(
            [](int64_t a, int64_t b, unsigned) -> O { return a & b; });
      })
      .Case([&](arith::OrIOp) {
        return binary(
            [](int64_t a, int64_t b, unsigned) -> O { return a | b; });
      })
      .Case([&](arith::XOrIOp) {
        return binary(
            [](int64_t a, int64_t b, unsigned) -> O { return a ^ b; });
      })
      .Case([&](arith::DivUIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          if (u(b, w) == 0)
            return std::nullopt;
          return int64_t(u(a, w) / u(b, w));
        });
      })
      .Case([&](arith::RemUIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          if (u(b, w) == 0)
            return std::nullopt;
          return int64_t(u(a, w) % u(b, w));
        });
      })
      .Case([&](arith::CeilDivUIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          if (u(b, w) == 0)
            return std::nullopt;
          return int64_t((u(a, w) + u(b, w) - 1) / u(b, w));
        });
      })
      .Case([&](arith::DivSIOp) {
        return binary([](int64_t a, int64_t b, unsigned) -> O {
          if (b == 0 || (b == -1 && a == INT64_MIN))
            return std::nullopt;
          return a / b;
        });
      })
      .Case([&](arith::RemSIOp) {
        return binary([](int64_t a, int64_t b, unsigned) -> O {
          if (b == 0 || (b == -1 && a == INT64_MIN))
            return std::nullopt;
          return a % b;
        });
      })
      .Case([&](arith::ShLIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          if (u(b, w) >= w)
            return std::nullopt;
          return int64_t(uint64_t(a) << u(b, w));
        });
      })
      .Case([&](arith::ShRUIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          if (u(b, w) >= w)
            return std::nullopt;
          return int64_t(u(a, w) >> u(b, w));
        });
      })
      .Case([&](arith::ShRSIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          if (u(b, w) >= w)
            return std::nullopt;
          return a >> u(b, w);
        });
      })
      .Case([&](arith::MinUIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          return u(a, w) < u(b, w) ? a : b;
        });
      })
      .Case([&](arith::MaxUIOp) {
        return binary([&](int64_t a, int64_t b, unsigned w) -> O {
          return u(a, w) > u(b, w) ? a : b;
        });
      })
      .Case([&](arith::MinSIOp) {
        return binary(
            [](int64_t a, int64_t b, unsigned) -> O { return std::min(a, b); });
      })
      .Case([&](arith::MaxSIOp) {
        return binary(
            [](int64_t a, int64_t b, unsigned) -> O { return std::max(a, b); });
      })
      .Case([&](arith::CmpIOp cmp) {
        arith::CmpIPredicate pred = cmp.getPredicate();
        return binary([&, pred](int64_t a, int64_t b, unsigned w) -> O {
          uint64_t ua = u(a, w), ub = u(b, w);
          bool r = false;
          switch (pred) {
          case arith::CmpIPredicate::eq:
            r = a == b;
            break;
          case arith::CmpIPredicate::ne:
            r = a != b;
            break;
          case arith::CmpIPredicate::slt:
            r = a < b;
            break;
          case arith::CmpIPredicate::sle:
            r = a <= b;
            break;
          case arith::CmpIPredicate::sgt:
            r = a > b;
            break;
          case arith::CmpIPredicate::sge:
            r = a >= b;
            break;
          case arith::CmpIPredicate::ult:
            r = ua < ub;
            break;
          case arith::CmpIPredicate::ule:
            r = ua <= ub;
            break;
          case arith::CmpIPredicate::ugt:
            r = ua > ub;
            break;
          case arith::CmpIPredicate::uge:
            r = ua >= ub;
            break;
          }
          return r ? 1 : 0;
        });
      })
      .Case([&](arith::SelectOp sel) -> std::optional<Vals> {
        const Vals *c = eval(sel.getCondition());
        const Vals *a = c ? eval(sel.getTrueValue()) : nullptr;
        const Vals *b = a ? eval(sel.getFalseValue()) : nullptr;
        if (!b)
          return std::nullopt;
        Vals r(n);
        for (unsigned i = 0; i < n; ++i)
          r[i] = (*c)[i] & 1 ? (*a)[i] : (*b)[i];
        return r;
      })
      .Case([&](arith::IndexCastOp c) {
        return unary(c.getIn(), [](int64_t a, unsigned) { return a; });
      })
      .Case([&](arith::ExtSIOp c) {
        return unary(c.getIn(), [](int64_t a, unsigned) { return a; });
      })
      .Case([&](arith::TruncIOp c) {
        return unary(c.getIn(), [](int64_t a, unsigned) { return a; });
      })
      .Case([&](arith::IndexCastUIOp c) {
        return unary(c.getIn(),
                     [&](int64_t a, unsigned w) { return int64_t(u(a, w)); });
      })
      .Case([&](arith::ExtUIOp c) {
        return unary(c.getIn(),
                     [&](int64_t a, unsigned w) { return int64_t(u(a, w)); });
      })
      .Default([](Operation *) { return std::nullopt; });
}

const llvm::BitVector *ThreadModel::exec(Operation *op) {
  return execBlock(op->getBlock());
}

const llvm::BitVector *ThreadModel::execBlock(Block *block) {
  auto it = blocks.find(block);
  if (it != blocks.end())
    return it->second.get();
  // Placeholder against cycles (an elect.sync whose own condition depends
  // on it cannot happen in valid IR, but stay safe).
  blocks[block] = nullptr;
  std::unique_ptr<llvm::BitVector> result;
  auto done = [&]() -> const llvm::BitVector * {
    auto &slot = blocks[block];
    slot = std::move(result);
    return slot.get();
  };

  Region *region = block->getParent();
  if (!block->isEntryBlock())
    return done();
  if (region == kernel) {
    result = std::make_unique<llvm::BitVector>(sp.size(), true);
    return done();
  }
  Operation *parent = region->getParentOp();
  if (!parent || !parent->getBlock())
    return done();
  const llvm::BitVector *base = execBlock(parent->getBlock());
  if (!base)
    return done();
  auto withCondition = [&](Value cond, bool expect) {
    const Vals *c = eval(cond);
    if (!c) {
      // The same in every thread of a CTA (a kernel argument, a loop
      // counter): the block may run in every thread that runs its parent.
      if (!mayVary(cond))
        result = std::make_unique<llvm::BitVector>(*base);
      return;
    }
    result = std::make_unique<llvm::BitVector>(*base);
    for (unsigned i = 0; i < sp.size(); ++i)
      if (bool((*c)[i] & 1) != expect)
        result->reset(i);
  };
  if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
    withCondition(ifOp.getCondition(), region == &ifOp.getThenRegion());
  } else if (auto sw = dyn_cast<scf::IndexSwitchOp>(parent)) {
    const Vals *sel = eval(sw.getArg());
    if (!sel && !mayVary(sw.getArg()))
      result = std::make_unique<llvm::BitVector>(*base);
    if (sel) {
      result = std::make_unique<llvm::BitVector>(*base);
      ArrayRef<int64_t> cases = sw.getCases();
      int caseIndex = -1;
      for (auto [i, r] : llvm::enumerate(sw.getCaseRegions()))
        if (&r == region)
          caseIndex = i;
      for (unsigned i = 0; i < sp.size(); ++i) {
        bool in = caseIndex >= 0 ? (*sel)[i] == cases[caseIndex]
                                 : !llvm::is_contained(cases, (*sel)[i]);
        if (!in)
          result->reset(i);
      }
    }
  } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
    if (!mayVary(forOp.getLowerBound()) && !mayVary(forOp.getUpperBound()) &&
        !mayVary(forOp.getStep()))
      result = std::make_unique<llvm::BitVector>(*base);
  } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
    scf::ConditionOp cond = whileOp.getConditionOp();
    bool uniform = !mayVary(cond.getCondition());
    for (Value init : whileOp.getInits())
      uniform &= !isa<IntegerType, IndexType>(init.getType()) || !mayVary(init);
    if (uniform)
      result = std::make_unique<llvm::BitVector>(*base);
  } else if (parent->hasTrait<ScopedStage>() ||
             isa<scf::ExecuteRegionOp>(parent)) {
    result = std::make_unique<llvm::BitVector>(*base);
  }
  return done();
}

bool ThreadModel::decided(Operation *op, Block *ancestor) {
  while (op->getBlock() != ancestor) {
    Operation *parent = op->getParentOp();
    if (!parent)
      return false;
    if (auto ifOp = dyn_cast<scf::IfOp>(parent)) {
      if (!eval(ifOp.getCondition()))
        return false;
    } else if (auto sw = dyn_cast<scf::IndexSwitchOp>(parent)) {
      if (!eval(sw.getArg()))
        return false;
    }
    op = parent;
  }
  return true;
}

bool ThreadModel::mayVary(Value v) {
  auto it = varying.find(v);
  if (it != varying.end())
    return it->second;
  varying[v] = true; // cycles (loop-carried values) may vary
  bool result = true;
  if (!kernel->isAncestor(v.getParentRegion())) {
    result = false; // defined outside the kernel (captured by a gpu.launch)
  } else if (auto arg = dyn_cast<BlockArgument>(v)) {
    Block *owner = arg.getOwner();
    Operation *parent = owner->getParentOp();
    if (owner->getParent() == kernel && owner->isEntryBlock() &&
        !isa<gpu::LaunchOp>(parent)) {
      result = false; // a kernel argument
    } else if (auto launch = dyn_cast<gpu::LaunchOp>(parent)) {
      // Block ids, grid and block sizes are uniform; thread ids are not.
      gpu::KernelDim3 tids = launch.getThreadIds();
      result = v == tids.x || v == tids.y || v == tids.z ||
               owner != &launch.getBody().front();
    } else if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      if (arg.getArgNumber() < forOp.getNumInductionVars())
        result = mayVary(forOp.getLowerBound()) ||
                 mayVary(forOp.getUpperBound()) || mayVary(forOp.getStep());
    } else if (auto whileOp = dyn_cast<scf::WhileOp>(parent)) {
      // A loop-carried value of an scf.while: uniform when what enters it
      // (the init, the value yielded back, or the condition's operand for
      // the body) is; a cycle through itself counts as varying.
      unsigned k = arg.getArgNumber();
      if (owner == &whileOp.getBefore().front())
        result = mayVary(whileOp.getInits()[k]) ||
                 mayVary(whileOp.getYieldOp().getResults()[k]);
      else
        result = mayVary(whileOp.getConditionOp().getArgs()[k]);
    }
  } else {
    Operation *op = v.getDefiningOp();
    StringRef name = op->getName().getStringRef();
    if (constantInt(v)) {
      result = false;
    } else if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp>(op) ||
               name == "nvvm.elect.sync" ||
               name.starts_with("nvvm.read.ptx.sreg.tid") ||
               name == "nvvm.read.ptx.sreg.laneid" ||
               name == "nvvm.read.ptx.sreg.warpid") {
      result = true;
    } else if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::BlockDimOp,
                   gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterBlockIdOp>(
                   op) ||
               llvm::any_of(ArrayRef<StringRef>{"ctaid.", "nctaid.", "ntid.",
                                                "cluster", "nclusterid.",
                                                "clusterid."},
                            [&](StringRef prefix) {
                              return name.starts_with(
                                  ("nvvm.read.ptx.sreg." + prefix).str());
                            })) {
      result = false;
    } else if (isa<ClcResponseOp>(op)) {
      // Every thread that reads a stage of a clc pipeline reads the same
      // response (one multicast answer per stage): like a loop counter, the
      // same in every thread at the same visit.
      result = false;
    } else if (op->getNumRegions() == 0 && isMemoryEffectFree(op)) {
      result =
          llvm::any_of(op->getOperands(), [&](Value x) { return mayVary(x); });
    }
  }
  varying[v] = result;
  return result;
}
