"""ctypes binding of libPipelineMLIRCAPI.so (include/pipeline-c/Compiler.h).

The library is looked up, in order, at $PIPELINE_MLIR_CAPI (a file), in the
package (pipeline_mlir/_lib: the wheel of scripts/build-wheel.py), in the
build tree next to this package (build/lib), and in the installed prefix
(<prefix>/lib next to <prefix>/python). It is loaded on first use only: a
program that finds all its kernels in the compile cache never needs it.
"""

import ctypes
import os
import pathlib

from .errors import ToolchainError

_LIB_NAME = "libPipelineMLIRCAPI.so"


class MlirStringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("length", ctypes.c_size_t)]

    @classmethod
    def of(cls, data):
        if isinstance(data, str):
            data = data.encode()
        ref = cls(ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p), len(data))
        ref._keep = data  # the bytes must outlive the call
        return ref

    def bytes(self):
        if not self.length:
            return b""
        return ctypes.string_at(self.data, self.length)

    def str(self):
        return self.bytes().decode("utf-8", errors="replace")


class PmlirResult(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


_SEVERITY = {0: "error", 1: "warning", 2: "note", 3: "remark"}

_lib = None


def _candidates():
    env = os.environ.get("PIPELINE_MLIR_CAPI")
    if env:
        yield pathlib.Path(env)
        return
    here = pathlib.Path(__file__).resolve().parent
    # The wheel (scripts/build-wheel.py): beside the modules.
    yield here / "_lib" / _LIB_NAME
    # Source tree: python/pipeline_mlir -> build/lib (or $BUILD_DIR/lib).
    build = os.environ.get("BUILD_DIR")
    if build:
        yield pathlib.Path(build) / "lib" / _LIB_NAME
    yield here.parent.parent / "build" / "lib" / _LIB_NAME
    # Installed: <prefix>/python/pipeline_mlir -> <prefix>/lib.
    yield here.parent.parent / "lib" / _LIB_NAME


def library():
    """The loaded C API library; ToolchainError if it cannot be found."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        tried.append(str(path))
        if path.exists():
            try:
                lib = ctypes.CDLL(str(path))
            except OSError as e:
                raise ToolchainError(f"cannot load {path}: {e}") from None
            _declare(lib)
            from .compiler import __version__
            found = lib.pmlirGetVersion().str()
            if found != f"pipeline-mlir {__version__}":
                raise ToolchainError(f"{path} is {found}, this package is pipeline-mlir "
                                     f"{__version__}: rebuild or point PIPELINE_MLIR_CAPI "
                                     "at the matching library")
            _lib = lib
            return lib
    raise ToolchainError(
        f"{_LIB_NAME} not found (looked at: {', '.join(tried)}); build the "
        "project with ./scripts/build.sh or set PIPELINE_MLIR_CAPI to the "
        "library's path")


def _declare(lib):
    R, S, ip = PmlirResult, MlirStringRef, ctypes.c_ssize_t
    sigs = {
        "pmlirGetCompileOptionDefaults": (S, []),
        "pmlirGetChipTable": (S, []),
        "pmlirFormatHangReport": (ctypes.c_int, [ctypes.POINTER(ctypes.c_uint32), S,
                                                 ctypes.c_char_p, ctypes.c_size_t]),
        "pmlirCheckSource": (R, [S, S]),
        "pmlirCompileSource": (R, [S, S, S, ctypes.c_bool]),
        "pmlirResultDestroy": (None, [R]),
        "pmlirResultSucceeded": (ctypes.c_bool, [R]),
        "pmlirResultGetIR": (S, [R]),
        "pmlirResultGetNumDiagnostics": (ip, [R]),
        "pmlirResultGetDiagnosticSeverity": (ctypes.c_int, [R, ip]),
        "pmlirResultGetDiagnosticMessage": (S, [R, ip]),
        "pmlirResultGetDiagnosticFile": (S, [R, ip]),
        "pmlirResultGetDiagnosticLine": (ctypes.c_uint, [R, ip]),
        "pmlirResultGetDiagnosticColumn": (ctypes.c_uint, [R, ip]),
        "pmlirResultGetDiagnosticParent": (ip, [R, ip]),
        "pmlirResultGetNumModules": (ip, [R]),
        "pmlirResultGetModuleName": (S, [R, ip]),
        "pmlirResultGetModulePTX": (S, [R, ip]),
        "pmlirResultGetModuleCubin": (S, [R, ip]),
        "pmlirGetVersion": (S, []),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = res
        fn.argtypes = args


class Result:
    """A PmlirResult read into Python objects, then destroyed."""

    def __init__(self, handle):
        from .errors import Diagnostic
        lib = library()
        try:
            self.succeeded = bool(lib.pmlirResultSucceeded(handle))
            self.ir = lib.pmlirResultGetIR(handle).str()
            flat = []
            for i in range(lib.pmlirResultGetNumDiagnostics(handle)):
                d = Diagnostic(
                    _SEVERITY.get(lib.pmlirResultGetDiagnosticSeverity(handle, i), "error"),
                    lib.pmlirResultGetDiagnosticMessage(handle, i).str(),
                    lib.pmlirResultGetDiagnosticFile(handle, i).str(),
                    lib.pmlirResultGetDiagnosticLine(handle, i),
                    lib.pmlirResultGetDiagnosticColumn(handle, i))
                parent = lib.pmlirResultGetDiagnosticParent(handle, i)
                flat.append(d)
                if parent >= 0:
                    flat[parent].notes.append(d)
            self.diagnostics = [d for i, d in enumerate(flat)
                                if lib.pmlirResultGetDiagnosticParent(handle, i) < 0]
            self.modules = []
            for i in range(lib.pmlirResultGetNumModules(handle)):
                self.modules.append((lib.pmlirResultGetModuleName(handle, i).str(),
                                     lib.pmlirResultGetModulePTX(handle, i).str(),
                                     lib.pmlirResultGetModuleCubin(handle, i).bytes()))
        finally:
            lib.pmlirResultDestroy(handle)


def check(source, name):
    lib = library()
    return Result(lib.pmlirCheckSource(MlirStringRef.of(source), MlirStringRef.of(name)))


def compile(source, name, options, assemble):
    """Compiles `source` with `options`, a dict of the compile options
    (option_defaults()' names) to their values."""
    text = " ".join(f"{key}={_option_value(value)}" for key, value in options.items())
    return Result(library().pmlirCompileSource(MlirStringRef.of(source), MlirStringRef.of(name),
                                               MlirStringRef.of(text), bool(assemble)))


def _option_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    # The pass options parser takes a quoted value as one (a toolkit path
    # with spaces); an empty value stays empty.
    return f'"{text}"' if any(c.isspace() for c in text) else text


def option_defaults():
    """The compile options and their defaults, as the compiler declares
    them: {"chip": "sm_100a", "opt-level": "3", ...}."""
    text = library().pmlirGetCompileOptionDefaults().str()
    return dict(item.split("=", 1) for item in text.split())


def chips():
    """The compiler's chip table: {"sm_100a": {"capabilities": {...},
    "ptx": (86, 90)}, ...}."""
    table = {}
    for line in library().pmlirGetChipTable().str().splitlines():
        name, capabilities, ptx = line.split(" ")
        low, high = ptx[len("ptx="):].split("..")
        table[name] = {"capabilities": frozenset(filter(None, capabilities.split(","))),
                       "ptx": (int(low), int(high))}
    return table


def format_hang_report(words, sites):
    """The C API's hang report of a record and site table (the one the C++
    runtime prints); the launcher's own decoder is tested against it."""
    record = (ctypes.c_uint32 * len(words))(*words)
    out = ctypes.create_string_buffer(1024)
    library().pmlirFormatHangReport(record, MlirStringRef.of(sites), out, len(out))
    return out.value.decode()


def default_chip():
    """The chip the compiler targets when none is given."""
    return option_defaults()["chip"]


def version():
    return library().pmlirGetVersion().str()
