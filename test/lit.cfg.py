# -*- Python -*-
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PIPELINE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pipeline_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%pipeline_src_root", config.pipeline_src_root))
config.substitutions.append(("%examples", os.path.join(config.pipeline_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.pipeline_tools_dir, config.llvm_tools_dir]
tools = ["pipeline-opt", "pipeline-compile", "pipeline-capi-test", "pipeline-lsp-server", "not"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Upstream mlir-opt of the LLVM 22 prefix (never another version's) and the
# project's plugin for it (test/Tools/mlir-opt-plugin).
llvm_config.add_tool_substitutions(
    [ToolSubst("mlir-opt", command=os.path.join(config.llvm_tools_dir, "mlir-opt"))])
config.substitutions.append(
    ("%pipeline_plugin",
     os.path.join(config.pipeline_obj_root, "lib", "PipelineMLIRPlugin.so")))

# ptxas: PTX tests that assemble with ptxas need the CUDA toolkit.
cuda_path = config.cuda_path or os.environ.get("CUDA_HOME", "/usr/local/cuda")
ptxas = os.path.join(cuda_path, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    config.substitutions.append(("%cuda_path", cuda_path))

# cuda-gpu: runtime tests need a GPU; CI machines have none, so those tests
# report UNSUPPORTED instead of passing.
def _has_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        return subprocess.run([smi, "-L"], capture_output=True, timeout=20).returncode == 0
    except Exception:
        return False

if _has_gpu():
    config.available_features.add("cuda-gpu")

# The install check builds a separate CMake project; it is not a lit test.
config.excludes.append("Install")
