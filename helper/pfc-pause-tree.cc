/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-pause-tree.h"

#include "ns3/abort.h"
#include "ns3/channel.h"
#include "ns3/ecmp-hash.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pfc-header.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <numeric>
#include <set>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcPauseTree");

NS_OBJECT_ENSURE_REGISTERED(PfcPauseTree);

namespace
{

/**
 * @param t a time.
 * @return it in nanoseconds, with three decimals (picoseconds).
 */
std::string
Ns(Time t)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << t.ToDouble(Time::NS);
    return os.str();
}

/**
 * Find the representative of a union-find set, halving paths.
 * @param up the parent of each element.
 * @param i an element.
 * @return its representative.
 */
uint32_t
FindSet(std::vector<uint32_t>& up, uint32_t i)
{
    while (up[i] != i)
    {
        up[i] = up[up[i]];
        i = up[i];
    }
    return i;
}

/**
 * Merge two union-find sets (the smaller index represents the union).
 * @param up the parent of each element.
 * @param a an element.
 * @param b another.
 */
void
UnionSets(std::vector<uint32_t>& up, uint32_t a, uint32_t b)
{
    a = FindSet(up, a);
    b = FindSet(up, b);
    if (a != b)
    {
        up[std::max(a, b)] = std::min(a, b);
    }
}

} // namespace

TypeId
PfcPauseTree::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PfcPauseTree")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<PfcPauseTree>()
            .AddAttribute("StormGap",
                          "Pauses that begin at most this long after every pause before them "
                          "has ended still join their storm (0: a storm is a connected set of "
                          "overlapping pauses, the definition of issue 13; a gap merges the "
                          "XOFF/XON oscillation of one congestion event into one storm).",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&PfcPauseTree::m_stormGap),
                          MakeTimeChecker(Seconds(0), Seconds(10)));
    return tid;
}

PfcPauseTree::PfcPauseTree()
    : m_stormGap(Seconds(0)),
      m_storms(0),
      m_finished(false)
{
    NS_LOG_FUNCTION(this);
}

PfcPauseTree::~PfcPauseTree()
{
    NS_LOG_FUNCTION(this);
}

void
PfcPauseTree::DoDispose()
{
    m_ports.clear();
    m_arrival.clear();
    Object::DoDispose();
}

void
PfcPauseTree::Install(const RoceFabric& fabric)
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(!m_ports.empty(), "PfcPauseTree: installed twice");
    std::unordered_map<const NetDevice*, uint32_t> indexOf;
    std::vector<std::string> owner; // the name of each port's node
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        uint32_t i = m_ports.size();
        indexOf[PeekPointer(fabric.GetHostDevice(h))] = i;
        m_ports.push_back(Port{fabric.GetHostDevice(h), nullptr, 0, UINT32_MAX, i, ""});
        owner.push_back("h" + std::to_string(h));
    }
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = fabric.GetSwitch(s);
        uint32_t first = m_ports.size();
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            indexOf[PeekPointer(sw->GetPort(p))] = m_ports.size();
            m_ports.push_back(Port{sw->GetPort(p), sw, p, UINT32_MAX, first, ""});
            owner.push_back(fabric.GetSwitchName(s));
        }
    }
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        Port& port = m_ports[i];
        Ptr<Channel> channel = port.device->GetChannel();
        for (std::size_t d = 0; channel && d < channel->GetNDevices(); ++d)
        {
            auto it = indexOf.find(PeekPointer(channel->GetDevice(d)));
            if (it != indexOf.end() && it->second != i)
            {
                port.peer = it->second;
            }
        }
        port.name = owner[i];
        if (port.sw)
        {
            port.name += ":p" + std::to_string(port.number) + "->" +
                         (port.peer == UINT32_MAX ? std::string("?") : owner[port.peer]);
        }
    }
    std::size_t vertices = m_ports.size() * PRIORITIES;
    m_xoff.assign(vertices, Xoff());
    m_open.assign(vertices, -1);
    m_history.assign(vertices, {});
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        const Port& port = m_ports[i];
        port.device->TraceConnectWithoutContext(
            "PauseState",
            MakeBoundCallback(&PfcPauseTree::PauseSink, this, i));
        port.device->TraceConnectWithoutContext(
            "PhyTxBegin",
            MakeBoundCallback(&PfcPauseTree::DepartSink, this, i));
        port.device->TraceConnectWithoutContext(port.sw ? "PhyRxEnd" : "MacTx",
                                                MakeBoundCallback(&PfcPauseTree::ArriveSink, this));
        if (port.sw && port.number == 0)
        {
            port.sw->GetMmu()->TraceConnectWithoutContext(
                "Xoff",
                MakeBoundCallback(&PfcPauseTree::XoffSink, this, i));
        }
    }
}

