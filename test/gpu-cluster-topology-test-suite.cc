/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/channel.h"
#include "ns3/enum.h"
#include "ns3/gpu-cluster-topology.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/roce-constant-rate-source.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdint>
#include <functional>
#include <string>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of GpuClusterTopology: switch and link counts of each kind (derived by hand in the
 * comments), the GPU -> NIC mapping, multi-plane fabrics, oversubscription, equal-cost path
 * counts, frames delivered with the exact latency of their path, and the Check messages.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param kind the kind.
 * @param serversPerLeaf ServersPerLeaf.
 * @param spines Spines.
 * @return a topology with those attributes and the other defaults.
 */
Ptr<GpuClusterTopology>
MakeTopology(GpuClusterTopology::Kind kind, uint32_t serversPerLeaf = 0, uint32_t spines = 0)
{
    Ptr<GpuClusterTopology> topology = CreateObject<GpuClusterTopology>();
    topology->SetAttribute("Kind", EnumValue(kind));
    topology->SetAttribute("ServersPerLeaf", UintegerValue(serversPerLeaf));
    topology->SetAttribute("Spines", UintegerValue(spines));
    return topology;
}

/**
 * @param fabric a fabric.
 * @param node a node of it.
 * @return the switch index of the node, or the number of switches if it is not a switch.
 */
uint32_t
SwitchIndexOf(const RoceFabric& fabric, Ptr<Node> node)
{
    uint32_t i = 0;
    while (i < fabric.GetNSwitches() && fabric.GetSwitchNode(i) != node)
    {
        ++i;
    }
    return i;
}

/**
 * @param device a port.
 * @return the node at the other end of its link.
 */
Ptr<Node>
PeerOf(Ptr<NetDevice> device)
{
    Ptr<Channel> channel = device->GetChannel();
    Ptr<NetDevice> peer =
        channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0);
    return peer->GetNode();
}

/**
 * Count the equal-cost paths the switches' routes offer from a node to a host.
 * @param node where the path starts (a switch).
 * @param destination the host's address.
 * @param host the host's node.
 * @param hops hops taken so far (a path longer than 8 hops counts for nothing).
 * @param[out] length the hops of the last path found.
 * @return the number of paths.
 */
uint64_t
CountPaths(Ptr<Node> node, Ipv4Address destination, Ptr<Node> host, uint32_t hops, uint32_t& length)
{
    if (node == host)
    {
        length = hops;
        return 1;
    }
    Ptr<RoceSwitch> sw = node->GetObject<RoceSwitch>();
    if (!sw || hops > 8)
    {
        return 0;
    }
    uint64_t paths = 0;
    for (uint32_t port : sw->GetRoute(destination))
    {
        paths += CountPaths(PeerOf(sw->GetPort(port)), destination, host, hops + 1, length);
    }
    return paths;
}

/**
 * @param fabric a fabric.
 * @param from a host.
 * @param to another host.
 * @param[out] hops the links of a path (host to host).
 * @return the number of equal-cost paths from the leaf of @p from to @p to.
 */
uint64_t
PathsBetween(const RoceFabric& fabric, uint32_t from, uint32_t to, uint32_t& hops)
{
    hops = 0;
    Ptr<Node> leaf = PeerOf(fabric.GetHostDevice(from));
    return CountPaths(leaf, fabric.GetHostAddress(to), fabric.GetHost(to), 1, hops);
}

/**
 * Install a one-packet constant-rate source from one host to another.
 * @param fabric the fabric.
 * @param from sending host.
 * @param to receiving host.
 * @param payload RDMA payload of the packet.
 */
void
SendOnePacket(const RoceFabric& fabric, uint32_t from, uint32_t to, uint32_t payload)
{
    Ptr<RoceConstantRateSource> app = CreateObject<RoceConstantRateSource>();
    app->SetAttribute("Local", Ipv4AddressValue(fabric.GetHostAddress(from)));
    app->SetAttribute("Remote", Ipv4AddressValue(fabric.GetHostAddress(to)));
    app->SetAttribute("RemoteMac", Mac48AddressValue(fabric.GetHostMac(to)));
    app->SetAttribute("DataRate", DataRateValue(DataRate("100Gbps")));
    app->SetAttribute("PayloadSize", UintegerValue(payload));
    app->SetAttribute("MaxPackets", UintegerValue(1));
    app->SetAttribute("UdpSourcePort", UintegerValue(0xC000));
    app->SetStartTime(Seconds(0));
    fabric.GetHost(from)->AddApplication(app);
}

/// Counts frames and the last arrival time at a host port.
class Arrivals
{
  public:
    /// @param frame a frame that arrived.
    void Rx(Ptr<const Packet> frame)
    {
        ++frames;
        last = Simulator::Now();
    }

    uint64_t frames{0}; //!< frames received
    Time last;          //!< last arrival
};

/// What a TierCount counts.
enum Counted
{
    SWITCHES, //!< GpuClusterTopology::GetNumberOfSwitches (tier)
    LINKS     //!< GpuClusterTopology::GetNumberOfLinks (tier)
};

/// A count of switches or links of one tier and the value it must have.
struct TierCount
{
    Counted counted;               //!< switches or links
    GpuClusterTopology::Tier tier; //!< the tier
    uint64_t expected;             //!< the count
    const char* why;               //!< how it is derived
};

/// A switch's index in a fabric and the name it must have.
struct SwitchName
{
    uint32_t index;   //!< the switch
    const char* name; //!< its name
    const char* why;  //!< the rule that gives it
};

