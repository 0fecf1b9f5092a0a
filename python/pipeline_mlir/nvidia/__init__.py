"""The typed NVIDIA layer under the builder: `common` (registers, named
barriers, fences, shuffles, addresses, bulk copies), `hopper` (wgmma
accumulators, shared-memory layouts and descriptors, stmatrix) and
`blackwell` (tcgen05 MMAs, tensor memory). Kernels call these instead of
spelling NVVM ops; each encoding is written once, here."""

from . import blackwell, common, hopper  # noqa: F401
