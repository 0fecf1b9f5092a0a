"""The kernels run both on the GPU and in the emulator from the same random
inputs (test_gpu.py::test_gpu_matches_emulator): every pm.gemm variant and
every pm.attention variant at small shapes, and every other sm_90a kernel
family of the GPU tests: the Python examples and test kernels that
test_gpu.py launches (handoff_ring, tma_copy, the example GEMM of
examples/gemm_sm90.mlir, gemm_builder, attention_builder, summing_ring,
dynamic_shapes, role_warps) and the kernels of the C++ GPU bundle
(test/Integration/GPU/*.mlir, launched as their host programs in host/
launch them).

    # here (no GPU): compile, emulate, store inputs and emulated outputs
    PIPELINE_MLIR_TEST_CACHE=/tmp/kernels /usr/bin/python3 python/tests/emulated_cases.py
    # on a machine with an H100, with the same cache:
    PIPELINE_MLIR_TEST_CACHE=/tmp/kernels python3 -m pytest python/tests/test_gpu.py -k emulator

Each case is data, (name, kind, parameters); per kind, `inputs` makes the
seeded inputs, `emulate` runs the kernel in the emulator and `run_gpu` on
the GPU, both through one launch description (`_launch`), so the two runs
take the same arguments, grid, block, cluster and shared memory. Each case
stores `<cache>/emulated/<name>.npz`: the inputs and the emulated outputs.

`compare` says how the outputs must agree:
  - kernels without an MMA (BITWISE: every instruction they execute is
    exact in the emulator, docs/simulator.md): every output byte equal,
    outputs poisoned before the launch (as the C++ host programs do), so
    a stray or missing store shows;
  - kernels with MMAs: element by element within what the MMA summation
    order justifies (`tolerance`; docs/simulator.md, "The MMA
    tolerance"), reporting the largest difference in units in the last
    place and the share of elements that are bitwise equal.

Left out, each for its reason:
  - test/Integration/GPU/try_acquire.mlir (try_direct, try_handles): the
    roles spin `delay` clock cycles (clock64) so that a try succeeds or
    fails; `tries` counts the outcomes, which depend on timing.
  - test/Integration/GPU/throttle.mlir (throttle_s1, throttle_s4):
    clock-cycle delays, and lead_seen / prod_seen record how far the other
    role got (shared-memory atomics read while the other side runs):
    outputs that depend on scheduling by design.
  - test/Integration/GPU/stress.mlir: random clock64 spin delays on both
    sides, every SM busy and 100000 items a block (a 128 MiB output): a
    timing stress test, and far too large to emulate.
  - test/Integration/GPU/hang.mlir and python/tests/hanging.py: kernels
    compiled with the hang report that hang and trap on purpose (the
    report holds clock-based timeouts).
  - test/Integration/GPU/kernel_abi.mlir @scalars: its i2, i7, i33, i65,
    f4E2M1FN and vector<3xi2> parameters; neither the Python launcher nor
    kernel.emulate can pass them (both refuse "cannot pass argument ...";
    the signature parser reads them as opaque types). Its @dynamic is
    here, with the view passed contiguous (offset 0, stride 1: the
    launchers always pass a numpy array as a contiguous memref; the
    signature parser drops the strided<[?], offset: ?> layout).
  - test/Integration/GPU/gemm.test: the bench harness of
    examples/gemm_sm90.mlir, the same kernel as the example GEMM here
    (kind gemm_example); runtime_selftest: the watchdog's own test.
  - handoff_ring for sm_100a: compiled for the refusal on an H100 only.
"""

import math
import os
import pathlib
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]
GPU_TESTS = ROOT / "test" / "Integration" / "GPU"

# pm.gemm: every variant at a shape with partial tiles in M and N and
# several k-blocks, and one with one M row block.
GEMM_SHAPES = [(200, 136, 192), (64, 256, 512)]
# pm.attention: every variant, head_dim 64 and 128, causal or not, a
# partial last block.
ATTENTION_SHAPE = (1, 136, 2)
# The example GEMM (BM 128, BN 256) and gemm_builder (BM = BN = 128):
# partial tiles in M and N (2 x 2 tiles), a partial last k-block (TMA
# zero-fills past K).
GEMM_EXAMPLE_SHAPE = (200, 264, 136)
GEMM_BUILDER_SHAPE = (200, 200, 136)
# attention_builder: 2 heads, a partial last block of 128 keys.
ATTENTION_BUILDER_SHAPE = (1, 136, 2)

