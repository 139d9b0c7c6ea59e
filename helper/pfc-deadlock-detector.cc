/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-deadlock-detector.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcDeadlockDetector");

NS_OBJECT_ENSURE_REGISTERED(PfcDeadlockDetector);

namespace
{

/**
 * @param q a queue.
 * @return its sort key.
 */
std::tuple<uint32_t, uint32_t, uint8_t>
Key(const PfcDeadlockDetector::QueueId& q)
{
    return std::make_tuple(q.node, q.port, q.priority);
}

} // namespace

std::ostream&
operator<<(std::ostream& os, const PfcDeadlockDetector::QueueId& q)
{
    return os << q.node << "/" << q.port << "/" << +q.priority;
}

TypeId
PfcDeadlockDetector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcDeadlockDetector")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<PfcDeadlockDetector>()
            .AddTraceSource("Deadlock",
                            "A cycle of paused egress queues found: its queues in wait-for "
                            "order (node/port/priority) and the time it was found.",
                            MakeTraceSourceAccessor(&PfcDeadlockDetector::m_deadlockTrace),
                            "ns3::PfcDeadlockDetector::DeadlockTracedCallback");
    return tid;
}

PfcDeadlockDetector::PfcDeadlockDetector()
    : m_stamp(0)
{
    NS_LOG_FUNCTION(this);
}

PfcDeadlockDetector::~PfcDeadlockDetector()
{
    NS_LOG_FUNCTION(this);
}

void
PfcDeadlockDetector::DoDispose()
{
    m_ports.clear();
    Object::DoDispose();
}

void
PfcDeadlockDetector::Install(const RoceFabric& fabric)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_ports.empty(), "PfcDeadlockDetector: installed twice");
    std::unordered_map<const NetDevice*, uint32_t> baseOf;
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = fabric.GetSwitch(s);
        std::vector<uint32_t> siblings;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            uint32_t base = static_cast<uint32_t>(m_ports.size()) * PRIORITIES;
            baseOf[PeekPointer(sw->GetPort(p))] = base;
            siblings.push_back(base);
            m_ports.push_back(
                Port{sw, sw->GetPort(p), fabric.GetSwitchNode(s)->GetId(), p, UINT32_MAX, {}});
        }
        for (uint32_t b : siblings)
        {
            m_ports[b / PRIORITIES].siblings = siblings;
        }
    }
    for (auto& port : m_ports)
    {
        Ptr<Channel> channel = port.device->GetChannel();
        for (std::size_t d = 0; channel && d < channel->GetNDevices(); ++d)
        {
            auto it = baseOf.find(PeekPointer(channel->GetDevice(d)));
            if (it != baseOf.end() && channel->GetDevice(d) != port.device)
            {
                port.peerBase = it->second;
            }
        }
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        m_ports[i].device->TraceConnectWithoutContext(
            "PfcReceived",
            MakeBoundCallback(&PfcDeadlockDetector::PfcSink, this, i * PRIORITIES));
        m_ports[i].device->TraceConnectWithoutContext(
            "PauseState",
            MakeBoundCallback(&PfcDeadlockDetector::PauseSink, this, i * PRIORITIES));
    }
    m_visited.assign(m_ports.size() * PRIORITIES, 0);
}

void
PfcDeadlockDetector::PfcSink(PfcDeadlockDetector* detector,
                             uint32_t vertexBase,
                             uint8_t classEnableVector,
                             const std::array<uint16_t, 8>& quanta)
{
    for (uint8_t c = 0; c < PRIORITIES; ++c)
    {
        if ((classEnableVector & (1u << c)) != 0 && quanta[c] > 0)
        {
            detector->Check(vertexBase + c);
        }
    }
}

void
PfcDeadlockDetector::PauseSink(PfcDeadlockDetector* detector,
                               uint32_t vertexBase,
                               uint8_t priority,
                               bool paused)
{
    if (paused)
    {
        return;
    }
    uint32_t vertex = vertexBase + priority;
    auto& active = detector->m_active;
    active.erase(std::remove_if(active.begin(),
                                active.end(),
                                [vertex](const std::vector<uint32_t>& cycle) {
                                    return std::find(cycle.begin(), cycle.end(), vertex) !=
                                           cycle.end();
                                }),
                 active.end());
}

bool
PfcDeadlockDetector::IsPaused(uint32_t vertex) const
{
    return m_ports[vertex / PRIORITIES].device->IsPaused(static_cast<uint8_t>(vertex % PRIORITIES));
}

std::vector<uint32_t>
PfcDeadlockDetector::Successors(uint32_t vertex) const
{
    std::vector<uint32_t> next;
    const Port& port = m_ports[vertex / PRIORITIES];
    if (port.peerBase == UINT32_MAX)
    {
        return next; // the peer is a host
    }
    auto c = static_cast<uint8_t>(vertex % PRIORITIES);
    const Port& peer = m_ports[port.peerBase / PRIORITIES];
    if (!peer.sw->GetMmu()->IsXoff(peer.port, c))
    {
        return next; // the peer's ingress group facing us will resume by itself
    }
    for (uint32_t base : peer.siblings)
    {
        uint32_t w = base + c;
        if (IsPaused(w) &&
            peer.sw->GetQueuedBytes(peer.port, m_ports[base / PRIORITIES].port, c) > 0)
        {
            next.push_back(w);
        }
    }
    return next;
}

bool
PfcDeadlockDetector::Search(uint32_t vertex, uint32_t start, std::vector<uint32_t>& path)
{
    for (uint32_t w : Successors(vertex))
    {
        if (w == start)
        {
            return true;
        }
        if (m_visited[w] != m_stamp)
        {
            m_visited[w] = m_stamp;
            path.push_back(w);
            if (Search(w, start, path))
            {
                return true;
            }
            path.pop_back();
        }
    }
    return false;
}

void
PfcDeadlockDetector::Check(uint32_t vertex)
{
    if (!IsPaused(vertex))
    {
        return; // pauses ignored (PfcEnabled false, or a watchdog in a storm)
    }
    ++m_stamp;
    m_visited[vertex] = m_stamp;
    std::vector<uint32_t> path{vertex};
    if (!Search(vertex, vertex, path))
    {
        return;
    }
    std::vector<QueueId> cycle;
    for (uint32_t v : path)
    {
        const Port& port = m_ports[v / PRIORITIES];
        cycle.push_back(QueueId{port.node, port.port, static_cast<uint8_t>(v % PRIORITIES)});
    }
    auto first = std::min_element(cycle.begin(), cycle.end(), [](const auto& a, const auto& b) {
        return Key(a) < Key(b);
    });
    auto shift = first - cycle.begin();
    std::rotate(cycle.begin(), first, cycle.end());
    std::rotate(path.begin(), path.begin() + shift, path.end());
    if (std::find(m_active.begin(), m_active.end(), path) != m_active.end())
    {
        return; // reported already, still in place
    }
    m_active.push_back(path);
    m_deadlocks.push_back(Deadlock{cycle, Simulator::Now()});
    NS_LOG_INFO("PFC deadlock of " << cycle.size() << " queues at "
                                   << Simulator::Now().As(Time::US));
    m_deadlockTrace(cycle, Simulator::Now());
}

const std::vector<PfcDeadlockDetector::Deadlock>&
PfcDeadlockDetector::GetDeadlocks() const
{
    return m_deadlocks;
}

uint64_t
PfcDeadlockDetector::GetDeadlockCount() const
{
    return m_deadlocks.size();
}

} // namespace ns3
