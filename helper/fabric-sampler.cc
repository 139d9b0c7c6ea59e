/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-sampler.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSampler");

namespace
{

/// Bytes a frame occupies on the wire besides its own: FCS 4, preamble 8, inter-frame gap 12.
constexpr uint64_t WIRE_OVERHEAD_BYTES = 24;

} // namespace

FabricSampler::FabricSampler()
    : m_priority(0),
      m_loadAtStart(0),
      m_loadInWindow(0),
      m_ended(false)
{
    NS_LOG_FUNCTION(this);
}

FabricSampler::~FabricSampler()
{
    NS_LOG_FUNCTION(this);
    m_sampleEvent.Cancel();
    m_beginEvent.Cancel();
    m_endEvent.Cancel();
}

void
FabricSampler::AddQueuePort(Ptr<RoceNetDevice> port)
{
    NS_ABORT_MSG_IF(!port, "FabricSampler: no port");
    m_queuePorts.push_back(port);
}

void
FabricSampler::AddLoadPort(Ptr<RoceNetDevice> port)
{
    NS_ABORT_MSG_IF(!port, "FabricSampler: no port");
    m_loadPorts.push_back(port);
}

void
FabricSampler::Start(Time start, Time stop, Time interval, uint8_t priority)
{
    NS_LOG_FUNCTION(this << start << stop << interval << +priority);
    NS_ABORT_MSG_IF(start < Simulator::Now() || stop <= start || !interval.IsStrictlyPositive() ||
                        priority >= RoceNetDevice::NUM_PRIORITIES,
                    "FabricSampler::Start: need now <= start < stop, a positive interval and a "
                    "priority of 0 to 7");
    m_start = start;
    m_stop = stop;
    m_interval = interval;
    m_priority = priority;
    m_beginEvent = Simulator::Schedule(start - Simulator::Now(), &FabricSampler::Begin, this);
    m_endEvent = Simulator::Schedule(stop - Simulator::Now(), &FabricSampler::End, this);
}

void
FabricSampler::Begin()
{
    m_loadAtStart = LoadWireBytes();
    Sample();
}

void
FabricSampler::Sample()
{
    for (const auto& port : m_queuePorts)
    {
        m_samples.push_back(port->GetQueueBytes(m_priority));
    }
    Time next = Simulator::Now() + m_interval;
    if (next < m_stop)
    {
        m_sampleEvent = Simulator::Schedule(m_interval, &FabricSampler::Sample, this);
    }
}

void
FabricSampler::End()
{
    m_loadInWindow = LoadWireBytes() - m_loadAtStart;
    m_ended = true;
}

uint64_t
FabricSampler::LoadWireBytes() const
{
    uint64_t bytes = 0;
    for (const auto& port : m_loadPorts)
    {
        const RoceNetDevice::Counters& c = port->GetCounters(m_priority);
        bytes += c.txBytes + WIRE_OVERHEAD_BYTES * c.txFrames;
    }
    return bytes;
}

uint64_t
FabricSampler::GetSampleCount() const
{
    return m_samples.size();
}

uint32_t
FabricSampler::GetQueuePercentile(double q) const
{
    if (m_samples.empty())
    {
        return 0;
    }
    std::vector<uint32_t> sorted = m_samples;
    double rank = std::ceil(std::min(std::max(q, 0.0), 1.0) * static_cast<double>(sorted.size()));
    size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
    std::nth_element(sorted.begin(), sorted.begin() + index, sorted.end());
    return sorted[index];
}

uint32_t
FabricSampler::GetMaxSample() const
{
    return m_samples.empty() ? 0 : *std::max_element(m_samples.begin(), m_samples.end());
}

double
FabricSampler::GetUtilization() const
{
    double capacity = 0;
    for (const auto& port : m_loadPorts)
    {
        capacity += static_cast<double>(port->GetDataRate().GetBitRate());
    }
    if (!m_ended || capacity <= 0)
    {
        return 0;
    }
    return 8.0 * static_cast<double>(m_loadInWindow) / (capacity * (m_stop - m_start).GetSeconds());
}

} // namespace ns3
