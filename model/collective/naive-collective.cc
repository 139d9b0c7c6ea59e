/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "naive-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("NaiveCollective");

NS_OBJECT_ENSURE_REGISTERED(NaiveCollective);

/// The short name scenarios use: collectives: {all_reduce: naive}.
static TypeIdAlias g_naiveCollectiveAlias("naive", "ns3::NaiveCollective");

TypeId
NaiveCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::NaiveCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<NaiveCollective>();
    return tid;
}

NaiveCollective::NaiveCollective()
    : CollectiveStrategy({CollectiveKind::ALL_REDUCE, CollectiveKind::BROADCAST})
{
    NS_LOG_FUNCTION(this);
}

uint32_t
NaiveCollective::BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const
{
    if (call.kind == CollectiveKind::ALL_REDUCE)
    {
        for (uint32_t r = 1; r < call.n; ++r)
        {
            AddTransfer(schedule, r, 0, 0, call.bytes, 0, true);
            AddTransfer(schedule, 0, r, 0, call.bytes, 1, false);
        }
        return call.n > 1 ? 2 : 0;
    }
    // BROADCAST
    for (uint32_t r = 1; r < call.n; ++r)
    {
        AddTransfer(schedule, 0, r, 0, call.bytes, r - 1, false);
    }
    return call.n - 1;
}

} // namespace ns3
