// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// commit_mma (sm_100a: tcgen05.commit); the chip checks are in invalid.mlir.

// commit_mma: tcgen05.commit to full(s, 0) in the thread elected by
// elect.sync, or by the given predicate. Does not step.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: gpu.func @commit_mma
  gpu.func @commit_mma(%e: i1) kernel {
    %p = pipeline.create -> !P
    %prod = pipeline.role %p : !P -> !pipeline.role<producer, !P>
    %s = pipeline.acquire %prod : !pipeline.role<producer, !P>
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK-NEXT: %[[IDX:.*]] = arith.index_castui
    // CHECK-NEXT: %[[ELECT:.*]] = nvvm.elect.sync -> i1
    // CHECK-NEXT: scf.if %[[ELECT]] {
    // CHECK-NEXT:   %[[A:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[IDX]]] {{.*}} -> i64
    // CHECK-NEXT:   %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<3>
    // CHECK-NEXT:   nvvm.tcgen05.commit %[[PTR]] : !llvm.ptr<3>
    // CHECK-NEXT: }
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    // CHECK-NEXT: scf.if %{{.*}} {
    // CHECK-NEXT:   nvgpu.mbarrier.get
    // CHECK-NEXT:   llvm.inttoptr
    // CHECK-NEXT:   nvvm.tcgen05.commit
    // CHECK-NEXT: }
    // CHECK-NEXT: memref.load
    pipeline.commit_mma %s elect(%e) : !pipeline.stage<producer, !P>
    pipeline.step %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

// commit_mma with cta_group = 2: tcgen05.commit.cta_group::2 multicast to
// both CTAs of the pair, mask 0b11 << leader rank.

!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  // CHECK-LABEL: gpu.func @commit_mma_pair
  gpu.func @commit_mma_pair() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_producer %p : !P
    // CHECK:      scf.if
    // CHECK:        %[[PTR:.*]] = llvm.inttoptr
    // CHECK-NEXT:   %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
    // CHECK-NEXT:   %[[M2:.*]] = arith.constant -2 : i32
    // CHECK-NEXT:   %[[LEADER:.*]] = arith.andi %[[RANK]], %[[M2]]
    // CHECK-NEXT:   %[[L16:.*]] = arith.trunci %[[LEADER]] : i32 to i16
    // CHECK-NEXT:   %[[THREE:.*]] = arith.constant 3 : i16
    // CHECK-NEXT:   %[[MASK:.*]] = arith.shli %[[THREE]], %[[L16]] : i16
    // CHECK-NEXT:   nvvm.tcgen05.commit %[[PTR]], multicast_mask = %[[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}
