/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "pfc-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PfcHeader");

NS_OBJECT_ENSURE_REGISTERED(PfcHeader);

namespace
{

/// Number of reserved zero bytes that pad the body to BODY_SIZE.
constexpr uint32_t PAD_SIZE = PfcHeader::BODY_SIZE - 2 - 2 - 2 * PfcHeader::NUM_PRIORITIES;

static_assert(PAD_SIZE == 26, "a PFC body is 2 + 2 + 16 + 26 bytes");

/**
 * Compute a * b / c in exact integer arithmetic, with a 128-bit intermediate product.
 * @param a first factor.
 * @param b second factor.
 * @param c divisor, not zero.
 * @param roundUp round the quotient up instead of down.
 * @return the quotient, or the largest uint64_t if it does not fit.
 */
uint64_t
MulDiv(uint64_t a, uint64_t b, uint64_t c, bool roundUp)
{
    const uint64_t mask = 0xFFFFFFFFULL;
    const uint64_t aLow = a & mask;
    const uint64_t aHigh = a >> 32;
    const uint64_t bLow = b & mask;
    const uint64_t bHigh = b >> 32;
    const uint64_t lowLow = aLow * bLow;
    const uint64_t lowHigh = aLow * bHigh;
    const uint64_t highLow = aHigh * bLow;
    const uint64_t highHigh = aHigh * bHigh;
    const uint64_t middle = (lowLow >> 32) + (lowHigh & mask) + (highLow & mask);
    const uint64_t productLow = (lowLow & mask) | (middle << 32);
    const uint64_t productHigh = highHigh + (lowHigh >> 32) + (highLow >> 32) + (middle >> 32);

    if (productHigh >= c)
    {
        return std::numeric_limits<uint64_t>::max();
    }
    // Binary long division of (productHigh:productLow) by c; the remainder of the high word
    // is the high word itself because it is smaller than c.
    uint64_t remainder = productHigh;
    uint64_t quotient = 0;
    for (int bit = 63; bit >= 0; --bit)
    {
        const bool carry = (remainder >> 63) != 0;
        remainder = (remainder << 1) | ((productLow >> bit) & 1);
        quotient <<= 1;
        if (carry || remainder >= c)
        {
            remainder -= c; // modulo 2^64, exact since the true difference is below c
            quotient |= 1;
        }
    }
    if (roundUp && remainder != 0)
    {
        if (quotient == std::numeric_limits<uint64_t>::max())
        {
            return quotient;
        }
        ++quotient;
    }
    return quotient;
}

} // namespace

TypeId
PfcHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PfcHeader")
                            .SetParent<Header>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<PfcHeader>();
    return tid;
}

TypeId
PfcHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

PfcHeader::PfcHeader()
    : m_opcode(OPCODE),
      m_classEnableVector(0)
{
    m_pauseQuanta.fill(0);
}

Mac48Address
PfcHeader::GetPfcDestination()
{
    return Mac48Address("01:80:c2:00:00:01");
}

void
PfcHeader::CheckPriority(uint8_t priority)
{
    NS_ABORT_MSG_IF(priority >= NUM_PRIORITIES,
                    "PFC priority " << static_cast<uint32_t>(priority) << " is not in 0..7");
}

void
PfcHeader::SetPauseTime(uint8_t priority, uint16_t quanta)
{
    CheckPriority(priority);
    m_classEnableVector |= static_cast<uint8_t>(1U << priority);
    m_pauseQuanta[priority] = quanta;
}

void
PfcHeader::SetResume(uint8_t priority)
{
    SetPauseTime(priority, 0);
}

void
PfcHeader::ClearPriority(uint8_t priority)
{
    CheckPriority(priority);
    m_classEnableVector &= static_cast<uint8_t>(~(1U << priority));
    m_pauseQuanta[priority] = 0;
}

uint16_t
PfcHeader::GetPauseTime(uint8_t priority) const
{
    CheckPriority(priority);
    return m_pauseQuanta[priority];
}

bool
PfcHeader::IsEnabled(uint8_t priority) const
{
    CheckPriority(priority);
    return ((m_classEnableVector >> priority) & 1) != 0;
}

uint8_t
PfcHeader::GetClassEnableVector() const
{
    return m_classEnableVector;
}

void
PfcHeader::SetClassEnableVector(uint8_t vector)
{
    m_classEnableVector = vector;
}

uint16_t
PfcHeader::GetOpcode() const
{
    return m_opcode;
}

