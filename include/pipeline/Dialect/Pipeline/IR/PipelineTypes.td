//===- PipelineTypes.td - pipeline dialect types -----------*- tablegen -*-===//

#ifndef PIPELINE_TYPES_TD
#define PIPELINE_TYPES_TD

include "pipeline/Dialect/Pipeline/IR/PipelineDialect.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class Pipeline_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Pipeline_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Pipeline_PipelineType : Pipeline_Type<"Pipeline", "pipeline"> {
  let summary = "an N-stage producer/consumer mbarrier pipeline";
  let description = [{
    A pipeline of `stages` stages. Each stage owns `producer_sub_stages`
    `full` barriers (signalled by the producer, waited on by the consumer)
    and `consumer_sub_stages` `empty` barriers (signalled by the consumer,
    waited on by the producer).

    `cta_group` is 1, or 2 when a pair of CTAs shares the pipeline
    (Blackwell 2-SM MMA, sm_100a and newer only). Where consumer signals
    land then depends on the pipeline's use, as in the reference:
    - wrapped in a `!pipeline.tile_pipeline` (the input pipeline, CUTLASS
      `PipelineTmaUmmaAsync`), every consumer signal reaches the `empty`
      barrier of the stage in both CTAs of the pair, since both CTAs' TMA
      producers wait for the leader's MMAs to finish reading;
    - used directly (the accumulator pipeline, CUTLASS `PipelineUmmaAsync`,
      Mojo `umma_arrive_leader_cta`), consumer thread arrivals reach the
      leader CTA's `empty` barrier only; `commit_mma` and `release_mma`
      (issued by the leader's MMA) reach both CTAs.

    `release_ctas` (1, 2, 4, 8 or 16; needs `cta_group = 1`) makes every
    consumer signal reach the `empty` barrier of the stage in each CTA of
    the aligned group of `release_ctas` CTAs of the cluster that contains
    the signalling CTA: the Hopper cluster multicast pattern, where a tile
    loaded by one CTA's TMA lands in several CTAs and may only be
    overwritten once all of them released it (CUTLASS `PipelineTmaAsync`
    with a multicast cluster, along one cluster dimension). The `empty`
    arrival counts must then include the arrivals of every CTA of the group.

    `cluster_m` x `cluster_n` (default 1 x 1; at most 16 CTAs, `cluster_m`
    a multiple of `cta_group`; needs `release_ctas = 1`) declares a 2-D
    multicast cluster of `cluster_m` CTAs along M and `cluster_n` along N,
    cluster rank = m + n * `cluster_m`, the shape of CUTLASS's fastest
    SM90 and SM100 GEMMs (2x1, 2x2, 4x1, 4x4). A tile of A is multicast
    along N and a tile of B along M, so a stage of CTA (m, n) is written by
    the CTAs of its row and of its column, and every consumer signal
    reaches the row-and-column *cross*: each CTA whose pair index
    `m' / cta_group` equals `m / cta_group` (the whole rows of the CTA's
    pair) or whose `n'` equals `n` (CUTLASS `calculate_multicast_mask`
    with `McastDirection::kRowCol`). The `empty` barrier of a CTA then
    receives the signals of `cluster_m / cta_group + cluster_n - 1` CTAs:
    `init_mbars ... consumer` counts that many times each CTA's consumer
    arrivals (one per `release_mma` commit of a pair's MMA; one per
    consumer thread for thread signals, which each reach every CTA of the
    cross, where CUTLASS spreads a warpgroup's arrivals one per destination
    and counts warpgroups). A cluster larger than `cluster_m x cluster_n`
    (`nvvm.cluster_dim`) is taken as aligned blocks of that size, each its
    own multicast cluster; a smaller one is an error. With `cta_group = 2`
    the cross applies to the input (tile) pipeline; the accumulator
    pipeline keeps its pair targets.

    `consumer_depth` (1 to `stages`) is how many consumer stages a thread
    may hold at once: the release lag of a Hopper `wgmma` consumer, which
    keeps one MMA group in flight (`wgmma.wait_group 1`) and so frees stage
    k-1 only after it issued the MMAs of stage k (CUTLASS's separate read
    and release states, `K_PIPE_MMAS`; Mosaic GPU's `delay_release`). With
    a depth above 1 the consumer's acquire advances its stage and phase,
    and each release signals the stage its handle names; the linearity
    checker allows up to `consumer_depth` outstanding consumer handles and
    requires them to be released in the order they were acquired.

    `tmem = true` makes it an accumulator pipeline whose stages are tensor
    memory (sm_100a): the threads on either side order their tcgen05
    accesses against the hand-off. After every wait of the pipeline (an
    acquire, a scoped region's entry) the lowering issues
    `tcgen05.fence::after_thread_sync`, and before every thread signal (a
    consumer's release, `arrive`, a region's exit)
    `tcgen05.fence::before_thread_sync`: the epilogue's `tcgen05.ld` of a
    stage is ordered before its release reaches the MMA warp, and the MMA
    warp's next `tcgen05.mma` into the stage after its acquire. The PTX
    memory model asks for these fences around every thread synchronization
    that orders tcgen05 operations; neither CUTLASS's `PipelineUmmaAsync`
    nor the reference's output pipeline issues them (both rely on
    `tcgen05.wait::ld` before the epilogue's arrive and on
    `tcgen05.commit` for the MMA side), so kernels written by hand around
    those pipelines carry them or not. `commit_mma` needs none: the commit
    itself tracks the MMAs.

    `clc = true` makes it the pipeline of a cluster launch control
    scheduler (sm_100a; CUTLASS `PipelineCLCFetchAsync`, the reference's
    `TileScheduler` barriers): wrapped in a tile pipeline whose one payload
    holds a 16-byte response per stage, its producer (the scheduler warp of
    cluster rank 0) issues `pipeline.clc_try_cancel`, which arms every CTA's
    `full` barrier for the 16 response bytes and requests the cancellation
    with the response multicast to the whole cluster; its consumers (every
    warp that follows the schedule, in every CTA) read the response with
    `pipeline.clc_response` and signal the `empty` barrier of cluster rank
    0, where the producer waits. Counts: `producer 1`, `consumer` the
    consumer threads of the whole cluster.

    The barriers are laid out as `full[0 .. stages*producer_sub_stages)`
    followed by `empty[0 .. stages*consumer_sub_stages)`, 8 bytes each.

    Example:

    ```mlir
    !pipeline.pipeline<stages = 4>
    !pipeline.pipeline<stages = 2, consumer_sub_stages = 2, cta_group = 2>
    !pipeline.pipeline<stages = 4, release_ctas = 2>
    !pipeline.pipeline<stages = 4, consumer_depth = 2>
    !pipeline.pipeline<stages = 2, cta_group = 2, tmem = true>
    !pipeline.pipeline<stages = 2, clc = true>
    !pipeline.pipeline<stages = 4, cta_group = 2, cluster_m = 4, cluster_n = 4>
    ```
  }];
  let parameters = (ins
    "unsigned":$stages,
    DefaultValuedParameter<"unsigned", "1">:$producer_sub_stages,
    DefaultValuedParameter<"unsigned", "1">:$consumer_sub_stages,
    DefaultValuedParameter<"unsigned", "1">:$cta_group,
    DefaultValuedParameter<"unsigned", "1">:$release_ctas,
    DefaultValuedParameter<"unsigned", "1">:$consumer_depth,
    DefaultValuedParameter<"bool", "false">:$tmem,
    DefaultValuedParameter<"bool", "false">:$clc,
    DefaultValuedParameter<"unsigned", "1">:$cluster_m,
    DefaultValuedParameter<"unsigned", "1">:$cluster_n
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilder<(ins "unsigned":$stages), [{
      return $_get($_ctxt, stages, 1, 1, 1, 1, 1, false, false, 1, 1);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Number of `full` (producer-signalled) barriers.
    unsigned getNumFullBarriers() const {
      return getStages() * getProducerSubStages();
    }
    /// Number of `empty` (consumer-signalled) barriers.
    unsigned getNumEmptyBarriers() const {
      return getStages() * getConsumerSubStages();
    }
    /// Total number of barriers, full then empty.
    unsigned getNumBarriers() const {
      return getNumFullBarriers() + getNumEmptyBarriers();
    }
    /// True when the CTAs of the cluster signal each other's barriers
    /// (cta_group = 2, release_ctas > 1 or a multicast cluster): the init
    /// must sync the cluster.
    bool hasRemoteSignals() const {
      return getCtaGroup() != 1 || getReleaseCtas() != 1 || hasCross();
    }
    /// True with a 2-D multicast cluster (cluster_m x cluster_n > 1):
    /// consumer signals reach the row-and-column cross.
    bool hasCross() const { return getClusterM() * getClusterN() > 1; }
    /// The cluster ranks (bit r = rank r) that a consumer signal of the CTA
    /// of cluster rank `rank` reaches through the cross: the CTAs whose
    /// pair index along M (m / cta_group) is this CTA's, and those whose n
    /// is this CTA's.
    uint32_t getCrossMask(unsigned rank) const;
    /// Shared-memory bytes of the barrier storage.
    uint64_t getSmemBytes() const { return 8ull * getNumBarriers(); }
  }];
}

def Pipeline_TilePipelineType : Pipeline_Type<"TilePipeline", "tile_pipeline"> {
  let summary = "a pipeline that owns shared-memory payload tiles";
  let description = [{
    An input tile pipeline (the reference `InputTilePipeline`): a pipeline
    plus one or more payload tile arrays in shared memory. Each payload is a
    memref of shape `[stages, k_group_size, tile dims...]` in the workgroup
    address space; stage `s` owns `payload[s]`, that is `k_group_size`
    tiles of every array. `expect_tx` on a producer stage expects the bytes
    of all tiles of one stage, times `cta_group`.

    Example:

    ```mlir
    !pipeline.tile_pipeline<pipeline = <stages = 4>, k_group_size = 2,
        payload = [memref<4x2x64x64xf16, #gpu.address_space<workgroup>>]>
    ```
  }];
  let parameters = (ins
    "PipelineType":$pipeline,
    "unsigned":$k_group_size,
    "::mlir::ArrayAttr":$payload
  );
  let assemblyFormat = [{
    `<` `pipeline` `=` qualified($pipeline) `,` `k_group_size` `=` $k_group_size
    `,` `payload` `=` $payload `>`
  }];
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getStages() const { return getPipeline().getStages(); }
    /// The payload memref types.
    ::llvm::SmallVector<::mlir::MemRefType> getPayloadTypes() const;
    /// Bytes of all payload tiles of one stage (one CTA).
    uint64_t getStageBytes() const;
  }];
}

