/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ECMP_LOAD_BALANCER_H
#define ECMP_LOAD_BALANCER_H

#include "load-balancer.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Per-flow equal-cost multi-path: the port is EcmpHash::Select(EcmpHash::Hash(tuple,
 * Seed), n) among the n equal-cost ports, so every packet of a flow takes the same path
 * (RoCEv2 puts the per-queue-pair entropy in the UDP source port). Alias "ecmp".
 *
 * Every switch should have its own Seed so that tiers do not polarize; RoceTopologyHelper sets
 * one per switch.
 */
class EcmpLoadBalancer : public LoadBalancer
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    EcmpLoadBalancer();

    uint32_t SelectPort(const RoceSwitch& sw, const PortChoice& choice) override;
    /// The same hash of the plain numbers: no ns-3 address made per frame.
    uint32_t SelectPortRaw(const RoceSwitch& sw,
                           const std::vector<uint32_t>& ports,
                           const EcmpHash::RawTuple& raw,
                           uint8_t priority,
                           const Ptr<Packet>& frame) override;
    /// @return true: the hash reads the 5-tuple only.
    bool AcceptsDeferredTtl() const override;

  private:
    uint32_t m_seed; //!< Seed: the seed of the hash
};

} // namespace ns3

#endif /* ECMP_LOAD_BALANCER_H */
