/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-test-util.h"
#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/switch-mmu.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

namespace ns3
{

/**
 * @ingroup llm-fabric-tests
 * A congestion control that starts at 10 Mb/s and jumps to the line rate 10 us later: the pacer
 * must let the next packet go at once then, not when the slow slot would have ended.
 */
class TestStepRateCc : public RdmaCongestionOps
{
  public:
    /** @return the TypeId. */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TestStepRateCc")
                                .SetParent<RdmaCongestionOps>()
                                .AddConstructor<TestStepRateCc>();
        return tid;
    }

    std::string GetName() const override
    {
        return "TestStepRateCc";
    }

    void Start(DataRate lineRate) override
    {
        RdmaCongestionOps::Start(lineRate);
        SetRate(DataRate("10Mbps"));
        m_step = ScheduleLambda(MicroSeconds(10), [this, lineRate]() { SetRate(lineRate); });
    }

    void Stop() override
    {
        m_step.Cancel();
    }

  private:
    EventId m_step; //!< the jump to the line rate
};

NS_OBJECT_ENSURE_REGISTERED(TestStepRateCc);

} // namespace ns3

namespace llmfabric
{
namespace tests
{

namespace
{

/// Records message completions.
class Completions
{
  public:
    /**
     * @param qp the queue pair.
     * @param id the message id.
     * @param bytes its size.
     */
    void Done(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
    {
        times.push_back(Simulator::Now());
        sizes.push_back(bytes);
    }

    std::vector<Time> times;     //!< completion times
    std::vector<uint64_t> sizes; //!< message sizes
};

/**
 * One message from host 0 to host 1 of a two-host star (MakeRdmaStar: 100 Gb/s, 1 us links)
 * over one queue pair, with its completion recorded at both ends. The attribute defaults set
 * before the constructor apply.
 */
struct OneMessage
{
    /**
     * Build the star and the queue pair, and post the message at time 0.
     * @param bytes the message size.
     * @param lostFrames the frames the receiver's port loses (see LoseReceivedFrames).
     */
    explicit OneMessage(uint64_t bytes, const std::list<uint32_t>& lostFrames = {})
    {
        auto ep = MakeRdmaStar(2, topo, fabric);
        if (!lostFrames.empty())
        {
            LoseReceivedFrames(fabric, 1, lostFrames);
        }
        std::tie(sender, receiver) = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        sender->SetSendCompleteCallback(MakeCallback(&Completions::Done, &sent));
        receiver->SetReceiveCompleteCallback(MakeCallback(&Completions::Done, &received));
        sender->PostWrite(bytes);
    }

    /**
     * Run the simulation to its end, keep the queue pairs' counters, then destroy the
     * simulation and reset the attribute defaults.
     */
    void Run()
    {
        Simulator::Run();
        timeouts = sender->GetTimeouts();
        retransmissions = sender->GetRetransmissions();
        naks = sender->GetNaksReceived();
        outOfOrder = receiver->GetOutOfOrderPackets();
        Simulator::Destroy();
        Config::Reset();
    }

