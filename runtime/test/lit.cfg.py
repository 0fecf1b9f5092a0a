# -*- Python -*-
# The host runtime's tests (runtime/test). Without the CUDA toolkit the
# runtime is not built and every test is UNSUPPORTED.
import os
import shutil
import subprocess

import lit.formats
from lit.llvm import llvm_config

config.name = "PIPELINE-RUNTIME"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.runtime_obj_root
config.excludes = ["lit.cfg.py", "lit.site.cfg.py", "CMakeLists.txt", "Inputs"]

llvm_config.with_system_environment(["HOME", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
llvm_config.add_tool_substitutions(["not"], [config.llvm_tools_dir])

if config.pmrt_check and os.path.exists(config.pmrt_check):
    config.available_features.add("pmrt")
    config.substitutions.append(("%pmrt_check", config.pmrt_check))
    config.substitutions.append(("%cuda_stubs", config.cuda_stubs_dir))

# The compiler of the same build (<build>/bin, two levels above this
# suite's <build>/runtime/test), for the tests of what it records.
_compile = os.path.join(config.runtime_obj_root, os.pardir, os.pardir, "bin",
                        "pipeline-compile")
if os.path.exists(_compile):
    config.available_features.add("pipeline-compile")
    config.substitutions.append(("%pipeline_compile", os.path.normpath(_compile)))


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
