/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-chunks.h"

#include <algorithm>

namespace ns3
{

uint64_t
CollectiveChunks::ChunkBytes(uint64_t total, uint32_t parts, uint32_t index)
{
    if (parts == 0 || index >= parts)
    {
        return 0;
    }
    return total / parts + (index < total % parts ? 1 : 0);
}

uint64_t
CollectiveChunks::RangeBytes(uint64_t total, uint32_t parts, uint32_t first, uint32_t last)
{
    if (parts == 0)
    {
        return 0;
    }
    last = std::min(last, parts);
    if (first >= last)
    {
        return 0;
    }
    uint64_t remainder = total % parts;
    uint64_t longEnd = std::min<uint64_t>(last, remainder);
    uint64_t longChunks = longEnd > first ? longEnd - first : 0;
    return uint64_t{last - first} * (total / parts) + longChunks;
}

} // namespace ns3
