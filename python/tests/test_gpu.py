"""The examples on a GPU, with numpy and with torch arrays. Skipped where
there is no GPU (and the torch runs where torch has no CUDA)."""

import math
import sys

import pytest

import conftest

pytestmark = pytest.mark.skipif(not conftest.have_gpu(), reason="no CUDA GPU")


def _torch_cuda():
    try:
        import torch
        return torch.cuda.is_available()
    except ImportError:
        return False


def _run(module, *args, monkeypatch):
    monkeypatch.setattr(sys, "argv", [module.__file__, *args])
    assert module.main() == 0


@pytest.mark.parametrize("name", ["handoff_ring", "tma_copy", "gemm"])
def test_example_numpy(name, monkeypatch):
    _run(__import__(name), monkeypatch=monkeypatch)


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
@pytest.mark.parametrize("name", ["handoff_ring", "tma_copy", "gemm"])
def test_example_torch(name, monkeypatch):
    _run(__import__(name), "--torch", monkeypatch=monkeypatch)


def test_gemm_odd_shape(monkeypatch):
    _run(__import__("gemm"), "--m", "200", "--n", "136", "--k", "72", monkeypatch=monkeypatch)


def test_smem_over_the_limit():
    import numpy as np
    import pipeline_mlir as pm
    import handoff_ring
    k = pm.compile(handoff_ring.handoff_ring, chip="sm_90a").kernel()
    a = np.zeros((1000, 32), np.int32)
    with pytest.raises(pm.LaunchError, match="shared memory"):
        k(a, a, block=64, smem=1 << 20)


def test_wrong_chip_on_this_gpu():
    import numpy as np
    import pipeline_mlir as pm
    import handoff_ring
    k = pm.compile(handoff_ring.handoff_ring, chip="sm_100a").kernel()
    a = np.zeros((1000, 32), np.int32)
    with pytest.raises(pm.LaunchError, match="compiled for sm_100a"):
        k(a, a, block=64, smem=576)


def test_cluster_launch_and_device_arrays():
    """Two CTAs in a cluster of 2, each running the ring on its own rows:
    the cluster attribute reaches cuLaunchKernelEx, and device arrays
    (pm.DeviceArray) are passed without copies."""
    import numpy as np
    import pipeline_mlir as pm
    import handoff_ring
    k = pm.compile(handoff_ring.handoff_ring, chip="sm_90a").kernel()
    src = np.arange(1000 * 32, dtype=np.int32).reshape(1000, 32)
    s, d = pm.DeviceArray.from_numpy(src), pm.zeros((1000, 32), np.int32)
    k(s, d, grid=2, block=64, smem=576, cluster=2)
    assert np.array_equal(d.numpy(), src)
    with pytest.raises(pm.LaunchError, match="not a multiple of cluster"):
        k(s, d, grid=3, block=64, smem=576, cluster=2)


def test_dynamic_shapes():
    """Arrays whose size the kernel learns at launch (memref<?x4xi32>),
    several sizes with one compiled kernel."""
    import numpy as np
    import pipeline_mlir as pm
    import dynamic_shapes
    k = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a").kernel()
    rng = np.random.default_rng(7)
    for rows in (1, 129, 1000):
        src = rng.integers(-1000, 1000, (rows, 4), dtype=np.int32)
        out = np.full(rows, -7, np.int32)
        k(src, out, 3, grid=(rows + 127) // 128, block=128)
        assert np.array_equal(out, (src[:, 0] + src[:, 3]) * 3)


def test_least_block_contract():
    """Roles in warps 1 and 3 and no declared block: the recorded contract
    (four warps) refuses one warp, which would hang, and a launch with the
    four warps it needs moves every row."""
    import numpy as np
    import pipeline_mlir as pm
    import role_warps
    k = pm.compile(role_warps.fourth_warp_producer, chip="sm_90a").kernel()
    src = np.random.default_rng(3).integers(-2**31, 2**31 - 1, (role_warps.ROWS, 32),
                                            dtype=np.int32)
    out = np.zeros_like(src)
    with pytest.raises(pm.LaunchError, match="needs at least 128 threads per block"):
        k(src, out, block=32, smem=role_warps.SMEM)
    k(src, out, block=128, smem=role_warps.SMEM)
    assert np.array_equal(out, src)


def test_loop_carried_values():
    """A consumer that keeps register state: per lane, the sum of a column
    and the count of its negative values, carried through pm.range(carry=)
    and a pm.if_ with a result, written once after the loop."""
    import numpy as np
    import pipeline_mlir as pm
    import summing_ring
    k = pm.compile(summing_ring.summing_ring, chip="sm_90a").kernel()
    src = np.random.default_rng(3).integers(-1000, 1000, (summing_ring.ROWS, 32),
                                            dtype=np.int32)
    out = np.full((2, 32), -7, np.int32)
    k(src, out, grid=1, block=64, smem=summing_ring.SMEM)
    assert np.array_equal(out[0], src.sum(axis=0, dtype=np.int32))
    assert np.array_equal(out[1], (src < 0).sum(axis=0).astype(np.int32))


def test_hang_report():
    """A kernel compiled with the hang report that hangs: the launcher reads
    the record and raises with the report the C++ runtime prints (which
    pipeline, which role, stage, parity, CTA, warp). In a child process: a
    trap ends the CUDA context."""
    import os
    import pathlib
    import subprocess
    here = pathlib.Path(__file__).resolve().parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(here.parent), str(here)]))
    run = subprocess.run([sys.executable, str(here / "hanging.py")], capture_output=True,
                         text=True, timeout=120, cwd=here, env=env)
    assert run.returncode == 3, run.stdout + run.stderr
    assert "hang: pipeline" in run.stdout, run.stdout
    assert "consumer" in run.stdout and "waits for stage 0 parity 0, lap 0" in run.stdout
    assert "CTA (0,0,0) warp 0 lane 0" in run.stdout
    assert "hanging.py:" in run.stdout  # the site: the wait's Python line
    assert "the kernel trapped" in run.stdout


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_hang_report_after_an_asynchronous_launch():
    """The same kernel launched with a torch tensor (torch's stream, no
    wait): the trap shows as torch's CUDA error at its synchronization, and
    pm.hang_report() then gives the report. In a child process."""
    import os
    import pathlib
    import subprocess
    here = pathlib.Path(__file__).resolve().parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(here.parent), str(here)]))
    run = subprocess.run([sys.executable, str(here / "hanging.py"), "--torch"],
                         capture_output=True, text=True, timeout=120, cwd=here, env=env)
    assert run.returncode == 3, run.stdout + run.stderr
    assert "torch: " in run.stdout
    assert "hang: pipeline" in run.stdout and "waits for stage 0 parity 0" in run.stdout
    assert "hanging.py:" in run.stdout


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
@pytest.mark.parametrize("variant", ["bn256", "bn192", "bn128", "bn64", "m64n256", "m64n128",
                                     "m64n64", "m64n64k", "m64n128k", "bn256s", "bn128s",
                                     "m64n256s", "bn256n", "bn128n", "m64n256n",
                                     "m64n128n", "bn256ns", "m64n256ns", "bn192n",
                                     "t128x72", "t128x88", "t128x120", "t128x152",
                                     "t128x168", "t128x192", "t64x152", "t256x88",
                                     "t128x88n", "t128x152n", "t128x168n", "t256x88n"])
