//===- Ptx.h - the PTX the synchronization simulator reads ------*- C++ -*-===//
//
// A parsed PTX module as pipeline-sim executes it: the kernels (.entry),
// their parameters, registers, shared variables and instructions, with
// branch targets resolved (labels of inline-asm blocks are local to their
// braces) and .loc line information kept per instruction. Only what the
// simulator needs is kept; instructions are parsed generically (opcode
// parts, operands), so an instruction it does not execute is still parsed
// and reported by name when reached.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_SIM_PTX_H
#define PIPELINE_SIM_PTX_H

#include "pipeline/Sim/FloatOps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pmlir::sim {

struct Operand {
  enum class Kind {
    /// A register (by index into the kernel's register file).
    Reg,
    /// An integer or floating-point immediate (bits).
    Imm,
    /// A symbol (shared or global variable, parameter, label), plus offset.
    Sym,
    /// [base + offset]: `base` is a register or a symbol.
    Mem,
    /// {a, b, ...}
    Vec,
    /// A special register such as %tid.x (its name in `sym`).
    Special,
    /// `_`: a result nobody reads.
    Sink,
  };
  Kind kind = Kind::Imm;
  unsigned reg = 0;
  int64_t imm = 0;
  std::string sym;
  int64_t offset = 0;
  /// Mem: whether the base is a register (`reg`) or a symbol (`sym`).
  bool memReg = false;
  std::vector<Operand> elems;
};

/// The first part of an opcode, decoded once by the parser: the engine
/// dispatches on it instead of comparing strings.
enum class Op : uint8_t {
  /// An opcode the simulator does not know (reported when reached).
  Unknown,
  Abs,
  Activemask,
  Add,
  And,
  Atom,
  Bar,
  Barrier,
  Bfe,
  Bfi,
  Bra,
  Brev,
  Brkpt,
  Call,
  Clusterlaunchcontrol,
  Clz,
  Copysign,
  Cos,
  Cp,
  Cvt,
  Cvta,
  Div,
  Elect,
  Ex2,
  Exit,
  Fence,
  Fma,
  Griddepcontrol,
  Ld,
  Ldmatrix,
  Ldu,
  Lg2,
  Mad,
  Mapa,
  Match,
  Max,
  Mbarrier,
  Membar,
  Min,
  Mov,
  Movmatrix,
  Mul,
  Nanosleep,
  Neg,
  Not,
  Or,
  Pmevent,
  Popc,
  Prefetch,
  Prefetchu,
  Prmt,
  Rcp,
  Red,
  Redux,
  Rem,
  Ret,
  Selp,
  Setmaxnreg,
  Setp,
  Shfl,
  Shl,
  Shr,
  Sin,
  Sqrt,
  St,
  Stmatrix,
  Sub,
  Tanh,
  Tcgen05,
  Testp,
  Trap,
  Vote,
  Wgmma,
  Xor,
};

/// The opcode part named `name`, or Op::Unknown.
Op opNamed(llvm::StringRef name);

struct Instr {
  /// The whole opcode (`mbarrier.try_wait.parity.shared.b64`) and its
  /// dot-separated parts.
  std::string opcode;
  llvm::SmallVector<std::string, 6> parts;
  /// Decoded once from `parts` (decodeInstr): the operation, the bit width
  /// of its type suffix (1 for .pred, 64 when none), whether the type is
  /// signed (s8..s64) or floating point, and the state space it names
  /// ("shared", "cluster" for shared::cluster, "global", "param", "local",
  /// "const"; "" = generic).
  Op op = Op::Unknown;
  uint8_t bits = 64;
  bool isSigned = false;
  bool isFloat = false;
  std::string space;
  /// A floating-point instruction (FloatOps.h), decoded; or why its
  /// modifiers are not executed (reported when reached).
  std::optional<FloatInstr> fp;
  std::string fpError;
  /// The guard predicate's register, or -1; negated with `@!`.
  int guard = -1;
  bool guardNegated = false;
  /// The operands, padded with immediate zeros to kMinOperands so that a
  /// malformed instruction reads zeros instead of past the end; numOps is
  /// how many the text had.
  std::vector<Operand> ops;
  unsigned numOps = 0;
  static constexpr unsigned kMinOperands = 8;
  /// Branch target (instruction index) of bra.
  int target = -1;
  /// Line in the PTX text, and the source location of the last .loc.
  unsigned ptxLine = 0;
  std::string loc;

  bool is(llvm::StringRef first) const {
    return !parts.empty() && parts[0] == first;
  }
  bool has(llvm::StringRef part) const;
};

struct SharedVar {
  uint64_t offset = 0;
  uint64_t size = 0;
  /// `.extern .shared ... name[]`: the dynamic shared memory.
  bool dynamic = false;
};

struct Param {
  std::string name;
  /// Bytes (1, 2, 4, 8, or more for .b8 arrays such as a CUtensorMap).
  unsigned size = 8;
};

struct Kernel {
  std::string name;
  std::vector<Param> params;
  std::vector<Instr> code;
  std::vector<std::string> regNames;
  /// Shared variables (module-level and the kernel's own), by name.
  std::map<std::string, SharedVar> shared;
  /// Bytes of static shared memory (the dynamic part starts here).
  uint64_t staticShared = 0;
  /// The block and cluster the kernel requires (`.reqntid`,
  /// `.reqnctapercluster`); all 0 where it declares none.
  unsigned requiredBlock[3] = {0, 0, 0};
  unsigned requiredCluster[3] = {0, 0, 0};
};

struct GlobalVar {
  uint64_t size = 0;
  std::vector<uint8_t> init;
};

struct PtxModule {
  std::string target;
  std::vector<Kernel> kernels;
  std::map<std::string, GlobalVar> globals;
  /// Scalar `.const` variables with their values (the launch contract's
  /// `__pipeline_mlir_min_block_<kernel>` and `__pipeline_mlir_min_smem_`).
  std::map<std::string, uint64_t> constants;
  /// .file directives: index -> path.
  std::map<unsigned, std::string> files;

  const Kernel *lookup(llvm::StringRef name) const;
};

/// Fills the decoded fields of `in` from its opcode parts.
void decodeInstr(Instr &in);

/// Parses `text`; errors name the PTX line.
llvm::Expected<PtxModule> parsePtx(llvm::StringRef text);

} // namespace pmlir::sim

#endif // PIPELINE_SIM_PTX_H
