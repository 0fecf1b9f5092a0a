"""Kernels run on the CPU, with data: the launcher's host-side twin.

`kernel.emulate(*args, grid=, block=, cluster=, smem=)` takes the arguments
a GPU launch takes, in host form, and runs the kernel's PTX in the
simulator (`pipeline-sim`, docs/simulator.md): integer and floating-point
instructions, TMA through the tensor maps, wgmma, tcgen05 MMAs and tensor
memory. No GPU and no CUDA driver are needed.

    a = pm.to_bf16(np.random.randn(128, 64))          # bf16 bits in uint16
    c = np.zeros((128, 64), np.uint16)
    kernel.emulate(pm.HostTensorMap(a, (64, 64), swizzle="swizzle_128b"),
                   pm.HostTensorMap(c, (64, 64), swizzle="swizzle_128b"),
                   128, grid=2, block=384, smem=200000)
    # c now holds what the kernel stored, as a launch writes device memory

Arguments, in parameter order:
  - numpy arrays for memref parameters (C-contiguous; dynamic shapes pass
    their sizes and strides as the launcher does); written back into the
    caller's array after the run, unless it is read-only;
  - numpy arrays for i64 and `!llvm.ptr` parameters that the kernel takes
    as addresses (a GPU caller passes `tensor.data_ptr()` there): the
    parameter is the address of the array's copy, written back likewise;
  - pm.HostTensorMap for TMA descriptor parameters (a `!llvm.ptr`
    parameter takes one too: a pointer to a CUtensorMap);
  - numbers for scalars (a float parameter takes a Python or numpy float;
    f32 is rounded to float32 first).

Arrays that share memory (a tensor map of a reshaped view of an array
passed elsewhere) share one buffer in the emulator, as they would share
device memory. A launch the GPU launcher refuses (argument count, types,
shapes, the kernel's block, cluster and shared-memory contract) is refused
here with the same LaunchError; a run with findings (a deadlock, a memory
error, a trap, the hang report) raises EmulationError with the
simulator's text, and nothing is written back.

The simulator is found at $PIPELINE_MLIR_SIM (a file), in the build tree
next to this package (build/bin, or $BUILD_DIR/bin), in the installed
prefix (<prefix>/bin), then on PATH; ToolchainError when it is not.

`gemm` and `attention` run the package's kernels (pm.gemm's and
pm.attention's, for sm_90a; the Blackwell twins with chip="sm_100a") on
numpy bf16 arrays: `pm.gemm(a, b, emulate=True)` is `emulator.gemm(a, b)`.
"""

from __future__ import annotations

import ctypes
import math
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from . import types as T
from .driver import (_ESIZE, _L2PROMO, _SWIZZLE, _TMA_DTYPES, TensorMap,
                     _check_host_argument, _check_launch_contracts,
                     _element_name, _is_int, check_launch_shape, check_layout,
                     check_tensor_map, memref_fields)
from .errors import LaunchError, ToolchainError

#: Dynamic shared memory a block may opt into on sm_90 and sm_100 (227 KiB).
MAX_DYNAMIC_SMEM = 232448

#: The SM count emulated launches plan their grids for (an H100 SXM's):
#: persistent, split-K and stream-K variants size their grid by it on the
#: GPU, where the driver says it.
SM_COUNT = 132

# The package's TMA element names -> the simulator's.
_SIM_ELEM = {"u8": "u8", "i8": "u8", "u16": "u16", "bf16": "bf16", "u32": "u32",
             "i32": "s32", "u64": "u64", "i64": "s64", "f16": "f16", "f32": "f32",
             "f64": "f64"}
#: Lines of the simulator's text an EmulationError's message shows (all
#: of it is in .output).
_SHOWN_LINES = 120
_SIM_SWIZZLE = {"none": 0, "swizzle_32b": 32, "swizzle_64b": 64, "swizzle_128b": 128}


class EmulationError(LaunchError):
    """The emulator ran the kernel and found it wrong: a deadlock (with
    where every blocked thread waits), a memory error, a trap, the
    kernel's hang report... `findings` holds (kind, message) pairs and
    `output` the simulator's whole text."""

    def __init__(self, message: str, findings: Sequence[Tuple[str, str]] = (),
                 output: str = "") -> None:
        self.findings = list(findings)
        self.output = output
        super().__init__(message)


class Emulation:
    """What a completed emulated launch reports: the simulator's summary
    line, instructions executed and scheduling rounds."""

    def __init__(self, output: str) -> None:
        self.output = output
        m = re.search(r"completed, (\d+) instructions, (\d+) rounds", output)
        self.instructions = int(m.group(1)) if m else None
        self.rounds = int(m.group(2)) if m else None

    def __repr__(self) -> str:
        return f"<Emulation: {self.instructions} instructions, {self.rounds} rounds>"


