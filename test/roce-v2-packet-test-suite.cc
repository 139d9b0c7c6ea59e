/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/frame-prefix-header.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ib-reth-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/test.h"

#include <array>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The known-answer packet's payload.
const std::string KNOWN_ANSWER_PAYLOAD = "000102030405060708090a0b0c0d0e0f";

/// @return the RETH of the ICRC known-answer packet.
IbRethHeader
KnownAnswerReth()
{
    IbRethHeader reth;
    reth.SetVirtualAddress(0x1000);
    reth.SetRkey(0x1234);
    reth.SetDmaLength(16);
    return reth;
}

/// @return the BTH of the ICRC known-answer packet.
IbBthHeader
KnownAnswerBth()
{
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_ONLY);
    bth.SetDestQp(0x11);
    bth.SetAckRequest(true);
    bth.SetPsn(100);
    return bth;
}

/// @return the transport part of the ICRC known-answer packet: BTH, RETH and 16 bytes of payload.
Ptr<Packet>
KnownAnswerTransport()
{
    std::vector<uint8_t> payload = HexToBytes(KNOWN_ANSWER_PAYLOAD);
    Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
    p->AddHeader(KnownAnswerReth());
    p->AddHeader(KnownAnswerBth());
    return p;
}

// IPv4: 45 (v4, IHL 5), TOS 02 (DSCP 0, ECT(0)), total 0x4c = 20 + 8 + 12 + 16 + 16 + 4 = 76,
// id 0001, flags 4000 (DF), TTL 40, protocol 11 (UDP), checksum 269c (the one's complement sum
// of the other header words), 10.0.0.1, 10.0.0.2.
// UDP: c000 -> 12b7 (4791), length 0x38 = 8 + 12 + 16 + 16 + 4 = 56, checksum 0.
/// The known-answer packet, encapsulated: IPv4, UDP, BTH, RETH, payload, ICRC.
const std::string KNOWN_ANSWER = "4502004c000140004011269c0a0000010a000002"
                                 "c00012b700380000"
                                 "0a00ffff0000001180000064"
                                 "00000000000010000000123400000010"
                                 "000102030405060708090a0b0c0d0e0f"
                                 "8eb1b539";

/// @return the addressing of the ICRC known-answer packet.
RoceV2Packet::Addressing
KnownAnswerAddressing()
{
    RoceV2Packet::Addressing a;
    a.source = Ipv4Address("10.0.0.1");
    a.destination = Ipv4Address("10.0.0.2");
    a.udpSourcePort = 0xC000;
    a.dscp = 0;
    a.ecn = Ipv4Header::ECN_ECT0;
    a.ttl = 64;
    a.identification = 1;
    return a;
}

/// @return the big-endian 16-bit value at offset of bytes.
uint32_t
U16(const std::vector<uint8_t>& bytes, size_t offset)
{
    return (uint32_t(bytes[offset]) << 8) | bytes[offset + 1];
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Encapsulating the known-answer transport packet gives the known-answer bytes: IPv4 with DF,
 * ECT(0) and its checksum, UDP to port 4791 with length 56 and checksum 0, then the ICRC.
 */
class RoceV2EncapsulationKnownAnswerTestCase : public TestCase
{
  public:
    RoceV2EncapsulationKnownAnswerTestCase()
        : TestCase("Encapsulate gives the RoCEv2 known-answer bytes, ICRC 8e b1 b5 39 last")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> p = KnownAnswerTransport();
        RoceV2Packet::Encapsulate(p, KnownAnswerAddressing());
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(p)),
                              KNOWN_ANSWER,
                              "the encapsulated packet is the known answer, byte for byte");
        NS_TEST_ASSERT_MSG_EQ(RoceIcrcTrailer::Verify(p), true, "its ICRC verifies");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The transport headers written to memory and handed to Encapsulate give the same bytes as the
 * headers added to the packet one by one: the known answer with its payload (the ICRC then reads
 * the packet), and a packet of 1,000 zero bytes whose ICRC is computed from the headers alone
 * (checked by RoceIcrcTrailer::Verify, which reads every byte).
 */
