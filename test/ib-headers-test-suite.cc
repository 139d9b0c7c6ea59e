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
#include <utility>
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

/**
 * The fields of a BTH (IBA vol. 1, 9.2), at IbBthHeader's defaults (P_Key 0xFFFF, all else zero).
 * The last three are llm-fabric's use of byte 8's bits 6-0, reserved in the specification.
 */
struct BthFields
{
    uint8_t opcode{0};     ///< OpCode, byte 0.
    bool se{false};        ///< SE (solicited event), byte 1 bit 7.
    bool mig{false};       ///< M (MigReq), byte 1 bit 6.
    uint8_t pad{0};        ///< PadCnt, byte 1 bits 5-4.
    uint8_t tver{0};       ///< TVer, byte 1 bits 3-0.
    uint16_t pkey{0xFFFF}; ///< P_Key, bytes 2-3.
    bool fecn{false};      ///< FECN, byte 4 bit 7.
    bool becn{false};      ///< BECN, byte 4 bit 6.
    uint32_t destQp{0};    ///< DestQP, bytes 5-7.
    bool ack{false};       ///< A (AckReq), byte 8 bit 7.
    uint32_t psn{0};       ///< PSN, bytes 9-11.
    bool fill{false};      ///< Telemetry fill, byte 8 bit 6.
    bool echo{false};      ///< Telemetry echo, byte 8 bit 5.
    uint8_t hops{0};       ///< Hop echo, byte 8 bits 4-0.
};

/// RDMA WRITE Only to QP 0x11, PSN 100, with AckReq (the BTH of the print and packet tests).
const BthFields WRITE_ONLY_BTH{IbBthHeader::RC_RDMA_WRITE_ONLY,
                               false,
                               false,
                               0,
                               0,
                               0xFFFF,
                               false,
                               false,
                               0x11,
                               true,
                               100};

/**
 * @param f the fields.
 * @return a BTH with every field set from f.
 */
IbBthHeader
Make(const BthFields& f)
{
    IbBthHeader h;
    h.SetOpcode(f.opcode);
    h.SetSolicitedEvent(f.se);
    h.SetMigReq(f.mig);
    h.SetPadCount(f.pad);
    h.SetTransportVersion(f.tver);
    h.SetPartitionKey(f.pkey);
    h.SetFecn(f.fecn);
    h.SetBecn(f.becn);
    h.SetDestQp(f.destQp);
    h.SetAckRequest(f.ack);
    h.SetPsn(f.psn);
    h.SetTelemetryFill(f.fill);
    h.SetTelemetryEcho(f.echo);
    h.SetHopEcho(f.hops);
    return h;
}

/**
 * The fields of an AETH (IBA vol. 1, 9.3.5): the syndrome's type (bits 6-5) and value (bits 4-0:
 * credit count, RNR timer or NAK code), and the MSN.
 */
struct AethFields
{
    IbAethHeader::AethType type; ///< Syndrome bits 6-5.
    uint8_t value;               ///< Syndrome bits 4-0.
    uint32_t msn;                ///< Message Sequence Number, bytes 1-3.
};

/**
 * @param f the fields.
 * @return an AETH made by the setter of f's type (SetAck, SetRnrNak, SetNak; the reserved type,
 *         which no setter makes, by SetSyndrome) and SetMsn.
 */
IbAethHeader
Make(const AethFields& f)
{
    IbAethHeader h;
    switch (f.type)
    {
    case IbAethHeader::AethType::ACK:
        h.SetAck(f.value);
        break;
    case IbAethHeader::AethType::RNR_NAK:
        h.SetRnrNak(f.value);
        break;
    case IbAethHeader::AethType::NAK:
        h.SetNak(static_cast<IbAethHeader::NakCode>(f.value));
        break;
    case IbAethHeader::AethType::RESERVED:
        h.SetSyndrome(static_cast<uint8_t>((2U << 5) | f.value));
        break;
    }
    h.SetMsn(f.msn);
    return h;
}

/**
 * The fields of a RETH (IBA vol. 1, 9.3.3).
 */
struct RethFields
{
    uint64_t va;   ///< Virtual address, bytes 0-7.
    uint32_t rkey; ///< R_Key, bytes 8-11.
    uint32_t len;  ///< DMA length, bytes 12-15.
};

