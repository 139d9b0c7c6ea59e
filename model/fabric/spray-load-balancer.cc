/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "spray-load-balancer.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SprayLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(SprayLoadBalancer);

/// The short name of SprayLoadBalancer.
static TypeIdAlias g_sprayLoadBalancerAlias("spray", "ns3::SprayLoadBalancer");

TypeId
SprayLoadBalancer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SprayLoadBalancer")
                            .SetParent<LoadBalancer>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<SprayLoadBalancer>();
    return tid;
}

SprayLoadBalancer::SprayLoadBalancer()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

void
SprayLoadBalancer::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_uniform = nullptr;
    LoadBalancer::DoDispose();
}

uint32_t
SprayLoadBalancer::SelectPort(const RoceSwitch& sw, const PortChoice& choice)
{
    return choice.ports[m_uniform->GetInteger(0, static_cast<uint32_t>(choice.ports.size()) - 1)];
}

bool
SprayLoadBalancer::AcceptsDeferredTtl() const
{
    return true;
}

int64_t
SprayLoadBalancer::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

} // namespace ns3
