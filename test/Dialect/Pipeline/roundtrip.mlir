// Every op and type of the pipeline dialect survives print/parse, in the
// custom and in the generic form.
// RUN: pipeline-opt %s | pipeline-opt | FileCheck %s
// RUN: pipeline-opt %s --mlir-print-op-generic | pipeline-opt | FileCheck %s
// RUN: pipeline-opt %s --mlir-print-op-generic | pipeline-opt --mlir-print-op-generic | pipeline-opt | FileCheck %s

!P = !pipeline.pipeline<stages = 4>
!S = !pipeline.pipeline<stages = 2, producer_sub_stages = 2, consumer_sub_stages = 3, cta_group = 2>
!Tiles = memref<4x2x64x32xf16, #gpu.address_space<workgroup>>
!Scales = memref<4x2x16xi8, #gpu.address_space<workgroup>>
!T = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 2, payload = [!Tiles, !Scales]>
!Smem = memref<?xi8, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func private @types
// CHECK-SAME: !pipeline.pipeline<stages = 4>
// CHECK-SAME: !pipeline.pipeline<stages = 2, producer_sub_stages = 2, consumer_sub_stages = 3, cta_group = 2>
// CHECK-SAME: !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4>, k_group_size = 2, payload = [memref<4x2x64x32xf16, #gpu.address_space<workgroup>>, memref<4x2x16xi8, #gpu.address_space<workgroup>>]>
// CHECK-SAME: !pipeline.role<producer, !pipeline.pipeline<stages = 4>>
// CHECK-SAME: !pipeline.role<consumer, !pipeline.pipeline<stages = 2, producer_sub_stages = 2, consumer_sub_stages = 3, cta_group = 2>>
// CHECK-SAME: !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
// CHECK-SAME: !pipeline.stage<consumer, !pipeline.tile_pipeline<
func.func private @types(!P, !S, !T, !pipeline.role<producer, !P>,
                         !pipeline.role<consumer, !S>,
                         !pipeline.stage<producer, !P>,
                         !pipeline.stage<consumer, !T>)

// CHECK-LABEL: func.func @setup
func.func @setup(%smem: !Smem) -> index {
  %c0 = arith.constant 0 : index
  // CHECK: pipeline.create -> !pipeline.pipeline<stages = 4>
  %p = pipeline.create -> !P
  // CHECK: pipeline.create in %{{.*}}[%{{.*}}] : memref<?xi8, #gpu.address_space<workgroup>> -> !pipeline.pipeline<stages = 2, producer_sub_stages = 2
  %q = pipeline.create in %smem[%c0] : !Smem -> !S
  // CHECK: pipeline.create {name = "input"} -> !pipeline.pipeline<stages = 4>
  %r = pipeline.create {name = "input"} -> !P
  pipeline.init_mbars %r producer 1 consumer 4 : !P
  // CHECK: pipeline.smem_bytes !pipeline.pipeline<stages = 4>
  %n = pipeline.smem_bytes !P
  // CHECK: pipeline.init_mbars %{{.*}} producer 1 consumer 4 : !pipeline.pipeline<stages = 4>
  pipeline.init_mbars %p producer 1 consumer 4 : !P
  // CHECK: pipeline.init_mbars %{{.*}} producer 1 consumer 2 cluster : !pipeline.pipeline<stages = 2
  pipeline.init_mbars %q producer 1 consumer 2 cluster : !S
  return %n : index
}

// CHECK-LABEL: func.func @direct
func.func @direct() {
  %c1 = arith.constant 1 : index
  %p = pipeline.create -> !P
  // CHECK: pipeline.wait_producer %{{.*}} : !pipeline.pipeline<stages = 4>
  pipeline.wait_producer %p : !P
  // CHECK: pipeline.wait_consumer
  pipeline.wait_consumer %p : !P
  // CHECK: pipeline.try_wait_producer
  %a = pipeline.try_wait_producer %p : !P
  // CHECK: pipeline.try_wait_consumer
  %b = pipeline.try_wait_consumer %p : !P
  // CHECK: pipeline.wait_producer_if_needed %{{.*}}, %{{.*}} : !pipeline.pipeline<stages = 4>
  pipeline.wait_producer_if_needed %p, %a : !P
  // CHECK: pipeline.wait_consumer_if_needed
  pipeline.wait_consumer_if_needed %p, %b : !P
  // CHECK: pipeline.producer_stage
  %ps = pipeline.producer_stage %p : !P
  // CHECK: pipeline.consumer_stage
  %cs = pipeline.consumer_stage %p : !P
  // CHECK: pipeline.producer_mbar %{{.*}}[%{{.*}}] : !pipeline.pipeline<stages = 4>
  %fb, %fi = pipeline.producer_mbar %p[%ps] : !P
  // CHECK: pipeline.consumer_mbar
  %eb, %ei = pipeline.consumer_mbar %p[%c1] : !P
  // CHECK: nvgpu.mbarrier.arrive %{{.*}}[%{{.*}}] : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
  %tok = nvgpu.mbarrier.arrive %fb[%fi] : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8> -> !nvgpu.mbarrier.token
  // CHECK: pipeline.producer_step
  pipeline.producer_step %p : !P
  // CHECK: pipeline.consumer_step
  pipeline.consumer_step %p : !P
  // CHECK: pipeline.producer_signal_and_step
  pipeline.producer_signal_and_step %p : !P
  // CHECK: pipeline.consumer_signal_and_step
  pipeline.consumer_signal_and_step %p : !P
  // CHECK: pipeline.drain_producer
  pipeline.drain_producer %p : !P
  return
}

