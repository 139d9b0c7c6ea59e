/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/equal-cost-routes.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <array>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of EqualCostRoutes on a star, a two-tier leaf-spine, a three-tier k = 4 fat-tree,
 * parallel links and a topology where a dual-homed host would be a shortcut. Every expected
 * port set and distance is derived by hand from the topology in a comment.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param ports some port numbers.
 * @return them as "{a, b}", for messages and comparisons.
 */
std::string
PortString(const std::vector<uint32_t>& ports)
{
    std::ostringstream os;
    os << "{";
    for (size_t i = 0; i < ports.size(); ++i)
    {
        os << (i > 0 ? ", " : "") << ports[i];
    }
    os << "}";
    return os.str();
}

/**
 * A three-tier fat-tree with k = 4 (Al-Fares et al., SIGCOMM 2008): 4 pods of 2 edge and 2
 * aggregation switches, 4 core switches, 2 hosts per edge switch (16 hosts, 20 switches).
 *
 * Ports: a host has port 0. Edge switch e of a pod: ports 0 and 1 to its hosts, port 2 + a to
 * aggregation switch a of its pod. Aggregation switch a of a pod: port e to edge switch e,
 * ports 2 and 3 to core switches 2a and 2a + 1. Core switch c: port p to aggregation switch
 * c / 2 of pod p.
 */
struct FatTree
{
    static constexpr uint32_t PODS = 4; ///< k.
    static constexpr uint32_t HALF = 2; ///< k / 2: edge and aggregation switches per pod.

    EqualCostRoutes routes;          ///< The topology.
    uint32_t edge[PODS][HALF];       ///< Edge switch ids, by pod and index.
    uint32_t agg[PODS][HALF];        ///< Aggregation switch ids, by pod and index.
    uint32_t core[HALF * HALF];      ///< Core switch ids.
    uint32_t host[PODS][HALF][HALF]; ///< Host ids, by pod, edge switch and edge port.

    /** Build the topology, mark the hosts non-transit and compute the routes. */
    FatTree()
    {
        for (uint32_t c = 0; c < HALF * HALF; ++c)
        {
            core[c] = routes.AddNode();
        }
        for (uint32_t p = 0; p < PODS; ++p)
        {
            for (uint32_t i = 0; i < HALF; ++i)
            {
                edge[p][i] = routes.AddNode();
                agg[p][i] = routes.AddNode();
            }
            for (uint32_t e = 0; e < HALF; ++e)
            {
                for (uint32_t h = 0; h < HALF; ++h)
                {
                    host[p][e][h] = routes.AddNode();
                    routes.SetTransit(host[p][e][h], false);
                    routes.AddLink(edge[p][e], h, host[p][e][h], 0);
                }
                for (uint32_t a = 0; a < HALF; ++a)
                {
                    routes.AddLink(edge[p][e], 2 + a, agg[p][a], e);
                }
            }
            for (uint32_t a = 0; a < HALF; ++a)
            {
                for (uint32_t j = 0; j < HALF; ++j)
                {
                    routes.AddLink(agg[p][a], 2 + j, core[HALF * a + j], p);
                }
            }
        }
        routes.Compute();
    }
};

/**
 * Add nodes to a graph.
 * @tparam N how many.
 * @param routes the graph.
 * @return their numbers, in the order they were added.
 */
template <std::size_t N>
std::array<uint32_t, N>
AddNodes(EqualCostRoutes& routes)
{
    std::array<uint32_t, N> nodes;
    for (uint32_t& node : nodes)
    {
        node = routes.AddNode();
    }
    return nodes;
}

/// A link: node a's port, node b's port.
struct LinkSpec
{
    uint32_t a;     //!< one node
    uint32_t portA; //!< its port
    uint32_t b;     //!< the other node
    uint32_t portB; //!< its port
};

/**
 * Add links to a graph, in order.
 * @param routes the graph.
 * @param links the links.
 */
