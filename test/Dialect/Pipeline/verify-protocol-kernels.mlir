// Every kernel of the project passes the protocol checks without a
// diagnostic (no false positive): the examples, the GPU test kernels and the
// benchmark kernel, each also through the linearity check first, as the
// lowering pipelines run them. test/Integration/GPU/hang.mlir is left out:
// its kernels are broken on purpose (it is compiled with
// --verify-protocol=false), and the checks must find what they can of it.
// RUN: find %examples %pipeline_src_root/test/Integration/GPU -maxdepth 1 -name '*.mlir' ! -name hang.mlir -print0 | xargs -0 -r -n1 pipeline-opt -split-input-file -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: test ! -f %pipeline_src_root/bench/vs-cuda/pipe_dialect.mlir || pipeline-opt %pipeline_src_root/bench/vs-cuda/pipe_dialect.mlir -split-input-file -pipeline-verify-linearity -pipeline-verify-protocol -o /dev/null
// RUN: test ! -f %pipeline_src_root/test/Integration/GPU/hang.mlir || (not pipeline-opt %pipeline_src_root/test/Integration/GPU/hang.mlir -pipeline-verify-protocol -o /dev/null 2>&1 | FileCheck %s --check-prefix=HANG)

// HANG-DAG: error: expects the TMA loads that complete on this stage's full barrier to deliver the 1024 bytes that expect_tx arms, got 2048: 2 loads of 1024 bytes (box 8x32xi32)
// HANG-DAG: error: expects the producer and the consumer of this pipeline to move the same number of items, got: the producer makes 3 items, the consumer takes 5: the consumer waits for the rest forever
// HANG-DAG: error: expects the producer of this pipeline to reach the kernel exit only after pipeline.drain_producer or a cluster barrier

// The GPU test kernels do not state their block size; their hosts
// (test/Integration/GPU/host/*.cpp) launch 64 threads, multi_warp 160.
// With that size given as known_block_size, the arrival counts of their
// barriers are checked too (they ran correctly on an H200): still no
// diagnostic, and hang.mlir's consumer arrive guarded by lane == 32 is
// found.
// RUN: for f in basic cluster explicit stress throttle tma_tile try_acquire; do sed 's/) kernel {$/) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {/' %pipeline_src_root/test/Integration/GPU/$f.mlir | pipeline-opt -pipeline-verify-protocol -o /dev/null || exit 1; done
// RUN: sed 's/) kernel {$/) kernel attributes {known_block_size = array<i32: 160, 1, 1>} {/' %pipeline_src_root/test/Integration/GPU/multi_warp.mlir | pipeline-opt -pipeline-verify-protocol -o /dev/null
// RUN: test ! -f %pipeline_src_root/test/Integration/GPU/hang.mlir || (sed 's/) kernel {$/) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {/' %pipeline_src_root/test/Integration/GPU/hang.mlir | not pipeline-opt -pipeline-verify-protocol -o /dev/null 2>&1 | FileCheck %s --check-prefix=HANG64)

// HANG64: error: expects 1 arrivals per phase on the empty barriers of this pipeline (init_mbars consumer 1), got 0: its signals run in no thread
