/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-bth-header.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <iomanip>
#include <ios>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbBthHeader");

NS_OBJECT_ENSURE_REGISTERED(IbBthHeader);

namespace
{

/// Byte 1: Solicited Event bit.
constexpr uint8_t BYTE1_SE = 0x80;
/// Byte 1: MigReq bit.
constexpr uint8_t BYTE1_MIGREQ = 0x40;
/// Byte 1: shift of the 2-bit Pad Count.
constexpr uint8_t BYTE1_PADCNT_SHIFT = 4;
/// Byte 1: mask of the Pad Count after shifting.
constexpr uint8_t PADCNT_MASK = 0x03;
/// Byte 1: mask of the 4-bit Transport header Version.
constexpr uint8_t TVER_MASK = 0x0F;
/// Byte 4 (RoCEv2): FECN bit.
constexpr uint8_t BYTE4_FECN = 0x80;
/// Byte 4 (RoCEv2): BECN bit.
constexpr uint8_t BYTE4_BECN = 0x40;
/// Byte 8: Acknowledge Request bit.
constexpr uint8_t BYTE8_ACKREQ = 0x80;
/// Byte 8, bits 4-0: reserved by the IBTA, the hop echo of llm-fabric's ACKs.
constexpr uint8_t BYTE8_HOP_ECHO = 0x1F;

/**
 * Write a 24-bit value, most significant byte first.
 * @param out where to write its three bytes.
 * @param value the value (its low 24 bits).
 */
void
WriteU24(uint8_t* out, uint32_t value)
{
    out[0] = static_cast<uint8_t>((value >> 16) & 0xFF);
    out[1] = static_cast<uint8_t>((value >> 8) & 0xFF);
    out[2] = static_cast<uint8_t>(value & 0xFF);
}

/**
 * Read a 24-bit big-endian value.
 * @param in its three bytes.
 * @return the value.
 */
uint32_t
ReadU24(const uint8_t* in)
{
    return (static_cast<uint32_t>(in[0]) << 16) | (static_cast<uint32_t>(in[1]) << 8) | in[2];
}

} // namespace

IbBthHeader::IbBthHeader()
    : m_opcode(0),
      m_solicitedEvent(false),
      m_migReq(false),
      m_padCount(0),
      m_tver(0),
      m_partitionKey(DEFAULT_PARTITION_KEY),
      m_fecn(false),
      m_becn(false),
      m_destQp(0),
      m_ackRequest(false),
      m_telemetryFill(false),
      m_telemetryEcho(false),
      m_hopEcho(0),
      m_psn(0)
{
}

TypeId
IbBthHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbBthHeader")
                            .SetParent<Header>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<IbBthHeader>();
    return tid;
}

TypeId
IbBthHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

bool
IbBthHeader::HasReth(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_RDMA_WRITE_FIRST:
    case RC_RDMA_WRITE_ONLY:
    case RC_RDMA_WRITE_ONLY_IMM:
    case RC_RDMA_READ_REQUEST:
        return true;
    default:
        return false;
    }
}

bool
IbBthHeader::HasAeth(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_ACKNOWLEDGE:
    case RC_RDMA_READ_RESPONSE_FIRST:
    case RC_RDMA_READ_RESPONSE_LAST:
    case RC_RDMA_READ_RESPONSE_ONLY:
        return true;
    default:
        return false;
    }
}

std::string
IbBthHeader::OpcodeName(uint8_t opcode)
{
    switch (opcode)
    {
    case RC_SEND_FIRST:
        return "RC_SEND_FIRST";
    case RC_SEND_MIDDLE:
        return "RC_SEND_MIDDLE";
    case RC_SEND_LAST:
        return "RC_SEND_LAST";
    case RC_SEND_LAST_IMM:
        return "RC_SEND_LAST_IMM";
    case RC_SEND_ONLY:
        return "RC_SEND_ONLY";
    case RC_SEND_ONLY_IMM:
        return "RC_SEND_ONLY_IMM";
    case RC_RDMA_WRITE_FIRST:
        return "RC_RDMA_WRITE_FIRST";
    case RC_RDMA_WRITE_MIDDLE:
        return "RC_RDMA_WRITE_MIDDLE";
    case RC_RDMA_WRITE_LAST:
        return "RC_RDMA_WRITE_LAST";
    case RC_RDMA_WRITE_LAST_IMM:
        return "RC_RDMA_WRITE_LAST_IMM";
    case RC_RDMA_WRITE_ONLY:
        return "RC_RDMA_WRITE_ONLY";
    case RC_RDMA_WRITE_ONLY_IMM:
        return "RC_RDMA_WRITE_ONLY_IMM";
    case RC_RDMA_READ_REQUEST:
        return "RC_RDMA_READ_REQUEST";
    case RC_RDMA_READ_RESPONSE_FIRST:
        return "RC_RDMA_READ_RESPONSE_FIRST";
    case RC_RDMA_READ_RESPONSE_MIDDLE:
        return "RC_RDMA_READ_RESPONSE_MIDDLE";
    case RC_RDMA_READ_RESPONSE_LAST:
        return "RC_RDMA_READ_RESPONSE_LAST";
    case RC_RDMA_READ_RESPONSE_ONLY:
        return "RC_RDMA_READ_RESPONSE_ONLY";
    case RC_ACKNOWLEDGE:
        return "RC_ACKNOWLEDGE";
    case CNP:
        return "CNP";
    default:
        return "UNKNOWN";
    }
}