// CHECK-LABEL: func.func @handles
func.func @handles(%ready: i1) -> index {
  %p = pipeline.create -> !P
  // CHECK: %[[PS:.*]] = pipeline.acquire_producer %{{.*}} : !pipeline.pipeline<stages = 4>
  %ps = pipeline.acquire_producer %p : !P
  // CHECK: pipeline.index %[[PS]] : !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
  %i = pipeline.index %ps : !pipeline.stage<producer, !P>
  // CHECK: pipeline.mbar %[[PS]] : !pipeline.stage<producer
  %bars, %id = pipeline.mbar %ps : !pipeline.stage<producer, !P>
  // CHECK: pipeline.arrive %[[PS]]
  pipeline.arrive %ps : !pipeline.stage<producer, !P>
  // CHECK: pipeline.release %[[PS]] : !pipeline.stage<producer
  pipeline.release %ps : !pipeline.stage<producer, !P>
  // CHECK: %[[CS:.*]] = pipeline.acquire_consumer %{{.*}} ready(%{{.*}}) : !pipeline.pipeline<stages = 4>
  %cs = pipeline.acquire_consumer %p ready(%ready) : !P
  // CHECK: pipeline.arrive %[[CS]]
  pipeline.arrive %cs : !pipeline.stage<consumer, !P>
  // CHECK: pipeline.release_without_signal %[[CS]]
  pipeline.release_without_signal %cs : !pipeline.stage<consumer, !P>
  %cs2 = pipeline.acquire_consumer %p : !P
  // CHECK: pipeline.release %{{.*}} : !pipeline.stage<consumer
  pipeline.release %cs2 : !pipeline.stage<consumer, !P>
  %ps2 = pipeline.acquire_producer %p : !P
  %c128 = arith.constant 128 : index
  // CHECK: pipeline.expect_tx %{{.*}} bytes(%{{.*}}) : !pipeline.stage<producer
  pipeline.expect_tx %ps2 bytes(%c128) : !pipeline.stage<producer, !P>
  pipeline.release %ps2 : !pipeline.stage<producer, !P>
  return %i : index
}

// CHECK-LABEL: func.func @scoped
func.func @scoped() -> index {
  %p = pipeline.create -> !P
  // CHECK: pipeline.produce %{{.*}} as %[[S:.*]] : !pipeline.pipeline<stages = 4> {
  // CHECK-NEXT: pipeline.arrive %[[S]]
  pipeline.produce %p as %s : !P {
    pipeline.arrive %s : !pipeline.stage<producer, !P>
  }
  // CHECK: pipeline.consume %{{.*}} as %[[C:.*]] : !pipeline.pipeline<stages = 4> -> index {
  // CHECK: pipeline.yield %{{.*}} : index
  %v = pipeline.consume %p as %s : !P -> index {
    %i = pipeline.index %s : !pipeline.stage<consumer, !P>
    pipeline.yield %i : index
  }
  // CHECK: pipeline.consume_explicit %{{.*}} as %[[E:.*]] : !pipeline.pipeline<stages = 4> {
  pipeline.consume_explicit %p as %s : !P {
    pipeline.arrive %s : !pipeline.stage<consumer, !P>
  }
  return %v : index
}

