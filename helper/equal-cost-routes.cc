/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "equal-cost-routes.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/filtered_graph.hpp>
#include <boost/graph/visitors.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EqualCostRoutes");

namespace
{

/**
 * The topology as a Boost graph: one directed arc per direction of every link, so that the
 * source of an arc is always the node the search leaves from.
 */
using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
/// A vertex of Graph (its index is the node id).
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;
/// An arc of Graph.
using Arc = boost::graph_traits<Graph>::edge_descriptor;

/**
 * The arcs a breadth-first search from a destination may follow: those that leave the
 * destination itself or a transit node. A non-transit node is still reached (it can be the
 * first node of a path), but the search does not continue through it, so that it is never an
 * intermediate hop.
 */
class LeavesForwardingNode
{
  public:
    /** Create a filter that keeps every arc (needed by Boost; never used so). */
    LeavesForwardingNode()
        : m_graph(nullptr),
          m_transit(nullptr),
          m_destination(0)
    {
    }

    /**
     * @param graph the graph whose arcs are filtered.
     * @param transit per node, whether it forwards.
     * @param destination the node the search starts from.
     */
    LeavesForwardingNode(const Graph* graph, const std::vector<bool>* transit, Vertex destination)
        : m_graph(graph),
          m_transit(transit),
          m_destination(destination)
    {
    }

    /**
     * @param arc an arc of the graph.
     * @return true if the search may follow it.
     */
    bool operator()(const Arc& arc) const
    {
        if (m_graph == nullptr)
        {
            return true;
        }
        Vertex from = boost::source(arc, *m_graph);
        return from == m_destination || (*m_transit)[from];
    }

  private:
    const Graph* m_graph;               ///< The graph whose arcs are filtered.
    const std::vector<bool>* m_transit; ///< Per node, whether it forwards.
    Vertex m_destination;               ///< The node the search starts from.
};

/**
 * @param graph the topology, one arc per direction of every link.
 * @param transit per node, whether it forwards.
 * @param destination the node the search starts from.
 * @return the distance from every node to destination (EqualCostRoutes::UNREACHABLE if there is
 *         no path), by a breadth-first search from the destination that does not continue
 *         through non-transit nodes. Links are symmetric, so the distance the search finds from
 *         the destination to a node is the distance from the node to the destination.
 */
std::vector<uint32_t>
SearchFrom(const Graph& graph, const std::vector<bool>& transit, uint32_t destination)
{
    LeavesForwardingNode filter(&graph, &transit, destination);
    boost::filtered_graph<Graph, LeavesForwardingNode> searched(graph, filter);
    std::vector<uint32_t> distances(boost::num_vertices(graph), EqualCostRoutes::UNREACHABLE);
    distances[destination] = 0;
    boost::breadth_first_search(
        searched,
        boost::vertex(destination, graph),
        boost::visitor(boost::make_bfs_visitor(
            boost::record_distances(distances.data(), boost::on_tree_edge()))));
    return distances;
}

} // namespace

EqualCostRoutes::EqualCostRoutes()
    : m_computed(false)
{
    NS_LOG_FUNCTION(this);
}

uint32_t
EqualCostRoutes::AddNode()
{
    NS_LOG_FUNCTION(this);
    m_attachments.emplace_back();
    m_transit.push_back(true);
    m_computed = false;
    return static_cast<uint32_t>(m_attachments.size() - 1);
}

uint32_t
EqualCostRoutes::GetNNodes() const
{
    return static_cast<uint32_t>(m_attachments.size());
}

void
EqualCostRoutes::CheckNode(uint32_t node, const char* what) const
{
    NS_ABORT_MSG_IF(node >= m_attachments.size(),
                    "EqualCostRoutes::" << what << ": unknown node " << node << " (there are "
                                        << m_attachments.size() << " nodes)");
}

