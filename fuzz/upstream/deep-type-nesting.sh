#!/usr/bin/env bash
# Writes a type alias of DEPTH (default 20000) nested parentheses to stdout:
# MLIR's recursive-descent type parser overflows the stack on it.
depth="${1:-20000}"
printf '!t = '
for ((i = 0; i < depth; i++)); do printf '('; done
printf 'i32'
for ((i = 0; i < depth; i++)); do printf ')'; done
echo
echo 'func.func private @f(!t)'
