"""The launcher: the CUDA driver library (libcuda.so.1) through ctypes.

No CUDA toolkit is needed at run time. Kernels run in the device's primary
context (the one torch and cupy use). A launch with torch tensors goes to
torch's current stream and does not wait (torch's model); other launches
go to the given stream or the legacy default stream and wait for it, which
turns an asynchronous fault into a CudaError at the launch that caused it.
"""

from __future__ import annotations

import ctypes
import hashlib
import math
import re
from typing import TYPE_CHECKING, Any, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import types as T
from .dtypes import NUMPY
from . import _generated
from .errors import CudaError, LaunchError

if TYPE_CHECKING:
    from .emulator import Emulation

_CU_DEVICE_ATTRIBUTE_CC_MAJOR = 75
_CU_DEVICE_ATTRIBUTE_CC_MINOR = 76
_CU_DEVICE_ATTRIBUTE_SMEM_OPTIN = 97
_CU_DEVICE_ATTRIBUTE_SM_COUNT = 16
_CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
_CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
_CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14
_CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4


class _LaunchAttribute(ctypes.Structure):
    _fields_ = [("id", ctypes.c_int), ("pad", ctypes.c_char * 4),
                ("value", ctypes.c_uint32 * 16)]


class _LaunchConfig(ctypes.Structure):
    _fields_ = [("gridDimX", ctypes.c_uint), ("gridDimY", ctypes.c_uint),
                ("gridDimZ", ctypes.c_uint), ("blockDimX", ctypes.c_uint),
                ("blockDimY", ctypes.c_uint), ("blockDimZ", ctypes.c_uint),
                ("sharedMemBytes", ctypes.c_uint), ("hStream", ctypes.c_void_p),
                ("attrs", ctypes.POINTER(_LaunchAttribute)),
                ("numAttrs", ctypes.c_uint)]


class _Driver:
    def __init__(self, path="libcuda.so.1"):
        try:
            self.lib = ctypes.CDLL(path)
        except OSError:
            raise CudaError(f"the CUDA driver ({path}) is not installed on this machine: "
                            "kernels can be compiled here but not launched") from None
        self.check(self.lib.cuInit(0), "cuInit")
        count = ctypes.c_int()
        self.check(self.lib.cuDeviceGetCount(ctypes.byref(count)), "cuDeviceGetCount")
        if count.value == 0:
            raise CudaError("the CUDA driver sees no GPU")
        self.device = ctypes.c_int()
        self.check(self.lib.cuDeviceGet(ctypes.byref(self.device), 0), "cuDeviceGet")
        self.context = ctypes.c_void_p()
        self.check(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(self.context), self.device),
                   "cuDevicePrimaryCtxRetain")
        self.check(self.lib.cuCtxSetCurrent(self.context), "cuCtxSetCurrent")
        self.cc = (self.attribute(_CU_DEVICE_ATTRIBUTE_CC_MAJOR),
                   self.attribute(_CU_DEVICE_ATTRIBUTE_CC_MINOR))
        self.smem_optin = self.attribute(_CU_DEVICE_ATTRIBUTE_SMEM_OPTIN)
        self.sm_count = self.attribute(_CU_DEVICE_ATTRIBUTE_SM_COUNT)
        name = ctypes.create_string_buffer(256)
        self.check(self.lib.cuDeviceGetName(name, 256, self.device), "cuDeviceGetName")
        self.name = name.value.decode()
        self.modules = {}
        self.hang_record = None  # mapped pinned memory, once a module has the report
        self.hang_sites = ""
        for fn in ("cuMemAlloc_v2", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2", "cuMemFree_v2"):
            getattr(self.lib, fn).argtypes = None

    def error_text(self, code):
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        self.lib.cuGetErrorName(code, ctypes.byref(name))
        self.lib.cuGetErrorString(code, ctypes.byref(text))
        n = name.value.decode() if name.value else f"error {code}"
        t = text.value.decode() if text.value else ""
        return f"{n}: {t}" if t else n

    def check(self, code, what):
        if code != 0:
            raise CudaError(f"{what} failed: {self.error_text(code)}", code)

    def attribute(self, attr):
        v = ctypes.c_int()
        self.check(self.lib.cuDeviceGetAttribute(ctypes.byref(v), attr, self.device),
                   "cuDeviceGetAttribute")
        return v.value

    @property
    def chip(self):
        return f"sm_{self.cc[0]}{self.cc[1]}"

    def synchronize(self, stream=None, where="the kernel"):
        """Waits for `stream` (a CUstream handle; None: the legacy default
        stream), not for the whole context. A kernel compiled with the hang
        report that trapped raises its report."""
        code = self.lib.cuStreamSynchronize(ctypes.c_void_p(stream))
        if code != 0:
            report = self.hang_report()
            if report:
                # The kernel said where it waits before it trapped: that is
                # the error, the driver's code follows.
                raise CudaError(f"{report}\n(the kernel trapped: {self.error_text(code)})",
                                code)
        self.check(code, f"{where} (cuStreamSynchronize)")

    def capturing(self, stream):
        """Whether `stream` (a CUstream handle, None for the legacy default
        stream) is being captured into a CUDA graph."""
        status = ctypes.c_int()
        code = self.lib.cuStreamIsCapturing(ctypes.c_void_p(stream), ctypes.byref(status))
        return code == 0 and status.value != 0

    def _install_hang_report(self, module):
        """A module compiled with the hang report: its record's address goes
        into the module's buffer global (mapped pinned memory, read while or
        after the kernel hangs), its site table is read back."""
        layout = _generated.HANG_RECORD
        buffer, sites = ctypes.c_uint64(), ctypes.c_uint64()
        buffer_bytes, sites_bytes = ctypes.c_size_t(), ctypes.c_size_t()
        if (self.lib.cuModuleGetGlobal_v2(ctypes.byref(buffer), ctypes.byref(buffer_bytes),
                                          module, layout["buffer_symbol"].encode()) != 0
                or self.lib.cuModuleGetGlobal_v2(ctypes.byref(sites), ctypes.byref(sites_bytes),
                                                 module, layout["sites_symbol"].encode()) != 0):
            return None
        if self.hang_record is None:
            host = ctypes.c_void_p()
            self.check(self.lib.cuMemHostAlloc(ctypes.byref(host),
                                               ctypes.c_size_t(layout["record_bytes"]),
                                               ctypes.c_uint(0x1 | 0x2)),  # portable, mapped
                       "cuMemHostAlloc (hang record)")
            ctypes.memset(host, 0, layout["record_bytes"])
            self.hang_record = host
        device = ctypes.c_uint64()
        self.check(self.lib.cuMemHostGetDevicePointer_v2(ctypes.byref(device), self.hang_record,
                                                         ctypes.c_uint(0)),
                   "cuMemHostGetDevicePointer (hang record)")
        address = ctypes.c_uint64(device.value)
        self.htod(buffer.value, ctypes.addressof(address), 8)
        table = ctypes.create_string_buffer(sites_bytes.value)
        self.dtoh(ctypes.addressof(table), sites.value, sites_bytes.value)
        return table.raw.split(b"\0", 1)[0].decode(errors="replace")

    def hang_report(self):
        """The hang report of the last launch, if its kernel wrote one."""
        if self.hang_record is None:
            return ""
        words = (ctypes.c_uint32 * _generated.HANG_RECORD["words"]["num_words"]).from_address(
            self.hang_record.value)
        return format_hang_record(list(words), self.hang_sites)

    def reset_hang_report(self, sites):
        self.hang_sites = sites
        if self.hang_record is not None:
            ctypes.memset(self.hang_record, 0, _generated.HANG_RECORD["record_bytes"])

    def alloc(self, nbytes):
        ptr = ctypes.c_uint64()
        self.check(self.lib.cuMemAlloc_v2(ctypes.byref(ptr), ctypes.c_size_t(max(nbytes, 1))),
                   f"cuMemAlloc ({nbytes} bytes)")
        return ptr.value

    def free(self, ptr):
        self.lib.cuMemFree_v2(ctypes.c_uint64(ptr))

    def htod(self, ptr, host, nbytes, stream=None):
        """Copies host bytes to the device: waited for, or with a stream
        handle ordered on that stream (the source is staged before this
        returns)."""
        if stream:
            self.check(self.lib.cuMemcpyHtoDAsync_v2(
                ctypes.c_uint64(ptr), ctypes.c_void_p(host), ctypes.c_size_t(nbytes),
                ctypes.c_void_p(stream)), "cuMemcpyHtoDAsync")
            return
        self.check(self.lib.cuMemcpyHtoD_v2(ctypes.c_uint64(ptr), ctypes.c_void_p(host),
                                            ctypes.c_size_t(nbytes)), "cuMemcpyHtoD")

    def dtoh(self, host, ptr, nbytes):
        self.check(self.lib.cuMemcpyDtoH_v2(ctypes.c_void_p(host), ctypes.c_uint64(ptr),
                                            ctypes.c_size_t(nbytes)), "cuMemcpyDtoH")

    def function(self, compiled, name):
        # One CUmodule per distinct cubin (compiles and cache hits of the
        # same kernel share it); modules stay loaded for the process.
        key = getattr(compiled, "_module_key", None)
        if key is None:
            key = hashlib.sha256(compiled.cubin).hexdigest() if compiled.cubin else id(compiled)
            compiled._module_key = key
        if key not in self.modules:
            if not compiled.cubin:
                raise LaunchError(f"module {compiled.name} has no cubin (compiled with "
                                  "assemble=False)")
            module = ctypes.c_void_p()
            data = ctypes.create_string_buffer(compiled.cubin, len(compiled.cubin))
            self.check(self.lib.cuModuleLoadData(ctypes.byref(module), data),
                       f"loading {compiled.name} for {compiled.chip} on {self.name}")
            sites = None
            if _generated.HANG_RECORD["buffer_symbol"].encode() in compiled.cubin:
                sites = self._install_hang_report(module)
            self.modules[key] = (compiled, module, {}, sites)
        _, module, functions, sites = self.modules[key]
        if sites is not None:
            self.reset_hang_report(sites)
        if name not in functions:
            fn = ctypes.c_void_p()
            self.check(self.lib.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()),
                       f"cuModuleGetFunction({name})")
            functions[name] = fn
        return functions[name]