@pytest.mark.parametrize("shape", [(16, 4096, 4096), (200, 136, 72), (1000, 1024, 520),
                                   (257, 520, 1032), (16, 1024, 4160), (16, 1024, 8320)])
def test_pm_gemm(variant, shape):
    # pm.gemm against torch on random bf16 data, every variant, odd shapes
    # (partial tiles in M, N and K; for the split-K variants 2 to 16 slices,
    # a short last slice, 16 slices asked and 15 run; for the stream-K
    # variants 2 to 260 (N-tile, k-block) iterations over up to 132 CTAs in
    # groups of one CTA per M-tile (1 to 16 M-tiles), so tiles whose K is
    # cut among up to 33 groups and groups spanning up to 3 tiles; and C
    # not zero before the call).
    import torch
    import pipeline_mlir as pm
    m, n, k = shape
    g = torch.Generator(device="cuda").manual_seed(m * 7 + n * 3 + k)
    a = torch.randn((m, k), generator=g, device="cuda").to(torch.bfloat16)
    b = torch.randn((n, k), generator=g, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), 3.0, device="cuda", dtype=torch.bfloat16)
    pm.gemm(a, b, c, variant=variant)
    torch.cuda.synchronize()
    ref = a.float() @ b.float().t()
    err = (c.float() - ref).abs().max().item() / ref.abs().max().item()
    assert err < 2e-2, f"{variant} {shape}: max error {err:.2e} of max |C|"
    if variant.endswith("s"):
        # Stream-K: every flag a non-owner set was cleared by its owner (the
        # next launch on this stream reuses them).
        from pipeline_mlir import matmul
        for _, flags in matmul._stream_k_buffers.values():
            assert int(flags.abs().sum().item()) == 0


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_gemm_on_a_side_stream():
    # Work queued on a non-blocking side stream before pm.gemm (a long spin,
    # 200 passes over A, then A = 2) must be seen by the GEMM, which runs on
    # that stream (torch's current one); pm.gemm returns without waiting (the
    # stream is still busy when it returns, even with a new output tensor and
    # new descriptors, which are uploaded in the stream's order).
    import torch
    import pipeline_mlir as pm
    m, n, k = 2048, 2048, 4096
    a = torch.ones((m, k), device="cuda", dtype=torch.bfloat16)
    b = torch.full((n, k), 0.5, device="cuda", dtype=torch.bfloat16)
    pm.gemm(a, b)  # compiled (or loaded) once before the timed part
    torch.cuda.synchronize()
    side, destroy = _side_stream()
    try:
        for _ in range(3):
            with torch.cuda.stream(side):
                # About 0.1 s of GPU time queued first (a spin of 2e8 clock
                # cycles): the stream is surely still busy when pm.gemm
                # returns, whatever the host's speed (200 passes alone raced
                # with the host on an H100).
                torch.cuda._sleep(200_000_000)
                for _ in range(200):
                    a.mul_(1.0)
                a.fill_(2.0)
                keep = torch.empty((4096, 4096), device="cuda")  # a new output address
                c = pm.gemm(a, b)
                busy = not side.query()
            side.synchronize()
            assert busy, "pm.gemm waited for the stream"
            assert torch.all(c == 2.0 * 0.5 * k).item(), c[0, :4]
            a.fill_(1.0)
            del keep
    finally:
        torch.cuda.synchronize()
        destroy()


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_gemm_keeps_no_tensor_alive():
    # The descriptor and launch caches do not hold the tensors they saw: 50
    # calls that each get a new output (and a new activation) leave no more
    # memory allocated than before (they kept every output alive, and every
    # call missed the launch cache).
    import torch
    import pipeline_mlir as pm
    w = torch.randn((1024, 1024), device="cuda").to(torch.bfloat16)
    pm.gemm(torch.randn((512, 1024), device="cuda").to(torch.bfloat16), w)
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    for _ in range(50):
        x = torch.randn((512, 1024), device="cuda").to(torch.bfloat16)
        y = pm.gemm(x, w)
        del x, y
    torch.cuda.synchronize()
    assert torch.cuda.memory_allocated() - before <= 2 * 512 * 1024 * 2


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_do_bench_times_the_stream():
    # pm.testing times GPU work on torch's current stream with CUDA events:
    # a GEMM with 8 times the flops takes clearly longer; compare gives
    # every label's spread.
    import torch
    import pipeline_mlir as pm
    # Sizes whose kernels outlast the Python call (0.2 and 1.6 ms on an
    # H100), outputs given: the events then time the GPU, not the host.
    small = [torch.randn((4096, 4096), device="cuda").to(torch.bfloat16) for _ in range(3)]
    big = [torch.randn((8192, 8192), device="cuda").to(torch.bfloat16) for _ in range(3)]
    t_small = pm.testing.do_bench(lambda: pm.gemm(*small[:2], small[2]), reps=5, batch=10)
    t_big = pm.testing.do_bench(lambda: pm.gemm(*big[:2], big[2]), reps=5, batch=10)
    assert 0 < t_small and 3 * t_small < t_big, (t_small, t_big)
    both = pm.testing.compare({"small": lambda: pm.gemm(*small[:2], small[2]),
                               "torch": lambda: torch.nn.functional.linear(*small[:2])},
                              reps=4, batch=5)
    for stats in both.values():
        assert len(stats["times"]) == 4
        assert 0 < stats["min"] <= stats["median"] <= stats["max"]


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_gemm_stream_k_on_a_new_stream():
    # The first stream-K launch on a stream zeroes that stream's flags in the
    # stream's order (not on torch's current stream), and the kernel leaves
    # them zero: three launches on a fresh non-blocking stream, each exact
    # against torch, while torch's current stream stays idle.
    import ctypes
    import torch
    import pipeline_mlir as pm
    from pipeline_mlir import matmul
    from pipeline_mlir.driver import driver
    handle = ctypes.c_void_p()
    assert driver().lib.cuStreamCreate(ctypes.byref(handle), 1) == 0  # NON_BLOCKING
    side = torch.cuda.ExternalStream(handle.value)
    g = torch.Generator(device="cuda").manual_seed(5)
    a = torch.randn((256, 2048), generator=g, device="cuda").to(torch.bfloat16)
    b = torch.randn((1536, 2048), generator=g, device="cuda").to(torch.bfloat16)
    ref = a.float() @ b.float().t()
    torch.cuda.synchronize()
    for _ in range(3):
        c = pm.gemm(a, b, variant="bn256s", stream=handle.value)
        side.synchronize()
        err = (c.float() - ref).abs().max().item() / ref.abs().max().item()
        assert err < 2e-2, f"max error {err:.2e} of max |C|"
    flags = matmul._stream_k_buffers[(a.device.index, handle.value)][1]
    assert int(flags.abs().sum().item()) == 0
    driver().lib.cuStreamDestroy_v2(handle)


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_gemm_refuses_an_output_over_its_inputs():
    # C written over A or B would be read back as input (and a split-K
    # variant zeroes C first): refused before anything is queued.
    import torch
    import pipeline_mlir as pm
    a = torch.ones((64, 512), device="cuda", dtype=torch.bfloat16)
    b = torch.ones((256, 512), device="cuda", dtype=torch.bfloat16)
    for inside in (a, b):
        out = inside.view(-1)[:64 * 256].view(64, 256)
        with pytest.raises(pm.LaunchError, match="out overlaps"):
            pm.gemm(a, b, out)


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_prepared_launches_recheck_what_changed():
    # A repeated call launches what the first one prepared without checking
    # anew; a tensor at the same address with other strides or another
    # dtype is a new call and is checked (and refused) as the first was.
    import torch
    import pipeline_mlir as pm
    a = torch.randn((128, 512), device="cuda").to(torch.bfloat16)
    b = torch.randn((256, 512), device="cuda").to(torch.bfloat16)
    c = torch.empty((128, 256), device="cuda", dtype=torch.bfloat16)
    ref = (a.float() @ b.float().t())
    for _ in range(2):
        pm.gemm(a, b, c)
    torch.cuda.synchronize()
    assert (c.float() - ref).abs().max().item() < 2e-2 * ref.abs().max().item()
    strided = c.as_strided((128, 256), (1, 128))      # C's memory, column-major
    with pytest.raises(pm.LaunchError, match="out must be a contiguous"):
        pm.gemm(a, b, strided)
    with pytest.raises(pm.LaunchError, match="a must be a CUDA torch.bfloat16 tensor"):
        pm.gemm(a.view(torch.float16), b, c)
    with pytest.raises(pm.LaunchError, match="out must be a contiguous"):
        pm.gemm(a, b, c[:64])                          # C's address, fewer rows
    x, w = (torch.randn(s, device="cuda").to(torch.float8_e4m3fn) for s in ((64, 256),
                                                                             (128, 256)))
    sa, sb = torch.ones((64, 1), device="cuda"), torch.ones((1, 128), device="cuda")
    y = pm.scaled_mm(x, w.t(), sa, sb)
    pm.scaled_mm(x, w.t(), sa, sb, y)
    with pytest.raises(pm.LaunchError, match="no scaling"):
        pm.scaled_mm(x, w.t(), sa, sb.as_strided((1, 64), (1, 1)), y)
    with pytest.raises(pm.LaunchError, match="out must be a contiguous"):
        pm.scaled_mm(x, w.t(), sa, sb, y.as_strided((64, 128), (1, 64)))


