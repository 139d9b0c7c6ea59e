/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SPRAY_LOAD_BALANCER_H
#define SPRAY_LOAD_BALANCER_H

#include "load-balancer.h"

#include "ns3/random-variable-stream.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Per-packet spraying: every frame takes one of the n equal-cost ports uniformly at
 * random, independently of its flow (packets of a flow may arrive out of order). Alias "spray".
 */
class SprayLoadBalancer : public LoadBalancer
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    SprayLoadBalancer();

    uint32_t SelectPort(const RoceSwitch& sw, const PortChoice& choice) override;
    /// @return true: the choice reads no byte of the frame.
    bool AcceptsDeferredTtl() const override;

    /**
     * Assign a fixed stream to the choice.
     * @param stream the stream index.
     * @return 1.
     */
    int64_t AssignStreams(int64_t stream) override;

  protected:
    void DoDispose() override;

  private:
    Ptr<UniformRandomVariable> m_uniform; //!< the choice of port
};

} // namespace ns3

#endif /* SPRAY_LOAD_BALANCER_H */
