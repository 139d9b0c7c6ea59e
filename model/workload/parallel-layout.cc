/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "parallel-layout.h"

#include "transformer-spec.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ParallelLayout");

NS_OBJECT_ENSURE_REGISTERED(ParallelLayout);

namespace
{

/// The dimension names of RankOrder, in the order of ParallelLayout's Dimension enum.
const char* const DIMENSION_NAMES[] = {"tp", "cp", "ep", "dp", "pp"};

/**
 * @param kind an FSDP strategy.
 * @return its attribute value name.
 */
const char*
FsdpName(ParallelLayout::FsdpKind kind)
{
    switch (kind)
    {
    case ParallelLayout::NONE:
        return "None";
    case ParallelLayout::FULL_SHARD:
        return "FullShard";
    case ParallelLayout::SHARD_GRAD_OP:
        return "ShardGradOp";
    case ParallelLayout::HYBRID_SHARD:
        return "HybridShard";
    }
    return "?";
}

} // namespace

TypeId
ParallelLayout::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ParallelLayout")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<ParallelLayout>()
            .AddAttribute("Dp",
                          "Data-parallel degree (model replicas).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ParallelLayout::m_dp),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Tp",
                          "Tensor-parallel degree.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ParallelLayout::m_tp),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Pp",
                          "Pipeline-parallel degree (stages).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ParallelLayout::m_pp),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("VirtualStages",
                          "Model chunks per pipeline rank (interleaved pipeline schedule); 1 is "
                          "the plain schedule.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ParallelLayout::m_virtualStages),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Cp",
                          "Context-parallel degree (each sequence split over Cp ranks).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ParallelLayout::m_cp),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "CpStyle",
                "Attention across context-parallel ranks: ring / all-gather of K and "
                "V, or Ulysses all-to-all to head shards.",
                EnumValue(ParallelLayout::RING_ALLGATHER),
                LLM_FABRIC_ENUM_ACCESSOR(ParallelLayout::CpStyle, &ParallelLayout::m_cpStyle),
                MakeEnumChecker(ParallelLayout::RING_ALLGATHER,
                                "RingAllGather",
                                ParallelLayout::ULYSSES,
                                "Ulysses"))
            .AddAttribute("Ep",
                          "Expert-parallel degree; carved out of the Dp x Cp ranks, it must "
                          "divide Dp x Cp and the model's number of experts.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ParallelLayout::m_ep),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SequenceParallel",
                          "Megatron-LM sequence parallelism: norms and dropout split along the "
                          "sequence over the tensor-parallel ranks; needs Tp > 1.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ParallelLayout::m_sequenceParallel),
                          MakeBooleanChecker())
            .AddAttribute("ZeroStage",
                          "ZeRO stage, 0 (none) to 3; other values are reported by Check().",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ParallelLayout::m_zeroStage),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute(
                "Fsdp",
                "PyTorch FSDP sharding strategy; exclusive with ZeroStage > 0.",
                EnumValue(ParallelLayout::NONE),
                LLM_FABRIC_ENUM_ACCESSOR(ParallelLayout::FsdpKind, &ParallelLayout::m_fsdp),
                MakeEnumChecker(ParallelLayout::NONE,
                                "None",
                                ParallelLayout::FULL_SHARD,
                                "FullShard",
                                ParallelLayout::SHARD_GRAD_OP,
                                "ShardGradOp",
                                ParallelLayout::HYBRID_SHARD,
                                "HybridShard"))
            .AddAttribute("RankOrder",
                          "The order in which rank coordinates vary, fastest first: tp, cp, ep, "
                          "dp and pp, each once, separated by '-'.",
                          StringValue("tp-cp-ep-dp-pp"),
                          MakeStringAccessor(&ParallelLayout::m_rankOrder),
                          MakeStringChecker())
            .AddAttribute("GpusPerServer",
                          "GPUs per server; rank r is on server r / GpusPerServer.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&ParallelLayout::m_gpusPerServer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("AllowTpAcrossServers",
                          "Allow tensor-parallel groups that span servers; else Check() "
                          "reports them.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&ParallelLayout::m_allowTpAcrossServers),
                          MakeBooleanChecker());
    return tid;
}

