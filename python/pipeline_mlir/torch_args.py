"""The argument checks of the torch entry points (pm.gemm, pm.attention):
every misuse is a LaunchError that names the function and the argument,
raised before any GPU work. `fn` is the name the messages start with.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from .errors import LaunchError

#: (name, tensor) pairs, in the order of the function's parameters.
Named = Sequence[Tuple[str, Any]]


def import_torch(fn: str) -> Any:
    """The torch module, or a LaunchError saying `fn` needs it."""
    try:
        import torch
    except ImportError as e:
        raise LaunchError(f"pipeline_mlir.{fn} takes torch tensors: torch is not "
                          "installed") from e
    return torch


def _listed(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def inputs(fn: str, tensors: Named, rank: Optional[int], layout: str = "",
           dtype: Any = None) -> None:
    """Each tensor a CUDA tensor of `dtype` (torch.bfloat16 by default),
    contiguous, of `rank` dimensions (`layout` names them in the message;
    rank None: any rank and strides), all on one device."""
    import torch
    dtype = torch.bfloat16 if dtype is None else dtype
    for name, t in tensors:
        if not isinstance(t, torch.Tensor) or not t.is_cuda or t.dtype != dtype:
            got = type(t).__name__
            if isinstance(t, torch.Tensor):
                got += f" {t.dtype} on {t.device}"
            raise LaunchError(f"{fn}: {name} must be a CUDA {dtype} tensor, got {got}")
        if rank is None:
            continue
        if t.dim() != rank or not t.is_contiguous():
            raise LaunchError(f"{fn}: {name} must be a contiguous {rank}-D tensor"
                              f"{' ' + layout if layout else ''}, got shape {tuple(t.shape)}"
                              + (" (not contiguous)" if t.dim() == rank else ""))
    first = tensors[0][1]
    if any(t.device != first.device for _, t in tensors[1:]):
        raise LaunchError(f"{fn}: {_listed([name for name, _ in tensors])} must be on one "
                          "device")


def output(fn: str, name: str, t: Optional[Any], shape: Tuple[int, ...], dtype: Any,
           like: Tuple[str, Any]) -> Any:
    """`t`, checked to be a contiguous tensor of `shape` and `dtype` on the
    device of the input `like` (name, tensor); a new one when `t` is None."""
    import torch
    shape = tuple(shape)
    like_name, like_t = like
    if t is None:
        return torch.empty(shape, dtype=dtype, device=like_t.device)
    if (not isinstance(t, torch.Tensor) or tuple(t.shape) != shape or t.dtype != dtype
            or not t.is_contiguous() or t.device != like_t.device):
        dtype_name = str(dtype).replace("torch.", "")
        raise LaunchError(f"{fn}: {name} must be a contiguous {shape} {dtype_name} tensor "
                          f"on {like_name}'s device")
    return t


def _overlap(a: Any, b: Any) -> bool:
    return (a.data_ptr() < b.data_ptr() + b.numel() * b.element_size()
            and b.data_ptr() < a.data_ptr() + a.numel() * a.element_size())


def disjoint(fn: str, written: Named, read: Named, why: str = "") -> None:
    """No output (`written`) shares memory with an input (`read`) or with an
    earlier output: the kernel writes the ones while it reads the others.
    `why` ends the message."""
    for i, (name, out) in enumerate(written):
        for other, t in list(read) + list(written[:i]):
            if _overlap(out, t):
                raise LaunchError(f"{fn}: {name} overlaps {other}" + (f": {why}" if why else ""))


def launch_key(tensors: Sequence[Any], stream: Any, *extra: Any) -> Optional[Tuple[Any, ...]]:
    """The key of an entry point's prepared launch: per tensor (None stays
    None) its address, shape, strides, dtype and device, then the stream's
    handle (torch's current stream on the first tensor's device when
    `stream` is None) and `extra` (the options). Every check of the entry
    point reads only these, so a call whose key matches one that passed
    them passes them again, and launches what that call prepared without
    checking anew. None when an argument is no tensor (the checks say
    what is wrong)."""
    import torch
    key = []
    try:
        for t in tensors:
            key.append(None if t is None else
                       (t.data_ptr(), t.shape, t.stride(), t.dtype, t.is_cuda, t.get_device()))
        if stream is None:
            handle = torch._C._cuda_getCurrentRawStream(tensors[0].get_device())
        else:
            handle = getattr(stream, "cuda_stream", stream)
        key.append(handle)
        key.extend(extra)
        result = tuple(key)
        hash(result)
    except (AttributeError, TypeError, RuntimeError):
        return None
    return result
