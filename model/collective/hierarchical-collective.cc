/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "hierarchical-collective.h"

#include "ring-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HierarchicalCollective");

NS_OBJECT_ENSURE_REGISTERED(HierarchicalCollective);

/// The short name scenarios use: collectives: {all_reduce: hierarchical}.
static TypeIdAlias g_hierarchicalCollectiveAlias("hierarchical", "ns3::HierarchicalCollective");

TypeId
HierarchicalCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HierarchicalCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<HierarchicalCollective>();
    return tid;
}

HierarchicalCollective::HierarchicalCollective()
{
    NS_LOG_FUNCTION(this);
}

HierarchicalCollective::~HierarchicalCollective()
{
    NS_LOG_FUNCTION(this);
}

std::vector<CollectiveKind>
HierarchicalCollective::GetSupportedKinds() const
{
    return {CollectiveKind::ALL_REDUCE};
}

uint32_t
HierarchicalCollective::BuildSchedule(CollectiveKind kind,
                                      uint32_t n,
                                      uint64_t bytes,
                                      uint32_t localSize,
                                      CollectiveSchedule& schedule) const
{
    NS_LOG_FUNCTION(this << n << bytes << localSize);
    const uint32_t servers = n / localSize;
    const uint32_t railStart = localSize - 1;
    const uint32_t gatherStart = railStart + 2 * (servers - 1);
    std::vector<uint32_t> ring(localSize);
    for (uint32_t server = 0; server < servers; ++server)
    {
        for (uint32_t l = 0; l < localSize; ++l)
        {
            ring[l] = server * localSize + l;
        }
        RingCollective::AddRingReduceScatter(ring, 0, bytes, 0, schedule);
        RingCollective::AddRingAllGather(ring, 0, bytes, gatherStart, schedule);
    }
    std::vector<uint32_t> rail(servers);
    for (uint32_t l = 0; l < localSize; ++l)
    {
        for (uint32_t server = 0; server < servers; ++server)
        {
            rail[server] = server * localSize + l;
        }
        const uint64_t offset = CollectiveChunks::RangeBytes(bytes, localSize, 0, l);
        const uint64_t railBytes = CollectiveChunks::ChunkBytes(bytes, localSize, l);
        RingCollective::AddRingReduceScatter(rail, offset, railBytes, railStart, schedule);
        RingCollective::AddRingAllGather(rail,
                                         offset,
                                         railBytes,
                                         railStart + servers - 1,
                                         schedule);
    }
    return 2 * (localSize - 1) + 2 * (servers - 1);
}

} // namespace ns3
