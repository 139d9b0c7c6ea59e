/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/config.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/fabric-monitor.h"
#include "ns3/flow-statistics.h"
#include "ns3/hpcc.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/network-config.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// 100 Gb/s, in bit/s.
constexpr uint64_t GBPS_100 = 100000000000ULL;

/**
 * A hop record.
 * @param ts time, ns.
 * @param tx wire bytes sent.
 * @param qlen queue, bytes.
 * @param rate link rate, bit/s.
 * @return the record.
 */
IntHopRecord
Rec(uint64_t ts, uint64_t tx, uint64_t qlen, uint64_t rate = GBPS_100)
{
    IntHopRecord r;
    r.timeNs = ts;
    r.txBytes = tx;
    r.qlenBytes = qlen;
    r.rateBps = rate;
    return r;
}

/**
 * An acknowledgement that echoes records.
 * @param acked payload bytes it acknowledges.
 * @param inFlight payload bytes in flight after it.
 * @param hops the records (kept alive by the caller during OnAck).
 * @return the information.
 */
RdmaAckInfo
Ack(uint32_t acked, uint64_t inFlight, const std::vector<IntHopRecord>& hops)
{
    RdmaAckInfo info;
    info.ackedBytes = acked;
    info.bytesInFlight = inFlight;
    info.telemetry = hops.data();
    info.telemetryHops = static_cast<uint32_t>(hops.size());
    return info;
}

/**
 * An HPCC object started at 100 Gb/s with T = 10 us (W_init = 100 Gb/s x 10 us = 125,000 bytes,
 * W_AI = 125,000 x (1 - 0.95) / 100 = 62.5 bytes with the default Eta and ExpectedFlows).
 * @param attributes more attributes, name and value.
 * @return the object.
 */
Ptr<Hpcc>
MakeHpcc(const std::vector<std::pair<std::string, Ptr<AttributeValue>>>& attributes = {})
{
    Ptr<Hpcc> hpcc = CreateObject<Hpcc>();
    hpcc->SetAttribute("BaseRtt", TimeValue(MicroSeconds(10)));
    for (const auto& [name, value] : attributes)
    {
        hpcc->SetAttribute(name, *value);
    }
    hpcc->Start(DataRate(GBPS_100));
    return hpcc;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * HPCC is found by its alias and TypeId name, asks for telemetry, names its variables, and its
 * attributes' checkers refuse values outside their bounds.
 */
class HpccNamesTestCase : public TestCase
{
  public:
    HpccNamesTestCase()
        : TestCase(
              "HPCC by alias, TypeId, scenario and command line; telemetry; bounded attributes")
    {
    }

  private:
    void DoRun() override
    {
        for (std::string name : {"hpcc", "ns3::Hpcc", "Hpcc"})
        {
            TypeId tid;
            NS_TEST_EXPECT_MSG_EQ(RdmaHelper::LookupCongestionControl(name, tid), "", name);
            NS_TEST_EXPECT_MSG_EQ(tid, Hpcc::GetTypeId(), name);
        }
        // From a scenario (the shipped small one, with a network section naming it)...
        std::ifstream file(std::string(LLM_FABRIC_SOURCE_DIR) + "/scenarios/gpt2-small-16gpu.yaml");
        std::stringstream yaml;
        yaml << file.rdbuf() << "\nnetwork:\n  congestion_control: hpcc\n";
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(yaml.str(), "t.yaml", scenario),
                              "",
                              "the scenario loads");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetNetwork()->GetCongestionControl(),
                              Hpcc::GetTypeId(),
                              "network.congestion_control: hpcc");
        // ... and from a command line, by TypeId name.
        CommandLine cmd;
        cmd.Parse(
            std::vector<std::string>{"test", "--ns3::RdmaEndpoint::CongestionControl=ns3::Hpcc"});
        TypeIdValue chosen;
        CreateObject<RdmaEndpoint>()->GetAttribute("CongestionControl", chosen);
        NS_TEST_EXPECT_MSG_EQ(chosen.Get(), Hpcc::GetTypeId(), "--ns3::...::CongestionControl");
        Config::Reset();

        Ptr<Hpcc> hpcc = CreateObject<Hpcc>();
        NS_TEST_EXPECT_MSG_EQ(hpcc->NeedsTelemetry(), true, "HPCC needs the switches' records");
        NS_TEST_EXPECT_MSG_EQ(hpcc->NeedsEcnEcho(), false, "and no ECN echo");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetName(), "Hpcc", "name");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetVariableDisplay("U").name, "u", "U");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetVariableDisplay("ReferenceWindow").name,
                              "reference_window_bytes",
                              "W_c");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetVariableDisplay("Rate").name, "rate_gbps", "rate");
        // Checkers: Eta in [0.01, 1], MaxStage at most 1000, ExpectedFlows at least 1, BaseRtt
        // from 1 ns to 1 s.
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("Eta", DoubleValue(1.01)), false, "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("Eta", DoubleValue(0)), false, "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("Eta", DoubleValue(0.99)), true, "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("MaxStage", UintegerValue(1001)),
                              false,
                              "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("ExpectedFlows", UintegerValue(0)),
                              false,
                              "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("BaseRtt", TimeValue(Time(0))), false, "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->SetAttributeFailSafe("BaseRtt", TimeValue(Seconds(2))),
                              false,
                              "");
        NS_TEST_EXPECT_MSG_EQ(hpcc->CheckConfig(), "", "a consistent configuration");
        hpcc->SetAttribute("MinRate", DataRateValue(DataRate("200Gbps")));
        hpcc->Start(DataRate(GBPS_100));
        NS_TEST_EXPECT_MSG_EQ(hpcc->CheckConfig(),
                              "MinRate (200000000000 bit/s) is above the line rate "
                              "(100000000000 bit/s)",
                              "MinRate above the line rate");
        hpcc->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Start: W = W_c = W_init = B T, the line rate, W_AI = W_init (1 - eta) / N; the base RTT of a
 * path from its links.
 */
