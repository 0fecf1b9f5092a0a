//===- RolePlacement.cpp - which CTAs of a cluster run a role -*- C++ -*-===//
//
// verifyRolePlacement: some roles of a pipeline have their place in the
// cluster fixed by the pipeline's kind, the placements the reference's
// kernels follow (docs/verifier.md, "Role placement"):
//
//   pipeline                         producer            consumer
//   cta_group = 2 input (tile)       both CTAs of pair   leader only
//   cta_group = 2, thread consumers  leader only         (any)
//   clc = true (scheduler)           cluster rank 0      (any)
//
// A leader-only role waits on a barrier that only the leader's copy of
// completes: the input pipeline's full barrier receives both CTAs' TMA
// bytes and the leader's expect_tx; a plain pair pipeline's empty barrier
// receives its consumers' thread arrivals (only an MMA commit reaches both
// CTAs). In the peer it waits forever. A both-CTA role is the pair's TMA
// producer: the leader arms both halves' bytes, so a pair where one CTA
// does not load never completes a phase. The scheduler's try_cancel arms
// every CTA's barrier from rank 0; a second scheduler would arm them twice.
//
// Checked from the conditions around each blocking wait of the role,
// without knowing the block size. The CTAs of a cluster fall in three
// classes: cluster rank 0, the other leaders (even ranks) and the peers
// (odd ranks). The scf.if conditions around a wait form a formula over
// rank tests and atoms: a test of the rank's parity
// ((%cluster_ctarank & 1) == 0, % 2) or of rank == 0 is a constant in
// each class; every other i1 (a warp or lane test, an elect.sync) is an
// atom, the same atom wherever the same value is tested (%x == c and
// %x != c are one atom; %x == 1 and %x == 2 are not both true). In each
// class the wait runs (yes) when some assignment of the atoms satisfies
// the formula, does not (no) when none does, and may (not judged) when
// that depends on an atom that itself depends on the rank in a way not
// followed. So the else branch of `A && leader` runs in every CTA where A
// may be false (all of them), not in the peer only, and the same branch
// inside `scf.if A` runs in the leader only. A role is reported where it
// runs (yes) in a class it must not, or (a both-CTA role) runs in no CTA
// of one side of the pair. Where the block size is declared and the
// conditions are functions of the thread and rank, the thread model says
// exactly which of ranks 0 to 3 run the wait instead (the formula must
// assume that any warp may exist: the else branch of `warp == 0 || (warp
// == 1 && peer)` runs in the peer's warps 2 and up, if there are any).
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include <algorithm>
#include <array>

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

namespace {
/// The classes of CTAs of a cluster that the rank conditions tell apart.
enum CtaClass : unsigned {
  Rank0,       // cluster rank 0: the first pair's leader
  OtherLeader, // an even rank other than 0: another pair's leader
  Peer,        // an odd rank: a peer
};
constexpr unsigned kNumClasses = 3;

/// Whether a region runs in the CTAs of one class (ordered: the lesser of
/// two answers holds for a region nested in another).
enum class Runs : uint8_t { No, Maybe, Yes };
using RunsIn = std::array<Runs, kNumClasses>;

/// True for the cluster rank (through index casts): %cluster_ctarank, or,
/// unless `linearOnly`, %cluster_ctaid.x (its parity is the rank's in a
/// cluster of even x size; == 0 selects a column of a 2-D cluster).
bool isClusterRank(Value v, bool linearOnly = false) {
  Operation *op = v.getDefiningOp();
  if (!op)
    return false;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(op))
    return isClusterRank(op->getOperand(0), linearOnly);
  if (auto id = dyn_cast<gpu::ClusterBlockIdOp>(op))
    return !linearOnly && id.getDimension() == gpu::Dimension::x;
  return op->getName().getStringRef() == "nvvm.read.ptx.sreg.cluster.ctarank";
}

/// True for rank & 1 and rank % 2.
bool isRankParity(Value v) {
  APInt c;
  if (auto andOp = v.getDefiningOp<arith::AndIOp>())
    return (isClusterRank(andOp.getLhs()) &&
            matchPattern(andOp.getRhs(), m_ConstantInt(&c)) && c == 1) ||
           (isClusterRank(andOp.getRhs()) &&
            matchPattern(andOp.getLhs(), m_ConstantInt(&c)) && c == 1);
  if (auto rem = v.getDefiningOp<arith::RemUIOp>())
    return isClusterRank(rem.getLhs()) &&
           matchPattern(rem.getRhs(), m_ConstantInt(&c)) && c == 2;
  return false;
}

