// pipeline-opt's errors name the op by its location, as pipeline-compile's
// do: no "see current operation" note with the op in generic form (for a
// region op, all the IR nested in it). -mlir-print-op-on-diagnostic, off by
// default here, still attaches it when given.
// RUN: not pipeline-opt %s -split-input-file -pipeline-verify-linearity -o /dev/null 2>&1 | FileCheck %s --check-prefix=LINEAR
// RUN: not pipeline-opt %s -split-input-file -pipeline-verify-protocol -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROTOCOL
// RUN: not pipeline-opt %s -split-input-file -pipeline-verify-protocol -mlir-print-op-on-diagnostic -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT

// LINEAR: print-op-on-diagnostic.mlir:[[@LINE+10]]:5: error: missing signal: nothing arrives on the full barrier of this producer stage before pipeline.release
// LINEAR-NOT: see current operation
// LINEAR-NOT: "pipeline.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @leak() kernel attributes {nvvm.reqntid = array<i32: 32, 1, 1>} {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 32 consumer 32 : !P
    %s = pipeline.acquire_producer %p : !P
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

// PROTOCOL: print-op-on-diagnostic.mlir:[[@LINE+12]]:5: error: expects 1 arrivals per phase on the full barriers of this pipeline (init_mbars producer 1), got 32
// PROTOCOL-NOT: see current operation
// PROTOCOL-NOT: "pipeline.
// PRINT: print-op-on-diagnostic.mlir:[[@LINE+9]]:5: error: expects 1 arrivals per phase
// PRINT: note: see current operation: "pipeline.commit"

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @count() kernel attributes {nvvm.reqntid = array<i32: 32, 1, 1>} {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 32 : !P
    %s = pipeline.acquire_producer %p : !P
    pipeline.commit %s : !pipeline.stage<producer, !P>
    %c = pipeline.acquire_consumer %p : !P
    pipeline.release %c : !pipeline.stage<consumer, !P>
    gpu.return
  }
}
