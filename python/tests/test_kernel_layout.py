"""The kernel's recorded parameter layout (pipeline-legalize-kernel-abi,
docs/lowering.md "Kernel ABI"): what the compiler writes into the PTX, and
the launcher and the emulator passing arguments by it. No GPU needed: the
GPU launcher's packing is called on device arrays that are never
dereferenced."""

import ctypes
import pathlib
import re

import numpy as np
import pytest

import pipeline_mlir as pm
from pipeline_mlir import driver
from pipeline_mlir.compiler import CompiledModule

import dynamic_shapes

ROOT = pathlib.Path(__file__).resolve().parents[2]

DESC = ("!nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, "
        "#gpu.address_space<workgroup>>, swizzle = none, l2promo = none, oob = zero, "
        "interleave = none>")

KINDS = f"""
!desc = {DESC}
module attributes {{gpu.container_module}} {{
gpu.module @m {{
  gpu.func @k(%a: i1, %b: i8, %c: i16, %d: memref<?x32xf32>, %e: memref<4xf32>,
              %t: !desc, %n: i2) kernel {{
    gpu.return
  }}
}}
}}
"""


def _compiled(text):
    return pm.compile(text, chip="sm_90a", assemble=False)


def _params(layout):
    return [(p.arg, p.kind, p.field, p.dim, p.bits, p.offset, p.size, p.align)
            for p in layout.params]


def test_record_describes_each_parameter():
    layout = _compiled(KINDS).kernel("k").layout
    assert layout.recorded and layout.nbytes == 73
    assert [(a.kind, a.rank, a.type) for a in layout.args] == [
        ("scalar", -1, "i1"), ("scalar", -1, "i8"), ("scalar", -1, "i16"),
        ("memref", 2, "memref<?x32xf32>"), ("memref", 1, "memref<4xf32>"),
        ("tensormap", -1, DESC), ("scalar", -1, "i2")]
    assert _params(layout) == [
        (0, "scalar", "", -1, 1, 0, 1, 1),
        (1, "scalar", "", -1, 8, 1, 1, 1),
        (2, "scalar", "", -1, 16, 2, 2, 2),
        (3, "memref", "ptr", -1, 0, 8, 8, 8),
        (3, "memref", "offset", -1, 0, 16, 8, 8),
        (3, "memref", "size", 0, 0, 24, 8, 8),
        (3, "memref", "size", 1, 0, 32, 8, 8),
        (3, "memref", "stride", 0, 0, 40, 8, 8),
        (3, "memref", "stride", 1, 0, 48, 8, 8),
        (4, "memref", "ptr", -1, 0, 56, 8, 8),
        (5, "tensormap", "", -1, 0, 64, 8, 8),
        # Widened: two bits in one byte.
        (6, "scalar", "", -1, 2, 72, 1, 1)]


