/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROCE_NET_DEVICE_H
#define ROCE_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/event-impl.h"
#include "ns3/mac48-address.h"
#include "ns3/member-hook.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <utility>
#include <vector>

namespace ns3
{

class ErrorModel;
class RoceChannel;
class Node;

/**
 * @ingroup llm-fabric
 * @brief An Ethernet port of a RoCE NIC or switch: eight priority queues, line-rate
 * transmission, IEEE 802.1Qbb PFC.
 *
 * Frames are Ethernet II frames (header in the packet, FCS not: it is counted in the time on the
 * wire, as are the preamble with start delimiter and the inter-frame gap when
 * CountPreambleAndGap is true). A frame of B bytes occupies the wire for (8 + B + 4 + 12) x 8 /
 * DataRate: its last bit leaves (8 + B + 4) x 8 / DataRate after its first, and the next frame
 * may start 12 byte times later. The exact times are kept in femtoseconds, so rounding to the
 * simulator's resolution never accumulates: back-to-back frames keep the line rate.
 *
 * Transmission picks, whenever the wire is free, first a pending PFC frame (control frames are
 * never paused), then a data frame of the highest non-empty, non-paused priority (strict
 * priority, 7 highest) or, with Scheduler DWRR, by deficit round robin among those priorities.
 *
 * A received PFC frame pauses, for each priority it enables, the start of new frames of that
 * priority for quanta x 512 bit times at this port's rate (a frame already on the wire
 * completes); a zero quanta resumes at once; a newer frame replaces the remaining time. Other
 * priorities keep sending. With PfcEnabled false, pause frames are counted but ignored.
 *
 * Received frames go either to the frame receive callback (a switch takes whole frames) or,
 * without one, up the stack as an ordinary NetDevice does (Ethernet header removed).
 *
 * A host port can model a receive side slower than the link (RxDrainRate, for example PCIe or
 * memory bandwidth): arriving data frames wait in a receive buffer drained at that rate before
 * they go up the stack, and when a priority's share of that buffer passes RxXoffThreshold the
 * port pauses the peer for that priority with PFC (re-sent every half pause time while it
 * stays above RxXonThreshold), then resumes it once the share falls to RxXonThreshold.
 */
class RoceNetDevice : public NetDevice
{
  public:
    /// Number of priorities (traffic classes).
    static constexpr uint8_t NUM_PRIORITIES = 8;
    /// Preamble and start-of-frame delimiter, bytes.
    static constexpr uint32_t PREAMBLE_BYTES = 8;
    /// Minimum inter-frame gap, bytes.
    static constexpr uint32_t INTERFRAME_GAP_BYTES = 12;
    /// Frame check sequence, bytes.
    static constexpr uint32_t FCS_BYTES = 4;

    /// How a frame's priority is chosen when it is sent through Send().
    enum Classifier
    {
        DSCP, //!< priority = DSCP >> 3 of the IPv4 header (class selector)
        PCP   //!< priority = the 802.1Q PCP of a tagged frame (untagged: DefaultPriority)
    };

    /// How data frames of different priorities share the port.
    enum Scheduler
    {
        STRICT_PRIORITY, //!< highest priority first
        DWRR             //!< deficit weighted round robin, equal weights
    };

    /// Counters of one priority of this port.
    struct Counters
    {
        uint64_t txFrames{0};        //!< data frames sent
        uint64_t txBytes{0};         //!< data frame bytes sent (without FCS)
        uint64_t rxFrames{0};        //!< data frames received
        uint64_t rxBytes{0};         //!< data frame bytes received
        uint64_t pausesSent{0};      //!< PFC frames sent with non-zero quanta for this priority
        uint64_t resumesSent{0};     //!< PFC frames sent with zero quanta for this priority
        uint64_t pausesReceived{0};  //!< PFC frames received with non-zero quanta
        uint64_t resumesReceived{0}; //!< PFC frames received with zero quanta
        Time pausedTime;             //!< total time this priority was paused by the peer
    };

    /// How many of a received frame's first bytes the port reads once and hands to its
    /// receiver (FrameReceiveCallback): enough for any frame's 5-tuple
    /// (EcmpHash::MAX_TUPLE_BYTES), and so for its priority and its Ethernet header.
    static constexpr uint32_t HEAD_BYTES = 82;

    /**
     * Callback for whole received frames (switch ports).
     * @param device the receiving port.
     * @param frame the frame, Ethernet header included.
     * @param priority the priority the port classified it as (ClassifyBytes).
     * @param head the frame's first bytes, as the port read them (no need to copy them again).
     * @param headBytes how many: HEAD_BYTES, or the frame's size if smaller.
     * @param ttlDebt IPv4 TTL decrements the switches before deferred (see "Deferred TTL
     * decrements" in Enqueue): the frame, and @p head, lack that many; the receiver applies
     * them (FramePrefixHeader::DecrementIpv4Ttl) before anything reads the TTL or the header
     * checksum, or passes them on.
     */
    typedef Callback<void,
                     const Ptr<RoceNetDevice>&,
                     const Ptr<Packet>&,
                     uint8_t,
                     const uint8_t*,
                     uint32_t,
                     uint8_t>
        FrameReceiveCallback;

