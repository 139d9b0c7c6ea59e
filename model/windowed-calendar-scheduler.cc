/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "windowed-calendar-scheduler.h"

#include "ns3/abort.h"
#include "ns3/assert.h"
#include "ns3/exact-time.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WindowedCalendarScheduler");

NS_OBJECT_ENSURE_REGISTERED(WindowedCalendarScheduler);

namespace
{
/// Bits per word of the bitmap of buckets in use.
constexpr uint32_t WORD_BITS = 64;
/// log2 of WORD_BITS.
constexpr uint32_t WORD_SHIFT = 6;
/// A bucket that empties keeps its memory for up to this many events.
constexpr size_t KEPT_BUCKET_CAPACITY = 16;
/// The heap keeps its memory for up to this many events, or four times what it holds.
constexpr size_t KEPT_HEAP_CAPACITY = 4096;
/// BucketWidth's default, in nanoseconds.
constexpr int64_t DEFAULT_BUCKET_WIDTH_NS = 4;
/// BucketsLog2's default.
constexpr uint32_t DEFAULT_BUCKETS_LOG2 = 12;
} // namespace

TypeId
WindowedCalendarScheduler::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WindowedCalendarScheduler")
            .SetParent<Scheduler>()
            .SetGroupName("LlmFabric")
            .AddConstructor<WindowedCalendarScheduler>()
            .AddAttribute("BucketWidth",
                          "The time one bucket of the window covers, used as the largest power "
                          "of two of the time resolution's unit not above it; events of one "
                          "bucket are kept sorted, so a bucket should hold a few at most.",
                          TimeValue(NanoSeconds(DEFAULT_BUCKET_WIDTH_NS)),
                          MakeTimeAccessor(&WindowedCalendarScheduler::SetBucketWidth,
                                           &WindowedCalendarScheduler::GetBucketWidth),
                          MakeTimeChecker(TimeStep(1), Seconds(1)))
            .AddAttribute("BucketsLog2",
                          "The base-2 logarithm of the number of buckets in the window; events "
                          "beyond the window wait in a binary heap.",
                          UintegerValue(DEFAULT_BUCKETS_LOG2),
                          MakeUintegerAccessor(&WindowedCalendarScheduler::SetBucketsLog2,
                                               &WindowedCalendarScheduler::GetBucketsLog2),
                          MakeUintegerChecker<uint32_t>(WORD_SHIFT, 24));
    return tid;
}

const WindowedCalendarScheduler* WindowedCalendarScheduler::s_runner = nullptr;
WindowedCalendarScheduler::RunningTime WindowedCalendarScheduler::s_running;

WindowedCalendarScheduler::WindowedCalendarScheduler()
    : m_bucketWidth(NanoSeconds(DEFAULT_BUCKET_WIDTH_NS)),
      m_bucketsLog2(DEFAULT_BUCKETS_LOG2)
{
    NS_LOG_FUNCTION(this);
    Build();
}

WindowedCalendarScheduler::~WindowedCalendarScheduler()
{
    NS_LOG_FUNCTION(this);
    if (s_runner == this)
    {
        s_runner = nullptr; // with the simulator, or replaced: the time is no longer known here
    }
}

void
WindowedCalendarScheduler::SetBucketWidth(Time width)
{
    NS_LOG_FUNCTION(this << width);
    NS_ABORT_MSG_IF(!IsEmpty(), "WindowedCalendarScheduler: BucketWidth set while holding events");
    m_bucketWidth = width;
    Build();
}

Time
WindowedCalendarScheduler::GetBucketWidth() const
{
    return m_bucketWidth;
}

void
WindowedCalendarScheduler::SetBucketsLog2(uint32_t log2)
{
    NS_LOG_FUNCTION(this << log2);
    NS_ABORT_MSG_IF(!IsEmpty(), "WindowedCalendarScheduler: BucketsLog2 set while holding events");
    m_bucketsLog2 = log2;
    Build();
}

uint32_t
WindowedCalendarScheduler::GetBucketsLog2() const
{
    return m_bucketsLog2;
}

uint64_t
WindowedCalendarScheduler::GetBucketTicks() const
{
    return uint64_t{1} << m_shift;
}

uint32_t
WindowedCalendarScheduler::GetBucketCount() const
{
    return m_mask + 1;
}

uint64_t
WindowedCalendarScheduler::GetOverflowCount() const
{
    return m_overflow.size();
}

