/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HPCC_FORMAT_READER_H
#define HPCC_FORMAT_READER_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Reads the input files of HPCC's ns-3 simulator (Li et al., SIGCOMM 2019) and of its
 * descendants (SimAI's ns-3 backend): a topology file and a flow file, strictly.
 *
 * Topology file, one item a line (blank lines are skipped):
 *  - the counts: HPCC's "nodes switches links" or SimAI's "nodes gpus_per_server nvswitches
 *    switches links gpu_type" (for example "40 1 0 8 48 NONE");
 *  - the switch node ids, on one line (no line when there are no switches);
 *  - one link a line, "a b rate delay error_rate" (for example "0 32 100Gbps 1us 0"), the rate
 *    and the delay with ns-3's units.
 * Nodes that are not switches are hosts. What this module does not model is refused rather
 * than ignored: a non-zero error rate (random loss), nvswitches above 0 and gpus_per_server
 * other than 1 (NVLink servers), a host with more than one link (a host has one port).
 *
 * Flow file: the flow count on the first line, then one flow a line, "src dst priority dport
 * bytes start_seconds". The peer reads flows in file order and schedules each at its start,
 * so start times must not decrease.
 *
 * Every problem is one line "FILE: line N: reason" (N counts from 1, blank lines included);
 * a problem found after the whole file was read (a host without a link) names line 1, where
 * the counts declare the nodes.
 */
class HpccFormatReader
{
  public:
    HpccFormatReader() = delete;

    /// One link of a topology file.
    struct Link
    {
        uint32_t a{0};    //!< one end (node id)
        uint32_t b{0};    //!< the other end (node id)
        DataRate rate;    //!< its rate
        Time delay;       //!< its propagation delay
        uint32_t line{0}; //!< its line in the file
    };

    /// A topology file.
    struct Topology
    {
        bool simai{false};              //!< the first line had SimAI's six fields
        uint32_t nodes{0};              //!< node count
        std::vector<bool> isSwitch;     //!< per node id
        std::vector<uint32_t> switches; //!< switch ids, as listed
        std::vector<Link> links;        //!< links, in file order
    };

    /// One flow of a flow file.
    struct Flow
    {
        uint32_t src{0};      //!< source node id (a host)
        uint32_t dst{0};      //!< destination node id (a host)
        uint32_t priority{0}; //!< priority field (0-7)
        uint32_t dport{0};    //!< destination port field (0-65535)
        uint64_t bytes{0};    //!< message size
        Time start;           //!< when it is posted
        uint32_t line{0};     //!< its line in the file
    };

    /**
     * Read a topology file.
     * @param path the file.
     * @param[out] topology what it says.
     * @return "" or "FILE: line N: reason" (or "FILE: cannot open").
     */
    static std::string ReadTopology(const std::string& path, Topology& topology);

    /**
     * Read a topology from a stream.
     * @param in the text.
     * @param name the name messages start with.
     * @param[out] topology what it says.
     * @return "" or "NAME: line N: reason".
     */
    static std::string ParseTopology(std::istream& in, const std::string& name, Topology& topology);

    /**
     * Read a flow file.
     * @param path the file.
     * @param topology the topology the flows run on (node ids, hosts, connectivity).
     * @param dataPriority the only priority accepted (the priority RDMA data is sent with).
     * @param[out] flows the flows, in file order.
     * @return "" or "FILE: line N: reason" (or "FILE: cannot open").
     */
    static std::string ReadFlows(const std::string& path,
                                 const Topology& topology,
                                 uint32_t dataPriority,
                                 std::vector<Flow>& flows);

    /**
     * Read flows from a stream.
     * @param in the text.
     * @param name the name messages start with.
     * @param topology the topology.
     * @param dataPriority the only priority accepted.
     * @param[out] flows the flows.
     * @return "" or "NAME: line N: reason".
     */
    static std::string ParseFlows(std::istream& in,
                                  const std::string& name,
                                  const Topology& topology,
                                  uint32_t dataPriority,
                                  std::vector<Flow>& flows);

    /**
     * The IPv4 address the peer gives a node: 11.0.0.1 + 256 x id (0x0b000001 + 256 n).
     * @param node a node id.
     * @return the address as a 32-bit number.
     */
    static uint32_t PeerAddress(uint32_t node);

    /**
     * A shortest path (fewest links) between two nodes; among equal ones, at each step back
     * from the destination the neighbour of lowest id found first by a breadth-first search
     * from the source (deterministic).
     * @param topology the topology.
     * @param src the first node.
     * @param dst the last node.
     * @return the links of the path, in order from @p src (indices into topology.links);
     *         empty if there is none.
     */
    static std::vector<uint32_t> ShortestPath(const Topology& topology, uint32_t src, uint32_t dst);

    /**
     * The path Distances found from its source to one node.
     * @param topology the topology.
     * @param previousLink what Distances gave for the source @p src.
     * @param src that source.
     * @param dst the last node, reachable.
     * @return the links of the path, in order from @p src (indices into topology.links).
     */
    static std::vector<uint32_t> PathTo(const Topology& topology,
                                        const std::vector<uint32_t>& previousLink,
                                        uint32_t src,
                                        uint32_t dst);

    /**
     * The hop counts from one node to every node (breadth-first, through switches only: a
     * host other than the source forwards nothing).
     * @param topology the topology.
     * @param src the source.
     * @param[out] previousLink per node, the link it was first reached by (UINT32_MAX: none).
     * @return per node, its hop count (UINT32_MAX: unreachable).
     */
    static std::vector<uint32_t> Distances(const Topology& topology,
                                           uint32_t src,
                                           std::vector<uint32_t>& previousLink);
};

} // namespace ns3

#endif /* HPCC_FORMAT_READER_H */