def _entry_params(ptx):
    """{kernel: [(size, align)]} of the `.param` declarations of each
    `.entry` of `ptx`."""
    entries = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\((.*?)\)", ptx, re.S):
        params = []
        for decl in filter(None, (d.strip() for d in m.group(2).split(","))):
            array = re.match(r"\.param\s+\.align\s+(\d+)\s+\.b8\s+\w+\[(\d+)\]", decl)
            if array:
                params.append((int(array.group(2)), int(array.group(1))))
            else:
                bits = int(re.match(r"\.param\s+\.[bsuf](\d+)", decl).group(1))
                params.append((bits // 8, bits // 8))
        entries[m.group(1)] = params
    return entries


def test_record_matches_the_ptx_parameters():
    # Every parameter type of the kernel ABI's table: the record's size and
    # alignment are those of the `.param` NVPTX declares, in order.
    text = (ROOT / "test" / "Tools" / "pipeline-compile" /
            "kernel-parameter-types.mlir").read_text()
    ptx = _compiled(text).ptx
    entries = _entry_params(ptx)
    assert len(entries) > 40
    for name, params in entries.items():
        layout = driver.kernel_layout(ptx, name)
        assert layout is not None, name
        assert [(p.size, p.align) for p in layout.params] == params, name
        assert layout.nbytes == layout.params[-1].offset + layout.params[-1].size


def test_layout_constants_match_the_header():
    header = (ROOT / "include" / "pipeline-c" / "KernelLayout.h").read_text()
    prefix = re.search(r'#define PMLIR_KERNEL_LAYOUT_PREFIX "(\w+)"', header).group(1)
    version = int(re.search(r"#define PMLIR_KERNEL_LAYOUT_VERSION (\d+)", header).group(1))
    assert (driver.LAYOUT_PREFIX, driver.LAYOUT_VERSION) == (prefix, version)


def test_missing_argument_names_its_parameters():
    k = _compiled(dynamic_shapes.scale_rows).kernel()
    src, dst = np.zeros((10, 4), np.int32), np.zeros(10, np.int32)
    with pytest.raises(pm.LaunchError, match=re.escape(
            "kernel scale_rows takes 3 arguments (src, dst, factor), got 2; missing "
            "factor (i32: parameter #10, 4 bytes at offset 80)")):
        k(src, dst, block=128)
    with pytest.raises(pm.LaunchError, match=re.escape(
            "got 1; missing dst (memref<?xi32>: parameters #6 to #9, 32 bytes at offset "
            "48); factor (i32: parameter #10")):
        k.emulate(src, block=128)


def _record_ptx(name, text):
    """PTX holding `text` as the layout record of kernel `name`."""
    data = text.encode() + b"\0"
    return (f".visible .global .align 1 .b8 {driver.LAYOUT_PREFIX}{name}[{len(data)}] = "
            "{" + ", ".join(str(b) for b in data) + "};\n")


RECORD = ("abi version=1 args=2 params=2 bytes=10\n"
          "arg 0 kind=memref rank=1 type=memref<?xi32>\n"
          "param 0 arg=0 kind=memref field=ptr offset=0 size=8 align=8\n"
          "arg 1 kind=scalar type=i16\n"
          "param 1 arg=1 kind=scalar bits=16 offset=8 size=2 align=2\n")


def test_record_and_signature_must_agree():
    # The launcher passes arguments by the record; a signature that does
    # not describe the same arguments is refused, naming the argument.
    def kernel(params, record=RECORD):
        return CompiledModule("m", _record_ptx("k", record), None, "sm_90a",
                              {"k": params}).kernel()
    x = np.zeros(4, np.int32)
    with pytest.raises(pm.LaunchError, match=re.escape(
            "kernel k: its recorded parameter layout has 2 arguments (memref<?xi32>, "
            "i16), its signature 1 (x)")):
        kernel([("x", pm.memref((None,), pm.i32))])(x, block=32)
    with pytest.raises(pm.LaunchError, match=re.escape(
            "kernel k (emulated): argument n is i32 in the signature, i16: parameter #1, "
            "2 bytes at "
            "offset 8 in the compiled kernel's recorded parameter layout")):
        kernel([("x", pm.memref((None,), pm.i32)), ("n", pm.i32)]).emulate(x, 1, block=32)
    with pytest.raises(pm.LaunchError, match=r"kernel k: its recorded parameter layout "
                                             r"\(__pipeline_mlir_abi_k\): version 2; this "
                                             r"launcher reads 1"):
        kernel([("x", pm.memref((None,), pm.i32)), ("n", pm.i16)],
               RECORD.replace("version=1", "version=2"))(x, 1, block=32)


class _DeviceArray:
    """An array in GPU memory as __cuda_array_interface__ shows it (never
    dereferenced: the packing only reads its address and shape)."""

    def __init__(self, ptr, shape, dtype):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": np.dtype(dtype).str,
                                         "data": (ptr, False), "version": 3,
                                         "strides": None}


def _pack(kernel, index, arg):
    pname, ptype = kernel.params[index]
    values = kernel._argument("kernel k", pname, ptype, arg, [], [],
                              kernel.layout.args[index])
    return [bytes(v) for v in values]


def _u64(*values):
    return [int(v).to_bytes(8, "little", signed=True) for v in values]


def test_arguments_are_packed_by_the_record():
    k = _compiled(KINDS).kernel("k")
    assert _pack(k, 0, True) == [b"\x01"]
    assert _pack(k, 1, -3) == [b"\xfd"]
    assert _pack(k, 2, -2) == [b"\xfe\xff"]
    # The dynamic memref: pointer, offset 0, sizes and row-major strides.
    assert _pack(k, 3, _DeviceArray(0x1000, (7, 32), np.float32)) == \
        _u64(0x1000, 0, 7, 32, 32, 1)
    assert _pack(k, 4, _DeviceArray(0x2000, (4,), np.float32)) == _u64(0x2000)
    # An i2 of MLIR text (a type the signature only spells): its two bits
    # in the byte the record gives it.
    assert _pack(k, 6, 1) == [b"\x01"]
    assert _pack(k, 6, -1) == [b"\x03"]
    assert _pack(k, 6, 2) == [b"\x02"]
    with pytest.raises(pm.LaunchError, match="argument n = 4 does not fit i2"):
        _pack(k, 6, 4)


def test_record_decides_the_parameters():
    # The parameters follow the record, not the signature: a record that
    # passes the memref as one pointer gets one pointer.
    layout = driver.parse_kernel_layout(RECORD)
    vec = pm.memref((None,), pm.i32)
    got = driver.memref_params(vec, 0x3000, (5,), layout.args[0])
    assert [v.value for v in got] == [0x3000]
    assert [v.value for v in driver.memref_params(vec, 0x3000, (5,))] == [0x3000, 0, 5, 1]
    k = CompiledModule("m", _record_ptx("k", RECORD), None, "sm_90a",
                       {"k": [("x", vec), ("n", pm.i16)]}).kernel()
    assert _pack(k, 0, _DeviceArray(0x3000, (5,), np.int32)) == _u64(0x3000)
    assert _pack(k, 1, 7) == [b"\x07\x00"]


def test_pointer_parameter_takes_an_address():
    # An `!llvm.ptr` parameter takes an address; a 64-bit integer of the
    # signature may stand for it (a pointer is 64 bits in the kernel ABI).
    from pipeline_mlir import types as T
    record = ("abi version=1 args=1 params=1 bytes=8\n"
              "arg 0 kind=pointer type=!llvm.ptr\n"
              "param 0 arg=0 kind=pointer offset=0 size=8 align=8\n")
    for ptype in (T.OpaqueType("!llvm.ptr"), pm.i64):
        k = CompiledModule("m", _record_ptx("k", record), None, "sm_90a",
                           {"k": [("p", ptype)]}).kernel()
        driver.check_layout("kernel k", k.layout, k.params)
        assert _pack(k, 0, 0x1234) == _u64(0x1234)
    with pytest.raises(pm.LaunchError, match=r"argument p is a pointer \(!llvm.ptr\): pass "
                                             r"an address \(an int\) or a pm.TensorMap, "
                                             r"got str"):
        k = CompiledModule("m", _record_ptx("k", record), None, "sm_90a",
                           {"k": [("p", T.OpaqueType("!llvm.ptr"))]}).kernel()
        _pack(k, 0, "0x1234")
    k = CompiledModule("m", _record_ptx("k", record), None, "sm_90a",
                       {"k": [("p", pm.i32)]}).kernel()
    with pytest.raises(pm.LaunchError, match=r"argument p is i32 in the signature, "
                                             r"!llvm.ptr: parameter #0"):
        driver.check_layout("kernel k", k.layout, k.params)


def test_malformed_record_is_refused():
    for text, match in [
            ("arg 0 kind=scalar type=i8\n", "expects the 'abi' line first"),
            (RECORD.replace("param 1 arg=1", "param 1 arg=0"), "expects arg 2 or param 1"),
            (RECORD.replace("args=2", "args=3"), "expects 3 arguments and 2 parameters"),
            (RECORD.replace("size=2", "size=two"), "expects key=N fields")]:
        with pytest.raises(ValueError, match=match):
            driver.parse_kernel_layout(text)


def test_emulation_passes_arguments_by_the_record():
    # The emulator runs the PTX with the parameters the record lays out;
    # without the record (PTX of an older compiler) the signature's layout
    # gives the same parameters and the same result.
    compiled = _compiled(dynamic_shapes.scale_rows)
    assert compiled.kernel().layout.recorded
    stripped = re.sub(r"^.*" + driver.LAYOUT_PREFIX + r".*\n", "", compiled.ptx, flags=re.M)
    assert driver.kernel_layout(stripped, "scale_rows") is None
    old = CompiledModule(compiled.name, stripped, None, compiled.chip, compiled.signatures)
    assert not old.kernel().layout.recorded
    assert _params(old.kernel().layout) == _params(compiled.kernel().layout)
    src = np.arange(40, dtype=np.int32).reshape(10, 4)
    for module in (compiled, old):
        dst = np.zeros(10, np.int32)
        module.kernel().emulate(src, dst, 3, block=128)
        assert np.array_equal(dst, 3 * (src[:, 0] + src[:, 3]))


def test_signature_layout_is_the_compilers():
    # The fallback for PTX without the record lays out the builder's types
    # as the compiler does.
    k = _compiled(dynamic_shapes.scale_rows).kernel()
    assert _params(driver.signature_layout(k.params)) == _params(k.layout)
    assert k.layout.nbytes == driver.signature_layout(k.params).nbytes == 84