def format_hang_record(words, sites):
    """The hang report of a record (its 32-bit words) and a site table, as
    the C++ runtime and the C API print it (include/pipeline-c/HangRecord.h;
    the layout comes from there through _generated.HANG_RECORD); "" while
    the record is not written."""
    layout = _generated.HANG_RECORD
    w = layout["words"]
    if words[w["state"]] != layout["states"]["written"]:
        return ""
    if words[w["magic"]] != layout["magic"]:
        return "hang: a record without the hang report's magic number"
    fields = ["?", "?", "?"]
    sep = layout["site_separator"]
    for line in sites.split("\n"):
        parts = line.split(sep, 3)
        if len(parts) == 4 and parts[0] == str(words[w["site"]]):
            fields = parts[1:]
    return (f'hang: pipeline "{fields[0]}" ({fields[1]}), {fields[2]} waits for stage '
            f'{words[w["stage"]]} parity {words[w["parity"]]}, lap {words[w["lap"]]}, '
            f'CTA ({words[w["cta_x"]]},{words[w["cta_y"]]},{words[w["cta_z"]]}) warp '
            f'{words[w["warp"]]} lane {words[w["lane"]]} (cluster rank '
            f'{words[w["cluster_rank"]]})')


_driver = None


def driver():
    """The process's driver connection (created on first use)."""
    global _driver
    if _driver is None:
        _driver = _Driver()
    return _driver


def device_info():
    d = driver()
    return {"name": d.name, "chip": d.chip, "sm_count": d.sm_count,
            "max_dynamic_smem": d.smem_optin}


class DeviceArray:
    """A device allocation with a shape and a numpy dtype. Exposes
    __cuda_array_interface__, so torch/cupy can wrap it too."""

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(math.prod(self.shape)) * self.dtype.itemsize
        self._driver = driver()
        self.ptr = self._driver.alloc(self.nbytes)

    @classmethod
    def from_numpy(cls, array):
        array = np.ascontiguousarray(array)
        out = cls(array.shape, array.dtype)
        out._driver.htod(out.ptr, array.ctypes.data, array.nbytes)
        return out

    def numpy(self):
        out = np.empty(self.shape, self.dtype)
        self._driver.dtoh(out.ctypes.data, self.ptr, self.nbytes)
        return out

    def copy_from(self, array):
        array = np.ascontiguousarray(array, dtype=self.dtype)
        if array.shape != self.shape:
            raise LaunchError(f"shape {array.shape} does not match {self.shape}")
        self._driver.htod(self.ptr, array.ctypes.data, array.nbytes)

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False),
                "version": 3, "strides": None}

    def free(self):
        if self.ptr:
            self._driver.free(self.ptr)
            self.ptr = 0

    def __del__(self):
        try:
            self.free()
        except Exception:
            pass


def zeros(shape, dtype):
    return DeviceArray.from_numpy(np.zeros(shape, dtype))


_TMA_DTYPES = {"u8": 0, "i8": 0, "u16": 1, "bf16": 9, "u32": 2, "i32": 3, "u64": 4,
               "i64": 5, "f16": 6, "f32": 7, "f64": 8}
_ESIZE = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "bf16": 2, "f16": 2, "u32": 4, "i32": 4,
          "f32": 4, "u64": 8, "i64": 8, "f64": 8}
_L2PROMO = {"none": 0, "l2_64b": 1, "l2_128b": 2, "l2_256b": 3}
_SWIZZLE = {"none": 0, "swizzle_32b": 1, "swizzle_64b": 2, "swizzle_128b": 3}