// CHECK-LABEL: func.func @tiles
func.func @tiles(%a: !Tiles, %b: !Scales, %ready: i1, %map: !llvm.ptr, %mask: i16) {
  %p = pipeline.create -> !P
  // CHECK: pipeline.input_tile_pipeline %{{.*}} payload(%{{.*}}, %{{.*}} : memref<4x2x64x32xf16, #gpu.address_space<workgroup>>, memref<4x2x16xi8, #gpu.address_space<workgroup>>)
  %tp = pipeline.input_tile_pipeline %p payload(%a, %b : !Tiles, !Scales) : !P -> !T
  // CHECK: pipeline.init_mbars %{{.*}} producer 1 consumer 1 : !pipeline.tile_pipeline
  pipeline.init_mbars %tp producer 1 consumer 1 : !T
  // CHECK: pipeline.try_acquire_producer
  %r = pipeline.try_acquire_producer %tp : !T
  // CHECK: pipeline.try_acquire_consumer
  %r2 = pipeline.try_acquire_consumer %tp : !T
  // CHECK: pipeline.acquire_producer %{{.*}} ready(%{{.*}}) : !pipeline.tile_pipeline
  %s = pipeline.acquire_producer %tp ready(%r) : !T
  // CHECK: pipeline.expect_tx %{{.*}} : !pipeline.stage<producer, !pipeline.tile_pipeline
  pipeline.expect_tx %s : !pipeline.stage<producer, !T>
  // CHECK: pipeline.payload %{{.*}}[0] : {{.*}} -> memref<2x64x32xf16, strided<[2048, 32, 1], offset: ?>, #gpu.address_space<workgroup>>
  %t0 = pipeline.payload %s[0] : !pipeline.stage<producer, !T> -> memref<2x64x32xf16, strided<[2048, 32, 1], offset: ?>, #gpu.address_space<workgroup>>
  // CHECK: pipeline.payload %{{.*}}[1] : {{.*}} -> memref<2x16xi8, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  %t1 = pipeline.payload %s[1] : !pipeline.stage<producer, !T> -> memref<2x16xi8, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  %k = arith.constant 0 : i32
  // CHECK: pipeline.tma_load %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] -> %{{.*}} : !pipeline.stage<producer, {{.*}}>, !llvm.ptr, memref<2x64x32xf16
  pipeline.tma_load %s, %map[%k, %k, %k] -> %t0 : !pipeline.stage<producer, !T>, !llvm.ptr, memref<2x64x32xf16, strided<[2048, 32, 1], offset: ?>, #gpu.address_space<workgroup>>
  // CHECK: pipeline.tma_load %{{.*}}, %{{.*}}[%{{.*}}] -> %{{.*}} multicast(%{{.*}}) : !pipeline.stage<producer
  pipeline.tma_load %s, %map[%k] -> %t1 multicast(%mask) : !pipeline.stage<producer, !T>, !llvm.ptr, memref<2x16xi8, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
  pipeline.release %s : !pipeline.stage<producer, !T>
  pipeline.drain_producer %tp : !T
  return
}

// CHECK-LABEL: func.func @roles
func.func @roles(%elect: i1) {
  %c0 = arith.constant 0 : index
  %p = pipeline.create -> !S
  // CHECK: pipeline.role %{{.*}} : !pipeline.pipeline<{{.*}}> -> !pipeline.role<producer
  %prod = pipeline.role %p : !S -> !pipeline.role<producer, !S>
  // CHECK: pipeline.role %{{.*}} -> !pipeline.role<consumer
  %cons = pipeline.role %p : !S -> !pipeline.role<consumer, !S>
  // CHECK: pipeline.acquire %{{.*}} sub_stage 2 : !pipeline.role<producer
  %s = pipeline.acquire %prod sub_stage 2 : !pipeline.role<producer, !S>
  // CHECK: pipeline.producer_mbar %{{.*}}[%{{.*}}] sub_stage 1 : !pipeline.role<producer
  %fb, %fi = pipeline.producer_mbar %prod[%c0] sub_stage 1 : !pipeline.role<producer, !S>
  // CHECK: pipeline.consumer_mbar %{{.*}}[%{{.*}}] sub_stage 2 : !pipeline.role<producer
  %eb, %ei = pipeline.consumer_mbar %prod[%c0] sub_stage 2 : !pipeline.role<producer, !S>
  // CHECK: pipeline.mbar %{{.*}} sub_stage 1 : !pipeline.stage<producer
  %mb, %mi = pipeline.mbar %s sub_stage 1 : !pipeline.stage<producer, !S>
  // CHECK: pipeline.commit_mma %{{.*}} : !pipeline.stage<producer
  pipeline.commit_mma %s : !pipeline.stage<producer, !S>
  // CHECK: pipeline.commit_mma %{{.*}} elect(%{{.*}}) : !pipeline.stage<producer
  pipeline.commit_mma %s elect(%elect) : !pipeline.stage<producer, !S>
  // CHECK: pipeline.step %{{.*}} : !pipeline.stage<producer
  pipeline.step %s : !pipeline.stage<producer, !S>
  %s2 = pipeline.acquire %prod : !pipeline.role<producer, !S>
  // CHECK: pipeline.commit %{{.*}} : !pipeline.stage<producer
  pipeline.commit %s2 : !pipeline.stage<producer, !S>
  // CHECK: pipeline.producer_stage %{{.*}} : !pipeline.role<producer
  %st = pipeline.producer_stage %prod : !pipeline.role<producer, !S>
  // CHECK: %[[W:.*]] = pipeline.wait %{{.*}} : !pipeline.role<consumer
  %w = pipeline.wait %cons : !pipeline.role<consumer, !S>
  // CHECK: pipeline.release_no_step %[[W]] : !pipeline.stage<consumer
  pipeline.release_no_step %w : !pipeline.stage<consumer, !S>
  // CHECK: pipeline.release_no_step %[[W]] sub_stage 1 : !pipeline.stage<consumer
  pipeline.release_no_step %w sub_stage 1 : !pipeline.stage<consumer, !S>
  // CHECK: pipeline.release %[[W]] sub_stage 2 : !pipeline.stage<consumer
  pipeline.release %w sub_stage 2 : !pipeline.stage<consumer, !S>
  return
}