class HpccStartTestCase : public TestCase
{
  public:
    HpccStartTestCase()
        : TestCase("HPCC starts at W_init = B T and the line rate; PathBaseRtt")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Hpcc> hpcc = MakeHpcc();
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(), 125000.0, 1e-6, "W_c = B T");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetWindow(), 125000, "window W_init");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetRate().GetBitRate(), GBPS_100, "the line rate");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetAdditiveIncrease(), 62.5, 1e-9, "W_AI");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetUtilization(), 0.0, "no U yet");
        hpcc->Dispose();

        // A data frame of 1000 payload bytes puts Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 +
        // 1000 + telemetry 84 + ICRC 4 + FCS 4 + preamble 8 = 1154 bytes on a link before its
        // last bit: 92.32 ns at 100 Gb/s; an ACK with its echo 14 + 20 + 8 + 12 + AETH 4 + 84 +
        // 4 + 4 + 8 = 158 bytes, 12.64 ns. Over two links of 1 us: 2 x (92.32 + 12.64 + 2000)
        // = 4209.92 ns, 4210 in whole ns: the default BaseRtt (llm-fabric-incast's star).
        Time star = Hpcc::PathBaseRtt({DataRate("100Gbps"), DataRate("100Gbps")},
                                      {MicroSeconds(1), MicroSeconds(1)},
                                      1000);
        NS_TEST_EXPECT_MSG_EQ(star.GetNanoSeconds(), 4210, "the star's base RTT");
        TimeValue defaultRtt;
        CreateObject<Hpcc>()->GetAttribute("BaseRtt", defaultRtt);
        NS_TEST_EXPECT_MSG_EQ(defaultRtt.Get(), star, "the default is the star's");
        // Four links of 400 Gb/s and 500 ns with MTU 4096: data 4096 + 154 = 4250 bytes,
        // 85 ns; ACK 158 bytes, 3.16 ns: 4 x (85 + 3.16 + 1000) = 4352.64 ns, 4353.
        Time leafSpine = Hpcc::PathBaseRtt(std::vector<DataRate>(4, DataRate("400Gbps")),
                                           std::vector<Time>(4, NanoSeconds(500)),
                                           4096);
        NS_TEST_EXPECT_MSG_EQ(leafSpine.GetNanoSeconds(), 4353, "four links at 400 Gb/s");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The window update of the paper's Algorithm 1 on hand-made telemetry: u per hop from txRate and
 * the smaller of two queues, U smoothed over min(tau, T) / T, the multiplicative update, the fast
 * reaction that leaves W_c alone, the additive stages and the reference update once per RTT.
 */