void
PfcPauseTree::XoffSink(PfcPauseTree* tree, uint32_t first, uint32_t inPort, uint8_t priority)
{
    const Port& sw = tree->m_ports[first];
    Xoff& x = tree->m_xoff[(first + inPort) * PRIORITIES + priority];
    x = Xoff();
    x.valid = true;
    uint32_t most = 0;
    uint32_t mainPort = UINT32_MAX;
    for (uint32_t out = 0; out < sw.sw->GetNPorts(); ++out)
    {
        uint32_t bytes = sw.sw->GetQueuedBytes(inPort, out, priority);
        if (bytes == 0)
        {
            continue;
        }
        if (!x.waitedOn.empty())
        {
            x.waitedOn += ";";
        }
        x.waitedOn += tree->m_ports[first + out].name + "=" + std::to_string(bytes);
        if (bytes > most)
        {
            most = bytes;
            mainPort = first + out;
        }
    }
    if (mainPort == UINT32_MAX)
    {
        // Nothing queued yet (an XOFF threshold below one frame): the group waits on nothing
        // known, and its pauses start their own tree at the ingress port.
        mainPort = first + inPort;
    }
    x.parentPort = mainPort;
    int64_t parent = tree->m_open[mainPort * PRIORITIES + priority];
    if (parent >= 0)
    {
        const Pause& p = tree->m_pauses[parent];
        x.parent = parent;
        x.rootPort = p.rootPort;
        x.depth = p.depth + 1;
    }
    else
    {
        x.rootPort = mainPort;
        x.depth = 1;
    }
}

void
PfcPauseTree::PauseSink(PfcPauseTree* tree, uint32_t port, uint8_t priority, bool paused)
{
    uint32_t vertex = port * PRIORITIES + priority;
    if (!paused)
    {
        int64_t open = tree->m_open[vertex];
        if (open >= 0)
        {
            tree->m_pauses[open].end = Simulator::Now();
            tree->m_pauses[open].ended = true;
            tree->m_open[vertex] = -1;
        }
        return;
    }
    Pause p;
    p.port = port;
    p.priority = priority;
    p.start = Simulator::Now();
    p.end = p.start;
    p.ended = false;
    p.sender = tree->m_ports[port].peer;
    p.parent = -1;
    p.parentPort = p.sender;
    p.rootPort = p.sender;
    p.depth = 1;
    p.storm = 0;
    if (p.sender != UINT32_MAX && tree->m_ports[p.sender].sw)
    {
        const Xoff& x = tree->m_xoff[p.sender * PRIORITIES + priority];
        if (x.valid)
        {
            p.parent = x.parent;
            p.parentPort = x.parentPort;
            p.rootPort = x.rootPort;
            p.depth = x.depth;
            p.waitedOn = x.waitedOn;
        }
    }
    // Otherwise a host sent it (its receive buffer is the root) or the sender is unknown.
    tree->m_open[vertex] = static_cast<int64_t>(tree->m_pauses.size());
    tree->m_history[vertex].push_back(tree->m_pauses.size());
    tree->m_pauses.push_back(p);
}

void
PfcPauseTree::ArriveSink(PfcPauseTree* tree, Ptr<const Packet> frame)
{
    // PFC frames end at the port that receives them: keep no entry that nothing would remove.
    uint8_t header[14];
    if (frame->CopyData(header, sizeof(header)) == sizeof(header) &&
        static_cast<uint16_t>((header[12] << 8) | header[13]) == PfcHeader::ETHER_TYPE)
    {
        return;
    }
    tree->m_arrival[frame->GetUid()] = Simulator::Now();
}

void
PfcPauseTree::DepartSink(PfcPauseTree* tree, uint32_t port, Ptr<const Packet> frame)
{
    tree->Depart(port, frame);
}

