/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ITERATION_SCHEDULE_H
#define ITERATION_SCHEDULE_H

#include "traffic-report.h"

#include "ns3/collective-chunks.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

class GpuSpec;
class ParallelLayout;
class TrainingConfig;
class TransformerSpec;

/**
 * @ingroup llm-fabric
 * One operation of an IterationSchedule: a compute step or a collective.
 */
struct ScheduleOp
{
    /// What an operation is.
    enum Type
    {
        COMPUTE,   ///< GPU computation.
        COLLECTIVE ///< A collective (or a point-to-point send/receive).
    };

    /// The value of microBatch, virtualStage, entry and bucket when they do not apply.
    static constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();

    uint32_t id{0};     //!< Its index in IterationSchedule::GetOps().
    Type type{COMPUTE}; //!< Compute or collective.
    std::string name;   //!< Readable name, e.g. "F mb3 vs0" or "TP ALL_REDUCE".
    TrafficPhase phase{TrafficPhase::FORWARD}; //!< Forward, backward or optimizer.
    uint32_t microBatch{NONE};                 //!< Micro-batch, in [0, m), or NONE (optimizer).
    uint32_t virtualStage{NONE};     //!< The rank's model chunk, in [0, VirtualStages), or NONE.
    std::vector<uint32_t> dependsOn; //!< Ids (all smaller than id) of the ops that must finish
                                     //!< before this one starts.

    // COMPUTE only.
    uint64_t flops{0}; //!< FLOPs of the op (ComputeModel), for one rank.
    Time duration;     //!< Its duration on the GpuSpec (see IterationSchedule on rounding).

    // COLLECTIVE only.
    uint32_t entry{NONE}; //!< Index in TrafficReport::GetRankEntries(rank).
    TrafficStrategy strategy{TrafficStrategy::DP};   //!< The entry's strategy.
    CollectiveKind kind{CollectiveKind::ALL_REDUCE}; //!< The entry's collective.
    std::vector<uint32_t> members;                   //!< The entry's group, in group order.
    uint64_t messageBytes{0}; //!< Message size S of one collective (for a bucket, the
                              //!< bucket's bytes).
    uint64_t count{0};        //!< How many such collectives the op stands for, executed
                              //!< one after the other.
    uint32_t bucket{NONE};    //!< For a bucket of a gradient reduction, its index.
    uint32_t bucketCount{0};  //!< For a bucket, the number of buckets of its entry; else 0.
};

