/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/buffer.h"
#include "ns3/ib-aeth-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/packet.h"
#include "ns3/roce-cnp-header.h"
#include "ns3/test.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of the InfiniBand transport headers used by RoCEv2: BTH, RETH, AETH and the CNP body.
 * Every expected byte string below is written by hand from the field layout in the IBA
 * specification (volume 1, chapter 9) and the RoCEv2 annex, never produced by the code under test.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param header a header.
 * @return the bytes it serializes to, in lower-case hexadecimal.
 */
std::string
HeaderHex(const Header& header)
{
    return BytesToHex(HeaderBytes(header));
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The BTH serializes to bytes written by hand from the specification's layout, and parses them
 * back.
 */
class IbBthKnownAnswerTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbBthKnownAnswerTestCase()
        : TestCase("BTH serializes to hand-written bytes and parses them back")
    {
    }

  private:
    void DoRun() override
    {
        // Default header: opcode 0, TVer 0, P_Key 0xFFFF, all else zero.
        //   00 | 00 | ff ff | 00 | 00 00 00 | 00 | 00 00 00
        IbBthHeader defaults;
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(defaults),
                              "0000ffff0000000000000000",
                              "a default BTH should be all zero except P_Key 0xFFFF");
        NS_TEST_ASSERT_MSG_EQ(defaults.GetSerializedSize(), 12u, "a BTH should be 12 bytes");

        // RDMA WRITE Only, P_Key 0xFFFF, DestQP 0x11, AckReq, PSN 100:
        //   byte 0     0a        OpCode RC_RDMA_WRITE_ONLY
        //   byte 1     00        SE=0 M=0 PadCnt=0 TVer=0
        //   bytes 2-3  ff ff     P_Key
        //   byte 4     00        FECN=0 BECN=0
        //   bytes 5-7  00 00 11  DestQP
        //   byte 8     80        A=1 (bit 7)
        //   bytes 9-11 00 00 64  PSN = 100
        IbBthHeader write;
        write.SetOpcode(IbBthHeader::RC_RDMA_WRITE_ONLY);
        write.SetDestQp(0x11);
        write.SetAckRequest(true);
        write.SetPsn(100);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(write),
                              "0a00ffff0000001180000064",
                              "RDMA WRITE Only to QP 0x11, PSN 100 with AckReq should match the "
                              "hand-written BTH");

        // SEND Only with every flag of bytes 1 and 4 set:
        //   byte 0     04        OpCode RC_SEND_ONLY
        //   byte 1     f5        SE=1 (0x80) | M=1 (0x40) | PadCnt=3 (0x30) | TVer=5 (0x05)
        //   bytes 2-3  7f ff     P_Key 0x7FFF
        //   byte 4     c0        FECN=1 (0x80) | BECN=1 (0x40)
        //   bytes 5-7  00 01 02  DestQP 0x000102
        //   byte 8     00        A=0
        //   bytes 9-11 ff ff ff  PSN 0xFFFFFF (largest)
        IbBthHeader flags;
        flags.SetOpcode(IbBthHeader::RC_SEND_ONLY);
        flags.SetSolicitedEvent(true);
        flags.SetMigReq(true);
        flags.SetPadCount(3);
        flags.SetTransportVersion(5);
        flags.SetPartitionKey(0x7FFF);
        flags.SetFecn(true);
        flags.SetBecn(true);
        flags.SetDestQp(0x000102);
        flags.SetPsn(0xFFFFFF);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(flags),
                              "04f57fffc000010200ffffff",
                              "SE, M, PadCnt 3, TVer 5, FECN and BECN should land on the "
                              "hand-written bit positions");

        // Every field distinct:
        //   byte 0     0d        OpCode RC_RDMA_READ_RESPONSE_FIRST
        //   byte 1     a1        SE=1 (0x80) | M=0 | PadCnt=2 (0x20) | TVer=1 (0x01)
        //   bytes 2-3  80 01     P_Key 0x8001
        //   byte 4     80        FECN=1 BECN=0
        //   bytes 5-7  ab cd ef  DestQP 0xABCDEF
        //   byte 8     80        A=1
        //   bytes 9-11 12 34 56  PSN 0x123456
        IbBthHeader distinct;
        distinct.SetOpcode(IbBthHeader::RC_RDMA_READ_RESPONSE_FIRST);
        distinct.SetSolicitedEvent(true);
        distinct.SetPadCount(2);
        distinct.SetTransportVersion(1);
        distinct.SetPartitionKey(0x8001);
        distinct.SetFecn(true);
        distinct.SetDestQp(0xABCDEF);
        distinct.SetAckRequest(true);
        distinct.SetPsn(0x123456);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(distinct),
                              "0da1800180abcdef80123456",
                              "a BTH with distinct field values should match the hand-written "
                              "bytes");

        // Single bits, one at a time, in byte 1 and byte 4.
        IbBthHeader se;
        se.SetSolicitedEvent(true);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(se),
                              "0080ffff0000000000000000",
                              "SE should be bit 7 of byte 1");
        IbBthHeader mig;
        mig.SetMigReq(true);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(mig),
                              "0040ffff0000000000000000",
                              "M should be bit 6 of byte 1");
        IbBthHeader pad1;
        pad1.SetPadCount(1);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(pad1),
                              "0010ffff0000000000000000",
                              "PadCnt 1 should be bit 4 of byte 1");
        IbBthHeader tver;
        tver.SetTransportVersion(0xF);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(tver),
                              "000fffff0000000000000000",
                              "TVer should be bits 3-0 of byte 1");
        IbBthHeader becn;
        becn.SetBecn(true);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(becn),
                              "0000ffff4000000000000000",
                              "BECN should be bit 6 of byte 4");
        IbBthHeader fecn;
        fecn.SetFecn(true);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(fecn),
                              "0000ffff8000000000000000",
                              "FECN should be bit 7 of byte 4");

        // Parse the hand-written distinct-field bytes.
        Ptr<Packet> p = PacketFromHex("0da1800180abcdef80123456");
        IbBthHeader parsed;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(parsed),
                              12u,
                              "parsing a BTH should consume 12 bytes");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetOpcode()),
                              0x0Du,
                              "the parsed opcode should be 0x0d");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetSolicitedEvent(), true, "the parsed SE should be set");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetMigReq(), false, "the parsed M should be clear");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetPadCount()),
                              2u,
                              "the parsed PadCnt should be 2");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetTransportVersion()),
                              1u,
                              "the parsed TVer should be 1");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetPartitionKey(),
                              0x8001,
                              "the parsed P_Key should be 0x8001");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetFecn(), true, "the parsed FECN should be set");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetBecn(), false, "the parsed BECN should be clear");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetDestQp(),
                              0xABCDEFu,
                              "the parsed DestQP should be 0xABCDEF");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetAckRequest(), true, "the parsed A should be set");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetPsn(), 0x123456u, "the parsed PSN should be 0x123456");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 0u, "nothing should be left after the BTH");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A BTH with every field away from its default survives AddHeader and RemoveHeader.
 */
class IbBthRoundTripTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbBthRoundTripTestCase()
        : TestCase("BTH round-trips every field through a Packet")
    {
    }

  private:
    void DoRun() override
    {
        IbBthHeader sent;
        sent.SetOpcode(IbBthHeader::RC_RDMA_WRITE_FIRST);
        sent.SetSolicitedEvent(true);
        sent.SetMigReq(true);
        sent.SetPadCount(3);
        sent.SetTransportVersion(0xA);
        sent.SetPartitionKey(0x1234);
        sent.SetFecn(true);
        sent.SetBecn(true);
        sent.SetDestQp(0xFEDCBA);
        sent.SetAckRequest(true);
        sent.SetPsn(0xABCDEF);

        Ptr<Packet> p = Create<Packet>(100);
        p->AddHeader(sent);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 112u, "adding a BTH should grow the packet by 12");
        IbBthHeader got;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 12u, "RemoveHeader should return 12 for a BTH");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 100u, "removing the BTH should leave the payload");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetOpcode()),
                              0x06u,
                              "the opcode should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetSolicitedEvent(), true, "SE should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetMigReq(), true, "M should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetPadCount()),
                              3u,
                              "PadCnt should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetTransportVersion()),
                              0xAu,
                              "TVer should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetPartitionKey(), 0x1234, "P_Key should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetFecn(), true, "FECN should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetBecn(), true, "BECN should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetDestQp(), 0xFEDCBAu, "DestQP should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetAckRequest(), true, "A should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetPsn(), 0xABCDEFu, "the PSN should survive the round trip");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The BTH prints its fields in a readable form.
 */
class IbBthPrintTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbBthPrintTestCase()
        : TestCase("BTH prints opcode name, QP, PSN and flags")
    {
    }

  private:
    void DoRun() override
    {
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_ONLY);
        bth.SetDestQp(0x11);
        bth.SetAckRequest(true);
        bth.SetPsn(100);
        std::ostringstream os;
        os << std::dec;
        bth.Print(os);
        NS_TEST_ASSERT_MSG_EQ(os.str(),
                              "opcode=RC_RDMA_WRITE_ONLY(0x0a) pkey=0xffff destqp=0x000011 "
                              "psn=100 A=1 SE=0 M=0 padcnt=0 tver=0 FECN=0 BECN=0",
                              "the printed BTH should name the opcode and show every field");
        os << " " << 255;
        NS_TEST_ASSERT_MSG_EQ(os.str().substr(os.str().size() - 4),
                              " 255",
                              "printing a BTH should leave the stream in decimal mode");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The RETH serializes to bytes written by hand and round-trips through a Packet.
 */
class IbRethTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbRethTestCase()
        : TestCase("RETH serializes to hand-written bytes and round-trips")
    {
    }

  private:
    void DoRun() override
    {
        IbRethHeader defaults;
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(defaults),
                              "00000000000000000000000000000000",
                              "a default RETH should be 16 zero bytes");

        // VA 0x1000, R_Key 0x1234, DMA length 16:
        //   bytes 0-7   00 00 00 00 00 00 10 00
        //   bytes 8-11  00 00 12 34
        //   bytes 12-15 00 00 00 10
        IbRethHeader small;
        small.SetVirtualAddress(0x1000);
        small.SetRkey(0x1234);
        small.SetDmaLength(16);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(small),
                              "00000000000010000000123400000010",
                              "RETH VA 0x1000, R_Key 0x1234, length 16 should match hand bytes");

        // 64-bit VA with the high bits set, R_Key and length with their top bits set:
        //   bytes 0-7   fe dc ba 98 76 54 32 10
        //   bytes 8-11  89 ab cd ef
        //   bytes 12-15 80 00 00 01
        IbRethHeader big;
        big.SetVirtualAddress(0xFEDCBA9876543210ULL);
        big.SetRkey(0x89ABCDEF);
        big.SetDmaLength(0x80000001);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(big),
                              "fedcba987654321089abcdef80000001",
                              "a RETH with a high 64-bit VA should be big-endian on the wire");

        Ptr<Packet> p = Create<Packet>(8);
        p->AddHeader(big);
        IbRethHeader got;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 16u, "RemoveHeader should return 16 for RETH");
        NS_TEST_ASSERT_MSG_EQ(got.GetVirtualAddress(),
                              0xFEDCBA9876543210ULL,
                              "the 64-bit VA should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetRkey(), 0x89ABCDEFu, "R_Key should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetDmaLength(),
                              0x80000001u,
                              "the DMA length should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 8u, "removing the RETH should leave the payload");

        Ptr<Packet> q = PacketFromHex("00000000000010000000123400000010");
        IbRethHeader parsed;
        q->RemoveHeader(parsed);
        NS_TEST_ASSERT_MSG_EQ(parsed.GetVirtualAddress(),
                              0x1000u,
                              "the parsed VA should be 0x1000");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetRkey(), 0x1234u, "the parsed R_Key should be 0x1234");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetDmaLength(), 16u, "the parsed DMA length should be 16");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The AETH syndrome encodes ACK, NAK and RNR NAK as written by hand from table 43.
 */
class IbAethKnownAnswerTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbAethKnownAnswerTestCase()
        : TestCase("AETH syndromes for ACK, NAK and RNR NAK match hand-written bytes")
    {
    }

  private:
    void DoRun() override
    {
        // Default: ACK (type 00) with invalid credit 0x1F, MSN 0.
        IbAethHeader defaults;
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(defaults),
                              "1f000000",
                              "a default AETH should be an ACK with invalid credit");

        // ACK, invalid credit: 0 00 11111 = 0x1f; MSN 5 = 00 00 05.
        IbAethHeader ack;
        ack.SetAck();
        ack.SetMsn(5);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(ack), "1f000005", "ACK with invalid credit, MSN 5");

        // ACK, credit count 5: 0 00 00101 = 0x05; MSN 0xFFFFFF.
        IbAethHeader credit;
        credit.SetAck(5);
        credit.SetMsn(0xFFFFFF);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(credit), "05ffffff", "ACK with 5 credits, MSN 0xFFFFFF");

        // NAK, PSN sequence error: 0 11 00000 = 0x60; MSN 0x123456.
        IbAethHeader psnErr;
        psnErr.SetNak(IbAethHeader::NakCode::PSN_SEQUENCE_ERROR);
        psnErr.SetMsn(0x123456);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(psnErr),
                              "60123456",
                              "NAK PSN sequence error, MSN 0x123456");

        // NAK, remote access error: 0 11 00010 = 0x62; MSN 0xABCDEF.
        IbAethHeader accessErr;
        accessErr.SetNak(IbAethHeader::NakCode::REMOTE_ACCESS_ERROR);
        accessErr.SetMsn(0xABCDEF);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(accessErr),
                              "62abcdef",
                              "NAK remote access error, MSN 0xABCDEF");

        // NAK, invalid RD request: 0 11 00100 = 0x64; MSN 1.
        IbAethHeader rdErr;
        rdErr.SetNak(IbAethHeader::NakCode::INVALID_RD_REQUEST);
        rdErr.SetMsn(1);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(rdErr), "64000001", "NAK invalid RD request, MSN 1");

        // RNR NAK, timer 14: 0 01 01110 = 0x2e; MSN 0x010203.
        IbAethHeader rnr;
        rnr.SetRnrNak(14);
        rnr.SetMsn(0x010203);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(rnr), "2e010203", "RNR NAK with timer 14, MSN 0x010203");

        // Raw syndrome setter.
        IbAethHeader raw;
        raw.SetSyndrome(0x63);
        NS_TEST_ASSERT_MSG_EQ(raw.IsNak(), true, "syndrome 0x63 should be a NAK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(raw.GetNakCode()),
                              3u,
                              "syndrome 0x63 should be remote operational error (3)");

        // Parse hand-written bytes of each kind.
        IbAethHeader parsed;
        Ptr<Packet> p = PacketFromHex("1f000005");
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(parsed), 4u, "parsing an AETH should consume 4");
        NS_TEST_ASSERT_MSG_EQ(parsed.IsAck(), true, "0x1f should parse as an ACK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetCreditCount()),
                              0x1Fu,
                              "0x1f should carry invalid credit");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetMsn(), 5u, "the parsed MSN should be 5");

        p = PacketFromHex("60123456");
        p->RemoveHeader(parsed);
        NS_TEST_ASSERT_MSG_EQ(parsed.IsNak(), true, "0x60 should parse as a NAK");
        NS_TEST_ASSERT_MSG_EQ(parsed.IsAck(), false, "0x60 should not parse as an ACK");
        NS_TEST_ASSERT_MSG_EQ(parsed.IsRnrNak(), false, "0x60 should not parse as an RNR NAK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetNakCode()),
                              0u,
                              "0x60 should be a PSN sequence error");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetMsn(), 0x123456u, "the parsed MSN should be 0x123456");

        p = PacketFromHex("62abcdef");
        p->RemoveHeader(parsed);
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetNakCode()),
                              2u,
                              "0x62 should be a remote access error");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetMsn(), 0xABCDEFu, "the parsed MSN should be 0xABCDEF");

        p = PacketFromHex("2e010203");
        p->RemoveHeader(parsed);
        NS_TEST_ASSERT_MSG_EQ(parsed.IsRnrNak(), true, "0x2e should parse as an RNR NAK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetType()),
                              1u,
                              "an RNR NAK should have type 01");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(parsed.GetRnrTimer()),
                              14u,
                              "0x2e should carry RNR timer 14");
        NS_TEST_ASSERT_MSG_EQ(parsed.GetMsn(), 0x010203u, "the parsed MSN should be 0x010203");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Every kind of AETH survives AddHeader and RemoveHeader.
 */
class IbAethRoundTripTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbAethRoundTripTestCase()
        : TestCase("AETH round-trips ACK, NAK and RNR NAK through a Packet")
    {
    }

  private:
    void DoRun() override
    {
        IbAethHeader ack;
        ack.SetAck(7);
        ack.SetMsn(0xFEDCBA);
        IbAethHeader nak;
        nak.SetNak(IbAethHeader::NakCode::INVALID_REQUEST);
        nak.SetMsn(42);
        IbAethHeader rnr;
        rnr.SetRnrNak(31);
        rnr.SetMsn(0x800000);

        Ptr<Packet> p = Create<Packet>(4);
        p->AddHeader(rnr);
        p->AddHeader(nak);
        p->AddHeader(ack);
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 16u, "three AETHs and 4 bytes should be 16 bytes");

        IbAethHeader got;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 4u, "RemoveHeader should return 4 for AETH");
        NS_TEST_ASSERT_MSG_EQ(got.IsAck(), true, "the first AETH should come back as an ACK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetCreditCount()),
                              7u,
                              "the credit count should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetMsn(), 0xFEDCBAu, "the ACK's MSN should survive");

        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 4u, "RemoveHeader should return 4 for AETH");
        NS_TEST_ASSERT_MSG_EQ(got.IsNak(), true, "the second AETH should come back as a NAK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetNakCode()),
                              1u,
                              "the NAK code (invalid request) should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetMsn(), 42u, "the NAK's MSN should survive");

        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 4u, "RemoveHeader should return 4 for AETH");
        NS_TEST_ASSERT_MSG_EQ(got.IsRnrNak(), true, "the third AETH should be an RNR NAK");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetRnrTimer()),
                              31u,
                              "the RNR timer should survive the round trip");
        NS_TEST_ASSERT_MSG_EQ(got.GetMsn(), 0x800000u, "the RNR NAK's MSN should survive");
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 4u, "only the payload should be left");
    }
};

