"""kernel.emulate and the emulated pm.gemm / pm.attention: kernels run with
data in the CPU simulator (pipeline-sim), no GPU.

Tolerances. The GEMMs take bf16 inputs, accumulate in f32 and store bf16:
the reference is the float64 product of the same bf16 inputs, and the
kernel's result differs from it by the bf16 rounding of the output (half
an ulp: 2^-9 relative) plus the f32 accumulation's error (about K * 2^-24
relative to sum |a||b|, far below), so |err| <= 2^-7 |ref| + 1e-2 holds
with margin, while a wrong tile, a swapped operand or a missing k-block
breaks it by orders of magnitude. The attention kernels also round P (the
softmax weights) to bf16 before P V: |err| <= 2^-7 (P |V|) + 2^-8 |ref|
bounds it elementwise (float64 reference P); the log-sum-exp is f32.
"""

import math
import pathlib

import numpy as np
import pytest

import pipeline_mlir as pm
import dynamic_shapes
import tma_copy

ROOT = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not (ROOT / "build" / "bin" / "pipeline-sim").exists() and
    not __import__("os").environ.get("PIPELINE_MLIR_SIM"),
    reason="pipeline-sim is not built")


def _bf16(rng, shape):
    return pm.to_bf16(rng.standard_normal(shape).astype(np.float32))


def _f64(x):
    return pm.from_bf16(x).astype(np.float64)


def _check_gemm(c, a, b):
    ref = _f64(a) @ _f64(b).T
    err = np.abs(pm.from_bf16(c) - ref)
    bound = 2.0 ** -7 * np.abs(ref) + 1e-2
    assert np.all(err <= bound), f"max error {err.max()} (bound there {bound.flat[err.argmax()]})"


def _attention_ref(q, k, v, causal, scale):
    q, k, v = _f64(q), _f64(k), _f64(v)
    s = np.einsum("bqhd,bkhd->bhqk", q, k) * scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
    mx = s.max(-1, keepdims=True)
    p = np.exp(s - mx)
    l = p.sum(-1, keepdims=True)
    p = p / l
    o = np.einsum("bhqk,bkhd->bqhd", p, v)
    bound = 2.0 ** -7 * np.einsum("bhqk,bkhd->bqhd", p, np.abs(v)) + 2.0 ** -8 * np.abs(o)
    return o, (mx + np.log(l))[..., 0], bound


def _check_attention(o, lse, q, k, v, causal):
    ref, ref_lse, bound = _attention_ref(q, k, v, causal, 1 / math.sqrt(q.shape[-1]))
    err = np.abs(pm.from_bf16(o) - ref)
    assert np.all(err <= bound + 1e-4), f"max error {err.max()}"
    assert np.allclose(lse, ref_lse, rtol=1e-5, atol=1e-4)


# ------------------------------------------------------------ kernel.emulate

def test_gemm_sm90_kernel_emulate_writes_into_callers_array():
    # examples/gemm_sm90.mlir as a kernel author launches it, in host form:
    # HostTensorMaps of numpy arrays; C lands in the caller's array. M and
    # N are not multiples of the tile (TMA's zero fill and clipped stores).
    kernel = pm.compile((ROOT / "examples" / "gemm_sm90.mlir").read_text(),
                        chip="sm_90a").kernel()
    rng = np.random.default_rng(0)
    m, n, k = 200, 136, 192
    a, b = _bf16(rng, (m, k)), _bf16(rng, (n, k))
    c = np.full((m, n), 0x7FC0, np.uint16)  # NaN everywhere: each element must be stored
    result = kernel.emulate(pm.HostTensorMap(a, (128, 64), swizzle="swizzle_128b"),
                            pm.HostTensorMap(b, (256, 64), swizzle="swizzle_128b"),
                            pm.HostTensorMap(c, (64, 64), swizzle="swizzle_128b"),
                            m, n, k, 8, grid=2, block=384, smem=214016)
    assert result.instructions > 0
    _check_gemm(c, a, b)


