/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-aeth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>
#include <ios>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbAethHeader");

NS_OBJECT_ENSURE_REGISTERED(IbAethHeader);

namespace
{

/// Syndrome bit 7, reserved.
constexpr uint8_t SYNDROME_RESERVED_BIT = 0x80;
/// Shift of the 2-bit type field in the syndrome.
constexpr uint8_t SYNDROME_TYPE_SHIFT = 5;
/// Mask of the type field after shifting.
constexpr uint8_t SYNDROME_TYPE_MASK = 0x03;
/// Mask of the 5-bit value field (credit count, RNR timer or NAK code).
constexpr uint8_t SYNDROME_VALUE_MASK = 0x1F;

/**
 * @param type an AETH type.
 * @param value the 5-bit value field.
 * @return the syndrome byte.
 */
uint8_t
MakeSyndrome(IbAethHeader::AethType type, uint8_t value)
{
    return static_cast<uint8_t>((static_cast<uint8_t>(type) << SYNDROME_TYPE_SHIFT) |
                                (value & SYNDROME_VALUE_MASK));
}

} // namespace

IbAethHeader::IbAethHeader()
    : m_syndrome(MakeSyndrome(AethType::ACK, INVALID_CREDIT)),
      m_msn(0)
{
}

TypeId
IbAethHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbAethHeader")
                            .SetParent<Header>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<IbAethHeader>();
    return tid;
}

TypeId
IbAethHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

std::string
IbAethHeader::TypeName(AethType type)
{
    switch (type)
    {
    case AethType::ACK:
        return "ACK";
    case AethType::RNR_NAK:
        return "RNR_NAK";
    case AethType::NAK:
        return "NAK";
    case AethType::RESERVED:
    default:
        return "RESERVED";
    }
}

std::string
IbAethHeader::NakCodeName(NakCode code)
{
    switch (code)
    {
    case NakCode::PSN_SEQUENCE_ERROR:
        return "PSN_SEQUENCE_ERROR";
    case NakCode::INVALID_REQUEST:
        return "INVALID_REQUEST";
    case NakCode::REMOTE_ACCESS_ERROR:
        return "REMOTE_ACCESS_ERROR";
    case NakCode::REMOTE_OPERATIONAL_ERROR:
        return "REMOTE_OPERATIONAL_ERROR";
    case NakCode::INVALID_RD_REQUEST:
        return "INVALID_RD_REQUEST";
    default:
        return "UNKNOWN";
    }
}

void
IbAethHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    uint32_t value = m_syndrome & SYNDROME_VALUE_MASK;
    os << "syndrome=0x" << std::hex << std::setfill('0') << std::setw(2)
       << static_cast<uint32_t>(m_syndrome) << std::dec << std::setfill(fill) << " "
       << TypeName(GetType());
    switch (GetType())
    {
    case AethType::ACK:
        os << " credit=";
        if (value == INVALID_CREDIT)
        {
            os << "invalid";
        }
        else
        {
            os << value;
        }
        break;
    case AethType::RNR_NAK:
        os << " timer=" << value;
        break;
    case AethType::NAK:
        os << " code=" << NakCodeName(static_cast<NakCode>(value)) << "(" << value << ")";
        break;
    default:
        break;
    }
    os << " msn=" << m_msn;
    os.flags(flags);
}

uint32_t
IbAethHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbAethHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t bytes[SIZE];
    Write(bytes);
    start.Write(bytes, SIZE);
}

uint32_t
IbAethHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        // A truncated header: read nothing (reading on would go past the buffer).
        NS_LOG_WARN("an AETH needs " << SIZE << " bytes, only " << start.GetRemainingSize()
                                     << " left");
        *this = IbAethHeader();
        return 0;
    }
    uint8_t bytes[SIZE];
    start.Read(bytes, SIZE);
    Read(bytes);
    return SIZE;
}

