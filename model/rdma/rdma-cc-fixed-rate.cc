/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cc-fixed-rate.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcFixedRate");

NS_OBJECT_ENSURE_REGISTERED(RdmaCcFixedRate);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_rdmaCcFixedRateAlias("fixed", "ns3::RdmaCcFixedRate");

TypeId
RdmaCcFixedRate::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCcFixedRate")
            .SetParent<RdmaCongestionOps>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RdmaCcFixedRate>()
            .AddAttribute("Rate",
                          "The constant sending rate; a rate above the line rate is capped at "
                          "the line rate.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&RdmaCcFixedRate::m_fixedRate),
                          MakeDataRateChecker());
    return tid;
}

RdmaCcFixedRate::RdmaCcFixedRate()
    : m_fixedRate("10Gbps")
{
    NS_LOG_FUNCTION(this);
}

RdmaCcFixedRate::~RdmaCcFixedRate()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaCcFixedRate::GetName() const
{
    return "FixedRate";
}

void
RdmaCcFixedRate::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    RdmaCongestionOps::Start(lineRate);
    SetRate(std::min(m_fixedRate, lineRate));
}

} // namespace ns3
