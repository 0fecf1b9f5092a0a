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
    if (in.parts[1] == "commit_group") {
      for (unsigned l = 0; l < lanes; ++l)
        if (members >> l & 1) {
          Thread &th = lane(l);
          th.wgmmaCommitted.push_back(th.wgmmaOpen++);
        }
      return true;
    }
    if (in.parts[1] == "wait_group") {
      // wait_group N: every committed group but the N most recent is
      // complete; their registers may be read again.
      uint64_t n =
          in.numOps ? value(lane(llvm::countr_zero(members)), in.ops[0]) : 0;
      for (unsigned l = 0; l < lanes; ++l) {
        if (!(members >> l & 1))
          continue;
        Thread &th = lane(l);
        while (th.wgmmaCommitted.size() > n) {
          uint64_t g = th.wgmmaCommitted.front();
          th.wgmmaCommitted.pop_front();
          for (auto it = th.wgmmaPending.begin(); it != th.wgmmaPending.end();)
            it = it->second == g ? th.wgmmaPending.erase(it) : std::next(it);
        }
      }
      return true;
    }
    if (in.parts[1] != "mma_async")
      return true; // fence: an ordering point
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
    // With A in registers there is no imm-trans-a: imm-trans-b follows
    // imm-scale-b.
    bool transA = aRegs ? false : imm(6, 0) & 1;
    bool transB = (aRegs ? imm(6, 0) : imm(7, 0)) & 1;
    std::string why =
        wgmmaExecute(wi, w % 4, shared[c], descA, aRegs ? &aFrag : nullptr,
                     descB, scaleD, scaleA, scaleB, transA, transB, accum);
    if (!why.empty()) {
      fail(why);
      return true;
    }
    for (unsigned l = 0; l < lanes; ++l)
      if (members >> l & 1) {
        Thread &th = lane(l);
        for (unsigned i = 0; i < nregs; ++i) {
          setReg(th, d.elems[i], accum[l][i]);
          if (d.elems[i].kind == Operand::Kind::Reg)
            th.wgmmaPending[d.elems[i].reg] = th.wgmmaOpen;
        }
        if (aRegs)
          for (const Operand &e : a.elems)
            if (e.kind == Operand::Kind::Reg)
              th.wgmmaPending[e.reg] = th.wgmmaOpen;
      }
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
    {
      // The columns the shape reaches from taddr's column (two per
      // register with .pack::16b / .unpack::16b).
      unsigned regsPerLane = tmemLdStRegisters(shape, num), maxCol = 0;
      for (unsigned l = 0; l < 32; ++l)
        for (unsigned r = 0; r < regsPerLane; ++r) {
          LaneCol lc = tmemLdStElement(shape, num, l, r, split);
          maxCol = std::max(maxCol, pack ? 2 * lc.col + 1 : lc.col);
        }
      checkTmemColumns(first, c, in, tmemColumn(taddr), maxCol + 1);
    }
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
    // .block_scale: idesc, [scale-A-tmem], [scale-B-tmem], enable-input-d.
    Tcgen05BlockScale sf;
    if (mi.blockScale && in.numOps > 6) {
      sf.sfaAddr = uint32_t(address(t, in.ops[4]));
      sf.sfbAddr = uint32_t(address(t, in.ops[5]));
      next = 6;
    }
    if (in.ops[next].kind == Operand::Kind::Vec)
      ++next; // disable-output-lane
    bool enableD = value(t, in.ops[next]) & 1;
    unsigned scaleD =
        next + 1 < in.numOps ? unsigned(value(t, in.ops[next + 1])) : 0;
    {
      // The columns D (one per element, N/2 in the 2x2 layout of
      // cta_group::2 with M = 128) and A from TMEM (K elements packed
      // 32/bits per column) occupy in each CTA.
      Tcgen05InstrDesc d = decodeTcgen05InstrDesc(idesc, mi.kind);
      unsigned dCols = tcgen05DColumns(mi.ctaGroup, d.m, d.n);
      unsigned aCols = 0;
      if (aTmem) {
        unsigned bits = mmaTypeBits(tcgen05OperandType(mi.kind, d.aFormat));
        unsigned k = tcgen05K(mi.kind, d) / (mi.sparse ? 2 : 1);
        aCols = bits ? (k * bits + 31) / 32 : 0;
      }
      for (unsigned cta : pair &&peer != t.cta
                              ? std::vector<unsigned>{t.cta, peer}
                              : std::vector<unsigned>{t.cta}) {
        checkTmemColumns(t, cta, in, tmemColumn(dAddr), dCols);
        if (aCols)
          checkTmemColumns(t, cta, in, tmemColumn(uint32_t(a)), aCols);
      }
    }
    ArrayRef<uint8_t> smem[2] = {shared[t.cta], shared[peer]};
    Tmem *tm[2] = {&tmemOf(t.cta), pair ? &tmemOf(peer) : nullptr};
    if (!pair)
      tm[1] = tm[0];
    std::string why =
        tcgen05MmaExecute(mi, idesc, smem, tm, dAddr, aTmem, a, b, enableD,
                          scaleD, mi.blockScale ? &sf : nullptr);
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
    // 256-bit rows: 8 columns; 128-bit rows: 4.
    unsigned cols =
        shape == TmemCpShape::S128x256b || shape == TmemCpShape::S4x256b ? 8
                                                                         : 4;
    checkTmemColumns(t, t.cta, in, tmemColumn(taddr), cols);
    if (pair && peer != t.cta)
      checkTmemColumns(t, peer, in, tmemColumn(taddr), cols);
    std::string why =
        tmemCopy(tmemOf(t.cta), shape, taddr, shared[t.cta], sdesc);
    if (why.empty() && pair && peer != t.cta)
      why = tmemCopy(tmemOf(peer), shape, taddr, shared[peer], sdesc);
    if (!why.empty())
      fail(why);
  }
}

