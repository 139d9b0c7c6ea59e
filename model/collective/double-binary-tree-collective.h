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
 * broadcast down it, the trees being TreeParent / TreeChildren's. With
 * D = ceil(log2 n) and d a rank's depth in tree t (TreeDepth), a non-root rank
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

    /**
     * The parent of a rank in one of the two trees.
     *
     * Tree 0 is an in-order binary tree rooted at rank 0 whose only child is the largest power of
     * two less than n. A rank v > 0 whose lowest set bit is b has the parent v + b if bit 2b of v
     * is clear and v + b < n, else v - b. Its depth is at most ceil(log2 n), and exactly that for
     * rank 1. Tree 1 places rank r at the place of n-1-r in tree 0 for even n (mirror) and at the
     * place of r-1 mod n for odd n (shift), as NCCL does, so that for even n a rank that is
     * interior in one tree is a leaf in the other.
     * @param n the group size.
     * @param tree 0 or 1.
     * @param rank a rank, less than n.
     * @return the parent, or n for the root.
     */
    static uint32_t TreeParent(uint32_t n, uint32_t tree, uint32_t rank);

    /**
     * @param n the group size.
     * @param tree 0 or 1.
     * @param rank a rank, less than n.
     * @return the children of the rank in that tree (none, one or two), ascending.
     */
    static std::vector<uint32_t> TreeChildren(uint32_t n, uint32_t tree, uint32_t rank);

    /**
     * @param n the group size.
     * @param tree 0 or 1.
     * @param rank a rank, less than n.
     * @return the number of edges between the rank and the root of that tree.
     */
    static uint32_t TreeDepth(uint32_t n, uint32_t tree, uint32_t rank);

  protected:
    uint32_t BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const override;
};

} // namespace ns3

#endif /* DOUBLE_BINARY_TREE_COLLECTIVE_H */
