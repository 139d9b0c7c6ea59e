/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

// PFC deadlock detection (PfcDeadlockDetector) and the PFC watchdog (PfcWatchdog).

#include "fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/dcqcn.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/node.h"
#include "ns3/pfc-deadlock-detector.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-link-helper.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The lossless priority (SwitchMmu LosslessPriorities 0x08; RDMA data goes there).
constexpr uint8_t PRIO = 3;

/// One watchdog state change.
struct StormEvent
{
    uint32_t port;            //!< egress port
    uint8_t priority;         //!< priority
    PfcWatchdog::State state; //!< new state
    Time time;                //!< when
    uint32_t sw;              //!< switch index
    Time pausedSince;         //!< when the queue's current pause began (PauseState)
};

/// Records watchdog state changes and pause starts of switch ports.
struct Recorder
{
    std::vector<StormEvent> storms;                           //!< state changes
    std::map<std::pair<uint32_t, uint32_t>, Time> pauseStart; //!< (switch, port): last start
    std::vector<Time> pauseStarts;                            //!< every pause start, in order
    Time lastPauseRx;                                         //!< last non-zero PFC received

    /**
     * StormState sink.
     * @param r the recorder.
     * @param sw switch index.
     * @param port port.
     * @param priority priority.
     * @param state new state.
     * @param time when.
     */
    static void Storm(Recorder* r,
                      uint32_t sw,
                      uint32_t port,
                      uint8_t priority,
                      PfcWatchdog::State state,
                      Time time)
    {
        r->storms.push_back(StormEvent{port, priority, state, time, sw, r->pauseStart[{sw, port}]});
    }

    /**
     * PauseState sink.
     * @param r the recorder.
     * @param key (switch, port).
     * @param priority priority.
     * @param paused starts or ends.
     */
    static void Pause(Recorder* r, uint64_t key, uint8_t priority, bool paused)
    {
        if (paused && priority == PRIO)
        {
            r->pauseStart[{static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key)}] =
                Simulator::Now();
            r->pauseStarts.push_back(Simulator::Now());
        }
    }

    /**
     * PfcReceived sink.
     * @param r the recorder.
     * @param cev class-enable vector.
     * @param quanta pause times.
     */
    static void PfcRx(Recorder* r, uint8_t cev, const std::array<uint16_t, 8>& quanta)
    {
        if ((cev & (1u << PRIO)) != 0 && quanta[PRIO] > 0)
        {
            r->lastPauseRx = Simulator::Now();
        }
    }
};

/**
 * Watch a switch: its watchdog's state changes and its ports' pause starts.
 * @param r the recorder.
 * @param sw the switch (initialized, so its watchdog exists).
 * @param index its index.
 */
void
Watch(Recorder& r, Ptr<RoceSwitch> sw, uint32_t index)
{
    if (sw->GetPfcWatchdog())
    {
        sw->GetPfcWatchdog()->TraceConnectWithoutContext(
            "StormState",
            MakeBoundCallback(&Recorder::Storm, &r, index));
    }
    for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
    {
        sw->GetPort(p)->TraceConnectWithoutContext(
            "PauseState",
            MakeBoundCallback(&Recorder::Pause, &r, (static_cast<uint64_t>(index) << 32) | p));
    }
}

/**
 * A ring of N switches, one host on each (switch port 0), switch i linked to switch i+1 mod N;
 * every route goes clockwise (i to i+1), so host i's flow to host i+2 crosses the ring links
 * i -> i+1 and i+1 -> i+2. All links 100 Gb/s, 1 us. Congestion control none (line rate).
 */
struct Ring
{
    RoceFabric fabric;                     //!< the fabric
    std::vector<Ptr<RdmaEndpoint>> ep;     //!< endpoints, per host
    std::vector<uint32_t> cwPort;          //!< per switch: its port to the next switch
    std::vector<uint32_t> ccwPort;         //!< per switch: its port from the previous switch
    std::vector<Ptr<RdmaQueuePair>> flows; //!< sender queue pairs, flow i from host i
    std::vector<uint64_t> received;        //!< bytes completed at each receiver
    std::vector<Time> done;                //!< completion time of each flow (0: not done)

