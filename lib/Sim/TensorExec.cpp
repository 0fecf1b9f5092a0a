//===- TensorExec.cpp - the tensor-core instructions with data --*- C++ -*-===//
//
// wgmma.mma_async, tcgen05.mma/ld/st/cp, ldmatrix/stmatrix/movmatrix as
// the engine executes them: operands gathered from the threads' registers
// and the CTAs' shared and tensor memory, the arithmetic and layouts in
// TensorCore.cpp. MMAs execute when issued (docs/simulator.md says what
// that approximates).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "pipeline/Sim/TensorCore.h"

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

Tmem &Machine::tmemOf(unsigned cta) {
  if (tmemData.size() != ctaCount())
    tmemData.resize(ctaCount());
  if (!tmemData[cta])
    tmemData[cta] = std::make_shared<Tmem>();
  else if (tmemData[cta].use_count() > 1) // shared with a copied machine
    tmemData[cta] = std::make_shared<Tmem>(*tmemData[cta]);
  return *tmemData[cta];
}

/// The shared-window offset of a (shared or generic-shared) address.
static uint32_t sharedOffset(uint64_t a) { return uint32_t(a & 0xffffffffull); }

bool Machine::tensorCollective(unsigned c, unsigned w, uint32_t members,
                               const Instr &in) {
  unsigned perCta = threadsPerCta();
  size_t base = size_t(c) * perCta + w * 32;
  unsigned lanes = std::min(32u, perCta - w * 32);
  auto lane = [&](unsigned l) -> Thread & { return threads[base + l]; };
  auto fail = [&](const std::string &why) {
    finding("memory", in.opcode + " of warp " + std::to_string(w) + " of " +
                          describeCta(c) + " at " + where(in) + ": " + why);
  };
  if (in.op == Op::Wgmma) {
    if (in.parts[1] != "mma_async")
      return true; // fence, commit_group, wait_group: executed at issue
    std::string err;
    WgmmaInstr wi = decodeWgmma(in.parts, &err);
    if (!err.empty()) {
      finding("unsupported", in.opcode + " at " + where(in) + ": " + err);
      return true;
    }
    // d, a (descriptor or registers), b-desc, scale-d, imm-scale-a,
    // imm-scale-b[, imm-trans-a, imm-trans-b]
    const Operand &d = in.ops[0];
    const Operand &a = in.ops[1];
    bool aRegs = a.kind == Operand::Kind::Vec;
    unsigned nregs = d.kind == Operand::Kind::Vec ? d.elems.size() : 0;
    std::vector<std::vector<uint32_t>> accum(32,
                                             std::vector<uint32_t>(nregs, 0));
    std::vector<std::array<uint32_t, 4>> aFrag(32, {0, 0, 0, 0});
    for (unsigned l = 0; l < lanes; ++l) {
      for (unsigned i = 0; i < nregs; ++i)
        accum[l][i] = uint32_t(value(lane(l), d.elems[i]));
      if (aRegs)
        for (unsigned i = 0; i < 4 && i < a.elems.size(); ++i)
          aFrag[l][i] = uint32_t(value(lane(l), a.elems[i]));
    }
    Thread &first = lane(llvm::countr_zero(members));
    uint64_t descA = aRegs ? 0 : value(first, a);
    uint64_t descB = value(first, in.ops[2]);
    bool scaleD = value(first, in.ops[3]) & 1;
    auto imm = [&](unsigned i, int64_t dflt) {
      return i < in.numOps ? int64_t(value(first, in.ops[i])) : dflt;
    };
    int scaleA = imm(4, 1) < 0 ? -1 : 1, scaleB = imm(5, 1) < 0 ? -1 : 1;
    bool transA = imm(6, 0) & 1, transB = imm(7, 0) & 1;
    std::string why =
        wgmmaExecute(wi, w % 4, shared[c], descA, aRegs ? &aFrag : nullptr,
                     descB, scaleD, scaleA, scaleB, transA, transB, accum);
    if (!why.empty()) {
      fail(why);
      return true;
    }
    for (unsigned l = 0; l < lanes; ++l)
      if (members >> l & 1)
        for (unsigned i = 0; i < nregs; ++i)
          setReg(lane(l), d.elems[i], accum[l][i]);
    return true;
  }
  if (in.op == Op::Tcgen05 && (in.parts[1] == "ld" || in.parts[1] == "st")) {
    bool isLd = in.parts[1] == "ld";
    TmemLdStShape shape;
    unsigned num = 1;
    bool pack = false;
    bool haveShape = false;
    for (const std::string &p : in.parts) {
      StringRef s = p;
      if (parseTmemLdStShape(s, shape))
        haveShape = true;
      else if (s.size() > 1 && s[0] == 'x' && isDigit(s[1]))
        s.drop_front().getAsInteger(10, num);
      else if (s == "pack::16b" || s == "unpack::16b")
        pack = true;
    }
    if (!haveShape) {
      finding("unsupported", in.opcode + " at " + where(in));
      return true;
    }
    const Operand &regsOp = isLd ? in.ops[0] : in.ops[1];
    const Operand &addrOp = isLd ? in.ops[1] : in.ops[0];
    Thread &first = lane(llvm::countr_zero(members));
    uint32_t taddr = uint32_t(address(first, addrOp));
    unsigned split =
        shape == TmemLdStShape::S16x32bx2 && in.numOps > 2
            ? unsigned(value(first, in.ops[isLd ? 2 : 1 + (isLd ? 0 : 1)]))
            : 0;
    if (shape == TmemLdStShape::S16x32bx2 && in.numOps > 2)
      split = unsigned(value(first, isLd ? in.ops[2] : in.ops[1]));
    std::vector<const Operand *> regOps;
    if (regsOp.kind == Operand::Kind::Vec)
      for (const Operand &e : regsOp.elems)
        regOps.push_back(&e);
    else
      regOps.push_back(&regsOp);
    unsigned warpId = (w % 4);
    Tmem &tm = tmemOf(c);
    std::vector<std::vector<uint32_t>> regs;
    if (isLd) {
      std::string why =
          tmemLoad(tm, shape, num, pack, warpId, taddr, split, regs);
      if (!why.empty()) {
        fail(why);
        return true;
      }
      for (unsigned l = 0; l < lanes; ++l)
        if (members >> l & 1)
          for (size_t i = 0; i < regOps.size() && i < regs[l].size(); ++i)
            setReg(lane(l), *regOps[i], regs[l][i]);
    } else {
      regs.assign(32, std::vector<uint32_t>(regOps.size(), 0));
      for (unsigned l = 0; l < lanes; ++l)
        for (size_t i = 0; i < regOps.size(); ++i)
          regs[l][i] = uint32_t(value(lane(l), *regOps[i]));
      std::string why =
          tmemStore(tm, shape, num, pack, warpId, taddr, split, regs);
      if (!why.empty())
        fail(why);
    }
    return true;
  }
  if (in.op == Op::Ldmatrix || in.op == Op::Stmatrix) {
    bool isLd = in.op == Op::Ldmatrix;
    unsigned num = in.has("x4") ? 4 : in.has("x2") ? 2 : 1;
    bool trans = in.has("trans");
    const Operand &regsOp = isLd ? in.ops[0] : in.ops[1];
    const Operand &addrOp = isLd ? in.ops[1] : in.ops[0];
    std::vector<uint32_t> rows(32, 0);
    for (unsigned l = 0; l < lanes; ++l)
      rows[l] = sharedOffset(address(lane(l), addrOp));
    std::vector<std::array<uint32_t, 4>> regs(32, {0, 0, 0, 0});
    auto regAt = [&](unsigned j) -> const Operand & {
      return regsOp.kind == Operand::Kind::Vec ? regsOp.elems[j] : regsOp;
    };
    if (isLd) {
      std::string why =
          ldmatrix(num, trans, rows,
                   ArrayRef<uint8_t>(shared[c]).take_front(
                       std::min<uint64_t>(smemLimit(), shared[c].size())),
                   regs);
      if (!why.empty()) {
        fail(why);
        return true;
      }
      for (unsigned l = 0; l < lanes; ++l)
        if (members >> l & 1)
          for (unsigned j = 0; j < num; ++j)
            setReg(lane(l), regAt(j), regs[l][j]);
    } else {
      for (unsigned l = 0; l < lanes; ++l)
        for (unsigned j = 0; j < num; ++j)
          regs[l][j] = uint32_t(value(lane(l), regAt(j)));
      std::string why =
          stmatrix(num, trans, rows,
                   MutableArrayRef<uint8_t>(shared[c]).take_front(
                       std::min<uint64_t>(smemLimit(), shared[c].size())),
                   regs);
      if (!why.empty())
        fail(why);
    }
    return true;
  }
  if (in.op == Op::Movmatrix) {
    std::vector<uint32_t> src(32, 0), dst(32, 0);
    for (unsigned l = 0; l < lanes; ++l)
      src[l] = uint32_t(value(lane(l), in.ops[1]));
    movmatrixTrans(src, dst);
    for (unsigned l = 0; l < lanes; ++l)
      if (members >> l & 1)
        setReg(lane(l), in.ops[0], dst[l]);
    return true;
  }
  return false;
}

