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
#include <cctype>
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
    }
    m_domains[server] = domain;
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
CollectiveRuntime::Join(uint32_t rank,
                        const std::vector<uint32_t>& members,
                        uint64_t sequence,
                        CollectiveKind kind,
                        uint64_t bytes,
                        const std::string& label,
                        DoneCallback done,
                        uint32_t category)
{
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
        std::string problem = PlanFor(members, kind, bytes, created->plan);
        if (!problem.empty())
        {
            return problem;
        }
        const auto& specs = created->plan.GetTransfers();
        uint32_t n = static_cast<uint32_t>(members.size());
        created->transfers.resize(specs.size());
        created->joined.assign(n, false);
        created->remaining.assign(n, 0);
        created->done.resize(n);
        for (const auto& spec : specs)
        {
            TransferState& state = created->transfers[spec.id];
            state.pendingDeps = static_cast<uint32_t>(spec.deps.size());
            state.pendingApplyAfter = static_cast<uint32_t>(spec.applyAfter.size());
            for (uint32_t d : spec.deps)
            {
                created->transfers[d].dependents.push_back(spec.id);
            }
            for (uint32_t a : spec.applyAfter)
            {
                created->transfers[a].applyBefore.push_back(spec.id);
            }
            ++created->remaining[spec.src];
            ++created->remaining[spec.dst];
            bool intra = members[spec.src] / m_gpusPerServer == members[spec.dst] / m_gpusPerServer;
            (intra ? created->record.intraBytes : created->record.interBytes) += spec.bytes;
        }
        CollectiveRecord& record = created->record;
        record.instance = created->number;
        record.label = label;
        record.kind = kind;
        record.algorithm = created->plan.GetAlgorithm();
        record.groupSize = n;
        record.bytes = bytes;
        record.transfers = static_cast<uint32_t>(specs.size());
        record.firstJoin = Simulator::Now();
        record.ideal = IdealTime(created->plan, members);
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
    for (uint32_t t : inst->plan.SendsOf(groupRank))
    {
        MaybeStart(*inst, t);
    }
    return "";
}

void
CollectiveRuntime::MaybeStart(Instance& inst, uint32_t t)
{
    TransferState& state = inst.transfers[t];
    const CollectiveTransferSpec& spec = inst.plan.GetTransfer(t);
    if (!state.started && state.pendingDeps == 0 && inst.joined[spec.src])
    {
        Start(inst, t);
    }
}

void
CollectiveRuntime::Start(Instance& inst, uint32_t t)
{
    TransferState& state = inst.transfers[t];
    const CollectiveTransferSpec& spec = inst.plan.GetTransfer(t);
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
        m_domains[server]->Send(
            src % m_gpusPerServer,
            dst % m_gpusPerServer,
            spec.bytes,
            MakeCallback(&CollectiveRuntime::NvlinkArrived, this).Bind(ref.instance, ref.transfer));
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
CollectiveRuntime::NvlinkArrived(uint64_t instance, uint32_t transfer, uint64_t id)
{
    // Inside a server the data is read by the copy itself: sent and in at once. Mark it sent
    // first; the instance cannot end there, as the receiver still waits for this transfer.
    TransferRef ref{instance, transfer};
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
    const CollectiveTransferSpec& spec = inst.plan.GetTransfer(ref.transfer);
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
    for (uint32_t d : state.dependents)
    {
        --inst.transfers[d].pendingDeps;
        MaybeStart(inst, d);
    }
    Progress(inst, inst.plan.GetTransfer(t).dst);
}

void
CollectiveRuntime::Sent(TransferRef ref)
{
    auto it = m_instances.find(ref.instance);
    NS_ABORT_MSG_IF(it == m_instances.end(), "CollectiveRuntime: send of no instance");
    Instance& inst = *it->second;
    TransferState& state = inst.transfers[ref.transfer];
    state.sent = true;
    for (uint32_t v : state.applyBefore)
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
    Progress(inst, inst.plan.GetTransfer(ref.transfer).src);
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
    uint32_t n = static_cast<uint32_t>(members.size());
    uint32_t steps = plan.GetSteps();
    // Per step and group rank: wire bytes sent and received through the NIC, payload sent and
    // received over NVLink; per step: the largest path latency.
    std::vector<std::array<uint64_t, 4>> load(static_cast<size_t>(steps) * n, {0, 0, 0, 0});
    std::vector<Time> latency(steps);
    for (const auto& t : plan.GetTransfers())
    {
        uint32_t src = members[t.src];
        uint32_t dst = members[t.dst];
        bool intra = src / m_gpusPerServer == dst / m_gpusPerServer;
        size_t row = static_cast<size_t>(t.step) * n;
        if (intra)
        {
            load[row + t.src][2] += t.bytes;
            load[row + t.dst][3] += t.bytes;
        }
        else
        {
            uint64_t wire = WireBytes(t.bytes);
            load[row + t.src][0] += wire;
            load[row + t.dst][1] += wire;
        }
        Time pathLatency = IdealTransfer(src, dst, 0);
        latency[t.step] = std::max(latency[t.step], pathLatency);
    }
    double nvlinkBps = 0;
    for (const auto& domain : m_domains)
    {
        if (domain)
        {
            nvlinkBps = static_cast<double>(domain->GetBandwidth().GetBitRate());
            break;
        }
    }
    double nicBps = static_cast<double>(m_nicRate.GetBitRate());
    double total = 0;
    for (uint32_t s = 0; s < steps; ++s)
    {
        double longest = 0;
        for (uint32_t r = 0; r < n; ++r)
        {
            const auto& l = load[static_cast<size_t>(s) * n + r];
            double nic = static_cast<double>(std::max(l[0], l[1])) * 8 / nicBps;
            double nvlink =
                nvlinkBps > 0 ? static_cast<double>(std::max(l[2], l[3])) * 8 / nvlinkBps : 0;
            longest = std::max({longest, nic, nvlink});
        }
        total += longest + latency[s].GetSeconds();
    }
    return Seconds(total);
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
        TimeValue latency;
        m_domains[server]->GetAttribute("Latency", latency);
        double bps = static_cast<double>(m_domains[server]->GetBandwidth().GetBitRate());
        return latency.Get() + Seconds(static_cast<double>(bytes) * 8 / bps);
    }
    Time path = m_latency.IsNull() ? Time(0) : m_latency(m_nicIndex[srcRank], m_nicIndex[dstRank]);
    if (bytes == 0)
    {
        return path;
    }
    double bps = static_cast<double>(m_nicRate.GetBitRate());
    return path + Seconds(static_cast<double>(WireBytes(bytes)) * 8 / bps);
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