def Pipeline_RoleType : Pipeline_Type<"Role", "role"> {
  let summary = "a pipeline seen from one role";
  let description = [{
    The reference `RolePipeline`: a view of a pipeline from the producer or
    the consumer side. Producer-only ops (`acquire`, `commit`, `commit_mma`)
    on a consumer role, and consumer-only ops (`wait`, `release_no_step`) on
    a producer role, are type errors. The role shares the per-thread state of
    that role of its pipeline.

    Example:

    ```mlir
    !pipeline.role<producer, !pipeline.pipeline<stages = 2, producer_sub_stages = 2>>
    ```
  }];
  let parameters = (ins
    EnumParameter<Pipeline_Role>:$role,
    "PipelineType":$pipeline
  );
  let assemblyFormat = "`<` $role `,` qualified($pipeline) `>`";
}

def Pipeline_StageType : Pipeline_Type<"Stage", "stage"> {
  let summary = "a linear handle to one acquired stage";
  let description = [{
    A stage acquired by one role of a pipeline. `pipeline` is the type of
    the pipeline it was acquired from (`!pipeline.pipeline` or
    `!pipeline.tile_pipeline`). The handle is linear: it must be consumed
    (`release`, `release_without_signal`, `commit`, `step`) exactly once on
    every path; other uses (`index`, `mbar`, `arrive`, `payload`) borrow it.

    Example:

    ```mlir
    !pipeline.stage<consumer, !pipeline.pipeline<stages = 4>>
    ```
  }];
  let parameters = (ins
    EnumParameter<Pipeline_Role>:$role,
    "::mlir::Type":$pipeline
  );
  let assemblyFormat = "`<` $role `,` qualified($pipeline) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isProducer() const { return getRole() == Role::producer; }
    bool isConsumer() const { return getRole() == Role::consumer; }
    /// The barrier pipeline underneath (through a tile pipeline if needed).
    PipelineType getBasePipeline() const;
  }];
}

