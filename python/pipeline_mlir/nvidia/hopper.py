"""Hopper (sm_90a) tensor-core programming as typed builder values.

- `SmemLayout`: how a tile lies in shared memory (element type, K-major or
  MN-major, swizzle) and the wgmma matrix descriptor that follows from it;
  `SmemLayout.of(payload_type)` derives it from a pipeline payload's memref.
- `Accumulator`: a warpgroup's wgmma accumulator (m64nNk16, f32) as a value
  with its fragment layout: element access, the row and column of each
  element, reductions over a row's four lanes, conversion to bf16 pairs.
- `mma_async(acc, a, b)` issues the wgmma of one K step and returns the new
  accumulator; `fence()`, `commit_group()` and `wait_group(n)` are the
  release lag's calls; `stmatrix` writes a fragment to shared memory.

The encodings (descriptor bits, wgmma attributes, fragment positions) are
written here once, from the PTX ISA ("Matrix Descriptor Format",
"Asynchronous Warpgroup Level Matrix Register Fragment").
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Sequence, Union

from .. import ir
from .. import types as T
from ..errors import BuildError
from . import common

#: wgmma K per instruction for 16-bit inputs.
K_STEP = 16
#: Bytes of K one wgmma reads per row: 16 16-bit or 32 8-bit elements.
K_STEP_BYTES = 32

_SWIZZLE_MODE = {128: 1, 64: 2, 32: 3}     # descriptor bits 62-63
_WGMMA_TYPE = {"bf16": "bf16", "f16": "f16", "f8E4M3FN": "e4m3", "f8E5M2": "e5m2"}


def k_step(element: T.ScalarType) -> int:
    """wgmma K per instruction for `element` operands: 16 (bf16, f16) or
    32 (e4m3, e5m2): always 32 bytes of a K-major row."""
    return K_STEP_BYTES // element.nbytes


class SmemLayout:
    """A tile of `rows` x `cols` elements in shared memory, `cols` the
    contiguous dimension, stored in swizzle atoms of 8 rows x `swizzle`
    bytes (`swizzle` 128, 64 or 32). Tiles wider than one
    atom row (cols x element bytes > swizzle) are stored as consecutive
    sub-tiles of `rows` x (swizzle / element bytes), each `rows` x swizzle
    bytes (what a TMA box of that inner width writes, box after box).

    `major` is how the MMA reads it: "K" when `cols` runs along K (A, and
    the B of A B^T), "MN" when `cols` runs along M or N (a row-major B).
    """

    def __init__(self, rows: int, cols: int, element: T.ScalarType = T.bf16,
                 swizzle: int = 128, major: str = "K"):
        if swizzle not in (128, 64, 32):
            # Without a swizzle the descriptor's leading and stride byte
            # offsets mean other strides (the interleaved core matrices).
            raise BuildError(f"SmemLayout: swizzle is 128, 64 or 32 bytes, got {swizzle}")
        if major not in ("K", "MN"):
            raise BuildError(f"SmemLayout: major is 'K' or 'MN', got {major!r}")
        if element.text not in _WGMMA_TYPE:
            raise BuildError(f"SmemLayout: wgmma operands of {element} are not supported "
                             "(bf16, f16, f8E4M3FN, f8E5M2)")
        self.rows, self.cols, self.element = rows, cols, element
        self.swizzle, self.major = swizzle, major
        self.atom_cols = swizzle // element.nbytes   # elements per atom row
        if cols % self.atom_cols or rows % 8:
            raise BuildError(f"SmemLayout: a {rows} x {cols} {element} tile is not whole "
                             f"{8} x {self.atom_cols} swizzle atoms")

    @classmethod
    def of(cls, memref: T.MemRefType, swizzle: int = 128, major: str = "K") -> "SmemLayout":
        """The layout of a payload buffer or a stage's slice of one: its last
        two dimensions are the tile (leading ones of extent 1 or the
        stage index are dropped)."""
        shape = memref.shape
        if len(shape) < 2:
            raise BuildError(f"SmemLayout.of needs a tile of rank >= 2, got {memref}")
        return cls(shape[-2], shape[-1], memref.element, swizzle, major)

    def tensormap(self, rows: Optional[int] = None, l2promo: str = "none",
                  oob: str = "zero") -> T.TensorMapType:
        """The type of the TMA descriptor whose box writes this layout: one
        sub-tile, `rows` (all by default; fewer for a box that fills part
        of the tile, such as a cluster peer's half) x the swizzle width,
        with the layout's swizzle. Out-of-bound elements read as zero."""
        rows = self.rows if rows is None else rows
        if not 0 < rows <= self.rows:
            raise BuildError(f"SmemLayout.tensormap: a box of 1 to {self.rows} rows, got {rows}")
        box = T.MemRefType((rows, self.atom_cols), self.element, T.smem)
        swizzle = f"swizzle_{self.swizzle}b" if self.swizzle else "none"
        return T.TensorMapType(box, swizzle, l2promo, oob)

    @property
    def row_bytes(self) -> int:
        """Bytes of one row of one sub-tile (the swizzle width)."""
        return self.atom_cols * self.element.nbytes

    @property
    def subtile_bytes(self) -> int:
        return self.rows * self.row_bytes

    @property
    def nbytes(self) -> int:
        return self.rows * self.cols * self.element.nbytes

    def offset(self, row: int, col: int) -> int:
        """The byte offset of the start of the 8-row, 16-byte aligned chunk
        holding (row, col), before the swizzle (what descriptors address)."""
        sub, c = divmod(col, self.atom_cols)
        return sub * self.subtile_bytes + row * self.row_bytes + c * self.element.nbytes

    # The descriptor's constant bits: leading and stride byte offsets (>> 4)
    # and the swizzle mode; the start address goes in bits 0-13.
    def _fixed_bits(self) -> int:
        if self.major == "K":
            # K-major, swizzled: LBO unused (1 by convention), SBO = 8 rows.
            lbo, sbo = 16, 8 * self.row_bytes
        else:
            # MN-major: LBO = the next sub-tile along MN, SBO = 8 rows of K.
            lbo, sbo = self.subtile_bytes, 8 * self.row_bytes
        return ((lbo >> 4) << 16) | ((sbo >> 4) << 32) | (_SWIZZLE_MODE[self.swizzle] << 62)

    @property
    def k_step(self) -> int:
        """Elements of K per wgmma: 16 for 16-bit, 32 for 8-bit elements."""
        return k_step(self.element)

    def k_offset(self, k: int) -> int:
        """The byte offset of K step `k` (of `k_step` elements, 32 bytes of
        a K-major row) within the tile."""
        if self.major == "K":
            return self.offset(0, k * self.k_step)
        return k * self.k_step * self.row_bytes

    @property
    def k_steps(self) -> int:
        """K steps in the tile: its columns (K-major) or rows (MN-major) / k_step."""
        return (self.cols if self.major == "K" else self.rows) // self.k_step

    def descriptor(self, addr: "ir.Value") -> "ir.Value":
        """The wgmma matrix descriptor (i64) of the tile at the shared-memory
        byte address `addr` (index; 16-byte aligned, the swizzle atom
        1024-byte aligned for 128-byte swizzle)."""
        a = addr.cast(T.i64)
        return ((a >> 4) & 0x3FFF) | ir.constant(self._fixed_bits(), T.i64)

    def descriptors(self, addr: "ir.Value", steps: Optional[int] = None,
                    first: int = 0) -> List["ir.Value"]:
        """Descriptors of K steps `first` .. `first + steps - 1`: the first
        one built from the address, the others by adding the step's offset
        to its address field (the offsets stay inside the 14-bit field)."""
        steps = self.k_steps - first if steps is None else steps
        base = self.descriptor(addr + self.k_offset(first) if first else addr)
        out = [base]
        for k in range(first + 1, first + steps):
            out.append(base + ir.constant((self.k_offset(k) - self.k_offset(first)) >> 4,
                                          T.i64))
        return out

    def step_descriptors(self, desc: "ir.Value", steps: Optional[int] = None
                         ) -> List["ir.Value"]:
        """Descriptors of K steps 0 .. steps - 1 of the tile whose first
        descriptor is `desc` (made once, e.g. outside a loop, and moved with
        `moved`): each adds its step's offset to the address field."""
        steps = self.k_steps if steps is None else steps
        return [desc] + [desc + ir.constant(self.k_offset(k) >> 4, T.i64)
                         for k in range(1, steps)]

    @staticmethod
    def moved(desc: "ir.Value", nbytes: "ir.Value") -> "ir.Value":
        """The descriptor `desc` of a tile moved `nbytes` (an index value,
        a multiple of 16; the address stays within the 14-bit field) further
        in shared memory: another buffer of the same layout."""
        return desc + (nbytes.cast(T.i64) >> 4)


class WarpgroupThread:
    """This thread's place in warpgroup `wg` (a thread index / 128) of a
    kernel whose consumer warpgroups start at `first`: `index` (wg - first),
    `tid` in the warpgroup, `warp` (0..3), `lane`, `leader` (its thread 0)
    and `bar_id`, the named barrier of the warpgroup's own 128 threads
    (index + 1, as bar.sync takes it; 0 is the CTA's)."""

    def __init__(self, tid: "ir.Value", wg: "ir.Value", first: int = 1):
        self.index = wg - first
        self.tid = tid % 128
        self.leader = self.tid == 0
        self.warp = self.tid // 32
        self.lane = tid % 32
        self.bar_id = self.index.cast(T.i32) + 1

    def sync(self) -> None:
        """bar.sync of the warpgroup's 128 threads."""
        common.named_barrier(self.bar_id, 128)


class Accumulator:
    """A warpgroup's f32 accumulator of wgmma m64nNk16: 64 x N, N / 2 values
    per thread. Thread t of the warpgroup (warp w = t / 32, lane l) holds
    element i at row 16 w + l / 4 + 8 ((i / 2) mod 2) and column
    8 (i / 4) + 2 (l mod 4) + (i mod 2) of the tile.

    It is immutable: operations return new accumulators. Elements are read
    from the LLVM struct wgmma returns only where a kernel reads them, and
    the struct is rebuilt only where an MMA or a loop needs it.
    """

    def __init__(self, n: int, struct: Optional["ir.Value"] = None,
                 elements: Optional[Sequence["ir.Value"]] = None):
        if n % 8 or not 8 <= n <= 256:
            raise BuildError(f"Accumulator: N is a multiple of 8 in 8..256, got {n}")
        self.n = n
        self._struct = struct
        self._dirty = struct is None   # the struct lags the elements
        self._elements: Dict[int, "ir.Value"] = {}
        if elements is not None:
            if len(elements) != self.size:
                raise BuildError(f"Accumulator: m64n{n} holds {self.size} values per "
                                 f"thread, got {len(elements)}")
            self._elements = dict(enumerate(elements))

    @staticmethod
    def struct_type(n: int) -> T.Type:
        return T.OpaqueType("!llvm.struct<(" + ", ".join(["f32"] * (n // 2)) + ")>")

    @property
    def type(self) -> T.Type:
        """The LLVM struct type (what pm.range(carry=) and pm.if_ results take)."""
        return self.struct_type(self.n)

    @property
    def size(self) -> int:
        """f32 values per thread."""
        return self.n // 2

    @classmethod
    def undef(cls, n: int) -> "Accumulator":
        """An accumulator whose contents the first MMA overwrites (scale_d
        zero)."""
        return cls(n, struct=ir.op("llvm.mlir.undef", [], [cls.struct_type(n)]))

    @classmethod
    def fill(cls, n: int, value: float = 0.0) -> "Accumulator":
        c = ir.constant(value, T.f32)
        return cls(n, elements=[c] * (n // 2))

    @classmethod
    def of(cls, n: int, struct: "ir.Value") -> "Accumulator":
        """The accumulator held by an LLVM struct value (a loop's carried
        value or result)."""
        if struct.type != cls.struct_type(n):
            raise BuildError(f"Accumulator.of: {struct.type} is not the m64n{n} accumulator")
        return cls(n, struct=struct)

    @property
    def value(self) -> "ir.Value":
        """The accumulator as its LLVM struct (built once)."""
        if self._dirty:
            s = self._struct
            if s is None:
                s = ir.op("llvm.mlir.undef", [], [self.type])
            for i in range(self.size):
                s = ir.op("llvm.insertvalue", [s, self._elements[i]], [self.type],
                          properties=f"{{position = array<i64: {i}>}}")
            self._struct = s
            self._dirty = False
        return self._struct

    def __getitem__(self, i: int) -> "ir.Value":
        if not 0 <= i < self.size:
            raise BuildError(f"Accumulator: element {i} of {self.size}")
        if i not in self._elements:
            self._elements[i] = ir.op("llvm.extractvalue", [self._struct], [T.f32],
                                      properties=f"{{position = array<i64: {i}>}}")
        return self._elements[i]

    def elements(self) -> List["ir.Value"]:
        return [self[i] for i in range(self.size)]

    def map(self, fn: Callable[[int, "ir.Value"], "ir.Value"]) -> "Accumulator":
        """A new accumulator of fn(i, element i)."""
        return Accumulator(self.n, elements=[fn(i, self[i]) for i in range(self.size)])

    # Fragment layout.
    @staticmethod
    def half(i: int) -> int:
        """0 if element i lies in the thread's first row (16 w + l / 4), 1 if
        in its second (8 rows below)."""
        return (i // 2) & 1

    @staticmethod
    def column(i: int) -> int:
        """Element i's column minus 2 (l mod 4): 8 (i / 4) + (i mod 2)."""
        return 8 * (i // 4) + (i & 1)

    def row_indices(self, half: int) -> List[int]:
        return [i for i in range(self.size) if self.half(i) == half]

    def row_reduce(self, half: int, combine: Callable[["ir.Value", "ir.Value"], "ir.Value"],
                   values: Optional[Sequence["ir.Value"]] = None) -> "ir.Value":
        """`combine` over the thread's elements of row `half` (or over
        `values`, indexed like the elements) and then over the four lanes
        holding that row (shuffles with lane ^ 1 and lane ^ 2)."""
        vals = [values[i] if values is not None else self[i] for i in self.row_indices(half)]
        acc = vals[0]
        for v in vals[1:]:
            acc = combine(acc, v)
        return quad_reduce(acc, combine)

    def bf16_pairs(self) -> List["ir.Value"]:
        """Elements (2j, 2j + 1) rounded to a bf16x2 word each (cvt.rn)."""
        return [common.pack_bf16x2(self[2 * j], self[2 * j + 1]) for j in range(self.size // 2)]


def quad_reduce(x: "ir.Value", combine: Callable[["ir.Value", "ir.Value"], "ir.Value"]
                ) -> "ir.Value":
    """`combine` over the four lanes 4 q .. 4 q + 3 (one accumulator row)."""
    x = combine(x, common.shfl_xor(x, 1))
    return combine(x, common.shfl_xor(x, 2))


# --- wgmma ---------------------------------------------------------------------

def fence() -> None:
    """wgmma.fence: the accumulator registers and shared memory written
    before it are what the next wgmma read."""
    ir.op("nvvm.wgmma.fence.aligned")


def commit_group() -> None:
    """wgmma.commit_group: the wgmma issued since the last commit form a group."""
    ir.op("nvvm.wgmma.commit.group.sync.aligned")


def wait_group(pending: int) -> None:
    """wgmma.wait_group: wait until at most `pending` groups are in flight
    (1: the release lag, the last group still running)."""
    ir.op("nvvm.wgmma.wait.group.sync.aligned", properties=f"{{group = {pending} : i64}}")


def mma_async(acc: Accumulator, a: "ir.Value", b: "ir.Value", *,
              a_layout: Optional[SmemLayout] = None, b_layout: Optional[SmemLayout] = None,
              accumulate: bool = True) -> Accumulator:
    """One wgmma.mma_async m64nNkK (N = acc.n; K 16 for bf16/f16, 32 for
    e4m3/e5m2): acc + A B with A and B given by their matrix descriptors
    (i64) and layouts (bf16 K-major by default; an MN-major B is read
    without a transpose). The 8-bit types mix (e4m3 A with e5m2 B); the
    16-bit ones do not. `accumulate=False` makes the MMA overwrite the
    accumulator (scale-d 0)."""
    a_elem = a_layout.element if a_layout else T.bf16
    b_elem = b_layout.element if b_layout else T.bf16
    a_type, b_type = a_elem.text, b_elem.text
    if a_layout is not None and a_layout.major != "K":
        raise BuildError("mma_async: A from shared memory is read K-major")
    if a_elem.nbytes != b_elem.nbytes or (a_elem.nbytes == 2 and a_type != b_type):
        raise BuildError(f"mma_async: A of {a_elem} and B of {b_elem} make no wgmma "
                         "(bf16 x bf16, f16 x f16, or e4m3/e5m2 x e4m3/e5m2)")
    if b_elem.nbytes == 1 and b_layout is not None and b_layout.major != "K":
        # The PTX ISA: wgmma transposes (reads MN-major) 16-bit operands only.
        raise BuildError(f"mma_async: a B of {b_elem} is read K-major only")
    b_major = b_layout.major if b_layout else "K"
    props = (f"{{layoutA = #nvvm.mma_layout<row>, "
             f"layoutB = #nvvm.mma_layout<{'col' if b_major == 'K' else 'row'}>, "
             "scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, "
             f"scaleD = #nvvm.wgmma_scale_out<{'one' if accumulate else 'zero'}>, "
             f"shape = #nvvm.shape<m = 64, n = {acc.n}, k = {k_step(a_elem)}>, "
             f"typeA = #nvvm.wgmma_type<{_WGMMA_TYPE[a_type]}>, "
             f"typeB = #nvvm.wgmma_type<{_WGMMA_TYPE[b_type]}>, "
             "typeD = #nvvm.wgmma_type<f32>}")
    out = ir.op("nvvm.wgmma.mma_async", [acc.value, a, b], [acc.type], properties=props)
    return Accumulator(acc.n, struct=out)


def mma_tile(acc: Accumulator, a_descs: Sequence["ir.Value"], b_descs: Sequence["ir.Value"],
             *, b_layout: Optional[SmemLayout] = None, overwrite: bool = False,
             a_layout: Optional[SmemLayout] = None) -> Accumulator:
    """The wgmma of a K tile, one per pair of descriptors, between a fence
    and a commit: the group `wait_group` later waits for. With `overwrite`
    the first MMA ignores the accumulator's contents. The layouts give the
    operand types (bf16 by default)."""
    if len(a_descs) != len(b_descs):
        raise BuildError(f"mma_tile: {len(a_descs)} A and {len(b_descs)} B descriptors")
    fence()
    for k, (a, b) in enumerate(zip(a_descs, b_descs)):
        acc = mma_async(acc, a, b, a_layout=a_layout, b_layout=b_layout,
                        accumulate=not (overwrite and k == 0))
    commit_group()
    return acc


# --- stmatrix -------------------------------------------------------------------

def stmatrix_x4(ptr: "ir.Value", words: Sequence["ir.Value"]) -> None:
    """stmatrix.sync.aligned.m8n8.x4.b16: four 8 x 8 b16 matrices from the
    warp's registers (`words`: one bf16x2 i32 per matrix and thread) to the
    rows whose addresses lanes 8 j .. 8 j + 7 give for matrix j (`ptr`: this
    lane's row address, an !llvm.ptr<3>)."""
    if len(words) != 4:
        raise BuildError(f"stmatrix_x4 takes 4 words, got {len(words)}")
    ir.op("nvvm.stmatrix", [ptr] + list(words), properties=(
        "{eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, "
        "shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}"))


class FragmentStore:
    """Where this thread's lane points stmatrix.x4 when a warpgroup writes
    its m64nN accumulator, as bf16, into K-major 128-byte-swizzled 64 x 64
    sub-tiles (the layout TMA stores and wgmma A operands read): for the
    16-column group g, lane l of warp w gives row 16 w + 8 ((l / 8) mod 2)
    + (l mod 8), 16-byte chunk 2 (g mod 4) + l / 16 before the swizzle
    (XOR with the row mod 8 = l mod 8).

    `base` is the shared-memory byte address (index) of the warpgroup's
    first sub-tile; sub-tile s of 64 columns lies at base + s x 8192.
    """

    SUBTILE_BYTES = 64 * 64 * 2

    def __init__(self, base: "ir.Value", warp: "ir.Value", lane: "ir.Value"):
        row = warp * 16 + ((lane >> 3) & 1) * 8 + (lane & 7)
        x = (lane & 7) ^ (lane >> 4)
        row_addr = base + row * 128
        # The address of group g (g mod 4) inside sub-tile 0.
        self._group = [row_addr + (x ^ (2 * g)) * 16 for g in range(4)]

    def address(self, group: int, subtile_offset: Union[int, "ir.Value"] = 0) -> "ir.Value":
        """This lane's address for 16-column group `group` (of the whole
        accumulator: sub-tile group / 4), plus `subtile_offset` bytes (a
        number, or an index value such as the offset of a ring's buffer)."""
        if isinstance(subtile_offset, ir.Value):
            return self._group[group & 3] + (group // 4) * self.SUBTILE_BYTES + subtile_offset
        return self._group[group & 3] + ((group // 4) * self.SUBTILE_BYTES + subtile_offset)

    def store(self, acc: Optional[Accumulator], group: int,
              subtile_offset: Union[int, "ir.Value"] = 0,
              words: Optional[Sequence["ir.Value"]] = None,
              source: Optional[int] = None) -> None:
        """stmatrix of accumulator columns 16 group .. 16 group + 15 as bf16
        (the four words of elements 8 group .. 8 group + 7, or `words`).
        `source`: store the accumulator's 16-column group `source` there
        instead (an epilogue that stages a few sub-tiles of the tile at a
        time, in a buffer smaller than the tile)."""
        if words is None:
            src = group if source is None else source
            words = [common.pack_bf16x2(acc[8 * src + 2 * t], acc[8 * src + 2 * t + 1])
                     for t in range(4)]
        stmatrix_x4(common.smem_ptr(self.address(group, subtile_offset)), words)


def stmatrix_trans(ptr: "ir.Value", words: Sequence["ir.Value"]) -> None:
    """stmatrix.sync.aligned.m8n8.x{1,2,4}.trans.b16: like `stmatrix_x4`
    with 1, 2 or 4 matrices, each stored transposed: row r of matrix j in
    memory (the address lane 8 j + r gives) is column r of the fragment
    (the elements that lanes r / 2, r / 2 + 4, ... hold, element r mod 2 of
    each lane's word)."""
    if len(words) not in (1, 2, 4):
        raise BuildError(f"stmatrix_trans takes 1, 2 or 4 words, got {len(words)}")
    ir.op("nvvm.stmatrix", [ptr] + list(words), properties=(
        "{eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<col>, "
        "shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}"))


class TransposedFragmentStore:
    """Where this thread's lane points stmatrix .trans when a warpgroup
    writes its m64nN accumulator transposed, as bf16: an N x 64 tile whose
    row c is accumulator column c (N any multiple of 8), 128 bytes a row,
    128-byte swizzled (what a TMA box of N rows x 64 bf16 with
    SWIZZLE_128B reads; `base` 1024-byte aligned).

    The 16-column group g of warp w is four 8 x 8 matrices, matrix j the
    accumulator rows 16 w + 8 (j mod 2) .. + 7 by columns 16 g + 8 (j / 2)
    .. + 7 (the thread's word j: elements 8 g + 2 j, 8 g + 2 j + 1); lane l
    gives tile row 16 g + 8 (l / 16) + (l mod 8), 16-byte chunk
    2 w + (l / 8) mod 2 before the swizzle (XOR with the row mod 8 =
    l mod 8). A last group of 8 columns (N mod 16 = 8) is stored with .x2
    (matrices 0 and 1, lanes 0..15)."""

    GROUP_BYTES = 16 * 128   # the tile rows of one 16-column group

    def __init__(self, base: "ir.Value", warp: "ir.Value", lane: "ir.Value"):
        row = ((lane >> 4) & 1) * 8 + (lane & 7)
        chunk = (warp * 2 + ((lane >> 3) & 1)) ^ (lane & 7)
        self._addr = base + row * 128 + chunk * 16

    @staticmethod
    def groups(acc: Accumulator) -> int:
        """The accumulator's column groups (of 16, the last maybe of 8)."""
        return -(-acc.n // 16)

    def address(self, group: int, offset: Union[int, "ir.Value"] = 0) -> "ir.Value":
        """This lane's address for column group `group`, plus `offset` bytes
        (another tile of the same layout)."""
        if isinstance(offset, ir.Value):
            return self._addr + group * self.GROUP_BYTES + offset
        return self._addr + (group * self.GROUP_BYTES + offset)

    def store(self, acc: Accumulator, group: int,
              offset: Union[int, "ir.Value"] = 0) -> None:
        """stmatrix .trans of accumulator columns 16 group .. 16 group + 15
        (or the last 8) as bf16 into tile rows of the same numbers."""
        if not 0 <= group < self.groups(acc):
            raise BuildError(f"TransposedFragmentStore: group {group} of an m64n{acc.n} "
                             f"accumulator ({self.groups(acc)} groups)")
        count = 4 if acc.n - 16 * group >= 16 else 2
        words = [common.pack_bf16x2(acc[8 * group + 2 * t], acc[8 * group + 2 * t + 1])
                 for t in range(count)]
        stmatrix_trans(common.smem_ptr(self.address(group, offset)), words)
