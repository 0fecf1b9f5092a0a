// REQUIRES: ptxas
// The Blackwell bf16 GEMM (examples/gemm_sm100.mlir: CTA pair, 2-CTA MMA,
// persistent, TMA in and out) verifies, compiles for sm_100a, and its PTX
// holds what the hardware must see for the protocol of CUTLASS's sm100
// pipelines: PipelineTmaUmmaAsync for the input tiles (TMA -> MMA) and
// PipelineUmmaAsync for the accumulators (MMA -> epilogue), in their 2SM
// form. Assembled by ptxas only: there is no Blackwell GPU here.
//
// RUN: pipeline-opt %examples/gemm_sm100.mlir -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: pipeline-compile %examples/gemm_sm100.mlir --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: test -s %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=INIT
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=TMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=MMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=EPI
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=REL
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=NEG
//
// Census of the signals. Exactly twelve mbarrier.arrive instructions (the
// leader's expect_tx on an input full barrier, the epilogue's remote arrive
// on an accumulator empty barrier, its two TMEM releases on the peer's and
// its own deallocation barrier, the scheduler's per-CTA expect_tx of the
// cluster launch control response, and the five readers' arrivals on rank
// 0's response empty barrier: TMA lane, MMA warp, epilogue, the peer's
// warp 1, the scheduler; and the throttle's two: rank 0's TMA lane on its
// full barrier at each tile it starts, the scheduler warp's consume exit
// on its empty barrier) and two tcgen05.commits (the MMA's
// release of an input stage, its commit of an accumulator stage), whose
// forms the checks below pin down: nothing else arrives on any barrier, so
// in particular no thread arrival reaches the input stages' empty barriers
// (the MMA's commit frees them, as PipelineTmaUmmaAsync::consumer_release).
// Exactly 3 TMA instructions: the loads of A and B and the store of C.
// RUN: grep -c 'mbarrier\.arrive' %t.ptx | FileCheck %s --check-prefix=TWELVE-ARRIVALS
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CLC
// RUN: grep -c 'tcgen05\.commit' %t.ptx | FileCheck %s --check-prefix=TWO-ARRIVALS
// RUN: grep -c 'cp\.async\.bulk\.tensor' %t.ptx | FileCheck %s --check-prefix=THREE-BULK
// TWO-ARRIVALS: {{^}}2{{$}}
// TWELVE-ARRIVALS: {{^}}12{{$}}
//
// The scheduler (CUTLASS PipelineCLCFetchAsync): its full barriers (+144,
// +152) count 1, its empty barriers (+160, +168) 676 = the scheduler warp
// (32) + 4 CTAs x (TMA lane 1 + warp 1 32 + epilogue 128); each request
// arms 16 bytes on every CTA's full barrier and multicasts the answer.
// The throttle (CUTLASS CLCThrottlePipeline) after the answers: full
// barriers (+208, +216) count 1 (rank 0's TMA lane), empty (+224, +232) 32
// (the scheduler warp), initialized for the CTA only (it stays in rank 0).
// CLC-LABEL: .entry gemm_bf16_cta2(
// CLC:       mbarrier.init.shared.b64 [__dynamic_shmem__0+144], [[ONE:%r[0-9]+]];
// CLC-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+152], [[ONE]];
// CLC-NEXT:  mov.b32 [[READERS:%r[0-9]+]], 676;
// CLC-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+160], [[READERS]];
// CLC-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+168], [[READERS]];
// CLC:       mbarrier.init.shared.b64 [__dynamic_shmem__0+208], [[THR_ONE:%r[0-9]+]];
// CLC-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+216], [[THR_ONE]];
// CLC-NEXT:  mov.b32 [[SCHED:%r[0-9]+]], 32;
// CLC-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+224], [[SCHED]];
// CLC-NEXT:  mbarrier.init.shared.b64 [__dynamic_shmem__0+232], [[SCHED]];
// CLC-NEXT:  fence.mbarrier_init.release.cluster;
// CLC-NOT:   barrier.cluster
// CLC:       bar.sync 0;
// CLC:       mov.u32 [[NCTA:%r[0-9]+]], %cluster_nctarank;
// CLC:       mbarrier.arrive.expect_tx.shared::cluster.b64 _, [{{%rd[0-9]+}}], {{%r[0-9]+}};
// CLC:       clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128
// THREE-BULK: {{^}}3{{$}}
//
// Shared memory (one dynamic buffer): input full barriers of stages 0..5 at
// +0..+40, empty at +48..+88 (empty(s) = full(s) + 6 * 8); accumulator full
// at +96, +104, empty at +112, +120; the TMEM address at +128; A stages at
// +1024 and B stages at +99328, 16 KiB each (128 x 64 bf16); C staging at
// +197632. Each prefix scans from the kernel's .entry, so the order in which
// LLVM lays out the roles' blocks matters only within a role;
// `{{[[:space:]]+}}` joins two consecutive lines into one pattern.

