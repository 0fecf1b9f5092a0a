"""pm.scaled_mm (the sm_90a FP8 GEMM) without a GPU: the e4m3 helpers, the
scales' shapes, and the emulated kernel (pipeline-sim) for each scaling and
variant against a float64 reference of the decoded e4m3 inputs.

Tolerance: e4m3 products are exact in f32 and the f32 accumulation's
error is about K 2^-24 relative to sum |a b|; the scaling adds a few f32
roundings and C is rounded to bf16 (2^-9 relative), so
|err| <= 2^-7 |ref| + 1e-2 holds with margin, while a wrong scale (they
range over [0.5, 2)), a wrong k-block or a missing tile breaks it.
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
    assert fp8_gemm.choose(16, 4096, 4096) == "m64n64"
    assert fp8_gemm.choose(16, 28672, 4096) == "m64n128"
    assert fp8_gemm.choose(8192, 4096, 4096) == "bn256n"
    assert fp8_gemm.choose(256, 4096, 4096) == "bn128n"
    assert fp8_gemm.choose(16, 4096, 4096, "block") == "block_m64"
    assert fp8_gemm.choose(4096, 4096, 4096, "block") == "block"
    from pipeline_mlir.kernels import gemm_fp8_sm90
    for label in fp8_gemm.CONFIGS:   # every variant builds
        gemm_fp8_sm90.build(**fp8_gemm.CONFIGS[label])
    assert fp8_gemm.choose(40, 136, 272) == "m64n64" and fp8_gemm.choose(200, 264, 400) == "bn128n"


def test_kernel_options_and_ptx():
    from pipeline_mlir.kernels import gemm_fp8_sm90
    for bad, message in ((dict(scaling="x"), "--scaling must be one of"),
                         (dict(scaling="block", bn=256), "needs --bn 128"),
                         (dict(bn=100), "--bn must be"), (dict(stages=9), "shared memory"),
                         (dict(promote=True), "--promote needs --bn 128")):
        with pytest.raises(ValueError, match=message):
            gemm_fp8_sm90.build(**bad)
    # Block scaling: per k-block 4 wgmma k32 into a partial accumulator,
    # then 64 FMAs (the m64n128 fragment) promote it.
    text, smem = gemm_fp8_sm90.generate(scaling="block")
    assert smem == 197632
    ptx = pm.compile(text, chip="sm_90a", assemble=False).ptx
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3") == 4
    assert ptx.count("fma.rn.f32") == 64 and re.search(r"wgmma.wait_group.sync.aligned\s+0;", ptx)


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


def _check(c, ref):
    err = np.abs(pm.from_bf16(c).astype(np.float64) - ref)
    bound = 2.0 ** -7 * np.abs(ref) + 1e-2
    assert np.all(err <= bound), f"max error {err.max()} (bound there {bound.flat[err.argmax()]})"


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
