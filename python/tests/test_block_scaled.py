"""The block-scaled sm_100a GEMMs (kernels/gemm_block_scaled_sm100.py) and
their layer (`blackwell.BlockScaledPayload`, `cp`, `mma_block_scale_vec`):
the payload's sizes and TMEM placement, the layer's checks, the PTX, and
the MXFP8 kernel emulated on numpy data against float64 (the lit test
test/Sim/data-block-scaled.test runs both formats at more shapes)."""

import numpy as np
import pytest

import pipeline_mlir as pm
from pipeline_mlir import types as T
from pipeline_mlir.errors import BuildError
from pipeline_mlir.kernels import gemm_block_scaled_sm100 as bsg
from pipeline_mlir.nvidia import blackwell as bw


def test_payload_mxfp8():
    pay = bw.BlockScaledPayload("mxfp8", "e4m3", "e5m2", stages=4)
    assert (pay.kind, pay.scale, pay.vec, pay.block_k, pay.k_steps) == \
        ("mxf8f6f4", "ue8m0", 32, 128, 4)
    # A k-block: 2 x 16 KiB of data, one 512-byte atom of factors each.
    assert pay.stage_bytes == 2 * 16384 + 2 * 512
    types = pay.memref_types()
    assert [t.element.text for t in types] == ["f8E4M3FN", "f8E5M2", "f8E8M0FNU", "f8E8M0FNU"]
    assert types[2].shape == (4, 1, 1, 1, 32, 16)
    # One factor per row per MMA: all 4 steps read the atom's 4 columns,
    # byte j (the SF ID) for step j.
    assert [pay.sf_column(j, 128) for j in range(4)] == [0, 0, 0, 0]
    assert [pay.sf_id(j) for j in range(4)] == [0, 1, 2, 3]
    assert pay.sf_columns == 8 and pay.tmem_columns(128) == 256
    # The SF IDs in bits 29-30 (A) and 4-5 (B).
    assert pay.idesc(3) >> 29 & 3 == 3 and pay.idesc(3) >> 4 & 3 == 3
    # cta_group 2: M = 256 across the pair, half of B's rows in each CTA,
    # the scale factors of all of them.
    pair = bw.BlockScaledPayload("mxfp8", stages=4, cta_group=2)
    assert pair.idesc(0) >> 24 & 31 == 256 >> 4 and pair.b_rows == 64
    assert pair.memref_types()[1].shape == (4, 1, 64, 128)
    assert pair.memref_types()[3].shape == (4, 1, 1, 1, 32, 16)


def test_payload_nvfp4():
    pay = bw.BlockScaledPayload("nvfp4", stages=4)
    assert (pay.kind, pay.scale, pay.vec, pay.block_k, pay.atoms) == \
        ("mxf4nvf4", "ue4m3", 16, 256, 4)
    # e2m1 held as packed bytes: 128 x 128 bytes a tile, 4 atoms of factors.
    types = pay.memref_types()
    assert types[0].element == T.i8 and types[0].shape == (4, 1, 128, 128)
    assert pay.stage_bytes == 2 * 16384 + 2 * 2048
    # 4 factors (a whole cell) per MMA: step j has its own 4 columns.
    assert [pay.sf_column(j, 128) for j in range(4)] == [0, 4, 8, 12]
    assert [pay.sf_id(j) for j in range(4)] == [0, 0, 0, 0]
    assert pay.sf_box(128) == (128, 16, 1)


def test_layer_checks():
    with pytest.raises(BuildError, match="mxfp8 or nvfp4|one of mxfp8, nvfp4"):
        bw.BlockScaledPayload("mxfp6")
    with pytest.raises(BuildError, match="A is e2m1"):
        bw.BlockScaledPayload("nvfp4", "e4m3")
    with pytest.raises(ValueError, match="A is e4m3 or e5m2"):
        bsg.build("mxfp8", "e2m1")

    @pm.kernel(block=32)
    def bad_cp(x: T.i32):
        bw.cp(pm.constant(0, T.i32), pm.constant(0, T.i64), "32x128b")
    with pytest.raises(BuildError, match="multicast is warpx4"):
        pm.Module([bad_cp]).mlir()

    @pm.kernel(block=32)
    def bad_vec(x: T.i32):
        z = pm.constant(0, T.i32)
        bw.mma_block_scale_vec(z, pm.constant(0, T.i64), pm.constant(0, T.i64), 0, True, z, z,
                               kind="mxf8f6f4", vec=16)
    with pytest.raises(BuildError, match="no scale vector of 16"):
        pm.Module([bad_vec]).mlir()


