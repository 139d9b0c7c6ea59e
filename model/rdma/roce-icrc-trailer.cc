/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-icrc-trailer.h"

#include "crc32-ieee.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceIcrcTrailer");

NS_OBJECT_ENSURE_REGISTERED(RoceIcrcTrailer);

namespace
{

/// Largest IPv4 header: IHL = 15 words.
constexpr uint32_t IPV4_MAX_HEADER_SIZE = 60;
/// Length of the masked LRH that RoCEv2 replaces by ones.
constexpr uint32_t MASKED_LRH_SIZE = 8;
/// Offset of the type of service byte in the IPv4 header.
constexpr uint32_t IPV4_TOS_OFFSET = 1;
/// Offset of the TTL byte in the IPv4 header.
constexpr uint32_t IPV4_TTL_OFFSET = 8;
/// Offset of the header checksum in the IPv4 header.
constexpr uint32_t IPV4_CHECKSUM_OFFSET = 10;
/// Offset of the checksum in the UDP header.
constexpr uint32_t UDP_CHECKSUM_OFFSET = 6;
/// Offset of the FECN/BECN/reserved byte in the BTH.
constexpr uint32_t BTH_FECN_BECN_OFFSET = 4;
/// What every masked byte is replaced by.
constexpr uint8_t MASK = 0xFF;

/**
 * Compute the ICRC of the bytes from an IPv4 header up to, but excluding, the ICRC.
 * @param ipv4Start the first byte of the IPv4 header.
 * @param length the number of bytes.
 * @param[out] icrc the CRC value, if the bytes can be a RoCEv2 packet.
 * @param zeroBytes how many zero bytes follow them (a simulated payload not in memory).
 * @return false (with a warning) if the bytes are too short to hold IPv4, UDP and BTH headers,
 *         or do not begin with an IPv4 header.
 */
bool
ComputeIcrc(const uint8_t* ipv4Start, uint32_t length, uint32_t& icrc, uint64_t zeroBytes = 0)
{
    constexpr uint32_t udpSize = RoceIcrcTrailer::UDP_HEADER_SIZE;
    constexpr uint32_t bthSize = RoceIcrcTrailer::BTH_SIZE;
    if (ipv4Start == nullptr || length < RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE + udpSize + bthSize)
    {
        NS_LOG_WARN("RoCEv2 packet of " << length << " bytes cannot hold IPv4, UDP and BTH");
        return false;
    }
    const uint32_t version = ipv4Start[0] >> 4;
    const uint32_t ipv4HeaderSize = (ipv4Start[0] & 0x0F) * 4U;
    if (version != 4 || ipv4HeaderSize < RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE)
    {
        NS_LOG_WARN("RoCEv2 packet does not begin with an IPv4 header (first byte 0x"
                    << std::hex << static_cast<uint32_t>(ipv4Start[0]) << std::dec << ")");
        return false;
    }
    if (length < ipv4HeaderSize + udpSize + bthSize)
    {
        NS_LOG_WARN("RoCEv2 packet of " << length << " bytes cannot hold a " << ipv4HeaderSize
                                        << "-byte IPv4 header, UDP and BTH");
        return false;
    }

    // The masked headers in one buffer: 8 bytes of ones for the LRH, then IPv4 (TOS, TTL and
    // checksum masked), UDP (checksum masked) and the BTH (FECN/BECN byte masked).
    std::array<uint8_t, MASKED_LRH_SIZE + IPV4_MAX_HEADER_SIZE + udpSize + bthSize> masked;
    const uint32_t headers = ipv4HeaderSize + udpSize + bthSize;
    std::fill(masked.begin(), masked.begin() + MASKED_LRH_SIZE, MASK);
    uint8_t* ipv4 = masked.data() + MASKED_LRH_SIZE;
    std::copy(ipv4Start, ipv4Start + headers, ipv4);
    ipv4[IPV4_TOS_OFFSET] = MASK;
    ipv4[IPV4_TTL_OFFSET] = MASK;
    ipv4[IPV4_CHECKSUM_OFFSET] = MASK;
    ipv4[IPV4_CHECKSUM_OFFSET + 1] = MASK;
    uint8_t* udp = ipv4 + ipv4HeaderSize;
    udp[UDP_CHECKSUM_OFFSET] = MASK;
    udp[UDP_CHECKSUM_OFFSET + 1] = MASK;
    udp[udpSize + BTH_FECN_BECN_OFFSET] = MASK;
    const uint32_t rest = length - headers;
    uint32_t reg = Crc32Ieee::Update(Crc32Ieee::INITIAL,
                                     masked.data(),
                                     MASKED_LRH_SIZE + headers,
                                     rest == 0 ? zeroBytes : 0);
    if (rest != 0)
    {
        reg = Crc32Ieee::Update(reg, ipv4Start + headers, rest, zeroBytes);
    }
    icrc = Crc32Ieee::Final(reg);
    return true;
}

} // namespace

TypeId
RoceIcrcTrailer::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RoceIcrcTrailer")
                            .SetParent<Trailer>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RoceIcrcTrailer>();
    return tid;
}

TypeId
RoceIcrcTrailer::GetInstanceTypeId() const
{
    return GetTypeId();
}

RoceIcrcTrailer::RoceIcrcTrailer()
    : m_icrc(0)
{
}

RoceIcrcTrailer::RoceIcrcTrailer(uint32_t icrc)
    : m_icrc(icrc)
{
}

void
RoceIcrcTrailer::SetIcrc(uint32_t icrc)
{
    m_icrc = icrc;
}

uint32_t
RoceIcrcTrailer::GetIcrc() const
{
    return m_icrc;
}

