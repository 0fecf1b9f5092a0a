#!/usr/bin/env python3
"""The warp-specialized bf16 GEMM for sm_90a (examples/gemm_sm90.mlir and its
variants): the generator of its MLIR text, used by `pipeline_mlir.gemm` and,
as a command, by bench/gemm/gen_gemm_sm90.py.

The kernel is ordinary MLIR text. This script exists only to unroll what
MLIR cannot loop over: a wgmma accumulator is an LLVM struct (64 x N f32
spread over the warpgroup, N/2 registers per thread) that can only be read
with constant indices, so the epilogue's f32 pairs, the stmatrix calls and
the four wgmma of a k-block are written out. Every other line is written
once below and reads like the kernel it makes. Do not edit the .mlir by
hand: change this script and regenerate.

  python3 bench/gemm/gen_gemm_sm90.py            # -> examples/gemm_sm90.mlir
  python3 bench/gemm/gen_gemm_sm90.py --bn 128 --stages 5 -o /tmp/k.mlir

Parameters (the defaults are the shipped kernel: --bn 256 --stages 3
--epi-subtiles 4 --epi-buffers 1, release lag, no cluster):
  --bn            CTA tile N: 256 (wgmma m64n256k16) or 128, 192, 64
  --stages        pipeline stages (one 128x64 A and one BNx64 B tile each)
  --epi-subtiles  64x64 bf16 output sub-tiles each consumer warpgroup stages
                  per epilogue round (BN/64 of them: one round)
  --epi-buffers   1, or 2: alternate two staging buffers between rounds
  --no-lag        comparison variant: wait_group 0 per k-block, no
                  consumer_depth
  --cluster 2     CTA pairs multicast the B tile (release_ctas = 2); launch
                  with cluster dims (2, 1, 1)
  --producer-regs, --consumer-regs   the setmaxnreg values
The variants measured in docs/gemm.md are built from these options by
bench/gemm/build.sh (VARIANTS=...).
"""
import argparse
import os
import sys

BM = 128  # the shipped kernel's tile rows: two consumer warpgroups of 64
BK = 64   # 64 bf16 = 128 bytes = one 128-byte swizzle row
SMEM_LIMIT = 232448  # sm_90: 227 KiB of dynamic shared memory per block
WS = "#gpu.address_space<workgroup>"


class Kernel:
    def __init__(self):
        self.lines = []
        self.index_consts = set()

    def emit(self, text, indent):
        for line in text.strip("\n").split("\n"):
            self.lines.append((indent + line) if line.strip() else "")

    def c(self, v):
        """An index constant, declared once in the entry block."""
        self.index_consts.add(v)
        return f"%c{v}"


def stream_k_fixup(b, c, n_acc, consumers, bn, indent):
    """Stream-K: after a unit's k-blocks, a unit that does not start its
    tile's K (%kb_lo > 0; only a group's first unit can be one) writes its
    f32 accumulator to its group's workspace slot and releases the slot's
    flag; the owner (%kb_lo = 0) adds the slots of the later groups that
    cover the rest of the tile (acquiring and then clearing each flag) and
    goes on to the epilogue (inside the scf.if's else branch, closed after
    the epilogue). Slot and flag index: (group x M-tiles + member) x
    consumers + warpgroup. A thread's value i of a slot is word
    i x 128 + thread: the warpgroup's stores of one i are contiguous."""
    b.emit(f"""
// Stream-K fixup. Workspace slot of group g for this CTA's M-tile and
// warpgroup: ((g x M-tiles + member) x {consumers} + cw) x {64 * bn} floats.
%sk_piece = arith.cmpi ne, %kb_lo, {c(0)} : index
%sk_ws = llvm.inttoptr %ws_i64 : i64 to !llvm.ptr<1>
%sk_flags = llvm.inttoptr %flags_i64 : i64 to !llvm.ptr<1>
%sk_ltid_i64 = arith.index_cast %ltid : index to i64
%sk_cw_i64 = arith.index_cast %cw : index to i64
%sk_member_i64 = arith.index_cast %member : index to i64
%sk_mt_i64 = arith.index_cast %num_m_tiles : index to i64
scf.if %sk_piece {{
  // Not the owner: write the partial sums, then release the flag.
  %pg_i64 = arith.index_cast %sk_group : index to i64
  %pg_mt = arith.muli %pg_i64, %sk_mt_i64 : i64
  %pg_row = arith.addi %pg_mt, %sk_member_i64 : i64
  %pg_rows = arith.muli %pg_row, %i64_consumers : i64
  %pg_slot = arith.addi %pg_rows, %sk_cw_i64 : i64
  %pg_words = arith.muli %pg_slot, %i64_slot_words : i64
  %pg_word = arith.addi %pg_words, %sk_ltid_i64 : i64
  %pg_base = llvm.getelementptr %sk_ws[%pg_word] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
""", indent)
    for i in range(n_acc):
        b.emit(f"""
  %pw{i} = llvm.extractvalue %acc_main[{i}] : !Acc
  %pp{i} = llvm.getelementptr %pg_base[{i * 128}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
  llvm.store %pw{i}, %pp{i} : f32, !llvm.ptr<1>""", indent)
    b.emit(f"""
  // Every thread's stores before the leader's release (CUTLASS's
  // generic barrier: sync, then one release by one thread).
  nvvm.barrier id = %bar_id number_of_threads = %i32_128
  scf.if %leader {{
    %pf = llvm.getelementptr %sk_flags[%pg_slot] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
    %pf_i64 = llvm.ptrtoint %pf : !llvm.ptr<1> to i64
    llvm.inline_asm has_side_effects "st.release.gpu.global.b32 [$0], $1;", "l,r" %pf_i64, %i32_1 : (i64, i32) -> ()
  }}
}} else {{
  // The owner: the groups after this one whose first unit lies in this
  // tile, g = group + 1 .. ceil(tile_end x Q / W) - 1.
  %og_first = arith.addi %sk_group, {c(1)} : index
  %og_end_w = arith.muli %tile_end, %sk_groups_1 : index
  %og_end0 = arith.ceildivui %og_end_w, %work : index
  %og_end = arith.minui %og_end0, %sk_groups : index
  %acc = scf.for %g = %og_first to %og_end step {c(1)} iter_args(%fa0 = %acc_main) -> (!Acc) {{
    %og_i64 = arith.index_cast %g : index to i64
    %og_mt = arith.muli %og_i64, %sk_mt_i64 : i64
    %og_row = arith.addi %og_mt, %sk_member_i64 : i64
    %og_rows = arith.muli %og_row, %i64_consumers : i64
    %og_slot = arith.addi %og_rows, %sk_cw_i64 : i64
    %of = llvm.getelementptr %sk_flags[%og_slot] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
    %of_i64 = llvm.ptrtoint %of : !llvm.ptr<1> to i64
    scf.if %leader {{
      scf.while : () -> () {{
        %flag = llvm.inline_asm has_side_effects "ld.acquire.gpu.global.b32 $0, [$1];", "=r,l" %of_i64 : (i64) -> i32
        %unset = arith.cmpi eq, %flag, %i32_0 : i32
        scf.condition(%unset)
      }} do {{
        scf.yield
      }}
    }}
    nvvm.barrier id = %bar_id number_of_threads = %i32_128
    %og_words = arith.muli %og_slot, %i64_slot_words : i64
    %og_word = arith.addi %og_words, %sk_ltid_i64 : i64
    %og_base = llvm.getelementptr %sk_ws[%og_word] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
""", indent)
    for i in range(n_acc):
        b.emit(f"""
    %op{i} = llvm.getelementptr %og_base[{i * 128}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    %ov{i} = llvm.load %op{i} : !llvm.ptr<1> -> f32
    %ox{i} = llvm.extractvalue %fa{i}[{i}] : !Acc
    %os{i} = llvm.fadd %ox{i}, %ov{i} : f32
    %fa{i + 1} = llvm.insertvalue %os{i}, %fa{i}[{i}] : !Acc""", indent)
    b.emit(f"""
    // Every thread has read the slot: clear the flag for the next launch.
    nvvm.barrier id = %bar_id number_of_threads = %i32_128
    scf.if %leader {{
      %zero_flag = arith.constant 0 : i32
      llvm.store %zero_flag, %of : i32, !llvm.ptr<1>
    }}
    scf.yield %fa{n_acc} : !Acc
  }}
""", indent)


