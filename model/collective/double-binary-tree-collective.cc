/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "double-binary-tree-collective.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DoubleBinaryTreeCollective");

NS_OBJECT_ENSURE_REGISTERED(DoubleBinaryTreeCollective);

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
{
    NS_LOG_FUNCTION(this);
}

DoubleBinaryTreeCollective::~DoubleBinaryTreeCollective()
{
    NS_LOG_FUNCTION(this);
}

CollectiveAlgorithm
DoubleBinaryTreeCollective::GetAlgorithm() const
{
    return CollectiveAlgorithm::DOUBLE_BINARY_TREE;
}

std::vector<CollectiveKind>
DoubleBinaryTreeCollective::GetSupportedKinds() const
{
    return {CollectiveKind::ALL_REDUCE};
}

uint32_t
DoubleBinaryTreeCollective::BuildSchedule(CollectiveKind kind,
                                          uint32_t n,
                                          uint64_t bytes,
                                          uint32_t localSize,
                                          std::vector<CollectiveTransferSpec>& schedule) const
{
    NS_LOG_FUNCTION(this << n << bytes);
    const uint32_t depthMax = CeilLog2(n);
    for (uint32_t tree = 0; tree < 2; ++tree)
    {
        const uint64_t offset = CollectiveVolume::RangeBytes(bytes, 2, 0, tree);
        const uint64_t half = CollectiveVolume::ChunkBytes(bytes, 2, tree);
        for (uint32_t r = 0; r < n; ++r)
        {
            uint32_t parent = CollectiveVolume::TreeParent(n, tree, r);
            if (parent == n)
            {
                continue; // the root
            }
            uint32_t depth = CollectiveVolume::TreeDepth(n, tree, r);
            AddTransfer(schedule, r, parent, offset, half, depthMax - depth, true);
            AddTransfer(schedule, parent, r, offset, half, depthMax + depth - 1, false);
        }
    }
    return 2 * depthMax;
}

} // namespace ns3
