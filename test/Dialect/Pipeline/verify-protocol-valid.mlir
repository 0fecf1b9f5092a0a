// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol | FileCheck %s

// Initialized pipelines pass unchanged: the init in the entry block,
// before the warp-role branches, loops and views that use the pipeline.

#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m {
  // CHECK-LABEL: gpu.func @roles
  gpu.func @roles(%buf: memref<2x1x8xf32, #WG>, %is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    // CHECK: pipeline.init_mbars
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        %s = pipeline.acquire_producer %tp : !TP
        pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
        pipeline.release %s : !pipeline.stage<producer, !TP>
      }
      pipeline.drain_producer %tp : !TP
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %tp as %s : !TP {
          pipeline.arrive %s : !pipeline.stage<consumer, !TP>
        }
      }
    }
    gpu.return
  }
}

// -----

// A pipeline created inside an un-outlined gpu.launch: the launch body is
// the kernel.
!P = !pipeline.pipeline<stages = 2>
// CHECK-LABEL: func.func @launch
func.func @launch() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.wait_producer %p : !P
    gpu.terminator
  }
  return
}
