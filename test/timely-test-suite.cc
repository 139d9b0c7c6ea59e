/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/timely.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Deliver a completion with an RTT sample.
 * @param cc the algorithm.
 * @param rttNs the sample, ns.
 */
void
Complete(Ptr<Timely> cc, double rttNs)
{
    RdmaAckInfo info;
    info.ackedBytes = 16000;
    info.rtt = NanoSeconds(rttNs);
    cc->OnAck(info);
}

/**
 * Deliver RTT samples (ns) at the given times (us) and run.
 * @param cc the algorithm, started.
 * @param samples (time in us, RTT in ns) pairs.
 * @param rates the rate after each sample, Gb/s.
 */
void
Feed(Ptr<Timely> cc,
     const std::vector<std::pair<double, double>>& samples,
     std::vector<double>& rates)
{
    rates.clear();
    for (const auto& [atUs, rttNs] : samples)
    {
        Simulator::Schedule(NanoSeconds(atUs * 1000), &Complete, cc, rttNs);
        ScheduleLambda(NanoSeconds(atUs * 1000 + 1), [&rates, cc]() {
            rates.push_back(static_cast<double>(cc->GetRate().GetBitRate()) * 1e-9);
        });
    }
    Simulator::Run();
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * TIMELY's rules, on RTT samples fed by hand: a positive gradient decreases the rate in
 * proportion, a negative one increases it by Delta (5 Delta after five in a row), an RTT above
 * THigh decreases it by Beta (1 - THigh / rtt); the EWMA and the step scale as specified.
 */
class TimelyRulesTestCase : public TestCase
{
  public:
    TimelyRulesTestCase()
        : TestCase("TIMELY: gradient decrease, additive and hyper-active increase, THigh")
    {
    }

  private:
    /**
     * @param alpha the EWMA weight.
     * @return a started TIMELY at 100 Gb/s with minRTT 10 us.
     */
    static Ptr<Timely> Make(double alpha)
    {
        Ptr<Timely> cc = CreateObject<Timely>();
        cc->SetAttribute("Alpha", DoubleValue(alpha));
        cc->SetAttribute("MinRtt", TimeValue(MicroSeconds(10)));
        cc->Start(DataRate("100Gbps"));
        return cc;
    }

    void DoRun() override
    {
        // Alpha = 1: the gradient is the last difference over minRTT = 10 us; samples 20 us
        // apart (two minRTTs), so the step scale k = min(1, 20 / 10) = 1. Beta 0.8, Delta 10
        // Mb/s, THigh 500 us.
        Ptr<Timely> cc = Make(1.0);
        std::vector<double> rates;
        Feed(cc,
             {{0, 10000},
              {20, 12000},
              {40, 11000},
              {60, 10500},
              {80, 10400},
              {100, 10300},
              {120, 10200},
              {140, 600000}},
             rates);
        Simulator::Destroy();
        // The first sample only sets prev_rtt: 100 Gb/s.
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[0], 100.0, 1e-9, "first sample: no update");
        // +2 us: g = 2 / 10 = 0.2 > 0: rate x (1 - 0.8 x 0.2) = 84 Gb/s.
        double expected = 100 * (1 - 0.8 * 0.2);
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], expected, 1e-6, "positive gradient: decrease");
        // -1 us: g = -0.1: + Delta = 84.01 Gb/s (the first non-positive gradient).
        expected += 0.01;
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[2], expected, 1e-6, "negative gradient: + Delta");
        // Three more negative gradients (2nd to 4th in a row): + Delta each.
        for (uint32_t i = 3; i <= 5; ++i)
        {
            expected += 0.01;
            NS_TEST_EXPECT_MSG_EQ_TOL(rates[i], expected, 1e-6, "additive increase");
        }
        // The 5th in a row: hyper-active increase, + 5 Delta.
        expected += 0.05;
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[6], expected, 1e-6, "HAI: + 5 Delta");
        // 600 us > THigh = 500 us: rate x (1 - 0.8 (1 - 500 / 600)) = x 0.866667, whatever
        // the gradient.
        expected *= 1 - 0.8 * (1 - 500.0 / 600.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[7], expected, 1e-6, "above THigh: decrease");
        NS_TEST_EXPECT_MSG_EQ(cc->GetCompletions(), 8, "eight completions");

        // The EWMA, Alpha 0.02 (the default): +2 us gives rtt_diff = 0.02 x 2 = 0.04 us,
        // g = 0.004: rate 100 x (1 - 0.8 x 0.004) = 99.68 Gb/s; +2 us again: rtt_diff =
        // 0.98 x 0.04 + 0.04 = 0.0792 us, g = 0.00792: x (1 - 0.8 x 0.00792).
        cc = Make(0.02);
        Feed(cc, {{0, 10000}, {20, 12000}, {40, 14000}}, rates);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], 99.68, 1e-6, "EWMA of differences");
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[2], 99.68 * (1 - 0.8 * 0.00792), 1e-6, "EWMA, again");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetRttGradient(), 0.00792, 1e-9, "the traced gradient");

        // The step scale: samples 5 us apart are half a minRTT: k = 0.5, so +2 us (Alpha 1,
        // g = 0.2) gives x (1 - 0.5 x 0.8 x 0.2) = 92 Gb/s; without ScaleByElapsed 84 Gb/s.
        for (bool scale : {true, false})
        {
            cc = CreateObject<Timely>();
            cc->SetAttribute("Alpha", DoubleValue(1.0));
            cc->SetAttribute("MinRtt", TimeValue(MicroSeconds(10)));
            cc->SetAttribute("ScaleByElapsed", BooleanValue(scale));
            cc->Start(DataRate("100Gbps"));
            Feed(cc, {{0, 10000}, {5, 12000}}, rates);
            Simulator::Destroy();
            const double stepped = scale ? 92.0 : 84.0;
            NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], stepped, 1e-6, "step scale");
        }

        // MinRtt 0: minRTT is the smallest sample: 8 us after samples of 10 and 8 us, so
        // +2 us (Alpha 1) gives g = 2 / 8 = 0.25.
        cc = CreateObject<Timely>();
        cc->SetAttribute("Alpha", DoubleValue(1.0));
        cc->Start(DataRate("100Gbps"));
        Feed(cc, {{0, 10000}, {20, 8000}, {40, 10000}}, rates);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(cc->GetMinRtt(), MicroSeconds(8), "smallest sample");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetRttGradient(), 0.25, 1e-9, "normalized by it");

        // Floor and cap: a huge gradient stops at MinRate (10 Mb/s), increases stop at the
        // line rate.
        cc = Make(1.0);
        Feed(cc, {{0, 10000}, {20, 400000}, {40, 300000}}, rates);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], 0.01, 1e-9, "MinRate");
        cc = Make(1.0);
        Feed(cc, {{0, 10000}, {20, 9000}}, rates);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ_TOL(rates[1], 100.0, 1e-9, "never above the line rate");

        // CheckConfig.
        cc = CreateObject<Timely>();
        cc->SetAttribute("TLow", TimeValue(MicroSeconds(600)));
        NS_TEST_EXPECT_MSG_EQ(cc->CheckConfig(),
                              "THigh (500000 ns) is not above TLow (600000 ns)",
                              "THigh above TLow");
        cc->SetAttribute("TLow", TimeValue(Time(0)));
        cc->SetAttribute("Alpha", DoubleValue(0.0));
        NS_TEST_EXPECT_MSG_EQ(cc->CheckConfig(), "Alpha (0) is outside (0, 1]", "Alpha > 0");
    }
};

