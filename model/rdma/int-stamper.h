/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef INT_STAMPER_H
#define INT_STAMPER_H

#include "ns3/egress-stage.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The switch egress stage that fills in-band telemetry (RoceIntHeader) for HPCC. Alias
 * "int".
 *
 * As a frame leaves its egress queue, the stage reads the frame's first bytes (Ethernet, an
 * optional 802.1Q tag, IPv4, UDP, BTH) and looks for a RoCEv2 packet (UDP destination port 4791)
 * whose BTH has the telemetry-fill bit (IbBthHeader::SetTelemetryFill). Other frames are left as
 * they are, at the cost of that one read. In a marked frame it fills the next hop record of the
 * RoceIntHeader that precedes the ICRC, with:
 *  - ts: the time now (the dequeue), ns;
 *  - txbytes: RoceNetDevice::GetTxWireBytes of the egress port, the wire bytes it has sent
 *    before this frame (FCS, preamble and gap included, so that txbytes / ts measures the
 *    fraction of the link's time in use);
 *  - qlen: the bytes of the frame's egress queue (port and priority) left behind it;
 *  - rate: the port's rate;
 * or, when the five records are taken, sets the overflow flag. Then it patches the ICRC for the
 * bytes it changed (RoceIcrcTrailer::Patch: the header is the last thing before the ICRC, so no
 * other byte is read), so the ICRC stays valid on the next link. The header and the ICRC are
 * taken off the end of the packet and put back (a copy of 88 bytes; no allocation when the
 * packet's buffer is not shared); nothing else of the frame is deserialized.
 *
 * Acknowledgements that echo telemetry (the echo bit) are not stamped. RdmaHelper::Install adds
 * one IntStamper to every switch of the fabric when the queue pairs' congestion control asks for
 * telemetry (RdmaCongestionOps::NeedsTelemetry); topology.egress_stages: [int] (or
 * RoceSwitch::AddEgressStage) adds one by hand.
 */
class IntStamper : public EgressStage
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    IntStamper();
    ~IntStamper() override;

    void Dequeue(RoceSwitch& sw, Ptr<Packet> frame, const QueueState& state) override;
    /// @return true: it changes the telemetry and the ICRC only, which masks the TTL and the
    /// IPv4 checksum.
    bool AcceptsDeferredTtl() const override;

    /**
     * Whether a frame carries telemetry for switches to fill.
     * @param frame a frame, Ethernet header first.
     * @return true for a RoCEv2 packet (untagged or 802.1Q-tagged IPv4, UDP port 4791) whose BTH
     *         has the telemetry-fill bit.
     */
    static bool CarriesTelemetry(Ptr<const Packet> frame);

    /// @return frames this stage filled a record of.
    uint64_t GetStampedFrames() const;

    /// @return frames that carried telemetry with no free record (overflow set).
    uint64_t GetOverflowFrames() const;

  private:
    uint64_t m_stamped;  //!< frames stamped
    uint64_t m_overflow; //!< frames found full
};

} // namespace ns3

#endif /* INT_STAMPER_H */
