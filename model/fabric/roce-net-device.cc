/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-net-device.h"

#include "ecmp-hash.h"
#include "exact-time.h"
#include "frame-prefix-header.h"
#include "pfc-header.h"
#include "roce-channel.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/lean-simulator-impl.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceNetDevice");

NS_OBJECT_ENSURE_REGISTERED(RoceNetDevice);

namespace
{

/// EtherType of IPv4.
constexpr uint16_t ETHERTYPE_IPV4 = EcmpHash::ETHER_TYPE_IPV4;
/// EtherType of an IEEE 802.1Q tag.
constexpr uint16_t ETHERTYPE_VLAN = EcmpHash::ETHER_TYPE_VLAN;
/// Ethernet II header, bytes.
constexpr uint32_t ETHERNET_HEADER_BYTES = EcmpHash::ETHERNET_HEADER_SIZE;
/// Bytes of a frame the classifier reads (Ethernet, optional tag, IPv4 version and TOS).
constexpr uint32_t CLASSIFY_BYTES = 20;
static_assert(RoceNetDevice::HEAD_BYTES == EcmpHash::MAX_TUPLE_BYTES,
              "a switch finds every 5-tuple in the head a port hands it");
/// "No priority may send now".
constexpr uint8_t NONE = RoceNetDevice::NUM_PRIORITIES;

} // namespace

TypeId
RoceNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RoceNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("LlmFabric")
            .AddConstructor<RoceNetDevice>()
            .AddAttribute("Address",
                          "MAC address of the port.",
                          Mac48AddressValue(Mac48Address("ff:ff:ff:ff:ff:ff")),
                          MakeMac48AddressAccessor(&RoceNetDevice::SetMac48Address,
                                                   &RoceNetDevice::GetMac48Address),
                          MakeMac48AddressChecker())
            .AddAttribute("Mtu",
                          "Largest network-layer packet Send() accepts, bytes (9000: jumbo "
                          "frames, common in RoCE fabrics).",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&RoceNetDevice::m_mtu),
                          MakeUintegerChecker<uint16_t>(68, 9216))
            .AddAttribute(
                "DataRate",
                "Line rate of the port.",
                DataRateValue(DataRate("100Gbps")),
                MakeDataRateAccessor(&RoceNetDevice::SetDataRate, &RoceNetDevice::GetDataRate),
                MakeDataRateChecker())
            .AddAttribute("CountPreambleAndGap",
                          "Charge the 8-byte preamble with start delimiter and the 12-byte "
                          "inter-frame gap on the wire, as Ethernet does.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNetDevice::m_countPreambleAndGap),
                          MakeBooleanChecker())
            .AddAttribute("EveryFrameEndEvent",
                          "Schedule an event at the end of every frame, as this module did "
                          "before December 2026. By default a frame's end gets an event only "
                          "when a frame is queued behind it (or PhyTxEnd has a sink): times are "
                          "the same, and only the order among events of one instant may "
                          "differ. True reproduces the earlier results byte for byte, at "
                          "about 1.2 times the events.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RoceNetDevice::m_everyFrameEndEvent),
                          MakeBooleanChecker())
            .AddAttribute(
                "Classifier",
                "How Send() chooses a frame's priority: from the IPv4 DSCP (priority "
                "= DSCP >> 3) or from the 802.1Q PCP of a tagged frame.",
                EnumValue(RoceNetDevice::DSCP),
                LLM_FABRIC_ENUM_ACCESSOR(RoceNetDevice::Classifier, &RoceNetDevice::m_classifier),
                MakeEnumChecker(RoceNetDevice::DSCP, "Dscp", RoceNetDevice::PCP, "Pcp"))
            .AddAttribute("DefaultPriority",
                          "Priority of frames the classifier cannot place (not IPv4 in DSCP "
                          "mode, untagged in PCP mode).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&RoceNetDevice::m_defaultPriority),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute(
                "Scheduler",
                "How data priorities share the port: strict priority (7 highest) or "
                "deficit round robin with equal weights.",
                EnumValue(RoceNetDevice::STRICT_PRIORITY),
                LLM_FABRIC_ENUM_ACCESSOR(RoceNetDevice::Scheduler, &RoceNetDevice::m_scheduler),
                MakeEnumChecker(RoceNetDevice::STRICT_PRIORITY,
                                "StrictPriority",
                                RoceNetDevice::DWRR,
                                "Dwrr"))
            .AddAttribute("DwrrQuantum",
                          "Bytes a priority may send per round under DWRR.",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&RoceNetDevice::m_dwrrQuantum),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("PfcEnabled",
                          "Honour received PFC frames (they are counted either way).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RoceNetDevice::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("TxQueueLimit",
                          "What each priority queue may hold for frames given to Send(); "
                          "beyond it Send() drops (MacTxDrop). Frames a switch enqueues are "
                          "admitted by its MMU instead.",
                          QueueSizeValue(QueueSize("10MB")),
                          MakeQueueSizeAccessor(&RoceNetDevice::SetTxQueueLimit,
                                                &RoceNetDevice::GetTxQueueLimit),
                          MakeQueueSizeChecker())
            .AddAttribute("RxDrainRate",
                          "Rate at which the host takes received data frames from the port "
                          "(PCIe, memory); 0 means as fast as they arrive. Below the line rate, "
                          "frames wait in a receive buffer and the port sends PFC pauses.",
                          DataRateValue(DataRate(0)),
                          MakeDataRateAccessor(&RoceNetDevice::SetRxDrainRate,
                                               &RoceNetDevice::GetRxDrainRate),
                          MakeDataRateChecker())
            .AddAttribute("RxXoffThreshold",
                          "Receive-buffer bytes of one priority above which the port pauses "
                          "the peer for that priority.",
                          QueueSizeValue(QueueSize("64KB")),
                          MakeQueueSizeAccessor(&RoceNetDevice::m_rxXoff),
                          MakeQueueSizeChecker())
            .AddAttribute("RxXonThreshold",
                          "Receive-buffer bytes of one priority at or below which a paused "
                          "peer is resumed.",
                          QueueSizeValue(QueueSize("32KB")),
                          MakeQueueSizeAccessor(&RoceNetDevice::m_rxXon),
                          MakeQueueSizeChecker())
            .AddAttribute("RxPauseQuanta",
                          "Pause time of receive-side PFC frames, quanta of 512 bit times.",
                          UintegerValue(0xFFFF),
                          MakeUintegerAccessor(&RoceNetDevice::m_rxPauseQuanta),
                          MakeUintegerChecker<uint16_t>(1, 0xFFFF))
            .AddAttribute("ReceiveErrorModel",
                          "Error model that drops received frames (none by default).",
                          PointerValue(),
                          MakePointerAccessor(&RoceNetDevice::m_receiveErrorModel),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("PhyRxDrop",
                            "A received frame dropped by the receive error model, or because the "
                            "link is down.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_phyRxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTx",
                            "A frame accepted by Send().",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_macTxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacTxDrop",
                            "A frame Send() refused (queue limit or MTU), or a queued frame "
                            "discarded because the link is down.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_macTxDropTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("MacRx",
                            "A frame passed up the stack (Ethernet header removed).",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_macRxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxBegin",
                            "A frame starts on the wire.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyTxEnd",
                            "The wire is free after a frame (gap included).",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_phyTxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxEnd",
                            "A frame has fully arrived.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_phyRxEndTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Sniffer",
                            "Every frame sent or received, Ethernet header included.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_snifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PromiscSniffer",
                            "Every frame sent or received (used by the pcap helper).",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_promiscSnifferTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PfcReceived",
                            "A PFC frame arrived: class-enable vector and quanta.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_pfcRxTrace),
                            "ns3::RoceNetDevice::PfcTracedCallback")
            .AddTraceSource("PfcSent",
                            "A PFC frame was queued for sending: class-enable vector and quanta.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_pfcTxTrace),
                            "ns3::RoceNetDevice::PfcTracedCallback")
            .AddTraceSource("PauseState",
                            "A priority of this port starts or stops being paused by the peer.",
                            MakeTraceSourceAccessor(&RoceNetDevice::m_pauseStateTrace),
                            "ns3::RoceNetDevice::PauseStateTracedCallback");
    return tid;
}

