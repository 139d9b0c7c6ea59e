/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_TEST_UTIL_H
#define FABRIC_TEST_UTIL_H

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/roce-net-device.h"

#include <cstdint>

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * Two ports joined by a link, each on its own node.
 */
struct Link
{
    ns3::Ptr<ns3::RoceNetDevice> a; //!< one end
    ns3::Ptr<ns3::RoceNetDevice> b; //!< the other end
};

/**
 * @ingroup llm-fabric-tests
 * @param rate line rate of both ends.
 * @param delay propagation delay.
 * @return two connected ports with freshly allocated MAC addresses.
 */
Link MakeLink(ns3::DataRate rate, ns3::Time delay);

/**
 * @ingroup llm-fabric-tests
 * @param rate line rate of both ends.
 * @param delay propagation delay.
 * @param macA address of end a.
 * @param macB address of end b.
 * @return two connected ports.
 */
Link MakeLink(ns3::DataRate rate, ns3::Time delay, ns3::Mac48Address macA, ns3::Mac48Address macB);

/**
 * @ingroup llm-fabric-tests
 * An Ethernet/IPv4/UDP-sized frame from 02:00:00:00:00:01 (10.0.0.1) to 02:00:00:00:00:02
 * (10.0.0.2).
 * @param bytes frame size without FCS, at least 34.
 * @param dscp the DSCP.
 * @return the frame.
 */
ns3::Ptr<ns3::Packet> MakeFrame(uint32_t bytes, uint8_t dscp);

} // namespace tests
} // namespace llmfabric

#endif /* FABRIC_TEST_UTIL_H */
