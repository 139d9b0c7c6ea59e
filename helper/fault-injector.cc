/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-injector.h"

#include "equal-cost-routes.h"
#include "value-parser.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultInjector");

NS_OBJECT_ENSURE_REGISTERED(FaultInjector);

namespace
{

/// The longest fault time accepted, seconds (a day of simulated time).
constexpr double MAX_FAULT_SECONDS = 86400.0;

/**
 * Split a text at a character.
 * @param text the text.
 * @param c the separator.
 * @return the parts (one more than the separators).
 */
std::vector<std::string>
Split(const std::string& text, char c)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (true)
    {
        std::size_t end = text.find(c, start);
        parts.push_back(text.substr(start, end == std::string::npos ? end : end - start));
        if (end == std::string::npos)
        {
            return parts;
        }
        start = end + 1;
    }
}

/**
 * @param value a number.
 * @return it as a message shows it (0.25, 1e-05).
 */
std::string
Num(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

std::string
FaultEvent::GetKindName(Kind kind)
{
    switch (kind)
    {
    case LINK_DOWN:
        return "link_down";
    case LINK_UP:
        return "link_up";
    case LINK_DEGRADE:
        return "link_degrade";
    case LINK_BER:
        return "link_ber";
    case NIC_DOWN:
        return "nic_down";
    case NIC_UP:
        return "nic_up";
    }
    return "unknown";
}

std::string
FaultEvent::Describe() const
{
    std::ostringstream out;
    out << GetKindName(kind) << " " << from;
    if (!to.empty())
    {
        out << ":" << to;
    }
    if (index >= 0)
    {
        out << "/" << index;
    }
    if (kind == LINK_DEGRADE)
    {
        out << " x" << value;
    }
    else if (kind == LINK_BER)
    {
        out << " ber " << value;
    }
    out << " at " << at.As(Time::US);
    return out.str();
}

TypeId
FaultInjector::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FaultInjector")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<FaultInjector>()
            .AddAttribute("RouteConvergenceDelay",
                          "After a link changes state, the switches at its ends repair their "
                          "routes at once and every other switch after this delay (0: all at "
                          "once). Routing protocols of data-centre fabrics (BGP with BFD, RFC "
                          "7938) converge in tens to hundreds of milliseconds; the default 0 "
                          "models an ideal fabric. At most 1 s.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&FaultInjector::m_convergenceDelay),
                          MakeTimeChecker(Seconds(0), Seconds(1)))
            .AddTraceSource("Fault",
                            "A fault was applied: its description.",
                            MakeTraceSourceAccessor(&FaultInjector::m_faultTrace),
                            "ns3::FaultInjector::FaultTracedCallback");
    return tid;
}

FaultInjector::FaultInjector()
{
    NS_LOG_FUNCTION(this);
}

void
FaultInjector::DoDispose()
{
    m_fabric = RoceFabric();
    m_berModels.clear();
    Object::DoDispose();
}

void
FaultInjector::SetFabric(const RoceFabric& fabric)
{
    m_fabric = fabric;
    m_builtRates.clear();
    for (uint32_t i = 0; i < fabric.GetNLinks(); ++i)
    {
        m_builtRates.push_back(fabric.GetLink(i).devA->GetDataRate());
    }
}

