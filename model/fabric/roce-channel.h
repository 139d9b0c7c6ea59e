/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_CHANNEL_H
#define ROCE_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>

namespace ns3
{

class RoceNetDevice;
class Packet;

/**
 * @ingroup llm-fabric
 * @brief A full-duplex Ethernet link between two RoceNetDevices.
 *
 * Each direction is independent: a frame handed over by one end arrives at the other end after
 * its serialization time (decided by the sending device) plus the propagation Delay.
 */
class RoceChannel : public Channel
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RoceChannel();
    ~RoceChannel() override;

    /**
     * Attach a device to one end of the link.
     * @param device the device; at most two.
     */
    void Attach(Ptr<RoceNetDevice> device);

    /**
     * Carry a frame to the other end.
     * @param packet the frame.
     * @param source the sending device.
     * @param arrivalDelay time from now until the frame's last bit has left the sender (the
     *        sending device computes it exactly); the propagation delay is added here.
     * @param ttlDebt TTL decrements deferred for the frame (RoceNetDevice::Enqueue), handed to
     *        the receiving device with it.
     */
    void Transmit(const Ptr<Packet>& packet,
                  const RoceNetDevice* source,
                  Time arrivalDelay,
                  uint8_t ttlDebt = 0);

    /**
     * @param device one end.
     * @return the device at the other end (null if none).
     */
    Ptr<RoceNetDevice> GetPeer(Ptr<const RoceNetDevice> device) const;

    /// @return the propagation delay.
    Time GetDelay() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    /// The frames on their way to one end, and the event that delivers each (RoceChannel.cc).
    class FramesInFlight;

    Time m_delay;                                //!< propagation delay
    std::array<Ptr<RoceNetDevice>, 2> m_devices; //!< the two ends
    uint32_t m_nDevices;                         //!< ends attached
    /// An end's node id not read yet.
    static constexpr uint32_t NO_NODE = 0xFFFFFFFF;
    /// The node id of each end's node, read on the first frame to it (Node::GetId is an ns-3
    /// call with a log test, once per frame otherwise); NO_NODE until then.
    std::array<uint32_t, 2> m_nodeIds{NO_NODE, NO_NODE};
    /// The frames on their way to each end (made on the first frame to it).
    std::array<Ptr<FramesInFlight>, 2> m_inFlight;
};

} // namespace ns3

#endif /* ROCE_CHANNEL_H */