class HpccWindowTestCase : public TestCase
{
  public:
    HpccWindowTestCase()
        : TestCase(
              "HPCC window: U from records, multiplicative and additive updates, stages, per RTT")
    {
    }

  private:
    void DoRun() override
    {
        // T = 10 us, B = 100 Gb/s, eta 0.95: W_init = 125,000 bytes, W_AI = 62.5 bytes.
        Ptr<Hpcc> hpcc = MakeHpcc();
        // ACK 1: its records are only kept.
        std::vector<IntHopRecord> r{Rec(0, 0, 62500)};
        hpcc->OnAck(Ack(1000, 50000, r));
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetWindow(), 125000, "the first records only kept");
        // ACK 2, tau = 10 us = T: txRate = 125,000 bytes / 10 us = 100 Gb/s (1.0), queue term
        // min(62,500, 62,500) x 8 / (100 Gb/s x 10 us) = 0.5: u = 1.5, U = 1.5 (first value).
        // 2,000 bytes acknowledged > 0 (no update yet): the reference update, multiplicative:
        // W = 125,000 / (1.5 / 0.95) + 62.5 = 79,229.17 = W_c; snd_nxt then is 2,000 + 50,000.
        r = {Rec(10000, 125000, 62500)};
        hpcc->OnAck(Ack(1000, 50000, r));
        const double wc2 = 125000.0 * 0.95 / 1.5 + 62.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 1.5, 1e-12, "U");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(), wc2, 1e-6, "W_c committed");
        // The transport's window is W plus the 1,000 bytes this ACK acknowledged (what a
        // coalescing receiver held before acknowledging): 80,229 bytes.
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetWindow(), 80229, "the window");
        // R = W / T = 79,229.17 x 8 / 10 us = 63.383 Gb/s.
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetRate().GetBitRate(), 63383333333ULL, "R = W / T");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetIncreaseStage(), 0, "stage 0");
        // ACK 3, 3,000 bytes acknowledged <= 52,000: a fast reaction. tau = 5 us (weight 0.5),
        // 50,000 bytes in 5 us = 80 Gb/s (0.8), queue min(0, 62,500) = 0: u = 0.8,
        // U = 0.5 x 1.5 + 0.5 x 0.8 = 1.15; W = W_c / (1.15 / 0.95) + 62.5; W_c unchanged.
        r = {Rec(15000, 175000, 0)};
        hpcc->OnAck(Ack(1000, 50000, r));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 1.15, 1e-12, "U smoothed");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetCurrentWindow(),
                                  wc2 * 0.95 / 1.15 + 62.5,
                                  1e-6,
                                  "fast reaction");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(), wc2, 1e-6, "W_c kept");
        // The same packet's records again (the same time): nothing.
        hpcc->OnAck(Ack(1000, 50000, r));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 1.15, 1e-12, "a repeat is ignored");
        // ACK 5: 54,000 > 52,000, a reference update. tau = T, 112,500 bytes in 10 us = 90 Gb/s:
        // U = 0.9 < eta with stage 0 < 5: additive, W = W_c + 62.5, stage 1.
        uint64_t ts = 25000;
        uint64_t tx = 175000 + 112500;
        r = {Rec(ts, tx, 0)};
        hpcc->OnAck(Ack(50000, 50000, r));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 0.9, 1e-12, "U = 0.9");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(), wc2 + 62.5, 1e-6, "additive");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetIncreaseStage(), 1, "stage 1");
        // Four more reference updates at U = 0.9 (each ACK acknowledges 100,000 bytes, more
        // than the 50,000 in flight at the last update): stages 2 to 5, W_c + 5 x 62.5.
        for (uint32_t k = 2; k <= 5; ++k)
        {
            ts += 10000;
            tx += 112500;
            r = {Rec(ts, tx, 0)};
            hpcc->OnAck(Ack(100000, 50000, r));
            NS_TEST_EXPECT_MSG_EQ(hpcc->GetIncreaseStage(), k, "stage " << k);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(), wc2 + 5 * 62.5, 1e-6, "5 x W_AI");
        // With incStage = maxStage = 5 the next update is multiplicative although U < eta:
        // W = (W_c) / (0.9 / 0.95) + 62.5, and the stage returns to 0.
        ts += 10000;
        tx += 112500;
        r = {Rec(ts, tx, 0)};
        hpcc->OnAck(Ack(100000, 50000, r));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(),
                                  (wc2 + 5 * 62.5) * 0.95 / 0.9 + 62.5,
                                  1e-6,
                                  "multiplicative after maxStage");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetIncreaseStage(), 0, "stage 0 again");
        hpcc->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The variants: maxStage 0 is always multiplicative; without the fast reaction only the
 * reference updates change the window; the most loaded of several hops decides; a new path
 * restarts the measurement; the window never goes below MinRate x T nor above W_init.
 */