    RoceTopologyHelper topo;     //!< the topology helper
    RoceFabric fabric;           //!< the star
    Ptr<RdmaQueuePair> sender;   //!< host 0's queue pair
    Ptr<RdmaQueuePair> receiver; //!< host 1's queue pair
    Completions sent;            //!< the sender's acknowledged messages
    Completions received;        //!< the receiver's complete messages
    uint64_t timeouts{0};        //!< the sender's retransmission timeouts
    uint64_t retransmissions{0}; //!< packets the sender sent again
    uint64_t naks{0};            //!< NAKs the sender received
    uint64_t outOfOrder{0};      //!< packets the receiver still holds out of order
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * One message on an idle path completes (its last ACK is back) at exactly the time derived from
 * wire bytes, rate, hops and delays.
 */
class RdmaSingleMessageTestCase : public TestCase
{
  public:
    RdmaSingleMessageTestCase()
        : TestCase("One message on an idle path completes at the derived time (0.1 %)")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        OneMessage run(10000);
        run.Run();
        const Completions& sent = run.sent;
        const Completions& received = run.received;
        NS_TEST_ASSERT_MSG_EQ(received.sizes.size(), 1, "the receiver gets the message");
        NS_TEST_ASSERT_MSG_EQ(received.sizes[0], 10000, "all of it");
        NS_TEST_ASSERT_MSG_EQ(sent.sizes.size(), 1, "the sender sees it acknowledged");
        // 10 packets of 1000 payload bytes. A data packet from IPv4 to ICRC is payload + BTH 12
        // + UDP 8 + IPv4 20 + ICRC 4 = payload + 44 (+ 16 for the RETH of the first), so frames
        // are 1058 bytes (1074 for the first) and occupy 1082 (1098) bytes of wire with FCS,
        // preamble and gap: 86.56 ns (87.84 ns) at 100 Gb/s. The last packet starts at
        // 87.84 + 8 x 86.56 = 780.32 ns; its last bit (8 + 1058 + 4 bytes, 85.6 ns) leaves at
        // 865.92 ns and reaches the switch at 1865.92 ns, which forwards it at once (its port
        // to the receiver is free): 1865.92 + 85.6 + 1000 = 2951.52 ns at the receiver.
        // The ACK (BTH 12 + AETH 4 + 32 = 48 bytes, a 62-byte frame: (8 + 62 + 4) x 0.08 =
        // 5.92 ns) crosses two hops: 2951.52 + 2 x (5.92 + 1000) = 4963.36 ns.
        double fct = static_cast<double>(sent.times[0].GetPicoSeconds()) / 1000.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(fct, 4963.36, 4963.36 * 0.001, "completion time");
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(received.times[0].GetPicoSeconds()) / 1000.0,
                                  2951.52,
                                  2951.52 * 0.001,
                                  "arrival of the last byte");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Incast with PFC: nothing dropped, every message done, the receiver's link at line rate. PFC
 * off with a small buffer: drops, and both go-back-N and selective repeat still complete every
 * message; selective repeat resends fewer packets.
 */
class RdmaIncastTestCase : public TestCase
{
  public:
    RdmaIncastTestCase()
        : TestCase("Incast: lossless with PFC at line rate; without PFC, drops recovered")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        std::vector<uint64_t> lossyResent; // go-back-N, then selective repeat
        for (int mode : {0, 1, 2})
        {
            bool pfc = mode == 0;
            Config::SetDefault(
                "ns3::RdmaQueuePair::Recovery",
                EnumValue(mode == 2 ? RdmaQueuePair::SELECTIVE_REPEAT : RdmaQueuePair::GO_BACK_N));
            RoceTopologyHelper topo;
            if (!pfc)
            {
                topo.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
                topo.SetMmuAttribute("Buffer", QueueSizeValue(QueueSize("300KB")));
            }
            RoceFabric fabric;
            auto ep = MakeRdmaStar(5, topo, fabric);
            Completions done;
            Completions received;
            std::vector<Ptr<RdmaQueuePair>> qps;
            std::vector<Ptr<RdmaQueuePair>> receivers;
            for (uint32_t s = 0; s < 4; ++s)
            {
                auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[4], 0xC000 + s);
                a->SetSendCompleteCallback(MakeCallback(&Completions::Done, &done));
                b->SetReceiveCompleteCallback(MakeCallback(&Completions::Done, &received));
                a->PostWrite(200000);
                qps.push_back(a);
                receivers.push_back(b);
            }
            Simulator::Run();
            uint64_t drops = fabric.GetSwitch(0)->GetTotalDrops();
            uint64_t retransmissions = 0;
            uint64_t kept = 0;
            for (uint32_t s = 0; s < 4; ++s)
            {
                retransmissions += qps[s]->GetRetransmissions();
                kept += receivers[s]->GetOutOfOrderPackets();
            }
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(done.sizes.size(), 4, "every message completes");
            NS_TEST_ASSERT_MSG_EQ(received.sizes.size(), 4, "every message arrives");
            for (uint64_t size : received.sizes)
            {
                NS_TEST_EXPECT_MSG_EQ(size, 200000, "whole, once");
            }
            NS_TEST_EXPECT_MSG_EQ(kept, 0, "nothing left out of order");
            if (pfc)
            {
                NS_TEST_EXPECT_MSG_EQ(drops, 0, "PFC: no drop");
                NS_TEST_EXPECT_MSG_EQ(retransmissions, 0, "nothing to resend");
                // Each sender: 200 packets, the first 1098 wire bytes, the others 1082:
                // 216,416 bytes; four of them cross the receiver's link back to back:
                // 865,664 bytes x 0.08 ns = 69,253.12 ns. The first data packet needs 87.84 ns
                // + 1 us to the switch, the last one 85.6 ns + 1 us from the switch, and the
                // last ACK 2 x 1005.92 ns back: bound = 69,253.12 + 1087.84 + 1085.6 + 2011.84
                // = 73,438.4 ns (the last packet's own wire time is in the sum). Within 2 %.
                Time last = *std::max_element(done.times.begin(), done.times.end());
                NS_TEST_EXPECT_MSG_LT(last, NanoSeconds(73438 * 102 / 100), "near line rate");
                NS_TEST_EXPECT_MSG_GT(last, NanoSeconds(73438 - 100), "not faster");
            }
            else
            {
                NS_TEST_EXPECT_MSG_GT(drops, 0, "without PFC the small buffer drops");
                NS_TEST_EXPECT_MSG_GT(retransmissions, 0, "and the lost packets are resent");
                lossyResent.push_back(retransmissions);
            }
        }
        Config::Reset();
        // Go-back-N resends every packet in flight behind a loss; selective repeat only the lost
        // ones, so it must resend fewer.
        NS_TEST_EXPECT_MSG_LT(lossyResent[1], lossyResent[0], "selective repeat resends less");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A dropped last packet (no NAK can reveal it) is recovered by the retransmission timer, with a
 * 100 us timeout and with the default 1 ms one, within two timeouts.
 */
class RdmaTailLossTestCase : public TestCase
{
  public:
    RdmaTailLossTestCase()
        : TestCase("A lost last packet is recovered by the retransmission timer")
    {
    }

