/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-switch.h"

#include "ecmp-hash.h"
#include "ecmp-load-balancer.h"
#include "exact-time.h"
#include "frame-prefix-header.h"
#include "pfc-header.h"
#include "roce-channel.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceSwitch");

NS_OBJECT_ENSURE_REGISTERED(RoceSwitch);

TypeId
RoceSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceSwitch")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RoceSwitch>()
            .AddAttribute("LoadBalancer",
                          "Picks the egress port among equal-cost ones (a LoadBalancer; "
                          "default: a new EcmpLoadBalancer per switch). One object per switch.",
                          PointerValue(),
                          MakePointerAccessor(&RoceSwitch::m_loadBalancer),
                          MakePointerChecker<LoadBalancer>())
            .AddAttribute("EcnEnabled",
                          "At initialization, put an EcnMarker first among the egress stages: "
                          "ECN-capable packets are marked CE as the MMU's RED decides.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute(
                "EcnMarkPoint",
                "MarkPoint of the EcnMarker that EcnEnabled installs (read at initialization): "
                "Dequeue (as a packet leaves its egress queue, on the length left behind it: the "
                "mark does not wait behind the queue it reports) or Enqueue (as it arrives, on "
                "the length it finds).",
                EnumValue(EcnMarker::MARK_ON_DEQUEUE),
                LLM_FABRIC_ENUM_ACCESSOR(EcnMarker::MarkPoint, &RoceSwitch::m_ecnMarkPoint),
                MakeEnumChecker(EcnMarker::MARK_ON_DEQUEUE,
                                "Dequeue",
                                EcnMarker::MARK_ON_ENQUEUE,
                                "Enqueue"))
            .AddAttribute("DecrementTtl",
                          "Decrement the IPv4 TTL of every forwarded IPv4 frame and patch the "
                          "header checksum (RFC 1624), as a router does; receivers count hops "
                          "as 64 minus the TTL.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceSwitch::m_decrementTtl),
                          MakeBooleanChecker())
            .AddAttribute("PauseQuanta",
                          "Pause time of the PFC frames this switch sends, in quanta of 512 bit "
                          "times; re-sent every half of it while the condition holds.",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&RoceSwitch::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xFFFF))
            .AddAttribute("PfcWatchdogEnabled",
                          "At initialization, run a PfcWatchdog (with the attribute defaults of "
                          "ns3::PfcWatchdog) on the ports of this switch, unless one was given "
                          "by SetPfcWatchdog. Off by default: nothing is scheduled or checked.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceSwitch::m_watchdogEnabled),
                          MakeBooleanChecker())
            .AddAttribute("Mmu",
                          "The shared-buffer MMU.",
                          PointerValue(),
                          MakePointerAccessor(&RoceSwitch::m_mmu),
                          MakePointerChecker<SwitchMmu>())
            .AddTraceSource("Drop",
                            "A frame dropped, with its ingress port, priority and reason.",
                            MakeTraceSourceAccessor(&RoceSwitch::m_dropTrace),
                            "ns3::RoceSwitch::DropTracedCallback")
            .AddTraceSource("EcnMark",
                            "A packet marked CE: egress port, priority, queue length seen.",
                            MakeTraceSourceAccessor(&RoceSwitch::m_ecnMarkTrace),
                            "ns3::RoceSwitch::EcnMarkTracedCallback");
    return tid;
}

RoceSwitch::RoceSwitch()
    : m_ecnEnabled(true),
      m_decrementTtl(true),
      m_ecnMarkPoint(EcnMarker::MARK_ON_DEQUEUE),
      m_pauseQuanta(0xFFFF),
      m_watchdogEnabled(false),
      m_initialized(false)
{
    NS_LOG_FUNCTION(this);
    m_mmu = CreateObject<SwitchMmu>();
    m_loadBalancer = CreateObject<EcmpLoadBalancer>();
}