    /**
     * Callback for frames addressed to a host port's own MAC address, taken whole by a receiver
     * that reads them from their head bytes (the RDMA endpoint), instead of the stack's
     * ReceiveCallback with the Ethernet header removed and the deferred TTL decrements paid
     * (which are an ns-3 RemoveAtStart and AddHeader per frame). The port uses it only while
     * nothing else looks at what it hands up: no MacRx sink and no promiscuous callback.
     * @param device the receiving port.
     * @param frame the frame, Ethernet header included, as it arrived: its IPv4 header still
     *        lacks @p ttlDebt TTL decrements (and their checksum updates).
     * @param head the frame's first bytes as the port read them (HEAD_BYTES, or the frame's
     *        size if smaller).
     * @param headBytes how many.
     * @param ttlDebt TTL decrements the switches deferred (FramePrefixHeader::TtlAfter gives the
     *        TTL the stack would see).
     * @return true if the receiver took the frame; false to have the port hand it up to the
     *         ReceiveCallback as usual (the receiver must then have done nothing with it).
     */
    typedef Callback<bool,
                     const Ptr<RoceNetDevice>&,
                     const Ptr<Packet>&,
                     const uint8_t*,
                     uint32_t,
                     uint8_t>
        HostFrameReceiveCallback;

    /**
     * Callback when a data frame leaves its queue to go on the wire. The callback may still
     * modify the frame (a switch marking ECN at departure): what goes on the wire, and to the
     * pcap, is the frame as the callback leaves it.
     * @param device the port.
     * @param frame the frame.
     * @param priority its priority.
     * @param tag the value given to Enqueue.
     * @param ttlDebt the TTL decrements deferred for the frame (given to Enqueue): the callback
     * sets it to 0 if it applies them; the port passes on what is left.
     */
    typedef Callback<void,
                     const Ptr<RoceNetDevice>&,
                     const Ptr<Packet>&,
                     uint8_t,
                     uint64_t,
                     uint8_t&>
        DequeueCallback;

    /// The FrameReceiveCallback as a MemberHook (the port passed by reference): what a switch
    /// sets, at a few instructions a frame instead of an ns-3 Callback's 50 to 70.
    typedef MemberHook<
        void(RoceNetDevice&, const Ptr<Packet>&, uint8_t, const uint8_t*, uint32_t, uint8_t)>
        FrameReceiveHook;

    /// The HostFrameReceiveCallback as a MemberHook (the port passed by reference).
    typedef MemberHook<bool(RoceNetDevice&, const Ptr<Packet>&, const uint8_t*, uint32_t, uint8_t)>
        HostFrameReceiveHook;

    /// The DequeueCallback as a MemberHook (the port passed by reference).
    typedef MemberHook<void(RoceNetDevice&, const Ptr<Packet>&, uint8_t, uint64_t, uint8_t&)>
        DequeueHook;

    /// The TxStartCallback as a MemberHook.
    typedef MemberHook<void()> TxStartHook;

    /**
     * Signature of the PfcReceived and PfcSent traces.
     * @param classEnableVector bit i set for priority i.
     * @param quanta the pause time of each priority (0 for a disabled one).
     */
    typedef void (*PfcTracedCallback)(uint8_t classEnableVector,
                                      const std::array<uint16_t, 8>& quanta);

    /**
     * Signature of the PauseState trace: a priority of this port stops or starts being paused.
     * @param priority the priority.
     * @param paused true when the pause starts, false when it ends.
     */
    typedef void (*PauseStateTracedCallback)(uint8_t priority, bool paused);

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RoceNetDevice();
    ~RoceNetDevice() override;

    RoceNetDevice(const RoceNetDevice&) = delete;
    RoceNetDevice& operator=(const RoceNetDevice&) = delete;

    /**
     * Connect this port to a link.
     * @param channel the link.
     * @return true.
     */
    bool Attach(Ptr<RoceChannel> channel);

