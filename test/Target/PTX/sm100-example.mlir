// REQUIRES: ptxas
// The rolled lowering (--unroll-stages=false): the counts below are per
// loop body (unroll-stages.mlir checks the default, stage-unrolled form).
// RUN: pipeline-compile --unroll-stages=false %examples/sm100_matmul_pipelines.mlir --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: test -s %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA1
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA1-TMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA1-MMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA1-EPI
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA2
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA2-TMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA2-MMA
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=CTA2-EPI
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=NEG
// Signal census: each kernel holds exactly two mbarrier.arrive
// instructions (the TMA lane's expect_tx and the epilogue's release) and
// two tcgen05.commits (the MMA's release of an input stage and its commit
// of an accumulator stage), whose forms the checks below pin down: nothing
// else arrives on any barrier, in particular nothing but the commit on the
// input stages' empty barriers.
// RUN: sed -n '/^\.visible \.entry matmul_cta1(/,/^}/p' %t.ptx > %t.cta1.ptx
// RUN: sed -n '/^\.visible \.entry matmul_cta2(/,/^}/p' %t.ptx > %t.cta2.ptx
// RUN: grep -c 'mbarrier\.arrive' %t.cta1.ptx | FileCheck %s --check-prefix=TWO
// RUN: grep -c 'tcgen05\.commit' %t.cta1.ptx | FileCheck %s --check-prefix=TWO
// RUN: grep -c 'mbarrier\.arrive' %t.cta2.ptx | FileCheck %s --check-prefix=TWO
// RUN: grep -c 'tcgen05\.commit' %t.cta2.ptx | FileCheck %s --check-prefix=TWO
// TWO: {{^}}2{{$}}

// Nothing of the other cta_group in each kernel, no cluster traffic in the
// cta_group = 1 kernel, and no local memory (the role state stays in
// registers).
// NEG-LABEL: .entry matmul_cta1(
// NEG-NOT:   {{mapa|barrier\.cluster|multicast|cta_group::2|%cluster_ctarank|\.local}}
// NEG-LABEL: .entry matmul_cta2(
// NEG-NOT:   {{cta_group::1|\.local}}

// The canonical sm_100a structure (examples/sm100_matmul_pipelines.mlir)
// compiled for sm_100a: what the hardware must see, after CUTLASS
// sm100_pipeline.hpp (PipelineTmaUmmaAsync for the input tiles,
// PipelineUmmaAsync for the accumulators) and Mojo's SM100 pipelines.
//
// Shared memory of both kernels: input full barriers at +0..+24, input
// empty at +32..+56 (empty(s) = full(s) + 4 * 8), accumulator full at
// +64, +72, accumulator empty at +80, +88, the TMEM address at +96.
// Every check is made once per role, from the kernel's .entry on, so the
// order in which LLVM lays out the roles' blocks does not matter; a
// `{{[[:space:]]+}}` joins two consecutive lines into one pattern.

//===----------------------------------------------------------------------===//
// cta_group = 1
//===----------------------------------------------------------------------===//

// Init by one thread, then fence and a CTA barrier (no cluster). Input
// full: 1 (the TMA lane's expect_tx); input empty: 1 (one tcgen05.commit);
// accumulator full: 1 (one tcgen05.commit); accumulator empty: 128 (every
// epilogue thread).
// CTA1-LABEL: .entry matmul_cta1(
// CTA1:      .reqntid 192, 1, 1
// CTA1:      mov.b32 [[ONE:%r[0-9]+]], 1;
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+8], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+16], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+24], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+32], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+40], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+48], [[ONE]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+56], [[ONE]];
// CTA1-NEXT: fence.mbarrier_init.release.cluster;
// CTA1:      bar.sync 0;
// CTA1:      mov.b32 [[ACC_FULL_COUNT:%r[0-9]+]], 1;
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+64], [[ACC_FULL_COUNT]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+72], [[ACC_FULL_COUNT]];
// CTA1-NEXT: mov.b32 [[EPILOGUE_THREADS:%r[0-9]+]], 128;
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+80], [[EPILOGUE_THREADS]];
// CTA1-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+88], [[EPILOGUE_THREADS]];
// CTA1-NEXT: fence.mbarrier_init.release.cluster;
// CTA1:      bar.sync 0;
// TMEM: the MMA warp allocates 2 stages x 64 columns and hands the address
// over through shared memory.
// CTA1:      tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [__dynamic_shmem__0+96], {{%r[0-9]+}};
// CTA1-NEXT: tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
// CTA1:      tcgen05.fence::before_thread_sync;
// CTA1-NEXT: bar.sync 0;
// CTA1-NEXT: tcgen05.fence::after_thread_sync;
// CTA1-NEXT: ld.shared.b32 [[TMEM:%r[0-9]+]], [__dynamic_shmem__0+96];
// Teardown: every TMEM access done before the same warp frees the columns.
// CTA1:      tcgen05.fence::before_thread_sync;{{[[:space:]]+}}bar.sync 0;
// CTA1-NEXT: tcgen05.fence::after_thread_sync;
// CTA1:      tcgen05.dealloc.cta_group::1.sync.aligned.b32 [[TMEM]], {{%r[0-9]+}};

