/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-cc-none.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCcNone");

NS_OBJECT_ENSURE_REGISTERED(RdmaCcNone);

/// The short name of --cc and network.congestion_control.
static TypeIdAlias g_rdmaCcNoneAlias("none", "ns3::RdmaCcNone");

TypeId
RdmaCcNone::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCcNone")
                            .SetParent<RdmaCongestionOps>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RdmaCcNone>();
    return tid;
}

RdmaCcNone::RdmaCcNone()
{
    NS_LOG_FUNCTION(this);
}

RdmaCcNone::~RdmaCcNone()
{
    NS_LOG_FUNCTION(this);
}

std::string
RdmaCcNone::GetName() const
{
    return "None";
}

} // namespace ns3