def test_gemm_sm100_kernel_emulate():
    # The Blackwell GEMM (CTA pairs, tcgen05 MMAs into tensor memory,
    # clusters of 4): its tensor maps are !llvm.ptr parameters.
    kernel = pm.compile((ROOT / "examples" / "gemm_sm100.mlir").read_text(),
                        chip="sm_100a").kernel()
    rng = np.random.default_rng(1)
    m, n, k = 512, 256, 128
    a, b = _bf16(rng, (m, k)), _bf16(rng, (n, k))
    c = np.zeros((m, n), np.uint16)
    kernel.emulate(pm.HostTensorMap(a, (128, 64), "bf16", "swizzle_128b"),
                   pm.HostTensorMap(b, (64, 64), "bf16", "swizzle_128b"),
                   pm.HostTensorMap(c, (32, 64), "bf16", "swizzle_128b"),
                   m, n, k, grid=4, cluster=4, block=224, smem=230400)
    _check_gemm(c, a, b)


def test_python_kernel_emulate_memref_and_i32_tensor_map():
    # A @pm.kernel: a TMA-fed pipeline of i32 tiles into a memref argument.
    kernel = pm.compile(tma_copy.tma_copy, chip="sm_90a", assemble=False)
    src = np.random.default_rng(2).integers(-2**31, 2**31 - 1, (256, 128), dtype=np.int32)
    dst = np.zeros_like(src)
    kernel.emulate(pm.HostTensorMap(src, (32, 32)), dst, grid=1, block=64,
                   smem=tma_copy.SMEM)
    assert np.array_equal(dst, src)


def test_dynamic_memref_and_scalar():
    # Dynamic shapes pass pointer, offset, sizes and strides, as a launch.
    kernel = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a", assemble=False)
    src = np.arange(300 * 4, dtype=np.int32).reshape(300, 4)
    dst = np.zeros(300, np.int32)
    kernel.emulate(src, dst, 3, grid=3, block=128)
    assert np.array_equal(dst, 3 * (src[:, 0] + src[:, 3]))


# -------------------------------------------------- pm.gemm / pm.attention

def test_pm_gemm_emulated():
    rng = np.random.default_rng(3)
    a, b = _bf16(rng, (128, 256)), _bf16(rng, (192, 256))
    c = pm.gemm(a, b, emulate=True)
    assert c.dtype == np.uint16 and c.shape == (128, 192)
    _check_gemm(c, a, b)
    # out= is written in place and returned; a forced variant (two
    # consumer warpgroups, the shipped tile) gives the same product.
    out = np.zeros((128, 192), np.uint16)
    assert pm.gemm(a, b, out, variant="bn128", emulate=True) is out
    _check_gemm(out, a, b)


@pytest.mark.parametrize("n, sm_count", [(264, 1), (456, 2)])
def test_emulated_gemm_pingpong(n, sm_count):
    # Ping-pong: each consumer warpgroup computes whole 128 x 128 tiles,
    # every other tile of its CTA, from one 6-stage ring. K = 680 is 11
    # k-blocks (the last ragged), more than the ring holds: a warpgroup
    # that steps past the other's tile and waited before the other's
    # mainloop did would wait a lap ahead. 300 x 264 is 3 x 3 ragged tiles
    # on 1 SM (warpgroup 1 five, warpgroup 2 four: an odd count), 300 x 456
    # 3 x 4 on 2 SMs (six a CTA, three a warpgroup).
    from pipeline_mlir import matmul
    assert matmul.block_threads(matmul.CONFIGS["bn128pp"]) == 384
    assert matmul._rows("bn128pp") == 128
    rng = np.random.default_rng(5)
    a, b = _bf16(rng, (300, 680)), _bf16(rng, (n, 680))
    out = np.full((300, n), 0x7FC0, np.uint16)   # NaN: every element is stored
    c = pm.emulator.gemm(a, b, out, variant="bn128pp", sm_count=sm_count)
    _check_gemm(c, a, b)


def _swap_ab_variants():
    from pipeline_mlir import matmul
    return [label for label, config in matmul.CONFIGS.items() if config.get("swap_ab")]