  private:
    void DoRun() override
    {
        for (auto recovery : {RdmaQueuePair::GO_BACK_N, RdmaQueuePair::SELECTIVE_REPEAT})
        {
            Run(recovery, MicroSeconds(100));
            Run(recovery, MilliSeconds(1)); // the default
        }
    }

    /**
     * Lose the last packet with one recovery mode.
     * @param recovery the mode.
     * @param rto the retransmission timeout.
     */
    void Run(RdmaQueuePair::Recovery recovery, Time rto)
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        Config::SetDefault("ns3::RdmaQueuePair::RetransmitTimeout", TimeValue(rto));
        Config::SetDefault("ns3::RdmaQueuePair::Recovery", EnumValue(recovery));
        // The receiver's port drops the 10th frame it receives: the message's last packet.
        OneMessage run(10000, {9});
        run.Run();
        const Completions& sent = run.sent;
        NS_TEST_ASSERT_MSG_EQ(sent.sizes.size(), 1, "the message completes");
        NS_TEST_EXPECT_MSG_EQ(run.timeouts, 1, "after one timeout");
        // The receiver acknowledges packets 0..8 AckDelay (4 us) after packet 0 arrived (a
        // 1074-byte frame with its RETH: last bit out after 86.88 ns, at the receiver after
        // 2 x 1086.88 = 2173.76 ns), at 6173.76 ns, although neither the count (16) nor an
        // AckReq (on the lost packet 9) asks for it; the ACK (2 x 1005.92 ns) is back at
        // 8185.6 ns. So only packet 9 is unacknowledged, in either mode, and only it is resent.
        NS_TEST_EXPECT_MSG_EQ(run.retransmissions, 1, "only the lost packet is resent");
        // The timer counts from the later of packet 9's send (693.76 ns) and that progress:
        // it expires at 8185.6 ns + rto. Packet 9 again (a 1058-byte frame, 85.6 ns) and its
        // ACK take 2 x 1085.6 + 2011.84 = 4183.04 ns more: 112,368.64 ns with rto = 100 us,
        // 1,012,368.64 ns with the default 1 ms, inside two timeouts. Within 0.1 %.
        double expected = 8185.6 + static_cast<double>(rto.GetPicoSeconds()) / 1000.0 + 4183.04;
        double end = static_cast<double>(sent.times[0].GetPicoSeconds()) / 1000.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(end, expected, expected * 0.001, "completion after the timeout");
        NS_TEST_EXPECT_MSG_LT(end,
                              2.0 * static_cast<double>(rto.GetPicoSeconds()) / 1000.0,
                              "recovered within two timeouts");
    }
};

/**
 * @ingroup llm-fabric-tests
 * One packet lost in the middle of a message: go-back-N resends everything sent behind it before
 * the NAK came back; selective repeat resends that packet alone.
 */
class RdmaSingleLossTestCase : public TestCase
{
  public:
    RdmaSingleLossTestCase()
        : TestCase("One lost packet: go-back-N resends the window, selective repeat one packet")
    {
    }

