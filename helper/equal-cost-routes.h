/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EQUAL_COST_ROUTES_H
#define EQUAL_COST_ROUTES_H

#include <cstdint>
#include <limits>
#include <map>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * Equal-cost next hops on an unweighted topology: for every node and destination, the ports of
 * the node that start some shortest path (fewest links) to the destination. A switch that
 * forwards with ECMP chooses among these ports with EcmpHash.
 *
 * The topology is described by nodes (numbered from 0 in the order AddNode() returns them) and
 * point-to-point links between numbered ports of two nodes. Parallel links between the same two
 * nodes are allowed and give one next-hop port each. Compute() runs a breadth-first search
 * (Boost.Graph) from every destination.
 *
 * A node can be marked as not forwarding (SetTransit(node, false)), as a host is: it is never an
 * intermediate hop of a path, even when a path through it would be shorter (a host attached to
 * two switches does not route between them). It can still be the first node or the destination
 * of a path.
 *
 * Memory: Compute() keeps one distance per node and destination, 4 bytes each (about 400 MB for
 * 10,000 nodes and destinations); Compute(destinations) restricts it to the given destinations,
 * such as the hosts.
 *
 * Node ids and ports that do not exist abort the program, as do a duplicate port number on a
 * node, a link from a node to itself, and queries made before Compute() or after the topology
 * changed since.
 */
class EqualCostRoutes
{
  public:
    /// The distance GetDistance() returns when the destination cannot be reached.
    static constexpr uint32_t UNREACHABLE = std::numeric_limits<uint32_t>::max();

    /** Create an empty topology. */
    EqualCostRoutes();

    /**
     * Add a node, which forwards (is transit) until SetTransit says otherwise.
     * @return the new node's id: the number of nodes added before it.
     */
    uint32_t AddNode();

    /**
     * @return the number of nodes added.
     */
    uint32_t GetNNodes() const;

    /**
     * Add a bidirectional point-to-point link. Aborts if a node id is unknown, if a == b, or if a
     * port number is already used on its node.
     * @param a a node id.
     * @param portOnA the number of the port of a that the link attaches to.
     * @param b another node id.
     * @param portOnB the number of the port of b that the link attaches to.
     */
    void AddLink(uint32_t a, uint32_t portOnA, uint32_t b, uint32_t portOnB);

    /**
     * Say whether a node forwards traffic that is neither from nor to itself. Aborts if the node
     * id is unknown.
     * @param node a node id.
     * @param forwards false for a host, which must never be an intermediate hop; true (the
     *        default of every node) for a switch.
     */
    void SetTransit(uint32_t node, bool forwards);

    /**
     * @param node a node id; aborts if unknown.
     * @return true if the node may be an intermediate hop.
     */
    bool IsTransit(uint32_t node) const;

    /**
     * Compute the distances to every node, which can then be the destination of queries.
     */
    void Compute();

    /**
     * Compute the distances to the given destinations only. Aborts if an id is unknown.
     * @param destinations the node ids that queries may name as destination.
     */
    void Compute(const std::vector<uint32_t>& destinations);

    /**
     * @param node a node id.
     * @param destination a node id passed to Compute (every node after Compute()).
     * @return the port numbers of node's links that start a shortest path to destination, in
     *         increasing order; empty if node is destination or cannot reach it. Aborts if an id
     *         is unknown, destination was not computed or the topology changed since Compute.
     */
    std::vector<uint32_t> GetNextHopPorts(uint32_t node, uint32_t destination) const;

    /**
     * @param node a node id.
     * @param destination a node id passed to Compute (every node after Compute()).
     * @return the number of links on a shortest path from node to destination (0 if they are the
     *         same node), or UNREACHABLE. Aborts as GetNextHopPorts does.
     */
    uint32_t GetDistance(uint32_t node, uint32_t destination) const;

  private:
    /// One end of a link, seen from the node that owns the port.
    struct Attachment
    {
        uint32_t port;     ///< The port number on this node.
        uint32_t neighbor; ///< The node at the other end of the link.
    };

    /**
     * Abort if a node id is unknown.
     * @param node the node id.
     * @param what the name of the calling function, for the message.
     */
    void CheckNode(uint32_t node, const char* what) const;

    /**
     * Abort unless distances to a destination are available.
     * @param destination the node id.
     * @param what the name of the calling function, for the message.
     * @return the row of m_distances that holds the distances to destination.
     */
    const std::vector<uint32_t>& GetDistances(uint32_t destination, const char* what) const;

    std::vector<std::vector<Attachment>> m_attachments;    ///< Per node, its links sorted by port.
    std::vector<bool> m_transit;                           ///< Per node, whether it forwards.
    std::map<uint32_t, std::vector<uint32_t>> m_distances; ///< Per destination, per node distance.
    bool m_computed; ///< True after Compute, until the topology changes.
};

} // namespace ns3

#endif /* EQUAL_COST_ROUTES_H */
