/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "halving-doubling-collective.h"

#include "recursive-doubling-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

#include <sstream>

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
    : CollectiveStrategy({CollectiveKind::ALL_REDUCE, CollectiveKind::REDUCE_SCATTER})
{
    NS_LOG_FUNCTION(this);
}

std::string
HalvingDoublingCollective::CheckSupport(CollectiveKind kind, uint32_t n, uint32_t localSize) const
{
    std::string error = CollectiveStrategy::CheckSupport(kind, n, localSize);
    if (error.empty() && !IsPowerOfTwo(n))
    {
        std::ostringstream message;
        message << "halving-doubling " << GetCollectiveKindName(kind)
                << " needs a power-of-two group size n, got n = " << n;
        error = message.str();
    }
    return error;
}

void
HalvingDoublingCollective::AddHalvingReduceScatter(uint32_t n,
                                                   uint64_t bytes,
                                                   uint32_t firstStep,
                                                   CollectiveSchedule& schedule)
{
    const uint32_t levels = CeilLog2(n);
    for (uint32_t k = 0; k < levels; ++k)
    {
        const uint32_t d = n >> (k + 1);
        for (uint32_t r = 0; r < n; ++r)
        {
            // The aligned range of 2d chunks holding chunk r is [low, low + 2d); r sends the
            // half that does not contain chunk r.
            uint32_t low = r & ~(2 * d - 1);
            uint32_t given = (r & d) != 0 ? low : low + d;
            AddTransfer(schedule,
                        r,
                        r ^ d,
                        CollectiveChunks::RangeBytes(bytes, n, 0, given),
                        CollectiveChunks::RangeBytes(bytes, n, given, given + d),
                        firstStep + k,
                        true);
        }
    }
}

uint32_t
HalvingDoublingCollective::BuildSchedule(const CollectiveCall& call,
                                         CollectiveSchedule& schedule) const
{
    const uint32_t levels = CeilLog2(call.n);
    AddHalvingReduceScatter(call.n, call.bytes, 0, schedule);
    if (call.kind == CollectiveKind::REDUCE_SCATTER)
    {
        return levels;
    }
    RecursiveDoublingCollective::AddDoublingAllGather(call.n, call.bytes, levels, schedule);
    return 2 * levels;
}

} // namespace ns3
