"""NVIDIA operations shared by Hopper and Blackwell kernels, as builder calls.

Each function appends one NVVM/LLVM op (or a short fixed sequence) to the
kernel being built, through the builder's one printer (`pm.op`). Attribute
spellings of the NVVM dialect are written here once; kernels never spell
them.
"""

from __future__ import annotations

from typing import Sequence, Union

from .. import ir
from .. import types as T
from ..errors import BuildError

Number = Union["ir.Value", int, float]

#: LLVM pointer types by address space.
PTR = T.OpaqueType("!llvm.ptr")
PTR_GLOBAL = T.OpaqueType("!llvm.ptr<1>")
PTR_SHARED = T.OpaqueType("!llvm.ptr<3>")
V2F32 = T.OpaqueType("vector<2xf32>")
V2BF16 = T.OpaqueType("vector<2xbf16>")


def _i32(x: Number) -> "ir.Value":
    return ir.as_value(x, T.i32) if not isinstance(x, ir.Value) else (
        x if x.type == T.i32 else x.cast(T.i32))


# --- Registers, barriers, fences ---------------------------------------------

def setmaxnreg(action: str, count: int) -> None:
    """setmaxnreg.inc/.dec: `action` is "increase" or "decrease"; `count` a
    multiple of 8 in 24..256 (the warpgroup's registers per thread)."""
    if action not in ("increase", "decrease"):
        raise BuildError(f"setmaxnreg: action is increase or decrease, got {action!r}")
    if not (24 <= count <= 256 and count % 8 == 0):
        raise BuildError(f"setmaxnreg: the count is a multiple of 8 in 24..256, got {count}")
    ir.op("nvvm.setmaxregister",
          properties=f"{{action = #nvvm<action {action}>, regCount = {count} : i32}}")


def named_barrier(bar_id: Number, threads: int) -> None:
    """bar.sync bar_id, threads: the first `threads` threads to arrive on the
    named barrier `bar_id` (1..15; 0 is __syncthreads) wait for each other."""
    if threads % 32:
        raise BuildError(f"named_barrier: the thread count is a multiple of 32, got {threads}")
    ir.op("nvvm.barrier", [_i32(bar_id), ir.constant(threads, T.i32)],
          properties="{operandSegmentSizes = array<i32: 1, 1, 0>}")


def fence_proxy_async_shared() -> None:
    """fence.proxy.async.shared::cta: generic-proxy writes to shared memory
    (st.shared, stmatrix) become visible to the async proxy (TMA, wgmma,
    tcgen05) of this CTA."""
    ir.op("nvvm.fence.proxy",
          properties="{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}")


def elect_sync() -> "ir.Value":
    """elect.sync: true in one lane of the warp."""
    return ir.op("nvvm.elect.sync", [], [T.i1])


def warp_sync(mask: int = -1) -> None:
    ir.op("nvvm.bar.warp.sync", [ir.constant(mask, T.i32)])


def cluster_ctarank() -> "ir.Value":
    """%cluster_ctarank as an index."""
    return ir.op("nvvm.read.ptx.sreg.cluster.ctarank", [], [T.i32]).cast(T.index)


def cluster_ctarank_i32() -> "ir.Value":
    """%cluster_ctarank as an i32."""
    return ir.op("nvvm.read.ptx.sreg.cluster.ctarank", [], [T.i32])


# --- Warp data movement --------------------------------------------------------

def shfl_xor(x: "ir.Value", offset: int, mask: int = -1) -> "ir.Value":
    """shfl.sync.bfly: x of the lane `lane ^ offset` (f32 or i32)."""
    return ir.op("nvvm.shfl.sync", [ir.constant(mask, T.i32), x, ir.constant(offset, T.i32),
                                    ir.constant(31, T.i32)], [x.type],
                 properties="{kind = #nvvm<shfl_kind bfly>}")


def pack_bf16x2(lo: "ir.Value", hi: "ir.Value") -> "ir.Value":
    """Two f32 rounded to bf16 (round to nearest even) in one i32: `lo` in
    bits 0-15 (cvt.rn.bf16x2.f32)."""
    v = ir.op("vector.from_elements", [lo, hi], [V2F32])
    return ir.op("llvm.bitcast", [ir.op("arith.truncf", [v], [V2BF16])], [T.i32])


