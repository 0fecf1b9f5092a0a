#!/usr/bin/env python3
"""Runs an example kernel's PTX in pipeline-sim WITH DATA and compares its
output with a float64 numpy reference (test/Sim/data-*.test).

  check_data.py --sim SIM --ptx FILE --out DIR KIND [shape options]

KIND is gemm100 (examples/gemm_sm100.mlir), gemm90 (examples/gemm_sm90.mlir),
att100 (examples/attention_sm100.mlir), att90 (examples/attention_sm90.mlir),
mxfp8 or nvfp4 (the block-scaled GEMMs of
python/pipeline_mlir/kernels/gemm_block_scaled_sm100.py; mxfp8 is
examples/gemm_mxfp8_sm100.mlir).
The inputs are seeded random bf16 values (standard normal, rounded to
nearest even), written to files in DIR; the output buffers are prefilled
with a sentinel (bf16 / f32 NaN bit patterns) so that an element the kernel
never wrote is told apart from a wrong one.

Prints one line per check and exits 0 when the kernel ran clean (no
finding, exit 0) and every element matched the reference; otherwise it
prints
  SIM FAILED: ...        pipeline-sim failed or reported a finding,
  UNWRITTEN: ...         sentinel elements left in the output,
  MISMATCH: ...          elements outside the tolerance,
and exits 1. The seeded-bug tests run it under `not` and check which line.

Tolerances (float64 reference, bf16 inputs exact in float64):
  GEMM: C = bf16_rn(c32), c32 the f32 accumulation of K bf16 products. The
    products of two bf16 values are exact in f32 (8 + 8 significand bits);
    f32 summation of K terms errs by at most gamma_K = K * 2^-24 times
    sum_k |a_ik b_jk| (the classic recursive-summation bound, any order).
    bf16 round-to-nearest then adds at most 2^-8 * |c32| (8 significand
    bits: unit roundoff 2^-8). So
      |C - ref| <= 2^-8 * |ref| + (1 + 2^-8) * K * 2^-24 * (|A| |B|^T)_ij
    and we allow 2^-8 * |ref| + 2 * K * 2^-24 * (|A| |B|^T)_ij + 1e-30.
    The second term is ~1e-5 relative: a wrong k-block (a swizzle, a
    transpose, a lost accumulate) is off by O(|ref|), far outside.
  Attention: O = bf16_rn(sum_j bf16(p_j) v_j / l) with p_j = 2^(s_j * c - m)
    in f32 (ex2.approx computed correctly rounded by the emulator) and l the
    row sum. Rounding P to bf16 costs at most 2^-8 * p_j per term:
    2^-8 * (P |V|)_i / l; the bf16 output another 2^-8 * |O|. The f32 work
    (QK^T over 128, the exponent, the sum over seqlen keys, the rescale of O
    per key block) is a few 1e-6 relative to (P|V|)/l. We allow
      |O - ref| <= 2^-8 * |ref| + (2^-8 + 2^-12) * (softmax(S) |V|)_i
    and |LSE - ref| <= 1e-4 * (1 + |ref|) (f32 log of an f32 sum; the
    kernel works in base 2 and converts).
  Block-scaled GEMM (mxfp8, nvfp4): A, B random codes of the format (e4m3 /
    e5m2 with exponents within 2^-3 .. 2^4, all 16 e2m1 codes), scale
    factors random with moderate exponents (ue8m0 2^-4 .. 2^4; ue4m3
    2^-2 .. 2^2 times a random mantissa), NVFP4 a global f32 scale. The
    reference is C = g * sum_k (a_mk sfa_m,k/V) (b_nk sfb_n,k/V) in float64
    (V = 32 or 16, g = 1 for MXFP8). Each product a sa b sb is exact in f32
    (at most 4 significand bits in e4m3, 3 in e5m2, 2 in e2m1, 4 in ue4m3,
    1 in ue8m0: at most 12 bits a product; none leaves the normal f32
    range), so the accumulator is the f32 sum of K exact terms
    as for the bf16 GEMM: error <= K 2^-24 (|A sa| |B sb|^T)_mn. The
    epilogue's f32 product with g adds 2^-24 |g c32|, the bf16 output
    2^-8 |C|. We allow
      |C - ref| <= 2^-8 |ref| + 2 K 2^-24 |g| (|A sa| |B sb|^T)_mn + 1e-30.
    A wrong scale (a factor of another row or k-block, a wrong SF ID, a
    lost duplication) changes the result by O(|ref|): at least a factor
    of two on some term, far outside.
"""

