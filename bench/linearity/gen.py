#!/usr/bin/env python3
"""Generates pipeline-dialect modules of a given number of ops for the
pipeline-verify-linearity scaling benchmark (docs/verifier.md).

Every generated module verifies cleanly. Three shapes:

  funcs   many small kernels (one function per ~100 ops): warp-role
          branches, loops carrying a handle through iter_args, an scf.if
          that releases and re-acquires, an scf.index_switch, scoped
          regions, a tile pipeline with payload accesses and a cf diamond;
  single  the same kernel bodies, all in one function (one huge region);
  cfg     one function whose body is a chain of cf loops and diamonds
          (one huge CFG, a handle carried through block arguments).

The op count is exact: every op, terminators included, is written
explicitly on its own line and counted.

Usage: gen.py SHAPE NUM_OPS > out.mlir
"""

import sys

HEADER = """\
!P = !pipeline.pipeline<stages = 4>
!CS = !pipeline.stage<consumer, !P>
!PS = !pipeline.stage<producer, !P>
!A = memref<4x1x64x64xf16, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!A]>
!T = memref<1x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
!TCS = !pipeline.stage<consumer, !TP>
!TPS = !pipeline.stage<producer, !TP>
"""


class Writer:
    def __init__(self):
        self.lines = []
        self.ops = 0
        self.tmp = 0

    def op(self, text, indent):
        self.lines.append("  " * indent + text)
        self.ops += 1

    def raw(self, text, indent):
        self.lines.append("  " * indent + text)

    def name(self, prefix):
        self.tmp += 1
        return "%%%s%d" % (prefix, self.tmp)


def kernel_body(w, ind):
    """One kernel's worth of ops, in the current block. Needs %n (index),
    %c (i1), %k (index) and %c0, %c1 in scope. Writes about 100 ops."""
    p = w.name("p")
    w.op("%s = pipeline.create -> !P" % p, ind)
    w.op("pipeline.init_mbars %s producer 1 consumer 1 : !P" % p, ind)
    a = w.name("a")
    w.op("%s = memref.alloc() : !A" % a, ind)
    tp = w.name("tp")
    w.op("%s = pipeline.input_tile_pipeline %s payload(%s : !A) : !P -> !TP"
         % (tp, p, a), ind)

    # Warp-role branches.
    w.op("scf.if %c {", ind)
    i = w.name("i")
    w.op("scf.for %s = %%c0 to %%n step %%c1 {" % i, ind + 1)
    s = w.name("s")
    w.op("%s = pipeline.acquire_producer %s : !TP" % (s, tp), ind + 2)
    w.op("pipeline.expect_tx %s : !TPS" % s, ind + 2)
    t = w.name("t")
    w.op("%s = pipeline.payload %s[0] : !TPS -> !T" % (t, s), ind + 2)
    f = w.name("f")
    w.op("%s = arith.constant 0.0 : f16" % f, ind + 2)
    w.op("memref.store %s, %s[%%c0, %%c0, %%c0] : !T" % (f, t), ind + 2)
    w.op("pipeline.release %s : !TPS" % s, ind + 2)
    w.op("scf.yield", ind + 2)
    w.raw("}", ind + 1)
    w.op("pipeline.drain_producer %s : !TP" % tp, ind + 1)
    w.op("scf.yield", ind + 1)
    w.raw("} else {", ind)
    i = w.name("i")
    w.op("scf.for %s = %%c0 to %%n step %%c1 {" % i, ind + 1)
    s = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !TP" % (s, tp), ind + 2)
    t = w.name("t")
    w.op("%s = pipeline.payload %s[0] : !TCS -> !T" % (t, s), ind + 2)
    v = w.name("v")
    w.op("%s = memref.load %s[%%c0, %%c0, %%c0] : !T" % (v, t), ind + 2)
    w.op("pipeline.release %s : !TCS" % s, ind + 2)
    w.op("scf.yield", ind + 2)
    w.raw("}", ind + 1)
    w.op("scf.yield", ind + 1)
    w.raw("}", ind)

    # A handle carried through iter_args, released early on one branch.
    s0 = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (s0, p), ind)
    r = w.name("r")
    i = w.name("i")
    cur = w.name("cur")
    w.op("%s = scf.for %s = %%c0 to %%n step %%c1 iter_args(%s = %s) -> (!CS) {"
         % (r, i, cur, s0), ind)
    x = w.name("x")
    w.op("%s = pipeline.index %s : !CS" % (x, cur), ind + 1)
    y = w.name("y")
    w.op("%s = scf.if %%c -> !CS {" % y, ind + 1)
    w.op("pipeline.release %s : !CS" % cur, ind + 2)
    nw = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (nw, p), ind + 2)
    w.op("scf.yield %s : !CS" % nw, ind + 2)
    w.raw("} else {", ind + 1)
    w.op("scf.yield %s : !CS" % cur, ind + 2)
    w.raw("}", ind + 1)
    w.op("pipeline.release %s : !CS" % y, ind + 1)
    nx = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (nx, p), ind + 1)
    w.op("scf.yield %s : !CS" % nx, ind + 1)
    w.raw("}", ind)
    w.op("pipeline.release %s : !CS" % r, ind)

    # Every case of a switch releases.
    s1 = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (s1, p), ind)
    w.op("scf.index_switch %k", ind)
    w.raw("case 0 {", ind)
    w.op("pipeline.release %s : !CS" % s1, ind + 1)
    w.op("scf.yield", ind + 1)
    w.raw("}", ind)
    w.raw("case 1 {", ind)
    w.op("pipeline.arrive %s : !CS" % s1, ind + 1)
    w.op("pipeline.release_without_signal %s : !CS" % s1, ind + 1)
    w.op("scf.yield", ind + 1)
    w.raw("}", ind)
    w.raw("default {", ind)
    w.op("pipeline.release %s : !CS" % s1, ind + 1)
    w.op("scf.yield", ind + 1)
    w.raw("}", ind)

    # Scoped regions and a producer handle.
    ps = w.name("ps")
    w.op("pipeline.produce %s as %s : !P {" % (p, ps), ind)
    w.op("pipeline.arrive %s : !PS" % ps, ind + 1)
    w.op("pipeline.yield", ind + 1)
    w.raw("}", ind)
    cs = w.name("cs")
    val = w.name("val")
    w.op("%s = pipeline.consume %s as %s : !P -> index {" % (val, p, cs), ind)
    x = w.name("x")
    w.op("%s = pipeline.index %s : !CS" % (x, cs), ind + 1)
    w.op("pipeline.yield %s : index" % x, ind + 1)
    w.raw("}", ind)

    # Straight-line uses.
    for _ in range(6):
        s = w.name("s")
        w.op("%s = pipeline.acquire_producer %s : !P" % (s, p), ind)
        x = w.name("x")
        w.op("%s = pipeline.index %s : !PS" % (x, s), ind)
        w.op("pipeline.arrive %s : !PS" % s, ind)
        w.op("pipeline.release %s : !PS" % s, ind)
        s = w.name("s")
        w.op("%s = pipeline.acquire_consumer %s : !P" % (s, p), ind)
        x = w.name("x")
        w.op("%s = arith.addi %%c1, %%c1 : index" % x, ind)
        w.op("pipeline.release %s : !CS" % s, ind)
    return p


