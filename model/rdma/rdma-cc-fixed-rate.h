/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CC_FIXED_RATE_H
#define RDMA_CC_FIXED_RATE_H

#include "rdma-congestion-ops.h"

#include "ns3/data-rate.h"

#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief A constant sending rate: the attribute Rate, capped at the line rate.
 *
 * Useful as a baseline (a static rate limit per queue pair) and in tests. Start sets the rate to
 * min(Rate, line rate); nothing changes it afterwards (CNPs, acknowledgements and timeouts are
 * ignored). Rate is read when Start is called.
 */
class RdmaCcFixedRate : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCcFixedRate();
    ~RdmaCcFixedRate() override;

    /// @return "FixedRate".
    std::string GetName() const override;

    /**
     * Start sending at min(Rate, line rate).
     * @param lineRate the NIC port's rate.
     */
    void Start(DataRate lineRate) override;

  private:
    DataRate m_fixedRate; //!< Rate: the configured sending rate.
};

} // namespace ns3

#endif /* RDMA_CC_FIXED_RATE_H */
