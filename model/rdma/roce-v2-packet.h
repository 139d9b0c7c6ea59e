/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_V2_PACKET_H
#define ROCE_V2_PACKET_H

#include "ib-bth-header.h"
#include "ib-reth-header.h"
#include "roce-icrc-trailer.h"

#include "ns3/ecmp-hash.h"
#include "ns3/flow-five-tuple.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/packet.h"
#include "ns3/roce-net-device.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The RoCEv2 encapsulation of an InfiniBand transport packet.
 *
 * A RoCEv2 packet is Ethernet / IPv4 / UDP (destination port 4791) / BTH / extension headers /
 * payload / ICRC (IBTA, Supplement to InfiniBand Architecture Specification Volume 1, Annex A17,
 * "RoCEv2"). Callers build the transport part (IbBthHeader, IbRethHeader or IbAethHeader,
 * payload); this class wraps it in UDP and IPv4, computes and appends the ICRC, and adds the
 * Ethernet header. Everything it writes is what a NIC puts on the wire, so pcaps of these
 * packets dissect as RoCEv2 in Wireshark.
 */
class RoceV2Packet
{
  public:
    // The numbers of the encapsulation, each defined once where its layer is, named here too.
    /// UDP destination port that identifies RoCEv2 (IANA "roce", 4791).
    static constexpr uint16_t UDP_PORT = IbBthHeader::ROCEV2_UDP_PORT;
    /// Ethernet II header without 802.1Q tag, bytes (14).
    static constexpr uint32_t ETHERNET_HEADER_SIZE = EcmpHash::ETHERNET_HEADER_SIZE;
    /// Ethernet frame check sequence, bytes (4).
    static constexpr uint32_t ETHERNET_FCS_SIZE = RoceNetDevice::FCS_BYTES;
    /// IPv4 protocol number of UDP (17).
    static constexpr uint8_t IP_PROTOCOL_UDP = FlowFiveTuple::PROTOCOL_UDP;
    /// EtherType of IPv4 (0x0800).
    static constexpr uint16_t ETHERTYPE_IPV4 = EcmpHash::ETHER_TYPE_IPV4;
    /// The IPv4 TTL packets leave a host with; each switch decrements it, so a receiver counts
    /// the switches a packet crossed as this minus the TTL it arrives with.
    static constexpr uint8_t INITIAL_TTL = 64;
    /// Bytes of the IPv4 header (no options) and the UDP header, that is, where the BTH starts
    /// in a RoCEv2 packet (28).
    static constexpr uint32_t IPV4_UDP_SIZE =
        RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE + RoceIcrcTrailer::UDP_HEADER_SIZE;

    /// Fields of the IPv4 and UDP headers that a RoCEv2 sender chooses.
    struct Addressing
    {
        Ipv4Address source;                            //!< IPv4 source
        Ipv4Address destination;                       //!< IPv4 destination
        uint16_t udpSourcePort{0xC000};                //!< UDP source port (the ECMP entropy)
        uint8_t dscp{0};                               //!< DSCP (6 bits)
        Ipv4Header::EcnType ecn{Ipv4Header::ECN_ECT0}; //!< ECN codepoint; data is ECT(0)
        uint8_t ttl{INITIAL_TTL};                      //!< time to live
        uint16_t identification{0};                    //!< IPv4 identification
        /// The packet's last this many bytes are zeros (a payload made by Create<Packet>(n)):
        /// the ICRC then reads only the bytes before them (see RoceIcrcTrailer::Compute).
        uint32_t zeroPayloadBytes{0};
    };

    RoceV2Packet() = delete;

    /**
     * Wrap a transport packet in UDP and IPv4 and append its ICRC. The UDP checksum is zero (as
     * RoCEv2 NICs send it), the IPv4 header carries Don't Fragment and a valid header checksum.
     * @param packet the transport packet (starting with the BTH); modified in place.
     * @param addressing the IPv4 and UDP fields.
     */
    static void Encapsulate(const Ptr<Packet>& packet, const Addressing& addressing);

    /// The most bytes of transport headers the second Encapsulate takes: a BTH and a RETH.
    static constexpr uint32_t MAX_TRANSPORT_HEADERS = IbBthHeader::SIZE + IbRethHeader::SIZE;

