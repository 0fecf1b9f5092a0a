// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// cta_group = 2: every consumer arrival on an `empty` barrier goes to the
// same barrier in the leader CTA of the pair (%cluster_ctarank & ~1):
// mapa to the shared::cluster address, then a release.cluster arrive.
// Producer arrivals stay local.

!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @consumer_arrivals
  gpu.func @consumer_arrivals() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_consumer %p : !P
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[IDX]], %[[C2]]
    // CHECK-NEXT: %[[A:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[E]]] {{.*}} -> i64
    // CHECK-NEXT: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<3>
    // CHECK-NEXT: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT: %[[MASK:.*]] = arith.constant -2 : i32
    // CHECK-NEXT: %[[LEADER:.*]] = arith.andi %[[RANK]], %[[MASK]] : i32
    // CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[PTR]], %[[LEADER]] : !llvm.ptr<3> -> !llvm.ptr<7>
    // CHECK-NEXT: nvvm.mbarrier.arrive %[[REMOTE]] {scope = #nvvm.mem_scope<cluster>} : !llvm.ptr<7>
    pipeline.arrive %s : !pipeline.stage<consumer, !P>
    // release / release_no_step / consume exit / consumer_signal_and_step
    // arrive the same way.
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive {{.*}}scope = #nvvm.mem_scope<cluster>
    pipeline.release_without_signal %s : !pipeline.stage<consumer, !P>
    %s2 = pipeline.acquire_consumer %p : !P
    pipeline.release %s2 : !pipeline.stage<consumer, !P>
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive {{.*}}scope = #nvvm.mem_scope<cluster>
    pipeline.consume %p as %t : !P {
    }
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive {{.*}}scope = #nvvm.mem_scope<cluster>
    pipeline.consumer_signal_and_step %p : !P
    %cons = pipeline.role %p : !P -> !pipeline.role<consumer, !P>
    %w = pipeline.wait %cons : !pipeline.role<consumer, !P>
    // CHECK:      nvvm.mapa
    // CHECK-NEXT: nvvm.mbarrier.arrive {{.*}}scope = #nvvm.mem_scope<cluster>
    pipeline.release_no_step %w : !pipeline.stage<consumer, !P>
    pipeline.step %w : !pipeline.stage<consumer, !P>
    // CHECK-NOT:  nvvm.mapa
    // CHECK:      nvgpu.mbarrier.arrive
    // CHECK-NOT:  nvvm.mapa
    // CHECK:      gpu.return
    %ps = pipeline.acquire_producer %p : !P
    pipeline.arrive %ps : !pipeline.stage<producer, !P>
    pipeline.release %ps : !pipeline.stage<producer, !P>
    gpu.return
  }
}
