//===- InputLimits.h - limits checked before MLIR parses text --*- C++ -*-===//
//
// MLIR's parser recurses once or more per nested region, attribute and
// type: text nested a few thousand levels deep overflows the stack of the
// tool or of the process that embeds the compiler (the Python interpreter
// through the C API). Every entry point that parses text checks it first.
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_DIALECT_PIPELINE_IR_INPUTLIMITS_H
#define PIPELINE_DIALECT_PIPELINE_IR_INPUTLIMITS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace pmlir {

/// The deepest nesting of `{`, `(` and `[` (outside string literals and
/// comments) accepted in MLIR text.
inline constexpr unsigned kMaxTextNesting = 1024;

/// Where text first nests deeper than `limit`: 1-based line and column of
/// the bracket that does, and the message to report there.
struct TextNestingError {
  unsigned line = 0, column = 0;
  std::string message;
};

/// Scans `text` for brackets nested deeper than `limit`. std::nullopt when
/// it does not.
std::optional<TextNestingError>
findExcessTextNesting(llvm::StringRef text, unsigned limit = kMaxTextNesting);

} // namespace pmlir

#endif // PIPELINE_DIALECT_PIPELINE_IR_INPUTLIMITS_H
