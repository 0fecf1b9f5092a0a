//===- InputLimits.cpp - limits checked before MLIR parses text -----------===//

#include "pipeline/Dialect/Pipeline/IR/InputLimits.h"

#include "llvm/ADT/Twine.h"

using namespace pmlir;

std::optional<TextNestingError>
pmlir::findExcessTextNesting(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, line = 1, column = 0;
  for (size_t i = 0, e = text.size(); i < e; ++i) {
    char c = text[i];
    ++column;
    switch (c) {
    case '\n':
      ++line;
      column = 0;
      break;
    case '"':
      // A string literal: skip to its closing quote (escapes included).
      for (++i; i < e && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        if (i < e && text[i] == '\n') {
          ++line;
          column = 0;
        }
      }
      break;
    case '/':
      if (i + 1 < e && text[i + 1] == '/')
        while (i + 1 < e && text[i + 1] != '\n')
          ++i;
      break;
    case '{':
    case '(':
    case '[':
      if (++depth > limit)
        return TextNestingError{
            line, column,
            ("the input nests brackets more than " + llvm::Twine(limit) +
             " deep (regions, attributes or types): refused before parsing, "
             "whose recursion would overflow the stack")
                .str()};
      break;
    case '}':
    case ')':
    case ']':
      if (depth)
        --depth;
      break;
    default:
      break;
    }
  }
  return std::nullopt;
}