// Nothing of cta_group::1 (ptxas rejects a mix), no local memory, and C is
// written only by the TMA (which clips at the tensor's bounds): no plain
// global load or store at all.
// NEG-LABEL: .entry gemm_bf16_cta2(
// NEG-NOT:   {{cta_group::1|\.local|st\.global|ld\.global}}

//===----------------------------------------------------------------------===//
// Init, TMEM, teardown
//===----------------------------------------------------------------------===//

// Counts (CUTLASS init_barriers with a 4x1 cluster and a 2SM MMA atom):
// input full 1 (producer_arv_cnt = 1: the leader's arrive.expect_tx), input
// empty 2 (multicast_consumer_arrival_count = 4/2 + 1/1 - 1: the multicast
// commits of both pairs' leaders, since B is multicast between the pairs),
// accumulator full 1 (one commit), accumulator empty 2 x 128
// (consumer_arv_count = size(AtomThrShapeMNK) * NumEpilogueThreads). The
// inits (and the CLC pipeline's) share one cluster barrier after the last
// init: the CTAs signal each other's barriers.
// INIT-LABEL: .entry gemm_bf16_cta2(
// INIT:      .reqntid 224, 1, 1
// INIT:      .explicitcluster
// INIT-NEXT: .reqnctapercluster 4, 1, 1
// INIT:      mov.b32 [[ONE:%r[0-9]+]], 1;
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0], [[ONE]];
// INIT-COUNT-5: mbarrier.init.shared.b64 [__dynamic_shmem__0+{{8|16|24|32|40}}], [[ONE]];
// INIT-NEXT: mov.b32 [[TWO:%r[0-9]+]], 2;
// INIT-COUNT-6: mbarrier.init.shared.b64 [__dynamic_shmem__0+{{48|56|64|72|80|88}}], [[TWO]];
// INIT-NEXT: fence.mbarrier_init.release.cluster;
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+96], [[ONE]];
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+104], [[ONE]];
// INIT-NEXT: mov.b32 [[EPILOGUE_THREADS_X2:%r[0-9]+]], 256;
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+112], [[EPILOGUE_THREADS_X2]];
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+120], [[EPILOGUE_THREADS_X2]];
// INIT-NEXT: fence.mbarrier_init.release.cluster;
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+144], [[ONE]];
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+152], [[ONE]];
// INIT-NEXT: mov.b32 [[READERS:%r[0-9]+]], 676;
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+160], [[READERS]];
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+168], [[READERS]];
// INIT-NEXT: fence.mbarrier_init.release.cluster;
// One cluster barrier for the three pipelines' inits (in program order: the
// inits, then one relaxed arrive, then the wait before the first use).
// INIT-NOT:  mbarrier
// INIT:      barrier.cluster.arrive.relaxed;
// INIT-NEXT: barrier.cluster.wait;
// INIT-NOT:  barrier.cluster.arrive.relaxed
// The TMEM (pipeline.tmem_alloc, the reference's TmemAllocation): thread 0
// inits the deallocation barrier (+128) for the 128 epilogue threads of
// each CTA of the pair (every one releases on both CTAs' barriers); warp 1
// of each CTA allocates 2 stages x 256 fp32 columns with cta_group::2 into
// the address word (+136) and relinquishes the permit; a fenced cluster
// barrier (the peer's releases reach this CTA's barrier); every thread
// loads the address.
// INIT:      mov.b32 [[DEALLOC_COUNT:%r[0-9]+]], 256;
// INIT-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+128], [[DEALLOC_COUNT]];
// INIT-NEXT: fence.mbarrier_init.release.cluster;
// INIT:      mov.b32 [[COLS:%r[0-9]+]], 512;
// INIT-NEXT: tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [__dynamic_shmem__0+136], [[COLS]];
// INIT-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// INIT:      tcgen05.fence::before_thread_sync;
// INIT-NEXT: barrier.cluster.arrive;
// INIT-NEXT: barrier.cluster.wait;
// INIT-NEXT: tcgen05.fence::after_thread_sync;
// INIT-NEXT: ld.shared.b32 [[TMEM:%r[0-9]+]], [__dynamic_shmem__0+136];
// Exit (pipeline.tmem_dealloc, warp 1 of each CTA): the first phase of the
// deallocation barrier (both CTAs' epilogues released), fence, free. No
// cluster barrier: the drains and this wait keep each CTA alive while the
// peer still signals it.
// INIT:      mbarrier.try_wait.parity.shared.b64 {{%p[0-9]+}}, [__dynamic_shmem__0+128], {{%r[0-9]+}};
// INIT:      tcgen05.fence::after_thread_sync;
// INIT:      mov.b32 [[DCOLS:%r[0-9]+]], 512;
// INIT-NEXT: tcgen05.dealloc.cta_group::2.sync.aligned.b32 [[TMEM]], [[DCOLS]];
// INIT-NOT:  barrier.cluster

