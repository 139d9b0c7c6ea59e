/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-flow-generator.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/roce-net-device.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaFlowGenerator");

NS_OBJECT_ENSURE_REGISTERED(RdmaFlowGenerator);

TypeId
RdmaFlowGenerator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaFlowGenerator")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RdmaFlowGenerator>()
            .AddAttribute("Load",
                          "Offered load of every host, as a fraction of its link rate (0: no "
                          "Poisson arrivals, only AddFlow).",
                          DoubleValue(0.3),
                          MakeDoubleAccessor(&RdmaFlowGenerator::m_load),
                          MakeDoubleChecker<double>(0.0, 1.0))
            .AddAttribute("Distribution",
                          "Flow sizes: a built-in distribution (websearch, hadoop) or the path "
                          "of a file of \"size_bytes cumulative_percent\" lines.",
                          StringValue("websearch"),
                          MakeStringAccessor(&RdmaFlowGenerator::m_distribution),
                          MakeStringChecker())
            .AddAttribute("StartTime",
                          "Arrivals begin after this time.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&RdmaFlowGenerator::m_startTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("StopTime",
                          "No arrival from this time on (0: no limit).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&RdmaFlowGenerator::m_stopTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("MaxFlows",
                          "Arrivals stop after this many flows from all hosts (0: no limit).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RdmaFlowGenerator::m_maxFlows),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("FirstUdpPort",
                          "UDP source port of flow 0; flow i uses the next ports in turn, "
                          "wrapping to this one after 65535.",
                          UintegerValue(49152),
                          MakeUintegerAccessor(&RdmaFlowGenerator::m_firstUdpPort),
                          MakeUintegerChecker<uint16_t>(1024))
            .AddTraceSource("FlowStarted",
                            "A flow was posted.",
                            MakeTraceSourceAccessor(&RdmaFlowGenerator::m_flowStartedTrace),
                            "ns3::TracedValueCallback::Uint32")
            .AddTraceSource("FlowCompleted",
                            "A flow was acknowledged.",
                            MakeTraceSourceAccessor(&RdmaFlowGenerator::m_flowDoneTrace),
                            "ns3::TracedValueCallback::Uint32");
    return tid;
}

RdmaFlowGenerator::RdmaFlowGenerator()
    : m_load(0.3),
      m_maxFlows(0),
      m_firstUdpPort(49152),
      m_sizesSet(false),
      m_poissonFlows(0),
      m_started(0),
      m_completed(0)
{
    NS_LOG_FUNCTION(this);
    m_gap = CreateObject<ExponentialRandomVariable>();
    m_gap->SetAttribute("Mean", DoubleValue(1.0));
    m_gap->SetAttribute("Bound", DoubleValue(0.0));
    m_uniform = CreateObject<UniformRandomVariable>();
}

RdmaFlowGenerator::~RdmaFlowGenerator()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaFlowGenerator::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& event : m_arrivals)
    {
        event.Cancel();
    }
    m_arrivals.clear();
    m_flows.clear();
    m_endpoints.clear();
    m_gap = nullptr;
    m_uniform = nullptr;
    Object::DoDispose();
}

void
RdmaFlowGenerator::SetDistribution(const FlowSizeDistribution& distribution)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!distribution.IsLoaded(), "RdmaFlowGenerator: empty distribution");
    m_sizes = distribution;
    m_sizesSet = true;
}

const FlowSizeDistribution&
RdmaFlowGenerator::GetDistribution() const
{
    return m_sizes;
}

std::string
RdmaFlowGenerator::Install(const std::vector<Ptr<RdmaEndpoint>>& endpoints)
{
    NS_LOG_FUNCTION(this << endpoints.size());
    if (endpoints.size() < 2)
    {
        return "at least 2 hosts are needed";
    }
    if (!m_sizesSet)
    {
        std::string problem = m_sizes.LoadByName(m_distribution);
        if (!problem.empty())
        {
            return problem;
        }
    }
    double mean = m_sizes.GetMean();
    if (m_load > 0 && !(mean > 0))
    {
        return "the flow-size distribution has a mean of 0 bytes";
    }
    m_endpoints = endpoints;
    m_rates.assign(endpoints.size(), 0);
    m_arrivals.assign(endpoints.size(), EventId());
    for (uint32_t h = 0; h < endpoints.size(); ++h)
    {
        double bps = static_cast<double>(endpoints[h]->GetDevice()->GetDataRate().GetBitRate());
        m_rates[h] = m_load > 0 ? m_load * bps / (8 * mean) : 0;
        NS_LOG_INFO("host " << h << ": " << m_rates[h] << " flows/s");
    }
    for (uint32_t h = 0; h < endpoints.size(); ++h)
    {
        ScheduleArrival(h);
    }
    return "";
}

