/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ecn-marker.h"
#include "ns3/enum.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/queue-size.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/roce-constant-rate-source.h"
#include "ns3/roce-fabric.h"
#include "ns3/roce-link-helper.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param arrivals the frames that arrived at a host port (untagged IPv4).
 * @return every arrival's time and flow (its UDP source port, bytes 34-35 of the frame), for
 * determinism checks.
 */
std::string
FlowArrivals(const FrameRecorder& arrivals)
{
    std::ostringstream out;
    for (size_t i = 0; i < arrivals.frames.size(); ++i)
    {
        uint8_t bytes[36];
        arrivals.frames[i]->CopyData(bytes, sizeof(bytes));
        out << arrivals.times[i].GetNanoSeconds() << ':' << ((bytes[34] << 8) | bytes[35]) << ' ';
    }
    return out.str();
}

/// Counts Xoff events with the group's ingress bytes at that moment.
class XoffProbe
{
  public:
    /**
     * @param port ingress port.
     * @param priority priority.
     */
    void Xoff(uint32_t port, uint8_t priority)
    {
        bytesAtXoff.push_back(mmu->GetIngressBytes(port, priority));
        sharedAtXoff.push_back(mmu->GetSharedUsed());
    }

    Ptr<SwitchMmu> mmu;                 //!< the MMU watched
    std::vector<uint32_t> bytesAtXoff;  //!< group bytes when XOFF fired
    std::vector<uint32_t> sharedAtXoff; //!< shared use when XOFF fired
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A star forwards on the IPv4 destination and stores and forwards: a frame crosses two links
 * in exactly twice its serialization plus twice the delay.
 */
class FabricStarForwardingTestCase : public TestCase
{
  public:
    FabricStarForwardingTestCase()
        : TestCase("Star: forwarding on IPv4 destination, store-and-forward latency")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(4, DataRate("100Gbps"), MicroSeconds(1));
        NS_TEST_ASSERT_MSG_EQ(fabric.GetNHosts(), 4, "four hosts");
        NS_TEST_ASSERT_MSG_EQ(fabric.GetHostAddress(2), Ipv4Address("10.0.0.3"), "addresses");
        FrameRecorder at2(fabric.GetHostDevice(2));
        FrameRecorder at1(fabric.GetHostDevice(1));
        // One packet with a 930-byte payload: frame = 14 + 20 + 8 + 12 + 930 + 4 = 988 bytes,
        // (8 + 988 + 4) x 8 / 100 Gb/s = 80 ns per hop, + 1 us per link: 2 x 1080 = 2160 ns.
        AddConstantRateSource(fabric, 0, 2, DataRate("100Gbps"), 1, 930, 0xC000);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(at2.frames.size(), 1, "the destination gets the frame");
        NS_TEST_ASSERT_MSG_EQ(at1.frames.size(), 0, "another host does not");
        NS_TEST_ASSERT_MSG_EQ(at2.GetLast(), NanoSeconds(2160), "two hops of 1080 ns");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A switch's routes stay right through its lookup table's growth, a route replaced and routes
 * removed: frames go where the last AddRoute said, and to a removed destination nowhere.
 */
class FabricRouteTableTestCase : public TestCase
{
  public:
    FabricRouteTableTestCase()
        : TestCase("Switch routes: a thousand added, one replaced, some removed")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        RoceFabric fabric = topo.BuildStar(4, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
        // A thousand routes to addresses no host has (10.1.0.0 on, every 7th): the table of
        // 16 slots doubles past half full up to 2048 and is rebuilt each time.
        for (uint32_t k = 0; k < 1000; ++k)
        {
            sw->AddRoute(Ipv4Address(0x0A010000U + 7 * k), {k % 4});
        }
        const uint32_t port1 = sw->GetRoute(fabric.GetHostAddress(1)).at(0);
        NS_TEST_ASSERT_MSG_NE(port1,
                              sw->GetRoute(fabric.GetHostAddress(2)).at(0),
                              "hosts 1 and 2 hang on different ports");
        sw->AddRoute(fabric.GetHostAddress(2), {port1}); // host 2's frames out of host 1's port
        sw->RemoveRoute(fabric.GetHostAddress(3));
        for (uint32_t k = 0; k < 1000; k += 2)
        {
            sw->RemoveRoute(Ipv4Address(0x0A010000U + 7 * k));
        }
        NS_TEST_EXPECT_MSG_EQ(sw->GetRoute(Ipv4Address(0x0A010000U + 7 * 501)).at(0),
                              501 % 4,
                              "a route kept");
        NS_TEST_EXPECT_MSG_EQ(sw->GetRoute(Ipv4Address(0x0A010000U + 7 * 500)).size(),
                              0,
                              "a route removed");
        FrameRecorder at1(fabric.GetHostDevice(1));
        FrameRecorder at2(fabric.GetHostDevice(2));
        FrameRecorder at3(fabric.GetHostDevice(3));
        AddConstantRateSource(fabric, 0, 2, DataRate("100Gbps"), 1, 930, 0xC000);
        AddConstantRateSource(fabric, 0, 3, DataRate("100Gbps"), 1, 930, 0xC001);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(at1.frames.size(), 1, "the frame to host 2 leaves by host 1's port");
        NS_TEST_EXPECT_MSG_EQ(at2.frames.size(), 0, "host 2's old port sends nothing");
        NS_TEST_EXPECT_MSG_EQ(at3.frames.size(), 0, "no route to host 3");
        NS_TEST_EXPECT_MSG_EQ(sw->GetTotalDrops(), 1, "the frame to host 3 dropped");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * A link between two ports of one switch, the route to a host sending frames out of one of
 * them: a frame that arrives at the other is forwarded back onto the link it arrived from,
 * at once when that port is idle (the link's ring is then added to while it delivers from
 * it). After 20 us, about 18 rounds, the route goes back to the host's port: every frame
 * reaches the host and none is dropped.
 */
class FabricLoopbackLinkTestCase : public TestCase
{
  public:
    FabricLoopbackLinkTestCase()
        : TestCase("A link between two ports of one switch: frames forwarded back onto it")
    {
    }

  private:
    void DoRun() override
    {
        // Two hosts on one switch, and the loop: a link from the switch's node to itself.
        RoceFabric fabric = RoceTopologyHelper().BuildStar(2, DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
        Ptr<Node> node = sw->GetObject<Node>();
        NS_TEST_ASSERT_MSG_NE(node, nullptr, "the switch's node");
        RoceLinkHelper link;
        NetDeviceContainer loop = link.Install(node, node, DataRate("100Gbps"), MicroSeconds(1));
        const uint32_t out = sw->AddPort(DynamicCast<RoceNetDevice>(loop.Get(0)));
        sw->AddPort(DynamicCast<RoceNetDevice>(loop.Get(1)));
        const Ipv4Address host1 = fabric.GetHostAddress(1);
        const uint32_t home = sw->GetRoute(host1).at(0);
        sw->AddRoute(host1, {out});
        Simulator::Schedule(MicroSeconds(20), [sw, host1, home]() { sw->AddRoute(host1, {home}); });
        FrameRecorder at1(fabric.GetHostDevice(1));
        // 12 frames at a tenth of the line rate (about 880 ns apart): the loop's port is idle
        // when most of them come round.
        AddConstantRateSource(fabric, 0, 1, DataRate("10Gbps"), 12, 1000, 0xC000);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(at1.frames.size(), 12, "every frame reaches host 1");
        NS_TEST_EXPECT_MSG_EQ(sw->GetTotalDrops(), 0, "no frame dropped");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * On a leaf-spine, flows spread over the spines by ECMP, one flow keeps one path, and every
 * packet arrives.
 */
class FabricLeafSpineEcmpTestCase : public TestCase
{
  public:
    FabricLeafSpineEcmpTestCase()
        : TestCase("Leaf-spine: ECMP spreads flows over spines, a flow keeps its path")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper topo;
        RoceTopologyHelper::LeafSpineConfig c = LeafSpineShape(2, 2, 4);
        NS_TEST_ASSERT_MSG_EQ(RoceTopologyHelper::GetOversubscription(c), 0.5, "2x100 / 4x100");
        RoceFabric fabric = topo.BuildLeafSpine(c);
        NS_TEST_ASSERT_MSG_EQ(fabric.GetNSwitches(), 6, "2 leaves + 4 spines");
        Ptr<RoceSwitch> leaf0 = fabric.GetSwitch(0);
        // leaf0's ports: 0, 1 to its hosts, 2..5 to the spines (links are added host links
        // first, then leaf-spine links by leaf then spine).
        std::vector<uint32_t> up = leaf0->GetRoute(fabric.GetHostAddress(2));
        NS_TEST_ASSERT_MSG_EQ(up.size(), 4, "four equal-cost uplinks towards the other leaf");
        NS_TEST_ASSERT_MSG_EQ(leaf0->GetRoute(fabric.GetHostAddress(1)).size(), 1, "local host");

        FrameRecorder at2(fabric.GetHostDevice(2));
        // 400 flows (UDP source ports) of 2 packets each, host 0 -> host 2, slowly (no queues).
        for (uint16_t f = 0; f < 400; ++f)
        {
            AddConstantRateSource(fabric,
                                  0,
                                  2,
                                  DataRate("1Gbps"),
                                  2,
                                  100,
                                  static_cast<uint16_t>(0xC000 + f));
        }
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(at2.frames.size(), 800, "every packet arrives");
        // Per spine uplink: 800 packets x 1/4 = 200 expected; each flow's two packets go the
        // same way, so the count per port is even. Binomial sd over flows: sqrt(400 x 1/4 x
        // 3/4) = 8.7 flows = 17 packets; 200 +- 70 is 4 sd.
        for (uint32_t p : up)
        {
            uint64_t frames = leaf0->GetPort(p)->GetCounters(3).txFrames;
            NS_TEST_EXPECT_MSG_EQ(frames % 2, 0, "a flow's packets take one uplink");
            NS_TEST_EXPECT_MSG_GT(frames, 130, "uplink " << p << " carries its share");
            NS_TEST_EXPECT_MSG_LT(frames, 270, "uplink " << p << " carries its share");
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Incast on a lossless priority: with the default headroom nothing is dropped, the switch
 * pauses the senders, every packet arrives, and the receiver's link runs at line rate; with a
 * headroom too small, drops are counted with their reason.
 */
class FabricIncastPfcTestCase : public TestCase
{
  public:
    FabricIncastPfcTestCase()
        : TestCase(
              "Incast 2:1 at line rate: PFC, no drop with default headroom; small headroom drops")
    {
    }

  private:
    void DoRun() override
    {
        for (bool smallHeadroom : {false, true})
        {
            RoceTopologyHelper topo;
            topo.SetMmuAttribute("Buffer", QueueSizeValue(QueueSize("1MB")));
            topo.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
            topo.SetMmuAttribute("StaticThreshold", QueueSizeValue(QueueSize("50KB")));
            if (smallHeadroom)
            {
                topo.SetMmuAttribute("HeadroomBytes", QueueSizeValue(QueueSize("3000B")));
            }
            RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
            FrameRecorder at2(fabric.GetHostDevice(2));
            // Two senders at line rate, 2000 packets of 930-byte payload (988-byte frames)
            // each, priority 3 (DSCP 26), which is lossless by default.
            AddTwoToOneIncast(fabric, 2, 2000);
            Simulator::Run();
            Ptr<RoceSwitch> sw = fabric.GetSwitch(0);
            uint64_t pauses = sw->GetPort(0)->GetCounters(3).pausesSent +
                              sw->GetPort(1)->GetCounters(3).pausesSent;
            if (!smallHeadroom)
            {
                NS_TEST_EXPECT_MSG_EQ(sw->GetTotalDrops(), 0, "no drop with default headroom");
                NS_TEST_EXPECT_MSG_EQ(at2.frames.size(), 4000, "every packet arrives");
                NS_TEST_EXPECT_MSG_GT(pauses, 0, "the switch paused the senders");
                NS_TEST_EXPECT_MSG_GT(fabric.GetHostDevice(0)->GetCounters(3).pausedTime,
                                      Time(0),
                                      "sender 0 was paused");
                // 4000 frames of 1012 wire bytes at 100 Gb/s leave the switch in 4000 x 80.96
                // ns = 323.84 us; the first arrives at the switch after 1080 ns and the last
                // reaches the host 1080 ns after it leaves: 323.84 + 1.08 + 1.08 = 326.0 us
                // at line rate. Within 2 %.
                NS_TEST_EXPECT_MSG_LT(at2.GetLast(), NanoSeconds(326000 * 102 / 100), "line rate");
                NS_TEST_EXPECT_MSG_GT(at2.GetLast(), NanoSeconds(326000 - 100), "not faster");
            }
            else
            {
                uint64_t headroomDrops = sw->GetDrops(0, 3, RoceSwitch::DROP_HEADROOM_FULL) +
                                         sw->GetDrops(1, 3, RoceSwitch::DROP_HEADROOM_FULL);
                NS_TEST_EXPECT_MSG_GT(headroomDrops, 0, "too small a headroom drops");
                NS_TEST_EXPECT_MSG_EQ(sw->GetTotalDrops(), headroomDrops, "all for that reason");
                NS_TEST_EXPECT_MSG_EQ(at2.frames.size() + headroomDrops,
                                      4000,
                                      "sent = arrived + lost");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * XOFF fires where the configuration puts it: with a static threshold, when the ingress group
 * passes reserved + threshold; with a dynamic one, when its shared use passes Alpha x the free
 * shared pool.
 */
class FabricXoffCrossingTestCase : public TestCase
{
  public:
    FabricXoffCrossingTestCase()
        : TestCase("XOFF at the static and at the dynamic threshold crossing")
    {
    }

  private:
    void DoRun() override
    {
        for (bool dynamic : {false, true})
        {
            RoceTopologyHelper topo;
            topo.SetMmuAttribute("Buffer", QueueSizeValue(QueueSize("2MB")));
            topo.SetMmuAttribute("ReservedBytes", QueueSizeValue(QueueSize("3000B")));
            topo.SetMmuAttribute("ThresholdMode",
                                 EnumValue(dynamic ? SwitchMmu::DYNAMIC : SwitchMmu::STATIC));
            topo.SetMmuAttribute("StaticThreshold", QueueSizeValue(QueueSize("40000B")));
            topo.SetMmuAttribute("Alpha", DoubleValue(0.0625));
            RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
            XoffProbe probe;
            probe.mmu = fabric.GetSwitch(0)->GetMmu();
            probe.mmu->TraceConnectWithoutContext("Xoff", MakeCallback(&XoffProbe::Xoff, &probe));
            AddTwoToOneIncast(fabric, 2, 500);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_GT(probe.bytesAtXoff.size(), 0, "XOFF fires");
            uint32_t frame = 988;
            if (!dynamic)
            {
                // Static: the packet that takes the group past 3000 + 40000 bytes goes to the
                // headroom and triggers XOFF, so at that moment the group holds more than
                // 43000 bytes and less than 43000 + one frame.
                NS_TEST_EXPECT_MSG_GT(probe.bytesAtXoff[0], 43000, "past reserved + static");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(probe.bytesAtXoff[0], 43000 + frame, "by one frame");
            }
            else
            {
                // Dynamic, alpha = 1/16: the group's shared use s (bytes beyond its 3000
                // reserved) passes alpha x (P - S), P the shared pool, S all shared use.
                // At XOFF: s > alpha (P - S) - frame, and before the packet s - frame <= ...
                uint32_t pool = probe.mmu->GetSharedPoolSize();
                uint32_t s = probe.bytesAtXoff[0] - 3000;
                double allowance = 0.0625 * (static_cast<double>(pool) - probe.sharedAtXoff[0]);
                NS_TEST_EXPECT_MSG_GT(s + frame, allowance, "past the dynamic allowance");
                NS_TEST_EXPECT_MSG_LT(static_cast<double>(s) - frame,
                                      allowance + frame,
                                      "within a frame of the allowance");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * ECN-capable packets crossing a congested port are marked; Not-ECT packets never are.
 */
class FabricEcnTestCase : public TestCase
{
  public:
    FabricEcnTestCase()
        : TestCase("Congested port marks ECT packets CE, never Not-ECT ones")
    {
    }

  private:
    void DoRun() override
    {
        for (bool ect : {true, false})
        {
            RoceTopologyHelper topo;
            SetEcnMarking(topo, "5KB", "20KB", 0.5);
            RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
            AddTwoToOneIncast(fabric, 2, 300, ect);
            Simulator::Run();
            uint64_t marks = fabric.GetSwitch(0)->GetEcnMarks(2, 3);
            if (ect)
            {
                NS_TEST_EXPECT_MSG_GT(marks, 0, "ECT packets are marked under congestion");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(marks, 0, "Not-ECT packets are never marked");
            }
            Simulator::Destroy();
        }
    }
};

/**
 * @param frames frames that arrived at a host (untagged IPv4: the TOS byte is byte 15).
 * @return the ECN field of each, in order.
 */
std::vector<uint8_t>
EcnFields(const std::vector<Ptr<Packet>>& frames)
{
    std::vector<uint8_t> ecn;
    for (const Ptr<Packet>& frame : frames)
    {
        uint8_t bytes[16];
        frame->CopyData(bytes, sizeof(bytes));
        ecn.push_back(bytes[15] & 0x03);
    }
    return ecn;
}

/**
 * @ingroup llm-fabric-tests
 * Marking on enqueue judges a packet by the queue it finds, marking on dequeue by the queue it
 * leaves behind: the last packet of a burst finds a queue but leaves none.
 */
class FabricEcnMarkPointTestCase : public TestCase
{
  public:
    FabricEcnMarkPointTestCase()
        : TestCase("ECN marking on enqueue and on dequeue see different queues")
    {
    }

  private:
    void DoRun() override
    {
        for (auto point : {EcnMarker::MARK_ON_ENQUEUE, EcnMarker::MARK_ON_DEQUEUE})
        {
            RoceTopologyHelper topo;
            // Mark surely above one byte of queue, never at an empty queue.
            SetEcnMarking(topo, "0B", "1B", 1.0);
            topo.SetSwitchAttribute("EcnMarkPoint", EnumValue(point));
            RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
            FrameRecorder arrivals(fabric.GetHostDevice(2));
            // Two senders at line rate, 10 frames each, into one port: two frames arrive per
            // frame time and one leaves, so the queue grows by a frame per frame time, then
            // drains after the 10th pair.
            AddTwoToOneIncast(fabric, 2, 10);
            Simulator::Run();
            uint64_t marks = fabric.GetSwitch(0)->GetEcnMarks(2, 3);
            Simulator::Destroy();
            const std::vector<uint8_t> ecn = EcnFields(arrivals.frames);
            NS_TEST_ASSERT_MSG_EQ(ecn.size(), 20, "every frame arrives");
            const uint8_t ce = Ipv4Header::ECN_CE;
            uint64_t ceCount = std::count(ecn.begin(), ecn.end(), ce);
            NS_TEST_EXPECT_MSG_EQ(ceCount, marks, "the counter counts the CE frames");
            // The first frame finds an empty queue and leaves while the other sender's first
            // frame has not been counted in (their arrivals are simultaneous, and the first is
            // processed first): unmarked either way.
            NS_TEST_EXPECT_MSG_NE(ecn[0], ce, "first frame unmarked");
            if (point == EcnMarker::MARK_ON_ENQUEUE)
            {
                // Enqueue: the second frame finds the first already on the wire (released from
                // the queue when it started): unmarked; each later one finds at least one frame
                // queued: 18 marks, the last frame among them.
                NS_TEST_EXPECT_MSG_NE(ecn[1], ce, "second frame found an empty queue");
                NS_TEST_EXPECT_MSG_EQ(marks, 18, "every later frame found a queue");
                NS_TEST_EXPECT_MSG_EQ(ecn[19], ce, "the last frame found a queue");
            }
            else
            {
                // Dequeue: once all 20 have arrived, frame k (k >= 10, counting from 1) leaves
                // 20 - k frames behind: frames 10..19 are marked, frame 20 leaves an empty
                // queue and is not.
                for (uint32_t k = 10; k < 20; ++k)
                {
                    NS_TEST_EXPECT_MSG_EQ(ecn[k - 1], ce, "left a queue behind");
                }
                NS_TEST_EXPECT_MSG_NE(ecn[19], ce, "the last frame left none");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The same seed gives the same run, bit for bit; another run number changes what depends on
 * randomness (here, per-packet spraying).
 */
class FabricDeterminismTestCase : public TestCase
{
  public:
    FabricDeterminismTestCase()
        : TestCase("Same seed, same arrivals; another run number, other arrivals (spraying)")
    {
    }

  private:
    /**
     * @param run the RngRun.
     * @return every arrival at host 3 (time and flow), in order.
     */
    std::string RunOnce(uint64_t run)
    {
        RngSeedManager::SetSeed(1);
        RngSeedManager::SetRun(run);
        RoceTopologyHelper topo;
        NS_TEST_EXPECT_MSG_EQ(topo.SetLoadBalancer("spray"), "", "spraying is known");
        RoceTopologyHelper::LeafSpineConfig c = LeafSpineShape(2, 2, 2);
        RoceFabric fabric = topo.BuildLeafSpine(c);
        // Fixed streams: automatically numbered streams continue from run to run in a process.
        fabric.AssignStreams(100);
        FrameRecorder at3(fabric.GetHostDevice(3));
        AddTwoToOneIncast(fabric, 3, 300);
        Simulator::Run();
        Simulator::Destroy();
        return FlowArrivals(at3);
    }

    void DoRun() override
    {
        std::string a = RunOnce(1);
        std::string b = RunOnce(1);
        std::string c = RunOnce(2);
        NS_TEST_ASSERT_MSG_EQ(a.empty(), false, "packets arrive");
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "the same seed and run give the same arrivals");
        NS_TEST_EXPECT_MSG_EQ((a != c), true, "another run sprays differently");
        RngSeedManager::SetRun(1);
    }
};

/**
 * @ingroup llm-fabric-tests
 * Leaf-spine shapes that cannot be built are reported by name.
 */
class FabricConfigTestCase : public TestCase
{
  public:
    FabricConfigTestCase()
        : TestCase("Bad leaf-spine shapes are reported by name")
    {
    }

  private:
    void DoRun() override
    {
        RoceTopologyHelper::LeafSpineConfig c;
        NS_TEST_EXPECT_MSG_EQ(RoceTopologyHelper::CheckLeafSpine(c), "", "the default is fine");

        // The default shape (4 hosts per leaf, 2 leaves, 2 spines) with one count changed.
        struct BadShape
        {
            uint32_t hostsPerLeaf; //!< hosts under each leaf
            uint32_t leaves;       //!< leaves
            uint32_t spines;       //!< spines
            const char* problem;   //!< what CheckLeafSpine must say
            const char* why;       //!< the case
        };

        const BadShape badShapes[] = {{4, 1, 2, "leaves (1) must be at least 2", "one leaf"},
                                      {4, 2, 0, "spines (0) must be at least 1", "no spine"},
                                      {0, 2, 2, "hostsPerLeaf (0) must be at least 1", "no host"}};
        for (const BadShape& bad : badShapes)
        {
            c.hostsPerLeaf = bad.hostsPerLeaf;
            c.leaves = bad.leaves;
            c.spines = bad.spines;
            NS_TEST_EXPECT_MSG_EQ(RoceTopologyHelper::CheckLeafSpine(c), bad.problem, bad.why);
        }
        c.hostsPerLeaf = 8;
        c.spines = 2;
        c.fabricRate = DataRate("100Gbps");
        NS_TEST_EXPECT_MSG_EQ(RoceTopologyHelper::GetOversubscription(c), 4.0, "8x100 / 2x100");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Switches, links and topologies working together.
 */
class RoceFabricTestSuite : public TestSuite
{
  public:
    RoceFabricTestSuite()
        : TestSuite("llm-fabric-fabric", Type::SYSTEM)
    {
        AddTestCase(new FabricStarForwardingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricRouteTableTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricLoopbackLinkTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricLeafSpineEcmpTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricIncastPfcTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricXoffCrossingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricEcnTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricEcnMarkPointTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricDeterminismTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricConfigTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RoceFabricTestSuite g_roceFabricTestSuite;

} // namespace tests
} // namespace llmfabric
