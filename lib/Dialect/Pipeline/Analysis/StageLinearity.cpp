//===- StageLinearity.cpp - stage handle linearity analysis -----*- C++ -*-===//
//
// The linear-type check of `!pipeline.stage` handles (docs/verifier.md).
//
// One forward walk over each function. The state of every handle (live,
// released, passed on) lives in flat arrays indexed by a handle id; every
// change goes through an undo log. A region is walked once:
//
//  * a structured op (scf.if, scf.index_switch, ...) walks each region from
//    the same state by undoing the log to a mark in between, and compares
//    the *effects* of the regions (the handles defined outside whose state
//    changed, read off the log segment) before applying the merged effect;
//  * a loop body is walked once: a handle carried through iter_args is a
//    fresh handle per iteration, so one iteration shows every leak, and a
//    handle defined outside the loop must not change state inside it;
//  * a region with several blocks is a dataflow over its reachable blocks
//    in reverse post order. The state at a block entry is the delta from the
//    region entry (outer handles consumed, local handles live), which rule
//    4 keeps small; it is set by the first incoming edge and every other
//    edge (merges and back edges) must agree with it.
//
// The cost is linear in the number of ops plus, per block and structured
// op, the number of handles held at that point (bounded by twice the number
// of pipelines under rule 4).
//
//===----------------------------------------------------------------------===//

#include "pipeline/Dialect/Pipeline/Analysis/StageLinearity.h"
#include "ProtocolUtils.h"

#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace pmlir;

namespace {

/// State of a handle on the path being walked.
enum class Status : uint8_t {
  Unborn,   // not defined on this path (or, in a CFG, consumed earlier)
  Live,     // held: must be consumed exactly once
  Released, // consumed by an op (release, commit, step, ...)
  Moved,    // passed on: yielded, carried through iter_args or a branch
};

/// What kind of region is being walked: decides what its terminator does
/// with handles and how diagnostics name the path.
enum class RegionKind : uint8_t {
  Function,
  IfThen,
  IfElse,
  SwitchCase,
  SwitchDefault,
  ForBody,
  WhileBefore,
  WhileAfter,
  ExecuteRegion,
  Scoped, // pipeline.produce / consume / consume_explicit
  Other,  // a region of an op the analysis does not know
};

struct RegionContext {
  RegionKind kind;
  Operation *parent;
  int64_t caseValue = 0;
};

/// How an entry block argument of stage type gets its handle.
struct ArgDef {
  int source = -1;       // handle it carries (iter_args), or -1: a new one
  bool owned = false;    // owned by the region's op (produce / consume)
  bool poisoned = false; // an error was already reported for it
  int key = -1;
  Value root;
  /// A memref argument that is a payload tile: of the stage carried by
  /// argument `tileOfArg` of the same block, or of the handles `tileOf`.
  int tileOfArg = -1;
  SmallVector<unsigned, 1> tileOf;
  Operation *tilePayload = nullptr;
};

struct HandleInfo {
  Location loc;     // where the stage was acquired (for carried handles:
                    // where the first handle they carry was acquired)
  bool acquired;    // loc is an acquire, not some other definition
  unsigned depth;   // depth of the region that defines the handle
  int key;          // (pipeline, role) key, -1 when unknown
  Value root;       // pipeline underneath, null when unknown
  Operation *owner; // produce / consume op owning it, or null
  uint64_t seq = 0; // acquisition order (for carried handles: the first's)
};

/// The state of a handle at the end of a path.
struct Change {
  unsigned h;
  Status status;
  uint64_t arrived;
};

/// A handle passed on by a terminator (-1: not a tracked handle). For a
/// forwarded memref that is a payload tile: the handles of its stages.
struct Fwd {
  int h = -1;
  uint64_t arrived = 0;
  SmallVector<unsigned, 1> tile;
  Operation *tilePayload = nullptr;
};

/// A terminator that leaves the region being walked.
struct Exit {
  Operation *term; // null when the block has no terminator
  Block *block;    // its block, null in a single-block region
  SmallVector<Change> effect;
  SmallVector<Fwd> fwd;
};

struct RegionResult {
  /// Handles defined outside the region whose state the region changed,
  /// merged over all its exits.
  SmallVector<Change> effect;
  /// For each exit, the handles its terminator passes on.
  SmallVector<SmallVector<Fwd>, 1> exitFwd;
};

struct Collected {
  SmallVector<Change> outer;       // outer handles whose state changed
  SmallVector<unsigned> localLive; // live handles defined in the region
};

static uint64_t subStageBit(uint32_t subStage) {
  return uint64_t(1) << std::min<uint32_t>(subStage, 63);
}

static StringRef constructName(const RegionContext &ctx) {
  switch (ctx.kind) {
  case RegionKind::Function:
    return "function";
  case RegionKind::IfThen:
  case RegionKind::IfElse:
    return "scf.if";
  case RegionKind::SwitchCase:
  case RegionKind::SwitchDefault:
    return "scf.index_switch";
  case RegionKind::ForBody:
    return "scf.for";
  case RegionKind::WhileBefore:
  case RegionKind::WhileAfter:
    return "scf.while";
  case RegionKind::ExecuteRegion:
    return "scf.execute_region";
  case RegionKind::Scoped:
  case RegionKind::Other:
    return ctx.parent->getName().getStringRef();
  }
  llvm_unreachable("unknown region kind");
}

/// How the end of a single-block region is named in a leak diagnostic.
static std::string regionPhrase(const RegionContext &ctx) {
  std::string s;
  llvm::raw_string_ostream os(s);
  switch (ctx.kind) {
  case RegionKind::Function:
    os << "at the end of the function";
    break;
  case RegionKind::IfThen:
    os << "when the scf.if condition is true";
    break;
  case RegionKind::IfElse:
    os << "when the scf.if condition is false";
    break;
  case RegionKind::SwitchCase:
    os << "in case " << ctx.caseValue << " of the scf.index_switch";
    break;
  case RegionKind::SwitchDefault:
    os << "in the default case of the scf.index_switch";
    break;
  case RegionKind::ForBody:
    os << "at the end of every scf.for iteration";
    break;
  case RegionKind::WhileBefore:
    os << "at the end of the scf.while before region";
    break;
  case RegionKind::WhileAfter:
    os << "at the end of every scf.while iteration";
    break;
  case RegionKind::ExecuteRegion:
    os << "at the end of the scf.execute_region";
    break;
  case RegionKind::Scoped:
    os << "at the end of the " << ctx.parent->getName() << " region";
    break;
  case RegionKind::Other:
    os << "at the end of a region of '" << ctx.parent->getName() << "'";
    break;
  }
  return s;
}

static std::string blockName(unsigned index) {
  return "^bb" + std::to_string(index);
}

/// How a path of a multi-block region is named.
static std::string cfgPhrase(const RegionContext &ctx, unsigned block) {
  std::string s = "on the path through " + blockName(block);
  if (ctx.kind == RegionKind::Other)
    s += " of a region of '" + ctx.parent->getName().getStringRef().str() + "'";
  else if (ctx.kind != RegionKind::Function)
    s += " of the " + constructName(ctx).str();
  return s;
}

static Operation *terminatorOf(Block &block) {
  if (block.empty())
    return nullptr;
  Operation &back = block.back();
  return back.hasTrait<OpTrait::IsTerminator>() ? &back : nullptr;
}

class Checker {
public:
  Checker(SmallVectorImpl<Operation *> &isolated, StageLinearityStats &stats)
      : isolated(isolated), stats(stats) {}

  void analyzeFunction(FunctionOpInterface fn);
  bool hasFailed() const { return failed; }

private:
  //===--------------------------------------------------------------------===//
  // Handles and their state
  //===--------------------------------------------------------------------===//

  unsigned newHandle(Value value, HandleInfo hi, bool poison);
  unsigned defineFresh(Value value, Location loc, bool acquired, int key,
                       Value root, Operation *owner, bool poison);
  unsigned defineCarried(Value value, ArrayRef<Fwd> sources);
  int lookup(Value v) const {
    auto it = func.ids.find(v);
    return it == func.ids.end() ? -1 : int(it->second);
  }
  bool isOuter(unsigned h) const { return handle(h).info.depth < depth; }
  /// Position of `block` in its region (its ^bbN name when printed). Only
  /// diagnostics need it: computed for the whole region on first use.
  unsigned blockIndex(Block *block) {
    auto it = func.blockIndices.find(block);
    if (it != func.blockIndices.end())
      return it->second;
    unsigned i = 0;
    for (Block &b : *block->getParent())
      func.blockIndices[&b] = i++;
    return func.blockIndices.lookup(block);
  }
  bool isLive(unsigned h) const { return handle(h).status == Status::Live; }
  void set(unsigned h, Status s, uint64_t arrivedMask);
  void raw(unsigned h, Status s, uint64_t arrivedMask);
  void undoTo(size_t mark);
  unsigned find(unsigned h);
  void unite(unsigned a, unsigned b);
  int keyFor(Value root, Role role);

  //===--------------------------------------------------------------------===//
  // Walk
  //===--------------------------------------------------------------------===//

