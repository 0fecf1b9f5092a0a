// REQUIRES: ptxas
// The warp-specialized attention (examples/attention_sm90.mlir: head_dim
// 128, 2 consumer warpgroups in ping-pong, docs/attention.md) compiled for
// sm_90a: what the hardware must see.
//
// RUN: pipeline-opt %examples/attention_sm90.mlir -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: pipeline-compile %examples/attention_sm90.mlir --chip=sm_90a --cuda-path=%cuda_path -o %t
// RUN: test -s %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=COUNTS --input-file=%t.ptx
// RUN: %ptxas -arch=sm_90a -O3 -v %t.ptx -o %t.v.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// 384 threads: the producer warpgroup and two consumer warpgroups.
// CHECK:      .entry attention_fwd_sm90(
// CHECK:      .reqntid 384, 1, 1

// Barriers: Q (1 stage) at 0, K (2 stages) at 64, V (2 stages) at 128, the
// turns at 192 and 224. Full barriers count 1 (the producer's expect_tx),
// empty barriers 2 (one thread per consumer warpgroup); the turns 128 (all
// threads of the warpgroup that hands the turn over, and of the one that
// takes it).
// CHECK:      mov.b32 [[Q_FULL:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0], [[Q_FULL]];
// CHECK:      mov.b32 [[Q_EMPTY:%r[0-9]+]], 2;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+8], [[Q_EMPTY]];
// CHECK:      mov.b32 [[K_FULL:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+64], [[K_FULL]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+72], [[K_FULL]];
// CHECK:      mov.b32 [[K_EMPTY:%r[0-9]+]], 2;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+80], [[K_EMPTY]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+88], [[K_EMPTY]];
// CHECK:      mov.b32 [[V_FULL:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+128], [[V_FULL]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+136], [[V_FULL]];
// CHECK:      mov.b32 [[V_EMPTY:%r[0-9]+]], 2;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+144], [[V_EMPTY]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+152], [[V_EMPTY]];
// The turns: a one-stage pipeline each way.
// CHECK:      mov.b32 [[AB:%r[0-9]+]], 128;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+192], [[AB]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+200], [[AB]];
// CHECK:      mov.b32 [[BA:%r[0-9]+]], 128;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+224], [[BA]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+232], [[BA]];

// The producer arms each stage with the bytes its TMA loads bring: Q, 128
// rows x 128 columns bf16 = 32768 B in two 64-column boxes; K and V alike.
// CHECK:      mov.b32 [[QB:%r[0-9]+]], 32768;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0], [[QB]];
// CHECK-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__dynamic_shmem__0];
// CHECK:      mov.b32 [[KB:%r[0-9]+]], 32768;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0+64], [[KB]];
// CHECK-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__dynamic_shmem__0+64];
// CHECK:      mov.b32 [[VB:%r[0-9]+]], 32768;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0+128], [[VB]];
// CHECK-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__dynamic_shmem__0+128];

// S = Q K^T: K-major A and B (no transpose); O += P V: V read MN-major
// (imm-trans-b 1), 64 x 128 outputs.
// CHECK:      wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 0;
// CHECK:      wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0, 1;

// Each consumer warpgroup: 8 S wgmma (k = 128 / 16) and 8 P V wgmma per key
// block, in the prologue, the loop and the epilogue of each of the two
// (ping-pong) copies: 8 + 16 + 8 per copy.
// COUNTS-COUNT-64: wgmma.mma_async
// COUNTS-NOT:      wgmma.mma_async

// NOLOCAL-NOT: .local
// PTXAS-NOT: warning
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