void Machine::tcgen05Issue(Thread &t, const Instr &in) {
  StringRef kind = in.parts[1];
  auto fail = [&](const std::string &why) {
    finding("memory", in.opcode + " of thread " + std::to_string(t.tid) +
                          " of " + describeCta(t.cta) + " at " + where(in) +
                          ": " + why);
  };
  bool pair = in.has("cta_group::2");
  unsigned peer = pair && clusterSize() > 1
                      ? ctaOfRank(t.cta, clusterRank(t.cta) ^ 1)
                      : t.cta;
  if (kind == "mma") {
    std::string err;
    Tcgen05MmaInstr mi = decodeTcgen05Mma(in.parts, &err);
    if (!err.empty()) {
      finding("unsupported", in.opcode + " at " + where(in) + ": " + err);
      return;
    }
    // [d], a-desc | [a], b-desc, idesc, [disable-output-lane,]
    // enable-input-d[, scale-input-d]
    uint32_t dAddr = uint32_t(address(t, in.ops[0]));
    bool aTmem = in.ops[1].kind == Operand::Kind::Mem;
    uint64_t a = aTmem ? uint32_t(address(t, in.ops[1])) : value(t, in.ops[1]);
    uint64_t b = value(t, in.ops[2]);
    uint32_t idesc = uint32_t(value(t, in.ops[3]));
    unsigned next = 4;
    if (in.ops[next].kind == Operand::Kind::Vec)
      ++next; // disable-output-lane
    bool enableD = value(t, in.ops[next]) & 1;
    unsigned scaleD =
        next + 1 < in.numOps ? unsigned(value(t, in.ops[next + 1])) : 0;
    ArrayRef<uint8_t> smem[2] = {shared[t.cta], shared[peer]};
    Tmem *tm[2] = {&tmemOf(t.cta), pair ? &tmemOf(peer) : nullptr};
    if (!pair)
      tm[1] = tm[0];
    std::string why = tcgen05MmaExecute(mi, idesc, smem, tm, dAddr, aTmem, a, b,
                                        enableD, scaleD);
    if (!why.empty())
      fail(why);
    return;
  }
  if (kind == "cp") {
    // tcgen05.cp.cta_group::N.SHAPE[.multicast] [taddr], s-desc
    TmemCpShape shape;
    bool ok = false;
    for (size_t i = 2; i < in.parts.size() && !ok; ++i)
      ok = parseTmemCpShape(in.parts[i],
                            i + 1 < in.parts.size() ? StringRef(in.parts[i + 1])
                                                    : StringRef(),
                            shape);
    if (!ok) {
      finding("unsupported", in.opcode + " at " + where(in));
      return;
    }
    uint32_t taddr = uint32_t(address(t, in.ops[0]));
    uint64_t sdesc = value(t, in.ops[1]);
    std::string why =
        tmemCopy(tmemOf(t.cta), shape, taddr, shared[t.cta], sdesc);
    if (why.empty() && pair && peer != t.cta)
      why = tmemCopy(tmemOf(peer), shape, taddr, shared[peer], sdesc);
    if (!why.empty())
      fail(why);
  }
}