    /**
     * Build the ring (the attribute defaults of the moment apply) and post the flows at 0.
     * @param n switches (and hosts).
     * @param bytes size of each flow.
     * @param ecn the switches mark ECN (EcnEnabled).
     */
    Ring(uint32_t n, uint64_t bytes, bool ecn = false)
    {
        RoceLinkHelper links;
        std::vector<Ptr<Node>> hosts;
        std::vector<Ptr<Node>> nodes;
        std::vector<Ptr<RoceSwitch>> switches;
        for (uint32_t i = 0; i < n; ++i)
        {
            hosts.push_back(CreateObject<Node>());
            nodes.push_back(CreateObject<Node>());
            switches.push_back(CreateObject<RoceSwitch>());
            switches[i]->SetAttribute("EcnEnabled", BooleanValue(ecn));
            nodes[i]->AggregateObject(switches[i]);
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            NetDeviceContainer d =
                links.Install(hosts[i], nodes[i], DataRate("100Gbps"), MicroSeconds(1));
            switches[i]->AddPort(DynamicCast<RoceNetDevice>(d.Get(1)));
            fabric.AddHost(hosts[i],
                           DynamicCast<RoceNetDevice>(d.Get(0)),
                           Ipv4Address(0x0A000001U + i));
        }
        cwPort.resize(n);
        ccwPort.resize(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            uint32_t j = (i + 1) % n;
            NetDeviceContainer d =
                links.Install(nodes[i], nodes[j], DataRate("100Gbps"), MicroSeconds(1));
            cwPort[i] = switches[i]->AddPort(DynamicCast<RoceNetDevice>(d.Get(0)));
            ccwPort[j] = switches[j]->AddPort(DynamicCast<RoceNetDevice>(d.Get(1)));
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t h = 0; h < n; ++h)
            {
                switches[i]->AddRoute(fabric.GetHostAddress(h), {h == i ? 0 : cwPort[i]});
            }
            fabric.AddSwitch(nodes[i], switches[i], "ring" + std::to_string(i));
        }
        fabric.AssignStreams(1);
        ep = RdmaHelper().Install(fabric);
        received.assign(n, 0);
        done.assign(n, Time(0));
        for (uint32_t i = 0; i < n; ++i)
        {
            auto [tx, rx] = RdmaEndpoint::Connect(ep[i], ep[(i + 2) % n], 0xC000 + i);
            tx->SetSendCompleteCallback(MakeBoundCallback(&Ring::Sent, this, i));
            rx->SetReceiveCompleteCallback(MakeBoundCallback(&Ring::Received, this, (i + 2) % n));
            tx->PostWrite(bytes);
            flows.push_back(tx);
        }
    }

    /**
     * Initialize the switches (so that their watchdogs exist) and Watch each, switch i as i.
     * @param r the recorder.
     */
    void InitializeAndWatch(Recorder& r)
    {
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            fabric.GetSwitch(s)->Initialize();
            Watch(r, fabric.GetSwitch(s), s);
        }
    }

    /**
     * A flow completed at its sender.
     * @param ring the ring.
     * @param flow the flow.
     */
    static void Sent(Ring* ring, uint32_t flow, Ptr<RdmaQueuePair>, uint64_t, uint64_t)
    {
        ring->done[flow] = Simulator::Now();
    }

    /**
     * A message completed at its receiver.
     * @param ring the ring.
     * @param host the receiving host.
     * @param bytes its size.
     */
    static void Received(Ring* ring, uint32_t host, Ptr<RdmaQueuePair>, uint64_t, uint64_t bytes)
    {
        ring->received[host] += bytes;
    }

    /// @return the flows completed.
    uint32_t Completed() const
    {
        return static_cast<uint32_t>(
            std::count_if(done.begin(), done.end(), [](Time t) { return !t.IsZero(); }));
    }
};

/// The switches (and hosts) of the ring tests' ring.
constexpr uint32_t RING_SIZE = 4;
/// The size of each flow of the ring tests: 1 MB, 80 us alone at 100 Gb/s.
constexpr uint64_t RING_FLOW_BYTES = 1000000;