RoceNetDevice::RoceNetDevice()
    : m_ifIndex(0),
      m_txBusy(false),
      m_countPreambleAndGap(true),
      m_everyFrameEndEvent(false),
      m_pfcEnabled(true),
      m_defaultPriority(0),
      m_classifier(DSCP),
      m_scheduler(STRICT_PRIORITY),
      m_wireFreeFs(0),
      m_txBytes(0),
      m_mtu(9000),
      m_dwrrQuantum(9000),
      m_rxPauseQuanta(0xFFFF),
      m_dwrrNext(0),
      m_dwrrCredited(false),
      m_rxTotalBytes(0),
      m_maxRxBytes(0),
      m_rxDrainEndFs(0)
{
    NS_LOG_FUNCTION(this);
    m_queueBytes.fill(0);
    m_rxBytes.fill(0);
    m_rxPaused.fill(false);
    m_deficit.fill(0);
    m_pausedUntilFs.fill(0);
    m_paused.fill(false);
    m_pauseIgnored.fill(false);
    m_addressBytes.fill(0xff); // the Address attribute's initial value sets them again
    m_rxSource = Mac48Address();
}

RoceNetDevice::~RoceNetDevice()
{
    NS_LOG_FUNCTION(this);
}

void
RoceNetDevice::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_node = nullptr;
    m_channel = nullptr;
    m_currentFrame = nullptr;
    for (auto& q : m_queues)
    {
        q.clear();
    }
    m_control.clear();
    m_rxBuffer.clear();
    m_rxDrainEvent.Cancel();
    for (auto& e : m_rxPauseRefresh)
    {
        e.Cancel();
    }
    m_pauseEvent.Cancel();
    m_transmitCompleteEvent = nullptr;
    m_frameRxCallback = FrameReceiveCallback();
    m_frameRxHook = FrameReceiveHook();
    m_receiveErrorModel = nullptr;
    m_dequeueCallback = DequeueCallback();
    m_dequeueHook = DequeueHook();
    m_hostFrameRxCallback = HostFrameReceiveCallback();
    m_hostFrameRxHook = HostFrameReceiveHook();
    m_txStartCallback = TxStartCallback();
    m_txStartHook = TxStartHook();
    m_rxCallback = NetDevice::ReceiveCallback();
    m_promiscCallback = NetDevice::PromiscReceiveCallback();
    // Drop what trace sinks hold (a pcap file is closed, and so flushed, when its last holder
    // lets go; waiting for this device's destruction could be too late).
    m_macTxTrace = TracedCallback<Ptr<const Packet>>();
    m_macTxDropTrace = TracedCallback<Ptr<const Packet>>();
    m_macRxTrace = TracedCallback<Ptr<const Packet>>();
    m_phyTxBeginTrace = TracedCallback<Ptr<const Packet>>();
    m_phyTxEndTrace = TracedCallback<Ptr<const Packet>>();
    m_phyRxEndTrace = TracedCallback<Ptr<const Packet>>();
    m_phyRxDropTrace = TracedCallback<Ptr<const Packet>>();
    m_snifferTrace = TracedCallback<Ptr<const Packet>>();
    m_promiscSnifferTrace = TracedCallback<Ptr<const Packet>>();
    m_linkChangeCallbacks = TracedCallback<>();
    NetDevice::DoDispose();
}

bool
RoceNetDevice::Attach(Ptr<RoceChannel> channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_channel = channel;
    m_channel->Attach(this);
    return true;
}

int64_t
RoceNetDevice::BytesToFs(uint64_t bytes) const
{
    // 8e15 fs per byte-second; double keeps the result exact to far below a femtosecond for
    // any frame size and rate (the quotient is at most ~1e12, well inside 53 bits).
    return ExactTime::Round(static_cast<double>(bytes) * 8e15 / static_cast<double>(m_bitRate));
}

int64_t
RoceNetDevice::FrameFs(uint32_t bytes)
{
    FsCacheEntry& entry = m_fsCache[bytes % m_fsCache.size()];
    if (entry.bytes != bytes)
    {
        entry.bytes = bytes;
        entry.fs = BytesToFs(bytes);
    }
    return entry.fs;
}

