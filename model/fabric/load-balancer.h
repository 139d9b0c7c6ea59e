/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef LOAD_BALANCER_H
#define LOAD_BALANCER_H

#include "ecmp-hash.h"
#include "flow-five-tuple.h"

#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class RoceSwitch;

/**
 * @ingroup llm-fabric
 * @brief A frame a switch asks its LoadBalancer to place: what SelectPort sees of it.
 */
struct PortChoice
{
    const std::vector<uint32_t>& ports; //!< The equal-cost egress ports (at least two).
    const FlowFiveTuple& tuple;         //!< The frame's flow.
    uint8_t priority;                   //!< The frame's priority (0-7).
    Ptr<const Packet> frame;            //!< The frame, Ethernet header first (read only).
};

/**
 * @ingroup llm-fabric
 * @brief How a switch picks one egress port among the equal-cost ports of a destination: the
 * load-balancing extension point.
 *
 * A RoceSwitch holds one LoadBalancer (attribute RoceSwitch::LoadBalancer, by default an
 * EcmpLoadBalancer) and asks it for every frame whose route has two ports or more (a single
 * port is taken without asking). Subclasses are one class per file pair, chosen by TypeId:
 * EcmpLoadBalancer (per flow, alias "ecmp") and SprayLoadBalancer (per packet, alias "spray");
 * an adaptive or flowlet balancer reads the queues of the candidate ports through the switch
 * (RoceSwitch::GetMmu()->GetEgressBytes(port, priority), RoceSwitch::GetPort) and the time
 * with Simulator::Now(), and keeps its own per-flow state.
 *
 * Each switch needs its own object: RoceTopologyHelper::SetLoadBalancer creates one per switch.
 */
class LoadBalancer : public Object
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    LoadBalancer();
    ~LoadBalancer() override;

    /**
     * Choose the egress port of a frame; called once per frame, at its arrival
     * (Simulator::Now()), before the MMU admits it. It must not allocate or do string work: it
     * runs for every frame the switch forwards.
     * @param sw the switch asking (its ports, its MMU's egress queue lengths).
     * @param choice the frame: its equal-cost egress ports, flow, priority and bytes.
     * @return one of choice.ports.
     */
    virtual uint32_t SelectPort(const RoceSwitch& sw, const PortChoice& choice) = 0;

    /**
     * What the switch calls for each frame: SelectPort with the frame's flow as the plain
     * numbers the switch parsed. By default it makes the FlowFiveTuple (its two Ipv4Address
     * are calls into ns-3) and the PortChoice, and asks SelectPort; a balancer that needs only
     * the numbers overrides it, and must then choose as its SelectPort would.
     * @param sw the switch asking.
     * @param ports the equal-cost egress ports (at least two).
     * @param raw the frame's flow (EcmpHash::ParseFrame).
     * @param priority the frame's priority (0-7).
     * @param frame the frame, Ethernet header first (read only).
     * @return one of ports.
     */
    virtual uint32_t SelectPortRaw(const RoceSwitch& sw,
                                   const std::vector<uint32_t>& ports,
                                   const EcmpHash::RawTuple& raw,
                                   uint8_t priority,
                                   const Ptr<Packet>& frame);

    /**
     * Assign fixed random variable streams.
     * @param stream first stream index to use.
     * @return the number of streams used (0 for a deterministic balancer).
     */
    virtual int64_t AssignStreams(int64_t stream);

    /**
     * Whether SelectPort may be handed a frame whose IPv4 TTL and header checksum still lack
     * the decrements the switches before deferred ("Deferred TTL decrements" in
     * RoceNetDevice::Enqueue): true for a balancer that reads neither field of choice.frame.
     * @return false unless a subclass says otherwise: the switch then pays the decrements
     * before asking it.
     */
    virtual bool AcceptsDeferredTtl() const;
};

} // namespace ns3

#endif /* LOAD_BALANCER_H */
