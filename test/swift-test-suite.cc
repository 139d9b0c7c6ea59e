/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-test-util.h"
#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/egress-stage.h"
#include "ns3/ethernet-header.h"
#include "ns3/frame-prefix-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/swift.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Deliver an acknowledgement.
 * @param cc the algorithm.
 * @param rttNs its RTT sample, ns.
 * @param hops its hop echo.
 * @param bytes acknowledged bytes.
 */
void
SwiftAck(Ptr<Swift> cc, double rttNs, uint8_t hops, uint32_t bytes)
{
    RdmaAckInfo info;
    info.ackedBytes = bytes;
    info.rtt = NanoSeconds(rttNs);
    info.hops = hops;
    cc->OnAck(info);
}

/**
 * @param qps queue pairs.
 * @return the data packets they sent, together.
 */
uint64_t
PacketsSent(const std::vector<Ptr<RdmaQueuePair>>& qps)
{
    uint64_t packets = 0;
    for (const auto& qp : qps)
    {
        packets += qp->GetPacketsSent();
    }
    return packets;
}

/**
 * fs of the default flow scaling: FsRange 4 us between cwnd 0.1 and 100.
 * @param cwnd a window, packets.
 * @return fs, us.
 */
double
FlowScalingUs(double cwnd)
{
    // a = 4 / (1 / sqrt(0.1) - 1 / sqrt(100)) = 4 / (3.16228 - 0.1) = 1.30622 us,
    // b = -a / sqrt(100) = -0.130622 us.
    const double a = 4.0 / (1.0 / std::sqrt(0.1) - 0.1);
    return std::min(4.0, std::max(0.0, a / std::sqrt(cwnd) - a / 10.0));
}

/**
 * The target delay as Swift computes it: a Time, so fs is rounded to the simulator's
 * resolution (1 ns).
 * @param cwnd a window, packets.
 * @param hops the hop count.
 * @return 3 + 3 hops + fs, us, fs to the nearest ns.
 */
double
TargetUs(double cwnd, uint32_t hops)
{
    return 3.0 + 3.0 * hops + static_cast<double>(std::llround(FlowScalingUs(cwnd) * 1000)) / 1000;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Swift's rules on hand-made acknowledgements: the target delay (base, hops, flow scaling),
 * additive increase below it, a bounded decrease above it at most once per RTT, pacing below
 * one packet, timeouts.
 */
class SwiftRulesTestCase : public TestCase
{
  public:
    SwiftRulesTestCase()
        : TestCase("Swift: target delay, increase below it, bounded decrease once per RTT")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Swift> cc = CreateObject<Swift>();
        cc->SetMtu(1000);
        cc->Start(DataRate("100Gbps"));
        NS_TEST_EXPECT_MSG_EQ(cc->NeedsHopEcho(), true, "Swift asks for the hop echo");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 50000, "InitialCwnd 50 packets of 1000 B");

        // Target delay = 3 us + hops x 3 us + fs(cwnd): fs is FsRange = 4 us at cwnd 0.1, 0 at
        // 100 and above, a / sqrt(cwnd) + b between.
        NS_TEST_EXPECT_MSG_EQ(cc->GetTargetDelay(100, 0), MicroSeconds(3), "no hop, no fs");
        NS_TEST_EXPECT_MSG_EQ(cc->GetTargetDelay(200, 1), MicroSeconds(6), "1 hop");
        NS_TEST_EXPECT_MSG_EQ(cc->GetTargetDelay(200, 3), MicroSeconds(12), "3 hops");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetDelay(0.1, 1).GetSeconds() * 1e6,
                                  10.0,
                                  1e-6,
                                  "fs = FsRange at FsMinCwnd");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetDelay(0.01, 1).GetSeconds() * 1e6,
                                  10.0,
                                  1e-6,
                                  "fs clamped to FsRange");
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetTargetDelay(4, 1).GetSeconds() * 1e6,
                                  TargetUs(4, 1),
                                  1e-9,
                                  "fs at 4 packets (to the ns)");
        NS_TEST_EXPECT_MSG_EQ_TOL(FlowScalingUs(4), 0.522489, 1e-5, "a / 2 + b");

        // Below the target (1 hop, cwnd 50: 6 + fs(50) = 6.054 us): +Ai x acked / cwnd, 4
        // packets acknowledged: 50 + 4 / 50 = 50.08.
        Simulator::Schedule(MicroSeconds(10), &SwiftAck, cc, 5000.0, 1, 4000);
        // Above it: delay 12 us, target 6 + fs(50.08): x (1 - 0.8 (12 - t) / 12).
        Simulator::Schedule(MicroSeconds(20), &SwiftAck, cc, 12000.0, 1, 1000);
        // Again 5 us later, within the RTT (12 us) of that decrease: no second decrease.
        Simulator::Schedule(MicroSeconds(25), &SwiftAck, cc, 12000.0, 1, 1000);
        Simulator::Stop(MicroSeconds(26));
        Simulator::Run();
        double cwnd = 50 + 4.0 / 50;
        double target = TargetUs(cwnd, 1);
        cwnd *= 1 - 0.8 * (12 - target) / 12;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), cwnd, 1e-9, "one decrease per RTT");
        NS_TEST_EXPECT_MSG_EQ(cc->GetDecreases(), 1, "one decrease");
        NS_TEST_EXPECT_MSG_EQ(cc->GetLastHops(), 1, "the hop echo");
        // 200 us after the decrease (more than the RTT of the new sample, 100 us): a delay of
        // 100 us would cut by 1 - 0.8 x (100 - t) / 100 > 0.5: bounded by MaxMdf, a halving.
        Simulator::Schedule(MicroSeconds(200), &SwiftAck, cc, 100000.0, 1, 1000);
        Simulator::Stop(MicroSeconds(201));
        Simulator::Run();
        cwnd *= 0.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), cwnd, 1e-9, "MaxMdf bounds the decrease");

        // Below one packet: the window is one packet and the rate paces one 1082-byte packet
        // per RTT / cwnd. Halvings (100 us delays, 200 us apart) down to below 1: from 23.7
        // packets, 5 halvings give 0.74.
        for (uint32_t k = 1; k <= 5; ++k)
        {
            Simulator::Schedule(MicroSeconds(200 * k), &SwiftAck, cc, 100000.0, 1, 1000);
            cwnd *= 0.5;
        }
        Simulator::Stop(MicroSeconds(1001));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), cwnd, 1e-9, "halved five times");
        NS_TEST_ASSERT_MSG_LT(cwnd, 1.0, "below one packet");
        NS_TEST_EXPECT_MSG_EQ(cc->GetWindow(), 1000, "one packet in flight");
        double rate = 1082 * 8 * cwnd / 100e-6; // bit/s: 1082 bytes per 100 us / cwnd
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(cc->GetRate().GetBitRate()),
                                  rate,
                                  1.0,
                                  "paced at one packet per RTT / cwnd");
        // Below the target with cwnd < 1: + Ai x acked (one packet: + 1).
        Simulator::Schedule(MicroSeconds(10), &SwiftAck, cc, 5000.0, 1, 1000);
        Simulator::Stop(MicroSeconds(11));
        Simulator::Run();
        cwnd += 1;
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), cwnd, 1e-9, "+ Ai per packet below one");
        NS_TEST_EXPECT_MSG_EQ(cc->GetRate(), DataRate("100Gbps"), "no pacing from one packet");

        // Timeouts: the first (more than an RTT after the last decrease) halves; the fifth in
        // a row sets MinCwnd, 0.001.
        Simulator::Schedule(MicroSeconds(100), &Swift::OnTimeout, cc);
        Simulator::Stop(MicroSeconds(101));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), cwnd * 0.5, 1e-9, "a timeout halves");
        for (uint32_t k = 0; k < 4; ++k)
        {
            cc->OnTimeout();
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(cc->GetCwnd(), 0.001, 1e-12, "reset after 5 timeouts");
        Simulator::Destroy();

        cc = CreateObject<Swift>();
        cc->SetAttribute("FsMinCwnd", DoubleValue(200.0));
        NS_TEST_EXPECT_MSG_EQ(cc->CheckConfig(),
                              "FsMinCwnd (200) is not below FsMaxCwnd (100)",
                              "flow scaling range");
    }
};

