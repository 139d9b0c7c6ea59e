/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_COLLECTIVE_H
#define RING_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The RING algorithm (Patarasuk and Yuan 2009), and the chain broadcast.
 *
 * With c(i) chunk i of the buffer in n chunks (CollectiveChunks::ChunkBytes) and indices mod n:
 * - REDUCE_SCATTER: step s (0..n-2), rank r sends c(r-s-1) to r+1, which adds it; r ends with
 *   c(r) reduced. n - 1 steps.
 * - ALL_GATHER: step s (0..n-2), rank r sends c(r-s) to r+1, which stores it. n - 1 steps.
 * - ALL_REDUCE: the reduce-scatter, then the all-gather from step n - 1. 2(n - 1) steps.
 * - BROADCAST: a chain, rank r sends the whole buffer to r+1 at step r. n - 1 steps.
 *
 * The ring stage is also a public building block (HierarchicalCollective uses them on the
 * servers' rings and on the rails).
 */
class RingCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    RingCollective();

    /**
     * Append a ring stage over the region [offset, offset + bytes) among the ranks of a ring, the
     * region cut into ring.size() chunks with ChunkBytes; size - 1 steps. At step firstStep + s,
     * the member at position p sends to position p + 1:
     * - reduce-scatter: chunk (p - s - 1) mod size, which the receiver adds; the member at
     *   position p ends with chunk p reduced;
     * - all-gather (the member at position p starting with chunk p): chunk (p - s) mod size, which
     *   the receiver stores.
     * @param ring the ranks in ring order (position p is ring[p]).
     * @param offset the first byte of the region.
     * @param bytes the bytes of the region.
     * @param firstStep the step of s = 0.
     * @param reduceScatter a reduce-scatter rather than an all-gather.
     * @param[out] schedule where to append the transfers.
     */
    static void AddRingStage(const std::vector<uint32_t>& ring,
                             uint64_t offset,
                             uint64_t bytes,
                             uint32_t firstStep,
                             bool reduceScatter,
                             CollectiveSchedule& schedule);

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* RING_COLLECTIVE_H */
