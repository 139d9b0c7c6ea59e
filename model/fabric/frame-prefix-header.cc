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

} // namespace ns3
