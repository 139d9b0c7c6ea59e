/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"
#include "ns3/ethernet-trailer.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/pfc-header.h"
#include "ns3/test.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of the IEEE 802.1Qbb PFC frame body. Every expected byte string is written by hand from
 * the layout in 802.1Qbb clause 36 / 802.3 Annex 31D, and every expected time or quanta count is
 * derived in a comment, never produced by the code under test.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// 26 reserved zero bytes that end every PFC body, in hexadecimal.
const std::string PAD_HEX = "0000000000000000000000000000000000000000000000000000";

/**
 * @param times (priority, quanta) pairs.
 * @return a PFC body pausing each of those priorities for its quanta.
 */
PfcHeader
Pausing(const std::vector<std::pair<uint8_t, uint16_t>>& times)
{
    PfcHeader pfc;
    for (const auto& [priority, quanta] : times)
    {
        pfc.SetPauseTime(priority, quanta);
    }
    return pfc;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The serialized body of a PFC frame pausing priority 3 for 0xFFFF quanta and priority 5 for
 * 0x0010 quanta, compared with the bytes written out by hand from 802.1Qbb clause 36.
 */
class PfcBodyBytesTestCase : public TestCase
{
  public:
    PfcBodyBytesTestCase()
        : TestCase("PFC body pausing priorities 3 and 5 matches the bytes written by hand")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc = Pausing({{3, 0xFFFF}, {5, 0x0010}});

        // opcode 0x0101; enable vector: reserved octet 00, then bits 3 and 5 = 0x28;
        // time[0] .. time[7]; 26 reserved zero bytes.
        const std::string expected = std::string("0101") + "0028" +
                                     "0000" // time[0]
                                     "0000" // time[1]
                                     "0000" // time[2]
                                     "ffff" // time[3]
                                     "0000" // time[4]
                                     "0010" // time[5]
                                     "0000" // time[6]
                                     "0000" // time[7]
                                     + PAD_HEX;
        NS_TEST_ASSERT_MSG_EQ(expected.size(), 92U, "the hand-written body is 46 bytes");
        NS_TEST_ASSERT_MSG_EQ(pfc.GetSerializedSize(), 46U, "a PFC body is 46 bytes");
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(HeaderBytes(pfc)), expected, "serialized PFC body");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(pfc.GetClassEnableVector()),
                              0x28U,
                              "enable vector of priorities 3 and 5");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A PFC frame built with ns-3's EthernetHeader is the 64-byte Ethernet minimum: 60 bytes before
 * the FCS, 64 with it, with the reserved destination address and the MAC Control EtherType.
 */
class PfcEthernetFrameTestCase : public TestCase
{
  public:
    PfcEthernetFrameTestCase()
        : TestCase("PFC frame in an Ethernet header is 60 bytes before the FCS and 64 with it")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc = Pausing({{0, 0x1234}});

        Ptr<Packet> frame = Create<Packet>();
        frame->AddHeader(pfc);
        EthernetHeader ethernet(false);
        ethernet.SetDestination(PfcHeader::GetPfcDestination());
        ethernet.SetSource(Mac48Address("02:00:00:00:00:01"));
        ethernet.SetLengthType(PfcHeader::ETHER_TYPE);
        frame->AddHeader(ethernet);
        NS_TEST_ASSERT_MSG_EQ(frame->GetSize(), 60U, "Ethernet header + PFC body");

        const std::string expected = std::string("0180c2000001")      // destination
                                     + "020000000001"                 // source
                                     + "8808"                         // MAC Control EtherType
                                     + "0101" + "0001" + "1234"       // opcode, vector, time[0]
                                     + "0000000000000000000000000000" // time[1] .. time[7]
                                     + PAD_HEX;
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(frame)), expected, "PFC frame bytes");

        EthernetTrailer fcs;
        fcs.EnableFcs(true);
        fcs.CalcFcs(frame);
        frame->AddTrailer(fcs);
        NS_TEST_ASSERT_MSG_EQ(frame->GetSize(), 64U, "PFC frame with FCS is the Ethernet minimum");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Serializing a PFC body and reading it back gives the same opcode, vector and times.
 */
class PfcRoundTripTestCase : public TestCase
{
  public:
    PfcRoundTripTestCase()
        : TestCase("PFC body survives serialization and deserialization")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader sent;
        sent.SetPauseTime(0, 1);
        sent.SetPauseTime(1, 0x8000);
        sent.SetResume(4);
        sent.SetPauseTime(7, 0xFFFF);
        sent.SetPauseTime(6, 0x0102);
        sent.ClearPriority(6);