def _attention_reference(q, k, v, causal, scale):
    """f32 attention of (batch, seqlen, heads, d) tensors, and the
    log-sum-exp of the scaled scores (batch, heads, seqlen)."""
    import torch
    qf, kf, vf = (x.float().transpose(1, 2) for x in (q, k, v))
    s = (qf @ kf.transpose(-1, -2)) * scale
    if causal:
        n = s.shape[-1]
        keep = torch.ones(n, n, dtype=torch.bool, device=s.device).tril()
        s = s.masked_fill(~keep, float("-inf"))
    lse = torch.logsumexp(s, dim=-1)
    o = torch.softmax(s, dim=-1) @ vf
    return o.transpose(1, 2), lse


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
@pytest.mark.parametrize("variant", ["2wg-pingpong", "2wg-overlap", "2wg-serial", "3wg-overlap",
                                     "3wg-serial", "1wg-overlap", "1wg-serial"])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", [(1, 128, 1), (2, 1000, 3), (1, 77, 2), (3, 300, 4),
                                   (1, 1, 1), (2, 513, 2)])
def test_pm_attention(variant, head_dim, causal, shape):
    # pm.attention against an f32 reference on random inputs: odd seqlens
    # (a partial last key block, masked, and a partial last query block, not
    # written), several batches and heads (each batch's rows past seqlen
    # must read as zero and not leak into the next batch), causal and not;
    # the output and the log-sum-exp. The output starts as NaN: every
    # element must be written.
    from pipeline_mlir.attention_fwd import fits
    if not fits(head_dim, variant):
        pytest.skip(f"{variant} is for head_dim 64 only")
    _check_attention(variant, head_dim, causal, shape)


