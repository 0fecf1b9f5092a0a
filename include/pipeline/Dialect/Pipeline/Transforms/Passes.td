//===- Passes.td - pipeline dialect passes -----------------*- tablegen -*-===//

#ifndef PIPELINE_TRANSFORMS_PASSES_TD
#define PIPELINE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PipelineVerifyLinearity : Pass<"pipeline-verify-linearity"> {
  let summary = "check that every stage handle is released exactly once on "
                "every path";
  let description = [{
    Runs the stage-handle linearity analysis
    (`pmlir::verifyStageLinearity`, `Analysis/StageLinearity.h`) on every
    function nested in the anchor op and fails if it reports an error. The
    IR is not changed. It checks:

    1. every stage handle is consumed exactly once on every control-flow
       path (no leak, no double release, no use after release, no access to
       a payload tile after its stage was released);
    2. `scf.if` / `scf.index_switch` branches agree, loops (`scf.for`,
       `scf.while`, `cf` back edges) do not consume handles acquired outside
       them unless carried through iter_args / block arguments, and every
       `cf` merge sees the same handles held on all incoming edges;
    3. handles do not escape: passing one to `func.call`, returning or
       storing it, or handing it to an op that does not implement
       `pmlir::StageUseOpInterface` is an error;
    4. at most one outstanding stage per (pipeline, role) on any path, and
       `produce` / `consume` regions own their stage;
    5. no double signal (`arrive` then `release` on a consumer stage) and
       no missing signal (a stage ended without any visible arrival on its
       barrier).

    Run it first in any lowering pipeline: the lowering assumes a linear
    use of the handles. docs/verifier.md describes every rule with an
    example.

    Example:

    ```
    pipeline-opt -pipeline-verify-linearity kernel.mlir
    ```
  }];
  let options = [
    Option<"reportWork", "report-work", "bool", /*default=*/"false",
           "Emit a remark at the anchor op with the work counters of the "
           "analysis (ops visited, handle state changes, log entries read, "
           "CFG blocks and edge-state entries): bench/linearity uses them "
           "to show that the work per op does not grow with the input">
  ];
}

def PipelineVerifyProtocol : Pass<"pipeline-verify-protocol"> {
  let summary = "check the barrier protocol of every pipeline";
  let description = [{
    Checks what a pipeline needs beyond its handles' linearity, where a
    mistake hangs the kernel without any other sign. Today:

    1. initialization (`pmlir::verifyPipelineInit`,
       `Analysis/PipelineInit.h`): every `pipeline.create` has exactly one
       `pipeline.init_mbars`, in the function's entry block (executed by
       every thread: it ends with a CTA or cluster barrier), before every
       other use of the pipeline.

    The lowering pipelines (`pipeline-lower-to-nvvm`,
    `pipeline-lower-to-binary`) and `pipeline-compile` run it after
    `pipeline-verify-linearity`. docs/verifier.md describes every rule with
    an example. The IR is not changed.

    Example:

    ```
    pipeline-opt -pipeline-verify-protocol kernel.mlir
    ```
  }];
}

#endif // PIPELINE_TRANSFORMS_PASSES_TD
