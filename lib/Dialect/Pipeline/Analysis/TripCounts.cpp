//===- TripCounts.cpp - items made and taken ------------------------------===//
//
// verifyTripCounts: the producer and the consumer of a pipeline move the
// same number of items. The visits of each role are counted as a sum over
// its visit sites of the product of the trip counts of the scf.for loops
// around each (a constant, else an affine expression of the loop bounds),
// and only a difference that is provably nonzero is reported: with fewer
// items made the consumer waits for the rest forever, with more the
// producer waits forever for stages nobody frees.
//
// Diagnostics: an error at the pipeline.create with both counts (symbolic
// ones named by their loop bounds as pipeline-opt prints them) and which
// role waits forever, with a note at the outermost loop around each visit
// site saying how many items it makes or takes.
//
//===----------------------------------------------------------------------===//

#include "ProtocolUtils.h"
#include "pipeline/Dialect/Pipeline/Analysis/ProtocolChecks.h"
#include "pipeline/Dialect/Pipeline/IR/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AsmState.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>
#include <tuple>

using namespace mlir;
using namespace pmlir;
using namespace pmlir::protocol;

namespace {

/// A loop whose trip count is not a constant nor affine in values the
/// kernel computes: a symbol of the item counts.
struct LoopSymbol {
  Value lb, ub, step;
  bool isUnsigned;
  bool operator==(const LoopSymbol &o) const {
    return lb == o.lb && ub == o.ub && step == o.step &&
           isUnsigned == o.isUnsigned;
  }
};

/// A symbol of the item counts: a value the trip counts are affine in (a
/// kernel argument, a loaded or computed value), or an opaque loop.
struct Atom {
  Value value;
  std::optional<LoopSymbol> loop;
  bool operator==(const Atom &o) const {
    return value == o.value && loop == o.loop;
  }
};

/// Items moved by a role: a sum of monomials (coefficient x product of
/// atoms, sorted atom ids; the empty product is the constant term).
using Poly = std::map<SmallVector<unsigned>, int64_t>;

/// An affine expression of values: coefficients by value, and a constant.
struct Affine {
  llvm::MapVector<Value, int64_t> coeffs;
  int64_t constant = 0;
  void add(const Affine &o, int64_t scale) {
    for (auto [v, c] : o.coeffs)
      coeffs[v] += scale * c;
    constant += scale * o.constant;
  }
};

/// One visit site of a role and what its count is made of.
struct VisitCount {
  Operation *site;
  Operation *outerLoop = nullptr; // outermost loop around it
  Poly count;
  /// The scf.if / scf.index_switch regions it sits in.
  SmallVector<Region *> guards;
};

class TripCounter {
public:
  explicit TripCounter(Region *kernel) : kernel(kernel) {}
  std::optional<VisitCount> count(Operation *site);
  std::string format(const Poly &poly, AsmState &state);
  const Atom &atom(unsigned id) const { return atoms[id]; }

  Affine affineOf(Value v, unsigned depth = 0);
  /// True when atom `id` is positive whenever the loops run: a loop of its
  /// own, or a value that is the whole span (ub - lb) of a counted loop.
  bool positive(unsigned id) const { return positives.contains(id); }

private:
  unsigned atomFor(Atom a);
  Value canonical(Value v);
  Poly tripCount(scf::ForOp loop);
  Region *kernel;
  SmallVector<Atom> atoms;
  /// The atom of each value and of each opaque loop (its bounds, step and
  /// signedness): the ids of `atoms`.
  DenseMap<Value, unsigned> valueAtoms;
  std::map<std::tuple<void *, void *, void *, bool>, unsigned> loopAtoms;
  DenseSet<unsigned> positives;
  DenseMap<Value, Affine> affineMemo;
  /// The values `canonical` has seen, by the hash of their op.
  DenseMap<llvm::hash_code, SmallVector<Value, 1>> computed;
};

} // namespace

unsigned TripCounter::atomFor(Atom a) {
  unsigned next = atoms.size();
  bool inserted;
  unsigned id;
  if (a.loop) {
    const LoopSymbol &l = *a.loop;
    auto [it, added] = loopAtoms.try_emplace(
        std::make_tuple(l.lb.getAsOpaquePointer(), l.ub.getAsOpaquePointer(),
                        l.step.getAsOpaquePointer(), l.isUnsigned),
        next);
    inserted = added;
    id = it->second;
  } else {
    auto [it, added] = valueAtoms.try_emplace(a.value, next);
    inserted = added;
    id = it->second;
  }
  if (inserted)
    atoms.push_back(a);
  return id;
}

