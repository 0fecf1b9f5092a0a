"""The builder emits the dialect with the user's locations."""

import inspect
import re

import pytest

import pipeline_mlir as pm
import handoff_ring
import summing_ring
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


def test_every_op_prints_from_its_declaration():
    """The builder's op syntax is the ODS's (generated _generated.OPS): each
    pipeline op prints from its declared format, and pm.pipeline_op builds
    ops the builder has no method for, checked by the compiler."""
    from pipeline_mlir import _generated, ir
    for name, spec in _generated.OPS.items():
        values = {arg: f"%{arg}" for arg, kind in spec["arguments"].items()
                  if kind in ("operand", "attr")}
        if name in ("pipeline.produce", "pipeline.consume"):
            values["stage"] = "%s"
        text = ir._ods_syntax(name, values, ["!t"] * len(spec["results"]))
        assert text.startswith(name), text
        for value in values.values():
            assert value in text, (name, text)
    with pytest.raises(pm.BuildError, match="has no operand or attribute 'stag'"):
        ir._ods_syntax("pipeline.arrive", {"stag": "%s"})
    with pytest.raises(pm.BuildError, match="needs 'stage'"):
        ir._ods_syntax("pipeline.arrive", {})

    Buf = pm.memref((4, 32), pm.i32)

    @pm.kernel
    def explicit_handles(out: Buf):
        smem = pm.dynamic_shared_memory()
        p = pm.pipeline(smem, stages=4)
        p.init(producer=1, consumer=1)
        with pm.if_(pm.thread_id() == 0):
            stage = p.acquire_producer()
            slot = pm.pipeline_op("pipeline.index", [pm.index], stage=stage)
            out[slot, 0] = pm.constant(7, pm.i32)
            pm.pipeline_op("pipeline.commit", stage=stage)
            pm.pipeline_op("pipeline.drain_producer", pipeline=p)

    text = explicit_handles.mlir(locations=False)
    assert "pipeline.index %stage" in text and "pipeline.drain_producer %p" in text
    pm.check(explicit_handles)  # raises CompileError if the text is wrong


def test_pipeline_type_cluster_shape():
    # The multicast cluster of the type, printed only when not 1 x 1, in the
    # dialect's syntax (test/Dialect/Pipeline/roundtrip.mlir @cluster_cross).
    assert str(pm.PipelineType(4)) == "!pipeline.pipeline<stages = 4>"
    t = pm.PipelineType(4, cta_group=2, cluster_m=4, cluster_n=4)
    assert str(t) == ("!pipeline.pipeline<stages = 4, cta_group = 2, "
                      "cluster_m = 4, cluster_n = 4>")


def test_gemm_variant_choice():
    # pm.gemm's choice reasons from the shape (waves of tiles over the SMs,
    # docs/gemm.md): what it picks on shapes of each regime of the tuning
    # set, on 132 SMs.
    from pipeline_mlir import matmul
    assert set(matmul.RATES) <= set(matmul.CONFIGS)
    sms = 132
    # Decode with N = K = 4096: 32 tiles of 64 x 128 leave 100 SMs idle; K
    # cut in four slices fills them.
    assert matmul.choose(16, 4096, 4096, sms) == "m64n128k"
    assert matmul.splits_for("m64n128k", 16, 4096, 4096, sms) == 4
    # 128 tokens: 128 tiles of 64 x 64 fill one wave; 64 x 128 only half.
    assert matmul.choose(128, 4096, 4096, sms) == "m64n64"
    # 256 x 10240: 160 tiles of 128 x 128 are 2 waves, 108 of 128 x 192 one.
    assert matmul.choose(256, 10240, 8192, sms) == "bn192n"
    # 600 x 10240: 200 tiles of 128 x 256 are 1.5 waves; stream-K spreads
    # their 25600 k-block iterations over 26 groups of 5 CTAs.
    assert matmul.choose(600, 10240, 8192, sms) == "bn256ns"
    # 300 x 8192: 128-row tiles leave 84 of 384 rows empty; swap-AB tiles
    # of 128 rows of B by 152 of A cover M in 2 x 152 = 304, 128 tiles.
    assert matmul.choose(300, 8192, 8192, sms) == "t128x152n"
    assert matmul.choose(3000, 8192, 8192, sms) != "t128x152n"  # above SWAP_AB_MAX_M
    # Prefill: the widest tile.
    assert matmul.choose(8192, 8192, 8192, sms) == "bn256n"
    # The waves follow the SM count: 114 SMs (an H100 PCIe) fit 108 tiles
    # of 128 x 192 in one wave too, and 78 SMs do not.
    assert matmul.choose(256, 10240, 8192, 114) == "bn192n"
    assert matmul.choose(256, 10240, 8192, 78) != "bn192n"
    # Every choice is a variant of RATES, whatever the shape.
    for m in (1, 7, 100, 777, 3000, 6000, 16384):
        for n, k in ((4608, 3584), (1536, 7168), (7168, 2048), (37888, 3584)):
            assert matmul.choose(m, n, k, sms) in matmul.RATES
    # Every variant is a kernel the generator makes within shared memory.
    from pipeline_mlir.kernels import gemm_sm90
    assert matmul.BK == gemm_sm90.BK
    for cfg in matmul.CONFIGS.values():
        text, smem = gemm_sm90.generate(**cfg)
        assert "gpu.func @gemm_bf16_sm90" in text and smem <= gemm_sm90.SMEM_LIMIT