        Ptr<Packet> packet = Create<Packet>();
        packet->AddHeader(sent);
        PfcHeader received;
        const uint32_t read = packet->RemoveHeader(received);
        NS_TEST_ASSERT_MSG_EQ(read, 46U, "bytes consumed");
        NS_TEST_ASSERT_MSG_EQ(packet->GetSize(), 0U, "the whole body is consumed");

        NS_TEST_ASSERT_MSG_EQ(received.IsValid(), true, "PFC opcode");
        NS_TEST_ASSERT_MSG_EQ(received.GetOpcode(), 0x0101, "PFC opcode value");
        // priorities 0, 1, 4 and 7: 0b1001'0011
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(received.GetClassEnableVector()),
                              0x93U,
                              "enable vector");
        const bool enabled[8] = {true, true, false, false, true, false, false, true};
        const uint16_t times[8] = {1, 0x8000, 0, 0, 0, 0, 0, 0xFFFF};
        for (uint8_t p = 0; p < 8; ++p)
        {
            NS_TEST_ASSERT_MSG_EQ(received.IsEnabled(p),
                                  enabled[p],
                                  "enable bit of priority " << static_cast<uint32_t>(p));
            NS_TEST_ASSERT_MSG_EQ(received.GetPauseTime(p),
                                  times[p],
                                  "time of priority " << static_cast<uint32_t>(p));
        }

        received.SetClassEnableVector(0x81);
        NS_TEST_ASSERT_MSG_EQ(received.IsEnabled(0), true, "vector 0x81 enables priority 0");
        NS_TEST_ASSERT_MSG_EQ(received.IsEnabled(1), false, "vector 0x81 clears priority 1");
        NS_TEST_ASSERT_MSG_EQ(received.IsEnabled(7), true, "vector 0x81 enables priority 7");
        NS_TEST_ASSERT_MSG_EQ(received.GetPauseTime(1), 0x8000, "the vector leaves times alone");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A resume frame sets the enable bit of the priority with a pause time of zero.
 */
class PfcResumeTestCase : public TestCase
{
  public:
    PfcResumeTestCase()
        : TestCase("PFC resume frame has the enable bit set and a zero time")
    {
    }

  private:
    void DoRun() override
    {
        PfcHeader pfc = Pausing({{2, 0x0500}});
        pfc.SetResume(2);
        NS_TEST_ASSERT_MSG_EQ(pfc.IsEnabled(2), true, "resume keeps priority 2 enabled");
        NS_TEST_ASSERT_MSG_EQ(pfc.GetPauseTime(2), 0, "resume means a zero time");

        // vector 0x04 (priority 2), all times zero
        const std::string expected =
            std::string("0101") + "0004" + "00000000000000000000000000000000" + PAD_HEX;
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(HeaderBytes(pfc)), expected, "resume frame bytes");

        Ptr<Packet> packet = PacketFromHex(expected);
        PfcHeader received;
        packet->RemoveHeader(received);
        NS_TEST_ASSERT_MSG_EQ(received.IsValid(), true, "a resume frame is PFC");
        NS_TEST_ASSERT_MSG_EQ(received.IsEnabled(2), true, "priority 2 enabled on receipt");
        NS_TEST_ASSERT_MSG_EQ(received.GetPauseTime(2), 0, "priority 2 resumes");
        NS_TEST_ASSERT_MSG_EQ(received.IsEnabled(3), false, "priority 3 not addressed");

        std::ostringstream printed;
        pfc.SetPauseTime(3, 0xFFFF);
        pfc.Print(printed);
        NS_TEST_ASSERT_MSG_EQ(printed.str(),
                              "opcode=0x0101 (PFC) enable=0x0c times=[0:- 1:- 2:0 3:65535 4:- "
                              "5:- 6:- 7:-]",
                              "printed form");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Pause quanta convert to exact times: a quantum is 512 bit times at the port speed.
 */
class PfcQuantaToTimeTestCase : public TestCase
{
  public:
    PfcQuantaToTimeTestCase()
        : TestCase("PFC quanta convert to exact pause times")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate100("100Gbps");
        const DataRate rate25("25Gbps");
        const DataRate rate3("3Gbps");