/// One known answer: a header's fields and the bytes written by hand from the specification.
template <typename Fields>
struct KnownAnswer
{
    const char* name; ///< What the row checks, named in its assertion messages.
    Fields fields;    ///< The fields set (or expected after parsing the bytes).
    const char* hex;  ///< The hand-written wire bytes, lower-case hexadecimal.
};

/**
 * BTH known answers, shared by the known-answer and round-trip cases. Each row's bytes are derived
 * in the comment above it (IBA vol. 1, 9.2, figure 113).
 */
const std::vector<KnownAnswer<BthFields>> BTH_ROWS = {
    // Default header: opcode 0, TVer 0, P_Key 0xFFFF, all else zero.
    //   00 | 00 | ff ff | 00 | 00 00 00 | 00 | 00 00 00
    {"a default BTH (all zero except P_Key 0xFFFF)", {}, "0000ffff0000000000000000"},
    // RDMA WRITE Only, P_Key 0xFFFF, DestQP 0x11, AckReq, PSN 100:
    //   byte 0     0a        OpCode RC_RDMA_WRITE_ONLY
    //   byte 1     00        SE=0 M=0 PadCnt=0 TVer=0
    //   bytes 2-3  ff ff     P_Key
    //   byte 4     00        FECN=0 BECN=0
    //   bytes 5-7  00 00 11  DestQP
    //   byte 8     80        A=1 (bit 7)
    //   bytes 9-11 00 00 64  PSN = 100
    {"RDMA WRITE Only to QP 0x11, PSN 100 with AckReq", WRITE_ONLY_BTH, "0a00ffff0000001180000064"},
    // SEND Only with every flag of bytes 1 and 4 set:
    //   byte 0     04        OpCode RC_SEND_ONLY
    //   byte 1     f5        SE=1 (0x80) | M=1 (0x40) | PadCnt=3 (0x30) | TVer=5 (0x05)
    //   bytes 2-3  7f ff     P_Key 0x7FFF
    //   byte 4     c0        FECN=1 (0x80) | BECN=1 (0x40)
    //   bytes 5-7  00 01 02  DestQP 0x000102
    //   byte 8     00        A=0
    //   bytes 9-11 ff ff ff  PSN 0xFFFFFF (largest)
    {"SE, M, PadCnt 3, TVer 5, FECN and BECN on their bit positions",
     {IbBthHeader::RC_SEND_ONLY, true, true, 3, 5, 0x7FFF, true, true, 0x000102, false, 0xFFFFFF},
     "04f57fffc000010200ffffff"},
    // Every field distinct:
    //   byte 0     0d        OpCode RC_RDMA_READ_RESPONSE_FIRST
    //   byte 1     a1        SE=1 (0x80) | M=0 | PadCnt=2 (0x20) | TVer=1 (0x01)
    //   bytes 2-3  80 01     P_Key 0x8001
    //   byte 4     80        FECN=1 BECN=0
    //   bytes 5-7  ab cd ef  DestQP 0xABCDEF
    //   byte 8     80        A=1
    //   bytes 9-11 12 34 56  PSN 0x123456
    {"a BTH with distinct field values",
     {IbBthHeader::RC_RDMA_READ_RESPONSE_FIRST,
      true,
      false,
      2,
      1,
      0x8001,
      true,
      false,
      0xABCDEF,
      true,
      0x123456},
     "0da1800180abcdef80123456"},
    // Every field away from its default (the round trip's header):
    //   byte 0     06        OpCode RC_RDMA_WRITE_FIRST
    //   byte 1     fa        SE=1 (0x80) | M=1 (0x40) | PadCnt=3 (0x30) | TVer=0xA (0x0a)
    //   bytes 2-3  12 34     P_Key 0x1234
    //   byte 4     c0        FECN=1 (0x80) | BECN=1 (0x40)
    //   bytes 5-7  fe dc ba  DestQP 0xFEDCBA
    //   byte 8     80        A=1
    //   bytes 9-11 ab cd ef  PSN 0xABCDEF
    {"a BTH with every field away from its default",
     {IbBthHeader::RC_RDMA_WRITE_FIRST,
      true,
      true,
      3,
      0xA,
      0x1234,
      true,
      true,
      0xFEDCBA,
      true,
      0xABCDEF},
     "06fa1234c0fedcba80abcdef"},
    // Single bits, one at a time, in byte 1 and byte 4.
    // SE is bit 7 of byte 1: 0x80.
    {"SE alone (bit 7 of byte 1)", {0, true}, "0080ffff0000000000000000"},
    // M is bit 6 of byte 1: 0x40.
    {"M alone (bit 6 of byte 1)", {0, false, true}, "0040ffff0000000000000000"},
    // PadCnt is bits 5-4 of byte 1: 1 << 4 = 0x10.
    {"PadCnt 1 (bit 4 of byte 1)", {0, false, false, 1}, "0010ffff0000000000000000"},
    // TVer is bits 3-0 of byte 1: 0x0f.
    {"TVer 15 (bits 3-0 of byte 1)", {0, false, false, 0, 0xF}, "000fffff0000000000000000"},
    // BECN is bit 6 of byte 4: 0x40.
    {"BECN alone (bit 6 of byte 4)",
     {0, false, false, 0, 0, 0xFFFF, false, true},
     "0000ffff4000000000000000"},
    // FECN is bit 7 of byte 4: 0x80.
    {"FECN alone (bit 7 of byte 4)",
     {0, false, false, 0, 0, 0xFFFF, true},
     "0000ffff8000000000000000"},
    // Every defined field at its largest value, so only reserved bits are 0:
    //   ff | ff (SE M PadCnt=3 TVer=15) | ff ff | c0 (FECN BECN, bits 5-0 reserved = 0)
    //   | ff ff ff | 80 (A; bits 6-5, telemetry, off; bits 4-0 reserved = 0) | ff ff ff
    {"every field at its maximum",
     {0xFF, true, true, 3, 15, 0xFFFF, true, true, 0xFFFFFF, true, 0xFFFFFF},
     "ffffffffc0ffffff80ffffff"},
    // The hop echo alone: 5 in bits 4-0 of byte 8, A untouched.
    {"hop echo 5",
     {0, false, false, 0, 0, 0xFFFF, false, false, 0, false, 0, false, false, 5},
     "0000ffff0000000005000000"},
    // A and the hop echo: 0x80 | 5 = 0x85 in byte 8.
    {"A and hop echo 5",
     {0, false, false, 0, 0, 0xFFFF, false, false, 0, true, 0, false, false, 5},
     "0000ffff0000000085000000"},
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A header test case: checks a received BTH or AETH field by field, naming the row checked.
 */
class IbHeaderTestCase : public TestCase
{
  public:
    /**
     * Create the test case.
     * @param name its description.
     */
    explicit IbHeaderTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Check every field of a BTH.
     * @param got the BTH read.
     * @param want the fields it should hold.
     * @param row what is checked, for the messages.
     */
    void Expect(const IbBthHeader& got, const BthFields& want, const std::string& row)
    {
        NS_TEST_EXPECT_MSG_EQ(+got.GetOpcode(), +want.opcode, row << ": opcode");
        NS_TEST_EXPECT_MSG_EQ(got.GetSolicitedEvent(), want.se, row << ": SE");
        NS_TEST_EXPECT_MSG_EQ(got.GetMigReq(), want.mig, row << ": M");
        NS_TEST_EXPECT_MSG_EQ(+got.GetPadCount(), +want.pad, row << ": PadCnt");
        NS_TEST_EXPECT_MSG_EQ(+got.GetTransportVersion(), +want.tver, row << ": TVer");
        NS_TEST_EXPECT_MSG_EQ(got.GetPartitionKey(), want.pkey, row << ": P_Key");
        NS_TEST_EXPECT_MSG_EQ(got.GetFecn(), want.fecn, row << ": FECN");
        NS_TEST_EXPECT_MSG_EQ(got.GetBecn(), want.becn, row << ": BECN");
        NS_TEST_EXPECT_MSG_EQ(got.GetDestQp(), want.destQp, row << ": DestQP");
        NS_TEST_EXPECT_MSG_EQ(got.GetAckRequest(), want.ack, row << ": A");
        NS_TEST_EXPECT_MSG_EQ(got.GetPsn(), want.psn, row << ": PSN");
        NS_TEST_EXPECT_MSG_EQ(got.GetTelemetryFill(), want.fill, row << ": telemetry fill");
        NS_TEST_EXPECT_MSG_EQ(got.GetTelemetryEcho(), want.echo, row << ": telemetry echo");
        NS_TEST_EXPECT_MSG_EQ(+got.GetHopEcho(), +want.hops, row << ": hop echo");
    }

    /**
     * Check every field of an AETH: the raw syndrome, its type and the predicates, the value by
     * the type's own getter, and the MSN.
     * @param got the AETH read.
     * @param want the fields it should hold.
     * @param row what is checked, for the messages.
     */
    void Expect(const IbAethHeader& got, const AethFields& want, const std::string& row)
    {
        using Type = IbAethHeader::AethType;
        // The syndrome is 0, then the type in bits 6-5, then the value in bits 4-0.
        const uint32_t type = static_cast<uint32_t>(want.type);
        const uint32_t syndrome = (type << 5) | want.value;
        const bool ack = want.type == Type::ACK;
        const bool nak = want.type == Type::NAK;
        const bool rnr = want.type == Type::RNR_NAK;
        NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(got.GetSyndrome()),
                              syndrome,
                              row << ": syndrome");
        NS_TEST_EXPECT_MSG_EQ(static_cast<uint32_t>(got.GetType()), type, row << ": type");
        NS_TEST_EXPECT_MSG_EQ(got.IsAck(), ack, row << ": IsAck");
        NS_TEST_EXPECT_MSG_EQ(got.IsNak(), nak, row << ": IsNak");
        NS_TEST_EXPECT_MSG_EQ(got.IsRnrNak(), rnr, row << ": IsRnrNak");
        if (ack)
        {
            NS_TEST_EXPECT_MSG_EQ(+got.GetCreditCount(), +want.value, row << ": credit count");
        }
        if (nak)
        {
            NS_TEST_EXPECT_MSG_EQ(+static_cast<uint8_t>(got.GetNakCode()),
                                  +want.value,
                                  row << ": NAK code");
        }
        if (rnr)
        {
            NS_TEST_EXPECT_MSG_EQ(+got.GetRnrTimer(), +want.value, row << ": RNR timer");
        }
        NS_TEST_EXPECT_MSG_EQ(got.GetMsn(), want.msn, row << ": MSN");
    }

    /**
     * Check each row of a table: its fields serialize to its hand-written bytes, and the bytes
     * parse back to its fields, consuming them all.
     * @param rows the known answers (BTH or AETH).
     * @param size the header's size on the wire, in bytes, from the specification.
     */
    template <typename Fields>
    void CheckKnownAnswers(const std::vector<KnownAnswer<Fields>>& rows, uint32_t size)
    {
        for (const auto& row : rows)
        {
            NS_TEST_EXPECT_MSG_EQ(HeaderHex(Make(row.fields)),
                                  row.hex,
                                  row.name << " should match the hand-written bytes");
            Ptr<Packet> p = PacketFromHex(row.hex);
            decltype(Make(row.fields)) parsed;
            NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(parsed),
                                  size,
                                  row.name << ": parsing should consume " << size << " bytes");
            Expect(parsed, row.fields, std::string("parsed ") + row.name);
            NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 0u, row.name << ": nothing should be left");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Each BTH of the table serializes to its hand-written bytes, and those bytes parse back to its
 * fields. The default-constructed header is the table's default row.
 */
class IbBthKnownAnswerTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    IbBthKnownAnswerTestCase()
        : IbHeaderTestCase("BTH serializes to hand-written bytes and parses them back")
    {
    }

  private:
    void DoRun() override
    {
        IbBthHeader defaults;
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(defaults),
                              "0000ffff0000000000000000",
                              "a default BTH should be all zero except P_Key 0xFFFF");
        NS_TEST_ASSERT_MSG_EQ(defaults.GetSerializedSize(), 12u, "a BTH should be 12 bytes");
        Expect(defaults, BthFields{}, "a default-constructed BTH");
        // A BTH is 12 bytes (IBA vol. 1, 9.2).
        CheckKnownAnswers(BTH_ROWS, 12);
    }
};