uint32_t
RoceIcrcTrailer::Compute(const uint8_t* ipv4Start, uint32_t length)
{
    uint32_t icrc = 0;
    if (!ComputeIcrc(ipv4Start, length, icrc))
    {
        return 0;
    }
    return icrc;
}

uint32_t
RoceIcrcTrailer::Compute(const uint8_t* ipv4Start, uint32_t length, uint64_t zeroBytes)
{
    uint32_t icrc = 0;
    if (!ComputeIcrc(ipv4Start, length, icrc, zeroBytes))
    {
        return 0;
    }
    return icrc;
}

uint32_t
RoceIcrcTrailer::Compute(Ptr<const Packet> packet, uint32_t zeroTailBytes)
{
    if (!packet || zeroTailBytes == 0 || zeroTailBytes >= packet->GetSize())
    {
        return Compute(packet);
    }
    // Only the bytes before the zero tail are read (headers: a stack buffer usually holds them),
    // but at least the longest IPv4, UDP and BTH headers: a tail that reaches into the headers
    // must not make the packet look too short.
    constexpr uint32_t longestHeaders = IPV4_MAX_HEADER_SIZE + UDP_HEADER_SIZE + BTH_SIZE;
    uint32_t head =
        std::max(packet->GetSize() - zeroTailBytes, std::min(packet->GetSize(), longestHeaders));
    std::array<uint8_t, 256> small;
    std::vector<uint8_t> large;
    uint8_t* bytes = small.data();
    if (head > small.size())
    {
        large.resize(head);
        bytes = large.data();
    }
    packet->CopyData(bytes, head);
    return Compute(bytes, head, packet->GetSize() - head);
}

uint32_t
RoceIcrcTrailer::Compute(Ptr<const Packet> packet)
{
    if (!packet)
    {
        NS_LOG_WARN("no packet to compute a RoCEv2 ICRC over");
        return 0;
    }
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    return Compute(bytes.data(), static_cast<uint32_t>(bytes.size()));
}

uint32_t
RoceIcrcTrailer::Patch(uint32_t icrc,
                       const uint8_t* before,
                       const uint8_t* after,
                       uint32_t length,
                       uint64_t bytesAfter)
{
    // CRC(M xor D) = CRC(M) xor L(D) for messages of one length, where L is the register map
    // from zero with no final complement; D is zero but for the changed range, and zero bytes
    // before it leave a zero register as it is.
    constexpr uint32_t CHUNK = 64;
    uint8_t delta[CHUNK];
    uint32_t reg = 0;
    for (uint32_t done = 0; done < length; done += CHUNK)
    {
        uint32_t n = std::min(CHUNK, length - done);
        for (uint32_t k = 0; k < n; ++k)
        {
            delta[k] = before[done + k] ^ after[done + k];
        }
        reg = Crc32Ieee::Update(reg, delta, n);
    }
    return icrc ^ Crc32Ieee::Update(reg, nullptr, 0, bytesAfter);
}

bool
RoceIcrcTrailer::Verify(Ptr<const Packet> packet)
{
    if (!packet ||
        packet->GetSize() < IPV4_MIN_HEADER_SIZE + UDP_HEADER_SIZE + BTH_SIZE + ICRC_SIZE)
    {
        NS_LOG_WARN("packet too short to be a RoCEv2 packet with an ICRC");
        return false;
    }
    std::vector<uint8_t> bytes(packet->GetSize());
    packet->CopyData(bytes.data(), bytes.size());
    const uint32_t covered = static_cast<uint32_t>(bytes.size()) - ICRC_SIZE;
    uint32_t expected = 0;
    if (!ComputeIcrc(bytes.data(), covered, expected))
    {
        return false;
    }
    const uint32_t received = static_cast<uint32_t>(bytes[covered]) |
                              (static_cast<uint32_t>(bytes[covered + 1]) << 8) |
                              (static_cast<uint32_t>(bytes[covered + 2]) << 16) |
                              (static_cast<uint32_t>(bytes[covered + 3]) << 24);
    NS_LOG_LOGIC("ICRC received 0x" << std::hex << received << ", computed 0x" << expected);
    return received == expected;
}

void
RoceIcrcTrailer::Print(std::ostream& os) const
{
    const auto flags = os.flags();
    os << "ICRC=0x" << std::hex << std::setw(8) << std::setfill('0') << m_icrc;
    os.flags(flags);
}

uint32_t
RoceIcrcTrailer::GetSerializedSize() const
{
    return ICRC_SIZE;
}

void
RoceIcrcTrailer::Serialize(Buffer::Iterator end) const
{
    Buffer::Iterator i = end;
    i.Prev(ICRC_SIZE);
    // Byte by byte, least significant first (the Lsb helpers of Buffer are deprecated in 3.48).
    for (uint32_t shift = 0; shift < 32; shift += 8)
    {
        i.WriteU8(static_cast<uint8_t>(m_icrc >> shift));
    }
}

uint32_t
RoceIcrcTrailer::Deserialize(Buffer::Iterator end)
{
    if (end.GetSize() < ICRC_SIZE)
    {
        NS_LOG_WARN("buffer of " << end.GetSize() << " bytes cannot hold a RoCEv2 ICRC");
        m_icrc = 0;
        return 0;
    }
    Buffer::Iterator i = end;
    i.Prev(ICRC_SIZE);
    m_icrc = 0;
    for (uint32_t shift = 0; shift < 32; shift += 8)
    {
        m_icrc |= static_cast<uint32_t>(i.ReadU8()) << shift;
    }
    return ICRC_SIZE;
}

} // namespace ns3