/// `v` as an affine expression: sums, differences and constant multiples of
/// other values, through integer casts (n + 1, n - 2, 4 * n, n * 4 + k);
/// anything else is a value of its own. Memoized: bounds share
/// subexpressions.
Affine TripCounter::affineOf(Value v, unsigned depth) {
  auto it = affineMemo.find(v);
  if (it != affineMemo.end())
    return it->second;
  Affine e;
  Operation *op = v.getDefiningOp();
  if (std::optional<int64_t> c = constantInt(v)) {
    e.constant = *c;
  } else if (op && depth < 16 &&
             isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                 arith::ExtUIOp, arith::TruncIOp>(op)) {
    e = affineOf(op->getOperand(0), depth + 1);
  } else if (op && depth < 16 && isa<arith::AddIOp, arith::SubIOp>(op)) {
    e = affineOf(op->getOperand(0), depth + 1);
    e.add(affineOf(op->getOperand(1), depth + 1),
          isa<arith::AddIOp>(op) ? 1 : -1);
  } else {
    std::optional<int64_t> c;
    Value other;
    if (op && depth < 16 && isa<arith::MulIOp, arith::ShLIOp>(op)) {
      c = constantInt(op->getOperand(1));
      other = op->getOperand(0);
      if (!c && isa<arith::MulIOp>(op)) {
        c = constantInt(op->getOperand(0));
        other = op->getOperand(1);
      }
      if (c && isa<arith::ShLIOp>(op))
        c = *c >= 0 && *c < 32 ? std::optional<int64_t>(int64_t(1) << *c)
                               : std::nullopt;
    }
    if (c)
      e.add(affineOf(other, depth + 1), *c);
    else
      e.coeffs[canonical(v)] = 1;
  }
  affineMemo[v] = e;
  return e;
}

/// The first value seen that an op computes the same way as `v` (the same
/// op, attributes and operands: a bound each role computes in its own
/// branch), else `v`.
Value TripCounter::canonical(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || op->getNumRegions() || op->getNumResults() != 1 ||
      !isMemoryEffectFree(op))
    return v;
  // Ops equivalent to `op` hash alike: only those are compared.
  llvm::hash_code hash = OperationEquivalence::computeHash(
      op, OperationEquivalence::directHashValue,
      OperationEquivalence::ignoreHashValue,
      OperationEquivalence::IgnoreLocations);
  SmallVector<Value, 1> &seenAlike = computed[hash];
  for (Value seen : seenAlike)
    if (seen == v ||
        OperationEquivalence::isEquivalentTo(
            seen.getDefiningOp(), op, OperationEquivalence::IgnoreLocations))
      return seen;
  seenAlike.push_back(v);
  return v;
}

/// The trip count of `loop` as a polynomial: a constant, an affine
/// function of values when (ub - lb) is affine with every term divisible by
/// the constant step (loops are taken to run when counted: ub >= lb), else
/// the loop as an opaque atom.
Poly TripCounter::tripCount(scf::ForOp loop) {
  Poly p;
  if (std::optional<int64_t> trip = constantTripCount(loop)) {
    p[{}] = *trip;
    return p;
  }
  std::optional<int64_t> step = constantInt(loop.getStep());
  if (step && *step > 0) {
    Affine span = affineOf(loop.getUpperBound());
    span.add(affineOf(loop.getLowerBound()), -1);
    bool divisible = span.constant % *step == 0;
    for (auto [v, c] : span.coeffs)
      divisible &= c % *step == 0;
    if (divisible) {
      if (span.constant)
        p[{}] = span.constant / *step;
      unsigned terms = 0, last = 0;
      for (auto [v, c] : span.coeffs)
        if (c) {
          last = atomFor(Atom{v, std::nullopt});
          p[{last}] += c / *step;
          ++terms;
        }
      // A loop over lb .. %n + c (c <= 0) runs only when %n is positive.
      if (terms == 1 && p[{last}] > 0 && span.constant <= 0)
        positives.insert(last);
      return p;
    }
  }
  unsigned id = atomFor(
      Atom{Value(), LoopSymbol{loop.getLowerBound(), loop.getUpperBound(),
                               loop.getStep(), loop.getUnsignedCmp()}});
  positives.insert(id);
  p[{id}] = 1;
  return p;
}

/// The product of two polynomials.
static Poly multiply(const Poly &a, const Poly &b) {
  Poly out;
  for (auto &[sa, ca] : a)
    for (auto &[sb, cb] : b) {
      SmallVector<unsigned> syms(sa);
      syms.append(sb.begin(), sb.end());
      llvm::sort(syms);
      out[syms] += ca * cb;
    }
  return out;
}

