"""The persistent tile schedule of the sm_100a GEMMs (kernels/gemm_sm100.py
and kernels/gemm_block_scaled_sm100.py), written once: CUTLASS's SM100
tile scheduler through cluster launch control (CLC) with its throttle, and
the cluster tile walk.

The grid has one cluster per cluster tile; cluster c (its CTAs x = c *
cluster .. + cluster - 1) starts with tile c, tile t at (t mod m_tiles, t
div m_tiles) (M-fastest). A scheduler warp (in cluster rank 0) asks the
hardware to cancel a cluster that has not started; every reader of its
answer (the scheduler itself, and in every CTA of the cluster the TMA lane,
the MMA warp and the epilogue) then computes the canceled cluster's tile,
until nothing was canceled. The throttle keeps the scheduler at most 2
requests ahead of the loads: the TMA lane of rank 0 produces one signal
per tile it starts, the scheduler consumes one before each request.

    sched = ClcSchedule(smem, offset, first_tile(cluster), m_tiles, cluster, true)
    sched.init(cta_readers(cluster), cluster=cluster > 1)
    with sched.loop() as t:             # a role's walk over its tiles
        m_blk, n_blk = sched.origin(t)
    sched.run_scheduler(rank == 0)      # the scheduler warp
"""

from __future__ import annotations

import contextlib

from .. import ir as pm
from .. import types as T
from ..nvidia.common import divui, remui

#: Readers of each scheduler answer per CTA: the TMA lane, the MMA warp (32)
#: and the 128 epilogue threads.
CTA_READERS = 1 + 32 + 128


def cta_readers(ctas: int) -> int:
    """Arrivals per answer on rank 0's empty barrier: the scheduler warp
    and the readers of `ctas` CTAs."""
    return 32 + ctas * CTA_READERS


def tile_of(x, cluster: int):
    """The tile of the cluster whose CTA has x coordinate `x` (i32)."""
    return divui(x, cluster) if cluster > 1 else x


def first_tile(cluster: int):
    """This cluster's first tile: its index in the grid."""
    return tile_of(pm.block_id().cast(T.i32), cluster)


def pair_multicast_mask(rank):
    """A 4x1 cluster of two CTA pairs (ranks 0, 1 and 2, 3): the CTA at
    this CTA's place in each pair, where what one pair's CTA loads for
    both pairs lands: mask 0b0101 << (rank & 1) (i16)."""
    return (pm.constant(0b0101, T.i32) << (rank & 1)).cast(T.i16)


class ClcSchedule:
    """The scheduler's pipelines in shared memory from byte `offset` (the
    answers: 2 stages of 16 bytes, clc = true; the throttle: 2 stages) and
    the tile walk: `first` this cluster's first tile (i32, `first_tile`),
    `m_tiles` the tiles along M, `cluster` the CTAs per cluster (the
    canceled cluster's tile is its first CTA's x / cluster), `true` an i1
    constant the loops start from."""

    def __init__(self, smem, offset, first, m_tiles, cluster: int, true):
        self.clcp = pm.pipeline(smem, offset, stages=2, clc=True)
        resp_off = offset + self.clcp.smem_bytes
        resp = pm.view(smem, resp_off, (2, 1, 16), T.i8)
        self.thr = pm.pipeline(smem, resp_off + 32, stages=2)
        self.clc = pm.tile_pipeline(self.clcp, [resp])
        self.first, self.m_tiles, self.cluster, self.true = first, m_tiles, cluster, true

    def init(self, readers: int, cluster: bool) -> None:
        """The answers: full 1 (rank 0's request), empty `readers`
        (`cta_readers`) on rank 0, cluster-wide with `cluster`; the
        throttle, used in rank 0 only: full 1 (the TMA lane), empty 32
        (the scheduler warp)."""
        self.clc.init(1, readers, cluster=cluster)
        self.thr.init(1, 32)

    def next_tile(self):
        """This warp's read of the scheduler's next answer (every
        participating warp of every CTA reads each answer once): the
        canceled cluster's first CTA's x and whether one was."""
        cs = self.clc.acquire_consumer()
        ok, cx, _cy, _cz = pm.pipeline_op("pipeline.clc_response",
                                          [T.i1, T.i32, T.i32, T.i32], stage=cs)
        cs.arrive()
        cs.release()
        return cx, ok

    @contextlib.contextmanager
    def loop(self):
        """The body runs once per tile of this cluster, with its index
        (i32); every role of every CTA walks the same tiles."""
        with pm.while_loop(carry=[self.first, self.true]) as lp:
            (t,) = lp.carried
            yield t
            cx, ok = self.next_tile()
            lp.next(tile_of(cx, self.cluster), ok)

    def origin(self, t):
        """(m block, n block) of tile t (i32)."""
        return remui(t, self.m_tiles), divui(t, self.m_tiles)

    def tile_started(self, rank0) -> None:
        """The TMA lane, at each tile it starts: one more request allowed
        (the scheduling CTA's throttle, `rank0` its i1)."""
        with pm.if_(rank0):
            with self.thr.produce() as ts:
                ts.arrive()

    def run_scheduler(self, rank0) -> None:
        """The scheduler warp, in cluster rank 0 (`rank0`): waits until the
        TMA lane started the tile of the last answer, asks for a canceled
        cluster, reads the answer like every reader; stops after "nothing
        canceled"."""
        with pm.if_(rank0):
            with pm.while_loop(carry=[self.true]) as lp:
                with self.thr.consume():
                    pass
                p = self.clc.acquire_producer()
                pm.pipeline_op("pipeline.clc_try_cancel", stage=p)
                p.release()
                _cx, ok = self.next_tile()
                lp.next(ok)
            # The other CTAs' readers still arrive on rank 0's empty barriers.
            self.clc.drain_producer()
