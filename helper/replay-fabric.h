/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef REPLAY_FABRIC_H
#define REPLAY_FABRIC_H

#include "flow-statistics.h"
#include "hpcc-format-reader.h"
#include "roce-fabric.h"
#include "roce-topology-helper.h"

#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-flow-generator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Runs the input files of HPCC's simulator and its descendants (HpccFormatReader) on
 * this module's fabric: builds the topology, posts every flow as an RDMA WRITE on its own
 * queue pair at its start time, and writes the per-flow results in the peer's fct.txt columns.
 *
 * Node ids of the files map to the fabric in order: the hosts (the nodes that are not
 * switches) in increasing id are hosts 0, 1, ... of the RoceFabric, the switches in increasing
 * id its switches, named "switch<id>". Links keep the file's order, rate and delay; routes are
 * the equal-cost shortest paths (RoceTopologyHelper::Build, ECMP per switch).
 *
 * A flow's UDP source port is the peer's: 10000 for the first flow of a (source, destination)
 * pair, 10001 for its second, and so on (checked against the peer's fct files, where the pairs
 * that repeat have 10001 and 10002). Its dport is written back as given: on the wire the UDP
 * destination port of RoCEv2 is 4791 (the peer's dport is a field of its own flow records).
 *
 * fct.txt has one finished flow a line, in the order the flows finished (ties in file order):
 * "src_ip dst_ip sport dport bytes start_ns fct_ns standalone_fct_ns", the addresses as the
 * peer gives them (HpccFormatReader::PeerAddress, 8 hex digits), start and FCT rounded to whole
 * ns. The FCT runs from the post of the WRITE to the ACK that completes it. standalone_fct_ns
 * is FlowStatistics::IdealFctNs over the flow's path (HpccFormatReader::ShortestPath: each
 * hop's rate and delay) at the RDMA MTU: the packets pipelined store-and-forward through the
 * hops with their whole wire bytes (Ethernet, IPv4, UDP, BTH, RETH on the first, ICRC, FCS,
 * preamble and inter-frame gap), then the final ACK back, rounded to whole ns.
 */
class ReplayFabric
{
  public:
    /**
     * @param topology a topology HpccFormatReader accepted.
     * @param flows flows HpccFormatReader accepted on it.
     */
    ReplayFabric(const HpccFormatReader::Topology& topology,
                 const std::vector<HpccFormatReader::Flow>& flows);

    /**
     * Build the fabric (once).
     * @param topo the helper, configured (switch buffer, ECN, PFC) by the caller.
     * @return the fabric.
     */
    RoceFabric Build(RoceTopologyHelper& topo);

    /**
     * @param node a host's node id.
     * @return its host index in the fabric.
     */
    uint32_t GetHostIndex(uint32_t node) const;

    /// @return the node id of every host of the fabric, in host order.
    const std::vector<uint32_t>& GetHostNodes() const;

    /**
     * The longest idle round trip between two hosts: Hpcc::PathBaseRtt of the shortest path
     * of every pair of hosts, at this MTU. The HPCC-lineage simulators size their windows
     * (DCQCN's one bandwidth-delay product, HPCC's) with the longest one.
     * @param mtu the RDMA MTU.
     * @return the longest one.
     */
    Time GetLongestBaseRtt(uint32_t mtu) const;

    /**
     * Post the flows: each at its start time, from its source's endpoint to its destination's,
     * on a new queue pair; the simulation stops when the last one is acknowledged.
     * @param endpoints the fabric's endpoints, in host order.
     * @return the generator that runs them (flow i is the file's flow i).
     */
    Ptr<RdmaFlowGenerator> Install(const std::vector<Ptr<RdmaEndpoint>>& endpoints);

    /**
     * The peer's UDP source ports of the flows (see the class description).
     * @param flows the flows, in file order.
     * @return one port per flow.
     */
    static std::vector<uint16_t> PeerSourcePorts(const std::vector<HpccFormatReader::Flow>& flows);

    /**
     * The FCT of a flow alone on its path (see the class description).
     * @param flow the flow's index.
     * @param mtu the RDMA MTU.
     * @return the ideal FCT, ns (not rounded).
     */
    double GetStandaloneFctNs(uint32_t flow, uint32_t mtu) const;

    /// One line of fct.txt: the peer's columns, in its order.
    struct FctRecord
    {
        uint32_t src;         //!< source node id
        uint32_t dst;         //!< destination node id
        uint16_t sport;       //!< UDP source port
        uint32_t dport;       //!< the flow file's dport
        uint64_t bytes;       //!< size
        int64_t startNs;      //!< start, ns
        int64_t fctNs;        //!< FCT, ns
        int64_t standaloneNs; //!< standalone FCT, ns
    };

    /**
     * @param record a finished flow.
     * @return its line of fct.txt (addresses in the peer's hexadecimal form), without a line
     * break.
     */
    static std::string FctLine(const FctRecord& record);

    /**
     * After the run: write fct.txt and fill the summary's flow fields (flows, flowsDone,
     * lastFlowEnd, fctUs, and slowdown = FCT / standalone FCT).
     * @param path the file.
     * @param mtu the RDMA MTU.
     * @param[in,out] summary the run's summary.
     * @return "" or "cannot write PATH".
     */
    std::string WriteFct(const std::string& path,
                         uint32_t mtu,
                         FlowStatistics::FlowRunSummary& summary) const;

  private:
    /**
     * A flow was acknowledged: stop after the last.
     * @param replay this.
     * @param index the flow.
     */
    static void FlowCompleted(ReplayFabric* replay, uint32_t index);

    /**
     * The rates and delays of a path's links.
     * @param path links, indices into the topology's.
     * @param[out] rates their rates.
     * @param[out] delays their delays.
     */
    void GetPathLinks(const std::vector<uint32_t>& path,
                      std::vector<DataRate>& rates,
                      std::vector<Time>& delays) const;

    HpccFormatReader::Topology m_topology;       //!< the topology file
    std::vector<HpccFormatReader::Flow> m_flows; //!< the flow file
    std::vector<uint32_t> m_hostNodes;           //!< node id per host index
    std::vector<uint32_t> m_hostIndex;           //!< host index per node id
    std::vector<uint32_t> m_switchIndex;         //!< switch index per node id
    Ptr<RdmaFlowGenerator> m_generator;          //!< runs the flows
};

} // namespace ns3

#endif /* REPLAY_FABRIC_H */
