"""Blackwell (sm_100a) tensor-core programming as typed builder values.

- `instr_desc(...)` / `Mma`: the 32-bit instruction descriptor of
  tcgen05.mma, derived from the operand and accumulator types, the shape
  and the operands' majors (kinds f16, tf32, f8f6f4, i8), and
  `instr_desc_block_scaled(...)` for the block-scaled kinds (mxf8f6f4,
  mxf4, mxf4nvf4) with their scale-factor ids.
- `SmemDescriptor`: the tcgen05 shared-memory matrix descriptor of a tile,
  from the same `SmemLayout` as Hopper's wgmma descriptor (its own
  format: a version field, a 3-bit layout type).
- `TensorMemory`: an allocation of tensor memory through the pipeline
  dialect (`pipeline.tmem_create` / `tmem_alloc` / `tmem_release` /
  `tmem_dealloc`); `TmemTile`: a region of it (lanes x 32-bit columns)
  as a value that knows its address, lanes and columns, whose `load` /
  `store` pick the tcgen05.ld/st shape and repeat count.
- `mma` / `Mma.issue`, `mma_block_scale`, `commit`, `wait_ld` / `wait_st`,
  `fence_before_thread_sync` / `fence_after_thread_sync`.

The encodings are written here once, from the PTX ISA (tcgen05
"Instruction descriptor", "Shared memory descriptor", "Tensor Memory
addressing", "Matrix fragments for tcgen05.ld/st").
"""

from __future__ import annotations

from typing import Optional, Sequence, Union

from .. import ir
from .. import types as T
from ..errors import BuildError
from .hopper import SmemLayout

Number = Union["ir.Value", int]

PTR_TMEM = T.OpaqueType("!llvm.ptr<6>")


def _i32(x: Number) -> "ir.Value":
    if isinstance(x, ir.Value):
        return x if x.type == T.i32 else x.cast(T.i32)
    return ir.constant(x, T.i32)


def _shrui(x: "ir.Value", bits: int) -> "ir.Value":
    return ir.op("arith.shrui", [x, ir.constant(bits, x.type)], [x.type])


def _type_name(t: Union[T.Type, str]) -> str:
    return (t if isinstance(t, str) else t.text).lower()


# --- Instruction descriptors ------------------------------------------------------

#: Operand formats (bits 7-9 for A, 10-12 for B) by kind.
_FORMATS = {
    "f16": {"f16": 0, "bf16": 1},
    "tf32": {"tf32": 2, "f32": 2},
    "f8f6f4": {"e4m3": 0, "f8e4m3fn": 0, "e5m2": 1, "f8e5m2": 1, "e2m3": 3, "f6e2m3fn": 3,
               "e3m2": 4, "f6e3m2fn": 4, "e2m1": 5, "f4e2m1fn": 5},
    "i8": {"u8": 0, "ui8": 0, "s8": 1, "i8": 1, "si8": 1},
    "mxf8f6f4": {"e4m3": 0, "f8e4m3fn": 0, "e5m2": 1, "f8e5m2": 1, "e2m3": 3, "f6e2m3fn": 3,
                 "e3m2": 4, "f6e3m2fn": 4, "e2m1": 5, "f4e2m1fn": 5},
    "mxf4": {"e2m1": 1, "f4e2m1fn": 1},
    "mxf4nvf4": {"e2m1": 1, "f4e2m1fn": 1},
}
#: Accumulator formats (bits 4-5) by kind.
_D_FORMATS = {"f16": {"f16": 0, "f32": 1}, "tf32": {"f32": 1},
              "f8f6f4": {"f16": 0, "f32": 1}, "i8": {"s32": 2, "i32": 2}}
#: Scale-factor formats of the block-scaled kinds (bit 23).
_SCALE_FORMATS = {"ue4m3": 0, "f8e4m3fn": 0, "ue8m0": 1, "f8e8m0fnu": 1}
_SCALE_KINDS = {"mxf8f6f4": ("ue8m0",), "mxf4": ("ue8m0",), "mxf4nvf4": ("ue8m0", "ue4m3")}
#: K of one MMA (dense) by kind; mxf4nvf4 also has K = 96 (k_size 1).
_K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32, "mxf8f6f4": 32, "mxf4": 64,
      "mxf4nvf4": 64}
#: The formats that may be read MN-major (transpose bits 15, 16).
_MN_MAJOR_OK = {"f16", "bf16", "tf32", "f32", "e4m3", "f8e4m3fn", "e5m2", "f8e5m2",
                "u8", "ui8", "s8", "i8", "si8"}
BLOCK_SCALED_KINDS = ("mxf8f6f4", "mxf4", "mxf4nvf4")


def kind_of(a: Union[T.Type, str]) -> str:
    """The dense tcgen05.mma kind an operand type belongs to."""
    name = _type_name(a)
    for kind in ("f16", "tf32", "f8f6f4", "i8"):
        if name in _FORMATS[kind]:
            return kind
    raise BuildError(f"tcgen05.mma: no kind takes {name} operands")