  RegionResult walkRegion(Region &region, const RegionContext &ctx,
                          ArrayRef<ArgDef> args);
  /// A block of a region with a CFG, as the CFG walk sees it.
  struct CFGNode {
    Block *block;
    unsigned rpo = 0;
    uint8_t dfs = 1; // 1: on the DFS stack, 2: done
    bool backPred = false;
    SmallVector<unsigned, 2> succs; // node ids, one per successor
  };
  /// The blocks reachable from the entry; rpo holds node ids.
  struct BlockGraph {
    std::vector<CFGNode> nodes;
    DenseMap<Block *, unsigned> nodeOf;
    SmallVector<unsigned> rpo;
  };
  BlockGraph buildBlockGraph(Region &region);
  void rejectUnreachableBlocks(Region &region, const BlockGraph &graph);
  void visitBranchOperands(Operation *term, BranchOpInterface branch);
  SmallVector<Change> edgeEntryState(Operation *term, BranchOpInterface branch,
                                     unsigned s, Block *succ,
                                     bool backEdgeTarget,
                                     ArrayRef<Change> base);
  void mergeEdgeState(const RegionContext &ctx, Operation *term, Block *block,
                      Block *setter, Block *succ, bool back,
                      SmallVector<Change> &stored, ArrayRef<Change> edge);
  void walkCFG(Region &region, const RegionContext &ctx, size_t mark,
               SmallVectorImpl<Exit> &exits);
  void walkBlockOps(Block &block);
  void handleExit(Block &block, const RegionContext &ctx, Block *cfgBlock,
                  size_t mark, SmallVectorImpl<Exit> &exits);
  Collected collect(size_t mark);
  SmallVector<Change> blockDelta(const Collected &c);
  void apply(ArrayRef<Change> changes);
  SmallVector<Change>
  mergeEffects(ArrayRef<ArrayRef<Change>> effects,
               function_ref<void(unsigned h, unsigned holder)> report);

  void visitOp(Operation *op);
  void visitOperands(Operation *op);
  void visitOperand(Operation *op, OpOperand &operand,
                    StageUseOpInterface iface);
  void defineResults(Operation *op);
  void defineCarriedResults(ResultRange results,
                            ArrayRef<const RegionResult *> regions,
                            ArrayRef<Fwd> extra = {});
  void visitIf(scf::IfOp op);
  void visitIndexSwitch(scf::IndexSwitchOp op);
  void visitFor(scf::ForOp op);
  void visitWhile(scf::WhileOp op);
  void visitExecuteRegion(scf::ExecuteRegionOp op);
  void visitScoped(Operation *op, Value pipeline, Region &body, Role role);
  void visitUnknownRegionOp(Operation *op);

  void consume(unsigned h, Operation *op, StageType type);
  void borrow(unsigned h, Operation *op, StageType type);
  bool transferable(unsigned h, Operation *op);
  Fwd moveIn(Value v, Operation *op);
  void checkTile(Operation *op, Value v);
  bool familyHeld(unsigned h);
  void defineTileResults(ResultRange results,
                         ArrayRef<const RegionResult *> regions);
  bool roleConflict(Operation *op, int key, Role role, unsigned allowed);
  void checkReleaseOrder(unsigned h, Operation *op);
  void exitOwned(unsigned h, Operation *owner);
  void reportLoopRelease(unsigned h, const RegionContext &ctx);
  void finishFunction();

  //===--------------------------------------------------------------------===//
  // Diagnostics
  //===--------------------------------------------------------------------===//

  // At the op's location only: op->emitError() would attach the whole op
  // (the "see current operation" note), which for a region op repeats all
  // the IR nested in it, once per error.
  InFlightDiagnostic error(Operation *op) { return error(op->getLoc()); }
  InFlightDiagnostic error(Location loc) {
    failed = true;
    return emitError(loc);
  }
  void noteOrigin(InFlightDiagnostic &diag, unsigned h) {
    diag.attachNote(handle(h).info.loc)
        << (handle(h).info.acquired ? "stage acquired here"
                                    : "stage handle defined here");
  }
  /// True if `op` ends a handle (release, commit, ...) rather than passing
  /// it on (yield, branch, iter_args).
  static bool releases(Operation *op) {
    auto iface = dyn_cast<StageUseOpInterface>(op);
    if (!iface)
      return false;
    return llvm::any_of(op->getOpOperands(), [&](OpOperand &operand) {
      return isa<StageType>(operand.get().getType()) &&
             iface.consumesStage(operand);
    });
  }
  void noteConsume(InFlightDiagnostic &diag, unsigned h, StringRef suffix) {
    Operation *at = handle(h).lastConsume;
    if (!at)
      return;
    diag.attachNote(at->getLoc())
        << (releases(at) ? "released here" : "passed on here") << suffix;
  }
  void reportUseAfter(unsigned h, Operation *op, bool consuming);
  void reportEscape(unsigned h, Operation *op);
  void reportDoubleSignal(unsigned h, Operation *op);
  void checkRepeatedSignal(unsigned h, Operation *op, StageType type);
  void checkStepWhileHeld(Operation *op);

  //===--------------------------------------------------------------------===//
  // State (per function)
  //===--------------------------------------------------------------------===//

  struct LogEntry {
    unsigned h;
    Status old;
    uint64_t oldArrived;
  };
  struct Tile {
    SmallVector<unsigned, 1> handles; // the stages it may belong to
    Operation *payload;               // where it was taken
  };
  struct Pending {
    Operation *op;
    unsigned h;
  };

  SmallVectorImpl<Operation *> &isolated;
  StageLinearityStats &stats;
  bool failed = false;
  unsigned depth = 0;

  /// Everything the walk knows about one handle, indexed by handle id.
  struct Handle {
    explicit Handle(HandleInfo info, unsigned id, bool poisoned)
        : info(info), poisoned(poisoned), parent(id) {}
    HandleInfo info;
    Status status = Status::Unborn;
    uint64_t arrived = 0;                  // must-arrived sub-stages (consumer)
    bool poisoned;                         // an error was reported: stay silent
    bool evidence = false;                 // something may signal its barrier
    Operation *lastConsume = nullptr;      // where it was last consumed
    Operation *lastArrive = nullptr;       // where it last arrived
    SmallVector<Operation *, 1> signalOps; // every signal seen
    Operation *bytesOnly = nullptr;        // a TMA load on its barrier
    unsigned parent;                       // union-find over carried handles
    unsigned stamp = 0;                    // collect(): seen in this round
  };

  /// The state of the function being analyzed; reset by assigning a fresh
  /// one when the next function starts.
  struct FunctionState {
    std::vector<Handle> handles;
    unsigned stampCounter = 0;
    std::vector<LogEntry> log; // undo log of handle state changes
    DenseMap<Value, unsigned> ids;
    DenseMap<Block *, unsigned> blockIndices; // filled on demand, per region
    DenseMap<Value, Tile> tiles;
    DenseMap<std::pair<void *, unsigned>, int> keyIds;
    std::vector<SmallVector<unsigned, 1>> liveByKey;
    uint64_t seqCounter = 0;
    DenseSet<void *> consumerRootSignalled;
    DenseSet<void *> producerRootSignalled;
    SmallVector<Pending> pendingSignals;
  };
  FunctionState func;

  Handle &handle(unsigned h) { return func.handles[h]; }
  const Handle &handle(unsigned h) const { return func.handles[h]; }
};

} // namespace

//===----------------------------------------------------------------------===//
// Handles and their state
//===----------------------------------------------------------------------===//

unsigned Checker::newHandle(Value value, HandleInfo hi, bool poison) {
  unsigned h = func.handles.size();
  ++stats.handles;
  func.handles.emplace_back(hi, h, poison);
  if (value)
    func.ids[value] = h;
  return h;
}

unsigned Checker::defineFresh(Value value, Location loc, bool acquired, int key,
                              Value root, Operation *owner, bool poison) {
  unsigned h = newHandle(
      value,
      HandleInfo{loc, acquired, depth, key, root, owner, ++func.seqCounter},
      poison);
  set(h, Status::Live, 0);
  return h;
}

unsigned Checker::defineCarried(Value value, ArrayRef<Fwd> sources) {
  const Fwd *first = llvm::find_if(sources, [](Fwd f) { return f.h >= 0; });
  if (first == sources.end())
    return defineFresh(value, value.getLoc(), /*acquired=*/false, -1, Value(),
                       nullptr, false);
  HandleInfo hi = handle(first->h).info;
  hi.depth = depth;
  hi.owner = nullptr;
  bool poison = false;
  uint64_t mask = ~uint64_t(0);
  for (Fwd f : sources) {
    if (f.h < 0)
      continue;
    poison |= bool(handle(f.h).poisoned);
    mask &= f.arrived;
  }
  unsigned h = newHandle(value, hi, poison);
  for (Fwd f : sources)
    if (f.h >= 0)
      unite(f.h, h);
  set(h, Status::Live, mask);
  return h;
}

void Checker::raw(unsigned h, Status s, uint64_t arrivedMask) {
  bool wasLive = handle(h).status == Status::Live;
  bool nowLive = s == Status::Live;
  if (wasLive != nowLive && handle(h).info.key >= 0) {
    auto &live = func.liveByKey[handle(h).info.key];
    if (nowLive) {
      live.push_back(h);
    } else {
      auto it = llvm::find(live, h);
      if (it != live.end()) {
        *it = live.back();
        live.pop_back();
      }
    }
  }
  handle(h).status = s;
  handle(h).arrived = arrivedMask;
}

void Checker::set(unsigned h, Status s, uint64_t arrivedMask) {
  ++stats.stateChanges;
  func.log.push_back({h, handle(h).status, handle(h).arrived});
  raw(h, s, arrivedMask);
}

void Checker::undoTo(size_t mark) {
  while (func.log.size() > mark) {
    LogEntry e = func.log.back();
    func.log.pop_back();
    raw(e.h, e.old, e.oldArrived);
  }
}

unsigned Checker::find(unsigned h) {
  while (handle(h).parent != h) {
    handle(h).parent = handle(handle(h).parent).parent;
    h = handle(h).parent;
  }
  return h;
}

void Checker::unite(unsigned a, unsigned b) {
  a = find(a);
  b = find(b);
  if (a != b)
    handle(b).parent = a;
}

int Checker::keyFor(Value root, Role role) {
  auto [it, inserted] = func.keyIds.try_emplace(
      {root.getAsOpaquePointer(), unsigned(role)}, int(func.liveByKey.size()));
  if (inserted)
    func.liveByKey.emplace_back();
  return it->second;
}

//===----------------------------------------------------------------------===//
// Regions
//===----------------------------------------------------------------------===//

