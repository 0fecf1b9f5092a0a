"""Forward bf16 attention for Blackwell (sm_100a), written with the builder
(examples/attention_sm100.mlir): the twin of attention_sm90 with the
fifth-generation tensor cores, S, P and O in tensor memory.

  O = softmax(scale Q K^T [+ causal mask]) V,  LSE = log sum exp(scale Q K^T)

Tensors (batch, seqlen, heads, head_dim), one CTA per 128-row query block
of one (batch, head).

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

    python3 -m pipeline_mlir.kernels.attention_sm100 --head-dim 128 --causal -o k.mlir
"""


from . import _command
from .. import ir as pm
from .. import types as T
from ..nvidia import blackwell, common
from ..nvidia.blackwell import Mma, SmemDescriptor, TensorMemory
from ..nvidia.hopper import SmemLayout

BM = 128                 # query rows per CTA (the MMA's M, one TMEM lane each)
BN = 128                 # keys per block
SMEM_LIMIT = 232448
LN2 = 0.6931471805599453
BARRIER_BYTES = 1024     # Q at 0, K at 64, V at 128, s at 192, p at 224, TMEM at 256
S_COL, P_COL, O_COL = 0, 128, 256   # TMEM columns of S (f32), P (bf16 pairs), O (f32)
TMEM_COLUMNS = 512
SOFTMAX_THREADS = 128
CHUNK = 32               # TMEM columns per tcgen05.ld/st (32x32b.x32: 32 registers)


class Plan:
    """One variant's shared-memory and tensor-memory layout (validated)."""

    def __init__(self, head_dim=128, stages=2):
        if head_dim not in (64, 128):
            raise ValueError("--head-dim must be 64 or 128")
        self.d, self.stages, self.halves = head_dim, stages, head_dim // 64
        # Q and K K-major (head_dim along K of S = Q K^T), V MN-major
        # (head_dim along N of O = P V); 128-byte swizzle, the 64-column
        # sub-tiles of a row one under the other (what the TMA boxes write).
        self.q = SmemLayout(BM, head_dim)
        self.k = SmemLayout(BN, head_dim)
        self.v = SmemLayout(BN, head_dim, major="MN")
        self.q_off = BARRIER_BYTES
        self.k_off = self.q_off + self.q.nbytes
        self.v_off = self.k_off + stages * self.k.nbytes
        self.smem_bytes = self.v_off + stages * self.v.nbytes
        if self.smem_bytes > SMEM_LIMIT:
            raise ValueError(f"{self.smem_bytes} B of shared memory > {SMEM_LIMIT}")
        # S = Q K^T: M 128, N = BN; O += P V: N = head_dim, P (A) from TMEM.
        self.s_mma = Mma.of(BM, BN, self.q, self.k)
        self.pv_mma = Mma(BM, head_dim, T.bf16, self.v.element, b_major=self.v.major)
        # One K step of P (bf16) spans this many TMEM columns of a lane.
        self.p_step = blackwell.tmem_operand_columns(T.bf16, self.pv_mma.k)
        self.chunk = blackwell.ldst_columns("32x32b", CHUNK)


