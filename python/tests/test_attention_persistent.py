"""The persistent variants of pm.attention ("-p" in attention_fwd.VARIANTS:
kernels/attention_sm90.py with persistent=True, a grid of the CTAs the GPU
holds at once, each looping over query blocks): both checkers and the
compilation, the launch grid, and the kernels run in the emulator against a
float64 reference (test_emulate.py's) on shapes with many tiles per CTA.
"""

import math
import pathlib
import re

import numpy as np
import pytest

import pipeline_mlir as pm
from pipeline_mlir import attention_fwd
from pipeline_mlir.kernels import attention_sm90
from test_emulate import _bf16, _check_attention

ROOT = pathlib.Path(__file__).resolve().parents[2]

PERSISTENT = [v for v, o in attention_fwd.VARIANTS.items() if o.get("persistent")]

needs_sim = pytest.mark.skipif(
    not (ROOT / "build" / "bin" / "pipeline-sim").exists() and
    not __import__("os").environ.get("PIPELINE_MLIR_SIM"),
    reason="pipeline-sim is not built")


def test_persistent_variants_are_listed():
    # Each persistent variant is the persistent twin of a one-CTA-per-block
    # variant, and the package compiles it (fill_cache.py, the bench's
    # --compile-only).
    assert PERSISTENT == ["2wg-pingpong-p", "2wg-overlap-p", "2wg-serial-p", "1wg-overlap-p",
                          "1wg-serial-p"]
    for v in PERSISTENT:
        twin = dict(attention_fwd.VARIANTS[v])
        del twin["persistent"]
        assert attention_fwd.VARIANTS[v[:-2]] == twin
        assert (64, True, v) in attention_fwd.configs()
        assert (128, False, v) in attention_fwd.configs()


@pytest.mark.parametrize("key", [(d, causal, v) for d in (64, 128) for causal in (False, True)
                                 for v in PERSISTENT])