def generate(bn=256, stages=3, epi_subtiles=4, producer_regs=40,
             consumer_regs=232, name="gemm_bf16_sm90", cluster=1, lag=True,
             epi_buffers=1, consumers=2, split_k=False, stream_k=False):
    """The kernel's MLIR text and its dynamic shared memory in bytes.
    `consumers`: consumer warpgroups of 64 rows each (the tile is 64 x
    consumers rows; 1 for small M, 2 for the shipped kernel).
    `split_k`: the kernel takes a split count S after group_m; each output
    tile's K range is cut into S slices that run as separate work units
    and add their bf16 partial tiles into C with TMA reduce-add (C must be
    zero before the launch).
    `stream_k`: stream-K. The CTAs form groups of one CTA per M-tile
    (the grid must be a multiple of the M-tile count); the (N-tile,
    k-block) iterations are cut evenly among the groups, so that the CTAs
    of a group read the same B panel at the same k (B comes from DRAM
    once). A CTA runs one work unit per N-tile its range touches. The unit
    that starts a tile's K (k-block 0) owns it: it adds the f32 partial
    sums of the units of later groups that cover the rest of the tile's K
    (each the first unit of its group; they write them to a workspace and
    release a flag, the owner acquires it and clears it) and stores C. The
    kernel takes the workspace and flag addresses (i64) after group_m. For
    shapes whose tiles leave SMs idle."""
    if split_k and stream_k:
        raise ValueError("--split-k and --stream-k exclude each other")
    if consumers not in (1, 2):
        raise ValueError("--consumers must be 1 or 2")
    if consumers == 1 and cluster != 1:
        raise ValueError("--consumers 1 needs --cluster 1")
    if (split_k or stream_k) and cluster != 1:
        raise ValueError("--split-k and --stream-k need --cluster 1")
    BM = 64 * consumers  # noqa: N806 (the tile rows, as the module's BM)
    threads = 128 * (1 + consumers)
    if bn not in (64, 128, 192, 256):
        raise ValueError("--bn must be 64, 128, 192 or 256")
    if (bn // 64) % epi_subtiles:
        raise ValueError("--epi-subtiles must divide BN / 64")
    if epi_buffers not in (1, 2) or ((bn // 64) // epi_subtiles) % epi_buffers:
        raise ValueError("--epi-buffers must be 1 or 2 and divide the rounds")
    if cluster not in (1, 2):
        raise ValueError("--cluster must be 1 or 2")
    b_box = bn // cluster  # rows of B each CTA of a cluster loads
    n_acc = bn // 2
    a_stage_bytes = BM * BK * 2
    b_stage_bytes = bn * BK * 2
    expect_tx = a_stage_bytes + b_stage_bytes
    a_off = 1024
    b_off = a_off + stages * a_stage_bytes
    c_off = b_off + stages * b_stage_bytes
    c_wg_bytes = epi_buffers * epi_subtiles * 64 * 64 * 2
    smem_bytes = c_off + consumers * c_wg_bytes
    if smem_bytes > SMEM_LIMIT:
        raise ValueError(f"{smem_bytes} B of shared memory > {SMEM_LIMIT}")
    if producer_regs * 128 + consumer_regs * 128 * consumers > 65536:
        raise ValueError("setmaxnreg values exceed the 64K register file")
    rounds = (bn // 64) // epi_subtiles
    groups_per_round = epi_subtiles * 4   # 16-column groups per round

    k = Kernel()
    c = k.c
    body = Kernel()  # filled first, so that the constants are known
    b = body
    b.index_consts = k.index_consts
    I2, I3, I4, I5 = (" " * n for n in (4, 6, 8, 10))

    # ------------------------------------------------------------------ entry
    if cluster == 1:
        init_text = """// full: one arrival, the TMA thread's arrive.expect_tx (the loads complete
// the bytes); empty: one elected thread of each consumer warpgroup.
pipeline.init_mbars %tp producer 1 consumer __CONSUMERS__ : !TP""".replace(
            "__CONSUMERS__", str(consumers))
        sched_text = """%num_tiles = arith.muli %num_m_tiles, %num_n_tiles : index
%group_tiles = arith.muli %group_m, %num_n_tiles : index"""
        if split_k:
            sched_text = f"""%num_out_tiles = arith.muli %num_m_tiles, %num_n_tiles : index
%group_tiles = arith.muli %group_m, %num_n_tiles : index
// Split-K: the K blocks of a tile are cut into slices of %kb_per; work
// unit t is slice t / tiles of output tile t % tiles. Every slice is
// non-empty: the effective split count is ceil(k-blocks / %kb_per).
%splits_arg = arith.index_cast %splits_i32 : i32 to index
%splits_req = arith.maxui %splits_arg, {c(1)} : index
%kb_per = arith.ceildivui %num_k_blocks, %splits_req : index
%splits = arith.ceildivui %num_k_blocks, %kb_per : index
%num_tiles = arith.muli %num_out_tiles, %splits : index"""
        if stream_k:
            sched_text = f"""%num_out_tiles = arith.muli %num_m_tiles, %num_n_tiles : index
%group_tiles = arith.muli %group_m, %num_n_tiles : index
// Stream-K: CTA b is member b % T (its M-tile) of group b / T (T = M-tiles,
// Q = min(G / T, W) groups of the G CTAs; CTAs past Q T have no work; G must
// be at least T, and every CTA resident at once: an owner spins on later
// CTAs). Group q runs
// the iterations [q W / Q, (q+1) W / Q) of W = N-tiles x k-blocks: its work
// units are the N-tiles that range touches, from %panel_lo on, each over
// the part of its k-blocks inside the range.
%member = arith.remui %bid, %num_m_tiles : index
%sk_group = arith.divui %bid, %num_m_tiles : index
%work = arith.muli %num_n_tiles, %num_k_blocks : index
// At most one group per iteration: every group's range is non-empty (an
// owner waits for the first unit of every later group in its tile).
%sk_groups_grid = arith.divui %nbid, %num_m_tiles : index
%sk_groups = arith.minui %sk_groups_grid, %work : index
%sk_groups_1 = arith.maxui %sk_groups, {c(1)} : index
%group_next = arith.addi %sk_group, {c(1)} : index
%it_lo_w = arith.muli %sk_group, %work : index
%it_lo = arith.divui %it_lo_w, %sk_groups_1 : index
%it_hi_w = arith.muli %group_next, %work : index
%it_hi = arith.divui %it_hi_w, %sk_groups_1 : index
%panel_lo = arith.divui %it_lo, %num_k_blocks : index
%it_last = arith.subi %it_hi, {c(1)} : index
%panel_last = arith.divui %it_last, %num_k_blocks : index
%panel_span = arith.subi %panel_last, %panel_lo : index
%units = arith.addi %panel_span, {c(1)} : index
%in_group = arith.cmpi ult, %sk_group, %sk_groups : index
%nonempty = arith.cmpi ult, %it_lo, %it_hi : index
%has_work = arith.andi %in_group, %nonempty : i1
%num_tiles = arith.select %has_work, %units, {c(0)} : index"""
            gm, tile_first, tile_step = "%group_m", c(0), c(1)
        else:
            gm, tile_first, tile_step = "%group_m", "%bid", "%nbid"
    else:
        init_text = """// full: one arrival, this CTA's TMA thread's arrive.expect_tx (its A
// load and both CTAs' multicast halves of B complete the bytes); empty:
// one elected thread of each consumer warpgroup of BOTH CTAs of the pair
// (release_ctas = 2: every consumer arrive reaches both CTAs), 2 x 2.
// Cluster-wide init: the peer CTA loads into and arrives on these barriers.
pipeline.init_mbars %tp producer 1 consumer 4 cluster : !TP"""
        sched_text = f"""// Clusters of 2 CTAs along x: cluster id = bid / 2, rank = %cluster_ctarank
// (= bid % 2). The pair works on 256 x {bn} super-tiles: both CTAs use the
// same B tile, each loads half of it and multicasts it to both.
%rank_i32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
%rank = arith.index_cast %rank_i32 : i32 to index
%rank_rows = arith.muli %rank, {c(BM)} : index
%rank_rows_b = arith.muli %rank, {c(b_box)} : index
%num_m_pairs = arith.ceildivui %num_m_tiles, {c(2)} : index
%group_m_half = arith.ceildivui %group_m, {c(2)} : index
%group_mc = arith.maxui %group_m_half, {c(1)} : index
%num_tiles = arith.muli %num_m_pairs, %num_n_tiles : index
%tile_step = arith.divui %nbid, {c(2)} : index
%tile_first = arith.divui %bid, {c(2)} : index
%group_tiles = arith.muli %group_mc, %num_n_tiles : index
%both_ctas = arith.constant 3 : i16"""
        gm, tile_first, tile_step = "%group_mc", "%tile_first", "%tile_step"
    b.emit(f"""
%tid = gpu.thread_id x
%bid = gpu.block_id x
%nbid = gpu.grid_dim x
%m = arith.index_cast %m_i32 : i32 to index
%n = arith.index_cast %n_i32 : i32 to index
%k = arith.index_cast %k_i32 : i32 to index
%group_m = arith.index_cast %group_m_i32 : i32 to index

// Dynamic shared memory: the barriers at 0, then A and B stages, then the
// C staging tiles.
%smem = gpu.dynamic_shared_memory : !Smem
%p = pipeline.create in %smem[{c(0)}] : !Smem -> !P
%a_tiles = memref.view %smem[{c(a_off)}][] : !Smem to !ATiles
%b_tiles = memref.view %smem[{c(b_off)}][] : !Smem to !BTiles
%c_staging = memref.view %smem[{c(c_off)}][] : !Smem to !CStaging
%tp = pipeline.input_tile_pipeline %p payload(%a_tiles, %b_tiles : !ATiles, !BTiles)
    : !P -> !TP
__INIT__

// The tile schedule, computed alike by every role.
%num_m_tiles = arith.ceildivui %m, {c(BM)} : index
%num_n_tiles = arith.ceildivui %n, {c(bn)} : index
%num_k_blocks = arith.ceildivui %k, {c(BK)} : index
__SCHED__

%wg = arith.divui %tid, {c(128)} : index
%is_producer = arith.cmpi eq, %wg, {c(0)} : index
scf.if %is_producer {{
""".replace("__INIT__", init_text).replace("__SCHED__", sched_text), I2)

    def schedule(indent, pre):
        """Tile %t -> its first row %{pre}m0 and column %{pre}n0: groups of
        group_m M-tiles, column-major inside a group (Triton's grouped
        order). With a cluster of 2, %t counts pairs of M-tiles (the pair's
        CTAs share the B tile) and the CTA of rank r takes M-tile 2i + r."""
        mt_count = "%num_m_tiles" if cluster == 1 else "%num_m_pairs"
        tile = "%t"
        if stream_k:
            b.emit(f"""
%{pre}nt = arith.addi %panel_lo, %t : index
%{pre}tile_it = arith.muli %{pre}nt, %num_k_blocks : index
%{pre}tile_end = arith.addi %{pre}tile_it, %num_k_blocks : index
%{pre}seg_lo = arith.maxui %it_lo, %{pre}tile_it : index
%{pre}seg_hi = arith.minui %it_hi, %{pre}tile_end : index
%{pre}kb_lo = arith.subi %{pre}seg_lo, %{pre}tile_it : index
%{pre}kb_hi = arith.subi %{pre}seg_hi, %{pre}tile_it : index
%{pre}m0 = arith.muli %member, {c(BM)} : index
%{pre}n0 = arith.muli %{pre}nt, {c(bn)} : index
""", indent)
            return
        if split_k:
            tile = f"%{pre}tile"
            b.emit(f"""
%{pre}slice = arith.divui %t, %num_out_tiles : index
%{pre}tile = arith.remui %t, %num_out_tiles : index
%{pre}kb_lo = arith.muli %{pre}slice, %kb_per : index
%{pre}kb_end = arith.addi %{pre}kb_lo, %kb_per : index
%{pre}kb_hi = arith.minui %{pre}kb_end, %num_k_blocks : index
""", indent)
        b.emit(f"""
%{pre}grp = arith.divui {tile}, %group_tiles : index
%{pre}first_m = arith.muli %{pre}grp, {gm} : index
%{pre}left_m = arith.subi {mt_count}, %{pre}first_m : index
%{pre}gsize = arith.minui %{pre}left_m, {gm} : index
%{pre}r = arith.remui {tile}, %group_tiles : index
%{pre}mi = arith.remui %{pre}r, %{pre}gsize : index
%{pre}mt = arith.addi %{pre}first_m, %{pre}mi : index
%{pre}nt = arith.divui %{pre}r, %{pre}gsize : index
""", indent)
        if cluster == 1:
            b.emit(f"%{pre}m0 = arith.muli %{pre}mt, {c(BM)} : index", indent)
        else:
            b.emit(f"""
%{pre}m0_pair = arith.muli %{pre}mt, {c(2 * BM)} : index
%{pre}m0 = arith.addi %{pre}m0_pair, %rank_rows : index
""", indent)
        b.emit(f"%{pre}n0 = arith.muli %{pre}nt, {c(bn)} : index", indent)

    # --------------------------------------------------------------- producer
    if cluster == 1:
        bload_text = f"""  %b_dst = memref.subview %b[0, 0, 0] [1, {bn}, {BK}] [1, 1, 1] : !BStage to !BTile
  nvgpu.tma.async.load %a_map[%k0, %p_m0], %bars[%id] to %a_dst : !DescA, !G -> !ATile
  nvgpu.tma.async.load %b_map[%k0, %p_n0], %bars[%id] to %b_dst : !DescB, !G -> !BTile"""
    else:
        bload_text = f"""  // This CTA's half of B: rows rank * {b_box} .. + {b_box - 1}, into both CTAs.
  %b_dst = memref.subview %b[0, %rank_rows_b, 0] [1, {b_box}, {BK}] [1, 1, 1] : !BStage to !BTile
  %p_n0_half = arith.addi %p_n0, %rank_rows_b : index
  nvgpu.tma.async.load %a_map[%k0, %p_m0], %bars[%id] to %a_dst : !DescA, !G -> !ATile
  nvgpu.tma.async.load %b_map[%k0, %p_n0_half], %bars[%id] to %b_dst multicast_mask = %both_ctas
      : !DescB, !G -> !BTile"""
    b.emit(f"""
//===------------------------------------------------------------===//
// Producer warpgroup: thread 0 issues every TMA load.
//===------------------------------------------------------------===//
nvvm.setmaxregister decrease {producer_regs}
%is_tma_thread = arith.cmpi eq, %tid, {c(0)} : index
scf.if %is_tma_thread {{
  nvgpu.tma.prefetch.descriptor %a_map : !DescA
  nvgpu.tma.prefetch.descriptor %b_map : !DescB
  scf.for %t = {tile_first} to %num_tiles step {tile_step} {{
""", I3)
    schedule(I5 + "  ", "p_")
    kb_range = "%p_kb_lo to %p_kb_hi" if split_k or stream_k else f"{c(0)} to %num_k_blocks"
    b.emit(f"""
scf.for %kb = {kb_range} step {c(1)} {{
  %k0 = arith.muli %kb, {c(BK)} : index
  %s = pipeline.acquire_producer %tp : !TP
  // One arrival expecting the payload's bytes: {a_stage_bytes} (A) + {b_stage_bytes} (B).
  pipeline.expect_tx %s : !PS
  %bars, %id = pipeline.mbar %s : !PS
  %a = pipeline.payload %s[0] : !PS -> !AStage
  %b = pipeline.payload %s[1] : !PS -> !BStage
  %a_dst = memref.subview %a[0, 0, 0] [1, {BM}, {BK}] [1, 1, 1] : !AStage to !ATile
__BLOAD__
  // The TMA completes the stage; the producer handle only steps.
  pipeline.release %s : !PS
}}
""".replace("__BLOAD__", bload_text), I5 + "  ")
    b.emit(f"""
  }}
  // No exit while a consumer may still read a stage.
  pipeline.drain_producer %tp : !TP
}}
""", I3)

    # --------------------------------------------------------------- consumers
    b.emit(f"""
}} else {{
""", I2)
    b.emit(f"""
//===------------------------------------------------------------===//
// Consumer warpgroup{'s 1 and 2' if consumers == 2 else ' 1'}: warpgroup cw owns rows 64*cw .. +63.
//===------------------------------------------------------------===//
nvvm.setmaxregister increase {consumer_regs}
%cw = arith.subi %wg, {c(1)} : index
%ltid = arith.remui %tid, {c(128)} : index
%leader = arith.cmpi eq, %ltid, {c(0)} : index
%warp = arith.divui %ltid, {c(32)} : index
%lane = arith.remui %tid, {c(32)} : index
%cw_i32 = arith.index_cast %cw : index to i32
%bar_id = arith.addi %cw_i32, %i32_1 : i32
%a_wg_off = arith.muli %cw, {c(64 * BK * 2)} : index
%c_rows = arith.muli %cw, {c(64)} : index
%cw_sub0 = arith.muli %cw, {c(epi_buffers * epi_subtiles)} : index

// stmatrix addresses. Lane l of warp w gives the address of row
// w*16 + ((l>>3)&1)*8 + (l&7) of the warpgroup's 64 rows, 16-byte chunk
// 2g + (l>>4) of 16-column group g; the 128-byte swizzle XORs the chunk
// (within its 128-byte row) with row & 7 = l & 7, so the chunk is
// 2*(g&3) ^ x with x = (l & 7) ^ (l >> 4).
%stg_base = memref.extract_aligned_pointer_as_index %c_staging : !CStaging -> index
%l7 = arith.andi %lane, {c(7)} : index
%l8 = arith.shrui %lane, {c(3)} : index
%l8b = arith.andi %l8, {c(1)} : index
%l16 = arith.shrui %lane, {c(4)} : index
%w16 = arith.muli %warp, {c(16)} : index
%h8 = arith.muli %l8b, {c(8)} : index
%row0 = arith.addi %w16, %h8 : index
%row = arith.addi %row0, %l7 : index
%row_bytes = arith.muli %row, {c(128)} : index
%wg_stg = arith.muli %cw, {c(c_wg_bytes)} : index
%stg0 = arith.addi %stg_base, %wg_stg : index
%stg_row = arith.addi %stg0, %row_bytes : index
%x = arith.xori %l7, %l16 : index
""", I3)
    if split_k:
        b.emit("""
// The C descriptor as the pointer the TMA reduce takes.
%c_map_ptr = builtin.unrealized_conversion_cast %c_map : !DescC to !llvm.ptr
""", I3)
    for q in range(4):
        b.emit(f"""
%chunk{q} = arith.xori %x, {c(2 * q)} : index
%chunk_bytes{q} = arith.muli %chunk{q}, {c(16)} : index
%thr_addr{q} = arith.addi %stg_row, %chunk_bytes{q} : index
""", I3)
    b.emit(f"\nscf.for %t = {tile_first} to %num_tiles step {tile_step} {{", I3)
    schedule(I4, "")

    def mma_stage(indent, h, acc_in, acc_out, first):
        """fence; 4 x wgmma m64n{bn}k16 on stage handle %h; commit."""
        b.emit(f"""
%{h}_a = pipeline.payload %{h}[0] : !CS -> !AStage
%{h}_b = pipeline.payload %{h}[1] : !CS -> !BStage
""", indent)
        for x, S in (("a", "!AStage"), ("b", "!BStage")):
            b.emit(f"""
%{h}_{x}_base, %{h}_{x}_off, %{h}_{x}_sz:3, %{h}_{x}_st:3 = memref.extract_strided_metadata %{h}_{x}
    : {S} -> !Elem, index, index, index, index, index, index, index
%{h}_{x}_ptr = memref.extract_aligned_pointer_as_index %{h}_{x}_base : !Elem -> index
%{h}_{x}_eoff = arith.muli %{h}_{x}_off, {c(2)} : index
%{h}_{x}_addr0 = arith.addi %{h}_{x}_ptr, %{h}_{x}_eoff : index
""", indent)
        b.emit(f"""
%{h}_a_addr = arith.addi %{h}_a_addr0, %a_wg_off : index
%{h}_b_addr = arith.addi %{h}_b_addr0, {c(0)} : index
""", indent)
        for x in ("a", "b"):
            b.emit(f"""
%{h}_{x}_addr64 = arith.index_cast %{h}_{x}_addr : index to i64
%{h}_{x}_a16 = arith.shrui %{h}_{x}_addr64, %i64_4 : i64
%{h}_{x}_a14 = arith.andi %{h}_{x}_a16, %i64_addr_mask : i64
%{h}_{x}_desc0 = arith.ori %{h}_{x}_a14, %i64_desc_hi : i64
""", indent)
            for kk in range(1, 4):
                b.emit(f"%{h}_{x}_desc{kk} = arith.addi %{h}_{x}_desc0, %i64_kstep{kk} : i64", indent)
        b.emit("nvvm.wgmma.fence.aligned", indent)
        cur = acc_in
        for kk in range(4):
            scale = "zero" if (first and kk == 0) else "one"
            nxt = acc_out if kk == 3 else f"%{h}_acc{kk}"
            b.emit(f"""
{nxt} = nvvm.wgmma.mma_async %{h}_a_desc{kk}, %{h}_b_desc{kk}, {cur},
    #nvvm.shape<m = 64, n = {bn}, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<{scale}>],
    A [<bf16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <col>]
    : !Acc -> !Acc
""", indent)
            cur = nxt
        b.emit("nvvm.wgmma.commit.group.sync.aligned", indent)

    if split_k or stream_k:
        b.emit(f"%kb_rest = arith.addi %kb_lo, {c(1)} : index", I4)
        kb_rest, kb_end = "%kb_rest", "%kb_hi"
    else:
        kb_rest, kb_end = c(1), "%num_k_blocks"
    acc_main = "%acc_main" if stream_k else "%acc"
    if lag:
        b.emit("""
// First k-block: the first wgmma overwrites the accumulator (scale-d 0).
%first = pipeline.acquire_consumer %tp : !TP
""", I4)
        mma_stage(I4, "first", "%acc_undef", "%acc_first", True)
        b.emit(f"""
// The release lag (consumer_depth = 2): acquire stage k, issue its wgmma,
// wait until only that group is in flight, then free stage k-1.
%last, {acc_main} = scf.for %kb = {kb_rest} to {kb_end} step {c(1)}
    iter_args(%prev = %first, %acc_in = %acc_first) -> (!CS, !Acc) {{
  %cur = pipeline.acquire_consumer %tp : !TP
""", I4)
        mma_stage(I5, "cur", "%acc_in", "%acc_next", False)
        b.emit(f"""
  nvvm.wgmma.wait.group.sync.aligned 1
  scf.if %leader {{
    pipeline.arrive %prev : !CS
  }}
  // Tile pipeline: release only steps; the arrive above frees the stage.
  pipeline.release %prev : !CS
  scf.yield %cur, %acc_next : !CS, !Acc
}}
nvvm.wgmma.wait.group.sync.aligned 0
scf.if %leader {{
  pipeline.arrive %last : !CS
}}
pipeline.release %last : !CS
""", I4)
    else:
        b.emit("""
// No release lag (consumer_depth = 1, a comparison variant): every k-block
// waits for its own wgmma (wait_group 0) before freeing its stage.
%first = pipeline.acquire_consumer %tp : !TP
""", I4)
        mma_stage(I4, "first", "%acc_undef", "%acc_first", True)
        b.emit(f"""
nvvm.wgmma.wait.group.sync.aligned 0
scf.if %leader {{
  pipeline.arrive %first : !CS
}}
pipeline.release %first : !CS
{acc_main} = scf.for %kb = {kb_rest} to {kb_end} step {c(1)}
    iter_args(%acc_in = %acc_first) -> (!Acc) {{
  %cur = pipeline.acquire_consumer %tp : !TP
""", I4)
        mma_stage(I5, "cur", "%acc_in", "%acc_next", False)
        b.emit(f"""
  nvvm.wgmma.wait.group.sync.aligned 0
  scf.if %leader {{
    pipeline.arrive %cur : !CS
  }}
  pipeline.release %cur : !CS
  scf.yield %acc_next : !Acc
}}
""", I4)
    if stream_k:
        stream_k_fixup(b, c, n_acc, consumers, bn, I4)
    b.emit("""
// Epilogue: f32 pairs -> bf16x2, stmatrix into the 128B-swizzled staging
// tile, proxy fence, TMA store of each 64 x 64 sub-tile (clipped at M, N).
%c_row0 = arith.addi %m0, %c_rows : index
""", I4)
    for r in range(rounds):
        lo = r * epi_subtiles * 64
        buf = r % epi_buffers
        if epi_buffers == 1:
            why = "the previous TMA stores have read it"
        else:
            why = ("the stores of round r-2 (same buffer)\n"
                   "  // have read it: only the last round's group may still be reading")
        b.emit(f"""
// Round {r}: columns {lo} .. {lo + epi_subtiles * 64 - 1} of the warpgroup's 64 x {bn} tile,
// staging buffer {buf}.
scf.if %leader {{
  // The staging buffer is free once {why}.
  nvvm.cp.async.bulk.wait_group {epi_buffers - 1} {{read}}
}}
nvvm.barrier id = %bar_id number_of_threads = %i32_128
""", I4)
        for gg in range(groups_per_round):
            g = r * groups_per_round + gg
            regs = []
            for j in range(4):
                i0 = 8 * g + 2 * j
                v = f"%g{g}_{j}"
                b.emit(f"""
{v}_x = llvm.extractvalue %acc[{i0}] : !Acc
{v}_y = llvm.extractvalue %acc[{i0 + 1}] : !Acc
{v}_v0 = llvm.insertelement {v}_x, %v2_undef[%i32_0 : i32] : vector<2xf32>
{v}_v = llvm.insertelement {v}_y, {v}_v0[%i32_1 : i32] : vector<2xf32>
{v}_h = llvm.fptrunc {v}_v : vector<2xf32> to vector<2xbf16>
{v}_w = llvm.bitcast {v}_h : vector<2xbf16> to i32
""", I4)
                regs.append(f"{v}_w")
            st = buf * epi_subtiles + gg // 4
            b.emit(f"""
%g{g}_addr = arith.addi %thr_addr{g & 3}, {c(st * 8192)} : index
%g{g}_a64 = arith.index_cast %g{g}_addr : index to i64
%g{g}_ptr = llvm.inttoptr %g{g}_a64 : i64 to !llvm.ptr<3>
nvvm.stmatrix %g{g}_ptr, {', '.join(regs)}
    {{layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>}}
    : !llvm.ptr<3>, i32, i32, i32, i32
""", I4)
        b.emit(f"""
// Generic-proxy writes (stmatrix), then the async proxy (TMA) reads.
nvvm.fence.proxy {{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}}
nvvm.barrier id = %bar_id number_of_threads = %i32_128
scf.if %leader {{
""", I4)
        for st in range(epi_subtiles):
            col = (r * epi_subtiles + st) * 64
            b.emit(f"""
%r{r}s{st}_idx = arith.addi %cw_sub0, {c(buf * epi_subtiles + st)} : index
%r{r}s{st}_src = memref.subview %c_staging[%r{r}s{st}_idx, 0, 0] [1, 64, 64] [1, 1, 1] : !CStaging to !CTile
%r{r}s{st}_col = arith.addi %n0, {c(col)} : index
""", I5)
            if split_k:
                b.emit(f"""
%r{r}s{st}_off = arith.muli %r{r}s{st}_idx, {c(8192)} : index
%r{r}s{st}_addr = arith.addi %stg_base, %r{r}s{st}_off : index
%r{r}s{st}_a64 = arith.index_cast %r{r}s{st}_addr : index to i64
%r{r}s{st}_ptr = llvm.inttoptr %r{r}s{st}_a64 : i64 to !llvm.ptr<3>
%r{r}s{st}_x = arith.index_cast %r{r}s{st}_col : index to i32
%r{r}s{st}_y = arith.index_cast %c_row0 : index to i32
// Add the bf16 partial tile into C (element-wise atomic in global memory).
nvvm.cp.async.bulk.tensor.reduce %c_map_ptr, %r{r}s{st}_ptr, box[%r{r}s{st}_x, %r{r}s{st}_y]
    {{redKind = #nvvm.tma_redux_kind<add>}} : !llvm.ptr, !llvm.ptr<3>
""", I5)
            else:
                b.emit(f"""
nvgpu.tma.async.store %r{r}s{st}_src to %c_map[%r{r}s{st}_col, %c_row0] : !CTile -> !DescC
""", I5)
        b.emit("""
  nvvm.cp.async.bulk.commit.group
}
""", I4)
    if stream_k:
        b.emit("}", I4)  # the owner's branch
    b.emit("}", I3)
    b.emit("""
// Every TMA store has completed before the warpgroup exits.
scf.if %leader {
  nvvm.cp.async.bulk.wait_group 0
}
""", I3)
    b.emit("}", I2)

    # ----------------------------------------------------------------- header
    p_params = f"stages = {stages}"
    if cluster == 2:
        p_params += ", release_ctas = 2"
    if lag:
        p_params += ", consumer_depth = 2"
    acc_t = "!llvm.struct<(" + ", ".join(["f32"] * n_acc) + ")>"
    gen_args = (f"--bn {bn} --stages {stages} --epi-subtiles {epi_subtiles} "
                f"--epi-buffers {epi_buffers}")
    if consumers != 2:
        gen_args += f" --consumers {consumers}"
    if split_k:
        gen_args += " --split-k"
    if stream_k:
        gen_args += " --stream-k"
    splits_param = ", %splits_i32: i32" if split_k else ""
    if stream_k:
        splits_param = ", %ws_i64: i64, %flags_i64: i64"
    units = "tiles x S work units" if split_k else "tiles"
    if stream_k:
        units = None
    splits_doc = (" and the split count S (split-K: the TMA stores are\n// reduce-adds of bf16 partial tiles, C must be zero before the launch) as i32"
                  if split_k else " as i32")
    grid_expr = f"min(#SMs, {units})"
    if stream_k:
        grid_expr = "M-tiles x min(#SMs / M-tiles, N-tiles x k-blocks)"
        splits_doc = (" as i32, then the addresses of the stream-K\n// workspace (f32, 64 x BN per consumer warpgroup and CTA) and flags (i32, one\n// per consumer warpgroup and CTA, zero before the first launch; the\n// kernel leaves them zero) as i64")
    if cluster == 2:
        gen_args += " --cluster 2"
    if not lag:
        gen_args += " --no-lag"
    if lag:
        consumer_text = f"""issues 4 wgmma.m64n{bn}k16 per k-block. The pipeline
//                   declares consumer_depth = 2: one wgmma group stays in
//                   flight and stage k-1 is freed (one thread per warpgroup
//                   arrives on its empty barrier) after the wgmma of stage k
//                   were issued and wgmma.wait_group 1 returned."""
    else:
        consumer_text = f"""issues 4 wgmma.m64n{bn}k16 per k-block, waits for them
//                   (wait_group 0) and frees the stage at once (comparison
//                   variant without the release lag, consumer_depth = 1)."""
    grid_text = ("A launch with grid = number\n// of tiles is the non-persistent form of the same kernel.")
    if stream_k:
        grid_text = ("Stream-K: one CTA per M-tile in each group\n"
                     "// of CTAs; group q of Q runs the (N-tile, k-block) iterations\n"
                     "// [q W / Q, (q + 1) W / Q) of W = N-tiles x k-blocks, one work unit\n"
                     "// per N-tile they touch (launch at least the M-tile count, a multiple of\n"
                     "// it, and no more CTAs than fit the GPU at once: owners wait for later\n"
                     "// CTAs).")
    if cluster == 2:
        cluster_text = """
// Clusters of 2 CTAs (launch with cluster dims (2, 1, 1)): the pair computes
// M-tiles 2i and 2i + 1 of the same N-tile; each CTA loads half of the B
// tile and multicasts it into both CTAs (release_ctas = 2: every consumer
// arrive reaches the empty barriers of both CTAs, empty count 4)."""
        empty_text = "empty count 4 (2 warpgroups x 2 CTAs)"
    else:
        cluster_text = ""
        empty_text = "empty count 2"
    if epi_buffers == 2:
        epi_text = f"""{rounds} rounds of {epi_subtiles} 64x64 sub-tile(s),
//                   alternating between 2 staging buffers so that the
//                   stmatrix of one round overlaps the TMA store of the last."""
    else:
        epi_text = f"""{rounds} round(s) of {epi_subtiles} 64x64 sub-tile(s)."""
    k.emit(f"""
// A warp-specialized, persistent bf16 GEMM for Hopper (sm_90a), written with
// the pipeline dialect and upstream NVGPU/NVVM ops:
//
//   C[M, N] = A[M, K] * B[N, K]^T     bf16 inputs, f32 accumulation, bf16 C
//
// Layouts, as a row-major torch.matmul(x, w.t()) hands them to cuBLAS
// (cublasLt with opA = T on w, i.e. "TN"): A row-major M x K; B stored N x K
// row-major (K contiguous), that is a column-major K x N B, which wgmma reads
// K-major with no transpose (upstream's warpgroup descriptor accepts only
// this "transposed B"); C row-major M x N. A, B and C are all read or
// written by TMA with 128-byte swizzle.
//
// GENERATED by bench/gemm/gen_gemm_sm90.py {gen_args}:
// edit the generator, not this file. How it is built and measured:
// docs/gemm.md.
//
// chips: sm_90a
//
// CTA tile {BM} x {bn} x {BK}, {stages} stages, {threads} threads in {1 + consumers} warpgroups:
//   warpgroup 0     producer: setmaxnreg.dec {producer_regs}. Thread 0 walks the tile
//                   schedule; per k-block it acquires a stage, expect_tx with
//                   the default byte count (the payload's {a_stage_bytes} + {b_stage_bytes} =
//                   {expect_tx} B), issues the A and B TMA loads on the stage's full
//                   barrier and releases (steps). drain_producer at the end.
//   warpgroups 1-{consumers}  consumers: setmaxnreg.inc {consumer_regs}. Each owns 64 rows of
//                   the tile (a 64 x {bn} f32 accumulator, {n_acc} registers per
//                   thread) and {consumer_text}
//                   Barriers: full count 1 (the expect_tx), {empty_text}.
//                   Epilogue per tile: f32 -> bf16x2, stmatrix into a
//                   128B-swizzled staging tile, fence.proxy.async, TMA store
//                   (clipped at M, N), {epi_text}
// Tile schedule: persistent (grid = {grid_expr.replace("#SMs", "SMs")}); tile t -> (m, n) in
// groups of `group_m` M-tiles, column-major in a group, so that the CTAs
// running at once share A and B panels in L2. {grid_text}{cluster_text}
//
// Launch: block ({threads}, 1, 1); grid ({grid_expr}, 1, 1); dynamic shared
// memory {smem_bytes} B: barriers in the first KiB, A stages at {a_off}, B stages
// at {b_off}, C staging at {c_off} ({c_wg_bytes} B per consumer warpgroup), all
// 1 KiB aligned (the swizzle pattern repeats every 1024 B).
// Arguments: TMA descriptors (each a pointer to a 128-byte CUtensorMap in
// global memory) of A (box 64 x {BM}, K innermost), B (box 64 x {b_box}) and C (box
// 64 x 64, N innermost), bf16, SWIZZLE_128B, out-of-bound elements zero;
// then M, N, K and group_m{splits_doc}. K and N must be multiples of 8 (TMA
// strides are multiples of 16 bytes); M, N, K need not be multiples of the
// tile: TMA zero-fills loads past the edges and clips stores.
//
// Check and compile:
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/gemm_sm90.mlir
//   pipeline-compile examples/gemm_sm90.mlir --chip=sm_90a -o gemm

!Smem = memref<?xi8, {WS}>
!ATiles = memref<{stages}x1x{BM}x{BK}xbf16, {WS}>
!BTiles = memref<{stages}x1x{bn}x{BK}xbf16, {WS}>
!AStage = memref<1x{BM}x{BK}xbf16, strided<[{BM * BK}, {BK}, 1], offset: ?>, {WS}>
!BStage = memref<1x{bn}x{BK}xbf16, strided<[{bn * BK}, {BK}, 1], offset: ?>, {WS}>
!ATile = memref<{BM}x{BK}xbf16, strided<[{BK}, 1], offset: ?>, {WS}>
!BTile = memref<{b_box}x{BK}xbf16, strided<[{BK}, 1], offset: ?>, {WS}>
!CStaging = memref<{consumers * epi_buffers * epi_subtiles}x64x64xbf16, {WS}>
!CTile = memref<64x64xbf16, strided<[64, 1], offset: ?>, {WS}>
!Elem = memref<bf16, {WS}>
!P = !pipeline.pipeline<{p_params}>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!ATiles, !BTiles]>
!PS = !pipeline.stage<producer, !TP>
!CS = !pipeline.stage<consumer, !TP>
!G = !nvgpu.mbarrier.group<memorySpace = {WS}, num_barriers = {2 * stages}>
!DescA = !nvgpu.tensormap.descriptor<tensor = memref<{BM}x{BK}xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!DescB = !nvgpu.tensormap.descriptor<tensor = memref<{b_box}x{BK}xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!DescC = !nvgpu.tensormap.descriptor<tensor = memref<64x64xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// The f32 accumulator fragment of one wgmma.m64n{bn} (per thread).
!Acc = {acc_t}

module attributes {{gpu.container_module}} {{
gpu.module @gemm_sm90 {{
  gpu.func @{name}(%a_map: !DescA, %b_map: !DescB, %c_map: !DescC,
      %m_i32: i32, %n_i32: i32, %k_i32: i32, %group_m_i32: i32{splits_param}) kernel
      attributes {{nvvm.reqntid = array<i32: {threads}, 1, 1>, nvvm.minctasm = 1 : i32}} {{
""", "")
    for v in sorted(k.index_consts):
        k.emit(f"%c{v} = arith.constant {v} : index", I2)
    hi = (1 << 16) | (64 << 32) | (1 << 62)
    sk_consts = ""
    if stream_k:
        sk_consts = (f"\n%i64_consumers = arith.constant {consumers} : i64"
                     f"\n%i64_slot_words = arith.constant {64 * bn} : i64")
    k.emit(f"""
%i32_0 = arith.constant 0 : i32
%i32_1 = arith.constant 1 : i32
%i32_128 = arith.constant 128 : i32
// wgmma matrix descriptor (K-major, 128-byte swizzle): start address >> 4
// in bits 0-13, leading byte offset 1 (unused when swizzled K-major) at bit
// 16, stride byte offset 1024 B >> 4 = 64 (8 rows of 128 B) at bit 32,
// swizzle mode 1 (128B) at bit 62. One k16 step is 32 B further: + 2.
%i64_desc_hi = arith.constant {hi} : i64
%i64_addr_mask = arith.constant 16383 : i64
%i64_4 = arith.constant 4 : i64
%i64_kstep1 = arith.constant 2 : i64
%i64_kstep2 = arith.constant 4 : i64
%i64_kstep3 = arith.constant 6 : i64
%v2_undef = llvm.mlir.undef : vector<2xf32>{sk_consts}
%acc_undef = llvm.mlir.undef : !Acc
""", I2)
    k.lines.extend(body.lines)
    k.emit("""
    gpu.return
  }
}
}
""", "")
    return "\n".join(k.lines) + "\n", smem_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bn", type=int, default=256)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--epi-subtiles", type=int, default=4)
    ap.add_argument("--epi-buffers", type=int, default=1,
                    help="staging buffers per consumer warpgroup (1 or 2): with 2, round r "
                         "writes buffer r %% 2 while the TMA store of round r-1 reads the other")
    ap.add_argument("--cluster", type=int, default=1,
                    help="2: CTA pairs share (multicast) the B tile; launch with cluster dims (2, 1, 1)")
    ap.add_argument("--no-lag", action="store_true",
                    help="comparison variant: wait_group 0 per k-block, consumer_depth 1")
    ap.add_argument("--producer-regs", type=int, default=40)
    ap.add_argument("--consumer-regs", type=int, default=232)
    ap.add_argument("--consumers", type=int, default=2,
                    help="consumer warpgroups (64 tile rows each): 2, or 1 for small M")
    ap.add_argument("--split-k", action="store_true",
                    help="take a split count S: K slices of a tile run as separate work "
                         "units and reduce-add bf16 partials into a zeroed C")
    ap.add_argument("--stream-k", action="store_true",
                    help="cut all tiles' k-block iterations evenly among the CTAs "
                         "(stream-K); the CTA that starts a tile's K adds the others' f32 "
                         "partials from a workspace and stores C")
    ap.add_argument("--name", default="gemm_bf16_sm90")
    ap.add_argument("-o", "--output",
                    default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                         "..", "..", "examples", "gemm_sm90.mlir"))
    # (run as bench/gemm/gen_gemm_sm90.py: the default output is resolved
    # from that script's place, which passes -o explicitly.)
    ap.add_argument("--print-smem", action="store_true",
                    help="print the dynamic shared memory bytes and exit")
    args = ap.parse_args(argv)
    try:
        text, smem = generate(args.bn, args.stages, args.epi_subtiles,
                              args.producer_regs, args.consumer_regs, args.name,
                              args.cluster, not args.no_lag, args.epi_buffers,
                              args.consumers, args.split_k, args.stream_k)
    except ValueError as e:
        raise SystemExit(str(e))
    if args.print_smem:
        print(smem)
        return
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {os.path.normpath(args.output)} (dynamic shared memory {smem} B)",
          file=sys.stderr)


if __name__ == "__main__":
    main()
