/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecmp-load-balancer.h"

#include "ecmp-hash.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcmpLoadBalancer");

NS_OBJECT_ENSURE_REGISTERED(EcmpLoadBalancer);

/// The short name of EcmpLoadBalancer.
static TypeIdAlias g_ecmpLoadBalancerAlias("ecmp", "ns3::EcmpLoadBalancer");

TypeId
EcmpLoadBalancer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcmpLoadBalancer")
            .SetParent<LoadBalancer>()
            .SetGroupName("LlmFabric")
            .AddConstructor<EcmpLoadBalancer>()
            .AddAttribute("Seed",
                          "Seed of the 5-tuple hash; give each switch its own to avoid "
                          "polarization (RoceTopologyHelper does).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&EcmpLoadBalancer::m_seed),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

EcmpLoadBalancer::EcmpLoadBalancer()
    : m_seed(0)
{
    NS_LOG_FUNCTION(this);
}

uint32_t
EcmpLoadBalancer::SelectPort(const RoceSwitch& sw, const PortChoice& choice)
{
    return choice.ports[EcmpHash::Select(EcmpHash::Hash(choice.tuple, m_seed),
                                         static_cast<uint32_t>(choice.ports.size()))];
}

uint32_t
EcmpLoadBalancer::SelectPortRaw(const RoceSwitch& sw,
                                const std::vector<uint32_t>& ports,
                                const EcmpHash::RawTuple& raw,
                                uint8_t priority,
                                const Ptr<Packet>& frame)
{
    return ports[EcmpHash::Select(EcmpHash::Hash(raw, m_seed),
                                  static_cast<uint32_t>(ports.size()))];
}

bool
EcmpLoadBalancer::AcceptsDeferredTtl() const
{
    return true;
}

} // namespace ns3
