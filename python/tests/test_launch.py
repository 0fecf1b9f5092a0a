"""The launcher's checks (without a GPU) and bf16."""

import numpy as np
import pytest

import pipeline_mlir as pm
import conftest
import handoff_ring


def _kernel():
    return pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False).kernel()


def test_wrong_dtype():
    k = _kernel()
    with pytest.raises(pm.LaunchError, match=r"argument src expects memref<1000x32xi32>.*float32"):
        k(np.zeros((1000, 32), np.float32), np.zeros((1000, 32), np.int32), block=64)


def test_wrong_shape():
    k = _kernel()
    with pytest.raises(pm.LaunchError, match=r"argument dst expects shape \(1000, 32\)"):
        k(np.zeros((1000, 32), np.int32), np.zeros((32, 1000), np.int32), block=64)


def test_wrong_argument_count_and_dims():
    k = _kernel()
    with pytest.raises(pm.LaunchError, match="takes 2 arguments"):
        k(np.zeros((1000, 32), np.int32), block=64)
    a = np.zeros((1000, 32), np.int32)
    with pytest.raises(pm.LaunchError, match="at most 1024 threads"):
        k(a, a, block=(64, 32))
    with pytest.raises(pm.LaunchError, match="positive ints"):
        k(a, a, grid=0)


@pytest.mark.skipif(conftest.have_gpu(), reason="this machine has a GPU")
def test_no_driver_is_a_clear_error():
    a = np.zeros((1000, 32), np.int32)
    with pytest.raises(pm.CudaError, match="driver"):
        _kernel()(a, a, block=64, smem=handoff_ring.SMEM)


def test_bf16_round_trip():
    x = np.array([1.0, -2.5, 3.140625, 0.0, -0.0, np.inf], np.float32)
    assert np.array_equal(pm.from_bf16(pm.to_bf16(x)), x)  # all exact in bf16
    # Ties round to even: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7.
    assert pm.to_bf16(np.float32(1 + 2**-8)) == pm.to_bf16(np.float32(1.0))
    assert pm.from_bf16(pm.to_bf16(np.float32(1 + 3 * 2**-8))) == np.float32(1 + 2**-6)
    assert np.isnan(pm.from_bf16(pm.to_bf16(np.float32(np.nan))))


def test_dynamic_memref_parameters():
    """A memref of dynamic shape is its pointer, offset 0, sizes and
    row-major strides (elements); a static one is one pointer."""
    from pipeline_mlir.driver import memref_params
    import dynamic_shapes
    got = [v.value for v in memref_params(dynamic_shapes.Mat, 0x1000, (7, 4))]
    assert got == [0x1000, 0, 7, 4, 4, 1]
    got = [v.value for v in memref_params(pm.memref((3, None, 5), pm.i32), 0x2000, (3, 2, 5))]
    assert got == [0x2000, 0, 3, 2, 5, 10, 5, 1]
    assert [v.value for v in memref_params(pm.memref((8,), pm.i32), 0x3000, (8,))] == [0x3000]


def test_dynamic_memref_compiles_to_its_parameters():
    import dynamic_shapes
    ptx = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a", assemble=False).ptx
    params = [line.split()[-1].rstrip(",") for line in ptx.splitlines()
              if line.strip().startswith(".param")]
    # src: pointer, offset, 2 sizes, 2 strides; dst: pointer, offset, size,
    # stride; factor.
    assert len(params) == 6 + 4 + 1, params


def test_dynamic_memref_shape_checked():
    import dynamic_shapes
    k = pm.compile(dynamic_shapes.scale_rows, chip="sm_90a", assemble=False).kernel()
    dst = np.zeros(10, np.int32)
    with pytest.raises(pm.LaunchError, match=r"argument src expects shape \(\?, 4\)"):
        k(np.zeros((10, 3), np.int32), dst, 2, block=128)
    with pytest.raises(pm.LaunchError, match=r"argument dst expects shape \(\?,\)"):
        k(np.zeros((10, 4), np.int32), np.zeros((10, 1), np.int32), 2, block=128)


def test_declared_block_size_is_required():
    # A kernel that declares its block size (its warp roles) carries it as
    # .reqntid, and a launch with another block is refused before the
    # driver is touched: the ring without its consumer warp would hang.
    import numpy as np
    import handoff_ring
    from pipeline_mlir.driver import required_block
    compiled = pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False)
    assert required_block(compiled.ptx, "handoff_ring") == (64, 1, 1)
    src = np.zeros((handoff_ring.ROWS, 32), np.int32)
    with pytest.raises(pm.LaunchError, match=r"requires block \(64, 1, 1\) .*got \(32, 1, 1\)"):
        compiled.kernel()(src, src.copy(), block=32, smem=handoff_ring.SMEM)


