// REQUIRES: ptxas
// The dialect kernels of the dialect-vs-CUDA benchmark (bench/vs-cuda,
// docs/benchmarks.md) compile with the benchmark's command, and their PTX
// keeps the properties the benchmark's SASS comparison relies on: one
// bar.sync per kernel (after the barrier init), the blocking wait with the
// suspend hint, no local memory.
// RUN: pipeline-compile %pipeline_src_root/bench/vs-cuda/pipe_dialect.mlir \
// RUN:   --chip=sm_90a --cuda-path=%cuda_path -o %t
// RUN: test -s %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL < %t.ptx

// NOLOCAL-NOT: .local
// NOLOCAL-NOT: __local_depot

// CHECK-LABEL: .entry pipe_s2(
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: mov.b32 {{%r[0-9]+}}, 10000000;
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK: mbarrier.arrive.shared.b64
// CHECK: st.global.b32
// CHECK-NOT: bar.sync

// CHECK-LABEL: .entry pipe_s4(
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: setp.eq.b32 {{%p[0-9]+}}, {{%r[0-9]+}}, 4;
// CHECK-NOT: bar.sync

// CHECK-LABEL: .entry pipe_s8(
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK: setp.eq.b32 {{%p[0-9]+}}, {{%r[0-9]+}}, 8;
// CHECK-NOT: bar.sync

// CHECK-LABEL: .entry pipe_nostore_s2(
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry pipe_nostore_s4(
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
// CHECK-LABEL: .entry pipe_nostore_s8(
// CHECK: bar.sync 0;
// CHECK-NOT: bar.sync
