/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "exact-time.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

int64_t
ExactTime::GetResolutionFs()
{
    return std::max<int64_t>(1, Time::FromInteger(1, Time::GetResolution()).GetFemtoSeconds());
}

Time
ExactTime::FromFs(int64_t fs)
{
    int64_t unit = GetResolutionFs();
    return Time::FromInteger(static_cast<uint64_t>((std::max<int64_t>(0, fs) + unit / 2) / unit),
                             Time::GetResolution());
}

Time
ExactTime::DelayUntil(int64_t absoluteFs)
{
    return FromFs(absoluteFs - Simulator::Now().GetFemtoSeconds());
}

int64_t
ExactTime::NextStart(int64_t busyUntilFs)
{
    int64_t nowFs = Simulator::Now().GetFemtoSeconds();
    return (nowFs < busyUntilFs + GetResolutionFs()) ? busyUntilFs : nowFs;
}

} // namespace ns3
