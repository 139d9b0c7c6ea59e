/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "iteration-schedule.h"

#include "compute-model.h"
#include "gpu-spec.h"
#include "parallel-layout.h"
#include "training-config.h"
#include "transformer-spec.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IterationSchedule");

namespace
{

/// One compute step of the pipeline order.
struct Slot
{
    bool forward;        //!< Forward (true) or backward.
    uint32_t microBatch; //!< The micro-batch.
    uint32_t chunk;      //!< The rank's virtual stage (model chunk k Pp + stage).
};

/**
 * @param pp the pipeline-parallel degree.
 * @param v the virtual stages per rank.
 * @param m the micro-batches (a multiple of pp when v > 1).
 * @param stage the pipeline stage.
 * @return the compute steps of the stage, in order (see IterationSchedule).
 */
std::vector<Slot>
PipelineOrder(uint32_t pp, uint32_t v, uint32_t m, uint32_t stage)
{
    std::vector<Slot> order;
    if (v == 1)
    {
        // PipeDream-Flush / Megatron-LM without interleaving.
        const uint32_t warmup = std::min(pp - stage - 1, m);
        for (uint32_t i = 0; i < warmup; ++i)
        {
            order.push_back({true, i, 0});
        }
        for (uint32_t i = 0; i + warmup < m; ++i)
        {
            order.push_back({true, warmup + i, 0});
            order.push_back({false, i, 0});
        }
        for (uint32_t i = m - warmup; i < m; ++i)
        {
            order.push_back({false, i, 0});
        }
        return order;
    }
    // Megatron-LM's interleaved 1F1B.
    const uint32_t total = m * v;
    const uint32_t group = pp * v;
    auto forward = [&](uint32_t k) {
        return Slot{true, (k / group) * pp + k % pp, (k % group) / pp};
    };
    auto backward = [&](uint32_t k) {
        return Slot{false, (k / group) * pp + k % pp, v - 1 - (k % group) / pp};
    };
    uint32_t warmup = total;
    if (m != pp)
    {
        warmup = std::min((pp - stage - 1) * 2 + (v - 1) * pp, total);
    }
    for (uint32_t k = 0; k < warmup; ++k)
    {
        order.push_back(forward(k));
    }
    for (uint32_t i = 0; i + warmup < total; ++i)
    {
        order.push_back(forward(warmup + i));
        order.push_back(backward(i));
    }
    for (uint32_t i = total - warmup; i < total; ++i)
    {
        order.push_back(backward(i));
    }
    return order;
}

/**
 * @param text some text.
 * @return it as a JSON string literal, quotes included.
 */
std::string
JsonString(const std::string& text)
{
    std::ostringstream out;
    out << '"';
    for (char c : text)
    {
        switch (c)
        {
        case '"':
            out << "\\\"";
            break;
        case '\\':
            out << "\\\\";
            break;
        case '\n':
            out << "\\n";
            break;
        case '\t':
            out << "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
            {
                const char* digits = "0123456789abcdef";
                out << "\\u00" << digits[(c >> 4) & 0xf] << digits[c & 0xf];
            }
            else
            {
                out << c;
            }
        }
    }
    out << '"';
    return out.str();
}

/**
 * @param value an index or ScheduleOp::NONE.
 * @return it in decimal, or "null".
 */
std::string
JsonIndex(uint32_t value)
{
    return value == ScheduleOp::NONE ? "null" : std::to_string(value);
}

/**
 * @param values some integers.
 * @return them as a JSON array.
 */
std::string
JsonArray(const std::vector<uint32_t>& values)
{
    std::ostringstream out;
    out << '[';
    for (std::size_t i = 0; i < values.size(); ++i)
    {
        out << (i > 0 ? "," : "") << values[i];
    }
    out << ']';
    return out.str();
}

/// The rank's work per virtual stage (model chunk): FLOPs of one micro-batch and the weights of
/// the in-layer collectives (layers; MoE layers for EP).
struct ChunkWork
{
    uint32_t layers;                     //!< Layers per chunk.
    std::vector<uint64_t> forwardFlops;  //!< Forward FLOPs per virtual stage.
    std::vector<uint64_t> backwardFlops; //!< Backward FLOPs per virtual stage.
    std::vector<uint64_t> moeLayers;     //!< MoE layers per virtual stage.
};

/**
 * @param model the model.
 * @param config the batch and precision.
 * @param layout the parallel layout.
 * @param stage the pipeline stage.
 * @return the work of each of the stage's virtual stages.
 */
ChunkWork
GetChunkWork(const TransformerSpec& model,
             const TrainingConfig& config,
             const ParallelLayout& layout,
             uint32_t stage)
{
    const uint32_t pp = layout.GetPp();
    const uint32_t v = layout.GetVirtualStages();
    ChunkWork work{model.GetLayers() / (pp * v), {}, {}, std::vector<uint64_t>(v, 0)};
    for (uint32_t k = 0; k < v; ++k)
    {
        const uint32_t chunk = k * pp + stage;
        const ComputeModel::PassFlops flops =
            ComputeModel::GetChunkFlops(model, config, layout, chunk);
        work.forwardFlops.push_back(flops.forward);
        work.backwardFlops.push_back(flops.backward);
        const uint32_t first = chunk * work.layers;
        for (uint32_t l = first; l < first + work.layers; ++l)
        {
            work.moeLayers[k] += model.IsMoeLayer(l) ? 1 : 0;
        }
    }
    return work;
}

/// The rank's report entries (indices), sorted by where they go in the schedule.
struct EntryPlaces
{
    std::vector<uint32_t> inLayer;              //!< TP, CP, EP.
    uint32_t receiveForward{ScheduleOp::NONE};  //!< Activations from the previous stage.
    uint32_t sendForward{ScheduleOp::NONE};     //!< Activations to the next stage.
    uint32_t receiveBackward{ScheduleOp::NONE}; //!< Gradients from the next stage.
    uint32_t sendBackward{ScheduleOp::NONE};    //!< Gradients to the previous stage.
    uint32_t tied{ScheduleOp::NONE};            //!< Tied embedding all-reduce.
    std::vector<uint32_t> forwardGathers;       //!< ZeRO-3 / FULL_SHARD, forward.
    std::vector<uint32_t> backwardGathers;      //!< ZeRO-3 / FULL_SHARD, backward.
    std::vector<uint32_t> optimizerGathers;     //!< ZeRO-1/2, SHARD_GRAD_OP.
    std::vector<uint32_t> reductions;           //!< Gradient reductions, bucketed.
    std::vector<uint32_t> followers;            //!< Hybrid all-reduce of a reduction.

