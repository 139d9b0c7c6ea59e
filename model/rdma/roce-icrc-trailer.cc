/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-icrc-trailer.h"

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
 * The CRC-32 of IEEE 802.3 (polynomial 0x04C11DB7, reflected: 0xEDB88320; initial value and final
 * XOR 0xFFFFFFFF), which the ICRC is, computed on a 32-bit register eight bytes at a time
 * ("slicing by 8": eight 256-entry tables, table k giving the register's change for a byte
 * followed by k zero bytes). The tests check it against Boost.CRC byte by byte.
 */
class Crc32
{
  public:
    /// The register before any byte.
    static constexpr uint32_t INITIAL = 0xFFFFFFFFU;

    Crc32()
    {
        for (uint32_t i = 0; i < 256; ++i)
        {
            uint32_t c = i;
            for (int bit = 0; bit < 8; ++bit)
            {
                c = (c & 1) ? (c >> 1) ^ 0xEDB88320U : c >> 1;
            }
            m_table[0][i] = c;
        }
        for (uint32_t k = 1; k < 8; ++k)
        {
            for (uint32_t i = 0; i < 256; ++i)
            {
                uint32_t prev = m_table[k - 1][i];
                m_table[k][i] = (prev >> 8) ^ m_table[0][prev & 0xFF];
            }
        }
    }

    /**
     * Feed bytes to a register.
     * @param reg the register.
     * @param data the bytes.
     * @param length how many.
     * @return the register after them.
     */
    uint32_t Update(uint32_t reg, const uint8_t* data, size_t length) const
    {
        while (length >= 8)
        {
            uint32_t low =
                reg ^
                (static_cast<uint32_t>(data[0]) | (static_cast<uint32_t>(data[1]) << 8) |
                 (static_cast<uint32_t>(data[2]) << 16) | (static_cast<uint32_t>(data[3]) << 24));
            reg = m_table[7][low & 0xFF] ^ m_table[6][(low >> 8) & 0xFF] ^
                  m_table[5][(low >> 16) & 0xFF] ^ m_table[4][low >> 24] ^ m_table[3][data[4]] ^
                  m_table[2][data[5]] ^ m_table[1][data[6]] ^ m_table[0][data[7]];
            data += 8;
            length -= 8;
        }
        while (length-- > 0)
        {
            reg = (reg >> 8) ^ m_table[0][(reg ^ *data++) & 0xFF];
        }
        return reg;
    }

    /**
     * @param reg the register after the last byte.
     * @return the CRC value.
     */
    static uint32_t Final(uint32_t reg)
    {
        return reg ^ 0xFFFFFFFFU;
    }

  private:
    std::array<std::array<uint32_t, 256>, 8> m_table; //!< the slicing tables
};

/// @return the CRC engine, built once.
const Crc32&
GetCrc32()
{
    static const Crc32 crc;
    return crc;
}

/// A linear map of a CRC register as four tables, one per byte of the register: map[b][x] is
/// the image of byte b holding x.
using ByteMap = std::array<std::array<uint32_t, 256>, 4>;

/**
 * @tparam F a linear map of registers, uint32_t(uint32_t).
 * @param image the map.
 * @return it as a ByteMap.
 */
template <typename F>
ByteMap
MakeByteMap(F image)
{
    ByteMap map;
    for (uint32_t b = 0; b < 4; ++b)
    {
        for (uint32_t x = 0; x < 256; ++x)
        {
            map[b][x] = image(x << (8 * b));
        }
    }
    return map;
}

/**
 * @param map a ByteMap.
 * @param reg a register.
 * @return its image (the map is linear: the XOR of its bytes' images).
 */
uint32_t
ApplyByteMap(const ByteMap& map, uint32_t reg)
{
    return map[0][reg & 0xFF] ^ map[1][(reg >> 8) & 0xFF] ^ map[2][(reg >> 16) & 0xFF] ^
           map[3][reg >> 24];
}

/**
 * Appending zero bytes to a CRC is a linear map of its register. ZeroRuns holds that map for
 * 2^k zero bytes, k = 0..31, as 32x32 bit matrices built from the byte step itself (one column
 * per register bit), kept as tables of the register's four bytes, so that a run of n zero bytes
 * costs four lookups per set bit of n instead of n table steps. Simulated payloads are mostly
 * zeros (ns-3's virtual bytes), and the ICRC of every packet covers its payload: this keeps the
 * exact CRC affordable.
 */
class ZeroRuns
{
  public:
    ZeroRuns()
    {
        // Column j of the one-byte map: the register after one zero byte, starting from bit j.
        std::array<std::array<uint32_t, 32>, 32> powers;
        const uint8_t zero = 0;
        for (uint32_t j = 0; j < 32; ++j)
        {
            powers[0][j] = GetCrc32().Update(1U << j, &zero, 1);
        }
        for (uint32_t k = 1; k < 32; ++k)
        {
            for (uint32_t j = 0; j < 32; ++j)
            {
                powers[k][j] = Apply(powers[k - 1], powers[k - 1][j]);
            }
        }
        // The same maps as tables of the four bytes of the register (the map is linear, so the
        // image of a register is the XOR of the images of its bytes).
        m_tables.reserve(32);
        for (uint32_t k = 0; k < 32; ++k)
        {
            m_tables.push_back(MakeByteMap([&](uint32_t v) { return Apply(powers[k], v); }));
        }
    }