class HostTensorMap:
    """A TMA descriptor of a host (numpy) array, for `kernel.emulate`: the
    emulator's twin of pm.TensorMap (same arguments: `box` outermost first,
    as in the descriptor type's `tensor = memref<...>`; `element` by
    default the array's, "bf16" for uint16 arrays holding bf16 bits;
    swizzle, oob, l2promo as there). The descriptor records the array, not
    a copy: the kernel's TMA loads read it and its TMA stores land in it
    when the emulated launch ends. A GPU launch refuses it (use
    pm.TensorMap of a device array there).

    The array may be a strided view (rows a multiple of 16 bytes apart,
    innermost elements contiguous), as cuTensorMapEncodeTiled takes."""

    def __init__(self, array: np.ndarray, box: Sequence[int], element: Optional[str] = None,
                 swizzle: str = "none", oob: str = "zero", l2promo: str = "none") -> None:
        if not isinstance(array, np.ndarray):
            raise LaunchError(f"pm.HostTensorMap takes a numpy array, got "
                              f"{type(array).__name__} (a device array: pm.TensorMap)")
        elem = _element_name(array.dtype)
        element = element or elem
        if element not in _TMA_DTYPES or element not in _SIM_ELEM:
            raise LaunchError(f"TMA has no element type {element}")
        esize = _ESIZE[element]
        if array.dtype.itemsize != esize:
            raise LaunchError(f"TMA element {element} ({esize} bytes) does not match the "
                              f"array's {array.dtype} ({array.dtype.itemsize} bytes)"
                              + (": bf16 data is a uint16 array of bf16 bits "
                                 "(pm.to_bf16)" if element == "bf16" else ""))
        shape = tuple(int(d) for d in array.shape)
        box = tuple(int(b) for b in box)
        if len(box) != len(shape) or not 1 <= len(shape) <= 5:
            raise LaunchError(f"box {box} has not the rank of the array {shape} (1 to 5)")
        if any(d < 1 for d in shape):
            raise LaunchError(f"TMA needs a non-empty array, got shape {shape}")
        if array.strides[-1] != esize or any(s <= 0 for s in array.strides):
            raise LaunchError(f"TMA needs contiguous rows (innermost stride {esize} bytes) and "
                              f"positive strides, got strides {array.strides}")
        if (shape[-1] * esize) % 16 and len(shape) > 1:
            raise LaunchError(f"TMA needs rows of a multiple of 16 bytes, got {shape[-1]} "
                              f"elements of {esize} bytes")
        if (box[-1] * esize) % 16:
            raise LaunchError(f"TMA needs a box row of a multiple of 16 bytes, got {box[-1]}")
        if swizzle not in _SWIZZLE or l2promo not in _L2PROMO or oob not in ("zero", "nan"):
            raise LaunchError(f"TMA swizzle is one of {sorted(_SWIZZLE)}, l2promo one of "
                              f"{sorted(_L2PROMO)} and oob zero or nan, got {swizzle!r}, "
                              f"{l2promo!r}, {oob!r}")
        if any(b < 1 or b > 256 for b in box):
            raise LaunchError(f"TMA box dimensions are 1 to 256, got {box}")
        self.array = array
        self.shape = shape
        self.box = box
        self.element = element
        self.swizzle = swizzle
        self.oob = oob
        self.l2promo = l2promo

    def spec(self, buffer: str, offset: int) -> str:
        """The simulator's tensor-map argument (after `tmap:`) for the array
        at `offset` bytes into the emulator's buffer `buffer`."""
        x = "x".join
        text = (f"{_SIM_ELEM[self.element]}:dims={x(str(d) for d in reversed(self.shape))}"
                f":box={x(str(b) for b in reversed(self.box))}")
        if len(self.shape) > 1:
            text += ":strides=" + x(str(s) for s in reversed(self.array.strides[:-1]))
        text += f":swizzle={_SIM_SWIZZLE[self.swizzle]}:oob={self.oob}:data={buffer}"
        return text + (f"+{offset}" if offset else "")

    def __repr__(self) -> str:
        return (f"<HostTensorMap {self.element} {self.shape} box {self.box} "
                f"{self.swizzle}>")


# --------------------------------------------------------------- the binary

def _candidates():
    env = os.environ.get("PIPELINE_MLIR_SIM")
    if env:
        yield pathlib.Path(env)
        return
    here = pathlib.Path(__file__).resolve().parent
    build = os.environ.get("BUILD_DIR")
    if build:
        yield pathlib.Path(build) / "bin" / "pipeline-sim"
    # Source tree: python/pipeline_mlir -> build/bin.
    yield here.parent.parent / "build" / "bin" / "pipeline-sim"
    # Installed: <prefix>/python/pipeline_mlir -> <prefix>/bin.
    yield here.parent.parent / "bin" / "pipeline-sim"
    found = shutil.which("pipeline-sim")
    if found:
        yield pathlib.Path(found)