def _check_attention(variant, head_dim, causal, shape):
    """pm.attention of one variant on random (batch, seqlen, heads) inputs
    against _attention_reference, into an output that starts as NaN;
    returns the inputs, the output tensor, the call's scale and the
    log-sum-exp."""
    import torch
    import pipeline_mlir as pm
    batch, seqlen, heads = shape
    g = torch.Generator(device="cuda").manual_seed(seqlen * 31 + heads * 7 + head_dim + causal)
    q, k, v = (torch.randn((batch, seqlen, heads, head_dim), generator=g, device="cuda")
               .to(torch.bfloat16) for _ in range(3))
    out = torch.full_like(q, float("nan"))
    scale = 1.0 / math.sqrt(head_dim) * (1.5 if causal else 1.0)
    o, lse = pm.attention(q, k, v, causal=causal, scale=scale, out=out, return_lse=True,
                          variant=variant)
    torch.cuda.synchronize()
    ref, ref_lse = _attention_reference(q, k, v, causal, scale)
    err = (o.float() - ref).abs().max().item()
    assert o is out
    assert err < 2e-2, f"{variant} {shape} d={head_dim} causal={causal}: max error {err:.3e}"
    lerr = (lse - ref_lse).abs().max().item()
    assert lerr < 1e-2, f"log-sum-exp max error {lerr:.3e}"
    return (q, k, v), out, scale, lse


