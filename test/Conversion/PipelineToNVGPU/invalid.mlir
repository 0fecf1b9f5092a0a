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
      // expected-error @+2 {{'foo.use' op expects pipeline, role and stage values to flow only into pipeline ops}}
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

// sm_103a and sm_110a have tcgen05 (and CTA pairs: their cta_group = 2
// pipeline is accepted), but MLIR 22's nvvm.tcgen05.commit verifies on
// sm_100a and sm_101a only: the reason is the toolchain, not the chip.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @b300 [#nvvm.target<chip = "sm_103a">] {
  gpu.func @release_mma_on_sm103a() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_consumer %p : !P
    // expected-error @+1 {{'pipeline.release_mma' op needs tcgen05.commit, which sm_103a has but MLIR 22's NVVM dialect (nvvm.tcgen05.commit) lowers only for sm_100a, sm_101a (chip from the #nvvm.target of gpu.module @b300)}}
    pipeline.release_mma %s : !pipeline.stage<consumer, !P>
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @thor [#nvvm.target<chip = "sm_110a">] {
  gpu.func @commit_mma_on_sm110a() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_producer %p : !P
    // expected-error @+1 {{'pipeline.commit_mma' op needs tcgen05.commit, which sm_110a has but MLIR 22's NVVM dialect (nvvm.tcgen05.commit) lowers only for sm_100a, sm_101a (chip from the #nvvm.target of gpu.module @thor)}}
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
    // expected-error @+1 {{'pipeline.init_mbars' op needs sm_90 or newer (mbarrier try_wait.parity, expect_tx and clusters), got sm_80 (chip from the #nvvm.target of gpu.module @ampere)}}
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
    // expected-note @+1 {{first tcgen05 instruction with a cta_group here (pipeline.commit_mma)}}
    pipeline.commit_mma %s : !pipeline.stage<producer, !P1>
    // expected-error @+1 {{'pipeline.commit_mma' op expects the tcgen05 instructions of a function to share one cta_group (ptxas rejects mixing .cta_group::1 and .cta_group::2), got cta_group 2 after cta_group 1}}
    pipeline.commit_mma %t : !pipeline.stage<producer, !P2>
    pipeline.release %s : !pipeline.stage<producer, !P1>
    pipeline.release %t : !pipeline.stage<producer, !P2>
    gpu.return
  }
}

// -----

// The kernel's own tcgen05 ops count too (found by the fuzzer: a TMEM
// allocation with the default cta_group 1 and a deallocation with
// cta_group 2 in one kernel passed and ptxas rejected the PTX). A
// cta_group = 2 pipeline's commit after a default-group allocation:
!P2 = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @upstream_mixed(%slot: !llvm.ptr<3>, %tmem: !llvm.ptr<6>) kernel {
    %cols = arith.constant 64 : i32
    // expected-note @+1 {{first tcgen05 instruction with a cta_group here (nvvm.tcgen05.alloc)}}
    nvvm.tcgen05.alloc %slot, %cols : !llvm.ptr<3>, i32
    // expected-error @+1 {{'nvvm.tcgen05.dealloc' op expects the tcgen05 instructions of a function to share one cta_group (ptxas rejects mixing .cta_group::1 and .cta_group::2), got cta_group 2 after cta_group 1}}
    nvvm.tcgen05.dealloc %tmem, %cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    gpu.return
  }
  gpu.func @pipeline_after_upstream(%slot: !llvm.ptr<3>) kernel {
    %cols = arith.constant 64 : i32
    // expected-note @+1 {{first tcgen05 instruction with a cta_group here (nvvm.tcgen05.alloc)}}
    nvvm.tcgen05.alloc %slot, %cols : !llvm.ptr<3>, i32
    %p = pipeline.create -> !P2
    %s = pipeline.acquire_producer %p : !P2
    // expected-error @+1 {{'pipeline.commit_mma' op expects the tcgen05 instructions of a function to share one cta_group (ptxas rejects mixing .cta_group::1 and .cta_group::2), got cta_group 2 after cta_group 1}}
    pipeline.commit_mma %s : !pipeline.stage<producer, !P2>
    pipeline.release %s : !pipeline.stage<producer, !P2>
    gpu.return
  }
  // One group throughout, and ops without a cta_group (fences, waits):
  // accepted.
  gpu.func @one_group(%slot: !llvm.ptr<3>, %tmem: !llvm.ptr<6>) kernel {
    %cols = arith.constant 64 : i32
    nvvm.tcgen05.alloc %slot, %cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i32
    nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
    %p = pipeline.create -> !P2
    %s = pipeline.acquire_producer %p : !P2
    pipeline.commit_mma %s : !pipeline.stage<producer, !P2>
    pipeline.release %s : !pipeline.stage<producer, !P2>
    nvvm.tcgen05.dealloc %tmem, %cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    gpu.return
  }
}

