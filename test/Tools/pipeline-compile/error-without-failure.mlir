// An upstream conversion that reports an error but does not fail (a host
// function with a workgroup memref: no memory space mapping on the host)
// still fails the compile, and nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not pipeline-compile %s --chip=sm_90a -o %t/out 2>&1 | FileCheck %s
// RUN: not ls %t/out.ptx

// CHECK: error: conversion of memref memory space #gpu.address_space<workgroup> to integer address space failed
func.func @host(%a: memref<4xf16, #gpu.address_space<workgroup>>) {
  return
}
gpu.module @kernels {
  gpu.func @k() kernel {
    gpu.return
  }
}