//===----------------------------------------------------------------------===//
// TMA producer (one lane in each CTA): PipelineTmaUmmaAsync producer side
//===----------------------------------------------------------------------===//

// Wait on THIS CTA's empty barrier of the stage (full + 48) with the
// producer phase; arm the stage's full barrier only in the leader (even
// rank), for both CTAs' bytes: 2 CTAs x (128 x 64 + 128 x 64) x 2 B =
// 65536; the loads go into this CTA's tiles of the same stage (16 KiB per
// stage) and complete on the LEADER's full barrier of the stage (mapa of
// this CTA's barrier to rank & -2; LLVM knows rank < 4 from
// .reqnctapercluster and may write rank & 2), with .cta_group::2. A at
// this CTA's rows of the cluster tile: m_blk x 512 + pair q (rank >> 1) x
// 256 + (rank & 1) x 128. B: this CTA's 128 rows n_blk x 256 + (rank & 1)
// x 128, of which it loads the half q (+ q x 64) into rows q x 64 of its B
// stage (+ q x 8192 bytes), multicast with mask 0b0101 << (rank & 1): to
// itself and to the CTA at its place in the other pair, whose leader's full
// barrier the copy completes (CUTLASS's 2SM B multicast along M). After the
// loop, drain_producer: 6 more waits on this CTA's empty barriers.
// TMA-LABEL: .entry gemm_bf16_cta2(
// TMA:      mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// TMA-DAG:  and.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
// TMA-DAG:  shr.u32 [[Q:%r[0-9]+]], [[RANK]], 1;
// TMA-DAG:  shl.b32 [[HALF:%r[0-9]+]], [[ODD]], 7;
// TMA-DAG:  shl.b32 [[PAIR_ROWS:%r[0-9]+]], [[Q]], 8;
// TMA-DAG:  ld.param.b64 [[DESC_A:%rd[0-9]+]], [gemm_bf16_cta2_param_0];
// TMA-DAG:  ld.param.b64 [[DESC_B:%rd[0-9]+]], [gemm_bf16_cta2_param_1];
// TMA-DAG:  mov.b16 [[FIVE:%rs[0-9]+]], 5;
// TMA-DAG:  shl.b32 [[B_FIRST:%r[0-9]+]], [[Q]], 6;
// TMA-DAG:  shl.b16 [[B_MASK:%rs[0-9]+]], [[FIVE]], [[ODD]];
// TMA-DAG:  and.b32 [[LEADER:%r[0-9]+]], [[RANK]], {{2|-2}};
// TMA-DAG:  mul.wide.u32 {{%rd[0-9]+}}, [[Q]], 8192;
// TMA-DAG:  or.b32 [[A_IN:%r[0-9]+]], [[PAIR_ROWS]], [[HALF]];
// TMA-DAG:  or.b32 [[B_IN:%r[0-9]+]], [[B_FIRST]], [[HALF]];
// TMA:      shl.b32 [[M_CLUSTER:%r[0-9]+]], {{%r[0-9]+}}, 9;
// TMA-NEXT: shl.b32 [[N_TILE:%r[0-9]+]], {{%r[0-9]+}}, 8;
// TMA-NEXT: or.b32 [[A_ROW:%r[0-9]+]], [[M_CLUSTER]], [[A_IN]];
// TMA-NEXT: or.b32 [[B_ROW:%r[0-9]+]], [[N_TILE]], [[B_IN]];
// TMA:      setp.eq.b32 [[IS_LEADER:%p[0-9]+]], [[ODD]], 0;
// TMA:      mul.wide.u32 {{%rd[0-9]+}}, [[STAGE:%r[0-9]+]], 8;
// TMA:      cvt.u32.u64 [[FULL32:%r[0-9]+]], [[FULL:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[EMPTY:%r[0-9]+]], [[FULL32]], 48;
// TMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// TMA:      mov.b32 [[BYTES:%r[0-9]+]], 65536;
// TMA:      @[[IS_LEADER]] mbarrier.arrive.expect_tx.shared.b64 _, [[[FULL32]]], [[BYTES]];
// (pipeline.tma_load: each load maps the stage's full barrier to the
// leader itself; LLVM keeps one mapa for both.)
// TMA:      mapa.shared::cluster.u64 [[LEADER_FULL:%rd[0-9]+]], [[FULL]], [[LEADER]];
// TMA:      mul.wide.u32 {{%rd[0-9]+}}, [[STAGE]], 16384;
// TMA-NOT:  mbarrier
// TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [[[DESC_A]], {[[K0:%r[0-9]+]], [[A_ROW]]}], [[[LEADER_FULL]]];
// TMA-NOT:  mbarrier
// TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.cta_group::2 [%rd{{[0-9]+}}], [[[DESC_B]], {[[K0]], [[B_ROW]]}], [[[LEADER_FULL]]], [[B_MASK]];
// TMA-COUNT-6: cvt.u32.u64 [[DRAIN32:%r[0-9]+]], %rd{{[0-9]+}};{{[[:space:]]+}}add.s32 {{%r[0-9]+}}, [[DRAIN32]], 48;

