/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-source-helper.h"

#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceSourceHelper");

RoceSourceHelper::RoceSourceHelper()
{
    m_factory.SetTypeId(RoceConstantRateSource::GetTypeId());
}

void
RoceSourceHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

Ptr<RoceConstantRateSource>
RoceSourceHelper::Install(const RoceFabric& fabric,
                          uint32_t from,
                          uint32_t to,
                          uint16_t udpSourcePort) const
{
    NS_LOG_FUNCTION(this << from << to << udpSourcePort);
    Ptr<RoceConstantRateSource> source = m_factory.Create<RoceConstantRateSource>();
    source->SetAttribute("Local", Ipv4AddressValue(fabric.GetHostAddress(from)));
    source->SetAttribute("Remote", Ipv4AddressValue(fabric.GetHostAddress(to)));
    source->SetAttribute("RemoteMac", Mac48AddressValue(fabric.GetHostMac(to)));
    source->SetAttribute("UdpSourcePort", UintegerValue(udpSourcePort));
    fabric.GetHost(from)->AddApplication(source);
    return source;
}

} // namespace ns3
