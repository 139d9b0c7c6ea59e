/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/fault-injector.h"
#include "ns3/frame-bit-error-model.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/llm-training-helper.h"
#include "ns3/rdma-cc-none.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of link faults (FaultInjector, RoceNetDevice::SetLinkUp and SetDataRate,
 * FrameBitErrorModel): a link failed mid-transfer is avoided by the recomputed routes and the
 * transport recovers every byte; a link brought back carries traffic again; with a convergence
 * delay only the switches next to the failure repair at once; a degraded link runs at its new
 * rate; bit errors lose frames at the rate 1 - (1 - BER)^bits; bad fault specifications are
 * refused with one line.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// Frames of one device: when they started on the wire and when they arrived.
class PortWatch
{
  public:
    /**
     * Watch a device.
     * @param device the device.
     */
    void Connect(Ptr<RoceNetDevice> device)
    {
        device->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&PortWatch::Tx, this));
        device->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&PortWatch::Rx, this));
    }

    /// @param frame a frame starting on the wire.
    void Tx(Ptr<const Packet> frame)
    {
        txTimes.push_back(Simulator::Now());
    }

    /// @param frame a frame that arrived.
    void Rx(Ptr<const Packet> frame)
    {
        rxTimes.push_back(Simulator::Now());
        rxSizes.push_back(frame->GetSize());
    }

    /**
     * @param times times.
     * @param from start.
     * @param to end.
     * @return how many are in [from, to).
     */
    static uint32_t Count(const std::vector<Time>& times, Time from, Time to)
    {
        uint32_t n = 0;
        for (const Time& t : times)
        {
            n += (t >= from && t < to) ? 1 : 0;
        }
        return n;
    }

    std::vector<Time> txTimes;     //!< frames started
    std::vector<Time> rxTimes;     //!< frames arrived
    std::vector<uint32_t> rxSizes; //!< their sizes
};

/// Received message sizes.
class Delivered
{
  public:
    /**
     * @param qp the queue pair.
     * @param id the message.
     * @param bytes its size.
     */
    void Done(Ptr<RdmaQueuePair> qp, uint64_t id, uint64_t bytes)
    {
        sizes.push_back(bytes);
        times.push_back(Simulator::Now());
    }

    std::vector<uint64_t> sizes; //!< in order of completion
    std::vector<Time> times;     //!< when
};

/**
 * Give a fault injector the faults of one list as the programs take them (ParseList, then Add
 * each).
 * @param faults the injector (on its fabric).
 * @param kind the faults' kind.
 * @param text the list.
 * @return "" or the first problem ParseList or Add found.
 */
std::string
AddFaultList(Ptr<FaultInjector> faults, FaultEvent::Kind kind, const std::string& text)
{
    std::vector<FaultEvent> list;
    std::string problem = FaultInjector::ParseList(kind, text, list);
    for (auto f = list.begin(); problem.empty() && f != list.end(); ++f)
    {
        problem = faults->Add(*f);
    }
    return problem;
}

/**
 * Read a switch's route (scheduled: no lambda, for ns-3.35).
 * @param out receives the ports.
 * @param sw the switch.
 * @param destination the host.
 */
void
ReadRoute(std::vector<uint32_t>* out, Ptr<RoceSwitch> sw, Ipv4Address destination)
{
    *out = sw->GetRoute(destination);
}

/// What a leaf-spine run with a failed link saw.
struct FailureRun
{
    std::vector<uint64_t> received;      //!< message sizes the receivers completed
    std::vector<uint64_t> acked;         //!< message sizes the senders saw acknowledged
    PortWatch leafEnd;                   //!< leaf0's end of leaf0:spine0
    PortWatch spineEnd;                  //!< spine0's end
    uint64_t linkDownLosses{0};          //!< frames lost to the dead link
    uint64_t retransmissions{0};         //!< packets sent again, all senders
    std::vector<uint32_t> leaf0ToHost4;  //!< leaf0's route to host 4 at the end
    std::vector<uint32_t> spine0ToHost0; //!< spine0's route to host 0 at the end
    std::vector<uint32_t> leaf1ToHost0;  //!< leaf1's route to host 0 at the end
    std::vector<uint32_t> leaf1Early;    //!< leaf1's route to host 0 at probeEarly
    std::vector<uint32_t> leaf0Early;    //!< leaf0's route to host 4 at probeEarly
    std::vector<uint32_t> leaf1Late;     //!< leaf1's route to host 0 at probeLate
};

/// Bytes each flow of RunFailure writes.
constexpr uint64_t FLOW_BYTES = 400000;
/// When RunFailure fails the link.
const Time FAIL_AT = MicroSeconds(10);

/**
 * A leaf-spine of 2 leaves with 4 hosts each and 2 spines (100 Gb/s, 1 us links, 1000-byte
 * MTU): host h writes FLOW_BYTES to host 4 + h (h = 0..3), from time 0; leaf0:spine0 goes down
 * at FAIL_AT (and up at upAt if positive).
 * @param upAt when the link comes back (0: never).
 * @param convergence RouteConvergenceDelay.
 * @param probeEarly, probeLate when routes are read (0: not read).
 * @return what it saw.
 */