# --- Scalar math (what the builder's operators do not spell) --------------------

def select(cond: "ir.Value", a: "ir.Value", b: Number) -> "ir.Value":
    """cond ? a : b (arith.select; `b` may be a number of a's type)."""
    return ir.op("arith.select", [cond, a, ir.as_value(b, a.type)], [a.type])


def minui(a: "ir.Value", b: Number) -> "ir.Value":
    """The unsigned minimum of two integers (index or iN)."""
    return ir.op("arith.minui", [a, ir.as_value(b, a.type)], [a.type])


def maxui(a: "ir.Value", b: Number) -> "ir.Value":
    """The unsigned maximum of two integers (index or iN)."""
    return ir.op("arith.maxui", [a, ir.as_value(b, a.type)], [a.type])


def divui(a: "ir.Value", b: Number) -> "ir.Value":
    """a / b, unsigned (arith.divui; the `//` operator divides signed)."""
    return ir.op("arith.divui", [a, ir.as_value(b, a.type)], [a.type])


def remui(a: "ir.Value", b: Number) -> "ir.Value":
    """a mod b, unsigned (arith.remui; the `%` operator is signed)."""
    return ir.op("arith.remui", [a, ir.as_value(b, a.type)], [a.type])


def shrui(a: "ir.Value", b: Number) -> "ir.Value":
    """a >> b, logical (arith.shrui; `>>` on iN is arithmetic)."""
    return ir.op("arith.shrui", [a, ir.as_value(b, a.type)], [a.type])


def ceildivui(a: "ir.Value", b: Number) -> "ir.Value":
    """ceil(a / b), unsigned (arith.ceildivui)."""
    return ir.op("arith.ceildivui", [a, ir.as_value(b, a.type)], [a.type])


def maxnum(a: "ir.Value", b: "ir.Value") -> "ir.Value":
    """max of two f32 (llvm.intr.maxnum: max.f32, a NaN operand ignored)."""
    return ir.op("llvm.intr.maxnum", [a, b], [a.type])


def negf(x: "ir.Value") -> "ir.Value":
    """-x (arith.negf)."""
    return ir.op("arith.negf", [x], [x.type])


def fma(a: "ir.Value", b: Number, c: Number) -> "ir.Value":
    """a * b + c rounded once (math.fma: fma.rn.f32)."""
    return ir.op("math.fma", [a, ir.as_value(b, a.type), ir.as_value(c, a.type)], [a.type])


def _intrinsic_f32(name: str, x: "ir.Value") -> "ir.Value":
    return ir.op("llvm.call_intrinsic", [x], [T.f32], properties=(
        f"{{intrin = {ir._quote(name)}, op_bundle_sizes = array<i32>, "
        "operandSegmentSizes = array<i32: 1, 0>}"))


def ex2_approx(x: "ir.Value") -> "ir.Value":
    """2^x of an f32, ex2.approx.ftz.f32 (subnormals flushed; 2^-inf = 0):
    the softmax's exponential with log2(e) folded into the scale."""
    return _intrinsic_f32("llvm.nvvm.ex2.approx.ftz.f", x)


def lg2_approx(x: "ir.Value") -> "ir.Value":
    """log2(x) of an f32, lg2.approx.f32."""
    return _intrinsic_f32("llvm.nvvm.lg2.approx.f", x)


# --- Addresses -----------------------------------------------------------------

def smem_address(tile: "ir.Value") -> "ir.Value":
    """The shared-memory byte address (index) of the first element of a
    memref in shared memory, with its offset (a stage's payload slice)."""
    t = tile.type
    if not isinstance(t, T.MemRefType):
        raise BuildError(f"smem_address needs a shared-memory memref, got {t}")
    rank = t.rank
    base_t = T.OpaqueType(f"memref<{t.element}, #gpu.address_space<workgroup>>")
    results = ir.op("memref.extract_strided_metadata", [tile],
                    [base_t] + [T.index] * (1 + 2 * rank))
    base, offset = results[0], results[1]
    ptr = ir.op("memref.extract_aligned_pointer_as_index", [base], [T.index])
    return ptr + offset * t.element.nbytes


