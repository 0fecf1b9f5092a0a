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
Python loops unroll the per-register work; `pm.op` writes the NVVM ops.

    python3 python/examples/attention_builder.py [--head-dim 64] [--causal]   # needs torch
"""

import argparse
import math
import sys

sys.path.insert(0, __file__.rsplit("/examples/", 1)[0])
import pipeline_mlir as pm  # noqa: E402
from pipeline_mlir.types import OpaqueType  # noqa: E402

BM = BN = 128
STAGES = 2
TILE = 128 * 64 * 2          # one 128 x 64 bf16 sub-tile (128-byte rows)
K_MAJOR = (1 << 16) | (64 << 32) | (1 << 62)
V2F32, V2BF16 = OpaqueType("vector<2xf32>"), OpaqueType("vector<2xbf16>")
NEG_INF = float("-inf")


def _struct(n):
    return OpaqueType("!llvm.struct<(" + ", ".join(["f32"] * n) + ")>")


def _wgmma(acc, a, b, n, acc_type, b_layout):
    return pm.op("nvvm.wgmma.mma_async", [acc, a, b], [acc_type], properties=(
        f"{{layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<{b_layout}>, "
        "scaleA = #nvvm.wgmma_scale_in<one>, scaleB = #nvvm.wgmma_scale_in<one>, "
        "scaleD = #nvvm.wgmma_scale_out<one>, "
        f"shape = #nvvm.shape<m = 64, n = {n}, k = 16>, typeA = #nvvm.wgmma_type<bf16>, "
        "typeB = #nvvm.wgmma_type<bf16>, typeD = #nvvm.wgmma_type<f32>}"))


def _get(acc, i):
    return pm.op("llvm.extractvalue", [acc], [pm.f32], properties=f"{{position = array<i64: {i}>}}")


def _set(acc, i, v, acc_type):
    return pm.op("llvm.insertvalue", [acc, v], [acc_type],
                 properties=f"{{position = array<i64: {i}>}}")


def _zeros(n, acc_type):
    acc = pm.op("llvm.mlir.undef", [], [acc_type])
    zero = pm.constant(0.0, pm.f32)
    for i in range(n):
        acc = _set(acc, i, zero, acc_type)
    return acc


def _max(a, b):
    return pm.op("arith.maxnumf", [a, b], [pm.f32])


def _exp2(x):
    return pm.op("math.exp2", [x], [pm.f32])


def _shfl_xor(x, offset):
    return pm.op("nvvm.shfl.sync", [pm.constant(-1, pm.i32), x, pm.constant(offset, pm.i32),
                                    pm.constant(31, pm.i32)], [pm.f32],
                 properties="{kind = #nvvm<shfl_kind bfly>}")


def _bf16x2(x, y):
    v = pm.op("vector.from_elements", [x, y], [V2F32])
    return pm.op("llvm.bitcast", [pm.op("arith.truncf", [v], [V2BF16])], [pm.i32])


def _desc(addr, hi):
    return ((addr.cast(pm.i64) >> 4) & 0x3FFF) | pm.constant(hi, pm.i64)


def _warpgroup_barrier(bar_id):
    pm.op("nvvm.barrier", [bar_id, pm.constant(128, pm.i32)],
          properties="{operandSegmentSizes = array<i32: 1, 1, 0>}")


def make_kernel(head_dim=128, causal=False):
    """The kernel for one head_dim and masking."""
    D = head_dim  # noqa: N806
    halves = D // 64
    n_s, n_o = BN // 2, D // 2
    AccS, AccO = _struct(n_s), _struct(n_o)  # noqa: N806
    q_off = 1024
    k_off = q_off + halves * TILE
    v_off = k_off + STAGES * halves * TILE
    p_off = v_off + STAGES * halves * TILE
    smem_bytes = p_off + 2 * 2 * 64 * 64 * 2
    In = pm.memref((1, 128, 64), pm.bf16, pm.smem)  # noqa: N806 (a TMA box)
    v_major = ((TILE >> 4) << 16) | (64 << 32) | (1 << 62)  # MN-major: LBO = next 64 columns

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
            kv_blocks = pm.op("arith.minui", [kv_blocks, qb + 1], [pm.index])
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
            pm.op("nvvm.setmaxregister",
                  properties="{action = #nvvm<action decrease>, regCount = 24 : i32}")
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
            pm.op("nvvm.setmaxregister",
                  properties="{action = #nvvm<action increase>, regCount = 240 : i32}")
            cw = wg - 1
            ltid = tid % 128
            warp, lane = ltid // 32, tid % 32
            leader = ltid == 0
            bar_id = (cw + 1).cast(pm.i32)
            base = pm.op("memref.extract_aligned_pointer_as_index", [smem], [pm.index])
            # This thread's rows of the warpgroup's accumulators, and its
            # first column (8 c + 2 (lane % 4) + {0, 1} for c = 0, 1, ..).
            row_a = m0 + cw * 64 + warp * 16 + lane // 4
            row_b = row_a + 8
            col_q = (lane % 4) * 2
            # stmatrix: lane l of warp w gives row w*16 + ((l>>3)&1)*8 + (l&7)
            # of the 64 x 64 sub-tile, 16-byte chunk 2(g&3) ^ ((l&7) ^ (l>>4))
            # of 16-column group g (the 128-byte swizzle).
            p_base = base + p_off + cw * (2 * 64 * 64 * 2)
            st_row = warp * 16 + ((lane >> 3) & 1) * 8 + (lane & 7)
            x = (lane & 7) ^ (lane >> 4)
            thr = [p_base + st_row * 128 + (x ^ (2 * g)) * 16 for g in range(4)]

            sq = tq.acquire_consumer()
            q_addr = base + q_off + cw * (64 * 128)
            q_desc = [_desc(q_addr + (kk // 4) * TILE + (kk % 4) * 32, K_MAJOR)
                      for kk in range(D // 16)]
            ninf = pm.constant(NEG_INF, pm.f32)
            zero = pm.constant(0.0, pm.f32)
            with pm.range(kv_blocks, carry=[_zeros(n_o, AccO), ninf, ninf, zero, zero]) as loop:
                acc_o, m_a, m_b, l_a, l_b = loop.carried
                j = loop.iv
                # S = Q K^T
                sk = tk.acquire_consumer()
                k_addr = base + k_off + sk.index * (halves * TILE)
                s_acc = _zeros(n_s, AccS)
                pm.op("nvvm.wgmma.fence.aligned")
                for kk in range(D // 16):
                    k_desc = _desc(k_addr + (kk // 4) * TILE + (kk % 4) * 32, K_MAJOR)
                    s_acc = _wgmma(s_acc, q_desc[kk], k_desc, BN, AccS, "col")
                pm.op("nvvm.wgmma.commit.group.sync.aligned")
                pm.op("nvvm.wgmma.wait.group.sync.aligned", properties="{group = 0 : i64}")
                with pm.if_(leader):
                    sk.arrive()
                sk.release()
                # Masking: key n0 + 8 c + col_q + (i & 1) is kept iff it is
                # below lim (seqlen, and causal: row + 1) on the blocks that
                # need it; elsewhere lim is past every key.
                n0 = j * BN
                masked = j >= mask_from
                big = pm.constant(1 << 30, pm.i32)
                lims = []
                for row in (row_a, row_b):
                    lim = seqlen
                    if causal:
                        lim = pm.op("arith.minui", [row + 1, seqlen], [pm.index])
                    lim = (lim - n0 - col_q).cast(pm.i32)
                    lims.append(pm.op("arith.select", [masked, lim, big], [pm.i32]))
                vals = []
                for i in range(n_s):
                    off = 8 * (i // 4) + (i & 1)
                    v = _get(s_acc, i)
                    keep = lims[(i % 4) // 2] > pm.constant(off, pm.i32)
                    vals.append(pm.op("arith.select", [keep, v, ninf], [pm.f32]))
                # The online softmax, per row (a: registers i % 4 < 2, b: the rest).
                p = [None] * n_s
                new = {}
                for r, m_old, l_old in (("a", m_a, l_a), ("b", m_b, l_b)):
                    idx = [i for i in range(n_s) if (i % 4 < 2) == (r == "a")]
                    mx = vals[idx[0]]
                    for i in idx[1:]:
                        mx = _max(mx, vals[i])
                    mx = _max(mx, _shfl_xor(mx, 1))
                    mx = _max(mx, _shfl_xor(mx, 2))
                    m_new = _max(m_old, mx)
                    m_use = pm.op("arith.select", [m_new == ninf, zero, m_new], [pm.f32])
                    ms = m_use * scale_log2
                    alpha = _exp2(m_old * scale_log2 - ms)
                    total = None
                    for i in idx:
                        p[i] = _exp2(vals[i] * scale_log2 - ms)
                        total = p[i] if total is None else total + p[i]
                    new[r] = (m_new, l_old * alpha + total, alpha)
                # P to shared memory, then the async proxy reads it.
                _warpgroup_barrier(bar_id)  # the last P V read these tiles
                for g in range(BN // 16):
                    regs = [_bf16x2(p[8 * g + 2 * t], p[8 * g + 2 * t + 1]) for t in range(4)]
                    addr = thr[g & 3] + (g // 4) * 8192
                    ptr = pm.op("llvm.inttoptr", [addr.cast(pm.i64)], [OpaqueType("!llvm.ptr<3>")])
                    pm.op("nvvm.stmatrix", [ptr] + regs, properties=(
                        "{eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, "
                        "shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>}"))
                pm.op("nvvm.fence.proxy", properties=(
                    "{kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}"))
                _warpgroup_barrier(bar_id)
                # O = alpha O + P V
                for i in range(n_o):
                    alpha = new["a" if i % 4 < 2 else "b"][2]
                    acc_o = _set(acc_o, i, _get(acc_o, i) * alpha, AccO)
                sv = tv.acquire_consumer()
                v_addr = base + v_off + sv.index * (halves * TILE)
                pm.op("nvvm.wgmma.fence.aligned")
                for kk in range(BN // 16):
                    p_desc = _desc(p_base + (kk // 4) * 8192 + (kk % 4) * 32, K_MAJOR)
                    v_desc = _desc(v_addr + kk * 16 * 128, v_major)
                    acc_o = _wgmma(acc_o, p_desc, v_desc, D, AccO, "row")
                pm.op("nvvm.wgmma.commit.group.sync.aligned")
                pm.op("nvvm.wgmma.wait.group.sync.aligned", properties="{group = 0 : i64}")
                with pm.if_(leader):
                    sv.arrive()
                sv.release()
                loop.next(acc_o, new["a"][0], new["b"][0], new["a"][1], new["b"][1])
            acc_o, m_a, m_b, l_a, l_b = loop.results
            with pm.if_(leader):
                sq.arrive()
            sq.release()
            # O / l and the log-sum-exp; l summed over the row's 4 lanes.
            inv, lses = [], []
            for m_r, l_r in ((m_a, l_a), (m_b, l_b)):
                total = l_r + _shfl_xor(l_r, 1)
                total = total + _shfl_xor(total, 2)
                inv.append(pm.constant(1.0, pm.f32) / total)
                log2 = pm.op("math.log2", [total], [pm.f32])
                lses.append((m_r * scale_log2 + log2) * math.log(2.0))
            for r, row in enumerate((row_a, row_b)):
                with pm.if_(row < seqlen):
                    for i in range(n_o):
                        if (i % 4 < 2) != (r == 0):
                            continue
                        col = col_q + 8 * (i // 4) + (i & 1)
                        o[batch, row, head, col] = (_get(acc_o, i) * inv[r]).cast(pm.bf16)
                    with pm.if_(lane % 4 == 0):
                        lse[batch, head, row] = lses[r]

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
