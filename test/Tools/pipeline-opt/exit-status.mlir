// pipeline-opt exits non-zero when a pass reported an error, also when the
// pass did not fail: upstream convert-to-llvm reports a memref memory space
// it cannot convert and succeeds (mlir-opt exits 0 on this input).
// RUN: not pipeline-opt %s --convert-to-llvm -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: conversion of memref memory space #gpu.address_space<workgroup> to integer address space failed

// The same error, expected, is a passing -verify-diagnostics run.
// RUN: pipeline-opt %s --convert-to-llvm -verify-diagnostics -o /dev/null

// Without an error the exit status is 0.
// RUN: pipeline-opt %s -o /dev/null
// RUN: pipeline-opt %S/Inputs/no-errors.mlir --convert-to-llvm -o /dev/null

// The error has no location.
// expected-error @unknown {{conversion of memref memory space #gpu.address_space<workgroup> to integer address space failed}}
func.func @host(%a: memref<4xf16, #gpu.address_space<workgroup>>) {
  return
}
