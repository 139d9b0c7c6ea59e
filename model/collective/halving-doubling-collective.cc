/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "halving-doubling-collective.h"

#include "recursive-doubling-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("HalvingDoublingCollective");

NS_OBJECT_ENSURE_REGISTERED(HalvingDoublingCollective);

/// The short name scenarios use: collectives: {all_reduce: halving-doubling}.
static TypeIdAlias g_halvingDoublingCollectiveAlias("halving-doubling",
                                                    "ns3::HalvingDoublingCollective");

TypeId
HalvingDoublingCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::HalvingDoublingCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<HalvingDoublingCollective>();
    return tid;
}

HalvingDoublingCollective::HalvingDoublingCollective()
    : CollectiveStrategy({CollectiveKind::ALL_REDUCE, CollectiveKind::REDUCE_SCATTER},
                         {CollectiveKind::ALL_REDUCE, CollectiveKind::REDUCE_SCATTER})
{
    NS_LOG_FUNCTION(this);
}

uint32_t
HalvingDoublingCollective::BuildSchedule(const CollectiveCall& call,
                                         CollectiveSchedule& schedule) const
{
    const uint32_t levels = CeilLog2(call.n);
    RecursiveDoublingCollective::AddButterfly(call.n, call.bytes, 0, true, schedule);
    if (call.kind == CollectiveKind::REDUCE_SCATTER)
    {
        return levels;
    }
    RecursiveDoublingCollective::AddButterfly(call.n, call.bytes, levels, false, schedule);
    return 2 * levels;
}

} // namespace ns3