class TensorMap:
    """A TMA descriptor (cuTensorMapEncodeTiled) of a row-major device array,
    copied to device memory: the kernel argument of a
    `!nvgpu.tensormap.descriptor` parameter. `box` is the tile shape,
    outermost first, as in the descriptor type's `tensor = memref<...>`.
    `stream` (a CUstream handle, or an object with `cuda_stream`): the
    descriptor is uploaded in that stream's order, for kernels launched
    on it; by default the upload is waited for. `hold=False`: the
    descriptor does not keep `array` alive (a cache of descriptors by
    address and shape, which stay right for whatever array lives there).

    `array` is in GPU memory: a pm.DeviceArray, or an object with
    `__dlpack__` or `__cuda_array_interface__` there (a CUDA torch tensor).
    A numpy array is refused: the descriptor holds an address in device
    memory, and a copy made here would not be seen by the caller (upload it
    with pm.DeviceArray.from_numpy(a) and keep the DeviceArray)."""

    def __init__(self, array: Any, box: Sequence[int], element: Optional[str] = None,
                 swizzle: str = "none", oob: str = "zero", l2promo: str = "none",
                 stream: Any = None, hold: bool = True) -> None:
        if isinstance(array, np.ndarray):
            raise LaunchError("pm.TensorMap needs an array in GPU memory, got a numpy array: "
                              "upload it with d = pm.DeviceArray.from_numpy(a) and pass d "
                              "(kept while the descriptor is used), or pass a CUDA tensor; "
                              "to run the kernel on the CPU (kernel.emulate), describe the "
                              "numpy array with pm.HostTensorMap(a, box, ...)")
        device = _dlpack_device(array)
        if device is not None and device[0] not in (2, 13):
            raise LaunchError(f"pm.TensorMap needs an array in GPU memory, got a "
                              f"{type(array).__name__} on {_dl_device_text(device[0])} (a "
                              "torch tensor: t.cuda())")
        self._keep = [array] if hold else []  # the descriptor holds the address
        ptr, shape, elem = _device_view(array, self._keep if hold else [])
        element = element or elem
        if element not in _TMA_DTYPES:
            raise LaunchError(f"TMA has no element type {element}")
        esize = _ESIZE[element]
        if elem in _ESIZE and _ESIZE[elem] != esize:
            raise LaunchError(f"TMA element {element} ({esize} bytes) does not match the "
                              f"array's {elem} ({_ESIZE[elem]} bytes)")
        box = tuple(box)
        if len(box) != len(shape):
            raise LaunchError(f"box {box} has not the rank of the array {shape}")
        if (shape[-1] * esize) % 16:
            raise LaunchError(f"TMA needs rows of a multiple of 16 bytes, got {shape[-1]} "
                              f"elements of {esize} bytes")
        if (box[-1] * esize) % 16:
            raise LaunchError(f"TMA needs a box row of a multiple of 16 bytes, got {box[-1]}")
        if swizzle not in _SWIZZLE or l2promo not in _L2PROMO:
            raise LaunchError(f"TMA swizzle is one of {sorted(_SWIZZLE)} and l2promo one of "
                              f"{sorted(_L2PROMO)}, got {swizzle!r}, {l2promo!r}")
        if any(b < 1 or b > 256 for b in box):
            raise LaunchError(f"TMA box dimensions are 1 to 256, got {box}")
        self.box = box
        self.element = element
        self.swizzle = swizzle
        rank = len(shape)
        dims = (ctypes.c_uint64 * rank)(*reversed(shape))
        strides_bytes = []
        acc = esize
        for d in list(reversed(shape))[:-1]:
            acc *= d
            strides_bytes.append(acc)
        strides = (ctypes.c_uint64 * max(rank - 1, 1))(*strides_bytes)
        boxdim = (ctypes.c_uint32 * rank)(*reversed(box))
        estrides = (ctypes.c_uint32 * rank)(*([1] * rank))
        # cuTensorMapEncodeTiled wants a 64-byte aligned CUtensorMap.
        self._storage = ctypes.create_string_buffer(128 + 64)
        address = (ctypes.addressof(self._storage) + 63) & ~63
        self._map = (ctypes.c_uint64 * 16).from_address(address)
        d = driver()
        oob_fill = 0 if oob == "zero" else 1
        d.check(d.lib.cuTensorMapEncodeTiled(
            ctypes.byref(self._map), _TMA_DTYPES[element], rank, ctypes.c_void_p(ptr), dims,
            strides, boxdim, estrides, 0, _SWIZZLE[swizzle], _L2PROMO[l2promo], oob_fill),
            f"cuTensorMapEncodeTiled(shape {shape}, box {box}, {element})")
        self.device = DeviceArray((128,), np.uint8)
        d.htod(self.device.ptr, ctypes.addressof(self._map), 128,
               getattr(stream, "cuda_stream", stream))


class TensorMapCache:
    """TMA descriptors of device tensors by (address, shape, box, stream),
    uploaded in the stream's order, holding no tensor (`TensorMap(...,
    hold=False)`: a descriptor names an address and a shape, right for any
    tensor that lives there). While the stream is being captured into a
    CUDA graph nothing may be allocated or copied from pageable memory: a
    descriptor built for the same tensor on another stream before the
    capture (the warm-up call that CUDA graphs need anyway) is reused, and
    a tensor seen for the first time is refused with a message."""

    def __init__(self, element, swizzle, l2promo, limit=4096):
        self.element, self.swizzle, self.l2promo, self.limit = element, swizzle, l2promo, limit
        self.maps = {}

    def get(self, array, box, stream, what):
        handle = stream.cuda_stream
        key = (array.data_ptr(), tuple(array.shape), tuple(box), handle)
        found = self.maps.get(key)
        if found is not None:
            return found
        if driver().capturing(handle):
            for (ptr, shape, b, _), m in self.maps.items():
                if (ptr, shape, b) == key[:3]:
                    self.maps[key] = m
                    return m
            raise LaunchError(f"{what}: a tensor of shape {tuple(array.shape)} at "
                              f"{array.data_ptr():#x} is new while the stream is being "
                              "captured into a CUDA graph (its TMA descriptor would be "
                              "allocated and uploaded): call once with the same tensors "
                              "before the capture")
        if len(self.maps) > self.limit:
            self.maps.clear()
        m = TensorMap(array, box, self.element, self.swizzle, l2promo=self.l2promo,
                      stream=stream, hold=False)
        self.maps[key] = m
        return m


def _element_name(dtype):
    dtype = np.dtype(dtype)
    return {np.dtype(np.int8): "i8", np.dtype(np.uint8): "u8", np.dtype(np.int16): "i16",
            np.dtype(np.uint16): "u16", np.dtype(np.int32): "i32", np.dtype(np.uint32): "u32",
            np.dtype(np.int64): "i64", np.dtype(np.uint64): "u64", np.dtype(np.float16): "f16",
            np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}.get(dtype, str(dtype))


