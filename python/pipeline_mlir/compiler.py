"""compile(): kernels to PTX and cubin, with a content-hash cache on disk.

The cache key is the SHA-256 of the module's MLIR text without locations,
the options and the package version: the same kernel compiled from another
file or line hits the same entry. Entries live in $PIPELINE_MLIR_CACHE
(default ~/.cache/pipeline-mlir); PIPELINE_MLIR_CACHE=off disables the cache.
A hit needs neither the compiler library nor the CUDA toolkit, which is how
kernels compiled on one machine run on another (copy the cache directory).
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import tempfile
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

from . import _capi
from .errors import CompileError, ToolchainError
from .ir import Kernel, Module

if TYPE_CHECKING:   # imported at call time: the driver imports this module
    from .driver import LoadedKernel

__version__ = "0.1.0"



class CompiledModule:
    """PTX and cubin of one gpu.module, and its kernels' signatures."""

    def __init__(self, name, ptx, cubin, chip, signatures, key=None, cached=False):
        self.name = name
        self.ptx = ptx
        self.cubin = cubin
        self.chip = chip
        self.signatures = signatures
        self.key = key
        self.cached = cached
        self._loaded = None

    def kernel(self, name: Optional[str] = None) -> "LoadedKernel":
        """A launchable kernel of this module (the only one if no name)."""
        from .driver import LoadedKernel
        if name is None:
            if len(self.signatures) != 1:
                raise KeyError(f"module {self.name} has kernels {sorted(self.signatures)}: name one")
            name = next(iter(self.signatures))
        if name not in self.signatures:
            raise KeyError(f"module {self.name} has no kernel {name!r} "
                           f"(it has {sorted(self.signatures)})")
        return LoadedKernel(self, name, self.signatures[name])

    def __getitem__(self, name: str) -> "LoadedKernel":
        return self.kernel(name)

    def __call__(self, *args: Any, **launch: Any) -> None:
        return self.kernel()(*args, **launch)

    def emulate(self, *args: Any, **launch: Any) -> Any:
        """The only kernel run on the CPU: LoadedKernel.emulate."""
        return self.kernel().emulate(*args, **launch)

    def __repr__(self):
        return f"<CompiledModule {self.name} for {self.chip}: {sorted(self.signatures)}>"


def cache_dir() -> Optional[pathlib.Path]:
    env = os.environ.get("PIPELINE_MLIR_CACHE")
    if env == "off":
        return None
    if env:
        return pathlib.Path(env)
    return pathlib.Path.home() / ".cache" / "pipeline-mlir"


def _as_module(what):
    if isinstance(what, Module):
        return what
    if isinstance(what, Kernel):
        return Module([what])
    if isinstance(what, (list, tuple)):
        return Module(list(what))
    if isinstance(what, str):
        return Module.from_mlir(what)
    raise TypeError(f"compile() takes a @kernel, a list of them, a Module or MLIR text, "
                    f"got {type(what).__name__}")


def _remap(diagnostics, text, name):
    """Diagnostics located in the generated text (a parse error, a type the
    dialect rejects) are moved to the user's line that made that op: the
    `loc(...)` printed at the end of the same generated line."""
    import re
    lines = text.splitlines()
    for d in diagnostics:
        if d.file == name and 0 < d.line <= len(lines):
            m = re.search(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)\s*$', lines[d.line - 1])
            if m:
                d.file, d.line, d.column = m.group(1), int(m.group(2)), int(m.group(3))
        _remap(d.notes, text, name)
    return diagnostics


def check(what: Union[Kernel, Module, str, list]) -> None:
    """Parses and verifies (op verifiers, linearity, protocol) without
    compiling. Raises CompileError with the diagnostics on failure; returns
    the warnings otherwise."""
    module = _as_module(what)
    text = module.mlir()
    result = _capi.check(text, f"{module.name}.mlir")
    if not result.succeeded:
        raise CompileError(f"pipeline-mlir: {module.name} is not a valid pipeline program:",
                           _remap(result.diagnostics, text, f"{module.name}.mlir"))
    return result.diagnostics