// TMA producer (one lane): wait on the stage's empty barrier (full + 32)
// with the producer phase, arm the stage's full barrier with one stage's
// bytes (2 x (128 x 64 + 64 x 64) x 2 B = 49152), issue the 4 loads that
// complete the transaction on that same full barrier. Its release only
// steps. After the loop, drain_producer: 4 more waits on empty barriers.
// CTA1-TMA-LABEL: .entry matmul_cta1(
// CTA1-TMA-DAG:  ld.param.b64 [[DESC_A:%rd[0-9]+]], [matmul_cta1_param_0];
// CTA1-TMA-DAG:  ld.param.b64 [[DESC_B:%rd[0-9]+]], [matmul_cta1_param_1];
// CTA1-TMA:      cvt.u32.u64 [[FULL32:%r[0-9]+]], [[FULL:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[EMPTY:%r[0-9]+]], [[FULL32]], 32;
// CTA1-TMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA1-TMA:      mov.b32 [[BYTES:%r[0-9]+]], 49152;
// CTA1-TMA-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [[[FULL]]], [[BYTES]];
// CTA1-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DESC_A]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// CTA1-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DESC_B]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// CTA1-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DESC_A]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// CTA1-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DESC_B]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// CTA1-TMA-COUNT-4: cvt.u32.u64 [[DRAIN32:%r[0-9]+]], %rd{{[0-9]+}};{{[[:space:]]+}}add.s32 {{%r[0-9]+}}, [[DRAIN32]], 32;
// CTA1-TMA-LABEL: .entry matmul_cta2(

// MMA warp: elect one lane; wait (whole warp) for the accumulator stage's
// empty barrier (accumulator full + 16), then per input stage for its full
// barrier; 8 tcgen05.mma.cta_group::1 (2 k-blocks x 4 K-steps of 16) into
// the stage's TMEM columns; release_mma is a tcgen05.commit on the input
// stage's EMPTY barrier (full + 32), without multicast, and no mbarrier
// arrive; commit_mma is a tcgen05.commit on the accumulator stage's full
// barrier. After the last tile the MMA warp drains the accumulator
// pipeline (2 waits on its empty barriers).
// CTA1-MMA-LABEL: .entry matmul_cta1(
// CTA1-MMA:      elect.sync %r{{[0-9]+}}|%p{{[0-9]+}}, -1;
// CTA1-MMA:      cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[ACC_EMPTY:%r[0-9]+]], [[ACC32]], 80;
// CTA1-MMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[ACC_EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA1-MMA:      tcgen05.fence::after_thread_sync;
// CTA1-MMA:      cvt.u32.u64 [[IN32:%r[0-9]+]], [[IN_FULL:%rd[0-9]+]];
// CTA1-MMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[IN32]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA1-MMA-NOT:  mbarrier.arrive
// CTA1-MMA:      mov.b32 [[IDESC:%r[0-9]+]], 135267472;
// CTA1-MMA:      tcgen05.mma.cta_group::1.kind::f16{{(\.collector::a::discard)?}} [[[D:%r[0-9]+]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], %p{{[0-9]+}};
// CTA1-MMA-COUNT-7: tcgen05.mma.cta_group::1.kind::f16{{(\.collector::a::discard)?}} [[[D]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], %p{{[0-9]+}};
// CTA1-MMA-NOT:  {{mbarrier\.arrive|tcgen05\.mma}}
// CTA1-MMA:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [[[IN_FULL]]+32];
// CTA1-MMA-NOT:  mbarrier.arrive
// CTA1-MMA:      add.s64 [[ACC_FULL:%rd[0-9]+]], [[ACC]], 64;
// CTA1-MMA-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [[[ACC_FULL]]];
// CTA1-MMA-COUNT-2: cvt.u32.u64 [[DRAIN32:%r[0-9]+]], %rd{{[0-9]+}};{{[[:space:]]+}}add.s32 {{%r[0-9]+}}, [[DRAIN32]], 80;
// CTA1-MMA-LABEL: .entry matmul_cta2(