bool
PfcHeader::IsValid() const
{
    return m_opcode == OPCODE;
}

Time
PfcHeader::QuantaToTime(uint16_t quanta, DataRate rate)
{
    const uint64_t bitRate = rate.GetBitRate();
    NS_ABORT_MSG_IF(bitRate == 0, "PFC pause quanta need a non-zero port rate");
    const uint64_t bits = static_cast<uint64_t>(quanta) * QUANTUM_BITS;
    // Use the finest unit whose count fits in a Time; Time::FromInteger truncates to the
    // simulator's resolution, so the result is always rounded down.
    const uint64_t fs = MulDiv(bits, 1000000000000000ULL, bitRate, false);
    if (fs <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    {
        return Time::FromInteger(fs, Time::FS);
    }
    const uint64_t ps = MulDiv(bits, 1000000000000ULL, bitRate, false);
    if (ps <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    {
        return Time::FromInteger(ps, Time::PS);
    }
    return Time::FromInteger(MulDiv(bits, 1000000000ULL, bitRate, false), Time::NS);
}

uint16_t
PfcHeader::TimeToQuanta(Time t, DataRate rate)
{
    const uint64_t bitRate = rate.GetBitRate();
    NS_ABORT_MSG_IF(bitRate == 0, "PFC pause quanta need a non-zero port rate");
    if (!t.IsStrictlyPositive())
    {
        return 0;
    }
    // bits = ceil(t * rate); quanta = ceil(bits / 512) (ceil(ceil(x) / n) == ceil(x / n)).
    // Femtoseconds are exact at any resolution down to 1 fs; they overflow an int64_t beyond
    // about 9223 s, which is then measured in picoseconds instead.
    uint64_t bits;
    if (t < Seconds(9000))
    {
        bits =
            MulDiv(static_cast<uint64_t>(t.GetFemtoSeconds()), bitRate, 1000000000000000ULL, true);
    }
    else
    {
        bits = MulDiv(static_cast<uint64_t>(t.GetPicoSeconds()), bitRate, 1000000000000ULL, true);
    }
    const uint64_t quanta = bits / QUANTUM_BITS + ((bits % QUANTUM_BITS) != 0 ? 1 : 0);
    if (quanta > MAX_QUANTA)
    {
        return MAX_QUANTA;
    }
    return static_cast<uint16_t>(quanta);
}

void
PfcHeader::Print(std::ostream& os) const
{
    const auto flags = os.flags();
    os << "opcode=0x" << std::hex << std::setw(4) << std::setfill('0') << m_opcode;
    os.flags(flags);
    os << (IsValid() ? " (PFC)" : " (not PFC)") << " enable=0x" << std::hex << std::setw(2)
       << std::setfill('0') << static_cast<uint32_t>(m_classEnableVector);
    os.flags(flags);
    os << " times=[";
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (p > 0)
        {
            os << " ";
        }
        os << static_cast<uint32_t>(p) << ":";
        if (IsEnabled(p))
        {
            os << m_pauseQuanta[p];
        }
        else
        {
            os << "-";
        }
    }
    os << "]";
}

uint32_t
PfcHeader::GetSerializedSize() const
{
    return BODY_SIZE;
}

void
PfcHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteHtonU16(m_opcode);
    i.WriteU8(0); // reserved upper octet of the priority-enable vector
    i.WriteU8(m_classEnableVector);
    for (uint16_t quanta : m_pauseQuanta)
    {
        i.WriteHtonU16(quanta);
    }
    i.WriteU8(0, PAD_SIZE);
}

uint32_t
PfcHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < BODY_SIZE)
    {
        NS_LOG_WARN("a MAC Control body needs " << BODY_SIZE << " bytes, only "
                                                << start.GetRemainingSize() << " left");
        m_opcode = 0; // reserved opcode: IsValid() is false
        m_classEnableVector = 0;
        m_pauseQuanta.fill(0);
        return 0;
    }
    Buffer::Iterator i = start;
    m_opcode = i.ReadNtohU16();
    i.ReadU8(); // reserved upper octet, ignored on receipt
    m_classEnableVector = i.ReadU8();
    for (auto& quanta : m_pauseQuanta)
    {
        quanta = i.ReadNtohU16();
    }
    i.Next(PAD_SIZE);
    if (!IsValid())
    {
        NS_LOG_LOGIC("MAC Control opcode 0x" << std::hex << m_opcode << " is not PFC");
    }
    return BODY_SIZE;
}

} // namespace ns3
