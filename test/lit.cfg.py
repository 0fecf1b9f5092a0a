# -*- Python -*-
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PIPELINE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".c", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pipeline_obj_root, "test")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%pipeline_src_root", config.pipeline_src_root))
config.substitutions.append(("%examples", os.path.join(config.pipeline_src_root, "examples")))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

tool_dirs = [config.pipeline_tools_dir, config.llvm_tools_dir]
tools = ["pipeline-opt", "pipeline-compile", "pipeline-sim", "pipeline-sim-unittests", "pipeline-capi-test", "pipeline-lsp-server", "not"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# Upstream mlir-opt of the LLVM 22 prefix (never another version's) and the
# project's plugin for it (test/Tools/mlir-opt-plugin).
llvm_config.add_tool_substitutions(
    [ToolSubst("mlir-opt", command=os.path.join(config.llvm_tools_dir, "mlir-opt"))])
config.substitutions.append(
    ("%pipeline_plugin",
     os.path.join(config.pipeline_obj_root, "lib", "PipelineMLIRPlugin.so")))

# The CUDA toolkit, by the one rule of pipeline-mlir (docs/cli.md): the lit
# parameter cuda_path (--param cuda_path=DIR), else CMake's
# PIPELINE_CUDA_PATH, else $CUDA_HOME, else $CUDA_PATH, else
# /usr/local/cuda (empty values are skipped). Tests get it as %cuda_path and
# pass it on with --cuda-path / cuda-path=; they run without CUDA_HOME and
# CUDA_PATH, so nothing falls back to /usr/local/cuda behind their back.
# PTX tests that assemble with ptxas REQUIRE: ptxas.
for source, value in (
    ("lit parameter cuda_path", lit_config.params.get("cuda_path")),
    ("PIPELINE_CUDA_PATH", config.cuda_path),
    ("CUDA_HOME", os.environ.get("CUDA_HOME")),
    ("CUDA_PATH", os.environ.get("CUDA_PATH")),
    ("the default", "/usr/local/cuda"),
):
    if value:
        cuda_path, cuda_path_source = value, source
        break
for var in ("CUDA_HOME", "CUDA_PATH"):
    config.environment.pop(var, None)
config.substitutions.append(("%cuda_path", cuda_path))
ptxas = os.path.join(cuda_path, "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
    lit_config.note("CUDA toolkit: %s (from %s)" % (cuda_path, cuda_path_source))
else:
    lit_config.note("no ptxas in the CUDA toolkit %s (from %s): PTX tests "
                    "that assemble are UNSUPPORTED" % (cuda_path, cuda_path_source))

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

# sanitizer: the project's code is built with ASan/UBSan (build-asan); an
# instrumented plugin cannot be loaded by the uninstrumented upstream
# mlir-opt, so the plugin tests are UNSUPPORTED there.
if getattr(config, "pipeline_sanitize", ""):
    config.available_features.add("sanitizer")

# The install check builds a separate CMake project; it is not a lit test.
config.excludes.append("Install")