    /**
     * Queue a whole frame (Ethernet header included) for transmission; used by switches, whose
     * MMU has already admitted it. Never drops.
     *
     * Deferred TTL decrements: a switch may hand over an IPv4 frame whose TTL and header
     * checksum still lack the decrements of the switches it crossed (@p ttlDebt of them):
     * patching them at every hop was a tenth of a fabric's run time. The debt travels with the
     * frame, through the queue, the link and the next port, and is paid
     * (FramePrefixHeader::DecrementIpv4Ttl, as many single decrements) before anyone else
     * sees the frame: before every trace sink and sniffer (pcaps) that receives it, the error
     * model, a flush or discard callback, delivery to the node's stack, and the stages of a
     * switch that do not accept it (EgressStage::AcceptsDeferredTtl). What a sink, a pcap or a
     * receiver sees is therefore the frame as if every switch had patched it.
     * @param frame the frame.
     * @param priority its priority (0-7).
     * @param tag a value handed back to the dequeue callback (the switch's bookkeeping).
     * @param ttlDebt TTL decrements deferred for the frame (0: none).
     */
    void Enqueue(const Ptr<Packet>& frame, uint8_t priority, uint64_t tag, uint8_t ttlDebt = 0);

    /**
     * Send a frame whose Ethernet II header the sender wrote itself, with its other headers in
     * one piece (RoceV2Packet::Encapsulate with an Ethernet header): what SendFrom does after
     * adding the header. Classified by its own bytes, traced as MacTx, and dropped (MacTxDrop)
     * when what follows the Ethernet header exceeds the MTU or the priority's queue is full.
     * @param frame the frame, from its Ethernet header; left as given when dropped.
     * @return false if it was dropped.
     */
    bool SendFrame(const Ptr<Packet>& frame);

    /**
     * Write an Ethernet II header (no preamble, no tag) from this port's address.
     * @param out where to write its 14 bytes: destination, source, EtherType.
     * @param destination the destination address.
     * @param etherType the EtherType.
     */
    void WriteEthernetHeader(uint8_t* out, Mac48Address destination, uint16_t etherType) const;

    /**
     * WriteEthernetHeader with the destination's six bytes (Mac48Address::CopyTo), for a
     * caller that keeps them: no call into ns-3 per frame.
     * @param out where to write its 14 bytes: destination, source, EtherType.
     * @param destination the destination address's six bytes.
     * @param etherType the EtherType.
     */
    void WriteEthernetHeader(uint8_t* out, const uint8_t* destination, uint16_t etherType) const;

    /**
     * Send a PFC frame now (ahead of every data frame).
     * @param priority the priority to pause or resume.
     * @param quanta pause time in quanta of 512 bit times; 0 resumes.
     */
    void SendPfc(uint8_t priority, uint16_t quanta);

    /**
     * Bring this end of the link down or up (a link fault, a NIC down). While down, the port
     * loses every frame that arrives (counted by GetLinkDownDrops, traced by PhyRxDrop) and
     * sends nothing: the frames waiting in its queues, and those queued later, are discarded at
     * once without using wire time (each still passes the dequeue callback, so a switch releases
     * its buffer; counted by GetLinkDownDrops, traced by MacTxDrop). Going down also ends the
     * pauses received from the peer and the receive-side pauses sent to it (PFC state does not
     * survive a link reset). The link-change callbacks run on every change. A frame already on
     * the wire when its link goes down is lost at the far end only if that end is down when it
     * arrives: a fault injector brings both ends down together.
     * @param up false to bring the link down, true to bring it back.
     */
    void SetLinkUp(bool up);

    /**
     * Change the line rate mid-run (a degraded link). The frame on the wire keeps the rate it
     * started with; later frames, PFC pause times (quanta of 512 bit times) and the receive-side
     * pause refresh use the new rate.
     * @param rate the new rate, positive.
     */
    void SetDataRate(DataRate rate);

    /// @return frames lost because this end was down (received while down, or discarded).
    uint64_t GetLinkDownDrops() const;

    /**
     * Called by the channel when a frame has fully arrived.
     * @param frame the frame.
     * @param ttlDebt TTL decrements deferred for it (see Enqueue).
     */
    void Receive(const Ptr<Packet>& frame, uint8_t ttlDebt = 0);

    /**
     * Called by the channel when a frame has fully arrived, with its first bytes as it left
     * the other end (RoceChannel::Transmit kept them): the same as Receive(frame, ttlDebt), but
     * for reading them from the frame.
     * @param frame the frame.
     * @param ttlDebt TTL decrements deferred for it (see Enqueue).
     * @param head its first bytes (null: read them from the frame); they must stay as they are
     *        until the frame's receiver has forwarded or delivered it.
     * @param headLength how many: HEAD_BYTES, or the frame's size if it is shorter.
     */
    void Receive(const Ptr<Packet>& frame,
                 uint8_t ttlDebt,
                 const uint8_t* head,
                 uint32_t headLength);

    /**
     * @param priority a priority.
     * @return true if the peer's PFC currently pauses it.
     */
    bool IsPaused(uint8_t priority) const;

    /**
     * @param priority a priority.
     * @return bytes waiting in its queue.
     */
    uint32_t GetQueueBytes(uint8_t priority) const;