class HpccVariantsTestCase : public TestCase
{
  public:
    HpccVariantsTestCase()
        : TestCase("HPCC: maxStage 0, no fast reaction, most loaded hop, bounds")
    {
    }

  private:
    /**
     * Feed the first two ACKs of HpccWindowTestCase (U = 1.5, W_c = 79,229.17) and one that
     * measures 90 Gb/s over T.
     * @param hpcc the object.
     * @param acked the bytes the third ACK acknowledges.
     */
    static void Feed(Ptr<Hpcc> hpcc, uint32_t acked)
    {
        std::vector<IntHopRecord> r{Rec(0, 0, 62500)};
        hpcc->OnAck(Ack(1000, 50000, r));
        r = {Rec(10000, 125000, 62500)};
        hpcc->OnAck(Ack(1000, 50000, r));
        r = {Rec(20000, 125000 + 112500, 0)};
        hpcc->OnAck(Ack(acked, 50000, r));
    }

    void DoRun() override
    {
        const double wc2 = 125000.0 * 0.95 / 1.5 + 62.5;
        // MaxStage 0 (the erratum's simulations): U = 0.9 < eta, yet multiplicative:
        // W = W_c / (0.9 / 0.95) + 62.5.
        Ptr<Hpcc> hpcc = MakeHpcc({{"MaxStage", Create<UintegerValue>(0)}});
        Feed(hpcc, 60000);
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(),
                                  wc2 * 0.95 / 0.9 + 62.5,
                                  1e-6,
                                  "maxStage 0: multiplicative");
        hpcc->Dispose();
        // Without the fast reaction, an ACK inside the round trip (3,000 <= 52,000 bytes
        // acknowledged) changes nothing; with it, U = 0.9 < eta at stage 0 gives the additive
        // W = W_c + 62.5, with W_c and the stage untouched.
        hpcc = MakeHpcc({{"FastReact", Create<BooleanValue>(false)}});
        Feed(hpcc, 1000);
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetCurrentWindow(), wc2, 1e-6, "no fast reaction");
        hpcc->Dispose();
        hpcc = MakeHpcc();
        Feed(hpcc, 1000);
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetCurrentWindow(), wc2 + 62.5, 1e-6, "fast, additive");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetReferenceWindow(), wc2, 1e-6, "W_c untouched");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetIncreaseStage(), 0, "stage untouched");
        // Two hops (another path: the measurement restarts). Over 10 us hop 0 (100 Gb/s)
        // carries 50,000 bytes (0.4) and hop 1 (50 Gb/s) 56,250 bytes (45 Gb/s: 0.9): U = 0.9.
        std::vector<IntHopRecord> two{Rec(30000, 0, 0), Rec(31000, 0, 0, GBPS_100 / 2)};
        hpcc->OnAck(Ack(1000, 50000, two));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 0.9, 1e-12, "kept, not measured");
        two = {Rec(40000, 50000, 0), Rec(41000, 56250, 0, GBPS_100 / 2)};
        hpcc->OnAck(Ack(1000, 50000, two));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 0.9, 1e-12, "the most loaded hop");
        two = {Rec(50000, 50000 + 112500, 0), Rec(51000, 56250 + 25000, 0, GBPS_100 / 2)};
        hpcc->OnAck(Ack(1000, 50000, two));
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetUtilization(), 0.9, 1e-12, "now hop 0 at 0.9");
        // Queues of 12.5 MB on both hops (in two records running, so min() keeps them): the
        // queue term is 12.5e6 x 8 / (100 Gb/s x 10 us) = 100 on hop 0 and 200 on hop 1 (50
        // Gb/s), so U > 100 and W = W_c x 0.95 / U + 62.5 falls below its floor, MinRate x T =
        // 100 Mb/s x 10 us = 125 bytes: the rate is 100 Mb/s.
        two = {Rec(60000, 162500, 12500000), Rec(61000, 81250, 12500000, GBPS_100 / 2)};
        hpcc->OnAck(Ack(1000, 50000, two));
        two = {Rec(70000, 162500 + 112500, 12500000),
               Rec(71000, 81250 + 56250, 12500000, GBPS_100 / 2)};
        for (uint32_t k = 0; k < 20; ++k)
        {
            for (auto& hop : two)
            {
                hop.timeNs += 10000;
            }
            hpcc->OnAck(Ack(100000, 50000, two));
        }
        NS_TEST_EXPECT_MSG_GT(hpcc->GetUtilization(), 100.0, "a huge U");
        NS_TEST_EXPECT_MSG_EQ_TOL(hpcc->GetCurrentWindow(), 125.0, 1e-9, "the floor, MinRate T");
        // The transport's window adds the 100,000 bytes the last ACK acknowledged.
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetWindow(), 100125, "W + the last ACK's bytes");
        NS_TEST_EXPECT_MSG_EQ(hpcc->GetRate().GetBitRate(), 100000000ULL, "100 Mb/s");
        hpcc->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The two documented profiles set Eta and MaxStage; an unknown one is refused.
 */
