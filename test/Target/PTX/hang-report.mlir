// REQUIRES: ptxas
// The hang report is zero cost when off: the PTX of the shipped example is
// byte-identical to the PTX of the compiler before the report existed
// (Inputs/warp_specialized.sm_90a.ptx; regenerate it only for a deliberate
// change of the lowering, and say why in the commit). Last regenerated for
// the kernel's recorded parameter layout (one `.visible .global .b8` array,
// __pipeline_mlir_abi_copy_through_pipeline); before that for
// the least block of the launch contract (one more `.visible .const` u64,
// the 64 threads the example's two warp roles need); before that for the
// launch contract's dynamic shared memory (one `.visible .const` u64, 576
// bytes); before that
// for pipeline-unroll-stages' rotate-wait (on by default): the example's loops
// are unrolled by two rounds of the ring and the first wait of each round
// pair moves to the end of the previous iteration; before that for its
// i32 loop counters, and when the pass came (the loops unrolled by the
// stage count, waits with the convergent try_wait loop). The hang report
// turns the unrolling off, so the checks below are unchanged.
// RUN: pipeline-compile %examples/warp_specialized.mlir --chip=sm_90a --cuda-path=%cuda_path -o %t.off
// RUN: diff %S/Inputs/warp_specialized.sm_90a.ptx %t.off.ptx
//
// With --hang-report=N every blocking wait keeps its fast path, the first
// iteration of the usual wait loop (try_wait with the 10 ms suspend hint,
// which returns as soon as the phase completes), and gets a slow path that
// polls with a 1 ms limit, reads %clock64, and after N cycles claims the
// record with a system-scope compare-and-swap, fills it, fences at system
// scope, marks it complete and traps (only the thread that wrote it, or any
// thread when the host gave no buffer). The module carries the buffer
// pointer and the site table (site|pipeline|location|role).
// RUN: pipeline-compile %examples/warp_specialized.mlir --chip=sm_90a --cuda-path=%cuda_path --hang-report=5000 -o %t.on
// RUN: FileCheck %s --input-file=%t.on.ptx
// RUN: test -s %t.on.cubin
// With --hang-keep-waiting there is no trap.
// RUN: pipeline-compile %examples/warp_specialized.mlir --chip=sm_90a --cuda-path=%cuda_path --hang-report=5000 --hang-keep-waiting -o %t.keep
// RUN: FileCheck %s --input-file=%t.keep.ptx --check-prefix=KEEP
// Bad values are diagnostics.
// RUN: not pipeline-compile %examples/warp_specialized.mlir --chip=sm_90a --hang-report=soon -o %t.bad 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not pipeline-compile %examples/warp_specialized.mlir --chip=sm_90a --hang-keep-waiting -o %t.bad 2>&1 | FileCheck %s --check-prefix=ALONE

// CHECK:     .visible .global .align 8 .u64 __pipeline_hang_buffer;
// CHECK:     .visible .global .align 1 .b8 __pipeline_hang_sites[
// The fast path: one try_wait with the suspend hint; done when it succeeds.
// CHECK:     mov.b32 [[HINT:%r[0-9]+]], 10000000;
// CHECK-NEXT: mbarrier.try_wait.parity.shared.b64 [[FAST:%p[0-9]+]], [{{%rd[0-9]+}}{{.*}}], [[PAR:%r[0-9]+]], [[HINT]];
// CHECK-NEXT: @[[FAST]] bra
// CHECK:     mov.u64 [[T0:%rd[0-9]+]], %clock64;
// The slow path: the same barrier and parity, 1000000 ns suspend limit.
// CHECK:     mov.b32 [[POLL:%r[0-9]+]], 1000000;
// CHECK:     mbarrier.try_wait.parity.shared.b64 {{%p[0-9]+}}, [{{%rd[0-9]+}}{{.*}}], [[PAR]], [[POLL]];
// CHECK:     mov.u64 {{%rd[0-9]+}}, %clock64;
// CHECK:     ld.volatile.global.b64 [[REC:%rd[0-9]+]], [__pipeline_hang_buffer];
// CHECK:     atom.acq_rel.sys.cas.b32 [[OLD:%r[0-9]+]], [[[REC]]], 0, 1;
// A thread that lost the claim waits on instead of trapping.
// CHECK-NEXT: setp.ne.b32 [[LOST:%p[0-9]+]], [[OLD]], 0;
// CHECK-NEXT: @[[LOST]] bra
// CHECK:     st.volatile.b32 [[[REC]]+44], 1346915911;
// CHECK-NEXT: membar.sys;
// CHECK-NEXT: st.volatile.b32 [[[REC]]], 2;
// CHECK:     trap;

// KEEP:      __pipeline_hang_buffer
// KEEP:      membar.sys;
// KEEP-NOT:  trap;

// BAD: pipeline-compile: error: expects --hang-report=<cycles> with a positive number of clock cycles, got 'soon'
// ALONE: pipeline-compile: error: expects hang-keep-waiting with the hang report (hang-report)