@pytest.mark.parametrize("variant", _swap_ab_variants())
def test_emulated_gemm_swap_ab(variant):
    # Swap-AB (C^T = B A^T, written back transposed): M is two tiles of
    # the variant's width and a ragged third, N = 264 ends in a partial tile
    # of B rows (8 of 128 or 256), K = 200 in a partial k-block (8 of 64);
    # on 2 SMs each CTA runs several tiles, so the staging blocks are
    # reused after the TMA stores that read them. C starts as NaN: every
    # element is stored, and the partial tiles write nothing outside C.
    from pipeline_mlir import matmul
    width = matmul.CONFIGS[variant]["bn"]
    m = 2 * width + 36
    rng = np.random.default_rng(width)
    a, b = _bf16(rng, (m, 200)), _bf16(rng, (264, 200))
    out = np.full((m, 264), 0x7FC0, np.uint16)
    c = pm.emulator.gemm(a, b, out, variant=variant, sm_count=2)
    _check_gemm(c, a, b)


def test_emulated_gemm_swap_ab_small_m():
    # One token row, N = 8: a tile's A box reads 151 zero rows past M and
    # its B box 120 zero rows past N; the store writes the 1 x 8 of C only.
    rng = np.random.default_rng(8)
    a, b = _bf16(rng, (1, 72)), _bf16(rng, (8, 72))
    c = pm.emulator.gemm(a, b, variant="t128x152")
    _check_gemm(c, a, b)


@pytest.mark.parametrize("options", [dict(split_k=True), dict(stream_k=True),
                                     dict(cluster=2), dict(pingpong=True),
                                     dict(element=pm.f8E4M3FN)])
def test_gemm_sm90_swap_ab_refuses(options):
    from pipeline_mlir.kernels import gemm_sm90
    with pytest.raises(ValueError, match="--swap-ab runs bf16 tiles without"):
        gemm_sm90._Variant(swap_ab=True, bn=152, **options)
    with pytest.raises(ValueError, match="multiple of 8 in 8..256, got 100"):
        gemm_sm90._Variant(swap_ab=True, bn=100)


def test_emulated_gemm_sm100():
    rng = np.random.default_rng(4)
    a, b = _bf16(rng, (256, 64)), _bf16(rng, (128, 64))
    c = pm.emulator.gemm(a, b, chip="sm_100a")
    _check_gemm(c, a, b)


def test_emulated_gemm_refuses_floats():
    with pytest.raises(pm.LaunchError, match=r"uint16 array of bf16 bits \(pm.to_bf16"):
        pm.gemm(np.zeros((64, 64), np.float32), np.zeros((64, 64), np.float32),
                emulate=True)


@pytest.mark.parametrize("causal", [False, True])
def test_pm_attention_emulated_sm90(causal):
    rng = np.random.default_rng(5)
    shape = (1, 136, 2, 64)  # a partial last query and key block
    q, k, v = (_bf16(rng, shape) for _ in range(3))
    out = np.zeros(shape, np.uint16)
    o, lse = pm.attention(q, k, v, causal=causal, out=out, return_lse=True, emulate=True)
    assert o is out
    _check_attention(o, lse, q, k, v, causal)


def test_attention_emulated_sm100():
    rng = np.random.default_rng(6)
    shape = (1, 128, 1, 64)
    q, k, v = (_bf16(rng, shape) for _ in range(3))
    o, lse = pm.emulator.attention(q, k, v, return_lse=True, chip="sm_100a")
    _check_attention(o, lse, q, k, v, False)


# ------------------------------------------------------------------ errors

def _cluster_kernel():
    text = (ROOT / "test" / "Integration" / "GPU" / "cluster.mlir").read_text()
    return pm.compile(text, chip="sm_90a", assemble=False)["cluster_multicast"]


def test_cluster_kernel_runs_with_its_cluster():
    kernel = _cluster_kernel()
    src = np.random.default_rng(7).integers(-2**31, 2**31 - 1, (256, 128), dtype=np.int32)
    out = np.zeros((16, 256, 128), np.int32)
    kernel.emulate(pm.HostTensorMap(src, (16, 32)), out, grid=16, cluster=2, block=64,
                   smem=256 + 2 * 32 * 32 * 4)
    assert all(np.array_equal(out[i], src) for i in range(16))


