/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "egress-stage.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EgressStage");

NS_OBJECT_ENSURE_REGISTERED(EgressStage);

TypeId
EgressStage::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EgressStage").SetParent<Object>().SetGroupName("LlmFabric");
    return tid;
}

EgressStage::EgressStage()
{
    NS_LOG_FUNCTION(this);
}

EgressStage::~EgressStage()
{
    NS_LOG_FUNCTION(this);
}

bool
EgressStage::HasEnqueueHook() const
{
    return false;
}

bool
EgressStage::AcceptsDeferredTtl() const
{
    return false;
}

bool
EgressStage::EnqueueDecide(RoceSwitch& sw, Ptr<const Packet> frame, const QueueState& found)
{
    return false;
}

void
EgressStage::EnqueueApply(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& found)
{
}

} // namespace ns3
