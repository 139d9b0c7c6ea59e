/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-volume-oracle.h"
#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/collective-runtime.h"
#include "ns3/config.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nvlink-domain.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of CollectiveRuntime: collectives executed packet by packet over the RoCE fabric (and
 * over NVLink domains inside servers) against the analytical model: the bytes each rank sends,
 * the bytes on the wire, the completion time on an idle fabric, and the slowdown behind an
 * oversubscribed tier.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// Wire bytes a data frame adds to its RDMA payload, as counted by a port's txBytes (no FCS,
/// preamble or gap): Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4.
constexpr uint64_t FRAME_OVERHEAD = 58;

/// Records when each rank finished.
class Finish
{
  public:
    /**
     * @param rank the rank that finished.
     */
    void Done(uint32_t rank)
    {
        if (rank >= when.size())
        {
            when.resize(rank + 1);
        }
        when[rank] = Simulator::Now();
        ++count;
    }

    std::vector<Time> when; //!< per rank
    uint32_t count{0};      //!< ranks finished
};

/**
 * @param latency the latency.
 * @param a a NIC.
 * @param b another.
 * @param frameBytes the frame (ignored).
 * @return latency, whatever the NICs.
 */
Time
ConstantLatency(Time latency, uint32_t a, uint32_t b, uint32_t frameBytes)
{
    return latency;
}

/**
 * A runtime over a fabric's hosts, one rank per host and one server per rank (every transfer
 * crosses the network), rank r on host hostOfRank[r].
 * @param fabric the fabric.
 * @param hostOfRank host of each rank.
 * @param latency path latency of the ideal times.
 * @return the runtime.
 */
Ptr<CollectiveRuntime>
MakeRuntime(const RoceFabric& fabric, const std::vector<uint32_t>& hostOfRank, Time latency)
{
    RdmaHelper rdma;
    std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);
    Ptr<CollectiveRuntime> runtime = CreateObject<CollectiveRuntime>();
    runtime->SetAttribute("NicRate", DataRateValue(DataRate("100Gbps")));
    runtime->SetAttribute("Mtu", UintegerValue(4096));
    runtime->SetGpusPerServer(1);
    for (uint32_t r = 0; r < hostOfRank.size(); ++r)
    {
        runtime->SetNic(r, endpoints[hostOfRank[r]], hostOfRank[r]);
    }
    runtime->SetLatencyModel(MakeBoundCallback(&ConstantLatency, latency));
    return runtime;
}

/**
 * Join every rank to one collective at time 0 and run.
 * @param runtime the runtime.
 * @param n ranks.
 * @param kind the collective.
 * @param bytes message size.
 * @param finish receives the completion times.
 * @return the problem Join reported, if any.
 */
