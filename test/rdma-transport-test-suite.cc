/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <vector>

using namespace ns3;

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
 * A star of hosts with RDMA endpoints.
 * @param hosts number of hosts.
 * @param topo the topology helper (with its MMU settings).
 * @param fabric receives the fabric.
 * @return the endpoints.
 */
std::vector<Ptr<RdmaEndpoint>>
MakeStar(uint32_t hosts, RoceTopologyHelper& topo, RoceFabric& fabric)
{
    fabric = topo.BuildStar(hosts, DataRate("100Gbps"), MicroSeconds(1));
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    return rdma.Install(fabric);
}

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
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = MakeStar(2, topo, fabric);
        auto [a, b] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Completions sent;
        Completions received;
        a->SetSendCompleteCallback(MakeCallback(&Completions::Done, &sent));
        b->SetReceiveCompleteCallback(MakeCallback(&Completions::Done, &received));
        a->PostWrite(10000);
        Simulator::Run();
        Simulator::Destroy();
        Config::Reset();
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
 * off with a small buffer: drops, and go-back-N still completes every message.
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
        for (bool pfc : {true, false})
        {
            RoceTopologyHelper topo;
            if (!pfc)
            {
                topo.SetMmuAttribute("LosslessPriorities", UintegerValue(0));
                topo.SetMmuAttribute("Buffer", QueueSizeValue(QueueSize("300KB")));
            }
            RoceFabric fabric;
            auto ep = MakeStar(5, topo, fabric);
            Completions done;
            std::vector<Ptr<RdmaQueuePair>> qps;
            for (uint32_t s = 0; s < 4; ++s)
            {
                auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[4], 0xC000 + s);
                a->SetSendCompleteCallback(MakeCallback(&Completions::Done, &done));
                a->PostWrite(200000);
                qps.push_back(a);
            }
            Simulator::Run();
            uint64_t drops = fabric.GetSwitch(0)->GetTotalDrops();
            uint64_t retransmissions = 0;
            for (const auto& qp : qps)
            {
                retransmissions += qp->GetRetransmissions();
            }
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(done.sizes.size(), 4, "every message completes");
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
                NS_TEST_EXPECT_MSG_GT(retransmissions, 0, "and go-back-N resends");
            }
        }
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * A dropped last packet (no NAK can reveal it) is recovered by the retransmission timer.
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
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        Config::SetDefault("ns3::RdmaQueuePair::RetransmitTimeout", TimeValue(MicroSeconds(100)));
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = MakeStar(2, topo, fabric);
        // The receiver's port drops the 10th frame it receives: the message's last packet.
        Ptr<ReceiveListErrorModel> loss = CreateObject<ReceiveListErrorModel>();
        loss->SetList({9});
        fabric.GetHostDevice(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        auto [a, b] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Completions sent;
        a->SetSendCompleteCallback(MakeCallback(&Completions::Done, &sent));
        a->PostWrite(10000);
        Simulator::Run();
        uint64_t timeouts = a->GetTimeouts();
        uint64_t resent = a->GetRetransmissions();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_EQ(sent.sizes.size(), 1, "the message completes");
        NS_TEST_EXPECT_MSG_EQ(timeouts, 1, "after one timeout");
        // No ACK came back (the receiver acknowledges at the last packet, which was lost), so
        // go-back-N resends all 10 packets after the 100 us timeout armed at the first send.
        NS_TEST_EXPECT_MSG_EQ(resent, 10, "go-back-N from the first unacknowledged packet");
        // Timeout at 100 us, then the same 10-packet exchange as on an idle path (4963.36 ns).
        NS_TEST_EXPECT_MSG_GT(sent.times[0], MicroSeconds(100), "after the timeout");
        NS_TEST_EXPECT_MSG_LT(sent.times[0], MicroSeconds(106), "one exchange later");
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
        topo.SetMmuAttribute("Kmin", QueueSizeValue(QueueSize("0B")));
        topo.SetMmuAttribute("Kmax", QueueSizeValue(QueueSize("1B")));
        topo.SetMmuAttribute("Pmax", DoubleValue(1.0));
        RoceFabric fabric;
        auto ep = MakeStar(3, topo, fabric);
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
        AddTestCase(new RdmaCnpPacingTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RdmaTransportTestSuite g_rdmaTransportTestSuite;

} // namespace tests
} // namespace llmfabric