ParallelLayout::ParallelLayout()
    : m_dp(1),
      m_tp(1),
      m_pp(1),
      m_virtualStages(1),
      m_cp(1),
      m_cpStyle(RING_ALLGATHER),
      m_ep(1),
      m_sequenceParallel(false),
      m_zeroStage(0),
      m_fsdp(NONE),
      m_rankOrder("tp-cp-ep-dp-pp"),
      m_gpusPerServer(8),
      m_allowTpAcrossServers(false)
{
    NS_LOG_FUNCTION(this);
}

ParallelLayout::~ParallelLayout()
{
    NS_LOG_FUNCTION(this);
}

std::string
ParallelLayout::ParseRankOrder(std::array<Dimension, DIMENSIONS>& order) const
{
    // Every rank's coordinates parse the order again: the message is only built on a problem.
    auto problem = [this](const std::string& name, const char* what) {
        return "RankOrder '" + m_rankOrder + "' is not a permutation of tp, cp, ep, dp, pp: '" +
               name + "' " + what;
    };
    std::array<bool, DIMENSIONS> seen{};
    uint32_t count = 0;
    std::string::size_type start = 0;
    while (true)
    {
        std::string::size_type end = m_rankOrder.find('-', start);
        std::string name = m_rankOrder.substr(start, end - start);
        uint32_t dimension = 0;
        while (dimension < DIMENSIONS && name != DIMENSION_NAMES[dimension])
        {
            ++dimension;
        }
        if (dimension == DIMENSIONS)
        {
            return problem(name, "is not one of them");
        }
        if (seen[dimension])
        {
            return problem(name, "appears twice");
        }
        seen[dimension] = true;
        order[count++] = static_cast<Dimension>(dimension);
        if (end == std::string::npos)
        {
            break;
        }
        start = end + 1;
    }
    for (uint32_t dimension = 0; dimension < DIMENSIONS; ++dimension)
    {
        if (!seen[dimension])
        {
            return problem(DIMENSION_NAMES[dimension], "is missing");
        }
    }
    return "";
}

std::string
ParallelLayout::CheckRankOrder() const
{
    std::array<Dimension, DIMENSIONS> order{};
    return ParseRankOrder(order);
}

std::array<ParallelLayout::Dimension, ParallelLayout::DIMENSIONS>
ParallelLayout::GetOrder() const
{
    std::array<Dimension, DIMENSIONS> order{};
    std::string problem = ParseRankOrder(order);
    NS_ABORT_MSG_IF(!problem.empty(), "ParallelLayout: " << problem);
    return order;
}

bool
ParallelLayout::Before(const std::array<Dimension, DIMENSIONS>& order,
                       Dimension first,
                       Dimension second)
{
    for (Dimension dimension : order)
    {
        if (dimension == first)
        {
            return true;
        }
        if (dimension == second)
        {
            return false;
        }
    }
    return false;
}

