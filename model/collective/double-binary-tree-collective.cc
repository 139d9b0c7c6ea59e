/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "double-binary-tree-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DoubleBinaryTreeCollective");

NS_OBJECT_ENSURE_REGISTERED(DoubleBinaryTreeCollective);

/// The short name scenarios use: collectives: {all_reduce: double-binary-tree}.
static TypeIdAlias g_doubleBinaryTreeCollectiveAlias("double-binary-tree",
                                                     "ns3::DoubleBinaryTreeCollective");

namespace
{

/**
 * Tree 1 is tree 0's shape with the ranks moved: mirrored (r -> n - 1 - r) for an even n, shifted
 * by one (r -> r + 1 mod n) for an odd n; tree 0 is the shape itself.
 * @param n the group size.
 * @param tree 0 or 1.
 * @param value a rank (toPlace) or a place in tree 0's shape.
 * @param toPlace map a rank to its place (else a place to its rank, the inverse).
 * @return the place of the rank, or the rank at the place.
 */
uint32_t
TreeMap(uint32_t n, uint32_t tree, uint32_t value, bool toPlace)
{
    if (tree == 0)
    {
        return value;
    }
    if (n % 2 == 0)
    {
        return n - 1 - value;
    }
    return static_cast<uint32_t>((uint64_t{value} + (toPlace ? n - 1 : 1)) % n);
}

/**
 * @param n the group size.
 * @param place a place of tree 0.
 * @return its parent place in tree 0, or n for the root (see TreeParent).
 */
uint32_t
Tree0Parent(uint32_t n, uint32_t place)
{
    if (place == 0)
    {
        return n;
    }
    uint64_t v = place;
    uint64_t b = v & (~v + 1);
    if ((v & (b << 1)) == 0 && v + b < n)
    {
        return static_cast<uint32_t>(v + b);
    }
    return static_cast<uint32_t>(v - b);
}

/**
 * The children of a place of tree 0: for v > 0 with lowest set bit b >= 2, the left child v - b/2
 * and the right child v + h for the largest h in b/2, b/4, ..., 1 with v + h < n (if any); for
 * the root, the largest power of two less than n. This is the inverse of Tree0Parent.
 * @param n the group size.
 * @param place a place of tree 0.
 * @param rootSpan the smallest power of two at least n.
 * @return its children places, ascending.
 */
std::vector<uint32_t>
Tree0Children(uint32_t n, uint32_t place, uint64_t rootSpan)
{
    std::vector<uint32_t> children;
    uint64_t v = place;
    uint64_t b;
    if (v == 0)
    {
        b = rootSpan;
    }
    else
    {
        b = v & (~v + 1);
        if (b >= 2)
        {
            children.push_back(static_cast<uint32_t>(v - b / 2));
        }
    }
    for (uint64_t h = b / 2; h >= 1; h /= 2)
    {
        if (v + h < n)
        {
            children.push_back(static_cast<uint32_t>(v + h));
            break;
        }
    }
    return children;
}

} // namespace

TypeId
DoubleBinaryTreeCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DoubleBinaryTreeCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<DoubleBinaryTreeCollective>();
    return tid;
}

DoubleBinaryTreeCollective::DoubleBinaryTreeCollective()
    : CollectiveStrategy({CollectiveKind::ALL_REDUCE})
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DoubleBinaryTreeCollective::BuildSchedule(const CollectiveCall& call,
                                          CollectiveSchedule& schedule) const
{
    const uint32_t depthMax = CeilLog2(call.n);
    for (uint32_t tree = 0; tree < 2; ++tree)
    {
        const uint64_t offset = CollectiveChunks::RangeBytes(call.bytes, 2, 0, tree);
        const uint64_t half = CollectiveChunks::ChunkBytes(call.bytes, 2, tree);
        for (uint32_t r = 0; r < call.n; ++r)
        {
            uint32_t parent = TreeParent(call.n, tree, r);
            if (parent == call.n)
            {
                continue; // the root
            }
            uint32_t depth = TreeDepth(call.n, tree, r);
            AddTransfer(schedule, r, parent, offset, half, depthMax - depth, true);
            AddTransfer(schedule, parent, r, offset, half, depthMax + depth - 1, false);
        }
    }
    return 2 * depthMax;
}

uint32_t
DoubleBinaryTreeCollective::TreeParent(uint32_t n, uint32_t tree, uint32_t rank)
{
    uint32_t parent = Tree0Parent(n, TreeMap(n, tree, rank, true));
    return parent == n ? n : TreeMap(n, tree, parent, false);
}

std::vector<uint32_t>
DoubleBinaryTreeCollective::TreeChildren(uint32_t n, uint32_t tree, uint32_t rank)
{
    std::vector<uint32_t> children;
    for (uint32_t place :
         Tree0Children(n, TreeMap(n, tree, rank, true), uint64_t{1} << CeilLog2(n)))
    {
        children.push_back(TreeMap(n, tree, place, false));
    }
    std::sort(children.begin(), children.end());
    return children;
}

uint32_t
DoubleBinaryTreeCollective::TreeDepth(uint32_t n, uint32_t tree, uint32_t rank)
{
    uint32_t depth = 0;
    for (uint32_t place = TreeMap(n, tree, rank, true); place != 0; place = Tree0Parent(n, place))
    {
        ++depth;
    }
    return depth;
}

} // namespace ns3
