/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-runtime.h"

#include "ns3/abort.h"
#include "ns3/data-rate.h"
#include "ns3/ib-reth-header.h"
#include "ns3/log.h"
#include "ns3/nvlink-domain.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveRuntime");

NS_OBJECT_ENSURE_REGISTERED(CollectiveRuntime);

TypeId
CollectiveRuntime::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CollectiveRuntime")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<CollectiveRuntime>()
            .AddAttribute("Channels",
                          "Channels (queue pairs per NIC pair, like NCCL's channels) that "
                          "carry each collective; each transfer is cut into this many parts.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&CollectiveRuntime::m_channels),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("Mtu",
                          "RDMA MTU of the queue pairs, for the wire bytes of ideal times (set "
                          "it to the queue pairs' Mtu).",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&CollectiveRuntime::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("NicRate",
                          "NIC line rate, for ideal times.",
                          DataRateValue(DataRate("400Gbps")),
                          MakeDataRateAccessor(&CollectiveRuntime::m_nicRate),
                          MakeDataRateChecker())
            .AddAttribute(
                "AllReduce",
                "Algorithm of all-reduce: a CollectiveStrategy subclass.",
                TypeIdValue(CollectiveChoices::GetDefault(CollectiveKind::ALL_REDUCE)),
                MakeTypeIdAccessor(&CollectiveRuntime::SetAlgorithmOf<CollectiveKind::ALL_REDUCE>,
                                   &CollectiveRuntime::GetAlgorithmOf<CollectiveKind::ALL_REDUCE>),
                MakeTypeIdChecker())
            .AddAttribute(
                "AllGather",
                "Algorithm of all-gather: a CollectiveStrategy subclass.",
                TypeIdValue(CollectiveChoices::GetDefault(CollectiveKind::ALL_GATHER)),
                MakeTypeIdAccessor(&CollectiveRuntime::SetAlgorithmOf<CollectiveKind::ALL_GATHER>,
                                   &CollectiveRuntime::GetAlgorithmOf<CollectiveKind::ALL_GATHER>),
                MakeTypeIdChecker())
            .AddAttribute(
                "ReduceScatter",
                "Algorithm of reduce-scatter: a CollectiveStrategy subclass.",
                TypeIdValue(CollectiveChoices::GetDefault(CollectiveKind::REDUCE_SCATTER)),
                MakeTypeIdAccessor(
                    &CollectiveRuntime::SetAlgorithmOf<CollectiveKind::REDUCE_SCATTER>,
                    &CollectiveRuntime::GetAlgorithmOf<CollectiveKind::REDUCE_SCATTER>),
                MakeTypeIdChecker())
            .AddAttribute(
                "AllToAll",
                "Algorithm of all-to-all: a CollectiveStrategy subclass.",
                TypeIdValue(CollectiveChoices::GetDefault(CollectiveKind::ALL_TO_ALL)),
                MakeTypeIdAccessor(&CollectiveRuntime::SetAlgorithmOf<CollectiveKind::ALL_TO_ALL>,
                                   &CollectiveRuntime::GetAlgorithmOf<CollectiveKind::ALL_TO_ALL>),
                MakeTypeIdChecker())
            .AddAttribute(
                "SendRecv",
                "Algorithm of send-recv: a CollectiveStrategy subclass.",
                TypeIdValue(CollectiveChoices::GetDefault(CollectiveKind::SEND_RECV)),
                MakeTypeIdAccessor(&CollectiveRuntime::SetAlgorithmOf<CollectiveKind::SEND_RECV>,
                                   &CollectiveRuntime::GetAlgorithmOf<CollectiveKind::SEND_RECV>),
                MakeTypeIdChecker())
            .AddAttribute(
                "Broadcast",
                "Algorithm of broadcast: a CollectiveStrategy subclass.",
                TypeIdValue(CollectiveChoices::GetDefault(CollectiveKind::BROADCAST)),
                MakeTypeIdAccessor(&CollectiveRuntime::SetAlgorithmOf<CollectiveKind::BROADCAST>,
                                   &CollectiveRuntime::GetAlgorithmOf<CollectiveKind::BROADCAST>),
                MakeTypeIdChecker())
            .AddTraceSource("CollectiveDone",
                            "A collective instance finished on every member.",
                            MakeTraceSourceAccessor(&CollectiveRuntime::m_collectiveDone),
                            "ns3::CollectiveRuntime::CollectiveDoneTracedCallback")
            .AddTraceSource("TransferDone",
                            "A transfer's last byte arrived.",
                            MakeTraceSourceAccessor(&CollectiveRuntime::m_transferDone),
                            "ns3::CollectiveRuntime::TransferDoneTracedCallback");
    return tid;
}