#: The C++ host programs' poison: every output starts as 0xDEADBEEF.
POISON = np.uint32(0xDEADBEEF).view(np.int32)
BF16_NAN = 0x7FC0

#: Kinds compared bit for bit (no MMA: integer and data-movement
#: instructions, TMA, shuffles, barriers, all exact in the emulator).
BITWISE = {"handoff_ring", "tma_copy", "summing_ring", "dynamic_shapes", "role_warps",
           "basic", "multi_warp", "explicit", "tma_tile", "cluster_multicast",
           "cluster_cross", "kernel_abi_dynamic"}
#: Kinds with MMAs (wgmma): compared within `tolerance`.
MMA = {"gemm", "attention", "gemm_example", "gemm_builder", "attention_builder"}


def _bf16(rng, shape):
    import pipeline_mlir as pm
    return pm.to_bf16(rng.standard_normal(shape).astype(np.float32))


def cases():
    """(name, kind, parameters) of every case."""
    from pipeline_mlir import attention_fwd, matmul
    out = []
    for variant in matmul.CONFIGS:
        for m, n, k in GEMM_SHAPES:
            out.append((f"gemm-{variant}-{m}x{n}x{k}", "gemm",
                        dict(variant=variant, m=m, n=n, k=k)))
    for d in (64, 128):
        for causal in (False, True):
            for variant in attention_fwd.VARIANTS:
                if not attention_fwd.fits(d, variant):
                    continue
                out.append((f"attention-{variant}-d{d}-{'causal' if causal else 'full'}",
                            "attention", dict(variant=variant, d=d, causal=causal)))
    # The Python examples and test kernels test_gpu.py launches.
    out.append(("example-handoff_ring", "handoff_ring", {}))
    out.append(("example-handoff_ring-cluster2", "handoff_ring", dict(grid=2, cluster=2)))
    out.append(("example-tma_copy", "tma_copy", {}))
    m, n, k = GEMM_EXAMPLE_SHAPE
    out.append((f"example-gemm_sm90-{m}x{n}x{k}", "gemm_example", dict(m=m, n=n, k=k)))
    m, n, k = GEMM_BUILDER_SHAPE
    out.append((f"example-gemm_builder-{m}x{n}x{k}", "gemm_builder", dict(m=m, n=n, k=k)))
    for d in (64, 128):
        for causal in (False, True):
            out.append((f"example-attention_builder-d{d}-{'causal' if causal else 'full'}",
                        "attention_builder", dict(d=d, causal=causal)))
    out.append(("test-summing_ring", "summing_ring", {}))
    for rows in (1, 129):
        out.append((f"test-dynamic_shapes-{rows}", "dynamic_shapes", dict(rows=rows)))
    out.append(("test-role_warps", "role_warps", {}))
    # The C++ GPU bundle's kernels (test/Integration/GPU), launched as the
    # host programs of host/ launch them, at item counts that are not
    # multiples of the stage count.
    for stages in (1, 2, 3, 4, 8):
        out.append((f"bundle-basic_s{stages}-n101", "basic", dict(stages=stages, n=101)))
    out.append(("bundle-multi_warp-n37", "multi_warp", dict(n=37)))
    for n in (7, 38):
        out.append((f"bundle-explicit-n{n}", "explicit", dict(n=n)))
    for kg in (1, 2):
        out.append((f"bundle-tma_tile_k{kg}", "tma_tile", dict(k_group=kg)))
    out.append(("bundle-cluster_multicast", "cluster_multicast", {}))
    out.append(("bundle-cluster_cross", "cluster_cross", {}))
    for rows, cols in ((1, 1), (129, 7), (300, 33)):
        out.append((f"bundle-kernel_abi-dynamic-{rows}x{cols}", "kernel_abi_dynamic",
                    dict(rows=rows, cols=cols)))
    return out


def _ints(rng, shape, lo=-2**31, hi=2**31 - 1):
    return rng.integers(lo, hi, shape, dtype=np.int32)


