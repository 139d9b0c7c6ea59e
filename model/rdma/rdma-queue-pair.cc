/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-queue-pair.h"

#include "ib-reth-header.h"
#include "rdma-endpoint.h"
#include "rdma-packet-pool.h"
#include "roce-cnp-header.h"
#include "roce-v2-packet.h"

#include "ns3/abort.h"
#include "ns3/enum.h"
#include "ns3/exact-time.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");

NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{

/// PSNs are 24 bits.
constexpr uint64_t PSN_MODULUS = 1ULL << 24;

} // namespace

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RdmaQueuePair>()
            .AddAttribute("Mtu",
                          "RDMA MTU: payload bytes per packet (256 to 4096).",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&RdmaQueuePair::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("AckInterval",
                          "The receiver acknowledges every this many in-order packets (and "
                          "every packet that asks for an ACK, the last of each message).",
                          UintegerValue(16),
                          MakeUintegerAccessor(&RdmaQueuePair::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "AckDelay",
                "The receiver acknowledges in-order packets at the latest this long after the "
                "first of them arrived, however few they are (0: by count and AckReq only). "
                "4 us is about one base round trip of a rack (the examples' 1 us links): a paced "
                "flow's ACK clock stays within a round trip of per-packet ACKs, far inside "
                "RetransmitTimeout; it only acts on flows slower than AckInterval packets per "
                "AckDelay (33 Gb/s with 16 packets of 1 KB), which get at most one ACK per 4 us "
                "(a 62-byte frame: 0.12 Gb/s of the reverse path).",
                TimeValue(MicroSeconds(4)),
                MakeTimeAccessor(&RdmaQueuePair::m_ackDelay),
                MakeTimeChecker(Seconds(0)))
            .AddAttribute("RetransmitTimeout",
                          "Base retransmission timeout, counted on the unpaused clock from the "
                          "later of the oldest unacknowledged packet's last transmission and "
                          "the last ACK progress; it doubles on each expiry without progress. "
                          "1 ms exceeds the queueing delay of a full 12 MB switch buffer at "
                          "100 Gb/s (about 1 ms); time paused by PFC does not count.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RdmaQueuePair::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxBackoff",
                          "How many times the timeout may double.",
                          UintegerValue(6),
                          MakeUintegerAccessor(&RdmaQueuePair::m_maxBackoff),
                          MakeUintegerChecker<uint32_t>(0, 20))
            .AddAttribute("CnpInterval",
                          "Least time between two CNPs of this queue pair (as "
                          "min_time_between_cnps; 50 us in the DCQCN paper).",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaQueuePair::m_cnpInterval),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute(
                "Recovery",
                "How lost packets are recovered: GoBackN resends from the missing packet on and "
                "its receiver drops out-of-order packets (RoCE NICs); SelectiveRepeat resends "
                "only the missing packets and its receiver keeps the others (as IRN).",
                EnumValue(RdmaQueuePair::GO_BACK_N),
                LLM_FABRIC_ENUM_ACCESSOR(RdmaQueuePair::Recovery, &RdmaQueuePair::m_recovery),
                MakeEnumChecker(RdmaQueuePair::GO_BACK_N,
                                "GoBackN",
                                RdmaQueuePair::SELECTIVE_REPEAT,
                                "SelectiveRepeat"))
            .AddTraceSource("Retransmit",
                            "A packet is resent from this index on (go-back-N, after a NAK or a "
                            "timeout) or alone (selective repeat).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_retransmitTrace),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaQueuePair::RdmaQueuePair()
    : m_localQpn(0),
      m_remoteQpn(0),
      m_udpSourcePort(0),
      m_maxBackoff(6),
      m_window(RdmaCongestionOps::UNLIMITED_WINDOW),
      m_slotStartFs(0),
      m_slotBits(0),
      m_postedPackets(0),
      m_sndNxt(0),
      m_sndUna(0),
      m_highestSent(0),
      m_sndUnaBytes(0),
      m_sndNxtBytes(0),
      m_mtu(1024),
      m_inRoundRobin(false),
      m_nextMessageId(0),
      m_sentAtMask(0),
      m_progressAt(0),
      m_recover(0),
      m_backoff(0),
      m_expected(0),
      m_receivedMessageBytes(0),
      m_receivedMessages(0),
      m_unacked(0),
      m_nakSent(false),
      m_ecnEcho(false),
      m_ceState(false),
      m_hopEcho(false),
      m_lastHops(0),
      m_ackedUpTo(0),
      m_ackInterval(16),
      m_recovery(GO_BACK_N),
      m_anyCnp(false),
      m_packetsSent(0),
      m_retransmissions(0),
      m_timeouts(0),
      m_cnpsSent(0),
      m_cnpsReceived(0),
      m_naksReceived(0)
{
    NS_LOG_FUNCTION(this);
}

RdmaQueuePair::~RdmaQueuePair()
{
    NS_LOG_FUNCTION(this);
}

void
RdmaQueuePair::DoDispose()
{
    m_timer.Cancel();
    m_ackTimer.Cancel();
    m_ackTimerPending = false;
    if (m_cc)
    {
        m_cc->Dispose();
    }
    m_cc = nullptr;
    m_endpoint = nullptr;
    m_sendComplete = MessageCallback();
    m_receiveComplete = MessageCallback();
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(Ptr<RdmaEndpoint> endpoint,
                     uint32_t localQpn,
                     uint32_t remoteQpn,
                     Ipv4Address remote,
                     Mac48Address remoteMac,
                     uint16_t udpSourcePort,
                     Ptr<RdmaCongestionOps> cc)
{
    NS_LOG_FUNCTION(this << localQpn << remoteQpn << remote);
    m_endpoint = endpoint;
    m_localQpn = localQpn;
    m_remoteQpn = remoteQpn;
    m_remote = remote;
    m_remoteMac = remoteMac;
    remoteMac.CopyTo(m_remoteMacBytes.data());
    m_udpSourcePort = udpSourcePort;
    m_cc = cc;
    m_ecnEcho = cc->NeedsEcnEcho();
    m_telemetry = cc->NeedsTelemetry();
    m_hopEcho = cc->NeedsHopEcho();
    m_ackWhenWindowFull = cc->AckWhenWindowFull();
    m_cc->TraceConnectWithoutContext("Rate", MakeCallback(&RdmaQueuePair::RateChanged, this));
    m_cc->SetMtu(m_mtu);
    m_cc->Start(endpoint->GetDevice()->GetDataRate());
    m_rateBps = m_cc->GetRateBps(); // RateChanged keeps it from now on
    m_window = m_cc->GetWindow();
}

uint64_t
RdmaQueuePair::PostWrite(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(bytes == 0, "RdmaQueuePair: a message has at least one byte");
    uint64_t packets = (bytes + m_mtu - 1) / m_mtu;
    m_messages.push_back(Message{m_nextMessageId, bytes, m_postedPackets, packets});
    m_postedPackets += packets;
    m_endpoint->Notify(this);
    return m_nextMessageId++;
}

void
RdmaQueuePair::SetSendCompleteCallback(MessageCallback cb)
{
    m_sendComplete = cb;
}

void
RdmaQueuePair::SetReceiveCompleteCallback(MessageCallback cb)
{
    m_receiveComplete = cb;
}

bool
RdmaQueuePair::HasPacketToSend() const
{
    return !m_resend.empty() ||
           (m_sndNxt < m_postedPackets &&
            (m_window == RdmaCongestionOps::UNLIMITED_WINDOW || WindowAllowsNext()));
}

bool
RdmaQueuePair::WindowAllowsNext() const
{
    uint64_t inFlight = m_sndNxtBytes - m_sndUnaBytes;
    if (inFlight == 0)
    {
        return true; // one packet may always go when nothing is in flight
    }
    const Message& msg = FindMessage(m_sndNxt);
    uint64_t j = m_sndNxt - msg.firstPsn;
    uint64_t payload = std::min<uint64_t>(m_mtu, msg.bytes - j * m_mtu);
    return inFlight + payload <= m_window;
}

void
RdmaQueuePair::RecordSendTime(uint64_t index, bool retransmission)
{
    int64_t unpaused = m_endpoint->GetUnpausedTime().GetTimeStep();
    if (retransmission)
    {
        m_sentAt[index & m_sentAtMask] = -1; // Karn's rule: its ACK gives no RTT sample
        m_sentUnpaused[index & m_sentAtMask] = unpaused;
        return;
    }
    // New packets go in index order, and the ring holds [m_sndUna, m_highestSent).
    NS_ASSERT(index == m_highestSent);
    if (m_sentAt.empty())
    {
        m_sentAt.assign(16, -1);
        m_sentUnpaused.assign(16, 0);
        m_sentAtMask = 15;
    }
    else if (index - m_sndUna >= m_sentAt.size())
    {
        size_t size = m_sentAt.size();
        while (index - m_sndUna >= size)
        {
            size *= 2;
        }
        std::vector<int64_t> grown(size, -1);
        std::vector<int64_t> grownUnpaused(size, 0);
        for (uint64_t i = m_sndUna; i < index; ++i)
        {
            grown[i & (size - 1)] = m_sentAt[i & m_sentAtMask];
            grownUnpaused[i & (size - 1)] = m_sentUnpaused[i & m_sentAtMask];
        }
        m_sentAt.swap(grown);
        m_sentUnpaused.swap(grownUnpaused);
        m_sentAtMask = size - 1;
    }
    m_sentAt[index & m_sentAtMask] = ExactTime::Now().GetTimeStep();
    m_sentUnpaused[index & m_sentAtMask] = unpaused;
}

int64_t
RdmaQueuePair::GetNextSendFs() const
{
    return SlotEndFs(m_rateBps);
}

int64_t
RdmaQueuePair::SlotEndFs(uint64_t rate) const
{
    if (m_slotBits == 0)
    {
        return m_slotStartFs;
    }
    return m_slotStartFs +
           ExactTime::Round(static_cast<double>(m_slotBits) * 1e15 / static_cast<double>(rate));
}

void
RdmaQueuePair::RateChanged(uint64_t oldRate, uint64_t newRate)
{
    // A higher rate shortens the slot of the packet last sent: the endpoint may have to wake
    // up earlier than it planned. (A lower rate needs nothing: the planned wake-up finds the
    // slot not yet over and sleeps again.) A TracedValue calls before it stores the new value,
    // so the slot's end is computed from newRate.
    m_rateBps = newRate;
    if (newRate > oldRate && m_inRoundRobin)
    {
        m_endpoint->Repace(SlotEndFs(newRate));
    }
}

const RdmaQueuePair::Message&
RdmaQueuePair::FindMessage(uint64_t index) const
{
    // Messages are in PSN order, their packets contiguous: the first whose packets end after
    // index holds it. Asked per packet sent, mostly about the oldest or the newest message.
    if (!m_messages.empty())
    {
        const Message& oldest = m_messages.front();
        if (index >= oldest.firstPsn && index < oldest.firstPsn + oldest.packets)
        {
            return oldest;
        }
        const Message& newest = m_messages.back();
        if (index >= newest.firstPsn && index < newest.firstPsn + newest.packets)
        {
            return newest;
        }
    }
    auto it =
        std::upper_bound(m_messages.begin(),
                         m_messages.end(),
                         index,
                         [](uint64_t i, const Message& m) { return i < m.firstPsn + m.packets; });
    NS_ABORT_MSG_IF(it == m_messages.end() || index < it->firstPsn,
                    "RdmaQueuePair: packet " << index << " belongs to no posted message");
    return *it;
}

uint64_t
RdmaQueuePair::PayloadBytes(uint64_t first, uint64_t last) const
{
    uint64_t total = 0;
    uint64_t i = first;
    while (i < last)
    {
        const Message& m = FindMessage(i);
        uint64_t end = std::min(last, m.firstPsn + m.packets);
        // Packets j0..j1-1 of the message carry bytes [j0 MTU, min(j1 MTU, size)).
        uint64_t j0 = i - m.firstPsn;
        uint64_t j1 = end - m.firstPsn;
        total += std::min<uint64_t>(j1 * m_mtu, m.bytes) - j0 * m_mtu;
        i = end;
    }
    return total;
}

Ptr<Packet>
RdmaQueuePair::GetNextPacket()
{
    uint64_t index;
    bool next = m_resend.empty();
    if (!next)
    {
        index = *m_resend.begin();
        m_resend.erase(m_resend.begin());
    }
    else
    {
        index = m_sndNxt++;
    }
    const Message& msg = FindMessage(index);
    uint64_t j = index - msg.firstPsn;
    auto payload = static_cast<uint32_t>(std::min<uint64_t>(m_mtu, msg.bytes - j * m_mtu));
    uint8_t opcode = msg.packets == 1       ? IbBthHeader::RC_RDMA_WRITE_ONLY
                     : j == 0               ? IbBthHeader::RC_RDMA_WRITE_FIRST
                     : j + 1 == msg.packets ? IbBthHeader::RC_RDMA_WRITE_LAST
                                            : IbBthHeader::RC_RDMA_WRITE_MIDDLE;
    Ptr<Packet> p = RdmaPacketPool::Take(payload); // as Create<Packet>(payload), maybe reused
    if (m_telemetry)
    {
        p->AddTrailer(RoceIntHeader()); // 84 zero bytes before the ICRC, for the switches
    }
    IbBthHeader& bth = m_txBth;
    bth.SetOpcode(opcode);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(static_cast<uint32_t>(index % PSN_MODULUS));
    // The last packet of a message asks for an ACK, and so does a new packet after which a
    // limited window lets no further one go (counting a full next packet), unless the
    // congestion control says otherwise (RdmaCongestionOps::AckWhenWindowFull): nothing more
    // leaves until an ACK comes, so the receiver should not hold it for AckInterval or AckDelay
    // (a window of fewer than AckInterval packets would otherwise stall AckDelay per window, and
    // the RTT sample would include that wait).
    bool windowFull = next && m_ackWhenWindowFull &&
                      m_window != RdmaCongestionOps::UNLIMITED_WINDOW &&
                      m_sndNxtBytes + payload - m_sndUnaBytes + m_mtu > m_window;
    bth.SetAckRequest(j + 1 == msg.packets || windowFull);
    bth.SetTelemetryFill(m_telemetry);
    // The transport headers are written to memory and go into the packet with IPv4 and UDP as
    // one header: one buffer operation per packet instead of four.
    std::array<uint8_t, RoceV2Packet::MAX_TRANSPORT_HEADERS> transport;
    bth.Write(transport.data());
    uint32_t transportSize = IbBthHeader::SIZE;
    if (IbBthHeader::HasReth(opcode))
    {
        IbRethHeader reth;
        reth.SetDmaLength(static_cast<uint32_t>(std::min<uint64_t>(msg.bytes, 0xFFFFFFFF)));
        reth.Write(transport.data() + transportSize);
        transportSize += IbRethHeader::SIZE;
    }
    // The payload is Create<Packet>'s zeros, and the reserved telemetry after it zeros too.
    m_endpoint->Encapsulate(p,
                            *this,
                            true,
                            payload + (m_telemetry ? RoceIntHeader::SIZE : 0),
                            transport.data(),
                            transportSize);

    if (next)
    {
        m_sndNxtBytes += payload;
    }
    RecordSendTime(index, index < m_highestSent);
    ++m_packetsSent;
    if (index < m_highestSent)
    {
        ++m_retransmissions;
    }
    else
    {
        m_highestSent = index + 1;
    }
    // Pacing at the congestion control's rate, on an exact clock: this packet's slot begins
    // when the last one's ends (or now, if that is past) and lasts the time the packet would
    // occupy a link at the rate (the frame, with its Ethernet header, plus FCS, preamble and
    // gap). The slot's end is computed when asked (GetNextSendFs), at the rate of that moment.
    m_slotStartFs = ExactTime::NextStart(GetNextSendFs());
    m_slotBits = (static_cast<uint64_t>(p->GetSize()) + RoceNetDevice::FCS_BYTES +
                  RoceNetDevice::PREAMBLE_BYTES + RoceNetDevice::INTERFRAME_GAP_BYTES) *
                 8;
    m_cc->OnSend(payload);
    m_window = m_cc->GetWindow();
    if (!m_timerArmed)
    {
        ArmTimer(); // the oldest unacknowledged packet is in flight again, or for the first time
    }
    return p;
}

bool
RdmaQueuePair::OldestInFlight() const
{
    if (m_sndUna >= m_highestSent)
    {
        return false; // nothing outstanding
    }
    if (m_recovery == GO_BACK_N)
    {
        return m_sndNxt > m_sndUna; // else it waits to be sent again (after a NAK or a timeout)
    }
    return m_resend.empty() || *m_resend.begin() != m_sndUna;
}

int64_t
RdmaQueuePair::TimerRemaining() const
{
    int64_t start = std::max(m_sentUnpaused[m_sndUna & m_sentAtMask], m_progressAt);
    int64_t timeout = (m_rto * static_cast<int64_t>(1ULL << m_backoff)).GetTimeStep();
    return start + timeout - m_endpoint->GetUnpausedTime().GetTimeStep();
}

void
RdmaQueuePair::ArmTimer()
{
    // A lazy timer: the deadline only moves later (a later send or progress) except when
    // progress resets the backoff; the one pending event, when it comes early, schedules itself
    // again for the rest. Rescheduling an event per ACK instead would leave a cancelled event
    // per ACK in the scheduler until its time (hundreds per queue pair within one timeout at
    // 400 Gb/s).
    if (!OldestInFlight())
    {
        m_timerArmed = false; // the pending event, if any, will find nothing to do
        return;
    }
    m_timerArmed = true;
    // The unpaused clock runs no faster than the simulation's: the deadline is no sooner than
    // this.
    Time deadline = ExactTime::Now() + TimeStep(std::max<int64_t>(TimerRemaining(), 0));
    if (m_timer.IsExpired() || m_timer.GetTs() > static_cast<uint64_t>(deadline.GetTimeStep()))
    {
        m_timer.Cancel();
        m_timer = Simulator::Schedule(deadline - ExactTime::Now(), &RdmaQueuePair::Timeout, this);
    }
}

void
RdmaQueuePair::Timeout()
{
    NS_LOG_FUNCTION(this << m_sndUna << m_highestSent);
    if (!m_timerArmed || !OldestInFlight())
    {
        m_timerArmed = false;
        return;
    }
    int64_t remaining = TimerRemaining();
    if (remaining > 0)
    {
        if (m_endpoint->IsDataPaused())
        {
            // The unpaused clock stands still: look again later, not in a burst of events.
            remaining = std::max(remaining, m_rto.GetTimeStep() / 8);
        }
        m_timer = Simulator::Schedule(TimeStep(remaining), &RdmaQueuePair::Timeout, this);
        return;
    }
    ++m_timeouts;
    m_backoff = std::min(m_backoff + 1, m_maxBackoff);
    if (m_recovery == GO_BACK_N)
    {
        m_sndNxt = m_sndUna;
        m_sndNxtBytes = m_sndUnaBytes;
    }
    else
    {
        // Resend the oldest unacknowledged packet; until everything sent so far is
        // acknowledged, each ACK that moves on without reaching that point reveals the next
        // missing packet (a partial ACK, as in TCP NewReno, RFC 6582), which is resent at once.
        m_resend.insert(m_sndUna);
        m_recover = m_highestSent;
    }
    m_retransmitTrace(m_sndUna);
    m_cc->OnTimeout();
    m_window = m_cc->GetWindow();
    ArmTimer(); // stops it: the oldest packet now waits to be sent again
    m_endpoint->Notify(this);
}

uint64_t
RdmaQueuePair::Unwrap(uint32_t psn, uint64_t reference)
{
    uint64_t candidate = (reference & ~(PSN_MODULUS - 1)) | psn;
    if (candidate + PSN_MODULUS / 2 < reference)
    {
        candidate += PSN_MODULUS;
    }
    else if (candidate > reference + PSN_MODULUS / 2 && candidate >= PSN_MODULUS)
    {
        candidate -= PSN_MODULUS;
    }
    return candidate;
}

void
RdmaQueuePair::Receive(const IbBthHeader& bth,
                       const uint8_t* afterBth,
                       const Ptr<const Packet>& packet,
                       uint32_t ipBytes,
                       bool ceMarked,
                       uint8_t ttl)
{
    uint8_t opcode = bth.GetOpcode();
    if (opcode == IbBthHeader::CNP)
    {
        ++m_cnpsReceived;
        m_cc->OnCnp();
        m_window = m_cc->GetWindow();
        if (m_window != RdmaCongestionOps::UNLIMITED_WINDOW && HasPacketToSend())
        {
            m_endpoint->Notify(this); // the window may have changed
        }
        return;
    }
    // Telemetry precedes the ICRC: it is the packet's last part but for that.
    constexpr uint32_t headers = RoceV2Packet::IPV4_UDP_SIZE + IbBthHeader::SIZE;
    if (ipBytes < headers + RoceIcrcTrailer::ICRC_SIZE)
    {
        NS_LOG_LOGIC("a packet too short for its headers and ICRC: dropped");
        return;
    }
    const bool withTelemetry = bth.GetTelemetryFill() || bth.GetTelemetryEcho();
    // The bytes after the payload (or an ACK's AETH): telemetry, if any, and the ICRC.
    const uint32_t trailers =
        RoceIcrcTrailer::ICRC_SIZE + (withTelemetry ? RoceIntHeader::SIZE : 0);
    uint32_t after = ipBytes - headers - RoceIcrcTrailer::ICRC_SIZE;
    // Made only for a packet that carries it (an ns-3 Trailer costs a constructor and, in
    // ns-3's ObjectBase, a logged destructor).
    std::optional<RoceIntHeader> telemetry;
    if (withTelemetry)
    {
        if (after < RoceIntHeader::SIZE)
        {
            NS_LOG_LOGIC("a packet flagged with telemetry too short to hold it: dropped");
            return;
        }
        Ptr<Packet> copy = packet->Copy();
        copy->RemoveAtEnd(RoceIcrcTrailer::ICRC_SIZE);
        copy->RemoveTrailer(telemetry.emplace());
        after -= RoceIntHeader::SIZE;
    }
    if (opcode == IbBthHeader::RC_ACKNOWLEDGE)
    {
        IbAethHeader aeth;
        if (after >= IbAethHeader::SIZE)
        {
            aeth.Read(afterBth);
        }
        ReceiveAck(bth, aeth, telemetry ? &*telemetry : nullptr);
        // SendAck's packets have no zeros: headers, then the trailers.
        RdmaPacketPool::Offer(ConstCast<Packet>(packet), packet->GetSize() - trailers, trailers);
        return;
    }
    ReceiveData(bth, after, ceMarked, telemetry ? &*telemetry : nullptr, ttl);
    // A full RDMA WRITE packet is read: its payload is the zeros GetNextPacket made it with (the
    // model carries no data), so it goes back to the senders' pool, its headers and trailers to
    // be removed once nothing holds it (RdmaPacketPool).
    uint32_t reth = IbBthHeader::HasReth(opcode) ? IbRethHeader::SIZE : 0;
    if (after == m_mtu + reth &&
        (opcode == IbBthHeader::RC_RDMA_WRITE_FIRST ||
         opcode == IbBthHeader::RC_RDMA_WRITE_MIDDLE || opcode == IbBthHeader::RC_RDMA_WRITE_LAST ||
         opcode == IbBthHeader::RC_RDMA_WRITE_ONLY))
    {
        RdmaPacketPool::Offer(ConstCast<Packet>(packet),
                              packet->GetSize() - ipBytes + headers + reth,
                              trailers);
    }
}

void
RdmaQueuePair::ReceiveAck(const IbBthHeader& bth,
                          const IbAethHeader& aeth,
                          const RoceIntHeader* telemetry)
{
    uint64_t index = Unwrap(bth.GetPsn(), m_sndUna);
    // An ACK for p acknowledges up to p; a NAK (PSN sequence error) for p up to p - 1.
    uint64_t una = aeth.IsNak() ? index : index + 1;
    una = std::min(una, m_highestSent);
    RdmaAckInfo info;
    bool progress = una > m_sndUna;
    if (progress)
    {
        uint64_t acked = PayloadBytes(m_sndUna, una);
        info.ackedBytes = static_cast<uint32_t>(std::min<uint64_t>(acked, 0xFFFFFFFF));
        info.ackedPsn = una - 1;
        info.ecnEcho = bth.GetBecn();
        info.hops = bth.GetHopEcho();
        int64_t sentAt = m_sentAt[(una - 1) & m_sentAtMask];
        if (!aeth.IsNak() && sentAt >= 0)
        {
            info.rtt = TimeStep(ExactTime::Now().GetTimeStep() - sentAt);
        }
        m_sndUnaBytes += acked;
        m_sndUna = una;
        m_progressAt = m_endpoint->GetUnpausedTime().GetTimeStep();
        m_resend.erase(m_resend.begin(), m_resend.lower_bound(m_sndUna));
        if (m_recovery == SELECTIVE_REPEAT && !aeth.IsNak() && m_sndUna < m_recover)
        {
            m_resend.insert(m_sndUna); // a partial ACK after a timeout
            m_retransmitTrace(m_sndUna);
            m_endpoint->Notify(this);
        }
        m_backoff = 0;
        if (m_sndNxt <= m_sndUna)
        {
            m_sndNxt = m_sndUna;
            m_sndNxtBytes = m_sndUnaBytes;
        }
        while (!m_messages.empty() &&
               m_messages.front().firstPsn + m_messages.front().packets <= m_sndUna)
        {
            Message done = m_messages.front();
            m_messages.pop_front();
            if (!m_sendComplete.IsNull())
            {
                m_sendComplete(this, done.id, done.bytes);
            }
        }
    }
    if (aeth.IsNak())
    {
        ++m_naksReceived;
        if (index < m_sndNxt && index >= m_sndUna)
        {
            if (m_recovery == GO_BACK_N)
            {
                m_sndNxt = index; // go back N
                m_sndNxtBytes = m_sndUnaBytes + PayloadBytes(m_sndUna, index);
            }
            else
            {
                m_resend.insert(index); // resend the missing packet alone
            }
            m_retransmitTrace(index);
        }
        m_endpoint->Notify(this);
    }
    if (progress || aeth.IsNak())
    {
        ArmTimer();
    }
    if (progress)
    {
        info.bytesInFlight = m_sndNxtBytes - m_sndUnaBytes;
        IntHopRecord hops[RoceIntHeader::MAX_HOPS];
        if (telemetry)
        {
            info.telemetryHops = telemetry->GetHops(hops);
            info.telemetry = hops;
        }
        m_cc->OnAck(info);
        m_window = m_cc->GetWindow();
        if (m_window != RdmaCongestionOps::UNLIMITED_WINDOW && HasPacketToSend())
        {
            m_endpoint->Notify(this); // the ACK opened the window
        }
    }
}

void
RdmaQueuePair::ReceiveData(const IbBthHeader& bth,
                           uint32_t afterBth,
                           bool ceMarked,
                           const RoceIntHeader* telemetry,
                           uint8_t ttl)
{
    if (m_hopEcho)
    {
        // Switches decrement the TTL (RoceSwitch::DecrementTtl); the BTH field holds 0-31.
        m_lastHops = static_cast<uint8_t>(std::min<uint32_t>(
            ttl <= RoceV2Packet::INITIAL_TTL ? RoceV2Packet::INITIAL_TTL - ttl : 0,
            31));
    }
    if (ceMarked && (!m_anyCnp || ExactTime::Now() - m_lastCnp >= m_cnpInterval))
    {
        SendCnp();
    }
    uint64_t index = Unwrap(bth.GetPsn(), m_expected);
    uint8_t opcode = bth.GetOpcode();
    uint32_t bytes = afterBth - (IbBthHeader::HasReth(opcode) ? IbRethHeader::SIZE : 0);
    bool last =
        opcode == IbBthHeader::RC_RDMA_WRITE_LAST || opcode == IbBthHeader::RC_RDMA_WRITE_ONLY;
    if (index == m_expected)
    {
        m_nakSent = false;
        bool ackRequest = bth.GetAckRequest();
        if (m_ecnEcho)
        {
            EchoCeState(ceMarked);
        }
        if (telemetry)
        {
            m_echo = *telemetry; // the next ACK carries it back
            m_hasEcho = true;
        }
        Accept(bytes, last);
        ++m_unacked;
        // Selective repeat: deliver what was kept behind the packet that filled the hole.
        while (!m_outOfOrder.empty() && m_outOfOrder.begin()->first == m_expected)
        {
            Kept k = m_outOfOrder.begin()->second;
            m_outOfOrder.erase(m_outOfOrder.begin());
            if (m_ecnEcho)
            {
                EchoCeState(k.ce);
            }
            Accept(k.bytes, k.last);
            ackRequest = ackRequest || k.ackRequest;
            ++m_unacked;
        }
        if (!m_outOfOrder.empty())
        {
            // Another hole follows: report it now (the NAK also acknowledges what precedes it).
            m_unacked = 0;
            m_nakSent = true;
            SendAck(m_expected, true);
        }
        else if (m_unacked >= m_ackInterval || ackRequest)
        {
            m_unacked = 0;
            SendAck(m_expected - 1, false);
        }
        if (m_expected > m_ackedUpTo && m_ackDelay.IsStrictlyPositive() && !m_ackTimerPending)
        {
            m_ackTimerPending = true;
            m_ackTimer = Simulator::Schedule(m_firstUnackedAt + m_ackDelay - ExactTime::Now(),
                                             &RdmaQueuePair::AckTimeout,
                                             this);
        }
    }
    else if (index < m_expected)
    {
        SendAck(m_expected - 1, false); // a duplicate: tell the sender where we are
    }
    else
    {
        if (m_recovery == SELECTIVE_REPEAT)
        {
            m_outOfOrder.emplace(index, Kept{bytes, last, bth.GetAckRequest(), ceMarked});
        }
        if (!m_nakSent)
        {
            m_nakSent = true;
            SendAck(m_expected, true);
        }
    }
}

void
RdmaQueuePair::EchoCeState(bool ce)
{
    if (ce == m_ceState)
    {
        return;
    }
    if (m_expected > m_ackedUpTo)
    {
        // Acknowledge what arrived in the old state before accepting a packet of the new one.
        m_unacked = 0;
        SendAck(m_expected - 1, false);
    }
    m_ceState = ce;
}

void
RdmaQueuePair::AckTimeout()
{
    m_ackTimerPending = false;
    if (m_expected <= m_ackedUpTo)
    {
        return; // acknowledged meanwhile; the next packet schedules the timer again
    }
    Time due = m_firstUnackedAt + m_ackDelay;
    if (ExactTime::Now() < due)
    {
        // An ACK left since this was scheduled, and later packets wait for theirs.
        m_ackTimerPending = true;
        m_ackTimer = Simulator::Schedule(due - ExactTime::Now(), &RdmaQueuePair::AckTimeout, this);
        return;
    }
    m_unacked = 0;
    SendAck(m_expected - 1, false); // the in-order packets share one CE state (EchoCeState)
}

void
RdmaQueuePair::Accept(uint32_t bytes, bool last)
{
    if (m_expected == m_ackedUpTo)
    {
        m_firstUnackedAt = ExactTime::Now(); // the first packet no ACK covers yet
    }
    ++m_expected;
    m_receivedMessageBytes += bytes;
    if (last)
    {
        uint64_t size = m_receivedMessageBytes;
        m_receivedMessageBytes = 0;
        ++m_receivedMessages;
        if (!m_receiveComplete.IsNull())
        {
            m_receiveComplete(this, m_receivedMessages - 1, size);
        }
    }
}

void
RdmaQueuePair::SendAck(uint64_t index, bool nak)
{
    Ptr<Packet> p = RdmaPacketPool::Take(0); // as Create<Packet>(), maybe reused
    // The queue pair's own AETH and BTH for its ACKs (see m_txBth): every field an ACK sets is
    // set here each time, the others keep their defaults.
    IbAethHeader& aeth = m_ackAeth;
    if (nak)
    {
        aeth.SetNak(IbAethHeader::NakCode::PSN_SEQUENCE_ERROR);
    }
    else
    {
        aeth.SetAck();
    }
    aeth.SetMsn(static_cast<uint32_t>(m_receivedMessages % PSN_MODULUS));
    IbBthHeader& bth = m_ackBth;
    bth.SetOpcode(IbBthHeader::RC_ACKNOWLEDGE);
    bth.SetDestQp(m_remoteQpn);
    bth.SetPsn(static_cast<uint32_t>(index % PSN_MODULUS));
    // Every packet this acknowledges arrived in this CE state.
    bth.SetBecn(m_ecnEcho && m_ceState);
    if (m_hasEcho)
    {
        p->AddTrailer(m_echo); // the telemetry of the newest in-order data packet
    }
    bth.SetTelemetryEcho(m_hasEcho);
    bth.SetHopEcho(m_hopEcho ? m_lastHops : 0);
    // BTH and AETH written to memory and added with IPv4 and UDP as one header, as for data.
    std::array<uint8_t, IbBthHeader::SIZE + IbAethHeader::SIZE> transport;
    bth.Write(transport.data());
    aeth.Write(transport.data() + IbBthHeader::SIZE);
    m_endpoint->Encapsulate(p, *this, false, 0, transport.data(), transport.size());
    m_endpoint->SendControl(p, this);
    m_ackedUpTo = m_expected;
}

void
RdmaQueuePair::SendCnp()
{
    m_anyCnp = true;
    m_lastCnp = ExactTime::Now();
    ++m_cnpsSent;
    // The CNP's reserved body is zeros: a packet of that many zeros after the BTH in memory.
    Ptr<Packet> p = Create<Packet>(RoceCnpHeader::SIZE);
    IbBthHeader bth;
    bth.SetOpcode(IbBthHeader::CNP);
    bth.SetDestQp(m_remoteQpn);
    bth.SetBecn(true);
    uint8_t bthBytes[IbBthHeader::SIZE];
    bth.Write(bthBytes);
    m_endpoint->Encapsulate(p, *this, false, RoceCnpHeader::SIZE, bthBytes, IbBthHeader::SIZE);
    m_endpoint->SendControl(p, this);
}

uint32_t
RdmaQueuePair::GetLocalQpn() const
{
    return m_localQpn;
}

uint32_t
RdmaQueuePair::GetRemoteQpn() const
{
    return m_remoteQpn;
}

Ipv4Address
RdmaQueuePair::GetRemoteAddress() const
{
    return m_remote;
}

Mac48Address
RdmaQueuePair::GetRemoteMac() const
{
    return m_remoteMac;
}

uint16_t
RdmaQueuePair::GetUdpSourcePort() const
{
    return m_udpSourcePort;
}

Ptr<RdmaCongestionOps>
RdmaQueuePair::GetCongestionControl() const
{
    return m_cc;
}

uint64_t
RdmaQueuePair::GetRateBps() const
{
    return m_rateBps;
}

uint64_t
RdmaQueuePair::GetPacketsSent() const
{
    return m_packetsSent;
}

uint64_t
RdmaQueuePair::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaQueuePair::GetCnpsSent() const
{
    return m_cnpsSent;
}

uint64_t
RdmaQueuePair::GetCnpsReceived() const
{
    return m_cnpsReceived;
}

uint64_t
RdmaQueuePair::GetNaksReceived() const
{
    return m_naksReceived;
}

uint64_t
RdmaQueuePair::GetOutstandingMessages() const
{
    return m_messages.size();
}

uint64_t
RdmaQueuePair::GetOutOfOrderPackets() const
{
    return m_outOfOrder.size();
}

uint64_t
RdmaQueuePair::GetBytesInFlight() const
{
    return m_sndNxtBytes - m_sndUnaBytes;
}

} // namespace ns3
