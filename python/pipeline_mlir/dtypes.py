"""bf16 without third-party dtypes: numpy holds bf16 data as uint16 bit
patterns. to_bf16 rounds float32 to nearest even; from_bf16 widens."""

import numpy as np


def to_bf16(x):
    """float array -> uint16 array of bf16 bit patterns (round to nearest
    even; NaN stays NaN)."""
    f = np.ascontiguousarray(x, dtype=np.float32)
    u = f.view(np.uint32)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(f)
    if nan.any():
        rounded[nan] = 0x7FC0
    return rounded


def from_bf16(u):
    """uint16 array of bf16 bit patterns -> float32 array."""
    u = np.ascontiguousarray(u, dtype=np.uint16)
    return (u.astype(np.uint32) << 16).view(np.float32)


# MLIR element type -> the numpy dtype that holds it.
NUMPY = {
    "i8": np.dtype(np.int8), "i16": np.dtype(np.int16), "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64), "index": np.dtype(np.int64),
    "f16": np.dtype(np.float16), "bf16": np.dtype(np.uint16),
    "f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
}

# MLIR element type -> (DLPack code, bits). Codes: 0 int, 1 uint, 2 float, 4 bfloat.
DLPACK = {
    "i8": ((0, 8), (1, 8)), "i16": ((0, 16), (1, 16)), "i32": ((0, 32), (1, 32)),
    "i64": ((0, 64), (1, 64)), "index": ((0, 64),), "f16": ((2, 16),),
    "bf16": ((4, 16),), "f32": ((2, 32),), "f64": ((2, 64),),
}
