/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

namespace ns3
{

RdmaHelper::RdmaHelper()
{
    m_endpointFactory.SetTypeId("ns3::RdmaEndpoint");
}

void
RdmaHelper::SetEndpointAttribute(const std::string& name, const AttributeValue& value)
{
    m_endpointFactory.Set(name, value);
}

std::string
RdmaHelper::LookupCongestionControl(const std::string& name, TypeId& tid)
{
    const std::string typeName = name == "none"    ? "ns3::RdmaCcNone"
                                 : name == "fixed" ? "ns3::RdmaCcFixedRate"
                                 : name == "dcqcn" ? "ns3::Dcqcn"
                                                   : "";
    if (typeName.empty())
    {
        return "unknown congestion control '" + name + "' (none, fixed or dcqcn)";
    }
    tid = TypeId::LookupByName(typeName);
    return "";
}

std::vector<Ptr<RdmaEndpoint>>
RdmaHelper::Install(const RoceFabric& fabric) const
{
    std::vector<Ptr<RdmaEndpoint>> endpoints;
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        Ptr<RdmaEndpoint> endpoint = m_endpointFactory.Create<RdmaEndpoint>();
        fabric.GetHost(h)->AggregateObject(endpoint);
        endpoint->Setup(fabric.GetHostDevice(h), fabric.GetHostAddress(h));
        endpoints.push_back(endpoint);
    }
    return endpoints;
}

} // namespace ns3