std::string
RunCollective(Ptr<CollectiveRuntime> runtime,
              uint32_t n,
              CollectiveKind kind,
              uint64_t bytes,
              Finish& finish)
{
    std::vector<uint32_t> members;
    for (uint32_t r = 0; r < n; ++r)
    {
        members.push_back(r);
    }
    for (uint32_t r = 0; r < n; ++r)
    {
        std::string problem = runtime->Join(r,
                                            members,
                                            0,
                                            {kind, bytes, "test"},
                                            MakeCallback(&Finish::Done, &finish).Bind(r));
        if (!problem.empty())
        {
            return problem;
        }
    }
    Simulator::Run();
    return "";
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A ring all-reduce on an idle star ends within 2 % of the plan's ideal time, and every rank
 * sent exactly the analytical bytes, with exactly the derived wire bytes.
 */
class RuntimeRingIdleTestCase : public TestCase
{
  public:
    RuntimeRingIdleTestCase()
        : TestCase("Ring all-reduce on an idle fabric: analytical bytes, ideal time within 2 %")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(4096));
        const uint32_t n = 4;
        const uint64_t bytes = 8000003; // not a multiple of anything: chunks differ by a byte
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(n, DataRate("100Gbps"), MicroSeconds(1));
        fabric.AssignStreams(1);
        // Path latency of a transfer's last packet: two 1 us links, and the switch stores and
        // forwards the last frame (at most 4096 + 82 bytes: 334.24 ns at 100 Gb/s).
        Time latency = MicroSeconds(2) + NanoSeconds(334);
        Ptr<CollectiveRuntime> runtime = MakeRuntime(fabric, {0, 1, 2, 3}, latency);
        runtime->SetAlgorithm(CollectiveKind::ALL_REDUCE,
                              CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::RING));
        runtime->SetAttribute("Channels", UintegerValue(2));
        CollectivePlan plan;
        NS_TEST_ASSERT_MSG_EQ(
            runtime->PlanFor({0, 1, 2, 3}, CollectiveKind::ALL_REDUCE, bytes, plan),
            "",
            "plan");
        Time ideal = runtime->IdealTime(plan, {0, 1, 2, 3});
        Finish finish;
        NS_TEST_ASSERT_MSG_EQ(RunCollective(runtime, n, CollectiveKind::ALL_REDUCE, bytes, finish),
                              "",
                              "join");
        std::vector<uint64_t> sent = runtime->GetInterBytesSent();
        std::vector<uint64_t> messages = runtime->GetMessagesSent();
        std::vector<uint64_t> wire;
        for (uint32_t r = 0; r < n; ++r)
        {
            wire.push_back(fabric.GetHostDevice(r)->GetCounters(3).txBytes);
        }
        uint32_t active = runtime->GetActiveInstances();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(finish.count, n, "every rank finished");
        NS_TEST_EXPECT_MSG_EQ(active, 0, "the instance is closed");
        for (uint32_t r = 0; r < n; ++r)
        {
            RankVolume volume;
            CollectiveVolume::Compute(CollectiveKind::ALL_REDUCE,
                                      CollectiveAlgorithm::RING,
                                      n,
                                      bytes,
                                      r,
                                      volume);
            NS_TEST_EXPECT_MSG_EQ(sent[r], volume.bytesSent, "rank " << r << " payload");
            // Wire: every message is cut into packets of at most 4096 bytes, each with 58 bytes
            // of headers and ICRC, the first with a 16-byte RETH. The rank's 6 steps x 2
            // channels = 12 messages; their packets come from the plan.
            uint64_t expectedWire = 0;
            for (uint32_t t : plan.SendsOf(r))
            {
                uint64_t b = plan.GetTransfer(t).bytes;
                expectedWire += b + (b + 4095) / 4096 * FRAME_OVERHEAD + 16;
            }
            NS_TEST_EXPECT_MSG_EQ(messages[r], 12, "2 (n - 1) steps x 2 channels");
            NS_TEST_EXPECT_MSG_EQ(wire[r], expectedWire, "rank " << r << " wire bytes");
        }
        // Ideal (a lower bound): 2 (n - 1) = 6 steps; in each, every rank sends one chunk of
        // about S / 4 = 2,000,001 bytes as two channel messages of about 1,000,000 bytes, 245
        // packets each: (2,000,001 + 490 x 82 + 2 x 16) x 8 / 100 Gb/s = 163.22 us of its NIC.
        // The NIC sends its 12 messages one after another, so the last arrives no earlier than
        // 6 x 163.22 = 979.3 us plus one path latency (2.334 us): 981.6 us. (A channel's chain
        // of six dependent messages alone needs only 6 x (81.6 + 2.334) = 503.6 us.)
        NS_TEST_EXPECT_MSG_EQ_TOL(ideal.GetMicroSeconds(), 981, 2, "ideal time");
        Time last = *std::max_element(finish.when.begin(), finish.when.end());
        NS_TEST_EXPECT_MSG_EQ_TOL(last.GetSeconds(),
                                  ideal.GetSeconds(),
                                  ideal.GetSeconds() * 0.02,
                                  "within 2 % of the ideal time");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A ring all-reduce whose every step crosses a 4:1 oversubscribed spine takes at least 3 times
 * as long as on the same leaf-spine without oversubscription.
 */
