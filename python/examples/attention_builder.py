"""Forward attention written with the Python builder (no MLIR text):
O = softmax(scale Q K^T [causal]) V and the log-sum-exp, for bf16 tensors
(batch, seqlen, heads, head_dim), head_dim 64 or 128, any seqlen.

The structure of examples/attention_sm90.mlir in its plain ("serial")
schedule, without its tuning:
  - warpgroup 0, the producer: thread 0 loads Q once (a one-stage tile
    pipeline), then K and V of every key block of 128 (two tile pipelines),
    with TMA on the 3-D view (batch, seqlen, heads x head_dim);
  - warpgroups 1 and 2, the consumers, 64 query rows each: S = Q K^T
    (wgmma), the online softmax in registers (row max and sum over the 4
    lanes of a row), P to shared memory (stmatrix), O += P V (wgmma, V read
    MN-major), O, the row maxima and sums carried through the key loop
    (pm.range(carry=)); then O / l and the log-sum-exp stored, clipped at
    seqlen.
Python loops unroll the per-register work; the NVIDIA layer
(pipeline_mlir.nvidia: `hopper` for shared-memory layouts, wgmma
descriptors, accumulators and stmatrix, `common` for barriers, fences,
shuffles and math) writes the NVVM ops.

    python3 python/examples/attention_builder.py [--head-dim 64] [--causal]   # needs torch
"""

import argparse
import math
import sys

sys.path.insert(0, __file__.rsplit("/examples/", 1)[0])
import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir.nvidia import common, hopper  # noqa: E402
from pipeline_mlir.nvidia.hopper import Accumulator, FragmentStore, SmemLayout  # noqa: E402

BM = BN = 128
STAGES = 2
NEG_INF = float("-inf")