  private:
    void DoRun() override
    {
        // Derivation (star of two hosts, 100 Gb/s, 1 us links, MTU 1000, one 100,000-byte
        // message: packets 0..99; the receiver drops packet 10, the 11th frame it receives).
        // As in the single-message test, packet 0 occupies 87.84 ns of wire and the others
        // 86.56 ns, so packet k >= 1 starts at 87.84 + (k - 1) 86.56 ns: packet 11 at
        // 953.44 ns. It is the first packet after the gap, so the receiver NAKs when it has
        // arrived: 85.6 + 1000 (to the switch) + 85.6 + 1000 (to the receiver) later, and the
        // NAK (a 62-byte frame, 5.92 ns a hop) is back 2 x 1005.92 later: at 953.44 + 2171.2 +
        // 2011.84 = 5136.48 ns (a little later with the simulator's whole-nanosecond events).
        // The frame then on the wire started at or before that: 87.84 + (k - 1) 86.56 <=
        // 5136.48 gives k = 59 (started at 5108.32 ns), and at the line rate the endpoint hands
        // the port the next packet as soon as a frame starts, so packet 60 already waits in the
        // port's queue. So go-back-N had sent packets 10..60 once (51 packets) and sends them
        // again: 51 retransmissions, 1 NAK, no timeout (the NAK arrives 28 ns after frame 59
        // starts, 58 ns before it ends). Selective repeat resends packet 10 alone: 1
        // retransmission, 1 NAK; the receiver keeps 11..60 meanwhile and has nothing left out of
        // order at the end.
        const uint64_t expectedResent[] = {51, 1};
        std::vector<Time> done;
        for (auto recovery : {RdmaQueuePair::GO_BACK_N, RdmaQueuePair::SELECTIVE_REPEAT})
        {
            Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
            Config::SetDefault("ns3::RdmaQueuePair::Recovery", EnumValue(recovery));
            OneMessage run(100000, {10});
            run.Run();
            NS_TEST_ASSERT_MSG_EQ(run.sent.sizes.size(), 1, "the message completes");
            NS_TEST_ASSERT_MSG_EQ(run.received.sizes.size(), 1, "and arrives once");
            NS_TEST_EXPECT_MSG_EQ(run.received.sizes[0], 100000, "whole");
            NS_TEST_EXPECT_MSG_EQ(run.naks, 1, "one NAK");
            NS_TEST_EXPECT_MSG_EQ(run.timeouts, 0, "no timeout");
            NS_TEST_EXPECT_MSG_EQ(run.outOfOrder, 0, "nothing left out of order");
            NS_TEST_EXPECT_MSG_EQ(run.retransmissions,
                                  expectedResent[done.size()],
                                  "retransmissions");
            done.push_back(run.sent.times[0]);
        }
        NS_TEST_EXPECT_MSG_LT(done[1], done[0], "selective repeat finishes first");
    }
};

/**
 * @ingroup llm-fabric-tests
 * However many CE-marked packets arrive, a queue pair sends at most one CNP per CnpInterval.
 */
class RdmaCnpPacingTestCase : public TestCase
{
  public:
    RdmaCnpPacingTestCase()
        : TestCase("At most one CNP per queue pair per CnpInterval")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper topo;
        // Mark every ECT packet that finds more than one byte queued.
        SetEcnMarking(topo, "0B", "1B", 1.0);
        RoceFabric fabric;
        auto ep = MakeRdmaStar(3, topo, fabric);
        std::vector<Ptr<RdmaQueuePair>> receivers;
        std::vector<Ptr<RdmaQueuePair>> senders;
        for (uint32_t s = 0; s < 2; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[2], 0xC000 + s);
            a->PostWrite(1000000);
            senders.push_back(a);
            receivers.push_back(b);
        }
        Simulator::Run();
        Time end = Simulator::Now();
        uint64_t marks = fabric.GetSwitch(0)->GetEcnMarks(2, 3);
        std::vector<uint64_t> cnps;
        std::vector<uint64_t> cnpsReceived;
        for (uint32_t s = 0; s < 2; ++s)
        {
            cnps.push_back(receivers[s]->GetCnpsSent());
            cnpsReceived.push_back(senders[s]->GetCnpsReceived());
        }
        Simulator::Destroy();
        Config::Reset();
        // Two senders at line rate into one port: 2 MB take about 170 us to drain, with
        // hundreds of packets marked. One CNP per 50 us per queue pair at most: the run lasts
        // `end`, so at most end / 50 us + 1 CNPs each.
        NS_TEST_ASSERT_MSG_GT(marks, 100, "many packets were marked");
        uint64_t most = static_cast<uint64_t>(end.GetMicroSeconds() / 50) + 1;
        for (uint32_t s = 0; s < 2; ++s)
        {
            NS_TEST_EXPECT_MSG_GT(cnps[s], 0, "CE packets bring CNPs");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(cnps[s], most, "at most one per 50 us");
            NS_TEST_EXPECT_MSG_EQ(cnpsReceived[s], cnps[s], "each reaches its sender");
        }
    }
};

/// Samples the data packets a set of queue pairs sent and the bottleneck queue.
class ConvergenceProbe
{
  public:
    /// Record every sender's packet count now.
    void SamplePackets()
    {
        std::vector<uint64_t> row;
        for (const auto& qp : senders)
        {
            row.push_back(qp->GetPacketsSent());
        }
        packets.push_back(row);
    }

