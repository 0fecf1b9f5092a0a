//===- Engine.cpp - the instructions, one thread at a time ------*- C++ -*-===//

#include "Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

/// The registers an operand names (a register, a memory operand's base
/// register, a vector's or a tensor coordinate list's registers).
static void regsOf(const Operand &o, SmallVectorImpl<unsigned> &out) {
  if (o.kind == Operand::Kind::Reg)
    out.push_back(o.reg);
  else if (o.kind == Operand::Kind::Mem && o.memReg)
    out.push_back(o.reg);
  for (const Operand &e : o.elems)
    regsOf(e, out);
}

/// Register-to-register instructions: an undefined source makes the result
/// undefined, and nothing else observes it.
static bool propagatesValue(Op op) {
  switch (op) {
  case Op::Mov:
  case Op::Cvta:
  case Op::Add:
  case Op::Sub:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Not:
  case Op::Shl:
  case Op::Shr:
  case Op::Min:
  case Op::Max:
  case Op::Div:
  case Op::Rem:
  case Op::Mul:
  case Op::Mad:
  case Op::Neg:
  case Op::Abs:
  case Op::Popc:
  case Op::Clz:
  case Op::Brev:
  case Op::Bfe:
  case Op::Bfi:
  case Op::Prmt:
  case Op::Selp:
  case Op::Setp:
  case Op::Cvt:
    return true;
  default:
    return false;
  }
}

bool Machine::execute(Thread &t) {
  if (!t.wgmmaPending.empty() && t.pc < kernel.code.size())
    checkWgmmaInFlight(t, kernel.code[t.pc]);
  if (t.pc >= kernel.code.size() ||
      (t.poison.empty() && kernel.code[t.pc].op != Op::Clusterlaunchcontrol))
    return executeInstr(t);
  // Undefined values (clusterlaunchcontrol): a register-to-register
  // instruction passes them on to its result; any other use (a guard or
  // branch condition, an address, a stored value, a barrier or copy
  // operand) is a finding at that instruction.
  const Instr &in = kernel.code[t.pc];
  auto poisonOf = [&](unsigned r) -> unsigned {
    auto it = t.poison.find(r);
    return it == t.poison.end() ? 0 : it->second;
  };
  auto report = [&](unsigned line, StringRef how) {
    finding("clc-undefined",
            formatv("'{0}' at {1} in {2} uses {3} the first CTA id that "
                    "clusterlaunchcontrol.query_cancel.get_first_ctaid "
                    "decoded at PTX line {4} from a response that says not "
                    "canceled: the coordinates of a failed request are "
                    "undefined (test query_cancel.is_canceled first)",
                    in.opcode, where(in), describeCta(t.cta), how, line));
  };
  bool skipped = false;
  if (in.guard >= 0) {
    if (unsigned line = poisonOf(unsigned(in.guard)))
      report(line, "as its guard a predicate computed from");
    skipped = bool(t.regs[in.guard] & 1) == in.guardNegated;
  }
  if (skipped)
    return executeInstr(t);
  // The destinations: the first operand of the instructions that write
  // it (not of a store, a reduction, a copy, a barrier without state).
  bool writesFirst =
      in.numOps > 0 &&
      (in.ops[0].kind == Operand::Kind::Reg ||
       in.ops[0].kind == Operand::Kind::Vec) &&
      (propagatesValue(in.op) || in.op == Op::Ld || in.op == Op::Ldu ||
       in.op == Op::Atom || in.op == Op::Mbarrier || in.op == Op::Mapa ||
       in.op == Op::Clusterlaunchcontrol || in.op == Op::Elect ||
       in.op == Op::Shfl || in.op == Op::Vote || in.op == Op::Activemask ||
       in.op == Op::Match || in.op == Op::Redux || in.op == Op::Ldmatrix ||
       in.op == Op::Movmatrix || in.op == Op::Wgmma ||
       (in.op == Op::Tcgen05 && in.parts[1] == "ld") || in.fp);
  SmallVector<unsigned, 8> dests, srcs;
  for (unsigned i = 0; i < in.numOps; ++i)
    regsOf(in.ops[i], i == 0 && writesFirst ? dests : srcs);
  unsigned srcLine = 0;
  if (in.op == Op::Selp && in.numOps == 4) {
    // selp d, a, b, c: the operand it selects, and the condition.
    SmallVector<unsigned, 2> picked, cond;
    regsOf(in.ops[(value(t, in.ops[3]) & 1) ? 1 : 2], picked);
    regsOf(in.ops[3], cond);
    for (unsigned r : picked)
      srcLine = std::max(srcLine, poisonOf(r));
    for (unsigned r : cond)
      srcLine = std::max(srcLine, poisonOf(r));
  } else {
    for (unsigned r : srcs)
      srcLine = std::max(srcLine, poisonOf(r));
  }
  bool propagates = propagatesValue(in.op) || (in.fp && !in.fpError.size());
  if (srcLine && !propagates)
    report(srcLine, "a value derived from");
  // What the response says, before the instruction overwrites it.
  bool isQuery = in.op == Op::Clusterlaunchcontrol && in.numOps >= 2 &&
                 in.parts[1] == "query_cancel";
  bool failed = isQuery && !(value(t, in.ops[1]) & 1);
  bool result = executeInstr(t);
  for (unsigned r : dests) {
    if (propagates && srcLine)
      t.poison[r] = srcLine;
    else
      t.poison.erase(r);
  }
  if (failed) {
    if (in.has("is_canceled")) {
      if (!clcFailedOf(t.cta))
        clcFailedOf(t.cta) = in.ptxLine;
    } else {
      for (unsigned r : dests)
        t.poison[r] = in.ptxLine;
    }
  }
  return result;
}