import argparse
import os
import subprocess
import sys
import time

import numpy as np

LOG2E = 1.4426950408889634
# Elements of padding after each row of the GEMM operands and of C.
PAD = 64


def to_bf16_bits(x):
    """float array -> uint16 bf16 bits, round to nearest even."""
    f = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = (f + 0x7FFF + ((f >> 16) & 1)) >> 16
    return r.astype(np.uint16)


def bf16_to_f64(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def rand_bf16(rng, shape, std=1.0):
    bits = to_bf16_bits(std * rng.standard_normal(shape))
    return bits, bf16_to_f64(bits)


def write(path, arr):
    with open(path, "wb") as f:
        f.write(np.ascontiguousarray(arr).tobytes())


def run_sim(args, sim_args):
    cmd = [args.sim, args.ptx] + sim_args
    if args.verbose:
        print(" ".join(cmd))
    start = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if args.time:
        # The simulator's wall time alone (bench/emulator/run.py).
        print("sim-seconds: %.3f" % (time.perf_counter() - start))
    out = p.stdout + p.stderr
    if p.returncode != 0 or "completed" not in out:
        print("SIM FAILED: exit %d" % p.returncode)
        for line in out.splitlines()[:20]:
            print("  sim: " + line)
        return False
    for line in out.splitlines():
        if "completed" in line:
            print("sim: " + line.strip())
    return True


def compare(name, got, ref, tol, idx_names, unwritten):
    """got/ref float64 arrays of one shape, tol elementwise, unwritten the
    mask of elements still holding the sentinel bits. True if all in."""
    nbad_w = int(unwritten.sum())
    if nbad_w:
        first = tuple(int(i) for i in np.argwhere(unwritten)[0])
        print("UNWRITTEN: %s: %d of %d elements never written (first at %s)"
              % (name, nbad_w, got.size, dict(zip(idx_names, first))))
    err = np.abs(got - ref)
    bad = ~(err <= tol) & ~unwritten
    nbad = int(bad.sum())
    ok_mask = ~unwritten
    ratio = float(np.max(err[ok_mask] / tol[ok_mask])) if ok_mask.any() else 0.0
    if nbad:
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        print("MISMATCH: %s: %d of %d elements outside the tolerance (first at "
              "%s: got %.6g, want %.6g); max err/tol %.3g"
              % (name, nbad, got.size, dict(zip(idx_names, first)),
                 got[first], ref[first], ratio))
    if nbad or nbad_w:
        return False
    print("%s: %d elements match (max err/tol %.3f)" % (name, got.size, ratio))
    return True


# --------------------------------------------------------------------- GEMM

def gemm_check(args, a, b, c_bits):
    ref = a @ b.T
    bound = np.abs(a) @ np.abs(b).T
    K = a.shape[1]
    tol = 2.0 ** -8 * np.abs(ref) + 2.0 * K * 2.0 ** -24 * bound + 1e-30
    return compare("C", bf16_to_f64(c_bits), ref, tol, ("m", "n"), c_bits == 0xFFFF)


def gemm(args, kind):
    M, N, K = args.M, args.N, args.K
    P = PAD
    rng = np.random.default_rng(args.seed)
    a_bits, a = rand_bf16(rng, (M, K))
    b_bits, b = rand_bf16(rng, (N, K))
    d = args.out
    # Rows padded by PAD elements of NaN: a load that read past K instead of
    # zero-filling (TMA's OOB fill) would poison C with NaN.
    nan_pad = lambda x: np.concatenate([x, np.full((x.shape[0], P), 0xFFFF, np.uint16)], 1)
    write(os.path.join(d, "a.bin"), nan_pad(a_bits))
    write(os.path.join(d, "b.bin"), nan_pad(b_bits))
    # C prefilled with bf16 NaN (0xffff), rows padded by PAD elements that
    # must stay untouched (TMA clips stores at N and M), and one guard row.
    write(os.path.join(d, "c_init.bin"), np.full((M + 1) * (N + P), 0xFFFF, np.uint16))
    if kind == "gemm100":
        grid = ((M + 511) // 512) * ((N + 255) // 256) * 4
        a_box, b_box, c_box = "64x128", "64x64", "64x32"
        launch = ["--grid=%d" % grid, "--cluster=4", "--block=224", "--smem=230400"]
        tail = ["--arg=%d" % M, "--arg=%d" % N, "--arg=%d" % K]
    else:
        # With --cluster 2 (the 2-CTA variant), a CTA pair computes M-tiles
        # 2i and 2i + 1 of one N-tile, each CTA loading half of B's 256 rows
        # and multicasting it: a grid of pairs.
        # With --pingpong (the ping-pong variant, 128 x 128 tiles, one ring
        # of 6 stages), each consumer warpgroup computes every other tile
        # of its CTA.
        cl = args.cluster
        bn, smem = (128, 230400) if args.pingpong else (256, 214016)
        tiles = ((M + 128 * cl - 1) // (128 * cl)) * ((N + bn - 1) // bn)
        grid = cl * (min(tiles, args.grid) if args.grid else tiles)
        a_box, b_box, c_box = "64x128", "64x%d" % (bn // cl), "64x64"
        launch = ["--grid=%d" % grid, "--block=384", "--smem=%d" % smem]
        if cl > 1:
            launch.append("--cluster=%d" % cl)
        tail = ["--arg=%d" % M, "--arg=%d" % N, "--arg=%d" % K, "--arg=%d" % args.group_m]
    a_box = args.a_box or a_box
    sim_args = launch + [
        "--buffer=A=@" + os.path.join(d, "a.bin"),
        "--buffer=B=@" + os.path.join(d, "b.bin"),
        "--buffer=C=@" + os.path.join(d, "c_init.bin"),
        "--arg=tmap:bf16:dims=%dx%d:box=%s:strides=%d:swizzle=128:data=A" % (K, M, a_box, 2 * (K + P)),
        "--arg=tmap:bf16:dims=%dx%d:box=%s:strides=%d:swizzle=128:data=B" % (K, N, b_box, 2 * (K + P)),
        "--arg=tmap:bf16:dims=%dx%d:box=%s:strides=%d:swizzle=128:data=C" % (N, M, c_box, 2 * (N + P)),
    ] + tail + ["--output=C=" + os.path.join(d, "c.bin")]
    if args.resident_clusters:
        sim_args.append("--resident-clusters=%d" % args.resident_clusters)
    if not run_sim(args, sim_args):
        return False
    c_all = np.fromfile(os.path.join(d, "c.bin"), dtype=np.uint16).reshape(M + 1, N + P)
    ok = True
    outside = np.concatenate([c_all[:M, N:].ravel(), c_all[M].ravel()])
    if not np.all(outside == 0xFFFF):
        print("MISMATCH: %d elements written outside C's M x N (row pad or guard row)"
              % int(np.sum(outside != 0xFFFF)))
        ok = False
    return gemm_check(args, a, b, c_all[:M, :N]) and ok


# ---------------------------------------------------------------- attention

def attention(args, kind):
    B, H, S, D = args.batch, args.heads, args.seqlen, 128
    rng = np.random.default_rng(args.seed)
    q_bits, q = rand_bf16(rng, (B, S, H, D), args.q_std)
    k_bits, k = rand_bf16(rng, (B, S, H, D))
    v_bits, v = rand_bf16(rng, (B, S, H, D))
    d = args.out
    for n, x in (("q", q_bits), ("k", k_bits), ("v", v_bits)):
        write(os.path.join(d, n + ".bin"), x)
    write(os.path.join(d, "o_init.bin"), np.full(B * S * H * D, 0xFFFF, np.uint16))
    write(os.path.join(d, "lse_init.bin"), np.full(B * H * S, 0xFFFFFFFF, np.uint32))
    scale = 1.0 / np.sqrt(D)
    # The kernel's scale argument: scale x log2(e) as f32 (--kernel-scale
    # overrides the scale the kernel is given; the reference keeps 1/sqrt(D)).
    kscale = args.kernel_scale if args.kernel_scale is not None else scale
    scale_arg = "--arg=f32:%r" % float(np.float32(kscale * LOG2E))
    dims = "%dx%dx%d" % (H * D, S, B)
    tm = lambda n: "--arg=tmap:bf16:dims=%s:box=64x128x1:swizzle=128:data=%s" % (dims, n)
    grid = "--grid=%d,%d,%d" % ((S + 127) // 128, H, B)
    sim_args = [grid,
                "--buffer=Q=@" + os.path.join(d, "q.bin"),
                "--buffer=K=@" + os.path.join(d, "k.bin"),
                "--buffer=V=@" + os.path.join(d, "v.bin")]
    if kind == "att100":
        sim_args += ["--block=192", "--smem=164864", tm("Q"), tm("K"), tm("V"),
                     "--arg=buf:O=@" + os.path.join(d, "o_init.bin")]
    else:
        sim_args += ["--block=384", "--smem=230400",
                     "--buffer=O=@" + os.path.join(d, "o_init.bin"),
                     tm("Q"), tm("K"), tm("V"),
                     "--arg=tmap:bf16:dims=%s:box=64x64x1:swizzle=128:data=O" % dims]
    sim_args += ["--arg=buf:L=@" + os.path.join(d, "lse_init.bin"),
                 "--arg=%d" % S, "--arg=%d" % H, scale_arg,
                 "--output=O=" + os.path.join(d, "o.bin"),
                 "--output=L=" + os.path.join(d, "lse.bin")]
    if not run_sim(args, sim_args):
        return False
    o_bits = np.fromfile(os.path.join(d, "o.bin"), dtype=np.uint16).reshape(B, S, H, D)
    o_bits = o_bits.transpose(0, 2, 1, 3)
    lse_bits = np.fromfile(os.path.join(d, "lse.bin"), dtype=np.uint32).reshape(B, H, S)
    o = bf16_to_f64(o_bits)
    lse = lse_bits.view(np.float32).astype(np.float64)
    # Reference in (B, H, S, D).
    qh, kh, vh = (x.transpose(0, 2, 1, 3) for x in (q, k, v))
    s = np.einsum("bhqd,bhkd->bhqk", qh, kh) * scale
    m = s.max(axis=-1, keepdims=True)
    e = np.exp(s - m)
    l = e.sum(axis=-1, keepdims=True)
    p = e / l
    o_ref = np.einsum("bhqk,bhkd->bhqd", p, vh)
    pv_abs = np.einsum("bhqk,bhkd->bhqd", p, np.abs(vh))
    lse_ref = (m + np.log(l))[..., 0]
    tol = 2.0 ** -8 * np.abs(o_ref) + (2.0 ** -8 + 2.0 ** -12) * pv_abs
    ok = compare("O", o, o_ref, tol, ("b", "h", "q", "d"), o_bits == 0xFFFF)
    ok = compare("LSE", lse, lse_ref, 1e-4 * (1 + np.abs(lse_ref)), ("b", "h", "q"),
                 lse_bits == 0xFFFFFFFF) and ok
    return ok


# ------------------------------------------------------ block-scaled GEMM

#: The block-scaled formats: scale vector, K elements per 128-byte k-block,
#: kernel shared memory, scale-factor atoms per k-block.
BS = {"mxfp8": dict(vec=32, block_k=128, smem={1: 168960, 2: 136192}),
      "nvfp4": dict(vec=16, block_k=256, smem={1: 181248, 2: 148480})}


def decode_minifloat(codes, ebits, mbits, bias):
    """Codes of a sign + ebits + mbits float without inf/NaN handling (the
    generators avoid them) -> float64."""
    c = codes.astype(np.int64)
    sign = np.where((c >> (ebits + mbits)) & 1, -1.0, 1.0)
    e = (c >> mbits) & ((1 << ebits) - 1)
    m = c & ((1 << mbits) - 1)
    mant = np.where(e == 0, m / 2.0 ** mbits, 1.0 + m / 2.0 ** mbits)
    exp = np.where(e == 0, 1 - bias, e - bias)
    return sign * mant * np.exp2(exp.astype(np.float64))


FMT = {"e4m3": (4, 3, 7), "e5m2": (5, 2, 15), "e2m1": (2, 1, 1)}


def rand_codes(rng, fmt, shape):
    """Random codes of `fmt`: e4m3 / e5m2 with exponents 2^-3 .. 2^4 and a
    random sign and mantissa; e2m1 all 16 codes."""
    ebits, mbits, bias = FMT[fmt]
    if fmt == "e2m1":
        return rng.integers(0, 16, shape).astype(np.uint8)
    e = rng.integers(bias - 3, bias + 5, shape)
    m = rng.integers(0, 1 << mbits, shape)
    sgn = rng.integers(0, 2, shape)
    return ((sgn << (ebits + mbits)) | (e << mbits) | m).astype(np.uint8)


def sf_global(codes, rows_pad, kc, pad_code, naive=False):
    """Scale-factor codes (rows x factors) in the kernels' global layout:
    512-byte atoms of 128 rows x 4 factors, row r0 + 32 r1's factors at
    16 r0 + 4 r1 + s, the atoms K-first: atom (row group g, chunk c) at
    (g kc + c) 512. Padding rows and factors hold `pad_code`. `naive`
    (a seeded bug): row r's factors at 4 (r mod 128) instead."""
    rows, nf = codes.shape
    out = np.zeros((rows_pad // 128, kc, 32, 4, 4), np.uint8)
    full = np.full((rows_pad, kc * 4), pad_code, np.uint8)
    full[:rows, :nf] = codes
    r = np.arange(rows_pad)
    f = np.arange(kc * 4)
    g, r1, r0 = r // 128, (r % 128) // 32, r % 32
    c, sidx = f // 4, f % 4
    if naive:
        r0, r1 = (r % 128) // 4, r % 4
    out[g[:, None], c[None, :], r0[:, None], r1[:, None], sidx[None, :]] = full
    return out


def block_scaled(args, kind):
    M, N, K = args.M, args.N, args.K
    cfg = BS[kind]
    vec, block_k = cfg["vec"], cfg["block_k"]
    afmt = args.a_fmt or ("e4m3" if kind == "mxfp8" else "e2m1")
    bfmt = args.b_fmt or afmt
    rng = np.random.default_rng(args.seed)
    a_codes = rand_codes(rng, afmt, (M, K))
    b_codes = rand_codes(rng, bfmt, (N, K))
    a = decode_minifloat(a_codes, *FMT[afmt])
    b = decode_minifloat(b_codes, *FMT[bfmt])
    nf = (K + vec - 1) // vec
    if kind == "mxfp8":
        # ue8m0: 2^(c - 127), c in 123 .. 131.
        sfa_c = rng.integers(123, 132, (M, nf)).astype(np.uint8)
        sfb_c = rng.integers(123, 132, (N, nf)).astype(np.uint8)
        dec_sf = lambda c: np.exp2(c.astype(np.float64) - 127)
        pad_sf = 127   # 1.0
        g = 1.0
    else:
        # ue4m3 (e4m3 without sign): exponents 2^-2 .. 2^2, any mantissa.
        mk = lambda shape: ((rng.integers(5, 10, shape) << 3) | rng.integers(0, 8, shape)
                            ).astype(np.uint8)
        sfa_c, sfb_c = mk((M, nf)), mk((N, nf))
        dec_sf = lambda c: decode_minifloat(c, 4, 3, 7)
        pad_sf = 0x38  # 1.0
        g = float(np.float32(args.global_scale))
    sfa = np.repeat(dec_sf(sfa_c), vec, axis=1)[:, :K]
    sfb = np.repeat(dec_sf(sfb_c), vec, axis=1)[:, :K]
    d = args.out
    P = PAD
    # Global A, B: rows of K bytes (FP4 packed, the even k in the low
    # nibble), padded by PAD bytes of a code that would show if read (e4m3 /
    # e5m2 NaN 0x7f; e2m1 has none: 6.0 pairs).
    pad_code = 0x77 if afmt == "e2m1" else 0x7F

    def packed(codes, fmt):
        if fmt == "e2m1":
            return (codes[:, 0::2] | (codes[:, 1::2] << 4)).astype(np.uint8)
        return codes

    def nan_pad(x):
        return np.concatenate([x, np.full((x.shape[0], P), pad_code, np.uint8)], 1)

    a_bytes = packed(a_codes, afmt)
    b_bytes = packed(b_codes, bfmt)
    kb = a_bytes.shape[1]
    write(os.path.join(d, "a.bin"), nan_pad(a_bytes))
    write(os.path.join(d, "b.bin"), nan_pad(b_bytes))
    kc = (nf + 3) // 4
    mt, nt = (M + 127) // 128, (N + 127) // 128
    write(os.path.join(d, "sfa.bin"), sf_global(sfa_c, mt * 128, kc, pad_sf, args.naive_sf))
    write(os.path.join(d, "sfb.bin"), sf_global(sfb_c, nt * 128, kc, pad_sf, args.naive_sf))
    write(os.path.join(d, "c_init.bin"), np.full((M + 1) * (N + P), 0xFFFF, np.uint16))
    # One CTA per 128 x 128 tile (--cta-group 2: a pair per 256 x 128 tile,
    # each CTA loading half of B's rows; --cluster 4: two pairs per 512 x
    # 128 cluster tile, each CTA loading a quarter of B's rows and of SFB's
    # for both pairs); with --resident-clusters N only N clusters run at
    # once and cluster launch control hands them the tiles of the others.
    cg = args.cta_group
    cl = max(args.cluster, cg)
    if cl == 4 and cg != 2:
        print("SIM FAILED: --cluster 4 needs --cta-group 2")
        return False
    grid = cl * ((M + 128 * cl - 1) // (128 * cl)) * nt
    sf_rows = 4 * (block_k // vec // 4)
    sfb_rows = sf_rows // 4 if cl == 4 else sf_rows
    sim_args = ["--grid=%d" % grid, "--block=224", "--smem=%d" % cfg["smem"][cg],
                "--buffer=A=@" + os.path.join(d, "a.bin"),
                "--buffer=B=@" + os.path.join(d, "b.bin"),
                "--buffer=SFA=@" + os.path.join(d, "sfa.bin"),
                "--buffer=SFB=@" + os.path.join(d, "sfb.bin"),
                "--buffer=C=@" + os.path.join(d, "c_init.bin"),
                "--arg=tmap:u8:dims=%dx%d:box=128x128:strides=%d:swizzle=128:data=A"
                % (kb, M, kb + P),
                "--arg=tmap:u8:dims=%dx%d:box=128x%d:strides=%d:swizzle=128:data=B"
                % (kb, N, 128 // cl, kb + P),
                "--arg=tmap:u8:dims=128x%dx%d:box=128x%dx1:data=SFA" % (4 * kc, mt, sf_rows),
                "--arg=tmap:u8:dims=128x%dx%d:box=128x%dx1:data=SFB" % (4 * kc, nt, sfb_rows),
                "--arg=tmap:bf16:dims=%dx%d:box=64x32:strides=%d:swizzle=128:data=C"
                % (N, M, 2 * (N + P)),
                "--arg=%d" % M, "--arg=%d" % N, "--arg=%d" % K]
    if kind == "nvfp4":
        kg = g if args.kernel_global_scale is None else args.kernel_global_scale
        sim_args.append("--arg=f32:%r" % float(np.float32(kg)))
    sim_args.append("--output=C=" + os.path.join(d, "c.bin"))
    if cl > 1:
        sim_args.append("--cluster=%d" % cl)
    if args.resident_clusters:
        sim_args.append("--resident-clusters=%d" % args.resident_clusters)
    if not run_sim(args, sim_args):
        return False
    c_all = np.fromfile(os.path.join(d, "c.bin"), dtype=np.uint16).reshape(M + 1, N + P)
    ok = True
    outside = np.concatenate([c_all[:M, N:].ravel(), c_all[M].ravel()])
    if not np.all(outside == 0xFFFF):
        print("MISMATCH: %d elements written outside C's M x N (row pad or guard row)"
              % int(np.sum(outside != 0xFFFF)))
        ok = False
    xa, xb = a * sfa, b * sfb
    ref = g * (xa @ xb.T)
    bound = np.abs(xa) @ np.abs(xb).T
    tol = 2.0 ** -8 * np.abs(ref) + 2.0 * K * 2.0 ** -24 * abs(g) * bound + 1e-30
    c_bits = c_all[:M, :N]
    return compare("C", bf16_to_f64(c_bits), ref, tol, ("m", "n"), c_bits == 0xFFFF) and ok


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--ptx", required=True)
    ap.add_argument("--out", required=True, help="directory for the data files")
    ap.add_argument("kind", choices=["gemm100", "gemm90", "att100", "att90", "mxfp8",
                                     "nvfp4"])
    ap.add_argument("--M", type=int, default=512)
    ap.add_argument("--N", type=int, default=256)
    ap.add_argument("--K", type=int, default=256)
    ap.add_argument("--grid", type=int, default=0, help="gemm90: persistent grid (min with tiles)")
    ap.add_argument("--group-m", type=int, default=8)
    ap.add_argument("--pingpong", action="store_true",
                    help="gemm90: the ping-pong variant (--bn 128 --stages 6 --epi-subtiles 2 "
                         "--pingpong)")
    ap.add_argument("--cluster", type=int, default=1, choices=(1, 2, 4),
                    help="gemm90: 2, the 2-CTA cluster variant (B multicast); mxfp8 / nvfp4: "
                         "4, two CTA pairs per cluster (B and SFB multicast, with "
                         "--cta-group 2)")
    ap.add_argument("--resident-clusters", type=int, default=0)
    ap.add_argument("--a-box", help="override A's tensor-map box (seeded bugs)")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--heads", type=int, default=1)
    ap.add_argument("--seqlen", type=int, default=128)
    ap.add_argument("--q-std", type=float, default=1.0,
                    help="standard deviation of Q (larger: peakier softmax, more rescaling)")
    ap.add_argument("--kernel-scale", type=float,
                    help="softmax scale handed to the kernel (seeded bugs); the reference keeps 1/sqrt(128)")
    ap.add_argument("--a-fmt", choices=("e4m3", "e5m2", "e2m1"),
                    help="mxfp8 / nvfp4: A's data format (default e4m3 / e2m1)")
    ap.add_argument("--b-fmt", choices=("e4m3", "e5m2", "e2m1"),
                    help="mxfp8 / nvfp4: B's data format (default A's)")
    ap.add_argument("--global-scale", type=float, default=0.375,
                    help="nvfp4: the global scale (rounded to f32)")
    ap.add_argument("--cta-group", type=int, default=1, choices=(1, 2),
                    help="mxfp8 / nvfp4: the kernel's cta_group (2: CTA pairs, clusters of 2)")
    ap.add_argument("--naive-sf", action="store_true",
                    help="mxfp8 / nvfp4: scale factors row after row in each atom instead "
                         "of the MMA's layout (seeded bug)")
    ap.add_argument("--kernel-global-scale", type=float,
                    help="nvfp4: the global scale handed to the kernel (seeded bugs); "
                         "the reference keeps --global-scale")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time", action="store_true",
                    help="print the simulator's wall time (sim-seconds: S)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    if args.kind in BS:
        ok = block_scaled(args, args.kind)
    elif args.kind.startswith("gemm"):
        ok = gemm(args, args.kind)
    else:
        ok = attention(args, args.kind)
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