/**
 * @param fabric a fabric built from a topology.
 * @param topology the topology.
 * @param nics how many NICs to check, from NIC 0.
 * @param expectedLeaf the leaf (switch index) NIC n must hang under.
 * @return the NICs linked to another switch, or placed under another by GetLeafOfNic.
 */
uint32_t
MisplacedNics(const RoceFabric& fabric,
              const GpuClusterTopology& topology,
              uint32_t nics,
              const std::function<uint32_t(uint32_t)>& expectedLeaf)
{
    uint32_t misplaced = 0;
    for (uint32_t nic = 0; nic < nics; ++nic)
    {
        uint32_t leaf = SwitchIndexOf(fabric, PeerOf(fabric.GetHostDevice(nic)));
        uint32_t expected = expectedLeaf(nic);
        misplaced += (leaf != expected || topology.GetLeafOfNic(nic) != expected) ? 1 : 0;
    }
    return misplaced;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A test of GpuClusterTopology, with a check of the names of a built fabric's switches.
 */
class TopologyTestCase : public TestCase
{
  protected:
    /// @param name the test case's name.
    explicit TopologyTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Check the names of some switches.
     * @param fabric the fabric.
     * @param names the switches and their names.
     */
    void ExpectSwitchNames(const RoceFabric& fabric, const std::vector<SwitchName>& names)
    {
        for (const SwitchName& n : names)
        {
            NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitchName(n.index), n.name, n.why);
        }
    }

    /**
     * Build a topology's fabric and check its switches: their number, then some names.
     * @param topology the topology.
     * @param servers the servers.
     * @param gpusPerServer the GPUs per server.
     * @param switches the number of switches the fabric must have.
     * @param why how that number is derived.
     * @param names some switches and their names, checked if the number is right.
     * @param[out] fabric the fabric.
     * @return whether the fabric has @p switches switches.
     */
    bool BuildFabric(GpuClusterTopology& topology,
                     uint32_t servers,
                     uint32_t gpusPerServer,
                     uint32_t switches,
                     const std::string& why,
                     const std::vector<SwitchName>& names,
                     RoceFabric& fabric)
    {
        RoceTopologyHelper helper;
        fabric = topology.Build(helper, servers, gpusPerServer);
        NS_TEST_EXPECT_MSG_EQ(fabric.GetNSwitches(), switches, why);
        if (fabric.GetNSwitches() != switches)
        {
            return false;
        }
        ExpectSwitchNames(fabric, names);
        return true;
    }

    /**
     * Check counts of switches and links.
     * @param topology the topology, with its cluster set.
     * @param counts the counts and their values.
     */
    void ExpectCounts(const GpuClusterTopology& topology, const std::vector<TierCount>& counts)
    {
        for (const TierCount& c : counts)
        {
            uint64_t got = c.counted == LINKS ? topology.GetNumberOfLinks(c.tier)
                                              : topology.GetNumberOfSwitches(c.tier);
            NS_TEST_EXPECT_MSG_EQ(got,
                                  c.expected,
                                  (c.counted == LINKS ? "links" : "switches")
                                      << " of tier " << c.tier << ": " << c.why);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Rail-optimized: counts, names, which leaf each NIC hangs under, ports, oversubscription and
 * the one-line description.
 */
class TopologyRailOptimizedTestCase : public TopologyTestCase
{
  public:
    TopologyRailOptimizedTestCase()
        : TopologyTestCase(
              "Rail-optimized: switches, links, names, leaves of the NICs, description")
    {
    }

  private:
    void DoRun() override
    {
        // 16 servers x 8 GPUs, a NIC per GPU: 8 rails; 8 servers per rail leaf: 16 / 8 = 2
        // leaves per rail, 8 x 2 = 16 leaves; 4 spines. Host links: 16 x 8 = 128; every leaf
        // to every spine: 16 x 4 = 64.
        Ptr<GpuClusterTopology> topology = MakeTopology(GpuClusterTopology::RAIL_OPTIMIZED, 8, 4);
        NS_TEST_ASSERT_MSG_EQ(topology->SetCluster(16, 8), "", "a valid cluster");
        NS_TEST_EXPECT_MSG_EQ(topology->GetNumberOfNics(), 128u, "16 x 8 NICs");
        ExpectCounts(*topology,
                     {{SWITCHES, GpuClusterTopology::LEAF_TIER, 16, "8 rails x 2 leaves"},
                      {SWITCHES, GpuClusterTopology::SPINE_TIER, 4, "4 spines"},
                      {SWITCHES, GpuClusterTopology::CORE_TIER, 0, "no core"},
                      {LINKS, GpuClusterTopology::LEAF_TIER, 128, "one link per NIC"},
                      {LINKS, GpuClusterTopology::SPINE_TIER, 64, "16 leaves x 4 spines"},
                      {LINKS, GpuClusterTopology::CORE_TIER, 0, "no core link"}});
        NS_TEST_EXPECT_MSG_EQ(topology->GetNumberOfSwitches(), 20u, "16 + 4");
        // A leaf has 8 ports down at 400 Gb/s and 4 up at 400 Gb/s: 3200 / 1600 = 2:1.
        NS_TEST_EXPECT_MSG_EQ_TOL(topology->GetOversubscription(), 2.0, 1e-12, "2:1");
        NS_TEST_EXPECT_MSG_EQ(topology->Describe(),
                              "rail-optimized, 16 servers x 8 NICs, 8 rails x 2 leaves, 4 spines, "
                              "400 Gb/s, 2:1",
                              "description");

        // Leaves rail by rail (rail r, leaf l is switch 2r + l), then spines.
        RoceFabric fabric;
        if (!BuildFabric(*topology,
                         16,
                         8,
                         20,
                         "16 leaves + 4 spines",
                         {{0, "rail0-leaf0", "first leaf"},
                          {7, "rail3-leaf1", "2 x 3 + 1"},
                          {15, "rail7-leaf1", "last leaf"},
                          {16, "spine0", "first spine"},
                          {19, "spine3", "last spine"}},
                         fabric))
        {
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(fabric.GetNHosts(), 128u, "a host per NIC");
        // Every NIC hangs under the leaf GetLeafOfNic names: rail (nic mod 8), leaf
        // (server / 8). NIC 75 = server 9, rail 3: rail3-leaf1.
        NS_TEST_EXPECT_MSG_EQ(topology->GetLeafOfNic(75), 7u, "server 9, rail 3");
        NS_TEST_EXPECT_MSG_EQ(
            MisplacedNics(fabric,
                          *topology,
                          128,
                          [](uint32_t nic) { return (nic % 8) * 2 + (nic / 8) / 8; }),
            0u,
            "every NIC on its rail leaf");
        // Ports: a leaf has 8 NICs + 4 spines = 12, a spine 16 leaves; all ports together are
        // one per host link and two per fabric link: 128 + 2 x 64 = 256.
        uint32_t ports = 0;
        for (uint32_t i = 0; i < fabric.GetNSwitches(); ++i)
        {
            ports += fabric.GetSwitch(i)->GetNPorts();
        }
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitch(0)->GetNPorts(), 12u, "8 down, 4 up");
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitch(16)->GetNPorts(), 16u, "a port per leaf");
        NS_TEST_EXPECT_MSG_EQ(ports, 256u, "128 + 2 x 64");
        Simulator::Destroy();

        // Non-blocking spines by default: 8 ports down x 400 / 400 = 8 spines, 1:1; with
        // 800 Gb/s uplinks, 8 x 400 / 800 = 4 spines, still 1:1.
        topology->SetAttribute("Spines", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(topology->GetSpinesInEffect(), 8u, "8 x 400 / 400");
        NS_TEST_EXPECT_MSG_EQ_TOL(topology->GetOversubscription(), 1.0, 1e-12, "1:1");
        topology->SetAttribute("FabricRate", DataRateValue(DataRate("800Gbps")));
        NS_TEST_EXPECT_MSG_EQ(topology->GetSpinesInEffect(), 4u, "8 x 400 / 800");
        NS_TEST_EXPECT_MSG_EQ(topology->Describe(),
                              "rail-optimized, 16 servers x 8 NICs, 8 rails x 2 leaves, 4 spines, "
                              "hosts 400 Gb/s, fabric 800 Gb/s, 1:1",
                              "two rates");
        // One leaf per rail (ServersPerLeaf 0): 8 leaves, still linked by spines: 16 ports
        // down x 400 / 800 = 8 spines.
        topology->SetAttribute("ServersPerLeaf", UintegerValue(0));
        ExpectCounts(*topology, {{SWITCHES, GpuClusterTopology::LEAF_TIER, 8, "a leaf per rail"}});
        NS_TEST_EXPECT_MSG_EQ(topology->GetSpinesInEffect(), 8u, "16 x 400 / 800");
        // A single rail on a single leaf: no spine, and nothing to oversubscribe.
        topology->SetAttribute("NicsPerServer", UintegerValue(1));
        NS_TEST_EXPECT_MSG_EQ(topology->GetNumberOfSwitches(), 1u, "one switch");
        NS_TEST_EXPECT_MSG_EQ_TOL(topology->GetOversubscription(), 1.0, 1e-12, "one switch");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Leaf-spine: leaves of consecutive NICs (a server's NICs together), a partly used last leaf.
 */
class TopologyLeafSpineTestCase : public TopologyTestCase
{
  public:
    TopologyLeafSpineTestCase()
        : TopologyTestCase("Leaf-spine: leaves of consecutive NICs, counts, partial last leaf")
    {
    }

  private:
    void DoRun() override
    {
        // 5 servers x 8 NICs = 40 NICs, 2 servers per leaf: leaves of 16 ports, ceil(40 / 16)
        // = 3 leaves (the last holds server 4 only); spines for a non-blocking leaf: 16 x 400
        // / 400 = 16. Links: 40 + 3 x 16 = 48 fabric links.
        Ptr<GpuClusterTopology> topology = MakeTopology(GpuClusterTopology::LEAF_SPINE, 2);
        NS_TEST_ASSERT_MSG_EQ(topology->SetCluster(5, 8), "", "valid");
        ExpectCounts(*topology,
                     {{SWITCHES, GpuClusterTopology::LEAF_TIER, 3, "ceil(40 / 16)"},
                      {SWITCHES, GpuClusterTopology::SPINE_TIER, 16, "16 x 400 / 400"},
                      {LINKS, GpuClusterTopology::LEAF_TIER, 40, "40 NICs"},
                      {LINKS, GpuClusterTopology::SPINE_TIER, 48, "3 x 16"}});
        NS_TEST_EXPECT_MSG_EQ(topology->Describe(),
                              "leaf-spine, 5 servers x 8 NICs, 3 leaves of 16 ports, 16 spines, "
                              "400 Gb/s, 1:1",
                              "description");
        // With 4 spines at 800 Gb/s: 16 x 400 / (4 x 800) = 2:1.
        topology->SetAttribute("Spines", UintegerValue(4));
        topology->SetAttribute("FabricRate", DataRateValue(DataRate("800Gbps")));
        NS_TEST_EXPECT_MSG_EQ_TOL(topology->GetOversubscription(), 2.0, 1e-12, "6400 / 3200");

        RoceFabric fabric;
        if (!BuildFabric(*topology,
                         5,
                         8,
                         7,
                         "3 leaves + 4 spines",
                         {{2, "leaf2", "last leaf"}, {3, "spine0", "first spine"}},
                         fabric))
        {
            return;
        }
        // NIC i is on leaf i / 16: servers 0-1 on leaf0, 2-3 on leaf1, 4 on leaf2, which thus
        // has 8 NICs + 4 spines = 12 ports; a full leaf 16 + 4 = 20.
        NS_TEST_EXPECT_MSG_EQ(
            MisplacedNics(fabric, *topology, 40, [](uint32_t nic) { return nic / 16; }),
            0u,
            "NICs fill the leaves in order");
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitch(0)->GetNPorts(), 20u, "full leaf");
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitch(2)->GetNPorts(), 12u, "partly used leaf");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPUs sharing NICs: GPU l of a server uses NIC l x N / G; the inverse queries.
 */
class TopologyNicMappingTestCase : public TestCase
{
  public:
    TopologyNicMappingTestCase()
        : TestCase("GPU to NIC mapping with fewer NICs than GPUs")
    {
    }

  private:
    void DoRun() override
    {
        // 4 servers x 8 GPUs, 2 NICs per server: GPUs 0-3 use NIC 0, GPUs 4-7 NIC 1 (l x 2 / 8).
        Ptr<GpuClusterTopology> topology = MakeTopology(GpuClusterTopology::RAIL_OPTIMIZED);
        topology->SetAttribute("NicsPerServer", UintegerValue(2));
        NS_TEST_ASSERT_MSG_EQ(topology->SetCluster(4, 8), "", "valid");
        NS_TEST_EXPECT_MSG_EQ(topology->GetNicsPerServerInEffect(), 2u, "2 NICs");
        NS_TEST_EXPECT_MSG_EQ(topology->GetNumberOfNics(), 8u, "4 x 2");
        for (uint32_t l = 0; l < 8; ++l)
        {
            NS_TEST_EXPECT_MSG_EQ(topology->GetNicOfGpu(0, l), (l < 4 ? 0u : 1u), "GPU " << l);
        }
        // Server 3: NICs 6 and 7.
        NS_TEST_EXPECT_MSG_EQ(topology->GetNicOfGpu(3, 3), 6u, "3 x 2 + 0");
        NS_TEST_EXPECT_MSG_EQ(topology->GetNicOfGpu(3, 5), 7u, "3 x 2 + 1");
        NS_TEST_EXPECT_MSG_EQ(topology->GetServerOfNic(7), 3u, "7 / 2");
        NS_TEST_EXPECT_MSG_EQ(topology->GetRailOfNic(7), 1u, "7 mod 2");
        NS_TEST_EXPECT_MSG_EQ(topology->GetPlaneOfNic(7), 0u, "one plane");
        // 2 rails x 1 leaf (all 4 servers), 2 leaves in all, so spines: 4 x 400 / 400 = 4.
        NS_TEST_EXPECT_MSG_EQ(topology->Describe(),
                              "rail-optimized, 4 servers x 2 NICs (8 GPUs), 2 rails x 1 leaf, "
                              "4 spines, 400 Gb/s, 1:1",
                              "description");
        // A NIC per GPU (the default): GPU l uses NIC l.
        topology->SetAttribute("NicsPerServer", UintegerValue(0));
        NS_TEST_EXPECT_MSG_EQ(topology->GetNicOfGpu(3, 5), 29u, "3 x 8 + 5");
        // 4 NICs for 8 GPUs: GPUs 2l and 2l + 1 share NIC l.
        topology->SetAttribute("NicsPerServer", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(topology->GetNicOfGpu(1, 5), 6u, "1 x 4 + 5 x 4 / 8");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Fat-trees of k = 4 and 8: switch, link and port counts, names, the smallest k chosen, the
 * (k/2)^2 equal-cost paths between pods.
 */
class TopologyFatTreeTestCase : public TopologyTestCase
{
  public:
    TopologyFatTreeTestCase()
        : TopologyTestCase("Fat-tree k=4 and k=8: counts, names, automatic k, paths between pods")
    {
    }

  private:
    void DoRun() override
    {
        // k = 4 holds k^3/4 = 16 NICs: 2 servers x 8. Switches: 4 pods x (2 edge + 2
        // aggregation) = 16, plus (4/2)^2 = 4 cores: 20. Links: 16 NICs; edge-aggregation 4
        // pods x 2 x 2 = 16; aggregation-core 4 pods x 2 x 2 = 16.
        Ptr<GpuClusterTopology> topology = MakeTopology(GpuClusterTopology::FAT_TREE);
        topology->SetAttribute("FatTreeK", UintegerValue(4));
        NS_TEST_ASSERT_MSG_EQ(topology->SetCluster(2, 8), "", "16 NICs fit");
        ExpectCounts(*topology,
                     {{SWITCHES, GpuClusterTopology::LEAF_TIER, 8, "edges"},
                      {SWITCHES, GpuClusterTopology::SPINE_TIER, 8, "aggregation"},
                      {SWITCHES, GpuClusterTopology::CORE_TIER, 4, "cores"},
                      {LINKS, GpuClusterTopology::SPINE_TIER, 16, "k^3 / 4"},
                      {LINKS, GpuClusterTopology::CORE_TIER, 16, "k^3 / 4"}});
        NS_TEST_EXPECT_MSG_EQ(topology->GetNumberOfSwitches(), 20u, "5 k^2 / 4");
        NS_TEST_EXPECT_MSG_EQ(topology->Describe(),
                              "fat-tree k=4, 2 servers x 8 NICs, 8 edge, 8 aggregation, 4 core, "
                              "400 Gb/s, 1:1",
                              "description");
        {
            RoceFabric fabric;
            if (!BuildFabric(*topology,
                             2,
                             8,
                             20,
                             "20 switches",
                             {{0, "pod0-edge0", "first edge"},
                              {7, "pod3-edge1", "last edge"},
                              {8, "pod0-agg0", "first aggregation"},
                              {15, "pod3-agg1", "last aggregation"},
                              {16, "core0", "first core"},
                              {19, "core3", "last core"}},
                             fabric))
            {
                return;
            }
            // Every switch of a full k = 4 tree has k = 4 ports.
            uint32_t wrong = 0;
            for (uint32_t i = 0; i < 20; ++i)
            {
                wrong += fabric.GetSwitch(i)->GetNPorts() != 4 ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(wrong, 0u, "k ports everywhere");
            // NIC 5 is on edge 5 / 2 = 2: pod1-edge0.
            NS_TEST_EXPECT_MSG_EQ(SwitchIndexOf(fabric, PeerOf(fabric.GetHostDevice(5))),
                                  2u,
                                  "edge of NIC 5");
            // NIC 0 (pod 0) to NIC 15 (pod 3): edge, 2 aggregation, 2 cores each, aggregation,
            // edge: (k/2)^2 = 4 paths of 6 links; NIC 0 to NIC 2 (pod 0, other edge): through
            // one of 2 aggregation switches, 4 links; NIC 0 to NIC 1: same edge, 2 links.
            uint32_t hops = 0;
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 15, hops), uint64_t{4}, "(k/2)^2");
            NS_TEST_EXPECT_MSG_EQ(hops, 6u, "across the core");
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 2, hops), uint64_t{2}, "k/2");
            NS_TEST_EXPECT_MSG_EQ(hops, 4u, "inside the pod");
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 1, hops), uint64_t{1}, "same edge");
            NS_TEST_EXPECT_MSG_EQ(hops, 2u, "through the edge");
            Simulator::Destroy();
        }

        // 16 servers x 8 = 128 NICs: k = 4 holds 16, k = 6 holds 54, k = 8 holds 128, so
        // FatTreeK 0 picks 8: 8 pods x (4 + 4) = 64 + (8/2)^2 = 16 cores = 80 switches.
        topology->SetAttribute("FatTreeK", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(topology->Check(16, 8),
                              "fat_tree_k: 4 holds 16 NICs, the cluster has 128",
                              "too small");
        topology->SetAttribute("FatTreeK", UintegerValue(0));
        NS_TEST_ASSERT_MSG_EQ(topology->SetCluster(16, 8), "", "automatic k");
        NS_TEST_EXPECT_MSG_EQ(topology->GetFatTreeKInEffect(), 8u, "smallest k");
        NS_TEST_EXPECT_MSG_EQ(topology->GetNumberOfSwitches(), 80u, "64 + 16");
        RoceTopologyHelper helper;
        RoceFabric fabric = topology->Build(helper, 16, 8);
        NS_TEST_ASSERT_MSG_EQ(fabric.GetNHosts(), 128u, "128 NICs");
        NS_TEST_ASSERT_MSG_EQ(fabric.GetNSwitches(), 80u, "80 switches");
        // NIC 0 (pod 0) to NIC 127 (pod 7): (8/2)^2 = 16 paths of 6 links.
        uint32_t hops = 0;
        NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 127, hops), uint64_t{16}, "(k/2)^2");
        NS_TEST_EXPECT_MSG_EQ(hops, 6u, "across the core");
        Simulator::Destroy();

        // Oversubscription: 400 Gb/s hosts, 400 fabric, 200 core: max(400/400, 400/200) = 2.
        topology->SetAttribute("CoreRate", DataRateValue(DataRate("200Gbps")));
        NS_TEST_EXPECT_MSG_EQ_TOL(topology->GetOversubscription(), 2.0, 1e-12, "core 2:1");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Multi-plane: independent fabrics per plane; no route between planes (a frame sent there is
 * dropped as no-route), routes inside a plane.
 */
class TopologyPlanesTestCase : public TopologyTestCase
{
  public:
    TopologyPlanesTestCase()
        : TopologyTestCase("Multi-plane: a fabric per plane, no route between planes")
    {
    }

  private:
    void DoRun() override
    {
        // 4 servers x 8 NICs, 2 planes: plane p holds rails p, p + 2, p + 4, p + 6 (4 rails);
        // 2 servers per leaf: 2 leaves per rail, 8 leaves per plane; spines per plane for a
        // non-blocking leaf: 2 x 400 / 400 = 2. Totals: 16 leaves, 4 spines, 32 host links,
        // 2 x 8 x 2 = 32 fabric links.
        Ptr<GpuClusterTopology> topology = MakeTopology(GpuClusterTopology::RAIL_OPTIMIZED, 2);
        topology->SetAttribute("Planes", UintegerValue(2));
        NS_TEST_ASSERT_MSG_EQ(topology->SetCluster(4, 8), "", "valid");
        ExpectCounts(
            *topology,
            {{SWITCHES, GpuClusterTopology::LEAF_TIER, 16, "2 planes x 4 rails x 2 leaves"},
             {SWITCHES, GpuClusterTopology::SPINE_TIER, 4, "2 planes x 2 spines"},
             {LINKS, GpuClusterTopology::SPINE_TIER, 32, "2 x 8 x 2"}});
        NS_TEST_EXPECT_MSG_EQ(topology->GetPlaneOfNic(13), 1u, "rail 5 is in plane 1");
        NS_TEST_EXPECT_MSG_EQ(topology->GetPlaneOfNic(14), 0u, "rail 6 is in plane 0");
        NS_TEST_EXPECT_MSG_EQ(topology->Describe(),
                              "rail-optimized, 4 servers x 8 NICs, 2 planes x (4 rails x 2 "
                              "leaves, 2 spines), 400 Gb/s, 1:1",
                              "description");

        // Plane 0: switches 0-9 (rails 0, 2, 4, 6 x 2 leaves, then 2 spines); plane 1: 10-19.
        RoceFabric fabric;
        if (!BuildFabric(*topology,
                         4,
                         8,
                         20,
                         "2 x (8 + 2)",
                         {{0, "plane0-rail0-leaf0", "first"},
                          {3, "plane0-rail2-leaf1", "rail 2"},
                          {9, "plane0-spine1", "plane 0 spine"},
                          {10, "plane1-rail1-leaf0", "plane 1"},
                          {19, "plane1-spine1", "last"}},
                         fabric))
        {
            return;
        }
        // NIC 13 = server 1, rail 5 (plane 1, third rail of the plane): leaf 2 x 2 + 0 of
        // plane 1, switch 10 + 4 = 14, plane1-rail5-leaf0.
        NS_TEST_EXPECT_MSG_EQ(topology->GetLeafOfNic(13), 14u, "leaf of NIC 13");
        NS_TEST_EXPECT_MSG_EQ(SwitchIndexOf(fabric, PeerOf(fabric.GetHostDevice(13))),
                              14u,
                              "linked to it");
        NS_TEST_EXPECT_MSG_EQ(fabric.GetSwitchName(14), "plane1-rail5-leaf0", "its name");

        // No switch of plane 0 routes to a NIC of plane 1 and the other way round; every
        // switch routes to every NIC of its own plane.
        uint32_t crossRoutes = 0;
        uint32_t missingRoutes = 0;
        for (uint32_t i = 0; i < 20; ++i)
        {
            uint32_t plane = i / 10;
            for (uint32_t nic = 0; nic < 32; ++nic)
            {
                bool routed = !fabric.GetSwitch(i)->GetRoute(fabric.GetHostAddress(nic)).empty();
                bool samePlane = topology->GetPlaneOfNic(nic) == plane;
                crossRoutes += (routed && !samePlane) ? 1 : 0;
                missingRoutes += (!routed && samePlane) ? 1 : 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(crossRoutes, 0u, "no route into another plane");
        NS_TEST_EXPECT_MSG_EQ(missingRoutes, 0u, "routes to every NIC of the plane");
        // Inside plane 1: NIC 1 (server 0, rail 1) to NIC 15 (server 1, rail 7): leaf, one of
        // 2 spines, leaf: 2 paths of 4 links.
        uint32_t hops = 0;
        NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 1, 15, hops), uint64_t{2}, "2 spines");
        NS_TEST_EXPECT_MSG_EQ(hops, 4u, "leaf-spine-leaf");

        // A frame from NIC 0 (plane 0) to NIC 1 (plane 1) is dropped by NIC 0's leaf for want
        // of a route; one from NIC 0 to NIC 2 (plane 0, rail 2) arrives.
        Arrivals at1;
        Arrivals at2;
        fabric.GetHostDevice(1)->TraceConnectWithoutContext("PhyRxEnd",
                                                            MakeCallback(&Arrivals::Rx, &at1));
        fabric.GetHostDevice(2)->TraceConnectWithoutContext("PhyRxEnd",
                                                            MakeCallback(&Arrivals::Rx, &at2));
        SendOnePacket(fabric, 0, 1, 930);
        SendOnePacket(fabric, 0, 2, 930);
        Simulator::Run();
        Ptr<RoceSwitch> leaf = fabric.GetSwitch(topology->GetLeafOfNic(0));
        NS_TEST_EXPECT_MSG_EQ(at1.frames, uint64_t{0}, "nothing reaches the other plane");
        NS_TEST_EXPECT_MSG_EQ(leaf->GetDrops(0, 3, RoceSwitch::DROP_NO_ROUTE),
                              uint64_t{1},
                              "dropped as no-route on the leaf port of NIC 0");
        NS_TEST_EXPECT_MSG_EQ(at2.frames, uint64_t{1}, "same plane: delivered");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Frames cross exactly the switches of their path: inside a rail leaf (2 links), and
 * leaf-spine-leaf between rails and between leaves of a rail (4 links), with store-and-forward
 * arrival times.
 */
class TopologyDeliveryTestCase : public TestCase
{
  public:
    TopologyDeliveryTestCase()
        : TestCase("Rail-optimized delivery: 2 links in a rail leaf, 4 across rails")
    {
    }

  private:
    /**
     * Send one packet from one NIC to another on a fresh fabric.
     * @param from sending NIC.
     * @param to receiving NIC.
     * @param[out] frames frames that arrived at @p to.
     * @return the arrival time of the last frame at @p to.
     */
    Time SendAndTime(uint32_t from, uint32_t to, uint64_t& frames)
    {
        // 16 servers x 8 GPUs, 8 servers per rail leaf, 4 spines; host links 1 us, fabric
        // links 2 us, so that the time tells which links a frame took.
        Ptr<GpuClusterTopology> topology = MakeTopology(GpuClusterTopology::RAIL_OPTIMIZED, 8, 4);
        topology->SetAttribute("FabricDelay", TimeValue(MicroSeconds(2)));
        RoceTopologyHelper helper;
        RoceFabric fabric = topology->Build(helper, 16, 8);
        Arrivals arrivals;
        fabric.GetHostDevice(to)->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeCallback(&Arrivals::Rx, &arrivals));
        SendOnePacket(fabric, from, to, 930);
        Simulator::Run();
        Simulator::Destroy();
        frames = arrivals.frames;
        return arrivals.last;
    }

    void DoRun() override
    {
        // One packet with a 930-byte payload: frame 14 + 20 + 8 + 12 + 930 + 4 = 988 bytes,
        // on the wire with preamble and FCS (8 + 988 + 4) x 8 = 8000 bits: 20 ns at 400 Gb/s.
        uint64_t frames = 0;
        // NIC 3 (server 0, rail 3) to NIC 11 (server 1, rail 3): both under rail3-leaf0; two
        // host links: 2 x (20 ns + 1 us) = 2040 ns.
        Time sameLeaf = SendAndTime(3, 11, frames);
        NS_TEST_EXPECT_MSG_EQ(frames, uint64_t{1}, "delivered in the rail leaf");
        NS_TEST_EXPECT_MSG_EQ(sameLeaf, NanoSeconds(2040), "2 x (20 + 1000) ns");
        // NIC 3 to NIC 12 (server 1, rail 4): rail3-leaf0, a spine, rail4-leaf0: two host
        // links and two fabric links: 4 x 20 + 2 x 1000 + 2 x 2000 = 6080 ns.
        Time crossRail = SendAndTime(3, 12, frames);
        NS_TEST_EXPECT_MSG_EQ(frames, uint64_t{1}, "delivered across rails");
        NS_TEST_EXPECT_MSG_EQ(crossRail, NanoSeconds(6080), "4 x 20 + 2 x 1000 + 2 x 2000 ns");
        // NIC 3 to NIC 67 (server 8, rail 3): rail3-leaf0 to rail3-leaf1 through a spine,
        // 6080 ns as well.
        Time crossLeaf = SendAndTime(3, 67, frames);
        NS_TEST_EXPECT_MSG_EQ(frames, uint64_t{1}, "delivered across leaves of a rail");
        NS_TEST_EXPECT_MSG_EQ(crossLeaf, NanoSeconds(6080), "leaf-spine-leaf");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Between two leaves there are as many equal-cost paths as spines.
 */
class TopologyEqualCostPathsTestCase : public TestCase
{
  public:
    TopologyEqualCostPathsTestCase()
        : TestCase("Equal-cost paths between two leaves: one per spine")
    {
    }

  private:
    void DoRun() override
    {
        for (uint32_t spines : {1u, 3u, 4u})
        {
            // Rail-optimized, 4 servers x 4 GPUs, 2 servers per leaf: NIC 0 (rail0-leaf0) to
            // NIC 5 (server 1, rail 1, rail1-leaf0) and to NIC 8 (server 2, rail 0,
            // rail0-leaf1): one path per spine, 4 links each.
            Ptr<GpuClusterTopology> topology =
                MakeTopology(GpuClusterTopology::RAIL_OPTIMIZED, 2, spines);
            RoceTopologyHelper helper;
            RoceFabric fabric = topology->Build(helper, 4, 4);
            uint32_t hops = 0;
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 5, hops),
                                  uint64_t{spines},
                                  "across rails, " << spines << " spines");
            NS_TEST_EXPECT_MSG_EQ(hops, 4u, "leaf-spine-leaf");
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 8, hops),
                                  uint64_t{spines},
                                  "across leaves of a rail, " << spines << " spines");
            // NIC 0 to NIC 4 (server 1, rail 0): the same leaf, one path of 2 links.
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(fabric, 0, 4, hops), uint64_t{1}, "same leaf");
            NS_TEST_EXPECT_MSG_EQ(hops, 2u, "through the leaf");
            Simulator::Destroy();

            // Leaf-spine, 4 servers x 4 NICs, 1 server per leaf: NIC 0 (leaf0) to NIC 15
            // (leaf3).
            topology->SetAttribute("Kind", EnumValue(GpuClusterTopology::LEAF_SPINE));
            topology->SetAttribute("ServersPerLeaf", UintegerValue(1));
            RoceFabric leafSpine = topology->Build(helper, 4, 4);
            NS_TEST_EXPECT_MSG_EQ(PathsBetween(leafSpine, 0, 15, hops),
                                  uint64_t{spines},
                                  "leaf-spine, " << spines << " spines");
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Check names the YAML key and the values of the first problem; kind names; the default
 * servers per leaf of a scenario.
 */
class TopologyCheckTestCase : public TestCase
{
  public:
    TopologyCheckTestCase()
        : TestCase("Check messages, kind names, default servers per leaf")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<GpuClusterTopology> t = CreateObject<GpuClusterTopology>();
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8), "", "the defaults fit");
        NS_TEST_EXPECT_MSG_EQ(t->HasCluster(), false, "nothing recorded by Check");
        NS_TEST_EXPECT_MSG_EQ(t->Check(0, 8), "the cluster has no server", "no server");
        NS_TEST_EXPECT_MSG_EQ(t->Check(4, 0), "gpus_per_server: 0 must be at least 1", "no GPU");
        t->SetAttribute("NicsPerServer", UintegerValue(3));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8),
                              "nics_per_server: 3 does not divide gpus_per_server 8",
                              "3 NICs");
        NS_TEST_EXPECT_MSG_EQ(t->SetCluster(16, 8),
                              "nics_per_server: 3 does not divide gpus_per_server 8",
                              "SetCluster reports it");
        NS_TEST_EXPECT_MSG_EQ(t->HasCluster(), false, "and records nothing");
        t->SetAttribute("NicsPerServer", UintegerValue(16));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8),
                              "nics_per_server: 16 does not divide gpus_per_server 8",
                              "more NICs than GPUs");
        t->SetAttribute("NicsPerServer", UintegerValue(0));
        t->SetAttribute("Planes", UintegerValue(3));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8),
                              "planes: 3 does not divide 8 NICs per server",
                              "3 planes");
        t->SetAttribute("NicsPerServer", UintegerValue(2));
        t->SetAttribute("Planes", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8),
                              "planes: 4 does not divide 2 NICs per server",
                              "4 planes, 2 NICs");
        t->SetAttribute("NicsPerServer", UintegerValue(0));
        t->SetAttribute("Planes", UintegerValue(1));
        t->SetAttribute("HostRate", DataRateValue(DataRate(uint64_t{0})));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8), "host_rate: 0 must be positive", "rate");
        t->SetAttribute("HostRate", DataRateValue(DataRate("400Gbps")));
        t->SetAttribute("FabricDelay", TimeValue(MicroSeconds(-1)));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8), "fabric_delay: -1000ns is negative", "delay");
        t->SetAttribute("FabricDelay", TimeValue(MicroSeconds(1)));

        // Fat-tree sizes: k^3/4 NICs per plane.
        t->SetAttribute("Kind", EnumValue(GpuClusterTopology::FAT_TREE));
        t->SetAttribute("FatTreeK", UintegerValue(5));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8),
                              "fat_tree_k: 5 must be even and at least 2",
                              "odd k");
        t->SetAttribute("FatTreeK", UintegerValue(1));
        NS_TEST_EXPECT_MSG_EQ(t->Check(1, 1), "fat_tree_k: 1 must be even and at least 2", "1");
        t->SetAttribute("FatTreeK", UintegerValue(4));
        NS_TEST_EXPECT_MSG_EQ(t->Check(16, 8),
                              "fat_tree_k: 4 holds 16 NICs, the cluster has 128",
                              "too small");
        NS_TEST_EXPECT_MSG_EQ(t->Check(2, 8), "", "16 NICs fit k = 4");
        // 2 planes of 8 servers x 4 NICs = 32 NICs each.
        t->SetAttribute("Planes", UintegerValue(2));
        NS_TEST_EXPECT_MSG_EQ(t->Check(8, 8),
                              "fat_tree_k: 4 holds 16 NICs, each of the 2 planes has 32",
                              "per plane");
        NS_TEST_EXPECT_MSG_EQ(t->Check(4, 8), "", "16 NICs per plane fit");

        // Kind names, both ways; the attribute takes the same names.
        GpuClusterTopology::Kind kind = GpuClusterTopology::LEAF_SPINE;
        NS_TEST_EXPECT_MSG_EQ(GpuClusterTopology::ParseKind("fat-tree", kind), "", "known");
        NS_TEST_EXPECT_MSG_EQ(kind, GpuClusterTopology::FAT_TREE, "fat-tree");
        NS_TEST_EXPECT_MSG_EQ(GpuClusterTopology::ParseKind("torus", kind),
                              "unknown kind 'torus' (known: leaf-spine, rail-optimized, "
                              "fat-tree)",
                              "unknown");
        NS_TEST_EXPECT_MSG_EQ(GpuClusterTopology::GetKindName(GpuClusterTopology::LEAF_SPINE),
                              "leaf-spine",
                              "name");
        NS_TEST_EXPECT_MSG_EQ(t->SetAttributeFailSafe("Kind", StringValue("leaf-spine")),
                              true,
                              "the attribute takes the YAML name");
        t->SetAttribute("Planes", UintegerValue(1));
        NS_TEST_ASSERT_MSG_EQ(t->SetCluster(2, 8), "", "valid");
        NS_TEST_EXPECT_MSG_EQ(t->Describe().substr(0, 11), "leaf-spine,", "leaf-spine set");

        // A scenario's default: one leaf per rail up to 64 servers, then leaves of 64.
        NS_TEST_EXPECT_MSG_EQ(GpuClusterTopology::GetDefaultServersPerLeaf(64), 0u, "fits");
        NS_TEST_EXPECT_MSG_EQ(GpuClusterTopology::GetDefaultServersPerLeaf(65), 64u, "64");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The GpuClusterTopology test suite.
 */
class GpuClusterTopologyTestSuite : public TestSuite
{
  public:
    /** Register the test cases. */
    GpuClusterTopologyTestSuite()
        : TestSuite("llm-fabric-gpu-cluster-topology", Type::UNIT)
    {
        AddTestCase(new TopologyRailOptimizedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyLeafSpineTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyNicMappingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyFatTreeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyPlanesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyDeliveryTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyEqualCostPathsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TopologyCheckTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance registering the suite.
static GpuClusterTopologyTestSuite g_gpuClusterTopologyTestSuite;

} // namespace tests
} // namespace llmfabric
