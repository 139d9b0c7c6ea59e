/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/attribute-defaults.h"
#include "ns3/config.h"
#include "ns3/dcqcn.h"
#include "ns3/dctcp.h"
#include "ns3/double.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/network-config.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"
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
 * @param ackedBytes bytes newly acknowledged.
 * @param ecn the ACK carries BECN.
 * @param inFlight bytes in flight after it.
 * @return the acknowledgement.
 */
RdmaAckInfo
Ack(uint32_t ackedBytes, bool ecn, uint64_t inFlight)
{
    RdmaAckInfo info;
    info.ackedBytes = ackedBytes;
    info.ecnEcho = ecn;
    info.bytesInFlight = inFlight;
    return info;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * DCTCP's update rules on hand-made ACKs: alpha once per window of data from the fraction of
 * marked bytes, one cut by alpha / 2 per window, additive increase of one packet per window.
 */
class DctcpRulesTestCase : public TestCase
{
  public:
    DctcpRulesTestCase()
        : TestCase("DCTCP: alpha per window, one cut per window, additive increase")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Dctcp> cc = CreateObject<Dctcp>();
        cc->SetAttribute("InitialWindow", UintegerValue(10000));
        cc->SetMtu(1000);
        cc->Start(DataRate("100Gbps"));
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 10000, "W = InitialWindow");
        NS_TEST_EXPECT_MSG_EQ(cc->NeedsEcnEcho(), true, "DCTCP asks for the ECN echo");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "no pacing: line rate");
        const double g = 1.0 / 16;

        // ACK 1 (unmarked, 1000 B, 9000 in flight): the first observation window (it began
        // at 0 bytes) ends, F = 0: alpha = (1 - g) x 1 = 0.9375; the next window ends when
        // 1000 + 9000 = 10,000 bytes are acknowledged. W += 1000 x 1000 / 10000 = 100.
        cc->OnAck(Ack(1000, false, 9000));
        double alpha = 1 - g;
        double w = 10000 + 1000.0 * 1000 / 10000;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "alpha after a clean window");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), w, 1e-9, "one packet per window of data");

        // ACK 2 (marked; 8000 in flight, so 10,000 sent): cut W (1 - alpha / 2) with the alpha
        // of now; the next cut needs an ACK beyond those 10,000 bytes.
        cc->OnAck(Ack(1000, true, 8000));
        w *= 1 - alpha / 2;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), w, 1e-9, "cut by alpha / 2");
        NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), 1, "one cut");
        // ACKs 3 to 5, marked, up to 5000 bytes: the same window of data, no second cut and
        // no increase.
        for (uint64_t k = 3; k <= 5; ++k)
        {
            cc->OnAck(Ack(1000, true, 10000 - 1000 * k));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), w, 1e-9, "no second cut in a window");
        NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), 1, "still one cut");
        // ACKs 6 to 10, unmarked: each adds 1000 x 1000 / W.
        for (uint64_t k = 6; k <= 10; ++k)
        {
            cc->OnAck(Ack(1000, false, 10000 - 1000 * k));
            w += 1000.0 * 1000 / w;
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), w, 1e-9, "additive increase");
        // ACK 10 acknowledged byte 10,000: the second window (ACKs 2 to 10: 9000 bytes, 4000
        // marked) ends: F = 4/9, alpha = (1 - g) alpha + g F.
        alpha = (1 - g) * alpha + g * 4.0 / 9.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetAlpha(), alpha, 1e-12, "alpha from F = 4/9");
        NS_TEST_EXPECT_MSG_EQ(cc->GetObservationWindows(), 2, "two windows observed");
        NS_TEST_EXPECT_MSG_EQ(cc->GetMarkedBytes(), 4000, "marked bytes: the echoing ACKs'");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), static_cast<uint64_t>(w), "W rounded down");

        // A new window of data (nothing in flight at ACK 10: it ends at the next ACK): a
        // marked ACK cuts again, since it acknowledges data sent after the first cut.
        cc->OnAck(Ack(1000, true, 0));
        NS_TEST_EXPECT_MSG_EQ(cc->GetCuts(), 2, "a cut in the next window");
        // A timeout: one packet.
        cc->OnTimeout();
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 1000, "one packet after a timeout");
        // Cuts never go below one packet.
        cc->OnAck(Ack(1000, true, 0));
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 1000, "at least one packet");
        cc->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * DCTCP's switch marking: a step at K = 30 KB x rate / 10 Gb/s, stated by the algorithm,
 * scaled per port by the MMU, and offered by NetworkConfig only where the user gave none.
 */