RegionResult Checker::walkRegion(Region &region, const RegionContext &ctx,
                                 ArrayRef<ArgDef> args) {
  RegionResult result;
  if (region.empty())
    return result;
  ++depth;
  size_t mark = func.log.size();
  Block &entry = region.front();
  for (BlockArgument arg : entry.getArguments()) {
    if (!isa<StageType>(arg.getType()))
      continue;
    ArgDef def;
    if (arg.getArgNumber() < args.size())
      def = args[arg.getArgNumber()];
    if (def.source >= 0) {
      defineCarried(arg, Fwd{def.source, 0});
      continue;
    }
    bool acquired = def.owned;
    Location loc = def.owned ? ctx.parent->getLoc() : arg.getLoc();
    defineFresh(arg, loc, acquired, def.key, def.root,
                def.owned ? ctx.parent : nullptr, def.poisoned);
  }
  for (auto [i, def] : llvm::enumerate(args)) {
    if (!def.tilePayload || i >= entry.getNumArguments())
      continue;
    Tile tile{def.tileOf, def.tilePayload};
    if (def.tileOfArg >= 0) {
      int h = lookup(entry.getArgument(def.tileOfArg));
      tile.handles.clear();
      if (h >= 0)
        tile.handles.push_back(h);
    }
    if (!tile.handles.empty())
      func.tiles[entry.getArgument(i)] = tile;
  }

  SmallVector<Exit> exits;
  Operation *term = terminatorOf(entry);
  if (region.hasOneBlock() && (!term || term->getNumSuccessors() == 0)) {
    walkBlockOps(entry);
    handleExit(entry, ctx, nullptr, mark, exits);
  } else {
    walkCFG(region, ctx, mark, exits);
  }
  undoTo(mark);

  // The exits must agree on the handles defined outside the region.
  if (exits.size() == 1) {
    result.effect = std::move(exits.front().effect);
  } else if (exits.size() > 1) {
    SmallVector<ArrayRef<Change>> effects;
    for (Exit &e : exits)
      effects.push_back(e.effect);
    result.effect = mergeEffects(effects, [&](unsigned h, unsigned holder) {
      Exit &e = exits[holder];
      auto diag = error(e.term ? e.term : ctx.parent)
                  << "stage handle leaks "
                  << cfgPhrase(ctx, blockIndex(e.block));
      noteConsume(diag, h, " on another path");
      noteOrigin(diag, h);
    });
  }
  for (Exit &e : exits)
    result.exitFwd.push_back(std::move(e.fwd));
  --depth;
  return result;
}

void Checker::walkBlockOps(Block &block) {
  Operation *term = terminatorOf(block);
  for (Operation &op : block) {
    if (&op == term)
      break;
    visitOp(&op);
  }
}

Collected Checker::collect(size_t mark) {
  Collected c;
  ++func.stampCounter;
  stats.logScans += func.log.size() - mark;
  for (size_t i = mark, e = func.log.size(); i < e; ++i) {
    const LogEntry &entry = func.log[i];
    unsigned h = entry.h;
    if (handle(h).stamp == func.stampCounter)
      continue;
    handle(h).stamp = func.stampCounter;
    if (handle(h).poisoned)
      continue;
    if (isOuter(h)) {
      if (handle(h).status != entry.old ||
          (isLive(h) && handle(h).arrived != entry.oldArrived))
        c.outer.push_back({h, handle(h).status, handle(h).arrived});
    } else if (handle(h).info.depth == depth && isLive(h)) {
      c.localLive.push_back(h);
    }
  }
  return c;
}

SmallVector<Change> Checker::blockDelta(const Collected &c) {
  SmallVector<Change> delta;
  for (const Change &change : c.outer)
    if (change.status != Status::Live)
      delta.push_back(change);
  for (unsigned h : c.localLive)
    delta.push_back({h, Status::Live, handle(h).arrived});
  llvm::sort(delta, [](const Change &a, const Change &b) { return a.h < b.h; });
  return delta;
}

void Checker::apply(ArrayRef<Change> changes) {
  for (const Change &c : changes)
    set(c.h, c.status,
        c.status == Status::Live ? c.arrived : handle(c.h).arrived);
}

SmallVector<Change>
Checker::mergeEffects(ArrayRef<ArrayRef<Change>> effects,
                      function_ref<void(unsigned h, unsigned holder)> report) {
  SmallVector<unsigned> order;
  DenseMap<unsigned, SmallVector<std::pair<unsigned, Change>, 2>> groups;
  for (auto [b, effect] : llvm::enumerate(effects)) {
    for (const Change &c : effect) {
      auto &group = groups[c.h];
      if (group.empty())
        order.push_back(c.h);
      group.push_back({unsigned(b), c});
    }
  }
  SmallVector<Change> merged;
  for (unsigned h : order) {
    if (handle(h).poisoned)
      continue;
    auto &group = groups[h];
    bool allPresent = group.size() == effects.size();
    bool anyLive = !allPresent && isLive(h);
    bool anyDead = !allPresent && !isLive(h);
    bool allMoved = true;
    uint64_t mask = allPresent ? ~uint64_t(0) : handle(h).arrived;
    for (auto &[b, c] : group) {
      (c.status == Status::Live ? anyLive : anyDead) = true;
      allMoved &= c.status == Status::Moved;
      mask &= c.arrived;
    }
    if (anyLive && anyDead) {
      // Report on a path that still holds the handle.
      unsigned holder = 0;
      auto live = llvm::find_if(group, [](auto &entry) {
        return entry.second.status == Status::Live;
      });
      if (live != group.end()) {
        holder = live->first;
      } else {
        SmallVector<char> present(effects.size(), 0);
        for (auto &entry : group)
          present[entry.first] = 1;
        holder = llvm::find(present, 0) - present.begin();
      }
      report(h, holder);
      handle(h).poisoned = true;
      continue;
    }
    if (anyLive) {
      if (mask != handle(h).arrived)
        merged.push_back({h, Status::Live, mask});
      continue;
    }
    merged.push_back({h, allMoved ? Status::Moved : Status::Released, 0});
  }
  return merged;
}

void Checker::handleExit(Block &block, const RegionContext &ctx,
                         Block *cfgBlock, size_t mark,
                         SmallVectorImpl<Exit> &exits) {
  Operation *term = terminatorOf(block);
  Exit exit{term, cfgBlock, {}, {}};
  if (term)
    ++stats.ops;
  if (term) {
    bool forwards = false;
    OperandRange forwarded = term->getOperands();
    switch (ctx.kind) {
    case RegionKind::IfThen:
    case RegionKind::IfElse:
    case RegionKind::SwitchCase:
    case RegionKind::SwitchDefault:
    case RegionKind::ForBody:
    case RegionKind::WhileAfter:
    case RegionKind::ExecuteRegion:
      forwards = isa<scf::YieldOp>(term);
      break;
    case RegionKind::WhileBefore:
      if (auto cond = dyn_cast<scf::ConditionOp>(term)) {
        forwards = true;
        forwarded = cond.getArgs();
      }
      break;
    default:
      break;
    }
    if (forwards) {
      for (Value v : forwarded) {
        Fwd f;
        if (isa<StageType>(v.getType())) {
          f.h = lookup(v);
          if (f.h >= 0) {
            f.arrived = handle(f.h).arrived;
            if (transferable(f.h, term)) {
              set(f.h, Status::Moved, handle(f.h).arrived);
              handle(f.h).lastConsume = term;
            }
          }
        } else if (!func.tiles.empty() && isa<BaseMemRefType>(v.getType())) {
          checkTile(term, v);
          auto it = func.tiles.find(v);
          if (it != func.tiles.end()) {
            f.tile = it->second.handles;
            f.tilePayload = it->second.payload;
          }
        }
        exit.fwd.push_back(f);
      }
    } else {
      visitOperands(term);
      defineResults(term);
    }
  }

  Collected c = collect(mark);
  Operation *at = term ? term : ctx.parent;
  for (unsigned h : c.localLive) {
    if (Operation *owner = handle(h).info.owner) {
      exitOwned(h, owner);
      continue;
    }
    auto diag = error(at) << "stage handle leaks "
                          << (cfgBlock ? cfgPhrase(ctx, blockIndex(cfgBlock))
                                       : regionPhrase(ctx));
    noteOrigin(diag, h);
    handle(h).poisoned = true;
  }
  exit.effect = std::move(c.outer);
  exits.push_back(std::move(exit));
}

/// Finds the blocks of `region` reachable from its entry, in reverse post
/// order, by an iterative DFS. An edge to a block still on the DFS stack is
/// exactly an edge to a block that comes no later in reverse post order: a
/// back edge. The DFS records every edge as a node id, so that the walk needs
/// no more lookups by block.
Checker::BlockGraph Checker::buildBlockGraph(Region &region) {
  BlockGraph graph;
  std::vector<CFGNode> &nodes = graph.nodes;
  DenseMap<Block *, unsigned> &nodeOf = graph.nodeOf;
  SmallVector<unsigned> post;
  SmallVector<std::pair<unsigned, unsigned>> stack;
  nodes.push_back({&region.front()});
  nodeOf[&region.front()] = 0;
  stack.push_back({0, 0});
  while (!stack.empty()) {
    auto [u, next] = stack.back();
    Block *block = nodes[u].block;
    if (next < block->getNumSuccessors()) {
      ++stack.back().second;
      Block *succ = block->getSuccessor(next);
      auto [it, inserted] = nodeOf.try_emplace(succ, nodes.size());
      unsigned v = it->second;
      if (inserted) {
        nodes.push_back({succ});
        stack.push_back({v, 0});
      } else if (nodes[v].dfs == 1) {
        nodes[v].backPred = true;
      }
      nodes[u].succs.push_back(v);
      continue;
    }
    nodes[u].dfs = 2;
    post.push_back(u);
    stack.pop_back();
  }
  graph.rpo.assign(post.rbegin(), post.rend());
  for (auto [i, u] : llvm::enumerate(graph.rpo))
    nodes[u].rpo = i;
  return graph;
}