def _check_shape(m: int, n: int, cta_group: int, kind: str = "f16",
                 b_mn_8bit: bool = False) -> None:
    """M and N of one MMA, from the PTX ISA's shape tables: cta_group 1 M 64
    or 128 (block-scaled kinds: 128), cta_group 2 M 128 or 256; N in steps
    of 8 (cta_group 2: 16) up to 256, kind::i8 N 8, 16, 24 or steps of 16
    (cta_group 2: 32), an 8-bit MN-major B steps of 16 (cta_group 2: 32)."""
    if cta_group not in (1, 2):
        raise BuildError(f"tcgen05.mma: cta_group is 1 or 2, got {cta_group}")
    ms = (128, 256) if cta_group == 2 else (128,) if kind in BLOCK_SCALED_KINDS else (64, 128)
    if m not in ms:
        raise BuildError(f"tcgen05.mma cta_group::{cta_group}: M is {' or '.join(map(str, ms))}"
                         f", got {m}")
    step = 8 * cta_group
    if kind == "i8" or b_mn_8bit:
        step = 16 * cta_group
    small = (8, 16, 24) if kind == "i8" and cta_group == 1 else ()
    if not (n in small or (step <= n <= 256 and n % step == 0)):
        raise BuildError(f"tcgen05.mma kind::{kind} cta_group::{cta_group}"
                         f"{' with an 8-bit MN-major B' if b_mn_8bit else ''}: N is a multiple "
                         f"of {step} in {step}..256{' (or 8, 16, 24)' if small else ''}, "
                         f"got {n}")


def _major_bit(major: str, fmt: str, what: str) -> int:
    if major not in ("K", "MN"):
        raise BuildError(f"tcgen05.mma: the major of {what} is 'K' or 'MN', got {major!r}")
    if major == "MN" and fmt not in _MN_MAJOR_OK:
        raise BuildError(f"tcgen05.mma: {fmt} operands are read K-major only")
    return int(major == "MN")


def instr_desc(m: int, n: int, a: Union[T.Type, str] = T.bf16,
               b: Union[T.Type, str, None] = None, d: Union[T.Type, str] = T.f32, *,
               a_major: str = "K", b_major: str = "K", cta_group: int = 1,
               negate_a: bool = False, negate_b: bool = False, saturate: bool = False,
               kind: Optional[str] = None) -> int:
    """The instruction descriptor of a dense tcgen05.mma (kinds f16, tf32,
    f8f6f4, i8): D (M x N, type `d`) += A (M x K, `a`) B (K x N, `b`).
    M is the whole MMA's (with cta_group 2, across the CTA pair); a
    "K" major operand has K contiguous (A row-major, B given as N x K).

        bits 0-1 sparsity selector, 2 sparsity, 3 saturate, 4-5 D format,
        7-9 A format, 10-12 B format, 13/14 negate A/B, 15/16 A/B MN-major,
        17-22 N >> 3, 24-28 M >> 4, 30-31 max shift (.ws)
    """
    b = a if b is None else b
    kind = kind or kind_of(a)
    if kind not in _D_FORMATS:
        raise BuildError(f"instr_desc: kind {kind!r} is not a dense kind "
                         f"({', '.join(_D_FORMATS)}; block-scaled: instr_desc_block_scaled)")
    fa, fb, fd = _type_name(a), _type_name(b), _type_name(d)
    formats = _FORMATS[kind]
    for name, what in ((fa, "A"), (fb, "B")):
        if name not in formats:
            raise BuildError(f"tcgen05.mma kind::{kind}: {what} of {name} is not supported "
                             f"({', '.join(sorted(formats))})")
    if fd not in _D_FORMATS[kind]:
        raise BuildError(f"tcgen05.mma kind::{kind}: D of {fd} is not supported "
                         f"({', '.join(sorted(_D_FORMATS[kind]))})")
    if saturate and kind != "i8":
        raise BuildError("tcgen05.mma: saturate is for kind::i8")
    if (negate_a or negate_b) and kind == "i8":
        raise BuildError("tcgen05.mma kind::i8: the operands cannot be negated")
    if kind == "f16" and fd == "f16" and "bf16" in (fa, fb):
        raise BuildError("tcgen05.mma kind::f16: an f16 accumulator takes f16 operands only, "
                         "bf16 ones accumulate in f32")
    _check_shape(m, n, cta_group, kind, b_mn_8bit=b_major == "MN" and kind in ("f8f6f4", "i8"))
    return (int(saturate) << 3 | _D_FORMATS[kind][fd] << 4 | formats[fa] << 7 |
            formats[fb] << 10 | int(negate_a) << 13 | int(negate_b) << 14 |
            _major_bit(a_major, fa, "A") << 15 | _major_bit(b_major, fb, "B") << 16 |
            (n >> 3) << 17 | (m >> 4) << 24)