std::string
ParallelLayout::Check(const TransformerSpec& model, uint32_t gpus) const
{
    std::ostringstream problem;
    std::string modelProblem = model.Check();
    if (!modelProblem.empty())
    {
        return "model: " + modelProblem;
    }
    if (m_dp == 0 || m_tp == 0 || m_pp == 0 || m_cp == 0 || m_ep == 0 || m_virtualStages == 0 ||
        m_gpusPerServer == 0)
    {
        // Only reachable by bypassing the attribute checkers.
        return "Dp, Tp, Pp, Cp, Ep, VirtualStages and GpusPerServer must all be at least 1";
    }
    std::string orderProblem = CheckRankOrder();
    if (!orderProblem.empty())
    {
        return orderProblem;
    }
    uint64_t world = static_cast<uint64_t>(m_tp) * m_cp * m_pp * m_dp;
    uint32_t experts = model.GetExperts();
    uint64_t dataRanks = static_cast<uint64_t>(m_dp) * m_cp;
    if (world != gpus)
    {
        problem << "tp " << m_tp << " x cp " << m_cp << " x pp " << m_pp << " x dp " << m_dp
                << " = " << world << " != " << gpus << " GPUs";
    }
    else if (m_zeroStage > 3)
    {
        problem << "ZeroStage (" << m_zeroStage << ") is not 0, 1, 2 or 3";
    }
    else if (m_fsdp != NONE && m_zeroStage > 0)
    {
        problem << "Fsdp (" << FsdpName(m_fsdp) << ") and ZeroStage (" << m_zeroStage
                << ") are both set: use one of them";
    }
    else if (m_sequenceParallel && m_tp == 1)
    {
        problem << "SequenceParallel needs Tp > 1 (Tp " << m_tp << ")";
    }
    else if (model.GetHeads() % m_tp != 0)
    {
        problem << "Heads (" << model.GetHeads() << ") is not divisible by Tp (" << m_tp << ")";
    }
    else if (model.GetKvHeads() >= m_tp && model.GetKvHeads() % m_tp != 0)
    {
        problem << "KvHeads (" << model.GetKvHeads() << ") is not divisible by Tp (" << m_tp << ")";
    }
    else if (model.GetKvHeads() < m_tp && m_tp % model.GetKvHeads() != 0)
    {
        problem << "Tp (" << m_tp << ") is not a multiple of KvHeads (" << model.GetKvHeads()
                << "): KV heads cannot be replicated evenly";
    }
    else if (m_virtualStages > 1 && m_pp == 1)
    {
        problem << "VirtualStages (" << m_virtualStages << ") needs Pp > 1";
    }
    else if (model.GetLayers() % (static_cast<uint64_t>(m_pp) * m_virtualStages) != 0)
    {
        problem << "Layers (" << model.GetLayers() << ") is not divisible by Pp (" << m_pp
                << ") x VirtualStages (" << m_virtualStages
                << ") = " << static_cast<uint64_t>(m_pp) * m_virtualStages;
    }
    else if (m_cpStyle == ULYSSES && m_cp > 1 && (model.GetHeads() / m_tp) % m_cp != 0)
    {
        problem << "Ulysses Cp (" << m_cp << ") does not divide the " << model.GetHeads() / m_tp
                << " heads per TP rank (Heads " << model.GetHeads() << " / Tp " << m_tp << ")";
    }
    else if (m_ep > 1 && experts <= 1)
    {
        problem << "Ep (" << m_ep << ") > 1 but the model is dense (Experts " << experts << ")";
    }
    else if (m_ep > 1 && experts % m_ep != 0)
    {
        problem << "Ep (" << m_ep << ") does not divide Experts (" << experts << ")";
    }
    else if (dataRanks % m_ep != 0)
    {
        problem << "Ep (" << m_ep << ") does not divide dp " << m_dp << " x cp " << m_cp << " = "
                << dataRanks;
    }
    else if (!m_allowTpAcrossServers && m_tp > m_gpusPerServer)
    {
        problem << "Tp (" << m_tp << ") exceeds GpusPerServer (" << m_gpusPerServer
                << ") and AllowTpAcrossServers is false";
    }
    else if (!m_allowTpAcrossServers && m_tp > 1)
    {
        for (uint32_t rank = 0; rank < gpus; ++rank)
        {
            RankCoordinates first = GetCoordinates(rank);
            first.tp = 0;
            uint32_t firstRank = GetRank(first);
            if (GetServer(firstRank) != GetServer(rank))
            {
                problem << "the TP group of rank " << rank << " spans servers (RankOrder '"
                        << m_rankOrder << "', GpusPerServer " << m_gpusPerServer
                        << ") and AllowTpAcrossServers is false";
                break;
            }
        }
    }
    return problem.str();
}

uint32_t
ParallelLayout::GetWorldSize() const
{
    uint64_t world = static_cast<uint64_t>(m_tp) * m_cp * m_pp * m_dp;
    NS_ABORT_MSG_IF(world > UINT32_MAX,
                    "ParallelLayout: tp x cp x pp x dp = " << world << " exceeds 2^32 - 1");
    return static_cast<uint32_t>(world);
}

uint32_t
ParallelLayout::SizeOf(Dimension dimension) const
{
    switch (dimension)
    {
    case DIM_TP:
        return m_tp;
    case DIM_CP:
        return m_cp;
    case DIM_EP:
        return m_ep;
    case DIM_DP:
        return m_dp;
    case DIM_PP:
        return m_pp;
    }
    return 1;
}

