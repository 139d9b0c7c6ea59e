/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-constant-rate-source.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-net-device.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// MAC address of the sending port in the tests that check bytes.
const Mac48Address MAC_A("02:00:00:00:00:01");
/// MAC address the source sends to.
const Mac48Address MAC_B("02:00:00:00:00:02");

/**
 * A source on the node of a port, sending from 10.0.0.1 to 10.0.0.2 toward MAC_B.
 * @param port the port (device 0 of its node).
 * @param rate the source's DataRate.
 * @param start start time.
 * @param stop stop time.
 * @return the application.
 */
Ptr<RoceConstantRateSource>
InstallSource(Ptr<RoceNetDevice> port, DataRate rate, Time start, Time stop)
{
    Ptr<RoceConstantRateSource> app = CreateObject<RoceConstantRateSource>();
    app->SetAttribute("Local", Ipv4AddressValue(Ipv4Address("10.0.0.1")));
    app->SetAttribute("Remote", Ipv4AddressValue(Ipv4Address("10.0.0.2")));
    app->SetAttribute("RemoteMac", Mac48AddressValue(MAC_B));
    app->SetAttribute("DataRate", DataRateValue(rate));
    port->GetNode()->AddApplication(app);
    app->SetStartTime(start);
    app->SetStopTime(stop);
    return app;
}

/// Records what arrives at a port and what a source hands to its port.
class Recorder
{
  public:
    /// @param frame a frame that has fully arrived (Ethernet header included).
    void RxEnd(Ptr<const Packet> frame)
    {
        rxTimes.push_back(Simulator::Now());
        // The receiving port strips the Ethernet header of this very packet afterwards.
        frames.push_back(frame->Copy());
    }

    /// @param packet a packet the source's port accepted.
    void Tx(Ptr<const Packet> packet)
    {
        ++txCount;
        uint32_t queued = sourcePort->GetQueueBytes(3);
        maxQueueBytes = std::max(maxQueueBytes, queued);
    }

    Ptr<RoceNetDevice> sourcePort;   //!< the source's port, whose queue Tx looks at
    std::vector<Time> rxTimes;       //!< arrival times
    std::vector<Ptr<Packet>> frames; //!< copies of the arrived frames
    uint64_t txCount{0};             //!< packets traced by the source
    uint32_t maxQueueBytes{0};       //!< largest priority-3 backlog right after a Send
};

/**
 * @param nanoseconds10ps a time in units of 10 ps.
 * @return it rounded to the nanosecond, half up, as the port and the source round.
 */