/// True if `v` depends on the cluster rank.
bool dependsOnRank(Value v, unsigned depth = 0) {
  if (depth > 32)
    return false;
  if (isClusterRank(v))
    return true;
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumRegions())
    return false;
  return llvm::any_of(op->getOperands(),
                      [&](Value x) { return dependsOnRank(x, depth + 1); });
}

/// A test of the rank the check understands: the rank's parity compared
/// with 0 or 1 (leader or peer), the linear rank compared with 0 (rank 0;
/// %cluster_ctaid.x == 0 is a whole column of a 2-D cluster). The value of
/// the test in each class.
std::optional<std::array<bool, kNumClasses>> rankTest(arith::CmpIOp cmp) {
  arith::CmpIPredicate pred = cmp.getPredicate();
  if (pred != arith::CmpIPredicate::eq && pred != arith::CmpIPredicate::ne)
    return std::nullopt;
  bool eq = pred == arith::CmpIPredicate::eq;
  APInt k;
  if ((isClusterRank(cmp.getLhs(), /*linearOnly=*/true) &&
       matchPattern(cmp.getRhs(), m_ConstantInt(&k)) && k.isZero()) ||
      (isClusterRank(cmp.getRhs(), /*linearOnly=*/true) &&
       matchPattern(cmp.getLhs(), m_ConstantInt(&k)) && k.isZero()))
    return std::array<bool, kNumClasses>{eq, !eq, !eq};
  Value parity = cmp.getLhs(), other = cmp.getRhs();
  if (!isRankParity(parity))
    std::swap(parity, other);
  APInt c;
  if (!isRankParity(parity) || !matchPattern(other, m_ConstantInt(&c)) ||
      c.ugt(1))
    return std::nullopt;
  bool leader = c.isZero() == eq;
  return std::array<bool, kNumClasses>{leader, leader, !leader};
}

/// The conditions of the scf.if ops around an op, as a formula over rank
/// tests and atoms, and in which classes of CTAs it can hold.
class PathFormula {
public:
  /// `cond` must be `expected` on the way to the op.
  void require(Value cond, bool expected) {
    terms.push_back({cond, expected});
    evaluate(cond, 0, /*cls=*/0, /*bits=*/0, /*collect=*/true);
  }

  /// Whether some thread of a CTA of each class satisfies every term.
  RunsIn runs() {
    RunsIn out;
    unsigned n = atoms.size();
    if (n > kMaxAtoms) {
      out.fill(Runs::Maybe);
      return out;
    }
    uint64_t all = (uint64_t(1) << n) - 1, onRank = 0;
    for (unsigned i = 0; i < n; ++i)
      if (atoms[i].onRank)
        onRank |= uint64_t(1) << i;
    uint64_t free = all & ~onRank;
    for (unsigned cls = 0; cls < kNumClasses; ++cls) {
      // For each assignment of the atoms on the rank (the submasks of
      // onRank): does some assignment of the others satisfy the terms?
      bool always = true, sometimes = false;
      for (uint64_t u = onRank;; u = (u - 1) & onRank) {
        bool sat = false;
        for (uint64_t f = free;; f = (f - 1) & free) {
          if (satisfies(cls, u | f)) {
            sat = true;
            break;
          }
          if (f == 0)
            break;
        }
        always &= sat;
        sometimes |= sat;
        if (u == 0)
          break;
      }
      out[cls] = always ? Runs::Yes : sometimes ? Runs::Maybe : Runs::No;
    }
    return out;
  }

private:
  /// At most this many atoms are enumerated; beyond, nothing is judged.
  static constexpr unsigned kMaxAtoms = 12;

  /// A leaf of the formula: an i1 value, or %x == c (for %x == c and
  /// %x != c alike).
  struct Atom {
    Value value; // the i1, or %x
    int64_t constant = 0;
    bool compare = false;
    bool onRank = false; // depends on the rank in a way not followed
  };