def simulator() -> pathlib.Path:
    """The pipeline-sim binary emulated launches run; ToolchainError, with
    the places looked at, when there is none."""
    tried = []
    for path in _candidates():
        tried.append(str(path))
        if path.is_file() and os.access(path, os.X_OK):
            return path
    raise ToolchainError("the emulator (pipeline-sim) is not found: build it (cmake --build "
                         "build --target pipeline-sim) or set PIPELINE_MLIR_SIM to the "
                         "binary; looked at " + ", ".join(tried) + " and PATH")


# ------------------------------------------------------------ the arguments

def _span(array):
    """[lo, hi) of the bytes an array's elements occupy."""
    lo = array.ctypes.data
    if array.size == 0:
        return lo, lo
    return lo, lo + sum((d - 1) * s for d, s in zip(array.shape, array.strides)) + \
        array.dtype.itemsize


class _Memory:
    """The host arrays of one launch, as the emulator's named buffers:
    arrays whose bytes overlap share one buffer (the union of their
    spans), as views of one allocation share device memory."""

    def __init__(self):
        self.arrays = []   # (array, lo, hi)
        self.pointers = []  # array indices passed as a pointer parameter

    def add(self, array):
        self.arrays.append((array,) + _span(array))
        return len(self.arrays) - 1

    def layout(self):
        """Buffers [(lo, hi, [array indices])] and, per array, (buffer,
        offset)."""
        order = sorted(range(len(self.arrays)), key=lambda i: self.arrays[i][1])
        buffers, where = [], {}
        for i in order:
            _, lo, hi = self.arrays[i]
            if buffers and lo < buffers[-1][1]:
                buffers[-1][1] = max(buffers[-1][1], hi)
                buffers[-1][2].append(i)
            else:
                buffers.append([lo, hi, [i]])
        for b, (lo, _, members) in enumerate(buffers):
            for i in members:
                where[i] = (b, self.arrays[i][1] - lo)
        return buffers, where


def _scalar_spec(where, pname, ptype, value):
    if isinstance(value, T.TypedScalar):
        value = value.value
    if isinstance(value, np.generic):
        value = value.item()
    if ptype.is_float:
        if ptype.text == "f32":
            f = np.float32(value)
            if np.isfinite(f):
                return f"f32:{float(f)!r}"
            return str(int(f.view(np.uint32)))
        if ptype.text == "f64":
            f = float(value)
            if math.isfinite(f):
                return f"f64:{f!r}"
            return str(int(np.float64(f).view(np.uint64)))
        if ptype.text == "f16":
            return str(int(np.float16(value).view(np.uint16)))
        if ptype.text == "bf16":
            from .dtypes import to_bf16
            return str(int(to_bf16(np.float32(value))))
        raise LaunchError(f"{where}: cannot pass argument {pname} of type {ptype}")
    return str(int(value))


def _is_address_param(ptype):
    """An i64 or !llvm.ptr parameter: a kernel that takes an address there
    (GPU callers pass tensor.data_ptr()) takes a numpy array in emulation."""
    return (isinstance(ptype, T.ScalarType) and ptype.text in ("i64", "index")) or \
        (isinstance(ptype, T.OpaqueType) and ptype.text == "!llvm.ptr")


def _check_tensor_map(where, pname, ptype, arg):
    if isinstance(arg, TensorMap):
        raise LaunchError(f"{where}: argument {pname} is a pm.TensorMap of device memory, "
                          "which the emulator cannot read: pass pm.HostTensorMap(array, "
                          "box, ...) of a numpy array")
    if not isinstance(arg, HostTensorMap):
        raise LaunchError(f"{where}: argument {pname} is a TMA descriptor: pass a "
                          f"pm.HostTensorMap, got {type(arg).__name__}")
    check_tensor_map(where, pname, ptype, arg)


