/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-v2-packet.h"

#include "ns3/abort.h"
#include "ns3/ethernet-header.h"
#include "ns3/frame-prefix-header.h"
#include "ns3/log.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceV2Packet");

namespace
{

/**
 * Write the IPv4 header (20 bytes, no options) and the UDP header of a RoCEv2 packet, in the
 * form ns-3's Ipv4Header and UdpHeader serialize them: Don't Fragment, a valid header checksum
 * (RFC 791, RFC 1071), a zero UDP checksum (as RoCEv2 NICs send it).
 * @param out where to write the 28 bytes.
 * @param a the fields the sender chooses.
 * @param transportSize the bytes after the UDP header (transport headers, payload, ICRC).
 */
void
WriteIpv4Udp(uint8_t* out, const RoceV2Packet::Addressing& a, uint32_t transportSize)
{
    NS_ABORT_MSG_IF(a.dscp > 63, "RoceV2Packet: DSCP " << +a.dscp << " > 63");
    uint32_t udpLength = RoceIcrcTrailer::UDP_HEADER_SIZE + transportSize;
    NS_ABORT_MSG_IF(RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE + udpLength > 0xFFFF,
                    "RoceV2Packet: " << transportSize << " bytes do not fit one IPv4 packet");
    uint32_t totalLength = RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE + udpLength;
    uint32_t source = a.source.Get();
    uint32_t destination = a.destination.Get();
    const uint8_t ip[RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE] = {
        0x45, // version 4, 5 words
        static_cast<uint8_t>((a.dscp << 2) | (static_cast<uint8_t>(a.ecn) & 0x03)),
        static_cast<uint8_t>(totalLength >> 8),
        static_cast<uint8_t>(totalLength & 0xFF),
        static_cast<uint8_t>(a.identification >> 8),
        static_cast<uint8_t>(a.identification & 0xFF),
        0x40, // flags: Don't Fragment; fragment offset 0
        0x00,
        a.ttl,
        RoceV2Packet::IP_PROTOCOL_UDP,
        0x00, // header checksum, SetIpv4Checksum
        0x00,
        static_cast<uint8_t>(source >> 24),
        static_cast<uint8_t>((source >> 16) & 0xFF),
        static_cast<uint8_t>((source >> 8) & 0xFF),
        static_cast<uint8_t>(source & 0xFF),
        static_cast<uint8_t>(destination >> 24),
        static_cast<uint8_t>((destination >> 16) & 0xFF),
        static_cast<uint8_t>((destination >> 8) & 0xFF),
        static_cast<uint8_t>(destination & 0xFF),
    };
    std::copy(std::begin(ip), std::end(ip), out);
    FramePrefixHeader::SetIpv4Checksum(out);
    uint8_t* udp = out + RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE;
    udp[0] = static_cast<uint8_t>(a.udpSourcePort >> 8);
    udp[1] = static_cast<uint8_t>(a.udpSourcePort & 0xFF);
    udp[2] = static_cast<uint8_t>(RoceV2Packet::UDP_PORT >> 8);
    udp[3] = static_cast<uint8_t>(RoceV2Packet::UDP_PORT & 0xFF);
    udp[4] = static_cast<uint8_t>(udpLength >> 8);
    udp[5] = static_cast<uint8_t>(udpLength & 0xFF);
    udp[6] = 0x00; // checksum: none
    udp[7] = 0x00;
}

} // namespace

void
RoceV2Packet::Encapsulate(const Ptr<Packet>& packet, const Addressing& addressing)
{
    // The ICRC covers UDP and IPv4, so it is computed once both headers are in place; the UDP
    // length already counts the 4 ICRC bytes.
    FramePrefixHeader headers(IPV4_UDP_SIZE);
    WriteIpv4Udp(headers.GetBytes(), addressing, packet->GetSize() + RoceIcrcTrailer::ICRC_SIZE);
    packet->AddHeader(headers);
    packet->AddTrailer(
        RoceIcrcTrailer(RoceIcrcTrailer::Compute(packet, addressing.zeroPayloadBytes)));
}

