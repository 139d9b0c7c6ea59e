/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "direct-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("DirectCollective");

NS_OBJECT_ENSURE_REGISTERED(DirectCollective);

/// The short name scenarios use: collectives: {all_reduce: direct}.
static TypeIdAlias g_directCollectiveAlias("direct", "ns3::DirectCollective");

TypeId
DirectCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::DirectCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<DirectCollective>();
    return tid;
}

DirectCollective::DirectCollective()
    : CollectiveStrategy({CollectiveKind::ALL_GATHER,
                          CollectiveKind::REDUCE_SCATTER,
                          CollectiveKind::ALL_TO_ALL,
                          CollectiveKind::SEND_RECV})
{
    NS_LOG_FUNCTION(this);
}

uint32_t
DirectCollective::BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const
{
    if (call.kind == CollectiveKind::SEND_RECV)
    {
        AddTransfer(schedule, 0, 1, 0, call.bytes, 0, false);
        return 1;
    }
    for (uint32_t src = 0; src < call.n; ++src)
    {
        for (uint32_t dst = 0; dst < call.n; ++dst)
        {
            if (src == dst)
            {
                continue;
            }
            // ALL_GATHER sends the sender's chunk, the others the receiver's chunk.
            uint32_t chunk = call.kind == CollectiveKind::ALL_GATHER ? src : dst;
            AddTransfer(schedule,
                        src,
                        dst,
                        CollectiveChunks::RangeBytes(call.bytes, call.n, 0, chunk),
                        CollectiveChunks::ChunkBytes(call.bytes, call.n, chunk),
                        0,
                        call.kind == CollectiveKind::REDUCE_SCATTER);
        }
    }
    return call.n > 1 ? 1 : 0;
}

} // namespace ns3