Time
RoceNetDevice::GetWireTime(uint32_t frameBytes) const
{
    uint32_t extra =
        FCS_BYTES + (m_countPreambleAndGap ? PREAMBLE_BYTES + INTERFRAME_GAP_BYTES : 0);
    return ExactTime::FromFs(BytesToFs(frameBytes + extra));
}

DataRate
RoceNetDevice::GetDataRate() const
{
    return m_rate;
}

void
RoceNetDevice::Enqueue(const Ptr<Packet>& frame, uint8_t priority, uint64_t tag, uint8_t ttlDebt)
{
    CheckPriority(priority);
    // Made in place: on ns-3.37 a Ptr has no move, so a temporary Entry would cost a reference
    // taken and released.
    m_queues[priority].emplace_back(frame, tag, ttlDebt);
    uint32_t bytes = m_queueBytes[priority] + frame->GetSize();
    m_queueBytes[priority] = bytes;
    for (auto& mark : m_highWaterMarks)
    {
        mark.second = std::max(mark.second, bytes);
    }
    TryTransmit();
}

void
RoceNetDevice::SendPfc(uint8_t priority, uint16_t quanta)
{
    NS_LOG_FUNCTION(this << +priority << quanta);
    PfcHeader pfc;
    pfc.SetPauseTime(priority, quanta);
    Ptr<Packet> frame = Create<Packet>();
    frame->AddHeader(pfc);
    EthernetHeader eth(false);
    eth.SetSource(m_address);
    eth.SetDestination(PfcHeader::GetPfcDestination());
    eth.SetLengthType(PfcHeader::ETHER_TYPE);
    frame->AddHeader(eth);
    if (quanta > 0)
    {
        ++m_counters[priority].pausesSent;
    }
    else
    {
        ++m_counters[priority].resumesSent;
    }
    std::array<uint16_t, 8> times{};
    times[priority] = quanta;
    m_pfcTxTrace(static_cast<uint8_t>(1u << priority), times);
    m_control.push_back(frame);
    TryTransmit();
}

uint8_t
RoceNetDevice::SelectPriority()
{
    // A queue holds frames exactly when it holds bytes (every frame has some): the byte counts
    // sit in one cache line, where asking the eight queues touched eight objects per frame,
    // the largest source of cache misses of a 128-GPU run (callgrind's cache simulation).
    if (m_scheduler == STRICT_PRIORITY)
    {
        for (int p = NUM_PRIORITIES - 1; p >= 0; --p)
        {
            if (m_queueBytes[p] != 0 && !m_paused[p])
            {
                return static_cast<uint8_t>(p);
            }
        }
        return NONE;
    }
    bool any = false;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        any = any || (m_queueBytes[p] != 0 && !m_paused[p]);
    }
    if (!any)
    {
        return NONE;
    }
    // Deficit round robin (Shreedhar and Varghese, 1995), one frame per call: the priority at
    // the round-robin position gets its quantum once per visit and sends while its deficit
    // covers its head frame; an empty queue forfeits its deficit.
    while (true)
    {
        uint8_t p = m_dwrrNext;
        if (m_queueBytes[p] != 0 && !m_paused[p])
        {
            if (!m_dwrrCredited)
            {
                m_deficit[p] += m_dwrrQuantum;
                m_dwrrCredited = true;
            }
            uint32_t head = m_queues[p].front().frame->GetSize();
            if (m_deficit[p] >= head)
            {
                m_deficit[p] -= head;
                return p;
            }
        }
        else if (m_queueBytes[p] == 0)
        {
            m_deficit[p] = 0;
        }
        m_dwrrNext = static_cast<uint8_t>((p + 1) % NUM_PRIORITIES);
        m_dwrrCredited = false;
    }
}

void
RoceNetDevice::TryTransmit()
{
    if (!m_linkUp)
    {
        DiscardQueued();
        return;
    }
    if (m_txBusy)
    {
        if (m_txEndPending)
        {
            return; // TransmitComplete comes back here
        }
        // The frame on the wire had nothing queued behind it when it started, so its end got
        // no event. Until then, a frame queued now needs one; after it, the wire is free.
        int64_t nowFs = ExactTime::NowFs();
        if (nowFs < m_txEndFs)
        {
            if (HasQueuedFrame())
            {
                ScheduleTransmitComplete(nowFs, ExactTime::GetResolutionFs());
            }
            return;
        }
        m_txBusy = false;
    }
    if (!m_channel)
    {
        return;
    }
    if (!m_control.empty())
    {
        Ptr<Packet> frame = std::move(m_control.front());
        m_control.pop_front();
        StartTransmission(frame);
        return;
    }
    uint8_t p = SelectPriority();
    if (p == NONE)
    {
        return;
    }
    Entry& front = m_queues[p].front();
    // The queue's reference goes to frame: none taken or released here.
    const Ptr<Packet> frame = front.TakeFrame();
    const uint64_t tag = front.tag;
    uint8_t ttlDebt = front.ttlDebt;
    m_queues[p].pop_front();
    uint32_t size = frame->GetSize();
    m_queueBytes[p] -= size;
    ++m_counters[p].txFrames;
    m_counters[p].txBytes += size;
    // The wire is taken from here: a dequeue callback that sends a PFC frame out of this very
    // port (a switch resuming the port a frame leaves by) queues it behind this frame.
    m_txBusy = true;
    m_txEndPending = true; // until StartTransmission decides the end
    if (!m_dequeueHook.IsNull())
    {
        m_dequeueHook(*this, frame, p, tag, ttlDebt);
    }
    StartTransmission(frame, ttlDebt);
}