Time
RoundNs(uint64_t nanoseconds10ps)
{
    return NanoSeconds(static_cast<int64_t>((nanoseconds10ps + 50) / 100));
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * At 10 Gb/s on a 100 Gb/s link, packet k leaves at exactly k x 865.6 ns and arrives after its
 * serialization and the delay; MaxPackets and the stop time end the flow.
 */
class ConstantRateTimingTestCase : public TestCase
{
  public:
    ConstantRateTimingTestCase()
        : TestCase("Packet k leaves at exactly k x wire bits over DataRate; MaxPackets; stop")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(RoceConstantRateSource::GetFrameSize(1000),
                              1058,
                              "14 + 20 + 8 + 12 + 1000 + 4");
        // Frame 1058 B; on the wire with FCS, preamble and gap 1082 B = 8656 bits, every
        // 8656 / 10e9 s = 865.6 ns. The port (idle between packets) puts packet k on the wire
        // when it gets it, at k x 865.6 ns rounded to the nanosecond; its last bit leaves
        // (8 + 1058 + 4) x 0.08 = 85.6 ns later (86 ns rounded) and arrives 1 us after that.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1), MAC_A, MAC_B);
            Ptr<RoceConstantRateSource> app =
                InstallSource(link.a, DataRate("10Gbps"), Seconds(0), MilliSeconds(1));
            app->SetAttribute("MaxPackets", UintegerValue(1000));
            Recorder rec;
            link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, &rec));
            Simulator::Run();
            Simulator::Destroy();
            // Without the limit, 1156 packets would start before the 1 ms stop (1155 x 865.6
            // = 999768 ns).
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), 1000, "MaxPackets packets arrive");
            NS_TEST_ASSERT_MSG_EQ(app->GetSent(), 1000, "MaxPackets packets sent");
            NS_TEST_ASSERT_MSG_EQ(app->GetRefused(), 0, "none refused");
            NS_TEST_ASSERT_MSG_EQ(link.b->GetCounters(3).rxFrames, 1000, "DSCP 26: priority 3");
            NS_TEST_ASSERT_MSG_EQ(link.b->GetCounters(3).rxBytes, 1058000, "1058-byte frames");
            for (uint64_t k = 0; k < rec.rxTimes.size(); ++k)
            {
                Time expected = RoundNs(k * 86560) + NanoSeconds(86 + 1000);
                if (rec.rxTimes[k] != expected)
                {
                    // One report for the first packet off schedule, not one per packet.
                    NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[k],
                                          expected,
                                          "packet " << k << " leaves at k x 865.6 ns");
                    break;
                }
            }
            // The 1000th: 999 x 865.6 = 864734.4 ns -> 864734, + 86 + 1000 = 865820 ns.
            // Rounding the interval to 866 ns per packet would give 999 x 866 + 1086 = 866220.
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.back(), NanoSeconds(865820), "no rounding drift");
        }
        // No limit, start at 2 us, stop at 12 us: packets at 2000 + k x 865.6 < 12000 ns are
        // k = 0..11 (11 x 865.6 = 9521.6; the 12th would be at 10387.2): 12 packets.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1), MAC_A, MAC_B);
            Ptr<RoceConstantRateSource> app =
                InstallSource(link.a, DataRate("10Gbps"), MicroSeconds(2), MicroSeconds(12));
            Recorder rec;
            link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, &rec));
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(app->GetSent(), 12, "the stop cancels the next packet");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), 12, "12 packets arrive");
            // The first at 2000 + 86 + 1000; the last at 2000 + 9522 + 86 + 1000 = 12608 ns.
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.front(), NanoSeconds(3086), "first after start");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.back(), NanoSeconds(12608), "last");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * At the link's own rate the source saturates the link exactly: frames follow back to back at
 * 86.56 ns and the port never holds more than one.
 */
class ConstantRateSaturationTestCase : public TestCase
{
  public:
    ConstantRateSaturationTestCase()
        : TestCase("At the line rate the link is exactly saturated, one frame queued at most")
    {
    }

  private:
    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1), MAC_A, MAC_B);
        Ptr<RoceConstantRateSource> app =
            InstallSource(link.a, DataRate("100Gbps"), Seconds(0), MilliSeconds(1));
        app->SetAttribute("MaxPackets", UintegerValue(1000));
        Recorder rec;
        rec.sourcePort = link.a;
        link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, &rec));
        app->TraceConnectWithoutContext("Tx", MakeCallback(&Recorder::Tx, &rec));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), 1000, "every packet arrives");
        NS_TEST_ASSERT_MSG_EQ(rec.txCount, 1000, "Tx traces every accepted packet");
        NS_TEST_ASSERT_MSG_EQ(app->GetRefused(), 0, "none refused");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(rec.maxQueueBytes, 1058, "at most one frame waits");
        // 1082 B at 100 Gb/s = 86.56 ns: frame k starts at exactly k x 86.56 ns, so its last
        // bit arrives at k x 86.56 + 85.6 + 1000 ns, rounded once.
        for (uint64_t k = 0; k < rec.rxTimes.size(); ++k)
        {
            Time expected = RoundNs(k * 8656 + 8560) + MicroSeconds(1);
            if (rec.rxTimes[k] != expected)
            {
                NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[k], expected, "frame " << k << " back to back");
                break;
            }
        }
        // The 1000th: 999 x 86.56 + 85.6 = 86559.04 ns -> 87559 ns with the delay; 87 ns per
        // frame would give 999 x 87 + 86 + 1000 = 87999 ns.
        NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.back(), NanoSeconds(87559), "line rate kept exactly");
        NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).txFrames, 1000, "all on priority 3");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The frames on the wire, byte for byte: Ethernet to RemoteMac, IPv4 with DSCP 26 and ECT(0)
 * and an incrementing identification, UDP to 4791, BTH RDMA WRITE Middle with PSN = packet
 * index, zero payload, and an ICRC that verifies; Ect false gives Not-ECT.
 */
