/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-ops.h"

#include "ns3/config.h"
#include "ns3/log.h"

#include <cctype>

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
                                            "ns3::TracedValueCallback::Uint64")
                            .AddTraceSource("Window",
                                            "Payload bytes the queue pair may have in flight "
                                            "(2^64 - 1: unlimited).",
                                            MakeTraceSourceAccessor(&RdmaCongestionOps::m_window),
                                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaCongestionOps::RdmaCongestionOps()
    : m_rate(0),
      m_window(UNLIMITED_WINDOW)
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

bool
RdmaCongestionOps::NeedsEcnEcho() const
{
    return false;
}

bool
RdmaCongestionOps::NeedsTelemetry() const
{
    return false;
}

std::string
RdmaCongestionOps::CheckConfig() const
{
    return "";
}

bool
RdmaCongestionOps::NeedsHopEcho() const
{
    return false;
}

bool
RdmaCongestionOps::AckWhenWindowFull() const
{
    return true;
}

RdmaCcVariableDisplay
RdmaCongestionOps::GetVariableDisplay(const std::string& traceSource) const
{
    if (traceSource == "Rate")
    {
        return {"rate_gbps", 1e-9};
    }
    if (traceSource == "Window")
    {
        return {"window_bytes", 1.0};
    }
    // CamelCase to snake_case: an underscore before each capital but the first.
    RdmaCcVariableDisplay display;
    for (size_t i = 0; i < traceSource.size(); ++i)
    {
        char c = traceSource[i];
        if (std::isupper(static_cast<unsigned char>(c)))
        {
            if (i > 0)
            {
                display.name += '_';
            }
            display.name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        else
        {
            display.name += c;
        }
    }
    return display;
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

bool
RdmaCongestionOps::GetEcnMarking(RdmaEcnMarking& marking) const
{
    return false;
}

void
RdmaCongestionOps::SetMtu(uint32_t mtu)
{
    m_mtu = mtu;
}

uint32_t
RdmaCongestionOps::GetMtu() const
{
    return m_mtu;
}

std::string
RdmaCongestionOps::ApplyProfileFrom(ProfileGetter getProfile, const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    Profile profile;
    std::string problem = getProfile(name, profile);
    for (const auto& [attribute, value] : profile)
    {
        SetAttribute(attribute, *value);
    }
    return problem;
}

std::string
RdmaCongestionOps::SetDefaultProfileFrom(ProfileGetter getProfile,
                                         const std::string& typeName,
                                         const std::string& name)
{
    Profile profile;
    std::string problem = getProfile(name, profile);
    for (const auto& [attribute, value] : profile)
    {
        Config::SetDefault(typeName + "::" + attribute, *value);
    }
    return problem;
}

void
RdmaCongestionOps::SetRate(DataRate rate)
{
    m_rate = rate.GetBitRate();
}

void
RdmaCongestionOps::SetWindow(uint64_t bytes)
{
    m_window = bytes;
}

void
RdmaCongestionOps::DoDispose()
{
    Stop();
    Object::DoDispose();
}

} // namespace ns3
