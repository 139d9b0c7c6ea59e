/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_STATISTICS_H
#define FLOW_STATISTICS_H

#include "roce-fabric.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief What the experiment programs share to report flows: the ideal FCT of a message on an
 * idle path, percentile summaries, and the count of frames put on links.
 */
class FlowStatistics
{
  public:
    FlowStatistics() = delete;

    /**
     * The completion time of one RDMA WRITE alone on an idle path of store-and-forward hops:
     * packet k starts on hop j when it has fully arrived there and the previous packet has
     * left; a frame occupies (8 + frame + 4 + 12) bytes of the hop's wire, and its last bit
     * arrives (8 + frame + 4) bytes after it starts, plus the delay. Frames are Ethernet 14 +
     * IPv4 20 + UDP 8 + BTH 12 (+ RETH 16 on the first) + payload + ICRC 4 bytes. Then the
     * final ACK (a 62-byte frame) comes back over every hop.
     * @param bytes message size.
     * @param mtu RDMA payload per packet.
     * @param rates the rate of each hop, from the sender.
     * @param delay the delay of every link.
     * @return the ideal FCT in nanoseconds.
     */
    static double IdealFctNs(uint64_t bytes,
                             uint32_t mtu,
                             const std::vector<DataRate>& rates,
                             Time delay);

    /**
     * @param values some values (at least one).
     * @return the JSON object {"min", "p50", "p99", "p999", "max", "mean"} (nearest-rank
     *         percentiles), or null for no value.
     */
    static std::string DistributionJson(std::vector<double> values);

    /**
     * @param fabric a fabric after a run.
     * @return every frame its ports put on a link: data frames and PFC frames.
     */
    static uint64_t CountLinkFrames(const RoceFabric& fabric);
};

} // namespace ns3

#endif /* FLOW_STATISTICS_H */