class ConstantRateFrameTestCase : public TestCase
{
  public:
    ConstantRateFrameTestCase()
        : TestCase("Frames: Ethernet, IPv4 TOS 0x6a or 0x68, UDP 4791, BTH, PSN, ICRC")
    {
    }

  private:
    void DoRun() override
    {
        for (bool ect : {true, false})
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1), MAC_A, MAC_B);
            Ptr<RoceConstantRateSource> app =
                InstallSource(link.a, DataRate("10Gbps"), Seconds(0), MilliSeconds(1));
            app->SetAttribute("PayloadSize", UintegerValue(16));
            app->SetAttribute("DestinationQp", UintegerValue(0x123456));
            app->SetAttribute("MaxPackets", UintegerValue(3));
            app->SetAttribute("Ect", BooleanValue(ect));
            Recorder rec;
            link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, &rec));
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.frames.size(), 3, "three frames");
            // IPv4: TOS = 26 << 2 | ECN (ECT(0) = 2, Not-ECT = 0), total length 20 + 8 + 12 +
            // 16 + 4 = 60 (0x3c), identification k, DF, TTL 64, UDP. The header checksum of
            // packet 0 with TOS 0x6a: words 456a 003c 0000 4000 4011 0a00 0001 0a00 0002 sum
            // to 0xd9ba, complement 0x2645; each identification step takes one off, and TOS
            // 0x68 adds two. UDP: c000 -> 12b7 (4791), length 40 (0x28), checksum 0. BTH:
            // opcode 07, flags 00, P_Key ffff, 00, QP 123456, A = 0, PSN k. The ICRC is CRC-32
            // of 8 x ff + the masked IPv4, UDP and BTH + payload (computed with zlib.crc32;
            // TOS is masked, so both ECN settings share it), sent least significant byte
            // first.
            const char* icrc[3] = {"d9b8aef5", "098036b8", "79c99e6e"};
            for (uint32_t k = 0; k < 3; ++k)
            {
                Ptr<Packet> frame = rec.frames[k];
                NS_TEST_ASSERT_MSG_EQ(frame->GetSize(),
                                      RoceConstantRateSource::GetFrameSize(16),
                                      "74-byte frame");
                char id[5];
                std::snprintf(id, sizeof(id), "%04x", k);
                char checksum[5];
                std::snprintf(checksum, sizeof(checksum), "%04x", 0x2645 - k + (ect ? 0 : 2));
                std::string expected = std::string("020000000002 020000000001 0800 ") +
                                       (ect ? "456a" : "4568") + " 003c " + id + " 4000 4011 " +
                                       checksum + " 0a000001 0a000002" + " c000 12b7 0028 0000" +
                                       " 07 00 ffff 00 123456 00 00" + id + std::string(32, '0') +
                                       icrc[k];
                NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(frame)),
                                      BytesToHex(HexToBytes(expected)),
                                      "frame " << k << " byte for byte");
                Ptr<Packet> ip = frame->Copy();
                EthernetHeader eth(false);
                ip->RemoveHeader(eth);
                NS_TEST_ASSERT_MSG_EQ(RoceIcrcTrailer::Verify(ip), true, "ICRC verifies");
            }
            NS_TEST_ASSERT_MSG_EQ(link.b->GetCounters(3).rxFrames, 3, "classified priority 3");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A source faster than its port fills the port's queue; the packets it refuses are counted,
 * with sent + refused = MaxPackets.
 */
class ConstantRateRefusedTestCase : public TestCase
{
  public:
    ConstantRateRefusedTestCase()
        : TestCase("Refused packets: lost and counted, or offered again (RetryRefused)")
    {
    }