class RoceV2HeadersInMemoryTestCase : public TestCase
{
  public:
    RoceV2HeadersInMemoryTestCase()
        : TestCase("Encapsulate with the transport headers in memory gives the same bytes")
    {
    }

  private:
    void DoRun() override
    {
        std::array<uint8_t, RoceV2Packet::MAX_TRANSPORT_HEADERS> transport{};
        KnownAnswerBth().Write(transport.data());
        KnownAnswerReth().Write(transport.data() + IbBthHeader::SIZE);
        std::vector<uint8_t> payload = HexToBytes(KNOWN_ANSWER_PAYLOAD);
        Ptr<Packet> p = Create<Packet>(payload.data(), payload.size());
        RoceV2Packet::Encapsulate(p,
                                  KnownAnswerAddressing(),
                                  transport.data(),
                                  IbBthHeader::SIZE + IbRethHeader::SIZE);
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(p)),
                              KNOWN_ANSWER,
                              "headers in memory: the known answer, byte for byte");

        // A data packet as a queue pair sends it: 1,000 zero bytes of payload, fields that are
        // not the defaults, and the same headers added one by one for comparison.
        RoceV2Packet::Addressing a = KnownAnswerAddressing();
        a.dscp = 26;
        a.ttl = 17;
        a.identification = 0xBEEF;
        a.udpSourcePort = 0xD00D;
        a.zeroPayloadBytes = 1000;
        Ptr<Packet> fast = Create<Packet>(1000);
        RoceV2Packet::Encapsulate(fast, a, transport.data(), IbBthHeader::SIZE);
        Ptr<Packet> slow = Create<Packet>(1000);
        slow->AddHeader(KnownAnswerBth());
        RoceV2Packet::Encapsulate(slow, a);
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(PacketBytes(fast)),
                              BytesToHex(PacketBytes(slow)),
                              "a zero payload: the same bytes either way");
        NS_TEST_ASSERT_MSG_EQ(fast->GetSize(), 20 + 8 + 12 + 1000 + 4, "IPv4 UDP BTH payload ICRC");
        NS_TEST_ASSERT_MSG_EQ(RoceIcrcTrailer::Verify(fast), true, "its ICRC verifies");
        std::vector<uint8_t> b = PacketBytes(fast);
        NS_TEST_ASSERT_MSG_EQ(+b[8], 17, "TTL");
        NS_TEST_ASSERT_MSG_EQ(U16(b, 4), 0xBEEF, "identification");
        NS_TEST_ASSERT_MSG_EQ(U16(b, 20), 0xD00D, "UDP source port");
        // RFC 1071: a header with a valid checksum sums, in one's complement, to 0xffff.
        uint32_t sum = 0;
        for (size_t k = 0; k < 20; k += 2)
        {
            sum += U16(b, k);
        }
        sum = (sum & 0xFFFF) + (sum >> 16);
        sum = (sum & 0xFFFF) + (sum >> 16);
        NS_TEST_ASSERT_MSG_EQ(sum, 0xFFFF, "the IPv4 header checksum is valid");

        // Packets of different header sizes in turn, with and without an Ethernet header (the
        // function writes every packet's headers into one reused object): each gets its own.
        const uint8_t ethernet[RoceV2Packet::ETHERNET_HEADER_SIZE] =
            {2, 0, 0, 0, 0, 9, 2, 0, 0, 0, 0, 7, 8, 0};
        for (uint32_t k = 0; k < 6; ++k)
        {
            uint32_t size =
                (k % 3 == 1) ? IbBthHeader::SIZE : IbBthHeader::SIZE + IbRethHeader::SIZE;
            bool withEthernet = k >= 3;
            a.identification = static_cast<uint16_t>(k);
            Ptr<Packet> reused = Create<Packet>(1000);
            RoceV2Packet::Encapsulate(reused,
                                      a,
                                      transport.data(),
                                      size,
                                      withEthernet ? ethernet : nullptr);
            Ptr<Packet> oneByOne = Create<Packet>(1000);
            if (size > IbBthHeader::SIZE)
            {
                oneByOne->AddHeader(KnownAnswerReth());
            }
            oneByOne->AddHeader(KnownAnswerBth());
            RoceV2Packet::Encapsulate(oneByOne, a);
            if (withEthernet)
            {
                oneByOne->AddHeader(FramePrefixHeaderFrom(ethernet));
            }
            NS_TEST_EXPECT_MSG_EQ(BytesToHex(PacketBytes(reused)),
                                  BytesToHex(PacketBytes(oneByOne)),
                                  "packet " << k << ": its own headers");
        }
    }

  private:
    /**
     * @param ethernet an Ethernet header's 14 bytes.
     * @return a header holding them.
     */
    static FramePrefixHeader FramePrefixHeaderFrom(const uint8_t* ethernet)
    {
        FramePrefixHeader h(RoceV2Packet::ETHERNET_HEADER_SIZE);
        std::copy(ethernet, ethernet + RoceV2Packet::ETHERNET_HEADER_SIZE, h.GetBytes());
        return h;
    }
};

