// Found by fuzzing (the run on the final build, docs/robustness.md): a
// crossover of examples/sm100_matmul_pipelines.mlir put the cta_group = 2
// kernel's `nvvm.tcgen05.dealloc {group = cta_2}` into a kernel that
// allocates with the default cta_group (1). The compiler accepted it and
// ptxas rejected the PTX ("uses single CTA (.cta_group::1) and CTA pair
// granularity (.cta_group::2)").
// Fix: the preconditions of convert-pipeline-to-nvgpu
// (lib/Conversion/PipelineToNVGPU) require one cta_group for all tcgen05
// instructions of a function, the kernel's own nvvm.tcgen05.* ops included.
// Lit test: test/Conversion/PipelineToNVGPU/invalid.mlir (@upstream_mixed).
// Replay: rejected by the checkers, nothing is lowered.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @k(%slot: !llvm.ptr<3>, %tmem: !llvm.ptr<6>) kernel {
    %cols = arith.constant 64 : i32
    nvvm.tcgen05.alloc %slot, %cols : !llvm.ptr<3>, i32
    nvvm.tcgen05.dealloc %tmem, %cols {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<6>, i32
    gpu.return
  }
}