class DctcpMarkingTestCase : public TestCase
{
  public:
    DctcpMarkingTestCase()
        : TestCase("DCTCP: step marking at K = 30 KB x rate over 10 Gbps, the user values win")
    {
    }

  private:
    void DoRun() override
    {
        RdmaEcnMarking marking;
        NS_TEST_ASSERT_MSG_EQ(RdmaHelper::GetEcnMarking(Dctcp::GetTypeId(), marking),
                              true,
                              "DCTCP states a marking");
        NS_TEST_EXPECT_MSG_EQ(marking.kminBytes, 30000, "Kmin = K = 30 KB");
        NS_TEST_EXPECT_MSG_EQ(marking.kmaxBytes, 30000, "Kmax = K: a step");
        NS_TEST_EXPECT_MSG_EQ(marking.pmax, 1.0, "Pmax 1");
        NS_TEST_EXPECT_MSG_EQ(marking.referenceRate, DataRate("10Gbps"), "at 10 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(RdmaHelper::GetEcnMarking(Dcqcn::GetTypeId(), marking),
                              false,
                              "DCQCN states none");

        // The MMU scales K per port: 300,000 B at 100 Gb/s, 75,000 B at 25 Gb/s; the step marks
        // nothing at K and everything above it.
        Ptr<SwitchMmu> mmu = CreateObject<SwitchMmu>();
        mmu->SetAttribute("Kmin", QueueSizeValue(QueueSize("30000B")));
        mmu->SetAttribute("Kmax", QueueSizeValue(QueueSize("30000B")));
        mmu->SetAttribute("Pmax", DoubleValue(1.0));
        mmu->SetAttribute("EcnReferenceRate", DataRateValue(DataRate("10Gbps")));
        mmu->ConfigurePorts({DataRate("100Gbps"), DataRate("25Gbps")},
                            {MicroSeconds(1), MicroSeconds(1)});
        mmu->Initialize();
        NS_TEST_EXPECT_MSG_EQ(mmu->GetKmin(0), 300000, "K at 100 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetKmax(0), 300000, "K at 100 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetKmin(1), 75000, "K at 25 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetMarkProbability(0, 300000), 0.0, "no mark at K");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetMarkProbability(0, 300001), 1.0, "always above K");
        NS_TEST_EXPECT_MSG_EQ(mmu->GetMarkProbability(1, 75001), 1.0, "always above K");
        mmu->Dispose();

        // A program's options: what the user gave stays, the rest is DCTCP's; the reference
        // rate only comes with both of DCTCP's thresholds.
        std::string kmin = "5KB";
        std::string kmax = "200KB";
        double pmax = 0.01;
        DataRate reference;
        RdmaHelper::CompleteEcnOptions(Dctcp::GetTypeId(),
                                       {false, false, false},
                                       kmin,
                                       kmax,
                                       pmax,
                                       reference);
        NS_TEST_EXPECT_MSG_EQ(kmin + " " + kmax, "30000B 30000B", "DCTCP's K");
        NS_TEST_EXPECT_MSG_EQ(pmax, 1.0, "DCTCP's Pmax");
        NS_TEST_EXPECT_MSG_EQ(reference, DataRate("10Gbps"), "scaled per port");
        kmin = "50KB";
        pmax = 0.5;
        RdmaHelper::CompleteEcnOptions(Dctcp::GetTypeId(),
                                       {true, false, true},
                                       kmin,
                                       kmax,
                                       pmax,
                                       reference);
        NS_TEST_EXPECT_MSG_EQ(kmin, "50KB", "the user's Kmin wins");
        NS_TEST_EXPECT_MSG_EQ(pmax, 0.5, "the user's Pmax wins");
        NS_TEST_EXPECT_MSG_EQ(reference, DataRate(0), "a user's threshold is not scaled");

        // Bad attribute values are refused before a run, with the attribute named.
        NS_TEST_EXPECT_MSG_EQ(RdmaHelper::CheckCongestionControl(Dctcp::GetTypeId()), "", "ok");
        Config::SetDefault("ns3::Dctcp::G", DoubleValue(0.0));
        NS_TEST_EXPECT_MSG_EQ(RdmaHelper::CheckCongestionControl(Dctcp::GetTypeId()),
                              "ns3::Dctcp: G (0) is outside (0, 1]",
                              "G = 0 refused");
        Config::Reset();

        // The loader records the network keys a scenario gives (and only those).
        const std::string yaml = "model:\n  preset: gpt2-small\ntraining:\n  "
                                 "global_batch_sequences: 64\ncluster:\n  gpus: 1\nnetwork:\n"
                                 "  congestion_control: dctcp\n  kmin_bytes: 20000\n";
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(yaml, "t.yaml", scenario), "", "loads");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetNetwork()->GetCongestionControl(),
                              Dctcp::GetTypeId(),
                              "dctcp by alias");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetNetwork()->IsGiven("KminBytes"), true, "kmin given");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetNetwork()->IsGiven("KmaxBytes"), false, "kmax not");

        // A scenario: network.congestion_control dctcp and no ECN key: DCTCP's marking becomes
        // the defaults; with kmin_bytes given (MarkGiven, as the loader records it), that one
        // stays the scenario's and nothing is scaled.
        for (bool given : {false, true})
        {
            Ptr<NetworkConfig> network = CreateObject<NetworkConfig>();
            network->SetAttribute("CongestionControl", TypeIdValue(Dctcp::GetTypeId()));
            if (given)
            {
                network->SetAttribute("KminBytes", UintegerValue(20000));
                network->MarkGiven("KminBytes");
            }
            AttributeDefaults defaults;
            RoceTopologyHelper topo;
            NS_TEST_EXPECT_MSG_EQ(network->Apply(defaults, topo), "", "applied");
            Ptr<SwitchMmu> m = CreateObject<SwitchMmu>();
            QueueSizeValue k;
            m->GetAttribute("Kmin", k);
            NS_TEST_EXPECT_MSG_EQ(k.Get().GetValue(), (given ? 20000 : 30000), "Kmin");
            m->GetAttribute("Kmax", k);
            NS_TEST_EXPECT_MSG_EQ(k.Get().GetValue(), 30000, "Kmax: DCTCP's");
            DoubleValue p;
            m->GetAttribute("Pmax", p);
            NS_TEST_EXPECT_MSG_EQ(p.Get(), 1.0, "Pmax: DCTCP's");
            DataRateValue r;
            m->GetAttribute("EcnReferenceRate", r);
            NS_TEST_EXPECT_MSG_EQ(r.Get(), DataRate(given ? 0 : 10000000000ULL), "reference");
            Config::Reset();
        }
    }
};