// -----

// With gpu.modules in the input, pipeline ops outside them are host code:
// reported once per host function.
!P = !pipeline.pipeline<stages = 2>
module attributes {gpu.container_module} {
  func.func @host() {
    // expected-error @+1 {{'pipeline.create' op expects to be in device code (a function in a gpu.module), got host function @host}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 : !P
    return
  }
  gpu.module @m {
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
func.func @not_outlined() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
    // expected-error @+1 {{'pipeline.create' op expects to be in a gpu.func: outline the gpu.launch body first (gpu-kernel-outlining)}}
    %p = pipeline.create -> !P
    gpu.terminator
  }
  return
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  // expected-error @+1 {{'pipeline.create' op expects to be inside a function}}
  %p = pipeline.create -> !P
}

// -----

// scf.execute_region is not rewritten by the structural conversions.
!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
gpu.module @m {
  gpu.func @execute_region() kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_consumer %p : !P
    %r = scf.execute_region -> !CS {
      // expected-error @+1 {{'scf.yield' op expects pipeline, role and stage values to flow only into pipeline ops, scf.for, scf.if, scf.while, scf.index_switch, cf.br and cf.cond_br (what the lowering rewrites), got an operand of type '!pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>'}}
      scf.yield %s : !CS
    }
    // expected-error @+1 {{'pipeline.release' op expects every pipeline, role and stage value to come from a pipeline op in the same function (the lowering keeps role state per pipeline.create), got a result of 'scf.execute_region' of type '!pipeline.stage<consumer, !pipeline.pipeline<stages = 2>>'}}
    pipeline.release %r : !CS
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
!CS = !pipeline.stage<consumer, !P>
gpu.module @m {
  gpu.func @switch_branch(%i: i32) kernel {
    %p = pipeline.create -> !P
    %s = pipeline.acquire_consumer %p : !P
    // expected-error @+1 {{'cf.switch' op expects pipeline, role and stage values to flow only into}}
    cf.switch %i : i32, [
      default: ^bb1(%s : !CS),
      0: ^bb1(%s : !CS)
    ]
  ^bb1(%h: !CS):
    pipeline.release %h : !CS
    gpu.return
  }
}

// -----

!P = !pipeline.pipeline<stages = 2>
gpu.module @m {
  gpu.func @select_pipeline(%c: i1) kernel {
    %p = pipeline.create -> !P
    %q = pipeline.create -> !P
    // expected-error @+1 {{'arith.select' op expects pipeline, role and stage values to flow only into}}
    %r = arith.select %c, %p, %q : !P
    // expected-error @+1 {{got a result of 'arith.select'}}
    pipeline.wait_producer %r : !P
    gpu.return
  }
}

// -----

// The CTAs of a cta_group = 2 pair arrive on each other's barriers: a
// CTA-only sync after the init would let the peer arrive on a barrier that
// is not initialized yet.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m {
  gpu.func @pair_without_cluster_sync() kernel {
    %p = pipeline.create -> !P
    // expected-error @+1 {{'pipeline.init_mbars' op expects 'cluster' for a pipeline whose CTAs signal each other (cta_group = 2, release_ctas > 1 or cluster_m x cluster_n > 1): they arrive on each other's barriers, so the whole cluster must synchronize after the init}}
    pipeline.init_mbars %p producer 1 consumer 2 : !P
    gpu.return
  }
}

// -----

// Likewise with release_ctas: consumers of both CTAs arrive on each other's
// empty barriers.
!P = !pipeline.pipeline<stages = 2, release_ctas = 2>
gpu.module @m {
  gpu.func @release_ctas_without_cluster_sync() kernel {
    %p = pipeline.create -> !P
    // expected-error @+1 {{'pipeline.init_mbars' op expects 'cluster' for a pipeline whose CTAs signal each other (cta_group = 2, release_ctas > 1 or cluster_m x cluster_n > 1)}}
    pipeline.init_mbars %p producer 1 consumer 2 : !P
    gpu.return
  }
}

// -----

