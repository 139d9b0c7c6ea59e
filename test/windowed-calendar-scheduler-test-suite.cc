/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/exact-time.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/windowed-calendar-scheduler.h"

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of WindowedCalendarScheduler: the order in which it hands out events, against a sorted
 * set of the same keys over random operations that cross its window in every way; the order in
 * which ns-3's simulator runs events on it, worked out by hand; and its bucket sizing.
 *
 * The random operations use std::mt19937_64 with fixed seeds and its raw outputs (the standard
 * specifies them exactly), so every run sees the same operations.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The order every ns-3 scheduler hands events out in: time, then uid (Scheduler::EventKey).
struct KeyOrder
{
    /**
     * @param a a key.
     * @param b another.
     * @return whether @p a comes first.
     */
    bool operator()(const Scheduler::EventKey& a, const Scheduler::EventKey& b) const
    {
        return a.m_ts < b.m_ts || (a.m_ts == b.m_ts && a.m_uid < b.m_uid);
    }
};

/**
 * Make a scheduler with the given attributes.
 * @param width BucketWidth.
 * @param log2 BucketsLog2.
 * @return the scheduler.
 */
Ptr<WindowedCalendarScheduler>
MakeScheduler(Time width, uint32_t log2)
{
    ObjectFactory factory("ns3::WindowedCalendarScheduler");
    factory.Set("BucketWidth", TimeValue(width));
    factory.Set("BucketsLog2", UintegerValue(log2));
    return factory.Create<WindowedCalendarScheduler>();
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Random inserts, removals of pending events, peeks and takes, each checked against a
 * std::set ordered by (time, uid), the order ns-3's Scheduler defines. The times are drawn
 * to land in the same tick as the last event taken, in the same and nearby buckets, anywhere in
 * the window, beyond it (the heap), far beyond it (the window jumps), and, for the scheduler's
 * own interface (ns-3's simulator never does it), before the window (it starts again earlier).
 * Three sizings: a window of 64 buckets of one tick (almost everything goes through the heap and
 * the window wraps constantly), the default, and wide buckets (many events per bucket, kept
 * sorted by insertion from the back).
 */
class WindowedCalendarOrderTestCase : public TestCase
{
  public:
    WindowedCalendarOrderTestCase()
        : TestCase("events come out in (time, uid) order, whatever crosses the window")
    {
    }

  private:
    void DoRun() override
    {
        Check(NanoSeconds(1), 6, 1);
        Check(NanoSeconds(4), 12, 2);
        Check(MicroSeconds(1), 6, 3);
    }

    /**
     * Run the random operations on one sizing.
     * @param width BucketWidth.
     * @param log2 BucketsLog2.
     * @param seed the generator's seed.
     */
    void Check(Time width, uint32_t log2, uint64_t seed)
    {
        Ptr<WindowedCalendarScheduler> scheduler = MakeScheduler(width, log2);
        const uint64_t window = scheduler->GetBucketTicks() * scheduler->GetBucketCount();
        std::mt19937_64 rng(seed);
        std::set<Scheduler::EventKey, KeyOrder> reference;
        std::vector<Scheduler::EventKey> pending; // for removals by position, may hold stale
        uint32_t uid = 0;
        uint64_t now = 0;
        uint64_t overflowSeen = 0;
        const std::string where = "width " + std::to_string(scheduler->GetBucketTicks()) +
                                  " ticks, " + std::to_string(scheduler->GetBucketCount()) +
                                  " buckets: ";
        for (uint32_t op = 0; op < 200000; ++op)
        {
            const uint64_t r = rng() % 100;
            if (r < 50 || reference.empty())
            {
                uint64_t ts = now;
                switch (rng() % 8)
                {
                case 0:
                    break; // the same tick
                case 1:
                    ts += rng() % 8;
                    break;
                case 2:
                case 3:
                    ts += rng() % window;
                    break;
                case 4:
                    ts += window + rng() % (2 * window);
                    break;
                case 5:
                    ts += rng() % (1000 * window);
                    break;
                case 6:
                    ts += rng() % (4 * scheduler->GetBucketTicks());
                    break;
                default:
                    // Before the last event taken: allowed by the interface, never done by ns-3.
                    ts = rng() % 64 == 0 && now > 0 ? now - 1 - rng() % std::min(now, window)
                                                    : now + rng() % 64;
                    break;
                }
                Scheduler::Event ev;
                ev.impl = nullptr;
                ev.key.m_ts = ts;
                ev.key.m_uid = uid++;
                ev.key.m_context = ev.key.m_uid % 7;
                scheduler->Insert(ev);
                reference.insert(ev.key);
                pending.push_back(ev.key);
                overflowSeen = std::max(overflowSeen, scheduler->GetOverflowCount());
            }
            else if (r < 80)
            {
                Scheduler::Event next = scheduler->RemoveNext();
                const Scheduler::EventKey expected = *reference.begin();
                reference.erase(reference.begin());
                if (next.key.m_uid != expected.m_uid || next.key.m_ts != expected.m_ts ||
                    next.key.m_context != expected.m_uid % 7)
                {
                    // The test runner continues after a failed assertion: stop here, before
                    // operations on a scheduler that no longer holds what the set holds.
                    NS_TEST_ASSERT_MSG_EQ(next.key.m_uid,
                                          expected.m_uid,
                                          where << "uid, op " << op);
                    NS_TEST_ASSERT_MSG_EQ(next.key.m_ts, expected.m_ts, where << "time, op " << op);
                    NS_TEST_ASSERT_MSG_EQ(next.key.m_context,
                                          expected.m_uid % 7,
                                          where << "context, op " << op);
                    return;
                }
                now = next.key.m_ts;
            }
            else if (r < 90)
            {
                Scheduler::Event peek = scheduler->PeekNext();
                if (peek.key.m_uid != reference.begin()->m_uid)
                {
                    NS_TEST_ASSERT_MSG_EQ(peek.key.m_uid,
                                          reference.begin()->m_uid,
                                          where << "peek, op " << op);
                    return;
                }
            }
            else
            {
                // Remove a pending event picked at random (skipping those already taken).
                const size_t at = rng() % pending.size();
                const Scheduler::EventKey key = pending[at];
                pending[at] = pending.back();
                pending.pop_back();
                if (reference.count(key) == 1)
                {
                    Scheduler::Event ev;
                    ev.impl = nullptr;
                    ev.key = key;
                    scheduler->Remove(ev);
                    reference.erase(key);
                }
            }
            if (scheduler->IsEmpty() != reference.empty())
            {
                NS_TEST_ASSERT_MSG_EQ(scheduler->IsEmpty(),
                                      reference.empty(),
                                      where << "op " << op);
                return;
            }
        }
        while (!reference.empty())
        {
            Scheduler::Event next = scheduler->RemoveNext();
            if (next.key.m_uid != reference.begin()->m_uid)
            {
                NS_TEST_ASSERT_MSG_EQ(next.key.m_uid, reference.begin()->m_uid, where << "drain");
                return;
            }
            reference.erase(reference.begin());
        }
        NS_TEST_ASSERT_MSG_EQ(scheduler->IsEmpty(), true, where << "empty at the end");
        // The draws reach beyond the window, so the heap was used.
        NS_TEST_ASSERT_MSG_GT(overflowSeen, 0, where << "the heap held events");
    }
};

/**
 * @ingroup llm-fabric-tests
 * ns-3's simulator on this scheduler, with the default sizing (4096 buckets of 4 ns, a 16,384 ns
 * window): events at 10 ns (A), 5 ns (B), 10 ns (C), 1 ms (D, in the heap), 10 ns (E), 20 us (F,
 * just beyond the window) and 16,380 ns (G, the window's last bucket), C removed with
 * Simulator::Remove and E cancelled; B schedules H at 0 delay (the same tick, after B) and I at
 * 5 ns (10 ns, after A and E, which were scheduled before it); D schedules J at 0 delay. By
 * time, then by order of scheduling: B 5, H 5, A 10, I 10, G 16380, F 20000, D 1000000,
 * J 1000000.
 */
class WindowedCalendarSimulatorTestCase : public TestCase
{
  public:
    WindowedCalendarSimulatorTestCase()
        : TestCase("ns-3's simulator runs events on it in time, then scheduling, order")
    {
    }

  private:
    /**
     * Record an event's name and time.
     * @param name its name.
     */
    void Record(std::string name)
    {
        m_order += name + "@" + std::to_string(Simulator::Now().GetNanoSeconds()) + " ";
    }

    /// B's work: record, then schedule H and I.
    void RunB()
    {
        Record("B");
        Simulator::ScheduleNow(&WindowedCalendarSimulatorTestCase::Record, this, "H");
        Simulator::Schedule(NanoSeconds(5), &WindowedCalendarSimulatorTestCase::Record, this, "I");
    }

    /// D's work: record, then schedule J.
    void RunD()
    {
        Record("D");
        Simulator::ScheduleNow(&WindowedCalendarSimulatorTestCase::Record, this, "J");
    }

    void DoRun() override
    {
        Simulator::SetScheduler(ObjectFactory("ns3::WindowedCalendarScheduler"));
        m_order.clear();
        Simulator::Schedule(NanoSeconds(10), &WindowedCalendarSimulatorTestCase::Record, this, "A");
        Simulator::Schedule(NanoSeconds(5), &WindowedCalendarSimulatorTestCase::RunB, this);
        EventId c = Simulator::Schedule(NanoSeconds(10),
                                        &WindowedCalendarSimulatorTestCase::Record,
                                        this,
                                        "C");
        Simulator::Schedule(MilliSeconds(1), &WindowedCalendarSimulatorTestCase::RunD, this);
        EventId e = Simulator::Schedule(NanoSeconds(10),
                                        &WindowedCalendarSimulatorTestCase::Record,
                                        this,
                                        "E");
        Simulator::Schedule(MicroSeconds(20),
                            &WindowedCalendarSimulatorTestCase::Record,
                            this,
                            "F");
        Simulator::Schedule(NanoSeconds(16380),
                            &WindowedCalendarSimulatorTestCase::Record,
                            this,
                            "G");
        Simulator::Remove(c);
        e.Cancel();
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(m_order,
                              "B@5 H@5 A@10 I@10 G@16380 F@20000 D@1000000 J@1000000 ",
                              "the order of execution");
    }

    std::string m_order; //!< names and times of the events run, in order
};

/**
 * @ingroup llm-fabric-tests
 * ExactTime::Now(), NowFs() and GetResolutionFs(), which read the running event's time from
 * the WindowedCalendarScheduler that handed it over instead of calling ns-3's simulator, give
 * what Simulator::Now() and the time resolution give: at every event it runs (events inside
 * its window, beyond it in the heap, several of one tick, scheduled from within an event);
 * at the end of a run; after Simulator::SetScheduler has replaced it in the middle of a run
 * (ns-3 drains it with RemoveNext, so without the reset in its destructor the clock would read
 * the time of the last event moved, 3 ms, at 1.5 ms); and in a new simulation's set-up at
 * time zero after Simulator::Destroy (without that reset, the last run's 3 ms).
 */
class WindowedCalendarRunningTimeTestCase : public TestCase
{
  public:
    WindowedCalendarRunningTimeTestCase()
        : TestCase("ExactTime::Now is Simulator::Now: at each event, after SetScheduler, after "
                   "Destroy")
    {
    }

  private:
    /**
     * Compare the two clocks now.
     * @param where what is checked, for the message.
     */
    void Check(const std::string& where)
    {
        ++m_checks;
        Time now = Simulator::Now();
        int64_t unitFs = Time::FromInteger(1, Time::GetResolution()).GetFemtoSeconds();
        if (ExactTime::Now() != now || ExactTime::NowFs() != now.GetFemtoSeconds() ||
            ExactTime::GetResolutionFs() != unitFs)
        {
            ++m_mismatches;
            if (m_first.empty())
            {
                m_first = where + " at " + std::to_string(now.GetNanoSeconds()) +
                          " ns: ExactTime::Now " +
                          std::to_string(ExactTime::Now().GetNanoSeconds()) + " ns";
            }
        }
    }

    /**
     * An event: check, and now and then schedule another in the same tick.
     * @param k its number.
     */
    void Probe(uint32_t k)
    {
        Check("event " + std::to_string(k));
        if (k % 7 == 0)
        {
            Simulator::ScheduleNow(&WindowedCalendarRunningTimeTestCase::Probe, this, k + 1);
        }
    }

    /// Replace the scheduler by ns-3's map scheduler, in the middle of the run.
    void Replace()
    {
        Check("before SetScheduler");
        Simulator::SetScheduler(ObjectFactory("ns3::MapScheduler"));
        Check("after SetScheduler");
    }

    void DoRun() override
    {
        m_checks = 0;
        m_mismatches = 0;
        m_first.clear();
        Simulator::SetScheduler(ObjectFactory("ns3::WindowedCalendarScheduler"));
        Check("set-up, first simulation");
        std::mt19937_64 random(12345);
        for (uint32_t k = 1; k <= 2000; k += 2)
        {
            // Up to 3 ms: the window (4,096 buckets of 4 ns) covers about 16 us, so most go to
            // the heap first; k = 1999 is the last, at 3 ms.
            uint64_t ns = (k == 1999) ? 3000000 : random() % 3000000;
            Simulator::Schedule(NanoSeconds(ns),
                                &WindowedCalendarRunningTimeTestCase::Probe,
                                this,
                                k);
        }
        Simulator::Schedule(MicroSeconds(1500),
                            &WindowedCalendarRunningTimeTestCase::Replace,
                            this);
        Simulator::Run();
        Check("after the run");
        uint64_t checksFirst = m_checks;
        Simulator::Destroy();

        Simulator::SetScheduler(ObjectFactory("ns3::WindowedCalendarScheduler"));
        Check("set-up after Destroy");
        Simulator::Schedule(MicroSeconds(7), &WindowedCalendarRunningTimeTestCase::Probe, this, 1);
        Simulator::Run();
        Check("after the second run");
        Simulator::Destroy();

        // 1 + 1000 probes + one more for each multiple of 7 among the odd numbers up to 1999
        // (143), 2 around SetScheduler, 1 after the run.
        NS_TEST_ASSERT_MSG_EQ(checksFirst, 1 + 1000 + 143 + 2 + 1, "checks in the first run");
        NS_TEST_EXPECT_MSG_EQ(m_mismatches, 0, "first mismatch: " << m_first);
    }

    uint64_t m_checks{0};     //!< comparisons made
    uint64_t m_mismatches{0}; //!< comparisons that differed
    std::string m_first;      //!< the first that differed
};

/**
 * @ingroup llm-fabric-tests
 * The sizing: BucketWidth is used as the largest power of two of the resolution's unit (here
 * the nanosecond, ns-3's default) not above it, so 4 ns gives 4 ticks, 5 ns and 7 ns 4, 8 ns 8,
 * 1 ns 1; BucketsLog2 12 gives 4096 buckets. An event inside the window (at 4 * 4096 - 1 =
 * 16,383 ticks) goes to a bucket, one at 16,384 to the heap, which it leaves when the window
 * reaches it.
 */
class WindowedCalendarSizingTestCase : public TestCase
{
  public:
    WindowedCalendarSizingTestCase()
        : TestCase("bucket width rounded down to a power of two ticks; the window's end")
    {
    }

  private:
    void DoRun() override
    {
        NS_TEST_ASSERT_MSG_EQ(MakeScheduler(NanoSeconds(4), 12)->GetBucketTicks(), 4, "4 ns");
        NS_TEST_ASSERT_MSG_EQ(MakeScheduler(NanoSeconds(5), 12)->GetBucketTicks(), 4, "5 ns");
        NS_TEST_ASSERT_MSG_EQ(MakeScheduler(NanoSeconds(7), 12)->GetBucketTicks(), 4, "7 ns");
        NS_TEST_ASSERT_MSG_EQ(MakeScheduler(NanoSeconds(8), 12)->GetBucketTicks(), 8, "8 ns");
        NS_TEST_ASSERT_MSG_EQ(MakeScheduler(NanoSeconds(1), 12)->GetBucketTicks(), 1, "1 ns");
        NS_TEST_ASSERT_MSG_EQ(MakeScheduler(NanoSeconds(4), 12)->GetBucketCount(), 4096, "2^12");

        Ptr<WindowedCalendarScheduler> scheduler = MakeScheduler(NanoSeconds(4), 12);
        Scheduler::Event inside;
        inside.impl = nullptr;
        inside.key.m_ts = 16383;
        inside.key.m_uid = 1;
        inside.key.m_context = 0;
        scheduler->Insert(inside);
        NS_TEST_ASSERT_MSG_EQ(scheduler->GetOverflowCount(), 0, "16,383 ticks: in a bucket");
        Scheduler::Event beyond = inside;
        beyond.key.m_ts = 16384;
        beyond.key.m_uid = 2;
        scheduler->Insert(beyond);
        NS_TEST_ASSERT_MSG_EQ(scheduler->GetOverflowCount(), 1, "16,384 ticks: in the heap");
        NS_TEST_ASSERT_MSG_EQ(scheduler->RemoveNext().key.m_uid, 1, "the first");
        NS_TEST_ASSERT_MSG_EQ(scheduler->GetOverflowCount(), 0, "the window reached it");
        NS_TEST_ASSERT_MSG_EQ(scheduler->IsEmpty(), false, "the second is there");
        if (scheduler->IsEmpty())
        {
            return; // the runner continues after a failure: no RemoveNext on an empty scheduler
        }
        NS_TEST_ASSERT_MSG_EQ(scheduler->RemoveNext().key.m_uid, 2, "the second");
        NS_TEST_ASSERT_MSG_EQ(scheduler->IsEmpty(), true, "empty");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The windowed calendar scheduler test suite.
 */
class WindowedCalendarSchedulerTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    WindowedCalendarSchedulerTestSuite()
        : TestSuite("llm-fabric-windowed-calendar-scheduler", Type::UNIT)
    {
        AddTestCase(new WindowedCalendarOrderTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new WindowedCalendarSimulatorTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new WindowedCalendarSizingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new WindowedCalendarRunningTimeTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static WindowedCalendarSchedulerTestSuite g_windowedCalendarSchedulerTestSuite;

} // namespace tests
} // namespace llmfabric