  bool satisfies(unsigned cls, uint64_t bits) {
    // %x == a and %x == b with a != b are not both true.
    for (auto [i, j] : conflicts)
      if ((bits >> i & 1) && (bits >> j & 1))
        return false;
    for (auto [cond, expected] : terms)
      if (evaluate(cond, 0, cls, bits, /*collect=*/false) != expected)
        return false;
    return true;
  }

  /// The index of an atom, created when collecting.
  unsigned atomOf(const Atom &atom, bool collect) {
    for (auto [i, a] : llvm::enumerate(atoms))
      if (a.value == atom.value && a.compare == atom.compare &&
          a.constant == atom.constant)
        return i;
    assert(collect && "atom not collected");
    for (auto [i, a] : llvm::enumerate(atoms))
      if (atom.compare && a.compare && a.value == atom.value)
        conflicts.push_back({unsigned(i), unsigned(atoms.size())});
    atoms.push_back(atom);
    return atoms.size() - 1;
  }

  bool leaf(const Atom &atom, uint64_t bits, bool collect) {
    unsigned i = atomOf(atom, collect);
    return i < 64 && (bits >> i & 1);
  }

  bool plainAtom(Value v, uint64_t bits, bool collect) {
    return leaf(Atom{v, 0, false, dependsOnRank(v)}, bits, collect);
  }

  /// The value of the i1 `v` in class `cls` under the atom values `bits`;
  /// with `collect`, registers the atoms instead.
  bool evaluate(Value v, unsigned depth, unsigned cls, uint64_t bits,
                bool collect) {
    if (depth > 16)
      return plainAtom(v, bits, collect);
    APInt c;
    if (matchPattern(v, m_ConstantInt(&c)))
      return !c.isZero();
    Operation *op = v.getDefiningOp();
    if (op && v.getType().isInteger(1) &&
        isa<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(op)) {
      bool a = evaluate(op->getOperand(0), depth + 1, cls, bits, collect);
      bool b = evaluate(op->getOperand(1), depth + 1, cls, bits, collect);
      if (isa<arith::AndIOp>(op))
        return a && b;
      if (isa<arith::OrIOp>(op))
        return a || b;
      return a != b;
    }
    auto cmp = dyn_cast_or_null<arith::CmpIOp>(op);
    if (!cmp)
      return plainAtom(v, bits, collect);
    if (std::optional<std::array<bool, kNumClasses>> test = rankTest(cmp))
      return (*test)[cls];
    arith::CmpIPredicate pred = cmp.getPredicate();
    if (pred != arith::CmpIPredicate::eq && pred != arith::CmpIPredicate::ne)
      return plainAtom(v, bits, collect);
    bool eq = pred == arith::CmpIPredicate::eq;
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    if (matchPattern(lhs, m_ConstantInt(&c)))
      std::swap(lhs, rhs);
    APInt other;
    if (!matchPattern(rhs, m_ConstantInt(&c)) ||
        matchPattern(lhs, m_ConstantInt(&other)) || c.getSignificantBits() > 64)
      return plainAtom(v, bits, collect);
    // An i1 compared with a constant: the i1 or its negation.
    if (lhs.getType().isInteger(1))
      return evaluate(lhs, depth + 1, cls, bits, collect) ==
             (eq == !c.isZero());
    bool equal = leaf(Atom{lhs, c.getSExtValue(), true, dependsOnRank(lhs)},
                      bits, collect);
    return equal == eq;
  }

  SmallVector<std::pair<Value, bool>> terms;
  SmallVector<Atom> atoms;
  SmallVector<std::pair<unsigned, unsigned>> conflicts;
};

/// How a diagnostic names the CTAs of the classes in `in`.
std::string describeClasses(std::array<bool, kNumClasses> in) {
  bool r0 = in[Rank0], ol = in[OtherLeader], peer = in[Peer];
  if (r0 && ol && peer)
    return "every CTA of the cluster";
  if (r0 && ol)
    return "the leader CTA";
  if (r0 && peer)
    return "cluster rank 0 and the peer CTAs";
  if (ol && peer)
    return "the CTAs other than cluster rank 0";
  if (r0)
    return "cluster rank 0";
  if (ol)
    return "the leader CTAs other than cluster rank 0";
  if (peer)
    return "the peer CTA";
  return "no CTA";
}
} // namespace