// A 2-D multicast cluster (the cross); default 1 x 1 is not printed.
// CHECK-LABEL: func.func private @cluster_cross
// CHECK-SAME: !pipeline.pipeline<stages = 4, cta_group = 2, cluster_m = 4, cluster_n = 4>
// CHECK-SAME: !pipeline.pipeline<stages = 2, cluster_n = 2>
// CHECK-SAME: !pipeline.pipeline<stages = 2>)
func.func private @cluster_cross(!pipeline.pipeline<stages = 4, cta_group = 2, cluster_m = 4, cluster_n = 4>,
                                 !pipeline.pipeline<stages = 2, cluster_m = 1, cluster_n = 2>,
                                 !pipeline.pipeline<stages = 2, cluster_m = 1, cluster_n = 1>)

!G = !pipeline.pipeline<stages = 4, release_ctas = 2>
!TG = !pipeline.tile_pipeline<pipeline = !G, k_group_size = 2, payload = [!Tiles]>

// CHECK-LABEL: func.func @mma_release
func.func @mma_release(%a: !Tiles, %elect: i1) {
  // CHECK: pipeline.create -> !pipeline.pipeline<stages = 4, release_ctas = 2>
  %p = pipeline.create -> !G
  %tp = pipeline.input_tile_pipeline %p payload(%a : !Tiles) : !G -> !TG
  %s = pipeline.acquire_consumer %tp : !TG
  // CHECK: pipeline.release_mma %{{.*}} : !pipeline.stage<consumer
  pipeline.release_mma %s : !pipeline.stage<consumer, !TG>
  // CHECK: pipeline.release_mma %{{.*}} elect(%{{.*}}) : !pipeline.stage<consumer
  pipeline.release_mma %s elect(%elect) : !pipeline.stage<consumer, !TG>
  pipeline.release %s : !pipeline.stage<consumer, !TG>
  return
}

// CHECK-LABEL: func.func @tmem
func.func @tmem(%smem: memref<?xi8, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  // CHECK: pipeline.smem_bytes !pipeline.tmem<columns = 512, cta_group = 2>
  %n = pipeline.smem_bytes !pipeline.tmem<columns = 512, cta_group = 2>
  // CHECK: pipeline.tmem_create in %{{.*}}[%{{.*}}] : memref<?xi8, #gpu.address_space<workgroup>> -> !pipeline.tmem<columns = 512, cta_group = 2>
  %t = pipeline.tmem_create in %smem[%c0] : memref<?xi8, #gpu.address_space<workgroup>> -> !pipeline.tmem<columns = 512, cta_group = 2>
  // CHECK: pipeline.tmem_alloc %{{.*}} readers 128 warp 1 : !pipeline.tmem<columns = 512, cta_group = 2> -> i32
  %a = pipeline.tmem_alloc %t readers 128 warp 1 : !pipeline.tmem<columns = 512, cta_group = 2> -> i32
  // CHECK: pipeline.tmem_alloc %{{.*}} readers 64 : !pipeline.tmem<columns = 512, cta_group = 2> -> i32
  %b = pipeline.tmem_alloc %t readers 64 : !pipeline.tmem<columns = 512, cta_group = 2> -> i32
  // CHECK: pipeline.tmem_release %{{.*}} : !pipeline.tmem<columns = 512, cta_group = 2>
  pipeline.tmem_release %t : !pipeline.tmem<columns = 512, cta_group = 2>
  // CHECK: pipeline.tmem_dealloc %{{.*}}, %{{.*}} : !pipeline.tmem<columns = 512, cta_group = 2>
  pipeline.tmem_dealloc %t, %a : !pipeline.tmem<columns = 512, cta_group = 2>
  return
}

// CHECK-LABEL: func.func @tmem_accumulator
// CHECK: !pipeline.pipeline<stages = 2, cta_group = 2, tmem = true>
func.func @tmem_accumulator() {
  %p = pipeline.create -> !pipeline.pipeline<stages = 2, cta_group = 2, tmem = true>
  return
}