std::string
FaultInjector::Check(const FaultEvent& f) const
{
    if (f.at < Time(0))
    {
        // In nanoseconds first: Time::GetSeconds on a negative time shifts a negative value
        // (undefined before C++20 in ns-3.37's int64x64, UBSan).
        return "at: " + Num(static_cast<double>(f.at.GetNanoSeconds()) / 1e9) + " s is negative";
    }
    uint32_t a = 0;
    uint32_t b = 0;
    bool nic = f.kind == FaultEvent::NIC_DOWN || f.kind == FaultEvent::NIC_UP;
    std::string key = nic ? "host" : "link";
    if (!m_fabric.FindNode(f.from, a))
    {
        return key + ": no node named '" + f.from + "'";
    }
    if (nic)
    {
        if (a >= m_fabric.GetNHosts())
        {
            return key + ": '" + f.from + "' is a switch, not a host";
        }
        return "";
    }
    if (!m_fabric.FindNode(f.to, b))
    {
        return key + ": no node named '" + f.to + "'";
    }
    std::vector<uint32_t> links = m_fabric.FindLinks(a, b);
    if (links.empty())
    {
        return key + ": no link between " + f.from + " and " + f.to;
    }
    if (f.index >= static_cast<int32_t>(links.size()))
    {
        return key + ": " + f.from + ":" + f.to + " has " + std::to_string(links.size()) +
               " link(s), no /" + std::to_string(f.index);
    }
    if (f.kind == FaultEvent::LINK_DEGRADE && !(f.value > 0.0 && f.value <= 1.0))
    {
        return "fraction: " + Num(f.value) + " is not in (0, 1]";
    }
    if (f.kind == FaultEvent::LINK_BER && !(f.value >= 0.0 && f.value <= 1.0))
    {
        return "ber: " + Num(f.value) + " is not in [0, 1]";
    }
    return "";
}

std::vector<uint32_t>
FaultInjector::SelectLinks(const FaultEvent& f) const
{
    uint32_t a = 0;
    uint32_t b = 0;
    m_fabric.FindNode(f.from, a);
    if (f.kind == FaultEvent::NIC_DOWN || f.kind == FaultEvent::NIC_UP)
    {
        std::vector<uint32_t> links;
        for (uint32_t i = 0; i < m_fabric.GetNLinks(); ++i)
        {
            if (m_fabric.GetLink(i).a == a || m_fabric.GetLink(i).b == a)
            {
                links.push_back(i);
            }
        }
        return links;
    }
    m_fabric.FindNode(f.to, b);
    std::vector<uint32_t> links = m_fabric.FindLinks(a, b);
    if (f.index >= 0)
    {
        return {links[f.index]};
    }
    return links;
}

std::string
FaultInjector::Add(const FaultEvent& fault)
{
    std::string problem = Check(fault);
    if (!problem.empty())
    {
        return problem;
    }
    NS_ABORT_MSG_IF(fault.at < Simulator::Now(),
                    "FaultInjector: " << fault.Describe() << " is in the past");
    uint32_t i = static_cast<uint32_t>(m_faults.size());
    m_faults.push_back(fault);
    m_berOfFault.emplace_back();
    if (fault.kind == FaultEvent::LINK_BER && fault.value > 0.0)
    {
        for (uint32_t link : SelectLinks(fault))
        {
            (void)link;
            for (int end = 0; end < 2; ++end)
            {
                Ptr<FrameBitErrorModel> model = CreateObject<FrameBitErrorModel>();
                model->SetAttribute("BitErrorRate", DoubleValue(fault.value));
                if (m_streamBase >= 0)
                {
                    model->AssignStreams(m_streamBase + static_cast<int64_t>(m_berModels.size()));
                }
                m_berOfFault[i].push_back(static_cast<uint32_t>(m_berModels.size()));
                m_berModels.push_back(model);
            }
        }
    }
    Simulator::Schedule(fault.at - Simulator::Now(), &FaultInjector::Apply, this, i);
    return "";
}

int64_t
FaultInjector::AssignStreams(int64_t stream)
{
    m_streamBase = stream;
    for (std::size_t k = 0; k < m_berModels.size(); ++k)
    {
        m_berModels[k]->AssignStreams(stream + static_cast<int64_t>(k));
    }
    return static_cast<int64_t>(m_berModels.size());
}

const std::vector<FaultEvent>&
FaultInjector::GetFaults() const
{
    return m_faults;
}

uint64_t
FaultInjector::GetBitErrorLosses() const
{
    uint64_t lost = 0;
    for (const auto& model : m_berModels)
    {
        lost += model->GetFramesLost();
    }
    return lost;
}