bool Machine::executeInstr(Thread &t) {
  if (t.pc >= kernel.code.size()) {
    t.status = Status::Exited;
    return false;
  }
  const Instr &in = kernel.code[t.pc];
  ++result.instructions;
  if (in.guard >= 0) {
    bool g = t.regs[in.guard] & 1;
    if (g == in.guardNegated) {
      ++t.pc;
      return true;
    }
  }
  Op op = in.op;
  unsigned bits = in.bits;
  auto v = [&](unsigned i) { return value(t, in.ops[i]); };
  auto set = [&](unsigned i, uint64_t x) { setReg(t, in.ops[i], x); };
  auto next = [&] {
    ++t.pc;
    return true;
  };

  if (op == Op::Bra) {
    t.pc = size_t(in.target);
    return true;
  }
  if (op == Op::Ret || op == Op::Exit) {
    t.status = Status::Exited;
    return false;
  }
  if (op == Op::Trap || op == Op::Brkpt) {
    // The kernel ends there (the launch fails on the GPU).
    finding("trap", formatv("thread {0} of {1} executed {2} at {3}", t.tid,
                            describeCta(t.cta), in.parts[0], where(in)));
    t.status = Status::Exited;
    aborted = true;
    return false;
  }

  // Floating point (FloatOps.h): operands in order after the results.
  if (in.fp) {
    const FloatInstr &fi = *in.fp;
    unsigned n = fi.numSrcs();
    uint64_t srcs[4] = {0, 0, 0, 0};
    // cvt.rn.bf16x2.f32 d, a, b and setp p|q, a, b[, c]: the sources
    // follow the destination.
    for (unsigned i = 0; i < n && i < 4; ++i)
      srcs[i] = value(t, in.ops[1 + i]);
    FloatResult r = evalFloat(fi, ArrayRef<uint64_t>(srcs, n));
    const Operand &dst = in.ops[0];
    if (in.op == Op::Setp || in.op == Op::Testp) {
      if (dst.kind == Operand::Kind::Vec) {
        setReg(t, dst.elems[0], r.pred);
        if (dst.elems.size() > 1)
          setReg(t, dst.elems[1], r.pred2);
      } else {
        setReg(t, dst, r.pred);
      }
    } else {
      setReg(t, dst, r.bits);
    }
    return next();
  }
  if (!in.fpError.empty()) {
    finding("unsupported", "'" + in.opcode + "' at " + where(in) + ": " +
                               in.fpError + " (its result reads as 0)");
    if (in.numOps != 0)
      set(0, 0);
    return next();
  }
  // Integer and predicate arithmetic (floating-point arithmetic was
  // FloatOps' above; what remains of a float type moves bits: selp.f32).
  if (op == Op::Mov || op == Op::Cvta) {
    if (in.ops[0].kind == Operand::Kind::Vec) {
      // mov.b32 {lo, hi}, %r / mov.b64 {a, b}, %rd: unpack.
      uint64_t x = v(1);
      unsigned n = in.ops[0].elems.size();
      unsigned each = bits / std::max(1u, n);
      for (unsigned i = 0; i < n; ++i)
        setReg(t, in.ops[0].elems[i], truncBits(x >> (each * i), each));
      return next();
    }
    uint64_t x;
    if (in.ops[1].kind == Operand::Kind::Vec) {
      x = 0;
      unsigned n = in.ops[1].elems.size();
      unsigned each = bits / std::max(1u, n);
      for (unsigned i = 0; i < n; ++i)
        x |= truncBits(value(t, in.ops[1].elems[i]), each) << (each * i);
    } else {
      x = v(1);
    }
    if (op == Op::Cvta) {
      bool to = in.has("to");
      const std::string &space = in.space;
      if (space == "shared")
        x = to ? (x & 0xffffffffull) : (kGenericShared | (x & 0xffffffffull));
      else if (space == "cluster")
        x = to ? (kCluster | (uint64_t(clusterRank(t.cta)) << 32) |
                  (x & 0xffffffffull))
               : (kGenericShared | (x & 0xffffffffull));
    }
    set(0, bits == 1 ? (x & 1) : truncBits(x, bits));
    return next();
  }
  auto binary = [&](auto f) {
    uint64_t r = f(v(1), v(2));
    set(0, bits == 1 ? (r & 1) : truncBits(r, bits));
    return next();
  };
  {
    if (op == Op::Add)
      return binary([](uint64_t a, uint64_t b) { return a + b; });
    if (op == Op::Sub)
      return binary([](uint64_t a, uint64_t b) { return a - b; });
    if (op == Op::And)
      return binary([](uint64_t a, uint64_t b) { return a & b; });
    if (op == Op::Or)
      return binary([](uint64_t a, uint64_t b) { return a | b; });
    if (op == Op::Xor)
      return binary([](uint64_t a, uint64_t b) { return a ^ b; });
    if (op == Op::Shl)
      return binary(
          [&](uint64_t a, uint64_t b) { return b >= bits ? 0 : a << b; });
    if (op == Op::Shr)
      return binary([&](uint64_t a, uint64_t b) -> uint64_t {
        if (in.isSigned)
          return b >= bits ? uint64_t(sext(a, bits) < 0 ? -1 : 0)
                           : uint64_t(sext(a, bits) >> b);
        return b >= bits ? 0 : truncBits(a, bits) >> b;
      });
    if (op == Op::Min || op == Op::Max)
      return binary([&](uint64_t a, uint64_t b) -> uint64_t {
        bool less = in.isSigned ? sext(a, bits) < sext(b, bits)
                                : truncBits(a, bits) < truncBits(b, bits);
        return (op == Op::Min) == less ? a : b;
      });
    if (op == Op::Div || op == Op::Rem)
      return binary([&](uint64_t a, uint64_t b) -> uint64_t {
        if (truncBits(b, bits) == 0) {
          finding("memory",
                  formatv("integer division by zero at {0}", where(in)));
          return 0;
        }
        if (in.isSigned) {
          int64_t x = sext(a, bits), y = sext(b, bits);
          return uint64_t(op == Op::Div ? x / y : x % y);
        }
        uint64_t x = truncBits(a, bits), y = truncBits(b, bits);
        return op == Op::Div ? x / y : x % y;
      });
    if (op == Op::Mul || op == Op::Mad) {
      bool wide = in.has("wide"), hi = in.has("hi");
      uint64_t a = v(1), b = v(2), r;
      if (wide) {
        r = in.isSigned ? uint64_t(sext(a, bits) * sext(b, bits))
                        : truncBits(a, bits) * truncBits(b, bits);
      } else if (hi) {
        if (bits == 64) {
          __uint128_t p =
              in.isSigned
                  ? __uint128_t(__int128_t(int64_t(a)) * __int128_t(int64_t(b)))
                  : __uint128_t(a) * __uint128_t(b);
          r = uint64_t(p >> 64);
        } else {
          uint64_t p = in.isSigned ? uint64_t(sext(a, bits) * sext(b, bits))
                                   : truncBits(a, bits) * truncBits(b, bits);
          r = p >> bits;
        }
      } else {
        r = a * b;
      }
      if (op == Op::Mad)
        r += v(3);
      set(0, truncBits(r, wide ? 2 * bits : bits));
      return next();
    }
    if (op == Op::Not) {
      uint64_t r = ~v(1);
      set(0, bits == 1 ? (r & 1) : truncBits(r, bits));
      return next();
    }
    if (op == Op::Neg) {
      set(0, truncBits(-v(1), bits));
      return next();
    }
    if (op == Op::Abs) {
      int64_t x = sext(v(1), bits);
      set(0, truncBits(uint64_t(x < 0 ? -x : x), bits));
      return next();
    }
    if (op == Op::Popc) {
      set(0, llvm::popcount(truncBits(v(1), bits)));
      return next();
    }
    if (op == Op::Clz) {
      uint64_t x = truncBits(v(1), bits);
      set(0, x == 0 ? bits : llvm::countl_zero(x) - (64 - bits));
      return next();
    }
    if (op == Op::Brev) {
      uint64_t x = truncBits(v(1), bits), r = 0;
      for (unsigned i = 0; i < bits; ++i)
        if (x >> i & 1)
          r |= 1ull << (bits - 1 - i);
      set(0, r);
      return next();
    }
    if (op == Op::Bfe) {
      uint64_t x = truncBits(v(1), bits), pos = v(2) & 0xff, len = v(3) & 0xff;
      uint64_t r = (pos >= bits || len == 0)
                       ? 0
                       : (x >> pos) & (len >= 64 ? ~0ull : (1ull << len) - 1);
      if (in.isSigned && len > 0 && len < 64 && (r >> (len - 1) & 1))
        r |= ~((1ull << len) - 1);
      set(0, truncBits(r, bits));
      return next();
    }
    if (op == Op::Bfi) {
      uint64_t f = v(1), b = v(2), pos = v(3) & 0xff, len = v(4) & 0xff;
      uint64_t mask = (len >= 64 ? ~0ull : (1ull << len) - 1) << pos;
      set(0, truncBits((b & ~mask) | ((f << pos) & mask), bits));
      return next();
    }
    if (op == Op::Prmt) {
      uint64_t a = truncBits(v(1), 32), b = truncBits(v(2), 32),
               c = v(3) & 0xffff;
      uint64_t bytes = a | (b << 32), r = 0;
      for (unsigned i = 0; i < 4; ++i) {
        unsigned sel = (c >> (4 * i)) & 7;
        r |= ((bytes >> (8 * sel)) & 0xff) << (8 * i);
      }
      set(0, r);
      return next();
    }
    if (op == Op::Selp) {
      set(0, (v(3) & 1) ? v(1) : v(2));
      return next();
    }
    if (op == Op::Setp) {
      StringRef cmp = in.parts[1];
      uint64_t a = v(1), b = v(2);
      bool r;
      bool sgn = in.isSigned;
      int64_t sa = sext(a, bits), sb = sext(b, bits);
      uint64_t ua = truncBits(a, bits), ub = truncBits(b, bits);
      if (cmp == "eq")
        r = ua == ub;
      else if (cmp == "ne")
        r = ua != ub;
      else if (cmp == "lt")
        r = sgn ? sa < sb : ua < ub;
      else if (cmp == "le")
        r = sgn ? sa <= sb : ua <= ub;
      else if (cmp == "gt")
        r = sgn ? sa > sb : ua > ub;
      else if (cmp == "ge")
        r = sgn ? sa >= sb : ua >= ub;
      else if (cmp == "lo")
        r = ua < ub;
      else if (cmp == "ls")
        r = ua <= ub;
      else if (cmp == "hi")
        r = ua > ub;
      else if (cmp == "hs")
        r = ua >= ub;
      else {
        finding("unsupported", "setp." + cmp + " at " + where(in));
        r = false;
      }
      // setp.cmp.and/or with a third predicate operand.
      if (in.numOps > 3 && in.parts.size() > 2) {
        bool c = v(3) & 1;
        if (in.has("and"))
          r = r && c;
        else if (in.has("or"))
          r = r || c;
        else if (in.has("xor"))
          r = r != c;
      }
      setResult(t, in.ops[0], r, !r); // p|q: q is the complement
      return next();
    }
    if (op == Op::Cvt) {
      // cvt.dst.src: widen or narrow integers.
      unsigned dst = 64, src = 64;
      bool srcSigned = false;
      int n = 0;
      for (const std::string &p : in.parts) {
        StringRef s = p;
        unsigned b;
        if (s.size() >= 2 && (s[0] == 'u' || s[0] == 's' || s[0] == 'b') &&
            !s.drop_front().getAsInteger(10, b)) {
          if (n++ == 0)
            dst = b;
          else {
            src = b;
            srcSigned = s[0] == 's';
          }
        }
      }
      uint64_t x = v(1);
      x = srcSigned ? uint64_t(sext(x, src)) : truncBits(x, src);
      set(0, truncBits(x, dst));
      return next();
    }
  }
  // Floating-point math FloatOps does not decode: reported, never read
  // silently as zero.
  if (op == Op::Fma || op == Op::Ex2 || op == Op::Rcp || op == Op::Sqrt ||
      op == Op::Lg2 || op == Op::Sin || op == Op::Cos || op == Op::Tanh ||
      op == Op::Testp || op == Op::Copysign) {
    finding("unsupported",
            "'" + in.opcode + "' at " + where(in) + " (its result reads as 0)");
    if (in.numOps != 0) {
      if (in.ops[0].kind == Operand::Kind::Vec)
        for (const Operand &e : in.ops[0].elems)
          setReg(t, e, 0);
      else
        set(0, 0);
    }
    return next();
  }

  // Memory.
  if (op == Op::Ld || op == Op::Ldu) {
    const std::string &space = in.space;
    uint64_t addr = address(t, in.ops[1]);
    unsigned each = bits == 1 ? 1 : std::max(1u, bits / 8);
    if (in.ops[0].kind == Operand::Kind::Vec) {
      for (size_t i = 0; i < in.ops[0].elems.size(); ++i)
        setReg(t, in.ops[0].elems[i], load(t, addr + i * each, space, each));
    } else {
      uint64_t x = load(t, addr, space, each);
      if (in.isSigned)
        x = uint64_t(sext(x, bits));
      set(0, x);
    }
    return next();
  }
  if (op == Op::St) {
    const std::string &space = in.space;
    uint64_t addr = address(t, in.ops[0]);
    unsigned each = std::max(1u, bits / 8);
    if (in.ops[1].kind == Operand::Kind::Vec) {
      for (size_t i = 0; i < in.ops[1].elems.size(); ++i)
        store(t, addr + i * each, space, each, value(t, in.ops[1].elems[i]));
    } else {
      store(t, addr, space, each, v(1));
    }
    return next();
  }
  if (op == Op::Atom || op == Op::Red) {
    const std::string &space = in.space;
    bool isAtom = op == Op::Atom;
    const Operand &memOp = in.ops[isAtom ? 1 : 0];
    uint64_t addr = address(t, memOp);
    unsigned each = std::max(1u, bits / 8);
    uint64_t old = load(t, addr, space, each);
    uint64_t a = value(t, in.ops[isAtom ? 2 : 1]), nv = old;
    if (in.has("cas"))
      nv = truncBits(old, bits) == truncBits(a, bits) ? value(t, in.ops[3])
                                                      : old;
    else if (in.has("exch"))
      nv = a;
    else if (in.has("inc"))
      // ((old >= b) ? 0 : old + 1), unsigned: wraps to 0 at the bound.
      nv = truncBits(old, bits) >= truncBits(a, bits) ? 0 : old + 1;
    else if (in.has("dec"))
      // ((old == 0) || (old > b)) ? b : old - 1, unsigned.
      nv =
          truncBits(old, bits) == 0 || truncBits(old, bits) > truncBits(a, bits)
              ? a
              : old - 1;
    else if (in.has("add"))
      nv = old + a;
    else if (in.has("or"))
      nv = old | a;
    else if (in.has("and"))
      nv = old & a;
    else if (in.has("xor"))
      nv = old ^ a;
    else if (in.has("max") || in.has("min")) {
      // .s32 / .s64 compare signed, .u32 / .u64 unsigned.
      bool less = in.isSigned ? sext(old, bits) < sext(a, bits)
                              : truncBits(old, bits) < truncBits(a, bits);
      nv = in.has("max") == less ? a : old;
    }
    store(t, addr, space, each, nv);
    if (isAtom)
      set(0, old);
    return next();
  }

  // mbarriers.
  if (op == Op::Mbarrier) {
    StringRef kind = in.parts[1];
    const std::string &space = in.space;
    bool hasState = in.numOps >= 2 && in.ops[0].kind != Operand::Kind::Mem;
    const Operand &mem = in.ops[hasState ? 1 : 0];
    Place p = resolve(t, address(t, mem), space.empty() ? "shared" : space);
    Barrier &b = barrierAt(p.cta, p.offset);
    if (kind == "init") {
      // An init of a barrier that is initialized (no inval in between):
      // another pipeline's barriers at the same place, or a second init.
      if (b.initialized)
        finding("reinitialized-barrier",
                formatv("mbarrier {0} of {1} initialized again at {2} while "
                        "it is initialized (after {3} completed phases): "
                        "two pipelines' barriers overlap, or a pipeline is "
                        "initialized twice",
                        barrierName(p.offset), describeCta(p.cta), where(in),
                        b.phases));
      b = Barrier();
      for (Thread &o : threads)
        if (o.observeBarrier == barrierKey(p.cta, p.offset))
          o.observeBarrier = ~0ull;
      b.initialized = true;
      b.expected = uint32_t(value(t, in.ops[1]));
      b.pending = b.expected;
      b.initThread = size_t(t.cta) * threadsPerCta() + t.tid;
      b.initCtaEpoch = ctaEpoch[p.cta];
      b.initClusterEpoch = clusterEpoch[ctaOfRank(p.cta, 0)];
      record({0, b.initThread, TraceEntry::Init, p.cta, p.offset,
              int64_t(b.expected), 0, in.ptxLine});
      labelBarrier(t, in, p.offset);
      return next();
    }
    if (kind == "inval") {
      b.initialized = false;
      return next();
    }
    if (b.initialized)
      checkVisible(t, p.cta, p.offset, in);
    if (kind == "arrive" || kind == "arrive_drop") {
      bool expectTx = in.has("expect_tx");
      // Operands: [state|_], [addr], (tx bytes | count)?
      int64_t count = 1;
      if (expectTx) {
        if (!b.initialized)
          finding("uninitialized-barrier",
                  formatv("arrive.expect_tx on mbarrier {0} of {1}, which is "
                          "not initialized ({2})",
                          barrierName(p.offset), describeCta(p.cta),
                          where(in)));
        else {
          b.tx += int64_t(value(t, in.ops[2]));
          record({0, size_t(t.cta) * threadsPerCta() + t.tid,
                  TraceEntry::ExpectTx, p.cta, p.offset,
                  int64_t(value(t, in.ops[2])), b.phases, in.ptxLine});
        }
      } else if (in.numOps > 2) {
        count = int64_t(value(t, in.ops[2]));
      }
      if (hasState)
        set(0, b.phases);
      arrive(p.cta, p.offset, count, &t, &in);
      return next();
    }
    if (kind == "expect_tx") {
      if (b.initialized)
        b.tx += int64_t(value(t, in.ops[1]));
      return next();
    }
    if (kind == "complete_tx") {
      completeTx(p.cta, p.offset, int64_t(value(t, in.ops[1])),
                 "complete_tx at " + where(in));
      return next();
    }
    if (kind == "try_wait" || kind == "test_wait") {
      if (!b.initialized) {
        finding("uninitialized-barrier",
                formatv("a wait on mbarrier {0} of {1}, which is not "
                        "initialized ({2})",
                        barrierName(p.offset), describeCta(p.cta), where(in)));
        t.status = Status::Blocked;
        t.waitBarrier = barrierKey(p.cta, p.offset);
        t.waitWhat =
            formatv("mbarrier {0} (not initialized)", barrierName(p.offset))
                .str();
        return false;
      }
      // The thread polls the barrier again: it observes its phase.
      if (t.observeBarrier == barrierKey(p.cta, p.offset))
        t.observeBarrier = ~0ull;
      bool parity = in.has("parity");
      bool done;
      if (parity)
        done = (b.phases & 1) != (value(t, in.ops[2]) & 1);
      else
        done = b.phases > value(t, in.ops[2]);
      if (done) {
        set(0, 1);
        t.lastPoll = ~0ull;
        return next();
      }
      // A failed try_wait in a loop that polls it again blocks the thread
      // until the barrier completes a phase; a test_wait or a try_wait the
      // program does not loop on returns false.
      // The lowering's polling loops: `@P bra done; bra head`,
      // `not.pred Q, P; @Q bra head` or `@!P bra head`, with head at or
      // before the try_wait. (The hang report's slow path reads the clock
      // between polls and keeps polling: its clock decides when it
      // reports.)
      bool loops = false;
      if (kind == "try_wait" && in.ops[0].kind == Operand::Kind::Reg) {
        unsigned p = in.ops[0].reg;
        auto backTo = [&](size_t k) {
          return k < kernel.code.size() && kernel.code[k].is("bra") &&
                 size_t(kernel.code[k].target) <= t.pc;
        };
        size_t k = t.pc + 1;
        if (k < kernel.code.size()) {
          const Instr &n1 = kernel.code[k];
          if (n1.is("bra") && n1.guard == int(p) && !n1.guardNegated &&
              backTo(k + 1) && kernel.code[k + 1].guard < 0)
            loops = true; // @P bra done; bra head
          else if (n1.is("bra") && n1.guard == int(p) && n1.guardNegated &&
                   backTo(k))
            loops = true; // @!P bra head
          else if (n1.is("not") && n1.numOps == 2 &&
                   n1.ops[1].kind == Operand::Kind::Reg && n1.ops[1].reg == p &&
                   k + 1 < kernel.code.size() &&
                   kernel.code[k + 1].guard == int(n1.ops[0].reg) &&
                   !kernel.code[k + 1].guardNegated && backTo(k + 1))
            loops = true; // not.pred Q, P; @Q bra head
        }
      }
      if (!loops) {
        set(0, 0);
        return next();
      }
      record({0, size_t(t.cta) * threadsPerCta() + t.tid, TraceEntry::Block,
              p.cta, p.offset, int64_t(value(t, in.ops[2]) & 1), b.phases,
              in.ptxLine});
      t.status = Status::Blocked;
      t.waitBarrier = barrierKey(p.cta, p.offset);
      t.waitParity = value(t, in.ops[2]) & 1;
      if (parity) {
        // It waits for the phase in progress (of its parity) to complete.
        t.observeBarrier = t.waitBarrier;
        t.observePhase = b.phases;
        t.observeLine = in.ptxLine;
      }
      t.waitWhat =
          formatv("mbarrier {0} of {1}: waits for the phase of parity {2} "
                  "(completed phases {3}, {4} of {5} arrivals pending, {6} "
                  "transaction bytes pending) at {7}",
                  barrierName(p.offset), describeCta(p.cta),
                  value(t, in.ops[2]) & 1, b.phases, b.pending, b.expected,
                  b.tx, where(in))
              .str();
      return false;
    }
    finding("unsupported", "mbarrier." + kind.str() + " at " + where(in));
    return next();
  }
  if (op == Op::Mapa) {
    uint64_t a = v(1), rank = v(2);
    set(0, kCluster | (rank << 32) | (a & 0xffffffffull));
    return next();
  }
  if (op == Op::Fence && in.has("mbarrier_init")) {
    size_t self = size_t(t.cta) * threadsPerCta() + t.tid;
    uint64_t epoch = clusterEpoch[ctaOfRank(t.cta, 0)];
    for (auto &[key, b] : barriers)
      if (b.initThread == self && b.fenceClusterEpoch == ~0ull)
        b.fenceClusterEpoch = epoch;
    return next();
  }
  if (op == Op::Fence || op == Op::Membar || op == Op::Nanosleep ||
      op == Op::Prefetch || op == Op::Prefetchu || op == Op::Setmaxnreg ||
      op == Op::Griddepcontrol || op == Op::Pmevent) {
    return next();
  }
  if (op == Op::Cp)
    return copy(t, in);
  if (op == Op::Clusterlaunchcontrol) {
    // try_cancel [resp], [mbar]: cancels the first cluster that waits to
    // be launched (--resident-clusters), if any, and answers with it; the
    // response is written to this CTA (or, multicast, to every CTA of the
    // cluster), whose barrier then completes 16 transaction bytes. The
    // response's encoding is the simulator's own (the hardware's is
    // opaque): bit 0 canceled, bits 8-31 the first CTA's x, 32-47 y, 48-63
    // z; query_cancel decodes it.
    if (in.parts[1] == "try_cancel") {
      // PTX ISA, clusterlaunchcontrol.try_cancel: "If the executing CTA
      // has already observed the completion of a
      // clusterlaunchcontrol.try_cancel instruction as failed, then the
      // behavior of issuing a subsequent clusterlaunchcontrol.try_cancel
      // instruction is undefined." Observed: a thread of the CTA read the
      // response with query_cancel.is_canceled (false).
      if (unsigned line = clcFailedOf(t.cta))
        finding("clc-after-failure",
                formatv("{0} at {1} by thread {2} of {3}, which already "
                        "observed a failed request (query_cancel.is_canceled "
                        "false at PTX line {4}): a try_cancel after a failed "
                        "one is undefined",
                        in.opcode, where(in), t.tid, describeCta(t.cta), line));
      uint64_t answer = 0;
      for (size_t i = 0; i < clusters.size(); ++i)
        if (clusterState[i] == ClusterState::Pending) {
          clusterState[i] = ClusterState::Canceled;
          ++result.clustersCanceled;
          unsigned xyz[3];
          ctaCoords(clusters[i], xyz);
          answer = 1 | (uint64_t(xyz[0] & 0xffffff) << 8) |
                   (uint64_t(xyz[1] & 0xffff) << 32) |
                   (uint64_t(xyz[2] & 0xffff) << 48);
          break;
        }
      uint64_t resp = address(t, in.ops[0]);
      Place mp = resolve(t, address(t, in.ops[1]), "shared");
      std::vector<unsigned> dests;
      if (StringRef(in.opcode).contains("multicast"))
        for (unsigned r = 0; r < clusterSize(); ++r)
          dests.push_back(ctaOfRank(t.cta, r));
      else
        dests.push_back(t.cta);
      for (unsigned d : dests) {
        std::vector<uint8_t> &mem = shared[d];
        for (unsigned b = 0; b < 16 && (resp & 0xffffffffull) + b < mem.size();
             ++b)
          mem[(resp & 0xffffffffull) + b] =
              b < 8 ? uint8_t(answer >> (8 * b)) : 0;
        schedule(d, mp.offset, Event::CompleteTx, 16,
                 formatv("the cluster launch control response of thread {0} "
                         "of {1} at {2}",
                         t.tid, describeCta(t.cta), where(in))
                     .str());
      }
      return next();
    }
    // query_cancel: decodes the response (try_cancel's encoding above).
    if (in.parts[1] == "query_cancel" && in.numOps >= 2) {
      uint64_t v = value(t, in.ops[1]);
      uint64_t coords[3] = {(v >> 8) & 0xffffff, (v >> 32) & 0xffff, v >> 48};
      if (in.has("is_canceled")) {
        set(0, v & 1);
      } else if (in.ops[0].kind == Operand::Kind::Vec) {
        for (size_t i = 0; i < in.ops[0].elems.size(); ++i)
          setReg(t, in.ops[0].elems[i], i < 3 ? coords[i] : 0);
      } else {
        unsigned axis = StringRef(in.opcode).contains("::y")   ? 1
                        : StringRef(in.opcode).contains("::z") ? 2
                                                               : 0;
        set(0, coords[axis]);
      }
      return next();
    }
    set(0, 0);
    return next();
  }
  if (op == Op::Tcgen05) {
    StringRef kind = in.parts[1];
    // tcgen05.alloc / dealloc / relinquish_alloc_permit / ld / st / wait
    // are .sync.aligned: the warp executes them together (see wgmma).
    // resolveCollectives runs their effects (tcgen05Collective).
    if (in.has("aligned")) {
      t.status = Status::AtCollective;
      return false;
    }
    if (kind == "commit") {
      const Operand &mem = in.ops[0];
      uint64_t a = address(t, mem);
      Place p = resolve(t, a, "cluster");
      std::vector<unsigned> dests =
          StringRef(in.opcode).contains("multicast") && in.numOps >= 2
              ? ctasOfMask(t, value(t, in.ops[1]))
              : std::vector<unsigned>{p.cta};
      for (unsigned d : dests) {
        schedule(d, p.offset, Event::Arrive, 1,
                 formatv("tcgen05.commit of thread {0} of {1} at {2}", t.tid,
                         describeCta(t.cta), where(in))
                     .str());
      }
      return next();
    }
    if (kind == "mma" || kind == "cp") {
      checkTmemLive(t, t.cta, in);
      if (kind == "mma" && in.has("cta_group::2") && clusterSize() > 1)
        checkTmemLive(t, ctaOfRank(t.cta, clusterRank(t.cta) ^ 1), in);
      tcgen05Issue(t, in);
    }
    if (kind == "shift")
      // Its data movement is not modelled: said, not skipped.
      finding("unsupported", "'" + in.opcode + "' at " + where(in) +
                                 " (the tensor memory is left as it was)");
    return next(); // mma, fence, cp, shift
  }
  if (op == Op::Wgmma) {
    // wgmma.fence / mma_async / commit_group / wait_group are .sync.aligned:
    // every lane of the warp executes the same instruction together, so a
    // lane cannot run ahead of one still spinning on a barrier before it.
    // A warp collective of all lanes (resolveCollectives runs it).
    t.status = Status::AtCollective;
    return false;
  }

  // Barriers and warp collectives: handled by the scheduler.
  if (op == Op::Bar || op == Op::Barrier) {
    if (in.is("bar") && in.parts.size() > 1 && in.parts[1] == "warp") {
      t.status = Status::AtCollective;
      return false;
    }
    bool cluster = in.parts.size() > 1 && in.parts[1] == "cluster";
    if (cluster) {
      bool isArrive = in.has("arrive");
      unsigned first = ctaOfRank(t.cta, 0);
      size_t ti = size_t(t.cta) * threadsPerCta() + t.tid;
      if (isArrive) {
        clusterArrivePhase[ti] = clusterPhase[first];
        if (++clusterArrived[first] == clusterSize() * threadsPerCta()) {
          clusterArrived[first] = 0;
          ++clusterPhase[first];
          ++clusterEpoch[first];
          for (unsigned r = 0; r < clusterSize(); ++r)
            ++ctaEpoch[ctaOfRank(first, r)];
          for (Thread &o : threads)
            if (o.status == Status::Blocked && o.waitCluster &&
                ctaOfRank(o.cta, 0) == first) {
              o.status = Status::Runnable;
              o.waitCluster = false;
            }
        }
        return next();
      }
      // wait: until the phase this thread arrived in is complete.
      auto it = clusterArrivePhase.find(ti);
      uint64_t arrivedIn = it == clusterArrivePhase.end() ? ~0ull : it->second;
      if (arrivedIn != ~0ull && clusterPhase[first] > arrivedIn) {
        clusterArrivePhase.erase(ti);
        return next();
      }
      t.status = Status::Blocked;
      t.waitCluster = true;
      t.waitWhat = "the cluster barrier (barrier.cluster.wait) at " + where(in);
      return false;
    }
    // bar.sync / barrier.sync / bar.arrive id[, count]
    unsigned id = in.numOps == 0 ? 0 : unsigned(v(0));
    unsigned count = in.numOps > 1 ? unsigned(v(1)) : 0;
    bool arriveOnly = in.has("arrive");
    NamedBarrier &nb = bars[{t.cta, id}];
    ++nb.arrived;
    if (count)
      nb.count = count;
    size_t ti = size_t(t.cta) * threadsPerCta() + t.tid;
    if (!arriveOnly) {
      nb.waiting.push_back(ti);
      t.status = Status::Blocked;
      t.waitBar = id;
      t.waitWhat = formatv("bar.sync {0} at {1}", id, where(in)).str();
    } else {
      ++t.pc;
    }
    checkBar(t.cta, id);
    return t.status == Status::Runnable;
  }
  if (op == Op::Elect || op == Op::Shfl || op == Op::Activemask ||
      op == Op::Vote || op == Op::Match || op == Op::Redux ||
      op == Op::Ldmatrix || op == Op::Stmatrix || op == Op::Movmatrix) {
    // ldmatrix, stmatrix, movmatrix are .sync.aligned: the warp executes
    // them together (resolveCollectives, tensorCollective).
    t.status = Status::AtCollective;
    return false;
  }
  if (op == Op::Call) {
    finding("unsupported", "a call at " + where(in));
    t.status = Status::Exited;
    return false;
  }
  finding("unsupported",
          "'" + in.opcode + "' at " + where(in) + " (its result reads as 0)");
  if (in.numOps != 0)
    set(0, 0);
  return next();
}

