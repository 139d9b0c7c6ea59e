/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STAGGERED_COLLECTIVE_H
#define STAGGERED_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The STAGGERED all-to-all: DIRECT's transfers spread over n - 1 steps so that every rank
 * sends to one rank and receives from one rank per step.
 *
 * At step k (0..n-2), rank r sends chunk r + k + 1 (mod n) of its send buffer to rank r + k + 1
 * (mod n), and so receives chunk r of rank r - k - 1's. n - 1 steps.
 */
class StaggeredCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    StaggeredCollective();

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* STAGGERED_COLLECTIVE_H */
