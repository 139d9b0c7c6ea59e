/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-topology-helper.h"

#include "equal-cost-routes.h"
#include "value-parser.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/uinteger.h"

#include <limits>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceTopologyHelper");

RoceTopologyHelper::RoceTopologyHelper()
    : m_seedBase(0),
      m_setLoadBalancer(false)
{
    m_switchFactory.SetTypeId("ns3::RoceSwitch");
}

void
RoceTopologyHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_linkHelper.SetDeviceAttribute(name, value);
}

void
RoceTopologyHelper::SetSwitchAttribute(const std::string& name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
RoceTopologyHelper::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuAttributes.emplace_back(name, value.Copy());
}

std::string
RoceTopologyHelper::SetMmuBufferAndEcn(const std::string& buffer,
                                       const std::string& kmin,
                                       const std::string& kmax,
                                       double pmax,
                                       bool lossless)
{
    for (const auto& [attribute, value] : {std::make_pair("Buffer", buffer),
                                           std::make_pair("Kmin", kmin),
                                           std::make_pair("Kmax", kmax)})
    {
        // ns3::QueueSize holds 32 bits and its parser wraps larger values: read it strictly.
        uint64_t bytes = 0;
        std::string problem =
            ValueParser::ParseSize(value, std::numeric_limits<uint32_t>::max(), bytes);
        if (!problem.empty())
        {
            return std::string(attribute) + ": '" + value + "': " + problem +
                   (problem.rfind("above", 0) == 0 ? " (the largest ns3::QueueSize)" : "");
        }
        SetMmuAttribute(
            attribute,
            QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, static_cast<uint32_t>(bytes))));
    }
    if (!(pmax >= 0.0 && pmax <= 1.0))
    {
        return "Pmax: " + std::to_string(pmax) + ": must be between 0 and 1";
    }
    SetMmuAttribute("Pmax", DoubleValue(pmax));
    SetMmuAttribute("LosslessPriorities", UintegerValue(lossless ? 0x08 : 0));
    return "";
}

void
RoceTopologyHelper::SetEcmpSeedBase(uint32_t seedBase)
{
    m_seedBase = seedBase;
}

void
RoceTopologyHelper::ConfigureSwitch(Ptr<RoceSwitch> sw, uint32_t index) const
{
    if (m_setLoadBalancer)
    {
        sw->SetAttribute("LoadBalancer",
                         PointerValue(m_loadBalancerFactory.Create<LoadBalancer>()));
    }
    // A distinct, well-spread seed per switch (golden-ratio increments).
    Ptr<LoadBalancer> balancer = sw->GetLoadBalancer();
    TypeId::AttributeInformation info;
    if (balancer->GetInstanceTypeId().LookupAttributeByName("Seed", &info))
    {
        balancer->SetAttribute("Seed", UintegerValue(m_seedBase + 0x9E3779B9U * (index + 1)));
    }
    for (const ObjectFactory& factory : m_stageFactories)
    {
        sw->AddEgressStage(factory.Create<EgressStage>());
    }
}

RoceLinkHelper&
RoceTopologyHelper::GetLinkHelper()
{
    return m_linkHelper;
}

RoceFabric
RoceTopologyHelper::BuildStar(uint32_t hosts, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(hosts < 2, "RoceTopologyHelper: a star needs at least 2 hosts, not " << hosts);
    std::vector<PendingLink> links;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        links.push_back({h, hosts, rate, delay});
    }
    return Build(hosts, {"switch0"}, links);
}

RoceTopologyHelper::LeafSpineConfig
RoceTopologyHelper::MakeLeafSpine(uint32_t hostsPerLeaf,
                                  uint32_t leaves,
                                  uint32_t spines,
                                  DataRate hostRate,
                                  DataRate fabricRate,
                                  Time delay)
{
    // The fields in their order of declaration.
    return LeafSpineConfig{hostsPerLeaf, leaves, spines, hostRate, delay, fabricRate, delay};
}

std::string
RoceTopologyHelper::CheckLeafSpine(const LeafSpineConfig& c)
{
    std::ostringstream problem;
    if (c.hostsPerLeaf == 0)
    {
        problem << "hostsPerLeaf (0) must be at least 1";
    }
    else if (c.leaves < 2)
    {
        problem << "leaves (" << c.leaves << ") must be at least 2";
    }
    else if (c.spines == 0)
    {
        problem << "spines (0) must be at least 1";
    }
    else if (c.hostRate.GetBitRate() == 0)
    {
        problem << "hostRate (0) must be positive";
    }
    else if (c.fabricRate.GetBitRate() == 0)
    {
        problem << "fabricRate (0) must be positive";
    }
    return problem.str();
}

