#!/usr/bin/env python3
"""The sm_100a twin of the attention kernel (examples/attention_sm100.mlir):
the generator of its MLIR text. As examples/attention_sm90.mlir, a forward
bf16 attention of (batch, seqlen, heads, head_dim) tensors, one CTA per
128-row query block of one (batch, head); here with the fifth-generation
tensor cores: S, P and O live in tensor memory.

  python3 python/pipeline_mlir/attention_sm100.py --head-dim 128 -o k.mlir

Roles (192 threads):
  warp 0      TMA producer: Q once (a one-stage tile pipeline), then K and V
              of every key block (two tile pipelines).
  warp 1      MMA issuer: S_j = Q K_j^T into TMEM (tcgen05.mma, A and B
              from shared memory), then O += P_(j-1) V_(j-1) with P read
              from TMEM (the A operand in tensor memory) and V MN-major.
              S_j is issued before P_(j-1) V_(j-1): the tensor cores compute
              the next scores while the softmax works.
  warps 2-5   softmax: thread = row (warp w reads TMEM lanes 32 (w % 4) ..
              + 31). Loads its row of S, masks it, keeps the row max and
              sum, rescales its row of O in TMEM, writes its row of P (bf16)
              to TMEM; at the end O / l and the log-sum-exp to global memory.
Pipelines between them, all through the dialect:
  Q, K, V     tile pipelines (TMA -> MMA; the MMA frees a stage with
              release_mma: tcgen05.commit when the MMAs that read it finish).
  s           tmem = true, 1 stage: MMA -> softmax, "S_j is in TMEM"
              (commit_mma); the softmax frees it once it loaded S_j.
  p           tmem = true, 1 stage: softmax -> MMA, "P_j and the rescaled O
              are in TMEM" (128 arrivals); the MMA frees it with release_mma
              once P_j V_j completed, which also tells the softmax that O
              holds block j.
The kernel is assembled by ptxas for sm_100a and run by the synchronization
simulator (test/Sim/examples.test); it is not executed on hardware here.
"""
import argparse
import sys

WS = "#gpu.address_space<workgroup>"
BM = 128
BN = 128
NEG_INF = "0xFF800000"
LN2 = 0.6931471805599453