uint32_t
ParallelLayout::DataIndex(const std::array<Dimension, DIMENSIONS>& order,
                          uint32_t cp,
                          uint32_t dp) const
{
    return Before(order, DIM_CP, DIM_DP) ? cp + m_cp * dp : dp + m_dp * cp;
}

void
ParallelLayout::SetDataIndex(const std::array<Dimension, DIMENSIONS>& order,
                             uint32_t index,
                             RankCoordinates& coordinates) const
{
    if (Before(order, DIM_CP, DIM_DP))
    {
        coordinates.cp = index % m_cp;
        coordinates.dp = index / m_cp;
    }
    else
    {
        coordinates.dp = index % m_dp;
        coordinates.cp = index / m_dp;
    }
}

uint32_t
ParallelLayout::ExpertDataIndex(const std::array<Dimension, DIMENSIONS>& order,
                                uint32_t ep,
                                uint32_t expertDp) const
{
    return Before(order, DIM_EP, DIM_DP) ? ep + m_ep * expertDp : expertDp + GetExpertDp() * ep;
}

uint32_t
ParallelLayout::RankOf(const std::array<Dimension, DIMENSIONS>& order,
                       const RankCoordinates& coordinates) const
{
    uint64_t rank = 0;
    uint64_t stride = 1;
    for (Dimension dimension : order)
    {
        uint32_t coordinate = 0;
        switch (dimension)
        {
        case DIM_TP:
            coordinate = coordinates.tp;
            break;
        case DIM_CP:
            coordinate = coordinates.cp;
            break;
        case DIM_DP:
            coordinate = coordinates.dp;
            break;
        case DIM_PP:
            coordinate = coordinates.pp;
            break;
        case DIM_EP:
            continue; // derived from cp and dp
        }
        rank += coordinate * stride;
        stride *= SizeOf(dimension);
    }
    return static_cast<uint32_t>(rank);
}

ParallelLayout::RankCoordinates
ParallelLayout::GetCoordinates(uint32_t rank) const
{
    std::array<Dimension, DIMENSIONS> order = GetOrder();
    uint32_t world = GetWorldSize();
    NS_ABORT_MSG_IF(rank >= world,
                    "ParallelLayout: rank " << rank << " out of world size " << world);
    uint32_t expertDp = GetExpertDp();
    NS_ABORT_MSG_IF(expertDp == 0,
                    "ParallelLayout: Ep (" << m_ep << ") does not divide dp " << m_dp << " x cp "
                                           << m_cp);
    RankCoordinates coordinates{0, 0, 0, 0, 0, 0};
    uint32_t rest = rank;
    for (Dimension dimension : order)
    {
        if (dimension == DIM_EP)
        {
            continue;
        }
        uint32_t size = SizeOf(dimension);
        uint32_t coordinate = rest % size;
        rest /= size;
        switch (dimension)
        {
        case DIM_TP:
            coordinates.tp = coordinate;
            break;
        case DIM_CP:
            coordinates.cp = coordinate;
            break;
        case DIM_DP:
            coordinates.dp = coordinate;
            break;
        case DIM_PP:
            coordinates.pp = coordinate;
            break;
        case DIM_EP:
            break;
        }
    }
    uint32_t index = DataIndex(order, coordinates.cp, coordinates.dp);
    if (Before(order, DIM_EP, DIM_DP))
    {
        coordinates.ep = index % m_ep;
        coordinates.expertDp = index / m_ep;
    }
    else
    {
        coordinates.expertDp = index % expertDp;
        coordinates.ep = index / expertDp;
    }
    return coordinates;
}

uint32_t
ParallelLayout::GetRank(const RankCoordinates& coordinates) const
{
    std::array<Dimension, DIMENSIONS> order = GetOrder();
    GetWorldSize(); // aborts on overflow
    NS_ABORT_MSG_IF(coordinates.tp >= m_tp || coordinates.cp >= m_cp || coordinates.dp >= m_dp ||
                        coordinates.pp >= m_pp,
                    "ParallelLayout: coordinates tp " << coordinates.tp << " cp " << coordinates.cp
                                                      << " dp " << coordinates.dp << " pp "
                                                      << coordinates.pp << " out of range");
    return RankOf(order, coordinates);
}

