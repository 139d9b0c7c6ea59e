/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_QUEUE_PAIR_H
#define RDMA_QUEUE_PAIR_H

#include "ib-aeth-header.h"
#include "ib-bth-header.h"
#include "rdma-congestion-ops.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

class RdmaEndpoint;

/**
 * @ingroup llm-fabric
 * @brief A reliable-connection (RC) queue pair: RDMA WRITE messages cut into MTU packets, PSNs,
 * acknowledgements, go-back-N or selective-repeat recovery, a retransmission timer, and
 * congestion-controlled pacing.
 *
 * Sender side: messages queue up (PostWrite) and leave as RDMA WRITE First/Middle/Last (or Only)
 * packets of at most Mtu payload bytes, the first with a RETH; PSNs run across messages. The
 * endpoint pulls packets from its queue pairs in round robin when its port can take one
 * (GetNextPacket), no sooner than the pacing time set by the congestion control's rate. An ACK
 * for PSN p acknowledges everything up to p; a NAK (PSN sequence error) for p acknowledges
 * everything up to p - 1 and reports p missing.
 *
 * Retransmission timer: it expires when the oldest unacknowledged packet has gone
 * RetransmitTimeout (doubled on each expiry without progress, up to 2^MaxBackoff times, and
 * back to its base on progress) unacknowledged, counted from the later of that packet's last
 * transmission and the last ACK that made progress, on the endpoint's unpaused clock
 * (RdmaEndpoint::GetUnpausedTime), which stands still while PFC pauses the port's data
 * priority. So a sender that is merely paced (the timer never covers the wait for the
 * pacer: a packet's clock starts when it is handed to the port, and while the oldest packet
 * waits to be resent, after a NAK or a timeout, no timer runs) or paused cannot time out, as
 * long as the receiver acknowledges within the timeout (AckDelay bounds its wait); a lost
 * packet is resent RetransmitTimeout after it was sent plus at most one round trip (the
 * timer may have restarted on an ACK for earlier packets). Lazily: one pending event per
 * queue pair, which, when it comes early, schedules itself again for the remaining time (while
 * paused, at least RetransmitTimeout / 8 later, so a long pause costs at most 8 events per
 * timeout and the expiry comes at most that late).
 *
 * Recovery (attribute Recovery):
 * - GoBackN (what RoCE NICs do): a NAK for p, or a timeout, restarts transmission from p (from
 *   the oldest unacknowledged packet on a timeout); the receiver discards out-of-order packets.
 * - SelectiveRepeat (as IRN, Mittal et al., SIGCOMM 2018, proposes): the receiver keeps
 *   out-of-order packets; a NAK for p makes the sender resend p alone, ahead of new data, and a
 *   timeout resends the oldest unacknowledged packet alone, after which every ACK that does not
 *   yet cover what had been sent at the timeout makes the sender resend the next
 *   unacknowledged packet (a partial ACK, as in TCP NewReno, RFC 6582). When a resent packet
 *   fills a hole, the receiver delivers what it kept behind it and, if another hole follows,
 *   NAKs that one at once: each lost packet costs one resend and about one round trip, not a
 *   window.
 *
 * Receiver side: a gap is answered by one NAK (until the expected packet arrives), a duplicate
 * by an ACK of the last in-order PSN; an ACK goes back every AckInterval in-order packets, for
 * every packet that asks for one (the last of a message, and a packet after which the sender's
 * limited window lets no further new packet go), and at the latest AckDelay after the
 * first in-order packet it does not yet acknowledge arrived (as NICs coalesce ACKs in count and
 * in time; without the time bound a flow slowed by its congestion control to fewer than
 * AckInterval packets per RetransmitTimeout would wait for ACKs longer than the timeout).
 * Messages are delivered in order.
 * CE-marked packets trigger a CNP to the sender's queue pair, at most one per CnpInterval.
 * If the queue pair's congestion control asks for the ECN echo (RdmaCongestionOps::NeedsEcnEcho),
 * ACKs and NAKs also carry BECN when the packets they acknowledge arrived CE-marked, and an ACK
 * goes back at once when the CE state of in-order packets changes (RFC 8257 section 3.2), so
 * each acknowledges packets of one CE state. If it asks for the hop echo
 * (RdmaCongestionOps::NeedsHopEcho), ACKs and NAKs carry the hop count of the last data packet
 * received (64 minus its IPv4 TTL) in the BTH's byte 8, bits 6-0 (IbBthHeader::SetHopEcho).
 *
 * Congestion control (RdmaCongestionOps): every ACK that acknowledges new data reports the
 * acknowledged bytes, an RTT sample, the ECN echo, the acknowledged PSN and the bytes in flight
 * (RdmaAckInfo). RTT samples come from the send time of each packet, kept per PSN in a ring of
 * the unacknowledged packets (grown by doubling when needed, so O(1) per packet); a packet sent
 * more than once gives no sample (Karn's rule). A new packet leaves only when the congestion
 * control's rate (pacing) and window (bytes in flight) both allow it, or when nothing is in
 * flight.
 *
 * In-band telemetry: if the congestion control asks for it (NeedsTelemetry), every data packet
 * (resent ones too) carries a RoceIntHeader of 84 zero bytes before its ICRC and the BTH's
 * telemetry-fill bit; its pacing slot counts those bytes. A receiver that gets such a packet in
 * order keeps its telemetry (out-of-order and duplicate packets do not replace it) and every
 * later ACK or NAK echoes the telemetry kept last (BTH telemetry-echo bit, header before the
 * ICRC): an ACK carries the telemetry of the newest packet it acknowledges (with selective
 * repeat, of the newest that arrived in order: packets kept out of order keep none), a NAK that
 * of the last in-order packet before the gap. The sender decodes it for OnAck
 * (RdmaAckInfo::telemetry).
 */