/// The walk only follows the blocks reachable from the entry, and the
/// lowering leaves the others unconverted (an internal "unresolved
/// materialization" error): rejects a pipeline op or stage handle there.
void Checker::rejectUnreachableBlocks(Region &region, const BlockGraph &graph) {
  for (auto [index, block] : llvm::enumerate(region)) {
    if (graph.nodeOf.count(&block))
      continue;
    auto isStage = [](Value v) { return isa<StageType>(v.getType()); };
    Operation *use = nullptr;
    bool stage = llvm::any_of(block.getArguments(), isStage);
    block.walk([&](Operation *op) {
      bool usesStage = llvm::any_of(op->getOperands(), isStage) ||
                       llvm::any_of(op->getResults(), isStage);
      if (!usesStage && !isa_and_nonnull<PipelineDialect>(op->getDialect()))
        return WalkResult::advance();
      use = op;
      stage |= usesStage;
      return WalkResult::interrupt();
    });
    if (!use && !stage)
      continue;
    error(use ? use->getLoc() : block.getArgument(0).getLoc())
        << (stage ? "stage handle used" : "pipeline op")
        << " in an unreachable block (" << blockName(index)
        << " has no path from the entry block): remove the block or branch "
           "to it";
  }
}

/// Visits the operands of a branching terminator. Operands that a successor
/// receives are passed on; any other stage operand is an ordinary use.
void Checker::visitBranchOperands(Operation *term, BranchOpInterface branch) {
  SmallVector<char> isForwarded(term->getNumOperands(), 0);
  if (branch) {
    for (unsigned s = 0; s < term->getNumSuccessors(); ++s) {
      OperandRange fwd = branch.getSuccessorOperands(s).getForwardedOperands();
      if (!fwd.empty())
        for (unsigned j = 0; j < fwd.size(); ++j)
          isForwarded[fwd.getBeginOperandIndex() + j] = 1;
    }
  }
  auto iface = dyn_cast<StageUseOpInterface>(term);
  for (OpOperand &operand : term->getOpOperands()) {
    if (!isForwarded[operand.getOperandNumber()]) {
      visitOperand(term, operand, iface);
      continue;
    }
    Value v = operand.get();
    if (isa<StageType>(v.getType())) {
      int h = lookup(v);
      if (h >= 0 && transferable(h, term))
        handle(h).lastConsume = term;
    } else if (!func.tiles.empty() && isa<BaseMemRefType>(v.getType())) {
      checkTile(term, v);
    }
  }
}

/// The entry state that the edge from `term` to its successor `s` gives that
/// successor: `base` (the state at the end of the block) with the handles
/// forwarded to `succ`'s block arguments moved into the arguments' handles.
/// `backEdgeTarget`: `succ` has a back edge into it (the arrivals are then
/// not carried over).
SmallVector<Change> Checker::edgeEntryState(Operation *term,
                                            BranchOpInterface branch,
                                            unsigned s, Block *succ,
                                            bool backEdgeTarget,
                                            ArrayRef<Change> base) {
  SmallVector<Change> edge(base.begin(), base.end());
  unsigned produced = 0;
  std::optional<OperandRange> fwd;
  if (branch) {
    SuccessorOperands so = branch.getSuccessorOperands(s);
    produced = so.getProducedOperandCount();
    fwd = so.getForwardedOperands();
  }
  SmallVector<unsigned, 2> movedHere;
  for (BlockArgument arg : succ->getArguments()) {
    if (!isa<StageType>(arg.getType()))
      continue;
    unsigned k = arg.getArgNumber();
    int src = -1;
    if (fwd && k >= produced && k - produced < fwd->size())
      src = lookup((*fwd)[k - produced]);
    Fwd source;
    if (src >= 0) {
      source = {src, backEdgeTarget ? 0 : handle(src).arrived};
      if (!handle(src).poisoned &&
          llvm::is_contained(movedHere, unsigned(src))) {
        auto diag = error(term) << "stage handle passed twice to "
                                << blockName(blockIndex(succ));
        noteOrigin(diag, src);
        handle(src).poisoned = true;
      }
      movedHere.push_back(src);
      auto it = llvm::find_if(
          edge, [&](const Change &c) { return c.h == unsigned(src); });
      if (isOuter(src)) {
        if (it != edge.end())
          it->status = Status::Moved;
        else
          edge.push_back({unsigned(src), Status::Moved, 0});
      } else if (it != edge.end()) {
        edge.erase(it);
      }
    }
    // One handle per block argument, shared by all incoming edges.
    int argId = lookup(arg);
    if (argId < 0) {
      HandleInfo hi{arg.getLoc(), false, depth, -1, Value(), nullptr};
      if (src >= 0) {
        hi = handle(src).info;
        hi.depth = depth;
        hi.owner = nullptr;
      }
      argId = newHandle(arg, hi, false);
    }
    if (src >= 0) {
      unite(src, argId);
      if (handle(src).poisoned)
        handle(argId).poisoned = true;
    }
    if (!handle(argId).poisoned)
      edge.push_back({unsigned(argId), Status::Live, source.arrived});
  }
  llvm::sort(edge, [](const Change &a, const Change &b) { return a.h < b.h; });
  stats.edgeEntries += edge.size();
  return edge;
}

/// A merge or (`back`) a back edge into `succ`: the handles held on the edge
/// from `block` (`edge`) must be those held on the edge from `setter` that
/// set `succ`'s entry state (`stored`); reports each handle held on one but
/// not the other. On a merge, the arrivals are those of both edges.
void Checker::mergeEdgeState(const RegionContext &ctx, Operation *term,
                             Block *block, Block *setter, Block *succ,
                             bool back, SmallVector<Change> &stored,
                             ArrayRef<Change> edge) {
  auto termOf = [&](Block *b) -> Operation * {
    Operation *t = terminatorOf(*b);
    return t ? t : ctx.parent;
  };
  auto report = [&](unsigned h, bool holderIsNew) {
    if (handle(h).poisoned)
      return;
    Block *holder = holderIsNew ? block : setter;
    Block *other = holderIsNew ? setter : block;
    if (!back) {
      auto diag = error(termOf(holder))
                  << "stage handle leaks " << cfgPhrase(ctx, blockIndex(holder))
                  << ": it is held on the edge to "
                  << blockName(blockIndex(succ)) << " but not on the edge from "
                  << blockName(blockIndex(other));
      noteOrigin(diag, h);
    } else if (holderIsNew) {
      auto diag = error(term)
                  << "stage handle leaks " << cfgPhrase(ctx, blockIndex(block))
                  << ": it is still held on the back edge to "
                  << blockName(blockIndex(succ));
      noteOrigin(diag, h);
    } else {
      Operation *at = handle(h).lastConsume ? handle(h).lastConsume : term;
      auto diag = error(at) << "stage handle held on entry to the loop at "
                            << blockName(blockIndex(succ))
                            << " is released inside it (back edge from "
                            << blockName(blockIndex(block))
                            << "): it is released again on the next iteration";
      noteOrigin(diag, h);
    }
    handle(h).poisoned = true;
  };
  size_t x = 0, y = 0;
  while (x < stored.size() || y < edge.size()) {
    if (y == edge.size() || (x < stored.size() && stored[x].h < edge[y].h)) {
      // Outer handle consumed only on the stored edge: this edge holds
      // it; local handle live only on the stored edge: that one does.
      report(stored[x].h, isOuter(stored[x].h));
      ++x;
    } else if (x == stored.size() || edge[y].h < stored[x].h) {
      report(edge[y].h, !isOuter(edge[y].h));
      ++y;
    } else {
      if (!back && stored[x].status == Status::Live)
        stored[x].arrived &= edge[y].arrived;
      ++x;
      ++y;
    }
  }
}

/// Walks the blocks of a region with a CFG in reverse post order, each once,
/// from its entry state (the state on the first edge into it); checks every
/// later edge into a block against that state (mergeEdgeState) and records
/// the exits of the region.
void Checker::walkCFG(Region &region, const RegionContext &ctx, size_t mark,
                      SmallVectorImpl<Exit> &exits) {
  BlockGraph graph = buildBlockGraph(region);
  rejectUnreachableBlocks(region, graph);

  // Entry state of every block, as a delta from the region entry, and the
  // block whose edge set it.
  std::vector<std::optional<SmallVector<Change>>> state(graph.rpo.size());
  SmallVector<Block *> setBy(graph.rpo.size(), nullptr);
  state[0] = blockDelta(collect(mark));

  for (unsigned i = 0; i < graph.rpo.size(); ++i) {
    const CFGNode &node = graph.nodes[graph.rpo[i]];
    Block *block = node.block;
    assert(state[i] && "block reached before any of its predecessors");
    if (!state[i])
      continue;
    ++stats.blocks;
    undoTo(mark);
    apply(*state[i]);
    walkBlockOps(*block);
    Operation *term = terminatorOf(*block);
    if (!term || term->getNumSuccessors() == 0) {
      handleExit(*block, ctx, block, mark, exits);
      continue;
    }

    ++stats.ops;
    auto branch = dyn_cast<BranchOpInterface>(term);
    visitBranchOperands(term, branch);
    defineResults(term);

    SmallVector<Change> base = blockDelta(collect(mark));
    for (unsigned s = 0; s < term->getNumSuccessors(); ++s) {
      Block *succ = term->getSuccessor(s);
      const CFGNode &succInfo = graph.nodes[node.succs[s]];
      unsigned j = succInfo.rpo;
      SmallVector<Change> edge =
          edgeEntryState(term, branch, s, succ, succInfo.backPred, base);
      if (!state[j]) {
        state[j] = std::move(edge);
        setBy[j] = block;
        continue;
      }
      // A merge (j > i) or a back edge (j <= i).
      mergeEdgeState(ctx, term, block, setBy[j], succ, /*back=*/j <= i,
                     *state[j], edge);
    }
  }
}
//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

