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
    : CollectiveStrategy({CollectiveKind::ALL_REDUCE})
{
    NS_LOG_FUNCTION(this);
}

uint32_t
HierarchicalCollective::BuildSchedule(const CollectiveCall& call,
                                      CollectiveSchedule& schedule) const
{
    const uint32_t servers = call.n / call.localSize;
    const uint32_t railStart = call.localSize - 1;
    const uint32_t gatherStart = railStart + 2 * (servers - 1);
    std::vector<uint32_t> ring(call.localSize);
    for (uint32_t server = 0; server < servers; ++server)
    {
        for (uint32_t l = 0; l < call.localSize; ++l)
        {
            ring[l] = server * call.localSize + l;
        }
        RingCollective::AddRingStage(ring, 0, call.bytes, 0, true, schedule);
        RingCollective::AddRingStage(ring, 0, call.bytes, gatherStart, false, schedule);
    }
    std::vector<uint32_t> rail(servers);
    for (uint32_t l = 0; l < call.localSize; ++l)
    {
        for (uint32_t server = 0; server < servers; ++server)
        {
            rail[server] = server * call.localSize + l;
        }
        const uint64_t offset = CollectiveChunks::RangeBytes(call.bytes, call.localSize, 0, l);
        const uint64_t railBytes = CollectiveChunks::ChunkBytes(call.bytes, call.localSize, l);
        RingCollective::AddRingStage(rail, offset, railBytes, railStart, true, schedule);
        RingCollective::AddRingStage(rail,
                                     offset,
                                     railBytes,
                                     railStart + servers - 1,
                                     false,
                                     schedule);
    }
    return 2 * (call.localSize - 1) + 2 * (servers - 1);
}

} // namespace ns3