    /**
     * @param e an entry.
     * @return whether it is cut into buckets (a reduction or its follower).
     */
    bool IsBucketed(uint32_t e) const
    {
        return std::find(reductions.begin(), reductions.end(), e) != reductions.end() ||
               std::find(followers.begin(), followers.end(), e) != followers.end();
    }
};

/**
 * Place a PP entry.
 * @param entries the rank's entries.
 * @param e the entry.
 * @param[in,out] places where it goes.
 * @return whether the schedule has a place for it.
 */
bool
PlacePipelineEntry(const std::vector<TrafficEntry>& entries, uint32_t e, EntryPlaces& places)
{
    const TrafficEntry& entry = entries[e];
    if (entry.kind == CollectiveKind::SEND_RECV && entry.phase == TrafficPhase::FORWARD)
    {
        (entry.groupRank == 0 ? places.sendForward : places.receiveForward) = e;
    }
    else if (entry.kind == CollectiveKind::SEND_RECV && entry.phase == TrafficPhase::BACKWARD)
    {
        (entry.groupRank == 0 ? places.sendBackward : places.receiveBackward) = e;
    }
    else if (entry.kind == CollectiveKind::ALL_REDUCE && entry.count == 1)
    {
        places.tied = e;
    }
    else
    {
        return false;
    }
    return true;
}

/**
 * Place a DP entry.
 * @param entries the rank's entries.
 * @param e the entry.
 * @param m the micro-batches.
 * @param[in,out] places where it goes.
 * @return whether the schedule has a place for it.
 */
bool
PlaceDataParallelEntry(const std::vector<TrafficEntry>& entries,
                       uint32_t e,
                       uint32_t m,
                       EntryPlaces& places)
{
    const TrafficEntry& entry = entries[e];
    if (entry.kind == CollectiveKind::ALL_GATHER)
    {
        if (entry.phase == TrafficPhase::FORWARD && entry.count == m)
        {
            places.forwardGathers.push_back(e);
        }
        else if (entry.phase == TrafficPhase::BACKWARD && entry.count == m)
        {
            places.backwardGathers.push_back(e);
        }
        else if (entry.phase == TrafficPhase::OPTIMIZER && entry.count == 1)
        {
            places.optimizerGathers.push_back(e);
        }
        else
        {
            return false;
        }
    }
    else if (entry.phase == TrafficPhase::BACKWARD && entry.count == 1)
    {
        std::vector<uint32_t>& reductions = places.reductions;
        if (entry.variant == "fsdp-hybrid-shard" && entry.kind == CollectiveKind::ALL_REDUCE &&
            !reductions.empty() && places.followers[reductions.back()] == ScheduleOp::NONE)
        {
            places.followers[reductions.back()] = e;
        }
        else
        {
            reductions.push_back(e);
        }
    }
    else
    {
        return false;
    }
    return true;
}

/**
 * Sort the rank's entries by where they go.
 * @param entries the rank's entries.
 * @param m the micro-batches.
 * @param[out] places where they go.
 * @return an empty string, or the entry that has no place.
 */
std::string
PlaceEntries(const std::vector<TrafficEntry>& entries, uint32_t m, EntryPlaces& places)
{
    places.followers.assign(entries.size(), ScheduleOp::NONE);
    for (uint32_t e = 0; e < entries.size(); ++e)
    {
        const TrafficEntry& entry = entries[e];
        bool placed = true;
        switch (entry.strategy)
        {
        case TrafficStrategy::TP:
        case TrafficStrategy::CP:
        case TrafficStrategy::EP:
            placed = entry.phase != TrafficPhase::OPTIMIZER;
            places.inLayer.push_back(e);
            break;
        case TrafficStrategy::PP:
            placed = PlacePipelineEntry(entries, e, places);
            break;
        case TrafficStrategy::DP:
            placed = PlaceDataParallelEntry(entries, e, m, places);
            break;
        }
        if (!placed)
        {
            std::ostringstream message;
            message << "the " << TrafficReport::GetStrategyName(entry.strategy) << " "
                    << GetCollectiveKindName(entry.kind) << " of " << entry.what
                    << " cannot be scheduled";
            return message.str();
        }
    }
    return "";
}

/**
 * Split the in-layer collectives over the compute ops of their phase: an entry's count in
 * proportion to the chunks' weights, with cumulative rounding.
 * @param entries the rank's entries.
 * @param inLayer the in-layer entries.
 * @param slots the compute steps.
 * @param work the chunks' weights.
 * @param[out] counts per in-layer entry, its count at each slot.
 * @return an empty string, or an entry that has no layer to go with.
 */
std::string
SplitInLayer(const std::vector<TrafficEntry>& entries,
             const std::vector<uint32_t>& inLayer,
             const std::vector<Slot>& slots,
             const ChunkWork& work,
             std::vector<std::vector<uint64_t>>& counts)
{
    counts.assign(inLayer.size(), std::vector<uint64_t>(slots.size(), 0));
    for (std::size_t i = 0; i < inLayer.size(); ++i)
    {
        const TrafficEntry& entry = entries[inLayer[i]];
        const bool forward = entry.phase == TrafficPhase::FORWARD;
        auto weight = [&](const Slot& slot) -> uint64_t {
            return entry.strategy == TrafficStrategy::EP ? work.moeLayers[slot.chunk] : work.layers;
        };
        uint64_t totalWeight = 0;
        for (const Slot& slot : slots)
        {
            totalWeight += slot.forward == forward ? weight(slot) : 0;
        }
        if (totalWeight == 0)
        {
            return "the " + TrafficReport::GetStrategyName(entry.strategy) + " " + entry.what +
                   " have no layer to go with";
        }
        uint64_t cumulative = 0;
        uint64_t given = 0;
        for (std::size_t s = 0; s < slots.size(); ++s)
        {
            if (slots[s].forward != forward)
            {
                continue;
            }
            cumulative += weight(slots[s]);
            uint64_t upTo = entry.count / totalWeight * cumulative +
                            entry.count % totalWeight * cumulative / totalWeight;
            counts[i][s] = upTo - given;
            given = upTo;
        }
    }
    return "";
}

/// A bucket of a gradient reduction.
struct Bucket
{
    uint64_t position;  //!< FLOPs of the last backward after which it is ready.
    uint32_t reduction; //!< Index in EntryPlaces::reductions.
    uint32_t index;     //!< Bucket index.
    uint32_t count;     //!< Buckets of the reduction.
    uint64_t bytes;     //!< Its bytes.
};

/**
 * Cut the gradient reductions into buckets, positioned on the FLOPs of the last micro-batch's
 * backward ops (in schedule order).
 * @param entries the rank's entries.
 * @param reductions the gradient reductions.
 * @param bucketBytes the bucket size.
 * @param lastFlops the FLOPs of the last micro-batch's backward ops.
 * @param[out] buckets the buckets, by position.
 * @return an empty string, or why there are too many.
 */
std::string
MakeBuckets(const std::vector<TrafficEntry>& entries,
            const std::vector<uint32_t>& reductions,
            uint64_t bucketBytes,
            uint64_t lastFlops,
            std::vector<Bucket>& buckets)
{
    for (uint32_t r = 0; r < reductions.size(); ++r)
    {
        const uint64_t total = entries[reductions[r]].messageBytes;
        const uint64_t count = std::max<uint64_t>(1, (total + bucketBytes - 1) / bucketBytes);
        if (count > 1000000)
        {
            std::ostringstream message;
            message << "too many gradient buckets (" << count << ") for " << bucketBytes
                    << " bytes per bucket";
            return message.str();
        }
        uint64_t cumulative = 0;
        for (uint32_t j = 0; j < count; ++j)
        {
            const uint64_t bytes = std::min(bucketBytes, total - cumulative);
            cumulative += bytes;
            uint64_t position = lastFlops;
            if (j + 1 < count && total > 0)
            {
                long double exact = static_cast<long double>(lastFlops) *
                                    static_cast<long double>(cumulative) /
                                    static_cast<long double>(total);
                position = static_cast<uint64_t>(std::ceil(exact));
                position = std::min(lastFlops, std::max<uint64_t>(position, 1));
            }
            buckets.push_back({position, r, j, static_cast<uint32_t>(count), bytes});
        }
    }
    std::stable_sort(buckets.begin(), buckets.end(), [](const Bucket& a, const Bucket& b) {
        return a.position < b.position;
    });
    return "";
}

/**
 * Emits a rank's ops in execution order, slot by slot, then the optimizer phase (see
 * IterationSchedule for the rules).
 */
class OpEmitter
{
  public:
    /**
     * @param entries the rank's entries.
     * @param places where they go.
     * @param slots the compute steps.
     * @param work the chunks' work.
     * @param[out] ops where the ops go.
     */
    OpEmitter(const std::vector<TrafficEntry>& entries,
              const EntryPlaces& places,
              const std::vector<Slot>& slots,
              const ChunkWork& work,
              std::vector<ScheduleOp>& ops)
        : m_entries(entries),
          m_places(places),
          m_slots(slots),
          m_work(work),
          m_ops(ops),
          m_gatherOps(slots.size()),
          m_lastBucketOp(places.reductions.size(), ScheduleOp::NONE),
          m_lastFollowerOp(places.reductions.size(), ScheduleOp::NONE)
    {
    }

