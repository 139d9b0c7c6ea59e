/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "traffic-report.h"

#include "compute-model.h"
#include "gpu-spec.h"
#include "parallel-layout.h"
#include "training-config.h"
#include "transformer-spec.h"

#include "ns3/abort.h"
#include "ns3/collective-strategy.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrafficReport");

uint64_t
TrafficBytes::Sent() const
{
    return intraSent + interSent;
}

uint64_t
TrafficBytes::Received() const
{
    return intraReceived + interReceived;
}

void
TrafficBytes::Add(const TrafficBytes& other)
{
    intraSent += other.intraSent;
    interSent += other.interSent;
    intraReceived += other.intraReceived;
    interReceived += other.interReceived;
}

const std::vector<uint32_t>&
TrafficEntry::GetMembers() const
{
    NS_ABORT_MSG_IF(!group, "TrafficEntry: no group");
    return *group;
}

uint32_t
TrafficEntry::GetGroupSize() const
{
    return static_cast<uint32_t>(GetMembers().size());
}

const TrafficBytes&
TrafficTotals::Of(TrafficStrategy strategy) const
{
    return byStrategy[static_cast<std::size_t>(strategy)];
}

TrafficReport::TrafficReport()
    : m_ranks(0),
      m_microBatches(0),
      m_sequenceLength(0),
      m_embeddingCopy(0)
{
    NS_LOG_FUNCTION(this);
}

std::string
TrafficReport::GetStrategyName(TrafficStrategy strategy)
{
    switch (strategy)
    {
    case TrafficStrategy::DP:
        return "DP";
    case TrafficStrategy::TP:
        return "TP";
    case TrafficStrategy::PP:
        return "PP";
    case TrafficStrategy::CP:
        return "CP";
    case TrafficStrategy::EP:
        return "EP";
    }
    return "?";
}

std::string
TrafficReport::GetPhaseName(TrafficPhase phase)
{
    switch (phase)
    {
    case TrafficPhase::FORWARD:
        return "forward";
    case TrafficPhase::BACKWARD:
        return "backward";
    case TrafficPhase::OPTIMIZER:
        return "optimizer";
    }
    return "?";
}

namespace
{

/**
 * @param model the model.
 * @return the parameters of one dense FFN or one expert, as TransformerSpec
 * counts them: 3 (gated) or 2 matrices of HiddenSize x FfnHiddenSize, and with
 * LinearBias the biases of their outputs.
 */
uint64_t
FfnParameters(const TransformerSpec& model)
{
    uint64_t hidden = model.GetHiddenSize();
    uint64_t ffn = model.GetFfnHiddenSize();
    uint64_t matrices = model.GetGatedFfn() ? 3 : 2;
    uint64_t count = matrices * hidden * ffn;
    if (model.GetLinearBias())
    {
        count += (matrices - 1) * ffn + hidden;
    }
    return count;
}

/**
 * @param model the model.
 * @param tp the tensor-parallel degree.
 * @return the KV heads of one TP rank: KvHeads / tp, or 1 when tp > KvHeads
 * (replicated).
 */
uint64_t
KvHeadsPerTpRank(const TransformerSpec& model, uint32_t tp)
{
    return model.GetKvHeads() >= tp ? model.GetKvHeads() / tp : 1;
}

} // namespace