def test_deadlock_raises_with_the_simulators_text():
    # The kernel multicasts to a CTA pair and counts the pair's arrivals
    # but does not declare its cluster: launched without one, the consumers
    # wait for the peer's half forever.
    kernel = _cluster_kernel()
    src = np.ones((256, 128), np.int32)
    out = np.zeros((16, 256, 128), np.int32)
    with pytest.raises(pm.EmulationError, match=r"every live thread is blocked") as info:
        kernel.emulate(pm.HostTensorMap(src, (16, 32)), out, grid=16, block=64,
                       smem=256 + 2 * 32 * 32 * 4)
    assert "deadlock" in [kind for kind, _ in info.value.findings]
    assert "waits for the phase of parity 0" in str(info.value)
    assert isinstance(info.value, pm.LaunchError)
    assert not out.any()  # a failed run writes nothing back


def test_wrong_argument_count_and_contract():
    kernel = pm.compile((ROOT / "examples" / "gemm_sm90.mlir").read_text(),
                        chip="sm_90a", assemble=False).kernel()
    a = np.zeros((128, 64), np.uint16)
    amap = pm.HostTensorMap(a, (128, 64), swizzle="swizzle_128b")
    with pytest.raises(pm.LaunchError, match=r"takes 7 arguments .*got 2"):
        kernel.emulate(amap, 128, grid=1, block=384, smem=214016)
    args = (amap, pm.HostTensorMap(np.zeros((256, 64), np.uint16), (256, 64),
                                   swizzle="swizzle_128b"),
            pm.HostTensorMap(np.zeros((128, 256), np.uint16), (64, 64), swizzle="swizzle_128b"),
            128, 256, 64, 8)
    with pytest.raises(pm.LaunchError, match=r"requires block \(384, 1, 1\)"):
        kernel.emulate(*args, grid=1, block=256, smem=214016)
    with pytest.raises(pm.LaunchError, match=r"expects a TMA box \(64, 64\), got \(128, 64\)"):
        kernel.emulate(*args[:2], amap, *args[3:], grid=1, block=384, smem=214016)


def test_simulator_refusal_is_a_launch_error():
    # A !llvm.ptr tensor-map parameter is not checked by type: the
    # simulator validates the map as cuTensorMapEncodeTiled would (a
    # 256-byte box row is wider than the 128-byte swizzle) and refuses.
    kernel = pm.compile((ROOT / "examples" / "gemm_sm100.mlir").read_text(),
                        chip="sm_100a", assemble=False).kernel()
    a = np.zeros((512, 128), np.uint16)
    wide = pm.HostTensorMap(a, (128, 128), "bf16", "swizzle_128b")
    with pytest.raises(pm.LaunchError, match=r"refused the launch: .*swizzle") as info:
        kernel.emulate(wide, wide, wide, 512, 256, 128, grid=4, cluster=4, block=224,
                       smem=230400)
    assert not isinstance(info.value, pm.EmulationError)


def test_host_and_device_tensor_maps_stay_apart():
    kernel = pm.compile(tma_copy.tma_copy, chip="sm_90a", assemble=False)
    src = np.zeros((256, 128), np.int32)
    # A GPU launch refuses the host descriptor before touching the driver.
    with pytest.raises(pm.LaunchError, match=r"pm.HostTensorMap, a descriptor of a host"):
        kernel(pm.HostTensorMap(src, (32, 32)), src, grid=1, block=64, smem=tma_copy.SMEM)
    # pm.TensorMap still refuses numpy arrays, and names the host form.
    with pytest.raises(pm.LaunchError, match=r"pm.HostTensorMap\(a, box"):
        pm.TensorMap(src, (32, 32))
    with pytest.raises(pm.LaunchError, match=r"TMA descriptor: pass a pm.HostTensorMap"):
        kernel.emulate(src, src, grid=1, block=64, smem=tma_copy.SMEM)
    with pytest.raises(pm.LaunchError, match=r"does not match the array's float32"):
        pm.HostTensorMap(np.zeros((64, 64), np.float32), (64, 64), element="bf16")


def test_missing_simulator(monkeypatch, tmp_path):
    monkeypatch.setenv("PIPELINE_MLIR_SIM", str(tmp_path / "no-such-sim"))
    kernel = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a", assemble=False)
    with pytest.raises(pm.ToolchainError, match=r"PIPELINE_MLIR_SIM"):
        kernel.emulate(np.zeros((4, 4), np.int32), np.zeros(4, np.int32), 1, grid=1,
                       block=128)