    /**
     * Emit the compute steps and the collectives around them.
     * @param layout the parallel layout.
     * @param stage the pipeline stage.
     * @param m the micro-batches.
     * @param inLayerCounts the in-layer entries' counts per slot (SplitInLayer).
     * @param buckets the gradient buckets (MakeBuckets).
     * @return an empty string, or an internal error.
     */
    std::string EmitSlots(const ParallelLayout& layout,
                          uint32_t stage,
                          uint32_t m,
                          const std::vector<std::vector<uint64_t>>& inLayerCounts,
                          const std::vector<Bucket>& buckets)
    {
        m_buckets = &buckets;
        const uint32_t pp = layout.GetPp();
        const uint32_t chunks = pp * layout.GetVirtualStages();
        if (!m_slots.empty())
        {
            EmitGathers(0, ScheduleOp::NONE);
        }
        for (std::size_t s = 0; s < m_slots.size(); ++s)
        {
            const Slot& slot = m_slots[s];
            const uint32_t chunk = slot.chunk * pp + stage;
            if (s + 1 < m_slots.size())
            {
                EmitGathers(s + 1, m_previousEnd);
            }
            std::vector<uint32_t> inputs;
            if (m_previousEnd != ScheduleOp::NONE)
            {
                inputs.push_back(m_previousEnd);
            }
            inputs.insert(inputs.end(), m_gatherOps[s].begin(), m_gatherOps[s].end());
            const uint32_t receive =
                slot.forward ? (chunk > 0 ? m_places.receiveForward : ScheduleOp::NONE)
                             : (chunk + 1 < chunks ? m_places.receiveBackward : ScheduleOp::NONE);
            if (receive != ScheduleOp::NONE)
            {
                inputs.push_back(Add(Collective(receive, &slot, "")));
            }
            uint32_t end = EmitCompute(slot, inputs, !slot.forward && slot.microBatch + 1 == m);

            // The collectives inside the chunk's layers.
            for (std::size_t i = 0; i < m_places.inLayer.size(); ++i)
            {
                if (inLayerCounts[i][s] == 0)
                {
                    continue;
                }
                ScheduleOp op = Collective(m_places.inLayer[i], &slot, "");
                op.count = inLayerCounts[i][s];
                op.dependsOn.push_back(end);
                end = Add(op);
            }
            m_previousEnd = end;

            const uint32_t send =
                slot.forward ? (chunk + 1 < chunks ? m_places.sendForward : ScheduleOp::NONE)
                             : (chunk > 0 ? m_places.sendBackward : ScheduleOp::NONE);
            if (send != ScheduleOp::NONE)
            {
                ScheduleOp op = Collective(send, &slot, "");
                op.dependsOn.push_back(end);
                Add(op);
            }
        }
        if (m_nextBucket != buckets.size())
        {
            return "internal error: gradient buckets left after the last backward";
        }
        return "";
    }