void
IbAethHeader::Write(uint8_t* out) const
{
    out[0] = m_syndrome;
    out[1] = static_cast<uint8_t>((m_msn >> 16) & 0xFF);
    out[2] = static_cast<uint8_t>((m_msn >> 8) & 0xFF);
    out[3] = static_cast<uint8_t>(m_msn & 0xFF);
}

void
IbAethHeader::Read(const uint8_t* in)
{
    m_syndrome = in[0];
    m_msn = (static_cast<uint32_t>(in[1]) << 16) | (static_cast<uint32_t>(in[2]) << 8) | in[3];
}

void
IbAethHeader::SetAck(uint8_t creditCount)
{
    NS_ABORT_MSG_IF(creditCount > MAX_SYNDROME_VALUE,
                    "AETH credit count " << static_cast<uint32_t>(creditCount) << " exceeds 0x1F");
    m_syndrome = MakeSyndrome(AethType::ACK, creditCount);
}

void
IbAethHeader::SetNak(NakCode code)
{
    NS_ABORT_MSG_IF(static_cast<uint8_t>(code) > MAX_SYNDROME_VALUE,
                    "AETH NAK code " << static_cast<uint32_t>(code) << " exceeds 0x1F");
    m_syndrome = MakeSyndrome(AethType::NAK, static_cast<uint8_t>(code));
}

void
IbAethHeader::SetRnrNak(uint8_t timer)
{
    NS_ABORT_MSG_IF(timer > MAX_SYNDROME_VALUE,
                    "AETH RNR timer " << static_cast<uint32_t>(timer) << " exceeds 0x1F");
    m_syndrome = MakeSyndrome(AethType::RNR_NAK, timer);
}

IbAethHeader::AethType
IbAethHeader::GetType() const
{
    return static_cast<AethType>((m_syndrome >> SYNDROME_TYPE_SHIFT) & SYNDROME_TYPE_MASK);
}

bool
IbAethHeader::IsAck() const
{
    return GetType() == AethType::ACK;
}

bool
IbAethHeader::IsNak() const
{
    return GetType() == AethType::NAK;
}

bool
IbAethHeader::IsRnrNak() const
{
    return GetType() == AethType::RNR_NAK;
}

IbAethHeader::NakCode
IbAethHeader::GetNakCode() const
{
    NS_ABORT_MSG_IF(!IsNak(), "AETH is not a NAK: " << TypeName(GetType()));
    return static_cast<NakCode>(m_syndrome & SYNDROME_VALUE_MASK);
}

uint8_t
IbAethHeader::GetCreditCount() const
{
    NS_ABORT_MSG_IF(!IsAck(), "AETH is not an ACK: " << TypeName(GetType()));
    return m_syndrome & SYNDROME_VALUE_MASK;
}

uint8_t
IbAethHeader::GetRnrTimer() const
{
    NS_ABORT_MSG_IF(!IsRnrNak(), "AETH is not an RNR NAK: " << TypeName(GetType()));
    return m_syndrome & SYNDROME_VALUE_MASK;
}

void
IbAethHeader::SetMsn(uint32_t msn)
{
    NS_ABORT_MSG_IF(msn > MAX_MSN, "AETH MSN " << msn << " does not fit in 24 bits");
    m_msn = msn;
}

uint32_t
IbAethHeader::GetMsn() const
{
    return m_msn;
}

void
IbAethHeader::SetSyndrome(uint8_t syndrome)
{
    NS_ABORT_MSG_IF((syndrome & SYNDROME_RESERVED_BIT) != 0,
                    "AETH syndrome 0x" << std::hex << static_cast<uint32_t>(syndrome)
                                       << " has reserved bit 7 set");
    NS_ABORT_MSG_IF(((syndrome >> SYNDROME_TYPE_SHIFT) & SYNDROME_TYPE_MASK) ==
                        static_cast<uint8_t>(AethType::RESERVED),
                    "AETH syndrome 0x" << std::hex << static_cast<uint32_t>(syndrome)
                                       << " has the reserved type 10");
    m_syndrome = syndrome;
}

uint8_t
IbAethHeader::GetSyndrome() const
{
    return m_syndrome;
}

} // namespace ns3