namespace {
/// Where a role of a pipeline must run.
enum class Placement { Leader, BothOfPair, FirstCta };

/// True when every consumer signal of the plain pair pipeline `p` is a
/// thread arrival (which reaches the leader's empty barrier only), and
/// there is one: no MMA commit (which reaches both CTAs) and no barrier
/// address handed out (its users may arrive anywhere).
bool consumerArrivesInLeaderOnly(PipelineUses &p) {
  if (p.untraced[1])
    return false;
  bool arrives = false;
  auto leaderOnly = [&](Operation *op) {
    if (getProtocolRole(op) != Role::consumer)
      return true;
    switch (getProtocolEffects(op).signal) {
    case ProtocolSignal::MmaCommit:
    case ProtocolSignal::Address:
      return false;
    case ProtocolSignal::Arrive:
      arrives = true;
      return true;
    case ProtocolSignal::Release:
    case ProtocolSignal::RegionExit:
      arrives |= signalsOnRelease(op, op->getOperand(0).getType());
      return true;
    default:
      return true;
    }
  };
  for (Operation *user : p.users)
    if (!leaderOnly(user))
      return false;
  for (Value stage : p.stages[1])
    for (Operation *user : stage.getUsers())
      if (!leaderOnly(user))
        return false;
  return arrives;
}

std::optional<Placement> requiredPlacement(PipelineUses &p, Role role) {
  if (p.type.getClc())
    return role == Role::producer ? std::optional(Placement::FirstCta)
                                  : std::nullopt;
  if (p.type.getCtaGroup() != 2)
    return std::nullopt;
  if (isInputPipeline(p.create.getResult()))
    return role == Role::consumer ? Placement::Leader : Placement::BothOfPair;
  // A plain pair pipeline (an accumulator pipeline): a producer waits on
  // its own CTA's empty barrier, which thread arrivals of the consumers
  // reach in the leader only.
  if (role == Role::producer && consumerArrivesInLeaderOnly(p))
    return Placement::Leader;
  return std::nullopt;
}

/// What the role is, for the diagnostic.
std::string describeRole(Value pipeline, Role role) {
  PipelineType type = getBasePipelineType(pipeline.getType());
  if (type.getClc())
    return "the producer of a cluster launch control pipeline (clc = true, "
           "the scheduler)";
  if (isInputPipeline(pipeline))
    return role == Role::consumer
               ? "the consumer of a CTA-pair input pipeline (cta_group = 2, "
                 "the pair's MMA)"
               : "the producer of a CTA-pair input pipeline (cta_group = 2, "
                 "the pair's TMA loads)";
  assert(role == Role::producer && "no placement rule for this role");
  return "the producer of a CTA-pair pipeline (cta_group = 2) whose "
         "consumers arrive as threads";
}

/// Why the role runs where it does.
StringRef placementReason(Value pipeline, Role role) {
  PipelineType type = getBasePipelineType(pipeline.getType());
  if (type.getClc())
    return "its try_cancel arms the full barrier of every CTA of the cluster "
           "and its consumers signal rank 0's empty barrier: it runs in "
           "cluster rank 0 only; put it under a condition such as "
           "%cluster_ctarank == 0";
  if (!isInputPipeline(pipeline))
    return "the consumers' thread arrivals reach the leader's empty barrier "
           "only (an MMA commit would reach both CTAs): in the peer the "
           "producer waits for arrivals that never come; put it under a "
           "condition such as (%cluster_ctarank & 1) == 0";
  if (role == Role::consumer)
    return "only the leader's full barrier completes (both CTAs' TMA loads "
           "and the leader's expect_tx land there): the consumer, the pair's "
           "MMA, runs in the leader only; put it under a condition such as "
           "(%cluster_ctarank & 1) == 0";
  return "the leader arms its full barrier for both CTAs' halves of the "
         "stage and each CTA loads its own half: a CTA that does not load "
         "leaves every phase short and the MMA waits forever; run it in "
         "both CTAs of the pair";
}

/// Where the conditions around a wait place it in the cluster.
struct WaitPlace {
  Operation *op;
  RunsIn runs = {Runs::Yes, Runs::Yes, Runs::Yes};
  /// The innermost condition whose branch rules out some class of CTAs,
  /// and the classes that branch admits.
  Operation *condition = nullptr;
  std::array<bool, kNumClasses> selected = {true, true, true};