def test_gemm_sm90_program_options():
    # The builder program's options outside matmul.CONFIGS: a CTA pair
    # multicasts B (the kernel declares its cluster, the barriers are
    # initialized cluster-wide, the lag carries the previous stage through
    # the k-loop), stream-K spins on its flag in an scf.while, and each
    # variant passes both checkers. Options that make no kernel are refused
    # with the generator's messages.
    from pipeline_mlir.kernels import gemm_sm90
    pair, smem = gemm_sm90.build(bn=128, stages=5, epi_subtiles=2, cluster=2)
    text = pair.mlir(locations=False)
    assert pair.cluster == (2, 1, 1) and "nvvm.minctasm = 1 : i32" in text
    assert text.count("multicast_mask = ") == 1 and "consumer 4 cluster :" in text
    assert "release_ctas = 2, consumer_depth = 2" in text
    # The A box is the whole 128-row tile, the B box this CTA's half.
    assert "tensor = memref<128x64xbf16" in text and "tensor = memref<64x64xbf16" in text
    assert re.search(r"iter_args\(%\w+ = %stage\d+, %\w+ = %\w+\) -> "
                     r"\(!pipeline\.stage<consumer", text)
    pm.check(pair)
    sk, _ = gemm_sm90.build(bn=64, stages=8, epi_subtiles=1, consumers=1, stream_k=True)
    text = sk.mlir(locations=False)
    # The owner's spin: while the flag reads 0 (the flag first true).
    assert re.search(r"scf\.while \((%\w+) = %\w+\) : \(i1\) -> \(\) \{\n\s*"
                     r"scf\.condition\(\1\)\n\s*\} do \{\n.*ld\.acquire\.gpu.*\n"
                     r".*arith\.cmpi eq.*\n\s*scf\.yield %\w+ : i1\n", text)
    pm.check(sk)
    for options, message in ((dict(bn=96), "--bn must be"),
                             (dict(bn=128, epi_subtiles=2, epi_buffers=2), "--epi-buffers"),
                             (dict(consumers=1, cluster=2), "--consumers 1 needs"),
                             (dict(stages=6), "B of shared memory")):
        with pytest.raises(ValueError, match=message):
            gemm_sm90.build(**options)


def test_loop_carried_values_and_if_results():
    # pm.range(carry=) is an scf.for with iter_args whose body yields the
    # next values; a pm.if_ with results yields in both branches; the
    # results are used after the ops, and the kernel passes both checkers.
    text = summing_ring.summing_ring.mlir(locations=False)
    assert "iter_args(" in text and "-> (i32, i32)" in text
    assert "= scf.if" in text and "-> (i32) {" in text and "} else {" in text
    assert "scf.yield %" in text
    assert "#0," in text and "#1," in text  # the loop's two results, stored
    pm.check(summing_ring.summing_ring)