/// Samples the bottleneck queue and the flows' alpha.
class DctcpProbe
{
  public:
    /// Record the queue and every flow's alpha, and again one interval later.
    void Sample()
    {
        if (queue.empty())
        {
            for (const auto& cc : ccs)
            {
                startAcked += cc->GetAckedBytes();
                startMarked += cc->GetMarkedBytes();
            }
        }
        queue.push_back(mmu->GetEgressBytes(port, 3));
        for (const auto& cc : ccs)
        {
            alpha.push_back(cc->GetAlpha());
        }
        if (Simulator::Now() < end)
        {
            Simulator::Schedule(interval, &DctcpProbe::Sample, this);
        }
    }

    Ptr<SwitchMmu> mmu;          //!< the switch's MMU
    uint32_t port{0};            //!< the bottleneck port
    std::vector<Ptr<Dctcp>> ccs; //!< the flows
    Time interval;               //!< sampling interval
    Time end;                    //!< last sample
    std::vector<uint32_t> queue; //!< queue samples, bytes
    std::vector<double> alpha;   //!< alpha samples
    uint64_t marks{0};           //!< CE marks at the switch
    uint64_t startAcked{0};      //!< bytes the flows had acknowledged at the first sample
    uint64_t startMarked{0};     //!< of which marked
};

/**
 * @param marks the counter.
 * @param port egress port.
 * @param priority priority.
 * @param queueBytes queue seen.
 */
void
CountDctcpMark(uint64_t* marks, uint32_t port, uint8_t priority, uint32_t queueBytes)
{
    ++*marks;
}

/**
 * @param sorted sorted samples.
 * @param q a quantile in [0, 1].
 * @return the sample at that quantile.
 */
double
Quantile(const std::vector<uint32_t>& sorted, double q)
{
    return sorted[static_cast<size_t>(q * static_cast<double>(sorted.size() - 1))];
}