    /**
     * Wrap a transport packet whose headers the caller has written to memory (IbBthHeader::Write
     * and the like) in UDP and IPv4, and append its ICRC: the same bytes as adding the headers
     * to the packet and calling the other Encapsulate, at the cost of one header added to the
     * packet instead of one per header. When everything after the transport headers is zeros
     * (addressing.zeroPayloadBytes covers the packet), the ICRC is computed from the headers in
     * memory without reading the packet back.
     * @param packet what follows the transport headers (payload, reserved telemetry); modified
     * in place.
     * @param addressing the IPv4 and UDP fields.
     * @param transport the transport headers in wire format.
     * @param transportSize how many bytes of them (1 to MAX_TRANSPORT_HEADERS); aborts otherwise.
     * @param ethernet null, or an Ethernet II header in wire format (ETHERNET_HEADER_SIZE bytes,
     *        RoceNetDevice::WriteEthernetHeader) to put in front in the same piece: the result
     *        is then a frame, for RoceNetDevice::SendFrame.
     */
    static void Encapsulate(const Ptr<Packet>& packet,
                            const Addressing& addressing,
                            const uint8_t* transport,
                            uint32_t transportSize,
                            const uint8_t* ethernet = nullptr);

    /**
     * Add an Ethernet II header (no preamble; the FCS is not part of ns-3 packets here).
     * @param packet the packet, starting with its IPv4 header (or another network header).
     * @param source source MAC address.
     * @param destination destination MAC address.
     * @param etherType the EtherType (IPv4 by default).
     */
    static void AddEthernetHeader(Ptr<Packet> packet,
                                  Mac48Address source,
                                  Mac48Address destination,
                                  uint16_t etherType = ETHERTYPE_IPV4);

    /**
     * Fill ns-3's free list of packet buffers (ns3::Buffer) with buffers large enough for every
     * frame this module builds, so that building one takes a buffer from the list instead of
     * three from the heap. Without it, ns-3 (3.37 to 3.48) makes a packet of zeros in a 1-byte
     * buffer, moves it to a buffer of the headers' exact size when they are added and to one
     * four bytes larger for the ICRC, and frees the small ones, since its list keeps only
     * buffers at least as large as the largest it has seen. This makes WARM_BUFFER_COUNT
     * (the most the list keeps) buffers of WARM_BUFFER_SIZE bytes, with room for
     * WARM_HEADER_ROOM bytes of headers in front; they come back to the list when their frames
     * are freed. What a packet holds is not affected, only where its bytes live: a frame that
     * finds the list empty (more frames alive than it holds), or a run in which a larger
     * buffer was ever freed, gets its buffers from the heap as before.
     *
     * Called once per process by the first RdmaEndpoint; calling it again does nothing.
     */
    static void WarmPacketBuffers();

    /// Buffers WarmPacketBuffers makes: the most ns-3's free list keeps (1001).
    static constexpr uint32_t WARM_BUFFER_COUNT = 1001;
    /// Bytes of each: headers in front (WARM_HEADER_ROOM), then up to 160 bytes after a
    /// packet's zeros (telemetry, 84 bytes, and the ICRC).
    static constexpr uint32_t WARM_BUFFER_SIZE = 256;
    /// Room for headers in front of a packet's zeros: Ethernet, a VLAN tag, IPv4, UDP, BTH and
    /// RETH take 74 bytes.
    static constexpr uint32_t WARM_HEADER_ROOM = 96;

    /**
     * Bytes a RoCEv2 packet occupies on an Ethernet link around its InfiniBand transport part:
     * Ethernet header, IPv4, UDP, ICRC and FCS (14 + 20 + 8 + 4 + 4 = 50). Preamble, start
     * delimiter and inter-frame gap are the link's business.
     * @return the overhead in bytes.
     */
    static constexpr uint32_t GetEncapsulationOverhead()
    {
        return ETHERNET_HEADER_SIZE + RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE +
               RoceIcrcTrailer::UDP_HEADER_SIZE + RoceIcrcTrailer::ICRC_SIZE + ETHERNET_FCS_SIZE;
    }
};

} // namespace ns3

#endif /* ROCE_V2_PACKET_H */