@pytest.mark.parametrize("fmt,cg,cluster,features,mma", [
    ("mxfp8", 1, 1, None, "kind::mxf8f6f4.block_scale.scale_vec::1X"),
    ("nvfp4", 1, 1, "+ptx87", "kind::mxf4nvf4.block_scale.scale_vec::4X"),
    ("mxfp8", 2, 2, None, "kind::mxf8f6f4.block_scale.scale_vec::1X"),
    ("mxfp8", 2, 4, None, "kind::mxf8f6f4.block_scale.scale_vec::1X"),
    ("nvfp4", 2, 4, "+ptx87", "kind::mxf4nvf4.block_scale.scale_vec::4X"),
])
def test_ptx(fmt, cg, cluster, features, mma):
    kernel, smem = bsg.build(fmt, cta_group=cg, cluster=cluster)
    assert smem == bsg.smem_bytes(fmt, cta_group=cg, cluster=cluster)
    compiled = pm.compile(kernel, chip="sm_100a", assemble=False, features=features)
    ptx = compiled.ptx if isinstance(compiled.ptx, str) else next(iter(compiled.ptx.values()))
    assert ptx.count(f"tcgen05.mma.cta_group::{cg}.{mma}") == 4
    assert f"tcgen05.cp.cta_group::{cg}.32x128b.warpx4" in ptx
    # Two pairs per cluster: B and SFB each one multicast load.
    multicast = ".mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2"
    assert ptx.count(multicast) == (2 if cluster == 4 else 0)
    if cluster > 1:
        assert f".reqnctapercluster {cluster}, 1, 1" in ptx


def test_variants():
    """cta_group and cluster: either implies the other; the kernel names."""
    assert bsg.shape() == (1, 1) and bsg.shape(2) == (2, 2) and bsg.shape(cluster=4) == (2, 4)
    assert [bsg.kernel_name("nvfp4", cluster=c) for c in (1, 2, 4)] == \
        ["gemm_nvfp4_sm100", "gemm_nvfp4_cta2_sm100", "gemm_nvfp4_c4_sm100"]
    assert bsg.smem_bytes("mxfp8", cluster=4) == bsg.smem_bytes("mxfp8", cta_group=2) == 136192
    with pytest.raises(ValueError, match="cta_group 1 runs in clusters of 1, got 4"):
        bsg.build("mxfp8", cta_group=1, cluster=4)
    with pytest.raises(ValueError, match="cta_group 2 runs in clusters of 2 or 4, got 8"):
        bsg.build("mxfp8", cta_group=2, cluster=8)


def _decode_e4m3(c):
    c = c.astype(np.int64)
    e, m = (c >> 3) & 15, c & 7
    v = np.where(e == 0, m / 8.0 * 2.0 ** -6, (1 + m / 8.0) * np.exp2(e - 7.0))
    return np.where(c & 0x80, -v, v)


