"""pm.scaled_mm (the sm_90a FP8 GEMM) without a GPU: the e4m3 helpers, the
scales' shapes, and the emulated kernel (pipeline-sim) for each scaling and
variant against a float64 reference of the decoded e4m3 inputs.

Tolerance: e4m3 products are exact in f32 and the f32 accumulation's
error is about K 2^-24 relative to sum |a b|; the scaling adds a few f32
roundings and C is rounded to bf16 (2^-9 relative), so
|err| <= 2^-7 |ref| + 1e-2 holds with margin, while a wrong scale (they
range over [0.5, 2)), a wrong k-block or a missing tile breaks it.
Split-K rounds each of the S slices' partial tiles p_s to bf16 and adds
them into C in bf16: S + 1 roundings of at most 2^-9 of sum_s |p_s| each,
so |err| <= (S + 1) 2^-8 sum_s |p_s| + 1e-2 (the bound above for S = 1),
while a missing or doubled slice breaks it.
"""

import pathlib
import re

import numpy as np
import pytest

import pipeline_mlir as pm
from pipeline_mlir import fp8_gemm
from pipeline_mlir.errors import LaunchError

ROOT = pathlib.Path(__file__).resolve().parents[2]

needs_sim = pytest.mark.skipif(
    not (ROOT / "build" / "bin" / "pipeline-sim").exists() and
    not __import__("os").environ.get("PIPELINE_MLIR_SIM"),
    reason="pipeline-sim is not built")


def test_e4m3_decode_and_round():
    # Codes from the OCP FP8 table: 0x38 = 1, 0x7E = 448 (max), 0x08 =
    # 2^-6 (min normal), 0x01 = 2^-9 (min subnormal), 0xC0 = -2.
    d = pm.from_e4m3(np.array([0x38, 0x7E, 0x08, 0x01, 0xC0, 0x00, 0x7F], np.uint8))
    assert list(d[:6]) == [1.0, 448.0, 2.0 ** -6, 2.0 ** -9, -2.0, 0.0]
    assert np.isnan(d[6])
    codes = np.arange(256, dtype=np.uint8)
    finite = codes[~np.isnan(pm.from_e4m3(codes))]
    # Every finite code round-trips (-0 keeps its sign bit).
    assert np.array_equal(pm.to_e4m3(pm.from_e4m3(finite)), finite)
    # Ties to even (1 + 1/16 lies between 1 and 1.125: even code 0x38),
    # saturation, NaN.
    assert list(pm.to_e4m3([1.0625, 1.1875, 1000.0, -1e9, np.nan])) == [
        0x38, 0x3A, 0x7E, 0xFE, 0x7F]


def test_plan_scales():
    m, n, k = 200, 264, 400
    assert fp8_gemm.plan_scales("f", m, n, k, (), (), (1,), (1,)) == ("outer", (0, 0, 0, 0))
    assert fp8_gemm.plan_scales("f", m, n, k, (m, 1), (1, 1), (1, n), (n, 1)) == \
        ("outer", (1, 0, 1, 0))
    # Block scales, column-major A scales (as DeepGEMM keeps them).
    assert fp8_gemm.plan_scales("f", m, n, k, (m, 4), (1, m), (3, 4), (4, 1)) == \
        ("block", (1, m, 4, 1))
    with pytest.raises(LaunchError, match=r"rowwise \(\(200, 1\) and \(1, 264\)\)"):
        fp8_gemm.plan_scales("f", m, n, k, (m, 1), (1, 1), (n, 1), (1, 1))