/**
 * @ingroup llm-fabric-tests
 * Each BTH of the table survives AddHeader and RemoveHeader in front of a 100-byte payload.
 */
class IbBthRoundTripTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    IbBthRoundTripTestCase()
        : IbHeaderTestCase("BTH round-trips every field through a Packet")
    {
    }

  private:
    void DoRun() override
    {
        for (const auto& row : BTH_ROWS)
        {
            Ptr<Packet> p = Create<Packet>(100);
            p->AddHeader(Make(row.fields));
            // 100 payload bytes + the 12-byte BTH.
            NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 112u, row.name << ": the BTH should add 12");
            IbBthHeader got;
            NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(got), 12u, row.name << ": RemoveHeader gives 12");
            NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 100u, row.name << ": the payload should be left");
            Expect(got, row.fields, std::string("round-tripped ") + row.name);
        }
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
        std::ostringstream os;
        os << std::dec;
        Make(WRITE_ONLY_BTH).Print(os);
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
 * Reserved BTH bits are written as zero and ignored when read, but for byte 8's bits 6-0, the
 * hop echo of llm-fabric's ACKs (zero unless set). The table's "every field at its maximum" row
 * checks that only reserved bits are written as zero.
 */
class IbBthReservedBitsTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    IbBthReservedBitsTestCase()
        : IbHeaderTestCase("BTH writes reserved bits as zero and ignores them, but the hop echo")
    {
    }

  private:
    /// Received bytes with reserved bits set, what they read as and re-serialize to.
    struct Row
    {
        const char* name;  ///< What the row checks.
        const char* input; ///< The received bytes.
        BthFields fields;  ///< The fields read.
        const char* again; ///< The bytes the read header serializes to.
    };

    void DoRun() override
    {
        const std::vector<Row> rows = {
            // Input: RDMA WRITE Only, BECN set and reserved bits 5-0 of byte 4 set (0x7f), A set
            // and bits 6-0 of byte 8 set (0xff: the telemetry fill and echo bits 6 and 5,
            // llm-fabric's extension, and reserved bits 4-0), DestQP 0x11, PSN 100. Byte 8's seven
            // reserved bits are llm-fabric's: bit 6 telemetry fill, bit 5 telemetry echo, bits 4-0
            // the hop echo (0x1f = 31); all kept. Byte 4's reserved bits are cleared (0x7f ->
            // 0x40), so FECN stays off and DestQP and PSN absorb nothing.
            {"WRITE Only with reserved bits of bytes 4 and 8 set",
             "0a00ffff7f000011ff000064",
             {IbBthHeader::RC_RDMA_WRITE_ONLY,
              false,
              false,
              0,
              0,
              0xFFFF,
              false,
              true,
              0x11,
              true,
              100,
              true,
              true,
              31},
             "0a00ffff40000011ff000064"},
            // Reserved bits alone set no standard field (byte 4: 0x3f; byte 8: 0x1f, bits 4-0, the
            // hop echo 31): FECN, BECN, A and the telemetry bits stay off, the hop echo is kept.
            {"reserved bits alone",
             "0000ffff3f0000001f000000",
             {0, false, false, 0, 0, 0xFFFF, false, false, 0, false, 0, false, false, 31},
             "0000ffff000000001f000000"},
        };
        for (const Row& row : rows)
        {
            Ptr<Packet> p = PacketFromHex(row.input);
            IbBthHeader got;
            NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(got), 12u, row.name << ": should parse");
            Expect(got, row.fields, row.name);
            NS_TEST_EXPECT_MSG_EQ(HeaderHex(got),
                                  row.again,
                                  row.name << ": re-serializing should clear byte 4's reserved "
                                              "bits and keep byte 8's");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The RETH serializes to bytes written by hand, parses them back and round-trips through a Packet.
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
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(IbRethHeader()),
                              "00000000000000000000000000000000",
                              "a default RETH should be 16 zero bytes");
        // IBA vol. 1, 9.3.3: VA (8 bytes), R_Key (4), DMA length (4), all big-endian.
        const std::vector<KnownAnswer<RethFields>> rows = {
            {"a RETH of zeros", {0, 0, 0}, "00000000000000000000000000000000"},
            // VA 0x1000, R_Key 0x1234, DMA length 16:
            //   bytes 0-7   00 00 00 00 00 00 10 00
            //   bytes 8-11  00 00 12 34
            //   bytes 12-15 00 00 00 10
            {"RETH VA 0x1000, R_Key 0x1234, length 16",
             {0x1000, 0x1234, 16},
             "00000000000010000000123400000010"},
            // 64-bit VA with the high bits set, R_Key and length with their top bits set:
            //   bytes 0-7   fe dc ba 98 76 54 32 10
            //   bytes 8-11  89 ab cd ef
            //   bytes 12-15 80 00 00 01
            {"a RETH with a high 64-bit VA (big-endian on the wire)",
             {0xFEDCBA9876543210ULL, 0x89ABCDEF, 0x80000001},
             "fedcba987654321089abcdef80000001"},
        };
        for (const auto& row : rows)
        {
            IbRethHeader reth;
            reth.SetVirtualAddress(row.fields.va);
            reth.SetRkey(row.fields.rkey);
            reth.SetDmaLength(row.fields.len);
            NS_TEST_EXPECT_MSG_EQ(HeaderHex(reth),
                                  row.hex,
                                  row.name << " should match the hand-written bytes");
            // Parse the hand-written bytes (nothing after them), then round-trip the header in
            // front of an 8-byte payload.
            Ptr<Packet> sent = Create<Packet>(8);
            sent->AddHeader(reth);
            const std::vector<std::pair<Ptr<Packet>, uint32_t>> reads = {
                {PacketFromHex(row.hex), 0},
                {sent, 8},
            };
            for (const auto& [p, payload] : reads)
            {
                const std::string how = payload == 0 ? ", parsed" : ", round-tripped";
                IbRethHeader got;
                NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(got), 16u, row.name << how << ": 16 bytes");
                NS_TEST_EXPECT_MSG_EQ(got.GetVirtualAddress(), row.fields.va, row.name << how);
                NS_TEST_EXPECT_MSG_EQ(got.GetRkey(), row.fields.rkey, row.name << how);
                NS_TEST_EXPECT_MSG_EQ(got.GetDmaLength(), row.fields.len, row.name << how);
                NS_TEST_EXPECT_MSG_EQ(p->GetSize(), payload, row.name << how << ": payload left");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The AETH syndrome encodes ACK, NAK and RNR NAK as written by hand from table 43, and the bytes
 * parse back to the same fields.
 */
class IbAethKnownAnswerTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    IbAethKnownAnswerTestCase()
        : IbHeaderTestCase("AETH syndromes for ACK, NAK and RNR NAK match hand-written bytes")
    {
    }

  private:
    void DoRun() override
    {
        using Type = IbAethHeader::AethType;
        // Default: ACK (type 00) with invalid credit 0x1F, MSN 0.
        IbAethHeader defaults;
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(defaults),
                              "1f000000",
                              "a default AETH should be an ACK with invalid credit");
        Expect(defaults, {Type::ACK, 0x1F, 0}, "a default AETH");

        // SetAck() without a count: invalid credit, 0 00 11111 = 0x1f; MSN 5 = 00 00 05.
        IbAethHeader ack;
        ack.SetAck();
        ack.SetMsn(5);
        NS_TEST_ASSERT_MSG_EQ(HeaderHex(ack), "1f000005", "ACK with invalid credit, MSN 5");

        // Raw syndrome setter: 0x63 = 0 11 00011, a NAK with code 3 (remote operational error).
        IbAethHeader raw;
        raw.SetSyndrome(0x63);
        Expect(raw, {Type::NAK, 3, 0}, "syndrome 0x63");

        const std::vector<KnownAnswer<AethFields>> rows = {
            // ACK, invalid credit: 0 00 11111 = 0x1f; MSN 5 = 00 00 05.
            {"ACK with invalid credit, MSN 5", {Type::ACK, 0x1F, 5}, "1f000005"},
            // ACK, credit count 5: 0 00 00101 = 0x05; MSN 0xFFFFFF.
            {"ACK with 5 credits, MSN 0xFFFFFF", {Type::ACK, 5, 0xFFFFFF}, "05ffffff"},
            // NAK, PSN sequence error (code 0): 0 11 00000 = 0x60; MSN 0x123456.
            {"NAK PSN sequence error, MSN 0x123456", {Type::NAK, 0, 0x123456}, "60123456"},
            // NAK, remote access error (code 2): 0 11 00010 = 0x62; MSN 0xABCDEF.
            {"NAK remote access error, MSN 0xABCDEF", {Type::NAK, 2, 0xABCDEF}, "62abcdef"},
            // NAK, invalid RD request (code 4): 0 11 00100 = 0x64; MSN 1.
            {"NAK invalid RD request, MSN 1", {Type::NAK, 4, 1}, "64000001"},
            // RNR NAK, timer 14: 0 01 01110 = 0x2e; MSN 0x010203.
            {"RNR NAK with timer 14, MSN 0x010203", {Type::RNR_NAK, 14, 0x010203}, "2e010203"},
        };
        // An AETH is 4 bytes (IBA vol. 1, 9.3.5).
        CheckKnownAnswers(rows, 4);
    }
};