  private:
    void DoRun() override
    {
        // 200 Gb/s into a 100 Gb/s port whose priority queue holds 3000 bytes (two frames of
        // 1058): the backlog grows by half a frame per packet until Send() refuses.
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1), MAC_A, MAC_B);
        link.a->SetAttribute("TxQueueLimit", QueueSizeValue(QueueSize("3000B")));
        Ptr<RoceConstantRateSource> app =
            InstallSource(link.a, DataRate("200Gbps"), Seconds(0), MilliSeconds(1));
        app->SetAttribute("MaxPackets", UintegerValue(100));
        app->SetAttribute("RetryRefused", BooleanValue(false));
        Recorder rec;
        link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, &rec));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_GT(app->GetRefused(), 0, "some refused");
        NS_TEST_ASSERT_MSG_EQ(app->GetSent() + app->GetRefused(), 100, "MaxPackets generated");
        NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), app->GetSent(), "the accepted ones arrive");
        // Frames start every 86.56 ns from 0 and the queue holds two more (a third would make
        // 3174 > 3000 bytes). When the last packet is offered, at 99 x 43.28 = 4284.72 ns,
        // frames 0 to 49 have started (49 x 86.56 = 4241.44) and two wait: 52 accepted. (When
        // the wire frees at the instant a packet is offered, the port's event came first.)
        NS_TEST_ASSERT_MSG_EQ(app->GetSent(), 52, "what the wire took plus two queued");

        // With RetryRefused (the default) a refused packet is offered again at the next slot:
        // all 100 are sent, in order, and the wire stays busy: frames back to back at 86.56 ns
        // from 0, so the 100th arrives at 99 x 86.56 + (8 + 1058 + 4) x 0.08 + 1000 =
        // 8569.44 + 85.6 + 1000 = 9655.04 ns -> 9655 ns.
        link = MakeLink(DataRate("100Gbps"), MicroSeconds(1), MAC_A, MAC_B);
        link.a->SetAttribute("TxQueueLimit", QueueSizeValue(QueueSize("3000B")));
        app = InstallSource(link.a, DataRate("200Gbps"), Seconds(0), MilliSeconds(1));
        app->SetAttribute("MaxPackets", UintegerValue(100));
        Recorder again;
        link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, &again));
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(app->GetSent(), 100, "every packet is sent in the end");
        NS_TEST_ASSERT_MSG_GT(app->GetRefused(), 0, "after some refusals");
        NS_TEST_ASSERT_MSG_EQ(again.rxTimes.size(), 100, "and arrives");
        NS_TEST_ASSERT_MSG_EQ(again.rxTimes.back(), NanoSeconds(9655), "at line rate");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The attribute checkers refuse out-of-range values.
 */
class ConstantRateAttributeTestCase : public TestCase
{
  public:
    ConstantRateAttributeTestCase()
        : TestCase("Attribute checkers: PayloadSize 1..4096, 24-bit QP, 6-bit DSCP")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<RoceConstantRateSource> app = CreateObject<RoceConstantRateSource>();
        NS_TEST_ASSERT_MSG_EQ(app->SetAttributeFailSafe("PayloadSize", UintegerValue(0)),
                              false,
                              "payload 0 refused");
        NS_TEST_ASSERT_MSG_EQ(app->SetAttributeFailSafe("PayloadSize", UintegerValue(5000)),
                              false,
                              "payload 5000 refused");
        NS_TEST_ASSERT_MSG_EQ(app->SetAttributeFailSafe("PayloadSize", UintegerValue(1)),
                              true,
                              "payload 1 accepted");
        NS_TEST_ASSERT_MSG_EQ(app->SetAttributeFailSafe("PayloadSize", UintegerValue(4096)),
                              true,
                              "payload 4096 accepted");
        NS_TEST_ASSERT_MSG_EQ(app->SetAttributeFailSafe("DestinationQp", UintegerValue(0x1000000)),
                              false,
                              "QP beyond 24 bits refused");
        NS_TEST_ASSERT_MSG_EQ(app->SetAttributeFailSafe("Dscp", UintegerValue(64)),
                              false,
                              "DSCP beyond 6 bits refused");
        UintegerValue payload;
        app->GetAttribute("PayloadSize", payload);
        NS_TEST_ASSERT_MSG_EQ(payload.Get(), 4096, "the last accepted value holds");
        app->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The constant-rate RoCEv2 source.
 */
class RoceConstantRateSourceTestSuite : public TestSuite
{
  public:
    RoceConstantRateSourceTestSuite()
        : TestSuite("llm-fabric-constant-rate-source", Type::UNIT)
    {
        AddTestCase(new ConstantRateTimingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ConstantRateSaturationTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ConstantRateFrameTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ConstantRateRefusedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new ConstantRateAttributeTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RoceConstantRateSourceTestSuite g_roceConstantRateSourceTestSuite;

} // namespace tests
} // namespace llmfabric
