/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RECURSIVE_DOUBLING_COLLECTIVE_H
#define RECURSIVE_DOUBLING_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The RECURSIVE_DOUBLING algorithm: pairwise exchanges at distances 1, 2, 4, ..., and the
 * binomial-tree broadcast.
 *
 * - ALL_REDUCE (n a power of two): at step k (0..log2 n - 1) ranks r and r XOR 2^k send each
 *   other the whole buffer and each adds what it receives. The two transfers of a pair carry the
 *   same range in the same step, so each is applied only after the receiver's own send has read
 *   its buffer: these are the only transfers of all the strategies with a non-empty applyAfter
 *   list (see CollectiveStrategy). log2 n steps.
 * - ALL_GATHER (n a power of two): at step k, rank r sends the 2^k chunks of the aligned block
 *   that contains chunk r (chunks [r & ~(2^k - 1), + 2^k) of n) to r XOR 2^k. log2 n steps.
 * - BROADCAST (any n): binomial tree; at step k every rank r < 2^k sends the whole buffer to
 *   r + 2^k if that is less than n. ceil(log2 n) steps.
 */
class RecursiveDoublingCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    RecursiveDoublingCollective();

    /**
     * Append a butterfly stage over the whole buffer of S bytes cut into n chunks: log2 n steps;
     * at step firstStep + k, rank r sends to r XOR d an aligned block of d chunks.
     * - Doubling (the all-gather, rank i starting with chunk i): d = 2^k, and r sends the block
     *   that contains its own chunk r; the partner stores it.
     * - Halving (Rabenseifner's reduce-scatter, HalvingDoublingCollective): d = n / 2^(k+1), and
     *   r sends the block that contains its partner's chunk, keeping the other half of the
     *   aligned range of 2d chunks; the partner adds it. r ends with chunk r reduced.
     * @param n the group size, a power of two.
     * @param bytes S.
     * @param firstStep the step of k = 0.
     * @param halving halving (reduce) rather than doubling (store).
     * @param[out] schedule where to append the transfers.
     */
    static void AddButterfly(uint32_t n,
                             uint64_t bytes,
                             uint32_t firstStep,
                             bool halving,
                             CollectiveSchedule& schedule);

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* RECURSIVE_DOUBLING_COLLECTIVE_H */