//===----------------------------------------------------------------------===//
// MMA warp, leader CTA only: input consumer, accumulator producer
//===----------------------------------------------------------------------===//

// The MMA code sits behind one branch on (warp != 1) | (rank & 1 != 0):
// every tcgen05.mma lies between that branch and its target, and none
// before or after. The commits (CUTLASS umma_arrive_multicast_2x1SM) are
// tcgen05.commit.cta_group::2 multicast:
//  - release_mma: on the empty barrier (full + 48) of the input stage whose
//    full barrier the warp waited on, after the stage's 4 MMAs, with no
//    thread arrival in between, to the row-and-column cross of the 4x1
//    cluster: every CTA, mask 15 (both pairs' producers wrote the stage:
//    B is multicast between them; CUTLASS PipelineTmaUmmaAsync's
//    block_id_mask_ = calculate_multicast_mask<kRowCol>);
//  - commit_mma: on the accumulator stage's full barrier (+96), the stage
//    whose empty barrier (+112, the leader's: where both epilogues arrive)
//    the warp waited on, to the pair only: mask 0b11 << leader rank (in
//    this branch rank & 1 == 0, so LLVM drops the `& ~1`).
// MMAs: kind::f16 with instruction descriptor D fp32 (1 << 4), A bf16
// (1 << 7), B bf16 (1 << 10), K-major A and B, N = 256 (32 << 17), M = 256
// (16 << 24): 272630928. Shared-memory descriptors: 128-byte swizzle
// (2 << 61), version 1 (1 << 46), 8-row groups 1024 B apart (64 << 32),
// LBO 1 (1 << 16) = 4611756662049538048, the start address + 2 (32 bytes =
// one K of 16 bf16) per MMA; A and B of the stage waited on (16 KiB per
// stage); D at the TMEM columns of the accumulator stage (256 per stage).
// After the last tile: drain_producer of the accumulator pipeline, 2 waits
// on its empty barriers.
// MMA-LABEL: .entry gemm_bf16_cta2(
// MMA-NOT:   tcgen05.mma
// MMA:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// MMA-NOT:   tcgen05.mma
// MMA:       and.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
// MMA-NOT:   tcgen05.mma
// MMA:       ld.shared.b32 [[TMEM:%r[0-9]+]], [__dynamic_shmem__0+136];
// MMA-NOT:   tcgen05.mma
// MMA:       setp.ne.b64 [[NOT_WARP1:%p[0-9]+]], %rd{{[0-9]+}}, 1;
// MMA-NOT:   tcgen05.mma
// MMA:       setp.ne.b32 [[NOT_LEADER:%p[0-9]+]], [[ODD]], 0;
// MMA-NEXT:  or.pred [[NOT_MMA:%p[0-9]+]], [[NOT_LEADER]], [[NOT_WARP1]];
// MMA-NEXT:  @[[NOT_MMA]] bra [[NOT_MMA_BB:\$L__BB[0-9_]+]];
// MMA-NEXT:  elect.sync %r{{[0-9]+}}|%p{{[0-9]+}}, -1;
// MMA:       mov.b16 [[C3:%rs[0-9]+]], 3;
// MMA-NEXT:  shl.b16 [[PAIR_MASK:%rs[0-9]+]], [[C3]], [[RANK]];
// MMA:       mul.wide.u32 {{%rd[0-9]+}}, [[ACC_STAGE:%r[0-9]+]], 8;
// MMA:       cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[ACC_EMPTY:%r[0-9]+]], [[ACC32]], 112;
// MMA:       mbarrier.try_wait.parity.shared.b64 P1, [[[ACC_EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// MMA:       tcgen05.fence::after_thread_sync;
// MMA:       shl.b32 [[ACC_COL:%r[0-9]+]], {{%r[0-9]+}}, 8;
// MMA-NEXT:  add.s32 [[D:%r[0-9]+]], [[ACC_COL]], [[TMEM]];
// MMA:       mul.wide.u32 {{%rd[0-9]+}}, [[IN_STAGE:%r[0-9]+]], 8;
// MMA:       cvt.u32.u64 [[IN32:%r[0-9]+]], [[IN_FULL:%rd[0-9]+]];
// MMA:       mbarrier.try_wait.parity.shared.b64 P1, [[[IN32]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// MMA-NOT:   {{mbarrier\.arrive|tcgen05\.mma}}
// MMA:       shl.b32 {{%r[0-9]+}}, [[IN_STAGE]], 14;
// MMA:       or.b64 [[A_DESC:%rd[0-9]+]], [[A16:%rd[0-9]+]], 4611756662049538048;
// MMA:       or.b64 [[B_DESC:%rd[0-9]+]], [[B16:%rd[0-9]+]], 4611756662049538048;
// MMA:       mov.b32 [[IDESC:%r[0-9]+]], 272630928;
// MMA-NEXT:  tcgen05.mma.cta_group::2.kind::f16{{(\.collector::a::discard)?}} [[[D]]], [[A_DESC]], [[B_DESC]], [[IDESC]], %p{{[0-9]+}};
// MMA:       or.b64 [[A_DESC1:%rd[0-9]+]], [[A16]], 4611756662049538050;
// MMA-NEXT:  or.b64 [[B_DESC1:%rd[0-9]+]], [[B16]], 4611756662049538050;
// MMA:       tcgen05.mma.cta_group::2.kind::f16{{(\.collector::a::discard)?}} [[[D]]], [[A_DESC1]], [[B_DESC1]], [[IDESC]], %p{{[0-9]+}};
// MMA:       or.b64 [[A_DESC2:%rd[0-9]+]], [[A16]], 4611756662049538052;
// MMA-NEXT:  or.b64 [[B_DESC2:%rd[0-9]+]], [[B16]], 4611756662049538052;
// MMA-NEXT:  tcgen05.mma.cta_group::2.kind::f16{{(\.collector::a::discard)?}} [[[D]]], [[A_DESC2]], [[B_DESC2]], [[IDESC]], %p{{[0-9]+}};
// MMA:       or.b64 [[A_DESC3:%rd[0-9]+]], [[A16]], 4611756662049538054;
// MMA-NEXT:  or.b64 [[B_DESC3:%rd[0-9]+]], [[B16]], 4611756662049538054;
// MMA-NEXT:  tcgen05.mma.cta_group::2.kind::f16{{(\.collector::a::discard)?}} [[[D]]], [[A_DESC3]], [[B_DESC3]], [[IDESC]], %p{{[0-9]+}};
// MMA-NOT:   {{mbarrier\.arrive|tcgen05\.mma}}
// MMA:       mov.b16 [[CROSS:%rs[0-9]+]], 15;
// MMA-NEXT:  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [[[IN_FULL]]+48], [[CROSS]];
// MMA-NOT:   {{mbarrier\.arrive|tcgen05\.mma}}
// MMA:       add.s64 [[ACC_FULL:%rd[0-9]+]], [[ACC]], 96;
// MMA-NEXT:  tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [[[ACC_FULL]]], [[PAIR_MASK]];
// MMA-NOT:   tcgen05.mma
// MMA:       {{^}}[[NOT_MMA_BB]]:
// MMA-NOT:   tcgen05.mma
// MMA-COUNT-2: cvt.u32.u64 [[DRAIN32:%r[0-9]+]], %rd{{[0-9]+}};{{[[:space:]]+}}add.s32 {{%r[0-9]+}}, [[DRAIN32]], 112;
// MMA-NOT:   tcgen05.mma