void
RoceNetDevice::StartTransmission(const Ptr<Packet>& frame, uint8_t ttlDebt)
{
    m_txBusy = true;
    // Until the end is decided below, a frame queued by a trace sink (an endpoint refilling
    // the port) waits, as behind any frame on the wire.
    m_txEndPending = true;
    // Sinks see the frame as if every switch had patched its TTL (Enqueue).
    if (ttlDebt != 0 && !(m_phyTxBeginTrace.IsEmpty() && m_snifferTrace.IsEmpty() &&
                          m_promiscSnifferTrace.IsEmpty() && m_phyTxEndTrace.IsEmpty()))
    {
        FramePrefixHeader::DecrementIpv4Ttl(frame, ttlDebt);
        ttlDebt = 0;
    }
    if (!m_txStartHook.IsNull())
    {
        m_txStartHook();
    }
    // A trace with no sink costs a test here, not a call and a Ptr<const Packet> per frame.
    if (!m_phyTxBeginTrace.IsEmpty())
    {
        m_phyTxBeginTrace(frame);
    }
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame);
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame);
    }

    // Exact wire clock: a frame that follows another back to back starts when the previous
    // gap ends, not when its rounded event ran.
    // The clock and the resolution are read once per frame (each is an ns-3 call).
    int64_t nowFs = ExactTime::NowFs();
    int64_t unitFs = ExactTime::GetResolutionFs();
    int64_t startFs = ExactTime::NextStart(m_wireFreeFs, nowFs, unitFs);
    uint32_t size = frame->GetSize();
    m_txBytes += size;
    m_txWireBytes +=
        size + FCS_BYTES + (m_countPreambleAndGap ? PREAMBLE_BYTES + INTERFRAME_GAP_BYTES : 0);
    int64_t lastBitFs =
        startFs + FrameFs(size + FCS_BYTES + (m_countPreambleAndGap ? PREAMBLE_BYTES : 0));
    m_wireFreeFs = lastBitFs + (m_countPreambleAndGap ? m_gapFs : 0);
    // The end gets an event only if a frame waits behind this one now (TryTransmit schedules
    // it if one comes later) or PhyTxEnd has a sink: an idle port's frame costs one event, its
    // arrival. A frame that PFC or a higher priority would hold is still held: the end event,
    // when there is one, runs at the same instant and chooses as before. What may change is
    // the order of this end among other events of that instant ("Port device and link" in
    // doc/llm-fabric.rst). Decided after the sinks above (an endpoint refills the port from
    // PhyTxBegin); only a frame whose end has an event is kept, for PhyTxEnd.
    const bool endEvent = m_everyFrameEndEvent || HasQueuedFrame() || !m_phyTxEndTrace.IsEmpty();
    if (endEvent)
    {
        m_currentFrame = frame;
        m_currentFrameTtlDebt = ttlDebt;
    }
    m_channel->Transmit(frame, this, ExactTime::FromFs(lastBitFs - nowFs, unitFs), ttlDebt);
    // The frame's end, rounded to the clock's resolution as its event would be.
    m_txEndFs = ExactTime::UnitsHalfUp(m_wireFreeFs, unitFs) * unitFs;
    m_txEndPending = false;
    if (endEvent)
    {
        ScheduleTransmitComplete(nowFs, unitFs);
    }
}

bool
RoceNetDevice::HasQueuedFrame() const
{
    if (!m_control.empty())
    {
        return true;
    }
    // The byte counts (every frame has bytes) sit together: reading the eight queues' ends
    // instead touched eight objects per frame, a cost cache misses showed on large fabrics.
    uint32_t any = 0;
    for (uint32_t bytes : m_queueBytes)
    {
        any |= bytes;
    }
    return any != 0;
}

void
RoceNetDevice::ScheduleTransmitComplete(int64_t nowFs, int64_t unitFs)
{
    // One event object serves every frame's end (one is pending at a time): no allocation.
    if (!m_transmitCompleteEvent)
    {
        // MakeEvent gives the one reference this pointer keeps (false: no second one).
        m_transmitCompleteEvent =
            Ptr<EventImpl>(MakeEvent(&RoceNetDevice::TransmitComplete, this), false);
    }
    m_txEndPending = true;
    // The simulator keeps a reference per scheduling.
    m_transmitCompleteEvent->Ref();
    LeanSimulatorImpl::ScheduleSteps(
        static_cast<uint64_t>(ExactTime::FromFs(m_txEndFs - nowFs, unitFs).GetTimeStep()),
        PeekPointer(m_transmitCompleteEvent));
}

void
RoceNetDevice::TransmitComplete()
{
    m_txEndPending = false;
    m_txBusy = false;
    // No frame when the end was scheduled late, for a frame queued behind one that had no end
    // event (and so, then, no PhyTxEnd sink): a sink connected since is not handed a null.
    if (m_currentFrame && !m_phyTxEndTrace.IsEmpty())
    {
        if (m_currentFrameTtlDebt != 0)
        {
            // A sink connected while the frame was on the wire: the link still carries the
            // frame with its debt, so the sink gets a patched copy.
            Ptr<Packet> copy = m_currentFrame->Copy();
            FramePrefixHeader::DecrementIpv4Ttl(copy, m_currentFrameTtlDebt);
            m_phyTxEndTrace(copy);
        }
        else
        {
            m_phyTxEndTrace(m_currentFrame);
        }
    }
    m_currentFrame = nullptr;
    TryTransmit();
}

uint8_t
RoceNetDevice::ClassifyBytes(const uint8_t* b, uint32_t n) const
{
    if (n < ETHERNET_HEADER_BYTES)
    {
        return m_defaultPriority;
    }
    uint16_t type = static_cast<uint16_t>((b[12] << 8) | b[13]);
    uint32_t ip = ETHERNET_HEADER_BYTES;
    if (type == ETHERTYPE_VLAN)
    {
        if (n < ETHERNET_HEADER_BYTES + EcmpHash::VLAN_TAG_SIZE)
        {
            return m_defaultPriority;
        }
        if (m_classifier == PCP)
        {
            return static_cast<uint8_t>(b[14] >> 5);
        }
        type = static_cast<uint16_t>((b[16] << 8) | b[17]);
        ip += EcmpHash::VLAN_TAG_SIZE;
    }
    else if (m_classifier == PCP)
    {
        return m_defaultPriority;
    }
    if (type != ETHERTYPE_IPV4 || n < ip + 2)
    {
        return m_defaultPriority;
    }
    // TOS = DSCP (6 bits) << 2 | ECN; the class selector is the DSCP's top three bits.
    return static_cast<uint8_t>(b[ip + 1] >> 5);
}