RoceSwitch::~RoceSwitch()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RoceSwitch::AddPort(Ptr<RoceNetDevice> port)
{
    NS_LOG_FUNCTION(this << port);
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    m_ports.push_back(port);
    uint32_t ifIndex = port->GetIfIndex();
    if (m_portOfIfIndex.size() <= ifIndex)
    {
        m_portOfIfIndex.resize(ifIndex + 1, UINT32_MAX);
    }
    m_portOfIfIndex[ifIndex] = index;
    // Hooks rather than ns-3 Callbacks: called once per frame (RoceNetDevice's FrameReceiveHook).
    port->SetFrameReceiveHook(RoceNetDevice::FrameReceiveHook::Bind<&RoceSwitch::Receive>(this));
    port->SetDequeueHook(RoceNetDevice::DequeueHook::Bind<&RoceSwitch::Dequeued>(this));
    m_ecnMarks.resize(m_ports.size() * RoceNetDevice::NUM_PRIORITIES, 0);
    m_drops.resize(m_ports.size() * RoceNetDevice::NUM_PRIORITIES, {});
    m_pauseRefresh.resize(m_ports.size() * RoceNetDevice::NUM_PRIORITIES);
    return index;
}

uint32_t
RoceSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<RoceNetDevice>
RoceSwitch::GetPort(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_ports.size(), "RoceSwitch: no port " << i);
    return m_ports[i];
}

void
RoceSwitch::AddRoute(Ipv4Address destination, const std::vector<uint32_t>& ports)
{
    NS_LOG_FUNCTION(this << destination);
    NS_ABORT_MSG_IF(ports.empty(), "RoceSwitch: a route to " << destination << " needs a port");
    for (uint32_t p : ports)
    {
        NS_ABORT_MSG_IF(p >= m_ports.size(),
                        "RoceSwitch: route to " << destination << " names port " << p << " of "
                                                << m_ports.size());
    }
    const bool added = m_routes.find(destination.Get()) == m_routes.end();
    m_routes[destination.Get()] = ports;
    if (added && (m_routes.size() * 2 > m_routeSlots.size()))
    {
        RebuildRouteTable();
    }
    else
    {
        StoreRoute(destination.Get(), ports);
    }
}

void
RoceSwitch::RemoveRoute(Ipv4Address destination)
{
    NS_LOG_FUNCTION(this << destination);
    if (m_routes.erase(destination.Get()) != 0)
    {
        RebuildRouteTable();
    }
}

RoceSwitch::RouteSlot&
RoceSwitch::FindRouteSlot(uint32_t destination)
{
    // Fibonacci hashing: the top bits of the product (host addresses differ in their low bits).
    const size_t mask = m_routeSlots.size() - 1;
    size_t i = static_cast<size_t>((destination * 0x9E3779B1U) >> m_routeShift);
    while (m_routeSlots[i].count != 0 && m_routeSlots[i].destination != destination)
    {
        i = (i + 1) & mask;
    }
    return m_routeSlots[i];
}

void
RoceSwitch::StoreRoute(uint32_t destination, const std::vector<uint32_t>& ports)
{
    RouteSlot& slot = FindRouteSlot(destination);
    if (slot.count == 0)
    {
        slot.destination = destination;
        slot.index = static_cast<uint32_t>(m_routePorts.size());
        m_routePorts.emplace_back();
    }
    slot.firstPort = ports[0];
    slot.count = static_cast<uint32_t>(ports.size());
    m_routePorts[slot.index] = ports;
}

void
RoceSwitch::RebuildRouteTable()
{
    uint32_t log2 = 4;
    while ((size_t{1} << log2) < m_routes.size() * 2)
    {
        ++log2;
    }
    m_routeSlots.assign(size_t{1} << log2, RouteSlot());
    m_routeShift = 32 - log2;
    m_routePorts.clear();
    for (const auto& [destination, ports] : m_routes)
    {
        StoreRoute(destination, ports);
    }
}

std::vector<uint32_t>
RoceSwitch::GetRoute(Ipv4Address destination) const
{
    auto it = m_routes.find(destination.Get());
    return it == m_routes.end() ? std::vector<uint32_t>() : it->second;
}