def test_persistent_variants_check_and_compile(key):
    # Both checkers pass (the stages' phases carried through the tile loop,
    # Q freed inside the key-block loop, the turns passed from tile to
    # tile), no local memory, the batch count as the last argument, and per
    # key block each consumer warpgroup's head_dim / 16 S wgmma and 8 P V
    # wgmma in each copy of the mainloop (the ping-pong's two warpgroups
    # each have their own).
    d, causal, variant = key
    kernel, smem = attention_sm90.build(head_dim=d, causal=causal,
                                        **attention_fwd.VARIANTS[variant])
    assert smem <= attention_sm90.SMEM_LIMIT
    module = pm.Module([kernel], name="attention")
    assert pm.check(module) == []
    text = module.mlir()
    assert re.search(r"%arg\.scale_log2: f32, %arg\.batch_i32: i32\)", text)
    assert "gpu.block_id y" not in text and "gpu.block_id z" not in text
    ptx = pm.compile(module, chip="sm_90a", assemble=False).ptx
    assert ".local" not in ptx
    s_mma = re.findall(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16[^;]*p, 1,\s*1, 0,\s*0;", ptx)
    pv_mma = re.findall(rf"wgmma\.mma_async\.sync\.aligned\.m64n{d}k16[^;]*p, 1,\s*1, 0,\s*1;",
                        ptx)
    copies = 2 if "pingpong" in variant else 1
    per_block = 1 if "serial" in variant else 2
    assert len(s_mma) == copies * per_block * (d // 16)
    assert len(pv_mma) == copies * per_block * 8
    # The O store is waited for (its reads) before P is written again, and
    # once more (the writes) before the exit, not after every tile.
    assert len(re.findall(r"cp\.async\.bulk\.wait_group\.read\s+0;", ptx)) == copies
    assert len(re.findall(r"cp\.async\.bulk\.wait_group\s+0;", ptx)) == 1


def test_persistent_grid():
    # One CTA per SM (two for one consumer warpgroup where shared memory
    # holds two), or one per unit of work when there are fewer: a query
    # block, or with the causal mask a block and its mirror.
    grid = attention_fwd.grid
    assert grid(128, False, "2wg-pingpong-p", 8, 1024, 32, 132) == (132, 1, 1)
    assert grid(64, False, "1wg-overlap-p", 16, 512, 16, 132) == (264, 1, 1)
    assert grid(128, False, "1wg-overlap-p", 16, 512, 16, 132) == (132, 1, 1)  # 181 KB each
    assert grid(64, False, "2wg-serial-p", 1, 300, 5, 132) == (15, 1, 1)
    assert grid(64, True, "2wg-serial-p", 1, 300, 5, 132) == (10, 1, 1)     # 3 blocks: 2 units
    assert grid(64, True, "1wg-overlap-p", 2, 256, 3, 132) == (12, 1, 1)
    assert grid(64, False, "1wg-overlap", 2, 300, 3, 132) == (5, 3, 2)
    assert grid(128, True, "2wg-pingpong", 2, 300, 3, 1) == (3, 3, 2)
    assert attention_fwd.extra_args("2wg-pingpong-p", 7) == (7,)
    assert attention_fwd.extra_args("2wg-pingpong", 7) == ()


def _inputs(shape, d, seed):
    rng = np.random.default_rng(seed)
    return [_bf16(rng, shape + (d,)) for _ in range(3)]


@needs_sim
@pytest.mark.parametrize("variant", PERSISTENT)
@pytest.mark.parametrize("d", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
def test_persistent_emulated(variant, d, causal):
    # 2 batches x 3 heads x 300 rows on 2 SMs: 18 query blocks of 128 rows
    # (30 of 64) on 2 to 4 CTAs, a partial last query and key block, 3 (or
    # 5) query blocks per head: causal, units of a block and its mirror
    # and one of the middle block alone. The output starts as NaN: every
    # element must be written.
    q, k, v = _inputs((2, 300, 3), d, d + causal)
    out = np.full(q.shape, 0x7FC0, np.uint16)
    o, lse = pm.emulator.attention(q, k, v, causal=causal, out=out, return_lse=True,
                                   variant=variant, sm_count=2)
    assert o is out
    _check_attention(o, lse, q, k, v, causal)


@needs_sim
@pytest.mark.parametrize("variant, d", [("2wg-pingpong-p", 128), ("1wg-overlap-p", 64),
                                        ("2wg-serial-p", 64)])
@pytest.mark.parametrize("causal", [False, True])
def test_persistent_emulated_one_key_block(variant, d, causal):
    # seqlen 77: one key block per tile, so Q is freed right after the
    # first S; 6 tiles on one SM.
    q, k, v = _inputs((3, 77, 2), d, 7)
    out = np.full(q.shape, 0x7FC0, np.uint16)
    o, lse = pm.emulator.attention(q, k, v, causal=causal, out=out, return_lse=True,
                                   variant=variant, sm_count=1)
    _check_attention(o, lse, q, k, v, causal)


@needs_sim
@pytest.mark.parametrize("variant, d, causal", [("2wg-pingpong-p", 64, False),
                                                ("2wg-pingpong-p", 64, True),
                                                ("1wg-overlap-p", 64, True)])
def test_persistent_random_schedules(variant, d, causal):
    # The launch of emulator.attention with two seeded random schedules
    # after the round-robin one (thread order, quanta, when the TMA bytes
    # land): no deadlock or lost arrival as stages, the Q stage and the
    # turns go round from one tile to the next.
    batch, seqlen, heads = 2, 200, 2
    q, k, v = _inputs((batch, seqlen, heads), d, 11)
    out = np.full(q.shape, 0x7FC0, np.uint16)
    lse = np.zeros((batch, heads, seqlen), np.float32)
    kernel, smem = attention_fwd._kernel((d, causal, variant))
    bm = 64 * attention_fwd.VARIANTS[variant]["consumers"]
    rows = (batch, seqlen, heads * d)
    maps = [pm.HostTensorMap(q.reshape(rows), (1, bm, 64), "bf16", "swizzle_128b")]
    maps += [pm.HostTensorMap(t.reshape(rows), (1, 128, 64), "bf16", "swizzle_128b")
             for t in (k, v)]
    maps.append(pm.HostTensorMap(out.reshape(rows), (1, 64, 64), "bf16", "swizzle_128b"))
    grid = attention_fwd.grid(d, causal, variant, batch, seqlen, heads, 1)
    assert grid[0] < batch * heads * -(-seqlen // bm)
    kernel.emulate(*maps, lse, seqlen, heads, 1 / math.sqrt(d) * 1.4426950408889634,
                   *attention_fwd.extra_args(variant, batch), grid=grid, block=128 + 2 * bm,
                   smem=smem, schedules=2)
    _check_attention(out, lse, q, k, v, causal)
