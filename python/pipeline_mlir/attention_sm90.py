#!/usr/bin/env python3
"""Warp-specialized bf16 forward attention for sm_90a (examples/attention_sm90.mlir
and its variants): the generator of its MLIR text, used by
`pipeline_mlir.attention` and, as a command, to write the example.

As for the GEMM (gemm_sm90.py), the kernel is ordinary MLIR text; the script
only unrolls what MLIR cannot loop over: a wgmma accumulator is an LLVM
struct read and written with constant indices, so the softmax's per-element
work, the masks, the stmatrix calls and the wgmma of a block are written out.

  python3 -m pipeline_mlir.attention_sm90 --head-dim 128 --causal -o k.mlir

The kernel, for one (batch, head, 64 x consumers-row query block) per CTA:
  warpgroup 0      producer: thread 0 loads Q once (a one-stage pipeline),
                   then K and V of every key block (two tile pipelines).
  warpgroups 1..c  consumers (1, 2 or 3), 64 query rows each:
                   S = Q K^T (wgmma, K-major Q and K), the online softmax in
                   registers (row max and sum over the 4 lanes of a row,
                   exp2 with the scale folded in, rescaling of O), P to
                   shared memory (stmatrix, the K-major A layout), then
                   O += P V (wgmma, V read MN-major: no transpose), and at
                   the end O / l and the log-sum-exp, O through a TMA store.
Schedules: serial (S, softmax, P V of a block in turn), overlap (S_j and
P_(j-1) V_(j-1) issued together, the softmax of block j under P V), and
with two consumer warpgroups --pingpong: the overlap, the warpgroups taking
turns to issue their GEMMs through two one-stage pipelines (turn_ab,
turn_ba) so that one's softmax runs under the other's GEMMs.
"""
import argparse
import re
import sys

BN = 128   # keys per block
SMEM_LIMIT = 232448
WS = "#gpu.address_space<workgroup>"
NEG_INF = "0xFF800000"
LN2 = 0.6931471805599453


class Text:
    def __init__(self):
        self.lines = []
        self.consts = set()

    def emit(self, text, indent=""):
        for line in text.strip("\n").split("\n"):
            self.lines.append((indent + line) if line.strip() else "")

    def c(self, v):
        self.consts.add(v)
        return f"%c{v}"