def test_shared_memory_the_kernel_needs_is_required():
    # The compiler records the dynamic shared memory a kernel needs at
    # least (pipeline-record-launch-contract: the end of its barriers and
    # static views), and a launch with less is refused before the driver is
    # touched: the ring's barriers and its 4 x 32 i32 stages need 64 + 512
    # bytes; the GEMM builder's barriers, A and B stages 1024 + 4 x 16 KiB
    # + 4 x 16 KiB.
    import numpy as np
    import gemm_builder
    import handoff_ring
    from pipeline_mlir.driver import required_smem
    compiled = pm.compile(handoff_ring.handoff_ring, chip="sm_90a", assemble=False)
    assert required_smem(compiled.ptx, "handoff_ring") == handoff_ring.SMEM == 576
    src = np.zeros((handoff_ring.ROWS, 32), np.int32)
    with pytest.raises(pm.LaunchError, match=r"needs at least 576 bytes of dynamic shared "
                                             r"memory .*got smem=512"):
        compiled.kernel()(src, src.copy(), block=64, smem=512)
    with pytest.raises(pm.LaunchError, match="smem is a number of bytes"):
        compiled.kernel()(src, src.copy(), block=64, smem=576.0)
    gemm = pm.compile(gemm_builder.gemm_bf16, chip="sm_90a", assemble=False)
    assert required_smem(gemm.ptx, "gemm_bf16") == gemm_builder.SMEM == 1024 + 8 * 16384


@pytest.mark.parametrize("block,match", [(0, "positive integers"), ((64, 2.0), "positive"),
                                         ((1, 1, 1, 1), "1 to 3"), (2048, "at most 1024"),
                                         (True, "positive integers")])
def test_declared_block_size_arguments(block, match):
    with pytest.raises(pm.BuildError, match=match):
        @pm.kernel(block=block)
        def k(x: pm.memref((4,), pm.i32)):
            pass


def test_public_api_is_annotated():
    # The package ships py.typed: its public entry points carry type
    # annotations for every parameter and the result.
    import inspect
    import pathlib
    assert (pathlib.Path(pm.__file__).parent / "py.typed").exists()
    from pipeline_mlir.driver import LoadedKernel, TensorMap
    functions = [pm.compile, pm.check, pm.gemm, pm.attention, pm.testing.compare,
                 pm.testing.do_bench, pm.kernel, pm.range, pm.if_, pm.op, pm.view, pm.subview,
                 pm.constant, pm.thread_id, pm.block_id, pm.dynamic_shared_memory,
                 pm.pipeline, pm.tile_pipeline, pm.tma_load, pm.pipeline_op,
                 pm.Module.from_mlir, TensorMap.__init__, LoadedKernel.__call__,
                 LoadedKernel.prepare, pm.chips, pm.option_defaults, pm.cache_dir]
    for f in functions:
        sig = inspect.signature(f)
        missing = [p.name for p in sig.parameters.values()
                   if p.name not in ("self", "cls") and p.annotation is inspect.Parameter.empty]
        assert not missing, f"{f.__qualname__}: {missing} not annotated"
        assert sig.return_annotation is not inspect.Signature.empty, f"{f.__qualname__} -> ?"


def test_declared_cluster_is_required():
    # A kernel that declares its cluster shape (@pm.kernel(cluster=...), or
    # nvvm.cluster_dim in MLIR text: its multicasts and remote arrivals
    # assume it) carries it as .reqnctapercluster, and a launch with another
    # cluster or none is refused before the driver is touched.
    import numpy as np
    from pipeline_mlir.driver import required_cluster

    @pm.kernel(block=32, cluster=2)
    def pair(x: pm.memref((64,), pm.i32)):
        i = pm.block_id() * 32 + pm.thread_id()
        x[i] = i.cast(pm.i32)

    compiled = pm.compile(pair, chip="sm_90a", assemble=False)
    assert ".explicitcluster" in compiled.ptx
    assert required_cluster(compiled.ptx, "pair") == (2, 1, 1)
    x = np.zeros(64, np.int32)
    with pytest.raises(pm.LaunchError, match=r"requires cluster \(2, 1, 1\).*got no cluster"):
        compiled.kernel()(x, grid=2, block=32)
    with pytest.raises(pm.LaunchError, match=r"requires cluster \(2, 1, 1\).*got \(1, 2, 1\)"):
        compiled.kernel()(x, grid=(2, 2), block=32, cluster=(1, 2))
    with pytest.raises(pm.BuildError, match="cluster is 1 to 3 positive integers"):
        pm.kernel(cluster=0)(lambda x: None)
    with pytest.raises(pm.BuildError, match="at most 16 CTAs"):
        @pm.kernel(cluster=(4, 8))
        def big(x: pm.memref((64,), pm.i32)):
            pass


