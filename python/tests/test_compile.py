"""compile(): PTX for sm_90a and sm_100a, cubins, the cache."""

import re

import numpy as np

import pytest

import pipeline_mlir as pm
from pipeline_mlir import _capi
import conftest
import handoff_ring
import tma_copy

ptxas = pytest.mark.skipif(not conftest.have_ptxas(), reason="no CUDA toolkit (ptxas)")


@pytest.mark.parametrize("chip", ["sm_90a", "sm_100a"])
def test_ptx_without_toolkit(chip):
    mod = pm.compile(handoff_ring.handoff_ring, chip=chip, assemble=False)
    assert f".target {chip}" in mod.ptx
    assert "mbarrier.try_wait.parity" in mod.ptx
    assert mod.cubin is None


@ptxas
@pytest.mark.parametrize("kernel", [handoff_ring.handoff_ring, tma_copy.tma_copy])
@pytest.mark.parametrize("chip", ["sm_90a", "sm_100a"])
def test_cubin(kernel, chip):
    mod = pm.compile(kernel, chip=chip)
    assert mod.cubin[:4] == b"\x7fELF"
    assert kernel.name in mod.signatures


@ptxas
def test_tma_copy_arms_the_payload_bytes():
    ptx = pm.compile(tma_copy.tma_copy, chip="sm_90a", assemble=False).ptx
    # One 32 x 32 i32 tile per stage: 4096 bytes armed on the full barrier.
    assert "mbarrier.arrive.expect_tx" in ptx
    assert "4096" in ptx
    assert "cp.async.bulk.tensor.2d" in ptx


@ptxas
def test_cache_hit_needs_no_compiler(monkeypatch):
    first = pm.compile(handoff_ring.handoff_ring, chip="sm_90a")
    assert not first.cached

    def no_library():
        raise pm.ToolchainError("compiler unavailable")
    monkeypatch.setattr(_capi, "library", no_library)
    again = pm.compile(handoff_ring.handoff_ring, chip="sm_90a")
    assert again.cached and again.cubin == first.cubin and again.key == first.key
    # Other options are another entry: a miss, which now needs the compiler.
    with pytest.raises(pm.ToolchainError):
        pm.compile(handoff_ring.handoff_ring, chip="sm_90a", opt_level=2)


def test_cache_off(monkeypatch):
    monkeypatch.setenv("PIPELINE_MLIR_CACHE", "off")
    assert pm.cache_dir() is None
    mod = pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False)
    assert not mod.cached


def test_missing_toolkit_is_a_clear_error(tmp_path):
    with pytest.raises(pm.CompileError, match="ptxas"):
        pm.compile(handoff_ring.handoff_ring, chip="sm_90a", cuda_path=str(tmp_path))


def test_missing_library_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(_capi, "_lib", None)
    monkeypatch.setenv("PIPELINE_MLIR_CAPI", str(tmp_path / "libPipelineMLIRCAPI.so"))
    with pytest.raises(pm.ToolchainError, match="not found"):
        pm.compile(handoff_ring.handoff_ring, chip="sm_90a", cache=False)


def test_default_chip_is_the_compilers():
    """Python compiles for the chip pipeline-compile and the C API default
    to, and rejects the options they reject."""
    import handoff_ring
    mod = pm.compile(handoff_ring.handoff_ring, assemble=False)
    assert mod.chip == "sm_100a"
    assert ".target sm_100a" in mod.ptx
    with pytest.raises(pm.CompileError, match="expects hang-keep-waiting with the hang report"):
        pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False,
                   hang_keep_waiting=True)


def test_options_are_the_compilers():
    """Python takes the compiler's options by their names, with its
    defaults; a name the compiler lacks is a TypeError naming those it has,
    and every option reaches the compile."""
    import handoff_ring
    defaults = pm.option_defaults()
    assert defaults["chip"] == "sm_100a" and defaults["opt-level"] == "3"
    assert {"hang-report", "line-info", "unroll-stages", "verify-protocol"} <= set(defaults)
    with pytest.raises(TypeError, match="unexpected option 'unrol_stages'.*unroll_stages"):
        pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False, unrol_stages=False)
    with pytest.raises(pm.CompileError, match="opt-level 0 to 3, got 7"):
        pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False, opt_level=7)
    lined = pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False, line_info=True)
    assert ".loc" in lined.ptx
    plain = pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False)
    assert ".loc" not in plain.ptx