def instr_desc_block_scaled(m: int, n: int, a: Union[T.Type, str], b: Union[T.Type, str, None]
                            = None, *, kind: str = "mxf8f6f4", scale: str = "ue8m0",
                            a_major: str = "K", b_major: str = "K", cta_group: int = 1,
                            a_sf_id: int = 0, b_sf_id: int = 0, negate_a: bool = False,
                            negate_b: bool = False, k96: bool = False) -> int:
    """The instruction descriptor of a block-scaled tcgen05.mma (kinds
    mxf8f6f4, mxf4, mxf4nvf4; D is f32). `a_sf_id` / `b_sf_id` select the
    byte of each 32-bit scale-factor column (bits 30-31 of the scale
    factors' TMEM addresses: see `scale_factor_ids`).

        bits 2 sparsity, 4-5 B scale-factor id, 7-9 A format, 10-12 B
        format, 13/14 negate, 15/16 MN-major, 17-22 N >> 3, 23 scale
        format (0 UE4M3, 1 UE8M0), 24-28 M >> 4, 29-30 A scale-factor id,
        31 K size (mxf4nvf4: 0 K = 64, 1 K = 96)
    """
    b = a if b is None else b
    if kind not in BLOCK_SCALED_KINDS:
        raise BuildError(f"instr_desc_block_scaled: kind is one of "
                         f"{', '.join(BLOCK_SCALED_KINDS)}, got {kind!r}")
    fa, fb, fs = _type_name(a), _type_name(b), scale.lower()
    formats = _FORMATS[kind]
    for name, what in ((fa, "A"), (fb, "B")):
        if name not in formats:
            raise BuildError(f"tcgen05.mma kind::{kind}: {what} of {name} is not supported "
                             f"({', '.join(sorted(formats))})")
    if fs not in _SCALE_FORMATS or _SCALE_FORMATS[fs] not in \
            [_SCALE_FORMATS[s] for s in _SCALE_KINDS[kind]]:
        raise BuildError(f"tcgen05.mma kind::{kind}: scale factors are "
                         f"{' or '.join(_SCALE_KINDS[kind])}, got {scale}")
    ids = (0, 1, 2, 3) if kind == "mxf8f6f4" else (0, 2)
    for sf, what in ((a_sf_id, "a_sf_id"), (b_sf_id, "b_sf_id")):
        if sf not in ids:
            raise BuildError(f"instr_desc_block_scaled kind::{kind}: {what} is "
                             f"{' or '.join(map(str, ids))}, got {sf}")
    if k96:
        # The ISA: "K = 96 is only supported for target architecture sm_103a";
        # it also needs the absolute-LBO descriptor mode and an explicit
        # scale vector size, neither of which this layer emits.
        raise BuildError("instr_desc_block_scaled: K = 96 needs sm_103a, not sm_100a")
    _check_shape(m, n, cta_group, kind)
    return (b_sf_id << 4 | formats[fa] << 7 | formats[fb] << 10 | int(negate_a) << 13 |
            int(negate_b) << 14 | _major_bit(a_major, fa, "A") << 15 |
            _major_bit(b_major, fb, "B") << 16 | (n >> 3) << 17 | _SCALE_FORMATS[fs] << 23 |
            (m >> 4) << 24 | a_sf_id << 29 | int(k96) << 31)


def scale_factor_ids(idesc: "ir.Value", sfa: "ir.Value", sfb: "ir.Value") -> "ir.Value":
    """A block-scaled instruction descriptor (i32, its id fields zero) with
    the scale-factor ids of the TMEM addresses `sfa` / `sfb` (their bits
    30-31) in bits 29-30 and 4-5."""
    a_id = _shrui(_i32(sfa), 30) << 29
    b_id = _shrui(_i32(sfb), 30) << 4
    return _i32(idesc) | a_id | b_id


class Mma:
    """One tcgen05.mma instruction shape: M x N x K, operand and
    accumulator types, majors, cta_group; `idesc` is its instruction
    descriptor, `k` the K of one instruction.

        mma = Mma(256, 256, T.bf16, cta_group=2)
        mma.issue(acc, a_desc, b_desc, accumulate)
    """

    def __init__(self, m: int, n: int, a: Union[T.Type, str] = T.bf16,
                 b: Union[T.Type, str, None] = None, d: Union[T.Type, str] = T.f32, *,
                 a_major: str = "K", b_major: str = "K", cta_group: int = 1,
                 kind: Optional[str] = None):
        self.m, self.n, self.cta_group = m, n, cta_group
        self.kind = kind or kind_of(a)
        self.a_major, self.b_major = a_major, b_major
        self.idesc = instr_desc(m, n, a, b, d, a_major=a_major, b_major=b_major,
                                cta_group=cta_group, kind=self.kind)
        self.k = _K[self.kind]

    @classmethod
    def of(cls, m: int, n: int, a: SmemLayout, b: SmemLayout, d: Union[T.Type, str] = T.f32,
           cta_group: int = 1) -> "Mma":
        """The MMA reading A and B laid out as `a` and `b` in shared memory."""
        return cls(m, n, a.element, b.element, d, a_major=a.major, b_major=b.major,
                   cta_group=cta_group)

    def issue(self, d: Union["TmemTile", "ir.Value"], a: Union["TmemTile", "ir.Value"],
              b: "ir.Value", accumulate: Union["ir.Value", bool]) -> None:
        """tcgen05.mma of this shape (see `mma`)."""
        mma(d, a, b, self.idesc, accumulate, kind=self.kind, cta_group=self.cta_group)