CollectiveRuntime::CollectiveRuntime()
    : m_channels(2),
      m_mtu(4096),
      m_nicRate("400Gbps"),
      m_gpusPerServer(1),
      m_nextInstance(0),
      m_finished(0)
{
    NS_LOG_FUNCTION(this);
}

CollectiveRuntime::~CollectiveRuntime()
{
    NS_LOG_FUNCTION(this);
}

void
CollectiveRuntime::DoDispose()
{
    m_instances.clear();
    m_byKey.clear();
    m_qps.clear();
    m_qpState.clear();
    m_nicOfRank.clear();
    m_domains.clear();
    m_strategies.clear();
    m_plans.clear();
    m_nvlinkArrived.clear();
    m_nvlinkRefs.clear();
    m_latency = LatencyModel();
    Object::DoDispose();
}

void
CollectiveRuntime::SetGpusPerServer(uint32_t gpusPerServer)
{
    NS_ABORT_MSG_IF(gpusPerServer == 0, "CollectiveRuntime: GpusPerServer must be positive");
    m_gpusPerServer = gpusPerServer;
}

void
CollectiveRuntime::SetNic(uint32_t rank, Ptr<RdmaEndpoint> endpoint, uint32_t nic)
{
    if (rank >= m_nicOfRank.size())
    {
        m_nicOfRank.resize(rank + 1);
        m_nicIndex.resize(rank + 1, 0);
        m_interBytesSent.resize(rank + 1, 0);
        m_intraBytesSent.resize(rank + 1, 0);
        m_messagesSent.resize(rank + 1, 0);
        m_categoryBytes.resize(rank + 1);
    }
    m_nicOfRank[rank] = endpoint;
    m_nicIndex[rank] = nic;
}

void
CollectiveRuntime::SetNvlinkDomain(uint32_t server, Ptr<NvlinkDomain> domain)
{
    if (server >= m_domains.size())
    {
        m_domains.resize(server + 1);
        m_nvlinkArrived.resize(server + 1);
        m_nvlinkRefs.resize(server + 1);
    }
    m_domains[server] = domain;
    m_nvlinkArrived[server] = MakeCallback(&CollectiveRuntime::NvlinkArrived, this).Bind(server);
}

void
CollectiveRuntime::SetAlgorithm(CollectiveKind kind, TypeId algorithm)
{
    NS_ABORT_MSG_IF(!algorithm.IsChildOf(CollectiveStrategy::GetTypeId()),
                    "CollectiveRuntime: " << algorithm.GetName() << " is not a CollectiveStrategy");
    m_algorithms.Set(kind, algorithm);
}

TypeId
CollectiveRuntime::GetAlgorithm(CollectiveKind kind) const
{
    return m_algorithms.For(kind);
}

std::string
CollectiveRuntime::GetAlgorithmAttributeName(CollectiveKind kind)
{
    // The attribute names are the kinds' names in CamelCase: all-reduce -> AllReduce.
    std::string name;
    bool upper = true;
    for (char c : GetCollectiveKindName(kind))
    {
        if (c == '-')
        {
            upper = true;
            continue;
        }
        name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
        upper = false;
    }
    return name;
}

void
CollectiveRuntime::SetLatencyModel(LatencyModel model)
{
    m_latency = model;
}

uint32_t
CollectiveRuntime::LocalSizeOf(const std::vector<uint32_t>& members) const
{
    std::vector<uint32_t> servers;
    servers.reserve(members.size());
    for (uint32_t member : members)
    {
        servers.push_back(member / m_gpusPerServer);
    }
    return CollectiveStrategy::LocalSizeOf(servers);
}

