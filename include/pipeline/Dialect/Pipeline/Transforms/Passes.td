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
    5. no double signal (two arrivals of one thread on one stage's barrier
       where one runs whenever the other does: `arrive` then `release` on a
       plain consumer stage, `arrive` twice, a lane-guarded arrive then an
       unguarded one, `arrive` then `commit` on a producer stage), no
       missing signal (a consumer or producer stage ended without any
       visible arrival on its barrier), and no handle-free step
       (`consumer_step`, `producer_step`, `*_signal_and_step`,
       `drain_producer`) while a handle of that role is held.

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
    mistake hangs the kernel or corrupts its data without any other sign:

    1. initialization (`pmlir::verifyPipelineInit`,
       `Analysis/PipelineInit.h`): every `pipeline.create` has exactly one
       `pipeline.init_mbars`, in the function's entry block (executed by
       every thread: it ends with a CTA or cluster barrier), before every
       other use of the pipeline.

    Once that holds (`pmlir::verifyPipelineProtocol`,
    `Analysis/ProtocolChecks.h`), where the IR determines the answer:

    2. arrival counts: with the block size known (`known_block_size`,
       `nvvm.reqntid` / `maxntid`, a constant `gpu.launch`), the threads
       that signal each `full` and `empty` barrier per phase, given by the
       warp-role and lane conditions around the signals (thread and lane
       ids, `nvvm.elect.sync`, the cluster rank) and by where the signals
       land (`cta_group`, `release_ctas`), are the counts of `init_mbars`;
    3. `expect_tx`: the bytes a producer stage arms equal the bytes of the
       `nvgpu.tma.async.load`s completing on its barrier (multicast
       included);
    4. trip counts: the producer and the consumer move the same number of
       items, where the loops around them prove otherwise;
    5. drain: when the CTAs signal each other (`cta_group = 2`,
       `release_ctas > 1`, a multicast load, `nvvm.mapa`), the producer
       reaches the kernel exit only through `pipeline.drain_producer` or a
       cluster barrier, on every path.

    Where the IR does not determine the answer (an unknown block size, a
    data-dependent condition, a loop without constant trip count, ...) the
    checks say nothing: every diagnostic is a real mistake on some path.

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

def UnrollStages : Pass<"pipeline-unroll-stages"> {
  let summary = "unroll steady-state loops by the stage count";
  let description = [{
    Runs before convert-pipeline-to-nvgpu. An `scf.for` (index induction
    variable, signed) whose body steps one or more roles of pipelines
    exactly once per iteration (one `produce`, `consume`,
    `consume_explicit`, `release`, `commit`, `step`, ... per role, directly
    in the loop body), all with the same stage count S, and holds at most
    `max-body-ops` operations, becomes three loops: a rolled prologue that
    runs until the first of those roles is at stage 0 (no iteration right
    after the pipeline's init), the body unrolled S times (one round of the
    ring; two rounds with `rotate-wait`, below), entered only when every
    stepped role is at stage 0, and a rolled epilogue for the remaining
    iterations. In copy j of the unrolled body
    every op that reads or steps a stepped role carries
    `pipeline.known_stage = j mod S` (or j + 1 mod S after the role's
    step): the
    lowering turns the stage into a constant, so that barrier and slot
    addresses become immediates and a step becomes a constant store (the
    phase flips once per round), as in a hand-written ring unrolled by its
    stage count, and waits with a convergent try_wait loop that LLVM does
    not duplicate into the paths of a lane branch. A one-stage loop is not
    unrolled: its ops are marked with stage 0 in place. When the loop's
    bounds are 32-bit values (a sign-extending `index_cast` of an i32, a
    constant) and its step a constant, the unrolled loop counts in i32 (the
    body gets its index through a cast), as a hand-written ring's `int`
    counter does.

    With `rotate-wait` (the default), a loop that is not nested in another
    loop and whose body's first op with effects is a plain acquire of a
    stepped role (`produce`, `consume`, `consume_explicit`,
    `acquire_producer`, `acquire_consumer` without a ready token, no
    sub-stages) is unrolled by two rounds of the ring (2 S copies), so that
    every copy's wait parity is the same in each iteration, and that
    acquire's wait moves one iteration ahead: a `wait_producer` /
    `wait_consumer` (stage 0) before the loop and at the end of the body,
    the last iteration peeled without it, and the acquire marked
    `pipeline.waited_ahead` (it takes the stage without waiting). The loop
    then starts with the first copy's work instead of a wait, whose retry
    ptxas would otherwise keep inline. Only ops with neither memory effects
    nor protocol effects (no wait, signal or step, also nested: a scoped
    op with a pure region still waits and signals) precede the acquire, so
    the earlier wait cannot wait for anything the thread does before it.

    Not unrolled: loops that drain, step a role under an `scf.if` or in a
    nested loop, step it twice, use a handle whose acquire the pass cannot
    see (a loop-carried handle), step a consumer with `consumer_depth > 1`
    (it steps at the acquire), or step roles of pipelines with different
    stage counts.
  }];
  let options = [
    Option<"maxBodyOps", "max-body-ops", "unsigned", /*default=*/"64",
           "unroll only loops whose body holds at most this many operations "
           "(nested ones included); large bodies gain little and grow the "
           "code S + 2 times (4 S + 2 with rotate-wait: 2 S copies and the "
           "peeled 2 S)">,
    Option<"rotateWait", "rotate-wait", "bool", /*default=*/"true",
           "for a loop not nested in another loop whose body's first op "
           "with effects is a plain acquire: "
           "unroll by two rounds (2 S copies, every copy's parity the same "
           "in each iteration) and move that acquire's wait to the end of "
           "the previous iteration, so that the loop does not start with a "
           "wait">,
  ];
  let statistics = [
    Statistic<"numLoops", "loops", "scf.for loops looked at">,
    Statistic<"numUnrolled", "loops-unrolled",
              "loops unrolled by their stage count">,
    Statistic<"numCopies", "body-copies",
              "copies of loop bodies in the unrolled loops (the peeled "
              "iteration of a rotated loop included)">,
    Statistic<"numRotated", "waits-rotated",
              "unrolled loops whose first wait moved to the previous "
              "iteration">,
    Statistic<"numOneStage", "one-stage-loops",
              "one-stage loops marked with stage 0 in place">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // PIPELINE_TRANSFORMS_PASSES_TD
