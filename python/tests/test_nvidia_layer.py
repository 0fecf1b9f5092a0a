"""The typed NVIDIA layer's encodings: tcgen05 instruction and shared-memory
descriptors, Hopper's wgmma descriptor, tensor-memory addressing and
tcgen05.ld/st shapes. Expected values are written from the PTX ISA's field
tables (each field shifted into place here, independently of the layer)
and from the constants the hand-written kernels used."""

import pathlib
import re

import pytest

import pipeline_mlir as pm
from pipeline_mlir import types as T
from pipeline_mlir.errors import BuildError
from pipeline_mlir.nvidia import blackwell as bw
from pipeline_mlir.nvidia import hopper

ROOT = pathlib.Path(__file__).resolve().parents[2]


def fields(**f):
    """An instruction descriptor from the PTX ISA's fields (kind::f16,
    tf32, f8f6f4, i8 table)."""
    pos = dict(sparse_sel=0, sparse=2, saturate=3, d=4, a=7, b=10, neg_a=13, neg_b=14,
               a_mn=15, b_mn=16, n=17, m=24, shift=30)
    return sum(v << pos[k] for k, v in f.items())


def scaled_fields(**f):
    """The block-scaled kinds' table."""
    pos = dict(sparse=2, b_sf=4, a=7, b=10, neg_a=13, neg_b=14, a_mn=15, b_mn=16, n=17,
               scale=23, m=24, a_sf=29, k96=31)
    return sum(v << pos[k] for k, v in f.items())


# --- Instruction descriptors ------------------------------------------------------

def test_instr_desc_of_the_kernels():
    # gemm_sm100: M = 256 across the CTA pair, N = 256, bf16 K-major, f32.
    assert bw.instr_desc(256, 256, T.bf16, cta_group=2) == 0x10400490
    assert bw.Mma(256, 256, T.bf16, cta_group=2).idesc == 0x10400490
    # attention_sm100: S = Q K^T (both K-major), O += P V (V MN-major).
    assert bw.instr_desc(128, 128, T.bf16) == 0x8200490
    assert bw.instr_desc(128, 128, T.bf16, b_major="MN") == 0x8210490


def test_instr_desc_fields():
    assert bw.instr_desc(128, 256, T.bf16) == fields(d=1, a=1, b=1, n=32, m=8)
    assert bw.instr_desc(64, 8, T.f16, d=T.f16) == fields(d=0, a=0, b=0, n=1, m=4)
    assert bw.instr_desc(128, 64, T.f16, a_major="MN", negate_b=True) == \
        fields(d=1, a_mn=1, neg_b=1, n=8, m=8)
    assert bw.instr_desc(128, 128, "tf32") == fields(d=1, a=2, b=2, n=16, m=8)
    assert bw.instr_desc(128, 128, "e4m3", "e5m2") == fields(d=1, a=0, b=1, n=16, m=8)
    assert bw.instr_desc(128, 128, "e2m3", "e2m1", T.f16) == fields(d=0, a=3, b=5, n=16, m=8)
    assert bw.instr_desc(256, 128, "s8", "u8", "s32", saturate=True, cta_group=2) == \
        fields(saturate=1, d=2, a=1, b=0, n=16, m=16)
    assert bw.kind_of("e3m2") == "f8f6f4" and bw.kind_of(T.f16) == "f16"
    assert bw.Mma(128, 128, "e4m3").k == 32 and bw.Mma(128, 64, T.bf16).k == 16


@pytest.mark.parametrize("call, message", [
    (lambda: bw.instr_desc(192, 128, T.bf16), "M is 64 or 128"),
    (lambda: bw.instr_desc(64, 128, T.bf16, cta_group=2), "M is 128 or 256"),
    (lambda: bw.instr_desc(128, 264, T.bf16), "N is a multiple of 8 in 8..256"),
    (lambda: bw.instr_desc(256, 120, T.bf16, cta_group=2), "N is a multiple of 16"),
    (lambda: bw.instr_desc(64, 40, "s8", "s8", "s32"), r"multiple of 16 in 16..256 \(or 8"),
    (lambda: bw.instr_desc(256, 48, "s8", "s8", "s32", cta_group=2), "multiple of 32"),
    (lambda: bw.instr_desc(64, 8, "e4m3", b_major="MN"), "8-bit MN-major B"),
    (lambda: bw.instr_desc(128, 128, "s8", "s8", "s32", negate_a=True), "cannot be negated"),
    (lambda: bw.instr_desc(128, 128, T.bf16, d=T.f16), "f16 operands only"),
    (lambda: bw.instr_desc(128, 128, "e2m1", b_major="MN"), "read K-major only"),
    (lambda: bw.instr_desc(128, 128, T.bf16, "e4m3"), "B of e4m3 is not supported"),
    (lambda: bw.instr_desc(128, 128, "tf32", d=T.f16), "D of f16 is not supported"),
    (lambda: bw.instr_desc(128, 128, T.bf16, saturate=True), "saturate is for kind::i8"),
    (lambda: bw.instr_desc(128, 128, "e4m3", kind="mxf8f6f4"), "not a dense kind"),
])
def test_instr_desc_refuses(call, message):
    with pytest.raises(BuildError, match=message):
        call()