void Checker::visitOp(Operation *op) {
  ++stats.ops;
  if (op->getNumRegions() != 0) {
    if (op->hasTrait<OpTrait::IsIsolatedFromAbove>()) {
      // Its own scope: analyzed on its own (if it holds functions).
      isolated.push_back(op);
      visitOperands(op);
      defineResults(op);
      return;
    }
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](scf::IfOp o) { visitIf(o); })
        .Case([&](scf::IndexSwitchOp o) { visitIndexSwitch(o); })
        .Case([&](scf::ForOp o) { visitFor(o); })
        .Case([&](scf::WhileOp o) { visitWhile(o); })
        .Case([&](scf::ExecuteRegionOp o) { visitExecuteRegion(o); })
        .Default([&](Operation *o) {
          if (o->hasTrait<ScopedStage>())
            visitScoped(o, o->getOperand(0), o->getRegion(0),
                        *getProtocolRole(o));
          else
            visitUnknownRegionOp(o);
        });
    return;
  }
  checkStepWhileHeld(op);
  visitOperands(op);
  defineResults(op);
}

void Checker::visitOperands(Operation *op) {
  auto iface = dyn_cast<StageUseOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands())
    visitOperand(op, operand, iface);
}

void Checker::visitOperand(Operation *op, OpOperand &operand,
                           StageUseOpInterface iface) {
  Value v = operand.get();
  Type type = v.getType();
  if (auto stage = dyn_cast<StageType>(type)) {
    int h = lookup(v);
    if (h < 0 || handle(h).poisoned)
      return;
    if (!iface)
      return reportEscape(h, op);
    if (iface.consumesStage(operand))
      consume(h, op, stage);
    else
      borrow(h, op, stage);
    return;
  }
  if (!func.tiles.empty() && isa<BaseMemRefType>(type))
    checkTile(op, v);
}

/// The number of stages of `role` a thread may hold at once on the
/// pipeline `root`: the consumer_depth for the consumer, else 1.
static unsigned allowedOutstanding(Value root, Role role) {
  PipelineType type = root ? getBasePipelineType(root.getType()) : nullptr;
  return type && role == Role::consumer ? type.getConsumerDepth() : 1;
}

void Checker::defineResults(Operation *op) {
  for (OpResult result : op->getResults()) {
    Type type = result.getType();
    if (auto stage = dyn_cast<StageType>(type)) {
      Value pipeline = getStageSource(result);
      int key = -1;
      Value root;
      bool conflict = false;
      if (pipeline) {
        root = getRootPipeline(pipeline);
        key = keyFor(root, stage.getRole());
        conflict = roleConflict(op, key, stage.getRole(),
                                allowedOutstanding(root, stage.getRole()));
      }
      defineFresh(result, op->getLoc(), /*acquired=*/bool(pipeline), key, root,
                  nullptr, conflict);
      continue;
    }
    if (!isa<BaseMemRefType>(type))
      continue;
    if (auto payload = dyn_cast<PayloadOp>(op)) {
      int h = lookup(payload.getStage());
      if (h >= 0)
        func.tiles[result] = Tile{{unsigned(h)}, op};
    } else if (!func.tiles.empty() && op->getNumRegions() == 0 &&
               (isa<ViewLikeOpInterface>(op) || isPure(op))) {
      // A view, a cast, an arith.select: a tile of every stage whose tile
      // it may be.
      Tile derived{{}, nullptr};
      for (Value operand : op->getOperands()) {
        auto it = func.tiles.find(operand);
        if (it == func.tiles.end())
          continue;
        if (!derived.payload)
          derived.payload = it->second.payload;
        for (unsigned h : it->second.handles)
          if (!llvm::is_contained(derived.handles, h))
            derived.handles.push_back(h);
      }
      if (derived.payload)
        func.tiles[result] = derived;
    }
  }
  // A barrier taken by index and used may signal the stage it names: the
  // stage of a handle when the index is that handle's pipeline.index, else
  // any stage of that role of the pipeline.
  ProtocolEffects effects = getProtocolEffects(op);
  bool ofPipeline = effects.role != ProtocolRole::OfStage &&
                    effects.role != ProtocolRole::None;
  if (ofPipeline && effects.signal == ProtocolSignal::Address &&
      !op->use_empty() && !protocol::onlyTransactionUses(op->getResult(0))) {
    Role role = *getProtocolRole(op);
    Value root = getRootPipeline(op->getOperand(0));
    int h = -1;
    if (auto index = op->getOperand(1).getDefiningOp<IndexOp>()) {
      h = lookup(index.getStage());
      if (h >= 0 &&
          (handle(h).info.root != root ||
           cast<StageType>(index.getStage().getType()).getRole() != role))
        h = -1;
    }
    if (h >= 0)
      handle(h).evidence = 1;
    else
      (role == Role::consumer ? func.consumerRootSignalled
                              : func.producerRootSignalled)
          .insert(root.getAsOpaquePointer());
  }
  // A signal of the role itself (producer/consumer_signal_and_step).
  if (ofPipeline && effects.signal == ProtocolSignal::Arrive)
    (*getProtocolRole(op) == Role::consumer ? func.consumerRootSignalled
                                            : func.producerRootSignalled)
        .insert(getRootPipeline(op->getOperand(0)).getAsOpaquePointer());
}

void Checker::defineCarriedResults(ResultRange results,
                                   ArrayRef<const RegionResult *> regions,
                                   ArrayRef<Fwd> extra) {
  for (OpResult result : results) {
    if (!isa<StageType>(result.getType()))
      continue;
    unsigned j = result.getResultNumber();
    SmallVector<Fwd> sources;
    if (j < extra.size())
      sources.push_back(extra[j]);
    for (const RegionResult *region : regions)
      for (const SmallVector<Fwd> &fwd : region->exitFwd)
        if (j < fwd.size())
          sources.push_back(fwd[j]);
    defineCarried(result, sources);
  }
}

/// Results of a structured op that are payload tiles: the tiles its
/// regions yield. A tile whose stage is yielded beside it belongs to the
/// stage result; any other keeps its stage (one released in the region
/// makes the result a tile of a released stage).
void Checker::defineTileResults(ResultRange results,
                                ArrayRef<const RegionResult *> regions) {
  for (OpResult result : results) {
    if (!isa<BaseMemRefType>(result.getType()))
      continue;
    unsigned j = result.getResultNumber();
    Tile tile{{}, nullptr};
    for (const RegionResult *region : regions)
      for (const SmallVector<Fwd> &fwd : region->exitFwd) {
        if (j >= fwd.size() || fwd[j].tile.empty())
          continue;
        tile.payload = fwd[j].tilePayload;
        for (unsigned h : fwd[j].tile) {
          unsigned mapped = h;
          for (auto [k, f] : llvm::enumerate(fwd))
            if (f.h == int(h) && k < results.size()) {
              int r = lookup(results[k]);
              if (r >= 0)
                mapped = r;
            }
          if (!llvm::is_contained(tile.handles, mapped))
            tile.handles.push_back(mapped);
        }
      }
    if (tile.payload)
      func.tiles[result] = tile;
  }
}

bool Checker::transferable(unsigned h, Operation *op) {
  if (handle(h).poisoned)
    return false;
  if (!isLive(h)) {
    reportUseAfter(h, op, /*consuming=*/false);
    return false;
  }
  if (Operation *owner = handle(h).info.owner) {
    auto diag = error(op) << "stage handle owned by the enclosing "
                          << owner->getName()
                          << " region is passed on: the region releases it "
                             "on exit";
    diag.attachNote(owner->getLoc()) << "region that owns the stage";
    handle(h).poisoned = true;
    return false;
  }
  return true;
}

Fwd Checker::moveIn(Value v, Operation *op) {
  Fwd f;
  f.h = lookup(v);
  if (f.h < 0)
    return f;
  f.arrived = handle(f.h).arrived;
  if (transferable(f.h, op)) {
    set(f.h, Status::Moved, handle(f.h).arrived);
    handle(f.h).lastConsume = op;
  }
  return f;
}

void Checker::consume(unsigned h, Operation *op, StageType type) {
  if (!isLive(h))
    return reportUseAfter(h, op, /*consuming=*/true);
  if (Operation *owner = handle(h).info.owner) {
    auto diag = error(op) << "stage handle owned by the enclosing "
                          << owner->getName()
                          << " region is released by hand: the region "
                             "releases it on exit";
    diag.attachNote(owner->getLoc()) << "region that owns the stage";
    handle(h).poisoned = true;
    return;
  }
  ProtocolSignal signal = getProtocolEffects(op).signal;
  if (type.isConsumer()) {
    checkReleaseOrder(h, op);
    if (handle(h).poisoned)
      return;
    if (signalsOnRelease(op, type)) {
      if (handle(h).arrived & subStageBit(getSubStage(op)))
        reportDoubleSignal(h, op);
      else
        checkRepeatedSignal(h, op, type);
      // A signalling release on one path (an elected lane) counts as the
      // signal of a release_without_signal on the other path.
      handle(h).evidence = 1;
    } else {
      // A tile pipeline's release only steps (the reference
      // InputConsumerStage.release), and so do release_without_signal and
      // step: the stage needs a signal of its own.
      func.pendingSignals.push_back({op, h});
    }
  } else if (signal == ProtocolSignal::Commit) {
    checkRepeatedSignal(h, op, type);
    handle(h).evidence = 1;
  } else {
    // A producer's release and step only step: its signal comes from
    // arrive, expect_tx (+ the copies), commit_mma, or the barrier handed
    // to another op.
    func.pendingSignals.push_back({op, h});
  }
  set(h, Status::Released, handle(h).arrived);
  handle(h).lastConsume = op;
}