/**
 * @ingroup llm-fabric-tests
 * Every kind of AETH survives AddHeader and RemoveHeader, three of them stacked on a payload.
 */
class IbAethRoundTripTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    IbAethRoundTripTestCase()
        : IbHeaderTestCase("AETH round-trips ACK, NAK and RNR NAK through a Packet")
    {
    }

  private:
    void DoRun() override
    {
        using Type = IbAethHeader::AethType;
        // In the order they come off the packet: an ACK with 7 credits, a NAK invalid request
        // (code 1), an RNR NAK with the largest timer, 31.
        const std::vector<AethFields> sent = {
            {Type::ACK, 7, 0xFEDCBA},
            {Type::NAK, 1, 42},
            {Type::RNR_NAK, 31, 0x800000},
        };
        Ptr<Packet> p = Create<Packet>(4);
        for (auto it = sent.rbegin(); it != sent.rend(); ++it)
        {
            p->AddHeader(Make(*it));
        }
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 16u, "three AETHs and 4 bytes should be 16 bytes");
        for (std::size_t i = 0; i < sent.size(); ++i)
        {
            IbAethHeader got;
            NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(got), 4u, "AETH " << i << ": RemoveHeader 4");
            Expect(got, sent[i], "AETH " + std::to_string(i) + " after the round trip");
        }
        NS_TEST_ASSERT_MSG_EQ(p->GetSize(), 4u, "only the payload should be left");
    }
};