/// Samples the packets two queue pairs sent.
class TimelyProbe
{
  public:
    /// Record every sender's packet count now.
    void Sample()
    {
        std::vector<uint64_t> row;
        for (const auto& qp : senders)
        {
            row.push_back(qp->GetPacketsSent());
        }
        packets.push_back(row);
    }

    std::vector<Ptr<RdmaQueuePair>> senders;    //!< the flows
    std::vector<std::vector<uint64_t>> packets; //!< per sample, per flow
};

/**
 * @ingroup llm-fabric-tests
 * Two long TIMELY flows on one 10 Gb/s bottleneck keep a stable share: the link stays busy and
 * each flow's share moves little from one window to the next (TIMELY does not converge to
 * fairness, Zhu et al., CoNEXT 2016, so the split itself is not checked).
 */
class TimelyTwoFlowsTestCase : public TestCase
{
  public:
    TimelyTwoFlowsTestCase()
        : TestCase("TIMELY: two flows, one 2 ms late, keep a stable and busy share")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceFabric fabric;
        auto ep = MakeCcStar(3, DataRate("10Gbps"), Timely::GetTypeId(), fabric);
        TimelyProbe probe;
        for (uint32_t s = 0; s < 2; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[2], 0xC000 + s);
            Simulator::Schedule(MilliSeconds(2 * s), &RdmaQueuePair::PostWrite, a, 1000000000);
            probe.senders.push_back(a);
        }
        for (uint32_t w = 0; w <= WINDOWS; ++w)
        {
            Simulator::Schedule(MilliSeconds(START_MS + w * WINDOW_MS),
                                &TimelyProbe::Sample,
                                &probe);
        }
        Simulator::Stop(MilliSeconds(START_MS + WINDOWS * WINDOW_MS) + NanoSeconds(1));
        Simulator::Run();
        Simulator::Destroy();
        Config::Reset();
        // Payload rate of a full 10 Gb/s link with 1000-byte packets of 1082 wire bytes:
        // 10 x 1000 / 1082 = 9.242 Gb/s.
        std::vector<std::vector<double>> gbps(WINDOWS);
        for (uint32_t w = 0; w < WINDOWS; ++w)
        {
            double total = 0;
            for (uint32_t s = 0; s < 2; ++s)
            {
                double sent =
                    static_cast<double>(probe.packets[w + 1][s] - probe.packets[w][s]) * 1000 * 8;
                gbps[w].push_back(sent / (WINDOW_MS * 1e-3) / 1e9);
                total += gbps[w].back();
            }
            // Busy: no loss (PFC) and a queue that never stays empty (an idle link gives flat
            // RTTs, a non-positive gradient and increases), so within 5 % of the full rate.
            NS_TEST_EXPECT_MSG_GT(total, 0.95 * 9.242, "the bottleneck is kept busy");
            // No flow is starved.
            NS_TEST_EXPECT_MSG_GT(std::min(gbps[w][0], gbps[w][1]), 0.1 * 9.242, "no starvation");
        }
        // Stable: from one 5 ms window to the next, neither flow's rate moves by more than 10 %
        // of the link (0.92 Gb/s), whatever the split (the second flow started 2 ms after the
        // first, with the link to itself).
        for (uint32_t w = 1; w < WINDOWS; ++w)
        {
            for (uint32_t s = 0; s < 2; ++s)
            {
                NS_TEST_EXPECT_MSG_LT(std::abs(gbps[w][s] - gbps[w - 1][s]),
                                      0.1 * 9.242,
                                      "a stable share");
            }
        }
    }

    static constexpr uint32_t START_MS = 10; //!< first window's start
    static constexpr uint32_t WINDOW_MS = 5; //!< window length
    static constexpr uint32_t WINDOWS = 8;   //!< windows
};

/**
 * @ingroup llm-fabric-tests
 * TIMELY.
 */
class TimelyTestSuite : public TestSuite
{
  public:
    TimelyTestSuite()
        : TestSuite("llm-fabric-timely", Type::SYSTEM)
    {
        AddTestCase(new TimelyRulesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new TimelyTwoFlowsTestCase, ns3::llmfabric::TEST_QUICK);
        // 16-to-1 incast (CcIncastTestCase). TIMELY states no marking: the program's defaults
        // stay. Without PFC, 16 senders at line rate for the first round trip
        // (16 x 100 Gb/s x 4.2 us = 840 KB) exceed the 428,800-byte lossy pool.
        AddTestCase(
            new CcIncastTestCase("TIMELY: 16-to-1 incast, with and without PFC; reruns identical",
                                 Timely::GetTypeId(),
                                 CcIncastMarking()),
            ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static TimelyTestSuite g_timelyTestSuite;

} // namespace tests
} // namespace llmfabric
