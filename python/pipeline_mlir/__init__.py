"""pipeline_mlir: write, check, compile and launch warp-specialized
producer/consumer pipeline kernels from Python.

    import pipeline_mlir as pm

    @pm.kernel
    def copy(src: pm.memref((256, 32), pm.i32), dst: pm.memref((256, 32), pm.i32)):
        ...

    mod = pm.compile(copy, chip="sm_90a")      # PTX + cubin, cached on disk
    mod(src_array, dst_array, grid=1, block=64, smem=576)

See docs/python.md.
"""

from .compiler import (CompiledModule, __version__, cache_dir, check, chips,
                       clear_cache, compile, option_defaults)
from .driver import DeviceArray, TensorMap, device_info, hang_report, zeros
from .dtypes import from_bf16, to_bf16
from . import emulator
from .emulator import EmulationError, HostTensorMap
from .matmul import gemm
from .fp8_gemm import from_e4m3, scaled_mm, to_e4m3
from .attention_fwd import attention
from . import testing
from .errors import (BuildError, CompileError, CudaError, Diagnostic, LaunchError,
                     PipelineError, ToolchainError)
from .ir import (Kernel, Loop, Module, Stage, Value, aligned_offset, as_value, barrier,
                 block_dim, block_id, constant, dynamic_shared_memory, grid_dim, if_,
                 kernel, op, pipeline, pipeline_op, range, subview, thread_id, tile_pipeline,
                 tma_load, tma_prefetch, view, while_loop)
from .types import f8E4M3FN, f8E5M2
from .types import (MemRefType, PipelineType, TensorMapType, bf16, f16, f32, f64, i1,
                    i8, i16, i32, i64, index, memref, smem, tensormap)