def emulate(kernel: Any, *args: Any, grid: Union[int, Sequence[int]] = (1, 1, 1),
            block: Union[int, Sequence[int]] = (1, 1, 1), smem: int = 0,
            cluster: Optional[Sequence[int]] = None, resident_clusters: Optional[int] = None,
            schedules: int = 0, max_steps: Optional[int] = None,
            timeout: Optional[float] = None) -> Emulation:
    """Runs `kernel` (a LoadedKernel) on the CPU: `kernel.emulate(...)`,
    which see. `resident_clusters`: clusters that run at once (the others
    start when one ends, or are canceled by cluster launch control);
    `schedules`: seeded random schedules run after the round-robin one
    (whose results are written back), which raise EmulationError if one
    fails; `max_steps`: the simulator's instruction budget; `timeout`:
    seconds before the run is stopped (EmulationError)."""
    where = f"kernel {kernel.name} (emulated)"
    params = kernel.params
    layout = kernel.layout  # the parameters the launcher passes, by the record
    check_layout(where, layout, params)
    grid, block, cluster = check_launch_shape(where, params, args, grid, block, cluster,
                                              layout)
    if cluster is not None:
        for g, c in zip(grid, cluster):
            if g % c:
                raise LaunchError(f"{where}: grid {grid} is not a multiple of cluster "
                                  f"{cluster}")
    if not _is_int(smem) or smem < 0:
        raise LaunchError(f"{where}: smem is a number of bytes, got {smem!r}")
    if smem > MAX_DYNAMIC_SMEM:
        raise LaunchError(f"{where} needs {smem} bytes of dynamic shared memory; "
                          f"{kernel.compiled.chip} allows {MAX_DYNAMIC_SMEM} per block")
    if resident_clusters is not None and (not _is_int(resident_clusters)
                                          or resident_clusters < 1):
        raise LaunchError(f"{where}: resident_clusters is a positive number of clusters, "
                          f"got {resident_clusters!r}")
    for (pname, ptype), arg in zip(params, args):
        if isinstance(arg, np.ndarray) and _is_address_param(ptype):
            continue  # an address: checked below
        if isinstance(arg, HostTensorMap) and isinstance(ptype, T.OpaqueType) and \
                ptype.text == "!llvm.ptr":
            continue  # a pointer to a CUtensorMap
        if isinstance(ptype, T.TensorMapType) or getattr(ptype, "kind", None) == "tensormap":
            _check_tensor_map(where, pname, ptype, arg)
            continue
        _check_host_argument(where, pname, ptype, arg)
    _check_launch_contracts(where, kernel.compiled.ptx, kernel.name, block, smem, cluster)
    if not kernel.compiled.ptx:
        raise LaunchError(f"{where}: module {kernel.compiled.name} has no PTX")

    # Each argument as the simulator's spec; arrays become buffers.
    memory = _Memory()
    specs = []   # str, or ("ptr", array index), or ("tmap", map, array index)
    for (pname, ptype), arg, larg in zip(params, args, layout.args):
        if isinstance(ptype, T.MemRefType):
            if not isinstance(arg, np.ndarray):
                raise LaunchError(f"{where}: argument {pname} expects a numpy array "
                                  f"({ptype}), got {type(arg).__name__}")
            buffer = memory.add(arg)
            specs += [("ptr", buffer, pname) if v is None else str(v)
                      for v in memref_fields(larg, arg.shape)]
        elif isinstance(arg, HostTensorMap):
            specs.append(("tmap", arg, memory.add(arg.array)))
        elif isinstance(arg, np.ndarray) and _is_address_param(ptype):
            if not arg.flags.c_contiguous:
                raise LaunchError(f"{where}: argument {pname} (an address) must be a "
                                  "C-contiguous array")
            specs.append(("ptr", memory.add(arg), pname))
        elif isinstance(ptype, T.ScalarType):
            specs.append(_scalar_spec(where, pname, ptype, arg))
        elif isinstance(ptype, T.OpaqueType) and ptype.text == "!llvm.ptr" and _is_int(arg):
            specs.append(str(int(arg)))
        else:
            raise LaunchError(f"{where}: cannot pass {type(arg).__name__} as argument "
                              f"{pname} of type {ptype}")

    buffers, place = memory.layout()
    # A pointer parameter is a buffer argument of the simulator: the start
    # of a buffer, once.
    pointer_of = {}
    for s in specs:
        if isinstance(s, tuple) and s[0] == "ptr":
            b, offset = place[s[1]]
            if offset:
                raise LaunchError(f"{where}: argument {s[2]} points {offset} bytes into "
                                  "memory another argument also covers; the emulator "
                                  "passes pointers to the start of a buffer: pass "
                                  "separate arrays")
            if b in pointer_of:
                raise LaunchError(f"{where}: arguments {pointer_of[b][1]} and {s[2]} point "
                                  "into the same memory; the emulator passes each pointer "
                                  "its own buffer: pass separate arrays")
            pointer_of[b] = (s[1], s[2])

    sim = simulator()
    with tempfile.TemporaryDirectory(prefix="pipeline-mlir-emulate-") as tmp:
        tmpdir = pathlib.Path(tmp)
        (tmpdir / "kernel.ptx").write_text(kernel.compiled.ptx)
        command = [str(sim), "kernel.ptx", f"--kernel={kernel.name}",
                   "--grid=" + ",".join(map(str, grid)), "--block=" + ",".join(map(str, block)),
                   "--cluster=" + ",".join(map(str, cluster or (1, 1, 1))), f"--smem={smem}"]
        if resident_clusters is not None:
            command.append(f"--resident-clusters={int(resident_clusters)}")
        if schedules:
            command.append(f"--schedules={int(schedules)}")
        if max_steps is not None:
            command.append(f"--max-steps={int(max_steps)}")
        defined = {}
        writable = []
        for b, (lo, hi, members) in enumerate(buffers):
            name = f"b{b}"
            data = ctypes.string_at(lo, hi - lo) if hi > lo else b""
            (tmpdir / f"{name}.bin").write_bytes(data)
            defined[b] = f"{name}={max(hi - lo, 1)}@{name}.bin"
            if b not in pointer_of:
                command.append(f"--buffer={defined[b]}")
            if any(memory.arrays[i][0].flags.writeable for i in members):
                command.append(f"--output={name}={name}.out")
                writable.append(b)
        for s in specs:
            if isinstance(s, str):
                command.append(f"--arg={s}")
            elif s[0] == "ptr":
                command.append(f"--arg=buf:{defined[place[s[1]][0]]}")
            else:
                b, offset = place[s[2]]
                command.append(f"--arg=tmap:{s[1].spec(f'b{b}', offset)}")
        try:
            run = subprocess.run(command, cwd=tmp, capture_output=True, text=True,
                                 timeout=timeout)
        except subprocess.TimeoutExpired:
            raise EmulationError(f"{where}: the emulator ran past the timeout of {timeout} s "
                                 "(a spinning kernel, or too large a launch: try "
                                 "max_steps=, smaller shapes)") from None
        output = (run.stdout + run.stderr).strip()
        if run.returncode == 2:
            text = run.stderr.strip().replace("pipeline-sim: error: ", "")
            raise LaunchError(f"{where}: the emulator refused the launch: {text}")
        if run.returncode != 0:
            findings = _findings(run.stdout)
            what = ", ".join(sorted({k for k, _ in findings})) or f"exit status {run.returncode}"
            lines = output.splitlines()
            shown = "\n".join(lines[:_SHOWN_LINES])
            if len(lines) > _SHOWN_LINES:
                shown += f"\n... ({len(lines) - _SHOWN_LINES} more lines in .output)"
            raise EmulationError(f"{where} failed in the emulator ({what}):\n{shown}",
                                 findings, output)
        # Written back as a launch writes device memory: every writable
        # array of a buffer, from the buffer's final bytes.
        for b in writable:
            lo, hi, members = buffers[b]
            raw = np.frombuffer((tmpdir / f"b{b}.out").read_bytes(), np.uint8)
            for i in members:
                array, alo, _ = memory.arrays[i]
                if not array.flags.writeable or array.size == 0:
                    continue
                view = np.ndarray(array.shape, array.dtype, buffer=raw, offset=alo - lo,
                                  strides=array.strides)
                array[...] = view
    return Emulation(output)


