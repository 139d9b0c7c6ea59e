/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "staggered-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StaggeredCollective");

NS_OBJECT_ENSURE_REGISTERED(StaggeredCollective);

/// The short name scenarios use: collectives: {all_reduce: staggered}.
static TypeIdAlias g_staggeredCollectiveAlias("staggered", "ns3::StaggeredCollective");

TypeId
StaggeredCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::StaggeredCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<StaggeredCollective>();
    return tid;
}

StaggeredCollective::StaggeredCollective()
    : CollectiveStrategy({CollectiveKind::ALL_TO_ALL})
{
    NS_LOG_FUNCTION(this);
}

uint32_t
StaggeredCollective::BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const
{
    for (uint32_t k = 0; k + 1 < call.n; ++k)
    {
        for (uint32_t r = 0; r < call.n; ++r)
        {
            auto to = static_cast<uint32_t>((uint64_t{r} + k + 1) % call.n);
            AddTransfer(schedule,
                        r,
                        to,
                        CollectiveChunks::RangeBytes(call.bytes, call.n, 0, to),
                        CollectiveChunks::ChunkBytes(call.bytes, call.n, to),
                        k,
                        false);
        }
    }
    return call.n - 1;
}

} // namespace ns3
