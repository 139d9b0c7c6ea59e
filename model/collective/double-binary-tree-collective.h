/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DOUBLE_BINARY_TREE_COLLECTIVE_H
#define DOUBLE_BINARY_TREE_COLLECTIVE_H

#include "collective-strategy.h"

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The DOUBLE_BINARY_TREE all-reduce (Sanders, Speck and Träff 2009; NCCL 2.4).
 *
 * The buffer is cut in two halves by ChunkBytes(S, 2, t); half t is reduced up tree t and then
 * broadcast down it, the trees being CollectiveVolume::TreeParent / TreeChildren's. With
 * D = ceil(log2 n) and d a rank's depth in tree t (CollectiveVolume::TreeDepth), a non-root rank
 * sends half t to its parent at step D - d (reduce) and its parent sends the result back at step
 * D + d - 1 (store). 2D steps; the real implementation pipelines them but moves the same bytes.
 */
class DoubleBinaryTreeCollective : public CollectiveStrategy
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    DoubleBinaryTreeCollective();
    ~DoubleBinaryTreeCollective() override;

    CollectiveAlgorithm GetAlgorithm() const override;
    std::vector<CollectiveKind> GetSupportedKinds() const override;

  protected:
    uint32_t BuildSchedule(CollectiveKind kind,
                           uint32_t n,
                           uint64_t bytes,
                           uint32_t localSize,
                           std::vector<CollectiveTransferSpec>& schedule) const override;
};

} // namespace ns3

#endif /* DOUBLE_BINARY_TREE_COLLECTIVE_H */
