// REQUIRES: ptxas
// The sm_100a twin of the attention kernel (examples/attention_sm100.mlir,
// head_dim 128: S, P and O in tensor memory; docs/attention.md) compiled
// for sm_100a: what the hardware must see. (Not executed on hardware here:
// assembled by ptxas, and run by pipeline-sim in test/Sim/examples.test.)
//
// RUN: pipeline-opt %examples/attention_sm100.mlir -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: pipeline-compile %examples/attention_sm100.mlir --chip=sm_100a --cuda-path=%cuda_path -o %t
// RUN: test -s %t.cubin
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=MMA --input-file=%t.ptx
// RUN: FileCheck %s --check-prefix=PV --input-file=%t.ptx

// CHECK:      .entry attention_fwd_sm100(
// CHECK:      .reqntid 192, 1, 1

// Barriers. Q (1 stage) at 0, K and V (2 stages) at 64 and 128: full 1 (the
// TMA thread's expect_tx), empty 1 (the MMA warp's tcgen05.commit).
// CHECK:      mov.b32 [[Q:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0], [[Q]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+8], [[Q]];
// CHECK:      mov.b32 [[K:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+64], [[K]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+72], [[K]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+80], [[K]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+88], [[K]];
// CHECK:      mov.b32 [[V:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+128], [[V]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+136], [[V]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+144], [[V]];
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+152], [[V]];
// s (MMA -> softmax): full 1 (a commit), empty 128 (every softmax thread).
// CHECK:      mov.b32 [[S_FULL:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+192], [[S_FULL]];
// CHECK-NEXT: mov.b32 [[S_EMPTY:%r[0-9]+]], 128;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+200], [[S_EMPTY]];
// p (softmax -> MMA): full 128, empty 1 (a commit).
// CHECK:      mov.b32 [[P_FULL:%r[0-9]+]], 128;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+224], [[P_FULL]];
// CHECK-NEXT: mov.b32 [[P_EMPTY:%r[0-9]+]], 1;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+232], [[P_EMPTY]];
// The TMEM deallocation barrier: the 128 softmax threads release it.
// CHECK:      mov.b32 [[T:%r[0-9]+]], 128;
// CHECK-NEXT: mbarrier.init.shared.b64 [__dynamic_shmem__0+256], [[T]];
// CHECK:      tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [__dynamic_shmem__0+264], {{%r[0-9]+}};

// The producer arms Q, then K and V, with a stage's bytes: 128 rows x 128
// columns bf16 = 32768, two 64-column boxes.
// CHECK:      mov.b32 [[QB:%r[0-9]+]], 32768;
// CHECK-NEXT: mbarrier.arrive.expect_tx.shared.b64 {{%rd[0-9]+}}, [__dynamic_shmem__0], [[QB]];
// CHECK-COUNT-2: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes {{.*}}, [__dynamic_shmem__0];

// The MMA warp, first key block: S = Q K^T (M 128, N 128, bf16 -> f32, A
// and B K-major: instruction descriptor 136316048), 8 MMAs of K 16; then
// one commit to s.full (S is in TMEM) and one to K's empty barrier of stage
// 0 (the MMAs read K).
// CHECK:      mov.b32 [[IS:%r[0-9]+]], 136316048;
// CHECK-COUNT-8: tcgen05.mma.cta_group::1.kind::f16{{.*}} [{{%r[0-9]+}}], {{%rd[0-9]+}}, {{%rd[0-9]+}}, [[IS]],
// CHECK:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [__dynamic_shmem__0+192];
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [__dynamic_shmem__0+80];
// In the loop: the next S, then P V of the previous block: A is P in TMEM
// ([tmem] operand), B is V MN-major (descriptor 136381584 = 136316048 with
// bit 16, transpose B); commits to V's empty barrier and to p.empty.
// CHECK:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [__dynamic_shmem__0+192];
// CHECK:      mov.b32 [[IPV:%r[0-9]+]], 136381584;
// CHECK-COUNT-8: tcgen05.mma.cta_group::1.kind::f16{{.*}} [{{%r[0-9]+}}], [{{%r[0-9]+}}], {{%rd[0-9]+}}, [[IPV]],
// CHECK:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [{{%rd[0-9]+}}+144];
// CHECK:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [__dynamic_shmem__0+232];
// The last P V, then Q is freed (a commit to Q's empty barrier), and after
// the readers released it, the TMEM is freed.
// CHECK:      tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [__dynamic_shmem__0+232];
// CHECK-NEXT: tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [__dynamic_shmem__0+8];
// CHECK:      tcgen05.dealloc.cta_group::1.sync.aligned.b32

// 8 S MMAs in the first block and per loop iteration; 8 P V MMAs per loop
// iteration and in the last block.
// MMA-COUNT-32: tcgen05.mma.cta_group::1
// MMA-NOT:      tcgen05.mma.cta_group::1

// P V reads P from TMEM columns 128 .. 191 of the allocation (a TMEM
// address is lane << 16 | column; one K = 16 step of bf16 is 256 bits of a
// lane, 8 columns: 128, 136, .., 184) and accumulates into O at column 256.
// PV:      ld.shared.b32 [[TB:%r[0-9]+]], [__dynamic_shmem__0+264];
// PV:      add.s32 [[P0:%r[0-9]+]], [[TB]], 128;
// PV-NEXT: add.s32 [[O:%r[0-9]+]], [[TB]], 256;
// PV:      add.s32 [[P1:%r[0-9]+]], [[TB]], 136;
// PV-NEXT: add.s32 [[P2:%r[0-9]+]], [[TB]], 144;
// PV-NEXT: add.s32 [[P3:%r[0-9]+]], [[TB]], 152;
// PV-NEXT: add.s32 [[P4:%r[0-9]+]], [[TB]], 160;
// PV-NEXT: add.s32 [[P5:%r[0-9]+]], [[TB]], 168;
// PV-NEXT: add.s32 [[P6:%r[0-9]+]], [[TB]], 176;
// PV-NEXT: add.s32 [[P7:%r[0-9]+]], [[TB]], 184;
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P0]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P1]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P2]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P3]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P4]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P5]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P6]]{{\]}},
// PV:      tcgen05.mma.cta_group::1.kind::f16{{.*}} {{\[}}[[O]]{{\]}}, {{\[}}[[P7]]{{\]}},

// NOLOCAL-NOT: .local