// A kernel whose declared cluster (nvvm.cluster_dim) is smaller than the
// group of CTAs a pipeline's consumer signals reach: they would target CTAs
// that do not exist (a 4 x 1 multicast cluster in clusters of 2).
!P = !pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 4>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x32x32xf16, #gpu.address_space<workgroup>>]>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cluster_too_small(%buf: memref<2x1x32x32xf16, #gpu.address_space<workgroup>>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{'pipeline.create' op expects the kernel's cluster (nvvm.cluster_dim: 2 CTAs) to hold whole groups of the 4 CTAs this pipeline's signals reach (cluster_m = 4, cluster_n = 1): a signal would reach a CTA that does not exist}}
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x32x32xf16, #gpu.address_space<workgroup>>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 2 cluster : !TP
    gpu.return
  }
}

// -----

// The cross of a multicast cluster belongs to a pair's input pipeline: an
// accumulator pipeline (cta_group = 2, no tile pipeline wraps it) keeps its
// leader and pair targets, so a cluster shape on it is rejected.
!P = !pipeline.pipeline<stages = 2, cta_group = 2, cluster_m = 2, cluster_n = 2>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @cross_on_accumulator() kernel {
    // expected-error @+1 {{'pipeline.create' op expects cluster_m = cluster_n = 1 on a cta_group = 2 pipeline that no tile pipeline wraps (an accumulator pipeline: its consumer signals reach the leader, its MMA commits the pair), got cluster_m = 2, cluster_n = 2; the multicast cross belongs to the input tile pipeline}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 cluster : !P
    gpu.return
  }
}

// -----

// Hopper has no CTA-pair MMA: every cta_group = 2 pipeline is rejected on
// sm_90a, at the pipeline, with the chip named.
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @pair_on_hopper() kernel {
    // expected-error @+1 {{'pipeline.create' op expects cta_group = 1 on sm_90a, which has no CTA-pair (tcgen05 cta_group::2) MMA; cta_group = 2 needs sm_100a, sm_101a, sm_103a, sm_110a (chip from the #nvvm.target of gpu.module @m); for consumer signals that reach several CTAs of a cluster use release_ctas}}
    %p = pipeline.create -> !P
    pipeline.init_mbars %p producer 1 consumer 1 cluster : !P
    gpu.return
  }
}

// -----

// Likewise on sm_90, and for the pipeline under a tile pipeline.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @tile_pair_on_hopper(%buf: memref<2x1x8xf32, #WG>) kernel {
    // expected-error @+1 {{'pipeline.create' op expects cta_group = 1 on sm_90,}}
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 cluster : !TP
    gpu.return
  }
}

// -----

// release_mma is a tcgen05.commit: sm_100a only.
#WG = #gpu.address_space<workgroup>
!P = !pipeline.pipeline<stages = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @release_mma_on_hopper(%buf: memref<2x1x8xf32, #WG>) kernel {
    %p = pipeline.create -> !P
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P -> !TP
    pipeline.init_mbars %tp producer 1 consumer 1 : !TP
    %s = pipeline.acquire_consumer %tp : !TP
    // expected-error @+1 {{'pipeline.release_mma' op needs tcgen05.commit (sm_100a, sm_101a), which sm_90a lacks (chip from the #nvvm.target of gpu.module @m)}}
    pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
    pipeline.release %s : !pipeline.stage<consumer, !TP>
    gpu.return
  }
}

// -----

// commit_mma and release_mma share the kernel's one cta_group.
#WG = #gpu.address_space<workgroup>
!P1 = !pipeline.pipeline<stages = 2>
!P2 = !pipeline.pipeline<stages = 2, cta_group = 2>
!TP = !pipeline.tile_pipeline<pipeline = !P2, k_group_size = 1, payload = [memref<2x1x8xf32, #WG>]>
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @mixed_release_mma(%buf: memref<2x1x8xf32, #WG>) kernel {
    %acc = pipeline.create -> !P1
    %p = pipeline.create -> !P2
    %tp = pipeline.input_tile_pipeline %p payload(%buf : memref<2x1x8xf32, #WG>) : !P2 -> !TP
    %a = pipeline.acquire_producer %acc : !P1
    // expected-note @+1 {{first tcgen05 instruction with a cta_group here (pipeline.commit_mma)}}
    pipeline.commit_mma %a : !pipeline.stage<producer, !P1>
    %s = pipeline.acquire_consumer %tp : !TP
    // expected-error @+1 {{'pipeline.release_mma' op expects the tcgen05 instructions of a function to share one cta_group}}
    pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
    pipeline.release %s : !pipeline.stage<consumer, !TP>
    pipeline.release %a : !pipeline.stage<producer, !P1>
    gpu.return
  }
}