void
WindowedCalendarScheduler::Build()
{
    const uint64_t ticks = std::max<int64_t>(m_bucketWidth.GetTimeStep(), 1);
    m_shift = 0;
    while (m_shift < 63 && (uint64_t{2} << m_shift) <= ticks)
    {
        ++m_shift;
    }
    const uint32_t count = uint32_t{1} << m_bucketsLog2;
    m_mask = count - 1;
    // A window longer than the clock's range would wrap: keep shift + log2 below 64.
    NS_ABORT_MSG_IF(m_shift + m_bucketsLog2 >= 63,
                    "WindowedCalendarScheduler: a window of 2^" << m_shift + m_bucketsLog2
                                                                << " ticks is too long");
    m_span = uint64_t{count} << m_shift;
    m_buckets.assign(count, Bucket());
    m_inUse.assign(count >> WORD_SHIFT, 0);
    m_base = 0;
    m_current = 0;
    m_windowCount = 0;
    m_overflow.clear();
}

uint32_t
WindowedCalendarScheduler::BucketOf(uint64_t ts) const
{
    return static_cast<uint32_t>(ts >> m_shift) & m_mask;
}

bool
WindowedCalendarScheduler::Later(const Event& a, const Event& b)
{
    return b.key < a.key;
}

void
WindowedCalendarScheduler::Insert(const Event& ev)
{
    const uint64_t ts = ev.key.m_ts;
    // One unsigned comparison tells both "before the window" and "beyond it".
    if (ts - m_base >= m_span)
    {
        if (ts >= m_base)
        {
            m_overflow.push_back(ev);
            std::push_heap(m_overflow.begin(), m_overflow.end(), &Later);
            return;
        }
        // Earlier than the window (never from ns-3's simulator, whose clock does not go back).
        Rebase(ts);
    }
    InsertInWindow(ev);
}

void
WindowedCalendarScheduler::InsertInWindow(const Event& ev)
{
    const uint32_t index = BucketOf(ev.key.m_ts);
    Bucket& bucket = m_buckets[index];
    std::vector<Event>& events = bucket.events;
    if (events.empty())
    {
        m_inUse[index >> WORD_SHIFT] |= uint64_t{1} << (index & (WORD_BITS - 1));
        events.push_back(ev);
    }
    else if (!(ev.key < events.back().key))
    {
        events.push_back(ev);
    }
    else
    {
        auto position = events.end() - 1;
        const auto first = events.begin() + bucket.head;
        while (position != first && ev.key < (position - 1)->key)
        {
            --position;
        }
        events.insert(position, ev);
    }
    ++m_windowCount;
}

uint32_t
WindowedCalendarScheduler::FindBucketInUse(uint32_t from) const
{
    const uint32_t words = static_cast<uint32_t>(m_inUse.size());
    uint32_t word = from >> WORD_SHIFT;
    uint64_t bits = m_inUse[word] & (~uint64_t{0} << (from & (WORD_BITS - 1)));
    // At most every word once, and the first one again for the buckets before @p from in it.
    for (uint32_t n = 0; n <= words; ++n)
    {
        if (bits != 0)
        {
            return (word << WORD_SHIFT) + static_cast<uint32_t>(__builtin_ctzll(bits));
        }
        word = (word + 1) & (words - 1);
        bits = m_inUse[word];
    }
    NS_ABORT_MSG("WindowedCalendarScheduler: " << m_windowCount << " events, no bucket in use");
    return from;
}

void
WindowedCalendarScheduler::EmptyBucket(uint32_t index)
{
    Bucket& bucket = m_buckets[index];
    if (bucket.events.capacity() > KEPT_BUCKET_CAPACITY)
    {
        // A burst of events at nearly one time: its memory goes back, rather than stay with
        // this bucket while the heap or other buckets grow to hold the next burst.
        std::vector<Event>().swap(bucket.events);
    }
    else
    {
        bucket.events.clear();
    }
    bucket.head = 0;
    m_inUse[index >> WORD_SHIFT] &= ~(uint64_t{1} << (index & (WORD_BITS - 1)));
}

void
WindowedCalendarScheduler::Refill()
{
    const uint64_t end = m_base + m_span;
    if (m_overflow.empty() || m_overflow.front().key.m_ts >= end)
    {
        return;
    }
    do
    {
        std::pop_heap(m_overflow.begin(), m_overflow.end(), &Later);
        InsertInWindow(m_overflow.back());
        m_overflow.pop_back();
    } while (!m_overflow.empty() && m_overflow.front().key.m_ts < end);
    if (m_overflow.capacity() > KEPT_HEAP_CAPACITY && m_overflow.size() < m_overflow.capacity() / 4)
    {
        // The events that waited beyond the window have moved into it: the heap gives back
        // what they took, as the buckets now hold them.
        m_overflow.shrink_to_fit();
    }
}