uint64_t
FaultInjector::GetLinkDownLosses() const
{
    uint64_t lost = 0;
    for (uint32_t i = 0; i < m_fabric.GetNLinks(); ++i)
    {
        lost += m_fabric.GetLink(i).devA->GetLinkDownDrops() +
                m_fabric.GetLink(i).devB->GetLinkDownDrops();
    }
    return lost;
}

uint64_t
FaultInjector::GetRouteUpdates() const
{
    return m_routeUpdates;
}

void
FaultInjector::Apply(uint32_t i)
{
    const FaultEvent& f = m_faults[i];
    NS_LOG_INFO(Simulator::Now().As(Time::US) << " " << f.Describe());
    std::vector<uint32_t> links = SelectLinks(f);
    std::vector<uint32_t> ends;
    bool topologyChanged = false;
    for (std::size_t k = 0; k < links.size(); ++k)
    {
        const RoceFabric::Link& link = m_fabric.GetLink(links[k]);
        switch (f.kind)
        {
        case FaultEvent::LINK_DOWN:
        case FaultEvent::LINK_UP:
        case FaultEvent::NIC_DOWN:
        case FaultEvent::NIC_UP: {
            bool up = f.kind == FaultEvent::LINK_UP || f.kind == FaultEvent::NIC_UP;
            topologyChanged =
                topologyChanged || link.devA->IsLinkUp() != up || link.devB->IsLinkUp() != up;
            link.devA->SetLinkUp(up);
            link.devB->SetLinkUp(up);
            ends.push_back(link.a);
            ends.push_back(link.b);
            break;
        }
        case FaultEvent::LINK_DEGRADE: {
            auto bps = static_cast<uint64_t>(
                std::llround(static_cast<double>(m_builtRates[links[k]].GetBitRate()) * f.value));
            link.devA->SetDataRate(DataRate(std::max<uint64_t>(bps, 1)));
            link.devB->SetDataRate(DataRate(std::max<uint64_t>(bps, 1)));
            break;
        }
        case FaultEvent::LINK_BER: {
            Ptr<ErrorModel> a;
            Ptr<ErrorModel> b;
            if (f.value > 0.0)
            {
                a = m_berModels[m_berOfFault[i][2 * k]];
                b = m_berModels[m_berOfFault[i][2 * k + 1]];
            }
            link.devA->SetAttribute("ReceiveErrorModel", PointerValue(a));
            link.devB->SetAttribute("ReceiveErrorModel", PointerValue(b));
            break;
        }
        }
    }
    m_faultTrace(f.Describe());
    if (!topologyChanged)
    {
        return;
    }
    if (m_convergenceDelay.IsZero())
    {
        UpdateRoutes({});
        return;
    }
    UpdateRoutes(ends);
    Simulator::Schedule(m_convergenceDelay,
                        &FaultInjector::UpdateRoutes,
                        this,
                        std::vector<uint32_t>());
}

void
FaultInjector::UpdateRoutes(const std::vector<uint32_t>& nodes)
{
    uint32_t hosts = m_fabric.GetNHosts();
    uint32_t total = hosts + m_fabric.GetNSwitches();
    EqualCostRoutes routes;
    for (uint32_t n = 0; n < total; ++n)
    {
        routes.AddNode();
        routes.SetTransit(n, n >= hosts);
    }
    for (uint32_t i = 0; i < m_fabric.GetNLinks(); ++i)
    {
        const RoceFabric::Link& l = m_fabric.GetLink(i);
        if (l.devA->IsLinkUp() && l.devB->IsLinkUp())
        {
            routes.AddLink(l.a, l.portA, l.b, l.portB);
        }
    }
    std::vector<uint32_t> destinations;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        destinations.push_back(h);
    }
    routes.Compute(destinations);
    for (uint32_t s = 0; s < m_fabric.GetNSwitches(); ++s)
    {
        uint32_t node = hosts + s;
        if (!nodes.empty() && std::find(nodes.begin(), nodes.end(), node) == nodes.end())
        {
            continue;
        }
        Ptr<RoceSwitch> sw = m_fabric.GetSwitch(s);
        for (uint32_t h = 0; h < hosts; ++h)
        {
            std::vector<uint32_t> ports = routes.GetNextHopPorts(node, h);
            if (ports.empty())
            {
                sw->RemoveRoute(m_fabric.GetHostAddress(h));
            }
            else
            {
                sw->AddRoute(m_fabric.GetHostAddress(h), ports);
            }
        }
        ++m_routeUpdates;
    }
}

