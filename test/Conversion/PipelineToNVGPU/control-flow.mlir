// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// Stage handles carried through scf.for and scf.if carry their lowered
// values (stage index, barriers, state); the state stays the allocas of the
// pipeline.create.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @carried_handle
  gpu.func @carried_handle(%n: index, %c: i1) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[PP:.*]] = memref.alloca() : memref<i1>
    // CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.alloca() : memref<i1>
    // CHECK:      %[[G:.*]] = nvgpu.mbarrier.create
    %p = pipeline.create -> !P
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[I0:.*]] = arith.index_castui
    // CHECK:      %[[LOOP:.*]]:6 = scf.for %{{.*}} iter_args(%[[S:.*]] = %[[I0]], %{{.*}} = %[[G]], %{{.*}} = %[[PS]], %{{.*}} = %[[PP]], %{{.*}} = %[[CS]], %{{.*}} = %[[CP]]) -> (index, !nvgpu.mbarrier.group<{{.*}}>, memref<i32>, memref<i1>, memref<i32>, memref<i1>)
    // CHECK:        arith.addi %[[S]]
    // CHECK:        nvgpu.mbarrier.arrive
    // CHECK:        scf.yield
    %s0 = pipeline.acquire_consumer %p : !P
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%s = %s0) -> !pipeline.stage<consumer, !P> {
      pipeline.release %s : !pipeline.stage<consumer, !P>
      %t = pipeline.acquire_consumer %p : !P
      scf.yield %t : !pipeline.stage<consumer, !P>
    }
    // CHECK:      %[[IF:.*]]:6 = scf.if %{{.*}} -> (index, !nvgpu.mbarrier.group<{{.*}}>, memref<i32>, memref<i1>, memref<i32>, memref<i1>)
    // CHECK:      arith.addi %[[IF]]#0
    // CHECK-NEXT: nvgpu.mbarrier.arrive %[[IF]]#1
    // CHECK-NEXT: memref.load %[[IF]]#4[]
    %h = scf.if %c -> !pipeline.stage<consumer, !P> {
      scf.yield %last : !pipeline.stage<consumer, !P>
    } else {
      scf.yield %last : !pipeline.stage<consumer, !P>
    }
    pipeline.release %h : !pipeline.stage<consumer, !P>
    gpu.return
  }
}

// -----

// A pipeline created inside a loop gets its state reset at each creation.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @create_in_loop
  gpu.func @create_in_loop(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK:      scf.for
    // CHECK-NEXT:   nvgpu.mbarrier.create
    // CHECK:        memref.store %{{.*}}, %[[PS]][]
    scf.for %i = %c0 to %n step %c1 {
      %p = pipeline.create -> !P
      pipeline.producer_step %p : !P
    }
    gpu.return
  }
}

// -----

// Handles through cf branch arguments and scf.while.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @branches_and_while
  gpu.func @branches_and_while(%c: i1) kernel {
    %p = pipeline.create -> !P
    %s0 = pipeline.acquire_consumer %p : !P
    // CHECK:      cf.cond_br %{{.*}}, ^bb1(%{{.*}} : index, !nvgpu.mbarrier.group<{{.*}}>, memref<i32>, memref<i1>, memref<i32>, memref<i1>), ^bb2(
    cf.cond_br %c, ^a(%s0 : !pipeline.stage<consumer, !P>), ^b(%s0 : !pipeline.stage<consumer, !P>)
  ^a(%x: !pipeline.stage<consumer, !P>):
    cf.br ^c(%x : !pipeline.stage<consumer, !P>)
  ^b(%y: !pipeline.stage<consumer, !P>):
    cf.br ^c(%y : !pipeline.stage<consumer, !P>)
  ^c(%z: !pipeline.stage<consumer, !P>):
    // CHECK:      scf.while (%{{.*}} = %{{.*}}, {{.*}}) : (index, !nvgpu.mbarrier.group<{{.*}}>, memref<i32>, memref<i1>, memref<i32>, memref<i1>)
    // CHECK:        nvgpu.mbarrier.arrive
    // CHECK:        nvgpu.mbarrier.try_wait.parity
    %r = scf.while (%h = %z) : (!pipeline.stage<consumer, !P>) -> !pipeline.stage<consumer, !P> {
      scf.condition(%c) %h : !pipeline.stage<consumer, !P>
    } do {
    ^bb0(%h2: !pipeline.stage<consumer, !P>):
      pipeline.release %h2 : !pipeline.stage<consumer, !P>
      %t = pipeline.acquire_consumer %p : !P
      scf.yield %t : !pipeline.stage<consumer, !P>
    }
    // CHECK:      nvgpu.mbarrier.arrive
    // CHECK:      gpu.return
    pipeline.release %r : !pipeline.stage<consumer, !P>
    gpu.return
  }
}