/**
 * Swift on every host of a leaf-spine (2 leaves of 4 hosts, 2 spines, the topology helper's
 * defaults), MTU 1000, whose switches mark CE every frame queued behind another (to see
 * CE-marked frames too). Config::Reset after the run undoes the MTU.
 * @return the fabric and its endpoints.
 */
std::pair<RoceFabric, std::vector<Ptr<RdmaEndpoint>>>
SwiftLeafSpine()
{
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
    RoceTopologyHelper topo;
    topo.SetMmuBufferAndEcn("12MB", "0B", "1B", 1.0, true);
    RoceTopologyHelper::LeafSpineConfig config; // 2 leaves of 4 hosts, 2 spines
    RoceFabric fabric = topo.BuildLeafSpine(config);
    auto ep = InstallCc(fabric, Swift::GetTypeId());
    return {fabric, ep};
}

/**
 * @ingroup llm-fabric-tests
 * The hop count: switches decrement the IPv4 TTL and keep the header checksum valid (CE-marked
 * or not), receivers echo 64 - TTL in their ACKs, and Swift's target grows with it: 1 hop
 * through a star's switch or within a leaf, 3 across a leaf-spine fabric.
 */
class SwiftHopsTestCase : public TestCase
{
  public:
    SwiftHopsTestCase()
        : TestCase("Swift: TTL decremented per switch, hop echo in ACKs, target per hops")
    {
    }

