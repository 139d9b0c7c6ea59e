/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "replay-fabric.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/hpcc.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ReplayFabric");

namespace
{

/// No index.
constexpr uint32_t NONE = std::numeric_limits<uint32_t>::max();
/// The UDP source port of a pair's first flow, as the peer numbers them.
constexpr uint32_t PEER_FIRST_PORT = 10000;

/**
 * @param ns a time in nanoseconds.
 * @return it in whole nanoseconds, rounded to the nearest.
 */
int64_t
RoundNs(double ns)
{
    return static_cast<int64_t>(std::llround(ns));
}

} // namespace

ReplayFabric::ReplayFabric(const HpccFormatReader::Topology& topology,
                           const std::vector<HpccFormatReader::Flow>& flows)
    : m_topology(topology),
      m_flows(flows),
      m_hostIndex(topology.nodes, NONE),
      m_switchIndex(topology.nodes, NONE)
{
    uint32_t switches = 0;
    for (uint32_t n = 0; n < topology.nodes; ++n)
    {
        if (topology.isSwitch[n])
        {
            m_switchIndex[n] = switches++;
        }
        else
        {
            m_hostIndex[n] = static_cast<uint32_t>(m_hostNodes.size());
            m_hostNodes.push_back(n);
        }
    }
}

RoceFabric
ReplayFabric::Build(RoceTopologyHelper& topo)
{
    const auto hosts = static_cast<uint32_t>(m_hostNodes.size());
    auto graphId = [this, hosts](uint32_t node) {
        return m_topology.isSwitch[node] ? hosts + m_switchIndex[node] : m_hostIndex[node];
    };
    std::vector<std::string> names;
    for (uint32_t n = 0; n < m_topology.nodes; ++n)
    {
        if (m_topology.isSwitch[n])
        {
            names.push_back("switch" + std::to_string(n));
        }
    }
    std::vector<RoceTopologyHelper::PendingLink> links;
    for (const auto& link : m_topology.links)
    {
        links.push_back({graphId(link.a), graphId(link.b), link.rate, link.delay});
    }
    return topo.Build(hosts, names, links);
}

uint32_t
ReplayFabric::GetHostIndex(uint32_t node) const
{
    NS_ABORT_MSG_IF(node >= m_hostIndex.size() || m_hostIndex[node] == NONE,
                    "ReplayFabric: node " << node << " is not a host");
    return m_hostIndex[node];
}

const std::vector<uint32_t>&
ReplayFabric::GetHostNodes() const
{
    return m_hostNodes;
}

Time
ReplayFabric::GetLongestBaseRtt(uint32_t mtu) const
{
    Time longest;
    for (uint32_t src : m_hostNodes)
    {
        std::vector<uint32_t> previous;
        std::vector<uint32_t> distance = HpccFormatReader::Distances(m_topology, src, previous);
        for (uint32_t dst : m_hostNodes)
        {
            if (dst == src || distance[dst] == NONE)
            {
                continue;
            }
            std::vector<DataRate> rates;
            std::vector<Time> delays;
            GetPathLinks(HpccFormatReader::PathTo(m_topology, previous, src, dst), rates, delays);
            longest = std::max(longest, Hpcc::PathBaseRtt(rates, delays, mtu));
        }
    }
    return longest;
}

std::vector<uint16_t>
ReplayFabric::PeerSourcePorts(const std::vector<HpccFormatReader::Flow>& flows)
{
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> next;
    std::vector<uint16_t> ports;
    for (const auto& flow : flows)
    {
        uint32_t& n = next[{flow.src, flow.dst}];
        // Past 65535 a pair wraps to the first port (55,536 flows of one pair).
        ports.push_back(static_cast<uint16_t>(PEER_FIRST_PORT + n % (65536 - PEER_FIRST_PORT)));
        ++n;
    }
    return ports;
}

