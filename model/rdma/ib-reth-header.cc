/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-reth-header.h"

#include "ns3/log.h"

#include <ios>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbRethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbRethHeader);

IbRethHeader::IbRethHeader()
    : m_virtualAddress(0),
      m_rkey(0),
      m_dmaLength(0)
{
}

TypeId
IbRethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbRethHeader")
                            .SetParent<Header>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<IbRethHeader>();
    return tid;
}

TypeId
IbRethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
IbRethHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    os << "va=0x" << std::hex << m_virtualAddress << " rkey=0x" << m_rkey << std::dec
       << " dmalen=" << m_dmaLength;
    os.flags(flags);
}

uint32_t
IbRethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbRethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t bytes[SIZE];
    Write(bytes);
    start.Write(bytes, SIZE);
}

void
IbRethHeader::Write(uint8_t* out) const
{
    for (int k = 0; k < 8; ++k)
    {
        out[k] = static_cast<uint8_t>(m_virtualAddress >> (56 - 8 * k));
    }
    for (int k = 0; k < 4; ++k)
    {
        out[8 + k] = static_cast<uint8_t>(m_rkey >> (24 - 8 * k));
        out[12 + k] = static_cast<uint8_t>(m_dmaLength >> (24 - 8 * k));
    }
}

uint32_t
IbRethHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        // A truncated header: read nothing (reading on would go past the buffer).
        NS_LOG_WARN("a RETH needs " << SIZE << " bytes, only " << start.GetRemainingSize()
                                    << " left");
        *this = IbRethHeader();
        return 0;
    }
    Buffer::Iterator i = start;
    m_virtualAddress = i.ReadNtohU64();
    m_rkey = i.ReadNtohU32();
    m_dmaLength = i.ReadNtohU32();
    return i.GetDistanceFrom(start);
}

void
IbRethHeader::SetVirtualAddress(uint64_t virtualAddress)
{
    m_virtualAddress = virtualAddress;
}

uint64_t
IbRethHeader::GetVirtualAddress() const
{
    return m_virtualAddress;
}

void
IbRethHeader::SetRkey(uint32_t rkey)
{
    m_rkey = rkey;
}

uint32_t
IbRethHeader::GetRkey() const
{
    return m_rkey;
}

void
IbRethHeader::SetDmaLength(uint32_t dmaLength)
{
    m_dmaLength = dmaLength;
}

uint32_t
IbRethHeader::GetDmaLength() const
{
    return m_dmaLength;
}

} // namespace ns3