def test_instr_desc_block_scaled():
    # mxf8f6f4, e4m3 x e2m1, UE8M0 scales, scale-factor ids of A 2 and B 1.
    assert bw.instr_desc_block_scaled(128, 256, "e4m3", "e2m1", a_sf_id=2, b_sf_id=1) == \
        scaled_fields(b_sf=1, a=0, b=5, n=32, scale=1, m=8, a_sf=2)
    # mxf4 (E2M1 is 1 in its table), cta_group 2.
    assert bw.instr_desc_block_scaled(256, 128, "e2m1", kind="mxf4", cta_group=2) == \
        scaled_fields(a=1, b=1, n=16, scale=1, m=16)
    # mxf4nvf4 with UE4M3 scales, scale-factor ids 0 or 2.
    assert bw.instr_desc_block_scaled(128, 128, "e2m1", kind="mxf4nvf4", scale="ue4m3",
                                      b_sf_id=2) == \
        scaled_fields(b_sf=2, a=1, b=1, n=16, scale=0, m=8)
    # Dense N in steps of 8 at M = 128 (the ISA's shape table).
    assert bw.instr_desc(128, 120, T.bf16) == fields(d=1, a=1, b=1, n=15, m=8)
    with pytest.raises(BuildError, match="scale factors are ue8m0"):
        bw.instr_desc_block_scaled(128, 128, "e2m1", kind="mxf4", scale="ue4m3")
    with pytest.raises(BuildError, match="K = 96 needs sm_103a"):
        bw.instr_desc_block_scaled(128, 128, "e2m1", kind="mxf4nvf4", scale="ue4m3", k96=True)
    with pytest.raises(BuildError, match="a_sf_id is 0 or 1 or 2 or 3"):
        bw.instr_desc_block_scaled(128, 128, "e4m3", a_sf_id=4)
    with pytest.raises(BuildError, match="b_sf_id is 0 or 2"):
        bw.instr_desc_block_scaled(128, 128, "e2m1", kind="mxf4", b_sf_id=1)
    with pytest.raises(BuildError, match="M is 128, got 64"):
        bw.instr_desc_block_scaled(64, 64, "e4m3")
    with pytest.raises(BuildError, match="B of e4m3 is not supported"):
        bw.instr_desc_block_scaled(128, 128, "e2m1", "e4m3", kind="mxf4")


# --- Shared-memory descriptors ----------------------------------------------------

def test_wgmma_descriptor_bits():
    # K-major, 128-byte swizzle: LBO 1 (unused), SBO 1024 B >> 4, mode 1.
    k_major = hopper.SmemLayout(64, 64, T.bf16)
    assert k_major._fixed_bits() == (1 << 16) | (64 << 32) | (1 << 62)
    # MN-major 64 x 128: LBO = the next 64-column sub-tile (64 x 128 B).
    mn = hopper.SmemLayout(64, 128, T.bf16, major="MN")
    assert mn._fixed_bits() == ((8192 >> 4) << 16) | (64 << 32) | (1 << 62)
    assert hopper.SmemLayout(64, 32, T.bf16, swizzle=64)._fixed_bits() >> 62 == 2


