#!/usr/bin/env python3
"""Builds the Python package as a wheel: dist/pipeline_mlir-<version>-py3-none-
linux_x86_64.whl, with the package's modules, its type marker (py.typed) and the
compiler library it loads (libPipelineMLIRCAPI.so, in pipeline_mlir/_lib).

    scripts/build-wheel.py [--build-dir build] [-o dist]
    /usr/bin/python3 -m pip install --user dist/pipeline_mlir-*.whl
    # or: pip install --target DIR ..., or unzip it into a directory on sys.path

It builds the library first (cmake --build), then installs the `python`
component of the build (cmake --install --component python: the package and
the library with a relocatable RUNPATH: $ORIGIN and LLVM's library directory)
into a temporary prefix and zips it. The library links Debian's LLVM/MLIR 22
(libmlir-22, llvm-22): the machine that installs the wheel needs those
packages to compile; a machine that only launches kernels found in the compile
cache needs neither (nor the wheel's library). The CUDA toolkit is found at run
time as by pipeline-compile (docs/cli.md). Uses only the standard library.
"""

import argparse
import base64
import hashlib
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
TAG = "py3-none-linux_x86_64"


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    m = re.search(r"project\([^)]*VERSION\s+([0-9.]+)", text)
    if not m:
        raise SystemExit("build-wheel: no project(... VERSION ...) in CMakeLists.txt")
    return m.group(1)


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default=os.environ.get("BUILD_DIR", str(ROOT / "build")))
    ap.add_argument("-o", "--out", default=str(ROOT / "dist"))
    ap.add_argument("--no-build", action="store_true",
                    help="use the library already built in the build directory")
    args = ap.parse_args()
    build = pathlib.Path(args.build_dir)
    if not (build / "build.ninja").exists() and not (build / "Makefile").exists():
        raise SystemExit(f"build-wheel: {build} is not a configured build directory: run "
                         "scripts/build.sh first")
    if not args.no_build:
        subprocess.run(["cmake", "--build", str(build), "--target", "PipelineMLIRCAPI"],
                       check=True)
    ver = version()
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["cmake", "--install", str(build), "--prefix", tmp, "--component",
                        "python"], check=True, stdout=subprocess.DEVNULL)
        prefix = pathlib.Path(tmp)
        package = prefix / "python" / "pipeline_mlir"
        libs = sorted((prefix / "lib").glob("libPipelineMLIRCAPI.so.*"))
        real = [p for p in libs if not p.is_symlink()]
        if not package.is_dir() or len(real) != 1:
            raise SystemExit(f"build-wheel: the install of {build} has no package or no "
                             "libPipelineMLIRCAPI.so")
        files = []
        for path in sorted(package.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                files.append((f"pipeline_mlir/{path.relative_to(package).as_posix()}",
                              path.read_bytes()))
        files.append(("pipeline_mlir/_lib/libPipelineMLIRCAPI.so", real[0].read_bytes()))
    info = f"pipeline_mlir-{ver}.dist-info"
    metadata = (f"Metadata-Version: 2.1\nName: pipeline-mlir\nVersion: {ver}\n"
                "Summary: An MLIR dialect and lowering for warp-specialized GPU "
                "producer/consumer pipelines: build, check, compile and launch kernels "
                "from Python\nRequires-Python: >=3.9\nRequires-Dist: numpy\n")
    wheel = f"Wheel-Version: 1.0\nGenerator: pipeline-mlir build-wheel\nRoot-Is-Purelib: false\nTag: {TAG}\n"
    files += [(f"{info}/METADATA", metadata.encode()), (f"{info}/WHEEL", wheel.encode()),
              (f"{info}/top_level.txt", b"pipeline_mlir\n")]
    record = [record_line(n, d) for n, d in files] + [f"{info}/RECORD,,"]
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    target = out / f"pipeline_mlir-{ver}-{TAG}.whl"
    partial = target.with_suffix(".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (0o755 if name.endswith(".so") else 0o644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(entry, data)
    shutil.move(partial, target)
    print(f"build-wheel: {target} ({target.stat().st_size // 1024} KiB, {len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