def _module(params, ptx=""):
    """A compiled module with one kernel `k` of `params`, without the
    compiler (its PTX is only read for launch contracts)."""
    from pipeline_mlir.compiler import CompiledModule
    return CompiledModule("m", ptx, None, "sm_90a", {"k": list(params)})


@pytest.mark.parametrize("launch,match", [
    (dict(block=32.0), r"kernel k: block=32\.0: .*got float \(write block=32\)"),
    (dict(grid="4"), r"kernel k: grid='4': .*got str"),
    (dict(block=(32, 1.5)), r"kernel k: block=\(32, 1\.5\): block dims are 1 to 3 positive"),
    (dict(cluster=2.0), r"kernel k: cluster=2\.0: .*got float"),
    (dict(block=True), r"kernel k: block=True: .*got bool"),
])
def test_launch_dims_name_the_argument(launch, match):
    # block=32.0 was "'float' object is not iterable" from tuple(32.0).
    k = _module([("x", pm.memref((4,), pm.i32))]).kernel()
    with pytest.raises(pm.LaunchError, match=match):
        k(np.zeros(4, np.int32), **launch)


def test_launch_dims_take_numpy_integers():
    from pipeline_mlir.driver import _dims
    assert _dims(np.int64(64), "block") == (64, 1, 1)
    assert _dims((np.int32(2), 3), "grid") == (2, 3, 1)


class _HostTensor:
    """An array in host memory, as DLPack sees a CPU torch tensor."""

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU

    def __dlpack__(self, stream=None):
        raise AssertionError("the launcher must not export a host array")


def test_array_in_host_memory_is_a_launch_error():
    # A CPU torch tensor passed for a memref parameter: a LaunchError that
    # names the argument and says what to pass, before the driver is
    # touched (it was torch's ValueError, from its current stream of the
    # CPU device).
    k = _module([("x", pm.memref((4,), pm.i32))]).kernel()
    with pytest.raises(pm.LaunchError, match=r"kernel k: argument x is a _HostTensor on the "
                                             r"CPU, not on the GPU: .*numpy array"):
        k(_HostTensor(), block=32)
    with pytest.raises(pm.LaunchError, match="argument x is a _HostTensor on the CPU"):
        k.prepare(_HostTensor(), block=32)


def test_default_stream_ignores_tensors_in_host_memory():
    # torch's current stream is asked for a CUDA tensor's device only: a CPU
    # tensor is refused by the argument checks instead of torch raising.
    from pipeline_mlir.driver import _default_stream

    class Device:
        type = "cpu"

    class Tensor:
        device = Device()
    assert _default_stream([Tensor()], None) is None
    assert _default_stream([Tensor()], 7) == 7


def test_tensormap_says_what_it_takes():
    # A TMA descriptor holds a device address: a numpy array is refused with
    # what to pass instead (the message said it took numpy arrays).
    with pytest.raises(pm.LaunchError, match=r"needs an array in GPU memory, got a numpy "
                                             r"array: upload it with .*DeviceArray\.from_numpy"):
        pm.TensorMap(np.zeros((64, 64), np.float32), (32, 32))
    with pytest.raises(pm.LaunchError, match=r"GPU memory, got a _HostTensor on the CPU"):
        pm.TensorMap(_HostTensor(), (32, 32))
    with pytest.raises(pm.LaunchError, match=r"expects an array in GPU memory \(pm\.DeviceArray, "
                                             r"or an object with __dlpack__") as info:
        pm.TensorMap([[0.0] * 64] * 64, (32, 32))
    assert "numpy" not in str(info.value)


def test_memref_argument_of_another_kind_names_it():
    k = _module([("x", pm.memref((4,), pm.i32))]).kernel()
    with pytest.raises(pm.LaunchError, match=r"kernel k: argument x: expects an array in GPU "
                                             r"memory .* or a numpy array .*got list"):
        k._argument("kernel k", "x", pm.memref((4,), pm.i32), [1, 2, 3, 4], [], [])


def test_recorded_launch_contracts_are_read_by_name():
    # The compiler's recorded contracts are PTX constants
    # __pipeline_mlir_min_<what>_<kernel>; each is read by its name.
    from pipeline_mlir.driver import _recorded_contract, required_smem
    ptx = (".global .align 8 .u64 __pipeline_mlir_min_smem_k = 576;\n"
           ".global .align 8 .u64 __pipeline_mlir_min_smem_k2 = 64;\n")
    assert required_smem(ptx, "k") == 576 and required_smem(ptx, "k2") == 64
    assert _recorded_contract(ptx, "smem", "k") == 576
    assert _recorded_contract(ptx, "block", "k") is None
    k = _module([("x", pm.memref((4,), pm.i32))], ptx).kernel()
    with pytest.raises(pm.LaunchError, match="needs at least 576 bytes"):
        k(np.zeros(4, np.int32), block=32, smem=512)
