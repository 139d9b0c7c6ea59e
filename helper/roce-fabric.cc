/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-fabric.h"

#include "ns3/abort.h"
#include "ns3/roce-channel.h"

namespace ns3
{

uint32_t
RoceFabric::AddHost(Ptr<Node> node, Ptr<RoceNetDevice> device, Ipv4Address address)
{
    m_hosts.push_back(node);
    m_hostDevices.push_back(device);
    m_hostAddresses.push_back(address);
    return static_cast<uint32_t>(m_hosts.size() - 1);
}

uint32_t
RoceFabric::AddSwitch(Ptr<Node> node, Ptr<RoceSwitch> sw, const std::string& name)
{
    m_switchNodes.push_back(node);
    m_switches.push_back(sw);
    m_switchNames.push_back(name);
    return static_cast<uint32_t>(m_switches.size() - 1);
}

uint32_t
RoceFabric::AddLink(const Link& link)
{
    m_links.push_back(link);
    return static_cast<uint32_t>(m_links.size() - 1);
}

uint32_t
RoceFabric::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

const RoceFabric::Link&
RoceFabric::GetLink(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_links.size(), "RoceFabric: no link " << i);
    return m_links[i];
}

std::string
RoceFabric::GetNodeName(uint32_t node) const
{
    if (node < m_hosts.size())
    {
        return "host" + std::to_string(node);
    }
    NS_ABORT_MSG_IF(node - m_hosts.size() >= m_switches.size(), "RoceFabric: no node " << node);
    return m_switchNames[node - m_hosts.size()];
}

bool
RoceFabric::FindNode(const std::string& name, uint32_t& node) const
{
    for (uint32_t s = 0; s < m_switchNames.size(); ++s)
    {
        if (m_switchNames[s] == name)
        {
            node = static_cast<uint32_t>(m_hosts.size()) + s;
            return true;
        }
    }
    const std::string prefix = "host";
    if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
        name.find_first_not_of("0123456789", prefix.size()) == std::string::npos &&
        name.size() - prefix.size() <= 9 && (name[prefix.size()] != '0' || name.size() == 5))
    {
        uint32_t h = static_cast<uint32_t>(std::stoul(name.substr(prefix.size())));
        if (h < m_hosts.size())
        {
            node = h;
            return true;
        }
    }
    return false;
}

std::vector<uint32_t>
RoceFabric::FindLinks(uint32_t x, uint32_t y) const
{
    std::vector<uint32_t> found;
    for (uint32_t i = 0; i < m_links.size(); ++i)
    {
        const Link& l = m_links[i];
        if ((l.a == x && l.b == y) || (l.a == y && l.b == x))
        {
            found.push_back(i);
        }
    }
    return found;
}

uint32_t
RoceFabric::GetNHosts() const
{
    return static_cast<uint32_t>(m_hosts.size());
}

Ptr<Node>
RoceFabric::GetHost(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hosts.size(), "RoceFabric: no host " << i);
    return m_hosts[i];
}

Ptr<RoceNetDevice>
RoceFabric::GetHostDevice(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hosts.size(), "RoceFabric: no host " << i);
    return m_hostDevices[i];
}

Ipv4Address
RoceFabric::GetHostAddress(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_hosts.size(), "RoceFabric: no host " << i);
    return m_hostAddresses[i];
}

Mac48Address
RoceFabric::GetHostMac(uint32_t i) const
{
    return Mac48Address::ConvertFrom(GetHostDevice(i)->GetAddress());
}

NodeContainer
RoceFabric::GetHosts() const
{
    NodeContainer c;
    for (const auto& h : m_hosts)
    {
        c.Add(h);
    }
    return c;
}

uint32_t
RoceFabric::GetNSwitches() const
{
    return static_cast<uint32_t>(m_switches.size());
}

Ptr<RoceSwitch>
RoceFabric::GetSwitch(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_switches.size(), "RoceFabric: no switch " << i);
    return m_switches[i];
}

Ptr<Node>
RoceFabric::GetSwitchNode(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_switches.size(), "RoceFabric: no switch " << i);
    return m_switchNodes[i];
}

const std::string&
RoceFabric::GetSwitchName(uint32_t i) const
{
    NS_ABORT_MSG_IF(i >= m_switches.size(), "RoceFabric: no switch " << i);
    return m_switchNames[i];
}

NetDeviceContainer
RoceFabric::GetAllDevices() const
{
    NetDeviceContainer c;
    for (const auto& d : m_hostDevices)
    {
        c.Add(d);
    }
    for (const auto& s : m_switches)
    {
        for (uint32_t p = 0; p < s->GetNPorts(); ++p)
        {
            c.Add(s->GetPort(p));
        }
    }
    return c;
}

int64_t
RoceFabric::AssignStreams(int64_t stream) const
{
    int64_t used = 0;
    for (const auto& s : m_switches)
    {
        used += s->AssignStreams(stream + used);
    }
    return used;
}

std::string
RoceFabric::CheckSwitches() const
{
    for (uint32_t s = 0; s < GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = GetSwitch(s);
        std::vector<DataRate> rates;
        std::vector<Time> delays;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            rates.push_back(sw->GetPort(p)->GetDataRate());
            Ptr<RoceChannel> channel = DynamicCast<RoceChannel>(sw->GetPort(p)->GetChannel());
            delays.push_back(channel ? channel->GetDelay() : Time(0));
        }
        sw->GetMmu()->ConfigurePorts(rates, delays);
        std::string problem = sw->GetMmu()->CheckConfig();
        if (!problem.empty())
        {
            return GetSwitchName(s) + ": " + problem;
        }
    }
    return "";
}

} // namespace ns3