std::string
FaultInjector::ParseLinkName(const std::string& text,
                             std::string& from,
                             std::string& to,
                             int32_t& index)
{
    std::string name = text;
    index = -1;
    std::size_t slash = name.find('/');
    if (slash != std::string::npos)
    {
        uint64_t k = 0;
        bool overflow = false;
        if (!ValueParser::ParseDecimal(name.substr(slash + 1), k, overflow) || overflow ||
            k > 1000000)
        {
            return "'" + text + "': the part after '/' is not a link number";
        }
        index = static_cast<int32_t>(k);
        name = name.substr(0, slash);
    }
    std::vector<std::string> ends = Split(name, ':');
    if (ends.size() != 2 || ends[0].empty() || ends[1].empty())
    {
        return "'" + text + "' is not a link: write its two ends as A:B (e.g. leaf0:spine1)";
    }
    if (ends[0] == ends[1])
    {
        return "'" + text + "' joins a node to itself";
    }
    from = ends[0];
    to = ends[1];
    return "";
}

std::string
FaultInjector::ParseTime(const std::string& text, Time& at)
{
    double seconds = 0.0;
    Time delay;
    if (!ValueParser::ParseDelay(text, seconds, delay))
    {
        return "'" + text + "' is not a time such as 1ms or 250us";
    }
    if (seconds < 0.0)
    {
        return "'" + text + "' is negative";
    }
    if (seconds > MAX_FAULT_SECONDS)
    {
        return "'" + text + "' is above a day";
    }
    at = seconds <= ValueParser::MAX_DELAY_SECONDS ? delay : Seconds(seconds);
    return "";
}

std::string
FaultInjector::ParseList(FaultEvent::Kind kind,
                         const std::string& text,
                         std::vector<FaultEvent>& faults)
{
    bool nic = kind == FaultEvent::NIC_DOWN || kind == FaultEvent::NIC_UP;
    bool valued = kind == FaultEvent::LINK_DEGRADE || kind == FaultEvent::LINK_BER;
    std::vector<FaultEvent> parsed;
    for (const std::string& item : Split(text, ','))
    {
        FaultEvent f;
        f.kind = kind;
        std::string rest = item;
        if (valued)
        {
            std::size_t eq = rest.rfind('=');
            if (eq == std::string::npos || !ValueParser::ParseNumber(rest.substr(eq + 1), f.value))
            {
                return "'" + item + "': expected " +
                       (kind == FaultEvent::LINK_BER ? "A:B=BER or A:B@TIME=BER"
                                                     : "A:B@TIME=FRACTION");
            }
            rest = rest.substr(0, eq);
        }
        std::size_t atSign = rest.find('@');
        if (atSign == std::string::npos && kind != FaultEvent::LINK_BER)
        {
            return "'" + item + "': expected " + (nic ? "HOST@TIME" : "A:B@TIME") +
                   (valued ? "=FRACTION" : "");
        }
        if (atSign != std::string::npos)
        {
            std::string problem = ParseTime(rest.substr(atSign + 1), f.at);
            if (!problem.empty())
            {
                return "'" + item + "': time " + problem;
            }
            rest = rest.substr(0, atSign);
        }
        if (nic)
        {
            if (rest.empty() || rest.find(':') != std::string::npos)
            {
                return "'" + item + "': expected HOST@TIME (e.g. host3@1ms)";
            }
            f.from = rest;
        }
        else
        {
            std::string problem = ParseLinkName(rest, f.from, f.to, f.index);
            if (!problem.empty())
            {
                return problem;
            }
        }
        parsed.push_back(f);
    }
    faults.insert(faults.end(), parsed.begin(), parsed.end());
    return "";
}

} // namespace ns3