def test_loop_carried_value_misuse():
    one = pm.memref((4,), pm.i32)

    @pm.kernel
    def no_next(x: one):
        with pm.range(0, 4, carry=[pm.constant(0, pm.i32)]) as loop:
            loop.carried[0] + 1
    with pytest.raises(pm.BuildError, match="needs loop.next"):
        no_next.mlir()

    @pm.kernel
    def wrong_type(x: one):
        with pm.range(0, 4, carry=[pm.constant(0, pm.i32)]) as loop:
            loop.next(loop.iv)
    with pytest.raises(pm.BuildError, match="a i32 value is expected, got index"):
        wrong_type.mlir()

    @pm.kernel
    def wrong_count(x: one):
        with pm.range(0, 4, carry=[pm.constant(0, pm.i32)]) as loop:
            loop.next(loop.carried[0], loop.carried[0])
    with pytest.raises(pm.BuildError, match="loop.next yields 1 value"):
        wrong_count.mlir()

    @pm.kernel
    def number_carry(x: one):
        with pm.range(0, 4, carry=[0]) as loop:
            loop.next(loop.carried[0])
    with pytest.raises(pm.BuildError, match="pm.constant"):
        number_carry.mlir()

    @pm.kernel
    def no_else(x: one):
        with pm.if_(pm.thread_id() == 0, results=[pm.i32]) as br:
            br.yield_(1)
    with pytest.raises(pm.BuildError, match=r"test_builder.py:\d+: a pm.if_ with results "
                                            "needs an else branch"):
        no_else.mlir()

    @pm.kernel
    def no_yield(x: one):
        with pm.if_(pm.thread_id() == 0, results=[pm.i32]):
            pass
    with pytest.raises(pm.BuildError, match="br.yield_"):
        no_yield.mlir()

    @pm.kernel
    def yield_without_results(x: one):
        with pm.if_(pm.thread_id() == 0) as br:
            br.yield_(1)
    with pytest.raises(pm.BuildError, match="results="):
        yield_without_results.mlir()


@pytest.mark.parametrize("case", ["value_from_consume", "stage_after_block", "index_after_loop",
                                  "carried_after_loop", "value_from_branch"])
def test_use_after_its_block_is_refused_at_the_line(case):
    # A value made inside a `with` block (a region) used after the block
    # would be MLIR's "use of undeclared SSA value name"; the builder says
    # what happened, at the user's line, before anything is compiled.
    one = pm.memref((4,), pm.i32)

    @pm.kernel
    def k(x: one):
        smem = pm.dynamic_shared_memory()
        p = pm.pipeline(smem, stages=2)
        ring = pm.view(smem, p.smem_bytes, (2,), pm.i32)
        p.init(producer=1, consumer=1)
        zero = pm.constant(0, pm.i32)
        if case == "value_from_consume":
            with p.consume() as s:
                v = ring[s.index]
            x[0] = v  # use:value_from_consume
        elif case == "stage_after_block":
            with p.consume() as s:
                pass
            s.release()  # use:stage_after_block
        elif case == "index_after_loop":
            with pm.range(4) as i:
                pass
            x[i] = zero  # use:index_after_loop
        elif case == "carried_after_loop":
            with pm.range(0, 4, carry=[zero]) as loop:
                loop.next(loop.carried[0])
            x[0] = loop.carried[0]  # use:carried_after_loop
        else:
            with pm.if_(pm.thread_id() == 0):
                w = zero + 1
            x[0] = w  # use:value_from_branch
    src = inspect.getsource(k.fn).splitlines()
    line = k.fn.__code__.co_firstlineno + next(
        i for i, text in enumerate(src) if text.endswith(f"# use:{case}"))
    with pytest.raises(pm.BuildError, match=rf"test_builder.py:{line}: .* was made inside a "
                                            r"`with` block that has ended") as info:
        k.mlir()
    # Named as the Python code names it (it was the SSA name, %v40).
    name = {"value_from_consume": "`v` (i32)", "stage_after_block": "`s` (!pipeline.stage",
            "index_after_loop": "`i` (index)", "carried_after_loop": "`loop.carried[0]` (i32)",
            "value_from_branch": "`w` (i32)"}[case]
    assert f"{line}: {name}" in str(info.value), str(info.value)


def test_iterating_a_value_is_refused():
    # `for v in x` over a memref would call x[0], x[1], ... without end.
    @pm.kernel
    def k(x: pm.memref((4,), pm.i32)):
        for v in x:
            pass
    with pytest.raises(pm.BuildError, match="not a Python iterable"):
        k.mlir()


def test_nesting_limit():
    # Deeply nested regions are refused by the builder, before MLIR's
    # recursive parser and verifier (which overflow the stack at a few
    # thousand) or Python's recursion limit are reached.
    import contextlib
    from pipeline_mlir import ir

    def nested(depth):
        @pm.kernel
        def k(x: pm.memref((4,), pm.i32)):
            with contextlib.ExitStack() as stack:
                for _ in range(depth):
                    stack.enter_context(pm.if_(pm.thread_id() == 0))
                x[0] = pm.constant(1, pm.i32)
        return k
    assert "scf.if" in nested(ir.MAX_NESTING).mlir(locations=False)
    for depth in (ir.MAX_NESTING + 1, 10000):
        with pytest.raises(pm.BuildError, match=f"regions nested deeper than {ir.MAX_NESTING}"):
            nested(depth).mlir()
