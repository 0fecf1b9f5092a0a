//===- PipelineOps.td - pipeline dialect ops ---------------*- tablegen -*-===//
//
// Ops keep the method names of the reference Mojo `pipeline` module
// (docs/reference-mapping.md maps every method to its op).
//
//===----------------------------------------------------------------------===//

#ifndef PIPELINE_OPS_TD
#define PIPELINE_OPS_TD

include "pipeline/Dialect/Pipeline/IR/PipelineDialect.td"
include "pipeline/Dialect/Pipeline/IR/PipelineTypes.td"
include "pipeline/Dialect/Pipeline/IR/PipelineInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Pipeline_AnyBarrierPipeline : AnyTypeOf<
    [Pipeline_PipelineType, Pipeline_TilePipelineType],
    "pipeline or tile pipeline">;

def Pipeline_AnyMbarSource : AnyTypeOf<
    [Pipeline_PipelineType, Pipeline_TilePipelineType, Pipeline_RoleType],
    "pipeline, tile pipeline or role pipeline">;

def Pipeline_AnyStage : Type<CPred<"::llvm::isa<::pmlir::StageType>($_self)">,
    "stage handle", "::pmlir::StageType">;

def Pipeline_ProducerStage : Type<
    CPred<"::llvm::isa<::pmlir::StageType>($_self) && "
          "::llvm::cast<::pmlir::StageType>($_self).isProducer()">,
    "producer stage handle", "::pmlir::StageType">;

def Pipeline_ConsumerStage : Type<
    CPred<"::llvm::isa<::pmlir::StageType>($_self) && "
          "::llvm::cast<::pmlir::StageType>($_self).isConsumer()">,
    "consumer stage handle", "::pmlir::StageType">;

def Pipeline_TileStage : Type<
    CPred<"::llvm::isa<::pmlir::StageType>($_self) && ::llvm::isa<"
          "::pmlir::TilePipelineType>(::llvm::cast<::pmlir::StageType>("
          "$_self).getPipeline())">,
    "stage handle of a tile pipeline", "::pmlir::StageType">;

def Pipeline_ProducerRole : Type<
    CPred<"::llvm::isa<::pmlir::RoleType>($_self) && "
          "::llvm::cast<::pmlir::RoleType>($_self).getRole() == "
          "::pmlir::Role::producer">,
    "producer role pipeline", "::pmlir::RoleType">;

def Pipeline_ConsumerRole : Type<
    CPred<"::llvm::isa<::pmlir::RoleType>($_self) && "
          "::llvm::cast<::pmlir::RoleType>($_self).getRole() == "
          "::pmlir::Role::consumer">,
    "consumer role pipeline", "::pmlir::RoleType">;

def Pipeline_WorkgroupMemRef : Type<
    And<[IsMemRefTypePred,
         CPred<"::pmlir::isWorkgroupMemRef(::llvm::cast<::mlir::MemRefType>($_self))">]>,
    "memref in the workgroup (shared) address space", "::mlir::MemRefType">;

def Pipeline_LLVMPointer : Type<
    CPred<"::llvm::isa<::mlir::LLVM::LLVMPointerType>($_self)">,
    "LLVM pointer", "::mlir::LLVM::LLVMPointerType">;

// Result-type builders used by TypesMatchWith so that the assembly format
// never has to spell the handle or barrier-group types.
class Pipeline_StageOf<string role> :
  StrFunc<"::pmlir::StageType::get($_self.getContext(), ::pmlir::Role::" # role
          # ", $_self)">;
class Pipeline_RoleStage<string role> :
  StrFunc<"::pmlir::StageType::get($_self.getContext(), ::pmlir::Role::" # role
          # ", ::llvm::cast<::pmlir::RoleType>($_self).getPipeline())">;
def Pipeline_GroupOf : StrFunc<"::pmlir::getMBarrierGroupType($_self)">;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

// Every op implements ProtocolOpInterface: its protocol effects and chip
// feature come from the Pipeline_Effects / Pipeline_Requires traits in its
// trait list (none for an op without them).
class Pipeline_Op<string mnemonic, list<Trait> traits = []>
    : Op<Pipeline_Dialect, mnemonic,
         !listconcat(traits, [Pipeline_ProtocolOpInterface])> {
  // The syntax of an op with a custom parser, in the notation of
  // assemblyFormat, for the tools that print ops without the C++ printer
  // (the Python builder, scripts/gen-python.py). Unused when the op has an
  // assemblyFormat.
  string pythonFormat = "";
}

// An op that takes a stage handle and only reads it.
class Pipeline_BorrowingStageOp<string mnemonic, list<Trait> traits = []>
    : Pipeline_Op<mnemonic, !listconcat(traits,
        [DeclareOpInterfaceMethods<Pipeline_StageUseOpInterface>])> {
  let extraClassDefinition = [{
    bool $cppClass::consumesStage(::mlir::OpOperand &) { return false; }
  }];
}

// An op that ends the life of a stage handle.
class Pipeline_ConsumingStageOp<string mnemonic, list<Trait> traits = []>
    : Pipeline_Op<mnemonic, !listconcat(traits,
        [DeclareOpInterfaceMethods<Pipeline_StageUseOpInterface>])> {
  let extraClassDefinition = [{
    bool $cppClass::consumesStage(::mlir::OpOperand &) { return true; }
  }];
}

//===----------------------------------------------------------------------===//
// Creation and initialization
//===----------------------------------------------------------------------===//

