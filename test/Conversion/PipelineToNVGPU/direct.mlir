// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// The direct API on a 4-stage pipeline: full[s] = s, empty[s] = 4 + s.
// A consumer waits on full with the consumer phase, a producer on empty
// with the producer phase; blocking waits are try_wait.parity loops with
// the 10 ms suspend-time hint.

!P = !pipeline.pipeline<stages = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @waits
  gpu.func @waits() kernel {
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[PP:.*]] = memref.alloca() : memref<i1>
    // CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.alloca() : memref<i1>
    // CHECK:      %[[G:.*]] = nvgpu.mbarrier.create
    %p = pipeline.create -> !P

    // wait_producer: full[consumer stage], consumer phase.
    // CHECK:      %[[S:.*]] = memref.load %[[CS]][]
    // CHECK-NEXT: %[[PH:.*]] = memref.load %[[CP]][]
    // CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[S]] : i32 to index
    // CHECK-NEXT: %[[T:.*]] = arith.constant 10000000 : index
    // CHECK-NEXT: nvgpu.mbarrier.try_wait.parity %[[G]][%[[I]]], %[[PH]], %[[T]]
    pipeline.wait_producer %p : !P

    // wait_consumer: empty[producer stage] = 4 + stage, producer phase.
    // CHECK:      %[[S2:.*]] = memref.load %[[PS]][]
    // CHECK-NEXT: %[[PH2:.*]] = memref.load %[[PP]][]
    // CHECK-NEXT: %[[I2:.*]] = arith.index_castui %[[S2]] : i32 to index
    // CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[I2]], %[[C4]] : index
    // CHECK:      nvgpu.mbarrier.try_wait.parity %[[G]][%[[E]]], %[[PH2]]
    pipeline.wait_consumer %p : !P
    gpu.return
  }
}

// -----

// Try forms: one try_wait.parity without suspend hint, on the barrier the
// role waits on; *_if_needed waits only when the try failed.

!P = !pipeline.pipeline<stages = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @tries
  gpu.func @tries(%out: memref<4xi1>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    // CHECK:      %[[CS:.*]] = memref.load %{{.*}}[] : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.load %{{.*}}[] : memref<i1>
    // CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[CS]]
    // CHECK-NEXT: %[[A:.*]] = nvgpu.mbarrier.get %{{.*}}[%[[I]]] {{.*}} -> i64
    // CHECK-NEXT: %[[PTR:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<3>
    // CHECK-NEXT: %[[PAR:.*]] = arith.extui %[[CP]] : i1 to i32
    // CHECK-NEXT: %[[R:.*]] = nvvm.mbarrier.try_wait %[[PTR]], %[[PAR]] : !llvm.ptr<3>, i32 -> i1
    %r = pipeline.try_wait_producer %p : !P
    // CHECK:      %[[TRUE:.*]] = arith.constant true
    // CHECK-NEXT: %[[NOT:.*]] = arith.xori %[[R]], %[[TRUE]]
    // CHECK-NEXT: scf.if %[[NOT]] {
    // CHECK-NEXT:   arith.constant 10000000
    // CHECK-NEXT:   nvgpu.mbarrier.try_wait.parity
    pipeline.wait_producer_if_needed %p, %r : !P
    // The producer forms use empty[producer stage].
    // CHECK:      arith.constant 4 : index
    // CHECK-NEXT: arith.addi
    // CHECK-NEXT: nvgpu.mbarrier.get
    // CHECK:      nvvm.mbarrier.try_wait
    %q = pipeline.try_wait_consumer %p : !P
    // CHECK:      nvvm.mbarrier.try_wait
    %a = pipeline.try_acquire_producer %p : !P
    // CHECK:      nvvm.mbarrier.try_wait
    %b = pipeline.try_acquire_consumer %p : !P
    // CHECK:      scf.if
    // CHECK:        arith.constant 4 : index
    // CHECK:        nvgpu.mbarrier.try_wait.parity
    pipeline.wait_consumer_if_needed %p, %q : !P
    memref.store %a, %out[%c0] : memref<4xi1>
    memref.store %b, %out[%c1] : memref<4xi1>
    gpu.return
  }
}