void
RdmaFlowGenerator::ScheduleArrival(uint32_t host)
{
    if (m_rates[host] <= 0 || (m_maxFlows > 0 && m_poissonFlows >= m_maxFlows))
    {
        return;
    }
    Time now = std::max(Simulator::Now(), m_startTime);
    Time at = now + Seconds(m_gap->GetValue() / m_rates[host]);
    if (!m_stopTime.IsZero() && at >= m_stopTime)
    {
        return;
    }
    m_arrivals[host] =
        Simulator::Schedule(at - Simulator::Now(), &RdmaFlowGenerator::Arrival, this, host);
}

void
RdmaFlowGenerator::Arrival(uint32_t host)
{
    NS_LOG_FUNCTION(this << host);
    if (m_maxFlows > 0 && m_poissonFlows >= m_maxFlows)
    {
        return;
    }
    auto n = static_cast<uint32_t>(m_endpoints.size());
    uint32_t destination = m_uniform->GetInteger(0, n - 2);
    if (destination >= host)
    {
        ++destination;
    }
    uint64_t bytes = std::max<uint64_t>(1, m_sizes.Sample(m_uniform->GetValue(0, 1)));
    ++m_poissonFlows;
    Flow flow;
    flow.source = host;
    flow.destination = destination;
    flow.bytes = bytes;
    m_flows.push_back(flow);
    StartFlow(static_cast<uint32_t>(m_flows.size() - 1));
    ScheduleArrival(host);
}

uint32_t
RdmaFlowGenerator::AddFlow(uint32_t source,
                           uint32_t destination,
                           uint64_t bytes,
                           Time at,
                           uint16_t udpPort)
{
    NS_LOG_FUNCTION(this << source << destination << bytes << at << udpPort);
    NS_ABORT_MSG_IF(source >= m_endpoints.size() || destination >= m_endpoints.size() ||
                        source == destination,
                    "RdmaFlowGenerator::AddFlow: bad hosts " << source << " -> " << destination
                                                             << " (Install first)");
    NS_ABORT_MSG_IF(bytes == 0, "RdmaFlowGenerator::AddFlow: empty flow");
    NS_ABORT_MSG_IF(at < Simulator::Now(), "RdmaFlowGenerator::AddFlow: time in the past");
    Flow flow;
    flow.source = source;
    flow.destination = destination;
    flow.bytes = bytes;
    flow.udpPort = udpPort;
    m_flows.push_back(flow);
    auto index = static_cast<uint32_t>(m_flows.size() - 1);
    Simulator::Schedule(at - Simulator::Now(), &RdmaFlowGenerator::StartFlow, this, index);
    return index;
}

void
RdmaFlowGenerator::AddRandomFlows(uint32_t count,
                                  uint64_t minBytes,
                                  uint64_t maxBytes,
                                  Time window,
                                  int64_t stream)
{
    NS_LOG_FUNCTION(this << count << minBytes << maxBytes << window << stream);
    NS_ABORT_MSG_IF(minBytes == 0 || maxBytes < minBytes || m_endpoints.size() < 2,
                    "RdmaFlowGenerator::AddRandomFlows: bad sizes or fewer than 2 hosts");
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(stream);
    const auto hosts = static_cast<uint32_t>(m_endpoints.size());
    const double lo = std::log(static_cast<double>(minBytes));
    const double hi = std::log(static_cast<double>(maxBytes));
    for (uint32_t f = 0; f < count; ++f)
    {
        uint32_t src = u->GetInteger(0, hosts - 1);
        uint32_t dst = u->GetInteger(0, hosts - 2);
        dst += dst >= src ? 1 : 0;
        auto bytes = static_cast<uint64_t>(std::llround(std::exp(lo + (hi - lo) * u->GetValue())));
        bytes = std::min(maxBytes, std::max(minBytes, bytes));
        Time at = PicoSeconds(
            static_cast<int64_t>(u->GetValue() * static_cast<double>(window.GetPicoSeconds())));
        AddFlow(src, dst, bytes, at);
    }
}

