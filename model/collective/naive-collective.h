/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef NAIVE_COLLECTIVE_H
#define NAIVE_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The NAIVE algorithm: everything goes through rank 0.
 *
 * - ALL_REDUCE: step 0, every rank r > 0 sends its whole buffer to rank 0, which adds it (reduce);
 *   step 1, rank 0 sends the sum to every rank r > 0 (store). 2 steps (0 for n = 1).
 * - BROADCAST: rank 0 sends the whole buffer to rank k at step k - 1. n - 1 steps.
 */
class NaiveCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    NaiveCollective();

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* NAIVE_COLLECTIVE_H */
