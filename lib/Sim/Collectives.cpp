//===- Collectives.cpp - warp collectives -----------------------*- C++ -*-===//

#include "Machine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;
using namespace pmlir::sim;
using namespace pmlir::sim::detail;

bool Machine::resolveCollectives(bool final) {
  bool progress = false;
  unsigned perCta = threadsPerCta();
  unsigned warps = (perCta + 31) / 32;
  for (unsigned c = 0; c < ctaCount(); ++c)
    for (unsigned w = 0; w < warps; ++w) {
      size_t base = size_t(c) * perCta + w * 32;
      unsigned lanes = std::min(32u, perCta - w * 32);
      // Group the waiting lanes by pc. Lanes of the warp that run, or
      // wait for a barrier another thread or a completion may still
      // complete, can come: diverged lanes reconverge at the collective
      // (the hardware runs a kernel whose elected lane waits and arrives
      // in a branch before a .sync.aligned instruction of the whole warp).
      std::map<size_t, uint32_t> atPc;
      bool anyAlive = false;
      for (unsigned l = 0; l < lanes; ++l) {
        Thread &t = threads[base + l];
        if (t.status == Status::AtCollective)
          atPc[t.pc] |= 1u << l;
        else if (t.status == Status::Runnable || t.status == Status::Blocked)
          anyAlive = true;
      }
      // Divergence findings wait until every group of the warp had its
      // turn: a lane held by a later group (the elected lane at its own
      // collective in a branch) may be released by it and still come.
      std::vector<std::string> divergent;
      for (auto &[pc, atThisPc] : atPc) {
        // Lanes at the same instruction that name different member masks
        // (lanes of different iterations, or groups of an earlier
        // activemask) are separate collectives: each group by its mask.
        const uint32_t here = atThisPc;
        uint32_t remaining = atThisPc;
        while (remaining) {
          const Instr &in = kernel.code[pc];
          Op op = in.op;
          uint32_t needed;
          bool isActivemask = op == Op::Activemask;
          Thread &first = threads[base + llvm::countr_zero(remaining)];
          // The member mask: the first operand after the results; every
          // lane of the warp for the .sync.aligned instructions (wgmma,
          // tcgen05, ldmatrix, stmatrix, movmatrix).
          unsigned maskIndex = op == Op::Wgmma || op == Op::Tcgen05 ||
                                       op == Op::Ldmatrix ||
                                       op == Op::Stmatrix || op == Op::Movmatrix
                                   ? in.numOps
                               : op == Op::Elect ? 1
                               : op == Op::Shfl  ? in.numOps - 1
                               : op == Op::Bar   ? 0
                                                 : in.numOps - 1;
          if (isActivemask) {
            // The lanes that are here together at the end of the round (as
            // with independent thread scheduling, lanes elsewhere form their
            // own group when they come).
            needed = here;
          } else {
            needed = maskIndex < in.numOps
                         ? uint32_t(value(first, in.ops[maskIndex]))
                         : 0xffffffffu;
            needed &= lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
          }
          if (isActivemask) {
            remaining = 0;
          } else {
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(remaining >> l & 1))
                continue;
              uint32_t theirs =
                  maskIndex < in.numOps
                      ? uint32_t(value(threads[base + l], in.ops[maskIndex]))
                      : 0xffffffffu;
              theirs &= lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
              if (theirs == needed)
                remaining &= ~(1u << l);
            }
          }
          if ((needed & here) != needed) {
            // Reported once the missing lanes can never come: every live
            // lane of the warp waits at a collective none of which can
            // complete (nothing of the warp can move again), or, at the
            // end (`final`: every live thread of the launch is blocked),
            // wherever they are (exited, or waiting for a barrier nothing
            // completes). A lane that runs elsewhere or waits for a
            // barrier may still come: no finding yet.
            if (final || !anyAlive) {
              // Where the missing lanes are instead.
              std::string elsewhere;
              for (unsigned l = 0; l < lanes; ++l) {
                if (!(needed >> l & 1) || (here >> l & 1))
                  continue;
                const Thread &o = threads[base + l];
                elsewhere += formatv("; lane {0} {1}", l,
                                     o.status == Status::Exited ? "exited"
                                     : o.pc < kernel.code.size()
                                         ? "is at " + where(kernel.code[o.pc])
                                         : std::string("ended"))
                                 .str();
              }
              divergent.push_back(
                  formatv("'{0}' at {1} in warp {2} of {3} waits for "
                          "lanes (mask {4:x}) of which only {5:x} reach "
                          "it{6}",
                          in.opcode, where(in), w, describeCta(c), needed, here,
                          elsewhere)
                      .str());
            }
            continue;
          }
          if (final)
            continue;
          // tcgen05.alloc / dealloc with .cta_group::2 wait for the peer
          // CTA's warp, an alloc for free columns.
          if (op == Op::Tcgen05 && !tcgen05Manage(c, w, needed, in))
            continue;
          // Execute for the lanes of `needed`.
          uint32_t members = needed;
          if (op == Op::Elect) {
            unsigned leader = llvm::countr_zero(members);
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                // r|p: the leader's lane and whether this lane is it; a
                // lone result is the predicate.
                bool elected = l == leader;
                if (in.ops[0].kind == Operand::Kind::Vec)
                  setResult(threads[base + l], in.ops[0], leader, elected);
                else
                  setReg(threads[base + l], in.ops[0], elected);
              }
          } else if (op == Op::Activemask) {
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                setReg(threads[base + l], in.ops[0], members);
          } else if (op == Op::Shfl) {
            // shfl.sync.mode.b32 d[|p], a, b, c, membermask
            StringRef mode = in.parts[2];
            uint64_t vals[32] = {};
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                vals[l] = value(threads[base + l], in.ops[1]);
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(members >> l & 1))
                continue;
              Thread &t = threads[base + l];
              unsigned b = unsigned(value(t, in.ops[2])) & 31;
              unsigned cval = unsigned(value(t, in.ops[3]));
              unsigned maxLane = cval & 31, segMask = (cval >> 8) & 31;
              unsigned minLane = l & segMask;
              unsigned maxL = minLane | (maxLane & ~segMask);
              int j = l;
              bool pval = true;
              if (mode == "idx")
                j = int(minLane | (b & ~segMask));
              else if (mode == "up") {
                j = int(l) - int(b);
                pval = j >= int(maxL);
              } else if (mode == "down") {
                j = int(l) + int(b);
                pval = j <= int(maxL);
              } else if (mode == "bfly") {
                j = int(l ^ b);
                pval = j <= int(maxL);
              }
              if (mode == "idx")
                pval = unsigned(j) <= maxL;
              if (!pval)
                j = int(l);
              setResult(t, in.ops[0], vals[unsigned(j) & 31], pval);
            }
          } else if (op == Op::Vote) {
            uint32_t ballot = 0;
            bool all = true, any = false;
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                Thread &t = threads[base + l];
                bool p = value(t, in.ops[1]) & 1;
                ballot |= uint32_t(p) << l;
                all &= p;
                any |= p;
              }
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                Thread &t = threads[base + l];
                uint64_t r = in.has("ballot") ? ballot
                             : in.has("all")  ? all
                             : in.has("any")
                                 ? any
                                 : (ballot == 0 || ballot == members);
                setReg(t, in.ops[0], r);
              }
          } else if (op == Op::Redux) {
            // redux.sync.OP.TYPE d, a, membermask: the reduction over the
            // members, to every member. .u32/.s32 add (wrapping), min,
            // max; .b32 and, or, xor.
            StringRef kind = in.parts[2];
            bool sgn = in.isSigned;
            uint64_t acc = 0;
            bool first = true;
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(members >> l & 1))
                continue;
              uint64_t x = truncBits(value(threads[base + l], in.ops[1]), 32);
              if (first) {
                acc = x;
                first = false;
              } else if (kind == "add") {
                acc = truncBits(acc + x, 32);
              } else if (kind == "min" || kind == "max") {
                bool less = sgn ? sext(x, 32) < sext(acc, 32) : x < acc;
                if ((kind == "min") == less)
                  acc = x;
              } else if (kind == "and") {
                acc &= x;
              } else if (kind == "or") {
                acc |= x;
              } else if (kind == "xor") {
                acc ^= x;
              }
            }
            if (kind != "add" && kind != "min" && kind != "max" &&
                kind != "and" && kind != "or" && kind != "xor")
              finding("unsupported", "'" + in.opcode + "' at " + where(in) +
                                         " (its result reads as 0)");
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                setReg(threads[base + l], in.ops[0], acc);
          } else if (op == Op::Match) {
            // match.any.sync.bN d, a, membermask: the members whose a equals
            // this lane's; match.all.sync.bN d[|p], a, membermask: the
            // members if all are equal, else 0 (p: whether they are).
            bool all = in.has("all");
            uint64_t width = in.has("b32") ? 0xffffffffull : ~0ull;
            uint32_t equalAll = members;
            uint64_t firstValue = 0;
            bool haveFirst = false;
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1) {
                uint64_t v = value(threads[base + l], in.ops[1]) & width;
                if (haveFirst && v != firstValue)
                  equalAll = 0;
                firstValue = haveFirst ? firstValue : v;
                haveFirst = true;
              }
            for (unsigned l = 0; l < lanes; ++l) {
              if (!(members >> l & 1))
                continue;
              Thread &t = threads[base + l];
              uint64_t mine = value(t, in.ops[1]) & width;
              uint32_t same = 0;
              for (unsigned k = 0; k < lanes; ++k)
                if ((members >> k & 1) &&
                    (value(threads[base + k], in.ops[1]) & width) == mine)
                  same |= 1u << k;
              if (!all)
                setReg(t, in.ops[0], same);
              else if (in.ops[0].kind == Operand::Kind::Vec)
                setResult(t, in.ops[0], equalAll, equalAll != 0);
              else
                setReg(t, in.ops[0], equalAll);
            }
          } else if (tensorCollective(c, w, members, in)) {
            // wgmma.mma_async, tcgen05.ld/st, ldmatrix, stmatrix,
            // movmatrix with data; the other wgmma instructions.
            if (op == Op::Tcgen05)
              for (unsigned l = 0; l < lanes; ++l)
                if (members >> l & 1)
                  tcgen05Collective(threads[base + l], in);
          } else if (op == Op::Tcgen05) {
            for (unsigned l = 0; l < lanes; ++l)
              if (members >> l & 1)
                tcgen05Collective(threads[base + l], in);
          } else if (op != Op::Bar) {
            finding("unsupported", "'" + in.opcode + "' at " + where(in));
          }
          for (unsigned l = 0; l < lanes; ++l)
            if (members >> l & 1) {
              Thread &t = threads[base + l];
              t.status = Status::Runnable;
              ++t.pc;
            }
          progress = true;
          // The lanes just released run again: a group that waits for
          // them is not stuck.
          anyAlive = true;
        }
      }
      if (final || !anyAlive)
        for (const std::string &message : divergent)
          finding("divergent-collective", message);
    }
  return progress;
}
