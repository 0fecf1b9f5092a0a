#!/usr/bin/env python3
"""Writes copy_dialect.mlir: the streaming copy of the handoff benchmark,
written with the dialect.

One kernel per (tile shape R x C of i32, stages S): @copy_r<R>_c<C>_s<S>.
A persistent grid (one CTA of 64 threads per SM) copies a row-major i32
matrix tile by tile: CTA b takes tiles b, b + grid, ... (tile t at tile row
t / tiles_per_row, tile column t % tiles_per_row). Lane 0 of warp 0 is the
producer: per tile it acquires a stage of an S-stage tile pipeline
(payload S x 1 x R x C), arms the stage's full barrier with the tile's bytes
(`expect_tx`) and issues one TMA load into the payload. Lane 0 of warp 1
is the consumer: per tile, in a `consume_explicit` region, it fences the
async proxy, issues a TMA store of the payload to the destination, commits
the bulk group, waits until the store has read the stage, and frees it
(`pipeline.arrive`, empty count 1). Both ends wait for every store at exit.
Kernel ABI: src, dst tensor maps (boxes R x C, no swizzle), tiles: i32,
tiles_per_row: i32; dynamic shared memory S * R * C * 4 bytes.

Usage: gen_copy.py > copy_dialect.mlir
"""

CONFIGS = ((32, 128, 4), (32, 128, 8), (32, 256, 2), (32, 256, 4),
           (32, 256, 6), (64, 256, 2), (64, 256, 3))


def kernel(r, c, s):
    name = f"copy_r{r}_c{c}_s{s}"
    P = f"!P{s}"
    TP = f"!TP_{r}_{c}_{s}"
    D = f"!D_{r}_{c}"
    buf = f"memref<{s}x1x{r}x{c}xi32, #WG>"
    tiles = f"memref<1x{r}x{c}xi32, strided<[{r*c}, {c}, 1], offset: ?>, #WG>"
    tile = f"memref<{r}x{c}xi32, strided<[{c}, 1], offset: ?>, #WG>"
    out = []
    w = out.append
    w(f"  // {r} x {c} tiles ({r*c*4} bytes), {s} stages.")
    w(f"  gpu.func @{name}(%src: {D}, %dst: {D}, %ntiles: i32, %per_row: i32) kernel")
    w(f"      attributes {{known_block_size = array<i32: 64, 1, 1>}} {{")
    w("    %c0 = arith.constant 0 : index")
    w("    %c1 = arith.constant 1 : index")
    w("    %c32 = arith.constant 32 : index")
    w(f"    %crows = arith.constant {r} : index")
    w(f"    %ccols = arith.constant {c} : index")
    w("    %tid = gpu.thread_id x")
    w("    %bid = gpu.block_id x")
    w("    %grid = gpu.grid_dim x")
    w("    %warp = arith.divui %tid, %c32 : index")
    w("    %lane = arith.remui %tid, %c32 : index")
    w("    %is_leader = arith.cmpi eq, %lane, %c0 : index")
    w("    %n = arith.index_cast %ntiles : i32 to index")
    w("    %per = arith.index_cast %per_row : i32 to index")
    w("    // Tiles of this CTA: ceil((n - bid) / grid).")
    w("    %left = arith.subi %n, %bid : index")
    w("    %mine = arith.ceildivsi %left, %grid : index")
    w("    %smem = gpu.dynamic_shared_memory : memref<?xi8, #WG>")
    w(f"    %buf = memref.view %smem[%c0][] : memref<?xi8, #WG> to {buf}")
    w(f"    %p = pipeline.create -> {P}")
    w(f"    %tp = pipeline.input_tile_pipeline %p payload(%buf : {buf}) : {P} -> {TP}")
    w(f"    pipeline.init_mbars %tp producer 1 consumer 1 : {TP}")
    w("    %is_producer = arith.cmpi eq, %warp, %c0 : index")
    w("    scf.if %is_producer {")
    w("      scf.if %is_leader {")
    w(f"        nvgpu.tma.prefetch.descriptor %src : {D}")
    w("        scf.for %k = %c0 to %mine step %c1 {")
    w("          %kg = arith.muli %k, %grid : index")
    w("          %t = arith.addi %bid, %kg : index")
    w("          %tr = arith.divui %t, %per : index")
    w("          %tc = arith.remui %t, %per : index")
    w("          %row0 = arith.muli %tr, %crows : index")
    w("          %col0 = arith.muli %tc, %ccols : index")
    w(f"          %s = pipeline.acquire_producer %tp : {TP}")
    w(f"          pipeline.expect_tx %s : !pipeline.stage<producer, {TP}>")
    w(f"          %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, {TP}>")
    w(f"          %tiles = pipeline.payload %s[0] : !pipeline.stage<producer, {TP}> -> {tiles}")
    w(f"          %to = memref.subview %tiles[0, 0, 0] [1, {r}, {c}] [1, 1, 1] : {tiles} to {tile}")
    w(f"          nvgpu.tma.async.load %src[%col0, %row0], %bars[%id] to %to : {D}, !B{s} -> {tile}")
    w(f"          pipeline.release %s : !pipeline.stage<producer, {TP}>")
    w("        }")
    w(f"        pipeline.drain_producer %tp : {TP}")
    w("      }")
    w("    } else {")
    w("      scf.if %is_leader {")
    w(f"        nvgpu.tma.prefetch.descriptor %dst : {D}")
    w("        scf.for %k = %c0 to %mine step %c1 {")
    w("          %kg = arith.muli %k, %grid : index")
    w("          %t = arith.addi %bid, %kg : index")
    w("          %tr = arith.divui %t, %per : index")
    w("          %tc = arith.remui %t, %per : index")
    w("          %row0 = arith.muli %tr, %crows : index")
    w("          %col0 = arith.muli %tc, %ccols : index")
    w(f"          pipeline.consume_explicit %tp as %s : {TP} {{")
    w(f"            %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, {TP}> -> {tiles}")
    w(f"            %from = memref.subview %tiles[0, 0, 0] [1, {r}, {c}] [1, 1, 1] : {tiles} to {tile}")
    w("            nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}")
    w(f"            nvgpu.tma.async.store %from to %dst[%col0, %row0] : {tile} -> {D}")
    w("            nvvm.cp.async.bulk.commit.group")
    w("            nvvm.cp.async.bulk.wait_group 0 {read}")
    w(f"            pipeline.arrive %s : !pipeline.stage<consumer, {TP}>")
    w("            pipeline.yield")
    w("          }")
    w("        }")
    w("        nvvm.cp.async.bulk.wait_group 0")
    w("      }")
    w("    }")
    w("    gpu.return")
    w("  }")
    return "\n".join(out)