//===----------------------------------------------------------------------===//
// Tensor-memory allocation
//===----------------------------------------------------------------------===//

/// The 32-column chunks of columns [col, col + ncols) (bits past 512 set
/// in `beyond`).
static uint16_t tmemChunks(unsigned col, unsigned ncols, bool &beyond) {
  beyond = false;
  uint16_t mask = 0;
  if (ncols == 0)
    return 0;
  unsigned end = col + ncols;
  if (end > 512) {
    beyond = true;
    end = 512;
  }
  for (unsigned chunk = col / 32; chunk * 32 < end; ++chunk)
    mask |= uint16_t(1u << chunk);
  return mask;
}

void Machine::checkTmemColumns(const Thread &t, unsigned cta, const Instr &in,
                               unsigned col, unsigned ncols) {
  if (tmem[cta] == TmemState::Freed)
    return; // tmem-after-dealloc (checkTmemLive)
  bool beyond;
  uint16_t chunks = tmemChunks(col, ncols, beyond);
  uint16_t missing = chunks & ~tmemColsOf(cta);
  if (!missing && !beyond)
    return;
  auto range = [](unsigned a, unsigned b) {
    return a == b ? formatv("column {0}", a).str()
                  : formatv("columns {0}-{1}", a, b).str();
  };
  // The columns of the access no allocation holds.
  std::string unallocated;
  unsigned end = col + ncols;
  for (unsigned c0 = col; c0 < end;) {
    unsigned chunkEnd = std::min(end, (c0 / 32 + 1) * 32);
    bool held = c0 < 512 && (tmemColsOf(cta) >> (c0 / 32) & 1);
    unsigned c1 = c0;
    while (chunkEnd < end &&
           !held ==
               !(chunkEnd < 512 && (tmemColsOf(cta) >> (chunkEnd / 32) & 1))) {
      c1 = chunkEnd;
      chunkEnd = std::min(end, (c1 / 32 + 1) * 32);
    }
    if (!held)
      unallocated +=
          (unallocated.empty() ? "" : ", ") + range(c0, chunkEnd - 1);
    c0 = chunkEnd;
  }
  finding("tmem-unallocated",
          formatv("{0} by thread {1} of {2} at {3} accesses {4} of the "
                  "tensor memory of {5}: {6} not allocated{7}",
                  in.opcode, t.tid, describeCta(t.cta), where(in),
                  range(col, col + ncols - 1), describeCta(cta), unallocated,
                  tmem[cta] == TmemState::None
                      ? " (the CTA ran no tcgen05.alloc)"
                      : ""));
}