void
RoceV2Packet::Encapsulate(const Ptr<Packet>& packet,
                          const Addressing& addressing,
                          const uint8_t* transport,
                          uint32_t transportSize,
                          const uint8_t* ethernet)
{
    NS_ABORT_MSG_IF(transportSize == 0 || transportSize > MAX_TRANSPORT_HEADERS,
                    "RoceV2Packet: " << transportSize << " bytes of transport headers, not 1.."
                                     << MAX_TRANSPORT_HEADERS);
    uint32_t after = packet->GetSize();
    uint32_t l2 = ethernet ? ETHERNET_HEADER_SIZE : 0;
    // One header and one trailer object for every packet, every byte of them written below:
    // an ns-3 Header's and Trailer's destructor chains are out of line and logged (about 120
    // instructions a packet). The simulation runs on one thread, and nothing keeps the objects
    // beyond AddHeader and AddTrailer.
    static FramePrefixHeader headers;
    static RoceIcrcTrailer trailer;
    headers.SetSize(l2 + IPV4_UDP_SIZE + transportSize);
    uint8_t* bytes = headers.GetBytes();
    if (ethernet)
    {
        std::copy(ethernet, ethernet + ETHERNET_HEADER_SIZE, bytes);
    }
    uint8_t* ip = bytes + l2;
    WriteIpv4Udp(ip, addressing, transportSize + after + RoceIcrcTrailer::ICRC_SIZE);
    uint32_t headerBytes = IPV4_UDP_SIZE + transportSize;
    std::copy(transport, transport + transportSize, ip + IPV4_UDP_SIZE);
    // The ICRC covers the headers from IPv4 on, read here from memory, and the packet: its
    // known zeros are skipped (RoceIcrcTrailer::Compute with zero bytes), the bytes before them
    // (telemetry an ACK echoes, say) read after the headers. A count of zeros above the
    // packet's size is not trusted: everything is read.
    uint32_t zeros = addressing.zeroPayloadBytes <= after ? addressing.zeroPayloadBytes : 0;
    uint32_t icrc;
    if (zeros == after)
    {
        icrc = RoceIcrcTrailer::Compute(ip, headerBytes, after);
    }
    else
    {
        std::vector<uint8_t> read(headerBytes + after - zeros);
        std::copy(ip, ip + headerBytes, read.begin());
        packet->CopyData(read.data() + headerBytes, after - zeros);
        icrc = RoceIcrcTrailer::Compute(read.data(), static_cast<uint32_t>(read.size()), zeros);
    }
    packet->AddHeader(headers);
    trailer.SetIcrc(icrc);
    packet->AddTrailer(trailer);
}

void
RoceV2Packet::WarmPacketBuffers()
{
    static bool warmed = false;
    if (warmed)
    {
        return;
    }
    warmed = true;
    // ns-3's Buffer (buffer.cc): a buffer freed goes back to the list only if it is at least
    // as large as the largest freed so far, and the list keeps up to 1001; a new packet takes
    // the list's last buffer whatever its size, and starts its bytes as far in as the most
    // header bytes any freed packet had in front of its zeros. One packet freed first makes
    // WARM_BUFFER_SIZE that largest size, so that the smaller buffers made on the way to the
    // others are not kept; each packet holds WARM_HEADER_ROOM bytes, then its zeros (none),
    // then the rest of WARM_BUFFER_SIZE.
    std::vector<uint8_t> front(WARM_HEADER_ROOM, 0);
    auto make = [&front]() {
        Ptr<Packet> p = Create<Packet>(front.data(), WARM_HEADER_ROOM);
        p->AddPaddingAtEnd(WARM_BUFFER_SIZE - WARM_HEADER_ROOM);
        return p;
    };
    make();
    std::vector<Ptr<Packet>> packets;
    packets.reserve(WARM_BUFFER_COUNT);
    for (uint32_t i = 0; i < WARM_BUFFER_COUNT; ++i)
    {
        packets.push_back(make());
    }
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
