/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "staggered-collective.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("StaggeredCollective");

NS_OBJECT_ENSURE_REGISTERED(StaggeredCollective);

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

CollectiveAlgorithm
StaggeredCollective::GetAlgorithm() const
{
    return CollectiveAlgorithm::STAGGERED;
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
                                   std::vector<CollectiveTransferSpec>& schedule) const
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
                        CollectiveVolume::RangeBytes(bytes, n, 0, to),
                        CollectiveVolume::ChunkBytes(bytes, n, to),
                        k,
                        false);
        }
    }
    return n - 1;
}

} // namespace ns3
