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
#include "ns3/roce-constant-rate-source.h"
#include "ns3/roce-fabric.h"
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

/**
 * @ingroup llm-fabric-tests
 * Install a constant-rate source from one host of a fabric to another, starting at time 0.
 * @param fabric the fabric.
 * @param from sending host.
 * @param to receiving host.
 * @param rate rate on the wire.
 * @param packets how many packets.
 * @param payload RDMA payload per packet.
 * @param udpPort UDP source port (the flow's ECMP entropy).
 * @param ect send ECN-capable.
 * @return the application.
 */
ns3::Ptr<ns3::RoceConstantRateSource> AddConstantRateSource(const ns3::RoceFabric& fabric,
                                                            uint32_t from,
                                                            uint32_t to,
                                                            ns3::DataRate rate,
                                                            uint64_t packets,
                                                            uint32_t payload,
                                                            uint16_t udpPort,
                                                            bool ect = true);

} // namespace tests
} // namespace llmfabric

#endif /* FABRIC_TEST_UTIL_H */