void
IbBthHeader::Print(std::ostream& os) const
{
    std::ios_base::fmtflags flags = os.flags();
    char fill = os.fill();
    os << "opcode=" << OpcodeName(m_opcode) << "(0x" << std::hex << std::setfill('0')
       << std::setw(2) << static_cast<uint32_t>(m_opcode) << ")"
       << " pkey=0x" << std::setw(4) << m_partitionKey << " destqp=0x" << std::setw(6) << m_destQp
       << std::dec << std::setfill(fill) << " psn=" << m_psn << " A=" << m_ackRequest
       << " SE=" << m_solicitedEvent << " M=" << m_migReq
       << " padcnt=" << static_cast<uint32_t>(m_padCount)
       << " tver=" << static_cast<uint32_t>(m_tver) << " FECN=" << m_fecn << " BECN=" << m_becn;
    if (m_telemetryFill || m_telemetryEcho)
    {
        os << " INT=" << (m_telemetryFill ? "fill" : "") << (m_telemetryEcho ? "echo" : "");
    }
    if (m_hopEcho != 0)
    {
        os << " hops=" << static_cast<uint32_t>(m_hopEcho);
    }
    os.flags(flags);
}

uint32_t
IbBthHeader::GetSerializedSize() const
{
    return SIZE;
}

void
IbBthHeader::Serialize(Buffer::Iterator start) const
{
    uint8_t bytes[SIZE];
    Write(bytes);
    start.Write(bytes, SIZE);
}

void
IbBthHeader::Write(uint8_t* out) const
{
    out[0] = m_opcode;
    uint8_t byte1 = static_cast<uint8_t>(((m_padCount & PADCNT_MASK) << BYTE1_PADCNT_SHIFT) |
                                         (m_tver & TVER_MASK));
    if (m_solicitedEvent)
    {
        byte1 |= BYTE1_SE;
    }
    if (m_migReq)
    {
        byte1 |= BYTE1_MIGREQ;
    }
    out[1] = byte1;
    out[2] = static_cast<uint8_t>(m_partitionKey >> 8);
    out[3] = static_cast<uint8_t>(m_partitionKey & 0xFF);
    uint8_t byte4 = 0;
    if (m_fecn)
    {
        byte4 |= BYTE4_FECN;
    }
    if (m_becn)
    {
        byte4 |= BYTE4_BECN;
    }
    out[4] = byte4;
    WriteU24(out + 5, m_destQp);
    uint8_t byte8 = m_ackRequest ? BYTE8_ACKREQ : 0;
    byte8 |= m_telemetryFill ? TELEMETRY_FILL_BIT : 0;
    byte8 |= m_telemetryEcho ? TELEMETRY_ECHO_BIT : 0;
    byte8 |= m_hopEcho & BYTE8_HOP_ECHO;
    out[8] = byte8;
    WriteU24(out + 9, m_psn);
}

void
IbBthHeader::SetHopEcho(uint8_t hops)
{
    NS_ABORT_MSG_IF(hops > BYTE8_HOP_ECHO, "IbBthHeader: hop echo " << +hops << " > 31");
    m_hopEcho = hops;
}

uint8_t
IbBthHeader::GetHopEcho() const
{
    return m_hopEcho;
}

uint32_t
IbBthHeader::Deserialize(Buffer::Iterator start)
{
    if (start.GetRemainingSize() < SIZE)
    {
        // A truncated header: read nothing (reading on would go past the buffer).
        NS_LOG_WARN("a BTH needs " << SIZE << " bytes, only " << start.GetRemainingSize()
                                   << " left");
        *this = IbBthHeader();
        return 0;
    }
    uint8_t bytes[SIZE];
    start.Read(bytes, SIZE);
    Read(bytes);
    return SIZE;
}