// Epilogue (4 warps, every thread): wait on the accumulator stage's full
// barrier, order the TMEM loads after it, 2 x tcgen05.ld 32x32b.x32 (64
// columns of the thread's row) with their wait, stores, then order the
// loads before the release: one LOCAL mbarrier.arrive per thread on the
// stage's empty barrier (+80 from the same stage base).
// CTA1-EPI-LABEL: .entry matmul_cta1(
// CTA1-EPI:      cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[ACC_FULL:%r[0-9]+]], [[ACC32]], 64;
// CTA1-EPI:      mbarrier.try_wait.parity.shared.b64 P1, [[[ACC_FULL]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA1-EPI:      tcgen05.fence::after_thread_sync;
// CTA1-EPI:      tcgen05.ld.sync.aligned.32x32b.x32.b32
// CTA1-EPI-NEXT: tcgen05.wait::ld.sync.aligned;
// CTA1-EPI-NEXT: st.global.v4.b32
// CTA1-EPI:      tcgen05.ld.sync.aligned.32x32b.x32.b32
// CTA1-EPI-NEXT: tcgen05.wait::ld.sync.aligned;
// CTA1-EPI-NEXT: st.global.v4.b32
// CTA1-EPI-NOT:  {{tcgen05\.ld|mbarrier\.arrive}}
// CTA1-EPI:      tcgen05.fence::before_thread_sync;
// CTA1-EPI-NEXT: mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [[[ACC]]+80];
// CTA1-EPI-LABEL: .entry matmul_cta2(

//===----------------------------------------------------------------------===//
// cta_group = 2
//===----------------------------------------------------------------------===//

// The same counts, except the accumulator empty barrier: 128 epilogue
// threads x 2 CTAs arrive on the leader's. Both inits sync the cluster
// (the CTAs signal each other's barriers). The TMEM is allocated and freed
// by one warp of each CTA collectively (cta_group::2), 2 stages x 128
// columns; a cluster barrier keeps both CTAs alive until the other is done
// with their barriers, shared memory and TMEM.
// CTA2-LABEL: .entry matmul_cta2(
// CTA2:      .reqntid 192, 1, 1
// CTA2:      mov.b32 [[ONE:%r[0-9]+]], 1;
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+8], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+16], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+24], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+32], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+40], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+48], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+56], [[ONE]];
// CTA2-NEXT: fence.mbarrier_init.release.cluster;
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+64], [[ONE]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+72], [[ONE]];
// CTA2-NEXT: mov.b32 [[EPILOGUE_THREADS:%r[0-9]+]], 256;
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+80], [[EPILOGUE_THREADS]];
// CTA2-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+88], [[EPILOGUE_THREADS]];
// CTA2-NEXT: fence.mbarrier_init.release.cluster;
// Both pipelines' inits share one relaxed cluster arrive and one wait.
// CTA2-NOT:  mbarrier
// CTA2:      barrier.cluster.arrive.relaxed;
// CTA2-NOT:  mbarrier
// CTA2:      barrier.cluster.wait;
// CTA2-NOT:  barrier.cluster.arrive.relaxed
// CTA2:      tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [__dynamic_shmem__0+96], {{%r[0-9]+}};
// CTA2-NEXT: tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;
// CTA2:      tcgen05.fence::before_thread_sync;
// CTA2-NEXT: bar.sync 0;
// CTA2-NEXT: tcgen05.fence::after_thread_sync;
// CTA2-NEXT: ld.shared.b32 [[TMEM:%r[0-9]+]], [__dynamic_shmem__0+96];
// CTA2:      tcgen05.fence::before_thread_sync;{{[[:space:]]+}}barrier.cluster.arrive.aligned;
// CTA2-NEXT: barrier.cluster.wait.aligned;
// CTA2-NEXT: tcgen05.fence::after_thread_sync;
// CTA2:      tcgen05.dealloc.cta_group::2.sync.aligned.b32 [[TMEM]], {{%r[0-9]+}};