def compile(what: Union[Kernel, Module, str, list], chip: Optional[str] = None, *,
            assemble: bool = True, cache: bool = True, **options: Any) -> CompiledModule:
    """Compiles a @kernel (or a list of them, a Module, or MLIR text) for
    `chip`. Returns a CompiledModule holding the PTX and (with `assemble`)
    the cubin. Raises CompileError with the compiler's diagnostics, located
    at the user's Python lines, when the kernel is rejected. Without `chip`,
    the compiler's default (`pipeline-compile`'s and the C API's, sm_100a):
    pass the chip of the GPU that runs the kernel, e.g. "sm_90a" on an
    H100.

    `options` are the compiler's lowering options, those of
    `pipeline-compile` with '_' for '-' (opt_level=2, hang_report=100000,
    line_info=True, features, cuda_path, verify_protocol, unroll_stages,
    hang_keep_waiting; docs/cli.md); the compiler declares them and their
    defaults (option_defaults()). hang_report=True is 2**31 cycles, as a
    bare --hang-report."""
    module = _as_module(what)
    given = {}
    for key, value in options.items():
        name = key.replace("_", "-")
        if name == "hang-report" and value is True:
            value = 1 << 31
        if value is None or value is False and name == "hang-report":
            continue  # the default
        given[name] = value
    if chip is not None:
        given["chip"] = chip
    line_info = given.get("line-info", False)
    hang_report = given.get("hang-report", 0)
    # Locations enter the key only when they enter the PTX: line info, and
    # the hang report's table of wait sites (file:line of each wait). An
    # explicit toolkit enters it too; a toolkit switched through the
    # environment needs clear_cache().
    located = bool(line_info or hang_report)
    keyed = module.mlir(locations=located)
    key = _key(keyed, given, assemble)
    # With locations in the key, the same kernel in a copy of its source
    # elsewhere (a cache filled on another machine, another checkout) has
    # another key. Its entry is also stored under a key with the source
    # files' directories left out, which a machine without the compiler
    # loads (the PTX then names the files where it was compiled).
    portable = _key(_without_directories(keyed), given, assemble) if located else key
    signatures = module.signatures()
    directory = cache_dir() if cache else None
    if directory is not None:
        hit = _load(directory / key, chip, signatures, key)
        if hit is not None:
            if portable != key and not (directory / portable / "meta.json").exists():
                _store(directory / portable, hit)  # an entry stored before the copy was
            return hit

    # Nothing below runs on a cache hit: the compiler library is loaded
    # only to compile.
    try:
        _capi.library()
    except ToolchainError:
        if directory is not None and portable != key:
            hit = _load(directory / portable, chip, signatures, portable)
            if hit is not None:
                return hit
        raise

    # The compiler declares the options: a name it lacks is the caller's
    # error, reported with the names it has (an unknown option never
    # compiled, so never hits).
    known = _capi.option_defaults()
    for name in given:
        if name not in known:
            raise TypeError(f"compile() got an unexpected option "
                            f"'{name.replace('-', '_')}'; the compiler's options are "
                            f"{', '.join(sorted(k.replace('-', '_') for k in known))}")
    chip = str(given.get("chip", known["chip"]))
    text = module.mlir()
    result = _capi.compile(text, f"{module.name}.mlir", given, assemble)
    if not result.succeeded:
        raise CompileError(f"pipeline-mlir: cannot compile {module.name} for {chip}:",
                           _remap(result.diagnostics, text, f"{module.name}.mlir"))
    if len(result.modules) != 1:
        raise CompileError(f"pipeline-mlir: expects one gpu.module, got {len(result.modules)}",
                           result.diagnostics)
    name, ptx, cubin = result.modules[0]
    compiled = CompiledModule(name, ptx, cubin if assemble else None, chip, signatures, key)
    if directory is not None:
        _store(directory / key, compiled)
        if portable != key:
            _store(directory / portable, compiled)
    return compiled


def _key(text, given, assemble):
    options = {k: str(v) for k, v in given.items()}
    return hashlib.sha256(json.dumps([__version__, text, options, bool(assemble)],
                                     sort_keys=True).encode()).hexdigest()


_LOC_FILE = re.compile(r'loc\("((?:[^"\\]|\\.)*)":')


def _without_directories(text):
    """`text` with each location's file reduced to its name (the key of a
    kernel whose source was copied to another directory)."""
    return _LOC_FILE.sub(lambda m: 'loc("' + m.group(1).rsplit("/", 1)[-1] + '":', text)


def _load(entry, chip, signatures, key):
    meta = entry / "meta.json"
    try:
        if not meta.exists():
            return None
        info = json.loads(meta.read_text())
        ptx = (entry / "module.ptx").read_text()
        cubin_path = entry / "module.cubin"
        cubin = cubin_path.read_bytes() if cubin_path.exists() else None
    except (OSError, ValueError):
        return None
    return CompiledModule(info["name"], ptx, cubin, info.get("chip", chip), signatures, key,
                          cached=True)


def _store(entry, compiled):
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        tmp = pathlib.Path(tempfile.mkdtemp(dir=entry.parent, prefix=".tmp-"))
        (tmp / "module.ptx").write_text(compiled.ptx)
        if compiled.cubin:
            (tmp / "module.cubin").write_bytes(compiled.cubin)
        (tmp / "meta.json").write_text(json.dumps({"name": compiled.name,
                                                   "chip": compiled.chip}))
        os.chmod(tmp, 0o755)  # a cache shared by several users stays readable
        try:
            os.rename(tmp, entry)
        except OSError:  # another process stored it first
            for f in tmp.iterdir():
                f.unlink()
            tmp.rmdir()
    except OSError:
        pass  # a read-only cache only costs a recompile


def option_defaults() -> Dict[str, str]:
    """The compiler's lowering options and their defaults, as it declares
    them (the C API's, pipeline-compile's): {"chip": "sm_100a",
    "opt-level": "3", ...}. compile() takes them with '_' for '-'."""
    return _capi.option_defaults()


def chips() -> Dict[str, Dict[str, Any]]:
    """The chips the compiler accepts, from its chip table: {"sm_90a":
    {"capabilities": {"clusters"}, "ptx": (80, 90)}, "sm_100a":
    {"capabilities": {"clusters", "tcgen05", "tcgen05-lowering"}, ...}}.
    clusters: every pipeline op; tcgen05: MMAs and CTA pairs
    (cta_group = 2); tcgen05-lowering: release_mma and commit_mma lower
    (MLIR 22's nvvm.tcgen05.commit); ptx: the PTX ISA versions, times 10."""
    return _capi.chips()


def clear_cache() -> None:
    """Removes every entry of the compile cache."""
    import shutil
    directory = cache_dir()
    if directory is not None and directory.exists():
        shutil.rmtree(directory)