    /// Record the bottleneck queue's length now, and again one interval later.
    void SampleQueue()
    {
        queue.push_back(mmu->GetEgressBytes(port, 3));
        if (Simulator::Now() < queueEnd)
        {
            Simulator::Schedule(queueInterval, &ConvergenceProbe::SampleQueue, this);
        }
    }

    std::vector<Ptr<RdmaQueuePair>> senders;    //!< the flows
    std::vector<std::vector<uint64_t>> packets; //!< per sample, per flow
    Ptr<SwitchMmu> mmu;                         //!< the switch's MMU
    uint32_t port{0};                           //!< the bottleneck port
    Time queueInterval;                         //!< queue sampling interval
    Time queueEnd;                              //!< last queue sample
    std::vector<uint32_t> queue;                //!< queue samples, bytes
};

/**
 * @ingroup llm-fabric-tests
 * DCQCN: flows that join one by one end up with equal shares of the bottleneck, and its queue
 * settles between the ECN thresholds.
 */
class DcqcnConvergenceTestCase : public TestCase
{
  public:
    DcqcnConvergenceTestCase()
        : TestCase("DCQCN: staggered flows converge to fair shares; queue near the ECN band")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        Config::SetDefault("ns3::RdmaEndpoint::CongestionControl", TypeIdValue(Dcqcn::GetTypeId()));
        RoceTopologyHelper topo;
        SetEcnMarking(topo, "5KB", "200KB", 0.01);
        RoceFabric fabric;
        auto ep = MakeRdmaStar(4, topo, fabric, DataRate("10Gbps"));
        ConvergenceProbe probe;
        for (uint32_t s = 0; s < 3; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[3], 0xC000 + s);
            Simulator::Schedule(MilliSeconds(2 * s), &RdmaQueuePair::PostWrite, a, 100000000);
            probe.senders.push_back(a);
        }
        probe.mmu = fabric.GetSwitch(0)->GetMmu();
        probe.port = 3;
        probe.queueInterval = MicroSeconds(10);
        probe.queueEnd = MilliSeconds(MEASURE_END_MS);
        for (uint32_t ms = 0; ms <= MEASURE_END_MS; ++ms)
        {
            Simulator::Schedule(MilliSeconds(ms), &ConvergenceProbe::SamplePackets, &probe);
        }
        Simulator::Schedule(MilliSeconds(MEASURE_START_MS), &ConvergenceProbe::SampleQueue, &probe);
        Simulator::Stop(MilliSeconds(MEASURE_END_MS) + NanoSeconds(1));
        Simulator::Run();
        Simulator::Destroy();
        Config::Reset();
        // Payload rate of a full 10 Gb/s link with 1000-byte packets: each occupies 1082 bytes
        // of wire (1000 + 44 of IPv4/UDP/BTH/ICRC + 18 Ethernet + 20 preamble and gap), so
        // 10 x 1000 / 1082 = 9.242 Gb/s; a fair share is a third of what the three get.
        const double window = (MEASURE_END_MS - MEASURE_START_MS) * 1e-3;
        std::vector<double> gbps;
        double total = 0;
        for (uint32_t s = 0; s < 3; ++s)
        {
            uint64_t sent = probe.packets[MEASURE_END_MS][s] - probe.packets[MEASURE_START_MS][s];
            gbps.push_back(static_cast<double>(sent) * 1000 * 8 / window / 1e9);
            total += gbps.back();
        }
        // Without losses every packet sent is delivered once: the bottleneck stays busy.
        NS_TEST_EXPECT_MSG_GT(total, 0.95 * 9.242, "the bottleneck is kept busy");
        // Fair shares within 10 % of the mean share (the three flows joined at 0, 2 and 4 ms:
        // the first had the whole link, so equality is not inherited from a symmetric start),
        // and Jain's index (sum x)^2 / (n sum x^2) above 0.99. The window is long (80 ms):
        // DCQCN's shares wander on a scale of tens of milliseconds at these settings (over 5 ms
        // windows they range from 2.3 to 4.0 Gb/s, about a third each over 80 ms), because a
        // faster flow also reaches its byte counter sooner, so a 20 ms window is no measure.
        double squares = 0;
        for (uint32_t s = 0; s < 3; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(gbps[s], total / 3, total / 3 * 0.10, "fair share");
            squares += gbps[s] * gbps[s];
        }
        NS_TEST_EXPECT_MSG_GT(total * total / (3 * squares), 0.99, "Jain's fairness index");
        // The queue oscillates around where marking (0 at 5 KB, 1 % at 200 KB) paces the CNPs
        // that balance the rate increases: its mean stays inside the ECN band, well above
        // Kmin (the link never idles) and below Kmax (it does not grow without bound), and it
        // never reaches a PFC threshold (no pauses would be needed).
        double sum = 0;
        for (uint32_t q : probe.queue)
        {
            sum += q;
        }
        double mean = sum / static_cast<double>(probe.queue.size());
        NS_TEST_EXPECT_MSG_GT(mean, 5000.0, "queue above Kmin on average");
        NS_TEST_EXPECT_MSG_LT(mean, 200000.0, "queue below Kmax on average");
    }

