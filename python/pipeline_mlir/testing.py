"""Timing helpers for kernels launched from Python (`pipeline_mlir.testing`).

`do_bench(fn)` times `fn` (anything that queues GPU work on one stream:
a prepared launch, `pm.gemm`, a torch op) with CUDA events on that stream,
in batches of back-to-back calls, after warm-up calls; `compare` times
several callables interleaved, the order alternating each repetition, as
the project's benchmarks do. Times are milliseconds per call.
"""

from __future__ import annotations

import ctypes
import statistics

from typing import Any, Callable, Dict

from .driver import driver
from .errors import LaunchError


def _stream_handle(stream):
    """A CUstream handle: None (torch's current stream if torch is there,
    else the legacy default stream), an int, or an object with
    `.cuda_stream` (torch.cuda.Stream)."""
    if stream is None:
        try:
            import torch
            if torch.cuda.is_available():
                return torch.cuda.current_stream().cuda_stream
        except ImportError:
            pass
        return 0
    if isinstance(stream, int):
        return stream
    handle = getattr(stream, "cuda_stream", None)
    if not isinstance(handle, int):
        raise LaunchError(f"stream must be None, a CUstream handle (int) or a stream with "
                          f".cuda_stream, got {type(stream).__name__}")
    return handle


class _Events:
    def __init__(self):
        self.d = driver()
        self.start, self.stop = ctypes.c_void_p(), ctypes.c_void_p()
        for ev in (self.start, self.stop):
            self.d.check(self.d.lib.cuEventCreate(ctypes.byref(ev), 0), "cuEventCreate")

    def time(self, fn, batch, stream):
        d = self.d
        d.check(d.lib.cuEventRecord(self.start, ctypes.c_void_p(stream)), "cuEventRecord")
        for _ in range(batch):
            fn()
        d.check(d.lib.cuEventRecord(self.stop, ctypes.c_void_p(stream)), "cuEventRecord")
        d.check(d.lib.cuEventSynchronize(self.stop), "cuEventSynchronize")
        ms = ctypes.c_float()
        d.check(d.lib.cuEventElapsedTime(ctypes.byref(ms), self.start, self.stop),
                "cuEventElapsedTime")
        return ms.value / batch

    def close(self):
        for ev in (self.start, self.stop):
            self.d.lib.cuEventDestroy_v2(ev)


def _check_counts(reps, batch, warmup):
    for name, v, low in (("reps", reps, 1), ("batch", batch, 1), ("warmup", warmup, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < low:
            raise LaunchError(f"{name} must be an integer of at least {low}, got {v!r}")


def compare(fns: Dict[str, Callable[[], Any]], *, reps: int = 10, batch: int = 20,
            warmup: int = 2, stream: Any = None) -> Dict[str, Dict[str, Any]]:
    """Times each callable of `fns` (a dict label -> callable), interleaved:
    each repetition times a batch of `batch` back-to-back calls of each, the
    order reversed every other repetition. Returns {label: {"median",
    "min", "max": ms per call, "times": [ms per call per repetition]}}."""
    if not isinstance(fns, dict) or not fns or not all(callable(f) for f in fns.values()):
        raise LaunchError("compare takes a non-empty dict of label -> callable")
    _check_counts(reps, batch, warmup)
    handle = _stream_handle(stream)
    events = _Events()
    try:
        order = list(fns)
        for _ in range(warmup):
            for label in order:
                fns[label]()
        times = {label: [] for label in order}
        for r in range(reps):
            for label in (order if r % 2 == 0 else order[::-1]):
                times[label].append(events.time(fns[label], batch, handle))
    finally:
        events.close()
    return {label: {"median": statistics.median(t), "min": min(t), "max": max(t),
                    "times": t} for label, t in times.items()}


def do_bench(fn: Callable[[], Any], *, reps: int = 10, batch: int = 20, warmup: int = 2,
             stream: Any = None) -> float:
    """Median milliseconds per call of `fn` (see `compare`)."""
    if not callable(fn):
        raise LaunchError(f"do_bench takes a callable, got {type(fn).__name__}")
    return compare({"fn": fn}, reps=reps, batch=batch, warmup=warmup,
                   stream=stream)["fn"]["median"]