def test_choose():
    # Decode: 64-row tiles; split-K where 64 x 128 tiles fill at most half
    # the SMs and K has 96 k-blocks or more.
    assert fp8_gemm.choose(16, 4096, 4096) == "m64n128"
    assert fp8_gemm.choose(16, 4096, 14336) == "m64n128k"
    assert fp8_gemm.choose(16, 57344, 8192) == "m64n256"
    # 1024 x 6144: 192 tiles of 128 x 256 take 2 waves on 132 SMs, 384 of
    # 128 x 128 3 waves of half the work each: the smaller tile wins, in
    # ping-pong where K is short.
    assert fp8_gemm.choose(1024, 6144, 4096) == "bn128pp"
    assert fp8_gemm.choose(1024, 6144, 12288) == "bn128n"
    assert fp8_gemm.choose(1024, 28672, 4096) == "bn256n"
    assert fp8_gemm.choose(8192, 4096, 4096) == "bn128pp"
    assert fp8_gemm.choose(8192, 57344, 8192) == "bn256n"      # too wide for ping-pong
    # Four stages only where K is long.
    assert fp8_gemm.choose(8192, 4096, 14336) == "bn256n4"
    assert fp8_gemm.choose(8192, 4096, 14336, sm_count=114) == "bn256n4"
    assert fp8_gemm.choose(16, 4096, 4096, "block") == "block_m64"
    assert fp8_gemm.choose(4096, 4096, 4096, "block") == "block"
    from pipeline_mlir.kernels import gemm_fp8_sm90
    for label in fp8_gemm.CONFIGS:   # every variant builds
        gemm_fp8_sm90.build(**fp8_gemm.CONFIGS[label])
    assert fp8_gemm.choose(40, 136, 272) == "m64n128" and fp8_gemm.choose(200, 264, 400) == "m64n128"


def test_kernel_options_and_ptx():
    from pipeline_mlir.kernels import gemm_fp8_sm90
    for bad, message in ((dict(scaling="x"), "--scaling must be one of"),
                         (dict(scaling="block", bn=256), "needs --bn 128"),
                         (dict(bn=100), "--bn must be"), (dict(stages=9), "shared memory"),
                         (dict(promote=True), "--promote needs --bn 128"),
                         (dict(split_k=True, stream_k=True), "exclude each other"),
                         (dict(split_k=True, cluster=2), "need --cluster 1"),
                         (dict(cluster=2, consumers=1), "needs --cluster 1"),
                         (dict(pingpong=True, consumers=1), "--pingpong needs 2 consumers"),
                         (dict(pingpong=True, bn=128, stages=3, epi_subtiles=2, split_k=True),
                          "--pingpong needs"),
                         (dict(pingpong=True, bn=128, stages=3, epi_subtiles=2, promote=True),
                          "--pingpong runs outer scaling"),
                         (dict(pingpong=True, scaling="block", stages=3),
                          "--pingpong runs outer scaling")):
        with pytest.raises(ValueError, match=message):
            gemm_fp8_sm90.build(**bad)
    # Block scaling: per k-block 4 wgmma k32 into a partial accumulator,
    # then 64 FMAs (the m64n128 fragment) promote it.
    text, smem = gemm_fp8_sm90.generate(scaling="block")
    assert smem == 197632
    ptx = pm.compile(text, chip="sm_90a", assemble=False).ptx
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3") == 4
    assert ptx.count("fma.rn.f32") == 64 and re.search(r"wgmma.wait_group.sync.aligned\s+0;", ptx)
    # The bf16 GEMM's trailing arguments after the scales' strides.
    names = {}
    for options in (dict(), dict(split_k=True), dict(stream_k=True), dict(cluster=2)):
        kernel, _ = gemm_fp8_sm90.build(**options)
        names[tuple(options)] = [name for name, _ in kernel.params]
    assert names[()][-5:] == ["group_m_i32", "sa_row", "sa_k", "sb_col", "sb_k"]
    assert names[("split_k",)] == names[()] + ["splits_i32"]
    assert names[("stream_k",)] == names[()] + ["ws_i64", "flags_i64"]
    assert names[("cluster",)] == names[()] and kernel.cluster == (2, 1, 1)


