// The shipped sm_100a example (both kernels) parses, passes the stage
// linearity and protocol checks and round-trips. Its PTX is checked in
// test/Target/PTX/sm100-example.mlir.
// RUN: pipeline-opt %examples/sm100_matmul_pipelines.mlir -pipeline-verify-linearity -pipeline-verify-protocol | pipeline-opt | FileCheck %s

// CHECK-LABEL: gpu.func @matmul_cta1
// CHECK:       pipeline.input_tile_pipeline {{.*}} -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4>, k_group_size = 2,
// CHECK:       pipeline.init_mbars %{{.*}} producer 1 consumer 1 : !pipeline.tile_pipeline
// CHECK:       pipeline.init_mbars %{{.*}} producer 1 consumer 128 : !pipeline.pipeline<stages = 2>
// TMA producer
// CHECK:       pipeline.acquire_producer %{{.*}} : !pipeline.tile_pipeline
// CHECK:       pipeline.expect_tx
// CHECK:       nvgpu.tma.async.load
// CHECK:       pipeline.release %{{.*}} : !pipeline.stage<producer, !pipeline.tile_pipeline
// CHECK:       pipeline.drain_producer %{{.*}} : !pipeline.tile_pipeline
// MMA warp
// CHECK:       pipeline.acquire_producer %{{.*}} : !pipeline.pipeline<stages = 2>
// CHECK:       pipeline.acquire_consumer %{{.*}} : !pipeline.tile_pipeline
// CHECK:       nvvm.tcgen05.mma {{.*}}ctaGroup = #nvvm.cta_group<cta_1>
// CHECK:       pipeline.release_mma %[[IN:[0-9]+]] elect(%[[E:[0-9]+]]) : !pipeline.stage<consumer, !pipeline.tile_pipeline
// CHECK-NEXT:  pipeline.release %[[IN]] : !pipeline.stage<consumer, !pipeline.tile_pipeline
// CHECK:       pipeline.commit_mma %[[ACC:[0-9]+]] elect(%[[E]]) : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
// CHECK-NEXT:  pipeline.release %[[ACC]] : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
// CHECK:       pipeline.drain_producer %{{.*}} : !pipeline.pipeline<stages = 2>
// Epilogue
// CHECK:       pipeline.consume %{{.*}} as %{{.*}} : !pipeline.pipeline<stages = 2> {
// CHECK:       nvvm.tcgen05.ld

// CHECK-LABEL: gpu.func @matmul_cta2
// CHECK:       pipeline.input_tile_pipeline {{.*}} -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4, cta_group = 2>, k_group_size = 2,
// CHECK:       pipeline.init_mbars %{{.*}} producer 1 consumer 1 cluster : !pipeline.tile_pipeline
// CHECK:       pipeline.init_mbars %{{.*}} producer 1 consumer 256 cluster : !pipeline.pipeline<stages = 2, cta_group = 2>
// CHECK:       pipeline.acquire_producer %{{.*}} : !pipeline.tile_pipeline
// CHECK:       pipeline.expect_tx
// CHECK:       nvvm.mapa
// CHECK:       nvvm.cp.async.bulk.tensor.shared.cluster.global {{.*}}group = #nvvm.cta_group<cta_2>
// CHECK:       pipeline.drain_producer %{{.*}} : !pipeline.tile_pipeline
// CHECK:       pipeline.acquire_consumer %{{.*}} : !pipeline.tile_pipeline
// CHECK:       nvvm.tcgen05.mma {{.*}}ctaGroup = #nvvm.cta_group<cta_2>
// CHECK:       pipeline.release_mma %[[IN:[0-9]+]] elect(%[[E:[0-9]+]]) : !pipeline.stage<consumer, !pipeline.tile_pipeline
// CHECK-NEXT:  pipeline.release %[[IN]] : !pipeline.stage<consumer, !pipeline.tile_pipeline
// CHECK:       pipeline.commit_mma %[[ACC:[0-9]+]] elect(%[[E]]) : !pipeline.stage<producer, !pipeline.pipeline<stages = 2, cta_group = 2>>
// CHECK-NEXT:  pipeline.release %[[ACC]] : !pipeline.stage<producer, !pipeline.pipeline<stages = 2, cta_group = 2>>
// CHECK:       pipeline.drain_producer %{{.*}} : !pipeline.pipeline<stages = 2, cta_group = 2>
// CHECK:       pipeline.consume %{{.*}} as %{{.*}} : !pipeline.pipeline<stages = 2, cta_group = 2> {
// CHECK:       nvvm.tcgen05.ld
