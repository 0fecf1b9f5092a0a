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
        _kernel()(a, a, block=64)


def test_bf16_round_trip():
    x = np.array([1.0, -2.5, 3.140625, 0.0, -0.0, np.inf], np.float32)
    assert np.array_equal(pm.from_bf16(pm.to_bf16(x)), x)  # all exact in bf16
    # Ties round to even: 1 + 2^-8 lies halfway between 1 and 1 + 2^-7.
    assert pm.to_bf16(np.float32(1 + 2**-8)) == pm.to_bf16(np.float32(1.0))
    assert pm.from_bf16(pm.to_bf16(np.float32(1 + 3 * 2**-8))) == np.float32(1 + 2**-6)
    assert np.isnan(pm.from_bf16(pm.to_bf16(np.float32(np.nan))))