/// Whether the lanes of warp `w` of `cta` are all at a tcgen05
/// allocation instruction of kind `kind` with .cta_group::2.
static bool warpAtPairOp(ArrayRef<Thread> threads, const Kernel &kernel,
                         size_t base, unsigned lanes, StringRef kind) {
  size_t pc = threads[base].pc;
  for (unsigned l = 0; l < lanes; ++l) {
    const Thread &o = threads[base + l];
    if (o.status != Status::AtCollective || o.pc != pc)
      return false;
  }
  if (pc >= kernel.code.size())
    return false;
  const Instr &in = kernel.code[pc];
  return in.op == Op::Tcgen05 && in.parts[1] == kind && in.has("cta_group::2");
}

bool Machine::tcgen05Manage(unsigned c, unsigned w, uint32_t members,
                            const Instr &in) {
  StringRef kind = in.parts[1];
  if (kind != "alloc" && kind != "dealloc" && kind != "relinquish_alloc_permit")
    return true;
  unsigned perCta = threadsPerCta();
  auto warpBase = [&](unsigned cta, unsigned warp) {
    return size_t(cta) * perCta + warp * 32;
  };
  auto lanesOf = [&](unsigned warp) {
    return std::min(32u, perCta - warp * 32);
  };
  // The warps that execute it together: this one, and with .cta_group::2
  // a warp of the peer CTA at the same operation.
  std::vector<std::pair<unsigned, unsigned>> group = {{c, w}};
  if (in.has("cta_group::2") && clusterSize() > 1) {
    unsigned peer = ctaOfRank(c, clusterRank(c) ^ 1);
    unsigned warps = (perCta + 31) / 32;
    bool found = false;
    for (unsigned w2 = 0; w2 < warps && !found; ++w2)
      if (warpAtPairOp(threads, kernel, warpBase(peer, w2), lanesOf(w2),
                       kind)) {
        group.push_back({peer, w2});
        found = true;
      }
    if (!found)
      return false;
  }
  auto firstLane = [&](unsigned cta, unsigned warp) -> Thread & {
    return threads[warpBase(cta, warp) +
                   (cta == c && warp == w ? llvm::countr_zero(members) : 0)];
  };
  if (kind == "alloc" || kind == "dealloc") {
    Thread &t0 = firstLane(c, w);
    unsigned ncols = unsigned(value(t0, in.ops[1]));
    if (ncols < 32 || ncols > 512 || (ncols & (ncols - 1))) {
      finding("tmem-unallocated",
              formatv("{0} by warp {1} of {2} at {3} names {4} columns: "
                      "a power of 2 from 32 to 512 is required",
                      in.opcode, w, describeCta(c), where(in), ncols));
      ncols = std::clamp(llvm::bit_ceil(std::max(ncols, 32u)), 32u, 512u);
    }
    unsigned n = ncols / 32;
    uint16_t block = uint16_t((1u << n) - 1);
    if (kind == "alloc") {
      // The lowest start (a multiple of the size) free in every CTA of the
      // group; none: the warps wait for a dealloc.
      int start = -1;
      for (unsigned s = 0; s + n <= 16 && start < 0; s += n) {
        bool free = true;
        for (auto [cta, warp] : group)
          free &= !(tmemColsOf(cta) & uint16_t(block << s));
        if (free)
          start = int(s);
      }
      if (start < 0)
        return false;
      for (auto [cta, warp] : group) {
        tmemColsOf(cta) |= uint16_t(block << start);
        tmem[cta] = TmemState::Allocated;
        // Every lane of the warp writes the address (lane 0, the first
        // column) to its [dst].
        for (unsigned l = 0; l < lanesOf(warp); ++l) {
          Thread &t = threads[warpBase(cta, warp) + l];
          store(t, address(t, in.ops[0]), "shared", 4, uint32_t(start * 32));
        }
      }
    } else {
      for (auto [cta, warp] : group) {
        Thread &t = firstLane(cta, warp);
        unsigned col = tmemColumn(uint32_t(value(t, in.ops[0])));
        bool beyond;
        uint16_t chunks = tmemChunks(col, ncols, beyond);
        if ((chunks & ~tmemColsOf(cta)) || beyond || col % 32)
          finding("tmem-unallocated",
                  formatv("{0} by warp {1} of {2} at {3} frees columns "
                          "{4}-{5}, which are not allocated",
                          in.opcode, warp, describeCta(cta), where(in), col,
                          col + ncols - 1));
        tmemColsOf(cta) &= uint16_t(~chunks);
        if (tmem[cta] == TmemState::Allocated && !tmemColsOf(cta))
          tmem[cta] = TmemState::Freed;
      }
    }
  }
  // The peer's warp has executed it too: it goes on.
  for (size_t i = 1; i < group.size(); ++i) {
    auto [cta, warp] = group[i];
    for (unsigned l = 0; l < lanesOf(warp); ++l) {
      Thread &t = threads[warpBase(cta, warp) + l];
      t.status = Status::Runnable;
      ++t.pc;
    }
  }
  return true;
}