def Pipeline_CreateOp : Pipeline_Op<"create", [AttrSizedOperandSegments]> {
  let summary = "create the barrier storage of a pipeline";
  let description = [{
    Creates the `full` and `empty` mbarriers of a pipeline in shared memory.
    Without operands the op allocates the storage itself (a workgroup global
    per op). With `in %buf[%offset]` the barriers are placed in a workgroup
    buffer the kernel owns, at a byte offset that must be a multiple of 8;
    `pipeline.smem_bytes` tells how many bytes they take.

    The per-thread role state starts at stage 0 with phase 1 for the
    producer and phase 0 for the consumer. The barriers must be initialized
    with `pipeline.init_mbars` before any other use.

    The optional `name` (in the attribute dictionary) names the pipeline in
    the hang report: a wait that times out reports it with the role, stage
    and parity (docs/debugging.md). Without it the report names the
    pipeline by the location of its `pipeline.create`.

    Example:

    ```mlir
    %p = pipeline.create -> !pipeline.pipeline<stages = 4>
    %smem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %q = pipeline.create in %smem[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
           -> !pipeline.pipeline<stages = 2>
    %r = pipeline.create {name = "input"} -> !pipeline.pipeline<stages = 2>
    ```
  }];
  let arguments = (ins Optional<Pipeline_WorkgroupMemRef>:$storage,
                       Optional<Index>:$offset,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs Pipeline_PipelineType:$result);
  let assemblyFormat = [{
    (`in` $storage^ `[` $offset `]` `:` qualified(type($storage)))? attr-dict
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Pipeline_SmemBytesOp : Pipeline_Op<"smem_bytes", [Pure]> {
  let summary = "shared-memory bytes taken by a pipeline's barriers";
  let description = [{
    The number of shared-memory bytes that the barriers of a pipeline of the
    given type take (8 bytes per barrier, `2 * stages` barriers without
    sub-stages), or a `!pipeline.tmem` its barrier and address word (16).
    Folds to a constant.

    Example:

    ```mlir
    %n = pipeline.smem_bytes !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins TypeAttrOf<AnyTypeOf<[Pipeline_PipelineType,
                                             Pipeline_TmemType]>>:$pipeline_type);
  let results = (outs Index:$result);
  let assemblyFormat = "$pipeline_type attr-dict";
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The bytes the op folds to.
    uint64_t getBytes();
  }];
}

def Pipeline_InitMbarsOp
    : Pipeline_Op<"init_mbars", [
        Pipeline_Requires<"MBarrierTx">]> {
  let summary = "initialize the barriers of a pipeline";
  let description = [{
    Initializes every `full` barrier with `producer_arrive_count` and every
    `empty` barrier with `consumer_arrive_count` (the arrivals that complete
    one phase). Unlike the reference, which leaves the election and the
    fences to the caller, this op is *collective*: every thread of the CTA
    executes it; the lowering elects one thread that runs the inits and
    `fence.mbarrier_init`, then synchronizes the CTA, or with `cluster` the
    whole cluster (required when other CTAs arrive remotely: `cta_group =
    2` or `release_ctas > 1`). Every created pipeline needs exactly one,
    in the function's entry block (not under a branch or a loop: every
    thread must reach its barrier) and before any other use of the
    pipeline. The reference `InputTilePipeline.init_barriers` is the same
    op on a tile pipeline.

    Example:

    ```mlir
    pipeline.init_mbars %p producer 1 consumer 4 : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyBarrierPipeline:$pipeline,
                       I32Attr:$producer_arrive_count,
                       I32Attr:$consumer_arrive_count,
                       UnitAttr:$cluster);
  let assemblyFormat = [{
    $pipeline `producer` $producer_arrive_count `consumer`
    $consumer_arrive_count (`cluster` $cluster^)? attr-dict `:` qualified(type($pipeline))
  }];
  let hasVerifier = 1;
}

def Pipeline_InputTilePipelineOp
    : Pipeline_Op<"input_tile_pipeline", [
        Pure,
        Pipeline_PipelineView]> {
  let summary = "attach payload tile arrays to a pipeline";
  let description = [{
    Builds a tile pipeline (the reference `InputTilePipeline`) from a
    pipeline's barriers and one or more payload tile arrays in shared
    memory. Each payload must have shape `[stages, k_group_size, ...]` and
    live in the workgroup address space; the result type lists the payload
    types in order.

    Example:

    ```mlir
    %tp = pipeline.input_tile_pipeline %p payload(%a : memref<4x2x64x64xf16, #gpu.address_space<workgroup>>)
        : !pipeline.pipeline<stages = 4>
        -> !pipeline.tile_pipeline<pipeline = !pipeline.pipeline<stages = 4>, k_group_size = 2,
             payload = [memref<4x2x64x64xf16, #gpu.address_space<workgroup>>]>
    ```
  }];
  let arguments = (ins Pipeline_PipelineType:$pipeline,
                       Variadic<Pipeline_WorkgroupMemRef>:$payload);
  let results = (outs Pipeline_TilePipelineType:$result);
  let assemblyFormat = [{
    $pipeline `payload` `(` $payload `:` qualified(type($payload)) `)` attr-dict
    `:` qualified(type($pipeline)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Pipeline_RoleOp : Pipeline_Op<"role", [Pure, Pipeline_PipelineView]> {
  let summary = "view a pipeline from one role";
  let description = [{
    Returns the reference `RolePipeline` view of a pipeline: the role is in
    the result type. The view shares that role's per-thread state.

    Example:

    ```mlir
    %prod = pipeline.role %p : !pipeline.pipeline<stages = 2>
        -> !pipeline.role<producer, !pipeline.pipeline<stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_PipelineType:$pipeline);
  let results = (outs Pipeline_RoleType:$result);
  let assemblyFormat = "$pipeline attr-dict `:` qualified(type($pipeline)) `->` qualified(type($result))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Direct API (no handle)
//===----------------------------------------------------------------------===//

class Pipeline_DirectOp<string mnemonic, string sum, string desc,
                        list<Trait> traits = []>
    : Pipeline_Op<mnemonic, traits> {
  let summary = sum;
  let description = desc # [{

    Example:

    ```mlir
    pipeline.}] # mnemonic # [{ %p : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyBarrierPipeline:$pipeline);
  let assemblyFormat = "$pipeline attr-dict `:` qualified(type($pipeline))";
}

def Pipeline_WaitProducerOp : Pipeline_DirectOp<"wait_producer",
  "consumer waits for the producer to fill the current stage", [{
    Waits on the consumer's current `full` barrier with the consumer's
    phase. Does not step.
  }], [Pipeline_Effects<"Consumer", "Reads", "Blocks", "None">]>;

def Pipeline_WaitConsumerOp : Pipeline_DirectOp<"wait_consumer",
  "producer waits for the consumer to free the current stage", [{
    Waits on the producer's current `empty` barrier with the producer's
    phase. Does not step.
  }], [Pipeline_Effects<"Producer", "Reads", "Blocks", "None">]>;

def Pipeline_ProducerStepOp : Pipeline_DirectOp<"producer_step",
  "advance the producer to the next stage", [{
    `stage += 1`; on wrap to 0 the producer phase flips.
  }], [Pipeline_Effects<"Producer", "Always", "None", "None">]>;

def Pipeline_ConsumerStepOp : Pipeline_DirectOp<"consumer_step",
  "advance the consumer to the next stage", [{
    `stage += 1`; on wrap to 0 the consumer phase flips.
  }], [Pipeline_Effects<"Consumer", "Always", "None", "None">]>;

def Pipeline_ProducerSignalAndStepOp : Pipeline_DirectOp<"producer_signal_and_step",
  "wait for the consumer, signal production and step", [{
    Waits on the producer's current `empty` barrier, arrives on its `full`
    barrier, then steps the producer (the reference's CLC throttle, load
    side).
  }], [Pipeline_Effects<"Producer", "Always", "Blocks", "Arrive">]>;

def Pipeline_ConsumerSignalAndStepOp : Pipeline_DirectOp<"consumer_signal_and_step",
  "wait for the producer, signal consumption and step", [{
    Waits on the consumer's current `full` barrier, arrives on its `empty`
    barrier, then steps the consumer (the reference's CLC throttle,
    scheduler side).
  }], [Pipeline_Effects<"Consumer", "Always", "Blocks", "Arrive">]>;

def Pipeline_DrainProducerOp : Pipeline_DirectOp<"drain_producer",
  "wait until the consumer has freed every stage", [{
    Run by the producer after its last stage: `stages` times, waits on the
    current stage's `empty` barrier (sub-stage 0) with the producer phase
    and steps, so that the CTA does not exit while a peer still arrives on
    its barriers or reads its shared memory (the reference
    `drain_producer`, CUTLASS `producer_tail`).
  }], [Pipeline_Effects<"Producer", "Drain", "Blocks", "None">]>;

class Pipeline_TryOp<string mnemonic, string sum, string desc,
                     list<Trait> traits = []>
    : Pipeline_DirectOp<mnemonic, sum, desc, traits> {
  let results = (outs I1:$ready);
  let assemblyFormat = "$pipeline attr-dict `:` qualified(type($pipeline))";
  let description = desc # [{

    Example:

    ```mlir
    %ready = pipeline.}] # mnemonic # [{ %p : !pipeline.pipeline<stages = 4>
    ```
  }];
}

def Pipeline_TryWaitProducerOp : Pipeline_TryOp<"try_wait_producer",
  "test whether the producer has filled the current stage", [{
    One non-blocking `try_wait.parity` on the consumer's current `full`
    barrier; true when the stage holds data. Pair it with
    `wait_producer_if_needed` or `acquire_consumer ready(...)`.
  }], [Pipeline_Effects<"Consumer", "Reads", "Tries", "None">]>;

def Pipeline_TryWaitConsumerOp : Pipeline_TryOp<"try_wait_consumer",
  "test whether the consumer has freed the current stage", [{
    One non-blocking `try_wait.parity` on the producer's current `empty`
    barrier; true when the stage may be overwritten.
  }], [Pipeline_Effects<"Producer", "Reads", "Tries", "None">]>;

def Pipeline_TryAcquireProducerOp : Pipeline_TryOp<"try_acquire_producer",
  "test whether the next producer stage is available", [{
    The tile-pipeline spelling of `try_wait_consumer`: true when the
    consumer has freed the producer's current stage.
  }], [Pipeline_Effects<"Producer", "Reads", "Tries", "None">]>;

def Pipeline_TryAcquireConsumerOp : Pipeline_TryOp<"try_acquire_consumer",
  "test whether the next consumer stage has data", [{
    The tile-pipeline spelling of `try_wait_producer`: true when the
    producer has filled the consumer's current stage.
  }], [Pipeline_Effects<"Consumer", "Reads", "Tries", "None">]>;

class Pipeline_WaitIfNeededOp<string mnemonic, string sum, string desc,
                              list<Trait> traits = []>
    : Pipeline_Op<mnemonic, traits> {
  let summary = sum;
  let description = desc # [{

    Example:

    ```mlir
    pipeline.}] # mnemonic # [{ %p, %ready : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyBarrierPipeline:$pipeline, I1:$already_ready);
  let assemblyFormat = "$pipeline `,` $already_ready attr-dict `:` qualified(type($pipeline))";
}

def Pipeline_WaitProducerIfNeededOp : Pipeline_WaitIfNeededOp<"wait_producer_if_needed",
  "consumer waits for the producer unless a try already succeeded", [{
    Waits like `wait_producer` only when `already_ready` (the result of
    `try_wait_producer`) is false.
  }], [Pipeline_Effects<"Consumer", "Reads", "Blocks", "None">]>;

def Pipeline_WaitConsumerIfNeededOp : Pipeline_WaitIfNeededOp<"wait_consumer_if_needed",
  "producer waits for the consumer unless a try already succeeded", [{
    Waits like `wait_consumer` only when `already_ready` (the result of
    `try_wait_consumer`) is false.
  }], [Pipeline_Effects<"Producer", "Reads", "Blocks", "None">]>;

class Pipeline_MbarOfOp<string mnemonic, string sum, string desc,
                        list<Trait> traits = []>
    : Pipeline_Op<mnemonic, !listconcat(traits, [Pure,
        TypesMatchWith<"barrier group matches the pipeline", "pipeline",
                       "barriers", Pipeline_GroupOf.result>])> {
  let summary = sum;
  let description = desc # [{
    The result is an upstream `!nvgpu.mbarrier.group` holding all barriers
    of the pipeline and the index of the requested one, ready for
    `nvgpu.tma.async.load`, `nvgpu.mbarrier.*` or `nvgpu.mbarrier.get`.

    Example:

    ```mlir
    %bars, %id = pipeline.}] # mnemonic # [{ %p[%s] : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyMbarSource:$pipeline, Index:$stage,
                       DefaultValuedAttr<I32Attr, "0">:$sub_stage);
  let results = (outs AnyType:$barriers, Index:$mbar_id);
  let assemblyFormat = [{
    $pipeline `[` $stage `]` (`sub_stage` $sub_stage^)? attr-dict
    `:` qualified(type($pipeline))
  }];
  let hasVerifier = 1;
}

def Pipeline_ProducerMbarOp : Pipeline_MbarOfOp<"producer_mbar",
  "the `full` barrier of a stage", [{
    The barrier that the producer signals for stage `stage` (and sub-stage
    `sub_stage` < `producer_sub_stages`).
  }], [Pipeline_Effects<"Producer", "None", "None", "Address">]>;

def Pipeline_ConsumerMbarOp : Pipeline_MbarOfOp<"consumer_mbar",
  "the `empty` barrier of a stage", [{
    The barrier that the consumer signals for stage `stage` (and sub-stage
    `sub_stage` < `consumer_sub_stages`).
  }], [Pipeline_Effects<"Consumer", "None", "None", "Address">]>;

class Pipeline_StageIndexOfOp<string mnemonic, string sum,
                              list<Trait> traits = []>
    : Pipeline_Op<mnemonic, traits> {
  let summary = sum;
  let description = [{
    Reads the current stage index of the role's per-thread state.

    Example:

    ```mlir
    %s = pipeline.}] # mnemonic # [{ %p : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyMbarSource:$pipeline);
  let results = (outs Index:$stage);
  let assemblyFormat = "$pipeline attr-dict `:` qualified(type($pipeline))";
}

def Pipeline_ProducerStageOp : Pipeline_StageIndexOfOp<"producer_stage",
  "the producer's current stage index",
  [Pipeline_Effects<"Producer", "Reads", "None", "None">]>;
def Pipeline_ConsumerStageOp : Pipeline_StageIndexOfOp<"consumer_stage",
  "the consumer's current stage index",
  [Pipeline_Effects<"Consumer", "Reads", "None", "None">]>;

//===----------------------------------------------------------------------===//
// Stage handles
//===----------------------------------------------------------------------===//

def Pipeline_AcquireProducerOp
    : Pipeline_Op<"acquire_producer", [
        Pipeline_Effects<"Producer", "AtAcquire", "Blocks", "None">,
        Pipeline_AcquiresStage,
    TypesMatchWith<"result is a producer stage of the pipeline", "pipeline",
                   "stage", Pipeline_StageOf<"producer">.result>]> {
  let summary = "wait for a free stage and return its producer handle";
  let description = [{
    Waits until the consumer has freed the producer's current stage (its
    `empty` barrier, producer phase) and returns a linear producer stage
    handle. With `ready(%r)`, the wait is skipped when `%r` (from
    `try_acquire_producer` / `try_wait_consumer`) is true.

    Example:

    ```mlir
    %s = pipeline.acquire_producer %p : !pipeline.pipeline<stages = 4>
    %t = pipeline.acquire_producer %p ready(%r) : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyBarrierPipeline:$pipeline, Optional<I1>:$ready);
  let results = (outs Pipeline_ProducerStage:$stage);
  let assemblyFormat = [{
    $pipeline (`ready` `(` $ready^ `)`)? attr-dict `:` qualified(type($pipeline))
  }];
}

def Pipeline_AcquireConsumerOp
    : Pipeline_Op<"acquire_consumer", [
        Pipeline_Effects<"Consumer", "AtAcquire", "Blocks", "None">,
        Pipeline_AcquiresStage,
    TypesMatchWith<"result is a consumer stage of the pipeline", "pipeline",
                   "stage", Pipeline_StageOf<"consumer">.result>]> {
  let summary = "wait for a full stage and return its consumer handle";
  let description = [{
    Waits until the producer has filled the consumer's current stage (its
    `full` barrier, consumer phase) and returns a linear consumer stage
    handle. With `ready(%r)`, the wait is skipped when `%r` is true.

    Example:

    ```mlir
    %s = pipeline.acquire_consumer %p : !pipeline.pipeline<stages = 4>
    ```
  }];
  let arguments = (ins Pipeline_AnyBarrierPipeline:$pipeline, Optional<I1>:$ready);
  let results = (outs Pipeline_ConsumerStage:$stage);
  let assemblyFormat = [{
    $pipeline (`ready` `(` $ready^ `)`)? attr-dict `:` qualified(type($pipeline))
  }];
}

def Pipeline_IndexOp
    : Pipeline_BorrowingStageOp<"index", [
        Pipeline_Effects<"OfStage", "None", "None", "None">,
        Pure]> {
  let summary = "the stage index of a handle";
  let description = [{
    Example:

    ```mlir
    %i = pipeline.index %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
    ```
  }];
  let arguments = (ins Pipeline_AnyStage:$stage);
  let results = (outs Index:$index);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
}

def Pipeline_MbarOp
    : Pipeline_BorrowingStageOp<"mbar", [
        Pipeline_Effects<"OfStage", "None", "None", "Address">, Pure,
    TypesMatchWith<"barrier group matches the stage's pipeline", "stage",
                   "barriers", Pipeline_GroupOf.result>]> {
  let summary = "the barrier a stage handle signals";
  let description = [{
    The barrier that the handle's role signals for its stage: the `full`
    barrier for a producer handle, the `empty` barrier for a consumer
    handle (sub-stage `sub_stage`). Returned as an upstream
    `!nvgpu.mbarrier.group` and an index, to pass straight to
    `nvgpu.tma.async.load` or `nvgpu.mbarrier.arrive.expect_tx`.

    Example:

    ```mlir
    %bars, %id = pipeline.mbar %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
    nvgpu.tma.async.load %desc[%x, %y], %bars[%id] to %dst : ...
    ```
  }];
  let arguments = (ins Pipeline_AnyStage:$stage,
                       DefaultValuedAttr<I32Attr, "0">:$sub_stage);
  let results = (outs AnyType:$barriers, Index:$mbar_id);
  let assemblyFormat = [{
    $stage (`sub_stage` $sub_stage^)? attr-dict `:` qualified(type($stage))
  }];
  let hasVerifier = 1;
}

def Pipeline_ArriveOp
    : Pipeline_BorrowingStageOp<"arrive", [
        Pipeline_Effects<"OfStage", "None", "None", "Arrive">]> {
  let summary = "arrive on the barrier of a stage handle";
  let description = [{
    The executing thread arrives once on the barrier its role signals for
    the handle's stage (`full` for a producer, `empty` for a consumer). A
    consumer's arrival reaches the CTAs the pipeline type names: both CTAs
    of the pair for a `cta_group = 2` tile pipeline, the leader for a
    `cta_group = 2` plain pipeline, each CTA of the group with
    `release_ctas` (one remote `mbarrier.arrive` per CTA).
    Use it for lane-guarded signalling, then `release_without_signal`.

    Example:

    ```mlir
    scf.if %lane_is_leader {
      pipeline.arrive %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
    }
    pipeline.release_without_signal %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
    ```
  }];
  let arguments = (ins Pipeline_AnyStage:$stage);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
}

def Pipeline_ExpectTxOp
    : Pipeline_BorrowingStageOp<"expect_tx", [
        Pipeline_Effects<"OfStage", "None", "None", "ExpectTx">]> {
  let summary = "arrive on a producer stage's barrier expecting TMA bytes";
  let description = [{
    `mbarrier.arrive.expect_tx` on the `full` barrier of the producer's
    stage. On a tile pipeline the byte count defaults to the bytes of one
    stage's payload tiles times `cta_group`; on a plain pipeline `bytes`
    must be given. With `cta_group = 2` only the leader CTA of the pair
    arms its barrier (the MMA waits there for both CTAs' loads, as CUTLASS
    arms only when `is_leader`); in the peer CTA the op does nothing. The asynchronous copies that complete the transaction
    use `pipeline.mbar`.

    Example:

    ```mlir
    pipeline.expect_tx %s : !pipeline.stage<producer, !pipeline.tile_pipeline<...>>
    pipeline.expect_tx %t bytes(%n) : !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
    ```
  }];
  let arguments = (ins Pipeline_ProducerStage:$stage, Optional<Index>:$bytes);
  let assemblyFormat = [{
    $stage (`bytes` `(` $bytes^ `)`)? attr-dict `:` qualified(type($stage))
  }];
  let hasVerifier = 1;
}

def Pipeline_TmaLoadOp
    : Pipeline_BorrowingStageOp<"tma_load", [
        Pipeline_Effects<"OfStage", "None", "None", "None">,
        Pipeline_Requires<"MBarrierTx">, AttrSizedOperandSegments]> {
  let summary = "a TMA load completing on a producer stage's full barrier";
  let description = [{
    The executing thread issues one `cp.async.bulk.tensor` of the box at
    `coordinates` of the tensor map `descriptor` (a pointer to a
    `CUtensorMap`, as the kernel receives it) into `dst`, a shared-memory
    buffer of this CTA (usually a `pipeline.payload` of the stage or a
    subview of it), completing its bytes on the `full` barrier of the
    handle's stage. The box is `dst`'s bytes: the tensor map must describe
    that box.

    With `cta_group = 2` the load is the 2-SM load (CUTLASS
    `SM100_TMA_2SM_LOAD`, the reference's `tma_op.async_copy` with
    `cta_group = 2`): `.cta_group::2`, and its bytes complete on the stage's
    full barrier in the *leader* CTA of the pair, where the MMA waits for
    both CTAs' halves and where `expect_tx` armed both CTAs' bytes. Each
    CTA loads into its own shared memory.

    `multicast(%mask)` (an i16 of cluster ranks) writes the box into `dst`
    in every CTA of the mask, each completing on its own stage barrier (the
    leader of its pair with `cta_group = 2`): the Hopper and Blackwell
    cluster multicast, where each CTA loads a slice of a tile that several
    CTAs share.

    The protocol checker requires an `expect_tx` on the same handle and
    balances its bytes against every `tma_load` of the handle (box bytes x
    CTAs of the multicast mask x `cta_group`).

    Example:

    ```mlir
    pipeline.expect_tx %s : !pipeline.stage<producer, !TP>
    %a = pipeline.payload %s[0] : !pipeline.stage<producer, !TP> -> !AStage
    pipeline.tma_load %s, %a_map[%k0, %m0] -> %a
        : !pipeline.stage<producer, !TP>, !llvm.ptr, !AStage
    ```
  }];
  let arguments = (ins Pipeline_ProducerStage:$stage, Pipeline_LLVMPointer:$descriptor,
                       Variadic<I32>:$coordinates,
                       Pipeline_WorkgroupMemRef:$dst,
                       Optional<I16>:$multicast_mask);
  let assemblyFormat = [{
    $stage `,` $descriptor `[` $coordinates `]` `->` $dst
    (`multicast` `(` $multicast_mask^ `)`)?
    attr-dict `:` qualified(type($stage)) `,` qualified(type($descriptor)) `,`
    qualified(type($dst))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The bytes of one box (dst's bytes), when dst's shape is static.
    ::std::optional<int64_t> getBoxBytes();
  }];
}

def Pipeline_PayloadOp
    : Pipeline_BorrowingStageOp<"payload", [
        Pipeline_Effects<"OfStage", "None", "None", "None">,
        Pure]> {
  let summary = "the tiles of a tile-pipeline stage";
  let description = [{
    The `k_group_size` tiles of payload array `array` that belong to the
    handle's stage, as a subview of shape `[k_group_size, tile dims...]`.

    Example:

    ```mlir
    %tiles = pipeline.payload %s[0] : !pipeline.stage<consumer, !pipeline.tile_pipeline<...>>
        -> memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
    ```
  }];
  let arguments = (ins Pipeline_TileStage:$stage, I32Attr:$array);
  let results = (outs AnyMemRef:$tiles);
  let assemblyFormat = [{
    $stage `[` $array `]` attr-dict `:` qualified(type($stage)) `->` qualified(type($tiles))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The result type that `array` of a stage of `type` must have.
    static ::mlir::MemRefType inferTilesType(::pmlir::TilePipelineType type,
                                             unsigned array);
  }];
}

def Pipeline_ReleaseOp
    : Pipeline_ConsumingStageOp<"release", [
        Pipeline_Effects<"OfStage", "AtRelease", "None", "Release">]> {
  let summary = "release a stage and advance the role";
  let description = [{
    Ends the life of a stage handle and steps the role. A consumer handle of
    a plain pipeline first arrives on its `empty` barrier (sub-stage
    `sub_stage`; see the pipeline type for where a signal lands with
    `cta_group = 2` or `release_ctas`). A consumer handle of a tile pipeline
    only steps, as the reference `InputConsumerStage.release` does: the
    stage is freed by `release_mma` (the MMA's `tcgen05.commit`) or by
    `arrive`, and the linearity checker reports a release without either.
    A producer handle only steps, since its signal comes from `arrive`,
    `expect_tx` + the asynchronous copy, `commit_mma`, or a `commit`.

    Example:

    ```mlir
    pipeline.release %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
    ```
  }];
  let arguments = (ins Pipeline_AnyStage:$stage,
                       DefaultValuedAttr<I32Attr, "0">:$sub_stage);
  let assemblyFormat = [{
    $stage (`sub_stage` $sub_stage^)? attr-dict `:` qualified(type($stage))
  }];
  let hasVerifier = 1;
}

def Pipeline_ReleaseWithoutSignalOp
    : Pipeline_ConsumingStageOp<"release_without_signal", [
        Pipeline_Effects<"OfStage", "AtRelease", "None", "None">]> {
  let summary = "release a consumer stage without arriving";
  let description = [{
    Ends the life of a consumer handle and steps the consumer without
    arriving: the signal was given by `arrive` or by a specialized arrive on
    `pipeline.mbar` (e.g. a 2-CTA leader arrive).

    Example:

    ```mlir
    pipeline.release_without_signal %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
    ```
  }];
  let arguments = (ins Pipeline_ConsumerStage:$stage);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
}

//===----------------------------------------------------------------------===//
// Scoped forms
//===----------------------------------------------------------------------===//

// The scoped ops wait, signal and step role state whatever their region
// holds: their own effects (read and write) keep one with a pure region
// from being folded away as dead or moved across other barrier ops; the
// region's effects are added (RecursiveMemoryEffects).
class Pipeline_ScopedOp<string mnemonic, string role, list<Trait> traits = []>
    : Pipeline_Op<mnemonic, !listconcat(traits,
                             [SingleBlockImplicitTerminator<"YieldOp">,
                              MemoryEffects<[MemRead, MemWrite]>,
                              RecursiveMemoryEffects, Pipeline_ScopedStage])> {
  let arguments = (ins Pipeline_AnyBarrierPipeline:$pipeline);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  // `$stage` names the region's argument; the region follows, then the
  // attributes (attributes {...}).
  let pythonFormat = "$pipeline `as` $stage `:` qualified(type($pipeline)) "
                     "(`->` type($results)^)?";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The stage handle the region owns.
    ::mlir::BlockArgument getStage() { return getBody().getArgument(0); }
    static ::pmlir::Role getRegionRole() { return ::pmlir::Role::}] # role # [{; }
  }];
}

def Pipeline_ProduceOp
    : Pipeline_ScopedOp<"produce", "producer", [
        Pipeline_Effects<"Producer", "Always", "Blocks", "None">]> {
  let summary = "produce one stage in a region";
  let description = [{
    Acquires a producer stage on entry (like `acquire_producer`), runs the
    region with the handle as its argument, and releases it on exit (steps
    the producer). The region owns the handle: releasing it inside, or
    acquiring the producer side again, is an error.

    Example:

    ```mlir
    pipeline.produce %p as %s : !pipeline.pipeline<stages = 4> {
      pipeline.arrive %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 4>>
    }
    ```
  }];
}

def Pipeline_ConsumeOp
    : Pipeline_ScopedOp<"consume", "consumer", [
        Pipeline_Effects<"Consumer", "Always", "Blocks", "RegionExit">]> {
  let summary = "consume one stage in a region";
  let description = [{
    Acquires a consumer stage on entry, runs the region, and on exit arrives
    on the stage's `empty` barrier and steps the consumer. On a tile
    pipeline the exit only steps (the reference `ConsumerTiles.__exit__`):
    the region frees the stage with `release_mma` or `arrive`.

    Example:

    ```mlir
    %v = pipeline.consume %p as %s : !pipeline.pipeline<stages = 4> -> index {
      %i = pipeline.index %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
      pipeline.yield %i : index
    }
    ```
  }];
}

def Pipeline_ConsumeExplicitOp
    : Pipeline_ScopedOp<"consume_explicit", "consumer", [
        Pipeline_Effects<"Consumer", "Always", "Blocks", "None">]> {
  let summary = "consume one stage in a region with explicit signalling";
  let description = [{
    Like `consume`, but the exit only steps the consumer: the region signals
    the stage itself (`pipeline.arrive`, lane-guarded, or a leader arrive on
    `pipeline.mbar`).

    Example:

    ```mlir
    pipeline.consume_explicit %p as %s : !pipeline.pipeline<stages = 4> {
      scf.if %leader {
        pipeline.arrive %s : !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
      }
    }
    ```
  }];
}

def Pipeline_YieldOp : Pipeline_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["ProduceOp", "ConsumeOp", "ConsumeExplicitOp"]>]> {
  let summary = "terminate a produce/consume region";
  let description = [{
    Returns values from the region of `produce`, `consume` or
    `consume_explicit`. A stage handle may not be yielded.

    Example:

    ```mlir
    pipeline.yield %v : index
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($results^ `:` qualified(type($results)))?";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Role pipeline
//===----------------------------------------------------------------------===//

def Pipeline_AcquireOp
    : Pipeline_Op<"acquire", [
        Pipeline_Effects<"Producer", "AtAcquire", "Blocks", "None">,
        Pipeline_AcquiresStage,
    TypesMatchWith<"result is a producer stage of the role's pipeline",
                   "role", "stage", Pipeline_RoleStage<"producer">.result>]> {
  let summary = "producer role: wait until the consumer released the stage";
  let description = [{
    Producer-only. Waits on the current stage's `empty` barrier of
    sub-stage `sub_stage` with the producer phase and returns the producer
    stage handle (the reference `RolePipeline.acquire`). End it with
    `commit`, or with `commit_mma` followed by `step`.

    Example:

    ```mlir
    %s = pipeline.acquire %prod : !pipeline.role<producer, !pipeline.pipeline<stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_ProducerRole:$role,
                       DefaultValuedAttr<I32Attr, "0">:$sub_stage);
  let results = (outs Pipeline_ProducerStage:$stage);
  let assemblyFormat = [{
    $role (`sub_stage` $sub_stage^)? attr-dict `:` qualified(type($role))
  }];
  let hasVerifier = 1;
}

def Pipeline_WaitOp
    : Pipeline_Op<"wait", [
        Pipeline_Effects<"Consumer", "AtAcquire", "Blocks", "None">,
        Pipeline_AcquiresStage,
    TypesMatchWith<"result is a consumer stage of the role's pipeline",
                   "role", "stage", Pipeline_RoleStage<"consumer">.result>]> {
  let summary = "consumer role: wait until the producer committed the stage";
  let description = [{
    Consumer-only. Waits on the current stage's `full` barrier with the
    consumer phase and returns the consumer stage handle (the reference
    `RolePipeline.wait`). End it with `release` (per sub-stage
    `release_no_step` first when there are several) or `step`.

    Example:

    ```mlir
    %s = pipeline.wait %cons : !pipeline.role<consumer, !pipeline.pipeline<stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_ConsumerRole:$role);
  let results = (outs Pipeline_ConsumerStage:$stage);
  let assemblyFormat = "$role attr-dict `:` qualified(type($role))";
}

def Pipeline_CommitOp
    : Pipeline_ConsumingStageOp<"commit", [
        Pipeline_Effects<"OfStage", "Always", "None", "Commit">]> {
  let summary = "producer: arrive on the stage's full barriers and step";
  let description = [{
    Producer-only. Arrives once on the `full` barrier of sub-stage 0 of the
    handle's stage, then steps the producer (the reference
    `RolePipeline.commit`, which arrives on `producer_mbar()`). Other
    producer sub-stages are signalled by hand through
    `pipeline.mbar %s sub_stage k`.

    Example:

    ```mlir
    pipeline.commit %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_ProducerStage:$stage);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
}

def Pipeline_CommitMmaOp
    : Pipeline_BorrowingStageOp<"commit_mma", [
        Pipeline_Effects<"OfStage", "None", "None", "MmaCommit">,
        Pipeline_Requires<"Tcgen05">]> {
  let summary = "producer: arrive on the full barrier when the MMAs complete";
  let description = [{
    Producer-only, sm_100a. One elected thread issues `tcgen05.commit`
    (`cta_group` of the pipeline, multicast to both CTAs of a pair when
    `cta_group = 2`) so that the stage's `full` barrier gets one arrival once
    every prior tcgen05 MMA of the thread completed. `elect(%e)` gives the
    election explicitly (the reference overload taking `elect`); without it
    the lowering uses `elect.sync`. Does not step: follow with `step`.

    Example:

    ```mlir
    pipeline.commit_mma %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
    pipeline.step %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_ProducerStage:$stage, Optional<I1>:$elect);
  let assemblyFormat = [{
    $stage (`elect` `(` $elect^ `)`)? attr-dict `:` qualified(type($stage))
  }];
}

def Pipeline_ReleaseMmaOp
    : Pipeline_BorrowingStageOp<"release_mma", [
        Pipeline_Effects<"OfStage", "None", "None", "MmaCommit">,
        Pipeline_Requires<"Tcgen05">]> {
  let summary = "consumer: arrive on the empty barrier when the MMAs complete";
  let description = [{
    Consumer-only, sm_100a. The MMA warp's release of an input stage (CUTLASS
    `PipelineTmaUmmaAsync::consumer_release`, the reference MMA warp's
    `mma_arrive` on the input stage's barrier): one elected thread issues
    `tcgen05.commit` so that the stage's `empty` barrier gets one arrival
    once every prior tcgen05 MMA of the thread has finished reading the
    stage's shared memory. Only then may the producer's TMA overwrite it.
    The commit reaches the `empty` barrier of every CTA whose producer
    waits for it: with `cta_group = 2` both CTAs of the pair
    (`.multicast::cluster`, mask `0b11` at the pair; the MMA runs in the
    leader only, as in CUTLASS `PipelineTmaUmmaAsync` and
    `PipelineUmmaConsumerAsync`), with `release_ctas` every CTA of the
    group, else the executing CTA. `elect(%e)` gives the election explicitly; without it
    the lowering uses `elect.sync`.

    The op signals but does not end the handle: follow it with `release`
    (which on a tile pipeline only steps) or, on a plain pipeline,
    `release_without_signal`. The linearity checker counts it as the
    stage's signal.

    Example:

    ```mlir
    %s = pipeline.acquire_consumer %tp : !TP
    // ... nvvm.tcgen05.mma reading pipeline.payload %s[0] and [1] ...
    pipeline.release_mma %s : !pipeline.stage<consumer, !TP>
    pipeline.release %s : !pipeline.stage<consumer, !TP>
    ```
  }];
  let arguments = (ins Pipeline_ConsumerStage:$stage, Optional<I1>:$elect);
  let assemblyFormat = [{
    $stage (`elect` `(` $elect^ `)`)? attr-dict `:` qualified(type($stage))
  }];
}

def Pipeline_ReleaseNoStepOp
    : Pipeline_BorrowingStageOp<"release_no_step", [
        Pipeline_Effects<"OfStage", "None", "None", "Arrive">]> {
  let summary = "consumer: arrive on one sub-stage's empty barrier";
  let description = [{
    Consumer-only. Arrives on the `empty` barrier of sub-stage `sub_stage`
    of the handle's stage without ending the handle (the reference
    `RolePipeline.release_no_step`, for releasing several sub-stages).

    Example:

    ```mlir
    pipeline.release_no_step %s sub_stage 0 : !pipeline.stage<consumer, !pipeline.pipeline<stages = 2, consumer_sub_stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_ConsumerStage:$stage,
                       DefaultValuedAttr<I32Attr, "0">:$sub_stage);
  let assemblyFormat = [{
    $stage (`sub_stage` $sub_stage^)? attr-dict `:` qualified(type($stage))
  }];
  let hasVerifier = 1;
}

def Pipeline_StepOp
    : Pipeline_ConsumingStageOp<"step", [
        Pipeline_Effects<"OfStage", "AtRelease", "None", "None">]> {
  let summary = "end a stage handle and step the role without signalling";
  let description = [{
    Ends the life of a handle and steps its role only (the reference
    `RolePipeline.step`), after `commit_mma` or `release_no_step`.

    Example:

    ```mlir
    pipeline.step %s : !pipeline.stage<producer, !pipeline.pipeline<stages = 2>>
    ```
  }];
  let arguments = (ins Pipeline_AnyStage:$stage);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
}


//===----------------------------------------------------------------------===//
// Tensor memory (sm_100a)
//===----------------------------------------------------------------------===//

def Pipeline_TmemCreateOp : Pipeline_Op<"tmem_create"> {
  let summary = "place a tensor-memory allocation's barrier and address word";
  let description = [{
    Places the 16 bytes a `!pipeline.tmem` needs (its deallocation barrier
    and the word `tcgen05.alloc` writes the TMEM address to) in a workgroup
    buffer at a byte offset that must be a multiple of 8
    (`pipeline.smem_bytes` of the type gives the size). Allocates nothing
    yet: see `pipeline.tmem_alloc`.

    Example:

    ```mlir
    %t = pipeline.tmem_create in %smem[%off] : memref<?xi8, #gpu.address_space<workgroup>>
        -> !pipeline.tmem<columns = 512, cta_group = 2>
    ```
  }];
  let arguments = (ins Pipeline_WorkgroupMemRef:$storage, Index:$offset);
  let results = (outs Pipeline_TmemType:$result);
  let assemblyFormat = [{
    `in` $storage `[` $offset `]` `:` qualified(type($storage)) attr-dict
    `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Pipeline_TmemAllocOp
    : Pipeline_Op<"tmem_alloc", [Pipeline_Requires<"Tcgen05">]> {
  let summary = "allocate tensor memory: collective over the CTA";
  let description = [{
    Every thread of the CTA executes it, in the kernel's entry block (like
    `pipeline.init_mbars`). One thread initializes the deallocation barrier
    for `readers` arrivals from each CTA of the group (`readers x
    cta_group`: with a pair, every reader releases on both CTAs' barriers);
    warp `warp` allocates `columns` columns (`tcgen05.alloc.cta_group::G`,
    the address written to shared memory) and gives up the allocation
    permit (`tcgen05.relinquish_alloc_permit`: the CTA allocates once);
    then the CTA, or with `cta_group = 2` the cluster, synchronizes between
    `tcgen05.fence::before_thread_sync` and
    `tcgen05.fence::after_thread_sync`, and every thread reads the address,
    the result.

    Follows the reference's `TmemAllocation` (allocation by the MMA warp,
    the address through shared memory, a barrier before the other warps
    read it); the reference relinquishes at the MMA warp's exit, the
    dialect right after the allocation (the CTA never allocates again
    either way).

    Example:

    ```mlir
    %base = pipeline.tmem_alloc %t readers 128 warp 1 : !pipeline.tmem<columns = 512, cta_group = 2> -> i32
    ```
  }];
  let arguments = (ins Pipeline_TmemType:$tmem, I32Attr:$readers,
                       DefaultValuedAttr<I32Attr, "0">:$warp);
  let results = (outs I32:$address);
  let assemblyFormat = [{
    $tmem `readers` $readers (`warp` $warp^)? attr-dict `:` qualified(type($tmem))
    `->` type($address)
  }];
  let hasVerifier = 1;
}

def Pipeline_TmemReleaseOp
    : Pipeline_Op<"tmem_release", [Pipeline_Requires<"Tcgen05">]> {
  let summary = "a reader of tensor memory is done with it";
  let description = [{
    The executing thread's last access of the TMEM is behind it:
    `tcgen05.fence::before_thread_sync`, then one arrival on the
    deallocation barrier of its CTA and, with `cta_group = 2`, on the
    peer's (`mapa` to `rank ^ 1`): the peer's MMA results live in both
    CTAs' TMEM, so neither frees before both CTAs' readers are done (the
    reference's `TmemDeallocBarrier.signal_complete`: `signal_peer`, then
    `signal_self`). Every one of the `readers` threads of each CTA executes
    it exactly once.

    Example:

    ```mlir
    pipeline.tmem_release %t : !pipeline.tmem<columns = 512, cta_group = 2>
    ```
  }];
  let arguments = (ins Pipeline_TmemType:$tmem);
  let assemblyFormat = "$tmem attr-dict `:` qualified(type($tmem))";
}

def Pipeline_TmemDeallocOp
    : Pipeline_Op<"tmem_dealloc", [Pipeline_Requires<"Tcgen05">]> {
  let summary = "free tensor memory once every reader released it";
  let description = [{
    One whole warp of each CTA executes it (`tcgen05.dealloc` is
    warp-collective): waits for the completion of the deallocation
    barrier's first phase (every reader of the CTA and, with `cta_group =
    2`, of the peer released), `tcgen05.fence::after_thread_sync`, then
    `tcgen05.dealloc.cta_group::G` of the columns at `address`. The
    reference's `TmemAllocation.complete_dealloc` (wait, then dealloc).
    Keeps the CTA alive until the peer's readers have signalled it.

    Example:

    ```mlir
    pipeline.tmem_dealloc %t, %base : !pipeline.tmem<columns = 512, cta_group = 2>
    ```
  }];
  let arguments = (ins Pipeline_TmemType:$tmem, I32:$address);
  let assemblyFormat = "$tmem `,` $address attr-dict `:` qualified(type($tmem))";
}


//===----------------------------------------------------------------------===//
// Cluster launch control (sm_100a)
//===----------------------------------------------------------------------===//

def Pipeline_ClcTryCancelOp
    : Pipeline_BorrowingStageOp<"clc_try_cancel", [
        Pipeline_Effects<"OfStage", "None", "None", "ExpectTx">,
        Pipeline_Requires<"ClusterLaunchControl">]> {
  let summary = "request the next cluster to schedule: the CLC producer";
  let description = [{
    The producer of a `clc = true` pipeline, executed by one whole warp of
    cluster rank 0 (the scheduler warp): lane `i` of the first
    `%cluster_nctarank` lanes arrives on the stage's `full` barrier of
    cluster rank `i` arming 16 transaction bytes (`mapa` +
    `mbarrier.arrive.expect_tx.shared::cluster`), then one elected lane
    issues `clusterlaunchcontrol.try_cancel` with the stage's response
    buffer (the tile pipeline's payload) and `full` barrier, multicast to
    every CTA of the cluster: each CTA's `full` barrier completes when its
    copy of the 16-byte response lands. CUTLASS
    `PipelineCLCFetchAsync::producer_acquire` (the arrive with expect_tx
    per lane) and `issue_clc_query`; the reference's
    `TileScheduler.advance_to_next_work`.

    Example:

    ```mlir
    %s = pipeline.acquire_producer %clc : !CLC
    pipeline.clc_try_cancel %s : !pipeline.stage<producer, !CLC>
    pipeline.release %s : !pipeline.stage<producer, !CLC>
    ```
  }];
  let arguments = (ins Pipeline_ProducerStage:$stage);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
  let hasVerifier = 1;
}

def Pipeline_ClcResponseOp
    : Pipeline_BorrowingStageOp<"clc_response", [
        Pipeline_Effects<"OfStage", "None", "None", "None">,
        Pipeline_Requires<"ClusterLaunchControl">]> {
  let summary = "read a cluster launch control response";
  let description = [{
    A consumer of a `clc = true` pipeline reads the stage's 16-byte response
    (`ld.shared.b128`): `canceled` is true when the request canceled a
    cluster that had not started, whose first CTA is at (`x`, `y`, `z`)
    (`clusterlaunchcontrol.query_cancel`); the coordinates are 0 when it is
    false (the grid is done). A `fence.proxy.async.shared::cta` after the
    read orders it before the release that lets the next request's
    asynchronous write reuse the buffer (CUTLASS `fence_view_async_shared`,
    the reference's `fence_async_view_proxy`).

    Example:

    ```mlir
    %ok, %x, %y, %z = pipeline.clc_response %s : !pipeline.stage<consumer, !CLC>
    ```
  }];
  let arguments = (ins Pipeline_ConsumerStage:$stage);
  let results = (outs I1:$canceled, I32:$x, I32:$y, I32:$z);
  let assemblyFormat = "$stage attr-dict `:` qualified(type($stage))";
  let hasVerifier = 1;
}

#endif // PIPELINE_OPS_TD
