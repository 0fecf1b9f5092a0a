"""Warp-specialized bf16 forward attention for sm_90a, written with the
builder (examples/attention_sm90.mlir and its variants; the kernel
`pipeline_mlir.attention` runs):

  O = softmax(scale Q K^T [+ causal mask]) V,  LSE = log sum exp(scale Q K^T)

For one (batch, head, 64 x consumers-row query block) per CTA:
  warpgroup 0      producer: thread 0 loads Q once (a one-stage tile
                   pipeline), then K and V of every key block (two tile
                   pipelines).
  warpgroups 1..c  consumers (1, 2 or 3), 64 query rows each:
                   S = Q K^T (wgmma, K-major Q and K), the online softmax in
                   registers (row max and sum over the 4 lanes of a row,
                   exp2 with the scale folded in, rescaling of O), P to
                   shared memory (stmatrix, the K-major A layout), then
                   O += P V (wgmma, V read MN-major: no transpose), and at
                   the end O / l and the log-sum-exp, O through a TMA store.
Schedules: serial (S, softmax, P V of a block in turn), overlap (S_j and
P_(j-1) V_(j-1) issued together, the softmax of block j under P V), and
with two consumer warpgroups `pingpong`: the overlap, the warpgroups taking
turns to issue their GEMMs through two one-stage pipelines (turn_ab,
turn_ba) so that one's softmax runs under the other's GEMMs.

`persistent`: the grid is the CTAs the GPU holds at once, and each CTA
loops over query blocks (`_Schedule`: causal, a block and its mirror in a
row). The consumers free Q as soon as S of a tile's last key block has
completed and store O without waiting for the store, so the producer loads
the next tile's Q, K and V while they finish the current one; the pipelines'
stages and phases run on across tiles.

    python3 -m pipeline_mlir.kernels.attention_sm90 --head-dim 128 --causal -o k.mlir
    python3 -m pipeline_mlir.kernels.attention_sm90 --pingpong --persistent -o k.mlir
"""


from . import _command
from .. import ir as pm
from .. import types as T
from ..nvidia import common, hopper
from ..nvidia.hopper import Accumulator, FragmentStore, SmemLayout

MODULE = "attention_sm90"  # the gpu.module's name

BN = 128                 # keys per block
SMEM_LIMIT = 232448
SM_SMEM = 233472         # shared memory of an SM; each CTA also takes 1 KiB of it
LN2 = 0.6931471805599453
NEG_INF = float("-inf")
BARRIER_BYTES = 1024     # Q's barriers at 0, K's at 64, V's at 128, the turns at 192 and 224