def test_tcgen05_smem_descriptor_bits():
    # The descriptor gemm_sm100 and attention_sm100 used (nvvm's
    # tcgen05.mma_smem_desc of LBO 1, SBO 64, 128-byte swizzle):
    # 4611756662049538048 = LBO 1 | SBO 64 | version 1 (bit 46) | layout 2 (bits 61-63).
    layout = hopper.SmemLayout(128, 64, T.bf16)
    bits = bw.smem_desc_bits(layout)
    assert bits == (1 << 16) | (64 << 32) | (1 << 46) | (2 << 61) == 4611756662049538048
    # MN-major V of attention: LBO = the 64-column sub-tile's bytes >> 4.
    v = hopper.SmemLayout(128, 128, T.bf16, major="MN")
    assert bw.smem_desc_bits(v) == ((16384 >> 4) << 16) | (64 << 32) | (1 << 46) | (2 << 61)
    # Swizzle widths' layout types: 64 B -> 4, 32 B -> 6.
    assert bw.smem_desc_bits(hopper.SmemLayout(64, 32, T.bf16, swizzle=64)) >> 61 == 4
    assert bw.smem_desc_bits(hopper.SmemLayout(64, 16, T.bf16, swizzle=32)) >> 61 == 6
    assert (bw.smem_desc_bits(layout, base_offset=3) >> 49) & 7 == 3


# --- Builder-level: what the layer emits --------------------------------------------

def _build(body):
    @pm.kernel(block=128)
    def k(x: T.i32):
        body(x)
    return pm.Module([k]).mlir(locations=False)


def test_smem_descriptor_steps_and_mma():
    def body(x):
        smem = pm.dynamic_shared_memory()
        tm = bw.TensorMemory(smem, 0, columns=256)
        acc = tm.alloc(readers=128, warp=1)
        tile = pm.view(smem, 1024, (128, 64), T.bf16)
        from pipeline_mlir.nvidia import common
        a = bw.SmemDescriptor(hopper.SmemLayout(128, 64), common.smem_address(tile))
        v = bw.SmemDescriptor(hopper.SmemLayout(128, 128, major="MN"),
                              common.smem_address(tile))
        mma = bw.Mma(128, 128, T.bf16, b_major="MN")
        mma.issue(acc.at(column=x), a.step(3), v.step(1), False)
    text = _build(body)
    # K-major step 3 is 96 bytes in (+6 in the >> 4 field); MN-major step 1
    # is 16 rows of 128 bytes (+128).
    assert re.search(r"arith.constant 6 : i32", text)
    assert re.search(r"arith.constant 128 : i32", text)
    assert "4611756662049538048 : i64" in text
    assert "kind = #nvvm.tcgen05_mma_kind<f16>" in text
    assert "ctaGroup = #nvvm.cta_group<cta_1>" in text
    assert f"arith.constant {0x8210490} : i32" in text
    assert "!pipeline.tmem<columns = 256, cta_group = 1>" in text
    assert "pipeline.tmem_alloc" in text and "readers 128 warp 1" in text


def test_tmem_tile_addresses_and_ldst_shapes():
    assert bw.ldst_registers("32x32b", 32) == 32
    assert bw.ldst_registers("16x256b", 8) == 32
    assert bw.ldst_registers("16x128b", 4) == 8
    assert bw.ldst_columns("32x32b", 32) == 32
    assert bw.ldst_columns("16x64b", 4) == 8
    assert bw.ldst_columns("16x256b", 2) == 16
    with pytest.raises(BuildError, match="num is a power of 2 up to 32"):
        bw.ldst_registers("16x256b", 64)
    with pytest.raises(BuildError, match="num is a power of 2"):
        bw.ldst_registers("32x32b", 3)
    with pytest.raises(BuildError, match="the shape is one of"):
        bw.ldst_registers("32x64b", 1)

    def body(x):
        smem = pm.dynamic_shared_memory()
        tm = bw.TensorMemory(smem, 0, columns=512, cta_group=2)
        whole = tm.alloc(readers=128)
        rows = whole.warp_lanes(3)          # lanes 96..127: + (96 << 16)
        v = rows.load(32, column=64)        # + 64 columns
        rows.at(column=x).store(v, "16x256b")
        one = rows.load(1, "16x64b")
        bw.wait_ld()
        bw.wait_st()
        bw.fence_before_thread_sync()
        bw.fence_after_thread_sync()
        with pytest.raises(BuildError, match="a warp accesses its own 32 lanes"):
            whole.load(32)
        with pytest.raises(BuildError, match=r"columns 496..527 outside the tile's 512"):
            rows.load(32, column=496)
        with pytest.raises(BuildError, match=r"columns 0..63 outside the tile's 32"):
            rows.at(column=x, columns=32).store(v, "16x256b")
        tm.release()
        del one
    text = _build(body)
    assert f"arith.constant {96 << 16} : i32" in text
    assert "arith.constant 64 : i32" in text
    assert re.search(r'"nvvm.tcgen05.ld"\(%\w+\) <\{shape = #nvvm.tcgen05_ldst_shape<'
                     r'shape_32x32b>\}> : \(!llvm.ptr<6>\) -> \(vector<32xi32>\)', text)
    assert re.search(r"shape_16x64b>\}> : \(!llvm.ptr<6>\) -> \(i32\)", text)
    assert "shape_16x256b" in text and "nvvm.tcgen05.st" in text
    assert "tcgen05_wait<load>" in text and "tcgen05_wait<store>" in text
    assert "tcgen05_fence<before>" in text and "tcgen05_fence<after>" in text
    assert "pipeline.tmem_release" in text
    with pytest.raises(BuildError, match="columns is a power of 2"):
        bw.tmem_type(100)