    /**
     * After the backward passes: tied embedding, optimizer step, ZeRO-1/2 all-gather.
     * @param m the micro-batches.
     */
    void EmitOptimizer(uint32_t m)
    {
        std::vector<uint32_t> optimizerInputs;
        if (m_previousEnd != ScheduleOp::NONE)
        {
            optimizerInputs.push_back(m_previousEnd);
        }
        if (m_places.tied != ScheduleOp::NONE)
        {
            ScheduleOp op = Collective(m_places.tied, nullptr, "");
            op.microBatch = m - 1;
            if (m_previousEnd != ScheduleOp::NONE)
            {
                op.dependsOn.push_back(m_previousEnd);
            }
            optimizerInputs.push_back(Add(op));
        }
        for (std::size_t r = 0; r < m_places.reductions.size(); ++r)
        {
            for (uint32_t id : {m_lastBucketOp[r], m_lastFollowerOp[r]})
            {
                if (id != ScheduleOp::NONE)
                {
                    optimizerInputs.push_back(id);
                }
            }
        }
        ScheduleOp step;
        step.type = ScheduleOp::COMPUTE;
        step.name = "optimizer step";
        step.phase = TrafficPhase::OPTIMIZER;
        step.dependsOn = optimizerInputs;
        const uint32_t stepId = Add(step);
        for (uint32_t e : m_places.optimizerGathers)
        {
            ScheduleOp op = Collective(e, nullptr, "");
            op.dependsOn.push_back(stepId);
            Add(op);
        }
    }