class RuntimeOversubscribedTestCase : public TestCase
{
  public:
    RuntimeOversubscribedTestCase()
        : TestCase("Ring all-reduce across a 4:1 oversubscribed spine: at least 3x slower")
    {
    }

  private:
    /**
     * @param fabricRate the rate of the one leaf-spine link of each leaf (4 hosts per leaf at
     * 100 Gb/s, one spine).
     * @return when the all-reduce finished.
     */
    Time Run(DataRate fabricRate)
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(4096));
        RoceTopologyHelper topo;
        RoceTopologyHelper::LeafSpineConfig c = LeafSpineShape(4, 2, 1);
        c.fabricRate = fabricRate;
        RoceFabric fabric = topo.BuildLeafSpine(c);
        fabric.AssignStreams(1);
        // Ranks alternate between the leaves (rank r on host (r mod 2) x 4 + r / 2), so every
        // ring neighbour is on the other leaf: each step, the 4 hosts of a leaf send through
        // its uplink at once: 4 x 100 Gb/s into 100 Gb/s (4:1) or into 400 Gb/s (non-blocking,
        // and no ECMP choice to collide on).
        std::vector<uint32_t> hostOfRank;
        for (uint32_t r = 0; r < 8; ++r)
        {
            hostOfRank.push_back((r % 2) * 4 + r / 2);
        }
        Ptr<CollectiveRuntime> runtime = MakeRuntime(fabric, hostOfRank, MicroSeconds(4));
        runtime->SetAlgorithm(CollectiveKind::ALL_REDUCE,
                              CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::RING));
        runtime->SetAttribute("Channels", UintegerValue(4));
        Finish finish;
        std::string problem =
            RunCollective(runtime, 8, CollectiveKind::ALL_REDUCE, 16000000, finish);
        NS_ABORT_MSG_IF(!problem.empty(), problem);
        Time last = *std::max_element(finish.when.begin(), finish.when.end());
        NS_ABORT_MSG_IF(finish.count != 8, "not every rank finished");
        Simulator::Destroy();
        Config::Reset();
        return last;
    }

    void DoRun() override
    {
        Time blocking = Run(DataRate("100Gbps"));
        Time nonBlocking = Run(DataRate("400Gbps"));
        // 4:1 makes each step's cross-leaf traffic take 4 times as long; the latencies, which
        // do not scale, shrink the ratio a little: at least 3.
        NS_TEST_EXPECT_MSG_GT(blocking.GetSeconds(),
                              3 * nonBlocking.GetSeconds(),
                              "oversubscription slows the ring down");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Inside servers, transfers go over NVLink: a hierarchical all-reduce on 2 servers of 4 GPUs
 * sends its intra-server bytes over NVLink and only its rail bytes through the NICs, both as
 * the analytical model says.
 */
class RuntimeHierarchicalTestCase : public TestCase
{
  public:
    RuntimeHierarchicalTestCase()
        : TestCase("Hierarchical all-reduce: NVLink inside servers, NICs across, analytical bytes")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(4096));
        const uint32_t servers = 2;
        const uint32_t gpus = 4;
        const uint64_t bytes = 4000000;
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(servers * gpus, DataRate("100Gbps"), MicroSeconds(1));
        fabric.AssignStreams(1);
        RdmaHelper rdma;
        std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);
        Ptr<CollectiveRuntime> runtime = CreateObject<CollectiveRuntime>();
        runtime->SetGpusPerServer(gpus);
        runtime->SetAlgorithm(
            CollectiveKind::ALL_REDUCE,
            CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::HIERARCHICAL));
        for (uint32_t r = 0; r < servers * gpus; ++r)
        {
            runtime->SetNic(r, endpoints[r], r); // one NIC per GPU
        }
        for (uint32_t s = 0; s < servers; ++s)
        {
            Ptr<NvlinkDomain> domain = CreateObject<NvlinkDomain>();
            domain->SetGpus(gpus);
            runtime->SetNvlinkDomain(s, domain);
        }
        Finish finish;
        NS_TEST_ASSERT_MSG_EQ(
            RunCollective(runtime, servers * gpus, CollectiveKind::ALL_REDUCE, bytes, finish),
            "",
            "join");
        std::vector<uint64_t> inter = runtime->GetInterBytesSent();
        std::vector<uint64_t> intra = runtime->GetIntraBytesSent();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(finish.count, servers * gpus, "every rank finished");
        for (uint32_t r = 0; r < servers * gpus; ++r)
        {
            RankVolume volume;
            CollectiveVolume::Compute(CollectiveKind::ALL_REDUCE,
                                      CollectiveAlgorithm::HIERARCHICAL,
                                      servers * gpus,
                                      bytes,
                                      r,
                                      volume,
                                      gpus);
            // With L = 4 and m = 2: intra 2 (L - 1) / L S = 6,000,000 bytes over NVLink, inter
            // 2 (m - 1) / m S / L = 1,000,000 bytes through the NIC (S divides evenly).
            NS_TEST_EXPECT_MSG_EQ(intra[r], volume.intraBytesSent, "rank " << r << " NVLink");
            NS_TEST_EXPECT_MSG_EQ(inter[r], volume.interBytesSent, "rank " << r << " NIC");
            NS_TEST_EXPECT_MSG_EQ(intra[r], 6000000, "intra by hand");
            NS_TEST_EXPECT_MSG_EQ(inter[r], 1000000, "inter by hand");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Members that disagree about a collective, and groups the algorithm cannot serve, are reported.
 */
class RuntimeRefusalsTestCase : public TestCase
{
  public:
    RuntimeRefusalsTestCase()
        : TestCase("Join reports disagreeing members and impossible plans")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(6, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<CollectiveRuntime> runtime = MakeRuntime(fabric, {0, 1, 2, 3, 4, 5}, MicroSeconds(2));
        runtime->SetAlgorithm(
            CollectiveKind::ALL_REDUCE,
            CollectiveVolume::GetStrategyTypeId(CollectiveAlgorithm::HALVING_DOUBLING));
        std::vector<uint32_t> six{0, 1, 2, 3, 4, 5};
        std::string problem = runtime->Join(0,
                                            six,
                                            0,
                                            {CollectiveKind::ALL_REDUCE, 1000, "x"},
                                            CollectiveRuntime::DoneCallback());
        NS_TEST_EXPECT_MSG_NE(problem.find("power"), std::string::npos, problem);
        std::vector<uint32_t> two{0, 1};
        NS_TEST_EXPECT_MSG_EQ(runtime->Join(0,
                                            two,
                                            0,
                                            {CollectiveKind::ALL_GATHER, 1000, "x"},
                                            CollectiveRuntime::DoneCallback()),
                              "",
                              "a valid join");
        problem = runtime->Join(1,
                                two,
                                0,
                                {CollectiveKind::ALL_GATHER, 2000, "x"},
                                CollectiveRuntime::DoneCallback());
        NS_TEST_EXPECT_MSG_NE(problem.find("disagree"), std::string::npos, problem);
        problem = runtime->Join(7,
                                two,
                                0,
                                {CollectiveKind::ALL_GATHER, 1000, "x"},
                                CollectiveRuntime::DoneCallback());
        NS_TEST_EXPECT_MSG_NE(problem.find("not a member"), std::string::npos, problem);
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The collective runtime test suite.
 */
class CollectiveRuntimeTestSuite : public TestSuite
{
  public:
    CollectiveRuntimeTestSuite()
        : TestSuite("llm-fabric-collective-runtime", Type::SYSTEM)
    {
        AddTestCase(new RuntimeRingIdleTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RuntimeOversubscribedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RuntimeHierarchicalTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RuntimeRefusalsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static CollectiveRuntimeTestSuite g_collectiveRuntimeTestSuite;

} // namespace tests
} // namespace llmfabric
