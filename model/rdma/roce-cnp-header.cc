/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-cnp-header.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceCnpHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceCnpHeader);

RoceCnpHeader::RoceCnpHeader()
{
}

TypeId
RoceCnpHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceCnpHeader")
                            .SetParent<Header>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RoceCnpHeader>();
    return tid;
}

TypeId
RoceCnpHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceCnpHeader::Print(std::ostream& os) const
{
    os << "cnp reserved=" << SIZE << "B";
}

uint32_t
RoceCnpHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceCnpHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(0, SIZE);
}

uint32_t
RoceCnpHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        // A truncated header: read nothing (reading on would go past the buffer).
        NS_LOG_WARN("a CNP body needs " << SIZE << " bytes, only " << start.GetRemainingSize()
                                        << " left");
        *this = RoceCnpHeader();
        return 0;
    }
    Buffer::Iterator i = start;
    for (uint32_t k = 0; k < SIZE; ++k)
    {
        i.ReadU8();
    }
    return i.GetDistanceFrom(start);
}

} // namespace ns3