std::vector<uint32_t>
ParallelLayout::GetGroup(GroupKind kind, uint32_t rank) const
{
    std::array<Dimension, DIMENSIONS> order = GetOrder();
    RankCoordinates base = GetCoordinates(rank);
    RankCoordinates member = base;
    std::vector<uint32_t> group;
    switch (kind)
    {
    case TP:
        for (member.tp = 0; member.tp < m_tp; ++member.tp)
        {
            group.push_back(RankOf(order, member));
        }
        break;
    case CP:
        for (member.cp = 0; member.cp < m_cp; ++member.cp)
        {
            group.push_back(RankOf(order, member));
        }
        break;
    case DP:
        for (member.dp = 0; member.dp < m_dp; ++member.dp)
        {
            group.push_back(RankOf(order, member));
        }
        break;
    case PP:
        for (member.pp = 0; member.pp < m_pp; ++member.pp)
        {
            group.push_back(RankOf(order, member));
        }
        break;
    case EP:
        for (uint32_t ep = 0; ep < m_ep; ++ep)
        {
            SetDataIndex(order, ExpertDataIndex(order, ep, base.expertDp), member);
            group.push_back(RankOf(order, member));
        }
        break;
    case EXPERT_DP:
        for (uint32_t expertDp = 0; expertDp < GetExpertDp(); ++expertDp)
        {
            SetDataIndex(order, ExpertDataIndex(order, base.ep, expertDp), member);
            group.push_back(RankOf(order, member));
        }
        break;
    case DP_CP:
        for (uint32_t index = 0; index < m_dp * m_cp; ++index)
        {
            SetDataIndex(order, index, member);
            group.push_back(RankOf(order, member));
        }
        break;
    }
    return group;
}

uint32_t
ParallelLayout::GetServer(uint32_t rank) const
{
    return rank / m_gpusPerServer;
}

bool
ParallelLayout::IsGroupIntraServer(GroupKind kind, uint32_t rank) const
{
    uint32_t server = GetServer(rank);
    for (uint32_t member : GetGroup(kind, rank))
    {
        if (GetServer(member) != server)
        {
            return false;
        }
    }
    return true;
}

uint32_t
ParallelLayout::GetDp() const
{
    return m_dp;
}

uint32_t
ParallelLayout::GetTp() const
{
    return m_tp;
}

uint32_t
ParallelLayout::GetPp() const
{
    return m_pp;
}

uint32_t
ParallelLayout::GetVirtualStages() const
{
    return m_virtualStages;
}

uint32_t
ParallelLayout::GetCp() const
{
    return m_cp;
}

ParallelLayout::CpStyle
ParallelLayout::GetCpStyle() const
{
    return m_cpStyle;
}

uint32_t
ParallelLayout::GetEp() const
{
    return m_ep;
}

uint32_t
ParallelLayout::GetExpertDp() const
{
    uint64_t dataRanks = static_cast<uint64_t>(m_dp) * m_cp;
    if (m_ep == 0 || dataRanks % m_ep != 0)
    {
        return 0;
    }
    return static_cast<uint32_t>(dataRanks / m_ep);
}

bool
ParallelLayout::GetSequenceParallel() const
{
    return m_sequenceParallel;
}

uint32_t
ParallelLayout::GetZeroStage() const
{
    return m_zeroStage;
}

ParallelLayout::FsdpKind
ParallelLayout::GetFsdp() const
{
    return m_fsdp;
}

std::string
ParallelLayout::GetRankOrder() const
{
    return m_rankOrder;
}

uint32_t
ParallelLayout::GetGpusPerServer() const
{
    return m_gpusPerServer;
}

bool
ParallelLayout::GetAllowTpAcrossServers() const
{
    return m_allowTpAcrossServers;
}

void
ParallelLayout::SetCpStyle(CpStyle style)
{
    NS_LOG_FUNCTION(this << style);
    m_cpStyle = style;
}

void
ParallelLayout::SetFsdp(FsdpKind kind)
{
    NS_LOG_FUNCTION(this << kind);
    m_fsdp = kind;
}

} // namespace ns3