void Checker::borrow(unsigned h, Operation *op, StageType type) {
  if (!isLive(h))
    return reportUseAfter(h, op, /*consuming=*/false);
  ProtocolEffects effects = getProtocolEffects(op);
  if (isa<ProtocolOpInterface>(op) && effects.signal == ProtocolSignal::None &&
      effects.step == ProtocolStep::None)
    return;
  if (effects.signal == ProtocolSignal::Address) {
    // The barrier handed to another op (nvgpu.mbarrier.arrive,
    // nvvm.tcgen05.commit, ...) may be signalled. A TMA load only completes
    // transaction bytes on it: no arrival (without an expect_tx, which
    // arrives, the phase never completes).
    if (op->use_empty())
      return;
    if (!protocol::onlyTransactionUses(op->getResult(0)))
      handle(h).evidence = 1;
    else if (!handle(h).bytesOnly)
      for (Operation *user : op->getResult(0).getUsers())
        if (!handle(h).bytesOnly ||
            (user->getBlock() == handle(h).bytesOnly->getBlock() &&
             user->isBeforeInBlock(handle(h).bytesOnly)))
          handle(h).bytesOnly = user; // the first load in program order
    return;
  }
  // arrive, expect_tx, commit_mma, release_no_step, and any op of another
  // dialect that borrows the handle: it may signal the stage's barrier.
  handle(h).evidence = 1;
  if (!type.isConsumer())
    return checkRepeatedSignal(h, op, type);
  if (effects.signal != ProtocolSignal::Arrive &&
      effects.signal != ProtocolSignal::MmaCommit)
    return;
  uint64_t bit = subStageBit(getSubStage(op));
  // An op that names its sub-stage (release_no_step) arrives on it once.
  if (hasSubStage(op) && (handle(h).arrived & bit))
    reportDoubleSignal(h, op);
  checkRepeatedSignal(h, op, type);
  set(h, Status::Live, handle(h).arrived | bit);
  handle(h).lastArrive = op;
}

/// True when a handle carried from or into `h` is held on this path.
bool Checker::familyHeld(unsigned h) {
  int key = handle(h).info.key;
  if (key < 0)
    return true; // unknown pipeline: assume so
  for (unsigned other : func.liveByKey[key])
    if (isLive(other) && find(other) == find(h))
      return true;
  return false;
}

void Checker::checkTile(Operation *op, Value v) {
  auto it = func.tiles.find(v);
  if (it == func.tiles.end())
    return;
  Tile tile = it->second;
  for (unsigned h : tile.handles) {
    if (handle(h).poisoned)
      continue;
    // Released on this path; or, in a later block of a CFG, consumed in an
    // earlier one (the handle is not part of the block's state) by a
    // release while nothing carried from it is held.
    bool released = handle(h).status == Status::Released;
    if (!released && handle(h).status == Status::Unborn &&
        handle(h).lastConsume && releases(handle(h).lastConsume) &&
        !familyHeld(h))
      released = true;
    if (!released)
      continue;
    func.tiles.erase(v);
    auto diag = error(op) << "payload tile accessed after its stage was "
                             "released: the other role may already reuse it";
    if (handle(h).lastConsume)
      diag.attachNote(handle(h).lastConsume->getLoc()) << "stage released here";
    diag.attachNote(tile.payload->getLoc()) << "tile taken here";
    return;
  }
}

bool Checker::roleConflict(Operation *op, int key, Role role,
                           unsigned allowed) {
  StringRef name = stringifyRole(role);
  // Inside a region whose own acquisition was already reported (its stage
  // is poisoned): the same conflict again, so report it once, not once per
  // nesting level.
  for (unsigned other : func.liveByKey[key])
    if (handle(other).poisoned && handle(other).info.owner && isLive(other))
      return true;
  SmallVector<unsigned, 2> outstanding;
  for (unsigned other : func.liveByKey[key]) {
    if (handle(other).poisoned || !isLive(other))
      continue;
    if (Operation *owner = handle(other).info.owner) {
      auto diag = error(op);
      diag << "acquires a " << name << " stage inside a " << owner->getName()
           << " region that already owns the " << name
           << " stage of this pipeline: it waits on the same stage twice "
              "(hang)";
      diag.attachNote(owner->getLoc()) << "region that owns the stage";
      return true;
    }
    outstanding.push_back(other);
  }
  if (outstanding.size() < allowed)
    return false;
  auto diag = error(op);
  if (allowed == 1) {
    diag << "acquires a " << name << " stage while another " << name
         << " stage of this pipeline is outstanding: it waits on the same "
            "stage twice (hang)";
    if (role == Role::consumer)
      diag << "; a consumer that frees a stage only after acquiring the next "
              "(the wgmma release lag) declares consumer_depth = 2 on the "
              "pipeline type";
  } else {
    diag << "acquires a " << name << " stage while " << outstanding.size()
         << " " << name
         << " stages of this pipeline are outstanding, its consumer_depth: "
            "release the oldest first";
  }
  unsigned oldest =
      *llvm::min_element(outstanding, [&](unsigned a, unsigned b) {
        return handle(a).info.seq < handle(b).info.seq;
      });
  diag.attachNote(handle(oldest).info.loc) << "outstanding stage acquired here";
  return true;
}

/// Consumer stages of a pipeline with consumer_depth > 1 are released in
/// acquisition order: the producer waits on the stages in that order.
void Checker::checkReleaseOrder(unsigned h, Operation *op) {
  int key = handle(h).info.key;
  if (key < 0)
    return;
  for (unsigned other : func.liveByKey[key]) {
    if (other == h || handle(other).poisoned || !isLive(other) ||
        handle(other).info.seq >= handle(h).info.seq || find(other) == find(h))
      continue;
    auto diag =
        error(op) << "releases a consumer stage while an older consumer stage "
                     "of this pipeline is still outstanding: stages are freed "
                     "in the order they were acquired, since the producer "
                     "waits on them in that order";
    diag.attachNote(handle(other).info.loc) << "older stage acquired here";
    noteOrigin(diag, h);
    handle(h).poisoned = true;
    return;
  }
}

void Checker::exitOwned(unsigned h, Operation *owner) {
  if (handle(h).poisoned)
    return;
  auto type = cast<StageType>(owner->getRegion(0).getArgument(0).getType());
  if (signalsOnRelease(owner, type) && (handle(h).arrived & 1))
    reportDoubleSignal(h, owner);
  else if (signalsOnRelease(owner, type))
    checkRepeatedSignal(h, owner, type);
  else
    func.pendingSignals.push_back({owner, h});
}

//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

void Checker::visitIf(scf::IfOp op) {
  visitOperands(op);
  RegionResult thenResult =
      walkRegion(op.getThenRegion(), {RegionKind::IfThen, op}, {});
  RegionResult elseResult =
      walkRegion(op.getElseRegion(), {RegionKind::IfElse, op}, {});
  SmallVector<ArrayRef<Change>> effects = {thenResult.effect,
                                           elseResult.effect};
  SmallVector<Change> merged =
      mergeEffects(effects, [&](unsigned h, unsigned holder) {
        auto diag = error(op) << "stage handle leaks when the scf.if "
                                 "condition is "
                              << (holder == 0 ? "true" : "false");
        noteConsume(diag, h,
                    holder == 0 ? " when the condition is false"
                                : " when the condition is true");
        noteOrigin(diag, h);
      });
  apply(merged);
  defineCarriedResults(op->getResults(), {&thenResult, &elseResult});
  defineTileResults(op->getResults(), {&thenResult, &elseResult});
}

void Checker::visitIndexSwitch(scf::IndexSwitchOp op) {
  visitOperands(op);
  SmallVector<RegionResult> results;
  ArrayRef<int64_t> cases = op.getCases();
  for (auto [i, region] : llvm::enumerate(op.getCaseRegions()))
    results.push_back(
        walkRegion(region, {RegionKind::SwitchCase, op, cases[i]}, {}));
  results.push_back(
      walkRegion(op.getDefaultRegion(), {RegionKind::SwitchDefault, op}, {}));
  SmallVector<ArrayRef<Change>> effects;
  SmallVector<const RegionResult *> regions;
  for (RegionResult &r : results) {
    effects.push_back(r.effect);
    regions.push_back(&r);
  }
  SmallVector<Change> merged =
      mergeEffects(effects, [&](unsigned h, unsigned holder) {
        auto diag = error(op) << "stage handle leaks ";
        if (holder < cases.size())
          diag << "in case " << cases[holder] << " of the scf.index_switch";
        else
          diag << "in the default case of the scf.index_switch";
        noteConsume(diag, h, " in another case");
        noteOrigin(diag, h);
      });
  apply(merged);
  defineCarriedResults(op->getResults(), regions);
  defineTileResults(op->getResults(), regions);
}

void Checker::reportLoopRelease(unsigned h, const RegionContext &ctx) {
  Operation *at = handle(h).lastConsume ? handle(h).lastConsume : ctx.parent;
  auto diag = error(at);
  switch (ctx.kind) {
  case RegionKind::ForBody:
    diag << "stage handle acquired outside the scf.for is released in its "
            "body: it leaks on the exit of the scf.for after iteration 0 and "
            "is released again in the second iteration";
    break;
  case RegionKind::WhileBefore:
    diag << "stage handle acquired outside the scf.while is released in its "
            "before region: it is released again when the condition is "
            "evaluated a second time";
    break;
  case RegionKind::WhileAfter:
    diag << "stage handle acquired outside the scf.while is released in its "
            "body: it leaks on the exit of the scf.while after iteration 0 "
            "and is released again in the second iteration";
    break;
  default:
    diag << "stage handle acquired outside '" << ctx.parent->getName()
         << "' is released in one of its regions, which is not known to run "
            "exactly once";
    break;
  }
  noteOrigin(diag, h);
  handle(h).poisoned = true;
}

