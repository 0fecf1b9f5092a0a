"""The warp-specialized, persistent bf16 GEMM for Hopper (sm_90a), as a
builder program: C[M, N] = A[M, K] B[N, K]^T, bf16 inputs, f32
accumulation, bf16 C (examples/gemm_sm90.mlir and its variants, which
`pipeline_mlir.gemm` launches).

    python3 -m pipeline_mlir.kernels.gemm_sm90 -o out.mlir   # the shipped kernel
    python3 -m pipeline_mlir.kernels.gemm_sm90 --bn 128 --stages 5 --epi-subtiles 2 -o k.mlir

Options (the defaults are the shipped kernel: --bn 256 --stages 3
--epi-subtiles 4 --epi-buffers 1, release lag, no cluster):
  --bn            CTA tile N: 256 (wgmma m64n256k16) or 128, 192, 64
  --stages        pipeline stages (one BM x 64 A and one BN x 64 B tile each)
  --epi-subtiles  64 x 64 bf16 output sub-tiles each consumer warpgroup
                  stages per epilogue round (BN / 64 of them: one round)
  --epi-buffers   1, or 2: alternate two staging buffers between rounds
  --no-lag        comparison variant: wait_group 0 per k-block, no
                  consumer_depth
  --cluster 2     CTA pairs multicast the B tile (release_ctas = 2); the
                  kernel declares the cluster (2, 1, 1)
  --consumers     consumer warpgroups of 64 rows: 2, or 1 for small M
  --split-k       take a split count S: the K slices of a tile reduce-add
                  bf16 partial tiles into a zeroed C (TMA reduce)
  --stream-k      stream-K: take a workspace and flags; the unit that
                  starts a tile's K adds the others' f32 partials
  --pingpong      2 consumer warpgroups that each compute whole 128 x BN
                  tiles (two m64 accumulators), the CTA's tiles 0, 2, 4 ...
                  and 1, 3, 5 ..., from one ring of --stages stages that
                  the producer fills in tile order; the two mainloops take
                  turns, so that one's epilogue overlaps the other's
                  mainloop (CUTLASS's ping-pong kernel); cluster 1, no
                  split-K or stream-K
  --no-turns      ping-pong without the turns (a seeded bug for the tests:
                  a warpgroup may wait on a stage a ring lap early)
  --swap-ab       compute C^T = B A^T (for token counts M that fit 64-row
                  tiles badly): the wgmma M rows (64 per consumer warpgroup)
                  run along N, the wgmma N width --bn (any multiple of 8,
                  8..256) along M; the epilogue stages each warpgroup's
                  --bn x 64 block of C with stmatrix .trans and stores it
                  with one TMA box; bf16, cooperative, --cluster 1, no
                  split-K or stream-K
  --wg-rows       swap-AB: rows of B per consumer warpgroup, 64 or 128
                  (two m64 accumulators: a 256-row tile of 2 warpgroups)
  --producer-regs, --consumer-regs   the setmaxnreg values
The variants measured in docs/gemm.md are built from these options by
bench/gemm/build.sh (VARIANTS=...).

The accumulator is a `hopper.Accumulator` carried through the k-loop; the
A and B descriptors come from the payloads' `hopper.SmemLayout`, the TMA
descriptor types from the same layouts; the epilogue writes the fragment
with `hopper.FragmentStore` (stmatrix) and stores it with TMA.

The program is also the body of the FP8 GEMM (kernels/gemm_fp8_sm90.py):
`_Variant` takes the element type of A and B (k-blocks of 128 bytes: 64
bf16 or 128 e4m3), and a consumer warpgroup's work on a tile goes through
the hooks of `_Consumer` (the k-loop and the accumulator's transform before
the epilogue), which the FP8 program subclasses for its scalings.
"""


import pipeline_mlir as pm
from . import _command
from ..nvidia import common, hopper

K_BLOCK_BYTES = 128  # a k-block: one 128-byte swizzle row of A and of B
BK = K_BLOCK_BYTES // 2   # the bf16 k-block: 64 elements
ELEMENTS = (pm.bf16, pm.f8E4M3FN)   # the element types of A and B
SMEM_LIMIT = 232448  # sm_90: 227 KiB of dynamic shared memory per block
MODULE = "gemm_sm90"  # the gpu.module's name
STAGING_BYTES = hopper.FragmentStore.SUBTILE_BYTES  # one 64 x 64 bf16 sub-tile
TURN_BARRIER_BYTES = (512, 576)  # ping-pong: the turns of consumer warpgroups 0 and 1