const Ptr<SwitchMmu>&
RoceSwitch::GetMmu() const
{
    return m_mmu;
}

Ptr<LoadBalancer>
RoceSwitch::GetLoadBalancer() const
{
    return m_loadBalancer;
}

void
RoceSwitch::AddEgressStage(Ptr<EgressStage> stage)
{
    NS_LOG_FUNCTION(this << stage);
    NS_ABORT_MSG_IF(!stage, "RoceSwitch: AddEgressStage needs a stage");
    m_stages.push_back(stage);
    if (m_initialized)
    {
        UpdateEnqueueStages();
    }
}

const std::vector<Ptr<EgressStage>>&
RoceSwitch::GetEgressStages() const
{
    return m_stages;
}

void
RoceSwitch::UpdateEnqueueStages()
{
    m_enqueueStages.clear();
    m_stagesAcceptDeferredTtl = true;
    m_enqueueStagesAcceptDeferredTtl = true;
    for (const auto& stage : m_stages)
    {
        bool accepts = stage->AcceptsDeferredTtl();
        m_stagesAcceptDeferredTtl = m_stagesAcceptDeferredTtl && accepts;
        if (stage->HasEnqueueHook())
        {
            m_enqueueStages.push_back(PeekPointer(stage));
            m_enqueueStagesAcceptDeferredTtl = m_enqueueStagesAcceptDeferredTtl && accepts;
        }
    }
    // Receive keeps the enqueue decisions of one frame as bits of a 64-bit word.
    NS_ABORT_MSG_IF(m_enqueueStages.size() > 64,
                    "RoceSwitch: more than 64 egress stages with an enqueue hook");
}

void
RoceSwitch::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    std::vector<DataRate> rates;
    std::vector<Time> delays;
    for (const auto& port : m_ports)
    {
        rates.push_back(port->GetDataRate());
        Ptr<RoceChannel> channel = DynamicCast<RoceChannel>(port->GetChannel());
        delays.push_back(channel ? channel->GetDelay() : Time(0));
    }
    m_mmu->ConfigurePorts(rates, delays);
    m_mmu->Initialize();
    NS_ABORT_MSG_IF(!m_loadBalancer, "RoceSwitch: no LoadBalancer");
    if (m_ecnEnabled)
    {
        Ptr<EcnMarker> marker = CreateObject<EcnMarker>();
        marker->SetAttribute("MarkPoint", EnumValue(m_ecnMarkPoint));
        m_stages.insert(m_stages.begin(), marker);
    }
    if (m_watchdogEnabled && !m_watchdog)
    {
        m_watchdog = CreateObject<PfcWatchdog>();
    }
    if (m_watchdog)
    {
        m_watchdog->Attach(this);
    }
    m_initialized = true;
    UpdateEnqueueStages();
    Object::DoInitialize();
}

void
RoceSwitch::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& e : m_pauseRefresh)
    {
        e.Cancel();
    }
    m_ports.clear();
    m_routes.clear();
    m_routeSlots.clear();
    m_routePorts.clear();
    m_routeShift = 32;
    m_mmu = nullptr;
    m_loadBalancer = nullptr;
    if (m_watchdog)
    {
        m_watchdog->Dispose();
        m_watchdog = nullptr;
    }
    m_enqueueStages.clear();
    m_stages.clear();
    Object::DoDispose();
}

