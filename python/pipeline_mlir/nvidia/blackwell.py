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
- `BlockScaledPayload`: a block-scaled GEMM's stage (A, B and their scale
  factors, MXFP8 or NVFP4), its scale factors' layout in shared and tensor
  memory; `cp` (tcgen05.cp, every shape), `mma_block_scale_vec` (the MMA
  with an explicit scale vector).

The encodings are written here once, from the PTX ISA (tcgen05
"Instruction descriptor", "Shared memory descriptor", "Tensor Memory
addressing", "Matrix fragments for tcgen05.ld/st").
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Union

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
    kind's default scale vector size (mxf8f6f4: 32, mxf4: 32; ptxas takes
    the default as .block32, PTX ISA 8.8, once a scale-factor ID is 2 or
    3: `mma_block_scale_vec` is the sm_100a form of PTX 8.6).
    kind::mxf4nvf4 has no default (the ISA requires an explicit size): it
    is issued by `mma_block_scale_vec` with a vector of 16, the NVFP4 one."""
    if kind not in BLOCK_SCALED_KINDS:
        raise BuildError(f"mma_block_scale: kind is one of {', '.join(BLOCK_SCALED_KINDS)}, "
                         f"got {kind!r}")
    if kind == "mxf4nvf4":
        mma_block_scale_vec(d, a, b, idesc, accumulate, scale_a, scale_b, kind=kind, vec=16,
                            cta_group=cta_group)
        return
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


# --- Block-scaled MMA: MXFP8 and NVFP4 ---------------------------------------------
# The operands of tcgen05.mma.kind::mxf8f6f4 / ::mxf4nvf4 .block_scale: a
# pipeline stage holding A, B and their scale factors (the reference's
# BlockScaledTilePayload), the copy of the scale factors to tensor memory
# (tcgen05.cp) and the MMA with an explicit scale vector size.

#: Element types of the block-scaled operands as MLIR types: the data
#: (OCP FP8 / FP4) and the scale factors (UE8M0; UE4M3 is E4M3's byte with
#: the sign bit clear).
F8E4M3 = getattr(T, "f8E4M3FN", None) or T.ScalarType("f8E4M3FN", 8, "float", "uint8")
F8E5M2 = getattr(T, "f8E5M2", None) or T.ScalarType("f8E5M2", 8, "float", "uint8")
F4E2M1 = T.ScalarType("f4E2M1FN", 4, "float", "uint8")
F8E8M0 = T.ScalarType("f8E8M0FNU", 8, "float", "uint8")
_DATA_TYPES = {"e4m3": F8E4M3, "e5m2": F8E5M2, "e2m1": F4E2M1}
_SCALE_TYPES = {"ue8m0": F8E8M0, "ue4m3": F8E4M3}

#: The block-scaled formats: data types, MMA kind, scale type, scale vector
#: size (elements of K per scale factor), K per MMA, and whether a global
#: f32 scale follows (NVFP4's per-tensor scale, applied in the epilogue).
BLOCK_SCALED_FORMATS = {
    "mxfp8": dict(data=("e4m3", "e5m2"), kind="mxf8f6f4", scale="ue8m0", vec=32, k=32,
                  global_scale=False),
    "nvfp4": dict(data=("e2m1",), kind="mxf4nvf4", scale="ue4m3", vec=16, k=64,
                  global_scale=True),
}

#: A scale-factor atom in shared memory: 128 rows (of A, or columns of B)
#: x 4 scale factors, 512 bytes, as 32 rows of 16 bytes: row r = r0 + 32 r1
#: (r0 < 32) has its 4 factors at bytes 16 r0 + 4 r1 .. + 3 (CUTLASS
#: Sm1xxBlkScaledConfig SfAtom ((32,4),(vec,4)):((16,4),(0,1)); the
#: reference's internal_sf_k_major). tcgen05.cp .32x128b.warpx4 copies one
#: atom to 4 TMEM columns, row r0 + 32 r1's 4 factors the 4 bytes of column
#: r1 in lanes r0, 32 + r0, 64 + r0, 96 + r0: the layout the MMA reads.
SF_ATOM_ROWS = 128
SF_ATOM_FACTORS = 4
SF_ATOM_BYTES = 512


def _pow2_columns(n: int) -> int:
    c = 32
    while c < n:
        c *= 2
    return c


class BlockScaledPayload:
    """A stage of a block-scaled GEMM's input pipeline: a k-block of A
    (`block_m` x `block_k`), of B (`block_n` x `block_k`, K-major: the B of
    A B^T) and their scale factors, as TMA writes them and the MMA (A, B)
    and tcgen05.cp (the scale factors) read them.

        pay = BlockScaledPayload("mxfp8", a="e4m3", b="e5m2", stages=4)
        a, b, sfa, sfb = pay.buffers(smem, offset)        # the 4 payload memrefs
        tp = pm.tile_pipeline(p, [a, b, sfa, sfb])

    A k-block is one 128-byte swizzle row of A and B: 128 FP8 or 256 FP4
    elements (FP4 packed two per byte, the even k in the low nibble), i.e.
    `k_steps` = 4 MMAs of K = 32 (mxf8f6f4) or 64 (mxf4nvf4). Its scale
    factors are `factors` = block_k / vec per row, `atoms` = factors / 4
    512-byte atoms per 128 rows (`SF_ATOM_BYTES`). Payload types: A and B
    of the data type (f8E4M3FN, f8E5M2, f4E2M1FN: the stage's expect_tx
    counts bits / 8; FP4 as i8, its packed bytes), the scale factors of
    the scale type (f8E8M0FNU; UE4M3 as f8E4M3FN) shaped (stages, 1,
    128-row groups, atoms, 32, 16).

    Tensor memory (`sf_columns` per stage, after the accumulator): the
    scale factors of MMA step j are at `sfa_column(j)` / `sfb_column(j)`
    columns into the stage's, byte `sf_id(j)` of each 32-bit cell:
    MXFP8 (1 factor per row per MMA) all 4 steps share the 4 columns of
    the atom and pick their byte with the SF ID; NVFP4 (4 factors per row
    per MMA, scale_vec 4X) step j has its own columns, the whole cell.
    """

    def __init__(self, fmt: str = "mxfp8", a: Optional[str] = None, b: Optional[str] = None,
                 *, block_m: int = 128, block_n: int = 128, stages: int = 4,
                 cta_group: int = 1):
        if fmt not in BLOCK_SCALED_FORMATS:
            raise BuildError(f"BlockScaledPayload: the format is one of "
                             f"{', '.join(BLOCK_SCALED_FORMATS)}, got {fmt!r}")
        f = BLOCK_SCALED_FORMATS[fmt]
        a = a or f["data"][0]
        b = b or a
        for name, what in ((a, "A"), (b, "B")):
            if name not in f["data"]:
                raise BuildError(f"BlockScaledPayload {fmt}: {what} is "
                                 f"{' or '.join(f['data'])}, got {name!r}")
        if block_m != 128:
            raise BuildError(f"BlockScaledPayload: block_m (rows of A per CTA) is 128, "
                             f"got {block_m}")
        _cta(cta_group)
        if block_n % SF_ATOM_ROWS or not SF_ATOM_ROWS <= block_n <= 256:
            raise BuildError(f"BlockScaledPayload: block_n is 128 or 256, got {block_n}")
        self.format, self.kind, self.scale = fmt, f["kind"], f["scale"]
        self.a, self.b = a, b
        self.a_type, self.b_type = _DATA_TYPES[a], _DATA_TYPES[b]
        self.scale_type = _SCALE_TYPES[self.scale]
        self.vec, self.mma_k, self.global_scale = f["vec"], f["k"], f["global_scale"]
        self.block_m, self.block_n, self.stages = block_m, block_n, stages
        # cta_group 2: the MMA's M is the pair's 256 rows; each CTA holds
        # its 128 rows of A, half of B's block_n rows, and the scale factors
        # of its rows of A and of all block_n rows of B (the MMA reads
        # scale_B for every column in each CTA's tensor memory).
        self.cta_group = cta_group
        self.b_rows = block_n // cta_group
        self.row_bytes = 128
        # FP4 is held as its packed bytes (i8, two e2m1 each): MLIR lowers a
        # memref of f4E2M1FN to one byte per element, which would misplace
        # every stage after the first.
        storage = lambda t: T.i8 if t.bits < 8 else t
        self.a_storage, self.b_storage = storage(self.a_type), storage(self.b_type)
        self.row_elements = self.row_bytes * 8 // self.a_storage.bits
        self.block_k = self.row_bytes * 8 // self.a_type.bits
        self.k_steps = self.block_k // self.mma_k
        self.factors = self.block_k // self.vec
        self.atoms = self.factors // SF_ATOM_FACTORS
        self.sf_per_mma = self.mma_k // self.vec
        # The MMA descriptors depend on bytes only: a K step is 32 bytes of
        # a 128-byte swizzled K-major row for every block-scaled kind, the
        # layout of a 64-wide bf16 tile.
        self.a_layout = SmemLayout(block_m, self.row_bytes // 2, T.bf16, swizzle=128, major="K")
        self.b_layout = SmemLayout(self.b_rows, self.row_bytes // 2, T.bf16, swizzle=128,
                                   major="K")
        self.a_bytes = block_m * self.row_bytes
        self.b_bytes = self.b_rows * self.row_bytes
        self.sfa_bytes = block_m // SF_ATOM_ROWS * self.atoms * SF_ATOM_BYTES
        self.sfb_bytes = block_n // SF_ATOM_ROWS * self.atoms * SF_ATOM_BYTES

    # Types and buffers.
    def memref_types(self) -> List[T.MemRefType]:
        """The four payload types: A, B (stages, 1, rows, 128 bytes of K) and
        SFA, SFB (stages, 1, 128-row groups, atoms, 32, 16)."""
        s = self.stages
        sf = lambda rows: T.MemRefType((s, 1, rows // SF_ATOM_ROWS, self.atoms, 32, 16),
                                       self.scale_type, T.smem)
        return [T.MemRefType((s, 1, self.block_m, self.row_elements), self.a_storage, T.smem),
                T.MemRefType((s, 1, self.b_rows, self.row_elements), self.b_storage, T.smem),
                sf(self.block_m), sf(self.block_n)]

    @property
    def stage_bytes(self) -> int:
        """Bytes one stage takes (what its expect_tx arms)."""
        return self.a_bytes + self.b_bytes + self.sfa_bytes + self.sfb_bytes

    def offsets(self, base: int) -> List[int]:
        """Byte offsets of the A, B, SFA, SFB buffers from `base` (1024-byte
        aligned: the 128-byte swizzle atoms), each buffer 1 KiB aligned,
        and the first byte after them."""
        out, off = [], base
        for nbytes in (self.a_bytes, self.b_bytes, self.sfa_bytes, self.sfb_bytes):
            out.append(off)
            off += -(-self.stages * nbytes // 1024) * 1024
        return out + [off]

    def buffers(self, storage: "ir.Value", base: int) -> List["ir.Value"]:
        """The four payload memrefs, views of `storage` from byte `base`
        (`offsets(base)`)."""
        return [ir.view(storage, off, t.shape, t.element)
                for off, t in zip(self.offsets(base), self.memref_types())]

    # TMA boxes (as the host encodes the tensor maps).
    def sf_box(self, rows: int) -> tuple:
        """The TMA box of a stage's scale factors of `rows` rows, in the 3-D
        u8 tensor (128 bytes, 4 x atoms along K, 128-row groups) whose
        512-byte atoms are ordered K first (CUTLASS's SF layout)."""
        return (128, 4 * self.atoms, rows // SF_ATOM_ROWS)

    # Tensor memory.
    def sf_tmem_columns(self, rows: int) -> int:
        """TMEM columns the scale factors of one stage of `rows` rows take:
        4 per atom per 128 rows."""
        return rows // 32 * self.atoms

    @property
    def sf_columns(self) -> int:
        """TMEM columns of one stage's SFA and SFB."""
        return self.sf_tmem_columns(self.block_m) + self.sf_tmem_columns(self.block_n)

    def tmem_columns(self, acc_columns: int) -> int:
        """The allocation (a power of 2) for an accumulator of `acc_columns`
        columns and every stage's scale factors."""
        return _pow2_columns(acc_columns + self.stages * self.sf_columns)

    def sf_column(self, step: int, rows: int) -> int:
        """Columns into a stage's SFA (rows = block_m) or SFB of MMA step
        `step`'s scale factors."""
        return 0 if self.sf_per_mma == 1 else step * (rows // 32)

    def sf_id(self, step: int) -> int:
        """The byte of each cell MMA step `step` reads (the SF ID)."""
        return step if self.sf_per_mma == 1 else 0

    def idesc(self, step: int, block_n: Optional[int] = None) -> int:
        """The instruction descriptor of MMA step `step` (M = block_m, N =
        block_n, its SF IDs)."""
        sf = self.sf_id(step)
        return instr_desc_block_scaled(self.block_m * self.cta_group, block_n or self.block_n,
                                       self.a, self.b, kind=self.kind, scale=self.scale,
                                       a_sf_id=sf, b_sf_id=sf, cta_group=self.cta_group)

    def copy_scales(self, sf: "ir.Value", rows: int, dst: TmemTile) -> None:
        """tcgen05.cp of a stage's scale factors (`sf`, its payload slice of
        `rows` rows) to the TMEM columns at `dst`: atom j of 128-row group
        g to columns sf_column(j) + 4 g (32x128b.warpx4: duplicated to the
        four 32-lane sub-partitions)."""
        base = _shrui(_smem_address(sf).cast(T.i32), 4)
        for g in range(rows // SF_ATOM_ROWS):
            for j in range(self.atoms):
                # Atom j holds the factors of MMA steps 4j / sf_per_mma ..
                off = (g * self.atoms + j) * SF_ATOM_BYTES >> 4
                column = self.sf_column(j * SF_ATOM_FACTORS // self.sf_per_mma, rows) + 4 * g
                cp(dst.at(column=column), sf_desc(base + off if off else base), "32x128b",
                   "warpx4", cta_group=self.cta_group)


def _smem_address(tile: "ir.Value") -> "ir.Value":
    from .common import smem_address
    return smem_address(tile)


#: Bits 32-45 of the scale-factor descriptor: 8 rows of 16 bytes apart.
_SF_SBO = 128


def sf_desc(start: "ir.Value") -> "ir.Value":
    """The tcgen05 shared-memory descriptor of a scale-factor atom (32
    rows x 16 bytes, rows 16 bytes apart) whose address >> 4 is `start`
    (i32): no swizzle (layout type 0), K-major, core matrices of 8 rows x
    16 bytes, the 8-row groups 128 bytes apart (SBO), one core matrix
    along K (LBO unused, 0), version 1."""
    field = ir.op("arith.extui", [_i32(start) & 0x3FFF], [T.i64])
    return field | ir.constant((_SF_SBO >> 4) << 32 | _VERSION << 46, T.i64)


#: tcgen05.cp shapes (PTX ISA "tcgen05.cp"): rows x bits copied, and the
#: multicasts each takes (none, or the warpx2 / warpx4 lane replication).
CP_SHAPES = {"128x256b": ("",), "4x256b": ("",), "128x128b": ("",),
             "64x128b": ("warpx2::02_13", "warpx2::01_23"), "32x128b": ("warpx4",)}


def cp(dst: Union[TmemTile, "ir.Value"], desc: "ir.Value", shape: str,
       multicast: str = "", cta_group: int = 1) -> None:
    """tcgen05.cp.cta_group::<cta_group>.<shape>[.<multicast>] [dst], desc:
    copies rows of shared memory (the K-major, unswizzled matrix of the
    descriptor `desc`, i64) to tensor memory from `dst` (a tile, or an i32
    address / !llvm.ptr<6>): .128x256b / .128x128b row r to lane r, 32 or
    16 bytes a row in consecutive columns; .4x256b rows 0-3 to lanes 0, 32,
    64, 96; .64x128b.warpx2::02_13 / ::01_23 64 rows, each to two lane
    sub-partitions; .32x128b.warpx4 32 rows, each to all four. Ordered
    before a later tcgen05.mma of the same thread."""
    if shape not in CP_SHAPES:
        raise BuildError(f"tcgen05.cp: the shape is one of {', '.join(CP_SHAPES)}, "
                         f"got {shape!r}")
    if multicast not in CP_SHAPES[shape]:
        allowed = " or ".join(m or "none" for m in CP_SHAPES[shape])
        raise BuildError(f"tcgen05.cp .{shape}: the multicast is {allowed}, got "
                         f"{multicast or 'none'}")
    if isinstance(dst, TmemTile):
        ptr = dst.ptr()
    elif dst.type == T.i32:
        ptr = ir.op("llvm.inttoptr", [dst], [PTR_TMEM])
    else:
        ptr = dst
    mc = (f", multicast = #nvvm.tcgen05_cp_multicast<{multicast.replace('::', '_')}>"
          if multicast else "")
    ir.op("nvvm.tcgen05.cp", [ptr, desc], properties=(
        f"{{group = {_cta(cta_group)}{mc}, shape = #nvvm.tcgen05_cp_shape<shape_{shape}>}}"))


#: The scale vector qualifier of each block-scaled kind and vector size
#: (PTX ISA "tcgen05.mma": the number of scale factors per row of one MMA,
#: K / vector: mxf8f6f4 K 32 with 32 = 1X; mxf4 / mxf4nvf4 K 64 with 32 =
#: 2X, mxf4nvf4 with 16 = 4X). The .scale_vec::NX forms are sm_100a's from
#: PTX ISA 8.6 (mxf4nvf4: 8.7); the equivalent .block32 / .block16 need 8.8,
#: and ptxas reads the unqualified form as .block32.
_SCALE_VEC = {("mxf8f6f4", 32): "1X", ("mxf4", 32): "2X", ("mxf4nvf4", 32): "2X",
              ("mxf4nvf4", 16): "4X"}


def mma_block_scale_vec(d: Union[TmemTile, "ir.Value"], a: "ir.Value", b: "ir.Value",
                        idesc: Union[int, "ir.Value"], accumulate: Union["ir.Value", bool],
                        scale_a: Union[TmemTile, "ir.Value"],
                        scale_b: Union[TmemTile, "ir.Value"], *, kind: str, vec: int,
                        cta_group: int = 1) -> None:
    """tcgen05.mma.cta_group::<cta_group>.kind::<kind>.block_scale
    .scale_vec::<N>X [d], a_desc, b_desc, idesc, [scale_a], [scale_b],
    accumulate: the block-scaled MMA with an explicit scale vector size
    (`vec` elements of K per factor; the form kind::mxf4nvf4 requires), A
    and B in shared memory. LLVM 22's NVPTX backend selects no explicit
    form, so this one is written as inline PTX (the TMEM addresses as
    32-bit registers, the accumulate flag as a predicate)."""
    if (kind, vec) not in _SCALE_VEC:
        raise BuildError(f"mma_block_scale_vec: kind::{kind} takes no scale vector of {vec}")
    _cta(cta_group)  # checks it
    addr = lambda x: x.addr if isinstance(x, TmemTile) else _i32(x)
    acc = _accumulate(accumulate)
    text = ("{ .reg .pred p; setp.ne.b32 p, $6, 0; "
            f"tcgen05.mma.cta_group::{cta_group}.kind::{kind}.block_scale."
            f"scale_vec::{_SCALE_VEC[(kind, vec)]} [$0], $1, $2, $3, [$4], [$5], p; }}")
    from .common import _asm
    _asm(text, "r,l,l,r,r,r,r", [addr(d), a, b, _i32(idesc), addr(scale_a), addr(scale_b),
                                 ir.op("arith.extui", [acc], [T.i32])])