// -----

// Step: stage += 1; on stage == S: stage = 0 and phase ^= 1.

!P = !pipeline.pipeline<stages = 3>
gpu.module @m {
  // CHECK-LABEL: gpu.func @steps
  gpu.func @steps() kernel {
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[PP:.*]] = memref.alloca() : memref<i1>
    // CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.alloca() : memref<i1>
    %p = pipeline.create -> !P
    // CHECK:      %[[S:.*]] = memref.load %[[PS]][]
    // CHECK-NEXT: %[[PH:.*]] = memref.load %[[PP]][]
    // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[NEXT:.*]] = arith.addi %[[S]], %[[ONE]] : i32
    // CHECK-NEXT: %[[NS:.*]] = arith.constant 3 : i32
    // CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %[[NS]] : i32
    // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK-NEXT: %[[STAGE:.*]] = arith.select %[[WRAP]], %[[ZERO]], %[[NEXT]] : i32
    // CHECK-NEXT: %[[PHASE:.*]] = arith.xori %[[PH]], %[[WRAP]] : i1
    // CHECK-NEXT: memref.store %[[STAGE]], %[[PS]][]
    // CHECK-NEXT: memref.store %[[PHASE]], %[[PP]][]
    pipeline.producer_step %p : !P
    // CHECK:      memref.load %[[CS]][]
    // CHECK-NEXT: memref.load %[[CP]][]
    // CHECK:      memref.store %{{.*}}, %[[CS]][]
    // CHECK-NEXT: memref.store %{{.*}}, %[[CP]][]
    pipeline.consumer_step %p : !P
    gpu.return
  }
}

// -----

// One stage: every step wraps, so every step flips the phase.

!P = !pipeline.pipeline<stages = 1>
gpu.module @m {
  // CHECK-LABEL: gpu.func @one_stage_step
  gpu.func @one_stage_step() kernel {
    %p = pipeline.create -> !P
    // CHECK:      %[[NEXT:.*]] = arith.addi
    // CHECK-NEXT: %[[NS:.*]] = arith.constant 1 : i32
    // CHECK-NEXT: %[[WRAP:.*]] = arith.cmpi eq, %[[NEXT]], %[[NS]] : i32
    // CHECK:      arith.xori %{{.*}}, %[[WRAP]] : i1
    pipeline.consumer_step %p : !P
    gpu.return
  }
}

// -----

// signal_and_step: wait on the role's barrier, arrive on the other barrier
// of the same stage, step.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @signal_and_step
  gpu.func @signal_and_step() kernel {
    %p = pipeline.create -> !P
    // Producer: wait empty[s] = 2 + s, arrive full[s] = s.
    // CHECK:      %[[S:.*]] = memref.load
    // CHECK:      %[[I:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[I]], %[[C2]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[E]]]
    // CHECK-NEXT: %[[F:.*]] = arith.index_castui %[[S]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[F]]]
    // CHECK:      arith.cmpi eq
    pipeline.producer_signal_and_step %p : !P
    // Consumer: wait full[s] = s, arrive empty[s] = 2 + s.
    // CHECK:      %[[S2:.*]] = memref.load
    // CHECK:      %[[I2:.*]] = arith.index_castui %[[S2]]
    // CHECK:      nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[I2]]]
    // CHECK-NEXT: %[[J2:.*]] = arith.index_castui %[[S2]]
    // CHECK-NEXT: %[[C2B:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[E2:.*]] = arith.addi %[[J2]], %[[C2B]]
    // CHECK-NEXT: nvgpu.mbarrier.arrive %{{.*}}[%[[E2]]]
    // CHECK:      arith.cmpi eq
    pipeline.consumer_signal_and_step %p : !P
    gpu.return
  }
}

// -----

// drain_producer: S times, wait on empty(stage, 0) of the producer stage with
// the producer phase, then step.

