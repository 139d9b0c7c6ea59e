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
{
    NS_LOG_FUNCTION(this);
}

StaggeredCollective::~StaggeredCollective()
{
    NS_LOG_FUNCTION(this);
}

std::vector<CollectiveKind>
StaggeredCollective::GetSupportedKinds() const
{
    return {CollectiveKind::ALL_TO_ALL};
}

uint32_t
StaggeredCollective::BuildSchedule(CollectiveKind kind,
                                   uint32_t n,
                                   uint64_t bytes,
                                   uint32_t localSize,
                                   CollectiveSchedule& schedule) const
{
    NS_LOG_FUNCTION(this << n << bytes);
    for (uint32_t k = 0; k + 1 < n; ++k)
    {
        for (uint32_t r = 0; r < n; ++r)
        {
            auto to = static_cast<uint32_t>((uint64_t{r} + k + 1) % n);
            AddTransfer(schedule,
                        r,
                        to,
                        CollectiveChunks::RangeBytes(bytes, n, 0, to),
                        CollectiveChunks::ChunkBytes(bytes, n, to),
                        k,
                        false);
        }
    }
    return n - 1;
}

} // namespace ns3