// TMA producer (one lane in EACH CTA): wait on this CTA's empty barrier;
// expect_tx only in the leader (predicated on even cluster rank) on its
// full barrier for both CTAs' bytes (2 x 49152); the loads carry
// .cta_group::2 and complete the transaction on the LEADER's full barrier
// of the same stage (mapa of this CTA's full barrier to rank & -2).
// CTA2-TMA-LABEL: .entry matmul_cta2(
// CTA2-TMA:      mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CTA2-TMA-DAG:  and.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
// CTA2-TMA-DAG:  and.b32 [[LEADER:%r[0-9]+]], [[RANK]], -2;
// CTA2-TMA-DAG:  ld.param.b64 [[DESC_A:%rd[0-9]+]], [matmul_cta2_param_0];
// CTA2-TMA-DAG:  ld.param.b64 [[DESC_B:%rd[0-9]+]], [matmul_cta2_param_1];
// CTA2-TMA-DAG:  setp.eq.b32 [[IS_LEADER:%p[0-9]+]], [[ODD]], 0;
// CTA2-TMA:      cvt.u32.u64 [[FULL32:%r[0-9]+]], [[FULL:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[EMPTY:%r[0-9]+]], [[FULL32]], 32;
// CTA2-TMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA2-TMA:      mov.b32 [[BYTES:%r[0-9]+]], 98304;
// CTA2-TMA:      @[[IS_LEADER]] mbarrier.arrive.expect_tx.shared.b64 _, [[[FULL32]]], [[BYTES]];
// CTA2-TMA:      mapa.shared::cluster.u64 [[LEADER_FULL:%rd[0-9]+]], [[FULL]], [[LEADER]];
// CTA2-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [[[DESC_A]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[LEADER_FULL]]];
// CTA2-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [[[DESC_B]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[LEADER_FULL]]];
// CTA2-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [[[DESC_A]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[LEADER_FULL]]];
// CTA2-TMA:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.cta_group::2 [%rd{{[0-9]+}}], [[[DESC_B]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[LEADER_FULL]]];
// CTA2-TMA-COUNT-4: cvt.u32.u64 [[DRAIN32:%r[0-9]+]], %rd{{[0-9]+}};{{[[:space:]]+}}add.s32 {{%r[0-9]+}}, [[DRAIN32]], 32;