class RdmaQueuePair : public Object
{
  public:
    /**
     * Callback when a posted message is fully acknowledged (sender) or fully arrived (receiver).
     * @param qp the queue pair.
     * @param messageId the id PostWrite returned (sender) or the message number (receiver).
     * @param bytes the message size.
     */
    typedef Callback<void, Ptr<RdmaQueuePair>, uint64_t, uint64_t> MessageCallback;

    /// How lost packets are recovered.
    enum Recovery
    {
        GO_BACK_N,       ///< Resend everything from the missing packet on.
        SELECTIVE_REPEAT ///< Resend only the missing packets; the receiver keeps the others.
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaQueuePair();
    ~RdmaQueuePair() override;

    /**
     * Set up the queue pair (called by RdmaEndpoint::Connect).
     * @param endpoint the host's endpoint.
     * @param localQpn this queue pair's number.
     * @param remoteQpn the peer queue pair's number.
     * @param remote the peer's address.
     * @param remoteMac the MAC address frames are sent to.
     * @param udpSourcePort UDP source port (the flow's ECMP entropy).
     * @param cc the congestion control of this queue pair.
     */
    void Setup(Ptr<RdmaEndpoint> endpoint,
               uint32_t localQpn,
               uint32_t remoteQpn,
               Ipv4Address remote,
               Mac48Address remoteMac,
               uint16_t udpSourcePort,
               Ptr<RdmaCongestionOps> cc);

    /**
     * Queue an RDMA WRITE.
     * @param bytes message size, at least 1.
     * @return the message id handed to the completion callback.
     */
    uint64_t PostWrite(uint64_t bytes);

    /// @param cb called when a message of this queue pair is fully acknowledged.
    void SetSendCompleteCallback(MessageCallback cb);
    /// @param cb called when a message to this queue pair has fully arrived.
    void SetReceiveCompleteCallback(MessageCallback cb);

    /**
     * @return true if a packet waits to be sent and may go: a retransmission (selective
     * repeat), or a new packet the congestion control's window allows.
     */
    bool HasPacketToSend() const;
    /**
     * @return the earliest time pacing lets the next packet go, femtoseconds (exact clock): the
     * start of the last packet's slot plus that packet's wire time at the congestion control's
     * rate now (not at the rate when it was sent).
     */
    int64_t GetNextSendFs() const;
    /**
     * Build the next packet to send, as a frame (Ethernet header and what follows, for the
     * port's SendFrame), and advance
     * the send state. Call only when HasPacketToSend() and the pacing time has come.
     * @return the packet.
     */
    Ptr<Packet> GetNextPacket();

    /**
     * A transport packet for this queue pair arrived. Its headers are where RoCEv2 puts them
     * (RoceV2Packet::IPV4_UDP_SIZE bytes of IPv4 and UDP, then the BTH); the receiver has read
     * the few fields it needs, and this reads what follows the BTH without copying the packet
     * (except to take telemetry off its end).
     * @param bth its base transport header.
     * @param afterBth the IbAethHeader::SIZE bytes after the BTH (an ACK's AETH).
     * @param packet the packet as it arrived, ending with its ICRC (from its IPv4 header, or
     *        with its Ethernet header still in front: only its end is read); not changed.
     * @param ipBytes its size from its IPv4 header to its ICRC.
     * @param ceMarked the IPv4 ECN field was CE.
     * @param ttl the IPv4 TTL it arrived with (64, the initial TTL, minus the switches it
     *        crossed).
     */
    void Receive(const IbBthHeader& bth,
                 const uint8_t* afterBth,
                 const Ptr<const Packet>& packet,
                 uint32_t ipBytes,
                 bool ceMarked,
                 uint8_t ttl = 64);