uint8_t
RoceNetDevice::Classify(Ptr<const Packet> frame) const
{
    uint8_t bytes[CLASSIFY_BYTES];
    uint32_t n = frame->CopyData(bytes, CLASSIFY_BYTES);
    return ClassifyBytes(bytes, n);
}

void
RoceNetDevice::Receive(const Ptr<Packet>& frame, uint8_t ttlDebt)
{
    Receive(frame, ttlDebt, nullptr, 0);
}

void
RoceNetDevice::Receive(const Ptr<Packet>& frame,
                       uint8_t ttlDebt,
                       const uint8_t* head,
                       uint32_t headLength)
{
    // The frame's first bytes, for everything this port and its receiver look at (the
    // switch's 5-tuple, the Ethernet header handed up): the link's record of them when it has
    // one (it stays as it is until this call returns), read from the frame otherwise (below).
    uint8_t read[HEAD_BYTES];
    const uint8_t* bytes = head;
    uint32_t n = std::min<uint32_t>(headLength, HEAD_BYTES);
    // The TTL decrements switches deferred (Enqueue) are paid before any sink, the error model
    // or the node's stack sees the frame; only a switch's frame receiver (FrameReceiveHook) takes
    // them as they are.
    if (ttlDebt != 0 &&
        (!m_linkUp || m_receiveErrorModel || (m_frameRxHook.IsNull() && m_rxDrainBps != 0) ||
         !(m_phyRxEndTrace.IsEmpty() && m_snifferTrace.IsEmpty() &&
           m_promiscSnifferTrace.IsEmpty())))
    {
        FramePrefixHeader::DecrementIpv4Ttl(frame, ttlDebt);
        ttlDebt = 0;
        head = nullptr; // the frame's bytes changed: read below
    }
    if (!m_linkUp)
    {
        ++m_linkDownDrops;
        m_phyRxDropTrace(frame);
        return;
    }
    if (m_receiveErrorModel && m_receiveErrorModel->IsCorrupt(frame))
    {
        m_phyRxDropTrace(frame);
        return;
    }
    if (!m_phyRxEndTrace.IsEmpty())
    {
        m_phyRxEndTrace(frame);
    }
    if (!m_snifferTrace.IsEmpty())
    {
        m_snifferTrace(frame);
    }
    if (!m_promiscSnifferTrace.IsEmpty())
    {
        m_promiscSnifferTrace(frame);
    }
    if (head == nullptr)
    {
        n = frame->CopyData(read, HEAD_BYTES);
        bytes = read;
    }
    if (n >= ETHERNET_HEADER_BYTES &&
        static_cast<uint16_t>((bytes[12] << 8) | bytes[13]) == PfcHeader::ETHER_TYPE)
    {
        ReceivePfc(frame);
        return;
    }
    uint8_t priority = ClassifyBytes(bytes, n);
    ++m_counters[priority].rxFrames;
    m_counters[priority].rxBytes += frame->GetSize();
    if (!m_frameRxHook.IsNull())
    {
        m_frameRxHook(*this, frame, priority, bytes, n, ttlDebt);
        return;
    }
    if (m_rxDrainBps == 0)
    {
        DeliverUp(frame, bytes, n, ttlDebt);
        return;
    }
    uint32_t size = frame->GetSize();
    m_rxBuffer.emplace_back(frame, priority);
    m_rxBytes[priority] += size;
    m_rxTotalBytes += size;
    m_maxRxBytes = std::max(m_maxRxBytes, m_rxTotalBytes);
    if (!m_rxPaused[priority] && m_rxBytes[priority] > m_rxXoff.GetValue())
    {
        m_rxPaused[priority] = true;
        SendPfc(priority, m_rxPauseQuanta);
        m_rxPauseRefresh[priority] =
            Simulator::Schedule(PfcHeader::QuantaToTime(m_rxPauseQuanta, m_rate) / 2,
                                &RoceNetDevice::RefreshRxPause,
                                this,
                                priority);
    }
    if (m_rxBuffer.size() == 1)
    {
        ScheduleRxDrain();
    }
}

void
RoceNetDevice::ScheduleRxDrain()
{
    // Exact drain clock, as for transmission: a frame that follows another starts draining
    // when the previous one ended, not when its rounded event ran.
    int64_t startFs = ExactTime::NextStart(m_rxDrainEndFs);
    double bits = 8.0 * m_rxBuffer.front().first->GetSize();
    m_rxDrainEndFs = startFs + ExactTime::Round(bits * 1e15 / static_cast<double>(m_rxDrainBps));
    m_rxDrainEvent =
        Simulator::Schedule(ExactTime::DelayUntil(m_rxDrainEndFs), &RoceNetDevice::RxDrained, this);
}

void
RoceNetDevice::RxDrained()
{
    auto [frame, priority] = m_rxBuffer.front();
    m_rxBuffer.pop_front();
    uint32_t size = frame->GetSize();
    m_rxBytes[priority] -= size;
    m_rxTotalBytes -= size;
    if (m_rxPaused[priority] && m_rxBytes[priority] <= m_rxXon.GetValue())
    {
        m_rxPaused[priority] = false;
        m_rxPauseRefresh[priority].Cancel();
        SendPfc(priority, 0);
    }
    if (!m_rxBuffer.empty())
    {
        ScheduleRxDrain();
    }
    DeliverUp(frame);
}

void
RoceNetDevice::RefreshRxPause(uint8_t priority)
{
    if (m_rxPaused[priority])
    {
        SendPfc(priority, m_rxPauseQuanta);
        m_rxPauseRefresh[priority] =
            Simulator::Schedule(PfcHeader::QuantaToTime(m_rxPauseQuanta, m_rate) / 2,
                                &RoceNetDevice::RefreshRxPause,
                                this,
                                priority);
    }
}

void
RoceNetDevice::DeliverUp(Ptr<Packet> frame)
{
    uint8_t b[ETHERNET_HEADER_BYTES];
    DeliverUp(frame, b, frame->CopyData(b, ETHERNET_HEADER_BYTES));
}

