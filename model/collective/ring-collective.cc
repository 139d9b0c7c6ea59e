/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ring-collective.h"

#include "ns3/log.h"
#include "ns3/type-id-alias.h"

#include <numeric>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RingCollective");

NS_OBJECT_ENSURE_REGISTERED(RingCollective);

/// The short name scenarios use: collectives: {all_reduce: ring}.
static TypeIdAlias g_ringCollectiveAlias("ring", "ns3::RingCollective");

TypeId
RingCollective::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RingCollective")
                            .SetParent<CollectiveStrategy>()
                            .SetGroupName("LlmFabric")
                            .AddConstructor<RingCollective>();
    return tid;
}

RingCollective::RingCollective()
    : CollectiveStrategy({CollectiveKind::ALL_REDUCE,
                          CollectiveKind::ALL_GATHER,
                          CollectiveKind::REDUCE_SCATTER,
                          CollectiveKind::BROADCAST})
{
    NS_LOG_FUNCTION(this);
}

void
RingCollective::AddRingStage(const std::vector<uint32_t>& ring,
                             uint64_t offset,
                             uint64_t bytes,
                             uint32_t firstStep,
                             bool reduceScatter,
                             CollectiveSchedule& schedule)
{
    const uint32_t shift = reduceScatter ? 1 : 0;
    const auto size = static_cast<uint32_t>(ring.size());
    // Each chunk's offset and size, once: the stage has size x (size - 1) transfers (100 million
    // for two stages of a ring of 4096, which the traffic report tallies).
    std::vector<uint64_t> chunkOffset(size);
    std::vector<uint64_t> chunkBytes(size);
    for (uint32_t chunk = 0; chunk < size; ++chunk)
    {
        chunkOffset[chunk] = offset + CollectiveChunks::RangeBytes(bytes, size, 0, chunk);
        chunkBytes[chunk] = CollectiveChunks::ChunkBytes(bytes, size, chunk);
    }
    for (uint32_t s = 0; s + 1 < size; ++s)
    {
        // Position p sends chunk (p - s - shift) mod size (non-negative: s + shift <= size).
        auto chunk = static_cast<uint32_t>((2 * uint64_t{size} - s - shift) % size);
        for (uint32_t p = 0; p < size; ++p)
        {
            AddTransfer(schedule,
                        ring[p],
                        ring[p + 1 == size ? 0 : p + 1],
                        chunkOffset[chunk],
                        chunkBytes[chunk],
                        firstStep + s,
                        reduceScatter);
            chunk = chunk + 1 == size ? 0 : chunk + 1;
        }
    }
}

uint32_t
RingCollective::BuildSchedule(const CollectiveCall& call, CollectiveSchedule& schedule) const
{
    std::vector<uint32_t> ring(call.n);
    std::iota(ring.begin(), ring.end(), 0);
    switch (call.kind)
    {
    case CollectiveKind::ALL_REDUCE:
        AddRingStage(ring, 0, call.bytes, 0, true, schedule);
        AddRingStage(ring, 0, call.bytes, call.n - 1, false, schedule);
        return 2 * (call.n - 1);
    case CollectiveKind::ALL_GATHER:
        AddRingStage(ring, 0, call.bytes, 0, false, schedule);
        return call.n - 1;
    case CollectiveKind::REDUCE_SCATTER:
        AddRingStage(ring, 0, call.bytes, 0, true, schedule);
        return call.n - 1;
    default: // BROADCAST: the chain 0 -> 1 -> ... -> call.n-1.
        for (uint32_t r = 0; r + 1 < call.n; ++r)
        {
            AddTransfer(schedule, r, r + 1, 0, call.bytes, r, false);
        }
        return call.n - 1;
    }
}

} // namespace ns3
