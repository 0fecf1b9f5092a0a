"""Edge cases of the builder, the cache and the signature reader."""

from __future__ import annotations

import inspect

import pytest

import pipeline_mlir as pm

M = pm.memref((64,), pm.i32)


def test_postponed_annotations_and_parameter_names():
    # `from __future__ import annotations` above: annotations are strings.
    @pm.kernel
    def k(c1: M, v2: M):  # names like the builder's own SSA names
        c1[pm.thread_id()] = v2[pm.thread_id()]
    pm.check(k)


def test_duplicate_kernel_names():
    def make():
        @pm.kernel
        def k(x: M):
            pass
        return k
    with pytest.raises(pm.BuildError, match="two kernels named 'k'"):
        pm.Module([make(), make()])


def test_constants_keep_sign_and_non_finite_values():
    @pm.kernel
    def k(x: pm.memref((4,), pm.f32)):
        x[0] = pm.constant(0.0, pm.f32)
        x[1] = pm.constant(-0.0, pm.f32)
        x[2] = pm.constant(float("inf"), pm.f32)
        x[3] = pm.constant(float("nan"), pm.f32)
    text = k.mlir()
    assert "arith.constant 0.0 : f32" in text and "arith.constant -0.0 : f32" in text
    assert "arith.constant 0x7f800000 : f32" in text
    pm.check(k)


def test_index_from_a_fraction_is_an_error():
    @pm.kernel
    def k(x: M):
        x[pm.thread_id() + 2.5] = 1
    with pytest.raises(pm.BuildError, match="expects an integer"):
        k.mlir()


def test_range_bounds_are_index_or_one_integer_type():
    @pm.kernel
    def k(x: M, n: pm.i32):
        with pm.range(n) as i:
            x[i.cast(pm.index)] = 1
    assert ": i32 {" in k.mlir()          # an i32 loop: scf.for ... : i32
    pm.check(k)

    @pm.kernel
    def mixed(x: M, n: pm.i32, m: pm.i64):
        with pm.range(n, m):
            pass
    with pytest.raises(pm.BuildError, match="bounds are index values"):
        mixed.mlir()


def test_subview_with_static_offsets_verifies():
    @pm.kernel
    def k(x: pm.memref((4, 16), pm.i32)):
        row = pm.subview(x, [2, 0], [1, 16])
        row[pm.thread_id()] = 7
    assert "offset: 32>" in k.mlir()
    pm.check(k)


def test_mbar_counts_sub_stages():
    @pm.kernel
    def k(x: M):
        smem = pm.dynamic_shared_memory()
        p = pm.pipeline(smem, stages=2, consumer_sub_stages=2)
        p.init(producer=1, consumer=1)
        s = p.acquire_producer()
        group, _ = s.mbar()
        assert "num_barriers = 6" in str(group.type)
        s.arrive()
        s.release()
    k.mlir()


def test_leak_in_else_branch_is_reported_at_else():
    def body(x: M):
        smem = pm.dynamic_shared_memory()
        p = pm.pipeline(smem, stages=2)
        p.init(producer=1, consumer=1)
        with pm.if_(pm.thread_id() == 0) as br:
            with p.produce() as s:
                s.arrive()
            p.drain_producer()
        with br.else_():
            p.acquire_consumer()
    with pytest.raises(pm.CompileError) as info:
        pm.check(pm.kernel(body))
    src, first = inspect.getsourcelines(body)
    else_line = first + next(i for i, l in enumerate(src) if "br.else_()" in l)
    assert info.value.errors[0].line == else_line


def test_signatures_skip_helpers_and_attributions():
    text = """
    !A = memref<8xf32>
    gpu.module @m {
      gpu.func @helper(%x: f32) { gpu.return }
      gpu.func @k(%a: !A) workgroup(%w: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
        gpu.return
      }
    }"""
    sigs = pm.Module.from_mlir(text).signatures()
    assert list(sigs) == ["k"]
    ((name, t),) = sigs["k"]
    assert name == "a" and t.shape == (8,)