/**
 * @ingroup llm-fabric-tests
 * DSCP and ECN land in the TOS byte, the UDP length counts the ICRC, and the Ethernet header is
 * destination, source, EtherType 0x0800.
 */
class RoceV2FieldsTestCase : public TestCase
{
  public:
    RoceV2FieldsTestCase()
        : TestCase(
              "DSCP and ECN placement, UDP length with ICRC, Ethernet header, overhead of 50 B")
    {
    }

  private:
    void DoRun() override
    {
        Ptr<Packet> p = KnownAnswerTransport();
        RoceV2Packet::Addressing a = KnownAnswerAddressing();
        a.dscp = 26;                    // AF31
        a.ecn = Ipv4Header::ECN_NotECT; // 00
        a.udpSourcePort = 0xABCD;
        p->AddHeader(IbBthHeader()); // 12 more bytes of transport, to see the lengths follow
        uint32_t transport = p->GetSize();
        RoceV2Packet::Encapsulate(p, a);
        std::vector<uint8_t> b = PacketBytes(p);
        NS_TEST_ASSERT_MSG_EQ(b.size(), 20 + 8 + transport + 4, "IPv4 + UDP + transport + ICRC");
        // TOS = DSCP << 2 | ECN = 26 << 2 | 0 = 0x68.
        NS_TEST_ASSERT_MSG_EQ(+b[1], 0x68, "TOS carries DSCP 26 and Not-ECT");
        NS_TEST_ASSERT_MSG_EQ(U16(b, 2), 20 + 8 + transport + 4, "IPv4 total length");
        NS_TEST_ASSERT_MSG_EQ(U16(b, 20), 0xABCD, "UDP source port");
        NS_TEST_ASSERT_MSG_EQ(U16(b, 22), 4791, "UDP destination port is RoCEv2's");
        NS_TEST_ASSERT_MSG_EQ(U16(b, 24), 8 + transport + 4, "UDP length counts ICRC");

        RoceV2Packet::AddEthernetHeader(p,
                                        Mac48Address("02:00:00:00:00:0a"),
                                        Mac48Address("02:00:00:00:00:0b"));
        std::vector<uint8_t> f = PacketBytes(p);
        NS_TEST_ASSERT_MSG_EQ(BytesToHex(std::vector<uint8_t>(f.begin(), f.begin() + 14)),
                              "02000000000b02000000000a0800",
                              "Ethernet: destination, source, IPv4 EtherType");
        // Ethernet 14 + IPv4 20 + UDP 8 + ICRC 4 + FCS 4.
        NS_TEST_ASSERT_MSG_EQ(RoceV2Packet::GetEncapsulationOverhead(), 50, "overhead per packet");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The RoCEv2 encapsulation suite.
 */
class RoceV2PacketTestSuite : public TestSuite
{
  public:
    RoceV2PacketTestSuite()
        : TestSuite("llm-fabric-roce-v2-packet", Type::UNIT)
    {
        AddTestCase(new RoceV2EncapsulationKnownAnswerTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceV2HeadersInMemoryTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceV2FieldsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RoceV2PacketTestSuite g_roceV2PacketTestSuite;

} // namespace tests
} // namespace llmfabric