        // 1 quantum at 100 Gb/s = 512 bits / 1e11 b/s = 5.12e-9 s = 5120 ps.
        const Time oneAt100 = PfcHeader::QuantaToTime(1, rate100);
        // 65535 quanta at 100 Gb/s = 33553920 bits / 1e11 b/s = 335.5392 us = 335539200 ps.
        const Time maxAt100 = PfcHeader::QuantaToTime(0xFFFF, rate100);
        // 65535 quanta at 25 Gb/s = 33553920 bits / 2.5e10 b/s = 1342.1568 us
        // = 1342156800 ps.
        const Time maxAt25 = PfcHeader::QuantaToTime(0xFFFF, rate25);
        // 1 quantum at 3 Gb/s = 512 / 3e9 s = 170666.66... ps, which is rounded down.
        const Time oneAt3 = PfcHeader::QuantaToTime(1, rate3);

        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToTime(0, rate100).IsZero(), true, "0 quanta");
        if (Time::GetResolution() >= Time::PS)
        {
            // The simulator resolves picoseconds: the times are exact.
            NS_TEST_ASSERT_MSG_EQ(oneAt100.GetPicoSeconds(), 5120, "1 quantum at 100 Gb/s");
            NS_TEST_ASSERT_MSG_EQ(maxAt100.GetPicoSeconds(), 335539200, "65535 at 100 Gb/s");
            NS_TEST_ASSERT_MSG_EQ(maxAt25.GetPicoSeconds(), 1342156800, "65535 at 25 Gb/s");
            NS_TEST_ASSERT_MSG_EQ(oneAt3.GetPicoSeconds(), 170666, "1 quantum at 3 Gb/s");
        }
        else
        {
            // Default nanosecond resolution: the same values rounded down to a nanosecond.
            NS_TEST_ASSERT_MSG_EQ(Time::GetResolution(), Time::NS, "unexpected resolution");
            NS_TEST_ASSERT_MSG_EQ(oneAt100.GetNanoSeconds(), 5, "1 quantum at 100 Gb/s");
            NS_TEST_ASSERT_MSG_EQ(maxAt100.GetNanoSeconds(), 335539, "65535 at 100 Gb/s");
            NS_TEST_ASSERT_MSG_EQ(maxAt25.GetNanoSeconds(), 1342156, "65535 at 25 Gb/s");
            NS_TEST_ASSERT_MSG_EQ(oneAt3.GetNanoSeconds(), 170, "1 quantum at 3 Gb/s");
        }
        // 100 quanta at 100 Gb/s = 51200 bits / 1e11 b/s = 512 ns, exact at any resolution.
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToTime(100, rate100).GetNanoSeconds(),
                              512,
                              "100 quanta at 100 Gb/s");
        // 65535 quanta at 1 Mb/s = 33553920 bits / 1e6 b/s = 33.55392 s.
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QuantaToTime(0xFFFF, DataRate("1Mbps")).GetMicroSeconds(),
                              33553920,
                              "65535 quanta at 1 Mb/s");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Times convert to quanta rounding up, so that the pause lasts at least the time asked for,
 * and saturating at 0xFFFF.
 */
class PfcTimeToQuantaTestCase : public TestCase
{
  public:
    PfcTimeToQuantaTestCase()
        : TestCase("PFC pause times convert to quanta rounding up and saturating")
    {
    }

  private:
    void DoRun() override
    {
        const DataRate rate100("100Gbps");
        const DataRate rate25("25Gbps");

        // At 100 Gb/s a quantum lasts 5.12 ns.
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(Time(0), rate100), 0, "zero time");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(-5), rate100), 0, "negative");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(1), rate100), 1, "1 ns");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(5), rate100), 1, "5 ns");
        // 6 ns / 5.12 ns = 1.17 -> 2
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(6), rate100), 2, "6 ns");
        // 512 ns = 51200 bits = exactly 100 quanta: no rounding
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(512), rate100), 100, "512 ns");
        // 513 ns = 51300 bits = 100.19 quanta -> 101
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(513), rate100), 101, "513 ns");
        // 1 us = 100000 bits = 195.3125 quanta -> 196
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), rate100), 196, "1 us");
        // 335 us = 33500000 bits = 65429.6875 quanta -> 65430
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(335), rate100), 65430, "335 us");
        // 336 us = 33600000 bits = 65625 quanta -> saturates
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(336), rate100),
                              0xFFFF,
                              "336 us saturates");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(Seconds(1), rate100), 0xFFFF, "1 s");
        // 9100 s is measured in picoseconds (femtoseconds would overflow an int64_t)
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(Seconds(9100), rate100), 0xFFFF, "9100 s");
        // 9100 s at 1 kb/s = 9100000 bits = 17773.4375 quanta -> 17774
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(Seconds(9100), DataRate("1kbps")),
                              17774,
                              "9100 s at 1 kb/s");
        // 1 us at 25 Gb/s = 25000 bits = 48.83 quanta -> 49
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), rate25), 49, "1 us, 25G");
        // 1342156 ns at 25 Gb/s = 33553900 bits = 65534.96 quanta -> 65535
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(NanoSeconds(1342156), rate25),
                              0xFFFF,
                              "just under the maximum at 25 Gb/s");
        // 1342 us at 25 Gb/s = 33550000 bits = 65527.34 quanta -> 65528
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1342), rate25),
                              65528,
                              "1342 us at 25 Gb/s");
        if (Time::GetResolution() >= Time::PS)
        {
            // 5120 ps is exactly one quantum at 100 Gb/s; one picosecond more needs two.
            NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5120), rate100),
                                  1,
                                  "5120 ps");
            NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(PicoSeconds(5121), rate100),
                                  2,
                                  "5121 ps");
        }
        // 1 us at 512000001 b/s = 512.000001 bits, a fraction of a bit over one quantum -> 2
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), DataRate("512000001bps")),
                              2,
                              "a fraction of a bit over one quantum");
        // 1 us at 512 Mb/s = 512 bits, exactly one quantum
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::TimeToQuanta(MicroSeconds(1), DataRate("512Mbps")),
                              1,
                              "exactly one quantum at 512 Mb/s");
        // A converted pause converts back to the same number of quanta.
        NS_TEST_ASSERT_MSG_EQ(
            PfcHeader::TimeToQuanta(PfcHeader::QuantaToTime(1000, rate100), rate100),
            1000,
            "round trip of 1000 quanta");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A MAC Control frame with another opcode (802.3x PAUSE, 0x0001) is read but reported as not
 * PFC; a buffer too short for a body is not read.
 */
