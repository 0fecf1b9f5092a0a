"""The wheel of scripts/build-wheel.py: installed with pip into a fresh
directory, it imports and compiles with no checkout and no build tree on
the path, and it carries its type marker."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap
import zipfile

import pytest

import conftest

ROOT = conftest.ROOT
BUILD = pathlib.Path(os.environ.get("BUILD_DIR", ROOT / "build"))


@pytest.mark.skipif(not (BUILD / "lib" / "libPipelineMLIRCAPI.so").exists(),
                    reason="no built libPipelineMLIRCAPI.so (scripts/build.sh builds it)")
@pytest.mark.skipif(shutil.which("cmake") is None, reason="no cmake")
def test_wheel_installs_and_compiles(tmp_path):
    out = tmp_path / "dist"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "build-wheel.py"), "--no-build",
                    "--build-dir", str(BUILD), "-o", str(out)], check=True,
                   capture_output=True)
    (wheel,) = out.glob("pipeline_mlir-*-py3-none-linux_x86_64.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "pipeline_mlir/py.typed" in names
    assert "pipeline_mlir/_lib/libPipelineMLIRCAPI.so" in names
    assert any(n.endswith(".dist-info/RECORD") for n in names)
    site = tmp_path / "site"
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                          "--target", str(site), str(wheel)], capture_output=True, text=True)
    if pip.returncode != 0 and "No module named pip" in pip.stderr:
        pytest.skip("no pip")
    assert pip.returncode == 0, pip.stderr
    # A fresh interpreter without the user site (which may name a checkout)
    # and with only the installed package on its path, in another directory.
    script = textwrap.dedent("""
        import pathlib, sys
        import pipeline_mlir as pm
        here = pathlib.Path(pm.__file__).resolve()
        assert str(here).startswith(sys.argv[1]), here
        assert (here.parent / "py.typed").exists()
        text = '''
        module attributes {gpu.container_module} {
          gpu.module @m {
            gpu.func @k(%x: memref<4xi32>) kernel {
              %c0 = arith.constant 0 : index
              %v = arith.constant 7 : i32
              memref.store %v, %x[%c0] : memref<4xi32>
              gpu.return
            }
          }
        }
        '''
        mod = pm.compile(pm.Module.from_mlir(text, name="k"), chip="sm_90a", assemble=False)
        assert ".entry k(" in mod.ptx, mod.ptx[:200]
        print("wheel ok")
    """)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PIPELINE_MLIR_CAPI", "BUILD_DIR")}
    env.update(PYTHONPATH=str(site), PIPELINE_MLIR_CACHE="off")
    run = subprocess.run([sys.executable, "-s", "-c", script, str(site.resolve())],
                         cwd=str(tmp_path), env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "wheel ok" in run.stdout