/**
 * @ingroup llm-fabric-tests
 * An AETH received with the reserved type 10 keeps its raw syndrome and does not crash.
 */
class IbAethReservedTypeTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbAethReservedTypeTestCase()
        : TestCase("AETH with the reserved type keeps its raw syndrome")
    {
    }

  private:
    void DoRun() override
    {
        // 0 10 01010 = 0x4a: reserved type, value 10; MSN 7.
        Ptr<Packet> p = PacketFromHex("4a000007");
        IbAethHeader got;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 4u, "a reserved-type AETH should still parse");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetSyndrome()),
                              0x4Au,
                              "the raw syndrome should be kept as received");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetType()),
                              2u,
                              "the type bits should read 10 (reserved)");
        NS_TEST_ASSERT_MSG_EQ(got.IsAck(), false, "a reserved type is not an ACK");
        NS_TEST_ASSERT_MSG_EQ(got.IsNak(), false, "a reserved type is not a NAK");
        NS_TEST_ASSERT_MSG_EQ(got.IsRnrNak(), false, "a reserved type is not an RNR NAK");
        NS_TEST_ASSERT_MSG_EQ(got.GetMsn(), 7u, "the MSN should still be read");
        std::ostringstream os;
        got.Print(os);
        NS_TEST_ASSERT_MSG_EQ(os.str(),
                              "syndrome=0x4a RESERVED msn=7",
                              "a reserved-type AETH should print without crashing");
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(got),
                              "4a000007",
                              "a reserved-type AETH should re-serialize unchanged");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A CNP is a BTH with opcode 0x81 and BECN, then 16 zero bytes.
 */
class RoceCnpTestCase : public TestCase
{
  public:
    /** Create the test case. */
    RoceCnpTestCase()
        : TestCase("CNP is BTH opcode 0x81 with BECN then 16 zero bytes")
    {
    }

  private:
    void DoRun() override
    {
        RoceCnpHeader cnp;
        NS_TEST_ASSERT_MSG_EQ(cnp.GetSerializedSize(), 16u, "the CNP body should be 16 bytes");
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(cnp),
                              "00000000000000000000000000000000",
                              "the CNP body should be 16 zero bytes");

        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::CNP);
        bth.SetBecn(true);
        bth.SetDestQp(0x000123);
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(cnp);
        p->AddHeader(bth);
        // BTH:   81 | 00 | ff ff | 40 (BECN) | 00 01 23 | 00 | 00 00 00
        // body:  16 x 00
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 28u, "a CNP without ICRC should be 12 + 16 bytes");
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(p)),
                              "8100ffff4000012300000000"
                              "00000000000000000000000000000000",
                              "the CNP bytes should match the hand-written BTH and zero body");

        // Receive a CNP whose reserved body is not zero: it is skipped all the same.
        Ptr<Packet> q = PacketFromHex("8100ffff4000012300000000"
                                      "0102030405060708090a0b0c0d0e0f10"
                                      "aabbccdd");
        IbBthHeader gotBth;
        RoceCnpHeader gotCnp;
        NS_TEST_ASSERT_MSG_EQ(q->RemoveHeader(gotBth), 12u, "the CNP's BTH should be 12 bytes");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(gotBth.GetOpcode()),
                              0x81u,
                              "the CNP opcode should be 0x81");
        NS_TEST_ASSERT_MSG_EQ(gotBth.GetBecn(), true, "a CNP should have BECN set");
        NS_TEST_ASSERT_MSG_EQ(gotBth.GetDestQp(), 0x123u, "the CNP DestQP should be 0x000123");
        NS_TEST_ASSERT_MSG_EQ(q->RemoveHeader(gotCnp), 16u, "the CNP body should consume 16");
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(q)),
                              "aabbccdd",
                              "only the 4 bytes after the CNP body should be left");
    }
};

/**
 * @ingroup llm-fabric-tests
 * HasReth and HasAeth give the right answer for every RC opcode and the CNP.
 */
class IbOpcodeExtensionTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbOpcodeExtensionTestCase()
        : TestCase("HasReth and HasAeth classify every RC opcode")
    {
    }

  private:
    void DoRun() override
    {
        /// One row of the expectation table.
        struct Row
        {
            uint8_t opcode;   ///< The opcode.
            const char* name; ///< Its expected name.
            bool reth;        ///< Whether a RETH follows the BTH.
            bool aeth;        ///< Whether an AETH follows the BTH.
        };

        // Which extension headers follow the BTH for each RC opcode (IBA vol 1, chapter 9).
        const std::vector<Row> rows = {
            {0x00, "RC_SEND_FIRST", false, false},
            {0x01, "RC_SEND_MIDDLE", false, false},
            {0x02, "RC_SEND_LAST", false, false},
            {0x03, "RC_SEND_LAST_IMM", false, false},
            {0x04, "RC_SEND_ONLY", false, false},
            {0x05, "RC_SEND_ONLY_IMM", false, false},
            {0x06, "RC_RDMA_WRITE_FIRST", true, false},
            {0x07, "RC_RDMA_WRITE_MIDDLE", false, false},
            {0x08, "RC_RDMA_WRITE_LAST", false, false},
            {0x09, "RC_RDMA_WRITE_LAST_IMM", false, false},
            {0x0A, "RC_RDMA_WRITE_ONLY", true, false},
            {0x0B, "RC_RDMA_WRITE_ONLY_IMM", true, false},
            {0x0C, "RC_RDMA_READ_REQUEST", true, false},
            {0x0D, "RC_RDMA_READ_RESPONSE_FIRST", false, true},
            {0x0E, "RC_RDMA_READ_RESPONSE_MIDDLE", false, false},
            {0x0F, "RC_RDMA_READ_RESPONSE_LAST", false, true},
            {0x10, "RC_RDMA_READ_RESPONSE_ONLY", false, true},
            {0x11, "RC_ACKNOWLEDGE", false, true},
            {0x81, "CNP", false, false},
        };
        for (const Row& row : rows)
        {
            NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasReth(row.opcode),
                                  row.reth,
                                  row.name << " should " << (row.reth ? "" : "not ")
                                           << "carry a RETH");
            NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasAeth(row.opcode),
                                  row.aeth,
                                  row.name << " should " << (row.aeth ? "" : "not ")
                                           << "carry an AETH");
            NS_TEST_ASSERT_MSG_EQ(IbBthHeader::OpcodeName(row.opcode),
                                  std::string(row.name),
                                  "opcode 0x" << std::hex << static_cast<uint32_t>(row.opcode)
                                              << std::dec << " should be named " << row.name);
        }

        // The named constants hold the values of the table.
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(IbBthHeader::RC_RDMA_WRITE_ONLY),
                              0x0Au,
                              "RC_RDMA_WRITE_ONLY should be 0x0a");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(IbBthHeader::RC_ACKNOWLEDGE),
                              0x11u,
                              "RC_ACKNOWLEDGE should be 0x11");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(IbBthHeader::CNP), 0x81u, "CNP should be 0x81");
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::ROCEV2_UDP_PORT, 4791, "RoCEv2 should use UDP 4791");
        // 0x18 is reserved in the RC opcode range: no extension header.
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasReth(0x18), false, "0x18 should carry no RETH");
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasAeth(0x18), false, "0x18 should carry no AETH");
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::OpcodeName(0x64),
                              std::string("UNKNOWN"),
                              "an opcode without a constant should be UNKNOWN");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Reserved BTH bits are written as zero and ignored when read, but for byte 8's bits 6-0, the
 * hop echo of llm-fabric's ACKs (zero unless set).
 */
class IbBthReservedBitsTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbBthReservedBitsTestCase()
        : TestCase("BTH writes reserved bits as zero and ignores them, but the hop echo")
    {
    }

  private:
    void DoRun() override
    {
        // Every defined field at its largest value:
        //   ff | ff (SE M PadCnt=3 TVer=15) | ff ff | c0 (FECN BECN, bits 5-0 reserved = 0)
        //   | ff ff ff | 80 (A; bits 6-5, telemetry, off; bits 4-0 reserved = 0) | ff ff ff
        IbBthHeader full;
        full.SetOpcode(0xFF);
        full.SetSolicitedEvent(true);
        full.SetMigReq(true);
        full.SetPadCount(3);
        full.SetTransportVersion(15);
        full.SetPartitionKey(0xFFFF);
        full.SetFecn(true);
        full.SetBecn(true);
        full.SetDestQp(0xFFFFFF);
        full.SetAckRequest(true);
        full.SetPsn(0xFFFFFF);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(full),
                              "ffffffffc0ffffff80ffffff",
                              "with every field at its maximum, only reserved bits should be 0");

        // Input: RDMA WRITE Only, BECN set and reserved bits 5-0 of byte 4 set (0x7f), A set and
        // bits 6-0 of byte 8 set (0xff: the telemetry fill and echo bits 6 and 5, llm-fabric's
        // extension, and reserved bits 4-0), DestQP 0x11, PSN 100.
        Ptr<Packet> p = PacketFromHex("0a00ffff7f000011ff000064");
        IbBthHeader got;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 12u, "a BTH with reserved bits should parse");
        NS_TEST_ASSERT_MSG_EQ(static_cast<uint32_t>(got.GetOpcode()),
                              0x0Au,
                              "the opcode should be read despite reserved bits");
        NS_TEST_ASSERT_MSG_EQ(got.GetFecn(), false, "reserved bits should not turn FECN on");
        NS_TEST_ASSERT_MSG_EQ(got.GetBecn(), true, "BECN should be read despite reserved bits");
        NS_TEST_ASSERT_MSG_EQ(got.GetDestQp(), 0x11u, "DestQP should not absorb reserved bits");
        NS_TEST_ASSERT_MSG_EQ(got.GetAckRequest(), true, "A should be read despite reserved bits");
        NS_TEST_ASSERT_MSG_EQ(got.GetPsn(), 100u, "the PSN should not absorb reserved bits");
        // Byte 8's seven reserved bits are llm-fabric's: bit 6 telemetry fill, bit 5 telemetry
        // echo, bits 4-0 the hop echo (0x1f = 31); all kept. Byte 4's reserved bits are cleared.
        NS_TEST_ASSERT_MSG_EQ(got.GetTelemetryFill(), true, "byte 8 bit 6: telemetry fill");
        NS_TEST_ASSERT_MSG_EQ(got.GetTelemetryEcho(), true, "byte 8 bit 5: telemetry echo");
        NS_TEST_ASSERT_MSG_EQ(+got.GetHopEcho(), 31, "byte 8 bits 4-0: the hop echo");
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(got),
                              "0a00ffff40000011ff000064",
                              "re-serializing should clear byte 4's reserved bits, keep the rest");

        // Reserved bits alone set no standard field (byte 4: 0x3f; byte 8: 0x1f, bits 4-0, the
        // hop echo 31).
        p = PacketFromHex("0000ffff3f0000001f000000");
        p->RemoveHeader(got);
        NS_TEST_ASSERT_MSG_EQ(got.GetFecn(), false, "byte 4 bits 5-0 should not set FECN");
        NS_TEST_ASSERT_MSG_EQ(got.GetBecn(), false, "byte 4 bits 5-0 should not set BECN");
        NS_TEST_ASSERT_MSG_EQ(got.GetAckRequest(), false, "byte 8 bits 4-0 should not set A");
        NS_TEST_ASSERT_MSG_EQ(got.GetTelemetryFill(), false, "nor the telemetry bits");
        NS_TEST_ASSERT_MSG_EQ(+got.GetHopEcho(), 31, "bits 4-0: the hop echo");
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(got),
                              "0000ffff000000001f000000",
                              "byte 4's reserved bits cleared, byte 8's hop echo kept");
        // The hop echo alone: 5 in bits 4-0 of byte 8, A untouched.
        IbBthHeader echo;
        echo.SetHopEcho(5);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(echo), "0000ffff0000000005000000", "hop echo 5");
        echo.SetAckRequest(true);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(echo), "0000ffff0000000085000000", "A and hop echo 5");
    }
};

/**
 * @ingroup llm-fabric-tests
 * An RDMA WRITE Only packet stacks BTH and RETH in wire order.
 */
class IbWritePacketTestCase : public TestCase
{
  public:
    /** Create the test case. */
    IbWritePacketTestCase()
        : TestCase("RDMA WRITE Only packet stacks BTH, RETH and payload in wire order")
    {
    }