/**
 * @ingroup llm-fabric
 * The ordered operations one rank executes in one training iteration: its
 * compute steps and every collective of its TrafficReport entries, with the
 * dependencies between them. This is what a training application executes.
 *
 * <b>Compute ops.</b> One per (micro-batch, virtual stage, phase): "F" the
 * forward of the micro-batch through the chunk's layers, "B" its backward
 * (recomputation included), each of the FLOPs of
 * ComputeModel::GetChunkFlops (forward and backward of the chunk, the LM head on
 * the last chunk of the model). The backward ops of the last
 * micro-batch are cut into segments at the points where gradient buckets become
 * ready (below). After all backward ops comes an "optimizer step" op of zero
 * FLOPs. Durations: the compute ops' FLOPs are summed in schedule order and the
 * duration of an op is GetDuration(sum up to and including it) -
 * GetDuration(sum before it), so that the durations add up exactly to
 * ComputeModel::GetDuration of the rank's total, TrafficReport::GetComputeTime
 * (each op is within one time unit of GetDuration of its own FLOPs).
 *
 * <b>Pipeline order</b> (the order of the compute ops). Pp = 1: F0 B0 F1 B1 ...
 * (gradient accumulation). VirtualStages v = 1: 1F1B with flush (PipeDream-Flush,
 * Narayanan et al. 2021, section 2.2.1; Megatron-LM's
 * forward_backward_pipelining_without_interleaving): stage p runs w = min(Pp - p
 * - 1, m) warm-up forwards F0 ... F(w-1), then for i = 0 ... m - w - 1 the pair
 * F(w + i) B(i), then the cool-down backwards B(m - w) ... B(m - 1). v > 1:
 * interleaved 1F1B (section 2.2.2; Megatron-LM's
 * forward_backward_pipelining_with_interleaving), which needs m a multiple of Pp:
 * the k-th forward (k in [0, m v)) is of chunk (k mod (Pp v)) div Pp and
 * micro-batch (k div (Pp v)) Pp + k mod Pp; the k-th backward is of the same
 * micro-batch and chunk v - 1 - (k mod (Pp v)) div Pp. Warm-up w = min((Pp - p -
 * 1) 2 + (v - 1) Pp, m v), or w = m v (all forwards first) when m = Pp; then for
 * i = 0 ... m v - w - 1 the k = w + i-th forward and the i-th backward; then the
 * remaining backwards. Chunk k of stage p is the model chunk k Pp + p (as in
 * TrafficReport).
 *
 * <b>TP, CP and EP collectives</b> (Megatron-LM runs them inside each layer, on
 * the critical path): coarsened to one op per entry and compute op, placed right
 * after the compute op of its phase, with count the number of those collectives
 * in the chunk for one micro-batch: the entry's count is split over the compute
 * ops of its phase in proportion to the chunk's layers (EP: the chunk's MoE
 * layers), rounding cumulatively so the counts add up to the entry's. Each
 * depends on the op before it, and the next compute op depends on the last of
 * them: a count-c op stands for the c collectives interleaved with the layers'
 * compute.
 *
 * <b>PP</b>: before a forward of a chunk that is not the first of the model, a
 * receive of its input activations (entry "from previous stage", count 1); after
 * it (and its TP/CP/EP ops), when the chunk is not the last, a send of its output
 * (depending on them). Backward symmetrically: receive of the output gradients
 * before, send of the input gradients after. Receives have no dependency: they
 * may be posted early. The tied embedding all-reduce comes after the last
 * backward op.
 *
 * <b>DP gradient reduction in buckets</b> (PyTorch DDP, Li et al. 2020, section
 * 3.2.3; Megatron-LM's overlap_grad_reduce). Each gradient reduction entry of the
 * report (DP, BACKWARD, not ALL_GATHER: the all-reduce, ZeRO and FSDP
 * reduce-scatters) of S bytes is cut into ceil(S / BucketBytes) buckets, all of
 * BucketBytes except the last, in reverse layer order (the order in which
 * backward produces gradients). Gradients are accumulated over the micro-batches
 * (no_sync) and reduced during the backward of the last micro-batch: its
 * backward ops are taken, in schedule order (chunks in reverse order), to
 * produce the rank's gradient bytes at a uniform rate per FLOP, so bucket j
 * (cumulative bytes c_j) becomes ready after ceil(F c_j / S) of their F FLOPs:
 * the backward ops are cut there, and the bucket op depends on the segment
 * ending at that point (and on the previous bucket of the entry: one
 * communication stream), so that the later segments overlap it. The FSDP
 * HYBRID_SHARD all-reduce across replicas (S' bytes) is cut into as many
 * buckets, bucket j of CollectiveChunks::ChunkBytes(S', buckets, j) bytes,
 * depending on reduce-scatter bucket j.
 * DDP's smaller first bucket is not modelled.
 *
 * <b>ZeRO-3 / FSDP FULL_SHARD parameter all-gathers</b> (one per micro-batch in
 * each of forward and backward, as in the report): the forward one feeds the
 * micro-batch's first forward op (chunk 0), the backward one its first backward
 * op (chunk v - 1). Prefetched one step ahead (FSDP's forward_prefetch and
 * BACKWARD_PRE, DeepSpeed's prefetch): the all-gather needed by compute op i is
 * issued just before compute op i - 1 and depends on compute op i - 2 (it is
 * released when op i - 1 starts); compute op i depends on it.
 *
 * <b>Optimizer phase</b>: the optimizer step depends on the last compute op, the
 * last bucket of every gradient reduction and the tied embedding all-reduce; the
 * ZeRO-1/2 (and FSDP SHARD_GRAD_OP) parameter all-gather depends on it.
 *
 * The collectives of the schedule are exactly the report's entries: for every
 * entry, the ops with that entry index have its kind and members and either its
 * message size with counts adding up to its count, or (buckets, count 1 each)
 * message sizes adding up to its message size.
 *
 * <b>JSON</b> (ToJson): an object {"rank": r, "stage": p, "microBatches": m,
 * "virtualStages": v, "computeNs": total compute in ns, "ops": [op, ...]} where
 * each op is {"id", "type" ("compute" or "collective"), "name", "phase"
 * ("forward", "backward", "optimizer"), "microBatch", "virtualStage" (integers or
 * null), "dependsOn" (array of ids)} plus, for compute, "flops" and
 * "durationNs", and for a collective "entry", "strategy" ("DP", "TP", ...),
 * "kind" (GetCollectiveKindName), "members" (array of ranks),
 * "messageBytes", "count", and "bucket" and "bucketCount" (null and 0 if not a
 * bucket). Integers are written in decimal; strings are escaped.
 */
class IterationSchedule
{
  public:
    /// PyTorch DDP's default bucket_cap_mb, 25 MiB.
    static constexpr uint64_t DEFAULT_BUCKET_BYTES = 25 * 1024 * 1024;

    IterationSchedule();

    /**
     * Build the schedule of one rank.
     * @param inputs the model, configuration, layout, GPUs and algorithms (TrafficReport's).
     * @param rank the rank, less than the layout's world size.
     * @param[out] out the schedule; cleared on a problem.
     * @param bucketBytes the DP gradient bucket size (at least 1).
     * @return an empty string, or the problem (TrafficReport::Build's, or an
     * unsupported combination).
     */
    static std::string Build(const TrafficReport::Inputs& inputs,
                             uint32_t rank,
                             IterationSchedule& out,
                             uint64_t bucketBytes = DEFAULT_BUCKET_BYTES);

    /** @return the operations, in execution order (op i has id i). */
    const std::vector<ScheduleOp>& GetOps() const;

    /** @return the report the collectives come from. */
    const TrafficReport& GetReport() const;

    /** @return the rank. */
    uint32_t GetRank() const;

    /** @return its pipeline stage. */
    uint32_t GetStage() const;

    /** @return the micro-batches per iteration m. */
    uint32_t GetMicroBatches() const;

    /** @return the virtual stages (model chunks) per rank v. */
    uint32_t GetVirtualStages() const;

    /** @return the bucket size used. */
    uint64_t GetBucketBytes() const;

    /** @return the sum of the compute ops' durations. */
    Time GetComputeTime() const;

    /**
     * @return one line per op: id, name, phase, micro-batch and virtual stage,
     * duration (compute) or kind, group, bytes and count (collective), and
     * dependencies.
     */
    std::string Print() const;

    /** @return the schedule as JSON (see the class documentation). */
    std::string ToJson() const;

  private:
    TrafficReport m_report;        //!< The report of the inputs.
    std::vector<ScheduleOp> m_ops; //!< The operations.
    uint32_t m_rank;               //!< The rank.
    uint32_t m_stage;              //!< Its pipeline stage.
    uint32_t m_microBatches;       //!< m.
    uint32_t m_virtualStages;      //!< v.
    uint64_t m_bucketBytes;        //!< DP bucket size.
};

} // namespace ns3

#endif /* ITERATION_SCHEDULE_H */