def test_emulate_mxfp8():
    """128 x 128 x 256 (2 k-blocks) through kernel.emulate: C = sum_k (a
    sfa) (b sfb), bf16 rounding and the f32 sum bound (test/Sim/
    check_data.py's tolerance)."""
    M = N = 128
    K = 256
    rng = np.random.default_rng(7)
    code = lambda shape: ((rng.integers(0, 2, shape) << 7) | (rng.integers(4, 12, shape) << 3)
                          | rng.integers(0, 8, shape)).astype(np.uint8)
    a, b = code((M, K)), code((N, K))
    sfa = rng.integers(124, 131, (M, K // 32)).astype(np.uint8)
    sfb = rng.integers(124, 131, (N, K // 32)).astype(np.uint8)

    def atoms(sf):
        # (row groups, k chunks, 32, 16): row r0 + 32 r1, factor 4 c + s at
        # byte 16 r0 + 4 r1 + s of atom (g, c).
        rows, nf = sf.shape
        out = np.zeros((rows // 128, nf // 4, 32, 4, 4), np.uint8)
        r = np.arange(rows)
        f = np.arange(nf)
        out[(r // 128)[:, None], (f // 4)[None, :], (r % 32)[:, None], ((r % 128) // 32)[:, None],
            (f % 4)[None, :]] = sf
        return out.reshape(rows // 128, nf // 4 * 4, 128)

    c = np.full((M, N), 0xFFFF, np.uint16)
    kernel, smem = bsg.build("mxfp8")
    mod = pm.compile(kernel, chip="sm_100a", assemble=False)
    mod.emulate(pm.HostTensorMap(a, (128, 128), "u8", "swizzle_128b"),
                pm.HostTensorMap(b, (128, 128), "u8", "swizzle_128b"),
                pm.HostTensorMap(atoms(sfa), (1, 4, 128), "u8"),
                pm.HostTensorMap(atoms(sfb), (1, 4, 128), "u8"),
                pm.HostTensorMap(c, (32, 64), "bf16", "swizzle_128b"),
                M, N, K, grid=1, block=224, smem=smem)
    xa = _decode_e4m3(a) * np.repeat(np.exp2(sfa - 127.0), 32, axis=1)
    xb = _decode_e4m3(b) * np.repeat(np.exp2(sfb - 127.0), 32, axis=1)
    ref = xa @ xb.T
    got = (c.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    tol = 2.0 ** -8 * np.abs(ref) + 2 * K * 2.0 ** -24 * (np.abs(xa) @ np.abs(xb).T)
    assert np.all(np.abs(got - ref) <= tol)


#: e2m1 codes 0..7 (bit 3: the sign).
_E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0])


def _sf_atoms(codes, groups, chunks, pad):
    """Scale-factor codes (rows x factors) in the kernels' global layout, a
    (groups, 4 chunks, 128) u8 array: the 512-byte atom of 128-row group g
    and factors 4c .. 4c + 3 at [g, 4c .. 4c + 3], row r0 + 32 r1's factor
    4c + s at byte 16 r0 + 4 r1 + s; padding rows and factors `pad`."""
    rows, nf = codes.shape
    full = np.full((groups * 128, chunks * 4), pad, np.uint8)
    full[:rows, :nf] = codes
    out = np.zeros((groups, chunks, 32, 4, 4), np.uint8)
    r = np.arange(groups * 128)
    f = np.arange(chunks * 4)
    out[(r // 128)[:, None], (f // 4)[None, :], (r % 32)[:, None], ((r % 128) // 32)[:, None],
        (f % 4)[None, :]] = full
    return out.reshape(groups, chunks * 4, 128)


def _emulate_cluster4(fmt, m, n, k, resident=None):
    """The 4x1-cluster variant run by kernel.emulate on random data of the
    format: (C as float64, the float64 reference sum_k (a sfa) (b sfb) (x
    the NVFP4 global scale), test/Sim/check_data.py's tolerance, C's bits)."""
    rng = np.random.default_rng(11)
    vec, block_k = (32, 128) if fmt == "mxfp8" else (16, 256)
    nf = -(-k // vec)
    chunks = -(-nf // 4)
    if fmt == "mxfp8":
        # e4m3 with exponents 2^-3 .. 2^4; ue8m0 scales 2^-4 .. 2^4.
        code = lambda shape: ((rng.integers(0, 2, shape) << 7) | (rng.integers(4, 12, shape) << 3)
                              | rng.integers(0, 8, shape)).astype(np.uint8)
        a_codes, b_codes = code((m, k)), code((n, k))
        a, b = a_codes, b_codes
        xa_data, xb_data = _decode_e4m3(a_codes), _decode_e4m3(b_codes)
        sf_code = lambda rows: rng.integers(123, 132, (rows, nf)).astype(np.uint8)
        sf_value = lambda c: np.exp2(c - 127.0)
        pad, g = 127, 1.0
    else:
        # All 16 e2m1 codes, two a byte (the even k in the low nibble);
        # ue4m3 scales 2^-2 .. 2^2 with any mantissa.
        a_codes, b_codes = rng.integers(0, 16, (m, k)), rng.integers(0, 16, (n, k))
        pack = lambda c: (c[:, 0::2] | (c[:, 1::2] << 4)).astype(np.uint8)
        a, b = pack(a_codes), pack(b_codes)
        e2m1 = lambda c: np.where(c & 8, -1.0, 1.0) * _E2M1[c & 7]
        xa_data, xb_data = e2m1(a_codes), e2m1(b_codes)
        sf_code = lambda rows: ((rng.integers(5, 10, (rows, nf)) << 3)
                                | rng.integers(0, 8, (rows, nf))).astype(np.uint8)
        sf_value = _decode_e4m3
        pad, g = 0x38, float(np.float32(0.375))
    sfa, sfb = sf_code(m), sf_code(n)
    c = np.full((m, n), 0xFFFF, np.uint16)
    kernel, smem = bsg.build(fmt, cluster=4)
    mod = pm.compile(kernel, chip="sm_100a", assemble=False,
                     features="+ptx87" if fmt == "nvfp4" else None)
    sf_box = 4 * (block_k // vec // 4)
    args = [pm.HostTensorMap(a, (128, 128), "u8", "swizzle_128b"),
            pm.HostTensorMap(b, (32, 128), "u8", "swizzle_128b"),
            pm.HostTensorMap(_sf_atoms(sfa, -(-m // 128), chunks, pad), (1, sf_box, 128), "u8"),
            # SFB: a quarter a CTA, multicast to the cluster.
            pm.HostTensorMap(_sf_atoms(sfb, -(-n // 128), chunks, pad), (1, sf_box // 4, 128),
                             "u8"),
            pm.HostTensorMap(c, (32, 64), "bf16", "swizzle_128b"), m, n, k]
    if fmt == "nvfp4":
        args.append(g)
    grid = 4 * -(-m // 512) * -(-n // 128)
    run = mod.emulate(*args, grid=grid, block=224, cluster=(4, 1, 1), smem=smem,
                      resident_clusters=resident)
    if resident:
        assert f"{grid // 4 - resident} cluster(s) canceled by try_cancel" in run.output
    xa = xa_data * np.repeat(sf_value(sfa), vec, axis=1)[:, :k]
    xb = xb_data * np.repeat(sf_value(sfb), vec, axis=1)[:, :k]
    ref = g * (xa @ xb.T)
    got = (c.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    tol = 2.0 ** -8 * np.abs(ref) + 2 * k * 2.0 ** -24 * abs(g) * (np.abs(xa) @ np.abs(xb).T)
    return got, ref, tol, c


@pytest.mark.parametrize("fmt,m,n,k,resident", [
    ("mxfp8", 600, 200, 336, None),
    ("nvfp4", 520, 136, 544, 1),
])
def test_emulate_cluster4(fmt, m, n, k, resident):
    """The 4x1-cluster variant (two CTA pairs, B and SFB multicast) on
    ragged shapes of 2 x 2 cluster tiles (the second cluster along M partly
    or wholly past M, the second tile along N partly past N, the last
    k-block partial) against float64; NVFP4 on one resident cluster, which
    cancels the 3 others and runs their tiles."""
    got, ref, tol, c = _emulate_cluster4(fmt, m, n, k, resident)
    assert np.all(c != 0xFFFF), "elements left unwritten"
    assert np.all(np.abs(got - ref) <= tol)


def test_emulate_cluster4_seeded_slot(monkeypatch):
    """A seeded multicast bug only the data shows: both pairs' 32 rows of B
    land in rows 0..31 of the B buffers (each CTA's rows 32..63 are never
    written). Every barrier still receives its bytes, so both checkers and
    the schedules are silent (test/Sim/data-block-scaled-cluster4.test
    seeds a wrong mask, which they catch); the product is wrong."""
    place_init = bsg.Place.__init__

    def one_slot(self, *args):
        place_init(self, *args)
        self.b_slot = (self.rank * 0).cast(T.index)
    monkeypatch.setattr(bsg.Place, "__init__", one_slot)
    got, ref, tol, _ = _emulate_cluster4("mxfp8", 256, 128, 128)
    assert np.mean(np.abs(got - ref) > tol) > 0.25


def test_cp_shapes():
    """Every tcgen05.cp shape of the layer lowers to its PTX form."""
    @pm.kernel(block=128)
    def copies(x: T.i32):
        smem = pm.dynamic_shared_memory()
        tm = bw.TensorMemory(smem, 0, columns=32)
        tile = tm.alloc(readers=128, warp=0)
        desc = bw.sf_desc(pm.constant(64, T.i32))
        for shape, multicasts in bw.CP_SHAPES.items():
            for mc in multicasts:
                bw.cp(tile, desc, shape, mc)
        tm.release()
        with pm.if_(pm.thread_id() // 32 == 0):
            tm.dealloc()
    ptx = pm.compile(copies, chip="sm_100a", assemble=False).ptx
    ptx = ptx if isinstance(ptx, str) else next(iter(ptx.values()))
    for form in ("128x256b", "4x256b", "128x128b", "64x128b.warpx2::02_13",
                 "64x128b.warpx2::01_23", "32x128b.warpx4"):
        assert f"tcgen05.cp.cta_group::1.{form} " in ptx or \
            f"tcgen05.cp.cta_group::1.{form}\t" in ptx, form