void
PfcPauseTree::Depart(uint32_t port, Ptr<const Packet> frame)
{
    auto arrival = m_arrival.find(frame->GetUid());
    if (arrival == m_arrival.end())
    {
        return; // a PFC frame, or a frame the port made itself
    }
    Time from = arrival->second;
    m_arrival.erase(arrival);
    uint8_t bytes[EcmpHash::MAX_TUPLE_BYTES];
    uint32_t n = frame->CopyData(bytes, sizeof(bytes));
    FlowFiveTuple tuple;
    if (!EcmpHash::ExtractFromFrame(bytes, n, tuple))
    {
        return;
    }
    const Port& p = m_ports[port];
    Flow& flow = m_flows[tuple];
    if (p.sw && std::find(flow.egress.begin(), flow.egress.end(), port) == flow.egress.end())
    {
        flow.egress.push_back(port);
    }
    Time now = Simulator::Now();
    if (from >= now)
    {
        return; // it did not wait
    }
    uint8_t priority = p.device->ClassifyBytes(bytes, n);
    const std::vector<uint32_t>& history = m_history[port * PRIORITIES + priority];
    // The pauses of this queue that overlap [from, now], newest first.
    for (auto it = history.rbegin(); it != history.rend(); ++it)
    {
        const Pause& pause = m_pauses[*it];
        Time end = pause.ended ? pause.end : now;
        if (end <= from)
        {
            break;
        }
        Time a = std::max(from, pause.start);
        Time b = std::min(now, end);
        if (b <= a)
        {
            continue;
        }
        if (!flow.held.empty() && flow.held.back().pause == *it && a <= flow.held.back().to)
        {
            flow.held.back().to = std::max(flow.held.back().to, b);
            flow.held.back().from = std::min(flow.held.back().from, a);
        }
        else
        {
            flow.held.push_back(Held{*it, a, b});
        }
    }
}

void
PfcPauseTree::Finish()
{
    NS_LOG_FUNCTION(this);
    NS_ABORT_MSG_IF(m_finished, "PfcPauseTree: Finish called twice");
    m_finished = true;
    for (auto& p : m_pauses)
    {
        if (!p.ended)
        {
            p.end = Simulator::Now();
        }
    }
    NumberStorms();
    ComputeVictims();
    m_arrival.clear();
}

void
PfcPauseTree::NumberStorms()
{
    uint32_t n = m_pauses.size();
    std::vector<uint32_t> up(n);
    std::iota(up.begin(), up.end(), 0);
    // Pauses are in the order they began: a pause that begins before the latest end seen so
    // far (plus StormGap) overlaps the running group.
    Time latestEnd;
    for (uint32_t i = 0; i < n; ++i)
    {
        const Pause& p = m_pauses[i];
        if (i > 0 && p.start <= latestEnd + m_stormGap)
        {
            UnionSets(up, i - 1, i);
        }
        latestEnd = i == 0 ? p.end : std::max(latestEnd, p.end);
        if (p.parent >= 0)
        {
            UnionSets(up, static_cast<uint32_t>(p.parent), i);
        }
    }
    std::vector<uint32_t> stormOfRoot(n, 0);
    m_storms = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        uint32_t r = FindSet(up, i);
        if (stormOfRoot[r] == 0)
        {
            stormOfRoot[r] = ++m_storms;
        }
        m_pauses[i].storm = stormOfRoot[r];
    }
}

void
PfcPauseTree::ComputeVictims()
{
    m_victims.clear();
    for (auto& [tuple, flow] : m_flows)
    {
        std::map<uint32_t, std::vector<Held>> byStorm;
        for (const auto& h : flow.held)
        {
            byStorm[m_pauses[h.pause].storm].push_back(h);
        }
        for (auto& [storm, held] : byStorm)
        {
            std::sort(held.begin(), held.end(), [](const Held& a, const Held& b) {
                return a.from < b.from;
            });
            Time total;
            Time runFrom = held.front().from;
            Time runTo = held.front().to;
            bool traversedRoot = false;
            for (const auto& h : held)
            {
                if (h.from > runTo)
                {
                    total += runTo - runFrom;
                    runFrom = h.from;
                }
                runTo = std::max(runTo, h.to);
                uint32_t root = m_pauses[h.pause].rootPort;
                if (root == UINT32_MAX)
                {
                    continue;
                }
                // A host root (a host's receive buffer): the flows it receives left by the
                // switch port facing it.
                uint32_t egress = m_ports[root].sw ? root : m_ports[root].peer;
                traversedRoot =
                    traversedRoot ||
                    std::find(flow.egress.begin(), flow.egress.end(), egress) != flow.egress.end();
            }
            total += runTo - runFrom;
            m_victims.push_back(Victim{tuple, storm, total, !traversedRoot});
        }
    }
    std::stable_sort(m_victims.begin(), m_victims.end(), [](const Victim& a, const Victim& b) {
        return a.storm < b.storm;
    });
}