std::optional<VisitCount> TripCounter::count(Operation *site) {
  VisitCount vc;
  vc.site = site;
  vc.count[{}] = 1;
  for (Operation *op = site; op->getParentRegion() != kernel;) {
    Region *region = op->getParentRegion();
    Operation *parent = region->getParentOp();
    if (!parent || !op->getBlock()->isEntryBlock() || !region->hasOneBlock())
      return std::nullopt;
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      vc.count = multiply(vc.count, tripCount(loop));
      vc.outerLoop = loop;
    } else if (isa<scf::IfOp, scf::IndexSwitchOp>(parent)) {
      // The condition must stay the same for a thread over the loops
      // around it (a warp role, a lane), or the count depends on it.
      Value cond = isa<scf::IfOp>(parent)
                       ? Value(cast<scf::IfOp>(parent).getCondition())
                       : Value(cast<scf::IndexSwitchOp>(parent).getArg());
      Operation *defAt = cond.getDefiningOp()
                             ? cond.getDefiningOp()
                             : cond.getParentBlock()->getParentOp();
      for (Operation *loop = parent->getParentOp(); loop;
           loop = loop->getParentOp())
        if (isa<scf::ForOp, scf::WhileOp>(loop) && loop->isAncestor(defAt))
          return std::nullopt;
      vc.guards.push_back(region);
    } else if (!isa<scf::ExecuteRegionOp>(parent) &&
               !parent->hasTrait<ScopedStage>()) {
      return std::nullopt;
    }
    op = parent;
  }
  return vc;
}

static std::string operandName(Value v, AsmState &state) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (std::optional<int64_t> c = constantInt(v))
    os << *c;
  else
    v.printAsOperand(os, state);
  return s;
}

std::string TripCounter::format(const Poly &poly, AsmState &state) {
  std::string out;
  bool first = true;
  for (auto &[syms, coeff] : poly) {
    if (coeff == 0)
      continue;
    if (!first)
      out += coeff < 0 ? " - " : " + ";
    else if (coeff < 0)
      out += "-";
    first = false;
    int64_t magnitude = coeff < 0 ? -coeff : coeff;
    SmallVector<std::string> factors;
    if (magnitude != 1 || syms.empty())
      factors.push_back(std::to_string(magnitude));
    for (unsigned id : syms) {
      const Atom &a = atoms[id];
      if (!a.loop) {
        factors.push_back(operandName(a.value, state));
        continue;
      }
      const LoopSymbol &sym = *a.loop;
      std::string lb = operandName(sym.lb, state);
      std::string ub = operandName(sym.ub, state);
      std::string step = operandName(sym.step, state);
      std::string f;
      if (lb == "0" && step == "1")
        f = ub;
      else if (step == "1")
        f = "(" + ub + " - " + lb + ")";
      else if (lb == "0")
        f = "ceildiv(" + ub + ", " + step + ")";
      else
        f = "ceildiv(" + ub + " - " + lb + ", " + step + ")";
      factors.push_back(f);
    }
    out += llvm::join(factors, " x ");
  }
  return first ? "0" : out;
}

static void addTo(Poly &poly, const VisitCount &vc, int64_t sign) {
  for (auto &[syms, coeff] : vc.count)
    poly[syms] += sign * coeff;
}

/// True when `poly` is nonzero whenever every loop runs at least once: all
/// its coefficients are of one sign and each of its atoms is positive then
/// (a value whose sign is not known, a negative lower bound, is not).
static bool definiteSign(const Poly &poly, const TripCounter &counter) {
  bool pos = false, neg = false;
  for (auto &[syms, coeff] : poly) {
    pos |= coeff > 0;
    neg |= coeff < 0;
    for (unsigned id : syms)
      if (!counter.positive(id))
        return false;
  }
  return pos != neg;
}