FailureRun
RunFailure(Time upAt, Time convergence, Time probeEarly = Time(0), Time probeLate = Time(0))
{
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
    FailureRun run;
    RoceTopologyHelper topo;
    RoceTopologyHelper::LeafSpineConfig config; // 2 leaves of 4 hosts, 2 spines
    RoceFabric fabric = topo.BuildLeafSpine(config);
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    auto ep = rdma.Install(fabric);
    Delivered received;
    Delivered acked;
    std::vector<Ptr<RdmaQueuePair>> senders;
    for (uint32_t h = 0; h < 4; ++h)
    {
        auto [s, r] = RdmaEndpoint::Connect(ep[h], ep[4 + h], 0xC000 + h);
        s->SetSendCompleteCallback(MakeCallback(&Delivered::Done, &acked));
        r->SetReceiveCompleteCallback(MakeCallback(&Delivered::Done, &received));
        s->PostWrite(FLOW_BYTES);
        senders.push_back(s);
    }
    Ptr<FaultInjector> faults = CreateObject<FaultInjector>();
    faults->SetAttribute("RouteConvergenceDelay", TimeValue(convergence));
    faults->SetFabric(fabric);
    FaultEvent down;
    down.kind = FaultEvent::LINK_DOWN;
    down.at = FAIL_AT;
    down.from = "leaf0";
    down.to = "spine0";
    NS_ABORT_MSG_IF(!faults->Add(down).empty(), "the fault is valid");
    if (upAt.IsStrictlyPositive())
    {
        FaultEvent up = down;
        up.kind = FaultEvent::LINK_UP;
        up.at = upAt;
        NS_ABORT_MSG_IF(!faults->Add(up).empty(), "the fault is valid");
    }
    uint32_t l0 = fabric.GetLink(fabric.FindLinks(8, 10).at(0)).a == 8 ? 0 : 1;
    const RoceFabric::Link& dead = fabric.GetLink(fabric.FindLinks(8, 10).at(0));
    run.leafEnd.Connect(l0 == 0 ? dead.devA : dead.devB);
    run.spineEnd.Connect(l0 == 0 ? dead.devB : dead.devA);
    Ptr<RoceSwitch> leaf0 = fabric.GetSwitch(0);
    Ptr<RoceSwitch> leaf1 = fabric.GetSwitch(1);
    Ipv4Address host0 = fabric.GetHostAddress(0);
    Ipv4Address host4 = fabric.GetHostAddress(4);
    if (probeEarly.IsStrictlyPositive())
    {
        Simulator::Schedule(probeEarly, &ReadRoute, &run.leaf1Early, leaf1, host0);
        Simulator::Schedule(probeEarly, &ReadRoute, &run.leaf0Early, leaf0, host4);
        Simulator::Schedule(probeLate, &ReadRoute, &run.leaf1Late, leaf1, host0);
    }
    Simulator::Stop(MilliSeconds(50));
    Simulator::Run();
    run.received = received.sizes;
    run.acked = acked.sizes;
    run.linkDownLosses = faults->GetLinkDownLosses();
    for (const auto& s : senders)
    {
        run.retransmissions += s->GetRetransmissions();
    }
    run.leaf0ToHost4 = leaf0->GetRoute(host4);
    run.spine0ToHost0 = fabric.GetSwitch(2)->GetRoute(host0);
    run.leaf1ToHost0 = leaf1->GetRoute(host0);
    Simulator::Destroy();
    Config::Reset();
    return run;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A test of RunFailure's leaf-spine, with the check its cases share.
 */
class FaultsFailureTestCase : public TestCase
{
  protected:
    /// @param name the test's name.
    explicit FaultsFailureTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Expect every flow of a run complete with exactly the bytes posted (FLOW_BYTES each).
     * @param run the run.
     * @param acked also at the sending end (the acknowledged messages).
     */
    void ExpectEveryFlowDelivered(const FailureRun& run, bool acked)
    {
        NS_TEST_ASSERT_MSG_EQ(run.received.size(), 4, "4 messages received");
        if (acked)
        {
            NS_TEST_ASSERT_MSG_EQ(run.acked.size(), 4, "4 messages acknowledged");
        }
        for (uint32_t i = 0; i < 4; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(run.received[i], FLOW_BYTES, "received bytes");
            if (acked)
            {
                NS_TEST_EXPECT_MSG_EQ(run.acked[i], FLOW_BYTES, "acknowledged bytes");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A link failed mid-transfer: routes avoid it, no frame crosses it afterwards, every flow
 * completes with exactly its bytes.
 */
class FaultsLinkDownTestCase : public FaultsFailureTestCase
{
  public:
    FaultsLinkDownTestCase()
        : FaultsFailureTestCase(
              "Link down mid-transfer: routes avoid it, every byte delivered once")
    {
    }

  private:
    void DoRun() override
    {
        FailureRun run = RunFailure(Time(0), Time(0));
        // Each flow needs 400 packets of 1000 bytes: 400 x 86.56 ns = 34.6 us at line rate, so
        // at 10 us every flow is mid-transfer; the flows whose ECMP hash picked spine0 lose
        // what was queued on or flying over the link.
        NS_TEST_ASSERT_MSG_GT(PortWatch::Count(run.leafEnd.txTimes, Time(0), FAIL_AT),
                              0,
                              "traffic crossed leaf0:spine0 before the failure");
        NS_TEST_EXPECT_MSG_GT(run.linkDownLosses, 0, "the failure lost frames");
        NS_TEST_EXPECT_MSG_GT(run.retransmissions, 0, "the transport recovered them");
        // Nothing starts on the dead link after the failure, and nothing arrives over it after
        // the failure plus what was in flight (no frame is in flight longer than 1 us of
        // propagation plus one frame time): here nothing at all, the far end is down too.
        Time end = Seconds(1);
        NS_TEST_EXPECT_MSG_EQ(PortWatch::Count(run.leafEnd.txTimes, FAIL_AT, end), 0, "leaf tx");
        NS_TEST_EXPECT_MSG_EQ(PortWatch::Count(run.spineEnd.txTimes, FAIL_AT, end), 0, "spine tx");
        NS_TEST_EXPECT_MSG_EQ(PortWatch::Count(run.leafEnd.rxTimes, FAIL_AT, end), 0, "leaf rx");
        NS_TEST_EXPECT_MSG_EQ(PortWatch::Count(run.spineEnd.rxTimes, FAIL_AT, end), 0, "spine rx");
        // Ports (build order): a leaf's hosts 0-3, then spine0 (4) and spine1 (5); a spine's
        // leaf0 (0) and leaf1 (1). Without leaf0:spine0, leaf0 reaches host 4 by spine1 only;
        // spine0 reaches host 0 by leaf1 (spine0-leaf1-spine1-leaf0-host0, 4 links); leaf1
        // reaches host 0 by spine1 only.
        NS_TEST_EXPECT_MSG_EQ(run.leaf0ToHost4.size(), 1, "leaf0 to host4: one port");
        NS_TEST_EXPECT_MSG_EQ(run.leaf0ToHost4.at(0), 5, "leaf0 to host4: by spine1");
        NS_TEST_EXPECT_MSG_EQ(run.spine0ToHost0.size(), 1, "spine0 to host0: one port");
        NS_TEST_EXPECT_MSG_EQ(run.spine0ToHost0.at(0), 1, "spine0 to host0: by leaf1");
        NS_TEST_EXPECT_MSG_EQ(run.leaf1ToHost0.size(), 1, "leaf1 to host0: one port");
        NS_TEST_EXPECT_MSG_EQ(run.leaf1ToHost0.at(0), 5, "leaf1 to host0: by spine1");
        // Every flow completes at both ends with exactly the bytes posted.
        ExpectEveryFlowDelivered(run, true);
    }
};

/**
 * @ingroup llm-fabric-tests
 * A link down then up: the routes come back to both spines and traffic crosses it again.
 */
class FaultsLinkUpTestCase : public FaultsFailureTestCase
{
  public:
    FaultsLinkUpTestCase()
        : FaultsFailureTestCase("Link down then up: routes use it again, traffic resumes over it")
    {
    }

  private:
    void DoRun() override
    {
        const Time upAt = MicroSeconds(20);
        FailureRun run = RunFailure(upAt, Time(0));
        NS_TEST_EXPECT_MSG_EQ(PortWatch::Count(run.leafEnd.txTimes, FAIL_AT, upAt) +
                                  PortWatch::Count(run.spineEnd.txTimes, FAIL_AT, upAt),
                              0,
                              "nothing crosses while down");
        // Back up: the flows hashed to spine0 use it again (their data from leaf0, or their
        // ACKs from spine0).
        NS_TEST_EXPECT_MSG_GT(PortWatch::Count(run.leafEnd.txTimes, upAt, Seconds(1)) +
                                  PortWatch::Count(run.spineEnd.txTimes, upAt, Seconds(1)),
                              0,
                              "traffic crosses again");
        NS_TEST_ASSERT_MSG_EQ(run.leaf0ToHost4.size(), 2, "leaf0 to host4: both spines again");
        NS_TEST_EXPECT_MSG_EQ(run.leaf0ToHost4[0], 4, "by spine0");
        NS_TEST_EXPECT_MSG_EQ(run.leaf0ToHost4[1], 5, "and spine1");
        ExpectEveryFlowDelivered(run, false);
    }
};

/**
 * @ingroup llm-fabric-tests
 * RouteConvergenceDelay: the switches at the ends of the failed link repair at once, the others
 * keep their routes for the delay.
 */
class FaultsConvergenceTestCase : public FaultsFailureTestCase
{
  public:
    FaultsConvergenceTestCase()
        : FaultsFailureTestCase(
              "RouteConvergenceDelay: local repair at once, the rest after the delay")
    {
    }

  private:
    void DoRun() override
    {
        // Failure at 10 us, delay 30 us: at 20 us leaf0 (an end) has repaired and leaf1 (not
        // an end) still has both spines; at 45 us leaf1 has converged to spine1 only.
        FailureRun run = RunFailure(Time(0), MicroSeconds(30), MicroSeconds(20), MicroSeconds(45));
        NS_TEST_EXPECT_MSG_EQ(run.leaf0Early.size(), 1, "leaf0 repaired at once");
        NS_TEST_EXPECT_MSG_EQ(run.leaf1Early.size(), 2, "leaf1 not yet");
        NS_TEST_ASSERT_MSG_EQ(run.leaf1Late.size(), 1, "leaf1 converged after the delay");
        NS_TEST_EXPECT_MSG_EQ(run.leaf1Late[0], 5, "by spine1");
        ExpectEveryFlowDelivered(run, false);
    }
};

/**
 * @ingroup llm-fabric-tests
 * A NIC down mid-transfer and back: nothing reaches it while down, its switch has no route to
 * it meanwhile, and the transfer completes after the link returns (by the retransmission
 * timeout), every byte once.
 */
class FaultsNicDownTestCase : public TestCase
{
  public:
    FaultsNicDownTestCase()
        : TestCase("NIC down and up: nothing arrives while down, the message completes after")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = MakeRdmaStar(2, topo, fabric);
        auto [s, r] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Delivered received;
        r->SetReceiveCompleteCallback(MakeCallback(&Delivered::Done, &received));
        s->SetSendCompleteCallback(
            MakeCallback(&Delivered::Done, &received)); // the ACKed message, counted too
        s->PostWrite(200000);
        Ptr<FaultInjector> faults = CreateObject<FaultInjector>();
        faults->SetFabric(fabric);
        NS_TEST_ASSERT_MSG_EQ(AddFaultList(faults, FaultEvent::NIC_DOWN, "host1@5us"), "", "down");
        NS_TEST_ASSERT_MSG_EQ(AddFaultList(faults, FaultEvent::NIC_UP, "host1@50us"), "", "up");
        PortWatch atHost1;
        atHost1.Connect(fabric.GetHostDevice(1));
        Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
        Ipv4Address host1 = fabric.GetHostAddress(1);
        std::vector<uint32_t> routeWhileDown;
        Simulator::Schedule(MicroSeconds(20), &ReadRoute, &routeWhileDown, sw, host1);
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        std::vector<uint32_t> routeAfter = sw->GetRoute(host1);
        uint64_t timeouts = s->GetTimeouts();
        uint64_t noRoute = sw->GetDrops(1, 3, RoceSwitch::DROP_NO_ROUTE) +
                           sw->GetDrops(0, 3, RoceSwitch::DROP_NO_ROUTE);
        uint64_t lost = faults->GetLinkDownLosses();
        Simulator::Destroy();
        Config::Reset();
        // 200 packets of 1000 bytes take 200 x 86.56 ns = 17.3 us at line rate: at 5 us the
        // transfer is under way. While host 1 is down nothing arrives there and the switch,
        // with no path to it, has no route; frames queued or arriving are lost (discarded by
        // the down port, or dropped as no-route). The sender's timeout (1 ms) resends after
        // host 1 is back at 50 us: it fires 1 ms after the last ACK (which left host 1 before
        // 5 us), and the resent rest (at most 200 packets, 17.3 us) is acknowledged a few
        // microseconds later: completion in [1 ms, 1.1 ms].
        NS_TEST_EXPECT_MSG_EQ(PortWatch::Count(atHost1.rxTimes, MicroSeconds(5), MicroSeconds(50)),
                              0,
                              "nothing arrives while down");
        NS_TEST_EXPECT_MSG_EQ(routeWhileDown.size(), 0, "no route to host 1 while down");
        NS_TEST_EXPECT_MSG_EQ(routeAfter.size(), 1, "the route is back");
        NS_TEST_EXPECT_MSG_GT(lost + noRoute, 0, "frames were lost");
        NS_TEST_EXPECT_MSG_GT(timeouts, 0, "recovered by the timeout");
        NS_TEST_ASSERT_MSG_EQ(received.sizes.size(), 2, "received and acknowledged");
        NS_TEST_EXPECT_MSG_EQ(received.sizes[0], 200000, "every byte");
        NS_TEST_EXPECT_MSG_EQ(received.sizes[1], 200000, "every byte acknowledged");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(received.times[1], MilliSeconds(1), "after the timeout");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(received.times[1], MicroSeconds(1100), "right after it");
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-leaf-spine with faults on its command line: it runs them, and a fault naming a link
 * that does not exist stops it with one line and status 2.
 */
class FaultsProgramTestCase : public TestCase
{
  public:
    FaultsProgramTestCase()
        : TestCase("llm-fabric-leaf-spine runs fault options and refuses a bad link")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-leaf-spine", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("faults-program");

        int status = -1;
        std::string out = RunCommand(program + " --flows=8 --duration=20us --minBytes=100000 " +
                                         "--maxBytes=100000 --outDir='" + dir + "'" +
                                         " --linkDown=leaf0:spine0@5us --linkUp=leaf0:spine0@40us"
                                         " 2>&1",
                                     status);
        NS_TEST_EXPECT_MSG_EQ(status, 0, out);
        NS_TEST_EXPECT_MSG_NE(out.find("flows done 8/8"), std::string::npos, out);
        NS_TEST_EXPECT_MSG_NE(out.find("faults: 2,"), std::string::npos, out);
        out =
            RunCommand(program + " --outDir='" + dir + "' --linkDown=leaf0:leaf1@1ms 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, out);
        NS_TEST_EXPECT_MSG_EQ(out,
                              "llm-fabric-leaf-spine: --linkDown: 'leaf0:leaf1': link: no link "
                              "between leaf0 and leaf1\n",
                              "one line");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A link degraded mid-run to a quarter of its rate carries exactly that rate.
 */
class FaultsDegradeTestCase : public TestCase
{
  public:
    FaultsDegradeTestCase()
        : TestCase("Degraded link: goodput equals the new rate x payload over wire bytes (1 %)")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        Config::SetDefault("ns3::RdmaEndpoint::CongestionControl",
                           TypeIdValue(RdmaCcNone::GetTypeId()));
        RoceTopologyHelper topo;
        RoceTopologyHelper::LeafSpineConfig config;
        config.hostsPerLeaf = 1;
        config.spines = 1; // host0 - leaf0 - spine0 - leaf1 - host1, all 100 Gb/s
        RoceFabric fabric = topo.BuildLeafSpine(config);
        fabric.AssignStreams(1);
        RdmaHelper rdma;
        auto ep = rdma.Install(fabric);
        auto [s, r] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        s->PostWrite(3000000);
        Ptr<FaultInjector> faults = CreateObject<FaultInjector>();
        faults->SetFabric(fabric);
        NS_TEST_ASSERT_MSG_EQ(
            AddFaultList(faults, FaultEvent::LINK_DEGRADE, "leaf0:spine0@50us=0.25"),
            "",
            "parses, valid");
        PortWatch atHost1;
        atHost1.Connect(fabric.GetHostDevice(1));
        const RoceFabric::Link& link = fabric.GetLink(fabric.FindLinks(2, 4).at(0));
        Simulator::Stop(MicroSeconds(260));
        Simulator::Run();
        DataRate rateA = link.devA->GetDataRate();
        DataRate rateB = link.devB->GetDataRate();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_EXPECT_MSG_EQ(rateA.GetBitRate(), 25000000000ULL, "leaf0 end at 25 Gb/s");
        NS_TEST_EXPECT_MSG_EQ(rateB.GetBitRate(), 25000000000ULL, "spine0 end at 25 Gb/s");
        // A 1000-byte payload travels in a 1058-byte frame (Ethernet 14, IPv4 20, UDP 8, BTH 12,
        // ICRC 4) that occupies 1058 + FCS 4 + preamble 8 + gap 12 = 1082 bytes of wire. The
        // bottleneck runs back to back (no congestion control; PFC keeps its queue from
        // emptying), so the goodput is rate x 1000 / 1082: before the fault the sender's own
        // 100 Gb/s port, 92.421 Gb/s; after it 25 Gb/s x 1000 / 1082 = 23.105 Gb/s.
        auto goodput = [&atHost1](Time from, Time to) {
            uint64_t payload = 0;
            for (std::size_t i = 0; i < atHost1.rxTimes.size(); ++i)
            {
                if (atHost1.rxTimes[i] >= from && atHost1.rxTimes[i] < to &&
                    atHost1.rxSizes[i] >= 1058)
                {
                    payload += 1000;
                }
            }
            return static_cast<double>(payload) * 8 / (to - from).GetSeconds() / 1e9;
        };
        double before = goodput(MicroSeconds(10), MicroSeconds(45));
        double after = goodput(MicroSeconds(100), MicroSeconds(250));
        NS_TEST_EXPECT_MSG_EQ_TOL(before, 100 * 1000.0 / 1082, 100 * 1000.0 / 1082 * 0.01, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(after, 25 * 1000.0 / 1082, 25 * 1000.0 / 1082 * 0.01, "");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A bit error rate on a link loses frames at 1 - (1 - BER)^bits, bits counted over the frame
 * and its FCS.
 */
class FaultsBitErrorTestCase : public TestCase
{
  public:
    FaultsBitErrorTestCase()
        : TestCase("Bit errors: frames lost at 1 - (1 - BER)^(8 (bytes + 4)), within 4 sigma")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(2, DataRate("100Gbps"), MicroSeconds(1));
        fabric.AssignStreams(1);
        const uint64_t frames = 20000;
        AddConstantRateSource(fabric, 0, 1, DataRate("100Gbps"), frames, 930, 0xC000);
        Ptr<FaultInjector> faults = CreateObject<FaultInjector>();
        faults->SetFabric(fabric);
        NS_TEST_ASSERT_MSG_EQ(AddFaultList(faults, FaultEvent::LINK_BER, "switch0:host1=1e-5"),
                              "",
                              "parses, valid");
        faults->AssignStreams(100);
        PortWatch atHost1;
        atHost1.Connect(fabric.GetHostDevice(1));
        Simulator::Run();
        uint64_t lost = faults->GetBitErrorLosses();
        Simulator::Destroy();
        Config::Reset();
        // 930 payload bytes make 988-byte frames; the FCS check covers 988 + 4 = 992 bytes,
        // 7936 bits: p = 1 - (1 - 1e-5)^7936 = 1 - exp(7936 ln(1 - 1e-5)) = 0.076293.
        // Of 20000 frames, 1525.9 expected lost; binomial sigma = sqrt(20000 p (1 - p)) =
        // 37.5: within 4 sigma, 150 frames (a model counting bytes instead of bits would lose
        // 1 - (1 - 1e-5)^992 = 0.99 %, 198 frames; one without the FCS 0.07566, 1513).
        Ptr<FrameBitErrorModel> model = CreateObject<FrameBitErrorModel>();
        model->SetAttribute("BitErrorRate", DoubleValue(1e-5));
        NS_TEST_EXPECT_MSG_EQ_TOL(model->GetFrameErrorProbability(988), 0.076293, 1e-6, "p");
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(lost), 1525.9, 150.0, "frames lost");
        NS_TEST_EXPECT_MSG_EQ(atHost1.rxTimes.size() + lost, frames, "every frame judged once");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Fault specifications that cannot apply are refused with one line naming the problem.
 */
class FaultsRefusalsTestCase : public TestCase
{
  public:
    FaultsRefusalsTestCase()
        : TestCase("Bad fault specifications: one line each naming the problem")
    {
    }

  private:
    void DoRun() override
    {
        struct Case
        {
            FaultEvent::Kind kind; //!< the list's kind
            std::string text;      //!< the list
            std::string problem;   //!< the start of ParseList's or Check's answer
        };

        const std::vector<Case> cases = {
            {FaultEvent::LINK_DOWN, "leaf0spine1@1ms", "'leaf0spine1' is not a link"},
            {FaultEvent::LINK_DOWN, "leaf0:spine1", "'leaf0:spine1': expected A:B@TIME"},
            {FaultEvent::LINK_DOWN, "leaf0:spine1@-1ms", "'leaf0:spine1@-1ms': time '-1ms' is"},
            {FaultEvent::LINK_DOWN, "leaf0:spine1@1 ms", "'leaf0:spine1@1 ms': time '1 ms' is"},
            {FaultEvent::LINK_DOWN, "leaf0:leaf0@1ms", "'leaf0:leaf0' joins a node to itself"},
            {FaultEvent::LINK_DOWN, "leaf0:spine1/x@1ms", "'leaf0:spine1/x': the part after"},
            {FaultEvent::LINK_DEGRADE, "leaf0:spine1@1ms", "'leaf0:spine1@1ms': expected A:B"},
            {FaultEvent::LINK_DEGRADE, "leaf0:spine1@1ms=2", "fraction: 2 is not in (0, 1]"},
            {FaultEvent::LINK_DEGRADE, "leaf0:spine1@1ms=0", "fraction: 0 is not in (0, 1]"},
            {FaultEvent::LINK_BER, "leaf0:spine1=1.5", "ber: 1.5 is not in [0, 1]"},
            {FaultEvent::LINK_DOWN, "leaf9:spine1@1ms", "link: no node named 'leaf9'"},
            {FaultEvent::LINK_DOWN, "leaf0:leaf1@1ms", "link: no link between leaf0 and leaf1"},
            {FaultEvent::LINK_DOWN, "leaf0:spine1/1@1ms", "link: leaf0:spine1 has 1 link(s)"},
            {FaultEvent::NIC_DOWN, "host3", "'host3': expected HOST@TIME"},
            {FaultEvent::NIC_DOWN, "leaf0@1ms", "host: 'leaf0' is a switch, not a host"},
            {FaultEvent::NIC_DOWN, "host8@1ms", "host: no node named 'host8'"},
        };
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildLeafSpine(RoceTopologyHelper::LeafSpineConfig());
        Ptr<FaultInjector> faults = CreateObject<FaultInjector>();
        faults->SetFabric(fabric);
        for (const Case& c : cases)
        {
            std::vector<FaultEvent> list;
            std::string problem = FaultInjector::ParseList(c.kind, c.text, list);
            if (problem.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(list.size(), 1, c.text);
                problem = faults->Add(list[0]);
            }
            NS_TEST_EXPECT_MSG_EQ(problem.substr(0, c.problem.size()), c.problem, c.text);
            NS_TEST_EXPECT_MSG_EQ(problem.find('\n'), std::string::npos, "one line");
        }
        NS_TEST_EXPECT_MSG_EQ(faults->GetFaults().size(), 0, "nothing scheduled");
        Simulator::Destroy();
    }
};

/// A data-parallel job of 4 GPUs, one per server: compute-heavy (long sequences) and light on
/// gradients (a small model), so that the gradient all-reduces hide behind the backward pass.
const char* STRAGGLER_SCENARIO = R"(model:
  layers: 4
  hidden_size: 256
  heads: 4
  ffn_hidden_size: 1024
  vocabulary_size: 1000
  sequence_length: 4096
training:
  global_batch_sequences: 16
  micro_batch: 4
layout:
  dp: 4
cluster:
  gpus: 4
  gpus_per_server: 1
  gpu: h100
)";

/// A run of STRAGGLER_SCENARIO: the straggler's settings, and what each rank measured.
struct StragglerRun
{
    uint32_t straggler{4};                  //!< the slowed rank (4: none)
    double factor{1.0};                     //!< its ComputeSlowdown
    uint32_t iterations{1};                 //!< iterations run
    uint32_t first{0};                      //!< SlowdownFirstIteration
    uint32_t count{0};                      //!< SlowdownIterations
    Time start;                             //!< SlowdownStart
    std::vector<std::vector<Time>> lengths; //!< per rank, per iteration: its length
    std::vector<std::vector<Time>> compute; //!< per rank, per iteration: its compute time
    Time beforeOptimizer; //!< the schedule's compute time before the optimizer phase (rank 1)
    Time optimizer;       //!< the rest of its compute time
};

/**
 * Run STRAGGLER_SCENARIO.
 * @param run the settings; receives the measurements.
 * @return "" or why the job did not build.
 */
std::string
RunStraggler(StragglerRun& run)
{
    Scenario scenario;
    std::string problem = Scenario::LoadFromString(STRAGGLER_SCENARIO, "test.yaml", scenario);
    if (!problem.empty())
    {
        return problem;
    }
    LlmTrainingHelper job;
    job.SetIterations(run.iterations);
    problem = job.Build(scenario);
    if (!problem.empty())
    {
        return problem;
    }
    job.GetFabric().AssignStreams(1);
    if (run.straggler < job.GetApplications().size())
    {
        Ptr<LlmTrainingApplication> app = job.GetApplications()[run.straggler];
        app->SetAttribute("ComputeSlowdown", DoubleValue(run.factor));
        app->SetAttribute("SlowdownFirstIteration", UintegerValue(run.first));
        app->SetAttribute("SlowdownIterations", UintegerValue(run.count));
        app->SetAttribute("SlowdownStart", TimeValue(run.start));
    }
    run.beforeOptimizer = Time(0);
    run.optimizer = Time(0);
    for (const ScheduleOp& op : job.GetSchedules()[1].GetOps())
    {
        if (op.type == ScheduleOp::COMPUTE)
        {
            (op.phase == TrafficPhase::OPTIMIZER ? run.optimizer : run.beforeOptimizer) +=
                op.duration;
        }
    }
    Simulator::Run();
    run.lengths.clear();
    run.compute.clear();
    for (const auto& app : job.GetApplications())
    {
        run.lengths.emplace_back();
        run.compute.emplace_back();
        for (const IterationRecord& r : app->GetIterationRecords())
        {
            run.lengths.back().push_back(r.end - r.start);
            run.compute.back().push_back(r.compute);
        }
    }
    Simulator::Destroy();
    Config::Reset();
    return "";
}

/**
 * @ingroup llm-fabric-tests
 * A straggler: one rank of a data-parallel job computing 2x slower delays every rank's
 * iteration by its extra compute time, only in the iterations (or from the time) the slowdown
 * applies to.
 */
class FaultsStragglerTestCase : public TestCase
{
  public:
    FaultsStragglerTestCase()
        : TestCase("Straggler 2x in data parallelism: every rank late by its extra compute")
    {
    }

  private:
    void DoRun() override
    {
        StragglerRun base;
        base.iterations = 3;
        NS_TEST_ASSERT_MSG_EQ(RunStraggler(base), "", "baseline runs");
        StragglerRun slow = base;
        slow.straggler = 1;
        slow.factor = 2.0;
        NS_TEST_ASSERT_MSG_EQ(RunStraggler(slow), "", "straggler runs");
        StragglerRun once = slow;
        once.first = 1;
        once.count = 1;
        NS_TEST_ASSERT_MSG_EQ(RunStraggler(once), "", "straggler in iteration 1 runs");
        StragglerRun later = slow;
        later.start = base.lengths[1][0]; // rank 1's second iteration starts then

        NS_TEST_ASSERT_MSG_EQ(RunStraggler(later), "", "straggler from a time runs");
        // In pure data parallelism a rank's compute ops never wait for the network (only the
        // optimizer step waits for the gradient all-reduces). Rank 1's compute before the
        // optimizer takes 2C instead of C (C: its schedule's durations), so its last gradient
        // bucket, and with it the last all-reduce that every rank joins, starts C later; the
        // all-reduce itself runs on the same idle network as in the baseline. Every other
        // rank's optimizer step then starts C later and lasts as before: delay C. Rank 1's
        // optimizer step also lasts twice as long: delay C + O. Tolerance: 0.5 % of C (the
        // ranks' ends differ by a few microseconds: the all-reduce's last steps reach them at
        // different times). Each iteration is such an iteration: slowed in every iteration,
        // each is late by that; slowed in iteration 1 only, iterations 0 and 2 are as the
        // baseline; slowed from the time rank 1's first iteration ends (the run is the baseline
        // until then, so its second iteration and all its compute ops start at or after that
        // time), iteration 0 is as the baseline, 1 and 2 late. (A time inside an iteration
        // slows only the ops that start after it: measured, from 1.2 x the first iteration,
        // iteration 1 was 1950 us late, not 2929.)
        const Time c = base.beforeOptimizer;
        const Time o = base.optimizer;
        const double tol = c.GetSeconds() * 1e6 * 0.005;
        NS_TEST_ASSERT_MSG_GT(c, MicroSeconds(100), "compute dominates the iteration");
        for (uint32_t r = 0; r < 4; ++r)
        {
            double late = (r == 1 ? c + o : c).GetSeconds() * 1e6;
            for (uint32_t i = 0; i < 3; ++i)
            {
                auto delay = [&base, r, i](const StragglerRun& run) {
                    // Each length in seconds, then the difference: GetSeconds of a negative Time
                    // shifts a negative value in ns-3.37 (undefined before C++20, UBSan).
                    return (run.lengths[r][i].GetSeconds() - base.lengths[r][i].GetSeconds()) * 1e6;
                };
                NS_TEST_EXPECT_MSG_EQ_TOL(delay(slow), late, tol, "every: " << r << " " << i);
                double onceLate = i == 1 ? late : 0.0;
                double laterLate = i >= 1 ? late : 0.0;
                NS_TEST_EXPECT_MSG_EQ_TOL(delay(once),
                                          onceLate,
                                          tol,
                                          "once: rank " << r << " iteration " << i);
                NS_TEST_EXPECT_MSG_EQ_TOL(delay(later),
                                          laterLate,
                                          tol,
                                          "later: rank " << r << " iteration " << i);
            }
        }
        // The straggler's compute time is exactly doubled where it applies (each duration x 2,
        // in time steps), and only there.
        NS_TEST_EXPECT_MSG_EQ(once.compute[1][1], (c + o) * 2, "compute doubled in iteration 1");
        NS_TEST_EXPECT_MSG_EQ(once.compute[1][0], c + o, "not in iteration 0");
        NS_TEST_EXPECT_MSG_EQ(once.compute[0][1], c + o, "nor on another rank");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A scenario's faults: section: entries read with their values, and each kind of mistake
 * refused with one line "FILE: faults[i].KEY: reason".
 */
class FaultsScenarioTestCase : public TestCase
{
  public:
    FaultsScenarioTestCase()
        : TestCase("Scenario faults: section: values read, mistakes refused with one line")
    {
    }

  private:
    void DoRun() override
    {
        Scenario scenario;
        std::string ok = std::string(STRAGGLER_SCENARIO) + R"(faults:
  - kind: link_down
    link: leaf0:spine1/1
    at: 200us
  - kind: straggler
    rank: 3
    factor: 2.5
    first_iteration: 1
    iterations: 2
  - kind: link_ber
    link: host0:leaf0
    ber: 1e-9
)";
        NS_TEST_ASSERT_MSG_EQ(Scenario::LoadFromString(ok, "test.yaml", scenario), "", "loads");
        const ScenarioFaults& f = scenario.GetFaults();
        NS_TEST_ASSERT_MSG_EQ(f.faults.size(), 2, "two link faults");
        NS_TEST_EXPECT_MSG_EQ(f.faults[0].kind, FaultEvent::LINK_DOWN, "kind");
        NS_TEST_EXPECT_MSG_EQ(f.faults[0].from, "leaf0", "from");
        NS_TEST_EXPECT_MSG_EQ(f.faults[0].to, "spine1", "to");
        NS_TEST_EXPECT_MSG_EQ(f.faults[0].index, 1, "parallel link 1");
        NS_TEST_EXPECT_MSG_EQ(f.faults[0].at, MicroSeconds(200), "at");
        NS_TEST_EXPECT_MSG_EQ(f.faults[1].kind, FaultEvent::LINK_BER, "ber kind");
        NS_TEST_EXPECT_MSG_EQ(f.faults[1].value, 1e-9, "ber");
        NS_TEST_EXPECT_MSG_EQ(f.faults[1].at, Time(0), "ber from 0 by default");
        NS_TEST_EXPECT_MSG_EQ(f.faultEntries[1], 2, "its entry is the third");
        NS_TEST_ASSERT_MSG_EQ(f.stragglers.size(), 1, "one straggler");
        NS_TEST_EXPECT_MSG_EQ(f.stragglers[0].rank, 3, "rank");
        NS_TEST_EXPECT_MSG_EQ(f.stragglers[0].factor, 2.5, "factor");
        NS_TEST_EXPECT_MSG_EQ(f.stragglers[0].firstIteration, 1, "first iteration");
        NS_TEST_EXPECT_MSG_EQ(f.stragglers[0].iterations, 2, "iterations");

        const std::vector<std::pair<std::string, std::string>> refused = {
            {"faults: 3\n", "faults: expected a list of entries, each with a kind"},
            {"faults:\n  - 3\n", "faults[0]: expected a mapping with a kind"},
            {"faults:\n  - link: a:b\n",
             "faults[0].kind: required (link_down, link_up, "
             "link_degrade, link_ber, nic_down, nic_up, straggler)"},
            {"faults:\n  - kind: link_flap\n",
             "faults[0].kind: 'link_flap' is not a fault kind (known: link_ber, link_degrade, "
             "link_down, link_up, nic_down, nic_up, straggler)"},
            {"faults:\n  - kind: link_down\n    link: leaf0:spine0\n",
             "faults[0].at: required for a link_down entry"},
            {"faults:\n  - kind: link_degrade\n    link: a:b\n    at: 1ms\n    speed: 2\n",
             "faults[0].speed: not a key of a link_degrade entry (its keys: kind, at, fraction, "
             "link)"},
            {"faults:\n  - kind: link_degrade\n    link: a:b\n    at: 1ms\n    fraction: 1.5\n",
             "faults[0].fraction: 1.5 is not in (0, 1]"},
            {"faults:\n  - kind: link_down\n    link: leaf0\n    at: 1ms\n",
             "faults[0].link: 'leaf0' is not a link: write its two ends as A:B (e.g. "
             "leaf0:spine1)"},
            {"faults:\n  - kind: link_down\n    link: a:b\n    at: soon\n",
             "faults[0].at: 'soon' is not a time such as 1ms or 250us"},
            {"faults:\n  - kind: nic_down\n    host: host1\n    at: -1us\n",
             "faults[0].at: '-1us' is negative"},
            {"faults:\n  - kind: straggler\n    rank: 4\n    factor: 2\n",
             "faults[0].rank: '4' is above 3 (the last rank)"},
            {"faults:\n  - kind: straggler\n    rank: 1\n    factor: 0\n",
             "faults[0].factor: '0' is not a number in [0.01, 1000]"},
            {"faults:\n  - kind: straggler\n    rank: 1\n    factor: 2\n    from: [1]\n",
             "faults[0].from: expected a value"},
        };
        for (const auto& [section, message] : refused)
        {
            std::string yaml = std::string(STRAGGLER_SCENARIO) + section;
            NS_TEST_EXPECT_MSG_EQ(Scenario::LoadFromString(yaml, "test.yaml", scenario),
                                  "test.yaml: " + message,
                                  section);
        }
        std::vector<StragglerSpec> cli;
        NS_TEST_EXPECT_MSG_EQ(ParseStragglers("3", 4, cli),
                              "'3': expected RANK=FACTOR (e.g. 3=2)",
                              "");
        NS_TEST_EXPECT_MSG_EQ(ParseStragglers("4=2", 4, cli), "'4=2': the rank is not in 0..3", "");
        NS_TEST_EXPECT_MSG_EQ(ParseStragglers("1=2,2=0.5", 4, cli), "", "two stragglers");
        NS_TEST_EXPECT_MSG_EQ(cli.size(), 2, "two stragglers");
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-train applies a scenario's straggler entry: the rank's compute time in
 * iterations.csv doubles in the iteration named and only there.
 */
class FaultsTrainStragglerTestCase : public TestCase
{
  public:
    FaultsTrainStragglerTestCase()
        : TestCase("llm-fabric-train applies a straggler entry to the iterations named")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-train", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("train");
        std::string file = CreateTempDirFilename("straggler.yaml");
        {
            std::ofstream yaml(file);
            yaml << STRAGGLER_SCENARIO
                 << "faults:\n  - kind: straggler\n    rank: 2\n    factor: 2\n"
                    "    first_iteration: 1\n    iterations: 1\n";
        }
        int status = -1;
        std::string out = RunCommand(program + " --scenario='" + file +
                                         "' --iterations=3 --outDir='" + dir + "' 2>&1",
                                     status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        // compute_us per (rank, iteration), from the header's column.
        std::ifstream csv(dir + "/iterations.csv");
        std::string line;
        std::getline(csv, line);
        NS_TEST_ASSERT_MSG_EQ(line.rfind("rank,iteration,start_us,end_us,time_us,compute_us", 0),
                              0,
                              "header");
        std::map<std::pair<uint32_t, uint32_t>, double> compute;
        while (std::getline(csv, line))
        {
            std::istringstream fields(line);
            std::string f[6];
            for (auto& x : f)
            {
                std::getline(fields, x, ',');
            }
            compute[{std::stoul(f[0]), std::stoul(f[1])}] = std::stod(f[5]);
        }
        NS_TEST_ASSERT_MSG_EQ(compute.size(), 12, "4 ranks x 3 iterations");
        // Rank 2's compute ops last twice their durations in iteration 1 only (CSV values have
        // 6 significant digits: 0.01 us).
        for (uint32_t r = 0; r < 4; ++r)
        {
            for (uint32_t i = 0; i < 3; ++i)
            {
                double expected = compute[std::make_pair(0U, 0U)] * ((r == 2 && i == 1) ? 2 : 1);
                double measured = compute[std::make_pair(r, i)];
                NS_TEST_EXPECT_MSG_EQ_TOL(measured, expected, 0.02, r << " " << i);
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The faults suite.
 */
class FaultsTestSuite : public TestSuite
{
  public:
    FaultsTestSuite()
        : TestSuite("llm-fabric-faults", Type::SYSTEM)
    {
        AddTestCase(new FaultsLinkDownTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsLinkUpTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsConvergenceTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsNicDownTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsDegradeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsBitErrorTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsRefusalsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsStragglerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsScenarioTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsProgramTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FaultsTrainStragglerTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static FaultsTestSuite g_faultsTestSuite;

} // namespace tests
} // namespace llmfabric
