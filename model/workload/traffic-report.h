/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAFFIC_REPORT_H
#define TRAFFIC_REPORT_H

#include "group-partition.h"
#include "parallel-layout.h"

#include "ns3/collective-choices.h"
#include "ns3/collective-kind.h"
#include "ns3/collective-schedule.h"
#include "ns3/collective-strategy.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace ns3
{

class GpuSpec;
class TrainingConfig;
class TransformerSpec;

/**
 * @ingroup llm-fabric
 * The parallelism strategy a collective of a TrafficReport belongs to.
 */
enum class TrafficStrategy
{
    DP, ///< Data parallelism: gradient reduction, ZeRO and FSDP collectives.
    TP, ///< Tensor parallelism (and sequence parallelism).
    PP, ///< Pipeline parallelism: activations, their gradients, tied-embedding
        ///< reduction.
    CP, ///< Context parallelism (all-gather or Ulysses).
    EP  ///< Expert parallelism: token dispatch and combine.
};

/// The number of TrafficStrategy values.
constexpr std::size_t TRAFFIC_STRATEGIES = 5;

/**
 * @ingroup llm-fabric
 * When, within an iteration, a collective of a TrafficReport takes place.
 */
enum class TrafficPhase
{
    FORWARD,  ///< During the forward passes of the micro-batches.
    BACKWARD, ///< During the backward passes (including recomputation and
              ///< gradient reduction).
    OPTIMIZER ///< After the optimizer step (ZeRO-1/2 parameter all-gather).
};

/**
 * @ingroup llm-fabric
 * Payload bytes of a rank, split by direction and by link class: intra-server
 * when the peer of the transfer is on the same server
 * (ParallelLayout::GetServer), else inter-server.
 */
struct TrafficBytes
{
    uint64_t intraSent{0};     //!< Bytes sent to ranks of the same server.
    uint64_t interSent{0};     //!< Bytes sent to ranks of other servers.
    uint64_t intraReceived{0}; //!< Bytes received from ranks of the same server.
    uint64_t interReceived{0}; //!< Bytes received from ranks of other servers.

    /** @return intraSent + interSent. */
    uint64_t Sent() const;
    /** @return intraReceived + interReceived. */
    uint64_t Received() const;
    /**
     * Add another count to this one.
     * @param other the bytes to add.
     */
    void Add(const TrafficBytes& other);
};

/**
 * @ingroup llm-fabric
 * One kind of collective a rank takes part in, repeated @c count times per
 * iteration.
 */
struct TrafficEntry
{
    TrafficStrategy strategy;      //!< The strategy it belongs to.
    std::string variant;           //!< For DP the sharding: "none", "zero-1", "zero-2",
                                   //!< "zero-3", "fsdp-full-shard", "fsdp-shard-grad-op",
                                   //!< "fsdp-hybrid-shard"; for CP "all-gather" or
                                   //!< "ulysses"; otherwise "".
    std::string what;              //!< The tensor moved, e.g. "dense gradients".
    CollectiveKind kind;           //!< The collective.
    TypeId algorithm;              //!< Its CollectiveStrategy subclass.
    GroupPartition::Members group; //!< The global ranks of the group, in group order (shared
                                   //!< with the other entries of the same group).
    uint32_t groupRank;            //!< The index of the rank in the group.
    uint64_t messageBytes;         //!< The message size S, as CollectiveKind defines it.
    uint64_t count;                //!< How many times per iteration.
    TrafficPhase phase;            //!< When it takes place.
    uint32_t steps;                //!< Steps of one collective (of its strategy's schedule).
    TrafficBytes bytes;            //!< count x the rank's bytes in one collective.

    /** @return the global ranks of the group, in group order. */
    const std::vector<uint32_t>& GetMembers() const;
    /** @return the group size, GetMembers().size(). */
    uint32_t GetGroupSize() const;
};

/**
 * @ingroup llm-fabric
 * Bytes by strategy and in total.
 */
struct TrafficTotals
{
    std::array<TrafficBytes, TRAFFIC_STRATEGIES> byStrategy; //!< Indexed by TrafficStrategy.
    TrafficBytes all;                                        //!< Sum over the strategies.

    /**
     * @param strategy a strategy.
     * @return the bytes of that strategy.
     */
    const TrafficBytes& Of(TrafficStrategy strategy) const;
};

/**
 * @ingroup llm-fabric
 * The analytical network traffic of one training iteration: for every rank,
 * each collective it takes part in, with its group, message size, repetitions
 * and the bytes the rank sends and receives, split intra-/inter-server; totals
 * per strategy; and the inter-server bandwidth a rank needs to hide its traffic
 * behind its compute.
 *
 * Notation: b micro-batch size (sequences), s sequence length, h hidden size, A
 * ActivationBytes, m micro-batches per iteration
 * (TrainingConfig::GetGradientAccumulationSteps(Dp)), l the layers of the
 * rank's pipeline stage (Layers / Pp, all its virtual stages together), l_moe
 * those of them that are mixture-of-experts layers, s' = s / Cp the tokens of a
 * sequence held by a rank. The bytes of one collective are those its
 * CollectiveStrategy's schedule gives the rank's index in the group
 * (CollectiveStrategy::Tally, the schedule CollectiveRuntime executes, with the
 * same localSize rule), and an entry's bytes are count times those.
 *
 * <b>TP</b> (Tp > 1, group TP). Narayanan et al. 2021 (Megatron-LM PTD-P),
 * section 2.3: each layer has two all-reduces (f after attention, g after the
 * MLP) in the forward pass and two (their conjugates) in the backward pass,
 * each of the layer's activations, S = b s' h A. Hence ALL_REDUCE forward count
 * 2 l m and backward 2 l m. With sequence parallelism (Korthikanti et al. 2022,
 * section 4.2.2) each all-reduce becomes an all-gather (S = b s' h A, the
 * gathered output) and a reduce-scatter (S = b s' h A, the input): forward 2 of
 * each, backward 2 of each. With FULL recomputation the forward collectives run
 * again in the backward pass (Korthikanti et al. 2022, section 5): backward
 * counts double. SELECTIVE recomputes only the attention core, which has no TP
 * collective.
 *
 * <b>PP</b> (Pp > 1). Narayanan et al. 2021, section 2.2: per micro-batch, the
 * activations of the last layer of a (virtual) stage go to the next stage in
 * the forward pass and their gradients come back in the backward pass, S = b s'
 * h A. With sequence parallelism each TP rank sends only its sequence shard, S
 * = b s' h A / Tp; without it the whole tensor is sent by every TP rank
 * (Megatron-LM's scatter/gather optimisation is not modelled). With
 * VirtualStages v, stage p holds model chunks c = k Pp + p (k < v,
 * Megatron-LM's interleaved schedule, section 2.2.2), each of Layers / (Pp v)
 * consecutive layers; every chunk boundary c -> c + 1 (c < Pp v - 1) is a
 * SEND_RECV forward and one backward, m times. The group of a SEND_RECV entry
 * is {sender, receiver}. With TiedEmbeddings and Pp > 1, the last stage holds a
 * copy of the word embedding (Megatron-LM) whose gradients are all-reduced with
 * the first stage's once per iteration: ALL_REDUCE in the group {first stage,
 * last stage} of the rank's share of V h parameters x GetGradientReduceBytes(),
 * phase BACKWARD.
 *
 * <b>DP</b> (group DP, or DP_CP when Cp > 1; with Ep > 1 the routed experts'
 * parameters are reduced over EXPERT_DP and the rest over DP or DP_CP). The
 * parameters P of a rank are those of its stage's layers
 * (TransformerSpec::GetParametersPerLayer), plus the embeddings on the stage of
 * chunk 0, plus the final norm and the output head on the stage of the last
 * chunk (with TiedEmbeddings and Pp > 1, the copy of the word embedding), split
 * over Tp by the integer chunking rule (CollectiveChunks::ChunkBytes) at the
 * rank's tp coordinate (norms and row-parallel biases, replicated in
 * Megatron-LM, are counted as split: < 0.1% of the parameters). With Ep > 1 the
 * routed experts of the stage's MoE layers (Experts FFNs per layer) are split
 * over Ep (Experts / Ep each) and then over Tp. G = GetGradientReduceBytes(),
 * W = ParameterBytes. Per group:
 * - no sharding: ALL_REDUCE of P G once per iteration, BACKWARD;
 * - ZeRO-1 and ZeRO-2 (Rajbhandari et al. 2020, section 7.2: 2 Psi, the same as
 * all-reduce) and FSDP SHARD_GRAD_OP: REDUCE_SCATTER of P G (BACKWARD) and
 * ALL_GATHER of the updated parameters P W (OPTIMIZER), once each;
 * - ZeRO-3 (Rajbhandari et al. 2020, section 7.2.2: 3 Psi) and FSDP FULL_SHARD
 * (Zhao et al. 2023, section 3.2: parameters are gathered before forward and
 * again before backward, as FULL_SHARD frees them after forward): ALL_GATHER of
 * P W in the forward and again in the backward pass of every micro-batch (count
 * m each), and REDUCE_SCATTER of P G once per iteration. Accumulation
 * convention: gradients are accumulated unsharded over the m micro-batches and
 * reduce-scattered after the last one (FSDP's no_sync(), DeepSpeed's reduction
 * at the gradient accumulation boundary); the all-gathers are per micro-batch.
 * The real implementations gather per layer (FSDP unit): the same bytes up to
 * chunk rounding;
 * - FSDP HYBRID_SHARD (Zhao et al. 2023, section 3.2.1): the group is cut into
 * shard groups, the members on one server, and replication groups, the members
 * with the same index in their shard group; FULL_SHARD within the shard group
 * (as above), then an ALL_REDUCE of the rank's reduced gradient shard,
 * ChunkBytes(P G, shard size, index), across the replication group, once per
 * iteration. Every server must hold the same number of members of the group.
 *
 * <b>CP</b> (Cp > 1, group CP). All-gather style (Llama 3 herd of models,
 * section 3.3.2; Liu et al. 2023 ring attention moves the same K and V around a
 * ring): per layer and micro-batch an ALL_GATHER forward of K and V, S = 2 b s
 * kv d A with kv the KV heads of the rank's TP shard (KvHeads / Tp, or 1 when
 * Tp > KvHeads and KV heads are replicated) and d the head size (S is the
 * gathered output, the whole sequence), and a REDUCE_SCATTER backward of their
 * gradients, same S; with FULL recomputation the all-gather runs again in the
 * backward pass. Ulysses (Jacobs et al. 2023, section 3.1): per layer and
 * micro-batch, forward, all-to-alls of Q (send buffer b s' (h / Tp) A: the
 * rank's tokens of all its heads, chunk j the heads going to rank j), K and V
 * (b s' kv d A each) from sequence shards to head shards, and of the attention
 * output (b s' (h / Tp) A) back; backward, the same four of the gradients (plus
 * the forward four again with FULL recomputation). Ulysses needs kv a multiple
 * of Cp (no KV head replication yet: Build reports it).
 *
 * <b>EP</b> (Ep > 1, group EP). GShard (Lepikhin et al. 2020) and Switch (Fedus
 * et al. 2021, section 2.1): per MoE layer and micro-batch, a dispatch and a
 * combine ALL_TO_ALL forward and the same two backward (plus the forward two
 * again with FULL recomputation). A rank's tokens are b s' (divided by Tp with
 * sequence parallelism, each TP rank routing its shard), each sent to TopK
 * experts; with capacity padding (Switch, section 2.1) every expert's buffer
 * holds CapacityFactor x its even share, so the send buffer is S =
 * ceil(CapacityFactor x tokens x TopK) x h x A (CapacityFactor 0 is taken as
 * dropless, factor 1). Routing is taken as uniform, so chunk j of S goes to EP
 * rank j.
 *
 * <b>Compute time and bandwidth</b>: a rank's compute time is ComputeModel's
 * forward and backward FLOPs of its stage's chunks (the LM head on the last
 * chunk) for one micro-batch, times m, at GpuSpec's effective rate. The
 * bandwidth needed to hide the inter-server traffic is max(interSent,
 * interReceived) x 8 / compute time, in bit/s (NCCL's bus bandwidth notes,
 * doc/PERFORMANCE.md of nccl-tests: the 2(n-1)/n factor is already in the
 * bytes).
 *
 * <b>Cost.</b> Ranks are computed lazily, on request. A rank's totals are kept (a few hundred
 * bytes each); its entries are computed on each GetRankEntries call and not kept. Each
 * collective's bytes are tallied once per group shape (O(transfers of its schedule): a ring
 * all-reduce over n ranks has 2 n (n - 1)). Groups are shared, not copied: a group is resolved
 * for one rank with ParallelLayout::GetGroup (O(group size)) until the members so resolved for
 * one kind of group add up to the number of ranks; then every group of that kind is computed
 * once (GroupPartition, one pass over the ranks: each group's members and localSize, each
 * member's position) and looked up in O(1) from then on. The indexing thus never costs more
 * than the lookups before it (the ski-rental rule): a few ranks asked for build no index unless
 * their groups together span as many members as there are ranks, and computing every rank
 * (GetTotals) costs O(ranks x collectives per rank x peers of a rank in one schedule) beyond
 * the tallies. Should a kind's groups not partition the ranks, that kind stays resolved rank by
 * rank.
 *
 * The model, configuration, layout and GPU given to Build must not be changed afterwards.
 */
class TrafficReport
{
  public:
    /// What a training job's traffic follows from (Build; IterationSchedule::Build).
    struct Inputs
    {
        Ptr<const TransformerSpec> model;  //!< the model trained
        Ptr<const TrainingConfig> config;  //!< the batch and precision
        Ptr<const ParallelLayout> layout;  //!< the parallel layout
        uint32_t gpus{0};                  //!< the number of GPUs
        Ptr<const GpuSpec> gpu;            //!< the GPU (for compute times)
        CollectiveChoices algorithms = {}; //!< the algorithm of each collective kind
    };

    TrafficReport();

    /**
     * Check the inputs and prepare the report.
     * @param inputs the model, configuration, layout, GPUs and algorithms (none null).
     * @return an empty string, or the problem (the layout's or configuration's
     * Check message, or an unsupported combination); the report is then empty.
     */
    std::string Build(const Inputs& inputs);

    /** @return the number of ranks (0 before a successful Build). */
    uint32_t GetRankCount() const;

    /** @return the micro-batches per iteration m. */
    uint32_t GetMicroBatches() const;

    /**
     * Compute the collectives of a rank (on each call: they are not kept; aborts on a problem
     * Build did not catch).
     * @param rank a rank, less than GetRankCount().
     * @return the collectives it takes part in during one iteration.
     */
    std::vector<TrafficEntry> GetRankEntries(uint32_t rank) const;

    /**
     * @param rank a rank, less than GetRankCount().
     * @return its bytes per strategy, summed over its entries (computed on the first call, then
     * kept; aborts on a problem Build did not catch).
     */
    const TrafficTotals& GetRankTotals(uint32_t rank) const;

    /** @return the bytes per strategy summed over all ranks (computes every
     * rank's totals). */
    TrafficTotals GetTotals() const;

    /**
     * @param rank a rank, less than GetRankCount().
     * @return its compute time for one iteration (forward and backward of its
     * stage, m micro-batches).
     */
    Time GetComputeTime(uint32_t rank) const;

    /**
     * @param rank a rank, less than GetRankCount().
     * @return max(inter-server bytes sent, received) x 8 / GetComputeTime(rank),
     * in bit/s.
     */
    double GetRequiredBandwidth(uint32_t rank) const;

    /**
     * @param stage a pipeline stage.
     * @return the parameters of that stage reduced over the dense group (DP or
     * DP_CP), before the split over Tp.
     */
    uint64_t GetDenseParameters(uint32_t stage) const;

    /**
     * @param strategy a strategy.
     * @return its name: "DP", "TP", "PP", "CP" or "EP".
     */
    static std::string GetStrategyName(TrafficStrategy strategy);

    /**
     * After a Build that failed because a collective's strategy cannot serve its group (an
     * algorithm unfit for the group size, say), which kind of collective it was, so that callers
     * can name the scenario key that chose the algorithm.
     * @param[out] kind the collective kind (unchanged if false).
     * @return whether the last Build failed that way.
     */
    bool GetRefusedKind(CollectiveKind& kind) const;

    /**
     * @param phase a phase.
     * @return its name: "forward", "backward" or "optimizer".
     */
    static std::string GetPhaseName(TrafficPhase phase);

  private:
    /// The totals (and, if asked for, the entries) of one rank being computed.
    struct RankReport
    {
        TrafficTotals totals;                        //!< The sums of its collectives.
        std::vector<TrafficEntry>* entries{nullptr}; //!< Receives its collectives, if not null.
    };

    /// The parameters of one pipeline stage, before the split over tp (and ep).
    struct StageParameters
    {
        uint64_t dense;        //!< Parameters reduced over DP / DP_CP (all if Ep is 1).
        uint64_t expert;       //!< Routed experts' parameters of the stage (0 if Ep is 1).
        uint32_t moeLayers;    //!< MoE layers of the stage.
        uint64_t computeFlops; //!< Forward + backward FLOPs of one micro-batch, one
                               //!< rank.
    };

    /// The groups a rank's collectives use.
    enum GroupUse
    {
        TP_GROUP,       ///< ParallelLayout::TP.
        CP_GROUP,       ///< ParallelLayout::CP.
        EP_GROUP,       ///< ParallelLayout::EP.
        DENSE_GROUP,    ///< ParallelLayout::DP_CP if Cp > 1, else ParallelLayout::DP.
        EXPERT_GROUP,   ///< ParallelLayout::EXPERT_DP.
        DENSE_SHARD,    ///< HYBRID_SHARD: the members of a DENSE_GROUP on one server.
        DENSE_REPLICA,  ///< HYBRID_SHARD: the members of the same index in their DENSE_SHARD.
        EXPERT_SHARD,   ///< HYBRID_SHARD: the members of an EXPERT_GROUP on one server.
        EXPERT_REPLICA, ///< HYBRID_SHARD: the members of the same index in their EXPERT_SHARD.
        GROUP_USES      ///< The number of uses.
    };

    /// The group of a rank in one collective.
    struct GroupRef
    {
        GroupPartition::Members members; //!< The group, in order (shared).
        uint32_t position;               //!< The index of the rank in it.
        uint32_t localSize;              //!< CollectiveStrategy::LocalSizeOf its servers.
    };

    /// The groups of one use, indexed for all ranks at once when it pays (see the class).
    struct GroupIndex
    {
        GroupPartition partition;         //!< The groups (no rank until indexed).
        std::vector<uint32_t> localSizes; //!< Per group of partition, its localSize.
        uint64_t directMembers{0};        //!< Members of the groups resolved rank by rank.
        bool tried{false};                //!< Whether indexing was tried.
    };

    /**
     * Fill m_stages and m_embeddingCopy from the inputs (m_model, m_config, m_layout,
     * m_sequenceLength set).
     */
    void ComputeStages();

    /** Forget the computed ranks and groups. */
    void ClearComputed();

    /**
     * Compute one rank.
     * @param rank the rank.
     * @param[out] out its totals (and entries).
     * @return an empty string, or the problem.
     */
    std::string ComputeRank(uint32_t rank, RankReport& out) const;

    /**
     * @param members a group, in order.
     * @return CollectiveStrategy::LocalSizeOf the servers of its members.
     */
    uint32_t GetLocalSize(const std::vector<uint32_t>& members) const;

    /**
     * @param members a group, in order.
     * @param rank a member.
     * @return the group, shared, with the position of @p rank and the localSize.
     */
    GroupRef MakeGroupRef(std::vector<uint32_t> members, uint32_t rank) const;

    /**
     * The group of a rank: from the use's index if it has one for the rank, else resolved for
     * the rank alone (ResolveGroup), and the use indexed (IndexGroups) once the members so
     * resolved add up to the number of ranks.
     * @param use the use.
     * @param rank the rank.
     * @param[out] out its group.
     * @return an empty string, or the problem (a HYBRID_SHARD group spread unevenly).
     */
    std::string GetGroup(GroupUse use, uint32_t rank, GroupRef& out) const;

    /**
     * Resolve the group of one rank without the index.
     * @param use the use.
     * @param rank the rank.
     * @param[out] out its group.
     * @param[out] cost the members of the layout group it came from.
     * @return an empty string, or the problem (a HYBRID_SHARD group spread unevenly).
     */
    std::string ResolveGroup(GroupUse use, uint32_t rank, GroupRef& out, uint64_t& cost) const;

    /**
     * @param use TP_GROUP, CP_GROUP, EP_GROUP, DENSE_GROUP or EXPERT_GROUP.
     * @return the layout's group kind of that use.
     */
    ParallelLayout::GroupKind GetKind(GroupUse use) const;

    /**
     * Index every group of a use (and, for a shard or replica use, of its sibling): one
     * ParallelLayout::GetGroup per group, checked to partition the ranks. A kind whose groups do
     * not is left unindexed; the ranks of a HYBRID_SHARD group spread unevenly are left out (their
     * problem is found rank by rank).
     * @param use the use.
     */
    void IndexGroups(GroupUse use) const;

    /// One collective of a rank, as AddEntries appends it.
    struct EntryRow
    {
        std::string what;      //!< The tensor moved.
        CollectiveKind kind;   //!< The collective.
        GroupRef group;        //!< The group and the rank's place in it.
        uint64_t messageBytes; //!< S.
        uint64_t count;        //!< Repetitions per iteration.
        TrafficPhase phase;    //!< The phase.
    };

    /**
     * Compute one collective of a rank and add it to @p out (if its count and group allow).
     * @param strategy the strategy.
     * @param variant the variant.
     * @param row the collective.
     * @param[out] out the report.
     * @return an empty string, or the strategy's problem.
     */
    std::string AddEntry(TrafficStrategy strategy,
                         const std::string& variant,
                         const EntryRow& row,
                         RankReport& out) const;

    /**
     * Add collectives of a rank with AddEntry, in order, up to the first problem.
     * @param strategy their strategy.
     * @param variant their variant.
     * @param rows the collectives.
     * @param[out] out the report.
     * @return an empty string, or the first problem.
     */
    std::string AddEntries(TrafficStrategy strategy,
                           const std::string& variant,
                           const std::vector<EntryRow>& rows,
                           RankReport& out) const;

    /// The sizes a rank's collectives are computed from (the same for every rank).
    struct RankDims
    {
        uint64_t m;         //!< Micro-batches per iteration.
        uint64_t b;         //!< Micro-batch size.
        uint64_t s;         //!< Sequence length.
        uint64_t sLocal;    //!< Tokens per CP rank, s / Cp.
        uint64_t h;         //!< Hidden size.
        uint64_t a;         //!< Bytes per activation element.
        uint64_t l;         //!< Layers per pipeline stage.
        uint64_t recompute; //!< 2 with full recomputation (the forward runs twice), else 1.
    };

    /** @return the sizes of the built inputs. */
    RankDims GetRankDims() const;

    /**
     * Append the tensor-parallel collectives of a rank (Tp > 1).
     * @param rank the global rank.
     * @param d the sizes.
     * @param[out] out the report.
     * @return an empty string, or the problem.
     */
    std::string AddTensorParallel(uint32_t rank, const RankDims& d, RankReport& out) const;

    /**
     * Append the context-parallel collectives of a rank (Cp > 1).
     * @param rank the global rank.
     * @param d the sizes.
     * @param[out] out the report.
     * @return an empty string, or the problem.
     */
    std::string AddContextParallel(uint32_t rank, const RankDims& d, RankReport& out) const;

    /**
     * Append the pipeline-parallel send-recvs (and tied embedding all-reduce) of a rank (Pp > 1).
     * @param rank the global rank.
     * @param coordinates its coordinates.
     * @param d the sizes.
     * @param[out] out the report.
     * @return an empty string, or the problem.
     */
    std::string AddPipelineParallel(uint32_t rank,
                                    const ParallelLayout::RankCoordinates& coordinates,
                                    const RankDims& d,
                                    RankReport& out) const;

    /**
     * Append the expert-parallel all-to-alls of a rank (Ep > 1, a stage with MoE layers).
     * @param rank the global rank.
     * @param stage its pipeline stage.
     * @param d the sizes.
     * @param[out] out the report.
     * @return an empty string, or the problem.
     */
    std::string AddExpertParallel(uint32_t rank,
                                  uint32_t stage,
                                  const RankDims& d,
                                  RankReport& out) const;

    /**
     * Append the data-parallel collectives of one parameter set.
     * @param rank the global rank.
     * @param use DENSE_GROUP or EXPERT_GROUP.
     * @param parameters the rank's parameters reduced over that group.
     * @param label "dense" or "expert".
     * @param[out] out the report.
     * @return an empty string, or the problem.
     */
    std::string AddDataParallel(uint32_t rank,
                                GroupUse use,
                                uint64_t parameters,
                                const std::string& label,
                                RankReport& out) const;

    /**
     * Split a group for FSDP HYBRID_SHARD.
     * @param members a group.
     * @param rank the member the problem names.
     * @param[out] shards the members on each server, in group order; the servers in the order
     * of their first member (shard k, index j: the replica group j holds it at index k).
     * @return an empty string, or why the group is not evenly spread over servers.
     */
    std::string SplitHybrid(const std::vector<uint32_t>& members,
                            uint32_t rank,
                            std::vector<std::vector<uint32_t>>& shards) const;

    Ptr<const TransformerSpec> m_model; //!< The model.
    Ptr<const TrainingConfig> m_config; //!< The configuration.
    Ptr<const ParallelLayout> m_layout; //!< The layout.
    Ptr<const GpuSpec> m_gpu;           //!< The GPU.
    CollectiveChoices m_algorithms;     //!< Algorithm per collective kind.
    uint32_t m_ranks;                   //!< World size (0 before Build).
    /// Largest compute time of an iteration Build accepts, seconds (ns-3's clock at its
    /// default nanosecond resolution holds 2^63 ns, about 9.2e9 s).
    static constexpr double MAX_COMPUTE_SECONDS = 1e9;
    /// Largest byte count of one rank and iteration Build accepts: 2^64 / 16, so that the sum
    /// over all ranks fits 64 bits with room for a factor 4 between ranks.
    static constexpr uint64_t MAX_RANK_BYTES = uint64_t(1) << 60;

    /**
     * @param stage a pipeline stage.
     * @return its compute time per iteration, seconds.
     */
    double GetComputeSeconds(uint32_t stage) const;

    uint32_t m_microBatches;               //!< Micro-batches per iteration m.
    uint32_t m_sequenceLength;             //!< Sequence length s.
    std::vector<StageParameters> m_stages; //!< Per pipeline stage.
    uint64_t m_embeddingCopy;              //!< Tied word embedding parameters synced (0: none).
    mutable std::map<uint32_t, TrafficTotals> m_totals;  //!< Computed ranks' totals.
    mutable std::array<GroupIndex, GROUP_USES> m_groups; //!< Per use, its groups.
    mutable bool m_refused{false};                       //!< A strategy refused a group.
    mutable CollectiveKind m_refusedKind{CollectiveKind::ALL_REDUCE}; //!< Of which kind.

    /// A group shape: kind, strategy uid, group size, message size, localSize.
    using Shape = std::tuple<CollectiveKind, uint16_t, uint32_t, uint64_t, uint32_t>;
    /// Tallied traffic per group shape, computed once (or the strategy's refusal).
    mutable std::map<Shape, std::pair<std::string, CollectiveTraffic>> m_traffic;
    /// The strategies, made once per TypeId uid.
    mutable std::map<uint16_t, Ptr<CollectiveStrategy>> m_strategies;
};

} // namespace ns3

#endif /* TRAFFIC_REPORT_H */