void Checker::visitFor(scf::ForOp op) {
  // Bounds and step: ordinary uses. Handles in iter_args are passed on.
  for (OpOperand &operand : op->getOpOperands())
    if (operand.getOperandNumber() < op.getNumControlOperands())
      visitOperand(op, operand, nullptr);
  SmallVector<Fwd> inits;
  SmallVector<ArgDef> args(op.getBody()->getNumArguments());
  for (auto [j, init] : llvm::enumerate(op.getInitArgs())) {
    Fwd f;
    if (isa<StageType>(init.getType()))
      f = moveIn(init, op);
    else if (!func.tiles.empty() && isa<BaseMemRefType>(init.getType()))
      checkTile(op, init);
    inits.push_back(f);
    args[op.getNumInductionVars() + j].source = f.h;
  }
  // Tiles carried through iter_args: a tile that stays the same over the
  // iterations keeps its stages; one yielded beside its stage at iter_arg
  // k (and starting as a tile of the stage carried in at k) is a tile of
  // the stage argument k. Anything else is not followed.
  unsigned numIVs = op.getNumInductionVars();
  Operation *yield = op.getBody()->getTerminator();
  SmallVector<int> tileResultArg(op.getNumResults(), -1);
  SmallVector<SmallVector<unsigned, 1>> tileResultOf(op.getNumResults());
  SmallVector<Operation *> tileResultPayload(op.getNumResults(), nullptr);
  for (auto [j, init] : llvm::enumerate(op.getInitArgs())) {
    if (!isa<BaseMemRefType>(init.getType()))
      continue;
    auto it = func.tiles.find(init);
    if (it == func.tiles.end() || !yield || j >= yield->getNumOperands())
      continue;
    Tile t0 = it->second;
    Value arg = op.getBody()->getArgument(numIVs + j);
    Value yielded = yield->getOperand(j);
    bool same = yielded == arg;
    int k = -1;
    bool allMoved = true, noneMoved = true;
    for (unsigned h0 : t0.handles) {
      int at = -1;
      for (auto [kk, f] : llvm::enumerate(inits))
        if (f.h == int(h0))
          at = kk;
      if (at < 0) {
        allMoved = false;
        continue;
      }
      noneMoved = false;
      if (k >= 0 && k != at)
        allMoved = false;
      k = at;
    }
    ArgDef &def = args[numIVs + j];
    if (noneMoved && same) {
      def.tileOf = t0.handles;
      tileResultOf[j] = t0.handles;
    } else if (allMoved && k >= 0 &&
               (same || getPayloadStage(yielded) == yield->getOperand(k))) {
      def.tileOfArg = numIVs + k;
      tileResultArg[j] = k;
    } else {
      continue;
    }
    def.tilePayload = t0.payload;
    tileResultPayload[j] = t0.payload;
  }
  RegionContext ctx{RegionKind::ForBody, op};
  RegionResult body = walkRegion(op.getRegion(), ctx, args);
  for (const Change &c : body.effect)
    if (c.status != Status::Live && !handle(c.h).poisoned)
      reportLoopRelease(c.h, ctx);
  defineCarriedResults(op->getResults(), {&body}, inits);
  for (auto [j, result] : llvm::enumerate(op->getResults())) {
    if (!tileResultPayload[j])
      continue;
    Tile tile{tileResultOf[j], tileResultPayload[j]};
    if (tileResultArg[j] >= 0) {
      int h = lookup(op->getResult(tileResultArg[j]));
      tile.handles.clear();
      if (h >= 0)
        tile.handles.push_back(h);
    }
    if (!tile.handles.empty())
      func.tiles[result] = tile;
  }
}

void Checker::visitWhile(scf::WhileOp op) {
  SmallVector<ArgDef> beforeArgs(op.getBeforeArguments().size());
  for (auto [j, init] : llvm::enumerate(op.getInits())) {
    if (isa<StageType>(init.getType()))
      beforeArgs[j].source = moveIn(init, op).h;
    else if (!func.tiles.empty() && isa<BaseMemRefType>(init.getType()))
      checkTile(op, init);
  }
  RegionContext beforeCtx{RegionKind::WhileBefore, op};
  RegionResult before = walkRegion(op.getBefore(), beforeCtx, beforeArgs);
  for (const Change &c : before.effect)
    if (c.status != Status::Live && !handle(c.h).poisoned)
      reportLoopRelease(c.h, beforeCtx);

  SmallVector<ArgDef> afterArgs(op.getAfterArguments().size());
  if (!before.exitFwd.empty())
    for (auto [j, f] : llvm::enumerate(before.exitFwd.front()))
      if (j < afterArgs.size())
        afterArgs[j].source = f.h;
  RegionContext afterCtx{RegionKind::WhileAfter, op};
  RegionResult after = walkRegion(op.getAfter(), afterCtx, afterArgs);
  for (const Change &c : after.effect)
    if (c.status != Status::Live && !handle(c.h).poisoned)
      reportLoopRelease(c.h, afterCtx);
  // What the body yields is what the next condition receives.
  for (const SmallVector<Fwd> &fwd : after.exitFwd)
    for (auto [j, f] : llvm::enumerate(fwd)) {
      if (f.h < 0 || j >= op.getBeforeArguments().size())
        continue;
      int arg = lookup(op.getBeforeArguments()[j]);
      if (arg >= 0)
        unite(f.h, arg);
    }
  defineCarriedResults(op->getResults(), {&before});
}

void Checker::visitExecuteRegion(scf::ExecuteRegionOp op) {
  visitOperands(op);
  RegionResult result =
      walkRegion(op.getRegion(), {RegionKind::ExecuteRegion, op}, {});
  apply(result.effect);
  defineCarriedResults(op->getResults(), {&result});
  defineTileResults(op->getResults(), {&result});
}

void Checker::visitScoped(Operation *op, Value pipeline, Region &body,
                          Role role) {
  visitOperands(op);
  Value root = getRootPipeline(pipeline);
  int key = keyFor(root, role);
  ArgDef def;
  def.owned = true;
  def.key = key;
  def.root = root;
  // A region releases its stage at its exit: with an older stage still
  // outstanding that release would be out of order, so a region needs the
  // role to itself.
  def.poisoned = roleConflict(op, key, role, /*allowed=*/1);
  RegionResult result = walkRegion(body, {RegionKind::Scoped, op}, {def});
  apply(result.effect);
  defineResults(op);
}