void
AddLinks(EqualCostRoutes& routes, const std::vector<LinkSpec>& links)
{
    for (const LinkSpec& l : links)
    {
        routes.AddLink(l.a, l.portA, l.b, l.portB);
    }
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A star: a switch with one port per host. The switch reaches each host by that host's port,
 * every host reaches every other host through its only port, two links away.
 */
class EqualCostRoutesStarTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EqualCostRoutesStarTestCase()
        : TestCase("Star: one port per host, host to host two links")
    {
    }

  private:
    void DoRun() override
    {
        EqualCostRoutes routes;
        uint32_t center = routes.AddNode();
        NS_TEST_ASSERT_MSG_EQ(center, 0u, "ids count from 0");
        std::vector<uint32_t> hosts;
        for (uint32_t i = 0; i < 5; ++i)
        {
            hosts.push_back(routes.AddNode());
            NS_TEST_ASSERT_MSG_EQ(hosts.back(), i + 1, "ids are consecutive");
            routes.SetTransit(hosts.back(), false);
            // Switch ports 10, 11, ... so that ports are not confused with node ids.
            routes.AddLink(center, 10 + i, hosts.back(), 0);
        }
        NS_TEST_ASSERT_MSG_EQ(routes.GetNNodes(), 6u, "six nodes");
        NS_TEST_ASSERT_MSG_EQ(routes.IsTransit(center), true, "nodes forward by default");
        NS_TEST_ASSERT_MSG_EQ(routes.IsTransit(hosts[0]), false, "hosts marked non-transit");
        routes.Compute();
        for (uint32_t i = 0; i < hosts.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(center, hosts[i])),
                                  PortString({10 + i}),
                                  "switch to host " << i);
            NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(center, hosts[i]), 1u, "switch to host");
            NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(hosts[i], center)),
                                  "{0}",
                                  "host to switch");
            for (uint32_t j = 0; j < hosts.size(); ++j)
            {
                if (i == j)
                {
                    NS_TEST_ASSERT_MSG_EQ(routes.GetNextHopPorts(hosts[i], hosts[j]).empty(),
                                          true,
                                          "no next hop to itself");
                    NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(hosts[i], hosts[j]),
                                          0u,
                                          "distance to itself");
                    continue;
                }
                NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(hosts[i], hosts[j])),
                                      "{0}",
                                      "host " << i << " to host " << j);
                NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(hosts[i], hosts[j]),
                                      2u,
                                      "host to host: host, switch, host");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Leaf-spine with 2 leaves, 2 spines and 2 hosts per leaf. Leaf ports 0 and 1 go to its hosts,
 * 2 to spine 0 and 3 to spine 1; spine port l goes to leaf l.
 */
class EqualCostRoutesLeafSpineTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EqualCostRoutesLeafSpineTestCase()
        : TestCase("Leaf-spine 2x2: two uplinks to a remote host, one port to a local host")
    {
    }

  private:
    void DoRun() override
    {
        EqualCostRoutes routes;
        uint32_t leaf[2];
        uint32_t spine[2];
        uint32_t host[2][2];
        for (uint32_t l = 0; l < 2; ++l)
        {
            leaf[l] = routes.AddNode();
        }
        for (uint32_t s = 0; s < 2; ++s)
        {
            spine[s] = routes.AddNode();
            for (uint32_t l = 0; l < 2; ++l)
            {
                routes.AddLink(leaf[l], 2 + s, spine[s], l);
            }
        }
        for (uint32_t l = 0; l < 2; ++l)
        {
            for (uint32_t h = 0; h < 2; ++h)
            {
                host[l][h] = routes.AddNode();
                routes.SetTransit(host[l][h], false);
                routes.AddLink(leaf[l], h, host[l][h], 0);
            }
        }
        routes.Compute();

        for (uint32_t l = 0; l < 2; ++l)
        {
            for (uint32_t h = 0; h < 2; ++h)
            {
                // Local host: only the host's port, one link.
                NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(leaf[l], host[l][h])),
                                      PortString({h}),
                                      "leaf " << l << " to its host " << h);
                NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(leaf[l], host[l][h]), 1u, "local host");
                // Remote host: both uplinks, leaf-spine-leaf-host = 3 links.
                NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(leaf[1 - l], host[l][h])),
                                      "{2, 3}",
                                      "leaf " << 1 - l << " to remote host " << h << " of leaf "
                                              << l);
                NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(leaf[1 - l], host[l][h]),
                                      3u,
                                      "remote host");
                // A spine has exactly one port toward each host: the one to the host's leaf.
                for (uint32_t s = 0; s < 2; ++s)
                {
                    NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(spine[s], host[l][h])),
                                          PortString({l}),
                                          "spine " << s << " to a host of leaf " << l);
                    NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(spine[s], host[l][h]),
                                          2u,
                                          "spine-leaf-host");
                }
                // Host to host: 2 links under one leaf, 4 across (host-leaf-spine-leaf-host).
                NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(host[l][h], host[l][1 - h]),
                                      2u,
                                      "same leaf");
                NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(host[l][h], host[1 - l][h]),
                                      4u,
                                      "across leaves");
            }
        }
        // Leaf to leaf through either spine; spine to spine through either leaf (2 links).
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(leaf[0], leaf[1])),
                              "{2, 3}",
                              "leaf to leaf");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(spine[0], spine[1])),
                              "{0, 1}",
                              "spine to spine");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A three-tier k = 4 fat-tree (see FatTree), every switch towards every host.
 */
class EqualCostRoutesFatTreeTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EqualCostRoutesFatTreeTestCase()
        : TestCase("Fat-tree k=4: 2 up-ports across pods, 1 down-port, core has 1")
    {
    }

  private:
    void DoRun() override
    {
        FatTree t;
        const uint32_t H = FatTree::HALF;
        NS_TEST_ASSERT_MSG_EQ(t.routes.GetNNodes(), 36u, "20 switches and 16 hosts");
        for (uint32_t p = 0; p < FatTree::PODS; ++p)
        {
            for (uint32_t e = 0; e < H; ++e)
            {
                for (uint32_t h = 0; h < H; ++h)
                {
                    uint32_t dst = t.host[p][e][h];
                    for (uint32_t q = 0; q < FatTree::PODS; ++q)
                    {
                        for (uint32_t i = 0; i < H; ++i)
                        {
                            uint32_t edge = t.edge[q][i];
                            uint32_t agg = t.agg[q][i];
                            std::vector<uint32_t> edgePorts = t.routes.GetNextHopPorts(edge, dst);
                            std::vector<uint32_t> aggPorts = t.routes.GetNextHopPorts(agg, dst);
                            if (q != p)
                            {
                                // Other pod: edge up to both aggregations (edge-agg-core-agg-
                                // edge-host, 5 links); aggregation up to both its cores (4).
                                NS_TEST_ASSERT_MSG_EQ(PortString(edgePorts), "{2, 3}", "edge");
                                NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(edge, dst), 5u, "edge");
                                NS_TEST_ASSERT_MSG_EQ(PortString(aggPorts), "{2, 3}", "agg");
                                NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(agg, dst), 4u, "agg");
                            }
                            else
                            {
                                // Own pod: the aggregation goes down to edge e (agg-edge-host,
                                // 2 links); edge e goes to the host's port (1); the other edge
                                // goes up to both aggregations (edge-agg-edge-host, 3).
                                NS_TEST_ASSERT_MSG_EQ(PortString(aggPorts),
                                                      PortString({e}),
                                                      "agg down");
                                NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(agg, dst), 2u, "agg");
                                if (i == e)
                                {
                                    NS_TEST_ASSERT_MSG_EQ(PortString(edgePorts),
                                                          PortString({h}),
                                                          "edge to own host");
                                    NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(edge, dst),
                                                          1u,
                                                          "own host");
                                }
                                else
                                {
                                    NS_TEST_ASSERT_MSG_EQ(PortString(edgePorts),
                                                          "{2, 3}",
                                                          "edge to pod host");
                                    NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(edge, dst),
                                                          3u,
                                                          "pod host");
                                }
                            }
                        }
                    }
                    // A core switch has one port to the host: the one to the host's pod
                    // (core-agg-edge-host, 3 links).
                    for (uint32_t c = 0; c < H * H; ++c)
                    {
                        NS_TEST_ASSERT_MSG_EQ(PortString(t.routes.GetNextHopPorts(t.core[c], dst)),
                                              PortString({p}),
                                              "core " << c);
                        NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(t.core[c], dst), 3u, "core");
                    }
                }
            }
        }
        // Host to host: across pods host-edge-agg-core-agg-edge-host = 6 links; same pod, other
        // edge 4; same edge 2. A host's only next hop is its port 0.
        uint32_t a = t.host[0][0][0];
        NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(a, t.host[3][1][1]), 6u, "across pods");
        NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(a, t.host[0][1][0]), 4u, "same pod");
        NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(a, t.host[0][0][1]), 2u, "same edge");
        NS_TEST_ASSERT_MSG_EQ(PortString(t.routes.GetNextHopPorts(a, t.host[3][1][1])),
                              "{0}",
                              "host port");
        // Symmetry over every pair of hosts: links are bidirectional.
        for (uint32_t x = 0; x < t.routes.GetNNodes(); ++x)
        {
            for (uint32_t y = 0; y < t.routes.GetNNodes(); ++y)
            {
                NS_TEST_ASSERT_MSG_EQ(t.routes.GetDistance(x, y),
                                      t.routes.GetDistance(y, x),
                                      "symmetric distance " << x << " " << y);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Two switches joined by two parallel links: both ports are next hops.
 */
class EqualCostRoutesParallelLinksTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EqualCostRoutesParallelLinksTestCase()
        : TestCase("Parallel links between two switches are both next hops")
    {
    }

  private:
    void DoRun() override
    {
        EqualCostRoutes routes;
        const auto [s1, s2, host] = AddNodes<3>(routes);
        routes.SetTransit(host, false);
        // Added out of port order: the result is still sorted.
        AddLinks(routes, {{s1, 7, s2, 2}, {s1, 5, s2, 1}, {s2, 0, host, 0}});
        routes.Compute();
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s1, host)), "{5, 7}", "bundle");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(s1, host), 2u, "s1-s2-host");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s2, s1)), "{1, 2}", "back");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Hosts are never transit. Topology (ports in brackets):
 * @verbatim
   S1[0] - [0]H[1] - [0]S2          H: a host attached to both switches
   S1[1] - [0]A[1] - [0]B[1] - [1]S2
   S2[2] - [0]G                     G: a host on S2
   H[2]  - [0]X                     X: a host reachable only through H
   Z                                Z: an isolated node
   @endverbatim
 * Through H, S1 would reach G in 3 links (S1-H-S2-G); without passing through a host it takes
 * 4 (S1-A-B-S2-G).
 */
