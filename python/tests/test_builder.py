"""The builder emits the dialect with the user's locations."""

import inspect

import pytest

import pipeline_mlir as pm
import handoff_ring
import tma_copy


def test_handoff_ring_ops_and_locations():
    text = handoff_ring.handoff_ring.mlir()
    for op in ("pipeline.create", "pipeline.init_mbars", "pipeline.produce",
               "pipeline.consume", "pipeline.arrive", "pipeline.drain_producer",
               "pipeline.index", "memref.view", "scf.if", "scf.for", "} else {"):
        assert op in text, op
    # The store into the ring carries the line of the example that wrote it.
    src = inspect.getsource(handoff_ring.handoff_ring.fn).splitlines()
    first = handoff_ring.handoff_ring.fn.__code__.co_firstlineno
    line = first + next(i for i, l in enumerate(src) if "ring[stage.index, lane]" in l)
    store = next(l for l in text.splitlines() if "memref.store" in l and "%v" in l
                 and "workgroup" in l)
    assert f'handoff_ring.py":{line}:' in store


def test_tma_copy_ops():
    text = tma_copy.tma_copy.mlir(locations=False)
    assert "pipeline.input_tile_pipeline" in text
    assert "nvgpu.tma.async.load" in text
    assert "pipeline.expect_tx" in text
    assert "loc(" not in text


def test_value_has_no_truth_value():
    @pm.kernel
    def k(x: pm.memref((4,), pm.i32)):
        if pm.thread_id() == 0:
            pass
    with pytest.raises(pm.BuildError, match="pm.if_"):
        k.mlir()


def test_parameters_need_types():
    with pytest.raises(pm.BuildError, match="needs a type annotation"):
        @pm.kernel
        def k(x):
            pass


def test_ops_outside_a_kernel():
    with pytest.raises(pm.BuildError, match="inside a @kernel"):
        pm.thread_id()


def test_wrong_number_of_indices():
    @pm.kernel
    def k(x: pm.memref((4, 4), pm.i32)):
        x[0] = 1
    with pytest.raises(pm.BuildError, match="takes 2 indices, got 1"):
        k.mlir()


def test_generic_op():
    @pm.kernel
    def k(x: pm.memref((32,), pm.f32)):
        pm.op("nvvm.fence.proxy", attributes="{kind = #nvvm.proxy_kind<async.shared>, "
              "space = #nvvm.shared_space<cta>}")
        x[pm.thread_id()] = pm.constant(1.5, pm.f32)
    text = k.mlir()
    assert '"nvvm.fence.proxy"() {kind' in text
    assert "arith.constant 1.5 : f32" in text


def test_signatures_of_mlir_text():
    sigs = pm.Module.from_mlir(
        "!T = memref<8x4xf32>\n"
        "gpu.module @m { gpu.func @f(%a: !T, %n: i32) kernel { gpu.return } }").signatures()
    (name, t), (n2, t2) = sigs["f"]
    assert (name, t.shape, str(t.element), n2, t2) == ("a", (8, 4), "f32", "n", pm.i32)
