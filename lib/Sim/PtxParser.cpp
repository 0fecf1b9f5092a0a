//===- PtxParser.cpp - PTX text to the simulator's kernels -----*- C++ -*-===//

#include "pipeline/Sim/Ptx.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;
using namespace pmlir::sim;

bool Instr::has(StringRef part) const {
  return llvm::is_contained(parts, part);
}

const Kernel *PtxModule::lookup(StringRef name) const {
  for (const Kernel &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

namespace {

/// Removes // and /* */ comments, keeping newlines (for line numbers).
std::string stripComments(StringRef text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n')
        ++i;
      if (i < text.size())
        out.push_back('\n');
      continue;
    }
    if (text[i] == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i += 2;
      while (i + 1 < text.size() && !(text[i] == '*' && text[i + 1] == '/')) {
        if (text[i] == '\n')
          out.push_back('\n');
        ++i;
      }
      ++i;
      continue;
    }
    if (text[i] == '"') { // strings (.file paths) keep their slashes
      out.push_back(text[i++]);
      while (i < text.size() && text[i] != '"')
        out.push_back(text[i++]);
      if (i < text.size())
        out.push_back('"');
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

bool isIdentChar(char c) {
  return isAlnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/// Splits at top-level commas (outside [] and {}).
SmallVector<StringRef> splitOperands(StringRef text) {
  SmallVector<StringRef> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '{')
      ++depth;
    else if (c == ']' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      out.push_back(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  StringRef last = text.substr(start).trim();
  if (!last.empty())
    out.push_back(last);
  return out;
}

class Parser {
public:
  Parser(StringRef text) : src(stripComments(text)), orig(text) {}
  Expected<PtxModule> parse();

private:
  Error error(unsigned line, const Twine &message) {
    return createStringError(formatv("PTX line {0}: {1}", line, message));
  }
  unsigned lineAt(size_t pos) const {
    return 1 + std::count(src.begin(), src.begin() + pos, '\n');
  }
  Error parseEntry(size_t &pos, Kernel &kernel);
  /// `.file N "path"`: the path of file N, for the .loc directives.
  void parseFileDirective(StringRef stmt) {
    SmallVector<StringRef> w;
    SplitString(stmt, w, " \t");
    unsigned index = 0;
    if (w.size() >= 3 && !w[1].getAsInteger(10, index)) {
      StringRef path = stmt.substr(stmt.find('"') + 1);
      module.files[index] =
          path.take_until([](char c) { return c == '"'; }).str();
    }
  }
  Expected<Operand> parseOperand(StringRef text, Kernel &kernel, unsigned line);
  Expected<unsigned> reg(StringRef name, Kernel &kernel, unsigned line);
  Error parseSharedDecl(StringRef decl, std::map<std::string, SharedVar> &vars,
                        uint64_t &next);

  std::string src;
  StringRef orig;
  PtxModule module;
  /// Register name -> index for the kernel being parsed; the names of an
  /// inline-asm block are renamed with the block's number.
  StringMap<unsigned> regs;
  std::vector<std::pair<std::string, std::string>> scopeRenames;
  std::map<std::string, SharedVar> moduleShared;
  uint64_t moduleSharedEnd = 0;
};

/// Reads `.b8 name[N]` / `.align A .b8 name[N]` from a shared declaration.
Error Parser::parseSharedDecl(StringRef decl,
                              std::map<std::string, SharedVar> &vars,
                              uint64_t &next) {
  SmallVector<StringRef> words;
  SplitString(decl, words, " \t\n");
  uint64_t align = 1, elem = 1;
  std::string name;
  uint64_t count = 1;
  bool dynamic = false;
  for (size_t i = 0; i < words.size(); ++i) {
    StringRef w = words[i];
    if (w == ".align" && i + 1 < words.size()) {
      words[++i].getAsInteger(10, align);
      continue;
    }
    if (w.starts_with(".b") || w.starts_with(".u") || w.starts_with(".s") ||
        w.starts_with(".f")) {
      unsigned bits = 8;
      if (!w.drop_front(2).getAsInteger(10, bits))
        elem = bits / 8;
      continue;
    }
    if (w.starts_with("."))
      continue;
    size_t bracket = w.find('[');
    name = w.substr(0, bracket).str();
    if (bracket != StringRef::npos) {
      StringRef n =
          w.substr(bracket + 1).take_until([](char c) { return c == ']'; });
      if (n.empty())
        dynamic = true;
      else
        n.getAsInteger(10, count);
    }
  }
  if (name.empty())
    return createStringError("a shared declaration without a name");
  if (align == 0)
    align = 1;
  SharedVar var;
  var.dynamic = dynamic;
  var.size = dynamic ? 0 : count * elem;
  if (!dynamic) {
    next = alignTo(next, align);
    var.offset = next;
    next += var.size;
  }
  vars[name] = var;
  return Error::success();
}

Expected<unsigned> Parser::reg(StringRef name, Kernel &kernel, unsigned line) {
  std::string key = name.str();
  for (auto it = scopeRenames.rbegin(); it != scopeRenames.rend(); ++it)
    if (it->first == key) {
      key = it->second;
      break;
    }
  auto found = regs.find(key);
  if (found != regs.end())
    return found->second;
  // %r<N> declarations cover %r0 .. %rN-1; accept any register of a
  // declared prefix (and predicates declared inside blocks).
  unsigned index = kernel.regNames.size();
  kernel.regNames.push_back(key);
  regs[key] = index;
  return index;
}

Expected<Operand> Parser::parseOperand(StringRef text, Kernel &kernel,
                                       unsigned line) {
  Operand op;
  text = text.trim();
  if (text == "_") {
    op.kind = Operand::Kind::Sink;
    return op;
  }
  // d|p: a result and its predicate (elect.sync, shfl.sync, setp).
  if (text.contains('|') && !text.starts_with("{") && !text.starts_with("[")) {
    op.kind = Operand::Kind::Vec;
    SmallVector<StringRef> halves;
    text.split(halves, '|');
    for (StringRef h : halves) {
      if (h.trim().empty())
        return error(line, "a malformed operand '" + text + "'");
      Expected<Operand> inner = parseOperand(h, kernel, line);
      if (!inner)
        return inner.takeError();
      op.elems.push_back(*inner);
    }
    return op;
  }
  if (text.starts_with("{")) {
    op.kind = Operand::Kind::Vec;
    for (StringRef e : splitOperands(text.drop_front().drop_back())) {
      Expected<Operand> inner = parseOperand(e, kernel, line);
      if (!inner)
        return inner.takeError();
      op.elems.push_back(*inner);
    }
    if (op.elems.empty())
      return error(line, "an empty vector operand '" + text + "'");
    return op;
  }
  if (text.starts_with("[")) {
    op.kind = Operand::Kind::Mem;
    StringRef inner = text.drop_front().drop_back().trim();
    // [tmap, {coords}]: the descriptor's address, then the coordinates.
    size_t comma = inner.find(',');
    if (comma != StringRef::npos) {
      for (StringRef e : splitOperands(inner.substr(comma + 1))) {
        Expected<Operand> coord = parseOperand(e, kernel, line);
        if (!coord)
          return coord.takeError();
        op.elems.push_back(*coord);
      }
      inner = inner.substr(0, comma).trim();
    }
    int64_t offset = 0;
    size_t plus = inner.find_first_of("+-", 1);
    StringRef base = inner;
    if (plus != StringRef::npos) {
      StringRef off = inner.substr(plus).trim();
      bool neg = off.consume_front("-");
      off.consume_front("+");
      if (off.trim().getAsInteger(0, offset))
        return error(line, "cannot read the address '" + text + "'");
      if (neg)
        offset = -offset;
      base = inner.substr(0, plus).trim();
    }
    op.offset = offset;
    if (base.getAsInteger(0, op.imm) == false) {
      op.memReg = false;
      op.sym.clear();
      return op;
    }
    if (base.starts_with("%") || regs.count(base) ||
        llvm::any_of(scopeRenames,
                     [&](auto &r) { return r.first == base.str(); })) {
      op.memReg = true;
      Expected<unsigned> r = reg(base, kernel, line);
      if (!r)
        return r.takeError();
      op.reg = *r;
    } else {
      op.sym = base.str();
    }
    return op;
  }
  static const char *specials[] = {"%tid.",
                                   "%ntid.",
                                   "%ctaid.",
                                   "%nctaid.",
                                   "%laneid",
                                   "%warpid",
                                   "%cluster_ctarank",
                                   "%cluster_nctarank",
                                   "%clock",
                                   "%globaltimer",
                                   "%lanemask_",
                                   "%cluster_ctaid.",
                                   "%cluster_nctaid.",
                                   "%clusterid.",
                                   "%nclusterid.",
                                   "%smid",
                                   "%dynamic_smem_size",
                                   "%total_smem_size",
                                   "%nwarpid",
                                   "%gridid"};
  for (const char *s : specials)
    if (text.starts_with(s)) {
      op.kind = Operand::Kind::Special;
      op.sym = text.str();
      return op;
    }
  if (text.starts_with("%") || llvm::any_of(scopeRenames, [&](auto &r) {
        return r.first == text.str();
      })) {
    op.kind = Operand::Kind::Reg;
    Expected<unsigned> r = reg(text, kernel, line);
    if (!r)
      return r.takeError();
    op.reg = *r;
    return op;
  }
  // Immediates: decimal, hex, 0fXXXXXXXX / 0dXXXXXXXXXXXXXXXX floats.
  StringRef t = text;
  if (t.size() > 2 && t[0] == '0' &&
      (t[1] == 'f' || t[1] == 'F' || t[1] == 'd' || t[1] == 'D')) {
    uint64_t bits = 0;
    if (!t.drop_front(2).getAsInteger(16, bits)) {
      op.kind = Operand::Kind::Imm;
      op.imm = int64_t(bits);
      return op;
    }
  }
  bool neg = t.consume_front("-");
  uint64_t value = 0;
  StringRef digits = t;
  digits.consume_back("U");
  if (!digits.getAsInteger(0, value)) {
    op.kind = Operand::Kind::Imm;
    op.imm = neg ? -int64_t(value) : int64_t(value);
    return op;
  }
  // A symbol, possibly sym+offset.
  op.kind = Operand::Kind::Sym;
  size_t plus = text.find('+');
  if (plus != StringRef::npos) {
    text.substr(plus + 1).trim().getAsInteger(0, op.offset);
    text = text.substr(0, plus).trim();
  }
  op.sym = text.str();
  return op;
}

Error Parser::parseEntry(size_t &pos, Kernel &kernel) {
  // Parameters: ( ... )
  size_t open = src.find('(', pos), close = src.find(')', pos);
  size_t brace = src.find('{', pos);
  if (open != std::string::npos && open < brace) {
    StringRef params = StringRef(src).slice(open + 1, close);
    for (StringRef p : splitOperands(params)) {
      SmallVector<StringRef> words;
      SplitString(p, words, " \t\n");
      if (words.empty())
        continue;
      Param param;
      StringRef last = words.back();
      size_t bracket = last.find('[');
      param.name = last.substr(0, bracket).str();
      unsigned bits = 64;
      for (StringRef w : words)
        if (w.size() > 2 && (w.starts_with(".u") || w.starts_with(".b") ||
                             w.starts_with(".s") || w.starts_with(".f")))
          w.drop_front(2).getAsInteger(10, bits);
      param.size = bits / 8;
      if (bracket != StringRef::npos) {
        unsigned n = 1;
        last.substr(bracket + 1)
            .take_until([](char c) { return c == ']'; })
            .getAsInteger(10, n);
        param.size *= n;
      }
      kernel.params.push_back(param);
    }
  }
  if (brace == std::string::npos)
    return error(lineAt(pos), "a kernel without a body");
  // The performance directives between the parameters and the body: the
  // block and cluster the kernel requires.
  if (close != std::string::npos && close < brace) {
    StringRef directives = StringRef(src).slice(close + 1, brace);
    auto dims = [&](StringRef name, unsigned(&out)[3]) {
      size_t at = directives.find(name);
      if (at == StringRef::npos)
        return;
      StringRef list = directives.drop_front(at + name.size());
      for (unsigned d = 0; d < 3; ++d) {
        list = list.ltrim();
        if (d > 0 && !list.consume_front(","))
          break;
        list = list.ltrim();
        if (list.consumeInteger(10, out[d]))
          break;
      }
      for (unsigned d = 1; d < 3; ++d)
        if (out[0] && !out[d])
          out[d] = 1;
    };
    dims(".reqntid", kernel.requiredBlock);
    dims(".reqnctapercluster", kernel.requiredCluster);
  }
  pos = brace + 1;
  kernel.shared = moduleShared;
  uint64_t nextShared = moduleSharedEnd;
  regs.clear();
  scopeRenames.clear();
  unsigned blockCounter = 0;
  std::vector<std::vector<std::pair<std::string, std::string>>> scopes;
  // Labels: name -> index, per scope; pending branches resolved at scope
  // end (inline-asm labels) or at the kernel's end.
  std::vector<StringMap<int>> labelScopes(1);
  std::vector<std::vector<std::pair<size_t, std::string>>> pending(1);
  std::string currentLoc;
  int depth = 1;

  auto resolveScope = [&](StringMap<int> &labels,
                          std::vector<std::pair<size_t, std::string>> &todo,
                          bool last) -> Error {
    std::vector<std::pair<size_t, std::string>> left;
    for (auto &[index, name] : todo) {
      auto it = labels.find(name);
      if (it != labels.end())
        kernel.code[index].target = it->second;
      else if (!last)
        left.push_back({index, name});
      else
        return error(kernel.code[index].ptxLine,
                     "branch to an unknown label '" + name + "'");
    }
    todo = std::move(left);
    return Error::success();
  };
  // Leaves a label scope: its unresolved branches go to the enclosing one.
  auto popLabelScope = [&]() -> Error {
    if (Error e = resolveScope(labelScopes.back(), pending.back(), false))
      return e;
    auto left = std::move(pending.back());
    pending.pop_back();
    labelScopes.pop_back();
    for (auto &p : left)
      pending.back().push_back(p);
    return Error::success();
  };

  while (pos < src.size()) {
    while (pos < src.size() && isSpace(src[pos]))
      ++pos;
    if (pos >= src.size())
      break;
    unsigned line = lineAt(pos);
    char c = src[pos];
    if (c == '{') {
      ++pos;
      ++depth;
      ++blockCounter;
      scopes.push_back({});
      labelScopes.push_back({});
      pending.push_back({});
      continue;
    }
    if (c == '}') {
      ++pos;
      --depth;
      if (depth == 0)
        break;
      // Unresolved branches of the block go to the enclosing scope.
      if (Error e = popLabelScope())
        return e;
      for (size_t i = 0; i < scopes.back().size(); ++i)
        scopeRenames.pop_back();
      scopes.pop_back();
      continue;
    }
    // A statement: up to ';' (instruction, directive) or a label.
    size_t start = pos;
    while (pos < src.size() && isIdentChar(src[pos]))
      ++pos;
    StringRef word = StringRef(src).slice(start, pos);
    if (pos < src.size() && src[pos] == ':' &&
        (pos + 1 >= src.size() || src[pos + 1] != ':') && !word.empty() &&
        !word.starts_with(".")) {
      ++pos;
      labelScopes.back()[word] = int(kernel.code.size());
      continue;
    }
    size_t end = src.find(';', start);
    // .loc and .file end at the line's end, without ';'.
    if (word == ".loc" || word == ".file")
      end = src.find('\n', start);
    if (end == std::string::npos)
      return error(line, "a statement without ';'");
    StringRef stmt = StringRef(src).slice(start, end).trim();
    pos = end + 1;
    if (stmt.starts_with(".file")) {
      parseFileDirective(stmt);
      continue;
    }
    if (stmt.starts_with(".loc")) {
      SmallVector<StringRef> w;
      SplitString(stmt, w, " \t");
      unsigned file = 0;
      // The file's name is filled in at the end: .file may come last.
      if (w.size() >= 4 && !w[1].getAsInteger(10, file))
        currentLoc = w[2] == "0" ? std::string()
                                 : ("#" + w[1] + ":" + w[2] + ":" + w[3]).str();
      continue;
    }
    if (stmt.starts_with(".reg")) {
      // Registers of an inline-asm block are renamed to stay local.
      if (depth > 1) {
        SmallVector<StringRef> w;
        SplitString(stmt, w, " \t,");
        for (StringRef name : w) {
          if (name.starts_with("."))
            continue;
          std::string local = (name + "#" + Twine(blockCounter)).str();
          scopeRenames.push_back({name.str(), local});
          scopes.back().push_back({name.str(), local});
        }
      }
      continue;
    }
    if (stmt.starts_with(".shared")) {
      if (Error e =
              parseSharedDecl(stmt.drop_front(7), kernel.shared, nextShared))
        return error(line, toString(std::move(e)));
      continue;
    }
    if (stmt.starts_with(".") || stmt.empty())
      continue; // .pragma, .maxntid, ...
    // An instruction: [@[!]pred] opcode operands
    Instr instr;
    instr.ptxLine = line;
    instr.loc = currentLoc;
    StringRef rest = stmt;
    if (rest.consume_front("@")) {
      bool neg = rest.consume_front("!");
      StringRef pred = rest.take_until([](char c) { return isSpace(c); });
      rest = rest.drop_front(pred.size()).trim();
      Expected<unsigned> r = reg(pred, kernel, line);
      if (!r)
        return r.takeError();
      instr.guard = int(*r);
      instr.guardNegated = neg;
    }
    StringRef opcode = rest.take_until([](char c) { return isSpace(c); });
    rest = rest.drop_front(opcode.size()).trim();
    instr.opcode = opcode.str();
    SmallVector<StringRef> parts;
    opcode.split(parts, '.');
    for (StringRef p : parts)
      instr.parts.push_back(p.str());
    // Opcodes are read by position (setp.eq, shfl.sync.idx): absent parts
    // read as empty.
    while (instr.parts.size() < 4)
      instr.parts.push_back("");
    decodeInstr(instr);
    if (instr.is("bra")) {
      pending.back().push_back({kernel.code.size(), rest.trim().str()});
    } else {
      for (StringRef o : splitOperands(rest)) {
        Expected<Operand> op = parseOperand(o, kernel, line);
        if (!op)
          return op.takeError();
        instr.ops.push_back(std::move(*op));
      }
    }
    instr.numOps = instr.ops.size();
    while (instr.ops.size() < Instr::kMinOperands)
      instr.ops.push_back(Operand());
    // A vector operand read as a value, or a Vec result with no elements.
    kernel.code.push_back(std::move(instr));
  }
  // Branches left: the kernel's labels (scope 0).
  while (labelScopes.size() > 1)
    if (Error e = popLabelScope())
      return e;
  if (Error e = resolveScope(labelScopes.back(), pending.back(), true))
    return e;
  kernel.staticShared = nextShared;
  for (auto &[name, var] : kernel.shared)
    if (var.dynamic)
      var.offset = alignTo(nextShared, 16);
  return Error::success();
}

Expected<PtxModule> Parser::parse() {
  size_t pos = 0;
  while (pos < src.size()) {
    while (pos < src.size() && isSpace(src[pos]))
      ++pos;
    if (pos >= src.size())
      break;
    unsigned line = lineAt(pos);
    // Directives that end at the line's end, without ';'.
    StringRef rest = StringRef(src).substr(pos);
    if (rest.starts_with(".version") || rest.starts_with(".target") ||
        rest.starts_with(".address_size") || rest.starts_with(".file") ||
        rest.starts_with(".loc")) {
      size_t eol = src.find('\n', pos);
      StringRef lineText = StringRef(src).slice(pos, eol).trim();
      if (lineText.starts_with(".target"))
        module.target = lineText.drop_front(7).trim().str();
      if (lineText.starts_with(".file"))
        parseFileDirective(lineText);
      pos = eol == std::string::npos ? src.size() : eol + 1;
      continue;
    }
    size_t end = src.find_first_of(";{", pos);
    if (end == std::string::npos)
      break;
    StringRef head = StringRef(src).slice(pos, end).trim();
    if (src[end] == '{' &&
        (head.contains(".entry") || head.contains(".func"))) {
      if (head.contains(".func")) {
        // Device functions are not executed: skip the body.
        int depth = 0;
        size_t i = end;
        for (; i < src.size(); ++i) {
          if (src[i] == '{')
            ++depth;
          else if (src[i] == '}' && --depth == 0)
            break;
        }
        pos = i + 1;
        continue;
      }
      Kernel kernel;
      SmallVector<StringRef> w;
      SplitString(head.take_until([](char c) { return c == '('; }), w, " \t\n");
      kernel.name = w.empty() ? "" : w.back().str();
      if (Error e = parseEntry(pos, kernel))
        return std::move(e);
      module.kernels.push_back(std::move(kernel));
      continue;
    }
    if (src[end] == '{' && head.starts_with(".section")) {
      size_t close = src.find('}', end);
      pos = close == std::string::npos ? src.size() : close + 1;
      continue;
    }
    if (src[end] == '{') {
      // An initializer: .global .b8 name[N] = {1, 2, ...};
      size_t close = src.find('}', end);
      size_t semi = src.find(';', close);
      if (close == std::string::npos || semi == std::string::npos)
        return error(line, "an unterminated initializer");
      StringRef decl = head;
      if (decl.starts_with(".global") || decl.contains(".global")) {
        SmallVector<StringRef> w;
        SplitString(decl.take_until([](char c) { return c == '='; }), w,
                    " \t\n");
        if (!w.empty()) {
          StringRef last = w.back();
          std::string name =
              last.take_until([](char c) { return c == '['; }).str();
          GlobalVar var;
          for (StringRef v :
               splitOperands(StringRef(src).slice(end + 1, close))) {
            unsigned b = 0;
            v.trim().getAsInteger(0, b);
            var.init.push_back(uint8_t(b));
          }
          var.size = var.init.size();
          module.globals[name] = var;
        }
      }
      pos = semi + 1;
      continue;
    }
    // A directive.
    if (head.starts_with(".target")) {
      module.target = head.drop_front(7).trim().str();
    } else if (head.starts_with(".file")) {
      parseFileDirective(head);
    } else if (head.contains(".shared")) {
      StringRef decl = head.substr(head.find(".shared") + 7);
      if (Error e = parseSharedDecl(decl, moduleShared, moduleSharedEnd))
        return error(line, toString(std::move(e)));
    } else if (head.contains(".const") && head.contains("=")) {
      // A scalar constant: `.visible .const .align 8 .u64 name = N;` (the
      // launch contract the compiler records).
      SmallVector<StringRef> w;
      SplitString(head.take_until([](char c) { return c == '='; }), w, " \t\n");
      uint64_t value = 0;
      if (!w.empty() && !head.drop_until([](char c) { return c == '='; })
                             .drop_front()
                             .trim()
                             .getAsInteger(0, value))
        module.constants[w.back().str()] = value;
    } else if (head.contains(".global")) {
      SmallVector<StringRef> w;
      SplitString(head, w, " \t\n");
      if (!w.empty()) {
        StringRef last = w.back();
        std::string name =
            last.take_until([](char c) { return c == '['; }).str();
        GlobalVar var;
        var.size = 8;
        for (StringRef x : w)
          if (x == ".b32" || x == ".u32" || x == ".s32")
            var.size = 4;
        module.globals[name] = var;
      }
    }
    pos = end + 1;
  }
  // Source locations: #<file>:line:col -> path:line:col.
  for (Kernel &k : module.kernels)
    for (Instr &in : k.code) {
      StringRef loc = in.loc;
      if (!loc.consume_front("#"))
        continue;
      unsigned file = 0;
      StringRef index = loc.take_until([](char c) { return c == ':'; });
      if (index.getAsInteger(10, file))
        continue;
      auto f = module.files.find(file);
      in.loc = (f != module.files.end() ? f->second : "?") +
               loc.drop_front(index.size()).str();
    }
  return std::move(module);
}

} // namespace

Op pmlir::sim::opNamed(StringRef name) {
  return StringSwitch<Op>(name)
      .Case("abs", Op::Abs)
      .Case("activemask", Op::Activemask)
      .Case("add", Op::Add)
      .Case("and", Op::And)
      .Case("atom", Op::Atom)
      .Case("bar", Op::Bar)
      .Case("barrier", Op::Barrier)
      .Case("bfe", Op::Bfe)
      .Case("bfi", Op::Bfi)
      .Case("bra", Op::Bra)
      .Case("brev", Op::Brev)
      .Case("brkpt", Op::Brkpt)
      .Case("call", Op::Call)
      .Case("clusterlaunchcontrol", Op::Clusterlaunchcontrol)
      .Case("clz", Op::Clz)
      .Case("copysign", Op::Copysign)
      .Case("cos", Op::Cos)
      .Case("cp", Op::Cp)
      .Case("cvt", Op::Cvt)
      .Case("cvta", Op::Cvta)
      .Case("div", Op::Div)
      .Case("elect", Op::Elect)
      .Case("ex2", Op::Ex2)
      .Case("exit", Op::Exit)
      .Case("fence", Op::Fence)
      .Case("fma", Op::Fma)
      .Case("griddepcontrol", Op::Griddepcontrol)
      .Case("ld", Op::Ld)
      .Case("ldmatrix", Op::Ldmatrix)
      .Case("ldu", Op::Ldu)
      .Case("lg2", Op::Lg2)
      .Case("mad", Op::Mad)
      .Case("mapa", Op::Mapa)
      .Case("match", Op::Match)
      .Case("max", Op::Max)
      .Case("mbarrier", Op::Mbarrier)
      .Case("membar", Op::Membar)
      .Case("min", Op::Min)
      .Case("mov", Op::Mov)
      .Case("movmatrix", Op::Movmatrix)
      .Case("mul", Op::Mul)
      .Case("nanosleep", Op::Nanosleep)
      .Case("neg", Op::Neg)
      .Case("not", Op::Not)
      .Case("or", Op::Or)
      .Case("pmevent", Op::Pmevent)
      .Case("popc", Op::Popc)
      .Case("prefetch", Op::Prefetch)
      .Case("prefetchu", Op::Prefetchu)
      .Case("prmt", Op::Prmt)
      .Case("rcp", Op::Rcp)
      .Case("red", Op::Red)
      .Case("redux", Op::Redux)
      .Case("rem", Op::Rem)
      .Case("ret", Op::Ret)
      .Case("selp", Op::Selp)
      .Case("setmaxnreg", Op::Setmaxnreg)
      .Case("setp", Op::Setp)
      .Case("shfl", Op::Shfl)
      .Case("shl", Op::Shl)
      .Case("shr", Op::Shr)
      .Case("sin", Op::Sin)
      .Case("sqrt", Op::Sqrt)
      .Case("st", Op::St)
      .Case("stmatrix", Op::Stmatrix)
      .Case("sub", Op::Sub)
      .Case("tanh", Op::Tanh)
      .Case("tcgen05", Op::Tcgen05)
      .Case("testp", Op::Testp)
      .Case("trap", Op::Trap)
      .Case("vote", Op::Vote)
      .Case("wgmma", Op::Wgmma)
      .Case("xor", Op::Xor)
      .Default(Op::Unknown);
}

void pmlir::sim::decodeInstr(Instr &in) {
  in.op = in.parts.empty() ? Op::Unknown : opNamed(in.parts[0]);
  in.bits = 64;
  for (auto it = in.parts.rbegin(); it != in.parts.rend(); ++it) {
    StringRef p = *it;
    if (p == "pred") {
      in.bits = 1;
      break;
    }
    unsigned bits = 0;
    if (p.size() >= 2 &&
        (p[0] == 'b' || p[0] == 'u' || p[0] == 's' || p[0] == 'f') &&
        !p.drop_front().getAsInteger(10, bits) && bits <= 64) {
      in.bits = uint8_t(bits);
      break;
    }
  }
  in.fpError.clear();
  // (parts are padded with empty ones to 4)
  ArrayRef<std::string> named = in.parts;
  while (!named.empty() && named.back().empty())
    named = named.drop_back();
  in.fp = decodeFloat(named, &in.fpError);
  in.isSigned = false;
  in.isFloat = false;
  in.space.clear();
  for (const std::string &part : in.parts) {
    StringRef p = part;
    if (p.size() >= 2 && p[0] == 's' && isDigit(p[1]))
      in.isSigned = true;
    if ((p.size() >= 2 && p[0] == 'f' && isDigit(p[1])) ||
        p.starts_with("bf16") || p.starts_with("e4m3") ||
        p.starts_with("e5m2") || p == "rn" || p == "rz")
      in.isFloat = true;
    if (in.space.empty()) {
      if (p == "shared::cluster")
        in.space = "cluster";
      else if (p == "shared" || p == "shared::cta")
        in.space = "shared";
      else if (p == "global" || p == "param" || p == "local" || p == "const")
        in.space = p.str();
    }
  }
}

Expected<PtxModule> pmlir::sim::parsePtx(StringRef text) {
  return Parser(text).parse();
}