_DL_NAMES = {(0, 8): "i8", (1, 8): "u8", (0, 16): "i16", (1, 16): "u16", (0, 32): "i32",
             (1, 32): "u32", (0, 64): "i64", (1, 64): "u64", (2, 16): "f16", (2, 32): "f32",
             (2, 64): "f64", (4, 16): "bf16"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


def _dlpack_view(obj, keep):
    capsule = obj.__dlpack__()
    keep.append(capsule)  # the tensor stays alive while the capsule does
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    t = _DLTensor.from_address(get(capsule, b"dltensor"))
    if t.device.device_type not in (2, 13):  # kDLCUDA, kDLCUDAManaged
        raise LaunchError("a DLPack argument must live on the GPU (device type "
                          f"{t.device.device_type})")
    if t.device.device_id != driver().device.value:
        raise LaunchError(f"a DLPack argument lives on GPU {t.device.device_id}; kernels run "
                          f"on GPU {driver().device.value}")
    shape = tuple(t.shape[i] for i in range(t.ndim))
    if t.strides:
        expect, acc = [], 1
        for d in reversed(shape):
            expect.insert(0, acc)
            acc *= d
        got = [t.strides[i] for i in range(t.ndim)]
        if any(g != e for g, e, d in zip(got, expect, shape) if d != 1):
            raise LaunchError(f"a DLPack argument must be contiguous (strides {got})")
    name = _DL_NAMES.get((t.dtype.code, t.dtype.bits), f"dlpack{t.dtype.code}/{t.dtype.bits}")
    return t.data + t.byte_offset, shape, name


def _device_view(obj, keep, host_arrays=""):
    """(device pointer, shape, element name) of a device array-like.
    `host_arrays`: what the caller also takes, for the message."""
    keep = keep if keep is not None else []
    if isinstance(obj, DeviceArray):
        return obj.ptr, obj.shape, _element_name(obj.dtype)
    if hasattr(obj, "__dlpack__") and not isinstance(obj, np.ndarray):
        try:
            return _dlpack_view(obj, keep)
        except (BufferError, TypeError, RuntimeError) as e:
            if not hasattr(obj, "__cuda_array_interface__"):
                raise LaunchError(f"cannot pass {type(obj).__name__} through DLPack: {e} "
                                  "(a torch tensor that requires grad: pass t.detach())") \
                    from None
    if hasattr(type(obj), "__cuda_array_interface__") or \
            hasattr(obj, "__cuda_array_interface__"):
        try:
            cai = obj.__cuda_array_interface__
        except Exception as e:
            raise LaunchError(f"cannot pass {type(obj).__name__}: its "
                              f"__cuda_array_interface__ raised {e}") from None
        shape = tuple(cai["shape"])
        dtype = np.dtype(cai["typestr"])
        if cai.get("strides") is not None:
            expect = np.empty(shape, dtype).strides if shape else ()
            if tuple(cai["strides"]) != tuple(expect):
                raise LaunchError(f"a __cuda_array_interface__ argument must be contiguous "
                                  f"(strides {cai['strides']})")
        keep.append(obj)
        return cai["data"][0], shape, _element_name(dtype)
    raise LaunchError(f"expects an array in GPU memory (pm.DeviceArray, or an object with "
                      f"__dlpack__ or __cuda_array_interface__, such as a CUDA torch "
                      f"tensor){host_arrays}, got {type(obj).__name__}")


_SCALAR_CTYPES = {"i1": ctypes.c_bool, "i8": ctypes.c_int8, "i16": ctypes.c_int16,
                  "i32": ctypes.c_int32, "i64": ctypes.c_int64, "index": ctypes.c_int64,
                  "f32": ctypes.c_float, "f64": ctypes.c_double}


#: The record of a kernel's parameter layout (include/pipeline-c/
#: KernelLayout.h, which a test compares with these): the PTX global
#: `__pipeline_mlir_abi_<kernel>` and the version of its text.
LAYOUT_PREFIX = "__pipeline_mlir_abi_"
LAYOUT_VERSION = 1


class LayoutParam(NamedTuple):
    """A kernel parameter in the recorded layout: the argument it comes
    from, what it holds (`kind`, the argument's; for a memref the `field`
    of its descriptor, ptr, offset, size or stride, and the `dim` of a size
    or a stride; for a scalar its significant `bits`), and where it lies in
    the parameter buffer."""
    index: int
    arg: int
    kind: str
    field: str
    dim: int
    bits: int
    offset: int
    size: int
    align: int


class LayoutArg(NamedTuple):
    """A kernel argument in the recorded layout: its kind (scalar, vector,
    aggregate, pointer, tensormap, memref, unranked-memref), a memref's
    rank, its MLIR type and its parameters."""
    index: int
    kind: str
    rank: int
    type: str
    params: Tuple[LayoutParam, ...]


class KernelLayout(NamedTuple):
    """A kernel's parameter layout: what the compiler recorded
    (pipeline-legalize-kernel-abi, docs/lowering.md "Kernel ABI"), or for
    PTX without the record the layout the compiler gives the signature's
    types (`recorded` False)."""
    args: Tuple[LayoutArg, ...]
    params: Tuple[LayoutParam, ...]
    nbytes: int
    recorded: bool = True


def parse_kernel_layout(text: str) -> KernelLayout:
    """The layout of a record's text (the lines of KernelLayout.h);
    ValueError when it is malformed or of another version."""
    args, params, header = [], [], None
    for number, line in enumerate(text.splitlines(), 1):
        if not line:
            continue
        head, _, typ = line.partition(" type=")
        words = head.split()
        word, index = words[0], None
        if word != "abi":
            if len(words) < 2 or not words[1].isdigit():
                raise ValueError(f"line {number} {line!r}: expects an index")
            index = int(words[1])
            words = words[1:]
        try:
            fields = dict(w.split("=", 1) for w in words[1:])
            nums = {k: int(v) for k, v in fields.items()
                    if k not in ("kind", "field")}
        except ValueError:
            raise ValueError(f"line {number} {line!r}: expects key=N fields") from None
        if word == "abi":
            if nums.get("version") != LAYOUT_VERSION:
                raise ValueError(f"version {nums.get('version')}; this launcher reads "
                                 f"{LAYOUT_VERSION}")
            header = nums
        elif header is None:
            raise ValueError(f"line {number} {line!r}: expects the 'abi' line first")
        elif word == "arg" and index == len(args):
            args.append([index, fields.get("kind", ""), nums.get("rank", -1), typ, []])
        elif word == "param" and index == len(params) and args and \
                nums.get("arg") == len(args) - 1:
            p = LayoutParam(index, nums["arg"], fields.get("kind", ""),
                            fields.get("field", ""), nums.get("dim", -1),
                            nums.get("bits", 0), nums["offset"], nums["size"],
                            nums["align"])
            args[-1][4].append(p)
            params.append(p)
        else:
            raise ValueError(f"line {number} {line!r}: expects arg {len(args)} or "
                             f"param {len(params)} of the last argument")
    if header is None:
        raise ValueError("no 'abi' line")
    if (header.get("args"), header.get("params")) != (len(args), len(params)):
        raise ValueError(f"expects {header.get('args')} arguments and "
                         f"{header.get('params')} parameters, got {len(args)} and "
                         f"{len(params)}")
    return KernelLayout(tuple(LayoutArg(i, k, r, t, tuple(p)) for i, k, r, t, p in args),
                        tuple(params), header.get("bytes", 0))


def kernel_layout(ptx: Optional[str], name: str) -> Optional[KernelLayout]:
    """The parameter layout the compiler recorded for kernel `name` in
    `ptx` (the `.b8` global `__pipeline_mlir_abi_<name>`), or None when the
    PTX has none (compiled before the record existed). LaunchError when the
    record is not one this launcher reads."""
    if not ptx:
        return None
    m = re.search(r"\.b8\s+" + re.escape(LAYOUT_PREFIX + name) +
                  r"\[\d+\]\s*=\s*\{([^}]*)\}", ptx)
    if not m:
        return None
    text = bytes(int(b) for b in m.group(1).split(",")).split(b"\0", 1)[0]
    try:
        return parse_kernel_layout(text.decode())
    except ValueError as e:
        raise LaunchError(f"kernel {name}: its recorded parameter layout "
                          f"({LAYOUT_PREFIX}{name}): {e}") from None


def signature_layout(params) -> KernelLayout:
    """The layout the compiler gives a signature's types (the kernel ABI of
    docs/lowering.md), for PTX without the record: a static memref one
    pointer, any other memref its pointer, offset, sizes and strides; a
    tensor map a pointer; a scalar its bytes."""
    args, flat, end = [], [], 0

    def param(index, kind, field="", dim=-1, bits=0, size=8):
        nonlocal end
        offset = -(-end // size) * size
        end = offset + size
        flat.append(LayoutParam(len(flat), index, kind, field, dim, bits, offset, size,
                                size))
        return flat[-1]

    for i, (_, ptype) in enumerate(params):
        if isinstance(ptype, T.MemRefType):
            ps = [param(i, "memref", "ptr")]
            if not ptype.static:
                ps.append(param(i, "memref", "offset"))
                ps += [param(i, "memref", "size", d) for d in range(ptype.rank)]
                ps += [param(i, "memref", "stride", d) for d in range(ptype.rank)]
            args.append(LayoutArg(i, "memref", ptype.rank, str(ptype), tuple(ps)))
        elif isinstance(ptype, T.TensorMapType) or getattr(ptype, "kind", None) == "tensormap":
            args.append(LayoutArg(i, "tensormap", -1, str(ptype), (param(i, "tensormap"),)))
        elif isinstance(ptype, T.ScalarType):
            args.append(LayoutArg(i, "scalar", -1, str(ptype), (
                param(i, "scalar", bits=ptype.bits, size=ptype.nbytes),)))
        elif str(ptype) == "!llvm.ptr":
            args.append(LayoutArg(i, "pointer", -1, str(ptype), (param(i, "pointer"),)))
        else:
            args.append(LayoutArg(i, "unknown", -1, str(ptype), ()))
    return KernelLayout(tuple(args), tuple(flat), end, recorded=False)


def describe_argument(arg: LayoutArg) -> str:
    """"memref<?x4xi32>: parameters #0 to #5, 48 bytes at offset 0"."""
    if not arg.params:
        return arg.type
    first, last = arg.params[0], arg.params[-1]
    which = f"parameter #{first.index}" if first is last else \
        f"parameters #{first.index} to #{last.index}"
    size = last.offset + last.size - first.offset
    return f"{arg.type}: {which}, {_nbytes(size)} at offset {first.offset}"


def _nbytes(n):
    return "1 byte" if n == 1 else f"{n} bytes"


def check_layout(where, layout, params):
    """The kernel's layout (recorded) against its signature: as many
    arguments, each of the kind its type says; LaunchError naming the
    argument otherwise (the PTX is of another kernel, or the signature was
    written by hand)."""
    if not layout.recorded:
        return
    if len(layout.args) != len(params):
        raise LaunchError(
            f"{where}: its recorded parameter layout has {len(layout.args)} arguments "
            f"({', '.join(a.type for a in layout.args)}), its signature "
            f"{len(params)} ({', '.join(n for n, _ in params)}): the PTX and the "
            "signature are of different kernels")
    for (pname, ptype), arg in zip(params, layout.args):
        if isinstance(ptype, T.MemRefType):
            fits = arg.kind == "memref" and arg.rank == ptype.rank
        elif isinstance(ptype, T.TensorMapType) or getattr(ptype, "kind", None) == "tensormap":
            fits = arg.kind == "tensormap"
        elif isinstance(ptype, T.ScalarType):
            # A 64-bit integer may carry a pointer's address (64 bits in
            # the kernel ABI).
            fits = (arg.kind == "scalar" and arg.params[0].bits == ptype.bits) or \
                (arg.kind == "pointer" and ptype.bits == 64 and not ptype.is_float)
        else:
            continue  # a type the signature only spells: the record's word
        if not fits:
            raise LaunchError(f"{where}: argument {pname} is {ptype} in the signature, "
                              f"{describe_argument(arg)} in the compiled "
                              "kernel's recorded parameter layout")


def memref_fields(arg: LayoutArg, shape) -> list:
    """The values of a memref argument's parameters by its layout, for a
    contiguous array of `shape`: None for its pointer (the caller's
    address), else the offset 0, a size or a row-major stride (elements)."""
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    values = []
    for p in arg.params:
        if p.field in ("ptr", "allocated", "aligned"):
            values.append(None)
        elif p.field == "offset":
            values.append(0)
        elif p.field in ("size", "stride") and 0 <= p.dim < len(shape):
            values.append((shape if p.field == "size" else strides)[p.dim])
        else:
            raise LaunchError(f"parameter #{p.index} holds the field {p.field!r} of "
                              f"{arg.type}, which a launch with an array cannot give")
    return values


def check_launch_shape(where, params, args, grid, block, cluster, layout=None):
    """The argument count and the grid, block and cluster of a launch (a GPU
    launch or the emulator's), as (x, y, z) tuples; LaunchError if wrong.
    With the kernel's `layout`, a missing argument is named with its
    parameters."""
    if len(args) != len(params):
        text = (f"{where} takes {len(params)} arguments "
                f"({', '.join(n for n, _ in params)}), got {len(args)}")
        if layout is not None and len(args) < len(params) == len(layout.args):
            text += "; missing " + "; ".join(
                f"{params[i][0]} ({describe_argument(layout.args[i])})"
                for i in range(len(args), len(params)))
        raise LaunchError(text)
    grid = _dims(grid, "grid", where)
    block = _dims(block, "block", where)
    if math.prod(block) > 1024:
        raise LaunchError(f"{where}: a block has at most 1024 threads, got {block}")
    if cluster is not None:
        cluster = _dims(cluster, "cluster", where)
    return grid, block, cluster


def check_tensor_map(where, pname, ptype, arg):
    """A tensor map argument (pm.TensorMap, or the emulator's
    pm.HostTensorMap) against its `!nvgpu.tensormap.descriptor` parameter:
    the box, the element type and the swizzle the kernel was compiled for."""
    if not isinstance(ptype, T.TensorMapType):
        return
    tile = ptype.tile
    if tuple(tile.shape) != arg.box:
        raise LaunchError(f"{where}: argument {pname} expects a TMA box "
                          f"{tuple(tile.shape)}, got {arg.box}")
    if not _elements_match(str(tile.element), arg.element):
        raise LaunchError(f"{where}: argument {pname} expects {tile.element} "
                          f"elements, got {arg.element}")
    if ptype.swizzle != arg.swizzle:
        raise LaunchError(f"{where}: argument {pname} expects swizzle "
                          f"{ptype.swizzle}, got {arg.swizzle}")


def _elements_match(param_elem, got):
    if param_elem == "bf16":
        return got in ("bf16", "u16")
    if param_elem == "index":
        return got == "i64"
    if param_elem in ("f8E4M3FN", "f8E5M2"):
        return got in ("u8", "i8")   # 8-bit floats travel as bytes
    return got == param_elem or (param_elem.startswith("i") and got == "u" + param_elem[1:])


def _chip_runs_on(chip, cc):
    num = int("".join(ch for ch in chip[3:] if ch.isdigit()))
    dev = cc[0] * 10 + cc[1]
    if chip.endswith("a"):
        return num == dev
    # A cubin runs on later minor versions of its major version only.
    return num // 10 == cc[0] and num <= dev


class PreparedLaunch:
    """A kernel launch with its configuration and parameters built
    (`LoadedKernel.prepare`): calling it launches, nothing else."""

    def __init__(self, driver, fn, config, attrs, params, keep, where, stream):
        self.driver, self.fn, self.config, self.params = driver, fn, config, params
        self._keep = (attrs, keep)  # the structures the pointers point into
        self.where, self.stream = where, stream
        # The driver call and its arguments, built once: a launch is one
        # foreign call (a few microseconds of host time).
        self._launch = driver.lib.cuLaunchKernelEx
        self._args = (ctypes.byref(config), fn, params, None)

    def __call__(self):
        code = self._launch(*self._args)
        if code:
            self.driver.check(code, f"launching {self.where}")


class LoadedKernel:
    """A kernel of a CompiledModule, launchable with __call__."""

    def __init__(self, compiled, name, params):
        self.compiled = compiled
        self.name = name
        self.params = params

    @property
    def layout(self) -> KernelLayout:
        """The kernel's parameter layout, by which arguments are passed: the
        one the compiler recorded in the PTX (kernel_layout; read once per
        module), else, for PTX compiled before the record existed (a cache
        entry an older compiler filled), the one the compiler gives the
        signature's types (signature_layout)."""
        layouts = getattr(self.compiled, "_layouts", None)
        if layouts is None:
            layouts = self.compiled._layouts = {}
        if self.name not in layouts:
            layouts[self.name] = kernel_layout(self.compiled.ptx, self.name)
        return layouts[self.name] or signature_layout(self.params)

    def __call__(self, *args: Any, grid: Union[int, Sequence[int]] = (1, 1, 1),
                 block: Union[int, Sequence[int]] = (1, 1, 1), smem: int = 0,
                 cluster: Optional[Sequence[int]] = None, sync: Optional[bool] = None,
                 stream: Any = None) -> None:
        """Launches the kernel. Arguments in the order of the kernel's
        parameters: numpy arrays (copied in, and back out after the launch),
        device arrays (pm.DeviceArray, torch/cupy tensors through DLPack or
        __cuda_array_interface__, zero copy), pm.TensorMap for TMA
        descriptors, numbers for scalars. `smem` is the dynamic shared memory
        in bytes; `cluster` the cluster dims.

        `stream`: a CUstream handle (an int, or an object with `cuda_stream`,
        as torch's streams) to launch on. By default torch's current stream
        of the device when a torch tensor is among the arguments (the launch
        is ordered after the work queued on it, as a torch op would be, and
        can be captured into a CUDA graph), else the legacy default stream.

        `sync`: wait for the launch's stream (never the whole context); a
        kernel compiled with the hang report that trapped raises its report.
        By default the launch is waited for unless a torch tensor is among
        the arguments (torch's asynchronous model: the result is ready in
        the stream's order); numpy arguments always wait (they are copied
        back)."""
        torch_args = [a for a in args if _is_torch_tensor(a)]
        stream = _default_stream(torch_args, stream)
        launch, copy_back = self._prepare(args, grid, block, smem, cluster, stream)
        d, handle = launch.driver, launch.stream
        if sync is None:
            sync = not torch_args
        if (sync or copy_back) and d.capturing(handle):
            raise LaunchError(f"{launch.where}: the stream is being captured into a CUDA "
                              "graph, where a launch cannot be waited for: pass device arrays "
                              "(not numpy) and sync=False")
        launch()
        if sync or copy_back:
            d.synchronize(handle, launch.where)
        for array, dev in copy_back:
            d.dtoh(array.ctypes.data, dev.ptr, array.nbytes)

    def emulate(self, *args: Any, grid: Union[int, Sequence[int]] = (1, 1, 1),
                block: Union[int, Sequence[int]] = (1, 1, 1), smem: int = 0,
                cluster: Optional[Sequence[int]] = None,
                resident_clusters: Optional[int] = None, schedules: int = 0,
                max_steps: Optional[int] = None,
                timeout: Optional[float] = None) -> "Emulation":
        """Runs the kernel on the CPU in the emulator (pipeline-sim), with
        the arguments a launch takes in host form: numpy arrays for arrays
        (written back after the run, as a launch writes device memory; also
        for i64 or !llvm.ptr parameters the kernel takes as addresses),
        pm.HostTensorMap for TMA descriptors, numbers for scalars. The
        launch contract is checked as for a launch; findings (a deadlock,
        a memory error, a trap) raise pm.EmulationError with the
        simulator's text. Returns a pipeline_mlir.emulator.Emulation
        (instructions, rounds). See pipeline_mlir.emulator.emulate."""
        from .emulator import emulate
        return emulate(self, *args, grid=grid, block=block, smem=smem, cluster=cluster,
                       resident_clusters=resident_clusters, schedules=schedules,
                       max_steps=max_steps, timeout=timeout)

    def prepare(self, *args: Any, grid: Union[int, Sequence[int]] = (1, 1, 1),
                block: Union[int, Sequence[int]] = (1, 1, 1), smem: int = 0,
                cluster: Optional[Sequence[int]] = None, stream: Any = None) -> "PreparedLaunch":
        """The launch with its arguments checked and its parameters built
        once: calling the result launches it again, as `__call__` would
        with the same arguments, without waiting (a repeated launch on the
        same device arrays, the way `pipeline_mlir.gemm` launches). Host
        (numpy) arrays are refused: they are copied per launch. `stream`
        defaults as in `__call__`: torch's current stream (now) when a torch
        tensor is among the arguments."""
        stream = _default_stream([a for a in args if _is_torch_tensor(a)], stream)
        launch, copy_back = self._prepare(args, grid, block, smem, cluster, stream)
        if copy_back:
            raise LaunchError(f"kernel {self.name}: prepare takes device arrays; numpy "
                              "arrays are copied in and out at every launch")
        return launch

    def _prepare(self, args, grid, block, smem, cluster, stream):
        where = f"kernel {self.name}"
        layout = self.layout
        check_layout(where, layout, self.params)
        grid, block, cluster = check_launch_shape(where, self.params, args, grid, block,
                                                  cluster, layout)
        if not isinstance(smem, int) or isinstance(smem, bool) or smem < 0:
            raise LaunchError(f"{where}: smem is a number of bytes, got {smem!r}")
        # Host arrays, arrays in host memory, scalars and the launch
        # contracts are checked before the driver is touched.
        for (pname, ptype), arg in zip(self.params, args):
            _check_host_argument(where, pname, ptype, arg)
        _check_launch_contracts(where, self.compiled.ptx, self.name, block, smem, cluster)
        d = driver()
        if not _chip_runs_on(self.compiled.chip, d.cc):
            raise LaunchError(f"{where} was compiled for {self.compiled.chip}; this GPU "
                              f"({d.name}) is {d.chip}: compile with chip=\"{d.chip}a\"")
        values, keep, copy_back = [], [], []
        for (pname, ptype), arg, larg in zip(self.params, args, layout.args):
            values.extend(self._argument(where, pname, ptype, arg, keep, copy_back, larg))

        fn = d.function(self.compiled, self.name)
        static = ctypes.c_int()
        d.check(d.lib.cuFuncGetAttribute(ctypes.byref(static),
                                         _CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn),
                "cuFuncGetAttribute")
        if smem + static.value > d.smem_optin:
            raise LaunchError(f"{where} needs {smem} bytes of dynamic shared memory "
                              f"(+{static.value} static); {d.name} allows {d.smem_optin} "
                              "per block")
        if smem + static.value > 48 * 1024:
            d.check(d.lib.cuFuncSetAttribute(fn, _CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                             smem), "cuFuncSetAttribute(dynamic smem)")
        handle = getattr(stream, "cuda_stream", stream)
        if handle is not None and not isinstance(handle, int):
            raise LaunchError(f"{where}: stream is a CUstream handle (an int) or has "
                              f"one in .cuda_stream, got {type(stream).__name__}")
        config = _LaunchConfig(*grid, *block, smem, handle or None, None, 0)
        attrs = (_LaunchAttribute * 1)()
        if cluster is not None:
            for g, c in zip(grid, cluster):
                if g % c:
                    raise LaunchError(f"{where}: grid {grid} is not a multiple of cluster "
                                      f"{cluster}")
            attrs[0].id = _CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
            attrs[0].value[0], attrs[0].value[1], attrs[0].value[2] = cluster
            config.attrs = attrs
            config.numAttrs = 1
        params = (ctypes.c_void_p * max(len(values), 1))(
            *[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
        return PreparedLaunch(d, fn, config, attrs, params, (values, keep), where,
                              handle), copy_back

    def _argument(self, where, pname, ptype, arg, keep, copy_back, larg=None):
        """The kernel parameters of argument `pname` (ctypes values), by its
        layout `larg` (by the signature's without)."""
        if larg is None:
            larg = signature_layout([(pname, ptype)]).args[0]
        if isinstance(ptype, T.MemRefType):
            expect_elem = str(ptype.element)
            if isinstance(arg, np.ndarray):
                if not arg.flags.c_contiguous:
                    raise LaunchError(f"{where}: argument {pname} must be C-contiguous")
                dev = DeviceArray.from_numpy(arg)
                keep.append(dev)
                if arg.flags.writeable:
                    copy_back.append((arg, dev))
                ptr, shape, elem = dev.ptr, arg.shape, _element_name(arg.dtype)
            else:
                try:
                    ptr, shape, elem = _device_view(
                        arg, keep, " or a numpy array (copied in and back out)")
                except LaunchError as e:
                    raise LaunchError(f"{where}: argument {pname}: {e}") from None
            if not _elements_match(expect_elem, elem):
                want = NUMPY.get(expect_elem, expect_elem)
                raise LaunchError(f"{where}: argument {pname} expects {ptype} (elements "
                                  f"{expect_elem}, numpy {want}), got elements {elem}")
            if not _shape_matches(ptype, shape):
                raise LaunchError(f"{where}: argument {pname} expects shape "
                                  f"{_shape_text(ptype)} ({ptype}), got {tuple(shape)}")
            return memref_params(ptype, ptr, shape, larg)
        if isinstance(ptype, T.TensorMapType) or getattr(ptype, "kind", None) == "tensormap":
            if not isinstance(arg, TensorMap):
                raise LaunchError(f"{where}: argument {pname} is a TMA descriptor: pass a "
                                  f"pm.TensorMap, got {type(arg).__name__}")
            check_tensor_map(where, pname, ptype, arg)
            keep.append(arg)
            return [_param_bytes(where, pname, larg, arg.device.ptr.to_bytes(8, "little"))]
        if larg.kind == "pointer" and not isinstance(ptype, T.ScalarType):
            # An `!llvm.ptr`: an address, or a TMA descriptor's.
            address = arg.device.ptr if isinstance(arg, TensorMap) else arg
            if isinstance(arg, TensorMap):
                keep.append(arg)
            if not _is_int(address) or not 0 <= address < 1 << 64:
                raise LaunchError(f"{where}: argument {pname} is a pointer ({ptype}): pass "
                                  f"an address (an int) or a pm.TensorMap, got "
                                  f"{type(arg).__name__}")
            return [_param_bytes(where, pname, larg, int(address).to_bytes(8, "little"))]
        scalar = isinstance(ptype, T.ScalarType)
        if scalar or (larg.kind == "scalar" and re.fullmatch(r"i\d+", larg.type)):
            # A scalar of the signature, or an integer of any width the
            # record describes (an i2 or i24 of MLIR text).
            bits = ptype.bits if scalar else larg.params[0].bits
            value = arg.value if isinstance(arg, T.TypedScalar) else arg
            if isinstance(value, np.generic):
                value = value.item()
            if scalar and ptype.is_float:
                if not isinstance(value, (int, float)):
                    raise LaunchError(f"{where}: argument {pname} expects a number ({ptype})")
                if ptype.text == "f16":
                    data = np.float16(value).tobytes()
                elif ptype.text == "bf16":
                    from .dtypes import to_bf16
                    data = np.uint16(to_bf16(np.float32(value))).tobytes()
                else:
                    data = bytes(_SCALAR_CTYPES[ptype.text](float(value)))
                return [_param_bytes(where, pname, larg, data)]
            if not isinstance(value, int) or isinstance(value, bool) and ptype != T.i1:
                raise LaunchError(f"{where}: argument {pname} expects an integer ({ptype}), "
                                  f"got {type(value).__name__}")
            if not -(1 << (bits - 1)) <= value < (1 << bits):
                raise LaunchError(f"{where}: argument {pname} = {value} does not fit {ptype}")
            # The value in its low bits, two's complement (the kernel
            # truncates a widened one).
            data = (value & ((1 << bits) - 1)).to_bytes(max(1, -(-bits // 8)), "little")
            return [_param_bytes(where, pname, larg, data)]
        raise LaunchError(f"{where}: cannot pass argument {pname} of type {ptype}")


def _default_stream(torch_args, stream):
    """`stream`, or torch's current stream of the first CUDA torch tensor's
    device when none is given and such tensors are among the arguments."""
    # A tensor in host memory is refused with the other arguments' checks.
    cuda = [t for t in torch_args if getattr(t.device, "type", None) == "cuda"]
    if stream is None and cuda:
        import torch
        return torch.cuda.current_stream(cuda[0].device)
    return stream


def _is_torch_tensor(x):
    """A torch tensor, recognized without importing torch."""
    t = type(x)
    return t.__module__.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "device")


def hang_report() -> str:
    """The hang report of the last kernel compiled with the hang report that
    trapped (docs/debugging.md), or "". A launch that waits raises it
    itself; after an asynchronous launch (torch tensors, sync=False) the
    trap shows as a CUDA error at the next synchronization, and this says
    where the kernel waited."""
    return "" if _driver is None else _driver.hang_report()


def _check_launch_contracts(where, ptx, name, block, smem, cluster):
    """The launch contracts a compiled kernel carries in its PTX, checked
    before the driver is touched (block, smem and cluster are the launch's,
    block and cluster as 3-tuples, cluster None without one). Each
    contract is read by a function of its own (required_block, ...); the
    compiler's recorded ones are constants of the PTX (_recorded_contract)."""
    required = required_block(ptx, name)
    if required is not None and tuple(block) != required:
        raise LaunchError(f"{where} requires block {required} (its .reqntid: the block "
                          f"size it declares for its warp roles), got {tuple(block)}")
    declared = required_cluster(ptx, name)
    if declared is not None:
        given = None if cluster is None else tuple(cluster)
        if given != declared:
            raise LaunchError(f"{where} requires cluster {declared} (its "
                              ".reqnctapercluster: the CTAs its multicasts and remote "
                              f"arrivals reach), got {given if given else 'no cluster'}")
    threads = required_threads(ptx, name)
    if threads is not None and block[0] < threads:
        raise LaunchError(f"{where} needs at least {threads} threads per block along x "
                          f"(its launch contract: with fewer, a warp role never runs and "
                          f"the kernel hangs waiting for it), got block {tuple(block)}; "
                          f"declare the block with @pm.kernel(block=...)")
    least = required_smem(ptx, name)
    if least is not None and smem < least:
        raise LaunchError(f"{where} needs at least {least} bytes of dynamic shared memory "
                          f"(its pipelines' barriers and shared-memory views end there), "
                          f"got smem={smem}")


def _recorded_contract(ptx: Optional[str], what: str, name: str) -> Optional[int]:
    """A number the compiler recorded for kernel `name` as the PTX constant
    `__pipeline_mlir_min_<what>_<name>` (pipeline-record-launch-contract),
    or None."""
    if not ptx:
        return None
    m = re.search(r"__pipeline_mlir_min_" + re.escape(what) + "_" + re.escape(name) +
                  r"\s*=\s*(\d+)\s*;", ptx)
    return int(m.group(1)) if m else None


def required_cluster(ptx: Optional[str], name: str) -> Optional[Tuple[int, int, int]]:
    """The cluster shape a kernel of `ptx` declares (`.reqnctapercluster x,
    y, z` of its `.entry`), or None."""
    if not ptx:
        return None
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\((.*?)\)\s*([^{]*)\{", ptx,
                  re.S)
    if not m:
        return None
    r = re.search(r"\.reqnctapercluster\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?",
                  m.group(2))
    return tuple(int(x) if x else 1 for x in r.groups()) if r else None


def required_threads(ptx: Optional[str], name: str) -> Optional[int]:
    """The threads along x a kernel of `ptx` needs at least, as the
    compiler recorded it (pipeline-record-launch-contract: the constant
    `__pipeline_mlir_min_block_<name>`: the x of the block it declares, or
    the least whole-warp block in which every warp role runs), or None."""
    return _recorded_contract(ptx, "block", name)


def required_smem(ptx: Optional[str], name: str) -> Optional[int]:
    """The dynamic shared memory a kernel of `ptx` needs at least, as the
    compiler recorded it (pipeline-record-launch-contract: the constant
    `__pipeline_mlir_min_smem_<name>`), or None."""
    return _recorded_contract(ptx, "smem", name)


def required_block(ptx: Optional[str], name: str) -> Optional[Tuple[int, int, int]]:
    """The block size a kernel of `ptx` requires (`.reqntid x, y, z` of its
    `.entry`), or None."""
    if not ptx:
        return None
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\((.*?)\)\s*([^{]*)\{", ptx,
                  re.S)
    if not m:
        return None
    r = re.search(r"\.reqntid\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?", m.group(2))
    if not r:
        return None
    return tuple(int(x) if x else 1 for x in r.groups())


def _shape_matches(ptype, shape):
    """The array's shape fits the memref type: same rank, and every static
    dimension equal."""
    return len(shape) == ptype.rank and all(
        want is None or want == got for want, got in zip(ptype.shape, shape))


def _shape_text(ptype):
    return "(" + ", ".join("?" if d is None else str(d) for d in ptype.shape) + \
        ("," if ptype.rank == 1 else "") + ")"


def memref_params(ptype, ptr, shape, larg: Optional[LayoutArg] = None):
    """The kernel parameters of a memref argument at `ptr` of `shape` by its
    layout `larg` (memref_fields; without one, the layout the compiler
    gives `ptype`, docs/lowering.md "Kernel ABI"): one pointer for a static
    shape; otherwise the pointer, the offset (0), the sizes and the
    row-major strides of the contiguous array, in elements, as 64-bit
    integers."""
    if larg is None:
        larg = signature_layout([("", ptype)]).args[0]
    if larg.kind != "memref":
        raise LaunchError(f"an array cannot be passed as {larg.type}")
    return [ctypes.c_uint64(ptr) if v is None else ctypes.c_int64(v)
            for v in memref_fields(larg, shape)]


def _param_bytes(where, pname, larg, data):
    """The one parameter of argument `pname` (layout `larg`) holding the
    bytes `data`, zero-extended to the parameter's size (a widened scalar);
    LaunchError when the layout gives the argument other parameters."""
    if len(larg.params) != 1 or larg.params[0].size < len(data):
        raise LaunchError(f"{where}: argument {pname} is {_nbytes(len(data))}, the kernel "
                          f"takes {describe_argument(larg)}")
    size = larg.params[0].size
    return (ctypes.c_uint8 * size).from_buffer_copy(data.ljust(size, b"\0"))


_DL_DEVICES = {1: "the CPU", 3: "pinned host memory"}


def _dl_device_text(kind):
    return _DL_DEVICES.get(kind, f"DLPack device type {kind}")


def _dlpack_device(obj):
    """(device type, device id) of an array with __dlpack_device__, or None."""
    if isinstance(obj, np.ndarray) or not hasattr(obj, "__dlpack_device__"):
        return None
    try:
        kind, ident = obj.__dlpack_device__()
        return int(kind), int(ident)
    except Exception:
        return None


def _check_host_argument(where, pname, ptype, arg):
    if type(arg).__name__ == "HostTensorMap":
        from .emulator import HostTensorMap
        if isinstance(arg, HostTensorMap):
            raise LaunchError(f"{where}: argument {pname} is a pm.HostTensorMap, a "
                              "descriptor of a host (numpy) array for kernel.emulate: a GPU "
                              "launch takes pm.TensorMap of an array in GPU memory")
    device = _dlpack_device(arg) if isinstance(ptype, T.MemRefType) else None
    if device is not None and device[0] not in (2, 13):  # kDLCUDA, kDLCUDAManaged
        raise LaunchError(f"{where}: argument {pname} is a {type(arg).__name__} on "
                          f"{_dl_device_text(device[0])}, not on the GPU: move it there (a "
                          "torch tensor: t.cuda()), or pass a numpy array, which is copied in "
                          "and back out")
    if isinstance(ptype, T.MemRefType) and isinstance(arg, np.ndarray):
        elem = _element_name(arg.dtype)
        if not _elements_match(str(ptype.element), elem):
            want = NUMPY.get(str(ptype.element), ptype.element)
            raise LaunchError(f"{where}: argument {pname} expects {ptype} (elements "
                              f"{ptype.element}, numpy {want}), got a numpy array of {arg.dtype}")
        if not _shape_matches(ptype, arg.shape):
            raise LaunchError(f"{where}: argument {pname} expects shape {_shape_text(ptype)} "
                              f"({ptype}), got {tuple(arg.shape)}")
        if not arg.flags.c_contiguous:
            raise LaunchError(f"{where}: argument {pname} must be C-contiguous")
    elif isinstance(ptype, T.ScalarType):
        value = arg.value if isinstance(arg, T.TypedScalar) else arg
        if isinstance(value, np.generic):
            value = value.item()
        if isinstance(value, bool) and ptype != T.i1 or not isinstance(value, (int, float)) \
                or (not ptype.is_float and not isinstance(value, int)):
            raise LaunchError(f"{where}: argument {pname} expects a {ptype} scalar, got "
                              f"{type(value).__name__}")
        if not ptype.is_float and ptype != T.i1:
            bits = ptype.bits
            if not -(1 << (bits - 1)) <= value < (1 << bits):
                raise LaunchError(f"{where}: argument {pname} = {value} does not fit {ptype}")
    elif isinstance(ptype, T.MemRefType) and isinstance(arg, (int, float, T.TypedScalar)):
        raise LaunchError(f"{where}: argument {pname} expects an array ({ptype}), got a number")


def _dims(d, what, where=None):
    """`grid=`, `block=` or `cluster=` as (x, y, z): an int or 1 to 3 ints."""
    prefix = f"{where}: " if where else ""
    given = d
    if isinstance(d, (list, tuple)):
        d = tuple(d)
    elif _is_int(d):
        d = (d,)
    else:
        raise LaunchError(f"{prefix}{what}={given!r}: {what} dims are an int or 1 to 3 "
                          f"positive ints, got {type(given).__name__}"
                          + (f" (write {what}={int(given)})"
                             if isinstance(given, float) and given.is_integer() else ""))
    if not 1 <= len(d) <= 3 or any(not _is_int(x) or x < 1 for x in d):
        raise LaunchError(f"{prefix}{what}={given!r}: {what} dims are 1 to 3 positive ints")
    return tuple(int(x) for x in d) + (1,) * (3 - len(d))


def _is_int(x):
    """An integer (numpy's too), not a bool."""
    import numbers
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))