def _findings(stdout):
    """(kind, message) of each finding the simulator printed: a line
    "  kind: message" (kind one word: deadlock, memory, missing-bytes...),
    continued by the indented lines after it (a deadlock's blocked
    threads and trace)."""
    out, current = [], None
    for line in stdout.splitlines():
        m = re.match(r"^  ([a-z][a-z0-9-]*): (.*)$", line)
        if m:
            current = [m.group(1), m.group(2)]
            out.append(current)
        elif current is not None and line.startswith("  "):
            current[1] += "\n" + line[2:]
        else:
            current = None  # a schedule's summary line
    return [tuple(f) for f in out]


# -------------------------------------------------- the package's kernels

def _bf16_matrix(name, x, what):
    if not isinstance(x, np.ndarray) or x.dtype != np.uint16:
        raise LaunchError(f"{what}: {name} must be a numpy uint16 array of bf16 bits "
                          f"(pm.to_bf16(x)), got "
                          + (f"a numpy {x.dtype} array" if isinstance(x, np.ndarray)
                             else type(x).__name__))
    if not x.flags.c_contiguous:
        raise LaunchError(f"{what}: {name} must be C-contiguous")


_sm100_gemm = None


def _host_output(what, out, m, n, a, b, inputs):
    """The M x N uint16 (bf16 bits) output of an emulated GEMM: a new one, or
    `out` checked (writable, C-contiguous, not over the inputs `a`, `b`)."""
    if out is None:
        return np.zeros((m, n), np.uint16)
    if (not isinstance(out, np.ndarray) or out.dtype != np.uint16 or out.shape != (m, n)
            or not out.flags.c_contiguous or not out.flags.writeable):
        raise LaunchError(f"{what}: out must be a writable C-contiguous {m} x {n} uint16 "
                          "array")
    for name, t in (("a", a), ("b", b)):
        if np.shares_memory(out, t):
            raise LaunchError(f"{what}: out overlaps {name}: C is written while {inputs} "
                              "are read")
    return out


def _gemm_sm100_kernel():
    global _sm100_gemm
    if _sm100_gemm is None:
        from .compiler import compile as _compile
        from .kernels import gemm_sm100
        text, _ = gemm_sm100.generate()
        _sm100_gemm = _compile(text, chip="sm_100a").kernel(gemm_sm100.KERNEL)
    return _sm100_gemm


