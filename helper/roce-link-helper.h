/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_LINK_HELPER_H
#define ROCE_LINK_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/trace-helper.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Creates RoCE links: a RoceChannel with a RoceNetDevice at each end; pcap and ascii
 * tracing of those devices.
 *
 * Pcaps are Ethernet (DLT_EN10MB) with nanosecond timestamps, truncated to the snap length
 * (SetSnapLength); they hold every frame a device sends or receives, PFC frames included, and
 * open in Wireshark as RoCEv2.
 */
class RoceLinkHelper : public PcapHelperForDevice, public AsciiTraceHelperForDevice
{
  public:
    RoceLinkHelper();
    ~RoceLinkHelper() override = default;

    /**
     * Set an attribute of the devices this helper creates.
     * @param name attribute of ns3::RoceNetDevice.
     * @param value its value.
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Set an attribute of the links this helper creates.
     * @param name attribute of ns3::RoceChannel.
     * @param value its value.
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * @param snapLength bytes of each frame kept in pcaps (default 65535).
     */
    void SetSnapLength(uint32_t snapLength);

    /**
     * Join two nodes with a link, with the rate and delay set through the attributes.
     * @param a one node.
     * @param b the other.
     * @return the two devices, a's first.
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b) const;

    /**
     * Join two nodes with a link of the given rate and delay.
     * @param a one node.
     * @param b the other.
     * @param rate line rate of both ends.
     * @param delay propagation delay.
     * @return the two devices, a's first.
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay) const;

  private:
    void EnablePcapInternal(std::string prefix,
                            Ptr<NetDevice> nd,
                            bool promiscuous,
                            bool explicitFilename) override;

    void EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                             std::string prefix,
                             Ptr<NetDevice> nd,
                             bool explicitFilename) override;

    ObjectFactory m_deviceFactory;  //!< creates devices
    ObjectFactory m_channelFactory; //!< creates links
    uint32_t m_snapLength;          //!< pcap snap length
};

} // namespace ns3

#endif /* ROCE_LINK_HELPER_H */
