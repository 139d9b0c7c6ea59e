/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "int-stamper.h"

#include "ib-bth-header.h"
#include "roce-icrc-trailer.h"
#include "roce-int-header.h"
#include "roce-v2-packet.h"

#include "ns3/log.h"
#include "ns3/roce-switch.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IntStamper");

NS_OBJECT_ENSURE_REGISTERED(IntStamper);

/// The short name of IntStamper (topology.egress_stages).
static TypeIdAlias g_intStamperAlias("int", "ns3::IntStamper");

namespace
{

/// Offset of the EtherType in an Ethernet frame.
constexpr uint32_t ETHERTYPE_OFFSET = 12;
/// EtherType of an 802.1Q tag.
constexpr uint16_t ETHERTYPE_VLAN = 0x8100;
/// Bytes of an 802.1Q tag.
constexpr uint32_t VLAN_TAG_BYTES = 4;
/// The most bytes before the end of the BTH: Ethernet, a tag, IPv4 with options, UDP, BTH.
constexpr uint32_t MAX_HEAD_BYTES = RoceV2Packet::ETHERNET_HEADER_SIZE + VLAN_TAG_BYTES + 60 +
                                    RoceIcrcTrailer::UDP_HEADER_SIZE + IbBthHeader::SIZE;

} // namespace

TypeId
IntStamper::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IntStamper")
                            .SetParent<EgressStage>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<IntStamper>();
    return tid;
}

IntStamper::IntStamper()
    : m_stamped(0),
      m_overflow(0)
{
    NS_LOG_FUNCTION(this);
}

IntStamper::~IntStamper()
{
    NS_LOG_FUNCTION(this);
}

bool
IntStamper::CarriesTelemetry(Ptr<const Packet> frame)
{
    uint8_t b[MAX_HEAD_BYTES];
    uint32_t n = frame->CopyData(b, sizeof(b));
    uint32_t ip = RoceV2Packet::ETHERNET_HEADER_SIZE;
    if (n < ip)
    {
        return false;
    }
    uint16_t type = static_cast<uint16_t>((b[ETHERTYPE_OFFSET] << 8) | b[ETHERTYPE_OFFSET + 1]);
    if (type == ETHERTYPE_VLAN && n >= ip + VLAN_TAG_BYTES)
    {
        type = static_cast<uint16_t>((b[ETHERTYPE_OFFSET + 4] << 8) | b[ETHERTYPE_OFFSET + 5]);
        ip += VLAN_TAG_BYTES;
    }
    if (type != RoceV2Packet::ETHERTYPE_IPV4 || n < ip + RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE ||
        (b[ip] >> 4) != 4 || b[ip + 9] != RoceV2Packet::IP_PROTOCOL_UDP)
    {
        return false;
    }
    uint32_t udp = ip + (b[ip] & 0x0F) * 4U;
    uint32_t bth = udp + RoceIcrcTrailer::UDP_HEADER_SIZE;
    if (n < bth + IbBthHeader::SIZE ||
        static_cast<uint16_t>((b[udp + 2] << 8) | b[udp + 3]) != RoceV2Packet::UDP_PORT)
    {
        return false;
    }
    return (b[bth + IbBthHeader::TELEMETRY_BYTE] & IbBthHeader::TELEMETRY_FILL_BIT) != 0;
}

bool
IntStamper::AcceptsDeferredTtl() const
{
    return true;
}

void
IntStamper::Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state)
{
    if (!CarriesTelemetry(frame) ||
        frame->GetSize() < RoceIntHeader::SIZE + RoceIcrcTrailer::ICRC_SIZE)
    {
        return;
    }
    RoceIcrcTrailer icrc;
    frame->RemoveTrailer(icrc);
    RoceIntHeader telemetry;
    frame->RemoveTrailer(telemetry);
    const std::array<uint8_t, RoceIntHeader::SIZE> before = telemetry.GetBytes();
    uint64_t wireBytes = sw.GetPort(state.port)->GetTxWireBytes();
    if (telemetry.AddHop(static_cast<uint64_t>(state.now.GetNanoSeconds()),
                         wireBytes,
                         state.queueBytes,
                         state.rate.GetBitRate()))
    {
        ++m_stamped;
    }
    else
    {
        ++m_overflow;
    }
    // The header ends where the ICRC begins: no byte follows the changed ones.
    icrc.SetIcrc(RoceIcrcTrailer::Patch(icrc.GetIcrc(),
                                        before.data(),
                                        telemetry.GetBytes().data(),
                                        RoceIntHeader::SIZE,
                                        0));
    frame->AddTrailer(telemetry);
    frame->AddTrailer(icrc);
}

uint64_t
IntStamper::GetStampedFrames() const
{
    return m_stamped;
}

uint64_t
IntStamper::GetOverflowFrames() const
{
    return m_overflow;
}

} // namespace ns3