def main():
    doc = __doc__.split("Usage")[0].strip().splitlines()
    print("\n".join("// " + l if l else "//" for l in doc))
    print("//")
    print("// Generated by bench/handoff/gen_copy.py; compile with")
    print("// pipeline-compile copy_dialect.mlir --chip=sm_90a -o X (default options).")
    print()
    print("#WG = #gpu.address_space<workgroup>")
    for s in sorted({s for _, _, s in CONFIGS}):
        print(f"!P{s} = !pipeline.pipeline<stages = {s}>")
        print(f"!B{s} = !nvgpu.mbarrier.group<memorySpace = #WG, num_barriers = {2 * s}>")
    for r, c in sorted({(r, c) for r, c, _ in CONFIGS}):
        print(f"!D_{r}_{c} = !nvgpu.tensormap.descriptor<tensor = memref<{r}x{c}xi32, #WG>, "
              "swizzle = none, l2promo = none, oob = zero, interleave = none>")
    for r, c, s in CONFIGS:
        print(f"!TP_{r}_{c}_{s} = !pipeline.tile_pipeline<pipeline = !P{s}, k_group_size = 1, "
              f"payload = [memref<{s}x1x{r}x{c}xi32, #WG>]>")
    print()
    print("module attributes {gpu.container_module} {")
    print("gpu.module @copy {")
    print("\n\n".join(kernel(r, c, s) for r, c, s in CONFIGS))
    print("}")
    print("}")


if __name__ == "__main__":
    main()