def gemm(a: np.ndarray, b: np.ndarray, out: Optional[np.ndarray] = None, *,
         variant: Optional[str] = None, chip: str = "sm_90a",
         sm_count: int = SM_COUNT) -> np.ndarray:
    """C = A @ B.T in the emulator, with the kernel pm.gemm launches: `a`
    M x K and `b` N x K numpy uint16 arrays of bf16 bits (pm.to_bf16), K
    and N multiples of 8; returns `out` (or a new M x N uint16 array of
    bf16 bits). chip "sm_90a": pm.gemm's variant for the shape (`variant`
    forces one of matmul.CONFIGS; by default matmul.choose for
    `sm_count` SMs), its grid planned for `sm_count` SMs. chip "sm_100a": the
    Blackwell GEMM of pipeline_mlir.kernels.gemm_sm100 (CTA pairs, clusters
    of 4)."""
    from . import matmul
    what = "gemm (emulated)"
    _bf16_matrix("a", a, what)
    _bf16_matrix("b", b, what)
    if a.ndim != 2 or b.ndim != 2:
        raise LaunchError(f"{what}: a and b must be 2-D, got {a.shape} and {b.shape}")
    m, k = a.shape
    n, kb = b.shape
    if kb != k:
        raise LaunchError(f"{what}: a is {m} x {k} and b is {n} x {kb}: both need K columns "
                          "(C = A B^T)")
    if m == 0 or n == 0 or k == 0:
        raise LaunchError(f"{what}: M, N, K must be at least 1, got {m}, {n}, {k}")
    if k % 8 or n % 8:
        raise LaunchError(f"{what}: K ({k}) and N ({n}) must be multiples of 8 (TMA needs "
                          "16-byte rows)")
    out = _host_output(what, out, m, n, a, b, "A and B")
    if chip == "sm_100a":
        if variant is not None:
            raise LaunchError(f"{what}: the sm_100a GEMM has no variants")
        kernel = _gemm_sm100_kernel()
        tiles = -(-m // 512) * -(-n // 256)
        maps = (HostTensorMap(a, (128, 64), "bf16", "swizzle_128b"),
                HostTensorMap(b, (64, 64), "bf16", "swizzle_128b"),
                HostTensorMap(out, (32, 64), "bf16", "swizzle_128b"))
        kernel.emulate(*maps, m, n, k, grid=4 * tiles, cluster=4, block=224, smem=230400)
        return out
    if chip != "sm_90a":
        raise LaunchError(f"{what}: chip is sm_90a or sm_100a, got {chip!r}")
    label = variant or matmul.choose(m, n, k, sm_count)
    if label not in matmul.CONFIGS:
        raise LaunchError(f"{what}: variant is one of {sorted(matmul.CONFIGS)}, got "
                          f"{label!r}")
    # The variant resolution and grid of matmul.gemm, with sm_count given.
    config = matmul.CONFIGS[label]
    if variant is None and matmul.splits_for(label, m, n, k, sm_count) == 1:
        label = matmul.UNSPLIT.get(label, label)
        config = matmul.CONFIGS[label]
    if config.get("stream_k") and -(-m // matmul._rows(label)) > sm_count:
        label = matmul.UNSTREAMED[label]
        config = matmul.CONFIGS[label]
    kernel, smem = matmul._kernel(label)
    bn, bm, bk = config["bn"], matmul._rows(label), matmul.BK
    boxes = ((bm, bk), (bn, bk), (64, 64))
    splits = matmul.splits_for(label, m, n, k, sm_count)
    k_blocks = -(-k // bk)
    slice_blocks = -(-k_blocks // splits)
    units = -(-m // bm) * -(-n // bn) * -(-k_blocks // slice_blocks)
    grid = min(sm_count, units)
    if config.get("swap_ab"):
        boxes, grid = matmul.swap_ab_launch(config, m, n, k, sm_count)
    maps = tuple(HostTensorMap(x, box, "bf16", "swizzle_128b", l2promo="l2_256b")
                 for x, box in zip((a, b, out), boxes))
    extra: Tuple[Any, ...] = ()
    if config.get("split_k"):
        extra = (splits,)
        out[...] = 0  # the slices reduce-add into a zeroed C
    if config.get("stream_k"):
        m_tiles = -(-m // bm)
        grid = m_tiles * min(sm_count // m_tiles, -(-n // bn) * k_blocks)
        slots = sm_count * 2
        extra = (np.zeros(slots * 64 * 256, np.float32), np.zeros(slots, np.int32))
    kernel.emulate(*maps, m, n, k, matmul.GROUP_M, *extra, grid=grid,
                   block=matmul.block_threads(config), smem=smem)
    return out


_sm100_attention = {}


def _attention_sm100_kernel(d, causal):
    key = (d, causal)
    if key not in _sm100_attention:
        from .compiler import compile as _compile
        from .ir import Module
        from .kernels import attention_sm100
        kernel, smem = attention_sm100.build(head_dim=d, causal=causal)
        module = Module([kernel], name=f"attention_sm100_d{d}{'_causal' if causal else ''}")
        _sm100_attention[key] = (_compile(module, chip="sm_100a").kernel(kernel.name), smem)
    return _sm100_attention[key]


def attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, *, causal: bool = False,
              scale: Optional[float] = None, out: Optional[np.ndarray] = None,
              lse: Optional[np.ndarray] = None, return_lse: bool = False,
              variant: Optional[str] = None, chip: str = "sm_90a",
              sm_count: int = SM_COUNT) -> Any:
    """softmax(scale Q K^T) V in the emulator, with the kernel pm.attention
    launches (chip "sm_90a", `variant` as there) or its Blackwell twin
    (chip "sm_100a", python/pipeline_mlir/kernels/attention_sm100.py): q, k, v
    numpy uint16 arrays of bf16 bits, (batch, seqlen, heads, head_dim),
    head_dim 64 or 128. Returns the output (same shape, bf16 bits), and with
    `return_lse` the log-sum-exp of the scaled scores, float32 (batch,
    heads, seqlen); `out` and `lse` are written in place when given. A
    persistent variant's grid is planned for `sm_count` SMs."""
    from . import attention_fwd
    what = "attention (emulated)"
    for name, t in (("q", q), ("k", k), ("v", v)):
        _bf16_matrix(name, t, what)
        if t.ndim != 4:
            raise LaunchError(f"{what}: {name} must be 4-D (batch, seqlen, heads, "
                              f"head_dim), got shape {t.shape}")
    if not (q.shape == k.shape == v.shape):
        raise LaunchError(f"{what}: q, k and v must have one shape, got {q.shape}, "
                          f"{k.shape}, {v.shape}")
    batch, seqlen, heads, d = q.shape
    if d not in (64, 128):
        raise LaunchError(f"{what}: head_dim must be 64 or 128, got {d}")
    if batch < 1 or seqlen < 1 or heads < 1:
        raise LaunchError(f"{what}: batch, seqlen and heads must be at least 1")
    if scale is None:
        scale = 1.0 / math.sqrt(d)
    scale = float(scale)
    if not math.isfinite(scale) or scale <= 0:
        raise LaunchError(f"{what}: scale must be a positive finite number, got {scale}")
    if out is None:
        out = np.zeros(q.shape, np.uint16)
    elif (not isinstance(out, np.ndarray) or out.dtype != np.uint16 or out.shape != q.shape
          or not out.flags.c_contiguous or not out.flags.writeable):
        raise LaunchError(f"{what}: out must be a writable C-contiguous {q.shape} uint16 "
                          "array")
    if lse is None:
        lse = np.zeros((batch, heads, seqlen), np.float32)
    elif (not isinstance(lse, np.ndarray) or lse.dtype != np.float32
          or lse.shape != (batch, heads, seqlen) or not lse.flags.c_contiguous
          or not lse.flags.writeable):
        raise LaunchError(f"{what}: lse must be a writable C-contiguous ({batch}, {heads}, "
                          f"{seqlen}) float32 array")
    for x, y, text in ((out, q, "out overlaps q"), (out, k, "out overlaps k"),
                       (out, v, "out overlaps v"), (lse, q, "lse overlaps q"),
                       (lse, k, "lse overlaps k"), (lse, v, "lse overlaps v"),
                       (lse, out, "lse overlaps out")):
        if np.shares_memory(x, y):
            raise LaunchError(f"{what}: {text}")
    causal = bool(causal)
    rows = (batch, seqlen, heads * d)
    scale_log2 = np.float32(scale * 1.4426950408889634)
    if chip == "sm_100a":
        if variant is not None:
            raise LaunchError(f"{what}: the sm_100a attention has no variants")
        kernel, smem = _attention_sm100_kernel(d, causal)
        maps = [HostTensorMap(t.reshape(rows), (1, 128, 64), "bf16", "swizzle_128b")
                for t in (q, k, v)]
        kernel.emulate(*maps, out, lse, seqlen, heads, scale_log2,
                       grid=(-(-seqlen // 128), heads, batch), block=192, smem=smem)
        return (out, lse) if return_lse else out
    if chip != "sm_90a":
        raise LaunchError(f"{what}: chip is sm_90a or sm_100a, got {chip!r}")
    if variant is None:
        variant = attention_fwd.choose(d, causal, seqlen)
    if variant not in attention_fwd.VARIANTS:
        raise LaunchError(f"{what}: variant is one of {sorted(attention_fwd.VARIANTS)}, "
                          f"got {variant!r}")
    if not attention_fwd.fits(d, variant):
        raise LaunchError(f"{what}: variant {variant} is for head_dim 64 only")
    bm = 64 * attention_fwd.VARIANTS[variant]["consumers"]
    kernel, smem = attention_fwd._kernel((d, causal, variant))
    maps = [HostTensorMap(q.reshape(rows), (1, bm, 64), "bf16", "swizzle_128b",
                          l2promo="l2_128b")]
    maps += [HostTensorMap(t.reshape(rows), (1, 128, 64), "bf16", "swizzle_128b",
                           l2promo="l2_128b") for t in (k, v)]
    maps.append(HostTensorMap(out.reshape(rows), (1, 64, 64), "bf16", "swizzle_128b",
                              l2promo="l2_128b"))
    kernel.emulate(*maps, lse, seqlen, heads, scale_log2,
                   *attention_fwd.extra_args(variant, batch),
                   grid=attention_fwd.grid(d, causal, variant, batch, seqlen, heads, sm_count),
                   block=128 + 2 * bm, smem=smem)
    return (out, lse) if return_lse else out


def scaled_mm(a: np.ndarray, b: np.ndarray, scale_a: Any, scale_b: Any,
              out: Optional[np.ndarray] = None, *, variant: Optional[str] = None,
              sm_count: int = SM_COUNT) -> np.ndarray:
    """C = scale(a @ b) in the emulator, with the kernel pm.scaled_mm
    launches: `a` an M x K C-contiguous uint8 array of e4m3 bits
    (pm.to_e4m3), `b` K x N the transpose of a C-contiguous N x K one (as
    torch._scaled_mm takes b), K a multiple of 16 and N of 8; float32 scales
    whose shapes choose the scaling (pipeline_mlir.scaled_mm: per-tensor,
    rowwise, 1x128 x 128x128 blocks). Returns `out` (or a new M x N uint16
    array of bf16 bits). The grid is planned for `sm_count` SMs, as
    pm.scaled_mm plans it: a split-K variant zeroes `out` and passes its
    split count, a stream-K one a zeroed workspace and flags (numpy
    arrays), a cluster variant launches clusters of 2."""
    from . import fp8_gemm as fp8
    what = "scaled_mm (emulated)"
    for name, t in (("a", a), ("b.T", b.T if isinstance(b, np.ndarray) else b)):
        if not isinstance(t, np.ndarray) or t.dtype != np.uint8 or t.ndim != 2:
            raise LaunchError(f"{what}: a and b must be 2-D numpy uint8 arrays of e4m3 bits "
                              "(pm.to_e4m3), got "
                              + (f"a numpy {t.dtype} array of shape {t.shape}"
                                 if isinstance(t, np.ndarray) else type(t).__name__))
        if not t.flags.c_contiguous:
            raise LaunchError(f"{what}: {name} must be C-contiguous (b: the .T of a "
                              "C-contiguous N x K array)")
    m, k = a.shape
    kb, n = b.shape
    fp8._check_shape(what, m, n, k, kb)
    scales = []
    for name, s in (("scale_a", scale_a), ("scale_b", scale_b)):
        s = np.asarray(s)
        if s.dtype != np.float32:
            raise LaunchError(f"{what}: {name} must be float32, got {s.dtype}")
        if not (s.flags.c_contiguous or s.flags.f_contiguous) or s.ndim == 0:
            s = np.ascontiguousarray(s)
        scales.append(s)
    sa, sb = scales
    # The kernel reads a scale array in its memory order, with its strides
    # (row- or column-major block scales alike).
    scaling, strides = fp8.plan_scales(what, m, n, k, sa.shape,
                                       [x // 4 for x in sa.strides], sb.shape,
                                       [x // 4 for x in sb.strides])
    out = _host_output(what, out, m, n, a, b, "a and b")
    label = fp8.resolve(what, m, n, k, scaling, variant, sm_count)
    kernel, _ = fp8._kernel(label)
    config = fp8.CONFIGS[label]
    grid, block, smem = fp8.launch_shape(label, m, n, k, sm_count)
    bm, bn = fp8._rows(label), config["bn"]
    b_rows = bn // config.get("cluster", 1)   # a cluster's CTAs load half of B each
    maps = (HostTensorMap(a, (bm, fp8.BK), "u8", "swizzle_128b", l2promo="l2_256b"),
            HostTensorMap(b.T, (b_rows, fp8.BK), "u8", "swizzle_128b", l2promo="l2_256b"),
            HostTensorMap(out, (64, 64), "bf16", "swizzle_128b", l2promo="l2_256b"))
    extra: Tuple[Any, ...] = ()
    if config.get("split_k"):
        out[...] = 0  # the slices reduce-add into a zeroed C
        extra = (fp8.splits_for(label, m, n, k, sm_count),)
    if config.get("stream_k"):
        # A 64 x BN f32 slot and an i32 flag (zero) per consumer warpgroup
        # of every CTA.
        slots = grid * (bm // 64)
        extra = (np.zeros(slots * 64 * bn, np.float32), np.zeros(slots, np.int32))
    kernel.emulate(*maps, sa.ravel(order="K"), sb.ravel(order="K"), m, n, k, fp8.GROUP_M,
                   *strides, *extra, grid=grid, block=block, smem=smem,
                   cluster=fp8.cluster_dims(label))
    return out