def test_generated_layer_ops_parse_and_verify():
    """The layer's ops in generic form are accepted by the dialects (the
    NVVM ops' properties and operand segments are spelled right)."""
    from pipeline_mlir.nvidia import common

    @pm.kernel(block=128)
    def k(x: T.i32):
        smem = pm.dynamic_shared_memory()
        tm = bw.TensorMemory(smem, 0, columns=512)
        acc = tm.alloc(readers=128, warp=0)
        addr = common.smem_address(pm.view(smem, 1024, (128, 64), T.bf16))
        d = bw.SmemDescriptor(hopper.SmemLayout(128, 64), addr)
        bw.mma(acc, d.step(0), d.step(1), bw.instr_desc(128, 128, T.bf16), True)
        sf = acc.at(column=256)
        idesc = bw.scale_factor_ids(
            pm.constant(bw.instr_desc_block_scaled(128, 128, "e4m3"), T.i32), sf.addr, sf.addr)
        bw.mma_block_scale(acc, d.step(0), d.step(1), idesc, True, sf, sf.at(column=4))
        bw.commit(common.smem_ptr(addr), 1)
        bw.commit(common.smem_ptr(addr), 1, multicast=pm.constant(3, T.i16))
        tm.release()
        with pm.if_(pm.thread_id() // 32 == 0):
            tm.dealloc()
    text = pm.Module([k]).mlir()
    pm.compile(text, chip="sm_100a", assemble=False)


# --- The GEMM program ---------------------------------------------------------------

def test_gemm_sm100_example_is_current():
    from pipeline_mlir.kernels import gemm_sm100
    assert (ROOT / "examples" / "gemm_sm100.mlir").read_text() == gemm_sm100.example()
    kernel, smem = gemm_sm100.build()
    assert smem == 230400
    assert [n for n, _ in kernel.params] == ["a_map", "b_map", "c_map", "m_size", "n_size",
                                             "k_size"]
    text = gemm_sm100.example()
    assert "gpu.func @gemm_bf16_cta2(" in text and "gpu.module @gemm_sm100" in text
    assert "nvvm.cluster_dim = array<i32: 4, 1, 1>" in text
    assert "nvvm.reqntid = array<i32: 224, 1, 1>" in text
    assert f"arith.constant {0x10400490} : i32" in text
    assert "chips: sm_100a" in text and "GENERATED" in text


# --- Builder loops the GEMM program uses ---------------------------------------------

def test_while_loop_and_i32_range():
    @pm.kernel(block=32)
    def k(out: pm.memref((4,), pm.i32), n: pm.i32):
        true = pm.constant(1, pm.i1)
        with pm.while_loop(carry=[pm.constant(0, pm.i32), true]) as loop:
            (t,) = loop.carried
            with pm.range(0, n, carry=[t]) as inner:   # an i32 loop
                (acc,) = inner.carried
                inner.next(acc + inner.iv)
            (total,) = inner.results
            loop.next(total + 1, total < 100)
        (last,) = loop.results
        with pm.while_loop(carry=[true]) as spin:      # only the flag
            spin.next(last > 5)
        out[0] = last
    text = pm.Module([k]).mlir(locations=False)
    assert re.search(r"= scf\.while \(%\w+ = %\w+, %\w+ = %\w+\) : \(i32, i1\) -> \(i32\)", text)
    assert re.search(r"scf\.condition\(%\w+\) %\w+ : i32", text)
    assert re.search(r"\^bb0\(%\w+: i32\):", text)
    assert re.search(r"^\s*scf\.while \(%\w+ = %\w+\) : \(i1\) -> \(\)", text, re.M)
    assert re.search(r"scf\.for %\w+ = %\w+ to %arg\.n step %\w+ iter_args\(.*\) -> \(i32\) : i32",
                     text)
    pm.compile(text, chip="sm_90a", assemble=False)
    with pytest.raises(BuildError, match="the last carried value is the i1 flag"):
        pm.Module([pm.kernel(lambda: _bad_while())]).mlir()


def _bad_while():
    with pm.while_loop(carry=[pm.constant(0, pm.i32)]) as loop:
        loop.next(pm.constant(0, pm.i32))


# --- FP8 wgmma operands -------------------------------------------------------------

def test_fp8_smem_layout_k_steps():
    # 8-bit elements: 128 per 128-byte swizzle row, wgmma K 32 = 32 bytes.
    a = hopper.SmemLayout(128, 128, T.f8E4M3FN)
    assert (a.atom_cols, a.row_bytes, a.k_step, a.k_steps) == (128, 128, 32, 4)
    assert [a.k_offset(k) for k in range(4)] == [0, 32, 64, 96]
    # The same descriptor bits as a bf16 K-major tile of 128-byte rows.
    assert a._fixed_bits() == hopper.SmemLayout(128, 64, T.bf16)._fixed_bits() \
        == (1 << 16) | (64 << 32) | (1 << 62)
    # Two swizzle rows of K: K step 4 starts the second 64 x 128 B sub-tile.
    wide = hopper.SmemLayout(64, 256, T.f8E5M2)
    assert wide.k_steps == 8 and wide.k_offset(4) == 64 * 128 and wide.k_offset(5) == 8224
    # bf16: 16 per K step, 32 bytes too.
    assert hopper.SmemLayout(64, 64, T.bf16).k_offset(3) == 96
    with pytest.raises(BuildError, match="not whole"):
        hopper.SmemLayout(64, 64, T.f8E4M3FN)


def test_fp8_mma_emits_k32_and_refuses_mixed_widths():
    from pipeline_mlir.nvidia import common
    la, lb = hopper.SmemLayout(64, 128, T.f8E4M3FN), hopper.SmemLayout(128, 128, T.f8E5M2)

    @pm.kernel(block=128)
    def k(x: T.i32):
        smem = pm.dynamic_shared_memory()
        addr = common.smem_address(pm.view(smem, 1024, (64, 128), T.f8E4M3FN))
        acc = hopper.mma_tile(hopper.Accumulator.undef(128), la.descriptors(addr),
                              lb.descriptors(addr + 8192), a_layout=la, b_layout=lb,
                              overwrite=True)
        hopper.wait_group(0)
        common.store(acc[0], common.global_ptr(x.cast(T.i64)))
    text = pm.Module([k]).mlir(locations=False)
    assert text.count("shape = #nvvm.shape<m = 64, n = 128, k = 32>") == 4
    assert "typeA = #nvvm.wgmma_type<e4m3>" in text
    assert "typeB = #nvvm.wgmma_type<e5m2>" in text
    # The descriptors of K steps 1-3: +32 bytes each (+2 in the >> 4 field).
    assert re.search(r"arith.constant 2 : i64", text) and re.search(r"arith.constant 6 : i64",
                                                                     text)
    ptx = pm.compile(text, chip="sm_90a", assemble=False).ptx
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2") == 4

    @pm.kernel(block=128)
    def bad(x: T.i32):
        hopper.mma_async(hopper.Accumulator.undef(64), x.cast(T.i64), x.cast(T.i64),
                         a_layout=la, b_layout=hopper.SmemLayout(64, 64, T.bf16))
    with pytest.raises(BuildError, match="make no wgmma"):
        pm.Module([bad]).mlir()

    @pm.kernel(block=128)
    def transposed(x: T.i32):
        hopper.mma_async(hopper.Accumulator.undef(64), x.cast(T.i64), x.cast(T.i64),
                         a_layout=la, b_layout=hopper.SmemLayout(32, 128, T.f8E4M3FN,
                                                                 major="MN"))
    with pytest.raises(BuildError, match="read K-major only"):
        pm.Module([transposed]).mlir()