void
RoceNetDevice::DeliverUp(const Ptr<Packet>& frame,
                         const uint8_t* b,
                         uint32_t headBytes,
                         uint8_t ttlDebt)
{
    // The Ethernet II header's three fields at their fixed offsets, instead of deserializing
    // the header per frame.
    if (headBytes < ETHERNET_HEADER_BYTES)
    {
        return; // a runt: nothing to deliver
    }
    // A frame for this port, when nothing but the receiver would see what is handed up, goes
    // whole to a receiver that reads its head bytes (HostFrameReceiveHook): no header to
    // remove, no TTL to patch in the packet.
    if (!m_hostFrameRxHook.IsNull() && m_macRxTrace.IsEmpty() && m_promiscCallback.IsNull() &&
        std::memcmp(b, m_addressBytes.data(), 6) == 0 &&
        m_hostFrameRxHook(*this, frame, b, headBytes, ttlDebt))
    {
        return;
    }
    auto lengthType = static_cast<uint16_t>((b[12] << 8) | b[13]);
    // The Ethernet header goes, and with it the TTL decrements the switches deferred (Enqueue)
    // are paid: the IPv4 header's first bytes, up to its checksum, are put back patched.
    FramePrefixHeader::DecrementIpv4Ttl(frame, b, headBytes, ttlDebt, ETHERNET_HEADER_BYTES);
    if (!m_macRxTrace.IsEmpty())
    {
        m_macRxTrace(frame);
    }
    // The destination is judged on its bytes, as Mac48Address judges it (its own address,
    // all ones, the group bit), and the source handed up in an Address kept for it: building
    // both as ns-3 addresses per frame took about 230 instructions.
    static constexpr std::array<uint8_t, 6> broadcast{0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    NetDevice::PacketType type = NetDevice::PACKET_OTHERHOST;
    if (std::memcmp(b, m_addressBytes.data(), 6) == 0)
    {
        type = NetDevice::PACKET_HOST;
    }
    else if (std::memcmp(b, broadcast.data(), 6) == 0)
    {
        type = NetDevice::PACKET_BROADCAST;
    }
    else if ((b[0] & 0x01) != 0)
    {
        type = NetDevice::PACKET_MULTICAST;
    }
    if (!m_promiscCallback.IsNull())
    {
        Mac48Address destination;
        destination.CopyFrom(b);
        Mac48Address source;
        source.CopyFrom(b + 6);
        m_promiscCallback(this, frame, lengthType, source, destination, type);
    }
    if (type != NetDevice::PACKET_OTHERHOST && !m_rxCallback.IsNull())
    {
        m_rxSource.CopyFrom(b + 6, 6); // its type, Mac48Address's, was set by the constructor
        m_rxCallback(this, frame, lengthType, m_rxSource);
    }
}

void
RoceNetDevice::ReceivePfc(Ptr<Packet> frame)
{
    Ptr<Packet> copy = frame->Copy();
    EthernetHeader eth(false);
    copy->RemoveHeader(eth);
    PfcHeader pfc;
    if (copy->GetSize() < PfcHeader::BODY_SIZE)
    {
        return;
    }
    copy->RemoveHeader(pfc);
    if (!pfc.IsValid())
    {
        NS_LOG_LOGIC("MAC Control frame that is not PFC, opcode " << pfc.GetOpcode());
        return;
    }
    std::array<uint16_t, 8> times{};
    int64_t nowFs = ExactTime::NowFs();
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (!pfc.IsEnabled(p))
        {
            continue;
        }
        uint16_t quanta = pfc.GetPauseTime(p);
        times[p] = quanta;
        if (quanta > 0)
        {
            ++m_counters[p].pausesReceived;
            m_lastPauseRx[p] = ExactTime::Now();
        }
        else
        {
            ++m_counters[p].resumesReceived;
        }
        if (!m_pfcEnabled || m_pauseIgnored[p])
        {
            continue;
        }
        // quanta x 512 bit times = quanta x 64 byte times at this port's rate.
        m_pausedUntilFs[p] =
            nowFs + BytesToFs(static_cast<uint64_t>(quanta) * (PfcHeader::QUANTUM_BITS / 8));
        if (quanta > 0 && !m_paused[p])
        {
            m_paused[p] = true;
            m_pauseStart[p] = ExactTime::Now();
            m_pauseStateTrace(p, true);
        }
    }
    m_pfcRxTrace(pfc.GetClassEnableVector(), times);
    UpdatePauses();
}

void
RoceNetDevice::UpdatePauses()
{
    m_pauseEvent.Cancel();
    int64_t next = -1;
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        if (!m_paused[p])
        {
            continue;
        }
        if (ExactTime::DelayUntil(m_pausedUntilFs[p]).IsZero())
        {
            m_paused[p] = false;
            m_counters[p].pausedTime += ExactTime::Now() - m_pauseStart[p];
            m_pauseStateTrace(p, false);
        }
        else if (next < 0 || m_pausedUntilFs[p] < next)
        {
            next = m_pausedUntilFs[p];
        }
    }
    if (next >= 0)
    {
        m_pauseEvent =
            Simulator::Schedule(ExactTime::DelayUntil(next), &RoceNetDevice::UpdatePauses, this);
    }
    TryTransmit();
}

void
RoceNetDevice::DiscardQueued()
{
    // A dequeue callback may queue a PFC frame on this port (TryTransmit then calls here
    // again): the loops below pick it up, and the nested call finds nothing left to do.
    m_linkDownDrops += m_control.size();
    m_control.clear();
    for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
    {
        while (!m_queues[p].empty())
        {
            Entry entry = std::move(m_queues[p].front());
            m_queues[p].pop_front();
            m_queueBytes[p] -= entry.frame->GetSize();
            ++m_linkDownDrops;
            if (!m_dequeueHook.IsNull())
            {
                m_dequeueHook(*this, entry.frame, p, entry.tag, entry.ttlDebt);
            }
            if (!m_macTxDropTrace.IsEmpty())
            {
                FramePrefixHeader::DecrementIpv4Ttl(entry.frame, entry.ttlDebt);
                m_macTxDropTrace(entry.frame);
            }
        }
    }
    m_linkDownDrops += m_control.size();
    m_control.clear();
}

