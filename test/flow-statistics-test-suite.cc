/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/flow-statistics.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * The ideal FCT of a message on an idle path, derived by hand, and percentile summaries.
 */
class FlowStatisticsTestCase : public TestCase
{
  public:
    FlowStatisticsTestCase()
        : TestCase("Ideal FCT on an idle path and nearest-rank percentiles")
    {
    }

  private:
    void DoRun() override
    {
        // 10,000 bytes at MTU 1000 over two 100 Gb/s hops of 1 us (0.08 ns per byte): frames
        // of 1074 bytes (the first, with its RETH) and 1058. Hop 1: packet k starts at
        // 87.84 + (k - 1) x 86.56 ns (the first occupies (1074 + 24) x 0.08 = 87.84 ns), so
        // the last (k = 9) starts at 780.32 and reaches the switch at 780.32 + (1058 + 12) x
        // 0.08 + 1000 = 1865.92. Hop 2: the first packet arrived at (1074 + 12) x 0.08 + 1000 =
        // 1086.88 and keeps the wire until 1086.88 + 87.84 = 1174.72, 1.28 ns after the second
        // arrives (1173.44): every later packet leaves the switch 1.28 ns after it arrives. The
        // last leaves at 1867.2 and arrives at 1867.2 + 85.6 + 1000 = 2952.8; its ACK (62 bytes,
        // (62 + 12) x 0.08 = 5.92 ns per hop) returns at 2952.8 + 2 x 1005.92 = 4964.64 ns.
        double ideal = FlowStatistics::IdealFctNs(10000,
                                                  1000,
                                                  {DataRate("100Gbps"), DataRate("100Gbps")},
                                                  MicroSeconds(1));
        NS_TEST_EXPECT_MSG_EQ_TOL(ideal, 4964.64, 1e-6, "two hops, 10 packets");
        // One packet of 100 bytes on one hop: frame 58 + 100 + 16 = 174 bytes,
        // (174 + 12) x 0.08 + 1000 = 1014.88, then the ACK: + 1005.92 = 2020.8 ns.
        NS_TEST_EXPECT_MSG_EQ_TOL(
            FlowStatistics::IdealFctNs(100, 1000, {DataRate("100Gbps")}, MicroSeconds(1)),
            2020.8,
            1e-6,
            "one hop, one packet");
        std::vector<double> v;
        for (int i = 100; i >= 1; --i)
        {
            v.push_back(i);
        }
        // Nearest rank: p50 is the 50th smallest, p99 the 99th, p999 the ceil(99.9) = 100th.
        // Written by the JSON library (numbers as doubles, keys in this order).
        NS_TEST_EXPECT_MSG_EQ(FlowStatistics::DistributionJson(v),
                              "{\"min\":1.0,\"p50\":50.0,\"p99\":99.0,\"p999\":100.0,\"max\":"
                              "100.0,\"mean\":50.5}",
                              "1..100");
        NS_TEST_EXPECT_MSG_EQ(FlowStatistics::DistributionJson({}), "null", "no value");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Flow statistics of the experiment programs.
 */
class FlowStatisticsTestSuite : public TestSuite
{
  public:
    FlowStatisticsTestSuite()
        : TestSuite("llm-fabric-flow-statistics", Type::UNIT)
    {
        AddTestCase(new FlowStatisticsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static FlowStatisticsTestSuite g_flowStatisticsTestSuite;

} // namespace tests
} // namespace llmfabric