class Plan:
    """One variant's tile shapes and shared-memory layout (validated)."""

    def __init__(self, head_dim=128, stages=2, producer_regs=24, consumer_regs=None,
                 overlap=True, consumers=2, pingpong=False):
        if consumers not in (1, 2, 3):
            raise ValueError("--consumers must be 1, 2 or 3")
        if pingpong and (consumers != 2 or not overlap):
            raise ValueError("--pingpong needs two consumer warpgroups and the overlap")
        if consumer_regs is None:
            # One consumer warpgroup: two CTAs per SM (65536 / (2 x 256) = 128
            # registers per thread at launch; the consumer takes the producer's).
            consumer_regs = {1: 232, 2: 240, 3: 160}[consumers]
        self.ctas_per_sm = 2 if consumers == 1 else 1
        if producer_regs * 128 + consumer_regs * 128 * consumers > 65536 // self.ctas_per_sm:
            raise ValueError("setmaxnreg values exceed the 64K register file")
        if head_dim not in (64, 128):
            raise ValueError("--head-dim must be 64 or 128")
        if stages < 1 or stages > 4:
            raise ValueError("--stages must be 1 to 4")
        self.d, self.stages, self.consumers = head_dim, stages, consumers
        self.overlap, self.pingpong = overlap, pingpong
        self.producer_regs, self.consumer_regs = producer_regs, consumer_regs
        self.bm = 64 * consumers                     # query rows per CTA
        self.threads = 128 * (1 + consumers)
        self.halves = head_dim // 64                 # 64-column sub-tiles of a row
        # Q and K K-major (head_dim along K of S = Q K^T), V MN-major (head_dim
        # along N of O = P V), P K-major (keys along K); 128-byte swizzle.
        self.q = SmemLayout(self.bm, head_dim)
        self.k = SmemLayout(BN, head_dim)
        self.v = SmemLayout(BN, head_dim, major="MN")
        self.p = SmemLayout(64, BN)
        self.q_off = BARRIER_BYTES
        self.k_off = self.q_off + self.q.nbytes
        self.v_off = self.k_off + stages * self.k.nbytes
        self.p_off = self.v_off + stages * self.v.nbytes
        # P: 64 x 128 bf16 per warpgroup, two buffers with the overlap.
        self.p_wg_bytes = (2 if overlap else 1) * self.p.nbytes
        self.smem_bytes = self.p_off + consumers * self.p_wg_bytes
        if self.smem_bytes > SMEM_LIMIT:
            raise ValueError(f"{self.smem_bytes} B of shared memory > {SMEM_LIMIT}")
        # The CTAs an SM holds at once: ctas_per_sm where shared memory allows.
        self.resident_ctas = min(self.ctas_per_sm, SM_SMEM // (self.smem_bytes + 1024))


class _Tile:
    """One query block of one (batch, head): its first row, the head's first
    column, its key blocks and the first masked one."""

    def __init__(self, pl, causal, qb, head, batch, seqlen):
        bm = pl.bm
        self.head, self.batch = head, batch
        self.m0 = qb * bm
        self.head_col = head * pl.d
        kv_blocks = common.ceildivui(seqlen, BN)
        if causal:
            # Key blocks up to the one holding the tile's last row; those from
            # the one holding its first row on cross the diagonal: masked.
            kv_blocks = common.minui(kv_blocks, common.ceildivui(self.m0 + bm, BN))
        self.kv_blocks = kv_blocks
        self.last_block = kv_blocks - 1
        # The key blocks from mask_from on are masked (seqlen, the diagonal).
        self.mask_from = (common.minui(self.m0 // BN, self.last_block) if causal
                          else self.last_block)


class _Schedule:
    """The persistent kernel's work, alike in every role: units of one
    (batch, head) in order, CTA b taking units b, b + grid, b + 2 grid...
    Without the causal mask a unit is one query block, the query blocks of a
    head in a row (the CTAs at work at once share its K and V in L2). With
    it, unit i of a head is query block m - 1 - i (the longest first), then
    its mirror i (unless it is the same block): every unit has about m + 1
    key blocks, so that the static order keeps the CTAs equally busy."""

    def __init__(self, pl, causal, seqlen, heads, batches):
        self.pl, self.causal, self.seqlen, self.heads = pl, causal, seqlen, heads
        self.m_blocks = common.ceildivui(seqlen, pl.bm)
        self.per_head = common.ceildivui(self.m_blocks, 2) if causal else self.m_blocks
        self.units = self.per_head * heads * batches

    def each(self, body):
        """Calls body(tile) in the loop over this CTA's tiles."""
        first, step = pm.block_id("x"), pm.grid_dim("x")
        if not self.causal:
            with pm.range(first, self.units, step) as u:
                head, batch = self._head(u // self.per_head)
                body(_Tile(self.pl, False, u % self.per_head, head, batch, self.seqlen))
            return
        # Two tiles per unit, the second skipped where it is the first
        # (the middle query block of an odd count): one loop, whose state
        # the consumers keep in few registers.
        units = common.ceildivui(self.units - common.minui(first, self.units), step)
        with pm.range(units * 2) as s:
            u = first + (s >> 1) * step
            i, half = u % self.per_head, s & 1
            with pm.if_(2 * i + half < self.m_blocks):
                qb = common.select(half == 0, (self.m_blocks - 1) - i, i)
                head, batch = self._head(u // self.per_head)
                body(_Tile(self.pl, True, qb, head, batch, self.seqlen))

    def _head(self, bh):
        """(head, batch) of the index bh of a (batch, head)."""
        return bh % self.heads, bh // self.heads


def build(head_dim=128, causal=False, stages=2, producer_regs=24, consumer_regs=None,
          name="attention_fwd_sm90", overlap=True, consumers=2, pingpong=False,
          persistent=False):
    """The kernel of one variant and its dynamic shared memory in bytes.
    `consumers`: consumer warpgroups of 64 query rows each (the CTA takes
    64 x consumers query rows). `overlap`: the softmax of block j runs under
    P V of block j - 1. `pingpong`: two consumer warpgroups take turns.
    `persistent`: a grid of the CTAs that fit on the GPU at once, each
    looping over query blocks (`_Schedule`; the kernel takes the batch
    count after the scale); the producer loads a tile's Q, K and V while
    the consumers finish the one before."""
    pl = Plan(head_dim, stages, producer_regs, consumer_regs, overlap, consumers, pingpong)
    D, BM, halves = pl.d, pl.bm, pl.halves  # noqa: N806

    def box(rows):
        return T.tensormap(T.memref((1, rows, 64), T.bf16, T.smem), swizzle="swizzle_128b")

    def body(q_map, k_map, v_map, o_map, lse_i64, seqlen_i32, heads_i32, scale_log2,
             batch_i32=None):
        tid = pm.thread_id()
        if persistent:
            seqlen, heads = seqlen_i32.cast(T.index), heads_i32.cast(T.index)
            sched = _Schedule(pl, causal, seqlen, heads, batch_i32.cast(T.index))
        else:
            head, batch = pm.block_id("y"), pm.block_id("z")
            seqlen, heads = seqlen_i32.cast(T.index), heads_i32.cast(T.index)
            qb = pm.block_id("x")
            if causal:  # the longest rows (the last query blocks) start first
                qb = (pm.grid_dim("x") - 1) - qb
            tile = _Tile(pl, causal, qb, head, batch, seqlen)

        smem = pm.dynamic_shared_memory()
        pq = pm.pipeline(smem, 0, stages=1)
        pk = pm.pipeline(smem, 64, stages=stages)
        pv = pm.pipeline(smem, 128, stages=stages)
        if pingpong:
            turn_ab = pm.pipeline(smem, 192, stages=1)
            turn_ba = pm.pipeline(smem, 224, stages=1)
        # A stage holds the `halves` 64-column sub-tiles one under the other.
        tq = pm.tile_pipeline(pq, [pm.view(smem, pl.q_off, (1, 1, halves * BM, 64), T.bf16)])
        tk = pm.tile_pipeline(pk, [pm.view(smem, pl.k_off, (stages, 1, halves * BN, 64),
                                           T.bf16)])
        tv = pm.tile_pipeline(pv, [pm.view(smem, pl.v_off, (stages, 1, halves * BN, 64),
                                           T.bf16)])
        # full: one arrival (the TMA thread's expect_tx); empty: one elected
        # thread of each consumer warpgroup.
        for tp in (tq, tk, tv):
            tp.init(producer=1, consumer=consumers)
        if pingpong:  # the turns: all 128 threads of a warpgroup arrive
            turn_ab.init(producer=128, consumer=128)
            turn_ba.init(producer=128, consumer=128)

        wg = tid // 128
        with pm.if_(wg == 0) as role:
            common.setmaxnreg("decrease", pl.producer_regs)
            with pm.if_(tid == 0):
                for desc in (q_map, k_map, v_map):
                    pm.tma_prefetch(desc)

                def load(tp, desc, rows, row0, c):
                    s = tp.acquire_producer()
                    s.expect_tx()
                    bars = s.mbar()
                    stage = s.payload(0)
                    for h in range(halves):
                        dst = pm.subview(stage, [0, h * rows, 0], [1, rows, 64], rank=3)
                        pm.tma_load(desc, [c.head_col + 64 * h, row0, c.batch], bars, dst)
                    s.release()

                def produce(c):
                    load(tq, q_map, BM, c.m0, c)     # Q, once for the whole tile
                    with pm.range(c.kv_blocks) as j:
                        n0 = j * BN
                        load(tk, k_map, BN, n0, c)
                        load(tv, v_map, BN, n0, c)

                if persistent:
                    pm.tma_prefetch(o_map)
                    # The next tile's Q waits for the consumers' last S of
                    # this one, its K and V for their stages: all of them
                    # load while the consumers finish this tile.
                    sched.each(produce)
                else:
                    produce(tile)
                # No exit while a consumer may still read a stage.
                for tp in (tq, tk, tv):
                    tp.drain_producer()

        with role.else_():
            common.setmaxnreg("increase", pl.consumer_regs)
            me = hopper.WarpgroupThread(tid, wg)
            cw, leader, warp, lane, bar_id = me.index, me.leader, me.warp, me.lane, me.bar_id

            def give(turn):
                """Hands the other warpgroup the turn through `turn`."""
                t = turn.acquire_producer()
                t.arrive()
                t.release()

            def take(turn):
                """Waits until this warpgroup has the turn from `turn`."""
                t = turn.acquire_consumer()
                t.release()

            def consume(c, turn=None):
                """The consumer warpgroup's work on tile `c`; `turn`: see
                `overlapped` (the persistent ping-pong's warpgroups each
                loop over the tiles)."""
                m0 = c.m0
                kv_blocks, last_block, mask_from = c.kv_blocks, c.last_block, c.mask_from
                # This thread's two query rows in the warpgroup's accumulators
                # (Accumulator.half 0 and 1), and its quad's first lane.
                wg_row0 = cw * 64
                row0 = m0 + (wg_row0 + (warp * 16 + lane // 4))
                rows = (row0, row0 + 8)
                lane4 = lane % 4
                colq = lane4 * 2
                quad_leader = lane4 == 0
                # Every consumer's P tiles viewed once at their fixed offset (the
                # launch contract counts them in the dynamic shared memory).
                pm.view(smem, pl.p_off, (consumers * pl.p_wg_bytes,), T.i8)
                p_tiles = pm.view(smem, cw * pl.p_wg_bytes + pl.p_off, (2, 64, 64), T.bf16)
                p_base = common.smem_address(p_tiles)
                frag = FragmentStore(p_base, warp, lane)
                p_desc = pl.p.descriptor(p_base)

                sq = tq.acquire_consumer()           # Q for the whole tile
                # This warpgroup's 64 rows of Q.
                q_descs = pl.q.descriptors(common.smem_address(sq.payload(0))
                                           + cw * pl.q.offset(64, 0))
                ninf = pm.constant(NEG_INF, T.f32)
                zero = pm.constant(0.0, T.f32)

                def release(stage):
                    with pm.if_(leader):
                        stage.arrive()
                    stage.release()

                def q_read(last):
                    """Persistent: where S of the tile's last key block has
                    completed (`last`), frees Q: the producer loads the next
                    tile's while this one ends."""
                    with pm.if_(leader & last):
                        sq.arrive()

                def issue_s():
                    """Acquire a K stage and issue S = Q K^T (committed)."""
                    sk = tk.acquire_consumer()
                    k_descs = pl.k.descriptors(common.smem_address(sk.payload(0)))
                    return sk, hopper.mma_tile(Accumulator.undef(BN), q_descs, k_descs,
                                               overwrite=True)

                def issue_pv(p_first, o):
                    """Acquire a V stage and issue O += P V (committed); `p_first`
                    is the descriptor of the P buffer."""
                    sv = tv.acquire_consumer()
                    v_descs = pl.v.descriptors(common.smem_address(sv.payload(0)))
                    return sv, hopper.mma_tile(o, pl.p.step_descriptors(p_first), v_descs,
                                               b_layout=pl.v)

                def softmax(j, s_raw, m_old, l_old):
                    """The mask on the blocks from mask_from on, the online softmax
                    of S: P, the new row maxima and sums, and the factors that
                    rescale O (None for the first block: m_old, l_old None)."""
                    # Key j BN + 2 (lane % 4) + column(i) of a row is kept iff it is
                    # below lim: seqlen, and causal, the row + 1.
                    with pm.if_(j >= mask_from, results=[s_raw.type]) as masked:
                        base_col = j * BN + colq
                        lims = []
                        for row in rows:
                            lim = common.minui(row + 1, seqlen) if causal else seqlen
                            lims.append((lim - base_col).cast(T.i32))
                        masked.yield_(s_raw.map(lambda i, x: common.select(
                            lims[Accumulator.half(i)] > Accumulator.column(i), x, ninf)).value)
                    with masked.else_():
                        masked.yield_(s_raw.value)
                    s = Accumulator.of(BN, masked.results[0])
                    p = [None] * s.size
                    m_new, l_new, alpha = [], [], []
                    for h in (0, 1):
                        m_prev = ninf if m_old is None else m_old[h]
                        m = common.maxnum(m_prev, s.row_reduce(h, common.maxnum))
                        # A row with every key masked so far keeps -inf: subtract 0.
                        m_scaled = common.select(m == ninf, zero, m) * scale_log2
                        neg = common.negf(m_scaled)
                        if m_old is not None:
                            alpha.append(common.ex2_approx(m_prev * scale_log2 - m_scaled))
                        # Every exponential of the row, then their sum (in order):
                        # the exponentials stay independent of the adds.
                        row = s.row_indices(h)
                        for i in row:
                            p[i] = common.ex2_approx(common.fma(s[i], scale_log2, neg))
                        total = p[row[0]]
                        for i in row[1:]:
                            total = total + p[i]
                        m_new.append(m)
                        l_new.append(total if l_old is None else l_old[h] * alpha[h] + total)
                    return Accumulator(BN, elements=p), m_new, l_new, alpha

                def write_p(p, buf_off, first=None):
                    """P (bf16) into the P buffer at byte offset `buf_off`, between
                    the barriers that keep the warpgroup's wgmma off it. `first`
                    (persistent; True or a condition): the tile's first write,
                    where the previous tile's O store may still be reading the
                    P tiles: the leader waits for its reads first."""
                    if first is not None:
                        with pm.if_(leader if first is True else leader & first):
                            common.bulk_wait_group(0, read=True)
                    # Every wgmma that read these tiles has completed in all four warps.
                    common.named_barrier(bar_id, 128)
                    for g in range(BN // 16):
                        frag.store(p, g, buf_off)
                    # Generic-proxy writes (stmatrix), then the async proxy (wgmma) reads.
                    common.fence_proxy_async_shared()
                    common.named_barrier(bar_id, 128)

                def rescale(o, alpha):
                    return o.map(lambda i, x: x * alpha[Accumulator.half(i)])

                def buffer_desc(block):
                    """The descriptor of P buffer block % 2."""
                    return SmemLayout.moved(p_desc, (block & 1) * pl.p.nbytes)

                if not overlap:
                    o_zero = Accumulator.fill(D, 0.0)
                    with pm.range(kv_blocks, carry=[o_zero.value, ninf, ninf, zero,
                                                    zero]) as loop:
                        o = Accumulator.of(D, loop.carried[0])
                        m_old, l_old = loop.carried[1:3], loop.carried[3:5]
                        # S = Q K^T, waited for; then the softmax, P, and O += P V.
                        sk, s = issue_s()
                        hopper.wait_group(0)
                        release(sk)
                        if persistent:
                            q_read(loop.iv == last_block)
                        p, m, l, alpha = softmax(loop.iv, s, m_old, l_old)
                        write_p(p, 0, (loop.iv == 0) if persistent else None)
                        sv, o = issue_pv(p_desc, rescale(o, alpha))
                        hopper.wait_group(0)
                        release(sv)
                        loop.next(o.value, *m, *l)
                    o_final, stats = Accumulator.of(D, loop.results[0]), loop.results[1:]

                def overlapped(turn):
                    """The overlapped schedule; with `turn` = (mine, theirs), each
                    issue of GEMMs waits for this warpgroup's turn, then hands it
                    over."""
                    def take_turn():
                        if turn:  # the other warpgroup issued its GEMMs
                            take(turn[0])

                    def give_turn():
                        if turn:
                            give(turn[1])

                    # Block 0: S, softmax, P into buffer 0.
                    take_turn()
                    sk, s = issue_s()
                    give_turn()
                    hopper.wait_group(0)
                    release(sk)
                    if persistent:
                        q_read(last_block == 0)
                    p, m, l, _ = softmax(pm.constant(0), s, None, None)
                    write_p(p, 0, True if persistent else None)
                    o_zero = Accumulator.fill(D, 0.0)
                    with pm.range(1, kv_blocks, carry=[o_zero.value, *m, *l]) as loop:
                        j = loop.iv
                        o = Accumulator.of(D, loop.carried[0])
                        m_old, l_old = loop.carried[1:3], loop.carried[3:5]
                        # Issue S_j = Q K_j^T, then O += P_(j-1) V_(j-1).
                        prev = buffer_desc(j - 1)
                        buf_off = (j & 1) * pl.p.nbytes
                        take_turn()
                        sk, s = issue_s()
                        sv, o = issue_pv(prev, o)
                        give_turn()
                        # S_j has completed (P V may still run): free K_j, softmax.
                        hopper.wait_group(1)
                        release(sk)
                        if persistent:
                            q_read(j == last_block)
                        p, m, l, alpha = softmax(j, s, m_old, l_old)
                        write_p(p, buf_off)
                        # P V of block j - 1 has completed: free V_(j-1), rescale O.
                        hopper.wait_group(0)
                        release(sv)
                        loop.next(rescale(o, alpha).value, *m, *l)
                    # The last block's P V.
                    last = buffer_desc(last_block)
                    take_turn()
                    sv, o = issue_pv(last, Accumulator.of(D, loop.results[0]))
                    give_turn()
                    hopper.wait_group(0)
                    release(sv)
                    return o, loop.results[1:]

                if overlap and (persistent or not pingpong):
                    o_final, stats = overlapped(turn)
                elif overlap:
                    # Warpgroup 1 takes the turn from turn_ba and hands it over
                    # through turn_ab; warpgroup 2 the other way round, and hands
                    # one turn ahead before it starts (warpgroup 1 goes first and
                    # takes that last turn after its loop).
                    with pm.if_(cw == 1, results=[Accumulator.struct_type(D)]
                                + [T.f32] * 4) as pp:
                        give(turn_ba)
                        o, st = overlapped((turn_ab, turn_ba))
                        pp.yield_(o.value, *st)
                    with pp.else_():
                        o, st = overlapped((turn_ba, turn_ab))
                        take(turn_ba)
                        pp.yield_(o.value, *st)
                    o_final, stats = Accumulator.of(D, pp.results[0]), pp.results[1:]

                if not persistent:
                    with pm.if_(leader):
                        sq.arrive()
                sq.release()

                # O / l and the log-sum-exp of each row: l summed over its 4 lanes.
                inv, lse = [], []
                for h in (0, 1):
                    total = hopper.quad_reduce(stats[2 + h], lambda a, b: a + b)
                    inv.append(pm.constant(1.0, T.f32) / total)
                    lse.append((stats[h] * scale_log2 + common.lg2_approx(total)) * LN2)
                # The log-sum-exp (natural log, of the scaled scores) at [batch,
                # head, row]: one lane of each row's quad, rows below seqlen.
                bh_rows = (c.batch * heads + c.head) * seqlen
                lse_base = common.global_ptr(lse_i64)
                for h in (0, 1):
                    with pm.if_((rows[h] < seqlen) & quad_leader):
                        common.store(lse[h], common.gep(lse_base, bh_rows + rows[h], T.f32))

                # O to the P tiles (free: the last P V was waited for in every warp
                # after this barrier), then TMA stores clipped at seqlen.
                common.named_barrier(bar_id, 128)
                for g in range(D // 16):
                    words = [common.pack_bf16x2(o_final[8 * g + 2 * t] * inv[t & 1],
                                                o_final[8 * g + 2 * t + 1] * inv[t & 1])
                             for t in range(4)]
                    frag.store(None, g, words=words)
                common.fence_proxy_async_shared()
                common.named_barrier(bar_id, 128)
                o_row = m0 + wg_row0
                with pm.if_(leader):
                    for h in range(halves):
                        src = pm.subview(p_tiles, [h, 0, 0], [1, 64, 64], rank=3)
                        common.tma_store(src, o_map, [c.head_col + 64 * h, o_row, c.batch])
                    common.bulk_commit_group()
                    # Persistent: the next tile's first write_p waits for
                    # the reads; the writes complete before the exit.
                    if not persistent:
                        common.bulk_wait_group(0)

            if not persistent:
                consume(tile)
                return
            if pingpong:
                # The turns as above, passed on from one tile to the next:
                # warpgroup 2 hands one ahead before its first tile,
                # warpgroup 1 takes it after its last. Each warpgroup has a
                # tile loop of its own: in one loop for both, the two branches
                # would differ only in the turns, and LLVM merges them into
                # one that picks the turns' role state by address (local
                # memory).
                with pm.if_(cw == 1) as which:
                    give(turn_ba)
                    sched.each(lambda c: consume(c, (turn_ab, turn_ba)))
                with which.else_():
                    sched.each(lambda c: consume(c, (turn_ba, turn_ab)))
                    take(turn_ba)
            else:
                sched.each(consume)
            with pm.if_(leader):
                common.bulk_wait_group(0)

    kernel_options = dict(name=name, block=pl.threads, min_ctas=pl.ctas_per_sm)
    if persistent:
        @pm.kernel(**kernel_options)
        def attention(q_map: box(BM), k_map: box(BN), v_map: box(BN), o_map: box(64),
                      lse_i64: T.i64, seqlen_i32: T.i32, heads_i32: T.i32, scale_log2: T.f32,
                      batch_i32: T.i32):
            body(q_map, k_map, v_map, o_map, lse_i64, seqlen_i32, heads_i32, scale_log2,
                 batch_i32)
    else:
        @pm.kernel(**kernel_options)
        def attention(q_map: box(BM), k_map: box(BN), v_map: box(BN), o_map: box(64),
                      lse_i64: T.i64, seqlen_i32: T.i32, heads_i32: T.i32, scale_log2: T.f32):
            body(q_map, k_map, v_map, o_map, lse_i64, seqlen_i32, heads_i32, scale_log2)

    return attention, pl.smem_bytes


def generate(head_dim=128, causal=False, stages=2, producer_regs=24, consumer_regs=None,
             name="attention_fwd_sm90", overlap=True, consumers=2, pingpong=False,
             locations=True, persistent=False):
    """The whole module's MLIR text and the kernel's dynamic shared memory
    in bytes."""
    kernel, smem = build(head_dim, causal, stages, producer_regs, consumer_regs, name,
                         overlap, consumers, pingpong, persistent)
    return pm.Module([kernel], name=MODULE).mlir(locations=locations), smem


#: The shipped example's options (examples/attention_sm90.mlir).
EXAMPLE = dict(head_dim=128, stages=2, consumers=2, pingpong=True)


def _options_text(head_dim=128, causal=False, stages=2, consumers=2, overlap=True,
                  pingpong=False):
    return (f"--head-dim {head_dim} --stages {stages} --consumers {consumers}"
            + (" --causal" if causal else "") + ("" if overlap else " --no-overlap")
            + (" --pingpong" if pingpong else ""))


def example() -> str:
    """The text of examples/attention_sm90.mlir."""
    o = dict(EXAMPLE)
    pl = Plan(o["head_dim"], o["stages"], consumers=o["consumers"], pingpong=o["pingpong"])
    text, smem = generate(**o, locations=False)
    d, bm = pl.d, pl.bm
    header = f"""\
// Forward attention for Hopper (sm_90a), bf16, warp-specialized, written with
// the pipeline dialect and upstream NVGPU/NVVM ops:
//
//   O = softmax(scale Q K^T [+ causal mask]) V,  LSE = log sum exp(scale Q K^T)
//
// GENERATED by scripts/gen-examples.py from python/pipeline_mlir/kernels/attention_sm90.py
// with {_options_text(**o)}: edit the program, not this
// file. How it is built and measured: docs/attention.md.
//
// chips: sm_90a
//
// Tensors (batch, seqlen, heads, {d}) bf16, contiguous (torch's layout for
// flash attention), seen by TMA as 3-D (batch, seqlen, heads x {d}): each
// batch's rows past seqlen read as zero and are not written. LSE: f32
// (batch, heads, seqlen).
// CTA: one {bm}-row query block of one (batch, head), {pl.consumers} consumer
// warpgroups of 64 rows; the softmax of key block j overlaps P V of block j - 1
// (P double-buffered), the two warpgroups taking turns to issue their GEMMs.
// Launch: grid (ceil(seqlen / {bm}), heads, batch), block ({pl.threads}, 1, 1),
// dynamic shared memory {smem} B: barriers in the first KiB, Q at {pl.q_off},
// {pl.stages} K stages at {pl.k_off}, {pl.stages} V stages at {pl.v_off}, the consumers' P
// tiles at {pl.p_off} ({pl.p_wg_bytes} B each).
// Arguments: TMA descriptors (128-byte CUtensorMap in global memory) of the
// 3-D views of Q (box 64 x {bm} x 1), K, V (box 64 x {BN} x 1) and O (box 64 x 64 x 1),
// 128-byte swizzle, zero fill; the LSE address (i64), seqlen, heads (i32),
// and scale x log2(e) (f32).
// Pipelines: Q (1 stage, loaded once per CTA), K and V ({pl.stages} stages each, one
// stage per key block of {BN}); full barriers: 1 arrival (the producer's
// expect_tx of the stage's bytes), empty barriers: {pl.consumers} arrivals (one
// elected thread per consumer warpgroup).
//
// Check and compile:
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/attention_sm90.mlir
//   pipeline-compile examples/attention_sm90.mlir --chip=sm_90a -o attention

"""
    return header + text


def main(argv=None):
    ap = _command.parser(__doc__)
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--stages", type=int, default=2)
    ap.add_argument("--consumers", type=int, default=2,
                    help="consumer warpgroups of 64 query rows (1, 2 or 3)")
    ap.add_argument("--pingpong", action="store_true",
                    help="the two consumer warpgroups take turns issuing their GEMMs")
    ap.add_argument("--no-overlap", action="store_true",
                    help="comparison variant: each key block's S, softmax and P V in turn")
    ap.add_argument("--persistent", action="store_true",
                    help="a CTA per SM (two with one consumer warpgroup where they fit), "
                         "each looping over query blocks; takes the batch count last")
    args = ap.parse_args(argv)

    def make(a):
        if a.example:
            return example(), build(**EXAMPLE)[1]
        return generate(a.head_dim, a.causal, a.stages, overlap=not a.no_overlap,
                        consumers=a.consumers, pingpong=a.pingpong,
                        locations=not a.no_locations, persistent=a.persistent)
    _command.run(args, make)


if __name__ == "__main__":
    main()