def build(head_dim=128, causal=False, stages=2, name="attention_fwd_sm100"):
    """The kernel of one variant and its dynamic shared memory in bytes."""
    pl = Plan(head_dim, stages)
    D, halves = pl.d, pl.halves  # noqa: N806
    box = T.tensormap(T.memref((1, 128, 64), T.bf16, T.smem), swizzle="swizzle_128b")

    @pm.kernel(name=name, block=(192, 1, 1), min_ctas=1)
    def attention(q_map: box, k_map: box, v_map: box, o_i64: T.i64, lse_i64: T.i64,
                  seqlen_i32: T.i32, heads_i32: T.i32, scale_log2: T.f32):
        tid = pm.thread_id()
        warp, lane = common.divui(tid, 32), common.remui(tid, 32)
        qb = pm.block_id("x")
        head, batch = pm.block_id("y"), pm.block_id("z")
        seqlen, heads = seqlen_i32.cast(T.index), heads_i32.cast(T.index)
        if causal:  # the longest rows (the last query blocks) start first
            qb = (pm.grid_dim("x") - 1) - qb
        m0 = qb * BM
        head_col = head * D
        kv_blocks = common.ceildivui(seqlen, BN)
        if causal:
            # Key blocks up to the one holding the tile's last row; those from
            # the one holding its first row on cross the diagonal: masked.
            kv_blocks = common.minui(kv_blocks, common.ceildivui(m0 + BM, BN))
        last_block = kv_blocks - 1
        # The key blocks from mask_from on are masked (seqlen, the diagonal).
        mask_from = common.minui(common.divui(m0, BN), last_block) if causal else last_block

        smem = pm.dynamic_shared_memory()
        pq = pm.pipeline(smem, 0, stages=1)
        pk = pm.pipeline(smem, 64, stages=stages)
        pv = pm.pipeline(smem, 128, stages=stages)
        ps = pm.pipeline(smem, 192, stages=1, tmem=True)
        pp = pm.pipeline(smem, 224, stages=1, tmem=True)
        tmem = TensorMemory(smem, 256, TMEM_COLUMNS)
        tq = pm.tile_pipeline(pq, [pm.view(smem, pl.q_off, (1, 1, halves * BM, 64), T.bf16)])
        tk = pm.tile_pipeline(pk, [pm.view(smem, pl.k_off, (stages, 1, halves * BN, 64),
                                           T.bf16)])
        tv = pm.tile_pipeline(pv, [pm.view(smem, pl.v_off, (stages, 1, halves * BN, 64),
                                           T.bf16)])
        # Q, K, V: full 1 (the TMA thread's expect_tx), empty 1 (the MMA
        # warp's tcgen05.commit). s: full 1 (commit), empty 128 (every
        # softmax thread); p: full 128 (every softmax thread), empty 1.
        for tp in (tq, tk, tv):
            tp.init(producer=1, consumer=1)
        ps.init(producer=1, consumer=SOFTMAX_THREADS)
        pp.init(producer=SOFTMAX_THREADS, consumer=1)
        # TMEM: S at column S_COL (BN f32), P at P_COL (BN bf16 = 64
        # columns), O at O_COL (head_dim f32). Read by the softmax threads.
        tm = tmem.alloc(readers=SOFTMAX_THREADS, warp=1)

        with pm.if_(warp == 0) as role:
            with pm.if_(lane == 0):
                _producer(pl, tq, tk, tv, q_map, k_map, v_map, head_col, m0, batch,
                          kv_blocks)
        with role.else_():
            with pm.if_(warp == 1) as mma_role:
                _mma_warp(pl, tq, tk, tv, ps, pp, tmem, kv_blocks)
            with mma_role.else_():
                _softmax(pl, causal, ps, pp, tmem, tm, warp, lane, m0, batch, head, seqlen,
                         heads, kv_blocks, mask_from, scale_log2, o_i64, lse_i64)

    return attention, pl.smem_bytes


def _load_tiles(desc, stage, bars, col0, row0, batch, halves):
    """The `halves` 64-column boxes of a row block into the stage's slice."""
    tiles = stage.payload(0)
    for h in range(halves):
        dst = pm.subview(tiles, [0, h * 128, 0], [1, 128, 64], rank=3)
        pm.tma_load(desc, [col0 + 64 * h if h else col0, row0, batch], bars, dst)


def _producer(pl, tq, tk, tv, q_map, k_map, v_map, head_col, m0, batch, kv_blocks):
    sq = tq.acquire_producer()
    sq.expect_tx()
    _load_tiles(q_map, sq, sq.mbar(), head_col, m0, batch, pl.halves)
    sq.release()
    with pm.range(0, kv_blocks) as j:
        n0 = j * BN
        for tp, desc in ((tk, k_map), (tv, v_map)):
            st = tp.acquire_producer()
            st.expect_tx()
            _load_tiles(desc, st, st.mbar(), head_col, n0, batch, pl.halves)
            st.release()
    for tp in (tq, tk, tv):
        tp.drain_producer()