# --- Shared-memory descriptors ------------------------------------------------------

#: Layout type (bits 61-63) by swizzle width in bytes.
_LAYOUT_TYPE = {0: 0, 128: 2, 64: 4, 32: 6}
#: Bits 46-48: the descriptor version, 1 on sm_100.
_VERSION = 1


def smem_desc_bits(layout: SmemLayout, base_offset: int = 0) -> int:
    """The constant bits of the tcgen05 shared-memory descriptor of
    `layout`: leading and stride byte offsets (>> 4, bits 16-29 and
    32-45), version 1 (bits 46-47), base offset (49-51; 0 for atoms
    aligned to their repeat), absolute-LBO mode 0 (bit 52), layout type
    (61-63: 0 none, 1 128B with 32B atoms, 2 128B, 4 64B, 6 32B). The
    start address (>> 4) goes in bits 0-13. Leading and stride offsets
    are those of the wgmma descriptor (`SmemLayout`)."""
    if not 0 <= base_offset <= 7:
        raise BuildError(f"smem_desc_bits: the base offset is 0..7, got {base_offset}")
    wgmma = layout._fixed_bits()
    lbo = (wgmma >> 16) & 0x3FFF
    sbo = (wgmma >> 32) & 0x3FFF
    return (lbo << 16 | sbo << 32 | _VERSION << 46 | base_offset << 49 |
            _LAYOUT_TYPE[layout.swizzle] << 61)


class SmemDescriptor:
    """tcgen05 shared-memory descriptors of a tile laid out as `layout` at
    the shared-memory byte address `addr` (index): the start address
    field (addr >> 4, i32) is computed once; `step(k)` is the descriptor
    (i64) of K step `k` (its bytes at `layout.k_offset(k)`)."""

    def __init__(self, layout: SmemLayout, addr: "ir.Value"):
        self.layout = layout
        self.start = _shrui(addr.cast(T.i32), 4)
        self.bits = smem_desc_bits(layout)

    def step(self, k: Union[int, "ir.Value"] = 0) -> "ir.Value":
        """The descriptor of K step `k` (an int, or an i32 value of steps
        inside one swizzle atom row)."""
        if isinstance(k, int):
            off = self.layout.k_offset(k) >> 4
            start = self.start + off if off else self.start
        else:
            if self.layout.major != "K":
                raise BuildError("SmemDescriptor.step: a dynamic K step needs a K-major tile")
            start = self.start + _i32(k) * ((self.layout.k_offset(1) - self.layout.k_offset(0))
                                            >> 4)
        field = ir.op("arith.extui", [start & 0x3FFF], [T.i64])
        return field | ir.constant(self.bits, T.i64)

    def steps(self, count: Optional[int] = None, first: int = 0):
        count = self.layout.k_steps - first if count is None else count
        return [self.step(k) for k in range(first, first + count)]


# --- Tensor memory -----------------------------------------------------------------

#: Lanes a warp accesses and registers per thread and repeat, by ld/st shape.
_LDST = {"32x32b": (32, 1, 1), "16x64b": (16, 1, 2), "16x128b": (16, 2, 4),
         "16x256b": (16, 4, 8)}
_MAX_NUM = {"32x32b": 128, "16x64b": 128, "16x128b": 64, "16x256b": 32}


def tmem_type(columns: int = 512, cta_group: int = 1) -> T.Type:
    """!pipeline.tmem<columns = C, cta_group = G>."""
    if columns not in (32, 64, 128, 256, 512):
        raise BuildError(f"tensor memory: columns is a power of 2 in 32..512, got {columns}")
    if cta_group not in (1, 2):
        raise BuildError(f"tensor memory: cta_group is 1 or 2, got {cta_group}")
    return T.OpaqueType(f"!pipeline.tmem<columns = {columns}, cta_group = {cta_group}>")


