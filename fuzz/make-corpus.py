#!/usr/bin/env python3
"""Seed corpus and dictionary for pipeline-fuzz (docs/robustness.md).

Seeds: every test/**/*.mlir and examples/*.mlir of the source tree, split at
`// -----` like -split-input-file, one file per part (named by content
hash, so that reruns are idempotent). Dictionary: the dialect's op
mnemonics, type and attribute mnemonics and assembly-format keywords read
from the .td files, plus the upstream syntax the kernels use.

usage: make-corpus.py SOURCE_ROOT SEED_DIR DICT_FILE
"""
import hashlib
import pathlib
import re
import sys

UPSTREAM = [
    "module", "attributes", "gpu.container_module", "gpu.module", "gpu.func",
    "kernel", "gpu.return", "gpu.launch", "gpu.thread_id", "gpu.block_id",
    "gpu.barrier", "func.func", "return", "scf.for", "scf.if", "scf.while",
    "scf.yield", "scf.condition", "scf.execute_region", "scf.index_switch",
    "cf.br", "cf.cond_br", "cf.switch", "arith.constant", "arith.addi",
    "arith.cmpi", "index", "i1", "i32", "i64", "f16", "f32", "memref",
    "#gpu.address_space<workgroup>", "#nvvm.target", "iter_args", "step",
    "to", "->", "^bb1", "// -----", "{", "}", "(", ")", "<", ">", ":", ",",
    "=", "%",
]


def seeds(root):
    files = sorted(root.glob("test/**/*.mlir")) + sorted(root.glob("examples/*.mlir"))
    for path in files:
        text = path.read_text(errors="replace")
        for part in re.split(r"^// -----.*$", text, flags=re.M):
            if part.strip():
                yield part.encode()


def keywords(root):
    words = set()
    for td in sorted((root / "include").glob("**/*.td")):
        text = td.read_text()
        words.update("pipeline." + m for m in re.findall(r'Op<"([a-z_]+)"', text))
        words.update(re.findall(r'mnemonic\s*=\s*"([a-z_]+)"', text))
        for fmt in re.findall(r"assemblyFormat\s*=\s*(\[\{.*?\}\]|\"[^\"]*\")", text, re.S):
            words.update(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", fmt))
        # Type and attribute parameters, written `name = value`.
        for params in re.findall(r"let parameters = \(ins(.*?)\);", text, re.S):
            words.update(w + " = " for w in re.findall(r":\$([a-z_]+)", params))
    words.update("!pipeline." + w for w in ("pipeline", "stage", "role", "tile_pipeline"))
    return sorted(words) + UPSTREAM


def main():
    root, seed_dir, dict_file = (pathlib.Path(a) for a in sys.argv[1:4])
    seed_dir.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in seeds(root):
        (seed_dir / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    with open(dict_file, "w") as out:
        for word in dict.fromkeys(keywords(root)):
            escaped = word.replace("\\", "\\\\").replace('"', '\\"')
            out.write(f'"{escaped}"\n')
    print(f"make-corpus: {count} seeds in {seed_dir}, dictionary {dict_file}")


if __name__ == "__main__":
    main()
