/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "recursive-doubling-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RecursiveDoublingCollective");

NS_OBJECT_ENSURE_REGISTERED(RecursiveDoublingCollective);

/// The short name scenarios use: collectives: {all_reduce: recursive-doubling}.
static TypeIdAlias g_recursiveDoublingCollectiveAlias("recursive-doubling",
                                                      "ns3::RecursiveDoublingCollective");

TypeId
RecursiveDoublingCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RecursiveDoublingCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RecursiveDoublingCollective>();
    return tid;
}

RecursiveDoublingCollective::RecursiveDoublingCollective()
    : CollectiveStrategy(
          {CollectiveKind::ALL_REDUCE, CollectiveKind::ALL_GATHER, CollectiveKind::BROADCAST},
          {CollectiveKind::ALL_REDUCE, CollectiveKind::ALL_GATHER})
{
    NS_LOG_FUNCTION(this);
}

void
RecursiveDoublingCollective::AddButterfly(uint32_t n,
                                          uint64_t bytes,
                                          uint32_t firstStep,
                                          bool halving,
                                          CollectiveSchedule& schedule)
{
    const uint32_t levels = CeilLog2(n);
    for (uint32_t k = 0; k < levels; ++k)
    {
        const uint32_t d = halving ? n >> (k + 1) : uint32_t{1} << k;
        for (uint32_t r = 0; r < n; ++r)
        {
            const uint32_t first = (halving ? r ^ d : r) & ~(d - 1);
            AddTransfer(schedule,
                        r,
                        r ^ d,
                        CollectiveChunks::RangeBytes(bytes, n, 0, first),
                        CollectiveChunks::RangeBytes(bytes, n, first, first + d),
                        firstStep + k,
                        halving);
        }
    }
}

uint32_t
RecursiveDoublingCollective::BuildSchedule(const CollectiveCall& call,
                                           CollectiveSchedule& schedule) const
{
    const uint32_t levels = CeilLog2(call.n);
    switch (call.kind)
    {
    case CollectiveKind::ALL_REDUCE:
        for (uint32_t k = 0; k < levels; ++k)
        {
            for (uint32_t r = 0; r < call.n; ++r)
            {
                AddTransfer(schedule, r, r ^ (uint32_t{1} << k), 0, call.bytes, k, true);
            }
        }
        break;
    case CollectiveKind::ALL_GATHER:
        AddButterfly(call.n, call.bytes, 0, false, schedule);
        break;
    default: // BROADCAST: binomial tree.
        for (uint32_t k = 0; k < levels; ++k)
        {
            const uint64_t distance = uint64_t{1} << k;
            for (uint64_t r = 0; r < distance && r + distance < call.n; ++r)
            {
                AddTransfer(schedule,
                            static_cast<uint32_t>(r),
                            static_cast<uint32_t>(r + distance),
                            0,
                            call.bytes,
                            k,
                            false);
            }
        }
        break;
    }
    return levels;
}

} // namespace ns3