std::string
TrafficReport::Build(const Inputs& inputs)
{
    const auto& [model, config, layout, gpus, gpu, algorithms] = inputs;
    NS_LOG_FUNCTION(this << gpus);
    m_ranks = 0;
    m_refused = false;
    ClearComputed();
    m_stages.clear();
    NS_ABORT_MSG_IF(!model || !config || !layout || !gpu, "TrafficReport: a null input");

    std::string problem = layout->Check(*model, gpus);
    if (!problem.empty())
    {
        return problem;
    }
    problem = config->Check(layout->GetDp(), *model);
    if (!problem.empty())
    {
        return problem;
    }
    problem = gpu->Check();
    if (!problem.empty())
    {
        return "gpu: " + problem;
    }

    const uint32_t tp = layout->GetTp();
    const uint32_t cp = layout->GetCp();
    const uint32_t sequence = config->GetEffectiveSequenceLength(*model);
    std::ostringstream message;
    if (sequence % cp != 0)
    {
        message << "sequence length (" << sequence << ") is not divisible by Cp (" << cp << ")";
        return message.str();
    }
    if (layout->GetCpStyle() == ParallelLayout::ULYSSES && cp > 1 &&
        KvHeadsPerTpRank(*model, tp) % cp != 0)
    {
        message << "Ulysses with Cp (" << cp << ") not dividing the "
                << KvHeadsPerTpRank(*model, tp)
                << " KV heads per TP rank (KV head replication) is not supported yet";
        return message.str();
    }

    m_model = model;
    m_config = config;
    m_layout = layout;
    m_gpu = gpu;
    m_algorithms = algorithms;
    m_sequenceLength = sequence;
    m_microBatches = config->GetGradientAccumulationSteps(layout->GetDp(), *model);

    ComputeStages();
    m_ranks = layout->GetWorldSize();
    for (uint32_t stage = 0; stage < m_stages.size(); ++stage)
    {
        if (GetComputeSeconds(stage) > MAX_COMPUTE_SECONDS)
        {
            message << "training.global_batch_sequences: " << m_microBatches
                    << " micro-batches take " << GetComputeSeconds(stage)
                    << " s of compute per iteration on pipeline stage " << stage
                    << ", more than the " << MAX_COMPUTE_SECONDS << " s this report counts";
            m_ranks = 0;
            m_stages.clear();
            return message.str();
        }
    }

    // Surface unsupported combinations (algorithm and group size, hybrid
    // sharding) now: every rank has groups of the same sizes, so the first and
    // last ranks (first and last stage) cover every collective; hybrid sharding's
    // server spread is checked for every rank.
    std::vector<uint32_t> probes{0, m_ranks - 1};
    if (layout->GetFsdp() == ParallelLayout::HYBRID_SHARD)
    {
        for (uint32_t r = 1; r + 1 < m_ranks; ++r)
        {
            probes.push_back(r);
        }
    }
    for (uint32_t r : probes)
    {
        if (m_totals.count(r) != 0)
        {
            continue;
        }
        RankReport report;
        problem = ComputeRank(r, report);
        if (!problem.empty())
        {
            m_ranks = 0;
            ClearComputed();
            m_stages.clear();
            return problem;
        }
        // Every rank's groups have the sizes of the probes': with room for a factor 4 between
        // ranks, the sum over all ranks must fit 64 bits too.
        const TrafficBytes& all = report.totals.all;
        for (uint64_t bytes : {all.intraSent, all.interSent, all.intraReceived, all.interReceived})
        {
            if (bytes > MAX_RANK_BYTES / m_ranks)
            {
                m_ranks = 0;
                ClearComputed();
                m_stages.clear();
                return "training.global_batch_sequences: the bytes of one iteration (" +
                       std::to_string(bytes) + " for rank " + std::to_string(r) +
                       ") over all ranks do not fit 64 bits";
            }
        }
        m_totals.emplace(r, report.totals);
    }
    return "";
}

void
TrafficReport::ClearComputed()
{
    m_totals.clear();
    for (GroupIndex& index : m_groups)
    {
        index = GroupIndex();
    }
}

double
TrafficReport::GetComputeSeconds(uint32_t stage) const
{
    return static_cast<double>(m_stages[stage].computeFlops) * static_cast<double>(m_microBatches) /
           m_gpu->GetEffectiveFlops();
}

void
TrafficReport::ComputeStages()
{
    const uint32_t pp = m_layout->GetPp();
    const uint32_t ep = m_layout->GetEp();
    const uint32_t virtualStages = m_layout->GetVirtualStages();
    // Per-stage parameters and FLOPs. Chunk c = k Pp + p of stage p holds layers
    // [c Lc, (c + 1) Lc), Lc = Layers / (Pp v) (Megatron-LM's interleaved
    // assignment, Narayanan et al. 2021, section 2.2.2; v = 1 gives contiguous
    // stages; see ComputeModel::GetChunkFlops).
    const uint32_t layers = m_model->GetLayers();
    const uint32_t chunks = pp * virtualStages;
    const uint32_t chunkLayers = layers / chunks;
    const uint64_t hidden = m_model->GetHiddenSize();
    const uint64_t wordEmbedding = static_cast<uint64_t>(m_model->GetVocabularySize()) * hidden;
    const uint64_t head = m_model->GetTiedEmbeddings() ? 0 : wordEmbedding;
    uint64_t layerSum = 0;
    for (uint32_t l = 0; l < layers; ++l)
    {
        layerSum += m_model->GetParametersPerLayer(l);
    }
    const uint64_t embeddings = m_model->GetEmbeddingParameterCount();
    const uint64_t finalNorm = m_model->GetParameterCount() - embeddings - layerSum - head;
    // Megatron-LM keeps a copy of a tied word embedding on the last stage when Pp
    // > 1.
    m_embeddingCopy = (m_model->GetTiedEmbeddings() && pp > 1) ? wordEmbedding : 0;
    const uint64_t routedPerMoeLayer =
        static_cast<uint64_t>(m_model->GetExperts()) * FfnParameters(*m_model);

    for (uint32_t p = 0; p < pp; ++p)
    {
        StageParameters stage{0, 0, 0, 0};
        for (uint32_t k = 0; k < virtualStages; ++k)
        {
            uint32_t chunk = k * pp + p;
            uint32_t first = chunk * chunkLayers;
            for (uint32_t l = first; l < first + chunkLayers; ++l)
            {
                uint64_t count = m_model->GetParametersPerLayer(l);
                if (m_model->IsMoeLayer(l))
                {
                    ++stage.moeLayers;
                    if (ep > 1)
                    {
                        count -= routedPerMoeLayer;
                        stage.expert += routedPerMoeLayer;
                    }
                }
                stage.dense += count;
            }
            bool last = chunk + 1 == chunks;
            if (chunk == 0)
            {
                stage.dense += embeddings;
            }
            if (last)
            {
                stage.dense += finalNorm + head + m_embeddingCopy;
            }
            const ComputeModel::PassFlops flops =
                ComputeModel::GetChunkFlops(*m_model, *m_config, *m_layout, chunk);
            stage.computeFlops += flops.forward + flops.backward;
        }
        m_stages.push_back(stage);
    }
}