    /// @return this queue pair's number.
    uint32_t GetLocalQpn() const;
    /// @return the peer queue pair's number.
    uint32_t GetRemoteQpn() const;
    /// @return the peer's address.
    Ipv4Address GetRemoteAddress() const;
    /// @return the peer MAC address.
    Mac48Address GetRemoteMac() const;

    /// @return the peer MAC address's six bytes (for RoceNetDevice::WriteEthernetHeader).
    const uint8_t* GetRemoteMacBytes() const
    {
        return m_remoteMacBytes.data();
    }

    /// @return the UDP source port.
    uint16_t GetUdpSourcePort() const;
    /// @return the congestion control.
    Ptr<RdmaCongestionOps> GetCongestionControl() const;
    /// @return the congestion control's current rate, bit/s (without the reference a
    /// GetCongestionControl takes and releases, for the endpoint's per-packet scheduler).
    uint64_t GetRateBps() const;

    /// @return data packets sent, retransmissions included.
    uint64_t GetPacketsSent() const;
    /// @return data packets sent again (after NAKs and timeouts).
    uint64_t GetRetransmissions() const;
    /// @return retransmission timer expiries.
    uint64_t GetTimeouts() const;
    /// @return CNPs sent by this queue pair's receive side.
    uint64_t GetCnpsSent() const;
    /// @return CNPs received.
    uint64_t GetCnpsReceived() const;
    /// @return NAKs received.
    uint64_t GetNaksReceived() const;
    /// @return posted messages not yet fully acknowledged.
    uint64_t GetOutstandingMessages() const;
    /// @return data packets the receive side kept out of order (selective repeat), now.
    uint64_t GetOutOfOrderPackets() const;
    /// @return payload bytes sent and not yet acknowledged (lost ones included), now.
    uint64_t GetBytesInFlight() const;

  protected:
    void DoDispose() override;

  private:
    /**
     * The congestion control's Rate trace: wake the endpoint earlier if the rate rose.
     * @param oldRate the rate before, bit/s.
     * @param newRate the rate now, bit/s.
     */
    void RateChanged(uint64_t oldRate, uint64_t newRate);

    /**
     * @param rate a pacing rate, bit/s.
     * @return when the last packet's slot ends at that rate, femtoseconds (exact clock).
     */
    int64_t SlotEndFs(uint64_t rate) const;

    friend class RdmaEndpoint; // keeps m_inRoundRobin

    /// A posted message.
    struct Message
    {
        uint64_t id;       //!< id handed back on completion
        uint64_t bytes;    //!< size
        uint64_t firstPsn; //!< index of its first packet
        uint64_t packets;  //!< number of packets
    };

