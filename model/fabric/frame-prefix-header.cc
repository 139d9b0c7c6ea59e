/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "frame-prefix-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

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

} // namespace ns3
