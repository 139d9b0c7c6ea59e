/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "load-balancer.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(LoadBalancer);

TypeId
LoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LoadBalancer").SetParent<Object>().SetGroupName("LlmFabric");
    return tid;
}

LoadBalancer::LoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

LoadBalancer::~LoadBalancer()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
LoadBalancer::SelectPortRaw(const RoceSwitch& sw,
                            const std::vector<uint32_t>& ports,
                            const EcmpHash::RawTuple& raw,
                            uint8_t priority,
                            const Ptr<Packet>& frame)
{
    FlowFiveTuple tuple = EcmpHash::ToFlowFiveTuple(raw);
    return SelectPort(sw, {ports, tuple, priority, frame});
}

bool
LoadBalancer::AcceptsDeferredTtl() const
{
    return false;
}

int64_t
LoadBalancer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    return 0;
}

} // namespace ns3