/// Warp collectives: a warp's lanes that wait at the same collective
/// instruction proceed together once every lane the instruction names
/// (its member mask, or for activemask the lanes that can still come)
/// is there.

/// The coordinates of a tensor copy's `[tmap, {c0, c1, ..}]` operand.
static std::vector<int32_t>
coordsOf(Machine &m, Thread &t, const Operand &op,
         function_ref<uint64_t(const Operand &)> value) {
  std::vector<int32_t> coords;
  for (const Operand &e : op.elems) {
    if (e.kind == Operand::Kind::Vec)
      for (const Operand &c : e.elems)
        coords.push_back(int32_t(value(c)));
    else
      coords.push_back(int32_t(value(e)));
  }
  return coords;
}

bool Machine::copy(Thread &t, const Instr &in) {
  auto val = [&](const Operand &o) { return value(t, o); };
  auto next = [&] {
    ++t.pc;
    return true;
  };
  StringRef opcode = in.opcode;
  bool tensor = in.has("tensor");
  bool bulk = in.has("bulk");
  std::string here = formatv("{0} of thread {1} of {2} at {3}",
                             tensor ? "the TMA copy" : "the copy", t.tid,
                             describeCta(t.cta), where(in))
                         .str();
  auto mapAt = [&](const Operand &o) -> const TensorMap * {
    uint64_t a = o.kind == Operand::Kind::Mem
                     ? (o.memReg ? t.regs[o.reg] : symbolAddress(o.sym))
                     : value(t, o);
    auto it = tensorMaps.find(a);
    return it == tensorMaps.end() ? nullptr : &it->second;
  };
  // Global -> shared, completing bytes on an mbarrier:
  //   cp.async.bulk.tensor.Nd.shared::cluster.global... [dst], [tmap, {c}],
  //       [mbar] (, ctaMask)
  //   cp.async.bulk.shared::cluster.global... [dst], [src], size, [mbar]
  //       (, ctaMask)
  if (bulk && in.has("global") && opcode.contains(".shared::cluster.global") &&
      in.numOps >= 3) {
    unsigned mbarIndex = tensor ? 2 : 3;
    const TensorMap *map = nullptr;
    uint64_t bytes = 0, src = 0;
    if (tensor) {
      map = mapAt(in.ops[1]);
      if (!map) {
        finding("unsupported",
                formatv("a TMA load through an address that is no tensor "
                        "map argument at {0}: give its box bytes "
                        "(--arg tmap:BYTES) or its encoding (tmap:SPEC)",
                        where(in)));
        return next();
      }
      bytes = map->bytes;
    } else {
      src = address(t, in.ops[1]);
      bytes = value(t, in.ops[2]);
      if (std::string why =
              bulkCopyCheck(address(t, in.ops[0]) & 0xffffffffull, src, bytes);
          !why.empty())
        finding("memory", here + ": " + why);
    }
    Place mp = resolve(t, address(t, in.ops[mbarIndex]), "cluster");
    Place dp = resolve(t, address(t, in.ops[0]), "cluster");
    // .cta_group::2: each destination pair's barrier is the one in the CTA
    // of the pair whose rank has the parity of the CTA that holds the
    // named barrier. A multicast mask names the destination CTAs; each
    // gets the data at the same offset of its own shared memory.
    bool pair = opcode.contains("cta_group::2");
    bool multicast = in.has("multicast::cluster");
    std::vector<unsigned> dests =
        multicast && in.numOps > mbarIndex + 1
            ? ctasOfMask(t, value(t, in.ops[mbarIndex + 1]))
            : std::vector<unsigned>{dp.cta};
    std::shared_ptr<const TensorMapDesc> desc;
    if (map && map->desc)
      desc = std::make_shared<TensorMapDesc>(*map->desc);
    std::vector<int32_t> coords;
    if (tensor)
      coords = coordsOf(*this, t, in.ops[1], val);
    for (unsigned d : dests) {
      unsigned target = mp.cta;
      if (multicast)
        target = pair ? ctaOfRank(d, (clusterRank(d) & ~1u) |
                                         (clusterRank(mp.cta) & 1u))
                      : d;
      Event e;
      e.due = round + options.asyncDelay;
      e.cta = target;
      e.offset = mp.offset;
      e.kind = Event::CompleteTx;
      e.amount = int64_t(bytes);
      e.what = formatv("the {0} of thread {1} of {2} at {3}",
                       tensor ? "TMA load" : "bulk copy", t.tid,
                       describeCta(t.cta), where(in))
                   .str();
      if (desc || !tensor) {
        e.map = desc;
        e.coords = coords;
        e.srcGlobal = src;
        e.copyBytes = tensor ? 0 : bytes;
        e.dataCta = d;
        e.dataOffset = dp.offset;
        e.dataWhere = here;
      }
      events.push_back(std::move(e));
    }
    return next();
  }
  // Shared -> global, at issue (the bulk group's wait only orders it):
  //   cp.async.bulk.tensor.Nd.global.shared::cta... [tmap, {c}], [src]
  //   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP... (the same)
  //   cp.async.bulk.global.shared::cta... [dst], [src], size
  if (bulk && opcode.contains(".global.shared::cta") && in.numOps >= 2) {
    Place sp = resolve(t, address(t, in.ops[1]), "shared");
    std::vector<uint8_t> &mem = shared[sp.cta];
    if (tensor) {
      const TensorMap *map = mapAt(in.ops[0]);
      if (!map || !map->desc)
        return next(); // an opaque map: no data
      TmaReduce op = TmaReduce::None;
      if (in.is("cp") && in.parts[1] == "reduce")
        op = in.has("add")   ? TmaReduce::Add
             : in.has("min") ? TmaReduce::Min
             : in.has("max") ? TmaReduce::Max
             : in.has("inc") ? TmaReduce::Inc
             : in.has("dec") ? TmaReduce::Dec
             : in.has("and") ? TmaReduce::And
             : in.has("or")  ? TmaReduce::Or
                             : TmaReduce::Xor;
      std::string why = tmaStore(
          *map->desc, coordsOf(*this, t, in.ops[0], val), mem, sp.offset,
          [&](uint64_t a, uint8_t *out, size_t n) {
            return readGlobal(a, out, n);
          },
          [&](uint64_t a, const uint8_t *data, size_t n) {
            return writeGlobal(a, data, n);
          },
          op);
      if (!why.empty())
        finding("memory", here + ": " + why);
      return next();
    }
    uint64_t dst = address(t, in.ops[0]), n = value(t, in.ops[2]);
    if (std::string why = bulkCopyCheck(dst, sp.offset, n); !why.empty())
      finding("memory", here + ": " + why);
    else if (sp.offset + n > smemLimit())
      finding("memory", here + ": the source reaches past shared memory");
    else if (!writeGlobal(dst, mem.data() + sp.offset, n))
      finding("memory", here + ": the destination is outside every buffer");
    return next();
  }
  // cp.async.ca/cg.shared.global [dst], [src], cp-size (, src-size): at
  // issue (cp.async.wait_group / wait_all only order it).
  if (in.parts[1] == "async" && !bulk && in.has("global") && in.numOps >= 3) {
    Place dp = resolve(t, address(t, in.ops[0]), "shared");
    uint64_t src = address(t, in.ops[1]);
    unsigned size = unsigned(value(t, in.ops[2]));
    uint64_t srcSize = in.numOps > 3 ? value(t, in.ops[3]) : size;
    if (std::string why =
            asyncCopyCheck(dp.offset, src, size, srcSize, in.has("cg"));
        !why.empty()) {
      finding("memory", here + ": " + why);
      return next();
    }
    if (checkShared(t, dp.offset, size))
      return next();
    uint8_t buf[16] = {};
    if (srcSize && !readGlobal(src, buf, srcSize))
      reportGlobal(t, src, unsigned(srcSize));
    std::copy_n(buf, size, shared[dp.cta].begin() + dp.offset);
    return next();
  }
  // Commit and wait groups, prefetches: no effect here.
  return next();
}
