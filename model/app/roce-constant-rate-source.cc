/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-constant-rate-source.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/exact-time.h"
#include "ns3/ib-bth-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/roce-icrc-trailer.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceConstantRateSource");

NS_OBJECT_ENSURE_REGISTERED(RoceConstantRateSource);

namespace
{

/// Smallest DataRate accepted, bit/s (keeps one interval far inside 64-bit femtoseconds).
constexpr uint64_t MIN_RATE_BPS = 1000;
/// Largest DataRate the exact schedule handles, bit/s (its remainders are multiplied by 1000).
constexpr uint64_t MAX_RATE_BPS = 1000000000000000ULL; // 1 Pb/s

/// Bytes a frame occupies on the wire beyond GetFrameSize(): FCS, preamble and gap.
constexpr uint32_t WIRE_EXTRA_BYTES =
    RoceNetDevice::FCS_BYTES + RoceNetDevice::PREAMBLE_BYTES + RoceNetDevice::INTERFRAME_GAP_BYTES;

} // namespace

TypeId
RoceConstantRateSource::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceConstantRateSource")
            .SetParent<Application>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RoceConstantRateSource>()
            .AddAttribute("Local",
                          "IPv4 source address of the packets.",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&RoceConstantRateSource::m_local),
                          MakeIpv4AddressChecker())
            .AddAttribute("Remote",
                          "IPv4 destination address of the packets.",
                          Ipv4AddressValue(Ipv4Address::GetAny()),
                          MakeIpv4AddressAccessor(&RoceConstantRateSource::m_remote),
                          MakeIpv4AddressChecker())
            .AddAttribute("RemoteMac",
                          "Ethernet destination address of the frames. Switches forward on "
                          "IPv4, so any unicast address serves; the default, broadcast, is "
                          "taken up by a peer's stack on a back-to-back link.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&RoceConstantRateSource::m_remoteMac),
                          MakeMac48AddressChecker())
            .AddAttribute("DataRate",
                          "Rate on the wire: each packet counts as its whole frame plus FCS, "
                          "preamble and inter-frame gap.",
                          DataRateValue(DataRate("10Gbps")),
                          MakeDataRateAccessor(&RoceConstantRateSource::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("PayloadSize",
                          "RDMA payload bytes per packet.",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&RoceConstantRateSource::m_payloadSize),
                          MakeUintegerChecker<uint32_t>(MIN_PAYLOAD, MAX_PAYLOAD))
            .AddAttribute("Dscp",
                          "IPv4 DSCP of the packets (26, AF31, is priority 3 under the port's "
                          "DSCP classifier).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RoceConstantRateSource::m_dscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("Ect",
                          "Mark packets ECN-capable, ECT(0); false sends them Not-ECT.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceConstantRateSource::m_ect),
                          MakeBooleanChecker())
            .AddAttribute("DestinationQp",
                          "Destination queue pair number in the BTH (24 bits; 0 and 1 are "
                          "InfiniBand's management QPs).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&RoceConstantRateSource::m_destQp),
                          MakeUintegerChecker<uint32_t>(0, IbBthHeader::MAX_24BIT))
            .AddAttribute("UdpSourcePort",
                          "UDP source port (the entropy switches hash for ECMP).",
                          UintegerValue(0xC000),
                          MakeUintegerAccessor(&RoceConstantRateSource::m_udpSourcePort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("RetryRefused",
                          "A packet the port refuses (its queue is full, for example while PFC "
                          "pauses it) is offered again at the next slot with the same PSN, as "
                          "an RDMA NIC stalls instead of dropping; false: it is lost.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceConstantRateSource::m_retryRefused),
                          MakeBooleanChecker())
            .AddAttribute("MaxPackets",
                          "Packets to generate; 0 for no limit. With RetryRefused, only "
                          "accepted packets count; without, refused ones count too.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceConstantRateSource::m_maxPackets),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Device",
                          "Index in the node of the device to send on; it must be a "
                          "RoceNetDevice.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceConstantRateSource::m_deviceIndex),
                          MakeUintegerChecker<uint32_t>())
            .AddTraceSource("Tx",
                            "A packet the device accepted, from its IPv4 header to its ICRC "
                            "(the device adds the Ethernet header).",
                            MakeTraceSourceAccessor(&RoceConstantRateSource::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

RoceConstantRateSource::RoceConstantRateSource()
    : m_payloadSize(1000),
      m_dscp(26),
      m_ect(true),
      m_destQp(2),
      m_udpSourcePort(0xC000),
      m_maxPackets(0),
      m_deviceIndex(0),
      m_generated(0),
      m_sent(0),
      m_refused(0),
      m_retryRefused(true),
      m_rateBps(0),
      m_startFs(0),
      m_offsetFs(0),
      m_offsetRem(0),
      m_intervalFs(0),
      m_intervalRem(0)
{
    NS_LOG_FUNCTION(this);
}

RoceConstantRateSource::~RoceConstantRateSource()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
RoceConstantRateSource::GetFrameSize(uint32_t payload)
{
    return RoceV2Packet::ETHERNET_HEADER_SIZE + RoceIcrcTrailer::IPV4_MIN_HEADER_SIZE +
           RoceIcrcTrailer::UDP_HEADER_SIZE + IbBthHeader::SIZE + payload +
           RoceIcrcTrailer::ICRC_SIZE;
}

uint64_t
RoceConstantRateSource::GetSent() const
{
    return m_sent;
}

uint64_t
RoceConstantRateSource::GetRefused() const
{
    return m_refused;
}

void
RoceConstantRateSource::DoDispose()
{
    m_pending = nullptr;
    NS_LOG_FUNCTION(this);
    m_sendEvent.Cancel();
    m_device = nullptr;
    Application::DoDispose();
}

void
RoceConstantRateSource::StartApplication()
{
    NS_LOG_FUNCTION(this);
    Ptr<Node> node = GetNode();
    NS_ABORT_MSG_IF(!node, "RoceConstantRateSource: not installed on a node");
    NS_ABORT_MSG_IF(m_deviceIndex >= node->GetNDevices(),
                    "RoceConstantRateSource: node " << node->GetId() << " has no device "
                                                    << m_deviceIndex);
    m_device = DynamicCast<RoceNetDevice>(node->GetDevice(m_deviceIndex));
    NS_ABORT_MSG_IF(!m_device,
                    "RoceConstantRateSource: device " << m_deviceIndex << " of node "
                                                      << node->GetId()
                                                      << " is not a RoceNetDevice");
    uint64_t rate = m_rate.GetBitRate();
    m_rateBps = rate;
    NS_ABORT_MSG_IF(rate < MIN_RATE_BPS || rate > MAX_RATE_BPS,
                    "RoceConstantRateSource: DataRate " << rate
                                                        << " bit/s outside [1 kb/s, 1 Pb/s]");

    // The interval is bits x 1e15 / rate femtoseconds, a fraction kept as a whole part and a
    // remainder (in 1/rate fs). Long division by the five factors of 1000 in 1e15 keeps every
    // intermediate product below 2^64: the remainder is below the rate, at most 1e15, and the
    // quotient at most 34000 bits x 1e12 fs/bit at 1 kb/s.
    uint64_t bits = static_cast<uint64_t>(GetFrameSize(m_payloadSize) + WIRE_EXTRA_BYTES) * 8;
    uint64_t quotient = bits / rate;
    uint64_t remainder = bits % rate;
    for (int i = 0; i < 5; ++i)
    {
        quotient = quotient * 1000 + remainder * 1000 / rate;
        remainder = remainder * 1000 % rate;
    }
    m_intervalFs = static_cast<int64_t>(quotient);
    m_intervalRem = remainder;
    m_startFs = Simulator::Now().GetFemtoSeconds();
    m_offsetFs = 0;
    m_offsetRem = 0;
    NS_LOG_LOGIC("interval " << m_intervalFs << " fs + " << m_intervalRem << "/" << rate);
    if (m_maxPackets == 0 || m_generated < m_maxPackets)
    {
        SendPacket();
    }
}

void
RoceConstantRateSource::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_sendEvent.Cancel();
}

void
RoceConstantRateSource::SendPacket()
{
    NS_LOG_FUNCTION(this);
    Ptr<Packet> packet = m_pending;
    m_pending = nullptr;
    if (!packet)
    {
        IbBthHeader bth;
        bth.SetOpcode(IbBthHeader::RC_RDMA_WRITE_MIDDLE);
        bth.SetDestQp(m_destQp);
        bth.SetAckRequest(false);
        bth.SetPsn(static_cast<uint32_t>(m_generated & IbBthHeader::MAX_24BIT));
        packet = Create<Packet>(m_payloadSize);
        packet->AddHeader(bth);

        RoceV2Packet::Addressing addressing;
        addressing.source = m_local;
        addressing.destination = m_remote;
        addressing.udpSourcePort = m_udpSourcePort;
        addressing.dscp = m_dscp;
        addressing.ecn = m_ect ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT;
        addressing.identification = static_cast<uint16_t>(m_generated & 0xFFFF);
        RoceV2Packet::Encapsulate(packet, addressing);
        ++m_generated;
    }

    // The device adds its Ethernet header to the packet it is given; the trace gets the packet
    // as this source made it.
    Ptr<const Packet> traced = m_txTrace.IsEmpty() ? nullptr : packet->Copy();
    if (m_device->Send(packet, m_remoteMac, RoceV2Packet::ETHERTYPE_IPV4))
    {
        ++m_sent;
        if (traced)
        {
            m_txTrace(traced);
        }
    }
    else
    {
        NS_LOG_LOGIC("device refused packet " << m_generated - 1);
        ++m_refused;
        if (m_retryRefused)
        {
            // Offered again at the next slot as it is: same PSN and identification, and no
            // second ICRC computation.
            m_pending = packet;
        }
    }
    ScheduleNext();
}

void
RoceConstantRateSource::ScheduleNext()
{
    if (m_maxPackets != 0 && m_generated >= m_maxPackets && !m_pending)
    {
        return;
    }
    m_offsetFs += m_intervalFs;
    m_offsetRem += m_intervalRem;
    if (m_offsetRem >= m_rateBps)
    {
        m_offsetRem -= m_rateBps;
        ++m_offsetFs;
    }
    m_sendEvent = Simulator::Schedule(ExactTime::DelayUntil(m_startFs + m_offsetFs),
                                      &RoceConstantRateSource::SendPacket,
                                      this);
}

} // namespace ns3
