/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-channel.h"

#include "roce-net-device.h"

#include "ns3/abort.h"
#include "ns3/event-impl.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <new>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceChannel");

NS_OBJECT_ENSURE_REGISTERED(RoceChannel);

namespace
{

/**
 * The arrival of a frame at the far end of a link: one is made per frame on every link, so
 * their memory is kept on a free list and reused instead of going back to the heap (the event
 * does what MakeEvent(&RoceNetDevice::Receive, peer, frame) does).
 */
class FrameArrival : public EventImpl
{
  public:
    /**
     * @param device the receiving port.
     * @param frame the frame.
     * @param ttlDebt TTL decrements deferred for it (RoceNetDevice::Enqueue).
     */
    FrameArrival(Ptr<RoceNetDevice> device, Ptr<Packet> frame, uint8_t ttlDebt)
        : m_device(std::move(device)),
          m_frame(std::move(frame)),
          m_ttlDebt(ttlDebt)
    {
    }

    /**
     * Memory from the free list, else from the heap.
     * @param size the object's size.
     * @return the memory.
     */
    static void* operator new(std::size_t size)
    {
        std::vector<void*>& free = FreeList();
        if (size == sizeof(FrameArrival) && !free.empty())
        {
            void* memory = free.back();
            free.pop_back();
            return memory;
        }
        return ::operator new(size);
    }

    /**
     * Memory back to the free list.
     * @param memory the memory.
     * @param size the object's size.
     */
    static void operator delete(void* memory, std::size_t size)
    {
        if (size == sizeof(FrameArrival))
        {
            FreeList().push_back(memory);
            return;
        }
        ::operator delete(memory);
    }

  private:
    void Notify() override
    {
        m_device->Receive(m_frame, m_ttlDebt); // run once: the event, and its reference, go after
    }

    /// @return the free list: never destroyed, so its blocks stay reachable to the end (no
    /// leak reported, and an arrival deleted during the program's exit still finds it).
    static std::vector<void*>& FreeList()
    {
        static auto* list = new std::vector<void*>();
        return *list;
    }

    Ptr<RoceNetDevice> m_device; //!< the receiving port
    Ptr<Packet> m_frame;         //!< the frame
    uint8_t m_ttlDebt;           //!< TTL decrements deferred for it
};

} // namespace

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
RoceChannel::Transmit(Ptr<Packet> packet,
                      Ptr<RoceNetDevice> source,
                      Time arrivalDelay,
                      uint8_t ttlDebt)
{
    const size_t end = (m_devices[0] == source) ? 1 : 0;
    const Ptr<RoceNetDevice>& peer = m_devices[end];
    if (!peer)
    {
        return; // an unconnected end: the frame is lost on the floor
    }
    if (m_nodeIds[end] == NO_NODE)
    {
        m_nodeIds[end] = peer->GetNode()->GetId(); // a device's node does not change
    }
    Simulator::ScheduleWithContext(m_nodeIds[end],
                                   arrivalDelay + m_delay,
                                   new FrameArrival(peer, std::move(packet), ttlDebt));
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
    m_nodeIds = {NO_NODE, NO_NODE};
    m_nDevices = 0;
    Channel::DoDispose();
}

} // namespace ns3