std::string Machine::tcgen05Waits(const Thread &t) const {
  if (t.status != Status::AtCollective || t.pc >= kernel.code.size())
    return "";
  const Instr &in = kernel.code[t.pc];
  if (in.op != Op::Tcgen05)
    return "";
  StringRef kind = in.parts[1];
  if (kind != "alloc" && kind != "dealloc" && kind != "relinquish_alloc_permit")
    return "";
  if (in.has("cta_group::2") && clusterSize() > 1)
    return formatv("'{0}' at {1}: waits for a warp of the peer {2} of the "
                   "pair to execute it too (.cta_group::2: one warp of each "
                   "CTA of the pair performs it)",
                   in.opcode, where(in),
                   describeCta(ctaOfRank(t.cta, clusterRank(t.cta) ^ 1)))
        .str();
  if (kind == "alloc")
    return formatv("'{0}' at {1}: waits for free tensor-memory columns "
                   "(allocated: {2:x} in chunks of 32)",
                   in.opcode, where(in),
                   t.cta < tmemCols.size() ? tmemCols[t.cta] : 0)
        .str();
  return "";
}

void Machine::checkWgmmaInFlight(Thread &t, const Instr &in) {
  if (in.op == Op::Wgmma)
    return; // the next MMA may accumulate into the same registers
  auto check = [&](unsigned reg) {
    if (!t.wgmmaPending.count(reg))
      return false;
    // Once per instruction (the first thread that does it).
    if (!wgmmaReported.insert(t.pc).second)
      return true;
    finding("wgmma-in-flight",
            formatv("'{0}' at {1} in thread {2} of {3} uses {4}, a register "
                    "of a wgmma.mma_async that no wgmma.wait_group has "
                    "retired: its value is undefined until then",
                    in.opcode, where(in), t.tid, describeCta(t.cta),
                    kernel.regNames[reg]));
    return true;
  };
  if (in.guard >= 0 && check(unsigned(in.guard)))
    return;
  for (unsigned i = 0; i < in.numOps; ++i) {
    const Operand &o = in.ops[i];
    if (o.kind == Operand::Kind::Reg ||
        (o.kind == Operand::Kind::Mem && o.memReg)) {
      if (check(o.reg))
        return;
    } else if (o.kind == Operand::Kind::Vec) {
      for (const Operand &e : o.elems)
        if (e.kind == Operand::Kind::Reg && check(e.reg))
          return;
    }
  }
}
