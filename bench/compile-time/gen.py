#!/usr/bin/env python3
"""Generates a kernel file of N small warp-specialized pipeline kernels for
the compile-time benchmark (docs/benchmarks.md, "Compile time").

Every kernel is a producer/consumer ring like examples/warp_specialized.mlir:
warp 0 produces rows into an S-stage shared-memory ring with
pipeline.produce, warp 1 consumes them with pipeline.consume; the stage
count (2, 3, 4, 8) and the row count vary from kernel to kernel, so that the
checks, the stage unrolling and the lowering all do their work on every
kernel. The file verifies and compiles as is.

Two kernels (--kernel): `ring` (the default) as above; `store`, the
smallest kernel there is (a gpu.func that stores its thread id), where the
upstream passes dominate the time.

Three shapes:

  modules   one builtin.module holding N gpu.modules of one kernel each
  funcs     one gpu.module holding N kernels
  triplets  one kernel of straight-line code (--kernel is ignored): warp 0
            runs N acquire_producer / arrive / release triplets, warp 1 N
            consume regions, on one 4-stage pipeline of a 64-thread CTA;
            the size of the one kernel the checkers see grows with N

Usage: gen.py SHAPE N [--kernel ring|store] > out.mlir
"""

import sys

STAGES = (2, 3, 4, 8)

KERNEL = """\
    gpu.func @{name}(%in: memref<{rows}x32xi32>, %out: memref<{rows}x32xi32>) kernel {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %rows = arith.constant {rows} : index
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %lane = arith.remui %tid, %c32 : index
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %p = pipeline.create in %smem[%c0] : memref<?xi8, #gpu.address_space<workgroup>> -> !P{s}
      %bar_bytes = pipeline.smem_bytes !P{s}
      %ring = memref.view %smem[%bar_bytes][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<{s}x32xi32, #gpu.address_space<workgroup>>
      pipeline.init_mbars %p producer 32 consumer 32 : !P{s}
      %is_producer = arith.cmpi eq, %warp, %c0 : index
      scf.if %is_producer {{
        scf.for %row = %c0 to %rows step %c1 {{
          pipeline.produce %p as %stage : !P{s} {{
            %slot = pipeline.index %stage : !pipeline.stage<producer, !P{s}>
            %v = memref.load %in[%row, %lane] : memref<{rows}x32xi32>
            memref.store %v, %ring[%slot, %lane] : memref<{s}x32xi32, #gpu.address_space<workgroup>>
            pipeline.arrive %stage : !pipeline.stage<producer, !P{s}>
          }}
        }}
        pipeline.drain_producer %p : !P{s}
      }} else {{
        scf.for %row = %c0 to %rows step %c1 {{
          pipeline.consume %p as %stage : !P{s} {{
            %slot = pipeline.index %stage : !pipeline.stage<consumer, !P{s}>
            %v = memref.load %ring[%slot, %lane] : memref<{s}x32xi32, #gpu.address_space<workgroup>>
            %w = arith.addi %v, %c1_i32 : i32
            memref.store %w, %out[%row, %lane] : memref<{rows}x32xi32>
          }}
        }}
      }}
      gpu.return
    }}
"""


STORE_KERNEL = """\
    gpu.func @{name}(%out: memref<1024xi32>) kernel {{
      %tid = gpu.thread_id x
      %v = arith.index_cast %tid : index to i32
      memref.store %v, %out[%tid] : memref<1024xi32>
      gpu.return
    }}
"""


def store_kernel(i):
    return STORE_KERNEL.format(name="k%d" % i)


def kernel(i):
    s = STAGES[i % len(STAGES)]
    rows = 256 * (1 + i % 7)
    text = KERNEL.format(name="k%d" % i, rows=rows, s=s)
    # The consumer adds a per-kernel constant, defined in the consume body's
    # function scope: insert it after %c32.
    return text.replace(
        "      %rows =",
        "      %%c1_i32 = arith.constant %d : i32\n      %%rows =" % (i + 1),
        1)


TRIPLETS_HEAD = """\
  gpu.module @kernels {
    gpu.func @triplets(%in: memref<32xi32>, %out: memref<32xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c1_i32 = arith.constant 1 : i32
      %tid = gpu.thread_id x
      %warp = arith.divui %tid, %c32 : index
      %lane = arith.remui %tid, %c32 : index
      %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %p = pipeline.create in %smem[%c0] : memref<?xi8, #gpu.address_space<workgroup>> -> !P4
      %bar_bytes = pipeline.smem_bytes !P4
      %ring = memref.view %smem[%bar_bytes][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x32xi32, #gpu.address_space<workgroup>>
      pipeline.init_mbars %p producer 32 consumer 32 : !P4
      %is_producer = arith.cmpi eq, %warp, %c0 : index
      scf.if %is_producer {
"""

TRIPLET = """\
        %s{i} = pipeline.acquire_producer %p : !P4
        %slot{i} = pipeline.index %s{i} : !pipeline.stage<producer, !P4>
        %v{i} = memref.load %in[%lane] : memref<32xi32>
        memref.store %v{i}, %ring[%slot{i}, %lane] : memref<4x32xi32, #gpu.address_space<workgroup>>
        pipeline.arrive %s{i} : !pipeline.stage<producer, !P4>
        pipeline.release %s{i} : !pipeline.stage<producer, !P4>
"""

TRIPLETS_MID = """\
        pipeline.drain_producer %p : !P4
      } else {
"""

CONSUME = """\
        pipeline.consume %p as %t : !P4 {
          %slot = pipeline.index %t : !pipeline.stage<consumer, !P4>
          %v = memref.load %ring[%slot, %lane] : memref<4x32xi32, #gpu.address_space<workgroup>>
          %w = arith.addi %v, %c1_i32 : i32
          memref.store %w, %out[%lane] : memref<32xi32>
        }
"""

TRIPLETS_TAIL = """\
      }
      gpu.return
    }
  }
"""


def triplets(out, n):
    out.write(TRIPLETS_HEAD)
    for i in range(n):
        out.write(TRIPLET.format(i=i))
    out.write(TRIPLETS_MID)
    for _ in range(n):
        out.write(CONSUME)
    out.write(TRIPLETS_TAIL)


def main():
    args = sys.argv[1:]
    make = kernel
    if len(args) == 4 and args[2] == "--kernel" and args[3] in ("ring",
                                                                "store"):
        make = store_kernel if args[3] == "store" else kernel
        args = args[:2]
    if len(args) != 2 or args[0] not in ("modules", "funcs", "triplets"):
        sys.exit("usage: gen.py modules|funcs|triplets N "
                 "[--kernel ring|store]")
    shape, n = args[0], int(args[1])
    if n < 1:
        sys.exit("gen.py: expects N >= 1")
    out = sys.stdout
    for s in STAGES:
        out.write("!P%d = !pipeline.pipeline<stages = %d>\n" % (s, s))
    out.write("\nmodule attributes {gpu.container_module} {\n")
    if shape == "triplets":
        triplets(out, n)
    elif shape == "modules":
        for i in range(n):
            out.write("  gpu.module @m%d {\n" % i)
            out.write(make(i))
            out.write("  }\n")
    else:
        out.write("  gpu.module @kernels {\n")
        for i in range(n):
            out.write(make(i))
        out.write("  }\n")
    out.write("}\n")


if __name__ == "__main__":
    main()
