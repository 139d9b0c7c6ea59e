/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * Tests of the load-balancing extension point: EcmpLoadBalancer picks what the seeded 5-tuple
 * hash picks, SprayLoadBalancer spreads one flow's packets evenly, and RoceTopologyHelper installs
 * any LoadBalancer subclass by name, one per switch, with each switch's own seed; a balancer
 * that exists only in this file proves the last point.
 */

#include "fabric-test-util.h"

#include "ns3/ecmp-hash.h"
#include "ns3/ecmp-load-balancer.h"
#include "ns3/flow-five-tuple.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/load-balancer.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/spray-load-balancer.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * A load balancer that exists only in the tests: always the last equal-cost port, counting
 * how often it is asked.
 */
class LastPortLoadBalancer : public LoadBalancer
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("llmfabric::tests::LastPortLoadBalancer")
                                .SetParent<LoadBalancer>()
                                .SetGroupName("LlmFabric")
                                .AddConstructor<LastPortLoadBalancer>();
        return tid;
    }

    uint32_t SelectPort(const RoceSwitch& sw, const PortChoice& choice) override
    {
        ++m_calls;
        return choice.ports.back();
    }

    /// @return how many frames it placed.
    uint64_t GetCalls() const
    {
        return m_calls;
    }

  private:
    uint64_t m_calls{0}; //!< SelectPort calls
};

NS_OBJECT_ENSURE_REGISTERED(LastPortLoadBalancer);

/**
 * @ingroup llm-fabric-tests
 * EcmpLoadBalancer picks ports[EcmpHash::Select(EcmpHash::Hash(tuple, Seed), n)]: the function
 * RoceSwitch applied before load balancers were separate (RoceSwitch::SelectEcmpPort with
 * EcmpSeed), so forwarding choices are unchanged; SelectPortRaw, the switch's call with the
 * tuple as plain numbers, picks the same port.
 */