def _mma_warp(pl, tq, tk, tv, ps, pp, tmem, kv_blocks):
    elect = common.elect_sync()
    s_tmem = tmem.tile(S_COL, BN)
    p_tmem = tmem.tile(P_COL, BN * T.bf16.nbytes // 4)
    o_tmem = tmem.tile(O_COL, pl.d)
    sq = tq.acquire_consumer()
    q_desc = SmemDescriptor(pl.q, common.smem_address(sq.payload(0)))

    def issue_s():
        # S = Q K^T into TMEM: wait until the softmax loaded the previous S,
        # and for the K stage.
        sk = tk.acquire_consumer()
        ss = ps.acquire_producer()
        k_desc = SmemDescriptor(pl.k, common.smem_address(sk.payload(0)))
        with pm.if_(elect):
            for kk in range(pl.q.k_steps):
                pl.s_mma.issue(s_tmem, q_desc.step(kk), k_desc.step(kk), kk > 0)
        # S is complete in TMEM: one arrival on s.full; K is read: K.empty.
        pm.pipeline_op("pipeline.commit_mma", stage=ss, elect=elect)
        pm.pipeline_op("pipeline.step", stage=ss)
        pm.pipeline_op("pipeline.release_mma", stage=sk, elect=elect)
        sk.release()

    def issue_pv(accumulate_first):
        # O += P V: P from TMEM (the A operand in tensor memory, one K step
        # every p_step columns), V MN-major from shared memory. Waits until
        # the softmax wrote P and the rescaled O. `accumulate_first` is false
        # for the tile's first P V (it overwrites O).
        pc = pp.acquire_consumer()
        sv = tv.acquire_consumer()
        v_desc = SmemDescriptor(pl.v, common.smem_address(sv.payload(0)))
        with pm.if_(elect):
            for kk in range(pl.v.k_steps):
                pl.pv_mma.issue(o_tmem, p_tmem.at(column=kk * pl.p_step), v_desc.step(kk),
                                accumulate_first if kk == 0 else True)
        # V is read; P V complete frees p (P may be rewritten, O holds this block).
        pm.pipeline_op("pipeline.release_mma", stage=sv, elect=elect)
        sv.release()
        pm.pipeline_op("pipeline.release_mma", stage=pc, elect=elect)
        pm.pipeline_op("pipeline.release_without_signal", stage=pc)

    issue_s()
    with pm.range(1, kv_blocks) as j:
        issue_s()
        issue_pv(j != 1)
    # The last P V: the tile's first (it overwrites O) with one key block.
    issue_pv(kv_blocks != 1)
    pm.pipeline_op("pipeline.release_mma", stage=sq, elect=elect)
    sq.release()
    # No dealloc while the softmax may still read an S.
    ps.drain_producer()
    tmem.dealloc()


def _softmax(pl, causal, ps, pp, tmem, tm, warp, lane, m0, batch, head, seqlen, heads,
             kv_blocks, mask_from, scale_log2, o_i64, lse_i64):
    # Warps 2..5: thread = query row; warp w reads TMEM lanes 32 (w % 4) ...
    first_lane = common.remui(warp, 4) * 32
    row = m0 + (first_lane + lane)
    rows = tm.at(lane=first_lane, lanes=32)
    chunks = BN // pl.chunk
    ninf, zero = pm.constant(float("-inf"), T.f32), pm.constant(0.0, T.f32)
    # Keys past this row's limit are masked: seqlen, and the diagonal.
    lim_row = common.minui(row + 1, seqlen) if causal else seqlen
    sl2 = common.splat(scale_log2, CHUNK)
    ninf_v = common.splat(ninf, CHUNK)

    with pm.range(0, kv_blocks, carry=[ninf, zero]) as loop:
        m_old, l_old = loop.carried
        j = loop.iv
        n0 = j * BN
        # S_j: this thread's row, BN / 32 loads of 32 columns.
        ss = ps.acquire_consumer()
        s_bits = [rows.load(CHUNK, column=S_COL + pl.chunk * ch) for ch in range(chunks)]
        blackwell.wait_ld()
        # S is in registers: the MMA may write the next S.
        ss.release()
        masked = j >= mask_from
        lim_v = common.splat((lim_row - n0).cast(T.i32), CHUNK)
        s, mx = [], []
        for ch in range(chunks):
            s_f = common.vector_bitcast(s_bits[ch], T.f32)
            keep = lim_v > common.vector_iota(CHUNK, CHUNK * ch)
            s_m = common.select(keep, s_f, ninf_v)
            s.append(common.select(masked, s_m, s_f))
            mx.append(common.vector_reduce(s[ch], "maxnumf"))
        m_new = common.maxnum(m_old, _tree(mx, common.maxnum))
        # A row with every key masked so far keeps -inf: subtract 0 instead.
        m_use = common.select(m_new == ninf, zero, m_new)
        ms = m_use * scale_log2
        nms_v = common.splat(common.negf(ms), CHUNK)
        alpha = common.exp2(m_old * scale_log2 - ms)
        sums, p_words = [], []
        for ch in range(chunks):
            pf = common.exp2(common.fma(s[ch], sl2, nms_v))
            sums.append(common.vector_reduce(pf, "add"))
            p_words.append(common.vector_reinterpret(common.vector_truncf(pf, T.bf16), T.i32))
        l_new = l_old * alpha + _tree(sums, lambda a, b: a + b)
        # P_j and the rescaled O: wait until P_(j-1) V_(j-1) completed (it
        # read P and wrote O).
        sp = pp.acquire_producer()
        with pm.if_(j != 0):
            alpha_v = common.splat(alpha, CHUNK)
            cols = [O_COL + pl.chunk * ch for ch in range(pl.d // pl.chunk)]
            o_bits = [rows.load(CHUNK, column=c) for c in cols]
            blackwell.wait_ld()
            for c, bits in zip(cols, o_bits):
                o = common.vector_bitcast(bits, T.f32) * alpha_v
                rows.store(common.vector_bitcast(o, T.i32), column=c)
        # P: two bf16 per column, BN / 64 stores of 32 columns.
        for h in range(chunks // 2):
            rows.store(common.vector_concat(p_words[2 * h], p_words[2 * h + 1]),
                       column=P_COL + pl.chunk * h)
        blackwell.wait_st()
        # (tmem = true: the arrival fences the TMEM stores before it.)
        sp.arrive()
        sp.release()
        loop.next(m_new, l_new)
    m_fin, l_fin = loop.results

    # The last P V has completed: O is final.
    pp.drain_producer()
    blackwell.fence_after_thread_sync()
    inv_v = common.splat(pm.constant(1.0, T.f32) / l_fin, CHUNK)
    in_seq = row < seqlen
    bh = batch * heads + head
    o_row = common.gep(common.global_ptr(o_i64), (batch * seqlen + row) * heads + head,
                       T.OpaqueType(f"!llvm.array<{pl.d} x bf16>"))
    cols = [O_COL + pl.chunk * ch for ch in range(pl.d // pl.chunk)]
    o_bits = [rows.load(CHUNK, column=c) for c in cols]
    blackwell.wait_ld()
    # Every TMEM access of this thread is behind it.
    tmem.release()
    with pm.if_(in_seq):
        for ch, bits in enumerate(o_bits):
            o = common.vector_truncf(common.vector_bitcast(bits, T.f32) * inv_v, T.bf16)
            common.store(o, common.gep(o_row, CHUNK * ch, T.bf16), alignment=16)
        # The log-sum-exp (natural log) at [batch, head, row].
        lse = (m_fin * scale_log2 + common.log2(l_fin)) * LN2
        common.store(lse, common.gep(common.global_ptr(lse_i64), bh * seqlen + row, T.f32))


def _tree(values, combine):
    """combine over `values` pairwise: ((v0 v1) (v2 v3)) ..."""
    while len(values) > 1:
        values = [combine(values[i], values[i + 1]) if i + 1 < len(values) else values[i]
                  for i in range(0, len(values), 2)]
    return values[0]


def generate(head_dim=128, causal=False, stages=2, name="attention_fwd_sm100",
             locations=True):
    """The whole module's MLIR text and the kernel's dynamic shared memory
    in bytes."""
    kernel, smem = build(head_dim, causal, stages, name)
    return pm.Module([kernel], name="attention_sm100").mlir(locations=locations), smem


#: The shipped example's options (examples/attention_sm100.mlir).
EXAMPLE = dict(head_dim=128, causal=False, stages=2)


def example() -> str:
    """The text of examples/attention_sm100.mlir."""
    o = dict(EXAMPLE)
    pl = Plan(o["head_dim"], o["stages"])
    text, smem = generate(**o, locations=False)
    d = pl.d
    opts = f"--head-dim {d} --stages {pl.stages}" + (" --causal" if o["causal"] else "")
    header = f"""\
// Forward attention for Blackwell (sm_100a), bf16: the twin of
// examples/attention_sm90.mlir with tcgen05 and tensor memory (S, P and O in
// TMEM), written with the pipeline dialect and upstream NVGPU/NVVM ops:
//
//   O = softmax(scale Q K^T [+ causal mask]) V,  LSE = log sum exp(scale Q K^T)
//
// GENERATED by scripts/gen-examples.py from python/pipeline_mlir/kernels/attention_sm100.py
// ({opts}): edit the program, not this file.
//
// chips: sm_100a
//
// Roles (192 threads): warp 0 the TMA producer (Q once, K and V per key
// block of {BN}); warp 1 the MMA issuer (S = Q K^T and O += P V with
// tcgen05.mma, P from TMEM); warps 2-5 the softmax, one query row per
// thread. Pipelines: Q, K, V (tile pipelines, {pl.stages} K and V stages), s
// (MMA -> softmax: S in TMEM) and p (softmax -> MMA: P and the rescaled O
// in TMEM), the TMEM allocation ({TMEM_COLUMNS} columns: S at {S_COL}, P at {P_COL}, O at {O_COL}).
// Launch: grid (ceil(seqlen / {BM}), heads, batch), block (192, 1, 1), dynamic
// shared memory {smem} B: barriers in the first KiB, Q at {pl.q_off}, {pl.stages} K
// stages at {pl.k_off}, {pl.stages} V stages at {pl.v_off}. Arguments: TMA descriptors
// of the 3-D views (batch, seqlen, heads x {d}) of Q, K, V (box 64 x 128 x 1,
// 128B swizzle); the addresses of O (bf16, the layout of Q) and of the LSE
// (f32, batch x heads x seqlen) as i64; seqlen, heads (i32); scale x log2(e)
// (f32).
// Not executed on hardware: assembled by ptxas and run by pipeline-sim.
//
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/attention_sm100.mlir
//   pipeline-compile examples/attention_sm100.mlir --chip=sm_100a -o attention

"""
    return header + text


def main(argv=None):
    ap = _command.parser(__doc__)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--stages", type=int, default=2, help="K and V stages")
    ap.add_argument("--name", default="attention_fwd_sm100")
    args = ap.parse_args(argv)

    def make(a):
        if a.example:
            return example(), Plan(EXAMPLE["head_dim"], EXAMPLE["stages"]).smem_bytes
        return generate(a.head_dim, a.causal, a.stages, a.name,
                        locations=not a.no_locations)
    _command.run(args, make)

if __name__ == "__main__":
    main()
