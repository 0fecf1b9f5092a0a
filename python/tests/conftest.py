import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "python" / "examples"))


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Each test compiles into its own cache (no state between tests),
    unless PIPELINE_MLIR_TEST_CACHE names one: a machine without the
    compiler (a GPU machine) runs the GPU tests from a cache filled
    elsewhere (python/tests/fill_cache.py)."""
    shared = os.environ.get("PIPELINE_MLIR_TEST_CACHE")
    monkeypatch.setenv("PIPELINE_MLIR_CACHE", shared or str(tmp_path / "cache"))


def cuda_path():
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            return os.environ[var]
    return "/usr/local/cuda"


def have_ptxas():
    return os.path.exists(os.path.join(cuda_path(), "bin", "ptxas"))


def have_gpu():
    try:
        import pipeline_mlir as pm
        pm.device_info()
        return True
    except Exception:
        return False
