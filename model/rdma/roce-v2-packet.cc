/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-v2-packet.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/log.h"
#include "ns3/udp-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceV2Packet");

void
RoceV2Packet::Encapsulate(Ptr<Packet> packet, const Addressing& addressing)
{
    NS_ABORT_MSG_IF(addressing.dscp > 63, "RoceV2Packet: DSCP " << +addressing.dscp << " > 63");
    uint32_t udpLength =
        RoceIcrcTrailer::UDP_HEADER_SIZE + packet->GetSize() + RoceIcrcTrailer::ICRC_SIZE;
    NS_ABORT_MSG_IF(RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE + udpLength > 0xFFFF,
                    "RoceV2Packet: " << packet->GetSize() << " bytes do not fit one IPv4 packet");

    // The ICRC covers UDP and IPv4, so it is computed once both headers are in place; the UDP
    // length already counts the 4 ICRC bytes.
    UdpHeader udp;
    udp.SetSourcePort(addressing.udpSourcePort);
    udp.SetDestinationPort(UDP_PORT);
    udp.ForcePayloadSize(static_cast<uint16_t>(udpLength));
    packet->AddHeader(udp);

    Ipv4Header ip;
    ip.SetSource(addressing.source);
    ip.SetDestination(addressing.destination);
    ip.SetProtocol(IP_PROTOCOL_UDP);
    ip.SetPayloadSize(static_cast<uint16_t>(udpLength));
    ip.SetTtl(addressing.ttl);
    ip.SetIdentification(addressing.identification);
    ip.SetDontFragment();
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(addressing.dscp));
    ip.SetEcn(addressing.ecn);
    ip.EnableChecksum();
    packet->AddHeader(ip);

    RoceIcrcTrailer icrc;
    icrc.SetIcrc(RoceIcrcTrailer::Compute(packet, addressing.zeroPayloadBytes));
    packet->AddTrailer(icrc);
}

void
RoceV2Packet::AddEthernetHeader(Ptr<Packet> packet,
                                Mac48Address source,
                                Mac48Address destination,
                                uint16_t etherType)
{
    EthernetHeader eth(false);
    eth.SetSource(source);
    eth.SetDestination(destination);
    eth.SetLengthType(etherType);
    packet->AddHeader(eth);
}

} // namespace ns3