void
RoceNetDevice::SetLinkUp(bool up)
{
    NS_LOG_FUNCTION(this << up);
    if (up == m_linkUp)
    {
        return;
    }
    m_linkUp = up;
    if (!up)
    {
        for (uint8_t p = 0; p < NUM_PRIORITIES; ++p)
        {
            m_pausedUntilFs[p] = ExactTime::NowFs();
            m_rxPaused[p] = false;
            m_rxPauseRefresh[p].Cancel();
        }
        UpdatePauses(); // lifts the pauses, then TryTransmit discards the queues
    }
    m_linkChangeCallbacks();
    TryTransmit();
}

void
RoceNetDevice::SetDataRate(DataRate rate)
{
    NS_LOG_FUNCTION(this << rate);
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "RoceNetDevice: a data rate of 0");
    m_rate = rate;
    m_bitRate = rate.GetBitRate();
    m_gapFs = BytesToFs(INTERFRAME_GAP_BYTES);
    m_fsCache.fill(FsCacheEntry{});
}

uint64_t
RoceNetDevice::GetLinkDownDrops() const
{
    return m_linkDownDrops;
}

uint32_t
RoceNetDevice::AddQueueHighWaterMark()
{
    NS_LOG_FUNCTION(this);
    uint32_t longest = *std::max_element(m_queueBytes.begin(), m_queueBytes.end());
    uint32_t id = m_nextHighWaterMark++;
    m_highWaterMarks.emplace_back(id, longest);
    return id;
}

uint32_t
RoceNetDevice::GetQueueHighWaterMark(uint32_t id) const
{
    for (const auto& mark : m_highWaterMarks)
    {
        if (mark.first == id)
        {
            return mark.second;
        }
    }
    NS_ABORT_MSG("RoceNetDevice: no queue high-water mark " << id);
    return 0;
}

void
RoceNetDevice::RemoveQueueHighWaterMark(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    m_highWaterMarks.erase(std::remove_if(m_highWaterMarks.begin(),
                                          m_highWaterMarks.end(),
                                          [id](const auto& mark) { return mark.first == id; }),
                           m_highWaterMarks.end());
}

uint32_t
RoceNetDevice::FlushQueue(uint8_t priority, FlushCallback cb)
{
    NS_LOG_FUNCTION(this << +priority);
    CheckPriority(priority);
    EntryQueue flushed;
    flushed.swap(m_queues[priority]);
    m_queueBytes[priority] = 0;
    for (uint32_t i = 0; i < flushed.size(); ++i)
    {
        const Entry& entry = flushed.At(i);
        if (!cb.IsNull())
        {
            FramePrefixHeader::DecrementIpv4Ttl(entry.frame, entry.ttlDebt);
            cb(entry.frame, entry.tag);
        }
    }
    return flushed.size();
}

uint32_t
RoceNetDevice::GetQueuedBytesWithTag(uint8_t priority, uint64_t mask, uint64_t value) const
{
    CheckPriority(priority);
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < m_queues[priority].size(); ++i)
    {
        const Entry& entry = m_queues[priority].At(i);
        if ((entry.tag & mask) == value)
        {
            bytes += entry.frame->GetSize();
        }
    }
    return bytes;
}

void
RoceNetDevice::SetPauseIgnored(uint8_t priority, bool ignored)
{
    NS_LOG_FUNCTION(this << +priority << ignored);
    CheckPriority(priority);
    m_pauseIgnored[priority] = ignored;
    if (ignored && m_paused[priority])
    {
        // UpdatePauses lifts a pause that ends now, and restarts transmission.
        m_pausedUntilFs[priority] = ExactTime::NowFs();
        UpdatePauses();
    }
}

Time
RoceNetDevice::GetLastPauseReceived(uint8_t priority) const
{
    CheckPriority(priority);
    return m_lastPauseRx[priority];
}

bool
RoceNetDevice::IsPaused(uint8_t priority) const
{
    CheckPriority(priority);
    return m_paused[priority];
}

uint32_t
RoceNetDevice::GetQueueBytes(uint8_t priority) const
{
    CheckPriority(priority);
    return m_queueBytes[priority];
}

uint32_t
RoceNetDevice::GetRxBufferBytes(uint8_t priority) const
{
    CheckPriority(priority);
    return m_rxBytes[priority];
}

uint32_t
RoceNetDevice::GetMaxRxBufferBytes() const
{
    return m_maxRxBytes;
}

uint64_t
RoceNetDevice::GetTxBytes() const
{
    return m_txBytes;
}

uint64_t
RoceNetDevice::GetTxWireBytes() const
{
    return m_txWireBytes;
}

void
RoceNetDevice::PriorityError(uint8_t priority)
{
    NS_ABORT_MSG("RoceNetDevice: priority " << +priority << " > 7");
}

void
RoceNetDevice::SetFrameReceiveCallback(FrameReceiveCallback cb)
{
    m_frameRxCallback = cb;
    m_frameRxHook = FrameReceiveHook();
    if (!cb.IsNull())
    {
        m_frameRxHook = FrameReceiveHook::FromFunction(
            this,
            [](void* o,
               RoceNetDevice& device,
               const Ptr<Packet>& frame,
               uint8_t priority,
               const uint8_t* head,
               uint32_t headBytes,
               uint8_t ttlDebt) {
                static_cast<RoceNetDevice*>(o)
                    ->m_frameRxCallback(&device, frame, priority, head, headBytes, ttlDebt);
            });
    }
}

void
RoceNetDevice::SetTxStartCallback(TxStartCallback cb)
{
    m_txStartCallback = cb;
    m_txStartHook = TxStartHook();
    if (!cb.IsNull())
    {
        m_txStartHook = TxStartHook::FromFunction(this, [](void* o) {
            static_cast<RoceNetDevice*>(o)->m_txStartCallback();
        });
    }
}

void
RoceNetDevice::SetHostFrameReceiveCallback(HostFrameReceiveCallback cb)
{
    m_hostFrameRxCallback = cb;
    m_hostFrameRxHook = HostFrameReceiveHook();
    if (!cb.IsNull())
    {
        m_hostFrameRxHook = HostFrameReceiveHook::FromFunction(
            this,
            [](void* o,
               RoceNetDevice& device,
               const Ptr<Packet>& frame,
               const uint8_t* head,
               uint32_t headBytes,
               uint8_t ttlDebt) {
                return static_cast<RoceNetDevice*>(o)->m_hostFrameRxCallback(&device,
                                                                             frame,
                                                                             head,
                                                                             headBytes,
                                                                             ttlDebt);
            });
    }
}