void
EqualCostRoutes::AddLink(uint32_t a, uint32_t portOnA, uint32_t b, uint32_t portOnB)
{
    NS_LOG_FUNCTION(this << a << portOnA << b << portOnB);
    CheckNode(a, "AddLink");
    CheckNode(b, "AddLink");
    NS_ABORT_MSG_IF(a == b, "EqualCostRoutes::AddLink: a link from node " << a << " to itself");
    auto insert = [this](uint32_t node, uint32_t port, uint32_t neighbor) {
        std::vector<Attachment>& list = m_attachments[node];
        auto position =
            std::lower_bound(list.begin(), list.end(), port, [](const Attachment& x, uint32_t p) {
                return x.port < p;
            });
        list.insert(position, Attachment{port, neighbor});
    };
    // Check both ports before changing anything.
    for (const auto& [node, port] : {std::make_pair(a, portOnA), std::make_pair(b, portOnB)})
    {
        for (const Attachment& x : m_attachments[node])
        {
            NS_ABORT_MSG_IF(x.port == port,
                            "EqualCostRoutes::AddLink: port " << port << " of node " << node
                                                              << " is already linked");
        }
    }
    insert(a, portOnA, b);
    insert(b, portOnB, a);
    m_computed = false;
}

void
EqualCostRoutes::SetTransit(uint32_t node, bool forwards)
{
    NS_LOG_FUNCTION(this << node << forwards);
    CheckNode(node, "SetTransit");
    m_transit[node] = forwards;
    m_computed = false;
}

bool
EqualCostRoutes::IsTransit(uint32_t node) const
{
    CheckNode(node, "IsTransit");
    return m_transit[node];
}

void
EqualCostRoutes::Compute()
{
    std::vector<uint32_t> all(m_attachments.size());
    for (uint32_t i = 0; i < all.size(); ++i)
    {
        all[i] = i;
    }
    Compute(all);
}

void
EqualCostRoutes::Compute(const std::vector<uint32_t>& destinations)
{
    NS_LOG_FUNCTION(this << destinations.size());
    for (uint32_t destination : destinations)
    {
        CheckNode(destination, "Compute");
    }
    Graph graph(m_attachments.size());
    for (uint32_t node = 0; node < m_attachments.size(); ++node)
    {
        for (const Attachment& x : m_attachments[node])
        {
            boost::add_edge(node, x.neighbor, graph);
        }
    }
    m_distances.clear();
    for (uint32_t destination : destinations)
    {
        if (m_distances.count(destination) == 0)
        {
            m_distances[destination] = SearchFrom(graph, m_transit, destination);
        }
    }
    m_computed = true;
}

const std::vector<uint32_t>&
EqualCostRoutes::GetDistances(uint32_t destination, const char* what) const
{
    CheckNode(destination, what);
    NS_ABORT_MSG_IF(!m_computed,
                    "EqualCostRoutes::" << what
                                        << ": call Compute() after the last change of topology");
    auto it = m_distances.find(destination);
    NS_ABORT_MSG_IF(it == m_distances.end(),
                    "EqualCostRoutes::" << what << ": node " << destination
                                        << " was not a destination of Compute()");
    return it->second;
}

std::vector<uint32_t>
EqualCostRoutes::GetNextHopPorts(uint32_t node, uint32_t destination) const
{
    CheckNode(node, "GetNextHopPorts");
    const std::vector<uint32_t>& distances = GetDistances(destination, "GetNextHopPorts");
    std::vector<uint32_t> ports;
    uint32_t distance = distances[node];
    if (distance == 0 || distance == UNREACHABLE)
    {
        return ports;
    }
    // A port is a next hop if its neighbor is one link closer and may carry the path on: it is
    // the destination itself or a transit node (a non-transit neighbor has a distance as the
    // first node of its own paths, but cannot be passed through).
    for (const Attachment& x : m_attachments[node])
    {
        if (distances[x.neighbor] != UNREACHABLE && distances[x.neighbor] + 1 == distance &&
            (x.neighbor == destination || m_transit[x.neighbor]))
        {
            ports.push_back(x.port);
        }
    }
    return ports; // m_attachments[node] is sorted by port
}

uint32_t
EqualCostRoutes::GetDistance(uint32_t node, uint32_t destination) const
{
    CheckNode(node, "GetDistance");
    return GetDistances(destination, "GetDistance")[node];
}

} // namespace ns3
