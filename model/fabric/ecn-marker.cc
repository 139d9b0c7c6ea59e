/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ecn-marker.h"

#include "roce-switch.h"
#include "switch-mmu.h"

#include "ns3/enum.h"
#include "ns3/frame-prefix-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EcnMarker");

NS_OBJECT_ENSURE_REGISTERED(EcnMarker);

/// The short name of EcnMarker.
static TypeIdAlias g_ecnMarkerAlias("ecn", "ns3::EcnMarker");

namespace
{

/// Offset of the IPv4 TOS byte in an untagged Ethernet frame.
constexpr uint32_t TOS_OFFSET = 15;
/// Offset of the EtherType in an Ethernet frame.
constexpr uint32_t ETHERTYPE_OFFSET = 12;

} // namespace

TypeId
EcnMarker::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::EcnMarker")
            .SetParent<EgressStage>()
            .SetGroupName("LlmFabric")
            .AddConstructor<EcnMarker>()
            .AddAttribute(
                "MarkPoint",
                "Where RED decides: Dequeue (as a packet leaves its egress queue, on the "
                "length left behind it: the mark does not wait behind the queue it reports) "
                "or Enqueue (as it arrives, on the length it finds).",
                EnumValue(EcnMarker::MARK_ON_DEQUEUE),
                LLM_FABRIC_ENUM_ACCESSOR(EcnMarker::MarkPoint, &EcnMarker::m_markPoint),
                MakeEnumChecker(EcnMarker::MARK_ON_DEQUEUE,
                                "Dequeue",
                                EcnMarker::MARK_ON_ENQUEUE,
                                "Enqueue"));
    return tid;
}

EcnMarker::EcnMarker()
    : m_markPoint(MARK_ON_DEQUEUE)
{
    NS_LOG_FUNCTION(this);
}

EcnMarker::~EcnMarker()
{
    NS_LOG_FUNCTION(this);
}

bool
EcnMarker::IsEctFrame(Ptr<const Packet> frame)
{
    uint8_t bytes[TOS_OFFSET + 1];
    uint32_t n = frame->CopyData(bytes, sizeof(bytes));
    bool untagged =
        n > TOS_OFFSET && bytes[ETHERTYPE_OFFSET] == 0x08 && bytes[ETHERTYPE_OFFSET + 1] == 0x00;
    uint8_t ecn = untagged ? (bytes[TOS_OFFSET] & 0x03) : 0;
    return ecn == Ipv4Header::ECN_ECT1 || ecn == Ipv4Header::ECN_ECT0;
}

bool
EcnMarker::MayMark(RoceSwitch& sw, uint32_t port, uint8_t priority)
{
    // What DecideEcnMark reads: the MMU's egress bytes of the queue, now.
    const Ptr<SwitchMmu>& mmu = sw.GetMmu();
    return mmu->GetMarkProbability(port, mmu->GetEgressBytes(port, priority)) > 0.0;
}

void
EcnMarker::Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state)
{
    // On the queue left behind the frame. The frame's bytes are read only when RED could mark
    // (most frames find their queue below Kmin); DecideEcnMark, which may draw a random number,
    // is still asked for ECN-capable frames only, as before.
    if (m_markPoint == MARK_ON_DEQUEUE && MayMark(sw, state.port, state.priority) &&
        IsEctFrame(frame) && sw.GetMmu()->DecideEcnMark(state.port, state.priority))
    {
        sw.SettleTtl(frame); // the TTL first, as the switches before and this one had done
        MarkCe(frame);
        sw.RecordEcnMark(state.port, state.priority, state.queueBytes);
    }
}

bool
EcnMarker::AcceptsDeferredTtl() const
{
    return true;
}

bool
EcnMarker::HasEnqueueHook() const
{
    return m_markPoint == MARK_ON_ENQUEUE;
}

bool
EcnMarker::EnqueueDecide(RoceSwitch& sw, Ptr<const Packet> frame, const QueueState& found)
{
    // RED sees the egress queue as the packet finds it: the MMU has not admitted it yet.
    return m_markPoint == MARK_ON_ENQUEUE && MayMark(sw, found.port, found.priority) &&
           IsEctFrame(frame) && sw.GetMmu()->DecideEcnMark(found.port, found.priority);
}

void
EcnMarker::EnqueueApply(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& found)
{
    sw.SettleTtl(frame); // the TTL first, as the switches before and this one had done
    MarkCe(frame);
    sw.RecordEcnMark(found.port, found.priority, found.queueBytes);
}

void
EcnMarker::MarkCe(Ptr<Packet> frame)
{
    // An untagged IPv4 frame (IsEctFrame checked): the TOS byte is patched where it is, with the
    // header checksum, instead of deserializing and serializing Ethernet and IPv4 headers.
    constexpr uint32_t ip = ETHERTYPE_OFFSET + 2;
    constexpr uint32_t prefixSize = ip + 20;
    FramePrefixHeader prefix(prefixSize);
    uint8_t* b = prefix.GetBytes();
    if (frame->CopyData(b, prefixSize) < prefixSize)
    {
        return;
    }
    // The header's first word: version and IHL, then TOS (DSCP and ECN).
    auto word = static_cast<uint16_t>((b[ip] << 8) | (b[ip + 1] & 0xFC) | Ipv4Header::ECN_CE);
    FramePrefixHeader::PatchIpv4Word(b + ip, 0, word);
    frame->RemoveAtStart(prefixSize);
    frame->AddHeader(prefix);
}

} // namespace ns3
