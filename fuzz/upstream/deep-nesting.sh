#!/usr/bin/env bash
# Writes a function of DEPTH (default 20000) nested scf.if regions to stdout:
# MLIR's recursive-descent parser overflows the stack on it.
depth="${1:-20000}"
echo 'func.func @f(%c: i1) {'
for ((i = 0; i < depth; i++)); do printf 'scf.if %%c {'; done; echo
for ((i = 0; i < depth; i++)); do printf '}'; done; echo
echo 'return'
echo '}'