def generate(head_dim=128, causal=False, stages=2, name="attention_fwd_sm100"):
    D = head_dim  # noqa: N806
    if D not in (64, 128):
        raise ValueError("--head-dim must be 64 or 128")
    halves = D // 64
    tile_bytes = 128 * 64 * 2
    q_off = 1024
    k_off = q_off + halves * tile_bytes
    v_off = k_off + stages * halves * tile_bytes
    smem_bytes = v_off + stages * halves * tile_bytes
    if smem_bytes > 232448:
        raise ValueError(f"{smem_bytes} B of shared memory > 232448")
    s_col, p_col, o_col = 0, 128, 256
    idesc_s = 0x490 | ((BN >> 3) << 17) | ((BM >> 4) << 24)
    idesc_pv = 0x490 | (1 << 16) | ((D >> 3) << 17) | ((BM >> 4) << 24)
    consts = set()

    def c(v):
        consts.add(v)
        return f"%c{v}"

    out = []

    def emit(text, ind=""):
        for line in text.strip("\n").split("\n"):
            out.append((ind + line) if line.strip() else "")

    I2, I3, I4, I5 = (" " * n for n in (4, 6, 8, 10))
    mask_from = ("%mask_from = arith.minui %diag_block, %last_block : index" if causal
                 else f"%mask_from = arith.addi %last_block, {c(0)} : index")
    kv_blocks = (f"""%m_end = arith.addi %m0, {c(BM)} : index
%kv_blocks_diag = arith.ceildivui %m_end, {c(BN)} : index
%kv_blocks = arith.minui %kv_blocks_all, %kv_blocks_diag : index
%diag_block = arith.divui %m0, {c(BN)} : index""" if causal
                 else f"%kv_blocks = arith.addi %kv_blocks_all, {c(0)} : index")
    qb = (f"""%nqb_1 = arith.subi %nqb, {c(1)} : index
%qb = arith.subi %nqb_1, %qb_raw : index""" if causal
          else f"%qb = arith.addi %qb_raw, {c(0)} : index")
    emit(f"""
%tid = gpu.thread_id x
%warp = arith.divui %tid, {c(32)} : index
%lane = arith.remui %tid, {c(32)} : index
%qb_raw = gpu.block_id x
%head = gpu.block_id y
%batch = gpu.block_id z
%nqb = gpu.grid_dim x
%seqlen = arith.index_cast %seqlen_i32 : i32 to index
%heads = arith.index_cast %heads_i32 : i32 to index
{qb}
%m0 = arith.muli %qb, {c(BM)} : index
%head_col = arith.muli %head, {c(D)} : index
%kv_blocks_all = arith.ceildivui %seqlen, {c(BN)} : index
{kv_blocks}
%last_block = arith.subi %kv_blocks, {c(1)} : index
{mask_from}

// Barriers in the first KiB: Q at 0, K at 64, V at 128, s at 192, p at
// 224, the TMEM allocation's barrier and address word at 256.
%smem = gpu.dynamic_shared_memory : !Smem
%pq = pipeline.create in %smem[{c(0)}] : !Smem -> !PQ
%pk = pipeline.create in %smem[{c(64)}] : !Smem -> !PKV
%pv = pipeline.create in %smem[{c(128)}] : !Smem -> !PKV
%ps = pipeline.create in %smem[{c(192)}] : !Smem -> !PT
%pp = pipeline.create in %smem[{c(224)}] : !Smem -> !PT
%tmem = pipeline.tmem_create in %smem[{c(256)}] : !Smem -> !Tmem
%q_tiles = memref.view %smem[{c(q_off)}][] : !Smem to !QTiles
%k_tiles = memref.view %smem[{c(k_off)}][] : !Smem to !KVTiles
%v_tiles = memref.view %smem[{c(v_off)}][] : !Smem to !KVTiles
%tq = pipeline.input_tile_pipeline %pq payload(%q_tiles : !QTiles) : !PQ -> !TQ
%tk = pipeline.input_tile_pipeline %pk payload(%k_tiles : !KVTiles) : !PKV -> !TKV
%tv = pipeline.input_tile_pipeline %pv payload(%v_tiles : !KVTiles) : !PKV -> !TKV
// Q, K, V: full 1 (the TMA thread's expect_tx), empty 1 (the MMA warp's
// tcgen05.commit). s: full 1 (commit), empty 128 (every softmax thread);
// p: full 128 (every softmax thread), empty 1 (commit).
pipeline.init_mbars %tq producer 1 consumer 1 : !TQ
pipeline.init_mbars %tk producer 1 consumer 1 : !TKV
pipeline.init_mbars %tv producer 1 consumer 1 : !TKV
pipeline.init_mbars %ps producer 1 consumer 128 : !PT
pipeline.init_mbars %pp producer 128 consumer 1 : !PT
// TMEM: S at column {s_col} (128 f32), P at {p_col} (128 bf16 = 64 columns), O at
// {o_col} ({D} f32). Read by the 128 softmax threads.
%tmem_base = pipeline.tmem_alloc %tmem readers 128 warp 1 : !Tmem -> i32

%is_tma_warp = arith.cmpi eq, %warp, {c(0)} : index
%is_mma_warp = arith.cmpi eq, %warp, {c(1)} : index
scf.if %is_tma_warp {{
  %lane0 = arith.cmpi eq, %lane, {c(0)} : index
  scf.if %lane0 {{
    %sq = pipeline.acquire_producer %tq : !TQ
    pipeline.expect_tx %sq : !QPS
    %qbars, %qid = pipeline.mbar %sq : !QPS
    %qst = pipeline.payload %sq[0] : !QPS -> !QStage""", I2)
    for h in range(halves):
        emit(f"""
    %qdst{h} = memref.subview %qst[0, {h * BM}, 0] [1, {BM}, 64] [1, 1, 1] : !QStage to !InTile
    %qcol{h} = arith.addi %head_col, {c(64 * h)} : index
    nvgpu.tma.async.load %q_map[%qcol{h}, %m0, %batch], %qbars[%qid] to %qdst{h} : !DescIn, !GQ -> !InTile""", I2)
    emit(f"""
    pipeline.release %sq : !QPS
    scf.for %j = {c(0)} to %kv_blocks step {c(1)} {{
      %n0 = arith.muli %j, {c(BN)} : index""", I2)
    for x in ("k", "v"):
        emit(f"""
      %s{x} = pipeline.acquire_producer %t{x} : !TKV
      pipeline.expect_tx %s{x} : !KVPS
      %{x}bars, %{x}id = pipeline.mbar %s{x} : !KVPS
      %{x}st = pipeline.payload %s{x}[0] : !KVPS -> !KVStage""", I2)
        for h in range(halves):
            emit(f"""
      %{x}dst{h} = memref.subview %{x}st[0, {h * BN}, 0] [1, {BN}, 64] [1, 1, 1] : !KVStage to !InTile
      %{x}col{h} = arith.addi %head_col, {c(64 * h)} : index
      nvgpu.tma.async.load %{x}_map[%{x}col{h}, %n0, %batch], %{x}bars[%{x}id] to %{x}dst{h} : !DescIn, !GKV -> !InTile""", I2)
        emit(f"      pipeline.release %s{x} : !KVPS", I2)
    emit("""
    }
    pipeline.drain_producer %tq : !TQ
    pipeline.drain_producer %tk : !TKV
    pipeline.drain_producer %tv : !TKV
  }
} else {
scf.if %is_mma_warp {""", I2)

    # ------------------------------------------------------------- MMA warp
    def stage_addr16(handle, stage_t, pre, ind):
        emit(f"""
%{pre}_st = pipeline.payload %{handle}[0] : {stage_t[0]} -> {stage_t[1]}
%{pre}_base, %{pre}_off, %{pre}_sz:3, %{pre}_str:3 = memref.extract_strided_metadata %{pre}_st
    : {stage_t[1]} -> !Elem, index, index, index, index, index, index, index
%{pre}_ptr = memref.extract_aligned_pointer_as_index %{pre}_base : !Elem -> index
%{pre}_eoff = arith.muli %{pre}_off, {c(2)} : index
%{pre}_addr = arith.addi %{pre}_ptr, %{pre}_eoff : index
%{pre}_addr32 = arith.index_cast %{pre}_addr : index to i32
%{pre}16 = arith.shrui %{pre}_addr32, %i32_4 : i32""", ind)

    def issue_s(pre, ind):
        emit(f"""
// S = Q K^T into TMEM columns {s_col}..: wait until the softmax loaded the
// previous S, and for the K stage.
%{pre}sk = pipeline.acquire_consumer %tk : !TKV
%{pre}ss = pipeline.acquire_producer %ps : !PT""", ind)
        stage_addr16(f"{pre}sk", ("!KVCS", "!KVStage"), f"{pre}k", ind)
        emit("scf.if %elect {", ind)
        for kk in range(D // 16):
            off = (kk // 4) * (tile_bytes >> 4) + (kk % 4) * 2
            emit(f"""
  %{pre}qa{kk} = arith.addi %q16, %i32_{off} : i32
  %{pre}kb{kk} = arith.addi %{pre}k16, %i32_{off} : i32
  %{pre}qd{kk} = nvvm.tcgen05.mma_smem_desc (%{pre}qa{kk}, %i32_1, %i32_64, %i8_0, %false, %swizzle128)
      : (i32, i32, i32, i8, i1, i8) -> i64
  %{pre}kd{kk} = nvvm.tcgen05.mma_smem_desc (%{pre}kb{kk}, %i32_1, %i32_64, %i8_0, %false, %swizzle128)
      : (i32, i32, i32, i8, i1, i8) -> i64
  nvvm.tcgen05.mma %s_tmem, %{pre}qd{kk}, %{pre}kd{kk}, %idesc_s, {'%false' if kk == 0 else '%true'}
      {{kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>}}
      : (!llvm.ptr<6>, i64, i64, i32, i1)""", ind)
        emit(f"""
}}
// S is complete in TMEM: one arrival on s.full; K is read: K.empty.
pipeline.commit_mma %{pre}ss elect(%elect) : !TPS
pipeline.step %{pre}ss : !TPS
pipeline.release_mma %{pre}sk elect(%elect) : !KVCS
pipeline.release %{pre}sk : !KVCS""", ind)

    def issue_pv(pre, acc0, ind):
        """`acc0`: the i1 value of the first MMA's accumulate flag (false
        for the first P V of the tile: it overwrites O)."""
        emit(f"""
// O += P V: P from TMEM (columns {p_col}.., the A operand in tensor memory:
// a TMEM address is lane << 16 | column; K = 16 bf16 per MMA is 256 bits of
// a lane, 8 columns),
// V MN-major from shared memory. Waits until the softmax wrote P and the
// rescaled O.
%{pre}pc = pipeline.acquire_consumer %pp : !PT
%{pre}sv = pipeline.acquire_consumer %tv : !TKV""", ind)
        stage_addr16(f"{pre}sv", ("!KVCS", "!KVStage"), f"{pre}v", ind)
        emit("scf.if %elect {", ind)
        for kk in range(BN // 16):
            acc = acc0 if kk == 0 else "%true"
            emit(f"""
  %{pre}pa_addr{kk} = arith.addi %p_addr, %i32_{kk * 8} : i32
  %{pre}pa{kk} = llvm.inttoptr %{pre}pa_addr{kk} : i32 to !llvm.ptr<6>
  %{pre}va{kk} = arith.addi %{pre}v16, %i32_{kk * 128} : i32
  %{pre}vd{kk} = nvvm.tcgen05.mma_smem_desc (%{pre}va{kk}, %i32_{tile_bytes >> 4}, %i32_64, %i8_0, %false, %swizzle128)
      : (i32, i32, i32, i8, i1, i8) -> i64
  nvvm.tcgen05.mma %o_tmem, %{pre}pa{kk}, %{pre}vd{kk}, %idesc_pv, {acc}
      {{kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>}}
      : (!llvm.ptr<6>, !llvm.ptr<6>, i64, i32, i1)""", ind)
        emit(f"""
}}
// V is read; P V complete frees p (P may be rewritten, O holds this block).
pipeline.release_mma %{pre}sv elect(%elect) : !KVCS
pipeline.release %{pre}sv : !KVCS
pipeline.release_mma %{pre}pc elect(%elect) : !TCS
pipeline.release_without_signal %{pre}pc : !TCS""", ind)

    emit(f"""
%elect = nvvm.elect.sync -> i1
%s_addr = arith.addi %tmem_base, %i32_{s_col} : i32
%s_tmem = llvm.inttoptr %s_addr : i32 to !llvm.ptr<6>
%p_addr = arith.addi %tmem_base, %i32_{p_col} : i32
%p_tmem = llvm.inttoptr %p_addr : i32 to !llvm.ptr<6>
%o_addr = arith.addi %tmem_base, %i32_{o_col} : i32
%o_tmem = llvm.inttoptr %o_addr : i32 to !llvm.ptr<6>
%sq = pipeline.acquire_consumer %tq : !TQ""", I3)
    stage_addr16("sq", ("!QCS", "!QStage"), "q", I3)
    issue_s("f_", I3)
    emit(f"""
scf.for %j = {c(1)} to %kv_blocks step {c(1)} {{""", I3)
    issue_s("", I4)
    emit(f"%acc_pv = arith.cmpi ne, %j, {c(1)} : index", I4)
    issue_pv("", "%acc_pv", I4)
    emit("}", I3)
    # The last P V: the tile's first (it overwrites O) with one key block.
    emit(f"%acc_last = arith.cmpi ne, %kv_blocks, {c(1)} : index", I3)
    issue_pv("e_", "%acc_last", I3)
    emit("""
pipeline.release_mma %sq elect(%elect) : !QCS
pipeline.release %sq : !QCS
// No dealloc while the softmax may still read an S.
pipeline.drain_producer %ps : !PT
pipeline.tmem_dealloc %tmem, %tmem_base : !Tmem
} else {""", I3)

    # -------------------------------------------------------------- softmax
    emit(f"""
// Softmax warps 2..5: thread = query row.
%quarter = arith.remui %warp, {c(4)} : index
%q32 = arith.muli %quarter, {c(32)} : index
%row_in_tile = arith.addi %q32, %lane : index
%row = arith.addi %m0, %row_in_tile : index
%q32_i32 = arith.index_cast %q32 : index to i32
%lane_field = arith.shli %q32_i32, %i32_16 : i32
%t_row = arith.addi %tmem_base, %lane_field : i32
%row1 = arith.addi %row, {c(1)} : index
%lim_row = {'arith.minui %row1, %seqlen' if causal else f'arith.addi %seqlen, {c(0)}'} : index
%sl2 = vector.broadcast %scale_log2 : f32 to vector<32xf32>
%ninf_v = vector.broadcast %f32_ninf : f32 to vector<32xf32>
%res:2 = scf.for %j = {c(0)} to %kv_blocks step {c(1)}
    iter_args(%m_old = %f32_ninf, %l_old = %f32_0) -> (f32, f32) {{
  %n0 = arith.muli %j, {c(BN)} : index
  // S_j: this thread's row, 4 loads of 32 columns.
  %ss = pipeline.acquire_consumer %ps : !PT""", I3)
    for ch in range(4):
        emit(f"""
  %s_a{ch} = arith.addi %t_row, %i32_{s_col + 32 * ch} : i32
  %s_p{ch} = llvm.inttoptr %s_a{ch} : i32 to !llvm.ptr<6>
  %s_b{ch} = nvvm.tcgen05.ld %s_p{ch} {{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}} : vector<32xi32>""", I3)
    emit("""
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
  // S is in registers: the MMA may write the next S.
  pipeline.release %ss : !TCS
  %masked = arith.cmpi uge, %j, %mask_from : index
  %lim0 = arith.subi %lim_row, %n0 : index
  %lim_i = arith.index_cast %lim0 : index to i32
  %lim_v = vector.broadcast %lim_i : i32 to vector<32xi32>""", I3)
    for ch in range(4):
        emit(f"""
  %s_f{ch} = arith.bitcast %s_b{ch} : vector<32xi32> to vector<32xf32>
  %keep{ch} = arith.cmpi sgt, %lim_v, %iota{ch} : vector<32xi32>
  %s_m{ch} = arith.select %keep{ch}, %s_f{ch}, %ninf_v : vector<32xi1>, vector<32xf32>
  %s_v{ch} = arith.select %masked, %s_m{ch}, %s_f{ch} : vector<32xf32>
  %mx{ch} = vector.reduction <maxnumf>, %s_v{ch} : vector<32xf32> into f32""", I3)
    emit("""
  %mx01 = arith.maxnumf %mx0, %mx1 : f32
  %mx23 = arith.maxnumf %mx2, %mx3 : f32
  %mx = arith.maxnumf %mx01, %mx23 : f32
  %m_new = arith.maxnumf %m_old, %mx : f32
  // A row with every key masked so far keeps -inf: subtract 0 instead.
  %m_none = arith.cmpf oeq, %m_new, %f32_ninf : f32
  %m_use = arith.select %m_none, %f32_0, %m_new : f32
  %ms = arith.mulf %m_use, %scale_log2 : f32
  %nms = arith.negf %ms : f32
  %nms_v = vector.broadcast %nms : f32 to vector<32xf32>
  %mo_s = arith.mulf %m_old, %scale_log2 : f32
  %alpha_arg = arith.subf %mo_s, %ms : f32
  %alpha = math.exp2 %alpha_arg : f32""", I3)
    for ch in range(4):
        emit(f"""
  %ea{ch} = math.fma %s_v{ch}, %sl2, %nms_v : vector<32xf32>
  %pf{ch} = math.exp2 %ea{ch} : vector<32xf32>
  %sum{ch} = vector.reduction <add>, %pf{ch} : vector<32xf32> into f32
  %pb{ch} = arith.truncf %pf{ch} : vector<32xf32> to vector<32xbf16>
  %pw{ch} = vector.bitcast %pb{ch} : vector<32xbf16> to vector<16xi32>""", I3)
    emit(f"""
  %sum01 = arith.addf %sum0, %sum1 : f32
  %sum23 = arith.addf %sum2, %sum3 : f32
  %rowsum = arith.addf %sum01, %sum23 : f32
  %l_scaled = arith.mulf %l_old, %alpha : f32
  %l_new = arith.addf %l_scaled, %rowsum : f32
  // P_j and the rescaled O: wait until P_(j-1) V_(j-1) completed (it read P
  // and wrote O).
  %sp = pipeline.acquire_producer %pp : !PT
  %not_first = arith.cmpi ne, %j, {c(0)} : index
  scf.if %not_first {{
    %alpha_v = vector.broadcast %alpha : f32 to vector<32xf32>""", I3)
    for ch in range(D // 32):
        emit(f"""
    %o_a{ch} = arith.addi %t_row, %i32_{o_col + 32 * ch} : i32
    %o_p{ch} = llvm.inttoptr %o_a{ch} : i32 to !llvm.ptr<6>
    %o_b{ch} = nvvm.tcgen05.ld %o_p{ch} {{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}} : vector<32xi32>""", I3)
    emit("    nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>", I3)
    for ch in range(D // 32):
        emit(f"""
    %o_f{ch} = arith.bitcast %o_b{ch} : vector<32xi32> to vector<32xf32>
    %o_r{ch} = arith.mulf %o_f{ch}, %alpha_v : vector<32xf32>
    %o_w{ch} = arith.bitcast %o_r{ch} : vector<32xf32> to vector<32xi32>
    nvvm.tcgen05.st %o_p{ch}, %o_w{ch} {{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}} : vector<32xi32>""", I3)
    emit("  }", I3)
    for h in range(2):
        emit(f"""
  %pcat{h} = vector.shuffle %pw{2 * h}, %pw{2 * h + 1} [{', '.join(str(i) for i in range(32))}] : vector<16xi32>, vector<16xi32>
  %pt_a{h} = arith.addi %t_row, %i32_{p_col + 32 * h} : i32
  %pt_p{h} = llvm.inttoptr %pt_a{h} : i32 to !llvm.ptr<6>
  nvvm.tcgen05.st %pt_p{h}, %pcat{h} {{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}} : vector<32xi32>""", I3)
    emit("""
  nvvm.tcgen05.wait #nvvm.tcgen05_wait<store>
  // (tmem = true: the arrival fences the TMEM stores before it.)
  pipeline.arrive %sp : !TPS
  pipeline.release %sp : !TPS
  scf.yield %m_new, %l_new : f32, f32
}
// The last P V has completed: O is final.
pipeline.drain_producer %pp : !PT
nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
%inv_l = arith.divf %f32_1, %res#1 : f32
%inv_v = vector.broadcast %inv_l : f32 to vector<32xf32>
%in_seq = arith.cmpi ult, %row, %seqlen : index
%bh0 = arith.muli %batch, %heads : index
%bh = arith.addi %bh0, %head : index
%srow0 = arith.muli %batch, %seqlen : index
%srow = arith.addi %srow0, %row : index
%orow0 = arith.muli %srow, %heads : index
%orow = arith.addi %orow0, %head : index
%orow_i64 = arith.index_cast %orow : index to i64
%o_base = llvm.inttoptr %o_i64 : i64 to !llvm.ptr<1>
%o_row = llvm.getelementptr %o_base[%orow_i64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !ORow""", I3)
    for ch in range(D // 32):
        emit(f"""
%fo_a{ch} = arith.addi %t_row, %i32_{o_col + 32 * ch} : i32
%fo_p{ch} = llvm.inttoptr %fo_a{ch} : i32 to !llvm.ptr<6>
%fo_b{ch} = nvvm.tcgen05.ld %fo_p{ch} {{shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>}} : vector<32xi32>""", I3)
    emit("""
nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
// Every TMEM access of this thread is behind it.
pipeline.tmem_release %tmem : !Tmem
scf.if %in_seq {""", I3)
    for ch in range(D // 32):
        emit(f"""
  %fo_f{ch} = arith.bitcast %fo_b{ch} : vector<32xi32> to vector<32xf32>
  %fo_s{ch} = arith.mulf %fo_f{ch}, %inv_v : vector<32xf32>
  %fo_h{ch} = arith.truncf %fo_s{ch} : vector<32xf32> to vector<32xbf16>
  %fo_ptr{ch} = llvm.getelementptr %o_row[{32 * ch}] : (!llvm.ptr<1>) -> !llvm.ptr<1>, bf16
  llvm.store %fo_h{ch}, %fo_ptr{ch} {{alignment = 16 : i64}} : vector<32xbf16>, !llvm.ptr<1>""", I3)
    emit("""
  // The log-sum-exp (natural log) at [batch, head, row].
  %mfin = arith.mulf %res#0, %scale_log2 : f32
  %lg = math.log2 %res#1 : f32
  %lse2 = arith.addf %mfin, %lg : f32
  %lse = arith.mulf %lse2, %f32_ln2 : f32
  %bh_rows = arith.muli %bh, %seqlen : index
  %li = arith.addi %bh_rows, %row : index
  %li64 = arith.index_cast %li : index to i64
  %lse_base = llvm.inttoptr %lse_i64 : i64 to !llvm.ptr<1>
  %lp = llvm.getelementptr %lse_base[%li64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %lse, %lp : f32, !llvm.ptr<1>
}
}
}""", I3)

    body = out
    out = []
    iota = "\n".join(
        f"%iota{ch} = arith.constant dense<[{', '.join(str(32 * ch + i) for i in range(32))}]> : vector<32xi32>"
        for ch in range(4))
    text = "\n".join(body)
    import re
    i32s = sorted({int(x) for x in re.findall(r"%i32_(\d+)\b", text)} | {1, 4, 16, 64})
    emit(f"""
// Forward attention for Blackwell (sm_100a), bf16: the twin of
// examples/attention_sm90.mlir with tcgen05 and tensor memory (S, P and O in
// TMEM), written with the pipeline dialect and upstream NVGPU/NVVM ops.
//
// GENERATED by python/pipeline_mlir/attention_sm100.py --head-dim {D}{' --causal' if causal else ''}:
// edit the generator, not this file. docs/attention.md describes it.
//
// chips: sm_100a
//
// Roles (192 threads): warp 0 the TMA producer (Q once, K and V per key
// block of {BN}); warp 1 the MMA issuer (S = Q K^T and O += P V with
// tcgen05.mma, P from TMEM); warps 2-5 the softmax, one query row per
// thread. Pipelines: Q, K, V (tile pipelines, {stages} K and V stages), s
// (MMA -> softmax: S in TMEM) and p (softmax -> MMA: P and the rescaled O
// in TMEM), the TMEM allocation (512 columns: S at {s_col}, P at {p_col}, O at {o_col}).
// Launch: grid (ceil(seqlen / {BM}), heads, batch), block (192, 1, 1), dynamic
// shared memory {smem_bytes} B. Arguments: TMA descriptors of the 3-D views
// (batch, seqlen, heads x {D}) of Q, K, V (box 64 x 128 x 1, 128B swizzle); the
// addresses of O (bf16, the layout of Q) and of the LSE (f32, batch x heads x
// seqlen) as i64; seqlen, heads (i32); scale x log2(e) (f32).
// Not executed on hardware: assembled by ptxas and run by pipeline-sim.
//
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/attention_sm100.mlir
//   pipeline-compile examples/attention_sm100.mlir --chip=sm_100a -o attention

!Smem = memref<?xi8, {WS}>
!QTiles = memref<1x1x{halves * BM}x64xbf16, {WS}>
!KVTiles = memref<{stages}x1x{halves * BN}x64xbf16, {WS}>
!QStage = memref<1x{halves * BM}x64xbf16, strided<[{halves * BM * 64}, 64, 1], offset: ?>, {WS}>
!KVStage = memref<1x{halves * BN}x64xbf16, strided<[{halves * BN * 64}, 64, 1], offset: ?>, {WS}>
!InTile = memref<1x128x64xbf16, strided<[{halves * 128 * 64}, 64, 1], offset: ?>, {WS}>
!Elem = memref<bf16, {WS}>
!ORow = !llvm.array<{D} x bf16>
!PQ = !pipeline.pipeline<stages = 1>
!PKV = !pipeline.pipeline<stages = {stages}>
!PT = !pipeline.pipeline<stages = 1, tmem = true>
!TQ = !pipeline.tile_pipeline<pipeline = !PQ, k_group_size = 1, payload = [!QTiles]>
!TKV = !pipeline.tile_pipeline<pipeline = !PKV, k_group_size = 1, payload = [!KVTiles]>
!QPS = !pipeline.stage<producer, !TQ>
!QCS = !pipeline.stage<consumer, !TQ>
!KVPS = !pipeline.stage<producer, !TKV>
!KVCS = !pipeline.stage<consumer, !TKV>
!TPS = !pipeline.stage<producer, !PT>
!TCS = !pipeline.stage<consumer, !PT>
!Tmem = !pipeline.tmem<columns = 512, cta_group = 1>
!GQ = !nvgpu.mbarrier.group<memorySpace = {WS}, num_barriers = 2>
!GKV = !nvgpu.mbarrier.group<memorySpace = {WS}, num_barriers = {2 * stages}>
!DescIn = !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, {WS}>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>

module attributes {{gpu.container_module}} {{
gpu.module @attention_sm100 {{
  gpu.func @{name}(%q_map: !DescIn, %k_map: !DescIn, %v_map: !DescIn,
      %o_i64: i64, %lse_i64: i64, %seqlen_i32: i32, %heads_i32: i32, %scale_log2: f32) kernel
      attributes {{nvvm.reqntid = array<i32: 192, 1, 1>, nvvm.minctasm = 1 : i32}} {{""")
    for v in sorted(consts):
        emit(f"%c{v} = arith.constant {v} : index", I2)
    for v in i32s:
        emit(f"%i32_{v} = arith.constant {v} : i32", I2)
    emit(f"""
%i8_0 = arith.constant 0 : i8
// The 128-byte swizzle in the tcgen05 shared-memory descriptor.
%swizzle128 = arith.constant 2 : i8
%false = arith.constant false
%true = arith.constant true
// Instruction descriptors (kind::f16): f32 accumulator, bf16 A and B,
// M = 128; S: N = {BN}, A and B K-major; P V: N = {D}, B (V) MN-major (bit 16).
%idesc_s = arith.constant {idesc_s} : i32
%idesc_pv = arith.constant {idesc_pv} : i32
%f32_0 = arith.constant 0.0 : f32
%f32_1 = arith.constant 1.0 : f32
%f32_ninf = arith.constant {NEG_INF} : f32
%f32_ln2 = arith.constant {LN2} : f32
{iota}""", I2)
    out.extend(body)
    emit("""
    gpu.return
  }
}
}""")
    return "\n".join(out) + "\n", smem_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    try:
        text, smem = generate(args.head_dim, args.causal)
    except ValueError as e:
        raise SystemExit(str(e))
    with open(args.output, "w") as f:
        f.write(text)
    print(f"wrote {args.output} (dynamic shared memory {smem} B)", file=sys.stderr)


if __name__ == "__main__":
    main()
