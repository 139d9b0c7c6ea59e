/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-channel.h"

#include "roce-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceChannel");

NS_OBJECT_ENSURE_REGISTERED(RoceChannel);

TypeId
RoceChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceChannel")
                            .SetParent<Channel>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RoceChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the link, each direction.",
                                          TimeValue(MicroSeconds(1)),
                                          MakeTimeAccessor(&RoceChannel::m_delay),
                                          MakeTimeChecker(Seconds(0)));
    return tid;
}

RoceChannel::RoceChannel()
    : m_nDevices(0)
{
    NS_LOG_FUNCTION(this);
}

void
RoceChannel::Attach(Ptr<RoceNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_nDevices >= 2, "RoceChannel: a link has two ends; a third device attached");
    m_devices[m_nDevices++] = device;
}

void
RoceChannel::Transmit(Ptr<Packet> packet, Ptr<RoceNetDevice> source, Time arrivalDelay)
{
    Ptr<RoceNetDevice> peer = (m_devices[0] == source) ? m_devices[1] : m_devices[0];
    if (!peer)
    {
        return; // an unconnected end: the frame is lost on the floor
    }
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   arrivalDelay + m_delay,
                                   &RoceNetDevice::Receive,
                                   peer,
                                   packet);
}

Ptr<RoceNetDevice>
RoceChannel::GetPeer(Ptr<const RoceNetDevice> device) const
{
    if (m_devices[0] == device)
    {
        return m_devices[1];
    }
    if (m_devices[1] == device)
    {
        return m_devices[0];
    }
    return nullptr;
}

Time
RoceChannel::GetDelay() const
{
    return m_delay;
}

std::size_t
RoceChannel::GetNDevices() const
{
    return m_nDevices;
}

Ptr<NetDevice>
RoceChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_IF(i >= m_nDevices, "RoceChannel: no device " << i);
    return m_devices[i];
}

void
RoceChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_devices[0] = nullptr;
    m_devices[1] = nullptr;
    m_nDevices = 0;
    Channel::DoDispose();
}

} // namespace ns3