class PfcOtherOpcodeTestCase : public TestCase
{
  public:
    PfcOtherOpcodeTestCase()
        : TestCase("MAC Control frame with the 802.3x PAUSE opcode is not PFC")
    {
    }

  private:
    void DoRun() override
    {
        // 802.3x PAUSE: opcode 0x0001, pause_time 0xffff, 42 reserved zero bytes.
        Ptr<Packet> pause = PacketFromHex("0001ffff" + std::string(84, '0'));
        NS_TEST_ASSERT_MSG_EQ(pause->GetSize(), 46U, "hand-written PAUSE body");
        PfcHeader header;
        const uint32_t read = pause->RemoveHeader(header);
        NS_TEST_ASSERT_MSG_EQ(read, 46U, "a MAC Control body is read whole");
        NS_TEST_ASSERT_MSG_EQ(header.IsValid(), false, "802.3x PAUSE is not PFC");
        NS_TEST_ASSERT_MSG_EQ(header.GetOpcode(), 0x0001, "opcode as received");

        // The same bytes with the PFC opcode are valid.
        Ptr<Packet> pfc = PacketFromHex("0101" + std::string("00ff") + std::string(84, '0'));
        PfcHeader valid;
        pfc->RemoveHeader(valid);
        NS_TEST_ASSERT_MSG_EQ(valid.IsValid(), true, "PFC opcode");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(valid.GetClassEnableVector()),
                              0xFFU,
                              "all priorities enabled");

        // Too short for a body: nothing is read and the header is not valid.
        Ptr<Packet> runt = PacketFromHex("01010028ffff");
        PfcHeader shortHeader;
        const uint32_t readShort = runt->RemoveHeader(shortHeader);
        NS_TEST_ASSERT_MSG_EQ(readShort, 0U, "nothing read from a 6-byte buffer");
        NS_TEST_ASSERT_MSG_EQ(shortHeader.IsValid(), false, "a runt body is not PFC");
        NS_TEST_ASSERT_MSG_EQ(runt->GetSize(), 6U, "the runt is left alone");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The PfcHeader constants and the reserved destination address.
 */
class PfcConstantsTestCase : public TestCase
{
  public:
    PfcConstantsTestCase()
        : TestCase("PFC constants and destination address have their 802.1Qbb values")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::OPCODE, 0x0101, "opcode");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::ETHER_TYPE, 0x8808, "EtherType");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::BODY_SIZE, 46U, "body size");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::QUANTUM_BITS, 512U, "quantum");
        NS_TEST_ASSERT_MSG_EQ(PfcHeader::GetPfcDestination(),
                              Mac48Address("01:80:c2:00:00:01"),
                              "destination");
        PfcHeader fresh;
        NS_TEST_ASSERT_MSG_EQ(fresh.IsValid(), true, "a new header is PFC");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(fresh.GetClassEnableVector()),
                              0U,
                              "a new header enables nothing");
        NS_TEST_ASSERT_MSG_EQ(fresh.GetInstanceTypeId().GetName(), "ns3::PfcHeader", "TypeId name");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The PfcHeader test suite.
 */
class PfcHeaderTestSuite : public TestSuite
{
  public:
    PfcHeaderTestSuite()
        : TestSuite("llm-fabric-pfc-header", Type::UNIT)
    {
        AddTestCase(new PfcBodyBytesTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcEthernetFrameTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcRoundTripTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcResumeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcQuantaToTimeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcTimeToQuantaTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcOtherOpcodeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PfcConstantsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The static instance that registers the suite.
static PfcHeaderTestSuite g_pfcHeaderTestSuite;

} // namespace tests
} // namespace llmfabric