class _Variant:
    """The options of one variant, checked, and what follows from them: the
    tile, the shared-memory layout (barriers in the first KiB, then the A
    stages, the B stages and the C staging sub-tiles, all 1 KiB aligned:
    the swizzle pattern repeats every 1024 B). `element`: the type of A and
    B; a k-block `bk` is 128 bytes of it, so a stage takes the same bytes
    for every element type."""

    def __init__(self, bn=256, stages=3, epi_subtiles=4, producer_regs=40,
                 consumer_regs=232, name="gemm_bf16_sm90", cluster=1, lag=True,
                 epi_buffers=1, consumers=2, split_k=False, stream_k=False,
                 element=pm.bf16, pingpong=False, turns=True, swap_ab=False, wg_rows=64):
        if element not in ELEMENTS:
            raise ValueError(f"element is one of {', '.join(e.text for e in ELEMENTS)}, "
                             f"got {element}")
        if split_k and stream_k:
            raise ValueError("--split-k and --stream-k exclude each other")
        if consumers not in (1, 2):
            raise ValueError("--consumers must be 1 or 2")
        if consumers == 1 and cluster != 1:
            raise ValueError("--consumers 1 needs --cluster 1")
        if (split_k or stream_k) and cluster != 1:
            raise ValueError("--split-k and --stream-k need --cluster 1")
        if swap_ab:
            if element != pm.bf16 or split_k or stream_k or cluster != 1 or pingpong:
                raise ValueError("--swap-ab runs bf16 tiles without --split-k, --stream-k, "
                                 "--cluster 2 or --pingpong")
            if bn % 8 or not 8 <= bn <= 256:
                raise ValueError(f"--swap-ab: --bn (the tile's width along M) must be a "
                                 f"multiple of 8 in 8..256, got {bn}")
            if epi_buffers != 1:
                raise ValueError("--swap-ab stages each warpgroup's block of C once: "
                                 "--epi-buffers 1")
            if wg_rows not in (64, 128):
                raise ValueError("--wg-rows must be 64 or 128")
            epi_subtiles = 1   # one staging block per 64 rows of B (below)
        elif wg_rows != 64:
            raise ValueError("--wg-rows 128 needs --swap-ab")
        elif bn not in (64, 128, 192, 256):
            raise ValueError("--bn must be 64, 128, 192 or 256")
        elif (bn // 64) % epi_subtiles:
            raise ValueError("--epi-subtiles must divide BN / 64")
        elif epi_buffers not in (1, 2) or ((bn // 64) // epi_subtiles) % epi_buffers:
            raise ValueError("--epi-buffers must be 1 or 2 and divide the rounds")
        if cluster not in (1, 2):
            raise ValueError("--cluster must be 1 or 2")
        if pingpong and (consumers != 2 or cluster != 1 or split_k or stream_k):
            raise ValueError("--pingpong needs 2 consumers, --cluster 1, no split-K or stream-K")
        self.bn, self.stages, self.epi_subtiles = bn, stages, epi_subtiles
        self.producer_regs, self.consumer_regs, self.name = producer_regs, consumer_regs, name
        self.cluster, self.lag, self.epi_buffers = cluster, lag, epi_buffers
        self.consumers, self.split_k, self.stream_k = consumers, split_k, stream_k
        self.element, self.bk = element, K_BLOCK_BYTES // element.nbytes
        self.pingpong, self.turns = pingpong, turns
        # Swap-AB: the program computes C^T = B A^T, a GEMM whose M is the
        # caller's N and whose N (the tile width bn) is the caller's M;
        # only the kernel's arguments and the epilogue (which writes the
        # transpose) know it.
        self.swap_ab, self.wg_rows = swap_ab, wg_rows
        # Ping-pong: each consumer warpgroup computes whole 128-row tiles
        # (two 64-row halves); else the warpgroups split each tile's rows,
        # 64 each (or, swap-AB with --wg-rows 128, 128 each: two halves).
        # All read one tile pipeline.
        self.halves = 2 if pingpong or wg_rows == 128 else 1
        self.bm = 128 if pingpong else wg_rows * consumers
        self.threads = 128 * (1 + consumers)
        self.b_box = bn // cluster  # rows of B each CTA of a cluster loads
        self.a_tiles = pm.memref((stages, 1, self.bm, self.bk), element, pm.smem)
        self.b_tiles = pm.memref((stages, 1, bn, self.bk), element, pm.smem)
        self.a_layout = hopper.SmemLayout.of(self.a_tiles)
        self.b_layout = hopper.SmemLayout.of(self.b_tiles)
        self.c_layout = hopper.SmemLayout(64, 64)  # one staging sub-tile
        self.c_staging_shape = (consumers * epi_buffers * epi_subtiles, 64, 64)
        if swap_ab:
            # A bn x 64 block of C (a column of C^T's 64 rows) per 64-row half.
            self.c_layout = hopper.SmemLayout(bn, 64)
            self.c_staging_shape = (consumers * self.halves, bn, 64)
        self.a_stage_bytes = self.a_layout.nbytes
        self.b_stage_bytes = self.b_layout.nbytes
        self.a_off = 1024
        self.b_off = self.a_off + stages * self.a_stage_bytes
        self.c_off = self.b_off + stages * self.b_stage_bytes
        self.c_wg_bytes = epi_buffers * epi_subtiles * STAGING_BYTES
        if swap_ab:
            self.c_wg_bytes = self.halves * self.c_layout.nbytes
        self.smem_bytes = self.c_off + consumers * self.c_wg_bytes
        if self.smem_bytes > SMEM_LIMIT:
            raise ValueError(f"{self.smem_bytes} B of shared memory > {SMEM_LIMIT}")
        if producer_regs * 128 + consumer_regs * 128 * consumers > 65536:
            raise ValueError("setmaxnreg values exceed the 64K register file")
        self.rounds = (bn // 64) // epi_subtiles
        self.groups_per_round = epi_subtiles * 4   # 16-column groups per round

    @property
    def kernel_options(self):
        """pm.kernel's options: name, block, cluster dims, one CTA per SM."""
        return dict(name=self.name, block=self.threads, min_ctas=1,
                    cluster=(2, 1, 1) if self.cluster == 2 else None)

    @property
    def pipeline_params(self):
        params = {}
        if self.cluster == 2:
            params["release_ctas"] = 2
        if self.lag:
            params["consumer_depth"] = 2
        return params

    def gen_args(self):
        """The command-line options that make this variant."""
        args = (f"--bn {self.bn} --stages {self.stages} --epi-subtiles {self.epi_subtiles} "
                f"--epi-buffers {self.epi_buffers}")
        if self.swap_ab:
            args = f"--swap-ab --bn {self.bn} --stages {self.stages}"
            if self.wg_rows != 64:
                args += f" --wg-rows {self.wg_rows}"
        if self.consumers != 2:
            args += f" --consumers {self.consumers}"
        args += self.work_args()
        if not self.lag:
            args += " --no-lag"
        if self.pingpong:
            args += " --pingpong"
        if not self.turns:
            args += " --no-turns"
        return args

    def work_args(self):
        """The options that split or share the work of a tile (split-K,
        stream-K, a 2-CTA cluster), for `gen_args` of every element type."""
        return ((" --split-k" if self.split_k else "") + (" --stream-k" if self.stream_k else "")
                + (" --cluster 2" if self.cluster == 2 else ""))


class _Schedule:
    """The tile schedule, computed alike by every role: the tile loop's
    range and, for a tile `t`, its first row and column and its k-blocks.
    Tiles go in groups of `group_m` M-tiles, column-major in a group
    (Triton's grouped order), so that the CTAs running at once share A and
    B panels in L2."""

    def __init__(self, v, m, n, k, group_m, bid, nbid, splits_i32=None):
        self.v = v
        self.num_m_tiles = common.ceildivui(m, v.bm)
        self.num_n_tiles = common.ceildivui(n, v.bn)
        self.num_k_blocks = common.ceildivui(k, v.bk)
        self.gm, self.first, self.step = group_m, bid, nbid
        self.mt_count = self.num_m_tiles
        if v.cluster == 2:
            # Clusters of 2 CTAs along x: the pair works on 2 BM x BN
            # super-tiles, both CTAs use the same B tile, each loads half
            # of it and multicasts it to both.
            self.rank = common.cluster_ctarank()
            self.rank_rows = self.rank * v.bm
            self.rank_rows_b = self.rank * v.b_box
            self.mt_count = common.ceildivui(self.num_m_tiles, 2)
            self.gm = common.maxui(common.ceildivui(group_m, 2), 1)
            self.num_tiles = self.mt_count * self.num_n_tiles
            self.step, self.first = nbid // 2, bid // 2
            self.group_tiles = self.gm * self.num_n_tiles
            return
        if v.stream_k:
            self._stream_k(bid, nbid)
            return
        if v.split_k:
            self.num_out_tiles = self.num_m_tiles * self.num_n_tiles
            self.group_tiles = group_m * self.num_n_tiles
            # The K blocks of a tile are cut into slices of kb_per; work
            # unit t is slice t / tiles of output tile t % tiles. Every
            # slice is non-empty: the effective split count is
            # ceil(k-blocks / kb_per).
            splits_req = common.maxui(splits_i32.cast(pm.index), 1)
            self.kb_per = common.ceildivui(self.num_k_blocks, splits_req)
            splits = common.ceildivui(self.num_k_blocks, self.kb_per)
            self.num_tiles = self.num_out_tiles * splits
            return
        self.num_tiles = self.num_m_tiles * self.num_n_tiles
        self.group_tiles = group_m * self.num_n_tiles

    def _stream_k(self, bid, nbid):
        """CTA b is member b % T (its M-tile) of group b / T (T = M-tiles,
        Q = min(G / T, W) groups of the G CTAs; CTAs past Q T have no work;
        G must be at least T, and every CTA resident at once: an owner
        spins on later CTAs). Group q runs the iterations
        [q W / Q, (q + 1) W / Q) of W = N-tiles x k-blocks: its work units
        are the N-tiles that range touches, from panel_lo on, each over
        the part of its k-blocks inside the range. At most one group per
        iteration: every group's range is non-empty (an owner waits for
        the first unit of every later group in its tile)."""
        self.num_out_tiles = self.num_m_tiles * self.num_n_tiles
        self.group_tiles = self.gm * self.num_n_tiles
        self.member = bid % self.num_m_tiles
        self.group = bid // self.num_m_tiles
        self.work = self.num_n_tiles * self.num_k_blocks
        self.groups = common.minui(nbid // self.num_m_tiles, self.work)
        self.groups_1 = common.maxui(self.groups, 1)
        group_next = self.group + 1
        self.it_lo = (self.group * self.work) // self.groups_1
        self.it_hi = (group_next * self.work) // self.groups_1
        self.panel_lo = self.it_lo // self.num_k_blocks
        panel_last = (self.it_hi - 1) // self.num_k_blocks
        units = (panel_last - self.panel_lo) + 1
        has_work = (self.group < self.groups) & (self.it_lo < self.it_hi)
        self.num_tiles = common.select(has_work, units, 0)
        self.first, self.step = 0, 1

    def tile(self, t):
        """(m0, n0, kb_lo, kb_hi) of work unit `t` (kb_lo, kb_hi: None for
        all k-blocks); with stream-K also the tile's end iteration."""
        v = self.v
        kb_lo = kb_hi = None
        if v.stream_k:
            nt = self.panel_lo + t
            tile_it = nt * self.num_k_blocks
            self.tile_end = tile_it + self.num_k_blocks
            seg_lo = common.maxui(self.it_lo, tile_it)
            seg_hi = common.minui(self.it_hi, self.tile_end)
            kb_lo, kb_hi = seg_lo - tile_it, seg_hi - tile_it
            return self.member * v.bm, nt * v.bn, kb_lo, kb_hi
        tile = t
        if v.split_k:
            piece = t // self.num_out_tiles
            tile = t % self.num_out_tiles
            kb_lo = piece * self.kb_per
            kb_hi = common.minui(kb_lo + self.kb_per, self.num_k_blocks)
        grp = tile // self.group_tiles
        first_m = grp * self.gm
        gsize = common.minui(self.mt_count - first_m, self.gm)
        r = tile % self.group_tiles
        mt = first_m + r % gsize
        nt = r // gsize
        if v.cluster == 1:
            m0 = mt * v.bm
        else:
            # The CTA of rank r takes M-tile 2i + r of the pair i.
            m0 = mt * (2 * v.bm) + self.rank_rows
        return m0, nt * v.bn, kb_lo, kb_hi


def _body(v, a_map, b_map, c_map, m_i32, n_i32, k_i32, group_m_i32,
          splits_i32=None, ws_i64=None, flags_i64=None, consumer=None):
    """The kernel's body: shared memory, the producer warpgroup, and the
    consumer warpgroups, whose work on a tile `consumer(v, tp, me, m, n)`
    makes (a `_Consumer`, the default)."""
    tid, bid, nbid = pm.thread_id(), pm.block_id(), pm.grid_dim()
    if v.swap_ab:
        # C^T = B A^T: from here on B is the program's A (the wgmma M
        # rows, tiled by bm), A its B (the wgmma N width, tiled by bn),
        # and M and N trade places; the epilogue writes C.
        a_map, b_map, m_i32, n_i32 = b_map, a_map, n_i32, m_i32
    m, n, k = m_i32.cast(pm.index), n_i32.cast(pm.index), k_i32.cast(pm.index)
    group_m = group_m_i32.cast(pm.index)

    # Dynamic shared memory: the barriers at 0, then A and B stages, then
    # the C staging sub-tiles.
    smem = pm.dynamic_shared_memory()
    p = pm.pipeline(smem, 0, v.stages, **v.pipeline_params)
    a_tiles = pm.view(smem, v.a_off, v.a_tiles.shape, v.element)
    b_tiles = pm.view(smem, v.b_off, v.b_tiles.shape, v.element)
    c_staging = pm.view(smem, v.c_off, v.c_staging_shape, pm.bf16)
    tp = pm.tile_pipeline(p, [a_tiles, b_tiles])
    if v.cluster == 1:
        # full: one arrival, the TMA thread's arrive.expect_tx (the loads
        # complete the bytes); empty: one elected thread per consumer
        # warpgroup reading the stage (ping-pong: the one whose tile it is).
        tp.init(producer=1, consumer=1 if v.pingpong else v.consumers)
    else:
        # empty: one thread of each consumer warpgroup of BOTH CTAs of the
        # pair (release_ctas = 2: every consumer arrive reaches both CTAs);
        # the peer CTA loads into and arrives on these barriers.
        tp.init(producer=1, consumer=4, cluster=True)
    turns = None
    if v.pingpong and v.turns:
        # The turns of the ping-pong mainloops: turns[w] hands consumer
        # warpgroup w the turn (its producer is the other warpgroup), one
        # stage: a turn is taken before the next is handed over. All 128
        # threads of a warpgroup arrive.
        turns = [pm.pipeline(smem, off, stages=1) for off in TURN_BARRIER_BYTES]
        for turn in turns:
            turn.init(producer=128, consumer=128)
    sched = _Schedule(v, m, n, k, group_m, bid, nbid, splits_i32)

    wg = tid // 128
    with pm.if_(wg == 0) as role:
        # Producer warpgroup: thread 0 issues every TMA load.
        common.setmaxnreg("decrease", v.producer_regs)
        with pm.if_(tid == 0):
            pm.tma_prefetch(a_map)
            pm.tma_prefetch(b_map)
            with pm.range(sched.first, sched.num_tiles, sched.step) as t:
                m0, n0, kb_lo, kb_hi = sched.tile(t)
                with pm.range(kb_lo if kb_lo is not None else 0,
                              kb_hi if kb_hi is not None else sched.num_k_blocks) as kb:
                    k0 = kb * v.bk
                    s = tp.acquire_producer()
                    # One arrival expecting the payload's bytes (A and B).
                    s.expect_tx()
                    bars = s.mbar()
                    a, b = s.payload(0), s.payload(1)
                    a_dst = pm.subview(a, [0, 0, 0], [1, v.bm, v.bk])
                    if v.cluster == 1:
                        b_dst = pm.subview(b, [0, 0, 0], [1, v.bn, v.bk])
                        pm.tma_load(a_map, [k0, m0], bars, a_dst)
                        pm.tma_load(b_map, [k0, n0], bars, b_dst)
                    else:
                        # This CTA's half of B, into both CTAs.
                        b_dst = pm.subview(b, [0, sched.rank_rows_b, 0], [1, v.b_box, v.bk])
                        n0_half = n0 + sched.rank_rows_b
                        pm.tma_load(a_map, [k0, m0], bars, a_dst)
                        pm.tma_load(b_map, [k0, n0_half], bars, b_dst, multicast=0b11)
                    # The TMA completes the stage; the producer handle only steps.
                    s.release()
            # No exit while a consumer may still read a stage.
            tp.drain_producer()
    with role.else_():
        args = (v, tp, sched, tid, wg, c_map, c_staging, ws_i64, flags_i64,
                consumer or _Consumer, m, n)
        if v.pingpong:
            # Warpgroup 1 takes the CTA's even tiles, warpgroup 2 the odd ones.
            with pm.if_(wg == 1) as which:
                _consumer(*args, turn=0, turns=turns)
            with which.else_():
                _consumer(*args, turn=1, turns=turns)
        else:
            _consumer(*args)


class _Consumer:
    """A consumer warpgroup's work on a tile where element types and
    scalings differ, as two hooks `_consumer` calls for each work unit:
    `k_loop` runs the unit's k-blocks into accumulators, `finish`
    transforms them before the epilogue. The accumulators are a list, one
    m64nBN per 64-row half of the warpgroup's rows: one (cooperative: the
    warpgroup's 64 rows of the tile) or two (ping-pong: the whole 128-row
    tile). This class is the bf16 GEMM's (the mainloop with or without the
    release lag, no transform); kernels/gemm_fp8_sm90.py subclasses it.
    With split-K, `finish` sees each K slice's partial tile (before its
    reduce-add into C); with stream-K, only the owner's sum after the fixup
    (the other units' partials go to the workspace as `k_loop` left
    them)."""

    def __init__(self, v, tp, me, m, n):
        self.v, self.tp, self.me, self.m, self.n = v, tp, me, m, n
        # Ping-pong: called once the k-loop has waited for its last stage
        # (it hands the other warpgroup the turn); None: nothing.
        self.issued = None
        half_bytes = 64 * v.bk * v.element.nbytes   # 64 rows of an A stage
        if v.pingpong:
            # The whole tile: halves 0 and 1 of the A stage and of the tile.
            self.a_offs = [h * half_bytes for h in range(v.halves)]
            self.c_rows = 0
        elif v.halves == 2:
            # Swap-AB, --wg-rows 128: the warpgroup's 128 rows, two halves.
            self.a_offs = [(me.index * 2 + h) * half_bytes for h in range(2)]
            self.c_rows = me.index * 128
        else:
            # The warpgroup's 64 rows of the A stage and of the tile.
            self.a_offs = [me.index * half_bytes]
            self.c_rows = me.index * 64

    def row(self, m0, h):
        """The first row of C of the warpgroup's half `h` in the tile at m0."""
        if self.v.pingpong:
            return m0 + 64 * h if h else m0
        return m0 + self.c_rows + 64 * h if h else m0 + self.c_rows

    def undef(self):
        """Accumulators whose contents the first wgmma overwrite."""
        return [hopper.Accumulator.undef(self.v.bn) for _ in range(self.v.halves)]

    def of(self, values):
        """The accumulators held by LLVM structs (a loop's carried values or results)."""
        return [hopper.Accumulator.of(self.v.bn, x) for x in values]

    def mma_stage(self, stage, accs, first):
        """The wgmma of a k-block on `stage` into `accs`, one group: per
        k-step of 16 (bf16) or 32 (e4m3) one m64nBN per half; with `first`
        the first overwrites each accumulator (scale-d 0)."""
        v = self.v
        a, b = stage.payload(0), stage.payload(1)
        a_addr = common.smem_address(a)
        a_descs = [v.a_layout.descriptors(a_addr + off if not isinstance(off, int) or off
                                          else a_addr) for off in self.a_offs]
        b_descs = v.b_layout.descriptors(common.smem_address(b))
        hopper.fence()
        accs = list(accs)
        for kk, b_desc in enumerate(b_descs):
            for h in range(len(accs)):
                accs[h] = hopper.mma_async(accs[h], a_descs[h][kk], b_desc,
                                           a_layout=v.a_layout, b_layout=v.b_layout,
                                           accumulate=not (first and kk == 0))
        hopper.commit_group()
        return accs

    def free(self, stage):
        """Frees a stage whose wgmma are done: one thread arrives on its
        empty barrier (a tile pipeline's release only steps)."""
        with pm.if_(self.me.leader):
            stage.arrive()
        stage.release()

    def mainloop_issued(self):
        """The k-loop has acquired its last stage (and issued its wgmma):
        ping-pong hands over the turn here."""
        if self.issued is not None:
            self.issued()

    def k_loop(self, m0, n0, kb_lo, kb_end):
        """The accumulators of k-blocks [kb_lo, kb_end) of the tile at (m0,
        n0) (kb_lo None: from 0); calls `mainloop_issued` after the last
        acquire."""
        v, tp = self.v, self.tp
        kb_rest = kb_lo + 1 if kb_lo is not None else 1
        # First k-block: the first wgmma overwrites the accumulators (scale-d 0).
        first = tp.acquire_consumer()
        accs = self.mma_stage(first, self.undef(), True)
        if v.lag:
            # The release lag (consumer_depth = 2): acquire stage k, issue
            # its wgmma, wait until only that group is in flight, then free
            # stage k-1.
            with pm.range(kb_rest, kb_end, carry=[first] + [x.value for x in accs]) as loop:
                prev, *acc_in = loop.carried
                cur = tp.acquire_consumer()
                accs = self.mma_stage(cur, self.of(acc_in), False)
                hopper.wait_group(1)
                self.free(prev)
                loop.next(cur, *[x.value for x in accs])
            last, *acc_main = loop.results
            self.mainloop_issued()
            hopper.wait_group(0)
            self.free(last)
        else:
            # No release lag (a comparison variant): every k-block waits
            # for its own wgmma (wait_group 0) before freeing its stage.
            hopper.wait_group(0)
            self.free(first)
            with pm.range(kb_rest, kb_end, carry=[x.value for x in accs]) as loop:
                cur = tp.acquire_consumer()
                accs = self.mma_stage(cur, self.of(loop.carried), False)
                hopper.wait_group(0)
                self.free(cur)
                loop.next(*[x.value for x in accs])
            acc_main = loop.results
            self.mainloop_issued()
        return self.of(acc_main)

    def finish(self, m0, n0, accs):
        """The accumulators the epilogue stores for the tile at (m0, n0)."""
        return accs


def _consumer(v, tp, sched, tid, wg, c_map, c_staging, ws_i64, flags_i64, consumer, m, n,
              turn=None, turns=None):
    """Consumer warpgroup cw: cooperative (1 or 2 of them), it owns rows
    64 cw .. 64 cw + 63 of every tile of the CTA, a 64 x BN f32
    accumulator; ping-pong, whole 128-row tiles (two 64 x BN accumulators),
    the CTA's tiles `turn`, `turn` + 2, ...: it steps its consumer position
    past the other warpgroup's tiles, and its mainloops take turns with the
    other's through `turns` (see `_turns`)."""
    common.setmaxnreg("increase", v.consumer_regs)
    me = hopper.WarpgroupThread(tid, wg)
    cw, ltid, leader, warp, lane, bar_id = (me.index, me.tid, me.leader, me.warp, me.lane,
                                            me.bar_id)
    work = consumer(v, tp, me, m, n)
    cw_sub0 = cw * (v.epi_buffers * v.epi_subtiles)
    stg_base = common.smem_address(c_staging)
    if v.swap_ab:
        frag = hopper.TransposedFragmentStore(stg_base + cw * v.c_wg_bytes, warp, lane)
    else:
        frag = hopper.FragmentStore(stg_base + cw * v.c_wg_bytes, warp, lane)

    if turn is None:
        tiles = (sched.first, sched.num_tiles, sched.step)
        skip = None
    else:
        first = sched.first + sched.step if turn else sched.first
        tiles = (first, sched.num_tiles, sched.step * 2)
        take, hand_over = _turns(turn, turns)

        def skip():
            """Steps the consumer past a tile of the other warpgroup (its
            k-blocks, without waiting or arriving)."""
            with pm.range(0, sched.num_k_blocks):
                pm.pipeline_op("pipeline.consumer_step", pipeline=tp)

        if turn:
            skip()   # the CTA's first tile is warpgroup 1's
    with pm.range(*tiles) as t:
        m0, n0, kb_lo, kb_hi = sched.tile(t)
        kb_end = kb_hi if kb_hi is not None else sched.num_k_blocks
        if turn is not None and take:
            # The turn of tile t: the other warpgroup's mainloop of tile
            # t - 1 has waited for its last stage. The CTA's first tile
            # (warpgroup 1's) starts at once; a tile that is the CTA's last
            # hands over no turn. So every turn handed over is taken.
            if turn:
                take()
            else:
                with pm.if_(t != sched.first):
                    take()

            def issued():
                with pm.if_(t + sched.step < sched.num_tiles):
                    hand_over()
            work.issued = issued
        acc_main = work.k_loop(m0, n0, kb_lo, kb_end)

        def epilogue(accs):
            """f32 pairs -> bf16x2, stmatrix into the 128B-swizzled staging
            sub-tiles, proxy fence, TMA store of each 64 x 64 sub-tile
            (clipped at M, N), in rounds of epi_subtiles sub-tiles; the
            halves of a ping-pong tile one after the other (swap-AB:
            `_epilogue_swap`)."""
            accs = work.finish(m0, n0, accs)
            if v.swap_ab:
                _epilogue_swap(v, accs, [work.row(m0, h) for h in range(len(accs))], n0, cw,
                               leader, bar_id, frag, c_map, c_staging)
                return
            for h, acc in enumerate(accs):
                _epilogue(v, acc, work.row(m0, h), n0, cw_sub0, leader, bar_id, frag, c_map,
                          c_staging)

        if v.stream_k:
            _stream_k_fixup(v, sched, kb_lo, acc_main[0].value, cw, ltid, leader, bar_id,
                            ws_i64, flags_i64, lambda acc: epilogue([acc]))
        else:
            epilogue(acc_main)
        if skip:
            skip()
    # Every TMA store has completed before the warpgroup exits.
    with pm.if_(leader):
        common.bulk_wait_group(0)


def _turns(w, turns):
    """(take, hand over) of ping-pong consumer warpgroup w: take waits until
    the other warpgroup has handed this one the turn (and frees that turn);
    hand over passes the turn on. A warpgroup takes the turn before its
    mainloop and hands it over once its mainloop has waited for its last
    stage. Why: a parity wait cannot tell ring laps apart, and a warpgroup
    that steps past the other's tile runs ahead of the producer; once the
    other has waited for the stage before its first, the producer has
    filled that stage, so its own waits are at most one lap ahead
    (CUTLASS's ordered barrier of the ping-pong mainloops). With no `turns`
    (a seeded bug), (None, None)."""
    if turns is None:
        return None, None
    mine, theirs = turns[w], turns[1 - w]

    def take():
        s = mine.acquire_consumer()
        s.release()

    def hand_over():
        s = theirs.acquire_producer()
        s.arrive()
        s.release()
    return take, hand_over


def _epilogue(v, acc, c_row0, n0, cw_sub0, leader, bar_id, frag, c_map, c_staging):
    """The epilogue of the warpgroup's rows c_row0 .. c_row0 + 63 of C."""
    for r in range(v.rounds):
        buf = r % v.epi_buffers
        with pm.if_(leader):
            # The staging buffer is free once the TMA stores that read it
            # (the last round's, or with 2 buffers the one before) are done.
            common.bulk_wait_group(v.epi_buffers - 1, read=True)
        common.named_barrier(bar_id, 128)
        for gg in range(v.groups_per_round):
            frag.store(acc, gg, buf * v.epi_subtiles * STAGING_BYTES,
                       source=r * v.groups_per_round + gg)
        # Generic-proxy writes (stmatrix), then the async proxy (TMA) reads.
        common.fence_proxy_async_shared()
        common.named_barrier(bar_id, 128)
        with pm.if_(leader):
            for st in range(v.epi_subtiles):
                idx = cw_sub0 + (buf * v.epi_subtiles + st)
                src = pm.subview(c_staging, [idx, 0, 0], [1, 64, 64])
                col = n0 + (r * v.epi_subtiles + st) * 64
                if v.split_k:
                    # Add the bf16 partial tile into C (element-wise atomic).
                    common.tma_reduce_add(c_map, common.smem_ptr(common.smem_address(src)),
                                          [col, c_row0])
                else:
                    common.tma_store(src, c_map, [col, c_row0])
            common.bulk_commit_group()


def _epilogue_swap(v, accs, rows, n0, cw, leader, bar_id, frag, c_map, c_staging):
    """Swap-AB: accumulator h holds rows rows[h] .. rows[h] + 63 of C^T
    (columns of C) by its columns n0 .. n0 + bn - 1 (rows of C).
    stmatrix .trans writes each as the bn x 64 block of C it is (bf16,
    128B-swizzled: the C box), then one TMA store per block, clipped at M
    and N."""
    with pm.if_(leader):
        # The staging blocks are free once the last tile's stores read them.
        common.bulk_wait_group(0, read=True)
    common.named_barrier(bar_id, 128)
    for h, acc in enumerate(accs):
        for g in range(frag.groups(acc)):
            frag.store(acc, g, h * v.c_layout.nbytes)
    # Generic-proxy writes (stmatrix), then the async proxy (TMA) reads.
    common.fence_proxy_async_shared()
    common.named_barrier(bar_id, 128)
    with pm.if_(leader):
        for h in range(len(accs)):
            src = pm.subview(c_staging, [cw * v.halves + h, 0, 0], [1, v.bn, 64])
            common.tma_store(src, c_map, [rows[h], n0])
        common.bulk_commit_group()


def _stream_k_fixup(v, sched, kb_lo, acc_main, cw, ltid, leader, bar_id, ws_i64, flags_i64,
                    epilogue):
    """Stream-K: after a unit's k-blocks, a unit that does not start its
    tile's K (kb_lo > 0; only a group's first unit can be one) writes its
    f32 accumulator to its group's workspace slot and releases the slot's
    flag; the owner (kb_lo = 0) adds the slots of the later groups that
    cover the rest of the tile (acquiring and then clearing each flag) and
    runs the epilogue. Slot and flag index: (group x M-tiles + member) x
    consumers + warpgroup. A thread's value i of a slot is word
    i x 128 + thread: the warpgroup's stores of one i are contiguous."""
    slot_words = 64 * v.bn
    ws = common.global_ptr(ws_i64)
    flags = common.global_ptr(flags_i64)
    ltid64, cw64 = ltid.cast(pm.i64), cw.cast(pm.i64)
    member64, mt64 = sched.member.cast(pm.i64), sched.num_m_tiles.cast(pm.i64)

    def slot_of(group):
        return (group.cast(pm.i64) * mt64 + member64) * v.consumers + cw64

    with pm.if_(kb_lo != 0) as piece:
        # Not the owner: write the partial sums, then release the flag.
        acc = hopper.Accumulator.of(v.bn, acc_main)
        slot = slot_of(sched.group)
        base = common.gep(ws, slot * slot_words + ltid64, pm.f32)
        for i in range(acc.size):
            common.store(acc[i], common.gep(base, i * 128, pm.f32))
        # Every thread's stores before the leader's release (CUTLASS's
        # generic barrier: sync, then one release by one thread).
        common.named_barrier(bar_id, 128)
        with pm.if_(leader):
            common.st_release_gpu(common.ptr_address(common.gep(flags, slot, pm.i32)), 1)
    with piece.else_():
        # The owner: the groups after this one whose first unit lies in
        # this tile, g = group + 1 .. ceil(tile_end x Q / W) - 1.
        last = common.minui(common.ceildivui(sched.tile_end * sched.groups_1, sched.work),
                            sched.groups)
        with pm.range(sched.group + 1, last, carry=[acc_main]) as loop:
            slot = slot_of(loop.iv)
            flag = common.gep(flags, slot, pm.i32)
            flag_addr = common.ptr_address(flag)
            with pm.if_(leader):
                with pm.while_loop(carry=[pm.constant(True, pm.i1)]) as spin:
                    spin.next(common.ld_acquire_gpu(flag_addr) == 0)
            common.named_barrier(bar_id, 128)
            base = common.gep(ws, slot * slot_words + ltid64, pm.f32)
            acc = hopper.Accumulator.of(v.bn, loop.carried[0]).map(
                lambda i, x: x + common.load(common.gep(base, i * 128, pm.f32), pm.f32))
            # Every thread has read the slot: clear the flag for the next launch.
            common.named_barrier(bar_id, 128)
            with pm.if_(leader):
                common.store(pm.constant(0, pm.i32), flag)
            loop.next(acc.value)
        epilogue(hopper.Accumulator.of(v.bn, loop.results[0]))


def build(**options):
    """The kernel of one variant (options: see the module's docstring and
    `main`) and its dynamic shared memory in bytes. ValueError for options
    that do not make a kernel."""
    v = _Variant(**options)
    desc_a = v.a_layout.tensormap()
    desc_b = v.b_layout.tensormap(rows=v.b_box)
    if v.swap_ab:
        # A's rows fill the program's B stages (bn rows), B's its A stages.
        desc_a, desc_b = v.b_layout.tensormap(), v.a_layout.tensormap()
    desc_c = v.c_layout.tensormap()
    kw = v.kernel_options
    if v.split_k:
        @pm.kernel(**kw)
        def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, m_i32: pm.i32, n_i32: pm.i32,
                 k_i32: pm.i32, group_m_i32: pm.i32, splits_i32: pm.i32):
            _body(v, a_map, b_map, c_map, m_i32, n_i32, k_i32, group_m_i32,
                  splits_i32=splits_i32)
    elif v.stream_k:
        @pm.kernel(**kw)
        def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, m_i32: pm.i32, n_i32: pm.i32,
                 k_i32: pm.i32, group_m_i32: pm.i32, ws_i64: pm.i64, flags_i64: pm.i64):
            _body(v, a_map, b_map, c_map, m_i32, n_i32, k_i32, group_m_i32,
                  ws_i64=ws_i64, flags_i64=flags_i64)
    else:
        @pm.kernel(**kw)
        def gemm(a_map: desc_a, b_map: desc_b, c_map: desc_c, m_i32: pm.i32, n_i32: pm.i32,
                 k_i32: pm.i32, group_m_i32: pm.i32):
            _body(v, a_map, b_map, c_map, m_i32, n_i32, k_i32, group_m_i32)
    return gemm, v.smem_bytes


def generate(locations=False, **options):
    """The module text of one variant and its dynamic shared memory in bytes."""
    kernel, smem = build(**options)
    return pm.Module([kernel], name=MODULE).mlir(locations=locations), smem


def _header(v):
    """The example's comment header: what the kernel is and how it runs."""
    n_acc = v.bn // 2
    wgmmas = 4 * v.halves if v.swap_ab else 4   # per k-block and warpgroup
    expect_tx = v.a_stage_bytes + v.b_stage_bytes
    if v.lag:
        consumer_text = f"""issues {wgmmas} wgmma.m64n{v.bn}k16 per k-block. The pipeline
//                   declares consumer_depth = 2: one wgmma group stays in
//                   flight and stage k-1 is freed (one thread per warpgroup
//                   arrives on its empty barrier) after the wgmma of stage k
//                   were issued and wgmma.wait_group 1 returned."""
    else:
        consumer_text = f"""issues {wgmmas} wgmma.m64n{v.bn}k16 per k-block, waits for them
//                   (wait_group 0) and frees the stage at once (comparison
//                   variant without the release lag, consumer_depth = 1)."""
    units = "tiles x S work units" if v.split_k else "tiles"
    grid_expr = f"min(SMs, {units})"
    args_doc = " as i32"
    if v.split_k:
        args_doc = (" and the split count S (split-K: the TMA stores are\n// reduce-adds of "
                    "bf16 partial tiles, C must be zero before the launch) as i32")
    grid_text = "A launch with grid = number\n// of tiles is the non-persistent form of the same kernel."
    if v.stream_k:
        grid_expr = "M-tiles x min(SMs / M-tiles, N-tiles x k-blocks)"
        args_doc = (" as i32, then the addresses of the stream-K\n// workspace (f32, 64 x BN per "
                    "consumer warpgroup and CTA) and flags (i32, one\n// per consumer warpgroup "
                    "and CTA, zero before the first launch; the\n// kernel leaves them zero) "
                    "as i64")
        grid_text = ("Stream-K: one CTA per M-tile in each group\n"
                     "// of CTAs; group q of Q runs the (N-tile, k-block) iterations\n"
                     "// [q W / Q, (q + 1) W / Q) of W = N-tiles x k-blocks, one work unit\n"
                     "// per N-tile they touch (launch at least the M-tile count, a multiple of\n"
                     "// it, and no more CTAs than fit the GPU at once: owners wait for later\n"
                     "// CTAs).")
    cluster_text, empty_text = "", "empty count 2" if v.consumers == 2 else "empty count 1"
    if v.cluster == 2:
        cluster_text = """
// Clusters of 2 CTAs (the kernel declares cluster dims (2, 1, 1)): the pair
// computes M-tiles 2i and 2i + 1 of the same N-tile; each CTA loads half of
// the B tile and multicasts it into both CTAs (release_ctas = 2: every
// consumer arrive reaches the empty barriers of both CTAs, empty count 4)."""
        empty_text = "empty count 4 (2 warpgroups x 2 CTAs)"
    if v.epi_buffers == 2:
        epi_text = f"""{v.rounds} rounds of {v.epi_subtiles} 64x64 sub-tile(s),
//                   alternating between 2 staging buffers so that the
//                   stmatrix of one round overlaps the TMA store of the last."""
    else:
        epi_text = f"{v.rounds} round(s) of {v.epi_subtiles} 64x64 sub-tile(s)."
    consumers = "warpgroups 1-2  consumers" if v.consumers == 2 else "warpgroup 1     consumer"
    boxes = f"A (box 64 x {v.bm}, K innermost), B (box 64 x {v.b_box}) and C (box\n// 64 x 64"
    own_text = f"""64 rows of
//                   the tile (a 64 x {v.bn} f32 accumulator, {n_acc} registers per"""
    epi_text = f"""Epilogue per tile: f32 -> bf16x2, stmatrix into a
//                   128B-swizzled staging tile, fence.proxy.async, TMA store
//                   (clipped at M, N), {epi_text}"""
    if v.swap_ab:
        regs = n_acc * v.halves
        own_text = f"""{v.wg_rows} rows of
//                   the tile ({v.halves} x 64 x {v.bn} f32 accumulator, {regs} registers per"""
        epi_text = f"""Epilogue per tile: f32 -> bf16x2, stmatrix .trans: each
//                   64 x {v.bn} accumulator of C^T is staged as the {v.bn} x 64
//                   block of C it is (128B-swizzled), fence.proxy.async, one
//                   TMA store per block (clipped at M, N)."""
        boxes = f"A (box 64 x {v.bn}, K innermost), B (box 64 x {v.bm}) and C (box\n// 64 x {v.bn}"
        cluster_text += f"""
// Swap-AB: the kernel computes C^T = B A^T. The tile is {v.bm} rows of B (N, the
// wgmma M, {v.wg_rows} per consumer warpgroup) by {v.bn} rows of A (M, the wgmma N):
// B fills the stages' first payload, A the second; the schedule's M-tiles
// are N-tiles of C and its N-tiles M-tiles of C."""
    return f"""\
// A warp-specialized, persistent bf16 GEMM for Hopper (sm_90a), written with
// the pipeline dialect and upstream NVGPU/NVVM ops:
//
//   C[M, N] = A[M, K] * B[N, K]^T     bf16 inputs, f32 accumulation, bf16 C
//
// Layouts, as a row-major torch.matmul(x, w.t()) hands them to cuBLAS
// (cublasLt with opA = T on w, i.e. "TN"): A row-major M x K; B stored N x K
// row-major (K contiguous), that is a column-major K x N B, which wgmma reads
// K-major with no transpose; C row-major M x N. A, B and C are all read or
// written by TMA with 128-byte swizzle.
//
// GENERATED by scripts/gen-examples.py from the builder program
// python/pipeline_mlir/kernels/gemm_sm90.py, options
//   {v.gen_args()}
// Edit the program, not this file. How it is built and measured:
// docs/gemm.md.
//
// chips: sm_90a
//
// CTA tile {v.bm} x {v.bn} x {BK}, {v.stages} stages, {v.threads} threads in {1 + v.consumers} warpgroups:
//   warpgroup 0     producer: setmaxnreg.dec {v.producer_regs}. Thread 0 walks the tile
//                   schedule; per k-block it acquires a stage, expect_tx with
//                   the default byte count (the payload's {v.a_stage_bytes} + {v.b_stage_bytes} =
//                   {expect_tx} B), issues the A and B TMA loads on the stage's full
//                   barrier and releases (steps). drain_producer at the end.
//   {consumers}: setmaxnreg.inc {v.consumer_regs}. Each owns {own_text}
//                   thread) and {consumer_text}
//                   Barriers: full count 1 (the expect_tx), {empty_text}.
//                   {epi_text}
// Tile schedule: persistent (grid = {grid_expr}); tile t -> (m, n) in
// groups of `group_m` M-tiles, column-major in a group, so that the CTAs
// running at once share A and B panels in L2. {grid_text}{cluster_text}
//
// Launch: block ({v.threads}, 1, 1); grid ({grid_expr}, 1, 1); dynamic shared
// memory {v.smem_bytes} B: barriers in the first KiB, A stages at {v.a_off}, B stages
// at {v.b_off}, C staging at {v.c_off} ({v.c_wg_bytes} B per consumer warpgroup), all
// 1 KiB aligned (the swizzle pattern repeats every 1024 B).
// Arguments: TMA descriptors (each a pointer to a 128-byte CUtensorMap in
// global memory) of {boxes}, N innermost), bf16, SWIZZLE_128B, out-of-bound elements zero;
// then M, N, K and group_m{args_doc}. K and N must be multiples of 8 (TMA
// strides are multiples of 16 bytes); M, N, K need not be multiples of the
// tile: TMA zero-fills loads past the edges and clips stores.
//
// Check and compile:
//   pipeline-opt -pipeline-verify-linearity -pipeline-verify-protocol examples/gemm_sm90.mlir
//   pipeline-compile examples/gemm_sm90.mlir --chip=sm_90a -o gemm

"""


def example(**options):
    """The text of examples/gemm_sm90.mlir (the shipped kernel by default):
    the header and the module, without source locations."""
    v = _Variant(**options)
    text, _ = generate(locations=False, **options)
    return _header(v) + text


def main(argv=None):
    ap = _command.parser(__doc__)
    ap.add_argument("--bn", type=int, default=256)
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--epi-subtiles", type=int, default=4)
    ap.add_argument("--epi-buffers", type=int, default=1,
                    help="staging buffers per consumer warpgroup (1 or 2): with 2, round r "
                         "writes buffer r %% 2 while the TMA store of round r-1 reads the other")
    ap.add_argument("--cluster", type=int, default=1,
                    help="2: CTA pairs share (multicast) the B tile; launch with cluster "
                         "dims (2, 1, 1)")
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
    ap.add_argument("--pingpong", action="store_true",
                    help="each of the 2 consumer warpgroups computes whole 128-row tiles "
                         "(every other tile of the CTA; the mainloops take turns) so that "
                         "one's epilogue overlaps the other's mainloop")
    ap.add_argument("--swap-ab", action="store_true",
                    help="compute C^T = B A^T: 64-row wgmma tiles along N, --bn (a multiple "
                         "of 8, 8..256) along M, the epilogue writes C transposed")
    ap.add_argument("--wg-rows", type=int, default=64,
                    help="--swap-ab: rows of B per consumer warpgroup, 64 or 128 (two m64 "
                         "accumulators)")
    ap.add_argument("--no-turns", action="store_true",
                    help="a seeded bug for the tests: --pingpong without the turns")
    ap.add_argument("--name", default="gemm_bf16_sm90")
    args = ap.parse_args(argv)
    options = dict(bn=args.bn, stages=args.stages, epi_subtiles=args.epi_subtiles,
                   producer_regs=args.producer_regs, consumer_regs=args.consumer_regs,
                   name=args.name, cluster=args.cluster, lag=not args.no_lag,
                   epi_buffers=args.epi_buffers, consumers=args.consumers,
                   split_k=args.split_k, stream_k=args.stream_k,
                   pingpong=args.pingpong, turns=not args.no_turns)
    if args.swap_ab:
        options.update(swap_ab=True, wg_rows=args.wg_rows)
    elif args.wg_rows != 64:
        options.update(wg_rows=args.wg_rows)

    def make(a):
        v = _Variant(**options)
        if a.example:
            return example(**options), v.smem_bytes
        return generate(locations=not a.no_locations, **options)[0], v.smem_bytes
    _command.run(args, make)


if __name__ == "__main__":
    main()