std::vector<uint32_t>
RdmaFlowGenerator::AddPoissonIncasts(double load,
                                     uint32_t senders,
                                     uint64_t bytes,
                                     Time window,
                                     int64_t stream)
{
    NS_LOG_FUNCTION(this << load << senders << bytes << window << stream);
    const auto hosts = static_cast<uint32_t>(m_endpoints.size());
    NS_ABORT_MSG_IF(hosts < 2 || senders == 0 || senders >= hosts || bytes == 0 ||
                        !(load > 0 && load <= 1),
                    "RdmaFlowGenerator::AddPoissonIncasts: bad load, senders or bytes, or "
                    "fewer than 2 hosts (Install first)");
    double capacity = 0;
    for (const auto& endpoint : m_endpoints)
    {
        capacity += static_cast<double>(endpoint->GetDevice()->GetDataRate().GetBitRate());
    }
    const double lambda =
        load * capacity / (8.0 * static_cast<double>(senders) * static_cast<double>(bytes));
    Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
    u->SetStream(stream);
    std::vector<uint32_t> flows;
    double at = 0; // seconds
    const double end = window.GetSeconds();
    std::vector<uint32_t> others(hosts - 1);
    while (true)
    {
        at += -std::log(1.0 - u->GetValue()) / lambda;
        if (at >= end)
        {
            break;
        }
        uint32_t receiver = u->GetInteger(0, hosts - 1);
        for (uint32_t h = 0, i = 0; h < hosts; ++h)
        {
            if (h != receiver)
            {
                others[i++] = h;
            }
        }
        for (uint32_t i = 0; i < senders; ++i)
        {
            std::swap(others[i], others[u->GetInteger(i, hosts - 2)]);
            flows.push_back(AddFlow(others[i], receiver, bytes, Seconds(at)));
        }
    }
    return flows;
}

void
RdmaFlowGenerator::StartFlow(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    Flow& flow = m_flows[index];
    if (flow.udpPort == 0)
    {
        uint32_t ports = 65536 - m_firstUdpPort;
        flow.udpPort = static_cast<uint16_t>(m_firstUdpPort + index % ports);
    }
    const uint16_t port = flow.udpPort;
    auto [qp, peer] =
        RdmaEndpoint::Connect(m_endpoints[flow.source], m_endpoints[flow.destination], port);
    flow.qp = qp;
    flow.peerQp = peer;
    flow.start = Simulator::Now();
    qp->SetSendCompleteCallback(MakeBoundCallback(&RdmaFlowGenerator::FlowDone, this, index));
    qp->PostWrite(flow.bytes);
    ++m_started;
    m_flowStartedTrace(index);
}

void
RdmaFlowGenerator::FlowDone(RdmaFlowGenerator* generator,
                            uint32_t index,
                            Ptr<RdmaQueuePair> qp,
                            uint64_t id,
                            uint64_t bytes)
{
    NS_LOG_FUNCTION(generator << index << bytes);
    Flow& flow = generator->m_flows[index];
    flow.end = Simulator::Now();
    flow.done = true;
    ++generator->m_completed;
    generator->m_flowDoneTrace(index);
}

int64_t
RdmaFlowGenerator::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_gap->SetStream(stream);
    m_uniform->SetStream(stream + 1);
    return 2;
}

double
RdmaFlowGenerator::GetArrivalRate(uint32_t host) const
{
    return host < m_rates.size() ? m_rates[host] : 0;
}

const std::vector<RdmaFlowGenerator::Flow>&
RdmaFlowGenerator::GetFlows() const
{
    return m_flows;
}

uint32_t
RdmaFlowGenerator::GetFlowsStarted() const
{
    return m_started;
}

uint32_t
RdmaFlowGenerator::GetFlowsCompleted() const
{
    return m_completed;
}

} // namespace ns3
