// RUN: pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu | FileCheck %s

// pipeline.create without storage: a workgroup mbarrier group of 2*S
// barriers, and the role state (four scalar allocas at the function entry)
// set to producer (0, 1), consumer (0, 0) where the pipeline is created.

!P = !pipeline.pipeline<stages = 4>
gpu.module @m {
  // CHECK-LABEL: gpu.func @create_alloc
  gpu.func @create_alloc(%x: index) kernel {
    // CHECK-NEXT: %[[PS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[PP:.*]] = memref.alloca() : memref<i1>
    // CHECK-NEXT: %[[CS:.*]] = memref.alloca() : memref<i32>
    // CHECK-NEXT: %[[CP:.*]] = memref.alloca() : memref<i1>
    // CHECK:      nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
    // CHECK-DAG:  %[[ZERO:.*]] = arith.constant 0 : i32
    // CHECK-DAG:  %[[TRUE:.*]] = arith.constant true
    // CHECK:      memref.store %[[ZERO]], %[[PS]][]
    // CHECK-NEXT: memref.store %[[TRUE]], %[[PP]][]
    // CHECK:      %[[FALSE:.*]] = arith.constant false
    // CHECK-NEXT: memref.store %{{.*}}, %[[CS]][]
    // CHECK-NEXT: memref.store %[[FALSE]], %[[CP]][]
    %p = pipeline.create -> !P
    gpu.return
  }
}

// -----

// pipeline.create in a buffer: a view of the buffer as the barrier array,
// cast to the mbarrier group type.

!P = !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
gpu.module @m {
  // CHECK-LABEL: gpu.func @create_in_buffer
  gpu.func @create_in_buffer() kernel {
    %c64 = arith.constant 64 : index
    %smem = gpu.dynamic_shared_memory : !smem
    // CHECK: %[[VIEW:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<6xi64, #gpu.address_space<workgroup>>
    // CHECK: builtin.unrealized_conversion_cast %[[VIEW]] : memref<6xi64, #gpu.address_space<workgroup>> to !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
    %p = pipeline.create in %smem[%c64] : !smem -> !P
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 3, producer_sub_stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @smem_bytes
  gpu.func @smem_bytes(%out: memref<1xindex>) kernel {
    %c0 = arith.constant 0 : index
    // 3 * 2 full + 3 empty barriers of 8 bytes.
    // CHECK: %[[N:.*]] = arith.constant 72 : index
    // CHECK: memref.store %[[N]]
    %n = pipeline.smem_bytes !P
    memref.store %n, %out[%c0] : memref<1xindex>
    gpu.return
  }
}

// -----

// init_mbars: thread (0,0,0) inits full[0, S*P) with the producer count and
// empty[S*P, S*(P+C)) with the consumer count, then fences from the same
// thread; the CTA synchronizes.

!P = !pipeline.pipeline<stages = 3, producer_sub_stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @init_cta
  gpu.func @init_cta() kernel {
    %p = pipeline.create -> !P
    // CHECK:      %[[G:.*]] = nvgpu.mbarrier.create
    // CHECK:      %[[X:.*]] = gpu.thread_id x
    // CHECK:      arith.cmpi eq, %[[X]]
    // CHECK:      %[[Y:.*]] = gpu.thread_id y
    // CHECK:      %[[Z:.*]] = gpu.thread_id z
    // CHECK:      %[[FIRST:.*]] = arith.andi
    // CHECK:      scf.if %[[FIRST]] {
    // CHECK-DAG:    %[[PCOUNT:.*]] = arith.constant 1 : index
    // CHECK-DAG:    %[[NFULL:.*]] = arith.constant 6 : index
    // CHECK:        scf.for %[[I:.*]] = %{{.*}} to %[[NFULL]]
    // CHECK-NEXT:     nvgpu.mbarrier.init %[[G]][%[[I]]], %[[PCOUNT]]
    // CHECK:        %[[CCOUNT:.*]] = arith.constant 128 : index
    // CHECK-DAG:    %[[NALL:.*]] = arith.constant 9 : index
    // CHECK-DAG:    %[[BEGIN:.*]] = arith.constant 6 : index
    // CHECK:        scf.for %[[J:.*]] = %[[BEGIN]] to %[[NALL]]
    // CHECK-NEXT:     nvgpu.mbarrier.init %[[G]][%[[J]]], %[[CCOUNT]]
    // CHECK:        nvvm.fence.mbarrier.init
    // CHECK-NEXT: }
    // CHECK-NEXT: gpu.barrier
    // CHECK-NOT:  nvvm.cluster
    pipeline.init_mbars %p producer 1 consumer 128 : !P
    gpu.return
  }
}