def Pipeline_TmemType : Pipeline_Type<"Tmem", "tmem"> {
  let summary = "a tensor-memory allocation and its deallocation barrier";
  let description = [{
    `columns` columns of tensor memory (sm_100a; 32 to 512, a power of 2)
    allocated for the CTA, or with `cta_group = 2` for each CTA of a pair
    (the pair's MMAs write both CTAs' TMEM), plus what its lifetime needs in
    shared memory (16 bytes, 8-aligned): the *deallocation barrier* (one
    mbarrier on which every reader of the TMEM signals that it is done) and
    the word where `tcgen05.alloc` writes the TMEM address.

    The lifecycle (the reference's `TmemAllocation` and
    `TmemDeallocBarrier`): `pipeline.tmem_alloc` (every thread of the CTA:
    the barrier's init, the allocation by one warp, the relinquish, the
    hand-off of the address), `pipeline.tmem_release` (each reader thread,
    once, after its last TMEM access; with `cta_group = 2` on both CTAs'
    barriers), `pipeline.tmem_dealloc` (one warp: waits until every reader
    of the pair released, then frees).

    Example:

    ```mlir
    !pipeline.tmem<columns = 512, cta_group = 2>
    ```
  }];
  let parameters = (ins
    "unsigned":$columns,
    DefaultValuedParameter<"unsigned", "1">:$cta_group
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Shared-memory bytes: the deallocation barrier and the address word.
    static constexpr uint64_t kSmemBytes = 16;
  }];
}

#endif // PIPELINE_TYPES_TD