std::string
CollectiveRuntime::PlanFor(const std::vector<uint32_t>& members,
                           CollectiveKind kind,
                           uint64_t bytes,
                           CollectivePlan& plan) const
{
    TypeId chosen = m_algorithms.For(kind);
    auto& strategy = m_strategies[chosen.GetUid()];
    if (!strategy)
    {
        strategy = CollectiveStrategy::Create(chosen);
    }
    strategy->SetChannels(m_channels);
    return strategy->Plan(kind,
                          static_cast<uint32_t>(members.size()),
                          bytes,
                          LocalSizeOf(members),
                          plan);
}

std::string
CollectiveRuntime::Prepare(const std::vector<uint32_t>& members,
                           CollectiveKind kind,
                           uint64_t bytes,
                           std::shared_ptr<const PreparedPlan>& prepared)
{
    auto n = static_cast<uint32_t>(members.size());
    PlanKey key{m_algorithms.For(kind).GetUid(), kind, n, bytes, LocalSizeOf(members), m_channels};
    auto found = m_plans.find(key);
    if (found != m_plans.end())
    {
        prepared = found->second;
        return "";
    }
    auto made = std::make_shared<PreparedPlan>();
    std::string problem = PlanFor(members, kind, bytes, made->plan);
    if (!problem.empty())
    {
        return problem;
    }
    const auto& specs = made->plan.GetTransfers();
    made->dependents.resize(specs.size());
    made->applyBefore.resize(specs.size());
    made->remaining.assign(n, 0);
    for (const auto& spec : specs)
    {
        for (uint32_t d : spec.deps)
        {
            made->dependents[d].push_back(spec.id);
        }
        for (uint32_t a : spec.applyAfter)
        {
            made->applyBefore[a].push_back(spec.id);
        }
        ++made->remaining[spec.src];
        ++made->remaining[spec.dst];
    }
    prepared = made;
    m_plans.emplace(key, std::move(made));
    return "";
}

std::string
CollectiveRuntime::Join(uint32_t rank,
                        const std::vector<uint32_t>& members,
                        uint64_t sequence,
                        const Description& what,
                        DoneCallback done)
{
    const auto& [kind, bytes, label, category] = what;
    if (category >= MAX_CATEGORIES)
    {
        return "category " + std::to_string(category) + " is not below " +
               std::to_string(MAX_CATEGORIES);
    }
    auto position = std::find(members.begin(), members.end(), rank);
    if (position == members.end())
    {
        return "rank " + std::to_string(rank) + " is not a member of its collective";
    }
    for (uint32_t m : members)
    {
        if (m >= m_nicOfRank.size() || !m_nicOfRank[m])
        {
            return "rank " + std::to_string(m) + " has no NIC";
        }
    }
    auto groupRank = static_cast<uint32_t>(position - members.begin());
    auto key = std::make_pair(members, sequence);
    auto found = m_byKey.find(key);
    Instance* inst = nullptr;
    if (found == m_byKey.end())
    {
        auto created = std::make_unique<Instance>();
        created->number = m_nextInstance++;
        created->sequence = sequence;
        created->category = category;
        created->members = members;
        std::string problem = Prepare(members, kind, bytes, created->prepared);
        if (!problem.empty())
        {
            return problem;
        }
        const auto& specs = created->prepared->plan.GetTransfers();
        uint32_t n = static_cast<uint32_t>(members.size());
        created->transfers.resize(specs.size());
        created->joined.assign(n, false);
        created->joinedAt.assign(n, Time(0));
        created->remaining = created->prepared->remaining;
        created->done.resize(n);
        for (const auto& spec : specs)
        {
            TransferState& state = created->transfers[spec.id];
            state.pendingDeps = static_cast<uint32_t>(spec.deps.size());
            state.pendingApplyAfter = static_cast<uint32_t>(spec.applyAfter.size());
            bool intra = members[spec.src] / m_gpusPerServer == members[spec.dst] / m_gpusPerServer;
            (intra ? created->record.intraBytes : created->record.interBytes) += spec.bytes;
        }
        CollectiveRecord& record = created->record;
        record.instance = created->number;
        record.label = label;
        record.kind = kind;
        record.algorithm = created->prepared->plan.GetAlgorithm();
        record.groupSize = n;
        record.bytes = bytes;
        record.transfers = static_cast<uint32_t>(specs.size());
        record.firstJoin = Simulator::Now();
        inst = created.get();
        m_byKey[key] = inst->number;
        m_instances[inst->number] = std::move(created);
    }
    else
    {
        inst = m_instances.at(found->second).get();
        if (inst->record.kind != kind || inst->record.bytes != bytes)
        {
            std::ostringstream os;
            os << "rank " << rank << " joins collective " << inst->number << " ("
               << inst->record.label << ") as " << GetCollectiveKindName(kind) << " of " << bytes
               << " bytes, but it is " << GetCollectiveKindName(inst->record.kind) << " of "
               << inst->record.bytes << " bytes: the members disagree";
            return os.str();
        }
        if (inst->joined[groupRank])
        {
            return "rank " + std::to_string(rank) + " joins collective " +
                   std::to_string(inst->number) + " twice";
        }
    }
    inst->joined[groupRank] = true;
    inst->joinedAt[groupRank] = Simulator::Now();
    inst->done[groupRank] = done;
    inst->record.lastJoin = Simulator::Now();
    uint64_t number = inst->number;
    if (inst->remaining[groupRank] == 0)
    {
        // Nothing to send or receive (a group of one, or a rank without transfers).
        inst->remaining[groupRank] = 1;
        Progress(*inst, groupRank);
        if (m_instances.find(number) == m_instances.end())
        {
            return "";
        }
    }
    for (uint32_t t : inst->prepared->plan.SendsOf(groupRank))
    {
        MaybeStart(*inst, t);
    }
    return "";
}

