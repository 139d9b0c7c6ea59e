/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WINDOWED_CALENDAR_SCHEDULER_H
#define WINDOWED_CALENDAR_SCHEDULER_H

#include "ns3/nstime.h"
#include "ns3/scheduler.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief An event scheduler for packet-level runs: a calendar of buckets over a window of time
 * that slides with the clock, and a binary heap for the events beyond it.
 *
 * A packet-level run schedules most of its events a few hundred nanoseconds to a few
 * microseconds ahead (a frame's arrival one link delay on, the end of a frame one serialization
 * time on) and takes them out in time order, several per nanosecond of simulated time. A binary
 * heap spends about log2(n) unpredictable comparisons on each of them. Here the window, of
 * 2^BucketsLog2 buckets of BucketWidth each, starts at the bucket of the last event taken out:
 * an event inside it goes into the bucket of its time, kept sorted (an event usually goes last,
 * since a later event of the same tick has a larger ns-3 uid); an event beyond it goes into the
 * heap, and moves into the window when the window reaches it. The next event is the first of
 * the first bucket that holds one, found through a bitmap of the buckets in use.
 *
 * The order is ns-3's, whatever the settings: time, then the order of scheduling
 * (Scheduler::EventKey's uid), as every ns-3 scheduler runs events, so a run gives the same
 * results with this scheduler as with ns-3's own. The settings only move events between the
 * buckets and the heap.
 *
 * The bucket width is used as the largest power of two of the time resolution's unit not above
 * BucketWidth (GetBucketTicks), so that a bucket is found by a shift. The attributes can only be
 * changed while the scheduler holds no event.
 *
 * Chosen as ns-3 chooses a scheduler: `--SchedulerType=ns3::WindowedCalendarScheduler`, or
 * `Simulator::SetScheduler`.
 */
class WindowedCalendarScheduler : public Scheduler
{
  public:
    /**
     * Register this type.
     * @return the object TypeId.
     */
    static TypeId GetTypeId();

    WindowedCalendarScheduler();
    ~WindowedCalendarScheduler() override;

    // Inherited from Scheduler.
    void Insert(const Event& ev) override;
    bool IsEmpty() const override;
    Event PeekNext() const override;
    Event RemoveNext() override;
    void Remove(const Event& ev) override;

    /// The time of the event being run (PeekRunningTime).
    struct RunningTime
    {
        uint64_t ts{0};       //!< in time steps: Simulator::Now().GetTimeStep()
        int64_t fs{0};        //!< in femtoseconds: Simulator::Now().GetFemtoSeconds()
        int64_t fsPerStep{1}; //!< femtoseconds per time step (the time resolution)
    };

    /**
     * The time of the event the simulator runs: the time of the event a
     * WindowedCalendarScheduler last handed over (RemoveNext), which is Simulator::Now() while
     * that scheduler is the simulator's. Read by ExactTime::Now() in place of calls into
     * ns-3's simulator and Time (several per frame otherwise).
     *
     * Known from the first event a WindowedCalendarScheduler hands over until that scheduler
     * is destroyed, with its simulator (Simulator::Destroy) or when Simulator::SetScheduler
     * replaces it; unknown before (a simulation's set-up at time zero), and under any other
     * scheduler. The resolution is read when a scheduler hands over its first event: ns-3
     * fixes it when a simulation first runs (Time::SetResolution cannot follow
     * Simulator::Run).
     * A WindowedCalendarScheduler used outside a simulator (RemoveNext called directly, as the
     * tests do) counts as handing over its events too, until it is destroyed: do not keep one
     * alive beside a running simulation.
     * @return the time, or nullptr when it is not known.
     */
    static const RunningTime* PeekRunningTime()
    {
        return s_runner ? &s_running : nullptr;
    }

    /**
     * @return the width of a bucket in the time resolution's units (a power of two).
     */
    uint64_t GetBucketTicks() const;

    /**
     * @return the number of buckets in the window.
     */
    uint32_t GetBucketCount() const;

    /**
     * @return the number of events now held by the heap beyond the window (for tests).
     */
    uint64_t GetOverflowCount() const;

  private:
    /// The scheduler that handed over the event being run (PeekRunningTime), or none.
    static const WindowedCalendarScheduler* s_runner;
    /// The time of that event.
    static RunningTime s_running;

    /// One bucket: its events sorted by key from @c head on (those before were taken out).
    struct Bucket
    {
        std::vector<Event> events; //!< the events, sorted from head on
        uint32_t head{0};          //!< the first event not yet taken out
    };

    /**
     * Set BucketWidth (while empty).
     * @param width the width asked for.
     */
    void SetBucketWidth(Time width);

    /**
     * @return BucketWidth as asked for.
     */
    Time GetBucketWidth() const;

    /**
     * Set BucketsLog2 (while empty).
     * @param log2 the base-2 logarithm of the number of buckets.
     */
    void SetBucketsLog2(uint32_t log2);

    /**
     * @return BucketsLog2.
     */
    uint32_t GetBucketsLog2() const;

    /// Size the buckets, the bitmap and the window from the attributes (while empty).
    void Build();

    /**
     * Put an event whose time is inside the window into its bucket.
     * @param ev the event.
     */
    void InsertInWindow(const Event& ev);

    /**
     * @param from a bucket index.
     * @return the first bucket in use from @p from on, going round (the window must hold an
     * event).
     */
    uint32_t FindBucketInUse(uint32_t from) const;

    /**
     * Mark a bucket whose events have all been taken out as empty (its memory goes back if a
     * burst made it large).
     * @param index the bucket.
     */
    void EmptyBucket(uint32_t index);

    /// Move the events of the heap that the window now covers into their buckets.
    void Refill();

    /**
     * Start the window at the bucket of a time, moving every event of the window to the heap
     * first (for an event earlier than the window, or an empty window).
     * @param ts the time, in the time resolution's units.
     */
    void Rebase(uint64_t ts);

    /**
     * @param ts a time inside the window, in the time resolution's units.
     * @return the index of its bucket.
     */
    uint32_t BucketOf(uint64_t ts) const;

    /**
     * The heap's order: true if @p a runs after @p b (std::push_heap's "less" for a min-heap).
     * @param a an event.
     * @param b another.
     * @return whether @p a comes after @p b.
     */
    static bool Later(const Event& a, const Event& b);

    Time m_bucketWidth;            //!< BucketWidth
    uint32_t m_bucketsLog2;        //!< BucketsLog2
    uint32_t m_shift{0};           //!< log2 of the bucket width in ticks
    uint32_t m_mask{0};            //!< bucket count minus one
    uint64_t m_span{0};            //!< the window's length in ticks
    std::vector<Bucket> m_buckets; //!< the window
    std::vector<uint64_t> m_inUse; //!< one bit per bucket: it holds an event
    uint64_t m_base{0};            //!< start of the window (of bucket m_current), in ticks
    uint32_t m_current{0};         //!< the bucket the window starts with
    uint64_t m_windowCount{0};     //!< events in the buckets
    std::vector<Event> m_overflow; //!< events beyond the window, a min-heap by Later
};

} // namespace ns3

#endif // WINDOWED_CALENDAR_SCHEDULER_H
