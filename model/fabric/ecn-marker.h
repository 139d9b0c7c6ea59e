/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECN_MARKER_H
#define ECN_MARKER_H

#include "egress-stage.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The egress stage that marks ECN: the only code of the module that sets CE. Alias "ecn".
 *
 * For an untagged Ethernet frame carrying IPv4 with ECT(0) or ECT(1), it asks the switch's MMU
 * whether RED marks (SwitchMmu::DecideEcnMark: Kmin, Kmax, Pmax and RED's random stream are
 * the MMU's) on the length of the frame's egress queue, and if so sets CE, rewrites the IPv4
 * header checksum (the RoCEv2 ICRC does not cover those bits) and reports the mark to the switch
 * (RoceSwitch::RecordEcnMark: the EcnMark trace and GetEcnMarks). Other frames (Not-ECT, CE
 * already, 802.1Q-tagged, not IPv4) are left alone.
 *
 * MarkPoint chooses the queue length RED judges: Dequeue (the default) as the frame leaves its
 * queue, on the length left behind it, so the mark does not wait behind the queue it reports
 * (as in the HPCC paper's switches and Kuzmanovic's "ECN on dequeue"); Enqueue as it arrives, on
 * the length it finds before the MMU admits it (classic RED; a frame the MMU then drops is not
 * marked or counted).
 *
 * RoceSwitch::EcnEnabled installs one, first in the switch's stage list, with MarkPoint set from
 * RoceSwitch::EcnMarkPoint.
 */
class EcnMarker : public EgressStage
{
  public:
    /// Where the marking decision is taken.
    enum MarkPoint
    {
        MARK_ON_ENQUEUE, //!< as the packet joins its egress queue, on the length it finds
        MARK_ON_DEQUEUE  //!< as it leaves, on the length left behind it
    };

    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    EcnMarker();
    ~EcnMarker() override;

    void Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state) override;

    /**
     * @return true when MarkPoint is Enqueue.
     */
    bool HasEnqueueHook() const override;
    /// @return true: it reads the ECN field only, and pays the decrements before marking.
    bool AcceptsDeferredTtl() const override;

    bool EnqueueDecide(RoceSwitch& sw, Ptr<const Packet> frame, const QueueState& found) override;
    void EnqueueApply(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& found) override;

    /**
     * @param frame a frame, Ethernet header first.
     * @return true if it is an untagged IPv4 frame whose ECN field is ECT(0) or ECT(1).
     */
    static bool IsEctFrame(Ptr<const Packet> frame);

  private:
    /**
     * Set CE in the IPv4 header of an untagged IPv4 frame and rewrite the header checksum.
     * @param frame the frame.
     */
    static void MarkCe(Ptr<Packet> frame);

    /**
     * Whether RED could mark a frame of an egress queue now (its marking probability is above
     * zero): a test that spares reading the frame's bytes when it could not.
     * @param sw the switch.
     * @param port egress port.
     * @param priority priority.
     * @return true if DecideEcnMark might return true.
     */
    static bool MayMark(RoceSwitch& sw, uint32_t port, uint8_t priority);

    MarkPoint m_markPoint; //!< MarkPoint: enqueue or dequeue
};

} // namespace ns3

#endif /* ECN_MARKER_H */