class EcmpLoadBalancerTestCase : public TestCase
{
  public:
    EcmpLoadBalancerTestCase()
        : TestCase("EcmpLoadBalancer picks EcmpHash::Select(EcmpHash::Hash(tuple, seed), n)")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
        NS_TEST_ASSERT_MSG_NE(DynamicCast<EcmpLoadBalancer>(sw->GetLoadBalancer()),
                              nullptr,
                              "a switch balances by ECMP unless told otherwise");
        Ptr<EcmpLoadBalancer> ecmp = CreateObject<EcmpLoadBalancer>();
        Ptr<Packet> frame = MakeFrame(100, 26);
        // Port lists in no particular order and of several sizes: the balancer returns an
        // element of the list, at the index the hash selects.
        const std::vector<std::vector<uint32_t>> portLists = {{0, 1}, {3, 1, 2}, {5, 6, 7, 8}};
        const std::vector<uint32_t> seeds = {0, 1, 0x9E3779B9U, 0xDEADBEEFU};
        uint32_t checked = 0;
        for (uint32_t seed : seeds)
        {
            ecmp->SetAttribute("Seed", UintegerValue(seed));
            for (uint32_t f = 0; f < 50; ++f)
            {
                FlowFiveTuple tuple(Ipv4Address(0x0A000001U + f % 7),
                                    Ipv4Address(0x0A000010U + f % 5),
                                    static_cast<uint16_t>(0xC000 + 37 * f),
                                    4791,
                                    FlowFiveTuple::PROTOCOL_UDP);
                for (const auto& ports : portLists)
                {
                    auto n = static_cast<uint32_t>(ports.size());
                    uint32_t expected = ports[EcmpHash::Select(EcmpHash::Hash(tuple, seed), n)];
                    uint32_t chosen = ecmp->SelectPort(*sw, {ports, tuple, 3, frame});
                    NS_TEST_ASSERT_MSG_EQ(chosen,
                                          expected,
                                          "seed " << seed << ", flow " << f << ", " << n
                                                  << " ports");
                    // Per flow: asking again gives the same port.
                    NS_TEST_ASSERT_MSG_EQ(ecmp->SelectPort(*sw, {ports, tuple, 3, frame}),
                                          chosen,
                                          "a flow keeps its port");
                    EcmpHash::RawTuple raw{tuple.source.Get(),
                                           tuple.destination.Get(),
                                           tuple.sourcePort,
                                           tuple.destinationPort,
                                           tuple.protocol};
                    NS_TEST_ASSERT_MSG_EQ(ecmp->SelectPortRaw(*sw, ports, raw, 3, frame),
                                          chosen,
                                          "the switch's call, with plain numbers, agrees");
                    ++checked;
                }
            }
        }
        // 4 seeds x 50 flows x 3 port lists.
        NS_TEST_EXPECT_MSG_EQ(checked, 600, "every combination checked");
        NS_TEST_EXPECT_MSG_EQ(ecmp->AssignStreams(5), 0, "ECMP draws no random numbers");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * SprayLoadBalancer spreads the packets of one flow evenly over the equal-cost ports.
 */
class SprayLoadBalancerTestCase : public TestCase
{
  public:
    SprayLoadBalancerTestCase()
        : TestCase("SprayLoadBalancer spreads one flow's packets evenly over 4 ports")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
        Ptr<SprayLoadBalancer> spray = CreateObject<SprayLoadBalancer>();
        NS_TEST_ASSERT_MSG_EQ(spray->AssignStreams(7), 1, "one stream");
        Ptr<Packet> frame = MakeFrame(100, 26);
        FlowFiveTuple tuple(Ipv4Address("10.0.0.1"),
                            Ipv4Address("10.0.0.2"),
                            0xC000,
                            4791,
                            FlowFiveTuple::PROTOCOL_UDP);
        const std::vector<uint32_t> ports = {10, 11, 12, 13};
        const uint32_t packets = 4000;
        std::map<uint32_t, uint32_t> counts;
        for (uint32_t i = 0; i < packets; ++i)
        {
            ++counts[spray->SelectPort(*sw, {ports, tuple, 3, frame})];
        }
        NS_TEST_ASSERT_MSG_EQ(counts.size(), 4, "one flow reaches all four ports");
        // Each port's count is Binomial(n = 4000, p = 1/4): mean n p = 1000, standard deviation
        // sqrt(n p (1 - p)) = sqrt(750) = 27.4. Five standard deviations, 137, bound it: a
        // correct uniform choice falls outside with probability below 6e-7 per port (normal
        // tail), 2.3e-6 for the four; the stream is fixed, so the outcome is reproducible.
        const double mean = packets / 4.0;
        const double bound = 5 * std::sqrt(packets * 0.25 * 0.75);
        for (const auto& [port, count] : counts)
        {
            NS_TEST_EXPECT_MSG_EQ((port >= 10 && port <= 13), true, "an equal-cost port");
            NS_TEST_EXPECT_MSG_LT(std::abs(count - mean),
                                  bound,
                                  "port " << port << " got " << count << " of " << packets);
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * RoceTopologyHelper::SetLoadBalancer installs a LoadBalancer subclass named by alias or TypeId
 * name, a new one per switch, keeps each switch's ECMP seed, and reports unknown names.
 */
class LoadBalancerHelperTestCase : public TestCase
{
  public:
    LoadBalancerHelperTestCase()
        : TestCase("The topology helper installs load balancers by name, one per switch")
    {
    }

  private:
    /**
     * @param fabric a fabric.
     * @return whether its switches have pairwise distinct balancer objects.
     */
    static bool Distinct(const RoceFabric& fabric)
    {
        std::set<LoadBalancer*> seen;
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            seen.insert(PeekPointer(fabric.GetSwitch(s)->GetLoadBalancer()));
        }
        return seen.size() == fabric.GetNSwitches();
    }

    void DoRun() override
    {
        RoceTopologyHelper::LeafSpineConfig shape = LeafSpineShape(1, 2, 2);
        {
            // No SetLoadBalancer: every switch keeps its default ECMP balancer, whose Seed the
            // helper sets to base + 0x9E3779B9 x (index + 1) modulo 2^32, as it set EcmpSeed.
            RoceTopologyHelper topo;
            topo.SetEcmpSeedBase(5);
            RoceFabric fabric = topo.BuildLeafSpine(shape);
            NS_TEST_ASSERT_MSG_EQ(fabric.GetNSwitches(), 4, "2 leaves + 2 spines");
            NS_TEST_EXPECT_MSG_EQ(Distinct(fabric), true, "one balancer per switch");
            for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
            {
                UintegerValue seed;
                fabric.GetSwitch(s)->GetLoadBalancer()->GetAttribute("Seed", seed);
                NS_TEST_EXPECT_MSG_EQ(seed.Get(),
                                      static_cast<uint32_t>(5U + 0x9E3779B9U * (s + 1)),
                                      "switch " << s << " seed");
            }
            Simulator::Destroy();
        }
        for (const std::string name : {"ecmp", "ns3::EcmpLoadBalancer", "EcmpLoadBalancer"})
        {
            // The same by name, with a Seed that the per-switch seed overrides.
            RoceTopologyHelper topo;
            NS_TEST_ASSERT_MSG_EQ(topo.SetLoadBalancer(name, "Seed", UintegerValue(77)),
                                  "",
                                  name << " is a load balancer");
            RoceFabric fabric = topo.BuildLeafSpine(shape);
            NS_TEST_EXPECT_MSG_EQ(Distinct(fabric), true, "one balancer per switch");
            UintegerValue seed;
            fabric.GetSwitch(1)->GetLoadBalancer()->GetAttribute("Seed", seed);
            NS_TEST_EXPECT_MSG_EQ(seed.Get(), static_cast<uint32_t>(0x9E3779B9U * 2), name);
            Simulator::Destroy();
        }
        {
            RoceTopologyHelper topo;
            NS_TEST_ASSERT_MSG_EQ(topo.SetLoadBalancer("spray"), "", "spray is known");
            RoceFabric fabric = topo.BuildLeafSpine(shape);
            NS_TEST_EXPECT_MSG_EQ(Distinct(fabric), true, "one balancer per switch");
            for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
            {
                NS_TEST_EXPECT_MSG_NE(
                    DynamicCast<SprayLoadBalancer>(fabric.GetSwitch(s)->GetLoadBalancer()),
                    nullptr,
                    "switch " << s << " sprays");
            }
            Simulator::Destroy();
        }
        {
            RoceTopologyHelper topo;
            std::string problem = topo.SetLoadBalancer("nope");
            NS_TEST_EXPECT_MSG_EQ(problem.rfind("unknown ns3::LoadBalancer 'nope' (known: ", 0),
                                  0,
                                  "an unknown name is reported: " << problem);
            NS_TEST_EXPECT_MSG_NE(problem.find("ecmp, "), std::string::npos, "lists ecmp");
            NS_TEST_EXPECT_MSG_NE(problem.find("spray, "), std::string::npos, "lists spray");
            // An egress stage is not a load balancer.
            NS_TEST_EXPECT_MSG_NE(topo.SetLoadBalancer("ecn"), "", "ecn is not a balancer");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A LoadBalancer defined only in this file, installed through the helper by TypeId name,
 * forwards every packet of a leaf: the extension point needs no change to the switch.
 */
class LoadBalancerSubclassTestCase : public TestCase
{
  public:
    LoadBalancerSubclassTestCase()
        : TestCase("A test-only LoadBalancer subclass, installed by TypeId name, forwards")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        NS_TEST_ASSERT_MSG_EQ(topo.SetLoadBalancer("llmfabric::tests::LastPortLoadBalancer"),
                              "",
                              "a subclass defined in a test is found by its TypeId name");
        RoceTopologyHelper::LeafSpineConfig shape = LeafSpineShape(1, 2, 3);
        RoceFabric fabric = topo.BuildLeafSpine(shape);
        Ptr<RoceSwitch> leaf0 = fabric.GetSwitch(0);
        std::vector<uint32_t> up = leaf0->GetRoute(fabric.GetHostAddress(1));
        NS_TEST_ASSERT_MSG_EQ(up.size(), 3, "three uplinks to the other leaf");
        const uint64_t packets = 20;
        AddConstantRateSource(fabric, 0, 1, DataRate("10Gbps"), packets, 930, 0xC000);
        Simulator::Run();
        Ptr<LastPortLoadBalancer> lb = DynamicCast<LastPortLoadBalancer>(leaf0->GetLoadBalancer());
        NS_TEST_ASSERT_MSG_NE(lb, nullptr, "leaf0 holds the test balancer");
        // Only leaf0 has a choice (three uplinks); the spine and leaf1 have one port each to
        // host 1, which the switch takes without asking.
        NS_TEST_EXPECT_MSG_EQ(lb->GetCalls(), packets, "asked once per packet");
        for (uint32_t p : up)
        {
            uint64_t sent = leaf0->GetPort(p)->GetCounters(3).txFrames;
            NS_TEST_EXPECT_MSG_EQ(sent, (p == up.back() ? packets : 0), "uplink " << p);
        }
        NS_TEST_EXPECT_MSG_EQ(fabric.GetHostDevice(1)->GetCounters(3).rxFrames,
                              packets,
                              "every packet arrives");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The load-balancing extension point.
 */
class LoadBalancerTestSuite : public TestSuite
{
  public:
    LoadBalancerTestSuite()
        : TestSuite("llm-fabric-load-balancer", Type::UNIT)
    {
        AddTestCase(new EcmpLoadBalancerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new SprayLoadBalancerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new LoadBalancerHelperTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new LoadBalancerSubclassTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static LoadBalancerTestSuite g_loadBalancerTestSuite;

} // namespace tests
} // namespace llmfabric
