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
ExactTime::ReadResolutionFs()
{
    // Called several times per frame: the conversion is done once per resolution (ns-3 fixes
    // the resolution before the first Time is made, but a test may set it first).
    static Time::Unit cachedUnit = Time::AUTO;
    static int64_t cachedFs = 1;
    Time::Unit unit = Time::GetResolution();
    if (unit != cachedUnit)
    {
        cachedFs = std::max<int64_t>(1, Time::FromInteger(1, unit).GetFemtoSeconds());
        cachedUnit = unit;
    }
    return cachedFs;
}

Time
ExactTime::FromFs(int64_t fs)
{
    return FromFs(fs, GetResolutionFs());
}

Time
ExactTime::DelayUntil(int64_t absoluteFs)
{
    return DelayUntil(absoluteFs, NowFs());
}

Time
ExactTime::DelayUntil(int64_t absoluteFs, int64_t nowFs)
{
    return FromFs(absoluteFs - nowFs);
}

int64_t
ExactTime::NextStart(int64_t busyUntilFs)
{
    return NextStart(busyUntilFs, NowFs());
}

int64_t
ExactTime::NextStart(int64_t busyUntilFs, int64_t nowFs)
{
    return NextStart(busyUntilFs, nowFs, GetResolutionFs());
}

} // namespace ns3
