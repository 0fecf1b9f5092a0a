// RUN: pipeline-opt %s -pipeline-verify-linearity -split-input-file -verify-diagnostics
// RUN: not pipeline-opt %s -split-input-file -pipeline-lower-to-nvvm=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=LOWER

// A block without predecessors is never executed, so the dataflow of the
// checker does not visit it and the lowering leaves it unconverted. A stage
// handle or a pipeline op there is rejected by the checker instead of
// failing the lowering with an internal "unresolved materialization".

// LOWER-NOT: unresolved materialization
// LOWER: error: stage handle used in an unreachable block (^bb1 has no path from the entry block)
// LOWER: error: stage handle used in an unreachable block (^bb2 has no path from the entry block)
// LOWER: error: pipeline op in an unreachable block (^bb1 has no path from the entry block)
// LOWER-NOT: unresolved materialization

!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
gpu.module @m {
  gpu.func @release_in_unreachable_block() kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %s = pipeline.acquire_consumer %p : !P
    pipeline.release %s : !CS
    gpu.return
  ^bb1:
    // expected-error @+1 {{stage handle used in an unreachable block (^bb1 has no path from the entry block): remove the block or branch to it}}
    pipeline.release %s : !CS
    gpu.return
  }
}

// -----

// Unreachable blocks that branch to each other: one error per block, the
// handle arriving as a block argument included.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
gpu.module @m {
  gpu.func @unreachable_cycle() kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    gpu.return
  ^bb1:
    // expected-error @+1 {{stage handle used in an unreachable block (^bb1 has no path from the entry block)}}
    %s = pipeline.acquire_consumer %p : !P
    cf.br ^bb2(%s : !CS)
  // expected-error @+1 {{stage handle used in an unreachable block (^bb2 has no path from the entry block)}}
  ^bb2(%t: !CS):
    cf.br ^bb1
  }
}

// -----

// No stage handle, but an op on the pipeline.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @step_in_unreachable_block() kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    gpu.return
  ^bb1:
    // expected-error @+1 {{pipeline op in an unreachable block (^bb1 has no path from the entry block)}}
    pipeline.producer_step %p : !P
    gpu.return
  }
}

// -----

// Unreachable blocks without pipeline ops are left alone.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
gpu.module @m {
  gpu.func @other_unreachable_block() kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    %s = pipeline.acquire_consumer %p : !P
    pipeline.release %s : !CS
    gpu.return
  ^bb1:
    %c0 = arith.constant 0 : index
    gpu.return
  }
}