    /**
     * @param index a packet index of this queue pair.
     * @return the message the packet belongs to.
     */
    const Message& FindMessage(uint64_t index) const;
    /**
     * @param first a packet index.
     * @param last one past the last packet index.
     * @return the payload bytes of packets [first, last) of the posted messages.
     */
    uint64_t PayloadBytes(uint64_t first, uint64_t last) const;
    /**
     * Accept the in-order packet m_expected: count its bytes, complete its message if it is the
     * last one, advance m_expected.
     * @param bytes its payload bytes.
     * @param last it is the last packet of a message.
     */
    void Accept(uint32_t bytes, bool last);
    /**
     * @return true if the retransmission timer should run: the oldest unacknowledged packet has
     * been sent and is not waiting to be sent again.
     */
    bool OldestInFlight() const;
    /**
     * @return unpaused time steps left before the oldest unacknowledged packet times out
     * (zero or negative: due). Call only if OldestInFlight().
     */
    int64_t TimerRemaining() const;
    /**
     * Run the retransmission timer if OldestInFlight(), stop it otherwise; its deadline follows
     * from the send time of the oldest unacknowledged packet and the last progress.
     */
    void ArmTimer();
    /// The retransmission timer's event: expire if due, else wait for the rest.
    void Timeout();
    /// The receiver's ACK timer: acknowledge what arrived AckDelay ago or earlier.
    void AckTimeout();
    /**
     * Send an ACK or NAK.
     * @param psn the PSN it carries.
     * @param nak true for a NAK (PSN sequence error).
     */
    void SendAck(uint64_t psn, bool nak);
    /// Send a CNP to the peer queue pair.
    void SendCnp();
    /**
     * ECN echo: an in-order packet of this CE state is about to be accepted. If the state
     * changes and accepted packets are not yet acknowledged, acknowledge them first (with the
     * old state's BECN).
     * @param ce the packet was CE-marked.
     */
    void EchoCeState(bool ce);
    /// @return whether a limited window lets the next new packet (index m_sndNxt) go.
    bool WindowAllowsNext() const;
    /**
     * Remember when a packet was handed to the port, for RTT samples.
     * @param index its packet index.
     * @param retransmission it was sent before (then it gives no sample).
     */
    void RecordSendTime(uint64_t index, bool retransmission);
    /**
     * Handle an ACK or NAK.
     * @param bth its BTH.
     * @param aeth its AETH.
     * @param telemetry the telemetry it echoes, or null.
     */
    void ReceiveAck(const IbBthHeader& bth,
                    const IbAethHeader& aeth,
                    const RoceIntHeader* telemetry);
    /**
     * Handle a data packet.
     * @param bth its BTH.
     * @param afterBth its bytes after the BTH (RETH and payload), without telemetry and ICRC.
     * @param ceMarked CE was set.
     * @param telemetry its telemetry, or null.
     * @param ttl its IPv4 TTL.
     */
    void ReceiveData(const IbBthHeader& bth,
                     uint32_t afterBth,
                     bool ceMarked,
                     const RoceIntHeader* telemetry,
                     uint8_t ttl);
    /**
     * The packet index a received 24-bit PSN stands for, near a reference index.
     * @param psn the PSN.
     * @param reference an index close to it.
     * @return the index.
     */
    static uint64_t Unwrap(uint32_t psn, uint64_t reference);

    Ptr<RdmaEndpoint> m_endpoint;              //!< the host's endpoint
    Ptr<RdmaCongestionOps> m_cc;               //!< congestion control
    uint32_t m_localQpn;                       //!< this queue pair's number
    uint32_t m_remoteQpn;                      //!< the peer's
    Ipv4Address m_remote;                      //!< peer address
    Mac48Address m_remoteMac;                  //!< peer MAC
    std::array<uint8_t, 6> m_remoteMacBytes{}; //!< its bytes
    uint16_t m_udpSourcePort;                  //!< UDP source port

    // Attributes (MTU above)
    bool m_ackWhenWindowFull{true}; //!< RdmaCongestionOps::AckWhenWindowFull of m_cc
    Time m_rto;                     //!< base retransmission timeout
    uint32_t m_maxBackoff;          //!< timeout doubles at most this many times

    // Sender state read per packet and per turn of the endpoint's round robin, kept together
    // (the 128-GPU run's packet phase is bound by last-level cache misses).
    /// The congestion control's rate, bit/s, kept by RateChanged: pacing reads it per packet
    /// without visiting the congestion control's object.
    uint64_t m_rateBps{0};
    /// The congestion control's window, read after each call that may change it (Start,
    /// OnSend, OnAck, OnCnp, OnTimeout), so that the send path need not visit the object.
    uint64_t m_window;
    /// Pacing: the time the last packet's slot began, femtoseconds (exact clock).
    int64_t m_slotStartFs;
    /// Pacing: the bits that packet occupies on a link (headers, FCS, preamble and gap); its
    /// slot lasts this at the congestion control's current rate, so that a rate change also
    /// moves the next send.
    uint64_t m_slotBits;
    uint64_t m_postedPackets;    //!< packets of every message posted so far
    uint64_t m_sndNxt;           //!< index of the next packet to send
    uint64_t m_sndUna;           //!< index of the oldest unacknowledged packet
    uint64_t m_highestSent;      //!< one past the highest index ever sent
    uint64_t m_sndUnaBytes;      //!< payload bytes of the packets before m_sndUna
    uint64_t m_sndNxtBytes;      //!< payload bytes of the packets before m_sndNxt
    uint32_t m_mtu;              //!< payload bytes per packet
    bool m_inRoundRobin;         //!< in the endpoint's round robin of senders
    std::set<uint64_t> m_resend; //!< selective repeat: indices to resend before new data

