/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "frame-prefix-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <iomanip>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FramePrefixHeader");

NS_OBJECT_ENSURE_REGISTERED(FramePrefixHeader);

TypeId
FramePrefixHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FramePrefixHeader")
                            .SetParent<Header>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<FramePrefixHeader>();
    return tid;
}

FramePrefixHeader::FramePrefixHeader(uint32_t size)
    : m_bytes{},
      m_size(size)
{
    NS_ABORT_MSG_IF(size == 0 || size > MAX_SIZE,
                    "FramePrefixHeader: size " << size << " outside 1.." << MAX_SIZE);
}

void
FramePrefixHeader::SetSize(uint32_t size)
{
    NS_ABORT_MSG_IF(size == 0 || size > MAX_SIZE,
                    "FramePrefixHeader: size " << size << " outside 1.." << MAX_SIZE);
    m_size = size;
}

TypeId
FramePrefixHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
FramePrefixHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << std::hex << std::setfill('0');
    for (uint32_t k = 0; k < m_size; ++k)
    {
        os << std::setw(2) << static_cast<uint32_t>(m_bytes[k]);
    }
    os.flags(flags);
    os.fill(fill);
}

uint32_t
FramePrefixHeader::GetSerializedSize() const
{
    return m_size;
}

void
FramePrefixHeader::Serialize(Buffer::Iterator start) const
{
    start.Write(m_bytes.data(), m_size);
}

uint32_t
FramePrefixHeader::Deserialize(Buffer::Iterator start)
{
    start.Read(m_bytes.data(), m_size);
    return m_size;
}

uint8_t*
FramePrefixHeader::GetBytes()
{
    return m_bytes.data();
}

uint32_t
FramePrefixHeader::GetSize() const
{
    return m_size;
}

namespace
{

/// Size of an IPv4 header without options.
constexpr uint32_t IPV4_HEADER_SIZE = 20;
/// Offset of the header checksum in an IPv4 header.
constexpr uint32_t IPV4_CHECKSUM_OFFSET = 10;

/**
 * @param sum a sum of 16-bit words (at most a few of them over 0xFFFF).
 * @return the one's complement of its one's complement fold to 16 bits (RFC 1071).
 */
uint16_t
FoldAndComplement(uint32_t sum)
{
    sum = (sum & 0xFFFF) + (sum >> 16);
    sum = (sum & 0xFFFF) + (sum >> 16);
    return static_cast<uint16_t>(~sum & 0xFFFF);
}

/**
 * @param bytes where to read.
 * @return the big-endian 16-bit word there.
 */
uint32_t
Word(const uint8_t* bytes)
{
    return (static_cast<uint32_t>(bytes[0]) << 8) | bytes[1];
}

/**
 * @param bytes where to write.
 * @param word the 16-bit word, written big-endian.
 */
void
SetWord(uint8_t* bytes, uint32_t word)
{
    bytes[0] = static_cast<uint8_t>((word >> 8) & 0xFF);
    bytes[1] = static_cast<uint8_t>(word & 0xFF);
}

} // namespace

void
FramePrefixHeader::PatchIpv4Word(uint8_t* ipv4, uint32_t offset, uint16_t word)
{
    // RFC 1624, equation 3: HC' = ~(~HC + ~m + m').
    const uint32_t sum =
        (~Word(ipv4 + IPV4_CHECKSUM_OFFSET) & 0xFFFF) + (~Word(ipv4 + offset) & 0xFFFF) + word;
    SetWord(ipv4 + offset, word);
    SetWord(ipv4 + IPV4_CHECKSUM_OFFSET, FoldAndComplement(sum));
}

void
FramePrefixHeader::SetIpv4Checksum(uint8_t* ipv4)
{
    // RFC 1071, over the 20 bytes of a header without options, the checksum field as zero.
    SetWord(ipv4 + IPV4_CHECKSUM_OFFSET, 0);
    uint32_t sum = 0;
    for (uint32_t k = 0; k < IPV4_HEADER_SIZE; k += 2)
    {
        sum += Word(ipv4 + k);
    }
    SetWord(ipv4 + IPV4_CHECKSUM_OFFSET, FoldAndComplement(sum));
}

uint32_t
FramePrefixHeader::FindIpv4Ttl(const uint8_t* bytes, uint32_t n)
{
    constexpr uint32_t ethernet = 14; // destination, source, EtherType
    constexpr uint32_t vlanTag = 4;
    if (n < ethernet)
    {
        return 0;
    }
    uint32_t ip = ethernet;
    if (bytes[12] == 0x81 && bytes[13] == 0x00)
    {
        ip += vlanTag; // the EtherType follows the 802.1Q tag
    }
    if (n < ip || bytes[ip - 2] != 0x08 || bytes[ip - 1] != 0x00)
    {
        return 0;
    }
    const uint32_t ttl = ip + IPV4_TTL_OFFSET;
    return n > ttl + 3 ? ttl : 0; // TTL, protocol and the two checksum bytes
}

uint32_t
FramePrefixHeader::DecrementIpv4TtlBytes(uint8_t* ipv4, uint32_t hops)
{
    const uint8_t* ttl = ipv4 + IPV4_TTL_OFFSET;
    const uint32_t made = ttl[0] - TtlAfter(ttl[0], hops);
    for (uint32_t k = 0; k < made; ++k)
    {
        // The 16-bit word holding TTL and protocol, TTL one less (RFC 1624 for the checksum),
        // once per router, as each would patch it.
        const uint32_t word = (static_cast<uint32_t>(ttl[0]) << 8) | ttl[1];
        PatchIpv4Word(ipv4, IPV4_TTL_OFFSET, static_cast<uint16_t>(word - 0x100));
    }
    return made;
}

uint32_t
FramePrefixHeader::DecrementIpv4Ttl(const Ptr<Packet>& frame,
                                    const uint8_t* bytes,
                                    uint32_t n,
                                    uint32_t hops,
                                    uint32_t strip)
{
    const uint32_t ttl = hops == 0 ? 0 : FindIpv4Ttl(bytes, n);
    if (ttl == 0 || bytes[ttl] <= 1 || strip >= ttl)
    {
        if (strip != 0)
        {
            frame->RemoveAtStart(strip);
        }
        return 0;
    }
    // The bytes up to the checksum's two, which follow TTL and protocol, are patched in a copy
    // that replaces them (without the first @p strip).
    FramePrefixHeader prefix(ttl + 4 - strip);
    uint8_t* b = prefix.GetBytes();
    std::copy(bytes + strip, bytes + ttl + 4, b);
    const uint32_t made = DecrementIpv4TtlBytes(b + ttl - strip - IPV4_TTL_OFFSET, hops);
    frame->RemoveAtStart(ttl + 4);
    frame->AddHeader(prefix);
    return made;
}

uint32_t
FramePrefixHeader::DecrementIpv4Ttl(const Ptr<Packet>& frame, uint32_t hops)
{
    if (hops == 0)
    {
        return 0;
    }
    uint8_t bytes[32]; // a tagged Ethernet header and IPv4 up to its checksum: 30
    return DecrementIpv4Ttl(frame, bytes, frame->CopyData(bytes, sizeof(bytes)), hops);
}

} // namespace ns3
