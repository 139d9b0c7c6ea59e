/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HIERARCHICAL_COLLECTIVE_H
#define HIERARCHICAL_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The HIERARCHICAL all-reduce: reduce-scatter in each server, all-reduce per rail,
 * all-gather in each server.
 *
 * The n = m L ranks sit on m servers of L = localSize ranks; rank r is on server r / L with local
 * index l = r mod L, and the ranks of local index l form rail l (l, l + L, ..., ordered by
 * server). With S_l chunk l of the buffer in L chunks:
 * 1. steps 0..L-2: ring reduce-scatter of the whole buffer in each server (ring in local-index
 *    order); rank l of a server ends with S_l reduced over the server;
 * 2. steps L-1..L+2m-4: ring all-reduce of S_l on rail l (its reduce-scatter then all-gather over
 *    S_l cut into m chunks), so every rank of rail l ends with S_l reduced over all n ranks;
 * 3. steps L+2m-3..2L+2m-5: ring all-gather of the L chunks in each server.
 *
 * 2(L-1) + 2(m-1) steps. The stages are RingCollective's, on the servers' rings and the rails.
 */
class HierarchicalCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    HierarchicalCollective();

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* HIERARCHICAL_COLLECTIVE_H */