void
RoceSwitch::Receive(RoceNetDevice& device,
                    const Ptr<Packet>& frame,
                    uint8_t priority,
                    const uint8_t* bytes,
                    uint32_t n,
                    uint8_t ttlDebt)
{
    // TTL decrements deferred for the frame (RoceNetDevice::Enqueue): those of the switches
    // before (ttlDebt, which @p bytes lack too), then this one's; paid (hops back to 0) where
    // something that does not accept them is about to see the frame.
    uint8_t hops = ttlDebt;
    uint32_t inPort = m_portOfIfIndex[device.GetIfIndex()];
    // The tuple as plain numbers: ns-3 addresses are made only for a load balancer to read.
    EcmpHash::RawTuple raw;
    if (!EcmpHash::ParseFrame(bytes, n, raw))
    {
        Drop(inPort, priority, frame, DROP_NOT_IPV4, hops);
        return;
    }
    const RouteSlot* route = m_routeSlots.empty() ? nullptr : &FindRouteSlot(raw.destination);
    if (route == nullptr || route->count == 0)
    {
        Drop(inPort, priority, frame, DROP_NO_ROUTE, hops);
        return;
    }
    uint32_t outPort = route->firstPort;
    if (route->count > 1)
    {
        if (hops != 0 && !m_loadBalancer->AcceptsDeferredTtl())
        {
            hops -= FramePrefixHeader::DecrementIpv4Ttl(frame, bytes, n, hops);
        }
        outPort =
            m_loadBalancer->SelectPortRaw(*this, m_routePorts[route->index], raw, priority, frame);
    }
    if (m_watchdog && m_watchdog->IsDropping(outPort, priority))
    {
        m_watchdog->CountDrop();
        return;
    }

    // Stages that judge a frame on enqueue see the egress queue as the frame finds it: they
    // decide before the MMU admits it, and act only if it does.
    // (Made only when a stage reads it: a QueueState's DataRate costs a call into ns-3.)
    uint64_t decisions = 0;
    std::optional<EgressStage::QueueState> found;
    if (!m_enqueueStages.empty())
    {
        if (hops != 0 && !m_enqueueStagesAcceptDeferredTtl)
        {
            hops -= FramePrefixHeader::DecrementIpv4Ttl(frame, bytes, n, hops);
        }
        found.emplace(MakeQueueState(outPort, priority));
        for (size_t i = 0; i < m_enqueueStages.size(); ++i)
        {
            if (m_enqueueStages[i]->EnqueueDecide(*this, frame, *found))
            {
                decisions |= uint64_t{1} << i;
            }
        }
    }

    uint32_t size = frame->GetSize();
    SwitchMmu::Admission admission = m_mmu->Admit(inPort, outPort, priority, size);
    switch (admission.verdict)
    {
    case SwitchMmu::ACCEPT:
        break;
    case SwitchMmu::DROP_LOSSY_LIMIT:
        Drop(inPort, priority, frame, DROP_LOSSY_LIMIT, hops);
        return;
    case SwitchMmu::DROP_HEADROOM_FULL:
        Drop(inPort, priority, frame, DROP_HEADROOM_FULL, hops);
        return;
    default:
        Drop(inPort, priority, frame, DROP_BUFFER_FULL, hops);
        return;
    }
    if (admission.xoff)
    {
        SendPause(inPort, priority);
    }
    if (m_decrementTtl)
    {
        // This switch's decrement, deferred too, unless the TTL is 1 or 0 already once the
        // switches before have had theirs (the frame is then forwarded as it is).
        const uint32_t ttl = FramePrefixHeader::FindIpv4Ttl(bytes, n);
        if (ttl != 0 && bytes[ttl] > ttlDebt + 1)
        {
            ++hops;
        }
    }
    if (decisions != 0)
    {
        if (hops != 0 && !m_enqueueStagesAcceptDeferredTtl)
        {
            FramePrefixHeader::DecrementIpv4Ttl(frame, hops); // this switch's (the rest above)
            hops = 0;
        }
        m_deferredFrame = PeekPointer(frame);
        m_deferredHops = &hops;
        for (size_t i = 0; decisions != 0; ++i, decisions >>= 1)
        {
            if (decisions & 1)
            {
                m_enqueueStages[i]->EnqueueApply(*this, frame, *found);
            }
        }
        m_deferredFrame = nullptr;
        m_deferredHops = nullptr;
    }
    uint64_t tag =
        (static_cast<uint64_t>(inPort) << 32) | (static_cast<uint64_t>(outPort) << 8) | priority;
    m_ports[outPort]->Enqueue(frame, priority, tag, hops);
}