    /**
     * Start a high-water mark of the data queues: the largest number of bytes one priority
     * queue holds from now on (a frame counts from its enqueue until it starts on the wire,
     * so one that finds the port idle counts for an instant). The mark begins at the longest
     * queue now. It is kept by Enqueue (one comparison per frame) where a PhyTxBegin sink
     * would cost a call and a look at the counters per frame. Several observers may each hold
     * a mark.
     * @return the mark's identifier, for GetQueueHighWaterMark and RemoveQueueHighWaterMark.
     */
    uint32_t AddQueueHighWaterMark();

    /**
     * @param id an identifier from AddQueueHighWaterMark (aborts if unknown or removed).
     * @return the largest number of bytes one priority queue has held since the mark began.
     */
    uint32_t GetQueueHighWaterMark(uint32_t id) const;

    /**
     * Stop keeping a mark (its observer is gone). Unknown identifiers are ignored.
     * @param id an identifier from AddQueueHighWaterMark.
     */
    void RemoveQueueHighWaterMark(uint32_t id);

    /**
     * Callback for each frame FlushQueue removes.
     * @param frame the frame.
     * @param tag the value given to Enqueue.
     */
    typedef Callback<void, Ptr<Packet>, uint64_t> FlushCallback;

    /**
     * Remove every frame waiting in a priority queue (a PFC watchdog dropping a stormed
     * queue); they are not counted as sent.
     * @param priority the priority.
     * @param cb called for each frame removed, in queue order (may be null).
     * @return the number of frames removed.
     */
    uint32_t FlushQueue(uint8_t priority, FlushCallback cb);

    /**
     * Sum the bytes of the frames waiting in a priority queue whose Enqueue tag, masked, has
     * a value (a switch asking which ingress port the frames of an egress queue came from).
     * Walks the queue: for diagnosis, not for the per-packet path.
     * @param priority the priority.
     * @param mask bits of the tag compared.
     * @param value their value.
     * @return the bytes.
     */
    uint32_t GetQueuedBytesWithTag(uint8_t priority, uint64_t mask, uint64_t value) const;

    /**
     * Ignore received pauses of a priority, or honour them again (a PFC watchdog mitigating a
     * storm). Ignoring lifts a pause in force at once (PauseState reports its end); honouring
     * again waits for the next pause the peer sends.
     * @param priority the priority.
     * @param ignored true to ignore.
     */
    void SetPauseIgnored(uint8_t priority, bool ignored);

    /**
     * @param priority a priority.
     * @return when the last PFC frame pausing it (non-zero quanta) was received, ignored or
     *         not (0 if none).
     */
    Time GetLastPauseReceived(uint8_t priority) const;

    /**
     * @param priority a priority.
     * @return bytes of that priority in the receive buffer (RxDrainRate > 0 only).
     */
    uint32_t GetRxBufferBytes(uint8_t priority) const;

    /// @return the largest receive-buffer occupancy seen, all priorities, in bytes.
    uint32_t GetMaxRxBufferBytes() const;

    /**
     * @param priority a priority (aborts above 7).
     * @return its counters.
     */
    const Counters& GetCounters(uint8_t priority) const
    {
        CheckPriority(priority);
        return m_counters[priority];
    }

    /**
     * @return bytes of every frame this port has started to transmit, data and PFC, without
     *         FCS, preamble and gap (what a frame's dequeue callback reads does not count that
     *         frame yet).
     */
    uint64_t GetTxBytes() const;

    /**
     * @return the wire bytes of every frame this port has started to transmit: GetTxBytes plus
     *         the FCS, and the preamble and gap with CountPreambleAndGap, of each frame (the
     *         wire time used so far, in bytes at the port's rate).
     */
    uint64_t GetTxWireBytes() const;

    /**
     * The time a frame of this many bytes (Ethernet header to payload end, no FCS) occupies
     * the wire at this port's rate, FCS, preamble and gap included (preamble and gap only with
     * CountPreambleAndGap).
     * @param frameBytes frame size without FCS.
     * @return the time, rounded to the simulator's resolution (transmission itself keeps the
     *         exact value).
     */
    Time GetWireTime(uint32_t frameBytes) const;

    /// @return the line rate.
    DataRate GetDataRate() const;

    /// @return the line rate in bit/s (GetDataRate().GetBitRate() without a DataRate's copy
    /// and library call, for callers that ask per packet).
    uint64_t GetBitRate() const
    {
        return m_bitRate;
    }

    /**
     * @param cb callback receiving whole frames instead of the stack.
     */
    void SetFrameReceiveCallback(FrameReceiveCallback cb);

    /**
     * Callback when a frame starts on the wire, before the PhyTxBegin sinks: the RDMA endpoint
     * refills the port from it. A callback without the frame costs less per frame than a
     * PhyTxBegin sink (a Ptr<const Packet> made and released per sink).
     */
    typedef Callback<void> TxStartCallback;

