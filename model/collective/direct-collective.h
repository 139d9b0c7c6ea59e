/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_COLLECTIVE_H
#define DIRECT_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The DIRECT algorithm: every rank sends to every destination at once, in one step.
 *
 * With c(i) chunk i of the buffer in n chunks:
 * - ALL_GATHER: rank r sends c(r) to every other rank (store).
 * - REDUCE_SCATTER: rank r sends c(j) to every rank j != r, which adds it.
 * - ALL_TO_ALL: rank r sends c(j) of its send buffer to every rank j != r.
 * - SEND_RECV (n = 2): rank 0 sends the whole buffer to rank 1.
 *
 * One step (none for n = 1, except SEND_RECV which needs n = 2).
 */
class DirectCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    DirectCollective();

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* DIRECT_COLLECTIVE_H */
