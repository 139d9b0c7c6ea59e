/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FLOW_STATISTICS_H
#define FLOW_STATISTICS_H

#include "fabric-monitor.h"
#include "roce-fabric.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/rdma-endpoint.h"

#include <cstdint>
#include <nlohmann/json.hpp>
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
     * The same with a delay per link (IdealFctNs above with @p delay on every link is this
     * with that delay repeated).
     * @param bytes message size.
     * @param mtu RDMA payload per packet.
     * @param rates the rate of each hop, from the sender.
     * @param delays the delay of each hop's link (as many as rates).
     * @return the ideal FCT in nanoseconds.
     */
    static double IdealFctNs(uint64_t bytes,
                             uint32_t mtu,
                             const std::vector<DataRate>& rates,
                             const std::vector<Time>& delays);

    /**
     * @param values some values (at least one).
     * @return the JSON object {"min", "p50", "p99", "p999", "max", "mean"} (nearest-rank
     *         percentiles), or null for no value.
     */
    static std::string DistributionJson(std::vector<double> values);

    /**
     * The same distribution as a JSON value.
     * @param values the samples.
     * @return {"min", "p50", "p99", "p999", "max", "mean"}, or null if there are none.
     */
    static nlohmann::ordered_json Distribution(std::vector<double> values);

    /**
     * @param fabric a fabric after a run.
     * @return every frame its ports put on a link: data frames and PFC frames.
     */
    static uint64_t CountLinkFrames(const RoceFabric& fabric);

    /// The transport's counters, summed over queue pairs.
    struct TransportCounters
    {
        uint64_t dataPackets{0};   //!< data packets sent, retransmissions included
        uint64_t retransmitted{0}; //!< data packets sent again
        uint64_t cnps{0};          //!< CNPs received by senders
    };

    /**
     * @param endpoints RDMA endpoints after a run.
     * @return the counters of all their queue pairs (receive-side queue pairs add nothing to
     *         them: they send no data and receive no CNP).
     */
    static TransportCounters SumQueuePairs(const std::vector<Ptr<RdmaEndpoint>>& endpoints);

    /// What a flow experiment (llm-fabric-incast, llm-fabric-leaf-spine) reports.
    struct FlowRunSummary
    {
        uint32_t flows{0};                     //!< flows started
        uint32_t flowsDone{0};                 //!< flows acknowledged
        Time lastFlowEnd;                      //!< end of the last one
        std::vector<double> fctUs;             //!< FCT of each finished flow, microseconds
        std::vector<double> slowdown;          //!< slowdown of each finished flow
        TransportCounters transport;           //!< queue-pair counters
        uint64_t linkFrames{0};                //!< CountLinkFrames
        const FabricMonitor* monitor{nullptr}; //!< pauses, drops, ECN marks, largest queue
        uint64_t events{0};                    //!< simulator events
        double wallS{0};                       //!< wall-clock seconds of the run
    };

    /**
     * Run the simulation and count what the fabric and the transport did: the wall-clock time
     * of Simulator::Run, the monitor finished (FabricMonitor::Finish), the events, the
     * queue-pair counters and the link frames. The flow fields are left for the caller.
     * @param fabric the fabric.
     * @param endpoints its RDMA endpoints.
     * @param monitor the monitor of its ports, referred to by the summary.
     * @return the summary, with flows, flowsDone, lastFlowEnd, fctUs and slowdown empty.
     */
    static FlowRunSummary Run(const RoceFabric& fabric,
                              const std::vector<Ptr<RdmaEndpoint>>& endpoints,
                              FabricMonitor& monitor);

    /**
     * @param summary a finished run.
     * @return the JSON object of summary.json: flows, flows_done, last_flow_end_us, fct_us,
     *         slowdown, data_packets, retransmitted_packets, link_frames, pfc_pause_frames, drops,
     *         ecn_marks, cnps, max_queue_bytes, events, wall_s, peak_rss_mib (of this process).
     */
    static std::string SummaryJson(const FlowRunSummary& summary);

    /**
     * @param summary a finished run.
     * @return the counters the flow programs print, as three lines each indented by two spaces:
     *         data packets, retransmitted, drops; PFC pause frames, ECN marks, CNPs, largest
     *         queue; events, link frames, wall time, link frames per second, peak RSS (of this
     *         process, MiB).
     */
    static std::string CountersText(const FlowRunSummary& summary);
};

} // namespace ns3

#endif /* FLOW_STATISTICS_H */