bool
TrafficReport::GetRefusedKind(CollectiveKind& kind) const
{
    if (m_refused)
    {
        kind = m_refusedKind;
    }
    return m_refused;
}

uint32_t
TrafficReport::GetRankCount() const
{
    return m_ranks;
}

uint32_t
TrafficReport::GetMicroBatches() const
{
    return m_microBatches;
}

uint64_t
TrafficReport::GetDenseParameters(uint32_t stage) const
{
    NS_ABORT_MSG_IF(stage >= m_stages.size(), "TrafficReport: stage " << stage << " out of range");
    return m_stages[stage].dense;
}

std::vector<TrafficEntry>
TrafficReport::GetRankEntries(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_ranks,
                    "TrafficReport: rank " << rank << " out of " << m_ranks
                                           << " (was Build successful?)");
    std::vector<TrafficEntry> entries;
    RankReport report;
    report.entries = &entries;
    std::string problem = ComputeRank(rank, report);
    NS_ABORT_MSG_IF(!problem.empty(), "TrafficReport: rank " << rank << ": " << problem);
    m_totals.emplace(rank, report.totals);
    return entries;
}

const TrafficTotals&
TrafficReport::GetRankTotals(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_ranks,
                    "TrafficReport: rank " << rank << " out of " << m_ranks
                                           << " (was Build successful?)");
    auto found = m_totals.find(rank);
    if (found != m_totals.end())
    {
        return found->second;
    }
    RankReport report;
    std::string problem = ComputeRank(rank, report);
    NS_ABORT_MSG_IF(!problem.empty(), "TrafficReport: rank " << rank << ": " << problem);
    return m_totals.emplace(rank, report.totals).first->second;
}