const std::vector<PfcPauseTree::Pause>&
PfcPauseTree::GetPauses() const
{
    return m_pauses;
}

const std::vector<PfcPauseTree::Victim>&
PfcPauseTree::GetVictims() const
{
    return m_victims;
}

uint32_t
PfcPauseTree::GetStormCount() const
{
    return m_storms;
}

const std::string&
PfcPauseTree::GetPortName(uint32_t port) const
{
    static const std::string unknown = "?";
    return port < m_ports.size() ? m_ports[port].name : unknown;
}

const std::string&
PfcPauseTree::GetDeviceName(Ptr<const RoceNetDevice> device) const
{
    for (uint32_t i = 0; i < m_ports.size(); ++i)
    {
        if (m_ports[i].device == device)
        {
            return m_ports[i].name;
        }
    }
    return GetPortName(UINT32_MAX);
}

bool
PfcPauseTree::WriteDot(const std::string& path, uint32_t storm) const
{
    std::ofstream dot(path);
    dot << "digraph pause_storm_" << storm << " {\n"
        << "  rankdir=LR;\n"
        << "  node [shape=box];\n";
    // One vertex per port: its pauses in this storm summed; roots drawn apart.
    std::map<uint32_t, std::pair<uint32_t, Time>> paused; // port -> (pauses, total time)
    std::map<uint32_t, uint32_t> depth;                   // port -> smallest depth
    std::set<uint32_t> roots;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> edges; // (parent, child) -> pauses
    for (const auto& p : m_pauses)
    {
        if (p.storm != storm)
        {
            continue;
        }
        auto& entry = paused[p.port];
        ++entry.first;
        entry.second += p.end - p.start;
        auto d = depth.find(p.port);
        depth[p.port] = d == depth.end() ? p.depth : std::min(d->second, p.depth);
        if (p.parent < 0)
        {
            roots.insert(p.parentPort);
        }
        ++edges[{p.parentPort, p.port}];
    }
    for (uint32_t r : roots)
    {
        if (paused.count(r) == 0)
        {
            dot << "  p" << r << " [label=\"" << GetPortName(r)
                << "\\nroot: not paused, congested\\ndepth 0\", style=filled, fillcolor=salmon];\n";
        }
    }
    for (const auto& [port, entry] : paused)
    {
        dot << "  p" << port << " [label=\"" << GetPortName(port) << "\\npaused "
            << entry.second.ToDouble(Time::US) << " us in " << entry.first << " pause(s)\\ndepth "
            << depth[port] << "\"];\n";
    }
    for (const auto& [edge, count] : edges)
    {
        dot << "  p" << edge.first << " -> p" << edge.second << " [label=\"" << count << "\"];\n";
    }
    dot << "}\n";
    return static_cast<bool>(dot);
}

std::string
PfcPauseTree::WriteFiles(const std::string& dir) const
{
    NS_ABORT_MSG_IF(!m_finished, "PfcPauseTree: WriteFiles before Finish");
    std::string treePath = dir + "/pause-tree.csv";
    std::ofstream tree(treePath);
    tree << "storm,parent,child,priority,start_ns,end_ns,paused_ns,depth,ended,sender,root,"
            "waited_on\n";
    for (const auto& p : m_pauses)
    {
        tree << p.storm << "," << GetPortName(p.parentPort) << "," << GetPortName(p.port) << ","
             << +p.priority << "," << Ns(p.start) << "," << Ns(p.end) << "," << Ns(p.end - p.start)
             << "," << p.depth << "," << (p.ended ? 1 : 0) << "," << GetPortName(p.sender) << ","
             << GetPortName(p.rootPort) << "," << p.waitedOn << "\n";
    }
    if (!tree)
    {
        return treePath;
    }
    for (uint32_t s = 1; s <= m_storms; ++s)
    {
        std::string path = dir + "/pause-storm-" + std::to_string(s) + ".dot";
        if (!WriteDot(path, s))
        {
            return path;
        }
    }
    std::string victimsPath = dir + "/pause-victims.csv";
    std::ofstream victims(victimsPath);
    victims << "storm,source,destination,source_port,destination_port,protocol,paused_ns,"
               "victim\n";
    for (const auto& v : m_victims)
    {
        victims << v.storm << "," << v.flow.source << "," << v.flow.destination << ","
                << v.flow.sourcePort << "," << v.flow.destinationPort << "," << +v.flow.protocol
                << "," << Ns(v.paused) << "," << (v.victim ? "yes" : "no") << "\n";
    }
    return victims ? "" : victimsPath;
}

} // namespace ns3
