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
{
    NS_LOG_FUNCTION(this);
}

DirectCollective::~DirectCollective()
{
    NS_LOG_FUNCTION(this);
}

std::vector<CollectiveKind>
DirectCollective::GetSupportedKinds() const
{
    return {CollectiveKind::ALL_GATHER,
            CollectiveKind::REDUCE_SCATTER,
            CollectiveKind::ALL_TO_ALL,
            CollectiveKind::SEND_RECV};
}

uint32_t
DirectCollective::BuildSchedule(CollectiveKind kind,
                                uint32_t n,
                                uint64_t bytes,
                                uint32_t localSize,
                                CollectiveSchedule& schedule) const
{
    NS_LOG_FUNCTION(this << n << bytes);
    if (kind == CollectiveKind::SEND_RECV)
    {
        AddTransfer(schedule, 0, 1, 0, bytes, 0, false);
        return 1;
    }
    for (uint32_t src = 0; src < n; ++src)
    {
        for (uint32_t dst = 0; dst < n; ++dst)
        {
            if (src == dst)
            {
                continue;
            }
            // ALL_GATHER sends the sender's chunk, the others the receiver's chunk.
            uint32_t chunk = kind == CollectiveKind::ALL_GATHER ? src : dst;
            AddTransfer(schedule,
                        src,
                        dst,
                        CollectiveChunks::RangeBytes(bytes, n, 0, chunk),
                        CollectiveChunks::ChunkBytes(bytes, n, chunk),
                        0,
                        kind == CollectiveKind::REDUCE_SCATTER);
        }
    }
    return n > 1 ? 1 : 0;
}

} // namespace ns3
