#!/usr/bin/env bash
# Checks (or with --fix, applies) .clang-format on the project's C++ sources.
# Uses Debian's clang-format (scripts/setup.sh installs it); CLANG_FORMAT
# overrides it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CLANG_FORMAT="${CLANG_FORMAT:-clang-format}"
if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "check-format: error: $CLANG_FORMAT not found (run scripts/setup.sh)" >&2
  exit 1
fi
cd "$ROOT"
mapfile -t files < <(git ls-files \
  '*.cpp' '*.h' '*.cu' '*.cuh' | sort -u)
if [ "${1:-}" = "--fix" ]; then
  "$CLANG_FORMAT" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  "$CLANG_FORMAT" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -ne 0 ]; then
  echo "check-format: not formatted ($("$CLANG_FORMAT" --version | head -1)):" >&2
  printf '  %s\n' "${bad[@]}" >&2
  echo "check-format: run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