//===----------------------------------------------------------------------===//
// Epilogue (4 warps in each CTA): accumulator consumer, TMA store of C
//===----------------------------------------------------------------------===//

// Wait on THIS CTA's accumulator full barrier (+96) and order the TMEM
// loads after it; warp w reads TMEM lanes 32 (w mod 4) .. + 31 (lane field
// (w mod 4) << 21); per 64-column sub-tile: the TMA store that last read
// the staging buffer is done (wait_group.read 1, then the warp syncs),
// tcgen05.ld 32x32b.x32 with its wait, 16 cvt.rn.bf16x2.f32, 4 x 16-byte
// shared stores at chunk j ^ (row mod 8) (the C descriptor's 128-byte
// swizzle); then the generic-proxy writes are fenced for the async proxy
// before the TMA store reads them (fence.proxy.async, warp sync, one
// lane's store of the box and its commit), with no shared store in
// between. Before the exit, the stores have read the staging buffers.
// EPI-LABEL: .entry gemm_bf16_cta2(
// EPI:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// EPI:       ld.param.b64 [[DESC_C:%rd[0-9]+]], [gemm_bf16_cta2_param_2];
// EPI:       and.b64 [[QUARTER64:%rd[0-9]+]], %rd{{[0-9]+}}, 3;
// EPI-DAG:   and.b64 [[ROW8:%rd[0-9]+]], %rd{{[0-9]+}}, 7;
// EPI-DAG:   cvt.u32.u64 [[QUARTER:%r[0-9]+]], [[QUARTER64]];
// EPI-DAG:   shl.b32 {{%r[0-9]+}}, [[QUARTER]], 21;
// EPI:       cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[ACC_FULL:%r[0-9]+]], [[ACC32]], 96;
// EPI:       mbarrier.try_wait.parity.shared.b64 P1, [[[ACC_FULL]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// EPI:       tcgen05.fence::after_thread_sync;
// EPI:       cp.async.bulk.wait_group.read 1;
// EPI:       bar.warp.sync -1;
// EPI:       tcgen05.ld.sync.aligned.32x32b.x32.b32
// EPI:       tcgen05.wait::ld.sync.aligned;
// EPI-COUNT-16: cvt.rn.bf16x2.f32
// EPI-COUNT-4: xor.b64 {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[ROW8]];
// EPI-COUNT-4: st.shared.v4.b32
// EPI-NOT:   {{st\.shared|cp\.async\.bulk\.tensor}}
// EPI:       fence.proxy.async.shared::cta;
// EPI-NEXT:  bar.warp.sync -1;
// EPI-NOT:   st.shared
// EPI:       cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [[[DESC_C]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// EPI-NEXT:  cp.async.bulk.commit_group;
// EPI:       cp.async.bulk.wait_group.read 0;
// Then each epilogue thread releases the TMEM (pipeline.tmem_release): on
// the peer's deallocation barrier (rank ^ 1), then on its own.
// EPI:       tcgen05.fence::before_thread_sync;
// EPI:       xor.b32 [[PEER:%r[0-9]+]], [[RANK]], 1;
// EPI:       add.s64 [[DEALLOC_BAR:%rd[0-9]+]], {{%rd[0-9]+}}, 128;
// EPI-NEXT:  mapa.shared::cluster.u64 [[PEER_BAR:%rd[0-9]+]], [[DEALLOC_BAR]], [[PEER]];
// EPI:       mbarrier.arrive.shared::cluster.b64 _, [[[PEER_BAR]]], {{%r[0-9]+}};
// EPI-NEXT:  mbarrier.arrive.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0+128];