def _ring(x: M):
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    p.init(producer=1, consumer=1)
    with pm.if_(pm.thread_id() == 0) as br:
        with p.produce() as s:
            s.arrive()
        p.drain_producer()
    with br.else_():
        with pm.if_(pm.thread_id() == 32):
            with p.consume():
                pass


def _ring_moved(x: M):

    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    p.init(producer=1, consumer=1)
    with pm.if_(pm.thread_id() == 0) as br:
        with p.produce() as s:
            s.arrive()
        p.drain_producer()
    with br.else_():
        with pm.if_(pm.thread_id() == 32):
            with p.consume():
                pass


def test_cache_keys_locations_only_where_they_reach_the_ptx():
    a, b = pm.kernel(_ring, name="ring"), pm.kernel(_ring_moved, name="ring")
    plain = pm.compile(a, chip="sm_90a", assemble=False)
    assert pm.compile(b, chip="sm_90a", assemble=False).cached  # same kernel elsewhere
    hang_a = pm.compile(a, chip="sm_90a", assemble=False, hang_report=1000)
    hang_b = pm.compile(b, chip="sm_90a", assemble=False, hang_report=1000)
    # The hang report's wait sites name the Python lines: another entry.
    assert not hang_b.cached and hang_a.key != hang_b.key != plain.key
    def sites(ptx):
        import re
        body = re.search(r"__pipeline_hang_sites\[\d+\] = \{([^}]*)\}", ptx).group(1)
        return bytes(int(b) for b in body.split(",")).decode()
    first = inspect.getsourcelines(_ring_moved)[1]
    produce = first + 6  # the `with p.produce()` line
    assert f"test_edges.py:{produce}:" in sites(hang_b.ptx)
    assert f"test_edges.py:{produce}:" not in sites(hang_a.ptx)


def test_deep_text_is_refused_in_process():
    # 5000 nested regions would overflow MLIR's recursive parser and take
    # the interpreter down with SIGSEGV; the C API refuses the text first.
    from pipeline_mlir.ir import Module
    depth = 5000
    text = ("gpu.module @m {\ngpu.func @k(%c: i1) kernel {\n" + "scf.if %c {\n" * depth
            + "}\n" * depth + "gpu.return\n}\n}\n")
    with pytest.raises(pm.CompileError, match=r"deep.mlir:1025:11: error: the input nests "
                                              "brackets more than 1024 deep"):
        pm.check(Module.from_mlir(text, name="deep"))


def _line_of(fn, marker):
    src = inspect.getsource(fn).splitlines()
    return fn.__code__.co_firstlineno + next(
        i for i, text in enumerate(src) if text.endswith(f"# {marker}"))


def test_value_used_after_its_block_without_a_name():
    # A value no Python variable holds is described by its type and the
    # line that made it.
    @pm.kernel
    def k(x: M):
        with pm.if_(pm.thread_id() == 0):
            made = {"w": pm.thread_id().cast(pm.i32)}  # made
        x[0] = made["w"]
    with pytest.raises(pm.BuildError, match=rf"the i32 value made at test_edges.py:"
                                            rf"{_line_of(k.fn, 'made')} was made inside"):
        k.mlir()


@pytest.mark.parametrize("op", ["add", "compare"])
def test_operands_of_different_types_at_the_line_with_the_cast(op):
    @pm.kernel
    def k(a: pm.memref((4,), pm.f32), b: pm.memref((4,), pm.bf16)):
        x, y = a[0], b[0]
        if op == "add":
            a[1] = x + y  # mixed
        else:
            with pm.if_(x < y):  # mixed
                pass
    line = _line_of(k.fn, "mixed") if op == "add" else _line_of(k.fn, "mixed") + 2
    with pytest.raises(pm.BuildError) as info:
        k.mlir()
    message = str(info.value)
    assert f"test_edges.py:{line}: operands of different types: f32 and bf16" in message, \
        message
    assert "f32 and bf16 (`x` and `y`)" in message
    assert "`y.cast(pm.f32)` or `x.cast(pm.bf16)`" in message


