/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "cc-test-util.h"
#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/ib-bth-header.h"
#include "ns3/int-stamper.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/pfc-header.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-int-header.h"
#include "ns3/roce-switch.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * @brief A congestion control that exists only in this test: line rate, asks for telemetry, and
 * keeps every acknowledgement with a copy of the records it echoes.
 */
class RdmaCcTelemetryRecorder : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::RdmaCcTelemetryRecorder")
                                .SetParent<RdmaCongestionOps>()
                                .SetGroupName("LlmFabric")
                                .AddConstructor<RdmaCcTelemetryRecorder>();
        return tid;
    }

    /// @return "TelemetryRecorder".
    std::string GetName() const override
    {
        return "TelemetryRecorder";
    }

    /// @return true.
    bool NeedsTelemetry() const override
    {
        return true;
    }

    /**
     * Keep the acknowledgement and its records.
     * @param info what it tells.
     */
    void OnAck(const RdmaAckInfo& info) override
    {
        acks.push_back(info);
        hops.emplace_back(info.telemetry, info.telemetry + info.telemetryHops);
    }

    std::vector<RdmaAckInfo> acks;               //!< every OnAck
    std::vector<std::vector<IntHopRecord>> hops; //!< the records of each, copied
};

NS_OBJECT_ENSURE_REGISTERED(RdmaCcTelemetryRecorder);

namespace
{

/// Bytes before the IPv4 header of an untagged frame.
constexpr uint32_t ETH = 14;

/**
 * A RoCEv2 RDMA WRITE Middle frame as a sender builds it, with 84 bytes of empty telemetry.
 * @param payload payload bytes (zeros).
 * @param fill set the BTH telemetry-fill bit.
 * @param echo set the BTH telemetry-echo bit.
 * @param udpPort UDP destination port (4791 for RoCEv2).
 * @return the frame, Ethernet header first.
 */
Ptr<Packet>
MakeTelemetryFrame(uint32_t payload, bool fill, bool echo, uint16_t udpPort = 4791)
{
    Ptr<Packet> p = Create<Packet>(payload);
    p->AddTrailer(RoceIntHeader());
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_MIDDLE);
    bth.SetDestQp(0x123);
    bth.SetPsn(7);
    bth.SetTelemetryFill(fill);
    bth.SetTelemetryEcho(echo);
    p->AddHeader(bth);
    RoceV2Packet::Addressing a;
    a.source = Ipv4Address("10.0.0.1");
    a.destination = Ipv4Address("10.0.0.2");
    RoceV2Packet::Encapsulate(p, a);
    if (udpPort != RoceV2Packet::UDP_PORT)
    {
        // Rewrite the destination port (bytes 22-23 of IPv4 + UDP); the ICRC does not matter.
        std::vector<uint8_t> b = PacketBytes(p);
        b[20 + 2] = static_cast<uint8_t>(udpPort >> 8);
        b[20 + 3] = static_cast<uint8_t>(udpPort & 0xFF);
        p = Create<Packet>(b.data(), b.size());
    }
    RoceV2Packet::AddEthernetHeader(p,
                                    Mac48Address("02:00:00:00:00:01"),
                                    Mac48Address("02:00:00:00:00:02"));
    return p;
}

/**
 * @param frame a RoCEv2 frame.
 * @param l2 bytes before its IPv4 header.
 * @return whether its ICRC matches its bytes.
 */
bool
IcrcValid(Ptr<const Packet> frame, uint32_t l2)
{
    Ptr<Packet> ip = frame->Copy();
    ip->RemoveAtStart(l2);
    return RoceIcrcTrailer::Verify(ip);
}

/**
 * The telemetry of a frame: its 84 bytes before the ICRC.
 * @param frame the frame.
 * @return the header.
 */
RoceIntHeader
TelemetryOf(Ptr<const Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    RoceIcrcTrailer icrc;
    copy->RemoveTrailer(icrc);
    RoceIntHeader telemetry;
    copy->RemoveTrailer(telemetry);
    return telemetry;
}