  private:
    void DoRun() override
    {
        auto [fabric, ep] = SwiftLeafSpine();
        // Hosts 0 and 1 under leaf 0 write to host 2 (same leaf: 1 switch) and host 4 (other
        // leaf: leaf, spine, leaf).
        auto [near, nearPeer] = RdmaEndpoint::Connect(ep[0], ep[2], 0xC000);
        auto [far, farPeer] = RdmaEndpoint::Connect(ep[1], ep[4], 0xC001);
        auto [far2, far2Peer] = RdmaEndpoint::Connect(ep[3], ep[4], 0xC002);
        near->PostWrite(100000);
        far->PostWrite(100000);
        far2->PostWrite(100000);
        FrameRecorder atFar(fabric.GetHostDevice(4));
        Simulator::Run();
        Ptr<Swift> nearCc = DynamicCast<Swift>(near->GetCongestionControl());
        Ptr<Swift> farCc = DynamicCast<Swift>(far->GetCongestionControl());
        uint32_t nearHops = nearCc->GetLastHops();
        uint32_t farHops = farCc->GetLastHops();
        Time farTarget = farCc->GetLastTarget();
        Time nearTarget = nearCc->GetLastTarget();
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_EXPECT_MSG_EQ(nearHops, 1, "within a leaf: one switch");
        NS_TEST_EXPECT_MSG_EQ(farHops, 3, "across the spines: three switches");
        // The targets differ by 2 x PerHopScaling = 6 us plus the difference of their fs
        // (each within [0, FsRange = 4 us]).
        double diffUs = (farTarget - nearTarget).GetSeconds() * 1e6;
        NS_TEST_EXPECT_MSG_GT_OR_EQ(diffUs, 6 - 4, "the target grows with the hops");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(diffUs, 6 + 4, "the target grows with the hops");
        // Every data frame host 4 received crossed 3 switches: TTL 64 - 3 = 61, and its header
        // checksum is valid after the switches' patches (and the ECN marker's rewrites).
        uint32_t data = 0;
        uint32_t marked = 0;
        for (const auto& frame : atFar.frames)
        {
            Ptr<Packet> p = frame->Copy();
            EthernetHeader eth(false);
            p->RemoveHeader(eth);
            Ipv4Header ip;
            ip.EnableChecksum();
            p->RemoveHeader(ip);
            NS_TEST_EXPECT_MSG_EQ(+ip.GetTtl(), 61, "three switches: TTL 61");
            NS_TEST_EXPECT_MSG_EQ(ip.IsChecksumOk(), true, "header checksum valid");
            data += ip.GetDscp() == 26 ? 1 : 0;
            marked += ip.GetEcn() == Ipv4Header::ECN_CE ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(data, 200, "2 x 100 data packets");
        NS_TEST_EXPECT_MSG_GT(marked, 0, "CE-marked frames among them");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The RDMA endpoint reads a frame addressed to its port from the port's head bytes
 * (RoceNetDevice::HostFrameReceiveCallback, the TTL from FramePrefixHeader::TtlAfter) unless
 * something else watches what the port hands up, when the port removes the Ethernet header,
 * pays the deferred TTL decrements in the packet and hands it to the stack's callback. The two
 * paths must give the same transfers: SwiftHopsTestCase's three writes, run once with nothing
 * watching and once with a MacRx sink on every host, complete at the same times at both ends,
 * the receivers count the 100,000 bytes of each, and Swift, which reads the TTL, counts the same
 * hops (1 and 3) and sets the same targets. And
 * TtlAfter is the TTL DecrementIpv4TtlBytes leaves, and both are what routers one by one leave
 * (one off a TTL above 1, a TTL of 1 or 0 kept), for every TTL and up to 300 hops.
 */
class HostFramePathTestCase : public TestCase
{
  public:
    HostFramePathTestCase()
        : TestCase("Endpoint: frames read from the port's head bytes or through the stack, same "
                   "transfers")
    {
    }

  private:
    /// What one run gives.
    struct Outcome
    {
        std::vector<int64_t> times; //!< completion times (steps) and bytes, both sides
        uint32_t nearHops{0};       //!< Swift's hops, within a leaf
        uint32_t farHops{0};        //!< across the spines
        int64_t nearTarget{0};      //!< Swift's target delay, within a leaf
        int64_t farTarget{0};       //!< across the spines
    };

    /**
     * A completion.
     * @param times where to record its time and size.
     * @param bytes the message's size, as the queue pair counted it (the receiver: the
     *        payload bytes of the packets it accepted).
     */
    static void Completed(std::vector<int64_t>* times, Ptr<RdmaQueuePair>, uint64_t, uint64_t bytes)
    {
        times->push_back(Simulator::Now().GetTimeStep());
        times->push_back(static_cast<int64_t>(bytes));
    }

    /// A MacRx sink.
    static void Sink(Ptr<const Packet>)
    {
    }

    /**
     * Run the three writes.
     * @param watched whether a MacRx sink watches every host's port.
     * @return what the run gave.
     */
    static Outcome Run(bool watched)
    {
        Outcome out;
        auto [fabric, ep] = SwiftLeafSpine();
        if (watched)
        {
            for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
            {
                fabric.GetHostDevice(h)->TraceConnectWithoutContext("MacRx", MakeCallback(&Sink));
            }
        }
        auto [near, nearPeer] = RdmaEndpoint::Connect(ep[0], ep[2], 0xC000);
        auto [far, farPeer] = RdmaEndpoint::Connect(ep[1], ep[4], 0xC001);
        auto [far2, far2Peer] = RdmaEndpoint::Connect(ep[3], ep[4], 0xC002);
        for (const auto& qp : {near, nearPeer, far, farPeer, far2, far2Peer})
        {
            qp->SetSendCompleteCallback(MakeBoundCallback(&Completed, &out.times));
            qp->SetReceiveCompleteCallback(MakeBoundCallback(&Completed, &out.times));
        }
        near->PostWrite(100000);
        far->PostWrite(100000);
        far2->PostWrite(100000);
        Simulator::Run();
        Ptr<Swift> nearCc = DynamicCast<Swift>(near->GetCongestionControl());
        Ptr<Swift> farCc = DynamicCast<Swift>(far->GetCongestionControl());
        out.nearHops = nearCc->GetLastHops();
        out.farHops = farCc->GetLastHops();
        out.nearTarget = nearCc->GetLastTarget().GetTimeStep();
        out.farTarget = farCc->GetLastTarget().GetTimeStep();
        Simulator::Destroy();
        Config::Reset();
        return out;
    }

    void DoRun() override
    {
        uint32_t wrong = 0;
        uint32_t unlikeRouters = 0;
        for (uint32_t ttl = 0; ttl < 256; ++ttl)
        {
            for (uint32_t hops = 0; hops <= 300; ++hops)
            {
                uint8_t ipv4[20] = {0x45, 0, 0, 20, 0, 0, 0, 0, static_cast<uint8_t>(ttl), 17};
                uint32_t made = FramePrefixHeader::DecrementIpv4TtlBytes(ipv4, hops);
                wrong += FramePrefixHeader::TtlAfter(static_cast<uint8_t>(ttl), hops) != ipv4[8];
                // Router by router: each takes one off a TTL above 1 and leaves 1 or 0 as it is.
                uint32_t expected = ttl;
                for (uint32_t h = 0; h < hops; ++h)
                {
                    expected -= expected > 1 ? 1 : 0;
                }
                unlikeRouters += (ipv4[8] != expected) || (made != ttl - expected);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(wrong, 0, "TtlAfter disagrees with DecrementIpv4TtlBytes");
        NS_TEST_EXPECT_MSG_EQ(unlikeRouters, 0, "not what the routers one by one leave");

        Outcome direct = Run(false);
        Outcome stack = Run(true);
        NS_TEST_ASSERT_MSG_EQ(direct.times.size(), 12, "three writes complete at both ends");
        for (size_t k = 1; k < direct.times.size(); k += 2)
        {
            NS_TEST_EXPECT_MSG_EQ(direct.times[k], 100000, "each end counts the 100,000 bytes");
        }
        NS_TEST_EXPECT_MSG_EQ((direct.times == stack.times), true, "the same completion times");
        NS_TEST_EXPECT_MSG_EQ(direct.nearHops, 1, "within a leaf: one switch");
        NS_TEST_EXPECT_MSG_EQ(direct.farHops, 3, "across the spines: three switches");
        NS_TEST_EXPECT_MSG_EQ(stack.nearHops, 1, "within a leaf: one switch");
        NS_TEST_EXPECT_MSG_EQ(stack.farHops, 3, "across the spines: three switches");
        NS_TEST_EXPECT_MSG_EQ(direct.nearTarget, stack.nearTarget, "the same target");
        NS_TEST_EXPECT_MSG_EQ(direct.farTarget, stack.farTarget, "the same target");
    }
};

/**
 * @param ttl the IPv4 TTL.
 * @param tagged with an 802.1Q tag.
 * @param ecn the ECN field.
 * @return an Ethernet frame with IPv4 (valid header checksum) and a 100-byte payload.
 */
Ptr<Packet>
TtlFrame(uint8_t ttl, bool tagged, Ipv4Header::EcnType ecn)
{
    Ptr<Packet> p = Create<Packet>(100);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(100);
    ip.SetTtl(ttl);
    ip.SetIdentification(0x1234);
    ip.SetDscp(Ipv4Header::DSCP_AF31);
    ip.SetEcn(ecn);
    ip.EnableChecksum();
    p->AddHeader(ip);
    uint8_t tag[4] = {0x81, 0x00, 0x60, 0x01}; // TPID, PCP 3, VID 1; then the EtherType
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
    eth.SetLengthType(0x0800);
    if (tagged)
    {
        // An 802.1Q tag sits between the source address and the EtherType: write the 12
        // address bytes, the tag, then the EtherType.
        Ptr<Packet> header = Create<Packet>();
        header->AddHeader(eth);
        uint8_t bytes[14];
        header->CopyData(bytes, 14);
        uint8_t tagged18[18];
        std::copy(bytes, bytes + 12, tagged18);
        std::copy(tag, tag + 4, tagged18 + 12);
        std::copy(bytes + 12, bytes + 14, tagged18 + 16);
        Ptr<Packet> frame = Create<Packet>(tagged18, 18);
        frame->AddAtEnd(p);
        return frame;
    }
    p->AddHeader(eth);
    return p;
}

/**
 * @ingroup llm-fabric-tests
 * RoceSwitch::DecrementTtl: the TTL falls by one and the incrementally patched checksum equals
 * a full recomputation, untagged or 802.1Q-tagged, CE-marked or not; a TTL of 1 is left alone.
 */
class SwitchTtlTestCase : public TestCase
{
  public:
    SwitchTtlTestCase()
        : TestCase("Switch: TTL decrement with an RFC 1624 checksum patch, tagged or not")
    {
    }

  private:
    void DoRun() override
    {
        for (bool tagged : {false, true})
        {
            for (uint8_t ttl : {64, 2, 1})
            {
                for (auto ecn : {Ipv4Header::ECN_ECT0, Ipv4Header::ECN_CE})
                {
                    Ptr<Packet> frame = TtlFrame(ttl, tagged, ecn);
                    uint8_t bytes[64];
                    uint32_t n = frame->CopyData(bytes, sizeof(bytes));
                    bool done = RoceSwitch::DecrementTtl(frame, bytes, n);
                    const bool expectDone = ttl > 1;
                    const uint32_t size = (tagged ? 18 : 14) + 20 + 100;
                    NS_TEST_EXPECT_MSG_EQ(done, expectDone, "decremented unless TTL 1");
                    NS_TEST_EXPECT_MSG_EQ(frame->GetSize(), size, "size");
                    // Read it back: the header as a fresh one with TTL - 1 would be, checksum
                    // included (Ipv4Header recomputes it in full).
                    Ptr<Packet> p = frame->Copy();
                    p->RemoveAtStart(tagged ? 18 : 14);
                    Ipv4Header ip;
                    ip.EnableChecksum();
                    p->RemoveHeader(ip);
                    const uint8_t expected = ttl > 1 ? ttl - 1 : ttl;
                    NS_TEST_EXPECT_MSG_EQ(+ip.GetTtl(), +expected, "TTL");
                    NS_TEST_EXPECT_MSG_EQ(ip.IsChecksumOk(), true, "checksum valid");
                    NS_TEST_EXPECT_MSG_EQ(ip.GetEcn(), ecn, "ECN untouched");
                    NS_TEST_EXPECT_MSG_EQ(ip.GetIdentification(), 0x1234, "rest untouched");
                    NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 100, "payload untouched");
                }
            }
        }
        // The whole frame after the patch is byte for byte the frame built with TTL 63 (whose
        // checksum Ipv4Header computes in full).
        Ptr<Packet> a = TtlFrame(64, false, Ipv4Header::ECN_ECT0);
        Ptr<Packet> b = TtlFrame(63, false, Ipv4Header::ECN_ECT0);
        uint8_t bytes[64];
        uint32_t n = a->CopyData(bytes, sizeof(bytes));
        RoceSwitch::DecrementTtl(a, bytes, n);
        uint8_t got[34];
        uint8_t want[34];
        a->CopyData(got, 34);
        b->CopyData(want, 34);
        NS_TEST_EXPECT_MSG_EQ(std::equal(got, got + 34, want), true, "byte for byte as TTL 63");

        // DecrementTtl false: frames cross a switch with TTL 64.
        for (bool decrement : {true, false})
        {
            RoceTopologyHelper topo;
            topo.SetSwitchAttribute("DecrementTtl", BooleanValue(decrement));
            RoceFabric fabric = topo.BuildStar(2, DataRate("100Gbps"), MicroSeconds(1));
            FrameRecorder rec(fabric.GetHostDevice(1));
            AddConstantRateSource(fabric, 0, 1, DataRate("10Gbps"), 3, 100, 0xC000);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.frames.size(), 3, "three frames");
            Ptr<Packet> p = rec.frames[0]->Copy();
            p->RemoveAtStart(14);
            Ipv4Header ip;
            ip.EnableChecksum();
            p->RemoveHeader(ip);
            NS_TEST_EXPECT_MSG_EQ(+ip.GetTtl(), (decrement ? 63 : 64), "TTL after one switch");
            NS_TEST_EXPECT_MSG_EQ(ip.IsChecksumOk(), true, "checksum valid");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * An egress stage that keeps the IPv4 TTL of every frame it is handed; it does not accept
 * deferred TTL decrements (EgressStage::AcceptsDeferredTtl), so the switch pays them first.
 */
class TtlRecordingStage : public EgressStage
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("llmfabric::tests::TtlRecordingStage")
                                .SetParent<EgressStage>()
                                .SetGroupName("LlmFabric")
                                .AddConstructor<TtlRecordingStage>();
        return tid;
    }

    void Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state) override
    {
        uint8_t bytes[23];
        if (frame->CopyData(bytes, sizeof(bytes)) == sizeof(bytes))
        {
            ttls.push_back(bytes[14 + 8]); // untagged: IPv4 at 14, its TTL at offset 8
        }
    }

    std::vector<uint32_t> ttls; //!< the TTLs seen, in order
};

/**
 * @param frames where to keep it.
 * @param frame a frame or packet a trace passed.
 */
void
KeepFrame(std::vector<Ptr<Packet>>* frames, Ptr<const Packet> frame)
{
    frames->push_back(frame->Copy());
}

/**
 * @param packet a packet starting with an IPv4 header.
 * @return that header (its checksum verified: Ipv4Header::IsChecksumOk).
 */
Ipv4Header
ReadIpv4(Ptr<const Packet> packet)
{
    Ipv4Header ip;
    ip.EnableChecksum();
    packet->Copy()->RemoveHeader(ip);
    return ip;
}

/**
 * @param header an IPv4 header.
 * @return its 20 bytes as Ipv4Header writes them, checksum computed in full (RFC 1071).
 */
std::vector<uint8_t>
Ipv4Bytes(Ipv4Header header)
{
    header.EnableChecksum();
    Ptr<Packet> p = Create<Packet>();
    p->AddHeader(header);
    std::vector<uint8_t> bytes(20);
    p->CopyData(bytes.data(), 20);
    return bytes;
}

/**
 * @ingroup llm-fabric-tests
 * Deferred TTL decrements (RoceNetDevice::Enqueue): switches hand the decrement on with the
 * frame and it is paid before anything sees the frame. Whatever watches, a frame crossing
 * leaf, spine and leaf reaches the host with TTL 64 - 3 = 61 and, byte for byte, the IPv4
 * header the sender wrote with TTL 61 and its checksum computed in full (RFC 1071), CE-marked
 * or not; on the spine's egress, sinks and stages that do not accept the debt see TTL 62
 * (leaf and spine); within a leaf, TTL 63. FramePrefixHeader::DecrementIpv4Ttl with k hops
 * gives the bytes of k single decrements and stops at TTL 1.
 */
class DeferredTtlTestCase : public TestCase
{
  public:
    DeferredTtlTestCase()
        : TestCase("Switch: deferred TTL decrements are paid before any sink, stage or host")
    {
    }

  private:
    void DoRun() override
    {
        for (uint8_t ttl : {64, 3, 2, 1})
        {
            for (uint32_t hops : {0, 1, 3})
            {
                Ptr<Packet> frame = TtlFrame(ttl, false, Ipv4Header::ECN_CE);
                uint32_t made = FramePrefixHeader::DecrementIpv4Ttl(frame, hops);
                // Each router leaves a TTL of 1 or 0 as it is.
                uint32_t expected = std::min<uint32_t>(hops, ttl > 1 ? ttl - 1U : 0U);
                NS_TEST_EXPECT_MSG_EQ(made, expected, "decrements made");
                Ptr<Packet> want =
                    TtlFrame(static_cast<uint8_t>(ttl - expected), false, Ipv4Header::ECN_CE);
                std::vector<uint8_t> a(frame->GetSize());
                std::vector<uint8_t> b(want->GetSize());
                frame->CopyData(a.data(), a.size());
                want->CopyData(b.data(), b.size());
                NS_TEST_EXPECT_MSG_EQ((a == b), true, "the frame built with the lower TTL");
            }
        }

        // Runs: 0, nothing watches the switches; 1, PhyTxBegin sinks on every spine port; 2, a
        // TtlRecordingStage on every spine; 3, every frame queued behind another CE-marked
        // (two senders at line rate into one host).
        for (int run = 0; run < 4; ++run)
        {
            RoceTopologyHelper topo;
            if (run == 3)
            {
                topo.SetMmuBufferAndEcn("12MB", "0B", "1B", 1.0, true);
            }
            RoceTopologyHelper::LeafSpineConfig config; // 2 leaves of 4 hosts, 2 spines
            RoceFabric fabric = topo.BuildLeafSpine(config);
            std::vector<Ptr<Packet>> sent;
            std::vector<Ptr<Packet>> far;
            std::vector<Ptr<Packet>> near;
            std::vector<Ptr<Packet>> atSpine;
            std::vector<Ptr<TtlRecordingStage>> stages;
            fabric.GetHostDevice(0)->TraceConnectWithoutContext(
                "PhyTxBegin",
                MakeBoundCallback(&KeepFrame, &sent));
            // MacRx: what the host's stack receives (the Ethernet header removed).
            fabric.GetHostDevice(4)->TraceConnectWithoutContext(
                "MacRx",
                MakeBoundCallback(&KeepFrame, &far));
            fabric.GetHostDevice(2)->TraceConnectWithoutContext(
                "MacRx",
                MakeBoundCallback(&KeepFrame, &near));
            for (uint32_t k = 0; k < fabric.GetNSwitches(); ++k)
            {
                if (fabric.GetSwitchName(k).rfind("spine", 0) != 0)
                {
                    continue;
                }
                Ptr<RoceSwitch> sw = fabric.GetSwitch(k);
                if (run == 1)
                {
                    for (uint32_t port = 0; port < sw->GetNPorts(); ++port)
                    {
                        sw->GetPort(port)->TraceConnectWithoutContext(
                            "PhyTxBegin",
                            MakeBoundCallback(&KeepFrame, &atSpine));
                    }
                }
                if (run == 2)
                {
                    stages.push_back(CreateObject<TtlRecordingStage>());
                    sw->AddEgressStage(stages.back());
                }
            }
            if (run == 3)
            {
                AddTwoToOneIncast(fabric, 4, 20);
            }
            else
            {
                AddConstantRateSource(fabric, 0, 4, DataRate("10Gbps"), 3, 100, 0xC000);
                AddConstantRateSource(fabric, 1, 2, DataRate("10Gbps"), 3, 100, 0xC001);
            }
            Simulator::Run();
            Simulator::Destroy();

            const size_t expectFar = run == 3 ? 40 : 3;
            NS_TEST_ASSERT_MSG_EQ(far.size(), expectFar, "run " << run << ": frames at host 4");
            uint32_t marked = 0;
            uint32_t matched = 0;
            for (size_t i = 0; i < far.size(); ++i)
            {
                Ipv4Header got = ReadIpv4(far[i]);
                NS_TEST_EXPECT_MSG_EQ(+got.GetTtl(), 61, "run " << run << ": three switches");
                NS_TEST_EXPECT_MSG_EQ(got.IsChecksumOk(), true, "run " << run << ": checksum");
                // The header host 0 sent, with TTL 61 (and CE where marked), checksum in full.
                for (const auto& frame : sent)
                {
                    Ptr<Packet> p = frame->Copy();
                    p->RemoveAtStart(14);
                    Ipv4Header original = ReadIpv4(p);
                    if (original.GetIdentification() != got.GetIdentification() ||
                        original.GetSource() != got.GetSource())
                    {
                        continue;
                    }
                    original.SetTtl(61);
                    original.SetEcn(got.GetEcn());
                    std::vector<uint8_t> bytes(20);
                    far[i]->CopyData(bytes.data(), 20);
                    NS_TEST_EXPECT_MSG_EQ((bytes == Ipv4Bytes(original)),
                                          true,
                                          "run " << run << ": the sender's header, TTL 61");
                    ++matched;
                }
                marked += got.GetEcn() == Ipv4Header::ECN_CE ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(matched,
                                  (run == 3 ? 20 : 3),
                                  "run " << run << ": host 0's frames found among those sent");
            if (run == 3)
            {
                NS_TEST_EXPECT_MSG_GT(marked, 0, "CE-marked frames among them");
                continue;
            }
            NS_TEST_ASSERT_MSG_EQ(near.size(), 3, "run " << run << ": frames at host 2");
            for (const auto& packet : near)
            {
                Ipv4Header got = ReadIpv4(packet);
                NS_TEST_EXPECT_MSG_EQ(+got.GetTtl(), 63, "run " << run << ": one switch");
                NS_TEST_EXPECT_MSG_EQ(got.IsChecksumOk(), true, "run " << run << ": checksum");
            }
            if (run == 1)
            {
                NS_TEST_ASSERT_MSG_EQ(atSpine.size(), 3, "the spine sent host 0's frames");
                for (const auto& frame : atSpine)
                {
                    Ptr<Packet> p = frame->Copy();
                    p->RemoveAtStart(14);
                    Ipv4Header got = ReadIpv4(p);
                    NS_TEST_EXPECT_MSG_EQ(+got.GetTtl(), 62, "a sink on the spine: leaf, spine");
                    NS_TEST_EXPECT_MSG_EQ(got.IsChecksumOk(), true, "checksum at the spine");
                }
            }
            if (run == 2)
            {
                std::vector<uint32_t> ttls;
                for (const auto& stage : stages)
                {
                    ttls.insert(ttls.end(), stage->ttls.begin(), stage->ttls.end());
                }
                NS_TEST_EXPECT_MSG_EQ((ttls == std::vector<uint32_t>{62, 62, 62}),
                                      true,
                                      "a stage that does not accept the debt: TTL 62");
            }
        }
    }
};

/// Samples the delays and targets Swift sees.
class SwiftProbe
{
  public:
    /**
     * A delay or target changed.
     * @param sum the sum to add to.
     * @param count the count to increment.
     * @param oldValue before.
     * @param newValue after.
     */
    static void Add(double* sum, uint64_t* count, Time oldValue, Time newValue)
    {
        if (Simulator::Now() >= MilliSeconds(START_MS))
        {
            *sum += newValue.GetSeconds() * 1e6;
            ++*count;
        }
    }

    static constexpr uint32_t START_MS = 2; //!< samples before this are the start-up
};

/**
 * @ingroup llm-fabric-tests
 * Four long Swift flows on one 100 Gb/s bottleneck: the measured delay settles near the target.
 */
class SwiftDelayTestCase : public TestCase
{
  public:
    SwiftDelayTestCase()
        : TestCase("Swift: four flows, the measured delay settles near the target")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceFabric fabric;
        auto ep = MakeCcStar(5, DataRate("100Gbps"), Swift::GetTypeId(), fabric);
        double delaySum = 0;
        uint64_t delays = 0;
        double targetSum = 0;
        uint64_t targets = 0;
        std::vector<Ptr<RdmaQueuePair>> qps;
        for (uint32_t s = 0; s < 4; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[4], 0xC000 + s);
            a->PostWrite(1000000000);
            Ptr<Swift> cc = DynamicCast<Swift>(a->GetCongestionControl());
            cc->TraceConnectWithoutContext("Delay",
                                           MakeBoundCallback(&SwiftProbe::Add, &delaySum, &delays));
            cc->TraceConnectWithoutContext(
                "TargetDelay",
                MakeBoundCallback(&SwiftProbe::Add, &targetSum, &targets));
            qps.push_back(a);
        }
        uint64_t startPackets = 0;
        ScheduleLambda(MilliSeconds(SwiftProbe::START_MS),
                       [&qps, &startPackets]() { startPackets = PacketsSent(qps); });
        Simulator::Stop(MilliSeconds(END_MS));
        Simulator::Run();
        uint64_t packets = PacketsSent(qps);
        Simulator::Destroy();
        Config::Reset();
        NS_TEST_ASSERT_MSG_GT(delays, 100, "delay samples");
        double delay = delaySum / static_cast<double>(delays);
        double target = targetSum / static_cast<double>(targets);
        // The target: 3 + 1 x 3 us + fs(cwnd). The window that holds the delay at the target
        // is the path's unloaded RTT (4 x 1 us + 2 x 86.56 ns data + 2 x 5.76 ns ACK
        // serialization = 4.18 us) plus the queue, over 4 flows: at most 6 + 4 = 10 us of 86.56
        // ns packets, 115.5 packets, 29 each: fs(29) = 0.11 us, so the target lies in [6, 6.5]
        // us.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(target, 6.0, "target: base + 1 hop");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(target, 6.5, "target: + fs of about 29 packets");
        // Swift's AIMD holds the delay around the target: between decreases the 4 flows add
        // Ai = 1 packet per RTT each, 4 x 86.56 ns = 0.35 us of queue per RTT before a decrease
        // takes effect (one RTT later), and an ACK's sample may include the receiver's wait for
        // it, at most one packet gap of a flow at its fair share (4 x 86.56 ns = 0.35 us). The
        // mean delay is within 0.35 + 0.35 = 0.7 us of the mean target.
        NS_TEST_EXPECT_MSG_EQ_TOL(delay, target, 0.7, "the delay settles near the target");
        // And the bottleneck stays busy: payload rate at least 95 % of 100 x 1000 / 1082 =
        // 92.42 Gb/s (the target leaves about 1.8 us, 21 packets, of standing queue).
        double gbps = static_cast<double>(packets - startPackets) * 1000 * 8 /
                      ((END_MS - SwiftProbe::START_MS) * 1e-3) / 1e9;
        NS_TEST_EXPECT_MSG_GT(gbps, 0.95 * 92.42, "busy bottleneck");
    }

    static constexpr uint32_t END_MS = 5; //!< end of the run
};

/**
 * @ingroup llm-fabric-tests
 * 32 Swift flows on one 10 Gb/s link: each window falls below one packet and the flows pace.
 */
class SwiftPacingTestCase : public TestCase
{
  public:
    SwiftPacingTestCase()
        : TestCase("Swift: 32 flows on 10 Gbps, windows below one packet, paced")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceFabric fabric;
        auto ep = MakeCcStar(FLOWS + 1, DataRate("10Gbps"), Swift::GetTypeId(), fabric);
        std::vector<Ptr<RdmaQueuePair>> qps;
        for (uint32_t s = 0; s < FLOWS; ++s)
        {
            auto [a, b] = RdmaEndpoint::Connect(ep[s], ep[FLOWS], 0xC000 + s);
            a->PostWrite(1000000000);
            qps.push_back(a);
        }
        std::vector<double> cwnd;
        std::vector<uint64_t> rate;
        uint64_t startPackets = 0;
        ScheduleLambda(MilliSeconds(START_MS),
                       [&qps, &startPackets]() { startPackets = PacketsSent(qps); });
        ScheduleLambda(MilliSeconds(END_MS), [&qps, &cwnd, &rate]() {
            for (const auto& qp : qps)
            {
                Ptr<Swift> cc = DynamicCast<Swift>(qp->GetCongestionControl());
                cwnd.push_back(cc->GetCwnd());
                rate.push_back(cc->GetRate().GetBitRate());
            }
        });
        Simulator::Stop(MilliSeconds(END_MS) + NanoSeconds(1));
        Simulator::Run();
        uint64_t packets = PacketsSent(qps);
        Simulator::Destroy();
        Config::Reset();
        // At 10 Gb/s a 1000-byte packet occupies 1082 bytes, 865.6 ns. Whatever each flow's
        // window, the delay they hold is near the target, at most 3 + 3 + FsRange 4 = 10 us:
        // all windows together are the packets in flight and queued over that time, at most
        // 10 us / 865.6 ns = 11.6 packets, 0.36 each for 32 flows (1 packet each would be 32
        // packets, a 27.7 us delay, far above any target). So every window is below one
        // packet, and each flow paces below the line rate.
        for (uint32_t s = 0; s < FLOWS; ++s)
        {
            NS_TEST_EXPECT_MSG_LT(cwnd[s], 1.0, "a window below one packet");
            NS_TEST_EXPECT_MSG_LT(rate[s], 10000000000ULL, "paced below the line rate");
        }
        // The link stays busy: at least 90 % of 10 x 1000 / 1082 = 9.242 Gb/s of payload.
        double gbps = static_cast<double>(packets - startPackets) * 1000 * 8 /
                      ((END_MS - START_MS) * 1e-3) / 1e9;
        NS_TEST_EXPECT_MSG_GT(gbps, 0.9 * 9.242, "busy link");
    }

    static constexpr uint32_t FLOWS = 32;   //!< flows
    static constexpr uint32_t START_MS = 5; //!< start of the measure
    static constexpr uint32_t END_MS = 15;  //!< end of the run
};

/**
 * @ingroup llm-fabric-tests
 * Swift.
 */
class SwiftTestSuite : public TestSuite
{
  public:
    SwiftTestSuite()
        : TestSuite("llm-fabric-swift", Type::SYSTEM)
    {
        AddTestCase(new SwiftRulesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new SwitchTtlTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new DeferredTtlTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new HostFramePathTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new SwiftHopsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new SwiftDelayTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new SwiftPacingTestCase, ns3::llmfabric::TEST_QUICK);
        // 16-to-1 incast (CcIncastTestCase). Swift states no marking: the program's defaults
        // stay. Without PFC, 16 initial windows of 50 packets (846 KB) exceed the 428,800-byte
        // lossy pool.
        AddTestCase(
            new CcIncastTestCase("Swift: 16-to-1 incast, with and without PFC; reruns identical",
                                 Swift::GetTypeId(),
                                 CcIncastMarking()),
            ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static SwiftTestSuite g_swiftTestSuite;

} // namespace tests
} // namespace llmfabric