    static constexpr uint32_t MEASURE_START_MS = 20; //!< start of the measured window
    static constexpr uint32_t MEASURE_END_MS = 100;  //!< its end
};

/**
 * @ingroup llm-fabric-tests
 * A sender whose port PFC pauses for three timeouts does not time out: the retransmission
 * timer runs on the endpoint's unpaused clock. The packet handed to the port just before the
 * pause waits in it, unacknowledged, for the whole pause.
 */
class RdmaPausedNoTimeoutTestCase : public TestCase
{
  public:
    RdmaPausedNoTimeoutTestCase()
        : TestCase("A sender paused by PFC for 3 timeouts neither times out nor resends")
    {
    }

  private:
    /**
     * Pause the peer of a switch port for priority 3 again and again.
     * @param port the switch's port towards the sender.
     * @param until stop pausing at this time.
     */
    static void Pause(Ptr<RoceNetDevice> port, Time until)
    {
        // 65535 quanta of 512 bit times at 100 Gb/s: 335.5 us; refreshed every 300 us.
        port->SendPfc(3, 0xFFFF);
        if (Simulator::Now() + MicroSeconds(300) < until)
        {
            Simulator::Schedule(MicroSeconds(300), &Pause, port, until);
        }
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        OneMessage run(100000);
        const RoceFabric& fabric = run.fabric;
        // From 2 us (after about 23 packets) to 3 ms, with the default 1 ms timeout.
        Simulator::Schedule(MicroSeconds(2),
                            &Pause,
                            fabric.GetSwitch(0)->GetPort(0),
                            MilliSeconds(3));
        bool pausedAtOneMs = false;
        ScheduleLambda(MilliSeconds(1), [&pausedAtOneMs, &fabric]() {
            pausedAtOneMs = fabric.GetHostDevice(0)->IsPaused(3);
        });
        run.Run();
        NS_TEST_EXPECT_MSG_EQ(pausedAtOneMs, true, "the sender's port is paused");
        NS_TEST_ASSERT_MSG_EQ(run.sent.sizes.size(), 1, "the message completes");
        NS_TEST_EXPECT_MSG_GT(run.sent.times[0], MilliSeconds(3), "after the pause");
        NS_TEST_EXPECT_MSG_EQ(run.timeouts, 0, "no timeout while paused");
        NS_TEST_EXPECT_MSG_EQ(run.retransmissions, 0, "nothing resent");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Lossless incast (PFC on, no error model) never resends, whatever the congestion control, MTU
 * or rate: none; fixed at the fair share, at 1 Gb/s and at 20 Mb/s; DCQCN with the mlx5, the
 * sigcomm2015 and the simai profiles (simai with its window of 8 us at the rate); MTU 1000 and
 * 4096; links of 100 and 400 Gb/s (the examples' rates).
 * 16 senders of 1 MB (100 KB at 20 Mb/s) to one receiver with the paper DCQCN switch profile
 * (32 MB buffer, Kmin 400 KB, Kmax 1600 KB, Pmax 0.2), as the incast example's reviewer run.
 * At 20 Mb/s each flow's completion time also respects the rate.
 */
class RdmaLosslessNoResendTestCase : public TestCase
{
  public:
    RdmaLosslessNoResendTestCase()
        : TestCase("Lossless incast resends nothing for any CC, MTU or rate; slow flows paced")
    {
    }

  private:
    void DoRun() override
    {
        for (const char* rate : {"100Gbps", "400Gbps"})
        {
            for (uint32_t mtu : {1000U, 4096U})
            {
                for (const char* cc : {"none",
                                       "fair",
                                       "1Gbps",
                                       "20Mbps",
                                       "dcqcn-mlx5",
                                       "dcqcn-sigcomm2015",
                                       "dcqcn-simai"})
                {
                    Run(DataRate(rate), mtu, cc);
                }
            }
        }
    }

    /**
     * One incast.
     * @param linkRate every link's rate.
     * @param mtu the RDMA MTU.
     * @param cc none, fair (fixed at linkRate / 16), a fixed rate, or dcqcn-PROFILE.
     */
    void Run(DataRate linkRate, uint32_t mtu, const std::string& cc)
    {
        const uint32_t senders = 16;
        std::string what = cc + " at " + std::to_string(linkRate.GetBitRate() / 1000000000) +
                           " Gb/s, MTU " + std::to_string(mtu);
        DataRate fixed(0);
        if (cc == "fair")
        {
            fixed = DataRate(linkRate.GetBitRate() / senders);
        }
        else if (cc != "none" && cc.rfind("dcqcn-", 0) != 0)
        {
            fixed = DataRate(cc);
        }
        uint64_t bytes = fixed.GetBitRate() != 0 && fixed < DataRate("100Mbps") ? 100000 : 1000000;
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(mtu));
        TypeId ccType = TypeId::LookupByName("ns3::RdmaCcNone");
        if (fixed.GetBitRate() != 0)
        {
            ccType = TypeId::LookupByName("ns3::RdmaCcFixedRate");
            Config::SetDefault("ns3::RdmaCcFixedRate::Rate", DataRateValue(fixed));
        }
        else if (cc != "none")
        {
            ccType = Dcqcn::GetTypeId();
            NS_TEST_ASSERT_MSG_EQ(Dcqcn::SetDefaultProfile(cc.substr(6)), "", what);
        }
        RoceTopologyHelper topo;
        NS_TEST_ASSERT_MSG_EQ(topo.SetMmuBufferAndEcn("32MB", "400KB", "1600KB", 0.2, true),
                              "",
                              what);
        RoceFabric fabric = topo.BuildStar(senders + 1, linkRate, MicroSeconds(1));
        fabric.GetSwitch(0)->GetMmu()->ConfigurePorts(
            std::vector<DataRate>(senders + 1, linkRate),
            std::vector<Time>(senders + 1, MicroSeconds(1)));
        auto ep = InstallCc(fabric, ccType);
        Completions done;
        std::vector<Ptr<RdmaQueuePair>> qps;
        for (uint32_t s = 0; s < senders; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[senders], 0xC000 + s);
            a->SetSendCompleteCallback(MakeCallback(&Completions::Done, &done));
            a->PostWrite(bytes);
            qps.push_back(a);
        }
        Simulator::Run();
        uint64_t drops = fabric.GetSwitch(0)->GetTotalDrops();
        uint64_t resent = 0;
        uint64_t timeouts = 0;
        for (const auto& qp : qps)
        {
            resent += qp->GetRetransmissions();
            timeouts += qp->GetTimeouts();
        }
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(done.sizes.size(), senders, "every flow completes: " << what);
        NS_TEST_ASSERT_MSG_EQ(drops, 0, "PFC: no drop: " << what);
        NS_TEST_EXPECT_MSG_EQ(timeouts, 0, "no timeout without a loss: " << what);
        NS_TEST_EXPECT_MSG_EQ(resent, 0, "no resend without a loss: " << what);
        if (fixed.GetBitRate() != 0 && fixed < DataRate("100Mbps"))
        {
            // 100 packets of 1000 bytes (MTU 1000) or 24 of 4096 and one of 1696 (MTU 4096).
            // Each occupies payload + 44 (BTH, UDP, IPv4, ICRC; + 16 RETH for the first) + 38
            // (Ethernet header, FCS, preamble, gap) bytes of wire. The pacer lets a packet go
            // its wire time at the rate after the previous one, so the last leaves (W - w)/rate
            // after the first, W the flow's wire bytes and w the last packet's: at 20 Mb/s
            // (W - w) x 0.4 us, 42.85 ms with MTU 1000. With the 16 flows at 20 Mb/s the links
            // never queue, so the flow ends one last packet at line rate, two hops and an ACK
            // later: less than 20 us after that.
            uint64_t packets = (bytes + mtu - 1) / mtu;
            uint64_t wire = bytes + packets * (44 + 38) + 16;
            uint64_t last = bytes - (packets - 1) * mtu + 44 + 38;
            Time bound = fixed.CalculateBytesTxTime(wire - last);
            for (Time t : done.times)
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(t, bound, "no faster than the rate: " << what);
                NS_TEST_EXPECT_MSG_LT(t, bound + MicroSeconds(20), "paced at it: " << what);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Pacing follows a rate change at once: a packet's slot ends at its wire time at the rate now,
 * not at the rate it was sent at (the defect behind the incast example's 9.96 ms / 4.65 ms split
 * of identical flows: a flow cut to a low rate stayed there for a whole slow slot).
 */
class RdmaPacingRateRiseTestCase : public TestCase
{
  public:
    RdmaPacingRateRiseTestCase()
        : TestCase("A rate rise shortens the pacing gap of the packet already sent")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        Config::SetDefault("ns3::RdmaEndpoint::CongestionControl",
                           TypeIdValue(TypeId::LookupByName("ns3::TestStepRateCc")));
        OneMessage run(10000);
        run.Run();
        NS_TEST_ASSERT_MSG_EQ(run.sent.sizes.size(), 1, "the message completes");
        // The first packet (1098 wire bytes, see RdmaSingleMessageTestCase) leaves at 0; at
        // 10 Mb/s its slot would last 1098 x 8 / 1e7 s = 878.4 us. At 10 us the rate becomes
        // 100 Gb/s, under which that slot ended at 87.84 ns: the second packet leaves at 10 us
        // and the other eight follow at line rate (86.56 ns each), so the last starts at
        // 10000 + 8 x 86.56 = 10692.48 ns. From the last packet's start to the ACK's return
        // the single-message case takes 4963.36 - 780.32 = 4183.04 ns: done at 14875.52 ns.
        // (Had the slot kept the old rate, the second packet would wait until 878.4 us.)
        double fct = static_cast<double>(run.sent.times[0].GetPicoSeconds()) / 1000.0;
        NS_TEST_EXPECT_MSG_EQ_TOL(fct, 14875.52, 14875.52 * 0.001, "completion time");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The reliable transport over the fabric.
 */
class RdmaTransportTestSuite : public TestSuite
{
  public:
    RdmaTransportTestSuite()
        : TestSuite("llm-fabric-rdma-transport", Type::SYSTEM)
    {
        AddTestCase(new RdmaSingleMessageTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaIncastTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaTailLossTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaSingleLossTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaCnpPacingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DcqcnConvergenceTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaPausedNoTimeoutTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaLosslessNoResendTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaPacingRateRiseTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RdmaTransportTestSuite g_rdmaTransportTestSuite;

} // namespace tests
} // namespace llmfabric