// MMA warp, leader CTA only (a branch on rank & 1): the commits are
// tcgen05.commit.cta_group::2 multicast with the mask 0b11 << leader rank
// (both CTAs of the pair): release_mma to the input stage's empty barrier
// (full + 32), whose waiters are both CTAs' TMA producers; commit_mma to
// the accumulator stage's full barrier, whose waiters are both CTAs'
// epilogues. The MMA branch is only taken where rank & 1 == 0, so LLVM
// may drop the `& ~1` of the leader rank (65535: the truncation to 16
// bits alone).
// CTA2-MMA-LABEL: .entry matmul_cta2(
// CTA2-MMA:      mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CTA2-MMA:      and.b32 [[ODD:%r[0-9]+]], [[RANK]], 1;
// CTA2-MMA:      setp.{{eq|ne}}.b32 %p{{[0-9]+}}, [[ODD]], 0;
// CTA2-MMA:      elect.sync %r{{[0-9]+}}|%p{{[0-9]+}}, -1;
// CTA2-MMA:      and.b32 [[LEADER16:%r[0-9]+]], [[RANK]], {{65534|65535}};
// CTA2-MMA-NEXT: mov.b16 [[THREE:%rs[0-9]+]], 3;
// CTA2-MMA-NEXT: shl.b16 [[MASK:%rs[0-9]+]], [[THREE]], [[LEADER16]];
// CTA2-MMA:      cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[ACC_EMPTY:%r[0-9]+]], [[ACC32]], 80;
// CTA2-MMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[ACC_EMPTY]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA2-MMA:      tcgen05.fence::after_thread_sync;
// CTA2-MMA:      cvt.u32.u64 [[IN32:%r[0-9]+]], [[IN_FULL:%rd[0-9]+]];
// CTA2-MMA:      mbarrier.try_wait.parity.shared.b64 P1, [[[IN32]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA2-MMA-NOT:  mbarrier.arrive
// CTA2-MMA:      mov.b32 [[IDESC:%r[0-9]+]], 270533776;
// CTA2-MMA:      tcgen05.mma.cta_group::2.kind::f16{{(\.collector::a::discard)?}} [[[D:%r[0-9]+]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], %p{{[0-9]+}};
// CTA2-MMA-COUNT-7: tcgen05.mma.cta_group::2.kind::f16{{(\.collector::a::discard)?}} [[[D]]], %rd{{[0-9]+}}, %rd{{[0-9]+}}, [[IDESC]], %p{{[0-9]+}};
// CTA2-MMA-NOT:  {{mbarrier\.arrive|tcgen05\.mma}}
// CTA2-MMA:      tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [[[IN_FULL]]+32], [[MASK]];
// CTA2-MMA-NOT:  mbarrier.arrive
// CTA2-MMA:      add.s64 [[ACC_FULL:%rd[0-9]+]], [[ACC]], 64;
// CTA2-MMA-NEXT: tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::cluster.multicast::cluster.b64 [[[ACC_FULL]]], [[MASK]];
// CTA2-MMA-COUNT-2: cvt.u32.u64 [[DRAIN32:%r[0-9]+]], %rd{{[0-9]+}};{{[[:space:]]+}}add.s32 {{%r[0-9]+}}, [[DRAIN32]], 80;

// Epilogue (both CTAs): wait on this CTA's accumulator full barrier, read
// 128 columns (4 x tcgen05.ld 32x32b.x32), then release the stage with a
// remote arrive on the LEADER CTA's empty barrier of the same stage: mapa
// of (stage base + 80) to rank & -2, mbarrier.arrive.shared::cluster.
// CTA2-EPI-LABEL: .entry matmul_cta2(
// CTA2-EPI:      mov.u32 [[RANK:%r[0-9]+]], %cluster_ctarank;
// CTA2-EPI:      and.b32 [[LEADER:%r[0-9]+]], [[RANK]], -2;
// CTA2-EPI:      cvt.u32.u64 [[ACC32:%r[0-9]+]], [[ACC:%rd[0-9]+]];{{[[:space:]]+}}add.s32 [[ACC_FULL:%r[0-9]+]], [[ACC32]], 64;
// CTA2-EPI:      mbarrier.try_wait.parity.shared.b64 P1, [[[ACC_FULL]]], %r{{[0-9]+}}, %r{{[0-9]+}};
// CTA2-EPI:      tcgen05.fence::after_thread_sync;
// CTA2-EPI-COUNT-4: tcgen05.ld.sync.aligned.32x32b.x32.b32 {{.*}}{{[[:space:]]+}}tcgen05.wait::ld.sync.aligned;
// CTA2-EPI-NOT:  {{tcgen05\.ld|mbarrier\.arrive}}
// CTA2-EPI:      tcgen05.fence::before_thread_sync;
// CTA2-EPI-NEXT: add.s64 [[ACC_EMPTY:%rd[0-9]+]], [[ACC]], 80;
// CTA2-EPI-NEXT: mapa.shared::cluster.u64 [[REMOTE:%rd[0-9]+]], [[ACC_EMPTY]], [[LEADER]];
// CTA2-EPI:      mbarrier.arrive.shared::cluster.b64 _, [[[REMOTE]]], %r{{[0-9]+}};