double
RoceTopologyHelper::GetOversubscription(const LeafSpineConfig& c)
{
    return static_cast<double>(c.hostsPerLeaf) * static_cast<double>(c.hostRate.GetBitRate()) /
           (static_cast<double>(c.spines) * static_cast<double>(c.fabricRate.GetBitRate()));
}

RoceFabric
RoceTopologyHelper::BuildLeafSpine(const LeafSpineConfig& c)
{
    std::string problem = CheckLeafSpine(c);
    NS_ABORT_MSG_IF(!problem.empty(), "RoceTopologyHelper: leaf-spine: " << problem);
    uint32_t hosts = c.hostsPerLeaf * c.leaves;
    std::vector<std::string> names;
    for (uint32_t l = 0; l < c.leaves; ++l)
    {
        names.push_back("leaf" + std::to_string(l));
    }
    for (uint32_t s = 0; s < c.spines; ++s)
    {
        names.push_back("spine" + std::to_string(s));
    }
    std::vector<PendingLink> links;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        links.push_back({h, hosts + h / c.hostsPerLeaf, c.hostRate, c.hostDelay});
    }
    for (uint32_t l = 0; l < c.leaves; ++l)
    {
        for (uint32_t s = 0; s < c.spines; ++s)
        {
            links.push_back({hosts + l, hosts + c.leaves + s, c.fabricRate, c.fabricDelay});
        }
    }
    return Build(hosts, names, links);
}

RoceFabric
RoceTopologyHelper::Build(uint32_t hosts,
                          const std::vector<std::string>& switchNames,
                          const std::vector<PendingLink>& links)
{
    RoceFabric fabric;
    EqualCostRoutes routes;
    std::vector<Ptr<Node>> nodes;
    std::vector<Ptr<RoceSwitch>> switches(hosts + switchNames.size());
    for (uint32_t i = 0; i < hosts + switchNames.size(); ++i)
    {
        nodes.push_back(CreateObject<Node>());
        routes.AddNode();
        if (i < hosts)
        {
            routes.SetTransit(i, false);
        }
        else
        {
            uint32_t index = i - hosts;
            Ptr<RoceSwitch> sw = m_switchFactory.Create<RoceSwitch>();
            for (const auto& [name, value] : m_mmuAttributes)
            {
                sw->GetMmu()->SetAttribute(name, *value);
            }
            ConfigureSwitch(sw, index);
            nodes[i]->AggregateObject(sw);
            switches[i] = sw;
        }
    }
    std::vector<Ptr<RoceNetDevice>> hostDevices(hosts);
    std::vector<RoceFabric::Link> linkRecords;
    for (const auto& link : links)
    {
        NS_ABORT_MSG_IF(link.a >= nodes.size() || link.b >= nodes.size() || link.a == link.b,
                        "RoceTopologyHelper: bad link " << link.a << " - " << link.b << " ("
                                                        << nodes.size() << " nodes)");
        NetDeviceContainer d =
            m_linkHelper.Install(nodes[link.a], nodes[link.b], link.rate, link.delay);
        uint32_t ports[2] = {0, 0};
        uint32_t ends[2] = {link.a, link.b};
        for (uint32_t e = 0; e < 2; ++e)
        {
            Ptr<RoceNetDevice> device = DynamicCast<RoceNetDevice>(d.Get(e));
            if (ends[e] < hosts)
            {
                NS_ABORT_MSG_IF(hostDevices[ends[e]],
                                "RoceTopologyHelper: host " << ends[e] << " has two links");
                hostDevices[ends[e]] = device;
            }
            else
            {
                ports[e] = switches[ends[e]]->AddPort(device);
            }
        }
        routes.AddLink(link.a, ports[0], link.b, ports[1]);
        linkRecords.push_back({link.a,
                               ports[0],
                               DynamicCast<RoceNetDevice>(d.Get(0)),
                               link.b,
                               ports[1],
                               DynamicCast<RoceNetDevice>(d.Get(1))});
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        NS_ABORT_MSG_IF(!hostDevices[h], "RoceTopologyHelper: host " << h << " has no link");
        fabric.AddHost(nodes[h], hostDevices[h], Ipv4Address(0x0A000001U + h));
    }
    std::vector<uint32_t> destinations;
    for (uint32_t h = 0; h < hosts; ++h)
    {
        destinations.push_back(h);
    }
    routes.Compute(destinations);
    for (uint32_t i = hosts; i < nodes.size(); ++i)
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            std::vector<uint32_t> ports = routes.GetNextHopPorts(i, h);
            if (!ports.empty())
            {
                switches[i]->AddRoute(fabric.GetHostAddress(h), ports);
            }
        }
        fabric.AddSwitch(nodes[i], switches[i], switchNames[i - hosts]);
    }
    for (const RoceFabric::Link& record : linkRecords)
    {
        fabric.AddLink(record);
    }
    return fabric;
}

} // namespace ns3