void
RoceSwitch::Dequeued(RoceNetDevice& device,
                     const Ptr<Packet>& frame,
                     uint8_t priority,
                     uint64_t tag,
                     uint8_t& ttlDebt)
{
    auto outPort = static_cast<uint32_t>((tag >> 8) & 0xFFFFFF);
    ReleaseBuffer(tag, frame->GetSize());
    if (!m_stages.empty())
    {
        if (ttlDebt != 0 && !m_stagesAcceptDeferredTtl)
        {
            FramePrefixHeader::DecrementIpv4Ttl(frame, ttlDebt);
            ttlDebt = 0;
        }
        EgressStage::QueueState state = MakeQueueState(outPort, priority);
        m_deferredFrame = PeekPointer(frame);
        m_deferredHops = &ttlDebt;
        for (const auto& stage : m_stages)
        {
            stage->Dequeue(*this, frame, state);
        }
        m_deferredFrame = nullptr;
        m_deferredHops = nullptr;
    }
}

void
RoceSwitch::SettleTtl(const Ptr<Packet>& frame)
{
    if (m_deferredHops && *m_deferredHops != 0 && PeekPointer(frame) == m_deferredFrame)
    {
        FramePrefixHeader::DecrementIpv4Ttl(frame, *m_deferredHops);
        *m_deferredHops = 0;
    }
}

void
RoceSwitch::ReleaseBuffer(uint64_t tag, uint32_t bytes)
{
    auto inPort = static_cast<uint32_t>(tag >> 32);
    auto outPort = static_cast<uint32_t>((tag >> 8) & 0xFFFFFF);
    auto inPriority = static_cast<uint8_t>(tag & 0xFF);
    if (m_mmu->Release(inPort, outPort, inPriority, bytes))
    {
        m_pauseRefresh[inPort * RoceNetDevice::NUM_PRIORITIES + inPriority].Cancel();
        m_ports[inPort]->SendPfc(inPriority, 0);
    }
}

void
RoceSwitch::Flushed(Ptr<Packet> frame, uint64_t tag)
{
    ReleaseBuffer(tag, frame->GetSize());
}

uint32_t
RoceSwitch::DropEgressQueue(uint32_t port, uint8_t priority)
{
    NS_LOG_FUNCTION(this << port << +priority);
    NS_ABORT_MSG_IF(port >= m_ports.size(), "RoceSwitch: no port " << port);
    return m_ports[port]->FlushQueue(priority, MakeCallback(&RoceSwitch::Flushed, this));
}

uint32_t
RoceSwitch::GetQueuedBytes(uint32_t inPort, uint32_t outPort, uint8_t priority) const
{
    NS_ABORT_MSG_IF(outPort >= m_ports.size(), "RoceSwitch: no port " << outPort);
    // The tag of Receive: ingress port in the upper 32 bits.
    return m_ports[outPort]->GetQueuedBytesWithTag(priority,
                                                   ~uint64_t{0} << 32,
                                                   static_cast<uint64_t>(inPort) << 32);
}

void
RoceSwitch::SetPfcWatchdog(Ptr<PfcWatchdog> watchdog)
{
    NS_LOG_FUNCTION(this << watchdog);
    NS_ABORT_MSG_IF(!watchdog || m_watchdog, "RoceSwitch: SetPfcWatchdog needs one watchdog");
    m_watchdog = watchdog;
    if (m_initialized)
    {
        m_watchdog->Attach(this);
    }
}

Ptr<PfcWatchdog>
RoceSwitch::GetPfcWatchdog() const
{
    return m_watchdog;
}

bool
RoceSwitch::DecrementTtl(const Ptr<Packet>& frame, const uint8_t* bytes, uint32_t n)
{
    return FramePrefixHeader::DecrementIpv4Ttl(frame, bytes, n, 1) == 1;
}

