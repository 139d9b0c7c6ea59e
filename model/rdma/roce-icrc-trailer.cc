/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-icrc-trailer.h"

#include "ns3/log.h"

#include <algorithm>
#include <array>
#include <boost/crc.hpp>
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
 * @return false (with a warning) if the bytes are too short to hold IPv4, UDP and BTH headers,
 *         or do not begin with an IPv4 header.
 */
/**
 * Appending zero bytes to a CRC is a linear map of its register. ZeroRuns holds that map for
 * 2^k zero bytes, k = 0..31, as 32x32 bit matrices built from Boost.CRC itself (one column per
 * register bit), so that a run of n zero bytes costs about 32 x log2(n) word operations instead
 * of n table steps. Simulated payloads are mostly zeros (ns-3's virtual bytes), and the ICRC of
 * every packet covers its payload: this keeps the exact CRC affordable.
 */
class ZeroRuns
{
  public:
    /// The register type of boost::crc_32_type.
    using Register = boost::crc_32_type::value_type;

    ZeroRuns()
    {
        // Column j of the one-byte map: the register after one zero byte, starting from bit j.
        for (uint32_t j = 0; j < 32; ++j)
        {
            boost::crc_32_type crc;
            crc.reset(static_cast<Register>(1U << j));
            crc.process_byte(0);
            m_powers[0][j] = crc.get_interim_remainder();
        }
        for (uint32_t k = 1; k < 32; ++k)
        {
            for (uint32_t j = 0; j < 32; ++j)
            {
                m_powers[k][j] = Apply(m_powers[k - 1], m_powers[k - 1][j]);
            }
        }
        // The same maps as tables of the four bytes of the register (the map is linear, so the
        // image of a register is the XOR of the images of its bytes): four lookups per map
        // instead of up to 32 conditional XORs.
        m_tables.resize(32);
        for (uint32_t k = 0; k < 32; ++k)
        {
            for (uint32_t b = 0; b < 4; ++b)
            {
                for (uint32_t x = 0; x < 256; ++x)
                {
                    m_tables[k][b][x] = Apply(m_powers[k], static_cast<Register>(x << (8 * b)));
                }
            }
        }
    }

    /**
     * Advance a CRC over n zero bytes.
     * @param crc the CRC in progress.
     * @param n how many zero bytes.
     */
    void Advance(boost::crc_32_type& crc, uint64_t n) const
    {
        Register reg = crc.get_interim_remainder();
        for (uint32_t k = 0; n != 0; ++k, n >>= 1)
        {
            if (n & 1)
            {
                const auto& t = m_tables[k];
                reg = t[0][reg & 0xFF] ^ t[1][(reg >> 8) & 0xFF] ^ t[2][(reg >> 16) & 0xFF] ^
                      t[3][reg >> 24];
            }
        }
        crc.reset(reg);
    }

  private:
    /**
     * @param matrix a 32x32 bit matrix, column by column.
     * @param v a register value.
     * @return matrix x v over GF(2).
     */
    static Register Apply(const std::array<Register, 32>& matrix, Register v)
    {
        Register out = 0;
        for (uint32_t j = 0; v != 0; ++j, v >>= 1)
        {
            if (v & 1)
            {
                out ^= matrix[j];
            }
        }
        return out;
    }

    std::array<std::array<Register, 32>, 32> m_powers; //!< the map for 2^k zero bytes
    /// m_tables[k][b][x]: the map for 2^k zero bytes applied to byte b of value x.
    std::vector<std::array<std::array<Register, 256>, 4>> m_tables;
};

/**
 * Feed bytes to a CRC, taking runs of zeros through ZeroRuns.
 * @param crc the CRC in progress.
 * @param data the bytes.
 * @param length how many.
 */
void
ProcessBytes(boost::crc_32_type& crc, const uint8_t* data, uint32_t length)
{
    // Below this length a zero run is cheaper through the table than through the matrices.
    constexpr uint32_t MIN_RUN = 64;
    static const ZeroRuns zeroRuns;
    const uint8_t* end = data + length;
    while (data < end)
    {
        const uint8_t* zero = std::find(data, end, 0);
        const uint8_t* nonZero = std::find_if(zero, end, [](uint8_t b) { return b != 0; });
        if (nonZero - zero >= MIN_RUN)
        {
            crc.process_bytes(data, zero - data);
            zeroRuns.Advance(crc, static_cast<uint64_t>(nonZero - zero));
        }
        else
        {
            crc.process_bytes(data, nonZero - data);
        }
        data = nonZero;
    }
}

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

    boost::crc_32_type crc;

    std::array<uint8_t, MASKED_LRH_SIZE> lrh{};
    lrh.fill(MASK);
    crc.process_bytes(lrh.data(), lrh.size());

    std::array<uint8_t, IPV4_MAX_HEADER_SIZE> ipv4{};
    std::copy(ipv4Start, ipv4Start + ipv4HeaderSize, ipv4.begin());
    ipv4[IPV4_TOS_OFFSET] = MASK;
    ipv4[IPV4_TTL_OFFSET] = MASK;
    ipv4[IPV4_CHECKSUM_OFFSET] = MASK;
    ipv4[IPV4_CHECKSUM_OFFSET + 1] = MASK;
    crc.process_bytes(ipv4.data(), ipv4HeaderSize);

    const uint8_t* udpStart = ipv4Start + ipv4HeaderSize;
    std::array<uint8_t, udpSize> udp{};
    std::copy(udpStart, udpStart + udpSize, udp.begin());
    udp[UDP_CHECKSUM_OFFSET] = MASK;
    udp[UDP_CHECKSUM_OFFSET + 1] = MASK;
    crc.process_bytes(udp.data(), udp.size());

    const uint8_t* bthStart = udpStart + udpSize;
    std::array<uint8_t, bthSize> bth{};
    std::copy(bthStart, bthStart + bthSize, bth.begin());
    bth[BTH_FECN_BECN_OFFSET] = MASK;
    crc.process_bytes(bth.data(), bth.size());

    const uint32_t rest = length - ipv4HeaderSize - udpSize - bthSize;
    ProcessBytes(crc, bthStart + bthSize, rest);
    if (zeroBytes > 0)
    {
        static const ZeroRuns zeroRuns;
        zeroRuns.Advance(crc, zeroBytes);
    }

    icrc = crc.checksum();
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
    // Only the bytes before the zero tail are read (headers: a stack buffer usually holds them).
    uint32_t head = packet->GetSize() - zeroTailBytes;
    std::array<uint8_t, 256> small;
    std::vector<uint8_t> large;
    uint8_t* bytes = small.data();
    if (head > small.size())
    {
        large.resize(head);
        bytes = large.data();
    }
    packet->CopyData(bytes, head);
    return Compute(bytes, head, zeroTailBytes);
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