  private:
    /**
     * @param op an op.
     * @return its id, once appended.
     */
    uint32_t Add(ScheduleOp op)
    {
        op.id = static_cast<uint32_t>(m_ops.size());
        m_ops.push_back(std::move(op));
        return m_ops.back().id;
    }

    /**
     * @param e an entry.
     * @param slot the compute step it goes with, or nullptr.
     * @param suffix added to its name.
     * @return one collective op of the entry (count 1, no dependency).
     */
    ScheduleOp Collective(uint32_t e, const Slot* slot, const std::string& suffix) const
    {
        const TrafficEntry& entry = m_entries[e];
        ScheduleOp op;
        op.type = ScheduleOp::COLLECTIVE;
        op.name = TrafficReport::GetStrategyName(entry.strategy) + " " +
                  GetCollectiveKindName(entry.kind) + " " + entry.what + suffix;
        op.phase = entry.phase;
        if (slot != nullptr)
        {
            op.microBatch = slot->microBatch;
            op.virtualStage = slot->chunk;
        }
        op.entry = e;
        op.strategy = entry.strategy;
        op.kind = entry.kind;
        op.members = entry.GetMembers();
        op.messageBytes = entry.messageBytes;
        op.count = 1;
        return op;
    }

    /**
     * Emit the all-gathers compute step @p target needs (prefetched one step ahead).
     * @param target the compute step.
     * @param release the op they depend on, or NONE.
     */
    void EmitGathers(std::size_t target, uint32_t release)
    {
        const Slot& slot = m_slots[target];
        const std::vector<uint32_t>* gathers = nullptr;
        if (slot.forward && slot.chunk == 0)
        {
            gathers = &m_places.forwardGathers;
        }
        else if (!slot.forward && slot.chunk + 1 == m_work.forwardFlops.size())
        {
            gathers = &m_places.backwardGathers;
        }
        if (gathers == nullptr)
        {
            return;
        }
        for (uint32_t e : *gathers)
        {
            ScheduleOp op = Collective(e, &slot, " (prefetch)");
            if (release != ScheduleOp::NONE)
            {
                op.dependsOn.push_back(release);
            }
            m_gatherOps[target].push_back(Add(op));
        }
    }

