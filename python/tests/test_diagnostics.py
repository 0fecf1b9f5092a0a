"""Verifier errors are Python exceptions located at the user's lines."""

import inspect

import pytest

import pipeline_mlir as pm


def _line_of(fn, needle):
    src, first = inspect.getsourcelines(fn)
    return first + next(i for i, l in enumerate(src) if needle in l)


def leaky(dst: pm.memref((64,), pm.i32)):
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    p.init(producer=1, consumer=1)
    tid = pm.thread_id()
    with pm.if_(tid == 0) as producer:
        stage = p.acquire_producer()  # never released
        dst[tid] = stage.index.cast(pm.i32)
    with producer.else_():
        with p.consume():
            pass


def test_leak_is_reported_at_the_users_line():
    k = pm.kernel(leaky)
    with pytest.raises(pm.CompileError) as info:
        pm.compile(k, chip="sm_90a", assemble=False)
    err = info.value.errors[0]
    assert "leaks when the scf.if condition is true" in err.message
    assert err.file == __file__
    assert err.line == _line_of(leaky, "with pm.if_(tid == 0)")
    note = err.notes[0]
    assert note.message == "stage acquired here"
    assert (note.file, note.line) == (__file__, _line_of(leaky, "p.acquire_producer()"))
    # The exception's text shows both locations.
    assert f"{__file__}:{err.line}:" in str(info.value)
    assert f"{__file__}:{note.line}:" in str(info.value)


def fixed(dst: pm.memref((64,), pm.i32)):
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    p.init(producer=1, consumer=1)
    tid = pm.thread_id()
    with pm.if_(tid == 0) as producer:
        stage = p.acquire_producer()
        dst[tid] = stage.index.cast(pm.i32)
        stage.arrive()
        stage.release()
        p.drain_producer()
    with producer.else_():
        with pm.if_(tid == 32):
            with p.consume():
                pass


def test_the_fixed_kernel_compiles():
    mod = pm.compile(pm.kernel(fixed), chip="sm_90a", assemble=False)
    assert ".entry fixed(" in mod.ptx


def double_release(dst: pm.memref((64,), pm.i32)):
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, stages=2)
    p.init(producer=1, consumer=1)
    stage = p.acquire_producer()
    stage.release()
    stage.release()


def test_use_after_release_points_at_the_second_release():
    with pytest.raises(pm.CompileError) as info:
        pm.check(pm.kernel(double_release))
    lines = {d.line for d in info.value.errors}
    assert _line_of(double_release, "stage.release()") + 1 in lines


def test_op_verifier_error_at_its_line():
    def bad(dst: pm.memref((64,), pm.i32)):
        smem = pm.dynamic_shared_memory()
        pm.pipeline(smem, stages=0)
    with pytest.raises(pm.CompileError) as info:
        pm.check(pm.kernel(bad))
    assert info.value.errors[0].line == _line_of(bad, "stages=0")


def test_parse_error_of_mlir_text():
    with pytest.raises(pm.CompileError) as info:
        pm.check("gpu.module @m {\n  gpu.func @f() kernel {\n    %x = \n  }\n}\n")
    assert info.value.errors[0].line == 3


def test_wrong_chip():
    with pytest.raises(pm.CompileError, match="sm_42"):
        pm.compile(pm.kernel(fixed), chip="sm_42", assemble=False)