def test_chip_table_is_the_compilers():
    """Python reads the compiler's chip table: Hopper has clusters only,
    sm_100a lowers tcgen05, sm_103a has tcgen05 that MLIR 22 cannot lower,
    and the CTA-pair rejection on sm_90a names the table's chips."""
    table = pm.chips()
    assert table["sm_90a"]["capabilities"] == {"clusters"}
    assert {"tcgen05", "tcgen05-lowering"} <= table["sm_100a"]["capabilities"]
    assert "tcgen05" in table["sm_103a"]["capabilities"]
    assert "tcgen05-lowering" not in table["sm_103a"]["capabilities"]
    assert table["sm_101a"]["ptx"][1] == 88  # renamed sm_110a in PTX ISA 9.0


@pytest.mark.parametrize("label,subtiles", [("m64n64k", 1), ("m64n128k", 2)])
def test_gemm_split_k_reduces_into_c(label, subtiles):
    # A split-K variant adds its partial tiles into C: every sub-tile store
    # of the epilogue is a bulk-group TMA reduce-add (none a plain store),
    # and the K loop of both roles runs over the unit's slice only.
    from pipeline_mlir import matmul
    from pipeline_mlir.kernels import gemm_sm90
    kernel, _ = gemm_sm90.build(**matmul.CONFIGS[label])
    assert "%arg.splits_i32: i32" in kernel.mlir(locations=False)
    ptx = pm.compile(kernel, chip="sm_90a", assemble=False).ptx
    reduce = "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group"
    assert ptx.count(reduce) == subtiles
    assert "cp.async.bulk.tensor.2d.global.shared::cta.bulk_group" not in ptx
    assert "cp.async.bulk.commit_group;" in ptx
    assert re.search(r"cp\.async\.bulk\.wait_group\s+0;", ptx)  # before exit


@pytest.mark.parametrize("label,subtiles", [("bn256s", 4), ("m64n256s", 4), ("bn128s", 2)])
def test_gemm_stream_k_fixup(label, subtiles):
    # A stream-K variant takes the workspace and flag addresses (no split
    # count: its share comes from the grid size), passes both checkers (the
    # producer and the consumers walk the same per-CTA units), and stores C
    # with plain TMA stores (no reduce: the owner of a tile adds the other
    # units' partials). A non-owner releases its flag after a warpgroup
    # barrier; the owner's leader acquires it (gpu scope, both sides) before
    # its warpgroup reads the slot.
    from pipeline_mlir import matmul
    from pipeline_mlir.kernels import gemm_sm90
    kernel, _ = gemm_sm90.build(**matmul.CONFIGS[label])
    text = kernel.mlir(locations=False)
    assert "splits_i32" not in text and "%arg.ws_i64: i64, %arg.flags_i64: i64" in text
    pm.check(kernel)
    ptx = pm.compile(kernel, chip="sm_90a", assemble=False).ptx
    store = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
    assert ptx.count(store) == subtiles
    assert "cp.reduce.async.bulk" not in ptx
    release = ptx.index("st.release.gpu.global.b32")
    assert re.search(r"bar\.sync\s+(%r\d+|[1-9]), 128;", ptx[:release])
    acquire = ptx.index("ld.acquire.gpu.global.b32")
    assert re.search(r"bar\.sync\s+(%r\d+|[1-9]), 128;", ptx[acquire:])
    with pytest.raises(ValueError, match="exclude each other"):
        gemm_sm90.build(bn=256, split_k=True, stream_k=True)


def test_gemm_split_counts():
    # Units fill the SMs, slices keep at least MIN_SLICE_BLOCKS k-blocks,
    # and a non-split variant is never split.
    from pipeline_mlir import matmul
    assert matmul.splits_for("m64n64k", 16, 4096, 14336, 132) == 2    # 64 tiles
    assert matmul.splits_for("m64n64k", 16, 1024, 8192, 132) == 8     # 16 tiles
    assert matmul.splits_for("m64n64k", 16, 1024, 1024, 132) == 2     # 16 k-blocks
    assert matmul.splits_for("m64n64k", 16, 1024, 256, 132) == 1      # 4 k-blocks
    assert matmul.splits_for("m64n64k", 4096, 4096, 8192, 132) == 1   # 4096 tiles
    assert matmul.splits_for("m64n64", 16, 1024, 8192, 132) == 1


