"""pipeline_mlir.testing: arguments are checked before any GPU work."""

import pytest

import pipeline_mlir as pm


@pytest.mark.parametrize("call,match", [
    (lambda: pm.testing.do_bench(3), "takes a callable"),
    (lambda: pm.testing.do_bench(lambda: None, reps=0), "reps must be an integer of at least 1"),
    (lambda: pm.testing.do_bench(lambda: None, batch=2.5), "batch must be an integer"),
    (lambda: pm.testing.do_bench(lambda: None, warmup=-1), "warmup must be an integer of "
                                                           "at least 0"),
    (lambda: pm.testing.do_bench(lambda: None, stream="s"), "stream must be None, a CUstream"),
    (lambda: pm.testing.compare({}), "non-empty dict"),
    (lambda: pm.testing.compare([lambda: None]), "non-empty dict"),
])
def test_bad_arguments(call, match):
    with pytest.raises(pm.LaunchError, match=match):
        call()
