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
    Buffer::Iterator i = start;
    i.WriteHtonU64(m_virtualAddress);
    i.WriteHtonU32(m_rkey);
    i.WriteHtonU32(m_dmaLength);
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
