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
IterationSchedule::Build(Ptr<const TransformerSpec> model,
                         Ptr<const TrainingConfig> config,
                         Ptr<const ParallelLayout> layout,
                         uint32_t gpus,
                         Ptr<const GpuSpec> gpu,
                         const CollectiveChoices& algorithms,
                         uint32_t rank,
                         IterationSchedule& out,
                         uint64_t bucketBytes)
{
    NS_LOG_FUNCTION(gpus << rank << bucketBytes);
    out = IterationSchedule();
    NS_ABORT_MSG_IF(!model || !config || !layout || !gpu, "IterationSchedule: a null input");
    if (bucketBytes == 0)
    {
        return "the bucket size must be at least 1 byte";
    }
    IterationSchedule schedule;
    schedule.m_bucketBytes = bucketBytes;
    std::string problem = schedule.m_report.Build(model, config, layout, gpus, gpu, algorithms);
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
    const ParallelLayout::RankCoordinates coordinates = layout->GetCoordinates(rank);
    const uint32_t stage = coordinates.pp;
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

    // The rank's chunks: FLOPs of one micro-batch and the weights of the
    // in-layer collectives (layers; MoE layers for EP).
    const uint32_t tp = layout->GetTp();
    const uint32_t cp = layout->GetCp();
    const uint32_t chunks = pp * v;
    const uint32_t chunkLayers = model->GetLayers() / chunks;
    const uint32_t microBatch = config->GetMicroBatchSize();
    const uint32_t sequence = config->GetEffectiveSequenceLength(*model);
    std::vector<uint64_t> forwardFlops(v);
    std::vector<uint64_t> backwardFlops(v);
    std::vector<uint64_t> moeLayers(v, 0);
    for (uint32_t k = 0; k < v; ++k)
    {
        const uint32_t chunk = k * pp + stage;
        const uint32_t first = chunk * chunkLayers;
        const bool last = chunk + 1 == chunks;
        forwardFlops[k] = ComputeModel::GetStageForwardFlops(*model,
                                                             first,
                                                             chunkLayers,
                                                             last,
                                                             microBatch,
                                                             sequence,
                                                             tp,
                                                             cp);
        backwardFlops[k] = ComputeModel::GetStageBackwardFlops(*model,
                                                               first,
                                                               chunkLayers,
                                                               last,
                                                               microBatch,
                                                               sequence,
                                                               config->GetRecomputation(),
                                                               tp,
                                                               cp);
        for (uint32_t l = first; l < first + chunkLayers; ++l)
        {
            moeLayers[k] += model->IsMoeLayer(l) ? 1 : 0;
        }
    }

    // Sort the entries by where they go.
    const std::vector<TrafficEntry>& entries = schedule.m_report.GetRankEntries(rank);
    const uint32_t none = ScheduleOp::NONE;
    std::vector<uint32_t> inLayer;                         // TP, CP, EP
    uint32_t receiveForward = none;                        // activations from the previous stage
    uint32_t sendForward = none;                           // activations to the next stage
    uint32_t receiveBackward = none;                       // gradients from the next stage
    uint32_t sendBackward = none;                          // gradients to the previous stage
    uint32_t tied = none;                                  // tied embedding all-reduce
    std::vector<uint32_t> forwardGathers;                  // ZeRO-3 / FULL_SHARD, forward
    std::vector<uint32_t> backwardGathers;                 // ZeRO-3 / FULL_SHARD, backward
    std::vector<uint32_t> optimizerGathers;                // ZeRO-1/2, SHARD_GRAD_OP
    std::vector<uint32_t> reductions;                      // gradient reductions, bucketed
    std::vector<uint32_t> followers(entries.size(), none); // hybrid all-reduce of a reduction
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
            inLayer.push_back(e);
            break;
        case TrafficStrategy::PP:
            if (entry.kind == CollectiveKind::SEND_RECV && entry.phase == TrafficPhase::FORWARD)
            {
                (entry.groupRank == 0 ? sendForward : receiveForward) = e;
            }
            else if (entry.kind == CollectiveKind::SEND_RECV &&
                     entry.phase == TrafficPhase::BACKWARD)
            {
                (entry.groupRank == 0 ? sendBackward : receiveBackward) = e;
            }
            else if (entry.kind == CollectiveKind::ALL_REDUCE && entry.count == 1)
            {
                tied = e;
            }
            else
            {
                placed = false;
            }
            break;
        case TrafficStrategy::DP:
            if (entry.kind == CollectiveKind::ALL_GATHER)
            {
                if (entry.phase == TrafficPhase::FORWARD && entry.count == m)
                {
                    forwardGathers.push_back(e);
                }
                else if (entry.phase == TrafficPhase::BACKWARD && entry.count == m)
                {
                    backwardGathers.push_back(e);
                }
                else if (entry.phase == TrafficPhase::OPTIMIZER && entry.count == 1)
                {
                    optimizerGathers.push_back(e);
                }
                else
                {
                    placed = false;
                }
            }
            else if (entry.phase == TrafficPhase::BACKWARD && entry.count == 1)
            {
                if (entry.variant == "fsdp-hybrid-shard" &&
                    entry.kind == CollectiveKind::ALL_REDUCE && !reductions.empty() &&
                    followers[reductions.back()] == none)
                {
                    followers[reductions.back()] = e;
                }
                else
                {
                    reductions.push_back(e);
                }
            }
            else
            {
                placed = false;
            }
            break;
        }
        if (!placed)
        {
            message << "the " << TrafficReport::GetStrategyName(entry.strategy) << " "
                    << GetCollectiveKindName(entry.kind) << " of " << entry.what
                    << " cannot be scheduled";
            return message.str();
        }
    }

    const std::vector<Slot> slots = PipelineOrder(pp, v, m, stage);

    // In-layer collectives: entry count split over the compute ops of its phase
    // in proportion to the chunks' weights, with cumulative rounding.
    std::vector<std::vector<uint64_t>> inLayerCounts(inLayer.size(),
                                                     std::vector<uint64_t>(slots.size(), 0));
    for (std::size_t i = 0; i < inLayer.size(); ++i)
    {
        const TrafficEntry& entry = entries[inLayer[i]];
        const bool forward = entry.phase == TrafficPhase::FORWARD;
        auto weight = [&](const Slot& slot) -> uint64_t {
            return entry.strategy == TrafficStrategy::EP ? moeLayers[slot.chunk] : chunkLayers;
        };
        uint64_t totalWeight = 0;
        for (const Slot& slot : slots)
        {
            totalWeight += slot.forward == forward ? weight(slot) : 0;
        }
        if (totalWeight == 0)
        {
            message << "the " << TrafficReport::GetStrategyName(entry.strategy) << " " << entry.what
                    << " have no layer to go with";
            return message.str();
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
            inLayerCounts[i][s] = upTo - given;
            given = upTo;
        }
    }

    // Gradient buckets, positioned on the FLOPs of the last micro-batch's
    // backward ops (in schedule order).
    uint64_t lastFlops = 0;
    for (const Slot& slot : slots)
    {
        if (!slot.forward && slot.microBatch + 1 == m)
        {
            lastFlops += backwardFlops[slot.chunk];
        }
    }

    /// A bucket of a gradient reduction.
    struct Bucket
    {
        uint64_t position;  //!< FLOPs of the last backward after which it is ready.
        uint32_t reduction; //!< Index in reductions.
        uint32_t index;     //!< Bucket index.
        uint32_t count;     //!< Buckets of the reduction.
        uint64_t bytes;     //!< Its bytes.
    };

    std::vector<Bucket> buckets;
    for (uint32_t r = 0; r < reductions.size(); ++r)
    {
        const uint64_t total = entries[reductions[r]].messageBytes;
        const uint64_t count = std::max<uint64_t>(1, (total + bucketBytes - 1) / bucketBytes);
        if (count > 1000000)
        {
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

    // Emission.
    std::vector<ScheduleOp>& ops = schedule.m_ops;
    auto add = [&ops](ScheduleOp op) {
        op.id = static_cast<uint32_t>(ops.size());
        ops.push_back(std::move(op));
        return ops.back().id;
    };
    auto collective = [&](uint32_t e, const Slot* slot, const std::string& suffix) {
        const TrafficEntry& entry = entries[e];
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
        op.members = entry.members;
        op.messageBytes = entry.messageBytes;
        op.count = 1;
        return op;
    };
    // The all-gathers needed before a compute step.
    auto gathersOf = [&](const Slot& slot) -> const std::vector<uint32_t>* {
        if (slot.forward && slot.chunk == 0)
        {
            return &forwardGathers;
        }
        if (!slot.forward && slot.chunk + 1 == v)
        {
            return &backwardGathers;
        }
        return nullptr;
    };

    std::vector<std::vector<uint32_t>> gatherOps(slots.size());
    std::vector<uint32_t> lastBucketOp(reductions.size(), none);
    std::vector<uint32_t> lastFollowerOp(reductions.size(), none);
    std::size_t nextBucket = 0;
    uint64_t lastOffset = 0; // FLOPs of the last micro-batch's backward emitted so far
    uint32_t previousEnd = none;

    auto emitGathers = [&](std::size_t target, uint32_t release) {
        const std::vector<uint32_t>* gathers = gathersOf(slots[target]);
        if (gathers == nullptr)
        {
            return;
        }
        for (uint32_t e : *gathers)
        {
            ScheduleOp op = collective(e, &slots[target], " (prefetch)");
            if (release != none)
            {
                op.dependsOn.push_back(release);
            }
            gatherOps[target].push_back(add(op));
        }
    };
    auto emitBuckets = [&](uint64_t upTo, uint32_t segment, const Slot& slot) {
        while (nextBucket < buckets.size() && buckets[nextBucket].position <= upTo)
        {
            const Bucket& bucket = buckets[nextBucket++];
            const uint32_t e = reductions[bucket.reduction];
            std::ostringstream suffix;
            suffix << " bucket " << bucket.index + 1 << "/" << bucket.count;
            ScheduleOp op = collective(e, &slot, suffix.str());
            op.messageBytes = bucket.bytes;
            op.bucket = bucket.index;
            op.bucketCount = bucket.count;
            op.dependsOn.push_back(segment);
            if (lastBucketOp[bucket.reduction] != none)
            {
                op.dependsOn.push_back(lastBucketOp[bucket.reduction]);
            }
            const uint32_t id = add(op);
            lastBucketOp[bucket.reduction] = id;
            const uint32_t f = followers[e];
            if (f != none)
            {
                ScheduleOp follow = collective(f, &slot, suffix.str());
                follow.messageBytes = CollectiveChunks::ChunkBytes(entries[f].messageBytes,
                                                                   bucket.count,
                                                                   bucket.index);
                follow.bucket = bucket.index;
                follow.bucketCount = bucket.count;
                follow.dependsOn.push_back(id);
                if (lastFollowerOp[bucket.reduction] != none)
                {
                    follow.dependsOn.push_back(lastFollowerOp[bucket.reduction]);
                }
                lastFollowerOp[bucket.reduction] = add(follow);
            }
        }
    };

    if (!slots.empty())
    {
        emitGathers(0, none);
    }
    for (std::size_t s = 0; s < slots.size(); ++s)
    {
        const Slot& slot = slots[s];
        const uint32_t chunk = slot.chunk * pp + stage;
        if (s + 1 < slots.size())
        {
            emitGathers(s + 1, previousEnd);
        }
        std::vector<uint32_t> inputs;
        if (previousEnd != none)
        {
            inputs.push_back(previousEnd);
        }
        inputs.insert(inputs.end(), gatherOps[s].begin(), gatherOps[s].end());
        const uint32_t receive = slot.forward ? (chunk > 0 ? receiveForward : none)
                                              : (chunk + 1 < chunks ? receiveBackward : none);
        if (receive != none)
        {
            inputs.push_back(add(collective(receive, &slot, "")));
        }

        // The compute op, cut at the bucket positions for the last micro-batch's
        // backward.
        const uint64_t flops = slot.forward ? forwardFlops[slot.chunk] : backwardFlops[slot.chunk];
        std::vector<uint64_t> cuts;
        const bool lastBackward = !slot.forward && slot.microBatch + 1 == m;
        if (lastBackward)
        {
            for (std::size_t b = nextBucket; b < buckets.size(); ++b)
            {
                const uint64_t position = buckets[b].position;
                if (position > lastOffset && position < lastOffset + flops &&
                    (cuts.empty() || cuts.back() != position - lastOffset))
                {
                    cuts.push_back(position - lastOffset);
                }
            }
        }
        cuts.push_back(flops);
        uint64_t done = 0;
        uint32_t end = none;
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
            if (end == none)
            {
                op.dependsOn = inputs;
            }
            else
            {
                op.dependsOn.push_back(end);
            }
            end = add(op);
            if (lastBackward)
            {
                emitBuckets(lastOffset + done, end, slot);
            }
        }
        if (lastBackward)
        {
            lastOffset += flops;
        }

        // The collectives inside the chunk's layers.
        for (std::size_t i = 0; i < inLayer.size(); ++i)
        {
            if (inLayerCounts[i][s] == 0)
            {
                continue;
            }
            ScheduleOp op = collective(inLayer[i], &slot, "");
            op.count = inLayerCounts[i][s];
            op.dependsOn.push_back(end);
            end = add(op);
        }
        previousEnd = end;

        const uint32_t send = slot.forward ? (chunk + 1 < chunks ? sendForward : none)
                                           : (chunk > 0 ? sendBackward : none);
        if (send != none)
        {
            ScheduleOp op = collective(send, &slot, "");
            op.dependsOn.push_back(end);
            add(op);
        }
    }
    if (nextBucket != buckets.size())
    {
        return "internal error: gradient buckets left after the last backward";
    }

    // After the backward passes: tied embedding, optimizer step, ZeRO-1/2
    // all-gather.
    std::vector<uint32_t> optimizerInputs;
    if (previousEnd != none)
    {
        optimizerInputs.push_back(previousEnd);
    }
    if (tied != none)
    {
        ScheduleOp op = collective(tied, nullptr, "");
        op.microBatch = m - 1;
        if (previousEnd != none)
        {
            op.dependsOn.push_back(previousEnd);
        }
        optimizerInputs.push_back(add(op));
    }
    for (std::size_t r = 0; r < reductions.size(); ++r)
    {
        for (uint32_t id : {lastBucketOp[r], lastFollowerOp[r]})
        {
            if (id != none)
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
    const uint32_t stepId = add(step);
    for (uint32_t e : optimizerGathers)
    {
        ScheduleOp op = collective(e, nullptr, "");
        op.dependsOn.push_back(stepId);
        add(op);
    }

    // Durations: cumulative rounding, so that they add up to the total's.
    uint64_t cumulative = 0;
    Time before = ComputeModel::GetDuration(0, *gpu);
    for (ScheduleOp& op : ops)
    {
        if (op.type == ScheduleOp::COMPUTE)
        {
            cumulative += op.flops;
            Time after = ComputeModel::GetDuration(cumulative, *gpu);
            op.duration = after - before;
            before = after;
        }
    }

    // Self-check: the collectives are exactly the report's entries.
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
        const bool bucketed =
            std::find(reductions.begin(), reductions.end(), e) != reductions.end() ||
            std::find(followers.begin(), followers.end(), e) != followers.end();
        if (bucketed ? bytes[e] != entries[e].messageBytes : counts[e] != entries[e].count)
        {
            message << "internal error: entry " << e << " (" << entries[e].what << ") scheduled "
                    << counts[e] << " times, " << bytes[e] << " bytes";
            return message.str();
        }
    }
    out = std::move(schedule);
    return "";
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