/// True when the only difference is one loop over the same bounds with
/// constant steps, one a multiple of the other: the counts differ whenever
/// the loop with the smaller step runs more than once.
static bool differentSteps(const Poly &prod, const Poly &cons,
                           TripCounter &counter) {
  if (prod.size() != 1 || cons.size() != 1)
    return false;
  auto &[ps, pc] = *prod.begin();
  auto &[cs, cc] = *cons.begin();
  if (pc != cc || pc == 0 || ps.size() != cs.size())
    return false;
  SmallVector<unsigned> onlyP, onlyC;
  std::set_difference(ps.begin(), ps.end(), cs.begin(), cs.end(),
                      std::back_inserter(onlyP));
  std::set_difference(cs.begin(), cs.end(), ps.begin(), ps.end(),
                      std::back_inserter(onlyC));
  if (onlyP.size() != 1 || onlyC.size() != 1)
    return false;
  // Loops over the same bounds: opaque loops, or a loop of step 1 whose
  // count is its upper bound (lower bound 0) against an opaque loop.
  auto bounds = [&](unsigned id) -> std::optional<LoopSymbol> {
    const Atom &a = counter.atom(id);
    if (a.loop)
      return a.loop;
    return std::nullopt;
  };
  std::optional<LoopSymbol> a = bounds(onlyP.front()),
                            b = bounds(onlyC.front());
  std::optional<int64_t> sa, sb;
  Value lbA, ubA, lbB, ubB;
  auto describe = [&](unsigned id, std::optional<LoopSymbol> loop,
                      std::optional<int64_t> &step, Value &lb, Value &ub) {
    if (loop) {
      step = constantInt(loop->step);
      lb = loop->lb;
      ub = loop->ub;
    } else {
      step = 1;
      ub = counter.atom(id).value;
    }
  };
  describe(onlyP.front(), a, sa, lbA, ubA);
  describe(onlyC.front(), b, sb, lbB, ubB);
  auto zeroOrNone = [](Value lb) {
    std::optional<int64_t> c = lb ? constantInt(lb) : std::optional<int64_t>(0);
    return c && *c == 0;
  };
  bool sameLb = (lbA && lbB) ? lbA == lbB : zeroOrNone(lbA) && zeroOrNone(lbB);
  Affine ubDiff = counter.affineOf(ubA);
  ubDiff.add(counter.affineOf(ubB), -1);
  bool sameUb =
      ubDiff.constant == 0 &&
      llvm::all_of(ubDiff.coeffs, [](auto &e) { return e.second == 0; });
  if (!sameLb || !sameUb)
    return false;
  if (a && b && a->isUnsigned != b->isUnsigned)
    return false;
  if (!sa || !sb || *sa <= 0 || *sb <= 0 || *sa == *sb)
    return false;
  return std::max(*sa, *sb) % std::min(*sa, *sb) == 0;
}

static bool checkTripCounts(PipelineUses &p) {
  SmallVector<Operation *> sites[2];
  for (Operation *user : p.users) {
    if (isItemSite(user, Role::producer))
      sites[0].push_back(user);
    else if (isItemSite(user, Role::consumer))
      sites[1].push_back(user);
  }
  if (sites[0].empty() || sites[1].empty())
    return false;
  TripCounter counter(p.kernel);
  Poly polys[2];
  SmallVector<VisitCount> counts[2];
  for (unsigned role = 0; role < 2; ++role) {
    for (Operation *site : sites[role]) {
      std::optional<VisitCount> vc = counter.count(site);
      if (!vc)
        return false;
      // Every visit of a role must be made by the same threads: sites
      // under different conditions may be taken by different threads, or
      // by one thread in turn.
      if (!counts[role].empty() && counts[role].front().guards != vc->guards)
        return false;
      addTo(polys[role], *vc, 1);
      counts[role].push_back(*vc);
    }
  }
  Poly diff = polys[0];
  for (auto &[syms, coeff] : polys[1])
    diff[syms] -= coeff;
  for (auto it = diff.begin(); it != diff.end();)
    it = it->second == 0 ? diff.erase(it) : std::next(it);
  for (Poly &poly : polys)
    for (auto it = poly.begin(); it != poly.end();)
      it = it->second == 0 ? poly.erase(it) : std::next(it);
  if (diff.empty())
    return false;
  bool steps = false;
  if (!definiteSign(diff, counter)) {
    steps = differentSteps(polys[0], polys[1], counter);
    if (!steps)
      return false;
  }

  Operation *funcOp = p.kernel->getParentOp();
  AsmState state(funcOp);
  std::string made = counter.format(polys[0], state);
  std::string taken = counter.format(polys[1], state);
  auto diag = p.create.emitError()
              << "expects the producer and the consumer of this pipeline to "
                 "move the same number of items, got: the producer makes "
              << made << (made == "1" ? " item" : " items")
              << ", the consumer takes " << taken;
  if (steps) {
    diag << ": over the same bounds with different steps, they differ "
            "whenever the loop with the smaller step runs more than once";
  } else {
    bool consumerWaits = false;
    for (auto &[syms, coeff] : diff)
      consumerWaits = coeff < 0;
    if (consumerWaits)
      diag << ": the consumer waits for the rest forever";
    else
      diag << ": the rest are never consumed, and the producer waits for "
              "their stages to be freed forever";
    if (llvm::any_of(diff, [](auto &entry) { return !entry.first.empty(); }))
      diag << " (whenever the loops run)";
  }
  for (unsigned role = 0; role < 2; ++role)
    for (VisitCount &vc : counts[role]) {
      Poly one;
      addTo(one, vc, 1);
      std::string text = counter.format(one, state);
      Operation *at = vc.outerLoop ? vc.outerLoop : vc.site;
      diag.attachNote(at->getLoc())
          << (role == 0 ? "the producer makes " : "the consumer takes ") << text
          << (text == "1" ? " item" : " items") << " here";
    }
  return true;
}

LogicalResult pmlir::verifyTripCounts(Operation *root) {
  bool failed = false;
  for (PipelineUses &p : collectPipelines(root))
    failed |= checkTripCounts(p);
  return failure(failed);
}
