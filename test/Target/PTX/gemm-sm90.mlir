// REQUIRES: ptxas
// The warp-specialized bf16 GEMM (examples/gemm_sm90.mlir, docs/gemm.md)
// compiled for sm_90a: what the hardware must see.
//
// RUN: pipeline-opt %examples/gemm_sm90.mlir -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// The instruction sequences below are those of the rolled lowering
// (--unroll-stages=false: one copy of each loop body); the default compile
// (the producer's k-loop unrolled by pipeline-unroll-stages) is checked for
// local memory and ptxas warnings too, at the end of the RUN lines.
// RUN: pipeline-compile --unroll-stages=false %examples/gemm_sm90.mlir --chip=sm_90a --cuda-path=%cuda_path -o %t
// RUN: test -s %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=PROD --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.ptx
// ptxas as pipeline-compile runs it, with -v: no stack frame, no spills, and
// none of the "wgmma.mma_async instructions are serialized" warnings
// (C7509..C7520; C7510 extern calls, C7511 registers, C7515 accumulator
// registers written inside the wgmma pipeline), no warning at all.
// RUN: %ptxas -arch=sm_90a -O3 -v %t.ptx -o %t.v.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: pipeline-compile %examples/gemm_sm90.mlir --chip=sm_90a --cuda-path=%cuda_path -o %t.unrolled
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.unrolled.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t.unrolled.ptx -o %t.unrolled.v.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// The entry: three TMA descriptors (pointers to CUtensorMaps), M, N, K,
// group_m; 384 threads, one CTA per SM.
// CHECK:      .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// CHECK:      .entry gemm_bf16_sm90(
// CHECK-NEXT:   .param .u64 .ptr .align 1 gemm_bf16_sm90_param_0,
// CHECK-NEXT:   .param .u64 .ptr .align 1 gemm_bf16_sm90_param_1,
// CHECK-NEXT:   .param .u64 .ptr .align 1 gemm_bf16_sm90_param_2,
// CHECK-NEXT:   .param .u32 gemm_bf16_sm90_param_3,
// CHECK-NEXT:   .param .u32 gemm_bf16_sm90_param_4,
// CHECK-NEXT:   .param .u32 gemm_bf16_sm90_param_5,
// CHECK-NEXT:   .param .u32 gemm_bf16_sm90_param_6
// CHECK:      .reqntid 384, 1, 1
// CHECK-NEXT: .minnctapersm 1

// 3 stages: 3 full barriers with count 1 (the producer's expect_tx), then 3
// empty barriers with count 2 (one thread of each consumer warpgroup).
// CHECK:      mov.b32 [[ONE:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0], [[ONE]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+8], [[ONE]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+16], [[ONE]];
// CHECK-NEXT: mov.b32 [[TWO:%r[0-9]+]], 2;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+24], [[TWO]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+32], [[TWO]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+40], [[TWO]];
// CHECK-NEXT: fence.mbarrier_init.release.cluster;
// CHECK:      bar.sync 0;

// Consumer warpgroups: registers up to 232.
// CHECK:      setmaxnreg.inc.sync.aligned.u32 232;
// First k-block of a tile: wait on the stage's full barrier, then 4 x
// wgmma m64n256k16 bf16 -> f32, the first with scale-d = 0 (the predicate
// is the constant 0), one commit group.
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1,
// CHECK:      wgmma.fence.sync.aligned;
// CHECK:      setp.ne.b32 p, 0, 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{{(%r[0-9]+, ){127}%r[0-9]+}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p, 1, 1, 0, 0;
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK:      wgmma.commit_group.sync.aligned;
// The release-lag loop body (the only wait_group 1 of the kernel): acquire
// stage k (full barrier), 4 wgmma accumulating (scale-d = 1), commit, wait
// until one group is in flight, then the elected thread frees stage k-1
// (arrive on its empty barrier), and branch to the latch.
// CHECK:      mbarrier.try_wait.parity.shared.b64 P1,
// CHECK:      wgmma.fence.sync.aligned;
// CHECK:      setp.ne.b32 p, 1, 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK:      wgmma.commit_group.sync.aligned;
// CHECK-NEXT: wgmma.wait_group.sync.aligned 1;
// CHECK-NOT:  wgmma
// CHECK:      mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}];
// CHECK-NOT:  wgmma
// CHECK:      bra.uni $L__BB0_{{[0-9]+}};
// CHECK-NOT:  wgmma.wait_group.sync.aligned 1;
// After the loop: wait for every group, free the last stage.
// CHECK:      wgmma.wait_group.sync.aligned 0;
// CHECK-NOT:  wgmma
// CHECK:      mbarrier.arrive.shared.b64 %rd{{[0-9]+}}, [%rd{{[0-9]+}}];
// Epilogue: the staging tile is free (bulk reads done), warpgroup barrier,
// f32 pairs to bf16x2, stmatrix, proxy fence, barrier, TMA store, commit.
// CHECK:      cp.async.bulk.wait_group.read 0;
// CHECK:      bar.sync [[WGBAR:%r[0-9]+]], 128;
// CHECK:      cvt.rn.bf16x2.f32
// CHECK:      stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-COUNT-15: stmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NEXT: fence.proxy.async.shared::cta;
// CHECK-NEXT: bar.sync [[WGBAR]], 128;
// CHECK-COUNT-4: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK-NEXT: cp.async.bulk.commit_group;
// Before the consumers exit: every TMA store complete.
// CHECK:      cp.async.bulk.wait_group 0;

// Producer warpgroup: registers down to 40; thread 0 prefetches the A and B
// descriptors, waits on the stage's empty barrier (empty = full + 24 bytes),
// arrives on the full barrier expecting A + B stage bytes, 128x64 + 256x64
// bf16 = 16384 + 32768 = 49152, and issues both TMA loads completing on that
// full barrier. It ends draining the 3 stages.
// PROD:      setmaxnreg.dec.sync.aligned.u32 40;
// PROD-DAG:  ld.param.b64 [[DA:%rd[0-9]+]], [gemm_bf16_sm90_param_0];
// PROD-DAG:  ld.param.b64 [[DB:%rd[0-9]+]], [gemm_bf16_sm90_param_1];
// PROD:      prefetch.tensormap [[[DA]]];
// PROD-NEXT: prefetch.tensormap [[[DB]]];
// PROD:      add.s32 [[EMPTY:%r[0-9]+]], %r{{[0-9]+}}, 24;
// PROD:      mbarrier.try_wait.parity.shared.b64 P1, [[[EMPTY]]],
// PROD:      mov.b32 [[BYTES:%r[0-9]+]], 49152;
// PROD-NEXT: mbarrier.arrive.expect_tx.shared.b64 %rd{{[0-9]+}}, [[[FULL:%rd[0-9]+]]], [[BYTES]];
// PROD:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DA]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// PROD:      cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [[[DB]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [[[FULL]]];
// PROD-COUNT-3: mbarrier.try_wait.parity.shared.b64 P1,
// PROD-NOT:  mbarrier.try_wait

// No local memory anywhere.
// NOLOCAL-NOT: .local
// NOLOCAL-NOT: ld.local
// NOLOCAL-NOT: st.local

// PTXAS-NOT:  warning
// PTXAS-NOT:  C75
// PTXAS:      Compiling entry function 'gemm_bf16_sm90' for 'sm_90a'
// PTXAS:      0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT:  warning
// PTXAS-NOT:  C75