// The epilogue's release (CUTLASS PipelineUmmaAsync::consumer_release_2x1SM,
// umma_arrive_2x1SM_sm0): order the TMEM loads before it, then one arrive
// per thread on the LEADER CTA's empty barrier (+112) of the stage whose
// full barrier (+96) it waited on: mapa to rank & -2 (rank & 2: LLVM
// knows rank < 4 from .reqnctapercluster), arrive.release.cluster. (LLVM
// places this block before the wait, hence CHECK-DAG.)
// REL-LABEL: .entry gemm_bf16_cta2(
// REL:       mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// (The TMA producer computes rank & -2 too; the epilogue's is the last.)
// REL:       and.b32 {{%r[0-9]+}}, [[RANK]], {{2|-2}};
// REL:       and.b32 [[LEADER:%r[0-9]+]], [[RANK]], {{2|-2}};
// REL-DAG:   tcgen05.fence::before_thread_sync;{{[[:space:]]+}}add.s64 [[ACC_EMPTY:%rd[0-9]+]], [[ACC:%rd[0-9]+]], 112;{{[[:space:]]+}}mapa.shared::cluster.u64 [[REMOTE:%rd[0-9]+]], [[ACC_EMPTY]], [[LEADER]];
// REL-DAG:   mbarrier.arrive.shared::cluster.b64 _, [[[REMOTE]]], {{%r[0-9]+}};
// REL-DAG:   cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC]];{{[[:space:]]+}}add.s32 [[ACC_FULL:%r[0-9]+]], [[ACC32]], 96;