/// What a run of two long DCTCP flows on a 10 Gb/s bottleneck shows.
struct DctcpTwoFlows
{
    double peak{0};      //!< 99th percentile of the queue, packets of 1058 bytes
    double trough{0};    //!< 1st percentile
    double meanAlpha{0}; //!< time mean of both flows' alpha
    double fraction{0};  //!< marked share of the bytes acknowledged meanwhile
    uint64_t marks{0};   //!< CE marks of the switch
    uint64_t marked{0};  //!< marked bytes the senders counted
    uint32_t k{0};       //!< the bottleneck's K, bytes
};

/**
 * Two long DCTCP flows into one 10 Gb/s port for 25 ms, sampled from 5 ms on.
 * @param paper the DCTCP paper's conditions: an ACK per packet and marking on arrival (else
 * the defaults: ACK coalescing, marking at dequeue).
 * @return what it shows.
 */
DctcpTwoFlows
RunDctcpTwoFlows(bool paper)
{
    const uint32_t startMs = 5;
    const uint32_t endMs = 25;
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
    Config::SetDefault("ns3::Dctcp::InitialWindow", UintegerValue(20000));
    if (paper)
    {
        Config::SetDefault("ns3::RdmaQueuePair::AckInterval", UintegerValue(1));
    }
    std::string kmin = "5KB";
    std::string kmax = "200KB";
    double pmax = 0.01;
    DataRate reference;
    RdmaHelper::CompleteEcnOptions(Dctcp::GetTypeId(), {}, kmin, kmax, pmax, reference);
    RoceTopologyHelper topo;
    topo.SetMmuBufferAndEcn("12MB", kmin, kmax, pmax, true);
    topo.SetMmuAttribute("EcnReferenceRate", DataRateValue(reference));
    topo.SetSwitchAttribute("EcnMarkPoint", StringValue(paper ? "Enqueue" : "Dequeue"));
    RoceFabric fabric = topo.BuildStar(3, DataRate("10Gbps"), MicroSeconds(1));
    auto ep = InstallCc(fabric, Dctcp::GetTypeId());
    DctcpProbe probe;
    for (uint32_t s = 0; s < 2; ++s)
    {
        auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[2], 0xC000 + s);
        a->PostWrite(1000000000);
        probe.ccs.push_back(DynamicCast<Dctcp>(a->GetCongestionControl()));
    }
    probe.mmu = fabric.GetSwitch(0)->GetMmu();
    probe.port = 2;
    probe.interval = NanoSeconds(100);
    probe.end = MilliSeconds(endMs);
    fabric.GetSwitch(0)->TraceConnectWithoutContext(
        "EcnMark",
        MakeBoundCallback(&CountDctcpMark, &probe.marks));
    Simulator::Schedule(MilliSeconds(startMs), &DctcpProbe::Sample, &probe);
    Simulator::Stop(MilliSeconds(endMs) + NanoSeconds(1));
    Simulator::Run();
    DctcpTwoFlows result;
    uint64_t acked = 0;
    for (const auto& cc : probe.ccs)
    {
        result.marked += cc->GetMarkedBytes();
        acked += cc->GetAckedBytes();
    }
    result.k = probe.mmu->GetKmin(2);
    Simulator::Destroy();
    Config::Reset();
    std::vector<uint32_t> sorted = probe.queue;
    std::sort(sorted.begin(), sorted.end());
    result.peak = Quantile(sorted, 0.99) / 1058.0;
    result.trough = Quantile(sorted, 0.01) / 1058.0;
    double sum = 0;
    for (double a : probe.alpha)
    {
        sum += a;
    }
    result.meanAlpha = sum / static_cast<double>(probe.alpha.size());
    result.fraction = static_cast<double>(result.marked - probe.startMarked) /
                      static_cast<double>(acked - probe.startAcked);
    result.marks = probe.marks;
    return result;
}

/**
 * @ingroup llm-fabric-tests
 * N = 2 long DCTCP flows on one 10 Gb/s bottleneck: the queue and alpha against the DCTCP
 * paper's analysis (section 3.3), under the paper's conditions and under the defaults.
 */
class DctcpSteadyStateTestCase : public TestCase
{
  public:
    DctcpSteadyStateTestCase()
        : TestCase("DCTCP: 2 flows, queue peak near K + N, amplitude and alpha as analysed")
    {
    }