    /**
     * @param cb callback at each frame's start on the wire (TxStartCallback); one.
     */
    void SetTxStartCallback(TxStartCallback cb);

    /**
     * @param cb callback taking whole frames addressed to this port ahead of the
     *        ReceiveCallback (HostFrameReceiveCallback); SetReceiveCallback removes it, so that
     *        a new receiver is never bypassed.
     */
    void SetHostFrameReceiveCallback(HostFrameReceiveCallback cb);

    /**
     * @param cb callback for frames leaving their queue.
     */
    void SetDequeueCallback(DequeueCallback cb);

    /**
     * The same receivers as the four Set...Callback above, as hooks: a port calls whichever of
     * a callback and its hook was set last (setting one replaces the other; a null hook or
     * callback removes it). SetReceiveCallback removes the host frame receiver of either kind.
     * @param hook the receiver; the port keeps no reference to its object.
     */
    void SetFrameReceiveHook(FrameReceiveHook hook);

    /// @return whether a whole-frame receiver (a switch's) takes the frames this port receives.
    bool HasFrameReceiver() const;
    /// @copydoc SetFrameReceiveHook
    void SetHostFrameReceiveHook(HostFrameReceiveHook hook);
    /// @copydoc SetFrameReceiveHook
    void SetDequeueHook(DequeueHook hook);
    /// @copydoc SetFrameReceiveHook
    void SetTxStartHook(TxStartHook hook);

    /**
     * The priority of a frame as this port's classifier sees it.
     * @param frame an Ethernet frame.
     * @return its priority (DefaultPriority for non-IPv4 frames in DSCP mode, or untagged
     *         frames in PCP mode).
     */
    uint8_t Classify(Ptr<const Packet> frame) const;

    /**
     * The priority of a frame from its first bytes (see Classify).
     * @param bytes the frame's first bytes.
     * @param length how many there are.
     * @return the priority.
     */
    uint8_t ClassifyBytes(const uint8_t* bytes, uint32_t length) const;

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /// A frame size and its wire time at the port's rate (FrameFs).
    struct FsCacheEntry
    {
        uint32_t bytes{0}; //!< the size (0: empty)
        int64_t fs{0};     //!< its time in femtoseconds
    };

    /// A frame waiting in a priority queue.
    struct Entry
    {
        /// An empty entry (a free slot of an EntryQueue).
        Entry()
            : frame(nullptr),
              tag(0)
        {
        }

        /**
         * @param f the frame.
         * @param t its tag.
         * @param debt its deferred TTL decrements.
         */
        Entry(const Ptr<Packet>& f, uint64_t t, uint8_t debt)
            : frame(PeekPointer(f)),
              tag(t),
              ttlDebt(debt)
        {
            frame->Ref();
        }

        /**
         * Move: the reference goes with the frame (ns-3.37's Ptr has no move, and a copy costs
         * a reference taken and one released per frame).
         * @param other the entry left empty.
         */
        Entry(Entry&& other) noexcept
            : frame(other.frame),
              tag(other.tag),
              ttlDebt(other.ttlDebt)
        {
            other.frame = nullptr;
        }

        /**
         * @param other the entry whose frame this takes, leaving it this one's.
         * @return this.
         */
        Entry& operator=(Entry&& other) noexcept
        {
            std::swap(frame, other.frame);
            tag = other.tag;
            ttlDebt = other.ttlDebt;
            return *this;
        }

        Entry(const Entry&) = delete;
        Entry& operator=(const Entry&) = delete;

        ~Entry()
        {
            if (frame)
            {
                frame->Unref();
            }
        }

        /// @return the frame with the entry's reference (the entry is left without it).
        Ptr<Packet> TakeFrame()
        {
            Ptr<Packet> taken(frame, false);
            frame = nullptr;
            return taken;
        }

        Packet* frame;      //!< the frame, with a reference the entry holds
        uint64_t tag;       //!< handed back at dequeue
        uint8_t ttlDebt{0}; //!< TTL decrements deferred (Enqueue)
    };

    /**
     * A priority queue's frames, first in first out, in a ring of 2^k entries that doubles when
     * full. Where a std::deque (80 bytes, a map and chunks of its own) took a chunk from the
     * heap every 21 frames and gave it back as they left, and its bookkeeping lay in other
     * cache lines than the frames', this is 24 bytes and one array.
     */
    class EntryQueue
    {
      public:
        EntryQueue() = default;
        EntryQueue(const EntryQueue&) = delete;
        EntryQueue& operator=(const EntryQueue&) = delete;

        ~EntryQueue()
        {
            clear();
        }

        /// @return whether the queue holds no frame.
        bool empty() const
        {
            return m_size == 0;
        }

        /// @return how many frames it holds.
        uint32_t size() const
        {
            return m_size;
        }

