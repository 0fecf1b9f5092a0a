// RUN: pipeline-opt %s -split-input-file -allow-unregistered-dialect -convert-pipeline-to-nvgpu -verify-diagnostics
// RUN: not pipeline-opt %s -split-input-file -convert-pipeline-to-nvgpu=chip=volta 2>&1 | FileCheck %s --check-prefix=BADCHIP

// BADCHIP: error: convert-pipeline-to-nvgpu expects chip=sm_<N>[a|f] such as sm_100a, got 'volta'

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // expected-error @+1 {{'gpu.func' op expects no pipeline, role or stage handle in the signature (the lowering keeps role state per pipeline.create in the function), got '(!pipeline.pipeline<stages = 2>) -> ()'}}
  gpu.func @pipeline_argument(%p: !P) kernel {
    pipeline.wait_producer %p : !P
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @pipeline_from_cast(%x: i64) kernel {
    %p = builtin.unrealized_conversion_cast %x : i64 to !P
    // expected-error @+1 {{'pipeline.wait_producer' op expects every pipeline, role and stage value to come from a pipeline op in the same function (the lowering keeps role state per pipeline.create), got a result of 'builtin.unrealized_conversion_cast' of type '!pipeline.pipeline<stages = 2>'}}
    pipeline.wait_producer %p : !P
    gpu.return
  }
}

// -----

// An op of an unregistered dialect (no dialect object) makes a handle, and
// sits in a region with one.
!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @pipeline_from_unregistered() kernel {
    %p = "foo.make"() : () -> !P
    // expected-error @+1 {{'pipeline.wait_producer' op expects every pipeline, role and stage value to come from a pipeline op in the same function (the lowering keeps role state per pipeline.create), got a result of 'foo.make' of type '!pipeline.pipeline<stages = 2>'}}
    pipeline.wait_producer %p : !P
    "foo.region"() ({
      // expected-error @+1 {{'foo.use' op expects every pipeline, role and stage value to come from a pipeline op in the same function}}
      "foo.use"(%p) : (!P) -> ()
    }) : () -> ()
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @hopper [#nvvm.target<chip = "sm_90a">] {
  gpu.func @commit_mma_on_hopper() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_producer %p : !P
    // expected-error @+1 {{'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from the #nvvm.target of gpu.module @hopper)}}
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @blackwell_family [#nvvm.target<chip = "sm_100">] {
  gpu.func @commit_mma_without_arch_suffix() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_producer %p : !P
    // expected-error @+1 {{'pipeline.commit_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_100 lacks (chip from the #nvvm.target of gpu.module @blackwell_family)}}
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @commit_mma_without_chip() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_producer %p : !P
    // expected-error @+1 {{'pipeline.commit_mma' op needs the target chip to lower to tcgen05.commit: attach #nvvm.target<chip = ...> to the gpu.module or pass chip=...}}
    pipeline.commit_mma %s : !pipeline.stage<producer, !P>
    pipeline.release %s : !pipeline.stage<producer, !P>
    gpu.return
  }
}

// -----

// Only the first op that needs sm_90 is reported.
!P = !pipeline.pipeline<stages = 2>
gpu.module @ampere [#nvvm.target<chip = "sm_80">] {
  gpu.func @too_old() kernel {
    %p = pipeline.create -> !P
    // expected-error @+1 {{'pipeline.init_mbars' op needs sm_90 or newer (mbarrier try_wait.parity, expect_tx, clusters), got sm_80 (chip from the #nvvm.target of gpu.module @ampere)}}
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    pipeline.wait_producer %p : !P
    gpu.return
  }
}

// -----

!P1 = !pipeline.pipeline<stages = 2>
!P2 = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mixed_cta_groups() kernel {
    %p = pipeline.create -> !P1
    %q = pipeline.create -> !P2
    %s = pipeline.acquire_producer %p : !P1
    %t = pipeline.acquire_producer %q : !P2
    // expected-note @+1 {{first commit_mma here}}
    pipeline.commit_mma %s : !pipeline.stage<producer, !P1>
    // expected-error @+1 {{'pipeline.commit_mma' op expects the commit_mma ops of a kernel to share one cta_group (ptxas rejects mixing .cta_group::1 and .cta_group::2), got cta_group 2 after cta_group 1}}
    pipeline.commit_mma %t : !pipeline.stage<producer, !P2>
    pipeline.release %s : !pipeline.stage<producer, !P1>
    pipeline.release %t : !pipeline.stage<producer, !P2>
    gpu.return
  }
}