void
IbBthHeader::Read(const uint8_t* in)
{
    m_opcode = in[0];
    uint8_t byte1 = in[1];
    m_solicitedEvent = (byte1 & BYTE1_SE) != 0;
    m_migReq = (byte1 & BYTE1_MIGREQ) != 0;
    m_padCount = (byte1 >> BYTE1_PADCNT_SHIFT) & PADCNT_MASK;
    m_tver = byte1 & TVER_MASK;
    m_partitionKey = static_cast<uint16_t>((in[2] << 8) | in[3]);
    uint8_t byte4 = in[4];
    m_fecn = (byte4 & BYTE4_FECN) != 0;
    m_becn = (byte4 & BYTE4_BECN) != 0;
    m_destQp = ReadU24(in + 5);
    uint8_t byte8 = in[8];
    m_ackRequest = (byte8 & BYTE8_ACKREQ) != 0;
    m_telemetryFill = (byte8 & TELEMETRY_FILL_BIT) != 0;
    m_telemetryEcho = (byte8 & TELEMETRY_ECHO_BIT) != 0;
    m_hopEcho = byte8 & BYTE8_HOP_ECHO;
    m_psn = ReadU24(in + 9);
}

void
IbBthHeader::SetOpcode(uint8_t opcode)
{
    m_opcode = opcode;
}

uint8_t
IbBthHeader::GetOpcode() const
{
    return m_opcode;
}

void
IbBthHeader::SetSolicitedEvent(bool solicitedEvent)
{
    m_solicitedEvent = solicitedEvent;
}

bool
IbBthHeader::GetSolicitedEvent() const
{
    return m_solicitedEvent;
}

void
IbBthHeader::SetMigReq(bool migReq)
{
    m_migReq = migReq;
}

bool
IbBthHeader::GetMigReq() const
{
    return m_migReq;
}

void
IbBthHeader::SetPadCount(uint8_t padCount)
{
    NS_ABORT_MSG_IF(padCount > PADCNT_MASK,
                    "BTH Pad Count " << static_cast<uint32_t>(padCount) << " exceeds 3");
    m_padCount = padCount;
}

uint8_t
IbBthHeader::GetPadCount() const
{
    return m_padCount;
}

void
IbBthHeader::SetTransportVersion(uint8_t version)
{
    NS_ABORT_MSG_IF(version > TVER_MASK,
                    "BTH transport version " << static_cast<uint32_t>(version) << " exceeds 15");
    m_tver = version;
}

uint8_t
IbBthHeader::GetTransportVersion() const
{
    return m_tver;
}

void
IbBthHeader::SetPartitionKey(uint16_t partitionKey)
{
    m_partitionKey = partitionKey;
}

uint16_t
IbBthHeader::GetPartitionKey() const
{
    return m_partitionKey;
}

void
IbBthHeader::SetFecn(bool fecn)
{
    m_fecn = fecn;
}

bool
IbBthHeader::GetFecn() const
{
    return m_fecn;
}

void
IbBthHeader::SetBecn(bool becn)
{
    m_becn = becn;
}

bool
IbBthHeader::GetBecn() const
{
    return m_becn;
}

void
IbBthHeader::SetDestQp(uint32_t destQp)
{
    NS_ABORT_MSG_IF(destQp > MAX_24BIT, "BTH DestQP " << destQp << " does not fit in 24 bits");
    m_destQp = destQp;
}

uint32_t
IbBthHeader::GetDestQp() const
{
    return m_destQp;
}

void
IbBthHeader::SetAckRequest(bool ackRequest)
{
    m_ackRequest = ackRequest;
}

bool
IbBthHeader::GetAckRequest() const
{
    return m_ackRequest;
}

void
IbBthHeader::SetTelemetryFill(bool fill)
{
    m_telemetryFill = fill;
}

bool
IbBthHeader::GetTelemetryFill() const
{
    return m_telemetryFill;
}

void
IbBthHeader::SetTelemetryEcho(bool echo)
{
    m_telemetryEcho = echo;
}

bool
IbBthHeader::GetTelemetryEcho() const
{
    return m_telemetryEcho;
}

void
IbBthHeader::SetPsn(uint32_t psn)
{
    NS_ABORT_MSG_IF(psn > MAX_24BIT, "BTH PSN " << psn << " does not fit in 24 bits");
    m_psn = psn;
}

uint32_t
IbBthHeader::GetPsn() const
{
    return m_psn;
}

} // namespace ns3
