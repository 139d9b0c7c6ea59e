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

void
FramePrefixHeader::PatchIpv4Word(uint8_t* ipv4, uint32_t offset, uint16_t word)
{
    constexpr uint32_t checksumOffset = 10;
    const uint32_t oldWord = (static_cast<uint32_t>(ipv4[offset]) << 8) | ipv4[offset + 1];
    const uint32_t oldChecksum =
        (static_cast<uint32_t>(ipv4[checksumOffset]) << 8) | ipv4[checksumOffset + 1];
    uint32_t sum = (~oldChecksum & 0xFFFF) + (~oldWord & 0xFFFF) + word;
    sum = (sum & 0xFFFF) + (sum >> 16);
    sum = (sum & 0xFFFF) + (sum >> 16);
    const uint32_t checksum = ~sum & 0xFFFF;
    ipv4[offset] = static_cast<uint8_t>(word >> 8);
    ipv4[offset + 1] = static_cast<uint8_t>(word & 0xFF);
    ipv4[checksumOffset] = static_cast<uint8_t>(checksum >> 8);
    ipv4[checksumOffset + 1] = static_cast<uint8_t>(checksum & 0xFF);
}

} // namespace ns3