        /// @return the first frame's entry (the queue holds one).
        Entry& front()
        {
            return At(0);
        }

        /**
         * Queue a frame last.
         * @param f the frame.
         * @param t its tag.
         * @param debt its deferred TTL decrements.
         */
        void emplace_back(const Ptr<Packet>& f, uint64_t t, uint8_t debt)
        {
            if (m_size == m_mask + 1 || !m_slots)
            {
                Grow();
            }
            m_slots[(m_head + m_size) & m_mask] = Entry(f, t, debt);
            ++m_size;
        }

        /// Remove the first entry (the queue holds one), releasing its frame if it still has it.
        void pop_front()
        {
            Entry& slot = m_slots[m_head];
            if (slot.frame)
            {
                slot.frame->Unref();
                slot.frame = nullptr;
            }
            m_head = (m_head + 1) & m_mask;
            --m_size;
        }

        /// Remove every entry.
        void clear()
        {
            while (m_size != 0)
            {
                pop_front();
            }
            m_head = 0;
        }

        /**
         * @param i a position, 0 first.
         * @return the entry there.
         */
        Entry& At(uint32_t i) const
        {
            return m_slots[(m_head + i) & m_mask];
        }

        /**
         * Exchange contents with another queue.
         * @param other the other queue.
         */
        void swap(EntryQueue& other) noexcept
        {
            std::swap(m_slots, other.m_slots);
            std::swap(m_mask, other.m_mask);
            std::swap(m_head, other.m_head);
            std::swap(m_size, other.m_size);
        }

      private:
        /// Double the ring (8 entries at first), the entries in order from its start.
        void Grow()
        {
            const uint32_t capacity = m_slots ? 2 * (m_mask + 1) : 8;
            std::unique_ptr<Entry[]> slots(new Entry[capacity]);
            for (uint32_t i = 0; i < m_size; ++i)
            {
                slots[i] = std::move(At(i));
            }
            m_slots = std::move(slots);
            m_mask = capacity - 1;
            m_head = 0;
        }

        std::unique_ptr<Entry[]> m_slots; //!< the ring (null until the first frame)
        uint32_t m_mask{0};               //!< its size minus one
        uint32_t m_head{0};               //!< position of the first entry
        uint32_t m_size{0};               //!< entries held
    };

    /**
     * Queue a frame from this node (SendFrom, SendFrame): classify it, drop it if its queue is
     * full, trace it, queue it.
     * @param frame the frame, from its Ethernet header.
     * @return false if it was dropped.
     */
    bool QueueFrame(const Ptr<Packet>& frame);
    /// Start the next frame if the wire is free and a frame may go.
    void TryTransmit();
    /// Discard every queued frame (the link is down).
    void DiscardQueued();
    /**
     * Put a frame on the wire.
     * @param frame the frame.
     * @param ttlDebt TTL decrements deferred for it (see Enqueue): paid here if a sink sees
     * the frame, else passed to the link.
     */
    void StartTransmission(const Ptr<Packet>& frame, uint8_t ttlDebt = 0);
    /// The wire is free again (the event at a frame's end, when one was scheduled).
    void TransmitComplete();
    /**
     * Schedule TransmitComplete at the end of the frame on the wire (m_txEndFs).
     * @param nowFs the current time in femtoseconds.
     * @param unitFs ExactTime::GetResolutionFs().
     */
    void ScheduleTransmitComplete(int64_t nowFs, int64_t unitFs);
    /// @return whether a PFC frame or a data frame is queued (paused or not).
    bool HasQueuedFrame() const;
    /**
     * Choose the priority whose head frame goes next.
     * @return the priority, or NUM_PRIORITIES if none may go now.
     */
    uint8_t SelectPriority();
    /**
     * Act on a received PFC frame.
     * @param frame the frame, Ethernet header included.
     */
    void ReceivePfc(Ptr<Packet> frame);
    /// Lift the pauses that have expired and schedule the next expiry.
    void UpdatePauses();
    /**
     * Pass a received data frame up the stack.
     * @param frame the frame, Ethernet header included.
     */
    void DeliverUp(Ptr<Packet> frame);
    /**
     * DeliverUp with the frame's first bytes already read.
     * @param frame the frame.
     * @param head its first bytes.
     * @param headBytes how many (at least the Ethernet header's, or it is not delivered).
     * @param ttlDebt TTL decrements deferred for the frame (Enqueue), paid here.
     */
    void DeliverUp(const Ptr<Packet>& frame,
                   const uint8_t* head,
                   uint32_t headBytes,
                   uint8_t ttlDebt = 0);
    /// The frame at the head of the receive buffer has been drained.
    void RxDrained();
    /// Schedule the end of draining the frame at the head of the receive buffer.
    void ScheduleRxDrain();
    /**
     * Re-send the receive-side pause of a priority while its buffer share stays high.
     * @param priority the priority.
     */
    void RefreshRxPause(uint8_t priority);
    /**
     * Femtoseconds a number of bytes takes at this port's rate.
     * @param bytes the bytes.
     * @return femtoseconds.
     */
    int64_t BytesToFs(uint64_t bytes) const;
    /**
     * BytesToFs for a frame's wire time, remembered for the few sizes a port sends (a
     * floating-point division and a rounding less per frame).
     * @param bytes the bytes on the wire.
     * @return femtoseconds.
     */
    int64_t FrameFs(uint32_t bytes);