def generate(head_dim=128, causal=False, stages=2, producer_regs=24, consumer_regs=None,
             name="attention_fwd_sm90", overlap=True, consumers=2, pingpong=False):
    """The kernel's MLIR text and its dynamic shared memory in bytes.
    `consumers`: consumer warpgroups of 64 query rows each (2 or 3; the CTA
    takes 64 x consumers query rows). `overlap`: the intra-warpgroup
    overlap of the softmax of block j with P V of block j - 1."""
    if consumers not in (1, 2, 3):
        raise ValueError("--consumers must be 1, 2 or 3")
    if pingpong and (consumers != 2 or not overlap):
        raise ValueError("--pingpong needs two consumer warpgroups and the overlap")
    BM = 64 * consumers  # noqa: N806 (query rows per CTA)
    threads = 128 * (1 + consumers)
    if consumer_regs is None:
        # One consumer warpgroup: two CTAs per SM (65536 / (2 x 256) = 128
        # registers per thread at launch; the consumer takes the producer's).
        consumer_regs = {1: 232, 2: 240, 3: 160}[consumers]
    ctas_per_sm = 2 if consumers == 1 else 1
    if producer_regs * 128 + consumer_regs * 128 * consumers > 65536 // (2 if consumers == 1 else 1):
        raise ValueError("setmaxnreg values exceed the 64K register file")
    D = head_dim  # noqa: N806
    if D not in (64, 128):
        raise ValueError("--head-dim must be 64 or 128")
    if stages < 1 or stages > 4:
        raise ValueError("--stages must be 1 to 4")
    halves = D // 64           # 64-column (128-byte) sub-tiles of a row of Q, K, V, O
    tile_bytes = 128 * 64 * 2  # one 128 x 64 bf16 sub-tile
    q_tile_bytes = BM * 64 * 2  # one BM x 64 bf16 sub-tile of Q
    q_bytes = halves * q_tile_bytes
    kv_bytes = halves * tile_bytes
    q_off = 1024
    k_off = q_off + q_bytes
    v_off = k_off + stages * kv_bytes
    p_off = v_off + stages * kv_bytes
    # P: 64 x 128 bf16 per warpgroup (two 64 x 64 sub-tiles), two buffers
    # with the intra-warpgroup overlap.
    p_buf_bytes = 2 * 64 * 64 * 2
    p_wg_bytes = (2 if overlap else 1) * p_buf_bytes
    smem_bytes = p_off + consumers * p_wg_bytes
    if smem_bytes > SMEM_LIMIT:
        raise ValueError(f"{smem_bytes} B of shared memory > {SMEM_LIMIT}")
    n_s = BN // 2   # S accumulator registers per thread (m64n128)
    n_o = D // 2    # O accumulator registers per thread (m64nD)

    t = Text()
    c = t.c
    body = Text()
    body.consts = t.consts
    b = body
    I2, I3 = "      ", "        "

    b.emit("""
%tid = gpu.thread_id x
%qb_raw = gpu.block_id x
%head = gpu.block_id y
%batch = gpu.block_id z
%nqb = gpu.grid_dim x
%seqlen = arith.index_cast %seqlen_i32 : i32 to index
%heads = arith.index_cast %heads_i32 : i32 to index
""", I2)
    if causal:
        b.emit(f"""
// Causal: the longest rows (the last query blocks) start first.
%nqb_1 = arith.subi %nqb, {c(1)} : index
%qb = arith.subi %nqb_1, %qb_raw : index
""", I2)
    else:
        b.emit("%qb = arith.addi %qb_raw, %c0 : index", I2)
        c(0)
    b.emit(f"""
%m0 = arith.muli %qb, {c(BM)} : index
%head_col = arith.muli %head, {c(D)} : index
%kv_blocks_all = arith.ceildivui %seqlen, {c(BN)} : index
""", I2)
    if causal:
        b.emit(f"""
// Key blocks up to the one holding the tile's last row; the blocks from
// the one holding its first row on cross the diagonal and are masked.
%m_end = arith.addi %m0, {c(BM)} : index
%kv_blocks_diag = arith.ceildivui %m_end, {c(BN)} : index
%kv_blocks = arith.minui %kv_blocks_all, %kv_blocks_diag : index
%diag_block = arith.divui %m0, {c(BN)} : index
""", I2)
    else:
        b.emit("%kv_blocks = arith.addi %kv_blocks_all, %c0 : index", I2)
    turn_create = turn_init = ""
    if pingpong:
        turn_create = (f"%turn_ab = pipeline.create in %smem[{c(192)}] : !Smem -> !PTurn\n"
                       f"%turn_ba = pipeline.create in %smem[{c(224)}] : !Smem -> !PTurn\n")
        turn_init = ("// The turns: all 128 threads of a warpgroup arrive (full and empty).\n"
                     "pipeline.init_mbars %turn_ab producer 128 consumer 128 : !PTurn\n"
                     "pipeline.init_mbars %turn_ba producer 128 consumer 128 : !PTurn\n")
    mask_text = ("%mask_from = arith.minui %diag_block, %last_block : index" if causal
                 else "%mask_from = arith.addi %last_block, %c0 : index")
    c(0)
    b.emit(f"""
%last_block = arith.subi %kv_blocks, {c(1)} : index
{mask_text}

// Dynamic shared memory: barriers in the first KiB (Q at 0, K at 64, V at
// 128, the turn at 192), then Q, the K and V stages and the P tiles.
%smem = gpu.dynamic_shared_memory : !Smem
%pq = pipeline.create in %smem[{c(0)}] : !Smem -> !PQ
%pk = pipeline.create in %smem[{c(64)}] : !Smem -> !PKV
%pv = pipeline.create in %smem[{c(128)}] : !Smem -> !PKV
{turn_create}%q_tiles = memref.view %smem[{c(q_off)}][] : !Smem to !QTiles
%k_tiles = memref.view %smem[{c(k_off)}][] : !Smem to !KVTiles
%v_tiles = memref.view %smem[{c(v_off)}][] : !Smem to !KVTiles
%tq = pipeline.input_tile_pipeline %pq payload(%q_tiles : !QTiles) : !PQ -> !TQ
%tk = pipeline.input_tile_pipeline %pk payload(%k_tiles : !KVTiles) : !PKV -> !TKV
%tv = pipeline.input_tile_pipeline %pv payload(%v_tiles : !KVTiles) : !PKV -> !TKV
// full: one arrival (the TMA thread's expect_tx); empty: one elected thread
// of each consumer warpgroup.
pipeline.init_mbars %tq producer 1 consumer {consumers} : !TQ
pipeline.init_mbars %tk producer 1 consumer {consumers} : !TKV
pipeline.init_mbars %tv producer 1 consumer {consumers} : !TKV
{turn_init}
%wg = arith.divui %tid, {c(128)} : index
%is_producer = arith.cmpi eq, %wg, {c(0)} : index
scf.if %is_producer {{
  nvvm.setmaxregister decrease {producer_regs}
  %is_tma_thread = arith.cmpi eq, %tid, {c(0)} : index
  scf.if %is_tma_thread {{
    nvgpu.tma.prefetch.descriptor %q_map : !DescQ
    nvgpu.tma.prefetch.descriptor %k_map : !DescIn
    nvgpu.tma.prefetch.descriptor %v_map : !DescIn
    // Q, once for the whole tile.
    %sq = pipeline.acquire_producer %tq : !TQ
    pipeline.expect_tx %sq : !QPS
    %qbars, %qid = pipeline.mbar %sq : !QPS
    %qst = pipeline.payload %sq[0] : !QPS -> !QStage
""", I2)
    for h in range(halves):
        b.emit(f"""
    %qdst{h} = memref.subview %qst[0, {h * BM}, 0] [1, {BM}, 64] [1, 1, 1] : !QStage to !QTile
    %qcol{h} = arith.addi %head_col, {c(64 * h)} : index
    nvgpu.tma.async.load %q_map[%qcol{h}, %m0, %batch], %qbars[%qid] to %qdst{h} : !DescQ, !GQ -> !QTile
""", I2)
    b.emit(f"""
    pipeline.release %sq : !QPS
    scf.for %j = {c(0)} to %kv_blocks step {c(1)} {{
      %n0 = arith.muli %j, {c(BN)} : index
""", I2)
    for x in ("k", "v"):
        b.emit(f"""
      %s{x} = pipeline.acquire_producer %t{x} : !TKV
      pipeline.expect_tx %s{x} : !KVPS
      %{x}bars, %{x}id = pipeline.mbar %s{x} : !KVPS
      %{x}st = pipeline.payload %s{x}[0] : !KVPS -> !KVStage
""", I2)
        for h in range(halves):
            b.emit(f"""
      %{x}dst{h} = memref.subview %{x}st[0, {h * BN}, 0] [1, {BN}, 64] [1, 1, 1] : !KVStage to !InTile
      %{x}col{h} = arith.addi %head_col, {c(64 * h)} : index
      nvgpu.tma.async.load %{x}_map[%{x}col{h}, %n0, %batch], %{x}bars[%{x}id] to %{x}dst{h} : !DescIn, !GKV -> !InTile
""", I2)
        b.emit(f"      pipeline.release %s{x} : !KVPS", I2)
    b.emit("""
    }
    // No exit while a consumer may still read a stage.
    pipeline.drain_producer %tq : !TQ
    pipeline.drain_producer %tk : !TKV
    pipeline.drain_producer %tv : !TKV
  }
} else {
""", I2)

    # ------------------------------------------------------------ consumers
    b.emit(f"""
nvvm.setmaxregister increase {consumer_regs}
%cw = arith.subi %wg, {c(1)} : index
%ltid = arith.remui %tid, {c(128)} : index
%leader = arith.cmpi eq, %ltid, {c(0)} : index
%warp = arith.divui %ltid, {c(32)} : index
%lane = arith.remui %tid, {c(32)} : index
%cw_i32 = arith.index_cast %cw : index to i32
%bar_id = arith.addi %cw_i32, %i32_1 : i32
%second = arith.cmpi eq, %cw, {c(1)} : index
// The two query rows of this thread in the warpgroup's accumulators:
// r0 = 16 warp + lane / 4 and r0 + 8; its columns are 8 c + 2 (lane % 4) + {{0, 1}}.
%wg_row0 = arith.muli %cw, {c(64)} : index
%w16 = arith.muli %warp, {c(16)} : index
%l4 = arith.divui %lane, {c(4)} : index
%row_in_wg = arith.addi %w16, %l4 : index
%tile_row = arith.addi %wg_row0, %row_in_wg : index
%row0 = arith.addi %m0, %tile_row : index
%row1 = arith.addi %row0, {c(8)} : index
%lane4 = arith.remui %lane, {c(4)} : index
%colq = arith.muli %lane4, {c(2)} : index
%quad_leader = arith.cmpi eq, %lane4, {c(0)} : index

// stmatrix addresses in a 64 x 64 bf16 128B-swizzled sub-tile (as the
// GEMM's epilogue): lane l of warp w gives row w*16 + ((l>>3)&1)*8 + (l&7),
// 16-byte chunk 2*(g&3) ^ ((l&7) ^ (l>>4)) of 16-column group g.
// Every consumer's P tiles, viewed once at their fixed offset (the launch
// contract counts them in the dynamic shared memory the kernel needs).
%p_all = memref.view %smem[{c(p_off)}][] : !Smem to memref<{consumers * p_wg_bytes}xi8, {WS}>
%p_wg_off = arith.muli %cw, {c(p_wg_bytes)} : index
%p_off = arith.addi %p_wg_off, {c(p_off)} : index
%p_tiles = memref.view %smem[%p_off][] : !Smem to !PTiles
%p_base = memref.extract_aligned_pointer_as_index %p_tiles : !PTiles -> index
%l7 = arith.andi %lane, {c(7)} : index
%l8 = arith.shrui %lane, {c(3)} : index
%l8b = arith.andi %l8, {c(1)} : index
%l16 = arith.shrui %lane, {c(4)} : index
%h8 = arith.muli %l8b, {c(8)} : index
%st_row0 = arith.addi %w16, %h8 : index
%st_row = arith.addi %st_row0, %l7 : index
%st_row_bytes = arith.muli %st_row, {c(128)} : index
%st_base = arith.addi %p_base, %st_row_bytes : index
%x = arith.xori %l7, %l16 : index
""", I2)
    for q in range(4):
        b.emit(f"""
%chunk{q} = arith.xori %x, {c(2 * q)} : index
%chunk_bytes{q} = arith.muli %chunk{q}, {c(16)} : index
%thr_addr{q} = arith.addi %st_base, %chunk_bytes{q} : index
""", I2)
    # P descriptors (K-major A: 64 rows x 128 keys in two sub-tiles).
    b.emit("""
%p_base64 = arith.index_cast %p_base : index to i64
%p_a16 = arith.shrui %p_base64, %i64_4 : i64
%p_a14 = arith.andi %p_a16, %i64_addr_mask : i64
%p_desc0 = arith.ori %p_a14, %i64_kmajor : i64
""", I2)
    for kk in range(1, BN // 16):
        off = (kk // 4) * (64 * 64 * 2) + (kk % 4) * 32
        b.emit(f"%p_desc{kk} = arith.addi %p_desc0, {c(off >> 4)}_i64 : i64", I2)

    def stage_base(handle, stage_t, out, ind):
        b.emit(f"""
%{out}_st = pipeline.payload %{handle}[0] : {stage_t[0]} -> {stage_t[1]}
%{out}_base, %{out}_off, %{out}_sz:3, %{out}_str:3 = memref.extract_strided_metadata %{out}_st
    : {stage_t[1]} -> !Elem, index, index, index, index, index, index, index
%{out}_ptr = memref.extract_aligned_pointer_as_index %{out}_base : !Elem -> index
%{out}_eoff = arith.muli %{out}_off, {c(2)} : index
%{out}_addr = arith.addi %{out}_ptr, %{out}_eoff : index
%{out}_addr64 = arith.index_cast %{out}_addr : index to i64
%{out}_a16 = arith.shrui %{out}_addr64, %i64_4 : i64
%{out}_a14 = arith.andi %{out}_a16, %i64_addr_mask : i64
""", ind)

    b.emit("""
// Q for the whole tile.
%sq = pipeline.acquire_consumer %tq : !TQ
""", I2)
    # Q descriptors: this warpgroup's 64 rows of each 128 x 64 sub-tile.
    b.emit(f"""
%q_st = pipeline.payload %sq[0] : !QCS -> !QStage
%q_base, %q_off, %q_sz:3, %q_str:3 = memref.extract_strided_metadata %q_st
    : !QStage -> !Elem, index, index, index, index, index, index, index
%q_ptr = memref.extract_aligned_pointer_as_index %q_base : !Elem -> index
%q_eoff = arith.muli %q_off, {c(2)} : index
%q_addr0 = arith.addi %q_ptr, %q_eoff : index
%q_wg_off = arith.muli %cw, {c(64 * 128)} : index
%q_addr = arith.addi %q_addr0, %q_wg_off : index
%q_addr64 = arith.index_cast %q_addr : index to i64
%q_a16 = arith.shrui %q_addr64, %i64_4 : i64
%q_a14 = arith.andi %q_a16, %i64_addr_mask : i64
%q_desc0 = arith.ori %q_a14, %i64_kmajor : i64
""", I2)
    for kk in range(1, D // 16):
        off = (kk // 4) * q_tile_bytes + (kk % 4) * 32
        b.emit(f"%q_desc{kk} = arith.addi %q_desc0, {c(off >> 4)}_i64 : i64", I2)


    def issue_s(pre, ind):
        """Acquire a K stage and issue S = Q K^T into %{pre}s_raw (committed,
        not waited for); the stage handle is %{pre}sk."""
        b.emit(f"%{pre}sk = pipeline.acquire_consumer %tk : !TKV", ind)
        stage_base(f"{pre}sk", ("!KVCS", "!KVStage"), f"{pre}k", ind)
        b.emit(f"%{pre}k_desc0 = arith.ori %{pre}k_a14, %i64_kmajor : i64", ind)
        for kk in range(1, D // 16):
            off = (kk // 4) * tile_bytes + (kk % 4) * 32
            b.emit(f"%{pre}k_desc{kk} = arith.addi %{pre}k_desc0, {c(off >> 4)}_i64 : i64", ind)
        b.emit("nvvm.wgmma.fence.aligned", ind)
        cur = "%s_undef"
        for kk in range(D // 16):
            scale = "zero" if kk == 0 else "one"
            nxt = f"%{pre}s_raw" if kk == D // 16 - 1 else f"%{pre}s_k{kk}"
            b.emit(f"""
{nxt} = nvvm.wgmma.mma_async %q_desc{kk}, %{pre}k_desc{kk}, {cur},
    #nvvm.shape<m = 64, n = {BN}, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<{scale}>],
    A [<bf16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <col>]
    : !AccS -> !AccS""", ind)
            cur = nxt
        b.emit("nvvm.wgmma.commit.group.sync.aligned", ind)

    def release(handle, ind):
        b.emit(f"""
scf.if %leader {{
  pipeline.arrive %{handle} : !KVCS
}}
pipeline.release %{handle} : !KVCS""", ind)

    def softmax(pre, j, m_in, l_in, ind, first):
        """Mask S (%{pre}s_raw) on the last key block, the online softmax:
        %{pre}p{i} (f32), the new row maxima %{pre}mnew_{r}, sums
        %{pre}lnew_{r} and the rescale factors %{pre}alpha_{r}."""
        b.emit(f"""
%{pre}is_last = arith.cmpi uge, {j}, %mask_from : index
%{pre}s = scf.if %{pre}is_last -> (!AccS) {{
  %{pre}n0 = arith.muli {j}, {c(BN)} : index
  %{pre}base_col = arith.addi %{pre}n0, %colq : index""", ind)
        for r, row in (("a", "%row0"), ("b", "%row1")):
            if causal:
                b.emit(f"""
  %{pre}row_{r}1 = arith.addi {row}, {c(1)} : index
  %{pre}lim_{r}0 = arith.minui %{pre}row_{r}1, %seqlen : index""", ind)
            else:
                b.emit(f"  %{pre}lim_{r}0 = arith.addi %seqlen, {c(0)} : index", ind)
            b.emit(f"""
  %{pre}lim_{r}1 = arith.subi %{pre}lim_{r}0, %{pre}base_col : index
  %{pre}lim_{r} = arith.index_cast %{pre}lim_{r}1 : index to i32""", ind)
        cur = f"%{pre}s_raw"
        for i in range(n_s):
            c8, jj = divmod(i, 4)
            r = "a" if jj < 2 else "b"
            off = c8 * 8 + (jj & 1)
            nxt = f"%{pre}sm{i + 1}"
            b.emit(f"""
  %{pre}mv{i} = llvm.extractvalue %{pre}s_raw[{i}] : !AccS
  %{pre}mk{i} = arith.cmpi sgt, %{pre}lim_{r}, %i32_{off} : i32
  %{pre}ms{i} = arith.select %{pre}mk{i}, %{pre}mv{i}, %f32_ninf : f32
  {nxt} = llvm.insertvalue %{pre}ms{i}, {cur}[{i}] : !AccS""", ind)
            cur = nxt
        b.emit(f"""
  scf.yield {cur} : !AccS
}} else {{
  scf.yield %{pre}s_raw : !AccS
}}""", ind)
        for i in range(n_s):
            b.emit(f"%{pre}v{i} = llvm.extractvalue %{pre}s[{i}] : !AccS", ind)
        for r, sel in (("a", (0, 1)), ("b", (2, 3))):
            idx = [i for i in range(n_s) if i % 4 in sel]
            prev = f"%{pre}v{idx[0]}"
            for n, i in enumerate(idx[1:]):
                b.emit(f"%{pre}mx_{r}{n} = llvm.intr.maxnum({prev}, %{pre}v{i}) : (f32, f32) -> f32", ind)
                prev = f"%{pre}mx_{r}{n}"
            m_old = m_in[r]
            b.emit(f"""
%{pre}mx_{r}_s1 = nvvm.shfl.sync bfly %i32_full, {prev}, %i32_1, %i32_31 : f32 -> f32
%{pre}mx_{r}_1 = llvm.intr.maxnum({prev}, %{pre}mx_{r}_s1) : (f32, f32) -> f32
%{pre}mx_{r}_s2 = nvvm.shfl.sync bfly %i32_full, %{pre}mx_{r}_1, %i32_2, %i32_31 : f32 -> f32
%{pre}mx_{r}_2 = llvm.intr.maxnum(%{pre}mx_{r}_1, %{pre}mx_{r}_s2) : (f32, f32) -> f32
%{pre}mnew_{r} = llvm.intr.maxnum({m_old}, %{pre}mx_{r}_2) : (f32, f32) -> f32
// A row with every key masked so far keeps -inf: subtract 0 instead.
%{pre}mnone_{r} = arith.cmpf oeq, %{pre}mnew_{r}, %f32_ninf : f32
%{pre}muse_{r} = arith.select %{pre}mnone_{r}, %f32_0, %{pre}mnew_{r} : f32
%{pre}mscaled_{r} = arith.mulf %{pre}muse_{r}, %scale_log2 : f32
%{pre}nmscaled_{r} = arith.negf %{pre}mscaled_{r} : f32""", ind)
            if not first:
                b.emit(f"""
%{pre}mold_s_{r} = arith.mulf {m_old}, %scale_log2 : f32
%{pre}alpha_arg_{r} = arith.subf %{pre}mold_s_{r}, %{pre}mscaled_{r} : f32
%{pre}alpha_{r} = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{pre}alpha_arg_{r}) : (f32) -> f32""", ind)
            for i in idx:
                b.emit(f"""
%{pre}pa{i} = math.fma %{pre}v{i}, %scale_log2, %{pre}nmscaled_{r} : f32
%{pre}p{i} = llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{pre}pa{i}) : (f32) -> f32""", ind)
            prev = f"%{pre}p{idx[0]}"
            for n, i in enumerate(idx[1:]):
                b.emit(f"%{pre}sum_{r}{n} = arith.addf {prev}, %{pre}p{i} : f32", ind)
                prev = f"%{pre}sum_{r}{n}"
            if first:
                b.emit(f"%{pre}lnew_{r} = arith.addf {prev}, %f32_0 : f32", ind)
            else:
                b.emit(f"""
%{pre}l_scaled_{r} = arith.mulf {l_in[r]}, %{pre}alpha_{r} : f32
%{pre}lnew_{r} = arith.addf %{pre}l_scaled_{r}, {prev} : f32""", ind)

    def write_p(pre, buf_off, ind):
        """P (bf16) into the P tiles at byte offset `buf_off` (an index
        value), then the proxy fence and the warpgroup barrier."""
        b.emit("""
// Every wgmma that read these P tiles before has completed in all four
// warps before they are overwritten.
nvvm.barrier id = %bar_id number_of_threads = %i32_128""", ind)
        for g in range(BN // 16):
            regs = []
            for jx in range(4):
                i0 = 8 * g + 2 * jx
                v = f"%{pre}pg{g}_{jx}"
                b.emit(f"""
{v}_v0 = llvm.insertelement %{pre}p{i0}, %v2_undef[%i32_0 : i32] : vector<2xf32>
{v}_v = llvm.insertelement %{pre}p{i0 + 1}, {v}_v0[%i32_1 : i32] : vector<2xf32>
{v}_h = llvm.fptrunc {v}_v : vector<2xf32> to vector<2xbf16>
{v}_w = llvm.bitcast {v}_h : vector<2xbf16> to i32""", ind)
                regs.append(f"{v}_w")
            b.emit(f"""
%{pre}pg{g}_addr0 = arith.addi %thr_addr{g & 3}, {c((g // 4) * 8192)} : index
%{pre}pg{g}_addr = arith.addi %{pre}pg{g}_addr0, {buf_off} : index
%{pre}pg{g}_a64 = arith.index_cast %{pre}pg{g}_addr : index to i64
%{pre}pg{g}_ptr = llvm.inttoptr %{pre}pg{g}_a64 : i64 to !llvm.ptr<3>
nvvm.stmatrix %{pre}pg{g}_ptr, {', '.join(regs)}
    {{layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>}}
    : !llvm.ptr<3>, i32, i32, i32, i32""", ind)
        b.emit("""
// Generic-proxy writes (stmatrix), then the async proxy (wgmma) reads.
nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
nvvm.barrier id = %bar_id number_of_threads = %i32_128""", ind)

    def rescale_o(pre, o_in, ind):
        cur = o_in
        for i in range(n_o):
            r = "a" if i % 4 < 2 else "b"
            b.emit(f"""
%{pre}ov{i} = llvm.extractvalue {o_in}[{i}] : !AccO
%{pre}os{i} = arith.mulf %{pre}ov{i}, %{pre}alpha_{r} : f32
%{pre}or{i + 1} = llvm.insertvalue %{pre}os{i}, {cur}[{i}] : !AccO""", ind)
            cur = f"%{pre}or{i + 1}"
        return cur

    def issue_pv(pre, buf_desc_off, o_in, o_out, ind):
        """Acquire a V stage (%{pre}sv) and issue O += P V (committed)."""
        b.emit(f"%{pre}sv = pipeline.acquire_consumer %tv : !TKV", ind)
        stage_base(f"{pre}sv", ("!KVCS", "!KVStage"), f"{pre}v", ind)
        b.emit(f"""
%{pre}v_desc0 = arith.ori %{pre}v_a14, %i64_mnmajor : i64
%{pre}pd0 = arith.addi %p_desc0, {buf_desc_off} : i64""", ind)
        for kk in range(1, BN // 16):
            b.emit(f"%{pre}v_desc{kk} = arith.addi %{pre}v_desc0, {c((kk * 16 * 128) >> 4)}_i64 : i64", ind)
            off = (kk // 4) * (64 * 64 * 2) + (kk % 4) * 32
            b.emit(f"%{pre}pd{kk} = arith.addi %{pre}pd0, {c(off >> 4)}_i64 : i64", ind)
        b.emit("nvvm.wgmma.fence.aligned", ind)
        cur = o_in
        for kk in range(BN // 16):
            nxt = o_out if kk == BN // 16 - 1 else f"%{pre}o_k{kk}"
            b.emit(f"""
{nxt} = nvvm.wgmma.mma_async %{pre}pd{kk}, %{pre}v_desc{kk}, {cur},
    #nvvm.shape<m = 64, n = {D}, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>],
    A [<bf16>, #nvvm.wgmma_scale_in<one>, <row>], B [<bf16>, #nvvm.wgmma_scale_in<one>, <row>]
    : !AccO -> !AccO""", ind)
            cur = nxt
        b.emit("nvvm.wgmma.commit.group.sync.aligned", ind)

    if not overlap:
        b.emit(f"""
%res:5 = scf.for %j = {c(0)} to %kv_blocks step {c(1)}
    iter_args(%o_in = %o_zero, %m_a = %f32_ninf, %m_b = %f32_ninf, %l_a = %f32_0, %l_b = %f32_0)
    -> (!AccO, f32, f32, f32, f32) {{
  // S = Q K^T, waited for; then the softmax, P, and O += P V.""", I2)
        issue_s("", I3)
        b.emit("nvvm.wgmma.wait.group.sync.aligned 0", I3)
        release("sk", I3)
        softmax("", "%j", {"a": "%m_a", "b": "%m_b"}, {"a": "%l_a", "b": "%l_b"}, I3, False)
        write_p("", c(0), I3)
        o_scaled = rescale_o("", "%o_in", I3)
        issue_pv("", "%i64_0", o_scaled, "%o_next", I3)
        b.emit("nvvm.wgmma.wait.group.sync.aligned 0", I3)
        release("sv", I3)
        b.emit("""
scf.yield %o_next, %mnew_a, %mnew_b, %lnew_a, %lnew_b : !AccO, f32, f32, f32, f32
}""", I3)
    def overlap_section(turn):
        """The overlapped schedule; with `turn` = (mine, theirs), each issue of
        GEMMs waits for this warpgroup's turn and then hands it over."""
        counter = [0]

        def take(ind):
            if turn:
                n = counter[0]
                counter[0] += 1
                b.emit(f"""
// Wait for the tensor cores' turn (the other warpgroup issued its GEMMs).
%turn_c{n} = pipeline.acquire_consumer %{turn[0]} : !PTurn
pipeline.release %turn_c{n} : !TurnCS""", ind)

        def give(ind):
            if turn:
                n = counter[0]
                counter[0] += 1
                b.emit(f"""
// Hand the turn to the other warpgroup.
%turn_p{n} = pipeline.acquire_producer %{turn[1]} : !PTurn
pipeline.arrive %turn_p{n} : !TurnPS
pipeline.release %turn_p{n} : !TurnPS""", ind)

        b.emit("""
// Intra-warpgroup overlap: the softmax of key block j runs while the
// tensor cores compute P V of block j - 1; P is double-buffered.
// Block 0: S, softmax, P into buffer 0.""", I2)
        take(I2)
        issue_s("f_", I2)
        give(I2)
        b.emit("nvvm.wgmma.wait.group.sync.aligned 0", I2)
        release("f_sk", I2)
        softmax("f_", c(0), {"a": "%f32_ninf", "b": "%f32_ninf"}, None, I2, True)
        write_p("f_", c(0), I2)
        b.emit(f"""
%res:5 = scf.for %j = {c(1)} to %kv_blocks step {c(1)}
        iter_args(%o_in = %o_zero, %m_a = %f_mnew_a, %m_b = %f_mnew_b, %l_a = %f_lnew_a, %l_b = %f_lnew_b)
        -> (!AccO, f32, f32, f32, f32) {{
  // Issue S_j = Q K_j^T, then O += P_(j-1) V_(j-1) from P buffer (j-1) % 2.
  %jm1 = arith.subi %j, {c(1)} : index
  %pbuf_prev = arith.andi %jm1, {c(1)} : index
  %pbuf = arith.andi %j, {c(1)} : index
  %pbuf_prev_off = arith.muli %pbuf_prev, {c(p_buf_bytes)} : index
  %pbuf_off = arith.muli %pbuf, {c(p_buf_bytes)} : index
  %pbuf_prev_off64 = arith.index_cast %pbuf_prev_off : index to i64
  %pbuf_prev_desc = arith.shrui %pbuf_prev_off64, %i64_4 : i64""", I2)
        take(I3)
        issue_s("", I3)
        issue_pv("", "%pbuf_prev_desc", "%o_in", "%o_next", I3)
        give(I3)
        b.emit("""
// S_j has completed (P V may still run): free K_j, softmax of block j.
nvvm.wgmma.wait.group.sync.aligned 1""", I3)
        release("sk", I3)
        softmax("", "%j", {"a": "%m_a", "b": "%m_b"}, {"a": "%l_a", "b": "%l_b"}, I3, False)
        write_p("", "%pbuf_off", I3)
        b.emit("""
// P V of block j - 1 has completed: free V_(j-1), rescale O for block j.
nvvm.wgmma.wait.group.sync.aligned 0""", I3)
        release("sv", I3)
        o_scaled = rescale_o("", "%o_next", I3)
        b.emit(f"""
scf.yield {o_scaled}, %mnew_a, %mnew_b, %lnew_a, %lnew_b : !AccO, f32, f32, f32, f32
}}
// The last block's P V.
%last_buf = arith.andi %last_block, {c(1)} : index
%last_buf_off = arith.muli %last_buf, {c(p_buf_bytes)} : index
%last_buf_off64 = arith.index_cast %last_buf_off : index to i64
%last_buf_desc = arith.shrui %last_buf_off64, %i64_4 : i64""", I2)
        take(I2)
        issue_pv("e_", "%last_buf_desc", "%res#0", "%o_final", I2)
        give(I2)
        b.emit("nvvm.wgmma.wait.group.sync.aligned 0", I2)
        release("e_sv", I2)


    if overlap and not pingpong:
        overlap_section(None)
    elif overlap:
        b.emit("""
// Ping-pong: the two warpgroups take turns issuing their GEMMs, so that
// one's softmax runs under the other's GEMMs. Warpgroup 1 takes the turn
// from pipeline turn_ba and hands it over through turn_ab; warpgroup 2 the
// other way round, and hands one turn ahead before it starts (warpgroup 1
// goes first, and takes that last turn after its loop).
%pp:5 = scf.if %second -> (!AccO, f32, f32, f32, f32) {""", I2)
        b.emit("""
%turn_pre = pipeline.acquire_producer %turn_ba : !PTurn
pipeline.arrive %turn_pre : !TurnPS
pipeline.release %turn_pre : !TurnPS""", I3)
        overlap_section(("turn_ab", "turn_ba"))
        b.emit("scf.yield %o_final, %res#1, %res#2, %res#3, %res#4 : !AccO, f32, f32, f32, f32",
               I3)
        b.emit("} else {", I2)
        overlap_section(("turn_ba", "turn_ab"))
        b.emit("""
%turn_last = pipeline.acquire_consumer %turn_ba : !PTurn
pipeline.release %turn_last : !TurnCS
scf.yield %o_final, %res#1, %res#2, %res#3, %res#4 : !AccO, f32, f32, f32, f32""", I3)
        b.emit("}", I2)
    o_final = "%o_final" if overlap else "%res#0"
    res = "%res"
    if pingpong:
        o_final, res = "%pp#0", "%pp"
    b.emit("""
scf.if %leader {
  pipeline.arrive %sq : !QCS
}
pipeline.release %sq : !QCS

// O / l and the log-sum-exp of each row: l summed over the row's 4 lanes.
""", I2)
    for k, r in ((1, "a"), (2, "b")):
        m_ix = k
        l_ix = k + 2
        b.emit(f"""
%lp_{r} = arith.addf {res}#{l_ix}, %f32_0 : f32
%ls1_{r} = nvvm.shfl.sync bfly %i32_full, %lp_{r}, %i32_1, %i32_31 : f32 -> f32
%lq_{r} = arith.addf %lp_{r}, %ls1_{r} : f32
%ls2_{r} = nvvm.shfl.sync bfly %i32_full, %lq_{r}, %i32_2, %i32_31 : f32 -> f32
%lsum_{r} = arith.addf %lq_{r}, %ls2_{r} : f32
%inv_{r} = arith.divf %f32_1, %lsum_{r} : f32
%mfin_{r} = arith.mulf {res}#{m_ix}, %scale_log2 : f32
%lg_{r} = llvm.call_intrinsic "llvm.nvvm.lg2.approx.f"(%lsum_{r}) : (f32) -> f32
%lse2_{r} = arith.addf %mfin_{r}, %lg_{r} : f32
%lse_{r} = arith.mulf %lse2_{r}, %f32_ln2 : f32
""", I2)
    b.emit("""
// The log-sum-exp (natural log, of the scaled scores) at [batch, head, row]:
// one lane of each row's quad, rows below seqlen.
%bh0 = arith.muli %batch, %heads : index
%bh = arith.addi %bh0, %head : index
%bh_rows = arith.muli %bh, %seqlen : index
%lse_base = llvm.inttoptr %lse_i64 : i64 to !llvm.ptr<1>
""", I2)
    for r, row in (("a", "%row0"), ("b", "%row1")):
        b.emit(f"""
%in_{r} = arith.cmpi ult, {row}, %seqlen : index
%wr_{r} = arith.andi %in_{r}, %quad_leader : i1
scf.if %wr_{r} {{
  %li_{r} = arith.addi %bh_rows, {row} : index
  %li64_{r} = arith.index_cast %li_{r} : index to i64
  %lp_ptr_{r} = llvm.getelementptr %lse_base[%li64_{r}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %lse_{r}, %lp_ptr_{r} : f32, !llvm.ptr<1>
}}
""", I2)
    b.emit("""
// O to the P tiles (free: the last P V was waited for in every warp after
// this barrier), then TMA stores clipped at seqlen.
nvvm.barrier id = %bar_id number_of_threads = %i32_128
""", I2)
    for g in range(D // 16):
        regs = []
        for jx in range(4):
            i0 = 8 * g + 2 * jx
            v = f"%og{g}_{jx}"
            ra = "a" if jx % 2 == 0 else "b"
            b.emit(f"""
{v}_x0 = llvm.extractvalue {o_final}[{i0}] : !AccO
{v}_y0 = llvm.extractvalue {o_final}[{i0 + 1}] : !AccO
{v}_x = arith.mulf {v}_x0, %inv_{ra} : f32
{v}_y = arith.mulf {v}_y0, %inv_{ra} : f32
{v}_v0 = llvm.insertelement {v}_x, %v2_undef[%i32_0 : i32] : vector<2xf32>
{v}_v = llvm.insertelement {v}_y, {v}_v0[%i32_1 : i32] : vector<2xf32>
{v}_h = llvm.fptrunc {v}_v : vector<2xf32> to vector<2xbf16>
{v}_w = llvm.bitcast {v}_h : vector<2xbf16> to i32""", I2)
            regs.append(f"{v}_w")
        b.emit(f"""
%og{g}_addr = arith.addi %thr_addr{g & 3}, {c((g // 4) * 8192)} : index
%og{g}_a64 = arith.index_cast %og{g}_addr : index to i64
%og{g}_ptr = llvm.inttoptr %og{g}_a64 : i64 to !llvm.ptr<3>
nvvm.stmatrix %og{g}_ptr, {', '.join(regs)}
    {{layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>}}
    : !llvm.ptr<3>, i32, i32, i32, i32""", I2)
    b.emit("""
nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
nvvm.barrier id = %bar_id number_of_threads = %i32_128
%o_row = arith.addi %m0, %wg_row0 : index
scf.if %leader {
""", I2)
    for h in range(halves):
        b.emit(f"""
  %osrc{h} = memref.subview %p_tiles[{c(h)}, 0, 0] [1, 64, 64] [1, 1, 1] : !PTiles to !OTile
  %ocol{h} = arith.addi %head_col, {c(64 * h)} : index
  nvgpu.tma.async.store %osrc{h} to %o_map[%ocol{h}, %o_row, %batch] : !OTile -> !DescO
""", I2)
    b.emit("""
  nvvm.cp.async.bulk.commit.group
  nvvm.cp.async.bulk.wait_group 0
}
""", I2)
    b.emit("}", I2)

    # ------------------------------------------------------------- header
    acc_s = "!llvm.struct<(" + ", ".join(["f32"] * n_s) + ")>"
    acc_o = "!llvm.struct<(" + ", ".join(["f32"] * n_o) + ")>"
    k_hi = (1 << 16) | (64 << 32) | (1 << 62)
    v_hi = ((tile_bytes >> 4) << 16) | (64 << 32) | (1 << 62)
    gen_args = (f"--head-dim {D} --stages {stages} --consumers {consumers}"
                + (" --causal" if causal else "") + ("" if overlap else " --no-overlap")
                + (" --pingpong" if pingpong else ""))
    t.emit(f"""
// Forward attention for Hopper (sm_90a), bf16, warp-specialized, written with
// the pipeline dialect and upstream NVGPU/NVVM ops:
//
//   O = softmax(scale Q K^T [+ causal mask]) V,  LSE = log sum exp(scale Q K^T)
//
// GENERATED by python/pipeline_mlir/attention_sm90.py {gen_args}: edit the
// generator, not this file. How it is built and measured: docs/attention.md.
//
// chips: sm_90a
//
// Tensors (batch, seqlen, heads, {D}) bf16, contiguous (torch's layout for
// flash attention), seen by TMA as 3-D (batch, seqlen, heads x {D}): each
// batch's rows past seqlen read as zero and are not written. LSE: f32
// (batch, heads, seqlen).
// CTA: one {BM}-row query block of one (batch, head), {consumers} consumer
// warpgroups of 64 rows; {'the softmax of key block j overlaps P V of block j - 1 (P double-buffered)' if overlap else 'S, softmax and P V of a key block in turn'}.
// Launch: grid (ceil(seqlen / {BM}), heads, batch), block ({threads}, 1, 1),
// dynamic shared memory {smem_bytes} B: barriers in the first KiB, Q at {q_off},
// {stages} K stages at {k_off}, {stages} V stages at {v_off}, the consumers' P tiles at {p_off}
// ({p_wg_bytes} B each). {"Causal: the last query blocks start first." if causal else ""}
// Arguments: TMA descriptors (128-byte CUtensorMap in global memory) of the
// 3-D views of Q (box 64 x {BM} x 1), K, V (box 64 x {BN} x 1) and O (box 64 x 64 x 1),
// 128-byte swizzle, zero fill; the LSE address (i64), seqlen, heads (i32),
// and scale x log2(e) (f32).
// Pipelines: Q (1 stage, loaded once per CTA), K and V ({stages} stages each, one
// stage per key block of {BN}); full barriers: 1 arrival (the producer's
// expect_tx of the stage's bytes), empty barriers: {consumers} arrivals (one
// elected thread per consumer warpgroup).
//
// Check and compile:
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/attention_sm90.mlir
//   pipeline-compile examples/attention_sm90.mlir --chip=sm_90a -o attention

!Smem = memref<?xi8, {WS}>
// A stage: the {halves} rows x 64 sub-tile(s) of columns 0-63{', 64-127' if halves == 2 else ''} one under the other.
!QTiles = memref<1x1x{halves * BM}x64xbf16, {WS}>
!KVTiles = memref<{stages}x1x{halves * BN}x64xbf16, {WS}>
!QStage = memref<1x{halves * BM}x64xbf16, strided<[{halves * BM * 64}, 64, 1], offset: ?>, {WS}>
!QTile = memref<1x{BM}x64xbf16, strided<[{halves * BM * 64}, 64, 1], offset: ?>, {WS}>
!KVStage = memref<1x{halves * BN}x64xbf16, strided<[{halves * BN * 64}, 64, 1], offset: ?>, {WS}>
!InTile = memref<1x{BN}x64xbf16, strided<[{halves * BN * 64}, 64, 1], offset: ?>, {WS}>
!PTiles = memref<2x64x64xbf16, {WS}>
!OTile = memref<1x64x64xbf16, strided<[4096, 64, 1], offset: ?>, {WS}>
!Elem = memref<bf16, {WS}>
!PQ = !pipeline.pipeline<stages = 1>
!PKV = !pipeline.pipeline<stages = {stages}>
!PTurn = !pipeline.pipeline<stages = 1>
!TurnPS = !pipeline.stage<producer, !PTurn>
!TurnCS = !pipeline.stage<consumer, !PTurn>
!TQ = !pipeline.tile_pipeline<pipeline = !PQ, k_group_size = 1, payload = [!QTiles]>
!TKV = !pipeline.tile_pipeline<pipeline = !PKV, k_group_size = 1, payload = [!KVTiles]>
!QPS = !pipeline.stage<producer, !TQ>
!QCS = !pipeline.stage<consumer, !TQ>
!KVPS = !pipeline.stage<producer, !TKV>
!KVCS = !pipeline.stage<consumer, !TKV>
!GQ = !nvgpu.mbarrier.group<memorySpace = {WS}, num_barriers = 2>
!GKV = !nvgpu.mbarrier.group<memorySpace = {WS}, num_barriers = {2 * stages}>
!DescQ = !nvgpu.tensormap.descriptor<tensor = memref<1x{BM}x64xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!DescIn = !nvgpu.tensormap.descriptor<tensor = memref<1x{BN}x64xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!DescO = !nvgpu.tensormap.descriptor<tensor = memref<1x64x64xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
// The f32 accumulator fragments (per thread) of wgmma m64n{BN} (S) and m64n{D} (O).
!AccS = {acc_s}
!AccO = {acc_o}

module attributes {{gpu.container_module}} {{
gpu.module @attention_sm90 {{
  gpu.func @{name}(%q_map: !DescQ, %k_map: !DescIn, %v_map: !DescIn, %o_map: !DescO,
      %lse_i64: i64, %seqlen_i32: i32, %heads_i32: i32, %scale_log2: f32) kernel
      attributes {{nvvm.reqntid = array<i32: {threads}, 1, 1>, nvvm.minctasm = {ctas_per_sm} : i32}} {{
""")
    for v in sorted(t.consts):
        t.emit(f"%c{v} = arith.constant {v} : index", I2)
    # i64 offset constants used in descriptors
    i64s = sorted({int(x) for x in re.findall(r"%c(\d+)_i64", "\n".join(b.lines))})
    for v in i64s:
        t.emit(f"%c{v}_i64 = arith.constant {v} : i64", I2)
    i32s = sorted({int(x) for x in re.findall(r"%i32_(\d+)\b", "\n".join(b.lines))} | {0, 1, 2, 31, 128})
    for v in i32s:
        t.emit(f"%i32_{v} = arith.constant {v} : i32", I2)
    t.emit(f"""
%i32_full = arith.constant -1 : i32
// wgmma matrix descriptors (128-byte swizzle): start address >> 4 in bits
// 0-13. K-major (Q, K, P): leading byte offset 1 (unused), stride byte
// offset 1024 B >> 4 = 64 (8 rows of 128 B). MN-major (V): leading byte
// offset {tile_bytes} B >> 4 (the next 64 columns of V, the next sub-tile),
// stride byte offset 1024 B >> 4 (the next 8 keys). Swizzle mode 1 at bit 62.
%i64_kmajor = arith.constant {k_hi} : i64
%i64_mnmajor = arith.constant {v_hi} : i64
%i64_addr_mask = arith.constant 16383 : i64
%i64_4 = arith.constant 4 : i64
%i64_0 = arith.constant 0 : i64
%f32_0 = arith.constant 0.0 : f32
%f32_1 = arith.constant 1.0 : f32
%f32_ninf = arith.constant {NEG_INF} : f32
%f32_ln2 = arith.constant {LN2} : f32
%v2_undef = llvm.mlir.undef : vector<2xf32>
%s_undef = llvm.mlir.undef : !AccS
%o_undef = llvm.mlir.undef : !AccO
""", I2)
    cur = "%o_undef"
    for i in range(n_o):
        nxt = "%o_zero" if i == n_o - 1 else f"%oz{i}"
        t.emit(f"{nxt} = llvm.insertvalue %f32_0, {cur}[{i}] : !AccO", I2)
        cur = nxt
    t.lines.extend(b.lines)
    t.emit("""
    gpu.return
  }
}
}
""")
    return "\n".join(t.lines) + "\n", smem_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--stages", type=int, default=2)
    ap.add_argument("--consumers", type=int, default=2,
                    help="consumer warpgroups of 64 query rows (1, 2 or 3)")
    ap.add_argument("--pingpong", action="store_true",
                    help="the two consumer warpgroups take turns issuing their GEMMs")
    ap.add_argument("--no-overlap", action="store_true",
                    help="comparison variant: each key block's S, softmax and P V in turn")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--print-smem", action="store_true")
    args = ap.parse_args(argv)
    try:
        text, smem = generate(args.head_dim, args.causal, args.stages, overlap=not args.no_overlap,
                              consumers=args.consumers, pingpong=args.pingpong)
    except ValueError as e:
        raise SystemExit(str(e))
    if args.print_smem:
        print(smem)
        return
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {args.output} (dynamic shared memory {smem} B)", file=sys.stderr)


if __name__ == "__main__":
    main()