def _data(rng, m, n, k, mode, order="C"):
    a = pm.to_e4m3(rng.standard_normal((m, k)) * 4)
    b = pm.to_e4m3(rng.standard_normal((n, k)) * 4).T     # column-major K x N
    kb, nb = -(-k // 128), -(-n // 128)
    if mode == "tensor":
        sa, sb = np.float32(0.75), np.array([1.25], np.float32)
    elif mode == "row":
        sa = rng.uniform(0.5, 2, (m, 1)).astype(np.float32)
        sb = rng.uniform(0.5, 2, (1, n)).astype(np.float32)
    else:
        sa = np.asarray(rng.uniform(0.5, 2, (m, kb)), np.float32, order=order)
        sb = rng.uniform(0.5, 2, (nb, kb)).astype(np.float32)
    return a, b, sa, sb


def _reference(a, b, sa, sb, mode):
    x, y = pm.from_e4m3(a), pm.from_e4m3(b)
    sa, sb = np.asarray(sa, np.float64), np.asarray(sb, np.float64)
    if mode != "block":
        return (x @ y) * sa.reshape(-1, 1) * sb.reshape(1, -1)
    m, k = x.shape
    n = y.shape[1]
    out = np.zeros((m, n))
    for kb in range(sa.shape[1]):
        ks = slice(128 * kb, 128 * kb + 128)
        out += (x[:, ks] @ y[ks]) * sa[:, kb:kb + 1] * np.repeat(sb[:, kb], 128)[None, :n]
    return out


def _check(c, ref, magnitude=None, roundings=2):
    """|c - ref| <= roundings 2^-8 magnitude + 1e-2 (magnitude: |ref|)."""
    err = np.abs(pm.from_bf16(c).astype(np.float64) - ref)
    magnitude = np.abs(ref) if magnitude is None else magnitude
    bound = roundings * 2.0 ** -8 * magnitude + 1e-2
    assert np.all(err <= bound), f"max error {err.max()} (bound there {bound.flat[err.argmax()]})"


def _check_split(c, a, b, sa, sb, mode, splits):
    """Split-K's bound (the module's docstring): the reference of each K
    slice (k-blocks of 128 cut as the kernel cuts them)."""
    kbs = -(-a.shape[1] // 128)
    per = -(-kbs // splits)
    parts = []
    for lo in range(0, kbs, per):
        ks = slice(128 * lo, 128 * (lo + per))
        if mode == "block":
            parts.append(_reference(a[:, ks], b[ks], sa[:, lo:lo + per], sb[:, lo:lo + per],
                                    mode))
        else:
            parts.append(_reference(a[:, ks], b[ks], sa, sb, mode))
    assert len(parts) == splits
    _check(c, sum(parts), sum(np.abs(p) for p in parts), splits + 1)


@needs_sim
@pytest.mark.parametrize("mode, m, n, k, variant", [
    ("tensor", 200, 264, 400, None),          # bn128n, ragged M, N, K
    ("tensor", 136, 256, 256, "m64n256"),
    ("row", 40, 136, 272, None),              # m64n64
    ("row", 72, 136, 272, "m64n128"),
    ("row", 130, 256, 384, "bn256"),          # release lag, 2 consumers
    ("row", 130, 200, 256, "bn128"),
    ("row", 200, 264, 400, "bn128p"),         # promotion per k-block
    ("tensor", 72, 136, 272, "m64n128p"),
    ("block", 100, 200, 400, None),           # block, ragged K block
    ("block", 64, 136, 272, "block_m64"),
])
def test_scaled_mm_emulate(mode, m, n, k, variant):
    rng = np.random.default_rng(m * n + k)
    a, b, sa, sb = _data(rng, m, n, k, mode)
    c = pm.scaled_mm(a, b, sa, sb, emulate=True, variant=variant)
    _check(c, _reference(a, b, sa, sb, mode))


#: Variants of the program with block scaling or promotion and split-K,
#: stream-K or clusters, which CONFIGS does not list (each runs its
#: k-blocks' promotion within a slice, unit or CTA of a pair).
_MORE = {
    "test_block_k": dict(scaling="block", bn=128, stages=5, epi_subtiles=2, split_k=True),
    "test_block_s": dict(scaling="block", consumers=1, bn=128, stages=8, epi_subtiles=2,
                         stream_k=True),
    "test_block_c2": dict(scaling="block", bn=128, stages=5, epi_subtiles=2, cluster=2),
    "test_promote_s": dict(bn=128, stages=5, epi_subtiles=2, promote=True, stream_k=True),
}


def _stream_k_partials(label, m, n, k, sm_count):
    """Whether a stream-K launch has units that do not start their tile's
    K (they hand partials to an owner): a group's range of (N-tile,
    k-block) iterations starts inside a tile."""
    grid = fp8_gemm.launch_shape(label, m, n, k, sm_count)[0]
    m_tiles = -(-m // fp8_gemm._rows(label))
    kbs = -(-k // 128)
    work = -(-n // fp8_gemm.CONFIGS[label]["bn"]) * kbs
    groups = grid // m_tiles
    return any((q * work // groups) % kbs for q in range(1, groups))


@needs_sim
@pytest.mark.parametrize("mode, m, n, k, variant, sm_count", [
    # split-K: 2 slices of 9 and 8 k-blocks (17), 3 of 9, 9 and 7 (25)
    ("row", 70, 136, 2080, "m64n64k", 16),
    ("tensor", 70, 264, 2080, "m64n128k", 16),
    ("row", 200, 264, 3088, "bn128k", 20),
    ("block", 200, 264, 2080, "test_block_k", 16),
    # stream-K: owners adding the partials of later groups
    ("row", 70, 264, 640, "bn128s", 4),
    ("tensor", 70, 264, 640, "m64n128s", 8),
    ("row", 130, 264, 640, "bn256s", 8),
    ("block", 70, 264, 640, "test_block_s", 8),
    ("row", 70, 264, 640, "test_promote_s", 4),
    # clusters of 2: one pair running 3 tiles; an M-tile without its pair
    ("row", 200, 264, 400, "bn128c2", 2),
    ("tensor", 70, 264, 400, "bn256c2", 4),
    ("block", 130, 264, 400, "test_block_c2", 4),
    ("row", 200, 264, 400, "bn256n4", 132),
    # ping-pong: K = 1360 is 11 k-blocks (the last ragged), more than the
    # 6-stage ring holds; 3 x 4 ragged 128 x 128 tiles on 2 SMs (6 a CTA,
    # 3 a warpgroup) and 3 x 3 on 1 (warpgroups 5 and 4: an odd count)
    ("row", 300, 456, 1360, "bn128pp", 2),
    ("tensor", 300, 264, 1360, "bn128pp", 1),
])
def test_scaled_mm_emulate_split_stream_cluster(monkeypatch, mode, m, n, k, variant, sm_count):
    for label, config in _MORE.items():
        monkeypatch.setitem(fp8_gemm.CONFIGS, label, config)
    config = fp8_gemm.CONFIGS[variant]
    scaling = "block" if mode == "block" else "outer"
    assert fp8_gemm.resolve("f", m, n, k, scaling, variant, sm_count) == variant
    splits = fp8_gemm.splits_for(variant, m, n, k, sm_count)
    assert (splits >= 2) == bool(config.get("split_k"))
    if config.get("stream_k"):
        assert _stream_k_partials(variant, m, n, k, sm_count)
    rng = np.random.default_rng(m * n + k)
    a, b, sa, sb = _data(rng, m, n, k, mode)
    out = np.full((m, n), 0x7FC0, np.uint16)   # NaN: split-K zeroes C first
    c = pm.emulator.scaled_mm(a, b, sa, sb, out, variant=variant, sm_count=sm_count)
    if config.get("split_k"):
        _check_split(c, a, b, sa, sb, mode, splits)
    else:
        _check(c, _reference(a, b, sa, sb, mode))


def test_split_stream_cluster_launch(monkeypatch):
    # Split count: pm.gemm's rule with k-blocks of 128 (8 at least per slice).
    assert fp8_gemm.splits_for("m64n128k", 16, 4096, 4096, 132) == 4     # 32 tiles
    assert fp8_gemm.splits_for("m64n128k", 16, 1024, 8192, 132) == 8     # 64 k-blocks
    assert fp8_gemm.splits_for("m64n128k", 16, 1024, 1920, 132) == 1     # 15 k-blocks
    assert fp8_gemm.splits_for("bn128n", 16, 1024, 8192, 132) == 1
    # Grids: split-K units; stream-K groups of one CTA per M-tile; pairs.
    assert fp8_gemm.launch_shape("m64n128k", 16, 1024, 8192, 132)[:2] == (64, 256)
    assert fp8_gemm.launch_shape("bn128s", 1000, 1024, 4096, 132)[:2] == (128, 384)
    assert fp8_gemm.launch_shape("bn256c2", 1000, 1024, 4096, 132)[:2] == (32, 384)
    assert fp8_gemm.launch_shape("bn256c2", 8192, 8192, 4096, 132)[0] == 132
    assert fp8_gemm.cluster_dims("bn128c2") == (2, 1, 1) and fp8_gemm.cluster_dims("bn128s") is None
    # Ping-pong: 128-row tiles, 384 threads (the producer and 2 consumers).
    assert fp8_gemm.launch_shape("bn128pp", 1000, 1024, 4096, 132)[:2] == (64, 384)
    # More M-tiles than SMs: the tile without stream-K; a chosen split-K
    # variant whose shape does not split: the tile without split-K.
    assert fp8_gemm.resolve("f", 200, 256, 512, "outer", "bn128s", 1) == "bn128"
    assert fp8_gemm.resolve("f", 200, 256, 512, "outer", "bn128s", 2) == "bn128s"
    assert fp8_gemm.resolve("f", 16, 256, 512, "outer", "m64n64k", 132) == "m64n64k"
    monkeypatch.setattr(fp8_gemm, "choose", lambda *args: "m64n64k")
    assert fp8_gemm.resolve("f", 16, 256, 512, "outer", None, 132) == "m64n64"
    assert fp8_gemm.resolve("f", 16, 256, 4096, "outer", None, 132) == "m64n64k"


@needs_sim
def test_scaled_mm_emulate_column_major_block_scales():
    # scale_a stored M-major (strides (1, M)): the kernel reads the strides.
    rng = np.random.default_rng(7)
    a, b, sa, sb = _data(rng, 96, 256, 384, "block", order="F")
    assert sa.flags.f_contiguous and not sa.flags.c_contiguous
    out = np.full((96, 256), 0x7FC0, np.uint16)   # NaN: every element is stored
    c = pm.scaled_mm(a, b, sa, sb, out, emulate=True)
    assert c is out
    _check(c, _reference(a, b, sa, sb, "block"))


def test_scaled_mm_emulate_refuses():
    rng = np.random.default_rng(0)
    a, b, sa, sb = _data(rng, 64, 128, 256, "row")
    with pytest.raises(LaunchError, match="the .T of a C-contiguous"):
        pm.scaled_mm(a, np.ascontiguousarray(b), sa, sb, emulate=True)
    with pytest.raises(LaunchError, match="uint8 arrays of e4m3 bits"):
        pm.scaled_mm(a.astype(np.float32), b, sa, sb, emulate=True)
    with pytest.raises(LaunchError, match="K .200. must be a multiple of 16"):
        pm.scaled_mm(a[:, :200].copy(), np.ascontiguousarray(b.T[:, :200]).T, sa, sb,
                     emulate=True)
    with pytest.raises(LaunchError, match="scale_a must be float32"):
        pm.scaled_mm(a, b, sa.astype(np.float64), sb, emulate=True)
    with pytest.raises(LaunchError, match="does outer scaling, the scales ask for block"):
        pm.scaled_mm(a, b, np.ones((64, 2), np.float32), np.ones((1, 2), np.float32),
                     emulate=True, variant="bn128")