/**
 * @ingroup llm-fabric-tests
 * An AETH received with the reserved type 10 keeps its raw syndrome and does not crash.
 */
class IbAethReservedTypeTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    IbAethReservedTypeTestCase()
        : IbHeaderTestCase("AETH with the reserved type keeps its raw syndrome")
    {
    }

  private:
    void DoRun() override
    {
        // 0 10 01010 = 0x4a: reserved type, value 10; MSN 7. Neither an ACK, a NAK nor an RNR NAK.
        Ptr<Packet> p = PacketFromHex("4a000007");
        IbAethHeader got;
        NS_TEST_ASSERT_MSG_EQ(p->RemoveHeader(got), 4u, "a reserved-type AETH should still parse");
        Expect(got, {IbAethHeader::AethType::RESERVED, 10, 7}, "a reserved-type AETH");
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
class RoceCnpTestCase : public IbHeaderTestCase
{
  public:
    /** Create the test case. */
    RoceCnpTestCase()
        : IbHeaderTestCase("CNP is BTH opcode 0x81 with BECN then 16 zero bytes")
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

        // The CNP's BTH: opcode 0x81, BECN, DestQP 0x000123, all else at its default.
        const BthFields cnpBth{IbBthHeader::CNP, false, false, 0, 0, 0xFFFF, false, true, 0x000123};
        Ptr<Packet> p = Create<Packet>();
        p->AddHeader(cnp);
        p->AddHeader(Make(cnpBth));
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
        Expect(gotBth, cnpBth, "the received CNP's BTH");
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
        const std::vector<uint8_t> payload = {0xde, 0xad, 0xbe, 0xef};
        Ptr<Packet> p = Create<Packet>(payload.data(), static_cast<uint32_t>(payload.size()));
        IbRethHeader reth;
        reth.SetVirtualAddress(0x1000);
        reth.SetRkey(0x1234);
        reth.SetDmaLength(4);
        p->AddHeader(reth);
        p->AddHeader(Make(WRITE_ONLY_BTH));
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