    // Sender, the rest
    std::deque<Message> m_messages; //!< posted, not yet fully acknowledged
    uint64_t m_nextMessageId;       //!< id of the next PostWrite
    /// Send time (time steps) of packet i at i & m_sentAtMask for i in [m_sndUna,
    /// m_highestSent); -1 if it was sent more than once.
    std::vector<int64_t> m_sentAt;
    /// Unpaused-clock time (time steps) of the last transmission of packet i, in the same ring
    /// as m_sentAt (for the retransmission timer).
    std::vector<int64_t> m_sentUnpaused;
    uint64_t m_sentAtMask; //!< m_sentAt.size() - 1 (the size is a power of two)
    int64_t m_progressAt;  //!< unpaused-clock time (time steps) of the last ACK progress
    uint64_t m_recover;    //!< selective repeat: m_highestSent at the last timeout
    /// The data packets' BTH, one object for every packet sent (an ns-3 Header made per packet
    /// costs an out-of-line, logged destructor chain): GetNextPacket sets its opcode, PSN,
    /// destination QP, AckRequest and TelemetryFill each time, and nothing sets the others.
    IbBthHeader m_txBth;
    /// The ACKs' and NAKs' BTH and AETH, likewise: SendAck sets the opcode, PSN, destination
    /// QP, BECN, TelemetryEcho and HopEcho, and the syndrome and MSN, each time.
    IbBthHeader m_ackBth;
    IbAethHeader m_ackAeth;   //!< see m_ackBth
    EventId m_timer;          //!< retransmission timer
    bool m_timerArmed{false}; //!< the retransmission timer runs
    uint32_t m_backoff;       //!< current timer doublings
    bool m_telemetry{false};  //!< data packets carry telemetry (NeedsTelemetry)

    // Receiver
    /// An out-of-order packet kept by selective repeat.
    struct Kept
    {
        uint32_t bytes;  //!< payload bytes
        bool last;       //!< last packet of a message
        bool ackRequest; //!< its AckReq bit
        bool ce;         //!< it arrived CE-marked
    };

    // Receiver state, read per data packet received, and so kept together (the telemetry
    // echo, 84 bytes and read only with telemetry, last).
    uint64_t m_expected;             //!< index of the next in-order packet
    uint64_t m_receivedMessageBytes; //!< bytes of the message being received
    uint64_t m_receivedMessages;     //!< messages fully received
    uint32_t m_unacked;              //!< accepted packets not yet acknowledged
    bool m_nakSent;                  //!< a NAK for m_expected is out
    bool m_ecnEcho;                  //!< echo CE in ACKs (the congestion control asks for it)
    bool m_ceState;                  //!< ECN echo: CE state of the last in-order packet
    bool m_hopEcho;                  //!< echo hop counts in ACKs (the congestion control asks)
    uint8_t m_lastHops;              //!< hop count of the last data packet received
    uint64_t m_ackedUpTo;            //!< m_expected when the last ACK or NAK left
    Time m_firstUnackedAt;           //!< arrival of the first packet after m_ackedUpTo
    EventId m_ackTimer;              //!< ACK delay timer (lazy, like the retransmission timer)
    bool m_hasEcho{false};           //!< m_echo holds telemetry to echo in ACKs
    /// m_ackTimer is scheduled and has not run: tested per data packet instead of
    /// EventId::IsExpired, a call into the simulator that costs about 250 instructions.
    bool m_ackTimerPending{false};
    uint32_t m_ackInterval; //!< ACK every this many accepted packets
    Time m_ackDelay;        //!< ACK at the latest this long after the first unacknowledged one
    Time m_cnpInterval;     //!< least time between two CNPs
    Recovery m_recovery;    //!< go-back-N or selective repeat
    Time m_lastCnp;         //!< when the last CNP left
    bool m_anyCnp;          //!< a CNP was ever sent
    MessageCallback m_receiveComplete;     //!< receiver completion
    std::map<uint64_t, Kept> m_outOfOrder; //!< selective repeat: kept, by index
    RoceIntHeader m_echo;                  //!< telemetry of the newest in-order data packet

    // Counters
    uint64_t m_packetsSent;     //!< data packets sent
    uint64_t m_retransmissions; //!< resent
    uint64_t m_timeouts;        //!< timer expiries
    uint64_t m_cnpsSent;        //!< CNPs sent
    uint64_t m_cnpsReceived;    //!< CNPs received
    uint64_t m_naksReceived;    //!< NAKs received

    MessageCallback m_sendComplete;             //!< sender completion
    TracedCallback<uint64_t> m_retransmitTrace; //!< go-back-N or timeout from this index
};

} // namespace ns3

#endif /* RDMA_QUEUE_PAIR_H */