@pytest.mark.parametrize("key", [(d, causal, v) for d in (64, 128) for causal in (False, True)
                                 for v in ("2wg-pingpong", "2wg-overlap", "2wg-serial",
                                           "3wg-overlap", "3wg-serial", "1wg-overlap",
                                           "1wg-serial")
                                 if not (d == 128 and v.startswith("3wg"))])
def test_attention_variants_check_and_compile(key):
    # Every variant pm.attention compiles passes both checkers and compiles
    # with no local memory. Per key block, each consumer warpgroup issues
    # head_dim / 16 S wgmma (K-major B: imm-trans-b 0) and 8 P V wgmma (V
    # read MN-major: imm-trans-b 1); the generated copies (prologue, loop,
    # epilogue; two with the ping-pong) each carry their share.
    from pipeline_mlir import attention_fwd
    from pipeline_mlir.ir import Module
    from pipeline_mlir.kernels import attention_sm90
    d, causal, variant = key
    kernel, smem = attention_sm90.build(head_dim=d, causal=causal, stages=2,
                                        **attention_fwd.VARIANTS[variant])
    assert smem <= 232448
    module = Module([kernel], name="attention")
    pm.check(module)
    ptx = pm.compile(module, chip="sm_90a", assemble=False).ptx
    assert ".local" not in ptx
    s_mma = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n128k16[^;]*p, 1,\s*1, 0,\s*0;", ptx)
    pv_mma = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n{d}k16[^;]*p, 1,\s*1, 0,\s*1;",
                        ptx)
    copies = 2 if variant == "2wg-pingpong" else 1
    serial = variant.endswith("serial")
    s_per_copy = (1 if serial else 2) * (d // 16)
    pv_per_copy = (1 if serial else 2) * 8
    assert len(s_mma) == copies * s_per_copy
    assert len(pv_mma) == copies * pv_per_copy
    with pytest.raises(ValueError, match="ping"):
        attention_sm90.build(head_dim=64, pingpong=True, consumers=3)
    with pytest.raises(ValueError, match="stages"):
        attention_sm90.build(head_dim=64, stages=5)
    with pytest.raises(ValueError, match="head-dim"):
        attention_sm90.build(head_dim=96)
    with pytest.raises(ValueError, match="shared memory"):
        attention_sm90.build(head_dim=128, stages=4)


@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_attention_sm100_twin_checks_and_assembles(head_dim, causal):
    # The sm_100a twin (S, P and O in TMEM) passes both checkers and is
    # assembled for sm_100a: S = Q K^T reads A and B from shared memory, P V
    # reads A (P) from tensor memory, and per tile there are head_dim / 16 S
    # MMAs per key block and 8 P V MMAs per key block (first block, loop,
    # last block).
    from pipeline_mlir.kernels import attention_sm100
    kernel, smem = attention_sm100.build(head_dim=head_dim, causal=causal)
    assert kernel.name == "attention_fwd_sm100" and kernel.block == (192, 1, 1)
    assert smem == {64: 82944, 128: 164864}[head_dim]
    module = pm.Module([kernel], name="attention_sm100")
    pm.check(module)
    mod = pm.compile(module, chip="sm_100a")
    assert mod.cubin
    ptx = mod.ptx
    s_mma = re.findall(r"tcgen05\.mma\.cta_group::1\.kind::f16\S* \[%r\d+\], %rd\d+, %rd\d+,", ptx)
    pv_mma = re.findall(r"tcgen05\.mma\.cta_group::1\.kind::f16\S* \[%r\d+\], \[%r\d+\], %rd\d+,",
                        ptx)
    assert len(s_mma) == 2 * (head_dim // 16)
    assert len(pv_mma) == 2 * 8
    assert ".local" not in ptx
    # The instruction descriptors: bf16 x bf16 -> f32, M 128; S: N 128, both
    # K-major; P V: N head_dim, V MN-major (bit 16).
    for n, b_mn in ((128, 0), (head_dim, 1)):
        idesc = 0x490 | b_mn << 16 | (n >> 3) << 17 | (128 >> 4) << 24
        assert re.search(rf"mov\.b32\s+%r\d+, {idesc};", ptx), idesc
    with pytest.raises(ValueError, match="head-dim"):
        attention_sm100.build(head_dim=96)
    with pytest.raises(ValueError, match="shared memory"):
        attention_sm100.build(head_dim=128, stages=4)


_COMPILE_IN_A_CHILD = r'''
import sys
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import pipeline_mlir as pm
from pipeline_mlir import _capi
import hanging_kernel
options = dict(hanging_kernel.OPTIONS, assemble=False)
try:
    mod = pm.compile(hanging_kernel.starved_consumer, **options)
except pm.ToolchainError as error:
    print("ToolchainError:", error)
    raise SystemExit(2)
print("cached" if mod.cached else "compiled", "library" if _capi._lib else "no-library", mod.key)
import re
sites = re.search(r"__pipeline_hang_sites\[\d+\] = \{([^}]*)\}", mod.ptx).group(1)
assert "hanging_kernel.py:" in bytes(int(b) for b in sites.split(",")).decode()
'''


@pytest.mark.parametrize("where", ["same_file", "copied_source"])
def test_cache_hit_with_options_needs_no_compiler(tmp_path, where):
    """A machine with only the kernel cache: a kernel compiled with options
    that put its Python lines into the PTX (the hang report) loads from the
    cache without the compiler library, also when its source lives in
    another directory than where the cache was filled (another machine, a
    copied checkout). The child processes run with PIPELINE_MLIR_CAPI
    naming no file, so that loading the library fails."""
    import os
    import pathlib
    import subprocess
    import sys
    import hanging
    python = str(pathlib.Path(pm.__file__).resolve().parents[1])
    kernel_source = pathlib.Path(hanging.__file__).read_text()
    filled, elsewhere = tmp_path / "filled", tmp_path / "elsewhere"
    for d in (filled, elsewhere):
        d.mkdir()
        (d / "hanging_kernel.py").write_text(kernel_source)
    (tmp_path / "child.py").write_text(_COMPILE_IN_A_CHILD)
    env = dict(os.environ, PIPELINE_MLIR_CACHE=str(tmp_path / "cache"))

    def child(directory, **extra):
        return subprocess.run([sys.executable, str(tmp_path / "child.py"), python,
                               str(directory)], capture_output=True, text=True,
                              env=dict(env, **extra), timeout=300)

    fill = child(filled)
    assert fill.returncode == 0 and fill.stdout.startswith("compiled"), fill.stdout + fill.stderr
    key = fill.stdout.split()[2]
    # Two entries: the exact key, and the key without the source's directory.
    entries = {e.name for e in (tmp_path / "cache").iterdir()}
    assert len(entries) == 2 and key in entries, entries
    if where == "copied_source":
        # A cache filled before the second entry existed gets it at a hit.
        import shutil
        shutil.rmtree(tmp_path / "cache" / (entries - {key}).pop())
        again = child(filled)
        assert again.stdout.startswith("cached"), again.stdout + again.stderr
        assert {e.name for e in (tmp_path / "cache").iterdir()} == entries
    no_library = str(tmp_path / "nowhere" / "libPipelineMLIRCAPI.so")
    run = child(filled if where == "same_file" else elsewhere, PIPELINE_MLIR_CAPI=no_library)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split()[:2] == ["cached", "no-library"], run.stdout
    # A kernel that was never compiled still needs the compiler, and says so.
    assert "stages=2" in kernel_source
    (elsewhere / "hanging_kernel.py").write_text(kernel_source.replace("stages=2", "stages=3"))
    miss = child(elsewhere, PIPELINE_MLIR_CAPI=no_library)
    assert miss.returncode == 2 and "libPipelineMLIRCAPI.so" in miss.stdout, \
        miss.stdout + miss.stderr


# Roles in warps 1 and 3, no @pm.kernel(block=...): the compiler records the
# least block the roles need (four warps) as the kernel's launch contract,
# and a launch with one warp, which would wait forever for the producer, is
# refused before the driver is touched.
def test_least_block_is_recorded_and_enforced():
    from pipeline_mlir.driver import required_threads
    import role_warps
    mod = pm.compile(role_warps.fourth_warp_producer, chip="sm_90a", assemble=False,
                     cache=False)
    name = "fourth_warp_producer"
    assert re.search(r"__pipeline_mlir_min_block_" + name + r"\s*=\s*128;", mod.ptx)
    assert required_threads(mod.ptx, name) == 128
    kernel = mod.kernel()
    a = np.zeros((64, 32), np.int32)
    with pytest.raises(pm.LaunchError, match=r"needs at least 128 threads per block along "
                       r"x .* got block \(32, 1, 1\)"):
        kernel(a, a, block=32, smem=1024)
    # 32 x 4 threads: the roles test tid.x, which stays below 32.
    with pytest.raises(pm.LaunchError, match=r"needs at least 128 threads"):
        kernel(a, a, block=(32, 4), smem=1024)