    /**
     * Emit a compute step, cut at the bucket positions for the last micro-batch's backward,
     * and the buckets ready after each cut.
     * @param slot the compute step.
     * @param inputs the ops it depends on.
     * @param lastBackward whether it is a backward of the last micro-batch.
     * @return the id of its last op.
     */
    uint32_t EmitCompute(const Slot& slot, const std::vector<uint32_t>& inputs, bool lastBackward)
    {
        const uint64_t flops =
            slot.forward ? m_work.forwardFlops[slot.chunk] : m_work.backwardFlops[slot.chunk];
        std::vector<uint64_t> cuts;
        if (lastBackward)
        {
            for (std::size_t b = m_nextBucket; b < m_buckets->size(); ++b)
            {
                const uint64_t position = (*m_buckets)[b].position;
                if (position > m_lastOffset && position < m_lastOffset + flops &&
                    (cuts.empty() || cuts.back() != position - m_lastOffset))
                {
                    cuts.push_back(position - m_lastOffset);
                }
            }
        }
        cuts.push_back(flops);
        uint64_t done = 0;
        uint32_t end = ScheduleOp::NONE;
        for (std::size_t c = 0; c < cuts.size(); ++c)
        {
            ScheduleOp op;
            op.type = ScheduleOp::COMPUTE;
            std::ostringstream name;
            name << (slot.forward ? "F" : "B") << " mb" << slot.microBatch << " vs" << slot.chunk;
            if (cuts.size() > 1)
            {
                name << " part " << c + 1 << "/" << cuts.size();
            }
            op.name = name.str();
            op.phase = slot.forward ? TrafficPhase::FORWARD : TrafficPhase::BACKWARD;
            op.microBatch = slot.microBatch;
            op.virtualStage = slot.chunk;
            op.flops = cuts[c] - done;
            done = cuts[c];
            if (end == ScheduleOp::NONE)
            {
                op.dependsOn = inputs;
            }
            else
            {
                op.dependsOn.push_back(end);
            }
            end = Add(op);
            if (lastBackward)
            {
                EmitBuckets(m_lastOffset + done, end, slot);
            }
        }
        if (lastBackward)
        {
            m_lastOffset += flops;
        }
        return end;
    }

    /**
     * Emit the buckets ready at a point of the last micro-batch's backward (and their hybrid
     * all-reduce followers).
     * @param upTo the FLOPs of the last micro-batch's backward done at that point.
     * @param segment the compute op ending there.
     * @param slot its compute step.
     */
    void EmitBuckets(uint64_t upTo, uint32_t segment, const Slot& slot)
    {
        const std::vector<Bucket>& buckets = *m_buckets;
        while (m_nextBucket < buckets.size() && buckets[m_nextBucket].position <= upTo)
        {
            const Bucket& bucket = buckets[m_nextBucket++];
            const uint32_t e = m_places.reductions[bucket.reduction];
            std::ostringstream suffix;
            suffix << " bucket " << bucket.index + 1 << "/" << bucket.count;
            ScheduleOp op = Collective(e, &slot, suffix.str());
            op.messageBytes = bucket.bytes;
            op.bucket = bucket.index;
            op.bucketCount = bucket.count;
            op.dependsOn.push_back(segment);
            if (m_lastBucketOp[bucket.reduction] != ScheduleOp::NONE)
            {
                op.dependsOn.push_back(m_lastBucketOp[bucket.reduction]);
            }
            const uint32_t id = Add(op);
            m_lastBucketOp[bucket.reduction] = id;
            const uint32_t f = m_places.followers[e];
            if (f != ScheduleOp::NONE)
            {
                ScheduleOp follow = Collective(f, &slot, suffix.str());
                follow.messageBytes = CollectiveChunks::ChunkBytes(m_entries[f].messageBytes,
                                                                   bucket.count,
                                                                   bucket.index);
                follow.bucket = bucket.index;
                follow.bucketCount = bucket.count;
                follow.dependsOn.push_back(id);
                if (m_lastFollowerOp[bucket.reduction] != ScheduleOp::NONE)
                {
                    follow.dependsOn.push_back(m_lastFollowerOp[bucket.reduction]);
                }
                m_lastFollowerOp[bucket.reduction] = Add(follow);
            }
        }
    }

