#!/usr/bin/env python3
"""Writes handoff_dialect.mlir: the dialect side of the handoff benchmark.

One kernel per (stages S, signalling): @ring_s<S>_lane0 (full and empty
count 1: lane 0 of each warp signals) and @ring_s<S>_all (counts 32: every
lane signals). Block of 64 threads: warp 0 produces with `pipeline.produce`,
warp 1 consumes with `pipeline.consume_explicit`, through an S-stage ring of
one i32 per stage (a workgroup attribution). Item i of block b is
mix32(b * n + i), mix32(x) = (x * G) ^ ((x * G) >> 16), G = 0x9E3779B1.
Lane 0 of the producer computes and stores it; lane 0 of the consumer
(every lane in the _all kernels) loads it; lane 0 writes it to out[b*n + i].
Kernel ABI (bare pointers): out: i32[2^28], n: i32.

Usage: gen_dialect.py [--ahead] > handoff_dialect.mlir

With --ahead (not the benchmark's default file): the same kernels with the
handle API and a look-ahead wait, both roles: `try_acquire_*` of the next
item right after the release of the current one (before the consumer's
global store), its result carried to the next iteration's
`acquire_* ready(%r)`, which waits only when that try failed.
Stages 2, 3, 4, 8; S = 1 keeps the default form (with one stage the next
item needs this role's own signal first). The benchmark's file is the
default form; build.sh compiles the --ahead form beside it.
"""

import sys

STAGES = (1, 2, 3, 4, 8)


def signalling(all_lanes):
    return "every lane signals (counts 32)" if all_lanes else "lane 0 signals (counts 1)"


def _prologue(w, name, s, all_lanes, note, constants=()):
    """The kernel's signature, constants, ids and pipeline up to the
    producer's branch (`constants`: more, after %c32), shared by both
    forms."""
    count = 32 if all_lanes else 1
    P = f"!P{s}"
    w(f"  // S = {s}, {signalling(all_lanes)}{note}.")
    w(f"  gpu.func @{name}(%out: !Out, %n: i32)")
    w(f"      workgroup(%ring: memref<{s}xi32, #WG>) kernel")
    w("      attributes {known_block_size = array<i32: 64, 1, 1>} {")
    w("    %c0 = arith.constant 0 : index")
    w("    %c1 = arith.constant 1 : index")
    w("    %c32 = arith.constant 32 : index")
    for c in constants:
        w(f"    {c}")
    w("    %c16_i32 = arith.constant 16 : i32")
    w("    %golden = arith.constant -1640531535 : i32")
    w("    %tid = gpu.thread_id x")
    w("    %bid = gpu.block_id x")
    w("    %warp = arith.divui %tid, %c32 : index")
    w("    %lane = arith.remui %tid, %c32 : index")
    w("    %is_leader = arith.cmpi eq, %lane, %c0 : index")
    w("    %count = arith.index_cast %n : i32 to index")
    w("    %base = arith.muli %bid, %count : index")
    w(f"    %p = pipeline.create -> {P}")
    w(f"    pipeline.init_mbars %p producer {count} consumer {count} : {P}")
    w("    %is_producer = arith.cmpi eq, %warp, %c0 : index")
    w("    scf.if %is_producer {")


def kernel(s, all_lanes):
    name = f"ring_s{s}_{'all' if all_lanes else 'lane0'}"
    P = f"!P{s}"
    out = []
    w = out.append
    _prologue(w, name, s, all_lanes, "")
    w("      scf.for %i = %c0 to %count step %c1 {")
    w(f"        pipeline.produce %p as %s : {P} {{")
    w(f"          %st = pipeline.index %s : !pipeline.stage<producer, {P}>")
    w("          scf.if %is_leader {")
    w("            %o = arith.addi %base, %i : index")
    w("            %x = arith.index_cast %o : index to i32")
    w("            %m = arith.muli %x, %golden : i32")
    w("            %sh = arith.shrui %m, %c16_i32 : i32")
    w("            %v = arith.xori %m, %sh : i32")
    w(f"            memref.store %v, %ring[%st] : memref<{s}xi32, #WG>")
    if not all_lanes:
        w(f"            pipeline.arrive %s : !pipeline.stage<producer, {P}>")
    w("          }")
    if all_lanes:
        w(f"          pipeline.arrive %s : !pipeline.stage<producer, {P}>")
    w("          pipeline.yield")
    w("        }")
    w("      }")
    w(f"      pipeline.drain_producer %p : {P}")
    w("    } else {")
    w("      scf.for %i = %c0 to %count step %c1 {")
    w(f"        pipeline.consume_explicit %p as %s : {P} {{")
    w(f"          %st = pipeline.index %s : !pipeline.stage<consumer, {P}>")
    if all_lanes:
        w(f"          %v = memref.load %ring[%st] : memref<{s}xi32, #WG>")
        w(f"          pipeline.arrive %s : !pipeline.stage<consumer, {P}>")
        w("          scf.if %is_leader {")
    else:
        w("          scf.if %is_leader {")
        w(f"            %v = memref.load %ring[%st] : memref<{s}xi32, #WG>")
        w(f"            pipeline.arrive %s : !pipeline.stage<consumer, {P}>")
    w("            %o = arith.addi %base, %i : index")
    w("            memref.store %v, %out[%o] : !Out")
    w("          }")
    w("          pipeline.yield")
    w("        }")
    w("      }")
    w("    }")
    w("    gpu.return")
    w("  }")
    return "\n".join(out)


