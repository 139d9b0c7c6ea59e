/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CC_NONE_H
#define RDMA_CC_NONE_H

#include "rdma-congestion-ops.h"

#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief No congestion control: the queue pair always sends at the line rate.
 *
 * Only PFC keeps a lossless fabric from dropping. The rate set by Start never changes: CNPs,
 * acknowledgements and timeouts are ignored.
 */
class RdmaCcNone : public RdmaCongestionOps
{
  public:
    /**
     * Register this type.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCcNone();
    ~RdmaCcNone() override;

    /// @return "None".
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_CC_NONE_H */
