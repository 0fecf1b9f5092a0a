//===- Memory.cpp - operand values, addresses, loads and stores -*- C++ -*-===//

#include "Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

//===----------------------------------------------------------------------===//
// Values and memory
//===----------------------------------------------------------------------===//

uint64_t Machine::special(Thread &t, StringRef name) {
  unsigned c[3];
  ctaCoords(t.cta, c);
  auto dim = [&](StringRef prefix, auto f) -> std::optional<uint64_t> {
    if (!name.starts_with(prefix))
      return std::nullopt;
    char d = name.back();
    unsigned i = d == 'x' ? 0 : d == 'y' ? 1 : 2;
    return f(i);
  };
  if (auto v = dim("%tid.", [&](unsigned i) { return t.xyz[i]; }))
    return *v;
  if (auto v = dim("%ntid.", [&](unsigned i) { return launch.block[i]; }))
    return *v;
  if (auto v = dim("%ctaid.", [&](unsigned i) { return c[i]; }))
    return *v;
  if (auto v = dim("%nctaid.", [&](unsigned i) { return launch.grid[i]; }))
    return *v;
  if (auto v = dim("%cluster_ctaid.",
                   [&](unsigned i) { return c[i] % launch.cluster[i]; }))
    return *v;
  if (auto v = dim("%cluster_nctaid.",
                   [&](unsigned i) { return launch.cluster[i]; }))
    return *v;
  if (auto v = dim("%clusterid.",
                   [&](unsigned i) { return c[i] / launch.cluster[i]; }))
    return *v;
  if (auto v = dim("%nclusterid.", [&](unsigned i) {
        return launch.grid[i] / launch.cluster[i];
      }))
    return *v;
  unsigned lane = t.tid % 32;
  if (name == "%laneid")
    return lane;
  if (name == "%warpid")
    return t.tid / 32;
  if (name == "%nwarpid")
    return (threadsPerCta() + 31) / 32;
  if (name == "%cluster_ctarank")
    return clusterRank(t.cta);
  if (name == "%cluster_nctarank")
    return clusterSize();
  if (name == "%lanemask_lt")
    return (1ull << lane) - 1;
  if (name == "%lanemask_le")
    return (2ull << lane) - 1;
  if (name == "%lanemask_eq")
    return 1ull << lane;
  if (name == "%lanemask_ge")
    return ~((1ull << lane) - 1) & 0xffffffffull;
  if (name == "%lanemask_gt")
    return ~((2ull << lane) - 1) & 0xffffffffull;
  // Time: scheduling rounds (each thread runs up to a quantum per round),
  // so that a thread's clock advances with its own progress, not with the
  // number of threads.
  if (name.starts_with("%clock") || name == "%globaltimer")
    return round * options.quantum;
  if (name == "%smid")
    return t.cta;
  if (name == "%dynamic_smem_size")
    return launch.dynamicShared;
  if (name == "%total_smem_size")
    return kernel.staticShared + launch.dynamicShared;
  return 0;
}

uint64_t Machine::symbolAddress(StringRef sym) {
  auto s = kernel.shared.find(sym.str());
  if (s != kernel.shared.end())
    return s->second.offset;
  auto g = globalSymbols.find(sym.str());
  if (g != globalSymbols.end())
    return g->second;
  auto p = paramOffsets.find(sym.str());
  if (p != paramOffsets.end())
    return kParamBase + p->second;
  return 0;
}

uint64_t Machine::value(Thread &t, const Operand &op) {
  switch (op.kind) {
  case Operand::Kind::Reg:
    return t.regs[op.reg];
  case Operand::Kind::Imm:
    return uint64_t(op.imm);
  case Operand::Kind::Sym:
    return symbolAddress(op.sym) + op.offset;
  case Operand::Kind::Special:
    return special(t, op.sym);
  case Operand::Kind::Mem:
    return address(t, op);
  default:
    return 0;
  }
}

uint64_t Machine::address(Thread &t, const Operand &op) {
  if (op.kind != Operand::Kind::Mem)
    return value(t, op);
  uint64_t base =
      op.memReg ? t.regs[op.reg]
                : (op.sym.empty() ? uint64_t(op.imm) : symbolAddress(op.sym));
  return base + op.offset;
}

