// RUN: not pipeline-opt %s -pipeline-verify-linearity 2>&1 | FileCheck %s
// RUN: not pipeline-opt %s -pipeline-lower-to-nvvm=chip=sm_90a 2>&1 | FileCheck %s

// Scoped regions of one pipeline nested in each other: the first nested one
// waits on the stage its parent owns. That is one error however deep the
// nesting goes (the deeper regions repeat the same conflict), and no
// diagnostic prints the enclosing op: a region op printed with every error
// made the output grow with the cube of the depth.

// CHECK-NOT: error:
// CHECK: verify-linearity-nested-scoped.mlir:[[@LINE+36]]:7: error: acquires a producer stage inside a pipeline.produce region that already owns the producer stage of this pipeline: it waits on the same stage twice (hang)
// CHECK-NEXT: pipeline.produce %p as %s1
// CHECK: verify-linearity-nested-scoped.mlir:[[@LINE+33]]:5: note: region that owns the stage
// CHECK-NOT: error:
// CHECK-NOT: see current operation

// The same at depth 400 stays a few lines (it was 399 errors, each printing
// the op nested below it).
// RUN: awk 'BEGIN { print "func.func @deep(%%p: !pipeline.pipeline<stages = 2>) {"; \
// RUN:   for (i = 0; i < 400; i++) print "pipeline.produce %%p as %%s" i " : !pipeline.pipeline<stages = 2> {"; \
// RUN:   for (i = 0; i < 400; i++) print "}"; print "return"; print "}" }' > %t.deep.mlir
// RUN: not pipeline-opt %t.deep.mlir -pipeline-verify-linearity 2> %t.deep.err
// RUN: FileCheck %s --check-prefix=DEEP < %t.deep.err
// RUN: test $(wc -c < %t.deep.err) -lt 2000
// DEEP-COUNT-1: error: acquires a producer stage inside a pipeline.produce region
// DEEP-NOT: error: acquires

// Deeper than 512 regions the checker refuses the function with one error
// rather than recurse that deep (a sanitizer build overflowed the stack).
// (Text nested deeper than 1024 does not reach it: the tools refuse it
// before parsing, test/Tools/pipeline-opt/deep-nesting.test.)
// RUN: awk 'BEGIN { print "func.func @deeper(%%p: !pipeline.pipeline<stages = 2>) {"; \
// RUN:   for (i = 0; i < 1000; i++) print "pipeline.produce %%p as %%s" i " : !pipeline.pipeline<stages = 2> {"; \
// RUN:   for (i = 0; i < 1000; i++) print "}"; print "return"; print "}" }' > %t.deeper.mlir
// RUN: not pipeline-opt %t.deeper.mlir -pipeline-verify-linearity 2> %t.deeper.err
// RUN: FileCheck %s --check-prefix=DEEPER < %t.deeper.err
// RUN: test $(wc -c < %t.deeper.err) -lt 2000
// DEEPER: deeper.mlir:514:1: error: regions nested more than 512 deep: the stage linearity check does not analyze a function this deep
// DEEPER-NOT: error:

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @nested() kernel {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.produce %p as %s0 : !P {
      pipeline.produce %p as %s1 : !P {
        pipeline.produce %p as %s2 : !P {
          pipeline.produce %p as %s3 : !P {
            pipeline.produce %p as %s4 : !P {
              pipeline.produce %p as %s5 : !P {
                pipeline.arrive %s5 : !pipeline.stage<producer, !P>
              }
              pipeline.arrive %s4 : !pipeline.stage<producer, !P>
            }
            pipeline.arrive %s3 : !pipeline.stage<producer, !P>
          }
          pipeline.arrive %s2 : !pipeline.stage<producer, !P>
        }
        pipeline.arrive %s1 : !pipeline.stage<producer, !P>
      }
      pipeline.arrive %s0 : !pipeline.stage<producer, !P>
    }
    gpu.return
  }
}