class TensorMemory:
    """A tensor-memory allocation of `columns` 32-bit columns x 128 lanes
    (with cta_group 2, in both CTAs of the pair), managed by the pipeline
    dialect: its deallocation barrier and address slot live in `storage`
    (shared memory) at byte `offset` (`smem_bytes` of them)."""

    LANES = 128

    def __init__(self, storage: "ir.Value", offset: Union["ir.Value", int], columns: int = 512,
                 cta_group: int = 1):
        self.columns, self.cta_group = columns, cta_group
        self.type = tmem_type(columns, cta_group)
        self.value = ir.pipeline_op("pipeline.tmem_create", [self.type], storage=storage,
                                    offset=offset)
        self.base: Optional["ir.Value"] = None

    @property
    def smem_bytes(self) -> "ir.Value":
        """Bytes of shared memory the allocation's barrier and address take."""
        return ir.pipeline_op("pipeline.smem_bytes", [T.index], pipeline_type=self.type)

    def alloc(self, readers: int, warp: Optional[int] = None) -> "TmemTile":
        """pipeline.tmem_alloc: warp `warp` allocates the columns and every
        thread gets the base address; `readers` threads per CTA release it
        (`release`) before `dealloc`. Returns the whole allocation as a
        tile (its address is the base)."""
        self.base = ir.pipeline_op("pipeline.tmem_alloc", [T.i32], tmem=self.value,
                                   readers=readers, warp=warp)
        return self.tile()

    def tile(self, column: int = 0, columns: Optional[int] = None) -> "TmemTile":
        """Columns `column` .. `column + columns - 1` of all 128 lanes."""
        if self.base is None:
            raise BuildError("TensorMemory.tile: alloc() first")
        columns = self.columns - column if columns is None else columns
        if not 0 <= column < column + columns <= self.columns:
            raise BuildError(f"TensorMemory.tile: columns {column}..{column + columns - 1} "
                             f"outside the {self.columns} allocated")
        return TmemTile(self.base, columns).at(column=column)

    def release(self) -> None:
        """pipeline.tmem_release: this thread is done with the columns (on
        its CTA's deallocation barrier and, with cta_group 2, the peer's)."""
        ir.pipeline_op("pipeline.tmem_release", tmem=self.value)

    def dealloc(self) -> None:
        """pipeline.tmem_dealloc: once every reader released, frees the
        columns (the allocating warp)."""
        if self.base is None:
            raise BuildError("TensorMemory.dealloc: alloc() first")
        ir.pipeline_op("pipeline.tmem_dealloc", tmem=self.value, address=self.base)


