// RUN: pipeline-opt %s -split-input-file -pipeline-verify-protocol -verify-diagnostics | FileCheck %s

// Producers of pipelines whose CTAs signal each other, each reaching the
// exit through a drain or a cluster barrier on every path; a pipeline
// local to its CTA needs neither.

!Pair = !pipeline.pipeline<stages = 2, cta_group = 2>
!Multi = !pipeline.pipeline<stages = 2, release_ctas = 2>
!Local = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // CHECK-LABEL: gpu.func @drained
  gpu.func @drained(%is_producer: i1, %c: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = pipeline.create -> !Pair
    %b = pipeline.create -> !Multi
    %l = pipeline.create -> !Local
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    pipeline.init_mbars %b producer 1 consumer 2 cluster : !Multi
    pipeline.init_mbars %l producer 1 consumer 1 : !Local
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %a as %s : !Pair {
          pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
        }
        pipeline.produce %b as %s : !Multi {
          pipeline.arrive %s : !pipeline.stage<producer, !Multi>
        }
        pipeline.produce %l as %s : !Local {
          pipeline.arrive %s : !pipeline.stage<producer, !Local>
        }
      }
      // Right after the loop for one, on both branches for the other.
      pipeline.drain_producer %a : !Pair
      scf.if %c {
        pipeline.drain_producer %b : !Multi
      } else {
        pipeline.drain_producer %b : !Multi
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %a as %s : !Pair {
        }
        pipeline.consume %b as %s : !Multi {
        }
        pipeline.consume %l as %s : !Local {
        }
      }
    }
    gpu.return
  }

  // A cluster barrier at the end of the kernel keeps every CTA alive until
  // all are done; it may follow an arrive on another path level.
  // CHECK-LABEL: gpu.func @cluster_barrier
  gpu.func @cluster_barrier(%is_producer: i1, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = pipeline.create -> !Pair
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    scf.if %is_producer {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.produce %a as %s : !Pair {
          pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
        }
      }
    } else {
      scf.for %i = %c0 to %n step %c1 {
        pipeline.consume %a as %s : !Pair {
        }
      }
    }
    nvvm.cluster.arrive {aligned}
    nvvm.cluster.wait {aligned}
    gpu.return
  }

  // Unstructured control flow after the producer: not checked.
  // CHECK-LABEL: gpu.func @cfg
  gpu.func @cfg(%c: i1) kernel {
    %a = pipeline.create -> !Pair
    pipeline.init_mbars %a producer 1 consumer 1 cluster : !Pair
    %s = pipeline.acquire_producer %a : !Pair
    pipeline.commit_mma %s : !pipeline.stage<producer, !Pair>
    pipeline.step %s : !pipeline.stage<producer, !Pair>
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    pipeline.drain_producer %a : !Pair
    cf.br ^bb2
  ^bb2:
    gpu.return
  }
}