EgressStage::QueueState
RoceSwitch::MakeQueueState(uint32_t outPort, uint8_t priority) const
{
    // Built in one piece: the rate is copied in, not default-made (an out-of-line ns-3 call)
    // and then assigned.
    const Ptr<RoceNetDevice>& port = m_ports[outPort];
    return EgressStage::QueueState{outPort,
                                   priority,
                                   m_mmu->GetEgressBytes(outPort, priority),
                                   port->GetTxBytes(),
                                   port->GetDataRate(),
                                   ExactTime::Now()};
}

void
RoceSwitch::RecordEcnMark(uint32_t port, uint8_t priority, uint32_t queueBytes)
{
    NS_ASSERT_MSG(port < m_ports.size() && priority < RoceNetDevice::NUM_PRIORITIES,
                  "RoceSwitch: no port " << port << " priority " << +priority);
    ++m_ecnMarks[port * RoceNetDevice::NUM_PRIORITIES + priority];
    m_ecnMarkTrace(port, priority, queueBytes);
}

void
RoceSwitch::SendPause(uint32_t port, uint8_t priority)
{
    m_ports[port]->SendPfc(priority, m_pauseQuanta);
    Time half = PfcHeader::QuantaToTime(m_pauseQuanta, m_ports[port]->GetDataRate()) / 2;
    m_pauseRefresh[port * RoceNetDevice::NUM_PRIORITIES + priority] =
        Simulator::Schedule(half, &RoceSwitch::RefreshPause, this, port, priority);
}

void
RoceSwitch::RefreshPause(uint32_t port, uint8_t priority)
{
    if (m_mmu->IsXoff(port, priority))
    {
        SendPause(port, priority);
    }
}

void
RoceSwitch::Drop(uint32_t port,
                 uint8_t priority,
                 const Ptr<Packet>& frame,
                 DropReason reason,
                 uint8_t ttlDebt)
{
    NS_LOG_LOGIC("drop on port " << port << " priority " << +priority << ": "
                                 << GetDropReasonName(reason));
    ++m_drops[port * RoceNetDevice::NUM_PRIORITIES + priority][reason];
    if (!m_dropTrace.IsEmpty())
    {
        FramePrefixHeader::DecrementIpv4Ttl(frame, ttlDebt); // as the switches before left it
        m_dropTrace(port, priority, frame, GetDropReasonName(reason));
    }
}

const std::string&
RoceSwitch::GetDropReasonName(DropReason reason)
{
    static const std::array<std::string, DROP_REASONS> names = {"lossy-limit",
                                                                "headroom-full",
                                                                "buffer-full",
                                                                "no-route",
                                                                "not-ipv4"};
    NS_ABORT_MSG_IF(reason >= DROP_REASONS, "RoceSwitch: no drop reason " << reason);
    return names[reason];
}

uint64_t
RoceSwitch::GetEcnMarks(uint32_t port, uint8_t priority) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || priority >= RoceNetDevice::NUM_PRIORITIES,
                    "RoceSwitch: no port " << port << " priority " << +priority);
    return m_ecnMarks[port * RoceNetDevice::NUM_PRIORITIES + priority];
}

uint64_t
RoceSwitch::GetDrops(uint32_t port, uint8_t priority, DropReason reason) const
{
    NS_ABORT_MSG_IF(port >= m_ports.size() || priority >= RoceNetDevice::NUM_PRIORITIES ||
                        reason >= DROP_REASONS,
                    "RoceSwitch: no port " << port << " priority " << +priority);
    return m_drops[port * RoceNetDevice::NUM_PRIORITIES + priority][reason];
}

uint64_t
RoceSwitch::GetTotalDrops() const
{
    uint64_t total = 0;
    for (const auto& group : m_drops)
    {
        for (uint64_t d : group)
        {
            total += d;
        }
    }
    return total;
}

int64_t
RoceSwitch::AssignStreams(int64_t stream)
{
    int64_t used = std::max<int64_t>(1, m_loadBalancer->AssignStreams(stream));
    return used + m_mmu->AssignStreams(stream + used);
}

} // namespace ns3