Ptr<RdmaFlowGenerator>
ReplayFabric::Install(const std::vector<Ptr<RdmaEndpoint>>& endpoints)
{
    NS_ABORT_MSG_IF(m_generator, "ReplayFabric: Install once");
    m_generator = CreateObject<RdmaFlowGenerator>();
    m_generator->SetAttribute("Load", DoubleValue(0));
    std::string problem = m_generator->Install(endpoints);
    NS_ABORT_MSG_IF(!problem.empty(), "ReplayFabric: " << problem);
    std::vector<uint16_t> ports = PeerSourcePorts(m_flows);
    for (size_t f = 0; f < m_flows.size(); ++f)
    {
        const HpccFormatReader::Flow& flow = m_flows[f];
        m_generator->AddFlow(GetHostIndex(flow.src),
                             GetHostIndex(flow.dst),
                             flow.bytes,
                             flow.start,
                             ports[f]);
    }
    m_generator->TraceConnectWithoutContext("FlowCompleted",
                                            MakeBoundCallback(&ReplayFabric::FlowCompleted, this));
    return m_generator;
}

void
ReplayFabric::FlowCompleted(ReplayFabric* replay, uint32_t index)
{
    if (replay->m_generator->GetFlowsCompleted() == replay->m_flows.size())
    {
        Simulator::Stop(); // what is left are idle queue pairs' congestion-control timers
    }
}

void
ReplayFabric::GetPathLinks(const std::vector<uint32_t>& path,
                           std::vector<DataRate>& rates,
                           std::vector<Time>& delays) const
{
    rates.clear();
    delays.clear();
    for (uint32_t l : path)
    {
        rates.push_back(m_topology.links[l].rate);
        delays.push_back(m_topology.links[l].delay);
    }
}

double
ReplayFabric::GetStandaloneFctNs(uint32_t flow, uint32_t mtu) const
{
    NS_ABORT_MSG_IF(flow >= m_flows.size(), "ReplayFabric: no flow " << flow);
    std::vector<uint32_t> path =
        HpccFormatReader::ShortestPath(m_topology, m_flows[flow].src, m_flows[flow].dst);
    std::vector<DataRate> rates;
    std::vector<Time> delays;
    GetPathLinks(path, rates, delays);
    return FlowStatistics::IdealFctNs(m_flows[flow].bytes, mtu, rates, delays);
}

std::string
ReplayFabric::FctLine(const FctRecord& r)
{
    char line[160];
    std::snprintf(line,
                  sizeof(line),
                  "%08" PRIx32 " %08" PRIx32 " %u %u %" PRIu64 " %" PRId64 " %" PRId64 " %" PRId64,
                  HpccFormatReader::PeerAddress(r.src),
                  HpccFormatReader::PeerAddress(r.dst),
                  static_cast<unsigned>(r.sport),
                  static_cast<unsigned>(r.dport),
                  r.bytes,
                  r.startNs,
                  r.fctNs,
                  r.standaloneNs);
    return line;
}

std::string
ReplayFabric::WriteFct(const std::string& path,
                       uint32_t mtu,
                       FlowStatistics::FlowRunSummary& summary) const
{
    NS_ABORT_MSG_IF(!m_generator, "ReplayFabric: Install before WriteFct");
    const std::vector<RdmaFlowGenerator::Flow>& flows = m_generator->GetFlows();
    std::vector<uint32_t> done;
    for (uint32_t f = 0; f < flows.size(); ++f)
    {
        if (flows[f].done)
        {
            done.push_back(f);
        }
    }
    std::stable_sort(done.begin(), done.end(), [&flows](uint32_t x, uint32_t y) {
        return flows[x].end < flows[y].end;
    });
    std::ofstream out(path);
    for (uint32_t f : done)
    {
        const RdmaFlowGenerator::Flow& flow = flows[f];
        double fctNs = static_cast<double>((flow.end - flow.start).GetPicoSeconds()) / 1000.0;
        double standaloneNs = GetStandaloneFctNs(f, mtu);
        summary.fctUs.push_back(fctNs / 1000.0);
        summary.slowdown.push_back(fctNs / standaloneNs);
        summary.lastFlowEnd = std::max(summary.lastFlowEnd, flow.end);
        out << FctLine({m_flows[f].src,
                        m_flows[f].dst,
                        flow.udpPort,
                        m_flows[f].dport,
                        flow.bytes,
                        RoundNs(static_cast<double>(flow.start.GetPicoSeconds()) / 1000.0),
                        RoundNs(fctNs),
                        RoundNs(standaloneNs)})
            << "\n";
    }
    summary.flows = m_generator->GetFlowsStarted();
    summary.flowsDone = m_generator->GetFlowsCompleted();
    return out ? "" : "cannot write " + path;
}

} // namespace ns3