def cf_chunk(w, p, ind, labels):
    """A cf diamond and a cf loop carrying a handle; ends with a branch to
    a fresh block whose name it returns. `labels` counts blocks."""
    def block():
        labels[0] += 1
        return "^b%d" % labels[0]
    s = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (s, p), ind)
    left, right, join = block(), block(), block()
    w.op("cf.cond_br %%c, %s, %s" % (left, right), ind)
    w.raw("%s:" % left, ind - 1)
    w.op("pipeline.release %s : !CS" % s, ind)
    w.op("cf.br %s" % join, ind)
    w.raw("%s:" % right, ind - 1)
    w.op("pipeline.arrive %s : !CS" % s, ind)
    w.op("pipeline.release_without_signal %s : !CS" % s, ind)
    w.op("cf.br %s" % join, ind)
    w.raw("%s:" % join, ind - 1)
    s0 = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (s0, p), ind)
    header, body, done = block(), block(), block()
    w.op("cf.br %s(%%c0, %s : index, !CS)" % (header, s0), ind)
    i, h = w.name("i"), w.name("h")
    w.raw("%s(%s: index, %s: !CS):" % (header, i, h), ind - 1)
    go = w.name("go")
    w.op("%s = arith.cmpi slt, %s, %%n : index" % (go, i), ind)
    w.op("cf.cond_br %s, %s, %s" % (go, body, done), ind)
    w.raw("%s:" % body, ind - 1)
    x = w.name("x")
    w.op("%s = pipeline.index %s : !CS" % (x, h), ind)
    w.op("pipeline.release %s : !CS" % h, ind)
    nx = w.name("s")
    w.op("%s = pipeline.acquire_consumer %s : !P" % (nx, p), ind)
    i1 = w.name("i")
    w.op("%s = arith.addi %s, %%c1 : index" % (i1, i), ind)
    w.op("cf.br %s(%s, %s : index, !CS)" % (header, i1, nx), ind)
    w.raw("%s:" % done, ind - 1)
    w.op("pipeline.release %s : !CS" % h, ind)
    nxt = block()
    w.op("cf.br %s" % nxt, ind)
    w.raw("%s:" % nxt, ind - 1)


def generate(shape, target):
    w = Writer()
    out = [HEADER]
    if shape == "funcs":
        k = 0
        while w.ops < target:
            start = len(w.lines)
            w.op("func.func @k%d(%%n: index, %%c: i1, %%k: index) {" % k, 0)
            w.op("%c0 = arith.constant 0 : index", 1)
            w.op("%c1 = arith.constant 1 : index", 1)
            p = kernel_body(w, 1)
            labels = [0]
            cf_chunk(w, p, 1, labels)
            w.op("return", 1)
            w.raw("}", 0)
            k += 1
    elif shape == "single":
        w.op("func.func @single(%n: index, %c: i1, %k: index) {", 0)
        w.op("%c0 = arith.constant 0 : index", 1)
        w.op("%c1 = arith.constant 1 : index", 1)
        while w.ops < target - 1:
            kernel_body(w, 1)
        w.op("return", 1)
        w.raw("}", 0)
    elif shape == "cfg":
        w.op("func.func @cfg(%n: index, %c: i1, %k: index) {", 0)
        w.op("%c0 = arith.constant 0 : index", 1)
        w.op("%c1 = arith.constant 1 : index", 1)
        p = "%p"
        w.op("%p = pipeline.create -> !P", 1)
        labels = [0]
        while w.ops < target - 1:
            cf_chunk(w, p, 1, labels)
        w.op("return", 1)
        w.raw("}", 0)
    else:
        sys.exit("unknown shape %r (funcs, single, cfg)" % shape)
    # The module op itself is one more op.
    out.append("// %d ops\n" % (w.ops + 1))
    out.append("\n".join(w.lines))
    out.append("\n")
    return "".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.stdout.write(generate(sys.argv[1], int(float(sys.argv[2]))))


if __name__ == "__main__":
    main()