def smem_ptr(addr: "ir.Value") -> "ir.Value":
    """An index shared-memory byte address as an !llvm.ptr<3>."""
    return ir.op("llvm.inttoptr", [addr.cast(T.i64)], [PTR_SHARED])


def global_ptr(addr: "ir.Value") -> "ir.Value":
    """An i64 (or index) global address as an !llvm.ptr<1>."""
    return ir.op("llvm.inttoptr", [addr.cast(T.i64)], [PTR_GLOBAL])


def gep(ptr: "ir.Value", index: Union["ir.Value", int], element: T.Type) -> "ir.Value":
    """&ptr[index] for `element`-typed memory (llvm.getelementptr)."""
    if isinstance(index, int):
        return ir.op("llvm.getelementptr", [ptr], [ptr.type], properties=(
            f"{{elem_type = {element}, noWrapFlags = 0 : i32, rawConstantIndices = "
            f"array<i32: {index}>}}"))
    return ir.op("llvm.getelementptr", [ptr, index.cast(T.i64)], [ptr.type], properties=(
        f"{{elem_type = {element}, noWrapFlags = 0 : i32, rawConstantIndices = "
        f"array<i32: -2147483648>}}"))


def ptr_address(ptr: "ir.Value") -> "ir.Value":
    """The address an !llvm.ptr holds, as an i64 (llvm.ptrtoint)."""
    return ir.op("llvm.ptrtoint", [ptr], [T.i64])


def load(ptr: "ir.Value", element: T.Type) -> "ir.Value":
    return ir.op("llvm.load", [ptr], [element], properties="{ordering = 0 : i64}")


def store(value: "ir.Value", ptr: "ir.Value", alignment: int = 0) -> None:
    """llvm.store; `alignment` (bytes) where the address is known to be more
    aligned than the value's type (a vector row: wider stores)."""
    align = f"alignment = {alignment} : i64, " if alignment else ""
    ir.op("llvm.store", [value, ptr], properties=f"{{{align}ordering = 0 : i64}}")


def _asm(text: str, constraints: str, operands: Sequence["ir.Value"], result=None):
    res = [result] if result is not None else []
    return ir.op("llvm.inline_asm", list(operands), res, properties=(
        f"{{asm_string = {ir._quote(text)}, constraints = {ir._quote(constraints)}, "
        "has_side_effects, tail_call_kind = #llvm.tailcallkind<none>}"))


def ld_acquire_gpu(addr: "ir.Value") -> "ir.Value":
    """ld.acquire.gpu.global.b32 at the i64 global address `addr`."""
    return _asm("ld.acquire.gpu.global.b32 $0, [$1];", "=r,l", [addr.cast(T.i64)], T.i32)


def st_release_gpu(addr: "ir.Value", value: Number) -> None:
    """st.release.gpu.global.b32 of `value` at the i64 global address `addr`."""
    _asm("st.release.gpu.global.b32 [$0], $1;", "l,r", [addr.cast(T.i64), _i32(value)])


# --- Bulk copies (TMA) ------------------------------------------------------------

def tma_store(src: "ir.Value", desc: "ir.Value", coords: Sequence[Number]) -> None:
    """nvgpu.tma.async.store of the shared-memory tile `src` to the box of
    tensor map `desc` at `coords` (innermost first; clipped at the edges)."""
    cs = [ir.as_value(c, T.index) for c in coords]
    ir.op("nvgpu.tma.async.store", [src, desc] + cs, properties=(
        f"{{operandSegmentSizes = array<i32: 1, 1, {len(cs)}, 0>}}"))