def make_kernel(head_dim=128, causal=False):
    """The kernel for one head_dim and masking."""
    D = head_dim  # noqa: N806
    halves = D // 64
    # How the tiles lie in shared memory (128-byte swizzle, 64-column
    # sub-tiles one under the other, as TMA writes them): Q and K K-major
    # for S = Q K^T, V MN-major for O = P V (no transpose), P K-major.
    q_layout, k_layout = SmemLayout(BM, D), SmemLayout(BN, D)
    v_layout, p_layout = SmemLayout(BN, D, major="MN"), SmemLayout(64, BN)
    q_off = 1024
    k_off = q_off + q_layout.nbytes
    v_off = k_off + STAGES * k_layout.nbytes
    p_off = v_off + STAGES * v_layout.nbytes
    smem_bytes = p_off + 2 * p_layout.nbytes
    In = pm.memref((1, 128, 64), pm.bf16, pm.smem)  # noqa: N806 (a TMA box)

    @pm.kernel(block=384, name=f"attention_d{D}{'_causal' if causal else ''}")
    def attention(q_map: pm.tensormap(In, swizzle="swizzle_128b"),
                  k_map: pm.tensormap(In, swizzle="swizzle_128b"),
                  v_map: pm.tensormap(In, swizzle="swizzle_128b"),
                  o: pm.memref((None, None, None, D), pm.bf16),
                  lse: pm.memref((None, None, None), pm.f32),
                  seqlen_i32: pm.i32, scale_log2: pm.f32):
        tid = pm.thread_id()
        qb, head, batch = pm.block_id("x"), pm.block_id("y"), pm.block_id("z")
        seqlen = seqlen_i32.cast(pm.index)
        m0 = qb * BM
        head_col = head * D
        kv_blocks = (seqlen + (BN - 1)) // BN
        mask_from = kv_blocks - 1
        if causal:  # key blocks up to the diagonal, which is the last (BM = BN)
            kv_blocks = common.minui(kv_blocks, qb + 1)
            mask_from = qb
        smem = pm.dynamic_shared_memory()
        tq = pm.tile_pipeline(pm.pipeline(smem, 0, stages=1),
                              [pm.view(smem, q_off, (1, 1, halves * BM, 64), pm.bf16)])
        tk = pm.tile_pipeline(pm.pipeline(smem, 64, stages=STAGES),
                              [pm.view(smem, k_off, (STAGES, 1, halves * BN, 64), pm.bf16)])
        tv = pm.tile_pipeline(pm.pipeline(smem, 128, stages=STAGES),
                              [pm.view(smem, v_off, (STAGES, 1, halves * BN, 64), pm.bf16)])
        for tp in (tq, tk, tv):
            tp.init(producer=1, consumer=2)
        wg = tid // 128
        with pm.if_(wg == 0) as producer:
            common.setmaxnreg("decrease", 24)
            with pm.if_(tid == 0):
                def load(tp, desc, row0):
                    s = tp.acquire_producer()
                    s.expect_tx()
                    for h in range(halves):
                        dst = pm.subview(s.payload(0), [0, h * 128, 0], [1, 128, 64], rank=3)
                        pm.tma_load(desc, [head_col + 64 * h, row0, batch], s.mbar(), dst)
                    s.release()
                load(tq, q_map, m0)
                with pm.range(kv_blocks) as j:
                    load(tk, k_map, j * BN)
                    load(tv, v_map, j * BN)
                for tp in (tq, tk, tv):
                    tp.drain_producer()
        with producer.else_():
            common.setmaxnreg("increase", 240)
            cw = wg - 1
            ltid = tid % 128
            warp, lane = ltid // 32, tid % 32
            leader = ltid == 0
            bar_id = (cw + 1).cast(pm.i32)
            # This thread's two rows of the warpgroup's accumulators
            # (Accumulator.half 0 and 1) and its first column 2 (lane % 4).
            rows = (m0 + cw * 64 + warp * 16 + lane // 4,)
            rows += (rows[0] + 8,)
            col_q = (lane % 4) * 2
            # P: this warpgroup's 64 x 128 bf16 tile, written with stmatrix.
            p_base = common.smem_address(pm.view(smem, p_off + cw * p_layout.nbytes,
                                                 (2, 64, 64), pm.bf16))
            p_frag = FragmentStore(p_base, warp, lane)
            p_descs = p_layout.descriptors(p_base)

            sq = tq.acquire_consumer()
            # This warpgroup's 64 rows of Q.
            q_descs = q_layout.descriptors(common.smem_address(sq.payload(0))
                                           + cw * q_layout.offset(64, 0))
            ninf = pm.constant(NEG_INF, pm.f32)
            zero = pm.constant(0.0, pm.f32)
            o_zero = Accumulator.fill(D, 0.0)
            with pm.range(kv_blocks, carry=[o_zero.value, ninf, ninf, zero, zero]) as loop:
                acc_o = Accumulator.of(D, loop.carried[0])
                m_old, l_old = loop.carried[1:3], loop.carried[3:5]
                j = loop.iv
                # S = Q K^T, waited for.
                sk = tk.acquire_consumer()
                k_descs = k_layout.descriptors(common.smem_address(sk.payload(0)))
                s = hopper.mma_tile(Accumulator.undef(BN), q_descs, k_descs, overwrite=True)
                hopper.wait_group(0)
                with pm.if_(leader):
                    sk.arrive()
                sk.release()
                # Masking: key n0 + 2 (lane % 4) + column(i) is kept iff it is
                # below lim (seqlen, and causal: row + 1) on the blocks that
                # need it; elsewhere lim is past every key.
                masked = j >= mask_from
                lims = []
                for row in rows:
                    lim = common.minui(row + 1, seqlen) if causal else seqlen
                    lim = (lim - j * BN - col_q).cast(pm.i32)
                    lims.append(common.select(masked, lim, pm.constant(1 << 30, pm.i32)))
                s = s.map(lambda i, x: common.select(
                    lims[Accumulator.half(i)] > Accumulator.column(i), x, ninf))
                # The online softmax, per row: max and sum over the row's 4 lanes.
                p = [None] * s.size
                m_new, l_new, alpha = [], [], []
                for h in (0, 1):
                    m = common.maxnum(m_old[h], s.row_reduce(h, common.maxnum))
                    m_scaled = common.select(m == ninf, zero, m) * scale_log2
                    alpha.append(common.ex2_approx(m_old[h] * scale_log2 - m_scaled))
                    total = None
                    for i in s.row_indices(h):
                        p[i] = common.ex2_approx(s[i] * scale_log2 - m_scaled)
                        total = p[i] if total is None else total + p[i]
                    m_new.append(m)
                    l_new.append(l_old[h] * alpha[h] + total)
                # P to shared memory, then the async proxy reads it.
                common.named_barrier(bar_id, 128)  # the last P V read these tiles
                p = Accumulator(BN, elements=p)
                for g in range(BN // 16):
                    p_frag.store(p, g)
                common.fence_proxy_async_shared()
                common.named_barrier(bar_id, 128)
                # O = alpha O + P V
                acc_o = acc_o.map(lambda i, x: x * alpha[Accumulator.half(i)])
                sv = tv.acquire_consumer()
                v_descs = v_layout.descriptors(common.smem_address(sv.payload(0)))
                acc_o = hopper.mma_tile(acc_o, p_descs, v_descs, b_layout=v_layout)
                hopper.wait_group(0)
                with pm.if_(leader):
                    sv.arrive()
                sv.release()
                loop.next(acc_o.value, *m_new, *l_new)
            acc_o = Accumulator.of(D, loop.results[0])
            stats = loop.results[1:]
            with pm.if_(leader):
                sq.arrive()
            sq.release()
            # O / l and the log-sum-exp; l summed over the row's 4 lanes.
            for h, row in enumerate(rows):
                total = hopper.quad_reduce(stats[2 + h], lambda a, b: a + b)
                inv = pm.constant(1.0, pm.f32) / total
                with pm.if_(row < seqlen):
                    for i in acc_o.row_indices(h):
                        col = col_q + Accumulator.column(i)
                        o[batch, row, head, col] = (acc_o[i] * inv).cast(pm.bf16)
                    with pm.if_(lane % 4 == 0):
                        log2 = common.lg2_approx(total)
                        lse[batch, head, row] = (stats[h] * scale_log2 + log2) * math.log(2.0)

    return attention, smem_bytes


def prepare(kernel, smem_bytes, q, k, v, causal=False, scale=None):
    """The launch on torch tensors (batch, seqlen, heads, head_dim) bf16,
    prepared once (descriptors, parameters, outputs): returns (launch, O,
    the log-sum-exp (batch, heads, seqlen)). Calling `launch` runs the
    kernel on torch's current stream of the time of the call to prepare."""
    import torch
    batch, seqlen, heads, d = q.shape
    scale = 1.0 / math.sqrt(d) if scale is None else scale
    rows = (batch, seqlen, heads * d)
    maps = [pm.TensorMap(t.view(rows), (1, 128, 64), "bf16", "swizzle_128b") for t in (q, k, v)]
    o = torch.empty_like(q)
    lse = torch.empty((batch, heads, seqlen), dtype=torch.float32, device=q.device)
    loaded = kernel.kernel() if hasattr(kernel, "kernel") else kernel
    launch = loaded.prepare(*maps, o, lse, pm.i32(seqlen), pm.f32(scale * math.log2(math.e)),
                            grid=(-(-seqlen // BM), heads, batch), block=384, smem=smem_bytes)
    return launch, o, lse


def run(kernel, smem_bytes, q, k, v, causal=False, scale=None):
    """Launches once; returns O and the log-sum-exp."""
    launch, o, lse = prepare(kernel, smem_bytes, q, k, v, causal, scale)
    launch()
    return o, lse


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--head-dim", type=int, default=128)
    ap.add_argument("--causal", action="store_true")
    ap.add_argument("--shape", default="2,1000,3", help="batch,seqlen,heads")
    args = ap.parse_args()
    import torch
    batch, seqlen, heads = (int(x) for x in args.shape.split(","))
    kernel, smem = make_kernel(args.head_dim, args.causal)
    compiled = pm.compile(kernel, chip="sm_90a")
    q, k, v = (torch.randn((batch, seqlen, heads, args.head_dim), device="cuda")
               .to(torch.bfloat16) for _ in range(3))
    o, _ = run(compiled, smem, q, k, v, args.causal)
    ref = torch.nn.functional.scaled_dot_product_attention(
        *(x.transpose(1, 2).float() for x in (q, k, v)), is_causal=args.causal).transpose(1, 2)
    torch.cuda.synchronize()
    err = (o.float() - ref).abs().max().item()
    ok = err < 2e-2
    print(f"attention_builder d={args.head_dim} causal={args.causal} {args.shape}: "
          f"{'ok' if ok else 'MISMATCH'} (max error {err:.2e})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
