"""MLIR types as Python objects: scalars, memrefs, pipeline types, TMA
descriptors. Each knows its MLIR spelling (`str(t)`)."""

import re

from .errors import BuildError


class Type:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"<type {self.text}>"

    def __eq__(self, other):
        return isinstance(other, Type) and self.text == other.text

    def __hash__(self):
        return hash(self.text)


class ScalarType(Type):
    def __init__(self, text, bits, kind, numpy_dtype):
        super().__init__(text)
        self.bits = bits
        self.kind = kind  # "int", "float", "index"
        self.numpy_dtype = numpy_dtype

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def nbytes(self):
        return max(1, self.bits // 8)

    def __call__(self, value):
        """A typed scalar kernel argument, e.g. i32(7)."""
        return TypedScalar(self, value)


class TypedScalar:
    def __init__(self, type, value):
        self.type = type
        self.value = value


i1 = ScalarType("i1", 1, "int", "bool")
i8 = ScalarType("i8", 8, "int", "int8")
i16 = ScalarType("i16", 16, "int", "int16")
i32 = ScalarType("i32", 32, "int", "int32")
i64 = ScalarType("i64", 64, "int", "int64")
index = ScalarType("index", 64, "index", "int64")
f16 = ScalarType("f16", 16, "float", "float16")
bf16 = ScalarType("bf16", 16, "float", "bfloat16")
f32 = ScalarType("f32", 32, "float", "float32")
f64 = ScalarType("f64", 64, "float", "float64")
#: The 8-bit floats of the FP8 tensor-core operands (OCP E4M3 without
#: infinities, E5M2); numpy holds their bits as uint8.
f8E4M3FN = ScalarType("f8E4M3FN", 8, "float", "uint8")
f8E5M2 = ScalarType("f8E5M2", 8, "float", "uint8")

SCALARS = {t.text: t for t in (i1, i8, i16, i32, i64, index, f16, bf16, f32, f64, f8E4M3FN,
                               f8E5M2)}

#: The shared-memory address space.
smem = "workgroup"


class MemRefType(Type):
    def __init__(self, shape, element, space=None, layout=None):
        shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
        for d in shape:
            if not (d is None or (isinstance(d, int) and d >= 0)):
                raise BuildError(f"memref dimensions are non-negative ints or None, got {shape}")
        if isinstance(element, str):
            element = SCALARS[element]
        self.shape = shape
        self.element = element
        self.space = space
        self.layout = layout
        dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
        text = f"memref<{dims}{element}"
        if layout:
            text += f", {layout}"
        if space:
            text += f", #gpu.address_space<{space}>"
        super().__init__(text + ">")

    @property
    def rank(self):
        return len(self.shape)

    @property
    def static(self):
        return all(d is not None for d in self.shape) and self.layout is None

    @property
    def num_elements(self):
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def nbytes(self):
        return self.num_elements * self.element.nbytes


def memref(shape, element, space=None):
    """memref<shape x element [, #gpu.address_space<space>]>."""
    return MemRefType(shape, element, space)


class PipelineType(Type):
    def __init__(self, stages, producer_sub_stages=1, consumer_sub_stages=1,
                 cta_group=1, release_ctas=1, consumer_depth=1,
                 cluster_m=1, cluster_n=1, tmem=False, clc=False):
        self.stages = stages
        self.producer_sub_stages = producer_sub_stages
        self.consumer_sub_stages = consumer_sub_stages
        params = [f"stages = {stages}"]
        for name, value in (("producer_sub_stages", producer_sub_stages),
                            ("consumer_sub_stages", consumer_sub_stages),
                            ("cta_group", cta_group), ("release_ctas", release_ctas),
                            ("consumer_depth", consumer_depth),
                            ("tmem", tmem), ("clc", clc),
                            ("cluster_m", cluster_m), ("cluster_n", cluster_n)):
            if value is True:  # the bool parameters (tmem, clc)
                params.append(f"{name} = true")
            elif value is not False and value != 1:
                params.append(f"{name} = {value}")
        super().__init__(f"!pipeline.pipeline<{', '.join(params)}>")


class TilePipelineType(Type):
    def __init__(self, pipeline, k_group_size, payload):
        self.pipeline = pipeline
        self.k_group_size = k_group_size
        self.payload = list(payload)
        text = (f"!pipeline.tile_pipeline<pipeline = {pipeline}, k_group_size = "
                f"{k_group_size}, payload = [{', '.join(str(t) for t in self.payload)}]>")
        super().__init__(text)


class StageType(Type):
    def __init__(self, role, pipeline):
        self.role = role
        self.pipeline = pipeline
        super().__init__(f"!pipeline.stage<{role}, {pipeline}>")


class TensorMapType(Type):
    """!nvgpu.tensormap.descriptor: a TMA descriptor kernel argument. The
    tile is a shared-memory memref type (the box)."""

    SWIZZLES = ("none", "swizzle_32b", "swizzle_64b", "swizzle_128b")

    def __init__(self, tile, swizzle="none", l2promo="none", oob="zero",
                 interleave="none"):
        if swizzle not in self.SWIZZLES:
            raise BuildError(f"swizzle must be one of {self.SWIZZLES}, got {swizzle!r}")
        self.tile = tile
        self.swizzle = swizzle
        self.l2promo = l2promo
        self.oob = oob
        self.interleave = interleave
        super().__init__(
            f"!nvgpu.tensormap.descriptor<tensor = {tile}, swizzle = {swizzle}, "
            f"l2promo = {l2promo}, oob = {oob}, interleave = {interleave}>")


def tensormap(tile, swizzle="none", l2promo="none", oob="zero", interleave="none"):
    return TensorMapType(tile, swizzle, l2promo, oob, interleave)


class MbarGroupType(Type):
    def __init__(self, num_barriers):
        super().__init__(
            f"!nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, "
            f"num_barriers = {num_barriers}>")


class OpaqueType(Type):
    """A type known only by its spelling (from parsed MLIR text)."""


# --- Parsing the few types a kernel signature may hold (for modules given
# as MLIR text, whose signatures the launcher still checks).

_MEMREF = re.compile(r"^memref<((?:[0-9?]+x)*)([a-z0-9]+)(.*)>$")


def parse_type(text):
    text = text.strip()
    if text in SCALARS:
        return SCALARS[text]
    m = _MEMREF.match(text)
    if m:
        dims = [None if d == "?" else int(d) for d in m.group(1).split("x") if d]
        rest = m.group(3)
        space = None
        sm = re.search(r"#gpu\.address_space<(\w+)>", rest)
        if sm:
            space = sm.group(1)
        layout = None
        if "strided" in rest or "affine_map" in rest:
            layout = "?"
        t = MemRefType(dims, SCALARS.get(m.group(2), m.group(2)) if m.group(2) in SCALARS
                       else OpaqueType(m.group(2)), space)
        t.layout = layout
        return t
    if text.startswith("!nvgpu.tensormap.descriptor"):
        m = re.search(r"tensor\s*=\s*(memref<[^>]*>)", text)
        sw = re.search(r"swizzle\s*=\s*(\w+)", text)
        if m:
            return TensorMapType(parse_type(m.group(1)), sw.group(1) if sw else "none")
        t = OpaqueType(text)
        t.kind = "tensormap"
        return t
    return OpaqueType(text)