// -----

// With `cluster`, the cluster synchronizes instead of the CTA: a relaxed
// arrive (the fence released the inits) at the init, the wait before the
// next op that uses a pipeline (here the return).

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @init_cluster
  gpu.func @init_cluster() kernel {
    %p = pipeline.create -> !P
    // CHECK:      nvvm.fence.mbarrier.init
    // CHECK-NEXT: }
    // CHECK-NEXT: nvvm.cluster.arrive.relaxed
    // CHECK-NEXT: nvvm.cluster.wait
    // CHECK-NOT:  gpu.barrier
    pipeline.init_mbars %p producer 1 consumer 2 cluster : !P
    gpu.return
  }
}

// -----

// input_tile_pipeline and role share the pipeline's barriers and state.

!P = !pipeline.pipeline<stages = 2>
!buf = memref<2x1x8x8xf32, #gpu.address_space<workgroup>>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [!buf]>
gpu.module @m {
  // CHECK-LABEL: gpu.func @views
  gpu.func @views() workgroup(%buf : !buf) kernel {
    // CHECK-COUNT-4: memref.alloca
    // CHECK-NOT:     memref.alloca
    // CHECK:         %[[G:.*]] = nvgpu.mbarrier.create
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : !buf) : !P -> !TP
    %r = pipeline.role %p : !P -> !pipeline.role<consumer, !P>
    // Both waits use the same group and the consumer state.
    // CHECK: nvgpu.mbarrier.try_wait.parity %[[G]]
    // CHECK: nvgpu.mbarrier.try_wait.parity %[[G]]
    pipeline.wait_producer %tp : !TP
    %s = pipeline.wait %r : !pipeline.role<consumer, !P>
    pipeline.release_no_step %s : !pipeline.stage<consumer, !P>
    pipeline.step %s : !pipeline.stage<consumer, !P>
    gpu.return
  }
}

// -----

// A pipeline used between two cluster inits: the first init keeps its own
// arrive and wait, before that use.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @init_cluster_use_between
  gpu.func @init_cluster_use_between() kernel {
    %p = pipeline.create -> !P
    %q = pipeline.create -> !P
    // CHECK:      nvvm.fence.mbarrier.init
    // CHECK-NEXT: }
    // CHECK-NEXT: nvvm.cluster.arrive.relaxed
    // CHECK-NEXT: nvvm.cluster.wait
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    // CHECK:      nvvm.fence.mbarrier.init
    // CHECK-NEXT: }
    // CHECK-NEXT: nvvm.cluster.arrive.relaxed
    // CHECK-NEXT: nvvm.cluster.wait
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    pipeline.init_mbars %p producer 1 consumer 1 cluster : !P
    pipeline.wait_producer %p : !P
    pipeline.init_mbars %q producer 1 consumer 1 cluster : !P
    pipeline.wait_producer %q : !P
    gpu.return
  }
}

// -----

// The cluster wait moves past the setup that touches no pipeline (here an
// index computation and a store to global memory) up to the first use of a
// pipeline; two cluster inits in a row share one arrive, after the second's
// fence (the first's inits are fenced too), and one wait.

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @init_cluster_overlap
  gpu.func @init_cluster_overlap(%out: memref<4xindex>) kernel {
    %c0 = arith.constant 0 : index
    %p = pipeline.create -> !P
    %q = pipeline.create -> !P
    // CHECK:      nvvm.fence.mbarrier.init
    // CHECK-NEXT: }
    // CHECK-NOT:  nvvm.cluster
    // CHECK:      nvvm.fence.mbarrier.init
    // CHECK-NEXT: }
    // CHECK-NEXT: nvvm.cluster.arrive.relaxed
    // CHECK-NEXT: gpu.thread_id x
    // CHECK-NEXT: memref.store
    // CHECK-NEXT: nvvm.cluster.wait
    // CHECK:      nvgpu.mbarrier.try_wait.parity
    pipeline.init_mbars %p producer 1 consumer 1 cluster : !P
    pipeline.init_mbars %q producer 1 consumer 1 cluster : !P
    %tid = gpu.thread_id x
    memref.store %tid, %out[%c0] : memref<4xindex>
    pipeline.wait_producer %p : !P
    gpu.return
  }
}