  private:
    void DoRun() override
    {
        // K at 10 Gb/s is 30 KB itself. The MMU counts a packet as its frame without FCS:
        // 1000 payload + 12 BTH + 4 ICRC + 8 UDP + 20 IPv4 + 14 Ethernet = 1058 bytes, so
        // K = 30000 / 1058 = 28.36 packets. On the wire a packet takes 1058 + 4 FCS + 20
        // preamble and gap = 1082 bytes, 865.6 ns at 10 Gb/s. The base RTT: a data packet
        // crosses two links (2 x (1 us + 865.6 ns)) and its ACK (62 bytes + 24 = 86 on the
        // wire, 68.8 ns) two more (2 x 1.0688 us): 5.869 us; C x RTT = 5.869 us / 865.6 ns =
        // 6.78 packets. The paper's analysis (section 3.3) for N = 2 synchronized flows:
        //   W* = (C RTT + K) / N = (6.78 + 28.36) / 2 = 17.57 packets,
        //   alpha ~ sqrt(2 / W*) = 0.337 (0.353 solving alpha^2 (1 - alpha / 4) = 2 / W*, the
        //   equation it comes from),
        //   Qmax = K + N = 30.36 packets = 32,120 bytes,
        //   A = 1/2 sqrt(2 N (C RTT + K)) = 1/2 sqrt(4 x 35.14) = 5.93 packets = 6,270 bytes,
        //   Qmin = Qmax - A = 24.43 packets = 25,850 bytes.
        const double kPackets = 30000.0 / 1058.0;
        const double n = 2;
        const double bdp = 5.869 / 0.8656;
        const double wStar = (bdp + kPackets) / n;
        const double qmax = kPackets + n;
        const double amplitude = 0.5 * std::sqrt(2 * n * (bdp + kPackets));
        NS_TEST_EXPECT_MSG_EQ_TOL(wStar, 17.57, 0.01, "W*");
        NS_TEST_EXPECT_MSG_EQ_TOL(amplitude, 5.93, 0.01, "A");

        // The paper's conditions: an ACK per packet (AckInterval 1), marks on arrival. What
        // still differs: (1) the queue is sampled every 100 ns for 20 ms, the peak and trough
        // are its 99th and 1st percentiles, within a packet of a sawtooth's extremes; (2) the
        // two flows are not forced into step as the analysis assumes: each cuts on its own
        // marks. So: peak in [K + N - 1, K + N + 1] packets, amplitude in [A / 2, A + 1]. Alpha:
        // the analysis marks one whole window of each flow per sawtooth, the most a cycle can
        // mark (the queue stays above K for one round trip); flows out of step are marked
        // less, so alpha lies below its 0.353 and, by our allowance (not derived), not more
        // than 30 % below 0.337: [0.236, 0.353].
        DctcpTwoFlows paper = RunDctcpTwoFlows(true);
        NS_TEST_EXPECT_MSG_EQ(paper.k, 30000, "K = 30 KB at 10 Gb/s");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(paper.peak, qmax - 1, "queue peak near K + N");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(paper.peak, qmax + 1, "queue peak near K + N");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(paper.peak - paper.trough, amplitude / 2, "amplitude");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(paper.peak - paper.trough, amplitude + 1, "amplitude");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(paper.meanAlpha, 0.7 * 0.337, "alpha ~ sqrt(2 / W*)");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(paper.meanAlpha, 0.353, "alpha ~ sqrt(2 / W*)");

        // The defaults: ACKs coalesced (AckInterval 16, AckDelay 4 us) and marks at dequeue.
        // The ACK of the first marked packet may wait for the CE state to change back, the
        // count, the window's AckReq or AckDelay: at 10 Gb/s with 2 flows each flow's packets
        // are 1.73 us apart, so its window grows on for up to 4 / 5.87 = 0.68 RTT more: N x
        // 0.68 = 1.4 packets more at the peak (and as much more amplitude). So: peak in
        // [K + N - 1, K + N + 1.4 + 1], amplitude in [A / 2, A + 1.4 + 1]. Marking at dequeue
        // tells the sender without the wait behind the queue (5.9 us instead of the 30 us a
        // marked packet queues behind K), so each sawtooth marks fewer bytes and alpha is
        // lower than the analysis's (about 0.14 here, 0.16 with per-packet ACKs, 0.17 with
        // marks on arrival: not checked against it). Its time mean is still the marked share of
        // the bytes, which it estimates, within 10 % (its EWMA over 16 windows of about 30 us
        // lags by 0.5 ms in 20 ms).
        DctcpTwoFlows defaults = RunDctcpTwoFlows(false);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(defaults.peak, qmax - 1, "queue peak near K + N");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(defaults.peak, qmax + 1.4 + 1, "queue peak near K + N");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(defaults.peak - defaults.trough, amplitude / 2, "amplitude");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(defaults.peak - defaults.trough,
                                    amplitude + 1.4 + 1,
                                    "amplitude");
        NS_TEST_EXPECT_MSG_GT(defaults.meanAlpha, 0.0, "some bytes are marked");
        NS_TEST_EXPECT_MSG_EQ_TOL(defaults.meanAlpha,
                                  defaults.fraction,
                                  defaults.fraction * 0.10,
                                  "alpha ~ marked share");
        // Exact marked bytes: every marked packet carries 1000 payload bytes, is delivered once
        // (PFC, no loss) and acknowledged by an ACK whose BECN is its CE state, so the senders
        // count 1000 bytes per mark, except marks on packets not yet acknowledged when the run
        // stops (at most a window each, 2 x 40 packets).
        for (const DctcpTwoFlows* run : {&paper, &defaults})
        {
            NS_TEST_EXPECT_MSG_LT_OR_EQ(run->marked, run->marks * 1000, "no byte counted twice");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(run->marked + 2 * 40 * 1000,
                                        run->marks * 1000,
                                        "every marked byte counted but those in flight");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * DCTCP counts exactly the bytes the switch marked: two finite flows, all acknowledged.
 */
class DctcpExactCountTestCase : public TestCase
{
  public:
    DctcpExactCountTestCase()
        : TestCase("DCTCP: the marked bytes the senders count are the switch marks x 1000")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper topo;
        topo.SetMmuBufferAndEcn("12MB", "30000B", "30000B", 1.0, true);
        RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
        auto ep = InstallCc(fabric, Dctcp::GetTypeId());
        std::vector<Ptr<Dctcp>> ccs;
        for (uint32_t s = 0; s < 2; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[2], 0xC000 + s);
            a->PostWrite(2000000);
            ccs.push_back(DynamicCast<Dctcp>(a->GetCongestionControl()));
        }
        uint64_t marks = 0;
        fabric.GetSwitch(0)->TraceConnectWithoutContext("EcnMark",
                                                        MakeBoundCallback(&CountDctcpMark, &marks));
        Simulator::Run();
        uint64_t marked = ccs[0]->GetMarkedBytes() + ccs[1]->GetMarkedBytes();
        uint64_t acked = ccs[0]->GetAckedBytes() + ccs[1]->GetAckedBytes();
        Simulator::Destroy();
        Config::Reset();
        // Two initial windows of 100 KB at line rate into one 100 Gb/s port exceed K = 30 KB:
        // packets are marked. Every packet has 1000 payload bytes (2,000,000-byte messages),
        // arrives once and is acknowledged once, by an ACK of its CE state.
        NS_TEST_EXPECT_MSG_EQ(acked, 4000000, "everything acknowledged once");
        NS_TEST_ASSERT_MSG_GT(marks, 0, "the switch marked");
        NS_TEST_EXPECT_MSG_EQ(marked, marks * 1000, "marked bytes = marks x 1000, exactly");
    }
};

/**
 * @ingroup llm-fabric-tests
 * DCTCP over RDMA.
 */
class DctcpTestSuite : public TestSuite
{
  public:
    DctcpTestSuite()
        : TestSuite("llm-fabric-dctcp", Type::SYSTEM)
    {
        AddTestCase(new DctcpRulesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DctcpMarkingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DctcpExactCountTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DctcpSteadyStateTestCase, ns3::llmfabric::TEST_QUICK);
        // 16-to-1 incast (CcIncastTestCase). The switch marks as DCTCP asks: a step at
        // 30 KB x 100 / 10 = 300 KB, Pmax 1; 16 initial windows of 100 KB exceed it. Without
        // PFC, that 1.6 MB burst exceeds the 428,800-byte lossy pool.
        AddTestCase(
            new CcIncastTestCase("DCTCP: 16-to-1 incast, with and without PFC; reruns identical",
                                 Dctcp::GetTypeId(),
                                 {300000, 300000, 1.0, true}),
            ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static DctcpTestSuite g_dctcpTestSuite;

} // namespace tests
} // namespace llmfabric