    /**
     * Abort unless a priority is at most 7: the test inline (every accessor taking a priority,
     * some per frame), the message out of line (PriorityError).
     * @param priority the priority.
     */
    static void CheckPriority(uint8_t priority)
    {
        if (priority >= NUM_PRIORITIES)
        {
            PriorityError(priority);
        }
    }

    /**
     * Abort with the message of a priority above 7.
     * @param priority the priority.
     */
    [[noreturn]] static void PriorityError(uint8_t priority);

    /**
     * Set the MAC address (attribute Address, SetAddress) and its bytes.
     * @param address the address.
     */
    void SetMac48Address(Mac48Address address);
    /// @return the MAC address (attribute Address).
    Mac48Address GetMac48Address() const;
    /**
     * Set the host's receive rate (attribute RxDrainRate), kept as its bit rate.
     * @param rate the rate; 0: unlimited.
     */
    void SetRxDrainRate(DataRate rate);
    /// @return the host's receive rate (attribute RxDrainRate).
    DataRate GetRxDrainRate() const;
    /**
     * Set what a priority queue may hold through Send() (attribute TxQueueLimit) and its value.
     * @param limit the limit.
     */
    void SetTxQueueLimit(QueueSize limit);
    /// @return what a priority queue may hold through Send() (attribute TxQueueLimit).
    QueueSize GetTxQueueLimit() const;

    // Read per frame, and so kept together: a frame through a port touched about seventeen of
    // this object's cache lines when these fields lay among the others (a fabric's ports take
    // turns, and their fields leave the first-level cache in between).
    Ptr<RoceChannel> m_channel;       //!< link
    uint32_t m_ifIndex;               //!< index in the node
    bool m_linkUp{true};              //!< SetLinkUp
    bool m_txBusy;                    //!< a frame is on the wire
    bool m_txEndPending{false};       //!< TransmitComplete is scheduled (or a start is deciding it)
    uint8_t m_currentFrameTtlDebt{0}; //!< m_currentFrame's TTL decrements deferred (Enqueue)
    bool m_countPreambleAndGap;       //!< charge preamble and inter-frame gap on the wire
    bool m_everyFrameEndEvent;        //!< an end event for every frame (the old way)
    bool m_pfcEnabled;                //!< honour received PFC frames
    uint8_t m_defaultPriority;        //!< priority of frames the classifier cannot place
    Classifier m_classifier;          //!< priority classification of Send()
    Scheduler m_scheduler;            //!< strict priority or DWRR
    uint32_t m_txQueueLimitValue{0};  //!< m_txQueueLimit's value (SetTxQueueLimit)
    uint64_t m_bitRate{0};            //!< m_rate in bit/s, read per frame (SetDataRate)
    int64_t m_gapFs{0};               //!< inter-frame gap at m_rate, fs (SetDataRate)
    int64_t m_txEndFs{0};             //!< when TransmitComplete runs (fs, whole ticks)
    int64_t m_wireFreeFs;             //!< exact time the wire frees (fs)
    uint64_t m_txBytes;               //!< bytes started, all frames
    uint64_t m_txWireBytes{0};        //!< m_txBytes with FCS, preamble, gap
    uint64_t m_rxDrainBps{0};         //!< host receive rate, bit/s; 0: unlimited
    Ptr<ErrorModel> m_receiveErrorModel;    //!< drops received frames (tests, lossy links)
    Ptr<Packet> m_currentFrame;             //!< the frame on the wire
    Ptr<EventImpl> m_transmitCompleteEvent; //!< TransmitComplete, scheduled anew per frame
    std::array<uint32_t, NUM_PRIORITIES> m_queueBytes; //!< bytes per queue
    /// paused now (next to the byte counts: SelectPriority reads both per frame)
    std::array<bool, NUM_PRIORITIES> m_paused;
    FrameReceiveHook m_frameRxHook;                          //!< whole-frame receiver (switch)
    DequeueHook m_dequeueHook;                               //!< dequeue notification (switch)
    HostFrameReceiveHook m_hostFrameRxHook;                  //!< whole-frame receiver (host)
    TxStartHook m_txStartHook;                               //!< at each frame's start (host)
    NetDevice::PromiscReceiveCallback m_promiscCallback;     //!< promiscuous stack receiver
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;     //!< frame starts on the wire
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;       //!< frame's last bit sent
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;       //!< frame fully received
    TracedCallback<Ptr<const Packet>> m_snifferTrace;        //!< every frame sent or received
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< the same, for pcap helpers
    TracedCallback<Ptr<const Packet>> m_macRxTrace;          //!< frame passed up
    std::deque<Ptr<Packet>> m_control;                       //!< PFC frames to send
    /// AddQueueHighWaterMark's marks: identifier and the largest queue since it began
    std::vector<std::pair<uint32_t, uint32_t>> m_highWaterMarks;
    std::array<FsCacheEntry, 8> m_fsCache;           //!< FrameFs's sizes, by size modulo 8
    std::array<EntryQueue, NUM_PRIORITIES> m_queues; //!< data queues
    std::array<Counters, NUM_PRIORITIES> m_counters; //!< per-priority counters

