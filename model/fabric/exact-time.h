/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef EXACT_TIME_H
#define EXACT_TIME_H

#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/windowed-calendar-scheduler.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Exact times in femtoseconds, rounded to the simulator's resolution only when an event
 * is scheduled.
 *
 * A 988-byte frame at 100 Gb/s lasts 80.96 ns: scheduling each frame at a rounded 81 ns would
 * drift by 0.04 ns per frame. Devices and sources therefore keep their clocks in femtoseconds
 * and ask this class for the delay until an exact instant, rounded half up; rounding then
 * never accumulates.
 */
class ExactTime
{
  public:
    ExactTime() = delete;

    /**
     * Read from the running WindowedCalendarScheduler when it knows it (Now()), else from
     * ns-3's Time.
     * @return femtoseconds per unit of the simulator's time resolution (1e6 at nanoseconds).
     */
    static int64_t GetResolutionFs()
    {
        if (const auto* running = WindowedCalendarScheduler::PeekRunningTime())
        {
            return running->fsPerStep;
        }
        return ReadResolutionFs();
    }

    /**
     * GetResolutionFs() read from ns-3's Time (an ns-3 call; the conversion is kept per
     * resolution): also what a WindowedCalendarScheduler records with the running event.
     * @return femtoseconds per unit of the simulator's time resolution.
     */
    static int64_t ReadResolutionFs();

    /**
     * Simulator::Now(), read from the WindowedCalendarScheduler that handed the running event
     * over when it did (the programs' scheduler: no call into ns-3's simulator, about 50
     * instructions, several times per frame), else from the simulator.
     * @return the current simulation time.
     */
    static Time Now()
    {
        if (const auto* running = WindowedCalendarScheduler::PeekRunningTime())
        {
            return TimeStep(running->ts);
        }
        return Simulator::Now();
    }

    /**
     * Now() in femtoseconds.
     * @return the current simulation time, in femtoseconds.
     */
    static int64_t NowFs()
    {
        if (const auto* running = WindowedCalendarScheduler::PeekRunningTime())
        {
            return running->fs;
        }
        return Simulator::Now().GetFemtoSeconds();
    }

    /**
     * @param fs a duration in femtoseconds (negative counts as zero).
     * @return it as a Time, rounded half up to the resolution.
     */
    static Time FromFs(int64_t fs);

    /**
     * @param absoluteFs an instant in femtoseconds of simulated time.
     * @return the delay from now until then, rounded half up to the resolution (zero if past).
     */
    static Time DelayUntil(int64_t absoluteFs);

    /**
     * DelayUntil for a caller that has read the clock already (several uses per frame).
     * @param absoluteFs an instant in femtoseconds of simulated time.
     * @param nowFs the current time in femtoseconds (Simulator::Now()).
     * @return the delay from @p nowFs until then, rounded half up to the resolution.
     */
    static Time DelayUntil(int64_t absoluteFs, int64_t nowFs);

    /**
     * Where a frame (or drain) that follows a busy period starts: at the exact end of that
     * period if now is within one resolution unit of it (the event that ended it was rounded),
     * otherwise now (the resource was idle).
     * @param busyUntilFs exact end of the previous busy period.
     * @return the exact start, in femtoseconds.
     */
    static int64_t NextStart(int64_t busyUntilFs);

    /**
     * NextStart for a caller that has read the clock already.
     * @param busyUntilFs exact end of the previous busy period.
     * @param nowFs the current time in femtoseconds (Simulator::Now()).
     * @return the exact start, in femtoseconds.
     */
    static int64_t NextStart(int64_t busyUntilFs, int64_t nowFs);

    /**
     * FromFs with the resolution given: for a caller that converts several times per event and
     * reads GetResolutionFs() once (an ns-3 call).
     * @param fs a duration in femtoseconds (negative counts as zero).
     * @param unitFs GetResolutionFs().
     * @return it as a Time, rounded half up to the resolution.
     */
    static Time FromFs(int64_t fs, int64_t unitFs)
    {
        // A count of resolution units is a TimeStep (as Time::FromInteger in the resolution's
        // unit).
        return TimeStep(static_cast<uint64_t>(UnitsHalfUp(std::max<int64_t>(0, fs), unitFs)));
    }

    /**
     * std::llround, inline: the integer nearest to x, halfway cases away from zero. The per-frame
     * conversions of bits to femtoseconds use it; the library's llround is a call of about 27
     * instructions.
     * @param x a finite value, |x| < 2^63.
     * @return x rounded.
     */
    static int64_t Round(double x)
    {
        auto i = static_cast<int64_t>(x); // toward zero, exact for |x| < 2^63
        // Exact: a double's fraction is representable (and is 0 from 2^52 on).
        double fraction = x - static_cast<double>(i);
        if (fraction >= 0.5)
        {
            ++i;
        }
        else if (fraction <= -0.5)
        {
            --i;
        }
        return i;
    }

    /**
     * The rounding of FromFs, as a count: an event scheduled FromFs(atFs - nowFs, unitFs)
     * from a whole-unit now runs at UnitsHalfUp(atFs, unitFs) units.
     * @param fs femtoseconds, not negative.
     * @param unitFs GetResolutionFs().
     * @return fs in resolution units, rounded half up.
     */
    static int64_t UnitsHalfUp(int64_t fs, int64_t unitFs)
    {
        return (fs + unitFs / 2) / unitFs;
    }

    /**
     * NextStart with the clock and the resolution given.
     * @param busyUntilFs exact end of the previous busy period.
     * @param nowFs the current time in femtoseconds (Simulator::Now()).
     * @param unitFs GetResolutionFs().
     * @return the exact start, in femtoseconds.
     */
    static int64_t NextStart(int64_t busyUntilFs, int64_t nowFs, int64_t unitFs)
    {
        return (nowFs < busyUntilFs + unitFs) ? busyUntilFs : nowFs;
    }
};

} // namespace ns3

#endif /* EXACT_TIME_H */