void
CollectiveRuntime::MaybeStart(Instance& inst, uint32_t t)
{
    TransferState& state = inst.transfers[t];
    const CollectiveTransferSpec& spec = inst.prepared->plan.GetTransfer(t);
    if (!state.started && state.pendingDeps == 0 && inst.joined[spec.src])
    {
        Start(inst, t);
    }
}

void
CollectiveRuntime::Start(Instance& inst, uint32_t t)
{
    TransferState& state = inst.transfers[t];
    const CollectiveTransferSpec& spec = inst.prepared->plan.GetTransfer(t);
    state.started = true;
    state.start = Simulator::Now();
    uint32_t src = inst.members[spec.src];
    uint32_t dst = inst.members[spec.dst];
    uint32_t server = src / m_gpusPerServer;
    TransferRef ref{inst.number, t};
    if (server == dst / m_gpusPerServer)
    {
        NS_ABORT_MSG_IF(server >= m_domains.size() || !m_domains[server],
                        "CollectiveRuntime: server " << server << " has no NVLink domain");
        m_intraBytesSent[src] += spec.bytes;
        m_categoryBytes[src][inst.category][0] += spec.bytes;
        uint64_t id = m_domains[server]->Send(src % m_gpusPerServer,
                                              dst % m_gpusPerServer,
                                              spec.bytes,
                                              m_nvlinkArrived[server]);
        m_nvlinkRefs[server].emplace(id, ref); // the arrival is an event: it comes later
        return;
    }
    auto [qp, peer] = GetQueuePair(src, dst, spec.channel);
    m_interBytesSent[src] += spec.bytes;
    m_categoryBytes[src][inst.category][1] += spec.bytes;
    ++m_messagesSent[src];
    m_qpState[PeekPointer(peer)].receives.push_back(ref);
    uint64_t id = qp->PostWrite(spec.bytes);
    m_qpState[PeekPointer(qp)].sends[id] = ref;
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
CollectiveRuntime::GetQueuePair(uint32_t src, uint32_t dst, uint32_t channel)
{
    uint64_t a = m_nicIndex[src];
    uint64_t b = m_nicIndex[dst];
    bool forward = a < b;
    std::array<uint64_t, 3> key{std::min(a, b), std::max(a, b), channel};
    auto it = m_qps.find(key);
    if (it == m_qps.end())
    {
        Ptr<RdmaEndpoint> low = forward ? m_nicOfRank[src] : m_nicOfRank[dst];
        Ptr<RdmaEndpoint> high = forward ? m_nicOfRank[dst] : m_nicOfRank[src];
        // A distinct UDP source port per queue pair (RoCEv2 NICs derive it from the QP number):
        // the ECMP entropy of the flow, spread over 0xC000..0xFFFF.
        auto port = static_cast<uint16_t>(0xC000 | ((m_qps.size() * 2654435761ULL) & 0x3FFF));
        auto pair = RdmaEndpoint::Connect(low, high, port);
        for (const auto& qp : {pair.first, pair.second})
        {
            qp->SetSendCompleteCallback(MakeCallback(&CollectiveRuntime::QpSent, this));
            qp->SetReceiveCompleteCallback(MakeCallback(&CollectiveRuntime::QpReceived, this));
            m_qpState[PeekPointer(qp)];
        }
        it = m_qps.emplace(key, pair).first;
    }
    return forward ? it->second : std::make_pair(it->second.second, it->second.first);
}

void
CollectiveRuntime::QpSent(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
{
    QpState& state = m_qpState.at(PeekPointer(qp));
    auto it = state.sends.find(id);
    NS_ABORT_MSG_IF(it == state.sends.end(), "CollectiveRuntime: unknown message " << id);
    TransferRef ref = it->second;
    state.sends.erase(it);
    Sent(ref);
}

void
CollectiveRuntime::QpReceived(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
{
    QpState& state = m_qpState.at(PeekPointer(qp));
    NS_ABORT_MSG_IF(state.receives.empty(), "CollectiveRuntime: unexpected message " << id);
    TransferRef ref = state.receives.front();
    state.receives.pop_front();
    DataIn(ref);
}

void
CollectiveRuntime::NvlinkArrived(uint32_t server, uint64_t id)
{
    auto it = m_nvlinkRefs[server].find(id);
    NS_ABORT_MSG_IF(it == m_nvlinkRefs[server].end(),
                    "CollectiveRuntime: unknown NVLink transfer " << id);
    TransferRef ref = it->second;
    m_nvlinkRefs[server].erase(it);
    // Inside a server the data is read by the copy itself: sent and in at once. Mark it sent
    // first; the instance cannot end there, as the receiver still waits for this transfer.
    Sent(ref);
    DataIn(ref);
}

void
CollectiveRuntime::DataIn(TransferRef ref)
{
    auto it = m_instances.find(ref.instance);
    NS_ABORT_MSG_IF(it == m_instances.end(), "CollectiveRuntime: data of no instance");
    Instance& inst = *it->second;
    TransferState& state = inst.transfers[ref.transfer];
    state.dataIn = true;
    const CollectiveTransferSpec& spec = inst.prepared->plan.GetTransfer(ref.transfer);
    TransferRecord record;
    record.instance = inst.number;
    record.srcRank = inst.members[spec.src];
    record.dstRank = inst.members[spec.dst];
    record.bytes = spec.bytes;
    record.nvlink = record.srcRank / m_gpusPerServer == record.dstRank / m_gpusPerServer;
    record.start = state.start;
    record.end = Simulator::Now();
    record.ideal = IdealTransfer(record.srcRank, record.dstRank, spec.bytes);
    m_transferDone(record);
    if (state.pendingApplyAfter == 0)
    {
        Arrived(inst, ref.transfer);
    }
}

void
CollectiveRuntime::Arrived(Instance& inst, uint32_t t)
{
    TransferState& state = inst.transfers[t];
    state.arrived = true;
    for (uint32_t d : inst.prepared->dependents[t])
    {
        --inst.transfers[d].pendingDeps;
        MaybeStart(inst, d);
    }
    Progress(inst, inst.prepared->plan.GetTransfer(t).dst);
}

void
CollectiveRuntime::Sent(TransferRef ref)
{
    auto it = m_instances.find(ref.instance);
    NS_ABORT_MSG_IF(it == m_instances.end(), "CollectiveRuntime: send of no instance");
    Instance& inst = *it->second;
    TransferState& state = inst.transfers[ref.transfer];
    state.sent = true;
    for (uint32_t v : inst.prepared->applyBefore[ref.transfer])
    {
        TransferState& other = inst.transfers[v];
        if (--other.pendingApplyAfter == 0 && other.dataIn && !other.arrived)
        {
            Arrived(inst, v);
            if (m_instances.find(ref.instance) == m_instances.end())
            {
                return;
            }
        }
    }
    Progress(inst, inst.prepared->plan.GetTransfer(ref.transfer).src);
}

void
CollectiveRuntime::Progress(Instance& inst, uint32_t groupRank)
{
    NS_ABORT_MSG_IF(inst.remaining[groupRank] == 0,
                    "CollectiveRuntime: group rank " << groupRank << " progressed past its end");
    if (--inst.remaining[groupRank] > 0 || !inst.joined[groupRank])
    {
        return;
    }
    ++inst.ranksDone;
    DoneCallback done = inst.done[groupRank];
    inst.done[groupRank] = DoneCallback();
    bool last = inst.ranksDone == inst.members.size();
    uint64_t number = inst.number;
    if (last)
    {
        inst.record.end = Simulator::Now();
        Time earliest = EarliestEnd(inst.prepared->plan, inst.members, inst.joinedAt);
        inst.record.ideal = std::max(Time(0), earliest - inst.record.lastJoin);
        CollectiveRecord record = inst.record;
        m_byKey.erase(std::make_pair(inst.members, inst.sequence));
        m_instances.erase(number); // inst is gone from here on
        ++m_finished;
        m_collectiveDone(record);
    }
    if (!done.IsNull())
    {
        done();
    }
}

Time
CollectiveRuntime::IdealTime(const CollectivePlan& plan, const std::vector<uint32_t>& members) const
{
    return EarliestEnd(plan, members, std::vector<Time>(members.size(), Time(0)));
}

Time
CollectiveRuntime::EarliestEnd(const CollectivePlan& plan,
                               const std::vector<uint32_t>& members,
                               const std::vector<Time>& joins) const
{
    const auto& transfers = plan.GetTransfers();
    size_t count = transfers.size();
    size_t n = members.size();
    constexpr double NEVER = std::numeric_limits<double>::infinity();

    // A port through which a group rank's transfers pass one after another: its NIC (between
    // servers) or its NVLink port (inside), for sending or for receiving.
    struct Port
    {
        double first{NEVER};        //!< the earliest start of a transfer through it
        double bits{0};             //!< their bits (wire bits for the NIC)
        double leastLatency{NEVER}; //!< the least of their latencies (after serialization)
        double bps{0};              //!< its rate
    };

    std::vector<std::array<Port, 4>> ports(n); // NIC send, NIC receive, NVLink send, receive
    // Per transfer, the earliest its data can be in and the earliest it can have arrived.
    std::vector<double> dataIn(count);
    std::vector<double> arrive(count);
    double nicBps = static_cast<double>(m_nicRate.GetBitRate());
    double end = 0;
    // Transfers are listed by step; deps are of smaller steps, applyAfter of the same or smaller
    // ones: a step's data-in times are all known before its arrivals are computed.
    size_t first = 0;
    while (first < count)
    {
        size_t last = first;
        for (; last < count && transfers[last].step == transfers[first].step; ++last)
        {
            const CollectiveTransferSpec& t = transfers[last];
            double start = joins[t.src].GetSeconds();
            for (uint32_t d : t.deps)
            {
                start = std::max(start, arrive[d]);
            }
            uint32_t src = members[t.src];
            uint32_t dst = members[t.dst];
            uint32_t server = src / m_gpusPerServer;
            double alone = IdealTransfer(src, dst, t.bytes).GetSeconds();
            dataIn[last] = start + alone;
            bool intra = server == dst / m_gpusPerServer;
            if (intra && (server >= m_domains.size() || !m_domains[server]))
            {
                continue; // no domain: IdealTransfer is 0, no port to count
            }
            double bps = intra ? static_cast<double>(m_domains[server]->GetBandwidth().GetBitRate())
                               : nicBps;
            double bits = 8.0 * static_cast<double>(intra ? t.bytes : WireBytes(t.bytes));
            for (auto [rank, side] : {std::make_pair(t.src, 0), std::make_pair(t.dst, 1)})
            {
                Port& port = ports[rank][side + (intra ? 2 : 0)];
                port.first = std::min(port.first, start);
                port.bits += bits;
                port.bps = bps;
                port.leastLatency = std::min(port.leastLatency, alone - bits / bps);
            }
        }
        for (size_t i = first; i < last; ++i)
        {
            arrive[i] = dataIn[i];
            for (uint32_t a : transfers[i].applyAfter)
            {
                arrive[i] = std::max(arrive[i], dataIn[a]);
            }
            end = std::max(end, arrive[i]);
        }
        first = last;
    }
    // The last transfer through a port ends no earlier than the first one's start plus all their
    // bits at the port's rate, and arrives the least of their latencies later. That latency is
    // the path's (after the last bit left) for NIC sends and NVLink; for NIC receives the
    // receiving link is the last hop, so nothing is added after it.
    for (const auto& rank : ports)
    {
        for (size_t k = 0; k < rank.size(); ++k)
        {
            const Port& port = rank[k];
            if (port.bits > 0)
            {
                double after = k == 1 ? 0.0 : std::max(0.0, port.leastLatency);
                end = std::max(end, port.first + port.bits / port.bps + after);
            }
        }
    }
    // Seconds(double) rounds to the resolution: take the step below, so that the bound stays one.
    Time bound = Seconds(end);
    return bound.GetSeconds() > end ? bound - TimeStep(1) : bound;
}

Time
CollectiveRuntime::IdealTransfer(uint32_t srcRank, uint32_t dstRank, uint64_t bytes) const
{
    uint32_t server = srcRank / m_gpusPerServer;
    if (server == dstRank / m_gpusPerServer)
    {
        if (server >= m_domains.size() || !m_domains[server])
        {
            return Time(0);
        }
        double bps = static_cast<double>(m_domains[server]->GetBandwidth().GetBitRate());
        return m_domains[server]->GetLatency() +
               RememberedSeconds(static_cast<double>(bytes) * 8 / bps);
    }
    // The message's last bit leaves the NIC after all its wire bytes but the last interframe gap
    // (12 bytes); every switch then stores and forwards its last frame (the first, with the
    // RETH, if it is alone), preamble included and gap excluded.
    const uint64_t gap = 12;
    uint64_t packets = std::max<uint64_t>(1, (bytes + m_mtu - 1) / m_mtu);
    uint64_t lastFrame = bytes - (packets - 1) * m_mtu + PACKET_OVERHEAD_BYTES - gap +
                         (packets == 1 ? IbRethHeader::SIZE : 0);
    Time path =
        m_latency.IsNull()
            ? Time(0)
            : m_latency(m_nicIndex[srcRank], m_nicIndex[dstRank], static_cast<uint32_t>(lastFrame));
    double bps = static_cast<double>(m_nicRate.GetBitRate());
    return path + RememberedSeconds(static_cast<double>(WireBytes(bytes) - gap) * 8 / bps);
}

Time
CollectiveRuntime::RememberedSeconds(double s) const
{
    uint64_t bits;
    std::memcpy(&bits, &s, sizeof(bits));
    // Fibonacci hashing: the top four bits of the product pick one of the 16 entries.
    SecondsMemo& memo = m_secondsMemo[(bits * 0x9E3779B97F4A7C15ULL) >> 60];
    if (memo.bits != bits)
    {
        memo.bits = bits;
        memo.value = Seconds(s);
    }
    return memo.value;
}

uint64_t
CollectiveRuntime::WireBytes(uint64_t bytes) const
{
    uint64_t packets = (bytes + m_mtu - 1) / m_mtu;
    // The first packet of an RDMA WRITE also carries the RETH.
    return bytes + packets * PACKET_OVERHEAD_BYTES + IbRethHeader::SIZE;
}

uint32_t
CollectiveRuntime::GetActiveInstances() const
{
    return static_cast<uint32_t>(m_instances.size());
}

uint64_t
CollectiveRuntime::GetFinishedInstances() const
{
    return m_finished;
}

uint32_t
CollectiveRuntime::GetQueuePairs() const
{
    return static_cast<uint32_t>(m_qps.size());
}

const std::vector<uint64_t>&
CollectiveRuntime::GetInterBytesSent() const
{
    return m_interBytesSent;
}

const std::vector<uint64_t>&
CollectiveRuntime::GetIntraBytesSent() const
{
    return m_intraBytesSent;
}

const std::vector<uint64_t>&
CollectiveRuntime::GetMessagesSent() const
{
    return m_messagesSent;
}

uint64_t
CollectiveRuntime::GetBytesSent(uint32_t rank, uint32_t category, bool inter) const
{
    if (rank >= m_categoryBytes.size() || category >= MAX_CATEGORIES)
    {
        return 0;
    }
    return m_categoryBytes[rank][category][inter ? 1 : 0];
}

} // namespace ns3