void
RoceNetDevice::SetDequeueCallback(DequeueCallback cb)
{
    m_dequeueCallback = cb;
    m_dequeueHook = DequeueHook();
    if (!cb.IsNull())
    {
        m_dequeueHook = DequeueHook::FromFunction(
            this,
            [](void* o,
               RoceNetDevice& device,
               const Ptr<Packet>& frame,
               uint8_t priority,
               uint64_t tag,
               uint8_t& ttlDebt) {
                static_cast<RoceNetDevice*>(o)->m_dequeueCallback(&device,
                                                                  frame,
                                                                  priority,
                                                                  tag,
                                                                  ttlDebt);
            });
    }
}

bool
RoceNetDevice::HasFrameReceiver() const
{
    return !m_frameRxHook.IsNull();
}

void
RoceNetDevice::SetFrameReceiveHook(FrameReceiveHook hook)
{
    m_frameRxCallback = FrameReceiveCallback();
    m_frameRxHook = hook;
}

void
RoceNetDevice::SetHostFrameReceiveHook(HostFrameReceiveHook hook)
{
    m_hostFrameRxCallback = HostFrameReceiveCallback();
    m_hostFrameRxHook = hook;
}

void
RoceNetDevice::SetDequeueHook(DequeueHook hook)
{
    m_dequeueCallback = DequeueCallback();
    m_dequeueHook = hook;
}

void
RoceNetDevice::SetTxStartHook(TxStartHook hook)
{
    m_txStartCallback = TxStartCallback();
    m_txStartHook = hook;
}

void
RoceNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
RoceNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
RoceNetDevice::GetChannel() const
{
    return m_channel;
}

void
RoceNetDevice::SetAddress(Address address)
{
    SetMac48Address(Mac48Address::ConvertFrom(address));
}

void
RoceNetDevice::SetMac48Address(Mac48Address address)
{
    m_address = address;
    m_address.CopyTo(m_addressBytes.data());
}

Mac48Address
RoceNetDevice::GetMac48Address() const
{
    return m_address;
}

void
RoceNetDevice::SetRxDrainRate(DataRate rate)
{
    m_rxDrainBps = rate.GetBitRate();
}

DataRate
RoceNetDevice::GetRxDrainRate() const
{
    return DataRate(m_rxDrainBps);
}

void
RoceNetDevice::SetTxQueueLimit(QueueSize limit)
{
    m_txQueueLimit = limit;
    m_txQueueLimitValue = limit.GetValue();
}

QueueSize
RoceNetDevice::GetTxQueueLimit() const
{
    return m_txQueueLimit;
}

Address
RoceNetDevice::GetAddress() const
{
    return m_address;
}

bool
RoceNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
RoceNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
RoceNetDevice::IsLinkUp() const
{
    return m_channel != nullptr && m_linkUp;
}

void
RoceNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    m_linkChangeCallbacks.ConnectWithoutContext(callback);
}

bool
RoceNetDevice::IsBroadcast() const
{
    return true;
}

Address
RoceNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
RoceNetDevice::IsMulticast() const
{
    return true;
}

Address
RoceNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
RoceNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
RoceNetDevice::IsBridge() const
{
    return false;
}

bool
RoceNetDevice::IsPointToPoint() const
{
    return false;
}

bool
RoceNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    return SendFrom(packet, m_address, dest, protocolNumber);
}

bool
RoceNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    if (packet->GetSize() > m_mtu)
    {
        m_macTxDropTrace(packet);
        return false;
    }
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address::ConvertFrom(source));
    eth.SetDestination(Mac48Address::ConvertFrom(dest));
    eth.SetLengthType(protocolNumber);
    packet->AddHeader(eth);
    if (!QueueFrame(packet))
    {
        packet->RemoveHeader(eth); // the caller keeps the packet as it gave it
        return false;
    }
    return true;
}

bool
RoceNetDevice::SendFrame(const Ptr<Packet>& frame)
{
    if (frame->GetSize() < ETHERNET_HEADER_BYTES ||
        frame->GetSize() - ETHERNET_HEADER_BYTES > m_mtu)
    {
        m_macTxDropTrace(frame);
        return false;
    }
    return QueueFrame(frame);
}

bool
RoceNetDevice::QueueFrame(const Ptr<Packet>& frame)
{
    uint8_t bytes[CLASSIFY_BYTES];
    uint8_t priority = ClassifyBytes(bytes, frame->CopyData(bytes, CLASSIFY_BYTES));
    if (m_queueBytes[priority] + frame->GetSize() > m_txQueueLimitValue)
    {
        m_macTxDropTrace(frame);
        return false;
    }
    if (!m_macTxTrace.IsEmpty())
    {
        m_macTxTrace(frame);
    }
    Enqueue(frame, priority, 0);
    return true;
}

void
RoceNetDevice::WriteEthernetHeader(uint8_t* out, Mac48Address destination, uint16_t etherType) const
{
    uint8_t bytes[6];
    destination.CopyTo(bytes);
    WriteEthernetHeader(out, bytes, etherType);
}

void
RoceNetDevice::WriteEthernetHeader(uint8_t* out,
                                   const uint8_t* destination,
                                   uint16_t etherType) const
{
    std::memcpy(out, destination, 6);
    std::memcpy(out + 6, m_addressBytes.data(), 6);
    out[12] = static_cast<uint8_t>(etherType >> 8);
    out[13] = static_cast<uint8_t>(etherType & 0xFF);
}

Ptr<Node>
RoceNetDevice::GetNode() const
{
    return m_node;
}

void
RoceNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
RoceNetDevice::NeedsArp() const
{
    return false;
}

void
RoceNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_rxCallback = cb;
    // Never bypass the new receiver.
    m_hostFrameRxCallback = HostFrameReceiveCallback();
    m_hostFrameRxHook = HostFrameReceiveHook();
}

void
RoceNetDevice::SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
RoceNetDevice::SupportsSendFrom() const
{
    return true;
}

} // namespace ns3