def tma_reduce_add(desc: "ir.Value", src: "ir.Value", coords: Sequence[Number]) -> None:
    """cp.reduce.async.bulk.tensor .add: adds the shared-memory tile at the
    !llvm.ptr<3> `src` into the box of `desc` at `coords` (innermost first)."""
    desc_ptr = ir.op("builtin.unrealized_conversion_cast", [desc], [PTR])
    cs = [_i32(c) for c in coords]
    ir.op("nvvm.cp.async.bulk.tensor.reduce", [desc_ptr, src] + cs, properties=(
        "{mode = #nvvm.tma_store_mode<tile>, operandSegmentSizes = array<i32: 1, 1, "
        f"{len(cs)}, 0>, redKind = #nvvm.tma_redux_kind<add>}}"))


def tma_store_box(desc: "ir.Value", src: "ir.Value", coords: Sequence[Number]) -> None:
    """cp.async.bulk.tensor.global.shared::cta (tile mode): the box of the
    tensor map at the generic !llvm.ptr `desc` at `coords` (i32, innermost
    first; clipped at the tensor's bounds) from the shared-memory
    !llvm.ptr<3> `src`."""
    cs = [_i32(c) for c in coords]
    ir.op("nvvm.cp.async.bulk.tensor.global.shared.cta", [desc, src] + cs, properties=(
        "{mode = #nvvm.tma_store_mode<tile>, operandSegmentSizes = array<i32: 1, 1, "
        f"{len(cs)}, 0, 0>}}"))


def bulk_commit_group() -> None:
    """cp.async.bulk.commit_group: the bulk stores issued so far form a group."""
    ir.op("nvvm.cp.async.bulk.commit.group")


def bulk_wait_group(pending: int, read: bool = False) -> None:
    """cp.async.bulk.wait_group[.read] `pending`: at most `pending` groups
    still in flight (with `read`: still reading their shared memory)."""
    props = f"{{group = {pending} : i32" + (", read" if read else "") + "}"
    ir.op("nvvm.cp.async.bulk.wait_group", properties=props)


# --- Vectors of registers ----------------------------------------------------------

class VectorType(T.OpaqueType):
    """vector<N x element>: registers of one thread as one value. The
    builder's arithmetic operators and comparisons apply to it element by
    element (a comparison gives a vector of i1, `mask`)."""

    def __init__(self, n: int, element: T.ScalarType):
        super().__init__(f"vector<{n}x{element}>")
        self.n, self.element = n, element
        self.kind, self.bits = element.kind, element.bits

    @property
    def is_float(self) -> bool:
        return self.element.is_float

    @property
    def mask(self) -> "VectorType":
        """The type of an element-wise comparison's result."""
        return VectorType(self.n, T.i1)


def _vector(n: int, element: T.Type) -> T.Type:
    if isinstance(element, T.ScalarType):
        return VectorType(n, element)
    return T.OpaqueType(f"vector<{n}x{element}>")


def vector_length(v: "ir.Value") -> int:
    text = v.type.text
    if not text.startswith("vector<"):
        raise BuildError(f"a vector value is expected, got {v.type}")
    return int(text[len("vector<"):].split("x", 1)[0])


def vector_bitcast(v: "ir.Value", element: T.Type) -> "ir.Value":
    """The bits of a vector as a vector of `element` of the same width
    (arith.bitcast: vector<32xi32> to vector<32xf32>)."""
    return ir.op("arith.bitcast", [v], [_vector(vector_length(v), element)])