  private:
    void DoRun() override
    {
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_ONLY);
        bth.SetDestQp(0x11);
        bth.SetAckRequest(true);
        bth.SetPsn(100);
        IbRethHeader reth;
        reth.SetVirtualAddress(0x1000);
        reth.SetRkey(0x1234);
        reth.SetDmaLength(4);
        const std::vector<uint8_t> payload = {0xde, 0xad, 0xbe, 0xef};
        Ptr<Packet> p = Create<Packet>(payload.data(), static_cast<uint32_t>(payload.size()));
        p->AddHeader(reth);
        p->AddHeader(bth);
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(p)),
                              "0a00ffff0000001180000064"
                              "00000000000010000000123400000004"
                              "deadbeef",
                              "BTH, RETH and payload should appear in that order");

        IbBthHeader gotBth;
        p->RemoveHeader(gotBth);
        NS_TEST_ASSERT_MSG_EQ(IbBthHeader::HasReth(gotBth.GetOpcode()),
                              true,
                              "the received opcode should announce a RETH");
        IbRethHeader gotReth;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(gotReth), 16u, "the RETH should follow the BTH");
        NS_TEST_ASSERT_MSG_EQ(gotReth.GetDmaLength(), 4u, "the RETH DMA length should be 4");
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(p)), "deadbeef", "the payload should be left");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A truncated header is not read past its buffer's end (found by the headers fuzz target:
 * Deserialize read SIZE bytes from a shorter buffer and returned SIZE). The sizes are those of
 * IBTA vol. 1: BTH 12 bytes (9.2), AETH 4 (9.3.5), RETH 16 (9.3.3), and the CNP's 16 reserved
 * bytes (Annex A17). One byte less reads nothing and returns 0; the full size reads SIZE.
 */
class IbTruncatedHeadersTestCase : public TestCase
{
  public:
    IbTruncatedHeadersTestCase()
        : TestCase("Truncated BTH, AETH, RETH and CNP: Deserialize reads nothing, returns 0")
    {
    }

  private:
    /**
     * @param size the bytes in the buffer (all 0xAB).
     * @param header the header to read.
     * @return what Deserialize returned.
     */
    template <typename H>
    static uint32_t Read(uint32_t size, H& header)
    {
        Buffer buffer;
        buffer.AddAtStart(size);
        std::vector<uint8_t> bytes(size, 0xAB);
        buffer.Begin().Write(bytes.data(), size);
        return header.Deserialize(buffer.Begin());
    }

    void DoRun() override
    {
        IbBthHeader bth;
        NS_TEST_EXPECT_MSG_EQ(Read(11, bth), 0U, "BTH from 11 bytes");
        // Nothing was read: the header is as constructed (QP 0, PSN 0, P_Key 0xFFFF).
        NS_TEST_EXPECT_MSG_EQ(bth.GetDestQp(), 0U, "BTH QP after a truncated read");
        NS_TEST_EXPECT_MSG_EQ(bth.GetPsn(), 0U, "BTH PSN after a truncated read");
        NS_TEST_EXPECT_MSG_EQ(Read(12, bth), 12U, "BTH from 12 bytes");
        // 0xAB in bytes 5..7 is QP 0xABABAB.
        NS_TEST_EXPECT_MSG_EQ(bth.GetDestQp(), 0xABABABU, "BTH QP read from 12 bytes");
        IbAethHeader aeth;
        NS_TEST_EXPECT_MSG_EQ(Read(3, aeth), 0U, "AETH from 3 bytes");
        NS_TEST_EXPECT_MSG_EQ(Read(4, aeth), 4U, "AETH from 4 bytes");
        IbRethHeader reth;
        NS_TEST_EXPECT_MSG_EQ(Read(15, reth), 0U, "RETH from 15 bytes");
        NS_TEST_EXPECT_MSG_EQ(reth.GetDmaLength(), 0U, "RETH length after a truncated read");
        NS_TEST_EXPECT_MSG_EQ(Read(16, reth), 16U, "RETH from 16 bytes");
        RoceCnpHeader cnp;
        NS_TEST_EXPECT_MSG_EQ(Read(15, cnp), 0U, "CNP from 15 bytes");
        NS_TEST_EXPECT_MSG_EQ(Read(0, cnp), 0U, "CNP from an empty buffer");
        NS_TEST_EXPECT_MSG_EQ(Read(16, cnp), 16U, "CNP from 16 bytes");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The InfiniBand transport header test suite.
 */
class IbHeadersTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    IbHeadersTestSuite()
        : TestSuite("llm-fabric-ib-headers", Type::UNIT)
    {
        AddTestCase(new IbBthKnownAnswerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbBthRoundTripTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbBthPrintTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbBthReservedBitsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbOpcodeExtensionTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbRethTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbAethKnownAnswerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbAethRoundTripTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbAethReservedTypeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceCnpTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbWritePacketTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IbTruncatedHeadersTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static IbHeadersTestSuite g_ibHeadersTestSuite;

} // namespace tests
} // namespace llmfabric
