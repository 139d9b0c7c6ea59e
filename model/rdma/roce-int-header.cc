/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-int-header.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceIntHeader");

NS_OBJECT_ENSURE_REGISTERED(RoceIntHeader);

namespace
{

/// Offset of nhop.
constexpr uint32_t NHOP_OFFSET = 0;
/// Offset of the flags.
constexpr uint32_t FLAGS_OFFSET = 1;
/// Offset of ts in a record.
constexpr uint32_t TS_OFFSET = 0;
/// Offset of rate in a record.
constexpr uint32_t RATE_OFFSET = 6;
/// Offset of txbytes in a record.
constexpr uint32_t TXBYTES_OFFSET = 8;
/// Offset of qlen in a record.
constexpr uint32_t QLEN_OFFSET = 14;
/// The 48-bit fields keep their value modulo 2^48.
constexpr uint64_t MASK48 = (uint64_t{1} << 48) - 1;
/// The 16-bit fields saturate here.
constexpr uint64_t MAX16 = 0xFFFF;

/**
 * Write a big-endian field.
 * @param at the first byte.
 * @param bytes its width.
 * @param value the value (its low bytes).
 */
void
PutBigEndian(uint8_t* at, uint32_t bytes, uint64_t value)
{
    for (uint32_t k = 0; k < bytes; ++k)
    {
        at[bytes - 1 - k] = static_cast<uint8_t>(value >> (8 * k));
    }
}

/**
 * Read a big-endian field.
 * @param at the first byte.
 * @param bytes its width.
 * @return the value.
 */
uint64_t
GetBigEndian(const uint8_t* at, uint32_t bytes)
{
    uint64_t value = 0;
    for (uint32_t k = 0; k < bytes; ++k)
    {
        value = (value << 8) | at[k];
    }
    return value;
}

} // namespace

RoceIntHeader::RoceIntHeader()
{
    m_bytes.fill(0);
}

TypeId
RoceIntHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIntHeader")
                            .SetParent<Trailer>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RoceIntHeader>();
    return tid;
}

TypeId
RoceIntHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

void
RoceIntHeader::Print(std::ostream& os) const
{
    os << "INT nhop=" << GetHopCount() << (GetOverflow() ? " overflow" : "");
    for (uint32_t i = 0; i < GetHopCount(); ++i)
    {
        IntHopRecord h = GetHop(i);
        os << " [ts=" << h.timeNs << " tx=" << h.txBytes << " qlen=" << h.qlenBytes
           << " rate=" << h.rateBps << "]";
    }
}

uint32_t
RoceIntHeader::GetSerializedSize() const
{
    return SIZE;
}

void
RoceIntHeader::Serialize(Buffer::Iterator end) const
{
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    i.Write(m_bytes.data(), SIZE);
}

uint32_t
RoceIntHeader::Deserialize(Buffer::Iterator end)
{
    Buffer::Iterator i = end;
    i.Prev(SIZE);
    i.Read(m_bytes.data(), SIZE);
    return SIZE;
}

uint32_t
RoceIntHeader::GetHopCount() const
{
    return std::min<uint32_t>(m_bytes[NHOP_OFFSET], MAX_HOPS);
}

bool
RoceIntHeader::GetOverflow() const
{
    return (m_bytes[FLAGS_OFFSET] & OVERFLOW_FLAG) != 0;
}

IntHopRecord
RoceIntHeader::GetHop(uint32_t i) const
{
    const uint8_t* r = m_bytes.data() + HEADER_BYTES + i * RECORD_BYTES;
    IntHopRecord hop;
    hop.timeNs = GetBigEndian(r + TS_OFFSET, 6);
    hop.rateBps = GetBigEndian(r + RATE_OFFSET, 2) * RATE_UNIT_BPS;
    hop.txBytes = GetBigEndian(r + TXBYTES_OFFSET, 6);
    hop.qlenBytes = GetBigEndian(r + QLEN_OFFSET, 2) * QLEN_UNIT_BYTES;
    return hop;
}

uint32_t
RoceIntHeader::GetHops(IntHopRecord* hops) const
{
    uint32_t n = GetHopCount();
    for (uint32_t i = 0; i < n; ++i)
    {
        hops[i] = GetHop(i);
    }
    return n;
}

bool
RoceIntHeader::AddHop(uint64_t timeNs, uint64_t txBytes, uint64_t qlenBytes, uint64_t rateBps)
{
    uint32_t n = GetHopCount();
    if (n >= MAX_HOPS)
    {
        m_bytes[FLAGS_OFFSET] |= OVERFLOW_FLAG;
        return false;
    }
    uint8_t* r = m_bytes.data() + HEADER_BYTES + n * RECORD_BYTES;
    PutBigEndian(r + TS_OFFSET, 6, timeNs & MASK48);
    uint64_t rate = (rateBps + RATE_UNIT_BPS / 2) / RATE_UNIT_BPS;
    PutBigEndian(r + RATE_OFFSET, 2, std::min(rate, MAX16));
    PutBigEndian(r + TXBYTES_OFFSET, 6, txBytes & MASK48);
    PutBigEndian(r + QLEN_OFFSET, 2, std::min(qlenBytes / QLEN_UNIT_BYTES, MAX16));
    m_bytes[NHOP_OFFSET] = static_cast<uint8_t>(n + 1);
    return true;
}

const std::array<uint8_t, RoceIntHeader::SIZE>&
RoceIntHeader::GetBytes() const
{
    return m_bytes;
}

} // namespace ns3
