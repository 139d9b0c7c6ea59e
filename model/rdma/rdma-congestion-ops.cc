/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-ops.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCongestionOps")
                            .SetParent<Object>()
                            .SetGroupName("LlmFabric")
                            .AddTraceSource("Rate",
                                            "Current sending rate of the queue pair, bit/s.",
                                            MakeTraceSourceAccessor(&RdmaCongestionOps::m_rate),
                                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaCongestionOps::RdmaCongestionOps()
    : m_rate(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaCongestionOps::~RdmaCongestionOps()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaCongestionOps::Start(DataRate lineRate)
{
    NS_LOG_FUNCTION(this << lineRate);
    m_lineRate = lineRate;
    SetRate(lineRate);
}

void
RdmaCongestionOps::Stop()
{
}

void
RdmaCongestionOps::OnSend(uint32_t bytes)
{
}

void
RdmaCongestionOps::OnCnp()
{
}

void
RdmaCongestionOps::OnAck(const RdmaAckInfo& info)
{
}

void
RdmaCongestionOps::OnTimeout()
{
}

DataRate
RdmaCongestionOps::GetRate() const
{
    return DataRate(m_rate.Get());
}

DataRate
RdmaCongestionOps::GetLineRate() const
{
    return m_lineRate;
}

void
RdmaCongestionOps::SetRate(DataRate rate)
{
    m_rate = rate.GetBitRate();
}

void
RdmaCongestionOps::DoDispose()
{
    Stop();
    Object::DoDispose();
}

} // namespace ns3
