"""The kernel builder: Python functions that emit the pipeline dialect.

A kernel is a Python function decorated with @kernel; its parameters are
annotated with types. Calling the builder functions of this module inside
it (thread_id, pipeline, if_, range, ...) appends ops to the kernel; `with`
statements open regions (scf.if, scf.for, pipeline.produce/consume). Every
op records the file, line and column of the user's Python code that made it
as its MLIR location, so that the compiler's diagnostics point there.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import functools
import inspect
import os
import re
import sys
import threading
from typing import Any, Callable, Iterator, Optional, Sequence, Tuple, Union

from . import _generated
from . import types as T
from .errors import BuildError

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
#: The package's own kernel programs: their lines are the kernels' source
#: locations, as a user's are (the rest of the package is the builder).
_KERNELS_DIR = os.path.join(_PACKAGE_DIR, "kernels")
_SKIPPED = {os.path.abspath(contextlib.__file__)}
_state = threading.local()


def _is_user_code(code):
    """Code outside this package (and the context managers' module)."""
    filename = code.co_filename
    path = os.path.abspath(filename)
    if path.startswith(_KERNELS_DIR + os.sep):
        return True
    return not path.startswith(_PACKAGE_DIR + os.sep) and path not in _SKIPPED and \
        not filename.startswith("<frozen")


def _user_frames():
    """The frames outside this package, innermost first."""
    frame = sys._getframe(1)
    while frame is not None:
        if _is_user_code(frame.f_code):
            yield frame
        frame = frame.f_back


def _user_location():
    """(file, line, column) of the innermost frame outside this package."""
    for frame in _user_frames():
        path = os.path.abspath(frame.f_code.co_filename)
        line, col = frame.f_lineno, 1
        try:
            positions = list(frame.f_code.co_positions())
            pos = positions[frame.f_lasti // 2]
            if pos[0] is not None:
                line = pos[0]
            if pos[2] is not None:
                col = pos[2] + 1
        except (AttributeError, IndexError):
            pass
        return path, line, col
    return "<unknown>", 0, 0


_LOCATED = re.compile(r"(/|<unknown>).*?:\d+: ")


def _locate(error):
    """Prefixes a BuildError raised while a kernel was built with the file
    and line of the innermost user code in its traceback (the line that
    called the builder), unless its message starts with a location."""
    if _LOCATED.match(str(error)):
        return
    where, tb = None, error.__traceback__
    while tb is not None:
        if _is_user_code(tb.tb_frame.f_code):
            where = (os.path.abspath(tb.tb_frame.f_code.co_filename), tb.tb_lineno)
        tb = tb.tb_next
    if where is not None:
        error.args = (f"{where[0]}:{where[1]}: {error}",) + error.args[1:]


def _python_name(value):
    """The Python name of a kernel value where the user's code holds it:
    a local variable (`acc`), an item of a local list or tuple
    (`loop.results[0]`), or an attribute of a local object (`loop.iv`);
    None if none is found. The innermost user frame is searched first."""
    for depth, frame in enumerate(_user_frames()):
        if depth > 8:
            break
        local = frame.f_locals
        for name, obj in local.items():
            if obj is value:
                return name
        for name, obj in local.items():
            found = _name_inside(obj, value, name)
            if found:
                return found
    return None


def _name_inside(obj, value, name):
    if isinstance(obj, (list, tuple)):
        for i, item in enumerate(obj):
            if item is value:
                return f"{name}[{i}]"
        return None
    if isinstance(obj, (Value, Loop, _IfContext)):
        for attr, item in vars(obj).items():
            if attr.startswith("_"):
                continue
            if item is value:
                return f"{name}.{attr}"
            if isinstance(item, (list, tuple)):
                for i, x in enumerate(item):
                    if x is value:
                        return f"{name}.{attr}[{i}]"
    return None


def _describe(value):
    """`name` (type) or, without a Python name, the value's type and the
    line that made it."""
    name = _python_name(value)
    if name:
        return f"`{name}` ({value.type})"
    loc = getattr(value, "loc", None)
    if loc and loc[1]:
        return f"the {value.type} value made at {os.path.basename(loc[0])}:{loc[1]}"
    return f"the {value.type} value {value.name}"


def _quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


class _Op:
    """One op: its text (may span regions) and location."""

    def __init__(self, text, loc, regions=(), tail="", terminator=None):
        self.text = text
        self.loc = loc
        self.regions = list(regions)
        self.tail = tail
        # Printed explicitly at the end of each region, with the op's
        # location: an implicit one would carry a location in the generated
        # text, and diagnostics at it (a stage leaking out of a branch)
        # would not point at the user's line.
        self.terminator = terminator


class _Block:
    def __init__(self, args=""):
        self.args = args
        self.ops = []


def _current():
    b = getattr(_state, "builder", None)
    if b is None:
        raise BuildError("pipeline_mlir ops can only be built inside a @kernel "
                         "function while it is being built")
    return b


#: The deepest nesting of regions a kernel may have. MLIR's parser and
#: verifier recurse per region (the C API overflows the stack at a few
#: thousand), and so do the builder's printer and checks.
MAX_NESTING = 256


class _Builder:
    def __init__(self, kernel):
        self.kernel = kernel
        self.counter = 0
        self.blocks = []
        self.consts = {}

    def fresh(self, hint="v"):
        self.counter += 1
        return f"%{hint}{self.counter}"

    @property
    def block(self):
        return self.blocks[-1]

    def push(self, block):
        """Enters a region's block (a `with` statement)."""
        if len(self.blocks) > MAX_NESTING:
            file, line, _ = _user_location()
            raise BuildError(f"{file}:{line}: regions nested deeper than {MAX_NESTING} "
                             "(pm.range, pm.if_, produce/consume blocks)")
        self.blocks.append(block)

    def emit(self, text, loc=None, regions=(), tail="", terminator=None):
        op = _Op(text, loc or _user_location(), regions, tail, terminator)
        self.block.ops.append(op)
        self.last_loc = op.loc  # the location of the values made next
        return op

    def op(self, fmt, result_type=None, hint="v", loc=None):
        """Emits `fmt` with {r} replaced by a fresh result name."""
        if result_type is None:
            self.emit(fmt, loc)
            return None
        name = self.fresh(hint)
        self.emit(fmt.format(r=name), loc)
        return Value(name, result_type)


class Value:
    """An SSA value of a kernel under construction. `block` is the region
    block it is defined in (None: the kernel's arguments); a use outside
    that block's `with` statement is refused where the user wrote it."""

    def __init__(self, name, type):
        self.name = name
        self.type = type
        b = getattr(_state, "builder", None)
        self.block = b.blocks[-1] if b is not None and b.blocks else None
        # The op that made it was the last one emitted (for messages).
        self.loc = getattr(b, "last_loc", None) if b is not None else None

    def __str__(self):
        b = getattr(_state, "builder", None)
        if b is not None and self.block is not None and \
                not any(self.block is blk for blk in b.blocks):
            file, line, _ = _user_location()
            raise BuildError(
                f"{file}:{line}: {_describe(self)} was made inside a `with` block "
                "that has ended "
                "(a pm.range or pm.if_ body, or a produce/consume region): it cannot be "
                "used after it. Carry it out of a loop with pm.range(carry=...), out of "
                "a branch with pm.if_(results=...), or read a stage with "
                "p.acquire_consumer() and s.release()")
        return self.name

    def __repr__(self):
        return f"<Value {self.name} : {self.type}>"

    def __bool__(self):
        raise BuildError(
            "a kernel value has no Python truth value: use pm.if_(cond) "
            "instead of `if`, and pm.range instead of Python loops over values")

    # Arithmetic: arith ops of the operands' type (ints convert).
    def _same_type(self, other, reverse):
        """Refuses operands of two types, naming them and the cast."""
        if other.type == self.type:
            return
        a, b = (other, self) if reverse else (self, other)
        message = f"operands of different types: {a.type} and {b.type}"
        if isinstance(a.type, T.ScalarType) and isinstance(b.type, T.ScalarType):
            na, nb = _python_name(a), _python_name(b)
            if na and nb:
                message += f" (`{na}` and `{nb}`)"
            message += (f": nothing converts implicitly; cast one to the other's type, "
                        f"`{nb or 'value'}.cast(pm.{a.type})` or "
                        f"`{na or 'value'}.cast(pm.{b.type})`")
        raise BuildError(message)

    def _bin(self, other, int_op, float_op, reverse=False):
        other = as_value(other, self.type)
        self._same_type(other, reverse)
        a, b = (other, self) if reverse else (self, other)
        op = float_op if self.type.is_float else int_op
        if op is None:
            raise BuildError(f"no such operation on {self.type}")
        return _current().op(f"{{r}} = arith.{op} {a}, {b} : {self.type}", self.type)

    def __add__(self, o): return self._bin(o, "addi", "addf")
    def __radd__(self, o): return self._bin(o, "addi", "addf", True)
    def __sub__(self, o): return self._bin(o, "subi", "subf")
    def __rsub__(self, o): return self._bin(o, "subi", "subf", True)
    def __mul__(self, o): return self._bin(o, "muli", "mulf")
    def __rmul__(self, o): return self._bin(o, "muli", "mulf", True)
    def __truediv__(self, o): return self._bin(o, None, "divf")
    def __floordiv__(self, o):
        return self._bin(o, "divui" if self.type.kind == "index" else "divsi", None)
    def __mod__(self, o):
        return self._bin(o, "remui" if self.type.kind == "index" else "remsi", None)
    def __and__(self, o): return self._bin(o, "andi", None)
    def __or__(self, o): return self._bin(o, "ori", None)
    def __xor__(self, o): return self._bin(o, "xori", None)
    def __lshift__(self, o): return self._bin(o, "shli", None)
    def __rshift__(self, o):
        return self._bin(o, "shrui" if self.type.kind == "index" else "shrsi", None)

    def _cmp(self, other, pred_u, pred_s, pred_f):
        other = as_value(other, self.type)
        self._same_type(other, False)
        # i1, or a vector of i1 for vectors (their type's `mask`).
        result = getattr(self.type, "mask", T.i1)
        if self.type.is_float:
            return _current().op(f"{{r}} = arith.cmpf {pred_f}, {self}, {other} : {self.type}",
                                 result)
        pred = pred_u if self.type.kind == "index" else pred_s
        return _current().op(f"{{r}} = arith.cmpi {pred}, {self}, {other} : {self.type}", result)

    def __eq__(self, o): return self._cmp(o, "eq", "eq", "oeq")
    def __ne__(self, o): return self._cmp(o, "ne", "ne", "une")
    def __lt__(self, o): return self._cmp(o, "ult", "slt", "olt")
    def __le__(self, o): return self._cmp(o, "ule", "sle", "ole")
    def __gt__(self, o): return self._cmp(o, "ugt", "sgt", "ogt")
    def __ge__(self, o): return self._cmp(o, "uge", "sge", "oge")
    __hash__ = object.__hash__

    # Memory: x[i, j] loads, x[i, j] = v stores.
    def _indices(self, idx):
        if not isinstance(self.type, T.MemRefType):
            raise BuildError(f"indexing needs a memref, got {self.type}")
        idx = idx if isinstance(idx, tuple) else (idx,)
        if len(idx) != self.type.rank:
            raise BuildError(f"{self.type} takes {self.type.rank} indices, got {len(idx)}")
        return ", ".join(str(as_value(i, T.index)) for i in idx)

    def __iter__(self):
        # Without it Python would iterate through __getitem__ with 0, 1, 2,
        # ... and never stop (a memref has no Python length).
        raise BuildError("a kernel value is not a Python iterable: loop with "
                         "`with pm.range(n) as i:` and index with x[i]")

    def __getitem__(self, idx):
        ids = self._indices(idx)
        return _current().op(f"{{r}} = memref.load {self}[{ids}] : {self.type}",
                             self.type.element)

    def __setitem__(self, idx, value):
        ids = self._indices(idx)
        value = as_value(value, self.type.element)
        _current().op(f"memref.store {value}, {self}[{ids}] : {self.type}")

    def dim(self, i):
        """memref.dim: the size of dimension `i` (an index), also of a
        dynamic one, which the launcher passes from the array's shape."""
        if not isinstance(self.type, T.MemRefType):
            raise BuildError(f"dim needs a memref, got {self.type}")
        if not isinstance(i, int) or not 0 <= i < self.type.rank:
            raise BuildError(f"{self.type} has dimensions 0 to {self.type.rank - 1}, got {i!r}")
        return _current().op(
            f"{{r}} = memref.dim {self}, {as_value(i, T.index)} : {self.type}", T.index)

    def cast(self, type):
        """index_cast / sitofp / fptosi / extf / truncf / extsi / trunci."""
        src, dst = self.type, type
        if src == dst:
            return self
        if src.kind == "index" or dst.kind == "index":
            op = "index_cast"
        elif src.is_float and dst.is_float:
            op = "extf" if dst.bits > src.bits else "truncf"
        elif src.is_float:
            op = "fptosi"
        elif dst.is_float:
            op = "sitofp"
        elif src == T.i1:
            op = "extui"
        else:
            op = "extsi" if dst.bits > src.bits else "trunci"
        return _current().op(f"{{r}} = arith.{op} {self} : {src} to {dst}", dst)


def constant(value: Union[int, float, bool], type: T.Type = T.index) -> "Value":
    """arith.constant (cached per kernel and type at the top of the kernel)."""
    b = _current()
    if type.is_float:
        value = float(value)
        if math.isfinite(value):
            text = repr(value)
        else:  # inf and nan have no decimal spelling in MLIR
            import struct
            bits = {"f16": ("<e", "<H"), "bf16": None, "f32": ("<f", "<I"),
                    "f64": ("<d", "<Q")}[type.text]
            if bits is None:
                import numpy as np
                from .dtypes import to_bf16
                text = hex(int(to_bf16(np.float32(value))))
            else:
                text = hex(struct.unpack(bits[1], struct.pack(bits[0], value))[0])
    elif type == T.i1:
        text = "1" if value else "0"  # `true : i1` does not parse
    else:
        value = int(value)
        lo = -(1 << (type.bits - 1)) if type.kind != "index" else -(1 << 63)
        if not lo <= value < (1 << type.bits):
            raise BuildError(f"{value} does not fit {type}")
        text = str(value)
    key = (text, type.text)
    if key in b.consts:
        return b.consts[key]
    name = b.fresh("c")
    op = _Op(f"{name} = arith.constant {text} : {type}", _user_location())
    b.blocks[0].ops.insert(b.const_count, op)
    b.const_count += 1
    v = Value(name, type)
    v.block = b.blocks[0]  # hoisted to the kernel's entry block
    b.consts[key] = v
    return v


def as_value(x: Union["Value", int, float, bool], ty: T.Type = T.index) -> "Value":
    if isinstance(x, Value):
        return x
    if isinstance(x, bool):
        return constant(int(x), T.i1)
    if isinstance(x, numbers.Integral):
        return constant(int(x), ty)
    if isinstance(x, numbers.Real):
        if not ty.is_float:
            if float(x).is_integer():
                return constant(int(x), ty)
            raise BuildError(f"expects an integer for a {ty} value, got {x!r}")
        return constant(float(x), ty)
    raise BuildError(f"expects a kernel value or a Python number, got {type(x).__name__}")


# --- GPU ------------------------------------------------------------------

def thread_id(dim: str = "x") -> "Value":
    return _current().op(f"{{r}} = gpu.thread_id {dim}", T.index, "tid")


def block_id(dim: str = "x") -> "Value":
    return _current().op(f"{{r}} = gpu.block_id {dim}", T.index, "bid")


def block_dim(dim: str = "x") -> "Value":
    return _current().op(f"{{r}} = gpu.block_dim {dim}", T.index)


def grid_dim(dim: str = "x") -> "Value":
    return _current().op(f"{{r}} = gpu.grid_dim {dim}", T.index)


def barrier() -> None:
    _current().op("gpu.barrier")


def dynamic_shared_memory() -> "Value":
    """The kernel's dynamic shared memory as memref<?xi8, workgroup>."""
    t = T.MemRefType((None,), T.i8, T.smem)
    return _current().op(f"{{r}} = gpu.dynamic_shared_memory : {t}", t, "smem")


def view(buffer: "Value", offset: Union["Value", int], shape: Sequence[int],
         element: T.Type) -> "Value":
    """memref.view of a byte buffer at a byte offset: a shaped memref in the
    buffer's address space."""
    t = T.MemRefType(shape, element, buffer.type.space)
    off = as_value(offset)
    return _current().op(f"{{r}} = memref.view {buffer}[{off}][] : {buffer.type} to {t}", t)


def aligned_offset(buffer: "Value", offset: Union["Value", int], alignment: int) -> "Value":
    """The first byte offset >= `offset` in `buffer` whose address is a
    multiple of `alignment` (e.g. 128 for TMA destinations)."""
    b = _current()
    base = b.op(f"{{r}} = memref.extract_aligned_pointer_as_index {buffer} : {buffer.type} -> index",
                T.index)
    addr = base + as_value(offset) + (alignment - 1)
    aligned = addr & constant(-alignment)
    return aligned - base


def _strides(t):
    if getattr(t, "strides", None) is not None:
        return list(t.strides)
    strides, acc = [], 1
    for d in reversed(t.shape):
        strides.insert(0, acc)
        acc *= d
    return strides


def _strided(shape, element, space, strides, offset="?"):
    t = T.MemRefType(shape, element, space,
                     f"strided<[{', '.join(map(str, strides))}], offset: {offset}>")
    t.strides = list(strides)
    t.static_offset = None if offset == "?" else offset
    return t


def subview(source: "Value", offsets: Sequence[Union["Value", int]], sizes: Sequence[int],
            rank: Optional[int] = None) -> "Value":
    """memref.subview with unit strides; leading unit dimensions of `sizes`
    are dropped from the result (rank reduction), e.g. tiles[k, 0, 0] of
    sizes [1, 32, 32] is a 32x32 memref. `rank`: drop them only down to this
    rank (a 3-D TMA box such as 1 x 128 x 64 keeps its leading 1)."""
    st = source.type
    if not isinstance(st, T.MemRefType) or any(d is None for d in st.shape):
        raise BuildError(f"subview needs a memref of static shape, got {st}")
    if len(offsets) != st.rank or len(sizes) != st.rank:
        raise BuildError(f"subview of {st} needs {st.rank} offsets and sizes")
    strides = _strides(st)
    if rank is not None and not 1 <= rank <= len(sizes):
        raise BuildError(f"subview rank must be 1 to {len(sizes)}, got {rank}")
    drop = 0
    keep = len(sizes) - 1 if rank is None else rank
    while len(sizes) - drop > keep and sizes[drop] == 1:
        drop += 1
    base = getattr(st, "static_offset", 0 if st.layout is None else None)
    offset = "?"
    if base is not None and not any(isinstance(o, Value) for o in offsets):
        offset = base + sum(o * st_ for o, st_ in zip(offsets, strides))
    t = _strided(tuple(sizes[drop:]), st.element, st.space, strides[drop:], offset)
    offs = ", ".join(str(as_value(o)) if isinstance(o, Value) else str(o) for o in offsets)
    return _current().op(
        f"{{r}} = memref.subview {source}[{offs}] [{', '.join(map(str, sizes))}] "
        f"[{', '.join('1' for _ in sizes)}] : {st} to {t}", t)


# --- Control flow ---------------------------------------------------------

def _yield_text(values, types, what):
    """`scf.yield` of `values` (Values or numbers), checked against `types`."""
    values = [as_value(v, t) for v, t in zip(values, types)] if len(values) == len(types) \
        else None
    if values is None:
        raise BuildError(f"{what} yields {len(types)} value(s)")
    for v, t in zip(values, types):
        if v.type != t:
            raise BuildError(f"{what}: a {t} value is expected, got {v.type}")
    return "scf.yield " + ", ".join(map(str, values)) + " : " + ", ".join(map(str, types))


def _result_values(name, types):
    if len(types) == 1:
        return [Value(name, types[0])]
    return [Value(f"{name}#{k}", t) for k, t in enumerate(types)]


class _IfContext:
    def __init__(self, cond, results=()):
        self.cond = as_value(cond, T.i1)
        if self.cond.type != T.i1:
            raise BuildError(f"pm.if_ needs an i1 condition, got {self.cond.type}")
        b = _current()
        self.types = list(results)
        self.then_block = _Block()
        self.else_block = None
        self._open = None
        if self.types:
            name = b.fresh("if")
            head = (f"{name}{':' + str(len(self.types)) if len(self.types) > 1 else ''} = "
                    f"scf.if {self.cond} -> ({', '.join(map(str, self.types))})")
            self.results = _result_values(name, self.types)
        else:
            head = f"scf.if {self.cond}"
            self.results = []
        self.op = b.emit(head, regions=[self.then_block], terminator="scf.yield")
        self.op.is_if = True

    def yield_(self, *values):
        """The values the branch being built gives the scf.if's results."""
        block = self._open
        if not self.types or block is None:
            raise BuildError("yield_ is for a pm.if_ with results=..., inside one of its "
                             "branches")
        if getattr(block, "terminator", None):
            raise BuildError("this branch already yields")
        block.terminator = _yield_text(list(values), self.types, "pm.if_ branch")

    def _close(self, block):
        if self.types and not getattr(block, "terminator", None):
            raise BuildError("a pm.if_ with results needs br.yield_(...) in each branch")

    def __enter__(self):
        _current().push(self.then_block)
        self._open = self.then_block
        return self

    def __exit__(self, exc_type, *exc):
        _current().blocks.pop()
        self._open = None
        if exc_type is None:
            self._close(self.then_block)
            # The else branch may come in a later `with br.else_():`; the
            # kernel checks it once built (_check_if_results).
            self.op.needs_else = bool(self.types)
        return False

    @contextlib.contextmanager
    def else_(self):
        """`with pm.if_(c) as br: ...` then `with br.else_(): ...`."""
        b = _current()
        if self.else_block is not None:
            raise BuildError("this pm.if_ already has an else branch")
        self.else_block = _Block()
        self.else_block.loc = _user_location()
        self.op.regions.append(self.else_block)
        b.push(self.else_block)
        self._open = self.else_block
        ok = False
        try:
            yield
            ok = True
        finally:
            b.blocks.pop()
            self._open = None
        if ok:
            self._close(self.else_block)


def if_(cond: "Value", results: Sequence[T.Type] = ()) -> Any:
    """scf.if: `with pm.if_(cond) as branch:`, then optionally
    `with branch.else_():`. With `results=(types...)` the scf.if has results:
    each branch ends with `branch.yield_(values...)` (both branches are
    needed), and `branch.results` are the values after it."""
    return _IfContext(cond, results)


class Loop:
    """The scf.for of `pm.range(..., carry=[...])`: `iv`, the `carried` values
    of this iteration, `next(values...)` for the next iteration's, and the
    loop's `results` after the `with` block."""

    def __init__(self, iv, carried, results):
        self.iv = iv
        self.carried = carried
        self.results = results
        self.yielded = None

    def next(self, *values):
        if self.yielded is not None:
            raise BuildError("loop.next(...) was already called in this loop body")
        self.yielded = _yield_text(list(values), [c.type for c in self.carried],
                                   "loop.next")


@contextlib.contextmanager
def range(start: Union["Value", int], stop: Union["Value", int, None] = None,
          step: Union["Value", int] = 1,
          carry: Optional[Sequence["Value"]] = None) -> Iterator[Union["Value", "Loop"]]:
    """scf.for over index values: `with pm.range(0, n) as i:`. With
    `carry=[values...]` the loop carries values (iter_args): it gives a
    `pm.Loop` instead of the index, whose `carried` are this iteration's
    values; the body ends with `loop.next(values...)` and `loop.results` are
    the values after the loop:

        with pm.range(0, n, carry=[zero]) as loop:
            (acc,) = loop.carried
            loop.next(acc + x[loop.iv])
        (total,) = loop.results
    """
    if stop is None:
        start, stop = 0, start
    # Index bounds, or bounds of one integer type (an i32 loop: `: i32`).
    ity = next((v.type for v in (start, stop, step) if isinstance(v, Value)), T.index)
    ity = ity if getattr(ity, "kind", None) == "int" and ity != T.i1 else T.index
    lo, hi, st = as_value(start, ity), as_value(stop, ity), as_value(step, ity)
    for v in (lo, hi, st):
        if v.type != ity:
            raise BuildError(f"pm.range bounds are index values (or all of one integer "
                             f"type), got {v.type} (convert with .cast(pm.index))")
    suffix = "" if ity == T.index else f" : {ity}"
    b = _current()
    iv = b.fresh("i")
    body = _Block()
    if carry is None:
        b.emit(f"scf.for {iv} = {lo} to {hi} step {st}{suffix}", regions=[body],
               terminator="scf.yield")
        b.push(body)
        index = Value(iv, ity)
        try:
            yield index
        finally:
            b.blocks.pop()
        return
    inits = [as_value(v) if isinstance(v, Value) else None for v in carry]
    if not inits or any(v is None for v in inits):
        raise BuildError("pm.range carry= takes a non-empty list of kernel values "
                         "(make a number one with pm.constant(x, type))")
    # A carried stage handle stays a Stage (its iteration's and the loop's
    # result: acquired in one iteration, released in the next).
    args = [_like(v, b.fresh("c")) for v in inits]
    for a in args:
        a.block = body
    name = b.fresh("loop")
    types = [v.type for v in inits]
    results = [_like(v, r.name) for v, r in zip(inits, _result_values(name, types))]
    head = (f"{name}{':' + str(len(types)) if len(types) > 1 else ''} = scf.for {iv} = "
            f"{lo} to {hi} step {st} iter_args("
            + ", ".join(f"{a.name} = {v}" for a, v in zip(args, inits))
            + f") -> ({', '.join(map(str, types))}){suffix}")
    op = b.emit(head, regions=[body], terminator=None)
    loop = Loop(Value(iv, ity), args, results)
    loop.iv.block = body
    yield from _carried_body(b, body, loop, "a pm.range with carry= needs "
                             "loop.next(values...) in its body")
    op.terminator = loop.yielded


def _carried_body(b, body, loop, missing):
    """Builds a loop's body (the `with` block, yielding `loop`) in `body`;
    afterwards the body must have called loop.next(...) (`missing` says
    so otherwise). Generator: a context manager yields from it."""
    b.push(body)
    try:
        yield loop
    finally:
        b.blocks.pop()
    if loop.yielded is None:
        raise BuildError(missing)


def _like(value, name):
    """A new Value named `name` of `value`'s type (a Stage of its pipeline)."""
    if isinstance(value, Stage):
        return Stage(name, value.type, value.pipeline)
    return Value(name, value.type)


class WhileLoop:
    """The scf.while of `pm.while_loop(carry=[...])`: `carried`, this
    iteration's values (the carried values but the flag), `next(values...,
    flag)` for the next iteration's, and the loop's `results` (the values
    of the iteration whose flag was false) after the `with` block."""

    def __init__(self, carried, results, types):
        self.carried = carried
        self.results = results
        self.yielded = None
        self._types = types

    def next(self, *values):
        if self.yielded is not None:
            raise BuildError("loop.next(...) was already called in this loop body")
        self.yielded = _yield_text(list(values), self._types, "loop.next")


@contextlib.contextmanager
def while_loop(carry: Sequence["Value"]) -> Iterator["WhileLoop"]:
    """scf.while with carried values and its test before each iteration:
    the LAST carried value is an i1 flag, the body runs while it is true.
    The body gets the other carried values (`loop.carried`) and ends with
    `loop.next(values..., flag)`; `loop.results` are the other values after
    the loop (a persistent kernel's tile loop):

        with pm.while_loop(carry=[t0, pm.constant(1, pm.i1)]) as loop:
            (t,) = loop.carried
            loop.next(t + 1, t < n)
        (t_end,) = loop.results
    """
    inits = [v if isinstance(v, Value) else None for v in carry]
    if not inits or any(v is None for v in inits):
        raise BuildError("pm.while_loop carry= takes a non-empty list of kernel values, the "
                         "last an i1 flag (make a number one with pm.constant(x, type))")
    if inits[-1].type != T.i1:
        raise BuildError(f"pm.while_loop: the last carried value is the i1 flag, got "
                         f"{inits[-1].type}")
    b = _current()
    types = [v.type for v in inits]
    kept = types[:-1]
    before_args = [b.fresh("w") for _ in types]
    before = _Block()
    before.terminator = (f"scf.condition({before_args[-1]})" + (
        f" {', '.join(before_args[:-1])} : {', '.join(map(str, kept))}" if kept else ""))
    body = _Block()
    args = [Value(b.fresh("c"), t) for t in kept]
    for a in args:
        a.block = body
    body.label = ("^bb0(" + ", ".join(f"{a.name}: {a.type}" for a in args) + "):") \
        if args else None
    name = b.fresh("while") if kept else None
    results = _result_values(name, kept) if kept else []
    head = ((f"{name}{':' + str(len(kept)) if len(kept) > 1 else ''} = " if kept else "") +
            "scf.while (" + ", ".join(f"{a} = {v}" for a, v in zip(before_args, inits)) +
            f") : ({', '.join(map(str, types))}) -> ({', '.join(map(str, kept))})")
    op = b.emit(head, regions=[before, body], terminator=None)
    op.separator = "} do {"
    loop = WhileLoop(args, results, types)
    yield from _carried_body(b, body, loop, "a pm.while_loop needs "
                             "loop.next(values..., flag) in its body")
    body.terminator = loop.yielded


# --- Generic ops ------------------------------------------------------------

def op(name: str, operands: Sequence[Union["Value", int, float]] = (),
       results: Sequence[T.Type] = (), attributes: Optional[str] = None,
       properties: Optional[str] = None) -> Union[None, "Value", Tuple["Value", ...]]:
    """Any MLIR op in generic form, for what the builder does not wrap:
    `pm.op("nvvm.fence.proxy", attributes='{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}')`.
    Returns None, one Value or a tuple of Values."""
    b = _current()
    operands = [as_value(o) for o in operands]
    names = [b.fresh() for _ in results]
    lhs = (", ".join(names) + " = ") if names else ""
    props = f" <{properties}>" if properties else ""
    attrs = f" {attributes}" if attributes else ""
    sig = f"({', '.join(str(o.type) for o in operands)}) -> ({', '.join(str(t) for t in results)})"
    b.emit(f"{lhs}{_quote(name)}({', '.join(map(str, operands))}){props}{attrs} : {sig}")
    values = tuple(Value(n, t) for n, t in zip(names, results))
    if not values:
        return None
    return values[0] if len(values) == 1 else values


# --- The pipeline dialect -----------------------------------------------------

# The builder prints every pipeline op with the op's own syntax, read from
# its ODS declaration (scripts/gen-python.py writes _generated.OPS from
# PipelineOps.td): a new op or a changed syntax needs no change here.
_FORMAT_TOKEN = re.compile(
    r"`[^`]*`|\$\w+\^?|attr-dict|qualified\(type\(\$\w+\)\)\^?|type\(\$\w+\)\^?|\(|\)\?")


def _is_given(value):
    if isinstance(value, (list, tuple)):
        return len(value) > 0
    return value is not None and value is not False


def _format_value(value):
    if isinstance(value, (list, tuple)):
        return ", ".join(_format_value(v) for v in value)
    if value is True:  # a unit attribute: its keyword says it
        return ""
    return str(value)


def _format_type(value):
    if isinstance(value, (list, tuple)):
        return ", ".join(_format_type(v) for v in value)
    return str(getattr(value, "type", value))


def _ods_syntax(name, values, result_types=()):
    """`name` and its operands, attributes and types in the op's declared
    syntax. `values` maps the ODS names of operands and attributes (and of
    a scoped op's region argument) to Values, numbers, types or True for
    unit attributes; None leaves an optional one out."""
    spec = _generated.OPS.get(name)
    if spec is None:
        raise BuildError(f"{name} is not an op of the pipeline dialect")
    tokens = _FORMAT_TOKEN.findall(spec["format"])
    named = {t.lstrip("$").rstrip("^") for t in tokens if t.startswith("$")}
    for key in values:
        if key not in named:
            raise BuildError(f"{name} has no operand or attribute '{key}' (it has "
                             f"{', '.join(sorted(named))})")
    for arg, kind in spec["arguments"].items():
        if kind in ("operand", "attr") and not _is_given(values.get(arg)):
            raise BuildError(f"{name} needs '{arg}'")
    types = dict(values)
    types.update(zip(spec["results"], result_types))
    out, stack = [name], []
    for token in tokens:
        if token == "(":
            stack.append(out)
            out = []
        elif token == ")?":
            group, out = out, stack.pop()
            if group and group[0] is not None:
                out.extend(group[1:])
        elif token == "attr-dict":
            continue
        elif token.startswith("`"):
            out.append(token.strip("`"))
        elif token.startswith("$"):
            key = token[1:].rstrip("^")
            if token.endswith("^"):
                if not _is_given(values.get(key)):
                    out.insert(0, None)  # the group is left out
                    continue
                out.insert(0, "anchor")
            text = _format_value(values.get(key))
            if text:
                out.append(text)
        else:  # type($x) or qualified(type($x)), an anchor with ^
            key = re.search(r"\$(\w+)", token).group(1)
            if token.endswith("^"):
                if not _is_given(types.get(key)):
                    out.insert(0, None)
                    continue
                out.insert(0, "anchor")
            out.append(_format_type(types.get(key)))
    # Spaced as MLIR prints it: none before ( [ ) ] , and none after ( [.
    text = ""
    for piece in out:
        if text and not (piece[0] in "([)]," or text[-1] in "(["):
            text += " "
        text += piece
    return text


def _as_typed(x, ty, what):
    """`x` as a value of the integer or index type `ty`: a number becomes a
    constant, an index value an iN one and back (arith.index_cast); any
    other type is refused, naming it."""
    if isinstance(x, Value):
        if x.type == ty:
            return x
        kinds = {getattr(x.type, "kind", None), ty.kind}
        if kinds == {"index", "int"} and T.i1 not in (x.type, ty):
            return x.cast(ty)
        raise BuildError(f"{what} is {ty}, got {_describe(x)}" +
                         (f": convert it with .cast(pm.{ty})"
                          if isinstance(x.type, T.ScalarType) else ""))
    if isinstance(x, (numbers.Real, bool)):
        return as_value(x, ty)
    raise BuildError(f"{what} is {ty}: expects a kernel value or a Python number, "
                     f"got {type(x).__name__}")


def _coerce_operands(name, values):
    """The operands of op `name` whose declared type is one builtin integer
    or index type (_generated.OPS[name]["types"]) converted to it."""
    declared = _generated.OPS.get(name, {}).get("types", {})
    for key, text in declared.items():
        given = values.get(key)
        ty = getattr(T, text, None)
        if given is None or given is False or ty is None:
            continue
        what = f"{name} operand '{key}'"
        if isinstance(given, (list, tuple)):
            values[key] = [v if isinstance(v, str) else _as_typed(v, ty, what)
                           for v in given]
        elif not isinstance(given, str):
            values[key] = _as_typed(given, ty, what)
    return values


def _pipeline_op(name, results=(), **values):
    """Emits pipeline op `name` (see _ods_syntax); `results` are
    (hint, type) pairs. Returns the result names. Operands of a declared
    integer or index type are converted to it (numbers, index <-> iN)."""
    b = _current()
    values = _coerce_operands(name, values)
    names = [b.fresh(hint) for hint, _ in results]
    text = _ods_syntax(name, values, [t for _, t in results])
    b.emit((", ".join(names) + " = " if names else "") + text)
    return names


def pipeline_op(name: str, result_types: Sequence[T.Type] = (),
                **values: Any) -> Union[None, "Value", Tuple["Value", ...]]:
    """Emits any op of the pipeline dialect in its declared syntax, by the
    ODS names of its operands and attributes: the ops without a method
    here (pipeline.wait_producer, pipeline.commit_mma, ... and any op added
    to the dialect later) are built with it. Returns the result Value, a
    tuple of them, or None.

        pm.pipeline_op("pipeline.commit_mma", stage=s, elect=lane0)
        slot = pm.pipeline_op("pipeline.producer_stage", [pm.index], pipeline=p)
    """
    names = _pipeline_op(name, [("v", t) for t in result_types], **values)
    out = tuple(Value(n, t) for n, t in zip(names, result_types))
    return None if not out else out[0] if len(out) == 1 else out

class Stage(Value):
    """A linear stage handle: release it exactly once on every path."""

    def __init__(self, name, type, pipeline):
        super().__init__(name, type)
        self.pipeline = pipeline

    @property
    def index(self):
        """The stage's slot in the ring (pipeline.index)."""
        name, = _pipeline_op("pipeline.index", [("slot", T.index)], stage=self)
        return Value(name, T.index)

    def arrive(self):
        _pipeline_op("pipeline.arrive", stage=self)

    def release(self):
        _pipeline_op("pipeline.release", stage=self)

    def expect_tx(self, nbytes=None):
        """pipeline.expect_tx: the stage's payload bytes by default."""
        _pipeline_op("pipeline.expect_tx", stage=self,
                     bytes=None if nbytes is None else as_value(nbytes))

    def mbar(self):
        """(barrier group, barrier id) of the stage's full/empty barrier."""
        pt = self.pipeline.pipeline_type
        n = pt.stages * (pt.producer_sub_stages + pt.consumer_sub_stages)
        group_type = T.MbarGroupType(n)
        group, ident = _pipeline_op("pipeline.mbar", [("bars", group_type), ("id", T.index)],
                                    stage=self)
        return Value(group, group_type), Value(ident, T.index)

    def payload(self, i=0):
        """The stage's slice of payload buffer `i` of a tile pipeline."""
        tp = self.pipeline.type
        if not isinstance(tp, T.TilePipelineType):
            raise BuildError("payload needs a tile pipeline stage")
        full = tp.payload[i]
        t = _strided(full.shape[1:], full.element, full.space, _strides(full)[1:])
        name, = _pipeline_op("pipeline.payload", [("v", t)], stage=self, array=i)
        return Value(name, t)


class Pipeline(Value):
    """A pipeline (or tile pipeline) value."""

    def __init__(self, name, type, pipeline_type):
        super().__init__(name, type)
        self.pipeline_type = pipeline_type

    def init(self, producer, consumer, cluster=False):
        """pipeline.init_mbars: arrivals per phase on full and empty barriers.
        `cluster`: the CTAs of a cluster arrive on each other's barriers (a
        cluster-wide init, made visible to the peers before any use)."""
        _pipeline_op("pipeline.init_mbars", pipeline=self, producer_arrive_count=producer,
                     consumer_arrive_count=consumer, cluster=cluster or None)

    @property
    def smem_bytes(self):
        name, = _pipeline_op("pipeline.smem_bytes", [("v", T.index)],
                             pipeline_type=self.pipeline_type)
        return Value(name, T.index)

    def _region(self, keyword, role):
        b = _current()
        name = b.fresh("stage")
        body = _Block()
        b.emit(_ods_syntax(f"pipeline.{keyword}", {"pipeline": self, "stage": name}),
               regions=[body], terminator=_ods_syntax("pipeline.yield", {}))
        b.push(body)
        # Created with the region's block current: usable only inside it.
        return Stage(name, T.StageType(role, self.type), self), body

    @contextlib.contextmanager
    def produce(self):
        """pipeline.produce: acquire a producer stage, release it on exit."""
        stage, _ = self._region("produce", "producer")
        try:
            yield stage
        finally:
            _current().blocks.pop()

    @contextlib.contextmanager
    def consume(self):
        """pipeline.consume: acquire a consumer stage, release it on exit."""
        stage, _ = self._region("consume", "consumer")
        try:
            yield stage
        finally:
            _current().blocks.pop()

    def acquire_producer(self):
        t = T.StageType("producer", self.type)
        name, = _pipeline_op("pipeline.acquire_producer", [("stage", t)], pipeline=self)
        return Stage(name, t, self)

    def acquire_consumer(self):
        t = T.StageType("consumer", self.type)
        name, = _pipeline_op("pipeline.acquire_consumer", [("stage", t)], pipeline=self)
        return Stage(name, t, self)

    def drain_producer(self):
        """Wait until consumers freed every stage (before a producer exits)."""
        _pipeline_op("pipeline.drain_producer", pipeline=self)


def pipeline(buffer: "Value", offset: Union["Value", int] = 0, stages: int = 2,
             **params: Any) -> "Pipeline":
    """pipeline.create: a pipeline whose barriers live in `buffer` (shared
    memory) at byte `offset`. Parameters as in !pipeline.pipeline<...>."""
    t = T.PipelineType(stages, **params)
    off = as_value(offset)
    name, = _pipeline_op("pipeline.create", [("p", t)], storage=buffer, offset=off)
    return Pipeline(name, t, t)


def tile_pipeline(p: "Pipeline", payload: Sequence["Value"],
                  k_group_size: int = 1) -> "Pipeline":
    """pipeline.input_tile_pipeline: `p` with payload buffers (shared memory
    memrefs of shape [stages, k_group_size, ...])."""
    payload = list(payload) if isinstance(payload, (list, tuple)) else [payload]
    t = T.TilePipelineType(p.type, k_group_size, [v.type for v in payload])
    name, = _pipeline_op("pipeline.input_tile_pipeline", [("tp", t)], pipeline=p,
                         payload=payload)
    return Pipeline(name, t, p.pipeline_type)


# --- TMA -------------------------------------------------------------------------

def tma_prefetch(desc: "Value") -> None:
    _current().op(f"nvgpu.tma.prefetch.descriptor {desc} : {desc.type}")


def tma_load(desc: "Value", coords: Sequence[Union["Value", int]],
             barriers: Tuple["Value", "Value"], dst: "Value",
             multicast: Union["Value", int, None] = None) -> None:
    """nvgpu.tma.async.load of the box at `coords` (innermost first) into
    `dst`, completing on `barriers` = stage.mbar(). The coordinates are
    index values (nvgpu's); numbers and integer values of another type (the
    i32 coordinates of pipeline.tma_load) are converted. `multicast`: a
    mask (i16, bit r = cluster rank r) of the CTAs of the cluster whose
    shared memory (same offset) and barrier receive the box too."""
    group, ident = barriers
    cs = ", ".join(str(_as_typed(c, T.index, "pm.tma_load coordinate")) for c in coords)
    mask = ""
    if multicast is not None:
        if isinstance(multicast, numbers.Integral) and not 0 < multicast < (1 << 16):
            raise BuildError(f"pm.tma_load: a multicast mask is 1 to 0xffff, got {multicast}")
        mask = f" multicast_mask = {_as_typed(multicast, T.i16, 'pm.tma_load multicast')}"
    _current().op(f"nvgpu.tma.async.load {desc}[{cs}], {group}[{ident}] to {dst}{mask} : "
                  f"{desc.type}, {group.type} -> {dst.type}")


# --- Kernels and modules ------------------------------------------------------------

class Kernel:
    """A kernel built from a Python function (see @kernel)."""

    def __init__(self, fn, name=None, block=None, cluster=None, min_ctas=None):
        self.fn = fn
        self.name = name or fn.__name__
        if min_ctas is not None and (isinstance(min_ctas, bool) or not isinstance(
                min_ctas, int) or min_ctas < 1):
            raise BuildError(f"kernel {self.name}: min_ctas is a positive integer, "
                             f"got {min_ctas!r}")
        self.min_ctas = min_ctas
        self.block = self._dims(block, "block", 1024)
        # A cluster holds at most 8 CTAs portably (16 with the non-portable
        # size an sm_90 launch can opt into).
        self.cluster = self._dims(cluster, "cluster", 16)
        try:
            sig = inspect.signature(fn, eval_str=True)
        except Exception as e:  # an annotation that does not evaluate
            raise BuildError(f"kernel {fn.__name__}: cannot evaluate its annotations: {e}") \
                from None
        self.params = []
        for p in sig.parameters.values():
            if p.annotation is inspect.Parameter.empty or not isinstance(p.annotation, T.Type):
                raise BuildError(f"kernel {self.name}: parameter {p.name!r} needs a type "
                                 "annotation such as pm.memref((1024,), pm.i32)")
            self.params.append((p.name, p.annotation))
        code = fn.__code__
        self.loc = (os.path.abspath(code.co_filename), code.co_firstlineno, 1)
        self._text = None
        functools.update_wrapper(self, fn)

    def _dims(self, value, what, most):
        """A block or cluster size given as an int or 1 to 3 ints: (x, y, z)."""
        if value is None:
            return None
        dims = (value,) if isinstance(value, int) else tuple(value) \
            if isinstance(value, (tuple, list)) else None
        if dims is None or not 1 <= len(dims) <= 3 or any(
                isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in dims):
            raise BuildError(f"kernel {self.name}: {what} is 1 to 3 positive integers, "
                             f"got {value!r}")
        dims = dims + (1,) * (3 - len(dims))
        if dims[0] * dims[1] * dims[2] > most:
            raise BuildError(f"kernel {self.name}: a {what} has at most {most} "
                             f"{'threads' if what == 'block' else 'CTAs'}, got {dims}")
        return dims

    def _build(self):
        b = _Builder(self)
        b.const_count = 0
        entry = _Block()
        b.blocks.append(entry)
        args = []
        for i, (name, t) in enumerate(self.params):
            args.append(Value(f"%arg.{name}", t))
        prev = getattr(_state, "builder", None)
        _state.builder = b
        try:
            self.fn(*args)
            b.emit("gpu.return", loc=self.loc)
        except BuildError as error:
            _locate(error)
            raise
        finally:
            _state.builder = prev
        _check_if_results(entry)
        return b, entry

    def mlir(self, locations=True):
        """The kernel's gpu.func as MLIR text."""
        b, entry = self._build()
        params = ", ".join(f"%arg.{n}: {t}" for n, t in self.params)
        declared = []
        if self.block:
            declared.append(f"nvvm.reqntid = array<i32: {', '.join(map(str, self.block))}>")
        if self.cluster:
            declared.append(f"nvvm.cluster_dim = array<i32: {', '.join(map(str, self.cluster))}>")
        if self.min_ctas:
            declared.append(f"nvvm.minctasm = {self.min_ctas} : i32")
        attrs = f" attributes {{{', '.join(declared)}}}" if declared else ""
        lines = [f"gpu.func @{self.name}({params}) kernel{attrs} {{" +
                 (f"  //{_loc_text(self.loc)}" if locations else "")]
        _print_block(entry, lines, 1, locations, header=False)
        lines.append("}" + (_loc_text(self.loc) if locations else ""))
        return "\n".join(lines)


def _check_if_results(block):
    """A pm.if_ with results has an else branch (scf.if needs one)."""
    for op in block.ops:
        if getattr(op, "needs_else", False) and len(op.regions) < 2:
            file, line, _ = op.loc
            raise BuildError(f"{file}:{line}: a pm.if_ with results needs an else branch "
                             "(`with branch.else_(): branch.yield_(...)`)")
        for region in op.regions:
            _check_if_results(region)


def _loc_text(loc):
    file, line, col = loc
    return f" loc({_quote(file)}:{line}:{col})"


def _print_block(block, lines, depth, locations, header=True, terminator=None,
                 terminator_loc=""):
    pad = "  " * depth
    if getattr(block, "label", None):  # a block with arguments (scf.while's body)
        lines.append("  " * (depth - 1) + block.label)
    for op in block.ops:
        loc = _loc_text(op.loc) if locations else ""
        if not op.regions:
            lines.append(pad + op.text + loc)
            continue
        # The header's own line names the op's location too (a comment: the
        # real location follows the closing brace), so that a diagnostic
        # reported at the generated header line maps back to the user.
        lines.append(pad + op.text + " {" + (f"  //{loc}" if loc else ""))
        for i, region in enumerate(op.regions):
            rloc = loc
            if i:
                rloc = _loc_text(region.loc) if locations and getattr(region, "loc", None) \
                    else loc
                head = "} else {" if getattr(op, "is_if", False) else \
                    getattr(op, "separator", "}, {")
                lines.append(pad + head + (f"  //{rloc}" if rloc else ""))
            _print_block(region, lines, depth + 1, locations,
                         terminator=getattr(region, "terminator", None) or op.terminator,
                         terminator_loc=rloc)
        lines.append(pad + "}" + op.tail + loc)
    if terminator:
        lines.append(pad + terminator + terminator_loc)


def kernel(fn: Optional[Callable[..., Any]] = None, *, name: Optional[str] = None,
           block: Union[int, Sequence[int], None] = None,
           cluster: Union[int, Sequence[int], None] = None,
           min_ctas: Optional[int] = None) -> Any:
    """Decorator: `@pm.kernel def k(a: pm.memref((n,), pm.f32)): ...`.
    `block=(x, y, z)` (or an int) declares the block size the kernel needs
    (its warp roles): the compiled kernel requires it (`.reqntid`) and a
    launch with another block is refused before it reaches the GPU.
    `cluster=(x, y, z)` declares its cluster shape (`nvvm.cluster_dim`: the
    CTAs its multicast and remote arrivals assume; `.reqnctapercluster`),
    and a launch with another cluster, or none, is refused the same way.
    `min_ctas=n` asks ptxas to fit n CTAs on an SM (`nvvm.minctasm`,
    `.minnctapersm`: it bounds the registers per thread)."""
    if fn is None:
        return lambda f: Kernel(f, name, block, cluster, min_ctas)
    return Kernel(fn, name, block, cluster, min_ctas)


class Module:
    """A gpu.module of kernels (built with @kernel) or a module given as
    MLIR text (Module.from_mlir)."""

    def __init__(self, kernels, name=None):
        kernels = list(kernels) if isinstance(kernels, (list, tuple)) else [kernels]
        if not kernels:
            raise BuildError("a module needs at least one kernel")
        self.kernels = {}
        for k in kernels:
            if k.name in self.kernels:
                raise BuildError(f"two kernels named {k.name!r} in one module")
            self.kernels[k.name] = k
        self.name = name or kernels[0].name
        self._source = None

    @classmethod
    def from_mlir(cls, text: str, name: str = "module") -> "Module":
        m = cls.__new__(cls)
        m.kernels = {}
        m.name = name
        m._source = text
        return m

    def signatures(self):
        """{kernel name: [(param name, Type)]}."""
        if self._source is None:
            return {k: list(kern.params) for k, kern in self.kernels.items()}
        return parse_signatures(self._source)

    def mlir(self, locations=True):
        if self._source is not None:
            return self._source
        body = []
        for k in self.kernels.values():
            body.extend("    " + line for line in k.mlir(locations).split("\n"))
        return ("module attributes {gpu.container_module} {\n"
                f"  gpu.module @{self.name} {{\n" + "\n".join(body) + "\n  }\n}\n")


def _split_top(text, sep=","):
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == sep and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        cur += ch
    if cur.strip():
        parts.append(cur)
    return parts


def parse_signatures(text):
    """Kernel signatures of MLIR text: {name: [(arg, Type)]}, resolving
    top-level type aliases. Functions without `kernel` are skipped."""
    import re
    aliases = dict(re.findall(r"^\s*(![\w.$-]+)\s*=\s*(.+?)\s*$", text, re.M))
    sigs = {}
    for m in re.finditer(r"gpu\.func\s+@([\w$.-]+)\s*\(", text):
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += text[i] == "("
            depth -= text[i] == ")"
            i += 1
        args = text[m.end():i - 1]
        rest = text[i:i + 400]
        # `kernel` follows the arguments, possibly after attributions.
        header = re.match(r"\s*((?:(?:workgroup|private)\s*\([^)]*\)\s*)*)kernel\b", rest)
        if not header:
            continue
        params = []
        for a in _split_top(args):
            name, _, ty = a.partition(":")
            ty = re.sub(r"\s*\{.*\}$", "", ty.strip(), flags=re.S)
            ty = re.sub(r"\s*loc\(.*\)$", "", ty)
            for _ in (0, 1, 2):
                for k, v in aliases.items():
                    ty = re.sub(re.escape(k) + r"(?![\w.$-])", v, ty)
            params.append((name.strip().lstrip("%"), T.parse_type(ty)))
        sigs[m.group(1)] = params
    return sigs