class EqualCostRoutesHostNotTransitTestCase : public TestCase
{
  public:
    /** Create the test case. */
    EqualCostRoutesHostNotTransitTestCase()
        : TestCase("A dual-homed host is never an intermediate hop, even when shorter")
    {
    }

  private:
    void DoRun() override
    {
        EqualCostRoutes routes;
        const auto [s1, s2, a, b, h, g, x, z] = AddNodes<8>(routes);
        AddLinks(routes,
                 {{s1, 0, h, 0},
                  {h, 1, s2, 0},
                  {s1, 1, a, 0},
                  {a, 1, b, 0},
                  {b, 1, s2, 1},
                  {s2, 2, g, 0},
                  {h, 2, x, 0}});

        // Every node forwards by default: the path through H is shorter.
        routes.Compute();
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s1, g)), "{0}", "through H");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(s1, g), 3u, "S1-H-S2-G");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(s1, x), 2u, "S1-H-X");

        for (uint32_t host : {h, g, x, z})
        {
            routes.SetTransit(host, false);
        }
        routes.Compute();
        // S1 to G avoids H: port 1 towards A, 4 links; S2 to S1 through B and A, 3 links.
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s1, g)), "{1}", "around H");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(s1, g), 4u, "S1-A-B-S2-G");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s2, s1)), "{1}", "S2 to S1");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(s2, s1), 3u, "S2-B-A-S1");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(a, g)), "{1}", "A to G");
        // H can still send and receive: it is the first node or the destination of these paths.
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(h, g)), "{1}", "H to G");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(h, g), 2u, "H-S2-G");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(g, h)), "{0}", "G to H");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(h, a)), "{0}", "H to A");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(h, a), 2u, "H-S1-A");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s1, h)), "{0}", "S1 to H");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(h, x)), "{2}", "H to X");
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(x, h)), "{0}", "X to H");

        // X is only reachable through H, which does not forward; Z is not linked at all.
        NS_TEST_ASSERT_MSG_EQ(routes.GetNextHopPorts(s1, x).empty(), true, "S1 to X: none");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(s1, x),
                              EqualCostRoutes::UNREACHABLE,
                              "S1 cannot reach X");
        NS_TEST_ASSERT_MSG_EQ(routes.GetNextHopPorts(x, g).empty(), true, "X to G: none");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(x, g), EqualCostRoutes::UNREACHABLE, "X to G");
        NS_TEST_ASSERT_MSG_EQ(routes.GetNextHopPorts(s1, z).empty(), true, "S1 to Z: none");
        NS_TEST_ASSERT_MSG_EQ(routes.GetNextHopPorts(z, s1).empty(), true, "Z to S1: none");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(z, s1), EqualCostRoutes::UNREACHABLE, "Z");

        // Computing for some destinations only gives the same answers for them.
        routes.Compute({g, h});
        NS_TEST_ASSERT_MSG_EQ(PortString(routes.GetNextHopPorts(s1, g)), "{1}", "subset: S1 to G");
        NS_TEST_ASSERT_MSG_EQ(routes.GetDistance(h, g), 2u, "subset: H to G");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The equal-cost routes test suite.
 */
class EqualCostRoutesTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    EqualCostRoutesTestSuite()
        : TestSuite("llm-fabric-equal-cost-routes", Type::UNIT)
    {
        AddTestCase(new EqualCostRoutesStarTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EqualCostRoutesLeafSpineTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EqualCostRoutesFatTreeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EqualCostRoutesParallelLinksTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new EqualCostRoutesHostNotTransitTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static EqualCostRoutesTestSuite g_equalCostRoutesTestSuite;

} // namespace tests
} // namespace llmfabric