    /**
     * Advance a register over n zero bytes.
     * @param reg the register.
     * @param n how many zero bytes.
     * @return the register after them.
     */
    uint32_t Advance(uint32_t reg, uint64_t n) const
    {
        for (uint32_t k = 0; n != 0; ++k, n >>= 1)
        {
            if (n & 1)
            {
                reg = ApplyByteMap(m_tables[k], reg);
            }
        }
        return reg;
    }

  private:
    /**
     * @param matrix a 32x32 bit matrix, column by column.
     * @param v a register value.
     * @return matrix x v over GF(2).
     */
    static uint32_t Apply(const std::array<uint32_t, 32>& matrix, uint32_t v)
    {
        uint32_t out = 0;
        for (uint32_t j = 0; v != 0; ++j, v >>= 1)
        {
            if (v & 1)
            {
                out ^= matrix[j];
            }
        }
        return out;
    }

    /// m_tables[k][b][x]: the map for 2^k zero bytes applied to byte b of value x.
    std::vector<ByteMap> m_tables;
};

/// @return the zero-run maps, built once.
const ZeroRuns&
GetZeroRuns()
{
    static const ZeroRuns zeroRuns;
    return zeroRuns;
}

/**
 * The map of one run length that keeps coming (a payload of the MTU's size, packet after
 * packet) as four tables of the register's bytes: four lookups instead of four per set bit of
 * the length. Building the tables costs about a thousand ZeroRuns::Advance, so a length gets
 * them only once it has missed REBUILD_AFTER times since the last length that missed: a
 * message's last, shorter packet does not replace the table of the full ones, and lengths that
 * take turns do not rebuild it each time. One per thread.
 */
class RepeatedZeroRun
{
  public:
    /**
     * Advance a register over n zero bytes, as ZeroRuns::Advance.
     * @param reg the register.
     * @param n how many zero bytes.
     * @return the register after them.
     */
    uint32_t Advance(uint32_t reg, uint64_t n)
    {
        if (n == 0)
        {
            return reg;
        }
        if (n != m_tableLength)
        {
            m_misses = (n == m_missedLength) ? m_misses + 1 : 1;
            m_missedLength = n;
            if (m_misses < REBUILD_AFTER)
            {
                return GetZeroRuns().Advance(reg, n);
            }
            m_table = MakeByteMap([n](uint32_t v) { return GetZeroRuns().Advance(v, n); });
            m_tableLength = n;
            m_misses = 0;
        }
        return ApplyByteMap(m_table, reg);
    }

  private:
    /// Misses of one length that give it the tables.
    static constexpr uint32_t REBUILD_AFTER = 64;

    ByteMap m_table{};          //!< the map of m_tableLength zeros
    uint64_t m_tableLength{0};  //!< the length m_table is for (0: none; 0 needs no table)
    uint64_t m_missedLength{0}; //!< the length that missed last
    uint32_t m_misses{0};       //!< its misses since another length missed
};

/// @return this thread's table of the repeated zero-run length.
RepeatedZeroRun&
GetRepeatedZeroRun()
{
    static thread_local RepeatedZeroRun run;
    return run;
}

/**
 * Feed bytes to a CRC register, taking runs of zeros through ZeroRuns.
 * @param reg the register.
 * @param data the bytes.
 * @param length how many.
 * @return the register after them.
 */
uint32_t
ProcessBytes(uint32_t reg, const uint8_t* data, uint32_t length)
{
    // Below this length a zero run is cheaper through the table than through the maps.
    constexpr uint32_t MIN_RUN = 64;
    const uint8_t* end = data + length;
    while (data < end)
    {
        const uint8_t* zero = std::find(data, end, 0);
        const uint8_t* nonZero = std::find_if(zero, end, [](uint8_t b) { return b != 0; });
        if (nonZero - zero >= MIN_RUN)
        {
            reg = GetCrc32().Update(reg, data, zero - data);
            reg = GetZeroRuns().Advance(reg, static_cast<uint64_t>(nonZero - zero));
        }
        else
        {
            reg = GetCrc32().Update(reg, data, nonZero - data);
        }
        data = nonZero;
    }
    return reg;
}

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
    uint32_t reg = GetCrc32().Update(Crc32::INITIAL, masked.data(), MASKED_LRH_SIZE + headers);
    reg = ProcessBytes(reg, ipv4Start + headers, length - headers);
    reg = GetRepeatedZeroRun().Advance(reg, zeroBytes);
    icrc = Crc32::Final(reg);
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
        reg = GetCrc32().Update(reg, delta, n);
    }
    return icrc ^ GetZeroRuns().Advance(reg, bytesAfter);
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