    // The rest: configuration, PFC and DWRR state, the receive buffer, the other traces.
    Ptr<Node> m_node;                       //!< owner
    Mac48Address m_address;                 //!< MAC address
    std::array<uint8_t, 6> m_addressBytes;  //!< its bytes (SetMac48Address)
    Address m_rxSource;                     //!< a received frame's source, handed up (DeliverUp)
    uint16_t m_mtu;                         //!< largest network-layer packet
    DataRate m_rate;                        //!< line rate
    uint32_t m_dwrrQuantum;                 //!< DWRR quantum in bytes
    QueueSize m_txQueueLimit;               //!< what a priority queue may hold through Send()
    QueueSize m_rxXoff;                     //!< receive-buffer share that pauses the peer
    QueueSize m_rxXon;                      //!< receive-buffer share that resumes it
    uint16_t m_rxPauseQuanta;               //!< quanta of receive-side pauses
    uint64_t m_linkDownDrops{0};            //!< frames lost while down
    TracedCallback<> m_linkChangeCallbacks; //!< AddLinkChangeCallback
    uint32_t m_nextHighWaterMark{0};        //!< identifier of the next mark
    std::array<int64_t, NUM_PRIORITIES> m_deficit;          //!< DWRR deficits
    uint8_t m_dwrrNext;                                     //!< DWRR round-robin position
    bool m_dwrrCredited;                                    //!< m_dwrrNext got its quantum
    std::array<int64_t, NUM_PRIORITIES> m_pausedUntilFs;    //!< pause end per priority (fs)
    std::array<Time, NUM_PRIORITIES> m_pauseStart;          //!< when the current pause began
    std::array<bool, NUM_PRIORITIES> m_pauseIgnored;        //!< SetPauseIgnored
    std::array<Time, NUM_PRIORITIES> m_lastPauseRx;         //!< last non-zero pause received
    EventId m_pauseEvent;                                   //!< next pause expiry
    std::deque<std::pair<Ptr<Packet>, uint8_t>> m_rxBuffer; //!< frames waiting to go up
    std::array<uint32_t, NUM_PRIORITIES> m_rxBytes;         //!< receive buffer per priority
    uint32_t m_rxTotalBytes;                                //!< receive buffer, all
    uint32_t m_maxRxBytes;                                  //!< its largest value
    std::array<bool, NUM_PRIORITIES> m_rxPaused;            //!< peer paused by us
    std::array<EventId, NUM_PRIORITIES> m_rxPauseRefresh;   //!< refresh of those pauses
    EventId m_rxDrainEvent;                                 //!< head of buffer drained
    int64_t m_rxDrainEndFs;                                 //!< exact end of the current drain (fs)

    // Each receiver is called through its hook (above); a callback set instead is kept here
    // and called by a hook that makes the Ptr<RoceNetDevice> it takes.
    FrameReceiveCallback m_frameRxCallback;             //!< whole-frame receiver, if a callback
    DequeueCallback m_dequeueCallback;                  //!< dequeue notification, if a callback
    HostFrameReceiveCallback m_hostFrameRxCallback;     //!< host frame receiver, if a callback
    TxStartCallback m_txStartCallback;                  //!< at each frame's start, if a callback
    NetDevice::ReceiveCallback m_rxCallback;            //!< stack receiver
    TracedCallback<Ptr<const Packet>> m_macTxTrace;     //!< frame accepted by Send
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace; //!< frame refused by Send
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace; //!< frame lost to the error model
    TracedCallback<uint8_t, const std::array<uint16_t, 8>&> m_pfcRxTrace; //!< PFC received
    TracedCallback<uint8_t, const std::array<uint16_t, 8>&> m_pfcTxTrace; //!< PFC sent
    TracedCallback<uint8_t, bool> m_pauseStateTrace;                      //!< pause begins or ends
};

} // namespace ns3

#endif /* ROCE_NET_DEVICE_H */