    const std::vector<TrafficEntry>& m_entries;     //!< The rank's entries.
    const EntryPlaces& m_places;                    //!< Where they go.
    const std::vector<Slot>& m_slots;               //!< The compute steps.
    const ChunkWork& m_work;                        //!< The chunks' work.
    std::vector<ScheduleOp>& m_ops;                 //!< The ops emitted.
    const std::vector<Bucket>* m_buckets{nullptr};  //!< The gradient buckets, by position.
    std::vector<std::vector<uint32_t>> m_gatherOps; //!< Per slot, its prefetched all-gathers.
    std::vector<uint32_t> m_lastBucketOp;           //!< Per reduction, its last bucket op.
    std::vector<uint32_t> m_lastFollowerOp;         //!< Per reduction, its last follower op.
    std::size_t m_nextBucket{0};                    //!< The next bucket to emit.
    uint64_t m_lastOffset{0}; //!< FLOPs of the last micro-batch's backward emitted so far.
    uint32_t m_previousEnd{ScheduleOp::NONE}; //!< The last op of the previous slot.
};

/**
 * Set the compute ops' durations with cumulative rounding, so that they add up to the total's.
 * @param gpu the GPU.
 * @param[in,out] ops the ops.
 */
void
SetDurations(const GpuSpec& gpu, std::vector<ScheduleOp>& ops)
{
    uint64_t cumulative = 0;
    Time before = ComputeModel::GetDuration(0, gpu);
    for (ScheduleOp& op : ops)
    {
        if (op.type == ScheduleOp::COMPUTE)
        {
            cumulative += op.flops;
            Time after = ComputeModel::GetDuration(cumulative, gpu);
            op.duration = after - before;
            before = after;
        }
    }
}

/**
 * Self-check: the collectives are exactly the report's entries.
 * @param entries the rank's entries.
 * @param places where they went.
 * @param ops the ops.
 * @return an empty string, or the entry that does not add up.
 */
std::string
CheckEntries(const std::vector<TrafficEntry>& entries,
             const EntryPlaces& places,
             const std::vector<ScheduleOp>& ops)
{
    std::vector<uint64_t> counts(entries.size(), 0);
    std::vector<uint64_t> bytes(entries.size(), 0);
    for (const ScheduleOp& op : ops)
    {
        for (uint32_t d : op.dependsOn)
        {
            NS_ABORT_MSG_IF(d >= op.id, "IterationSchedule: op " << op.id << " depends on " << d);
        }
        if (op.type == ScheduleOp::COLLECTIVE)
        {
            counts[op.entry] += op.count;
            bytes[op.entry] += op.messageBytes;
        }
    }
    for (uint32_t e = 0; e < entries.size(); ++e)
    {
        if (places.IsBucketed(e) ? bytes[e] != entries[e].messageBytes
                                 : counts[e] != entries[e].count)
        {
            std::ostringstream message;
            message << "internal error: entry " << e << " (" << entries[e].what << ") scheduled "
                    << counts[e] << " times, " << bytes[e] << " bytes";
            return message.str();
        }
    }
    return "";
}

} // namespace

IterationSchedule::IterationSchedule()
    : m_rank(0),
      m_stage(0),
      m_microBatches(0),
      m_virtualStages(0),
      m_bucketBytes(DEFAULT_BUCKET_BYTES)
{
    NS_LOG_FUNCTION(this);
}

const std::vector<ScheduleOp>&
IterationSchedule::GetOps() const
{
    return m_ops;
}

const TrafficReport&
IterationSchedule::GetReport() const
{
    return m_report;
}

uint32_t
IterationSchedule::GetRank() const
{
    return m_rank;
}

uint32_t
IterationSchedule::GetStage() const
{
    return m_stage;
}

uint32_t
IterationSchedule::GetMicroBatches() const
{
    return m_microBatches;
}

uint32_t
IterationSchedule::GetVirtualStages() const
{
    return m_virtualStages;
}

uint64_t
IterationSchedule::GetBucketBytes() const
{
    return m_bucketBytes;
}

Time
IterationSchedule::GetComputeTime() const
{
    Time total;
    for (const ScheduleOp& op : m_ops)
    {
        if (op.type == ScheduleOp::COMPUTE)
        {
            total += op.duration;
        }
    }
    return total;
}

std::string
IterationSchedule::Build(const TrafficReport::Inputs& inputs,
                         uint32_t rank,
                         IterationSchedule& out,
                         uint64_t bucketBytes)
{
    const auto& [model, config, layout, gpus, gpu, algorithms] = inputs;
    NS_LOG_FUNCTION(gpus << rank << bucketBytes);
    out = IterationSchedule();
    NS_ABORT_MSG_IF(!model || !config || !layout || !gpu, "IterationSchedule: a null input");
    if (bucketBytes == 0)
    {
        return "the bucket size must be at least 1 byte";
    }
    IterationSchedule schedule;
    schedule.m_bucketBytes = bucketBytes;
    std::string problem = schedule.m_report.Build(inputs);
    if (!problem.empty())
    {
        out.m_report = schedule.m_report; // for GetRefusedKind
        return problem;
    }
    std::ostringstream message;
    if (rank >= schedule.m_report.GetRankCount())
    {
        message << "rank " << rank << " out of " << schedule.m_report.GetRankCount() << " ranks";
        return message.str();
    }
    const uint32_t pp = layout->GetPp();
    const uint32_t v = layout->GetVirtualStages();
    const uint32_t m = schedule.m_report.GetMicroBatches();
    const uint32_t stage = layout->GetCoordinates(rank).pp;
    if (v > 1 && m % pp != 0)
    {
        message << "interleaved pipeline schedules need the micro-batches (" << m
                << ") to be a multiple of Pp (" << pp << ")";
        return message.str();
    }
    schedule.m_rank = rank;
    schedule.m_stage = stage;
    schedule.m_microBatches = m;
    schedule.m_virtualStages = v;

    const ChunkWork work = GetChunkWork(*model, *config, *layout, stage);
    const std::vector<TrafficEntry> entries = schedule.m_report.GetRankEntries(rank);
    EntryPlaces places;
    problem = PlaceEntries(entries, m, places);
    const std::vector<Slot> slots = PipelineOrder(pp, v, m, stage);
    std::vector<std::vector<uint64_t>> inLayerCounts;
    if (problem.empty())
    {
        problem = SplitInLayer(entries, places.inLayer, slots, work, inLayerCounts);
    }
    uint64_t lastFlops = 0; // the last micro-batch's backward, where the buckets are placed
    for (const Slot& slot : slots)
    {
        if (!slot.forward && slot.microBatch + 1 == m)
        {
            lastFlops += work.backwardFlops[slot.chunk];
        }
    }
    std::vector<Bucket> buckets;
    if (problem.empty())
    {
        problem = MakeBuckets(entries, places.reductions, bucketBytes, lastFlops, buckets);
    }
    OpEmitter emitter(entries, places, slots, work, schedule.m_ops);
    if (problem.empty())
    {
        problem = emitter.EmitSlots(*layout, stage, m, inLayerCounts, buckets);
    }
    if (!problem.empty())
    {
        return problem;
    }
    emitter.EmitOptimizer(m);
    SetDurations(*gpu, schedule.m_ops);
    problem = CheckEntries(entries, places, schedule.m_ops);
    if (problem.empty())
    {
        out = std::move(schedule);
    }
    return problem;
}