def inputs(name, kind, p):
    rng = np.random.default_rng(sum(map(ord, name)) * 7919)
    if kind in ("gemm", "gemm_example", "gemm_builder"):
        return dict(a=_bf16(rng, (p["m"], p["k"])), b=_bf16(rng, (p["n"], p["k"])))
    if kind in ("attention", "attention_builder"):
        batch, seqlen, heads = ATTENTION_SHAPE if kind == "attention" \
            else ATTENTION_BUILDER_SHAPE
        shape = (batch, seqlen, heads, p["d"])
        return dict(q=_bf16(rng, shape), k=_bf16(rng, shape), v=_bf16(rng, shape))
    if kind == "handoff_ring":
        import handoff_ring
        return dict(src=_ints(rng, (handoff_ring.ROWS, 32)))
    if kind == "tma_copy":
        import tma_copy
        return dict(src=_ints(rng, (tma_copy.ROWS, tma_copy.COLS)))
    if kind == "summing_ring":
        import summing_ring
        return dict(src=_ints(rng, (summing_ring.ROWS, 32), -1000, 1000))
    if kind == "dynamic_shapes":
        return dict(src=_ints(rng, (p["rows"], 4)))
    if kind == "role_warps":
        import role_warps
        return dict(src=_ints(rng, (role_warps.ROWS, 32)))
    if kind in ("basic", "multi_warp", "explicit"):
        return {}  # the kernels make their items (mix32 of the index)
    if kind in ("tma_tile", "cluster_multicast"):
        return dict(src=_ints(rng, (256, 128)))
    if kind == "cluster_cross":
        return dict(a=_ints(rng, (512, 128)), b=_ints(rng, (512, 128)))
    if kind == "kernel_abi_dynamic":
        return dict(m=_ints(rng, (p["rows"], p["cols"]), -1000, 1001),
                    view=_ints(rng, (p["rows"],), 0, 1000))
    raise KeyError(kind)


def scale_of(p):
    return 1.0 / math.sqrt(p["d"]) * (1.5 if p["causal"] else 1.0)


# ------------------------------------------------------------ the kernels

_compiled = {}


def _compile(key, make):
    """The compiled module of `key` (compiled or loaded from the cache
    once per process)."""
    if key not in _compiled:
        import pipeline_mlir as pm
        _compiled[key] = pm.compile(make(), chip="sm_90a")
    return _compiled[key]


def _bundle(family):
    """A kernel file of the C++ GPU bundle, compiled as pipeline-compile
    --chip=sm_90a compiles it for the bundle (MLIR text: the cache key is
    the text, so a cache filled here serves the GPU machine)."""
    return _compile(("bundle", family), lambda: (GPU_TESTS / f"{family}.mlir").read_text())


def _example(module_name, attribute):
    def make():
        return getattr(__import__(module_name), attribute)
    return _compile(("example", module_name, attribute), make)


class _Target:
    """Where a launch runs: the emulator (numpy arrays, pm.HostTensorMap)
    or the GPU (numpy arrays copied in and back by the launcher, pm.TensorMap
    of a pm.DeviceArray, read back after the launch where the kernel
    writes through the map)."""

    def __init__(self, gpu):
        self.gpu = gpu
        self.keep = []
        self.fetch = []

    def tmap(self, array, box, element=None, swizzle="none", l2promo="none", out=False):
        import pipeline_mlir as pm
        if not self.gpu:
            return pm.HostTensorMap(array, box, element, swizzle, l2promo=l2promo)
        dev = pm.DeviceArray.from_numpy(array)
        self.keep.append(dev)
        if out:
            self.fetch.append((array, dev))
        return pm.TensorMap(dev, box, element, swizzle, l2promo=l2promo)

    def pointer_map(self, tm):
        """A TMA descriptor for an `!llvm.ptr` parameter (a pointer to a
        CUtensorMap): the emulator takes the HostTensorMap; on the GPU the
        descriptor's device address (see `launch`)."""
        return tm.device.ptr if self.gpu else tm

    def sm_count(self):
        import pipeline_mlir as pm
        return pm.device_info()["sm_count"] if self.gpu else pm.emulator.SM_COUNT

    def launch(self, kernel, *args, **config):
        if self.gpu:
            from pipeline_mlir import types as T
            from pipeline_mlir.driver import LoadedKernel
            # The Python launcher cannot pass an `!llvm.ptr` parameter
            # (driver.LoadedKernel._argument: "cannot pass argument"); a
            # pointer is 64 bits in the kernel ABI, so such a parameter is
            # launched as an i64 holding the descriptor's device address.
            params = [(n, T.i64) if isinstance(t, T.OpaqueType) and t.text == "!llvm.ptr"
                      else (n, t) for n, t in kernel.params]
            if params != list(kernel.params):
                kernel = LoadedKernel(kernel.compiled, kernel.name, params)
            kernel(*args, **config)
            for array, dev in self.fetch:
                array[...] = dev.numpy()
        else:
            kernel.emulate(*args, **config)


