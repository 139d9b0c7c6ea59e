/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/fabric-sampler.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/roce-net-device.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of FabricSampler: queue samples and their percentiles, and link utilization, against
 * values derived from the line rate.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * 40 frames of 988 bytes queued at priority 3 of port a at 0.5 us on a 100 Gb/s link, sampled
 * every 1 us from 0 to 5 us on both ends.
 *
 * Frame j starts on the wire at 0.5 us + j x 80.96 ns (988 + 4 FCS + 8 preamble + 12 gap =
 * 1012 bytes at 100 Gb/s), and leaves the queue then. Samples of a at 0, 1, 2, 3 and 4 us: 0
 * (nothing yet); 33 frames (frames 0-6 started, 6 x 80.96 = 485.76 ns <= 500 ns); 21 (0-18
 * started, 18 x 80.96 = 1457.28 <= 1500); 9 (0-30, 2428.8 <= 2500); 0 (all 40 by 3157.44 +
 * 500 ns). Port b never queues: five zeros. The ten samples sorted: seven zeros, 8892, 20748,
 * 32604 bytes; nearest rank: p50 = rank 5 = 0, p80 = rank 8 = 8892, p90 = rank 9 = 20748, p99 =
 * rank 10 = 32604, the largest 32604.
 *
 * Utilization of a's link over [0, 5 us): all 40 frames start in it, 40 x 1012 x 8 = 323,840
 * bits over 100 Gb/s x 5 us = 500,000 bits: 0.64768. Frames of another priority (5 frames at
 * priority 0, queued at 4.5 us behind nothing, so they start at once) do not count.
 */
class FabricSamplerTestCase : public TestCase
{
  public:
    FabricSamplerTestCase()
        : TestCase("Queue samples and percentiles, and utilization, follow the line rate")
    {
    }

  private:
    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        FabricSampler sampler;
        sampler.AddQueuePort(link.a);
        sampler.AddQueuePort(link.b);
        sampler.AddLoadPort(link.a);
        NS_TEST_ASSERT_MSG_EQ(sampler.GetUtilization(), 0.0, "nothing before the window ends");
        sampler.Start(Seconds(0), MicroSeconds(5), MicroSeconds(1), 3);
        Ptr<RoceNetDevice> a = link.a;
        ScheduleLambda(NanoSeconds(500), [a]() {
            for (int k = 0; k < 40; ++k)
            {
                a->Enqueue(MakeFrame(988, 26), 3, 0);
            }
        });
        ScheduleLambda(NanoSeconds(4500), [a]() {
            for (int k = 0; k < 5; ++k)
            {
                a->Enqueue(MakeFrame(988, 0), 0, 0);
            }
        });
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(sampler.GetSampleCount(), 10, "2 ports x 5 samples");
        NS_TEST_EXPECT_MSG_EQ(sampler.GetQueuePercentile(0.5), 0, "p50");
        NS_TEST_EXPECT_MSG_EQ(sampler.GetQueuePercentile(0.8), 9 * 988, "p80");
        NS_TEST_EXPECT_MSG_EQ(sampler.GetQueuePercentile(0.9), 21 * 988, "p90");
        NS_TEST_EXPECT_MSG_EQ(sampler.GetQueuePercentile(0.99), 33 * 988, "p99");
        NS_TEST_EXPECT_MSG_EQ(sampler.GetQueuePercentile(0), 0, "p0: the smallest");
        NS_TEST_EXPECT_MSG_EQ(sampler.GetMaxSample(), 33 * 988, "largest sample");
        NS_TEST_EXPECT_MSG_EQ_TOL(sampler.GetUtilization(), 0.64768, 1e-12, "utilization");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The FabricSampler test suite.
 */
class FabricSamplerTestSuite : public TestSuite
{
  public:
    FabricSamplerTestSuite()
        : TestSuite("llm-fabric-fabric-sampler", Type::UNIT)
    {
        AddTestCase(new FabricSamplerTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static FabricSamplerTestSuite g_fabricSamplerTestSuite;

} // namespace tests
} // namespace llmfabric