Machine::Place Machine::resolve(Thread &t, uint64_t addr, StringRef space) {
  Place p;
  uint64_t tag = addr & kTagMask;
  if (space == "param" || (space.empty() && addr >= kParamBase &&
                           addr < kParamBase + (1ull << 32))) {
    p.global = addr; // handled by load
    return p;
  }
  if (tag == kCluster) {
    p.shared = true;
    unsigned rank = unsigned((addr >> 32) & 0xffff);
    if (rank >= clusterSize()) {
      finding("memory", formatv("a shared::cluster address of cluster rank "
                                "{0}, outside the cluster of {1} CTA(s)",
                                rank, clusterSize()));
      rank = clusterRank(t.cta);
      p.valid = false;
    }
    p.cta = ctaOfRank(t.cta, rank);
    p.offset = addr & 0xffffffffull;
    return p;
  }
  if (tag == kGenericShared || space == "shared" || space == "cta") {
    p.shared = true;
    p.cta = t.cta;
    p.offset = addr & 0xffffffffull;
    return p;
  }
  if (space == "cluster") {
    p.shared = true;
    p.cta = t.cta;
    p.offset = addr & 0xffffffffull;
    return p;
  }
  p.global = addr;
  return p;
}

uint64_t Machine::load(Thread &t, uint64_t addr, StringRef space,
                       unsigned bytes) {
  // Registers hold 64 bits: a wider access (b128) reads its low 8 bytes.
  bytes = std::min(bytes, 8u);
  if (space == "param" ||
      (addr >= kParamBase && addr < kParamBase + params.size())) {
    uint64_t off = addr - kParamBase, v = 0;
    for (unsigned b = 0; b < bytes && off + b < params.size(); ++b)
      v |= uint64_t(params[off + b]) << (8 * b);
    return v;
  }
  Place p = resolve(t, addr, space);
  uint64_t v = 0;
  if (p.shared) {
    if (checkShared(t, p.offset, bytes))
      return 0;
    std::vector<uint8_t> &mem = shared[p.cta];
    for (unsigned b = 0; b < bytes && p.offset + b < mem.size(); ++b)
      v |= uint64_t(mem[p.offset + b]) << (8 * b);
    return v;
  }
  uint8_t buf[8] = {};
  if (!readGlobal(p.global, buf, bytes)) {
    reportGlobal(t, p.global, bytes);
    return 0;
  }
  for (unsigned b = 0; b < bytes; ++b)
    v |= uint64_t(buf[b]) << (8 * b);
  return v;
}

void Machine::store(Thread &t, uint64_t addr, StringRef space, unsigned bytes,
                    uint64_t v) {
  if (bytes > 8) { // b128: the high half is opaque (zero)
    store(t, addr + 8, space, bytes - 8, 0);
    bytes = 8;
  }
  Place p = resolve(t, addr, space);
  if (p.shared) {
    if (checkShared(t, p.offset, bytes))
      return;
    std::vector<uint8_t> &mem = shared[p.cta];
    for (unsigned b = 0; b < bytes && p.offset + b < mem.size(); ++b)
      mem[p.offset + b] = uint8_t(v >> (8 * b));
    return;
  }
  uint8_t buf[8];
  for (unsigned b = 0; b < bytes; ++b)
    buf[b] = uint8_t(v >> (8 * b));
  if (!writeGlobal(p.global, buf, bytes))
    reportGlobal(t, p.global, bytes);
}

bool Machine::checkShared(Thread &t, uint64_t offset, unsigned bytes) {
  if (offset + bytes <= smemLimit())
    return false;
  const Instr &in = kernel.code[std::min(t.pc, kernel.code.size() - 1)];
  finding("memory",
          formatv("thread {0} of {1} accesses {2} bytes at shared offset {3} "
                  "at {4}, past the {5} bytes of shared memory of the launch "
                  "({6} static + {7} dynamic)",
                  t.tid, describeCta(t.cta), bytes, offset, where(in),
                  smemLimit(), kernel.staticShared, launch.dynamicShared));
  return true;
}

void Machine::reportGlobal(Thread &t, uint64_t addr, unsigned bytes) {
  const Instr &in = kernel.code[std::min(t.pc, kernel.code.size() - 1)];
  finding("memory",
          formatv("thread {0} of {1} accesses {2} bytes of global memory at "
                  "{3:x} at {4}, outside every buffer",
                  t.tid, describeCta(t.cta), bytes, addr, where(in)));
}

uint8_t *Machine::globalBytes(uint64_t addr, size_t n) {
  auto it = global.upper_bound(addr);
  if (it == global.begin())
    return nullptr;
  --it;
  uint64_t off = addr - it->first;
  if (off + n > it->second.size())
    return nullptr;
  return it->second.data() + off;
}

bool Machine::readGlobal(uint64_t addr, uint8_t *out, size_t n) {
  globalReads = true;
  const uint8_t *bytes = globalBytes(addr, n);
  if (bytes)
    std::copy_n(bytes, n, out);
  return bytes != nullptr;
}

bool Machine::writeGlobal(uint64_t addr, const uint8_t *in, size_t n) {
  globalWrites = true;
  uint8_t *bytes = globalBytes(addr, n);
  if (bytes)
    std::copy_n(in, n, bytes);
  return bytes != nullptr;
}