void Checker::visitUnknownRegionOp(Operation *op) {
  visitOperands(op);
  for (Region &region : op->getRegions()) {
    RegionContext ctx{RegionKind::Other, op};
    RegionResult result = walkRegion(region, ctx, {});
    for (const Change &c : result.effect)
      if (c.status != Status::Live && !handle(c.h).poisoned)
        reportLoopRelease(c.h, ctx);
  }
  defineResults(op);
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

void Checker::reportUseAfter(unsigned h, Operation *op, bool consuming) {
  Status s = handle(h).status;
  // In a CFG, a handle consumed in an earlier block is just not live here:
  // tell a release from a pass-on by the last op that consumed it.
  if (s == Status::Unborn)
    s = handle(h).lastConsume && !releases(handle(h).lastConsume)
            ? Status::Moved
            : Status::Released;
  auto diag = error(op);
  if (s == Status::Moved)
    diag << "stage handle used after it was passed on";
  else if (consuming)
    diag << "stage handle released twice";
  else
    diag << "stage handle used after release";
  if (s == Status::Moved)
    noteConsume(diag, h, "");
  else if (handle(h).lastConsume)
    diag.attachNote(handle(h).lastConsume->getLoc())
        << (consuming ? "first released here" : "released here");
  noteOrigin(diag, h);
  handle(h).poisoned = true;
}

void Checker::reportEscape(unsigned h, Operation *op) {
  auto diag = error(op);
  if (isa<CallOpInterface>(op))
    diag << "stage handle escapes into a call: stage handles may not cross "
            "function boundaries";
  else if (op->hasTrait<OpTrait::ReturnLike>() &&
           isa<FunctionOpInterface>(op->getParentOp()))
    diag << "stage handle escapes: it is returned from the function";
  else
    diag << "stage handle escapes into '" << op->getName()
         << "', which does not declare whether it consumes or borrows it "
            "(pmlir::StageUseOpInterface)";
  noteOrigin(diag, h);
  handle(h).poisoned = true;
}

/// The sub-stage barrier a signal of `op` on a stage of `type` arrives on,
/// or -1 if the op does not arrive.
static int signalSubStage(Operation *op, StageType type) {
  switch (getProtocolEffects(op).signal) {
  case ProtocolSignal::Arrive:
  case ProtocolSignal::MmaCommit:
  case ProtocolSignal::ExpectTx:
  case ProtocolSignal::Commit:
    return getSubStage(op);
  case ProtocolSignal::Release:
  case ProtocolSignal::RegionExit:
    return signalsOnRelease(op, type) ? int(getSubStage(op)) : -1;
  default:
    return -1;
  }
}

/// Two signals of one thread on one producer stage that are a mistake:
/// anything then commit (which arrives again, like a plain consumer's
/// release), and arrive twice. (expect_tx beside another arrival, or a
/// tcgen05.commit per batch of MMAs, may be meant for a count of 2: the
/// arrival counts of pipeline-verify-protocol judge those.)
static bool producerRepeats(Operation *first, Operation *second) {
  ProtocolSignal firstSignal = getProtocolEffects(first).signal;
  ProtocolSignal secondSignal = getProtocolEffects(second).signal;
  if (secondSignal == ProtocolSignal::Commit)
    return true;
  return firstSignal == ProtocolSignal::Arrive &&
         secondSignal == ProtocolSignal::Arrive;
}

/// The innermost block that contains both ops.
static Block *commonBlockOf(Operation *a, Operation *b) {
  for (Block *block = a->getBlock(); block;) {
    if (block->findAncestorOpInBlock(*b))
      return block;
    Operation *parent = block->getParentOp();
    block = parent ? parent->getBlock() : nullptr;
  }
  return nullptr;
}

/// True when `second` runs after `first` whenever `first` runs, or
/// `first` runs before `second` whenever `second` runs: one of them sits in
/// the block that holds both, the other at most under conditions (scf.if,
/// scf.index_switch) there, not in a loop. `path` names the condition under
/// which the nested one runs.
static bool runsAfter(Operation *first, Operation *second, std::string &path) {
  Block *block = commonBlockOf(first, second);
  if (!block)
    return false;
  Operation *a = block->findAncestorOpInBlock(*first);
  Operation *b = block->findAncestorOpInBlock(*second);
  if (!a || !b || a == b || !a->isBeforeInBlock(b))
    return false;
  if (a != first && b != second)
    return false; // both conditional: the conditions may exclude each other
  Operation *nested = a != first ? first : (b != second ? second : nullptr);
  if (!nested)
    return true;
  Operation *outer = a != first ? a : b;
  for (Operation *op = nested; op != outer; op = op->getParentOp()) {
    Operation *parent = op->getParentOp();
    if (!op->getBlock()->isEntryBlock() ||
        !isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(parent))
      return false;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(outer)) {
    path = ifOp.getThenRegion().isAncestor(nested->getParentRegion())
               ? "when the scf.if condition is true"
               : "when the scf.if condition is false";
  } else if (auto sw = dyn_cast<scf::IndexSwitchOp>(outer)) {
    path = "in the default case of the scf.index_switch";
    for (auto [k, region] : llvm::enumerate(sw.getCaseRegions()))
      if (region.isAncestor(nested->getParentRegion()))
        path = "in case " + std::to_string(sw.getCases()[k]) +
               " of the scf.index_switch";
  }
  return true;
}

/// A second signal of one thread on the barrier of stage `h`: on some path
/// the thread arrives twice. Exclusive branches (a lane-guarded arrive in
/// each branch of an scf.if) are not a repetition.
void Checker::checkRepeatedSignal(unsigned h, Operation *op, StageType type) {
  int sub = signalSubStage(op, type);
  if (sub < 0 || handle(h).poisoned)
    return;
  for (Operation *prior : handle(h).signalOps) {
    if (signalSubStage(prior, type) != sub)
      continue;
    if (type.isProducer() && !producerRepeats(prior, op))
      continue;
    std::string path;
    // The exit of a consume region runs after everything in it.
    ProtocolSignal signal = getProtocolEffects(op).signal;
    bool exit = signal == ProtocolSignal::RegionExit;
    Operation *at = exit ? op->getRegion(0).front().getTerminator() : op;
    if (!runsAfter(prior, at, path))
      continue;
    bool producer = type.isProducer();
    std::string name =
        exit ? "the " + op->getName().getStringRef().str() + " exit"
             : op->getName().getStringRef().str();
    auto diag = error(op) << "double signal: " << name << " arrives on the "
                          << (producer ? "full" : "empty")
                          << " barrier of this "
                          << (producer ? "producer" : "consumer")
                          << " stage, which was already arrived on";
    SmallVector<std::string> why;
    if (!path.empty())
      why.push_back(path);
    if (signal == ProtocolSignal::Release)
      why.push_back("end it with release_without_signal");
    else if (exit)
      why.push_back("use pipeline.consume_explicit");
    else if (signal == ProtocolSignal::Commit)
      why.push_back("end it with release or step");
    if (!why.empty())
      diag << " (" << llvm::join(why, "; ") << ")";
    diag.attachNote(prior->getLoc()) << "first arrival here";
    if (handle(h).info.loc != op->getLoc())
      noteOrigin(diag, h);
    handle(h).poisoned = true;
    return;
  }
  handle(h).signalOps.push_back(op);
}

/// Ops that step a role without a handle (consumer_step, producer_step,
/// *_signal_and_step, drain_producer) while a handle of that role is held:
/// the handle's own release steps again.
void Checker::checkStepWhileHeld(Operation *op) {
  ProtocolEffects effects = getProtocolEffects(op);
  if (effects.role == ProtocolRole::OfStage ||
      (effects.step != ProtocolStep::Always &&
       effects.step != ProtocolStep::Drain))
    return;
  std::optional<Role> stepped = getProtocolRole(op);
  if (!stepped)
    return;
  Role role = *stepped;
  Value root = getRootPipeline(op->getOperand(0));
  int key = keyFor(root, role);
  for (unsigned other : func.liveByKey[key]) {
    if (handle(other).poisoned || !isLive(other))
      continue;
    StringRef name = stringifyRole(role);
    auto diag = error(op) << op->getName() << " steps the " << name
                          << " of this pipeline while a " << name
                          << " stage of it is held: the stage's release "
                             "steps again, so the "
                          << name
                          << " skips a stage and its next wait uses the wrong "
                             "stage and phase (hang)";
    if (Operation *owner = handle(other).info.owner)
      diag.attachNote(owner->getLoc()) << "region that holds the stage";
    else
      noteOrigin(diag, other);
    handle(other).poisoned = true;
    return;
  }
}

void Checker::reportDoubleSignal(unsigned h, Operation *op) {
  auto diag = error(op);
  ProtocolSignal signal = getProtocolEffects(op).signal;
  if (signal == ProtocolSignal::RegionExit)
    diag << "double signal: the " << op->getName()
         << " region arrives on the empty barrier of its stage on exit, but "
            "it was already arrived on (use pipeline.consume_explicit)";
  else if (signal == ProtocolSignal::Arrive)
    diag << "double signal: " << op->getName().stripDialect()
         << " arrives on an empty barrier of this consumer stage that was "
            "already arrived on";
  else
    diag << "double signal: release arrives on the empty barrier of this "
            "consumer stage, which was already arrived on (end it with "
            "release_without_signal)";
  if (handle(h).lastArrive)
    diag.attachNote(handle(h).lastArrive->getLoc()) << "first arrival here";
  if (handle(h).info.loc != op->getLoc())
    noteOrigin(diag, h);
  handle(h).poisoned = true;
}

void Checker::finishFunction() {
  if (func.pendingSignals.empty())
    return;
  std::vector<char> familySignalled(func.handles.size(), 0);
  for (unsigned h = 0; h < func.handles.size(); ++h)
    if (handle(h).evidence)
      familySignalled[find(h)] = 1;
  for (const Pending &p : func.pendingSignals) {
    unsigned h = p.h;
    bool producer = getProtocolRole(p.op) == Role::producer;
    bool scoped = p.op->hasTrait<ScopedStage>();
    auto &rootSignalled =
        producer ? func.producerRootSignalled : func.consumerRootSignalled;
    if (handle(h).poisoned || familySignalled[find(h)] ||
        !handle(h).info.root ||
        rootSignalled.contains(handle(h).info.root.getAsOpaquePointer()))
      continue;
    if (producer) {
      auto diag = error(p.op) << "missing signal: nothing arrives on the "
                                 "full barrier of ";
      if (scoped)
        diag << "the stage of this " << p.op->getName() << " region";
      else
        diag << "this producer stage before " << p.op->getName();
      diag << ", so the consumer waits on it forever (a producer's "
              "release, step and produce exit only step: signal with "
              "pipeline.arrive, pipeline.expect_tx and the TMA loads on "
              "pipeline.mbar, pipeline.commit_mma, or end the stage with "
              "pipeline.commit)";
      if (Operation *load = handle(h).bytesOnly)
        diag.attachNote(load->getLoc())
            << "this TMA load only completes transaction bytes on the "
               "stage's barrier, it does not arrive: arm the bytes with "
               "pipeline.expect_tx, which arrives";
      if (handle(h).info.loc != p.op->getLoc())
        noteOrigin(diag, h);
      continue;
    }
    auto diag = error(p.op) << "missing signal: nothing arrives on the empty "
                               "barrier of ";
    if (scoped)
      diag << "the stage of this " << p.op->getName() << " region";
    else
      diag << "this consumer stage before " << p.op->getName();
    diag << ", so the producer waits on it forever";
    ProtocolSignal signal = getProtocolEffects(p.op).signal;
    if (signal == ProtocolSignal::Release ||
        signal == ProtocolSignal::RegionExit)
      diag << " (on a tile pipeline, release and the consume exit only step, "
              "as in the reference: free the stage with pipeline.release_mma "
              "or pipeline.arrive)";
    if (handle(h).info.loc != p.op->getLoc())
      noteOrigin(diag, h);
  }
}

/// The walk recurses once per nested region; deeper nesting than this is
/// rejected up front instead of overflowing the stack (no kernel comes near
/// it; a sanitizer build's larger frames overflow at about 1500).
static constexpr unsigned kMaxRegionDepth = 512;

/// An op whose regions are nested deeper than kMaxRegionDepth in `fn`.
static Operation *tooDeep(FunctionOpInterface fn) {
  DenseMap<Region *, unsigned> depthOf;
  Operation *deep = nullptr;
  fn.getFunctionBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumRegions() == 0)
      return WalkResult::advance();
    unsigned d = depthOf.lookup(op->getParentRegion()) + 1;
    if (d > kMaxRegionDepth) {
      deep = op;
      return WalkResult::interrupt();
    }
    for (Region &region : op->getRegions())
      depthOf[&region] = d;
    return WalkResult::advance();
  });
  return deep;
}

void Checker::analyzeFunction(FunctionOpInterface fn) {
  Region &body = fn.getFunctionBody();
  if (body.empty())
    return;
  if (Operation *deep = tooDeep(fn)) {
    error(deep) << "regions nested more than " << kMaxRegionDepth
                << " deep: the stage linearity check does not analyze a "
                   "function this deep";
    return;
  }
  func = FunctionState();
  depth = 0;

  SmallVector<ArgDef> args(body.getNumArguments());
  for (BlockArgument arg : body.getArguments()) {
    if (!isa<StageType>(arg.getType()))
      continue;
    error(arg.getLoc()) << "stage handle argument: stage handles may not "
                           "cross function boundaries";
    args[arg.getArgNumber()].poisoned = true;
  }
  walkRegion(body, {RegionKind::Function, fn}, args);
  finishFunction();
}

LogicalResult pmlir::verifyStageLinearity(Operation *root,
                                          StageLinearityStats *stats) {
  StageLinearityStats local;
  SmallVector<Operation *> worklist{root};
  Checker checker(worklist, stats ? *stats : local);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    op->walk<WalkOrder::PreOrder>([&](Operation *nested) {
      if (auto fn = dyn_cast<FunctionOpInterface>(nested)) {
        checker.analyzeFunction(fn);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
  }
  return failure(checker.hasFailed());
}
