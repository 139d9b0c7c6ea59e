/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HALVING_DOUBLING_COLLECTIVE_H
#define HALVING_DOUBLING_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The HALVING_DOUBLING algorithm (Rabenseifner 2004): recursive-halving reduce-scatter,
 * then, for all-reduce, recursive-doubling all-gather. n must be a power of two (Rabenseifner's
 * handling of other group sizes is not implemented).
 *
 * - REDUCE_SCATTER (RecursiveDoublingCollective::AddButterfly, halving): at step k
 *   (0..log2 n - 1), with d = n / 2^(k+1), rank r holds the aligned range of 2d chunks (of n)
 *   that contains chunk r; it keeps the half that contains chunk r and sends the other half to
 *   r XOR d, which adds it. The two ranks of a pair send disjoint halves. log2 n steps; r ends
 *   with chunk r reduced.
 * - ALL_REDUCE: the reduce-scatter, then RecursiveDoublingCollective's all-gather from step
 *   log2 n. 2 log2 n steps.
 */
class HalvingDoublingCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    HalvingDoublingCollective();

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* HALVING_DOUBLING_COLLECTIVE_H */