class HpccProfilesTestCase : public TestCase
{
  public:
    HpccProfilesTestCase()
        : TestCase("HPCC profiles: sigcomm2019 (defaults) and revised")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Hpcc> hpcc = CreateObject<Hpcc>();
        DoubleValue eta;
        UintegerValue stage;
        hpcc->GetAttribute("Eta", eta);
        hpcc->GetAttribute("MaxStage", stage);
        NS_TEST_EXPECT_MSG_EQ(eta.Get(), 0.95, "paper: eta 95 %");
        NS_TEST_EXPECT_MSG_EQ(stage.Get(), 5, "paper: maxStage 5");
        NS_TEST_EXPECT_MSG_EQ(hpcc->ApplyProfile("revised"), "", "known");
        hpcc->GetAttribute("Eta", eta);
        hpcc->GetAttribute("MaxStage", stage);
        NS_TEST_EXPECT_MSG_EQ(eta.Get(), 0.99, "revised: 0.99");
        NS_TEST_EXPECT_MSG_EQ(stage.Get(), 0, "revised: maxStage 0");
        NS_TEST_EXPECT_MSG_EQ(hpcc->ApplyProfile("sigcomm2019"), "", "known");
        hpcc->GetAttribute("Eta", eta);
        NS_TEST_EXPECT_MSG_EQ(eta.Get(), 0.95, "back to the paper");
        NS_TEST_EXPECT_MSG_EQ(hpcc->ApplyProfile("x"),
                              "unknown HPCC profile 'x' (known: sigcomm2019, revised)",
                              "refused");
        NS_TEST_EXPECT_MSG_EQ(Hpcc::SetDefaultProfile("revised"), "", "as defaults");
        CreateObject<Hpcc>()->GetAttribute("MaxStage", stage);
        NS_TEST_EXPECT_MSG_EQ(stage.Get(), 0, "the default changed");
        Config::Reset();
        hpcc->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * HPCC suite, part 1: the algorithm alone (the fabric runs are in hpcc-fabric-test-suite.cc).
 */
class HpccTestSuite : public TestSuite
{
  public:
    HpccTestSuite()
        : TestSuite("llm-fabric-hpcc", Type::UNIT)
    {
        AddTestCase(new HpccNamesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new HpccStartTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new HpccWindowTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new HpccVariantsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new HpccProfilesTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static HpccTestSuite g_hpccTestSuite;

} // namespace tests
} // namespace llmfabric