def _poison(shape):
    return np.full(shape, POISON, np.int32)


def _launch(kind, p, x, target):
    """Runs case (kind, p) on inputs x on `target`; returns the outputs,
    numpy arrays. The one description of each kind's launch, after the
    launch in test_gpu.py, the examples' main() or the C++ host program."""
    import pipeline_mlir as pm
    t = target
    if kind == "handoff_ring":
        import handoff_ring
        k = _example("handoff_ring", "handoff_ring").kernel()
        dst = _poison(x["src"].shape)
        cluster = p.get("cluster")
        src = np.ascontiguousarray(x["src"])
        t.launch(k, src, dst, grid=p.get("grid", 1), block=64, smem=handoff_ring.SMEM,
                 **({"cluster": cluster} if cluster else {}))
        return dict(dst=dst)
    if kind == "tma_copy":
        import tma_copy
        k = _example("tma_copy", "tma_copy").kernel()
        dst = _poison(x["src"].shape)
        t.launch(k, t.tmap(np.ascontiguousarray(x["src"]), (tma_copy.TILE, tma_copy.TILE)),
                 dst, grid=1, block=64, smem=tma_copy.SMEM)
        return dict(dst=dst)
    if kind == "summing_ring":
        import summing_ring
        k = _example("summing_ring", "summing_ring").kernel()
        out = np.full((2, 32), -7, np.int32)
        t.launch(k, np.ascontiguousarray(x["src"]), out, grid=1, block=64,
                 smem=summing_ring.SMEM)
        return dict(out=out)
    if kind == "dynamic_shapes":
        k = _example("dynamic_shapes", "scale_rows").kernel()
        rows = p["rows"]
        dst = np.full(rows, -7, np.int32)
        t.launch(k, np.ascontiguousarray(x["src"]), dst, 3, grid=(rows + 127) // 128,
                 block=128)
        return dict(dst=dst)
    if kind == "role_warps":
        import role_warps
        k = _example("role_warps", "fourth_warp_producer").kernel()
        dst = _poison(x["src"].shape)
        t.launch(k, np.ascontiguousarray(x["src"]), dst, block=128, smem=role_warps.SMEM)
        return dict(dst=dst)
    if kind == "gemm_example":
        import gemm
        k = _compile(("example", "gemm", "load"), gemm.load).kernel("gemm_bf16_sm90")
        m, n, kk = p["m"], p["n"], p["k"]
        c = np.full((m, n), BF16_NAN, np.uint16)
        maps = [t.tmap(np.ascontiguousarray(x["a"]), (gemm.BM, 64), "bf16", "swizzle_128b",
                       l2promo="l2_256b"),
                t.tmap(np.ascontiguousarray(x["b"]), (gemm.BN, 64), "bf16", "swizzle_128b",
                       l2promo="l2_256b"),
                t.tmap(c, (64, 64), "bf16", "swizzle_128b", out=True)]
        tiles = -(-m // gemm.BM) * -(-n // gemm.BN)
        t.launch(k, *maps, pm.i32(m), pm.i32(n), pm.i32(kk), pm.i32(gemm.GROUP_M),
                 grid=min(t.sm_count(), tiles), block=gemm.THREADS, smem=gemm.SMEM)
        return dict(c=c)
    if kind == "gemm_builder":
        import gemm_builder as gb
        k = _example("gemm_builder", "gemm_bf16").kernel()
        m, n, kk = p["m"], p["n"], p["k"]
        c = np.full((m, n), BF16_NAN, np.uint16)
        maps = [t.tmap(np.ascontiguousarray(x["a"]), (gb.BM, gb.BK), "bf16", "swizzle_128b"),
                t.tmap(np.ascontiguousarray(x["b"]), (gb.BN, gb.BK), "bf16", "swizzle_128b")]
        tiles = -(-m // gb.BM) * -(-n // gb.BN)
        t.launch(k, *maps, c, pm.i32(m), pm.i32(n), pm.i32(kk),
                 grid=min(t.sm_count(), tiles), block=384, smem=gb.SMEM)
        return dict(c=c)
    if kind == "attention_builder":
        import attention_builder as ab
        kernel, smem = ab.make_kernel(p["d"], p["causal"])
        k = _compile(("example", "attention_builder", p["d"], p["causal"]),
                     lambda: kernel).kernel()
        q = np.ascontiguousarray(x["q"])
        batch, seqlen, heads, d = q.shape
        rows = (batch, seqlen, heads * d)
        maps = [t.tmap(np.ascontiguousarray(x[n]).reshape(rows), (1, 128, 64), "bf16",
                       "swizzle_128b") for n in "qkv"]
        o = np.full(q.shape, BF16_NAN, np.uint16)
        lse = np.full((batch, heads, seqlen), np.nan, np.float32)
        t.launch(k, *maps, o, lse, pm.i32(seqlen), pm.f32(1.0 / math.sqrt(d) * math.log2(math.e)),
                 grid=(-(-seqlen // ab.BM), heads, batch), block=384, smem=smem)
        return dict(o=o, lse=lse)
    if kind == "basic":
        # host/basic.cpp: block 64, out 1024 x 32 and stage_out 1024 poisoned.
        k = _bundle("basic").kernel(f"basic_s{p['stages']}")
        out, stage_out = _poison(32768), _poison(1024)
        t.launch(k, out, stage_out, pm.i32(p["n"]), block=64)
        return dict(out=out, stage_out=stage_out)
    if kind == "multi_warp":
        # host/multi_warp.cpp: block 160 (warp 0 producers, warps 1-4 consumers).
        k = _bundle("multi_warp").kernel("multi_warp")
        out = _poison(131072)
        t.launch(k, out, pm.i32(p["n"]), block=160)
        return dict(out=out)
    if kind == "explicit":
        k = _bundle("explicit").kernel("explicit")
        out = _poison(32768)
        t.launch(k, out, pm.i32(p["n"]), block=64)
        return dict(out=out)
    if kind == "tma_tile":
        # host/tma_tile.cpp: a 256 x 128 i32 map, box 32 x 32; block 64;
        # barriers, alignment slack, 3 stages of k_group_size tiles.
        kg = p["k_group"]
        k = _bundle("tma_tile").kernel(f"tma_tile_k{kg}")
        out = _poison((256, 128))
        t.launch(k, t.tmap(np.ascontiguousarray(x["src"]), (32, 32)), out, block=64,
                 smem=256 + 3 * kg * 32 * 32 * 4)
        return dict(out=out)
    if kind == "cluster_multicast":
        # host/cluster.cpp: 16 CTAs in clusters of 2, a half-tile box 16 x 32.
        k = _bundle("cluster").kernel("cluster_multicast")
        out = _poison((16, 256, 128))
        t.launch(k, t.tmap(np.ascontiguousarray(x["src"]), (16, 32)), out, grid=16,
                 cluster=2, block=64, smem=256 + 2 * 32 * 32 * 4)
        return dict(out=out)
    if kind == "cluster_cross":
        # host/cluster.cpp: 16 CTAs in clusters of 4 (2 x 2), A and B 512 x 128,
        # boxes 16 x 32, passed as pointers to the descriptors.
        k = _bundle("cluster").kernel("cluster_cross")
        out = _poison((16, 2, 256, 128))
        ma = t.tmap(np.ascontiguousarray(x["a"]), (16, 32))
        mb = t.tmap(np.ascontiguousarray(x["b"]), (16, 32))
        t.launch(k, t.pointer_map(ma), t.pointer_map(mb), out, grid=16, cluster=4,
                 block=64, smem=256 + 2 * 2 * 32 * 32 * 4)
        return dict(out=out)
    if kind == "kernel_abi_dynamic":
        # host/kernel_abi.cpp: block 128, a grid of rows / 128; out has 4
        # elements past `rows` that must stay poisoned.
        k = _bundle("kernel_abi").kernel("dynamic")
        rows = p["rows"]
        out = _poison(rows + 4)
        t.launch(k, np.ascontiguousarray(x["m"]), np.ascontiguousarray(x["view"]), out,
                 grid=(rows + 127) // 128, block=128)
        return dict(out=out)
    raise KeyError(kind)


def emulate(kind, p, x):
    import pipeline_mlir as pm
    if kind == "gemm":
        c = np.zeros((p["m"], p["n"]), np.uint16)
        pm.emulator.gemm(x["a"], x["b"], c, variant=p["variant"])
        return dict(c=c)
    if kind == "attention":
        o, lse = pm.emulator.attention(x["q"], x["k"], x["v"], causal=p["causal"],
                                       scale=scale_of(p), return_lse=True,
                                       variant=p["variant"])
        return dict(o=o, lse=lse)
    return _launch(kind, p, x, _Target(gpu=False))


def run_gpu(kind, p, x):
    """The same case on the GPU: the outputs, numpy arrays (bf16 as uint16
    bits). pm.gemm and pm.attention take torch tensors; the other kinds
    launch with numpy arrays and pm.TensorMap of pm.DeviceArray."""
    if kind in ("gemm", "attention"):
        import torch
        import pipeline_mlir as pm

        def dev(u):
            return torch.from_numpy(u.view(np.int16).copy()).view(torch.bfloat16).cuda()

        def host(t):
            return t.cpu().view(torch.int16).numpy().view(np.uint16)

        if kind == "gemm":
            a, b = dev(x["a"]), dev(x["b"])
            c = torch.zeros((p["m"], p["n"]), device="cuda", dtype=torch.bfloat16)
            pm.gemm(a, b, c, variant=p["variant"])
            torch.cuda.synchronize()
            return dict(c=host(c))
        q, k, v = (dev(x[n]) for n in "qkv")
        out = torch.full_like(q, float("nan"))
        o, lse = pm.attention(q, k, v, causal=p["causal"], scale=scale_of(p), out=out,
                              return_lse=True, variant=p["variant"])
        torch.cuda.synchronize()
        return dict(o=host(o), lse=lse.cpu().numpy())
    return _launch(kind, p, x, _Target(gpu=True))


# ------------------------------------------------------------ the comparison

def _ulp_bf16(x):
    """One unit in the last place of bf16 at |x| (2^-133 below the normals)."""
    e = np.floor(np.log2(np.maximum(np.abs(x), 2.0 ** -126)))
    return 2.0 ** (e - 7)


def tolerance(kind, p, x, y):
    """The largest difference, element by element, that the hardware's MMA
    summation order allows between the GPU's output and the emulator's `y`
    (kinds in MMA; None for the BITWISE kinds, which must match exactly).
    The ISA does not say in which order, or with how many guard bits, the
    tensor cores add the K products of one MMA into the f32 accumulator:
    each of a K-step's additions may be off by one f32 rounding of the
    running sum, at most 2^-23 of sum |a b| over the products added so far.
    The emulator adds them exactly and rounds once. GEMM: so the f32
    results differ by at most K 2^-23 sum_k |a_ik b_jk|, and the bf16
    outputs by that plus one bf16 ulp (a value near a rounding boundary;
    two for split-K, which adds bf16-rounded partial sums). Where the sum
    cancels, that absolute bound is many ulps of the small result.
    The example GEMM (gemm_sm90.mlir: f32 -> bf16x2 with cvt.rn, stmatrix,
    TMA store) and gemm_builder (cvt.rn.bf16.f32, a plain store) round the
    f32 accumulator once, as pm.gemm's unsplit variants: the same bound
    with one ulp.
    Attention: the scores differ as above; the hardware's ex2.approx is
    within 2 f32 ulps of the correctly rounded exponential; P is rounded to
    bf16 for P V, so each P element may differ by one bf16 ulp (2^-8 of
    itself), which moves an output element by at most 2^-8 of the largest
    |V| of its head (a convex combination), plus two bf16 ulps of the
    output's own roundings. attention_builder has pm.attention's
    structure (S = Q K^T by wgmma, the online softmax with ex2.approx, P
    rounded to bf16 through stmatrix, O += P V by wgmma, O / l, the
    log-sum-exp with lg2.approx): the same bound."""
    import pipeline_mlir as pm
    if kind in BITWISE:
        return None
    if kind in ("gemm", "gemm_example", "gemm_builder"):
        a = np.abs(pm.from_bf16(x["a"]).astype(np.float64))
        b = np.abs(pm.from_bf16(x["b"]).astype(np.float64))
        c = pm.from_bf16(y["c"]).astype(np.float64)
        k = a.shape[1]
        ulps = 2 if p.get("variant", "").endswith("k") else 1
        return {"c": k * 2.0 ** -23 * (a @ b.T) + ulps * _ulp_bf16(c)}
    v = np.abs(pm.from_bf16(x["v"]).astype(np.float64))
    o = pm.from_bf16(y["o"]).astype(np.float64)
    vmax = v.max(axis=1, keepdims=True)  # per batch, head and column
    return {"o": 2.0 ** -8 * vmax + 2 * _ulp_bf16(o),
            # the log-sum-exp: a score moved by 2^-8 of itself moves it by
            # at most that much (a log-sum-exp is 1-Lipschitz in the max norm)
            "lse": 2.0 ** -8 * np.abs(y["lse"].astype(np.float64)) + 1e-5}


def ulps(x, y, bits=16):
    """Distance in units in the last place between arrays of float bits
    (bf16 as uint16, f32 as uint32): the difference of their positions on
    the ordered line of floats."""
    dtype = np.int32 if bits == 16 else np.int64
    def ordered(u):
        u = u.astype(dtype)
        sign = 1 << (bits - 1)
        return np.where(u & sign, -(u & (sign - 1)), u)
    return np.abs(ordered(x) - ordered(y))


def compare(kind, p, x, emulated, got):
    """The GPU's outputs `got` against the emulator's: a dict with
    `comparison` ("bitwise" or "tolerance"), per output `bitwise_equal`
    (the share of elements equal to the bit), and, for MMA kinds,
    `worst_ulps` and `of_bound` (the largest |difference| / bound), for
    BITWISE kinds `mismatches` (elements that differ) and `first` (the
    first one: index, GPU value, emulator value); `ok` whether they agree
    as the kind demands."""
    import pipeline_mlir as pm
    result = dict(comparison="bitwise" if kind in BITWISE else "tolerance",
                  bitwise_equal={}, ok=True)
    if set(got) != set(emulated):
        raise ValueError(f"outputs {sorted(got)} on the GPU, {sorted(emulated)} emulated")
    for key in emulated:
        g, e = np.asarray(got[key]), np.asarray(emulated[key])
        if g.shape != e.shape or g.dtype != e.dtype:
            raise ValueError(f"{key}: GPU {g.dtype}{g.shape}, emulated {e.dtype}{e.shape}")
        bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[e.dtype.itemsize]
        differ = g.view(bits) != e.view(bits)
        result["bitwise_equal"][key] = float(1.0 - differ.mean()) if differ.size else 1.0
        if kind in BITWISE:
            result.setdefault("mismatches", {})[key] = int(differ.sum())
            if differ.any():
                i = np.unravel_index(int(np.argmax(differ)), differ.shape)
                result.setdefault("first", {})[key] = [list(map(int, i)), g[i].item(),
                                                       e[i].item()]
                result["ok"] = False
    if kind in BITWISE:
        return result
    tol = tolerance(kind, p, x, emulated)

    def values(b):
        return pm.from_bf16(b).astype(np.float64) if b.dtype == np.uint16 \
            else b.astype(np.float64)

    result["worst_ulps"], result["of_bound"] = {}, {}
    for key in tol:
        g, e = got[key], emulated[key]
        d = ulps(g, e) if e.dtype == np.uint16 else ulps(g.view(np.uint32),
                                                          e.view(np.uint32), 32)
        result["worst_ulps"][key] = int(d.max())
        over = np.abs(values(g) - values(e)) / tol[key]
        # NaN on both sides (an element neither wrote) is equal; NaN on
        # one side only is over any bound.
        over = np.where(np.isnan(values(g)) & np.isnan(values(e)), 0.0, over)
        result["of_bound"][key] = float(np.nan_to_num(over, nan=np.inf).max())
        if not result["of_bound"][key] <= 1.0:
            result["ok"] = False
    return result


def store(directory):
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for name, kind, p in cases():
        x = inputs(name, kind, p)
        y = emulate(kind, p, x)
        np.savez(directory / f"{name}.npz", **{f"in_{k}": v for k, v in x.items()},
                 **{f"out_{k}": v for k, v in y.items()})
        print(f"{name}: emulated", flush=True)


if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "python"), str(ROOT / "python" / "examples"),
                    str(ROOT / "python" / "tests")]
    os.environ["PIPELINE_MLIR_CACHE"] = os.environ["PIPELINE_MLIR_TEST_CACHE"]
    store(pathlib.Path(os.environ["PIPELINE_MLIR_TEST_CACHE"]) / "emulated")