  bool leaderRuns(Runs r) const {
    return runs[Rank0] == r || runs[OtherLeader] == r;
  }
};
} // namespace

namespace {
/// The thread model of each kernel whose block size is declared, with
/// ranks 0 to 3 (rank 0, a peer, another leader, a peer), built once.
class RankModels {
public:
  ThreadModel *get(Region *kernel) {
    auto [it, inserted] = models.try_emplace(kernel);
    if (inserted && kernel)
      if (std::optional<std::array<int64_t, 3>> block =
              knownBlockSize(kernel)) {
        ThreadSpace sp;
        sp.block = *block;
        sp.threads = unsigned((*block)[0] * (*block)[1] * (*block)[2]);
        sp.ranks = 4;
        it->second = std::make_unique<ThreadModel>(kernel, sp);
      }
    return it->second.get();
  }

private:
  llvm::DenseMap<Region *, std::unique_ptr<ThreadModel>> models;
};
} // namespace

/// Which classes of CTAs run `op` by the thread model (every thread of
/// ranks 0 to 3 at the declared block size), when it knows: exact where
/// the formula must assume any number of warps (the else branch of
/// `warp == 0` may hold warps 2 and up, or none).
static std::optional<RunsIn> runsByModel(Operation *op, RankModels &models) {
  ThreadModel *model = models.get(kernelBody(op));
  if (!model)
    return std::nullopt;
  const llvm::BitVector *exec = model->exec(op);
  if (!exec)
    return std::nullopt;
  const ThreadSpace &sp = model->space();
  auto anyIn = [&](unsigned rank) {
    for (unsigned t = 0; t < sp.threads; ++t)
      if (exec->test(sp.point(rank, t)))
        return true;
    return false;
  };
  auto runs = [](bool b) { return b ? Runs::Yes : Runs::No; };
  return RunsIn{runs(anyIn(0)), runs(anyIn(2)), runs(anyIn(1) || anyIn(3))};
}

/// Which classes of CTAs of the cluster may run `op`, from the conditions
/// of the scf.if ops around it (up to the kernel or function).
static WaitPlace placeOf(Operation *op, RankModels &models) {
  WaitPlace w{op};
  PathFormula path;
  bool rankSwitch = false;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp()) {
    if (isa<FunctionOpInterface>(parent) || isa<gpu::LaunchOp>(parent))
      break;
    if (auto sw = dyn_cast<scf::IndexSwitchOp>(parent)) {
      // A switch on the rank: not followed.
      rankSwitch |= dependsOnRank(sw.getArg());
      continue;
    }
    auto ifOp = dyn_cast<scf::IfOp>(parent);
    if (!ifOp)
      continue;
    bool inThen = ifOp.getThenRegion().isAncestor(op->getParentRegion());
    path.require(ifOp.getCondition(), inThen);
    if (w.condition)
      continue;
    // The innermost condition that alone rules out a class, for the note.
    PathFormula alone;
    alone.require(ifOp.getCondition(), inThen);
    RunsIn here = alone.runs();
    if (llvm::is_contained(here, Runs::No)) {
      w.condition = ifOp;
      for (unsigned k = 0; k < kNumClasses; ++k)
        w.selected[k] = here[k] != Runs::No;
    }
  }
  if (std::optional<RunsIn> exact = runsByModel(op, models)) {
    w.runs = *exact;
    return w;
  }
  w.runs = path.runs();
  if (rankSwitch)
    for (Runs &r : w.runs)
      r = std::min(r, Runs::Maybe);
  return w;
}

/// True when the cluster is known to hold more than one CTA pair: the
/// pipeline's multicast cluster, or the kernel's nvvm.cluster_dim. Rank 0
/// is then not every leader.
static bool severalPairs(PipelineUses &p) {
  if (p.type.hasCross() && p.type.getClusterM() * p.type.getClusterN() > 2)
    return true;
  Operation *owner = p.kernel->getParentOp();
  if (auto dims = owner->getAttrOfType<DenseI32ArrayAttr>("nvvm.cluster_dim")) {
    int64_t ctas = 1;
    for (int32_t d : dims.asArrayRef())
      ctas *= d;
    return ctas > 2;
  }
  return false;
}