!P = !pipeline.pipeline<stages = 3, consumer_sub_stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @drain
  gpu.func @drain() kernel {
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[PP:.*]] = memref.alloca() : memref<i1>
    %p = pipeline.create -> !P
    // CHECK:      %[[NS:.*]] = arith.constant 3 : index
    // CHECK:      scf.for %{{.*}} = %{{.*}} to %[[NS]]
    // CHECK-NEXT:   %[[S:.*]] = memref.load %[[PS]][]
    // CHECK-NEXT:   %[[PH:.*]] = memref.load %[[PP]][]
    // CHECK-NEXT:   %[[I:.*]] = arith.index_castui %[[S]]
    // empty(s, 0) = 3 + 2 * s
    // CHECK-NEXT:   %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT:   %[[M:.*]] = arith.muli %[[I]], %[[C2]]
    // CHECK-NEXT:   %[[C3:.*]] = arith.constant 3 : index
    // CHECK-NEXT:   %[[E0:.*]] = arith.addi %[[M]], %[[C3]]
    // CHECK:        nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[E0]]], %[[PH]]
    // Only sub-stage 0, as the reference's drain (wait_consumer + step): a
    // wait on empty(s, 1) would hang once its phase wrapped if that
    // sub-stage is not released every round.
    // CHECK-NOT:    nvgpu.mbarrier.try_wait.parity
    // CHECK:        memref.store %{{.*}}, %[[PS]][]
    // CHECK-NEXT:   memref.store %{{.*}}, %[[PP]][]
    // CHECK-NEXT: }
    pipeline.drain_producer %p : !P
    gpu.return
  }
}

// -----

// producer_mbar / consumer_mbar / *_stage, with sub-stages:
// full(s, j) = 2 s + j, empty(s, j) = 8 + 3 s + j for S = 4, P = 2, C = 3.

!P = !pipeline.pipeline<stages = 4, producer_sub_stages = 2, consumer_sub_stages = 3>
!G = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 20>
gpu.module @m {
  // CHECK-LABEL: gpu.func @mbar_of
  gpu.func @mbar_of(%s: index, %out: memref<4xi64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %p = pipeline.create -> !P
    // CHECK:      %[[G:.*]] = nvgpu.mbarrier.create {{.*}} num_barriers = 20
    // CHECK:      %[[C2:.*]] = arith.constant 2 : index
    // CHECK-NEXT: %[[M:.*]] = arith.muli %[[S:.*]], %[[C2]]
    // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : index
    // CHECK-NEXT: %[[F:.*]] = arith.addi %[[M]], %[[C1]]
    // CHECK-NEXT: nvgpu.mbarrier.get %[[G]][%[[F]]]
    %b0, %i0 = pipeline.producer_mbar %p[%s] sub_stage 1 : !P
    %a0 = nvgpu.mbarrier.get %b0[%i0] : !G -> i64
    // CHECK:      %[[C3:.*]] = arith.constant 3 : index
    // CHECK-NEXT: %[[M2:.*]] = arith.muli %[[S]], %[[C3]]
    // CHECK-NEXT: %[[C10:.*]] = arith.constant 10 : index
    // CHECK-NEXT: %[[E:.*]] = arith.addi %[[M2]], %[[C10]]
    // CHECK-NEXT: nvgpu.mbarrier.get %[[G]][%[[E]]]
    %b1, %i1 = pipeline.consumer_mbar %p[%s] sub_stage 2 : !P
    %a1 = nvgpu.mbarrier.get %b1[%i1] : !G -> i64
    // CHECK:      %[[PS:.*]] = memref.load %{{.*}}[] : memref<i32>
    // CHECK-NEXT: memref.load
    // CHECK-NEXT: %[[PI:.*]] = arith.index_castui %[[PS]]
    // CHECK:      arith.index_cast %[[PI]]
    %ps = pipeline.producer_stage %p : !P
    %cs = pipeline.consumer_stage %p : !P
    %x = arith.index_cast %ps : index to i64
    %y = arith.index_cast %cs : index to i64
    memref.store %a0, %out[%c0] : memref<4xi64>
    memref.store %a1, %out[%c1] : memref<4xi64>
    memref.store %x, %out[%c2] : memref<4xi64>
    gpu.return
  }
}