class TmemTile:
    """A region of tensor memory: `lanes` lanes x `columns` 32-bit columns
    whose first cell has the address `addr` (i32: lane << 16 | column).
    Offsets (`at`) may be ints or i32 values (a stage's columns, a warp's
    lanes); the address arithmetic follows them."""

    def __init__(self, addr: "ir.Value", columns: int, lanes: int = 128):
        if addr.type != T.i32:
            raise BuildError(f"TmemTile: a TMEM address is i32, got {addr.type}")
        self.addr, self.columns, self.lanes = addr, columns, lanes

    def at(self, column: Number = 0, lane: Number = 0, columns: Optional[int] = None,
           lanes: Optional[int] = None) -> "TmemTile":
        """The sub-tile starting `lane` lanes and `column` columns in."""
        addr = self.addr
        if not (isinstance(lane, int) and lane == 0):
            addr = addr + (_i32(lane) << 16 if isinstance(lane, ir.Value)
                           else ir.constant(lane << 16, T.i32))
        if not (isinstance(column, int) and column == 0):
            addr = addr + _i32(column)
        return TmemTile(addr, self.columns if columns is None else columns,
                        self.lanes if lanes is None else lanes)

    def warp_lanes(self, quarter: "ir.Value") -> "TmemTile":
        """Lanes 32 quarter .. + 31: what warp w (quarter = w mod 4 of its
        warpgroup) may access with tcgen05.ld/st. `quarter` is an index or
        i32 value."""
        return self.at(lane=_i32(quarter) * 32 if isinstance(quarter, ir.Value) else
                       32 * quarter, lanes=32)

    def ptr(self) -> "ir.Value":
        """The address as tcgen05's !llvm.ptr<6>."""
        return ir.op("llvm.inttoptr", [self.addr], [PTR_TMEM])

    def _check_access(self, shape: str, num: int, column: Number, what: str) -> None:
        """A warp reaches only its own 32 lanes, and a static column range
        must lie inside the tile."""
        if self.lanes > 32:
            raise BuildError(f"tcgen05.{what}: a warp accesses its own 32 lanes; take them "
                             f"with warp_lanes() (this tile has {self.lanes})")
        width = ldst_columns(shape, num)
        if isinstance(column, int) and not 0 <= column <= column + width <= self.columns:
            raise BuildError(f"tcgen05.{what} .{shape}.x{num}: columns {column}.."
                             f"{column + width - 1} outside the tile's {self.columns}")

    def load(self, num: int, shape: str = "32x32b", column: Number = 0) -> "ir.Value":
        """tcgen05.ld.sync.aligned.<shape>.x<num> from `column` columns in:
        the warp's registers (vector<R x i32>, or i32 for one register)."""
        self._check_access(shape, num, column, "ld")
        return ld(self.at(column=column).ptr(), shape, num)

    def store(self, values: "ir.Value", shape: str = "32x32b", column: Number = 0) -> None:
        """tcgen05.st.sync.aligned.<shape>.x<num>: the repeat count follows
        from the registers of `values`."""
        n = _register_count(values.type)
        lanes, regs, _ = _LDST[_shape(shape)]
        if n % regs:
            raise BuildError(f"tcgen05.st .{shape}: {n} registers is not a whole repeat")
        self._check_access(shape, n // regs, column, "st")
        st(self.at(column=column).ptr(), values, shape)


def _shape(shape: str) -> str:
    if shape not in _LDST:
        raise BuildError(f"tcgen05.ld/st: the shape is one of {', '.join(_LDST)}, got {shape!r}")
    return shape


def _register_count(t: T.Type) -> int:
    if t == T.i32:
        return 1
    text = t.text
    if text.startswith("vector<") and text.endswith("xi32>"):
        return int(text[len("vector<"):-len("xi32>")])
    raise BuildError(f"tcgen05.ld/st move i32 registers (i32 or vector<N x i32>), got {t}")


def ldst_registers(shape: str, num: int) -> int:
    """Registers per thread of tcgen05.ld/st .<shape>.x<num>."""
    lanes, regs, _ = _LDST[_shape(shape)]
    if num < 1 or num & (num - 1) or num > _MAX_NUM[shape]:
        raise BuildError(f"tcgen05.ld/st .{shape}: num is a power of 2 up to "
                         f"{_MAX_NUM[shape]}, got {num}")
    return regs * num


def ldst_columns(shape: str, num: int) -> int:
    """Columns of TMEM one tcgen05.ld/st .<shape>.x<num> covers."""
    ldst_registers(shape, num)
    return _LDST[shape][2] * num


def _ldst_type(shape: str, num: int) -> T.Type:
    n = ldst_registers(shape, num)
    return T.i32 if n == 1 else T.OpaqueType(f"vector<{n}xi32>")


def ld(ptr: "ir.Value", shape: str, num: int) -> "ir.Value":
    """tcgen05.ld.sync.aligned.<shape>.x<num>.b32 at the TMEM !llvm.ptr<6>."""
    return ir.op("nvvm.tcgen05.ld", [ptr], [_ldst_type(shape, num)],
                 properties=f"{{shape = #nvvm.tcgen05_ldst_shape<shape_{shape}>}}")


def st(ptr: "ir.Value", values: "ir.Value", shape: str) -> None:
    """tcgen05.st.sync.aligned.<shape>.x<num>.b32 of `values` (i32 or
    vector<N x i32>) at the TMEM !llvm.ptr<6>."""
    _register_count(values.type)
    ir.op("nvvm.tcgen05.st", [ptr, values],
          properties=f"{{shape = #nvvm.tcgen05_ldst_shape<shape_{_shape(shape)}>}}")


def wait_ld() -> None:
    """tcgen05.wait::ld: this thread's tcgen05.ld have completed."""
    ir.op("nvvm.tcgen05.wait", properties="{kind = #nvvm.tcgen05_wait<load>}")


def wait_st() -> None:
    """tcgen05.wait::st: this thread's tcgen05.st have completed."""
    ir.op("nvvm.tcgen05.wait", properties="{kind = #nvvm.tcgen05_wait<store>}")


def fence_before_thread_sync() -> None:
    """tcgen05.fence::before_thread_sync: orders this thread's tcgen05 ops
    before a following barrier arrive / thread sync."""
    ir.op("nvvm.tcgen05.fence", properties="{kind = #nvvm.tcgen05_fence<before>}")


def fence_after_thread_sync() -> None:
    """tcgen05.fence::after_thread_sync: orders this thread's tcgen05 ops
    after a preceding barrier wait / thread sync."""
    ir.op("nvvm.tcgen05.fence", properties="{kind = #nvvm.tcgen05_fence<after>}")


# --- MMA -----------------------------------------------------------------------

def _cta(cta_group: int) -> str:
    if cta_group not in (1, 2):
        raise BuildError(f"tcgen05: cta_group is 1 or 2, got {cta_group}")
    return f"#nvvm.cta_group<cta_{cta_group}>"


def _tmem_ptr(x: Union["TmemTile", "ir.Value"]) -> "ir.Value":
    return x.ptr() if isinstance(x, TmemTile) else x


def _accumulate(x: Union["ir.Value", bool]) -> "ir.Value":
    return ir.constant(bool(x), T.i1) if isinstance(x, bool) else x


def mma(d: Union[TmemTile, "ir.Value"], a: Union[TmemTile, "ir.Value"], b: "ir.Value",
        idesc: Union[int, "ir.Value"], accumulate: Union["ir.Value", bool], *,
        kind: str = "f16", cta_group: int = 1) -> None:
    """tcgen05.mma.cta_group::<cta_group>.kind::<kind>: D (TMEM) = A B
    (+ D where `accumulate`). A is a shared-memory descriptor (i64) or a
    TMEM tile, B a shared-memory descriptor, `idesc` the instruction
    descriptor (`instr_desc` / `Mma`)."""
    if kind not in _D_FORMATS:
        raise BuildError(f"tcgen05.mma: kind is one of {', '.join(_D_FORMATS)}, got {kind!r}")
    ops = [_tmem_ptr(d), _tmem_ptr(a), b, _i32(idesc), _accumulate(accumulate)]
    ir.op("nvvm.tcgen05.mma", ops, properties=(
        f"{{collectorOp = #nvvm.tcgen05_mma_collectorop<discard>, ctaGroup = {_cta(cta_group)}, "
        f"kind = #nvvm.tcgen05_mma_kind<{kind}>, "
        "operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0>}"))


def mma_block_scale(d: Union[TmemTile, "ir.Value"], a: Union[TmemTile, "ir.Value"],
                    b: "ir.Value", idesc: Union[int, "ir.Value"],
                    accumulate: Union["ir.Value", bool], scale_a: Union[TmemTile, "ir.Value"],
                    scale_b: Union[TmemTile, "ir.Value"], *, kind: str = "mxf8f6f4",
                    cta_group: int = 1) -> None:
    """tcgen05.mma.cta_group::<cta_group>.kind::<kind>.block_scale: D =
    (A scale_a) (B scale_b) (+ D), the scale factors in TMEM, with the
    kind's default scale vector size (the explicit .block16 / .block32
    forms are not selected by LLVM 22's PTX backend)."""
    if kind not in BLOCK_SCALED_KINDS:
        raise BuildError(f"mma_block_scale: kind is one of {', '.join(BLOCK_SCALED_KINDS)}, "
                         f"got {kind!r}")
    if kind == "mxf4nvf4":
        # The ISA requires an explicit scale vector size for mxf4nvf4.
        raise BuildError("mma_block_scale: kind::mxf4nvf4 needs an explicit scale vector "
                         "size, which LLVM 22's NVPTX backend does not select")
    scale = "default"
    ops = [_tmem_ptr(d), _tmem_ptr(a), b, _i32(idesc), _accumulate(accumulate),
           _tmem_ptr(scale_a), _tmem_ptr(scale_b)]
    ir.op("nvvm.tcgen05.mma.block_scale", ops, properties=(
        f"{{blockScale = #nvvm.tcgen05_mma_block_scale<{scale}>, "
        f"collectorOp = #nvvm.tcgen05_mma_collectorop<discard>, ctaGroup = {_cta(cta_group)}, "
        f"kind = #nvvm.block_scale_kind<{kind}>}}"))


def commit(barrier: "ir.Value", cta_group: int = 1,
           multicast: Optional["ir.Value"] = None) -> None:
    """tcgen05.commit.cta_group::<cta_group>.mbarrier::arrive::one: the
    mbarrier at `barrier` (!llvm.ptr<3>, or a generic !llvm.ptr) gets one
    arrival once this thread's earlier tcgen05 ops completed; with
    `multicast` (i16 CTA mask) on that barrier in each CTA of the mask."""
    ops = [barrier] + ([multicast] if multicast is not None else [])
    ir.op("nvvm.tcgen05.commit", ops, properties=f"{{group = {_cta(cta_group)}}}")


# --- Added for the attention -----------------------------------------------------

def tmem_operand_columns(element: T.ScalarType, k: int) -> int:
    """TMEM columns one K step of an A operand in tensor memory spans: a
    lane holds its row's K elements packed in 32-bit columns (K = 16 bf16
    per kind::f16 MMA: 8 columns), so step s starts s x this in."""
    bits = k * element.bits
    if bits % 32:
        raise BuildError(f"tmem_operand_columns: {k} x {element} is not whole 32-bit columns")
    return bits // 32


# --- Added for sm100_matmul_pipelines ----------------------------------------------
# Tensor memory allocated by hand (not through `TensorMemory`): the address
# handed over in a shared-memory word of the kernel's own layout. And the
# CTA-pair TMA load of cta_group 2, which completes on the leader CTA's
# barrier.

PTR_SHARED = T.OpaqueType("!llvm.ptr<3>")
PTR_CLUSTER = T.OpaqueType("!llvm.ptr<7>")


def alloc(slot: "ir.Value", columns: int, cta_group: int = 1) -> None:
    """tcgen05.alloc.cta_group::<cta_group>.sync.aligned.shared::cta.b32
    (a whole warp): allocates `columns` TMEM columns (a power of 2 in
    32..512; with cta_group 2 in both CTAs of the pair, the same address)
    and writes their address to the 32-bit shared-memory word at `slot`
    (!llvm.ptr<3>)."""
    tmem_type(columns, cta_group)  # checks columns and cta_group
    ir.op("nvvm.tcgen05.alloc", [slot, ir.constant(columns, T.i32)],
          properties=f"{{group = {_cta(cta_group)}}}")


def relinquish_alloc_permit(cta_group: int = 1) -> None:
    """tcgen05.relinquish_alloc_permit: this CTA allocates no more TMEM."""
    ir.op("nvvm.tcgen05.relinquish_alloc_permit", properties=f"{{group = {_cta(cta_group)}}}")


def dealloc(base: Union["TmemTile", "ir.Value"], columns: int, cta_group: int = 1) -> None:
    """tcgen05.dealloc.cta_group::<cta_group>.sync.aligned.b32 (the warp
    that allocated): frees the `columns` columns at `base` (the address
    `alloc` wrote, an i32 or a tile at it)."""
    tmem_type(columns, cta_group)
    addr = base.addr if isinstance(base, TmemTile) else base
    ptr = ir.op("llvm.inttoptr", [_i32(addr)], [PTR_TMEM])
    ir.op("nvvm.tcgen05.dealloc", [ptr, ir.constant(columns, T.i32)],
          properties=f"{{group = {_cta(cta_group)}}}")


def tile_after(desc: SmemDescriptor, tiles: Number) -> SmemDescriptor:
    """The descriptors of the tile `tiles` (an int, or an i32 / index
    value) tiles of `desc`'s layout further on in shared memory: of
    consecutive tiles of one layout, such as the k-blocks of a stage that
    TMA boxes wrote one after the other. Its `step(k)` are that tile's K
    steps."""
    moved = SmemDescriptor.__new__(SmemDescriptor)
    moved.layout, moved.bits = desc.layout, desc.bits
    field = desc.layout.nbytes >> 4
    if isinstance(tiles, int):
        moved.start = desc.start + tiles * field if tiles else desc.start
    else:
        moved.start = desc.start + _i32(tiles) * field
    return moved


def cluster_arrive() -> None:
    """barrier.cluster.arrive.aligned: this thread arrived at the cluster
    barrier (every thread of every CTA of the cluster takes part)."""
    ir.op("nvvm.cluster.arrive", properties="{aligned}")


def cluster_wait() -> None:
    """barrier.cluster.wait.aligned: until every thread of the cluster
    arrived."""
    ir.op("nvvm.cluster.wait", properties="{aligned}")


def stage_barrier(barriers: Sequence["ir.Value"]) -> "ir.Value":
    """The shared-memory address (!llvm.ptr<3>) of the barrier `barriers`
    = stage.mbar() names (nvgpu.mbarrier.get)."""
    group, ident = barriers
    addr = ir.op("nvgpu.mbarrier.get", [group, ident], [T.i64])
    return ir.op("llvm.inttoptr", [addr], [PTR_SHARED])


def mapa(ptr: "ir.Value", rank: "ir.Value") -> "ir.Value":
    """mapa.shared::cluster: the shared-memory address `ptr` (!llvm.ptr<3>)
    of this CTA at the same offset in CTA `rank` (i32) of the cluster, as
    a shared::cluster address (!llvm.ptr<7>)."""
    return ir.op("nvvm.mapa", [ptr, _i32(rank)], [PTR_CLUSTER])


def tma_load_pair(desc: "ir.Value", coords: Sequence[Number], dst: "ir.Value",
                  barrier: "ir.Value") -> None:
    """cp.async.bulk.tensor.<n>d.shared::cluster.global.tile
    .mbarrier::complete_tx::bytes.cta_group::2: the box of `desc` (the
    CUtensorMap's global address, !llvm.ptr) at `coords` (innermost first,
    i32) into `dst` (a shared-memory memref of this CTA), completing the
    transaction on `barrier`, a shared::cluster address (!llvm.ptr<7>,
    `mapa`) of a barrier in either CTA of the pair: the leader's, where
    its MMA waits for both CTAs' bytes. The op types the barrier as a
    shared::cta pointer; with .cta_group::2 the hardware takes either
    CTA's barrier there (CUTLASS passes the address with the peer bit
    cleared), so the cluster address is passed as it is."""
    from .common import smem_address, smem_ptr
    coords = [_i32(c) for c in coords]
    if not 1 <= len(coords) <= 5:
        raise BuildError(f"tma_load_pair: 1 to 5 coordinates, got {len(coords)}")
    if barrier.type != PTR_CLUSTER:
        raise BuildError(f"tma_load_pair: the barrier is a shared::cluster address "
                         f"(!llvm.ptr<7>, from mapa), got {barrier.type}")
    local = smem_ptr(smem_address(dst))
    dst_ptr = ir.op("llvm.addrspacecast", [local], [PTR_CLUSTER])
    bar = ir.op("llvm.inttoptr", [ir.op("llvm.ptrtoint", [barrier], [T.i64])], [PTR_SHARED])
    ir.op("nvvm.cp.async.bulk.tensor.shared.cluster.global", [dst_ptr, desc] + coords + [bar],
          properties=("{group = #nvvm.cta_group<cta_2>, isCTAOnly = false, "
                      "mode = #nvvm.tma_load_mode<tile>, operandSegmentSizes = "
                      f"array<i32: 1, 1, {len(coords)}, 1, 0, 0, 0, 0>}}"))