def vector_reinterpret(v: "ir.Value", element: T.ScalarType) -> "ir.Value":
    """The bits of a vector as elements of another width (vector.bitcast:
    vector<32xbf16> to vector<16xi32>, bf16 pairs in 32-bit registers,
    the lower-indexed element in the low half)."""
    bits = vector_length(v) * vector_element(v).bits
    if bits % element.bits:
        raise BuildError(f"vector_reinterpret: {v.type} is not whole {element} elements")
    return ir.op("vector.bitcast", [v], [_vector(bits // element.bits, element)])


def vector_truncf(v: "ir.Value", element: T.Type = T.bf16) -> "ir.Value":
    """Each element rounded to `element` (arith.truncf, round to nearest
    even: cvt.rn.bf16x2.f32 pairs)."""
    return ir.op("arith.truncf", [v], [_vector(vector_length(v), element)])


def vector_slice(v: "ir.Value", start: int, count: int) -> "ir.Value":
    """Elements start .. start + count - 1 (vector.shuffle)."""
    n = vector_length(v)
    if not 0 <= start < start + count <= n:
        raise BuildError(f"vector_slice: elements {start}..{start + count - 1} of {n}")
    element = v.type.text[len("vector<"):-1].split("x", 1)[1]
    mask = ", ".join(str(i) for i in range(start, start + count))
    return ir.op("vector.shuffle", [v, v], [T.OpaqueType(f"vector<{count}x{element}>")],
                 properties=f"{{mask = array<i64: {mask}>}}")


def vector_store(v: "ir.Value", memref: "ir.Value", indices: Sequence[Number],
                 alignment: int = 16) -> None:
    """vector.store of `v` at memref[indices] (contiguous along the last
    dimension; `alignment` in bytes)."""
    idx = [ir.as_value(i, T.index) for i in indices]
    ir.op("vector.store", [v, memref] + idx, properties=f"{{alignment = {alignment} : i64}}")


def vector_element(v: "ir.Value") -> T.ScalarType:
    """The element type of a vector value."""
    if isinstance(v.type, VectorType):
        return v.type.element
    vector_length(v)
    return T.SCALARS[v.type.text[len("vector<"):-1].split("x", 1)[1]]


def as_vector(v: "ir.Value") -> "ir.Value":
    """A vector value typed as `VectorType` (a layer's result spelled as an
    opaque vector type), so that the builder's operators apply to it."""
    if isinstance(v.type, VectorType):
        return v
    typed = ir.Value(v.name, VectorType(vector_length(v), vector_element(v)))
    typed.block = v.block
    return typed


def splat(x: "ir.Value", n: int) -> "ir.Value":
    """A vector of `n` copies of the scalar `x` (vector.broadcast)."""
    return ir.op("vector.broadcast", [x], [VectorType(n, x.type)])


def vector_iota(n: int, start: int = 0, element: T.ScalarType = T.i32) -> "ir.Value":
    """The constant vector start, start + 1, .., start + n - 1."""
    t = VectorType(n, element)
    values = ", ".join(str(start + i) for i in range(n))
    return ir.op("arith.constant", [], [t], properties=f"{{value = dense<[{values}]> : {t}}}")


def vector_reduce(v: "ir.Value", kind: str) -> "ir.Value":
    """The elements of `v` combined into one scalar (vector.reduction):
    `kind` is add, mul, maxnumf, minnumf, maximumf, minimumf (floats) or
    add, mul, minui, maxui, minsi, maxsi, and, or, xor (integers)."""
    kinds = ("add", "mul", "maxnumf", "minnumf", "maximumf", "minimumf") \
        if vector_element(v).is_float else \
        ("add", "mul", "minui", "maxui", "minsi", "maxsi", "and", "or", "xor")
    if kind not in kinds:
        raise BuildError(f"vector_reduce of {v.type}: kind is one of {', '.join(kinds)}, "
                         f"got {kind!r}")
    fastmath = "fastmath = #arith.fastmath<none>, " if vector_element(v).is_float else ""
    return ir.op("vector.reduction", [v], [vector_element(v)],
                 properties=f"{{{fastmath}kind = #vector.kind<{kind}>}}")


def vector_concat(a: "ir.Value", b: "ir.Value") -> "ir.Value":
    """The elements of `a` then those of `b` (vector.shuffle)."""
    if a.type != b.type:
        raise BuildError(f"vector_concat of {a.type} and {b.type}")
    n = vector_length(a)
    mask = ", ".join(str(i) for i in range(2 * n))
    return ir.op("vector.shuffle", [a, b], [VectorType(2 * n, vector_element(a))],
                 properties=f"{{mask = array<i64: {mask}>}}")


def exp2(x: "ir.Value") -> "ir.Value":
    """2^x of an f32 or a vector of f32 (math.exp2: ex2.approx.f32, 2^-inf
    = 0)."""
    return ir.op("math.exp2", [x], [x.type])


def log2(x: "ir.Value") -> "ir.Value":
    """log2(x) of an f32 or a vector of f32 (math.log2)."""
    return ir.op("math.log2", [x], [x.type])
