"""The package's showcase kernels, each a program of the builder (see
python/pipeline_mlir/ir.py) on the NVIDIA layer (python/pipeline_mlir/nvidia/)."""
