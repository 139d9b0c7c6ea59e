/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EGRESS_STAGE_H
#define EGRESS_STAGE_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>

namespace ns3
{

class RoceSwitch;

/**
 * @ingroup llm-fabric
 * @brief One step of a switch's egress pipeline: the extension point for what a switch does to
 * frames as they leave (ECN marking, in-band telemetry stamping).
 *
 * A RoceSwitch holds an ordered list of stages, applied on every port (RoceSwitch::
 * AddEgressStage; RoceTopologyHelper::AddEgressStage installs one object per switch by TypeId
 * name). Each stage is called, in list order, as a frame leaves its egress queue to go on the
 * wire (Dequeue), with the frame it may modify and the state of that queue. A stage that must
 * judge a frame by the queue it finds on arrival (RED marking at enqueue) also has an enqueue
 * hook (HasEnqueueHook): EnqueueDecide before the MMU admits the frame, EnqueueApply once it is
 * admitted.
 *
 * The hooks run for every frame: they must not allocate or do string work.
 */
class EgressStage : public Object
{
  public:
    /// The egress queue a frame leaves (or joins) and its port, as a stage sees it.
    struct QueueState
    {
        uint32_t port{0};       //!< egress port number
        uint8_t priority{0};    //!< priority (the egress queue of that port)
        uint32_t queueBytes{0}; //!< MMU egress bytes of (port, priority): at dequeue those left
                                //!< behind the frame; at enqueue those the frame finds
        uint64_t txBytes{0};    //!< bytes the port has started to send so far
                                //!< (RoceNetDevice::GetTxBytes): at dequeue, not this frame
        DataRate rate;          //!< the port's link rate
        Time now;               //!< the time of the call
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    EgressStage();
    ~EgressStage() override;

    /**
     * A frame leaves its egress queue; what goes on the wire is the frame as the stages leave
     * it. The MMU has already released it (state.queueBytes does not count it).
     * @param sw the switch.
     * @param frame the frame, Ethernet header first.
     * @param state its queue and port.
     */
    virtual void Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state) = 0;

    /**
     * Whether the switch must call EnqueueDecide and EnqueueApply; asked when the switch
     * initializes and when a stage is added after that.
     * @return false unless a subclass says otherwise.
     */
    virtual bool HasEnqueueHook() const;

    /**
     * A frame is about to join an egress queue, before the MMU admits it (it may still be
     * dropped).
     * @param sw the switch.
     * @param frame the frame, Ethernet header first.
     * @param found the queue as the frame finds it (without it).
     * @return true to have EnqueueApply called if the MMU admits the frame.
     */
    virtual bool EnqueueDecide(RoceSwitch& sw, Ptr<const Packet> frame, const QueueState& found);

    /**
     * A frame for which EnqueueDecide returned true was admitted and joins its queue.
     * @param sw the switch.
     * @param frame the frame, which the stage may modify.
     * @param found the queue as the frame found it (the state given to EnqueueDecide).
     */
    virtual void EnqueueApply(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& found);

    /**
     * Whether the stage may be handed a frame whose IPv4 TTL and header checksum still lack
     * the decrements the switches it crossed deferred ("Deferred TTL decrements" in
     * RoceNetDevice::Enqueue). A stage that says true reads neither field, and calls
     * RoceSwitch::SettleTtl(frame) before it changes any byte of the frame's IPv4 header.
     * Asked when the switch initializes and when a stage is added after that.
     * @return false unless a subclass says otherwise: the switch then pays the decrements
     * before calling the stage, so that it sees the frame as every switch had patched it.
     */
    virtual bool AcceptsDeferredTtl() const;
};

} // namespace ns3

#endif /* EGRESS_STAGE_H */