/**
 * Counts frames and the frames whose ICRC is valid (at a host's port: untagged frames).
 * @param counts [frames, valid].
 * @param frame a frame received.
 */
void
CheckIcrc(std::pair<uint32_t, uint32_t>* counts, Ptr<const Packet> frame)
{
    ++counts->first;
    counts->second += IcrcValid(frame, ETH) ? 1 : 0;
}

/**
 * @param text a text.
 * @return its lines.
 */
std::vector<std::string>
SplitLines(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

/**
 * Records the sizes of frames received.
 * @param sizes the sizes.
 * @param frame a frame received.
 */
void
RecordSize(std::vector<uint32_t>* sizes, Ptr<const Packet> frame)
{
    sizes->push_back(frame->GetSize());
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The INT header's wire layout: 84 bytes, nhop, flags, then 16-byte records of big-endian
 * fields, 48-bit counters kept modulo 2^48 and 16-bit units rounded and saturated.
 */
class RoceIntHeaderLayoutTestCase : public TestCase
{
  public:
    RoceIntHeaderLayoutTestCase()
        : TestCase("INT header: 84 bytes, nhop, 16-byte records, units and overflow")
    {
    }

  private:
    void DoRun() override
    {
        RoceIntHeader empty;
        NS_TEST_EXPECT_MSG_EQ(empty.GetSerializedSize(), 84, "4 + 5 x 16 bytes");
        NS_TEST_EXPECT_MSG_EQ(BytesToHex(TrailerBytes(empty)),
                              std::string(168, '0'),
                              "a sender reserves 84 zero bytes");
        RoceIntHeader h;
        // Record 0: ts 2^48 + 0x123456789a (kept modulo 2^48: 00 12 34 56 78 9a), rate
        // 400 Gb/s = 4000 units of 100 Mb/s (0f a0), txbytes 2^48 + 7 (00 00 00 00 00 07),
        // qlen 127 bytes = 1 unit of 64 bytes, rounded down (00 01).
        NS_TEST_EXPECT_MSG_EQ(
            h.AddHop((1ULL << 48) + 0x123456789aULL, (1ULL << 48) + 7, 127, 400000000000ULL),
            true,
            "a free record");
        // Record 1: ts 1, rate 150 Mb/s = 1.5 units, rounded half up to 2 (00 02), txbytes
        // 0xffffffffffff, qlen 10 MB saturated at 0xffff units.
        NS_TEST_EXPECT_MSG_EQ(h.AddHop(1, 0xffffffffffffULL, 10000000, 150000000), true, "free");
        std::string expected = "02000000"                         // nhop 2, no overflow
                               "00123456789a0fa0000000000007"     // record 0 ...
                               "0001"                             // ... its qlen
                               "0000000000010002ffffffffffffffff" // record 1
                               + std::string(3 * 32, '0');        // records 2-4 empty
        NS_TEST_EXPECT_MSG_EQ(BytesToHex(TrailerBytes(h)), expected, "the wire bytes");
        IntHopRecord r0 = h.GetHop(0);
        NS_TEST_EXPECT_MSG_EQ(r0.timeNs, 0x123456789aULL, "ts modulo 2^48");
        NS_TEST_EXPECT_MSG_EQ(r0.rateBps, 400000000000ULL, "rate");
        NS_TEST_EXPECT_MSG_EQ(r0.txBytes, 7, "txbytes modulo 2^48");
        NS_TEST_EXPECT_MSG_EQ(r0.qlenBytes, 64, "one unit of 64 bytes");
        IntHopRecord r1 = h.GetHop(1);
        NS_TEST_EXPECT_MSG_EQ(r1.rateBps, 200000000ULL, "2 units of 100 Mb/s");
        NS_TEST_EXPECT_MSG_EQ(r1.qlenBytes, 0xffffULL * 64, "saturated: 4,194,240 bytes");

        // Read back from a packet: the header is the packet's last 84 bytes.
        Ptr<Packet> p = Create<Packet>(100);
        p->AddTrailer(h);
        RoceIntHeader back;
        p->RemoveTrailer(back);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 100, "84 bytes removed");
        NS_TEST_EXPECT_MSG_EQ(BytesToHex(TrailerBytes(back)), expected, "round trip");

        // Three more fill the five records; a sixth sets the overflow flag (byte 1 bit 0).
        for (uint32_t i = 2; i < 5; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(h.AddHop(i, i, 0, 100000000000ULL), true, "record " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(h.GetOverflow(), false, "five records fit");
        NS_TEST_EXPECT_MSG_EQ(h.AddHop(9, 9, 0, 100000000000ULL), false, "no sixth record");
        NS_TEST_EXPECT_MSG_EQ(h.GetHopCount(), 5, "nhop stays 5");
        NS_TEST_EXPECT_MSG_EQ(h.GetOverflow(), true, "overflow");
        NS_TEST_EXPECT_MSG_EQ(BytesToHex(TrailerBytes(h)).substr(0, 8), "05010000", "05 01");
        IntHopRecord all[RoceIntHeader::MAX_HOPS];
        NS_TEST_EXPECT_MSG_EQ(h.GetHops(all), 5, "five decoded");
        NS_TEST_EXPECT_MSG_EQ(all[4].timeNs, 4, "the fifth record's ts");

        // The BTH bits: byte 8 is A (0x80) | fill (0x40) | echo (0x20).
        IbBthHeader bth;
        bth.SetAckRequest(true);
        bth.SetTelemetryFill(true);
        NS_TEST_EXPECT_MSG_EQ(+HeaderBytes(bth)[8], 0xc0, "A and fill");
        bth.SetTelemetryFill(false);
        bth.SetTelemetryEcho(true);
        NS_TEST_EXPECT_MSG_EQ(+HeaderBytes(bth)[8], 0xa0, "A and echo");
        IbBthHeader read;
        Ptr<Packet> q = Create<Packet>();
        q->AddHeader(bth);
        q->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(read.GetTelemetryEcho(), true, "echo read back");
        NS_TEST_EXPECT_MSG_EQ(read.GetTelemetryFill(), false, "fill read back");
    }
};

/**
 * @ingroup llm-fabric-tests
 * RoceIcrcTrailer::Patch gives the ICRC that a full computation gives after bytes changed,
 * wherever they are after the BTH and however many bytes follow them.
 */
class IcrcPatchTestCase : public TestCase
{
  public:
    IcrcPatchTestCase()
        : TestCase("ICRC patch after a change equals the ICRC computed again")
    {
    }

  private:
    void DoRun() override
    {
        // IPv4 20 + UDP 8 + BTH 12 = 40 header bytes, then 1000 bytes of a non-zero pattern.
        std::vector<uint8_t> payload(1000);
        for (size_t i = 0; i < payload.size(); ++i)
        {
            payload[i] = static_cast<uint8_t>(i * 37 + 11);
        }
        Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_MIDDLE);
        p->AddHeader(bth);
        RoceV2Packet::Addressing a;
        RoceV2Packet::Encapsulate(p, a);
        p->RemoveAtEnd(RoceIcrcTrailer::ICRC_SIZE);
        std::vector<uint8_t> bytes = PacketBytes(p);
        const uint32_t icrc = RoceIcrcTrailer::Compute(bytes.data(), bytes.size());
        // (offset, length): at the start of the payload, in the middle with a long tail after
        // it, the last 84 bytes (as a switch changes the telemetry: nothing after them), one byte.
        for (auto [offset, length] :
             std::vector<std::pair<uint32_t, uint32_t>>{{40, 16}, {300, 200}, {956, 84}, {1039, 1}})
        {
            std::vector<uint8_t> changed = bytes;
            for (uint32_t k = 0; k < length; ++k)
            {
                changed[offset + k] = static_cast<uint8_t>(changed[offset + k] * 7 + k + 1);
            }
            uint32_t after = static_cast<uint32_t>(bytes.size()) - offset - length;
            uint32_t patched = RoceIcrcTrailer::Patch(icrc,
                                                      bytes.data() + offset,
                                                      changed.data() + offset,
                                                      length,
                                                      after);
            NS_TEST_EXPECT_MSG_EQ(patched,
                                  RoceIcrcTrailer::Compute(changed.data(), changed.size()),
                                  "offset " << offset << ", " << length << " bytes");
            NS_TEST_EXPECT_MSG_NE(patched, icrc, "the ICRC changed");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The IntStamper fills the next record of a frame that asks for it, keeps its size and every
 * other byte, keeps its ICRC valid, sets the overflow flag after five hops, and leaves every
 * other frame byte for byte as it was.
 */
class IntStamperTestCase : public TestCase
{
  public:
    IntStamperTestCase()
        : TestCase("IntStamper: one record per hop in place, ICRC kept valid, others untouched")
    {
    }

  private:
    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
        link.a->GetNode()->AggregateObject(sw);
        sw->AddPort(link.a);
        Ptr<IntStamper> stamper = CreateObject<IntStamper>();
        TypeId tid;
        NS_TEST_EXPECT_MSG_EQ(TypeIdAlias::Resolve(EgressStage::GetTypeId(), "int", tid), "", "");
        NS_TEST_EXPECT_MSG_EQ(tid, IntStamper::GetTypeId(), "alias int");

        // A 1000-byte data packet: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + 1000 + INT 84 +
        // ICRC 4 = 1142 bytes; the telemetry starts at byte 1142 - 4 - 84 = 1054.
        Ptr<Packet> frame = MakeTelemetryFrame(1000, true, false);
        NS_TEST_ASSERT_MSG_EQ(frame->GetSize(), 1142, "frame size");
        NS_TEST_EXPECT_MSG_EQ(IcrcValid(frame, ETH), true, "the sender's ICRC");
        NS_TEST_EXPECT_MSG_EQ(IntStamper::CarriesTelemetry(frame), true, "fill bit seen");
        const std::vector<uint8_t> before = PacketBytes(frame);
        EgressStage::QueueState state;
        state.port = 0;
        state.priority = 3;
        state.queueBytes = 6400; // 100 units of 64 bytes
        state.rate = DataRate("100Gbps");
        for (uint32_t hop = 0; hop < 6; ++hop)
        {
            state.now = NanoSeconds(1234 + hop);
            stamper->Dequeue(*sw, frame, state);
            NS_TEST_EXPECT_MSG_EQ(frame->GetSize(), 1142, "size kept, hop " << hop);
            NS_TEST_EXPECT_MSG_EQ(IcrcValid(frame, ETH), true, "ICRC valid, hop " << hop);
            std::vector<uint8_t> now = PacketBytes(frame);
            NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(now.begin(), now.begin() + 1054) ==
                                   std::vector<uint8_t>(before.begin(), before.begin() + 1054)),
                                  true,
                                  "the bytes before the telemetry are as sent, hop " << hop);
        }
        RoceIntHeader telemetry = TelemetryOf(frame);
        NS_TEST_EXPECT_MSG_EQ(telemetry.GetHopCount(), 5, "five records filled");
        NS_TEST_EXPECT_MSG_EQ(telemetry.GetOverflow(), true, "the sixth hop found none free");
        NS_TEST_EXPECT_MSG_EQ(stamper->GetStampedFrames(), 5, "stamped");
        NS_TEST_EXPECT_MSG_EQ(stamper->GetOverflowFrames(), 1, "overflow");
        // Record 0: ts 1234 = 0x4d2, rate 1000 units (03 e8), txbytes 0 (the port sent nothing
        // yet), qlen 100 units (00 64).
        std::string hex = BytesToHex(TrailerBytes(telemetry));
        NS_TEST_EXPECT_MSG_EQ(hex.substr(0, 8 + 32),
                              "0501000000000000"
                              "04d203e8"
                              "000000000000"
                              "0064",
                              "header and record 0");
        NS_TEST_EXPECT_MSG_EQ(telemetry.GetHop(4).timeNs, 1238, "record 4 from the 5th hop");

        // Frames that do not ask are left as they were, byte for byte: no fill bit, an echo
        // (an ACK carrying telemetry back), UDP to another port, a PFC frame, an 802.1Q-tagged
        // frame without the bit.
        std::vector<Ptr<Packet>> others{MakeTelemetryFrame(1000, false, false),
                                        MakeTelemetryFrame(16, false, true),
                                        MakeTelemetryFrame(1000, true, false, 4792)};
        PfcHeader pfc;
        pfc.SetPauseTime(3, 0xffff);
        Ptr<Packet> pause = Create<Packet>();
        pause->AddHeader(pfc);
        RoceV2Packet::AddEthernetHeader(pause,
                                        Mac48Address("02:00:00:00:00:01"),
                                        PfcHeader::GetPfcDestination(),
                                        PfcHeader::ETHER_TYPE);
        others.push_back(pause);
        for (const auto& other : others)
        {
            std::vector<uint8_t> was = PacketBytes(other);
            stamper->Dequeue(*sw, other, state);
            NS_TEST_EXPECT_MSG_EQ(BytesToHex(PacketBytes(other)), BytesToHex(was), "untouched");
        }
        NS_TEST_EXPECT_MSG_EQ(stamper->GetStampedFrames(), 5, "none of them stamped");

        // An 802.1Q tag (4 bytes after the MAC addresses) moves everything by 4: still found.
        std::vector<uint8_t> b = PacketBytes(MakeTelemetryFrame(1000, true, false));
        b.insert(b.begin() + 12, {0x81, 0x00, 0x60, 0x00});
        Ptr<Packet> tagged = Create<Packet>(b.data(), b.size());
        state.now = NanoSeconds(99);
        stamper->Dequeue(*sw, tagged, state);
        NS_TEST_EXPECT_MSG_EQ(TelemetryOf(tagged).GetHopCount(), 1, "tagged frame stamped");
        NS_TEST_EXPECT_MSG_EQ(IcrcValid(tagged, ETH + 4), true, "its ICRC valid");
        Simulator::Destroy();
    }
};

/**
 * @ingroup llm-fabric-tests
 * On a leaf-spine path of three switches, a congestion control that asks for telemetry gets it
 * in every ACK: three records with the values a single flow at line rate must produce, and every
 * frame arrives with a valid ICRC. RdmaHelper::Install gave the switches their stamper. Without
 * telemetry, frames are as before (no stamper, no extra byte).
 */
class IntEndToEndTestCase : public TestCase
{
  public:
    IntEndToEndTestCase()
        : TestCase("Telemetry over three switches: records in every ACK, valid ICRCs")
    {
    }

  private:
    void DoRun() override
    {
        RunWithTelemetry();
        RunWithout();
    }

    /**
     * Build host 0 - leaf0 - spine0 - leaf1 - host 1 (100 Gb/s, 1 us, MTU 1000).
     * @param topo the helper.
     * @param cc the congestion control's TypeId name.
     * @param fabric receives the fabric.
     * @return the endpoints.
     */
    static std::vector<Ptr<RdmaEndpoint>> Build(RoceTopologyHelper& topo,
                                                const std::string& cc,
                                                RoceFabric& fabric)
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper::LeafSpineConfig shape = LeafSpineShape(1, 2, 1);
        fabric = topo.BuildLeafSpine(shape);
        return InstallCc(fabric, TypeId::LookupByName(cc));
    }

    /// @return the IntStampers of a fabric's switches.
    static uint32_t CountStampers(const RoceFabric& fabric)
    {
        uint32_t n = 0;
        for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
        {
            for (const auto& stage : fabric.GetSwitch(s)->GetEgressStages())
            {
                n += DynamicCast<IntStamper>(stage) ? 1 : 0;
            }
        }
        return n;
    }

    /// The flow with telemetry.
    void RunWithTelemetry()
    {
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = Build(topo, "ns3::RdmaCcTelemetryRecorder", fabric);
        NS_TEST_ASSERT_MSG_EQ(fabric.GetNSwitches(), 3, "leaf0, leaf1, spine0");
        NS_TEST_EXPECT_MSG_EQ(CountStampers(fabric), 3, "Install added one stamper a switch");
        RdmaHelper::AddTelemetryStages(fabric, ep[0]);
        NS_TEST_EXPECT_MSG_EQ(CountStampers(fabric), 3, "not twice");
        auto [a, b] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        Ptr<RdmaCcTelemetryRecorder> cc =
            DynamicCast<RdmaCcTelemetryRecorder>(a->GetCongestionControl());
        std::pair<uint32_t, uint32_t> atReceiver{0, 0};
        std::pair<uint32_t, uint32_t> atSender{0, 0};
        fabric.GetHostDevice(1)->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeBoundCallback(&CheckIcrc, &atReceiver));
        fabric.GetHostDevice(0)->TraceConnectWithoutContext(
            "PhyRxEnd",
            MakeBoundCallback(&CheckIcrc, &atSender));
        a->PostWrite(40 * 1000);
        Simulator::Run();

        // 40 packets, an ACK every 16 and for the last: PSNs 15, 31 and 39.
        NS_TEST_ASSERT_MSG_EQ(cc->acks.size(), 3, "three ACKs");
        NS_TEST_EXPECT_MSG_EQ(atReceiver.first, 40, "40 data frames received");
        NS_TEST_EXPECT_MSG_EQ(atReceiver.second, 40, "each with a valid ICRC after 3 stamps");
        NS_TEST_EXPECT_MSG_EQ(atSender.first, 3, "3 ACKs received");
        NS_TEST_EXPECT_MSG_EQ(atSender.second, 3, "each with a valid ICRC");
        // Timing, from the wire formats: a data frame is 1142 bytes (1158 with the RETH of the
        // first); it reaches the next hop 8 + 1142 + 4 = 1154 bytes (92.32 ns at 100 Gb/s)
        // plus 1 us after it starts, and occupies its port 1154 + 12 = 1166 bytes, 93.28 ns
        // (1182 bytes, 94.56 ns, for the first). Store and forward: the first frame starts at a
        // switch when its last bit is in, at an event time in whole ns, x.6 rounded up by
        // 0.4 ns, and holds the port 94.56 ns; packet 1 arrives 93.28 ns after packet 0 did,
        // so it finds the port busy for 1.28 + 0.4 = 1.68 ns more, and so does every later
        // packet (they follow each other at 93.28 ns everywhere): each leaves a switch 1092.32
        // + 1.68 = 1094 ns after it left the one before, with no packet queued behind it (the
        // next is 91.6 ns away: qlen 0). A switch port towards the receiver carries this flow's
        // data only, so when packet p (p >= 1) leaves it, the port has sent packets 0..p-1:
        // 1182 + (p - 1) x 1166 wire bytes.
        for (size_t k = 0; k < cc->acks.size(); ++k)
        {
            const auto& hops = cc->hops[k];
            uint64_t psn = cc->acks[k].ackedPsn;
            NS_TEST_ASSERT_MSG_EQ(hops.size(), 3, "three records, ACK " << k);
            for (uint32_t i = 0; i < 3; ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(hops[i].rateBps, 100000000000ULL, "100 Gb/s, hop " << i);
                NS_TEST_EXPECT_MSG_EQ(hops[i].qlenBytes, 0, "no queue, hop " << i);
                NS_TEST_EXPECT_MSG_EQ(hops[i].txBytes,
                                      1182 + (psn - 1) * 1166,
                                      "wire bytes before packet " << psn << ", hop " << i);
                if (i > 0)
                {
                    double gap = static_cast<double>(hops[i].timeNs - hops[i - 1].timeNs);
                    NS_TEST_EXPECT_MSG_EQ_TOL(gap, 1094.0, 0.5, "hop to hop, " << i);
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(cc->acks[0].ackedPsn, 15, "the first ACK echoes packet 15");
        Simulator::Destroy();
        Config::Reset();
    }

    /// The same flow without telemetry.
    void RunWithout()
    {
        RoceTopologyHelper topo;
        RoceFabric fabric;
        auto ep = Build(topo, "ns3::RdmaCcNone", fabric);
        NS_TEST_EXPECT_MSG_EQ(CountStampers(fabric), 0, "no stamper without telemetry");
        auto [a, b] = RdmaEndpoint::Connect(ep[0], ep[1], 0xC000);
        std::vector<uint32_t> data;
        std::vector<uint32_t> acks;
        fabric.GetHostDevice(1)->TraceConnectWithoutContext("PhyRxEnd",
                                                            MakeBoundCallback(&RecordSize, &data));
        fabric.GetHostDevice(0)->TraceConnectWithoutContext("PhyRxEnd",
                                                            MakeBoundCallback(&RecordSize, &acks));
        a->PostWrite(40 * 1000);
        Simulator::Run();
        // 1142 - 84 = 1058 bytes of data (1074 with the RETH), ACKs of 62 bytes.
        NS_TEST_ASSERT_MSG_EQ(data.size(), 40, "40 data frames");
        NS_TEST_EXPECT_MSG_EQ(data[0], 1074, "first, with RETH, no telemetry");
        NS_TEST_EXPECT_MSG_EQ(data[1], 1058, "no telemetry");
        NS_TEST_ASSERT_MSG_EQ(acks.size(), 3, "3 ACKs");
        NS_TEST_EXPECT_MSG_EQ(acks[0], 62, "an ACK without echo");
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * The Lua dissector shipped in doc/wireshark decodes the telemetry of an HPCC run as the switch
 * wrote it and names CNPs; Wireshark's own dissectors find nothing malformed.
 */
class IntTsharkTestCase : public TestCase
{
  public:
    IntTsharkTestCase()
        : TestCase("tshark with llmfabric.lua: nhop, qlen of a 2-to-1 start, echoes, CNPs")
    {
    }

  private:
    void DoRun() override;
};

void
IntTsharkTestCase::DoRun()
{
    if (!HaveProgram("tshark"))
    {
        ReportSkip(GetName(), "tshark is not installed (apt-get install tshark)");
        return;
    }
    const std::string lua = std::string(LLM_FABRIC_SOURCE_DIR) + "/doc/wireshark/llmfabric.lua";
    // Two senders start one message each at time 0 (HPCC, 100 Gb/s, 1 us, MTU 1000); every
    // packet that leaves a queue of more than 1 KB behind it is marked CE (Kmin 1 KB, Kmax
    // 2 KB, Pmax 1), so the receiver sends CNPs.
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
    RoceTopologyHelper topo;
    NS_TEST_ASSERT_MSG_EQ(topo.SetMmuBufferAndEcn("12MB", "1KB", "2KB", 1.0, true), "", "MMU");
    RoceFabric fabric = topo.BuildStar(3, DataRate("100Gbps"), MicroSeconds(1));
    auto ep = InstallCc(fabric, TypeId::LookupByName("ns3::Hpcc"));
    std::vector<Ptr<RdmaQueuePair>> receivers;
    for (uint32_t s = 0; s < 2; ++s)
    {
        auto [qp, peer] = RdmaEndpoint::Connect(ep[s], ep[2], 0xC000 + s);
        qp->PostWrite(100 * 1000);
        receivers.push_back(peer);
    }
    std::string prefix = CreateTempDirFilename("int-pcap");
    topo.GetLinkHelper().EnablePcap(prefix, fabric.GetSwitch(0)->GetPort(2));
    Simulator::Run();
    uint64_t cnps = receivers[0]->GetCnpsSent() + receivers[1]->GetCnpsSent();
    Simulator::Destroy();
    Config::Reset();
    // Hosts are nodes 0-2, the switch node 3; its port 2 (device 2) faces the receiver.
    std::string pcap = prefix + "-3-2.pcap";
    int status = 0;
    std::string tshark = "tshark -X lua_script:'" + lua + "' -r '" + pcap + "' ";
    // Data frames: RDMA WRITE First, Middle and Last (opcodes 6, 7, 8).
    std::string out = RunCommand(tshark + "-Y 'infiniband.bth.opcode >= 6 && "
                                          "infiniband.bth.opcode <= 8' -T fields "
                                          "-e llmfabric_int.nhop -e llmfabric_int.qlen "
                                          "-e llmfabric_int.echo 2>/dev/null",
                                 status);
    NS_TEST_ASSERT_MSG_EQ(status, 0, "tshark runs the dissector");
    std::vector<std::string> rows = SplitLines(out);
    NS_TEST_ASSERT_MSG_EQ(rows.size(), 200, "2 x 100 data packets: " << out.substr(0, 300));
    // The first frames at the bottleneck, from the wire formats (see IntEndToEndTestCase):
    // each sender's packet 0 (1158 bytes with its RETH) reaches the switch at 1093.6 ns,
    // packet j >= 1 (1142 bytes) at 1186.88 + (j - 1) x 93.28 ns, two at a time. The port
    // sends frame m (sender 0 first) from 1094 ns (m = 0), 1188.56 (m = 1), then every 94.56 or
    // 93.28 ns: frame m (m >= 2) at 1283.12 + (m - 2) x 93.28 ns, 2.96 ns after both packets m
    // arrived and 90.3 ns before packets m + 1 do. So frame 0 leaves nothing behind it (the
    // other first packet is not yet in, in event order) and frame m >= 1 leaves m + 1 packets
    // of 1142 bytes: qlen = floor((m + 1) x 1142 / 64) x 64. No feedback reaches a sender
    // before its first ACK, about 6 us in: the first 20 frames follow this.
    for (uint32_t m = 0; m < 20; ++m)
    {
        uint64_t qlen = m == 0 ? 0 : (m + 1) * 1142 / 64 * 64;
        NS_TEST_EXPECT_MSG_EQ(rows[m], "1\t" + std::to_string(qlen) + "\t0", "frame " << m);
    }
    // Every ACK towards the senders echoes one hop (tshark prints booleans as 0 and 1).
    std::string acks = RunCommand(tshark + "-Y 'infiniband.bth.opcode == 17' -T fields "
                                           "-e llmfabric_int.nhop -e llmfabric_int.echo "
                                           "2>/dev/null | sort -u",
                                  status);
    NS_TEST_EXPECT_MSG_EQ(acks, "1\t1\n", "every ACK echoes one record");
    // The CNPs the receiver sent cross this port: each is named, by field and in Info.
    NS_TEST_EXPECT_MSG_GT(cnps, 0, "queues of more than 2 KB: every packet marked, CNPs");
    std::string named = RunCommand(tshark + "-Y llmfabric_cnp -T fields -e _ws.col.Info "
                                            "2>/dev/null",
                                   status);
    std::vector<std::string> cnpRows = SplitLines(named);
    NS_TEST_EXPECT_MSG_EQ(cnpRows.size(), cnps, "every CNP named");
    std::string info = cnpRows.empty() ? "" : cnpRows[0];
    NS_TEST_EXPECT_MSG_EQ(info.rfind("RoCEv2 CNP (congestion notification) to QP 0x", 0),
                          0,
                          "its Info: " << info);
    std::string plain =
        RunCommand("tshark -r '" + pcap + "' -Y 'infiniband.bth.opcode == 129' 2>/dev/null | wc -l",
                   status);
    NS_TEST_EXPECT_MSG_EQ(std::stoul(plain), cnps, "the same frames without the dissector");
    for (std::string with : {tshark, "tshark -r '" + pcap + "' "})
    {
        std::string bad = RunCommand(with + "-Y '_ws.malformed || _ws.expert' 2>/dev/null", status);
        NS_TEST_EXPECT_MSG_EQ(bad, "", "nothing malformed: " << with);
    }
}

/**
 * @ingroup llm-fabric-tests
 * In-band telemetry: its header, the switch stage, the transport's echo, the dissector.
 */
class RoceIntTestSuite : public TestSuite
{
  public:
    RoceIntTestSuite()
        : TestSuite("llm-fabric-int", Type::UNIT)
    {
        AddTestCase(new RoceIntHeaderLayoutTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IcrcPatchTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IntStamperTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IntEndToEndTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IntTsharkTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RoceIntTestSuite g_roceIntTestSuite;

} // namespace tests
} // namespace llmfabric
