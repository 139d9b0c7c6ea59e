/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-channel.h"

#include "roce-net-device.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/event-impl.h"
#include "ns3/exact-time.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceChannel");

NS_OBJECT_ENSURE_REGISTERED(RoceChannel);

/**
 * The frames on their way to one end of a link, in the order they were sent, and the event that
 * delivers each: the one object is scheduled once per frame (ns-3 lets an event object be
 * pending several times; each scheduling holds a reference and gets its own uid, so the
 * arrivals run at the same times and in the same order as with an object per frame), and each
 * run hands over the frame due at that time. An object per frame cost ns-3's logged EventImpl
 * constructor and destructor per frame and hop.
 *
 * The frames are kept in a ring. A link's frames arrive in the order they were sent (the
 * sender's wire is serial and the delay the same for each), so the frame due is the oldest;
 * the frames' times are kept all the same, and the first frame due now is the one handed over,
 * should the Delay attribute have been lowered with frames on the way.
 */
class RoceChannel::FramesInFlight : public EventImpl
{
  public:
    /**
     * @param device the end the frames go to.
     */
    explicit FramesInFlight(Ptr<RoceNetDevice> device)
        : m_withHead(device->HasFrameReceiver()),
          m_device(std::move(device))
    {
    }

    /**
     * Add a frame; the caller schedules this event for its arrival.
     * @param frame the frame.
     * @param arrivalFs its arrival time, in femtoseconds (a whole number of time steps).
     * @param ttlDebt TTL decrements deferred for it (RoceNetDevice::Enqueue).
     */
    void Push(const Ptr<Packet>& frame, int64_t arrivalFs, uint8_t ttlDebt)
    {
        if (m_count == m_ring.size())
        {
            Grow();
        }
        InFlight& slot = m_ring[(m_head + m_count) & (m_ring.size() - 1)];
        slot.frame = PeekPointer(frame);
        slot.frame->Ref(); // the ring's reference, handed over in Notify
        slot.arrivalFs = arrivalFs;
        slot.ttlDebt = ttlDebt;
        // The frame's first bytes, for a switch at the receiving end (a host reads and writes
        // the frame anyway, its TTL and its headers: the bytes would only cost there).
        slot.headLength =
            m_withHead ? static_cast<uint8_t>(frame->CopyData(slot.head, RoceNetDevice::HEAD_BYTES))
                       : 0;
        ++m_count;
    }

    /// Drop the frames and the end (the channel is disposed of; events still pending find
    /// nothing to deliver).
    void Clear()
    {
        for (size_t k = 0; k < m_count; ++k)
        {
            m_ring[(m_head + k) & (m_ring.size() - 1)].frame->Unref();
        }
        m_ring.clear();
        m_head = 0;
        m_count = 0;
        m_device = nullptr;
    }

    ~FramesInFlight() override
    {
        Clear();
    }

  private:
    /// A frame on its way.
    struct InFlight
    {
        Packet* frame;      //!< the frame, with a reference the ring holds (a plain pointer:
                            //!< ns-3.37's Ptr has no move, and a copy costs a count each way)
        int64_t arrivalFs;  //!< when it arrives, femtoseconds
        uint8_t ttlDebt;    //!< TTL decrements deferred for it
        uint8_t headLength; //!< bytes of head
        uint8_t head[RoceNetDevice::HEAD_BYTES]; //!< the frame's first bytes, as it left
    };

    /// Double the ring (at least 8 slots), keeping the frames in order.
    void Grow()
    {
        std::vector<InFlight> ring(std::max<size_t>(8, 2 * m_ring.size()));
        for (size_t k = 0; k < m_count; ++k)
        {
            ring[k] = m_ring[(m_head + k) & (m_ring.size() - 1)];
        }
        m_ring.swap(ring);
        m_head = 0;
    }

    void Notify() override
    {
        if (m_count == 0)
        {
            return; // disposed of with the frame on its way
        }
        const size_t mask = m_ring.size() - 1;
        const int64_t nowFs = ExactTime::NowFs();
        size_t k = 0;
        while (k < m_count && m_ring[(m_head + k) & mask].arrivalFs != nowFs)
        {
            ++k; // only when the Delay was lowered with frames on the way
        }
        NS_ASSERT_MSG(k < m_count, "RoceChannel: no frame due now");
        if (k == m_count)
        {
            return;
        }
        // Out of the ring before the device sees it (its receive may send on this link again).
        if (k != 0)
        {
            const InFlight due = m_ring[(m_head + k) & mask];
            for (; k > 0; --k)
            {
                m_ring[(m_head + k) & mask] = m_ring[(m_head + k - 1) & mask];
            }
            m_ring[m_head] = due;
        }
        const InFlight& due = m_ring[m_head];
        m_head = (m_head + 1) & mask;
        --m_count;
        const Ptr<Packet> frame(due.frame, false); // takes over the ring's reference
        // The slot's bytes are read in place. A frame sent into this ring meanwhile (a link
        // between two ports of one switch, the frame forwarded at once) may reuse the slot or
        // move the ring, but only as the receiving switch's last step: nothing reads them then.
        m_device->Receive(frame,
                          due.ttlDebt,
                          due.headLength != 0 ? due.head : nullptr,
                          due.headLength);
    }

    /// Whether the slots keep the frames' first bytes: the end was a switch's port (a frame
    /// receiver) when the first frame was sent to it; a frame without them is read at its
    /// arrival, as before, so this only decides where the bytes are read from.
    bool m_withHead;
    std::vector<InFlight> m_ring; //!< the frames, a ring of a power of two slots
    size_t m_head{0};             //!< the oldest frame's slot
    size_t m_count{0};            //!< frames on their way
    Ptr<RoceNetDevice> m_device;  //!< the end they go to
};

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

RoceChannel::~RoceChannel()
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
RoceChannel::Transmit(const Ptr<Packet>& packet,
                      const RoceNetDevice* source,
                      Time arrivalDelay,
                      uint8_t ttlDebt)
{
    const size_t end = (PeekPointer(m_devices[0]) == source) ? 1 : 0;
    const Ptr<RoceNetDevice>& peer = m_devices[end];
    if (!peer)
    {
        return; // an unconnected end: the frame is lost on the floor
    }
    if (m_nodeIds[end] == NO_NODE)
    {
        m_nodeIds[end] = peer->GetNode()->GetId(); // a device's node does not change
        m_inFlight[end] = Create<FramesInFlight>(peer);
    }
    const Time delay = arrivalDelay + m_delay;
    const int64_t unitFs = ExactTime::GetResolutionFs();
    m_inFlight[end]->Push(packet, ExactTime::NowFs() + delay.GetTimeStep() * unitFs, ttlDebt);
    // The simulator keeps a reference per scheduling (ScheduleWithContext takes the one given).
    m_inFlight[end]->Ref();
    LeanSimulatorImpl::ScheduleStepsWithContext(m_nodeIds[end],
                                                static_cast<uint64_t>(delay.GetTimeStep()),
                                                PeekPointer(m_inFlight[end]));
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
    for (Ptr<FramesInFlight>& frames : m_inFlight)
    {
        if (frames)
        {
            frames->Clear();
            frames = nullptr;
        }
    }
    m_nDevices = 0;
    Channel::DoDispose();
}

} // namespace ns3