/// Set the attribute defaults of the ring tests: 300 KB switch buffers, 1000-byte MTU.
void
SetRingDefaults()
{
    // A 3-port switch with 300 KB keeps 3 x 8 x 4200 B = 100.8 KB reserved and about 119 KB of
    // lossless headroom, leaving a shared pool of about 80 KB; an ingress group may take
    // alpha / (1 + n alpha) of it, tens of KB, which a 2:1 overload at 100 Gb/s fills within
    // a few microseconds, so every ring ingress group goes to XOFF.
    Config::SetDefault("ns3::SwitchMmu::Buffer", QueueSizeValue(QueueSize("300KB")));
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
}

/// The pause time of the switches' pauses: 0xFFFF quanta x 512 bit times at 100 Gb/s.
Time
SwitchPauseTime()
{
    // 65535 x 512 / 100e9 s = 335.5392 us.
    return PfcHeader::QuantaToTime(0xFFFF, DataRate("100Gbps"));
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The watchdog's timing on one port: a pause refreshed continuously triggers after exactly
 * DetectionTime; one that ends before DetectionTime, or paused with gaps, does not; restoration
 * comes RestorationTime after the last pause.
 */
class PfcWatchdogTimingTestCase : public TestCase
{
  public:
    PfcWatchdogTimingTestCase()
        : TestCase("watchdog: continuous pause triggers after DetectionTime, gaps do not")
    {
    }

  private:
    /// What one run of RunStar saw.
    struct StarRun
    {
        Recorder r;               //!< the events
        uint64_t storms{0};       //!< the watchdog's storm count
        uint64_t restorations{0}; //!< its restoration count
    };

    /**
     * Run a two-host star whose host 1 sends pauses of 4000 quanta to the switch.
     * @param period time between the host's pauses.
     * @param last time of the last pause the host sends (the first at 10 us).
     * @return the events and the watchdog's counters.
     */
    StarRun RunStar(Time period, Time last)
    {
        StarRun run;
        Recorder& r = run.r;
        Config::SetDefault("ns3::RoceSwitch::PfcWatchdogEnabled", BooleanValue(true));
        Config::SetDefault("ns3::PfcWatchdog::DetectionTime", TimeValue(MicroSeconds(100)));
        Config::SetDefault("ns3::PfcWatchdog::RestorationTime", TimeValue(MicroSeconds(50)));
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(2, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
        sw->Initialize();
        Watch(r, sw, 0);
        uint32_t port = sw->GetRoute(fabric.GetHostAddress(1))[0];
        sw->GetPort(port)->TraceConnectWithoutContext("PfcReceived",
                                                      MakeBoundCallback(&Recorder::PfcRx, &r));
        Ptr<RoceNetDevice> host = fabric.GetHostDevice(1);
        for (Time t = MicroSeconds(10); t <= last; t += period)
        {
            Simulator::Schedule(t, &RoceNetDevice::SendPfc, host, PRIO, 4000);
        }
        Simulator::Stop(MicroSeconds(600));
        Simulator::Run();
        run.storms = sw->GetPfcWatchdog()->GetStormsDetected();
        run.restorations = sw->GetPfcWatchdog()->GetRestorations();
        Simulator::Destroy();
        Config::Reset();
        return run;
    }

    void DoRun() override
    {
        // A pause of 4000 quanta lasts 4000 x 512 / 100e9 s = 20.48 us at 100 Gb/s.
        // (1) Refreshed every 10 us from 10 us to 300 us: the pause never lapses (each frame
        // replaces the remaining 10.48+ us), so the storm comes exactly 100 us (DetectionTime)
        // after the pause started (the first frame's arrival, 10 us + 1 us + its wire time
        // (60 + 4 + 8 bytes, 5.76 ns): in [11, 11.1] us). Restoration: 50 us after the last
        // pause frame arrived (300 us + 1 us + 5.76 ns + the 12-byte gap is not before it).
        {
            auto [r, storms, restorations] = RunStar(MicroSeconds(10), MicroSeconds(300));
            NS_TEST_ASSERT_MSG_EQ(r.pauseStarts.empty(), false, "the port was paused");
            Time start = r.pauseStarts.front();
            NS_TEST_EXPECT_MSG_GT_OR_EQ(start, MicroSeconds(11), "pause start");
            NS_TEST_EXPECT_MSG_LT(start, NanoSeconds(11100), "pause start");
            NS_TEST_ASSERT_MSG_EQ(r.storms.size(), 2, "one storm, one restoration");
            NS_TEST_EXPECT_MSG_EQ(r.storms[0].state, PfcWatchdog::STORM_DROPPING, "Drop");
            NS_TEST_EXPECT_MSG_EQ(r.storms[0].time, start + MicroSeconds(100), "detection");
            NS_TEST_EXPECT_MSG_EQ(r.storms[1].state, PfcWatchdog::OPERATIONAL, "restored");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.lastPauseRx, MicroSeconds(301), "last pause");
            NS_TEST_EXPECT_MSG_EQ(r.storms[1].time,
                                  r.lastPauseRx + MicroSeconds(50),
                                  "restoration 50 us after the last pause");
            NS_TEST_EXPECT_MSG_EQ(storms, 1, "storm counter");
            NS_TEST_EXPECT_MSG_EQ(restorations, 1, "restoration counter");
        }
        // (2) Refreshed every 10 us from 10 us to 70 us: paused from ~11.0 us until the last
        // pause (arriving at ~71.0 us) lapses at ~91.5 us: 80.5 us < 100 us, no storm.
        {
            auto [r, storms, restorations] = RunStar(MicroSeconds(10), MicroSeconds(70));
            NS_TEST_EXPECT_MSG_EQ(r.pauseStarts.size(), 1, "one continuous pause");
            NS_TEST_EXPECT_MSG_EQ(r.storms.size(), 0, "no storm: pause ended before 100 us");
            NS_TEST_EXPECT_MSG_EQ(storms, 0, "storm counter");
        }
        // (3) A 20.48 us pause every 30 us from 10 us to 550 us: paused 20.48 us, free 9.52 us,
        // 19 times; paused 98.3 % of the time but never 100 us at a stretch: no storm.
        {
            auto [r, storms, restorations] = RunStar(MicroSeconds(30), MicroSeconds(550));
            NS_TEST_EXPECT_MSG_EQ(r.pauseStarts.size(), 19, "19 separate pauses");
            NS_TEST_EXPECT_MSG_EQ(r.storms.size(), 0, "no storm: the pause had gaps");
            NS_TEST_EXPECT_MSG_EQ(storms, 0, "storm counter");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A ring of 4 switches with clockwise routes and flows crossing two ring links deadlocks under
 * PFC; the detector reports exactly the ring's queues within one pause time of the cycle
 * closing; without the detector nothing is reported; the flows stay stuck until the stop time.
 */
class PfcDeadlockRingTestCase : public TestCase
{
  public:
    PfcDeadlockRingTestCase()
        : TestCase("ring of 4 switches deadlocks; the detector reports its cycle")
    {
    }

  private:
    void DoRun() override
    {
        // Each ring link i -> i+1 carries host i's flow (first hop) and host i-1's (second
        // hop); switch i+1's egress i+1 -> i+2 takes host i's transit flow and host i+1's own
        // flow, both at 100 Gb/s: 2:1 overloaded, so every ring ingress group fills and goes to
        // XOFF holding frames for the next ring link, itself paused: a cycle of 4 queues.
        for (bool detect : {true, false})
        {
            SetRingDefaults();
            Ring ring(RING_SIZE, RING_FLOW_BYTES);
            Ptr<PfcDeadlockDetector> detector = CreateObject<PfcDeadlockDetector>();
            if (detect)
            {
                detector->Install(ring.fabric);
            }
            Recorder r;
            ring.InitializeAndWatch(r);
            // 1 MB at 100 Gb/s takes 80 us alone; 5 ms is 60 times that.
            Simulator::Stop(MilliSeconds(5));
            Simulator::Run();
            NS_TEST_EXPECT_MSG_EQ(Simulator::Now(), MilliSeconds(5), "ran to the stop time");
            NS_TEST_EXPECT_MSG_EQ(ring.Completed(), 0, "no flow completes: deadlocked");
            for (uint32_t h = 0; h < RING_SIZE; ++h)
            {
                NS_TEST_EXPECT_MSG_LT(ring.received[h],
                                      RING_FLOW_BYTES,
                                      "host " << h << " got less");
            }
            if (!detect)
            {
                NS_TEST_EXPECT_MSG_EQ(detector->GetDeadlockCount(), 0, "nothing reported");
                Simulator::Destroy();
                Config::Reset();
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(detector->GetDeadlockCount(), 1, "one deadlock");
            const auto& found = detector->GetDeadlocks()[0];
            // Exactly the ring's clockwise queues, in wait-for order: switch i's queue to
            // switch i+1 waits for switch i+1's queue to switch i+2.
            NS_TEST_ASSERT_MSG_EQ(found.cycle.size(), RING_SIZE, "4 queues");
            for (uint32_t k = 0; k < RING_SIZE; ++k)
            {
                uint32_t node = ring.fabric.GetSwitchNode(k)->GetId();
                PfcDeadlockDetector::QueueId expected{node, ring.cwPort[k], PRIO};
                NS_TEST_EXPECT_MSG_EQ((found.cycle[k] == expected),
                                      true,
                                      "queue " << k << " is " << found.cycle[k]);
            }
            // The cycle cannot close before its last queue is paused, and is found at a pause
            // received by one of its queues, at the latest one refresh (half a pause time)
            // after it closes: within [last pause start, + one pause time 335.54 us].
            Time closed(0);
            for (uint32_t k = 0; k < RING_SIZE; ++k)
            {
                closed = std::max(closed, r.pauseStart[{k, ring.cwPort[k]}]);
            }
            NS_TEST_EXPECT_MSG_GT_OR_EQ(found.formed, closed, "found after it closed");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(found.formed,
                                        closed + SwitchPauseTime(),
                                        "found within one pause time");
            Simulator::Destroy();
            Config::Reset();
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The watchdog (DetectionTime 100 us, Action Drop) breaks the ring's deadlock: storms are
 * detected 100 us after their queue's pause began, every flow completes with every byte.
 */
class PfcWatchdogRingTestCase : public TestCase
{
  public:
    /**
     * @param action Drop (the queue drops its frames) or Forward (it sends through the pause).
     */
    explicit PfcWatchdogRingTestCase(PfcWatchdog::Action action)
        : TestCase(std::string("the watchdog (") +
                   (action == PfcWatchdog::DROP ? "Drop" : "Forward") +
                   ") breaks the ring deadlock; every flow completes"),
          m_action(action)
    {
    }

  private:
    PfcWatchdog::Action m_action; //!< the watchdog's action

    void DoRun() override
    {
        SetRingDefaults();
        Config::SetDefault("ns3::RoceSwitch::PfcWatchdogEnabled", BooleanValue(true));
        Config::SetDefault("ns3::PfcWatchdog::DetectionTime", TimeValue(MicroSeconds(100)));
        Config::SetDefault("ns3::PfcWatchdog::RestorationTime", TimeValue(MicroSeconds(100)));
        Config::SetDefault("ns3::PfcWatchdog::Action", EnumValue(m_action));
        // DCQCN with ECN marking between 10 KB and 40 KB (inside the ~80 KB shared pool, so
        // marks come before XOFF): the senders still start at line rate and the ring deadlocks
        // within microseconds, before the first CNPs act; once the watchdog has broken it, the
        // cut rates keep it from forming again. (Without congestion control the line-rate
        // senders re-form the deadlock after every restoration.)
        Config::SetDefault("ns3::RdmaEndpoint::CongestionControl", TypeIdValue(Dcqcn::GetTypeId()));
        Config::SetDefault("ns3::SwitchMmu::Kmin", QueueSizeValue(QueueSize("10KB")));
        Config::SetDefault("ns3::SwitchMmu::Kmax", QueueSizeValue(QueueSize("40KB")));
        Config::SetDefault("ns3::SwitchMmu::Pmax", DoubleValue(0.2));
        Ring ring(RING_SIZE, RING_FLOW_BYTES, true);
        Ptr<PfcDeadlockDetector> detector = CreateObject<PfcDeadlockDetector>();
        detector->Install(ring.fabric);
        Recorder r;
        ring.InitializeAndWatch(r);
        // 4 x 1 MB over ring links shared 2:1 takes about 160 us of wire time; the watchdog
        // adds 100 us (detection) plus go-back-N's 1 ms timeout at most; 20 ms is ample.
        Simulator::Stop(MilliSeconds(20));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(ring.Completed(), RING_SIZE, "every flow completes");
        for (uint32_t h = 0; h < RING_SIZE; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ(ring.received[h],
                                  RING_FLOW_BYTES,
                                  "host " << h << " got every byte");
        }
        NS_TEST_EXPECT_MSG_GT(detector->GetDeadlockCount(), 0, "the deadlock formed");
        uint64_t storms = 0;
        uint64_t restorations = 0;
        uint64_t dropped = 0;
        for (uint32_t s = 0; s < RING_SIZE; ++s)
        {
            Ptr<PfcWatchdog> wd = ring.fabric.GetSwitch(s)->GetPfcWatchdog();
            storms += wd->GetStormsDetected();
            restorations += wd->GetRestorations();
            dropped += wd->GetFramesDropped();
        }
        uint64_t stormEvents = 0;
        uint64_t restoreEvents = 0;
        for (const auto& e : r.storms)
        {
            if (e.state == PfcWatchdog::OPERATIONAL)
            {
                ++restoreEvents;
                continue;
            }
            ++stormEvents;
            NS_TEST_EXPECT_MSG_EQ(e.state,
                                  (m_action == PfcWatchdog::DROP ? PfcWatchdog::STORM_DROPPING
                                                                 : PfcWatchdog::STORM_FORWARDING),
                                  "the state of the action");
            NS_TEST_EXPECT_MSG_EQ(e.priority, PRIO, "the lossless priority");
            NS_TEST_EXPECT_MSG_EQ(e.port, ring.cwPort[e.sw], "a ring queue storms");
            // Detected exactly DetectionTime after the queue's pause began (the recorder saw
            // that start through the port's PauseState trace).
            NS_TEST_EXPECT_MSG_EQ(e.time, e.pausedSince + MicroSeconds(100), "detection time");
        }
        NS_TEST_EXPECT_MSG_GT(storms, 0, "storms detected");
        NS_TEST_EXPECT_MSG_EQ(storms, stormEvents, "storm counter = traced storms");
        NS_TEST_EXPECT_MSG_EQ(restorations, restoreEvents, "restorations = traced");
        NS_TEST_EXPECT_MSG_EQ(restorations, storms, "every storm was restored by the end");
        if (m_action == PfcWatchdog::FORWARD)
        {
            // Forward sends through the pause and never drops a frame itself (the switch
            // downstream may still have to drop what its full buffer cannot take).
            NS_TEST_EXPECT_MSG_EQ(dropped, 0, "Forward drops nothing");
            Simulator::Destroy();
            Config::Reset();
            return;
        }
        NS_TEST_EXPECT_MSG_GT(dropped, 0, "frames dropped");
        uint64_t retransmitted = 0;
        for (const auto& qp : ring.flows)
        {
            retransmitted += qp->GetRetransmissions();
        }
        // Every dropped frame is a data frame of priority 3 (ACKs travel on another priority)
        // that go-back-N had to send again.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(retransmitted, dropped, "drops recovered by resending");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * PFC deadlocks and the PFC watchdog.
 */
class PfcDeadlockTestSuite : public TestSuite
{
  public:
    PfcDeadlockTestSuite()
        : TestSuite("llm-fabric-pfc-deadlock", Type::SYSTEM)
    {
        AddTestCase(new PfcWatchdogTimingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcDeadlockRingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcWatchdogRingTestCase(PfcWatchdog::DROP), ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcWatchdogRingTestCase(PfcWatchdog::FORWARD), ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static PfcDeadlockTestSuite g_pfcDeadlockTestSuite;

} // namespace tests
} // namespace llmfabric