def _side_stream():
    """A non-blocking CUstream as a torch stream, and its destructor."""
    import ctypes
    import torch
    from pipeline_mlir.driver import driver
    handle = ctypes.c_void_p()
    assert driver().lib.cuStreamCreate(ctypes.byref(handle), 1) == 0  # NON_BLOCKING
    return torch.cuda.ExternalStream(handle.value), \
        lambda: driver().lib.cuStreamDestroy_v2(handle)


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_launch_with_torch_tensors_on_the_current_stream():
    # A kernel launched with torch tensors and no stream= goes to torch's
    # current stream (here a non-blocking side stream with a long spin and
    # 300 queued passes over the input, then input = 2): it sees that work, and returns
    # without waiting (the stream is still busy). sync=True waits for that
    # stream only.
    import torch
    import pipeline_mlir as pm
    import dynamic_shapes
    k = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a").kernel()
    rows = 1 << 20
    src = torch.ones((rows, 4), dtype=torch.int32, device="cuda")
    dst = torch.zeros(rows, dtype=torch.int32, device="cuda")
    k(src, dst, 3, grid=rows // 128, block=128)  # loaded once
    torch.cuda.synchronize()
    side, destroy = _side_stream()
    try:
        for sync in (None, True):
            with torch.cuda.stream(side):
                # About 0.1 s of GPU time queued first (a spin of 2e8 clock
                # cycles, then 300 passes): the stream is surely still busy
                # when the launch returns, whatever the host's speed.
                torch.cuda._sleep(200_000_000)
                for _ in range(300):
                    src.mul_(1)
                src.fill_(2)
                k(src, dst, 3, grid=rows // 128, block=128, sync=sync)
                busy = not side.query()
            if sync is None:
                assert busy, "the launch waited for the stream"
            else:
                assert not busy, "sync=True did not wait for the launch's stream"
            side.synchronize()
            assert torch.all(dst == 12).item(), dst[:4]
            src.fill_(1)
            dst.zero_()
    finally:
        destroy()


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_cpu_torch_tensor_is_a_launch_error():
    # A torch tensor in host memory passed to a launch, or to pm.TensorMap:
    # a LaunchError naming the argument and what to pass (it was torch's
    # ValueError, from asking for the current stream of the CPU device).
    import torch
    import pipeline_mlir as pm
    import dynamic_shapes
    k = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a").kernel()
    rows = 256
    src_cpu = torch.ones((rows, 4), dtype=torch.int32)
    dst = torch.zeros(rows, dtype=torch.int32, device="cuda")
    for args in ((src_cpu, dst, 3), (src_cpu, dst.cpu(), 3)):
        with pytest.raises(pm.LaunchError, match=r"kernel scale_rows: argument src is a "
                                                 r"Tensor on the CPU, not on the GPU: .*cuda\(\)"):
            k(*args, grid=rows // 128, block=128)
        with pytest.raises(pm.LaunchError, match="argument src is a Tensor on the CPU"):
            k.prepare(*args, grid=rows // 128, block=128)
    with pytest.raises(pm.LaunchError, match="argument dst is a Tensor on the CPU"):
        k(src_cpu.cuda(), dst.cpu(), 3, grid=rows // 128, block=128)
    with pytest.raises(pm.LaunchError, match="pm.TensorMap needs an array in GPU memory, "
                                             "got a Tensor on the CPU"):
        pm.TensorMap(torch.zeros((64, 64)), (32, 32))
    # The same arguments on the GPU launch.
    k(src_cpu.cuda(), dst, 3, grid=rows // 128, block=128, sync=True)
    assert torch.all(dst == 6).item()


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_launches_captured_in_a_cuda_graph():
    # The generic launcher, pm.gemm and pm.attention, each called once
    # (compiled, descriptors built), then captured into one CUDA graph on
    # torch's capture stream; the inputs are changed in place and the graph
    # replayed: the outputs follow the new inputs.
    import torch
    import pipeline_mlir as pm
    import dynamic_shapes
    k = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a").kernel()
    rows = 4096
    src = torch.ones((rows, 4), dtype=torch.int32, device="cuda")
    dst = torch.zeros(rows, dtype=torch.int32, device="cuda")
    a = torch.randn((256, 512), device="cuda").to(torch.bfloat16)
    b = torch.randn((384, 512), device="cuda").to(torch.bfloat16)
    c = torch.empty((256, 384), device="cuda", dtype=torch.bfloat16)
    q, kk, v = (torch.randn((2, 300, 2, 64), device="cuda").to(torch.bfloat16)
                for _ in range(3))
    o = torch.empty_like(q)

    def work():
        k(src, dst, 3, grid=rows // 128, block=128)
        pm.gemm(a, b, c)
        pm.attention(q, kk, v, causal=True, out=o)

    side, destroy = _side_stream()
    try:
        with torch.cuda.stream(side):
            work()  # compile, load, build descriptors and launches
        side.synchronize()
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            work()
        torch.cuda.synchronize()
        for step in range(2):
            src.fill_(step + 5)
            a.copy_(torch.randn_like(a.float()).to(torch.bfloat16))
            q.copy_(torch.randn_like(q.float()).to(torch.bfloat16))
            dst.zero_()
            c.zero_()
            o.zero_()
            graph.replay()
            torch.cuda.synchronize()
            assert torch.all(dst == 3 * 2 * (step + 5)).item()
            ref = a.float() @ b.float().t()
            assert ((c.float() - ref).abs().max() / ref.abs().max()).item() < 2e-2
            ref_o, _ = _attention_reference(q, kk, v, True, 1 / math.sqrt(64))
            assert (o.float() - ref_o).abs().max().item() < 2e-2
    finally:
        destroy()


@pytest.mark.parametrize("shape", [(128, 128, 64), (1000, 1000, 520), (77, 300, 8),
                                   (2048, 1024, 4096)])
def test_gemm_written_with_the_builder(shape):
    # The warp-specialized GEMM of python/examples/gemm_builder.py (no MLIR
    # text: the builder, pm.op for the NVVM ops, a carried register
    # accumulator) on random bf16 inputs: odd M, N, K (TMA zero-fills past
    # the edges, the epilogue clips), a K of one partial k-block, and more
    # tiles than SMs (the persistent schedule); C starts as NaN.
    import numpy as np
    import pipeline_mlir as pm
    import gemm_builder
    m, n, k = shape
    kernel = pm.compile(gemm_builder.gemm_bf16, chip="sm_90a")
    rng = np.random.default_rng(m + n + k)
    a16 = pm.to_bf16(rng.standard_normal((m, k), dtype=np.float32))
    b16 = pm.to_bf16(rng.standard_normal((n, k), dtype=np.float32))
    c = pm.DeviceArray.from_numpy(np.full((m, n), 0x7FC0, np.uint16))  # bf16 NaN
    gemm_builder.run(kernel, pm.DeviceArray.from_numpy(a16), pm.DeviceArray.from_numpy(b16),
                     c, m, n, k)
    ref = pm.from_bf16(a16) @ pm.from_bf16(b16).T
    out = pm.from_bf16(c.numpy())
    err = np.abs(out - ref).max() / np.abs(ref).max()
    assert err < 2e-2, f"{shape}: max error {err:.2e} of max |C|"


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", [(2, 1000, 3), (1, 77, 2), (1, 128, 1)])
def test_attention_written_with_the_builder(head_dim, causal, shape):
    # python/examples/attention_builder.py (no MLIR text: the builder, pm.op
    # for the NVVM ops, O and the softmax state carried through the key
    # loop) against the f32 reference, odd seqlens, several batches and
    # heads: the output and the log-sum-exp.
    import torch
    import pipeline_mlir as pm
    import attention_builder
    kernel, smem = attention_builder.make_kernel(head_dim, causal)
    compiled = pm.compile(kernel, chip="sm_90a")
    batch, seqlen, heads = shape
    g = torch.Generator(device="cuda").manual_seed(seqlen + head_dim + causal)
    q, k, v = (torch.randn((batch, seqlen, heads, head_dim), generator=g, device="cuda")
               .to(torch.bfloat16) for _ in range(3))
    o, lse = attention_builder.run(compiled, smem, q, k, v, causal)
    torch.cuda.synchronize()
    ref, ref_lse = _attention_reference(q, k, v, causal, 1 / math.sqrt(head_dim))
    assert (o.float() - ref).abs().max().item() < 2e-2
    assert (lse - ref_lse).abs().max().item() < 1e-2


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_attention_bad_arguments():
    # Every misuse is a LaunchError that says what is wrong, before any GPU
    # work: types, shapes, head_dim, layout, scale, variants, and outputs
    # that overlap the inputs.
    import torch
    import pipeline_mlir as pm
    q = torch.randn((1, 64, 2, 64), device="cuda").to(torch.bfloat16)
    k, v = q.clone(), q.clone()
    cases = [
        (dict(q=q.float()), "q must be a CUDA torch.bfloat16 tensor"),
        (dict(k=k.cpu()), "k must be a CUDA torch.bfloat16 tensor"),
        (dict(v=v[0]), "v must be a contiguous 4-D tensor"),
        (dict(q=q.transpose(1, 2)), "not contiguous"),
        (dict(k=torch.randn((1, 65, 2, 64), device="cuda").to(torch.bfloat16)),
         "must have one shape"),
        (dict(q=torch.randn((1, 8, 2, 96), device="cuda").to(torch.bfloat16),
              k=torch.randn((1, 8, 2, 96), device="cuda").to(torch.bfloat16),
              v=torch.randn((1, 8, 2, 96), device="cuda").to(torch.bfloat16)),
         "head_dim must be 64 or 128"),
        (dict(scale=0.0), "scale must be a positive finite number"),
        (dict(scale=float("nan")), "scale must be a positive finite number"),
        (dict(variant="fastest"), "variant is one of"),
        (dict(out=q), "out overlaps q"),
        (dict(out=torch.empty((1, 64, 2, 32), device="cuda", dtype=torch.bfloat16)),
         "out must be a contiguous"),
        (dict(lse=torch.empty((1, 2, 63), device="cuda")), "lse must be a contiguous"),
    ]
    for change, message in cases:
        args = dict(q=q, k=k, v=v)
        args.update(change)
        kw = {name: args.pop(name) for name in list(args) if name not in ("q", "k", "v")}
        with pytest.raises(pm.LaunchError, match=message):
            pm.attention(args["q"], args["k"], args["v"], **kw)
    # The same LSE buffer as the output is refused too.
    o = torch.empty_like(q)
    with pytest.raises(pm.LaunchError, match="lse overlaps out"):
        pm.attention(q, k, v, out=o, lse=o.view(-1).view(torch.float32)[:128].view(1, 2, 64))


def _emulated_cases():
    import emulated_cases
    try:
        return emulated_cases.cases()
    except Exception:  # the package cannot list its variants: no case
        return []


@pytest.mark.parametrize("name,kind,params", _emulated_cases(),
                         ids=[c[0] for c in _emulated_cases()])
def test_gpu_matches_emulator(name, kind, params):
    # The same kernel on the same random inputs, on this GPU and in the
    # emulator (python/tests/emulated_cases.py stored the emulator's outputs
    # in the kernel cache; emulated_cases.run_gpu launches the case here):
    # kernels without an MMA must match to the bit, kernels with MMAs
    # element by element within the bound the MMA summation order
    # justifies (emulated_cases.tolerance), in units in the last place.
    # Each case's comparison goes to $PIPELINE_MLIR_EMULATOR_REPORT when set.
    import json
    import os
    import pathlib
    import numpy as np
    import emulated_cases as ec
    import pipeline_mlir as pm
    if kind in ("gemm", "attention") and not _torch_cuda():
        pytest.skip("pm.gemm and pm.attention take torch tensors: no torch with CUDA")
    cache = os.environ.get("PIPELINE_MLIR_TEST_CACHE") or os.environ.get("PIPELINE_MLIR_CACHE")
    path = pathlib.Path(cache or "") / "emulated" / f"{name}.npz"
    if not cache or not path.exists():
        pytest.fail(f"no emulated outputs at {path}: run python/tests/emulated_cases.py with "
                    "PIPELINE_MLIR_TEST_CACHE set on a machine with the compiler")
    z = np.load(path)
    emulated = {key[4:]: z[key] for key in z.files if key.startswith("out_")}
    inputs = {key[3:]: z[key] for key in z.files if key.startswith("in_")}
    got = ec.run_gpu(kind, params, inputs)
    result = ec.compare(kind, params, inputs, emulated, got)
    report = os.environ.get("PIPELINE_MLIR_EMULATOR_REPORT")
    if report:
        with open(report, "a") as f:
            f.write(json.dumps(dict(name=name, kind=kind, device=pm.device_info()["name"],
                                    **result)) + "\n")
    if result["comparison"] == "bitwise":
        assert result["ok"], \
            f"{name}: the GPU and the emulator differ in {result['mismatches']} elements " \
            f"(first: index, GPU, emulator: {result.get('first')})"
    for key, share in result.get("of_bound", {}).items():
        assert share <= 1.0, \
            f"{name} {key}: the GPU and the emulator differ by {share:.2f} of the bound " \
            f"(at most {result['worst_ulps'][key]} ulps; " \
            f"{result['bitwise_equal'][key]:.2%} of the elements bitwise equal)"


# --- pm.scaled_mm: the sm_90a FP8 GEMM -------------------------------------------

def _fp8_operands(m, n, k, mode, seed, column_major_scales=False):
    """e4m3 a (M x K), b (K x N column-major, as torch._scaled_mm takes it)
    and f32 scales of the scaling `mode`, from random data."""
    import torch
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.randn((m, k), generator=g, device="cuda") * 4).to(torch.float8_e4m3fn)
    w = (torch.randn((n, k), generator=g, device="cuda") * 4).to(torch.float8_e4m3fn)
    kb, nb = -(-k // 128), -(-n // 128)

    def uniform(*shape):
        return torch.rand(shape, generator=g, device="cuda") * 1.5 + 0.5
    if mode == "tensor":
        sa, sb = uniform(), uniform()
    elif mode == "row":
        sa, sb = uniform(m, 1), uniform(1, n)
    else:
        sa = uniform(kb, m).t() if column_major_scales else uniform(m, kb)
        sb = uniform(nb, kb)
    return a, w.t(), sa, sb


def _fp8_reference(a, b, sa, sb, mode):
    """The f32 product of the dequantized operands (each k-block of 128
    scaled apart for block scaling)."""
    x, y = a.float(), b.float()
    if mode != "block":
        return (x @ y) * sa.reshape(-1, 1) * sb.reshape(1, -1)
    n = y.shape[1]
    out = 0
    for kb in range(sa.shape[1]):
        ks = slice(128 * kb, 128 * kb + 128)
        col_scale = sb[:, kb].repeat_interleave(128)[:n]
        out = out + (x[:, ks] @ y[ks]) * sa[:, kb:kb + 1] * col_scale[None, :]
    return out


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
@pytest.mark.parametrize("variant, mode", [
    ("bn256", "tensor"), ("bn256n", "row"), ("bn128", "row"), ("bn128n", "tensor"),
    ("m64n128", "row"), ("m64n256", "tensor"), ("m64n64", "row"), ("bn128p", "row"),
    ("m64n128p", "tensor"), ("block", "block"), ("block_m64", "block"),
    ("bn256n4", "row"), ("m64n64k", "row"), ("m64n128k", "tensor"), ("bn128k", "row"),
    ("bn256s", "row"), ("bn128s", "tensor"), ("m64n128s", "row"), ("bn256c2", "row"),
    ("bn128c2", "tensor"), ("bn128pp", "row"),
    (None, "tensor"), (None, "row"), (None, "block")])
@pytest.mark.parametrize("shape", [(16, 4096, 4096), (200, 136, 80), (1000, 1024, 528),
                                   (257, 520, 1040), (4096, 4096, 1024), (250, 520, 4112)])
def test_pm_scaled_mm(variant, mode, shape):
    # Against the dequantized f32 product: partial tiles in M, N and K, C
    # not zero before the call.
    import torch
    import pipeline_mlir as pm
    m, n, k = shape
    a, b, sa, sb = _fp8_operands(m, n, k, mode, m * 7 + n * 3 + k)
    c = torch.full((m, n), 3.0, device="cuda", dtype=torch.bfloat16)
    assert pm.scaled_mm(a, b, sa, sb, c, variant=variant) is c
    torch.cuda.synchronize()
    ref = _fp8_reference(a, b, sa, sb, mode)
    err = (c.float() - ref).abs().max().item() / ref.abs().max().item()
    # Split-K adds bf16-rounded partial tiles: one rounding per slice more.
    from pipeline_mlir import fp8_gemm
    tol = 2e-2 if variant and fp8_gemm.CONFIGS[variant].get("split_k") else 1e-2
    assert err < tol, f"{variant} {mode} {shape}: max error {err:.2e} of max |C|"


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_scaled_mm_matches_torch_and_block_scale_strides():
    import torch
    import pipeline_mlir as pm
    m, n, k = 512, 1024, 2048
    for mode in ("tensor", "row"):
        a, b, sa, sb = _fp8_operands(m, n, k, mode, 5)
        if mode == "tensor":
            sa, sb = sa.reshape(()), sb.reshape(())
        ours = pm.scaled_mm(a, b, sa, sb)
        try:
            theirs = torch._scaled_mm(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.bfloat16)
        except RuntimeError as e:   # a torch without this scaling on this GPU
            pytest.skip(f"torch._scaled_mm: {e}")
        err = (ours.float() - theirs.float()).abs().max() / theirs.float().abs().max()
        assert err.item() < 1e-2, f"{mode}: {err.item():.2e}"
    # Block scales of A stored M-major (strides (1, M), as DeepGEMM keeps them).
    a, b, sa, sb = _fp8_operands(m, n, k, "block", 6, column_major_scales=True)
    assert sa.stride() == (1, m)
    c = pm.scaled_mm(a, b, sa, sb)
    ref = _fp8_reference(a, b, sa, sb, "block")
    err = (c.float() - ref).abs().max().item() / ref.abs().max().item()
    assert err < 1e-2


@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
def test_pm_scaled_mm_refuses():
    import torch
    import pipeline_mlir as pm
    a, b, sa, sb = _fp8_operands(64, 256, 512, "row", 1)
    with pytest.raises(pm.LaunchError, match="b must be column-major"):
        pm.scaled_mm(a, b.contiguous(), sa, sb)
    with pytest.raises(pm.LaunchError, match="a must be a CUDA torch.float8_e4m3fn tensor"):
        pm.scaled_mm(a.float(), b, sa, sb)
    with pytest.raises(pm.LaunchError, match="scale_a must be a CUDA torch.float32 tensor"):
        pm.scaled_mm(a, b, sa.double(), sb)
    with pytest.raises(pm.LaunchError, match="no scaling of a 64 x 512 by 512 x 256"):
        pm.scaled_mm(a, b, sa, sb.t())
    with pytest.raises(pm.LaunchError, match="out_dtype is torch.bfloat16"):
        pm.scaled_mm(a, b, sa, sb, out_dtype=torch.float16)
    with pytest.raises(pm.LaunchError, match="out overlaps a"):
        pm.scaled_mm(a, b, sa, sb, a.view(torch.bfloat16))   # 64 x 256 bf16 over a


# --- pm.attention's persistent variants --------------------------------------------

@pytest.mark.skipif(not _torch_cuda(), reason="no torch with CUDA")
@pytest.mark.parametrize("variant", ["2wg-pingpong-p", "2wg-overlap-p", "2wg-serial-p",
                                     "1wg-overlap-p", "1wg-serial-p"])
@pytest.mark.parametrize("head_dim", [64, 128])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("shape", [(1, 1, 1), (3, 77, 2), (2, 300, 5), (2, 1000, 3),
                                   (4, 513, 40), (16, 512, 16)])
def test_pm_attention_persistent(variant, head_dim, causal, shape):
    # The persistent variants (a grid of the CTAs the GPU holds, each
    # looping over query blocks) against an f32 reference, as
    # test_pm_attention: odd seqlens, one key block (77), fewer tiles than
    # SMs and, for the last two shapes, several tiles per CTA (800 and
    # 1024 query blocks of 128 rows). The output starts as NaN: every
    # element must be written exactly by the tile that owns it.
    import torch
    import pipeline_mlir as pm
    from pipeline_mlir.attention_fwd import fits, grid
    if not fits(head_dim, variant):
        pytest.skip(f"{variant} is for head_dim 64 only")
    batch, seqlen, heads = shape
    sm = torch.cuda.get_device_properties(0).multi_processor_count
    assert grid(head_dim, causal, variant, batch, seqlen, heads, sm)[0] <= 2 * sm
    (q, k, v), out, scale, lse = _check_attention(variant, head_dim, causal, shape)
    # A second call reuses the prepared launch (its grid) and writes the
    # same output again into the refilled buffer.
    first = out.clone()
    out.fill_(float("nan"))
    pm.attention(q, k, v, causal=causal, scale=scale, out=out, lse=lse, variant=variant)
    torch.cuda.synchronize()
    assert torch.equal(out, first)
