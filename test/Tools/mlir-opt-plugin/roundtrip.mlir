// Upstream mlir-opt parses and prints pipeline programs once the plugin's
// dialect entry point registered the dialect; without it, it refuses them.
// UNSUPPORTED: sanitizer
// RUN: mlir-opt %s --load-dialect-plugin=%pipeline_plugin \
// RUN:   | mlir-opt --load-dialect-plugin=%pipeline_plugin | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%pipeline_plugin --mlir-print-op-generic \
// RUN:   | pipeline-opt | FileCheck %s
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// NOPLUGIN: error: `!"pipeline"<"pipeline<stages = 4>">` type created with unregistered dialect

!P = !pipeline.pipeline<stages = 4>
!PS = !pipeline.stage<producer, !P>
!CS = !pipeline.stage<consumer, !P>

// CHECK-LABEL: func.func @handoff
// CHECK:       %[[P:.*]] = pipeline.create -> !pipeline.pipeline<stages = 4>
// CHECK-NEXT:  pipeline.init_mbars %[[P]] producer 1 consumer 1 : !pipeline.pipeline<stages = 4>
// CHECK-NEXT:  %[[S:.*]] = pipeline.acquire_producer %[[P]] : !pipeline.pipeline<stages = 4>
// CHECK-NEXT:  pipeline.commit %[[S]] : !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
// CHECK-NEXT:  %[[C:.*]] = pipeline.acquire_consumer %[[P]] : !pipeline.pipeline<stages = 4>
// CHECK-NEXT:  %{{.*}} = pipeline.index %[[C]] : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
// CHECK-NEXT:  pipeline.release %[[C]] : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
func.func @handoff() -> index {
  %p = pipeline.create -> !P
  pipeline.init_mbars %p producer 1 consumer 1 : !P
  %s = pipeline.acquire_producer %p : !P
  pipeline.commit %s : !PS
  %c = pipeline.acquire_consumer %p : !P
  %i = pipeline.index %c : !CS
  pipeline.release %c : !CS
  return %i : index
}