def test_builder_errors_point_at_the_line():
    # Errors raised deep in the builder carry the user's line too.
    @pm.kernel
    def k(x: M):
        x[0, 1] = 2  # two indices
    with pytest.raises(pm.BuildError, match=rf"test_edges.py:{_line_of(k.fn, 'two indices')}: "
                                            r"memref<64xi32> takes 1 indices, got 2"):
        k.mlir()


Tile = pm.memref((32, 32), pm.i32, pm.smem)
LLVMPointer = pm.types.OpaqueType("!llvm.ptr")  # pipeline.tma_load's descriptor


def _tma_kernel(coordinate_type, desc_type=None, load=None):
    """A producer that loads one tile with TMA at coordinates of
    `coordinate_type` (`load(desc, n, stage, tile)`; pm.tma_load by
    default) and a consumer that frees it."""
    Payload = pm.memref((2, 1, 32, 32), pm.i32, pm.smem)

    def k(desc, n):
        smem = pm.dynamic_shared_memory()
        buf = pm.view(smem, 1024, Payload.shape, pm.i32)
        p = pm.pipeline(smem, stages=2)
        tp = pm.tile_pipeline(p, [buf], k_group_size=1)
        tp.init(producer=1, consumer=1)
        with pm.if_(pm.thread_id() == 0):
            stage = tp.acquire_producer()
            stage.expect_tx()
            tile = pm.subview(stage.payload(0), [0, 0, 0], [1, 32, 32])
            if load is None:
                pm.tma_load(desc, [n, n * 2], stage.mbar(), tile)  # load
            else:
                load(desc, n, stage, tile)
            stage.release()
            tp.drain_producer()
        with pm.if_(pm.thread_id() == 32):
            with tp.consume() as s:
                s.arrive()
    # Annotations set here: this file's are strings, evaluated in its globals.
    k.__annotations__ = {"desc": desc_type or pm.tensormap(Tile), "n": coordinate_type}
    return pm.kernel(k)


def test_tma_load_takes_i32_coordinates():
    # pm.tma_load's coordinates are index values (nvgpu's); the i32 ones of
    # pipeline.tma_load were a raw parser error: they are converted.
    k = _tma_kernel(pm.i32)
    text = k.mlir()
    assert "arith.index_cast %arg.n : i32 to index" in text
    pm.check(k)
    pm.check(_tma_kernel(pm.index))


def test_tma_load_refuses_a_float_coordinate_at_the_line():
    k = _tma_kernel(pm.f32)
    with pytest.raises(pm.BuildError) as info:
        k.mlir()
    message = str(info.value)
    assert "pm.tma_load coordinate is index, got `n` (f32)" in message, message
    assert ".cast(pm.index)" in message
    # The line of the pm.tma_load call (in _tma_kernel's body).
    assert f"test_edges.py:{_line_of(_tma_kernel, 'load')}:" in message


def test_pipeline_op_operands_take_their_declared_type():
    # pipeline.tma_load's coordinates are i32 (its ODS): index values and
    # numbers are converted (the types come from the generated op table).
    from pipeline_mlir import _generated
    assert _generated.OPS["pipeline.tma_load"]["types"]["coordinates"] == "i32"

    def load(desc, n, stage, tile):
        pm.pipeline_op("pipeline.tma_load", stage=stage, descriptor=desc,
                       coordinates=[pm.thread_id() * 32, n], dst=tile)
    k = _tma_kernel(pm.i32, desc_type=LLVMPointer, load=load)
    text = k.mlir()
    assert "arith.index_cast" in text and ": index to i32" in text
    pm.check(k)