TrafficTotals
TrafficReport::GetTotals() const
{
    TrafficTotals totals;
    for (uint32_t r = 0; r < m_ranks; ++r)
    {
        const TrafficTotals& rankTotals = GetRankTotals(r);
        for (std::size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
        {
            totals.byStrategy[s].Add(rankTotals.byStrategy[s]);
        }
        totals.all.Add(rankTotals.all);
    }
    return totals;
}

Time
TrafficReport::GetComputeTime(uint32_t rank) const
{
    NS_ABORT_MSG_IF(rank >= m_ranks, "TrafficReport: rank " << rank << " out of " << m_ranks);
    uint32_t stage = m_layout->GetCoordinates(rank).pp;
    // In double: a micro-batch's FLOPs times 2^24 micro-batches and more exceed 64 bits (Build
    // refuses a time the simulator's clock cannot hold).
    return Seconds(GetComputeSeconds(stage));
}

double
TrafficReport::GetRequiredBandwidth(uint32_t rank) const
{
    const TrafficBytes& bytes = GetRankTotals(rank).all;
    double seconds = GetComputeTime(rank).GetSeconds();
    if (seconds <= 0)
    {
        return 0;
    }
    return static_cast<double>(std::max(bytes.interSent, bytes.interReceived)) * 8.0 / seconds;
}

std::string
TrafficReport::AddEntry(TrafficStrategy strategy,
                        const std::string& variant,
                        const EntryRow& row,
                        RankReport& out) const
{
    const std::vector<uint32_t>& members = *row.group.members;
    const CollectiveKind kind = row.kind;
    if (row.count == 0 || members.size() < 2)
    {
        return "";
    }
    const uint32_t groupRank = row.group.position;
    const TypeId algorithm = m_algorithms.For(kind);
    // The group's localSize (the runtime plans with it) is part of the shape.
    const Shape shape{kind,
                      algorithm.GetUid(),
                      static_cast<uint32_t>(members.size()),
                      row.messageBytes,
                      row.group.localSize};
    auto found = m_traffic.find(shape);
    if (found == m_traffic.end())
    {
        auto& made = m_strategies[algorithm.GetUid()];
        if (!made)
        {
            made = CollectiveStrategy::Create(algorithm);
        }
        std::pair<std::string, CollectiveTraffic> tallied;
        tallied.first = made->Tally(kind,
                                    std::get<2>(shape),
                                    row.messageBytes,
                                    std::get<4>(shape),
                                    tallied.second);
        found = m_traffic.emplace(shape, std::move(tallied)).first;
    }
    const auto& [problem, traffic] = found->second;
    if (!problem.empty())
    {
        m_refused = true;
        m_refusedKind = kind;
        return GetStrategyName(strategy) + " " + row.what + ": " + problem;
    }
    // The servers tell intra- from inter-server transfers.
    const uint32_t server = m_layout->GetServer(members[groupRank]);
    TrafficBytes bytes;
    // bytes x count, added up: refused before it could pass MAX_RANK_BYTES (and wrap).
    bool overflow = false;
    auto add = [&](uint64_t& into, uint64_t peerBytes) {
        overflow = overflow || peerBytes > (MAX_RANK_BYTES - into) / row.count;
        into = overflow ? into : into + peerBytes * row.count;
    };
    for (const CollectivePeerBytes& send : traffic.sent[groupRank])
    {
        bool intra = m_layout->GetServer(members[send.peer]) == server;
        add(intra ? bytes.intraSent : bytes.interSent, send.bytes);
    }
    for (const CollectivePeerBytes& receive : traffic.received[groupRank])
    {
        bool intra = m_layout->GetServer(members[receive.peer]) == server;
        add(intra ? bytes.intraReceived : bytes.interReceived, receive.bytes);
    }
    const TrafficBytes& sum = out.totals.all;
    for (uint64_t total : {sum.intraSent, sum.interSent, sum.intraReceived, sum.interReceived})
    {
        overflow = overflow || total > MAX_RANK_BYTES / 2;
    }
    if (overflow)
    {
        return "training.global_batch_sequences: the bytes of " + row.what + " (" +
               std::to_string(row.count) + " times per iteration) do not fit 64 bits";
    }
    out.totals.byStrategy[static_cast<std::size_t>(strategy)].Add(bytes);
    out.totals.all.Add(bytes);
    if (out.entries != nullptr)
    {
        TrafficEntry entry;
        entry.strategy = strategy;
        entry.variant = variant;
        entry.what = row.what;
        entry.kind = kind;
        entry.algorithm = algorithm;
        entry.group = row.group.members;
        entry.groupRank = groupRank;
        entry.messageBytes = row.messageBytes;
        entry.count = row.count;
        entry.phase = row.phase;
        entry.steps = traffic.steps;
        entry.bytes = bytes;
        out.entries->push_back(std::move(entry));
    }
    return "";
}

std::string
TrafficReport::SplitHybrid(const std::vector<uint32_t>& members,
                           uint32_t rank,
                           std::vector<std::vector<uint32_t>>& shards) const
{
    // Members by server, in group order (servers in ascending order of their
    // first member).
    std::map<uint32_t, std::vector<uint32_t>> byServer;
    std::vector<uint32_t> serverOrder;
    for (uint32_t member : members)
    {
        uint32_t server = m_layout->GetServer(member);
        if (byServer.count(server) == 0)
        {
            serverOrder.push_back(server);
        }
        byServer[server].push_back(member);
    }
    std::size_t size = byServer.begin()->second.size();
    for (const auto& serverMembers : byServer)
    {
        if (serverMembers.second.size() != size)
        {
            std::ostringstream message;
            message << "FSDP HYBRID_SHARD needs the data-parallel group of rank " << rank
                    << " spread evenly over servers (server " << serverMembers.first << " holds "
                    << serverMembers.second.size() << " of its members, server "
                    << byServer.begin()->first << " " << size << ")";
            return message.str();
        }
    }
    shards.clear();
    for (uint32_t server : serverOrder)
    {
        shards.push_back(std::move(byServer[server]));
    }
    return "";
}

uint32_t
TrafficReport::GetLocalSize(const std::vector<uint32_t>& members) const
{
    std::vector<uint32_t> servers;
    servers.reserve(members.size());
    for (uint32_t member : members)
    {
        servers.push_back(m_layout->GetServer(member));
    }
    return CollectiveStrategy::LocalSizeOf(servers);
}

TrafficReport::GroupRef
TrafficReport::MakeGroupRef(std::vector<uint32_t> members, uint32_t rank) const
{
    auto position = std::find(members.begin(), members.end(), rank);
    NS_ABORT_MSG_IF(position == members.end(), "TrafficReport: rank not in its own group");
    GroupRef group;
    group.position = static_cast<uint32_t>(position - members.begin());
    group.localSize = GetLocalSize(members);
    group.members = std::make_shared<const std::vector<uint32_t>>(std::move(members));
    return group;
}

ParallelLayout::GroupKind
TrafficReport::GetKind(GroupUse use) const
{
    switch (use)
    {
    case TP_GROUP:
        return ParallelLayout::TP;
    case CP_GROUP:
        return ParallelLayout::CP;
    case EP_GROUP:
        return ParallelLayout::EP;
    case DENSE_GROUP:
        return m_layout->GetCp() > 1 ? ParallelLayout::DP_CP : ParallelLayout::DP;
    case EXPERT_GROUP:
        return ParallelLayout::EXPERT_DP;
    default:
        break;
    }
    NS_ABORT_MSG("TrafficReport: use " << use << " is not a layout group");
    return ParallelLayout::TP;
}

std::string
TrafficReport::ResolveGroup(GroupUse use, uint32_t rank, GroupRef& out, uint64_t& cost) const
{
    if (use < DENSE_SHARD)
    {
        out = MakeGroupRef(m_layout->GetGroup(GetKind(use), rank), rank);
        cost = out.members->size();
        return "";
    }
    // HYBRID_SHARD (Zhao et al. 2023, 3.2.1): the shard is the members on the rank's server, the
    // replica group the members of the same index in their server's shard.
    const bool dense = use == DENSE_SHARD || use == DENSE_REPLICA;
    GroupRef whole;
    GetGroup(dense ? DENSE_GROUP : EXPERT_GROUP, rank, whole);
    cost = whole.members->size();
    std::vector<std::vector<uint32_t>> shards;
    std::string problem = SplitHybrid(*whole.members, rank, shards);
    if (!problem.empty())
    {
        return problem;
    }
    const uint32_t server = m_layout->GetServer(rank);
    for (std::vector<uint32_t>& shard : shards)
    {
        if (m_layout->GetServer(shard.front()) != server)
        {
            continue;
        }
        if (use == DENSE_SHARD || use == EXPERT_SHARD)
        {
            out = MakeGroupRef(std::move(shard), rank);
            return "";
        }
        const std::size_t index = std::find(shard.begin(), shard.end(), rank) - shard.begin();
        std::vector<uint32_t> replica;
        replica.reserve(shards.size());
        for (const std::vector<uint32_t>& other : shards)
        {
            replica.push_back(other[index]);
        }
        out = MakeGroupRef(std::move(replica), rank);
        return "";
    }
    NS_ABORT_MSG("TrafficReport: rank " << rank << " not on a server of its group");
    return "";
}

std::string
TrafficReport::GetGroup(GroupUse use, uint32_t rank, GroupRef& out) const
{
    GroupIndex& index = m_groups[use];
    if (rank < index.partition.GetRankCount())
    {
        const uint32_t group = index.partition.GetGroup(rank);
        if (group != GroupPartition::NONE)
        {
            out.members = index.partition.GetMembers(group);
            out.position = index.partition.GetPosition(rank);
            out.localSize = index.localSizes[group];
            return "";
        }
    }
    uint64_t cost = 0;
    std::string problem = ResolveGroup(use, rank, out, cost);
    if (!index.tried)
    {
        // Ski rental: index all the groups (one pass over the ranks) once the groups resolved
        // one by one (each costing its members) have cost as much.
        index.directMembers += cost;
        if (index.directMembers >= m_ranks)
        {
            IndexGroups(use);
        }
    }
    return problem;
}

void
TrafficReport::IndexGroups(GroupUse use) const
{
    NS_LOG_FUNCTION(this << use);
    if (use < DENSE_SHARD)
    {
        GroupIndex& index = m_groups[use];
        index.tried = true;
        const ParallelLayout::GroupKind kind = GetKind(use);
        if (!index.partition.Build(m_ranks, [this, kind](uint32_t rank) {
                return m_layout->GetGroup(kind, rank);
            }))
        {
            NS_LOG_WARN("the layout's groups of kind " << kind << " do not partition the ranks: "
                                                       << "resolved rank by rank");
            return;
        }
        for (uint32_t g = 0; g < index.partition.GetGroupCount(); ++g)
        {
            index.localSizes.push_back(GetLocalSize(*index.partition.GetMembers(g)));
        }
        return;
    }
    // HYBRID_SHARD: the shards and replica groups of every group of the whole, together.
    const bool dense = use == DENSE_SHARD || use == DENSE_REPLICA;
    const GroupIndex& whole = m_groups[dense ? DENSE_GROUP : EXPERT_GROUP];
    if (!whole.tried)
    {
        IndexGroups(dense ? DENSE_GROUP : EXPERT_GROUP);
    }
    GroupIndex& shards = m_groups[dense ? DENSE_SHARD : EXPERT_SHARD];
    GroupIndex& replicas = m_groups[dense ? DENSE_REPLICA : EXPERT_REPLICA];
    shards.tried = true;
    replicas.tried = true;
    if (whole.partition.GetRankCount() == 0)
    {
        return; // the whole is not indexed: nor are its parts
    }
    shards.partition.Reset(m_ranks);
    replicas.partition.Reset(m_ranks);
    bool partition = true;
    for (uint32_t g = 0; g < whole.partition.GetGroupCount() && partition; ++g)
    {
        const std::vector<uint32_t>& members = *whole.partition.GetMembers(g);
        std::vector<std::vector<uint32_t>> split;
        if (!SplitHybrid(members, members.front(), split).empty())
        {
            continue; // spread unevenly: its ranks are resolved (and refused) one by one
        }
        for (std::size_t j = 0; j < split.front().size() && partition; ++j)
        {
            std::vector<uint32_t> replica;
            replica.reserve(split.size());
            for (const std::vector<uint32_t>& shard : split)
            {
                replica.push_back(shard[j]);
            }
            partition = replicas.partition.Add(std::move(replica)) != GroupPartition::NONE;
        }
        for (std::size_t k = 0; k < split.size() && partition; ++k)
        {
            partition = shards.partition.Add(std::move(split[k])) != GroupPartition::NONE;
        }
    }
    if (!partition)
    {
        NS_LOG_WARN("HYBRID_SHARD groups overlap: resolved rank by rank");
        shards.partition.Reset(0);
        replicas.partition.Reset(0);
        return;
    }
    for (GroupIndex* index : {&shards, &replicas})
    {
        for (uint32_t g = 0; g < index->partition.GetGroupCount(); ++g)
        {
            index->localSizes.push_back(GetLocalSize(*index->partition.GetMembers(g)));
        }
    }
}

std::string
TrafficReport::AddDataParallel(uint32_t rank,
                               GroupUse use,
                               uint64_t parameters,
                               const std::string& label,
                               RankReport& out) const
{
    GroupRef members;
    GetGroup(use, rank, members);
    if (members.members->size() < 2 || parameters == 0)
    {
        return "";
    }
    const uint64_t gradientBytes = parameters * m_config->GetGradientReduceBytes();
    const uint64_t parameterBytes = parameters * m_config->GetParameterBytes();
    const uint32_t zero = m_layout->GetZeroStage();
    const ParallelLayout::FsdpKind fsdp = m_layout->GetFsdp();
    const std::string gradients = label + " gradients";
    const std::string weights = label + " parameters";
    const CollectiveKind allGather = CollectiveKind::ALL_GATHER;
    const CollectiveKind reduceScatter = CollectiveKind::REDUCE_SCATTER;
    const TrafficPhase backward = TrafficPhase::BACKWARD;

    // ZeRO-3 / FULL_SHARD: parameters gathered in the forward and backward pass
    // of every micro-batch (Rajbhandari et al. 2020, 7.2.2; Zhao et al.
    // 2023, 3.2), gradients reduce-scattered once per iteration (accumulated
    // unsharded, see the class documentation).
    auto fullShard = [&](const GroupRef& group) -> std::vector<EntryRow> {
        const uint64_t m = m_microBatches;
        return {{weights, allGather, group, parameterBytes, m, TrafficPhase::FORWARD},
                {weights, allGather, group, parameterBytes, m, backward},
                {gradients, reduceScatter, group, gradientBytes, 1, backward}};
    };

    if (fsdp == ParallelLayout::HYBRID_SHARD)
    {
        // Zhao et al. 2023, 3.2.1: FULL_SHARD within the server, all-reduce of the
        // gradient shard across the replicas.
        const bool dense = use == DENSE_GROUP;
        GroupRef shard;
        GroupRef replica;
        std::string problem = GetGroup(dense ? DENSE_SHARD : EXPERT_SHARD, rank, shard);
        if (problem.empty())
        {
            problem = GetGroup(dense ? DENSE_REPLICA : EXPERT_REPLICA, rank, replica);
        }
        if (!problem.empty())
        {
            return problem;
        }
        uint64_t shardBytes =
            CollectiveChunks::ChunkBytes(gradientBytes,
                                         static_cast<uint32_t>(shard.members->size()),
                                         shard.position);
        std::vector<EntryRow> rows = fullShard(shard);
        rows.push_back(
            {gradients + " shard", CollectiveKind::ALL_REDUCE, replica, shardBytes, 1, backward});
        return AddEntries(TrafficStrategy::DP, "fsdp-hybrid-shard", rows, out);
    }
    if (zero == 3 || fsdp == ParallelLayout::FULL_SHARD)
    {
        const std::string variant = zero == 3 ? "zero-3" : "fsdp-full-shard";
        return AddEntries(TrafficStrategy::DP, variant, fullShard(members), out);
    }
    if (zero == 1 || zero == 2 || fsdp == ParallelLayout::SHARD_GRAD_OP)
    {
        // Rajbhandari et al. 2020, 7.2.1: reduce-scatter of the gradients, then
        // all-gather of the updated parameter shards.
        std::string variant = fsdp == ParallelLayout::SHARD_GRAD_OP
                                  ? "fsdp-shard-grad-op"
                                  : (zero == 1 ? "zero-1" : "zero-2");
        return AddEntries(
            TrafficStrategy::DP,
            variant,
            {{gradients, reduceScatter, members, gradientBytes, 1, backward},
             {weights, allGather, members, parameterBytes, 1, TrafficPhase::OPTIMIZER}},
            out);
    }
    // Plain data parallelism: one all-reduce of the gradients per iteration.
    return AddEntries(
        TrafficStrategy::DP,
        "none",
        {{gradients, CollectiveKind::ALL_REDUCE, members, gradientBytes, 1, backward}},
        out);
}

std::string
TrafficReport::AddEntries(TrafficStrategy strategy,
                          const std::string& variant,
                          const std::vector<EntryRow>& rows,
                          RankReport& out) const
{
    for (const EntryRow& row : rows)
    {
        std::string problem = AddEntry(strategy, variant, row, out);
        if (!problem.empty())
        {
            return problem;
        }
    }
    return "";
}

TrafficReport::RankDims
TrafficReport::GetRankDims() const
{
    RankDims d;
    d.m = m_microBatches;
    d.b = m_config->GetMicroBatchSize();
    d.s = m_sequenceLength;
    d.sLocal = d.s / m_layout->GetCp();
    d.h = m_model->GetHiddenSize();
    d.a = m_config->GetActivationBytes();
    d.l = m_model->GetLayers() / m_layout->GetPp();
    d.recompute = m_config->GetRecomputation() == TrainingConfig::FULL ? 2 : 1;
    return d;
}

std::string
TrafficReport::AddTensorParallel(uint32_t rank, const RankDims& d, RankReport& out) const
{
    GroupRef group;
    GetGroup(TP_GROUP, rank, group);
    const uint64_t bytes = d.b * d.sLocal * d.h * d.a;
    const uint64_t forward = 2 * d.l * d.m;
    const uint64_t backward = forward * d.recompute;
    if (!m_layout->GetSequenceParallel())
    {
        // Narayanan et al. 2021, 2.3 (f and g conjugate operators), S = b s' h A.
        const CollectiveKind allReduce = CollectiveKind::ALL_REDUCE;
        return AddEntries(
            TrafficStrategy::TP,
            "",
            {{"activations", allReduce, group, bytes, forward, TrafficPhase::FORWARD},
             {"activation gradients", allReduce, group, bytes, backward, TrafficPhase::BACKWARD}},
            out);
    }
    // Korthikanti et al. 2022, 4.2.2: g -> all-gather, g-bar -> reduce-scatter, and the
    // conjugates in the backward pass; S is the full b s' h A tensor in both.
    std::vector<EntryRow> rows;
    for (CollectiveKind kind : {CollectiveKind::ALL_GATHER, CollectiveKind::REDUCE_SCATTER})
    {
        rows.push_back({"activations", kind, group, bytes, forward, TrafficPhase::FORWARD});
        rows.push_back(
            {"activation gradients", kind, group, bytes, backward, TrafficPhase::BACKWARD});
    }
    return AddEntries(TrafficStrategy::TP, "sequence-parallel", rows, out);
}

std::string
TrafficReport::AddContextParallel(uint32_t rank, const RankDims& d, RankReport& out) const
{
    GroupRef group;
    GetGroup(CP_GROUP, rank, group);
    const uint32_t tp = m_layout->GetTp();
    const uint64_t kv = KvHeadsPerTpRank(*m_model, tp);
    const uint64_t headSize = m_model->GetHeadSize();
    const uint64_t count = d.l * d.m;
    std::vector<EntryRow> rows;
    if (m_layout->GetCpStyle() == ParallelLayout::RING_ALLGATHER)
    {
        // Llama 3 (3.3.2): all-gather K and V of the whole sequence, S = 2 b s kv d A;
        // reduce-scatter of their gradients in the backward pass.
        const uint64_t bytes = 2 * d.b * d.s * kv * headSize * d.a;
        const CollectiveKind allGather = CollectiveKind::ALL_GATHER;
        rows.push_back({"keys and values", allGather, group, bytes, count, TrafficPhase::FORWARD});
        if (d.recompute > 1)
        {
            rows.push_back({"keys and values (recomputed)",
                            allGather,
                            group,
                            bytes,
                            count,
                            TrafficPhase::BACKWARD});
        }
        rows.push_back({"key and value gradients",
                        CollectiveKind::REDUCE_SCATTER,
                        group,
                        bytes,
                        count,
                        TrafficPhase::BACKWARD});
        return AddEntries(TrafficStrategy::CP, "all-gather", rows, out);
    }
    // Jacobs et al. 2023 (3.1): Q, K, V all-to-all in, output all-to-all out. Send buffers: the
    // rank's s' tokens of its TP shard's heads (Q and output: h / tp columns; K and V: kv d
    // columns each).
    const uint64_t queryBytes = d.b * d.sLocal * (d.h / tp) * d.a;
    const uint64_t kvBytes = d.b * d.sLocal * kv * headSize * d.a;
    const CollectiveKind allToAll = CollectiveKind::ALL_TO_ALL;
    for (TrafficPhase phase : {TrafficPhase::FORWARD, TrafficPhase::BACKWARD})
    {
        const uint64_t times = 2 * count * (phase == TrafficPhase::BACKWARD ? d.recompute : 1);
        rows.push_back({"query and output", allToAll, group, queryBytes, times, phase});
        rows.push_back({"keys and values", allToAll, group, kvBytes, times, phase});
    }
    return AddEntries(TrafficStrategy::CP, "ulysses", rows, out);
}

std::string
TrafficReport::AddPipelineParallel(uint32_t rank,
                                   const ParallelLayout::RankCoordinates& coordinates,
                                   const RankDims& d,
                                   RankReport& out) const
{
    // Narayanan et al. 2021, 2.2; one send-recv per (virtual) stage boundary and micro-batch,
    // S = b s' h A (/ tp with sequence parallelism).
    const ParallelLayout& layout = *m_layout;
    const uint32_t tp = layout.GetTp();
    const uint32_t pp = layout.GetPp();
    const uint32_t virtualStages = layout.GetVirtualStages();
    const uint64_t bytes = d.b * d.sLocal * d.h * d.a / (layout.GetSequenceParallel() ? tp : 1);
    const uint32_t chunks = pp * virtualStages;
    uint64_t toNext = 0;   // chunks of this stage with a successor
    uint64_t fromPrev = 0; // chunks of this stage with a predecessor
    for (uint32_t k = 0; k < virtualStages; ++k)
    {
        uint32_t chunk = k * pp + coordinates.pp;
        toNext += chunk + 1 < chunks ? 1 : 0;
        fromPrev += chunk > 0 ? 1 : 0;
    }
    // The rank of the same coordinates at another stage.
    auto atStage = [&](uint32_t stage) {
        ParallelLayout::RankCoordinates other = coordinates;
        other.pp = stage;
        return layout.GetRank(other);
    };
    const uint32_t next = atStage((coordinates.pp + 1) % pp);
    const uint32_t prev = atStage((coordinates.pp + pp - 1) % pp);
    const CollectiveKind sendRecv = CollectiveKind::SEND_RECV;
    std::vector<EntryRow> rows{{"activations to next stage",
                                sendRecv,
                                MakeGroupRef({rank, next}, rank),
                                bytes,
                                toNext * d.m,
                                TrafficPhase::FORWARD},
                               {"activations from previous stage",
                                sendRecv,
                                MakeGroupRef({prev, rank}, rank),
                                bytes,
                                fromPrev * d.m,
                                TrafficPhase::FORWARD},
                               {"gradients to previous stage",
                                sendRecv,
                                MakeGroupRef({rank, prev}, rank),
                                bytes,
                                fromPrev * d.m,
                                TrafficPhase::BACKWARD},
                               {"gradients from next stage",
                                sendRecv,
                                MakeGroupRef({next, rank}, rank),
                                bytes,
                                toNext * d.m,
                                TrafficPhase::BACKWARD}};
    // Tied word embedding: first and last stage all-reduce its gradients (Megatron-LM).
    if (m_embeddingCopy > 0 && (coordinates.pp == 0 || coordinates.pp + 1 == pp))
    {
        uint64_t share = CollectiveChunks::ChunkBytes(m_embeddingCopy, tp, coordinates.tp);
        rows.push_back({"tied embedding gradients",
                        CollectiveKind::ALL_REDUCE,
                        MakeGroupRef({atStage(0), atStage(pp - 1)}, rank),
                        share * m_config->GetGradientReduceBytes(),
                        1,
                        TrafficPhase::BACKWARD});
    }
    return AddEntries(TrafficStrategy::PP, "", rows, out);
}

std::string
TrafficReport::AddExpertParallel(uint32_t rank,
                                 uint32_t stage,
                                 const RankDims& d,
                                 RankReport& out) const
{
    // GShard / Switch dispatch and combine all-to-alls, S = ceil(CF tokens TopK) h A.
    GroupRef group;
    GetGroup(EP_GROUP, rank, group);
    uint64_t routed = d.b * d.sLocal * m_model->GetTopK();
    uint64_t width = d.h;
    if (m_layout->GetSequenceParallel())
    {
        width = d.h / m_layout->GetTp(); // each TP rank routes 1/tp of the tokens: the same bytes
    }
    double factor = m_model->GetCapacityFactor() > 0 ? m_model->GetCapacityFactor() : 1.0;
    uint64_t slots = static_cast<uint64_t>(std::ceil(factor * static_cast<double>(routed)));
    const uint64_t bytes = slots * width * d.a;
    const uint64_t count = static_cast<uint64_t>(m_stages[stage].moeLayers) * d.m;
    const CollectiveKind allToAll = CollectiveKind::ALL_TO_ALL;
    std::vector<EntryRow> rows;
    for (const char* what : {"token dispatch", "token combine"})
    {
        rows.push_back({what, allToAll, group, bytes, count, TrafficPhase::FORWARD});
        rows.push_back({std::string(what) + " gradients",
                        allToAll,
                        group,
                        bytes,
                        count * d.recompute,
                        TrafficPhase::BACKWARD});
    }
    return AddEntries(TrafficStrategy::EP, "", rows, out);
}

std::string
TrafficReport::ComputeRank(uint32_t rank, RankReport& out) const
{
    NS_LOG_FUNCTION(this << rank);
    const ParallelLayout& layout = *m_layout;
    const ParallelLayout::RankCoordinates coordinates = layout.GetCoordinates(rank);
    const uint32_t tp = layout.GetTp();
    const uint32_t ep = layout.GetEp();
    const StageParameters& stage = m_stages[coordinates.pp];
    const RankDims d = GetRankDims();
    std::string problem;
    if (tp > 1)
    {
        problem = AddTensorParallel(rank, d, out);
    }
    if (problem.empty() && layout.GetCp() > 1)
    {
        problem = AddContextParallel(rank, d, out);
    }
    if (problem.empty() && layout.GetPp() > 1)
    {
        problem = AddPipelineParallel(rank, coordinates, d, out);
    }
    if (problem.empty() && ep > 1 && stage.moeLayers > 0)
    {
        problem = AddExpertParallel(rank, coordinates.pp, d, out);
    }
    if (!problem.empty())
    {
        return problem;
    }

    // DP: the rank's share of its stage's parameters.
    const uint64_t dense = CollectiveChunks::ChunkBytes(stage.dense, tp, coordinates.tp);
    problem = AddDataParallel(rank, DENSE_GROUP, dense, "dense", out);
    if (problem.empty() && ep > 1 && stage.expert > 0)
    {
        const uint64_t expert = CollectiveChunks::ChunkBytes(stage.expert / ep, tp, coordinates.tp);
        problem = AddDataParallel(rank, EXPERT_GROUP, expert, "expert", out);
    }
    return problem;
}

} // namespace ns3