void
WindowedCalendarScheduler::Rebase(uint64_t ts)
{
    NS_LOG_FUNCTION(this << ts);
    for (uint32_t i = 0; m_windowCount != 0 && i <= m_mask; ++i)
    {
        Bucket& bucket = m_buckets[i];
        if (bucket.events.empty())
        {
            continue;
        }
        for (size_t j = bucket.head; j < bucket.events.size(); ++j)
        {
            m_overflow.push_back(bucket.events[j]);
            std::push_heap(m_overflow.begin(), m_overflow.end(), &Later);
        }
        m_windowCount -= bucket.events.size() - bucket.head;
        EmptyBucket(i);
    }
    m_base = (ts >> m_shift) << m_shift;
    m_current = BucketOf(ts);
    Refill();
}

bool
WindowedCalendarScheduler::IsEmpty() const
{
    return m_windowCount == 0 && m_overflow.empty();
}

Scheduler::Event
WindowedCalendarScheduler::PeekNext() const
{
    NS_ASSERT_MSG(!IsEmpty(), "WindowedCalendarScheduler: PeekNext on an empty scheduler");
    if (m_windowCount == 0)
    {
        return m_overflow.front();
    }
    const Bucket& bucket = m_buckets[FindBucketInUse(m_current)];
    return bucket.events[bucket.head];
}

Scheduler::Event
WindowedCalendarScheduler::RemoveNext()
{
    NS_ASSERT_MSG(!IsEmpty(), "WindowedCalendarScheduler: RemoveNext on an empty scheduler");
    if (m_windowCount == 0)
    {
        // Nothing in the window: it jumps to the earliest event of the heap.
        Rebase(m_overflow.front().key.m_ts);
    }
    const uint32_t index = FindBucketInUse(m_current);
    if (index != m_current)
    {
        // The window slides to start with this bucket; the buckets it leaves now cover the
        // time past its old end, which the heap may hold events of.
        m_base += static_cast<uint64_t>((index - m_current) & m_mask) << m_shift;
        m_current = index;
        Refill();
    }
    Bucket& bucket = m_buckets[index];
    Event next = bucket.events[bucket.head];
    if (++bucket.head == bucket.events.size())
    {
        EmptyBucket(index);
    }
    else
    {
        __builtin_prefetch(bucket.events[bucket.head].impl);
    }
    --m_windowCount;
    // The simulator runs what RemoveNext returns, at its time (ns-3's simulators also call it
    // to drain or move events, at Destroy and SetScheduler, after which this scheduler is
    // destroyed).
    if (s_runner != this)
    {
        s_runner = this;
        s_running.fsPerStep = ExactTime::ReadResolutionFs();
    }
    s_running.ts = next.key.m_ts;
    s_running.fs = static_cast<int64_t>(next.key.m_ts) * s_running.fsPerStep;
    return next;
}

void
WindowedCalendarScheduler::Remove(const Event& ev)
{
    NS_LOG_FUNCTION(this << ev.key.m_ts << ev.key.m_uid);
    if (ev.key.m_ts - m_base < m_span)
    {
        const uint32_t index = BucketOf(ev.key.m_ts);
        Bucket& bucket = m_buckets[index];
        auto it = std::find_if(bucket.events.begin() + bucket.head,
                               bucket.events.end(),
                               [&ev](const Event& e) { return e.key.m_uid == ev.key.m_uid; });
        NS_ABORT_MSG_IF(it == bucket.events.end(), "WindowedCalendarScheduler: no such event");
        bucket.events.erase(it);
        if (bucket.head == bucket.events.size())
        {
            EmptyBucket(index);
        }
        --m_windowCount;
        return;
    }
    auto it = std::find_if(m_overflow.begin(), m_overflow.end(), [&ev](const Event& e) {
        return e.key.m_uid == ev.key.m_uid;
    });
    NS_ABORT_MSG_IF(it == m_overflow.end(), "WindowedCalendarScheduler: no such event");
    *it = m_overflow.back();
    m_overflow.pop_back();
    std::make_heap(m_overflow.begin(), m_overflow.end(), &Later);
}

} // namespace ns3