def kernel_ahead(s, all_lanes):
    """The --ahead form of kernel(s, all_lanes)."""
    name = f"ring_s{s}_{'all' if all_lanes else 'lane0'}"
    P = f"!P{s}"
    PS = f"!pipeline.stage<producer, {P}>"
    CS = f"!pipeline.stage<consumer, {P}>"
    out = []
    w = out.append
    _prologue(w, name, s, all_lanes, ", look-ahead waits",
              ["%c0_i32 = arith.constant 0 : i32"])
    w(f"      %r0 = pipeline.try_acquire_producer %p : {P}")
    w("      %rl = scf.for %i = %c0 to %count step %c1 iter_args(%r = %r0) -> (i1) {")
    w(f"        %s = pipeline.acquire_producer %p ready(%r) : {P}")
    w(f"        %st = pipeline.index %s : {PS}")
    w("        scf.if %is_leader {")
    w("          %o = arith.addi %base, %i : index")
    w("          %x = arith.index_cast %o : index to i32")
    w("          %m = arith.muli %x, %golden : i32")
    w("          %sh = arith.shrui %m, %c16_i32 : i32")
    w("          %v = arith.xori %m, %sh : i32")
    w(f"          memref.store %v, %ring[%st] : memref<{s}xi32, #WG>")
    if not all_lanes:
        w(f"          pipeline.arrive %s : {PS}")
    w("        }")
    if all_lanes:
        w(f"        pipeline.arrive %s : {PS}")
    w(f"        pipeline.release %s : {PS}")
    w(f"        %rn = pipeline.try_acquire_producer %p : {P}")
    w("        scf.yield %rn : i1")
    w("      }")
    w(f"      pipeline.drain_producer %p : {P}")
    w("    } else {")
    w(f"      %r0 = pipeline.try_acquire_consumer %p : {P}")
    w("      %rl = scf.for %i = %c0 to %count step %c1 iter_args(%r = %r0) -> (i1) {")
    w(f"        %s = pipeline.acquire_consumer %p ready(%r) : {P}")
    w(f"        %st = pipeline.index %s : {CS}")
    if all_lanes:
        w(f"        %v = memref.load %ring[%st] : memref<{s}xi32, #WG>")
        w(f"        pipeline.arrive %s : {CS}")
    else:
        w("        %v = scf.if %is_leader -> (i32) {")
        w(f"          %v0 = memref.load %ring[%st] : memref<{s}xi32, #WG>")
        w(f"          pipeline.arrive %s : {CS}")
        w("          scf.yield %v0 : i32")
        w("        } else {")
        w("          scf.yield %c0_i32 : i32")
        w("        }")
    w(f"        pipeline.release_without_signal %s : {CS}")
    w(f"        %rn = pipeline.try_acquire_consumer %p : {P}")
    w("        scf.if %is_leader {")
    w("          %o = arith.addi %base, %i : index")
    w("          memref.store %v, %out[%o] : !Out")
    w("        }")
    w("        scf.yield %rn : i1")
    w("      }")
    w("    }")
    w("    gpu.return")
    w("  }")
    return "\n".join(out)


def main():
    ahead = sys.argv[1:] == ["--ahead"]
    if sys.argv[1:] and not ahead:
        sys.exit("usage: gen_dialect.py [--ahead]")
    print(__doc__.split("Usage")[0].strip().replace("\n", "\n// ").join(["// ", ""]))
    print("//")
    print("// Generated by bench/handoff/gen_dialect.py"
          + (" --ahead" if ahead else "") + "; compile with")
    print("// pipeline-compile handoff_dialect.mlir --chip=sm_90a -o X (default options).")
    print()
    print("#WG = #gpu.address_space<workgroup>")
    print("!Out = memref<268435456xi32>")
    for s in STAGES:
        print(f"!P{s} = !pipeline.pipeline<stages = {s}>")
    print()
    print("module attributes {gpu.container_module} {")
    print("gpu.module @handoff {")
    def make(s, all_lanes):
        return (kernel_ahead if ahead and s >= 2 else kernel)(s, all_lanes)

    print("\n\n".join(make(s, a) for s in STAGES for a in (False, True)))
    print("}")
    print("}")


if __name__ == "__main__":
    main()