std::string
IterationSchedule::Print() const
{
    std::ostringstream out;
    for (const ScheduleOp& op : m_ops)
    {
        out << op.id << " " << op.name << " | " << TrafficReport::GetPhaseName(op.phase);
        if (op.microBatch != ScheduleOp::NONE)
        {
            out << " mb " << op.microBatch;
        }
        if (op.virtualStage != ScheduleOp::NONE)
        {
            out << " vs " << op.virtualStage;
        }
        out << " | ";
        if (op.type == ScheduleOp::COMPUTE)
        {
            out << "compute " << op.flops << " FLOP " << op.duration.GetNanoSeconds() << " ns";
        }
        else
        {
            out << GetCollectiveKindName(op.kind) << " {";
            for (std::size_t i = 0; i < op.members.size(); ++i)
            {
                out << (i > 0 ? "," : "") << op.members[i];
            }
            out << "} " << op.messageBytes << " B x " << op.count;
        }
        out << " | after [";
        for (std::size_t i = 0; i < op.dependsOn.size(); ++i)
        {
            out << (i > 0 ? "," : "") << op.dependsOn[i];
        }
        out << "]\n";
    }
    return out.str();
}

std::string
IterationSchedule::ToJson() const
{
    std::ostringstream out;
    out << "{\"rank\":" << m_rank << ",\"stage\":" << m_stage
        << ",\"microBatches\":" << m_microBatches << ",\"virtualStages\":" << m_virtualStages
        << ",\"computeNs\":" << GetComputeTime().GetNanoSeconds() << ",\"ops\":[";
    for (std::size_t i = 0; i < m_ops.size(); ++i)
    {
        const ScheduleOp& op = m_ops[i];
        out << (i > 0 ? ",\n" : "\n") << "{\"id\":" << op.id
            << ",\"type\":" << (op.type == ScheduleOp::COMPUTE ? "\"compute\"" : "\"collective\"")
            << ",\"name\":" << JsonString(op.name)
            << ",\"phase\":" << JsonString(TrafficReport::GetPhaseName(op.phase))
            << ",\"microBatch\":" << JsonIndex(op.microBatch)
            << ",\"virtualStage\":" << JsonIndex(op.virtualStage)
            << ",\"dependsOn\":" << JsonArray(op.dependsOn);
        if (op.type == ScheduleOp::COMPUTE)
        {
            out << ",\"flops\":" << op.flops << ",\"durationNs\":" << op.duration.GetNanoSeconds();
        }
        else
        {
            out << ",\"entry\":" << op.entry
                << ",\"strategy\":" << JsonString(TrafficReport::GetStrategyName(op.strategy))
                << ",\"kind\":" << JsonString(GetCollectiveKindName(op.kind))
                << ",\"members\":" << JsonArray(op.members)
                << ",\"messageBytes\":" << op.messageBytes << ",\"count\":" << op.count
                << ",\"bucket\":" << JsonIndex(op.bucket) << ",\"bucketCount\":" << op.bucketCount;
        }
        out << "}";
    }
    out << "\n]}\n";
    return out.str();
}

} // namespace ns3