/// Reports the wait `w` of `role` of `pipeline` as running `runs`.
static void report(const WaitPlace &w, Value pipeline, Role role,
                   StringRef runs) {
  InFlightDiagnostic diag = w.op->emitOpError()
                            << "waits as " << describeRole(pipeline, role)
                            << " " << runs << ", but "
                            << placementReason(pipeline, role);
  if (w.condition)
    diag.attachNote(w.condition->getLoc())
        << "this condition selects " << describeClasses(w.selected);
}

LogicalResult pmlir::verifyRolePlacement(Operation *root) {
  bool failed = false;
  RankModels models;
  for (PipelineUses &p : collectPipelines(root))
    for (Role role : {Role::producer, Role::consumer}) {
      std::optional<Placement> where = requiredPlacement(p, role);
      if (!where)
        continue;
      SmallVector<WaitPlace> waits;
      for (Operation *op : p.users)
        if (getProtocolEffects(op).wait == ProtocolWait::Blocks &&
            waitsOnRoleBarrier(op, role))
          waits.push_back(placeOf(op, models));
      if (waits.empty())
        continue;
      Value pipeline = waits.front().op->getOperand(0);
      switch (*where) {
      case Placement::Leader:
        // No wait runs in a peer; with several pairs, not in rank 0 alone.
        for (const WaitPlace &w : waits) {
          if (w.runs[Peer] == Runs::Yes) {
            report(w, pipeline, role,
                   w.leaderRuns(Runs::Yes) ? "in both CTAs of the pair"
                                           : "in the peer CTA");
            failed = true;
          } else if (w.runs[Peer] == Runs::No && w.runs[Rank0] == Runs::Yes &&
                     w.runs[OtherLeader] == Runs::No && severalPairs(p)) {
            report(w, pipeline, role,
                   "in cluster rank 0 only (the leader of one of the "
                   "cluster's pairs)");
            failed = true;
          }
        }
        break;
      case Placement::BothOfPair: {
        // The role as a whole runs in both CTAs: in the leader through some
        // wait, in the peer through some (the same or another: a split
        // into leader and peer branches).
        Runs inLeader = Runs::No, inPeer = Runs::No;
        bool rank0Only = true;
        for (const WaitPlace &w : waits) {
          inLeader = std::max({inLeader, w.runs[Rank0], w.runs[OtherLeader]});
          inPeer = std::max(inPeer, w.runs[Peer]);
          rank0Only &= w.runs[OtherLeader] == Runs::No;
        }
        bool missing = (inLeader == Runs::No && inPeer == Runs::Yes) ||
                       (inPeer == Runs::No && inLeader == Runs::Yes);
        if (!missing)
          break;
        for (const WaitPlace &w : waits) {
          if (!w.leaderRuns(Runs::Yes) && w.runs[Peer] != Runs::Yes)
            continue;
          report(w, pipeline, role,
                 inLeader == Runs::No ? "in the peer CTA only"
                 : rank0Only          ? "in cluster rank 0 only"
                                      : "in the leader CTA only");
        }
        failed = true;
        break;
      }
      case Placement::FirstCta:
        // No wait runs in a peer, nor (in a cluster known to hold more than
        // one pair) in another leader.
        for (const WaitPlace &w : waits) {
          bool inPeer = w.runs[Peer] == Runs::Yes;
          bool inOtherLeader =
              w.runs[OtherLeader] == Runs::Yes && severalPairs(p);
          if (!inPeer && !inOtherLeader)
            continue;
          std::string runs =
              "in " + describeClasses({w.runs[Rank0] != Runs::No,
                                       w.runs[OtherLeader] != Runs::No,
                                       w.runs[Peer] != Runs::No});
          if (runs == "in the peer CTA")
            runs = "in the peer CTAs of the cluster";
          else if (runs == "in the leader CTA")
            runs = "in every CTA of even rank (each pair's leader)";
          report(w, pipeline, role, runs);
          failed = true;
        }
        break;
      }
    }
  return failure(failed);
}
