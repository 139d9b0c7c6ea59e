/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-endpoint.h"

#include "ib-bth-header.h"
#include "rdma-cc-none.h"
#include "roce-icrc-trailer.h"
#include "roce-v2-packet.h"

#include "ns3/abort.h"
#include "ns3/exact-time.h"
#include "ns3/frame-prefix-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaEndpoint");

NS_OBJECT_ENSURE_REGISTERED(RdmaEndpoint);

namespace
{
/// Where a packet's BTH starts: after IPv4 (20 bytes: RoCEv2 packets carry no options) and UDP.
constexpr uint32_t BTH_AT = RoceV2Packet::IPV4_UDP_SIZE;
/// The bytes of a packet, from its IPv4 header, that the endpoint reads (ReceiveIp): IPv4, UDP,
/// the BTH and the 4 bytes after it (an ACK's AETH; a packet's ICRC at the least).
constexpr uint32_t READ_BYTES = BTH_AT + IbBthHeader::SIZE + IbAethHeader::SIZE;
static_assert(IbAethHeader::SIZE == RoceIcrcTrailer::ICRC_SIZE);
} // namespace

TypeId
RdmaEndpoint::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaEndpoint")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RdmaEndpoint>()
            .AddAttribute("CongestionControl",
                          "Congestion control of every queue pair created by this endpoint "
                          "(a subclass of ns3::RdmaCongestionOps; one object per queue pair).",
                          TypeIdValue(RdmaCcNone::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaEndpoint::m_ccTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("DataDscp",
                          "DSCP of data packets (26, AF31: priority 3, lossless by default).",
                          UintegerValue(26),
                          MakeUintegerAccessor(&RdmaEndpoint::m_dataDscp),
                          MakeUintegerChecker<uint8_t>(0, 63))
            .AddAttribute("ControlDscp",
                          "DSCP of ACKs, NAKs and CNPs (48, CS6: priority 6).",
                          UintegerValue(48),
                          MakeUintegerAccessor(&RdmaEndpoint::m_controlDscp),
                          MakeUintegerChecker<uint8_t>(0, 63));
    return tid;
}

RdmaEndpoint::RdmaEndpoint()
    : m_ccTypeId(RdmaCcNone::GetTypeId()),
      m_dataDscp(26),
      m_controlDscp(48),
      m_ipId(0)
{
    NS_LOG_FUNCTION(this);
    RoceV2Packet::WarmPacketBuffers(); // once per process
}

RdmaEndpoint::~RdmaEndpoint()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaEndpoint::DoDispose()
{
    m_wakeup.Cancel();
    for (auto& qp : m_qps)
    {
        qp->Dispose();
    }
    m_qps.clear();
    m_active.clear();
    m_device = nullptr;
    Object::DoDispose();
}

void
RdmaEndpoint::Setup(Ptr<RoceNetDevice> device, Ipv4Address address)
{
    NS_LOG_FUNCTION(this << device << address);
    m_device = device;
    m_address = address;
    m_addressBits = address.Get();
    device->SetReceiveCallback(MakeCallback(&RdmaEndpoint::Receive, this));
    // After SetReceiveCallback, which removes it.
    // Hooks rather than ns-3 Callbacks: called once per frame (RoceNetDevice's FrameReceiveHook).
    device->SetHostFrameReceiveHook(
        RoceNetDevice::HostFrameReceiveHook::Bind<&RdmaEndpoint::ReceiveFrame>(this));
    // Each frame's start on the wire runs the scheduler (Pump): the port holds the next frame.
    device->SetTxStartHook(RoceNetDevice::TxStartHook::Bind<&RdmaEndpoint::Pump>(this));
    device->TraceConnectWithoutContext("PauseState",
                                       MakeCallback(&RdmaEndpoint::PauseChanged, this));
}

std::pair<Ptr<RdmaQueuePair>, Ptr<RdmaQueuePair>>
RdmaEndpoint::Connect(Ptr<RdmaEndpoint> a, Ptr<RdmaEndpoint> b, uint16_t udpSourcePort)
{
    NS_ABORT_MSG_IF(!a->m_device || !b->m_device, "RdmaEndpoint: Setup() before Connect()");
    Ptr<RdmaQueuePair> qa = CreateObject<RdmaQueuePair>();
    Ptr<RdmaQueuePair> qb = CreateObject<RdmaQueuePair>();
    // A queue pair's number is FIRST_QPN plus its index in its endpoint's m_qps.
    a->m_qps.push_back(qa);
    auto qpnA = static_cast<uint32_t>(FIRST_QPN + a->m_qps.size() - 1);
    b->m_qps.push_back(qb);
    auto qpnB = static_cast<uint32_t>(FIRST_QPN + b->m_qps.size() - 1);
    ObjectFactory ccA;
    ccA.SetTypeId(a->m_ccTypeId);
    ObjectFactory ccB;
    ccB.SetTypeId(b->m_ccTypeId);
    qa->Setup(a,
              qpnA,
              qpnB,
              b->m_address,
              b->GetMac(),
              udpSourcePort,
              ccA.Create<RdmaCongestionOps>());
    qb->Setup(b,
              qpnB,
              qpnA,
              a->m_address,
              a->GetMac(),
              udpSourcePort,
              ccB.Create<RdmaCongestionOps>());
    return {qa, qb};
}

Ptr<RoceNetDevice>
RdmaEndpoint::GetDevice() const
{
    return m_device;
}

Ipv4Address
RdmaEndpoint::GetAddress() const
{
    return m_address;
}

Mac48Address
RdmaEndpoint::GetMac() const
{
    return Mac48Address::ConvertFrom(m_device->GetAddress());
}

const std::vector<Ptr<RdmaQueuePair>>&
RdmaEndpoint::GetQueuePairs() const
{
    return m_qps;
}

void
RdmaEndpoint::Encapsulate(const Ptr<Packet>& packet,
                          const RdmaQueuePair& qp,
                          bool data,
                          uint32_t zeroPayloadBytes,
                          const uint8_t* transport,
                          uint32_t transportSize)
{
    // Made in one piece: the addresses are copied, not default-made first (Ipv4Address's
    // default constructor is an ns-3 call with a log test).
    const RoceV2Packet::Addressing addressing{m_address,
                                              qp.GetRemoteAddress(),
                                              qp.GetUdpSourcePort(),
                                              data ? m_dataDscp : m_controlDscp,
                                              data ? Ipv4Header::ECN_ECT0 : Ipv4Header::ECN_NotECT,
                                              RoceV2Packet::INITIAL_TTL,
                                              m_ipId++,
                                              zeroPayloadBytes};
    // The Ethernet header joins the others in one piece: no header added by the port.
    uint8_t ethernet[RoceV2Packet::ETHERNET_HEADER_SIZE];
    m_device->WriteEthernetHeader(ethernet, qp.GetRemoteMacBytes(), RoceV2Packet::ETHERTYPE_IPV4);
    RoceV2Packet::Encapsulate(packet, addressing, transport, transportSize, ethernet);
}

void
RdmaEndpoint::SendControl(Ptr<Packet> packet, Ptr<const RdmaQueuePair> qp)
{
    m_device->SendFrame(packet);
}

void
RdmaEndpoint::Notify(Ptr<RdmaQueuePair> qp)
{
    if (!qp->m_inRoundRobin)
    {
        qp->m_inRoundRobin = true;
        m_active.push_back(PeekPointer(qp));
    }
    Pump();
}

void
RdmaEndpoint::PauseChanged(uint8_t priority, bool paused)
{
    if (priority != (m_dataDscp >> 3) || paused == m_dataPaused)
    {
        return;
    }
    m_dataPaused = paused;
    if (paused)
    {
        m_pauseBegan = ExactTime::Now();
    }
    else
    {
        m_pausedTotal += ExactTime::Now() - m_pauseBegan;
    }
}

Time
RdmaEndpoint::GetUnpausedTime() const
{
    Time now = ExactTime::Now();
    return now - m_pausedTotal - (m_dataPaused ? now - m_pauseBegan : Time(0));
}

bool
RdmaEndpoint::IsDataPaused() const
{
    return m_dataPaused;
}

void
RdmaEndpoint::Pump()
{
    if (m_active.empty() || m_device->GetQueueBytes(m_dataDscp >> 3) > 0)
    {
        return; // the port already holds the next frame (or is paused with one waiting)
    }
    int64_t nowFs = ExactTime::NowFs();
    int64_t slack = ExactTime::GetResolutionFs() / 2;
    int64_t earliest = -1;
    uint64_t lineBps = m_device->GetBitRate();
    size_t n = m_active.size();
    for (size_t k = 0; k < n; ++k)
    {
        RdmaQueuePair* qp = m_active.front();
        m_active.pop_front();
        if (!qp->HasPacketToSend())
        {
            qp->m_inRoundRobin = false; // back in when it is notified of new work
            continue;
        }
        m_active.push_back(qp);
        int64_t at = qp->GetNextSendFs();
        // At the line rate the port itself paces: the packet may wait in its queue behind the
        // frame on the wire (which also spares a wake-up event per packet).
        if (at <= nowFs + slack || qp->GetRateBps() >= lineBps)
        {
            Ptr<Packet> p = qp->GetNextPacket();
            m_device->SendFrame(p);
            return;
        }
        if (earliest < 0 || at < earliest)
        {
            earliest = at;
        }
    }
    if (earliest >= 0)
    {
        m_wakeup.Cancel();
        m_wakeup = Simulator::Schedule(ExactTime::DelayUntil(earliest), &RdmaEndpoint::Pump, this);
        m_wakeupFs = earliest;
    }
}

void
RdmaEndpoint::Repace(int64_t atFs)
{
    // Only a sleeping scheduler is moved: when the port holds a frame, the frame's start on the
    // wire runs the scheduler anyway (the port's TxStartHook), and it reads the new time then.
    if (!m_wakeup.IsExpired() && atFs < m_wakeupFs)
    {
        m_wakeup.Cancel();
        m_wakeup = Simulator::Schedule(ExactTime::DelayUntil(atFs), &RdmaEndpoint::Pump, this);
        m_wakeupFs = atFs;
    }
}

bool
RdmaEndpoint::Receive(Ptr<NetDevice> device,
                      Ptr<const Packet> packet,
                      uint16_t protocol,
                      const Address& from)
{
    if (protocol != RoceV2Packet::ETHERTYPE_IPV4)
    {
        return true;
    }
    // The IPv4 and UDP fields this needs, the BTH and the 4 bytes after it (an ACK's AETH) are
    // read at their fixed offsets instead of deserializing the headers; the smallest packet
    // taken has them all (the 4 bytes after the BTH may be its ICRC).
    uint8_t b[READ_BYTES];
    if (packet->CopyData(b, sizeof(b)) < sizeof(b))
    {
        return true; // not a RoCEv2 packet of ours: too short
    }
    ReceiveIp(b, packet, packet->GetSize(), b[8]);
    return true;
}

bool
RdmaEndpoint::ReceiveFrame(RoceNetDevice& device,
                           const Ptr<Packet>& frame,
                           const uint8_t* head,
                           uint32_t headBytes,
                           uint8_t ttlDebt)
{
    // What Receive reads, from the head bytes: the IPv4 header starts after the Ethernet
    // header, and its TTL is as the port would have patched it.
    constexpr uint32_t ethernet = RoceV2Packet::ETHERNET_HEADER_SIZE;
    if (headBytes < ethernet + READ_BYTES ||
        static_cast<uint16_t>((head[12] << 8) | head[13]) != RoceV2Packet::ETHERTYPE_IPV4)
    {
        return false;
    }
    const uint8_t* b = head + ethernet;
    ReceiveIp(b, frame, frame->GetSize() - ethernet, FramePrefixHeader::TtlAfter(b[8], ttlDebt));
    return true;
}

void
RdmaEndpoint::ReceiveIp(const uint8_t* b,
                        const Ptr<const Packet>& packet,
                        uint32_t ipBytes,
                        uint8_t ttl)
{
    if ((b[0] >> 4) != 4 || (b[0] & 0x0f) != 5)
    {
        return; // not a RoCEv2 packet of ours: an optioned header
    }
    uint32_t destination = (static_cast<uint32_t>(b[16]) << 24) |
                           (static_cast<uint32_t>(b[17]) << 16) |
                           (static_cast<uint32_t>(b[18]) << 8) | b[19];
    if (b[9] != RoceV2Packet::IP_PROTOCOL_UDP || destination != m_addressBits)
    {
        return;
    }
    if (static_cast<uint16_t>((b[22] << 8) | b[23]) != RoceV2Packet::UDP_PORT)
    {
        return;
    }
    bool ceMarked = (b[1] & 0x03) == Ipv4Header::ECN_CE;
    IbBthHeader& bth = m_rxBth;
    bth.Read(b + BTH_AT);
    uint32_t index = bth.GetDestQp() - FIRST_QPN; // a number below FIRST_QPN wraps: too large
    if (index >= m_qps.size())
    {
        NS_LOG_LOGIC("no queue pair " << bth.GetDestQp() << " at " << m_address);
        return;
    }
    m_qps[index]->Receive(bth, b + BTH_AT + IbBthHeader::SIZE, packet, ipBytes, ceMarked, ttl);
}

} // namespace ns3
