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
#include "ns3/rdma-endpoint.h"
#include "ns3/roce-constant-rate-source.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-topology-helper.h"

#include <cstdint>
#include <list>
#include <string>
#include <vector>

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
 * Queue frames made by MakeFrame on a port, one after the other.
 * @param port the port.
 * @param count how many.
 * @param bytes the size of each, as for MakeFrame.
 * @param dscp their DSCP.
 * @param priority the queue they go to.
 */
void EnqueueFrames(ns3::Ptr<ns3::RoceNetDevice> port,
                   uint32_t count,
                   uint32_t bytes,
                   uint8_t dscp,
                   uint8_t priority);

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

/**
 * @ingroup llm-fabric-tests
 * Two-to-one incast at line rate: hosts 0 and 1 each send packets of 930 payload bytes (988-byte
 * frames, priority 3) at 100 Gb/s to one host, from time 0, with UDP source ports 0xC000 and
 * 0xC001 (AddConstantRateSource).
 * @param fabric the fabric.
 * @param to the receiving host.
 * @param packets how many packets each sender sends.
 * @param ect send ECN-capable.
 */
void AddTwoToOneIncast(const ns3::RoceFabric& fabric,
                       uint32_t to,
                       uint64_t packets,
                       bool ect = true);

/**
 * @ingroup llm-fabric-tests
 * Build a star of hosts around one switch (every link with a 1 us delay, random streams from
 * 1) and install an RDMA endpoint on every host (with the attribute defaults of the moment).
 * @param hosts number of hosts.
 * @param topo the topology helper (with its MMU settings).
 * @param fabric receives the fabric.
 * @param rate the rate of every link.
 * @return the endpoints, in host order.
 */
std::vector<ns3::Ptr<ns3::RdmaEndpoint>> MakeRdmaStar(
    uint32_t hosts,
    ns3::RoceTopologyHelper& topo,
    ns3::RoceFabric& fabric,
    ns3::DataRate rate = ns3::DataRate("100Gbps"));

/**
 * @ingroup llm-fabric-tests
 * A leaf-spine shape with the given counts and every link at the LeafSpineConfig defaults
 * (100 Gb/s, 1 us).
 * @param hostsPerLeaf hosts under each leaf.
 * @param leaves leaf switches.
 * @param spines spine switches.
 * @return the shape.
 */
ns3::RoceTopologyHelper::LeafSpineConfig LeafSpineShape(uint32_t hostsPerLeaf,
                                                        uint32_t leaves,
                                                        uint32_t spines);

/**
 * @ingroup llm-fabric-tests
 * Make a host's port lose some of the frames it receives.
 * @param fabric the fabric.
 * @param host the host.
 * @param frames the indices of the frames to lose, counted from 0 in order of arrival.
 */
void LoseReceivedFrames(const ns3::RoceFabric& fabric,
                        uint32_t host,
                        const std::list<uint32_t>& frames);

/**
 * @ingroup llm-fabric-tests
 * Give the switches a helper builds these RED/ECN marking thresholds (SwitchMmu Kmin, Kmax,
 * Pmax).
 * @param topo the topology helper.
 * @param kmin the queue below which nothing is marked, such as "5KB".
 * @param kmax the queue above which everything is marked.
 * @param pmax the marking probability at kmax.
 */
void SetEcnMarking(ns3::RoceTopologyHelper& topo,
                   const std::string& kmin,
                   const std::string& kmax,
                   double pmax);

/**
 * @ingroup llm-fabric-tests
 * Keeps a copy of every frame that arrives at the ports it records, and its arrival time, in
 * order of arrival.
 */
class FrameRecorder
{
  public:
    FrameRecorder() = default;

    /**
     * Record the frames that arrive at a port from now on (Record).
     * @param port the port.
     */
    explicit FrameRecorder(ns3::Ptr<ns3::RoceNetDevice> port);

    /**
     * Record the frames that arrive at a port (its PhyRxEnd trace).
     * @param port the port.
     */
    void Record(ns3::Ptr<ns3::RoceNetDevice> port);

    /**
     * @param frame a frame that arrived.
     */
    void Received(ns3::Ptr<const ns3::Packet> frame);

    /// @return when the last frame arrived (0 when none did).
    ns3::Time GetLast() const;

    std::vector<ns3::Ptr<ns3::Packet>> frames; //!< in order of arrival
    std::vector<ns3::Time> times;              //!< their arrival times
};

} // namespace tests
} // namespace llmfabric

#endif /* FABRIC_TEST_UTIL_H */
